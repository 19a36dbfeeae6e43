//! Cline CLI 3.0.65's `apply_patch` (its bundled SDK's own code) against
//! its corpus: the files left, the text the model reads, the success or
//! error text, the call's stage, where Cline would hang, and each section's
//! stage.

use std::collections::BTreeMap;

use serde_json::Value;
use srview::dialect::call::{CallMatcher, CallOutcome};
use srview::dialect::cline_apply_patch::ClineApplyPatch;

use super::corpus::{self, differ};

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

/// A record's files (`{path: content}`), those whose content is text.
fn text_files(files: &Value) -> BTreeMap<String, String> {
    files
        .as_object()
        .map(|files| {
            files
                .iter()
                .filter_map(|(path, content)| Some((path.clone(), content.as_str()?.to_string())))
                .collect()
        })
        .unwrap_or_default()
}

/// What differs between the port's run of `record` and the shipped code's.
fn check(record: &Value) -> Option<String> {
    let expect = &record["expect"];
    let before = text_files(&record["files"]);
    let run = corpus::with_call(&record["input"], before.clone(), |call| {
        ClineApplyPatch.run_with_text(call)
    });
    let outcome = &run.outcome;
    let want_files = text_files(&expect["files"]);
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
    corpus::check_all("cline-apply-patch-3.0.65", check);
}

/// The similarity stage takes the first window at least 0.66 similar: where
/// the corpus knows what the patch's author meant, about half of the calls
/// it placed land elsewhere, and every such call's similarity sections are
/// loose, named `similarity`.
#[test]
fn similarity_placements_elsewhere_than_meant_are_loose() {
    let (mut placed, mut elsewhere) = (0, 0);
    for record in corpus::load("cline-apply-patch-3.0.65") {
        let (Some(intended), Some(path)) = (
            record["meta"]["intended"].as_str(),
            record["meta"]["path"].as_str(),
        ) else {
            continue;
        };
        let files: BTreeMap<String, String> = record["files"]
            .as_object()
            .map(|files| {
                files
                    .iter()
                    .filter_map(|(p, c)| Some((p.clone(), c.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        let outcome = corpus::with_call(&record["input"], files.clone(), |call| {
            ClineApplyPatch.run(call)
        });
        let similar: Vec<_> = outcome
            .edits
            .iter()
            .filter(|e| e.stage.ends_with("similarity"))
            .collect();
        if !outcome.ok || similar.is_empty() {
            continue;
        }
        placed += 1;
        assert!(similar.iter().all(|e| e.loose), "{}", record["id"]);
        if files_after(&files, &outcome).get(path).map(String::as_str) != Some(intended) {
            elsewhere += 1;
        }
    }
    println!("similarity stage: {elsewhere} of {placed} calls landed elsewhere than meant");
    assert!(
        placed > 100 && elsewhere * 3 > placed,
        "{elsewhere} of {placed}"
    );
}

/// One real Cline CLI 3.0.65 run's `apply_patch` call, recorded offline:
/// its input, the file before and after, and the tool_result the model
/// read.
struct Recorded {
    path: String,
    input: Value,
    before: String,
    result: String,
    success: bool,
    after: String,
}

fn recorded(name: &str) -> Recorded {
    let file = format!(
        "{}/tests/fixtures/matchers/recorded/cline_apply_patch/{name}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{file}: {e}"));
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let field = |key: &str| {
        json[key]
            .as_str()
            .unwrap_or_else(|| panic!("{file}: {key}"))
            .to_string()
    };
    Recorded {
        path: field("path"),
        input: json["input"].clone(),
        before: field("before"),
        result: field("result"),
        success: json["success"]
            .as_bool()
            .unwrap_or_else(|| panic!("{file}: success")),
        after: field("after"),
    }
}

/// Runs a recording through the port: the verdict, the tool_result text and
/// the file after all as the real CLI had them; returns the sections'
/// stages, whether each is loose, and the lines each replaced.
type Placed = (String, bool, Option<(usize, usize)>);

fn replay(name: &str) -> Vec<Placed> {
    let recording = recorded(name);
    let files = [(recording.path.clone(), recording.before.clone())];
    let run = corpus::with_call(&recording.input, files, |call| {
        ClineApplyPatch.run_with_text(call)
    });
    assert_eq!(run.outcome.ok, recording.success, "{name}: verdict");
    assert_eq!(
        run.model_text.as_deref(),
        Some(recording.result.as_str()),
        "{name}: tool_result"
    );
    let before = BTreeMap::from([(recording.path.clone(), recording.before.clone())]);
    let after = files_after(&before, &run.outcome);
    assert_eq!(
        after.get(&recording.path),
        Some(&recording.after),
        "{name}: file after"
    );
    run.outcome
        .edits
        .iter()
        .map(|e| (e.stage.clone(), e.loose, e.lines))
        .collect()
}

/// The recorded patches' first section is placed exactly at lines 1-2:
/// `replay(name)` gives that, then `second` for the second section.
fn assert_replayed(name: &str, second: (&str, bool, Option<(usize, usize)>)) {
    let (stage, loose, lines) = second;
    assert_eq!(
        replay(name),
        [
            ("exact".to_string(), false, Some((1, 2))),
            (stage.to_string(), loose, lines)
        ]
    );
}

#[test]
fn recorded_patch_applied_exactly() {
    assert_replayed("patch_ok", ("exact", false, Some((9, 11))));
}

#[test]
fn recorded_patch_with_a_wrong_digit_applied_by_similarity() {
    // The second section's removed line says `add(2, 4)`: Cline applied it
    // anyway ("fuzz factor 1000"), here at the meant place because nothing
    // earlier in the file was 0.66 similar.
    assert_replayed("patch_fail", ("similarity", true, Some((9, 11))));
}

#[test]
fn recorded_patch_with_a_missing_function_fails_whole() {
    // The second section's context is not in the file: nothing is written,
    // although the first section matched.
    assert_replayed("patch_fail2", ("not_found", false, None));
}
