//! Several files edited by one agent transcript: a tab per file, each an
//! [`App`] showing that file's latest call against the content it started
//! from. Pure: the previewer (`tui::TranscriptFiles`) parses, loads and writes.

use std::path::PathBuf;

use ratatui_crossterm::crossterm::event::KeyEvent;

use super::keymap::{self, Action, KeyScope};
use super::{App, Effect, Notice, Refusal, StreamState, keys};
use crate::engine::Version;
use crate::source::transcript::{
    ApplyOptions, CallKind, FileEdit, FileState, OUTSIDE_REFUSAL, ToolCall,
};

pub struct Tab {
    path: String,
    state: FileState,
    /// Calls on this file so far; the tab shows the last one.
    calls: usize,
    written: bool,
    /// Why the file was refused (state [`FileState::Refused`]): its path
    /// leaves `--cwd`, or it cannot be read.
    refusal: Option<String>,
    /// Bumped whenever `app` is rebuilt (a new call), so caches know.
    generation: u64,
    /// What the tab shows: the file's one call, or every call's blocks
    /// (see [`calls`](super::calls)).
    app: App,
    /// With several calls: each call on its own, over the text before it,
    /// as it is applied and written (what accepting asks about); empty
    /// for one call.
    call_apps: Vec<App>,
    /// With several calls, `app` shows their combined change as a
    /// whole-file edit (their blocks cannot be shown over the first text).
    whole: bool,
}

impl Tab {
    /// What writing this tab writes that srview cannot stand behind, judged
    /// where stale: each call over the text before it, as they are written
    /// (`call 2: ...`), or one call's result; `whole`, a patch's own
    /// doubts, stand for its files (its blocks are only their rendering).
    /// Kept as the tab's app's, so its panes say them before `a`.
    fn judge_stale(&self) -> bool {
        self.app.result_doubts_stale() || self.call_apps.iter().any(App::result_doubts_stale)
    }

    fn judge(&mut self, whole: Option<Vec<String>>) -> Vec<String> {
        if let Some(doubts) = whole {
            self.app.set_result_doubts(doubts.clone());
            return doubts;
        }
        if self.call_apps.is_empty() {
            if self.app.result_doubts_stale() {
                self.app.judge_result();
            }
            return self.app.result_doubts().to_vec();
        }
        let mut all = Vec::new();
        for (k, app) in self.call_apps.iter_mut().enumerate() {
            if app.result_doubts_stale() {
                app.judge_result();
            }
            all.extend(
                app.result_doubts()
                    .iter()
                    .map(|d| format!("call {}: {d}", k + 1)),
            );
        }
        self.app.set_result_doubts(all.clone());
        all
    }

    refs!(
        path: String,
        refusal: Option<String>,
        app: App,
        call_apps: Vec<App>,
    );
    copies!(state: FileState, calls: usize, written: bool, generation: u64);

    /// The tab's state in words, as the tab bar shows it.
    pub fn state_label(&self) -> &'static str {
        match (self.written, self.state) {
            (true, _) => "written",
            (false, FileState::Refused) => match self.refused_why() {
                "outside --cwd" => "refused: outside --cwd",
                "deleted or moved" => "refused: deleted or moved",
                _ => "refused: cannot be read",
            },
            // Applied, but what writing it writes is in doubt: said on
            // its tab before `a` asks.
            (false, FileState::Applied) if !self.app.result_doubts().is_empty() => {
                "applied, in doubt"
            }
            (false, state) => state.name(),
        }
    }

    /// Why the file is refused, in a few words.
    fn refused_why(&self) -> &'static str {
        match self.refusal.as_deref() {
            Some(why) if why.contains(OUTSIDE_REFUSAL) => "outside --cwd",
            Some(why) if why.starts_with(crate::source::patch_preview::DELETE_REFUSAL) => {
                "deleted or moved"
            }
            _ => "cannot be read",
        }
    }

    /// Why nothing of this file can be written, short: `a.txt (outside --cwd)`.
    fn refused_entry(&self) -> String {
        format!("{} ({})", self.path, self.refused_why())
    }
}

/// What a refusal notice describes: it stays until a key is pressed or
/// that state ends.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Until {
    /// A key is pressed.
    Key,
    /// Any of these files changes state (`a.py` stops streaming).
    State(Vec<(String, FileState)>),
    /// Any of these files changes state or content (a block completes).
    Content(Vec<(String, FileState, String)>),
    /// A file appears in the transcript.
    FirstTab,
}

struct ShownRefusal {
    text: String,
    until: Until,
}

pub struct Workspace {
    tabs: Vec<Tab>,
    current: usize,
    edits: Vec<FileEdit>,
    received: Received,
    /// How the calls are applied (the parser version; whether diffs are
    /// cleaned up as Cline does for non-Claude models).
    options: ApplyOptions,
    notice: Option<Notice>,
    /// Show the file the agent is writing now, until the user picks a tab.
    follow_tabs: bool,
    /// An accept held back because a block's place is in doubt: the key
    /// that asked (`a` or `A`); pressing it again writes, any other key or
    /// new transcript text that changes the files in question cancels.
    confirming: Option<Action>,
    /// The held-back accept asked about mixed line endings: `L` writes
    /// with the file's.
    endings_asked: bool,
    /// The notice saying why accepting wrote nothing (or asking to confirm),
    /// and when it goes.
    refusal: Option<ShownRefusal>,
    /// An apply_patch transcript: the reference's verdict on the whole text
    /// as it stands (`refusal`: it refuses it) and what `--write` would hold
    /// back in its result; `None` for other transcripts.
    whole_patch: Option<WholePatch>,
}

/// What has arrived of the transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Received {
    /// Waiting, streaming, paused (quiet for a while) or ended.
    pub stream: StreamState,
    /// Its size so far.
    pub bytes: usize,
    /// It can no longer be read (invalid UTF-8, a NUL byte): what was
    /// shown is not all of it, so nothing is written.
    pub unreadable: Option<String>,
}

impl Received {
    /// `bytes` have arrived in all (`ended`: and no more will come). Read
    /// again without new text (`r`), a paused transcript stays paused; only
    /// new text means it streams.
    fn arrived(&mut self, bytes: usize, ended: bool) {
        let same_text = bytes == self.bytes;
        self.bytes = bytes;
        self.stream = match (ended, bytes) {
            (true, _) => StreamState::Ended,
            (false, 0) => StreamState::Waiting,
            _ if same_text && self.stream == StreamState::Paused => StreamState::Paused,
            _ => StreamState::Streaming,
        };
    }

    /// Quiet for [`super::PAUSE_AFTER`]: a streaming transcript is paused.
    /// Whether it was streaming.
    fn pause(&mut self) -> bool {
        let streaming = self.stream == StreamState::Streaming;
        if streaming {
            self.stream = StreamState::Paused;
        }
        streaming
    }
}

/// The reference's run of a whole apply_patch transcript (see
/// [`Workspace::whole_patch`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WholePatch {
    /// The reference refuses the text as it stands: its error text.
    pub refusal: Option<String>,
    /// What `apply --transcript --write` holds back, one sentence each.
    pub doubts: Vec<String>,
}

impl Workspace {
    refs!(
        tabs: Vec<Tab>,
        edits: Vec<FileEdit>,
        received: Received,
        notice: Option<Notice>,
        whole_patch: Option<WholePatch>,
    );
    copies!(
        current: usize,
        options: ApplyOptions,
        follow_tabs: bool,
    );

    pub fn new(version: Version, fix_model_output: bool) -> Self {
        Workspace {
            tabs: Vec::new(),
            current: 0,
            edits: Vec::new(),
            received: Received {
                stream: StreamState::Waiting,
                bytes: 0,
                unreadable: None,
            },
            options: ApplyOptions {
                version,
                fix_model_output,
            },
            notice: None,
            follow_tabs: true,
            confirming: None,
            endings_asked: false,
            refusal: None,
            whole_patch: None,
        }
    }

    /// `v` in every tab shows `raw` (the patch as received), not the
    /// blocks that show it.
    pub fn set_raw_input(&mut self, raw: &str) {
        for tab in &mut self.tabs {
            tab.app.set_raw_input(Some(raw.to_string()));
            tab.app.set_raw_title(None);
        }
    }

    /// Lays every tab's previewer out in `area`.
    pub fn fit(&mut self, area: ratatui::layout::Rect) {
        for tab in &mut self.tabs {
            tab.app.fit(area);
        }
    }

    /// A mouse event on the current tab, as `layout` lays it out with the
    /// transcript's notice (`view::screen_layout`).
    pub fn on_mouse(
        &mut self,
        mouse: ratatui_crossterm::crossterm::event::MouseEvent,
        layout: impl Fn(&App, Option<&Notice>) -> super::screen::Screen,
    ) {
        if let Some(tab) = self.tabs.get_mut(self.current) {
            let screen = layout(&tab.app, self.notice.as_ref());
            keys::on_mouse(&mut tab.app, mouse, &screen);
        }
    }

    /// Diagnoses the current tab's blocks and judges what writing it
    /// writes (the stream is idle).
    pub fn diagnose_current(&mut self) {
        let whole = self.whole_patch.as_ref().map(|w| w.doubts.clone());
        if let Some(tab) = self.tabs.get_mut(self.current)
            && tab.app.diagnosis_stale()
        {
            tab.app.diagnose();
        }
        // Every tab's judgement, so each tab's label says its doubt.
        for tab in &mut self.tabs {
            if tab.judge_stale() {
                tab.judge(whole.clone());
            }
        }
    }

    /// Whether the current tab waits for a diagnosis, or a tab for a
    /// judgement.
    pub fn current_stale(&self) -> bool {
        self.tabs
            .get(self.current)
            .is_some_and(|tab| tab.app.diagnosis_stale())
            || self.tabs.iter().any(Tab::judge_stale)
    }

    /// The transcript cannot be read on (`Some(why)`), or can again.
    pub fn set_unreadable(&mut self, why: Option<String>) {
        self.received.unreadable = why;
    }

    /// Says why accepting wrote nothing, until a key is pressed or what
    /// `until` describes ends (not merely because more text streamed in).
    fn refuse(&mut self, text: String, until: Until, error: bool) {
        self.refusal = Some(ShownRefusal {
            text: text.clone(),
            until,
        });
        self.notice = Some(Notice { text, error });
    }

    /// Shows `notice` above the footer (until something replaces it).
    pub fn show_notice(&mut self, notice: Notice) {
        self.notice = Some(notice);
    }

    /// The loop's write for an accept was refused or failed: `text` says
    /// why (and what was written, if anything), until a key is pressed.
    pub fn refuse_write(&mut self, text: String) {
        self.refuse(text, Until::Key, true);
    }

    /// Whether what the shown refusal describes is over: a file it watches
    /// changed state (or content, for `Until::Content`), or a first file
    /// appeared.
    fn refusal_ended(&self) -> bool {
        let Some(r) = &self.refusal else {
            return false;
        };
        let edit = |path: &str| self.edits.iter().find(|e| e.path == path);
        match &r.until {
            Until::Key => false,
            Until::FirstTab => !self.tabs.is_empty(),
            Until::State(files) => files
                .iter()
                .any(|(p, s)| edit(p).is_none_or(|e| e.state != *s)),
            Until::Content(files) => files
                .iter()
                .any(|(p, s, c)| edit(p).is_none_or(|e| e.state != *s || e.content() != c)),
        }
    }

    /// Drops the refusal notice, if it is still shown, and any held-back accept.
    fn clear_refusal(&mut self) {
        self.confirming = None;
        if let Some(r) = self.refusal.take()
            && self.notice.as_ref().is_some_and(|n| n.text == r.text)
        {
            self.notice = None;
        }
    }

    /// Whether `a`/`A` is held back waiting for a second press.
    #[cfg(test)]
    pub fn confirming(&self) -> bool {
        self.confirming.is_some()
    }

    /// The transcript was parsed and applied again.
    pub fn update(&mut self, calls: &[ToolCall], edits: Vec<FileEdit>, bytes: usize, ended: bool) {
        self.whole_patch = None;
        self.received.arrived(bytes, ended);
        for edit in &edits {
            if edit.state == FileState::Refused {
                self.show_refused(edit);
                continue;
            }
            let Some(last) = edit.calls.last() else {
                continue;
            };
            let n = edit.calls.len();
            // One call: shown over the text before it. Several: every
            // call's blocks, over the text before the first.
            let shown = (n > 1).then(|| super::calls::view(calls, edit, self.options));
            let whole = matches!(shown, Some(super::calls::CallsView::Whole { .. }));
            let base = match shown {
                Some(super::calls::CallsView::Failed { call, .. }) if call > 0 => edit.calls
                    [call - 1]
                    .content()
                    .unwrap_or(edit.before())
                    .to_string(),
                _ => edit.before().to_string(),
            };
            let i = self.tab_for(edit, &base);
            let options = self.options;
            let tab = &mut self.tabs[i];
            tab.state = edit.state;
            tab.refusal = None;
            if tab.calls != n || tab.app.original.text() != base || tab.whole != whole {
                // A new call (or a changed base): start the view afresh,
                // keeping how the user looks at it.
                let view = tab.app.view.clone();
                tab.app = new_app(options, &edit.path, base);
                tab.app.view = view;
                tab.calls = n;
                tab.whole = whole;
                tab.generation += 1;
            }
            tab.app.set_combined_rows(Vec::new());
            tab.app.set_raw_title(None);
            tab.app.set_raw_input(None);
            match shown {
                None => show_call(&mut tab.app, calls, last),
                Some(super::calls::CallsView::Joined { diff, groups }) => {
                    tab.app.call_groups = groups;
                    tab.app.set_diff(diff);
                    tab.app
                        .set_raw_title(Some(super::calls::sent_title(calls, edit)));
                    if !last.partial {
                        tab.app.end_stream();
                    }
                }
                Some(super::calls::CallsView::Failed { call, why }) => {
                    tab.app.call_groups.clear();
                    if let Some(failed) = edit.calls.get(call) {
                        show_call(&mut tab.app, calls, failed);
                    }
                    tab.app.note_state(why);
                }
                Some(super::calls::CallsView::Whole { why }) => {
                    tab.app.call_groups.clear();
                    // Block by block when the combined change reads as
                    // blocks the reference applies exactly; else whole.
                    let blocks = (!last.partial)
                        .then(|| super::calls::combined_blocks(edit.before(), edit.content()))
                        .flatten();
                    match blocks {
                        Some(diff) => {
                            tab.app.set_diff(diff);
                            tab.app.end_stream();
                            // srview's blocks: each row says which of the
                            // calls' blocks it is made of.
                            let rows =
                                super::calls::combined_rows(calls, edit, &tab.app.outcome().blocks);
                            tab.app.set_combined_rows(rows);
                        }
                        None => tab.app.set_direct(edit.content().to_string(), last.partial),
                    }
                    // `v` shows what the model sent, not srview's blocks.
                    tab.app
                        .set_raw_input(Some(super::calls::sent_diffs(calls, edit)));
                    tab.app
                        .set_raw_title(Some(super::calls::sent_title(calls, edit)));
                    // A call's loose match is said beside them too.
                    let loose = super::calls::loose_blocks(edit);
                    let why = if loose.is_empty() {
                        why
                    } else {
                        format!("{why}; {}", loose.join("; "))
                    };
                    tab.app.note_state(why);
                }
            }
            update_call_apps(tab, calls, edit, options);
        }
        self.edits = edits;
        if self.follow_tabs
            && let Some(last) = calls.iter().rev().find(|c| c.path_complete)
            && let Some(i) = self.edits.iter().position(|e| {
                e.calls
                    .iter()
                    .any(|r| calls.get(r.call).is_some_and(|c| std::ptr::eq(c, last)))
            })
            && let Some(t) = self.tabs.iter().position(|t| t.path == self.edits[i].path)
        {
            self.current = t;
        }
        if self.current >= self.tabs.len() {
            self.current = self.tabs.len().saturating_sub(1);
        }
        // What a refusal (or a held-back accept) described may be gone.
        if self.refusal_ended() {
            self.clear_refusal();
        }
    }

    /// [`update`](Self::update) for an apply_patch: `edits` are the
    /// engine's run of `patch.calls`. A file whose section the reference
    /// failed is failed with its error (whatever the engine made of the
    /// blocks); a deleted or moved file is refused (nothing of it is
    /// written); a file with loosely matched hunks says so on its tab, with
    /// the lines that differ.
    pub fn update_patch(
        &mut self,
        patch: &crate::source::patch_preview::PatchPreview,
        mut edits: Vec<FileEdit>,
        bytes: usize,
        ended: bool,
    ) {
        for edit in &mut edits {
            if let Some((_, why)) = patch.failed.iter().find(|(p, _)| *p == edit.path) {
                edit.state = FileState::Failed;
                edit.error = Some(why.clone());
            }
        }
        for (path, why) in &patch.refused {
            edits.push(FileEdit {
                path: path.clone(),
                original: Some(String::new()),
                calls: Vec::new(),
                error: Some(why.clone()),
                state: FileState::Refused,
            });
        }
        self.update(&patch.calls, edits, bytes, ended);
        self.whole_patch = Some(WholePatch {
            refusal: patch.refusal.clone(),
            doubts: patch.doubts.clone(),
        });
        for tab in &mut self.tabs {
            tab.app.loose_levels = patch
                .levels
                .iter()
                .find(|(p, _)| *p == tab.path)
                .map(|(_, l)| l.clone())
                .unwrap_or_default();
            if patch.agent.is_some() {
                // An agent's blocks are srview's: numbered by the input's
                // lines where known (an Aider reply), else by none.
                let lines = patch.input_lines.iter().find(|(p, _)| *p == tab.path);
                tab.app.hunk_lines = lines.map(|(_, l)| l.clone()).unwrap_or_default();
                tab.app.block_numbers = if tab.app.hunk_lines.is_empty() {
                    crate::source::patch_preview::BlockNumbers::Unnumbered
                } else {
                    crate::source::patch_preview::BlockNumbers::Reply
                };
            }
            let loose: Vec<&str> = patch
                .loose
                .iter()
                .filter(|(p, _)| *p == tab.path)
                .map(|(_, w)| w.as_str())
                .collect();
            if let Some(why) = patch.failed.iter().find(|(p, _)| *p == tab.path) {
                let who = patch.agent.unwrap_or("apply_patch");
                tab.app.note_state(format!("{who} fails here: {}", why.1));
            } else if !loose.is_empty() {
                // An agent's loose stage may be said by the agent itself:
                // only Codex's apply_patch is known to be silent.
                let silent = if patch.agent.is_some() {
                    ""
                } else {
                    " (the reference is silent)"
                };
                tab.app
                    .note_state(format!("loose match{silent}: {}", loose.join("; ")));
            }
        }
    }

    /// The index of `edit`'s tab, added (over `base`) if it has none yet.
    fn tab_for(&mut self, edit: &FileEdit, base: &str) -> usize {
        if let Some(i) = self.tabs.iter().position(|t| t.path == edit.path) {
            return i;
        }
        let app = new_app(self.options, &edit.path, base.to_string());
        self.tabs.push(Tab {
            path: edit.path.clone(),
            state: edit.state,
            calls: 0,
            written: false,
            refusal: None,
            generation: 0,
            app,
            call_apps: Vec::new(),
            whole: false,
        });
        self.tabs.len() - 1
    }

    /// A file whose path was refused (or that cannot be read) gets a tab
    /// too, saying so: nothing of it is shown or written.
    fn show_refused(&mut self, edit: &FileEdit) {
        let why = edit.error.clone().unwrap_or_else(|| "refused".into());
        let i = self.tab_for(edit, "");
        let tab = &mut self.tabs[i];
        if tab.state != FileState::Refused || tab.refusal.as_deref() != Some(why.as_str()) {
            tab.app = new_app(self.options, &edit.path, String::new());
            tab.generation += 1;
        }
        tab.state = FileState::Refused;
        tab.calls = 0;
        // No diff is coming for it: not `waiting`.
        tab.app.end_stream();
        tab.app.notice = Some(Notice {
            text: format!("nothing of this file is shown or written: {why}"),
            error: true,
        });
        tab.refusal = Some(why);
    }

    /// The transcript has been quiet for [`super::PAUSE_AFTER`]: shown
    /// `paused`, and each file whose call is still open is shown as final
    /// mode would, until more text arrives (as a single diff pauses).
    pub fn pause(&mut self) {
        if self.received.pause() {
            for tab in &mut self.tabs {
                tab.app.pause();
            }
        }
    }

    pub fn current_app(&self) -> Option<&App> {
        self.tabs.get(self.current).map(|t| &t.app)
    }

    fn edit_index(&self, tab: usize) -> Option<usize> {
        let path = &self.tabs.get(tab)?.path;
        self.edits.iter().position(|e| &e.path == path)
    }

    /// A key: the transcript's own rows of the table ([`KeyScope::Transcript`])
    /// act on the tabs; the rest go to the current tab's previewer.
    pub fn on_key(&mut self, key: KeyEvent) -> Effect {
        let action = keymap::lookup(KeyScope::Transcript, key);
        // A held-back accept: the same key again writes, any other cancels
        // it (Esc doing nothing else).
        let confirmed = self.confirming.take();
        let endings_asked = std::mem::take(&mut self.endings_asked);
        // Any key ends a refusal notice (the key may well bring it back).
        self.clear_refusal();
        // `L` when asked about mixed line endings: write as the held-back
        // key would, with the file's line endings.
        if let (Some(held), Some(Action::FileEndings), true) = (confirmed, action, endings_asked) {
            let tabs = if held == Action::AcceptAll {
                (0..self.tabs.len()).collect()
            } else {
                vec![self.current]
            };
            return match self.accept(held, tabs, true) {
                Effect::Write { files, .. } => Effect::Write {
                    files,
                    file_endings: true,
                },
                other => other,
            };
        }
        if confirmed.is_some() && confirmed != action && action == Some(Action::Close) {
            self.notice = Some(Notice {
                text: "accept cancelled: nothing written".into(),
                error: false,
            });
            return Effect::None;
        }
        let confirmed = confirmed.is_some() && confirmed == action;
        // The help overlay and a search query being typed take every key.
        let help_open = self
            .current_app()
            .is_some_and(|a| a.view.help || a.search_typing());
        match action {
            _ if help_open => {}
            Some(Action::NextFile) => {
                self.select((self.current + 1) % self.tabs.len().max(1));
                return Effect::None;
            }
            Some(Action::PrevFile) => {
                let n = self.tabs.len().max(1);
                self.select((self.current + n - 1) % n);
                return Effect::None;
            }
            Some(Action::File(n)) => {
                self.select(usize::from(n));
                return Effect::None;
            }
            // The tab's previewer follows its stream too (below).
            Some(Action::FollowFile) => self.follow_tabs = true,
            Some(Action::AcceptFile) => {
                return self.accept(Action::AcceptFile, vec![self.current], confirmed);
            }
            Some(Action::AcceptAll) => {
                let tabs = (0..self.tabs.len()).collect();
                return self.accept(Action::AcceptAll, tabs, confirmed);
            }
            Some(Action::Reload) => return Effect::Reload,
            // Quitting after some files were written is a success: what
            // the user accepted is on disk (Esc, passed to the tab, never quits).
            Some(Action::Quit) => {
                let any_written = self.tabs.iter().any(|t| t.written);
                return Effect::Quit(if any_written { 0 } else { 1 });
            }
            // One diff's keys, said to be one diff's.
            None => match keymap::lookup(KeyScope::SingleDiff, key) {
                // A tab's edit is accepted only once its call is complete,
                // and then the tab already shows the final result.
                Some(Action::FinalView) => {
                    self.notice = Some(Notice {
                        text: "F is for a single diff: a transcript edit shows its final result once its call is complete".into(),
                        error: false,
                    });
                    return Effect::None;
                }
                Some(Action::LeaveOut) => {
                    self.notice = Some(Notice {
                        text: keys::NO_LEAVING_OUT.into(),
                        error: false,
                    });
                    return Effect::None;
                }
                _ => {}
            },
            _ => {}
        }
        match self.tabs.get_mut(self.current) {
            Some(tab) => keys::on_key_in(&mut tab.app, key, KeyScope::Transcript),
            None => Effect::None,
        }
    }

    fn select(&mut self, tab: usize) {
        if tab < self.tabs.len() {
            self.current = tab;
            self.follow_tabs = false;
        }
    }

    /// Checks the tabs can be written; the loop writes them all or none.
    /// A block whose place is in doubt holds the write back until `key` is
    /// pressed again (`confirmed`).
    fn accept(&mut self, key: Action, tabs: Vec<usize>, confirmed: bool) -> Effect {
        use crate::diagnose::accept::{Case, Decision, Input, Why, accept};
        // Neither a transcript that could not be read to its end nor a
        // patch the reference refuses as a whole is written in part: the
        // transcript as a whole is the first case asked about.
        let whole = Case::<()> {
            input: match &self.received.unreadable {
                Some(why) => Input::Unreadable(why.clone()),
                None => Input::Whole,
            },
            result: match self.whole_patch.as_ref().and_then(|w| w.refusal.as_deref()) {
                Some(why) => Err(crate::engine::error_headline(why).to_string()),
                None => Ok(None),
            },
            before: None,
            deletes: true,
            on_disk: Ok(()),
            doubts: Vec::new(),
            answered: true,
        };
        let whole_refusal = match accept(whole) {
            Decision::Refuse(Why::Unreadable(why)) => {
                Some(format!("the transcript is unreadable: {why}"))
            }
            Decision::Refuse(Why::Refused(why)) => Some(format!(
                "the reference refuses the patch as it stands: {why}"
            )),
            _ => None,
        };
        if let Some(why) = whole_refusal {
            self.refuse(format!("nothing written: {why}"), Until::Key, true);
            return Effect::None;
        }
        // A refused path is never written, and accepting all while one is
        // refused writes nothing, as `srview apply --transcript` does.
        let refused: Vec<&Tab> = tabs
            .iter()
            .filter_map(|&t| self.tabs.get(t))
            .filter(|t| t.state == FileState::Refused)
            .collect();
        if !refused.is_empty() {
            let entries: Vec<String> = refused.iter().map(|t| t.refused_entry()).collect();
            let until = Until::State(
                refused
                    .iter()
                    .map(|t| (t.path.clone(), FileState::Refused))
                    .collect(),
            );
            let text = format!(
                "nothing written: refused: {} (r reloads from disk; --allow-outside permits paths outside --cwd)",
                entries.join(", ")
            );
            self.refuse(text, until, true);
            return Effect::None;
        }
        let mut indices = Vec::new();
        let mut accepted = Vec::new();
        for t in tabs {
            let Some(tab) = self.tabs.get(t) else {
                continue;
            };
            if tab.written {
                continue;
            }
            let Some(e) = self.edit_index(t) else {
                continue;
            };
            let edit = &self.edits[e];
            // Each file's own case; its doubts are asked about below, for
            // all the files at once (the write is one, all or none). The
            // file on disk is checked by the write itself.
            let case = Case::<()> {
                input: Input::Whole,
                // A failing edit's error: its last line says what went
                // wrong; a file still streaming has none, its state says it
                // all.
                result: if edit.ok() {
                    Ok(Some(edit.content()))
                } else {
                    Err(edit
                        .error
                        .as_deref()
                        .and_then(|why| why.lines().rfind(|l| !l.trim().is_empty()))
                        .map(|l| format!(": {}", l.trim()))
                        .unwrap_or_default())
                },
                before: Some(edit.original.as_deref()),
                deletes: false,
                on_disk: Ok(()),
                doubts: Vec::new(),
                answered: true,
            };
            match accept(case) {
                Decision::Write | Decision::Ask(_) => {
                    indices.push(e);
                    accepted.push(t);
                }
                // Accepting a file its calls leave as it is would report a
                // write of nothing (no block yet, prose only).
                Decision::Refuse(Why::Unchanged) => {
                    let why = match tab.app.accepted_content() {
                        Err(Refusal::NothingToAccept) => "has no complete block yet",
                        _ => "is left unchanged by its edits",
                    };
                    let text = format!("nothing written: {} {why}: nothing to accept", edit.path);
                    let until = Until::Content(vec![(
                        edit.path.clone(),
                        edit.state,
                        edit.content().to_string(),
                    )]);
                    self.refuse(text, until, true);
                    return Effect::None;
                }
                Decision::Refuse(why) => {
                    let last_line = match why {
                        Why::Refused(last_line) => last_line,
                        _ => String::new(),
                    };
                    let text = format!(
                        "nothing written: {} {}{last_line}",
                        edit.path,
                        state_phrase(edit.state)
                    );
                    let until = Until::State(vec![(edit.path.clone(), edit.state)]);
                    self.refuse(text, until, true);
                    return Effect::None;
                }
            }
        }
        if indices.is_empty() {
            let (text, until) = if self.tabs.is_empty() {
                ("no complete block yet: nothing to accept", Until::FirstTab)
            } else {
                ("nothing to write: already written", Until::Key)
            };
            self.refuse(text.into(), until, false);
            return Effect::None;
        }
        // Mid-stream, later calls may edit the same files again: writing
        // now would leave those edits out.
        let streaming_doubt = (self.received.stream == StreamState::Streaming).then(|| {
            let again = key_char(key);
            format!(
                "the transcript is still streaming: later calls may edit {} again: press {again} again to write it as it is now, Esc to cancel",
                if accepted.len() == 1 {
                    self.tabs[accepted[0]].path.clone()
                } else {
                    "these files".to_string()
                }
            )
        });
        // The files' doubts together: asked about until the key is pressed
        // again. Computed only when they can still be asked (the notice
        // selects the first doubtful block).
        let doubts: Vec<String> = if confirmed {
            Vec::new()
        } else {
            streaming_doubt
                .or_else(|| match &self.whole_patch {
                    // A patch's own doubts, not those of the blocks that show it.
                    Some(whole) => (!whole.doubts.is_empty()).then(|| {
                        let again = key_char(key);
                        format!(
                            "{}: press {again} again to write anyway, Esc to cancel",
                            whole.doubts.join("; ")
                        )
                    }),
                    None => self.doubt_notice(&accepted, key),
                })
                .into_iter()
                .collect()
        };
        let all = Case::<()> {
            input: Input::Whole,
            result: Ok(None),
            before: None,
            deletes: true,
            on_disk: Ok(()),
            doubts,
            answered: confirmed,
        };
        if let Decision::Ask(question) = accept(all) {
            let until = Until::Content(
                indices
                    .iter()
                    .filter_map(|&e| self.edits.get(e))
                    .map(|e| (e.path.clone(), e.state, e.content().to_string()))
                    .collect(),
            );
            self.refuse(question.join("; "), until, true);
            self.confirming = Some(key);
            return Effect::None;
        }
        self.clear_refusal();
        Effect::Write {
            files: indices,
            file_endings: false,
        }
    }

    /// What to ask before writing `tabs` when a block of theirs is placed
    /// where its diagnosis cannot vouch for (see [`crate::tui::app::place_doubt`]);
    /// the first such block is selected in its tab.
    fn doubt_notice(&mut self, tabs: &[usize], key: Action) -> Option<String> {
        use crate::diagnose::doubt::{Ending, mixed_endings, mixed_line_endings};
        let mut first = None;
        let mut count = 0;
        let mut any_mixed = false;
        // The endings of the files whose result would mix others in.
        let mut kept: Vec<Ending> = Vec::new();
        let mut mixed_tabs = 0;
        // Blocks in doubt, for "N more blocks": a file's mixed line endings
        // is no block (the file is named instead).
        let mut blocks_in_doubt = 0;
        let mut first_is_block = false;
        // The other files in doubt, named: the second key writes them too.
        let mut others: Vec<String> = Vec::new();
        for &t in tabs {
            let Some(tab) = self.tabs.get_mut(t) else {
                continue;
            };
            // Several calls are written one after another: each is asked
            // about as it runs, over the text before it.
            let doubtful: Vec<(Option<usize>, _)> = if tab.call_apps.is_empty() {
                tab.app
                    .doubtful_blocks()
                    .into_iter()
                    .map(|d| (None, d))
                    .collect()
            } else {
                let mut all = Vec::new();
                for (k, app) in tab.call_apps.iter_mut().enumerate() {
                    all.extend(app.doubtful_blocks().into_iter().map(|d| (Some(k), d)));
                }
                all
            };
            // What the tab's result does to the file (brackets left
            // unbalanced, text already there...): asked about too (a
            // tester's find: the transcript wrote what `apply --write`
            // holds back).
            let judged = tab.judge(None);
            let mixed_file = tab
                .app
                .accepted_content()
                .ok()
                .and_then(|content| mixed_endings(&tab.app.original.text(), content.chunks()));
            kept.extend(mixed_file);
            let mixed = mixed_file.is_some();
            any_mixed |= mixed;
            mixed_tabs += usize::from(mixed);
            let here = doubtful.len() + judged.len() + usize::from(mixed);
            count += here;
            blocks_in_doubt += doubtful.len();
            if here > 0 && first.is_some() && !others.contains(&tab.path) {
                others.push(tab.path.clone());
            }
            if first.is_none() {
                if let Some((call, (mut d, doubt))) = doubtful.into_iter().next() {
                    let group = call.and_then(|k| tab.app.call_groups.get(k));
                    let sentence = match (call, group) {
                        // The block as the tab numbers it, beside its call.
                        (Some(_), Some(g)) => {
                            d.index += g.first_block;
                            tab.app.select_block(d.index);
                            crate::tui::app::doubt_sentence(&d, doubt)
                        }
                        (Some(k), None) => format!(
                            "call {}: {}",
                            k + 1,
                            crate::tui::app::doubt_sentence(&d, doubt)
                        ),
                        (None, _) => {
                            tab.app.select_block(d.index);
                            crate::tui::app::doubt_sentence(&d, doubt)
                        }
                    };
                    first = Some((t, sentence));
                    first_is_block = true;
                } else if !judged.is_empty() {
                    first = Some((t, judged.join("; ")));
                } else if let Some(file) = mixed_file {
                    first = Some((t, mixed_line_endings(file).to_string()));
                }
            }
        }
        let (t, sentence) = first?;
        if tabs.len() > 1 {
            self.select(t);
        }
        let again = key_char(key);
        let files = if others.is_empty() {
            String::new()
        } else {
            format!(" (in doubt too: {})", others.join(", "))
        };
        // `L` only when line endings are all that is asked about: it must
        // not write past another doubt.
        self.endings_asked = any_mixed && count == mixed_tabs;
        let endings = match (self.endings_asked, kept.first()) {
            (false, _) | (true, None) => "",
            (true, Some(&one)) if kept.iter().any(|&k| k != one) => {
                ", L to use the files' line endings"
            }
            (true, Some(Ending::Crlf)) => {
                ", L to use the files' line endings (CRLF for the new lines too)"
            }
            (true, Some(Ending::Lf)) => {
                ", L to use the files' line endings (LF for the new lines too)"
            }
        };
        Some(format!(
            "{}: {sentence}{}{files}: press {again} again to write anyway{endings}, Esc to cancel",
            self.tabs[t].path,
            keys::others_in_doubt(blocks_in_doubt - usize::from(first_is_block))
        ))
    }

    /// The loop wrote these edits.
    pub fn mark_written(&mut self, edits: &[usize]) {
        let paths: Vec<String> = edits
            .iter()
            .filter_map(|&e| self.edits.get(e).map(|x| x.path.clone()))
            .collect();
        for tab in &mut self.tabs {
            if paths.contains(&tab.path) {
                tab.written = true;
            }
        }
        self.notice = Some(Notice {
            text: format!("wrote {}", paths.join(", ")),
            error: false,
        });
    }

    pub fn all_written(&self) -> bool {
        !self.tabs.is_empty() && self.tabs.iter().all(|t| t.written)
    }
}

/// Shows `call` (a call of `calls`) in `app`, over the text it starts from.
fn show_call(app: &mut App, calls: &[ToolCall], call: &crate::source::transcript::CallResult) {
    let body = calls
        .get(call.call)
        .map(|c| c.body.clone())
        .unwrap_or_default();
    match call.kind {
        CallKind::WriteToFile => {
            app.set_direct(call.content().map_or(body, str::to_string), call.partial)
        }
        CallKind::ReplaceInFile => {
            app.set_diff(body);
            if !call.partial {
                app.end_stream();
            }
        }
    }
}

/// Keeps `tab.call_apps` one per call of `edit` when it has several (each
/// over the text before it), rebuilt when a call comes, else only the
/// last one (still streaming) updated.
fn update_call_apps(tab: &mut Tab, calls: &[ToolCall], edit: &FileEdit, options: ApplyOptions) {
    let n = edit.calls.len();
    if n < 2 {
        tab.call_apps.clear();
        return;
    }
    let base = |k: usize| match k {
        0 => edit.before().to_string(),
        k => edit.calls[k - 1]
            .content()
            .unwrap_or(edit.before())
            .to_string(),
    };
    let stale = tab.call_apps.len() != n
        || tab
            .call_apps
            .last()
            .is_some_and(|app| app.original.text() != base(n - 1));
    if stale {
        tab.call_apps = (0..n)
            .map(|k| new_app(options, &edit.path, base(k)))
            .collect();
        for (app, call) in tab.call_apps.iter_mut().zip(&edit.calls) {
            show_call(app, calls, call);
        }
    } else if let (Some(app), Some(call)) = (tab.call_apps.last_mut(), edit.calls.last()) {
        show_call(app, calls, call);
    }
}

/// A tab's previewer for `path`, starting from `base`.
fn new_app(options: ApplyOptions, path: &str, base: String) -> App {
    let mut app = App::new(PathBuf::from(path), base, options.version);
    app.set_fix_model_output(options.fix_model_output);
    app
}

/// A file's state as the predicate of a sentence: `settings.toml failed`,
/// `settings.toml is still streaming`.
fn state_phrase(state: FileState) -> &'static str {
    match state {
        FileState::Streaming => "is still streaming",
        FileState::Applied => "applied",
        FileState::Failed => "has a failing block",
        FileState::Refused => "was refused",
    }
}

/// The key of `action` (`a` or `A`, accepting) in a transcript, as the
/// question names it: the table's.
fn key_char(action: Action) -> String {
    keymap::rows(KeyScope::Transcript)
        .flat_map(|r| r.binds)
        .find(|b| b.action == action)
        .map_or_else(|| "a".to_string(), keymap::key_name)
}
