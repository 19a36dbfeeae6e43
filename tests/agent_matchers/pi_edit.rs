//! pi 0.73.1's `edit` tool against its corpus (the shipped tool's results
//! on generated calls) and against the edits recorded from the real CLI.

use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, CallOutcome, ToolCall};
use srview::dialect::pi_edit::PiEdit;

use super::corpus;

const CWD: &str = "/home/user/project";

/// `PiEdit` on `input` with `file` (if any) at `path` below the project.
fn run(path: &str, file: Option<&str>, input: &serde_json::Value) -> CallOutcome {
    let fs = MemoryFs::new(file.map(|content| (path.to_string(), content.to_string())));
    PiEdit.run(&ToolCall {
        input,
        cwd: CWD,
        fs: &fs,
    })
}

/// The first field of `outcome` that differs from the record's `expect`.
fn compare(outcome: &CallOutcome, expect: &serde_json::Value) -> Option<String> {
    let text = |key: &str| expect[key].as_str().map(str::to_string);
    let content = outcome.writes.first().and_then(|w| w.content.clone());
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().unwrap_or_default())
        .or_else(|| corpus::differ("error", outcome.error.clone(), text("error")))
        .or_else(|| corpus::differ("message", outcome.message.clone(), text("message")))
        .or_else(|| corpus::differ("stage", outcome.stage.clone(), text("stage")))
        .or_else(|| corpus::differ("content", content, text("content")))
        .or_else(|| corpus::differ("writes", outcome.writes.len(), usize::from(outcome.ok)))
}

#[test]
fn pi_edit_corpus() {
    let mut tally = corpus::Tally::default();
    for record in corpus::load("pi-edit-0.73.1") {
        let path = record["path"].as_str().unwrap_or_default();
        let outcome = run(path, record["file"].as_str(), &record["input"]);
        tally.record(
            record["kind"].as_str().unwrap_or_default(),
            record["id"].as_str().unwrap_or_default(),
            compare(&outcome, &record["expect"]),
        );
    }
    tally.finish("pi-edit-0.73.1");
}
