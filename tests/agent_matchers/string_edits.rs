//! What the one-file string-edit matchers' tests share (Gemini CLI's
//! `replace`, Qwen Code's `edit`): a corpus record or a recorded CLI call
//! run through the port and compared with the agent's own result.

use super::corpus;
use serde_json::Value;
use srview::dialect::call::CallMatcher;

/// The first difference between the port's outcome on `record` and the
/// agent's, if any.
pub fn check(record: &Value, matcher: &dyn CallMatcher) -> Option<String> {
    let path = record["path"].as_str().unwrap_or_default().to_string();
    let files: Vec<(String, String)> = match record["file"].as_str() {
        Some(file) => vec![(path.clone(), file.to_string())],
        None => Vec::new(),
    };
    let outcome = corpus::with_call(&record["input"], files, |call| matcher.run(call));
    let expect = &record["expect"];
    let content = outcome
        .writes
        .iter()
        .find(|w| w.path == path)
        .and_then(|w| w.content.clone());
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().unwrap_or(false))
        .or_else(|| corpus::differ("content", content.as_deref(), expect["content"].as_str()))
        .or_else(|| corpus::differ_words(&outcome, expect))
        .or_else(|| {
            // Written only on success, and only the one file.
            let writes = outcome.writes.len();
            corpus::differ("writes", writes, usize::from(outcome.ok))
        })
}

/// Every record of the corpus `name` through `matcher`, tallied by kind.
pub fn run_corpus(name: &str, matcher: &dyn CallMatcher) {
    corpus::check_all(name, |record| check(record, matcher));
}

/// The real CLI's calls recorded in tests/fixtures/matchers/recorded/
/// `folder` (the scripted model's calls, the file before each, the text the
/// model read, the file after), at least `at_least` of them: each verdict,
/// text and content after is reproduced, each call's stage is the one its
/// recording names, and a call is loose exactly when it applied by another
/// stage than `exact_stage`. Returns how many loose calls there were.
pub fn run_recorded(
    folder: &str,
    at_least: usize,
    matcher: &dyn CallMatcher,
    exact_stage: &str,
) -> usize {
    let calls = corpus::recorded(folder);
    assert!(calls.len() >= at_least, "recordings missing in {folder}");
    let mut loose_calls = 0;
    for (name, record) in calls {
        let path = record["path"].as_str().unwrap_or_default();
        let before = record["before"].as_str().unwrap_or_default();
        let files = [(path.to_string(), before.to_string())];
        let outcome = corpus::with_call(&record["input"], files, |call| matcher.run(call));
        let ok = record["ok"].as_bool().unwrap_or(false);
        assert_eq!(outcome.ok, ok, "{name:?}");
        let read = if ok { &outcome.message } else { &outcome.error };
        assert_eq!(read.as_deref(), record["result"].as_str(), "{name:?}");
        let after = outcome
            .writes
            .first()
            .and_then(|w| w.content.as_deref())
            .unwrap_or(before);
        assert_eq!(
            after,
            record["after"].as_str().unwrap_or_default(),
            "{name:?}"
        );
        assert_eq!(
            outcome.stage.as_deref(),
            record["stage"].as_str(),
            "{name:?}"
        );
        let loose = ok && record["stage"] != exact_stage;
        assert_eq!(outcome.edits.iter().any(|e| e.loose), loose, "{name:?}");
        loose_calls += usize::from(loose);
    }
    loose_calls
}
