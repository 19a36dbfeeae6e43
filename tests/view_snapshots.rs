//! Rendered frames of the previewer (ratatui TestBackend), as snapshots.

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use srview::app::App;
use srview::engine::Version;
use srview::view::highlight::Syntaxes;
use srview::view::theme::{ColourMode, Theme};
use srview::view::{self, Caches};

const ORIGINAL: &str = "\
import os


def load(path):
    with open(path) as f:
        return f.read()


def save(path, text):
    with open(path, \"w\") as f:
        f.write(text)


class Store:
    def __init__(self, root):
        self.root = root
        self.items = {}

    def get(self, key):
        return self.items.get(key)

    def put(self, key, value):
        self.items[key] = value
        return value
";

/// Block 1 exact, 2 line-trimmed (indentation lost), 3 block-anchor (middle
/// differs), 4 whole-file (it lies before block 3: out of order).
const DIFF: &str = "\
------- SEARCH
def load(path):
    with open(path) as f:
=======
def load(path, encoding=\"utf-8\"):
    with open(path, encoding=encoding) as f:
+++++++ REPLACE
------- SEARCH
def save(path, text):
with open(path, \"w\") as f:
=======
def save(path, text):
    with open(path, \"w\", encoding=\"utf-8\") as f:
+++++++ REPLACE
------- SEARCH
    def get(self, key):
        return self.items[key]

    def put(self, key, value):
=======
    def get(self, key, default=None):
        return self.items.get(key, default)

    def put(self, key, value):
+++++++ REPLACE
------- SEARCH
class Store:
=======
class Store(object):
+++++++ REPLACE
";

fn app(diff: &str, final_mode: bool) -> App {
    let mut app = App::new(PathBuf::from("store.py"), ORIGINAL.to_string(), Version::V1);
    app.set_diff(diff.to_string());
    if final_mode {
        app.end_stream();
    }
    app
}

fn frame(app: &mut App, w: u16, h: u16, mode: ColourMode) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(w, h)).unwrap();
    app.view.width = w;
    app.view.viewport = view::diff_rows(app, h) as usize;
    if app.view.follow {
        app.follow_active();
    }
    let mut caches = Caches::new(Syntaxes::load(), app);
    let theme = Theme::new(mode);
    terminal
        .draw(|f| view::render(f, app, &mut caches, &theme))
        .unwrap();
    terminal
}

fn text(t: &Terminal<TestBackend>) -> String {
    let buf = t.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn block_mid_stream() {
    let cut = DIFF.find("with open(path, encoding").unwrap() + 10;
    let mut app = app(&DIFF[..cut], false);
    let t = frame(&mut app, 120, 30, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(screen.contains("streaming"), "{screen}");
    assert!(
        screen.contains("▸"),
        "the streamed line is marked:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn blocks_applied_at_each_stage() {
    let mut app = app(DIFF, true);
    let t = frame(&mut app, 120, 40, ColourMode::TrueColor);
    let screen = text(&t);
    for word in [
        "exact",
        "line-trimmed",
        "block-anchor",
        "whole-file",
        "out of order",
    ] {
        assert!(screen.contains(word), "missing {word}:\n{screen}");
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn stage_colours_differ() {
    let mut app = app(DIFF, true);
    let t = frame(&mut app, 120, 40, ColourMode::TrueColor);
    let buf = t.backend().buffer();
    let bg_of = |needle: &str| {
        let y = (0..buf.area.height)
            .find(|&y| {
                (0..buf.area.width)
                    .map(|x| buf[(x, y)].symbol().to_string())
                    .collect::<String>()
                    .contains(needle)
            })
            .unwrap_or_else(|| panic!("{needle} not on screen"));
        buf[(6, y)].bg
    };
    let exact = bg_of("def load(path):");
    let trimmed = bg_of("def save(path, text):");
    assert_ne!(exact, trimmed);
    assert_ne!(exact, ratatui::style::Color::Reset);
}

#[test]
fn failing_block() {
    let diff = "------- SEARCH\ndef nowhere():\n    pass\n=======\ndef somewhere():\n    pass\n+++++++ REPLACE\n";
    let mut app = app(diff, true);
    app.diagnose();
    let t = frame(&mut app, 100, 24, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(screen.contains("failed"), "{screen}");
    assert!(
        screen.contains("[edited]") || screen.contains("[not-found]"),
        "diagnosis shown:\n{screen}"
    );
    assert!(
        screen.contains("does not match anything in the file"),
        "{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn unified_view_on_narrow_terminal() {
    let mut app = app(DIFF, true);
    app.view.follow = false;
    app.view.scroll = 0;
    let t = frame(&mut app, 80, 30, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(screen.contains("[unified"), "{screen}");
    assert!(screen.contains("4-E def load(path):"), "{screen}");
    assert!(screen.contains("4+E def load(path, encoding"), "{screen}");
    insta::assert_snapshot!(screen);
}

#[test]
fn tiny_terminal_40x10() {
    let mut app = app(DIFF, true);
    let t = frame(&mut app, 40, 10, ColourMode::TrueColor);
    insta::assert_snapshot!(text(&t));
}

#[test]
fn no_color_keeps_stage_symbols() {
    let mut app = app(DIFF, true);
    let t = frame(&mut app, 120, 40, ColourMode::None);
    let buf = t.backend().buffer();
    let colours: Vec<_> = buf
        .content()
        .iter()
        .filter(|c| c.bg != ratatui::style::Color::Reset || c.fg != ratatui::style::Color::Reset)
        .collect();
    assert!(
        colours.is_empty(),
        "NO_COLOR frame has {} coloured cells",
        colours.len()
    );
    let screen = text(&t);
    for sym in [" E ", " T ", " A ", " O "] {
        assert!(
            screen.contains(sym),
            "stage symbol {sym:?} missing:\n{screen}"
        );
    }
    insta::assert_snapshot!(screen);
}

#[test]
fn huge_and_tiny_sizes_do_not_panic() {
    let mut app = app(DIFF, false);
    for (w, h) in [(1, 1), (2, 2), (300, 100), (10, 3), (0, 0)] {
        let _ = frame(&mut app, w, h, ColourMode::Ansi256);
    }
}

#[test]
fn escape_sequences_in_content_are_inert() {
    let original = "ok\nbad \u{1b}[2J\u{1b}]52;c;AAAA\u{7} line\n";
    let mut app = App::new(PathBuf::from("x.txt"), original.to_string(), Version::V1);
    app.set_diff("------- SEARCH\nok\n=======\nfine \u{1b}[31m\n+++++++ REPLACE\n".into());
    let t = frame(&mut app, 100, 20, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(!screen.contains('\u{1b}'), "raw ESC reached the screen");
    assert!(screen.contains("␛[2J"), "{screen}");
}

/// Accepting mid-stream a diff whose last block is out of order: the
/// panes switch to the final result, and the bars say how to write it.
#[test]
fn final_preview_before_accepting() {
    let mut app = app(DIFF, false);
    assert!(app.outcome.blocks.iter().any(|b| b.out_of_order));
    let effect = srview::app::keys::on_key(
        &mut app,
        ratatui_crossterm::crossterm::event::KeyEvent::new(
            ratatui_crossterm::crossterm::event::KeyCode::Char('a'),
            ratatui_crossterm::crossterm::event::KeyModifiers::NONE,
        ),
    );
    assert_eq!(effect, srview::app::Effect::None);
    app.view.follow = false;
    app.scroll_to(0);
    let t = frame(&mut app, 120, 30, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(screen.contains("final preview"), "{screen}");
    assert!(screen.contains("class Store(object):"), "{screen}");
    assert!(screen.contains("a write this final result"), "{screen}");
    insta::assert_snapshot!(screen);
}

/// Lines the stream has not reached are numbered on the right where they
/// land after the result so far, so the right pane's numbers keep rising
/// after a block that added lines.
#[test]
fn pending_lines_continue_the_result_numbering() {
    let diff = "------- SEARCH\nimport os\n=======\nimport os\nimport sys\nimport json\n+++++++ REPLACE\n------- SEARCH\nclass Sto";
    let mut app = app(diff, false);
    let t = frame(&mut app, 120, 30, ColourMode::TrueColor);
    let screen = text(&t);
    let right: Vec<usize> = screen
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once('│'))
        .filter_map(|(_, r)| r.split_whitespace().next()?.parse().ok())
        .collect();
    assert!(right.len() > 10, "{screen}");
    assert!(
        right.windows(2).all(|w| w[1] == w[0] + 1),
        "right-pane numbers rise one by one: {right:?}\n{screen}"
    );
    assert!(
        screen.contains(" 4 ·"),
        "original line 2 is pending as line 4:\n{screen}"
    );
}

/// A 9-line file whose first line becomes three: the pending lines run to
/// 11, and the gutter widens for them instead of shifting the text.
#[test]
fn gutter_fits_the_numbers_of_pending_lines() {
    let original: String = (1..=9).map(|i| format!("l{i}\n")).collect();
    let mut app = App::new(PathBuf::from("f.txt"), original, Version::V1);
    app.set_diff(
        "------- SEARCH\nl1\n=======\na\nb\nc\n+++++++ REPLACE\n------- SEARCH\nl9".into(),
    );
    let t = frame(&mut app, 120, 20, ColourMode::TrueColor);
    let screen = text(&t);
    assert!(screen.contains("│11 · l9"), "{screen}");
    assert!(screen.contains("│ 4 · l2"), "{screen}");
}

/// The closest-region mark (≈) is for a block that found no place: a block
/// that applied through a fallback keeps its stage symbol on its lines.
#[test]
fn applied_fallback_block_keeps_its_stage_mark() {
    let mut app = app(DIFF, true);
    app.diagnose();
    app.select_block(1);
    let d = app.selected_diagnosis().expect("a diagnosis");
    assert!(d.is_problem() && d.closest.is_some(), "{d:?}");
    let t = frame(&mut app, 120, 40, ColourMode::None);
    let screen = text(&t);
    let save = screen
        .lines()
        .find(|l| l.contains("def save(path, text):"))
        .expect("block 2 on screen");
    assert!(save.contains(" T def save"), "{save}");
    assert!(!screen.contains('≈'), "{screen}");

    // A failing block still gets it.
    let diff = "------- SEARCH\ndef sav(path, text):\n    with open(path, \"w\") as f:\n=======\nx\n+++++++ REPLACE\n";
    let mut app = self::app(diff, true);
    app.diagnose();
    let screen = text(&frame(&mut app, 120, 40, ColourMode::None));
    assert!(screen.contains("≈ def save"), "{screen}");
}
