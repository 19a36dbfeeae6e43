//! The previewer's right pane holds its result as a splice of the original
//! (no copy of the file). Over every reference case, the result it shows and
//! the content it accepts must read exactly as the reference's new content,
//! line by line.

use super::support;

use support::corpus;

use std::path::PathBuf;

use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srview::engine::{BlockState, Options, apply};
use srview::tui::app::{App, Effect, keys};

#[test]
fn spliced_results_read_as_the_reference_content() {
    let mut checked = 0;
    let mut refused = 0;
    let mut confirmed = 0;
    for case in corpus::load("cline-v4.0.10.jsonl") {
        let want = apply(
            &case.diff,
            &case.original,
            Options {
                version: case.version,
                is_final: case.is_final,
            },
        );
        let applied_blocks = want
            .blocks
            .iter()
            .filter(|b| b.state == BlockState::Applied)
            .count();
        let Ok(applied) = want.result else {
            continue;
        };
        let mut app = App::new(PathBuf::from("f.txt"), case.original.clone(), case.version);
        // Streamed in two pieces, so the session's append path is used too.
        let cut = case.diff.len() / 2;
        let cut = (cut..=case.diff.len())
            .find(|&c| case.diff.is_char_boundary(c))
            .unwrap_or(case.diff.len());
        app.set_diff(case.diff[..cut].to_string());
        app.append_diff(&case.diff[cut..]);
        if case.is_final {
            app.end_stream();
        }
        let text = &applied.new_content;
        assert_eq!(app.result().text(), text.as_str(), "{}", case.id);
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        assert_eq!(app.result().len(), lines.len(), "{}", case.id);
        let mut start = 0;
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(
                app.result().line(i),
                line.trim_end_matches('\n'),
                "{}",
                case.id
            );
            assert_eq!(app.result().line_start(i), start, "{}", case.id);
            assert_eq!(app.result().line_of(start), i, "{}", case.id);
            start += line.len();
        }
        assert_eq!(app.result().chunks().concat(), *text, "{}", case.id);
        if case.is_final {
            let key = KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE);
            let mut effect = keys::on_key(&mut app, key);
            // A block placed by its first and last lines only: the first
            // `a` asks, the second writes; mixed line endings as well are
            // asked about next.
            for _ in 0..2 {
                if effect != Effect::None || !app.confirming_guess() {
                    break;
                }
                let notice = app.notice().as_ref().map_or("", |n| n.text.as_str());
                assert!(notice.contains("press a again"), "{}: {notice}", case.id);
                effect = keys::on_key(&mut app, key);
                confirmed += 1;
            }
            match effect {
                Effect::Accept(content) => assert_eq!(content.text(), text.as_str()),
                // A diff without a block that applies proposes nothing.
                Effect::None if applied_blocks == 0 => {
                    let notice = app.notice().as_ref().map(|n| n.text.as_str());
                    assert_eq!(
                        notice,
                        Some("no complete block in the diff: nothing to accept"),
                        "{}",
                        case.id
                    );
                    refused += 1;
                }
                other => panic!("{}: expected accept, got {other:?}", case.id),
            }
        }
        checked += 1;
    }
    assert!(checked > 1000, "cases checked: {checked}");
    assert!(refused > 0, "final cases without an applied block exist");
    assert!(
        confirmed > 0,
        "final cases with a block-anchor placement exist"
    );
}

/// Lines the alignment pairs as unchanged read the same on both sides, in
/// every reference case and at every line boundary of its stream: a block
/// that ends mid-line (a SEARCH matched inside a line) joins lines, and
/// those belong to the change.
#[test]
fn unchanged_rows_are_equal_on_both_sides() {
    use srview::tui::app::rows::SegKind;
    let mut checked = 0;
    for case in corpus::load("cline-v4.0.10.jsonl") {
        let mut app = App::new(PathBuf::from("f.txt"), case.original.clone(), case.version);
        let mut cuts: Vec<usize> = case.diff.match_indices('\n').map(|(i, _)| i + 1).collect();
        cuts.push(case.diff.len());
        for cut in cuts {
            app.set_diff(case.diff[..cut].to_string());
            if cut == case.diff.len() && case.is_final {
                app.end_stream();
            }
            for seg in app.segments().iter().filter(|s| s.kind == SegKind::Same) {
                assert_eq!(seg.orig.len(), seg.new.len(), "{}", case.id);
                for (o, n) in seg.orig.clone().zip(seg.new.clone()) {
                    assert_eq!(
                        app.original().line(o),
                        app.result().line(n),
                        "{}: diff cut at {cut}, original line {} shown as unchanged",
                        case.id,
                        o + 1
                    );
                }
            }
            checked += 1;
        }
    }
    assert!(checked > 5000, "states checked: {checked}");
}
