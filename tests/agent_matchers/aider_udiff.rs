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

use std::collections::BTreeMap;

use serde_json::{Value, json};
use srview::dialect::aider_diff::AiderUdiff;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, CallOutcome, ToolCall};

use super::corpus;

const CWD: &str = "/home/user/project";

/// Runs one reply on `files`, with `chat` as the chat's files.
fn run(reply: &str, files: &[(String, String)], chat: &[&str]) -> CallOutcome {
    let fs = MemoryFs::new(files.iter().cloned());
    let input = json!({"reply": reply, "chat_files": chat});
    AiderUdiff.run(&ToolCall {
        input: &input,
        cwd: CWD,
        fs: &fs,
    })
}

/// Hunks Aider never hands to `do_replace` (nothing to change, a repeat,
/// dropped or not reached): the oracle records no stage for them.
const NOT_RUN: [&str; 3] = ["no_change", "duplicate", "skipped"];

fn check_record(record: &Value) -> Option<String> {
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
    let outcome = run(record["reply"].as_str().expect("reply"), &files, &chat);
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
    let stages: Vec<&str> = outcome
        .edits
        .iter()
        .map(|e| e.stage.as_str())
        .filter(|stage| !NOT_RUN.contains(stage))
        .collect();
    let want_stages: Vec<&str> = expect["hunk_stages"]
        .as_array()
        .expect("hunk_stages")
        .iter()
        .map(|s| s.as_str().expect("stage"))
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
