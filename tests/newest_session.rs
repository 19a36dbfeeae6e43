//! `srview --follow` and `srview session` without a session named: the
//! newest session an agent ran in this folder's repository, found by the
//! workspace the session records, never a newer one of another folder.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

mod support;
use support::agents::{fixtures, session_path};
use support::pty::{Session, Terminal};
use support::runner::{code, srview, stderr, stdout};

/// The folder the captures were recorded in.
const RECORDED: &str = "/home/user/project";

/// Writes the saved session of `scenario` under `home` at `relative`, as
/// if recorded in `workspace`, last written `age` ago.
fn install(scenario: &str, home: &Path, relative: &str, workspace: &Path, age: Duration) {
    let saved = session_path(&fixtures().join(scenario));
    let text = fs::read_to_string(&saved).expect("read the capture");
    assert!(text.contains(RECORDED), "{scenario} names {RECORDED}");
    let path = home.join(relative);
    fs::create_dir_all(path.parent().expect("a folder")).expect("mkdir");
    let here = workspace.to_str().expect("UTF-8");
    fs::write(&path, text.replace(RECORDED, here)).expect("write");
    let file = fs::File::options().write(true).open(&path).expect("open");
    file.set_modified(SystemTime::now() - age).expect("mtime");
}

/// A home with an older Claude Code session recorded in `project` and a
/// newer Codex session recorded in `other`.
fn home_for(project: &Path, other: &Path) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("tempdir");
    install(
        "claude-code-2.1.328/a_edits_ok",
        home.path(),
        ".claude/projects/-project/e68f16d0-5aff-4d1d-836c-d1c566efb656.jsonl",
        project,
        Duration::from_secs(3600),
    );
    install(
        "codex-0.169.0/a_success",
        home.path(),
        ".codex/sessions/2026/11/30/rollout-2026-11-30T16-44-57-01a22d58-6527-7621-ba5b-6b46e3e28963.jsonl",
        other,
        Duration::from_secs(60),
    );
    home
}

/// Two workspaces under a root: the project (a git repository with a
/// subfolder) and another folder; and a home with a session of each.
struct Setup {
    root: tempfile::TempDir,
    project: PathBuf,
    other: PathBuf,
    home: tempfile::TempDir,
}

fn setup() -> Setup {
    let root = tempfile::tempdir().expect("tempdir");
    let project = root.path().join("project");
    fs::create_dir_all(project.join(".git")).expect("mkdir");
    fs::create_dir_all(project.join("src")).expect("mkdir");
    let other = root.path().join("other");
    fs::create_dir_all(&other).expect("mkdir");
    let home = home_for(&project, &other);
    Setup {
        root,
        project,
        other,
        home,
    }
}

/// `srview ARGS` run in `dir` with `home` as the home folder.
fn srview_in(dir: &Path, home: &Path, args: &[&str]) -> std::process::Output {
    srview(args)
        .cwd(dir)
        .env("HOME", home.to_str().expect("UTF-8"))
        .output()
}

/// `srview --follow` on a terminal in `dir`, with `home` as the home folder.
fn follow_in(dir: &Path, home: &Path) -> Session {
    let home = home.to_str().expect("UTF-8");
    let env = [("HOME", home)];
    let term = Terminal {
        env: &env,
        ..Terminal::default()
    };
    Session::spawn_in(dir, env!("CARGO_BIN_EXE_srview"), &["--follow"], &term)
}

#[test]
fn session_without_a_path_lists_the_newest_session_of_this_repository() {
    let Setup {
        project,
        other,
        home,
        ..
    } = &setup();
    // From the project's subfolder: the older Claude Code session, not the
    // newer Codex one of the other folder.
    let out = srview_in(&project.join("src"), home.path(), &["session", "--list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let said = stderr(&out);
    assert!(
        said.starts_with("srview: the newest session of this folder: ")
            && said.contains("e68f16d0-5aff-4d1d-836c-d1c566efb656.jsonl"),
        "{said}"
    );
    let listing = stdout(&out);
    assert!(
        listing.starts_with("Claude Code 2.1.328: 2 edits, 0 failed"),
        "{listing}"
    );
    // From the other folder: its Codex session.
    let out = srview_in(other, home.path(), &["session", "--list"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let listing = stdout(&out);
    assert!(listing.starts_with("Codex 0.169.0"), "{listing}");
    // Outside a repository: the agent's folder or one below it, never a
    // folder that merely holds the agent's (`other` is not a repository).
    let below = other.join("deeper");
    std::fs::create_dir_all(&below).expect("mkdir");
    let out = srview_in(&below, home.path(), &["session", "--list"]);
    assert!(
        stdout(&out).starts_with("Codex 0.169.0"),
        "{}",
        stderr(&out)
    );
    let above = other.parent().expect("the root");
    let out = srview_in(above, home.path(), &["session", "--list"]);
    assert_eq!(code(&out), 2, "{}", stdout(&out));
}

#[test]
fn no_session_for_this_folder_is_refused_with_what_was_found() {
    let Setup { root, home, .. } = &setup();
    let elsewhere = root.path().join("elsewhere");
    fs::create_dir_all(&elsewhere).expect("mkdir");
    for args in [&["session", "--list"][..], &["--follow"][..]] {
        let out = srview_in(&elsewhere, home.path(), args);
        assert_eq!(code(&out), 2, "{args:?}");
        assert_eq!(
            stderr(&out),
            format!(
                "srview: no agent session recorded for {} yet; 2 were found, for other \
                 folders (`srview sessions` lists them). Start the agent there, or name the \
                 session file or id\n",
                elsewhere.canonicalize().expect("canonical").display()
            ),
            "{args:?}"
        );
    }
    let empty = tempfile::tempdir().expect("tempdir");
    let out = srview_in(&elsewhere, empty.path(), &["--follow"]);
    assert_eq!(code(&out), 2);
    let said = stderr(&out);
    assert!(said.contains("yet; none was found at all."), "{said}");
}

#[test]
fn follow_without_a_file_previews_the_newest_session_of_this_repository() {
    let Setup { project, home, .. } = &setup();
    let mut s = follow_in(&project.join("src"), home.path());
    s.wait_for("the project's Claude Code session, followed", |c| {
        c.contains("Claude Code 2.1.328")
            && c.contains("2 edits")
            && c.contains(&format!(
                "following {}/.claude/projects/-project/e68f",
                home.path().display()
            ))
    });
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}

#[test]
fn follow_on_a_terminal_waits_for_the_first_session_of_this_repository() {
    let Setup { project, other, .. } = &setup();
    let home = tempfile::tempdir().expect("tempdir");
    let mut s = follow_in(project, home.path());
    s.wait_for("srview waiting", |c| {
        c.contains("yet: waiting for one to start there (Ctrl-C stops)")
    });
    // Another folder's session starting is not taken; this one's is.
    install(
        "codex-0.169.0/a_success",
        home.path(),
        ".codex/sessions/2026/11/30/rollout-2026-11-30T16-44-57-01a22d58-6527-7621-ba5b-6b46e3e28963.jsonl",
        other,
        Duration::ZERO,
    );
    std::thread::sleep(Duration::from_millis(1200));
    assert!(!s.contents().contains("Codex"), "{}", s.contents());
    install(
        "claude-code-2.1.328/a_edits_ok",
        home.path(),
        ".claude/projects/-project/e68f16d0-5aff-4d1d-836c-d1c566efb656.jsonl",
        project,
        Duration::ZERO,
    );
    s.wait_for("the session that started here, followed", |c| {
        c.contains("Claude Code 2.1.328") && c.contains("2 edits")
    });
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}
