//! The review of a saved session for the browser (`srview session PATH`),
//! in bounded memory: each edit is reviewed once, when the reader settles
//! it ([`AgentReader::take_settled`]: the reader keeps it no longer), in
//! the session's order, as the whole review ([`super::review::review_live`])
//! reviews it; then only what its row shows is kept ([`hollow`]). The edit
//! shown is read again from the session file and reviewed again on demand
//! ([`replay`]).
//!
//! What a review depends on beyond the edit and the edits before it:
//! whether a later edit (or a shell command) wrote the edit's file
//! ([`recover::unwritten_after_each`]), for a failed or never-run edit whose
//! content before is otherwise unknown. Such an edit is reviewed as far as
//! the session has been read, and kept whole (with the later edits of its
//! file, which may chain from it) until a later write of its file or a
//! shell command settles it, or the session ends: then it is reviewed
//! again, and kept hollow.
//!
//! A session whose reviews need all of it (Codex's contents before are its
//! files now with the later diffs undone, [`reviews_at_the_end`]) is
//! listed as it is read and reviewed once read to its end, each review
//! kept with its edit only ([`deferred`]). Aider's sessions (each reply's
//! commit found from the later ones) are not read this way
//! ([`reads_in_bounded_memory`]).

mod deferred;

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, Weak};

use super::live::{ReaderFacts, Reviewed, SharedFs, worker};
use super::recover::{self, SessionFs};
use super::review::{Recovery, Review, Reviewer, Run, Session, after_of};
use super::verdict::VerdictBlock;
use crate::source::agent::{AgentEdit, AgentKind, AgentReader, EditInput, FileContent, Verdict};

/// Whether a saved session of `agent` is reviewed here: not Aider's (the
/// commit each review starts from is found from the later replies).
pub fn reads_in_bounded_memory(agent: AgentKind) -> bool {
    !agent.row().commits_replies
}

/// Whether the reviews of a saved session of `agent` need all of it, read
/// to its end (Codex's recorded diffs are undone from the session's end):
/// its edits are listed as they are read, and reviewed once it has ended
/// ([`deferred`]).
pub fn reviews_at_the_end(agent: AgentKind) -> bool {
    agent.row().undoes_diffs
}

/// Whether each edit of a saved session of `agent` is reviewed as soon as
/// the reader settles it ([`Engine`]).
pub fn reviews_as_it_settles(agent: AgentKind) -> bool {
    reads_in_bounded_memory(agent) && !reviews_at_the_end(agent)
}

/// A review with only what the browser's list shows of it (the verdicts,
/// stages, notices, the gate's join key): the contents, the edit's input
/// (but a tool call's, which the gate's record is joined by) and the
/// texts of its blocks dropped. Every question the list asks of it
/// ([`Review::verdict_words`], [`Review::is_failed`], ...) has the same
/// answer as of the whole review.
pub fn hollow(mut review: Review) -> Review {
    let edit = &mut review.edit;
    edit.content_before = None;
    edit.content_after = None;
    edit.agent_diff = None;
    if !matches!(edit.input, EditInput::Call(_)) {
        edit.input = EditInput::NotRecorded;
    }
    hollow_results(review)
}

/// [`hollow`] but for the edit, kept whole: the contents and texts srview's
/// review made of it dropped.
fn hollow_results(mut review: Review) -> Review {
    if review.before.is_some() {
        review.before = Some(FileContent::Absent);
    }
    if let Run::Ran(applied) = &mut review.run {
        if let Ok(content) = &mut applied.result {
            *content = FileContent::Absent;
        }
        for block in &mut applied.blocks {
            if let VerdictBlock::Block(b) = block {
                b.search_text = String::new();
                b.replace_text = String::new();
            }
        }
    }
    review
}

/// What the reader said beside its settled edits, at one request.
struct Facts {
    reader: ReaderFacts,
    /// The edits whose verdict the output may have lost, by seq.
    lost: Vec<usize>,
    fs: SharedFs,
}

impl Facts {
    fn of(reader: &AgentReader, fs: SharedFs) -> Facts {
        let (facts, lost) = ReaderFacts::of(reader);
        Facts {
            reader: facts,
            lost: lost.to_vec(),
            fs,
        }
    }

    /// What every review depends on: the agent, the workspace's folder,
    /// the folder paths are named under, Cline CLI's first checkpoint.
    fn basis(&self) -> Basis {
        let facts = &self.reader;
        let cwd = facts
            .session(None)
            .workspace
            .map(str::to_string)
            .unwrap_or_else(|| self.fs.root().to_string_lossy().into_owned());
        let checkpoint = facts.checkpoint(Recovery::Full);
        (facts.agent(), self.fs.root().to_path_buf(), cwd, checkpoint)
    }

    /// The session the reviews are of, without its edits.
    fn session<'a>(&self) -> Session<'_, 'a> {
        self.reader.session(None)
    }

    fn last_shell(&self) -> Option<usize> {
        self.reader.shell_runs().iter().max().copied()
    }
}

type Basis = (AgentKind, PathBuf, String, Option<String>);

/// One request: the edits settled since the last one (moved out of the
/// reader), the ones still unsettled (copied), and the reader's facts.
pub struct Batch {
    generation: u64,
    settled: Vec<AgentEdit>,
    tail: Vec<AgentEdit>,
    facts: Facts,
    /// The session has been read to its end.
    ended: bool,
}

impl Batch {
    /// This batch, then `later`: one request.
    fn then(mut self, later: Batch) -> Batch {
        self.settled.extend(later.settled);
        Batch {
            settled: self.settled,
            ..later
        }
    }
}

/// Whether edit `index` (`verdict`) is one no later edit wrote the file of,
/// as far as the session has been read (see [`recover::unwritten_after_each`]):
/// the writes after it are handled by [`Engine::reopen`].
fn unwritten_now(verdict: Verdict, index: usize, last_shell: Option<usize>) -> bool {
    matches!(verdict, Verdict::Failed | Verdict::NotRun) && last_shell.is_none_or(|b| b <= index)
}

/// The edits of one file kept whole: from a failed or never-run edit whose
/// review read the file as it is now (nothing wrote it after, so far) on.
struct Kept {
    /// By position; the first is that edit.
    indexes: Vec<usize>,
    /// Whether the first is the file's first edit.
    first_of_file: bool,
    /// What the file held before the first, where known (srview's chain).
    chained: Option<FileContent>,
}

/// The reviews of the settled edits, kept as the list needs them.
pub struct Engine {
    /// Hollow the reviews no later edit can change (the session can be
    /// read again: [`replay`]); else every review is kept whole.
    hollows: bool,
    /// The file to read the edits from again when the basis changes.
    path: Option<PathBuf>,
    basis: Option<Basis>,
    reviews: Vec<Arc<Review>>,
    hollow: Vec<bool>,
    /// Each file's content after its last settled edit, where known.
    chain: HashMap<String, FileContent>,
    seen: HashSet<String>,
    kept: HashMap<String, Kept>,
    last_shell: Option<usize>,
    /// Reviews run, ever (for tests).
    pub reviews_run: usize,
}

impl Engine {
    fn new(hollows: bool, path: Option<PathBuf>) -> Engine {
        Engine {
            hollows,
            path,
            basis: None,
            reviews: Vec::new(),
            hollow: Vec::new(),
            chain: HashMap::new(),
            seen: HashSet::new(),
            kept: HashMap::new(),
            last_shell: None,
            reviews_run: 0,
        }
    }

    /// Forgets every review (the basis changed); returns the edits whole
    /// where they were kept whole.
    fn reset(&mut self) -> Vec<AgentEdit> {
        let reviews = std::mem::take(&mut self.reviews);
        self.hollow.clear();
        self.chain.clear();
        self.seen.clear();
        self.kept.clear();
        self.last_shell = None;
        reviews.into_iter().map(|r| r.edit.clone()).collect()
    }

    /// The review after `batch`.
    pub fn update(&mut self, batch: Batch) -> Reviewed {
        let facts = &batch.facts;
        let basis = facts.basis();
        let mut run = 0;
        if self.basis.as_ref().is_some_and(|b| *b != basis) && !self.reviews.is_empty() {
            // Every review depends on the basis: all reviewed again, from
            // the session file when the reviews were hollowed.
            let count = self.reviews.len();
            let whole = self.reset();
            let edits = match (&self.path, self.hollows) {
                (Some(path), true) => {
                    let mut edits = Vec::new();
                    settled_from_file(path, |edit| {
                        edits.push(edit);
                        edits.len() < count
                    });
                    edits
                }
                _ => whole,
            };
            for edit in edits {
                self.settle(edit, facts);
                run += 1;
            }
        }
        self.basis = Some(basis);
        if facts.last_shell() != self.last_shell {
            self.last_shell = facts.last_shell();
            let files: Vec<String> = self.kept.keys().cloned().collect();
            for file in files {
                run += self.reopen(&file, facts, false);
            }
        }
        for edit in batch.settled {
            run += self.settle(edit, facts);
        }
        let mut reviews = self.reviews.clone();
        let mut hollow = self.hollow.clone();
        // The edits not settled yet: reviewed at each request, kept by no one.
        let mut chain: HashMap<&str, Option<FileContent>> = HashMap::new();
        let mut seen: HashSet<&str> = HashSet::new();
        for edit in &batch.tail {
            let index = reviews.len();
            let file = edit.file.as_str();
            let first = !self.seen.contains(file) && seen.insert(file);
            let chained = match chain.remove(file) {
                Some(after) => after,
                None => self.chain.get(file).cloned(),
            };
            let mut edit = edit.clone();
            if facts.lost.contains(&edit.seq) {
                edit.agent_verdict = Verdict::Pending;
            }
            let (review, after) = review_one(facts, index, edit, first, chained.as_ref(), false);
            run += 1;
            chain.insert(file, after);
            reviews.push(Arc::new(review));
            hollow.push(false);
        }
        self.reviews_run += run;
        let cwd = self.basis.as_ref().map(|b| b.2.clone()).unwrap_or_default();
        facts
            .reader
            .answer(batch.generation, reviews, cwd, run, hollow)
    }

    /// Reviews the next settled edit; returns the reviews run.
    fn settle(&mut self, mut edit: AgentEdit, facts: &Facts) -> usize {
        let index = self.reviews.len();
        if facts.lost.contains(&edit.seq) {
            edit.agent_verdict = Verdict::Pending;
        }
        let file = edit.file.clone();
        let mut run = 0;
        if matches!(edit.agent_verdict, Verdict::Applied | Verdict::Pending) {
            // It writes the file: the kept edits of it are settled.
            run += self.reopen(&file, facts, true);
        }
        let first = self.seen.insert(file.clone());
        let chained = self.chain.remove(&file);
        let unwritten = unwritten_now(edit.agent_verdict, index, self.last_shell);
        let (review, after) = review_one(facts, index, edit, first, chained.as_ref(), unwritten);
        run += 1;
        if let Some(after) = after {
            self.chain.insert(file.clone(), after);
        }
        let whole = match self.kept.get_mut(&file) {
            Some(kept) => {
                kept.indexes.push(index);
                true
            }
            None if unwritten => {
                self.kept.insert(
                    file,
                    Kept {
                        indexes: vec![index],
                        first_of_file: first,
                        chained,
                    },
                );
                true
            }
            None => false,
        };
        self.push(review, whole);
        run
    }

    fn push(&mut self, review: Review, whole: bool) {
        let hollowed = self.hollows && !whole;
        let review = if hollowed { hollow(review) } else { review };
        self.reviews.push(Arc::new(review));
        self.hollow.push(hollowed);
    }

    /// Reviews the kept edits of `file` again now that more of the session
    /// is known (`written_after`: an edit after them writes the file); the
    /// ones still unwritten stay kept. Returns the reviews run.
    fn reopen(&mut self, file: &str, facts: &Facts, written_after: bool) -> usize {
        let Some(kept) = self.kept.remove(file) else {
            return 0;
        };
        let mut chained = kept.chained;
        let mut still: Option<Kept> = None;
        for (n, &index) in kept.indexes.iter().enumerate() {
            let edit = self.reviews[index].edit.clone();
            let unwritten =
                !written_after && unwritten_now(edit.agent_verdict, index, self.last_shell);
            let first = n == 0 && kept.first_of_file;
            let input = chained.take();
            let (review, after) = review_one(facts, index, edit, first, input.as_ref(), unwritten);
            chained = after;
            if still.is_none() && unwritten {
                still = Some(Kept {
                    indexes: Vec::new(),
                    first_of_file: first,
                    chained: input,
                });
            }
            let whole = match &mut still {
                Some(s) => {
                    s.indexes.push(index);
                    true
                }
                None => false,
            };
            let hollowed = self.hollows && !whole;
            self.reviews[index] = Arc::new(if hollowed { hollow(review) } else { review });
            self.hollow[index] = hollowed;
        }
        match chained {
            Some(after) => self.chain.insert(file.to_string(), after),
            None => self.chain.remove(file),
        };
        if let Some(still) = still {
            self.kept.insert(file.to_string(), still);
        }
        kept.indexes.len()
    }
}

/// Reviews `edit`, the `index`-th of the session, as the whole review
/// does when nothing after it wrote its file (`unwritten`) or otherwise.
fn review_one(
    facts: &Facts,
    index: usize,
    edit: AgentEdit,
    first_of_file: bool,
    chained: Option<&FileContent>,
    unwritten: bool,
) -> (Review, Option<FileContent>) {
    let mut reviewer = Reviewer::lent(facts.session(), &*facts.fs, Recovery::Full, None);
    if unwritten {
        let mut flags = vec![false; index + 1];
        flags[index] = true;
        reviewer = reviewer.with_unwritten(flags);
    }
    reviewer.review_in(index, edit, first_of_file, chained)
}

/// Every settled edit of the session file at `path`, in order, read in
/// pieces with a fresh reader, to `each` until it returns false.
fn settled_from_file(path: &Path, mut each: impl FnMut(AgentEdit) -> bool) {
    use std::io::Read;
    let Ok(opened) = crate::source::agent::session::open_session(path, None) else {
        return;
    };
    let (mut reader, mut file) = (opened.reader, opened.file);
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        for edit in reader.take_settled() {
            if !each(edit) {
                return;
            }
        }
        match file.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                reader.feed(&buf[..n]);
            }
        }
    }
    reader.finish();
    for edit in reader.take_settled() {
        if !each(edit) {
            return;
        }
    }
}

/// Where the whole review of an edit is found again when the browser keeps
/// only what its row shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Replay {
    /// The session file, read again up to the edit ([`Engine`]'s reviews).
    File(PathBuf),
    /// The edits the reviews keep whole ([`reviews_at_the_end`]).
    Reviews,
}

impl Replay {
    /// How the browser of a saved session of `agent` at `path` finds an
    /// edit's whole review again (`None`: its reviews are kept whole).
    pub fn of(agent: AgentKind, path: Option<PathBuf>) -> Option<Replay> {
        if reviews_at_the_end(agent) {
            Some(Replay::Reviews)
        } else {
            path.map(Replay::File)
        }
    }
}

/// The whole review of edit `seq`, the `at`-th (from 0) of `reviews` (the
/// browser's, hollowed), found again as `how` says: as it was reviewed.
/// `reader`: the browser's reader (its facts are the session's as read);
/// `None` when the edit is not found again (the session file changed).
pub fn replay(
    how: &Replay,
    (seq, at): (usize, usize),
    reader: &AgentReader,
    fs: SharedFs,
    reviews: &[Arc<Review>],
) -> Option<Review> {
    match how {
        Replay::File(path) => {
            let files: Vec<(&str, Verdict)> = reviews
                .iter()
                .map(|r| (r.edit.file.as_str(), r.edit.agent_verdict))
                .collect();
            replay_from_file(path, (seq, at), reader, fs, &files)
        }
        Replay::Reviews => deferred::replay(reviews, at, reader, fs).filter(|r| r.edit.seq == seq),
    }
}

/// The whole review of edit `seq` (the `at`-th, from 0), read again from the session file at
/// `path` (as [`Engine`] reviewed it, and hollowed): the edits of its file
/// before it planned again for srview's chain, every other edit skipped.
/// `reader`: the browser's reader (its facts are the session's as read);
/// `files`: each edit's file and verdict as reviewed (whether a later edit
/// wrote its file); `None` when the file no longer holds the edit.
fn replay_from_file(
    path: &Path,
    (seq, at): (usize, usize),
    reader: &AgentReader,
    fs: SharedFs,
    files: &[(&str, Verdict)],
) -> Option<Review> {
    let facts = Facts::of(reader, fs);
    let target = files.get(at)?.0.to_string();
    let unwritten = recover::unwritten_after_each(files, facts.reader.shell_runs());
    let mut reviewer =
        Reviewer::lent(facts.session(), &*facts.fs, Recovery::Full, None).with_unwritten(unwritten);
    let ws: &(dyn SessionFs + Sync) = &*facts.fs;
    let judge = reviewer.judge(ws);
    let mut chain: Option<FileContent> = None;
    let mut first = true;
    let mut index = 0;
    let mut found = None;
    settled_from_file(path, |mut edit| {
        let i = index;
        index += 1;
        if i > at {
            // Past where the edit was: the file is not the session read.
            return false;
        }
        if edit.file != target {
            return true;
        }
        if facts.lost.contains(&edit.seq) {
            edit.agent_verdict = Verdict::Pending;
        }
        let first_of_file = std::mem::replace(&mut first, false);
        let chained = chain.take();
        if i == at {
            found = (edit.seq == seq).then(|| {
                reviewer
                    .review_in(i, edit, first_of_file, chained.as_ref())
                    .0
            });
            return false;
        }
        let planned = reviewer.plan(i, edit, first_of_file, chained.as_ref());
        chain = match planned.after_without_review() {
            Ok(after) => after,
            Err(()) => after_of(&judge.review(planned), facts.reader.agent()),
        };
        true
    });
    found
}

/// What the browser has been handed and has not dealt with yet: the
/// settled edits given to the reviewer on its thread and not reviewed,
/// and the session's text sent by the reading thread and not yet taken by
/// the screen (text waiting in the event channel is folded into one
/// piece and fed to the reader at once: unbounded, a reading faster than
/// the screen's parse piled up the whole session there).
#[derive(Default)]
struct Pace {
    in_flight: Mutex<InFlight>,
    changed: Condvar,
}

#[derive(Default, Clone, Copy, PartialEq, Eq, Debug)]
struct InFlight {
    edits: usize,
    text: usize,
}

impl Pace {
    fn add(&self, n: isize) {
        self.change(|f| f.edits = f.edits.saturating_add_signed(n));
    }

    fn change(&self, f: impl FnOnce(&mut InFlight)) {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        f(&mut in_flight);
        drop(in_flight);
        self.changed.notify_all();
    }

    #[cfg(test)]
    fn now(&self) -> InFlight {
        *self.in_flight.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Waits while the reviewer is more than [`AHEAD`] edits behind or the
    /// screen more than [`TEXT_AHEAD`] bytes behind, at most `patience` at
    /// a time (a screen gone or a count off by a replaced character never
    /// stops the reading); then counts `bytes` as sent.
    fn wait_then_send(&self, bytes: usize, patience: std::time::Duration) {
        let mut in_flight = self.in_flight.lock().unwrap_or_else(|e| e.into_inner());
        while in_flight.edits > AHEAD || in_flight.text > TEXT_AHEAD {
            let (next, waited) = self
                .changed
                .wait_timeout(in_flight, patience)
                .unwrap_or_else(|e| e.into_inner());
            in_flight = next;
            if waited.timed_out() {
                break;
            }
        }
        in_flight.text = in_flight.text.saturating_add(bytes);
    }
}

/// The pace of the browser reading a saved session, while there is one.
static PACE: Mutex<Option<Weak<Pace>>> = Mutex::new(None);

/// How many settled edits may wait for the reviewer before the session's
/// reading waits ([`wait_for_the_reviewer`]): each is held whole until
/// reviewed.
const AHEAD: usize = 256;

/// How many bytes of the session's text may wait for the screen before
/// the reading waits ([`wait_for_the_reviewer`]): the screen takes them
/// all at once, folded into one piece, and its reader keeps a copy of
/// that piece while it reads it; every edit read from it is held whole
/// until the reviewer has it.
const TEXT_AHEAD: usize = 3 << 20;

/// Called by the thread reading a saved session for the browser before it
/// sends the next piece of `bytes`: waits while the reviewer is more than
/// [`AHEAD`] edits behind or the screen has not taken more than
/// [`TEXT_AHEAD`] bytes sent (at most a second at a time), so that the
/// text and the edits read but not yet reviewed stay few (the reading is
/// faster than the screen's parse, which is faster than the review).
pub fn wait_for_the_reviewer(bytes: usize) {
    let pace = PACE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_ref()
        .and_then(Weak::upgrade);
    if let Some(pace) = pace {
        pace.wait_then_send(bytes, std::time::Duration::from_secs(1));
    }
}

/// Gives the memory freed while a saved session was read back to the
/// system, once it is read: glibc keeps freed pieces of its heaps (the
/// text and the edits' contents passed between the reading, the screen
/// and the reviewer on three threads) mapped, counted in the resident
/// size, until asked. Elsewhere, nothing.
pub fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free memory of glibc's heaps; it
    // touches no memory in use and is safe to call from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The browser's side of [`wait_for_the_reviewer`] while it reads a saved
/// session: from [`ReadingPace::start`] until dropped, the reading waits
/// for it.
pub struct ReadingPace(Arc<Pace>);

impl ReadingPace {
    /// The reading of a saved session waits for this browser from now on.
    pub fn start() -> ReadingPace {
        let pace = Arc::<Pace>::default();
        *PACE.lock().unwrap_or_else(|e| e.into_inner()) = Some(Arc::downgrade(&pace));
        ReadingPace(pace)
    }

    /// The screen took `bytes` of the session's text (to read them).
    pub fn taken(&self, bytes: usize) {
        self.0.change(|f| f.text = f.text.saturating_sub(bytes));
    }

    /// The bytes sent and not taken yet (for tests).
    #[cfg(test)]
    pub fn text_in_flight(&self) -> usize {
        self.0.now().text
    }

    /// Counts `bytes` as sent to this browser, as the session's reading
    /// does (for tests: the reading itself goes to the browser started
    /// last, in any test).
    #[cfg(test)]
    pub fn sent(&self, bytes: usize) {
        self.0.change(|f| f.text += bytes);
    }
}

/// The screen's side: who reviews, and what it was sent.
pub struct SavedReview {
    generation: u64,
    runs: Runs,
    pace: Arc<Pace>,
    at_the_end: bool,
}

enum Runs {
    Here(Box<Engines>),
    Worker(mpsc::Sender<Batch>),
    Gone,
}

/// Who reviews a saved session: each edit as it settles, or all of them
/// once the session is read to its end.
enum Engines {
    AsItSettles(Engine),
    AtTheEnd(deferred::Deferred),
}

impl Engines {
    fn update(&mut self, batch: Batch) -> Reviewed {
        match self {
            Engines::AsItSettles(engine) => engine.update(batch),
            Engines::AtTheEnd(engine) => engine.update(batch),
        }
    }
}

impl SavedReview {
    /// Reviews a session of `agent` in the caller's thread until
    /// [`SavedReview::off_thread`]; `path`: the session file, read again
    /// for the edit shown (then the reviews no later edit can change are
    /// hollowed; a session reviewed at its end keeps its edits instead,
    /// see [`Replay`]). `pace`: the browser's reading of the session,
    /// which waits for the reviewer too.
    pub fn new(agent: AgentKind, path: Option<PathBuf>, pace: Option<&ReadingPace>) -> SavedReview {
        let at_the_end = reviews_at_the_end(agent);
        let engine = if at_the_end {
            Engines::AtTheEnd(deferred::Deferred::default())
        } else {
            Engines::AsItSettles(Engine::new(path.is_some(), path))
        };
        SavedReview {
            generation: 0,
            runs: Runs::Here(Box::new(engine)),
            pace: pace.map(|p| Arc::clone(&p.0)).unwrap_or_default(),
            at_the_end,
        }
    }

    /// Whether the reviews wait for the session's end (until then, its
    /// answers are [`Reviewed::provisional`]).
    pub fn reviews_at_the_end(&self) -> bool {
        self.at_the_end
    }

    /// From now on, reviews on a worker thread that gives each answer to
    /// `answer` (which returns false once nobody listens: the worker ends).
    pub fn off_thread(&mut self, answer: impl Fn(Reviewed) -> bool + Send + 'static) {
        let Runs::Here(engine) = std::mem::replace(&mut self.runs, Runs::Gone) else {
            return;
        };
        let pace = Arc::clone(&self.pace);
        let mut engine = engine;
        let update = move |batch: Batch| {
            let settled = batch.settled.len();
            let reviewed = engine.update(batch);
            pace.add(-(settled as isize));
            reviewed
        };
        // No thread: nothing more is reviewed (the settled edits left with
        // the engine); the screen says what it has.
        self.runs = match worker("srview-browse", Batch::then, update, answer) {
            Some(tx) => Runs::Worker(tx),
            None => Runs::Gone,
        };
    }

    /// Whether `answer` answers the newest request.
    pub fn is_latest(&self, answer: &Reviewed) -> bool {
        answer.generation == self.generation
    }

    /// Hands the edits `reader` settled since the last request to the
    /// reviewer (they leave the reader) with the ones still unsettled;
    /// `ended`: the session has been read to its end. Answers at once when
    /// reviewing in this thread, else `None`.
    pub fn request(
        &mut self,
        reader: &mut AgentReader,
        fs: SharedFs,
        ended: bool,
    ) -> Option<Reviewed> {
        self.generation += 1;
        let settled = reader.take_settled();
        let batch = Batch {
            generation: self.generation,
            settled,
            tail: reader.edits().to_vec(),
            facts: Facts::of(reader, fs),
            ended,
        };
        match &mut self.runs {
            Runs::Here(engine) => Some(engine.update(batch)),
            Runs::Worker(tx) => {
                let settled = batch.settled.len();
                self.pace.add(settled as isize);
                if tx.send(batch).is_err() {
                    self.pace.add(-(settled as isize));
                    self.runs = Runs::Gone;
                }
                None
            }
            Runs::Gone => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{AHEAD, InFlight, Pace, ReadingPace, TEXT_AHEAD};
    use std::sync::Arc;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Sends `bytes` on a thread of its own (as the session's reading
    /// does), waiting as long as it takes; says when it has.
    fn send_on_a_thread(pace: &Arc<Pace>, bytes: usize) -> mpsc::Receiver<()> {
        let (tx, rx) = mpsc::channel();
        let pace = Arc::clone(pace);
        std::thread::spawn(move || {
            pace.wait_then_send(bytes, Duration::from_secs(60));
            let _ = tx.send(());
        });
        rx
    }

    #[test]
    fn the_reading_waits_while_the_screen_has_not_taken_the_text_sent() {
        let pace = Arc::<Pace>::default();
        // Up to the bound, the reading sends without waiting.
        pace.wait_then_send(TEXT_AHEAD, Duration::from_secs(60));
        pace.wait_then_send(1 << 20, Duration::from_secs(60));
        let in_flight = TEXT_AHEAD + (1 << 20);
        assert_eq!(
            pace.now(),
            InFlight {
                edits: 0,
                text: in_flight
            }
        );
        // Past it, the next piece waits for the screen.
        let sent = send_on_a_thread(&pace, 1000);
        assert_eq!(
            sent.recv_timeout(Duration::from_millis(200)),
            Err(mpsc::RecvTimeoutError::Timeout)
        );
        let screen = ReadingPace(Arc::clone(&pace));
        screen.taken(in_flight - TEXT_AHEAD);
        assert_eq!(sent.recv_timeout(Duration::from_secs(30)), Ok(()));
        assert_eq!(screen.text_in_flight(), TEXT_AHEAD + 1000);
    }

    #[test]
    fn the_reading_waits_while_the_reviewer_is_far_behind() {
        let pace = Arc::<Pace>::default();
        pace.add((AHEAD + 1) as isize);
        let sent = send_on_a_thread(&pace, 10);
        assert_eq!(
            sent.recv_timeout(Duration::from_millis(200)),
            Err(mpsc::RecvTimeoutError::Timeout)
        );
        pace.add(-1);
        assert_eq!(sent.recv_timeout(Duration::from_secs(30)), Ok(()));
        assert_eq!(
            pace.now(),
            InFlight {
                edits: AHEAD,
                text: 10
            }
        );
    }

    #[test]
    fn a_reading_nobody_takes_waits_a_patience_at_a_time_then_goes_on() {
        let pace = Pace::default();
        pace.wait_then_send(TEXT_AHEAD + 1, Duration::from_secs(60));
        let start = std::time::Instant::now();
        pace.wait_then_send(5, Duration::from_millis(50));
        assert!(start.elapsed() >= Duration::from_millis(50));
        assert_eq!(pace.now().text, TEXT_AHEAD + 6);
    }
}
