//! Update logic of the previewer state: events in, state out, no terminal.

use std::path::PathBuf;

use ratatui_crossterm::crossterm::event::{
    KeyCode, KeyEvent, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use srview::engine::{BlockState, Version};
use srview::source::watch::SourceEvent;
use srview::tui::app::{App, Effect, Focus, Layout, StreamState, keys};

use super::{app_with_diff, notice_text, support};

use support::diff::block;
use support::text::{assert_contains, assert_starts_with};

fn original() -> String {
    (1..=200).map(|i| format!("line {i}\n")).collect()
}

/// Two blocks, the second before the first in the file: the live view and
/// the final result differ.
fn out_of_order() -> String {
    block("line 150", "L150") + &block("line 7", "seven")
}

/// `c` and `d` on a block that matched exactly, and with no block at all:
/// nothing to correct, no other region, said as such (not "no similar
/// region", which would be false).
#[test]
fn c_and_d_on_an_exact_block_and_on_no_block_say_why() {
    let mut app = app();
    let nothing = [says(&mut app, 'c'), says(&mut app, 'd')];
    assert_eq!(
        nothing,
        ["no block yet: nothing to correct", "no block yet"]
    );
    let first = original().lines().next().expect("a line").to_string();
    app.set_diff(block(&first, "changed"));
    app.end_stream();
    app.diagnose();
    let (c, d) = (says(&mut app, 'c'), says(&mut app, 'd'));
    assert_eq!(c, "block #1 applies as written: nothing to correct");
    assert_eq!(d, "block #1 matched at line 1: no other region to jump to");
}

/// `out_of_order()` in the app, its final preview opened with `F`.
fn previewing_out_of_order() -> App {
    let mut app = app_with(out_of_order());
    key(&mut app, KeyCode::Char('F'));
    assert!(app.final_preview());
    app
}

fn app() -> App {
    // 120 columns (split panes), 20 rows of diff: `App::new`'s own.
    let app = App::new(PathBuf::from("f.txt"), original(), Version::V1);
    assert_eq!((app.view().width, app.view().viewport), (120, 20));
    app
}

/// [`app`] given `diff`.
fn app_with(diff: String) -> App {
    let mut app = app();
    app.set_diff(diff);
    app
}

/// Each character of `chars` typed in turn, effects ignored.
fn press(app: &mut App, chars: &str) {
    for c in chars.chars() {
        key(app, KeyCode::Char(c));
    }
}

fn key(app: &mut App, code: KeyCode) -> Effect {
    keys::on_key(app, KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn stream_state_follows_the_source() {
    let mut app = app();
    assert_eq!(app.stream(), StreamState::Waiting);
    app.on_source(SourceEvent::Append("------- SEARCH\nline 150\n".into()));
    assert_eq!(app.stream(), StreamState::Streaming);
    assert_eq!(app.outcome().blocks[0].state, BlockState::SearchStreaming);
    app.on_source(SourceEvent::Append("=======\nLINE 150\n".into()));
    assert_eq!(app.outcome().blocks[0].state, BlockState::ReplaceStreaming);
    app.on_source(SourceEvent::Ended);
    assert_eq!(app.stream(), StreamState::Ended);
    assert_eq!(app.outcome().blocks[0].state, BlockState::Applied);
    assert!(app.result().text().contains("LINE 150\n"));
}

#[test]
fn rewrite_in_place_replaces_the_diff() {
    let mut app = app();
    app.on_source(SourceEvent::Text(block("line 10", "X")));
    app.on_source(SourceEvent::Text(block("line 20", "Y")));
    assert_eq!(app.outcome().blocks.len(), 1);
    assert_eq!(
        app.outcome().blocks[0].original.map(|s| s.start_line),
        Some(20)
    );
}

#[test]
fn follow_keeps_the_active_block_in_view_until_the_user_scrolls() {
    let mut app = app_with(block("line 150", "changed"));
    let row = app.row_of_original_line(149);
    assert!(
        app.view().scroll <= row && row < app.view().scroll + 20,
        "block in view (scroll {})",
        app.view().scroll
    );
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(app.view().scroll, 0);
    assert!(!app.view().follow, "scrolling stops following");
    app.set_diff(format!(
        "{}{}",
        block("line 150", "changed"),
        block("line 190", "again")
    ));
    assert_eq!(app.view().scroll, 0, "no jump while not following");
    key(&mut app, KeyCode::Char('f'));
    assert!(app.view().follow);
    let row = app.row_of_original_line(189);
    assert!(app.view().scroll <= row && row < app.view().scroll + 20);
}

#[test]
fn scrolling_keys_stay_in_bounds() {
    let mut app = app_with(block("line 5", "x"));
    key(&mut app, KeyCode::Char('G'));
    let bottom = app.view().scroll;
    assert_eq!(bottom, app.rows().total() - 20);
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.view().scroll, bottom, "cannot scroll past the end");
    key(&mut app, KeyCode::PageUp);
    assert_eq!(app.view().scroll, bottom - 20);
    key(&mut app, KeyCode::Char('k'));
    assert_eq!(app.view().scroll, bottom - 21);
    srview::tui::on_mouse(
        &mut app,
        MouseEvent {
            kind: MouseEventKind::ScrollDown,
            column: 0,
            row: 0,
            modifiers: KeyModifiers::NONE,
        },
    );
    assert_eq!(app.view().scroll, bottom - 18);
}

#[test]
fn next_and_previous_block() {
    let mut app = app();
    app.set_diff(format!(
        "{}{}{}",
        block("line 20", "a"),
        block("line 100", "b"),
        block("line 180", "c")
    ));
    app.end_stream();
    assert_eq!(app.view().selected, 2, "follow selects the last block");
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.view().selected, 2, "no block after the last");
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.view().selected, 1);
    press(&mut app, "NN");
    assert_eq!(app.view().selected, 0);
    let row = app.row_of_original_line(19);
    assert!(app.view().scroll <= row && row < app.view().scroll + 20);
}

#[test]
fn layout_is_automatic_until_toggled() {
    let mut app = app();
    app.fit(ratatui::layout::Rect::new(0, 0, 80, 24));
    assert_eq!(app.layout(), Layout::Unified);
    app.fit(ratatui::layout::Rect::new(0, 0, 160, 24));
    assert_eq!(app.layout(), Layout::Split);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.layout(), Layout::Unified);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.layout(), Layout::Split);
    key(&mut app, KeyCode::Char('w'));
    assert!(app.view().wrap);
}

#[test]
fn error_pane_focus_moves_selection() {
    let mut app = app();
    app.set_diff(format!(
        "{}{}",
        block("line 20", "a"),
        block("line 100", "b")
    ));
    key(&mut app, KeyCode::Char('e'));
    assert_eq!(app.view().focus, Focus::Blocks);
    key(&mut app, KeyCode::Char('k'));
    assert_eq!(app.view().selected, 0);
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.view().selected, 1);
    assert_eq!(
        key(&mut app, KeyCode::Esc),
        Effect::None,
        "Esc leaves the pane first"
    );
    assert_eq!(app.view().focus, Focus::Diff);
    assert_eq!(
        key(&mut app, KeyCode::Esc),
        Effect::None,
        "Esc never quits: q does"
    );
    assert!(notice_text(&app).contains("q quits"));
    assert_eq!(key(&mut app, KeyCode::Char('q')), Effect::Quit(1));
}

#[test]
fn accept_runs_final_mode_and_refuses_a_failing_diff() {
    let mut app = app_with(block("line 7", "seven"));
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => {
            let content = content.text();
            assert!(content.starts_with("line 1\n") && content.contains("\nseven\nline 8\n"))
        }
        other => panic!("expected accept, got {other:?}"),
    }
    app.set_diff(block("no such line", "x"));
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    let notice = app.notice().clone().expect("a notice");
    assert_eq!(
        notice.text,
        "not accepted: block #1 does not apply (SEARCH text does not match anything in the file)"
    );
    assert!(notice.error);

    // With a current diagnosis the notice names the cause, and the failing
    // block is selected so the pane below explains it.
    app.set_diff(format!(
        "{}{}",
        block("line 3", "three"),
        block("line 7\nline 9", "seven")
    ));
    app.select_block(0);
    app.diagnose();
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        app.notice().clone().expect("a notice").text,
        "not accepted: block #2 does not apply (SEARCH text does not match anything in the file): \
         the closest region of the file has different content"
    );
    assert_eq!(app.view().selected, 1);
}

#[test]
fn partial_failure_is_waiting_and_earlier_blocks_still_show() {
    let mut app = app();
    app.set_diff(format!(
        "{}{}",
        block("line 20", "twenty"),
        block("nowhere", "x")
    ));
    assert_eq!(app.outcome().blocks[1].state, BlockState::Failed);
    assert!(!app.is_final());
    assert!(
        app.result().text().contains("twenty\n"),
        "blocks before the failure stay applied on screen"
    );
    assert!(app.outcome().blocks[0].replacement.is_some());
}

#[test]
fn help_overlay_and_quit() {
    let mut app = app();
    key(&mut app, KeyCode::Char('?'));
    assert!(app.view().help);
    assert_eq!(key(&mut app, KeyCode::Char('x')), Effect::None);
    assert!(!app.view().help, "any other key closes help");
    assert_eq!(key(&mut app, KeyCode::Char('q')), Effect::Quit(1));
    assert_eq!(
        keys::on_key(
            &mut app,
            KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)
        ),
        Effect::Quit(1)
    );
    assert_eq!(key(&mut app, KeyCode::Char('r')), Effect::Reload);
}

#[test]
fn reload_reapplies_on_new_original() {
    let mut app = app_with(block("line 3", "three"));
    app.reload("line 3\nline 4\n".into());
    assert_eq!(app.result().text(), "three\n");
}

#[test]
fn diagnosis_gives_closest_region_jump_and_copy() {
    let mut app = app_with(block("line 1500 typo", "x"));
    app.set_diff(block("lime 150", "x"));
    app.end_stream();
    assert!(
        app.diagnosis_stale(),
        "diagnosis waits for the stream to pause"
    );
    assert!(app.selected_diagnosis().is_none());
    app.diagnose();
    let d = app.selected_diagnosis().expect("current diagnosis");
    let closest = d.closest.expect("a closest region");
    assert_eq!((closest.start_line, closest.end_line), (150, 150));
    press(&mut app, "gd");
    let row = app.row_of_original_line(149);
    assert!(
        app.view().scroll <= row && row < app.view().scroll + 20,
        "d jumps to the closest region"
    );
    match key(&mut app, KeyCode::Char('c')) {
        Effect::Copy { block: 0, text } => {
            assert_starts_with(&text, "------- SEARCH\nline 150\n=======\nx\n");
        }
        other => panic!("expected a copy, got {other:?}"),
    }
    app.set_diff(block("lime 150", "y"));
    assert!(
        app.diagnosis_stale(),
        "a new diff makes the diagnosis stale"
    );
}

#[test]
fn fix_model_output_cleans_the_diff_before_applying() {
    let mut app = App::new(PathBuf::from("f.rs"), "if a < b {\n".into(), Version::V1);
    let diff =
        "------- SEARCH\nif a &lt; b {\n=======\nif a &lt;= b {\n+++++++ REPLACE\n".to_string();
    app.set_diff(diff.clone());
    app.end_stream();
    assert!(
        app.outcome().result.is_err(),
        "entities do not match without the clean-up"
    );
    app.set_fix_model_output(true);
    assert_eq!(app.result().text(), "if a <= b {\n");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), "if a <= b {\n"),
        other => panic!("accept uses the cleaned diff too: {other:?}"),
    }
    assert_eq!(app.diff(), &diff, "the diff as received is kept");
}

/// A CRLF file given a diff with LF lines: the reference writes them as
/// they are, mixing line endings; `a` says so first, a second `a` writes.
#[test]
fn accept_asks_before_mixing_line_endings() {
    let mut app = app_with_diff(
        "f.txt",
        "a\r\nb\r\nc\r\n",
        "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n",
    );
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_starts_with(&notice_text(&app), "the result mixes line endings");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\r\nB\nc\r\n"),
        other => panic!("the second a writes: {other:?}"),
    }
}

/// The same question offers the file's line endings: `L` writes the result
/// with the new lines in CRLF too; after another key it is gone.
#[test]
fn accept_offers_the_files_line_endings() {
    let mut app = app_with_diff(
        "f.txt",
        "a\r\nb\r\nc\r\n",
        "------- SEARCH\nb\n=======\nB\nB2\n+++++++ REPLACE\n",
    );
    assert_eq!(
        says(&mut app, 'a'),
        "the result mixes line endings: the file's lines end in CRLF, the edit's new lines in \
         LF (the reference writes them as they are): press a again to write it as it is, L to \
         use the file's line endings (CRLF for the new lines too), Esc to cancel"
    );
    match key(&mut app, KeyCode::Char('L')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\r\nB\r\nB2\r\nc\r\n"),
        other => panic!("L writes with the file's endings: {other:?}"),
    }
    // Asked again, then another key: L is no longer an answer.
    key(&mut app, KeyCode::Char('a'));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(key(&mut app, KeyCode::Char('L')), Effect::None);
}

/// The mirror: an LF file given a diff with CRLF lines mixes line endings
/// too (a tester's find: it was written without a word); `L` writes the
/// new lines in LF, the file's ending, and never turns the file to CRLF.
#[test]
fn accept_offers_an_lf_files_line_endings() {
    let mut app = App::new(PathBuf::from("f.txt"), "a\nb\nc\n".into(), Version::V1);
    app.set_diff("------- SEARCH\nb\n=======\nB\r\nB2\r\n+++++++ REPLACE\n".into());
    app.end_stream();
    assert_eq!(
        says(&mut app, 'a'),
        "the result mixes line endings: the file's lines end in LF, the edit's new lines in \
         CRLF (the reference writes them as they are): press a again to write it as it is, L \
         to use the file's line endings (LF for the new lines too), Esc to cancel"
    );
    match key(&mut app, KeyCode::Char('L')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\nB\nB2\nc\n"),
        other => panic!("L writes with the file's endings: {other:?}"),
    }
    key(&mut app, KeyCode::Char('a'));
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\nB\r\nB2\r\nc\n"),
        other => panic!("the second a writes it as it is: {other:?}"),
    }
}

/// A SEARCH text the file holds twice: the reference took the first, a
/// guess; `a` says so first, a second `a` writes.
#[test]
fn accept_asks_before_writing_a_repeated_search_text() {
    let file = "if x:\n    y = 1\nif z:\n    y = 1\n";
    let mut app = app_with_diff(
        "f.py",
        file,
        "------- SEARCH\ny = 1\n=======\ny = 2\n+++++++ REPLACE\n",
    );
    let asked = says(&mut app, 'a');
    assert_starts_with(
        &asked,
        "block #1 matched at line 2, and its SEARCH text occurs again at line 4",
    );
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => {
            assert_eq!(content.text(), "if x:\n    y = 2\nif z:\n    y = 1\n")
        }
        other => panic!("the second a writes: {other:?}"),
    }
}

/// Mid-stream the right pane shows the partial result, where a block that
/// matched before the previous one (out of order) has no effect yet; final
/// mode applies it. Accepting shows that final result before writing it.
#[test]
fn accept_shows_a_final_result_that_differs_from_the_live_view_first() {
    let diff = out_of_order();
    let mut app = app_with(diff.clone());
    assert!(app.outcome().blocks[1].out_of_order);
    assert!(!app.result().text().contains("seven"), "live view: not yet");
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert!(app.final_preview());
    assert_eq!(app.mode_name(), "final preview");
    assert!(notice_text(&app).contains("a: write it"));
    let want = srview::engine::apply(
        &diff,
        &original(),
        srview::engine::Options {
            version: Version::V1,
            is_final: true,
        },
    )
    .result
    .expect("applies")
    .new_content;
    assert_eq!(
        app.result().text(),
        want,
        "the panes show what would be written"
    );
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), want),
        other => panic!("expected accept, got {other:?}"),
    }

    // Esc goes back to the live view instead of quitting.
    let mut app = self::app();
    app.set_diff(diff.clone());
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    assert!(!app.final_preview());
    assert_eq!(app.mode_name(), "streaming");
    assert!(!app.result().text().contains("seven"));

    // More diff ends the preview: the next accept looks again.
    key(&mut app, KeyCode::Char('a'));
    app.append_diff("------- SEARCH\nline 180\n");
    assert!(!app.final_preview());
    assert!(notice_text(&app).contains("back to the live view"));
}

/// An in-order diff reads the same live and final: one key writes it. With
/// its last block still streaming its replacement, it reads the same too,
/// but that block is cut short: one key asks, a second writes.
#[test]
fn accept_writes_at_once_when_the_live_view_is_the_final_result() {
    for (diff, keys) in [
        (block("line 7", "seven") + &block("line 150", "L150"), 1),
        (
            block("line 7", "seven") + "------- SEARCH\nline 150\n=======\nL150",
            2,
        ),
        (
            block("line 7", "seven") + "------- SEARCH\nline 150\n=======\nL150\n",
            2,
        ),
    ] {
        let mut app = app_with(diff.clone());
        if keys == 2 {
            assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
            assert!(notice_text(&app).contains("has not finished streaming"));
        }
        match key(&mut app, KeyCode::Char('a')) {
            Effect::Accept(content) => {
                assert!(app.shows(&content), "{diff}");
                assert!(!app.final_preview());
            }
            other => panic!("expected accept for {diff:?}, got {other:?}"),
        }
    }
}

/// `F` shows the final result at any time and back; from there `a` writes
/// at once, since what is shown is what gets written.
#[test]
fn final_result_can_be_looked_at_before_accepting() {
    let diff = out_of_order();
    let mut app = app_with(diff);
    assert_eq!(key(&mut app, KeyCode::Char('F')), Effect::None);
    assert!(app.final_preview());
    assert!(app.result().text().contains("seven"));
    assert_eq!(key(&mut app, KeyCode::Char('F')), Effect::None);
    assert!(!app.final_preview());
    assert!(!app.result().text().contains("seven"));
    key(&mut app, KeyCode::Char('F'));
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert!(content.text().contains("seven")),
        other => panic!("expected accept, got {other:?}"),
    }
    // The stream ending closes the preview: Esc then has nothing to close.
    let mut app = self::app();
    app.set_diff(out_of_order());
    key(&mut app, KeyCode::Char('a'));
    assert!(app.notice().is_some());
    app.end_stream();
    assert!(!app.final_preview());
    assert_eq!(app.notice(), &None, "no notice offering Esc to go back");
    assert!(app.result().text().contains("seven"));
    assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    assert!(
        app.result().text().contains("seven"),
        "still the final result"
    );
    // After the stream ended there is no separate preview to switch to.
    let mut app = self::app();
    app.set_diff(block("line 7", "seven"));
    app.end_stream();
    key(&mut app, KeyCode::Char('F'));
    assert!(!app.final_preview());
}

/// The live view and the final result can differ only in the last line's
/// newline; that is a difference too.
#[test]
fn a_final_newline_the_live_view_has_is_not_written_unseen() {
    let mut app = App::new(PathBuf::from("f.txt"), "a\na \n".into(), Version::V1);
    app.set_diff("------- SEARCH\na \n=======\n+++++++ REPLACE\n------- SEARCH\n\na \n===".into());
    assert_eq!(app.result().text(), "a\n");
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert!(app.final_preview());
    // The second block has not finished (and matches only before the
    // first block's edit): accepting asks once more.
    let notice = says(&mut app, 'a');
    assert!(notice.contains("has not finished streaming"), "{notice}");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), app.result().text()),
        other => panic!("expected accept, got {other:?}"),
    }
}

/// A diff still arriving whose last line is the start of a SEARCH marker
/// (`------- SEA`) may be beginning another block: `a` asks first, as for
/// a block begun; once the diff has ended it is just a line.
#[test]
fn a_half_marker_after_the_last_block_asks_before_writing() {
    let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEA";
    let mut app = App::new(PathBuf::from("f.txt"), "a\nb\n".into(), Version::V1);
    app.set_diff(diff.into());
    let notice = says(&mut app, 'a');
    assert_starts_with(&notice, "the diff ends in the start of a SEARCH marker");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\nB\n"),
        other => panic!("expected accept, got {other:?}"),
    }

    let mut app = App::new(PathBuf::from("f.txt"), "a\nb\n".into(), Version::V1);
    app.set_diff(diff.into());
    app.end_stream();
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), "a\nB\n"),
        other => panic!("expected accept, got {other:?}"),
    }
}

/// A whole-file write shows exactly what accepting writes, whatever its
/// line breaks: one key.
#[test]
fn a_whole_file_write_is_accepted_at_once() {
    for (original, content) in [("a\nb\n", "a\rb\n"), ("a\nb\n", "a\nb"), ("x\n", "")] {
        let mut app = App::new(PathBuf::from("f.txt"), original.into(), Version::V1);
        app.set_direct(content.into(), true);
        match key(&mut app, KeyCode::Char('a')) {
            Effect::Accept(written) => assert_eq!(written.text(), content),
            other => panic!("{content:?}: expected accept, got {other:?}"),
        }
    }
}

/// `n`/`N` move from what is on screen: from the selected block when it is
/// visible, else from the top of the view (so `g` then `n` is the first
/// block, `G` then `N` the last).
#[test]
fn block_jumps_start_from_the_view() {
    let mut app = app();
    app.set_diff(
        [20, 60, 100, 140, 180]
            .map(|i| block(&format!("line {i}"), &format!("L{i}")))
            .concat(),
    );
    app.end_stream();
    app.select_block(4);
    press(&mut app, "Ggn");
    assert_eq!(app.view().selected, 0, "g then n: the first block");
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.view().selected, 1, "then the next one");
    press(&mut app, "GN");
    assert_eq!(app.view().selected, 4, "G then N: the last block");
    // Scrolled between blocks 2 and 3 (lines 60 and 100), away from the
    // selection: n goes to block 3, N to block 2.
    app.scroll_to(app.row_of_original_line(75));
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.view().selected, 2);
    app.scroll_to(app.row_of_original_line(75));
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.view().selected, 1);

    // A first block at the very top, and a last block that failed (it has
    // no place; it counts as where the block before it is).
    app.set_diff(format!(
        "{}{}{}",
        block("line 1", "L1"),
        block("line 150", "L150"),
        block("nowhere", "x")
    ));
    app.end_stream();
    app.select_block(2);
    press(&mut app, "gn");
    assert_eq!(app.view().selected, 0, "the block on the first line");
    press(&mut app, "nn");
    assert_eq!(app.view().selected, 2, "the failed block, in list order");
    press(&mut app, "gn");
    assert_eq!(app.view().selected, 0, "from a failed block off screen too");
    press(&mut app, "GN");
    assert_eq!(app.view().selected, 2, "G then N: the failed last block");
    let shown = app.view().scroll..app.view().scroll + app.view().viewport;
    assert!(
        shown.contains(&app.row_of_original_line(149)),
        "shown where the block before it is: {shown:?}"
    );
}

/// Esc closes, innermost first, and never quits, however often it is
/// pressed: help, then the final preview, then nothing (`q` quits).
#[test]
fn esc_closes_help_and_the_final_preview_and_never_quits() {
    let mut app = previewing_out_of_order();
    key(&mut app, KeyCode::Char('?'));
    assert!(app.view().help);
    assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    assert!(!app.view().help, "the first Esc closes help");
    assert!(app.final_preview(), "and only help");
    assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    assert!(!app.final_preview(), "the second leaves the final preview");
    for _ in 0..3 {
        assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    }
    assert_eq!(key(&mut app, KeyCode::Char('q')), Effect::Quit(1));
}

/// Enter on a failed block goes to its closest region, as `d` does; on an
/// applied block (blocks pane focused) it goes to the block.
#[test]
fn enter_on_a_failed_block_jumps_to_its_closest_region() {
    let mut app = app_with(block("line 20", "L20") + &block("line 1700\nline 171", "x"));
    app.end_stream();
    app.diagnose();
    let closest = app
        .diagnoses()
        .get(1)
        .and_then(|d| d.closest)
        .expect("a closest region for the edited block");
    app.select_block(1);
    app.scroll_to(0);
    key(&mut app, KeyCode::Enter);
    let row = app.row_of_original_line(closest.start_line - 1);
    assert!(
        (app.view().scroll..app.view().scroll + app.view().viewport).contains(&row),
        "closest region line {} (row {row}) in view from {}",
        closest.start_line,
        app.view().scroll
    );
    assert!(!app.view().follow);

    app.select_block(0);
    app.scroll_to(150);
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Enter);
    let row = app.row_of_original_line(19);
    assert!((app.view().scroll..app.view().scroll + app.view().viewport).contains(&row));
}

/// `a` with nothing proposed (no diff yet, an empty diff, prose only, a
/// block whose SEARCH never closed) refuses with a notice: no write.
#[test]
fn accept_with_nothing_to_accept_is_refused() {
    for (diff, ended) in [
        ("", false),
        ("", true),
        ("I will now change line 7.\nDone.\n", false),
        ("I will now change line 7.\nDone.\n", true),
        ("------- SEARCH\nline 7\n", true),
    ] {
        let mut app = app_with(diff.into());
        if ended {
            app.end_stream();
        }
        assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None, "{diff:?}");
        let notice = app.notice().as_ref().expect("a notice");
        assert!(notice.error, "{diff:?}");
        let want = if ended {
            "no complete block in the diff: nothing to accept"
        } else {
            "no complete block yet: nothing to accept"
        };
        assert_eq!(notice.text, want, "{diff:?}");
        assert!(!app.final_preview(), "{diff:?}");
    }
}

/// A quiet stream is shown `paused`: every block as final mode sees it
/// (a failure is `failed`, not "no match yet"), the first failing block
/// selected without a key, blocks after it listed as not reached once
/// diagnosed; new text resumes streaming.
#[test]
fn a_paused_stream_shows_failures_as_final() {
    let mut app = app();
    let diff = block("line 20", "L20") + &block("lien 60", "L60") + &block("line 100", "L100");
    app.set_diff(diff.clone());
    assert_eq!(app.stream(), StreamState::Streaming);
    assert!(!app.final_mode());
    // Scrolled away: follow is off, but the selection was not moved.
    key(&mut app, KeyCode::Char('g'));
    app.select_block(0);
    app.pause();
    assert_eq!(app.stream(), StreamState::Paused);
    assert_eq!(app.mode_name(), "paused");
    assert!(app.final_mode());
    assert_eq!(app.outcome().blocks[1].state, BlockState::Failed);
    assert_eq!(app.view().selected, 1, "the first failure is selected");
    assert_eq!(app.listed_blocks(), 2, "not diagnosed yet");
    app.diagnose();
    assert_eq!(app.listed_blocks(), 3, "the unreached block is listed");
    assert_eq!(
        app.diagnoses().get(2).map(|d| d.state),
        Some(srview::diagnose::Status::NotReached),
        "with its own diagnosis"
    );
    assert_eq!(
        app.selected_diagnosis().map(|d| d.state),
        Some(srview::diagnose::Status::Failed),
        "the failure's detail shows"
    );
    // The unreached block can be selected in the blocks pane.
    press(&mut app, "ej");
    assert_eq!(app.view().selected, 2);

    // New text resumes streaming, out of final mode.
    app.append_diff("------- SEARCH\nline 150\n");
    assert_eq!(app.stream(), StreamState::Streaming);
    assert!(!app.final_mode());
    // A selection the user made is kept when the stream pauses again.
    app.select_block(0);
    app.pause();
    assert_eq!(app.view().selected, 0);

    // Accept keeps its rule: a failing diff is refused.
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert!(app.notice().as_ref().is_some_and(|n| n.error));

    // Paused on a diff that applies: `a` writes at once, what is shown.
    let mut app = self::app();
    app.set_diff(out_of_order());
    app.pause();
    assert!(app.result().text().contains("seven"), "final result shown");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert_eq!(content.text(), app.result().text()),
        other => panic!("expected accept, got {other:?}"),
    }
    // Waiting (no diff) and ended streams do not pause.
    let mut app = self::app();
    app.pause();
    assert_eq!(app.stream(), StreamState::Waiting);
    app.set_diff(block("line 1", "x"));
    app.end_stream();
    app.pause();
    assert_eq!(app.stream(), StreamState::Ended);
}

/// When the stream ends with a failure and the user has not chosen a
/// block, the failure is selected even with follow off.
#[test]
fn an_ended_stream_selects_its_first_failure() {
    let mut app =
        app_with(block("line 20", "L20") + &block("line 30", "L30") + &block("nope", "x"));
    key(&mut app, KeyCode::Char('g'));
    app.select_block(0);
    app.end_stream();
    assert_eq!(app.view().selected, 2);
}

/// An unreadable DIFF is a state of its own: named in the status bar,
/// accept refused; the next readable text ends it.
#[test]
fn an_unreadable_diff_is_an_error_state_until_readable_text() {
    let mut app = app();
    app.on_source(SourceEvent::Text(block("line 7", "seven")));
    app.on_source(SourceEvent::Unreadable("invalid UTF-8 at byte 12".into()));
    assert_eq!(app.mode_name(), "DIFF unreadable");
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert!(
        app.notice()
            .as_ref()
            .is_some_and(|n| n.error && n.text.contains("invalid UTF-8 at byte 12"))
    );
    app.on_source(SourceEvent::Text(block("line 7", "seven")));
    assert_eq!(app.mode_name(), "streaming");
    assert!(matches!(
        key(&mut app, KeyCode::Char('a')),
        Effect::Accept(_)
    ));
}

fn ctrl(app: &mut App, c: char) -> Effect {
    keys::on_key(app, KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// A left-button press at `column`, `row`.
fn click(app: &mut App, column: u16, row: u16) {
    mouse(app, MouseEventKind::Down(MouseButton::Left), column, row);
}

fn mouse(app: &mut App, kind: MouseEventKind, column: u16, row: u16) {
    srview::tui::on_mouse(
        app,
        MouseEvent {
            kind,
            column,
            row,
            modifiers: KeyModifiers::NONE,
        },
    );
}

/// The `?` overlay can be taller than the terminal: j/k and the page keys
/// scroll it while it is open; another key closes it and the next opening
/// starts at the top.
#[test]
fn help_overlay_scrolls() {
    let mut app = app();
    // A terminal too low for every key.
    app.fit(ratatui::layout::Rect::new(0, 0, 80, 12));
    press(&mut app, "?j");
    key(&mut app, KeyCode::Down);
    assert!(app.view().help, "j and ↓ scroll, they do not close");
    assert_eq!(app.view().help_scroll, 2);
    key(&mut app, KeyCode::Char('k'));
    assert_eq!(app.view().help_scroll, 1);
    key(&mut app, KeyCode::PageDown);
    assert!(app.view().help_scroll > 1);
    for _ in 0..100 {
        key(&mut app, KeyCode::PageDown);
    }
    let bottom = app.view().help_scroll;
    assert!(
        bottom
            <= srview::tui::app::keymap::key_help(srview::tui::app::keymap::KeyScope::Transcript)
                .count()
                + 5
                - 10,
        "the scroll stops with the overlay's last page full: {bottom}"
    );
    key(&mut app, KeyCode::PageUp);
    assert!(app.view().help_scroll < bottom);
    // `G` and `g` go to the bottom and the top, as in the panes: they do
    // not close the overlay.
    key(&mut app, KeyCode::Char('G'));
    assert!(app.view().help, "G does not close help");
    assert_eq!(app.view().help_scroll, bottom);
    key(&mut app, KeyCode::Char('g'));
    assert!(app.view().help, "g does not close help");
    assert_eq!(app.view().help_scroll, 0);
    key(&mut app, KeyCode::End);
    assert_eq!(app.view().help_scroll, bottom);
    assert_eq!(app.view().scroll, 0, "the panes did not move");
    key(&mut app, KeyCode::Char('x'));
    assert!(!app.view().help);
    key(&mut app, KeyCode::Char('?'));
    assert_eq!(app.view().help_scroll, 0);
}

/// `h`/`l` and `<`/`>` move both panes' text sideways, never left of the
/// first column nor past the longest line; wrapping has no side to scroll.
#[test]
fn horizontal_scroll_keys() {
    let long = format!("line 7 {}", "x".repeat(60));
    let mut app = app_with(block("line 7", &long));
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.view().hscroll, 8);
    key(&mut app, KeyCode::Char('>'));
    assert_eq!(app.view().hscroll, 16);
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(app.view().hscroll, 8);
    press(&mut app, "<<");
    assert_eq!(app.view().hscroll, 0);
    for _ in 0..50 {
        key(&mut app, KeyCode::Char('l'));
    }
    assert!(
        app.view().hscroll < long.len() && app.view().hscroll + 8 >= long.len(),
        "stops with the longest line's end on screen: {}",
        app.view().hscroll
    );
    key(&mut app, KeyCode::Char('w'));
    let before = app.view().hscroll;
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(
        app.view().hscroll,
        before,
        "no sideways scroll while wrapping"
    );
}

/// Ctrl-d and Ctrl-u move half a page, and are not `d` (jump to the
/// closest region) nor `u` (layout).
#[test]
fn ctrl_d_and_ctrl_u_move_half_a_page() {
    let mut app = app_with(block("line 5", "x"));
    key(&mut app, KeyCode::Char('g'));
    let layout = app.layout();
    assert_eq!(ctrl(&mut app, 'd'), Effect::None);
    assert_eq!(app.view().scroll, 10, "half of the 20-row viewport");
    ctrl(&mut app, 'd');
    assert_eq!(app.view().scroll, 20);
    ctrl(&mut app, 'u');
    assert_eq!(app.view().scroll, 10);
    assert!(!app.view().follow);
    assert_eq!(app.layout(), layout, "Ctrl-u is not u");
    assert_eq!(app.notice(), &None, "Ctrl-d is not d");
}

fn five_blocks() -> App {
    let mut app = app();
    let diff: String = [20, 60, 100, 140, 180]
        .iter()
        .map(|n| block(&format!("line {n}"), &format!("LINE {n}")))
        .collect();
    app.set_diff(diff);
    app.end_stream();
    app.fit(ratatui::layout::Rect::new(0, 0, 120, 40));
    app
}

/// A click on a row of the block list selects the block on that row and
/// scrolls the panes to it; clicks elsewhere select nothing.
#[test]
fn click_in_the_blocks_pane_selects_that_block() {
    let mut app = five_blocks();
    app.select_block(0);
    let screen = srview::tui::view::screen_layout(&app, app.view().screen, None);
    let list = screen.blocks.expect("a blocks pane at 120x40").list;
    assert_eq!(screen.blocks.map(|b| b.first), Some(0));
    assert!(list.height >= 5, "every block listed: {list:?}");
    click(&mut app, 10, list.y + 3);
    assert_eq!(app.view().selected, 3);
    let row = app.row_of_original_line(139);
    assert!(
        app.view().scroll <= row && row < app.view().scroll + app.view().viewport,
        "block #4 in view"
    );
    assert!(!app.view().follow);
    // The diff panes and the pane's title row select nothing.
    click(&mut app, 10, 3);
    click(&mut app, 10, list.y - 1);
    assert_eq!(app.view().selected, 3);
    // Below the last block (the detail) neither.
    click(&mut app, 10, list.y + 5);
    assert_eq!(app.view().selected, 3);
}

/// The wheel scrolls what it is over: the block list over the blocks
/// pane (the panes stay), the panes over the panes.
#[test]
fn wheel_scrolls_the_list_it_is_over() {
    let mut app = five_blocks();
    // A pane of two list rows: 40x14 gives it a title, 2 blocks and detail.
    app.fit(ratatui::layout::Rect::new(0, 0, 120, 14));
    app.select_block(0);
    app.scroll_to(0);
    let screen = srview::tui::view::screen_layout(&app, app.view().screen, None);
    let pane = screen.blocks.expect("blocks pane");
    assert!(
        (usize::from(pane.list.height)) < 5,
        "the list does not show every block: {pane:?}"
    );
    mouse(&mut app, MouseEventKind::ScrollDown, 5, pane.list.y);
    mouse(&mut app, MouseEventKind::ScrollDown, 5, pane.list.y);
    assert_eq!(app.view().scroll, 0, "the panes did not scroll");
    let after = srview::tui::view::screen_layout(&app, app.view().screen, None);
    assert_eq!(after.blocks.map(|b| b.first), Some(2));
    // A click now picks the block shown on that row.
    click(&mut app, 5, pane.list.y);
    assert_eq!(app.view().selected, 2);
    let kept = srview::tui::view::screen_layout(&app, app.view().screen, None);
    assert_eq!(
        kept.blocks.map(|b| b.first),
        Some(2),
        "the list did not move"
    );
    mouse(&mut app, MouseEventKind::ScrollUp, 5, pane.list.y);
    let up = srview::tui::view::screen_layout(&app, app.view().screen, None);
    assert_eq!(up.blocks.map(|b| b.first), Some(1));
    // Over the panes, the panes scroll.
    let before = app.view().scroll;
    mouse(&mut app, MouseEventKind::ScrollDown, 5, screen.diff.y + 1);
    assert_eq!(app.view().scroll, before + 3);
}

/// A block with nothing similar in the file: `d`, Enter and `c` do not
/// pretend there is a place; each says why there is none.
#[test]
fn no_jump_and_no_copy_without_a_similar_region() {
    let mut app = app();
    app.set_diff(block(
        "The committee deliberated about budget meetings\nwhile nobody remembered where the notes went",
        "x",
    ));
    app.end_stream();
    app.diagnose();
    let d = app.selected_diagnosis().expect("diagnosed");
    assert_eq!(d.closest, None, "{}", d.message);
    app.scroll_to(10);
    let before = app.view().scroll;
    key(&mut app, KeyCode::Char('d'));
    assert_eq!(app.view().scroll, before, "no jump");
    let notice = notice_text(&app);
    assert!(notice.contains("no similar region"), "{notice}");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.view().scroll, before, "no jump");
    let notice = says(&mut app, 'c');
    assert_starts_with(&notice, "no corrected block for #1: no similar region");
}

/// What key `c` says, having done nothing else (no effect).
fn says(app: &mut App, c: char) -> String {
    assert_eq!(key(app, KeyCode::Char(c)), Effect::None);
    notice_text(app)
}

/// A file where a block-anchor match lands at the wrong place: its first
/// and last lines fit `fn a`, its middle is `fn b`'s.
const TWO_FNS: &str =
    "fn a() {\n    one();\n}\n\nfn b() {\n    two_and_a_long_call(with, many, args);\n}\n";
const MISPLACED: &str = "------- SEARCH\nfn a() {\n    two_and_a_long_call(with, many, args);\n}\n=======\nfn a() {\n    three();\n}\n+++++++ REPLACE\n";

/// `a` on a result with a block the block-anchor fallback put at the wrong
/// place writes nothing at first: the notice names the block and why, a
/// second `a` writes. The diagnosis need not have run on idle before.
#[test]
fn accepting_a_misplaced_block_asks_first() {
    let mut app = app_with_diff("f.rs", TWO_FNS, MISPLACED);
    assert!(app.diagnosis_stale(), "not diagnosed yet");
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        notice_text(&app),
        "block #1 matched by its first and last lines only at lines 1-3; its SEARCH text \
         is closest to lines 5-7: press a again to write anyway, Esc to cancel"
    );
    assert!(app.notice().as_ref().is_some_and(|n| n.error));
    assert!(app.confirming_guess());
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert!(content.text().contains("three();")),
        other => panic!("the second a writes, got {other:?}"),
    }
    assert!(!app.confirming_guess());
}

/// Any other key, Esc, or new diff text cancels a held-back accept: the
/// next `a` asks again.
#[test]
fn a_held_back_accept_is_cancelled_by_anything_else() {
    let mut app = app_with_diff("f.rs", TWO_FNS, MISPLACED);
    press(&mut app, "aj");
    assert!(!app.confirming_guess());
    assert_eq!(notice_text(&app), "", "the question is gone");
    assert_eq!(
        key(&mut app, KeyCode::Char('a')),
        Effect::None,
        "asks again"
    );
    assert_eq!(key(&mut app, KeyCode::Esc), Effect::None);
    assert_eq!(notice_text(&app), "accept cancelled: nothing written");
    assert_eq!(
        key(&mut app, KeyCode::Char('a')),
        Effect::None,
        "asks again"
    );

    // New diff text while streaming: cancelled, and the question goes.
    let mut app = App::new(PathBuf::from("f.rs"), TWO_FNS.into(), Version::V1);
    app.set_diff(MISPLACED.into());
    assert_eq!(app.stream(), StreamState::Streaming);
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert!(notice_text(&app).contains("press a again"));
    app.append_diff("\n");
    assert!(!app.confirming_guess());
    assert_eq!(notice_text(&app), "");
    assert_eq!(
        key(&mut app, KeyCode::Char('a')),
        Effect::None,
        "asks again"
    );
}

/// Two places fit a block-anchor match about equally: the place is a
/// guess, and accepting says so before writing. A block-anchor match whose
/// middle line was replaced unseen is held back too.
#[test]
fn accepting_a_guessed_or_unseen_block_anchor_place_asks_first() {
    let file =
        "impl A {\n    let total = compute(1);\n}\n\nimpl A {\n    let total = compute(2);\n}\n";
    let diff = "------- SEARCH\nimpl A {\n    let total = compute(X);\n}\n=======\nimpl A {\n    let total = 0;\n}\n+++++++ REPLACE\n";
    let mut app = app_with_diff("f.rs", file, diff);
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        notice_text(&app),
        "block #1 matched by its first and last lines only at lines 1-3; lines 1-3 and \
         lines 5-7 fit about equally well, so the place is a guess: press a again to write \
         anyway, Esc to cancel"
    );
    assert!(matches!(
        key(&mut app, KeyCode::Char('a')),
        Effect::Accept(_)
    ));

    let file = "fn a() {\n    let total = compute(1);\n}\n";
    let diff = "------- SEARCH\nfn a() {\n    let total = compute(X);\n}\n=======\nfn a() {\n    let total = 0;\n}\n+++++++ REPLACE\n";
    let mut app = app_with_diff("f.rs", file, diff);
    let notice = says(&mut app, 'a');
    assert!(
        notice.contains("the lines between were replaced without being compared"),
        "{notice}"
    );
}

/// Refusal notices describe the diff as it was: new diff text (or DIFF
/// readable again) takes them away; other notices stay.
#[test]
fn refusal_notices_go_when_the_diff_changes() {
    let mut app = app();
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        notice_text(&app),
        "no complete block yet: nothing to accept"
    );
    app.append_diff("------- SEARCH\nline 7\n");
    assert_eq!(notice_text(&app), "", "stale once blocks stream in");

    let mut app = self::app();
    app.on_source(SourceEvent::Text(block("line 7", "seven")));
    app.on_source(SourceEvent::Unreadable("invalid UTF-8 at byte 12".into()));
    key(&mut app, KeyCode::Char('a'));
    assert!(notice_text(&app).starts_with("not accepted: DIFF unreadable"));
    // The same text read again: readable, the refusal is over.
    app.on_source(SourceEvent::Text(block("line 7", "seven")));
    assert_eq!(notice_text(&app), "");

    let mut app = self::app();
    app.set_diff(block("nope", "x"));
    app.end_stream();
    key(&mut app, KeyCode::Char('a'));
    assert!(notice_text(&app).starts_with("not accepted: block #1 does not apply"));
    app.set_diff(block("line 7", "seven"));
    assert_eq!(notice_text(&app), "");

    // A notice that is not a refusal is not taken away by new text.
    let mut app = self::app();
    app.set_diff(block("line 7", "seven"));
    key(&mut app, KeyCode::Esc);
    assert_eq!(notice_text(&app), "nothing to close: q quits");
    app.append_diff(&block("line 9", "nine"));
    assert_eq!(notice_text(&app), "nothing to close: q quits");
}

/// n/N move the selection with the view: after `d` showed failing block
/// #2's closest region, `N` goes to block #1 and its detail; `n` back to
/// #2 shows its region, and on to the block never reached after it.
#[test]
fn n_and_n_move_the_selection_with_the_view() {
    let mut app = app();
    app.set_diff(
        block("line 20", "L20") + &block("line 60\nline 6l", "L60") + &block("line 150", "L150"),
    );
    app.pause();
    app.diagnose();
    assert_eq!(app.view().selected, 1, "the failure is selected");
    let region = app
        .selected_diagnosis()
        .and_then(|d| d.closest)
        .expect("a region");
    assert_eq!(region.start_line, 60);
    key(&mut app, KeyCode::Char('d'));
    let in_view = |app: &App, line: usize| {
        let row = app.row_of_original_line(line - 1);
        app.view().scroll <= row && row < app.view().scroll + app.view().viewport
    };
    assert!(in_view(&app, 60));
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.view().selected, 0, "N selects block #1");
    assert_eq!(app.selected_diagnosis().map(|d| d.index), Some(0));
    assert!(in_view(&app, 20));
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.view().selected, 1);
    assert!(
        in_view(&app, 60),
        "a failed block is shown at its closest region"
    );
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(app.view().selected, 2, "on to the block never reached");
    assert_eq!(
        app.selected_diagnosis().map(|d| d.state),
        Some(srview::diagnose::Status::NotReached)
    );
    assert!(in_view(&app, 150));
}

/// `u` switches the layout keeping the top line where it is (it used to
/// jump back to the start of the unchanged run, line 1), inside a change
/// too.
#[test]
fn layout_toggle_keeps_the_top_line() {
    let mut app = app_with(block("line 150\nline 151", "L150\nL151\nL151b\nL151c"));
    app.end_stream();
    assert_eq!(app.layout(), Layout::Split);
    key(&mut app, KeyCode::Char('g'));
    let top = app.row_of_original_line(99);
    app.scroll_to(top);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.layout(), Layout::Unified);
    assert_eq!(
        app.view().scroll,
        app.row_of_original_line(99),
        "line 100 on top"
    );
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.view().scroll, top, "and back");

    // The third row of the change in split (original line 152 is past it:
    // new line L151b) is the third added line in unified.
    let change = app.row_of_original_line(149);
    app.scroll_to(change + 2);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.view().scroll, app.row_of_original_line(149) + 2 + 2);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.view().scroll, change + 2);
}

/// `a` while a block is still streaming would write it cut short (its
/// REPLACE half arrived, or nothing of it): srview asks first, and a second
/// `a` writes what has arrived.
#[test]
fn accepting_mid_block_asks_first() {
    let mut app = app();
    let first = block("line 7", "seven");
    app.set_diff(format!("{first}------- SEARCH\nline 9\n=======\nni"));
    let notice = says(&mut app, 'a');
    assert_starts_with(&notice, "block #2 has not finished streaming");
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert!(content.text().contains("seven")),
        other => panic!("the second a writes, got {other:?}"),
    }
    // A finished diff is written at once.
    let mut app = self::app();
    app.set_diff(first);
    assert!(matches!(
        key(&mut app, KeyCode::Char('a')),
        Effect::Accept(_)
    ));
}

/// A notice about the paused state goes when the stream resumes.
#[test]
fn a_paused_notice_goes_when_the_stream_resumes() {
    let mut app = app_with(block("line 7", "seven"));
    app.pause();
    key(&mut app, KeyCode::Char('F'));
    let notice = notice_text(&app);
    assert!(notice.starts_with("paused:"), "{notice}");
    app.append_diff("\n");
    assert_eq!(notice_text(&app), "");
}

/// A final preview the stream's pause makes the view itself says so,
/// rather than closing without a word.
#[test]
fn a_pause_closing_the_final_preview_says_so() {
    let mut app = previewing_out_of_order();
    app.pause();
    assert!(!app.final_preview());
    let notice = notice_text(&app);
    assert_starts_with(&notice, "paused: the panes now show the final result");
}

/// A streamed diff past `MAX_BLOCKS` blocks (a flood of markers) is not
/// read further: memory stays bounded, the state says why, and nothing can
/// be accepted, since what is shown is not the whole diff.
#[test]
fn a_flood_of_blocks_is_not_followed_past_the_cap() {
    let flood = "------- SEARCH\n".repeat(srview::tui::app::MAX_BLOCKS);
    let len = flood.len();
    let mut app = app_with(flood);
    app.append_diff("------- SEARCH\n");
    assert_eq!(app.diff().len(), len, "the text past the cap is not kept");
    let why = app.source_error().clone().expect("said");
    assert!(why.starts_with("it has over 20000 blocks"), "{why}");
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_starts_with(&notice_text(&app), "not accepted");
}

/// A trimmed match whose new lines keep the SEARCH text's shallower
/// indentation, and an edit whose REPLACE text is already there: `a` says
/// what the edit does first, a second `a` writes the reference's result.
#[test]
fn accept_asks_before_writing_a_damaging_edit() {
    for (file, diff, question) in [
        (
            "class A:\n    def f(self):\n        return 1\n",
            "------- SEARCH\ndef f(self):\n    return 1\n=======\ndef f(self):\n    return 2\n+++++++ REPLACE\n",
            "block #1 matched only with white space ignored at lines 2-3, and the new lines are 4 columns left of the lines they replace",
        ),
        (
            "def main():\n    load()\n    run()\n    save()\n",
            "------- SEARCH\n    load()\n    run()\n=======\n    load()\n    run()\n    save()\n+++++++ REPLACE\n",
            "block #1 matched at lines 2-3, but the REPLACE text is already there (lines 2-4): this looks applied already",
        ),
    ] {
        let mut app = app_with_diff("f.py", file, diff);
        let asked = says(&mut app, 'a');
        assert!(asked.starts_with(question), "{asked}");
        let want = srview::engine::apply(diff, file, srview::engine::Options::default())
            .result
            .expect("applies")
            .new_content;
        match key(&mut app, KeyCode::Char('a')) {
            Effect::Accept(content) => assert_eq!(content.text(), want),
            other => panic!("the second a writes: {other:?}"),
        }
    }
}

/// Three blocks over `original()`: #1 and #3 apply, #2 names no line.
fn three_blocks_second_failing() -> String {
    block("line 3", "three") + &block("line zz", "nothing") + &block("line 7", "seven")
}

/// `original()` with lines 3 and 7 replaced (`None`: left as they are).
fn original_with(three: Option<&str>, seven: Option<&str>) -> String {
    (1..=200)
        .map(|i| match (i, three, seven) {
            (3, Some(t), _) | (7, _, Some(t)) => format!("{t}\n"),
            _ => format!("line {i}\n"),
        })
        .collect()
}

/// `x` leaves the selected block out, like `git add -p` (issue 27, item
/// 4): the block list keeps it, marked; the panes show the result of the
/// diff made of the others, and `a` writes exactly that, which is the
/// reference's result of the kept blocks alone. `x` again takes it back.
#[test]
fn x_leaves_a_block_out_and_a_writes_the_others() {
    let mut app = app_with(three_blocks_second_failing());
    app.end_stream();
    app.diagnose();
    assert!(matches!(keys::accept(&mut app), Effect::None), "#2 fails");
    // The failing block is selected: leave it out.
    assert_eq!(app.view().selected, 1);
    key(&mut app, KeyCode::Char('x'));
    assert!(app.is_left_out(1));
    assert_eq!(
        notice_text(&app),
        "block #2 left out: a writes blocks #1, #3 only (the panes show their result)"
    );
    assert_eq!(app.listed_blocks(), 3, "the list keeps every block");
    assert_eq!(app.outcome().blocks[2].state, BlockState::Applied);
    let want = original_with(Some("three"), Some("seven"));
    assert_eq!(
        app.result().text(),
        want,
        "the panes show the kept blocks' result"
    );
    let reference = srview::engine::apply(
        &(block("line 3", "three") + &block("line 7", "seven")),
        &original(),
        srview::engine::Options::default(),
    );
    assert_eq!(
        reference.result.map(|a| a.new_content).as_deref(),
        Ok(want.as_str())
    );
    match keys::accept(&mut app) {
        Effect::Accept(content) => assert_eq!(content.text(), want),
        other => panic!("{other:?}: {:?}", app.notice()),
    }
    // Leaving out #1 as well: only #3 is written.
    app.select_block(0);
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(
        notice_text(&app),
        "block #1 left out: a writes block #3 only (the panes show their result)"
    );
    assert_eq!(app.result().text(), original_with(None, Some("seven")));
    match keys::accept(&mut app) {
        Effect::Accept(content) => assert_eq!(content.text(), original_with(None, Some("seven"))),
        other => panic!("{other:?}: {:?}", app.notice()),
    }
    // Back in: #1 and #2, the whole diff, which fails again.
    key(&mut app, KeyCode::Char('x'));
    app.select_block(1);
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(notice_text(&app), "block #2 back in: a writes every block");
    assert!(app.left_out().is_empty());
    assert!(matches!(keys::accept(&mut app), Effect::None));
}

/// Every block left out: `a` writes nothing and says why.
#[test]
fn every_block_left_out_accepts_nothing() {
    let mut app = app_with(block("line 3", "three"));
    app.end_stream();
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(
        notice_text(&app),
        "block #1 left out: every block is, a writes nothing"
    );
    assert_eq!(
        app.result().text(),
        original(),
        "the panes show the file as it is"
    );
    assert_eq!(keys::accept(&mut app), Effect::None);
    assert_eq!(
        notice_text(&app),
        "every block is left out: nothing to accept (x takes the selected block back in)"
    );
}

/// A rewritten diff has other blocks under the numbers left out: every
/// block is back in, said; a diff that only grows keeps the choice.
#[test]
fn a_rewritten_diff_brings_every_block_back() {
    let mut app = app_with(block("line 3", "three"));
    key(&mut app, KeyCode::Char('x'));
    app.append_diff(&block("line 7", "seven"));
    assert!(app.is_left_out(0), "appended text keeps the choice");
    app.pause();
    assert_eq!(app.result().text(), original_with(None, Some("seven")));
    app.set_diff(block("line 9", "nine"));
    assert!(app.left_out().is_empty());
    assert_eq!(
        notice_text(&app),
        "the diff was rewritten: every block is back in"
    );
}

/// Blocks left out, then a near-marker arrives: which lines each block
/// holds is no longer sure, so the whole diff is shown, said, and `a`
/// writes nothing (never the blocks left out).
#[test]
fn a_near_marker_after_a_block_left_out_accepts_nothing() {
    let mut app = app_with(block("line 3", "three") + &block("line 7", "seven"));
    app.select_block(0);
    key(&mut app, KeyCode::Char('x'));
    app.append_diff("------- SEARCH\nline 9\n=======>\nnine\n+++++++ REPLACE\n");
    app.end_stream();
    assert!(app.is_left_out(0));
    let said = "blocks cannot be left out of this diff: block #3 has a line that looks like a \
                marker but is not one to the reference (diff line 13): which lines each block \
                holds is not sure, so blocks cannot be chosen (srview check shows the markers)";
    assert_eq!(
        notice_text(&app),
        format!("{said}: a writes nothing until x takes them back in")
    );
    assert_eq!(keys::accept(&mut app), Effect::None);
    assert_eq!(notice_text(&app), format!("not accepted: {said}"));
}

/// With a block left out, accepting still asks about the blocks it
/// writes, numbered as the list numbers them (here the misplaced block is
/// #2, after a block left out); the block left out is not asked about.
#[test]
fn accepting_with_a_block_left_out_asks_about_the_blocks_kept() {
    let first = "------- SEARCH\n    one();\n=======\n    uno();\n+++++++ REPLACE\n";
    let mut app = app_with_diff("f.rs", TWO_FNS, &format!("{first}{MISPLACED}"));
    app.select_block(0);
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        notice_text(&app),
        "block #2 matched by its first and last lines only at lines 1-3; its SEARCH text \
         is closest to lines 5-7: press a again to write anyway, Esc to cancel"
    );
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => {
            assert!(content.text().contains("three();") && !content.text().contains("uno();"))
        }
        other => panic!("the second a writes, got {other:?}"),
    }
    // The misplaced block left out instead: nothing to ask, the first
    // block alone is written.
    let mut app = app_with_diff("f.rs", TWO_FNS, &format!("{first}{MISPLACED}"));
    app.select_block(1);
    key(&mut app, KeyCode::Char('x'));
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => {
            assert_eq!(content.text(), TWO_FNS.replace("one();", "uno();"))
        }
        other => panic!("{other:?}: {}", notice_text(&app)),
    }
}

/// `/` then a query and Enter: the view goes to the first match from the
/// top, `n`/`N` move between the matches (not between blocks) until Esc,
/// and keys typed into the query (`q`, `n`) are text, not commands.
#[test]
fn slash_searches_the_panes_and_n_moves_between_its_matches() {
    let mut app = app_with(block("line 150", "L150") + &block("line 7", "seven"));
    app.end_stream();
    app.scroll_to(0);
    key(&mut app, KeyCode::Char('/'));
    assert!(app.search_typing());
    // `q` and `n` are part of the query while it is typed.
    press(&mut app, "line 1q");
    assert_eq!(
        app.view().search.as_ref().map(|s| s.query.as_str()),
        Some("line 1q")
    );
    key(&mut app, KeyCode::Backspace);
    press(&mut app, "9");
    key(&mut app, KeyCode::Enter);
    assert!(app.search_active());
    // "line 19", "line 190".."line 199": 11 rows, split layout.
    assert_eq!(app.match_rows().len(), 11);
    assert_eq!(
        notice_text(&app),
        "/line 19: match 1 of 11 (n/N next/previous, Esc ends the search)"
    );
    let first = app
        .view()
        .search
        .as_ref()
        .and_then(|s| s.at)
        .expect("a match");
    assert_eq!(app.view().scroll, first - 3);
    let selected = app.view().selected;
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(
        notice_text(&app),
        "/line 19: match 2 of 11 (n/N next/previous, Esc ends the search)"
    );
    key(&mut app, KeyCode::Char('N'));
    key(&mut app, KeyCode::Char('N'));
    // Wraps around to the last match; the selected block never moved.
    assert_eq!(
        notice_text(&app),
        "/line 19: match 11 of 11 (n/N next/previous, Esc ends the search)"
    );
    assert_eq!(app.view().selected, selected);
    key(&mut app, KeyCode::Esc);
    assert!(app.view().search.is_none());
    assert_eq!(notice_text(&app), "search ended: n/N go to blocks again");
    // n goes to blocks again.
    key(&mut app, KeyCode::Char('g'));
    key(&mut app, KeyCode::Char('n'));
    assert_eq!(
        app.view().selected,
        1,
        "block #2 (line 7) comes first in the file"
    );
}

/// A query found nowhere says so; an empty query ends the search.
#[test]
fn a_search_without_a_match_says_so() {
    let mut app = app();
    key(&mut app, KeyCode::Char('/'));
    press(&mut app, "nowhere");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        notice_text(&app),
        "/nowhere: no match in either pane (Esc ends the search)"
    );
    key(&mut app, KeyCode::Char('/'));
    key(&mut app, KeyCode::Enter);
    assert!(app.view().search.is_none());
}

/// `v` shows the diff as received over the panes (scrolled by j/k, closed
/// by v or Esc, other keys held); `+` expands the diagnosis and back.
#[test]
fn v_shows_the_raw_diff_and_plus_expands_the_diagnosis() {
    let mut app = app();
    let diff = block("line 150", "L150");
    app.set_diff(diff.clone());
    app.end_stream();
    key(&mut app, KeyCode::Char('v'));
    assert!(app.view().raw);
    assert_eq!(app.raw_text(), diff);
    app.set_raw_input(Some("*** Begin Patch\n*** End Patch\n".into()));
    assert_eq!(app.raw_text(), "*** Begin Patch\n*** End Patch\n");
    // Keys of the previewer do nothing while it is open.
    let scroll = app.view().scroll;
    key(&mut app, KeyCode::Char('G'));
    assert_eq!(app.view().scroll, scroll);
    key(&mut app, KeyCode::Esc);
    assert!(!app.view().raw);
    key(&mut app, KeyCode::Char('+'));
    assert!(app.view().detail_expanded);
    key(&mut app, KeyCode::Char('+'));
    assert!(!app.view().detail_expanded);
}

/// Blocks that show a patch (or an edit) are diagnosed as blocks, but a
/// malformed block there is the rendering's: no SEARCH/REPLACE marker
/// advice and no corrected SEARCH/REPLACE block, only what the edit's
/// marker-like line does to the view. A diff of blocks keeps the advice.
#[test]
fn marker_advice_is_not_given_for_a_patch() {
    let file = "Title\n=====\nSome text\n";
    let diff = "------- SEARCH\nTitle\n=======\nTitle\n=======\n\nIntro\n+++++++ REPLACE\n";
    let diagnosed = |raw: Option<&str>| {
        let mut app = App::new(PathBuf::from("doc.rst"), file.into(), Version::V1);
        app.set_raw_input(raw.map(String::from));
        app.set_diff(diff.into());
        app.end_stream();
        app.diagnose();
        app.diagnoses()[0].clone()
    };
    let blocks = diagnosed(None);
    assert!(
        blocks.reason.is_some_and(|r| r.is_malformed()) && blocks.message.contains("separator"),
        "{blocks:?}"
    );
    let patch = diagnosed(Some(
        "*** Begin Patch\n*** Update File: doc.rst\n@@\n Title\n=======\n+\n+Intro\n*** End Patch\n",
    ));
    assert_eq!(
        (patch.message.as_str(), patch.suggestion, patch.closest),
        (
            "Block #1 shows part of a patch or an edit one of whose lines reads as a \
             SEARCH/REPLACE marker (a reST or Markdown underline?): the previewer's blocks \
             cannot show it faithfully; srview check explains the patch or edit in its own terms.",
            None,
            None
        )
    );
}

/// docs/previewer.md's key table is the `?` overlay's table: every key
/// there, with what it does and in which previewer.
#[test]
fn the_documented_keys_are_the_help_overlays() {
    use srview::tui::app::keymap::{KEYS, KeyScope};
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/previewer.md"))
        .expect("docs/previewer.md");
    let rows: Vec<&str> = doc.lines().filter(|l| l.starts_with("| `")).collect();
    let want: Vec<String> = KEYS
        .iter()
        .map(|row| {
            let scope = match row.scope {
                KeyScope::Both => "every previewer",
                KeyScope::SingleDiff => "one diff",
                KeyScope::Transcript => "transcript",
                KeyScope::Agent => "agent",
                KeyScope::AgentList => "agent's list",
            };
            format!("| `{}` | {} | {scope} |", row.keys, row.help)
        })
        .collect();
    assert_eq!(rows, want);
}

/// A damaging edit in a CRLF file given LF lines: `a` asks about the edit,
/// a second `a` then asks about the line endings (not skipped), and `L`
/// writes with the file's.
#[test]
fn the_line_endings_question_follows_a_confirmed_doubt() {
    let file = "class A:\r\n    def f(self):\r\n        return 1\r\n";
    let diff = "------- SEARCH\ndef f(self):\n    return 1\n=======\ndef f(self):\n    return 2\n+++++++ REPLACE\n";
    let mut app = app_with_diff("f.py", file, diff);
    assert_contains(&says(&mut app, 'a'), "the new lines are 4 columns left");
    assert_contains(&says(&mut app, 'a'), "the result mixes line endings");
    match key(&mut app, KeyCode::Char('L')) {
        Effect::Accept(content) => {
            assert_eq!(
                content.text(),
                "class A:\r\ndef f(self):\r\n    return 2\r\n"
            )
        }
        other => panic!("L writes: {other:?}"),
    }
}

/// One diff's keys run what the key table says: every key of every row
/// that applies there, pressed on a fresh previewer, does its row's action
/// (those seen from outside: the effects asked of the loop, the overlays
/// and modes opened).
#[test]
fn one_diffs_keys_dispatch_from_the_table() {
    use srview::tui::app::keymap::{self, Action, KeyScope};
    let mut checked = 0;
    for row in keymap::rows(KeyScope::SingleDiff) {
        for bind in row.binds {
            let modifiers = if bind.ctrl {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            };
            let mut app = app();
            let effect = keys::on_key(&mut app, KeyEvent::new(bind.code, modifiers));
            let key = keymap::key_name(bind);
            match bind.action {
                Action::Quit => assert_eq!(effect, Effect::Quit(1), "{key}"),
                Action::Reload => assert_eq!(effect, Effect::Reload, "{key}"),
                Action::Help => assert!(app.view().help, "{key}"),
                Action::RawInput => assert!(app.view().raw, "{key}"),
                Action::Search => assert!(app.search_typing(), "{key}"),
                Action::FocusBlocks => assert_eq!(app.view().focus, Focus::Blocks, "{key}"),
                Action::Wrap => assert!(app.view().wrap, "{key}"),
                Action::ToggleLayout => assert_eq!(app.layout(), Layout::Unified, "{key}"),
                Action::ExpandDiagnosis => assert!(app.view().detail_expanded, "{key}"),
                _ => {
                    assert!(!matches!(effect, Effect::Quit(_) | Effect::Reload), "{key}");
                    continue;
                }
            }
            checked += 1;
        }
    }
    // q, r, ?, v, /, e, w, u and Tab, +.
    assert_eq!(checked, 10);
}

/// `a` on an exact block whose REPLACE text ends with the line the file
/// has right after its SEARCH text (written, it appears twice) asks first,
/// as `apply --write` holds it back; a second `a` writes (a tester's find:
/// written at once, no question).
#[test]
fn accepting_an_exact_block_that_writes_a_line_twice_asks_first() {
    let file = "def f(x):\n    if x > 0:\n        x = x + 1\n        log(x)\n    return x\n";
    let diff = "------- SEARCH\n        x = x + 1\n=======\n        x = x + 2\n        log(x)\n+++++++ REPLACE\n";
    let mut app = app_with_diff("a.py", file, diff);
    assert_eq!(key(&mut app, KeyCode::Char('a')), Effect::None);
    assert_eq!(
        notice_text(&app),
        "block #1's REPLACE text ends with `log(x)`, which the file already has right after \
         the text it replaces (line 4): written, it appears twice: send the edit without it, \
         or with it in the old text too: press a again to write anyway, Esc to cancel"
    );
    assert!(app.confirming_guess());
    match key(&mut app, KeyCode::Char('a')) {
        Effect::Accept(content) => assert!(content.text().contains("x = x + 2")),
        other => panic!("the second a writes, got {other:?}"),
    }
}
