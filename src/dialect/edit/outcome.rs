//! One edit applied: the new content or the agent's refusal, reported as
//! one engine block.

use std::collections::BTreeMap;

use serde::Serialize;

use super::applier::{run, run_placing};
use super::diagnosis;
use super::explanation::EditDiagnosis;
use super::text::{Done, line_span, span};
use super::{Edit, EditError, Provenance, Tool, claude, cline};
use crate::engine::{BlockReport, BlockState, Stage};

/// Whether the edit made a new file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    /// The file did not exist (Claude Code's `type: "create"`).
    Created,
    /// The file existed (Claude Code's `type: "update"`).
    Updated,
}

/// A successful edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditApplied {
    /// The file's whole content after the edit.
    pub new_content: String,
    /// Whether the file was created or updated.
    pub change: Change,
    /// How many places were replaced (more than one only with Claude Code's
    /// `replace_all`).
    pub occurrences: usize,
    /// The tool result as the agent words it; `None` where neither a
    /// recorded run nor the agent's source shows the text (see
    /// docs/dialects-edit.md).
    pub agent_message: Option<String>,
}

/// What one edit does to its file.
#[derive(Debug, Clone, PartialEq)]
pub struct EditOutcome {
    /// The tool the edit came from.
    pub tool: Tool,
    /// The file, as the edit names it.
    pub path: String,
    /// The edit as an engine block: `applied` with stage `exact` (`empty`
    /// when the edit is a whole new content: a created file, a Write, an
    /// empty `old_string` on a blank file), `original` the bytes replaced
    /// (first to last occurrence; an empty range at an insertion point;
    /// `None` for a new file), `replacement` the lines they became; or
    /// `failed` with the agent's error text in `error`. An edit has no
    /// diff lines of its own: `diff_lines` is `[1, 1]`.
    pub block: BlockReport,
    /// The new content, or the agent's error.
    pub result: Result<EditApplied, EditError>,
    /// For a failed edit: why, where it was meant to go, and a corrected
    /// edit when one can be stood behind.
    pub diagnosis: Option<EditDiagnosis>,
    /// The model's new text where Claude Code's own normalisation of its
    /// input changed it (trailing whitespace stripped:
    /// [`super::claude::normalised_input`]); the block holds the text Claude
    /// Code places.
    pub sent_new_text: Option<String>,
}

/// [`EditOutcome`] as JSON: the block, and the result in the agent's words.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditReport<'a> {
    /// The tool the edit came from.
    pub tool: Tool,
    /// The file, as the edit names it.
    pub path: &'a str,
    /// The edit as an engine block (see [`EditOutcome::block`]).
    pub block: &'a BlockReport,
    /// `null` for a failed edit.
    pub change: Option<Change>,
    /// How many places were replaced; 0 for a failed edit.
    pub occurrences: usize,
    /// The tool result as the agent hands it to the model: the error, or
    /// the success text where it is known (`null` otherwise).
    pub agent_message: Option<String>,
    /// Where a failure's text comes from (`null` when applied).
    pub provenance: Option<Provenance>,
    /// For a failed edit: why, and where it was meant to go (`null` when applied).
    pub diagnosis: Option<&'a EditDiagnosis>,
}

impl EditOutcome {
    /// The outcome for `--json`: everything but the new content.
    pub fn report(&self) -> EditReport<'_> {
        EditReport {
            tool: self.tool,
            path: &self.path,
            block: &self.block,
            change: self.result.as_ref().ok().map(|d| d.change),
            occurrences: self.result.as_ref().map_or(0, |d| d.occurrences),
            agent_message: match &self.result {
                Ok(done) => done.agent_message.clone(),
                Err(e) => Some(e.agent_message()),
            },
            provenance: self.result.as_ref().err().map(EditError::provenance),
            diagnosis: self.diagnosis.as_ref(),
        }
    }
}

/// Applies `edit` to `original` (`None`: the file does not exist), as the
/// edit's agent does. Block index 0.
pub fn apply(edit: &Edit, original: Option<&str>) -> EditOutcome {
    apply_at(0, edit, original)
}

/// The verdict of [`apply`] alone: the file after `edit`, or why the agent
/// refuses it; no block report, no diagnosis (for counting many edits).
pub fn new_content(edit: &Edit, original: Option<&str>) -> Result<String, EditError> {
    run(edit, original).map(|done| done.new_content)
}

/// [`apply`] without the diagnosis of a failure (`diagnosis` is `None`):
/// the block and the result alone, for a caller that prints no diagnosis
/// (`srview session --list`/`--json` review thousands of edits).
pub fn apply_undiagnosed(edit: &Edit, original: Option<&str>) -> EditOutcome {
    apply_with(0, edit, original, false)
}

/// [`apply`] for the `index`-th (0-based) edit of a sequence.
pub fn apply_at(index: usize, edit: &Edit, original: Option<&str>) -> EditOutcome {
    apply_with(index, edit, original, true)
}

/// [`apply_at`], the failure diagnosed only when `diagnose`.
fn apply_with(index: usize, edit: &Edit, original: Option<&str>, diagnose: bool) -> EditOutcome {
    let (search_text, replace_text) = texts(edit, original);
    let result = run_placing(edit, original, Some((&search_text, &replace_text)));
    let mut block = BlockReport {
        search_text,
        replace_text,
        ..BlockReport::new(index, [1, 1], BlockState::Failed)
    };
    let (result, diagnosis) = match result {
        Ok(done) => {
            block.state = BlockState::Applied;
            block.stage = Some(if done.whole {
                Stage::Empty
            } else {
                Stage::Exact
            });
            block.original = done
                .replaced
                .zip(original)
                .map(|((s, e), text)| span(text, s, e));
            block.replacement = Some(line_span(&done.new_content, done.placed.0, done.placed.1));
            block.replacement_bytes = Some(done.placed);
            let applied = EditApplied {
                change: if done.created {
                    Change::Created
                } else {
                    Change::Updated
                },
                occurrences: done.occurrences,
                agent_message: success_message(edit, original, &done),
                new_content: done.new_content,
            };
            (Ok(applied), None)
        }
        Err(error) => {
            block.error = Some(error.to_string());
            let diagnosis = diagnose.then(|| diagnosis::explain(edit, original, &error));
            (Err(error), diagnosis)
        }
    };
    EditOutcome {
        tool: edit.tool(),
        path: edit.path().to_string(),
        sent_new_text: sent_new_text(edit).filter(|sent| *sent != block.replace_text),
        block,
        result,
        diagnosis,
    }
}

/// Claude Code's note after a file it wrote.
const CLAUDE_CURRENT: &str =
    " (file state is current in your context \u{2014} no need to Read it back)";

/// The agent's result text for a successful edit, where it is known.
fn success_message(edit: &Edit, original: Option<&str>, done: &Done) -> Option<String> {
    match edit {
        // Captured: an update by one replacement. Not captured: replace_all,
        // a file created or filled by an empty old_string.
        Edit::ClaudeEdit {
            file_path,
            old_string,
            replace_all,
            ..
        } => (!replace_all && !old_string.is_empty()).then(|| {
            format!("The file {file_path} has been updated successfully.{CLAUDE_CURRENT}")
        }),
        // Captured: a created file. Not captured: an overwrite.
        Edit::ClaudeWrite { file_path, .. } => done
            .created
            .then(|| format!("File created successfully at: {file_path}{CLAUDE_CURRENT}")),
        Edit::ClineEditor {
            path, insert_line, ..
        } => match (insert_line, original) {
            (Some(line), _) => Some(format!("Inserted content at line {line} in {path}.")),
            (None, None) => Some(format!("File created successfully at: {path}")),
            (None, Some(before)) => cline::edited_message(path, before, &done.new_content),
        },
    }
}

/// The texts the block shows as SEARCH and REPLACE, as the agent matches
/// and writes them in `original` (Cline: with the file's line end).
pub(super) fn texts(edit: &Edit, original: Option<&str>) -> (String, String) {
    match edit {
        // As Claude Code places them, after its own normalisation.
        Edit::ClaudeEdit {
            file_path,
            old_string,
            new_string,
            ..
        } => {
            let (old, new) = claude::normalised_input(file_path, old_string, new_string, original);
            (old.into_owned(), new.into_owned())
        }
        Edit::ClaudeWrite { file_path, content } => (
            String::new(),
            claude::normalised_content(file_path, content).into_owned(),
        ),
        Edit::ClineEditor {
            old_text, new_text, ..
        } => {
            let eol = original.map_or("\n", cline::line_end);
            let texts = (
                old_text.as_deref().unwrap_or_default(),
                new_text.as_deref().unwrap_or_default(),
            );
            match original {
                Some(_) if eol != "\n" => (
                    cline::normalise_line_ends(texts.0, eol),
                    cline::normalise_line_ends(texts.1, eol),
                ),
                _ => (texts.0.to_string(), texts.1.to_string()),
            }
        }
    }
}

/// The new text as the model sent it (Claude Code's tools).
fn sent_new_text(edit: &Edit) -> Option<String> {
    match edit {
        Edit::ClaudeEdit { new_string, .. } => Some(new_string.clone()),
        Edit::ClaudeWrite { content, .. } => Some(content.clone()),
        Edit::ClineEditor { .. } => None,
    }
}

/// What a sequence of edits does to the files it names.
#[derive(Debug, Clone, PartialEq)]
pub struct Sequence {
    /// One per edit, in order (block index = position).
    pub outcomes: Vec<EditOutcome>,
    /// Every file named, by path as the edits write it, with its content
    /// after the last edit (`None`: it still does not exist).
    pub files: BTreeMap<String, Option<String>>,
}

/// Applies `edits` in order, as the agent runs them one tool call after
/// another: each edit sees the file as the edits before it left it, and a
/// failed edit leaves it unchanged (neither agent undoes an earlier edit).
/// `read` gives a file's content before the first edit that names it
/// (`None`: missing); paths are compared as written, so a caller resolves
/// them first ([`Edit::with_path`]).
pub fn apply_sequence(edits: &[Edit], mut read: impl FnMut(&str) -> Option<String>) -> Sequence {
    let mut files: BTreeMap<String, Option<String>> = BTreeMap::new();
    let mut outcomes = Vec::with_capacity(edits.len());
    for (i, edit) in edits.iter().enumerate() {
        let current = files
            .entry(edit.path().to_string())
            .or_insert_with(|| read(edit.path()));
        let out = apply_at(i, edit, current.as_deref());
        if let Ok(done) = &out.result {
            *current = Some(done.new_content.clone());
        }
        outcomes.push(out);
    }
    Sequence { outcomes, files }
}
