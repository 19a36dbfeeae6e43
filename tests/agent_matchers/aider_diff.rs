//! Aider 0.86.2's `diff` format (srview::dialect::aider_diff) against the
//! corpus made with Aider's shipped Python: each record is one reply applied
//! to one file that is the chat's only file (or, when `file` is null, a
//! chat with no file).

use std::collections::BTreeMap;

use serde_json::{Value, json};
use srview::dialect::aider_diff::AiderDiff;
use srview::dialect::call::{CallMatcher, CallOutcome};

use super::corpus;

/// Runs one reply on `files`, with `chat` as the chat's files.
fn run(reply: &str, files: &[(&str, &str)], chat: &[&str]) -> CallOutcome {
    run_by(&AiderDiff, reply, files, chat)
}

/// [`run`] by `matcher` (Aider's `diff` or `udiff` format).
fn run_by(
    matcher: &dyn CallMatcher,
    reply: &str,
    files: &[(&str, &str)],
    chat: &[&str],
) -> CallOutcome {
    let files = files.iter().map(|(p, c)| (p.to_string(), c.to_string()));
    corpus::with_call(
        &json!({"reply": reply, "chat_files": chat}),
        files,
        |call| matcher.run(call),
    )
}

/// A multi-file record run: the call's outcome, every file after it (the
/// record's files with the call's writes), and the files Aider left.
pub(super) struct MultiRun {
    pub outcome: CallOutcome,
    pub after: BTreeMap<String, Option<String>>,
    pub want_after: BTreeMap<String, Option<String>>,
}

impl MultiRun {
    /// `None` when the call's verdict, reflected error, success message
    /// and files after are the record's `expect`, else the first that
    /// differs.
    pub fn differs(&self, expect: &Value) -> Option<String> {
        let outcome = &self.outcome;
        corpus::differ("ok", outcome.ok, expect["ok"].as_bool().expect("ok"))
            .or_else(|| corpus::differ("error", outcome.error.as_deref(), expect["error"].as_str()))
            .or_else(|| {
                corpus::differ(
                    "message",
                    outcome.message.as_deref(),
                    expect["message"].as_str(),
                )
            })
            .or_else(|| corpus::differ("files", &self.after, &self.want_after))
    }
}

/// Runs a record of several files (`files`), the chat's files (`chat`)
/// and a `reply` by `matcher`, against its `expect.files_after`.
pub(super) fn run_multi(matcher: &dyn CallMatcher, record: &Value) -> MultiRun {
    let files = corpus::files(record, "files");
    let chat = corpus::strings(record, "chat");
    let reply = record["reply"].as_str().expect("reply");
    let outcome = run_by(matcher, reply, &files, &chat);
    let mut after: BTreeMap<String, Option<String>> = files
        .iter()
        .map(|(path, content)| (path.to_string(), Some(content.to_string())))
        .collect();
    for write in &outcome.writes {
        after.insert(write.path.clone(), write.content.clone());
    }
    let want_after = record["expect"]["files_after"]
        .as_object()
        .expect("files_after")
        .iter()
        .map(|(path, content)| (path.clone(), content.as_str().map(str::to_string)))
        .collect();
    MultiRun {
        outcome,
        after,
        want_after,
    }
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
    corpus::check_all("aider-diff-0.86.2", check_record);
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
    let run = run_multi(&AiderDiff, record);
    let outcome = &run.outcome;
    let expect = &record["expect"];
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
    let want_stages: Vec<String> = corpus::strings(expect, "block_stages")
        .into_iter()
        .map(str::to_string)
        .collect();
    run.differs(expect)
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

/// The stage srview names for each recorded turn (every recorded block
/// matched exactly or failed; none needed a loose stage).
const RECORDED_STAGES: [(&str, &str); 10] = [
    ("a_two_blocks-turn1", "perfect"),
    ("a_two_blocks_no_auto_commits-turn1", "perfect"),
    ("a_two_blocks_no_stream-turn1", "perfect"),
    ("a_two_blocks_pty-turn1", "perfect"),
    ("a_two_blocks_slow-turn1", "perfect"),
    ("b_nomatch_retry-turn1", "failed"),
    ("b_nomatch_retry-turn2", "perfect"),
    ("c_two_files-turn1", "perfect"),
    ("f_malformed_retry-turn1", "parse_error"),
    ("f_malformed_retry-turn2", "perfect"),
];

/// The real aider 0.86.2 CLI, run offline on a scripted model
/// (tests/fixtures/matchers/recorded/aider_diff/, one file per model turn:
/// the reply, the project's files before it, the chat's files from the
/// command line, and what Aider did: the text it reflected to the model,
/// the "Applied edit to" lines it printed, the files after, and each
/// block's verdict).
#[test]
fn aider_diff_reproduces_the_recorded_aider_cli() {
    let calls = corpus::recorded("aider_diff");
    assert_eq!(calls.len(), RECORDED_STAGES.len());
    for (name, record) in calls {
        let stem = name.trim_end_matches(".json");
        let before = corpus::files(&record, "files_before");
        let chat = corpus::strings(&record, "chat_files");
        let outcome = run(record["reply"].as_str().expect("reply"), &before, &chat);
        let agent = &record["agent"];

        let reflected = agent["reflected"].as_str();
        assert_eq!(outcome.ok, reflected.is_none(), "{stem}");
        assert_eq!(outcome.error.as_deref(), reflected, "{stem}");
        let mut applied: Vec<String> = corpus::strings(agent, "applied")
            .into_iter()
            .map(|p| format!("Applied edit to {p}"))
            .collect();
        applied.sort();
        let want_message = (!applied.is_empty()).then(|| applied.join("\n"));
        assert_eq!(outcome.message, want_message, "{stem}");

        let mut after: BTreeMap<String, String> = before
            .iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        for write in &outcome.writes {
            after.insert(
                write.path.clone(),
                write.content.clone().unwrap_or_default(),
            );
        }
        let want_after: BTreeMap<String, String> = corpus::files(agent, "files_after")
            .into_iter()
            .map(|(p, c)| (p.to_string(), c.to_string()))
            .collect();
        assert_eq!(after, want_after, "{stem}");

        let blocks = agent["blocks"].as_array().expect("blocks");
        let want_stage = RECORDED_STAGES
            .iter()
            .find(|(s, _)| *s == stem)
            .map(|(_, stage)| *stage);
        assert_eq!(outcome.stage.as_deref(), want_stage, "{stem}");
        if want_stage == Some("parse_error") {
            // Aider recorded the unparsed reply as one failed block.
            assert_eq!(blocks.len(), 1, "{stem}");
            assert_eq!(blocks[0]["message"].as_str(), reflected, "{stem}");
            continue;
        }
        assert_eq!(outcome.edits.len(), blocks.len(), "{stem}");
        for (edit, block) in outcome.edits.iter().zip(blocks) {
            match block["verdict"].as_str() {
                Some("applied") => {
                    assert!(edit.stage == "perfect" && !edit.loose, "{stem}: {edit:?}")
                }
                Some("failed") => {
                    assert_eq!(edit.stage, "failed", "{stem}");
                    let message = block["message"].as_str().expect("message");
                    assert!(
                        outcome
                            .error
                            .as_deref()
                            .is_some_and(|e| e.contains(message)),
                        "{stem}"
                    );
                }
                other => panic!("{stem}: verdict {other:?}"),
            }
        }
    }
}
