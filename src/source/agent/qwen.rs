//! Qwen Code (0.24.4): `qwen -p --output-format stream-json` (live, with
//! or without `--include-partial-messages`) and the chat record
//! `~/.qwen/projects/<cwd>/chats/<session-id>.jsonl` (saved).
//!
//! The live lines look like Claude Code's (`system` init, `stream_event`,
//! `assistant` with `tool_use` blocks, `user` with `tool_result` blocks,
//! `result`), but the tools are Qwen's: `edit` {file_path, old_string,
//! new_string, replace_all} and `write_file` {file_path, content}. A tool
//! call streams as `content_block_start` (input `{}`) and its input as
//! `input_json_delta` pieces (0.24.4 sends the whole input in one piece):
//! the edit is shown from its start, streaming, and settles with the
//! `assistant` line. The live output carries no file content but a
//! written file's.
//!
//! The saved records are Gemini-shaped: an `assistant` record's
//! `message.parts[].functionCall` {id, name, args}, a `tool_result`
//! record's `message.parts[].functionResponse` {id, response: {output} or
//! {error}} and `toolCallResult` {callId, status, resultDisplay}, whose
//! `originalContent` / `newContent` are the file before and after an
//! applied edit.
//!
//! Each `edit` call is run by Qwen's own matcher (`qwen-edit`): its input
//! is kept exactly as the model sent it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::anthropic::{CallIds, LineBlock, ToolInputs, blocks, result_text};
use super::reader::{Kinded, kind_line};
use super::store::Store;
use super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};

/// The Qwen Code versions whose output this reader was built on.
const KNOWN_VERSIONS: &[&str] = &["0.24.4"];

/// Records the version the output names, and says once when it is one
/// this reader was not built on.
fn set_version(store: &mut Store, version: &str) {
    store.set_version(version);
    if !KNOWN_VERSIONS.contains(&version) {
        store.note_once(format!(
            "Qwen Code {version} was not seen before: srview reads the output of Qwen Code {} \
             (an edit it cannot read is said, the rest is read)",
            KNOWN_VERSIONS.join(", ")
        ));
    }
}

/// The `--dialect` Qwen's `edit` calls are run with.
const EDIT_DIALECT: &str = "qwen-edit";

/// Qwen's edit tools: its name, srview's tool, and the Claude Code tool
/// whose keys its input shares (read while it streams).
fn edit_tool(name: &str) -> Option<(AgentTool, &'static str)> {
    match name {
        "edit" => Some((AgentTool::EditLower, "Edit")),
        "write_file" => Some((AgentTool::WriteFile, "Write")),
        _ => None,
    }
}

/// Qwen tools that never write files (0.24.4's `system` init list); any
/// other tool (a shell command, an agent, an MCP tool) may.
fn is_read_only(name: &str) -> bool {
    matches!(
        name,
        "read_file"
            | "read_many_files"
            | "list_directory"
            | "grep_search"
            | "glob"
            | "web_fetch"
            | "web_search"
            | "get_goal"
            | "update_goal"
            | "tool_search"
            | "read_mcp_resource"
            | "list_agents"
            | "skill"
            | "zoom_image"
            | "todo_write"
            | "save_memory"
            | "report_findings"
            | "record_artifact"
            | "cron_list"
            | "task_stop"
    )
}

/// How Qwen answers a `write_file` (or an `edit` with an empty
/// `old_string`) that created the file: the file did not exist before.
fn says_created(text: &str) -> bool {
    text.starts_with("Successfully created and wrote to new file")
        || text.starts_with("Created new file")
}

/// Qwen's answer to an edit of a file the session has not read (its
/// read-before-edit check, run before any matching): `File <path> has not
/// been read in this session. Use the read_file tool first ...`.
pub(super) fn refused_unread(message: &str) -> bool {
    message.starts_with("File ") && message.contains(" has not been read in this session.")
}

/// The tool call `id` named by `name` with `args` (the call's `field`,
/// named where its input cannot be read): a new edit, or the streaming
/// one that call began; other tools mark a possible write.
fn record_call(
    by_id: &mut HashMap<String, usize>,
    id: Option<&str>,
    name: &str,
    args: Option<&Value>,
    store: &mut Store,
    field: &str,
) {
    let Some((tool, _)) = edit_tool(name) else {
        if !is_read_only(name) {
            store.barrier();
        }
        return;
    };
    let known = id.and_then(|id| by_id.get(id)).copied();
    let args = args.unwrap_or(&Value::Null);
    let what = format!("{name} {field}");
    let Some((path, input)) = EditInput::of_file_path_call(tool, args, EDIT_DIALECT, store, &what)
    else {
        // A streaming edit whose final input cannot be read stays as it
        // streamed; the verdict still comes.
        return;
    };
    let at = match known {
        Some(at) => at,
        None => {
            let at = store.push(tool, &path, EditInput::NotRecorded, false);
            if let Some(id) = id {
                by_id.insert(id.to_string(), at);
            }
            at
        }
    };
    store.set_path(at, &path);
    if let Some(edit) = store.edit_mut(at) {
        edit.input = input;
        edit.streaming = false;
    }
}

/// A written file's content after, from the input srview read (a
/// `write_file` writes its `content` as given).
fn written_content(store: &Store, at: usize) -> Option<String> {
    match &store.get(at)?.input {
        EditInput::Whole(content) => Some(content.clone()),
        _ => None,
    }
}

// ---------------------------------------------------------------------
// Live: stream-json.

/// `qwen -p --output-format stream-json` lines.
#[derive(Default)]
pub(super) struct StreamParser {
    /// Tool-call id → edit index.
    by_id: HashMap<String, usize>,
    /// Content-block index of the message streaming → its tool call.
    streaming: ToolInputs,
}

/// The line kinds the live reader looks into (`result` and kinds of later
/// versions are skipped).
fn is_stream_kind(kind: &str) -> bool {
    matches!(kind, "system" | "stream_event" | "assistant" | "user")
}

impl StreamParser {
    fn line(&mut self, text: &str, store: &mut Store) {
        let Some(line) = kind_line::<super::claude::Line>(text, store, is_stream_kind) else {
            return;
        };
        if line.kind == "system" && line.subtype.as_deref() == Some("init") {
            if let Some(cwd) = &line.cwd {
                store.set_workspace(cwd, false);
            }
            if let Some(v) = &line.qwen_code_version {
                set_version(store, v);
            }
            return;
        }
        match line.kind.as_ref() {
            "stream_event" => {
                if let Some(event) = line.event {
                    let ids = CallIds::NotRecorded;
                    self.streaming
                        .take(event, store, &mut self.by_id, ids, edit_tool);
                }
            }
            "assistant" => {
                for block in blocks(line.message.as_ref(), "tool_use") {
                    if let Some(name) = block.name.as_deref() {
                        let (id, args) = (block.id.as_deref(), block.input.as_ref());
                        record_call(&mut self.by_id, id, name, args, store, "tool input");
                    }
                }
            }
            "user" => {
                for block in blocks(line.message.as_ref(), "tool_result") {
                    self.tool_result(block, store);
                }
            }
            _ => {}
        }
    }

    fn tool_result(&mut self, block: LineBlock<Value>, store: &mut Store) {
        let Some(at) = block.answered_edit(&self.by_id) else {
            return;
        };
        let text = result_text(block.content.as_ref());
        if block.is_error == Some(true) {
            store.set_verdict(at, Verdict::Failed, Some(text));
            return;
        }
        store.set_verdict(at, Verdict::Applied, None);
        if let Some(content) = written_content(store, at) {
            if says_created(&text) {
                store.set_before(at, FileContent::Absent);
            }
            store.set_after(at, FileContent::Text(content), ContentOrigin::Recorded);
        }
    }
}

impl super::reader::FormatReader for StreamParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}

// ---------------------------------------------------------------------
// Saved: the chat record.

/// `~/.qwen/projects/<cwd>/chats/<id>.jsonl` records.
#[derive(Default)]
pub(super) struct SessionParser {
    /// Function-call id → edit index.
    by_id: HashMap<String, usize>,
}

/// One record, read in one pass: the message and the tool result (which
/// holds the whole file twice) are kept as raw JSON text, borrowed from
/// the line.
#[derive(Deserialize)]
struct Record<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default, borrow)]
    message: Option<RecordMessage<'a>>,
    #[serde(default, rename = "toolCallResult", borrow)]
    tool_call_result: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct RecordMessage<'a> {
    #[serde(default, borrow)]
    parts: Option<&'a RawValue>,
}

/// A part of a record's message (only the function call or response).
#[derive(Deserialize)]
struct Part {
    #[serde(default, rename = "functionCall")]
    function_call: Option<super::gemini_cli::ToolCall>,
    #[serde(default, rename = "functionResponse")]
    function_response: Option<FunctionResponse>,
}

#[derive(Deserialize)]
struct FunctionResponse {
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    response: Option<Value>,
}

/// A record's `toolCallResult`: the fields srview reads.
#[derive(Deserialize)]
struct ToolCallResult {
    #[serde(default, rename = "callId")]
    call_id: Option<String>,
    #[serde(default)]
    status: Option<String>,
    #[serde(default, rename = "resultDisplay")]
    result_display: Option<Value>,
}

impl Kinded for Record<'_> {
    fn kind(&self) -> &str {
        &self.kind
    }
}

/// The record kinds the saved reader looks into (`system` records,
/// telemetry and attribution, and kinds of later versions are skipped).
fn is_record_kind(kind: &str) -> bool {
    matches!(kind, "user" | "assistant" | "tool_result")
}

impl SessionParser {
    fn line(&mut self, text: &str, store: &mut Store) {
        let Some(record) = kind_line::<Record>(text, store, is_record_kind) else {
            return;
        };
        if let Some(cwd) = &record.cwd {
            store.set_workspace(cwd, false);
        }
        if let Some(v) = &record.version {
            set_version(store, v);
        }
        let parts = parts(record.message.as_ref());
        match record.kind.as_ref() {
            "assistant" => {
                for call in parts.into_iter().filter_map(|p| p.function_call) {
                    if let Some(name) = call.name.as_deref() {
                        let (id, args) = (call.id.as_deref(), call.args.as_ref());
                        record_call(&mut self.by_id, id, name, args, store, "functionCall args");
                    }
                }
            }
            "tool_result" => {
                let result = record
                    .tool_call_result
                    .and_then(|raw| serde_json::from_str::<ToolCallResult>(raw.get()).ok());
                for response in parts.into_iter().filter_map(|p| p.function_response) {
                    let id = response.id.as_deref();
                    let result = result
                        .as_ref()
                        .filter(|r| r.call_id.is_none() || r.call_id.as_deref() == id);
                    self.tool_result(id, response.response.as_ref(), result, store);
                }
            }
            _ => {}
        }
    }

    fn tool_result(
        &mut self,
        id: Option<&str>,
        response: Option<&Value>,
        result: Option<&ToolCallResult>,
        store: &mut Store,
    ) {
        let Some(at) = id.and_then(|id| self.by_id.get(id)).copied() else {
            return;
        };
        let text = |key: &str| {
            response
                .and_then(|r| r.get(key))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        let error = text("error");
        let output = text("output");
        let status = result.and_then(|r| r.status.as_deref());
        let verdict = match (status, &error) {
            (Some("success"), _) => Verdict::Applied,
            (Some("cancelled"), _) => Verdict::NotRun,
            (Some(_), _) | (None, Some(_)) => Verdict::Failed,
            (None, None) => Verdict::Applied,
        };
        if verdict != Verdict::Applied {
            let display = result
                .and_then(|r| r.result_display.as_ref())
                .and_then(Value::as_str)
                .map(str::to_string);
            store.set_verdict(at, verdict, error.or(display).or(output));
            return;
        }
        store.set_verdict(at, Verdict::Applied, None);
        let display = result.and_then(|r| r.result_display.as_ref());
        let recorded = |key: &str| display.and_then(|d| d.get(key)).and_then(Value::as_str);
        let created = output.as_deref().is_some_and(says_created);
        if created {
            store.set_before(at, FileContent::Absent);
        } else if let Some(before) = recorded("originalContent") {
            store.set_before(at, FileContent::Text(before.to_string()));
        }
        let after = recorded("newContent")
            .map(str::to_string)
            .or_else(|| written_content(store, at));
        if let Some(after) = after {
            store.set_after(at, FileContent::Text(after), ContentOrigin::Recorded);
        }
    }
}

/// The parts of a record's message; a part of an unknown shape is skipped.
fn parts(message: Option<&RecordMessage>) -> Vec<Part> {
    super::reader::known_items(message.and_then(|m| m.parts))
}

impl super::reader::FormatReader for SessionParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}
