//! The agents' refusals, word for word where a capture shows them.

use std::fmt;

use serde::Serialize;

use super::Agent;

/// Where an error text comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provenance {
    /// Word for word from a recorded run of the agent
    /// (tests/fixtures/agents/).
    Captured,
    /// The agent's published source or its own tests; not recorded in a
    /// run, so not checked against the real CLI.
    Source,
    /// srview's own words: a case the agent handles in a way srview does
    /// not reproduce, said instead of guessing.
    Srview,
}

/// Why an edit was refused. `Display` is the agent's message; see
/// [`EditError::agent_message`] for the form the agent hands the model.
/// `Display` is written out: the quote-normalisation message depends on
/// where the curly quotes are.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// Claude Code: `old_string` does not occur. (captured: b_edit_nomatch)
    ClaudeNotFound {
        /// The text the edit looked for.
        old_string: String,
    },
    /// Claude Code: `old_string` occurs `count` > 1 times without
    /// `replace_all`. (captured: c_edit_ambiguous)
    ClaudeAmbiguous {
        /// How many times it occurs.
        count: usize,
        /// The text the edit looked for.
        old_string: String,
    },
    /// Claude Code: `old_string` equals `new_string`. (source)
    ClaudeNoChange,
    /// Claude Code: the file is missing and `old_string` is not empty.
    /// (source; Claude Code appends the working directory, and a similar
    /// file's name when it finds one, which a pure apply cannot know)
    ClaudeFileMissing,
    /// Claude Code: empty `old_string` on a file with content. (source)
    ClaudeFileExists,
    /// Claude Code would find `old_string` only after turning curly quotes
    /// into straight ones, and then rewrite `new_string`'s quotes: srview
    /// does not reproduce that step. (srview)
    ClaudeQuoteNormalised {
        /// The file has the curly quotes (else `old_string` has them).
        curly_in_file: bool,
    },
    /// Cline: `old_text` does not occur (or is empty). (captured: editor_fail)
    ClineNotFound {
        /// The file, as the edit names it.
        path: String,
    },
    /// Cline: `old_text` occurs more than once. (source)
    ClineAmbiguous {
        /// The file, as the edit names it.
        path: String,
    },
    /// Cline: an existing file, no `old_text`, no `insert_line`. (source)
    ClineOldTextRequired,
    /// Cline: `insert_line` outside `1..=max`. (source)
    ClineInsertLine {
        /// The `insert_line` given.
        line: i64,
        /// The largest valid `insert_line`: the file's line count plus one.
        max: usize,
    },
    /// Cline: `insert_line` on a missing file: Node's read error. (source)
    ClineInsertMissingFile {
        /// The file, as the edit names it.
        path: String,
    },
    /// Cline: no `new_text` to create or insert; the SDK would throw a
    /// JavaScript TypeError whose text srview does not reproduce. (srview)
    ClineNewTextRequired,
}

impl EditError {
    /// The agent whose message this is.
    pub fn agent(&self) -> Agent {
        use EditError::*;
        match self {
            ClaudeNotFound { .. }
            | ClaudeAmbiguous { .. }
            | ClaudeNoChange
            | ClaudeFileMissing
            | ClaudeFileExists
            | ClaudeQuoteNormalised { .. } => Agent::ClaudeCode,
            _ => Agent::ClineCli,
        }
    }

    /// Where the message's text comes from: captured from the agent, read in its source, or
    /// srview's own.
    pub fn provenance(&self) -> Provenance {
        use EditError::*;
        match self {
            ClaudeNotFound { .. } | ClaudeAmbiguous { .. } | ClineNotFound { .. } => {
                Provenance::Captured
            }
            ClaudeQuoteNormalised { .. } | ClineNewTextRequired => Provenance::Srview,
            _ => Provenance::Source,
        }
    }

    /// The text as the agent hands it to the model: Claude Code's
    /// `tool_result` content (`<tool_use_error>...</tool_use_error>`),
    /// Cline's tool output `error` (`Editor operation failed: ...`).
    pub fn agent_message(&self) -> String {
        match self.agent() {
            Agent::ClaudeCode => format!("<tool_use_error>{self}</tool_use_error>"),
            Agent::ClineCli => format!("Editor operation failed: {self}"),
        }
    }
}

impl fmt::Display for EditError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use EditError::*;
        match self {
            ClaudeNotFound { old_string } => {
                write!(
                    f,
                    "String to replace not found in file.\nString: {old_string}"
                )
            }
            ClaudeAmbiguous { count, old_string } => write!(
                f,
                "Found {count} matches of the string to replace, but replace_all is false. \
                 To replace all occurrences, set replace_all to true. To replace only one \
                 occurrence, please provide more context to uniquely identify the \
                 instance.\nString: {old_string}"
            ),
            ClaudeNoChange => {
                f.write_str("No changes to make: old_string and new_string are exactly the same.")
            }
            ClaudeFileMissing => f.write_str("File does not exist."),
            ClaudeFileExists => f.write_str("Cannot create new file - file already exists."),
            ClaudeQuoteNormalised { curly_in_file } => {
                let (file, old) = if *curly_in_file {
                    ("curly", "straight")
                } else {
                    ("straight", "curly")
                };
                write!(
                    f,
                    "old_string occurs in the file only with {file} quotes where it has {old} \
                     ones: Claude Code matches it through its quote normalisation and adapts \
                     new_string's quotes, which srview does not reproduce"
                )
            }
            ClineNotFound { path } => {
                write!(f, "No replacement performed: text not found in {path}.")
            }
            ClineAmbiguous { path } => write!(
                f,
                "No replacement performed: multiple occurrences of text found in {path}."
            ),
            ClineOldTextRequired => f.write_str(
                "Parameter `old_text` is required when editing an existing file without \
                 `insert_line`",
            ),
            ClineInsertLine { line, max } => write!(
                f,
                "Invalid insert_line: {line}. insert_line must be a positive one-based \
                 boundary line in the range 1-{max}. Use {max} to append at EOF."
            ),
            ClineInsertMissingFile { path } => {
                write!(f, "ENOENT: no such file or directory, open '{path}'")
            }
            ClineNewTextRequired => f.write_str(
                "new_text is missing: Cline's editor has no text to write (the agent fails \
                 with a JavaScript error srview does not reproduce)",
            ),
        }
    }
}
