//! Applying a parsed patch as Codex 0.169.0 does, without writing anything:
//! sections run in order over an overlay of the file system, as the
//! reference's would on disk; the first failure stops the run, and what the
//! earlier sections did is what the reference leaves (it has no rollback;
//! srview writes nothing then).

use std::collections::BTreeMap;

use super::fs::{Entry, PatchFs, SharedText, ancestors, display_path, normalize};
use super::model::{Chunk, Patch, Section};
use super::outcome::{HunkReport, HunkState, PatchError, PatchOutcome, SectionReport, not_run};
use super::parse::parse;
use super::update::updated_content;

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
    /// The key of the file `path` (normalised) names: the key an earlier
    /// section changed it under, where `path` is another name of that file
    /// (its absolute path, a symbolic link to it: [`PatchFs::resolve`]),
    /// else `path`. Codex reads each section's file from disk after the
    /// sections before it wrote theirs, so a later section under another
    /// name sees the earlier change (tester 51 T-01: the overlay kept one
    /// file under two keys, and its later write lost the earlier change).
    fn key(&self, path: &str) -> String {
        if self.changes.is_empty() || self.changes.contains_key(path) {
            return path.to_string();
        }
        let Some(real) = self.fs.resolve(path) else {
            return path.to_string();
        };
        self.changes
            .keys()
            .find(|k| self.fs.resolve(k).as_deref() == Some(real.as_str()))
            .cloned()
            .unwrap_or_else(|| path.to_string())
    }

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

    /// [`Disk::read`] of a reader that only looks at the content: a file
    /// read before any section changed anything is shared with `fs`, not
    /// copied (with no change, the overlay is `fs` itself).
    fn read_shared(&self, path: &str) -> Result<SharedText, Entry> {
        if self.changes.is_empty() {
            return self.fs.read_shared(path);
        }
        match self.read(path) {
            Entry::File(content) => Ok(SharedText::new(content)),
            other => Err(other),
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
                let key = disk.key(&normalize(path));
                disk.write(cwd, &key, content.clone())
                    .map(|()| added.push(path.clone()))
            }
            Section::Delete { path, .. } => {
                let key = disk.key(&normalize(path));
                match disk.read(&key) {
                    Entry::File(_) | Entry::Unreadable(_) => {
                        disk.changes.insert(key, None);
                        deleted.push(path.clone());
                        Ok(())
                    }
                    _ => Err(PatchError::DeleteFailed {
                        path: display_path(cwd, &normalize(path)),
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

/// An Update section: the file read, its new content computed, written to
/// its path or to its `Move to` destination (then the source removed).
fn update(
    disk: &mut Disk<'_>,
    cwd: &str,
    path: &str,
    move_to: Option<&str>,
    chunks: &[Chunk],
    streaming: bool,
    hunks: &mut [HunkReport],
) -> Result<(), PatchError> {
    let key = disk.key(&normalize(path));
    let shown = display_path(cwd, &normalize(path));
    let content = match disk.read_shared(&key) {
        Ok(content) => content,
        Err(Entry::File(content)) => SharedText::new(content),
        Err(Entry::Missing) => return Err(PatchError::UpdateMissing { path: shown }),
        Err(Entry::Directory) => return Err(PatchError::UpdateNotAFile { path: shown }),
        Err(Entry::BelowFile) => return Err(PatchError::UpdateBelowFile { path: shown }),
        Err(Entry::Unreadable(reason)) => {
            return Err(PatchError::UpdateUnreadable {
                path: shown,
                reason,
            });
        }
    };
    let result = updated_content(&content, chunks, streaming, &shown, hunks)?;
    match move_to {
        Some(destination) => {
            let destination_key = disk.key(&normalize(destination));
            disk.write(cwd, &destination_key, result)?;
            disk.changes.insert(key, None);
        }
        None => {
            disk.changes.insert(key, Some(result));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::{MatchLevel, MemoryFs};
    use crate::engine::LineSpan;

    fn run_on(files: &[(&str, &str)], patch: &str) -> PatchOutcome {
        let fs = MemoryFs::new(files.iter().map(|(p, c)| (p.to_string(), c.to_string())));
        apply_text(patch, &fs, "/w")
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

    /// A later section naming the file another way (a symbolic link, its
    /// absolute path) reads what the earlier section wrote, as Codex reads
    /// the file from disk (tester 51 T-01): one key, both changes.
    #[test]
    fn a_file_under_two_names_keeps_both_changes() {
        let patch = |second: &str| {
            format!(
                "*** Begin Patch\n*** Update File: a\n@@\n-1\n+one\n\
                 *** Update File: {second}\n@@\n-2\n+two\n*** End Patch"
            )
        };
        let both = |outcome: &PatchOutcome, second: &str| {
            assert_eq!(outcome.exit_code, 0, "{second}: {}", outcome.stderr);
            assert_eq!(outcome.files.len(), 1, "{second}: {:?}", outcome.files);
            assert_eq!(
                outcome.files["a"].as_deref(),
                Some("one\ntwo\n"),
                "{second}"
            );
            assert_eq!(
                outcome.stdout,
                format!("Success. Updated the following files:\nM a\nM {second}\n")
            );
        };
        let fs = MemoryFs::new([("a".to_string(), "1\n2\n".to_string())]).with_link("l", "a");
        both(&apply_text(&patch("l"), &fs, "/w"), "l");
        // On disk: the absolute path, and a link.
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::write(dir.path().join("a"), "1\n2\n").expect("write");
        std::os::unix::fs::symlink("a", dir.path().join("l")).expect("a link");
        let root = dir.path().to_string_lossy().into_owned();
        let disk = super::super::fs::DirFs {
            root: dir.path().to_path_buf(),
        };
        for second in [format!("{root}/a"), "l".to_string()] {
            both(&apply_text(&patch(&second), &disk, &root), &second);
        }
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
