//! Aider 0.86.2's `udiff` format (srview::dialect::aider_diff::AiderUdiff)
//! against the corpus made with Aider's shipped Python
//! (`UnifiedDiffCoder.apply_updates` on a temp folder per record): files,
//! the chat's files, a generated reply of fenced unified diffs (exact,
//! repeated, short and repeated, appended, new-file, re-indented, blank-
//! edged, wrong-context and fabricated hunks; several hunks and files;
//! `a/`/`b/` prefixes, no header, unclosed and last-line fences, duplicate
//! and no-change hunks), and what Aider did: every file after, the text
//! reflected to the model, its "Applied edit to" lines, and the stage of
//! each hunk it ran.

use serde_json::Value;
use srview::dialect::aider_diff::AiderUdiff;

use super::aider_diff::run_multi;
use super::corpus;

/// Hunks Aider never hands to `do_replace` (nothing to change, a repeat,
/// dropped or not reached): the oracle records no stage for them.
const NOT_RUN: [&str; 3] = ["no_change", "duplicate", "skipped"];

fn check_record(record: &Value) -> Option<String> {
    let run = run_multi(&AiderUdiff, record);
    let expect = &record["expect"];
    let stages: Vec<&str> = run
        .outcome
        .edits
        .iter()
        .map(|e| e.stage.as_str())
        .filter(|stage| !NOT_RUN.contains(stage))
        .collect();
    let want_stages = corpus::strings(expect, "hunk_stages");
    run.differs(expect)
        .or_else(|| corpus::differ("hunk_stages", &stages, &want_stages))
}

#[test]
fn aider_udiff_corpus_matches_aider_0_86_2() {
    let mut tally = corpus::Tally::default();
    for record in corpus::load("aider-udiff-0.86.2") {
        let kind = record["kind"].as_str().expect("kind").to_string();
        let id = record["id"].as_str().expect("id").to_string();
        tally.record(&kind, &id, check_record(&record));
    }
    tally.finish("aider-udiff-0.86.2");
}
