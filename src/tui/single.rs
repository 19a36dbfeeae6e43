//! `srview FILE [DIFF]`: the previewer of one diff against one file, as a
//! [`Screen`]. Its state is an [`App`]; accepting and reloading read and
//! write FILE here.

use std::path::PathBuf;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_crossterm::crossterm::event::Event as TermEvent;

use super::run::{Flow, Screen};
use super::{Exit, Folded, TuiConfig};
use crate::dialect::Dialect;
use crate::dialect::one_file::{Place, Rerun, Target};
use crate::dialect::registry::DialectRow;
use crate::input;
use crate::output::{self, Loaded, NotAsLoaded};
use crate::source::live::{LiveInput, Reading};
use crate::source::watch::SourceEvent;
use crate::tui::app::text::TextLines;
use crate::tui::app::{App, Effect, Notice, StreamState, keys};
use crate::tui::view::{self, Caches, highlight::Syntaxes, theme::Theme};

/// What accepting does with FILE.
#[derive(Debug, Clone, Copy, Default)]
pub struct AcceptTo {
    /// Print the result on stdout instead of writing FILE.
    pub print: bool,
    /// FILE may not exist: it was loaded as an empty original.
    pub new_file: bool,
}

pub struct SingleFile {
    app: App,
    caches: Caches,
    accept_to: AcceptTo,
    /// The diff's dialect once forced or shown by its text (or the agent
    /// matcher `--dialect` names, `pi-edit`..., or the one a whole JSON
    /// input's keys show), and its text while it may be another dialect
    /// than SEARCH/REPLACE (the app is given its blocks).
    live: LiveInput,
    /// The reference refuses the diff in another dialect: accepting writes
    /// nothing (the app's notice says why).
    refused: Option<String>,
    /// The source has ended: no more text will come.
    ended: bool,
    /// The last `a` asked about the doubts of another dialect's result.
    asked: bool,
    /// Another dialect's diff that can no longer be read (invalid UTF-8, a
    /// NUL byte): nothing is written.
    unreadable: Option<String>,
    /// The notice saying why `a` wrote nothing of the text as it stood.
    text_refusal: Option<String>,
    /// The path the text names and whether it is another file than FILE
    /// (the refusal): asked of the file system once a path, not once a
    /// streamed chunk.
    named: std::cell::RefCell<Option<(String, Option<String>)>>,
    /// How the previewer was run, said for the file an input names
    /// instead of FILE (the refusal's runnable command).
    rerun: Rerun,
}

impl SingleFile {
    /// The previewer of `file`, whose text is `original`.
    pub fn new(file: PathBuf, original: String, config: &TuiConfig, accept_to: AcceptTo) -> Self {
        let mut app = App::new(file, original, config.version);
        app.set_fix_model_output(config.fix_model_output);
        if config.final_mode {
            app.end_stream();
        }
        let caches = Caches::new(Syntaxes::load(), &app);
        SingleFile {
            app,
            caches,
            accept_to,
            live: LiveInput::new(None, None),
            refused: None,
            // `--final`: the diff is taken as complete.
            ended: config.final_mode,
            asked: false,
            unreadable: None,
            text_refusal: None,
            named: Default::default(),
            rerun: Rerun::default(),
        }
    }

    /// Reads the diff as `dialect` instead of detecting it.
    pub fn with_dialect(mut self, dialect: Option<Dialect>) -> Self {
        self.live = LiveInput::new(dialect, None);
        self
    }

    /// Says `rerun` (how the previewer was run) for the file an input
    /// names instead of FILE; without it, `srview FILE -`.
    pub fn with_rerun(mut self, rerun: Rerun) -> Self {
        self.rerun = rerun;
        self
    }

    /// Reads the diff as a tool input for `row`'s agent matcher.
    pub fn with_agent(mut self, row: Option<&'static DialectRow>) -> Self {
        if row.is_some() {
            // Routed as another dialect: never read as SEARCH/REPLACE.
            self.live = LiveInput::new(None, row);
        }
        self
    }

    /// The diff's dialect when it is not SEARCH/REPLACE.
    fn other(&self) -> Option<Reading> {
        self.live.other()
    }

    /// FILE as the other dialects' one-file world names it (its folder as
    /// given when it cannot be resolved), and its content as loaded
    /// (`None`: it does not exist).
    fn target_parts(&self) -> (Place, Option<String>) {
        let path = &self.app.file_path();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let parent = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        let cwd = parent
            .canonicalize()
            .unwrap_or_else(|_| parent.to_path_buf())
            .to_string_lossy()
            .into_owned();
        let original = self.app.original().text().into_owned();
        let exists = !original.is_empty() || path.exists();
        (Place { cwd, name }, exists.then_some(original))
    }

    /// Another dialect's text so far, as blocks for the app: the file's own
    /// text where the reference matched, its result, its refusal.
    fn show_other(&mut self, other: Reading, ended: bool) {
        // Why an earlier `a` wrote nothing spoke of the text as it was.
        if let Some(said) = self.text_refusal.take()
            && self.app.notice().as_ref().is_some_and(|n| n.text == said)
        {
            self.app.set_notice(None);
        }
        self.app.set_source_bytes(Some(self.live.text().len()));
        self.app.set_raw_input(Some(self.live.text().to_string()));
        self.app.set_cut_input(false);
        let (place, content) = self.target_parts();
        let target = place.target(content.as_deref());
        let Some(blocks) = self.live.blocks(&target, ended) else {
            return;
        };
        match blocks {
            Ok(blocks) => {
                self.app
                    .place_blocks(blocks.levels, blocks.hunk_lines, blocks.numbers);
                self.app.set_block_leads(blocks.leads);
                self.app.set_diff(blocks.body);
                self.refused = blocks
                    .refused
                    .then(|| blocks.note.clone().unwrap_or_default());
                self.app.set_refused_by_reference(blocks.refused);
                // A move is not taken here: FILE is edited in place, and
                // that is said, as `srview apply` says it. A patch or an
                // edit naming another file is shown, and `a` refuses it
                // (`apply` does): said from the start.
                let moved = if matches!(other, Reading::Builtin(Dialect::ApplyPatch)) {
                    crate::dialect::one_file::elsewhere(self.live.text(), &place.name).moved
                } else {
                    None
                };
                let another = self
                    .another_file(other, self.live.text())
                    .map(|why| format!("{why}; a writes nothing"));
                // A move onto FILE itself loses it: a doubt, not a place
                // FILE goes.
                let moved = moved.filter(|_| {
                    !crate::dialect::one_file::moves_onto_itself(self.live.text(), &target)
                });
                let notes: Vec<String> = blocks
                    .note
                    .into_iter()
                    .chain(another)
                    .chain(moved.map(|(from, to)| {
                        format!("the patch moves {from} to {to}; this file is edited in place")
                    }))
                    .collect();
                let note = (!notes.is_empty()).then(|| notes.join("; "));
                if let Some(note) = note {
                    self.app.note_state(note);
                }
            }
            Err(why) => {
                // Its `srview apply --transcript` command with the real
                // patch and folder, as the commands say it.
                let why = why.said(&self.rerun, &place.cwd);
                self.refused = Some(why.clone());
                self.app.set_refused_by_reference(true);
                self.app.set_diff(String::new());
                self.app.note_state(why);
            }
        }
    }

    /// A patch or an edit's JSON that stops mid-way (the tool would refuse
    /// it as it stands, `why`) while its source is only quiet: it stays
    /// shown as it streamed, paused, and nothing is accepted until it is
    /// whole. One that cannot be read even as a prefix stays refused.
    fn show_paused_cut(&mut self, other: Reading, why: String) {
        self.show_other(other, false);
        if self.refused.is_some() || self.app.diff().is_empty() {
            // Nothing of the edit to show yet: the refusal stands.
            self.show_other(other, true);
            return;
        }
        let said = format!(
            "paused mid-edit: the tool runs an edit only once its input is whole (as it \
             stands: {why}); a accepts nothing until the rest arrives"
        );
        self.refused = Some(said.clone());
        self.app.set_refused_by_reference(true);
        self.app.set_cut_input(true);
        self.app.note_state(said);
    }

    /// `F` on another dialect mid-stream: what the reference makes of the
    /// whole text as it stands, which is what `a` writes. Its refusal (a
    /// cut patch, an edit whose JSON is not whole) is said, and no result
    /// is shown for it: the blocks' own final mode would apply what the
    /// reference refuses.
    fn preview_final(&mut self, other: Reading) {
        let (place, original) = self.target_parts();
        let target = place.target(original.as_deref());
        let Some(result) = self.live.result(&target) else {
            return;
        };
        match result {
            Err(why) => {
                // A patch the one-file world cannot take says the command
                // that applies it whole, as the notice does.
                let why = match self.live.blocks(&target, true) {
                    Some(Err(e)) => e.said(&self.rerun, &place.cwd),
                    _ => why,
                };
                self.refuse_text(format!(
                    "no final result: if the diff ended here the reference would refuse it \
                     ({why}), and a writes nothing"
                ))
            }
            Ok(_) => {
                self.app.set_notice(None);
                self.show_other(other, true);
                let note = self.app.take_notice().map(|n| n.text);
                self.app.show_final();
                let text = "final result: what accepting writes if the diff ends here. F or Esc: \
                            back to the live view";
                self.app.set_notice(Some(Notice {
                    text: match note {
                        Some(note) => format!("{text} ({note})"),
                        None => text.into(),
                    },
                    error: false,
                }));
            }
        }
    }

    /// Says why `a` writes nothing of the diff as it stands now: the notice
    /// goes when more text comes.
    fn refuse_text(&mut self, text: String) {
        self.text_refusal = Some(text.clone());
        self.app.show_notice(Notice { text, error: true });
    }

    /// `c` on another dialect: the whole diff corrected for FILE, as
    /// `srview fix` prints it, or why there is none.
    fn copy_fix(&mut self, block: usize, other: Reading) -> Flow {
        let (place, original) = self.target_parts();
        let target = place.target(original.as_deref());
        let dialect = match other {
            Reading::Builtin(dialect) => dialect,
            Reading::Agent(row) => return self.copy_agent_fix(block, row, &target),
            Reading::SearchReplace => return Flow::Continue,
        };
        let shown = self.app.file_path().display().to_string();
        let raw = self.live.text();
        match crate::dialect::corrected::correct(raw, dialect, &target, &shown) {
            Ok(crate::dialect::corrected::Corrected {
                text: Some(text),
                complete: true,
                ..
            }) if text != raw => Flow::Copy { block, text },
            Ok(corrected) => {
                let why = corrected
                    .note
                    .unwrap_or_else(|| "the diff needs no correction".into());
                self.app.show_notice(Notice {
                    text: format!("nothing copied: {why}"),
                    error: true,
                });
                Flow::Continue
            }
            Err(e) => {
                self.app.show_notice(Notice {
                    text: format!("nothing copied: {e}"),
                    error: true,
                });
                Flow::Continue
            }
        }
    }

    /// `c` on an agent's tool input: the input corrected in the agent's
    /// own schema, as `srview fix` prints it (offered only when the agent's
    /// own matcher places it exactly), or why there is none.
    fn copy_agent_fix(&mut self, block: usize, row: &DialectRow, target: &Target) -> Flow {
        let refuse = |app: &mut App, why: String| {
            app.show_notice(Notice {
                text: format!("nothing copied: {why}"),
                error: true,
            });
            Flow::Continue
        };
        let Some(input) = row.input_of(self.live.text()) else {
            return refuse(&mut self.app, "the input is not a whole JSON object".into());
        };
        let input = row.aim(&input, target.cwd, target.name);
        let Some(run) = crate::dialect::registry::run_on_file(
            row.value,
            &input,
            target.name,
            target.content,
            target.cwd,
        ) else {
            return refuse(
                &mut self.app,
                format!("srview has no matcher for {}", row.value),
            );
        };
        let corrected = crate::dialect::call_correct::correct(
            row,
            &input,
            target.content.unwrap_or_default(),
            (target.name, target.cwd),
            &run.outcome,
        );
        match corrected {
            Some(crate::dialect::call_correct::Correction {
                input: Some(fixed), ..
            }) => match serde_json::to_string_pretty(&fixed) {
                Ok(text) => Flow::Copy { block, text },
                Err(e) => refuse(&mut self.app, e.to_string()),
            },
            Some(c) => refuse(
                &mut self.app,
                c.withheld
                    .unwrap_or_else(|| "srview cannot stand behind a correction".into()),
            ),
            None => refuse(
                &mut self.app,
                "every edit is placed exactly: nothing to correct".into(),
            ),
        }
    }

    /// Another dialect's text made of the hunks (or the edit) not left
    /// out, `None` when none is; or why it cannot be made. The blocks on
    /// screen must be its hunks one for one, else a number would name
    /// another hunk.
    fn chosen_raw(&self, other: Reading, name: &str) -> Result<Option<String>, String> {
        use crate::dialect::chosen::{self, Choice};
        if self.app.left_out().is_empty() {
            return Ok(None);
        }
        let Reading::Builtin(dialect) = other else {
            return Err(
                "x leaves out blocks of srview's own dialects only: an agent's tool input \
                 runs whole (x takes them back in)"
                    .into(),
            );
        };
        let skip = Choice::Skip(self.app.left_out().iter().map(|i| i + 1).collect());
        let chosen = chosen::choose(self.live.text(), dialect, self.app.version(), name, &skip)
            .map_err(|e| e.to_string())?;
        if chosen.count != self.app.listed_blocks() {
            return Err(format!(
                "the blocks shown are not the edit's {} one for one, so none can be left out                  (x takes them back in)",
                crate::words::count(chosen.count, chosen::noun(dialect))
            ));
        }
        Ok(Some(chosen.text))
    }

    /// Why `raw` (another dialect's text) is not written to FILE when its
    /// patch section or edit names another file: `apply`'s refusal.
    fn another_file(&self, other: Reading, raw: &str) -> Option<String> {
        use crate::dialect::one_file::{path_named, refusal_of};
        let file = self.app.file_path();
        let named = match other {
            Reading::Builtin(dialect) => path_named(raw, dialect, file)?,
            // An agent's one-file tool: the path its input names, refused
            // as an edit's JSON naming it is.
            Reading::Agent(row) => {
                let input = row.input_of(raw)?;
                row.named_path(&input)?.to_string()
            }
            Reading::SearchReplace => return None,
        };
        let mut cached = self.named.borrow_mut();
        match cached.as_ref() {
            Some((path, refusal)) if *path == named => refusal.clone(),
            _ => {
                let refusal = refusal_of(&named, file, &self.rerun);
                *cached = Some((named, refusal.clone()));
                refusal
            }
        }
    }

    /// Whether FILE on disk still holds what was loaded (the one check
    /// accepting and the change notice share; a file created with
    /// `--new-file` may still be missing or empty).
    fn unchanged_on_disk(&self) -> Result<(), NotAsLoaded> {
        let loaded = self.app.original().text();
        let loaded = loaded.as_bytes();
        let as_loaded = if loaded.is_empty() && self.accept_to.new_file {
            Loaded::MissingOrEmpty
        } else {
            Loaded::Holding(loaded)
        };
        output::check_unchanged(self.app.file_path(), as_loaded)
    }

    /// The blocks left out of what was written, as "block #2" (for the
    /// line printed once the terminal is back).
    pub fn left_out_words(&self) -> Option<String> {
        self.app.left_out_words()
    }

    /// `r`: FILE is read from disk again and the diff re-applied to it.
    fn reload(&mut self) {
        match input::read_text(self.app.file_path(), self.accept_to.new_file) {
            Ok(text) => self.app.reload(text.unwrap_or_default()),
            Err(e) => self.app.show_notice(Notice {
                text: e.to_string(),
                error: true,
            }),
        }
    }

    /// What `a` writes of another dialect's text now (the hunks not left
    /// out), with the doubts of that result, or why nothing is written;
    /// and FILE's content as loaded (`None`: it does not exist).
    #[allow(clippy::type_complexity)]
    fn other_result(
        &self,
        other: Reading,
    ) -> (
        Option<String>,
        Result<(Option<String>, Vec<String>), String>,
    ) {
        let (place, loaded) = self.target_parts();
        let target = place.target(loaded.as_deref());
        let result = match self.chosen_raw(other, &place.name) {
            Ok(raw) => {
                let raw = raw.as_deref().unwrap_or(self.live.text());
                // An edit meant for another file is never written to FILE,
                // as `apply` refuses it.
                match self.another_file(other, raw) {
                    Some(why) => Err(why),
                    None => self
                        .live
                        .result_of(raw, &target)
                        .unwrap_or_else(|| Err("no dialect decided".into())),
                }
            }
            Err(why) => Err(why),
        };
        (loaded, result)
    }

    /// Judges what `a` would write now, so its doubts are shown before `a`
    /// asks about them: another dialect's result as the reference makes
    /// it, or the SEARCH/REPLACE blocks' (the app's).
    fn judge_result(&mut self) {
        let Some(other) = self.other() else {
            return self.app.judge_result();
        };
        let doubts = match (&self.refused, &self.unreadable) {
            (None, None) => match self.other_result(other).1 {
                Ok((Some(_), doubts)) => doubts,
                _ => Vec::new(),
            },
            _ => Vec::new(),
        };
        self.app.set_result_doubts(doubts);
    }

    /// Writes (or hands over for printing) the accepted content if FILE is
    /// unchanged on disk; otherwise says why and stays open. `confirming`:
    /// the `a` answers a question asked before.
    fn accept(&mut self, content: TextLines, confirming: bool) -> Option<Exit> {
        use crate::diagnose::accept::{Case, Decision, Input, Why, accept};
        let asked = std::mem::take(&mut self.asked) && confirming;
        // The reference's refusal of the whole text does not stand for the
        // text made of the hunks not left out: that text's own result does.
        let whole_refused = self
            .refused
            .clone()
            .filter(|_| self.app.left_out().is_empty());
        let other = self.other();
        // SEARCH/REPLACE: the app has judged its blocks already, and gives
        // the content.
        let mut original = None;
        let (input, result, doubts) = match (whole_refused, &self.unreadable, other) {
            (Some(why), _, _) => (Input::Whole, Err(why), Vec::new()),
            (None, Some(why), _) => (Input::Unreadable(why.clone()), Ok(None), Vec::new()),
            (None, None, None) => (
                Input::Whole,
                Ok(Some(content.text().into_owned())),
                Vec::new(),
            ),
            (None, None, Some(other)) => {
                let (loaded, result) = self.other_result(other);
                original = Some(loaded);
                match result {
                    Ok((text, doubts)) => (Input::Whole, Ok(text), doubts),
                    Err(why) => (Input::Whole, Err(why), Vec::new()),
                }
            }
        };
        // A file with other names (hard links): the write would leave them
        // the old content; asked about with the other doubts.
        let mut doubts = doubts;
        if result.as_ref().is_ok_and(Option::is_some) {
            doubts.extend(crate::output::hard_link_doubt(self.app.file_path()));
        }
        let decision = accept(Case {
            input,
            result: match &result {
                Ok(text) => Ok(text.as_deref()),
                Err(why) => Err(why.clone()),
            },
            before: original.as_ref().map(Option::as_deref),
            deletes: false,
            on_disk: self.unchanged_on_disk(),
            doubts,
            answered: asked,
        });
        let path = self.app.file_path().clone();
        match decision {
            Decision::Write => {}
            Decision::Ask(doubts) => {
                // What `--write` holds back, the previewer asks about first.
                self.asked = true;
                self.app.refuse(format!(
                    "{}: press a again to write anyway, Esc to cancel",
                    doubts.join("; ")
                ));
                self.app.ask_again();
                return None;
            }
            Decision::Refuse(Why::Unchanged) => {
                self.refuse_text("the edit leaves the file as it is: nothing to accept".into());
                return None;
            }
            Decision::Refuse(Why::Deletes) => {
                self.refuse_text(
                    "not accepted: the agent deletes the file, which the previewer does not do"
                        .into(),
                );
                return None;
            }
            Decision::Refuse(Why::NotAsLoaded(NotAsLoaded::Unreadable(e))) => {
                self.app.show_notice(Notice {
                    text: format!("not accepted: cannot re-read {}: {e}", path.display()),
                    error: true,
                });
                return None;
            }
            Decision::Refuse(Why::NotAsLoaded(why)) => {
                let what = match why {
                    NotAsLoaded::Deleted => "was deleted",
                    _ => "changed on disk",
                };
                self.app.offer_reload(format!(
                    "{} {what} since it was loaded: nothing written. r: reload and re-apply",
                    path.display()
                ));
                return None;
            }
            Decision::Refuse(Why::Unreadable(why)) => {
                self.refuse_text(format!("not accepted: the diff is unreadable: {why}"));
                return None;
            }
            Decision::Refuse(Why::Refused(why) | Why::CutOff(why)) => {
                self.refuse_text(format!("not accepted: {why}"));
                return None;
            }
        }
        let content = match result {
            Ok(Some(text)) if other.is_some() => TextLines::owned(text),
            _ => content,
        };
        if self.accept_to.print {
            return Some(Exit::Print(content.text().into_owned()));
        }
        let chunks: Vec<&[u8]> = content.chunks().into_iter().map(str::as_bytes).collect();
        let written = {
            let loaded = self.app.original().text();
            output::write_atomic_chunks(&path, &chunks, Some(loaded.as_bytes()))
        };
        match written {
            Ok(_) => Some(Exit::Wrote(path)),
            Err(e) => {
                self.app.show_notice(Notice {
                    text: format!("not accepted: {e}"),
                    error: true,
                });
                None
            }
        }
    }
}

impl Screen for SingleFile {
    fn on_resize(&mut self, area: Rect) {
        self.app.fit(area);
    }

    fn on_event(&mut self, event: TermEvent) -> Flow {
        // Another dialect's `a` and `c` are answered here, from the
        // reference's own reading of the whole text (the blocks on screen
        // only show it): `a` writes its result, asking its own questions,
        // not those the blocks would raise; `c` copies the whole diff
        // corrected, as `srview fix` gives it, whether or not the selected
        // block needs a correction (a loose hunk shows as an exact block).
        use ratatui_crossterm::crossterm::event::KeyModifiers;
        if let TermEvent::Key(k) = &event
            && (k.modifiers - KeyModifiers::SHIFT).is_empty()
            && !self.app.view().help
            && !self.app.view().raw
            && !self.app.search_typing()
            && let Some(other) = self.other()
        {
            use crate::tui::app::keymap::{self, Action, KeyScope};
            match keymap::lookup(KeyScope::SingleDiff, *k) {
                Some(Action::Accept) => {
                    let confirming = self.app.take_question();
                    let content = self.app.result().clone();
                    return self
                        .accept(content, confirming)
                        .map_or(Flow::Continue, Flow::Exit);
                }
                Some(Action::CopyCorrected) => {
                    self.app.take_question();
                    return self.copy_fix(self.app.view().selected, other);
                }
                Some(Action::FinalView) if !self.app.final_mode() => {
                    self.app.take_question();
                    self.preview_final(other);
                    return Flow::Continue;
                }
                _ => {}
            }
        }
        let previewing = self.app.final_preview();
        let effect = match event {
            TermEvent::Key(k) => keys::on_key(&mut self.app, k),
            TermEvent::Mouse(m) => {
                super::on_mouse(&mut self.app, m);
                Effect::None
            }
            _ => Effect::None,
        };
        if previewing
            && !self.app.final_preview()
            && let Some(other) = self.other()
        {
            // Back to the live view: the text read as the prefix it is.
            self.show_other(other, self.ended);
        }
        match effect {
            Effect::Reload => {
                self.reload();
                Flow::Continue
            }
            Effect::Accept(content) => self
                .accept(content, true)
                .map_or(Flow::Continue, Flow::Exit),
            other => Flow::of(other),
        }
    }

    fn on_text(&mut self, text: Folded) -> Option<StreamState> {
        // Every batch comes here, a batch of keys only too: an end seen
        // once stays seen.
        let newly_ended = text.ended && !self.ended;
        self.ended |= text.ended;
        if self.live.reading() != Some(Reading::SearchReplace) {
            match &text.replaced {
                Some(whole) => self.live.replace(whole),
                None => self.live.push(&text.appended),
            };
            if let Some(row) = self.live.take_keyed() {
                // A whole tool input whose keys only one agent uses.
                self.app.note_state(format!(
                    "read as --dialect {} ({}), from the input's keys",
                    row.value, row.title
                ));
            }
            if let Some(other) = self.other() {
                // Decided once: accepting reads the whole text as this.
                let changes = self.app.diff_changes();
                if text.changes_text() || newly_ended {
                    self.show_other(other, self.ended);
                }
                // What cannot be read is not all of the diff: said, and
                // nothing is written until a later text ends it.
                if text.changes_text() {
                    self.unreadable = None;
                }
                if let Some(problem) = text.problem {
                    self.app.on_source(SourceEvent::Problem(problem));
                }
                if let Some(why) = text.unreadable {
                    self.unreadable = Some(why.clone());
                    self.app.on_source(SourceEvent::Unreadable(why));
                }
                if text.ended {
                    self.app.end_stream();
                }
                return (self.app.diff_changes() != changes).then_some(self.app.stream());
            }
        }
        let app = &mut self.app;
        let changes = app.diff_changes();
        match text.replaced {
            Some(text) => app.set_diff(text),
            None => app.append_diff(&text.appended),
        }
        if let Some(problem) = text.problem {
            app.on_source(SourceEvent::Problem(problem));
        }
        if let Some(why) = text.unreadable {
            app.on_source(SourceEvent::Unreadable(why));
        }
        if text.ended {
            app.end_stream();
        }
        (app.diff_changes() != changes).then_some(app.stream())
    }

    fn show_notice(&mut self, notice: Notice) {
        self.app.show_notice(notice);
    }

    /// A quiet diff in another dialect is shown as the reference reads it
    /// whole (a cut patch refused), as a paused SEARCH/REPLACE diff is shown
    /// in final mode; more text resumes the stream.
    fn pause(&mut self) {
        if let Some(other) = self.other()
            && !self.ended
        {
            self.show_other(other, true);
            if self.live.stops_before_its_end()
                && let Some(why) = self.refused.take()
            {
                self.show_paused_cut(other, why);
            }
        }
        self.app.pause();
    }

    fn idle_pending(&self) -> bool {
        self.app.diagnosis_stale() || self.app.result_doubts_stale()
    }

    fn idle(&mut self) {
        if self.app.diagnosis_stale() {
            self.app.diagnose();
        }
        if self.app.result_doubts_stale() {
            self.judge_result();
        }
    }

    fn target(&self) -> Option<PathBuf> {
        Some(self.app.file_path().clone())
    }

    /// FILE changed on disk while open: said at once (it was said only
    /// when `a` refused to write), with `r` offered. A file touched but
    /// holding the same text says nothing.
    fn on_target_changed(&mut self) {
        let now = self.unchanged_on_disk();
        let gone = matches!(now, Err(NotAsLoaded::Deleted));
        if now.is_ok() {
            // Back as it was loaded (a change undone): the offer goes.
            self.app.withdraw_reload_offer();
            return;
        }
        let file = self.app.file_path().display();
        let what = if gone {
            format!("{file} was removed on disk since srview loaded it")
        } else {
            format!("{file} changed on disk since srview loaded it")
        };
        self.app.offer_reload(format!(
            "{what}: the panes show the text as loaded, and a would write nothing; \
             r reloads it and re-applies the diff"
        ));
    }

    fn render(&mut self, frame: &mut Frame, theme: &Theme) {
        view::render(frame, &self.app, &mut self.caches, theme);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen(original: &str) -> SingleFile {
        let config = TuiConfig {
            version: crate::engine::Version::V1,
            fix_model_output: false,
            final_mode: false,
            feed: super::super::Feed::Stdin,
        };
        SingleFile::new(
            PathBuf::from("f.txt"),
            original.into(),
            &config,
            AcceptTo::default(),
        )
    }

    /// A batch's folded text: rewritten, then appended to, then ended.
    #[test]
    fn folded_text_updates_the_diff_and_the_stream() {
        let mut s = screen("one\ntwo\n");
        let diff = Folded {
            replaced: Some("------- SEARCH\none\n".into()),
            ..Folded::default()
        };
        assert_eq!(s.on_text(diff), Some(StreamState::Streaming));
        let same = Folded {
            replaced: Some("------- SEARCH\none\n".into()),
            ..Folded::default()
        };
        assert_eq!(s.on_text(same), None, "the same text again is no change");
        let rest = Folded {
            appended: "=======\nuno\n+++++++ REPLACE\n".into(),
            ended: true,
            ..Folded::default()
        };
        assert_eq!(s.on_text(rest), Some(StreamState::Ended));
        assert_eq!(
            s.app.diff(),
            "------- SEARCH\none\n=======\nuno\n+++++++ REPLACE\n"
        );
        assert!(s.idle_pending());
        s.idle();
        assert!(!s.idle_pending());
    }

    /// The previewer of `name` holding `original` in a temporary folder.
    fn screen_on_disk(name: &str, original: &str) -> (tempfile::TempDir, PathBuf, SingleFile) {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(name);
        std::fs::write(&path, original).expect("write");
        let config = TuiConfig {
            version: crate::engine::Version::V1,
            fix_model_output: false,
            final_mode: false,
            feed: super::super::Feed::Stdin,
        };
        let s = SingleFile::new(path.clone(), original.into(), &config, AcceptTo::default());
        (dir, path, s)
    }

    /// [`screen_on_disk`] once `diff` has arrived (`ended`: and its input ended).
    fn screen_showing(
        name: &str,
        original: &str,
        diff: &str,
        ended: bool,
    ) -> (tempfile::TempDir, PathBuf, SingleFile) {
        let (dir, path, mut s) = screen_on_disk(name, original);
        s.on_text(text(diff, ended));
        (dir, path, s)
    }

    /// `key`, as the user presses it (an upper-case letter with Shift, as
    /// terminals report it).
    fn press(s: &mut SingleFile, key: char) -> Flow {
        use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let modifiers = if key.is_ascii_uppercase() {
            KeyModifiers::SHIFT
        } else {
            KeyModifiers::NONE
        };
        s.on_event(TermEvent::Key(KeyEvent::new(KeyCode::Char(key), modifiers)))
    }

    /// What `c` copies once `diff` (ended) has been diagnosed over `name`
    /// holding `original`; else the notice that says why nothing was.
    fn copied(name: &str, original: &str, diff: &str) -> Result<String, Notice> {
        let (_dir, _path, mut s) = screen_showing(name, original, diff, true);
        s.idle();
        match press(&mut s, 'c') {
            Flow::Copy { text, .. } => Ok(text),
            _ => Err(s
                .app
                .notice()
                .clone()
                .expect("a notice says why nothing was copied")),
        }
    }

    /// The notice shown, or nothing.
    fn notice_text(s: &SingleFile) -> String {
        crate::tui::app::Notice::text_of(s.app.notice())
    }

    /// The question the first `a` asks, which writes nothing.
    fn asked_at_first_a(s: &mut SingleFile) -> String {
        assert_eq!(accept_now(s, false), None);
        notice_text(s)
    }

    /// Asserts that `asked` starts with `start` and ends offering to write
    /// anyway.
    fn assert_asks_to_write_anyway(asked: &str, start: &str) {
        assert!(
            asked.starts_with(start)
                && asked.ends_with("press a again to write anyway, Esc to cancel"),
            "{asked}"
        );
    }

    /// `a` on what the panes show; `confirming`: it answers a question.
    fn accept_now(s: &mut SingleFile, confirming: bool) -> Option<Exit> {
        let content = s.app.result().clone();
        s.accept(content, confirming)
    }

    fn text(appended: &str, ended: bool) -> Folded {
        Folded {
            appended: appended.into(),
            ended,
            ..Folded::default()
        }
    }

    /// A patch cut before `*** End Patch` when its input ended is refused
    /// as the reference refuses it, however many batches of keys follow
    /// (each comes with an empty text): accepting writes nothing.
    #[test]
    fn a_patch_cut_at_the_end_of_its_input_is_never_written() {
        let original = "def f():\n    if b == 0:\n        raise\n";
        let cut = "*** Begin Patch\n*** Update File: c.py\n@@\n def f():\n-    if b == 0:\n+    if not b:\n";
        let (_dir, path, mut s) = screen_showing("c.py", original, cut, true);
        assert!(s.app.refused_by_reference(), "the header says refused");
        for _ in 0..3 {
            s.on_text(Folded::default());
            assert_eq!(accept_now(&mut s, false), None);
            let notice = s.app.notice().as_ref().map(|n| n.text.clone());
            assert!(
                notice
                    .as_deref()
                    .is_some_and(|n| n.contains("The last line of the patch must be")),
                "{notice:?}"
            );
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
    }

    /// A patch paused before `*** End Patch` stays shown as it streamed
    /// (its hunk still arriving, not applied as final mode would), says
    /// why nothing is accepted, and accepts nothing.
    #[test]
    fn a_patch_paused_mid_hunk_stays_shown_as_it_streamed() {
        let cut = "*** Begin Patch\n*** Update File: c.py\n@@\n def f():\n-    if b == 0:\n+    if not b:\n";
        let (_dir, _path, s) = paused_cut("c.py", "def f():\n    if b == 0:\n        raise\n", cut);
        assert!(
            notice_text(&s).starts_with("not accepted: paused mid-edit: the tool runs an edit"),
            "{}",
            notice_text(&s)
        );
    }

    /// `cut` over `original` in `name`, paused: still shown as it streamed
    /// (paused, `incomplete`, not in final mode), and `a` writes nothing.
    fn paused_cut(
        name: &str,
        original: &str,
        cut: &str,
    ) -> (tempfile::TempDir, PathBuf, SingleFile) {
        let (dir, path, mut s) = screen_showing(name, original, cut, false);
        let streamed = s.app.diff().clone();
        s.pause();
        assert_eq!(s.app.stream(), StreamState::Paused);
        assert!(s.app.cut_input() && !s.app.final_mode());
        assert_eq!(s.app.diff(), &streamed, "shown as it streamed");
        assert_eq!(accept_now(&mut s, false), None);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        (dir, path, s)
    }

    /// What accepting another dialect writes is the reference's own result
    /// of the whole text (as `srview apply` writes it), not the blocks'
    /// rendering of it: a CRLF file keeps its line endings; a complete edit
    /// in a file still watched is whole (no unfinished block, no extra line).
    #[test]
    fn accepting_another_dialect_writes_the_references_result() {
        let original = "a\r\nb\r\nc\r\n";
        let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("f.txt", original, patch, false);
        assert!(!s.app.refused_by_reference());
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\r\nB\r\nc\r\n");

        let original = "x = 1\ny = 2\n";
        let edit = r#"{"file_path": "g.py", "old_string": "y = 2", "new_string": "y = 3"}"#;
        let (_dir, path, mut s) = screen_showing("g.py", original, edit, false);
        assert!(
            s.app.diff().ends_with("+++++++ REPLACE\n"),
            "{}",
            s.app.diff()
        );
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "x = 1\ny = 3\n");
    }

    /// `g.py`, and an edit of it whose JSON is cut inside `new_string`.
    const G_PY: &str = "x = 1\ny = 2\nz = 3\n";
    const EDIT_CUT_MID_STRING: &str =
        r#"{"file_path": "g.py", "old_string": "y = 2", "new_string": "y = 3"#;

    /// An edit's JSON that pauses mid-string stays shown as it streamed
    /// (the header says paused and incomplete, not waiting nor applied),
    /// accepts nothing, and resumes when the rest arrives; an edit that has
    /// shown nothing yet stays refused as the tool refuses it.
    #[test]
    fn an_edit_paused_mid_string_stays_shown_and_accepts_nothing() {
        let original = G_PY;
        let (_dir, path, mut s) = paused_cut("g.py", original, EDIT_CUT_MID_STRING);
        assert_eq!(s.app.outcome().blocks.len(), 1);
        assert_eq!(
            notice_text(&s),
            "not accepted: paused mid-edit: the tool runs an edit only once its input is whole \
             (as it stands: invalid Edit tool input: EOF while parsing a string at line 1 \
             column 65); a accepts nothing until the rest arrives"
        );

        s.on_text(text("\"}", false));
        assert_eq!(s.app.stream(), StreamState::Streaming);
        assert!(!s.app.cut_input() && !s.app.refused_by_reference());
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "x = 1\ny = 3\nz = 3\n"
        );

        let malformed = r#"{"file_path": "g.py", "old_string": 5, "#;
        let (_dir, _path, mut s) = screen_showing("g.py", original, malformed, false);
        s.pause();
        assert!(!s.app.cut_input() && s.app.refused_by_reference());
        assert!(s.app.diff().is_empty());
        assert_eq!(
            notice_text(&s),
            "invalid Edit tool input: invalid type: integer `5`, expected a string at line 1 \
             column 37"
        );
    }

    /// `F` on another dialect mid-stream shows what `a` writes: the
    /// reference's result of the text as it stands, or, where it refuses a
    /// cut text, no result at all (the blocks' own final mode would apply
    /// it); `F` again is back to the live view of the text as it streams.
    #[test]
    fn final_preview_of_another_dialect_is_the_references_result() {
        let original = G_PY;
        let (_dir, _path, mut s) = screen_showing("g.py", original, EDIT_CUT_MID_STRING, false);
        let streamed = s.app.diff().clone();
        press(&mut s, 'F');
        assert!(!s.app.final_preview());
        assert_eq!(s.app.diff(), &streamed);
        assert_eq!(
            notice_text(&s),
            "no final result: if the diff ended here the reference would refuse it (invalid \
             Edit tool input: EOF while parsing a string at line 1 column 65), and a writes \
             nothing"
        );
        s.on_text(text("\"}", false));
        assert_eq!(
            notice_text(&s),
            "",
            "the refusal went with the text it spoke of"
        );
        press(&mut s, 'F');
        assert!(s.app.final_preview());
        assert_eq!(s.app.result().text(), "x = 1\ny = 3\nz = 3\n");

        let cut = "*** Begin Patch\n*** Update File: g.py\n@@\n x = 1\n-y = 2\n+y = 3\n";
        let (_dir, _path, mut s) = screen_showing("g.py", original, cut, false);
        press(&mut s, 'F');
        assert!(!s.app.final_preview());
        assert!(
            notice_text(&s).contains("The last line of the patch must be '*** End Patch'"),
            "{}",
            notice_text(&s)
        );
        s.on_text(text("*** End Patch\n", false));
        let streamed = s.app.diff().clone();
        press(&mut s, 'F');
        assert!(s.app.final_preview());
        assert_eq!(s.app.result().text(), "x = 1\ny = 3\nz = 3\n");
        press(&mut s, 'F');
        assert!(!s.app.final_preview());
        assert_eq!(s.app.diff(), &streamed, "back to the text as it streamed");
    }

    /// An `a` refused mid-stream speaks of the text as it was: its notice
    /// goes when more text comes; the header counts the bytes received.
    #[test]
    fn a_refusal_goes_with_more_text_and_the_header_counts_what_arrived() {
        let head = r#"{"file_path": "g.py", "old_string": "x = 1", "new_str"#;
        let (_dir, _path, mut s) = screen_showing("g.py", "x = 1\n", head, false);
        assert_eq!(accept_now(&mut s, false), None);
        assert!(
            s.app
                .notice()
                .as_ref()
                .is_some_and(|n| n.text.starts_with("not accepted: "))
        );
        let rest = r#"ing": "x = 2"}"#;
        s.on_text(text(rest, false));
        assert!(
            s.app
                .notice()
                .as_ref()
                .is_none_or(|n| !n.text.starts_with("not accepted: ")),
            "{:?}",
            s.app.notice()
        );
        assert_eq!(s.app.source_bytes(), Some(head.len() + rest.len()));
    }

    /// A patch that moves FILE says FILE is edited in place here.
    #[test]
    fn a_moving_patch_says_the_file_is_edited_in_place() {
        let patch = "*** Begin Patch\n*** Update File: f.txt\n*** Move to: g.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let (_dir, _path, s) = screen_showing("f.txt", "a\nb\n", patch, true);
        assert_eq!(
            s.app.notice().as_ref().map(|n| n.text.as_str()),
            Some("the patch moves f.txt to g.txt; this file is edited in place")
        );
    }

    /// A patch that moves FILE onto itself says no place FILE goes: the
    /// agent loses it, a doubt (`check` and `apply` say it).
    #[test]
    fn a_patch_moving_the_file_onto_itself_says_no_edit_in_place() {
        let patch = "*** Begin Patch\n*** Update File: f.txt\n*** Move to: ./f.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let (_dir, _path, s) = screen_showing("f.txt", "a\nb\n", patch, true);
        assert_eq!(s.app.notice().as_ref().map(|n| n.text.as_str()), None);
    }

    /// Session 51: a patch with no section for FILE said `srview apply
    /// --transcript PATCH --cwd DIR`; the notice and `F` say the previewer's
    /// own DIFF and the folder the patch's paths are relative to.
    #[test]
    fn a_patch_of_other_files_names_the_command_that_applies_it() {
        let patch = "*** Begin Patch\n*** Update File: src/a.txt\n@@\n-a\n+A\n\
                     *** Update File: src/b.txt\n@@\n-b\n+B\n*** End Patch\n";
        let (dir, _path, s) = screen_on_disk("f.txt", "a\nb\n");
        std::fs::create_dir(dir.path().join("src")).expect("src");
        for name in ["src/a.txt", "src/b.txt"] {
            std::fs::write(dir.path().join(name), "a\nb\n").expect("write");
        }
        let rerun = Rerun::new(
            None,
            Some(std::path::Path::new("my patch.diff")),
            Vec::new(),
        );
        let mut s = s.with_rerun(rerun);
        // Still arriving, so `F` shows what the whole text would give.
        s.on_text(text(patch, false));
        let why = format!(
            "the patch edits src/a.txt, src/b.txt and none of its sections alone names f.txt: \
             use `srview apply --transcript 'my patch.diff' --cwd {}` for a patch of several \
             files",
            dir.path().display()
        );
        assert_eq!(notice_text(&s), why);
        press(&mut s, 'F');
        assert_eq!(
            notice_text(&s),
            format!(
                "no final result: if the diff ended here the reference would refuse it ({why}), \
                 and a writes nothing"
            )
        );
    }

    /// A patch or an edit naming another file is never written to FILE
    /// (`apply` refuses it, tester finding 36/06): said when it shows, and
    /// `a`, even answering, writes nothing and says why, naming the other
    /// path. The same file under another path is written.
    #[test]
    fn an_input_naming_another_file_is_never_written() {
        let patch =
            "*** Begin Patch\n*** Update File: src/other.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let edit = r#"{"file_path": "src/other.txt", "old_string": "b", "new_string": "B"}"#;
        // The previewer's own command for the other file (the screen was
        // given no DIFF path: its input came on stdin), which is not here
        // (session 51: said, and the command has `--new-file`).
        let how = ["there is no src/other.txt here to preview it on; `srview src/other.txt - \
                    --new-file` starts it from an empty file, given the same input on stdin";
            2];
        for (input, how) in [patch, edit].into_iter().zip(how) {
            let (_dir, path, mut s) = screen_showing("f.txt", "a\nb\n", input, true);
            let file = path.display();
            let why = format!(
                "the input edits src/other.txt, not {file}: {file} is left as it is ({how})"
            );
            assert_eq!(
                notice_text(&s),
                format!("{why}; a writes nothing"),
                "{input}"
            );
            for confirming in [false, true] {
                assert_eq!(accept_now(&mut s, confirming), None, "{input}");
                assert_eq!(notice_text(&s), format!("not accepted: {why}"), "{input}");
            }
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\n", "{input}");
        }
        // FILE's name, or `./` and its name: no such file in the current
        // folder (`src/f.txt` would name a file of `src/`, tester finding
        // 37/05).
        let own = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let own_edit = r#"{"file_path": "./f.txt", "old_string": "b", "new_string": "B"}"#;
        for input in [own, own_edit] {
            let (_dir, path, mut s) = screen_showing("f.txt", "a\nb\n", input, true);
            assert_eq!(s.app.notice().as_ref().map(|n| n.text.as_str()), None);
            assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
            assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nB\n", "{input}");
        }
    }

    /// A dialect diff that turned unreadable writes nothing until a later
    /// text ends the unreadable stretch.
    #[test]
    fn an_unreadable_dialect_diff_writes_nothing() {
        let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("f.txt", "a\nb\n", patch, false);
        s.on_text(Folded {
            unreadable: Some("invalid UTF-8 at byte 80".into()),
            ..Folded::default()
        });
        assert_eq!(accept_now(&mut s, false), None);
        assert_eq!(
            s.app.notice().as_ref().map(|n| n.text.as_str()),
            Some("not accepted: the diff is unreadable: invalid UTF-8 at byte 80")
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\n");
        s.on_text(Folded {
            replaced: Some(patch.into()),
            ..Folded::default()
        });
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
    }

    /// What `apply --write` holds back in another dialect (here an edit
    /// whose old text starts inside a word) is asked about first: the
    /// first `a` writes nothing, the `a` that answers writes.
    #[test]
    fn a_doubtful_result_of_another_dialect_is_asked_about_first() {
        let edit = r#"{"file_path": "m.py", "old_string": "x = 1", "new_string": "y = 2"}"#;
        let (_dir, path, mut s) = screen_showing("m.py", "max = 10\n", edit, true);
        let asked = asked_at_first_a(&mut s);
        assert_asks_to_write_anyway(
            &asked,
            "the edit's old text `x = 1` starts inside the word `max`",
        );
        assert!(s.app.confirming_guess());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "max = 10\n");
        // An `a` that does not answer the question asks again.
        assert_eq!(accept_now(&mut s, false), None);
        assert_eq!(accept_now(&mut s, true), Some(Exit::Wrote(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "may = 20\n");
    }

    /// A Codex hunk matched only at a loose level is asked about as
    /// `apply --write` holds it back (a tester's find, round 49 T-05: one
    /// `a` wrote a hunk matched at level unicode, the file's en dash
    /// rewritten as a hyphen); the `a` that answers writes.
    #[test]
    fn a_patch_hunk_matched_at_level_unicode_is_asked_about_first() {
        let original = "def label(lo, hi):\n    return f\"{lo} \u{2013} {hi}\"\n";
        let patch = "*** Begin Patch\n*** Update File: calc.py\n@@\n def label(lo, hi):\n\
                     -    return f\"{lo} - {hi}\"\n+    return f\"{lo} - {hi}!\"\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("calc.py", original, patch, true);
        let asked = asked_at_first_a(&mut s);
        assert_asks_to_write_anyway(
            &asked,
            "hunk 1 of calc.py matched the file only at level unicode",
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        assert_eq!(accept_now(&mut s, true), Some(Exit::Wrote(path.clone())));
        assert!(std::fs::read_to_string(&path).unwrap().contains("{hi}!"));
    }

    /// A trimmed-level Codex hunk leaving Python misindented is asked
    /// about with what the trust check says Python does with the file, not
    /// only its level (round 49 T-05: it was written at once).
    #[test]
    fn a_trimmed_patch_hunk_misindenting_python_says_what_python_does() {
        let original =
            "def f(path):\n    data = load(path)\n    data = data.strip()\n    return data\n";
        let patch = "*** Begin Patch\n*** Update File: app.py\n@@\n def f(path):\n\
                     -      data = load(path)\n+      data = load(path) or \"\"\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("app.py", original, patch, true);
        let asked = asked_at_first_a(&mut s);
        assert!(
            asked.starts_with("hunk 1 of app.py matched the file only at level trimmed")
                && asked.contains("the patch leaves app.py misindented")
                && asked.contains("Python refuses the file (IndentationError"),
            "{asked}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        assert_eq!(accept_now(&mut s, true), Some(Exit::Wrote(path.clone())));
    }

    /// A doubtful result over a file that changed on disk is not asked
    /// about: nothing could be written, and `r` is offered at once.
    #[test]
    fn a_file_changed_on_disk_is_said_before_any_doubt_is_asked() {
        let edit = r#"{"file_path": "m.py", "old_string": "x = 1", "new_string": "x = 2"}"#;
        let (_dir, path, mut s) = screen_showing("m.py", "max = 10\n", edit, true);
        std::fs::write(&path, "max = 11\n").unwrap();
        assert_eq!(accept_now(&mut s, false), None);
        assert_eq!(
            notice_text(&s),
            format!(
                "{} changed on disk since it was loaded: nothing written. r: reload and re-apply",
                path.display()
            )
        );
        assert!(!s.app.confirming_guess());
        assert!(s.app.reload_offered());
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "max = 11\n");
    }

    /// `c` on a failing edit copies the corrected edit (its JSON, as
    /// `srview fix` prints it), not the SEARCH/REPLACE block that shows it.
    #[test]
    fn copying_a_failing_edit_copies_the_corrected_edit() {
        let edit = r#"{"file_path": "inv.py", "old_string": "LOW_STOK = 5", "new_string": "LOW_STOCK = 10"}"#;
        assert_eq!(
            copied("inv.py", "LOW_STOCK = 5\nHIGH = 9\n", edit).as_deref(),
            Ok(
                "{\"tool\":\"Edit\",\"file_path\":\"inv.py\",\"old_string\":\"LOW_STOCK = 5\",\
                \"new_string\":\"LOW_STOCK = 10\",\"replace_all\":false}\n"
            )
        );
    }

    /// `c` on a loosely matched hunk (shown as an exact block on the
    /// file's own lines) copies the tightened patch `srview fix` prints,
    /// its added line with the file's en dash where the model kept the text.
    #[test]
    fn copying_a_loose_hunk_copies_the_tightened_patch() {
        let patch = "*** Begin Patch\n*** Update File: c.py\n@@\n def span(a, b):\n-    return b - a\n+    return abs(b - a)\n*** End Patch\n";
        assert_eq!(
            copied("c.py", "def span(a, b):\n    return b – a\n", patch).as_deref(),
            Ok(
                "*** Begin Patch\n*** Update File: c.py\n@@\n def span(a, b):\n-    return b – a\n+    return abs(b – a)\n*** End Patch\n"
            )
        );
    }

    /// `c` on a patch srview cannot correct (a loose hunk whose lines occur
    /// twice: which is meant cannot be told, so it is not tightened onto
    /// the first) copies nothing and says why, naming both places.
    #[test]
    fn copying_a_correction_still_in_doubt_copies_nothing() {
        let patch = "*** Begin Patch\n*** Update File: k.txt\n@@\n x\n-b\n+B\n*** End Patch\n";
        let said = copied("k.txt", "a\nx  \nb\nc\nx  \nb\n", patch)
            .expect_err("nothing copied")
            .text;
        assert!(
            said.starts_with("nothing copied: the patch is not fully corrected: hunk #1 is left as written: it matched only loosely (trailing-space) at lines 2-3, and its lines fit lines 5-6 as loosely: which place is meant cannot be told"),
            "{said}"
        );
    }

    /// A patch's blocks know the patch lines of their hunks, which the
    /// block list names (not the lines of the blocks made of them).
    #[test]
    fn a_patchs_blocks_name_their_hunks_patch_lines() {
        let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n@@\n c\n-d\n+D\n*** End Patch\n";
        let (_dir, _path, s) = screen_showing("f.txt", "a\nb\nc\nd\n", patch, true);
        assert_eq!(s.app.hunk_lines(), &[[3, 6], [7, 10]]);
    }

    /// A patch's hunk left out with `x`: the panes show the other hunks'
    /// result, and `a` writes the reference's result of the patch made of
    /// them (issue 27, item 4); leaving out an edit's one block writes nothing.
    #[test]
    fn a_hunk_left_out_is_not_written() {
        let patch = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n@@\n c\n-d\n+D\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("f.txt", "a\nb\nc\nd\n", patch, true);
        assert_eq!(s.app.listed_blocks(), 2);
        s.app.select_block(0);
        press(&mut s, 'x');
        assert_eq!(
            notice_text(&s),
            "block #1 left out: a writes block #2 only (the panes show their result)"
        );
        assert_eq!(s.app.result().text(), "a\nb\nc\nD\n");
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nb\nc\nD\n");
        assert_eq!(s.left_out_words().as_deref(), Some("block #1"));

        // The failing hunk left out: the reference's refusal of the whole
        // patch no longer stands, and the other hunk is written.
        let failing = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n@@\n c\n-zz\n+D\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("f.txt", "a\nb\nc\nd\n", failing, true);
        s.app.select_block(1);
        press(&mut s, 'x');
        assert_eq!(accept_now(&mut s, false), Some(Exit::Wrote(path.clone())));
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a\nB\nc\nd\n");

        let edit = r#"{"file_path": "g.py", "old_string": "y = 2", "new_string": "y = 3"}"#;
        let (_dir, path, mut s) = screen_showing("g.py", G_PY, edit, true);
        press(&mut s, 'x');
        assert_eq!(accept_now(&mut s, false), None);
        assert_eq!(
            notice_text(&s),
            "not accepted: every block is left out: nothing to apply"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), G_PY);
    }

    /// A query typed after `/` takes `a`, `c` and `F` as text, even over
    /// another dialect (whose `a`/`c`/`F` the screen answers itself), and
    /// `v` shows the patch as received.
    #[test]
    fn a_search_query_takes_a_c_and_f_of_a_patch_as_text() {
        let patch = "*** Begin Patch\n*** Update File: k.txt\n@@\n-a\n+A\n*** End Patch\n";
        let (_dir, path, mut s) = screen_showing("k.txt", "a\nb\n", patch, true);
        for c in ['/', 'a', 'c', 'F'] {
            assert_eq!(press(&mut s, c), Flow::Continue);
        }
        assert_eq!(
            s.app.view().search.as_ref().map(|q| q.query.as_str()),
            Some("acF")
        );
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "a\nb\n");
        s.app.end_search();
        press(&mut s, 'v');
        assert!(s.app.view().raw);
        assert_eq!(s.app.raw_text(), patch);
        assert_eq!(press(&mut s, 'a'), Flow::Continue);
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "a\nb\n");
    }

    /// FILE changed on disk while open: said with `r` offered; touched
    /// with the same text, or put back as loaded: nothing (the offer goes).
    #[test]
    fn a_change_of_file_on_disk_is_said_until_it_is_undone() {
        let (_dir, path, mut s) = screen_showing("f.txt", "one\n", "", false);
        std::fs::write(&path, "one\n").expect("write");
        s.on_target_changed();
        assert!(!s.app.reload_offered());
        assert_eq!(s.app.notice(), &None);
        std::fs::write(&path, "two\n").expect("write");
        s.on_target_changed();
        assert!(s.app.reload_offered());
        let file = path.display();
        assert_eq!(
            s.app.notice().as_ref().map(|n| n.text.clone()),
            Some(format!(
                "{file} changed on disk since srview loaded it: the panes show the text as \
                 loaded, and a would write nothing; r reloads it and re-applies the diff"
            ))
        );
        std::fs::write(&path, "one\n").expect("write");
        s.on_target_changed();
        assert!(!s.app.reload_offered());
        assert_eq!(s.app.notice(), &None);
        std::fs::remove_file(&path).expect("remove");
        s.on_target_changed();
        assert!(
            s.app
                .notice()
                .as_ref()
                .is_some_and(|n| n.text.starts_with(&format!(
                    "{file} was removed on disk since srview loaded it: "
                )))
        );
    }

    /// Text that cannot be read: the last text stays, and the app knows why.
    #[test]
    fn unreadable_text_keeps_the_last_text() {
        let mut s = screen("one\n");
        s.on_text(Folded {
            replaced: Some("------- SEARCH\n".into()),
            unreadable: Some("invalid UTF-8 at byte 3".into()),
            ..Folded::default()
        });
        assert_eq!(s.app.diff(), "------- SEARCH\n");
        assert_eq!(
            s.app.source_error().as_deref(),
            Some("invalid UTF-8 at byte 3")
        );
    }

    /// The screen drawn on an 80x24 terminal, one string a row.
    fn drawn(s: &mut SingleFile) -> Vec<String> {
        use ratatui::backend::TestBackend;
        let mut terminal = ratatui::Terminal::new(TestBackend::new(80, 24)).expect("terminal");
        let theme = Theme::new(crate::tui::view::theme::ColourMode::None);
        s.on_resize(Rect::new(0, 0, 80, 24));
        terminal.draw(|f| s.render(f, &theme)).expect("draw");
        let buf = terminal.backend().buffer();
        (0..24)
            .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
            .collect()
    }

    /// An edit's JSON is said by its own field and no diff line (tester
    /// finding 50/T-12: a one-line Edit read "#1 SEARCH found exactly; diff
    /// lines 1-8", lines of srview's rendering, not of the input): its old
    /// text's key, the whole file for a Write; a SEARCH/REPLACE diff keeps
    /// its diff lines.
    #[test]
    fn an_edit_json_block_is_said_by_its_field_without_diff_lines() {
        let original = "words = [\n    'match'\n]\n";
        let cases = [
            (
                r#"{"file_path": "f.py", "old_string": "    'match'\n]", "new_string": "    'match',\n    'type'\n]"}"#,
                "#1 old_string found exactly",
            ),
            (
                r#"{"path": "f.py", "old_text": "    'match'", "new_text": "    'case'"}"#,
                "#1 old_text found exactly",
            ),
            (
                r#"{"file_path": "f.py", "content": "words = []\n"}"#,
                "#1 the whole file written",
            ),
            (
                "<<<<<<< SEARCH\n    'match'\n=======\n    'case'\n>>>>>>> REPLACE\n",
                "#1 SEARCH found exactly; diff lines 1-5",
            ),
        ];
        for (input, said) in cases {
            let (_dir, _path, mut s) = screen_showing("f.py", original, input, true);
            let rows = drawn(&mut s);
            // The block's line in the list, then its detail line.
            let row = rows
                .iter()
                .rfind(|row| row.starts_with("#1 "))
                .unwrap_or_else(|| panic!("no block line in {rows:#?}"));
            assert_eq!(row.trim_end(), said, "{input}");
        }
    }
}
