//! The gate's record in `srview session`: each decision of
//! `.srview/gate.jsonl` in the session's workspace shown beside the edit it
//! was about (joined by the SHA-256 of the tool input, or by the call's id
//! for Claude Code and Codex), and counted in the header. Gemini CLI's live
//! stream of two `replace` calls
//! (tests/fixtures/agents/gemini-cli-0.61.0/b_nomatch_retry), Claude Code's
//! stream of two `Edit` calls (claude-code-2.1.328/a_edits_ok) and Codex's
//! rollout of one patch of two files (codex-0.169.0/c_add_and_update), read
//! with `--cwd` a temporary workspace holding the record.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

const GEMINI_STREAM: &str = "gemini-cli-0.61.0/b_nomatch_retry/stdout.jsonl";

fn recorded(relative: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents")
        .join(relative)
}

/// `srview session - [--json] --cwd WORKSPACE` on Gemini CLI's stream: stdout.
fn session(workspace: &Path, json: bool) -> String {
    session_of(GEMINI_STREAM, workspace, json)
}

/// `srview session - [--json] --cwd WORKSPACE` with the recorded
/// `relative` (under tests/fixtures/agents/) on stdin: stdout.
fn session_of(relative: &str, workspace: &Path, json: bool) -> String {
    let stream = std::fs::File::open(recorded(relative)).expect("the recorded stream");
    let mut command = Command::new(env!("CARGO_BIN_EXE_srview"));
    command.args(["session", "-"]);
    if json {
        command.arg("--json");
    }
    stdout_of(
        command
            .arg("--cwd")
            .arg(workspace)
            .stdin(Stdio::from(stream)),
    )
}

/// Runs `command` (srview) to its end: its stdout, after asserting it
/// exited 0 (its stderr said if not).
fn stdout_of(command: &mut Command) -> String {
    let out = command.output().expect("srview runs");
    super::support::runner::assert_exit(&out, 0, "srview");
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The SHA-256 of each edit's tool input (`edits` of `srview session
/// --json`) as compact JSON with sorted keys, as the gate hashes it.
fn input_shas(edits: &Value) -> Vec<String> {
    edits
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let input: Value =
                serde_json::from_str(e["edit"].as_str().expect("the input")).expect("JSON");
            sha256(&input.to_string())
        })
        .collect()
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn decision(sha: &str, case: &str, decision: &str) -> String {
    json!({"time": "2026-12-01T20:22:53.771Z", "agent": "gemini-cli", "sessionId": "2d4f6a8c-1e3b-4c5d-9f7a-8b6c4d2e0f11",
           "callId": null, "tool": "replace", "file": "/home/user/project/inventory.py",
           "inputSha256": sha, "stage": "none", "case": case, "policy": "deny",
           "decision": decision, "message": format!("srview gate: {case}")})
    .to_string()
}

#[test]
fn session_shows_the_gates_decision_beside_each_edit_it_joins() {
    let workspace = tempfile::tempdir().expect("a workspace");
    let before: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    let edits = before["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), 2);
    assert!(
        edits.iter().all(|e| e.get("gate").is_none()),
        "no record, no gate field"
    );
    let shas = input_shas(&before["edits"]);

    let record = workspace.path().join(".srview");
    std::fs::create_dir(&record).expect(".srview");
    let lines = [
        decision(&"0".repeat(64), "exact", "none"),
        "not a decision".to_string(),
        decision(&shas[0], "failing", "deny"),
        decision(&shas[1], "loose", "repair"),
    ];
    std::fs::write(record.join("gate.jsonl"), lines.join("\n") + "\n").expect("the record");

    let after: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    assert_eq!(
        after["edits"][0]["gate"],
        json!({"time": "2026-12-01T20:22:53.771Z", "agent": "gemini-cli", "case": "failing",
               "decision": "deny", "stage": "none", "message": "srview gate: failing"})
    );
    assert_eq!(after["edits"][1]["gate"]["decision"], "repair");
    // The line that is no decision is said, not skipped without a word
    // (the document's last field, there only when a line could not be
    // read).
    assert_eq!(after["gateRecordUnreadableLines"], 1);
    // Additive: everything else as it was, but that srview does not replay
    // the model's input of an edit the gate repaired (the agent ran the
    // rewrite).
    let mut stripped = after.clone();
    for edit in stripped["edits"].as_array_mut().expect("edits") {
        edit.as_object_mut().expect("an edit").remove("gate");
    }
    let top = stripped.as_object_mut().expect("the document");
    top.remove("gateRecordUnreadableLines");
    assert_eq!(
        stripped["edits"][1]["srview"]["why"],
        "applied as repaired by the gate: the agent ran the gate's rewrite of the model's \
         input, which srview does not replay"
    );
    stripped["edits"][1]["srview"] = before["edits"][1]["srview"].clone();
    assert_eq!(stripped, before);

    let listing = session(workspace.path(), false);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(
        lines[0],
        "Gemini CLI (version not named): 2 edits, 1 failed, 0 loose, 0 disagreements, 2 unknown; gate: 1 \
         blocked, 1 repaired; 1 line of .srview/gate.jsonl could not be read"
    );
    assert!(
        lines.contains(&"      gate: blocked (failing)"),
        "{listing}"
    );
    assert!(lines.contains(&"      gate: repaired (loose)"), "{listing}");
}

/// `sessions` counts the decisions of each session's workspace: Gemini
/// CLI's saved session (moved to a temporary workspace) listed under a
/// temporary HOME, "(gate: 1 blocked, 1 repaired)" after its path; the
/// saved session joins as the live stream does.
#[test]
fn sessions_counts_the_gates_decisions() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let home = tmp.path().join("home");
    let workspace = tmp.path().join("project");
    std::fs::create_dir_all(&workspace).expect("the workspace");
    let recorded = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents/gemini-cli-0.61.0/b_nomatch_retry/session");
    let moved = workspace.to_str().expect("UTF-8");
    for relative in [
        "projects.json",
        "tmp/project/.project_root",
        "tmp/project/chats/session-2026-12-01T14-04-2d4f6a8c.jsonl",
    ] {
        let text = std::fs::read_to_string(recorded.join(relative)).expect("the recording");
        let target = home.join(".gemini").join(relative);
        std::fs::create_dir_all(target.parent().expect("a folder")).expect("folders");
        std::fs::write(&target, text.replace("/home/user/project", moved)).expect("a copy");
    }
    let file = home.join(".gemini/tmp/project/chats/session-2026-12-01T14-04-2d4f6a8c.jsonl");
    let run = |args: &[&str]| {
        stdout_of(
            Command::new(env!("CARGO_BIN_EXE_srview"))
                .args(args)
                .env("HOME", &home)
                .current_dir(&workspace),
        )
    };
    let path = file.to_str().expect("UTF-8");
    let saved: Value = serde_json::from_str(&run(&["session", path, "--json"])).expect("JSON");
    let shas = input_shas(&saved["edits"]);
    assert_eq!(shas.len(), 2);
    let listed = run(&["sessions"]);
    assert!(
        listed.lines().any(|l| l.ends_with(path)),
        "no gate, no count: {listed}"
    );

    // The row of `sessions` that lists the session.
    let session_row = || {
        let listed = run(&["sessions"]);
        listed
            .lines()
            .find(|l| l.contains(path))
            .unwrap_or_else(|| panic!("the session is not listed: {listed}"))
            .to_string()
    };
    let lines = [
        decision(&shas[0], "failing", "deny"),
        decision(&shas[1], "loose", "repair"),
    ];
    write_record(&workspace, &lines);
    let row = session_row();
    assert!(
        row.ends_with(&format!("{path}  (gate: 1 blocked, 1 repaired)")),
        "{row}"
    );
    let saved: Value = serde_json::from_str(&run(&["session", path, "--json"])).expect("JSON");
    assert_eq!(saved["edits"][0]["gate"]["decision"], "deny");
    assert_eq!(saved["edits"][1]["gate"]["decision"], "repair");
    assert_eq!(
        saved.get("gateRecordUnreadableLines"),
        None,
        "every line read"
    );

    // Two lines that are no decision (one cut off, one not JSON): said
    // after the count, not skipped without a word.
    let cut = decision(&shas[0], "exact", "none");
    let lines = [
        lines[0].clone(),
        cut[..cut.len() / 2].to_string(),
        "{\"not\": \"a decision\"}".to_string(),
        lines[1].clone(),
    ];
    std::fs::write(
        workspace.join(".srview/gate.jsonl"),
        lines.join("\n") + "\n\n",
    )
    .expect("the record");
    let row = session_row();
    assert!(
        row.ends_with(&format!(
            "{path}  (gate: 1 blocked, 1 repaired; 2 lines of .srview/gate.jsonl could not be \
             read)"
        )),
        "{row}"
    );
    let saved: Value = serde_json::from_str(&run(&["session", path, "--json"])).expect("JSON");
    assert_eq!(saved["gateRecordUnreadableLines"], 2);
    let listing = run(&["session", path, "--list"]);
    assert!(
        listing
            .lines()
            .next()
            .is_some_and(|header| header.ends_with(
                "; gate: 1 blocked, 1 repaired; 2 lines of .srview/gate.jsonl could not be read"
            )),
        "{listing}"
    );
}

/// A decision of `agent` about the call `call_id` (its input's SHA-256 not
/// the session's: the join is by the id).
fn decision_of_call(agent: &str, call_id: &str, case: &str, decision: &str) -> String {
    json!({"time": "2026-12-01T20:22:53.771Z", "agent": agent, "sessionId": "s",
           "callId": call_id, "tool": "Edit", "file": "/home/user/project/inventory.py",
           "inputSha256": "0".repeat(64), "stage": "exact", "case": case, "policy": "deny",
           "decision": decision, "message": format!("srview gate: {case}")})
    .to_string()
}

fn write_record(workspace: &Path, lines: &[String]) {
    let record = workspace.join(".srview");
    std::fs::create_dir_all(&record).expect(".srview");
    std::fs::write(record.join("gate.jsonl"), lines.join("\n") + "\n").expect("the record");
}

/// Claude Code's edits join the record by their `tool_use` id (the hook's
/// `tool_use_id`): each `Edit` of the stream takes the decision about its
/// call; a decision about another call joins nothing; of two decisions
/// about one call (judged before it ran, then after Claude Code refused
/// it) the last one.
#[test]
fn claude_codes_edits_join_the_record_by_their_tool_use_id() {
    let stream = "claude-code-2.1.328/a_edits_ok/stdout.jsonl";
    let workspace = tempfile::tempdir().expect("a workspace");
    write_record(
        workspace.path(),
        &[
            decision_of_call("claude-code", "toolu_fake_a_02", "exact", "none"),
            decision_of_call("claude-code", "toolu_other", "failing", "deny"),
            decision_of_call("claude-code", "toolu_fake_a_03", "exact", "none"),
            decision_of_call("claude-code", "toolu_fake_a_03", "loose", "repair"),
        ],
    );
    let json: Value =
        serde_json::from_str(&session_of(stream, workspace.path(), true)).expect("JSON");
    let edits = json["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), 2);
    assert_eq!(
        edits[0]["gate"],
        json!({"time": "2026-12-01T20:22:53.771Z", "agent": "claude-code", "case": "exact",
               "decision": "none", "stage": "exact", "message": "srview gate: exact"})
    );
    assert_eq!(edits[1]["gate"]["decision"], "repair");
    let listing = session_of(stream, workspace.path(), false);
    let header = listing.lines().next().expect("a header");
    assert!(
        header.ends_with("; gate: 0 blocked, 1 repaired"),
        "{listing}"
    );
    assert!(
        listing.contains("\n      gate: passed (exact)\n"),
        "{listing}"
    );
    assert!(
        listing.contains("\n      gate: repaired (loose)\n"),
        "{listing}"
    );
}

/// Codex's patch edits join by the call's `call_id` (the hook's
/// `tool_use_id`): both file sections of the one call take its decision,
/// which the header counts once.
#[test]
fn codex_patch_sections_join_the_record_by_their_call_id() {
    let rollout = recorded("codex-0.169.0/c_add_and_update/session/sessions/2026/11/30")
        .join("rollout-2026-11-30T16-45-00-01a22d58-6fe2-79a3-985a-6ffbf75fe046.jsonl");
    let workspace = tempfile::tempdir().expect("a workspace");
    write_record(
        workspace.path(),
        &[decision_of_call("codex", "call_fake_1", "failing", "deny")],
    );
    let run = |json: bool| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_srview"));
        command
            .arg("session")
            .arg(&rollout)
            .arg("--cwd")
            .arg(workspace.path());
        if json {
            command.arg("--json");
        }
        stdout_of(&mut command)
    };
    let json: Value = serde_json::from_str(&run(true)).expect("JSON");
    let edits = json["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), 2);
    for edit in edits {
        assert_eq!(edit["gate"]["decision"], "deny", "{edit}");
        assert_eq!(edit["gate"]["agent"], "codex", "{edit}");
    }
    let listing = run(false);
    let header = listing.lines().next().expect("a header");
    assert!(
        header.ends_with("; gate: 1 blocked, 0 repaired"),
        "{listing}"
    );
}

/// The join in process: an edit with a call id takes the last decision
/// about that call, whatever its input's hash; one without takes the n-th
/// decision with its input's hash; `tally` counts a decision shared by
/// several edits once (`sessions` counts with it).
#[test]
fn join_keys_prefer_the_call_id_and_tally_counts_each_decision_once() {
    use srview::gate::record::{GateDecision, join_keys, tally};
    let sha = "a".repeat(64);
    let lines = [
        decision_of_call("codex", "call_1", "failing", "deny"),
        decision(&sha, "loose", "repair"),
        decision(&sha, "failing", "deny"),
    ];
    let decisions: Vec<GateDecision> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("a decision"))
        .collect();
    let keys = [
        Some("call call_1".to_string()),
        Some("call call_1".to_string()),
        Some(format!("input {sha}")),
        Some(format!("input {sha}")),
        Some(format!("input {sha}")),
        Some("call call_2".to_string()),
        None,
    ];
    let joined = join_keys(&decisions, &keys);
    let cases: Vec<Option<&str>> = joined
        .iter()
        .map(|d| d.map(|d| d.decision.as_str()))
        .collect();
    assert_eq!(
        cases,
        [
            Some("deny"),
            Some("deny"),
            Some("repair"),
            Some("deny"),
            None,
            None,
            None
        ]
    );
    assert_eq!(
        tally(joined.into_iter().flatten()).as_deref(),
        Some("gate: 2 blocked, 1 repaired")
    );
}

/// A session whose workspace is a subfolder of a repository joins the
/// record the gate kept at the repository's workspace (the nearest folder
/// up to the repository's root holding `.srview/`, as the gate picks it);
/// a record above the repository is never taken.
#[test]
fn a_subfolders_session_joins_the_record_at_its_repositorys_workspace() {
    let tmp = tempfile::tempdir().expect("a temporary folder");
    let repo = tmp.path().join("repo");
    let sub = repo.join("packages").join("app");
    std::fs::create_dir_all(&sub).expect("the subfolder");
    std::fs::create_dir(repo.join(".git")).expect("a repository");
    let before: Value = serde_json::from_str(&session(&sub, true)).expect("JSON");
    let shas = input_shas(&before["edits"]);
    let lines = [
        decision(&shas[0], "failing", "deny"),
        decision(&shas[1], "loose", "repair"),
    ];
    // Above the repository: not this session's record.
    write_record(tmp.path(), &lines);
    let stray: Value = serde_json::from_str(&session(&sub, true)).expect("JSON");
    assert_eq!(stray, before, "a record above the repository is not joined");
    write_record(&repo, &lines);
    let after: Value = serde_json::from_str(&session(&sub, true)).expect("JSON");
    assert_eq!(after["edits"][0]["gate"]["decision"], "deny");
    assert_eq!(after["edits"][1]["gate"]["decision"], "repair");
    let listing = session(&sub, false);
    assert!(
        listing
            .lines()
            .next()
            .is_some_and(|l| l.ends_with("; gate: 1 blocked, 1 repaired")),
        "{listing}"
    );
}

/// The gate's record names files absolutely whatever the input named
/// (Codex's patch names them relatively, Claude Code's `Edit` absolutely),
/// and a record written before, naming a file relatively, still joins.
#[test]
fn the_record_names_files_absolutely_and_old_records_still_join() {
    use srview::gate::{GateAgent, Policy, judge};
    let codex = super::edit_payload(
        GateAgent::Codex,
        super::patch("@@\n-LOW_STOK = 5\n+LOW_STOCK = 10\n"),
    );
    let claude = super::edit_payload(
        GateAgent::ClaudeCode,
        super::string_edit(GateAgent::ClaudeCode, "LOW_STOK = 5\n", "LOW_STOCK = 10\n"),
    );
    for (agent, payload) in [(GateAgent::Codex, codex), (GateAgent::ClaudeCode, claude)] {
        let judgment = judge(
            agent,
            &payload,
            |_| super::project(&super::inventory()),
            &Policy::default(),
        );
        let line: Value =
            serde_json::from_str(&judgment.record("2026-12-01T00:00:00.000Z")).expect("JSON");
        assert_eq!(
            line["file"], "/home/user/project/inventory.py",
            "{agent:?}: {line}"
        );
    }
    // A Codex record of the old shape: its file as the patch named it.
    let rollout = recorded("codex-0.169.0/c_add_and_update/session/sessions/2026/11/30")
        .join("rollout-2026-11-30T16-45-00-01a22d58-6fe2-79a3-985a-6ffbf75fe046.jsonl");
    let workspace = tempfile::tempdir().expect("a workspace");
    let mut old: Value =
        serde_json::from_str(&decision_of_call("codex", "call_fake_1", "failing", "deny"))
            .expect("JSON");
    old["file"] = json!("inventory.py");
    write_record(workspace.path(), &[old.to_string()]);
    let out = Command::new(env!("CARGO_BIN_EXE_srview"))
        .arg("session")
        .arg(&rollout)
        .arg("--json")
        .arg("--cwd")
        .arg(workspace.path())
        .output()
        .expect("srview runs");
    let json = super::support::runner::stdout_json(&out);
    let edits = json["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), 2);
    assert!(
        edits.iter().all(|e| e["gate"]["decision"] == "deny"),
        "{json}"
    );
}

/// `srview session` says when a human decided in the review pane rather
/// than the policy (the record's `decidedBy` and `review`), in the listing
/// and the JSON.
#[test]
fn session_says_when_the_review_pane_decided() {
    let workspace = tempfile::tempdir().expect("a workspace");
    let before: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    let shas = input_shas(&before["edits"]);
    let mut rejected: Value =
        serde_json::from_str(&decision(&shas[0], "loose", "deny")).expect("JSON");
    rejected["policy"] = json!("review");
    rejected["decidedBy"] = json!("review pane");
    rejected["review"] = json!("reject");
    let mut allowed = rejected.clone();
    allowed["inputSha256"] = json!(shas[1]);
    allowed["decision"] = json!("none");
    allowed["review"] = json!("allow");
    write_record(
        workspace.path(),
        &[rejected.to_string(), allowed.to_string()],
    );
    let listing = session(workspace.path(), false);
    assert!(
        listing.contains("\n      gate: rejected in the review pane (loose)\n"),
        "{listing}"
    );
    assert!(
        listing.contains("\n      gate: allowed in the review pane (loose)\n"),
        "{listing}"
    );
    let json: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    assert_eq!(json["edits"][0]["gate"]["decidedBy"], "review pane");
    assert_eq!(json["edits"][0]["gate"]["review"], "reject");
    // The policy's decisions say nothing of a pane.
    write_record(workspace.path(), &[decision(&shas[0], "loose", "deny")]);
    let json: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    assert_eq!(json["edits"][0]["gate"].get("decidedBy"), None);
    assert!(
        session(workspace.path(), false).contains("\n      gate: blocked (loose)\n"),
        "the policy decided"
    );
}

/// The browser (`srview session PATH` at 80x24): the gate's decision beside
/// each edit in a short word after the marks, with the file's name (the
/// words at the row's end were cut at 80 columns: `srview:` was the last
/// thing shown), and the header saying how many lines of the record could
/// not be read (they were skipped without a word).
#[test]
fn the_browser_shows_the_gates_word_at_80_columns_and_the_records_unread_lines() {
    use super::review::pty;
    let workspace = tempfile::tempdir().expect("a workspace");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let record = std::fs::read_to_string(fixtures.join("gate-browser/b_edit_nomatch.gate.jsonl"))
        .expect("the record");
    std::fs::create_dir(workspace.path().join(".srview")).expect(".srview");
    std::fs::write(
        workspace.path().join(".srview/gate.jsonl"),
        format!("{record}{{\"time\": \"cut off\nnot a decision\n"),
    )
    .expect("the record");
    let session = workspace.path().join("session.jsonl");
    std::fs::copy(
        recorded("claude-code-2.1.328/b_edit_nomatch/stdout.jsonl"),
        &session,
    )
    .expect("the session");
    let cwd = workspace.path().to_str().expect("UTF-8");
    let path = session.to_str().expect("UTF-8");
    let mut browser =
        pty::Session::srview_at_80x24(workspace.path(), &["session", path, "--cwd", cwd]);
    browser.wait_for("the list", |s| s.contains("   2 FAILED"));
    let screen = browser.contents();
    let rows: Vec<&str> = screen.lines().collect();
    assert_eq!(
        rows[0].trim_end(),
        " Claude Code 2.1.328 · 2 edits · 1 failed · 0 loose · 2 gate lines unreadable ·",
        "{screen}"
    );
    assert_eq!(
        rows[1].trim_end(),
        "   1 GATE-CONTRADICTS        gate:blocked inventory.py Edit            applied",
        "{screen}"
    );
    assert_eq!(
        rows[2].trim_end(),
        "   2 FAILED GATE-CONTRADICTS gate:passed  inventory.py Edit            failed",
        "{screen}"
    );
    browser.press(b"q");
    assert_eq!(browser.exit_code(), 0, "q leaves the browser");
}

/// A tester's find: the record holds the same tool input judged in an
/// older session (a deny, eleven days before, another session id), then
/// this session's own decision (passed). The older deny was joined to
/// this session's edit, counted as a block, and said the gate had been
/// bypassed (`!!!`). Now only the session's own decision joins.
#[test]
fn another_sessions_decision_about_the_same_input_is_not_joined() {
    let workspace = tempfile::tempdir().expect("a workspace");
    let before: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    let input: Value =
        serde_json::from_str(before["edits"][1]["edit"].as_str().expect("input")).expect("JSON");
    let sha = sha256(&input.to_string());
    let mut older: Value = serde_json::from_str(&decision(&sha, "doubt", "deny")).expect("JSON");
    older["time"] = json!("2026-11-20T10:00:00.000Z");
    older["sessionId"] = json!("0a0a0a0a-older-session");
    older["message"] = json!("srview gate: an older session");
    let mut own: Value = serde_json::from_str(&decision(&sha, "exact", "none")).expect("JSON");
    own["time"] = json!("2026-12-01T14:04:31.000Z");
    own["message"] = Value::Null;
    write_record(workspace.path(), &[older.to_string(), own.to_string()]);
    let listing = session(workspace.path(), false);
    assert_eq!(
        listing.lines().next(),
        Some(
            "Gemini CLI (version not named): 2 edits, 1 failed, 0 loose, 0 disagreements, 2 unknown"
        ),
        "{listing}"
    );
    assert!(
        listing.contains("\n      gate: passed (exact)\n"),
        "{listing}"
    );
    assert!(!listing.contains("!!! the gate's record"), "{listing}");
    let json: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    assert_eq!(json["edits"][1]["gate"]["time"], "2026-12-01T14:04:31.000Z");
    assert_eq!(json["edits"][1]["gate"]["decision"], "none");
    // The older session's decision alone: nothing joined.
    write_record(workspace.path(), &[older.to_string()]);
    let json: Value = serde_json::from_str(&session(workspace.path(), true)).expect("JSON");
    assert_eq!(json["edits"][1].get("gate"), None, "{json}");
}

/// A tester's find: the real Claude Code 2.1.328 ran the gate's repair of
/// an `Edit` whose old text had curly quotes where the file has straight
/// ones (tests/fixtures/gate/claude-code/c_rewrite.*: its payload and its
/// stream). `srview session` replayed the model's input, which Claude Code
/// never ran, and listed the edit `FAILED DISAGREE` with a `!!!` line. Now
/// it says the edit was applied as repaired by the gate, and counts no
/// failure or disagreement.
#[test]
fn an_edit_the_gate_repaired_is_not_listed_as_failed() {
    use srview::gate::{Answer, GateAgent, Policy, judge};
    let agent = GateAgent::ClaudeCode;
    let judgment = judge(
        agent,
        &super::payload(agent, "c_rewrite"),
        |_| super::project(&super::inventory()),
        &Policy::default(),
    );
    assert!(
        matches!(judgment.answer, Answer::Rewrite { .. }),
        "{:?}",
        judgment.answer
    );
    let workspace = tempfile::tempdir().expect("a workspace");
    write_record(
        workspace.path(),
        &[judgment.record("2026-12-01T14:00:00.000Z")],
    );
    let stream = "../gate/claude-code/c_rewrite.stdout.jsonl";
    let listing = session_of(stream, workspace.path(), false);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(
        lines[0],
        "Claude Code 2.1.328: 1 edit, 0 failed, 0 loose, 0 disagreements, 1 unknown; gate: 0 blocked, 1 repaired",
        "{listing}"
    );
    assert!(
        lines[1].ends_with(
            "Claude Code: applied   srview: unknown (applied as repaired by the gate: the agent \
             ran the gate's rewrite of the model's input, which srview does not replay)"
        ),
        "{listing}"
    );
    assert!(!listing.contains("!!!"), "{listing}");
    assert!(
        !listing.contains("FAILED") && !listing.contains("DISAGREE"),
        "{listing}"
    );
    assert!(
        listing.contains("\n      gate: repaired (loose)\n"),
        "{listing}"
    );
    let json: Value =
        serde_json::from_str(&session_of(stream, workspace.path(), true)).expect("JSON");
    assert_eq!(json["edits"][0]["gate"]["decision"], "repair");
}
