//! Applying a parsed patch as Codex 0.169.0 does, without writing anything:
//! the result says what every touched file becomes, what the reference
//! prints, and what it would leave on disk when it fails half-way (it has
//! no rollback; srview writes nothing then).

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;

use super::fs::{Entry, PatchFs, ancestors, display_path, normalize};
use super::model::{Chunk, LineKind, Patch, Section};
use super::parse::{ParseError, parse};
use super::seek::{MatchLevel, seek};
use crate::engine::LineSpan;

/// Why the reference fails. `Display` is its stderr text (without the final
/// newline). Paths are absolute, as it prints them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchError {
    Parse(ParseError),
    /// The patch has no sections.
    NoFilesModified,
    WriteFailed {
        path: String,
    },
    DeleteFailed {
        path: String,
    },
    UpdateMissing {
        path: String,
    },
    UpdateNotAFile {
        path: String,
    },
    UpdateBelowFile {
        path: String,
    },
    /// A file that is no UTF-8 text (or cannot be read): the I/O error text.
    UpdateUnreadable {
        path: String,
        reason: String,
    },
    ContextNotFound {
        context: String,
        path: String,
    },
    /// `lines` are all the old lines of the chunk, joined by `\n`.
    LinesNotFound {
        path: String,
        lines: String,
    },
}

impl fmt::Display for PatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PatchError::Parse(error) => error.fmt(f),
            PatchError::NoFilesModified => write!(f, "No files were modified."),
            PatchError::WriteFailed { path } => write!(f, "Failed to write file {path}"),
            PatchError::DeleteFailed { path } => write!(f, "Failed to delete file {path}"),
            PatchError::UpdateMissing { path } => write!(
                f,
                "Failed to read file to update {path}: No such file or directory (os error 2)"
            ),
            PatchError::UpdateNotAFile { path } => write!(
                f,
                "Failed to read file to update {path}: path `{path}` is not a file"
            ),
            PatchError::UpdateBelowFile { path } => write!(
                f,
                "Failed to read file to update {path}: Not a directory (os error 20)"
            ),
            PatchError::UpdateUnreadable { path, reason } => {
                write!(f, "Failed to read file to update {path}: {reason}")
            }
            PatchError::ContextNotFound { context, path } => {
                write!(f, "Failed to find context '{context}' in {path}")
            }
            PatchError::LinesNotFound { path, lines } => {
                write!(f, "Failed to find expected lines in {path}:\n{lines}")
            }
        }
    }
}

impl std::error::Error for PatchError {}

impl From<ParseError> for PatchError {
    fn from(error: ParseError) -> Self {
        PatchError::Parse(error)
    }
}

/// Where a section or hunk is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HunkState {
    /// Matched and replaced in its file's result. A hunk of a section
    /// that fails later still says so: the section is written by nobody
    /// (srview writes only when every section succeeds).
    Applied,
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
    pub file: String,
    pub patch: String,
}

/// Where an `@@ context` header line was found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderMatch {
    /// 1-based line of the original file.
    pub line: usize,
    pub level: MatchLevel,
    pub differing: Option<LooseLine>,
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
    pub state: HunkState,
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
    pub error: Option<String>,
}

/// The file operations of a section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SectionOp {
    Add,
    Delete,
    Update,
}

/// What happened to one section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SectionReport {
    pub index: usize,
    pub op: SectionOp,
    /// As written in the patch.
    pub path: String,
    pub move_to: Option<String>,
    pub state: HunkState,
    pub error: Option<String>,
    pub hunks: Vec<HunkReport>,
}

/// The result of a patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchOutcome {
    /// The reference's exit status: 0 on success, 1 on any failure.
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    #[serde(skip)]
    pub error: Option<PatchError>,
    /// On success, every touched path (normalised, relative to the working
    /// directory) and its final content, `None` when it no longer exists.
    /// Empty on failure: srview writes nothing then.
    pub files: BTreeMap<String, Option<String>>,
    /// What the reference leaves changed on disk: `files` on success; on
    /// failure, the work of the sections before the failing one, which it
    /// does not undo. Never written by srview.
    pub reference_leaves: BTreeMap<String, Option<String>>,
    pub sections: Vec<SectionReport>,
}

impl PatchOutcome {
    fn failed(error: PatchError, sections: Vec<SectionReport>) -> Self {
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
        self.sections.iter().flat_map(|s| {
            s.hunks
                .iter()
                .filter(|h| {
                    h.level.is_some_and(MatchLevel::is_loose)
                        || h.header.as_ref().is_some_and(|m| m.level.is_loose())
                })
                .map(move |h| (s, h))
        })
    }
}

/// Parses and applies a patch text, as `codex --codex-run-as-apply-patch`
/// does in `cwd` (a parse error is a failure with nothing touched).
pub fn apply_text(text: &str, fs: &dyn PatchFs, cwd: &str) -> PatchOutcome {
    match parse(text) {
        Ok(patch) => apply(&patch, fs, cwd),
        Err(error) => PatchOutcome::failed(error.into(), Vec::new()),
    }
}

/// Applies a parsed patch over `fs` as the reference does in `cwd`.
pub fn apply(patch: &Patch, fs: &dyn PatchFs, cwd: &str) -> PatchOutcome {
    run(&patch.sections, fs, cwd, false, true)
}

/// Reports for a patch still streaming (see
/// [`parse_partial`](super::parse::parse_partial)): the sections known so
/// far are applied in order; the last one, when `last_unfinished`, is
/// `streaming` and never fails for lines it does not have yet (its last
/// hunk is left out of the result until its old lines are found). Before
/// `*** End Patch`, the exit status and texts are those the reference would
/// give if the patch ended there, except that no sections yet is no error.
pub fn apply_partial(
    partial: &super::parse::PartialPatch,
    fs: &dyn PatchFs,
    cwd: &str,
) -> PatchOutcome {
    run(
        &partial.sections,
        fs,
        cwd,
        partial.last_unfinished,
        partial.ended,
    )
}

/// The files as sections have left them: overlay over `fs`.
struct Disk<'f> {
    fs: &'f dyn PatchFs,
    changes: BTreeMap<String, Option<String>>,
}

impl Disk<'_> {
    fn read(&self, path: &str) -> Entry {
        let below = format!("{path}/");
        let live_below = self
            .changes
            .range(below.clone()..)
            .take_while(|(p, _)| p.starts_with(&below))
            .any(|(_, c)| c.is_some());
        if live_below {
            return Entry::Directory;
        }
        let mut ancestor_deleted = false;
        for ancestor in ancestors(path) {
            match self.changes.get(ancestor) {
                Some(Some(_)) => return Entry::BelowFile,
                Some(None) => ancestor_deleted = true,
                None => {}
            }
        }
        let deleted = match self.changes.get(path) {
            Some(Some(content)) => return Entry::File(content.clone()),
            Some(None) => true,
            None => false,
        };
        match self.fs.read(path) {
            Entry::Directory => Entry::Directory,
            _ if deleted => Entry::Missing,
            // The file above it is gone: its place is free.
            Entry::BelowFile if ancestor_deleted => Entry::Missing,
            entry => entry,
        }
    }

    /// Writes as the reference does: parents created, a file overwritten;
    /// a directory in the way (or a file where a parent should be) fails.
    fn write(&mut self, cwd: &str, path: &str, content: String) -> Result<(), PatchError> {
        match self.read(path) {
            Entry::Directory | Entry::BelowFile => Err(PatchError::WriteFailed {
                path: display_path(cwd, path),
            }),
            Entry::File(_) | Entry::Unreadable(_) | Entry::Missing => {
                self.changes.insert(path.to_string(), Some(content));
                Ok(())
            }
        }
    }
}

fn run(
    sections: &[Section],
    fs: &dyn PatchFs,
    cwd: &str,
    last_unfinished: bool,
    ended: bool,
) -> PatchOutcome {
    let mut reports: Vec<SectionReport> = sections
        .iter()
        .enumerate()
        .map(|(i, s)| not_run(i, s))
        .collect();
    if sections.is_empty() && ended {
        return PatchOutcome::failed(PatchError::NoFilesModified, reports);
    }
    let mut disk = Disk {
        fs,
        changes: BTreeMap::new(),
    };
    let (mut added, mut modified, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
    for (index, section) in sections.iter().enumerate() {
        let streaming = last_unfinished && index + 1 == sections.len();
        let report = &mut reports[index];
        let done = match section {
            Section::Add { path, content, .. } => {
                let key = normalize(path);
                disk.write(cwd, &key, content.clone())
                    .map(|()| added.push(path.clone()))
            }
            Section::Delete { path, .. } => {
                let key = normalize(path);
                match disk.read(&key) {
                    Entry::File(_) | Entry::Unreadable(_) => {
                        disk.changes.insert(key, None);
                        deleted.push(path.clone());
                        Ok(())
                    }
                    _ => Err(PatchError::DeleteFailed {
                        path: display_path(cwd, &key),
                    }),
                }
            }
            Section::Update {
                path,
                move_to,
                chunks,
                ..
            } => update(
                &mut disk,
                cwd,
                path,
                move_to.as_deref(),
                chunks,
                streaming,
                &mut report.hunks,
            )
            .map(|()| modified.push(move_to.clone().unwrap_or_else(|| path.clone()))),
        };
        match done {
            Ok(()) => {
                report.state = if streaming {
                    HunkState::Streaming
                } else {
                    HunkState::Applied
                }
            }
            Err(error) => {
                report.state = HunkState::Failed;
                report.error = Some(error.to_string());
                let mut outcome = PatchOutcome::failed(error, reports);
                outcome.reference_leaves = disk.changes;
                return outcome;
            }
        }
    }
    let mut stdout = String::from("Success. Updated the following files:\n");
    for (letter, paths) in [("A", &added), ("M", &modified), ("D", &deleted)] {
        for path in paths.iter() {
            stdout.push_str(&format!("{letter} {path}\n"));
        }
    }
    PatchOutcome {
        exit_code: 0,
        stdout,
        stderr: String::new(),
        error: None,
        files: disk.changes.clone(),
        reference_leaves: disk.changes,
        sections: reports,
    }
}

fn not_run(index: usize, section: &Section) -> SectionReport {
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

/// One line of a file: its text and its own terminator (empty for a last
/// line without one).
struct FileLine<'a> {
    text: &'a str,
    end: &'a str,
}

impl AsRef<str> for FileLine<'_> {
    fn as_ref(&self) -> &str {
        self.text
    }
}

/// Splits at `\r\n`, `\n` and a lone `\r`, as the reference does.
fn split_lines(content: &str) -> Vec<FileLine<'_>> {
    let bytes = content.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'\n' => i + 1,
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            b'\r' => i + 1,
            _ => {
                i += 1;
                continue;
            }
        };
        lines.push(FileLine {
            text: &content[start..i],
            end: &content[i..end],
        });
        start = end;
        i = end;
    }
    if start < content.len() {
        lines.push(FileLine {
            text: &content[start..],
            end: "",
        });
    }
    lines
}

/// A line of the result: an original line, or a patch line.
#[derive(Clone, Copy)]
enum Out<'p> {
    Original(usize),
    Added(&'p str),
}

/// One chunk's change: `old_len` original lines from `start` become `lines`.
struct Replacement<'p> {
    start: usize,
    old_len: usize,
    lines: Vec<Out<'p>>,
    hunk: usize,
}

fn update(
    disk: &mut Disk<'_>,
    cwd: &str,
    path: &str,
    move_to: Option<&str>,
    chunks: &[Chunk],
    streaming: bool,
    hunks: &mut [HunkReport],
) -> Result<(), PatchError> {
    let key = normalize(path);
    let shown = display_path(cwd, &key);
    let content = match disk.read(&key) {
        Entry::File(content) => content,
        Entry::Missing => return Err(PatchError::UpdateMissing { path: shown }),
        Entry::Directory => return Err(PatchError::UpdateNotAFile { path: shown }),
        Entry::BelowFile => return Err(PatchError::UpdateBelowFile { path: shown }),
        Entry::Unreadable(reason) => {
            return Err(PatchError::UpdateUnreadable {
                path: shown,
                reason,
            });
        }
    };
    let lines = split_lines(&content);
    let preferred_end = lines
        .first()
        .map_or("\n", |l| if l.end.is_empty() { "\n" } else { l.end });
    let mut cursor = 0;
    let mut replacements: Vec<Replacement<'_>> = Vec::new();
    for (index, chunk) in chunks.iter().enumerate() {
        let report = &mut hunks[index];
        let still_arriving = streaming && index + 1 == chunks.len();
        report.state = if still_arriving {
            HunkState::Streaming
        } else {
            HunkState::Failed
        };
        if let Some(context) = &chunk.context {
            match seek(&lines, &[context.as_str()], cursor, false) {
                Some((at, level)) => {
                    report.header = Some(HeaderMatch {
                        line: at + 1,
                        level,
                        differing: (lines[at].text != context).then(|| LooseLine {
                            line: at + 1,
                            file: lines[at].text.to_string(),
                            patch: context.clone(),
                        }),
                    });
                    cursor = at + 1;
                }
                None => {
                    let error = PatchError::ContextNotFound {
                        context: context.clone(),
                        path: shown,
                    };
                    report.error = Some(error.to_string());
                    return Err(error);
                }
            }
        }
        // Which chunk lines are in the old and in the new sequence.
        let mut marks: Vec<(bool, bool)> = chunk
            .lines
            .iter()
            .map(|l| (l.kind != LineKind::Added, l.kind != LineKind::Removed))
            .collect();
        let old: Vec<&str> = chunk.old_lines();
        let start = if old.is_empty() {
            lines.len()
        } else {
            let mut found = seek(&lines, &old, cursor, chunk.is_eof);
            if found.is_none() && !still_arriving && old.last().is_some_and(|l| l.is_empty()) {
                drop_last(&mut marks, chunk, true);
                if chunk.new_lines().last().is_some_and(|l| l.is_empty()) {
                    drop_last(&mut marks, chunk, false);
                }
                let shorter = &old[..old.len() - 1];
                found = seek(&lines, shorter, cursor, chunk.is_eof);
                report.dropped_trailing_blank = found.is_some();
            }
            let Some((at, level)) = found else {
                if still_arriving {
                    break;
                }
                let error = PatchError::LinesNotFound {
                    path: shown,
                    lines: old.join("\n"),
                };
                report.error = Some(error.to_string());
                return Err(error);
            };
            let matched_old: Vec<&str> = chunk
                .lines
                .iter()
                .zip(&marks)
                .filter(|(_, m)| m.0)
                .map(|(l, _)| l.text.as_str())
                .collect();
            report.level = (!matched_old.is_empty()).then_some(level);
            report.matched = Some(span(at, matched_old.len()));
            report.differing = matched_old
                .iter()
                .enumerate()
                .filter(|&(i, p)| lines[at + i].text != *p)
                .map(|(i, p)| LooseLine {
                    line: at + i + 1,
                    file: lines[at + i].text.to_string(),
                    patch: p.to_string(),
                })
                .collect();
            cursor = at + matched_old.len();
            at
        };
        if let Some(replacement) = replacement(chunk, &marks, start, index) {
            report.replaced = Some(span(replacement.start, replacement.old_len));
            replacements.push(replacement);
        }
        if !still_arriving {
            report.state = HunkState::Applied;
        }
    }
    replacements.sort_by_key(|r| r.start);
    let mut out: Vec<Out<'_>> = Vec::with_capacity(lines.len());
    let mut position = 0;
    for replacement in &replacements {
        out.extend((position..replacement.start.max(position)).map(Out::Original));
        hunks[replacement.hunk].replacement = Some(span(out.len(), replacement.lines.len()));
        out.extend(replacement.lines.iter().copied());
        position = position.max(replacement.start + replacement.old_len);
    }
    out.extend((position..lines.len()).map(Out::Original));
    let mut result = String::with_capacity(content.len());
    for line in out {
        match line {
            Out::Original(i) => {
                result.push_str(lines[i].text);
                result.push_str(if lines[i].end.is_empty() {
                    preferred_end
                } else {
                    lines[i].end
                });
            }
            Out::Added(text) => {
                result.push_str(text);
                result.push_str(preferred_end);
            }
        }
    }
    match move_to {
        Some(destination) => {
            let destination_key = normalize(destination);
            disk.write(cwd, &destination_key, result)?;
            disk.changes.insert(key, None);
        }
        None => {
            disk.changes.insert(key, Some(result));
        }
    }
    Ok(())
}

/// Takes the last line of the old (`old`) or new sequence out of it.
fn drop_last(marks: &mut [(bool, bool)], chunk: &Chunk, old: bool) {
    let last = chunk
        .lines
        .iter()
        .zip(marks.iter())
        .rposition(|(_, m)| if old { m.0 } else { m.1 });
    if let Some(i) = last {
        if old {
            marks[i].0 = false;
        } else {
            marks[i].1 = false;
        }
    }
}

/// The chunk's change over the original lines matched from `start`: from
/// its first changed line to its last, context inside kept as the file has
/// it. `None` for a chunk that changes nothing.
fn replacement<'p>(
    chunk: &'p Chunk,
    marks: &[(bool, bool)],
    start: usize,
    hunk: usize,
) -> Option<Replacement<'p>> {
    let changed = |m: &(bool, bool)| m.0 != m.1;
    let first = marks.iter().position(changed)?;
    let last = marks.iter().rposition(changed)?;
    let mut old_index = start + marks[..first].iter().filter(|m| m.0).count();
    let replacement_start = old_index;
    let mut lines = Vec::new();
    for (line, mark) in chunk.lines[first..=last].iter().zip(&marks[first..=last]) {
        match *mark {
            (true, true) => lines.push(Out::Original(old_index)),
            (false, true) => lines.push(Out::Added(&line.text)),
            _ => {}
        }
        if mark.0 {
            old_index += 1;
        }
    }
    Some(Replacement {
        start: replacement_start,
        old_len: old_index - replacement_start,
        lines,
        hunk,
    })
}

/// 1-based lines `start + 1 ..= start + len` (empty: `end = start`).
fn span(start: usize, len: usize) -> LineSpan {
    LineSpan {
        start_line: start + 1,
        end_line: start + len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::MemoryFs;

    fn run_on(files: &[(&str, &str)], patch: &str) -> PatchOutcome {
        let fs = MemoryFs::new(files.iter().map(|(p, c)| (p.to_string(), c.to_string())));
        apply_text(patch, &fs, "/w")
    }

    #[test]
    fn lines_split_at_every_terminator_and_keep_them() {
        let lines = split_lines("a\r\nb\rc\nd");
        let parts: Vec<(&str, &str)> = lines.iter().map(|l| (l.text, l.end)).collect();
        assert_eq!(parts, [("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("d", "")]);
    }

    #[test]
    fn additions_at_the_end_keep_chunk_order() {
        let patch = "*** Begin Patch\n*** Update File: a\n@@\n+x\n@@\n c\n+y\n*** End Patch";
        let outcome = run_on(&[("a", "a\nb\nc")], patch);
        assert_eq!(outcome.files["a"].as_deref(), Some("a\nb\nc\nx\ny\n"));
        let hunks = &outcome.sections[0].hunks;
        assert_eq!(hunks[0].level, None);
        assert_eq!(hunks[1].level, Some(MatchLevel::Exact));
        let spans: Vec<_> = hunks.iter().map(|h| h.replacement).collect();
        assert_eq!(
            spans,
            [
                Some(LineSpan {
                    start_line: 4,
                    end_line: 4
                }),
                Some(LineSpan {
                    start_line: 5,
                    end_line: 5
                })
            ]
        );
    }

    #[test]
    fn a_failure_leaves_earlier_sections_for_the_reference_only() {
        let patch =
            "*** Begin Patch\n*** Delete File: a\n*** Update File: b\n@@\n-nope\n*** End Patch";
        let outcome = run_on(&[("a", "1\n"), ("b", "2\n")], patch);
        assert_eq!(outcome.exit_code, 1);
        assert_eq!(
            outcome.stderr,
            "Failed to find expected lines in /w/b:\nnope\n"
        );
        assert!(outcome.files.is_empty());
        assert_eq!(outcome.reference_leaves.get("a"), Some(&None));
        assert_eq!(outcome.sections[0].state, HunkState::Applied);
        assert_eq!(outcome.sections[1].state, HunkState::Failed);
        assert_eq!(outcome.sections[1].hunks[0].state, HunkState::Failed);
    }

    #[test]
    fn move_to_itself_deletes_the_file() {
        let patch =
            "*** Begin Patch\n*** Update File: ./a\n*** Move to: a\n@@\n-1\n+2\n*** End Patch";
        let outcome = run_on(&[("a", "1\n")], patch);
        assert_eq!(
            outcome.stdout,
            "Success. Updated the following files:\nM a\n"
        );
        assert_eq!(outcome.files.get("a"), Some(&None));
    }
}
