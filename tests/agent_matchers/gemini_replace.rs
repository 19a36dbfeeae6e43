//! Gemini CLI 0.61.0's `replace` tool against its corpus (the agent's own
//! shipped code's results), and against the recorded real CLI runs.

use super::string_edits::{run_corpus, run_recorded};
use srview::dialect::gemini_replace::GeminiReplace;

#[test]
fn the_corpus_of_gemini_cli_0_61_0_replace() {
    run_corpus("gemini-replace-0.61.0", &GeminiReplace);
}

/// The real CLI's `replace` calls: each verdict, text and content after is
/// reproduced, and each call's stage is the one its recording names
/// (flexible, regex, fuzzy ...).
#[test]
fn the_recorded_gemini_cli_runs() {
    let loose = run_recorded("gemini_replace", 14, &GeminiReplace, "exact");
    assert_eq!(loose, 4, "the recorded flexible, regex and two fuzzy edits");
}
