//! What running the real agent CLIs with the installed gate showed
//! (tests/gate_e2e/run.py, output in docs/gate.md "Verified against the
//! real CLI"), kept here as payloads in the recorded shape.

use serde_json::json;
use srview::gate::{Case, GateAgent};

use super::{
    CWD, assert_exact_with_agents_matcher, deny_reason, edit_payload, inventory, judged,
    own_payload, patch, payload_with, rewritten_input,
};
use srview::gate::Answer;

/// Codex 0.169.0, `quotes`: a patch written with curly quotes where the
/// file has straight ones matches only at Codex's `unicode` level. Its
/// added line meant the file's straight quotes too: srview's rewrite
/// writes them so (left as sent, Codex wrote `label = “LOW” … “ok”` into
/// the Python file, which no longer parses, while srview said it wrote
/// what the model meant).
#[test]
fn codex_loose_unicode_patch_is_rewritten_with_the_files_quotes() {
    let sent = patch(
        "@@ def describe(item):\n-    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \u{201c}ok\u{201d}\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \u{201c}ok\u{201d}\n",
    );
    let judgment = judged(
        GateAgent::Codex,
        &payload_with(GateAgent::Codex, "b_deny_json", sent),
    );
    assert_eq!(judgment.case, Case::Loose);
    assert_eq!(judgment.stage.as_deref(), Some("unicode"));
    let rewritten = rewritten_input(&judgment);
    assert_eq!(
        rewritten,
        json!({"command": "*** Begin Patch\n*** Update File: inventory.py\n@@ def describe(item):\n\
             -    label = \"low\" if item.qty < LOW_STOCK else \"ok\"\n\
             +    label = \"LOW\" if item.qty < LOW_STOCK else \"ok\"\n*** End Patch\n"})
    );
    assert_exact_with_agents_matcher(GateAgent::Codex, &rewritten, &inventory());
}

/// The file's own curly quotes are not the model's look-alikes: a hunk
/// matched at `unicode` because of another character keeps them in its
/// added lines.
#[test]
fn codex_keeps_the_files_own_curly_quotes_in_added_lines() {
    let file = inventory().replace(
        "    label = \"low\" if item.qty < LOW_STOCK else \"ok\"\n",
        "    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2013} note\n",
    );
    let sent = patch(
        "@@ def describe(item):\n-    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # - note\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2014} note\n",
    );
    let judgment = super::judge_on(
        GateAgent::Codex,
        &payload_with(GateAgent::Codex, "b_deny_json", sent),
        &file,
        &srview::gate::Policy::default(),
    );
    assert_eq!(judgment.case, Case::Loose);
    assert_eq!(judgment.stage.as_deref(), Some("unicode"));
    let rewritten = rewritten_input(&judgment);
    assert_eq!(
        rewritten["command"],
        "*** Begin Patch\n*** Update File: inventory.py\n@@ def describe(item):\n\
         -    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2013} note\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2014} note\n*** End Patch\n"
    );
}

/// Claude Code 2.1.328, `write-elided`: a Write over `inventory.py` keeping
/// its first 14 lines and standing in for the other 40 with
/// `# ... rest of the file unchanged ...`. The gate passed it as exact and
/// the real Claude Code wrote it: 38 lines of code gone. Now a doubt (to
/// the review pane, else denied) in every agent's write tool; a write
/// that loses no line, a placeholder the file holds already, and a bare
/// `...` (Python's Ellipsis) are no doubt.
#[test]
fn a_write_standing_in_for_lines_it_leaves_out_is_a_doubt() {
    let path = format!("{CWD}/inventory.py");
    let head: String = inventory().split_inclusive('\n').take(14).collect();
    let elided = head.replace("LOW_STOCK = 5\n", "LOW_STOCK = 10\n")
        + "\n# ... rest of the file unchanged ...\n";
    let write = |agent: GateAgent, content: &str| {
        let bytes = match agent {
            GateAgent::ClaudeCode => payload_with(
                agent,
                "w_write_allow",
                json!({"file_path": path, "content": content}),
            ),
            GateAgent::GeminiCli | GateAgent::QwenCode => {
                let mut json: serde_json::Value =
                    serde_json::from_slice(&edit_payload(agent, json!({}))).expect("JSON");
                json["tool_name"] = "write_file".into();
                json["tool_input"] = json!({"file_path": path, "content": content});
                json.to_string().into_bytes()
            }
            GateAgent::Opencode => {
                own_payload("write", json!({"filePath": path, "content": content}))
            }
            _ => own_payload("write", json!({"path": path, "content": content})),
        };
        judged(agent, &bytes)
    };
    for agent in super::STRING_EDIT_AGENTS {
        let judgment = write(agent, &elided);
        assert_eq!(judgment.case, Case::Doubt, "{agent:?}");
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: the edit of {path} matches exactly, but srview cannot stand behind \
                 its result: its content stands in for lines it leaves out (line 16: `# ... rest of \
                 the file unchanged ...`), so writing it deletes 28 non-blank lines of the file \
                 (54 lines become 16): send the whole content, every line the file keeps, or edit \
                 only the lines that change.\n(no review pane runs, so srview's policy doubt=review \
                 falls back to deny)"
            ),
            "{agent:?}"
        );
        // Placeholders without an ellipsis (a new user's finds): each a doubt.
        for placeholder in [
            "# Rest of the file remains unchanged",
            "# rest of file unchanged",
            "# rest of the code remains the same",
            "# existing code",
            "# remaining code unchanged",
            "# (remaining functions unchanged)",
            "# [omitted for brevity]",
            "# <rest of file unchanged>",
            "# unchanged",
            "// rest of the functions stay the same",
            "// [unchanged]",
        ] {
            let content = head.clone() + "\n" + placeholder + "\n";
            let judgment = write(agent, &content);
            assert_eq!(judgment.case, Case::Doubt, "{agent:?}: {placeholder}");
            assert!(
                deny_reason(&judgment).contains(&format!("(line 16: `{placeholder}`)")),
                "{agent:?}: {}",
                deny_reason(&judgment)
            );
        }
        // A comment that is code's own (beside the new code written in
        // place of the lines dropped) is no placeholder. (Alone where the
        // lines went, any comment now stands in for them: a tester's find,
        // `a_stand_in_is_found_by_where_it_stands_not_by_its_wording`.)
        let dropped = head.clone() + "\n# Prices are in cents\nPRICE_UNIT = 100\n";
        assert_eq!(write(agent, &dropped).case, Case::Exact, "{agent:?}");
        // Every line kept, a placeholder added: nothing lost.
        let kept = inventory() + "# ... more helpers to come ...\n";
        assert_eq!(write(agent, &kept).case, Case::Exact, "{agent:?}");
        // Python's Ellipsis as a new stub's body is code (as the body of
        // `total_value`, whose lines it drops, it stands in for them).
        let stub = head.clone() + "\ndef restock(items):\n    ...\n";
        assert_eq!(write(agent, &stub).case, Case::Exact, "{agent:?}");
        assert_eq!(write(agent, &stub).answer, Answer::NoOpinion, "{agent:?}");
    }
    // A placeholder the file holds already is the file's own text.
    let file = inventory().replace(
        "LOW_STOCK = 5\n",
        "LOW_STOCK = 5\n# ... rest of the file unchanged ...\n",
    );
    let judgment = super::judge_on(
        GateAgent::ClaudeCode,
        &payload_with(
            GateAgent::ClaudeCode,
            "w_write_allow",
            json!({"file_path": path, "content": elided}),
        ),
        &file,
        &srview::gate::Policy::default(),
    );
    // ... but the write still keeps only the file's first lines and drops
    // the rest after them: a content cut short (tester 42c, 09), said as
    // such, not as a stand-in.
    assert_eq!(judgment.case, Case::Doubt);
    let reason = super::deny_reason(&judgment);
    assert!(
        reason.contains("its content covers only the file's first")
            && !reason.contains("stands in"),
        "{reason}"
    );
}

/// Cline CLI 3.0.65's recorded `PreToolUse` payload
/// (tests/fixtures/gate/cline-cli/tool_call.payload.json), byte for byte.
fn clines_recorded_payload() -> Vec<u8> {
    std::fs::read(super::fixtures().join("cline-cli/tool_call.payload.json"))
        .expect("the recorded payload")
}

/// Cline's recorded payload with `change` made to the call's input in both
/// places the payload holds it (the model's `tool_call` and the hook's
/// `preToolUse` parameters).
fn clines_payload_with(change: impl Fn(&mut serde_json::Value)) -> Vec<u8> {
    let mut payload: serde_json::Value =
        serde_json::from_slice(&clines_recorded_payload()).expect("JSON");
    for place in ["/tool_call/input", "/preToolUse/parameters"] {
        change(payload.pointer_mut(place).expect("the input"));
    }
    payload.to_string().into_bytes()
}

/// Cline's recorded payload editing its file's `old` text into `new`.
pub(super) fn clines_edit(old: &str, new: &str) -> Vec<u8> {
    clines_payload_with(|input| {
        input["old_text"] = old.into();
        input["new_text"] = new.into();
    })
}

/// Cline CLI 3.0.65 (run offline, tests/gate_e2e/): the payload its
/// `PreToolUse` hook file received, byte for byte. The gate reads the
/// model's call (`tool_call`: its id, recorded as the call's, and its input
/// as sent), the session's folder name (`sessionContext.rootSessionId`),
/// and answers the exact edit with no opinion and its doubled edit with a
/// cancel, which the real Cline obeyed (it stopped its task, the file kept).
#[test]
fn clines_recorded_payload_is_read_and_answered() {
    let bytes = clines_recorded_payload();
    let judgment = judged(GateAgent::ClineCli, &bytes);
    assert_eq!(judgment.case, Case::Exact);
    assert_eq!(judgment.answer, Answer::NoOpinion);
    let call = judgment.call.as_ref().expect("the call");
    assert_eq!(call.call_id.as_deref(), Some("call_002"));
    assert_eq!(call.session_id.as_deref(), Some("1796177129585_j0u5f"));
    assert_eq!(call.cwd, CWD);
    assert_eq!(
        call.input,
        json!({"path": format!("{CWD}/inventory.py"), "old_text": "LOW_STOCK = 5\n", "new_text": "LOW_STOCK = 10\n"})
    );
    // An edit sent again once it is applied: its new text is there already.
    let applied = inventory().replace("LOW_STOCK = 5\n", "LOW_STOCK = 10\nRESTOCK = 20\n");
    let again = clines_edit("LOW_STOCK = 10\n", "LOW_STOCK = 10\nRESTOCK = 20\n");
    let judgment = super::judge_on(
        GateAgent::ClineCli,
        &again,
        &applied,
        &srview::gate::Policy::default(),
    );
    assert_eq!(judgment.case, Case::Doubt);
    assert!(
        deny_reason(&judgment).starts_with("srview gate: the edit of "),
        "{}",
        deny_reason(&judgment)
    );
    // A misspelt path: Cline's editor would create the file from new_text
    // alone (a new user's find: passed as exact, a stray file created).
    let misspelt = clines_payload_with(|input| {
        input["path"] = format!("{CWD}/inventroy.py").into();
    });
    let judgment = judged(GateAgent::ClineCli, &misspelt);
    assert_eq!(judgment.case, Case::Doubt);
    assert_eq!(judgment.stage.as_deref(), Some("empty"));
    assert_eq!(
        deny_reason(&judgment),
        format!(
            "srview gate: {CWD}/inventroy.py does not exist, so Cline would create it holding \
             only new_text, though old_text names text to replace in it: check the path.\n(no \
             review pane runs, so srview's policy doubt=review falls back to deny)"
        )
    );
}

/// Cline CLI 3.0.65, `repair` (tests/gate_e2e/): its hook answer's
/// `overrideInput` replaces the tool's input (a cancel would stop its
/// whole task). An old_text with a typo (`LOW_STOK`, a line the new text
/// spells right) fails Cline's exact match; with `failing=repair` srview
/// hands Cline the edit with the file's own line, which Cline's editor
/// places exactly, and why as the hook's `context` (Cline 3.0.65 hands it
/// to the model in a `<hook_context source="PreToolUse" …>` message after
/// the tool's result: its request in tests/gate_e2e/'s run).
#[test]
fn clines_failing_edit_is_repaired_through_override_input() {
    let (_, judgment) = assert_clines_failing_edit_corrected(
        (
            "LOW_STOK = 5\nTAX_RATE = 0.2\n",
            "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
        ),
        (
            "LOW_STOCK = 5\nTAX_RATE = 0.2\n",
            "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
        ),
    );
    let context = super::reply_json(&judgment)["context"].clone();
    assert!(
        context.as_str().is_some_and(|c| c.starts_with(
            "srview gate: rewrote this editor to the exact edit that writes what the model's text \
             meant: this editor fails: No replacement performed: text not found in "
        )),
        "{context}"
    );
}

/// Cline's edit `(old, new)` of inventory.py fails (Cline refuses it), and
/// its correction `(old, new)` as Cline's input is the edit the deny
/// offers and `failing=repair` hands over, exact with Cline's own
/// matcher. Returns the judgment with the default policy and with
/// `failing=repair`.
fn assert_clines_failing_edit_corrected(
    (old, new): (&str, &str),
    (corrected_old, corrected_new): (&str, &str),
) -> (srview::gate::Judgment, srview::gate::Judgment) {
    let bytes = clines_edit(old, new);
    let judgment = judged(GateAgent::ClineCli, &bytes);
    assert_eq!(judgment.case, Case::Failing);
    let reason = deny_reason(&judgment);
    let corrected = json!({"path": format!("{CWD}/inventory.py"),
        "old_text": corrected_old, "new_text": corrected_new});
    assert_eq!(
        super::offered_input(GateAgent::ClineCli, &reason),
        Some(corrected.clone()),
        "{reason}"
    );
    assert_exact_with_agents_matcher(GateAgent::ClineCli, &corrected, &inventory());
    let repair = srview::gate::Policy::parse("failing=repair").expect("a policy");
    let repaired = super::judge_on(GateAgent::ClineCli, &bytes, &inventory(), &repair);
    assert_eq!(rewritten_input(&repaired), corrected);
    (judgment, repaired)
}

/// A review pane's socket in `workspace`'s srview folder, listening, and a
/// doubt of `agent`'s `tool` with no session, call or file, in the
/// workspace, to ask it.
fn pane_socket_and_doubt(
    workspace: &std::path::Path,
    agent: &str,
    tool: &str,
) -> (
    std::os::unix::net::UnixListener,
    srview::gate::spool::Request,
) {
    let folder = srview::gate::spool::folder(workspace).expect("srview's folder");
    let listener = std::os::unix::net::UnixListener::bind(folder.join(srview::gate::spool::SOCKET))
        .expect("a pane's socket");
    let request = srview::gate::spool::Request {
        agent: agent.into(),
        tool: tool.into(),
        cwd: workspace.display().to_string(),
        session_id: None,
        call_id: None,
        file: None,
        case: "doubt".into(),
        ..super::review::request("c")
    };
    (listener, request)
}

/// Gemini CLI 0.61.0, `slow` (tests/gate_e2e/): the review pane closes a
/// call at its own deadline (the gate's, counted from when it read the
/// call), and the gate's read, woken by its timer a little later on a
/// loaded machine, saw the pane's close first: the model read "the review
/// pane did not answer (the pane closed before answering)" where no pane
/// had answered in time. An end of the stream at or after the gate's
/// deadline is the deadline's. Here a pane closes each call exactly at
/// the deadline, twenty times.
#[test]
fn a_pane_closing_at_the_deadline_is_a_timeout() {
    use std::io::{BufRead, BufReader};
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("a workspace");
    let (listener, request) = pane_socket_and_doubt(dir.path(), "gemini-cli", "replace");
    for _ in 0..20 {
        let deadline = Instant::now() + Duration::from_millis(40);
        let workspace = dir.path().to_path_buf();
        let sent = request.clone();
        let gate =
            std::thread::spawn(move || srview::gate::spool::ask(&workspace, &sent, deadline));
        let (stream, _) = listener.accept().expect("the gate connects");
        let mut line = String::new();
        BufReader::new(&stream)
            .read_line(&mut line)
            .expect("the call");
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        drop(stream);
        let outcome = gate.join().expect("the gate");
        assert!(
            matches!(outcome, srview::gate::spool::Outcome::TimedOut(_)),
            "{outcome:?}"
        );
    }
}

/// Claude Code 2.1.328 and Gemini CLI 0.61.0, `slow-60` (the timeout
/// `gate install` writes by default, tests/gate_e2e/): a review pane that
/// never answers, the gate to answer 0.5 s before the agent's 60 s. It
/// printed its deny after both had timed out and run the edit: its one
/// read of the pane's socket, bounded by a 59.5 s socket timeout, woke a
/// second late (the kernel keeps a far timer coarse; the gate alone, run by
/// hand against a pane that never answers: 60.55 s). The gate now reads in
/// short slices. A minute, so ignored in CI:
/// `cargo test --test gate -- --ignored a_pane_that_never_answers`.
#[test]
#[ignore]
fn a_pane_that_never_answers_is_given_up_on_time() {
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().expect("a workspace");
    let (listener, request) = pane_socket_and_doubt(dir.path(), "claude-code", "Edit");
    let pane = std::thread::spawn(move || listener.accept().expect("the gate connects"));
    let deadline = Instant::now() + Duration::from_millis(59_500);
    let outcome = srview::gate::spool::ask(dir.path(), &request, deadline);
    let late = Instant::now().saturating_duration_since(deadline);
    assert!(
        matches!(outcome, srview::gate::spool::Outcome::TimedOut(_)),
        "{outcome:?}"
    );
    assert!(late < Duration::from_millis(150), "{late:?} late");
    drop(pane.join());
}

/// Cline CLI, a tester's find: the recordings' 2-space `editor` edit (the
/// file has 4) got no corrected edit where the other agents' tools get a
/// re-indented one, and the default `failing=deny` answered a cancel,
/// which ends Cline's whole task for an edit Cline refuses itself (the
/// model would read Cline's error and retry). Now: the re-indented edit,
/// checked with Cline's own matcher; by default srview's finding (with
/// that edit to send) as the hook's `context` and no cancel, Cline's own
/// refusal going to the model; with `failing=repair` the edit handed over.
#[test]
fn clines_misindented_edit_gets_the_corrected_edit_and_no_cancel() {
    let (judgment, _) = assert_clines_failing_edit_corrected(
        (
            "  qty: int\n  price: float\n",
            "  qty: int\n  price: float\n  sku: str = \"\"\n",
        ),
        (
            "    qty: int\n    price: float\n",
            "    qty: int\n    price: float\n    sku: str = \"\"\n",
        ),
    );
    let reply = super::reply_json(&judgment);
    assert_eq!(reply.get("cancel"), None, "{reply}");
}

/// Every `editor` and `apply_patch` call recorded from the real Cline CLI
/// 3.0.65 (tests/fixtures/agents/cline-cli-3.0.65/, each against the file
/// as it was before the run, `tests/fixtures/gate/cline-cli/calc.py`) fed
/// to the gate in Cline's payload shape: the calls Cline applied exactly
/// pass; the patch Cline applied with fuzz (`add(2, 4)` in a removed line,
/// `patch_fail`) is rewritten to the exact patch, which Cline's own
/// `apply_patch` places exactly; the calls Cline refused get srview's
/// finding as the hook's context (no cancel), the `editor` one with a
/// corrected edit Cline places exactly.
#[test]
fn every_recorded_call_of_cline_cli_is_judged() {
    use serde_json::Value;
    use srview::dialect::apply_patch::MemoryFs;
    use srview::gate::{Policy, judge};
    use std::path::Path;
    let calc = std::fs::read_to_string(super::fixtures().join("cline-cli/calc.py"))
        .expect("the file before");
    let base: Value = serde_json::from_slice(&clines_recorded_payload()).expect("JSON");
    let recorded =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents/cline-cli-3.0.65");
    let mut seen = Vec::new();
    for scenario in [
        "editor_ok",
        "editor_fail",
        "patch_ok",
        "patch_fail",
        "patch_fail2",
    ] {
        let stream = std::fs::read_to_string(recorded.join(scenario).join("stdout.jsonl"))
            .expect("the recorded stream");
        let mut calls: Vec<(String, Value)> = Vec::new();
        for line in stream.lines() {
            let Ok(event) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let event = &event["event"];
            if event["type"] == "content_start" && event["contentType"] == "tool" {
                let call = (
                    event["toolName"].as_str().unwrap_or_default().to_string(),
                    event["input"].clone(),
                );
                if !calls.contains(&call) {
                    calls.push(call);
                }
            }
        }
        assert!(!calls.is_empty(), "{scenario}");
        // Cline's payload for `tool` with `input`, judged over calc.py.
        let judged_call = |tool: &str, input: &Value| {
            let mut payload = base.clone();
            payload["tool_call"] = json!({"id": "call_x", "name": tool, "input": input});
            let parameters: serde_json::Map<String, Value> = input
                .as_object()
                .expect("an input")
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        v.as_str().map_or(v.to_string(), str::to_string).into(),
                    )
                })
                .collect();
            payload["preToolUse"] = json!({"toolName": tool, "parameters": parameters});
            let files = MemoryFs::new([("calc.py".to_string(), calc.clone())]);
            judge(
                GateAgent::ClineCli,
                payload.to_string().as_bytes(),
                |_| files,
                &Policy::default(),
            )
        };
        for (tool, input) in calls {
            let judgment = judged_call(&tool, &input);
            seen.push((scenario, tool.clone(), judgment.case));
            match judgment.case {
                Case::Exact => assert_eq!(judgment.answer, Answer::NoOpinion, "{scenario}"),
                Case::Loose => {
                    // Judged again (Cline's own `apply_patch` port): exact.
                    let fixed = rewritten_input(&judgment);
                    let again = judged_call(&tool, &fixed);
                    assert_eq!(again.case, Case::Exact, "{scenario}: {:?}", again.answer);
                    assert_eq!(again.answer, Answer::NoOpinion);
                }
                Case::Failing => {
                    let reply = super::reply_json(&judgment);
                    assert_eq!(reply.get("cancel"), None, "{scenario}: {reply}");
                    let reason = deny_reason(&judgment);
                    if let Some(offered) = super::offered_input(GateAgent::ClineCli, &reason) {
                        assert_exact_with_agents_matcher(GateAgent::ClineCli, &offered, &calc);
                    }
                }
                other => panic!("{scenario} {tool}: {other:?}: {:?}", judgment.answer),
            }
        }
    }
    use Case::*;
    assert_eq!(
        seen,
        [
            ("editor_ok", "editor".to_string(), Exact),
            ("editor_ok", "editor".to_string(), Exact),
            ("editor_fail", "editor".to_string(), Exact),
            ("editor_fail", "editor".to_string(), Failing),
            ("patch_ok", "apply_patch".to_string(), Exact),
            ("patch_fail", "apply_patch".to_string(), Loose),
            ("patch_fail2", "apply_patch".to_string(), Failing),
        ]
    );
}
