//! The edit list in the shape of `srview session --json` (without the
//! `srview` verdict of each edit, which the caller adds).

use serde::Serialize;

use super::{AgentEdit, AgentReader, FileContent};

/// `{"agent", "version", "edits": [...]}`.
#[derive(Debug, Serialize)]
pub struct SessionReport<'a> {
    /// The agent's name (`claude-code`, `codex`, ...).
    pub agent: &'static str,
    /// The agent's version, when its output (or a side file) states it.
    pub version: Option<&'a str>,
    /// Every edit, in the order the agent made them.
    pub edits: Vec<EditReport<'a>>,
}

/// One edit: contents are `null` both when the file did not exist and when
/// the output does not carry them (see [`AgentEdit::content_before`] for
/// the difference).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditReport<'a> {
    /// From 1, in the order the agent made the edits.
    pub seq: usize,
    /// Relative to the workspace when inside it, else as the agent wrote it.
    pub file: &'a str,
    /// The tool's name (see [`AgentTool::name`](super::AgentTool::name)).
    pub tool: &'static str,
    /// The agent's verdict (see [`Verdict::name`](super::Verdict::name)).
    pub agent_verdict: &'static str,
    /// The agent's own error text.
    pub agent_message: Option<&'a str>,
    /// The file's text before the edit; `null` when absent or unknown.
    pub content_before: Option<&'a str>,
    /// The file's text after the edit; `null` when absent or unknown.
    pub content_after: Option<&'a str>,
}

impl<'a> EditReport<'a> {
    /// The report of one edit, borrowing from it.
    pub fn new(edit: &'a AgentEdit) -> EditReport<'a> {
        EditReport {
            seq: edit.seq,
            file: &edit.file,
            tool: edit.tool.name(),
            agent_verdict: edit.agent_verdict.name(),
            agent_message: edit.agent_message.as_deref(),
            content_before: edit.before().and_then(FileContent::text),
            content_after: edit.after().and_then(FileContent::text),
        }
    }
}

impl<'a> SessionReport<'a> {
    /// The report of every edit `reader` has read so far.
    pub fn new(reader: &'a AgentReader) -> SessionReport<'a> {
        SessionReport {
            agent: reader.kind().name(),
            version: reader.version(),
            edits: reader.edits().iter().map(EditReport::new).collect(),
        }
    }
}
