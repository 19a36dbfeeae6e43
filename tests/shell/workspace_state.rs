//! The multi-file previewer state: tabs per file, following the file being
//! written, accept one or all.

use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srview::engine::Version;
use srview::source::transcript::{self, ApplyOptions, FileState};
use srview::tui::app::Effect;
use srview::tui::app::StreamState;
use srview::tui::app::workspace::Workspace;

use super::{key, notice_text, support};

use support::text::assert_contains;

use support::diff::replace_in_file as call;

fn files(path: &str) -> Result<Option<String>, String> {
    Ok(Some(match path {
        "a.py" => "x = 1\ny = 2\n".to_string(),
        "b.toml" => "[s]\nk = 1\n".to_string(),
        "two.rs" => TWO_FNS.to_string(),
        "crlf.txt" => "a\r\nb\r\n".to_string(),
        _ => return Ok(None),
    }))
}

fn feed(ws: &mut Workspace, text: &str, ended: bool) {
    let calls = transcript::parse_any(text);
    let edits = transcript::apply_calls(&calls, files, ApplyOptions::default());
    ws.update(&calls, edits, text.len(), ended);
}

/// A new workspace (V1, no clean-up) fed `text`.
fn fed(text: &str, ended: bool) -> Workspace {
    let mut ws = Workspace::new(Version::V1, false);
    feed(&mut ws, text, ended);
    ws
}

/// The effect of writing tabs `files` (and their line endings, with
/// `file_endings`).
fn writes(files: &[usize], file_endings: bool) -> Effect {
    Effect::Write {
        files: files.to_vec(),
        file_endings,
    }
}

/// The files the key `c` asks to write with the edits' own line endings
/// (it must ask that); `what` says what was expected where it does not.
fn written_by(ws: &mut Workspace, c: char, what: &str) -> Vec<usize> {
    match key(ws, c) {
        Effect::Write {
            files,
            file_endings: false,
        } => files,
        other => panic!("{what}: {other:?}"),
    }
}

#[test]
fn tabs_follow_the_file_being_written_until_the_user_picks_one() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "k = 1", "k = 2");
    let half = text.find("<path>b.toml").expect("second call") + 20;
    let mut ws = fed(&text[..half], false);
    assert_eq!(ws.tabs().len(), 2);
    assert_eq!(ws.current(), 1, "follows the file being written");
    assert_eq!(ws.received().stream, StreamState::Streaming);
    assert_eq!(ws.tabs()[1].state(), FileState::Streaming);
    key(&mut ws, '[');
    assert_eq!(ws.current(), 0);
    feed(&mut ws, &text, true);
    assert_eq!(ws.current(), 0, "a chosen tab stays");
    assert_eq!(ws.tabs()[0].app().result().text(), "x = 1\ny = 3\n");
    assert_eq!(ws.tabs()[1].app().result().text(), "[s]\nk = 2\n");
    key(&mut ws, 'f');
    feed(&mut ws, &text, true);
    assert_eq!(ws.current(), 1, "f follows again");
}

#[test]
fn accept_all_needs_every_file_applied() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "missing", "k = 2");
    let mut ws = fed(&text, true);
    assert_eq!(ws.tabs()[1].state(), FileState::Failed);
    assert_eq!(key(&mut ws, 'A'), Effect::None);
    assert!(
        ws.notice()
            .as_ref()
            .is_some_and(|n| n.error && n.text.contains("b.toml"))
    );
    key(&mut ws, '1');
    let which = written_by(&mut ws, 'a', "accepting an applied file asks to write it");
    assert_eq!(which.len(), 1);
    assert_eq!(ws.edits()[which[0]].path, "a.py");
    ws.mark_written(&which);
    assert!(ws.tabs()[0].written() && !ws.all_written());
    assert_eq!(
        key(&mut ws, 'q'),
        Effect::Quit(0),
        "a file the user accepted was written: a success, even if not every file was"
    );
}

#[test]
fn accept_all_writes_every_applied_file() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "k = 1", "k = 2");
    let mut ws = fed(&text, true);
    let which = written_by(&mut ws, 'A', "both apply");
    assert_eq!(which.len(), 2);
    ws.mark_written(&which);
    assert!(ws.all_written());
    assert_eq!(key(&mut ws, 'q'), Effect::Quit(0));
}

#[test]
fn tabs_apply_the_model_output_clean_up_when_asked() {
    let mut ws = Workspace::new(Version::V1, true);
    let text = call("a.py", "y = 2", "y = &quot;3&quot;");
    let calls = transcript::parse_any(&text);
    let options = ApplyOptions {
        fix_model_output: true,
        ..ApplyOptions::default()
    };
    let edits = transcript::apply_calls(&calls, files, options);
    ws.update(&calls, edits, text.len(), true);
    assert_eq!(ws.tabs()[0].app().result().text(), "x = 1\ny = \"3\"\n");
    assert_eq!(
        ws.tabs()[0].app().result().text(),
        ws.edits()[0].content(),
        "the tab shows what would be written"
    );
}

/// `F` (the final result of a single diff) is not a tab's: a transcript
/// edit shows its final result once complete, and Esc does not quit.
#[test]
fn final_preview_key_is_not_passed_to_tabs() {
    let text = call("a.py", "y = 2", "y = 3");
    let half = text.find("=======").expect("separator") + 9;
    let mut ws = fed(&text[..half], false);
    assert_eq!(key(&mut ws, 'F'), Effect::None);
    assert!(!ws.tabs()[0].app().final_preview());
    assert!(notice(&ws).contains("F is for a single diff"));
    assert_eq!(
        ws.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
        Effect::None,
        "Esc never quits"
    );
    assert_eq!(key(&mut ws, 'q'), Effect::Quit(1), "nothing written");
}

/// `x` (leave a block out) is a single diff's: a transcript writes every
/// block of its calls, so a tab's blocks are never left out of the view
/// only (what is shown must be what is written).
#[test]
fn leaving_a_block_out_is_not_passed_to_tabs() {
    let mut ws = fed(&call("a.py", "y = 2", "y = 3"), true);
    assert_eq!(key(&mut ws, 'x'), Effect::None);
    assert!(ws.tabs()[0].app().left_out().is_empty());
    assert_eq!(
        notice(&ws),
        "x (leave a block out) is for a single diff (srview FILE DIFF): here a writes every block"
    );
}

/// The `?` overlay of a transcript lists its keys: files and accept-all,
/// not the single-diff `F` and `r` (the transcript's `r` reloads every file).
#[test]
fn help_lists_the_transcript_keys() {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use srview::tui::view::highlight::Syntaxes;
    use srview::tui::view::theme::{ColourMode, Theme};
    use srview::tui::view::{self, Caches};

    let mut ws = fed(&call("a.py", "y = 2", "y = 3"), true);
    key(&mut ws, '?');
    let app = ws.current_app().expect("a tab");
    assert!(app.view().help);
    let mut caches = vec![Caches::new(Syntaxes::load(), app)];
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    terminal
        .draw(|f| view::render_workspace(f, &ws, &mut caches, &Theme::new(ColourMode::None)))
        .expect("draw");
    let screen: String = terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    for wanted in ["next/prev file", "accept all files", "accept this file"] {
        assert!(screen.contains(wanted), "{wanted:?} missing");
    }
    for unwanted in ["final result / live view", "reload FILE"] {
        assert!(!screen.contains(unwanted), "{unwanted:?} shown");
    }
}

/// A file whose call holds no block (prose only, or nothing yet) proposes
/// nothing: `a` and `A` refuse, and nothing is written or counted.
#[test]
fn accepting_a_file_with_nothing_to_accept_is_refused() {
    let empty = "<replace_in_file>\n<path>a.py</path>\n<diff>\nI will change y.\n</diff>\n</replace_in_file>\n";
    let mut ws = fed(empty, true);
    assert_eq!(ws.tabs().len(), 1);
    for k in ['a', 'A'] {
        // A notice of its own, which the key must replace.
        ws.show_notice(srview::tui::app::Notice {
            text: "before the key".into(),
            error: false,
        });
        assert_eq!(key(&mut ws, k), Effect::None, "{k}");
        let notice = ws.notice().as_ref().expect("a notice");
        assert!(
            notice.error && notice.text.contains("nothing to accept"),
            "{k}: {}",
            notice.text
        );
    }
    assert!(!ws.tabs()[0].written());
    assert_eq!(key(&mut ws, 'q'), Effect::Quit(1));

    // With another file that applies, accept-all is still all or none.
    let mut ws = fed(&(call("b.toml", "k = 1", "k = 2") + empty), true);
    assert_eq!(key(&mut ws, 'A'), Effect::None);
    assert!(notice(&ws).contains("a.py"));

    // A transcript without any edit: nothing to accept either.
    let mut ws = fed("Just prose, no tool call.\n", true);
    assert_eq!(key(&mut ws, 'A'), Effect::None);
    assert!(notice(&ws).contains("nothing to accept"));
}

/// A refused accept-all names the file's state as a sentence would.
#[test]
fn refusal_says_which_file_failed_in_words() {
    let text = call("a.py", "y = 2", "y = 3") + &call("settings.toml", "missing", "k = 2");
    let mut ws = fed(&text, true);
    key(&mut ws, 'A');
    let notice = notice(&ws);
    assert!(
        notice.starts_with("nothing written: settings.toml has a failing block"),
        "{notice}"
    );
    assert!(!notice.contains(" is failed"), "{notice}");
}

/// The tab bar keeps `A` (`A all` at least) on a narrow terminal, whatever
/// room the tabs would need, and keeps the current tab.
#[test]
fn tab_bar_keeps_accept_all_on_a_narrow_terminal() {
    let text: String = (0..6)
        .map(|i| {
            call(
                &format!("src/module_{i}/configuration.py"),
                "y = 2",
                "y = 3",
            )
        })
        .collect();
    let mut ws = fed(&text, true);
    key(&mut ws, '5');
    for width in [80, 60, 40] {
        let bar = tab_bar_at(&ws, width);
        assert!(
            bar.contains("A accept all") || bar.contains("A all"),
            "{width}: {bar:?}"
        );
        assert!(bar.contains(" 5 "), "the current tab stays: {bar:?}");
        assert!(bar.contains('…'), "left-out tabs are marked: {bar:?}");
    }
}

/// A failed file whose tab has no room on a narrow bar is still said: the
/// keys' hint gives way to "N failed, not shown".
#[test]
fn a_failed_file_is_never_dropped_silently_from_the_tab_bar() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "no such line", "k = 2");
    let mut ws = fed(&text, true);
    key(&mut ws, '1');
    let wide = tab_bar_at(&ws, 160);
    assert!(wide.contains("2 b.toml failed"), "{wide:?}");
    assert!(!wide.contains("not shown"), "{wide:?}");
    let narrow = tab_bar_at(&ws, 40);
    assert!(
        !narrow.contains("b.toml"),
        "no room for the tab: {narrow:?}"
    );
    assert!(narrow.contains("1 failed, not shown"), "{narrow:?}");
}

/// `fn a`'s first and last lines, `fn b`'s middle: the block-anchor
/// fallback matches a block meant for `fn b` at `fn a`.
const TWO_FNS: &str =
    "fn a() {\n    one();\n}\n\nfn b() {\n    two_and_a_long_call(with, many, args);\n}\n";

fn notice(ws: &Workspace) -> String {
    ws.notice()
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}

/// In a transcript too, `a` and `A` hold back a write whose block the
/// block-anchor fallback put at the wrong place: the notice names the file,
/// the block and why; the same key again writes, any other key cancels.
#[test]
fn accepting_a_misplaced_block_asks_first_in_a_transcript() {
    let text = format!(
        "{}{}",
        call("a.py", "y = 2", "y = 3"),
        call(
            "two.rs",
            "fn a() {\n    two_and_a_long_call(with, many, args);\n}",
            "fn a() {\n    three();\n}"
        )
    );
    let mut ws = fed(&text, true);
    assert_eq!(ws.tabs()[1].state(), FileState::Applied);
    assert_eq!(key(&mut ws, 'A'), Effect::None, "held back");
    assert_eq!(
        notice(&ws),
        "two.rs: block #1 matched by its first and last lines only at lines 1-3; its SEARCH \
         text is closest to lines 5-7: press A again to write anyway, Esc to cancel"
    );
    assert_eq!(ws.current(), 1, "the file in doubt is shown");
    assert_eq!(key(&mut ws, 'A'), writes(&[0, 1], false));

    // Every other file in doubt is named (here a CRLF file given LF lines),
    // since the second A writes it too.
    let mixed = format!("{text}{}", call("crlf.txt", "b", "B"));
    let mut ws = fed(&mixed, true);
    assert_eq!(key(&mut ws, 'A'), Effect::None, "held back");
    assert_contains(&notice(&ws), "(in doubt too: crlf.txt): press A again");
    // crlf.txt's line endings are no block: not counted among "more blocks".
    assert!(!notice(&ws).contains("more block"), "{}", notice(&ws));
    // L is not offered past another doubt, and writes nothing then.
    assert!(!notice(&ws).contains("L to use"), "{}", notice(&ws));
    assert!(!matches!(
        key(&mut ws, 'L'),
        Effect::Write {
            files: _,
            file_endings: true
        }
    ));

    // `a` on that tab: the same; `j` cancels, so `a` asks again.
    let mut ws = fed(&text, true);
    key(&mut ws, '2');
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert_contains(&notice(&ws), "press a again");
    key(&mut ws, 'j');
    assert_eq!(notice(&ws), "", "cancelled");
    assert_eq!(key(&mut ws, 'a'), Effect::None, "asks again");
    ws.on_key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
    assert_eq!(notice(&ws), "accept cancelled: nothing written");
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    // More transcript text that leaves the file as it is keeps the question...
    let more = format!("{text}And that is all.\n");
    feed(&mut ws, &more, true);
    assert_contains(&notice(&ws), "press a again");
    // ...a change to the file in doubt cancels it.
    let changed = more.replace("three();", "four();");
    feed(&mut ws, &changed, true);
    assert_eq!(notice(&ws), "");
    assert_eq!(key(&mut ws, 'a'), Effect::None, "asks again");
    assert_eq!(key(&mut ws, 'a'), writes(&[1], false));
    // A file without doubt is written at once.
    key(&mut ws, '1');
    assert_eq!(key(&mut ws, 'a'), writes(&[0], false));
}

/// A refusal in a transcript goes once new transcript text arrives.
#[test]
fn a_transcript_refusal_goes_with_new_text() {
    let text = call("a.py", "y = 2", "y = 3");
    let cut = text.find("------- SEARCH").expect("a block");
    let mut ws = fed(&text[..cut], false);
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert!(
        notice(&ws).starts_with("nothing written: a.py"),
        "{}",
        notice(&ws)
    );
    feed(&mut ws, &text, true);
    assert_eq!(notice(&ws), "");
}

/// A quiet transcript pauses as a single diff does: the header's state is
/// `paused`, a file whose call is still open is shown as final mode would;
/// new text streams again. An ended transcript never pauses.
#[test]
fn a_quiet_transcript_pauses() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "k = 1", "k = 2");
    let open = text.rfind("+++++++ REPLACE").expect("the last block");
    let mut ws = fed(&text[..open], false);
    assert_eq!(ws.received().stream, StreamState::Streaming);
    assert_eq!(ws.tabs()[1].app().stream(), StreamState::Streaming);
    ws.pause();
    assert_eq!(ws.received().stream, StreamState::Paused);
    assert_eq!(ws.tabs()[1].app().stream(), StreamState::Paused);
    assert_eq!(
        ws.tabs()[0].app().stream(),
        StreamState::Ended,
        "a complete call stays ended"
    );
    // Applied again without new text (`r` reloads the files): still paused.
    feed(&mut ws, &text[..open], false);
    assert_eq!(ws.received().stream, StreamState::Paused);
    assert_eq!(ws.tabs()[1].app().stream(), StreamState::Paused);
    feed(&mut ws, &text, false);
    assert_eq!(ws.received().stream, StreamState::Streaming);
    feed(&mut ws, &text, true);
    ws.pause();
    assert_eq!(ws.received().stream, StreamState::Ended);
}

/// The tab bar's first row at `width` columns.
fn tab_bar_at(ws: &Workspace, width: u16) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use srview::tui::view::highlight::Syntaxes;
    use srview::tui::view::theme::{ColourMode, Theme};
    use srview::tui::view::{self, Caches};

    let mut caches: Vec<Caches> = ws
        .tabs()
        .iter()
        .map(|t| Caches::new(Syntaxes::load(), t.app()))
        .collect();
    let mut terminal = Terminal::new(TestBackend::new(width, 24)).expect("terminal");
    terminal
        .draw(|f| view::render_workspace(f, ws, &mut caches, &Theme::new(ColourMode::None)))
        .expect("draw");
    let buf = terminal.backend().buffer();
    (0..width)
        .map(|x| buf[(x, 0)].symbol().to_string())
        .collect()
}

/// Calls on paths outside `--cwd` are not dropped: each gets a tab saying
/// `refused: outside --cwd`; `A` writes nothing while one is refused (as
/// `srview apply --transcript --write` does) and names them; `a` on a file
/// that applies still writes that file.
#[test]
fn refused_paths_get_a_tab_and_block_accept_all() {
    let dir = tempfile::tempdir().expect("tempdir");
    support::files::tree(
        dir.path(),
        &[
            ("work/a.txt", "one\n"),
            ("work/sub/b.txt", "one\n"),
            ("outside.txt", "one\n"),
        ],
    );
    let cwd = dir.path().join("work");
    let absolute = dir.path().join("outside.txt").display().to_string();
    let text = format!(
        "{}{}{}{}",
        call("a.txt", "one", "uno"),
        call("../outside.txt", "one", "uno"),
        call(&absolute, "one", "uno"),
        call("sub/b.txt", "one", "uno"),
    );
    let paths = transcript::PathRules::new(&cwd, false);
    let calls = transcript::parse_any(&text);
    let edits = transcript::apply_calls(&calls, |p| paths.load(p), ApplyOptions::default());
    let mut ws = Workspace::new(Version::V1, false);
    ws.update(&calls, edits, text.len(), true);

    let names: Vec<(&str, &str)> = ws
        .tabs()
        .iter()
        .map(|t| (t.path().as_str(), t.state_label()))
        .collect();
    assert_eq!(
        names,
        [
            ("a.txt", "applied"),
            ("../outside.txt", "refused: outside --cwd"),
            (absolute.as_str(), "refused: outside --cwd"),
            ("sub/b.txt", "applied"),
        ]
    );
    let bar = tab_bar_at(&ws, 250);
    assert!(
        bar.contains("2 ../outside.txt refused: outside --cwd"),
        "{bar}"
    );

    assert_eq!(key(&mut ws, 'A'), Effect::None, "nothing written");
    let said = notice(&ws);
    assert!(
        said.starts_with("nothing written: refused: ../outside.txt (outside --cwd), "),
        "{said}"
    );
    assert!(said.contains(&absolute), "{said}");
    assert!(ws.notice().as_ref().is_some_and(|n| n.error));

    // A refused tab refuses `a` too, and shows why.
    key(&mut ws, '2');
    assert!(
        ws.current_app()
            .and_then(|a| a.notice().as_ref())
            .is_some_and(|n| n.text.contains("outside") && n.error)
    );
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert_contains(&notice(&ws), "../outside.txt");

    // A good file can still be accepted on its own.
    key(&mut ws, '1');
    assert_eq!(key(&mut ws, 'a'), writes(&[0], false));
}

/// A refusal notice is worded once (no doubled state, no doubled prefix),
/// stays while more of the transcript streams in, and goes with a key or
/// when the state it describes ends.
#[test]
fn refusal_notice_stays_until_a_key_or_its_state_ends() {
    let text = call("a.py", "y = 2", "y = 3") + &call("b.toml", "k = 1", "k = 2");
    let cut = text.find("<path>b.toml").expect("second call") + 40;
    let mut ws = fed(&text[..cut], false);
    key(&mut ws, '2');
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert_eq!(notice(&ws), "nothing written: b.toml is still streaming");
    // The next chunks of the same call leave it shown.
    feed(&mut ws, &text[..cut + 10], false);
    feed(&mut ws, &text[..cut + 20], false);
    assert_eq!(notice(&ws), "nothing written: b.toml is still streaming");
    // Any key ends it.
    key(&mut ws, 'j');
    assert_eq!(notice(&ws), "");
    // So does the end of what it describes.
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    feed(&mut ws, &text, true);
    assert_eq!(notice(&ws), "");
    assert_eq!(key(&mut ws, 'a'), writes(&[1], false));
}

/// The transcript's `?` overlay lists `r`, and `r` asks the loop to reload.
#[test]
fn r_reloads_in_a_transcript() {
    let mut ws = fed(&call("a.py", "y = 2", "y = 3"), true);
    assert_eq!(key(&mut ws, 'r'), Effect::Reload);
    let listed: Vec<(&str, &str)> =
        srview::tui::app::keymap::key_help(srview::tui::app::keymap::KeyScope::Transcript)
            .collect();
    assert!(
        listed
            .iter()
            .any(|(k, what)| *k == "r" && what.contains("reload")),
        "{listed:?}"
    );
}

/// At 80 columns the transcript's state and every tab of the demo
/// (inventory.py, settings.toml) stay; key hints give way first.
#[test]
fn tab_bar_keeps_tabs_and_state_before_key_hints() {
    let text = call("inventory.py", "y = 2", "y = 3") + &call("settings.toml", "missing", "k = 2");
    let mut ws = fed(&text, false);
    // The transcript's size so far, as the reader counts it.
    let calls = transcript::parse_any(&text);
    let edits = transcript::apply_calls(&calls, files, ApplyOptions::default());
    ws.update(&calls, edits, 12_345, false);
    for width in [80, 70] {
        let bar = tab_bar_at(&ws, width);
        assert!(bar.contains("streaming"), "{width}: {bar:?}");
        assert!(bar.contains("1 inventory.py"), "{width}: {bar:?}");
        assert!(bar.contains("2 settings.toml"), "{width}: {bar:?}");
        assert!(!bar.contains('…'), "{width}: {bar:?}");
    }
    // With room, the hints come back in full.
    let bar = tab_bar_at(&ws, 160);
    assert!(bar.contains("A accept all"), "{bar:?}");
    assert!(bar.contains("transcript streaming · 12345 B"), "{bar:?}");
}

/// Mid-stream, a later call may edit an accepted file again: `a` asks
/// first; pressed again, it writes the file as it is now. Once the
/// transcript pauses or ends, `a` writes at once.
#[test]
fn accepting_while_the_transcript_streams_asks_first() {
    let text = format!("{}Now the config.\n", call("a.py", "y = 2", "y = 3"));
    let mut ws = fed(&text, false);
    assert_eq!(key(&mut ws, 'a'), Effect::None, "asks first");
    assert!(ws.confirming());
    assert_contains(
        &notice(&ws),
        "the transcript is still streaming: later calls may edit a.py again",
    );
    let which = written_by(&mut ws, 'a', "confirmed: writes");
    assert_eq!(which.len(), 1);
    let mut ws = fed(&text, false);
    ws.pause();
    assert!(
        matches!(
            key(&mut ws, 'a'),
            Effect::Write {
                files: _,
                file_endings: false
            }
        ),
        "paused: no question"
    );
}

/// A file edited by two calls shows both calls' blocks, grouped by call,
/// over the file as it was (issue 27, item 5): what the panes show is what
/// `a` writes, not the last call's edit alone.
#[test]
fn every_call_on_a_file_is_shown_grouped_by_call() {
    let text = call("a.py", "x = 1", "x = 10") + &call("a.py", "y = 2", "y = 20");
    let mut ws = fed(&text, true);
    assert_eq!(ws.tabs().len(), 1);
    let app = &ws.tabs()[0].app();
    assert_eq!(
        app.original().text(),
        "x = 1\ny = 2\n",
        "the file before the first call"
    );
    assert_eq!(app.listed_blocks(), 2, "both calls' blocks");
    let groups: Vec<(usize, &str)> = app
        .call_groups()
        .iter()
        .map(|g| (g.first_block, g.label.as_str()))
        .collect();
    assert_eq!(groups, [(0, "call 1"), (1, "call 2")]);
    assert_eq!(app.result().text(), "x = 10\ny = 20\n");
    assert_eq!(
        app.result().text(),
        ws.edits()[0].content(),
        "shown is written"
    );
    assert_eq!(key(&mut ws, 'a'), writes(&[0], false));

    // The block list names each call beside its first block.
    let screen = ws_screen(&mut ws);
    assert!(screen.contains("call 1 │ #1"), "{screen}");
    assert!(screen.contains("call 2 │ #2"), "{screen}");
}

/// A later call that edits what an earlier one wrote: no diff over the
/// first text shows both, so the tab shows their combined change as a
/// whole-file edit, which is what `a` writes, and says why.
#[test]
fn calls_that_build_on_each_other_are_shown_combined() {
    let text = call("a.py", "y = 2", "y = 3") + &call("a.py", "y = 3", "y = 4");
    let ws = fed(&text, true);
    let app = &ws.tabs()[0].app();
    assert_eq!(app.original().text(), "x = 1\ny = 2\n");
    assert_eq!(app.result().text(), "x = 1\ny = 4\n");
    assert_eq!(app.result().text(), ws.edits()[0].content());
    assert_eq!(
        app.notice().as_ref().map(|n| n.text.as_str()),
        Some(
            "2 calls edit this file, and a later one edits what an earlier one wrote, so their \
             blocks cannot all be shown over the file as it was: shown as their combined \
             change, which is what a writes"
        )
    );
    // Block by block, each applied exactly (not one whole-file edit with
    // no block to select).
    assert_eq!(app.listed_blocks(), 1);
    assert_eq!(
        app.outcome().blocks[0].stage,
        Some(srview::engine::Stage::Exact)
    );

    // A call's loose match is said beside the combined blocks.
    let text = call("a.py", "  y = 2", "y = 3") + &call("a.py", "y = 3", "y = 4");
    let ws = fed(&text, true);
    assert_contains(
        &notice_text(ws.tabs()[0].app()),
        "; call 1's block #1 matched only line-trimmed",
    );
}

/// A doubtful block in an earlier call is asked about too (before, only
/// the last call's blocks were): the block as the tab numbers it.
#[test]
fn a_doubt_in_an_earlier_call_is_asked_about() {
    let text = call(
        "two.rs",
        "fn a() {\n    two_and_a_long_call(with, many, args);\n}",
        "fn a() {\n    three();\n}",
    ) + &call("two.rs", "fn b() {", "fn b2() {");
    let mut ws = fed(&text, true);
    assert_eq!(ws.tabs()[0].app().listed_blocks(), 2);
    assert_eq!(key(&mut ws, 'a'), Effect::None, "held back");
    assert_eq!(
        notice(&ws),
        "two.rs: block #1 matched by its first and last lines only at lines 1-3; its SEARCH \
         text is closest to lines 5-7: press a again to write anyway, Esc to cancel"
    );
    assert_eq!(key(&mut ws, 'a'), writes(&[0], false));
}

/// The whole screen of `ws`, 100x30, one line per row.
fn ws_screen(ws: &mut Workspace) -> String {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use srview::tui::view::highlight::Syntaxes;
    use srview::tui::view::theme::{ColourMode, Theme};
    use srview::tui::view::{self, Caches};

    let mut caches: Vec<Caches> = ws
        .tabs()
        .iter()
        .map(|t| Caches::new(Syntaxes::load(), t.app()))
        .collect();
    let mut terminal = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    terminal
        .draw(|f| view::render_workspace(f, ws, &mut caches, &Theme::new(ColourMode::None)))
        .expect("draw");
    let buf = terminal.backend().buffer();
    (0..30)
        .map(|y| {
            (0..100)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
                + "\n"
        })
        .collect()
}

/// A call that does not apply (its SEARCH text was changed by an earlier
/// call) is shown alone over the text the calls before it left, failing
/// there as it fails when run: the joined diff would apply it over the
/// first text, which is not what happens.
#[test]
fn a_failing_call_among_several_is_shown_alone_where_it_fails() {
    let text = call("a.py", "x = 1", "x = 10") + &call("a.py", "x = 1", "x = 11");
    let mut ws = fed(&text, true);
    assert_eq!(ws.edits()[0].state, FileState::Failed);
    let app = &ws.tabs()[0].app();
    assert_eq!(app.original().text(), "x = 10\ny = 2\n");
    assert_eq!(app.outcome().failed_count(), 1);
    assert!(app.call_groups().is_empty());
    assert_eq!(
        app.notice().as_ref().map(|n| n.text.as_str()),
        Some(
            "call 2 of the 2 calls on this file does not apply: shown alone, over the text the \
             calls before it left"
        )
    );
    assert_eq!(key(&mut ws, 'a'), Effect::None, "nothing written");
}

/// A CRLF file given LF lines: `a` asks, offering the file's line endings;
/// `L` writes with them (every line in CRLF), through the same all-or-none
/// write as `a` again.
#[test]
fn l_writes_a_crlf_file_with_its_own_line_endings() {
    let mut ws = l_after_asking(
        &call("crlf.txt", "b", "B"),
        &[
            "press a again to write anyway, L to use the files' line endings (CRLF for the new lines too), Esc to cancel",
        ],
        // What it writes: the file's endings on every line.
        ("crlf.txt", "a\r\nb\r\n"),
        "a\r\nB\r\n",
    );
    // Without the question, L is no write.
    assert_ne!(key(&mut ws, 'L'), writes(&[0], true));
}

/// The transcript `text`'s calls fed whole, then `a`: no write, a question
/// whose notice holds each of `asks`; `L` writes with the file's line
/// endings, and what it writes over `file` (`(name, content)`) is `want`.
/// The workspace, after `L`.
fn l_after_asking(text: &str, asks: &[&str], file: (&str, &str), want: &str) -> Workspace {
    let mut ws = fed(text, true);
    assert_eq!(key(&mut ws, 'a'), Effect::None, "{}", file.0);
    for ask in asks {
        assert_contains(&notice(&ws), ask);
    }
    assert_eq!(key(&mut ws, 'L'), writes(&[0], true), "{}", file.0);
    assert_eq!(written_in_file_endings(text, file), want, "{}", file.0);
    ws
}

/// What `L` writes: the transcript `text`'s calls applied over the file
/// `(name, content)` in a temporary folder and written with the file's
/// line endings; the file as written.
fn written_in_file_endings(text: &str, (name, content): (&str, &str)) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(name), content).expect("write");
    let calls = transcript::parse_any(text);
    let root = dir.path().to_path_buf();
    let load = |p: &str| -> Result<Option<String>, String> {
        Ok(std::fs::read_to_string(root.join(p)).ok())
    };
    let edits = transcript::apply_calls(&calls, load, ApplyOptions::default());
    let rules = transcript::PathRules::new(dir.path(), false);
    let all: Vec<&transcript::FileEdit> = edits.iter().collect();
    transcript::write_files_with(&rules, &all, true).expect("written");
    std::fs::read_to_string(dir.path().join(name)).expect("read")
}

/// The mirror: an LF file given CRLF lines asks the same, offering LF for
/// the new lines, and `L` writes every line in LF (never the file in CRLF).
#[test]
fn l_writes_an_lf_file_given_crlf_lines_in_lf() {
    l_after_asking(
        &call("a.py", "y = 2", "y = 20\r\ny2 = 3"),
        &[
            "the result mixes line endings: the file's lines end in LF, the edit's new lines in CRLF",
            "press a again to write anyway, L to use the files' line endings (LF for the new lines too), Esc to cancel",
        ],
        ("a.py", "x = 1\ny = 2\n"),
        "x = 1\ny = 20\ny2 = 3\n",
    );
}

/// The transcript's `a`/`A` decide through `diagnose::accept`: each of its
/// refusals, word for word (an unreadable transcript first, then a file its
/// calls leave as it is, then a failing one).
#[test]
fn the_transcripts_refusals_are_worded_exactly() {
    // An unreadable transcript writes nothing, whatever applies.
    let mut ws = fed(&call("a.py", "y = 2", "y = 3"), true);
    ws.set_unreadable(Some("invalid UTF-8 at byte 12".into()));
    assert_eq!(key(&mut ws, 'A'), Effect::None);
    assert_eq!(
        notice(&ws),
        "nothing written: the transcript is unreadable: invalid UTF-8 at byte 12"
    );
    ws.set_unreadable(None);
    assert!(matches!(key(&mut ws, 'A'), Effect::Write { .. }));

    // Calls that leave the file as it is.
    let mut ws = fed(&call("a.py", "y = 2", "y = 2"), true);
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert_eq!(
        notice(&ws),
        "nothing written: a.py is left unchanged by its edits: nothing to accept"
    );

    // A call without a complete block yet.
    let empty = "<replace_in_file>\n<path>a.py</path>\n<diff>\nI will change y.\n</diff>\n</replace_in_file>\n";
    let mut ws = fed(empty, true);
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    assert_eq!(
        notice(&ws),
        "nothing written: a.py has no complete block yet: nothing to accept"
    );

    // A failing call: its error's last line.
    let mut ws = fed(&call("a.py", "y = 5", "y = 3"), true);
    assert_eq!(key(&mut ws, 'a'), Effect::None);
    let said = notice(&ws);
    assert!(
        said.starts_with("nothing written: a.py has a failing block: "),
        "{said}"
    );
}

/// The bundled demo (finding 21): call 3 edits what call 1 wrote in
/// `inventory.py`, so the tab shows srview's combined change. Each of its
/// blocks says which calls' blocks it is made of: the one holding call 1's
/// line-trimmed block is marked `T line-trimmed` (not `E exact`), the one
/// made of two calls' blocks says `combined`, and lines are cited in the
/// calls' own diffs, which `v` shows (not srview's blocks).
#[test]
fn a_combined_change_names_the_calls_blocks_it_is_made_of() {
    use srview::engine::Stage;
    let text = include_str!("../../assets/demo/transcript.md");
    let load = |path: &str| -> Result<Option<String>, String> {
        Ok(match path {
            "inventory.py" => Some(include_str!("../../assets/demo/inventory.py").to_string()),
            "settings.toml" => Some(include_str!("../../assets/demo/settings.toml").to_string()),
            _ => None,
        })
    };
    let calls = transcript::parse_any(text);
    let edits = transcript::apply_calls(&calls, load, ApplyOptions::default());
    let mut ws = Workspace::new(Version::V1, false);
    ws.update(&calls, edits, text.len(), true);
    let tab = ws
        .tabs()
        .iter()
        .position(|t| t.path() == "inventory.py")
        .expect("inventory.py's tab");
    let app = ws.tabs()[tab].app();
    assert_eq!(
        ws.current_app().map(|a| a.file_path().clone()),
        Some(app.file_path().clone()),
        "the tab of the last call is shown"
    );
    assert!(
        !app.diff().contains("def ship"),
        "srview's blocks: {}",
        app.diff()
    );
    // Per row: its stage, and (call, block, lines in `v`) of each call block.
    type Row = (Option<Stage>, Vec<(usize, usize, [usize; 2])>);
    let rows: Vec<Row> = app
        .combined_rows()
        .iter()
        .map(|r| {
            let from = r.from.iter().map(|b| (b.call, b.block, b.lines)).collect();
            (r.stage(), from)
        })
        .collect();
    assert_eq!(
        rows,
        [
            (Some(Stage::Exact), vec![(0, 0, [1, 8])]),
            (Some(Stage::LineTrimmed), vec![(0, 1, [9, 21])]),
            (None, vec![(0, 2, [22, 31]), (1, 0, [32, 40])]),
        ]
    );
    // `v` shows what the model sent: the 2-space `def ship` of call 1.
    assert!(
        app.raw_text().contains("\n  def ship(self"),
        "{}",
        app.raw_text()
    );
    assert_eq!(app.raw_text().lines().count(), 40);
    assert_eq!(
        app.raw_title().as_deref(),
        Some("the 2 calls' diffs as received (call 2 from line 32)")
    );

    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let screen = ws_screen(&mut ws);
    assert_contains(
        &flat(&screen),
        "#3 srview's block combining call 1's block #3 (exact, lines 22-31 of v) and call 2's \
         block #1 (exact, lines 32-40 of v)",
    );
    key(&mut ws, 'N');
    let screen = ws_screen(&mut ws);
    assert!(
        screen.contains("#1  applied    E exact        11-12"),
        "{screen}"
    );
    assert!(
        screen.contains("#2  applied    T line-trimmed 30-32"),
        "{screen}"
    );
    assert!(
        screen.contains("#3  applied    C combined     39-44"),
        "{screen}"
    );
    assert_contains(
        &flat(&screen),
        "#2 shows call 1's block #2 (matched only after trimming white space on each line; \
         lines 9-21 of v), placed by srview over the file as it was",
    );
    assert!(!screen.contains("diff lines"), "{screen}");
    key(&mut ws, 'v');
    let screen = ws_screen(&mut ws);
    assert_contains(
        &screen,
        " the 2 calls' diffs as received (call 2 from line 32): 40 lines",
    );
    assert!(!screen.contains("the edit as received"), "{screen}");
}
