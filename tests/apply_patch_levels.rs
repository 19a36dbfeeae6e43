//! The match level of each apply_patch hunk, on a real Codex 0.169.0 run
//! (fixture `apply_patch_codex_runs.json`): the reference applied both hunks
//! silently; we say the first needed `trailing-space` and the second
//! `unicode`, and name the file lines that differ from the patch.

use std::sync::OnceLock;

use serde::Deserialize;
use srview::dialect::apply_patch::{
    HunkReport, HunkState, LooseLine, MatchLevel, MemoryFs, PatchOutcome, apply_text, parse,
};
use srview::engine::LineSpan;

/// The recorded run `d_fuzzy_whitespace_unicode`: calc.py before and after,
/// and the patch.
#[derive(Deserialize)]
struct Run {
    capture: String,
    patch: String,
    before: std::collections::BTreeMap<String, String>,
    after: std::collections::BTreeMap<String, String>,
}

fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let runs: Vec<Run> =
            serde_json::from_str(include_str!("fixtures/apply_patch_codex_runs.json"))
                .expect("the runs fixture is JSON");
        runs.into_iter()
            .find(|r| r.capture.ends_with("d_fuzzy_whitespace_unicode"))
            .expect("the fuzzy run is recorded")
    })
}

fn before() -> &'static str {
    &run().before["calc.py"]
}

fn after() -> &'static str {
    &run().after["calc.py"]
}

fn patch() -> &'static str {
    &run().patch
}

/// 1-based line of the first file line starting with `prefix`.
fn line_of(prefix: &str) -> usize {
    before()
        .lines()
        .position(|l| l.starts_with(prefix))
        .expect("the fixture has the line")
        + 1
}

fn outcome() -> PatchOutcome {
    let fs = MemoryFs::new([("calc.py".to_string(), before().to_string())]);
    apply_text(patch(), &fs, "/home/user/project")
}

/// Hunk `i` of the patch's one section, which applied.
fn applied_hunk(outcome: &PatchOutcome, i: usize) -> &HunkReport {
    let hunk = &outcome.sections[0].hunks[i];
    assert_eq!(hunk.state, HunkState::Applied, "hunk {i}");
    hunk
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
    let result = outcome.files["calc.py"].as_deref();
    assert_eq!(result, Some(after()));
    assert!(after().contains("[lo, hi] \u{2013} bounds inclusive."));
    assert!(after().contains("DEFAULT_PRECISION = 2  \n"));
}

#[test]
fn a_missing_trailing_space_is_reported_as_trailing_space() {
    let outcome = outcome();
    let hunk = applied_hunk(&outcome, 0);
    let precision = line_of("DEFAULT_PRECISION");
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
    assert_eq!(after().lines().nth(precision), Some("MAX_PRECISION = 10"));
}

#[test]
fn an_en_dash_read_as_a_hyphen_is_reported_as_unicode() {
    let outcome = outcome();
    let hunk = applied_hunk(&outcome, 1);
    let clamp = line_of("def clamp");
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
    let exact = patch()
        .replace("DEFAULT_PRECISION = 2\n", "DEFAULT_PRECISION = 2  \n")
        .replace("hi] - bounds", "hi] \u{2013} bounds");
    let fs = MemoryFs::new([("calc.py".to_string(), before().to_string())]);
    let exact_outcome = apply_text(&exact, &fs, "/w");
    assert_eq!(exact_outcome.files["calc.py"].as_deref(), Some(after()));
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
    assert_eq!(parse(patch()).map(|p| p.sections.len()), Ok(1));
}
