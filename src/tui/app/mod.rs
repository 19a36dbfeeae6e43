//! Application state of the previewer: updated by events, rendered by
//! `view`, never doing I/O itself. Writes and reloads are returned as
//! [`Effect`]s for the previewer (`tui::SingleFile`) to carry out.

/// Read-only accessors of private fields, one per field, named as the
/// field: `refs!` lends the field (`&T`), `copies!` copies it. The state's
/// fields change by its methods only; the view and the screens read them
/// through these.
macro_rules! refs {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(
            #[doc = concat!("The `", stringify!($name), "` field (read-only).")]
            // One reader per field: some are read only by the shell's tests.
            #[allow(dead_code)]
            pub fn $name(&self) -> &$ty {
                &self.$name
            }
        )*
    };
}

/// See [`refs!`].
macro_rules! copies {
    ($($name:ident: $ty:ty),* $(,)?) => {
        $(
            #[doc = concat!("The `", stringify!($name), "` field (read-only).")]
            // One reader per field: some are read only by the shell's tests.
            #[allow(dead_code)]
            pub fn $name(&self) -> $ty {
                self.$name
            }
        )*
    };
}

/// The level of a block whose match is not known (a diff the agent
/// recorded as applied, not the model's patch): badged `?`, not exact.
pub const UNKNOWN_MATCH: &str = "unknown";

pub mod agent;
pub mod calls;
pub mod keymap;
pub mod keys;
mod left_out;
mod navigate;
pub mod rows;
pub mod screen;
pub mod search;
mod spliced_lines;
pub mod text;
pub mod workspace;

use std::borrow::Cow;
use std::path::PathBuf;
use std::sync::Arc;

use crate::engine::{self, Outcome, Version};
use rows::{RowMap, Segment};
use text::TextLines;

/// Where the diff stream is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StreamState {
    /// No diff text yet (DIFF missing or empty).
    Waiting,
    Streaming,
    /// No new diff text for [`PAUSE_AFTER`] (or a DIFF file not modified
    /// that long when srview started): shown in final mode, as if the diff
    /// ended here; new text resumes `Streaming`.
    Paused,
    /// Input ended (stdin closed, replay done) or `--final`: final mode.
    Ended,
}

impl StreamState {
    pub fn name(self) -> &'static str {
        match self {
            StreamState::Waiting => "waiting",
            StreamState::Streaming => "streaming",
            StreamState::Paused => "paused",
            StreamState::Ended => "ended",
        }
    }
}

/// How many blocks a streamed diff may reach before the previewer stops
/// reading it: far beyond any agent's edit, and where a flood of markers
/// (`yes -- '------- SEARCH'`) would otherwise grow memory without bound.
pub const MAX_BLOCKS: usize = 20_000;

/// How long a stream must be quiet before it is shown `paused` (final
/// mode): a model streaming a diff writes far more often than this, while
/// a finished DIFF file (the everyday debugging case) must not look
/// unfinished for long. The previewer reads `SRVIEW_PAUSE_AFTER_MS` to
/// shorten it, for tests only.
pub const PAUSE_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

/// Split (two panes) or unified (one pane of - and + lines).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    Split,
    Unified,
}

/// Which part of the screen takes j/k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Focus {
    Diff,
    Blocks,
}

/// A message shown above the footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
}

#[cfg(test)]
impl Notice {
    /// The text of the notice shown, `""` when none is (what the screens'
    /// tests compare).
    pub fn text_of(shown: &Option<Notice>) -> String {
        shown.as_ref().map(|n| n.text.clone()).unwrap_or_default()
    }
}

/// Why accepting writes nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The diff does not apply in final mode: the reference's error.
    Fails(engine::ApplyError),
    /// No block of the diff applies: nothing was proposed (DIFF missing,
    /// empty, prose only, or its only block still streaming its SEARCH).
    NothingToAccept,
    /// DIFF cannot be read as text now: the text shown is an older one.
    Unreadable(String),
    /// Blocks are left out, but the diff's blocks can no longer be told
    /// apart: which lines to leave out is not sure.
    Unchoosable(String),
}

/// What a key (or the mouse) asks of the screen, outside the state: the
/// one answer of every screen's key handling (one diff's [`App`], a
/// transcript's [`workspace::Workspace`], the agent's
/// [`agent::AgentList`]). Each screen carries out its own (a write, a
/// reload, showing an edit) and hands the rest to the loop as a
/// `tui::Flow` (`Flow::of`): a copy, the end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    None,
    /// One diff: write (or print) the accepted content, if FILE is
    /// unchanged on disk.
    Accept(TextLines),
    /// A transcript: write these files (indices into its edits), all or
    /// none; `file_endings`: a CRLF file's new LF lines written in CRLF
    /// (`L` when asked about mixed line endings).
    Write {
        files: Vec<usize>,
        file_endings: bool,
    },
    /// Re-read from disk and re-apply (FILE; a transcript's files not yet
    /// written).
    Reload,
    /// Put this corrected block on the clipboard (and in a file).
    Copy {
        block: usize,
        text: String,
    },
    /// The agent's screen: show the edit now selected.
    Show,
    /// The agent's screen: write srview's result of the edit shown.
    WriteEdit,
    /// The agent's screen: save the selected edit's own text to a new file.
    SaveText,
    Quit(u8),
}

/// Scroll, layout and selection: what the user controls.
#[derive(Debug, Clone)]
pub struct ViewState {
    /// First visible row of the current layout.
    pub scroll: usize,
    pub follow: bool,
    /// `None`: chosen by the terminal width.
    pub layout_choice: Option<Layout>,
    pub wrap: bool,
    pub focus: Focus,
    pub selected: usize,
    /// The user moved the selection (blocks pane, `n`/`N`, Enter): it is
    /// no longer moved to the first failure for them.
    pub user_selected: bool,
    pub help: bool,
    /// Rows of diff visible in the last frame (for paging and follow).
    pub viewport: usize,
    pub width: u16,
    /// Text columns scrolled off the left of both panes (`h`/`l`; unused
    /// while wrapping).
    pub hscroll: usize,
    /// First line of the `?` overlay shown.
    pub help_scroll: usize,
    /// First block of the block list, once the wheel scrolled it; `None`:
    /// the list keeps the selected block in view.
    pub blocks_top: Option<usize>,
    /// Where the previewer is drawn on the terminal (for mouse events).
    pub screen: ratatui::layout::Rect,
    /// The `/` search of the panes, while typed or active (until Esc).
    pub search: Option<search::Search>,
    /// `v`: the diff as received (patch, edit JSON) is shown over the panes.
    pub raw: bool,
    /// First line of the raw diff shown.
    pub raw_scroll: usize,
    /// `+`: the selected block's diagnosis shows all its rows (the blocks
    /// pane takes what it needs, the panes keep a few rows).
    pub detail_expanded: bool,
}

/// Width below which the unified view is chosen automatically.
pub const UNIFIED_BELOW: u16 = 100;

pub struct App {
    file_path: PathBuf,
    version: Version,
    original: TextLines,
    /// Most of the original's lines end in CRLF: the panes show no `␍` on
    /// them, and mark a line ending in LF instead (see
    /// [`text::mostly_crlf`]).
    crlf_file: bool,
    /// The engine, fed incrementally as the diff grows.
    session: engine::session::Session,
    diff: String,
    stream: StreamState,
    /// Latest outcome of the engine (its errors included); its new content
    /// is in `result`.
    outcome: Outcome<()>,
    /// Result text of the latest successful apply: what the right pane shows.
    result: TextLines,
    /// Whether `result` is a streaming (partial) result.
    result_streaming: bool,
    segments: Vec<Segment>,
    rows_split: RowMap,
    rows_unified: RowMap,
    /// Bumped on every new result; `dirty_from` is the first line that changed.
    result_epoch: u64,
    dirty_from: usize,
    view: ViewState,
    notice: Option<Notice>,
    /// Set after an accept was refused because FILE changed on disk.
    reload_offered: bool,
    /// `diff` is the new content itself (a `write_to_file` call), not a diff.
    direct: bool,
    /// Clean the diff up as Cline does for non-Claude models before applying.
    fix_model_output: bool,
    /// Why each block is where it is; computed when the stream pauses.
    diagnoses: Vec<crate::diagnose::BlockDiagnosis>,
    /// `result_epoch`-like counter of engine runs, and the run diagnosed last.
    apply_epoch: u64,
    diagnosed_epoch: u64,
    /// `a` can write what is shown (the agent previewer's edit the agent
    /// applied cannot be): the footer offers it only then.
    accept_offered: bool,
    /// What srview's trust checks cannot stand behind in what `a` writes
    /// now (brackets left unbalanced, text already there, a block standing
    /// in for lines it leaves out...), judged when the stream pauses, and
    /// the engine run it was judged for: shown before `a` asks about it.
    result_doubts: Vec<String>,
    result_doubts_epoch: Option<u64>,
    /// Bumped whenever the diff text changes (the loop times pauses by it).
    diff_changes: u64,
    /// DIFF as it is now cannot be read as text (invalid UTF-8, NUL): the
    /// panes keep the last text read; cleared by the next readable text.
    source_error: Option<String>,
    /// Per block, the level an apply_patch hunk needed where it matched
    /// only loosely: its block is placed on the file's own lines (the
    /// engine finds it exactly), so the block list shows this instead.
    loose_levels: Vec<Option<String>>,
    /// Per block, the first and last patch lines of the apply_patch hunk
    /// it shows (empty for a SEARCH/REPLACE diff): the block list names
    /// those, not the lines of the blocks made of it.
    hunk_lines: Vec<[usize; 2]>,
    /// Per block, its first lines that are the file's own unchanged lines
    /// put there only to place it (see
    /// [`crate::source::patch_preview::FileBlocks::leads`]): left out of
    /// the block's range and its marked lines.
    block_leads: Vec<usize>,
    /// The engine's outcome before [`trim_leads`] (only when it trimmed a
    /// block): the diagnosis reads the SEARCH text where it matched.
    untrimmed: Option<Outcome<()>>,
    /// What the block list's line numbers count (an agent's input: its
    /// reply's lines, or none).
    block_numbers: crate::source::patch_preview::BlockNumbers,
    /// The diff is another dialect's, and its reference refuses it: the
    /// blocks show where its parts would go, but nothing applies (the
    /// header says so instead of counting blocks applied).
    refused_by_reference: bool,
    /// The diff shows another dialect's input cut mid-way, which its
    /// reference runs only whole (an edit's JSON) while the source is only
    /// quiet: paused, its blocks stay as they streamed (final mode would
    /// apply what the reference refuses), and the header says `incomplete`.
    cut_input: bool,
    /// The size of the diff as received, when the blocks shown are another
    /// dialect's rendering of it (the header counts what arrived).
    source_bytes: Option<usize>,
    /// The edit as received when the blocks shown are another form's
    /// rendering of it (an apply_patch, an edit's JSON, an agent's input):
    /// what `v` shows; `None`: the diff itself is what was received.
    raw_input: Option<String>,
    /// The panes show the final-mode result before the stream has ended:
    /// accepting asked for it because that result, which is what gets
    /// written, differs from the live view.
    final_preview: bool,
    /// `a` was held back because a block's place is in doubt (see
    /// [`place_doubt`]): the next key decides, a second `a` writes and any
    /// other key (or new diff text) cancels.
    confirming_guess: bool,
    /// The question [`App::confirming_guess`] asks is about a CRLF file
    /// given LF lines: `L` then writes the result with the file's line
    /// endings.
    confirming_endings: bool,
    /// The text of the notice saying why accepting wrote nothing: it goes
    /// once the state it describes ends (new diff text, DIFF readable again).
    refusal: Option<String>,
    /// Blocks left out of what accepting writes (0-based, as listed), like
    /// `git add -p`: the panes and `a` take the diff made of the others
    /// (see [`crate::dialect::chosen`]); `x` toggles the selected block.
    left_out: std::collections::BTreeSet<usize>,
    /// The tool calls whose diffs make up `diff` (a transcript's file
    /// edited by several calls), in order: the block list names each
    /// call beside its first block. Empty for one diff.
    call_groups: Vec<calls::CallGroup>,
    /// Per block, the calls' blocks it is made of, when the blocks are
    /// srview's combined change of several calls (see
    /// [`calls::combined_rows`]); empty otherwise.
    combined_rows: Vec<calls::CombinedRow>,
    /// What `v`'s title calls the text it shows, when it is not simply
    /// the edit as received (several calls' diffs one after another).
    raw_title: Option<String>,
    /// How many blocks the whole diff has while some are left out (the
    /// list shows them all, past where the engine stopped too); else 0.
    whole_blocks: usize,
    /// The blocks show an edit nobody has written yet, placed where an
    /// agent's matcher would place it (the review pane's queued edit): the
    /// header and the block list say `placed`, not `applied`.
    unwritten: bool,
}

pub use crate::diagnose::doubt::{PlaceDoubt, doubt_sentence, place_doubt};

impl App {
    refs!(
        file_path: PathBuf,
        original: TextLines,
        diff: String,
        outcome: Outcome<()>,
        result: TextLines,
        segments: Vec<Segment>,
        rows_split: RowMap,
        rows_unified: RowMap,
        view: ViewState,
        notice: Option<Notice>,
        diagnoses: Vec<crate::diagnose::BlockDiagnosis>,
        source_error: Option<String>,
        loose_levels: Vec<Option<String>>,
        hunk_lines: Vec<[usize; 2]>,
        raw_input: Option<String>,
        left_out: std::collections::BTreeSet<usize>,
        call_groups: Vec<calls::CallGroup>,
        combined_rows: Vec<calls::CombinedRow>,
        raw_title: Option<String>,
    );
    copies!(
        version: Version,
        crlf_file: bool,
        stream: StreamState,
        result_streaming: bool,
        result_epoch: u64,
        dirty_from: usize,
        reload_offered: bool,
        direct: bool,
        fix_model_output: bool,
        apply_epoch: u64,
        diagnosed_epoch: u64,
        diff_changes: u64,
        block_numbers: crate::source::patch_preview::BlockNumbers,
        refused_by_reference: bool,
        cut_input: bool,
        source_bytes: Option<usize>,
        final_preview: bool,
        confirming_guess: bool,
        confirming_endings: bool,
        unwritten: bool,
        accept_offered: bool,
    );

    /// Replaces the notice above the footer (`None`: none).
    pub fn set_notice(&mut self, notice: Option<Notice>) {
        self.notice = notice;
    }

    /// Takes the notice off the screen.
    pub fn take_notice(&mut self) -> Option<Notice> {
        self.notice.take()
    }

    /// The blocks shown are another form's rendering of `raw` (a patch, an
    /// edit's JSON, an agent's input): `v` shows it (`None`: the diff is
    /// what was received).
    pub fn set_raw_input(&mut self, raw: Option<String>) {
        self.raw_input = raw;
    }

    /// The blocks are srview's combined change of several calls: per
    /// block, the calls' blocks it is made of (empty: they are not).
    pub fn set_combined_rows(&mut self, rows: Vec<calls::CombinedRow>) {
        self.combined_rows = rows;
    }

    /// What `v`'s title calls its text (`None`: the edit as received).
    pub fn set_raw_title(&mut self, title: Option<String>) {
        self.raw_title = title;
    }

    /// The size of the input received, when the blocks are its rendering.
    pub fn set_source_bytes(&mut self, bytes: Option<usize>) {
        self.source_bytes = bytes;
    }

    /// See [`App::accept_offered`]'s field.
    pub fn set_accept_offered(&mut self, offered: bool) {
        self.accept_offered = offered;
    }

    /// See [`App::cut_input`]'s field.
    pub fn set_cut_input(&mut self, cut: bool) {
        self.cut_input = cut;
    }

    /// See [`App::unwritten`]'s field.
    pub fn set_unwritten(&mut self, unwritten: bool) {
        self.unwritten = unwritten;
    }

    /// See [`App::refused_by_reference`]'s field.
    pub fn set_refused_by_reference(&mut self, refused: bool) {
        self.refused_by_reference = refused;
    }

    /// How a rendering's blocks were placed: per block the loose level of
    /// its hunk, the patch lines of its hunk, and what the block list's
    /// line numbers count.
    pub fn place_blocks(
        &mut self,
        loose_levels: Vec<Option<String>>,
        hunk_lines: Vec<[usize; 2]>,
        numbers: crate::source::patch_preview::BlockNumbers,
    ) {
        self.loose_levels = loose_levels;
        self.hunk_lines = hunk_lines;
        self.block_numbers = numbers;
    }

    /// Per block of the diff set next, how many of its first lines only
    /// place it (see `FileBlocks::leads`): set before [`App::set_diff`].
    pub fn set_block_leads(&mut self, leads: Vec<usize>) {
        self.block_leads = leads;
    }

    /// Holds `a` back for a second press (the notice says why).
    pub fn ask_again(&mut self) {
        self.confirming_guess = true;
    }

    /// Ends a held-back `a`, returning whether one was pending.
    pub fn take_question(&mut self) -> bool {
        std::mem::take(&mut self.confirming_guess)
    }

    /// FILE is back as it was loaded: the offer to reload it goes, with its
    /// notice.
    pub fn withdraw_reload_offer(&mut self) {
        if self.reload_offered {
            self.reload_offered = false;
            self.notice = None;
        }
    }

    pub fn new(file_path: PathBuf, original: String, version: Version) -> Self {
        let crlf_file = text::mostly_crlf(&original);
        // The session's line index holds the only copy of the original.
        let index = Arc::new(engine::matcher::LineIndex::owned(original));
        let mut app = App {
            file_path,
            version,
            crlf_file,
            session: engine::session::Session::with_index(Arc::clone(&index), version),
            original: TextLines::indexed(index),
            diff: String::new(),
            stream: StreamState::Waiting,
            outcome: Outcome {
                result: Err(engine::ApplyError {
                    message: String::new(),
                    block: None,
                    diff_line: None,
                }),
                blocks: Vec::new(),
            },
            result: TextLines::default(),
            result_streaming: true,
            segments: Vec::new(),
            rows_split: RowMap::default(),
            rows_unified: RowMap::default(),
            result_epoch: 0,
            dirty_from: 0,
            view: ViewState {
                scroll: 0,
                follow: true,
                layout_choice: None,
                wrap: false,
                focus: Focus::Diff,
                selected: 0,
                user_selected: false,
                help: false,
                viewport: 20,
                width: 120,
                hscroll: 0,
                help_scroll: 0,
                blocks_top: None,
                screen: ratatui::layout::Rect::new(0, 0, 120, 30),
                search: None,
                raw: false,
                raw_scroll: 0,
                detail_expanded: false,
            },
            notice: None,
            reload_offered: false,
            direct: false,
            fix_model_output: false,
            diagnoses: Vec::new(),
            apply_epoch: 0,
            diagnosed_epoch: 0,
            result_doubts: Vec::new(),
            result_doubts_epoch: None,
            accept_offered: true,
            final_preview: false,
            loose_levels: Vec::new(),
            hunk_lines: Vec::new(),
            block_leads: Vec::new(),
            untrimmed: None,
            block_numbers: crate::source::patch_preview::BlockNumbers::Diff,
            refused_by_reference: false,
            cut_input: false,
            source_bytes: None,
            raw_input: None,
            confirming_guess: false,
            confirming_endings: false,
            refusal: None,
            left_out: Default::default(),
            whole_blocks: 0,
            unwritten: false,
            call_groups: Vec::new(),
            combined_rows: Vec::new(),
            raw_title: None,
            source_error: None,
            diff_changes: 0,
        };
        app.reapply();
        app
    }

    pub fn is_final(&self) -> bool {
        self.stream == StreamState::Ended
    }

    /// Whether the engine runs in final mode: the stream ended or paused,
    /// or the user is looking at what accepting would write.
    pub fn final_mode(&self) -> bool {
        self.is_final()
            || (self.stream == StreamState::Paused && !self.cut_input)
            || self.final_preview
    }

    /// The stream has been quiet long enough: show every block as final
    /// mode would, until more text arrives.
    pub fn pause(&mut self) {
        if self.stream == StreamState::Streaming {
            self.stream = StreamState::Paused;
            if self.final_preview {
                // The preview's result is now the view itself: said, so
                // that the preview does not vanish without a word.
                self.final_preview = false;
                self.note_state(
                    "paused: the panes now show the final result (the preview closed); a writes it"
                        .into(),
                );
            }
            self.reapply();
        }
    }

    /// How many blocks the blocks pane lists: those the engine reached, and
    /// in final mode, once diagnosed, those after a failure it never
    /// reached (as `check` lists them).
    pub fn listed_blocks(&self) -> usize {
        let reached = self.outcome.blocks.len().max(self.whole_blocks);
        if self.final_mode() && !self.diagnosis_stale() {
            reached.max(self.diagnoses.len())
        } else {
            reached
        }
    }

    /// What the status bar calls the stream.
    pub fn mode_name(&self) -> &'static str {
        if self.source_error.is_some() {
            "DIFF unreadable"
        } else if self.final_preview && !self.is_final() {
            "final preview"
        } else {
            self.stream.name()
        }
    }

    /// Shows what accepting writes: the final-mode result.
    pub fn show_final(&mut self) {
        if !self.final_preview {
            self.final_preview = true;
            self.reapply();
        }
    }

    /// Back to the live (partial-mode) view of the stream.
    pub fn show_live(&mut self) {
        if self.final_preview {
            self.final_preview = false;
            self.reapply();
        }
    }

    /// Whether `content` reads, line by line, as the right pane shows the
    /// result: the lines produced so far, then the original lines the stream
    /// has not reached.
    pub fn shows(&self, content: &TextLines) -> bool {
        let mut line = 0;
        // Whether the last line shown ends in a newline where it comes from.
        let mut terminated = true;
        for seg in &self.segments {
            let (text, lines) = match seg.kind {
                rows::SegKind::Pending => (&self.original, seg.orig.clone()),
                _ => (&self.result, seg.new.clone()),
            };
            for l in lines {
                if content.line(line) != text.line(l) {
                    return false;
                }
                terminated = l < text.complete_len();
                line += 1;
            }
        }
        line == content.len() && (line == 0 || terminated == (content.complete_len() == line))
    }

    /// New full diff text from the source (appended or rewritten): the
    /// source reads again, if it did not.
    pub fn set_diff(&mut self, text: String) {
        if self.source_error.take().is_some() {
            self.clear_refusal();
        }
        if text != self.diff {
            // A rewritten diff (not one grown by appends) has other blocks
            // under the numbers left out: every block is back in.
            if !self.left_out.is_empty() && !text.starts_with(&self.diff) {
                self.left_out.clear();
                self.notice = Some(Notice {
                    text: "the diff was rewritten: every block is back in".into(),
                    error: false,
                });
            }
            self.diff = text;
            self.diff_changed();
        }
    }

    /// Text appended to the diff (the common case while a model streams).
    /// Past [`MAX_BLOCKS`] blocks the previewer stops reading: the text is
    /// not kept (memory stays bounded, keys answered), and since the diff
    /// shown is then not the whole diff, nothing can be accepted.
    pub fn append_diff(&mut self, more: &str) {
        if !more.is_empty() && self.outcome.blocks.len() >= MAX_BLOCKS {
            self.source_error = Some(format!(
                "it has over {MAX_BLOCKS} blocks, more than a previewer follows: srview stops \
                 reading it here, and nothing can be accepted (srview apply and srview check \
                 read it whole)"
            ));
            return;
        }
        if !more.is_empty() {
            if self.source_error.take().is_some() {
                self.clear_refusal();
            }
            self.diff.push_str(more);
            self.diff_changed();
        }
    }

    fn diff_changed(&mut self) {
        // What a refusal (or a held-back accept) described is gone.
        self.clear_refusal();
        if self.final_preview {
            // The stream went on: what accepting writes must be looked at again.
            self.final_preview = false;
            self.notice = Some(Notice {
                text: "the diff changed: back to the live view".into(),
                error: false,
            });
        }
        self.diff_changes += 1;
        if self.stream != StreamState::Ended {
            self.stream = if self.diff.is_empty() {
                StreamState::Waiting
            } else {
                StreamState::Streaming
            };
        }
        self.reapply();
    }

    /// Says why accepting wrote nothing, in a notice that goes once the
    /// state it describes ends (new diff text, DIFF readable again): a
    /// refusal left over would describe a diff no longer shown.
    pub fn refuse(&mut self, text: String) {
        self.refusal = Some(text.clone());
        self.notice = Some(Notice { text, error: true });
    }

    /// Shows `notice` above the footer (until something replaces it).
    pub fn show_notice(&mut self, notice: Notice) {
        self.notice = Some(notice);
    }

    /// Accepting wrote nothing because FILE changed on disk since it was
    /// loaded: `text` says so, and `r` (reload) is offered.
    pub fn offer_reload(&mut self, text: String) {
        self.reload_offered = true;
        self.notice = Some(Notice { text, error: true });
    }

    /// A notice about the stream's state as it is now (not an error): it
    /// goes with the state, once new diff text arrives.
    pub fn note_state(&mut self, text: String) {
        self.refusal = Some(text.clone());
        self.notice = Some(Notice { text, error: false });
    }

    /// Whether a note on the state (see [`App::note_state`]) is shown.
    pub fn has_state_note(&self) -> bool {
        self.refusal
            .as_ref()
            .is_some_and(|r| self.notice.as_ref().is_some_and(|n| &n.text == r))
    }

    /// Drops the refusal notice, if it is still shown, and any held-back accept.
    pub fn clear_refusal(&mut self) {
        self.confirming_guess = false;
        if let Some(text) = self.refusal.take()
            && self.notice.as_ref().is_some_and(|n| n.text == text)
        {
            self.notice = None;
        }
    }

    /// The blocks accepting would write whose place is in doubt, from a
    /// diagnosis of exactly what accepting writes (the final-mode result):
    /// the idle-time diagnosis when it is current and final, else a fresh one.
    pub fn doubtful_blocks(&mut self) -> Vec<(crate::diagnose::BlockDiagnosis, PlaceDoubt)> {
        if self.direct {
            return Vec::new();
        }
        let fresh;
        let diagnoses = if let Some(Ok(kept)) = self.kept_lines(&self.engine_diff()) {
            // What is written is the diff made of the blocks kept: its own
            // diagnosis, numbered as the list numbers its blocks.
            let options = engine::Options {
                version: self.version,
                is_final: true,
            };
            let outcome = engine::apply_spliced(kept.text(), self.session.index(), options);
            let mut diagnoses = crate::diagnose::diagnose_indexed(
                kept.text(),
                self.session.index(),
                options,
                &outcome,
            );
            for d in &mut diagnoses {
                d.index = kept.whole_index(d.index);
            }
            fresh = diagnoses;
            &fresh
        } else if self.final_mode() {
            if self.diagnosis_stale() {
                self.diagnose();
            }
            &self.diagnoses
        } else {
            let options = engine::Options {
                version: self.version,
                is_final: true,
            };
            let outcome = self.session.outcome_spliced(true);
            fresh = crate::diagnose::diagnose_indexed(
                self.session.text(),
                self.session.index(),
                options,
                &outcome,
            );
            &fresh
        };
        diagnoses
            .iter()
            .filter_map(|d| place_doubt(d).map(|doubt| (d.clone(), doubt)))
            .collect()
    }

    /// The exact-string trust checks on what `a` writes, `result` (a block
    /// standing in for lines it leaves out, writing the lines around it
    /// twice, Python left misindented): what `apply --write` holds back
    /// for them too ([`crate::diagnose::doubt_exact`]), blocks numbered as
    /// the list numbers them.
    pub fn exact_doubts(&self, result: &str) -> Vec<String> {
        use crate::diagnose::doubt_exact::exact_doubts;
        if self.direct {
            return Vec::new();
        }
        let options = engine::Options {
            version: self.version,
            is_final: true,
        };
        let diff = self.engine_diff();
        let blocks = match self.kept_lines(&diff) {
            Some(Ok(kept)) => {
                let mut outcome = engine::apply_spliced(kept.text(), self.session.index(), options);
                for b in &mut outcome.blocks {
                    b.index = kept.whole_index(b.index);
                }
                outcome.blocks
            }
            Some(Err(_)) => return Vec::new(),
            None => self.session.outcome_spliced(true).blocks,
        };
        let path = self.file_path.display().to_string();
        exact_doubts(&path, &self.original.text(), &blocks, || result)
    }

    /// Whether the doubts of what `a` writes were judged for an older run.
    pub fn result_doubts_stale(&self) -> bool {
        self.result_doubts_epoch != Some(self.apply_epoch)
    }

    /// The doubts of what `a` writes now, when they are current (see
    /// [`App::result_doubts_stale`]); none while they are being judged.
    pub fn result_doubts(&self) -> &[String] {
        if self.result_doubts_stale() {
            &[]
        } else {
            &self.result_doubts
        }
    }

    /// Records `doubts` as those of what `a` writes after the current run
    /// (another dialect's result, judged by its screen).
    pub fn set_result_doubts(&mut self, doubts: Vec<String>) {
        self.result_doubts = doubts;
        self.result_doubts_epoch = Some(self.apply_epoch);
    }

    /// Judges what `a` writes now with the trust checks `a` asks about (and
    /// `apply --write` holds back for): the SEARCH/REPLACE blocks' exact-
    /// string checks (their place doubts are each block's flag), or a
    /// whole-file write's.
    pub fn judge_result(&mut self) {
        let doubts = match self.accepted_content() {
            Ok(content) if self.direct => {
                let original = self.original.text();
                let over = (!original.is_empty()).then_some(original.as_ref());
                let mut out = Vec::new();
                crate::dialect::edit::whole_write_doubts(
                    &self.file_path.display().to_string(),
                    over,
                    &content.text(),
                    &mut out,
                );
                out.into_iter().map(|(_, sentence)| sentence).collect()
            }
            Ok(content) => self.exact_doubts(&content.text()),
            Err(_) => Vec::new(),
        };
        self.set_result_doubts(doubts);
    }

    /// Applies what a diff source reported.
    pub fn on_source(&mut self, event: crate::source::watch::SourceEvent) {
        use crate::source::watch::SourceEvent;
        match event {
            SourceEvent::Text(text) => self.set_diff(text),
            SourceEvent::Append(more) => self.append_diff(&more),
            SourceEvent::Ended => self.end_stream(),
            SourceEvent::Problem(text) => self.notice = Some(Notice { text, error: true }),
            SourceEvent::Unreadable(why) => self.source_error = Some(why),
        }
    }

    /// The input ended: switch to final mode.
    pub fn end_stream(&mut self) {
        if self.stream != StreamState::Ended {
            self.stream = StreamState::Ended;
            // Final mode for good: no preview left to go back from, nor a
            // notice offering Esc for it.
            if std::mem::take(&mut self.final_preview) {
                self.notice = None;
            }
            self.reapply();
        }
    }

    /// FILE was re-read from disk.
    pub fn reload(&mut self, original: String) {
        self.crlf_file = text::mostly_crlf(&original);
        let index = Arc::new(engine::matcher::LineIndex::owned(original));
        self.original = TextLines::indexed(Arc::clone(&index));
        self.session = engine::session::Session::with_index(index, self.version);
        self.reload_offered = false;
        self.notice = Some(Notice {
            text: format!("reloaded {} and re-applied", self.file_path.display()),
            error: false,
        });
        self.dirty_from = 0;
        self.reapply();
    }

    /// Runs the engine on the whole diff and rebuilds the alignment.
    pub fn reapply(&mut self) {
        let options = engine::Options {
            version: self.version,
            is_final: self.final_mode(),
        };
        self.apply_epoch += 1;
        if self.direct {
            return self.reapply_direct();
        }
        let text = engine::fixes::engine_input(&self.diff, &self.file_path, self.fix_model_output);
        self.session.set_text(&text);
        let mut outcome = self.session.outcome_spliced(options.is_final);
        // Blocks left out: the diff made of the others is what is shown (and
        // written); the whole diff's outcome keeps the blocks left out.
        // Blocks that can no longer be told apart: the whole diff is shown,
        // said, and accepting writes nothing (see `accepted_content`).
        let kept = match self.kept_lines(&text) {
            Some(Err(why)) => {
                self.note_state(format!(
                    "{why}: a writes nothing until x takes them back in"
                ));
                None
            }
            other => other.and_then(Result::ok),
        };
        self.whole_blocks = kept.as_ref().map_or(0, |k| k.whole_blocks());
        let whole = kept.as_ref().map(|_| split_content(outcome.clone()).0);
        if let Some(kept) = &kept {
            outcome = engine::apply_spliced(kept.text(), self.session.index(), options);
        }
        // On a failure, the panes show what the diff before the failing block
        // gives (see `failed_prefix`).
        let applied = kept.as_ref().map_or(self.session.text(), |k| k.text());
        let index = Arc::clone(self.session.index());
        let mut failed_prefix = failed_prefix(applied, &index, &mut outcome, options);
        let ok = outcome.result.is_ok();
        let (mut report, content) = split_content(outcome);
        if let (Some(kept), Some(whole)) = (&kept, whole) {
            report = kept.merge(report, whole);
            if let Some(prefix) = failed_prefix.as_mut() {
                kept.renumber(&mut prefix.blocks);
            }
        }
        self.outcome = report;
        self.untrimmed = None;
        let (mut shown_blocks, shown_content) = match failed_prefix {
            Some(prefix) => {
                let (report, content) = split_content(prefix);
                (Some(report.blocks), content)
            }
            None => (None, content),
        };
        if let Some(content) = shown_content {
            let result = TextLines::spliced(Arc::clone(self.session.index()), content);
            let changed = self.result.common_prefix(&result);
            self.result = result;
            let line = self.result.line_of(changed);
            self.dirty_from = if self.result_epoch == 0 {
                0
            } else {
                self.dirty_from.min(line)
            };
            self.result_streaming = !self.final_mode() || !ok;
            self.result_epoch += 1;
            let leads = &self.block_leads;
            self.untrimmed = leads.iter().any(|&l| l > 0).then(|| self.outcome.clone());
            trim_leads(
                &mut self.outcome.blocks,
                leads,
                &self.original,
                &self.result,
            );
            if let Some(blocks) = shown_blocks.as_mut() {
                trim_leads(blocks, leads, &self.original, &self.result);
            }
            let blocks = shown_blocks.as_ref().unwrap_or(&self.outcome.blocks);
            self.segments =
                rows::align(&self.original, &self.result, blocks, self.result_streaming);
        } else if self.result_epoch == 0 {
            self.segments = rows::align(&self.original, &self.result, &[], true);
        }
        self.rows_split = RowMap::new(&self.segments, false);
        self.rows_unified = RowMap::new(&self.segments, true);
        if self.view.selected >= self.outcome.blocks.len() {
            self.view.selected = self.outcome.blocks.len().saturating_sub(1);
        }
        if self.view.follow {
            self.follow_active();
        }
        self.select_first_failure();
    }

    /// Once failures are final (paused, ended, final preview), the first
    /// failing block is selected so its diagnosis shows without a key,
    /// unless the user chose a block themselves.
    fn select_first_failure(&mut self) {
        if !self.final_mode() || self.view.user_selected {
            return;
        }
        if let Some(b) = self
            .outcome
            .blocks
            .iter()
            .find(|b| b.state == engine::BlockState::Failed && !self.is_left_out(b.index))
        {
            self.view.selected = b.index;
        }
    }

    /// Turns the model-output clean-up on or off and re-applies.
    pub fn set_fix_model_output(&mut self, on: bool) {
        if self.fix_model_output != on {
            self.fix_model_output = on;
            self.reapply();
        }
    }

    /// What accepting writes: the diff applied in final mode (a fork of the
    /// session, so nothing is re-parsed), or why nothing may be written.
    /// A diff without a block that applies (missing, empty, prose only)
    /// leaves FILE as it is: accepting it would report a write of nothing.
    pub fn accepted_content(&self) -> Result<TextLines, Refusal> {
        if let Some(why) = &self.source_error {
            return Err(Refusal::Unreadable(why.clone()));
        }
        if self.direct {
            return Ok(self.result.clone());
        }
        let kept = match self.kept_lines(&self.engine_diff()) {
            Some(Err(why)) => return Err(Refusal::Unchoosable(why)),
            other => other.and_then(Result::ok),
        };
        let outcome = match &kept {
            Some(kept) => {
                let options = engine::Options {
                    version: self.version,
                    is_final: true,
                };
                let mut outcome = engine::apply_spliced(kept.text(), self.session.index(), options);
                kept.renumber(&mut outcome.blocks);
                if let Err(e) = &mut outcome.result {
                    kept.renumber_error(e);
                }
                outcome
            }
            None => self.session.outcome_spliced(true),
        };
        let applied = outcome
            .blocks
            .iter()
            .any(|b| b.state == engine::BlockState::Applied);
        let index = Arc::clone(self.session.index());
        match outcome.result {
            Err(e) => Err(Refusal::Fails(e)),
            Ok(_) if !applied => Err(Refusal::NothingToAccept),
            Ok(a) => Ok(TextLines::spliced(index, a.new_content)),
        }
    }

    /// What `v` shows: the edit as received.
    pub fn raw_text(&self) -> &str {
        self.raw_input.as_deref().unwrap_or(&self.diff)
    }

    /// The diff as the engine sees it: as received, or cleaned up.
    pub fn engine_diff(&self) -> Cow<'_, str> {
        engine::fixes::engine_input(&self.diff, &self.file_path, self.fix_model_output)
    }

    /// Whether the diagnoses describe an older diff.
    pub fn diagnosis_stale(&self) -> bool {
        !self.direct && self.diagnosed_epoch != self.apply_epoch
    }

    /// Diagnoses every block of the current diff (the stream is idle).
    pub fn diagnose(&mut self) {
        let options = engine::Options {
            version: self.version,
            is_final: self.final_mode(),
        };
        self.diagnoses = crate::diagnose::diagnose_indexed(
            self.session.text(),
            self.session.index(),
            options,
            self.untrimmed.as_ref().unwrap_or(&self.outcome),
        );
        // A Markdown hard break a suggestion would lose or add: kept as the
        // block means it, or no suggestion; a suggestion that misindents
        // where the block as sent does not: none (as `check --suggest`).
        crate::diagnose::settle_suggestions(
            &self.file_path.to_string_lossy(),
            self.session.original(),
            self.session.text(),
            options,
            &mut self.diagnoses,
        );
        if self.raw_input.is_some() {
            for d in &mut self.diagnoses {
                unmark_rendering(d);
            }
        }
        self.diagnosed_epoch = self.apply_epoch;
    }

    /// The selected block's diagnosis, if it is current.
    pub fn selected_diagnosis(&self) -> Option<&crate::diagnose::BlockDiagnosis> {
        if self.diagnosis_stale() {
            return None;
        }
        self.diagnoses
            .iter()
            .find(|d| d.index == self.view.selected)
    }

    /// Shows `content` as the new text of the file (a whole-file write).
    pub fn set_direct(&mut self, content: String, streaming: bool) {
        let was_direct = std::mem::replace(&mut self.direct, true);
        if !streaming {
            self.stream = StreamState::Ended;
        }
        if !was_direct && content == self.diff {
            // Same text (an empty write): still a new kind of view.
            self.reapply();
        } else {
            self.set_diff(content);
        }
    }

    fn reapply_direct(&mut self) {
        self.dirty_from = 0;
        self.result = TextLines::owned(self.diff.clone());
        self.result_streaming = false;
        self.result_epoch += 1;
        self.untrimmed = None;
        self.outcome = Outcome {
            result: Ok(engine::Applied {
                new_content: (),
                match_indices: Vec::new(),
            }),
            blocks: Vec::new(),
        };
        self.segments = rows::align_lines(&self.original, &self.result);
        self.rows_split = RowMap::new(&self.segments, false);
        self.rows_unified = RowMap::new(&self.segments, true);
    }
}

/// What the panes show when a block of `applied` (the diff the engine ran)
/// fails: the diff before that block still applies, so show it
/// (streaming), and copy its placements into the report so the blocks
/// before the failure keep their result lines.
fn failed_prefix(
    applied: &str,
    index: &engine::matcher::LineIndex,
    outcome: &mut Outcome<engine::Spliced>,
    options: engine::Options,
) -> Option<Outcome<engine::Spliced>> {
    let failed_at = match &outcome.result {
        Ok(_) => return None,
        Err(e) => e
            .block
            .and_then(|b| outcome.blocks.get(b))
            .map(|b| b.diff_lines[0]),
    };
    let cut = failed_at.map_or(0, |line| line_offset(applied, line.saturating_sub(1)));
    let prefix = engine::Options {
        is_final: false,
        ..options
    };
    let shown = engine::apply_spliced(&applied[..cut], index, prefix);
    for (mine, theirs) in outcome.blocks.iter_mut().zip(&shown.blocks) {
        if mine.replacement.is_none() {
            mine.replacement = theirs.replacement;
        }
    }
    Some(shown)
}

/// A block of another form's rendering (a patch's hunk, an edit, shown as
/// SEARCH/REPLACE blocks) diagnosed as a malformed SEARCH/REPLACE block:
/// the markers are the rendering's, not the edit's, so the advice about
/// them (Cline's marker rules, a corrected block) is not the edit's to
/// follow. A line of the edit that reads as a marker (a reST underline) is
/// said as such instead; the block stays flagged (its blocks do not read
/// as the edit).
fn unmark_rendering(d: &mut crate::diagnose::BlockDiagnosis) {
    if !d.reason.is_some_and(crate::diagnose::Reason::is_malformed) {
        return;
    }
    d.suggestion = None;
    d.closest = None;
    d.line_diff.clear();
    d.withheld = Some("the blocks show a patch or an edit".into());
    d.message = format!(
        "Block #{} shows part of a patch or an edit one of whose lines reads as a \
         SEARCH/REPLACE marker (a reST or Markdown underline?): the previewer's blocks cannot \
         show it faithfully; srview check explains the patch or edit in its own terms.",
        d.index + 1
    );
}

/// Byte offset where 0-based line `line` of `text` starts (its length past the end).
fn line_offset(text: &str, line: usize) -> usize {
    if line == 0 {
        return 0;
    }
    text.match_indices('\n')
        .nth(line - 1)
        .map_or(text.len(), |(i, _)| i + 1)
}

/// The report, and the new content when there is one.
/// Each applied block's range without its first `leads[index]` lines,
/// the file's own unchanged lines that only place it: the range shown and
/// the lines marked are the hunk's. A block no longer than its lead keeps
/// its range.
fn trim_leads(
    blocks: &mut [engine::BlockReport],
    leads: &[usize],
    original: &TextLines,
    result: &TextLines,
) {
    for b in blocks {
        let Some(&lead) = leads.get(b.index).filter(|&&l| l > 0) else {
            continue;
        };
        let (Some(span), Some(shown), Some((rs, re))) = (
            b.original.as_mut(),
            b.replacement.as_mut(),
            b.replacement_bytes.as_mut(),
        ) else {
            continue;
        };
        if span.end_line < span.start_line + lead || shown.end_line < shown.start_line + lead {
            continue;
        }
        span.start_line += lead;
        span.start = original.line_start(span.start_line - 1).min(span.end);
        shown.start_line += lead;
        *rs = result.line_start(shown.start_line - 1).min(*re);
    }
}

fn split_content<C>(outcome: Outcome<C>) -> (Outcome<()>, Option<C>) {
    let mut content = None;
    let report = outcome.map_content(|c| content = Some(c));
    (report, content)
}
