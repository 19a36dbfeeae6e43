//! A diff streamed the way a model sends it: the engine re-applied to every
//! growing prefix in partial mode, then once in final mode, as Cline's caller
//! (and srview's live session) does. The streaming session is fed the same
//! cuts: its spliced content must read exactly as the copied one, whole and
//! line by line (as the previewer's right pane reads it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::sync::Arc;

use text::TextLines;
use srview::engine::{Options, matcher::LineIndex, session::Session};

// The previewer's line access, compiled in from srview's own files: the
// previewer is private to the srview crate (behind its fence); the files
// name the engine as `crate::engine`, which this import provides.
use srview::engine;
#[allow(dead_code)]
#[path = "../../src/tui/app/spliced_lines.rs"]
mod spliced_lines;
#[allow(dead_code)]
#[path = "../../src/tui/app/text.rs"]
mod text;
use srview_fuzz::{check_outcome, decode};

fuzz_target!(|data: &[u8]| {
    let Some((options, original, diff)) = decode(data) else {
        return;
    };
    let index = LineIndex::new(&original);
    // Cut points: every line end plus a few mid-line points, at most 64.
    let mut cuts: Vec<usize> = diff.match_indices('\n').map(|(i, _)| i + 1).collect();
    let step = (diff.len() / 16).max(1);
    cuts.extend(
        (0..diff.len())
            .step_by(step)
            .filter(|&i| diff.is_char_boundary(i)),
    );
    cuts.sort_unstable();
    cuts.dedup();
    cuts.truncate(64);
    let partial = Options {
        is_final: false,
        ..options
    };
    let mut session = Session::new(original.as_str(), options.version);
    let mut fed = 0;
    let mut previous: Option<(TextLines, String)> = None;
    for cut in cuts {
        let prefix = &diff[..cut];
        let outcome = srview::engine::apply_indexed(prefix, &index, partial);
        check_outcome(&outcome, prefix, &original, partial);
        session.push(&diff[fed..cut]);
        fed = cut;
        check_spliced(&session, &outcome, &original, false, &mut previous);
    }
    let last = Options {
        is_final: true,
        ..options
    };
    let outcome = srview::engine::apply_indexed(&diff, &index, last);
    check_outcome(&outcome, &diff, &original, last);
    session.push(&diff[fed..]);
    check_spliced(&session, &outcome, &original, true, &mut previous);
});

fn check_spliced(
    session: &Session,
    want: &srview::engine::Outcome,
    original: &str,
    is_final: bool,
    previous: &mut Option<(TextLines, String)>,
) {
    let spliced = session.outcome_spliced(is_final);
    if let (Ok(got), Ok(copied)) = (&spliced.result, &want.result) {
        let text = &copied.new_content;
        let lines = TextLines::spliced(Arc::clone(session.index()), got.new_content.clone());
        let owned = TextLines::owned(text.clone());
        assert_eq!(lines.len(), owned.len());
        for i in 0..=owned.len() {
            assert_eq!(lines.line(i), owned.line(i), "line {i}");
            assert_eq!(lines.line_start(i), owned.line_start(i), "start {i}");
        }
        for offset in (0..=text.len() + 1).step_by((text.len() / 64).max(1)) {
            assert_eq!(lines.line_of(offset), owned.line_of(offset), "offset {offset}");
        }
        // What the previewer compares to find the first changed line.
        if let Some((before, before_text)) = previous.as_ref() {
            let same = before_text
                .bytes()
                .zip(text.bytes())
                .take_while(|(a, b)| a == b)
                .count();
            assert_eq!(before.common_prefix(&lines), same, "common prefix");
        }
        *previous = Some((lines, text.clone()));
    }
    let joined = spliced.map_content(|c| c.to_text(original));
    assert_eq!(&joined, want, "session vs apply");
}
