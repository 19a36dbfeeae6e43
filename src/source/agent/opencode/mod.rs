//! OpenCode 1.18: `opencode run --format json` (live) and its SQLite
//! database (saved; [`db`] makes lines of its rows in the live shape, with
//! a first line naming the session's folder and OpenCode's version).
//!
//! Live, one JSON object a line, `{type, timestamp, sessionID, part}`; a
//! tool part (`type: "tool_use"`) is printed only once the tool has run
//! (`state.status` `completed` or `error`), never while its input streams.
//! Saved, a tool part is also seen `running` (its whole input, no verdict
//! yet) while the database is followed. The tools that edit: `edit`
//! (`{filePath, oldString, newString, replaceAll}`, run by OpenCode's own
//! matcher, the `opencode-edit` dialect), `write` (`{filePath, content}`)
//! and `apply_patch` (`{patchText}`, one edit per file section).
//!
//! Neither records the file before an edit: an applied edit's
//! `metadata.diff` (a unified diff of the whole file, 4 lines of context)
//! is kept as the edit's recorded diff, which the review undoes from the
//! file as it is now. A `write` of a new file (`metadata.exists: false`)
//! records its absence and its content after. A permission OpenCode asked
//! for and `opencode run` refused (`permission.edit: "ask"`), or a rule
//! denied, leaves the edit never run (`not-run`), with OpenCode's text.

pub(super) mod db;

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::patch::SectionKind;
use super::store::Store;
use super::{AgentTool, CallInput, EditInput, FileContent, Verdict};

/// OpenCode's tools that never write files (their parts are not read
/// from the database, and run live they are no barrier).
pub(super) const READ_ONLY_TOOLS: &[&str] = &[
    "read",
    "glob",
    "grep",
    "list",
    "webfetch",
    "websearch",
    "codesearch",
    "todowrite",
    "todoread",
    "skill",
    "question",
    "invalid",
];

/// What OpenCode says when `opencode run` refused a permission it would
/// have asked for.
const REJECTED: &str = "The user rejected permission to use this specific tool call.";

/// The start of what OpenCode says when a `deny` rule refused a tool call.
const DENIED: &str =
    "The user has specified a rule which prevents you from using this specific tool call.";

/// The version srview's reading of OpenCode was built on (recorded runs).
const TESTED_VERSION: &str = "1.18.33";

/// Reads `opencode run --format json` lines and the lines [`db`] makes.
#[derive(Default)]
pub(super) struct Parser {
    /// By tool call, its edits (index, file) and whether its verdict was
    /// read.
    calls: HashMap<String, Call>,
    /// An untested version was said.
    said_version: bool,
}

#[derive(Default)]
struct Call {
    edits: Vec<(usize, String, SectionKind)>,
    settled: bool,
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    part: Option<Value>,
    #[serde(default)]
    session: Option<SessionInfo>,
}

/// The first line [`db`] writes of a session.
#[derive(Deserialize)]
struct SessionInfo {
    #[serde(default)]
    directory: Option<String>,
    #[serde(default)]
    version: Option<String>,
}

#[derive(Deserialize)]
struct ToolPart {
    #[serde(default)]
    tool: Option<String>,
    #[serde(rename = "callID", default)]
    call_id: Option<String>,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    state: Option<ToolState>,
}

#[derive(Deserialize)]
struct ToolState {
    #[serde(default)]
    status: String,
    #[serde(default)]
    input: Option<Value>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    metadata: Option<Value>,
}

impl super::reader::FormatReader for Parser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        let Some(line) = store.json_line::<Line>(text, "not a JSON object") else {
            return;
        };
        match line.kind.as_str() {
            "session" => {
                if let Some(info) = line.session {
                    if let Some(dir) = &info.directory {
                        store.set_workspace(dir, false);
                    }
                    if let Some(v) = &info.version {
                        store.set_version(v);
                        if v != TESTED_VERSION && !self.said_version {
                            self.said_version = true;
                            store.untested_version(v, TESTED_VERSION);
                        }
                    }
                }
            }
            "tool_use" => {
                let Some(part) = line.part else { return };
                if !part.is_object() {
                    return store.malformed("a tool_use part that is not an object".to_string());
                }
                if part.get("type").and_then(Value::as_str) != Some("tool") {
                    return;
                }
                match serde_json::from_value::<ToolPart>(part) {
                    Ok(part) => self.tool(part, store),
                    Err(e) => store.malformed(format!("not an OpenCode tool part ({e})")),
                }
            }
            _ => {}
        }
    }
}

impl Parser {
    fn tool(&mut self, part: ToolPart, store: &mut Store) {
        let (Some(tool), Some(state)) = (part.tool.as_deref(), part.state) else {
            return;
        };
        let Some(key) = part.call_id.or(part.id) else {
            return;
        };
        // Pending: the input is still `{}` (OpenCode never updates it
        // piece by piece).
        if !matches!(state.status.as_str(), "running" | "completed" | "error") {
            return;
        }
        if !self.calls.contains_key(&key) {
            let edits = match tool_call(tool, state.input.as_ref(), store) {
                Some(edits) => edits,
                None => {
                    if !READ_ONLY_TOOLS.contains(&tool) && !is_edit_tool(tool) {
                        store.barrier();
                    }
                    Vec::new()
                }
            };
            self.calls.insert(
                key.clone(),
                Call {
                    edits,
                    settled: false,
                },
            );
        }
        let Some(call) = self.calls.get_mut(&key) else {
            return;
        };
        if call.settled || call.edits.is_empty() {
            return;
        }
        match state.status.as_str() {
            "completed" => {
                call.settled = true;
                completed(
                    tool,
                    call,
                    state.input.as_ref(),
                    state.metadata.as_ref(),
                    store,
                );
            }
            "error" => {
                call.settled = true;
                failed(call, state.error, store);
            }
            _ => {}
        }
    }
}

fn is_edit_tool(tool: &str) -> bool {
    matches!(tool, "edit" | "write" | "apply_patch")
}

fn text_field<'a>(input: Option<&'a Value>, field: &str) -> Option<&'a str> {
    input?.get(field)?.as_str()
}

/// The edits of one tool call; `None` for a tool that does not edit, or
/// an edit tool's input lacking a field (said).
fn tool_call(
    tool: &str,
    input: Option<&Value>,
    store: &mut Store,
) -> Option<Vec<(usize, String, SectionKind)>> {
    let one = |store: &mut Store, at: usize| {
        let file = store.get(at).map(|e| e.file.clone()).unwrap_or_default();
        Some(vec![(at, file, SectionKind::Update)])
    };
    match tool {
        "edit" => {
            let Some(path) = text_field(input, "filePath") else {
                store.missing("edit tool input", "filePath");
                return None;
            };
            let call = CallInput {
                dialect: "opencode-edit",
                input: input.cloned().unwrap_or(Value::Null),
                path: path.to_string(),
            };
            let at = store.push(AgentTool::EditLower, path, EditInput::Call(call), false);
            one(store, at)
        }
        "write" => {
            let Some(path) = text_field(input, "filePath") else {
                store.missing("write tool input", "filePath");
                return None;
            };
            let Some(content) = text_field(input, "content") else {
                store.missing("write tool input", "content");
                return None;
            };
            let whole = EditInput::Whole(content.to_string());
            let at = store.push(AgentTool::WriteLower, path, whole, false);
            one(store, at)
        }
        "apply_patch" => {
            let Some(patch) = text_field(input, "patchText") else {
                store.missing("apply_patch tool input", "patchText");
                return None;
            };
            store.push_patch("apply_patch tool input", patch)
        }
        _ => None,
    }
}

/// The agent wrote the call's edits: its recorded diffs, and what a new
/// file's write records.
fn completed(
    tool: &str,
    call: &Call,
    input: Option<&Value>,
    metadata: Option<&Value>,
    store: &mut Store,
) {
    for (at, file, _) in &call.edits {
        store.set_verdict(*at, Verdict::Applied, None);
        let recorded = match tool {
            "apply_patch" => patch_file_of(metadata, file),
            _ => metadata,
        };
        let diff = recorded
            .and_then(|m| m.get("diff").or_else(|| m.get("patch")))
            .and_then(Value::as_str);
        let created = match tool {
            "write" => metadata
                .and_then(|m| m.get("exists"))
                .and_then(Value::as_bool)
                .map(|exists| !exists),
            "apply_patch" => recorded
                .and_then(|m| m.get("type"))
                .and_then(Value::as_str)
                .map(|kind| kind == "add"),
            _ => None,
        };
        if created == Some(true) {
            store.set_before(*at, FileContent::Absent);
        }
        if tool == "write"
            && let Some(content) = text_field(input, "content")
        {
            store.set_after(
                *at,
                FileContent::Text(content.to_string()),
                super::ContentOrigin::Recorded,
            );
        }
        if let (Some(diff), Some(edit)) = (diff, store.edit_mut(*at)) {
            edit.agent_diff = Some(diff.to_string());
        }
    }
}

/// The entry of an apply_patch's `metadata.files` for `file` (relative
/// to the workspace, or as the patch names it).
fn patch_file_of<'a>(metadata: Option<&'a Value>, file: &str) -> Option<&'a Value> {
    let files = metadata?.get("files")?.as_array()?;
    files.iter().find(|f| {
        ["filePath", "relativePath"].iter().any(|key| {
            f.get(key).and_then(Value::as_str).is_some_and(|p| {
                p == file || p.strip_suffix(file).is_some_and(|rest| rest.ends_with('/'))
            })
        })
    })
}

/// The agent's error on the call: a refused permission leaves its edits
/// never run; a failing apply_patch fails as a whole (the sections its
/// error names failed, the others were never run).
fn failed(call: &Call, error: Option<String>, store: &mut Store) {
    let text = error.clone().unwrap_or_default();
    if text.starts_with(REJECTED) || text.starts_with(DENIED) {
        for (at, _, _) in &call.edits {
            store.set_verdict(*at, Verdict::NotRun, error.clone());
        }
        return;
    }
    let named: Vec<usize> = call
        .edits
        .iter()
        .filter(|(_, file, _)| !file.is_empty() && names_file(&text, file))
        .map(|(at, _, _)| *at)
        .collect();
    for (at, _, _) in &call.edits {
        let verdict = if call.edits.len() == 1 || named.is_empty() || named.contains(at) {
            Verdict::Failed
        } else {
            Verdict::NotRun
        };
        store.set_verdict(*at, verdict, error.clone());
    }
}

/// Whether an error text names `file` (as a whole path or its end).
fn names_file(text: &str, file: &str) -> bool {
    text.match_indices(file).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + file.len()..].chars().next();
        before.is_none_or(|c| c == '/' || c.is_whitespace() || c == '\'')
            && after.is_none_or(|c| c == ':' || c.is_whitespace() || c == '\'' || c == ',')
    })
}
