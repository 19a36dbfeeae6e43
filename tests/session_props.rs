//! The streaming session gives, for every prefix of a diff, exactly the
//! outcome a from-scratch apply gives: result and per-block report, in both
//! versions and both modes, however the diff is cut into pieces.

mod support;

use support::{corpus, rng};

use corpus::Case;
use proptest::prelude::*;
use rng::Rng;
use srview::engine::session::Session;
use srview::engine::{Options, Version, apply};

fn corpus() -> Vec<Case> {
    corpus::main_corpus()
}

/// Session vs. from-scratch apply of the session's text, both modes, and the
/// cheap summary vs. the full outcome.
fn assert_matches_apply(session: &Session, original: &str, version: Version) {
    for is_final in [false, true] {
        let want = apply(session.text(), original, Options { version, is_final });
        let got = session.outcome(is_final);
        assert_eq!(
            got,
            want,
            "prefix {:?} of original {original:?}, {version:?}, final {is_final}",
            session.text()
        );
        // The spliced content reads as the copied one, piece by piece and
        // line by line.
        let spliced = session.outcome_spliced(is_final);
        if let Ok(a) = &spliced.result {
            let whole = a.new_content.to_text(original);
            let mut start = 0;
            for (i, _) in whole.match_indices('\n').chain([(whole.len(), "")]) {
                assert_eq!(a.new_content.slice(original, start, i), &whole[start..i]);
                start = i + 1;
            }
        }
        let spliced = spliced.map_content(|c| c.to_text(original));
        assert_eq!(spliced, want, "spliced outcome");
        let summary = session.summary(is_final);
        // A summary's blocks are the outcome's without their texts.
        let without_texts: Vec<_> = want
            .blocks
            .iter()
            .cloned()
            .map(|mut b| {
                b.search_text.clear();
                b.replace_text.clear();
                b
            })
            .collect();
        assert_eq!(summary.blocks, without_texts, "summary blocks");
        match &want.result {
            Ok(a) => {
                assert_eq!(summary.result, Ok(a.new_content.len()));
                assert_eq!(summary.match_indices, a.match_indices);
            }
            Err(e) => assert_eq!(summary.result.as_ref().err(), Some(e)),
        }
    }
}

fn stream_through(rng: &mut Rng, original: &str, diff: &str, version: Version, max: usize) {
    let mut session = Session::new(original, version);
    assert_matches_apply(&session, original, version);
    for piece in rng::chunks(rng, diff, max) {
        session.push(piece);
        assert_matches_apply(&session, original, version);
    }
    assert_eq!(session.text(), diff);
}

#[test]
fn corpus_streaming_cases_through_session() {
    let cases: Vec<Case> = corpus()
        .into_iter()
        .filter(|c| c.kind.starts_with("stream."))
        .collect();
    assert!(cases.len() > 300, "stream cases present: {}", cases.len());
    let mut rng = Rng::new(7);
    for case in &cases {
        stream_through(&mut rng, &case.original, &case.diff, case.version, 16);
        // And against what the reference itself produced.
        let mut session = Session::new(case.original.as_str(), case.version);
        session.push(&case.diff);
        let got = session.outcome(case.is_final);
        match (&got.result, case.expect["ok"].as_bool()) {
            (Ok(a), Some(true)) => {
                assert_eq!(
                    Some(a.new_content.as_str()),
                    case.expect["newContent"].as_str()
                )
            }
            (Err(e), Some(false)) => {
                assert_eq!(Some(e.message.as_str()), case.expect["error"].as_str())
            }
            (r, _) => panic!("{}: {r:?} vs {}", case.kind, case.expect),
        }
    }
}

#[test]
fn rewrite_restarts_and_append_continues() {
    let original = "a\nb\nc\n";
    let mut session = Session::new(original, Version::V1);
    assert!(session.set_text("------- SEARCH\nb\n=="));
    assert!(session.set_text("------- SEARCH\nb\n=======\nB\n"));
    // Not an append: the model rewrote its diff.
    assert!(!session.set_text("------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n"));
    assert_matches_apply(&session, original, Version::V1);
    let out = session.outcome(true).result.expect("applies");
    assert_eq!(out.new_content, "a\nb\nC\n");
}

#[test]
fn failure_on_a_complete_line_sticks() {
    let original = "a\n";
    let mut session = Session::new(original, Version::V2);
    session.push("=======\n");
    assert_matches_apply(&session, original, Version::V2);
    session.push("------- SEARCH\na\n=======\n");
    assert_matches_apply(&session, original, Version::V2);
    assert!(session.outcome(true).result.is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn corpus_diffs_in_random_pieces(pick in any::<usize>(), seed in any::<u64>(), max in 1usize..40) {
        let cases = corpus_cached();
        let case = &cases[pick % cases.len()];
        let mut rng = Rng::new(seed);
        stream_through(&mut rng, &case.original, &case.diff, case.version, max);
    }

    #[test]
    fn generated_diffs_in_random_pieces(seed in any::<u64>(), max in 1usize..24, v2 in any::<bool>()) {
        let mut rng = Rng::new(seed);
        let original = rng::original(&mut rng);
        let diff = rng::diff(&mut rng, &original);
        let version = if v2 { Version::V2 } else { Version::V1 };
        stream_through(&mut rng, &original, &diff, version, max);
    }
}

fn corpus_cached() -> &'static [Case] {
    static CASES: std::sync::OnceLock<Vec<Case>> = std::sync::OnceLock::new();
    CASES.get_or_init(corpus)
}
