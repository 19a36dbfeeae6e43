//! OpenCode 1.18.33's `edit` tool against its corpus (the shipped code's
//! results), every field compared.

use super::corpus;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, CallOutcome, ToolCall, fs_path};
use srview::dialect::opencode_edit::OpencodeEdit;

const CWD: &str = "/home/user/project";

/// The record's file, if any, in a file system.
fn files_of(record: &serde_json::Value) -> MemoryFs {
    let mut files = Vec::new();
    if let (Some(path), Some(file)) = (record["path"].as_str(), record["file"].as_str()) {
        files.push((path.to_string(), file.to_string()));
    }
    if let Some(extra) = record["extra_files"].as_object() {
        for (path, file) in extra {
            files.push((path.clone(), file.as_str().unwrap_or_default().to_string()));
        }
    }
    MemoryFs::new(files)
}

/// The content `outcome` leaves at `path` (`None`: not written).
fn written_at(outcome: &CallOutcome, path: &str) -> Option<Option<String>> {
    outcome
        .writes
        .iter()
        .rev()
        .find(|w| w.path == path)
        .map(|w| w.content.clone())
}

/// Every field of `expect` against `outcome`: `None` when all match.
fn compare(record: &serde_json::Value, outcome: &CallOutcome) -> Option<String> {
    let expect = &record["expect"];
    let target = record["input"]["filePath"]
        .as_str()
        .map(|p| fs_path(CWD, p))
        .unwrap_or_default();
    // `content` is the target after the call, null when the call fails.
    let content = if outcome.ok {
        written_at(outcome, &target)
            .flatten()
            .or_else(|| record["file"].as_str().map(str::to_string))
    } else {
        None
    };
    let failed_writes =
        (!outcome.ok && !outcome.writes.is_empty()).then(|| "writes on failure".to_string());
    failed_writes
        .or_else(|| corpus::differ("ok", Some(outcome.ok), expect["ok"].as_bool()))
        .or_else(|| corpus::differ("content", content.as_deref(), expect["content"].as_str()))
        .or_else(|| corpus::differ("error", outcome.error.as_deref(), expect["error"].as_str()))
        .or_else(|| {
            corpus::differ(
                "message",
                outcome.message.as_deref(),
                expect["message"].as_str(),
            )
        })
        .or_else(|| corpus::differ("stage", outcome.stage.as_deref(), expect["stage"].as_str()))
}

#[test]
fn opencode_edit_corpus() {
    run_corpus("opencode-edit-1.18.33");
}

fn run_corpus(name: &str) {
    let mut tally = corpus::Tally::default();
    for record in corpus::load(name) {
        let fs = files_of(&record);
        let call = ToolCall {
            input: &record["input"],
            cwd: CWD,
            fs: &fs,
        };
        let outcome = OpencodeEdit.run(&call);
        let failure = compare(&record, &outcome);
        tally.record(
            record["kind"].as_str().unwrap_or("?"),
            record["id"].as_str().unwrap_or("?"),
            failure,
        );
    }
    tally.finish(name);
}
