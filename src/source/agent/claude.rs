//! Claude Code: `--output-format stream-json` (live) and the project
//! session JSONL (saved). Both carry `assistant` lines with the complete
//! tool input and `user` lines with the tool result; the live stream adds
//! `stream_event` lines whose `input_json_delta` pieces carry the input as
//! it streams. A successful result's `tool_use_result` (`toolUseResult` in
//! the session) holds `originalFile`: the content before the edit; the
//! session's `file-history-delta` lines name a backup of it.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::anthropic::{Block, Message};
use super::store::Store;
use super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};
use crate::dialect::edit::{self, Edit, Field, PartialEdit};

#[derive(Default)]
pub(super) struct Parser {
    /// Tool-use id → edit index.
    by_id: HashMap<String, usize>,
    /// Assistant line uuid → the edits its tool calls made.
    by_message: HashMap<String, Vec<usize>>,
    /// The session id, as the last line naming it gave it (backup lines
    /// do not).
    session: Option<String>,
    /// Content-block index of the message streaming → its tool call.
    streaming: HashMap<u64, Streaming>,
}

struct Streaming {
    tool: &'static str,
    json: String,
    index: usize,
}

/// A line's kind, read first: the other kinds (attachments, API request
/// blobs...) can be large and are skipped without building their values.
#[derive(Deserialize)]
struct Head {
    #[serde(rename = "type", default)]
    kind: String,
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    subtype: Option<String>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    claude_code_version: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    event: Option<StreamEvent>,
    #[serde(default)]
    message: Option<Message>,
    #[serde(default, alias = "toolUseResult")]
    tool_use_result: Option<Value>,
    #[serde(default)]
    uuid: Option<String>,
    #[serde(default, alias = "sessionId")]
    session_id: Option<String>,
    #[serde(default, rename = "messageId")]
    message_id: Option<String>,
    #[serde(default, rename = "trackingPath")]
    tracking_path: Option<String>,
    #[serde(default)]
    backup: Option<Backup>,
}

#[derive(Deserialize)]
struct Backup {
    /// `None`: the file did not exist.
    #[serde(default, rename = "backupFileName")]
    backup_file_name: Option<String>,
}

#[derive(Deserialize)]
struct StreamEvent {
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

/// The edit tools, by Claude Code's names.
fn edit_tool(name: &str) -> Option<(&'static str, AgentTool)> {
    match name {
        "Edit" => Some(("Edit", AgentTool::Edit)),
        "Write" => Some(("Write", AgentTool::Write)),
        _ => None,
    }
}

/// Claude Code tools that never write files.
fn is_read_only(name: &str) -> bool {
    matches!(
        name,
        "Read" | "Glob" | "Grep" | "LS" | "TodoWrite" | "WebFetch" | "WebSearch" | "ToolSearch"
    )
}

/// A tool result's text: a string, or the text blocks of an array.
pub(super) fn result_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .filter_map(|i| i.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

impl Parser {
    pub(super) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(head) = store.json_line::<Head>(text, "not a JSON object") else {
            return;
        };
        if !matches!(
            head.kind.as_str(),
            "system" | "stream_event" | "assistant" | "user" | "file-history-delta"
        ) {
            return;
        }
        let Ok(line) = serde_json::from_str::<Line>(text) else {
            return store.malformed(format!("a {} line of an unknown shape", head.kind));
        };
        if let Some(session) = &line.session_id {
            self.session = Some(session.clone());
        }
        if let Some(cwd) = &line.cwd {
            store.set_workspace(cwd, false);
        }
        if line.kind == "system" && line.subtype.as_deref() == Some("init") {
            if let Some(v) = &line.claude_code_version {
                store.set_version(v);
            }
        } else if matches!(line.kind.as_str(), "user" | "assistant")
            && let Some(v) = &line.version
        {
            store.set_version(v);
        }
        match line.kind.as_str() {
            "stream_event" => {
                if let Some(event) = line.event {
                    self.stream_event(event, store);
                }
            }
            "assistant" => {
                for block in blocks(line.message) {
                    if block.kind == "tool_use"
                        && let Some(at) = self.tool_use(block, store)
                        && let Some(uuid) = &line.uuid
                    {
                        self.by_message.entry(uuid.clone()).or_default().push(at);
                    }
                }
            }
            "file-history-delta" => self.backup(&line, store),
            "user" => {
                for block in blocks(line.message) {
                    if block.kind == "tool_result" {
                        self.tool_result(block, line.tool_use_result.as_ref(), store);
                    }
                }
            }
            _ => {}
        }
    }

    fn stream_event(&mut self, event: StreamEvent, store: &mut Store) {
        match event.kind.as_str() {
            "message_start" => self.streaming.clear(),
            "content_block_start" => {
                let (Some(index), Some(block)) = (event.index, event.content_block) else {
                    return;
                };
                let Some((name, tool)) = block.name.as_deref().and_then(edit_tool) else {
                    return;
                };
                let Some(id) = block.id else {
                    return store.missing(&format!("{name} tool_use"), "id");
                };
                let input = match PartialEdit::parse(name, "") {
                    Ok(p) => EditInput::Partial(p),
                    Err(_) => EditInput::NotRecorded,
                };
                let at = store.push(tool, "", input, true);
                self.by_id.insert(id, at);
                self.streaming.insert(
                    index,
                    Streaming {
                        tool: name,
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
                let Ok(partial) = PartialEdit::parse(s.tool, &s.json) else {
                    return;
                };
                let at = s.index;
                let path = match (&partial.path, &partial.streaming) {
                    (Some(p), streaming) if *streaming != Some(Field::Path) => Some(p.clone()),
                    _ => None,
                };
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

    /// The backup taken of a file before an edit of the line `messageId`.
    fn backup(&mut self, line: &Line, store: &mut Store) {
        let (Some(message), Some(path), Some(backup)) =
            (&line.message_id, &line.tracking_path, &line.backup)
        else {
            return;
        };
        let file = store.relative(path);
        let Some(at) = self.by_message.get(message).and_then(|edits| {
            edits
                .iter()
                .copied()
                .find(|&at| store.get(at).is_some_and(|e| e.file == file))
        }) else {
            return;
        };
        let content = match (&backup.backup_file_name, &self.session) {
            (None, _) => Some(FileContent::Absent),
            (Some(name), Some(session)) => store.backup(session, name).map(FileContent::Text),
            (Some(_), None) => None,
        };
        if let Some(content) = content {
            store.set_before_if_unknown(at, content);
        }
    }

    /// Reads an Edit/Write call; returns its edit.
    fn tool_use(&mut self, block: Block, store: &mut Store) -> Option<usize> {
        let Some((name, tool)) = block.name.as_deref().and_then(edit_tool) else {
            if !block.name.as_deref().is_some_and(is_read_only) {
                store.barrier();
            }
            return None;
        };
        let json = block.input.map(|v| v.to_string()).unwrap_or_default();
        let known = block.id.as_ref().and_then(|id| self.by_id.get(id)).copied();
        let edit = match Edit::from_tool_input(name, &json) {
            Ok(edit) => edit,
            Err(e) => {
                let field = super::error::missing_field(&e.to_string())
                    .unwrap_or_else(|| "a readable input".to_string());
                store.missing(&format!("{name} tool input"), &field);
                return None;
            }
        };
        let path = edit.path().to_string();
        let at = match known {
            Some(at) => at,
            None => {
                let at = store.push(tool, &path, EditInput::NotRecorded, false);
                if let Some(id) = block.id {
                    self.by_id.insert(id, at);
                }
                at
            }
        };
        store.set_path(at, &path);
        if let Some(e) = store.edit_mut(at) {
            e.input = EditInput::Exact(edit);
            e.streaming = false;
        }
        Some(at)
    }

    fn tool_result(&mut self, block: Block, result: Option<&Value>, store: &mut Store) {
        let Some(at) = block
            .tool_use_id
            .as_ref()
            .and_then(|id| self.by_id.get(id))
            .copied()
        else {
            return;
        };
        if block.is_error == Some(true) {
            let message = block.content.as_ref().map(result_text);
            store.set_verdict(at, Verdict::Failed, message);
            return;
        }
        store.set_verdict(at, Verdict::Applied, None);
        let Some(result) = result.filter(|r| r.is_object()) else {
            return;
        };
        let before = match result.get("originalFile") {
            Some(Value::String(s)) => Some(FileContent::Text(s.clone())),
            Some(Value::Null) => Some(FileContent::Absent),
            _ if result.get("type").and_then(Value::as_str) == Some("create") => {
                Some(FileContent::Absent)
            }
            _ => None,
        };
        if let Some(before) = &before {
            store.set_before(at, before.clone());
        }
        let Some(recorded) = store.get(at) else {
            return;
        };
        match (
            &recorded.input,
            result.get("content").and_then(Value::as_str),
        ) {
            (EditInput::Exact(Edit::ClaudeWrite { .. }), Some(content)) => {
                store.set_after(
                    at,
                    FileContent::Text(content.to_string()),
                    ContentOrigin::Recorded,
                );
            }
            (EditInput::Exact(e @ Edit::ClaudeEdit { .. }), _) => {
                let original = before.as_ref().and_then(FileContent::text);
                if before.is_some()
                    && let Ok(applied) = edit::apply(e, original).result
                {
                    store.set_after(
                        at,
                        FileContent::Text(applied.new_content),
                        ContentOrigin::Derived,
                    );
                }
            }
            _ => {}
        }
    }
}

fn blocks(message: Option<Message>) -> Vec<Block> {
    match message.and_then(|m| m.content) {
        Some(Value::Array(items)) => items
            .into_iter()
            .filter_map(|v| serde_json::from_value(v).ok())
            .collect(),
        _ => Vec::new(),
    }
}
