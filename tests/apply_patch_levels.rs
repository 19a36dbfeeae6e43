//! The match level of each apply_patch hunk, on a real Codex 0.169.0 run
//! (fixture `apply_patch_codex_fuzzy`): the reference applied both hunks
//! silently; we say the first needed `trailing-space` and the second
//! `unicode`, and name the file lines that differ from the patch.

use srview::dialect::apply_patch::{HunkState, LooseLine, MatchLevel, MemoryFs, apply_text, parse};
use srview::engine::LineSpan;

const BEFORE: &str = include_str!("fixtures/apply_patch_codex_fuzzy/before.py");
const AFTER: &str = include_str!("fixtures/apply_patch_codex_fuzzy/after.py");
const PATCH: &str = include_str!("fixtures/apply_patch_codex_fuzzy/patch.txt");

/// 1-based line of the first file line starting with `prefix`.
fn line_of(prefix: &str) -> usize {
    BEFORE
        .lines()
        .position(|l| l.starts_with(prefix))
        .expect("the fixture has the line")
        + 1
}

fn outcome() -> srview::dialect::apply_patch::PatchOutcome {
    let fs = MemoryFs::new([("calc.py".to_string(), BEFORE.to_string())]);
    apply_text(PATCH, &fs, "/home/user/project")
}

#[test]
fn the_result_is_the_reference_s_and_keeps_the_en_dash() {
    let outcome = outcome();
    assert_eq!(outcome.exit_code, 0);
    assert_eq!(
        outcome.stdout,
        "Success. Updated the following files:\nM calc.py\n"
    );
    assert_eq!(outcome.stderr, "");
    let after = outcome.files["calc.py"].as_deref();
    assert_eq!(after, Some(AFTER));
    assert!(AFTER.contains("[lo, hi] \u{2013} bounds inclusive."));
    assert!(AFTER.contains("DEFAULT_PRECISION = 2  \n"));
}

#[test]
fn a_missing_trailing_space_is_reported_as_trailing_space() {
    let outcome = outcome();
    let hunk = &outcome.sections[0].hunks[0];
    let precision = line_of("DEFAULT_PRECISION");
    assert_eq!(hunk.state, HunkState::Applied);
    assert_eq!(hunk.level, Some(MatchLevel::TrailingSpace));
    assert_eq!(hunk.header, None);
    assert_eq!(
        hunk.differing,
        vec![LooseLine {
            line: precision,
            file: "DEFAULT_PRECISION = 2  ".to_string(),
            patch: "DEFAULT_PRECISION = 2".to_string(),
        }]
    );
    // Context `DEFAULT_PRECISION`, `PI`; the new line goes between them.
    let matched = LineSpan {
        start_line: precision,
        end_line: precision + 1,
    };
    assert_eq!(hunk.matched, Some(matched));
    let insertion = LineSpan {
        start_line: precision + 1,
        end_line: precision,
    };
    assert_eq!(hunk.replaced, Some(insertion));
    let added = LineSpan {
        start_line: precision + 1,
        end_line: precision + 1,
    };
    assert_eq!(hunk.replacement, Some(added));
    assert_eq!(AFTER.lines().nth(precision), Some("MAX_PRECISION = 10"));
}

#[test]
fn an_en_dash_read_as_a_hyphen_is_reported_as_unicode() {
    let outcome = outcome();
    let hunk = &outcome.sections[0].hunks[1];
    let clamp = line_of("def clamp");
    assert_eq!(hunk.state, HunkState::Applied);
    let header = hunk.header.as_ref().expect("the @@ line was searched");
    assert_eq!(
        (header.line, header.level, header.differing.clone()),
        (clamp, MatchLevel::Exact, None)
    );
    assert_eq!(hunk.level, Some(MatchLevel::Unicode));
    assert_eq!(hunk.differing.len(), 1);
    let loose = &hunk.differing[0];
    assert_eq!(loose.line, clamp + 1);
    assert!(loose.file.contains('\u{2013}') && !loose.patch.contains('\u{2013}'));
    assert_eq!(loose.patch.replace(" - ", " \u{2013} "), loose.file);
    assert_eq!(
        outcome
            .loose_hunks()
            .map(|(_, h)| h.level)
            .collect::<Vec<_>>(),
        [Some(MatchLevel::TrailingSpace), Some(MatchLevel::Unicode)]
    );
    // An exact copy of the file's lines matches at level `exact`.
    let exact = PATCH
        .replace("DEFAULT_PRECISION = 2\n", "DEFAULT_PRECISION = 2  \n")
        .replace("hi] - bounds", "hi] \u{2013} bounds");
    let fs = MemoryFs::new([("calc.py".to_string(), BEFORE.to_string())]);
    let exact_outcome = apply_text(&exact, &fs, "/w");
    assert_eq!(exact_outcome.files["calc.py"].as_deref(), Some(AFTER));
    assert_eq!(exact_outcome.loose_hunks().count(), 0);
    assert!(
        exact_outcome.sections[0]
            .hunks
            .iter()
            .all(|h| h.level == Some(MatchLevel::Exact) && h.differing.is_empty())
    );
}

#[test]
fn levels_serialise_in_kebab_case() {
    let names: Vec<String> = [
        MatchLevel::Exact,
        MatchLevel::TrailingSpace,
        MatchLevel::Trimmed,
        MatchLevel::Unicode,
    ]
    .iter()
    .map(|l| serde_json::to_string(l).expect("a level serialises"))
    .collect();
    assert_eq!(
        names,
        [
            "\"exact\"",
            "\"trailing-space\"",
            "\"trimmed\"",
            "\"unicode\""
        ]
    );
    assert_eq!(parse(PATCH).map(|p| p.sections.len()), Ok(1));
}
