//! OpenCode's `edit`: each replacer's spans, each error text, and the
//! tool's own test cases (packages/opencode/test/tool/edit.test.ts) where
//! 1.18.33 behaves as they say. Every expectation here was checked
//! against the shipped 1.18.33 code.

use std::borrow::Cow;
use std::ops::ControlFlow;

use serde_json::{Value, json};

use super::replacers::{FileLines, Stage};
use super::{OpencodeEdit, texts};
use crate::cases::assert_cases;
use crate::dialect::call::{CallOutcome, run_in_memory};

const ROOT: &str = "/home/user/project";

/// Every span `stage` yields for `find` in `content`.
fn spans(stage: Stage, content: &str, find: &str) -> Vec<String> {
    let file = FileLines::new(content);
    let mut out = Vec::new();
    let _ = stage.run(&file, find, &mut |span: Cow<str>| {
        out.push(span.into_owned());
        ControlFlow::Continue(())
    });
    out
}

/// The tool on `input` with `files` (relative path, content) present.
fn edit(files: &[(&str, &str)], input: Value) -> CallOutcome {
    run_in_memory(&OpencodeEdit, ROOT, files, &input)
}

/// The one file `outcome` writes.
fn written(outcome: &CallOutcome) -> &str {
    assert!(outcome.ok, "{outcome:?}");
    match &outcome.writes[..] {
        [write] => write.content.as_deref().expect("written, not deleted"),
        other => panic!("one write expected: {other:?}"),
    }
}

fn fails_with(outcome: &CallOutcome, error: &str, stage: Option<&str>) {
    assert!(!outcome.ok);
    assert_eq!(outcome.error.as_deref(), Some(error));
    assert_eq!(outcome.stage.as_deref(), stage);
    assert!(outcome.writes.is_empty());
}

#[test]
fn simple_yields_the_find_as_is() {
    assert_eq!(spans(Stage::Simple, "x", "y"), ["y"]);
}

#[test]
fn line_trimmed_yields_whole_lines_and_drops_a_trailing_empty_line() {
    assert_eq!(
        spans(
            Stage::LineTrimmed,
            "if a:\n    x = 1\n    y = 2\n",
            "if a:\n  x = 1\n"
        ),
        ["if a:\n    x = 1"]
    );
}

#[test]
fn block_anchor_takes_a_similar_enough_single_block() {
    let content = "def f():\n    a = 1\n    b = 2\n    return a\n";
    assert_eq!(
        spans(
            Stage::BlockAnchor,
            content,
            "def f():\n    a = 1\n    b = 3\n    return a"
        ),
        ["def f():\n    a = 1\n    b = 2\n    return a"]
    );
    assert!(
        spans(
            Stage::BlockAnchor,
            content,
            "def f():\n    zzzzzz\n    qqqqqq\n    return a"
        )
        .is_empty()
    );
}

#[test]
fn block_anchor_takes_the_most_similar_candidate_and_the_first_on_ties() {
    assert_eq!(
        spans(
            Stage::BlockAnchor,
            "def f():\n    a = 1\n    return a\ndef f():\n    a = 2\n    return a\n",
            "def f():\n    a = 22\n    return a"
        ),
        ["def f():\n    a = 2\n    return a"]
    );
    assert_eq!(
        spans(
            Stage::BlockAnchor,
            "def f():\n    a = 1\n    return a\ndef f():\n    a = 1\n    return a\n",
            "def f():\n    a = 2\n    return a"
        ),
        ["def f():\n    a = 1\n    return a"]
    );
}

#[test]
fn whitespace_normalized_yields_the_words_match_or_the_whole_line() {
    assert_eq!(
        spans(
            Stage::WhitespaceNormalized,
            "    return [i for i in items if i.qty < limit]\n",
            "qty  <  limit"
        ),
        ["qty < limit"]
    );
    assert_eq!(
        spans(Stage::WhitespaceNormalized, "  x  =  1\n", "x = 1"),
        ["  x  =  1"]
    );
}

#[test]
fn indentation_flexible_compares_without_the_common_indentation() {
    assert_eq!(
        spans(
            Stage::IndentationFlexible,
            "class A:\n        def f(self):\n            pass\n",
            "def f(self):\n    pass"
        ),
        ["        def f(self):\n            pass"]
    );
}

#[test]
fn escape_normalized_yields_the_unescaped_find_then_equal_windows() {
    assert_eq!(
        spans(
            Stage::EscapeNormalized,
            "print(\"low:\", x)\n",
            "print(\\\"low:\\\", x)"
        ),
        ["print(\"low:\", x)", "print(\"low:\", x)"]
    );
    // The file's escapes span one line, the find two: no window of two
    // lines unescapes to it.
    assert!(spans(Stage::EscapeNormalized, "a = \"x\\ny\"\n", "a = \"x\ny\"").is_empty());
}

#[test]
fn trimmed_boundary_yields_the_trimmed_find() {
    assert_eq!(
        spans(Stage::TrimmedBoundary, "a\n  foo\n b\n", "  foo \n"),
        ["foo"]
    );
    assert!(spans(Stage::TrimmedBoundary, "foo", "foo").is_empty());
}

#[test]
fn context_aware_needs_half_the_middle_lines() {
    let content = "def g():\n    x = 1\n    y = 2\n    z = 3\n    return x\n";
    assert_eq!(
        spans(
            Stage::ContextAware,
            content,
            "def g():\n    x = 1\n    y = 9\n    z = 3\n    return x"
        ),
        ["def g():\n    x = 1\n    y = 2\n    z = 3\n    return x"]
    );
    assert!(
        spans(
            Stage::ContextAware,
            content,
            "def g():\n    x = 7\n    y = 9\n    z = 3\n    return x"
        )
        .is_empty()
    );
}

#[test]
fn multi_occurrence_yields_once_per_occurrence() {
    assert_eq!(
        spans(Stage::MultiOccurrence, "ab ab ab", "ab"),
        ["ab", "ab", "ab"]
    );
}

fn input(path: &str, old: &str, new: &str) -> Value {
    json!({"filePath": format!("{ROOT}/{path}"), "oldString": old, "newString": new})
}

/// The tool's edit of `old` to `new` in `path`, the one file, holding
/// `content`.
fn edit_one(path: &str, content: &str, old: &str, new: &str) -> CallOutcome {
    edit(&[(path, content)], input(path, old, new))
}

#[test]
fn replaces_text_in_an_existing_file() {
    let outcome = edit_one(
        "existing.txt",
        "old content here",
        "old content",
        "new content",
    );
    assert_eq!(written(&outcome), "new content here");
    assert_eq!(outcome.message.as_deref(), Some(texts::APPLIED));
    assert_eq!(outcome.stage.as_deref(), Some("SimpleReplacer"));
    assert!(!outcome.edits[0].loose);
    assert_eq!(outcome.edits[0].lines, Some((1, 1)));
}

/// ((the file, oldString, newString), the file written)
#[test]
fn boms_multiple_lines_and_crlf() {
    assert_cases(
        |(content, old, new)| written(&edit_one("a.txt", content, old, new)).to_string(),
        &[
            // The first visible line of a file with a BOM.
            (
                (
                    "\u{feff}using System;\nclass Test {}\n",
                    "using System;",
                    "using Up;",
                ),
                "\u{feff}using Up;\nclass Test {}\n",
            ),
            // A BOM at the start of newString gives the file one.
            (
                ("first\nsecond\n", "first", "\u{feff}zero"),
                "\u{feff}zero\nsecond\n",
            ),
            (
                ("line1\nline2\nline3", "line2", "new line 2\nextra line"),
                "line1\nnew line 2\nextra line\nline3",
            ),
            (
                ("line1\r\nold\r\nline3", "old", "new"),
                "line1\r\nnew\r\nline3",
            ),
        ],
    );
}

#[test]
fn replace_all_replaces_every_occurrence_and_expands_dollar_patterns() {
    let mut all = input("file.txt", "foo", "qux");
    all["replaceAll"] = json!(true);
    let outcome = edit(&[("file.txt", "foo bar foo baz foo")], all);
    assert_eq!(written(&outcome), "qux bar qux baz qux");
    let outcome = edit(
        &[("a.txt", "a $ b\n")],
        json!({"filePath": "a.txt", "oldString": "$", "newString": "$$&$'", "replaceAll": true}),
    );
    assert_eq!(written(&outcome), "a $& b\n b\n");
}

/// OpenCode's "line endings" tests: the file's ending wins whatever the
/// edit's.
#[test]
fn the_files_line_ending_wins() {
    let old = "alpha\nbeta\ngamma";
    let next = "alpha\nbeta-updated\ngamma";
    let alt = "alpha\nbeta\nomega";
    let to = |text: &str, ending: &str| text.replace("\r\n", "\n").replace('\n', ending);
    let cases: [(&str, String, String, String); 8] = [
        ("\n", to(old, "\n"), to(next, "\n"), to(next, "\n")),
        ("\r\n", to(old, "\r\n"), to(next, "\r\n"), to(next, "\r\n")),
        ("\n", to(old, "\r\n"), to(next, "\r\n"), to(next, "\n")),
        ("\r\n", to(old, "\n"), to(next, "\n"), to(next, "\r\n")),
        ("\n", to(old, "\n"), to(next, "\r\n"), to(next, "\n")),
        ("\r\n", to(old, "\r\n"), to(next, "\n"), to(next, "\r\n")),
        (
            "\n",
            "alpha\nbeta\r\ngamma".into(),
            "alpha\r\nbeta\nomega".into(),
            to(alt, "\n"),
        ),
        (
            "\r\n",
            "alpha\r\nbeta\ngamma".into(),
            "alpha\nbeta\r\nomega".into(),
            to(alt, "\r\n"),
        ),
    ];
    for (ending, old_string, new_string, want) in cases {
        let content = to(&format!("{old}\n"), ending);
        let outcome = edit_one("test.txt", &content, &old_string, &new_string);
        assert_eq!(written(&outcome), format!("{want}{ending}"));
    }
    for ending in ["\n", "\r\n"] {
        let content = to("alpha\nbeta\nalpha\nbeta\n", ending);
        let mut all = input(
            "test.txt",
            &to("alpha\nbeta", ending),
            &to("alpha\nbeta-updated", ending),
        );
        all["replaceAll"] = json!(true);
        let outcome = edit(&[("test.txt", &content)], all);
        assert_eq!(
            written(&outcome),
            to("alpha\nbeta-updated\nalpha\nbeta-updated\n", ending)
        );
    }
}

#[test]
fn creates_a_new_file_from_an_empty_old_string() {
    let outcome = edit(&[], input("nested/dir/file.txt", "", "nested file"));
    assert_eq!(written(&outcome), "nested file");
    assert_eq!(outcome.writes[0].path, "nested/dir/file.txt");
    assert_eq!(outcome.stage.as_deref(), Some(texts::CREATE_FILE));
}

#[test]
fn every_error_text() {
    let cases = [
        (
            edit(&[], input("nonexistent.txt", "old", "new")),
            "File /home/user/project/nonexistent.txt not found",
        ),
        (
            edit_one("file.txt", "content", "same", "same"),
            texts::IDENTICAL,
        ),
        (edit_one("file.txt", "content", "", ""), texts::IDENTICAL),
        // Equal once both take the file's line ending.
        (
            edit_one("a.txt", "a\r\nb\n", "a\r\nb", "a\nb"),
            texts::IDENTICAL,
        ),
        (
            edit_one("file.txt", "actual content", "not in file", "replacement"),
            texts::NOT_FOUND,
        ),
        (
            edit_one("a.txt", "x = 1\nx = 1\n", "x = 1", "x = 2"),
            texts::MULTIPLE,
        ),
        (
            edit(&[("adir/x.txt", "x")], input("adir", "old", "new")),
            "Path is a directory, not a file: /home/user/project/adir",
        ),
        (
            edit_one("existing.cs", "\u{feff}using System;\n", "", "using Up;\n"),
            texts::EMPTY_OLD_STRING,
        ),
        (
            edit(
                &[("a.txt", "x\n")],
                json!({"filePath": "", "oldString": "a", "newString": "b"}),
            ),
            texts::FILE_PATH_REQUIRED,
        ),
    ];
    for (outcome, error) in &cases {
        fails_with(outcome, error, None);
    }
}

#[test]
fn the_guard_refuses_spans_much_larger_than_old_string() {
    // Three literal `\n`s unescape to four lines: one line asked, four found.
    fails_with(
        &edit_one("a.txt", "a\nb\nc\nd\n", "a\\nb\\nc\\nd", "x"),
        texts::DISPROPORTIONATE,
        Some("EscapeNormalizedReplacer"),
    );
    // Deep indentation counts toward the length limit.
    let deep = format!("{0}a\n{0}b\n", " ".repeat(600));
    fails_with(
        &edit_one("a.txt", &deep, "a\nb", "x"),
        texts::DISPROPORTIONATE,
        Some("LineTrimmedReplacer"),
    );
}

#[test]
fn input_of_the_wrong_shape_gets_the_schema_text() {
    let outcome = edit(
        &[],
        json!({"filePath": 3, "oldString": "a", "newString": "b"}),
    );
    assert_eq!(
        outcome.error.as_deref(),
        Some(
            "The edit tool was called with invalid arguments: SchemaError(Expected string, got 3\n  at [\"filePath\"]).\nPlease rewrite the input so it satisfies the expected schema."
        )
    );
    let outcome = edit(&[], json!({"filePath": "a.txt", "newString": "b"}));
    assert!(
        outcome
            .error
            .is_some_and(|e| e.contains("SchemaError(Missing key\n  at [\"oldString\"])"))
    );
}

proptest::proptest! {
    /// A place after the first, searched forward, is what `str::rfind`
    /// finding another place says (overlapping ones and empty spans too).
    #[test]
    fn another_place_is_what_rfind_says(s in "[ab é]{0,40}", span in "[ab é]{0,3}") {
        if let Some(first) = s.find(span.as_str()) {
            proptest::prop_assert_eq!(
                super::occurs_after(&s, &span, first),
                s.rfind(span.as_str()) != Some(first)
            );
        }
    }
}
