//! `srview session PATH --json` on every capture in tests/fixtures/agents:
//! per edit the file, tool, the agent's verdict and message, the content
//! before (equal to expected.json's wherever srview gives one, and given
//! wherever the output or a recovery source has it), and srview's own
//! verdict agreeing with the agent's, except the one recorded disagreement:
//! Codex's `d_fuzzy_whitespace_unicode` hunk matches only loosely while
//! Codex reported plain success.
//!
//! Each capture runs with `--cwd` a temporary workspace holding the files
//! as the session left them (from expected.json): Codex's recorded diffs
//! are undone against it; for Cline CLI it is a git repository whose commit
//! holds the files before the session, named in a copy of the manifest.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

mod support;
use support::runner::{code, srview, stderr, stdout};
use support::text::{assert_ends_with, assert_starts_with};

use support::agents::{Expected, ExpectedEdit, expected, fixtures, scenarios, session_path};

/// Every file's content before the session (its first edit's content
/// before) and after it (the last applied edit's content after).
fn states(
    want: &Expected,
) -> (
    BTreeMap<String, Option<String>>,
    BTreeMap<String, Option<String>>,
) {
    let mut first = BTreeMap::new();
    let mut last = BTreeMap::new();
    for e in &want.edits {
        first
            .entry(e.file.clone())
            .or_insert_with(|| e.content_before.clone());
        let now = last
            .entry(e.file.clone())
            .or_insert_with(|| e.content_before.clone());
        if e.agent_verdict == "applied" {
            *now = e.content_after.clone();
        }
    }
    (first, last)
}

fn write_files(root: &Path, files: &BTreeMap<String, Option<String>>) {
    for (file, content) in files {
        let path = root.join(file);
        match content {
            Some(text) => {
                fs::create_dir_all(path.parent().unwrap()).unwrap();
                fs::write(&path, text).unwrap();
            }
            None => {
                let _ = fs::remove_file(&path);
            }
        }
    }
}

/// `git add -A` and a commit of everything with `message`, by a test
/// author.
fn commit_all(root: &Path, message: &str) {
    git(root, &["add", "-A"]);
    git(
        root,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            message,
        ],
    );
}

fn git(root: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(args)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A workspace holding the files as the session left them; for Cline CLI,
/// a git repository whose one commit holds them as they were before, and a
/// copy of the session whose manifest names that commit. Returns the
/// session path to read.
fn workspace(dir: &Path, want: &Expected, root: &Path) -> PathBuf {
    let (first, last) = states(want);
    let session = session_path(dir);
    if want.agent != "cline-cli" {
        write_files(root, &last);
        return session;
    }
    git(root, &["init", "-q"]);
    write_files(root, &first);
    commit_all(root, "checkpoint");
    let commit = git(root, &["rev-parse", "HEAD"]);
    write_files(root, &last);
    let copy = root.join(".session").join(session.file_name().unwrap());
    fs::create_dir_all(&copy).unwrap();
    for entry in fs::read_dir(&session).unwrap() {
        let p = entry.unwrap().path();
        let mut text = fs::read_to_string(&p).unwrap();
        if !p.to_string_lossy().ends_with(".messages.json") {
            let manifest: Value = serde_json::from_str(&text).unwrap();
            for c in manifest["metadata"]["checkpoint"]["history"]
                .as_array()
                .unwrap()
            {
                text = text.replace(c["ref"].as_str().unwrap(), &commit);
            }
        }
        fs::write(copy.join(p.file_name().unwrap()), text).unwrap();
    }
    copy
}

fn srview_session(path: &Path, cwd: &Path) -> (Value, String) {
    let out = session_run(path, cwd, &["--json"]);
    assert!(out.status.success(), "{}: {out:?}", path.display());
    let json = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: {e}: {:?}", path.display(), out.stdout));
    (json, stderr(&out))
}

/// `srview session PATH ARGS --cwd CWD`.
fn session_run(path: &Path, cwd: &Path, args: &[&str]) -> Output {
    srview(["session"])
        .arg(path)
        .args(args)
        .arg("--cwd")
        .arg(cwd)
        .output()
}

/// A recorded run laid out by `workspace` in a temporary folder of its
/// own (`laid_out`).
struct LaidOut {
    /// The run's expectations.
    want: Expected,
    /// The folder: the project as the session left it.
    root: tempfile::TempDir,
    /// The session to read.
    session: PathBuf,
}

/// The recorded run `dir` laid out by `workspace` in a new temporary
/// folder.
fn laid_out(dir: &Path) -> LaidOut {
    let want = expected(dir);
    let root = tempfile::tempdir().expect("temp dir");
    let session = workspace(dir, &want, root.path());
    LaidOut {
        want,
        root,
        session,
    }
}

/// Where srview must give the content before.
fn must_have_before(agent: &str, want: &ExpectedEdit, first_of_file: bool) -> bool {
    match agent {
        // originalFile / the backups (applied); chained for a failure.
        "claude-code" => want.agent_verdict == "applied",
        // The recorded diffs undone against the workspace.
        "codex" => want.agent_verdict == "applied",
        // The checkpoint commit, for the first edit of each file.
        "cline-cli" => first_of_file,
        // A failure quotes the file.
        "cline-classic" => want.agent_verdict == "failed",
        // The tool result's originalContent.
        "qwen-code" => want.agent_verdict == "applied",
        // pi reads each file whole before its first edit of it.
        "pi" => first_of_file,
        // OpenCode's recorded diffs undone against the workspace (a new
        // file's absence is recorded).
        "opencode" => want.agent_verdict == "applied",
        // Recorded for an applied edit; for the others, the whole-file
        // read_file every capture makes first.
        "gemini-cli" => true,
        _ => false,
    }
}

/// The captures whose first edit Codex applied and srview's applier applies
/// only loosely.
const LOOSE: &[&str] = &[
    "codex-0.169.0/d_fuzzy_whitespace_unicode",
    "codex-0.169.0/l_appserver_fuzzy_default",
];

/// The pi runs whose first edit pi placed by its fuzzy stage (and wrote
/// the whole file normalized).
const PI_LOOSE: &[&str] = &[
    "pi-0.73.1/c1_fuzzy_trailing_whitespace",
    "pi-0.73.1/c2_fuzzy_smart_single_quote",
    "pi-0.73.1/c3_fuzzy_smart_double_quotes",
    "pi-0.73.1/c4_fuzzy_unicode_dash",
    "pi-0.73.1/c6_fuzzy_nfkc_ellipsis",
];

/// The edits where srview and the agent are expected to disagree, by
/// capture and seq, with what the disagreement must say: none, now that
/// Cline CLI's apply_patch runs through Cline's own matcher (Codex's rules
/// failed its `patch_fail` edit that Cline applied).
const DISAGREEMENTS: &[(&str, usize, &str)] = &[];

/// Cline CLI's apply_patch placed its `patch_fail` edit by its similarity
/// stage: a hunk whose removed line (`print(add(2, 4))`) is not in the
/// file. srview's port of Cline's matcher agrees it applies, and calls it
/// loose.
const CLINE_LOOSE: &str = "cline-cli-3.0.65/patch_fail";

/// Qwen Code applied both edits of this capture, each only by a loose
/// pass of its matcher (Qwen's own stage names, by seq).
const QWEN_LOOSE: (&str, [&str; 2]) = (
    "qwen-code-0.24.4/c_fuzzy_unicode_trailing_ws",
    ["normalizeBasicCharacters", "line_pass_trimEnd"],
);
/// The OpenCode edits (capture, seq) its `edit` tool placed by a fuzzy
/// replacer and reported as plain success.
const OPENCODE_LOOSE: &[(&str, usize)] = &[
    ("opencode-1.18.33/c1_fuzzy_line_trimmed", 1),
    ("opencode-1.18.33/c2_fuzzy_block_anchor", 1),
    ("opencode-1.18.33/c3_fuzzy_whitespace_normalized", 1),
    ("opencode-1.18.33/c3_fuzzy_whitespace_normalized", 2),
    ("opencode-1.18.33/c5_fuzzy_escape_normalized", 1),
    ("opencode-1.18.33/c7_fuzzy_context_aware", 1),
    ("opencode-1.18.33/d2_ambiguous_exact_unique_fuzzy", 1),
];
/// The captures whose one edit Gemini CLI placed by a loose stage of its
/// matcher and reported as plain success, with that stage (srview's port
/// names the same).
const GEMINI_LOOSE: &[(&str, &str)] = &[
    ("gemini-cli-0.61.0/c1_flexible_indent", "flexible"),
    ("gemini-cli-0.61.0/c2_regex_whitespace", "regex"),
    ("gemini-cli-0.61.0/c3_fuzzy_typo", "fuzzy"),
    ("gemini-cli-0.61.0/c4_fuzzy_quotes_dash", "fuzzy"),
];

#[test]
fn every_capture_through_srview_session_json() {
    let mut problems = Vec::new();
    let mut checked_before = 0;
    let mut checked_verdicts = 0;
    let mut against: BTreeMap<String, usize> = BTreeMap::new();
    for dir in scenarios() {
        let label = dir.strip_prefix(fixtures()).unwrap().display().to_string();
        let LaidOut {
            want,
            root: tmp,
            session,
        } = laid_out(&dir);
        let (got, _stderr) = srview_session(&session, tmp.path());
        // pi's outputs do not name pi's version; Gemini CLI names its
        // version nowhere.
        let version_named = want.agent != "pi" && want.agent != "gemini-cli";
        if got["agent"] != want.agent.as_str()
            || (version_named && got["version"] != want.version.as_str())
        {
            problems.push(format!(
                "{label}: agent/version {} {}",
                got["agent"], got["version"]
            ));
        }
        let edits = got["edits"].as_array().unwrap();
        if edits.len() != want.edits.len() {
            problems.push(format!("{label}: {} edits", edits.len()));
            continue;
        }
        let mut seen = std::collections::HashSet::new();
        for (w, g) in want.edits.iter().zip(edits) {
            let first_of_file = seen.insert(w.file.clone());
            let mut check = |name: &str, ok: bool, detail: String| {
                if !ok {
                    problems.push(format!("{label} edit {}: {name}: {detail}", w.seq));
                }
            };
            check("seq", g["seq"] == w.seq, g["seq"].to_string());
            for (field, agrees) in w.agent_fields_agree(g) {
                check(field, agrees, g[field].to_string());
            }
            // The edit's own text, in the form srview reads it back.
            let text = g["edit"].as_str().unwrap_or_default();
            let own_text = match w.tool.as_str() {
                "apply_patch" => {
                    text.starts_with("*** Begin Patch\n*** ") && text.ends_with("*** End Patch\n")
                }
                "Edit" | "Write" | "editor" => {
                    serde_json::from_str::<Value>(text).is_ok_and(|v| v["tool"] == w.tool.as_str())
                }
                // A malformed block (no divider) is shown as it came.
                "replace_in_file" => text.contains("------- SEARCH\n"),
                // A complete Aider block in Aider's own form (its path
                // line, its markers), as Aider's matcher reads it; one
                // still arriving as srview's streaming diff.
                "aider-block" => {
                    text.contains("\n<<<<<<< SEARCH\n") || text.contains("------- SEARCH\n")
                }
                "aider-udiff" => text.contains("\n@@"),
                "write_to_file" | "aider-whole" | "write_file" | "write" => !text.is_empty(),
                // Gemini CLI's replace input as the model sent it.
                "replace" => serde_json::from_str::<Value>(text)
                    .is_ok_and(|v| v["old_string"].is_string() && v["file_path"].is_string()),
                // Qwen Code's edit: the tool input as the model sent it.
                "edit" if want.agent == "qwen-code" => {
                    serde_json::from_str::<Value>(text).is_ok_and(|v| v["file_path"].is_string())
                }
                // pi's tool input as the model sent it (a Claude-style one
                // too, which pi fails).
                "edit" if want.agent == "pi" => serde_json::from_str::<Value>(text)
                    .is_ok_and(|v| v.get("path").or(v.get("file_path")).is_some()),
                // An agent's tool input as the model sent it (OpenCode's
                // `{filePath, oldString, newString}`).
                "edit" => serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object()),
                _ => false,
            };
            check("edit", own_text, g["edit"].to_string());
            let srview = &g["srview"];
            *against
                .entry(srview["against"].as_str().unwrap_or("unknown").to_string())
                .or_default() += 1;
            match g["contentBefore"].as_str() {
                Some(before) => {
                    checked_before += 1;
                    check(
                        "contentBefore",
                        Some(before) == w.content_before.as_deref(),
                        format!("differs (against {})", srview["against"]),
                    );
                }
                None => check(
                    "contentBefore",
                    !must_have_before(&want.agent, w, first_of_file) || w.content_before.is_none(),
                    format!("not given: {}", srview["why"]),
                ),
            }
            // srview's verdict, wherever it ran against a true content
            // before, agrees with the agent's.
            let known = disagreement_expected(&label, w.seq);
            check(
                "disagreement",
                srview["disagreement"].as_str() == known,
                srview["disagreement"].to_string(),
            );
            // Both applied it, srview only loosely: a loose match, never
            // a disagreement.
            let cline_loose = w.seq == 1 && label == CLINE_LOOSE;
            if cline_loose {
                check(
                    "blocks",
                    srview["blocks"][0]["stage"] == "exact"
                        && srview["blocks"][1]["stage"] == "similarity"
                        && srview["blocks"][1]["loose"] == true
                        && srview["blocks"][1]["lines"] == serde_json::json!([9, 11]),
                    srview["blocks"].to_string(),
                );
            }
            let loose = w.seq == 1 && LOOSE.contains(&label.as_str());
            if loose {
                // The hunks as apply --json / dialects.md show them.
                let levels: Vec<&str> = srview["blocks"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|h| h["level"].as_str().unwrap_or("none"))
                    .collect();
                check(
                    "blocks",
                    levels == ["trailing-space", "unicode"]
                        && srview["blocks"][1]["differing"][0]["line"] == 40,
                    srview["blocks"].to_string(),
                );
            }
            let qwen_loose = label == QWEN_LOOSE.0;
            if qwen_loose {
                let stage = QWEN_LOOSE.1[w.seq - 1];
                check(
                    "looseLevels",
                    srview["looseLevels"] == serde_json::json!([stage])
                        && srview["blocks"][0]["stage"] == stage,
                    srview["looseLevels"].to_string(),
                );
            }
            // pi's fuzzy stage, which pi reports as plain success.
            let pi_loose = w.seq == 1 && PI_LOOSE.contains(&label.as_str());
            if pi_loose {
                check(
                    "looseLevels",
                    srview["looseLevels"] == serde_json::json!(["fuzzy"])
                        && srview["notices"][0].as_str().is_some_and(|n| {
                            n.starts_with("pi's fuzzy match rewrote the whole file: ")
                        }),
                    srview.to_string(),
                );
            }
            let agent_loose = OPENCODE_LOOSE.contains(&(label.as_str(), w.seq));
            let gemini_stage = GEMINI_LOOSE
                .iter()
                .find(|(l, _)| *l == label)
                .map(|(_, stage)| *stage);
            if let Some(stage) = gemini_stage {
                check(
                    "looseLevels",
                    srview["looseLevels"] == serde_json::json!([stage]),
                    srview["looseLevels"].to_string(),
                );
            }
            check(
                "loose",
                srview["loose"]
                    == (loose
                        || cline_loose
                        || qwen_loose
                        || pi_loose
                        || agent_loose
                        || gemini_stage.is_some()),
                srview["loose"].to_string(),
            );
            let ran_on_before = srview["ok"].is_boolean() && srview["against"] != "current-file";
            if ran_on_before {
                checked_verdicts += 1;
                let ok = srview["ok"].as_bool().unwrap();
                let agrees = known.is_some()
                    || match w.agent_verdict.as_str() {
                        "applied" => ok,
                        "failed" => !ok,
                        _ => true,
                    };
                check("srview.ok", agrees, format!("{ok} ({})", srview["error"]));
            }
            if srview["ok"].is_null() {
                check(
                    "srview.why",
                    srview["why"].as_str().is_some_and(|w| !w.is_empty()),
                    "no reason for an unknown verdict".into(),
                );
            }
        }
    }
    println!("{checked_before} contents before, {checked_verdicts} verdicts checked");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // Every source of a content before is used, as many times as the
    // captures allow: a source lost shows here.
    let against: Vec<(&str, usize)> = against.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(
        against,
        [
            // pi: 10 of its edits follow another of the same file; Gemini
            // CLI: 4 failed or never-run edits after a whole-file read_file.
            ("chained", 22),
            ("git-checkpoint", 7),
            ("not-needed", 4),
            // Failed or never run, and no later edit wrote the file: the
            // file as the run left it (the one edit that ran against the
            // current file before is one of them).
            // (OpenCode: 3, its failed or refused edits.)
            ("on-disk", 6),
            // Qwen Code's originalContent gives 8 of them; pi: 14 first
            // edits of a file, after pi read it whole; OpenCode: 2, a new
            // file's absence; Gemini CLI: 14 applied edits (resultDisplay).
            ("recorded", 47),
            // (OpenCode: 16, its applied edits' diffs.)
            ("reverse-diff", 25),
            // One edit whose new text is already in the file as the run
            // left it (it adds lines after its old text) is unknown, not
            // run against the current file: that file may hold its result.
            // Qwen Code's failed edit in b_nomatch_retry records no content
            // and the retry wrote the file after it.
            // pi: its edit of a file that does not exist.
            ("unknown", 25),
        ]
    );
    // Every capture's count, so that a source lost shows.
    // Qwen Code: 7 contents before, 8 verdicts; pi: 24 and 25; OpenCode:
    // 18 and 21; Gemini CLI: 17 and 17 (its new file has no content
    // before, its corrected edit no verdict: the agent corrected it).
    assert_eq!((checked_before, checked_verdicts), (99, 110));
}

fn disagreement_expected(label: &str, seq: usize) -> Option<&'static str> {
    DISAGREEMENTS
        .iter()
        .find(|(l, s, _)| *l == label && *s == seq)
        .map(|(_, _, d)| *d)
}

/// The text listing of the Codex fuzzy capture marks the hunk loose and
/// says so on stdout and as a warning on stderr: a loose match, not a
/// disagreement (both applied it; it said DISAGREE and counted one).
#[test]
fn a_loose_match_is_shown_loudly_in_text_mode() {
    let dir = fixtures().join("codex-0.169.0/d_fuzzy_whitespace_unicode");
    let run = laid_out(&dir);
    let out = session_run(&run.session, run.root.path(), &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        stdout(&out),
        "Codex 0.169.0: 1 edit, 0 failed, 1 loose, 0 disagreements\n\
         \x20  1  calc.py  apply_patch      Codex: applied   srview: applied (trailing-space, unicode)  [LOOSE]\n\
         \x20     loose match: matched only loosely (trailing-space, unicode) while Codex reported plain success\n"
    );
    assert_eq!(
        stderr(&out),
        "srview: warning: edit 1 (calc.py): loose match: matched only loosely (trailing-space, unicode) while Codex reported plain success\n"
    );
}

/// `srview session -` reads a live stream to its end: Claude Code's
/// stream-json gives the same edits and verdicts as its saved session.
#[test]
fn a_live_stream_on_stdin() {
    let dir = fixtures().join("claude-code-2.1.328/b_edit_nomatch");
    let want = expected(&dir);
    let bytes = fs::read(dir.join("stdout.jsonl")).unwrap();
    let out = srview(["session", "-", "--json"]).stdin(&bytes).output();
    assert!(out.status.success());
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let edits = got["edits"].as_array().unwrap();
    assert_eq!(edits.len(), want.edits.len());
    for (w, g) in want.edits.iter().zip(edits) {
        assert_eq!(g["file"], w.file.as_str());
        assert_eq!(g["agentVerdict"], w.agent_verdict.as_str());
        assert_eq!(g["contentBefore"].as_str(), w.content_before.as_deref());
        let ok = w.agent_verdict == "applied";
        assert_eq!(g["srview"]["ok"], ok, "{}", g["srview"]);
    }
}

/// An output cut inside the line holding an edit's verdict has no verdict
/// for it (pending, said on stderr), not "never run"; an output of which
/// nothing could be read is refused (exit 2), not listed as a session
/// without edits.
#[test]
fn a_torn_verdict_is_pending_and_an_unreadable_output_is_refused() {
    let dir = fixtures().join("claude-code-2.1.328/a_edits_ok");
    let text = fs::read_to_string(dir.join("stdout.jsonl")).unwrap();
    let verdict_line = text.rfind("\"tool_result\"").expect("a tool result");
    let cut = &text[..verdict_line];
    let out = srview(["session", "-", "--json"])
        .stdin(cut.as_bytes())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let last = got["edits"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["agentVerdict"], "pending", "{last}");
    assert!(
        stderr(&out).ends_with(
            "srview: the output ended inside a line: the agent's verdict on 1 edit may have \
             been in it (shown as pending)\n"
        ),
        "{}",
        stderr(&out)
    );
    // The same line torn in the middle of the output (its end lost, the
    // lines after it whole).
    let line_end = verdict_line + text[verdict_line..].find('\n').unwrap();
    let torn_within = format!("{}{}", &text[..verdict_line], &text[line_end..]);
    let out = srview(["session", "-", "--json"])
        .stdin(torn_within.as_bytes())
        .output();
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let last = got["edits"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["agentVerdict"], "pending", "{last}");
    assert!(
        stderr(&out).contains(
            "srview: a line of the output could not be read: the agent's verdict on 1 edit \
             may have been in it (shown as pending)\n"
        ),
        "{}",
        stderr(&out)
    );
    let first_line = text.lines().next().unwrap();
    let torn = &first_line[..first_line.len() / 2];
    let out = srview(["session", "-", "--json"])
        .stdin(torn.as_bytes())
        .output();
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.lines()
            .last()
            .unwrap()
            .starts_with("srview: no edit could be read from -: "),
        "{err}"
    );
}

/// A Cline `ui_messages.json` cut inside its first edit (it is rewritten
/// while Cline streams) is refused, not read as a session without edits.
#[test]
fn a_cline_task_cut_before_its_first_edit_is_refused() {
    let dir = fixtures().join("cline-classic-2.18.0/a_ok/session/tasks/1796057301414");
    let text = fs::read_to_string(dir.join("ui_messages.json")).unwrap();
    let cut = &text[..text.find("editedExistingFile").expect("an edit") + 10];
    let tmp = tempfile::tempdir().unwrap();
    let torn = tmp.path().join("ui_messages.json");
    fs::write(&torn, cut).unwrap();
    let out = srview(["session"]).arg(&torn).arg("--list").output();
    assert_eq!(code(&out), 2);
    assert_ends_with(&stderr(&out), "it ends inside a line or object\n");
}

#[test]
fn an_unknown_stream_is_refused_with_a_message() {
    let out = srview(["session", "-", "--json"])
        .stdin(b"hello\n")
        .output();
    assert_eq!(code(&out), 2);
    assert!(out.stdout.is_empty());
    assert_eq!(
        stderr(&out),
        "srview: stdin is not the output of Claude Code, Codex, Cline, Aider, Qwen Code, pi, OpenCode or Gemini CLI that srview knows\n"
    );
}

fn check_session(session: &Path, cwd: Option<&Path>) -> (Option<i32>, String) {
    let mut run = srview(["check", "--session"]).arg(session);
    if let Some(cwd) = cwd {
        run = run.arg("--cwd").arg(cwd);
    }
    let out = run.output();
    (out.status.code(), stdout(&out))
}

/// `check --session` explains a Cline CLI apply_patch with Cline's own
/// matcher, as the review judged it: the hunk only Cline's similarity
/// stage places is a loose stage there (Codex's rules said "error: Failed
/// to find expected lines"), and a patch Cline rejects fails with Cline's
/// error text.
#[test]
fn check_session_explains_a_cline_cli_patch_by_clines_matcher() {
    let run = laid_out(&fixtures().join(CLINE_LOOSE));
    let (code, out) = check_session(&run.session, Some(run.root.path()));
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(
        out,
        "Cline CLI 3.0.65: 1 edit, 0 failed, 1 loose or in disagreement\n\n\
         edit 1 · calc.py · apply_patch · Cline CLI: applied\n\
         \x20 loose match: matched only loosely (similarity) while Cline CLI reported plain \
         success\n\
         \x20 srview, against the content before from the session's git checkpoint:\n\
         \x20   the edit applies\n\
         \x20   edit 1: exact at lines 1-2\n\
         \x20   edit 2: similarity at lines 9-11: a loose stage, the text it replaced is not \
         the text the model wrote\n"
    );

    let run = laid_out(&fixtures().join("cline-cli-3.0.65/patch_fail2"));
    let (code, out) = check_session(&run.session, Some(run.root.path()));
    assert_eq!(code, Some(1), "{out}");
    assert!(
        out.contains(
            "  srview, against the content before from the session's git checkpoint:\n\
             \x20   error: apply_patch failed: Patch could not be applied because 1 hunk did not \
             match the current file content.\n\
             \x20   calc.py: hunk 2: Could not find matching context (similarity: 0.38). Chunk \
             skipped.\n"
        ),
        "{out}"
    );
    assert!(!out.contains("Failed to find expected lines"), "{out}");
}

/// `check --session` explains each failed edit with the applier's own
/// diagnosis, against the content before (or says it cannot), exit 1.
#[test]
fn check_session_explains_every_failed_edit() {
    // Cline classic: the failure quotes the file; block 2 is diagnosed.
    let dir = fixtures().join("cline-classic-2.18.0/b_fail");
    let (code, out) = check_session(&session_path(&dir), None);
    assert_eq!(code, Some(1));
    assert!(out.starts_with("Cline 2.18.0: 2 edits, 1 failed\n\nedit 1 · calc.py · replace_in_file · Cline: failed\n"), "{out}");
    assert!(out.contains("  | ... (51 more lines)\n"), "{out}");
    assert!(out.contains("  srview, against the content before as the agent recorded it:\n"));
    assert!(out.contains("    error[edited]: Block #2 does not apply: the closest region of the file has different content on SEARCH lines 2, 3 (closest: lines 37-39, similarity 0.96).\n"), "{out}");
    assert!(
        !out.contains("edit 2 ·"),
        "an applied edit is not explained: {out}"
    );

    // Claude Code: the failed Edit against the content the first left.
    let dir = fixtures().join("claude-code-2.1.328/b_edit_nomatch");
    let (code, out) = check_session(&session_path(&dir), None);
    assert_eq!(code, Some(1));
    assert!(
        out.contains("edit 2 · inventory.py · Edit · Claude Code: failed\n"),
        "{out}"
    );
    assert!(out.contains("  srview, against the content an earlier edit of the session left:\n    error: String to replace not found in file.\n    String: LOW_STOK = 5\n"), "{out}");
    // The correction in the edit's own form, the tool's JSON (as `c`
    // copies it), not a SEARCH/REPLACE block.
    assert!(out.ends_with("    corrected edit (the tool's JSON):\n    {\"tool\":\"Edit\",\"file_path\":\"/home/user/project/inventory.py\",\"old_string\":\"LOW_STOCK = 5\",\"new_string\":\"LOW_STOCK = 10  # raised after the Q3 review\",\"replace_all\":false}\n"), "{out}");

    // Codex: nothing recorded and no workspace: said plainly.
    let dir = fixtures().join("codex-0.169.0/b_context_mismatch");
    let (code, out) = check_session(&session_path(&dir), None);
    assert_eq!(code, Some(1));
    assert!(out.contains("  srview cannot explain it: the content before is not in Codex's output and could not be recovered; the current file /home/user/project/calc.py does not exist\n"), "{out}");

    // With the workspace: explained against the file as it is now.
    let run = laid_out(&dir);
    let (code, out) = check_session(&run.session, Some(run.root.path()));
    assert_eq!(code, Some(1));
    assert!(out.contains("  srview, against the file as it is now (no later edit of the session wrote it):\n    error: Failed to find expected lines in /home/user/project/calc.py:\n"), "{out}");
    assert!(
        out.contains(
            "    hunk 2 (patch lines 9-14): hunk 2 of calc.py failed: its lines are not in the file; closest: lines 34-36 (similarity 0.87)"
        ),
        "{out}"
    );
    assert!(
        out.contains(
            "      corrected hunk:\n      @@ def mean(values: Iterable[float]) -> float:\n"
        ),
        "{out}"
    );

    // An edit srview could not judge is said, never passed over as fine.
    let dir = fixtures().join("codex-0.169.0/d_fuzzy_whitespace_unicode");
    let (code, out) = check_session(&session_path(&dir), None);
    assert_eq!(code, Some(0), "{out}");
    assert_starts_with(
        &out,
        "Codex 0.169.0: 1 edit, 0 failed, 1 not judged\n\nedit 1 · calc.py · apply_patch: not judged: the content before is not in Codex's output",
    );

    // A loose match Codex called plain success: explained too, not failed.
    let run = laid_out(&dir);
    let (code, out) = check_session(&run.session, Some(run.root.path()));
    assert_eq!(code, Some(0), "{out}");
    assert_starts_with(
        &out,
        "Codex 0.169.0: 1 edit, 0 failed, 1 loose or in disagreement\n",
    );
    assert!(out.contains("  loose match: matched only loosely (trailing-space, unicode) while Codex reported plain success\n"), "{out}");
    assert!(!out.contains("!!!"), "{out}");
    assert!(out.contains("hunk 1 of calc.py matched lines 7-8 only at level trailing-space: 1 line differs from the file"), "{out}");

    // A session with nothing failed: exit 0.
    let dir = fixtures().join("claude-code-2.1.328/a_edits_ok");
    let (code, out) = check_session(&session_path(&dir), None);
    assert_eq!(
        (code, out.as_str()),
        (Some(0), "Claude Code 2.1.328: 2 edits, 0 failed\n")
    );
}

/// `codex exec --json` names files only: with `--cwd` the workspace paths
/// are shown relative to, each edit's verdict is unknown and says why.
#[test]
fn a_stream_that_names_files_only() {
    let dir = fixtures().join("codex-0.169.0/a_success");
    let bytes = fs::read(dir.join("stdout.jsonl")).unwrap();
    let out = srview(["session", "-", "--json", "--cwd", "/home/user/project"])
        .stdin(&bytes)
        .output();
    assert!(out.status.success());
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["agent"], "codex");
    let edit = &got["edits"][0];
    assert_eq!(edit["file"], "calc.py");
    assert_eq!(edit["agentVerdict"], "applied");
    assert_eq!(
        edit["srview"],
        serde_json::json!({
            "ok": null, "against": null,
            "why": "the agent's output names the file only, not the edit",
            "applier": "none", "error": null, "loose": false, "looseLevels": [],
            "disagreement": null, "blocks": []
        })
    );
}

/// A git repository at `root` as Aider leaves one: a first commit holding
/// `before`, then Aider's commit of the reply holding `after`. Returns
/// that commit's short id, as Aider prints it.
fn aider_repo(root: &Path, before: &[(&str, &str)], after: &[(&str, &str)]) -> String {
    let commit = |message: &str, files: &[(&str, &str)]| {
        for (name, text) in files {
            fs::write(root.join(name), text).unwrap();
        }
        commit_all(root, message);
    };
    git(root, &["init", "-q"]);
    commit("initial", before);
    commit("aider: the reply's edits", after);
    git(root, &["rev-parse", "--short=7", "HEAD"])
}

/// Aider commits each reply: the parent of the commit after an edit's
/// reply (or of a later reply's, when nothing wrote the file in between)
/// holds its content before, even when the file changed since the session.
#[test]
fn aider_contents_before_come_from_its_commits() {
    // Captured: a failed block, then the retry applied and committed.
    let dir = fixtures().join("aider-0.86.2/b_nomatch_retry");
    let want = expected(&dir);
    let before = want.edits[0].content_before.clone().unwrap();
    let after = want.edits[1].content_after.clone().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let sha = aider_repo(root, &[("calc.py", &before)], &[("calc.py", &after)]);
    fs::write(root.join("calc.py"), format!("{after}# changed since\n")).unwrap();
    let history = root.join(".aider.chat.history.md");
    let text = fs::read_to_string(session_path(&dir)).unwrap();
    fs::write(&history, text.replace("530a519", &sha)).unwrap();
    let (got, _) = srview_session(&history, root);
    let edits = got["edits"].as_array().unwrap();
    for e in edits {
        assert_eq!(e["contentBefore"], before.as_str(), "{e}");
        assert_eq!(e["srview"]["against"], "git-history", "{e}");
    }
    // srview's verdicts agree with Aider's on the true contents.
    assert_eq!(edits[0]["srview"]["ok"], false);
    assert_eq!(edits[1]["srview"]["ok"], true);
    // Without the commit named, nothing tells: not taken from the file.
    fs::write(&history, &text).unwrap();
    let (got, _) = srview_session(&history, root);
    assert_eq!(got["edits"][0]["contentBefore"], Value::Null);

    // Built (tests/fixtures/aider-asks): Aider asked to add util.py and
    // sent the reply again; the first reply's edits never ran, the second
    // reply's were committed.
    let two = expected(&fixtures().join("aider-0.86.2/c_two_files"));
    let util_before = two.edits[0].content_before.clone().unwrap();
    let calc_before = two.edits[1].content_before.clone().unwrap();
    let calc_between = two.edits[2].content_before.clone().unwrap();
    let util_after = two.edits[0].content_after.clone().unwrap();
    let calc_after = two.edits[2].content_after.clone().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    let sha = aider_repo(
        root,
        &[("util.py", &util_before), ("calc.py", &calc_before)],
        &[("util.py", &util_after), ("calc.py", &calc_after)],
    );
    let history = root.join(".aider.chat.history.md");
    let text = fs::read_to_string(fixtures().join("../aider-asks/add_file_reask.history.md"))
        .unwrap()
        .replace("1b1c01b", &sha);
    fs::write(&history, text).unwrap();
    let (got, _) = srview_session(&history, root);
    let rows: Vec<(&str, &str, &str, bool)> = got["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let before = e["contentBefore"].as_str().unwrap_or("?");
            let which = if before == util_before {
                "util before"
            } else if before == calc_before {
                "calc before"
            } else if before == calc_between {
                "calc between"
            } else {
                "?"
            };
            (
                e["agentVerdict"].as_str().unwrap(),
                which,
                e["srview"]["against"].as_str().unwrap_or("none"),
                e["srview"]["ok"] == true,
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("not-run", "util before", "git-history", true),
            ("not-run", "calc before", "git-history", true),
            ("not-run", "calc before", "git-history", true),
            ("applied", "util before", "git-history", true),
            ("applied", "calc before", "git-history", true),
            // The reply's second edit of calc.py: after its first, as
            // srview applied it.
            ("applied", "calc between", "chained", true),
        ]
    );
}

/// `cline --json` records absolute paths and no workspace: piped into
/// `srview session -` with `--cwd` naming where the workspace is now (it
/// moved), the paths are taken under `--cwd` by their longest suffix that
/// exists there, said once on stderr.
#[test]
fn absolute_paths_outside_cwd_map_onto_it_by_their_longest_suffix() {
    let dir = fixtures().join("cline-cli-3.0.65/editor_fail");
    let want = expected(&dir);
    // The workspace where it is now: a new temporary folder.
    let tmp = tempfile::tempdir().unwrap();
    let moved = tmp.path();
    let (_, last) = states(&want);
    write_files(moved, &last);
    let bytes = fs::read(dir.join("stdout.jsonl")).unwrap();
    assert!(String::from_utf8_lossy(&bytes).contains("\"/home/user/project/calc.py\""));
    let out = srview(["session", "-", "--json", "--cwd"])
        .arg(moved)
        .stdin(&bytes)
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let edits = got["edits"].as_array().unwrap();
    assert_eq!(edits.len(), want.edits.len());
    for (e, w) in edits.iter().zip(&want.edits) {
        assert_eq!(e["file"], w.file.as_str());
        // The file under --cwd is the one srview looked at.
        let there = moved.join(&w.file).display().to_string();
        assert!(
            e["srview"]["against"].is_string()
                || e["srview"]["why"].as_str().unwrap().contains(&there),
            "{e}"
        );
    }
    let err = stderr(&out);
    let notes: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("srview: note: "))
        .collect();
    assert_eq!(
        notes,
        [format!(
            "srview: note: /home/user/project is not under {0}: its files are taken as the same \
             paths under {0} (first: /home/user/project/calc.py as calc.py)",
            moved.display()
        )
        .as_str()]
    );
}

/// `edit` comes right after `agentMessage` on the wire, and holds the
/// edit as edit JSON that `srview apply` reads back.
#[test]
fn session_json_carries_each_edit_text_after_the_agent_message() {
    let dir = fixtures().join("claude-code-2.1.328/a_edits_ok");
    let LaidOut {
        want,
        root: tmp,
        session,
    } = laid_out(&dir);
    let out = session_run(&session, tmp.path(), &["--json"]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            r#""agentVerdict":"applied","agentMessage":null,"edit":"{\"tool\":\"Edit\",\"file_path\":"#
        ),
        "{text}"
    );
    // Read back: the first edit applied to its content before gives its
    // content after.
    let got: Value = serde_json::from_str(&text).unwrap();
    let first = &got["edits"][0];
    let edit_file = tmp.path().join("edit.json");
    fs::write(&edit_file, first["edit"].as_str().unwrap()).unwrap();
    // Saved under the name the edit's path gives (in another folder: the
    // agent's paths are its own machine's); a file of another name is not
    // the one the edit was meant for, and `apply` refuses it.
    let file_path = first["edit"].as_str().unwrap();
    let named: Value = serde_json::from_str(file_path).unwrap();
    let name = named["file_path"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap();
    let before_file = tmp.path().join(name);
    fs::write(
        &before_file,
        want.edits[0].content_before.as_deref().unwrap(),
    )
    .unwrap();
    let copy = tmp.path().join("copy-of-before.py");
    fs::copy(&before_file, &copy).unwrap();
    let out = srview(["apply"]).arg(&copy).arg(&edit_file).output();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
    let out = srview(["apply"]).arg(&before_file).arg(&edit_file).output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        want.edits[0].content_after.as_deref().unwrap()
    );
}

/// `srview session --list` says where the gate's record contradicts the
/// session: the gate denied an edit Claude Code applied, and let through
/// as exact one Claude Code failed (`tests/fixtures/gate-browser/`).
#[test]
fn list_says_where_the_gates_record_contradicts_the_session() {
    let dir = fixtures().join("claude-code-2.1.328/b_edit_nomatch");
    let session = session_path(&dir);
    let ws = tempfile::tempdir().expect("temp dir");
    fs::create_dir_all(ws.path().join(".srview")).expect(".srview");
    fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/gate-browser/b_edit_nomatch.gate.jsonl"),
        ws.path().join(".srview/gate.jsonl"),
    )
    .expect("the record");
    let out = srview(["session"])
        .arg(&session)
        .args(["--list", "--cwd"])
        .arg(ws.path())
        .output();
    assert!(out.status.success(), "{out:?}");
    let listing = stdout(&out);
    let lines: Vec<&str> = listing
        .lines()
        .skip(1)
        .filter(|l| l.starts_with("      ") && l.contains("gate"))
        .collect();
    assert_eq!(
        lines,
        [
            "      gate: blocked (failing)",
            "      !!! the gate's record says it denied this edit, but the session shows Claude \
             Code applied it",
            "      gate: passed (exact)",
            "      !!! the gate's record says it let this edit through as exact, but Claude Code \
             failed it",
        ],
        "{listing}"
    );
}

/// A Cline CLI session's manifest (`<id>.json`, the file named by the
/// session id) is read as its session: the edits of the
/// `<id>.messages.json` beside it, not "Gemini CLI `--output-format json`
/// output" (session 34's tester).
#[test]
fn a_cline_cli_manifest_is_read_as_its_session() {
    let dir = fixtures().join("cline-cli-3.0.65/editor_ok/session/sessions/1796056278741_a7pf1");
    let manifest = dir.join("1796056278741_a7pf1.json");
    let messages = dir.join("1796056278741_a7pf1.messages.json");
    let by_manifest =
        srview(["session".as_ref(), "--list".as_ref(), manifest.as_os_str()]).output();
    let by_messages =
        srview(["session".as_ref(), "--list".as_ref(), messages.as_os_str()]).output();
    assert_eq!(code(&by_manifest), 0, "{}", stderr(&by_manifest));
    assert!(
        stdout(&by_manifest).starts_with("Cline CLI 3.0.65: 2 edits"),
        "{}",
        stdout(&by_manifest)
    );
    assert_eq!(stdout(&by_manifest), stdout(&by_messages));
}

/// An agent's home folder (or any folder with no session file in it) is no
/// session: the message points at `srview sessions`, which finds them
/// (session 34's tester: it only listed the agents srview knows).
#[test]
fn a_folder_without_a_session_points_at_srview_sessions() {
    let home = tempfile::tempdir().expect("temp dir");
    let gemini = home.path().join(".gemini");
    std::fs::create_dir_all(gemini.join("tmp/x/chats")).expect("folders");
    let out = srview(["session".as_ref(), "--list".as_ref(), gemini.as_os_str()]).output();
    assert_eq!(code(&out), 2);
    assert_eq!(
        stderr(&out),
        format!(
            "srview: {} is a folder that holds no session file srview knows: `srview sessions` \
             lists the saved sessions of every agent srview reads (`srview sessions FOLDER` \
             searches FOLDER as the home folder)\n",
            gemini.display()
        )
    );
    assert_eq!(stdout(&out), "");
}

/// Aider udiff sessions (tests/fixtures/aider-udiff, tester finding 05) are
/// judged by Aider's own udiff applier against the content before from
/// Aider's commits: a hunk Aider applied at both places its before-text
/// stands is applied exactly with both places named, and a hunk of only
/// `+` lines (appended by Aider) is applied, not a false disagreement.
/// Both are in doubt: the first changes several places, the second names
/// no place and lands after the file's last line (tester finding 37/01).
#[test]
fn aider_udiff_sessions_are_judged_by_aiders_udiff_applier() {
    let dir = fixtures().join("../aider-udiff");
    // Aider changes both places; the hunk's text standing at several
    // places is a doubt (tester finding 36/10), as for every dialect.
    let doubt = "edit 1: Aider 0.86.2's udiff edit format replaces every occurrence: it changes lines \
                 2-3 and also lines 7-8: the hunk changed 2 places, each where its text stands, \
                 and the model may have meant one: add a line of context to the hunk so that its \
                 text stands at one place";
    let appended = "edit 1: Aider appends this hunk at the end of the file (after line 5): the \
                    hunk has only added lines, so it names no place, whatever its @@ line says: \
                    to put its lines elsewhere, send the hunk with the lines they go after as \
                    context";
    for (name, stage, lines, also, (label, doubt)) in [
        (
            "replace_all",
            "search_and_replace",
            serde_json::json!([2, 3]),
            serde_json::json!([[7, 8]]),
            ("one of several places", doubt),
        ),
        (
            "append",
            "append",
            Value::Null,
            Value::Null,
            ("added at the end of the file", appended),
        ),
    ] {
        let read = |ext: &str| fs::read_to_string(dir.join(format!("{name}.{ext}"))).unwrap();
        let (before, after) = (read("before.py"), read("after.py"));
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        let sha = aider_repo(
            root,
            &[("s.py", &before), (".gitignore", ".aider*\n")],
            &[("s.py", &after)],
        );
        let history = root.join(".aider.chat.history.md");
        fs::write(&history, read("history.md").replace("0000000", &sha)).unwrap();
        let (got, _) = srview_session(&history, root);
        let edit = &got["edits"][0];
        assert_eq!(got["edits"].as_array().unwrap().len(), 1, "{name}: {got}");
        assert_eq!(edit["tool"], "aider-udiff", "{name}");
        assert_eq!(edit["agentVerdict"], "applied", "{name}");
        assert_eq!(edit["contentBefore"], before.as_str(), "{name}");
        let verdict = &edit["srview"];
        assert_eq!(verdict["ok"], true, "{name}: {verdict}");
        assert_eq!(verdict["against"], "git-history", "{name}");
        assert_eq!(verdict["applier"], "agent", "{name}");
        assert_eq!(verdict["disagreement"], Value::Null, "{name}");
        assert_eq!(verdict["loose"], false, "{name}");
        assert_eq!(verdict["alsoReplaced"], also, "{name}");
        assert_eq!(verdict["blocks"][0]["stage"], stage, "{name}");
        assert_eq!(verdict["blocks"][0]["lines"], lines, "{name}");

        let out = srview(["session".as_ref(), "--list".as_ref(), history.as_os_str()])
            .arg("--cwd")
            .arg(root)
            .output();
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let want = format!(
            "Aider 0.86.2: 1 edit, 0 failed, 0 loose, 0 disagreements, 1 in doubt\n   \
             1  s.py  aider-udiff      Aider: applied   srview: applied ({stage}) · doubt: \
             {label}  [DOUBT]\n      doubt: {doubt}\n"
        );
        assert_eq!(stdout(&out), want, "{name}");
    }
}

/// The sentence of the trust check that finds tester finding 10's edit
/// standing in for the two functions it leaves out.
const STANDS_IN: &str = "its new text stands in for lines it leaves out (its line 1: `# ... \
                         existing helpers unchanged ...`), so it deletes 13 non-blank lines of \
                         the text it replaces: send every line the edit keeps, or edit only the \
                         lines that change";

/// Tester finding 10: a recorded Claude Code session whose applied Edit
/// replaced `total_value`, `find_item` and `cheapest` with `# ... existing
/// helpers unchanged ...` and a new `total_value` (the gate denies that
/// edit). `session --list` marks it in doubt, counts it in the header,
/// says the check's sentence under it and as a warning; `--json` gives the
/// doubt with its kind and the count after the edits. The session's other
/// Edit stays clean.
#[test]
fn an_applied_edit_standing_in_for_code_it_leaves_out_is_in_doubt() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let session = support::agents::claude_run_standing_in(tmp.path(), false);
    let session_as = |mode: &str| {
        let mut args = vec![session.clone().into_os_string(), mode.into()];
        args.extend(["--cwd".into(), tmp.path().as_os_str().to_owned()]);
        srview(["session"]).args(args).output()
    };
    let listed = session_as("--list");
    assert_eq!(code(&listed), 0, "{}", stderr(&listed));
    assert_eq!(
        stdout(&listed),
        format!(
            "Claude Code 2.1.328: 2 edits, 0 failed, 0 loose, 0 disagreements, 1 in doubt\n\
             \x20  1  inventory.py  Edit             Claude Code: applied   srview: applied \
             (exact) · doubt: stands in for code it leaves out  [DOUBT]\n\
             \x20     doubt: {STANDS_IN}\n\
             \x20  2  inventory.py  Edit             Claude Code: applied   srview: applied \
             (exact)\n"
        )
    );
    assert_eq!(
        stderr(&listed),
        format!("srview: warning: edit 1 (inventory.py): doubt: {STANDS_IN}\n")
    );
    let out = session_as("--json");
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let edits = json["edits"].as_array().expect("edits");
    assert_eq!(
        (
            &edits[0]["srview"]["ok"],
            &edits[0]["srview"]["loose"],
            &edits[0]["srview"]["doubts"],
            edits[1]["srview"].get("doubts"),
            &json["editsInDoubt"],
        ),
        (
            &Value::Bool(true),
            &Value::Bool(false),
            &serde_json::json!([{"kind": "stands-in", "message": STANDS_IN}]),
            None,
            &Value::from(1),
        )
    );
}

/// The same session reviewed in-process (what the browser and the live
/// view ask of [`srview::sessions::review::Review`]) with the first Edit
/// rewritten: misindenting Python, it is in doubt; as recorded, no Edit is.
#[test]
fn a_misindenting_edit_is_in_doubt_and_an_exact_clean_one_is_not() {
    use srview::diagnose::layout::BreakKind;
    use srview::sessions::load::load;
    use srview::sessions::review::review;
    use srview::sessions::verdict::DoubtKind;
    let tmp = tempfile::tempdir().expect("temp dir");
    let misindented = support::agents::claude_run_rewritten(tmp.path(), false, |before| {
        let start = before.find("def total_value").expect("total_value");
        let end = start + before[start..].find("return total").expect("its return");
        (
            before[start..end + "return total".len()].to_string(),
            "def total_value(items):\n    total = sum(i.price * i.qty for i in items)\n        \
             return total"
                .to_string(),
        )
    });
    let (reader, ws) = load(&misindented, Some(tmp.path())).expect("loads");
    let reviewed = review(&reader, &ws);
    let first = &reviewed.reviews[0];
    let doubts: Vec<(DoubtKind, &str)> = first
        .doubts()
        .iter()
        .map(|d| (d.kind, d.message.as_str()))
        .collect();
    assert_eq!(
        doubts,
        [(
            DoubtKind::Layout(BreakKind::Misindents),
            "as written, line 17 (`return total`) is at column 8, deeper than the line before \
             it, which opens no block: Python refuses the file (IndentationError: unexpected \
             indent): send the new lines at the indentation of the block they belong to"
        )],
        "{}",
        first.verdict_words(true)
    );
    assert_eq!(
        first.verdict_words(true),
        "applied (exact) · doubt: leaves the file misindented"
    );
    assert_eq!(reviewed.counts().doubted, 1);

    let recorded = session_path(&fixtures().join("claude-code-2.1.328/a_edits_ok"));
    let (reader, ws) = load(&recorded, Some(tmp.path())).expect("loads");
    let reviewed = review(&reader, &ws);
    let words: Vec<(String, usize)> = reviewed
        .reviews
        .iter()
        .map(|r| (r.verdict_words(true), r.doubts().len()))
        .collect();
    assert_eq!(words.len(), 2);
    assert!(
        words
            .iter()
            .all(|w| *w == ("applied (exact)".to_string(), 0)),
        "{words:?}"
    );
    assert_eq!(reviewed.counts().doubted, 0);
}

/// Round-38 findings 02 and 03: an output that ends after an edit's call,
/// before the agent's result (the agent killed mid-edit: Claude Code backs
/// the file up right before writing it, Codex writes a patch before it logs
/// its end), does not say the agent never ran it. The edit is `pending`,
/// that is said, it is not counted as failed, and the file as it is now,
/// holding the edit's new text, makes srview say it looks applied already
/// (not "applies against the content it ran against", nor "failed").
#[test]
fn an_output_ending_after_an_edits_call_leaves_it_pending_and_looks_applied_already() {
    let cut_off = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cut-off");
    const SAID: &str = "srview: the output ends before the agent's result on 1 edit: the agent \
                        may have applied it (shown as pending)\n";
    let cases = [
        (
            "claude-killed-mid-edit.jsonl",
            "inventory.py",
            "Claude Code 2.1.328: 1 edit, 0 failed, 0 loose, 0 disagreements, 1 unknown\n   1  inventory.py  \
             Edit             Claude Code: pending   srview: unknown (the output ends before \
             Claude Code's result on this edit: it may have been applied; the current file ",
        ),
        (
            "codex-killed-mid-patch.jsonl",
            "calc.py",
            "Codex 0.169.0: 1 edit, 0 failed, 0 loose, 0 disagreements, 1 unknown\n   1  calc.py  \
             apply_patch      Codex: pending   srview: unknown (the output ends before Codex's \
             result on this edit: it may have been applied; the current file ",
        ),
    ];
    for (session, file, listed) in cases {
        let session = cut_off.join(session);
        let ws = tempfile::tempdir().unwrap();
        let now = fs::read_to_string(cut_off.join(format!("{file}.now"))).unwrap();
        fs::write(ws.path().join(file), &now).unwrap();
        let looks_applied = format!(
            "the current file {} holds its new text already: it looks applied already",
            ws.path().join(file).display()
        );

        let out = session_run(&session, ws.path(), &["--list"]);
        assert_eq!(code(&out), 0, "{}", stderr(&out));
        let text = stdout(&out);
        assert_starts_with(&text, listed);
        assert!(text.contains(&looks_applied), "{text}");
        assert!(
            !text.contains("FAILED") && !text.contains("not-run"),
            "{text}"
        );
        assert_eq!(stderr(&out), SAID);

        let (json, err) = srview_session(&session, ws.path());
        let edit = &json["edits"][0];
        assert_eq!(edit["agentVerdict"], "pending", "{edit}");
        assert_eq!(edit["srview"]["ok"], Value::Null, "{edit}");
        assert_eq!(edit["srview"]["against"], Value::Null, "{edit}");
        let why = edit["srview"]["why"].as_str().unwrap_or_default();
        assert!(why.ends_with(&looks_applied), "{why}");
        assert_eq!(err, SAID);

        // `check --session`: nothing failed (exit 0), the edit not judged,
        // and why.
        let (status, text) = check_session(&session, Some(ws.path()));
        assert_eq!(status, Some(0), "{text}");
        assert!(
            text.contains(": 1 edit, 0 failed, 1 not judged\n"),
            "{text}"
        );
        assert!(text.contains(&looks_applied), "{text}");
        // Nothing written.
        assert_eq!(fs::read_to_string(ws.path().join(file)).unwrap(), now);
    }

    // The patch not in the file (Codex killed before writing it): it
    // applies on the current file, whose content before is unknown; still
    // pending, never "never ran".
    let ws = tempfile::tempdir().unwrap();
    let before = expected(&fixtures().join("codex-0.169.0/a_success")).edits[0]
        .content_before
        .clone()
        .unwrap();
    fs::write(ws.path().join("calc.py"), before).unwrap();
    let out = session_run(
        &cut_off.join("codex-killed-mid-patch.jsonl"),
        ws.path(),
        &["--list"],
    );
    assert_eq!(
        stdout(&out),
        "Codex 0.169.0: 1 edit, 0 failed, 0 loose, 0 disagreements\n   1  calc.py  apply_patch      \
         Codex: pending   srview: applied (exact, exact) on the current file (content before \
         unknown)\n"
    );

    // Live: Claude Code's stream cut after the first Edit's call (the
    // finding's `head -46`).
    let stream =
        fs::read_to_string(fixtures().join("claude-code-2.1.328/a_edits_ok/stdout.jsonl")).unwrap();
    let head: String = stream.split_inclusive('\n').take(46).collect();
    let out = srview(["session", "-", "--list"])
        .stdin(head.as_bytes())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stdout(&out).contains("  Edit             Claude Code: pending   srview: unknown ("),
        "{}",
        stdout(&out)
    );
    assert_eq!(stderr(&out), SAID);
}

/// Where the output shows the agent went on without running a call, the
/// call stays `not-run`: Claude Code's stream-json `result` line (the run's
/// end) after an Edit whose result is missing, Codex's `task_complete`
/// after a patch without its outcome. Nothing is said of a lost verdict.
#[test]
fn a_call_the_run_ended_without_running_stays_not_run() {
    let stream =
        fs::read_to_string(fixtures().join("claude-code-2.1.328/a_edits_ok/stdout.jsonl")).unwrap();
    // The first Edit's result left out: the run goes on and ends.
    let first_result = stream
        .split_inclusive('\n')
        .position(|l| l.starts_with("{\"type\":\"user\"") && l.contains("\"structuredPatch\""))
        .expect("the first Edit's result");
    let without: String = stream
        .split_inclusive('\n')
        .enumerate()
        .filter(|(i, _)| *i != first_result)
        .map(|(_, l)| l)
        .collect();
    assert!(without.trim_end().ends_with('}') && without.contains("\"type\":\"result\""));
    let out = srview(["session", "-", "--json"])
        .stdin(without.as_bytes())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts: Vec<&str> = got["edits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["agentVerdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["not-run", "applied"]);
    assert_eq!(stderr(&out), "");

    let cut = fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/cut-off/codex-killed-mid-patch.jsonl"),
    )
    .unwrap();
    let ended = format!(
        "{cut}{}\n",
        r#"{"timestamp":"2026-11-30T16:44:58.000Z","ordinal":10,"type":"event_msg","payload":{"type":"task_complete","turn_id":"01a22d58-653e-7933-9bae-69c1aca133d6","last_agent_message":null}}"#
    );
    let out = srview(["session", "-", "--json"])
        .stdin(ended.as_bytes())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(got["edits"][0]["agentVerdict"], "not-run", "{got}");
    assert_eq!(stderr(&out), "");
}

/// An edit the agent failed is run against the file as it is now (what the
/// agent had) only where no later edit of the session may have written the
/// file: a later Edit of the same file the output ends before the result
/// of may have (Claude Code killed while writing it).
#[test]
fn a_cut_off_edit_may_have_written_the_file_an_earlier_failed_edit_had() {
    let dir = fixtures().join("claude-code-2.1.328/c_edit_ambiguous");
    let want = expected(&dir);
    let tmp = tempfile::tempdir().unwrap();
    let ws = tmp.path().join("ws");
    fs::create_dir(&ws).unwrap();
    let before = want.edits[0].content_before.clone().unwrap();
    fs::write(ws.join("inventory.py"), &before).unwrap();
    let whole = fs::read_to_string(session_path(&dir)).unwrap();
    let session = tmp.path().join("s.jsonl");
    // As recorded: the failed Edit against the file now (nothing wrote it
    // since).
    fs::write(&session, &whole).unwrap();
    let (json, _) = srview_session(&session, &ws);
    assert_eq!(json["edits"][0]["srview"]["against"], "on-disk");
    // A later Edit of inventory.py without its result.
    let cut = format!(
        "{whole}{}\n",
        r#"{"type":"assistant","uuid":"u-cut","message":{"id":"msg_cut","role":"assistant","content":[{"type":"tool_use","id":"toolu_cut","name":"Edit","input":{"file_path":"/home/user/project/inventory.py","old_string":"LOW_STOCK = 5\n","new_string":"LOW_STOCK = 5\nHIGH_STOCK = 50\n"}}]}}"#
    );
    fs::write(&session, cut).unwrap();
    let (json, _) = srview_session(&session, &ws);
    let edits = json["edits"].as_array().unwrap();
    assert_eq!(edits[0]["agentVerdict"], "failed");
    assert_eq!(edits[0]["srview"]["against"], Value::Null, "{}", edits[0]);
    assert_eq!(edits[1]["agentVerdict"], "pending");
    assert_eq!(
        edits[1]["srview"]["against"], "current-file",
        "{}",
        edits[1]
    );
}

/// A Claude Code Edit with curly quotes where the file has straight ones,
/// which Claude Code applies through its quote normalisation (the gate's
/// recorded `c_rewrite` stream), is loose at the gate's stage, as the gate
/// calls it: not "failed [FAILED DISAGREE]" (a tester's find).
#[test]
fn a_claude_edit_applied_by_quote_normalisation_is_loose_not_a_disagreement() {
    let gate = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gate");
    let tmp = tempfile::tempdir().expect("temp dir");
    fs::copy(gate.join("inventory.py"), tmp.path().join("inventory.py")).expect("the file");
    let stream = gate.join("claude-code/c_rewrite.stdout.jsonl");
    let out = session_run(&stream, tmp.path(), &["--list"]);
    assert_eq!(code(&out), 0, "{out:?}");
    let text = stdout(&out);
    assert_starts_with(
        &text,
        "Claude Code 2.1.328: 1 edit, 0 failed, 1 loose, 0 disagreements\n",
    );
    assert!(
        text.contains("srview: applied (quote-normalised)  [LOOSE]"),
        "{text}"
    );
    let (json, _) = srview_session(&stream, tmp.path());
    let edit = &json["edits"][0];
    assert_eq!(
        (
            &edit["srview"]["looseLevels"],
            &edit["srview"]["disagreement"]
        ),
        (&serde_json::json!(["quote-normalised"]), &Value::Null),
        "{edit}"
    );
}

/// A saved Gemini CLI stream names no workspace: `session FILE --cwd DIR`
/// takes its absolute paths under DIR by their longest suffix that exists
/// there, said once on stderr, as for the same stream piped in (a
/// tester's find: DIR was ignored, and every edit's file "did not
/// exist").
#[test]
fn a_saved_stream_naming_no_workspace_is_read_under_cwd() {
    let dir = fixtures().join("gemini-cli-0.61.0/a_edits_ok");
    let want = expected(&dir);
    let tmp = tempfile::tempdir().expect("temp dir");
    let moved = tmp.path();
    let (_, last) = states(&want);
    write_files(moved, &last);
    let stream = dir.join("stdout.jsonl");
    assert!(
        fs::read_to_string(&stream)
            .expect("the stream")
            .contains("\"/home/user/project/inventory.py\"")
    );
    for args in [&["--list"][..], &["--json"]] {
        let out = session_run(&stream, moved, args);
        assert_eq!(code(&out), 0, "{args:?}: {out:?}");
        let text = stdout(&out);
        if args == ["--list"] {
            for row in ["   1  inventory.py  replace", "   2  inventory.py  replace"] {
                assert!(text.contains(row), "{text}");
            }
        }
        assert_eq!(
            stderr(&out),
            format!(
                "srview: note: /home/user/project is not under {0}: its files are taken as the \
                 same paths under {0} (first: /home/user/project/inventory.py as inventory.py)\n",
                moved.display()
            ),
            "{args:?}"
        );
    }
    let (json, _) = srview_session(&stream, moved);
    for edit in json["edits"].as_array().expect("edits") {
        assert_eq!(edit["file"], "inventory.py", "{edit}");
    }
}
