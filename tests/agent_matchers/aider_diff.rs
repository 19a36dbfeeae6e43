//! Aider 0.86.2's `diff` format (srview::dialect::aider_diff) against the
//! corpus made with Aider's shipped Python: each record is one reply applied
//! to one file that is the chat's only file (or, when `file` is null, a
//! chat with no file).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use srview::dialect::aider_diff::AiderDiff;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, CallOutcome, ToolCall};

use super::corpus;

const CWD: &str = "/home/user/project";

/// Runs one reply on `files`, with `chat` as the chat's files.
fn run(reply: &str, files: &[(&str, &str)], chat: &[&str]) -> CallOutcome {
    let fs = MemoryFs::new(files.iter().map(|(p, c)| (p.to_string(), c.to_string())));
    let input = json!({"reply": reply, "chat_files": chat});
    AiderDiff.run(&ToolCall {
        input: &input,
        cwd: CWD,
        fs: &fs,
    })
}

/// `path`'s content after the call (`None`: it does not exist).
fn content_after(outcome: &CallOutcome, path: &str, before: Option<&str>) -> Option<String> {
    match outcome.writes.iter().find(|w| w.path == path) {
        Some(write) => write.content.clone(),
        None => before.map(str::to_string),
    }
}

fn check_record(record: &Value) -> Option<String> {
    let path = record["path"].as_str().expect("path");
    let file = record["file"].as_str();
    let reply = record["input"]["reply"].as_str().expect("reply");
    let expect = &record["expect"];
    let files: Vec<(&str, &str)> = file.map(|f| (path, f)).into_iter().collect();
    let chat: Vec<&str> = file.map(|_| path).into_iter().collect();
    let outcome = run(reply, &files, &chat);

    let others: BTreeMap<String, Option<String>> = outcome
        .writes
        .iter()
        .filter(|w| w.path != path)
        .map(|w| (w.path.clone(), w.content.clone()))
        .collect();
    let want_others: BTreeMap<String, Option<String>> = expect["other_files"]
        .as_object()
        .map(|o| {
            o.iter()
                .map(|(k, v)| (k.clone(), v.as_str().map(str::to_string)))
                .collect()
        })
        .unwrap_or_default();
    let block_stages: Vec<&str> = outcome
        .edits
        .iter()
        .map(|e| e.stage.as_str())
        .filter(|s| *s != "skipped")
        .collect();
    let want_block_stages: Vec<&str> = expect["block_stages"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().expect("ok"))
        .or_else(|| corpus::differ("error", outcome.error.as_deref(), expect["error"].as_str()))
        .or_else(|| {
            corpus::differ(
                "content",
                content_after(&outcome, path, file).as_deref(),
                expect["content"].as_str(),
            )
        })
        .or_else(|| {
            corpus::differ(
                "message",
                outcome.message.as_deref(),
                expect["message"].as_str(),
            )
        })
        .or_else(|| corpus::differ("stage", outcome.stage.as_deref(), expect["stage"].as_str()))
        .or_else(|| corpus::differ("other_files", &others, &want_others))
        .or_else(|| {
            // A parse error applies nothing: the corpus lists no block.
            (outcome.stage.as_deref() != Some("parse_error"))
                .then(|| corpus::differ("block_stages", &block_stages, &want_block_stages))
                .flatten()
        })
}

#[test]
fn aider_diff_corpus_matches_aider_0_86_2() {
    let mut tally = corpus::Tally::default();
    for record in corpus::load("aider-diff-0.86.2") {
        let kind = record["kind"].as_str().expect("kind").to_string();
        let id = record["id"].as_str().expect("id").to_string();
        tally.record(&kind, &id, check_record(&record));
    }
    tally.finish("aider-diff-0.86.2");
}
