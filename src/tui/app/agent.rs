//! The agent previewer's state: the edits an agent made so far (live or in
//! a saved session), one row each with the agent's verdict beside srview's,
//! which one is shown, and in what order. Pure: the screen
//! (`tui::AgentEdits`) reads the agent, reviews its edits and builds the
//! previewer of the one shown.

use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::keymap::{self, Action, KeyScope};
use super::{Effect, Notice};
use crate::sessions::review::{Basis, Review};
use crate::source::agent::Verdict;

/// One edit, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditRow {
    /// From 1, in the agent's order.
    pub seq: usize,
    /// The file, relative to the workspace when inside it.
    pub file: String,
    /// The agent's tool name.
    pub tool: &'static str,
    /// The agent's own verdict.
    pub agent: Verdict,
    /// The agent's error text.
    pub agent_message: Option<String>,
    /// srview's verdict in a few words (`applies (exact)`, `fails`, ...).
    pub srview: String,
    /// The agent or srview failed it.
    pub failed: bool,
    /// A block or hunk matched only loosely.
    pub loose: bool,
    /// srview could not run it (the content before unknown): neither
    /// failed nor loose as far as srview can tell, counted apart in the
    /// header (a tester's find: "0 loose" over a row saying it matches the
    /// current file only loosely).
    pub unknown: bool,
    /// srview and the agent disagree: said loudly.
    pub disagreement: Option<String>,
    /// Both applied it, srview only loosely: said as a notice.
    pub loose_match: Option<String>,
    /// What the agent did that neither verdict says (the agent applied a
    /// cut-off edit; lines rewritten outside the edit), in words.
    pub notices: Vec<String>,
    /// What srview's trust checks cannot stand behind although it applies
    /// (see [`Review::doubts`]), each in the check's own sentence.
    pub doubts: Vec<String>,
    /// The agent applied it although the model's stream cut its input off.
    pub cut_off: bool,
    /// What srview ran it against.
    pub basis: Option<Basis>,
    /// Its input is still arriving.
    pub streaming: bool,
    /// The output ended before the agent's verdict on it (after its call,
    /// or inside a line that may have held the verdict): `not-run` is then
    /// a guess, the agent may have applied it.
    pub verdict_missing: bool,
    /// srview wrote its result (`a`).
    pub written: bool,
    /// The gate's decision about it, in `srview session --list`'s words
    /// (`blocked (failing)`), when `.srview/gate.jsonl` joins it.
    pub gate: Option<String>,
    /// The same in one short word (`blocked`), for the list's gate column
    /// ([`crate::gate::record::short_word`]).
    pub gate_short: Option<&'static str>,
    /// Where the gate's record and the session disagree about it, in words
    /// ([`crate::gate::record::contradiction`]).
    pub gate_contradiction: Option<String>,
}

impl EditRow {
    /// How far the agent is with the edit: its verdict, and whether its
    /// input is still arriving.
    fn progress(&self) -> (Verdict, bool) {
        (self.agent, self.streaming)
    }

    /// The row of one reviewed edit.
    pub fn of(review: &Review) -> EditRow {
        let edit = &review.edit;
        EditRow {
            seq: edit.seq,
            file: edit.file.clone(),
            tool: edit.tool.name(),
            agent: edit.agent_verdict,
            agent_message: edit.agent_message.clone(),
            srview: srview_words(review),
            failed: review.is_failed(),
            loose: review.is_loose(),
            unknown: review.ok().is_none() && !edit.streaming,
            disagreement: review.disagreement.clone(),
            loose_match: review.loose_match.clone(),
            notices: review.notices.clone(),
            doubts: review.doubts().iter().map(|d| d.message.clone()).collect(),
            cut_off: edit.cut_off && edit.agent_verdict == Verdict::Applied,
            basis: review.basis,
            streaming: edit.streaming,
            verdict_missing: false,
            written: false,
            gate: None,
            gate_short: None,
            gate_contradiction: None,
        }
    }

    /// The edit's state, as its file's tab shows it.
    pub fn state(&self) -> EditState {
        if self.written {
            EditState::Written
        } else if self.verdict_missing {
            EditState::NoVerdict
        } else if self.streaming || self.agent == Verdict::Pending {
            EditState::Streaming
        } else if self.disagreement.is_some() {
            EditState::Disagree
        } else if self.failed {
            EditState::Failed
        } else if self.loose {
            EditState::Loose
        } else if !self.doubts.is_empty() {
            EditState::Doubt
        } else if self.agent == Verdict::NotRun {
            EditState::NotRun
        } else {
            EditState::Applied
        }
    }

    /// Listed first when failures come first: failed, in disagreement, or
    /// contradicting the gate's record.
    fn is_trouble(&self) -> bool {
        self.failed || self.disagreement.is_some() || self.gate_contradiction.is_some()
    }
}

/// srview's verdict in a few words.
fn srview_words(r: &Review) -> String {
    if r.edit.streaming {
        return "streaming…".into();
    }
    r.verdict_words(false)
}

/// An edit's state, as its file's tab shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EditState {
    /// srview wrote its result (`a`).
    Written,
    /// The output ended inside the agent's verdict.
    NoVerdict,
    /// Its input or the agent's verdict is still arriving.
    Streaming,
    /// srview and the agent disagree.
    Disagree,
    /// The agent or srview failed it.
    Failed,
    /// A block or hunk matched only loosely.
    Loose,
    /// Applied, with a doubt srview's trust checks raise.
    Doubt,
    /// The agent did not run it (not approved).
    NotRun,
    /// Applied, exactly.
    Applied,
}

impl EditState {
    /// The state in a word; a disagreement in capitals.
    pub fn word(self) -> &'static str {
        match self {
            EditState::Written => "written",
            EditState::NoVerdict => "no verdict",
            EditState::Streaming => "streaming",
            EditState::Disagree => "DISAGREE",
            EditState::Failed => "failed",
            EditState::Loose => "loose",
            EditState::Doubt => "doubt",
            EditState::NotRun => "not run",
            EditState::Applied => "applied",
        }
    }

    /// Whether the state is fine (applied, written), worth a look
    /// (streaming, loose, not run) or trouble (the rest).
    pub fn concern(self) -> Concern {
        match self {
            EditState::Applied | EditState::Written => Concern::Fine,
            EditState::Streaming | EditState::Loose | EditState::Doubt | EditState::NotRun => {
                Concern::Look
            }
            EditState::NoVerdict | EditState::Disagree | EditState::Failed => Concern::Trouble,
        }
    }
}

/// How much an edit's state asks of the user: the colour it is drawn in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Concern {
    Fine,
    Look,
    Trouble,
}

/// One file the agent edited, as its tab shows it: the state of its
/// latest edit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTab {
    pub file: String,
    /// The seq of its latest edit.
    pub latest: usize,
    /// Edits of this file so far.
    pub edits: usize,
    pub state: EditState,
}

/// What the list's header and tabs say of all the rows, kept as rows are
/// added and replaced (a followed session of 10,000 edits is not counted
/// again at each frame).
#[derive(Debug, Clone, Default)]
struct Tally {
    /// The files edited, in the order the agent first edited them, each in
    /// the state of its latest edit.
    tabs: Vec<FileTab>,
    /// By file: its tab's position in `tabs`.
    tab_of: std::collections::HashMap<String, usize>,
    failed: usize,
    loose: usize,
    disagree: usize,
    /// Rows srview could not run.
    unknown: usize,
    /// Rows with a doubt.
    doubted: usize,
}

impl Tally {
    /// The tally of `rows`, counted whole.
    fn of(rows: &[EditRow]) -> Tally {
        let mut tally = Tally::default();
        for row in rows {
            tally.add(row);
        }
        tally
    }

    /// Counts `row`, the newest.
    fn add(&mut self, row: &EditRow) {
        self.count(row, true);
        let state = row.state();
        match self.tab_of.get(&row.file) {
            Some(&at) => {
                let tab = &mut self.tabs[at];
                tab.latest = row.seq;
                tab.edits += 1;
                tab.state = state;
            }
            None => {
                self.tab_of.insert(row.file.clone(), self.tabs.len());
                self.tabs.push(FileTab {
                    file: row.file.clone(),
                    latest: row.seq,
                    edits: 1,
                    state,
                });
            }
        }
    }

    /// `old` replaced by `new` at the same position: false when the tabs
    /// must be counted again (the edit's file changed).
    fn replace(&mut self, old: &EditRow, new: &EditRow) -> bool {
        if old.file != new.file || old.seq != new.seq {
            return false;
        }
        self.count(old, false);
        self.count(new, true);
        if let Some(&at) = self.tab_of.get(&new.file)
            && self.tabs[at].latest == new.seq
        {
            self.tabs[at].state = new.state();
        }
        true
    }

    fn count(&mut self, row: &EditRow, add: bool) {
        let step = |n: &mut usize, on: bool| {
            if on {
                *n = if add { *n + 1 } else { n.saturating_sub(1) };
            }
        };
        step(&mut self.failed, row.failed);
        step(&mut self.loose, row.loose);
        step(&mut self.disagree, row.disagreement.is_some());
        step(&mut self.unknown, row.unknown);
        step(&mut self.doubted, !row.doubts.is_empty());
    }
}

/// What is on screen: the list of edits, or one edit's previewer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AgentMode {
    List,
    Preview,
}

/// The agent previewer's state.
#[derive(Debug, Clone)]
pub struct AgentList {
    /// The agent and its version, once known (`Claude Code 2.1.3`).
    agent: Option<String>,
    /// The agent's name alone (`Claude Code`), once known.
    agent_name: Option<&'static str>,
    /// Where the edits come from (`stdin`, a followed file, a session).
    source: String,
    rows: Vec<EditRow>,
    /// Indices into `rows`, in the order shown.
    order: Vec<usize>,
    /// The files' tabs and the header's counts, kept as rows change (see
    /// [`AgentList::files`] and [`AgentList::counts`]).
    tally: Tally,
    /// Rows built or replaced, ever (for tests: an answer touches only
    /// the rows of the edits it reviewed again).
    pub rows_touched: usize,
    /// The edit selected, by `seq`.
    selected: Option<usize>,
    /// Select each new edit as it arrives, until the user picks one.
    follow: bool,
    /// Failed edits (and disagreements) first.
    failed_first: bool,
    mode: AgentMode,
    /// The agent is still running (a live stream or a followed file).
    live: bool,
    /// No more input will come.
    ended: bool,
    /// Bytes read so far.
    bytes: usize,
    /// The output could not be read on (binary, not UTF-8): nothing more
    /// will be read.
    unreadable: bool,
    notice: Option<Notice>,
    /// The edit `notice` speaks of, and how far the agent was with it then
    /// (see [`AgentList::say_of_shown`]).
    notice_about: Option<(usize, (Verdict, bool))>,
    /// What could not be read of the gate's record, in words (`2 gate
    /// lines unreadable`): the header says it.
    gate_note: Option<String>,
}

impl AgentList {
    refs!(
        agent: Option<String>,
        source: String,
        rows: Vec<EditRow>,
        notice: Option<Notice>,
        gate_note: Option<String>,
    );
    copies!(
        agent_name: Option<&'static str>,
        selected: Option<usize>,
        follow: bool,
        failed_first: bool,
        mode: AgentMode,
        live: bool,
        ended: bool,
        bytes: usize,
        unreadable: bool,
    );

    /// A saved session's list while the session is still being read (not
    /// live, not ended).
    pub fn loading(source: String) -> AgentList {
        let mut list = AgentList::new(source, false);
        list.ended = false;
        list
    }

    /// Says what could not be read of the gate's record (`None`: all of it).
    pub fn set_gate_note(&mut self, note: Option<String>) {
        self.gate_note = note;
    }

    /// An empty list for `source`; `live` follows new edits.
    pub fn new(source: String, live: bool) -> AgentList {
        AgentList {
            agent: None,
            agent_name: None,
            source,
            rows: Vec::new(),
            order: Vec::new(),
            tally: Tally::default(),
            rows_touched: 0,
            selected: None,
            follow: live,
            failed_first: false,
            mode: if live {
                AgentMode::Preview
            } else {
                AgentMode::List
            },
            live,
            ended: !live,
            gate_note: None,
            bytes: 0,
            unreadable: false,
            notice: None,
            notice_about: None,
        }
    }

    /// Shows edit `seq` in its previewer, as picking it in the list does.
    #[cfg(test)]
    pub fn open(&mut self, seq: usize) {
        self.selected = Some(seq);
        self.follow = false;
        self.mode = AgentMode::Preview;
    }

    /// No more input will come.
    pub fn end(&mut self) {
        self.ended = true;
    }

    /// `bytes` of the agent's output have been read.
    pub fn set_bytes(&mut self, bytes: usize) {
        self.bytes = bytes;
    }

    /// The output cannot be read on: nothing more will be.
    pub fn mark_unreadable(&mut self) {
        self.unreadable = true;
    }

    /// The agent (`Claude Code`) and its version, once known.
    pub fn name_agent(&mut self, name: &'static str, version: &str) {
        self.agent = Some(format!("{name} {version}"));
        self.agent_name = Some(name);
    }

    /// Replaces the notice (`None`: none).
    pub fn set_notice(&mut self, notice: Option<Notice>) {
        self.notice = notice;
    }

    /// Replaces the rows. Following, the newest edit is selected; else
    /// the selection stays on its edit. Returns whether the edit shown
    /// changed.
    pub fn set_rows(&mut self, rows: Vec<EditRow>) -> bool {
        let len = rows.len();
        self.rows.clear();
        self.order.clear();
        self.tally = Tally::default();
        self.update_rows(len, rows.into_iter().enumerate())
    }

    /// The rows after a change to some of them: `len` rows (the later
    /// ones dropped), `changed` (by position, in increasing order) built
    /// anew, the others kept as they are. What depends on the rows (the
    /// order, the files' tabs, the counts) is updated for the changed rows
    /// only, unless failures are listed first (then the order is sorted
    /// again). As [`AgentList::set_rows`] for the selection; returns
    /// whether the edit shown changed.
    pub fn update_rows(
        &mut self,
        len: usize,
        changed: impl IntoIterator<Item = (usize, EditRow)>,
    ) -> bool {
        let before = self.selected;
        if len < self.rows.len() {
            self.rows.truncate(len);
            self.tally = Tally::of(&self.rows);
        }
        for (i, row) in changed {
            if i >= len {
                break;
            }
            self.rows_touched += 1;
            let count = self.rows.len();
            match self.rows.get_mut(i) {
                Some(old) => {
                    let kept = self.tally.replace(old, &row);
                    *old = row;
                    if !kept {
                        self.tally = Tally::of(&self.rows);
                    }
                }
                // Rows come in order: a new one is the next.
                None if i == count => {
                    self.tally.add(&row);
                    self.rows.push(row);
                }
                None => break,
            }
        }
        if self.failed_first || self.order.len() > self.rows.len() {
            self.sort();
        } else {
            let from = self.order.len();
            self.order.extend(from..self.rows.len());
        }
        if self.follow || self.selected.is_none() {
            self.selected = if self.follow {
                self.rows.last().map(|r| r.seq)
            } else {
                self.order.first().map(|&i| self.rows[i].seq)
            };
        }
        if self.selected.is_some_and(|s| self.index_of(s).is_none()) {
            self.selected = self.rows.last().map(|r| r.seq);
        }
        // A notice about the edit shown as it was (`a` refused while the
        // agent had not finished it) goes once that edit is no longer
        // shown, or the agent has moved on with it.
        if let Some((seq, state)) = self.notice_about {
            let now = self.index_of(seq).map(|i| self.rows[i].progress());
            if self.selected != Some(seq) || now != Some(state) {
                self.notice = None;
                self.notice_about = None;
            }
        }
        self.selected != before
    }

    /// The position in `rows` of edit `seq`: edits come numbered from 1 in
    /// order, so it is `seq - 1` unless some are missing.
    fn index_of(&self, seq: usize) -> Option<usize> {
        match seq.checked_sub(1).and_then(|i| self.rows.get(i)) {
            Some(row) if row.seq == seq => seq.checked_sub(1),
            _ => self.rows.iter().position(|r| r.seq == seq),
        }
    }

    /// Says `text` of the edit shown, as it is now (see [`AgentList::set_rows`]).
    pub fn say_of_shown(&mut self, text: String, error: bool) {
        self.notice = Some(Notice { text, error });
        self.notice_about = self
            .selected
            .and_then(|seq| self.index_of(seq))
            .map(|i| (self.rows[i].seq, self.rows[i].progress()));
    }

    fn sort(&mut self) {
        self.order = (0..self.rows.len()).collect();
        if self.failed_first {
            let rows = &self.rows;
            self.order
                .sort_by_key(|&i| (!rows[i].is_trouble(), rows[i].seq));
        }
    }

    /// The rows in the order shown.
    pub fn ordered(&self) -> impl Iterator<Item = &EditRow> {
        self.order.iter().map(|&i| &self.rows[i])
    }

    /// The selected row.
    pub fn current(&self) -> Option<&EditRow> {
        let s = self.selected?;
        self.index_of(s).map(|i| &self.rows[i])
    }

    /// Position of the selected row in the order shown.
    pub fn position(&self) -> Option<usize> {
        let s = self.selected?;
        if !self.failed_first {
            // The agent's order: `order` is `0..rows`.
            return self.index_of(s);
        }
        self.order.iter().position(|&i| self.rows[i].seq == s)
    }

    /// Moves the selection by `delta` rows in the order shown; the user
    /// picked an edit, so following stops.
    fn step(&mut self, delta: isize) -> Effect {
        if self.order.is_empty() {
            return Effect::None;
        }
        let at = self.position().unwrap_or(0) as isize;
        let last = self.order.len() as isize - 1;
        let to = (at + delta).clamp(0, last) as usize;
        self.follow = false;
        let seq = self.rows[self.order[to]].seq;
        if Some(seq) == self.selected {
            return Effect::None;
        }
        self.selected = Some(seq);
        Effect::Show
    }

    /// The files edited, in the order the agent first edited them.
    pub fn files(&self) -> &[FileTab] {
        &self.tally.tabs
    }

    /// Counts for the header: edits, failed, loose, disagreements.
    pub fn counts(&self) -> (usize, usize, usize, usize) {
        let t = &self.tally;
        (self.rows.len(), t.failed, t.loose, t.disagree)
    }

    /// The edits with a doubt (see [`EditRow::doubts`]), for the header.
    pub fn in_doubt(&self) -> usize {
        self.tally.doubted
    }

    /// The edits srview could not run (see [`EditRow::unknown`]), for the
    /// header.
    pub fn unknown(&self) -> usize {
        self.tally.unknown
    }

    /// A key: what the screen must do, or `None` for a key of the edit's
    /// previewer (in an edit: the keys of every previewer, and those bound
    /// nowhere here). `preview_busy`: the edit's previewer has something
    /// of its own open (help, the blocks pane, a question) that Esc closes.
    pub fn on_key(&mut self, key: KeyEvent, preview_busy: bool) -> Option<Effect> {
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Some(Effect::Quit(1));
        }
        self.notice = None;
        self.notice_about = None;
        let screen = match self.mode {
            AgentMode::List => KeyScope::AgentList,
            AgentMode::Preview => KeyScope::Agent,
        };
        // A key of every previewer (or none) in an edit is its previewer's.
        let Some(action) = keymap::lookup(screen, key) else {
            return self.not_the_lists();
        };
        Some(match action {
            Action::FailedFirst => self.toggle_failed_first(),
            Action::SaveText if self.selected.is_some() => Effect::SaveText,
            Action::File(n) => {
                let Some(latest) = self.files().get(usize::from(n)).map(|t| t.latest) else {
                    return Some(Effect::None);
                };
                self.follow = false;
                self.mode = AgentMode::Preview;
                self.selected = Some(latest);
                Effect::Show
            }
            Action::Quit => Effect::Quit(0),
            Action::FollowNewest => self.follow_latest(),
            // The list's own keys.
            Action::Down if screen == KeyScope::AgentList => self.step(1),
            Action::Up if screen == KeyScope::AgentList => self.step(-1),
            Action::PageDown if screen == KeyScope::AgentList => self.step(10),
            Action::PageUp if screen == KeyScope::AgentList => self.step(-10),
            Action::Top if screen == KeyScope::AgentList => self.step(isize::MIN / 2),
            Action::Bottom if screen == KeyScope::AgentList => self.step(isize::MAX / 2),
            Action::Open if self.selected.is_some() => {
                self.mode = AgentMode::Preview;
                Effect::Show
            }
            Action::Help if screen == KeyScope::AgentList => {
                self.notice = Some(Notice {
                    text: keymap::list_keys_notice(),
                    error: false,
                });
                Effect::None
            }
            Action::Close if screen == KeyScope::AgentList => {
                self.notice = Some(Notice {
                    text: "nothing to close: q quits".into(),
                    error: false,
                });
                Effect::None
            }
            // An edit's own keys.
            Action::NextEdit => self.step(1),
            Action::PrevEdit => self.step(-1),
            Action::WriteEdit => Effect::WriteEdit,
            Action::BackToList if !preview_busy => {
                self.mode = AgentMode::List;
                Effect::None
            }
            _ => return self.not_the_lists(),
        })
    }

    /// A key the list does not take: in an edit, its previewer's.
    fn not_the_lists(&self) -> Option<Effect> {
        match self.mode {
            AgentMode::List => Some(Effect::None),
            AgentMode::Preview => None,
        }
    }

    /// `!`: failed edits (and disagreements) first, or the agent's order.
    fn toggle_failed_first(&mut self) -> Effect {
        self.failed_first = !self.failed_first;
        self.sort();
        // In the list, the cursor goes to the top of the new order.
        let top = self.order.first().map(|&i| self.rows[i].seq);
        let moved = self.mode == AgentMode::List && top.is_some() && top != self.selected;
        if moved {
            self.selected = top;
            self.follow = false;
        }
        self.notice = Some(Notice {
            text: if self.failed_first {
                "failed edits and disagreements first".into()
            } else {
                "edits in the agent's order".into()
            },
            error: false,
        });
        if moved { Effect::Show } else { Effect::None }
    }

    fn follow_latest(&mut self) -> Effect {
        if !self.live {
            self.notice = Some(Notice {
                text: "a saved session: every edit is here (G: the last one)".into(),
                error: false,
            });
            return Effect::None;
        }
        self.follow = true;
        self.notice = Some(Notice {
            text: "following the agent's newest edit".into(),
            error: false,
        });
        let newest = self.rows.last().map(|r| r.seq);
        if newest != self.selected {
            self.selected = newest;
            return Effect::Show;
        }
        Effect::None
    }
}

/// Why `a` writes nothing for this edit, if it does not: the agent writes
/// its own edits; srview only writes one the agent did not apply.
pub fn accept_refusal(row: &EditRow, agent: &str) -> Option<String> {
    if row.written {
        return Some("srview wrote this edit already".into());
    }
    if row.verdict_missing {
        return Some(format!(
            "the output ends before {agent}'s verdict on this edit: srview cannot tell \
             whether {agent} applied it"
        ));
    }
    match row.agent {
        Verdict::Applied => Some(format!(
            "{agent} applied this edit itself: nothing to write"
        )),
        Verdict::Pending => Some(format!(
            "{agent} has not finished this edit: it writes its own edits"
        )),
        Verdict::Failed | Verdict::NotRun => None,
    }
}

#[cfg(test)]
mod tests {
    use ratatui_crossterm::crossterm::event::KeyEventKind;

    use super::*;

    fn row(seq: usize, failed: bool) -> EditRow {
        EditRow {
            seq,
            file: format!("f{seq}.py"),
            tool: "Edit",
            agent: if failed {
                Verdict::Failed
            } else {
                Verdict::Applied
            },
            agent_message: None,
            srview: "applies (exact)".into(),
            failed,
            loose: false,
            unknown: false,
            disagreement: None,
            loose_match: None,
            notices: Vec::new(),
            doubts: Vec::new(),
            cut_off: false,
            basis: Some(Basis::Recorded),
            streaming: false,
            verdict_missing: false,
            written: false,
            gate: None,
            gate_short: None,
            gate_contradiction: None,
        }
    }

    /// The tabs and counts kept as rows change are those counted whole.
    fn assert_tally_is_recounted(list: &AgentList) {
        let whole = Tally::of(list.rows());
        assert_eq!(list.files(), whole.tabs.as_slice());
        assert_eq!(
            list.counts(),
            (list.rows().len(), whole.failed, whole.loose, whole.disagree)
        );
        assert_eq!(list.unknown(), whole.unknown);
    }

    /// An edit srview could not run is counted apart, as rows change (a
    /// tester's find: "0 loose" and no other count over such a row).
    #[test]
    fn an_edit_srview_could_not_run_is_counted_unknown() {
        let mut list = AgentList::new("session".into(), false);
        let mut unknown = row(2, false);
        unknown.unknown = true;
        list.set_rows(vec![row(1, false), unknown]);
        assert_eq!(list.unknown(), 1);
        assert_tally_is_recounted(&list);
        let mut ran = list.rows()[1].clone();
        ran.unknown = false;
        list.update_rows(2, vec![(1, ran)]);
        assert_eq!(list.unknown(), 0);
        assert_tally_is_recounted(&list);
    }

    /// An update builds only the rows it is given: the others stay, the
    /// order grows by the new rows, and the tabs and counts follow the
    /// changed rows as a whole recount would.
    #[test]
    fn an_update_touches_only_the_changed_rows() {
        let mut list = AgentList::new("stdin".into(), true);
        let rows: Vec<EditRow> = (1..=1000)
            .map(|seq| {
                let mut r = row(seq, seq % 7 == 0);
                r.file = format!("f{}.py", seq % 13);
                r
            })
            .collect();
        list.set_rows(rows);
        assert_eq!(list.rows_touched, 1000);
        assert_tally_is_recounted(&list);
        // Edit 500 failed after all; edit 1001 arrives.
        let mut failed = list.rows()[499].clone();
        failed.failed = true;
        let mut new = row(1001, false);
        new.file = "f0.py".into();
        assert!(list.update_rows(1001, vec![(499, failed), (1000, new)]));
        assert_eq!(list.rows_touched, 1002);
        assert_eq!(list.rows().len(), 1001);
        assert_eq!(list.selected(), Some(1001), "following the newest");
        assert_eq!(list.position(), Some(1000));
        assert!(list.rows()[499].failed);
        assert_tally_is_recounted(&list);
        // An edit's path named late: the tabs are counted again.
        let mut moved = list.rows()[10].clone();
        moved.file = "elsewhere.py".into();
        assert!(!list.update_rows(1001, vec![(10, moved)]));
        assert_tally_is_recounted(&list);
        // Fewer rows (the output read again): the later ones go.
        list.update_rows(3, Vec::new());
        assert_eq!(list.rows().len(), 3);
        assert_eq!(list.selected(), Some(3));
        assert_tally_is_recounted(&list);
        // Failures first: the order is sorted again.
        list.toggle_failed_first();
        let mut bad = list.rows()[1].clone();
        bad.failed = true;
        list.update_rows(3, vec![(1, bad)]);
        let order: Vec<usize> = list.ordered().map(|r| r.seq).collect();
        assert_eq!(order, [2, 1, 3]);
        assert_eq!(list.position(), Some(2));
    }

    fn key(c: KeyCode) -> KeyEvent {
        KeyEvent::new_with_kind(c, KeyModifiers::NONE, KeyEventKind::Press)
    }

    /// A saved session has nothing to follow.
    #[test]
    fn a_saved_session_does_not_follow() {
        let mut list = AgentList::new("session".into(), false);
        list.set_rows(vec![row(1, false), row(2, false)]);
        assert_eq!(
            list.on_key(key(KeyCode::Char('f')), false),
            Some(Effect::None)
        );
        assert!(!list.follow);
        assert_eq!(list.selected, Some(1));
    }

    /// Live, each new edit is shown as it arrives until the user picks one;
    /// `f` follows again.
    #[test]
    fn following_selects_the_newest_until_the_user_picks() {
        let mut list = AgentList::new("stdin".into(), true);
        assert!(list.set_rows(vec![row(1, false)]));
        assert_eq!(list.selected, Some(1));
        list.set_rows(vec![row(1, false), row(2, false)]);
        assert_eq!(list.selected, Some(2));
        assert_eq!(
            list.on_key(key(KeyCode::Char('[')), false),
            Some(Effect::Show)
        );
        assert_eq!(list.selected, Some(1));
        list.set_rows(vec![row(1, false), row(2, false), row(3, false)]);
        assert_eq!(list.selected, Some(1), "the user's pick stays");
        assert_eq!(
            list.on_key(key(KeyCode::Char('f')), false),
            Some(Effect::Show)
        );
        assert_eq!(list.selected, Some(3));
    }

    /// `!` lists failed edits first, the list's cursor on the first of
    /// them; the previewer keeps its edit.
    #[test]
    fn failed_first_reorders_the_list() {
        let mut list = AgentList::new("session".into(), false);
        list.set_rows(vec![row(1, false), row(2, true), row(3, false)]);
        assert_eq!(list.selected, Some(1), "a session opens on its first edit");
        list.on_key(key(KeyCode::Char('!')), false);
        let seqs: Vec<usize> = list.ordered().map(|r| r.seq).collect();
        assert_eq!(seqs, [2, 1, 3]);
        assert_eq!(list.selected, Some(2), "the cursor goes to the top");
        assert_eq!(
            list.on_key(key(KeyCode::Char('j')), false),
            Some(Effect::Show)
        );
        assert_eq!(list.selected, Some(1));
        // In the previewer the edit shown stays.
        list.on_key(key(KeyCode::Enter), false);
        assert_eq!(
            list.on_key(key(KeyCode::Char('!')), false),
            Some(Effect::None)
        );
        assert_eq!(list.selected, Some(1));
        assert_eq!(list.position(), Some(0));
    }

    /// Enter opens the previewer; Esc goes back to the list unless the
    /// previewer has something of its own to close; `a` asks the screen.
    #[test]
    fn enter_opens_esc_returns() {
        let mut list = AgentList::new("session".into(), false);
        list.set_rows(vec![row(1, true)]);
        assert_eq!(list.on_key(key(KeyCode::Enter), false), Some(Effect::Show));
        assert_eq!(list.mode, AgentMode::Preview);
        assert_eq!(list.on_key(key(KeyCode::Char('n')), false), None);
        assert_eq!(list.on_key(key(KeyCode::Esc), true), None);
        assert_eq!(
            list.on_key(key(KeyCode::Char('a')), false),
            Some(Effect::WriteEdit)
        );
        assert_eq!(list.on_key(key(KeyCode::Esc), false), Some(Effect::None));
        assert_eq!(list.mode, AgentMode::List);
    }

    /// A tab per file, in the order first edited, in the state of its
    /// latest edit; a digit shows that edit.
    #[test]
    fn files_are_tabs_in_the_state_of_their_latest_edit() {
        let mut list = AgentList::new("session".into(), false);
        let mut third = row(3, true);
        third.file = "f1.py".into();
        list.set_rows(vec![row(1, false), row(2, false), third]);
        let tabs = list.files();
        assert_eq!(tabs.len(), 2);
        assert_eq!(
            (tabs[0].file.as_str(), tabs[0].latest, tabs[0].edits),
            ("f1.py", 3, 2)
        );
        assert_eq!(tabs[0].state, EditState::Failed);
        assert_eq!(
            (tabs[1].file.as_str(), tabs[1].state),
            ("f2.py", EditState::Applied)
        );
        assert_eq!(
            list.on_key(key(KeyCode::Char('1')), false),
            Some(Effect::Show)
        );
        assert_eq!((list.selected, list.mode), (Some(3), AgentMode::Preview));
        assert_eq!(
            list.on_key(key(KeyCode::Char('9')), false),
            Some(Effect::None)
        );
    }

    /// A notice about the edit shown (an `a` refused while the agent was
    /// still on it) goes once the agent has moved on with that edit or
    /// another edit is shown; it stays while nothing changed.
    #[test]
    fn a_notice_goes_when_its_edit_changes() {
        let mut list = AgentList::new("live".into(), true);
        let mut pending = row(1, false);
        pending.agent = Verdict::Pending;
        list.set_rows(vec![pending.clone()]);
        let refused = "not accepted: Claude Code has not finished this edit".to_string();
        list.say_of_shown(refused.clone(), true);
        list.set_rows(vec![pending]);
        assert_eq!(
            list.notice.as_ref().map(|n| &n.text),
            Some(&refused),
            "no change"
        );
        list.set_rows(vec![row(1, false)]);
        assert_eq!(list.notice, None, "the agent applied it");
        list.say_of_shown(refused, true);
        list.set_rows(vec![row(1, false), row(2, false)]);
        assert_eq!(list.selected, Some(2), "following");
        assert_eq!(list.notice, None, "another edit is shown");
        // Other notices (a problem reading the output) stay.
        list.notice = Some(Notice {
            text: "line 3 skipped".into(),
            error: true,
        });
        list.set_rows(vec![row(1, false), row(2, false), row(3, false)]);
        assert!(list.notice.is_some());
    }

    /// srview writes only what the agent did not.
    #[test]
    fn accept_is_refused_for_what_the_agent_applied_or_still_writes() {
        let mut r = row(1, false);
        assert_eq!(
            accept_refusal(&r, "Claude Code").as_deref(),
            Some("Claude Code applied this edit itself: nothing to write")
        );
        r.agent = Verdict::Pending;
        assert!(accept_refusal(&r, "Codex").is_some_and(|t| t.contains("has not finished")));
        r.agent = Verdict::Failed;
        assert_eq!(accept_refusal(&r, "Codex"), None);
        r.agent = Verdict::NotRun;
        r.verdict_missing = true;
        assert!(accept_refusal(&r, "Codex").is_some_and(|t| t.contains("cannot tell")));
        r.verdict_missing = false;
        r.written = true;
        assert_eq!(
            accept_refusal(&r, "Codex").as_deref(),
            Some("srview wrote this edit already")
        );
    }
}
