//! Cline CLI 3.x (the SDK CLI): `cline --json` agent events (live) and
//! `sessions/<id>/<id>.messages.json` (saved). A tool call's complete input
//! arrives at once (`content_start`, or a `tool_use` block), its result
//! later (`content_end` `output`, or a `tool_result` whose content is the
//! output as JSON text): `{query, result, error?, success}`.
//!
//! Neither carries the file's content; the live stream does not name its
//! workspace either (paths are absolute): the caller passes it.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::anthropic::{Block, Message, result_text};
use super::store::Store;
use super::{AgentTool, EditInput, Verdict};
use crate::dialect::edit::Edit;

/// One tool call's edits, with their files.
type CallEdits = Vec<(usize, String)>;

#[derive(Default)]
pub(super) struct StreamParser {
    calls: HashMap<String, CallEdits>,
}

#[derive(Deserialize)]
struct StreamLine {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    event: Option<AgentEvent>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AgentEvent {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    content_type: Option<String>,
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_call_id: Option<String>,
    #[serde(default)]
    input: Option<Value>,
    #[serde(default)]
    output: Option<ToolOutput>,
}

/// The tool's output.
#[derive(Deserialize, Default)]
struct ToolOutput {
    #[serde(default)]
    success: Option<bool>,
    #[serde(default)]
    error: Option<String>,
}

impl super::reader::FormatReader for StreamParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        if is_json_string(text) {
            // A bare JSON string: a result the CLI prints as it is (the
            // `submit_and_exit` tool's), no event and no edit.
            return;
        }
        let Some(line) = store.json_line::<StreamLine>(text, "not a JSON object") else {
            return;
        };
        let Some(event) = line.event.filter(|_| line.kind == "agent_event") else {
            return;
        };
        if event.content_type.as_deref() != Some("tool") {
            return;
        }
        let (Some(tool), Some(id)) = (event.tool_name.as_deref(), event.tool_call_id) else {
            return;
        };
        match event.kind.as_str() {
            "content_start" => {
                if let Some(edits) = tool_call(tool, event.input.as_ref(), store) {
                    self.calls.insert(id, edits);
                }
            }
            "content_end" => {
                if let (Some(edits), Some(output)) = (self.calls.get(&id), event.output) {
                    tool_result(edits, &output, store);
                }
            }
            _ => {}
        }
    }
}

/// Whether the line is one JSON string (and nothing else).
fn is_json_string(text: &str) -> bool {
    text.trim_start().starts_with('"') && serde_json::from_str::<String>(text).is_ok()
}

/// The edits of one tool call (`None`: not an edit tool).
fn tool_call(tool: &str, input: Option<&Value>, store: &mut Store) -> Option<CallEdits> {
    match tool {
        "editor" => {
            let json = input.map(Value::to_string).unwrap_or_default();
            match Edit::from_tool_input("editor", &json) {
                Ok(edit) => {
                    let path = edit.path().to_string();
                    let at = store.push(AgentTool::Editor, &path, EditInput::Exact(edit), false);
                    Some(vec![(at, file_of(store, at))])
                }
                Err(e) => {
                    let field = super::error::missing_field(&e.to_string())
                        .unwrap_or_else(|| "a readable input".to_string());
                    store.missing("editor tool input", &field);
                    None
                }
            }
        }
        "apply_patch" => {
            let Some(patch) = input.and_then(|i| i.get("input")).and_then(Value::as_str) else {
                store.missing("apply_patch tool input", "input");
                return None;
            };
            let edits = store.push_patch("apply_patch tool input", patch)?;
            Some(edits.into_iter().map(|(at, file, _)| (at, file)).collect())
        }
        other => {
            if !is_read_only(other) {
                store.barrier();
            }
            None
        }
    }
}

/// Cline CLI tools that never write files.
fn is_read_only(name: &str) -> bool {
    [
        "read",
        "search",
        "list",
        "fetch",
        "ask",
        "attempt_completion",
        "skill",
    ]
    .iter()
    .any(|p| name.starts_with(p))
}

fn file_of(store: &Store, at: usize) -> String {
    store.get(at).map(|e| e.file.clone()).unwrap_or_default()
}

/// The verdicts of one call's edits. A failing apply_patch fails as a
/// whole: the section its error names failed, the others were not run.
fn tool_result(edits: &CallEdits, output: &ToolOutput, store: &mut Store) {
    if output.success == Some(true) {
        for (at, _) in edits {
            store.set_verdict(*at, Verdict::Applied, None);
        }
        return;
    }
    let message = output.error.clone();
    let text = message.clone().unwrap_or_default();
    let named: Vec<usize> = edits
        .iter()
        .filter(|(_, file)| !file.is_empty() && text.contains(file.as_str()))
        .map(|(at, _)| *at)
        .collect();
    for (at, _) in edits {
        if edits.len() == 1 || named.is_empty() || named.contains(at) {
            store.set_verdict(*at, Verdict::Failed, message.clone());
        } else {
            // Never run because another section failed: the patch's
            // error is why.
            store.set_verdict(*at, Verdict::NotRun, message.clone());
        }
    }
}

#[derive(Deserialize)]
struct MessagesFile {
    #[serde(default)]
    messages: Vec<Message>,
}

/// Reads a whole `<id>.messages.json`.
pub(super) fn messages(text: &str, store: &mut Store) {
    let file: MessagesFile = match serde_json::from_str(text) {
        Ok(f) => f,
        Err(e) => return store.malformed(format!("not a Cline CLI messages file ({e})")),
    };
    let mut calls: HashMap<String, CallEdits> = HashMap::new();
    for message in file.messages {
        let Some(Value::Array(blocks)) = message.content else {
            continue;
        };
        for block in blocks {
            let Ok(block) = serde_json::from_value::<Block>(block) else {
                continue;
            };
            match block.kind.as_str() {
                "tool_use" => {
                    let (Some(name), Some(id)) = (block.name.as_deref(), block.id) else {
                        continue;
                    };
                    if let Some(edits) = tool_call(name, block.input.as_ref(), store) {
                        calls.insert(id, edits);
                    }
                }
                "tool_result" => {
                    let Some(edits) = block.tool_use_id.as_ref().and_then(|id| calls.get(id))
                    else {
                        continue;
                    };
                    let text = result_text(block.content.as_ref());
                    match serde_json::from_str::<ToolOutput>(&text) {
                        Ok(output) => tool_result(edits, &output, store),
                        Err(_) => store.missing("tool_result content", "success"),
                    }
                }
                _ => {}
            }
        }
    }
}

#[derive(Deserialize)]
struct ClineManifest {
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    metadata: Option<ManifestMetadata>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ManifestMetadata {
    #[serde(default)]
    session_history_origin: Option<HistoryOrigin>,
    #[serde(default)]
    checkpoint: Option<Checkpoints>,
}

#[derive(Deserialize)]
struct Checkpoints {
    #[serde(default)]
    history: Vec<Checkpoint>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Checkpoint {
    #[serde(rename = "ref", default)]
    reference: Option<String>,
    #[serde(default)]
    created_at: Option<u64>,
}

#[derive(Deserialize)]
struct HistoryOrigin {
    #[serde(default)]
    version: Option<String>,
}

/// The session's messages when `file` is a Cline CLI session's manifest
/// (`<id>.json` beside `<id>.messages.json`: the file named by the session
/// id, the one a user picks): the messages hold its edits, the manifest
/// only what [`side_files`] reads.
pub fn messages_of_manifest(file: &std::path::Path) -> Option<std::path::PathBuf> {
    let id = file.file_name()?.to_str()?.strip_suffix(".json")?;
    if id.ends_with(".messages") {
        return None;
    }
    let messages = file.with_file_name(format!("{id}.messages.json"));
    messages.is_file().then_some(messages)
}

/// A Cline CLI session's manifest (`<id>.json` beside `<id>.messages.json`):
/// its workspace, version and checkpoint commits.
pub(super) fn side_files(file: &std::path::Path, reader: &mut super::AgentReader, use_cwd: bool) {
    let Some(dir) = file.parent() else { return };
    let name = file.file_name().map(|n| n.to_string_lossy().to_string());
    let Some(id) = name
        .as_deref()
        .and_then(|n| n.strip_suffix(".messages.json"))
    else {
        return;
    };
    let Some(manifest) = super::reader::read_json::<ClineManifest>(&dir.join(format!("{id}.json")))
    else {
        return;
    };
    if use_cwd && let Some(cwd) = &manifest.cwd {
        reader.store.set_workspace(cwd, false);
    }
    let Some(metadata) = manifest.metadata else {
        return;
    };
    if let Some(v) = metadata.session_history_origin.and_then(|o| o.version) {
        reader.set_version(&v);
    }
    let mut history = metadata.checkpoint.map(|c| c.history).unwrap_or_default();
    history.sort_by_key(|c| c.created_at.unwrap_or(0));
    reader.set_checkpoints(history.into_iter().filter_map(|c| c.reference).collect());
}
