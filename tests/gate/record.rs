//! The gate's record in `srview session`: each decision of
//! `.srview/gate.jsonl` in the session's workspace shown beside the edit it
//! was about (joined by the SHA-256 of the tool input), and counted in the
//! header. Gemini CLI's live stream of two `replace` calls
//! (tests/fixtures/agents/gemini-cli-0.61.0/b_nomatch_retry), read with
//! `--cwd` a temporary workspace holding the record.

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::{Value, json};

fn stream() -> std::fs::File {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents/gemini-cli-0.61.0/b_nomatch_retry/stdout.jsonl");
    std::fs::File::open(path).expect("the recorded stream")
}

/// `srview session - [--json] --cwd WORKSPACE` on the stream: stdout.
fn session(workspace: &Path, json: bool) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_srview"));
    command.args(["session", "-"]);
    if json {
        command.arg("--json");
    }
    let out = command
        .arg("--cwd")
        .arg(workspace)
        .stdin(Stdio::from(stream()))
        .output()
        .expect("srview runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn sha256(text: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn decision(sha: &str, case: &str, decision: &str) -> String {
    json!({"time": "2026-12-01T20:22:53.771Z", "agent": "gemini-cli", "sessionId": null,
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
    // Each tool input as compact JSON with sorted keys, as the gate hashes it.
    let shas: Vec<String> = edits
        .iter()
        .map(|e| {
            let input: Value =
                serde_json::from_str(e["edit"].as_str().expect("the input")).expect("JSON");
            sha256(&input.to_string())
        })
        .collect();

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
    // Additive: everything else as it was.
    let mut stripped = after.clone();
    for edit in stripped["edits"].as_array_mut().expect("edits") {
        edit.as_object_mut().expect("an edit").remove("gate");
    }
    assert_eq!(stripped, before);

    let listing = session(workspace.path(), false);
    let lines: Vec<&str> = listing.lines().collect();
    assert_eq!(
        lines[0],
        "Gemini CLI (version not named): 2 edits, 1 failed, 0 loose, 0 disagreements; gate: 1 blocked, 1 repaired"
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
        let out = Command::new(env!("CARGO_BIN_EXE_srview"))
            .args(args)
            .env("HOME", &home)
            .current_dir(&workspace)
            .output()
            .expect("srview runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8")
    };
    let path = file.to_str().expect("UTF-8");
    let saved: Value = serde_json::from_str(&run(&["session", path, "--json"])).expect("JSON");
    let shas: Vec<String> = saved["edits"]
        .as_array()
        .expect("edits")
        .iter()
        .map(|e| {
            let input: Value =
                serde_json::from_str(e["edit"].as_str().expect("the input")).expect("JSON");
            sha256(&input.to_string())
        })
        .collect();
    assert_eq!(shas.len(), 2);
    let listed = run(&["sessions"]);
    assert!(
        listed.lines().any(|l| l.ends_with(path)),
        "no gate, no count: {listed}"
    );

    std::fs::create_dir(workspace.join(".srview")).expect(".srview");
    let lines = [
        decision(&shas[0], "failing", "deny"),
        decision(&shas[1], "loose", "repair"),
    ];
    std::fs::write(
        workspace.join(".srview/gate.jsonl"),
        lines.join("\n") + "\n",
    )
    .expect("the record");
    let listed = run(&["sessions"]);
    let row = listed
        .lines()
        .find(|l| l.contains(path))
        .unwrap_or_else(|| panic!("the session is not listed: {listed}"));
    assert!(
        row.ends_with(&format!("{path}  (gate: 1 blocked, 1 repaired)")),
        "{row}"
    );
    let saved: Value = serde_json::from_str(&run(&["session", path, "--json"])).expect("JSON");
    assert_eq!(saved["edits"][0]["gate"]["decision"], "deny");
    assert_eq!(saved["edits"][1]["gate"]["decision"], "repair");
}
