//! Qwen Code 0.24.4's `edit` tool against its corpus (the agent's own
//! shipped code's results), and against the recorded real CLI runs.

use super::string_edits::{run_corpus, run_recorded};
use srview::dialect::qwen_edit::QwenEdit;

#[test]
fn the_corpus_of_qwen_code_0_24_4_edit() {
    run_corpus("qwen-edit-0.24.4", &QwenEdit);
}

/// The real CLI's `edit` calls: each verdict, text and content after is
/// reproduced, and each call's stage is the one its recording names
/// (normalizeBasicCharacters, line_pass_trimEnd ...).
#[test]
fn the_recorded_qwen_code_runs() {
    let loose = run_recorded("qwen_edit", 8, &QwenEdit, "literal");
    assert_eq!(loose, 2, "the two recorded loose edits");
}
