//! Shared input decoding and invariant checks for the fuzz targets.

use srview::engine::{self, BlockState, Options, Outcome, Stage, Version, matcher};

/// Splits fuzz bytes into engine options, an original and a diff.
///
/// Byte 0 selects the version (bit 0) and the mode (bit 1); the rest is read
/// as (lossy) UTF-8 and split at its first NUL: original before, diff after.
/// Without a NUL the whole text is the diff and the original is empty.
pub fn decode(data: &[u8]) -> Option<(Options, String, String)> {
    let (&flags, rest) = data.split_first()?;
    let options = Options {
        version: if flags & 1 == 0 {
            Version::V1
        } else {
            Version::V2
        },
        is_final: flags & 2 != 0,
    };
    let text = String::from_utf8_lossy(rest);
    let (original, diff) = match text.split_once('\0') {
        Some((o, d)) => (o.to_string(), d.to_string()),
        None => (String::new(), text.into_owned()),
    };
    Some((options, original, diff))
}

/// Applies and checks every invariant the engine promises; panics otherwise.
pub fn apply_and_check(diff: &str, original: &str, options: Options) -> Outcome {
    let outcome = engine::apply(diff, original, options);
    check_outcome(&outcome, diff, original, options);
    outcome
}

fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

pub fn check_outcome(outcome: &Outcome, diff: &str, original: &str, options: Options) {
    let diff_line_count = diff.split('\n').count();
    for (i, block) in outcome.blocks.iter().enumerate() {
        assert_eq!(block.index, i, "block index is its position");
        let [first, last] = block.diff_lines;
        assert!(
            1 <= first && first <= last && last <= diff_line_count,
            "diff lines {first}..{last} outside 1..{diff_line_count}"
        );
        if let Some(span) = &block.original {
            assert!(span.start <= span.end, "span {span:?}");
            assert!(span.end <= original.len(), "span {span:?} past the file");
            assert!(original.is_char_boundary(span.start), "span {span:?}");
            assert!(span.start_line >= 1, "span {span:?}");
            assert!(span.end_line + 1 >= span.start_line, "span {span:?}");
        }
        match block.state {
            BlockState::Failed => assert!(block.error.is_some(), "failed without error"),
            _ => assert!(block.error.is_none(), "error on a non-failed block"),
        }
        if block.state == BlockState::Applied {
            // Every applied block says where and how it matched (a block cut
            // off by a new SEARCH marker hands its match to the next block).
            assert!(block.stage.is_some(), "applied without a stage");
            assert!(block.original.is_some(), "applied without a range");
        }
        if block.stage == Some(Stage::WholeFile) {
            assert_eq!(options.version, Version::V1, "v2 has no whole-file stage");
        }
        if block.out_of_order {
            assert_eq!(options.version, Version::V1, "v2 errors instead");
        }
        if let Some(r) = &block.replacement {
            assert!(outcome.result.is_ok(), "replacement lines without content");
            assert!(r.start_line >= 1 && r.end_line + 1 >= r.start_line);
        }
    }
    match &outcome.result {
        Ok(applied) => {
            let units = utf16_len(original);
            for &m in &applied.match_indices {
                assert!(m <= units, "match index {m} past {units}");
            }
            if options.version == Version::V2 {
                assert!(applied.match_indices.is_empty(), "v2 reports no indices");
            }
            if options.is_final {
                assert!(
                    applied.match_indices.is_sorted(),
                    "final indices are sorted"
                );
                assert!(
                    outcome.blocks.iter().all(|b| b.state != BlockState::Failed),
                    "a failed block in a successful final apply"
                );
                assert!(
                    outcome
                        .blocks
                        .iter()
                        .all(|b| matches!(b.state, BlockState::Applied | BlockState::Dropped)),
                    "a block still streaming after a final apply: {:?}",
                    outcome.blocks
                );
                if !outcome
                    .blocks
                    .iter()
                    .any(|b| b.state == BlockState::Applied)
                {
                    assert_eq!(
                        applied.new_content, original,
                        "nothing applied, yet the content changed"
                    );
                }
            }
        }
        Err(e) => {
            if let Some(b) = e.block {
                assert!(b < outcome.blocks.len(), "error names a missing block");
            }
            if let Some(line) = e.diff_line {
                assert!(line >= 1 && line <= diff_line_count);
            }
        }
    }
    // The report serializes (what `--json` prints).
    let json = serde_json::to_string(&outcome.blocks).expect("report serializes");
    let _: serde_json::Value = serde_json::from_str(&json).expect("report is valid JSON");
}

// The oracle for `matcher`: the naive transcriptions the tests use too.
#[path = "../../tests/support/oracle.rs"]
pub mod oracle;

pub use oracle::{naive_block_anchor, naive_exact, naive_line_trimmed};

/// Compares the engine's matchers with the transcriptions above.
pub fn check_matchers(original: &str, search: &str, from: usize) {
    let index = matcher::LineIndex::new(original);
    let span = |m: Option<matcher::Match>| m.map(|m| (m.start, m.end));
    assert_eq!(
        span(matcher::exact(&index, search, from)),
        naive_exact(original, search, from),
        "exact"
    );
    assert_eq!(
        span(matcher::line_trimmed(&index, search, from)),
        naive_line_trimmed(original, search, from),
        "line-trimmed"
    );
    assert_eq!(
        span(matcher::block_anchor(&index, search, from)),
        naive_block_anchor(original, search, from),
        "block-anchor"
    );
}
