//! The review of a session still being written (the agent previewer's):
//! incremental, and run off the UI thread.
//!
//! The screen keeps a [`LiveReview`]. At each change it hands it the
//! reader ([`LiveReview::request`]): only what changed since the last
//! request goes to the reviewer (the edits the reader reported or whose
//! shape changed, the files read live), as a [`Delta`]. The reviewer
//! ([`Incremental`]) keeps every edit's review and reviews again only the
//! edits whose input, verdict or content before changed, and the later
//! edits of a file whose content after an edit changed (srview's chain);
//! an edit whose review read the current file is reviewed again when that
//! file changed. Until [`LiveReview::off_thread`], it reviews in the
//! caller's thread and answers at once; after, a worker thread reviews
//! and answers by message ([`Reviewed`]), coalescing the requests that
//! queued meanwhile: the newest answer supersedes the older ones.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc;

use super::recover::{Checkpoint, SessionFs};
#[cfg(test)]
use super::review::Basis;
use super::review::{Recovery, Review, Reviewer, Session};
use crate::source::agent::{
    AgentEdit, AgentEvent, AgentKind, AgentReader, FileContent, Format, Verdict,
};

/// A workspace the worker thread can read.
pub type SharedFs = Arc<dyn SessionFs + Send + Sync>;

/// A session reviewed, as of one request.
#[derive(Debug, Clone)]
pub struct Reviewed {
    /// The request this answers (see [`LiveReview::is_latest`]).
    pub generation: u64,
    /// The agent that wrote the session.
    pub agent: AgentKind,
    /// The format it was read as.
    pub format: Format,
    /// The agent's version, as the output names it.
    pub version: Option<String>,
    /// One per edit, in the agent's order; an edit not reviewed again is
    /// the same review (the same `Arc`) as in the answer before.
    pub reviews: Vec<Arc<Review>>,
    /// The folder the agent's messages name paths under.
    pub cwd: String,
    /// Problems met reading the output.
    pub errors: Vec<String>,
    /// How many edits this answer reviewed (again).
    pub reviewed: usize,
    /// By position, the reviews holding only what the list shows of them
    /// ([`super::browse::hollow`]): the whole one is read again from the
    /// session ([`super::browse::replay`]). Empty: none.
    pub hollow: Vec<bool>,
    /// The reviews stand in for srview's until the session has been read
    /// to its end: they need all of it (Codex's contents before are its
    /// files now with the later diffs undone; see
    /// [`super::browse::reviews_at_the_end`]).
    pub provisional: bool,
}

/// What a reader says of its session beside its edits, as of one request.
#[derive(Debug, Clone)]
pub(super) struct ReaderFacts {
    /// The agent that wrote the session.
    agent: AgentKind,
    /// The format it is read as.
    format: Format,
    /// The agent's version, as the output names it.
    version: Option<String>,
    /// The workspace the output records.
    workspace: Option<String>,
    /// Cline CLI's checkpoint commits.
    checkpoints: Vec<String>,
    /// See [`AgentReader::shell_runs`].
    shell_runs: Vec<usize>,
    /// Problems met reading it, in words.
    errors: Vec<String>,
}

impl ReaderFacts {
    /// What `reader` says now, and the edits whose verdict it may have
    /// lost (by seq; see [`super::review::reading_problems`]).
    pub(super) fn of(reader: &AgentReader) -> (ReaderFacts, &[usize]) {
        let (errors, lost) = super::review::reading_problems(reader);
        let facts = ReaderFacts {
            agent: reader.kind(),
            format: reader.format(),
            version: reader.version().map(str::to_string),
            workspace: reader.workspace().map(str::to_string),
            checkpoints: reader.checkpoints().to_vec(),
            shell_runs: reader.shell_runs().to_vec(),
            errors,
        };
        (facts, lost)
    }

    /// The agent that wrote the session.
    pub(super) fn agent(&self) -> AgentKind {
        self.agent
    }

    /// See [`AgentReader::shell_runs`].
    pub(super) fn shell_runs(&self) -> &[usize] {
        &self.shell_runs
    }

    /// The session the reviews are of, with `edits` (see
    /// [`Session::edits`]).
    pub(super) fn session<'a>(&self, edits: Option<Vec<&'a AgentEdit>>) -> Session<'_, 'a> {
        Session {
            agent: self.agent,
            workspace: self.workspace.as_deref(),
            checkpoints: &self.checkpoints,
            edits,
            shell_runs: &self.shell_runs,
            // The edits given are as reviewed: those whose verdict the
            // output may have lost are pending already.
            lost: &[],
        }
    }

    /// The checkpoint the first edit of each file is reviewed against,
    /// where the agent records them (Cline CLI) and `recovery` reads git.
    pub(super) fn checkpoint(&self, recovery: Recovery) -> Option<String> {
        (self.agent.row().checkpoints && recovery == Recovery::Full)
            .then(|| self.checkpoints.first().cloned())
            .flatten()
    }

    /// The answer to request `generation`: `reviews` (`reviewed` of them
    /// run by it, the ones marked in `hollow` holding only what the list
    /// shows), with paths named under `cwd`.
    pub(super) fn answer(
        &self,
        generation: u64,
        reviews: Vec<Arc<Review>>,
        cwd: String,
        reviewed: usize,
        hollow: Vec<bool>,
    ) -> Reviewed {
        Reviewed {
            generation,
            agent: self.agent,
            format: self.format,
            version: self.version.clone(),
            reviews,
            cwd,
            errors: self.errors.clone(),
            reviewed,
            hollow,
            provisional: false,
        }
    }
}

/// What changed since the last request, and the session as a whole.
pub struct Delta {
    generation: u64,
    facts: ReaderFacts,
    /// How many edits the session has.
    len: usize,
    /// The edits that changed (or are new), by position; an edit whose
    /// verdict the output may have lost is pending here.
    changed: Vec<(usize, AgentEdit)>,
    /// Files read live that changed, by seq (`None`: forgotten).
    on_disk: Vec<(usize, Option<FileContent>)>,
    fs: SharedFs,
    recovery: Recovery,
}

impl Delta {
    /// This delta, then `later`: one request.
    fn then(mut self, later: Delta) -> Delta {
        let mut changed: HashMap<usize, AgentEdit> = self.changed.drain(..).collect();
        changed.extend(later.changed);
        let mut changed: Vec<(usize, AgentEdit)> = changed
            .into_iter()
            .filter(|(i, _)| *i < later.len)
            .collect();
        changed.sort_by_key(|(i, _)| *i);
        let mut on_disk: HashMap<usize, Option<FileContent>> = self.on_disk.drain(..).collect();
        on_disk.extend(later.on_disk);
        Delta {
            changed,
            on_disk: on_disk.into_iter().collect(),
            ..later
        }
    }
}

/// The cheap fields of an edit, to tell one that changed without
/// comparing its contents (the reader reports most changes; not the
/// content before it chains from an earlier edit once that one settles).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Shape {
    file: u64,
    streaming: bool,
    verdict: Verdict,
    message: Option<usize>,
    before: Option<(u8, usize)>,
    after: Option<(u8, usize)>,
    diff: Option<usize>,
    commit: Option<usize>,
    cut_off: bool,
    lost: bool,
}

impl Shape {
    fn of(edit: &AgentEdit, lost: bool) -> Shape {
        let content = |c: &Option<crate::source::agent::Content>| {
            c.as_ref().map(|c| {
                let len = match &c.content {
                    FileContent::Text(t) => t.len() + 1,
                    FileContent::Absent => 0,
                };
                (c.origin as u8, len)
            })
        };
        Shape {
            file: hash_of(&edit.file),
            streaming: edit.streaming,
            verdict: edit.agent_verdict,
            message: edit.agent_message.as_ref().map(String::len),
            before: content(&edit.content_before),
            after: content(&edit.content_after),
            diff: edit.agent_diff.as_ref().map(String::len),
            commit: edit.commit.as_ref().map(String::len),
            cut_off: edit.cut_off,
            lost,
        }
    }
}

fn hash_of(value: &impl Hash) -> u64 {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// A content's fingerprint (`None`: unreadable).
fn fingerprint(content: &Option<FileContent>) -> u64 {
    hash_of(&content.as_ref().map(|c| match c {
        FileContent::Text(t) => Some(t.as_str()),
        FileContent::Absent => None,
    }))
}

/// A hasher for the review's own maps (edit positions, the session's file
/// paths), kept for one request: several lookups per edit of a 10,000-edit
/// session at every request, where SipHash was most of the worker's time.
/// Not for keys an attacker picks to collide (none here is kept).
#[derive(Default, Clone, Copy)]
struct Quick(u64);

impl Quick {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for Quick {
    fn write(&mut self, bytes: &[u8]) {
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut b = [0u8; 8];
            b.copy_from_slice(word);
            self.add(u64::from_le_bytes(b));
        }
        let rest = words.remainder();
        let mut b = [0u8; 8];
        b[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(b) ^ ((rest.len() as u64) << 56));
    }

    fn write_usize(&mut self, n: usize) {
        self.add(n as u64);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

type QuickMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<Quick>>;
type QuickSet<K> = HashSet<K, std::hash::BuildHasherDefault<Quick>>;

/// The screen's side: what was sent, and who reviews.
pub struct LiveReview {
    generation: u64,
    /// Each edit's shape as last sent.
    sent: Vec<Shape>,
    /// The files read live as last sent, by seq (fingerprints).
    sent_on_disk: HashMap<usize, u64>,
    /// Edits the reader reported changed since the last request, by seq.
    reported: HashSet<usize>,
    /// The reader's [`AgentReader::chained`] at the last request: the
    /// edits from there on may change without being reported.
    unchained: usize,
    /// The edits whose verdict the output may have lost, by seq, at the
    /// last request.
    lost: Vec<usize>,
    /// Edits whose shape was compared, ever (for tests: a request
    /// compares only the edits that may have changed).
    pub shapes_compared: usize,
    runs: Runs,
}

enum Runs {
    /// In the caller's thread.
    Here(Box<Incremental>),
    /// On a worker thread; its answers go by message.
    Worker(mpsc::Sender<Delta>),
    /// The worker is gone (the screen is closing).
    Gone,
}

impl Default for LiveReview {
    fn default() -> Self {
        LiveReview::new()
    }
}

impl LiveReview {
    /// Reviews in the caller's thread until [`LiveReview::off_thread`].
    pub fn new() -> LiveReview {
        LiveReview {
            generation: 0,
            sent: Vec::new(),
            sent_on_disk: HashMap::new(),
            reported: HashSet::new(),
            unchained: 0,
            lost: Vec::new(),
            shapes_compared: 0,
            runs: Runs::Here(Box::default()),
        }
    }

    /// From now on, reviews on a worker thread that gives each answer to
    /// `answer` (which returns false once nobody listens: the worker ends).
    pub fn off_thread(&mut self, answer: impl Fn(Reviewed) -> bool + Send + 'static) {
        let Runs::Here(engine) = std::mem::replace(&mut self.runs, Runs::Gone) else {
            return;
        };
        let mut engine = engine;
        let spawned = worker(
            "srview-review",
            Delta::then,
            move |d| engine.update(d),
            answer,
        );
        self.runs = match spawned {
            Some(tx) => Runs::Worker(tx),
            // No thread: reviewed here, as before.
            None => Runs::Here(Box::default()),
        };
        if matches!(self.runs, Runs::Here(_)) {
            // A fresh engine has seen nothing: send everything again.
            self.sent.clear();
            self.unchained = 0;
            self.sent_on_disk.clear();
        }
    }

    /// The reader reported these events (their edits changed).
    pub fn note(&mut self, events: &[AgentEvent]) {
        for event in events {
            match event {
                AgentEvent::Started(seq) | AgentEvent::Updated(seq) | AgentEvent::Finished(seq) => {
                    self.reported.insert(*seq);
                }
                AgentEvent::Version(_) => {}
            }
        }
    }

    /// Whether `answer` answers the newest request (an older one is
    /// superseded: the input changed since).
    pub fn is_latest(&self, answer: &Reviewed) -> bool {
        answer.generation == self.generation
    }

    /// Asks for the review of `reader`'s edits as they are now (`on_disk`:
    /// see [`super::review::review_live`]); `fs`: where the files are.
    /// Answers at once when reviewing in this thread, else `None` (the
    /// answer comes by message).
    pub fn request(
        &mut self,
        reader: &AgentReader,
        on_disk: &HashMap<usize, FileContent>,
        fs: SharedFs,
        recovery: Recovery,
    ) -> Option<Reviewed> {
        let delta = self.delta(reader, on_disk, fs, recovery);
        match &mut self.runs {
            Runs::Here(engine) => Some(engine.update(delta)),
            Runs::Worker(tx) => {
                if tx.send(delta).is_err() {
                    self.runs = Runs::Gone;
                }
                None
            }
            Runs::Gone => None,
        }
    }

    fn delta(
        &mut self,
        reader: &AgentReader,
        on_disk: &HashMap<usize, FileContent>,
        fs: SharedFs,
        recovery: Recovery,
    ) -> Delta {
        self.generation += 1;
        let edits = reader.edits();
        // As the full review says it (see `review_live`).
        let (facts, lost) = ReaderFacts::of(reader);
        // Which edits may have changed: those reported, those whose
        // verdict the output may have lost (then or now), and those past
        // the edits already chained (a content before filled from an
        // earlier edit comes without an event). The list read again (or
        // shorter, or an edit not where its number says): all of them.
        let from = self.unchained.min(self.sent.len());
        let mut whole = edits.len() < self.sent.len();
        let mut look = Vec::new();
        for &seq in self.reported.iter().chain(&self.lost).chain(lost) {
            match seq.checked_sub(1) {
                Some(i) if edits.get(i).is_some_and(|e| e.seq == seq) => {
                    if i < from {
                        look.push(i);
                    }
                }
                // Gone since (the output read again): nothing to send.
                Some(i) if i >= edits.len() => {}
                // [`RESHAPED`](crate::source::agent::live::RESHAPED), or an
                // edit not at its number's place.
                _ => whole = true,
            }
        }
        let from = if whole {
            look.clear();
            0
        } else {
            look.sort_unstable();
            look.dedup();
            from
        };
        look.extend(from..edits.len());
        self.sent.truncate(edits.len());
        let mut changed = Vec::new();
        for i in look {
            let edit = &edits[i];
            self.shapes_compared += 1;
            let shape = Shape::of(edit, lost.contains(&edit.seq));
            let same = self.sent.get(i) == Some(&shape) && !self.reported.contains(&edit.seq);
            if same {
                continue;
            }
            let mut edit = edit.clone();
            if shape.lost {
                edit.agent_verdict = Verdict::Pending;
            }
            changed.push((i, edit));
            match self.sent.get_mut(i) {
                Some(sent) => *sent = shape,
                None => self.sent.push(shape),
            }
        }
        self.unchained = reader.chained();
        self.lost = lost.to_vec();
        self.reported.clear();
        let mut files = Vec::new();
        for (seq, content) in on_disk {
            let print = fingerprint(&Some(content.clone()));
            if self.sent_on_disk.insert(*seq, print) != Some(print) {
                files.push((*seq, Some(content.clone())));
            }
        }
        self.sent_on_disk.retain(|seq, _| {
            let kept = on_disk.contains_key(seq);
            if !kept {
                files.push((*seq, None));
            }
            kept
        });
        Delta {
            generation: self.generation,
            facts,
            len: edits.len(),
            changed,
            on_disk: files,
            fs,
            recovery,
        }
    }
}

/// A worker thread named `name` that answers each request sent to it with
/// `update`, giving the answer to `answer` (which returns false once
/// nobody listens: the worker ends). The requests that queued while one
/// was answered are one request (`then`: the older, then the newer):
/// only the newest state is reviewed. `None`: no thread.
pub(super) fn worker<R: Send + 'static>(
    name: &str,
    then: fn(R, R) -> R,
    mut update: impl FnMut(R) -> Reviewed + Send + 'static,
    answer: impl Fn(Reviewed) -> bool + Send + 'static,
) -> Option<mpsc::Sender<R>> {
    let (tx, rx) = mpsc::channel::<R>();
    let spawned = std::thread::Builder::new()
        .name(name.into())
        .spawn(move || {
            while let Ok(first) = rx.recv() {
                let request = rx.try_iter().fold(first, then);
                if !answer(update(request)) {
                    return;
                }
            }
        });
    spawned.ok().map(|_| tx)
}

/// What an edit's review depended on beside the edit and its chained
/// content before.
#[derive(Debug, Clone, Default)]
struct Entry {
    /// What its file holds after it, where known (the next edit's chain).
    after: Option<FileContent>,
    /// The current files its review read, and what they held.
    reads: Vec<(String, u64)>,
    /// Codex's undone content before (fingerprint).
    undone: u64,
    /// Aider's commit before it.
    aider: Option<String>,
    /// No later edit may have written its file.
    unwritten: bool,
}

/// Every edit's review, kept between requests: each request reviews again
/// only what it changed, and looks only at the edits that may have
/// changed (a request's cost follows what changed, not the session's
/// length; Codex's and Aider's sessions excepted, see [`Incremental::update`]).
#[derive(Default)]
pub struct Incremental {
    reviews: Vec<Arc<Review>>,
    entries: Vec<Entry>,
    on_disk: HashMap<usize, FileContent>,
    /// What every review depends on: the agent, the workspace's folder,
    /// the folder paths are named under, Cline CLI's first checkpoint,
    /// the recovery.
    basis: Option<(AgentKind, PathBuf, String, Option<String>, Recovery)>,
    /// Each file's edits, by position, in order.
    by_file: HashMap<String, Vec<usize>>,
    /// By position: no later edit may have written the edit's file
    /// ([`super::recover::unwritten_after_each`]), as of the last request.
    unwritten: Vec<bool>,
    /// The last shell run [`Incremental::unwritten`] was found with.
    last_shell: Option<usize>,
    /// The edits whose review read current files: each request looks
    /// whether those files changed.
    reading: std::collections::BTreeSet<usize>,
    /// Reviews run, ever (for tests).
    pub reviews_run: usize,
    /// Edits looked at, ever (for tests: a request looks at the edits
    /// that may have changed only).
    pub edits_looked_at: usize,
}

/// The workspace, its current-file reads noted.
struct Noting<'a> {
    fs: &'a dyn SessionFs,
    reads: RefCell<Vec<(String, u64)>>,
}

impl SessionFs for Noting<'_> {
    fn root(&self) -> &Path {
        self.fs.root()
    }

    fn current(&self, file: &str) -> Option<FileContent> {
        let content = self.fs.current(file);
        self.reads
            .borrow_mut()
            .push((file.to_string(), fingerprint(&content)));
        content
    }

    fn show(&self, reference: &str, file: &str) -> Checkpoint {
        self.fs.show(reference, file)
    }
}

/// The edit at position `i` as of a request: the one sent, else the one
/// reviewed before.
fn edit_at<'e>(
    changed: &'e QuickMap<usize, AgentEdit>,
    reviews: &'e [Arc<Review>],
    i: usize,
) -> &'e AgentEdit {
    changed.get(&i).unwrap_or_else(|| &reviews[i].edit)
}

/// The first of `list` (positions in order) after `i`.
fn next_after(list: Option<&Vec<usize>>, i: usize) -> Option<usize> {
    let list = list?;
    list.get(list.partition_point(|&j| j <= i)).copied()
}

impl Incremental {
    /// The review after `delta`. The edits looked at are the ones sent,
    /// the new ones, the ones whose review read a current file, the ones
    /// whose file nothing may have written after them changed
    /// ([`super::recover::unwritten_after_each`]), and, as their reviews
    /// run, the next edit of a file whose content after an edit changed.
    /// Every edit is looked at for the first request, when what every
    /// review depends on changed, and for the agents whose reviews read
    /// the whole session (Codex undoes its diffs from the newest edit
    /// back; Aider's commits are found across edits).
    pub fn update(&mut self, delta: Delta) -> Reviewed {
        let mut dirty: QuickSet<usize> = delta.changed.iter().map(|(i, _)| *i).collect();
        for (seq, content) in delta.on_disk {
            dirty.insert(seq.wrapping_sub(1));
            match content {
                Some(content) => self.on_disk.insert(seq, content),
                None => self.on_disk.remove(&seq),
            };
        }
        let changed: QuickMap<usize, AgentEdit> = delta.changed.into_iter().collect();
        let old_len = self.reviews.len();
        // Up to the first edit neither sent nor reviewed before.
        let len = (old_len..delta.len)
            .find(|i| !changed.contains_key(i))
            .unwrap_or(delta.len)
            .min(delta.len);
        let kept = old_len.min(len);
        let facts = &delta.facts;
        let row = facts.agent.row();
        let whole_session = row.undoes_diffs || row.commits_replies;
        let flipped = self.place(&changed, len, facts.shell_runs());
        let noting = Noting {
            fs: &*delta.fs,
            reads: RefCell::new(Vec::new()),
        };
        let edits: Option<Vec<&AgentEdit>> = whole_session.then(|| {
            (0..len)
                .map(|i| edit_at(&changed, &self.reviews, i))
                .collect()
        });
        let session = facts.session(edits);
        let mut reviewer = Reviewer::lent(session, &noting, delta.recovery, Some(&self.on_disk));
        if !whole_session {
            reviewer = reviewer.with_unwritten(self.unwritten.clone());
        }
        let basis = (
            facts.agent,
            delta.fs.root().to_path_buf(),
            reviewer.cwd().to_string(),
            facts.checkpoint(delta.recovery),
            delta.recovery,
        );
        let all = self.basis.as_ref() != Some(&basis);
        noting.reads.borrow_mut().clear();
        // The edits to look at, in order (an edit's review may add a
        // later one: the next edit of its file).
        let mut queue: std::collections::BTreeSet<usize> = if all || whole_session {
            (0..len).collect()
        } else {
            dirty
                .iter()
                .copied()
                .chain(kept..len)
                .chain(self.reading.iter().copied())
                .chain(flipped)
                .filter(|&i| i < len)
                .collect()
        };
        // The current files read again for this request, by path.
        let mut now: QuickMap<&str, u64> = QuickMap::default();
        let mut fresh: QuickMap<usize, (Review, Entry)> = QuickMap::default();
        // Edits whose content before chains from an edit whose content
        // after changed: reviewed again.
        let mut stale: QuickSet<usize> = QuickSet::default();
        let mut run = 0;
        while let Some(i) = queue.pop_first() {
            self.edits_looked_at += 1;
            let edit = edit_at(&changed, &self.reviews, i);
            let file = edit.file.as_str();
            let of_file = self.by_file.get(file);
            let place = of_file.map_or(0, |list| list.partition_point(|&j| j < i));
            let previous = place
                .checked_sub(1)
                .and_then(|p| of_file.and_then(|list| list.get(p)))
                .copied();
            let first_of_file = previous.is_none();
            let (undone, aider, unwritten) = reviewer.sources_of(i);
            let undone = fingerprint(&undone);
            let old = self.entries.get(i).filter(|_| i < kept);
            let again = match old {
                None => true,
                Some(old) => {
                    all || dirty.contains(&i)
                        || stale.contains(&i)
                        || old.undone != undone
                        || old.aider != aider
                        || old.unwritten != unwritten
                        || old.reads.iter().any(|(path, print)| {
                            let current = *now
                                .entry(path.as_str())
                                .or_insert_with(|| fingerprint(&delta.fs.current(path)));
                            current != *print
                        })
                }
            };
            if !again {
                continue;
            }
            let chained = previous.and_then(|j| match fresh.get(&j) {
                Some((_, entry)) => entry.after.as_ref(),
                None => self.entries.get(j).and_then(|e| e.after.as_ref()),
            });
            let (review, after) = reviewer.review_in(i, edit.clone(), first_of_file, chained);
            run += 1;
            let reads = std::mem::take(&mut *noting.reads.borrow_mut());
            let old_file = self
                .reviews
                .get(i)
                .filter(|_| i < kept)
                .map(|r| r.edit.file.as_str());
            let chain_changed = match old {
                Some(old) => old.after != after || old_file != Some(file),
                None => true,
            };
            if chain_changed {
                // The next edit of its file (and of the file it was of)
                // chains from it.
                let nexts = [Some(file), old_file]
                    .into_iter()
                    .flatten()
                    .filter_map(|f| next_after(self.by_file.get(f), i));
                for next in nexts {
                    stale.insert(next);
                    queue.insert(next);
                }
            }
            fresh.insert(
                i,
                (
                    review,
                    Entry {
                        after,
                        reads,
                        undone,
                        aider,
                        unwritten,
                    },
                ),
            );
        }
        let cwd = reviewer.cwd().to_string();
        drop(reviewer);
        for i in len..old_len {
            self.reading.remove(&i);
        }
        self.reviews.truncate(len);
        self.entries.truncate(len);
        let mut fresh: Vec<(usize, (Review, Entry))> = fresh.into_iter().collect();
        fresh.sort_unstable_by_key(|(i, _)| *i);
        for (i, (review, entry)) in fresh {
            if entry.reads.is_empty() {
                self.reading.remove(&i);
            } else {
                self.reading.insert(i);
            }
            if i < self.reviews.len() {
                self.reviews[i] = Arc::new(review);
                self.entries[i] = entry;
            } else {
                self.reviews.push(Arc::new(review));
                self.entries.push(entry);
            }
        }
        self.basis = Some(basis);
        self.reviews_run += run;
        facts.answer(delta.generation, self.reviews.clone(), cwd, run, Vec::new())
    }

    /// Brings [`Incremental::by_file`] and [`Incremental::unwritten`] to
    /// the session of `len` edits with `changed` (the reviews before
    /// are not yet replaced); returns the edits whose `unwritten` changed.
    /// Only the files of the edits that changed (or went), and of the
    /// edits a new shell run passed, are looked at.
    fn place(
        &mut self,
        changed: &QuickMap<usize, AgentEdit>,
        len: usize,
        shell_runs: &[usize],
    ) -> Vec<usize> {
        let old_len = self.reviews.len();
        let mut touched: Vec<&str> = Vec::new();
        // Gone: the edits past the end, from the end of their files' lists.
        for i in len..old_len {
            let file = self.reviews[i].edit.file.as_str();
            if let Some(list) = self.by_file.get_mut(file) {
                list.retain(|&j| j < len);
            }
            touched.push(file);
        }
        let mut positions: Vec<usize> = changed.keys().copied().filter(|&i| i < len).collect();
        positions.sort_unstable();
        for i in positions {
            let file = changed[&i].file.as_str();
            let was = (i < old_len).then(|| self.reviews[i].edit.file.as_str());
            if was != Some(file) {
                if let Some(list) = was.and_then(|w| self.by_file.get_mut(w))
                    && let Ok(at) = list.binary_search(&i)
                {
                    list.remove(at);
                }
                let list = self.by_file.entry(file.to_string()).or_default();
                if let Err(at) = list.binary_search(&i) {
                    list.insert(at, i);
                }
            }
            touched.extend(was);
            touched.push(file);
        }
        // The edits a shell run after them may have written over.
        let last_shell = shell_runs.iter().max().copied();
        if last_shell != self.last_shell {
            let passed = match (self.last_shell, last_shell) {
                (Some(a), Some(b)) => a.min(b)..a.max(b),
                (Some(b), None) | (None, Some(b)) => 0..b,
                (None, None) => 0..0,
            };
            for i in passed.start.min(len)..passed.end.min(len) {
                touched.push(edit_at(changed, &self.reviews, i).file.as_str());
            }
            self.last_shell = last_shell;
        }
        touched.sort_unstable();
        touched.dedup();
        self.unwritten.resize(len, false);
        let mut flipped = Vec::new();
        for file in touched {
            let Some(list) = self.by_file.get(file) else {
                continue;
            };
            // As `unwritten_after_each` finds it, for this file's edits.
            let mut written = false;
            for &i in list.iter().rev() {
                let verdict = edit_at(changed, &self.reviews, i).agent_verdict;
                let unwritten = matches!(verdict, Verdict::Failed | Verdict::NotRun)
                    && last_shell.is_none_or(|b| b <= i)
                    && !written;
                if matches!(verdict, Verdict::Applied | Verdict::Pending) {
                    written = true;
                }
                if self.unwritten[i] != unwritten {
                    self.unwritten[i] = unwritten;
                    flipped.push(i);
                }
            }
        }
        self.by_file.retain(|_, list| !list.is_empty());
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sessions::review::review_live;
    use crate::sessions::review::tests::{cline_edit, cline_verdict, memory};

    const FILES: usize = 20;

    /// Edit `n` (from 0) of a long Cline CLI session: `f{n % FILES}.txt`,
    /// its `v{k}` made `v{k + 1}` (`k`: the edits of that file before).
    fn edit(n: usize, verdict: Option<bool>) -> String {
        let k = n / FILES;
        cline_edit(
            &format!("c{n}"),
            &format!("f{}.txt", n % FILES),
            &format!("v{k}"),
            &format!("v{}", k + 1),
            verdict,
        )
    }

    /// Every file is `v0` in the session's checkpoint; none is on disk.
    fn workspace() -> SharedFs {
        let names: Vec<String> = (0..FILES).map(|f| format!("f{f}.txt")).collect();
        let commits: Vec<(&str, &str, &str)> =
            names.iter().map(|n| ("cp1", n.as_str(), "v0\n")).collect();
        Arc::new(memory(&[], &commits))
    }

    fn reader() -> AgentReader {
        let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson);
        reader.set_checkpoints(vec!["cp1".into()]);
        reader
    }

    /// `live`'s answer to a request for `reader`'s edits over `fs`, no
    /// file read live, reviewed in this thread.
    fn ask_here(live: &mut LiveReview, reader: &AgentReader, fs: &SharedFs) -> Reviewed {
        live.request(reader, &HashMap::new(), Arc::clone(fs), Recovery::Full)
            .expect("reviewed in this thread")
    }

    /// `text` read by a fresh [`reader`] over [`workspace`], reviewed in
    /// this thread: the workspace, the reader, the review and its answer.
    fn first_review(text: &str) -> (SharedFs, AgentReader, LiveReview, Reviewed) {
        let fs = workspace();
        let mut reader = reader();
        let mut live = LiveReview::new();
        live.note(&reader.feed(text.as_bytes()));
        let first = ask_here(&mut live, &reader, &fs);
        (fs, reader, live, first)
    }

    /// The incremental review says what the whole review says, field by
    /// field.
    fn assert_same_as_whole(answer: &Reviewed, reader: &AgentReader, fs: &SharedFs) {
        let whole = review_live(reader, &**fs, Recovery::Full, &HashMap::new());
        assert_eq!(answer.reviews.len(), whole.reviews.len());
        for (got, want) in answer.reviews.iter().zip(&whole.reviews) {
            assert_eq!(format!("{:?}", **got), format!("{want:?}"));
        }
        assert_eq!(
            (&answer.cwd, &answer.errors, &answer.version),
            (&whole.cwd, &whole.errors, &whole.version)
        );
    }

    /// One edit appended to a long session is the one edit reviewed; a
    /// late verdict reviews that edit and the later edits of its file
    /// (their content before chains from it), no other.
    #[test]
    fn only_what_changed_is_reviewed_again() {
        let n = 2000;
        let text: String = (0..n).map(|i| edit(i, (i != 4).then_some(true))).collect();
        let (fs, mut reader, mut live, first) = first_review(&text);
        let ask = |live: &mut LiveReview, reader: &AgentReader| ask_here(live, reader, &fs);
        assert_eq!(first.reviewed, n);
        assert_same_as_whole(&first, &reader, &fs);
        assert_eq!(first.reviews[24].basis, None, "chained from a pending edit");
        // One more edit, still running, then its verdict.
        live.note(&reader.feed(edit(n, None).as_bytes()));
        let appended = ask(&mut live, &reader);
        assert_eq!(appended.reviewed, 1);
        assert_same_as_whole(&appended, &reader, &fs);
        live.note(&reader.feed(cline_verdict(&format!("c{n}"), true).as_bytes()));
        let settled = ask(&mut live, &reader);
        assert_eq!(settled.reviewed, 1);
        assert_eq!(settled.reviews[n].ok(), Some(true));
        assert_same_as_whole(&settled, &reader, &fs);
        // Nothing changed: nothing reviewed, the same reviews.
        let again = ask(&mut live, &reader);
        assert_eq!(again.reviewed, 0);
        assert!(
            again
                .reviews
                .iter()
                .zip(&settled.reviews)
                .all(|(a, b)| Arc::ptr_eq(a, b))
        );
        // Edit 5's verdict at last.
        live.note(&reader.feed(cline_verdict("c4", true).as_bytes()));
        let late = ask(&mut live, &reader);
        let same_file_after = (5..=n).filter(|i| i % FILES == 4).count();
        assert_eq!(late.reviewed, 1 + same_file_after);
        assert_eq!(
            late.reviews[24].basis,
            Some(super::super::review::Basis::Chained)
        );
        assert!(Arc::ptr_eq(&late.reviews[5], &again.reviews[5]));
        assert_same_as_whole(&late, &reader, &fs);
    }

    /// A request compares the shapes of the edits that may have changed
    /// only: the ones reported and the ones past the edits already chained
    /// (here the newest); with an edit still waiting for its verdict, the
    /// edits from it on. What it sends is what the whole review says.
    #[test]
    fn a_request_compares_only_the_edits_that_may_have_changed() {
        let n = 1000;
        let text: String = (0..n).map(|i| edit(i, Some(true))).collect();
        let (fs, mut reader, mut live, _) = first_review(&text);
        let ask = |live: &mut LiveReview, reader: &AgentReader| ask_here(live, reader, &fs);
        assert_eq!(live.shapes_compared, n);
        // A new edit, still running: that one alone.
        live.note(&reader.feed(edit(n, None).as_bytes()));
        let appended = ask(&mut live, &reader);
        assert_eq!((live.shapes_compared, appended.reviewed), (n + 1, 1));
        assert_same_as_whole(&appended, &reader, &fs);
        // Its verdict: that one again.
        live.note(&reader.feed(cline_verdict(&format!("c{n}"), true).as_bytes()));
        let settled = ask(&mut live, &reader);
        assert_eq!((live.shapes_compared, settled.reviewed), (n + 2, 1));
        assert_same_as_whole(&settled, &reader, &fs);
        // Nothing new: nothing compared.
        ask(&mut live, &reader);
        assert_eq!(live.shapes_compared, n + 2);
        // Two more, the first without its verdict: the edits from it on are
        // compared until it has one (a later edit of its file chains from
        // it without an event).
        let more = format!("{}{}", edit(n + 1, None), edit(n + 2, Some(true)));
        live.note(&reader.feed(more.as_bytes()));
        ask(&mut live, &reader);
        assert_eq!(live.shapes_compared, n + 4);
        live.note(&reader.feed(edit(n + 3, Some(true)).as_bytes()));
        ask(&mut live, &reader);
        assert_eq!(live.shapes_compared, n + 4 + 3);
        live.note(&reader.feed(cline_verdict(&format!("c{}", n + 1), true).as_bytes()));
        let chained = ask(&mut live, &reader);
        assert_eq!(live.shapes_compared, n + 7 + 3);
        assert_same_as_whole(&chained, &reader, &fs);
        ask(&mut live, &reader);
        assert_eq!(
            live.shapes_compared,
            n + 10,
            "all chained: nothing compared"
        );
    }

    /// Edits the reviewer looked at, ever, and the edits whose review
    /// read a current file (looked at by every request).
    fn looked_at(live: &LiveReview) -> (usize, std::collections::BTreeSet<usize>) {
        match &live.runs {
            Runs::Here(engine) => (engine.edits_looked_at, engine.reading.clone()),
            _ => unreachable!("reviewed in this thread"),
        }
    }

    /// The reviewer looks at the edits that may have changed only: the
    /// new ones, an edit given its verdict and the later edits of its file,
    /// a failed edit whose file a later edit now writes (nothing wrote
    /// over it before: its review changes), and the edits whose review
    /// read a current file; never the whole session. What it answers is
    /// what the whole review says.
    #[test]
    fn a_review_looks_only_at_the_edits_that_may_have_changed() {
        let n = 1000;
        // The last edit of f7.txt failed; edit 5 waits for its verdict.
        let failed = n - FILES + 7;
        let verdict = |i: usize| match i {
            4 => None,
            i if i == failed => Some(false),
            _ => Some(true),
        };
        let text: String = (0..n).map(|i| edit(i, verdict(i))).collect();
        let (fs, mut reader, mut live, first) = first_review(&text);
        let ask = |live: &mut LiveReview, reader: &AgentReader| ask_here(live, reader, &fs);
        let (looked, reading) = looked_at(&live);
        assert_eq!((looked, first.reviewed), (n, n));
        assert_same_as_whole(&first, &reader, &fs);
        // The later edits of f4.txt chain from a pending edit: their
        // reviews read the current file.
        let f4_after: std::collections::BTreeSet<usize> =
            (5..n).filter(|i| i % FILES == 4).collect();
        assert!(f4_after.is_subset(&reading), "{reading:?}");
        // A new edit: that one, and the ones reading a current file.
        live.note(&reader.feed(edit(n, Some(true)).as_bytes()));
        let appended = ask(&mut live, &reader);
        let (now, reading) = looked_at(&live);
        assert_eq!((now - looked, appended.reviewed), (1 + reading.len(), 1));
        assert_same_as_whole(&appended, &reader, &fs);
        // Edit 5's verdict: it, and the later edits of its file (their
        // content before chains from it).
        live.note(&reader.feed(cline_verdict("c4", true).as_bytes()));
        let late = ask(&mut live, &reader);
        let (looked, reading_after) = (now, reading);
        let (now, reading) = looked_at(&live);
        let mut want: std::collections::BTreeSet<usize> = f4_after.clone();
        want.insert(4);
        want.extend(&reading_after);
        assert_eq!(
            (now - looked, late.reviewed),
            (want.len(), 1 + f4_after.len())
        );
        assert_same_as_whole(&late, &reader, &fs);
        // The failed edit's file no later edit wrote, until now: the new
        // edit of f7.txt, still running, changes its review too.
        let looked = now;
        let unwritten_before = late.reviews[failed].clone();
        let f7 = n + 1 + (FILES + 7 - (n + 1) % FILES) % FILES;
        let more: String = (n + 1..=f7)
            .map(|i| edit(i, (i != f7).then_some(true)))
            .collect();
        live.note(&reader.feed(more.as_bytes()));
        let written = ask(&mut live, &reader);
        let (now, _) = looked_at(&live);
        let mut want: std::collections::BTreeSet<usize> = (n + 1..=f7).collect();
        want.insert(failed);
        want.extend(&reading);
        assert_eq!((now - looked, written.reviewed), (want.len(), f7 - n + 1));
        assert!(!Arc::ptr_eq(&written.reviews[failed], &unwritten_before));
        assert_same_as_whole(&written, &reader, &fs);
    }

    /// A file read live that changed reviews its edit again; an edit
    /// that ran on the current file is reviewed again when that file
    /// changes.
    #[test]
    fn a_file_that_changed_reviews_its_edits_again() {
        let text = format!(
            "{}{}",
            cline_edit("c1", "a.py", "x = 1", "x = 2", None),
            cline_edit("c2", "b.py", "y = 1", "y = 2", Some(true))
        );
        let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson);
        let mut live = LiveReview::new();
        live.note(&reader.feed(text.as_bytes()));
        let mut files = memory(&[("b.py", "y = 1\n")], &[]);
        let fs: SharedFs = Arc::new(memory(&[("b.py", "y = 1\n")], &[]));
        let mut on_disk = HashMap::new();
        let first = live
            .request(&reader, &on_disk, Arc::clone(&fs), Recovery::Full)
            .expect("answered");
        assert_eq!(first.reviewed, 2);
        assert_eq!(first.reviews[1].basis, Some(Basis::CurrentFile));
        // a.py as read when its edit was first seen.
        on_disk.insert(1, FileContent::Text("x = 1\n".into()));
        let read = live
            .request(&reader, &on_disk, Arc::clone(&fs), Recovery::Full)
            .expect("answered");
        assert_eq!(read.reviewed, 1);
        assert_eq!(read.reviews[0].basis, Some(Basis::LiveFile));
        // b.py changed on disk: its edit no longer applies there.
        files.files.insert("b.py".into(), "y = 7\n".into());
        let fs: SharedFs = Arc::new(files);
        let changed = live
            .request(&reader, &on_disk, Arc::clone(&fs), Recovery::Full)
            .expect("answered");
        assert_eq!(changed.reviewed, 1);
        assert_eq!(changed.reviews[1].basis, None);
        let whole = review_live(&reader, &*fs, Recovery::Full, &on_disk);
        for (got, want) in changed.reviews.iter().zip(&whole.reviews) {
            assert_eq!(format!("{:?}", **got), format!("{want:?}"));
        }
    }

    /// Off the caller's thread, answers come by message; requests sent
    /// while one runs are answered together, and only the newest answer
    /// is the latest.
    #[test]
    fn a_worker_answers_by_message_and_the_newest_answer_supersedes() {
        let (tx, rx) = mpsc::channel();
        let mut live = LiveReview::new();
        live.off_thread(move |answer| tx.send(answer).is_ok());
        let fs = workspace();
        let mut reader = reader();
        let text: String = (0..3).map(|i| edit(i, Some(true))).collect();
        live.note(&reader.feed(text.as_bytes()));
        let no_files = HashMap::new();
        assert!(
            live.request(&reader, &no_files, Arc::clone(&fs), Recovery::Full)
                .is_none()
        );
        live.note(&reader.feed(edit(3, Some(true)).as_bytes()));
        assert!(
            live.request(&reader, &no_files, Arc::clone(&fs), Recovery::Full)
                .is_none()
        );
        let mut answers = Vec::new();
        loop {
            let answer = rx
                .recv_timeout(std::time::Duration::from_secs(20))
                .expect("the worker answers");
            let latest = live.is_latest(&answer);
            answers.push(answer);
            if latest {
                break;
            }
        }
        let newest = answers.last().expect("an answer");
        assert_eq!((newest.generation, newest.reviews.len()), (2, 4));
        assert_eq!(answers.iter().map(|a| a.reviewed).sum::<usize>(), 4);
        assert_same_as_whole(newest, &reader, &fs);
    }
}
