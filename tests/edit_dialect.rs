//! Exact-string edits (Claude Code Edit/Write, Cline CLI 3.x editor): each
//! agent's semantics and error texts, replays of the recorded runs in
//! tests/fixtures/agents/, and streaming (partial JSON) input.

mod support;

use support::text::assert_contains;

use serde::Deserialize;
use srview::diagnose::Reason;
use srview::dialect::edit::partial_json::{Value, parse_prefix};
use srview::dialect::edit::{
    Change, Edit, EditApplied, EditDiagnosis, EditError, Field, PartialEdit, Provenance, Tool,
    apply, apply_at, apply_sequence, preview,
};
use srview::engine::{BlockState, Stage};

// ---------------------------------------------------------------- fixtures

#[derive(Deserialize)]
struct Fixture {
    calls: Vec<Call>,
    expected: Expected,
}

#[derive(Deserialize)]
struct Call {
    tool: String,
    /// The input as the agent recorded it (Claude Code adds
    /// `replace_all: false`, which the model never sent).
    input: serde_json::Value,
    /// The `input_json_delta` pieces as streamed (Claude Code only).
    #[serde(default)]
    pieces: Vec<String>,
    /// The tool result as the agent handed it to the model (Cline: the
    /// output's `result`, empty on failure).
    result: String,
}

#[derive(Deserialize)]
struct Expected {
    agent: String,
    edits: Vec<ExpectedEdit>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ExpectedEdit {
    file: String,
    tool: String,
    agent_verdict: String,
    agent_message: Option<String>,
    content_before: Option<String>,
    content_after: Option<String>,
}

fn fixture(agent: &str, scenario: &str) -> Fixture {
    let path = format!(
        "{}/tests/fixtures/agents/{agent}/{scenario}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const CLAUDE: &str = "claude-code-2.1.328";
const CLINE: &str = "cline-cli-3.0.65";
const CLAUDE_SCENARIOS: [&str; 4] = [
    "a_edits_ok",
    "b_edit_nomatch",
    "c_edit_ambiguous",
    "d_write_new",
];
const CLINE_SCENARIOS: [&str; 4] = [
    "editor_ok",
    "editor_fail",
    "editor_fail_verbose",
    "editor_text_fail",
];

/// Every edit of a recorded run, applied to the content the agent had
/// before it: verdict, message (word for word) and content after equal the
/// agent's; an applied edit's block is `applied`/`exact` and its original
/// span holds exactly the text it replaced.
fn replay(agent: &str, scenario: &str) {
    let fx = fixture(agent, scenario);
    assert_eq!(fx.calls.len(), fx.expected.edits.len(), "{scenario}");
    for (i, (call, want)) in fx.calls.iter().zip(&fx.expected.edits).enumerate() {
        let ctx = format!("{agent}/{scenario} edit {}", i + 1);
        assert_eq!(call.tool, want.tool, "{ctx}");
        let edit = Edit::from_tool_input(&call.tool, &call.input.to_string())
            .unwrap_or_else(|e| panic!("{ctx}: {e}"));
        assert!(
            edit.path().ends_with(&format!("/{}", want.file)),
            "{ctx}: {}",
            edit.path()
        );
        if !call.pieces.is_empty() {
            // The streamed pieces make the same edit as the recorded input.
            let streamed = Edit::from_tool_input(&call.tool, &call.pieces.concat()).unwrap();
            assert_eq!(streamed, edit, "{ctx}");
        }
        let out = apply_at(i, &edit, want.content_before.as_deref());
        assert_eq!(out.block.index, i, "{ctx}");
        let (verdict, message, after) = match &out.result {
            Ok(done) => ("applied", None, Some(done.new_content.clone())),
            Err(e) => ("failed", Some(e.agent_message()), None),
        };
        // The whole tool result, success texts included.
        let result = match (&out.result, fx.expected.agent.as_str()) {
            (Ok(done), _) => done.agent_message.clone(),
            (Err(e), "claude-code") => Some(e.agent_message()),
            (Err(_), _) => Some(String::new()),
        };
        assert_eq!(result.as_deref(), Some(call.result.as_str()), "{ctx}");
        assert_eq!(verdict, want.agent_verdict, "{ctx}");
        assert_eq!(message, want.agent_message, "{ctx}");
        assert_eq!(after, want.content_after, "{ctx}");
        match &out.result {
            Ok(done) => {
                assert_eq!(out.block.state, BlockState::Applied, "{ctx}");
                assert_eq!(out.block.error, None, "{ctx}");
                assert!(out.diagnosis.is_none(), "{ctx}");
                match (&edit, &want.content_before) {
                    (Edit::ClaudeWrite { .. }, before) => {
                        assert_eq!(out.block.stage, Some(Stage::Empty), "{ctx}");
                        let change = if before.is_some() {
                            Change::Updated
                        } else {
                            Change::Created
                        };
                        assert_eq!(done.change, change, "{ctx}");
                    }
                    (_, Some(before)) => {
                        assert_eq!(out.block.stage, Some(Stage::Exact), "{ctx}");
                        let span = out.block.original.unwrap();
                        assert_eq!(&before[span.start..span.end], out.block.search_text);
                        let (a, b) = out.block.replacement_bytes.unwrap();
                        assert_eq!(&done.new_content[a..b], out.block.replace_text);
                    }
                    (_, None) => panic!("{ctx}: an edit applied to no file"),
                }
            }
            Err(e) => {
                assert_eq!(out.block.state, BlockState::Failed, "{ctx}");
                assert_eq!(out.block.stage, None, "{ctx}");
                assert_eq!(out.block.error.as_deref(), Some(e.to_string().as_str()));
                assert_eq!(e.provenance(), Provenance::Captured, "{ctx}");
                assert!(out.diagnosis.is_some(), "{ctx}");
            }
        }
    }
}

/// The whole run at once: the files start as the first edit of each saw
/// them and end as the agent left them (the last applied edit's content).
fn replay_sequence(agent: &str, scenario: &str) {
    let fx = fixture(agent, scenario);
    let edits: Vec<Edit> = fx
        .calls
        .iter()
        .map(|c| Edit::from_tool_input(&c.tool, &c.input.to_string()).unwrap())
        .collect();
    let first_seen = |path: &str| {
        let i = edits.iter().position(|e| e.path() == path).unwrap();
        fx.expected.edits[i].content_before.clone()
    };
    let run = apply_sequence(&edits, first_seen);
    for (edit, (out, want)) in edits
        .iter()
        .zip(run.outcomes.iter().zip(&fx.expected.edits))
    {
        let verdict = if out.result.is_ok() {
            "applied"
        } else {
            "failed"
        };
        assert_eq!(verdict, want.agent_verdict, "{scenario}");
        let last = fx
            .expected
            .edits
            .iter()
            .zip(&edits)
            .rev()
            .find(|(w, e)| e.path() == edit.path() && w.agent_verdict == "applied")
            .map(|(w, _)| w.content_after.clone());
        let want_final = last.unwrap_or_else(|| first_seen(edit.path()));
        assert_eq!(run.files[edit.path()], want_final, "{scenario}");
    }
}

/// Every recorded Claude Code and Cline CLI editor scenario.
#[test]
fn replays_every_recorded_scenario() {
    for (agent, scenarios, name) in [
        (CLAUDE, CLAUDE_SCENARIOS, "claude-code"),
        (CLINE, CLINE_SCENARIOS, "cline-cli"),
    ] {
        for scenario in scenarios {
            assert_eq!(fixture(agent, scenario).expected.agent, name);
            replay(agent, scenario);
            replay_sequence(agent, scenario);
        }
    }
}

// ------------------------------------------------------- Claude Code Edit

const INVENTORY_HEAD: &str = "LOW_STOCK = 5\n\n\ndef find(items):\n    return None\n\n\ndef cheapest(items):\n    return None\n";

/// The edit left the file holding `content`, made by a `change`.
#[track_caller]
fn assert_wrote(done: &EditApplied, content: &str, change: Change) {
    assert_eq!((done.new_content.as_str(), done.change), (content, change));
}

fn claude_edit(old: &str, new: &str, replace_all: bool) -> Edit {
    Edit::ClaudeEdit {
        file_path: "/p/inventory.py".into(),
        old_string: old.into(),
        new_string: new.into(),
        replace_all,
    }
}

#[test]
fn claude_not_found_quotes_the_old_string() {
    let out = apply(
        &claude_edit("LOW_STOK = 5", "X", false),
        Some(INVENTORY_HEAD),
    );
    let err = out.result.unwrap_err();
    assert_eq!(
        err.to_string(),
        "String to replace not found in file.\nString: LOW_STOK = 5"
    );
    assert_eq!(
        err.agent_message(),
        "<tool_use_error>String to replace not found in file.\nString: LOW_STOK = 5</tool_use_error>"
    );
}

#[test]
fn claude_two_matches_are_refused_unless_replace_all() {
    let out = apply(
        &claude_edit("    return None", "    return []", false),
        Some(INVENTORY_HEAD),
    );
    assert_eq!(
        out.result.unwrap_err().to_string(),
        "Found 2 matches of the string to replace, but replace_all is false. To replace all \
         occurrences, set replace_all to true. To replace only one occurrence, please provide \
         more context to uniquely identify the instance.\nString:     return None"
    );
    let d = out.diagnosis.unwrap();
    assert_eq!(d.reason, Some(Reason::Ambiguous));
    assert_eq!(d.occurrences, vec![[5, 5], [9, 9]]);
    assert_eq!(d.suggestion, None);
    assert_contains(&d.message, "replace_all");

    let out = apply(
        &claude_edit("    return None", "    return []", true),
        Some(INVENTORY_HEAD),
    );
    let done = out.result.unwrap();
    assert_eq!(
        done.new_content,
        INVENTORY_HEAD.replace("return None", "return []")
    );
    assert_eq!(done.occurrences, 2);
    // One block from the first occurrence to the last.
    let span = out.block.original.unwrap();
    assert_eq!((span.start_line, span.end_line), (5, 9));
    let lines = out.block.replacement.unwrap();
    assert_eq!((lines.start_line, lines.end_line), (5, 9));
}

#[test]
fn claude_refuses_old_equal_to_new_before_looking_at_the_file() {
    let out = apply(&claude_edit("same", "same", false), None);
    let err = out.result.unwrap_err();
    assert_eq!(err, EditError::ClaudeNoChange);
    assert_eq!(
        err.to_string(),
        "No changes to make: old_string and new_string are exactly the same."
    );
    assert_eq!(err.provenance(), Provenance::Source);
}

#[test]
fn claude_missing_file_is_created_only_by_an_empty_old_string() {
    let err = apply(&claude_edit("x", "y", false), None)
        .result
        .unwrap_err();
    assert_eq!(err, EditError::ClaudeFileMissing);
    assert_eq!(err.to_string(), "File does not exist.");

    let out = apply(&claude_edit("", "fresh\n", false), None);
    assert_eq!(out.block.stage, Some(Stage::Empty));
    assert_eq!(out.block.original, None);
    let done = out.result.unwrap();
    assert_wrote(&done, "fresh\n", Change::Created);
}

#[test]
fn claude_empty_old_string_on_a_file_with_content_is_refused() {
    let err = apply(&claude_edit("", "y", false), Some("x\n"))
        .result
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Cannot create new file - file already exists."
    );
    // A blank file is filled.
    let done = apply(&claude_edit("", "y\n", false), Some(" \n"))
        .result
        .unwrap();
    assert_wrote(&done, "y\n", Change::Updated);
}

#[test]
fn claude_write_creates_or_overwrites() {
    let write = Edit::ClaudeWrite {
        file_path: "/p/new.py".into(),
        content: "a\nb\n".into(),
    };
    let created = apply(&write, None);
    assert_eq!(created.result.as_ref().unwrap().change, Change::Created);
    assert_eq!(created.block.original, None);
    let lines = created.block.replacement.unwrap();
    assert_eq!((lines.start_line, lines.end_line), (1, 2));

    let updated = apply(&write, Some("old\n"));
    let done = updated.result.as_ref().unwrap();
    // Claude Code's words for an overwrite are not recorded: none are made up.
    assert_eq!(done.agent_message, None);
    assert_wrote(done, "a\nb\n", Change::Updated);
    assert_eq!(updated.block.stage, Some(Stage::Empty));
    let span = updated.block.original.unwrap();
    assert_eq!(
        (span.start, span.end, span.start_line, span.end_line),
        (0, 4, 1, 1)
    );
}

/// A Write's doubts are the gate's write check (`edit::write_doubt`): over
/// a file, content standing in for the lines it leaves out, or exactly
/// what the file holds; a new file, or a whole new content, none (a fresh
/// tester's find: a Write of `# ... rest of the file unchanged ...` had no
/// doubt outside the gate).
#[test]
fn a_writes_doubts_are_the_gates_write_check() {
    use srview::dialect::edit::{edit_doubts, write_doubt};
    let file = "def a():\n    return 1\n\ndef b():\n    x = load()\n    return x\n";
    let write = |content: &str| Edit::ClaudeWrite {
        file_path: "m.py".into(),
        content: content.into(),
    };
    let elided = "def a():\n    return 2\n\n# ... rest of the file unchanged ...\n";
    let expected = write_doubt("m.py", file, elided).expect("a stand-in").1;
    assert_eq!(
        expected,
        "its content stands in for lines it leaves out (line 4: `# ... rest of the file \
         unchanged ...`), so writing it deletes 4 non-blank lines of the file (6 lines become \
         4): send the whole content, every line the file keeps, or edit only the lines that \
         change"
    );
    assert_eq!(
        edit_doubts(&apply(&write(elided), Some(file)), file),
        [expected]
    );
    assert_eq!(
        edit_doubts(&apply(&write(file), Some(file)), file),
        [
            "m.py already holds exactly this content (6 lines): the write changes nothing, so it \
          looks applied already"
        ]
    );
    assert_eq!(
        edit_doubts(&apply(&write(elided), None), ""),
        Vec::<String>::new()
    );
    let whole = file.replace("return 1", "return 2");
    assert_eq!(
        edit_doubts(&apply(&write(&whole), Some(file)), file),
        Vec::<String>::new()
    );
}

#[test]
fn claude_deleting_a_line_takes_its_newline() {
    let done = apply(&claude_edit("b", "", false), Some("a\nb\nc\n"))
        .result
        .unwrap();
    assert_eq!(done.new_content, "a\nc\n");
    // Not when the text is not followed by a newline anywhere.
    let done = apply(&claude_edit("c", "", false), Some("a\nbc"))
        .result
        .unwrap();
    assert_eq!(done.new_content, "a\nb");
}

#[test]
fn claude_matches_crlf_files_with_lf_text_and_writes_crlf_back() {
    let out = apply(&claude_edit("a\nb", "x\ny", false), Some("a\r\nb\r\nc\r\n"));
    let done = out.result.unwrap();
    assert_eq!(done.new_content, "x\r\ny\r\nc\r\n");
    // The span is in the original's bytes.
    let span = out.block.original.unwrap();
    assert_eq!(
        (span.start, span.end, span.start_line, span.end_line),
        (0, 4, 1, 2)
    );
    let (a, b) = out.block.replacement_bytes.unwrap();
    assert_eq!(&done.new_content[a..b], "x\r\ny");
}

#[test]
fn claude_curly_quote_match_is_flagged_not_guessed() {
    let err = apply(
        &claude_edit("say(\"hi\")", "say(\"yo\")", false),
        Some("say(\u{201C}hi\u{201D})\n"),
    )
    .result
    .unwrap_err();
    assert_eq!(
        err,
        EditError::ClaudeQuoteNormalised {
            curly_in_file: true
        }
    );
    assert_eq!(err.provenance(), Provenance::Srview);
    assert!(err.to_string().starts_with(
        "old_string occurs in the file only with curly quotes where it has straight ones"
    ));
    // The other way round: the curly quotes are old_string's.
    let err = apply(
        &claude_edit("say(\u{201C}hi\u{201D})", "say(\u{201C}yo\u{201D})", false),
        Some("say(\"hi\")\n"),
    )
    .result
    .unwrap_err();
    assert!(err.to_string().starts_with(
        "old_string occurs in the file only with straight quotes where it has curly ones"
    ));
}

// ------------------------------------------------------------ Cline editor

const CALC: &str = "def add(a, b):\n    return a + b\n\n\ndef main():\n    print(add(2, 3))\n";

fn cline_edit(old: Option<&str>, new: Option<&str>, insert_line: Option<i64>) -> Edit {
    Edit::ClineEditor {
        path: "/home/user/project/calc.py".into(),
        old_text: old.map(str::to_string),
        new_text: new.map(str::to_string),
        insert_line,
    }
}

#[test]
fn cline_not_found_and_multiple_name_the_path() {
    let err = apply(&cline_edit(Some("add(2, 4)"), Some("x"), None), Some(CALC))
        .result
        .unwrap_err();
    assert_eq!(
        err.agent_message(),
        "Editor operation failed: No replacement performed: text not found in /home/user/project/calc.py."
    );
    let err = apply(&cline_edit(Some("add"), Some("x"), None), Some(CALC))
        .result
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "No replacement performed: multiple occurrences of text found in /home/user/project/calc.py."
    );
    assert_eq!(err.provenance(), Provenance::Source);
    // An empty old_text occurs nowhere.
    let err = apply(&cline_edit(Some(""), Some("x"), None), Some(CALC))
        .result
        .unwrap_err();
    assert!(matches!(err, EditError::ClineNotFound { .. }));
}

#[test]
fn cline_needs_old_text_on_an_existing_file_and_creates_a_missing_one() {
    let err = apply(&cline_edit(None, Some("x"), None), Some(CALC))
        .result
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Parameter `old_text` is required when editing an existing file without `insert_line`"
    );
    let out = apply(&cline_edit(None, Some("new\n"), None), None);
    assert_eq!(out.block.stage, Some(Stage::Empty));
    let done = out.result.unwrap();
    assert_wrote(&done, "new\n", Change::Created);
}

#[test]
fn cline_insert_line_is_a_one_based_boundary() {
    let at = |line| {
        apply(&cline_edit(None, Some("x"), Some(line)), Some("a\nb"))
            .result
            .map(|d| d.new_content)
    };
    assert_eq!(at(1).unwrap(), "x\na\nb");
    assert_eq!(at(2).unwrap(), "a\nx\nb");
    assert_eq!(at(3).unwrap(), "a\nb\nx");
    let err = at(4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid insert_line: 4. insert_line must be a positive one-based boundary line in the range 1-3. Use 3 to append at EOF."
    );
    assert!(at(0).is_err());
    // The block: an empty original range at the boundary, the new line placed.
    let out = apply(&cline_edit(None, Some("x"), Some(2)), Some("a\nb"));
    let span = out.block.original.unwrap();
    assert_eq!(
        (span.start, span.end, span.start_line, span.end_line),
        (2, 2, 2, 1)
    );
    let lines = out.block.replacement.unwrap();
    assert_eq!((lines.start_line, lines.end_line), (2, 2));
    assert_eq!(
        out.result.unwrap().agent_message.as_deref(),
        Some("Inserted content at line 2 in /home/user/project/calc.py.")
    );
    // On a missing file: Node's read error.
    let err = apply(&cline_edit(None, Some("x"), Some(1)), None)
        .result
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ENOENT: no such file or directory, open '/home/user/project/calc.py'"
    );
}

#[test]
fn cline_normalises_line_endings_to_the_files() {
    let out = apply(
        &cline_edit(Some("a\nb\n"), Some("x\ny\n"), None),
        Some("a\r\nb\r\nc\r\n"),
    );
    // The block shows the texts as matched and written.
    let span = out.block.original.unwrap();
    assert_eq!(
        ("a\r\nb\r\nc\r\n"[span.start..span.end]).to_string(),
        out.block.search_text
    );
    assert_eq!(out.block.replace_text, "x\r\ny\r\n");
    assert_eq!(out.result.unwrap().new_content, "x\r\ny\r\nc\r\n");
    let out = apply(&cline_edit(None, Some("x\r\ny"), Some(2)), Some("a\r\nb"));
    assert_eq!(out.result.unwrap().new_content, "a\r\nx\r\ny\r\nb");
}

// --------------------------------------------------------------- diagnosis

/// The recorded second edit of `scenario` (a `tool` call) run on the file
/// as it was before it: that content, and the edit's diagnosis.
fn second_edit_diagnosed(agent: &str, scenario: &str, tool: &str) -> (String, EditDiagnosis) {
    let fx = fixture(agent, scenario);
    let before = fx.expected.edits[1].content_before.clone().unwrap();
    let edit = Edit::from_tool_input(tool, &fx.calls[1].input.to_string()).unwrap();
    let d = apply(&edit, Some(&before)).diagnosis.unwrap();
    (before, d)
}

#[test]
fn a_typo_gets_its_region_and_a_corrected_edit_that_applies() {
    let (before, d) = second_edit_diagnosed(CLAUDE, "b_edit_nomatch", "Edit");
    let closest = d.closest.unwrap();
    assert_eq!((closest.start_line, closest.end_line), (5, 5));
    assert_eq!(d.reason, Some(Reason::Edited));
    let fixed = d.suggestion.clone().unwrap();
    assert_eq!(
        fixed,
        claude_edit(
            "LOW_STOCK = 5",
            "LOW_STOCK = 10  # raised after the Q3 review",
            false
        )
        .with_path("/home/user/project/inventory.py")
    );
    let done = apply(&fixed, Some(&before)).result.unwrap();
    assert!(
        done.new_content
            .contains("\nLOW_STOCK = 10  # raised after the Q3 review\n")
    );
    assert_contains(&d.message, "closest: line 5");
}

#[test]
fn the_cline_typo_gets_the_files_lines() {
    let (_, d) = second_edit_diagnosed(CLINE, "editor_fail", "editor");
    let Some(Edit::ClineEditor { old_text, .. }) = d.suggestion.clone() else {
        panic!("no suggestion: {}", d.message);
    };
    assert_eq!(
        old_text.as_deref(),
        Some("def main():\n    print(add(2, 3))\n    print(subtract(5, 1))\n")
    );
    assert!(!d.line_diff.is_empty());
}

#[test]
fn a_last_line_without_a_newline_can_be_the_region() {
    let file = "a = 1\nlimit = 20";
    let d = apply(&claude_edit("limt = 20", "limit = 40", false), Some(file))
        .diagnosis
        .unwrap();
    assert_eq!(
        d.suggestion,
        Some(claude_edit("limit = 20", "limit = 40", false).with_path("/p/inventory.py"))
    );
    // A stale value, not a misspelling: 40 was written from the 30 the
    // text remembers, not the file's 20; no corrected edit.
    let d = apply(&claude_edit("limit = 30", "limit = 40", false), Some(file))
        .diagnosis
        .unwrap();
    assert_eq!(d.suggestion, None, "{}", d.message);
    assert_contains(
        &d.message,
        "the edit changes it: what it should become cannot be told",
    );
    // A Cline text with its newline, against a CRLF file: the file's own bytes.
    let file = "a = 1\r\nlimit = 20\r\n";
    let out = apply(
        &cline_edit(Some("limt = 20\n"), Some("limit = 40\n"), None),
        Some(file),
    );
    let Some(Edit::ClineEditor { old_text, .. }) = out.diagnosis.unwrap().suggestion else {
        panic!("no suggestion");
    };
    assert_eq!(old_text.as_deref(), Some("limit = 20\r\n"));
}

#[test]
fn a_misindented_text_is_located_but_not_corrected() {
    // The new text carries the same wrong indentation: swapping in the
    // file's lines would write it misindented.
    let file = "def f():\n    if x:\n        return 1\n";
    let out = apply(
        &claude_edit(
            "    if x:\n      return 1",
            "    if x:\n      return 2",
            false,
        ),
        Some(file),
    );
    let d = out.diagnosis.unwrap();
    assert_eq!(d.reason, Some(Reason::Whitespace));
    let closest = d.closest.unwrap();
    assert_eq!((closest.start_line, closest.end_line), (2, 3));
    assert_eq!(d.suggestion, None);
    assert_contains(&d.message, "indented unlike file line 3");
}

#[test]
fn part_of_a_line_gets_no_corrected_edit() {
    // `old_string` is the middle of a line, with a typo: the region is the
    // whole line, which the new text was not written to replace.
    let file = "def total(items):\n    return sum(item.price * item.qty for item in items)\n";
    let out = apply(
        &claude_edit("item.pric * item.qty", "item.cost", false),
        Some(file),
    );
    let d = out.diagnosis.unwrap();
    assert_eq!(d.suggestion, None);
    assert_eq!(d.reason, Some(Reason::Edited));
    let closest = d.closest.unwrap();
    assert_eq!((closest.start_line, closest.end_line), (2, 2));
    assert!(closest.similarity > 0.9, "{closest:?}");
    assert_contains(&d.message, "part of line 2");
    assert_contains(&d.message, "\"item.price * item.qty\"");
    // Nothing alike anywhere: no region.
    let d = apply(&claude_edit("zzzz qqqq", "x", false), Some(file))
        .diagnosis
        .unwrap();
    assert_eq!((d.closest, d.suggestion), (None, None));
}

#[test]
fn errors_without_text_to_find_are_explained_by_the_error() {
    let out = apply(&claude_edit("x", "y", false), None);
    let d = out.diagnosis.unwrap();
    assert_eq!((d.reason, d.closest, d.suggestion), (None, None, None));
    assert_eq!(d.message, "File does not exist.");
}

// --------------------------------------------------------------- streaming

/// Every prefix (at char boundaries) of `json` parses, and each field known
/// at a prefix is a prefix of (or equal to) its final value.
fn every_prefix_is_a_prefix(tool: &str, json: &str) {
    let last = PartialEdit::parse(tool, json).unwrap();
    assert!(last.is_complete(), "{json}");
    let mut offsets: Vec<usize> = json.char_indices().map(|(i, _)| i).collect();
    offsets.push(json.len());
    let mut seen_streaming = false;
    for end in offsets {
        let p = PartialEdit::parse(tool, &json[..end])
            .unwrap_or_else(|e| panic!("prefix {end} of {json:?}: {e}"));
        for (now, fin) in [
            (&p.path, &last.path),
            (&p.old, &last.old),
            (&p.new, &last.new),
        ] {
            if let Some(now) = now {
                let fin = fin.as_deref().unwrap_or_else(|| panic!("{now:?} at {end}"));
                assert!(fin.starts_with(now.as_str()), "{now:?} / {fin:?} at {end}");
            }
        }
        if p.replace_all().is_some() {
            assert_eq!(p.replace_all(), last.replace_all());
        }
        if p.insert_line().is_some() {
            assert_eq!(p.insert_line(), last.insert_line());
        }
        seen_streaming |= matches!(p.streaming(), Some(Field::New));
        assert!(!p.is_complete() || end == json.len(), "complete at {end}");
    }
    assert!(seen_streaming || last.new.is_none(), "{json}");
}

#[test]
fn every_prefix_of_every_captured_input_parses() {
    let mut inputs = 0;
    for (agent, scenarios) in [(CLAUDE, &CLAUDE_SCENARIOS), (CLINE, &CLINE_SCENARIOS)] {
        for scenario in scenarios.iter() {
            for call in fixture(agent, scenario).calls {
                let json = if call.pieces.is_empty() {
                    call.input.to_string()
                } else {
                    call.pieces.concat()
                };
                every_prefix_is_a_prefix(&call.tool, &json);
                inputs += 1;
            }
        }
    }
    assert_eq!(inputs, 14);
}

#[test]
fn the_claude_pieces_show_each_field_as_it_arrives() {
    let call = &fixture(CLAUDE, "b_edit_nomatch").calls[0];
    let mut so_far = String::new();
    let mut streamed_old = Vec::new();
    for piece in &call.pieces {
        so_far.push_str(piece);
        let p = PartialEdit::parse("Edit", &so_far).unwrap();
        if p.streaming() == Some(&Field::Old) {
            streamed_old.push(p.old.clone().unwrap_or_default());
        }
    }
    // Several growing views of old_string while it streamed.
    assert!(streamed_old.len() >= 3, "{streamed_old:?}");
    assert!(streamed_old.windows(2).all(|w| w[1].starts_with(&w[0])));
    assert!(streamed_old.iter().any(|s| s.contains("\n    total =")));
}

#[test]
fn cut_escapes_are_dropped_until_complete() {
    let json =
        r#"{"file_path": "a", "old_string": "x\ud83d\ude00\u00e9\"\\\n", "new_string": "y"}"#;
    let full: serde_json::Value = serde_json::from_str(json).unwrap();
    let last = PartialEdit::parse("Edit", json).unwrap();
    assert_eq!(last.old.as_deref(), full["old_string"].as_str());
    every_prefix_is_a_prefix("Edit", json);
    let cut = |s: &str| PartialEdit::parse("Edit", s).unwrap().old;
    assert_eq!(cut(r#"{"old_string": "x\ud83d"#).as_deref(), Some("x"));
    assert_eq!(cut(r#"{"old_string": "x\ud83d\u"#).as_deref(), Some("x"));
    assert_eq!(cut(r#"{"old_string": "x\ud83d\ude0"#).as_deref(), Some("x"));
    assert_eq!(
        cut(r#"{"old_string": "x\ud83d\ude00"#).as_deref(),
        Some("x\u{1F600}")
    );
    assert_eq!(cut(r#"{"old_string": "x\"#).as_deref(), Some("x"));
    assert_eq!(cut(r#"{"old_string": "x\u00"#).as_deref(), Some("x"));
}

#[test]
fn a_prefix_reports_the_field_still_streaming() {
    let p = PartialEdit::parse("editor", r#"{"path": "/a", "old_text": "ab"#).unwrap();
    assert_eq!(p.tool, Tool::Editor);
    assert_eq!(
        (p.path.as_deref(), p.old.as_deref()),
        (Some("/a"), Some("ab"))
    );
    assert_eq!(p.streaming(), Some(&Field::Old));
    let p = PartialEdit::parse("editor", r#"{"path": "/a", "insert_line": 1"#).unwrap();
    // A number may still grow.
    assert_eq!(
        (p.insert_line(), p.streaming()),
        (None, Some(&Field::InsertLine))
    );
    let p = PartialEdit::parse("editor", r#"{"path": "/a", "insert_line": 12,"#).unwrap();
    assert_eq!((p.insert_line(), p.streaming()), (Some(12), None));
    let p = PartialEdit::parse("Edit", r#"{"replace_all": tr"#).unwrap();
    assert_eq!(
        (p.replace_all(), p.streaming()),
        (None, Some(&Field::ReplaceAll))
    );
    let p = PartialEdit::parse("Edit", r#"{"file_pa"#).unwrap();
    assert_eq!((p.path.as_deref(), p.streaming()), (None, None));
}

#[test]
fn text_that_is_not_an_object_prefix_is_an_error_not_a_panic() {
    for bad in [
        "[1]",
        "{\"a\" 1}",
        "{\"a\": 1 \"b\"}",
        "{\"a\": \"x\\q\"}",
        "{\"a\": \"\\udc00\"}",
        "{\"a\": \"\\ud83dx\"}",
        "{\"a\": tru }",
        "{\"a\": 1}x",
        "{\"a\": \"line\nbreak\"}",
    ] {
        assert!(parse_prefix(bad).is_err(), "{bad:?}");
        assert!(PartialEdit::parse("Edit", bad).is_err(), "{bad:?}");
    }
    assert!(PartialEdit::parse("Bash", "{}").is_err());
    // Nested values are skipped, strings inside them included.
    let o = parse_prefix(r#"{"a": {"b": ["}", 2]}, "c": "d"}"#).unwrap();
    assert_eq!(o.get("a"), Some(&Value::Other));
    assert_eq!(o.str("c"), Some("d"));
    assert!(o.complete);
}

/// Streams every captured Claude Code call piece by piece through
/// `preview`: the states only move forward (search-streaming, then
/// replace-streaming or failed, then the final verdict), a replace-streaming
/// content is the final content's start up to the new text so far, and the
/// last preview is the one-shot apply.
#[test]
fn previews_follow_the_captured_streams_to_the_one_shot_result() {
    let rank = |s: BlockState| match s {
        BlockState::SearchStreaming => 0,
        BlockState::ReplaceStreaming => 1,
        _ => 2,
    };
    let mut seen = [0usize; 3];
    for scenario in CLAUDE_SCENARIOS {
        let fx = fixture(CLAUDE, scenario);
        for (i, (call, want)) in fx.calls.iter().zip(&fx.expected.edits).enumerate() {
            let before = want.content_before.as_deref();
            let mut so_far = String::new();
            let mut last_rank = 0;
            let mut last = None;
            for piece in &call.pieces {
                so_far.push_str(piece);
                let p = PartialEdit::parse(&call.tool, &so_far).unwrap();
                let view = preview(i, &p, before);
                let r = rank(view.block.state);
                assert!(
                    r >= last_rank,
                    "{scenario}: {:?} after rank {last_rank}",
                    view.block.state
                );
                last_rank = r;
                seen[r] += 1;
                if view.block.state == BlockState::ReplaceStreaming {
                    let now = view.new_content.as_deref().unwrap();
                    let (a, b) = view.block.replacement_bytes.unwrap();
                    let fin = want.content_after.as_deref().unwrap();
                    assert!(fin.starts_with(&now[..b]), "{scenario}: {:?}", &now[a..b]);
                }
                if view.block.state == BlockState::Failed {
                    assert_eq!(
                        view.error.as_ref().map(EditError::agent_message),
                        want.agent_message
                    );
                }
                last = Some(view);
            }
            let last = last.unwrap();
            let one_shot = apply_at(
                i,
                &Edit::from_tool_input(&call.tool, &so_far).unwrap(),
                before,
            );
            assert_eq!(last.block, one_shot.block, "{scenario}");
            assert_eq!(
                last.new_content,
                one_shot.result.as_ref().ok().map(|d| d.new_content.clone())
            );
        }
    }
    // Each stage was seen on the way.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

#[test]
fn a_second_match_waits_for_replace_all_while_streaming() {
    let file = "x\nx\n";
    let p = PartialEdit::parse(
        "Edit",
        r#"{"file_path": "/f", "old_string": "x", "new_string": "y"#,
    )
    .unwrap();
    let view = preview(0, &p, Some(file));
    assert_eq!(
        (view.block.state, view.error),
        (BlockState::SearchStreaming, None)
    );
    let p = PartialEdit::parse(
        "Edit",
        r#"{"file_path": "/f", "old_string": "x", "new_string": "y", "replace_all": true"#,
    )
    .unwrap();
    let view = preview(0, &p, Some(file));
    assert_eq!(view.block.state, BlockState::ReplaceStreaming);
    assert_eq!(view.new_content.as_deref(), Some("y\ny\n"));
    let p = PartialEdit::parse(
        "Edit",
        r#"{"file_path": "/f", "old_string": "x", "new_string": "y"}"#,
    )
    .unwrap();
    let view = preview(0, &p, Some(file));
    assert_eq!(view.block.state, BlockState::Failed);
    assert!(matches!(
        view.error,
        Some(EditError::ClaudeAmbiguous { count: 2, .. })
    ));
}

/// `s` as a JSON string with every non-ASCII character as `\uXXXX`
/// (surrogate pairs beyond the BMP), the way some encoders write it.
fn ascii_json(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{u:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Any strings, in serde_json's encoding and in an all-ASCII one: every
    /// prefix parses without panic to prefixes of the values, and the whole
    /// input to exactly what serde_json reads.
    #[test]
    fn every_prefix_of_any_input_parses(
        path in "\\PC{0,12}",
        old in "(\\PC|[\\n\\t\\r\"\\\\\u{1}\u{1F600}])*",
        new in "(\\PC|[\\n\"\\\\\u{10FFFF}])*",
    ) {
        let (old, new): (String, String) = (old.chars().take(30).collect(), new.chars().take(30).collect());
        let plain = serde_json::json!({"file_path": path, "old_string": old, "new_string": new}).to_string();
        let ascii = format!(
            "{{\"file_path\": {}, \"old_string\": {}, \"new_string\": {}}}",
            ascii_json(&path), ascii_json(&old), ascii_json(&new)
        );
        for json in [plain, ascii] {
            every_prefix_is_a_prefix("Edit", &json);
            let p = PartialEdit::parse("Edit", &json).unwrap();
            proptest::prop_assert_eq!(p.path.as_deref(), Some(path.as_str()));
            proptest::prop_assert_eq!(p.old.as_deref(), Some(old.as_str()));
            proptest::prop_assert_eq!(p.new.as_deref(), Some(new.as_str()));
        }
    }

    /// Any text made of JSON's punctuation, escapes and other characters:
    /// an answer or a typed error, never a panic; and an answer for a
    /// complete text agrees with serde_json on whether it is JSON.
    #[test]
    fn any_text_reads_without_panic(text in "\\{[{}\\[\\]\":,\\\\ nutrfalse0-9.eE+\\-\\PC]{0,40}") {
        if let Ok(o) = parse_prefix(&text)
            && o.complete
        {
            proptest::prop_assert!(serde_json::from_str::<serde_json::Value>(&text).is_ok(), "{text:?}");
        }
    }
}

#[test]
fn inputs_that_are_not_edits_are_typed_errors() {
    let err =
        Edit::from_tool_input("Edit", r#"{"file_path": "a", "new_string": "b"}"#).unwrap_err();
    assert!(
        err.to_string().contains("missing field `old_string`"),
        "{err}"
    );
    let err = Edit::from_tool_input(
        "editor",
        r#"{"path": "a", "new_text": "b", "insert_line": 1.5}"#,
    )
    .unwrap_err();
    assert!(
        err.to_string().starts_with("invalid editor tool input"),
        "{err}"
    );
    let err = Edit::from_tool_input("Bash", "{}").unwrap_err();
    assert_eq!(
        err.to_string(),
        "unknown edit tool \"Bash\" (expected Edit, Write or editor)"
    );
    // replace_all may be absent or null: false.
    let e = Edit::from_tool_input(
        "Edit",
        r#"{"file_path": "a", "old_string": "b", "new_string": "c", "replace_all": null}"#,
    )
    .unwrap();
    assert_eq!(
        e,
        Edit::ClaudeEdit {
            file_path: "a".into(),
            old_string: "b".into(),
            new_string: "c".into(),
            replace_all: false
        }
    );
}

#[test]
fn the_json_report_carries_the_block_and_the_agents_words() {
    let fx = fixture(CLINE, "editor_fail");
    let before = fx.expected.edits[1].content_before.clone().unwrap();
    let edit = Edit::from_tool_input("editor", &fx.calls[1].input.to_string()).unwrap();
    let out = apply_at(1, &edit, Some(&before));
    let json = serde_json::to_value(out.report()).unwrap();
    assert_eq!(json["tool"], "editor");
    assert_eq!(json["block"]["state"], "failed");
    assert_eq!(json["block"]["index"], 1);
    assert_eq!(
        json["agentMessage"],
        fx.expected.edits[1].agent_message.clone().unwrap().as_str()
    );
    assert_eq!(json["provenance"], "captured");
    assert_eq!(json["change"], serde_json::Value::Null);
    assert_eq!(json["diagnosis"]["suggestion"]["tool"], "editor");
    // def main() and its two prints.
    assert_eq!(json["diagnosis"]["closest"]["startLine"], 10);
    assert_eq!(json["diagnosis"]["closest"]["endLine"], 12);
}

/// The rules that withhold a SEARCH/REPLACE suggestion withhold the
/// corrected edit too, and since the edit's new text is written as it is,
/// a damaged line it keeps is never written back over the file's own.
#[test]
fn no_corrected_edit_that_would_write_damage_back() {
    let file = "def summarize(orders):\n    total_amount = 0\n    for o in orders:\n        total_amount += o.price * o.qty\n    return total_amount\n";
    // (old_string, new_string, why no corrected edit is offered)
    let rewrites_the_stale_line = (
        "    for o in orders:\n        total += o.price * o.qty\n",
        "    for o in orders:\n        total += o.price * o.qty * (1 - o.discount)\n",
        "No corrected edit: line 4 of the file differs from SEARCH line 2 in more than white space and the edit's new text keeps `total`",
    );
    let keeps_the_stale_line = (
        "        total += o.price * o.qty\n    return total_amount\n",
        "        total += o.price * o.qty\n    return round(total_amount, 2)\n",
        "No corrected edit: line 1 of the text differs from file line 4 in more than white space, and the new text keeps it as written",
    );
    for (old, new, why) in [rewrites_the_stale_line, keeps_the_stale_line] {
        let d = apply(&claude_edit(old, new, false), Some(file))
            .diagnosis
            .expect("diagnosed");
        assert_eq!(d.suggestion, None, "{}", d.message);
        assert_contains(&d.message, why);
    }
}
