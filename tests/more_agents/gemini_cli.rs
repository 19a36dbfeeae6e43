//! Gemini CLI 0.61.0: its recorded runs through the binary (`session PATH
//! --json`, the live stream piped into `session - --json`, `sessions`,
//! `check --session`), its own behaviours (the LLM correction step, edit
//! tools missing without `--yolo`, fuzzy stages reported as plain success,
//! the `--output-format json` summary that carries no edits), robustness,
//! and its previewer in an 80x24 terminal.

use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use serde_json::Value;
use srview::sessions::recover::SessionRoot;
use srview::sessions::review::{Basis, review, review_live};
use srview::source::agent::session::read_session;
use srview::source::agent::{AgentKind, AgentReader, FileContent, Format, Verdict, detect};

use crate::support::agents::{ExpectedEdit, expected, fixtures, session_path, workspace_copy};
use crate::support::big_session;
use crate::support::files;
use crate::support::pty::{Session, Terminal};
use crate::support::runner::{code, srview, stderr, stdout};

const AGENT: &str = "gemini-cli-0.61.0";

fn scenario(name: &str) -> PathBuf {
    fixtures().join(AGENT).join(name)
}

/// A workspace holding each file of `dir`'s scenario as it was before the
/// run.
fn workspace(dir: &Path) -> tempfile::TempDir {
    workspace_copy(dir, "before")
}

/// The edits of a `session --json` output.
fn json_edits(out: &str) -> Vec<Value> {
    let doc: Value = serde_json::from_str(out).expect("session --json is JSON");
    assert_eq!(doc["agent"], "gemini-cli", "{out}");
    doc["edits"].as_array().expect("edits").clone()
}

/// Compares what `session --json` printed (`out`: exit 0) with
/// expected.json, edit by edit in order: file, tool, verdict and message
/// exactly. `contents` (a saved session): both contents exactly (an
/// applied edit's recorded, a failed or never-run one's before from the
/// whole-file `read_file` before it). Else (a live stream, which carries
/// none) `contentAfter` is null and no other content is compared: what
/// `contentBefore` then holds is srview's recovery from the disk, not the
/// agent's output.
fn assert_session_edits(label: &str, out: &Output, want: &[ExpectedEdit], contents: bool) {
    assert_eq!(code(out), 0, "{label}: {}", stderr(out));
    let edits = json_edits(&stdout(out));
    assert_eq!(edits.len(), want.len(), "{label}");
    let text = |v: &Value| v.as_str().map(str::to_string);
    for (got, want) in edits.iter().zip(want) {
        assert_eq!(got["seq"], want.seq, "{label}");
        assert_eq!(got["file"], want.file.as_str(), "{label}");
        assert_eq!(got["tool"], want.tool.as_str(), "{label}");
        assert_eq!(got["agentVerdict"], want.agent_verdict.as_str(), "{label}");
        assert_eq!(
            text(&got["agentMessage"]),
            want.agent_message,
            "{label}: agentMessage"
        );
        if contents {
            assert_eq!(
                text(&got["contentBefore"]),
                want.content_before,
                "{label}: contentBefore"
            );
            assert_eq!(
                text(&got["contentAfter"]),
                want.content_after,
                "{label}: contentAfter"
            );
        } else {
            assert_eq!(got["contentAfter"], Value::Null, "{label}");
        }
    }
}

const SCENARIOS: &[&str] = &[
    "b_nomatch_retry",
    "d_ambiguous_retry",
    "c3_fuzzy_typo",
    "c5_llm_fixer_applied",
    "e_write_new",
    "f_default_approval",
];

#[test]
fn saved_sessions_through_the_binary_give_the_expected_edits() {
    for name in SCENARIOS {
        let dir = scenario(name);
        let want = expected(&dir);
        let out = srview(["session", "--json"])
            .arg(session_path(&dir))
            .output();
        assert_session_edits(&format!("{name} (saved)"), &out, &want.edits, true);
    }
}

#[test]
fn live_streams_piped_into_session_give_the_expected_edits() {
    for name in SCENARIOS {
        let dir = scenario(name);
        let want = expected(&dir);
        // The stream names absolute paths and no workspace: the folder the
        // agent ran in is given (a file it created is not found by its
        // suffix in a copy of the workspace).
        let out = srview(["session", "-", "--json", "--cwd", "/home/user/project"])
            .stdin_file(Some(&dir.join("stdout.jsonl")))
            .output();
        // The live stream carries no file content.
        assert_session_edits(&format!("{name} (live)"), &out, &want.edits, false);
    }
}

/// `--output-format json` prints one summary at the end: no edit can be
/// read from it, and srview says so (with the counts it does carry)
/// instead of showing an empty list.
#[test]
fn the_json_summary_output_says_it_carries_no_edits() {
    let dir = scenario("a_edits_ok_json");
    let bytes = fs::read(dir.join("stdout.json")).expect("stdout.json");
    assert_eq!(
        detect(&bytes),
        Some((AgentKind::GeminiCli, Format::GeminiJson))
    );
    let why = "Gemini CLI: this is `--output-format json` output: it carries no edits, only \
               counts (replace: 2 calls, 2 succeeded, 0 failed); pipe `--output-format \
               stream-json` instead, or read the saved session (`srview session`)";
    let out = srview(["session", "-", "--json"]).stdin(&bytes).output();
    assert_eq!(code(&out), 2, "{}", stderr(&out));
    assert_eq!(stdout(&out), "");
    assert_eq!(
        stderr(&out),
        format!("srview: {why}\nsrview: no edit could be read from -: {why}\n")
    );
}

/// The saved session is found under `~/.gemini/tmp/<project>/chats/`,
/// by `sessions`, by its id, and by `check --session`.
#[test]
fn sessions_finds_the_saved_session_under_home() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("home");
    let gemini = home.join(".gemini");
    files::copy_tree(&scenario("c3_fuzzy_typo").join("session"), &gemini);
    let file = gemini.join("tmp/project/chats/session-2026-12-01T14-04-5c7e9a1b.jsonl");
    assert!(file.is_file());
    let cells = crate::listed_cells(&home, tmp.path(), "gemini-cli");
    assert_eq!(
        cells[2..],
        [
            "gemini-cli",
            "-",
            "1",
            "0",
            "1",
            "0",
            "/home/user/project",
            file.to_str().expect("UTF-8"),
        ],
        "{cells:?}"
    );
    // By the id its file name carries.
    let out = srview(["session", "5c7e9a1b", "--json"])
        .env("HOME", &home.to_string_lossy())
        .cwd(tmp.path())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        json_edits(&stdout(&out))[0]["srview"]["looseLevels"][0],
        "fuzzy"
    );
    let out = srview(["check", "--session"]).arg(&file).output();
    assert!(
        stdout(&out).contains(
            "loose match: matched only loosely (fuzzy) while Gemini CLI reported plain success"
        ),
        "{}",
        stdout(&out)
    );
}

const CORRECTED: &str = "applied although old_string does not occur: the agent corrected it";

/// c5: the LLM correction step rewrote an old_string found nowhere, and
/// nothing records the corrected one. srview's port of Gemini's matcher
/// does not find it: said as the agent's correction, not as a
/// disagreement, with the model's edit beside the change the session
/// records.
#[test]
fn an_edit_the_llm_correction_step_rewrote_is_said_corrected() {
    let dir = scenario("c5_llm_fixer_applied");
    let want = expected(&dir);
    let before = want.edits[0].content_before.clone().expect("before");
    let after = want.edits[0].content_after.clone().expect("after");

    // Saved: the recorded contents, and the model's own edit.
    let reader = read_session(&session_path(&dir), None).expect("session");
    let ws = SessionRoot {
        root: tempfile::tempdir().expect("tempdir").path().to_path_buf(),
    };
    let saved = review(&reader, &ws);
    let r = &saved.reviews[0];
    assert_eq!(r.edit.agent_verdict, Verdict::Applied);
    assert_eq!(r.basis, Some(Basis::Recorded));
    assert_eq!(r.ok(), None);
    assert_eq!(r.disagreement, None);
    assert_eq!(
        r.why(),
        Some(
            "applied although old_string does not occur: the agent corrected it (Gemini CLI \
             rewrites an edit its matcher finds nowhere before applying it when its \
             correction step is on, and records the corrected old_string nowhere; the output \
             records the change it made)"
        )
    );
    assert_eq!(r.before, Some(FileContent::Text(before.clone())));
    assert_eq!(r.edit.after(), Some(&FileContent::Text(after.clone())));
    let out = srview(["session", "--json"])
        .arg(session_path(&dir))
        .output();
    let edit = &json_edits(&stdout(&out))[0];
    let model: Value = serde_json::from_str(edit["edit"].as_str().expect("edit")).expect("JSON");
    let old = model["old_string"].as_str().expect("old_string");
    assert!(!before.contains(old), "the model's old_string occurs");
    assert_eq!(edit["contentBefore"], before.as_str());
    assert_eq!(edit["contentAfter"], after.as_str());
    assert_eq!(edit["srview"]["disagreement"], Value::Null);

    // Live: the file read when the edit appeared is the content before.
    let mut live = AgentReader::new(AgentKind::GeminiCli, Format::GeminiStreamJson)
        .with_workspace("/home/user/project");
    live.feed(&fs::read(dir.join("stdout.jsonl")).expect("stdout.jsonl"));
    live.finish();
    let on_disk = HashMap::from([(1, FileContent::Text(before))]);
    let reviewed = review_live(
        &live,
        &ws,
        srview::sessions::review::Recovery::Full,
        &on_disk,
    );
    let r = &reviewed.reviews[0];
    assert_eq!(r.basis, Some(Basis::LiveFile));
    assert_eq!(r.disagreement, None);
    assert!(
        r.why()
            .is_some_and(|w| w.starts_with(CORRECTED) && !w.contains("records the change")),
        "{:?}",
        r.why()
    );
}

/// A failure that is not "found nowhere" (an old_string found twice) by
/// the same agent stays a plain failure: the correction step only runs
/// when nothing matched.
#[test]
fn an_ambiguous_edit_is_a_failure_not_a_correction() {
    let dir = scenario("d_ambiguous_retry");
    let reader = read_session(&session_path(&dir), None).expect("session");
    let ws = SessionRoot {
        root: PathBuf::from("/nonexistent"),
    };
    let r = &review(&reader, &ws).reviews;
    assert_eq!(r[0].edit.agent_verdict, Verdict::Failed);
    // Against the file its read_file recorded: srview's port fails it too.
    assert_eq!(r[0].basis, Some(Basis::Chained));
    assert_eq!(r[0].ok(), Some(false));
    assert!(r[0].why().is_none());
    assert_eq!(r[0].disagreement, None);
    assert_eq!(r[1].ok(), Some(true));
    assert_eq!(r[1].disagreement, None);
}

/// A saved session's whole-file `read_file` is the next edit's content
/// before; not after a shell command ran, and not a partial read.
#[test]
fn a_whole_file_read_is_the_content_before_until_a_shell_command() {
    let call = |id: &str, name: &str, args: &str, status: &str, response: &str| {
        format!(
            "{{\"id\":\"m{id}\",\"type\":\"gemini\",\"content\":\"\",\"toolCalls\":[{{\"id\":\"{id}\",\
             \"name\":\"{name}\",\"args\":{args},\"result\":[{{\"functionResponse\":{{\"id\":\"{id}\",\
             \"name\":\"{name}\",\"response\":{response}}}}}],\"status\":\"{status}\"}}]}}\n"
        )
    };
    let read =
        |id: &str, args: &str| call(id, "read_file", args, "success", r#"{"output":"a = 1\n"}"#);
    let replace = |id: &str| {
        call(
            id,
            "replace",
            r#"{"file_path":"/w/a.py","instruction":"i","old_string":"b = 2","new_string":"b = 3"}"#,
            "error",
            r#"{"error":"no match"}"#,
        )
    };
    let shell = call(
        "s",
        "run_shell_command",
        r#"{"command":"echo b = 2 > a.py"}"#,
        "success",
        r#"{"output":""}"#,
    );
    let header = "{\"sessionId\":\"x\",\"projectHash\":\"h\",\"kind\":\"main\"}\n";
    let whole = r#"{"file_path":"/w/a.py"}"#;
    let partial = r#"{"file_path":"/w/a.py","start_line":1,"end_line":1}"#;
    let session = [
        header.to_string(),
        read("r1", whole),
        replace("e1"),
        shell,
        replace("e2"),
        read("r2", partial),
        replace("e3"),
        read("r3", whole),
        read("r3", whole),
        replace("e4"),
    ]
    .concat();
    let mut reader =
        AgentReader::new(AgentKind::GeminiCli, Format::GeminiSessionJsonl).with_workspace("/w");
    reader.feed(session.as_bytes());
    let edits = reader.finish();
    let befores: Vec<Option<&FileContent>> = edits.iter().map(|e| e.before()).collect();
    let read_content = FileContent::Text("a = 1\n".into());
    assert_eq!(
        befores,
        [Some(&read_content), None, None, Some(&read_content)]
    );
    assert!(reader.errors().is_empty(), "{:?}", reader.errors());
}

/// Without `--yolo`, headless Gemini CLI does not declare its edit tools:
/// the model's calls are answered `Tool "replace" not found ...` and never
/// ran (`not-run`, with the agent's text), live and saved.
#[test]
fn edit_tools_missing_without_yolo_are_not_run_with_the_agents_text() {
    let dir = scenario("f_default_approval");
    let text = "Tool \"replace\" not found. Did you mean one of: \"read_file\", \"grep_search\", \"glob\"?";
    let saved = read_session(&session_path(&dir), None).expect("session");
    let mut live = AgentReader::new(AgentKind::GeminiCli, Format::GeminiStreamJson);
    live.feed(&fs::read(dir.join("stdout.jsonl")).expect("stdout.jsonl"));
    live.finish();
    for edits in [saved.edits(), live.edits()] {
        assert_eq!(edits.len(), 2);
        for e in edits {
            assert_eq!(e.agent_verdict, Verdict::NotRun);
            assert_eq!(e.agent_message.as_deref(), Some(text));
        }
    }
    // Live, not-run because the agent said so, not because the output
    // ended before a verdict.
    assert!(live.ended_without_verdict().is_empty());
}

/// The flexible, regex and fuzzy stages: Gemini CLI reported plain
/// success; srview's port names the stage in a loose-match notice.
#[test]
fn loose_stages_reported_as_success_are_a_notice_with_geminis_stage() {
    for (name, stage) in [
        ("c1_flexible_indent", "flexible"),
        ("c2_regex_whitespace", "regex"),
        ("c3_fuzzy_typo", "fuzzy"),
        ("c4_fuzzy_quotes_dash", "fuzzy"),
    ] {
        let dir = scenario(name);
        let reader = read_session(&session_path(&dir), None).expect("session");
        let ws = SessionRoot {
            root: PathBuf::from("/nonexistent"),
        };
        let r = &review(&reader, &ws).reviews[0];
        assert_eq!(r.ok(), Some(true), "{name}");
        assert_eq!(r.disagreement, None, "{name}");
        assert_eq!(
            r.loose_match.as_deref(),
            Some(
                format!("matched only loosely ({stage}) while Gemini CLI reported plain success")
                    .as_str()
            ),
            "{name}"
        );
        // srview's result is what the agent wrote.
        assert_eq!(
            r.applied().and_then(|a| a.new_content()),
            r.edit.after(),
            "{name}"
        );
    }
}

/// Unknown lines, types and fields are skipped; a torn last line is read
/// once it grows; nothing panics on a stream cut anywhere.
#[test]
fn unknown_lines_and_a_torn_last_line_are_handled() {
    let dir = scenario("b_nomatch_retry");
    let stream = fs::read_to_string(dir.join("stdout.jsonl")).expect("stdout.jsonl");
    let mut noisy = String::new();
    for line in stream.lines() {
        noisy.push_str(line);
        noisy.push('\n');
        noisy.push_str("{\"type\":\"telemetry\",\"what\":{\"x\":1}}\n");
    }
    let noisy = noisy.replace("\"status\":", "\"new_field\":[1,2],\"status\":");
    let mut reader = AgentReader::new(AgentKind::GeminiCli, Format::GeminiStreamJson);
    // Fed up to the middle of the second tool_result line: its verdict
    // arrives only once the line is whole.
    let second = noisy.rfind("\"type\":\"tool_result\"").expect("a result") + 20;
    reader.feed(&noisy.as_bytes()[..second]);
    assert_eq!(reader.edits().len(), 2);
    assert_eq!(reader.edits()[0].agent_verdict, Verdict::Failed);
    assert_eq!(reader.edits()[1].agent_verdict, Verdict::Pending);
    reader.feed(&noisy.as_bytes()[second..]);
    reader.finish();
    assert_eq!(reader.edits()[1].agent_verdict, Verdict::Applied);
    assert!(reader.errors().is_empty(), "{:?}", reader.errors());
    // Cut at every byte: no panic, and never more edits than the whole.
    for cut in (0..stream.len()).step_by(37) {
        let mut r = AgentReader::new(AgentKind::GeminiCli, Format::GeminiStreamJson);
        r.feed(&stream.as_bytes()[..cut]);
        assert!(r.finish().len() <= 2);
    }
    // A replace without its file_path: one error naming the agent.
    let mut r = AgentReader::new(AgentKind::GeminiCli, Format::GeminiStreamJson);
    r.feed(b"{\"type\":\"tool_use\",\"tool_name\":\"replace\",\"tool_id\":\"r1\",\"parameters\":{\"old_string\":\"a\"}}\n");
    r.finish();
    assert!(r.edits().is_empty());
    assert_eq!(
        r.errors()[0].to_string(),
        "Gemini CLI (version not named yet): the replace tool input at line 1 has no \
         `file_path`; this edit cannot be previewed (the agent's output format may have changed)"
    );
}

/// The previewer at 80x24 following a growing stream-json output: the
/// fuzzy edit against the file read when it appeared, with Gemini's stage.
#[test]
fn the_previewer_shows_a_fuzzy_match_gemini_called_a_success() {
    let dir = scenario("c3_fuzzy_typo");
    let ws = workspace(&dir);
    let stream = fs::read(dir.join("stdout.jsonl")).expect("stdout.jsonl");
    let log = ws.path().join("gemini.jsonl");
    fs::write(&log, b"").expect("write");
    let mut s = crate::following_at_80x24(ws.path(), "gemini.jsonl");
    s.wait_for("the first frame", |c| c.contains("waiting"));
    for line in stream.split_inclusive(|&b| b == b'\n') {
        files::append(&log, line);
        std::thread::sleep(Duration::from_millis(30));
    }
    s.wait_for("the fuzzy match, as a notice", |c| {
        c.contains("Gemini CLI")
            && c.contains("matched only loosely (fuzzy)")
            && c.contains("fuzzy        30-33")
    });
    s.quit_agreeing();
}

/// A generated Gemini CLI session (tests/support/big_session.rs) is
/// listed with the counts its generator knows.
#[test]
fn a_generated_session_is_counted_as_it_is_read() {
    let home = tempfile::tempdir().expect("home");
    let big = big_session::gemini_session(home.path(), 1 << 20);
    crate::assert_counted_as_generated(&big, AgentKind::GeminiCli);
    assert!(big.edits > 100, "{big:?}");
}

/// 100 MB of saved Gemini CLI session (the b_nomatch_retry session's lines
/// again and again, tool ids made unique, generated by
/// tests/support/big_session.rs), read in pieces:
/// `cargo test --release --test more_agents gemini_cli::a_100 -- --ignored --nocapture`.
#[test]
#[ignore]
fn a_100_mb_session_reads_quickly() {
    let home = tempfile::tempdir().expect("home");
    let big = big_session::gemini_session(home.path(), 100 << 20);
    let session = fs::read(&big.path).expect("session");
    let edits = crate::support::agents::read_all_quickly(Format::GeminiSessionJsonl, &session);
    assert_eq!(edits, big.edits);
}

/// The session browser at 80x24 on the corrected edit: said as corrected,
/// never as a disagreement, the panes showing the change the session
/// records.
#[test]
fn the_session_browser_shows_the_edit_the_agent_corrected() {
    let dir = scenario("c5_llm_fixer_applied");
    let ws = workspace(&dir);
    let session = session_path(&dir);
    let cwd = ws.path().to_str().expect("UTF-8");
    let mut s = Session::srview_at_80x24(
        ws.path(),
        &["session", session.to_str().expect("UTF-8"), "--cwd", cwd],
    );
    s.wait_for("the list", |c| c.contains("Enter open"));
    s.press(b"\r");
    s.wait_for_all(
        "the corrected edit, with the change recorded",
        &[
            "edit 1/1",
            "Gemini CLI: applied · srview: unknown: applied although",
            "applied although old_string does not occur: the agent corrected it",
            "return next((item for item in items if item.name == name), None)",
            "22-29 → 22-27",
        ],
    );
    assert!(!s.contents().contains("DISAGREE"), "{}", s.contents());
    // The model's own edit, whose old_string is found nowhere.
    s.press(b"v");
    s.wait_for("the model's edit", |c| {
        c.contains("the edit as received")
            && c.contains(r#""old_string": "def find_item(items, key):\n    for entry in items"#)
    });
    s.press(b"q");
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}

/// A saved session followed as the CLI appends it: read in pieces of any
/// size (lines torn between them), each capture gives the same edits as
/// read whole.
#[test]
fn saved_sessions_read_in_pieces_give_the_same_edits() {
    let mut rng = crate::support::rng::Rng::new(30);
    for entry in fs::read_dir(fixtures().join(AGENT)).expect("captures") {
        let dir = entry.expect("entry").path();
        if !dir.join("expected.json").is_file() {
            continue;
        }
        let bytes = fs::read(session_path(&dir)).expect("session");
        let read = |pieces: &mut dyn FnMut() -> usize| {
            let mut reader = AgentReader::new(AgentKind::GeminiCli, Format::GeminiSessionJsonl)
                .with_workspace("/home/user/project");
            let mut at = 0;
            while at < bytes.len() {
                let end = (at + pieces()).min(bytes.len());
                reader.feed(&bytes[at..end]);
                at = end;
            }
            reader.finish().to_vec()
        };
        let whole = read(&mut || usize::MAX / 2);
        assert_eq!(whole.len(), expected(&dir).edits.len(), "{}", dir.display());
        let pieces = read(&mut || rng.below(300) + 1);
        assert_eq!(pieces, whole, "{}", dir.display());
    }
}

/// The previewer given the `--output-format json` summary says it carries
/// no edits, not "no file edits in this output".
#[test]
fn the_previewer_says_the_json_summary_carries_no_edits() {
    let dir = scenario("a_edits_ok_json");
    let ws = workspace(&dir);
    fs::copy(dir.join("stdout.json"), ws.path().join("gemini.json")).expect("copy");
    let cwd = ws.path().to_str().expect("UTF-8");
    let piped = format!(
        "cat gemini.json | {} - --cwd {cwd}",
        env!("CARGO_BIN_EXE_srview")
    );
    let mut s = Session::spawn_in(
        ws.path(),
        "sh",
        &["-c", &piped],
        &Terminal {
            rows: 24,
            cols: 80,
            ..Terminal::default()
        },
    );
    s.wait_for("the summary said to carry no edits", |c| {
        c.contains("Gemini CLI (version not named) · 0 edits")
            && c.contains("Gemini CLI: this is `--output-format json` output: it carries no")
    });
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
}
