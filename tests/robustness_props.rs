//! CI-sized property runs of the parts fuzzing covers at length
//! (`fuzz/`): the diagnosis and the transcript parsers never panic on
//! arbitrary text, and keep their basic promises.

mod support;

use proptest::prelude::*;
use srview::diagnose;
use srview::engine::matcher::LineIndex;
use srview::engine::{self, Options, Version};
use srview::source::{aider, transcript};
use support::rng::one_of;

/// Text built from the pieces that matter: markers (good and near-miss),
/// code-like lines, white space variants, tags and fences.
fn diffish() -> impl Strategy<Value = String> {
    // Weighted by count: each fixed piece as likely as the random line.
    let piece = prop_oneof![
        16 => one_of(&[
            "------- SEARCH\n",
            "-------SEARCH\n",
            "=======\n",
            "======= \n",
            "+++++++ REPLACE\n",
            "<<<<<<< SEARCH\n",
            ">>>>>>> REPLACE\n",
            "fn a() {\n",
            "    let x = 1;\n",
            "\tlet x = 1;\r\n",
            "}\n",
            "\n",
            "<replace_in_file>\n<path>a.rs</path>\n<diff>\n",
            "</diff>\n</replace_in_file>\n",
            "a.rs\n```rust\n",
            "```\n",
        ]),
        1 => "[ -~\u{a0}\u{2019}\u{feff}]{0,12}\n",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|v| v.concat())
}

fn original() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            Just("fn a() {\n"),
            Just("    let x = 1;\n"),
            Just("}\n"),
            Just("\n"),
            Just("let y = \"q\";\n")
        ],
        0..16,
    )
    .prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(192))]

    #[test]
    fn diagnosis_never_panics_and_stays_in_bounds(diff in diffish(), original in original(), v2 in any::<bool>(), is_final in any::<bool>()) {
        let version = if v2 { Version::V2 } else { Version::V1 };
        let found = diagnose::diagnose(&diff, &original, Options { version, is_final });
        let lines = original.split('\n').count();
        for (i, d) in found.iter().enumerate() {
            prop_assert_eq!(d.index, i);
            if let Some(c) = d.closest {
                prop_assert!((0.0..=1.0).contains(&c.similarity));
                prop_assert!(c.start_line >= 1 && c.start_line <= c.end_line.max(c.start_line) && c.end_line <= lines);
            }
            if let Some(s) = &d.suggestion {
                let alone = engine::apply(s, &original, Options::default());
                prop_assert!(alone.result.is_ok(), "suggestion does not apply: {:?}", s);
            }
        }
    }

    #[test]
    fn transcript_parsers_never_panic_on_any_prefix(text in diffish()) {
        let _ = transcript::detect(&text);
        let _ = aider::parse(&text);
        let full = transcript::parse_any(&text);
        let mut ends: Vec<usize> = (0..=text.len()).filter(|&i| text.is_char_boundary(i)).step_by(7).collect();
        ends.push(text.len());
        for end in ends {
            let calls = transcript::parse_any(&text[..end]);
            prop_assert!(calls.len() <= full.len() + 1, "a prefix cannot hold many more calls than the whole");
        }
        let edits = transcript::apply_calls(&full, |p| Ok::<_, String>(Some(format!("{p}\n"))), transcript::ApplyOptions::default());
        prop_assert!(edits.len() <= full.len());
    }
}

/// A file line that reads as a marker (a setext underline) cannot be quoted
/// in a block: no suggestion is offered rather than a broken one.
#[test]
fn no_suggestion_that_quotes_a_marker_line() {
    let original = "Title\n=========\n\nsome text here\n";
    let diff = "------- SEARCH\nTitle\n=========\nsome text hare\n=======\nx\n+++++++ REPLACE\n";
    for d in diagnose::diagnose(diff, original, Options::default()) {
        if let Some(s) = &d.suggestion {
            assert!(
                engine::apply(s, original, Options::default())
                    .result
                    .is_ok(),
                "{s}"
            );
        }
    }
    let index = LineIndex::new(original);
    let file = diagnose::FileIndex::new(&index);
    assert!(diagnose::suggestion(&file, 1, 3, "x\n").is_none());
}

/// Found by the property run: an exact SEARCH of one empty line also
/// occurring on the empty line after the file's final newline.
#[test]
fn ambiguous_match_on_the_line_after_the_final_newline() {
    let diff = "-------SEARCH\n<<<<<<< SEARCH\n\n=======\n";
    for is_final in [false, true] {
        let found = diagnose::diagnose(
            diff,
            "fn a() {\n",
            Options {
                version: Version::V1,
                is_final,
            },
        );
        assert!(!found.is_empty());
    }
}
