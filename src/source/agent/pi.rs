//! pi 0.73.1: `pi -p --mode json` (live) and the session file
//! `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl` (saved, format
//! version 3). One reader reads both: their lines differ in kind only.
//!
//! - Live: a `session` header naming the `cwd`, then agent events. Each
//!   piece of a tool call's arguments is a `message_update` whose
//!   `assistantMessageEvent` is `toolcall_start` / `toolcall_delta` (`delta`:
//!   the raw argument text) / `toolcall_end` (`toolCall`: the arguments as pi
//!   parsed them); `message_end` holds the whole assistant message with its
//!   `stopReason`; `tool_execution_end` (and the `toolResult` message after
//!   it) holds the verdict: `isError` and the result's text.
//! - Saved: the same header, then entries forming a tree by
//!   `id`/`parentId`; `message` entries hold the assistant messages (their
//!   `toolCall` blocks) and the `toolResult` messages. Every entry is read
//!   in file order, abandoned branches included.
//!
//! Neither records a file's content before an edit (a successful edit's
//! `details.diff` is numbered, elided and computed on the normalised text):
//! only a `write`'s content after is known. An `edit` call is run by pi's
//! own matcher (`pi-edit`), its tool input exactly as the model sent it.
//!
//! pi runs a tool call even when the model's stream ended inside it
//! without a finish reason: it parses the arguments as far as they had
//! arrived ([`AgentEdit::cut_off`]). Live, the raw pieces are not JSON;
//! saved, the assistant message holding the call has `stopReason` `stop`
//! (a finished call has `toolUse`), or `length` (the token limit cut it).
//!
//! A call pi never ran (an extension's `tool_call` hook blocked it, or the
//! tool is not enabled) still gets an error result; only its text tells it
//! from a failure, so an error text none of pi's tools or its argument
//! validation writes is read as `not-run`.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::lines::{JsonByte, JsonStrings};
use super::store::Store;
use super::{AgentEdit, AgentTool, CallInput, ContentOrigin, EditInput, FileContent, Verdict};

/// How many files' read contents are kept at most, waiting for an edit.
const MAX_READS_KEPT: usize = 64;

/// The session format version srview knows.
const KNOWN_FORMAT: u64 = 3;

/// Reads pi's live events and saved session entries.
#[derive(Default)]
pub(super) struct Parser {
    /// Tool call id → edit index.
    by_id: HashMap<String, usize>,
    /// Content index of the assistant message streaming → its tool call.
    streaming: HashMap<u64, Streaming>,
    /// An unknown session format version was said.
    said_format: bool,
    /// `read` calls of a whole file (no `offset`/`limit`) awaiting their
    /// result: call id → the file.
    reading: HashMap<String, String>,
    /// Each file's content as a whole-file `read` returned it, until an
    /// edit of it takes it as its content before (or a shell command may
    /// have changed it).
    read: HashMap<String, String>,
}

/// A tool call whose arguments are streaming.
struct Streaming {
    id: Option<String>,
    tool: AgentTool,
    /// The raw argument pieces so far.
    raw: String,
    /// Its edit, once the path is known.
    index: Option<usize>,
}

/// One line, every field kept raw: a field of an unexpected type leaves
/// the others readable.
#[derive(Deserialize)]
struct Line<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    version: Option<&'a RawValue>,
    #[serde(default, borrow)]
    cwd: Option<&'a RawValue>,
    #[serde(default, borrow)]
    message: Option<&'a RawValue>,
    #[serde(default, rename = "assistantMessageEvent", borrow)]
    event: Option<&'a RawValue>,
    #[serde(default, rename = "toolCallId", borrow)]
    tool_call_id: Option<&'a RawValue>,
    #[serde(default, rename = "toolName", borrow)]
    tool_name: Option<&'a RawValue>,
    #[serde(default, borrow)]
    args: Option<&'a RawValue>,
    #[serde(default, borrow)]
    result: Option<&'a RawValue>,
    #[serde(default, rename = "isError", borrow)]
    is_error: Option<&'a RawValue>,
}

/// An assistant or tool-result message.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(default, borrow)]
    role: Option<&'a RawValue>,
    #[serde(default, borrow)]
    content: Option<&'a RawValue>,
    #[serde(default, rename = "stopReason", borrow)]
    stop_reason: Option<&'a RawValue>,
    #[serde(default, rename = "toolCallId", borrow)]
    tool_call_id: Option<&'a RawValue>,
    #[serde(default, rename = "isError", borrow)]
    is_error: Option<&'a RawValue>,
    #[serde(default, borrow)]
    details: Option<&'a RawValue>,
}

/// A `message_update`'s event.
#[derive(Deserialize)]
struct Event<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, rename = "contentIndex")]
    content_index: Option<u64>,
    #[serde(default)]
    delta: Option<String>,
    #[serde(default, rename = "toolCall", borrow)]
    tool_call: Option<&'a RawValue>,
    #[serde(default, borrow)]
    partial: Option<&'a RawValue>,
}

/// A `toolCall` content block.
#[derive(Deserialize)]
struct ToolCallBlock {
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    id: Option<String>,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    arguments: Option<Value>,
}

fn text_of(raw: Option<&RawValue>) -> Option<String> {
    raw.and_then(|r| serde_json::from_str::<String>(r.get()).ok())
}

fn bool_of(raw: Option<&RawValue>) -> Option<bool> {
    raw.and_then(|r| serde_json::from_str::<bool>(r.get()).ok())
}

/// pi's file-writing tools, by its names.
fn edit_tool(name: &str) -> Option<AgentTool> {
    match name {
        "edit" => Some(AgentTool::EditLower),
        "write" => Some(AgentTool::WriteLower),
        _ => None,
    }
}

/// pi's tools that never write files (`bash` and any extension's tool may).
fn is_read_only(name: &str) -> bool {
    matches!(name, "read" | "grep" | "find" | "ls")
}

/// Whether `text`, the error result of an `edit` or `write` call, is one
/// pi writes when it ran the call (its `edit` texts, its argument
/// validation, a file system error, an abort); otherwise the call never
/// ran (an extension's `reason`, `Tool execution was blocked`, `Tool edit
/// not found`).
fn ran_and_failed(text: &str) -> bool {
    const RAN: &[&str] = &[
        "Could not find ",
        "Found ",
        "Could not edit file: ",
        "No changes made to ",
        "oldText must not be empty",
        "edits[",
        "Edit tool input is invalid.",
        "Validation failed for tool ",
        "Operation aborted",
    ];
    let text = text.trim_start();
    // Node's file system errors: `EACCES: permission denied, open ...`.
    let code = text.split(':').next().unwrap_or_default();
    let node_error = code.len() >= 3
        && code.starts_with('E')
        && code.chars().all(|c| c.is_ascii_uppercase())
        && text.len() > code.len();
    node_error || RAN.iter().any(|p| text.starts_with(p))
}

/// A tool result's text: its text blocks, joined.
fn result_text(content: Option<&RawValue>) -> String {
    text_blocks(content)
        .map(|(text, _)| text)
        .unwrap_or_else(|| text_of(content).unwrap_or_default())
}

/// A content block, its text borrowed where it has no escapes.
#[derive(Deserialize)]
struct TextBlock<'a> {
    #[serde(rename = "type", default, borrow)]
    kind: Cow<'a, str>,
    #[serde(default, borrow)]
    text: Option<Cow<'a, str>>,
}

/// The text blocks of a content array, joined, and whether every block
/// is text; `None` when it is no array. One pass over a result that may be
/// a whole file.
fn text_blocks(content: Option<&RawValue>) -> Option<(String, bool)> {
    let blocks = serde_json::from_str::<Vec<TextBlock>>(content?.get()).ok()?;
    let all_text = !blocks.is_empty() && blocks.iter().all(|b| b.kind == "text");
    let texts: Vec<&str> = blocks.iter().filter_map(|b| b.text.as_deref()).collect();
    Some((texts.join("\n"), all_text))
}

/// The file a tool input names: `path`, else a Claude-style `file_path`
/// (pi fails such a call; the model still meant that file).
fn path_of(args: &Value) -> Option<&str> {
    args.get("path")
        .or_else(|| args.get("file_path"))
        .and_then(Value::as_str)
}

/// The edit a complete tool input asks for.
fn input_of(tool: AgentTool, args: &Value, path: &str) -> EditInput {
    match tool {
        AgentTool::WriteLower => match args.get("content").and_then(Value::as_str) {
            Some(content) => EditInput::Whole(content.to_string()),
            None => EditInput::Call(CallInput {
                dialect: "pi-edit",
                input: args.clone(),
                path: path.to_string(),
            }),
        },
        _ => EditInput::Call(CallInput {
            dialect: "pi-edit",
            input: args.clone(),
            path: path.to_string(),
        }),
    }
}

impl Parser {
    fn line(&mut self, text: &str, store: &mut Store) {
        if text.trim().is_empty() {
            return;
        }
        let line = match serde_json::from_str::<Line>(text) {
            Ok(line) => line,
            Err(e) => return store.malformed(format!("not a JSON object ({e})")),
        };
        match line.kind.as_ref() {
            "session" => self.header(&line, store),
            "message_update" => {
                if let Some(event) = line
                    .event
                    .and_then(|raw| serde_json::from_str::<Event>(raw.get()).ok())
                {
                    self.event(event, store);
                }
            }
            "message_start" => self.streaming.clear(),
            // Live `message_end` and saved `message`: the whole message.
            "message_end" | "message" => {
                if let Some(message) = line
                    .message
                    .and_then(|raw| serde_json::from_str::<Message>(raw.get()).ok())
                {
                    self.message(&message, store);
                }
            }
            "tool_execution_start" => self.execution_start(&line, store),
            "tool_execution_end" => {
                let (Some(id), Some(result)) = (text_of(line.tool_call_id), line.result) else {
                    return;
                };
                let Ok(result) = serde_json::from_str::<Message>(result.get()) else {
                    return;
                };
                let is_error = bool_of(line.is_error).unwrap_or(false);
                self.result(&id, is_error, &result, store);
            }
            // `turn_end` and `agent_end` repeat the messages; other kinds
            // (model changes, compactions, labels...) hold no edit.
            _ => {}
        }
    }

    fn header(&mut self, line: &Line, store: &mut Store) {
        if let Some(cwd) = text_of(line.cwd) {
            store.set_workspace(&cwd, false);
        }
        let version = line.version.map(|raw| raw.get().to_string());
        if let Some(version) = version
            && version != KNOWN_FORMAT.to_string()
            && !self.said_format
        {
            self.said_format = true;
            store.unknown_version(&format!(
                "session format version {version} (srview knows version {KNOWN_FORMAT}; \
                 read as that)"
            ));
        }
    }

    fn event(&mut self, event: Event, store: &mut Store) {
        let Some(index) = event.content_index else {
            return;
        };
        match event.kind.as_ref() {
            "toolcall_start" => {
                // The block's id and name, from the partial message.
                let block = event
                    .partial
                    .and_then(|raw| serde_json::from_str::<Message>(raw.get()).ok())
                    .and_then(|m| m.content)
                    .and_then(|raw| serde_json::from_str::<Vec<&RawValue>>(raw.get()).ok())
                    .and_then(|blocks| blocks.get(index as usize).copied())
                    .and_then(|raw| serde_json::from_str::<ToolCallBlock>(raw.get()).ok());
                let Some(block) = block else { return };
                let Some(tool) = block.name.as_deref().and_then(edit_tool) else {
                    return;
                };
                self.streaming.insert(
                    index,
                    Streaming {
                        id: block.id,
                        tool,
                        raw: String::new(),
                        index: None,
                    },
                );
            }
            "toolcall_delta" => {
                let Some(s) = self.streaming.get_mut(&index) else {
                    return;
                };
                s.raw.push_str(event.delta.as_deref().unwrap_or(""));
                let so_far = read_prefix(&s.raw);
                // The path once its string is complete.
                let Some(path) = so_far
                    .settled
                    .as_ref()
                    .and_then(path_of)
                    .map(str::to_string)
                else {
                    return;
                };
                let input = streaming_input(s.tool, so_far.open.as_ref());
                let at = match s.index {
                    Some(at) => at,
                    None => {
                        let at =
                            Self::push_edit(&mut self.read, s.tool, &path, input.clone(), store);
                        if let Some(id) = &s.id {
                            self.by_id.insert(id.clone(), at);
                        }
                        s.index = Some(at);
                        at
                    }
                };
                store.set_path(at, &path);
                if let Some(edit) = store.edit_mut(at)
                    && edit.streaming
                {
                    edit.input = input;
                }
            }
            "toolcall_end" => {
                let Some(s) = self.streaming.remove(&index) else {
                    return;
                };
                let Some(block) = event
                    .tool_call
                    .and_then(|raw| serde_json::from_str::<ToolCallBlock>(raw.get()).ok())
                else {
                    return;
                };
                let at = self.tool_call(block, store);
                // Pieces that are not JSON: the stream ended inside the call.
                let raw = s.raw.trim();
                if let Some(at) = at
                    && !raw.is_empty()
                    && serde_json::from_str::<serde::de::IgnoredAny>(raw).is_err()
                    && let Some(edit) = store.edit_mut(at)
                {
                    edit.cut_off = true;
                }
            }
            _ => {}
        }
    }

    /// A complete assistant message (its tool calls) or a tool result.
    fn message(&mut self, message: &Message, store: &mut Store) {
        match text_of(message.role).as_deref() {
            Some("assistant") => {
                let blocks: Vec<ToolCallBlock> = super::reader::known_items(message.content)
                    .into_iter()
                    .filter(|b: &ToolCallBlock| b.kind == "toolCall")
                    .collect();
                // A message with tool calls that ended without its finish
                // reason keeps pi's first `stop`; one cut by the token
                // limit says `length` (pi runs its calls all the same).
                let cut = !blocks.is_empty()
                    && matches!(
                        text_of(message.stop_reason).as_deref(),
                        Some("stop" | "length")
                    );
                for block in blocks {
                    if let Some(at) = self.tool_call(block, store)
                        && cut
                        && let Some(edit) = store.edit_mut(at)
                    {
                        edit.cut_off = true;
                    }
                }
            }
            // A shell command the user ran (`!cmd`).
            Some("bashExecution") => self.barrier(store),
            Some("toolResult") => {
                if let Some(id) = text_of(message.tool_call_id) {
                    let is_error = bool_of(message.is_error).unwrap_or(false);
                    self.result(&id, is_error, message, store);
                }
            }
            _ => {}
        }
    }

    /// `tool_execution_start`: a call not seen streaming (an output without
    /// its `message_update` lines) is read from its arguments.
    fn execution_start(&mut self, line: &Line, store: &mut Store) {
        let (Some(id), Some(name)) = (text_of(line.tool_call_id), text_of(line.tool_name)) else {
            return;
        };
        if self.by_id.contains_key(&id) {
            return;
        }
        let arguments = line
            .args
            .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok());
        self.tool_call(
            ToolCallBlock {
                kind: "toolCall".into(),
                id: Some(id),
                name: Some(name),
                arguments,
            },
            store,
        );
    }

    /// Reads a complete `edit`/`write` call (a shell or unknown tool is a
    /// barrier); returns its edit.
    fn tool_call(&mut self, block: ToolCallBlock, store: &mut Store) -> Option<usize> {
        let name = block.name.as_deref().unwrap_or_default();
        let Some(tool) = edit_tool(name) else {
            if name == "read"
                && let (Some(id), Some(args)) = (&block.id, &block.arguments)
                && args.get("offset").is_none()
                && args.get("limit").is_none()
                && let Some(path) = args.get("path").and_then(Value::as_str)
            {
                self.reading.insert(id.clone(), store.relative(path));
            } else if !is_read_only(name) {
                self.barrier(store);
            }
            return None;
        };
        let args = block.arguments.unwrap_or(Value::Object(Default::default()));
        let path = path_of(&args).map(str::to_string);
        if path.is_none() {
            store.missing(&format!("{name} tool input"), "path");
        }
        let path = path.unwrap_or_default();
        let input = input_of(tool, &args, &path);
        let known = block.id.as_ref().and_then(|id| self.by_id.get(id)).copied();
        let at = match known {
            Some(at) => at,
            None => {
                let at = self.push(tool, &path, input.clone(), false, store);
                if let Some(id) = block.id {
                    self.by_id.insert(id, at);
                }
                at
            }
        };
        store.set_path(at, &path);
        if let Some(edit) = store.edit_mut(at) {
            edit.input = input;
            edit.streaming = false;
        }
        Some(at)
    }

    /// A shell command (or a tool srview does not know) ran: what a read
    /// returned may be stale.
    fn barrier(&mut self, store: &mut Store) {
        self.read.clear();
        store.barrier();
    }

    fn push(
        &mut self,
        tool: AgentTool,
        path: &str,
        input: EditInput,
        streaming: bool,
        store: &mut Store,
    ) -> usize {
        let at = Self::push_edit(&mut self.read, tool, path, input, store);
        if let Some(edit) = store.edit_mut(at) {
            edit.streaming = streaming;
        }
        at
    }

    /// A new edit (streaming), its content before the file's last
    /// whole-file read when one is known.
    fn push_edit(
        read: &mut HashMap<String, String>,
        tool: AgentTool,
        path: &str,
        input: EditInput,
        store: &mut Store,
    ) -> usize {
        let at = store.push(tool, path, input, true);
        if let Some(content) = read.remove(&store.relative(path)) {
            store.set_before(at, FileContent::Text(content));
        }
        at
    }

    /// A tool result: a whole-file read's content, or an edit's verdict.
    fn result(&mut self, id: &str, is_error: bool, result: &Message, store: &mut Store) {
        if let Some(file) = self.reading.remove(id) {
            // Only text, and no `details` (pi's truncation notes are there).
            let no_details = result.details.is_none_or(|raw| raw.get() == "null");
            if !is_error
                && no_details
                && let Some((text, true)) = text_blocks(result.content)
            {
                // Files read and never edited are not kept without end.
                if self.read.len() >= MAX_READS_KEPT {
                    self.read.clear();
                }
                self.read.insert(file, text);
            }
            return;
        }
        // Only an edit's result is read further (a shell's output may be large).
        if self.by_id.contains_key(id) {
            self.verdict(id, is_error, result_text(result.content), store);
        }
    }

    fn verdict(&mut self, id: &str, is_error: bool, text: String, store: &mut Store) {
        let Some(&at) = self.by_id.get(id) else {
            return;
        };
        if store
            .get(at)
            .is_none_or(|e| e.agent_verdict != Verdict::Pending)
        {
            return;
        }
        if is_error {
            let verdict = if ran_and_failed(&text) {
                Verdict::Failed
            } else {
                Verdict::NotRun
            };
            store.set_verdict(at, verdict, Some(text));
            return;
        }
        store.set_verdict(at, Verdict::Applied, None);
        // `write` writes its content as it is.
        if let Some(AgentEdit {
            input: EditInput::Whole(content),
            ..
        }) = store.get(at)
        {
            let content = content.clone();
            store.set_after(at, FileContent::Text(content), ContentOrigin::Recorded);
        }
    }
}

impl super::reader::FormatReader for Parser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}

/// A streaming call's input so far: a `write`'s content, an `edit`'s
/// entries as SEARCH/REPLACE blocks (the last one as far as it arrived).
fn streaming_input(tool: AgentTool, so_far: Option<&Value>) -> EditInput {
    let so_far = so_far.cloned().unwrap_or(Value::Null);
    if tool == AgentTool::WriteLower {
        return EditInput::Whole(
            so_far
                .get("content")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string(),
        );
    }
    let mut entries: Vec<(Option<&str>, Option<&str>)> = match so_far.get("edits") {
        Some(Value::Array(items)) => items
            .iter()
            .map(|e| {
                (
                    e.get("oldText").and_then(Value::as_str),
                    e.get("newText").and_then(Value::as_str),
                )
            })
            .collect(),
        _ => Vec::new(),
    };
    // The legacy top-level pair comes after `edits[]` (pi appends it).
    let legacy = (
        so_far.get("oldText").and_then(Value::as_str),
        so_far.get("newText").and_then(Value::as_str),
    );
    if legacy.0.is_some() {
        entries.push(legacy);
    }
    let mut body = String::new();
    let last = entries.len().saturating_sub(1);
    for (i, (old, new)) in entries.into_iter().enumerate() {
        let Some(old) = old else { break };
        body.push_str("------- SEARCH\n");
        match new {
            None if i == last => {
                body.push_str(old);
                break;
            }
            None => {}
            Some(new) => {
                push_lines(&mut body, old);
                body.push_str("=======\n");
                if i == last {
                    body.push_str(new);
                    break;
                }
                push_lines(&mut body, new);
                body.push_str("+++++++ REPLACE\n");
            }
        }
    }
    EditInput::SearchReplace(body)
}

fn push_lines(body: &mut String, text: &str) {
    body.push_str(text);
    if !text.is_empty() && !text.ends_with('\n') {
        body.push('\n');
    }
}

/// What a prefix of a JSON text holds so far.
#[derive(Debug, PartialEq)]
struct Prefix {
    /// Only its complete values (a string still arriving left out).
    settled: Option<Value>,
    /// Its values with a string value still arriving, as far as it arrived.
    open: Option<Value>,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Frame {
    Object { key_next: bool },
    Array,
}

fn closed(text: &str, stack: &[Frame]) -> Option<Value> {
    let mut s = text.to_string();
    for frame in stack.iter().rev() {
        s.push(match frame {
            Frame::Object { .. } => '}',
            Frame::Array => ']',
        });
    }
    serde_json::from_str(&s).ok()
}

/// Reads the prefix of a JSON text (a tool call's arguments streaming):
/// its containers are closed where the last complete value (or container
/// opening) ends; a string value still arriving is closed where it stops
/// for [`Prefix::open`]. Numbers and literals count once a string or
/// container follows them (pi's inputs are strings).
fn read_prefix(text: &str) -> Prefix {
    let mut stack: Vec<Frame> = Vec::new();
    let mut strings = JsonStrings::default();
    let mut string_is_key = false;
    let mut boundary: Option<(usize, Vec<Frame>)> = None;
    for (i, b) in text.bytes().enumerate() {
        match strings.take(b) {
            JsonByte::InString => {}
            JsonByte::StringEnd => {
                if !string_is_key {
                    boundary = Some((i + 1, stack.clone()));
                }
            }
            JsonByte::Structure => match b {
                b'{' => {
                    stack.push(Frame::Object { key_next: true });
                    boundary = Some((i + 1, stack.clone()));
                }
                b'[' => {
                    stack.push(Frame::Array);
                    boundary = Some((i + 1, stack.clone()));
                }
                b'}' | b']' => {
                    stack.pop();
                    boundary = Some((i + 1, stack.clone()));
                }
                b'"' => {
                    string_is_key = matches!(stack.last(), Some(Frame::Object { key_next: true }));
                }
                b':' | b',' => {
                    if let Some(Frame::Object { key_next }) = stack.last_mut() {
                        *key_next = b == b',';
                    }
                }
                _ => {}
            },
        }
    }
    let settled = boundary.and_then(|(at, stack)| closed(&text[..at], &stack));
    let open = if strings.in_string() && !string_is_key {
        let mut cut = text;
        if strings.escaped() {
            cut = &cut[..cut.len() - 1];
        }
        // An escape `\uXXXX` not complete yet.
        if let Some(at) = cut.rfind("\\u")
            && cut.len() - at < 6
            && !cut[..at].ends_with('\\')
        {
            cut = &cut[..at];
        }
        closed(&format!("{cut}\""), &stack)
    } else {
        None
    };
    Prefix {
        open: open.or_else(|| settled.clone()),
        settled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_prefix_gives_its_complete_values_and_the_string_arriving() {
        let p = read_prefix(r#"{"path": "a.py", "edits": [{"oldText": "x = 1\n  y"#);
        assert_eq!(p.settled, Some(json!({"path": "a.py", "edits": [{}]})));
        assert_eq!(
            p.open,
            Some(json!({"path": "a.py", "edits": [{"oldText": "x = 1\n  y"}]}))
        );
        // The path itself still arriving is not the path.
        let p = read_prefix(r#"{"path": "a.p"#);
        assert_eq!(p.settled, Some(json!({})));
        // A key arriving is left out; a cut escape is dropped.
        let p = read_prefix(r#"{"path": "a.py", "ed"#);
        assert_eq!(p.open, Some(json!({"path": "a.py"})));
        let p = read_prefix(r#"{"path": "a\u00"#);
        assert_eq!(p.open, Some(json!({"path": "a"})));
        let p = read_prefix(r#"{"path": "a\"#);
        assert_eq!(p.open, Some(json!({"path": "a"})));
        assert_eq!(read_prefix("").settled, None);
    }

    #[test]
    fn only_texts_pi_writes_for_a_call_it_ran_are_failures() {
        for ran in [
            "Could not edit file: inventry.py. Error code: ENOENT.",
            "Validation failed for tool \"edit\":\n  - edits.0.newText: must have required properties newText",
            "EACCES: permission denied, open '/x'",
            "edits[0] and edits[1] overlap in a.py. Merge them into one edit or target disjoint regions.",
        ] {
            assert!(ran_and_failed(ran), "{ran}");
        }
        for never_ran in [
            "Change to inventory.py not approved (no UI for confirmation)",
            "Tool execution was blocked",
            "Tool edit not found",
            "E: odd",
        ] {
            assert!(!ran_and_failed(never_ran), "{never_ran}");
        }
    }

    /// Saved, a call is cut off when its message ended without a finish
    /// reason (`stop`) or at the token limit (`length`), not when the
    /// model asked for its tools (`toolUse`).
    #[test]
    fn a_saved_call_is_cut_off_by_its_messages_stop_reason() {
        for (reason, cut) in [("stop", true), ("length", true), ("toolUse", false)] {
            let line = format!(
                r#"{{"type":"message","id":"a","parentId":"p","message":{{"role":"assistant","stopReason":"{reason}","content":[{{"type":"toolCall","id":"c","name":"edit","arguments":{{"path":"a.py","edits":[{{"oldText":"x","newText":"y"}}]}}}}]}}}}
"#
            );
            let mut reader = super::super::AgentReader::new(
                super::super::AgentKind::Pi,
                super::super::Format::PiSession,
            );
            reader.feed(line.as_bytes());
            let edits = reader.finish();
            assert_eq!(edits.len(), 1, "{reason}");
            assert_eq!(edits[0].cut_off, cut, "{reason}");
            assert_eq!(edits[0].file, "a.py");
        }
    }

    #[test]
    fn a_streaming_edit_reads_as_search_replace_blocks_so_far() {
        let input = streaming_input(
            AgentTool::EditLower,
            Some(
                &json!({"path": "a", "edits": [{"oldText": "a\n", "newText": "b"}, {"oldText": "c"}]}),
            ),
        );
        assert_eq!(
            input,
            EditInput::SearchReplace(
                "------- SEARCH\na\n=======\nb\n+++++++ REPLACE\n------- SEARCH\nc".into()
            )
        );
    }
}
