//! Qwen Code 0.24.4's `edit` tool against its corpus (the agent's own
//! shipped code's results), and against the recorded real CLI runs.

use super::corpus;
use serde_json::Value;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, ToolCall};
use srview::dialect::qwen_edit::QwenEdit;

const CWD: &str = "/home/user/project";

/// The first difference between the port's outcome on `record` and the
/// agent's, if any.
fn check(record: &Value) -> Option<String> {
    let path = record["path"].as_str().unwrap_or_default().to_string();
    let files: Vec<(String, String)> = match record["file"].as_str() {
        Some(file) => vec![(path.clone(), file.to_string())],
        None => Vec::new(),
    };
    let fs = MemoryFs::new(files);
    let call = ToolCall {
        input: &record["input"],
        cwd: CWD,
        fs: &fs,
    };
    let outcome = QwenEdit.run(&call);
    let expect = &record["expect"];
    let content = outcome
        .writes
        .iter()
        .find(|w| w.path == path)
        .and_then(|w| w.content.clone());
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().unwrap_or(false))
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
        .or_else(|| {
            // Written only on success, and only the one file.
            let writes = outcome.writes.len();
            corpus::differ("writes", writes, usize::from(outcome.ok))
        })
}

#[test]
fn the_corpus_of_qwen_code_0_24_4_edit() {
    let mut tally = corpus::Tally::default();
    for record in corpus::load("qwen-edit-0.24.4") {
        let id = record["id"].as_str().unwrap_or("?").to_string();
        let kind = record["kind"].as_str().unwrap_or("?").to_string();
        tally.record(&kind, &id, check(&record));
    }
    tally.finish("qwen-edit-0.24.4");
}
