//! The alignment of original and result, over random diffs whose SEARCH
//! texts start anywhere (mid-line included), in or out of order, at every
//! byte of the stream and once final: segments tile both texts in order,
//! rows shown as unchanged are equal on both sides, and frames draw.

use std::path::PathBuf;

use proptest::prelude::*;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use srview::engine::Version;
use srview::tui::app::rows::SegKind;
use srview::tui::app::{App, Layout};
use srview::tui::view::highlight::Syntaxes;
use srview::tui::view::theme::{ColourMode, Theme};
use srview::tui::view::{self, Caches};

fn check(app: &App, when: &str) -> Result<(), String> {
    let segs = app.segments();
    let (mut o, mut n) = (0, 0);
    for s in segs {
        if s.orig.start != o || s.new.start != n || s.orig.start > s.orig.end {
            return Err(format!("{when}: segments do not tile: {segs:?}"));
        }
        (o, n) = (s.orig.end, s.new.end.max(s.new.start));
        if s.kind == SegKind::Same {
            if s.orig.len() != s.new.len() {
                return Err(format!("{when}: unequal unchanged run {s:?}"));
            }
            for (a, b) in s.orig.clone().zip(s.new.clone()) {
                if app.original().line(a) != app.result().line(b) {
                    return Err(format!(
                        "{when}: original line {a} {:?} shown as unchanged beside {:?}",
                        app.original().line(a),
                        app.result().line(b)
                    ));
                }
            }
        }
    }
    if o != app.original().len() || n > app.result().len() {
        return Err(format!("{when}: segments end at {o}/{n}: {segs:?}"));
    }
    Ok(())
}

fn draw(app: &mut App, syntaxes: &std::sync::Arc<Syntaxes>) {
    let theme = Theme::new(ColourMode::None);
    for layout in [Layout::Split, Layout::Unified] {
        app.pin_layout(Some(layout));
        app.stop_following();
        let total = app.rows().total();
        for scroll in [0, total / 2, total.saturating_sub(1), total] {
            let mut terminal = Terminal::new(TestBackend::new(120, 8)).expect("terminal");
            app.fit(ratatui::layout::Rect::new(0, 0, 120, 8));
            app.scroll_to(scroll);
            let mut caches = Caches::new(std::sync::Arc::clone(syntaxes), app);
            terminal
                .draw(|f| view::render(f, app, &mut caches, &theme))
                .expect("draw");
        }
    }
}

/// A block per (start, end, replacement): SEARCH is `original[start..end]`
/// (to the end of its line when `to_line_end`).
fn diff_of(original: &str, blocks: &[(usize, usize, Vec<&str>)], to_line_end: bool) -> String {
    let mut diff = String::new();
    for (a, b, replace) in blocks {
        let (a, b) = ((*a).min(original.len()), (*b).min(original.len()));
        let (mut start, mut end) = (a.min(b), a.max(b));
        if to_line_end {
            end = original[end..]
                .find('\n')
                .map_or(original.len(), |i| end + i + 1);
        }
        while !original.is_char_boundary(start) {
            start -= 1;
        }
        let search = &original[start..end];
        diff.push_str("------- SEARCH\n");
        if !search.is_empty() {
            diff.push_str(search.strip_suffix('\n').unwrap_or(search));
            diff.push('\n');
        }
        diff.push_str("=======\n");
        for line in replace {
            diff.push_str(line);
            diff.push('\n');
        }
        diff.push_str("+++++++ REPLACE\n");
    }
    diff
}

fn line() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "", "a", "b", "ab", "ba", "c", "a b", "xa", "\r", "  a", "q", "zz",
    ])
}

proptest! {
    // Joins need a SEARCH starting mid-line and an empty replacement: more
    // cases than the default to meet them reliably (about 4 s in debug).
    #![proptest_config(ProptestConfig::with_cases(1024))]
    #[test]
    fn unchanged_rows_are_equal_and_segments_tile(
        lines in prop::collection::vec(line(), 0..6),
        final_newline in any::<bool>(),
        crlf in any::<bool>(),
        blocks in prop::collection::vec(
            (0usize..40, 0usize..40, prop::collection::vec(line(), 0..3)),
            1..4,
        ),
        in_order in any::<bool>(),
        to_line_end in any::<bool>(),
        v2 in any::<bool>(),
    ) {
        let newline = if crlf { "\r\n" } else { "\n" };
        let mut original = lines.join(newline);
        if final_newline && !lines.is_empty() {
            original.push_str(newline);
        }
        let mut blocks = blocks;
        if in_order {
            blocks.sort_by_key(|b| b.0.min(b.1));
        }
        let diff = diff_of(&original, &blocks, to_line_end);
        let version = if v2 { Version::V2 } else { Version::V1 };
        let mut app = App::new(PathBuf::from("f.txt"), original.clone(), version);
        for cut in (0..=diff.len()).filter(|&c| diff.is_char_boundary(c)) {
            app.set_diff(diff[..cut].to_string());
            let checked = check(&app, &format!("cut {cut}"));
            prop_assert!(checked.is_ok(), "{:?}\n{:?}\n{:?}", original, diff, checked);
        }
        app.end_stream();
        let checked = check(&app, "final");
        prop_assert!(checked.is_ok(), "{:?}\n{:?}\n{:?}", original, diff, checked);
        static SYNTAXES: std::sync::OnceLock<std::sync::Arc<Syntaxes>> = std::sync::OnceLock::new();
        draw(&mut app, SYNTAXES.get_or_init(|| std::sync::Arc::new(Syntaxes::load())));
    }
}
