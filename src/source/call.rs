//! The edits a transcript holds, whatever its format: what
//! [`super::transcript`] (Cline) and [`super::aider`] parse into, and what
//! [`super::transcript::apply_calls`] applies.

/// What a tool call does to its file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallKind {
    /// `body` is a SEARCH/REPLACE diff applied to the file.
    ReplaceInFile,
    /// `body` is the whole new content of the file.
    WriteToFile,
}

impl CallKind {
    /// The tool's name as Cline spells it (`replace_in_file`, `write_to_file`).
    pub fn name(self) -> &'static str {
        match self {
            CallKind::ReplaceInFile => "replace_in_file",
            CallKind::WriteToFile => "write_to_file",
        }
    }
}

/// One edit of one file, as found in a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// Whether `body` is a diff or a whole new content.
    pub kind: CallKind,
    /// The path as the model wrote it (trimmed), not yet resolved.
    pub path: String,
    /// False while the `<path>` value itself is still streaming: the file
    /// this call edits is not known yet.
    pub path_complete: bool,
    /// The diff or the content, trimmed as Cline trims parameter values.
    pub body: String,
    /// The call is still open at the end of the text (Cline's `partial`).
    pub partial: bool,
}
