//! The rollout JSONL: `custom_tool_call` apply_patch with the raw patch,
//! an `item_completed` `FileChange` event, `custom_tool_call_output`.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::super::patch::SectionKind;
use super::super::store::Store;
use super::super::{ContentOrigin, FileContent, Verdict};

#[derive(Default)]
pub(in crate::source::agent) struct RolloutParser {
    /// Call id → its sections' edits, with each section's path and kind.
    calls: HashMap<String, Vec<(usize, String, SectionKind)>>,
}

/// One line, its payload kept as raw JSON text borrowed from the line and
/// read only as far as its kind needs: shell output, reasoning and token
/// counts are skipped without building their values.
#[derive(Deserialize)]
struct RolloutLine<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    payload: Option<&'a RawValue>,
}

/// A `session_meta` or `turn_context` payload: the fields srview reads.
#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    cli_version: Option<Value>,
    #[serde(default)]
    cwd: Option<Value>,
}

/// An `event_msg` payload's kind.
#[derive(Deserialize)]
struct EventHead<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
}

#[derive(Deserialize)]
struct ToolCall {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    input: Option<String>,
    #[serde(default)]
    arguments: Option<String>,
    #[serde(default)]
    output: Option<Value>,
}

/// Codex's words for a patch that was written.
fn is_success(output: &str) -> bool {
    output.contains("Success. Updated the following files")
}

impl RolloutParser {
    pub(in crate::source::agent) fn line(&mut self, text: &str, store: &mut Store) {
        if text.trim().is_empty() {
            return;
        }
        let line = match serde_json::from_str::<RolloutLine>(text) {
            Ok(line) => line,
            Err(e) => {
                return store.malformed(format!("not a JSON object of this format ({e})"));
            }
        };
        let Some(payload) = line.payload.map(RawValue::get) else {
            return;
        };
        match line.kind.as_ref() {
            "session_meta" | "turn_context" => {
                let Ok(meta) = serde_json::from_str::<Meta>(payload) else {
                    return;
                };
                if let Some(v) = meta.cli_version.as_ref().and_then(Value::as_str) {
                    store.set_version(v);
                }
                if let Some(cwd) = meta.cwd.as_ref().and_then(Value::as_str) {
                    store.set_workspace(cwd, false);
                }
            }
            "response_item" => {
                let Ok(call) = serde_json::from_str::<ToolCall>(payload) else {
                    return;
                };
                self.response_item(call, store);
            }
            "event_msg" => {
                let kind = serde_json::from_str::<EventHead>(payload).map(|head| head.kind);
                // The turn ended: a patch it ended without an outcome on
                // was never run.
                if kind.as_ref().is_ok_and(|k| k == "task_complete") {
                    store.run_ended();
                }
                let is_item = kind.is_ok_and(|k| k == "item_completed");
                if is_item && let Ok(event) = serde_json::from_str::<Value>(payload) {
                    self.event(&event, store);
                }
            }
            _ => {}
        }
    }

    fn response_item(&mut self, call: ToolCall, store: &mut Store) {
        match call.kind.as_str() {
            "custom_tool_call" | "function_call" if call.name.as_deref() == Some("apply_patch") => {
                let patch = match (call.input, call.arguments) {
                    (Some(input), _) => Some(input),
                    (None, Some(args)) => serde_json::from_str::<Value>(&args).ok().and_then(|a| {
                        a.get("input")
                            .or_else(|| a.get("patch"))
                            .and_then(Value::as_str)
                            .map(str::to_string)
                    }),
                    (None, None) => None,
                };
                let Some(patch) = patch else {
                    return store.missing("apply_patch call", "input");
                };
                let Some(edits) = store.push_patch("apply_patch call", &patch) else {
                    return;
                };
                for (at, _, _) in &edits {
                    store.set_call_id(*at, call.call_id.as_deref());
                }
                self.calls.insert(call.call_id.unwrap_or_default(), edits);
            }
            "custom_tool_call" | "function_call" | "local_shell_call" => store.barrier(),
            "custom_tool_call_output" | "function_call_output" => {
                let Some(edits) = call.call_id.as_ref().and_then(|id| self.calls.get(id)) else {
                    return;
                };
                let output = match call.output {
                    Some(Value::String(s)) => s,
                    Some(other) => other
                        .get("output")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .unwrap_or_else(|| other.to_string()),
                    None => String::new(),
                };
                if is_success(&output) {
                    for (at, _, _) in edits {
                        store.set_verdict(*at, Verdict::Applied, None);
                    }
                    return;
                }
                // The failing section is the one the message names; the
                // others were never written (the patch is atomic): the
                // patch's error is why, their agent message too.
                let named: Vec<usize> = edits
                    .iter()
                    .filter(|(_, file, _)| names_file(&output, file))
                    .map(|(at, _, _)| *at)
                    .collect();
                for (at, _, _) in edits {
                    if named.is_empty() || named.contains(at) {
                        store.set_verdict(*at, Verdict::Failed, Some(output.clone()));
                    } else {
                        store.set_verdict(*at, Verdict::NotRun, Some(output.clone()));
                    }
                }
            }
            _ => {}
        }
    }

    fn event(&mut self, payload: &Value, store: &mut Store) {
        if payload.get("type").and_then(Value::as_str) != Some("item_completed") {
            return;
        }
        let Some(item) = payload.get("item") else {
            return;
        };
        if item.get("type").and_then(Value::as_str) != Some("FileChange") {
            return;
        }
        let id = item.get("id").and_then(Value::as_str).unwrap_or("");
        let Some(edits) = self.calls.get(id) else {
            return;
        };
        let completed = item.get("status").and_then(Value::as_str) == Some("completed");
        let Some(changes) = item.get("changes").and_then(Value::as_object) else {
            return;
        };
        for (path, change) in changes {
            let file = store.relative(path);
            let Some((at, _, kind)) = edits.iter().find(|(_, f, _)| *f == file) else {
                continue;
            };
            if !completed {
                continue;
            }
            store.set_verdict(*at, Verdict::Applied, None);
            if let Some(diff) = change.get("unified_diff").and_then(Value::as_str)
                && let Some(edit) = store.edit_mut(*at)
            {
                edit.agent_diff = Some(diff.to_string());
            }
            if *kind == SectionKind::Add
                && let Some(content) = change.get("content").and_then(Value::as_str)
            {
                store.set_before(*at, FileContent::Absent);
                store.set_after(
                    *at,
                    FileContent::Text(content.to_string()),
                    ContentOrigin::Recorded,
                );
            }
        }
    }
}

/// Whether `message` names `file` as a whole path component.
fn names_file(message: &str, file: &str) -> bool {
    message.match_indices(file).any(|(i, _)| {
        let before = message[..i].chars().last();
        matches!(
            before,
            None | Some('/') | Some(' ') | Some('\n') | Some('\'')
        )
    })
}

impl crate::source::agent::reader::FormatReader for RolloutParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}
