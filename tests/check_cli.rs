//! `srview check`: exit codes, JSON shape, plain text without a terminal.

use serde_json::Value;

mod support;

use support::runner;
use support::samples::RETURNS_PY;
use support::text::{assert_contains, assert_ends_with, assert_starts_with};

/// Exit status and stdout.
fn srview(args: &[&str]) -> (i32, String) {
    let (code, out, _) = srview_all(args);
    (code, out)
}

fn files(diff: &str) -> (tempfile::TempDir, String, String) {
    let a_rs = "fn a() {\n    one();\n}\n\nfn b() {\n    two();\n}\n";
    files_of(("a.rs", a_rs), ("d.diff", diff))
}

/// A new folder holding the file `(name, content)` and the diff
/// `(diff_name, diff)` ([`file_and_diff`]): the folder and both paths.
fn files_of(file: (&str, &str), diff: (&str, &str)) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (file, d) = file_and_diff(dir.path(), file, diff);
    (dir, file, d)
}

/// Writes `dir/NAME` holding `content`: its path, as an argument.
fn file_in(dir: &std::path::Path, name: &str, content: &str) -> String {
    let file = support::files::write(dir, name, content.as_bytes());
    file.display().to_string()
}

/// Writes `dir/NAME` holding `content` and `dir/DIFF_NAME` holding `diff`:
/// their paths, as arguments.
fn file_and_diff(
    dir: &std::path::Path,
    (name, content): (&str, &str),
    (diff_name, diff): (&str, &str),
) -> (String, String) {
    (file_in(dir, name, content), file_in(dir, diff_name, diff))
}

const GOOD: &str = "------- SEARCH\n    one();\n=======\n    uno();\n+++++++ REPLACE\n";
/// Block #1 has a typo in a line it keeps (meant for lines 1-2); block #2,
/// after it in the file, is fine on its own.
const BAD: &str = "------- SEARCH\nfn aa() {\n    one();\n=======\nfn aa() {\n    uno();\n+++++++ REPLACE\n------- SEARCH\n    two();\n=======\n    dos();\n+++++++ REPLACE\n";

#[test]
fn exit_zero_when_the_diff_applies() {
    let (_d, file, diff) = files(GOOD);
    let (code, out) = srview(&["check", &file, &diff]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains('\x1b'), "no colour without a terminal");
    assert!(
        out.ends_with("\n1 block, the diff applies\n"),
        "no \"(0 with warnings)\": {out}"
    );
}

#[test]
fn json_lists_every_block_with_reason_and_region() {
    let (_d, file, diff) = files(BAD);
    let (code, out) = srview(&["check", &file, &diff, "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("one JSON object");
    assert_eq!(v["ok"], false);
    let blocks = v["blocks"].as_array().expect("blocks");
    assert_eq!(blocks.len(), 2, "the block after the failure is listed too");
    let first = &blocks[0];
    for key in [
        "index",
        "state",
        "stage",
        "outOfOrder",
        "reason",
        "closest",
        "differences",
        "message",
        "suggestion",
    ] {
        assert!(first.get(key).is_some(), "missing {key}");
    }
    assert_eq!(first["state"], "failed");
    assert_eq!(first["reason"], "edited");
    assert_eq!(first["closest"]["startLine"], 1);
    assert_eq!(first["closest"]["endLine"], 2);
    assert!(
        first["suggestion"]
            .as_str()
            .expect("suggestion")
            .contains("fn a() {\n    one();\n=======\nfn a() {\n    uno();\n")
    );
    assert_eq!(blocks[1]["state"], "not-reached");
    assert_eq!(blocks[1]["reason"], Value::Null);
    assert_eq!(blocks[1]["closest"], Value::Null);
}

/// Exit status, stdout and stderr.
fn srview_all(args: &[&str]) -> (i32, String, String) {
    let out = runner::srview(args).env("NO_COLOR", "1").output();
    (
        out.status.code().unwrap_or(-1),
        runner::stdout(&out),
        runner::stderr(&out),
    )
}

/// `check` of `file` and `diff`, which exits `code`: its stdout, which
/// the failure shows with both paths.
#[track_caller]
fn checked(file: &str, diff: &str, code: i32) -> String {
    let (check, out) = srview(&["check", file, diff]);
    assert_eq!(check, code, "{file} {diff}: {out}");
    out
}

/// `check --suggest` of `file` and `diff`: exit 1 and exactly `want` on
/// stdout (empty: nothing suggested); what it said on stderr, which each
/// failure shows.
#[track_caller]
fn check_suggests(file: &str, diff: &str, want: &str) -> String {
    let (code, out, err) = srview_all(&["check", file, diff, "--suggest"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(out, want, "{err}");
    err
}

/// `check --json` of `file` and `diff`: block `n` has no suggestion, and
/// its message ends with `ending`.
#[track_caller]
fn assert_json_gives_no_suggestion(file: &str, diff: &str, n: usize, ending: &str) {
    let (_, json) = srview(&["check", file, diff, "--json"]);
    let v: Value = serde_json::from_str(&json).expect("json");
    assert_eq!(v["blocks"][n]["suggestion"], Value::Null, "{json}");
    assert!(
        v["blocks"][n]["message"]
            .as_str()
            .is_some_and(|m| m.ends_with(ending)),
        "{json}"
    );
}

#[test]
fn text_output_reads_like_a_compiler_error() {
    let (_d, file, diff) = files(BAD);
    // Without --suggest the report is stdout's.
    let (code, out) = srview(&["check", &file, &diff]);
    assert_eq!(code, 1);
    assert_contains(&out, "error[edited]");
    assert_contains(
        &out,
        "engine: block #1: SEARCH text does not match anything in the file\n",
    );
    // With --suggest into a pipe, the report goes to stderr.
    let (code, blocks, out) = srview_all(&["check", &file, &diff, "--suggest"]);
    assert_eq!(code, 1);
    assert!(!blocks.contains("error["), "{blocks}");
    assert!(out.contains(&format!("{file}:1")), "{out}");
    assert_contains(&out, "error[edited]");
    assert!(
        out.contains("- fn aa() {") && out.contains("+ fn a() {"),
        "{out}"
    );
    assert_eq!(
        blocks,
        "------- SEARCH\nfn a() {\n    one();\n=======\nfn a() {\n    uno();\n+++++++ REPLACE\n"
    );
    assert_contains(
        &out,
        "engine: block #1: SEARCH text does not match anything in the file\n",
    );
    assert_contains(
        &out,
        "block #2: no suggestion needed (it matches exactly on its own)\n",
    );
}

/// `check --suggest > fixed.diff`: stdout is the suggested blocks and
/// nothing else (no report, no `# suggested block` headers, no engine
/// verdict), so it parses as a diff whose blocks are the suggestions.
#[test]
fn suggest_into_a_pipe_prints_only_the_suggested_blocks() {
    let no_place = "------- SEARCH\nThe quick brown fox jumps over the lazy dog\nwhile seven wizards quietly juggle umbrellas\n=======\nx\n+++++++ REPLACE\n";
    let (_d, file, diff) = files(&format!("{BAD}{no_place}"));
    let (code, json, _) = srview_all(&["check", &file, &diff, "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&json).expect("json");
    let suggested: String = v["blocks"]
        .as_array()
        .expect("blocks")
        .iter()
        .filter_map(|b| b["suggestion"].as_str())
        .collect();
    assert!(!suggested.is_empty());
    let (code, out, err) = srview_all(&["check", &file, &diff, "--suggest"]);
    assert_eq!(code, 1);
    assert_eq!(out, suggested, "stdout is the suggestions, nothing else");
    let original = std::fs::read_to_string(&file).expect("read");
    let outcome = srview::engine::apply(&out, &original, srview::engine::Options::default());
    assert_eq!(outcome.blocks.len(), 1, "one block parsed: {out}");
    assert_eq!(outcome.blocks[0].stage, Some(srview::engine::Stage::Exact));
    for line in [
        "error[edited]",
        "engine: block #1: SEARCH text does not match anything in the file",
        "block #3: no suggestion (no similar region in the file)",
    ] {
        assert!(err.contains(line), "stderr lacks {line:?}: {err}");
    }
}

#[test]
fn a_diff_without_blocks_has_nothing_to_check_and_exits_1() {
    for (diff, json) in [("", false), ("Here is the change.\n", false), ("", true)] {
        let (_d, file, d) = files(diff);
        let mut args = vec!["check", &file, &d];
        if json {
            args.push("--json");
        }
        let (code, out, err) = srview_all(&args);
        assert_eq!(code, 1, "nothing was checked: {err}");
        if json {
            assert_eq!(
                err,
                format!(
                    "srview: warning: no SEARCH/REPLACE block found in {d}: nothing to check\n"
                )
            );
            let v: Value = serde_json::from_str(&out).expect("json");
            assert_eq!(v["blocks"], Value::Array(Vec::new()));
            assert_eq!(v["ok"], false, "as the exit status says");
        } else {
            assert_eq!(out, "no SEARCH/REPLACE block found: nothing to check\n");
            assert_eq!(err, "");
        }
    }
}

#[test]
fn exit_two_for_usage_and_io_errors() {
    let (code, _) = srview(&["check", "/nonexistent/file.rs", "/nonexistent/d"]);
    assert_eq!(code, 2);
    let (code, _) = srview(&["check"]);
    assert_eq!(code, 2);
}

#[test]
fn fix_model_output_unescapes_before_checking() {
    let (_d, file, diff) = files(
        "------- SEARCH\nfn a() {\n    one();\n=======\nfn a() -&gt; u8 {\n    one();\n+++++++ REPLACE\n",
    );
    assert_eq!(srview(&["check", &file, &diff, "--fix-model-output"]).0, 0);
    let (_d, file, diff) =
        files("------- SEARCH\n    one() &amp;&amp; 1;\n=======\nx\n+++++++ REPLACE\n");
    let (code, out) = srview(&["check", &file, &diff, "--engine", "v2", "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("json");
    assert!(v["blocks"][0]["reason"].is_string());
}

/// The summary counts in words: `1 block`, `1 needs attention`.
#[test]
fn summary_agrees_with_its_numbers() {
    let (_d, file, diff) = files(GOOD);
    let (_, out) = srview(&["check", &file, &diff]);
    assert_contains(&out, "1 block, the diff applies");
    let one_bad = BAD
        .split_inclusive("+++++++ REPLACE\n")
        .next()
        .unwrap_or(BAD);
    let (_d, file, diff) = files(one_bad);
    let (_, out) = srview(&["check", &file, &diff]);
    assert_contains(&out, "1 block, the diff does not apply (1 needs attention)");
    let (_d, file, diff) = files(BAD);
    let (_, out) = srview(&["check", &file, &diff]);
    assert_contains(&out, "2 blocks, the diff does not apply (2 need attention)");
}

/// A block with no similar region is not pointed at line 1: the location
/// names the file alone.
#[test]
fn a_block_without_a_region_names_no_line() {
    let (_d, file, diff) = files(
        "------- SEARCH\nThe committee deliberated about the budget\nwhile nobody remembered the notes\n=======\nx\n+++++++ REPLACE\n",
    );
    let (code, out) = srview(&["check", &file, &diff]);
    assert_eq!(code, 1);
    assert_contains(&out, "error[not-found]");
    assert!(
        out.contains(&format!("--> {file}  (diff lines 1-6)")),
        "{out}"
    );
    assert!(!out.contains(&format!("{file}:1")), "{out}");
}

/// A CRLF diff against an LF file: its markers end in `\r`, the reference
/// finds no block and changes nothing. That is not "the diff applies".
#[test]
fn a_diff_that_takes_no_effect_does_not_pass() {
    let (_d, file, diff) = files(&GOOD.replace('\n', "\r\n"));
    let (code, out) = srview(&["check", &file, &diff]);
    assert_eq!(code, 1, "{out}");
    assert_contains(&out, "never took effect");
    assert_contains(&out, "the diff does not apply");
    // The CRLF SEARCH line and its LF file line do not print alike.
    assert_contains(&out, "-     one();\u{240D}\n");
}

/// A Markdown underline in a block reads as a second separator: the
/// reference applies the block, but not as it reads. `check` fails it and
/// names the cause; no suggestion quotes the underline.
#[test]
fn a_block_that_applies_malformed_does_not_pass() {
    let (_dir, file, diff) = files_of(
        (
            "README.md",
            "Project Title\n=============\n\nSome intro text.\n",
        ),
        (
            "d.diff",
            "------- SEARCH\nProject Title\n=============\n\nSome intro text.\n=======\nProject Title\n=============\n\nSome better intro text.\n+++++++ REPLACE\n",
        ),
    );
    let (code, out) = srview(&["check", &file, &diff, "--json"]);
    assert_eq!(code, 1, "{out}");
    let v: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["ok"], false);
    assert_eq!(v["blocks"][0]["reason"], "structure");
    assert_eq!(v["blocks"][0]["suggestion"], Value::Null);
    let (_, text) = srview(&["check", &file, &diff]);
    assert_starts_with(&text, "error[structure]");
    assert_contains(&text, "Markdown or reST underline");
}

/// A diff cut off inside its last REPLACE section: the reference (v1)
/// applies the REPLACE lines that are there. `check` fails it, says the
/// diff may be cut off, and suggests nothing; `apply` warns on stderr.
#[test]
fn a_cut_off_diff_does_not_pass() {
    let cut = "------- SEARCH\n    one();\n=======\n    un";
    let (_d, file, diff) = files(cut);
    let (code, out) = srview(&["check", &file, &diff]);
    assert_eq!(code, 1, "{out}");
    assert_contains(&out, "error[structure]");
    assert_contains(&out, "is the diff cut off?");
    assert_contains(&out, "the diff applies but not as it reads");
    let (_, json, _) = srview_all(&["check", &file, &diff, "--json"]);
    assert_contains(&json, "\"suggestion\":null");
    let (code, _, err) = srview_all(&["apply", &file, &diff]);
    assert_eq!(code, 0, "the reference applies it");
    assert_contains(
        &err,
        "block #1 has no +++++++ REPLACE end marker (is the diff cut off?)",
    );
}

/// A block-anchor match at other lines than the ones the SEARCH text is
/// closest to: the reference's edit lands at the wrong place. `check`
/// fails it; `apply` applies it (the reference does) and warns.
#[test]
fn a_misplaced_edit_does_not_pass() {
    let (_dir, file, diff) = files_of(
        (
            "h.py",
            "def a():\n    x = 1\n    y = 2\n    return x\n\ndef b():\n    x = 1\n    z = 99\n    return x\n",
        ),
        (
            "d.diff",
            "------- SEARCH\ndef b():\n    x = 1\n    y = 2\n    return x\n=======\ndef b():\n    x = 1\n    y = 3\n    return x\n+++++++ REPLACE\n",
        ),
    );
    let (code, out) = srview(&["check", &file, &diff]);
    assert_contains(&out, "wrong place");
    assert_eq!(code, 1, "{out}");
    let (code, _, err) = srview_all(&["apply", &file, &diff]);
    assert_eq!(code, 0);
    assert_contains(&err, "block-anchor");
}

/// A block whose region an earlier block edits gets no suggestion, as
/// `fix` places no correction there: after the earlier block's edit the
/// region is no longer as quoted.
#[test]
fn no_suggestion_for_a_region_an_earlier_block_edits() {
    let (_dir, file, d) = files_of(
        ("dup.py", "x = 1\ny = 2\nz = 3\n"),
        (
            "dup.diff",
            "------- SEARCH\ny = 2\n=======\ny = 20\n+++++++ REPLACE\n------- SEARCH\ny  = 2\n=======\ny = 200\n+++++++ REPLACE\n",
        ),
    );
    // Nothing suggested.
    let err = check_suggests(&file, &d, "");
    let why = "block #1 edits line 2 too, so after it the region is no longer as quoted";
    assert!(
        err.contains(&format!("block #2: no suggestion ({why})")),
        "{err}"
    );
    assert_json_gives_no_suggestion(&file, &d, 1, &format!("No suggestion: {why}."));
}

/// A tester's find (37c-02): in a tab-indented Python file holding a
/// string over several lines, a block written with 4 spaces for a tab got
/// a suggestion writing a new line with the string's spaces under a tab
/// (Python: TabError), while `fix` withheld the same correction. The
/// string's lines, spaced as the file has them, no longer teach the
/// indentation: the new line goes two tabs deep, as `fix` writes it.
#[test]
fn a_string_over_several_lines_does_not_teach_the_code_indentation() {
    let (_dir, file, d) = files_of(
        (
            "u.py",
            "def usage():\n\ttext = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n\treturn text\n",
        ),
        (
            "a.diff",
            "------- SEARCH\ndef usage():\n    text = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n    return text\n=======\ndef usage():\n    text = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n    if not text:\n        text = \"?\"\n    return text\n+++++++ REPLACE\n",
        ),
    );
    let out = "------- SEARCH\ndef usage():\n\ttext = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n\treturn text\n=======\ndef usage():\n\ttext = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n\tif not text:\n\t\ttext = \"?\"\n\treturn text\n+++++++ REPLACE\n";
    check_suggests(&file, &d, out);
    let (fix, fixed, fix_err) = srview_all(&["fix", &file, &d]);
    assert_eq!((fix, fixed.as_str()), (0, out), "{fix_err}");
}

/// The same find where the SEARCH text spaces the string otherwise than
/// the file: the suggestion still misindents, and `fix` withholds it. No
/// suggestion then, as text, into a pipe and as JSON, with the sentence
/// `fix` withholds its correction with; the diff as sent is not blamed.
#[test]
fn no_suggestion_where_fix_withholds_a_correction_that_misindents() {
    let (_dir, file, d) = files_of(
        (
            "u.py",
            "def usage():\n\ttext = \"\"\"\n        tool [flags] FILE\n        \"\"\"\n\treturn text\n",
        ),
        (
            "b.diff",
            "------- SEARCH\ndef usage():\n    text = \"\"\"\n            tool [flags] FILE\n            \"\"\"\n    return text\n=======\ndef usage():\n    text = \"\"\"\n            tool [flags] FILE\n            \"\"\"\n    if not text:\n            text = \"?\"\n    return text\n+++++++ REPLACE\n",
        ),
    );
    let why = "srview's correction leaves u.py misindented: as written, line 6 (`text = \"?\"`) \
               mixes tabs and spaces against the lines of its block: its depth depends on how \
               wide a tab is: Python refuses the file (TabError: inconsistent use of tabs and \
               spaces in indentation): the diff as sent leaves no such fault, so the fault is \
               the correction's and the correction is withheld";
    // Nothing suggested.
    let err = check_suggests(&file, &d, "");
    assert_contains(&err, &format!("\nblock #1: no suggestion ({why})\n"));
    let (fix, _, fix_err) = srview_all(&["fix", &file, &d]);
    assert_eq!(fix, 1, "{fix_err}");
    assert_eq!(
        fix_err,
        format!("srview: the corrected diff is in doubt: {why}\n"),
        "fix withholds it with the same sentence"
    );
    assert_json_gives_no_suggestion(&file, &d, 0, &format!(" No suggestion: {why}."));
}

/// The three damaging edits of issue 27 through the binary: `check` exits
/// 1 and says what the edit does, `apply --write` holds the result back
/// (the file untouched, `--force` writes the reference's result), `fix`
/// offers the re-indented block or keeps the block it cannot stand behind.
#[test]
fn damaging_edits_are_errors_held_back_and_not_merged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let textwrap =
        std::fs::read_to_string("tests/fixtures/trust/textwrap.py.txt").expect("fixture");
    let shallow = |edit: &str| -> String {
        let start = textwrap
            .lines()
            .position(|l| l == "    def fill(self, text):")
            .expect("TextWrapper.fill");
        let lines: Vec<String> = textwrap
            .lines()
            .skip(start)
            .take(8)
            .map(|l| l.get(4.min(l.len())..).unwrap_or("").to_string())
            .collect();
        let mut text = lines.join("\n") + "\n";
        if !edit.is_empty() {
            text = text.replace("self.wrap(text))\n", &format!("self.wrap(text)){edit}\n"));
        }
        text
    };
    let cases = [
        (
            "textwrap.py",
            textwrap.clone(),
            format!(
                "------- SEARCH\n{}=======\n{}+++++++ REPLACE\n",
                shallow(""),
                shallow(" + \"\\n\"")
            ),
            "the new lines are 4 columns left of the lines they replace",
        ),
        (
            "app.py",
            "def main():\n    load()\n    run()\n    save()\n".to_string(),
            "------- SEARCH\n    load()\n    run()\n=======\n    load()\n    run()\n    save()\n+++++++ REPLACE\n"
                .to_string(),
            "the REPLACE text is already there (lines 2-4): this looks applied already",
        ),
    ];
    for (name, content, diff, says) in &cases {
        let (file, d) = file_and_diff(dir.path(), (name, content), (&format!("{name}.diff"), diff));
        let (code, out, _) = srview_all(&["check", &file, &d]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains(says), "{out}");
        let (code, _, err) = srview_all(&["apply", &file, &d, "--write"]);
        assert_eq!(code, 1, "{err}");
        assert!(
            err.contains("was not written") && err.contains(says),
            "{err}"
        );
        assert_eq!(&std::fs::read_to_string(&file).expect("read"), content);
        let (code, _, err) = srview_all(&["apply", &file, &d, "--write", "--force"]);
        assert_eq!(code, 0, "{err}");
        assert_ne!(&std::fs::read_to_string(&file).expect("read"), content);
        std::fs::write(&file, content).expect("write");
        let (code, fixed, _) = srview_all(&["fix", &file, &d]);
        if *name == "textwrap.py" {
            assert_eq!(code, 0);
            assert!(
                fixed.contains("=======\n    def fill(self, text):\n"),
                "re-indented: {fixed}"
            );
        } else {
            assert_eq!(code, 1, "kept as written");
            assert_eq!(&fixed, diff);
        }
    }
    // Two changes inside one line: no merged line, `fix` keeps the block.
    let diff = "------- SEARCH\n        return result\n=======\n        return result + OFFSET\n+++++++ REPLACE\n";
    let (file, d) = file_and_diff(
        dir.path(),
        (
            "calc.py",
            "class Calc:\n    def total(self, result):\n        return result.round(2)\n",
        ),
        ("calc.diff", diff),
    );
    let (code, fixed, err) = srview_all(&["fix", &file, &d]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(fixed, diff);
    assert!(!fixed.contains("OFFSET.round"));
    assert_contains(&err, "the SEARCH text is only part of line 3");
    let (code, out) = srview(&["check", &file, &d, "--json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["blocks"][0]["suggestion"], Value::Null);
}

/// `check` and `apply --write` agree on the exit status: a SEARCH text the
/// file holds twice applies, `--write` holds it back, and `check` exits 1
/// saying so.
#[test]
fn check_exits_as_apply_write_does() {
    let (_dir, file, d) = files_of(
        ("f.py", "if x:\n    y = 1\nif z:\n    y = 1\n"),
        (
            "d.diff",
            "------- SEARCH\ny = 1\n=======\ny = 2\n+++++++ REPLACE\n",
        ),
    );
    let (check, out) = srview(&["check", &file, &d]);
    let (write, _, _) = srview_all(&["apply", &file, &d, "--write"]);
    assert_eq!((check, write), (1, 1), "{out}");
    assert_ends_with(
        &out,
        "1 block, the diff applies, but `apply --write` holds it back (1 needs attention)\n",
    );
    assert!(out.contains(
        "held back: block #1 matched at line 2, and its SEARCH text occurs again at line 4"
    ));
}

/// A tab-indented Python file and an exact edit adding a line indented
/// with spaces: Python refuses the result (TabError), so `check` exits 1
/// and `apply --write` holds it back, as edit JSON and as a patch (they
/// said "applies" and wrote it).
#[test]
fn spaces_in_a_tab_indented_python_file_are_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = "def f(x):\n\tif x > 0:\n\t\tx = x + 1\n\t\tlog(x)\n\treturn x\n";
    let file = file_in(dir.path(), "t.py", original);
    let edit = support::files::write(
        dir.path(),
        "e.json",
        r#"{"file_path": "t.py", "old_string": "\t\tx = x + 1\n", "new_string": "\t\tx = x + 1\n        y = x * 2\n"}"#.as_bytes(),
    );
    let patch = support::files::write(
        dir.path(),
        "p.patch",
        "*** Begin Patch\n*** Update File: t.py\n@@\n \t\tx = x + 1\n+        y = x * 2\n \t\tlog(x)\n*** End Patch\n".as_bytes(),
    );
    for diff in [&edit, &patch] {
        let diff = diff.display().to_string();
        let out = checked(&file, &diff, 1);
        assert_contains(
            &out,
            "TabError: inconsistent use of tabs and spaces in indentation",
        );
        let (write, _, err) = srview_all(&["apply", &file, &diff, "--write"]);
        assert_ne!(write, 0, "{err}");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), original);
    }
}

/// SEARCH/REPLACE blocks get the exact-string trust checks edit JSON and
/// patches get (a tester's find: "ok" and written): a block writing the
/// next line twice, one leaving Python misindented, `check` exits 1 and
/// `apply --write` holds back (the file untouched), `fix` says its
/// corrected diff is in doubt and exits 1; in a Cline transcript, a
/// `replace_in_file` standing in for a method and a `write_to_file`
/// standing in for two functions are held back by `apply --transcript
/// --write`.
#[test]
fn search_replace_blocks_get_the_exact_trust_checks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original = "def f(x):\n    if x > 0:\n        x = x + 1\n        log(x)\n    return x\n";
    let file = file_in(dir.path(), "a.py", original);
    let cases = [
        (
            "------- SEARCH\n        x = x + 1\n=======\n        x = x + 2\n        log(x)\n+++++++ REPLACE\n",
            "held back: block #1's REPLACE text ends with `log(x)`, which the file already has \
             right after the text it replaces (line 4): written, it appears twice: send the \
             edit without it, or with it in the old text too\n1 block, the diff applies, but \
             `apply --write` holds it back\n",
        ),
        (
            "------- SEARCH\n        x = x + 1\n=======\n        x = x + 2\n        log(x)\n    return x\n+++++++ REPLACE\n",
            "held back: block #1's REPLACE text ends with 2 lines (`log(x)` to `return x`) that \
             the file already has right after the text it replaces (lines 4-5): written, they \
             appear twice: send the edit without them, or with them in the old text too\n1 \
             block, the diff applies, but `apply --write` holds it back\n",
        ),
        (
            "------- SEARCH\n        log(x)\n=======\n        log(x)\n        x = x * 2\n        log(x)\n        x = x * 2\n+++++++ REPLACE\n",
            "held back: block #1's REPLACE text holds 2 lines twice, back to back (`log(x)` to \
             `x = x * 2`, its lines 1-2 and 3-4), which its old text does not hold twice: \
             written, they run twice: send it with them once\n1 block, the diff applies, but \
             `apply --write` holds it back\n",
        ),
        (
            "------- SEARCH\n    if x > 0:\n        x = x + 1\n=======\n    if x > 0:\n       x = x + 2\n+++++++ REPLACE\n",
            "held back: the diff leaves a.py misindented: as written, line 4 (`log(x)`) is at \
             column 8, deeper than the line before it, which opens no block: Python refuses \
             the file (IndentationError: unexpected indent): send the new lines at the \
             indentation of the block they belong to\n1 block, the diff applies, but `apply \
             --write` holds it back\n",
        ),
    ];
    for (i, (diff, said)) in cases.into_iter().enumerate() {
        let d = dir.path().join(format!("d{i}.diff"));
        std::fs::write(&d, diff).expect("write");
        let d = d.display().to_string();
        let out = checked(&file, &d, 1);
        assert!(out.ends_with(said), "{out}");
        let (write, _, err) = srview_all(&["apply", &file, &d, "--write"]);
        assert_eq!(write, 1, "{err}");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), original);
        let (fix, fixed, err) = srview_all(&["fix", &file, &d]);
        assert_eq!((fix, fixed.as_str()), (1, diff), "{err}");
        assert_starts_with(&err, "srview: the corrected diff is in doubt: ");
    }
    let store = "class Store:\n    def add(self, sku, qty):\n        self.items[sku] = qty\n\n    def remove(self, sku, qty):\n        self.items[sku] -= qty\n        if self.items[sku] <= 0:\n            del self.items[sku]\n";
    std::fs::write(dir.path().join("s.py"), store).expect("write");
    let app = "function a(x) {\n  return x + 1;\n}\n\nfunction b(x) {\n  return x * 2;\n}\n\nfunction c(x) {\n  return a(x) + b(x);\n}\n";
    std::fs::write(dir.path().join("app.js"), app).expect("write");
    let transcript = support::files::write(
        dir.path(),
        "t.md",
        "<replace_in_file>\n<path>s.py</path>\n<diff>\n------- SEARCH\n    def add(self, sku, qty):\n        self.items[sku] = qty\n\n    def remove(self, sku, qty):\n        self.items[sku] -= qty\n        if self.items[sku] <= 0:\n            del self.items[sku]\n=======\n    def add(self, sku, qty):\n        self.items[sku] = max(qty, 0)\n\n    # ... remove() unchanged ...\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n\n<write_to_file>\n<path>app.js</path>\n<content>\n// ... existing code ...\n\nfunction c(x) {\n  return a(x) * b(x);\n}\n</content>\n</write_to_file>\n".as_bytes(),
    );
    let cwd = dir.path().display().to_string();
    let t = transcript.display().to_string();
    let (code, out, err) = srview_all(&["apply", "--transcript", &t, "--cwd", &cwd, "--write"]);
    assert_eq!(code, 1, "{err}");
    // Each file's line says it is in doubt, not `ok` (a tester's find).
    assert_eq!(
        out, "doubt   s.py (1 call, 1 block)\ndoubt   app.js (1 call, 0 blocks)\n",
        "{err}"
    );
    assert_contains(
        &err,
        "s.py, the transcript's tool call 1: block #1's REPLACE text stands in for lines it \
             leaves out (its line 4: `# ... remove() unchanged ...`), so it deletes 5 non-blank \
             lines of its SEARCH text",
    );
    assert_contains(
        &err,
        "app.js, the transcript's tool call 2: its content stands in for lines it leaves \
             out (line 1: `// ... existing code ...`), so writing it deletes 7 non-blank lines \
             of the file",
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("s.py")).expect("read"),
        store
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("app.js")).expect("read"),
        app
    );
}

/// `check --suggest` on a Markdown file whose line ends in two spaces (a
/// hard line break) the block's SEARCH text lost: the suggested block
/// writes the changed line with them; where the block's lines end in a
/// break the file's line has not, no suggestion, and stderr says why.
#[test]
fn a_suggestion_keeps_a_markdown_hard_break() {
    let dir = tempfile::tempdir().expect("tempdir");
    let poem = "# Notes\n\nRoses are red,  \nViolets are blue.\n\nEnd.\n";
    let lost = "------- SEARCH\nRoses are red,\nViolets are blue.\n=======\nRoses are crimson,\nViolets are blue.\n+++++++ REPLACE\n";
    let (file, diff) = file_and_diff(dir.path(), ("notes.md", poem), ("d.diff", lost));
    let (_, out, _) = srview_all(&["check", &file, &diff, "--suggest"]);
    assert_eq!(
        out,
        "------- SEARCH\nRoses are red,  \nViolets are blue.\n=======\nRoses are crimson,  \nViolets are blue.\n+++++++ REPLACE\n"
    );
    let plain = poem.replace("red,  ", "red,");
    let added = "------- SEARCH\nRoses are red,  \nViolets are blue.\n=======\nRoses are crimson,  \nViolets are blue.\n+++++++ REPLACE\n";
    let (file, diff) = file_and_diff(dir.path(), ("plain.md", &plain), ("e.diff", added));
    let (_, out, err) = srview_all(&["check", &file, &diff, "--suggest"]);
    assert_eq!(out, "");
    assert!(
        err.contains(
            "block #1: no suggestion (the edit's line `Roses are crimson,  ` ends in two \
             trailing spaces, which file line 3 (`Roses are red,`) does not have, and the edit's \
             old line has it too: two trailing spaces are a Markdown line break, and whether the \
             model means to add it cannot be told)"
        ),
        "{err}"
    );
}

/// An LF file given CRLF lines (an Edit's new text, or a SEARCH/REPLACE
/// block's REPLACE lines) mixes line endings as a CRLF file given LF lines
/// does: `check` exits 1 and `apply --write` holds it back, the file
/// unchanged (a tester's find: both were called exact and written). Lines
/// in the file's own ending pass.
#[test]
fn crlf_lines_into_an_lf_file_are_held_back() {
    let lf = "a = 1\nb = 2\nc = 3\n";
    let edit =
        r#"{"file_path":"a.py","old_string":"b = 2\n","new_string":"b = 20\r\nb2 = 21\r\n"}"#;
    let diff = "------- SEARCH\nb = 2\n=======\nb = 20\r\nb2 = 21\r\n+++++++ REPLACE\n";
    for (name, input, said) in [
        (
            "e.json",
            edit,
            "    ! the result mixes line endings: the file's lines end in LF, the edit's new \
             lines in CRLF (Claude Code's Edit writes them as they are): send the new text with \
             LF line endings\n",
        ),
        (
            "s.diff",
            diff,
            "held back: the result mixes line endings: the file's lines end in LF, the edit's \
             new lines in CRLF (the reference writes them as they are)\n",
        ),
    ] {
        let dir = tempfile::tempdir().expect("tempdir");
        let (file, d) = file_and_diff(dir.path(), ("a.py", lf), (name, input));
        let out = checked(&file, &d, 1);
        assert!(out.contains(said), "{name}: {out}");
        let (write, _, err) = srview_all(&["apply", &file, &d, "--write"]);
        assert_eq!(write, 1, "{name}: {err}");
        assert!(
            err.contains("was not written: the result mixes line endings"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&file).expect("the file"), lf);
        // The same lines in LF: exact, nothing to say.
        let plain = input.replace("\r\n", "\n").replace("\\r\\n", "\\n");
        let (file, d) = file_and_diff(dir.path(), ("a.py", lf), (name, &plain));
        checked(&file, &d, 0);
    }
}

/// A Claude Code Edit whose new lines end in spaces (a test's expected
/// text padded by `:<4`): Claude Code's decode path strips them outside
/// .md/.mdx (`normalizeFileEditInput`), so the file gets other lines than
/// the edit shows (a tester's find: srview predicted a file whose test
/// passed; Claude Code's failed). `check` exits 1 saying so and predicts
/// Claude Code's file; `apply --write` holds it back; in a .md file the
/// spaces stay and it is exact.
#[test]
fn trailing_spaces_claude_code_strips_are_said_and_held_back() {
    let text = "EXPECTED = \"\"\"\\\napple   3   \npear    10  \"\"\"\n";
    let edit = |path: &str| {
        serde_json::json!({
            "file_path": path,
            "old_string": "apple   3   \n",
            "new_string": "apple   3   \nbanana  7   \n",
        })
        .to_string()
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let (file, d) = file_and_diff(dir.path(), ("t.py", text), ("e.json", &edit("t.py")));
    let out = checked(&file, &d, 1);
    assert_contains(
        &out,
        "    ! Claude Code strips the trailing whitespace of every line of new_string outside \
         .md and .mdx files, so 2 lines of new_string reach the file without the whitespace \
         the model wrote after it (line 1, `apple   3`, loses 3 characters): the file gets \
         other lines than the edit shows: send new_string without it if that is meant; a text \
         whose trailing spaces matter (an expected output, a fixed-width table) cannot be \
         written by this tool\n",
    );
    let (printed, result, _) = srview_all(&["apply", &file, &d]);
    assert_eq!(printed, 0);
    assert_eq!(
        result,
        "EXPECTED = \"\"\"\\\napple   3\nbanana  7\npear    10  \"\"\"\n"
    );
    let (write, _, err) = srview_all(&["apply", &file, &d, "--write"]);
    assert_eq!(write, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("the file"), text);
    let (file, d) = file_and_diff(dir.path(), ("t.md", text), ("m.json", &edit("t.md")));
    checked(&file, &d, 0);
}

/// An Edit whose old text ends between a letter and its combining accent
/// (`Cafe` + U+0301, as macOS and many editors write `é`): the accent
/// would land on the new text's last letter (`Bistró`: a tester's find).
/// `check` exits 1 saying so, `apply --write` holds it back; the old text
/// with the accent passes.
#[test]
fn an_old_text_ending_before_a_combining_accent_is_held_back() {
    let file_text = "NAME = \"Cafe\u{301} Noir\"\n";
    let dir = tempfile::tempdir().expect("tempdir");
    let edit =
        r#"{"file_path":"n.py","old_string":"NAME = \"Cafe","new_string":"NAME = \"Bistro"}"#;
    let (file, d) = file_and_diff(dir.path(), ("n.py", file_text), ("e.json", edit));
    let out = checked(&file, &d, 1);
    assert!(
        out.contains(
            "    ! the edit's old text ends before a combining accent (U+0301) that belongs to \
             its last letter (`Cafe\u{301}` at line 1): the accent stays in the file and lands \
             on the new text's last character\n"
        ),
        "{out}"
    );
    let (write, _, err) = srview_all(&["apply", &file, &d, "--write"]);
    assert_eq!(write, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&file).expect("the file"), file_text);
    let whole =
        r#"{"file_path":"n.py","old_string":"NAME = \"Cafe\u0301","new_string":"NAME = \"Bistro"}"#;
    let (file, d) = file_and_diff(dir.path(), ("n.py", file_text), ("e.json", whole));
    checked(&file, &d, 0);
}

/// A Claude Code `Write` JSON whose content stands in for the rest of the
/// file (`# ... rest of the file unchanged ...`): `check` exits 1 with the
/// gate's sentence and `apply --write` holds it back, the file untouched
/// (a fresh tester's find: "applies, stage exact", and `--write` deleted
/// `b()`, while the gate denied the same input); `--force` writes it. A
/// Write of exactly what the file holds is in doubt as the gate says.
#[test]
fn a_write_standing_in_for_the_rest_of_the_file_is_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let original =
        "def a():\n    x = load()\n    return x\n\ndef b():\n    x = load()\n    return x\n";
    let file = file_in(dir.path(), "m.py", original);
    let write = |name: &str, content: &str| {
        let json = serde_json::json!({"file_path": "m.py", "content": content}).to_string();
        support::files::write(dir.path(), name, json.as_bytes())
            .display()
            .to_string()
    };
    let elided = write(
        "w.json",
        "def a():\n    x = load()\n    return x\n\n# ... rest of the file unchanged ...\n",
    );
    let out = checked(&file, &elided, 1);
    assert_eq!(
        out,
        format!(
            "{file}: block #1 (Write): applies, stage exact, 1 occurrence\n    ! its content stands \
         in for lines it leaves out (line 5: `# ... rest of the file unchanged ...`), so \
         writing it deletes 3 non-blank lines of the file (7 lines become 5): send the whole \
         content, every line the file keeps, or edit only the lines that change\n"
        )
    );
    let (code, _, err) = srview_all(&["apply", &file, &elided, "--write"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "srview: {file} was not written: its content stands in for lines it leaves out"
        )),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).expect("read"), original);
    let (code, _, err) = srview_all(&["apply", &file, &elided, "--write", "--force"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .ends_with("# ... rest of the file unchanged ...\n")
    );
    std::fs::write(&file, original).expect("write");
    let same = write("same.json", original);
    let out = checked(&file, &same, 1);
    assert!(
        out.contains(&format!(
            "! {file} already holds exactly this content (7 lines): the write changes nothing, \
             so it looks applied already"
        )),
        "{out}"
    );
    // The whole file, one function changed: no doubt.
    let whole = write("whole.json", &original.replace("def b():", "def b2():"));
    checked(&file, &whole, 0);
}

/// A stand-in in the comment marks of its file's kind: `% ... existing
/// items ...` replacing four `\item`s of a LaTeX list as SEARCH/REPLACE
/// blocks (a fresh tester's find: "ok" and written), and `% ... rest
/// unchanged ...` in a MATLAB file as OpenCode's edit: `check` exits 1
/// saying so, `apply --write` holds it back. The same lines in a Python
/// file are code (`%` opens no comment there): no doubt.
#[test]
fn a_stand_in_in_its_files_own_comment_marks_is_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let items =
        "\\begin{itemize}\n\\item One\n\\item Two\n\\item Three\n\\item Four\n\\end{itemize}\n";
    let (tex, blocks) = file_and_diff(
        dir.path(),
        ("d.tex", items),
        (
            "d.diff",
            "------- SEARCH\n\\item One\n\\item Two\n\\item Three\n\\item Four\n=======\n\\item Zero\n% ... existing items ...\n+++++++ REPLACE\n",
        ),
    );
    let out = checked(&tex, &blocks, 1);
    assert!(
        out.contains(
            "held back: block #1's REPLACE text stands in for lines it leaves out (its line 2: \
             `% ... existing items ...`), so it deletes 4 non-blank lines of its SEARCH text"
        ),
        "{out}"
    );
    let (write, _, err) = srview_all(&["apply", &tex, &blocks, "--write"]);
    assert_eq!(write, 1, "{err}");
    assert_eq!(std::fs::read_to_string(&tex).expect("read"), items);
    let four = "a = 1;\nb = 2;\nc = 3;\nd = 4;\n";
    for (name, doubted) in [("f.m", true), ("f.py", false)] {
        let file = support::files::write(dir.path(), name, four.as_bytes());
        let edit = serde_json::json!({
            "filePath": file,
            "oldString": four,
            "newString": "a = 9;\n% ... rest unchanged ...\n",
        });
        let edit = support::files::write(dir.path(), "e.json", edit.to_string().as_bytes());
        let (file, edit) = (file.display().to_string(), edit.display().to_string());
        let (check, out) = srview(&["check", &file, &edit, "--dialect", "opencode-edit"]);
        let said = out.contains(
            "warning: edit 1: its new text stands in for lines it leaves out (its line 2: `% ... \
             rest unchanged ...`), so it deletes 4 non-blank lines of the text it replaces",
        );
        assert_eq!(
            (check, said),
            (i32::from(doubted), doubted),
            "{name}: {out}"
        );
    }
}

/// A Makefile recipe with a continuation line aligned with spaces after
/// its tab, the SEARCH text in spaces (a tester's find): `check
/// --suggest` named the region and then gave no suggestion "(its region
/// cannot be quoted in a block, or where the block starts or ends is
/// unclear)". The suggestion now gives the changed recipe line the file's
/// tab and keeps the continuation line as the file has it; SEARCH lines
/// indented unlike the file in no one way get no suggestion, with the
/// reason said.
#[test]
fn a_tab_continuation_is_suggested_and_no_relation_is_said() {
    let makefile = "all: app\n\napp: main.c util.c\n\tgcc -O2 -o app \\\n\t    main.c util.c\n\nclean:\n\trm -f app\n";
    let diff = "------- SEARCH\napp: main.c util.c\n    gcc -O2 -o app \\\n        main.c util.c\n=======\napp: main.c util.c\n    gcc -O2 -Wall -o app \\\n        main.c util.c\n+++++++ REPLACE\n";
    let (_dir, file, d) = files_of(("Makefile", makefile), ("h.diff", diff));
    let err = check_suggests(
        &file,
        &d,
        "------- SEARCH\napp: main.c util.c\n\tgcc -O2 -o app \\\n\t    main.c util.c\n=======\napp: main.c util.c\n\tgcc -O2 -Wall -o app \\\n\t    main.c util.c\n+++++++ REPLACE\n",
    );
    assert!(!err.contains("no suggestion"), "{err}");
    // Two SEARCH lines at 4 spaces stand for a tab and for two spaces.
    let (_dir, file, d) = files_of(
        ("a.py", "def f():\n\tx = 1\n  y = 2\n"),
        (
            "a.diff",
            "------- SEARCH\ndef f():\n    x = 1\n    y = 2\n=======\ndef f():\n    x = 3\n    y = 2\n+++++++ REPLACE\n",
        ),
    );
    // Nothing suggested.
    let err = check_suggests(&file, &d, "");
    assert_ends_with(
        &err,
        "block #1: no suggestion (the SEARCH lines' indentation maps onto the file's by no \
         shift, no scale and no one file indentation for each of its widths, so where the new \
         lines go in the file's indentation cannot be told: the correction is withheld)\n",
    );
}

/// A block placed only by the line-trimmed fallback whose result breaks
/// the file: `check` says the result's fault beside the whitespace error
/// (a tester's find: the brackets left open and Python's IndentationError
/// were said by the previewer and for edit JSON, not here).
#[test]
fn a_loose_block_that_breaks_the_file_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cases = [
        (
            "a.js",
            "function f(x) {\n  if (x) {\n    return 1;\n  }\n  return 0;\n}\n",
            "------- SEARCH\nif (x) {\n  return 1;\n}\n=======\nif (x) {\n  return 2;\n\n+++++++ REPLACE\n",
            "held back: the diff leaves a.js with its brackets unbalanced",
        ),
        (
            "a.py",
            "def f(x):\n    if x:\n        return 1\n    return 0\n",
            "------- SEARCH\nif x:\n    return 1\n=======\nif x:\n    return 2\n+++++++ REPLACE\n",
            "held back: the diff leaves a.py misindented: as written, line 2 (`if x:`) is at column 0",
        ),
    ];
    for (name, content, diff, said) in cases {
        let file = support::files::write(dir.path(), name, content.as_bytes());
        let d = support::files::write(dir.path(), "d.diff", diff.as_bytes());
        let (code, out, err) = srview_all(&[
            "check",
            &file.display().to_string(),
            &d.display().to_string(),
        ]);
        assert_eq!(code, 1, "{name}: {err}");
        assert!(
            out.contains(said)
                && out
                    .contains("1 block, the diff applies but not as it reads (1 needs attention)"),
            "{name}: {out}"
        );
    }
}

/// `check` of the edit JSON `edit` over `file`: exact, and exiting 1
/// with the one doubt `doubt` under its verdict, or 0 without it.
#[track_caller]
fn assert_edit_checked(file: &str, edit: &str, doubt: Option<&str>) {
    let out = checked(file, edit, i32::from(doubt.is_some()));
    let verdict = format!("{file}: block #1 (Edit): applies, stage exact, 1 occurrence\n");
    let expected = match doubt {
        Some(doubt) => format!("{verdict}    ! {doubt}\n"),
        None => verdict,
    };
    assert_eq!(out, expected, "{edit}");
}

/// The binary's `gate --agent AGENT` answer to `payload`, run with `dir`
/// as its home; it exits 0.
fn gate_answer(dir: &std::path::Path, agent: &str, payload: &Value) -> String {
    let gate = runner::srview(["gate", "--agent", agent])
        .env("HOME", &dir.display().to_string())
        .stdin(payload.to_string().as_bytes())
        .output();
    let answer = runner::stdout(&gate);
    assert_eq!(gate.status.code(), Some(0), "{answer}");
    answer
}

/// The binary gate's answer to Claude Code's `Edit` of `file` (in `dir`)
/// from `old` to `new`: `None` when it allows it (no output), its deny
/// reason when it denies it.
fn claude_code_gate(dir: &std::path::Path, file: &str, old: &str, new: &str) -> Option<String> {
    let payload = serde_json::json!({
        "session_id": "s", "cwd": dir, "hook_event_name": "PreToolUse",
        "tool_name": "Edit", "tool_use_id": "t1",
        "tool_input": {"file_path": file, "old_string": old, "new_string": new},
    });
    support::runner::claude_code_deny_reason(&gate_answer(dir, "claude-code", &payload))
}

/// A tester's find (round 44, T-13): an edit whose old text is a
/// decorated definition's own line and whose new text puts a new function
/// first moves the decorator onto the new function (`/about` then served
/// `format_title`). `check` exits 1 saying which decorator moves to what,
/// `apply --write` holds it back, the gate (the binary, Claude Code's
/// payload) denies it; the same function added above the decorator is
/// fine for all three.
#[test]
fn an_insertion_between_a_decorator_and_its_definition_is_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let app = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route(\"/\")\ndef index():\n    return \"home\"\n\n\n@app.route(\"/about\")\ndef about():\n    return \"about\"\n";
    let new_fn = "def format_title(s):\n    return s.title()\n\n\n";
    let file = file_in(dir.path(), "app.py", app);
    let moved = "`@app.route(\"/about\")` stood on `def about():` (line 12) and now stands on \
                 `def format_title(s):` (line 12), which it decorates instead; `def about():` \
                 (line 16) is left without it: start the old text at the line \
                 `@app.route(\"/about\")` and put the new lines above it, keeping \
                 `@app.route(\"/about\")` right above `def about():`";
    for (old, new, doubt) in [
        (
            "def about():\n",
            format!("{new_fn}def about():\n"),
            Some(moved),
        ),
        (
            "@app.route(\"/about\")\n",
            format!("{new_fn}@app.route(\"/about\")\n"),
            None,
        ),
    ] {
        let edit = serde_json::json!({"file_path": file, "old_string": old, "new_string": new});
        let e = support::files::write(dir.path(), "e.json", edit.to_string().as_bytes());
        let e = e.display().to_string();
        assert_edit_checked(&file, &e, doubt);
        let denied = claude_code_gate(dir.path(), &file, old, &new);
        let expected = doubt.map(|d| {
            format!(
                "srview gate: the edit of {file} matches exactly (line 12), but srview cannot \
                 stand behind its result: {d}.\n(no review pane runs, so srview's policy \
                 doubt=review falls back to deny)"
            )
        });
        assert_eq!(denied, expected);
        let (code, _, err) = srview_all(&["apply", &file, &e, "--write"]);
        assert_eq!(code, i32::from(doubt.is_some()), "{err}");
        if let Some(d) = doubt {
            assert_eq!(
                err,
                format!("srview: {file} was not written: {d} (--force writes it)\n")
            );
            assert_eq!(std::fs::read_to_string(&file).expect("read"), app);
        }
        std::fs::write(&file, app).expect("write");
    }
}

/// A tester's find (round 45, T-02): a decorator sharing its line with
/// the member it decorates (TypeScript's `@Input() label = "";`, Java's
/// `@Autowired private Repo repo;`, Kotlin's `@Inject lateinit var`)
/// decorates that member, not the method below: a method or a field
/// added above that method is allowed by the gate (the binary, Claude
/// Code's payload). A lone `@HostListener("click")` still moves when a
/// method is put under it, and only it is named, with its own line as
/// where to start.
#[test]
fn a_decorator_beside_its_member_decorates_nothing_below() {
    let dir = tempfile::tempdir().expect("tempdir");
    let files = [
        (
            "d.ts",
            "export class Svc {\n  @Input() label = \"\";\n  @Output() changed = new EventEmitter<string>();\n\n  ngOnInit() {\n    this.changed.emit(this.label);\n  }\n}\n",
        ),
        (
            "S.java",
            "public class S {\n    @Autowired private Repo repo;\n    @Value(\"${app.name}\") private String name;\n\n    public void run() {\n        repo.save(name);\n    }\n}\n",
        ),
        (
            "k.kt",
            "class Vm {\n    @Inject lateinit var repo: Repo\n\n    fun load() {\n        repo.all()\n    }\n}\n",
        ),
        (
            "c.ts",
            "@Component({ selector: \"app-root\" })\nexport class AppComponent {\n  @Input() name = \"\";\n\n  @HostListener(\"click\")\n  onClick() {\n    console.log(this.name);\n  }\n}\n",
        ),
    ];
    let paths: Vec<String> = files
        .iter()
        .map(|(name, text)| {
            let path = support::files::write(dir.path(), name, text.as_bytes());
            path.display().to_string()
        })
        .collect();
    let allowed = [
        (
            0,
            "  ngOnInit() {\n",
            "  ngOnDestroy() {}\n\n  ngOnInit() {\n",
        ),
        (
            0,
            "  @Output() changed = new EventEmitter<string>();\n",
            "  @Output() changed = new EventEmitter<string>();\n  private ready = false;\n",
        ),
        (
            1,
            "    public void run() {\n",
            "    public void stop() {}\n\n    public void run() {\n",
        ),
        (
            2,
            "    fun load() {\n",
            "    fun clear() {}\n\n    fun load() {\n",
        ),
    ];
    for (file, old, new) in allowed {
        assert_eq!(
            claude_code_gate(dir.path(), &paths[file], old, new),
            None,
            "{new}"
        );
    }
    let denied = claude_code_gate(
        dir.path(),
        &paths[3],
        "  onClick() {\n",
        "  onHover() {}\n\n  onClick() {\n",
    );
    let expected = format!(
        "srview gate: the edit of {} matches exactly (line 6), but srview cannot stand behind \
         its result: `@HostListener(\"click\")` stood on `onClick() {{` (line 6) and now stands \
         on `onHover() {{}}` (line 6), which it decorates instead; `onClick() {{` (line 8) is \
         left without it: start the old text at the line `@HostListener(\"click\")` and put \
         the new lines above it, keeping `@HostListener(\"click\")` right above `onClick() \
         {{`.\n(no review pane runs, so srview's policy doubt=review falls back to deny)",
        paths[3]
    );
    assert_eq!(denied, Some(expected));
}

/// A tester's find (round 44, T-11): a Jupyter notebook given an
/// unescaped quote inside a cell's source string (Gemini CLI's `replace`,
/// which edits notebooks as text) was allowed; `json.loads` then refuses
/// it. The gate (the binary) denies it as it denies the same edit of a
/// `.json` file, `check` exits 1; the quote escaped is allowed.
#[test]
fn a_notebook_left_unreadable_as_json_is_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let notebook = "{\n \"cells\": [\n  {\n   \"cell_type\": \"code\",\n   \"metadata\": {},\n   \"source\": [\n    \"x = 1\\n\",\n    \"print(x)\"\n   ]\n  }\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n";
    let file = file_in(dir.path(), "a.ipynb", notebook);
    let old = "    \"print(x)\"\n";
    let broken = "the file was valid JSON before and is not after: line 8, column 13: expected `,` \
                  or `]`: its readers refuse the whole file: send the edit so that the file \
                  stays JSON (a comma between two entries, none after the last)";
    for (new, doubt) in [
        ("    \"print(\"x is\", x)\"\n", Some(broken)),
        ("    \"print(\\\"x is\\\", x)\"\n", None),
    ] {
        let payload = serde_json::json!({
            "session_id": "s", "cwd": dir.path(), "hook_event_name": "BeforeTool",
            "tool_name": "replace",
            "tool_input": {"file_path": file, "instruction": "x", "old_string": old, "new_string": new},
        });
        let answer = gate_answer(dir.path(), "gemini-cli", &payload);
        match doubt {
            Some(d) => {
                let json: Value = serde_json::from_str(&answer).expect("the gate's JSON");
                assert_eq!(json["decision"], "deny", "{answer}");
                let reason = json["reason"].as_str().unwrap_or_default();
                assert!(reason.contains(d), "{reason}");
            }
            None => assert_eq!(answer, "", "{new}"),
        }
        let edit = serde_json::json!({"file_path": file, "old_string": old, "new_string": new});
        let e = support::files::write(dir.path(), "e.json", edit.to_string().as_bytes());
        assert_edit_checked(&file, &e.display().to_string(), doubt);
    }
}

/// A tester's find (round 44, T-08): a no-break space (U+00A0) written
/// in Python code, invisible to the model, passed as exact; CPython
/// refuses the file (`invalid non-printable character U+00A0`). `check`
/// exits 1 naming the character with CPython's words and the gate (the
/// binary) denies it; the same space inside a string is allowed.
#[test]
fn a_no_break_space_in_python_code_is_held_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = file_in(dir.path(), "nb.py", "def f():\n    return 1\n");
    let refused = "as the edit leaves it, Python refuses the file: line 2 (`total\u{a0}= 1`) has a \
                   no-break space (U+00A0) outside any string or comment (SyntaxError: invalid \
                   non-printable character U+00A0), where the file before had no such fault: \
                   write the character's plain ASCII form in the new text (a space, `\"`, `'`, \
                   `-`), or put it in a string or a comment";
    let old = "    return 1\n";
    for (new, doubt) in [
        ("    total\u{a0}= 1\n    return total\n", Some(refused)),
        ("    total = \"a\u{a0}b\"\n    return total\n", None),
    ] {
        let edit = serde_json::json!({"file_path": file, "old_string": old, "new_string": new});
        let e = support::files::write(dir.path(), "e.json", edit.to_string().as_bytes());
        assert_edit_checked(&file, &e.display().to_string(), doubt);
        let denied = claude_code_gate(dir.path(), &file, old, new);
        assert_eq!(denied.is_some(), doubt.is_some(), "{denied:?}");
        if let (Some(reason), Some(d)) = (denied, doubt) {
            assert!(reason.contains(d), "{reason}");
        }
    }
}

/// A tester's find (round 46, T-09): a REPLACE text ending a line in a `\`
/// its SEARCH did not joins the file's next line, which the block does not
/// show (`make build \` over `make install`): `check` said "ok" and
/// `apply --write` wrote it, while every agent's gate denied the same edit.
/// Now held back, saying the joined line; a block showing that line is not.
#[test]
fn a_replace_ending_in_a_backslash_joining_the_next_line_is_held_back() {
    let script = "#!/bin/bash\ndeploy() {\n  make build\n  make install\n}\n";
    let diff = "------- SEARCH\n  make build\n=======\n  make build \\\n+++++++ REPLACE\n";
    let (_dir, file, d) = files_of(("b.sh", script), ("d.diff", diff));
    let (code, out) = srview(&["check", &file, &d]);
    assert_eq!(code, 1, "{out}");
    assert_contains(
        &out,
        "held back: block #1: its new text's last line ends in `\\`, where its old text's did \
         not, so line 4 (`  make install`), which the edit does not show, is joined onto it: the \
         file reads them as one line, `  make build make install`: drop the `\\`, or send the \
         line it should continue with in the new text\n",
    );
    let shown = "------- SEARCH\n  make build\n  make install\n=======\n  make build \\\n    -j4\n  make install\n+++++++ REPLACE\n";
    let (_dir, file, d) = files_of(("b.sh", script), ("d.diff", shown));
    let (code, out) = srview(&["check", &file, &d]);
    assert_eq!(code, 0, "{out}");
}

/// Session 49's leftover: `check FILE PATCH` of a Codex patch with two
/// `*** Update File:` sections for FILE exited 2 ("a command on one file
/// takes one section per file: use `srview apply --transcript`") where
/// `fix` and the gate judge it. It is checked joined into one section, as
/// `fix` prints it, saying so; a later section Codex would search from the
/// file's top again, landing above where it was meant, is the gate's
/// split-sections doubt (exit 1); sections that land as one section would
/// exit 0; sections that cannot be joined are checked one after the
/// other, as Codex applies them, saying why.
#[test]
fn a_patch_with_two_sections_for_the_file_is_checked_as_one_section() {
    let dir = tempfile::tempdir().expect("tempdir");
    let section = |hunk: &str| format!("*** Update File: m.py\n{hunk}");
    let patch_of = |a: &str, b: &str| {
        format!(
            "*** Begin Patch\n{}{}*** End Patch\n",
            section(a),
            section(b)
        )
    };
    let second = "@@ def second(y):\n     if y is None:\n-        return None\n+        return 0\n";
    let bare = "@@\n-        return None\n+        return []\n";
    let first = "@@ def first(x):\n     if x < 0:\n-        return None\n+        return []\n";
    let note = "m.py: note: the patch has several sections for m.py: checked joined into one \
                section, its hunks in patch order (hunks and patch lines below are that patch's, \
                as `srview fix` prints it)\n";
    let check = |patch: &str| {
        file_and_diff(dir.path(), ("m.py", RETURNS_PY), ("two.patch", patch));
        let out = runner::srview(["check", "m.py", "two.patch"])
            .cwd(dir.path())
            .env("NO_COLOR", "1")
            .output();
        (
            out.status.code().unwrap_or(-1),
            runner::stdout(&out),
            runner::stderr(&out),
        )
    };
    let (code, out, err) = check(&patch_of(second, bare));
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    assert_eq!(
        out,
        format!(
            "{note}m.py: hunk #1 (patch lines 3-6): applies at lines 8-9, level exact\n\
             m.py: hunk #2 (patch lines 7-9): applies at lines 15-15, level exact\n\
             m.py: warning: hunk #1 of section 2 updates m.py again after section 1: the \
             reference searches a section's hunks from the top of the file (as section 1 left \
             it), so it lands at line 3, and its lines stand again at line 15, past section 1's \
             hunks, where the same hunks sent as one section would land: send the hunks of m.py \
             as one section, in file order\n"
        )
    );
    let (code, out, err) = check(&patch_of(first, second));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out,
        format!(
            "{note}m.py: hunk #1 (patch lines 3-6): applies at lines 2-3, level exact\n\
             m.py: hunk #2 (patch lines 7-10): applies at lines 8-9, level exact\n"
        )
    );
    let (code, out, err) = check(&patch_of(second, first));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        out,
        format!(
            "m.py: note: the patch has several sections for m.py, checked one after the other as \
             Codex applies them (its sections for m.py cannot be joined into one in patch order: \
             a later section's hunk stands above an earlier one's, and as one section the \
             reference fails (Failed to find context 'def first(x):' in {}/m.py))\n\
             m.py: hunk #1 (patch lines 3-6): applies at lines 8-9, level exact\n\
             m.py: hunk #1 (patch lines 8-11): applies at lines 2-3, level exact\n",
            dir.path().canonicalize().expect("real path").display()
        )
    );
}

/// A Gemini CLI `replace` with `allow_multiple` whose flexible stage
/// re-indents a two-line text at lines 2-3 and lines 9-10 (tester 51,
/// T-10): `check` names the second place whole (it said "line 9", and "1
/// lines in the file where the model wrote 2", its second line reading as
/// before), each of its lines beside the model's.
#[test]
fn a_flexible_replace_all_names_each_place_whole() {
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gate/tester51");
    let ra = std::fs::read_to_string(fixtures.join("ra.py")).expect("ra.py");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("ra.py");
    let input = serde_json::json!({"file_path": path, "instruction": "x",
        "old_string": "if key in cache:\n    return cache[key]",
        "new_string": "if key in cache and cache[key] is not None:\n    return cache[key]",
        "allow_multiple": true});
    let (file, args) = file_and_diff(
        dir.path(),
        ("ra.py", &ra),
        ("args.json", &input.to_string()),
    );
    let (code, out) = srview(&["check", &file, &args, "--dialect", "gemini-replace"]);
    assert_eq!(code, 1, "{out}");
    assert_starts_with(
        &out,
        "edit 1: flexible at lines 2-3 and lines 9-10 (loose)\n\
         warning: edit 1 was placed at lines 2-3 and lines 9-10 by flexible, a loose stage of \
         Gemini CLI 0.61.0's replace tool: the text it replaced is not the text the model wrote\n\
         note: Gemini CLI 0.61.0's replace tool replaces every occurrence: it changes lines 2-3 \
         and also lines 9-10\n\
         \x20 edit 1: line 2: the file has \"    if key in cache:\" where the model wrote \"if key in cache:\"\n\
         \x20 edit 1: line 3: the file has \"        return cache[key]\" where the model wrote \"    return cache[key]\"\n\
         \x20 edit 1: line 9: the file has \"        if key in cache:\" where the model wrote \"if key in cache:\"\n\
         \x20 edit 1: line 10: the file has \"            return cache[key]\" where the model wrote \"    return cache[key]\"\n\
         \x20 edit 1: new text line 1: the agent writes",
    );
    assert!(!out.contains(" lines in the file where"), "{out}");
}
