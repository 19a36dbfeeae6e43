//! `srview sessions`: a home folder built from the captures in
//! tests/fixtures/agents (each agent's files at its usual place, with set
//! modification times), listed newest first with counts of edits, failed
//! and loose ones; `--agent`, `--since`, HOME and the folder argument; the
//! Aider history of the repository srview runs in.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

mod support;
use support::agents::fixtures;
use support::files::copy_tree;
use support::runner::{srview, stderr, stdout};

/// 2026-11-30 00:00 UTC plus `hours`.
fn at(hours: u64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_secs(1_795_996_800 + hours * 3600)
}

fn touch(path: &Path, when: SystemTime) {
    let f = fs::File::options().write(true).open(path).unwrap();
    f.set_modified(when).unwrap();
}

fn only_file(dir: &Path) -> PathBuf {
    let mut files: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files.remove(0)
}

/// The home folder and the repository (with an Aider history).
fn build(root: &Path) -> (PathBuf, PathBuf) {
    let home = root.join("home");
    let f = fixtures();
    // Claude Code: two sessions of one project, and their backups.
    let claude = home.join(".claude");
    for (name, hours) in [("a_edits_ok", 1), ("b_edit_nomatch", 5)] {
        let src = f.join("claude-code-2.1.328").join(name).join("session");
        copy_tree(&src, &claude);
        let file = only_file(&src.join("projects/-home-user-project"));
        touch(
            &claude
                .join("projects/-home-user-project")
                .join(file.file_name().unwrap()),
            at(hours),
        );
    }
    // Codex: the fuzzy rollout, its workspace moved under the temp folder
    // with calc.py as Codex left it (the recorded diff is undone on it).
    let ws = root.join("project");
    fs::create_dir_all(&ws).unwrap();
    let src = f.join("codex-0.169.0/d_fuzzy_whitespace_unicode");
    let expected: serde_json::Value =
        serde_json::from_slice(&fs::read(src.join("expected.json")).unwrap()).unwrap();
    fs::write(
        ws.join("calc.py"),
        expected["edits"][0]["contentAfter"].as_str().unwrap(),
    )
    .unwrap();
    let rollout = only_file(&src.join("session/sessions/2026/11/30"));
    let day = home.join(".codex/sessions/2026/11/30");
    fs::create_dir_all(&day).unwrap();
    let text = fs::read_to_string(&rollout)
        .unwrap()
        .replace("/home/user/project", &ws.to_string_lossy());
    let dest = day.join(rollout.file_name().unwrap());
    fs::write(&dest, text).unwrap();
    touch(&dest, at(3));
    // Codex: a failed patch.
    let rollout =
        only_file(&f.join("codex-0.169.0/b_context_mismatch/session/sessions/2026/11/30"));
    let dest = day.join(rollout.file_name().unwrap());
    fs::copy(&rollout, &dest).unwrap();
    touch(&dest, at(2));
    // Cline CLI 3.x.
    let src = f.join("cline-cli-3.0.65/patch_fail/session/sessions");
    copy_tree(&src, &home.join(".cline/data/sessions"));
    for dir in fs::read_dir(home.join(".cline/data/sessions")).unwrap() {
        let dir = dir.unwrap().path();
        let id = dir.file_name().unwrap().to_string_lossy().to_string();
        touch(&dir.join(format!("{id}.messages.json")), at(4));
    }
    // Cline classic (the CLI's data folder).
    let src = f.join("cline-classic-2.18.0/b_fail/session/tasks");
    copy_tree(&src, &home.join(".cline/data/tasks"));
    for dir in fs::read_dir(home.join(".cline/data/tasks")).unwrap() {
        touch(
            &dir.unwrap().path().join("api_conversation_history.json"),
            at(6),
        );
    }
    // Aider: the history in the repository srview runs in.
    let repo = root.join("repo");
    fs::create_dir_all(repo.join(".git")).unwrap();
    fs::create_dir_all(repo.join("src")).unwrap();
    let history = repo.join(".aider.chat.history.md");
    fs::copy(
        f.join("aider-0.86.2/b_nomatch_retry/session/.aider.chat.history.md"),
        &history,
    )
    .unwrap();
    touch(&history, at(0));
    (home, repo)
}

fn sessions(args: &[&str], home: &Path, dir: &Path) -> (Option<i32>, String, String) {
    let out = srview(["sessions"])
        .args(args)
        .env("HOME", &home.to_string_lossy())
        .cwd(dir)
        .output();
    (out.status.code(), stdout(&out), stderr(&out))
}

/// Each line with its workspace and its path (which may name the temp
/// folder) reduced to their last components.
fn rows(stdout: &str) -> Vec<String> {
    let mut lines = stdout.lines();
    let header = lines.next().unwrap_or_default();
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>().join(" "),
        "modified (UTC) agent version edits failed loose unknown workspace session"
    );
    let last = |path: &str| {
        Path::new(path)
            .file_name()
            .map_or(path.to_string(), |n| n.to_string_lossy().to_string())
    };
    lines
        .map(|l| {
            let (rest, path) = l.rsplit_once("  ").unwrap();
            let (head, workspace) = rest.trim_end().rsplit_once("  ").unwrap();
            format!("{head}  {}  {}", last(workspace), last(path))
        })
        .collect()
}

#[test]
fn sessions_are_listed_newest_first_with_counts() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, repo) = build(tmp.path());
    // Run from a folder inside the repository: its Aider history is found.
    let (code, out, err) = sessions(&[], &home, &repo.join("src"));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(err, "");
    assert_eq!(
        rows(&out),
        [
            "2026-11-30 06:00  cline-classic 2.18.0        2      1     0       0  -  1796057348262",
            "2026-11-30 05:00  claude-code   2.1.328       2      1     0       0  project  3232263b-8808-485d-9f19-92bc531fe2d3.jsonl",
            "2026-11-30 04:00  cline-cli     3.0.65        1      0     0       1  project  1796056324147_tv275",
            "2026-11-30 03:00  codex         0.169.0       1      0     1       0  project  rollout-2026-11-30T16-45-01-01a22d58-74e1-7460-96b2-da4b723587dc.jsonl",
            "2026-11-30 02:00  codex         0.169.0       1      1     0       1  project  rollout-2026-11-30T16-44-58-01a22d58-6aa8-70b0-942d-88f862116b3d.jsonl",
            "2026-11-30 01:00  claude-code   2.1.328       2      0     0       0  project  e68f16d0-5aff-4d1d-836c-d1c566efb656.jsonl",
            "2026-11-30 00:00  aider         0.86.2        2      1     0       2  repo  .aider.chat.history.md",
        ]
    );
    // Each session's workspace, whole: as the session records it (the
    // moved Codex rollout names the temp folder), an Aider history's
    // folder, none for Cline classic; one column wide enough for all.
    let workspaces: Vec<String> = out
        .lines()
        .skip(1)
        .map(|l| l[70..].rsplit_once("  ").unwrap().0.trim_end().to_string())
        .collect();
    let moved = tmp.path().join("project").display().to_string();
    let repo_dir = repo.display().to_string();
    assert_eq!(
        workspaces,
        [
            "-",
            "/home/user/project",
            "/home/user/project",
            moved.as_str(),
            "/home/user/project",
            "/home/user/project",
            repo_dir.as_str(),
        ]
    );
    let session_column = out.lines().next().unwrap().find("session").unwrap();
    assert!(
        out.lines()
            .skip(1)
            .all(|l| l[session_column - 2..].starts_with("  /")),
        "{out}"
    );

    // A session cut off before any edit could be read is listed as
    // unreadable, not as a session without edits.
    let day = home.join(".codex/sessions/2026/11/29");
    fs::create_dir_all(&day).unwrap();
    let torn = day.join("rollout-2026-11-29T00-00-00-torn.jsonl");
    fs::write(
        &torn,
        "{\"timestamp\":\"2026-11-29T00:00:00Z\",\"type\":\"sess",
    )
    .unwrap();
    touch(&torn, at(0));
    let (_, out, _) = sessions(&["--agent", "codex"], &home, &repo);
    let row = rows(&out).pop().unwrap_or_default();
    assert!(
        row.starts_with("2026-11-30 00:00  codex         unreadable: no edit could be read from "),
        "{out}"
    );
    fs::remove_file(&torn).unwrap();

    // --agent, and the folder argument instead of HOME.
    let elsewhere = tmp.path().join("nowhere");
    fs::create_dir_all(&elsewhere).unwrap();
    let (code, out, _) = sessions(
        &[&home.to_string_lossy(), "--agent", "codex"],
        &elsewhere,
        &elsewhere,
    );
    assert_eq!(code, Some(0));
    assert_eq!(rows(&out).len(), 2, "{out}");
    assert!(rows(&out).iter().all(|r| r.contains("  codex ")), "{out}");

    // --since: on or after the day given.
    let (_, out, _) = sessions(&["--since", "2026-11-30"], &home, &elsewhere);
    assert_eq!(rows(&out).len(), 6, "{out}");
    let (_, out, err) = sessions(&["--since", "2026-12-01"], &home, &elsewhere);
    assert_eq!(out, "");
    assert!(
        err.starts_with("srview: no sessions since 2026-12-01 found under "),
        "{err}"
    );
    let missing = home.join("missing");
    let (code, _, err) = sessions(&[&missing.to_string_lossy()], &home, &elsewhere);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        format!(
            "srview: {} is not a folder: name the home folder to search\n",
            missing.display()
        )
    );
    let (code, _, err) = sessions(&["--since", "last week"], &home, &elsewhere);
    assert_eq!(code, Some(2));
    assert_eq!(
        err,
        "srview: --since last week: expected a date as YYYY-MM-DD\n"
    );
}

/// `srview session ID`: the session under HOME whose id starts with ID.
#[test]
fn a_session_is_opened_by_its_id() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, repo) = build(tmp.path());
    let run = |id: &str| {
        srview(["session", id, "--json"])
            .env("HOME", &home.to_string_lossy())
            .cwd(&repo)
            .output()
    };
    let out = run("3232263b");
    assert!(out.status.success(), "{out:?}");
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["agent"], "claude-code");
    assert_eq!(got["edits"][1]["agentVerdict"], "failed");
    // A Codex rollout by the id after its date; a Cline CLI session folder.
    let out = run("01a22d58-74e1");
    assert!(out.status.success(), "{out:?}");
    let got: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["edits"][0]["srview"]["loose"], true);
    assert!(run("1796056324147_tv275").status.success());

    let out = run("01a22d58");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with("srview: 01a22d58 names 2 sessions: "),
        "{err}"
    );
    let out = run("nosuch");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        stderr(&out),
        "srview: nosuch: no such file, and no session with that id\n"
    );
}

/// `srview sessions | head -1` once `head` has gone, and `session` (text
/// and `--json`) and `check --session` likewise: exit 0, nothing on stderr
/// (no "Broken pipe").
#[test]
fn sessions_into_a_closed_pipe_exit_0_quietly() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, repo) = build(tmp.path());
    let out = srview(["sessions"])
        .env("HOME", &home.to_string_lossy())
        .cwd(&repo)
        .output_to_closed_pipe();
    assert_eq!((out.status.code(), stderr(&out)), (Some(0), String::new()));
    let session = fixtures().join("claude-code-2.1.328/b_edit_nomatch/stdout.jsonl");
    for args in [
        &["session", "--json"][..],
        &["session"],
        &["check", "--session"],
    ] {
        let out = srview(args).arg(&session).output_to_closed_pipe();
        assert_eq!(
            (out.status.code(), stderr(&out)),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
}

/// `--agent` takes every agent of the table, the four added last included.
#[test]
fn sessions_agent_takes_every_agent_srview_reads() {
    let home = tempfile::tempdir().expect("tempdir");
    for agent in ["pi", "gemini-cli", "qwen-code", "opencode", "claude-code"] {
        let out = support::runner::srview(["sessions", "--agent", agent])
            .arg(home.path())
            .output();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("invalid value"), "{agent}: {stderr}");
        assert_ne!(out.status.code(), Some(2), "{agent}: {stderr}");
    }
}
