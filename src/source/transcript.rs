//! Agent transcripts: the raw text a model streams, holding file edits.
//!
//! Two formats are recognised. Cline's tool calls
//! (`<replace_in_file><path>..</path><diff>..</diff></replace_in_file>` and
//! `<write_to_file><path>..</path><content>..</content></write_to_file>`) are
//! parsed the way Cline's `parseAssistantMessageV2` parses them; Aider's edit
//! blocks live in [`super::aider`]. Both become [`ToolCall`]s, which
//! [`apply_calls`] groups per file and runs through the engine.
//!
//! Everything here is pure and cheap enough to call on every streamed update.

mod apply;
mod paths;
mod write;

pub use apply::{ApplyOptions, CallEffect, CallResult, FileEdit, FileState, apply_calls};
pub use paths::{OUTSIDE_REFUSAL, PathError, PathRules};
pub use write::{WriteError, preflight, targets, write_files, write_files_with};

pub use super::call::{CallKind, ToolCall};

use crate::engine::js::{is_js_whitespace, js_trim};

/// The transcript formats srview understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Cline's XML-like tool calls (`<replace_in_file>`, `<write_to_file>`).
    Cline,
    /// Aider's file name followed by SEARCH/REPLACE blocks (`<<<<<<< SEARCH`).
    Aider,
    /// A Codex apply_patch text (bare or in its heredoc): one patch, many files.
    #[serde(rename = "apply_patch")]
    ApplyPatch,
}

/// Which format `text` is written in, decided by whichever appears first: a
/// Cline file-edit tag, an Aider SEARCH marker with a file name above it, or
/// an apply_patch line (`*** Begin Patch`, `*** Update File: ..`).
/// `None` while none has appeared (a stream that has only just begun).
pub fn detect(text: &str) -> Option<Format> {
    let cline = ["<replace_in_file>", "<write_to_file>"]
        .iter()
        .filter_map(|tag| text.find(tag))
        .min()
        .map(|at| (at, Format::Cline));
    let aider = super::aider::first_block_offset(text).map(|at| (at, Format::Aider));
    let patch = crate::dialect::first_patch_line(text).map(|at| (at, Format::ApplyPatch));
    // On a tie the order here decides: Cline, then Aider, then apply_patch.
    [cline, aider, patch]
        .into_iter()
        .flatten()
        .min_by_key(|(at, _)| *at)
        .map(|(_, format)| format)
}

/// Parses `text` in the format [`detect`] finds (Cline when undecided). An
/// apply_patch text holds no tool calls: [`super::patch`] applies it.
pub fn parse_any(text: &str) -> Vec<ToolCall> {
    match detect(text) {
        Some(Format::Aider) => super::aider::parse(text),
        Some(Format::ApplyPatch) => Vec::new(),
        _ => parse(text),
    }
}

/// Cline's tool names: every one is recognised so that text inside another
/// tool (say an `<execute_command>`) is never taken for a file edit.
const TOOL_NAMES: &[&str] = &[
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "plan_mode_respond",
    "load_mcp_documentation",
    "attempt_completion",
    "new_task",
    "condense",
    "summarize_task",
    "report_bug",
    "new_rule",
    "web_fetch",
];

/// Cline's parameter names. Inside a tool, any of these opens a parameter.
const PARAM_NAMES: &[&str] = &[
    "command",
    "requires_approval",
    "path",
    "content",
    "diff",
    "regex",
    "file_pattern",
    "recursive",
    "action",
    "url",
    "coordinate",
    "text",
    "server_name",
    "tool_name",
    "arguments",
    "uri",
    "question",
    "options",
    "response",
    "result",
    "context",
    "title",
    "what_happened",
    "steps_to_reproduce",
    "api_request_output",
    "additional_context",
    "needs_more_exploration",
    "task_progress",
    "timeout",
];

/// A tool use while parsing: its name and the parameters closed so far.
struct RawTool {
    name: &'static str,
    params: Vec<(&'static str, String)>,
    /// `<path>` was closed (not just cut off by the end of the text).
    path_closed: bool,
    partial: bool,
}

impl RawTool {
    fn set(&mut self, name: &'static str, value: &str) {
        match self.params.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.params.push((name, value.to_string())),
        }
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// True when `<name>` (or `</name>` when `closing`) ends exactly at byte
/// `i` of `bytes`. Checked in place: this runs at every `>` of the text.
fn tag_ends_at(bytes: &[u8], i: usize, name: &str, closing: bool) -> bool {
    let slash = usize::from(closing);
    let len = name.len() + 2 + slash;
    if i + 1 < len {
        return false;
    }
    let tag = &bytes[i + 1 - len..=i];
    tag[0] == b'<' && (!closing || tag[1] == b'/') && &tag[1 + slash..len - 1] == name.as_bytes()
}

/// Length of the closing tag `</name>`.
fn close_len(name: &str) -> usize {
    name.len() + 3
}

/// Cline tool calls in `text`, in order: only the file edits, with their
/// values prepared as Cline's handlers prepare them (a partial call loses a
/// half-written closing tag at its end; `write_to_file` loses code fences).
pub fn parse(text: &str) -> Vec<ToolCall> {
    parse_tools(text)
        .into_iter()
        .filter_map(|tool| to_call(&tool))
        .collect()
}

/// A port of `parseAssistantMessageV2`'s state machine, keeping tool uses
/// only. Tags are ASCII, so byte positions right after a `>` are always
/// char boundaries.
fn parse_tools(text: &str) -> Vec<RawTool> {
    let bytes = text.as_bytes();
    let mut tools = Vec::new();
    let mut tool: Option<RawTool> = None;
    let mut tool_start = 0;
    let mut param: Option<(&'static str, usize)> = None;
    for i in 0..bytes.len() {
        // Every tag ends in '>': nothing can open or close anywhere else.
        if bytes[i] != b'>' {
            continue;
        }
        if let (Some(t), Some((name, start))) = (tool.as_mut(), param) {
            if !tag_ends_at(bytes, i, name, true) {
                continue;
            }
            t.set(name, js_trim(&text[start..i + 1 - close_len(name)]));
            if name == "path" {
                t.path_closed = true;
            }
            param = None;
            // Cline goes on to check this same position for tool tags.
        }
        if let Some(mut t) = tool.take() {
            if let Some(name) = PARAM_NAMES.iter().find(|n| tag_ends_at(bytes, i, n, false)) {
                param = Some((name, i + 1));
                tool = Some(t);
                continue;
            }
            if tag_ends_at(bytes, i, t.name, true) {
                let inner = &text[tool_start..i + 1 - close_len(t.name)];
                recover_content(&mut t, inner);
                t.partial = false;
                tools.push(t);
            } else {
                tool = Some(t);
            }
            continue;
        }
        if let Some(name) = TOOL_NAMES.iter().find(|n| tag_ends_at(bytes, i, n, false)) {
            tool = Some(RawTool {
                name,
                params: Vec::new(),
                path_closed: false,
                partial: true,
            });
            tool_start = i + 1;
        }
    }
    if let Some(mut t) = tool {
        if let Some((name, start)) = param {
            t.set(name, js_trim(&text[start..]));
        }
        tools.push(t);
    }
    tools
}

/// Cline's rescue for `write_to_file` whose `content` never closed as a
/// parameter: take the text between the first `<content>` and the last
/// `</content>` of the tool.
fn recover_content(tool: &mut RawTool, inner: &str) {
    if !matches!(tool.name, "write_to_file" | "new_rule") || tool.get("content").is_some() {
        return;
    }
    let (open, close) = ("<content>", "</content>");
    if let (Some(start), Some(end)) = (inner.find(open), inner.rfind(close))
        && end > start
    {
        let value = js_trim(&inner[start + open.len()..end]).to_string();
        tool.set("content", &value);
    }
}

fn to_call(tool: &RawTool) -> Option<ToolCall> {
    let (kind, body_param) = match tool.name {
        "replace_in_file" => (CallKind::ReplaceInFile, "diff"),
        "write_to_file" => (CallKind::WriteToFile, "content"),
        _ => return None,
    };
    let raw_path = tool.get("path").unwrap_or("");
    let raw_body = tool.get(body_param).unwrap_or("");
    let (path, body) = if tool.partial {
        (
            remove_closing_tag("path", raw_path),
            remove_closing_tag(body_param, raw_body),
        )
    } else {
        (raw_path, raw_body)
    };
    let body = match kind {
        CallKind::WriteToFile => strip_code_fences(body),
        CallKind::ReplaceInFile => body.to_string(),
    };
    Some(ToolCall {
        kind,
        path: path.to_string(),
        path_complete: tool.path_closed || !tool.partial,
        body,
        partial: tool.partial,
    })
}

/// Cline's `removeClosingTag` for partial values: drops a trailing
/// `\s?</?` followed by any in-order subset of the tag's letters, so a
/// half-written `</di` never shows up as content.
pub fn remove_closing_tag<'a>(tag: &str, text: &'a str) -> &'a str {
    let Some(lt) = text.rfind('<') else {
        return text;
    };
    let rest = &text[lt + 1..];
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let mut letters = tag.chars();
    // Each char of `rest` must be the next-or-later letter of the tag.
    let is_subsequence = rest.chars().all(|c| letters.any(|l| l == c));
    if !is_subsequence {
        return text;
    }
    let mut cut = lt;
    if let Some(prev) = text[..lt].chars().next_back()
        && is_js_whitespace(prev)
    {
        cut -= prev.len_utf8();
    }
    &text[..cut]
}

/// Cline drops a leading ```` ```lang ```` line and a trailing ```` ``` ````
/// line from `write_to_file` content (weaker models add them).
fn strip_code_fences(content: &str) -> String {
    let mut text = content.to_string();
    if text.starts_with("```") {
        text = match text.split_once('\n') {
            Some((_, rest)) => js_trim(rest).to_string(),
            None => String::new(),
        };
    }
    if text.ends_with("```") {
        text = match text.rsplit_once('\n') {
            Some((head, _)) => js_trim(head).to_string(),
            None => String::new(),
        };
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn closing_tag_prefixes_are_removed() {
        assert_cases(
            |text| remove_closing_tag("diff", text),
            &[
                ("a\n</di", "a"),
                ("a <", "a"),
                ("a</", "a"),
                ("a <x", "a <x"),
                ("a < b", "a < b"),
            ],
        );
    }

    #[test]
    fn fences_are_stripped() {
        assert_eq!(strip_code_fences("```rust\nfn x() {}\n```"), "fn x() {}");
        assert_eq!(strip_code_fences("plain"), "plain");
    }
}
