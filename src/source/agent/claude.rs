//! Claude Code: `--output-format stream-json` (live) and the project
//! session JSONL (saved). Both carry `assistant` lines with the complete
//! tool input and `user` lines with the tool result; the live stream adds
//! `stream_event` lines whose `input_json_delta` pieces carry the input as
//! it streams. A successful result's `tool_use_result` (`toolUseResult` in
//! the session) holds `originalFile`: the content before the edit; the
//! session's `file-history-delta` lines name a backup of it.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;

use super::anthropic::{
    CallIds, LineBlock, LineMessage, StreamEvent, ToolInputs, blocks, result_text,
};
use super::reader::{Kinded, kind_line};
use super::store::Store;
use super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};
use crate::dialect::edit::{self, Edit};

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
    streaming: ToolInputs,
}

/// One line, read in one pass: the large parts (the message's content
/// blocks, the tool result holding the whole file before an edit) are
/// kept as raw JSON text, borrowed from the line, and only the parts an
/// edit needs are read from them; other fields and values are skipped
/// without being built. Qwen Code's stream-json copies Claude Code's: its
/// reader reads its lines as this too (naming `qwen_code_version`).
#[derive(Deserialize)]
pub(super) struct Line<'a> {
    #[serde(rename = "type", default, borrow)]
    pub(super) kind: Cow<'a, str>,
    #[serde(default, borrow)]
    pub(super) subtype: Option<Cow<'a, str>>,
    #[serde(default)]
    pub(super) cwd: Option<String>,
    #[serde(default)]
    claude_code_version: Option<String>,
    #[serde(default)]
    pub(super) qwen_code_version: Option<String>,
    #[serde(default)]
    version: Option<String>,
    #[serde(default)]
    pub(super) event: Option<StreamEvent>,
    #[serde(default, borrow)]
    pub(super) message: Option<LineMessage<'a>>,
    #[serde(default, alias = "toolUseResult", borrow)]
    tool_use_result: Option<&'a RawValue>,
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

impl Kinded for Line<'_> {
    fn kind(&self) -> &str {
        &self.kind
    }
}

/// The line kinds the reader looks into; other kinds (attachments, API
/// request blobs...) are skipped.
fn is_read(kind: &str) -> bool {
    matches!(
        kind,
        "system" | "stream_event" | "assistant" | "user" | "file-history-delta" | "result"
    )
}

/// The fields of a successful Edit/Write result srview reads, read in
/// one pass; one of an unexpected type leaves the others readable.
#[derive(Deserialize)]
struct EditResult {
    #[serde(default, rename = "originalFile")]
    original_file: Loose,
    #[serde(default, rename = "type")]
    kind: Loose,
    #[serde(default)]
    content: Loose,
}

/// A field that may be a string, null, missing or anything else.
#[derive(Default)]
enum Loose {
    #[default]
    Missing,
    Null,
    Text(String),
    Other,
}

impl Loose {
    fn text(self) -> Option<String> {
        match self {
            Loose::Text(t) => Some(t),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Loose {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Loose, D::Error> {
        d.deserialize_any(LooseVisitor)
    }
}

struct LooseVisitor;

impl<'de> serde::de::Visitor<'de> for LooseVisitor {
    type Value = Loose;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E>(self, v: &str) -> Result<Loose, E> {
        Ok(Loose::Text(v.to_string()))
    }

    fn visit_string<E>(self, v: String) -> Result<Loose, E> {
        Ok(Loose::Text(v))
    }

    fn visit_unit<E>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }

    fn visit_none<E>(self) -> Result<Loose, E> {
        Ok(Loose::Null)
    }

    fn visit_bool<E>(self, _: bool) -> Result<Loose, E> {
        Ok(Loose::Other)
    }

    fn visit_i64<E>(self, _: i64) -> Result<Loose, E> {
        Ok(Loose::Other)
    }

    fn visit_u64<E>(self, _: u64) -> Result<Loose, E> {
        Ok(Loose::Other)
    }

    fn visit_f64<E>(self, _: f64) -> Result<Loose, E> {
        Ok(Loose::Other)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Loose, A::Error> {
        while seq.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(Loose::Other)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Loose, A::Error> {
        while map
            .next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Loose::Other)
    }
}

#[derive(Deserialize)]
struct Backup {
    /// `None`: the file did not exist.
    #[serde(default, rename = "backupFileName")]
    backup_file_name: Option<String>,
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

impl Parser {
    pub(super) fn line(&mut self, text: &str, store: &mut Store) {
        let Some(line) = kind_line::<Line>(text, store, is_read) else {
            return;
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
        } else if matches!(line.kind.as_ref(), "user" | "assistant")
            && let Some(v) = &line.version
        {
            store.set_version(v);
        }
        match line.kind.as_ref() {
            "stream_event" => {
                if let Some(event) = line.event {
                    let edit_tool = |name: &str| edit_tool(name).map(|(keys, tool)| (tool, keys));
                    let ids = CallIds::Recorded;
                    self.streaming
                        .take(event, store, &mut self.by_id, ids, edit_tool);
                }
            }
            "assistant" => {
                for block in blocks(line.message.as_ref(), "tool_use") {
                    if let Some(at) = self.tool_use(block, store)
                        && let Some(uuid) = &line.uuid
                    {
                        self.by_message.entry(uuid.clone()).or_default().push(at);
                    }
                }
            }
            "file-history-delta" => self.backup(&line, store),
            // The run's last line (stream-json): a call it ends without a
            // result on was never run.
            "result" => store.run_ended(),
            "user" => {
                for block in blocks(line.message.as_ref(), "tool_result") {
                    self.tool_result(block, line.tool_use_result, store);
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
        // A backup is a content before, read from a file of its own.
        if !store.keeps_contents() {
            return;
        }
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
    fn tool_use(&mut self, block: LineBlock<&RawValue>, store: &mut Store) -> Option<usize> {
        let Some((name, tool)) = block.name.as_deref().and_then(edit_tool) else {
            if !block.name.as_deref().is_some_and(is_read_only) {
                store.barrier();
            }
            return None;
        };
        let json = block.input.map_or("", RawValue::get);
        let call_id = block.id.clone();
        let known = block.id.as_ref().and_then(|id| self.by_id.get(id)).copied();
        let edit = match Edit::from_tool_input(name, json) {
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
            if call_id.is_some() {
                e.call_id = call_id;
            }
        }
        Some(at)
    }

    fn tool_result(
        &mut self,
        block: LineBlock<&RawValue>,
        result: Option<&RawValue>,
        store: &mut Store,
    ) {
        let Some(at) = block.answered_edit(&self.by_id) else {
            return;
        };
        if block.is_error == Some(true) {
            let message = block
                .content
                .and_then(|raw| serde_json::from_str::<Value>(raw.get()).ok())
                .map(|content| result_text(Some(&content)));
            store.set_verdict(at, Verdict::Failed, message);
            return;
        }
        store.set_verdict(at, Verdict::Applied, None);
        if !store.keeps_contents() {
            return;
        }
        // An object; a string result (an error text) holds no content.
        let Some(result) = result
            .filter(|raw| raw.get().starts_with('{'))
            .and_then(|raw| serde_json::from_str::<EditResult>(raw.get()).ok())
        else {
            return;
        };
        let before = match result.original_file {
            Loose::Null => Some(FileContent::Absent),
            Loose::Text(text) => Some(FileContent::Text(text)),
            _ if matches!(&result.kind, Loose::Text(k) if k == "create") => {
                Some(FileContent::Absent)
            }
            _ => None,
        };
        // The content after, from the content before still at hand (it
        // is then moved into the edit, not copied).
        let after = match store.get(at).map(|e| &e.input) {
            Some(EditInput::Exact(Edit::ClaudeWrite { .. })) => result
                .content
                .text()
                .map(|content| (FileContent::Text(content), ContentOrigin::Recorded)),
            Some(EditInput::Exact(e @ Edit::ClaudeEdit { .. })) if before.is_some() => {
                let original = before.as_ref().and_then(FileContent::text);
                edit::new_content(e, original)
                    .ok()
                    .map(|new_content| (FileContent::Text(new_content), ContentOrigin::Derived))
            }
            _ => None,
        };
        if let Some(before) = before {
            store.set_before(at, before);
        }
        if let Some((content, origin)) = after {
            store.set_after(at, content, origin);
        }
    }
}

impl super::reader::FormatReader for Parser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.line(text, store);
    }
}

/// A saved session's file-history backups:
/// `~/.claude/projects/<cwd>/<session>.jsonl` → `~/.claude/file-history/`.
pub(super) fn side_files(file: &std::path::Path, reader: &mut super::AgentReader, _use_cwd: bool) {
    let Some(home) = file.ancestors().nth(3) else {
        return;
    };
    let history = home.join("file-history");
    reader
        .store
        .set_backups(Box::new(move |session: &str, name: &str| {
            let plain = |s: &str| !s.is_empty() && !s.contains(['/', '\\']) && !s.starts_with('.');
            if !plain(session) || !plain(name) {
                return None;
            }
            std::fs::read_to_string(history.join(session).join(name)).ok()
        }));
}
