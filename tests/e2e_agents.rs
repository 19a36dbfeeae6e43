//! The real binary in a pseudo-terminal following agents: a Claude Code
//! stream and a Codex rollout growing on disk as the agent writes them
//! (`srview --follow`), a Cline edit the user never approved written with
//! `a`, a Cline CLI apply_patch drawn by Cline's own matcher, and a saved
//! session opened in the browser.

use std::fs;
use std::path::Path;
use std::time::Duration;

mod support;
use support::agents::{expected, fixtures, session_path};
use support::pty::{Session, Terminal};

/// The capture `name` (`agent-version/scenario`) and a workspace holding
/// its files as they were before the run.
fn recorded(name: &str) -> (std::path::PathBuf, tempfile::TempDir) {
    let scenario = fixtures().join(name);
    let dir = workspace(&scenario);
    (scenario, dir)
}

/// A workspace holding each file of `scenario` as it was before the run.
fn workspace(scenario: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut seen = std::collections::HashSet::new();
    for e in expected(scenario).edits {
        if seen.insert(e.file.clone())
            && let Some(text) = e.content_before
        {
            fs::write(dir.path().join(&e.file), text).expect("write");
        }
    }
    dir
}

/// Appends `bytes` to `path` in `pieces` writes, a pause between them, as
/// an agent writes its output.
fn grow(path: &Path, bytes: &[u8], pieces: usize) {
    let step = bytes.len().div_ceil(pieces.max(1)).max(1);
    for piece in bytes.chunks(step) {
        support::files::append(path, piece);
        std::thread::sleep(Duration::from_millis(40));
    }
}

/// Quits with `q` (status 0), `file` holding `content`.
fn quit_leaving(s: &mut Session, file: &Path, content: &str) {
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
    assert_eq!(fs::read_to_string(file).expect("read"), content);
}

fn follow(dir: &Path, file: &str) -> Session {
    let cwd = dir.to_str().expect("UTF-8");
    Session::srview(dir, &["--follow", file, "--cwd", cwd])
}

#[test]
fn a_growing_claude_code_stream_is_previewed_edit_by_edit() {
    let (scenario, dir) = recorded("claude-code-2.1.328/a_edits_ok");
    let before = fs::read_to_string(dir.path().join("inventory.py")).expect("read");
    let stream = fs::read(scenario.join("stdout.jsonl")).expect("read");
    let log = dir.path().join("claude.jsonl");
    // The agent has started: the first edit's input is on its way.
    let cut = stream.len() / 4;
    fs::write(&log, &stream[..cut]).expect("write");
    let mut s = follow(dir.path(), "claude.jsonl");
    s.wait_for("the agent named", |c| c.contains("Claude Code 2.1.328"));
    grow(&log, &stream[cut..], 12);
    s.wait_for_all(
        "both edits, each applied by both",
        &[
            "2 edits",
            "Claude Code: applied · srview: applies (exact)",
            "edit 2/2",
        ],
    );
    // The agent wrote its edits: srview writes nothing of them.
    s.press(b"a");
    s.wait_for("the refusal", |c| c.contains("applied this edit itself"));
    s.press(b"[");
    s.wait_for("the first edit", |c| c.contains("edit 1/2"));
    // srview never writes an edit the agent applied.
    quit_leaving(&mut s, &dir.path().join("inventory.py"), &before);
}

#[test]
fn a_growing_codex_rollout_shows_the_loose_match_codex_called_a_success() {
    let (scenario, dir) = recorded("codex-0.169.0/d_fuzzy_whitespace_unicode");
    let rollout = fs::read(session_path(&scenario)).expect("read");
    let log = dir.path().join("rollout.jsonl");
    fs::write(&log, b"").expect("write");
    let mut s = follow(dir.path(), "rollout.jsonl");
    s.wait_for("the first frame", |c| c.contains("waiting"));
    let lines: Vec<&[u8]> = rollout.split_inclusive(|&b| b == b'\n').collect();
    for line in lines {
        grow(&log, line, 1);
    }
    // Both applied it: a loose match, not a DISAGREEMENT.
    s.wait_for_all(
        "the loose match",
        &[
            "Codex 0.169.0",
            "loose match: matched only loosely (trailing-space, unicode) while Codex reported plain success",
        ],
    );
    s.quit_agreeing();
}

#[test]
fn an_edit_the_user_never_approved_is_written_with_a_after_a_question() {
    let (scenario, dir) = recorded("cline-classic-2.18.0/e_noyolo_json");
    let before = fs::read_to_string(dir.path().join("calc.py")).expect("read");
    let log = dir.path().join("cline.jsonl");
    fs::write(&log, b"").expect("write");
    let mut s = follow(dir.path(), "cline.jsonl");
    grow(
        &log,
        &fs::read(scenario.join("stdout.txt")).expect("read"),
        6,
    );
    // The stream has no end while followed, but Cline's own record says
    // the task stopped while the edit awaited approval (its `ask` answered
    // by a `resume_task`): never run, as soon as that is read.
    s.wait_for("the edit, never run", |c| c.contains("Cline: not run"));
    quit_leaving(&mut s, &dir.path().join("calc.py"), &before);

    // Piped live (the output ends a moment after the edit): the edit was
    // never run, srview read the file while it waited, and `a` writes it.
    let stdout = scenario.join("stdout.txt");
    let srview = env!("CARGO_BIN_EXE_srview");
    let cwd = dir.path().display();
    let live = format!(
        "(cat {}; sleep 1) | {srview} - --cwd {cwd}",
        stdout.display()
    );
    let mut s = Session::spawn_in(dir.path(), "sh", &["-c", &live], &Terminal::default());
    s.wait_for("the edit, never run", |c| c.contains("Cline: not run"));
    // Asked first, saying what was checked; `a` again writes.
    s.press(b"a");
    s.wait_for("the question", |c| {
        c.contains("press a again to write edit")
    });
    assert_eq!(
        fs::read_to_string(dir.path().join("calc.py")).expect("read"),
        before,
        "nothing written before the answer"
    );
    s.press(b"a");
    s.wait_for("the write", |c| c.contains("wrote /"));
    let after = fs::read_to_string(dir.path().join("calc.py")).expect("read");
    assert_ne!(after, before, "srview's result was written");
    // Written once: the file no longer holds what the edit was applied to.
    s.press(b"a");
    s.wait_for("the second write refused", |c| c.contains("not accepted"));
    quit_leaving(&mut s, &dir.path().join("calc.py"), &after);

    // Read all at once, after the fact: no later edit wrote calc.py, so
    // the file as it is now is what Cline had (on-disk); `a` asks, then
    // writes over exactly that content.
    fs::write(dir.path().join("calc.py"), &before).expect("write");
    let after_fact = format!("cat {} | {srview} - --cwd {cwd}", stdout.display());
    let mut s = Session::spawn_in(dir.path(), "sh", &["-c", &after_fact], &Terminal::default());
    s.wait_for("the edit, never run", |c| c.contains("Cline: not run"));
    s.press(b"a");
    s.wait_for("the question", |c| {
        c.contains("press a again to write edit")
    });
    s.press(b"a");
    s.wait_for("the write", |c| c.contains("wrote /"));
    quit_leaving(&mut s, &dir.path().join("calc.py"), &after);
}

/// A Cline CLI `--json` stream cut before its apply_patch's result (the
/// CLI still runs it: the output does not say whether it wrote the file),
/// piped live into srview over `dir`.
fn cline_cli_cut_before_the_result(scenario: &Path, dir: &Path) -> Session {
    let stream = fs::read_to_string(scenario.join("stdout.jsonl")).expect("read");
    let result = stream
        .find(r#""type":"content_end","contentType":"tool""#)
        .expect("the tool's result");
    let cut = &stream[..stream[..result].rfind('\n').expect("a line before") + 1];
    let log = dir.join("cline.jsonl");
    fs::write(&log, cut).expect("write");
    let live = format!(
        "(cat {}; sleep 1) | {} - --cwd {}",
        log.display(),
        env!("CARGO_BIN_EXE_srview"),
        dir.display()
    );
    Session::spawn_in(dir, "sh", &["-c", &live], &Terminal::default())
}

/// Cline CLI's lenient apply_patch, followed live: a hunk only Cline's
/// similarity stage places (patch_fail: the removed `print(add(2, 4))` is
/// `print(add(2, 3))` in the file) is drawn placed, loose, by Cline's stage
/// name, where the live view ran Codex's rules and said "apply_patch
/// fails". The output ends before Cline's result: `a` writes nothing (Cline
/// may have written it). A patch Cline rejects (patch_fail2) is refused
/// with Cline's own error text.
#[test]
fn a_cline_cli_patch_is_drawn_live_by_clines_own_matcher() {
    let (scenario, dir) = recorded("cline-cli-3.0.65/patch_fail");
    let file = dir.path().join("calc.py");
    let before = fs::read_to_string(&file).expect("read");
    let mut s = cline_cli_cut_before_the_result(&scenario, dir.path());
    // Once the output has ended.
    s.wait_for_all(
        "the hunk placed by Cline's similarity stage",
        &[
            "· ended ·",
            "srview: applies (exact, similarity)",
            "≈ similarity",
            "#2 placed by the agent's loose stage similarity",
            "the output ends before the agent's result on 1 edit: the agent may",
        ],
    );
    let screen = s.contents();
    assert!(
        !screen.contains("fails") && !screen.contains("Failed to find expected lines"),
        "{screen}"
    );
    s.press(b"a");
    s.wait_for("the refusal", |c| {
        c.contains("not accepted: the output ends before Cline CLI's verdict on this edit")
    });
    quit_leaving(&mut s, &file, &before);

    let (scenario, dir) = recorded("cline-cli-3.0.65/patch_fail2");
    let mut s = cline_cli_cut_before_the_result(&scenario, dir.path());
    s.wait_for_all(
        "Cline's own refusal",
        &[
            "srview: fails",
            "apply_patch failed: Patch could not be applied because 1 hunk did not",
            "calc.py: hunk 2: Could not find matching context (similarity: 0.38)",
        ],
    );
    s.assert_not_shown("Failed to find expected lines");
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}

#[test]
fn the_session_browser_lists_failed_edits_first_and_opens_one() {
    let (scenario, dir) = recorded("claude-code-2.1.328/b_edit_nomatch");
    let session = session_path(&scenario);
    let cwd = dir.path().to_str().expect("UTF-8");
    let mut s = Session::srview_at_80x24(
        dir.path(),
        &["session", session.to_str().expect("UTF-8"), "--cwd", cwd],
    );
    s.wait_for_all("the list", &["FAILED", "Enter open"]);
    s.press(b"!");
    s.wait_for("failed first", |c| {
        c.contains("failed edits and disagreements first")
    });
    s.press(b"\r");
    s.wait_for("the failed edit's previewer", |c| {
        // Named by its number (2), as the list numbers it, not by its
        // place in the failed-first order.
        c.contains("Claude Code: failed") && c.contains("edit 2/2")
    });
    // `s` saves the edit's own text (its Edit input as edit JSON) to a
    // new file in the current folder, and says where; again: beside it.
    s.press(b"s");
    s.wait_for("saved", |c| c.contains("saved edit 2's text to"));
    s.press(b"s");
    s.wait_for("saved again", |c| c.contains("srview-edit-2-2.json"));
    let saved = fs::read_to_string(dir.path().join("srview-edit-2.json")).expect("saved");
    assert!(
        saved.starts_with("{\"tool\":\"Edit\",\"file_path\":"),
        "{saved}"
    );
    assert!(saved.contains("LOW_STOK = 5"), "{saved}");
    assert_eq!(
        fs::read_to_string(dir.path().join("srview-edit-2-2.json")).expect("saved"),
        saved
    );
    s.press(b"\x1b");
    s.wait_for("back to the list", |c| c.contains("Enter open"));
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}

#[test]
fn cline_classic_ui_messages_rewritten_in_place_are_followed_version_by_version() {
    let scenario = fixtures().join("cline-classic-2.18.0/a_ok");
    let versions = scenario.join("ui_messages");
    let index: Vec<(u64, String)> =
        serde_json::from_slice(&fs::read(versions.join("index.json")).expect("read"))
            .expect("index");
    let dir = workspace(&scenario);
    let before = fs::read_to_string(dir.path().join("calc.py")).expect("read");
    let ui = dir.path().join("ui_messages.json");
    fs::write(&ui, b"[]").expect("write");
    let mut s = follow(dir.path(), "ui_messages.json");
    let mut seen_streaming = false;
    for (_, name) in &index {
        // As Cline writes it: a temporary file renamed over the old one.
        let tmp = dir.path().join("ui_messages.json.tmp");
        fs::copy(versions.join(name), &tmp).expect("copy");
        fs::rename(&tmp, &ui).expect("rename");
        std::thread::sleep(Duration::from_millis(60));
        seen_streaming |= s.contents().contains("srview: streaming");
    }
    s.wait_for_all(
        "the edit, applied by both",
        &["1 edit", "Cline: applied · srview: applies"],
    );
    assert!(seen_streaming, "the edit was shown while its diff grew");
    quit_leaving(&mut s, &dir.path().join("calc.py"), &before);
}

#[test]
fn quitting_while_the_agent_still_writes_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = format!("(sleep 2; echo late) | {} -", env!("CARGO_BIN_EXE_srview"));
    let mut s = Session::spawn_in(dir.path(), "sh", &["-c", &script], &Terminal::default());
    s.wait_for("the first frame", |c| c.contains("waiting"));
    s.press(b"q");
    s.wait_for("the warning", |c| {
        c.contains("the output piped into srview had not ended")
    });
    // Nothing an agent wrote was read: not a success.
    assert_eq!(s.exit_code(), 1);
}
