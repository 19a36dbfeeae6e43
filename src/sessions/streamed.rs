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

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

use super::load::{LoadError, load, root_of};
use super::recover::{SessionRoot, unwritten_after_each};
use super::review::{Judge, Planned, Recovery, Review, Reviewer, after_of, reading_problems};
use crate::source::agent::session::{
    SessionError, open_session, read_session_with, survey_session_with,
};
use crate::source::agent::{AgentEdit, AgentKind, AgentReader, FileContent, Verdict};

/// A session read once to its end, its edits not kept (or kept, see
/// [`Surveyed::held`]): what printing its review needs before the first
/// edit, and how to read its edits again.
pub struct Surveyed {
    /// The session read (`-`: stdin).
    path: PathBuf,
    /// Where the files of an output that names no workspace are now
    /// (`--cwd`: see [`open_session`]).
    cwd: Option<String>,
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
    let cwd_text = cwd.map(|dir| dir.to_string_lossy().into_owned());
    if held {
        let (reader, root) = load(path, cwd)?;
        let edits = reader.edits();
        return Ok(Surveyed {
            path: path.to_path_buf(),
            cwd: cwd_text,
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
    // The contents are read by the review's pass only.
    let mut reader = survey_session_with(path, cwd_text.as_deref(), |reader| {
        reader.take_settled().iter().for_each(&mut note);
    })
    .map_err(LoadError::Session)?;
    // Whatever has not settled by the end (none, as the readers finish).
    reader.take_settled().iter().for_each(&mut note);
    reader.edits().iter().for_each(&mut note);
    let root = root_of(&reader, path, cwd);
    Ok(Surveyed {
        path: path.to_path_buf(),
        cwd: cwd_text,
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
    /// Each review's content before is its `before`: its edit's own
    /// `content_before` is moved there (`None` in the edit).
    pub fn review_each(&self, each: impl FnMut(usize, Review) -> bool) -> Result<(), SessionError> {
        self.review_rendered(0, |_, review| review, each)
    }

    /// [`Surveyed::review_each`] on `workers` threads besides this one (0:
    /// in this one), each review turned by `render` (on the worker that
    /// made it) into what `each` is handed, in the session's order: the
    /// same sequence whatever the number of workers. This thread reads the
    /// session, finds each edit's content before in order (srview's chain
    /// of an edit's file waits for the review of the edit before it when
    /// that review is what tells the content after) and hands `each` what
    /// is ready; at most [`IN_FLIGHT`] edits a worker are under review or
    /// waiting for their turn, so memory stays bounded.
    pub fn review_rendered<T: Send>(
        &self,
        workers: usize,
        render: impl Fn(usize, Review) -> T + Sync,
        each: impl FnMut(usize, T) -> bool,
    ) -> Result<(), SessionError> {
        let (_, lost) = reading_problems(&self.reader);
        let reviewer = if self.held {
            Reviewer::new(&self.reader, &self.root, Recovery::Full)
        } else {
            // An edit whose verdict the output may have lost may have
            // written its file.
            let shown: Vec<(&str, Verdict)> = self
                .files
                .iter()
                .map(String::as_str)
                .zip(self.verdicts.iter().copied())
                .enumerate()
                .map(|(i, (file, verdict))| {
                    if lost.contains(&(i + 1)) {
                        (file, Verdict::Pending)
                    } else {
                        (file, verdict)
                    }
                })
                .collect();
            let unwritten = unwritten_after_each(&shown, self.reader.shell_runs());
            Reviewer::streaming(&self.reader, &self.root, Recovery::Full).with_unwritten(unwritten)
        };
        let judge = reviewer.judge(&self.root);
        let render = &render;
        std::thread::scope(|scope| {
            let (jobs, done) = if workers == 0 {
                (None, None)
            } else {
                let (job_tx, job_rx) = mpsc::channel::<(usize, Planned, bool)>();
                let (done_tx, done_rx) = mpsc::channel::<Done<T>>();
                let job_rx = Mutex::new(job_rx);
                let job_rx = std::sync::Arc::new(job_rx);
                for _ in 0..workers {
                    let (job_rx, done_tx, judge) = (job_rx.clone(), done_tx.clone(), judge.clone());
                    scope.spawn(move || {
                        loop {
                            let job = match job_rx.lock() {
                                Ok(rx) => rx.recv(),
                                Err(_) => return,
                            };
                            let Ok((index, planned, wants_after)) = job else {
                                return;
                            };
                            let review = judge.review(planned);
                            let after = wants_after.then(|| after_of(&review, judge.agent()));
                            let out = render(index, review);
                            if done_tx.send(Done { index, out, after }).is_err() {
                                return;
                            }
                        }
                    });
                }
                (Some(job_tx), Some(done_rx))
            };
            let mut order = InOrder {
                reviewer,
                judge: &judge,
                render,
                each,
                jobs,
                done,
                limit: IN_FLIGHT * workers.max(1),
                in_flight: 0,
                ready: BTreeMap::new(),
                next_out: 0,
                waiting: HashMap::new(),
                afters: HashMap::new(),
                going: true,
            };
            let edits = self.edits();
            let mut next = 0;
            let mut review = |edit: AgentEdit| {
                if !order.going || next >= edits {
                    return;
                }
                let mut edit = edit;
                if lost.contains(&edit.seq) {
                    edit.agent_verdict = Verdict::Pending;
                }
                order.add(next, edit);
                next += 1;
            };
            let read = if self.held {
                self.reader.edits().iter().cloned().for_each(&mut review);
                Ok(())
            } else {
                read_session_with(&self.path, self.cwd.as_deref(), |reader| {
                    reader.take_settled().into_iter().for_each(&mut review);
                })
                .map(|mut reader| {
                    reader.take_settled().into_iter().for_each(&mut review);
                    reader.edits().iter().cloned().for_each(&mut review);
                })
            };
            // Every edit handed on (or dropped on an error), then the
            // workers let go.
            order.finish();
            read
        })
    }
}

/// How many edits a worker of [`Surveyed::review_rendered`] may have under
/// review or waiting for their turn to be handed on.
const IN_FLIGHT: usize = 16;

/// A review rendered by a worker: the edit's position, what `render` made
/// of it, and what its file holds after it when asked for (see
/// [`Planned::after_without_review`]).
struct Done<T> {
    index: usize,
    out: T,
    after: Option<Option<FileContent>>,
}

/// The side of [`Surveyed::review_rendered`] that plans edits in order and
/// hands their rendered reviews on in order.
struct InOrder<'r, 'j, T, R, E> {
    reviewer: Reviewer<'r>,
    judge: &'j Judge<'j>,
    render: &'j R,
    each: E,
    /// To the workers (`None`: reviewed here).
    jobs: Option<mpsc::Sender<(usize, Planned, bool)>>,
    done: Option<mpsc::Receiver<Done<T>>>,
    /// The most edits sent and not yet handed on.
    limit: usize,
    in_flight: usize,
    /// Rendered, waiting for the edits before them.
    ready: BTreeMap<usize, T>,
    next_out: usize,
    /// By file: the edit under review whose review tells what it left.
    waiting: HashMap<String, usize>,
    /// What those edits left, by position, once reviewed.
    afters: HashMap<usize, Option<FileContent>>,
    /// `each` has not said stop.
    going: bool,
}

impl<T, R, E> InOrder<'_, '_, T, R, E>
where
    R: Fn(usize, Review) -> T,
    E: FnMut(usize, T) -> bool,
{
    /// Plans the `index`-th edit and has it reviewed.
    fn add(&mut self, index: usize, edit: AgentEdit) {
        let file = edit.file.clone();
        if let Some(before) = self.waiting.remove(&file) {
            // The chain of this file: what the review of the edit before
            // left.
            while self.jobs.is_some() && !self.afters.contains_key(&before) {
                if !self.receive() {
                    break;
                }
            }
            let after = self.afters.remove(&before).flatten();
            self.reviewer.set_chain(file.clone(), after);
        }
        let (first_of_file, chained) = self.reviewer.take_chain(&file);
        // What is handed on prints the review's content before, not the
        // edit's: moved, not copied.
        let planned =
            self.reviewer
                .plan_moving_before(index, edit, first_of_file, chained.as_ref());
        let wants_after = match planned.after_without_review() {
            Ok(after) => {
                self.reviewer.set_chain(file.clone(), after);
                false
            }
            Err(()) => true,
        };
        let Some(jobs) = &self.jobs else {
            let review = self.judge.review(planned);
            if wants_after {
                self.reviewer
                    .set_chain(file, after_of(&review, self.judge.agent()));
            }
            let out = (self.render)(index, review);
            self.ready.insert(index, out);
            self.hand_on();
            return;
        };
        if wants_after {
            self.waiting.insert(file, index);
        }
        if jobs.send((index, planned, wants_after)).is_err() {
            // No worker left (one panicked): the scope says so.
            self.jobs = None;
            return;
        }
        self.in_flight += 1;
        while self.in_flight >= self.limit {
            if !self.receive() {
                break;
            }
        }
    }

    /// Takes one review from the workers and hands on those now in order;
    /// false when no worker is left.
    fn receive(&mut self) -> bool {
        let Some(Ok(done)) = self.done.as_ref().map(mpsc::Receiver::recv) else {
            return false;
        };
        self.in_flight -= 1;
        if let Some(after) = done.after {
            self.afters.insert(done.index, after);
        }
        self.ready.insert(done.index, done.out);
        self.hand_on();
        true
    }

    fn hand_on(&mut self) {
        while let Some(out) = self.ready.remove(&self.next_out) {
            if self.going {
                self.going = (self.each)(self.next_out, out);
            }
            self.next_out += 1;
        }
    }

    /// Waits for every edit sent, then lets the workers go.
    fn finish(&mut self) {
        while self.in_flight > 0 {
            if !self.receive() {
                break;
            }
        }
        self.jobs = None;
    }
}
