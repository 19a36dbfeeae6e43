//! OpenCode 1.18.33's own `apply_patch` tool against its corpus (the
//! shipped code's results on whole patches), every field compared.

use std::collections::BTreeMap;

use super::corpus;
use srview::dialect::call::{CallMatcher, CallOutcome};
use srview::dialect::opencode_apply_patch::OpencodeApplyPatch;

/// The record's `files` (path → content).
fn files_of(record: &serde_json::Value) -> BTreeMap<String, String> {
    files_of_map(&record["files"])
}

/// The files after the call: `before` with `outcome`'s writes.
fn files_after(
    before: &BTreeMap<String, String>,
    outcome: &CallOutcome,
) -> BTreeMap<String, String> {
    let mut after = before.clone();
    for write in &outcome.writes {
        match &write.content {
            Some(content) => after.insert(write.path.clone(), content.clone()),
            None => after.remove(&write.path),
        };
    }
    after
}

/// `expect.files` with its deleted (null) files left out.
fn expected_files(record: &serde_json::Value) -> Option<BTreeMap<String, String>> {
    let files = record["expect"]["files"].as_object()?;
    Some(
        files
            .iter()
            .filter_map(|(p, c)| c.as_str().map(|c| (p.clone(), c.to_string())))
            .collect(),
    )
}

fn compare(
    record: &serde_json::Value,
    before: &BTreeMap<String, String>,
    outcome: &CallOutcome,
) -> Option<String> {
    let expect = &record["expect"];
    corpus::differ("ok", Some(outcome.ok), expect["ok"].as_bool())
        .or_else(|| {
            corpus::differ(
                "files",
                Some(files_after(before, outcome)),
                expected_files(record),
            )
        })
        .or_else(|| corpus::differ_words(outcome, expect))
}

#[test]
fn opencode_apply_patch_corpus() {
    corpus::check_all("opencode-apply-patch-1.18.33", |record| {
        let before = files_of(record);
        let outcome = corpus::with_call(&record["input"], before.clone(), |call| {
            OpencodeApplyPatch.run(call)
        });
        compare(record, &before, &outcome)
    });
}

/// Both `apply_patch` calls the real OpenCode 1.18.33 CLI ran in the
/// recorded sessions (worktree `/`, the project not being a git
/// repository): verdict, text and files after.
#[test]
fn opencode_apply_patch_recorded_calls() {
    let dir = format!(
        "{}/tests/fixtures/matchers/recorded/opencode_apply_patch",
        env!("CARGO_MANIFEST_DIR")
    );
    let mut count = 0;
    for name in ["h_apply_patch.json", "h2_apply_patch_nomatch.json"] {
        let text = std::fs::read_to_string(format!("{dir}/{name}")).expect("a fixture");
        let call: serde_json::Value = serde_json::from_str(&text).expect("fixture JSON");
        let before = files_of_map(&call["before"]);
        let worktree = call["worktree"].as_str().expect("worktree");
        let outcome = corpus::with_call(&call["input"], before.clone(), |tool_call| {
            OpencodeApplyPatch.run_in(tool_call, worktree)
        });
        corpus::assert_verdict_and_text(&outcome, &call, name);
        assert_eq!(
            files_after(&before, &outcome),
            files_of_map(&call["after"]),
            "{name}"
        );
        count += 1;
    }
    assert_eq!(count, 2);
}

fn files_of_map(value: &serde_json::Value) -> BTreeMap<String, String> {
    value
        .as_object()
        .map(|files| {
            files
                .iter()
                .map(|(p, c)| (p.clone(), c.as_str().unwrap_or_default().to_string()))
                .collect()
        })
        .unwrap_or_default()
}
