//! Engine properties: no panic on any input, exact in-order blocks splice,
//! every prefix of a streamed diff applies in partial mode.

mod support;

use support::rng;

use proptest::prelude::*;
use rng::Rng;
use srview::engine::{BlockState, Options, Stage, Version, apply};
use support::rng::one_of;

const MODES: [Options; 4] = [
    Options {
        version: Version::V1,
        is_final: false,
    },
    Options {
        version: Version::V1,
        is_final: true,
    },
    Options {
        version: Version::V2,
        is_final: false,
    },
    Options {
        version: Version::V2,
        is_final: true,
    },
];

/// Text made mostly of marker pieces, line breaks and white space, so the
/// parser's odd paths are reached far more often than by uniform strings.
fn markerish() -> impl Strategy<Value = String> {
    // Weighted by count: each fixed piece as likely as each other arm.
    let piece = prop_oneof![
        8 => one_of(&[
            "------- SEARCH",
            "=======",
            "+++++++ REPLACE",
            "<<< SEARCH>",
            ">>>>>>> REPLACE",
            "\n",
            "\r\n",
            " \u{FEFF}\u{3000}",
        ]),
        1 => "[-=+<> a-c😀]{0,6}",
        1 => any::<String>(),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

/// Unique lines, so an exact SEARCH of some of them occurs once.
fn numbered(count: usize) -> Vec<String> {
    (0..count)
        .map(|i| format!("line {i} {}", "x".repeat(i % 5)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn arbitrary_text_never_panics(diff in markerish(), original in markerish()) {
        for options in MODES {
            let out = apply(&diff, &original, options);
            // A report is produced for every block the parser opened.
            for (i, b) in out.blocks.iter().enumerate() {
                prop_assert_eq!(b.index, i);
            }
        }
    }

    #[test]
    fn exact_in_order_blocks_splice(
        count in 1usize..40,
        picks in proptest::collection::vec((0usize..40, 1usize..4, 0usize..4), 1..6),
        v2 in any::<bool>(),
    ) {
        let lines = numbered(count);
        // Disjoint, increasing windows [start, start + len) of the original.
        let mut windows = Vec::new();
        let mut next = 0;
        for (gap, len, repl) in picks {
            let start = next + gap % 3;
            if start + len > count {
                break;
            }
            windows.push((start, len, repl));
            next = start + len;
        }
        prop_assume!(!windows.is_empty());
        let original: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let mut diff = String::new();
        let mut expected = String::new();
        let mut pos = 0;
        for (b, &(start, len, repl)) in windows.iter().enumerate() {
            let replacement: String = (0..repl).map(|k| format!("new {b}.{k}\n")).collect();
            diff.push_str("------- SEARCH\n");
            for l in &lines[start..start + len] {
                diff.push_str(l);
                diff.push('\n');
            }
            diff.push_str("=======\n");
            diff.push_str(&replacement);
            diff.push_str("+++++++ REPLACE\n");
            for l in &lines[pos..start] {
                expected.push_str(l);
                expected.push('\n');
            }
            expected.push_str(&replacement);
            pos = start + len;
        }
        for l in &lines[pos..] {
            expected.push_str(l);
            expected.push('\n');
        }
        let version = if v2 { Version::V2 } else { Version::V1 };
        let out = apply(&diff, &original, Options { version, is_final: true });
        let applied = out.result.as_ref().expect("exact blocks apply");
        prop_assert_eq!(&applied.new_content, &expected);
        prop_assert_eq!(out.blocks.len(), windows.len());
        for b in &out.blocks {
            prop_assert_eq!(b.state, BlockState::Applied);
            prop_assert_eq!(b.stage, Some(Stage::Exact));
        }
    }

    #[test]
    fn every_prefix_applies_in_partial_mode(seed in any::<u64>(), v2 in any::<bool>()) {
        let mut rng = Rng::new(seed);
        let original = rng::original(&mut rng);
        let diff = rng::diff(&mut rng, &original);
        let version = if v2 { Version::V2 } else { Version::V1 };
        let full = apply(&diff, &original, Options { version, is_final: false });
        for cut in (0..=diff.len()).filter(|&c| diff.is_char_boundary(c)) {
            let out = apply(&diff[..cut], &original, Options { version, is_final: false });
            // Blocks only ever appear as the diff grows.
            prop_assert!(out.blocks.len() <= full.blocks.len() + 1);
        }
    }
}

/// A SEARCH marker inside an open REPLACE keeps the old match live; the next
/// block is applied there, and its report says so.
#[test]
fn block_applied_on_an_inherited_match_reports_it() {
    let out = srview::engine::apply(
        "------- SEARCH\nb\n=======\nB\n------- SEARCH\nc\n",
        "a\nb\nc\n",
        srview::engine::Options::default(),
    );
    assert_eq!(out.result.expect("applies").new_content, "a\nc\n");
    let second = &out.blocks[1];
    assert_eq!(second.state, srview::engine::BlockState::Applied);
    assert_eq!(second.stage, Some(srview::engine::Stage::Exact));
    assert_eq!(
        second.original.map(|s| (s.start_line, s.end_line)),
        Some((2, 2))
    );
}
