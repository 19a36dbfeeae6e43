//! Where srview's check, fix and `--write` must not stand behind an
//! apply_patch the reference applies (or fails) quietly: a loose hunk's
//! added lines left in the patch's indentation, a hunk placed before the
//! previous one, a hunk whose lines occur several times, a pure addition
//! under an `@@` line it does not go to, an added file over an existing
//! one, a file starting with a byte order mark.

mod support;

use std::path::Path;
use std::process::Output;

use support::runner::stdout_json;
use support::text::{assert_contains, assert_holds};

fn srview(args: &[&str]) -> Output {
    support::runner::srview(args).output()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn patch(body: &str) -> String {
    format!("*** Begin Patch\n{body}*** End Patch\n")
}

/// A folder holding `file` with `content` and `edit.patch` with `patch`;
/// the paths of both.
fn project(file: &str, content: &str, patch: &str) -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = support::files::write(dir.path(), file, content.as_bytes());
    let diff = support::files::write(dir.path(), "edit.patch", patch.as_bytes());
    let s = |p: &Path| p.to_str().expect("UTF-8").to_string();
    (dir, s(&target), s(&diff))
}

/// `srview CMD FILE DIFF` on m.py holding `content` and the patch of
/// `body`, which must exit 1: the folder, the two paths and the output.
fn run_on(cmd: &str, content: &str, body: &str) -> (tempfile::TempDir, String, String, Output) {
    let (dir, file, diff) = project("m.py", content, &patch(body));
    let out = srview(&[cmd, &file, &diff]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    (dir, file, diff, out)
}

fn read(path: &str) -> String {
    std::fs::read_to_string(path).expect("readable")
}

/// `apply FILE DIFF --write` holds the result back (exit 1, FILE still
/// `before`); with `--force` it writes `after`.
fn assert_held_back_unless_forced(file: &str, diff: &str, before: &str, after: &str) {
    let out = srview(&["apply", file, diff, "--write"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(read(file), before);
    let out = srview(&["apply", file, diff, "--write", "--force"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(read(file), after);
}

/// `fix` prints the patch as corrected but exits 1, naming `why` (what
/// `check` doubts in it) and claiming no exact match.
fn assert_fix_in_doubt(file: &str, diff: &str, why: &str) {
    let out = srview(&["fix", file, diff]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    assert_contains(&said, &format!("the corrected patch is in doubt: {why}"));
    assert!(!said.contains("every hunk now matches exactly"), "{said}");
    assert_contains(&text(&out.stdout), "*** Begin Patch\n");
}

const DIVIDE: &str = "def divide(a, b):\n    \"\"\"Return a divided by b.\"\"\"\n    if b == 0:\n        raise ZeroDivisionError(\"b\")\n    return a / b\n";

#[test]
fn fix_reindents_a_trimmed_hunk_s_added_lines_as_the_file_is() {
    let hunk = "@@\n def divide(a, b):\n   \"\"\"Return a divided by b.\"\"\"\n   if b == 0:\n       raise ZeroDivisionError(\"b\")\n+  b = float(b)\n   return a / b\n";
    let (_dir, file, diff) = project(
        "m.py",
        DIVIDE,
        &patch(&format!("*** Update File: m.py\n{hunk}")),
    );
    let out = srview(&["fix", &file, &diff]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let fixed = text(&out.stdout);
    assert_contains(
        &fixed,
        "\n         raise ZeroDivisionError(\"b\")\n+    b = float(b)\n     return a / b\n",
    );
    std::fs::write(&diff, &fixed).expect("saved");
    let out = srview(&["apply", &file, &diff]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        text(&out.stdout),
        DIVIDE.replace("    return a / b", "    b = float(b)\n    return a / b")
    );
}

#[test]
fn fix_withholds_a_hunk_whose_added_lines_read_in_either_indentation() {
    // Patch widths 2 and 4 are the file's 4 and 6: an added line at 4 is
    // as much the patch's as the file's.
    let content = "if a:\n    if b:\n      c()\n";
    let body = "*** Update File: m.py\n@@\n if a:\n   if b:\n     c()\n+    d()\n";
    let (_dir, _, _, out) = run_on("fix", content, body);
    assert_contains(&text(&out.stderr), "hunk #1 is left as written");
    assert_contains(&text(&out.stderr), "cannot be told");
    assert_contains(&text(&out.stdout), "\n+    d()\n");
}

/// A tester's find (round 36b, in SEARCH/REPLACE; asked of a patch too):
/// a statement continued over lines (inside brackets, after a `\\`) is
/// re-indented with the line it continues, and one lined up under a word
/// of the line above keeps its offset from it, a run of them under the
/// first; one lined up with spaces where the file indents with tabs has no
/// sure place, and the hunk is left as written saying why.
#[test]
fn fix_reindents_a_continuation_line_with_its_statement() {
    let content = "def f():\n    return 1\n";
    let cases = [
        (
            "+  v = (a +\n+    b)\n+  return v\n",
            "+    v = (a +\n+        b)\n+    return v\n",
        ),
        (
            "+  v = a + \\\n+    b\n+  return v\n",
            "+    v = a + \\\n+        b\n+    return v\n",
        ),
        (
            "+  v = foo(a,\n+          b,\n+          c)\n+  return v\n",
            "+    v = foo(a,\n+            b,\n+            c)\n+    return v\n",
        ),
    ];
    for (added, want) in cases {
        let body = format!("*** Update File: m.py\n@@\n def f():\n-  return 1\n{added}");
        let (_dir, file, diff) = project("m.py", content, &patch(&body));
        let out = srview(&["fix", &file, &diff]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_contains(&text(&out.stdout), &format!("\n-    return 1\n{want}"));
    }
    let body = "*** Update File: m.py\n@@\n def f():\n-  return 1\n+  v = foo(a,\n+          b)\n+  return v\n";
    let (_dir, _, _, out) = run_on("fix", "def f():\n\treturn 1\n", body);
    let said = text(&out.stderr);
    assert_contains(&said, "hunk #1 is left as written");
    assert_contains(
        &said,
        "where its added line `b)`, which continues the statement above it, goes in the \
         file's indentation cannot be told",
    );
    assert_contains(&text(&out.stdout), "\n+          b)\n");
}

#[test]
fn fix_withholds_a_hunk_whose_added_line_would_stay_at_a_width_the_file_reads_otherwise() {
    // Patch widths 0 and 4 are the file's 4 and 8: `+    if x:` left at 4
    // would land outside the method body.
    let content = "class A:\n    def f(self):\n        x = 1\n        return x\n";
    let body = "*** Update File: f.py\n@@\n def f(self):\n     x = 1\n+    if x:\n+        x += 1\n     return x\n";
    let (_dir, file, diff) = project("f.py", content, &patch(body));
    let out = srview(&["fix", &file, &diff]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_contains(&text(&out.stderr), "hunk #1 is left as written");
    assert!(
        !text(&out.stderr).contains("every hunk now matches exactly"),
        "{}",
        text(&out.stderr)
    );
    assert_contains(&text(&out.stdout), "\n+    if x:\n+        x += 1\n");
}

const MODULE: &str = "def add(a, b):\n    \"\"\"Sum.\"\"\"\n    return a + b\n\n\ndef divide(a, b):\n    \"\"\"Quotient.\"\"\"\n    if b == 0:\n        raise ValueError\n    return a / b\n";

#[test]
fn a_hunk_placed_before_the_previous_one_is_said_out_of_order() {
    let second = [
        "@@ def add(a, b):\n     \"\"\"Sum.\"\"\"\n-    return a + b\n+    return float(a + b)\n",
        "@@\n     \"\"\"Sum.\"\"\"\n-    return a + b\n+    return float(a + b)\n",
    ];
    for hunk in second {
        let body = format!(
            "*** Update File: m.py\n@@ def divide(a, b):\n     \"\"\"Quotient.\"\"\"\n-    if b == 0:\n+    if not b:\n{hunk}"
        );
        let (_dir, file, diff, out) = run_on("check", MODULE, &body);
        let said = text(&out.stdout);
        assert_holds(
            &said,
            &[
                "hunk 2 of m.py failed: its lines are found at lines 2-3, before the previous hunk's match; the reference searches forward only, from line 9.",
            ],
            &["nothing similar"],
        );
        let out = srview(&["check", &file, &diff, "--json"]);
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let d = &json["diagnoses"][0];
        assert_eq!(d["reason"], "out-of-order");
        assert_eq!(d["closest"]["startLine"], 2);
        assert_eq!(d["closest"]["endLine"], 3);
    }
}

const TWICE: &str = "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 1\n    return x\n";
const TWICE_HUNK: &str = "-    x = 1\n+    x = 2\n     return x\n";
const REPEATED: &str = "hunk #1 of m.py matched at lines 2-3, and its lines occur again at line 6: the reference took the first, which may not be the one meant";

#[test]
fn a_hunk_whose_lines_occur_again_is_checked_as_a_doubt_and_held_back() {
    let body = format!("*** Update File: m.py\n@@\n{TWICE_HUNK}");
    let (dir, file, diff) = project("m.py", TWICE, &patch(&body));
    let out = srview(&["check", &file, &diff]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(&text(&out.stdout), &format!("m.py: warning: {REPEATED}\n"));
    let report = stdout_json(&srview(&["check", &file, &diff, "--json"]));
    assert_eq!(report["ok"], false);
    assert_eq!(report["doubts"][0]["kind"], "repeated");
    assert_fix_in_doubt(&file, &diff, REPEATED);

    // apply --write, --stream --write, --transcript --write: held back.
    let out = srview(&["apply", &file, &diff, "--write", "--json"]);
    assert_eq!(out.status.code(), Some(1));
    let write = &stdout_json(&out)["write"];
    assert_eq!(write["state"], "held-back");
    assert_eq!(write["reasons"][0], REPEATED);
    assert_contains(&text(&out.stderr), "(--force writes it)");
    let out = support::runner::srview(["apply", &file, "-", "--stream", "--write"])
        .stdin(read(&diff).as_bytes())
        .output();
    assert_eq!(out.status.code(), Some(1));
    let last = text(&out.stdout);
    let last: serde_json::Value =
        serde_json::from_str(last.lines().last().expect("a line")).expect("JSON");
    assert_eq!(last["write"]["state"], "held-back");
    let cwd = dir.path().to_str().expect("UTF-8");
    let out = srview(&["apply", "--transcript", &diff, "--cwd", cwd, "--write"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "", "no summary of what was not written");
    assert_eq!(read(&file), TWICE, "nothing written");

    let out = srview(&["apply", &file, &diff, "--write", "--force"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(read(&file), TWICE.replacen("x = 1", "x = 2", 1));
}

/// A loose hunk whose lines fit another place as loosely: which one is
/// meant cannot be told, so it is not tightened onto the first (a tester's
/// find, 43a-06): left as written, both places named.
#[test]
fn a_loose_hunk_whose_lines_occur_again_is_left_as_written_and_in_doubt() {
    let loose = TWICE.replace("    x = 1\n", "    x = 1  \n");
    let body = format!("*** Update File: m.py\n@@\n{TWICE_HUNK}");
    let (_dir, file, diff) = project("m.py", &loose, &patch(&body));
    assert_fix_in_doubt(
        &file,
        &diff,
        "hunk #1 of m.py matched only loosely (trailing-space) at lines 2-3, and its lines fit \
         lines 6-7 as loosely: which place is meant cannot be told",
    );
    let out = srview(&["fix", &file, &diff]);
    assert_contains(
        &text(&out.stderr),
        "the patch is not fully corrected: hunk #1 is left as written: ",
    );
    assert!(!text(&out.stdout).contains("\n-    x = 1  \n"));
}

#[test]
fn an_at_line_that_tells_the_places_apart_is_no_doubt() {
    let body = format!("*** Update File: m.py\n@@ def b():\n{TWICE_HUNK}");
    let (_dir, file, diff) = project("m.py", TWICE, &patch(&body));
    let out = srview(&["check", &file, &diff]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(!text(&out.stdout).contains("warning"));
    let out = srview(&["apply", &file, &diff, "--write"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        read(&file),
        "def a():\n    x = 1\n    return x\n\ndef b():\n    x = 2\n    return x\n"
    );
}

const SPAN: &str = "def span(lo, hi):\n    return hi - lo\n\n\ndef mean(values):\n    return sum(values) / len(values)\n";

#[test]
fn a_pure_addition_under_an_at_line_says_it_lands_at_the_end() {
    let body = "*** Update File: m.py\n@@ def span(lo, hi):\n+    # note\n";
    let (_dir, file, diff, out) = run_on("check", SPAN, body);
    assert_contains(
        &text(&out.stdout),
        "m.py: warning: hunk #1 of m.py adds its lines at the end of the file, after line 6, not after its @@ line 'def span(lo, hi):' (line 1)",
    );
    assert_fix_in_doubt(
        &file,
        &diff,
        "hunk #1 of m.py adds its lines at the end of the file",
    );
    assert_held_back_unless_forced(&file, &diff, SPAN, &format!("{SPAN}    # note\n"));
}

#[test]
fn an_added_file_over_an_existing_one_is_said_and_held_back() {
    let body = "*** Add File: m.py\n+print(\"hello\")\n";
    let (_dir, file, diff, out) = run_on("check", SPAN, body);
    assert_eq!(
        text(&out.stdout),
        format!(
            "{file}: warning: the patch adds m.py, which exists (6 lines): the reference replaces it whole\n"
        )
    );
    assert_fix_in_doubt(
        &file,
        &diff,
        "the patch adds m.py, which exists (6 lines): the reference replaces it whole",
    );
    assert_held_back_unless_forced(&file, &diff, SPAN, "print(\"hello\")\n");
}

#[test]
fn a_file_starting_with_a_byte_order_mark_is_named_as_the_cause() {
    let content = "\u{FEFF}import os\nx = 1\n";
    let body = "*** Update File: m.py\n@@\n-import os\n+import sys\n x = 1\n";
    let (_dir, file, diff, out) = run_on("check", content, body);
    let said = text(&out.stdout);
    assert_holds(
        &said,
        &[
            "hunk 1 of m.py failed: the file starts with a byte order mark (U+FEFF), which the reference reads as part of line 1; without it the hunk's lines are found at lines 1-2.\n",
        ],
        &["nothing similar"],
    );
    let out = srview(&["fix", &file, &diff]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    std::fs::write(&diff, &out.stdout).expect("saved");
    let out = srview(&["apply", &file, &diff, "--write"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        read(&file),
        "\u{FEFF}import sys\nx = 1\n",
        "the mark is kept"
    );

    // Removing the first line with nothing in its place: the mark would go.
    let body = "*** Update File: m.py\n@@\n-import sys\n x = 1\n";
    std::fs::write(&diff, patch(body)).expect("saved");
    let out = srview(&["check", &file, &diff]);
    assert_contains(
        &text(&out.stdout),
        "No corrected hunk: the hunk removes the file's first line and adds none in its place, so the mark cannot be kept.",
    );
}

/// A hunk the trimmed level matched, written 4 columns too shallow (a
/// method out of its class), and a hunk re-sent after it applied: `check`
/// says what each does and exits 1, `--write` holds it back.
#[test]
fn a_shifted_or_already_applied_hunk_is_held_back() {
    let class = "class A:\n    def f(self):\n        return 1\n";
    let body =
        "*** Update File: m.py\n@@\n-def f(self):\n-    return 1\n+def f(self):\n+    return 2\n";
    let (_dir, file, diff, out) = run_on("check", class, body);
    assert_contains(
        &text(&out.stdout),
        "hunk #1 of m.py matched only with white space ignored (trimmed) at lines 2-3, and the \
         new lines are 4 columns left of the lines they replace",
    );
    assert_held_back_unless_forced(
        &file,
        &diff,
        class,
        "class A:\ndef f(self):\n    return 2\n",
    );
    let app = "def main():\n    load()\n    run()\n    save()\n";
    let body = "*** Update File: m.py\n@@\n     load()\n     run()\n+    save()\n";
    let (_dir, file, diff, out) = run_on("check", app, body);
    assert_contains(
        &text(&out.stdout),
        "hunk #1 of m.py matched at lines 2-3, but its new lines are already there (lines 2-4): \
         this looks applied already",
    );
    assert_held_back_unless_forced(
        &file,
        &diff,
        app,
        "def main():\n    load()\n    run()\n    save()\n    save()\n",
    );
}

/// A patch of added lines only under a bare `@@` (Codex appends them at
/// the end of the file) sent again after it was applied: the file already
/// ends with its lines. `check` says so and exits 1, `apply --write` and
/// `apply --transcript --write` hold it back (it was "a pure addition",
/// exit 0, and the migration line was appended twice); the first send
/// applies.
#[test]
fn a_re_sent_append_is_already_applied_and_held_back() {
    let first = "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);\n";
    let again = format!("{first}ALTER TABLE users ADD COLUMN email TEXT;\n");
    let body = "*** Update File: 002_users.sql\n@@\n+ALTER TABLE users ADD COLUMN email TEXT;\n";
    let (dir, file, diff) = project("002_users.sql", &again, &patch(body));
    let out = srview(&["check", &file, &diff]);
    assert_eq!(out.status.code(), Some(1));
    assert_contains(
        &text(&out.stdout),
        "hunk #1 of 002_users.sql adds its lines at the end of the file, which already ends with \
         them (line 2): this looks applied already, and applied again they repeat",
    );
    assert_held_back_unless_forced(
        &file,
        &diff,
        &again,
        &format!("{again}ALTER TABLE users ADD COLUMN email TEXT;\n"),
    );
    std::fs::write(&file, &again).expect("write");
    let cwd = dir.path().to_str().expect("UTF-8");
    let out = srview(&["apply", "--transcript", &diff, "--cwd", cwd, "--write"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(read(&file), again);
    std::fs::write(&file, first).expect("write");
    let out = srview(&["apply", "--transcript", &diff, "--cwd", cwd, "--write"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(read(&file), again);
}

// --- tester round 40a: what an agent's own dialect wrote and called fine ---

/// `srview ARGS` run in `dir` (an agent's paths are the current folder's).
fn srview_in(dir: &Path, args: &[&str]) -> Output {
    support::runner::srview(args).cwd(dir).output()
}

/// What a command said, stdout then stderr.
fn said(out: &Output) -> String {
    format!("{}{}", text(&out.stdout), text(&out.stderr))
}

/// The file `name` holding `content` and `input` (a tool input, a patch, a
/// reply) in a folder: `check FILE INPUT` (with `--dialect dialect`, else
/// the input's own) exits 1 saying `why`; `apply FILE INPUT --write` exits
/// 1 saying it, and leaves the file as it was.
fn assert_doubted_and_held_back(
    dialect: Option<&str>,
    (name, content): (&str, &str),
    input: &str,
    why: &str,
) {
    let dir = tempfile::tempdir().expect("temp dir");
    support::files::write(dir.path(), name, content.as_bytes());
    support::files::write(dir.path(), "input.txt", input.as_bytes());
    let with = |args: &[&'static str]| -> Vec<&str> {
        let mut all: Vec<&str> = args.to_vec();
        all.extend([name, "input.txt"]);
        if let Some(dialect) = dialect {
            all.extend(["--dialect", dialect]);
        }
        all
    };
    let what = dialect.unwrap_or("its own dialect");
    let out = srview_in(dir.path(), &with(&["check"]));
    assert_eq!(out.status.code(), Some(1), "{what}: check: {}", said(&out));
    assert_contains(&said(&out), why);
    let out = srview_in(dir.path(), &with(&["apply", "--write"]));
    assert_eq!(
        out.status.code(),
        Some(1),
        "{what}: --write: {}",
        said(&out)
    );
    assert_contains(&said(&out), why);
    let now = std::fs::read_to_string(dir.path().join(name)).expect("readable");
    assert_eq!(now, content, "{what}: --write wrote");
    // `fix` has no correction that settles a doubt: it says so (round
    // 40a's find 02: it said "nothing to fix", exit 0).
    let out = srview_in(dir.path(), &with(&["fix"]));
    assert_eq!(out.status.code(), Some(1), "{what}: fix: {}", said(&out));
    assert_contains(&said(&out), why);
    assert_contains(&said(&out), "in doubt");
    assert!(
        !said(&out).contains("nothing to fix"),
        "{what}: fix: {}",
        said(&out)
    );
}

const SHAPES: &str = "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3.14159 * self.r ** 2\n\n\nclass Square:\n    def __init__(self, s):\n        self.s = s\n\n    def area(self):\n        return self.s ** 2\n";

const SVC: &str = "def start(cfg):\n    retries = 3\n    connect(cfg)\n\n\ndef helper():\n    return 1\n\n\ndef stop(cfg):\n    retries = 3\n    disconnect(cfg)\n";

/// Round 40a's finds 02 and 07: OpenCode's `apply_patch` puts a hunk of
/// added lines under `@@ class Circle:` at the end of the file (in
/// `class Square`), and replaces a file an `*** Add File:` names (or a
/// Delete and an Add of one path) whole. `--dialect
/// opencode-apply-patch` called them exact and wrote them; the gate and
/// `--dialect apply-patch` doubted them. Now doubted in the gate's words.
#[test]
fn opencodes_patch_dialect_doubts_what_the_gate_doubts() {
    let cases = [
        (
            ("shapes.py", SHAPES),
            patch(
                "*** Update File: shapes.py\n@@ class Circle:\n+    def perimeter(self):\n+        return 2 * 3.14159 * self.r\n+\n",
            ),
            "hunk #1 of shapes.py adds its lines at the end of the file, after line 14, not after \
             its @@ line 'class Circle:' (line 1): OpenCode's apply_patch puts a hunk with no \
             context or removed lines at the end of the file, whatever its @@ line",
        ),
        (
            ("svc.py", SVC),
            patch("*** Add File: svc.py\n+x = 1\n"),
            "the patch adds svc.py, which exists (12 lines): OpenCode's apply_patch replaces it \
             whole",
        ),
        (
            ("svc.py", SVC),
            patch("*** Delete File: svc.py\n*** Add File: svc.py\n+x = 1\n"),
            "the patch deletes svc.py (section 1) and adds it again: OpenCode's apply_patch \
             replaces its 12 lines whole",
        ),
    ];
    for (file, input, why) in &cases {
        assert_doubted_and_held_back(Some("opencode-apply-patch"), *file, input, why);
    }
}

/// Round 40a's finds 03 to 05: Cline's `apply_patch` puts a hunk of added
/// lines only right after its `@@` line. Sent again, its lines already
/// stand there; an `@@` line standing twice is taken at the first; one
/// standing nowhere puts the lines at the top of the file (above a `#!`
/// line; into Python as an unexpected indent). Each was called exact.
#[test]
fn clines_hunks_placed_by_their_at_line_alone_are_doubted() {
    let order = "def order_total(subtotal, shipping):\n    total = subtotal\n    total += shipping\n    return total\n";
    let script = "#!/bin/bash\nset -e\n\nbuild() {\n  make all\n}\n\nbuild\n";
    let cases = [
        (
            ("order.py", order),
            patch("*** Update File: order.py\n@@     total = subtotal\n+    total += shipping\n"),
            "edit 1: its new text is already there (line 3, right after its @@ line \
             'total = subtotal' at line 2, where Cline's apply_patch puts it): this looks applied \
             already, and applied again it repeats what it adds",
        ),
        (
            ("svc.py", SVC),
            patch("*** Update File: svc.py\n@@     retries = 3\n+    timeout = 10\n"),
            "edit 1: its @@ line 'retries = 3' stands at line 2 and also at line 11: Cline's \
             apply_patch puts the added lines after the first, which may not be the one meant",
        ),
        (
            ("run.sh", script),
            patch("*** Update File: run.sh\n@@ build()\n+  export CC=clang\n"),
            "edit 1: its @@ line 'build()' stands nowhere in run.sh: Cline's apply_patch puts its \
             1 added line at the top of the file, before line 1, not where the @@ line names",
        ),
        (
            ("svc.py", SVC),
            patch("*** Update File: svc.py\n@@ def stop(cfg)\n+    timeout = 10\n"),
            "the patch leaves svc.py misindented: as written, line 1 (`timeout = 10`) is at \
             column 4, deeper than the line before it, which opens no block",
        ),
    ];
    for (file, input, why) in &cases {
        assert_doubted_and_held_back(Some("cline-apply-patch"), *file, input, why);
    }
    // The first send of the hunk is no doubt.
    let dir = tempfile::tempdir().expect("temp dir");
    let first = order.replace("    total += shipping\n", "");
    support::files::write(dir.path(), "order.py", first.as_bytes());
    support::files::write(dir.path(), "input.txt", cases[0].1.as_bytes());
    let out = srview_in(
        dir.path(),
        &[
            "check",
            "order.py",
            "input.txt",
            "--dialect",
            "cline-apply-patch",
        ],
    );
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
}

/// Round 40a's find 06: an Aider udiff reply cut before its closing
/// fence: Aider drops its last line (`return save(b)`) and says it
/// applied the edit. Find 08: Cline's editor `insert_line` sent again
/// after it applied inserts its line twice. Both were called exact.
#[test]
fn a_cut_udiff_reply_and_a_resent_insert_line_are_held_back() {
    let f = "def f(x):\n    a = load(x)\n    b = clean(a)\n    return save(b)\n";
    let reply = "```diff\n--- f.py\n+++ f.py\n@@ ... @@\n def f(x):\n     a = load(x)\n-    b = clean(a)\n-    return save(b)\n+    b = clean(a, strict=True)\n+    return save(b)\n";
    assert_doubted_and_held_back(
        Some("aider-udiff"),
        ("f.py", f),
        reply,
        "the ```diff fence opened at reply line 1 is not closed (is the reply cut off?): Aider \
         drops the last line of the reply, `+    return save(b)`, as if it were the closing \
         fence, so what it writes lacks that line",
    );
    let t2 = "def total(items):\n    s = sum(items)\n    s += 5\n    return s\n";
    assert_doubted_and_held_back(
        None,
        ("t2.py", t2),
        r#"{"path":"t2.py","insert_line":3,"new_text":"    s += 5"}"#,
        "its new text is already there (line 3, right after the line boundary it inserts at): \
         this looks applied already, and applied again it repeats what it adds",
    );
}

// --- tester round 40a: where patch hunks of added lines land ---

/// Round 40a's find 09: Cline puts a hunk under a bare `@@` at the top of
/// the file, above its `#!` line, docstring and `from __future__` line
/// (Python refuses the file). Find 12: Codex appends a hunk under `@@
/// class Square:` indented for a method's body after the last method's
/// `return`, where it never runs. Both were called exact.
#[test]
fn hunks_landing_above_a_files_first_lines_or_after_a_return_are_held_back() {
    let tool = "#!/usr/bin/env python3\n\"\"\"Tool that does things.\"\"\"\nfrom __future__ import annotations\n\nimport sys\n\n\ndef main() -> int:\n    return 0\n";
    assert_doubted_and_held_back(
        Some("cline-apply-patch"),
        ("tool.py", tool),
        &patch(
            "*** Update File: tool.py\n@@\n+def helper(x: int) -> int:\n+    return x * 2\n+\n+\n",
        ),
        "Cline's apply_patch puts its 3 added lines at the top of the file, above line 1 \
         '#!/usr/bin/env python3', which must stay above the file's code",
    );
    let shapes = "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3.14159 * self.r ** 2\n\n\nclass Square:\n    def __init__(self, s):\n        self.s = s\n\n    def area(self):\n        return self.s ** 2\n";
    assert_doubted_and_held_back(
        None,
        ("shapes.py", shapes),
        &patch("*** Update File: shapes.py\n@@ class Square:\n+        self.color = \"red\"\n"),
        "hunk #1 of shapes.py adds its lines at the end of the file, after line 14 `return \
         self.s ** 2`, where they never run, not right after its @@ line 'class Square:' (line 9)",
    );
}

/// A tester's find (43a-02): a trimmed hunk whose context lines are 1
/// column in while its added line sits at the file's 8 columns was said
/// "7 columns left ... moves them out of the enclosing block", though Codex
/// writes its context as the file has it and the result is right. Now only
/// its loose level is said (it still holds back); the added lines written in
/// the patch's own frame (2 columns among the file's 8) are still said
/// shifted.
#[test]
fn an_added_line_at_the_files_indentation_is_not_said_shifted() {
    let content = "class Service:\n    def start(self):\n        self.ready = False\n        self.connect()\n        self.ready = True\n";
    let body = |added: &str| {
        format!(
            "*** Update File: m.py\n@@\n  self.ready = False\n  self.connect()\n+{added}\n  self.ready = True\n"
        )
    };
    let (_dir, _, _, out) = run_on("check", content, &body("        self.log(1)"));
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!said.contains("columns left"), "{said}");
    assert_contains(&said, "matched only at level trimmed");
    let (_dir, _, _, out) = run_on("check", content, &body("  self.log(1)"));
    assert_contains(
        &text(&out.stdout),
        "the new lines are 7 columns left of the lines they replace",
    );
}

/// A tester's find (43b-02, Debian's gettext.py): a patch whose one
/// differing line is the file's line of 8 spaces, sent empty (as editors
/// strip it), matched at level trailing-space and was held back. Codex keeps
/// the file's context lines, so the result is the exact one: written.
#[test]
fn a_hunk_differing_only_in_a_blank_lines_spaces_is_written() {
    let content = "def find(all, mofile):\n    if all:\n        result.append(mofile)\n    else:\n        return mofile\n        \n    # langpack mofile -> use it\n    return result\n";
    let body = "*** Update File: m.py\n@@\n         result.append(mofile)\n     else:\n-        return mofile\n+        return os.path.abspath(mofile)\n\n     # langpack mofile -> use it\n";
    let (_dir, file, diff) = project("m.py", content, &patch(body));
    let check = srview(&["check", &file, &diff]);
    assert_eq!(check.status.code(), Some(0), "{}", text(&check.stderr));
    assert_contains(&text(&check.stdout), "level trailing-space");
    let out = srview(&["apply", &file, &diff, "--write"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        read(&file),
        content.replace("return mofile\n", "return os.path.abspath(mofile)\n")
    );
}

/// The `\` join (round 45, T-01 addendum) read in patches too: a hunk
/// whose new last line ends in a `\` its old one did not, above a line the
/// hunk does not show, joins that line onto it; with that line shown as
/// context, nothing is said.
#[test]
fn a_hunk_ending_in_a_backslash_joins_the_line_it_does_not_show() {
    let content = "import os\nA = 1\nB = 2\n";
    let body = "*** Update File: m.py\n@@\n import os\n-A = 1\n+A = 1 + \\\n";
    let (_dir, file, _diff, out) = run_on("check", content, body);
    assert_contains(
        &text(&out.stdout),
        &format!(
            "{file}: warning: hunk #1 of m.py: its new text's last line ends in `\\`, where its \
             old text's did not, so line 3 (`B = 2`), which the edit does not show, is joined \
             onto it: the file reads them as one line, `A = 1 + B = 2`: drop the `\\`, or send \
             the line it should continue with in the new text\n"
        ),
    );
    let shown = "*** Update File: m.py\n@@\n import os\n-A = 1\n+A = 1 + \\\n+    1\n B = 2\n";
    let (dir, file, diff) = project("m.py", content, &patch(shown));
    let out = srview(&["check", &file, &diff]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    drop(dir);
}

/// Tester 51 T-01, T-07, T-08: `check --dialect cline-apply-patch` said
/// exact (exit 0) of a patch whose first section's change Cline loses
/// (a file updated under `./a.py` or through a symbolic link too), of an
/// update followed by a delete of the file, and of a hunk whose ignored
/// `@@` line names another definition than the one it lands in. Each is
/// now a warning, exit 1; the whole text compared.
#[test]
fn clines_lost_and_misplaced_changes_are_said_by_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    let two = "import os\n\n\ndef f():\n    return 1\n\n\ndef g():\n    return 3\n";
    support::files::write(dir.path(), "a.py", two.as_bytes());
    std::os::unix::fs::symlink("a.py", dir.path().join("link.py")).expect("a link");
    let sim = "def f(a, b, c):\n    total = compute(a, b)\n    return total\n\n\n\
               def g(a, b, c):\n    total = compute(a, c)\n    return total\n";
    support::files::write(dir.path(), "sim.py", sim.as_bytes());
    let two_sections = |second: &str| {
        format!(
            "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
             *** Update File: {second}\n@@\n def g():\n-    return 3\n+    return 4\n*** End Patch"
        )
    };
    let lost = |second: &str, named: &str| {
        format!(
            "edit 1: exact at lines 4-5 (exact)\nedit 2: exact at lines 8-9 (exact)\n\
             warning: sections 1 and 2 both update a.py (patch lines 2-11, section 2 naming it \
             {named}): Cline's apply_patch reads each section from a.py as it was before the \
             patch and writes them in turn, so section 2's result replaces section 1's, and the \
             change of section 1 is lost: send the hunks of a.py as one section, in file order\n\
             the agent says: Successfully applied patch to the following files:\na.py\n{second}\n"
        )
    };
    let cases = [
        ("a.py", two_sections("./a.py"), lost("./a.py", "./a.py")),
        (
            "a.py",
            two_sections("link.py"),
            lost("link.py", "link.py, a symbolic link to it"),
        ),
        (
            "a.py",
            "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
             *** Delete File: ./a.py\n*** End Patch"
                .to_string(),
            "edit 1: exact at lines 4-5 (exact)\nwarning: the patch updates a.py (section 1) and \
             then deletes it as ./a.py (section 2): Cline's apply_patch writes the update, then \
             deletes the file, and the update is lost: send the patch without the `*** Delete \
             File:` section to update a.py, or without its `*** Update File:` section to delete \
             it\nthe agent says: Successfully applied patch to the following files:\na.py\n\
             ./a.py: [deleted]\n"
                .to_string(),
        ),
        (
            "sim.py",
            "*** Begin Patch\n*** Update File: sim.py\n@@ def g(a, b):\n     total = compute(a, \
             b)\n-    return total\n+    return total * 2\n*** End Patch"
                .to_string(),
            "edit 1: exact at lines 2-3 (exact)\nwarning: edit 1: its @@ line 'def g(a, b):' is \
             not in the file, so Cline searched from the top without it and placed the hunk in \
             `f` (line 2); the closest line to the header is `def g(a, b, c):` at line 6: send \
             the @@ line as the file has it, with context lines of the definition meant\nthe \
             agent says: Successfully applied patch to the following files:\nsim.py\n"
                .to_string(),
        ),
    ];
    for (file, patch, want) in &cases {
        let input = serde_json::json!({ "input": patch }).to_string();
        support::files::write(dir.path(), "input.json", input.as_bytes());
        let out = srview_in(
            dir.path(),
            &[
                "check",
                file,
                "input.json",
                "--dialect",
                "cline-apply-patch",
            ],
        );
        assert_eq!(text(&out.stdout), *want, "{patch}: {}", said(&out));
        assert_eq!(out.status.code(), Some(1), "{patch}: {}", said(&out));
    }
}
