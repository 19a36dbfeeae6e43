//! A `codex app-server` JSON-RPC log: `item/fileChange/patchUpdated` (the
//! patch streaming, with `apply_patch_streaming_events`), then
//! `item/started` / `item/completed` of type `fileChange`.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::super::store::Store;
use super::super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};
use super::parse_line;

#[derive(Default)]
pub(in crate::source::agent) struct AppServerParser {
    /// (item id, file) → edit.
    edits: HashMap<(String, String), usize>,
}

/// A logged line: the JSON-RPC message under `msg`, or the message itself.
#[derive(Deserialize)]
struct Logged {
    #[serde(default)]
    msg: Option<RpcMessage>,
    #[serde(flatten)]
    bare: RpcMessage,
}

#[derive(Deserialize)]
struct RpcMessage {
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
}

#[derive(Deserialize)]
struct FileChangeItem {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    id: String,
    #[serde(default)]
    changes: Vec<RpcChange>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Deserialize)]
struct RpcChange {
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    kind: Option<Value>,
    #[serde(default)]
    diff: Option<String>,
}

impl RpcChange {
    fn is_add(&self) -> bool {
        self.kind
            .as_ref()
            .and_then(|k| k.get("type").or(Some(k)))
            .and_then(Value::as_str)
            == Some("add")
    }

    fn input(&self) -> EditInput {
        let diff = self.diff.clone().unwrap_or_default();
        if self.is_add() {
            EditInput::Whole(diff)
        } else {
            EditInput::UnifiedDiff(diff)
        }
    }

    /// The input a `patchUpdated` change streams: an update's `diff` is the
    /// model's patch section as far as it has arrived (its `@@` hunks, not
    /// a unified diff), given as a patch of its own, as
    /// [`split_patch`](super::super::split_patch) gives a section; an added
    /// file's is its content.
    fn streamed_input(&self, path: &str) -> EditInput {
        let body = self.diff.as_deref().unwrap_or_default();
        if self.is_add() {
            return EditInput::Whole(body.to_string());
        }
        let moved = self
            .kind
            .as_ref()
            .and_then(|k| k.get("move_path"))
            .and_then(Value::as_str)
            .map(|to| format!("*** Move to: {to}\n"))
            .unwrap_or_default();
        let newline = if body.is_empty() || body.ends_with('\n') {
            ""
        } else {
            "\n"
        };
        EditInput::ApplyPatch(format!(
            "*** Begin Patch\n*** Update File: {path}\n{moved}{body}{newline}*** End Patch\n"
        ))
    }
}

impl AppServerParser {
    pub(in crate::source::agent) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(logged) = parse_line::<Logged>(text, store) else {
            return;
        };
        let (method, params, result) = match logged.msg {
            Some(m) => (m.method, m.params, m.result),
            None => (logged.bare.method, logged.bare.params, logged.bare.result),
        };
        if let Some(thread) = result.as_ref().and_then(|r| r.get("thread")) {
            if let Some(v) = thread.get("cliVersion").and_then(Value::as_str) {
                store.set_version(v);
            }
            if let Some(cwd) = thread.get("cwd").and_then(Value::as_str) {
                store.set_workspace(cwd, false);
            }
        }
        let (Some(method), Some(params)) = (method, params) else {
            return;
        };
        match method.as_str() {
            "item/fileChange/patchUpdated" => {
                let item = params
                    .get("itemId")
                    .and_then(Value::as_str)
                    .unwrap_or("")
                    .to_string();
                let changes: Vec<RpcChange> = params
                    .get("changes")
                    .and_then(|c| serde_json::from_value(c.clone()).ok())
                    .unwrap_or_default();
                for change in changes {
                    self.change(&item, &change, true, store);
                }
            }
            "item/started" | "item/completed" => {
                let kind = params
                    .get("item")
                    .and_then(|i| i.get("type"))
                    .and_then(Value::as_str);
                if matches!(kind, Some("commandExecution" | "mcpToolCall")) {
                    store.barrier();
                }
                let Some(item) = params
                    .get("item")
                    .and_then(|i| serde_json::from_value::<FileChangeItem>(i.clone()).ok())
                    .filter(|i| i.kind == "fileChange")
                else {
                    return;
                };
                for change in &item.changes {
                    let Some(at) = self.change(&item.id, change, false, store) else {
                        continue;
                    };
                    if method == "item/completed" {
                        match item.status.as_deref() {
                            Some("completed") => {
                                store.set_verdict(at, Verdict::Applied, None);
                                if !change.is_add()
                                    && let Some(edit) = store.edit_mut(at)
                                {
                                    edit.agent_diff = change.diff.clone();
                                }
                                if change.is_add() {
                                    store.set_before(at, FileContent::Absent);
                                    if let Some(content) = &change.diff {
                                        store.set_after(
                                            at,
                                            FileContent::Text(content.clone()),
                                            ContentOrigin::Recorded,
                                        );
                                    }
                                }
                            }
                            Some("failed") | Some("declined") => {
                                store.set_verdict(at, Verdict::Failed, None)
                            }
                            _ => {}
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn change(
        &mut self,
        item: &str,
        change: &RpcChange,
        streaming: bool,
        store: &mut Store,
    ) -> Option<usize> {
        let Some(path) = &change.path else {
            store.missing("fileChange change", "path");
            return None;
        };
        let relative = store.relative(path);
        let input = if streaming {
            change.streamed_input(&relative)
        } else {
            change.input()
        };
        let key = (item.to_string(), relative);
        let at = match self.edits.get(&key) {
            Some(&at) => at,
            None => {
                let at = store.push(AgentTool::ApplyPatch, path, input, streaming);
                self.edits.insert(key, at);
                return Some(at);
            }
        };
        if let Some(edit) = store.edit_mut(at)
            && (edit.streaming || !streaming)
        {
            // The patch as the model wrote it, once streamed, stays the
            // edit's input: `item/started`'s diff is what Codex applied (a
            // unified diff that always fits), kept as the agent's diff.
            let streamed_patch = matches!(&edit.input, EditInput::ApplyPatch(p) if has_hunks(p));
            if !streaming && streamed_patch {
                edit.agent_diff = change.diff.clone();
            } else {
                edit.input = input;
            }
            edit.streaming = streaming;
        }
        Some(at)
    }
}

/// Whether a streamed section holds anything past its header: a first
/// `patchUpdated` names the file with an empty `diff`.
fn has_hunks(patch: &str) -> bool {
    patch
        .lines()
        .skip(2)
        .any(|l| !l.starts_with("*** Move to: ") && l != "*** End Patch")
}

impl crate::source::agent::reader::FormatReader for AppServerParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}
