//! pi 0.73.1's `edit` tool against its corpus (the shipped tool's results
//! on generated calls) and against the edits recorded from the real CLI.

use srview::dialect::call::{CallMatcher, CallOutcome};
use srview::dialect::pi_edit::PiEdit;

use super::corpus;

/// `PiEdit` on `input` with `file` (if any) at `path` below the project.
fn run(path: &str, file: Option<&str>, input: &serde_json::Value) -> CallOutcome {
    let files = file.map(|content| (path.to_string(), content.to_string()));
    corpus::with_call(input, files, |call| PiEdit.run(call))
}

/// The first field of `outcome` that differs from the record's `expect`.
fn compare(outcome: &CallOutcome, expect: &serde_json::Value) -> Option<String> {
    let text = |key: &str| expect[key].as_str().map(str::to_string);
    let content = outcome.writes.first().and_then(|w| w.content.clone());
    corpus::differ("ok", outcome.ok, expect["ok"].as_bool().unwrap_or_default())
        .or_else(|| corpus::differ("error", outcome.error.clone(), text("error")))
        .or_else(|| corpus::differ("message", outcome.message.clone(), text("message")))
        .or_else(|| corpus::differ("stage", outcome.stage.clone(), text("stage")))
        .or_else(|| corpus::differ("content", content, text("content")))
        .or_else(|| corpus::differ("writes", outcome.writes.len(), usize::from(outcome.ok)))
}

#[test]
fn pi_edit_corpus() {
    corpus::check_all("pi-edit-0.73.1", |record| {
        let path = record["path"].as_str().unwrap_or_default();
        let outcome = run(path, record["file"].as_str(), &record["input"]);
        compare(&outcome, &record["expect"])
    });
}

/// How each recorded call matched, from the recordings' own account: the
/// c1-c6 scenarios are the fuzzy ones (trailing whitespace, smart quotes,
/// dash, NFKC ellipsis), the failures matched nothing.
fn recorded_stage(name: &str, ok: bool) -> &'static str {
    const FUZZY: [&str; 5] = [
        "c1_fuzzy_trailing_whitespace",
        "c2_fuzzy_smart_single_quote",
        "c3_fuzzy_smart_double_quotes",
        "c4_fuzzy_unicode_dash",
        "c6_fuzzy_nfkc_ellipsis",
    ];
    match () {
        _ if !ok => "none",
        _ if FUZZY.iter().any(|scenario| name.starts_with(scenario)) => "fuzzy",
        _ => "exact",
    }
}

/// Every `edit` call the real pi 0.73.1 CLI ran in the recorded sessions
/// (tests/fixtures/matchers/recorded/pi_edit/: the tool input as the
/// session holds it, the file before, the tool result and the file after):
/// same verdict, same text, same file after; the fuzzy ones are named
/// fuzzy and report the lines pi rewrote outside the edit. The cut-off
/// stream (l_stream_cut_mid_tool_call) is the partial arguments pi parsed
/// and ran: its validation error.
#[test]
fn pi_edit_recorded_calls() {
    let calls = corpus::recorded("pi_edit");
    let names: Vec<&str> = calls.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names.len(), 24, "{names:?}");
    for (name, record) in &calls {
        let file = record["file"].as_str().expect("file");
        let outcome = run(file, record["before"].as_str(), &record["input"]);
        let ok = !record["isError"].as_bool().expect("isError");
        let result = record["resultText"].as_str().map(str::to_string);
        assert_eq!(outcome.ok, ok, "{name}");
        if ok {
            assert_eq!(outcome.message, result, "{name}");
            assert_eq!(outcome.error, None, "{name}");
        } else {
            assert_eq!(outcome.error, result, "{name}");
        }
        let after = outcome.writes.first().and_then(|w| w.content.as_deref());
        assert_eq!(after, record["after"].as_str(), "{name}");
        let stage = recorded_stage(name, ok);
        assert_eq!(outcome.stage.as_deref(), Some(stage), "{name}");
        if stage == "fuzzy" {
            assert!(
                outcome.edits.iter().any(|e| e.loose && e.stage == "fuzzy"),
                "{name}"
            );
            // The recorded file shows pi's whole-file rewrite: line 1's
            // en dash became a hyphen although no edit touched it.
            assert_eq!(
                outcome.rewritten_outside.first().map(|r| r.0),
                Some(1),
                "{name}"
            );
        } else {
            assert!(outcome.edits.iter().all(|e| !e.loose), "{name}");
            assert!(outcome.rewritten_outside.is_empty(), "{name}");
        }
    }
}

/// The `edit` cases of pi's own test suite (pi-mono
/// packages/coding-agent/test/tools.test.ts, "edit tool" and "edit tool
/// CRLF handling"), with its legacy `oldText`/`newText` arguments and an
/// absolute path: what each expects, exactly where it checks the file.
#[test]
fn pi_edit_own_test_suite() {
    let file = "/tmp/coding-agent-test/edit-test.txt";
    let call = |content: &str, old: &str, new: &str| {
        let input = serde_json::json!({"path": file, "oldText": old, "newText": new});
        run(file, Some(content), &input)
    };
    let written = |outcome: &CallOutcome| outcome.writes.first().and_then(|w| w.content.clone());

    let replaced = call("Hello, world!", "world", "testing");
    assert_eq!(
        replaced.message.as_deref(),
        Some("Successfully replaced 1 block(s) in /tmp/coding-agent-test/edit-test.txt.")
    );
    assert_eq!(written(&replaced).as_deref(), Some("Hello, testing!"));

    let missing = call("Hello, world!", "nonexistent", "testing");
    assert!(
        missing
            .error
            .unwrap()
            .starts_with("Could not find the exact text")
    );
    let repeated = call("foo foo foo", "foo", "bar");
    assert!(repeated.error.unwrap().starts_with("Found 3 occurrences"));

    let crlf = "line one\r\nline two\r\nline three\r\n";
    assert!(call(crlf, "line two\n", "replaced line\n").ok);
    for (content, old, new, after) in [
        (
            "first\r\nsecond\r\nthird\r\n",
            "second\n",
            "REPLACED\n",
            "first\r\nREPLACED\r\nthird\r\n",
        ),
        (
            "first\nsecond\nthird\n",
            "second\n",
            "REPLACED\n",
            "first\nREPLACED\nthird\n",
        ),
        (
            "\u{feff}first\r\nsecond\r\nthird\r\n",
            "second\n",
            "REPLACED\n",
            "\u{feff}first\r\nREPLACED\r\nthird\r\n",
        ),
        ("single line content", "line", "LINE", "single LINE content"),
        (
            "first\rsecond\rthird\r",
            "second\n",
            "REPLACED\n",
            "first\nREPLACED\nthird\n",
        ),
        (
            "hello world\r\ngoodbye world\r\n",
            "hello world",
            "HELLO WORLD",
            "HELLO WORLD\r\ngoodbye world\r\n",
        ),
    ] {
        assert_eq!(
            written(&call(content, old, new)).as_deref(),
            Some(after),
            "{content:?}"
        );
    }
    let mixed = call(
        "hello\r\nworld\r\n---\r\nhello\nworld\n",
        "hello\nworld\n",
        "replaced\n",
    );
    assert!(mixed.error.unwrap().starts_with("Found 2 occurrences"));
}
