//! Rendered frames of the previewer (ratatui TestBackend), as snapshots.

use std::path::PathBuf;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui_crossterm::crossterm::event::KeyCode;
use srview::engine::Version;
use srview::tui::app::App;
use srview::tui::view::highlight::Syntaxes;
use srview::tui::view::theme::{ColourMode, Theme};
use srview::tui::view::{self, Caches};

use super::app_with_diff;
use super::support;
use support::diff::block;

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
    app.fit(ratatui::layout::Rect::new(0, 0, w, h));
    if app.view().follow {
        app.follow_active();
    }
    let mut caches = Caches::new(Syntaxes::load(), app);
    let theme = Theme::new(mode);
    terminal
        .draw(|f| view::render(f, app, &mut caches, &theme))
        .unwrap();
    terminal
}

/// `screen` contains each of `needles` (the screen is printed when not).
fn assert_shows(screen: &str, needles: &[&str]) {
    for needle in needles {
        assert!(screen.contains(needle), "{screen}");
    }
}

/// The text of one frame drawn at `w`x`h`.
fn screen_of(app: &mut App, w: u16, h: u16, mode: ColourMode) -> String {
    text(&frame(app, w, h, mode))
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
    let screen = screen_of(&mut app, 120, 30, ColourMode::TrueColor);
    assert_shows(&screen, &["streaming"]);
    assert!(
        screen.contains("▸"),
        "the streamed line is marked:\n{screen}"
    );
    insta::assert_snapshot!(screen);
}

#[test]
fn blocks_applied_at_each_stage() {
    let mut app = app(DIFF, true);
    let screen = screen_of(&mut app, 120, 40, ColourMode::TrueColor);
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
    let diff = block("def nowhere():\n    pass", "def somewhere():\n    pass");
    let mut app = app(&diff, true);
    app.diagnose();
    let screen = screen_of(&mut app, 100, 24, ColourMode::TrueColor);
    assert_shows(&screen, &["failed"]);
    assert!(
        screen.contains("[edited]") || screen.contains("[not-found]"),
        "diagnosis shown:\n{screen}"
    );
    assert_shows(&screen, &["does not match anything in the file"]);
    insta::assert_snapshot!(screen);
}

#[test]
fn unified_view_on_narrow_terminal() {
    let mut app = app(DIFF, true);
    app.stop_following();
    app.scroll_to(0);
    let screen = screen_of(&mut app, 80, 30, ColourMode::TrueColor);
    assert_shows(
        &screen,
        &[
            "[unified",
            "4-E def load(path):",
            "4+E def load(path, encoding",
        ],
    );
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
    app.set_diff(block("ok", "fine \u{1b}[31m"));
    let screen = screen_of(&mut app, 100, 20, ColourMode::TrueColor);
    assert!(!screen.contains('\u{1b}'), "raw ESC reached the screen");
    assert_shows(&screen, &["␛[2J"]);
}

/// Bidirectional controls and zero-width characters an edit adds are
/// drawn as stand-ins in the result pane and in `v` (a tester's find: they
/// were dropped, and the "Trojan Source" line read as a harmless string).
#[test]
fn bidi_controls_and_zero_width_characters_are_drawn() {
    let original = "def is_admin(user):\n    access = \"user\"\n    return access\n";
    let mut app = App::new(PathBuf::from("a.py"), original.to_string(), Version::V1);
    app.set_diff(block(
        "    access = \"user\"",
        "    access = \"user\u{202e} \u{2066}// admin\u{2069}\"\n    return is_\u{200b}admin",
    ));
    app.end_stream();
    let screen = screen_of(&mut app, 120, 20, ColourMode::TrueColor);
    assert_shows(
        &screen,
        &[
            "access = \"user⟨U+202E⟩ ⟨U+2066⟩// admin⟨U+2069⟩\"",
            "return is_⟨U+200B⟩admin",
        ],
    );
    srview::tui::app::keys::on_key(&mut app, plain_key(KeyCode::Char('v')));
    let screen = screen_of(&mut app, 120, 20, ColourMode::TrueColor);
    assert_shows(
        &screen,
        &["4     access = \"user⟨U+202E⟩ ⟨U+2066⟩// admin⟨U+2069⟩\""],
    );
}

/// Accepting mid-stream a diff whose last block is out of order: the
/// panes switch to the final result, and the bars say how to write it.
#[test]
fn final_preview_before_accepting() {
    let mut app = app(DIFF, false);
    assert!(app.outcome().blocks.iter().any(|b| b.out_of_order));
    let effect = srview::tui::app::keys::on_key(
        &mut app,
        ratatui_crossterm::crossterm::event::KeyEvent::new(
            ratatui_crossterm::crossterm::event::KeyCode::Char('a'),
            ratatui_crossterm::crossterm::event::KeyModifiers::NONE,
        ),
    );
    assert_eq!(effect, srview::tui::app::Effect::None);
    app.stop_following();
    app.scroll_to(0);
    let screen = screen_of(&mut app, 120, 30, ColourMode::TrueColor);
    assert_shows(
        &screen,
        &[
            "final preview",
            "class Store(object):",
            "a write this final result",
        ],
    );
    insta::assert_snapshot!(screen);
}

/// Lines the stream has not reached are numbered on the right where they
/// land after the result so far, so the right pane's numbers keep rising
/// after a block that added lines.
#[test]
fn pending_lines_continue_the_result_numbering() {
    let diff = "------- SEARCH\nimport os\n=======\nimport os\nimport sys\nimport json\n+++++++ REPLACE\n------- SEARCH\nclass Sto";
    let mut app = app(diff, false);
    let screen = screen_of(&mut app, 120, 30, ColourMode::TrueColor);
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
    let screen = screen_of(&mut app, 120, 20, ColourMode::TrueColor);
    assert_shows(&screen, &["│11 · l9", "│ 4 · l2"]);
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
    let screen = screen_of(&mut app, 120, 40, ColourMode::None);
    let save = screen
        .lines()
        .find(|l| l.contains("def save(path, text):"))
        .expect("block 2 on screen");
    assert!(save.contains(" T def save"), "{save}");
    assert!(!screen.contains('≈'), "{screen}");

    // A failing block still gets it.
    let diff = block(
        "def sav(path, text):\n    with open(path, \"w\") as f:",
        "x",
    );
    let mut app = self::app(&diff, true);
    app.diagnose();
    let screen = text(&frame(&mut app, 120, 40, ColourMode::None));
    assert_shows(&screen, &["≈ def save"]);
}

/// A block whose SEARCH text has a typo on its second line (`ky`).
const TYPO_DIFF: &str = "\
------- SEARCH
    def get(self, key):
        return self.items.get(ky)
=======
    def get(self, key, default=None):
        return self.items.get(key, default)
+++++++ REPLACE
";

fn diagnosed(diff: &str) -> App {
    let mut app = app(diff, true);
    app.diagnose();
    app
}

fn rows_of(screen: &str) -> Vec<&str> {
    screen.lines().collect()
}

/// Rows of the blocks pane: from its title to the row above the footer.
fn blocks_pane_rows(screen: &str) -> usize {
    let rows = rows_of(screen);
    let title = rows
        .iter()
        .position(|r| r.starts_with(" blocks ("))
        .unwrap_or_else(|| panic!("no blocks pane:\n{screen}"));
    // The notice row and the footer follow the pane.
    rows.len() - 2 - title
}

/// The selected failing block's detail shows the SEARCH text against the
/// file, as `check` prints it, and the keys that act on it, at every size
/// (the frames are the `failing_block_WxH` snapshots).
#[test]
fn failing_block_shows_search_against_the_file() {
    for (w, h) in [(80, 24), (160, 45), (250, 70)] {
        let mut app = diagnosed(TYPO_DIFF);
        let d = app.selected_diagnosis().expect("diagnosed").clone();
        assert!(d.closest.is_some() && d.suggestion.is_some(), "{d:?}");
        let screen = text(&frame(&mut app, w, h, ColourMode::TrueColor));
        assert!(
            screen.contains("-         return self.items.get(ky)"),
            "{w}x{h}: SEARCH line shown:\n{screen}"
        );
        assert!(
            screen.contains("+         return self.items.get(key)"),
            "{w}x{h}: file line shown:\n{screen}"
        );
        assert!(
            screen.contains("d: jump there · c: copy corrected block"),
            "{w}x{h}: hint shown:\n{screen}"
        );
    }
}

/// The blocks pane grows with the terminal: at 250x70 it holds every
/// block and each one's detail, not 5 rows.
#[test]
fn blocks_pane_grows_with_the_terminal() {
    let mut app = diagnosed(TYPO_DIFF);
    let small = blocks_pane_rows(&text(&frame(&mut app, 80, 24, ColourMode::None)));
    let mut app = diagnosed(TYPO_DIFF);
    let big = text(&frame(&mut app, 250, 70, ColourMode::None));
    let rows = blocks_pane_rows(&big);
    assert!(rows > 5, "{rows} rows at 250x70:\n{big}");
    assert!(rows >= small, "{rows} at 250x70, {small} at 80x24");
    assert!(
        rows <= 70 / 3 + 1,
        "no more than a third of the height: {rows}"
    );
}

/// A diagnosis that wraps over many rows gives way; the keys' hint stays.
#[test]
fn hint_line_survives_a_wrapping_diagnosis() {
    let mut app = diagnosed(TYPO_DIFF);
    let screen = text(&frame(&mut app, 44, 16, ColourMode::None));
    assert_shows(&screen, &["d: jump there", "c: copy corrected", "? help"]);
}

/// A long refusal notice wraps: every word of it is on screen.
#[test]
fn refusal_notice_is_never_cut() {
    let mut app = diagnosed(TYPO_DIFF);
    let text_of_notice = "not accepted: block #1 does not apply (SEARCH text does not match \
        anything in the file): the closest region of the file has different content";
    app.set_notice(Some(srview::tui::app::Notice {
        text: text_of_notice.into(),
        error: true,
    }));
    for (w, h) in [(80, 24), (40, 10)] {
        let screen = text(&frame(&mut app, w, h, ColourMode::None));
        let joined: String = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            joined.contains(text_of_notice),
            "{w}x{h}: notice cut:\n{screen}"
        );
        assert!(screen.contains("? help"), "{w}x{h}:\n{screen}");
    }
}

/// The status bar's parts at `w` columns, each whole: every part is one
/// of the parts shown on a wide terminal (the file name may lose its
/// start to `…`).
fn assert_status_parts_whole(app: &mut App, w: u16, h: u16) {
    app.fit(ratatui::layout::Rect::new(0, 0, w, h));
    app.pin_layout(Some(app.layout()));
    let wide = text(&frame(app, 300, h, ColourMode::None));
    let wide_status = format!("{} ", wide.lines().next().unwrap_or_default());
    let narrow = text(&frame(app, w, h, ColourMode::None));
    let status = narrow.lines().next().unwrap_or_default();
    for part in status.split("  ").map(str::trim).filter(|p| !p.is_empty()) {
        let whole = wide_status.contains(&format!(" {part} "))
            || part
                .strip_prefix('…')
                .is_some_and(|tail| wide_status.contains(&format!("{tail} ")));
        assert!(
            whole,
            "{w}x{h}: status part {part:?} is a fragment of {wide_status:?}"
        );
    }
}

/// Small terminals: the footer keeps `? help`, the failure stays visible
/// in a one-row blocks pane, and the status bar drops whole parts.
#[test]
fn small_terminals_keep_help_and_the_failure() {
    for (w, h) in [(80, 24), (40, 10), (160, 45), (250, 70)] {
        let mut app = diagnosed(TYPO_DIFF);
        let screen = text(&frame(&mut app, w, h, ColourMode::None));
        let footer = screen.lines().last().unwrap_or_default();
        assert!(footer.ends_with("? help"), "{w}x{h}: {footer:?}");
        assert!(
            screen.contains("#1  failed"),
            "{w}x{h}: the failing block is listed:\n{screen}"
        );
        assert!(screen.contains("1 failed"), "{w}x{h}:\n{screen}");
        assert_status_parts_whole(&mut app, w, h);
        insta::assert_snapshot!(format!("failing_block_{w}x{h}"), screen);
    }
    // A long path is shortened from its start, never cut at its end.
    let mut app = App::new(
        PathBuf::from("src/some/deeply/nested/folder/store.py"),
        ORIGINAL.to_string(),
        Version::V1,
    );
    app.set_diff(TYPO_DIFF.into());
    app.end_stream();
    let screen = text(&frame(&mut app, 40, 10, ColourMode::None));
    let status = screen.lines().next().unwrap_or_default();
    assert!(status.contains("store.py"), "{status:?}");
    assert_status_parts_whole(&mut app, 40, 10);
    assert_status_parts_whole(&mut app, 60, 10);
}

/// The footer names the layout `u` switches to.
#[test]
fn footer_names_the_layout_u_switches_to() {
    let mut app = app(DIFF, true);
    let split = text(&frame(&mut app, 120, 30, ColourMode::None));
    assert!(split.contains("[split"), "{split}");
    assert!(split.contains(" u unified "), "{split}");
    let unified = text(&frame(&mut app, 90, 30, ColourMode::None));
    assert!(unified.contains("[unified"), "{unified}");
    assert!(unified.contains(" u split "), "{unified}");
    assert!(!unified.contains(" u unified "), "{unified}");
}

/// A line wider than its pane ends in `…`; `l` shows its next columns,
/// and the status bar says which column the panes start at.
#[test]
fn long_lines_end_in_an_ellipsis_and_scroll_sideways() {
    let original = format!("short\n{}END\nlast\n", "abcdefghij".repeat(12));
    let mut app = app_with_diff("f.txt", &original, &block("last", "LAST"));
    app.stop_following();
    app.scroll_to(0);
    let screen = text(&frame(&mut app, 100, 12, ColourMode::None));
    let long_row = screen
        .lines()
        .find(|l| l.contains("abcdefghij"))
        .expect("long line on screen");
    let (left, right) = long_row.split_once('│').expect("split view");
    assert!(left.trim_end().ends_with('…'), "{long_row:?}");
    assert!(right.trim_end().ends_with('…'), "{long_row:?}");
    assert!(!screen.contains("END"), "{screen}");
    assert!(!screen.contains("col "), "no column shown at the start");
    insta::assert_snapshot!("long_line_cut", screen);
    for _ in 0..20 {
        srview::tui::app::keys::on_key(
            &mut app,
            ratatui_crossterm::crossterm::event::KeyEvent::new(
                ratatui_crossterm::crossterm::event::KeyCode::Char('l'),
                ratatui_crossterm::crossterm::event::KeyModifiers::NONE,
            ),
        );
    }
    let screen = text(&frame(&mut app, 100, 12, ColourMode::None));
    assert!(screen.contains("END"), "scrolled to the end:\n{screen}");
    let col = app.view().hscroll + 1;
    assert!(
        screen
            .lines()
            .next()
            .unwrap_or_default()
            .contains(&format!("col {col}")),
        "{screen}"
    );
    insta::assert_snapshot!("long_line_scrolled", screen);
}

/// A changed row whose first change lies past the pane's right edge
/// (finding 14: `"k250": 250` → `999` at column 3040 of a 3.6 KB JSON
/// line) says where it is, `…▸col 3040`, on both rows, unified and split;
/// scrolled sideways to the change, the marker goes and the change shows.
#[test]
fn a_change_past_the_right_edge_says_its_column() {
    let (line, diff) = support::diff::long_json_line_and_change();
    let col = line.find("\"k250\": 250").expect("k250") + "\"k250\": ".len() + 1;
    assert_eq!(col, 3040);
    let mut app = app_with_diff("big.json", &format!("{line}\n"), &diff);
    let marker = format!("…▸col {col}");
    let unified = screen_of(&mut app, 80, 24, ColourMode::None);
    let rows: Vec<&str> = unified.lines().filter(|l| l.contains("k0")).collect();
    assert_eq!(rows.len(), 2, "{unified}");
    for row in &rows {
        assert!(row.ends_with(&marker), "{unified}");
        assert_eq!(unicode_width::UnicodeWidthStr::width(*row), 80, "{row:?}");
    }
    insta::assert_snapshot!("change_past_the_right_edge_80x24", unified);
    let split = screen_of(&mut app, 120, 24, ColourMode::None);
    let row = split
        .lines()
        .find(|l| l.contains("k0"))
        .expect("the changed row");
    let (left, right) = row.split_once('│').expect("split view");
    assert!(left.ends_with(&marker), "{split}");
    assert!(right.ends_with(&marker), "{split}");
    // Scrolled to the change: no marker, the change itself.
    while app.view().hscroll + 40 < col {
        srview::tui::app::keys::on_key(
            &mut app,
            ratatui_crossterm::crossterm::event::KeyEvent::new(
                KeyCode::Char('l'),
                ratatui_crossterm::crossterm::event::KeyModifiers::NONE,
            ),
        );
    }
    let there = screen_of(&mut app, 80, 24, ColourMode::None);
    assert!(!there.contains("▸col"), "{there}");
    assert!(there.contains("\"k250\": 999"), "{there}");
    // A change within the width has no marker.
    let mut short = app_with_diff("f.json", "{\"a\": 1}\n", &block("{\"a\": 1}", "{\"a\": 2}"));
    let screen = screen_of(&mut short, 80, 24, ColourMode::None);
    assert!(!screen.contains("▸col"), "{screen}");
    // A change deep inside one long token (minified code, a base64 string):
    // the column of its first differing character, not the token's start
    // (a tester's find: the token starts on screen, and the two rows said
    // nothing).
    let token = format!("    s = '{}X'", "a".repeat(3000));
    let changed = token.replace("X'", "Y'");
    let mut long = app_with_diff(
        "a.py",
        &format!("def g():\n{token}\n"),
        &block(&token, &changed),
    );
    let screen = screen_of(&mut long, 80, 24, ColourMode::None);
    assert_eq!(screen.matches("…▸col 3010").count(), 2, "{screen}");
}

/// Every cell of a matched row, to the pane's edge, has its stage's tint
/// (as delta tints a whole row), on 24-bit and 256-colour terminals.
#[test]
fn tint_covers_the_whole_row() {
    use srview::engine::Stage;
    use srview::tui::view::theme::Tint;
    for mode in [ColourMode::TrueColor, ColourMode::Ansi256] {
        let mut app = app(DIFF, true);
        app.stop_following();
        app.scroll_to(0);
        let t = frame(&mut app, 120, 40, mode);
        let buf = t.backend().buffer();
        let theme = Theme::new(mode);
        let row_of = |needle: &str| {
            (0..buf.area.height)
                .find(|&y| {
                    (0..buf.area.width)
                        .map(|x| buf[(x, y)].symbol().to_string())
                        .collect::<String>()
                        .contains(needle)
                })
                .unwrap_or_else(|| panic!("{needle} not on screen"))
        };
        for (needle, stage) in [
            ("def load(path):", Stage::Exact),
            ("def save(path, text):", Stage::LineTrimmed),
        ] {
            let y = row_of(needle);
            let tint = theme.change(Tint::Stage(stage)).bg;
            let word = theme.word(Tint::Stage(stage)).bg;
            assert!(tint.is_some());
            // Left pane: after the line number (3 digits wide: " 12"),
            // to the middle; right pane: after its gutter, to the edge.
            let half = buf.area.width / 2;
            let digits = 2;
            let left = (1 + digits)..half;
            let right = (half + 1 + digits)..buf.area.width;
            for x in left.chain(right) {
                let bg = Some(buf[(x, y)].bg);
                assert!(
                    bg == tint || bg == word,
                    "{mode:?}: cell {x} of the {needle:?} row: {bg:?}, tint {tint:?}"
                );
            }
            // The rows' ends: no changed word there, the tint itself.
            assert_eq!(Some(buf[(half - 1, y)].bg), tint);
            assert_eq!(Some(buf[(buf.area.width - 1, y)].bg), tint);
        }
    }
}

/// On a low terminal the `?` overlay shows a window of the keys, says
/// which, and scrolled to its end shows the last ones.
#[test]
fn help_overlay_scrolls_on_a_low_terminal() {
    use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let mut app = app(DIFF, true);
    app.fit(ratatui::layout::Rect::new(0, 0, 60, 12));
    let press = |app: &mut App, code| {
        srview::tui::app::keys::on_key(app, KeyEvent::new(code, KeyModifiers::NONE))
    };
    press(&mut app, KeyCode::Char('?'));
    let top = text(&frame(&mut app, 60, 12, ColourMode::None));
    assert!(top.contains("keys 1-10 of 30 (j/k scroll)"), "{top}");
    assert!(top.contains("scroll") && !top.contains("stages:"), "{top}");
    for _ in 0..5 {
        press(&mut app, KeyCode::PageDown);
    }
    let bottom = text(&frame(&mut app, 60, 12, ColourMode::None));
    assert!(bottom.contains("O out of order"), "{bottom}");
    assert!(
        bottom.contains("≈ closest region of a failed block"),
        "the legend explains ≈: {bottom}"
    );
    assert!(bottom.contains("quit"), "{bottom}");
    insta::assert_snapshot!("help_scrolled_to_the_end_60x12", bottom);
}

/// A huge failing block: its detail builds a bounded number of rows, so a
/// frame costs the same whatever the block's size.
#[test]
fn a_huge_failing_block_has_a_bounded_detail() {
    let original: String = (0..1000)
        .map(|i| format!("line {i} of the file\n"))
        .collect();
    let search = original
        .replacen("line 0 of", "line 0 off", 1)
        .replace("line 500 of", "line 500 off");
    let diff = support::diff::block_of_lines(&search, "x\n");
    let mut app = app_with_diff("big.txt", &original, &diff);
    app.diagnose();
    let d = app.selected_diagnosis().expect("diagnosed");
    assert!(
        d.line_diff.len() > 500,
        "{} lines of diff",
        d.line_diff.len()
    );
    let rows = srview::tui::view::panels::detail_rows(&app, 120);
    assert!(rows < 240, "{rows} rows of detail");
    let screen = text(&frame(&mut app, 120, 40, ColourMode::TrueColor));
    assert_shows(&screen, &["? help", "#1  failed"]);
}

/// An applied block the block-anchor fallback put where its SEARCH text does
/// not fit (or where other places fit as well) is flagged in the block
/// list, in the bad colour: `! wrong place?`, `! guess`.
#[test]
fn a_doubtful_block_anchor_place_is_flagged_in_the_block_list() {
    let cases = [
        (
            "fn a() {\n    one();\n}\n\nfn b() {\n    two_and_a_long_call(with, many, args);\n}\n",
            block(
                "fn a() {\n    two_and_a_long_call(with, many, args);\n}",
                "fn a() {\n    three();\n}",
            ),
            "! wrong place?",
        ),
        (
            "impl A {\n    let total = compute(1);\n}\n\nimpl A {\n    let total = compute(2);\n}\n",
            block(
                "impl A {\n    let total = compute(X);\n}",
                "impl A {\n    let total = 0;\n}",
            ),
            "! guess",
        ),
    ];
    for (file, diff, flag) in cases {
        let mut app = app_with_diff("f.rs", file, &diff);
        app.diagnose();
        let t = frame(&mut app, 120, 30, ColourMode::TrueColor);
        let screen = text(&t);
        let (y, row) = screen_row(&screen, "the block row", |l| l.starts_with("#1 "));
        assert!(row.contains(&format!("applied    {flag} ")), "{row}");
        assert!(row.contains("block-anchor"), "{row}");
        let x = row.find('!').expect("marker") as u16;
        let cell = &t.backend().buffer()[(x, y)];
        assert_eq!(
            cell.fg,
            ratatui::style::Color::Rgb(235, 100, 100),
            "bad colour"
        );
    }
}

/// A CRLF diff has no block the reference can read: the blocks pane says
/// why instead of waiting for one forever.
#[test]
fn a_crlf_diff_says_why_no_block_is_found() {
    let diff =
        "------- SEARCH\r\nclass Store:\r\n=======\r\nclass Store(object):\r\n+++++++ REPLACE\r\n";
    let mut a = app(diff, true);
    let screen = screen_of(&mut a, 160, 30, ColourMode::None);
    assert_shows(&screen, &["the diff has CRLF line endings"]);
    let mut a = app("", false);
    a.set_diff("Let me look at the file first.\n".to_string());
    let screen = screen_of(&mut a, 160, 30, ColourMode::None);
    assert_shows(&screen, &["no SEARCH/REPLACE block yet"]);
    // Once the diff has ended, none is coming.
    a.end_stream();
    let screen = screen_of(&mut a, 160, 30, ColourMode::None);
    assert_shows(&screen, &["no SEARCH/REPLACE block\n"]);
    assert!(!screen.contains("block yet"), "{screen}");
    // An edit the previewer's owner did not run (the agent previewer, the
    // content before unknown): its note says why, not "no block".
    let mut a = app("", true);
    a.note_state("the content before is not known".into());
    let screen = screen_of(&mut a, 160, 30, ColourMode::None);
    assert_shows(
        &screen,
        &[
            "not run here: why is below",
            "the content before is not known",
        ],
    );
}

/// A diff in another dialect that its reference refuses: the header says
/// refused, not how many blocks would apply.
#[test]
fn a_refused_diff_is_not_counted_applied() {
    let mut app = app(DIFF, true);
    let screen = screen_of(&mut app, 120, 30, ColourMode::TrueColor);
    assert_shows(&screen, &[" applied "]);
    app.set_refused_by_reference(true);
    let screen = screen_of(&mut app, 120, 30, ColourMode::TrueColor);
    let header = screen.lines().next().unwrap_or_default();
    assert!(
        header.contains(" refused ") && !header.contains("applied"),
        "{header}"
    );
}

/// `+` gives the diagnosis all its rows: at 80x24 the hint names the key
/// (it named none: "srview check shows all"), and once pressed no row is
/// left out; `+` again brings the third of the screen back.
#[test]
fn plus_expands_the_diagnosis_and_the_hint_names_it() {
    let mut app = diagnosed(TYPO_DIFF);
    app.pin_layout(Some(srview::tui::app::Layout::Unified));
    let screen = screen_of(&mut app, 80, 24, ColourMode::TrueColor);
    assert_shows(&screen, &["… 1 more row (+: show all)"]);
    srview::tui::app::keys::on_key(&mut app, plain_key(KeyCode::Char('+')));
    assert!(app.view().detail_expanded);
    let screen = screen_of(&mut app, 80, 24, ColourMode::TrueColor);
    assert!(!screen.contains("more row"), "{screen}");
    assert_shows(
        &screen,
        &[
            "-         return self.items.get(ky)",
            "+         return self.items.get(key)",
            "d: jump there · c: copy corrected block",
        ],
    );
}

/// `/` highlights every match in both panes (reversed, in every colour
/// mode) and the footer shows the query while it is typed.
#[test]
fn search_matches_are_highlighted_in_both_panes() {
    use ratatui::style::Modifier;
    let mut app = app(DIFF, true);
    // `/` and the query, being typed.
    for c in "/items".chars() {
        srview::tui::app::keys::on_key(&mut app, plain_key(KeyCode::Char(c)));
    }
    assert_eq!(
        app.view().search,
        Some(srview::tui::app::search::Search {
            query: "items".into(),
            typing: true,
            at: None,
        })
    );
    let t = frame(&mut app, 120, 40, ColourMode::None);
    let screen = text(&t);
    assert_shows(&screen, &["/items▏  Enter search · Esc cancel"]);
    let buf = t.backend().buffer();
    // Every cell of each "items" on screen is reversed, on both sides.
    let mut found = 0;
    // The panes' rows (the footer shows the query itself).
    for (y, row) in screen.lines().enumerate().filter(|(_, r)| r.contains('│')) {
        for (x, _) in row.match_indices("items") {
            let x = row[..x].chars().count() as u16;
            for dx in 0..5 {
                let cell = &buf[(x + dx, y as u16)];
                assert!(
                    cell.modifier.contains(Modifier::REVERSED),
                    "row {y} col {}: {screen}",
                    x + dx
                );
            }
            found += 1;
        }
    }
    // self.items = {} and the two uses, on each side.
    assert!(found >= 6, "{found} matches on screen:\n{screen}");
    // Without a search, nothing is reversed there.
    app.end_search();
    let t = frame(&mut app, 120, 40, ColourMode::None);
    let screen = text(&t);
    let (y, row) = screen_row(&screen, "self.items = {}", |r| {
        r.contains("self.items = {}")
    });
    let x = row[..row.find("items").unwrap_or(0)].chars().count() as u16;
    assert!(
        !t.backend().buffer()[(x, y)]
            .modifier
            .contains(Modifier::REVERSED)
    );
}

/// `v` draws the diff as received over the panes, numbered.
#[test]
fn v_draws_the_diff_as_received_over_the_panes() {
    let mut app = app(DIFF, true);
    app.set_raw_input(Some(
        "*** Begin Patch\n*** Update File: store.py\n@@\n-import os\n+import sys\n*** End Patch\n"
            .into(),
    ));
    srview::tui::app::keys::on_key(&mut app, plain_key(KeyCode::Char('v')));
    assert!(app.view().raw);
    let screen = screen_of(&mut app, 100, 30, ColourMode::TrueColor);
    assert_shows(
        &screen,
        &[
            " the edit as received: 6 lines (v or Esc closes · j/k scroll)",
            "1 *** Begin Patch",
            "4 -import os",
            "6 *** End Patch",
            // The footer offers only the keys that act over it.
            "v/Esc back to the panes",
        ],
    );
    assert!(!screen.contains("a accept"), "{screen}");
}

/// A CRLF file: no `␍` on every line (its own ending), a `␊` only on the
/// lines the edit gave an LF ending; an LF file's stray `\r` shows as `␍`.
#[test]
fn only_line_endings_that_differ_from_the_files_are_marked() {
    let mut app = app_with_diff(
        "f.txt",
        "alpha\r\nbeta\r\ngamma\r\n",
        &block("beta", "BETA"),
    );
    let screen = screen_of(&mut app, 100, 20, ColourMode::None);
    assert!(!screen.contains('␍'), "{screen}");
    assert_shows(&screen, &["1   alpha", "3   gamma", "BETA␊"]);
    assert_eq!(screen.matches('␊').count(), 1, "{screen}");

    let mut app = App::new(
        PathBuf::from("g.txt"),
        "one\ntwo\r\nthree\n".into(),
        Version::V1,
    );
    app.end_stream();
    let screen = screen_of(&mut app, 100, 20, ColourMode::None);
    assert_shows(&screen, &["two␍"]);
    assert!(
        !screen.contains("one␍") && !screen.contains('␊'),
        "{screen}"
    );
}

/// The first row of `screen` that `is` holds, with its number (the cell
/// row it is drawn on); `what` names it where there is none.
fn screen_row<'a>(screen: &'a str, what: &str, is: impl Fn(&str) -> bool) -> (u16, &'a str) {
    let (y, row) = screen
        .lines()
        .enumerate()
        .find(|(_, row)| is(row))
        .unwrap_or_else(|| panic!("no row shows {what}:\n{screen}"));
    (u16::try_from(y).expect("a screen row"), row)
}

/// A key pressed without modifiers.
fn plain_key(
    code: ratatui_crossterm::crossterm::event::KeyCode,
) -> ratatui_crossterm::crossterm::event::KeyEvent {
    use ratatui_crossterm::crossterm::event::{KeyEvent, KeyModifiers};
    KeyEvent::new(code, KeyModifiers::NONE)
}
