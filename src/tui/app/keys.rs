//! What each key and mouse event does to the state.

use ratatui_crossterm::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::keymap::{self, Action, KeyScope};
use super::{App, Effect, Focus, Layout, Notice, Refusal, StreamState};

const WHEEL_STEP: usize = 3;

/// What `x` says where blocks cannot be left out (a transcript, an
/// agent's edits): what `a` writes there is every block of the edits.
pub const NO_LEAVING_OUT: &str =
    "x (leave a block out) is for a single diff (srview FILE DIFF): here a writes every block";

/// A key in the previewer of one diff.
pub fn on_key(app: &mut App, key: KeyEvent) -> Effect {
    on_key_in(app, key, KeyScope::SingleDiff)
}

/// A key in the previewer of a file shown in `screen` (one diff, a
/// transcript's tab, an agent's edit): what is open takes it first (a `/`
/// query being typed, a question, the `?` overlay, the raw input), then
/// the key's action in the table ([`keymap::lookup`]) runs. The screen
/// runs its own rows' actions before passing a key here; any that reach
/// here do nothing.
pub fn on_key_in(app: &mut App, key: KeyEvent, screen: KeyScope) -> Effect {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Effect::Quit(1);
    }
    if app.search_typing() {
        search_key(app, key);
        return Effect::None;
    }
    let action = keymap::lookup(screen, key);
    // An accept held back for a block whose place is in doubt: `a` again
    // writes, any other key cancels it (Esc doing nothing else).
    let confirmed = std::mem::take(&mut app.confirming_guess);
    let endings = std::mem::take(&mut app.confirming_endings);
    if confirmed && endings && action == Some(Action::FileEndings) {
        app.clear_refusal();
        return accept_with_file_endings(app);
    }
    if confirmed && action != Some(Action::Accept) {
        app.clear_refusal();
        if action == Some(Action::Close) {
            app.notice = Some(Notice {
                text: "accept cancelled: nothing written".into(),
                error: false,
            });
            return Effect::None;
        }
    }
    if app.view.help {
        // The overlay scrolls (it can be taller than a small terminal).
        let visible = usize::from(app.view.screen.height.saturating_sub(2));
        let last = key_help_lines(screen).saturating_sub(visible);
        // As in the panes: `g`/`G` go to the top and the bottom (they
        // must not close the overlay, which they would as other keys).
        if !scroll_overlay(&mut app.view.help_scroll, action, HELP_PAGE, last) {
            app.view.help = false;
            app.view.help_scroll = 0;
            if action == Some(Action::Quit) {
                return Effect::Quit(1);
            }
        }
        return Effect::None;
    }
    if app.view.raw {
        raw_key(app, action);
        return match action {
            Some(Action::Quit) => Effect::Quit(1),
            _ => Effect::None,
        };
    }
    match action {
        Some(action) => act(app, action, confirmed, endings),
        None => Effect::None,
    }
}

/// Runs `action` on the previewer of a file. `confirmed`: a question was
/// pending when the key came (see [`accept_confirmed`]), `endings_asked`:
/// it was about line endings.
fn act(app: &mut App, action: Action, confirmed: bool, endings_asked: bool) -> Effect {
    let page = app.view.viewport.max(1);
    match action {
        Action::Quit => return Effect::Quit(1),
        Action::HalfPageDown => scroll_by(app, (page / 2).max(1) as isize),
        Action::HalfPageUp => scroll_by(app, -((page / 2).max(1) as isize)),
        Action::Left => scroll_sideways(app, -(HSCROLL_STEP as isize)),
        Action::Right => scroll_sideways(app, HSCROLL_STEP as isize),
        // Esc closes what is open, innermost first, and never quits: a
        // second Esc must not leave the app (as in lazygit and gitui). In
        // an agent's edit, Esc reaches the edit's previewer only while it
        // has something open (else the screen goes back to its list).
        Action::Close | Action::BackToList => {
            if app.view.search.is_some() {
                app.end_search();
            } else if app.view.focus == Focus::Blocks {
                app.view.focus = Focus::Diff;
            } else if app.final_preview {
                back_to_live(app);
            } else {
                app.notice = Some(Notice {
                    text: "nothing to close: q quits".into(),
                    error: false,
                });
            }
        }
        Action::Help => app.view.help = true,
        Action::Down => move_down(app, 1),
        Action::Up => move_up(app, 1),
        Action::PageDown => scroll_by(app, page as isize),
        Action::PageUp => scroll_by(app, -(page as isize)),
        Action::Top => {
            app.view.follow = false;
            app.scroll_to(0);
        }
        Action::Bottom => {
            app.view.follow = false;
            app.scroll_to(usize::MAX);
        }
        Action::Search => app.start_search(),
        Action::RawInput => {
            app.view.raw = true;
            app.view.raw_scroll = 0;
        }
        Action::ExpandDiagnosis => {
            app.view.detail_expanded = !app.view.detail_expanded;
            if app.view.detail_expanded && app.selected_diagnosis().is_none() {
                app.notice = Some(Notice {
                    text: "the diagnosis shows all its rows once the block is diagnosed \
                           (+ again: back to a third of the screen)"
                        .into(),
                    error: false,
                });
            }
        }
        Action::NextBlock if app.search_active() => app.next_match(true),
        Action::PrevBlock if app.search_active() => app.next_match(false),
        Action::NextBlock => jump_block(app, true),
        Action::PrevBlock => jump_block(app, false),
        // A transcript's `f` also follows the file being written (the
        // transcript did that part); an agent's, the newest edit (never
        // passed here).
        Action::Follow | Action::FollowFile => {
            app.view.follow = true;
            app.follow_active();
        }
        Action::ToggleLayout => toggle_layout(app),
        Action::Wrap => app.view.wrap = !app.view.wrap,
        Action::FocusBlocks => {
            app.view.focus = match app.view.focus {
                Focus::Diff => Focus::Blocks,
                Focus::Blocks => Focus::Diff,
            }
        }
        Action::Jump => enter(app),
        Action::Closest if !app.jump_to_closest() => {
            app.notice = Some(Notice {
                text: no_region_notice(app),
                error: false,
            });
        }
        Action::CopyCorrected => return copy_corrected(app),
        Action::FinalView if app.final_preview => back_to_live(app),
        // Once the stream has ended or paused the panes already show the
        // final result.
        Action::FinalView if !app.final_mode() => {
            app.show_final();
            app.notice = Some(Notice {
                text: "final result: what accepting writes if the diff ends here. \
                       F or Esc: back to the live view"
                    .into(),
                error: false,
            });
        }
        Action::FinalView if app.stream == StreamState::Paused => {
            app.note_state("paused: the panes already show the final result".into());
        }
        Action::Accept => return accept_confirmed(app, confirmed, endings_asked),
        Action::LeaveOut => app.toggle_left_out(),
        Action::Reload => return Effect::Reload,
        // Answered where no question is pending: nothing to do.
        Action::FileEndings | Action::Closest | Action::FinalView => {}
        // The screens' own actions (a transcript's tabs, the agent's edits).
        Action::AcceptFile
        | Action::AcceptAll
        | Action::WriteEdit
        | Action::NextFile
        | Action::PrevFile
        | Action::File(_)
        | Action::NextEdit
        | Action::PrevEdit
        | Action::FailedFirst
        | Action::FollowNewest
        | Action::Open
        | Action::SaveText => {}
    }
    Effect::None
}

/// `c`: the selected block's correction to copy, or why there is none.
fn copy_corrected(app: &mut App) -> Effect {
    let block = app.view.selected;
    match app.selected_diagnosis().and_then(|d| d.suggestion.clone()) {
        Some(text) => Effect::Copy { block, text },
        None => {
            let text = match app.selected_diagnosis() {
                None if app.outcome.blocks.is_empty() => {
                    "no block yet: nothing to correct".to_string()
                }
                Some(d) if !d.is_problem() => {
                    format!(
                        "block #{} applies as written: nothing to correct",
                        block + 1
                    )
                }
                d => {
                    let why = d
                        .and_then(|d| d.why_no_region())
                        .map(|w| format!(": {w}"))
                        .unwrap_or_default();
                    format!("no corrected block for #{}{why}", block + 1)
                }
            };
            app.notice = Some(Notice { text, error: false });
            Effect::None
        }
    }
}

/// A key while the raw diff is shown: it scrolls; `v` or Esc closes it
/// (`q` quits, as everywhere).
fn raw_key(app: &mut App, action: Option<Action>) {
    let lines = app.raw_text().lines().count();
    // The panes' rows, less the raw view's title row.
    let page = app.view.viewport.saturating_sub(1).max(1);
    let last = lines.saturating_sub(page);
    if !scroll_overlay(&mut app.view.raw_scroll, action, page, last)
        && matches!(action, Some(Action::RawInput | Action::Close))
    {
        app.view.raw = false;
    }
}

/// An overlay's scroll actions (`j`/`k`, the page keys, `g`/`G`) moving
/// `scroll` within `0..=last`, `page` rows a page; `false` for any other
/// key.
fn scroll_overlay(scroll: &mut usize, action: Option<Action>, page: usize, last: usize) -> bool {
    *scroll = match action {
        Some(Action::Down) => (*scroll + 1).min(last),
        Some(Action::Up) => scroll.saturating_sub(1),
        Some(Action::PageDown) => (*scroll + page).min(last),
        Some(Action::PageUp) => scroll.saturating_sub(page),
        Some(Action::Top) => 0,
        Some(Action::Bottom) => last,
        _ => return false,
    };
    true
}

/// A key while the `/` query is typed: text, Backspace, Enter searches,
/// Esc cancels.
fn search_key(app: &mut App, key: KeyEvent) {
    match key.code {
        KeyCode::Esc => app.end_search(),
        KeyCode::Enter => app.enter_search(),
        KeyCode::Backspace => {
            if let Some(s) = &mut app.view.search {
                s.query.pop();
            }
        }
        KeyCode::Char(c) => {
            if let Some(s) = &mut app.view.search {
                s.query.push(c);
            }
        }
        _ => {}
    }
}

/// A mouse event on the previewer drawn as `screen` (the layout drawn:
/// `view::screen_layout` of `app.view.screen`, with the notice shown). A
/// click on the block list selects that block; the wheel scrolls what it is
/// over: the block list, or the diff panes.
pub fn on_mouse(app: &mut App, mouse: MouseEvent, screen: &super::screen::Screen) {
    let (column, row) = (mouse.column, mouse.row);
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if let Some(index) = screen.block_at(app, column, row) {
                // The list stays where it is under the pointer.
                let first = screen.blocks.map(|b| b.first);
                app.view.follow = false;
                app.select_block(index);
                app.view.blocks_top = first;
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp
            if screen.over_blocks(column, row) =>
        {
            let Some(pane) = screen.blocks else { return };
            let count = app.outcome.blocks.len();
            let last_first = count.saturating_sub(usize::from(pane.list.height));
            app.view.blocks_top = Some(if mouse.kind == MouseEventKind::ScrollDown {
                (pane.first + 1).min(last_first)
            } else {
                pane.first.saturating_sub(1)
            });
        }
        MouseEventKind::ScrollDown => scroll_by(app, WHEEL_STEP as isize),
        MouseEventKind::ScrollUp => scroll_by(app, -(WHEEL_STEP as isize)),
        _ => {}
    }
}

/// Columns `h`/`l` (and `<`/`>`) move the panes' text by.
const HSCROLL_STEP: usize = 8;

/// Lines a page of the `?` overlay moves by.
const HELP_PAGE: usize = 8;

/// Lines of the `?` overlay of `screen`: its keys, a blank, four lines of
/// marks (stages, `≈`).
fn key_help_lines(screen: KeyScope) -> usize {
    keymap::key_help(screen).count() + 5
}

/// Scrolls both panes' text sideways, no further than the longest line
/// shows its last column (no wrapping then: wrapped lines have no side).
fn scroll_sideways(app: &mut App, delta: isize) {
    if app.view.wrap {
        return;
    }
    let longest = widest_line(&app.original).max(widest_line(&app.result));
    let target = app.view.hscroll.saturating_add_signed(delta);
    app.view.hscroll = target.min(longest.saturating_sub(1) / HSCROLL_STEP * HSCROLL_STEP);
}

/// Columns of the widest line of `text` (tabs as the panes show them).
fn widest_line(text: &super::text::TextLines) -> usize {
    (0..text.len())
        .map(|i| {
            unicode_width::UnicodeWidthStr::width(
                crate::tui::shown::sanitize(&text.line(i)).as_str(),
            )
        })
        .max()
        .unwrap_or(0)
}

fn scroll_by(app: &mut App, delta: isize) {
    app.view.follow = false;
    let target = app.view.scroll.saturating_add_signed(delta);
    app.scroll_to(target);
}

fn move_down(app: &mut App, n: usize) {
    match app.view.focus {
        Focus::Diff => scroll_by(app, n as isize),
        Focus::Blocks => {
            let last = app.listed_blocks().saturating_sub(1);
            app.view.follow = false;
            app.view.user_selected = true;
            app.select_block((app.view.selected + n).min(last));
        }
    }
}

fn move_up(app: &mut App, n: usize) {
    match app.view.focus {
        Focus::Diff => scroll_by(app, -(n as isize)),
        Focus::Blocks => {
            app.view.follow = false;
            app.view.user_selected = true;
            app.select_block(app.view.selected.saturating_sub(n));
        }
    }
}

fn jump_block(app: &mut App, forward: bool) {
    if let Some(next) = app.neighbour_block(forward) {
        app.view.follow = false;
        app.view.user_selected = true;
        app.select_block(next);
    }
}

/// Switches split/unified keeping the line at the top of the view there:
/// a row of a segment maps to the row showing the same line in the other
/// layout (unchanged lines row for row; in a change, the split row of
/// original line k and new line k is the unified row of the removed line
/// k, or of the added line k once the removed lines are done).
fn toggle_layout(app: &mut App) {
    let from = app.layout();
    let anchor = app.rows().locate(app.view.scroll);
    app.view.layout_choice = Some(match from {
        Layout::Split => Layout::Unified,
        Layout::Unified => Layout::Split,
    });
    let Some((seg, offset)) = anchor else {
        return;
    };
    let removed = app.segments.get(seg).map_or(0, |s| match s.kind {
        super::rows::SegKind::Change { .. } => s.orig.len(),
        _ => usize::MAX,
    });
    let offset = match from {
        Layout::Split if offset >= removed => removed + offset,
        Layout::Unified if offset >= removed => offset - removed,
        _ => offset,
    };
    let rows = app.rows();
    let last = rows.first_row(seg + 1).saturating_sub(1);
    let row = (rows.first_row(seg) + offset).min(last);
    app.scroll_to(row);
}

/// `Enter`: a block that failed has no place of its own, so it goes to
/// its closest region (as `d`); any other block, from the blocks pane,
/// goes to where it applies.
fn enter(app: &mut App) {
    let failed = app
        .selected_diagnosis()
        .is_some_and(|d| d.state.is_failure());
    if failed {
        if !app.jump_to_closest() {
            app.notice = Some(Notice {
                text: no_region_notice(app),
                error: false,
            });
        }
    } else if app.view.focus == Focus::Blocks {
        app.view.follow = false;
        app.view.user_selected = true;
        app.select_block(app.view.selected);
    }
}

/// Leaves the final preview (its notice with it).
fn back_to_live(app: &mut App) {
    app.show_live();
    app.notice = None;
}

/// Runs the applier in final mode; returns the content to write if it
/// applies and reads as what the panes show. Mid-stream the panes show the
/// partial result, where an out-of-order block has no effect yet: then the
/// final result is shown first, and a second `a` writes it.
pub fn accept(app: &mut App) -> Effect {
    accept_confirmed(app, false, false)
}

/// [`accept`], where `confirmed` says the user was told which blocks' places
/// are in doubt and pressed `a` again: only then are they written.
/// `endings_asked`: what was confirmed was the question about mixed line
/// endings (any other question answered, that one is still asked).
pub fn accept_confirmed(app: &mut App, confirmed: bool, endings_asked: bool) -> Effect {
    if !app.left_out.is_empty() && (0..app.listed_blocks()).all(|i| app.is_left_out(i)) {
        app.refuse(
            "every block is left out: nothing to accept (x takes the selected block back in)"
                .into(),
        );
        return Effect::None;
    }
    match app.accepted_content() {
        // A whole-file write is shown as it is written: no final mode.
        Ok(content) if app.final_mode() || app.direct || app.shows(&content) => {
            if confirmed {
                app.clear_refusal();
                if !endings_asked
                    && let Some(file) = crate::diagnose::doubt::mixed_endings(
                        &app.original.text(),
                        content.chunks(),
                    )
                {
                    return ask_about_endings(app, file);
                }
                return Effect::Accept(content);
            }
            // A block the diff has not finished (its REPLACE end marker
            // has not arrived): what would be written is cut short.
            if let Some(n) = crate::diagnose::doubt::unfinished_block(&app.diff)
                .filter(|n| !app.is_left_out(n.saturating_sub(1)))
            {
                app.select_block(n.saturating_sub(1));
                app.refuse(format!(
                    "block #{n} has not finished streaming (no REPLACE end marker yet): \
                     writing now keeps only what has arrived: press a again to write anyway, \
                     Esc to cancel"
                ));
                app.confirming_guess = true;
                return Effect::None;
            }
            if !app.is_final() && crate::diagnose::doubt::block_beginning(&app.diff) {
                app.refuse(
                    "the diff ends in the start of a SEARCH marker: another block may be \
                     beginning: press a again to write anyway, Esc to cancel"
                        .into(),
                );
                app.confirming_guess = true;
                return Effect::None;
            }
            let doubtful = app.doubtful_blocks();
            let Some((first, doubt)) = doubtful.first() else {
                // A CRLF file given LF lines (or the mirror): written only
                // when asked twice.
                if let Some(file) =
                    crate::diagnose::doubt::mixed_endings(&app.original.text(), content.chunks())
                {
                    return ask_about_endings(app, file);
                }
                // What exact blocks write that srview cannot stand behind
                // (`apply --write` holds it back): asked about first.
                let exact = app.exact_doubts(&content.text());
                if !exact.is_empty() {
                    app.refuse(format!(
                        "{}: press a again to write anyway, Esc to cancel",
                        exact.join("; ")
                    ));
                    app.confirming_guess = true;
                    return Effect::None;
                }
                return Effect::Accept(content);
            };
            // The block is selected, so the pane below shows its diagnosis.
            app.select_block(first.index);
            let text = format!(
                "{}{}: press a again to write anyway, Esc to cancel",
                super::doubt_sentence(first, *doubt),
                others_in_doubt(doubtful.len() - 1)
            );
            app.refuse(text);
            app.confirming_guess = true;
            Effect::None
        }
        Ok(_) => {
            app.show_final();
            app.notice = Some(Notice {
                text: "accepting writes the final result, which differs from the live view: \
                       shown now. a: write it · Esc: back to the live view"
                    .into(),
                error: false,
            });
            Effect::None
        }
        Err(Refusal::NothingToAccept) => {
            let text = if app.stream == StreamState::Ended {
                "no complete block in the diff: nothing to accept"
            } else {
                "no complete block yet: nothing to accept"
            };
            app.refuse(text.into());
            Effect::None
        }
        Err(Refusal::Unchoosable(why)) => {
            app.refuse(format!("not accepted: {why}"));
            Effect::None
        }
        Err(Refusal::Unreadable(why)) => {
            app.refuse(format!("not accepted: DIFF unreadable: {why}"));
            Effect::None
        }
        Err(Refusal::Fails(e)) => {
            let (block, why) = match e.block {
                // The failing block is selected, so the pane below shows why.
                Some(b) => {
                    app.select_block(b);
                    let why = app
                        .diagnoses
                        .iter()
                        .find(|d| d.index == b && !app.diagnosis_stale())
                        .and_then(|d| d.reason)
                        .map(|r| format!(": {}", r.describe()))
                        .unwrap_or_default();
                    (format!("block #{} ", b + 1), why)
                }
                None => (String::new(), String::new()),
            };
            app.refuse(format!(
                "not accepted: {block}does not apply ({}){why}",
                crate::engine::error_headline(&e.message)
            ));
            Effect::None
        }
    }
}

/// Asks before writing a CRLF file given LF lines (or an LF file given
/// CRLF lines): `a` writes it as it is, `L` with the file's line endings.
fn ask_about_endings(app: &mut App, file: crate::diagnose::doubt::Ending) -> Effect {
    let ending = match file {
        crate::diagnose::doubt::Ending::Crlf => "CRLF",
        crate::diagnose::doubt::Ending::Lf => "LF",
    };
    app.refuse(format!(
        "{}: press a again to write it as it is, L to use the file's line endings ({ending} for \
         the new lines too), Esc to cancel",
        crate::diagnose::doubt::mixed_line_endings(file)
    ));
    app.confirming_guess = true;
    app.confirming_endings = true;
    Effect::None
}

/// `L` when asked about a CRLF file given LF lines (or the mirror): what
/// accepting writes, with the file's line endings (every line ending as
/// the file's do).
fn accept_with_file_endings(app: &mut App) -> Effect {
    match app.accepted_content() {
        Ok(content) => Effect::Accept(super::text::TextLines::owned(
            crate::diagnose::doubt::with_file_endings(&app.original.text(), &content.text()),
        )),
        // What was asked about has changed since: `a` asks again.
        Err(_) => accept(app),
    }
}

/// " (and 2 more blocks placed as unsurely: …)", or nothing for none.
pub fn others_in_doubt(more: usize) -> String {
    if more == 0 {
        String::new()
    } else {
        format!(
            " (and {} placed as unsurely: see the block list)",
            crate::words::count(more, "more block")
        )
    }
}

/// Why `d`/Enter has nowhere to go for the selected block.
fn no_region_notice(app: &App) -> String {
    let n = app.view.selected + 1;
    let diagnosis = app.selected_diagnosis();
    match diagnosis {
        None if app.outcome.blocks.is_empty() => return "no block yet".to_string(),
        // A block that matched has no "closest region": it is where it
        // matched, which its rows in the panes show.
        Some(d) if !d.is_problem() => {
            return match d.matched_lines {
                Some([a, b]) => format!(
                    "block #{n} matched at {}: no other region to jump to",
                    crate::words::line_range("line", a, b)
                ),
                None => format!("block #{n} applies as written: no other region to jump to"),
            };
        }
        _ => {}
    }
    match diagnosis.and_then(|d| d.why_no_region()) {
        Some(why) => format!("block #{n}: {why}"),
        None => format!("block #{n}: no closest region (not diagnosed yet)"),
    }
}
