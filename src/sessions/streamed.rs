//! `srview session PATH --list` / `--json` on a huge session: the session
//! reviewed one edit at a time, in bounded memory, with the same verdicts
//! as [`review`](super::review::review) of the session read whole.
//!
//! What an edit's review needs from later in the session (whether a later
//! edit or a shell command may have written its file, the version and the
//! workspace the session names last, the edits whose verdict a torn last
//! line may have lost), and what a listing prints before the first edit
//! (the version, the column of file names, the gate's decisions), come
//! from a first pass ([`survey`]) that keeps only each edit's file, verdict
//! and tool-input hash. The second pass ([`Surveyed::review_each`]) reads
//! the session again, takes each edit as soon as it is settled
//! ([`AgentReader::take_settled`]), reviews it and hands it on to be
//! printed and dropped.
//!
//! Sessions that cannot be read twice or whose review needs every edit at
//! once are read once and kept whole, then reviewed and handed on an edit
//! at a time (the reviews are still not kept): stdin, Codex rollouts (their
//! contents before come from the recorded diffs undone from the current
//! files, [`super::recover::Undone`], from the session's end) and Aider
//! histories (the commit of each reply, from the later replies).

use std::path::{Path, PathBuf};

use super::load::{LoadError, load, root_of};
use super::recover::{SessionRoot, unwritten_after_each};
use super::review::{Recovery, Review, Reviewer, reading_problems};
use crate::source::agent::session::{SessionError, open_session, read_session_with};
use crate::source::agent::{AgentEdit, AgentKind, AgentReader, Verdict};

/// A session read once to its end, its edits not kept (or kept, see
/// [`Surveyed::held`]): what printing its review needs before the first
/// edit, and how to read its edits again.
pub struct Surveyed {
    /// The session read (`-`: stdin).
    path: PathBuf,
    /// The reader at the end of the first pass: the version, workspace,
    /// checkpoints and problems it met; its edits taken unless held.
    reader: AgentReader,
    /// The reader keeps every edit (the second pass reviews them).
    held: bool,
    /// Where the session's files are now.
    pub root: SessionRoot,
    /// Each edit's file, in order.
    pub files: Vec<String>,
    /// Each edit's verdict as the first pass read it, in order.
    verdicts: Vec<Verdict>,
    /// Each edit's tool-input hash ([`crate::gate::record::join_key`]).
    pub inputs: Vec<Option<String>>,
}

/// Reads the session at `path` (`-`: stdin) once to its end. `cwd`: where
/// its files are now (see [`load`]).
pub fn survey(path: &Path, cwd: Option<&Path>) -> Result<Surveyed, LoadError> {
    // stdin cannot be read twice; Codex's and Aider's reviews need every
    // edit at once: read whole, as `load` does.
    let held = path == Path::new("-") || {
        let kind = detect_kind(path).map_err(LoadError::Session)?;
        kind.row().undoes_diffs || kind.row().commits_replies
    };
    if held {
        let (reader, root) = load(path, cwd)?;
        let edits = reader.edits();
        return Ok(Surveyed {
            path: path.to_path_buf(),
            files: edits.iter().map(|e| e.file.clone()).collect(),
            verdicts: edits.iter().map(|e| e.agent_verdict).collect(),
            inputs: edits.iter().map(crate::gate::record::join_key).collect(),
            reader,
            held: true,
            root,
        });
    }
    let mut files = Vec::new();
    let mut verdicts = Vec::new();
    let mut inputs = Vec::new();
    let mut note = |edit: &AgentEdit| {
        files.push(edit.file.clone());
        verdicts.push(edit.agent_verdict);
        inputs.push(crate::gate::record::join_key(edit));
    };
    let mut reader = read_session_with(path, None, |reader| {
        reader.take_settled().iter().for_each(&mut note);
    })
    .map_err(LoadError::Session)?;
    // Whatever has not settled by the end (none, as the readers finish).
    reader.take_settled().iter().for_each(&mut note);
    reader.edits().iter().for_each(&mut note);
    let root = root_of(&reader, path, cwd);
    Ok(Surveyed {
        path: path.to_path_buf(),
        reader,
        held: false,
        root,
        files,
        verdicts,
        inputs,
    })
}

/// The agent whose session `path` is, from its first bytes (and name).
fn detect_kind(path: &Path) -> Result<AgentKind, SessionError> {
    // A session kept in a database is its format's.
    if let Some((row, _, _)) = crate::source::agent::database::locate(path) {
        return Ok(row.agent);
    }
    Ok(open_session(path, None)?.reader.kind())
}

impl Surveyed {
    /// The reader at the end of the first pass (its edits taken, unless
    /// the session is held whole).
    pub fn reader(&self) -> &AgentReader {
        &self.reader
    }

    /// The number of edits.
    pub fn edits(&self) -> usize {
        self.files.len()
    }

    /// Problems met reading the session, in words (as
    /// [`super::review::SessionReview::errors`] has them).
    pub fn errors(&self) -> Vec<String> {
        reading_problems(&self.reader).0
    }

    /// Reviews every edit, in order, handing each review to `each` (the
    /// edit's position from 0, its review); `each` returns `false` to stop
    /// (the review of the rest is skipped). The session is read again
    /// unless held: an edit beyond those the first pass saw (the file grew
    /// since) is left out, so the review is of the session as surveyed.
    pub fn review_each(
        &self,
        mut each: impl FnMut(usize, Review) -> bool,
    ) -> Result<(), SessionError> {
        let (_, lost) = reading_problems(&self.reader);
        let mut reviewer = if self.held {
            Reviewer::new(&self.reader, &self.root, Recovery::Full)
        } else {
            let shown: Vec<(&str, Verdict)> = self
                .files
                .iter()
                .map(String::as_str)
                .zip(self.verdicts.iter().copied())
                .collect();
            let unwritten = unwritten_after_each(&shown, self.reader.shell_runs());
            Reviewer::streaming(&self.reader, &self.root, Recovery::Full).with_unwritten(unwritten)
        };
        let mut next = 0;
        let mut going = true;
        let mut review = |edit: AgentEdit| {
            if !going || next >= self.edits() {
                return;
            }
            let mut edit = edit;
            if lost.contains(&edit.seq) {
                edit.agent_verdict = Verdict::Pending;
            }
            going = each(next, reviewer.review(next, edit));
            next += 1;
        };
        if self.held {
            self.reader.edits().iter().cloned().for_each(review);
            return Ok(());
        }
        let mut reader = read_session_with(&self.path, None, |reader| {
            reader.take_settled().into_iter().for_each(&mut review);
        })?;
        reader.take_settled().into_iter().for_each(&mut review);
        reader.edits().iter().cloned().for_each(&mut review);
        Ok(())
    }
}
