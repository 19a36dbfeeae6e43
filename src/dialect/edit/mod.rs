//! Exact-string edits: Claude Code's `Edit` / `Write` tools and Cline CLI
//! 3.x's `editor` tool, parsed from their JSON tool inputs (complete or still
//! streaming) and applied with each agent's own semantics and error texts.
//!
//! Pure: no I/O. A file is passed in as its content (`None` when it does
//! not exist), and every edit comes back as the engine's
//! [`BlockReport`](crate::engine::BlockReport) (one block per edit, stage
//! `exact`, or `empty` for a whole new content) plus the new content or the
//! agent's error, and a diagnosis for a failing edit.
//!
//! ```
//! use srview::dialect::edit::{apply, Edit};
//! let edit = Edit::from_tool_input(
//!     "Edit",
//!     r#"{"file_path": "/p/a.py", "old_string": "x = 1", "new_string": "x = 2"}"#,
//! )
//! .unwrap();
//! let out = apply(&edit, Some("x = 1\ny = 3\n"));
//! assert_eq!(out.result.unwrap().new_content, "x = 2\ny = 3\n");
//! ```
//!
//! Streaming: [`PartialEdit::parse`] reads any prefix of the JSON input
//! (see [`partial_json`]).

mod applier;
mod claude;
mod cline;
mod diagnosis;
mod doubt;
mod error;
mod explanation;
mod input;
mod outcome;
mod part_of_line;
mod partial;
pub mod partial_json;
mod preview;
mod roles;
mod text;
mod word_joins;

pub use doubt::{
    EditDoubtKind, deletes_newline_after, edit_doubt_kinds, edit_doubts, endings_doubt,
    hunk_joins_next_line, joined_lines, joins_lines, layout_kind, may_join_next_line,
    repeated_around, shorten, stands_in, whole_write_doubts, word_cut_at, write_doubt,
    write_endings_doubt,
};
pub use error::{EditError, Provenance};
pub use explanation::EditDiagnosis;
pub use input::ParseError;
pub use outcome::{
    Change, EditApplied, EditOutcome, EditReport, Sequence, apply, apply_at, apply_sequence,
    apply_undiagnosed, new_content,
};
pub use partial::{Arrival, Field, PartialEdit, Setting};
pub use preview::{EditPreview, preview};

use serde::Serialize;

/// The agent whose semantics an edit follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Agent {
    /// Claude Code (`Edit`, `Write`).
    ClaudeCode,
    /// Cline CLI 3.x (`editor`).
    ClineCli,
}

/// One tool, as the agent names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Tool {
    /// Claude Code `Edit`.
    Edit,
    /// Claude Code `Write`.
    Write,
    /// Cline CLI 3.x `editor`.
    #[serde(rename = "editor")]
    Editor,
}

impl Tool {
    /// The tool by the name the agent gives it (`Edit`, `Write`, `editor`).
    pub fn from_name(name: &str) -> Option<Tool> {
        match name {
            "Edit" => Some(Tool::Edit),
            "Write" => Some(Tool::Write),
            "editor" => Some(Tool::Editor),
            _ => None,
        }
    }

    /// The tool's name as the agent gives it (`Edit`, `Write`, `editor`).
    pub fn name(self) -> &'static str {
        match self {
            Tool::Edit => "Edit",
            Tool::Write => "Write",
            Tool::Editor => "editor",
        }
    }

    /// The agent's matcher by its name for people: `Claude Code's Edit`,
    /// `Cline's editor`.
    pub fn matcher_title(self) -> String {
        let agent = match self.agent() {
            Agent::ClaudeCode => "Claude Code",
            Agent::ClineCli => "Cline",
        };
        format!("{agent}'s {}", self.name())
    }

    /// The agent the tool belongs to.
    pub fn agent(self) -> Agent {
        match self {
            Tool::Edit | Tool::Write => Agent::ClaudeCode,
            Tool::Editor => Agent::ClineCli,
        }
    }
}

/// One exact-string edit of one file, with the agent's own field names.
/// JSON: the tool input with the tool's name under `tool`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "tool")]
pub enum Edit {
    /// Claude Code `Edit`: `old_string` must occur exactly once unless
    /// `replace_all`; an empty `old_string` creates a missing (or fills an
    /// empty) file.
    #[serde(rename = "Edit")]
    ClaudeEdit {
        /// The file, as the agent wrote it (usually absolute).
        file_path: String,
        /// The exact text to find; empty to create the file.
        old_string: String,
        /// The text that replaces it.
        new_string: String,
        /// Absent in the model's input means `false`.
        replace_all: bool,
    },
    /// Claude Code `Write`: creates the file or overwrites it.
    #[serde(rename = "Write")]
    ClaudeWrite {
        /// The file, as the agent wrote it (usually absolute).
        file_path: String,
        /// The file's whole new content.
        content: String,
    },
    /// Cline CLI 3.x `editor`: with `insert_line`, inserts `new_text` at
    /// that one-based line boundary; on a missing file, creates it with
    /// `new_text`; otherwise `old_text` must occur exactly once.
    #[serde(rename = "editor")]
    ClineEditor {
        /// The file, as the agent wrote it.
        path: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        /// The exact text to find; `None` to create a file or insert.
        old_text: Option<String>,
        /// `None` (absent or null) replaces with nothing.
        #[serde(skip_serializing_if = "Option::is_none")]
        new_text: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        /// One-based line boundary to insert `new_text` at (1 = before the first line, lines + 1 = at
        /// the end).
        insert_line: Option<i64>,
    },
}

impl Edit {
    /// Parses a complete tool input: `tool` is the agent's tool name
    /// (`Edit`, `Write`, `editor`), `json` its input object.
    pub fn from_tool_input(tool: &str, json: &str) -> Result<Edit, ParseError> {
        input::parse(tool, json)
    }

    /// The tool this edit is for.
    pub fn tool(&self) -> Tool {
        match self {
            Edit::ClaudeEdit { .. } => Tool::Edit,
            Edit::ClaudeWrite { .. } => Tool::Write,
            Edit::ClineEditor { .. } => Tool::Editor,
        }
    }

    /// The file the edit names, as the agent wrote it.
    pub fn path(&self) -> &str {
        match self {
            Edit::ClaudeEdit { file_path, .. } | Edit::ClaudeWrite { file_path, .. } => file_path,
            Edit::ClineEditor { path, .. } => path,
        }
    }

    /// The same edit naming `path` instead: agents name the path they
    /// resolved in their error texts (Cline's are absolute), so a caller
    /// that resolves a relative path hands the resolved one here first.
    pub fn with_path(mut self, new_path: &str) -> Edit {
        match &mut self {
            Edit::ClaudeEdit { file_path, .. } | Edit::ClaudeWrite { file_path, .. } => {
                *file_path = new_path.to_string()
            }
            Edit::ClineEditor { path, .. } => *path = new_path.to_string(),
        }
        self
    }
}
