//! The real binary in a pseudo-terminal on an apply_patch: the single-file
//! previewer and the transcript previewer show the loose hunk, ask about
//! it, and accepting again writes the reference's result.

mod support;

use support::pty::Session;

const RESULT: &str = "import math\n\n\ndef span(lo: float, hi: float) -> float:\n    \"\"\"Width of the range [lo, hi] – never negative.\"\"\"\n    return abs(hi - lo)\n\n\ndef mean(values: list[float]) -> float:\n    return sum(values) / len(values) if values else math.nan\n";

fn demo() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for name in ["calc.py", "calc.patch"] {
        std::fs::copy(assets.join(name), dir.path().join(name)).expect("copy");
    }
    dir
}

/// The transcript previewer on `dir`'s file `name`, ended (`--final`),
/// its paths read below `dir`.
fn final_transcript(dir: &std::path::Path, name: &str) -> Session {
    let cwd = dir.to_str().expect("UTF-8");
    Session::srview(dir, &["--transcript", "--final", "--cwd", cwd, name])
}

/// `key` asks first about the hunk matched at level unicode, as `apply
/// --write` holds it back (round 49 T-05: one key wrote it), calc.py left
/// as it is; `key` again accepts: the previewer leaves with 0 and calc.py
/// holds the reference's result.
fn accept_writes_result(s: &mut Session, key: &[u8], dir: &tempfile::TempDir) {
    let before = support::files::read(dir.path(), "calc.py");
    s.press(key);
    let again = format!("press {} again", String::from_utf8_lossy(key));
    s.wait_for("the question", |c| {
        c.contains("matched the file only at level unicode") && c.contains(&again)
    });
    assert_eq!(support::files::read(dir.path(), "calc.py"), before);
    s.press(key);
    assert_eq!(s.exit_code(), 0);
    assert_eq!(support::files::read(dir.path(), "calc.py"), RESULT);
}

#[test]
fn the_single_file_previewer_marks_the_loose_hunk_and_accepts_the_result() {
    let dir = demo();
    let mut s = Session::srview(dir.path(), &["calc.py", "calc.patch", "--final"]);
    s.wait_for("the loose hunk marked", |c| {
        c.contains("loose match") && c.contains("≈ unicode")
    });
    accept_writes_result(&mut s, b"a", &dir);
}

#[test]
fn the_transcript_previewer_opens_the_patch_as_a_tab_and_accepts_all() {
    let dir = demo();
    let mut s = final_transcript(dir.path(), "calc.patch");
    s.wait_for("the tab with its loose hunk", |c| {
        c.contains("calc.py") && c.contains("loose match") && c.contains("≈ unicode")
    });
    accept_writes_result(&mut s, b"A", &dir);
}

/// An agent's tool input (`--dialect opencode-edit`, a recorded run whose
/// BlockAnchorReplacer replaced two misremembered lines) in the single-file
/// previewer: the loose stage is named, `a` asks first, and a second `a`
/// writes what OpenCode wrote.
#[test]
fn the_previewer_shows_an_agents_loose_stage_and_asks_before_writing_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let record: serde_json::Value = serde_json::from_str(&support::files::read(
        root,
        "tests/fixtures/matchers/recorded/opencode_edit/c2_fuzzy_block_anchor-1.json",
    ))
    .expect("JSON");
    std::fs::write(
        dir.path().join("inventory.py"),
        record["before"].as_str().expect("before"),
    )
    .expect("written");
    let mut input = record["input"].clone();
    input["filePath"] = "inventory.py".into();
    std::fs::write(dir.path().join("input.json"), input.to_string()).expect("written");
    let mut s = Session::srview(
        dir.path(),
        &["inventory.py", "input.json", "--dialect", "opencode-edit"],
    );
    s.wait_for("the loose stage named", |c| {
        c.contains("≈ BlockAnchorReplacer 17-21") && c.contains("placed by a loose stage")
    });
    // The block is srview's rendering of a JSON input: no line number of
    // its own, and its level is OpenCode's stage, not a silent reference.
    s.wait_for("the block's detail", |c| {
        c.contains("#1 placed by the agent's loose stage BlockAnchorReplacer\n")
            || c.contains("#1 placed by the agent's loose stage BlockAnchorReplacer ")
    });
    assert!(!s.contents().contains("diff line"), "{}", s.contents());
    s.press(b"a");
    s.wait_for("the question", |c| {
        c.contains("loose stage BlockAnchorReplacer, not as the model wrote it")
            && c.contains("press a")
    });
    s.press(b"a");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(
        support::files::read(dir.path(), "inventory.py"),
        record["after"].as_str().expect("after")
    );
}

/// A whole Aider reply in the transcript previewer runs through Aider's own
/// matcher: a SEARCH that lost its leading whitespace is placed by Aider's
/// `missing_leading_whitespace` stage (its REPLACE re-indented), named on
/// the tab; `A` asks first, and a second `A` writes what Aider writes.
#[test]
fn the_transcript_previewer_runs_an_aider_reply_through_aiders_matcher() {
    let dir = support::files::folder(&[
        ("calc.py", "def f():\n    x = 1\n    return x\n"),
        (
            "reply.md",
            "calc.py\n```python\n<<<<<<< SEARCH\nx = 1\nreturn x\n=======\nx = 2\nreturn x\n>>>>>>> REPLACE\n```\n",
        ),
    ]);
    let mut s = final_transcript(dir.path(), "reply.md");
    s.wait_for("Aider's loose stage on the tab", |c| {
        c.contains("≈ missing_leading_whitespace 2-3") && c.contains("Aider 0.86.2")
    });
    // The block is numbered by its lines in the reply, its stage Aider's.
    s.wait_for("the block's reply lines", |c| {
        c.contains(
            "#1 placed by the agent's loose stage missing_leading_whitespace; reply lines 3-9",
        )
    });
    s.press(b"A");
    s.wait_for("the question", |c| c.contains("press A again"));
    s.press(b"A");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(
        support::files::read(dir.path(), "calc.py"),
        "def f():\n    x = 2\n    return x\n"
    );
}

/// An Aider reply whose only block fails (its SEARCH is not in util.py):
/// the transcript previewer still opens util.py's tab, the block shown
/// failing with srview's diagnosis, Aider's own error said; nothing is
/// waiting for a first edit.
#[test]
fn the_transcript_previewer_shows_a_failing_aider_block_on_its_file() {
    let dir = support::files::folder(&[
        (
            "util.py",
            "def total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n",
        ),
        (
            "reply.md",
            "util.py\n```python\n<<<<<<< SEARCH\ndef mean(values):\n    return total(xs) / len(xs)\n=======\ndef mean(xs):\n    return total(xs) / max(len(xs), 1)\n>>>>>>> REPLACE\n```\n",
        ),
    ]);
    let mut s = final_transcript(dir.path(), "reply.md");
    s.wait_for("util.py's tab, its block failing, Aider's error", |c| {
        c.contains("util.py")
            && c.contains("Aider 0.86.2's diff edit format fails here")
            // The block list's row (`#1 failed: ...` under it lasts only
            // until the diagnosis runs: a loaded machine may never draw it).
            && c.contains("#1  failed")
            && !c.contains("waiting for")
    });
    s.quit();
}
