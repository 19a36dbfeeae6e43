//! Codex CLI: `codex exec --json` (live, file names only), a `codex
//! app-server` JSON-RPC log (live; with `apply_patch_streaming_events` the
//! patch streams as `item/fileChange/patchUpdated`), and the rollout JSONL
//! (saved, appended as the session runs: the raw apply_patch text, then a
//! `FileChange` item or the failure in `custom_tool_call_output`).
//!
//! One edit per file section of a patch. Codex verifies the whole patch
//! before writing: when a section fails, the other sections are `not-run`.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::patch::{SectionKind, split_patch};
use super::store::Store;
use super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};

fn parse_line<T: for<'de> Deserialize<'de>>(text: &str, store: &mut Store) -> Option<T> {
    if text.trim().is_empty() {
        return None;
    }
    match serde_json::from_str(text) {
        Ok(v) => Some(v),
        Err(e) => {
            store.malformed(format!("not a JSON object of this format ({e})"));
            None
        }
    }
}

// ---- exec --json ----

#[derive(Default)]
pub(super) struct ExecParser {
    /// Item id → its edits (one per changed file).
    items: HashMap<String, Vec<usize>>,
}

#[derive(Deserialize)]
struct ExecLine {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    item: Option<ExecItem>,
}

#[derive(Deserialize)]
struct ExecItem {
    #[serde(default)]
    id: String,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    changes: Vec<ExecChange>,
    #[serde(default)]
    status: Option<String>,
}

#[derive(Deserialize)]
struct ExecChange {
    #[serde(default)]
    path: Option<String>,
}

impl ExecParser {
    pub(super) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(line) = parse_line::<ExecLine>(text, store) else {
            return;
        };
        let Some(item) = line.item.filter(|i| i.kind == "file_change") else {
            return;
        };
        if !matches!(line.kind.as_str(), "item.started" | "item.completed") {
            return;
        }
        if !self.items.contains_key(&item.id) {
            let mut edits = Vec::new();
            for change in &item.changes {
                match &change.path {
                    Some(path) => edits.push(store.push(
                        AgentTool::ApplyPatch,
                        path,
                        EditInput::NotRecorded,
                        false,
                    )),
                    None => store.missing("file_change item", "path"),
                }
            }
            self.items.insert(item.id.clone(), edits);
        }
        if line.kind == "item.completed" {
            let verdict = match item.status.as_deref() {
                Some("completed") => Verdict::Applied,
                Some("failed") => Verdict::Failed,
                _ => return,
            };
            for &at in self.items.get(&item.id).into_iter().flatten() {
                store.set_verdict(at, verdict, None);
            }
        }
    }
}

// ---- app-server ----

#[derive(Default)]
pub(super) struct AppServerParser {
    /// (item id, file) → edit.
    edits: HashMap<(String, String), usize>,
}

#[derive(Deserialize)]
struct Logged {
    #[serde(default)]
    msg: Option<RpcMessage>,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    params: Option<Value>,
    #[serde(default)]
    result: Option<Value>,
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
}

impl AppServerParser {
    pub(super) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(logged) = parse_line::<Logged>(text, store) else {
            return;
        };
        let (method, params, result) = match logged.msg {
            Some(m) => (m.method, m.params, m.result),
            None => (logged.method, logged.params, logged.result),
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
        let key = (item.to_string(), store.relative(path));
        let at = match self.edits.get(&key) {
            Some(&at) => at,
            None => {
                let at = store.push(AgentTool::ApplyPatch, path, change.input(), streaming);
                self.edits.insert(key, at);
                return Some(at);
            }
        };
        if let Some(edit) = store.edit_mut(at)
            && (edit.streaming || !streaming)
        {
            edit.input = change.input();
            edit.streaming = streaming;
        }
        Some(at)
    }
}

// ---- rollout ----

#[derive(Default)]
pub(super) struct RolloutParser {
    /// Call id → its sections' edits, with each section's path and kind.
    calls: HashMap<String, Vec<(usize, String, SectionKind)>>,
}

#[derive(Deserialize)]
struct RolloutLine {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    payload: Option<Value>,
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
    pub(super) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(line) = parse_line::<RolloutLine>(text, store) else {
            return;
        };
        let Some(payload) = line.payload else { return };
        match line.kind.as_str() {
            "session_meta" | "turn_context" => {
                if let Some(v) = payload.get("cli_version").and_then(Value::as_str) {
                    store.set_version(v);
                }
                if let Some(cwd) = payload.get("cwd").and_then(Value::as_str) {
                    store.set_workspace(cwd, false);
                }
            }
            "response_item" => {
                let Ok(call) = serde_json::from_value::<ToolCall>(payload) else {
                    return;
                };
                self.response_item(call, store);
            }
            "event_msg" => self.event(&payload, store),
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
                let sections = split_patch(&patch);
                if sections.is_empty() {
                    return store.missing("apply_patch call", "*** Add/Update/Delete File");
                }
                let edits = sections
                    .into_iter()
                    .map(|s| {
                        let at = store.push(
                            AgentTool::ApplyPatch,
                            &s.path,
                            EditInput::ApplyPatch(s.patch),
                            false,
                        );
                        let file = store.get(at).map(|e| e.file.clone()).unwrap_or_default();
                        (at, file, s.kind)
                    })
                    .collect();
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
                // others were never written (the patch is atomic).
                let named: Vec<usize> = edits
                    .iter()
                    .filter(|(_, file, _)| names_file(&output, file))
                    .map(|(at, _, _)| *at)
                    .collect();
                for (at, _, _) in edits {
                    if named.is_empty() || named.contains(at) {
                        store.set_verdict(*at, Verdict::Failed, Some(output.clone()));
                    } else {
                        store.set_verdict(*at, Verdict::NotRun, None);
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
