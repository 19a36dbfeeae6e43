//! Cline CLI 3.0.65's `apply_patch` (its bundled SDK's own code) against
//! its corpus: the files left, the text the model reads, the success or
//! error text, the call's stage, where Cline would hang, and each section's
//! stage.

use std::collections::BTreeMap;

use serde_json::Value;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallOutcome, ToolCall};
use srview::dialect::cline_apply_patch::ClineApplyPatch;

use super::corpus::{self, Tally, differ};

const CWD: &str = "/home/user/project";

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_string)
}

/// The record's files after the outcome's writes (files outside the
/// project root are not in the corpus's snapshot).
fn files_after(
    before: &BTreeMap<String, String>,
    outcome: &CallOutcome,
) -> BTreeMap<String, String> {
    let mut files = before.clone();
    for write in outcome.writes.iter().filter(|w| !w.path.starts_with('/')) {
        match &write.content {
            Some(content) => files.insert(write.path.clone(), content.clone()),
            None => files.remove(&write.path),
        };
    }
    files
}

/// What differs between the port's run of `record` and the shipped code's.
fn check(record: &Value) -> Option<String> {
    let expect = &record["expect"];
    let before: BTreeMap<String, String> = record["files"]
        .as_object()
        .map(|files| {
            files
                .iter()
                .filter_map(|(path, content)| Some((path.clone(), content.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let fs = MemoryFs::new(before.clone());
    let call = ToolCall {
        input: &record["input"],
        cwd: CWD,
        fs: &fs,
    };
    let run = ClineApplyPatch.run_with_text(&call);
    let outcome = &run.outcome;
    let want_files: BTreeMap<String, String> = expect["files"]
        .as_object()
        .map(|files| {
            files
                .iter()
                .filter_map(|(path, content)| Some((path.clone(), content.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    let hang = expect["hang"].as_bool().unwrap_or(false);
    let mut failure = differ("ok", outcome.ok, expect["ok"].as_bool().unwrap_or(false))
        .or_else(|| differ("hangs", outcome.hangs, hang))
        .or_else(|| differ("error", outcome.error.clone(), text(&expect["error"])))
        .or_else(|| differ("message", outcome.message.clone(), text(&expect["message"])))
        .or_else(|| {
            differ(
                "model_text",
                run.model_text.clone(),
                text(&expect["model_text"]),
            )
        })
        .or_else(|| differ("stage", outcome.stage.clone(), text(&expect["stage"])))
        .or_else(|| differ("files", files_after(&before, outcome), want_files));
    if failure.is_none() && !hang {
        // Each findContext call's stage, as the traced shipped code named
        // it (the corpus keeps the first 50).
        let want: Vec<String> = expect["hunks"]
            .as_array()
            .map(|hunks| hunks.iter().filter_map(|h| text(&h["stage"])).collect())
            .unwrap_or_default();
        let got: Vec<String> = outcome
            .edits
            .iter()
            .take(50)
            .map(|e| e.stage.clone())
            .collect();
        failure = differ("section stages", got, want);
    }
    failure
}

#[test]
fn cline_apply_patch_corpus() {
    let records = corpus::load("cline-apply-patch-3.0.65");
    let mut tally = Tally::default();
    for record in &records {
        let kind = record["kind"].as_str().unwrap_or("?");
        let id = record["id"].as_str().unwrap_or("?");
        tally.record(kind, id, check(record));
    }
    tally.finish("cline-apply-patch-3.0.65");
}
