//! `srview -` on an agent's live output, `srview --follow SESSION`, and
//! `srview session PATH` on a terminal: the previewer of every edit an
//! agent makes, as a [`Screen`]. The agent's output is read as it arrives
//! ([`LiveOutput`]: its format detected, a followed file's rewrites and a
//! torn last line handled, edits read by its [`AgentReader`]); every edit
//! is reviewed against the file's content before it (a [`LiveReview`]:
//! incremental, off the UI thread once the event loop runs) and listed
//! with the agent's verdict beside srview's; the edit shown gets the
//! single-file previewer's view.
//!
//! The agent writes its own edits: nothing is written here unless the user
//! presses `a` on an edit the agent did not apply (failed or never run),
//! and then only over the content srview applied it to.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_crossterm::crossterm::event::Event as TermEvent;

use super::run::{Flow, Screen};
use super::{Exit, Folded};
use crate::dialect::one_file::Target;
use crate::engine::Version;
use crate::sessions::browse::{self, SavedReview};
use crate::sessions::live::{LiveReview, Reviewed};
use crate::sessions::recover::SessionRoot;
use crate::sessions::review::{Basis, Recovery, Review};
use crate::source::agent::live::{LiveOutput, NOT_AN_AGENT, OutputNote};
use crate::source::agent::{AgentEvent, AgentReader, FileContent, Verdict};
use crate::source::patch_preview::input_blocks;
use crate::tui::app::agent::{AgentList, AgentMode, EditRow, accept_refusal};
use crate::tui::app::keymap::{self, Action, KeyScope};
use crate::tui::app::{App, Effect, Focus, Notice, StreamState, keys};
use crate::tui::view::{self, Caches, highlight::Syntaxes, theme::Theme};

/// The edit shown, and what it was built from.
struct Shown {
    seq: usize,
    /// The content before it was shown against (`None`: nothing, the
    /// content before is unknown).
    before: Option<String>,
    /// `before` is the file as srview read it from disk (what `a` must
    /// find there still).
    from_disk: bool,
    /// The content before is unknown: the app shows the edit's own text.
    text_only: bool,
    app: App,
    caches: Option<Caches>,
}

/// The agent previewer.
pub struct AgentEdits {
    list: AgentList,
    /// The agent's output as read so far: its format, its reader, what
    /// it says of a rewritten file or a torn last line.
    output: LiveOutput,
    /// Where the session's files are: `--cwd`, else the workspace the
    /// output records, else the current folder.
    cwd: Option<PathBuf>,
    root: SessionRoot,
    /// By seq: the file on disk when srview first saw the edit without a
    /// verdict (the agent had not written it yet).
    on_disk: HashMap<usize, FileContent>,
    /// The last review answered (kept on screen while the next runs).
    review: Option<Reviewed>,
    /// What the rows were built with beside the review (see
    /// [`AgentEdits::reviewed`]): how many verdicts the output lost,
    /// edits written, files read live.
    row_flags: (usize, usize, usize, usize),
    /// Who reviews, and what it was sent.
    reviews: LiveReview,
    /// A saved session's reviewer, in its place (see
    /// [`crate::sessions::browse`]): the reader's settled edits leave it.
    saved: Option<SavedReview>,
    /// Where the edit shown is found again when only what the list shows
    /// of it is kept.
    replay: Option<browse::Replay>,
    /// The agent's output has ended (a saved session read to its end);
    /// the list says so once the reviews that wait for the end are in.
    output_ended: bool,
    /// The whole reviews read again, newest last (at most [`FETCHED`]):
    /// by seq, with the hollow review they stand for.
    fetched: Vec<(usize, Arc<Review>, Arc<Review>)>,
    /// The next answer rebuilds the edit shown.
    show_anew: bool,
    shown: Option<Shown>,
    /// An accept held back for a loose match: `a` again writes.
    confirming: Option<usize>,
    written: Vec<PathBuf>,
    /// Edits written with `a`, by seq.
    written_seqs: std::collections::HashSet<usize>,
    syntaxes: Arc<Syntaxes>,
    area: Rect,
    /// A saved session still being read (see [`AgentEdits::loading`]).
    loading: Option<Loading>,
    /// While a saved session is read: its reading waits for this screen
    /// to take the text sent (and for the reviewer).
    reading: Option<browse::ReadingPace>,
    /// The gate's record of the workspace, joined to the edits.
    gate: GateRecord,
}

/// The gate's decisions (`.srview/gate.jsonl` of the workspace, read again
/// when it changes on disk), and each edit's join key.
#[derive(Default)]
struct GateRecord {
    /// The record file's size and modification time when read.
    stamp: Option<(u64, Option<std::time::SystemTime>)>,
    decisions: Vec<crate::gate::record::GateDecision>,
    /// Lines of the record that are no decision (the header says so).
    unreadable: usize,
    /// Bumped at each read that changed the decisions.
    generation: usize,
    /// By position, each edit's [`crate::gate::record::join_key`], kept
    /// while its review is the same.
    keys: Vec<Option<String>>,
}

impl GateRecord {
    /// Reads the record of the workspace `root` again when it changed.
    fn refresh(&mut self, root: &std::path::Path) {
        let path = crate::gate::spool::workspace_of(root).join(".srview/gate.jsonl");
        let stamp = std::fs::metadata(&path)
            .ok()
            .map(|m| (m.len(), m.modified().ok()));
        if stamp == self.stamp {
            return;
        }
        self.stamp = stamp;
        let (decisions, unreadable) = if stamp.is_some() {
            crate::gate::record::read_counted(root)
        } else {
            (Vec::new(), 0)
        };
        self.unreadable = unreadable;
        if decisions != self.decisions {
            self.decisions = decisions;
            self.generation += 1;
        }
    }
}

/// What a row says of the gate's decision: its words, a contradiction, its
/// short word, and the edit's review as the agent ran it where the gate
/// repaired it ([`crate::gate::record::as_run_listed`]).
type GateWords = (String, Option<String>, &'static str, Option<Review>);

/// How far a saved session the browser reads in pieces has been read.
#[derive(Debug, Clone, Copy)]
struct Loading {
    /// Bytes read before the browser started.
    before: u64,
    /// The file's size when opened.
    size: u64,
}

/// The notice a browser shows while it reads a saved session.
const LOADING: &str = "reading the session: ";

impl AgentEdits {
    /// A live previewer: edits arrive through [`Screen::on_text`].
    /// `source` names where they come from; `cwd`: `--cwd`.
    pub fn live(source: String, cwd: Option<PathBuf>) -> AgentEdits {
        let root = SessionRoot {
            root: cwd.clone().unwrap_or_else(|| PathBuf::from(".")),
        };
        AgentEdits {
            list: AgentList::new(source, true),
            output: LiveOutput::new(
                cwd.clone(),
                cwd.as_ref()
                    .map(|c| c.canonicalize().unwrap_or_else(|_| c.clone()))
                    .or_else(|| std::env::current_dir().ok())
                    .map(|c| c.to_string_lossy().into_owned()),
            ),
            cwd,
            root,
            on_disk: HashMap::new(),
            review: None,
            row_flags: (0, 0, 0, 0),
            reviews: LiveReview::new(),
            saved: None,
            replay: None,
            output_ended: false,
            fetched: Vec::new(),
            show_anew: false,
            shown: None,
            confirming: None,
            written: Vec::new(),
            written_seqs: std::collections::HashSet::new(),
            syntaxes: Arc::new(Syntaxes::load()),
            area: Rect::default(),
            loading: None,
            reading: None,
            gate: GateRecord::default(),
        }
    }

    /// A browser of a saved session, read whole (`reader` finished).
    pub fn session(source: String, reader: AgentReader, root: SessionRoot) -> AgentEdits {
        let mut screen = AgentEdits::live(source, Some(root.root.clone()));
        screen.list = AgentList::new(screen.list.source().clone(), false);
        if browse::reviews_as_it_settles(reader.kind()) {
            screen.saved = Some(SavedReview::new(reader.kind(), None, None));
        }
        screen.output_ended = true;
        let notes = screen.output.finished(reader);
        screen.say_notes(notes);
        screen.refresh(true);
        screen
    }

    /// A browser of a saved session still being read: `reader` has read
    /// its first `read` bytes (of `size`), listed at once; the rest
    /// arrives through [`Screen::on_text`] (`Feed::Rest`), listed as it is
    /// read, with a notice until its end. `cwd`: where the session's files
    /// are (`--cwd`), else the workspace the session names.
    #[cfg(test)]
    pub fn loading(
        source: String,
        reader: AgentReader,
        cwd: Option<PathBuf>,
        read: u64,
        size: u64,
    ) -> AgentEdits {
        AgentEdits::loading_from(source, reader, cwd, read, size, None)
    }

    /// [`AgentEdits::loading`] of the session file at `path`: the reviews
    /// of its edits keep only what the list shows, the edit shown is read
    /// again from the file (see [`crate::sessions::browse`]).
    pub fn loading_from(
        source: String,
        reader: AgentReader,
        cwd: Option<PathBuf>,
        read: u64,
        size: u64,
        path: Option<PathBuf>,
    ) -> AgentEdits {
        let mut screen = AgentEdits::live(source, cwd);
        let pace = browse::ReadingPace::start();
        if browse::reads_in_bounded_memory(reader.kind()) {
            screen.saved = Some(SavedReview::new(reader.kind(), path.clone(), Some(&pace)));
            screen.replay = browse::Replay::of(reader.kind(), path);
        }
        screen.reading = Some(pace);
        screen.list = AgentList::loading(screen.list.source().clone());
        screen.output.reading(reader);
        screen.loading = Some(Loading { before: read, size });
        screen.note_loading();
        screen.refresh(true);
        screen
    }

    /// Says how much of a saved session has been read; once all of it has,
    /// takes the notice away.
    fn note_loading(&mut self) {
        let Some(loading) = self.loading else { return };
        let ours = |list: &AgentList| {
            list.notice()
                .as_ref()
                .is_none_or(|n| !n.error && n.text.starts_with(LOADING))
        };
        if self.list.ended() {
            self.loading = None;
            if self.reading.take().is_some() {
                browse::give_back_freed_memory();
            }
            if ours(&self.list) {
                self.list.set_notice(None);
            }
            return;
        }
        if ours(&self.list) {
            let mib = |bytes: u64| bytes as f64 / f64::from(1 << 20);
            let read = loading.before + self.output.len() as u64;
            let (read, size) = (mib(read), mib(loading.size.max(read)));
            let text = if !self.reviews_at_the_end() {
                format!(
                    "{LOADING}{read:.0} of {size:.0} MiB read, the edits listed as they are read"
                )
            } else {
                let agent = self
                    .output
                    .reader()
                    .map_or("the agent", |r| r.kind().display_name());
                let why = format!(
                    "{agent}'s content before an edit is its file now with the later diffs undone"
                );
                if self.output_ended {
                    format!("{LOADING}all {size:.0} MiB read; reviewing the edits ({why})")
                } else {
                    format!(
                        "{LOADING}{read:.0} of {size:.0} MiB read, the edits listed as they are \
                         read; srview reviews them once all is read ({why})"
                    )
                }
            };
            self.say(&text, false);
        }
    }

    /// Problems met reading the output (as `srview session --list` says
    /// them on stderr).
    pub fn problems(&self) -> Vec<String> {
        self.output
            .reader()
            .map(|r| r.errors().iter().map(ToString::to_string).collect())
            .unwrap_or_default()
    }

    /// The output is the file at `path` (its name tells the format of
    /// Cline's and Codex's session files).
    pub fn following(mut self, path: &std::path::Path) -> AgentEdits {
        self.output.following(path);
        self
    }

    /// The folder the agent ran in, when its output does not name it
    /// (default: `--cwd`, else the current folder).
    #[cfg(test)]
    pub fn with_agent_cwd(mut self, dir: &str) -> AgentEdits {
        self.output.with_agent_cwd(dir);
        self
    }

    /// Files written with `a`.
    pub fn written(&self) -> &[PathBuf] {
        &self.written
    }

    /// One sentence per folder of the output's absolute paths taken as
    /// the same paths under `--cwd` (see
    /// [`AgentReader::with_existing`]), said on stderr at the end.
    pub fn mapped_paths(&self) -> Vec<String> {
        self.output
            .reader()
            .map(AgentReader::mapped_paths)
            .unwrap_or_default()
    }

    /// Whether the agent's output ended (stdin closed, a replay done).
    pub fn output_ended(&self) -> bool {
        self.list.ended()
    }

    /// What the reading of a saved session waits for, while it is read
    /// (for tests).
    #[cfg(test)]
    pub fn reading_pace(&self) -> Option<&browse::ReadingPace> {
        self.reading.as_ref()
    }

    /// The list's state (for tests).
    #[cfg(test)]
    pub fn list(&self) -> &AgentList {
        &self.list
    }

    /// Shows edit `seq` (from 1), as picking it in the list does.
    #[cfg(test)]
    pub fn select(&mut self, seq: usize) {
        if self.list.rows().iter().any(|r| r.seq == seq) {
            self.list.open(seq);
            self.show(true);
        }
    }

    /// The previewer of the edit shown (for tests).
    #[cfg(test)]
    pub fn shown_app(&self) -> Option<&App> {
        self.shown.as_ref().map(|s| &s.app)
    }

    /// Reads more of the agent's output. `replaced`: the whole output was
    /// rewritten (a followed file).
    fn take(&mut self, replaced: Option<String>, appended: &str, ended: bool) {
        let taken = self.output.take(replaced, appended, ended);
        self.say_notes(taken.notes);
        if ended {
            self.output_ended = true;
            // Reviewed at its end, a session has ended once those reviews
            // are in (see [`AgentEdits::reviewed`]).
            if !self.reviews_at_the_end() {
                self.list.end();
            }
        }
        self.list.set_bytes(self.output.len());
        let events = taken.events;
        if events.is_empty() {
            return;
        }
        self.reviews.note(&events);
        let read_a_file = self.snapshot_files();
        // An edit's input growing changes only that edit: its previewer
        // follows it, and the whole review waits for a change of shape (a
        // new edit, a verdict, an input complete, a file read).
        let still_streaming = |reader: &AgentReader, seq: usize| {
            reader
                .edits()
                .get(seq.wrapping_sub(1))
                .is_some_and(|e| e.streaming && !e.file.is_empty())
        };
        let only_growing = !read_a_file
            && self.saved.is_none()
            && self.review.is_some()
            && self.output.reader().is_some_and(|reader| {
                events.iter().all(|e| match e {
                    AgentEvent::Updated(seq) => still_streaming(reader, *seq),
                    _ => false,
                })
            });
        if only_growing {
            self.show(false);
        } else {
            self.refresh(false);
        }
    }

    /// The output is read again from its start: what was kept of the
    /// edits listed goes.
    fn restart(&mut self) {
        self.on_disk.clear();
        self.fetched.clear();
        self.review = None;
        self.shown = None;
        // Until the new text names edits, none is listed.
        self.list.set_rows(Vec::new());
    }

    /// Says what the output's reading said, in order.
    fn say_notes(&mut self, notes: Vec<OutputNote>) {
        for note in notes {
            match note {
                OutputNote::Say { text, error } => self.say(&text, error),
                OutputNote::Restarted => self.restart(),
                OutputNote::Recognised => {
                    if self
                        .list
                        .notice()
                        .as_ref()
                        .is_some_and(|n| n.text.starts_with(NOT_AN_AGENT))
                    {
                        self.list.set_notice(None);
                    }
                }
            }
        }
    }

    /// Reads the file of every edit seen for the first time without a
    /// verdict: the agent writes only once the edit is complete, so this is
    /// the content before it. Not for an edit after another of the same
    /// file (srview chains those), nor for formats written after the fact.
    /// Returns whether a file was read.
    fn snapshot_files(&mut self) -> bool {
        let Some(reader) = self.output.reader() else {
            return false;
        };
        // A saved session being read has no edit the agent has yet to
        // write: its verdict is further on in the file.
        if reader.format().row().after_the_fact || self.loading.is_some() {
            return false;
        }
        let mut read = false;
        let root = self.root_now();
        let edits = reader.edits();
        for (i, edit) in edits.iter().enumerate() {
            if edit.agent_verdict != Verdict::Pending
                || edit.file.is_empty()
                || self.on_disk.contains_key(&edit.seq)
                || edits[..i].iter().any(|e| e.file == edit.file)
            {
                continue;
            }
            let outside = std::path::Path::new(&edit.file).is_absolute()
                && !std::path::Path::new(&edit.file).starts_with(&root.root);
            match root.current(&edit.file) {
                // A path the agent wrote outside the workspace that is not
                // here: the agent's files are elsewhere, not new.
                Some(FileContent::Absent) if outside => {}
                Some(content) => {
                    self.on_disk.insert(edit.seq, content);
                    read = true;
                }
                None => {}
            }
        }
        read
    }

    /// Where the files are: `--cwd`, else the workspace the output names.
    fn root_now(&self) -> SessionRoot {
        if self.cwd.is_some() {
            return self.root.clone();
        }
        match self.output.reader().and_then(AgentReader::workspace) {
            Some(ws) => SessionRoot {
                root: PathBuf::from(ws),
            },
            None => self.root.clone(),
        }
    }

    /// Asks for the review of what changed; its answer (at once, or by
    /// message from the worker) rebuilds the rows and the edit shown.
    fn refresh(&mut self, force_show: bool) {
        self.root = self.root_now();
        let Some(reader) = self.output.reader() else {
            return;
        };
        self.show_anew |= force_show;
        let fs = Arc::new(self.root.clone());
        let ended = self.output_ended;
        let answer = match &mut self.saved {
            Some(saved) => match self.output.reader_mut() {
                Some(reader) => saved.request(reader, fs, ended),
                None => None,
            },
            None => self
                .reviews
                .request(reader, &self.on_disk, fs, Recovery::Full),
        };
        if let Some(answer) = answer {
            self.reviewed(answer);
        }
    }

    /// Whether the saved session's reviews wait for its end.
    fn reviews_at_the_end(&self) -> bool {
        self.saved
            .as_ref()
            .is_some_and(SavedReview::reviews_at_the_end)
    }

    /// A review answered: the rows and the edit shown rebuilt from it.
    fn reviewed(&mut self, review: Reviewed) {
        // The reviews a session read to its end waited for are in.
        let all_in = self.output_ended && !review.provisional && !self.list.ended();
        if all_in {
            self.list.end();
        }
        let force_show = std::mem::take(&mut self.show_anew);
        let version = match (&review.version, self.list.ended()) {
            (Some(v), _) => v.as_str(),
            (None, true) => "(version not named)",
            (None, false) => "(version not named yet)",
        };
        self.list.name_agent(review.agent.display_name(), version);
        // Only the rows of the edits reviewed again are built anew: an edit
        // not reviewed again is the same review (the same `Arc`) as before.
        // What a row takes from the screen (a verdict the output lost, an
        // edit written, a file read live) changing rebuilds them all.
        self.gate.refresh(&self.root.root);
        self.list
            .set_gate_note(crate::gate::record::unreadable_short(self.gate.unreadable));
        let flags = (
            self.output.verdict_missing().len(),
            self.written_seqs.len(),
            self.on_disk.len(),
            self.gate.generation,
        );
        let previous = self.review.take();
        let before = previous
            .as_ref()
            .filter(|p| self.row_flags == flags && p.reviews.len() == self.list.rows().len())
            .map(|p| p.reviews.as_slice())
            .unwrap_or_default();
        self.row_flags = flags;
        let shown_changed = self.list.selected().is_none_or(|seq| {
            let now = review_at(&review.reviews, seq);
            let then = review_at(before, seq);
            !matches!((now, then), (Some(a), Some(b)) if Arc::ptr_eq(a, b))
        });
        let gates = self.gate_words(&review, before);
        let gate_of = |i: usize| gates.get(i).and_then(Option::as_ref);
        let rows = self.list.rows();
        let changed: Vec<(usize, EditRow)> = review
            .reviews
            .iter()
            .enumerate()
            .filter(|(i, r)| {
                before.get(*i).is_none_or(|b| !Arc::ptr_eq(b, r))
                    || rows.get(*i).is_none_or(|row| {
                        (row.gate.as_ref(), row.gate_contradiction.as_ref())
                            != (
                                gate_of(*i).map(|g| &g.0),
                                gate_of(*i).and_then(|g| g.1.as_ref()),
                            )
                    })
            })
            .map(|(i, r)| (i, self.row_of(r, gate_of(i))))
            .collect();
        drop(previous);
        let len = review.reviews.len();
        self.review = Some(review);
        let moved = self.list.update_rows(len, changed);
        if moved && self.list.follow() && self.list.notice().as_ref().is_some_and(|n| !n.error) {
            // What a notice said was of the edit shown before.
            self.list.set_notice(None);
        }
        // The edit shown is built again only when its review changed (or
        // another is shown): an answer about other edits leaves it as it is.
        if force_show || moved || shown_changed || self.shown.is_none() {
            self.show(force_show || moved);
        }
        if all_in {
            self.note_loading();
        }
    }

    /// By position, the gate's decision about each edit of `review` the
    /// record joins, in words (empty when the record has none). `before`:
    /// the reviews of the last answer, whose edits' join keys are kept.
    fn gate_words(&mut self, review: &Reviewed, before: &[Arc<Review>]) -> Vec<Option<GateWords>> {
        // Only the session's own decisions join by input.
        let session = self.output.reader().map(|r| r.session_stamp().clone());
        let session = session.unwrap_or_default();
        let gate = &mut self.gate;
        if gate.decisions.is_empty() {
            gate.keys.clear();
            return Vec::new();
        }
        let reviews = &review.reviews;
        gate.keys.truncate(reviews.len());
        for (i, r) in reviews.iter().enumerate() {
            let same = i < gate.keys.len() && before.get(i).is_some_and(|b| Arc::ptr_eq(b, r));
            if same {
                continue;
            }
            let key = crate::gate::record::join_key(&r.edit);
            match gate.keys.get_mut(i) {
                Some(slot) => *slot = key,
                None => gate.keys.push(key),
            }
        }
        let agent = review.agent.display_name();
        crate::gate::record::join_session_keys(&gate.decisions, &gate.keys, &session)
            .into_iter()
            .zip(reviews)
            .map(|(d, r)| {
                d.map(|d| {
                    (
                        crate::gate::record::words(d),
                        crate::gate::record::contradiction(d, r.edit.agent_verdict, agent),
                        crate::gate::record::short_word(d),
                        crate::gate::record::as_run_listed(r, Some(d)),
                    )
                })
            })
            .collect()
    }

    /// The row of one reviewed edit, with what the screen knows of it.
    fn row_of(&self, r: &Review, gate: Option<&GateWords>) -> EditRow {
        let mut row = EditRow::of(gate.and_then(|g| g.3.as_ref()).unwrap_or(r));
        row.gate = gate.map(|g| g.0.clone());
        row.gate_short = gate.map(|g| g.2);
        row.gate_contradiction = gate.and_then(|g| g.1.clone());
        row.verdict_missing = self.output.verdict_missing().contains(&row.seq);
        row.written = self.written_seqs.contains(&row.seq);
        if row.basis.is_none() && r.before.is_some() && self.on_disk.contains_key(&row.seq) {
            row.basis = Some(Basis::LiveFile);
        }
        row
    }

    /// Edit `seq`'s review `r` as the agent ran it, where the gate's record
    /// says the gate repaired it ([`crate::gate::record::as_run_of`]).
    fn as_run(&self, seq: usize, r: &Review) -> Option<Review> {
        if self.gate.decisions.is_empty() {
            return None;
        }
        let at = review_index(&self.review.as_ref()?.reviews, seq)?;
        let session = self.output.reader().map(|r| r.session_stamp().clone());
        let joined = crate::gate::record::join_session_keys(
            &self.gate.decisions,
            &self.gate.keys,
            &session.unwrap_or_default(),
        );
        crate::gate::record::as_run_of(r, joined.get(at).copied().flatten())
    }

    /// The whole review of edit `seq`: the answer's, or, where the answer
    /// keeps only what the list shows of it, read again from the session
    /// file (the last [`FETCHED`] kept).
    fn full_review(&mut self, seq: usize) -> Option<Arc<Review>> {
        let review = self.review.as_ref()?;
        let at = review_index(&review.reviews, seq)?;
        let r = &review.reviews[at];
        if !review.hollow.get(at).copied().unwrap_or(false) {
            return Some(Arc::clone(r));
        }
        if let Some((_, _, whole)) = self
            .fetched
            .iter()
            .find(|(s, hollow, _)| *s == seq && Arc::ptr_eq(hollow, r))
        {
            return Some(Arc::clone(whole));
        }
        let how = self.replay.as_ref()?;
        let reader = self.output.reader()?;
        let fs = Arc::new(self.root.clone());
        let whole = Arc::new(browse::replay(how, (seq, at), reader, fs, &review.reviews)?);
        let hollow = Arc::clone(r);
        if self.fetched.len() >= FETCHED {
            self.fetched.remove(0);
        }
        self.fetched.push((seq, hollow, Arc::clone(&whole)));
        Some(whole)
    }

    /// Whether the review of edit `seq` keeps only what the list shows,
    /// and its whole review is not at hand.
    fn held_hollow(&self, seq: usize) -> bool {
        let Some(review) = &self.review else {
            return false;
        };
        let Some(at) = review_index(&review.reviews, seq) else {
            return false;
        };
        review.hollow.get(at).copied().unwrap_or(false)
            && !self
                .fetched
                .iter()
                .any(|(s, hollow, _)| *s == seq && Arc::ptr_eq(hollow, &review.reviews[at]))
    }

    /// Builds (or updates) the previewer of the edit selected; in the list,
    /// not for an edit whose whole review must be read again from the
    /// session (moving through the list reads nothing: the edit is read
    /// when opened, or when a key asks for its previewer).
    fn show(&mut self, anew: bool) {
        if self.list.mode() == AgentMode::List
            && self
                .list
                .selected()
                .is_some_and(|seq| self.held_hollow(seq))
        {
            self.shown = None;
            return;
        }
        self.show_edit(anew);
    }

    /// Builds (or updates) the previewer of the edit selected.
    fn show_edit(&mut self, anew: bool) {
        let Some(seq) = self.list.selected() else {
            self.shown = None;
            return;
        };
        let Some(r) = self.full_review(seq) else {
            self.shown = None;
            return;
        };
        // Shown as the agent ran it where the gate repaired it, as its row.
        let r = &self.as_run(seq, &r).map_or(r, Arc::new);
        let Some(review) = &self.review else {
            self.shown = None;
            return;
        };
        // A content read from disk now: the edit ran against the current
        // file, or needs no content before (a Write) but overwrites one.
        let on_disk_now = |root: &SessionRoot| match root.current(&r.edit.file) {
            Some(FileContent::Text(t)) => Some(t),
            _ => None,
        };
        let (before, from_disk): (Option<String>, bool) = match (&r.before, r.basis) {
            (Some(FileContent::Text(t)), _) => (Some(t.clone()), false),
            (Some(FileContent::Absent), _) => (Some(String::new()), false),
            (None, Some(Basis::CurrentFile)) => (on_disk_now(&self.root), true),
            (None, Some(Basis::NotNeeded)) => match on_disk_now(&self.root) {
                Some(t) => (Some(t), true),
                None => (Some(String::new()), false),
            },
            _ => (None, false),
        };
        // A complete edit whose content before is unknown still shows
        // its own text (as `s` saves it).
        let own_text = before
            .is_none()
            .then(|| {
                let e = &r.edit;
                (!e.streaming && !e.file.is_empty())
                    .then(|| e.input.text())
                    .flatten()
            })
            .flatten();
        let keep = !anew
            && self.shown.as_ref().is_some_and(|s| {
                s.seq == seq && s.before == before && s.text_only == own_text.is_some()
            });
        if !keep {
            let (path, original) = match &own_text {
                Some(text) => (
                    self.root
                        .path(&format!("{} (the edit's text)", r.edit.file)),
                    text.clone(),
                ),
                None => (
                    self.root.path(&r.edit.file),
                    before.clone().unwrap_or_default(),
                ),
            };
            let app = App::new(path, original, Version::V1);
            self.shown = Some(Shown {
                seq,
                before: before.clone(),
                from_disk,
                text_only: own_text.is_some(),
                app,
                caches: None,
            });
            self.confirming = None;
        }
        // `a` is offered only where it can write (a tester's find: the
        // footer offered it on edits the agent applied, where it refuses).
        let writable = self
            .list
            .rows()
            .iter()
            .find(|row| row.seq == seq)
            .is_some_and(|row| accept_refusal(row, "the agent").is_none());
        let Some(shown) = &mut self.shown else { return };
        shown.app.set_accept_offered(writable);
        // The edit as read now (the review's copy is from the last change
        // of shape; a streaming input has grown since).
        let fresh = self
            .output
            .reader()
            .and_then(|reader| reader.edits().get(seq - 1))
            .filter(|e| e.seq == seq)
            .unwrap_or(&r.edit);
        let name = std::path::Path::new(&fresh.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let cwd = review.cwd.clone();
        let ended = !fresh.streaming;
        shown.app.set_raw_input(raw_input(&fresh.input));
        let Some(before) = &before else {
            shown.app.set_diff(String::new());
            let why = if fresh.file.is_empty() {
                "waiting for the edit's path…".to_string()
            } else if fresh.streaming {
                "the edit is streaming; the content before it is not known yet".to_string()
            } else {
                r.why()
                    .unwrap_or("the content before this edit is unknown")
                    .to_string()
            };
            let why = if own_text.is_some() {
                format!("{why}. Shown: the edit's own text (s saves it)")
            } else {
                why
            };
            shown.app.note_state(why);
            if ended {
                shown.app.end_stream();
            }
            return;
        };
        // A complete edit srview gives no verdict on shows no blocks: they
        // would say more than the verdict stands behind. Except the diff an
        // agent recorded as applied (Codex app-server's `fileChange`): what
        // it did, shown when it applies exactly to the content before,
        // while the verdict on how the model's patch matched stays unknown.
        if ended
            && r.applied().is_none()
            && let Some(why) = r.why()
        {
            let recorded = match &fresh.input {
                crate::source::agent::EditInput::UnifiedDiff(diff)
                    if fresh.agent_verdict == Verdict::Applied =>
                {
                    crate::dialect::udiff::to_search_replace(diff)
                        .filter(|body| applies_exactly(body, before))
                        .map(|body| (body, "the diff the agent recorded as applied"))
                }
                // A tool call the agent applied otherwise than its input
                // says (corrected before applying it): the change the
                // output records, before to after; the model's own edit is
                // the raw input.
                crate::source::agent::EditInput::Call(_)
                    if fresh.agent_verdict == Verdict::Applied =>
                {
                    match fresh.after() {
                        Some(FileContent::Text(after)) => Some((
                            changed_lines_block(before, after),
                            "the change the agent's output records; v shows the model's own \
                             edit",
                        )),
                        _ => None,
                    }
                }
                _ => None,
            };
            match recorded {
                Some((body, what)) => {
                    // How the model's patch matched is not known: each block
                    // badged so, not with the engine's exact stage of the
                    // diff it shows (a tester's find, round 49 T-17).
                    let blocks = body.lines().filter(|l| *l == "------- SEARCH").count();
                    shown.app.place_blocks(
                        vec![Some(crate::tui::app::UNKNOWN_MATCH.to_string()); blocks],
                        Vec::new(),
                        crate::source::patch_preview::BlockNumbers::Unnumbered,
                    );
                    shown.app.set_diff(body);
                    shown
                        .app
                        .note_state(format!("{why}; the panes show {what}"));
                }
                None => {
                    shown.app.set_diff(String::new());
                    shown.app.note_state(why.to_string());
                }
            }
            shown.app.end_stream();
            if self.area.width > 0 {
                shown.app.fit(preview_area(self.area));
            }
            return;
        }
        let exists = !matches!(r.before, Some(FileContent::Absent));
        let target = Target {
            cwd: &cwd,
            name: &name,
            content: exists.then_some(before.as_str()),
        };
        // Drawn by the applier the session review ran: the agent's own
        // matcher where its table row names one (Cline CLI's apply_patch).
        match input_blocks(&fresh.runs_as(review.agent), &target, ended) {
            // A failed edit whose blocks the engine would still place (an
            // old text found twice, placed at its first) is not shown
            // applied: only why it fails.
            Ok(blocks) if blocks.refused && applies(&blocks.body, before) => {
                shown.app.set_diff(String::new());
                shown.app.note_state(blocks.note.unwrap_or_default());
            }
            Ok(blocks) => {
                shown.app.set_refused_by_reference(blocks.refused);
                shown
                    .app
                    .place_blocks(blocks.levels, blocks.hunk_lines, blocks.numbers);
                shown.app.set_block_leads(blocks.leads);
                shown.app.set_diff(blocks.body);
                // What the agent did beyond its verdict (a cut-off edit
                // applied, lines rewritten outside the edit) and what
                // srview's trust checks cannot stand behind (a stand-in for
                // code the edit leaves out, ...) with the note.
                let notes: Vec<String> = blocks
                    .note
                    .into_iter()
                    .chain(r.notices.iter().cloned())
                    .chain(r.doubts().iter().map(|d| format!("doubt: {}", d.message)))
                    .collect();
                if !notes.is_empty() {
                    shown.app.note_state(notes.join("; "));
                }
            }
            Err(why) => {
                shown.app.set_diff(String::new());
                shown.app.note_state(why.to_string());
            }
        }
        if ended {
            shown.app.end_stream();
        }
        if self.area.width > 0 {
            shown.app.fit(preview_area(self.area));
        }
    }

    /// `c` on an edit given as an edit's JSON or a patch section: the edit
    /// corrected in its own form (the JSON with the file's own text to
    /// find, the patch with its hunks rewritten, as `srview fix` gives
    /// them), not the SEARCH/REPLACE block the previewer shows it as.
    /// `None` for the other forms (their blocks are theirs to copy).
    fn copy_in_its_own_form(&mut self) -> Option<Flow> {
        use crate::dialect::Dialect;
        use crate::dialect::corrected::{Corrected, correct};
        use crate::source::agent::EditInput;
        let seq = self.shown.as_ref()?.seq;
        let r = self.full_review(seq)?;
        let shown = self.shown.as_ref()?;
        if shown.app.view().help || shown.app.view().raw {
            return None;
        }
        let review = self.review.as_ref()?;
        let (text, dialect) = match &r.edit.input {
            EditInput::Exact(edit) => (serde_json::to_string(edit).ok()?, Dialect::EditJson),
            EditInput::ApplyPatch(patch) => (patch.clone(), Dialect::ApplyPatch),
            _ => return None,
        };
        let block = shown.app.view().selected;
        let Some(before) = shown.before.as_deref() else {
            self.say_of_shown(
                "nothing copied: the content before this edit is unknown, so no correction \
                 can be checked",
                true,
            );
            return Some(Flow::Continue);
        };
        let name = std::path::Path::new(&r.edit.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let exists = !matches!(r.before, Some(FileContent::Absent));
        let target = Target {
            cwd: &review.cwd,
            name: &name,
            content: exists.then_some(before),
        };
        let said = match correct(&text, dialect, &target, &r.edit.file) {
            Ok(Corrected {
                text: Some(fixed),
                complete: true,
                ..
            }) if fixed.trim_end() != text.trim_end() => {
                return Some(Flow::Copy { block, text: fixed });
            }
            Ok(corrected) => corrected
                .note
                .unwrap_or_else(|| "the edit applies as written: nothing to correct".into()),
            Err(e) => e.to_string(),
        };
        self.say_of_shown(&format!("nothing copied: {said}"), true);
        Some(Flow::Continue)
    }

    /// `a`: writes srview's result of the edit shown, when the agent did
    /// not apply it, srview applies it, and the file still holds the
    /// content it was applied to.
    fn accept(&mut self) {
        let Some(mut row) = self.list.current().cloned() else {
            return self.say_of_shown("no edit to accept", true);
        };
        // What the output says now, not what the row had when it was last
        // built: the row is rebuilt when the review answers, which may come
        // after the output ended (seen once under load in CI: "has not
        // finished this edit" said of an edit whose verdict the output had
        // already lost).
        row.verdict_missing |= self.output.verdict_missing().contains(&row.seq);
        let agent = self.agent_name();
        if let Some(why) = accept_refusal(&row, agent) {
            return self.say_of_shown(&format!("not accepted: {why}"), true);
        }
        let Some(review) = self.full_review(row.seq) else {
            return;
        };
        use crate::diagnose::accept::{Case, Decision, Input, Why, accept};
        let applied = review.applied();
        let result = match applied {
            None => Err(review
                .why()
                .unwrap_or("srview could not run it")
                .to_string()),
            Some(applied) if !applied.ok() => Err("srview's applier fails this edit too".into()),
            // The edit's old text is in the file, but nothing says the
            // file is as it was before the edit: it may hold it already.
            Some(_) if review.basis == Some(Basis::CurrentFile) => Err(
                "the content before this edit is unknown, so srview cannot tell whether the \
                 file already holds it"
                    .into(),
            ),
            Some(applied) => Ok(match applied.new_content() {
                Some(FileContent::Text(new)) => Some(new),
                _ => None,
            }),
        };
        let path = self.root.path(&row.file);
        let expected: Option<Vec<u8>> = match &review.before {
            Some(FileContent::Text(t)) => Some(t.clone().into_bytes()),
            Some(FileContent::Absent) => None,
            // The file as srview read it to show the edit.
            None => self
                .shown
                .as_ref()
                .filter(|s| s.seq == row.seq && s.from_disk)
                .and_then(|s| s.before.clone())
                .map(String::into_bytes),
        };
        // Checked before asking, and again as it is written.
        let on_disk = if expected.is_none() && path.exists() {
            Err(format!(
                "{} exists now; the edit expected no file",
                path.display()
            ))
        } else {
            let loaded = match &expected {
                Some(bytes) => crate::output::Loaded::Holding(bytes),
                None => crate::output::Loaded::Missing,
            };
            crate::output::check_unchanged(&path, loaded).map_err(|e| {
                format!(
                    "{} does not hold the content this edit ran against: {e}",
                    path.display()
                )
            })
        };
        // An edit the agent did not apply is written after the fact: asked
        // first, with what was checked.
        let loose = applied.map(|a| a.loose.clone()).unwrap_or_default();
        let how = if loose.is_empty() {
            "srview's applier applies it".to_string()
        } else {
            format!(
                "srview's applier applies it, but only loosely ({})",
                loose.join(", ")
            )
        };
        let against = review
            .basis
            .map(crate::tui::view::agent::basis_words)
            .unwrap_or("the file read when the edit was shown");
        let not = match row.agent {
            Verdict::NotRun => "never ran",
            _ => "failed",
        };
        // srview's trust checks of its result, as `apply --write` holds
        // it back for them: said first, so that the question never reads
        // as an all-clear (a tester's find, round 49 T-15: a misindented
        // Python edit pi never ran was written on "Checked: ...").
        let doubts: Vec<String> = applied
            .map(|a| a.doubts.iter().map(|d| d.message.clone()).collect())
            .unwrap_or_default();
        let question = if doubts.is_empty() {
            format!(
                "press a again to write edit {} to {} (any other key leaves it). Checked: \
                 {agent} {not} it; {how}; the file still holds the content it ran against ({against})",
                row.seq,
                path.display()
            )
        } else {
            format!(
                "in doubt: {}: press a again to write edit {} to {} anyway (any other key \
                 leaves it). Checked: {agent} {not} it; {how}; the file still holds the \
                 content it ran against ({against})",
                doubts.join("; "),
                row.seq,
                path.display()
            )
        };
        let new = match &result {
            Ok(Some(new)) => new.to_string(),
            _ => String::new(),
        };
        let decision = accept(Case {
            input: Input::Whole,
            result: result.map(|new| new.map(String::as_str)),
            before: None,
            deletes: false,
            on_disk,
            // A file with other names (hard links) is said in the question.
            doubts: std::iter::once(question)
                .chain(crate::output::hard_link_doubt(&path))
                .collect(),
            answered: self.confirming == Some(row.seq),
        });
        match decision {
            Decision::Write => {}
            Decision::Ask(question) => {
                self.confirming = Some(row.seq);
                let warn = !loose.is_empty() || !doubts.is_empty();
                return self.say_of_shown(&question.join("; "), warn);
            }
            Decision::Refuse(Why::Deletes) => {
                return self.say_of_shown("not accepted: srview does not delete files", true);
            }
            Decision::Refuse(
                Why::Refused(why) | Why::CutOff(why) | Why::Unreadable(why) | Why::NotAsLoaded(why),
            ) => return self.say_of_shown(&format!("not accepted: {why}"), true),
            Decision::Refuse(Why::Unchanged) => return,
        }
        self.confirming = None;
        match crate::output::write_atomic(&path, new.as_bytes(), expected.as_deref()) {
            Ok(_) => {
                self.say_of_shown(&format!("wrote {}", path.display()), false);
                self.written.push(path);
                self.written_seqs.insert(row.seq);
                // The edit stays reviewed against the content it ran
                // against, not the file it has just written (which would
                // read as the edit failing, or applied already).
                let before = match expected {
                    Some(bytes) => FileContent::Text(String::from_utf8_lossy(&bytes).into_owned()),
                    None => FileContent::Absent,
                };
                self.on_disk.insert(row.seq, before);
                self.refresh(false);
            }
            Err(e) => self.say_of_shown(&format!("not accepted: {e}"), true),
        }
    }

    /// `s`: saves the selected edit's own text (its SEARCH/REPLACE
    /// blocks, patch section, edit JSON, whole content or unified diff) to
    /// `srview-edit-N.EXT` in the current folder, never over an existing
    /// file (`srview-edit-N-2.EXT`... instead), and says where.
    fn save_text(&mut self) {
        let Some(seq) = self.list.selected() else {
            return self.say("no edit to save", true);
        };
        let edit = self.full_review(seq).map(|r| r.edit.clone());
        let Some(edit) = edit else {
            return self.say("no edit to save", true);
        };
        let agent = self.agent_name();
        let Some(text) = edit.input.text() else {
            return self.say(
                &format!("edit {seq}: {agent}'s output does not record the edit's text"),
                true,
            );
        };
        let dir = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        match save_new(&dir, seq, text_extension(&edit.input), &text) {
            Ok(path) => {
                let still = if edit.streaming {
                    " (as far as it has arrived)"
                } else {
                    ""
                };
                self.say(
                    &format!("saved edit {seq}'s text{still} to {}", path.display()),
                    false,
                );
            }
            Err(e) => self.say(&format!("edit {seq}'s text was not saved: {e}"), true),
        }
    }

    /// [`AgentEdits::say`] of the edit shown: the notice goes once the
    /// agent moves on with it or another edit is shown.
    /// The agent's name, once its output says it.
    fn agent_name(&self) -> &'static str {
        self.review
            .as_ref()
            .map(|r| r.agent.display_name())
            .unwrap_or("the agent")
    }

    fn say_of_shown(&mut self, text: &str, error: bool) {
        self.list.say_of_shown(text.to_string(), error);
    }

    fn say(&mut self, text: &str, error: bool) {
        self.list.set_notice(Some(Notice {
            text: text.to_string(),
            error,
        }));
    }
}

/// How many whole reviews read again from the session are kept.
const FETCHED: usize = 8;

/// The position of edit `seq` in `reviews` (see [`review_at`]).
fn review_index(reviews: &[Arc<Review>], seq: usize) -> Option<usize> {
    match seq.checked_sub(1) {
        Some(i) if reviews.get(i).is_some_and(|r| r.edit.seq == seq) => Some(i),
        _ => reviews.iter().position(|r| r.edit.seq == seq),
    }
}

/// The review of edit `seq` in `reviews` (in the agent's order, numbered
/// from 1: found at `seq - 1` unless some are missing).
fn review_at(reviews: &[Arc<Review>], seq: usize) -> Option<&Arc<Review>> {
    match seq.checked_sub(1).and_then(|i| reviews.get(i)) {
        Some(r) if r.edit.seq == seq => Some(r),
        _ => reviews.iter().find(|r| r.edit.seq == seq),
    }
}

/// The extension a saved edit text gets, by its form.
fn text_extension(input: &crate::source::agent::EditInput) -> &'static str {
    use crate::source::agent::EditInput;
    match input {
        EditInput::SearchReplace(_) | EditInput::UnifiedDiff(_) => "diff",
        EditInput::ApplyPatch(_) => "patch",
        EditInput::Exact(_) | EditInput::Partial(_) => "json",
        EditInput::Call(call) if call.input.get("reply").is_some() => "md",
        EditInput::Call(_) => "json",
        EditInput::Whole(_) | EditInput::NotRecorded => "txt",
    }
}

/// Writes `text` to a new file `srview-edit-SEQ.EXT` in `dir` (or
/// `srview-edit-SEQ-2.EXT`, ... when that exists: an existing file is
/// never replaced), created exclusively. Returns its path.
fn save_new(dir: &std::path::Path, seq: usize, ext: &str, text: &str) -> std::io::Result<PathBuf> {
    use std::io::Write;
    for n in 1..=99 {
        let name = if n == 1 {
            format!("srview-edit-{seq}.{ext}")
        } else {
            format!("srview-edit-{seq}-{n}.{ext}")
        };
        let path = dir.join(name);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(mut f) => {
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|()| f.sync_all()) {
                    // No half-written file left behind.
                    let _ = std::fs::remove_file(&path);
                    return Err(e);
                }
                return Ok(path);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other(format!(
        "srview-edit-{seq}.{ext} and 98 numbered copies exist already"
    )))
}

/// The edit as the agent gave it when the previewer shows it as blocks of
/// its own making, for `v`: its patch section, edit JSON (as the tool's
/// input), new content or unified diff. `None` for a SEARCH/REPLACE edit:
/// its blocks are the edit itself.
fn raw_input(input: &crate::source::agent::EditInput) -> Option<String> {
    use crate::source::agent::EditInput;
    match input {
        EditInput::SearchReplace(_) => None,
        EditInput::ApplyPatch(text) | EditInput::Whole(text) | EditInput::UnifiedDiff(text) => {
            Some(text.clone())
        }
        EditInput::Exact(edit) => serde_json::to_string_pretty(edit).ok(),
        EditInput::Call(call) => Some(call.text()),
        EditInput::Partial(_) => Some("(the edit's JSON input is still arriving)".into()),
        EditInput::NotRecorded => {
            Some("(the agent's output names the file only, not the edit)".into())
        }
    }
}
/// One SEARCH/REPLACE block making `before` into `after`: the lines that
/// differ with two lines of context each side, or the whole file when that
/// block does not apply exactly to `before` (its text found twice).
fn changed_lines_block(before: &str, after: &str) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let (head, tail) = crate::textdiff::shared_ends(&old, &new);
    let from = head.saturating_sub(2);
    let keep_tail = tail.saturating_sub(2);
    let block = |search: &str, replace: &str| {
        let newline = |t: &str| {
            if t.is_empty() || t.ends_with('\n') {
                ""
            } else {
                "\n"
            }
        };
        format!(
            "------- SEARCH\n{search}{}=======\n{replace}{}+++++++ REPLACE\n",
            newline(search),
            newline(replace)
        )
    };
    let body = block(
        &old[from..old.len() - keep_tail].concat(),
        &new[from..new.len() - keep_tail].concat(),
    );
    if applies_exactly(&body, before) {
        body
    } else {
        block(before, after)
    }
}

/// Whether the engine applies `body` to `original` (final mode).
fn applies(body: &str, original: &str) -> bool {
    let options = crate::engine::Options {
        version: Version::V1,
        is_final: true,
    };
    !body.is_empty() && crate::engine::apply(body, original, options).result.is_ok()
}

/// Whether every block of `body` applies to `original` at the exact stage
/// (final mode): a recorded diff that fits the content as it stands.
fn applies_exactly(body: &str, original: &str) -> bool {
    let options = crate::engine::Options {
        version: Version::V1,
        is_final: true,
    };
    let outcome = crate::engine::apply(body, original, options);
    !body.is_empty()
        && outcome.result.is_ok()
        && outcome
            .blocks
            .iter()
            .all(|b| b.stage == Some(crate::engine::Stage::Exact))
}

/// The edit previewer's area within the screen's.
fn preview_area(area: Rect) -> Rect {
    let top = view::agent::PREVIEW_HEADER_ROWS.min(area.height);
    Rect::new(area.x, area.y + top, area.width, area.height - top)
}

impl Screen for AgentEdits {
    fn on_resize(&mut self, area: Rect) {
        self.area = area;
        if let Some(shown) = &mut self.shown {
            shown.app.fit(preview_area(area));
        }
    }

    fn on_event(&mut self, event: TermEvent) -> Flow {
        let key = match event {
            TermEvent::Key(k) => k,
            TermEvent::Mouse(m) => {
                if self.list.mode() == AgentMode::Preview
                    && let Some(shown) = &mut self.shown
                {
                    super::on_mouse(&mut shown.app, m);
                }
                return Flow::Continue;
            }
            _ => return Flow::Continue,
        };
        // A search query being typed takes every key (`q`, `[` and the
        // digits included).
        if self.list.mode() == AgentMode::Preview
            && let Some(shown) = &mut self.shown
            && shown.app.search_typing()
        {
            keys::on_key_in(&mut shown.app, key, KeyScope::Agent);
            return Flow::Continue;
        }
        let busy = self.shown.as_ref().is_some_and(|s| {
            s.app.view().help
                || s.app.view().focus == Focus::Blocks
                || s.app.final_preview()
                || s.app.view().search.is_some()
                || s.app.view().raw
        });
        let answer = self.list.on_key(key, busy);
        if answer != Some(Effect::WriteEdit) {
            // Only `a` right after the question writes.
            self.confirming = None;
        }
        match answer {
            Some(Effect::SaveText) => {
                self.save_text();
                Flow::Continue
            }
            // Nothing an agent wrote was read: not a success.
            Some(Effect::Quit(_)) if self.output.reader().is_none() => Flow::Exit(Exit::Quit(1)),
            Some(Effect::Show) => {
                self.show(true);
                Flow::Continue
            }
            Some(Effect::WriteEdit) => {
                self.accept();
                Flow::Continue
            }
            Some(other) => Flow::of(other),
            None => {
                // A key for the previewer of an edit the list has not
                // built (its whole review is read again first).
                if self.shown.is_none() && self.list.selected().is_some() {
                    self.show_edit(true);
                }
                let action = keymap::lookup(KeyScope::Agent, key);
                // The final mode of an edit still arriving would apply the
                // blocks cut where its input stops: no edit the agent makes.
                if action == Some(Action::FinalView)
                    && self.shown.as_ref().is_some_and(|s| !s.app.final_preview())
                    && self.list.current().is_some_and(|row| row.streaming)
                {
                    let agent = self.agent_name();
                    self.say_of_shown(
                        &format!(
                            "no final result yet: {agent} is still writing this edit, and the \
                             preview follows it as it arrives"
                        ),
                        false,
                    );
                    return Flow::Continue;
                }
                // What `a` writes here is the agent's edit whole: one
                // diff's `x` is said to be one diff's.
                if action.is_none()
                    && keymap::lookup(KeyScope::SingleDiff, key) == Some(Action::LeaveOut)
                    && self.shown.as_ref().is_some_and(|s| !s.app.view().help)
                {
                    self.say_of_shown(keys::NO_LEAVING_OUT, false);
                    return Flow::Continue;
                }
                if action == Some(Action::CopyCorrected)
                    && let Some(flow) = self.copy_in_its_own_form()
                {
                    return flow;
                }
                let Some(shown) = &mut self.shown else {
                    return Flow::Continue;
                };
                match keys::on_key_in(&mut shown.app, key, KeyScope::Agent) {
                    Effect::Quit(_) => Flow::Exit(Exit::Quit(0)),
                    // The agent's edits are re-read as they come; FILE is
                    // not this previewer's to reload or accept (`Flow::of`
                    // leaves those).
                    other => Flow::of(other),
                }
            }
        }
    }

    fn on_text(&mut self, text: Folded) -> Option<StreamState> {
        let changed = text.changes_text();
        if let Some(problem) = text.problem {
            self.say(&problem, true);
        }
        if let Some(why) = text.unreadable {
            self.list.mark_unreadable();
            self.say(&format!("the agent's output is unreadable: {why}"), true);
        }
        if let Some(pace) = &self.reading {
            // Taken now: the reading sends on while this is read.
            pace.taken(text.appended.len());
        }
        if changed || text.ended {
            self.take(text.replaced, &text.appended, text.ended);
            self.note_loading();
        }
        changed.then_some(if self.list.ended() {
            StreamState::Ended
        } else {
            StreamState::Streaming
        })
    }

    fn show_notice(&mut self, notice: Notice) {
        self.list.set_notice(Some(notice));
    }

    /// Reviews run on a worker from now on: the screen keeps the last
    /// rows while one runs, and takes the newest answer only.
    fn connect(&mut self, events: &std::sync::mpsc::SyncSender<crate::tui::event::Event>) {
        let events = events.clone();
        let answer = move |answer| {
            events
                .send(crate::tui::event::Event::Reviewed(Box::new(answer)))
                .is_ok()
        };
        match &mut self.saved {
            Some(saved) => saved.off_thread(answer),
            None => self.reviews.off_thread(answer),
        }
    }

    fn on_reviewed(&mut self, answer: Reviewed) {
        // An older answer: the input changed since, a newer one follows.
        let latest = match &self.saved {
            Some(saved) => saved.is_latest(&answer),
            None => self.reviews.is_latest(&answer),
        };
        if latest {
            self.reviewed(answer);
        }
    }

    /// A quiet output does not make the edit shown final: its input ends
    /// only when the agent closes it (a pause in the middle of its old
    /// text read as a finished SEARCH/REPLACE diff showed a block the
    /// edit "drops"). The edit stays streaming until then.
    fn pause(&mut self) {}

    fn idle_pending(&self) -> bool {
        self.list.mode() == AgentMode::Preview
            && self.shown.as_ref().is_some_and(|s| s.app.diagnosis_stale())
    }

    fn idle(&mut self) {
        if let Some(shown) = &mut self.shown {
            shown.app.diagnose();
        }
    }

    fn render(&mut self, frame: &mut Frame, theme: &Theme) {
        let shown = self.shown.as_mut().map(|s| {
            let caches = s
                .caches
                .get_or_insert_with(|| Caches::new(Arc::clone(&self.syntaxes), &s.app));
            (&s.app, caches)
        });
        view::agent::render(frame, &self.list, shown, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn text(s: &str, ended: bool) -> Folded {
        Folded {
            appended: s.to_string(),
            ended,
            ..Folded::default()
        }
    }

    /// A workspace holding `a.py` (`x = 1`) and a live previewer over it,
    /// the agent run there.
    fn over_a_py() -> (tempfile::TempDir, AgentEdits) {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.py"), "x = 1\n").expect("write");
        let screen = AgentEdits::live("stdin".into(), Some(dir.path().to_path_buf()))
            .with_agent_cwd(&dir.path().to_string_lossy());
        (dir, screen)
    }

    /// A Cline CLI stream whose `editor` edit of a.py the agent failed.
    const FAILED_EDIT: &str = concat!(
        r#"{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"c1","input":{"path":"a.py","old_text":"x = 1","new_text":"x = 2"}}}"#,
        "\n",
        r#"{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"editor","toolCallId":"c1","output":{"success":false,"error":"timed out"}}}"#,
        "\n"
    );

    /// Edit `n` of a Cline CLI stream over a.py, b.py and c.py: its call
    /// and (when `verdict`) the agent's verdict, applied.
    fn nth_edit(n: usize, verdict: bool) -> String {
        let file = ["a.py", "b.py", "c.py"][n % 3];
        let call = FAILED_EDIT
            .split_inclusive('\n')
            .next()
            .unwrap_or_default()
            .replace("\"c1\"", &format!("\"c{n}\""))
            .replace("a.py", file);
        // Applied: a failed edit's review depends on whether a later edit
        // wrote its file, so a new edit of a.py reviews them all again.
        let end = FAILED_EDIT
            .split_inclusive('\n')
            .nth(1)
            .unwrap_or_default()
            .replace("\"c1\"", &format!("\"c{n}\""))
            .replace(
                r#"{"success":false,"error":"timed out"}"#,
                r#"{"success":true}"#,
            );
        if verdict { call + &end } else { call }
    }

    /// Following a long output, a new edit, then its verdict, each build
    /// only that edit's row (and the edit shown); the rows are those a
    /// previewer fed the whole output at once lists.
    #[test]
    fn a_new_edit_builds_only_its_own_row() {
        let (dir, mut screen) = over_a_py();
        std::fs::write(dir.path().join("b.py"), "x = 1\n").expect("write");
        let n = 300;
        let first: String = (0..n).map(|i| nth_edit(i, true)).collect();
        screen.on_text(text(&first, false));
        assert_eq!(screen.list().rows().len(), n);
        assert_eq!(screen.list().rows_touched, n);
        let touched = screen.list().rows_touched;
        screen.on_text(text(&nth_edit(n, false), false));
        assert_eq!(screen.list().rows().len(), n + 1);
        assert_eq!(screen.list().rows_touched, touched + 1);
        assert_eq!(screen.list().current().map(|r| r.seq), Some(n + 1));
        let verdict = nth_edit(n, true)[nth_edit(n, false).len()..].to_string();
        screen.on_text(text(&verdict, false));
        assert_eq!(screen.list().rows_touched, touched + 2);
        // Nothing new: no row built.
        screen.refresh(false);
        assert_eq!(screen.list().rows_touched, touched + 2);
        let (dir2, mut whole) = over_a_py();
        std::fs::write(dir2.path().join("b.py"), "x = 1\n").expect("write");
        let all: String = (0..=n).map(|i| nth_edit(i, true)).collect();
        whole.on_text(text(&all, false));
        // Every field of every row, the temporary folders aside.
        let strip = |rows: &[EditRow], dir: &std::path::Path| -> Vec<String> {
            rows.iter()
                .map(|r| format!("{r:?}").replace(&*dir.to_string_lossy(), "DIR"))
                .collect()
        };
        assert_eq!(
            strip(screen.list().rows(), dir.path()),
            strip(whole.list().rows(), dir2.path())
        );
        assert_eq!(screen.list().files(), whole.list().files());
        assert_eq!(screen.list().counts(), whole.list().counts());
    }

    #[test]
    fn output_of_no_known_agent_is_said() {
        let mut screen = AgentEdits::live("stdin".into(), None);
        screen.on_text(text("hello world\n", true));
        let notice = screen.list().notice().clone().expect("a notice");
        assert!(notice.error);
        assert!(
            notice.text.starts_with(
                "not the output of an agent srview reads (Claude Code, Codex, Cline, Aider, Qwen Code, pi, OpenCode or Gemini CLI): it starts \"hello world\""
            ),
            "{}",
            notice.text
        );
        assert!(screen.list().rows().is_empty());
    }

    /// An edit the agent applied, previewed in a folder where its file does
    /// not exist, gets no verdict from srview (the agent had the file; this
    /// is not it): not a failure, and no disagreement with the agent.
    #[test]
    fn a_missing_file_read_live_is_no_content_before() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut screen = AgentEdits::live("stdin".into(), Some(dir.path().to_path_buf()))
            .with_agent_cwd(&dir.path().to_string_lossy());
        let applied = FAILED_EDIT.replace(
            r#""output":{"success":false,"error":"timed out"}"#,
            r#""output":{"success":true}"#,
        );
        assert_ne!(applied, FAILED_EDIT);
        // The edit first, then (later) the agent's verdict.
        let split = applied.find('\n').expect("two lines") + 1;
        screen.on_text(text(&applied[..split], false));
        screen.on_text(text(&applied[split..], true));
        let row = screen.list().current().cloned().expect("an edit");
        assert_eq!(row.disagreement, None, "{}", row.srview);
        assert!(!row.failed, "{}", row.srview);
        assert!(row.srview.starts_with("unknown"), "{}", row.srview);
    }

    /// The output going quiet while an edit's old text is arriving leaves
    /// the edit streaming: its blocks are not read as a finished diff (a
    /// SEARCH section that never reaches a separator, "dropped"), nor
    /// previewed as final.
    #[test]
    fn a_quiet_output_mid_edit_keeps_the_edit_streaming() {
        let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/agents/claude-code-2.1.328/a_edits_ok");
        let expected: serde_json::Value =
            serde_json::from_slice(&std::fs::read(fixture.join("expected.json")).expect("read"))
                .expect("JSON");
        let dir = tempfile::tempdir().expect("tempdir");
        let before = expected["edits"][0]["contentBefore"]
            .as_str()
            .expect("text");
        std::fs::write(dir.path().join("inventory.py"), before).expect("write");
        let mut screen = AgentEdits::live("stdin".into(), Some(dir.path().to_path_buf()))
            .with_agent_cwd("/home/user/project");
        let output = std::fs::read_to_string(fixture.join("stdout.jsonl")).expect("read");
        // Up to the line where the Edit's old_string is half arrived.
        let cut: String = output.split_inclusive('\n').take(34).collect();
        assert!(cut.contains("old_string") && !cut.contains("new_string"));
        screen.on_text(text(&cut, false));
        screen.pause();
        let shown = screen.shown.as_ref().expect("the streaming edit is shown");
        assert_eq!(shown.app.stream(), StreamState::Streaming);
        assert!(
            shown
                .app
                .outcome()
                .blocks
                .iter()
                .all(|b| b.state != crate::engine::BlockState::Dropped),
            "{:?}",
            shown.app.outcome().blocks
        );
        // `F` shows no final result of an edit still arriving: its blocks'
        // final mode is no edit the agent makes.
        use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        screen.on_event(TermEvent::Key(KeyEvent::new(
            KeyCode::Char('F'),
            KeyModifiers::SHIFT,
        )));
        let shown = screen.shown.as_ref().expect("still shown");
        assert!(!shown.app.final_preview());
        assert_eq!(
            screen.list().notice().as_ref().map(|n| n.text.as_str()),
            Some(
                "no final result yet: Claude Code is still writing this edit, and the preview \
                 follows it as it arrives"
            )
        );
        // Nor can a block be left out: `a` here writes the agent's edit whole.
        screen.on_event(TermEvent::Key(KeyEvent::new(
            KeyCode::Char('x'),
            KeyModifiers::NONE,
        )));
        let shown = screen.shown.as_ref().expect("still shown");
        assert!(shown.app.left_out().is_empty());
        assert_eq!(
            screen.list().notice().as_ref().map(|n| n.text.as_str()),
            Some(crate::tui::app::keys::NO_LEAVING_OUT)
        );
    }

    /// Cut inside the line holding the agent's verdict: the edit has no
    /// verdict (it may have been applied), and `a` writes nothing.
    #[test]
    fn an_output_cut_inside_the_verdict_line_leaves_no_verdict() {
        let (dir, mut screen) = over_a_py();
        let cut = FAILED_EDIT.len() - 30;
        screen.on_text(text(&FAILED_EDIT[..cut], true));
        let row = screen.list().current().cloned().expect("an edit");
        assert!(row.verdict_missing);
        assert_eq!(row.state(), crate::tui::app::agent::EditState::NoVerdict);
        screen.accept();
        let notice = screen.list().notice().clone().expect("a notice");
        assert!(
            notice.text.contains("cannot tell whether"),
            "{}",
            notice.text
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.py")).expect("read"),
            "x = 1\n"
        );
    }

    /// The hash of the output read in pieces is the hash of the whole: a
    /// followed file read whole again after it grew is read on, not again.
    #[test]
    fn a_followed_file_read_whole_again_after_it_grew_is_read_on() {
        let (_dir, mut screen) = over_a_py();
        let first_line = FAILED_EDIT.find('\n').expect("a line") + 1;
        screen.on_text(Folded {
            replaced: Some(FAILED_EDIT[..first_line].to_string()),
            ..Folded::default()
        });
        screen.on_text(Folded {
            replaced: Some(FAILED_EDIT.to_string()),
            ..Folded::default()
        });
        assert_eq!(screen.list().notice(), &None, "not read as a rewrite");
        let rows = &screen.list().rows();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].agent, Verdict::Failed);
        assert_eq!(rows[0].basis, Some(Basis::LiveFile));
    }

    /// A followed file truncated to nothing lists nothing, and says so.
    #[test]
    fn a_truncated_followed_file_is_read_again() {
        let (_dir, mut screen) = over_a_py();
        screen.on_text(Folded {
            replaced: Some(FAILED_EDIT.to_string()),
            ..Folded::default()
        });
        assert_eq!(screen.list().rows().len(), 1);
        screen.on_text(Folded {
            replaced: Some(String::new()),
            ..Folded::default()
        });
        assert!(screen.list().rows().is_empty());
        let notice = screen.list().notice().clone().expect("a notice");
        assert!(
            notice.text.contains("truncated or replaced"),
            "{}",
            notice.text
        );
    }

    #[test]
    fn an_empty_output_says_nothing_arrived() {
        let mut screen = AgentEdits::live("stdin".into(), None);
        screen.on_text(text("", true));
        assert_eq!(
            screen.list().notice().as_ref().map(|n| n.text.as_str()),
            Some("nothing arrived: the agent's output was empty")
        );
    }

    /// `c` on an edit given as JSON (a Cline CLI `editor` call) copies the
    /// corrected edit as the tool's JSON, not as the SEARCH/REPLACE block
    /// the previewer shows it as.
    #[test]
    fn c_copies_a_failed_edit_json_corrected_as_edit_json() {
        use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let (_dir, mut screen) = over_a_py();
        let typo = FAILED_EDIT.replace(r#""old_text":"x = 1""#, r#""old_text":"x  = 1""#);
        let (start, end) = typo.split_at(typo.find('\n').expect("a line") + 1);
        screen.on_text(text(start, false));
        screen.on_text(text(end, true));
        let press = |screen: &mut AgentEdits, code| {
            screen.on_event(TermEvent::Key(KeyEvent::new(code, KeyModifiers::NONE)))
        };
        press(&mut screen, KeyCode::Enter);
        screen.idle();
        assert_eq!(
            press(&mut screen, KeyCode::Char('c')),
            Flow::Copy {
                block: 0,
                text: "{\"tool\":\"editor\",\"path\":\"a.py\",\"old_text\":\"x = 1\",\
                       \"new_text\":\"x = 2\"}\n"
                    .into()
            }
        );
    }

    /// `a` writes srview's result of an edit the agent failed, over the
    /// content it was applied to, and never over a file changed since.
    #[test]
    fn accept_writes_a_failed_edit_only_over_the_content_it_ran_against() {
        let (dir, mut screen) = over_a_py();
        let file = dir.path().join("a.py");
        // The edit is seen first without a verdict: the file is read then.
        let (start, end) = FAILED_EDIT.split_at(FAILED_EDIT.find('\n').expect("a line") + 1);
        screen.on_text(text(start, false));
        screen.on_text(text(end, true));
        let row = screen.list().current().cloned().expect("an edit");
        assert_eq!(row.agent, Verdict::Failed);
        assert_eq!(row.basis, Some(Basis::LiveFile));
        assert_eq!(row.srview, "applies (exact)");
        assert_eq!(
            row.disagreement.as_deref(),
            Some("Cline CLI failed this edit; srview's exact-string edit applier applies it")
        );

        // Changed underneath: nothing written.
        std::fs::write(&file, "x = 1\ny = 0\n").expect("write");
        screen.accept();
        let notice = screen.list().notice().clone().expect("a notice");
        assert!(
            notice.error && notice.text.starts_with("not accepted"),
            "{}",
            notice.text
        );
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "x = 1\ny = 0\n"
        );

        // As it was: asked first, saying what was checked; any other key
        // leaves it; `a` right after the question writes, once.
        std::fs::write(&file, "x = 1\n").expect("write");
        screen.accept();
        let notice = screen.list().notice().clone().expect("a question");
        assert_eq!(
            notice.text,
            format!(
                "press a again to write edit 1 to {} (any other key leaves it). Checked: Cline \
                 CLI failed it; srview's applier applies it; the file still holds the content \
                 it ran against (the file before the agent wrote)",
                file.display()
            )
        );
        assert!(!notice.error);
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "x = 1\n");
        screen.on_event(TermEvent::Key(KeyEvent::new(
            KeyCode::Char('j'),
            KeyModifiers::NONE,
        )));
        screen.on_event(TermEvent::Key(KeyEvent::new(
            KeyCode::Char('a'),
            KeyModifiers::NONE,
        )));
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "x = 1\n",
            "another key in between: asked again, not written"
        );
        screen.accept();
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "x = 2\n");
        assert_eq!(screen.written(), std::slice::from_ref(&file));
    }

    /// `a` on an edit the agent failed whose result srview's trust checks
    /// doubt (Python left misindented) says the doubt first, in the trust
    /// check's words, never reading as an all-clear (a tester's find, round
    /// 49 T-15); `a` again writes it.
    #[test]
    fn accept_says_the_trust_checks_doubt_before_writing() {
        let (dir, mut screen) = over_a_py();
        let file = dir.path().join("a.py");
        let before = "def f():\n    x = 1\n    return x\n";
        std::fs::write(&file, before).expect("write");
        let misindent = FAILED_EDIT.replace(r#""new_text":"x = 2""#, r#""new_text":"  x = 2""#);
        let (start, end) = misindent.split_at(misindent.find('\n').expect("a line") + 1);
        screen.on_text(text(start, false));
        screen.on_text(text(end, true));
        screen.accept();
        let notice = screen.list().notice().clone().expect("a question");
        assert!(
            notice.error
                && notice.text.starts_with("in doubt: ")
                && notice
                    .text
                    .contains("Python refuses the file (IndentationError")
                && notice.text.contains("press a again to write edit 1 to ")
                && notice.text.contains(" anyway (any other key leaves it)"),
            "{}",
            notice.text
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), before);
        screen.accept();
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            "def f():\n      x = 2\n    return x\n"
        );
    }

    /// A failed edit judged against the file on disk (no later edit wrote
    /// it), written with `a`: it stays judged against the content it ran
    /// against, not the file it has just written (where it would read as
    /// failing, or applied already).
    #[test]
    fn an_edit_written_after_the_fact_keeps_its_verdict() {
        let (dir, mut screen) = over_a_py();
        let file = dir.path().join("a.py");
        screen.on_text(text(FAILED_EDIT, true));
        let before = screen.list().current().cloned().expect("an edit");
        assert_eq!(before.srview, "applies (exact)");
        screen.accept();
        screen.accept();
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "x = 2\n");
        let after = screen.list().current().cloned().expect("an edit");
        assert!(after.written);
        assert_eq!(after.srview, "applies (exact)", "{after:?}");
    }

    /// An edit whose content before is unknown still shows its text (the
    /// edit JSON here), said so.
    #[test]
    fn an_edit_whose_content_before_is_unknown_shows_its_own_text() {
        let dir = tempfile::tempdir().expect("tempdir");
        // b.py is not there: nothing tells what the edit ran against.
        let stream = FAILED_EDIT.replace("a.py", "b.py");
        let mut reader = AgentReader::new(
            crate::source::agent::AgentKind::ClineCli,
            crate::source::agent::Format::ClineCliJson,
        )
        .with_workspace(&dir.path().to_string_lossy());
        reader.feed(stream.as_bytes());
        reader.finish();
        let root = SessionRoot {
            root: dir.path().to_path_buf(),
        };
        let mut screen = AgentEdits::session("session".into(), reader, root);
        screen.select(1);
        let app = screen.shown_app().expect("an edit shown");
        let shown = app.original().text().to_string();
        assert!(
            shown.starts_with("{\"tool\":\"editor\",\"path\":\"b.py\""),
            "{shown}"
        );
        let note = app.notice().as_ref().expect("a note").text.clone();
        assert!(
            note.ends_with(". Shown: the edit's own text (s saves it)"),
            "{note}"
        );
    }

    /// The screen drawn on an 80x24 terminal, one string a row.
    fn drawn(screen: &mut AgentEdits) -> Vec<String> {
        use ratatui::backend::TestBackend;
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 24)).expect("terminal");
        let theme = Theme::new(crate::tui::view::theme::ColourMode::None);
        terminal
            .draw(|f| {
                screen.area = f.area();
                screen.render(f, &theme)
            })
            .expect("draw");
        let buf = terminal.backend().buffer();
        (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect()
    }

    /// The browser of the recorded Claude Code session, with `dir` as its
    /// workspace.
    fn claude_session_in(dir: &std::path::Path) -> AgentEdits {
        let stream = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/agents/claude-code-2.1.328/b_edit_nomatch/stdout.jsonl"),
        )
        .expect("read");
        let mut reader = AgentReader::new(
            crate::source::agent::AgentKind::ClaudeCode,
            crate::source::agent::Format::ClaudeStreamJson,
        );
        reader.feed(&stream);
        reader.finish();
        let root = SessionRoot {
            root: dir.to_path_buf(),
        };
        AgentEdits::session("session".into(), reader, root)
    }

    /// The saved Claude Code session whose second edit fails, with the
    /// gate's record (`tests/fixtures/gate-browser/`) in its workspace: the
    /// gate denied the first edit (which the session shows applied) and
    /// passed the second as exact (which Claude Code failed).
    fn claude_session_with_gate_record() -> (tempfile::TempDir, AgentEdits) {
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join(".srview")).expect(".srview");
        std::fs::copy(
            fixtures.join("gate-browser/b_edit_nomatch.gate.jsonl"),
            dir.path().join(".srview/gate.jsonl"),
        )
        .expect("the record");
        let screen = claude_session_in(dir.path());
        (dir, screen)
    }

    /// The browser shows the gate's decision beside each edit the record
    /// joins (by the tool call's id), in the list and in the edit's
    /// header, as `srview session --list` words it, and flags where the
    /// record contradicts the session.
    #[test]
    fn the_browser_shows_the_gates_decision_and_its_contradictions() {
        let (_dir, mut screen) = claude_session_with_gate_record();
        let rows = screen.list().rows().to_vec();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].gate.as_deref(), Some("blocked (failing)"));
        assert_eq!(
            rows[0].gate_contradiction.as_deref(),
            Some(
                "the gate's record says it denied this edit, but the session shows Claude Code \
                 applied it"
            )
        );
        assert_eq!(rows[1].gate.as_deref(), Some("passed (exact)"));
        assert_eq!(
            rows[1].gate_contradiction.as_deref(),
            Some(
                "the gate's record says it let this edit through as exact, but Claude Code failed it"
            )
        );
        let list = drawn(&mut screen);
        // The gate's decision in a short word after the marks, kept at
        // 80 columns with the file's name.
        assert_eq!(
            list[1].trim_end(),
            "   1 GATE-CONTRADICTS        gate:blocked inventory.py Edit            applied"
        );
        assert!(
            list[2].starts_with("   2 FAILED GATE-CONTRADICTS gate:passed  inventory.py Edit ")
        );
        // The selected edit's contradiction is said in full below the list.
        let below: String = list[3..23].concat();
        assert!(
            below.contains("CONTRADICTION: the gate's record says it denied this edit, but"),
            "{list:#?}"
        );
        screen.select(2);
        let shown = drawn(&mut screen);
        assert!(
            shown[2].starts_with(
                " Claude Code: failed · srview: fails · gate: passed (exact) · CONTRADICTION:"
            ),
            "{shown:#?}"
        );
    }

    /// Without a record, nothing of the gate is said.
    #[test]
    fn without_a_gate_record_nothing_of_the_gate_is_said() {
        let (dir, _) = claude_session_with_gate_record();
        std::fs::remove_file(dir.path().join(".srview/gate.jsonl")).expect("remove");
        let mut screen = claude_session_in(dir.path());
        assert!(
            screen
                .list()
                .rows()
                .iter()
                .all(|r| r.gate.is_none() && r.gate_contradiction.is_none())
        );
        assert!(!drawn(&mut screen).concat().contains("gate"));
    }

    /// `s` saves the selected edit's own text to a new file in the
    /// current folder, never over an existing one.
    #[test]
    fn save_writes_the_edit_text_to_a_new_file() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = save_new(dir.path(), 3, "json", "{\"tool\":\"editor\"}").expect("saved");
        assert_eq!(first, dir.path().join("srview-edit-3.json"));
        let second = save_new(dir.path(), 3, "json", "other").expect("saved");
        assert_eq!(second, dir.path().join("srview-edit-3-2.json"));
        assert_eq!(
            std::fs::read_to_string(&first).expect("read"),
            "{\"tool\":\"editor\"}"
        );
        assert_eq!(std::fs::read_to_string(&second).expect("read"), "other");
    }
}
