//! Gemini CLI (0.61.0): `gemini -p --output-format stream-json` (live),
//! `~/.gemini/tmp/<project>/chats/session-*.jsonl` (saved), and
//! `--output-format json` (one summary document: no edits).
//!
//! Live, one event a line: `init` {session_id, model}, `message` (text
//! deltas), `tool_use` {tool_name, tool_id, parameters: the whole input;
//! Gemini's API delivers a function call whole, so nothing streams},
//! `tool_result` {tool_id, status success|error, error {type, message}:
//! the text the model read}, `result`. Neither the workspace (paths are
//! absolute) nor the version is named, nor any file content.
//!
//! Saved: a header {sessionId, projectHash, ...}, `{"$set": ...}` updates,
//! one line per message; an assistant message (`type: "gemini"`) is
//! written again, same `id`, once its tools ran, with `toolCalls` [{id,
//! name, args, result: [functionResponse {response: {output}|{error}}],
//! status success|error|cancelled, resultDisplay}]: for an applied edit
//! `resultDisplay` holds `originalContent` and `newContent` (`isNewFile`:
//! the file did not exist). The folder the CLI ran in is in
//! `tmp/<project>/.project_root` (or `~/.gemini/projects.json`).
//!
//! `replace` is run by Gemini's own matcher (`gemini-replace`);
//! `write_file` is a whole content. A call to a tool the CLI did not
//! declare (its edit tools without `--yolo` in headless mode) is answered
//! `Tool "replace" not found ...` (type `tool_not_registered`): never run.

use std::collections::HashMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use super::store::Store;
use super::{AgentError, AgentTool, EditInput, FileContent, Verdict};

/// The `--dialect` srview runs a `replace` call with.
const REPLACE_DIALECT: &str = "gemini-replace";

/// The error type of a call to a tool the CLI did not declare.
const NOT_REGISTERED: &str = "tool_not_registered";

/// How far into a line its top-level `type` is looked for.
const HEAD: usize = 160;

/// Tools that may write files other than through an edit.
const SHELL_TOOLS: &[&str] = &["run_shell_command"];

/// Reads both line formats (live and saved): each line says which it is.
#[derive(Default)]
pub(super) struct Parser {
    /// By tool call id, the index of its edit.
    calls: HashMap<String, usize>,
    /// The workspace was looked for in the saved session's context text.
    context_read: bool,
    /// The ids of the `read_file` calls read (a message is written again
    /// once its tools ran: each read counts once).
    reads: std::collections::HashSet<String>,
}

#[derive(Deserialize)]
struct Line {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    // Live events.
    #[serde(default)]
    tool_name: Option<String>,
    #[serde(default)]
    tool_id: Option<String>,
    #[serde(default)]
    parameters: Option<Value>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    output: Option<Value>,
    #[serde(default)]
    error: Option<LiveError>,
    // Saved messages.
    #[serde(rename = "toolCalls", default)]
    tool_calls: Vec<ToolCall>,
    #[serde(rename = "$set", default)]
    set: Option<Value>,
    #[serde(default)]
    content: Option<Value>,
}

#[derive(Deserialize)]
struct LiveError {
    #[serde(rename = "type", default)]
    kind: Option<String>,
    #[serde(default)]
    message: Option<String>,
}

/// One tool call of a saved assistant message: the model's function call
/// {id, name, args}, its result, status and display. Qwen Code's saved
/// records (Gemini-shaped) read their `functionCall` parts as this too:
/// the call alone, its result in a record of its own.
/// Every field may be missing (then empty).
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
pub(super) struct ToolCall {
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) args: Option<Value>,
    result: Vec<Value>,
    status: Option<String>,
    result_display: Option<Value>,
}

impl super::reader::FormatReader for Parser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        let text = text.trim();
        if self.skipped(text) {
            return;
        }
        let Some(line) = store.json_line::<Line>(text, "not a JSON object") else {
            return;
        };
        match line.kind.as_deref() {
            Some("tool_use") => self.tool_use(line, store),
            Some("tool_result") => self.tool_result(line, store),
            Some("gemini") => {
                for call in line.tool_calls {
                    self.saved_call(call, store);
                }
            }
            _ => {
                if let Some(set) = &line.set
                    && !self.context_read
                {
                    self.context(set.get("messages"), store);
                }
                if line.kind.as_deref() == Some("user") && !self.context_read {
                    self.context(line.content.as_ref(), store);
                }
            }
        }
    }
}

impl Parser {
    /// Lines that cannot hold an edit or its verdict, told without parsing
    /// them (most of a long session): text deltas, an assistant message
    /// written before its tools ran, and once the workspace is known the
    /// user messages (tool responses repeated, whole files) and `$set`
    /// updates. The CLI writes compact JSON: a key and its value are
    /// `"type":"user"` at the top level (a quote inside a string is
    /// escaped, so no string holds that text).
    fn skipped(&self, text: &str) -> bool {
        // The top-level `type` comes before any long value (after `id` and
        // `timestamp` in the session, first in the stream).
        let head = (0..=HEAD.min(text.len()))
            .rev()
            .find_map(|n| text.get(..n))
            .unwrap_or_default();
        let is = |kind: &str| head.contains(&format!("\"type\":\"{kind}\""));
        if head.starts_with("{\"type\":\"message\"") {
            return true;
        }
        if is("gemini") && !text.contains("\"toolCalls\"") {
            return true;
        }
        self.context_read && (head.starts_with("{\"$set\"") || is("user"))
    }

    /// Live `tool_use`: a new edit, pending, for an edit tool.
    fn tool_use(&mut self, line: Line, store: &mut Store) {
        let (Some(name), Some(id)) = (line.tool_name, line.tool_id) else {
            return;
        };
        let input = line.parameters.unwrap_or(Value::Null);
        if let Some(index) = self.push(&name, &input, store) {
            self.calls.insert(id, index);
        }
    }

    /// Live `tool_result`: the verdict of the edit it answers.
    fn tool_result(&mut self, line: Line, store: &mut Store) {
        let Some(&index) = line.tool_id.as_ref().and_then(|id| self.calls.get(id)) else {
            return;
        };
        let error = line.error.as_ref();
        let message = error.and_then(|e| e.message.clone()).or_else(|| {
            line.output
                .as_ref()
                .and_then(|o| o.as_str())
                .map(String::from)
        });
        let not_registered = error.and_then(|e| e.kind.as_deref()) == Some(NOT_REGISTERED)
            || message.as_deref().is_some_and(is_not_registered);
        match verdict_of(line.status.as_deref(), not_registered) {
            Some(Verdict::Applied) => store.set_verdict(index, Verdict::Applied, None),
            Some(verdict) => store.set_verdict(index, verdict, message),
            None => {}
        }
    }

    /// A tool call of a saved message (written again once it ran): its
    /// edit, its verdict and the contents `resultDisplay` records.
    fn saved_call(&mut self, call: ToolCall, store: &mut Store) {
        let (Some(name), Some(id)) = (call.name.as_deref(), call.id.as_ref()) else {
            return;
        };
        if name == "read_file" {
            if self.reads.insert(id.clone()) {
                whole_read(&call, store);
            }
            return;
        }
        let index = match self.calls.get(id) {
            Some(&index) => index,
            None => {
                let input = call.args.clone().unwrap_or(Value::Null);
                let Some(index) = self.push(name, &input, store) else {
                    return;
                };
                self.calls.insert(id.clone(), index);
                index
            }
        };
        let response = call
            .result
            .iter()
            .find_map(|r| r.pointer("/functionResponse/response"));
        let error = response
            .and_then(|r| r.get("error"))
            .and_then(Value::as_str)
            .map(String::from);
        let not_registered = error.as_deref().is_some_and(is_not_registered);
        match verdict_of(call.status.as_deref(), not_registered) {
            Some(Verdict::Applied) => {
                if let Some(display) = call.result_display.as_ref().filter(|d| d.is_object()) {
                    let new_file = display.get("isNewFile").and_then(Value::as_bool) == Some(true);
                    let text = |key: &str| display.get(key).and_then(Value::as_str);
                    if new_file {
                        store.set_before(index, FileContent::Absent);
                    } else if let Some(before) = text("originalContent") {
                        store.set_before(index, FileContent::Text(before.to_string()));
                    }
                    if let Some(after) = text("newContent") {
                        store.set_after(
                            index,
                            FileContent::Text(after.to_string()),
                            super::ContentOrigin::Recorded,
                        );
                    }
                }
                store.set_verdict(index, Verdict::Applied, None);
            }
            Some(verdict) => store.set_verdict(index, verdict, error),
            None => {}
        }
    }

    /// The edit of a `name` call with `input`, pushed pending; a shell
    /// command is a barrier. `None` for other tools, or an input without
    /// the fields an edit needs (noted).
    fn push(&mut self, name: &str, input: &Value, store: &mut Store) -> Option<usize> {
        if SHELL_TOOLS.contains(&name) {
            store.barrier();
            return None;
        }
        let tool = match name {
            "replace" => AgentTool::Replace,
            "write_file" => AgentTool::WriteFile,
            _ => return None,
        };
        let what = format!("{name} tool input");
        let (path, edit) =
            EditInput::of_file_path_call(tool, input, REPLACE_DIALECT, store, &what)?;
        Some(store.push(tool, &path, edit, false))
    }

    /// The saved session's first user message (the CLI's session context)
    /// names the workspace: `- **Workspace Directories:**` then `  - DIR`.
    /// Used when no side file named it.
    fn context(&mut self, value: Option<&Value>, store: &mut Store) {
        let Some(value) = value else { return };
        let mut texts = Vec::new();
        collect_texts(value, &mut texts);
        for text in texts {
            if let Some(dir) = workspace_in_context(text) {
                self.context_read = true;
                if store.workspace().is_none() {
                    store.set_workspace(dir, false);
                }
                return;
            }
        }
    }
}

/// A saved `read_file` call that read a whole text file: its output is the
/// file's content (lines joined with `\n`: a CRLF file reads as LF), the
/// next edits' content before. Not a partial read (`start_line`,
/// `end_line`), a truncated one (the CLI's `IMPORTANT: The file content has
/// been truncated.` header) or one with project context appended.
fn whole_read(call: &ToolCall, store: &mut Store) {
    let Some(args) = call.args.as_ref() else {
        return;
    };
    let Some(path) = args.get("file_path").and_then(Value::as_str) else {
        return;
    };
    let partial = ["start_line", "end_line", "offset", "limit"]
        .iter()
        .any(|k| args.get(*k).is_some_and(|v| !v.is_null()));
    if partial || call.status.as_deref() != Some("success") {
        return;
    }
    let Some(output) = call.result.iter().find_map(|r| {
        r.pointer("/functionResponse/response/output")
            .and_then(Value::as_str)
    }) else {
        return;
    };
    let altered = output.starts_with("\nIMPORTANT: The file content has been truncated.")
        || output.contains("\n--- Newly Discovered Project Context ---\n");
    if !altered {
        store.file_read(path, FileContent::Text(output.to_string()));
    }
}

/// Every `text` string below `value`.
fn collect_texts<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| collect_texts(v, out)),
        Value::Object(map) => {
            if let Some(text) = map.get("text").and_then(Value::as_str) {
                out.push(text);
            }
            map.values()
                .filter(|v| v.is_array() || v.is_object())
                .for_each(|v| collect_texts(v, out));
        }
        _ => {}
    }
}

/// The first folder under `Workspace Directories:` in the context text.
fn workspace_in_context(text: &str) -> Option<&str> {
    let (_, rest) = text.split_once("Workspace Directories:")?;
    rest.lines()
        .nth(1)
        .and_then(|l| l.trim().strip_prefix("- "))
        .map(str::trim)
        .filter(|dir| dir.starts_with('/'))
}

/// `Tool "replace" not found ...`: the CLI did not declare the tool (its
/// edit tools, headless without `--yolo`), so it never ran.
fn is_not_registered(message: &str) -> bool {
    message.starts_with("Tool \"") && message.contains("\" not found")
}

/// A tool call's verdict by its `status` (live and saved alike): an error
/// of a call to a tool the CLI did not declare (`not_registered`) never
/// ran; `None` while it has none.
fn verdict_of(status: Option<&str>, not_registered: bool) -> Option<Verdict> {
    match status? {
        "success" => Some(Verdict::Applied),
        "error" if not_registered => Some(Verdict::NotRun),
        "error" => Some(Verdict::Failed),
        "cancelled" => Some(Verdict::NotRun),
        _ => None,
    }
}

/// Reads what a saved session keeps beside it: the folder the CLI ran in,
/// from `tmp/<project>/.project_root`, else `~/.gemini/projects.json`
/// (which maps folders to the `<project>` names).
pub(super) fn side_files(file: &Path, reader: &mut super::AgentReader, use_cwd: bool) {
    if !use_cwd {
        return;
    }
    // <gemini>/tmp/<project>/chats/<file>
    let Some(project) = file.parent().and_then(Path::parent) else {
        return;
    };
    if let Ok(root) = std::fs::read_to_string(project.join(".project_root")) {
        let root = root.trim();
        if root.starts_with('/') {
            reader.store.set_workspace(root, false);
            return;
        }
    }
    let Some(slug) = project.file_name().map(|n| n.to_string_lossy().to_string()) else {
        return;
    };
    let Some(gemini) = project.parent().and_then(Path::parent) else {
        return;
    };
    let Some(projects) = super::reader::read_json::<Projects>(&gemini.join("projects.json")) else {
        return;
    };
    if let Some((dir, _)) = projects.projects.iter().find(|(_, s)| **s == slug) {
        reader.store.set_workspace(dir, false);
    }
}

#[derive(Deserialize)]
struct Projects {
    #[serde(default)]
    projects: HashMap<String, String>,
}

/// `--output-format json`: one summary document at the end of the run,
/// with tool counts and no edit. Said as such, with the counts of the edit
/// tools, so the run is not taken for one without edits.
pub(super) fn summary(text: &str, store: &mut Store) {
    let Some(doc) = store.json_line::<Value>(text.trim(), "not a JSON document") else {
        return;
    };
    let by_name = doc.pointer("/stats/tools/byName");
    let counts: Vec<String> = ["replace", "write_file"]
        .iter()
        .filter_map(|tool| {
            let entry = by_name?.get(*tool)?;
            let n = |key: &str| entry.get(key).and_then(Value::as_u64).unwrap_or(0);
            Some(format!(
                "{tool}: {} call{}, {} succeeded, {} failed",
                n("count"),
                if n("count") == 1 { "" } else { "s" },
                n("success"),
                n("fail")
            ))
        })
        .collect();
    let counted = if counts.is_empty() {
        "no edit tool calls counted".to_string()
    } else {
        counts.join("; ")
    };
    store.note_error(AgentError::NoEdits {
        agent: super::AgentKind::GeminiCli,
        why: format!(
            "this is `--output-format json` output: it carries no edits, only counts \
             ({counted}); pipe `--output-format stream-json` instead, or read the saved \
             session (`srview session`)"
        ),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_names_the_workspace() {
        let text = "x\n- **Workspace Directories:**\n  - /home/user/project\n- **Directory";
        assert_eq!(workspace_in_context(text), Some("/home/user/project"));
        assert_eq!(workspace_in_context("no workspace here"), None);
    }

    #[test]
    fn a_tool_the_cli_did_not_declare_is_told_by_its_text() {
        assert!(is_not_registered(
            "Tool \"replace\" not found. Did you mean one of: \"read_file\"?"
        ));
        assert!(!is_not_registered("File not found: /a.py"));
    }

    #[test]
    fn a_status_gives_the_same_verdict_live_and_saved() {
        assert_eq!(verdict_of(Some("success"), true), Some(Verdict::Applied));
        assert_eq!(verdict_of(Some("error"), false), Some(Verdict::Failed));
        assert_eq!(verdict_of(Some("error"), true), Some(Verdict::NotRun));
        assert_eq!(verdict_of(Some("cancelled"), false), Some(Verdict::NotRun));
        assert_eq!(verdict_of(Some("executing"), false), None);
        assert_eq!(verdict_of(None, true), None);
    }
}
