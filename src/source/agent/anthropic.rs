//! The Anthropic Messages API's message and content-block shapes, as the
//! agents built on it save them (Claude Code's sessions, Cline CLI's
//! `messages.json`): only the fields srview reads; and its streaming
//! events, as Claude Code and Qwen Code print them live (`stream_event`
//! lines), with the tool inputs they stream.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::store::Store;
use super::{AgentTool, EditInput};
use crate::dialect::edit::{Field, PartialEdit};

#[derive(Deserialize)]
pub(super) struct Message {
    #[serde(default)]
    pub(super) content: Option<Value>,
}

/// A content block; every field may be missing (then empty).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Block {
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) input: Option<Value>,
    pub(super) tool_use_id: Option<String>,
    pub(super) content: Option<Value>,
}

/// A message as an `assistant` or `user` line carries it: its content
/// kept as the line's raw JSON text (read by [`blocks`]).
#[derive(Deserialize)]
pub(super) struct LineMessage<'a> {
    #[serde(default, borrow)]
    pub(super) content: Option<&'a RawValue>,
}

/// A content block of an `assistant` or `user` line, read in one pass
/// and borrowing from the line; its input and its result's content as `V`
/// (`&RawValue`: raw JSON text, read later only as far as needed;
/// `Value`: read whole).
#[derive(Deserialize)]
#[serde(bound(deserialize = "V: Deserialize<'de>"))]
pub(super) struct LineBlock<'a, V> {
    #[serde(rename = "type", default, borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default, borrow)]
    pub(super) name: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) input: Option<V>,
    #[serde(default, borrow)]
    pub(super) tool_use_id: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) content: Option<V>,
    #[serde(default)]
    pub(super) is_error: Option<bool>,
}

impl<V> LineBlock<'_, V> {
    /// The edit (`by_id`: tool-use id → edit index) whose tool call this
    /// `tool_result` block answers.
    pub(super) fn answered_edit(&self, by_id: &HashMap<String, usize>) -> Option<usize> {
        self.tool_use_id
            .as_deref()
            .and_then(|id| by_id.get(id))
            .copied()
    }
}

/// The content blocks of `kind` (`tool_use`, `tool_result`) of a line's
/// message whose content is an array; a block of an unknown shape is
/// skipped.
pub(super) fn blocks<'a, V: Deserialize<'a>>(
    message: Option<&LineMessage<'a>>,
    kind: &str,
) -> impl Iterator<Item = LineBlock<'a, V>> {
    super::reader::known_items::<LineBlock<'a, V>>(message.and_then(|m| m.content))
        .into_iter()
        .filter(move |block| block.kind == kind)
}

/// A tool result's content as text: a string, or the text blocks of an
/// array (no content or another value: empty).
pub(super) fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A `stream_event` line's event.
#[derive(Deserialize)]
pub(super) struct StreamEvent {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    index: Option<u64>,
    #[serde(default)]
    content_block: Option<Block>,
    #[serde(default)]
    delta: Option<Delta>,
}

#[derive(Deserialize)]
struct Delta {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    partial_json: Option<String>,
}

/// The edit calls of the message streaming, by content-block index: each
/// is in the store from its `content_block_start`, its input read as far
/// as it arrived at every `input_json_delta`, and settled by the
/// `assistant` line that carries it whole.
#[derive(Default)]
pub(super) struct ToolInputs {
    streaming: HashMap<u64, Streaming>,
}

struct Streaming {
    /// The Claude Code tool with the same keys (for the partial input).
    keys_of: &'static str,
    json: String,
    index: usize,
}

/// Whether an edit keeps its tool-use id as its call id (what the gate's
/// record is joined by: Claude Code's hook payload names it; Qwen Code's
/// record is joined by the input's hash).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum CallIds {
    Recorded,
    NotRecorded,
}

impl ToolInputs {
    /// Takes one event. `edit_tool`: the agent's edit tool of a tool name
    /// and the Claude Code tool with the same input keys (`None`: not an
    /// edit tool); `by_id`: tool-use id → edit index, filled here.
    pub(super) fn take(
        &mut self,
        event: StreamEvent,
        store: &mut Store,
        by_id: &mut HashMap<String, usize>,
        ids: CallIds,
        edit_tool: impl Fn(&str) -> Option<(AgentTool, &'static str)>,
    ) {
        match event.kind.as_str() {
            "message_start" => self.streaming.clear(),
            "content_block_start" => {
                let (Some(index), Some(block)) = (event.index, event.content_block) else {
                    return;
                };
                if block.kind != "tool_use" {
                    return;
                }
                let Some((tool, keys_of)) = block.name.as_deref().and_then(&edit_tool) else {
                    return;
                };
                let Some(id) = block.id else {
                    let name = block.name.unwrap_or_default();
                    return store.missing(&format!("{name} tool_use"), "id");
                };
                let input = match PartialEdit::parse(keys_of, "") {
                    Ok(p) => EditInput::Partial(p),
                    Err(_) => EditInput::NotRecorded,
                };
                let at = store.push(tool, "", input, true);
                if ids == CallIds::Recorded {
                    store.set_call_id(at, Some(&id));
                }
                by_id.insert(id, at);
                self.streaming.insert(
                    index,
                    Streaming {
                        keys_of,
                        json: String::new(),
                        index: at,
                    },
                );
            }
            "content_block_delta" => {
                let (Some(index), Some(delta)) = (event.index, event.delta) else {
                    return;
                };
                if delta.kind != "input_json_delta" {
                    return;
                }
                let Some(s) = self.streaming.get_mut(&index) else {
                    return;
                };
                s.json.push_str(delta.partial_json.as_deref().unwrap_or(""));
                let Ok(partial) = PartialEdit::parse(s.keys_of, &s.json) else {
                    return;
                };
                let at = s.index;
                let path = partial
                    .path
                    .clone()
                    .filter(|_| partial.streaming() != Some(&Field::Path));
                if let Some(path) = path {
                    store.set_path(at, &path);
                }
                if let Some(edit) = store.edit_mut(at)
                    && edit.streaming
                {
                    edit.input = EditInput::Partial(partial);
                }
            }
            "content_block_stop" => {
                if let Some(index) = event.index {
                    self.streaming.remove(&index);
                }
            }
            _ => {}
        }
    }
}
