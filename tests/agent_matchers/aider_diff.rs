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

/// One record of the multi-file corpus: several files, some of them in the
/// chat (`chat`, in the order they were added: the oracle keeps Aider's
/// `abs_fnames` in insertion order so its retry order is the port's), a
/// generated reply (decorated, misspelled and wrong path lines; directories
/// and paths below files; blank, fenced, elided and re-indented SEARCH
/// texts; odd line breaks), and what Aider's shipped `apply_updates` did:
/// `files_after` (every file under the project), the reflected error, the
/// "Applied edit to" lines it printed, and each applied block's stage.
fn check_multi_record(record: &Value) -> Option<String> {
    let files: Vec<(String, String)> = record["files"]
        .as_object()
        .expect("files")
        .iter()
        .map(|(path, content)| (path.clone(), content.as_str().expect("content").to_string()))
        .collect();
    let chat: Vec<&str> = record["chat"]
        .as_array()
        .expect("chat")
        .iter()
        .map(|p| p.as_str().expect("chat path"))
        .collect();
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let outcome = run(record["reply"].as_str().expect("reply"), &borrowed, &chat);
    let expect = &record["expect"];

    let mut after: BTreeMap<String, Option<String>> = files
        .iter()
        .map(|(path, content)| (path.clone(), Some(content.clone())))
        .collect();
    for write in &outcome.writes {
        after.insert(write.path.clone(), write.content.clone());
    }
    let want_after: BTreeMap<String, Option<String>> = expect["files_after"]
        .as_object()
        .expect("files_after")
        .iter()
        .map(|(path, content)| (path.clone(), content.as_str().map(str::to_string)))
        .collect();
    let parse_error = expect["parse_error"].as_bool().expect("parse_error");
    // The oracle names every empty SEARCH `empty_search_append`; it lists
    // the blocks of the real pass only (none after a parse error).
    let stages: Vec<String> = outcome
        .edits
        .iter()
        .map(|e| {
            e.stage
                .replace("empty_search_new_file", "empty_search_append")
        })
        .filter(|stage| stage != "skipped")
        .collect();
    let want_stages: Vec<String> = expect["block_stages"]
        .as_array()
        .expect("block_stages")
        .iter()
        .map(|s| s.as_str().expect("stage").to_string())
        .collect();
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().expect("ok"))
        .or_else(|| corpus::differ("error", outcome.error.as_deref(), expect["error"].as_str()))
        .or_else(|| {
            corpus::differ(
                "message",
                outcome.message.as_deref(),
                expect["message"].as_str(),
            )
        })
        .or_else(|| corpus::differ("files", &after, &want_after))
        .or_else(|| {
            corpus::differ(
                "parse_error",
                outcome.stage.as_deref() == Some("parse_error"),
                parse_error,
            )
        })
        .or_else(|| corpus::differ("block_stages", &stages, &want_stages))
}

/// The kind a multi-file record is counted under: how Aider ended.
fn multi_kind(expect: &Value) -> &'static str {
    if expect["parse_error"].as_bool() == Some(true) {
        "multi: parse error"
    } else if expect["error"].is_string() {
        "multi: blocks failed"
    } else if expect["message"].is_string() {
        "multi: applied"
    } else {
        "multi: nothing reflected"
    }
}

#[test]
fn aider_diff_multi_file_corpus_matches_aider_0_86_2() {
    let mut tally = corpus::Tally::default();
    for record in corpus::load("aider-diff-0.86.2-multi") {
        let id = record["id"].as_str().expect("id").to_string();
        tally.record(
            multi_kind(&record["expect"]),
            &id,
            check_multi_record(&record),
        );
    }
    tally.finish("aider-diff-0.86.2-multi");
}
