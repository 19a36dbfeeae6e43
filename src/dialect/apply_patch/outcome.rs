//! What applying a patch gives: the reference's exit status, texts and
//! files, its errors, and a report per section and per hunk.

use std::collections::BTreeMap;

use serde::Serialize;

use super::model::Section;
use super::parse::ParseError;
use super::seek::MatchLevel;
use crate::engine::LineSpan;

/// Why the reference fails. `Display` is its stderr text (without the final
/// newline). Paths are absolute, as it prints them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// The patch text does not parse.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The patch has no sections.
    #[error("No files were modified.")]
    NoFilesModified,
    /// An Add or Update result cannot be written at `path` (a directory is there, or a parent is a
    /// file).
    #[error("Failed to write file {path}")]
    WriteFailed {
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// A Delete section's file is missing, or is a directory.
    #[error("Failed to delete file {path}")]
    DeleteFailed {
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// An Update section's file does not exist.
    #[error("Failed to read file to update {path}: No such file or directory (os error 2)")]
    UpdateMissing {
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// An Update section's path is a directory.
    #[error("Failed to read file to update {path}: path `{path}` is not a file")]
    UpdateNotAFile {
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// A parent of an Update section's path is a regular file.
    #[error("Failed to read file to update {path}: Not a directory (os error 20)")]
    UpdateBelowFile {
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// A file that is no UTF-8 text (or cannot be read): the I/O error text.
    #[error("Failed to read file to update {path}: {reason}")]
    UpdateUnreadable {
        /// Absolute path, as the reference prints it.
        path: String,
        /// The I/O error's text.
        reason: String,
    },
    /// A chunk's `@@ context` line is not in the file (after its position).
    #[error("Failed to find context '{context}' in {path}")]
    ContextNotFound {
        /// The `@@` header's text.
        context: String,
        /// Absolute path, as the reference prints it.
        path: String,
    },
    /// `lines` are all the old lines of the chunk, joined by `\n`.
    #[error("Failed to find expected lines in {path}:\n{lines}")]
    LinesNotFound {
        /// Absolute path, as the reference prints it.
        path: String,
        /// The chunk's old lines, joined by `\n`.
        lines: String,
    },
}

/// Where a section or hunk is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HunkState {
    /// Matched and replaced in its file's result. A hunk of a section
    /// that fails later still says so: the section is written by nobody
    /// (srview writes only when every section succeeds).
    Applied,
    /// Its context or old lines were not found, or its file could not be read or written: the
    /// reference stopped here.
    Failed,
    /// An earlier section failed, or an earlier hunk of its section.
    NotRun,
    /// Its lines are still arriving.
    Streaming,
}

/// A file line whose bytes differ from the patch line it matched.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LooseLine {
    /// 1-based line of the original file.
    pub line: usize,
    /// The file's line as it is.
    pub file: String,
    /// The patch's line it matched, without its prefix character.
    pub patch: String,
}

/// Where an `@@ context` header line was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderMatch {
    /// 1-based line of the original file.
    pub line: usize,
    /// How loosely the header matched.
    pub level: MatchLevel,
    /// The file's line and the header, when their bytes differ.
    pub differing: Option<LooseLine>,
    /// No other line of the file matches the header at its level: a loose
    /// `@@` line then names one place and nothing of it is written, so it
    /// does not make its hunk loose (a tester's find: `@@ def reset(...)`
    /// written without the method's indentation was denied under
    /// `loose=deny` though Codex writes the model's lines byte for byte).
    #[serde(skip)]
    pub alone: bool,
}

impl HeaderMatch {
    /// Whether this `@@` line makes its hunk loose: it differs from the
    /// file's line and another line of the file matches it as loosely, so
    /// the place it names is in question.
    pub fn is_loose(&self) -> bool {
        self.level.is_loose() && !self.alone
    }
}

/// What happened to one chunk: the apply_patch form of the engine's block
/// report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HunkReport {
    /// The file the hunk edits, as written in the patch (its section's path).
    pub file: String,
    /// 0-based position in its section.
    pub index: usize,
    /// 1-based first and last patch lines of the chunk.
    pub patch_lines: [usize; 2],
    /// Applied, failed, not run or still streaming.
    pub state: HunkState,
    /// Where the `@@ context` line was found; `None` without one, or when it was not found.
    pub header: Option<HeaderMatch>,
    /// The level the old lines needed; `None` for a pure addition (nothing
    /// to find) or a hunk that did not match.
    pub level: Option<MatchLevel>,
    /// Original lines the old (context + removed) lines matched.
    pub matched: Option<LineSpan>,
    /// Original lines replaced: from the first changed line to the last.
    pub replaced: Option<LineSpan>,
    /// Where the replacement sits in the section's result.
    pub replacement: Option<LineSpan>,
    /// Matched lines whose bytes differ from the patch's (loose matches).
    pub differing: Vec<LooseLine>,
    /// The old lines' trailing empty line was dropped to find them (the
    /// reference's retry).
    pub dropped_trailing_blank: bool,
    /// The reference's error text when this hunk is the one that failed.
    pub error: Option<String>,
    /// For a hunk matched only loosely: the other places (0-based first
    /// lines) where its old lines fit as loosely, where the reference
    /// searched (from where it searched, after another of its `@@` line for
    /// a hunk with one) ([`super::seek::loose_places`]): which one the
    /// model meant cannot be told. srview's own reading: not serialized.
    #[serde(skip)]
    pub elsewhere: Vec<usize>,
}

impl HunkReport {
    /// Whether the hunk matched only loosely in a way that matters: its
    /// lines at a loose level, unless every line that differs is blank in
    /// both (white space only: the reference keeps the file's context lines,
    /// so the result is the exact one; a tester's find, 43b-02: a patch's
    /// empty context line against the file's line of 8 spaces held a write
    /// back), or its `@@` line loosely where another line matches it too.
    pub fn is_loose(&self) -> bool {
        let blank_only = !self.differing.is_empty()
            && self
                .differing
                .iter()
                .all(|d| d.file.trim().is_empty() && d.patch.trim().is_empty());
        (self.level.is_some_and(MatchLevel::is_loose) && !blank_only)
            || self.header.as_ref().is_some_and(HeaderMatch::is_loose)
    }
}

/// The file operations of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SectionOp {
    /// `*** Add File:`.
    Add,
    /// `*** Delete File:`.
    Delete,
    /// `*** Update File:` (with or without a move).
    Update,
}

/// What happened to one section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionReport {
    /// 0-based position in the patch.
    pub index: usize,
    /// Add, delete or update.
    pub op: SectionOp,
    /// As written in the patch.
    pub path: String,
    /// The `*** Move to:` path, as written in the patch.
    pub move_to: Option<String>,
    /// The section's state: failed when it or one of its hunks failed.
    pub state: HunkState,
    /// The reference's error text when this section is the one that failed.
    pub error: Option<String>,
    /// One report per chunk (Update sections only), in patch order.
    pub hunks: Vec<HunkReport>,
}

/// The result of a patch: the reference's exit status and output, the
/// files it produces, and a report per section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchOutcome {
    /// The reference's exit status: 0 on success, 1 on any failure.
    pub exit_code: i32,
    /// What the reference prints on stdout (the `Success. Updated the following files:` list).
    pub stdout: String,
    /// What the reference prints on stderr: the error's `Display` text and a newline, or empty.
    pub stderr: String,
    #[serde(skip)]
    /// The typed error behind `stderr`; `None` on success.
    pub error: Option<PatchError>,
    /// On success, every touched path (normalised, relative to the working
    /// directory) and its final content, `None` when it no longer exists.
    /// Empty on failure: srview writes nothing then.
    pub files: BTreeMap<String, Option<String>>,
    /// What the reference leaves changed on disk: `files` on success; on
    /// failure, the work of the sections before the failing one, which it
    /// does not undo. Never written by srview.
    pub reference_leaves: BTreeMap<String, Option<String>>,
    /// One report per section, in patch order (up to and including a failing one).
    pub sections: Vec<SectionReport>,
}

impl PatchOutcome {
    pub(super) fn failed(error: PatchError, sections: Vec<SectionReport>) -> Self {
        PatchOutcome {
            exit_code: 1,
            stdout: String::new(),
            stderr: format!("{error}\n"),
            error: Some(error),
            files: BTreeMap::new(),
            reference_leaves: BTreeMap::new(),
            sections,
        }
    }

    /// Hunks that matched at a level other than `exact`.
    pub fn loose_hunks(&self) -> impl Iterator<Item = (&SectionReport, &HunkReport)> {
        self.sections
            .iter()
            .flat_map(|s| s.hunks.iter().filter(|h| h.is_loose()).map(move |h| (s, h)))
    }
}

/// The report of a section before it runs.
pub(super) fn not_run(index: usize, section: &Section) -> SectionReport {
    let (op, move_to, hunks) = match section {
        Section::Add { .. } => (SectionOp::Add, None, Vec::new()),
        Section::Delete { .. } => (SectionOp::Delete, None, Vec::new()),
        Section::Update {
            path,
            move_to,
            chunks,
            ..
        } => (
            SectionOp::Update,
            move_to.clone(),
            chunks
                .iter()
                .enumerate()
                .map(|(i, c)| HunkReport {
                    file: path.clone(),
                    index: i,
                    patch_lines: c.patch_lines(),
                    state: HunkState::NotRun,
                    header: None,
                    level: None,
                    matched: None,
                    replaced: None,
                    replacement: None,
                    differing: Vec::new(),
                    dropped_trailing_blank: false,
                    error: None,
                    elsewhere: Vec::new(),
                })
                .collect(),
        ),
    };
    SectionReport {
        index,
        op,
        path: section.path().to_string(),
        move_to,
        state: HunkState::NotRun,
        error: None,
        hunks,
    }
}
