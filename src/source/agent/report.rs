//! The edit list in the shape of `srview session --json` (without the
//! `srview` verdict of each edit, which the caller adds).

use serde::Serialize;

use super::{AgentEdit, AgentReader, FileContent};

/// `{"agent", "version", "edits": [...]}`.
#[derive(Debug, Serialize)]
pub struct SessionReport<'a> {
    pub agent: &'static str,
    pub version: Option<&'a str>,
    pub edits: Vec<EditReport<'a>>,
}

/// One edit: contents are `null` both when the file did not exist and when
/// the output does not carry them (see [`AgentEdit::content_before`] for
/// the difference).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditReport<'a> {
    pub seq: usize,
    pub file: &'a str,
    pub tool: &'static str,
    pub agent_verdict: &'static str,
    pub agent_message: Option<&'a str>,
    pub content_before: Option<&'a str>,
    pub content_after: Option<&'a str>,
}

impl<'a> EditReport<'a> {
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
    pub fn new(reader: &'a AgentReader) -> SessionReport<'a> {
        SessionReport {
            agent: reader.kind().name(),
            version: reader.version(),
            edits: reader.edits().iter().map(EditReport::new).collect(),
        }
    }
}
