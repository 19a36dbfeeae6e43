//! OpenCode 1.18.33's `edit` tool against its corpus (the shipped code's
//! results), every field compared.

use super::corpus;
use srview::dialect::call::{CallMatcher, CallOutcome, fs_path};
use srview::dialect::opencode_edit::OpencodeEdit;

/// The record's file, if any, and its extra files.
fn files_of(record: &serde_json::Value) -> Vec<(String, String)> {
    let mut files = Vec::new();
    if let (Some(path), Some(file)) = (record["path"].as_str(), record["file"].as_str()) {
        files.push((path.to_string(), file.to_string()));
    }
    if let Some(extra) = record["extra_files"].as_object() {
        for (path, file) in extra {
            files.push((path.clone(), file.as_str().unwrap_or_default().to_string()));
        }
    }
    files
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
        .map(|p| fs_path(corpus::CWD, p))
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
        .or_else(|| corpus::differ_words(outcome, expect))
}

#[test]
fn opencode_edit_corpus() {
    corpus::check_all("opencode-edit-1.18.33", |record| {
        let outcome = corpus::with_call(&record["input"], files_of(record), |call| {
            OpencodeEdit.run(call)
        });
        compare(record, &outcome)
    });
}

/// Every `edit` call the real OpenCode 1.18.33 CLI ran in the recorded
/// sessions: its verdict, the text the model read, the file after, and
/// the replacer that placed it (the fuzzy ones named, none exact when
/// another stage did it).
#[test]
fn opencode_edit_recorded_calls() {
    let calls = corpus::recorded("opencode_edit");
    assert_eq!(calls.len(), 15);
    let mut fuzzy = 0;
    for (name, call) in calls {
        let path = call["file"].as_str().expect("file");
        let before = call["before"].as_str().expect("before");
        let files = [(path.to_string(), before.to_string())];
        let outcome = corpus::with_call(&call["input"], files, |call| OpencodeEdit.run(call));
        corpus::assert_verdict_and_text(&outcome, &call, &name);
        let after = written_at(&outcome, path)
            .flatten()
            .unwrap_or_else(|| before.to_string());
        assert_eq!(Some(after.as_str()), call["after"].as_str(), "{name}");
        assert_eq!(outcome.stage.as_deref(), call["stage"].as_str(), "{name}");
        if let Some(edit) = outcome.edits.first().filter(|e| e.loose) {
            fuzzy += 1;
            assert_ne!(edit.stage, "SimpleReplacer", "{name}");
            assert!(edit.found.is_some() && edit.lines.is_some(), "{name}");
        }
    }
    assert_eq!(fuzzy, 7, "the seven fuzzy calls are named loose");
}
