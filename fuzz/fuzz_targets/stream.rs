//! A diff streamed the way a model sends it: the engine re-applied to every
//! growing prefix in partial mode, then once in final mode, as Cline's caller
//! (and srview's live session) does. The streaming session is fed the same
//! cuts: its spliced content must read exactly as the copied one. (How the
//! previewer reads a spliced content line by line is private to the crate,
//! behind its fence; its unit tests are in `src/tui/app/text.rs`.)
#![no_main]

use libfuzzer_sys::fuzz_target;

use srview::engine::{Options, matcher::LineIndex, session::Session};

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
    for cut in cuts {
        let prefix = &diff[..cut];
        let outcome = srview::engine::apply_indexed(prefix, &index, partial);
        check_outcome(&outcome, prefix, &original, partial);
        session.push(&diff[fed..cut]);
        fed = cut;
        check_spliced(&session, &outcome, &original, false);
    }
    let last = Options {
        is_final: true,
        ..options
    };
    let outcome = srview::engine::apply_indexed(&diff, &index, last);
    check_outcome(&outcome, &diff, &original, last);
    session.push(&diff[fed..]);
    check_spliced(&session, &outcome, &original, true);
});

fn check_spliced(
    session: &Session,
    want: &srview::engine::Outcome,
    original: &str,
    is_final: bool,
) {
    let spliced = session.outcome_spliced(is_final);
    let joined = spliced.map_content(|c| c.to_text(original));
    assert_eq!(&joined, want, "session vs apply");
}
