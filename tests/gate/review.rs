//! The review pane (`srview review`) and the gate waiting on it, over the
//! workspace's `.srview/review.sock`: the protocol in process (the order
//! calls queue in, the deadline's fallback, a pane gone mid-request, no
//! pane at all, who may connect), each of the pane's verdicts as the
//! agent's answer and the record, and the real binaries on a pty at 80x24
//! (`srview review` beside `srview gate --agent claude-code`: `a`, `r`
//! with a typed reason, `c`), timing the key to the gate's answer.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub(crate) use crate::support::pty;

use serde_json::{Value, json};
use srview::gate::spool::{self, Listener, Outcome, Pending, Request, Verdict};
use srview::gate::{Answer, Case, GateAgent, Judgment, NextStep, Policy};

use super::support::text::{assert_holds, assert_starts_with};
use super::{judged_in_its_folder, payload};

/// A workspace on disk holding the fixtures' `inventory.py`.
fn workspace() -> tempfile::TempDir {
    super::support::files::folder(&[("inventory.py", &super::inventory())])
}

/// `scenario`'s recorded payload of `agent`, its folder and file moved to
/// `dir`.
fn payload_in(agent: GateAgent, scenario: &str, dir: &Path) -> Vec<u8> {
    moved(&payload(agent, scenario), dir)
}

/// Claude Code's recorded curly-quotes edit, judged against `dir` with its
/// loose case put to the review pane.
fn loose_for_review(dir: &Path) -> Judgment {
    let policy = Policy::parse("loose=review").expect("a policy");
    let bytes = payload_in(GateAgent::ClaudeCode, "c_rewrite", dir);
    judged_in_its_folder(GateAgent::ClaudeCode, &bytes, &policy)
}

/// A request as the gate sends it; `call` names it.
pub(super) fn request(call: &str) -> Request {
    Request {
        agent: "claude-code".into(),
        tool: "Edit".into(),
        cwd: "/w".into(),
        session_id: Some("s1".into()),
        call_id: Some(call.into()),
        file: Some("/w/a.py".into()),
        case: "loose".into(),
        stage: None,
        diagnosis: "d".into(),
        input: json!({}),
        corrected: None,
        before: None,
        others: Vec::new(),
        wait_ms: 0,
        fallback: "deny".into(),
    }
}

/// A pane listening on `dir` whose calls arrive on the receiver.
fn pane(dir: &Path) -> (Listener, mpsc::Receiver<Pending>) {
    let (send, receive) = mpsc::channel();
    let listener = Listener::start(dir, move |p| send.send(p).is_ok()).expect("listens");
    (listener, receive)
}

fn arrived(receive: &mpsc::Receiver<Pending>) -> Pending {
    receive
        .recv_timeout(Duration::from_secs(10))
        .expect("a gate call arrives")
}

/// Several gates at once: the pane gets them in the order they connected,
/// and each gate gets the verdict given to its own call.
#[test]
fn gate_calls_queue_in_the_order_they_came_and_get_their_own_answers() {
    let dir = tempfile::tempdir().expect("a workspace");
    let (_listener, receive) = pane(dir.path());
    let mut gates = Vec::new();
    for call in ["first", "second", "third"] {
        let workspace = dir.path().to_path_buf();
        gates.push(std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(20);
            spool::ask(&workspace, &request(call), deadline)
        }));
        // Each connects before the next starts.
        std::thread::sleep(Duration::from_millis(60));
    }
    let calls: Vec<Pending> = (0..3).map(|_| arrived(&receive)).collect();
    let ids: Vec<&str> = calls
        .iter()
        .map(|p| p.request.call_id.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(ids, ["first", "second", "third"]);
    assert_eq!(calls.iter().map(|p| p.seq).collect::<Vec<_>>(), [0, 1, 2]);
    // The gate says how long it waits (20 s less what passed).
    assert!(
        (19_000..=20_000).contains(&calls[0].request.wait_ms),
        "{}",
        calls[0].request.wait_ms
    );
    // Answered out of order: each gate gets its own.
    let verdicts = [
        Verdict::Reject {
            reason: "not this one".into(),
        },
        Verdict::Allow,
        Verdict::Corrected,
    ];
    for (pending, verdict) in calls.into_iter().zip(&verdicts).rev() {
        pending.answer(verdict).expect("answered");
    }
    let outcomes: Vec<Outcome> = gates
        .into_iter()
        .map(|g| g.join().expect("the gate thread"))
        .collect();
    let expected: Vec<Outcome> = verdicts.into_iter().map(Outcome::Answered).collect();
    assert_eq!(outcomes, expected);
}

/// A pane that does not answer: the gate stops at its deadline, and the
/// policy's fallback says so.
#[test]
fn a_pane_that_does_not_answer_in_time_leaves_the_policy_to_decide() {
    let dir = workspace();
    let (_listener, receive) = pane(dir.path());
    // Judged first: the pane's 0.3 s run from the ask, not from before the
    // judging (which took over 0.1 s on a loaded machine: "0.2 s" said).
    let judgment = loose_for_review(dir.path());
    let no_pane = deny_text(&judgment);
    let started = Instant::now();
    let deadline = started + Duration::from_millis(300);
    let decided = spool::consult(judgment, deadline);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_millis(290) && took < Duration::from_millis(1500),
        "{took:?}"
    );
    // It was asked (and never answered).
    let pending = arrived(&receive);
    assert_eq!(pending.request.case, "loose");
    assert_eq!(decided.verdict(), None);
    let expected = no_pane.replace(
        "(no review pane runs, so",
        "(no review pane answered within 0.3 s, so",
    );
    assert_ne!(expected, no_pane);
    assert_eq!(deny_text(&decided), expected);
    assert!(
        expected.contains(
            "(no review pane answered within 0.3 s, so srview's policy loose=review falls back \
             to deny)"
        ),
        "{expected}"
    );
    // The pane sees the gate gone once it answered.
    let mut gone = false;
    for _ in 0..100 {
        gone = pending.gone();
        if gone {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(gone, "the pane sees the gate gone");
    assert!(pending.answer(&Verdict::Allow).is_err(), "too late");
}

/// The deny's text for the model.
fn deny_text(judgment: &Judgment) -> String {
    match &judgment.answer {
        Answer::Deny { reason } => reason.clone(),
        other => panic!("not a deny: {other:?}"),
    }
}

/// A pane gone mid-request (its end closed, as when it dies): the gate
/// falls back at once, not at its deadline.
#[test]
fn a_pane_gone_mid_request_does_not_hang_the_gate() {
    let dir = workspace();
    let (send, receive) = mpsc::channel();
    let listener = Listener::start(dir.path(), move |p| send.send(p).is_ok()).expect("listens");
    let workspace = dir.path().to_path_buf();
    let gate = std::thread::spawn(move || {
        let started = Instant::now();
        let judgment = loose_for_review(&workspace);
        let decided = spool::consult(judgment, started + Duration::from_secs(20));
        (decided, started.elapsed())
    });
    let pending = arrived(&receive);
    drop(pending);
    drop(listener);
    let (decided, took) = gate.join().expect("the gate thread");
    assert!(took < Duration::from_secs(3), "{took:?}");
    assert!(
        deny_text(&decided).contains(
            "(the review pane did not answer (the pane closed before answering), so srview's \
             policy loose=review falls back to deny)"
        ),
        "{}",
        deny_text(&decided)
    );
    // The socket went with the pane: the next gate finds none.
    let next = loose_for_review(dir.path());
    let fallback = deny_text(&next);
    let decided = spool::consult(next, Instant::now() + Duration::from_secs(20));
    assert_eq!(deny_text(&decided), fallback);
}

/// No pane, or a socket a dead pane left: known at once; a new pane takes
/// the stale socket over; a second pane for a live one is refused.
#[test]
fn no_pane_is_known_at_once_and_one_pane_listens_per_workspace() {
    let dir = tempfile::tempdir().expect("a workspace");
    let far = Instant::now() + Duration::from_secs(20);
    assert_eq!(spool::ask(dir.path(), &request("x"), far), Outcome::NoPane);
    // A socket nobody listens on (its pane killed before removing it).
    let folder = spool::folder(dir.path()).expect("the folder");
    drop(std::os::unix::net::UnixListener::bind(folder.join(spool::SOCKET)).expect("binds"));
    assert!(folder.join(spool::SOCKET).exists());
    let started = Instant::now();
    assert_eq!(spool::ask(dir.path(), &request("x"), far), Outcome::NoPane);
    assert!(started.elapsed() < Duration::from_secs(1));
    let (listener, _receive) = pane(dir.path());
    let second = Listener::start(dir.path(), |_| true)
        .err()
        .expect("refused");
    assert_eq!(
        second.to_string(),
        format!(
            "another review pane already listens on {} (one pane per workspace)",
            listener.path().display()
        )
    );
    // Only its owner can reach the socket.
    use std::os::unix::fs::PermissionsExt;
    let mode = |p: &Path| std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777;
    assert_eq!(mode(&folder), 0o700);
    assert_eq!(mode(listener.path()), 0o600);
    assert_eq!(
        std::fs::read_to_string(folder.join(".gitignore")).expect("a .gitignore"),
        "*\n"
    );
    drop(listener);
    assert!(
        !folder.join(spool::SOCKET).exists(),
        "the socket is removed"
    );
}

/// A workspace whose socket path is longer than `sockaddr_un` holds is
/// still reached (through the folder opened).
#[test]
#[cfg(target_os = "linux")]
fn a_deep_workspace_is_reached_too() {
    let dir = tempfile::tempdir().expect("a workspace");
    let deep = dir.path().join("a".repeat(60)).join("b".repeat(60));
    std::fs::create_dir_all(&deep).expect("the folders");
    let (listener, receive) = pane(&deep);
    assert!(listener.path().as_os_str().len() > 108);
    let workspace = deep.clone();
    let gate = std::thread::spawn(move || {
        spool::ask(
            &workspace,
            &request("deep"),
            Instant::now() + Duration::from_secs(20),
        )
    });
    arrived(&receive).answer(&Verdict::Allow).expect("answered");
    assert_eq!(
        gate.join().expect("the gate"),
        Outcome::Answered(Verdict::Allow)
    );
}

/// Each verdict as the agent's answer and the record's line; a case the
/// policy does not put to the pane is never sent to it.
#[test]
fn the_panes_verdicts_become_the_agents_answers_and_are_recorded() {
    let dir = workspace();
    let judgment = loose_for_review(dir.path());
    assert_eq!(judgment.case, Case::Loose);
    // What repair would have written: the curly quotes made straight.
    let repaired = judged_in_its_folder(
        GateAgent::ClaudeCode,
        &payload_in(GateAgent::ClaudeCode, "c_rewrite", dir.path()),
        &Policy::default(),
    );
    let Answer::Rewrite { input: exact, .. } = &repaired.answer else {
        panic!("repaired: {:?}", repaired.answer)
    };

    let allowed = judgment.clone().with_verdict(Verdict::Allow);
    assert_eq!(allowed.answer, Answer::NoOpinion);
    assert_eq!(allowed.reply().stdout, b"");
    let session = judgment.clone().with_verdict(Verdict::AllowSession);
    assert_eq!(session.answer, Answer::NoOpinion);

    let rejected = judgment.clone().with_verdict(Verdict::Reject {
        reason: "keep the file's quotes".into(),
    });
    let text = deny_text(&rejected);
    let finding = deny_text(&judgment.clone().with_verdict(Verdict::Reject {
        reason: String::new(),
    }));
    assert_eq!(
        text.split_once('\n').map(|(first, _)| first),
        Some("srview gate: the user rejected this Edit in the review pane: keep the file's quotes")
    );
    assert_eq!(
        finding.split_once('\n').map(|(first, _)| first),
        Some("srview gate: the user rejected this Edit in the review pane.")
    );
    assert!(
        text.split_once('\n')
            .is_some_and(|(_, rest)| rest.starts_with("srview's finding: ")),
        "{text}"
    );

    let corrected = judgment.clone().with_verdict(Verdict::Corrected);
    let Answer::Rewrite { input, reason } = &corrected.answer else {
        panic!("corrected: {:?}", corrected.answer)
    };
    assert_eq!(input, exact);
    assert!(
        reason.starts_with(
            "srview gate: the user allowed srview's corrected edit in the review pane instead \
             of this Edit: "
        ),
        "{reason}"
    );
    let json: Value = serde_json::from_slice(&corrected.reply().stdout).expect("JSON");
    assert_eq!(json["hookSpecificOutput"]["permissionDecision"], "allow");
    assert_eq!(json["hookSpecificOutput"]["updatedInput"], *exact);

    let line: Value =
        serde_json::from_str(&corrected.record("2026-12-01T00:00:00.000Z")).expect("JSON");
    assert_eq!(line["decidedBy"], "review pane");
    assert_eq!(line["review"], "corrected");
    assert_eq!(line["policy"], "review");
    assert_eq!(line["decision"], "repair");
    let line: Value =
        serde_json::from_str(&judgment.record("2026-12-01T00:00:00.000Z")).expect("JSON");
    assert_eq!(line.get("decidedBy"), None, "the policy decided");

    // Qwen Code takes no rewritten input: the corrected edit is sent to
    // the model in a deny.
    let qwen = judged_in_its_folder(
        GateAgent::QwenCode,
        &payload_in(GateAgent::QwenCode, "b_deny_json", dir.path()),
        &Policy::parse("loose=review,failing=review").expect("a policy"),
    );
    assert!(qwen.review.is_some(), "{:?}", qwen.case);
    let text = deny_text(&qwen.clone().with_verdict(Verdict::Corrected));
    assert!(
        text.starts_with(
            "srview gate: the user chose srview's corrected edit in the review pane, which \
             Qwen Code cannot take in place of this edit.\nsrview's finding: "
        ),
        "{text}"
    );

    // Not put to the pane: the verdict changes nothing.
    let exact_edit = judged_in_its_folder(
        GateAgent::ClaudeCode,
        &payload_in(GateAgent::ClaudeCode, "a_allow", dir.path()),
        &Policy::default(),
    );
    assert!(exact_edit.review.is_none());
    assert_eq!(
        exact_edit.clone().with_verdict(Verdict::Corrected),
        exact_edit
    );
}

/// Round-38d finding 05: the user's reject of an exact edit put to the
/// pane (`exact=review`) ends with the reject as the step, never "Nothing in
/// the edit needs changing: only the user can let it through" (which told
/// the model the opposite of the user's no, inviting the same edit again);
/// the policy's own hold (no pane answering) keeps that step, where it is
/// true.
#[test]
fn a_reject_in_the_pane_ends_with_the_reject_not_only_the_user() {
    let dir = workspace();
    let agent = GateAgent::ClaudeCode;
    let input = super::string_edit(
        agent,
        "    qty: int\n    price: float\n",
        "    qty: int\n    price: float\n    sku: str = \"\"\n",
    );
    let bytes = moved(&super::edit_payload(agent, input), dir.path());
    let judgment = judged_in_its_folder(
        agent,
        &bytes,
        &Policy::parse("exact=review").expect("a policy"),
    );
    assert_eq!(judgment.case, Case::Exact);
    let file = format!("{}/inventory.py", dir.path().display());
    let finding = format!(
        "the edit of {file} matches exactly; srview's policy exact=review puts every edit to the \
         review pane."
    );
    let rejected = judgment.clone().with_verdict(Verdict::Reject {
        reason: "no thanks".into(),
    });
    assert_eq!(
        deny_text(&rejected),
        format!(
            "srview gate: the user rejected this Edit in the review pane: no thanks\nsrview's \
             finding: {finding}\nThe user rejected this edit: do not send it again as it is; \
             follow their reason above."
        )
    );
    let without = judgment
        .clone()
        .with_verdict(Verdict::Reject { reason: " ".into() });
    assert_eq!(
        deny_text(&without),
        format!(
            "srview gate: the user rejected this Edit in the review pane.\nsrview's finding: \
             {finding}\nThe user rejected this edit: do not send it again as it is; ask the user \
             what they want instead."
        )
    );
    // No pane answered: the policy holds it back, and only the user can
    // let it through.
    assert_eq!(
        deny_text(&judgment),
        format!(
            "srview gate: {finding}\n(no review pane runs, so srview's policy exact=review falls \
             back to deny)\nNothing in the edit needs changing: only the user can let it through \
             (in srview's review pane, or by srview's policy)."
        )
    );
    // A doubt's own step stays: it is about the edit, and still true (the
    // line already written: its new text is already there).
    let path = dir.path().join("inventory.py");
    let text = std::fs::read_to_string(&path).expect("the file");
    let sku = text.replacen(
        "    price: float\n",
        "    price: float\n    sku: str = \"\"\n",
        1,
    );
    std::fs::write(&path, sku).expect("the line written");
    let doubt = judged_in_its_folder(agent, &bytes, &Policy::default());
    assert_eq!(doubt.case, Case::Doubt);
    let step = doubt.next_step.expect("a step");
    assert_ne!(step, NextStep::OnlyTheUser);
    let text = deny_text(&doubt.with_verdict(Verdict::Reject {
        reason: "no".into(),
    }));
    assert!(
        text.ends_with(&format!("\n{}", step.text("Edit").expect("a sentence"))),
        "{text}"
    );
}

/// A loose edit that repair cannot rewrite (Qwen Code takes no rewritten
/// input) goes to the pane when one runs, and is denied as before when
/// none does.
#[test]
fn a_loose_edit_repair_cannot_rewrite_goes_to_the_pane() {
    let dir = workspace();
    let agent = GateAgent::QwenCode;
    let input = super::string_edit(agent, "LOW_STOCK = 5   \n", "LOW_STOCK = 10\n");
    let bytes = moved(&super::edit_payload(agent, input), dir.path());
    let judgment = judged_in_its_folder(agent, &bytes, &Policy::default());
    assert_eq!(judgment.case, Case::Loose);
    assert!(judgment.review.is_some(), "put to the pane");
    let far = Instant::now() + Duration::from_secs(20);
    // No pane: the answer is repair's deny, unchanged.
    assert_eq!(spool::consult(judgment.clone(), far), judgment);
    let (_listener, receive) = pane(dir.path());
    let asked = judgment.clone();
    let gate = std::thread::spawn(move || {
        spool::consult(asked, Instant::now() + Duration::from_millis(400))
    });
    let pending = arrived(&receive);
    assert_eq!(pending.request.case, "loose");
    assert!(pending.request.corrected.is_some());
    let decided = gate.join().expect("the gate");
    assert_eq!(
        deny_text(&decided),
        deny_text(&judgment).replacen(
            "\nSend this",
            "\n(no review pane answered within 0.4 s, so srview's policy loose=repair falls \
             back to deny)\nSend this",
            1
        )
    );
}

/// A payload's folder and file moved to `dir`.
fn moved(payload: &[u8], dir: &Path) -> Vec<u8> {
    let mut json: Value = serde_json::from_slice(payload).expect("JSON");
    let cwd = dir.to_str().expect("a UTF-8 path");
    json["cwd"] = json!(cwd);
    json["tool_input"]["file_path"] = json!(format!("{cwd}/inventory.py"));
    json.to_string().into_bytes()
}

// ---- The real binaries on a pty --------------------------------------

/// `srview gate --agent claude-code` on `payload`, started in the
/// background: its stdout and when it exited.
fn gate_in_background(
    dir: &Path,
    payload: Vec<u8>,
) -> std::thread::JoinHandle<(Vec<u8>, Option<i32>, Instant)> {
    gate_of(dir, GateAgent::ClaudeCode, "loose=review", payload)
}

/// `srview gate --agent AGENT --policy POLICY` on `payload`, started in
/// the background: its stdout and when it exited.
fn gate_of(
    dir: &Path,
    agent: GateAgent,
    policy: &'static str,
    payload: Vec<u8>,
) -> std::thread::JoinHandle<(Vec<u8>, Option<i32>, Instant)> {
    let dir = dir.to_path_buf();
    std::thread::spawn(move || {
        use std::io::Write;
        let mut child = Command::new(env!("CARGO_BIN_EXE_srview"))
            .args([
                "gate",
                "--agent",
                agent.id(),
                "--policy",
                policy,
                "--timeout",
                "60",
            ])
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("srview gate runs");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&payload)
            .expect("the payload");
        let out = child.wait_with_output().expect("the gate ends");
        (out.stdout, out.status.code(), Instant::now())
    })
}

/// The pane's screen once it shows every one of `texts` (printed, for the
/// log of a failure).
fn screen_showing(pane: &pty::Session, what: &str, texts: &[&str]) -> String {
    pane.wait_for_all(what, texts);
    let screen = pane.contents();
    println!("{screen}");
    screen
}

/// `srview review` run in `dir` on a pty at 80x24, once it listens.
fn review_pane(dir: &Path) -> pty::Session {
    let pane = pty::Session::srview_at_80x24(dir, &["review"]);
    pane.wait_for("the pane listens", |s| s.contains("waiting for gate calls"));
    pane
}

/// What the gate answers for the payload when the pane gave `verdict`.
fn expected_stdout(payload: &[u8], verdict: Verdict) -> Vec<u8> {
    judged_in_its_folder(
        GateAgent::ClaudeCode,
        payload,
        &Policy::parse("loose=review").expect("a policy"),
    )
    .with_verdict(verdict)
    .reply()
    .stdout
}

/// `srview review` at 80x24 beside three gate calls of Claude Code's
/// curly-quotes edit: each shows with its split view, case and diagnosis,
/// and `a`, `r` + a typed reason, `c` reach the gate as Claude Code's
/// answer, within a loose bound of the key (the figure is printed).
#[test]
fn the_review_pane_answers_the_gate_with_a_r_and_c() {
    let dir = workspace();
    let mut pane = review_pane(dir.path());
    let payload = payload_in(GateAgent::ClaudeCode, "c_rewrite", dir.path());
    let mut figures = Vec::new();
    let cases: [(&[u8], Verdict); 3] = [
        (b"a", Verdict::Allow),
        (
            b"rkeep the file's quotes\r",
            Verdict::Reject {
                reason: "keep the file's quotes".into(),
            },
        ),
        (b"c", Verdict::Corrected),
    ];
    for (keys, verdict) in cases {
        let gate = gate_in_background(dir.path(), payload.clone());
        let screen = screen_showing(
            &pane,
            "the queued edit",
            &[
                "1/1 Edit inventory.py · loose (quote-normalised) · ",
                "Claude Code places this edit only by normalising its quotes",
                "#1",
            ],
        );
        assert!(
            screen.contains(" a allow · r reject · c corrected"),
            "{screen}"
        );
        if let Verdict::Reject { .. } = verdict {
            pane.press(&keys[..keys.len() - 1]);
            pane.wait_for("the reason typed", |s| {
                s.contains("reason for the model: keep the file's quotes")
            });
            pane.press(b"\r");
        } else if verdict == Verdict::Allow {
            // The finding cut at 24 rows is there whole with `i`.
            assert!(screen.contains("… i: all of srview's finding"), "{screen}");
            pane.press(b"i");
            pane.wait_for("the whole finding", |s| {
                s.contains("srview's finding (j/k scroll, Esc closes)")
                    && s.contains(
                        "  +    46 |     label = \"low\" if item.qty < LOW_STOCK else \"ok\"",
                    )
            });
            pane.press(b"\x1b");
            pane.wait_for("the finding closed", |s| !s.contains("Esc closes)"));
            pane.press(keys);
        } else if verdict == Verdict::Corrected {
            // The split view shows what `c` allows: the file's own quotes.
            pane.press(b"s");
            pane.wait_for("the corrected edit", |s| {
                s.contains(r#"label = "LOW" if item.qty"#)
            });
            println!("{}", pane.contents());
            pane.press(keys);
        } else {
            pane.press(keys);
        }
        let pressed = Instant::now();
        let (stdout, code, ended) = gate.join().expect("the gate thread");
        let took = ended.saturating_duration_since(pressed);
        figures.push(format!("{}: {} ms", verdict.name(), took.as_millis()));
        assert_eq!(code, Some(0));
        assert_eq!(
            String::from_utf8_lossy(&stdout),
            String::from_utf8_lossy(&expected_stdout(&payload, verdict.clone())),
            "{}",
            verdict.name()
        );
        assert!(took < Duration::from_secs(2), "{took:?}");
        pane.wait_for("the answer logged", |s| s.contains("0 waiting"));
    }
    println!(
        "key to the gate's exit (debug build): {}",
        figures.join(", ")
    );
    // The record says who decided.
    let record = std::fs::read_to_string(dir.path().join(".srview/gate.jsonl")).expect("a record");
    let reviews: Vec<Value> = record
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON"))
        .map(|l| json!([l["decidedBy"], l["review"], l["decision"]]))
        .collect();
    assert_eq!(
        reviews,
        [
            json!(["review pane", "allow", "none"]),
            json!(["review pane", "reject", "deny"]),
            json!(["review pane", "corrected", "repair"]),
        ]
    );
    let screen = pane.contents();
    assert!(
        screen.contains("allowed the corrected edit: Claude Code Edit inventory.py"),
        "{screen}"
    );
    pane.press(b"q");
    assert_eq!(pane.exit_code(), 0);
    assert!(!dir.path().join(".srview/review.sock").exists());
}

/// The status line (the screen's second row) of `screen`.
fn status_row(screen: &str) -> &str {
    screen.lines().nth(1).unwrap_or("")
}

/// The countdown is on the status line whole: `N s left, then deny`.
fn assert_countdown_whole(screen: &str) {
    let row = status_row(screen).trim_end();
    let countdown = row.rsplit(" · ").next().unwrap_or("");
    let (seconds, rest) = countdown.split_once(' ').unwrap_or(("", ""));
    assert!(
        seconds.parse::<u64>().is_ok() && rest == "s left, then deny",
        "the countdown is cut: {row:?}\n{screen}"
    );
}

/// Nothing on the screen reads "applied" or "exact" for an edit the gate
/// says is loose or failing: the block list, the header and the notes
/// follow the gate's verdict, not srview's own SEARCH/REPLACE reading.
fn assert_no_exact_or_applied(screen: &str) {
    for word in ["E exact", "found exactly", "places it exactly", " applied "] {
        assert!(!screen.contains(word), "{word:?} on the screen:\n{screen}");
    }
}

/// `srview review` at 80x24 with four gate calls queued: Claude Code's
/// curly-quotes edit (loose, a corrected edit offered), Gemini CLI's typo
/// its fuzzy stage places (loose), Claude Code's old text found at two
/// places (failing) and an edit already applied (doubt). Each shows the
/// gate's case and stage on its status line with the countdown whole, and
/// a view that agrees: the loose ones placed where the agent places them
/// and labelled by its loose stage (never "exact"), the failing one with
/// nothing placed ("refused") and the advice in Claude Code's terms, the
/// doubt one placed exactly as the gate says.
#[test]
fn the_review_pane_shows_the_gates_verdict_at_80_columns() {
    let dir = workspace();
    let mut pane = review_pane(dir.path());
    let policy = "loose=review,failing=review";
    let claude = GateAgent::ClaudeCode;
    let edit_in = |agent: GateAgent, old: &str, new: &str| {
        moved(
            &super::edit_payload(agent, super::string_edit(agent, old, new)),
            dir.path(),
        )
    };
    let mut gates = Vec::new();
    // Loose: Claude Code's quote normalisation.
    let curly = payload_in(claude, "c_rewrite", dir.path());
    gates.push(gate_of(dir.path(), claude, policy, curly));
    // Each wait asks for the lines asserted below: under load a frame may
    // hold the new title over the previous call's rows.
    // At 80 columns the agent's name goes to keep the countdown whole.
    let screen = screen_showing(
        &pane,
        "the curly-quotes edit",
        &[
            " 1/1 Edit inventory.py · loose (quote-normalised) · ",
            "#1  placed     ≈ quote-normalised 46 → 46",
            "the gate: loose: Claude Code places it only by its loose stage",
        ],
    );
    assert_countdown_whole(&screen);
    assert_no_exact_or_applied(&screen);
    assert!(
        screen.contains("#1  placed     ≈ quote-normalised 46 → 46"),
        "{screen}"
    );
    assert!(screen.contains(" 1 placed "), "{screen}");
    assert!(
        screen.contains("the gate: loose: Claude Code places it only by its loose stage"),
        "{screen}"
    );
    assert!(!screen.contains(" failed "), "{screen}");
    // Loose: Gemini CLI's fuzzy stage.
    let typo = edit_in(
        GateAgent::GeminiCli,
        "LOW_STOK = 5\nTAX_RATE = 0.2\n",
        "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
    );
    // Failing: the old text occurs twice.
    let twice = edit_in(claude, "    return None\n", "    return []\n");
    // Doubt: its new text is already there.
    let again = edit_in(claude, "LOW_STOCK = 5\n", "LOW_STOCK = 5\nTAX_RATE = 0.2\n");
    // Queued in this order: each waits before the next starts.
    for (n, (agent, payload)) in [
        (GateAgent::GeminiCli, typo),
        (claude, twice),
        (claude, again),
    ]
    .into_iter()
    .enumerate()
    {
        gates.push(gate_of(dir.path(), agent, policy, payload));
        let waiting = format!(" {} waiting ", n + 2);
        pane.wait_for("the next call", |s| s.contains(&waiting));
    }

    pane.press(b"]");
    let screen = screen_showing(
        &pane,
        "Gemini CLI's fuzzy edit",
        &[
            "2/4 Gemini CLI replace inventory.py · loose (fuzzy)",
            "placed     ≈ fuzzy",
        ],
    );
    assert_countdown_whole(&screen);
    assert_no_exact_or_applied(&screen);
    assert!(screen.contains("placed     ≈ fuzzy"), "{screen}");

    pane.press(b"]");
    // Drawn whole (under load the rows came before the finding's lines).
    let screen = screen_showing(
        &pane,
        "the ambiguous edit",
        &[
            "3/4 Claude Code Edit inventory.py · failing (failed)",
            " refused ",
            "old_string occurs 2 times (line 27, line 32)",
            "the gate: failing (failed): Claude Code refuses this Edit",
        ],
    );
    assert_countdown_whole(&screen);
    assert_no_exact_or_applied(&screen);
    assert!(screen.contains(" refused "), "{screen}");
    assert!(
        screen.contains("old_string occurs 2 times (line 27, line 32)"),
        "{screen}"
    );
    assert!(
        screen.contains("the gate: failing (failed): Claude Code refuses this Edit"),
        "{screen}"
    );

    pane.press(b"]");
    pane.wait_for("the edit already applied", |s| {
        s.contains("4/4 Claude Code Edit inventory.py · doubt (exact)")
            && s.contains("the gate: doubt: Claude Code places it exactly (exact)")
            && !s.contains(" failed ")
    });
    let screen = pane.contents();
    println!("{screen}");
    assert_countdown_whole(&screen);
    assert!(
        screen.contains("the gate: doubt: Claude Code places it exactly (exact)"),
        "{screen}"
    );
    assert!(!screen.contains(" failed "), "{screen}");

    // Each answered: the gates end with the pane's verdict.
    for _ in 0..4 {
        pane.press(b"a");
    }
    for gate in gates {
        let (_, code, _) = gate.join().expect("the gate thread");
        assert_eq!(code, Some(0));
    }
    pane.wait_for("all answered", |s| s.contains(" 0 waiting "));
    pane.press(b"q");
    assert_eq!(pane.exit_code(), 0);
}

/// `c` sends the corrected edit only if it is still exact against the file
/// as it is when the pane answers: a file changed while the call waited
/// (here, the edit's new text written by hand) gets a deny saying so (a new
/// user's find: the corrected edit added a line a second time).
#[test]
fn a_corrected_edit_is_judged_again_when_the_pane_chooses_it() {
    for changed in [false, true] {
        let dir = workspace();
        let (_listener, receive) = pane(dir.path());
        let judgment = loose_for_review(dir.path());
        // The corrected edit, as the default policy's repair sends it.
        let repaired = judged_in_its_folder(
            GateAgent::ClaudeCode,
            &payload_in(GateAgent::ClaudeCode, "c_rewrite", dir.path()),
            &Policy::default(),
        );
        let Answer::Rewrite {
            input: corrected, ..
        } = repaired.answer
        else {
            panic!("a corrected edit is offered: {:?}", repaired.answer)
        };
        let gate = std::thread::spawn(move || {
            spool::consult(judgment, Instant::now() + Duration::from_secs(20))
        });
        let pending = arrived(&receive);
        if changed {
            let file = dir.path().join("inventory.py");
            let text = std::fs::read_to_string(&file).expect("the file");
            let old = corrected["old_string"].as_str().expect("old_string");
            let new = corrected["new_string"].as_str().expect("new_string");
            std::fs::write(&file, text.replacen(old, new, 1)).expect("changed by hand");
        }
        // What the pane says of `c` is what the gate will answer (a
        // tester's find: it said "allowed the corrected edit" while the
        // gate denied).
        let refused = spool::corrected_refused(&pending.request);
        assert_eq!(refused.is_some(), changed, "{refused:?}");
        pending.answer(&Verdict::Corrected).expect("answered");
        let decided = gate.join().expect("the gate thread");
        assert_eq!(decided.verdict(), Some(&Verdict::Corrected));
        if changed {
            let text = deny_text(&decided);
            assert!(
                text.starts_with(
                    "srview gate: the user chose srview's corrected edit in the review pane, but \
                     the file changed while the call waited, and the corrected edit is no longer \
                     exact (failing): this Edit is denied. This Edit fails: String to replace not \
                     found in file."
                ),
                "{text}"
            );
            // It ends with what to do next, as every deny does.
            assert!(
                text.ends_with(
                    "\nRead the file again and send an edit whose old text is the file's own."
                ),
                "{text}"
            );
            assert_eq!(
                refused.as_deref(),
                Some(
                    "the file changed while it waited, and the corrected edit is no longer exact \
                     (failing)"
                )
            );
        } else {
            assert!(
                matches!(&decided.answer, Answer::Rewrite { input, .. } if *input == corrected),
                "{:?}",
                decided.answer
            );
        }
    }
}

/// `A` allows the rest of a session's exact calls unseen, but not its doubts (a
/// tester's find: `A` on a routine edit then allowed, unseen, an edit of
/// `.claude/settings.json` that turned the gate's hook off): at 80x24, an
/// exact edit put to the pane (`exact=review`) is answered `A`; the same
/// session's edit of the hook settings (a doubt) waits in the pane for a
/// key; its next exact edit is answered by the pane at once.
#[test]
fn allowing_a_session_leaves_its_doubts_to_the_user() {
    let dir = workspace();
    std::fs::create_dir(dir.path().join(".claude")).expect(".claude");
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        "{\"hooks\": {\"PreToolUse\": []}}\n",
    )
    .expect("the settings");
    let mut pane = review_pane(dir.path());
    let claude = GateAgent::ClaudeCode;
    let edit = |file: &str, old: &str, new: &str| {
        let mut json: Value = serde_json::from_slice(&payload(claude, "a_allow")).expect("JSON");
        let cwd = dir.path().to_str().expect("UTF-8");
        json["cwd"] = json!(cwd);
        json["tool_input"] = json!({"file_path": format!("{cwd}/{file}"), "old_string": old,
                                    "new_string": new, "replace_all": false});
        json.to_string().into_bytes()
    };
    let policy = "exact=review";
    let first = gate_of(
        dir.path(),
        claude,
        policy,
        edit("inventory.py", "LOW_STOCK = 5\n", "LOW_STOCK = 10\n"),
    );
    pane.wait_for("the exact edit", |s| {
        s.contains("1/1 Claude Code Edit inventory.py · exact")
    });
    pane.press(b"A");
    let (stdout, code, _) = first.join().expect("the first gate");
    assert_eq!((stdout, code), (Vec::new(), Some(0)), "allowed");
    let hooks = gate_of(
        dir.path(),
        claude,
        policy,
        edit(
            ".claude/settings.json",
            "\"PreToolUse\"",
            "\"PreToolUseOff\"",
        ),
    );
    pane.wait_for("the settings edit, waiting for a key", |s| {
        s.contains("Edit .claude/settings.json · doubt")
    });
    assert!(!hooks.is_finished(), "not answered unseen");
    pane.press(b"rleave the hook\r");
    let (stdout, _, _) = hooks.join().expect("the settings gate");
    let answer: Value = serde_json::from_slice(&stdout).expect("a JSON answer");
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    let third = gate_of(
        dir.path(),
        claude,
        policy,
        edit("inventory.py", "TAX_RATE = 0.2\n", "TAX_RATE = 0.25\n"),
    );
    let (stdout, code, _) = third.join().expect("the third gate");
    assert_eq!((stdout, code), (Vec::new(), Some(0)), "the session allowed");
    pane.wait_for("the log", |s| {
        s.contains("allowed (session allowed): Claude Code Edit inventory.py (exact)")
    });
    // The key's help says what `A` leaves to the user.
    pane.press(b"?");
    pane.wait_for("the keys", |s| {
        s.contains("doubts and the rest still wait for a key")
    });
}

/// `srview review` at 80x24 on a Codex patch of two files whose second
/// file's hunk Codex places only loosely (2-space lines in a 4-space file:
/// its `trimmed` level) and whose first file's hunk is exact (a tester's
/// find, session 33: the pane showed the first file alone, its exact hunk
/// labelled `≈ trimmed`, and the loose hunk never). The pane opens on the
/// file the case is about, its hunk by its own stage, says which file of
/// how many it shows, and `f` shows the other file, its hunk exact.
#[test]
fn a_patch_of_two_files_shows_each_file_by_its_own_stage() {
    let dir = workspace();
    std::fs::write(dir.path().join("other.py"), "a = 1\nb = 2\n").expect("other.py");
    let term = pty::Terminal {
        rows: 24,
        cols: 80,
        ..pty::Terminal::default()
    };
    let mut pane =
        pty::Session::spawn_in(dir.path(), env!("CARGO_BIN_EXE_srview"), &["review"], &term);
    pane.wait_for("the pane listens", |s| s.contains("waiting for gate calls"));
    let mut payload: Value =
        serde_json::from_slice(&payload(GateAgent::Codex, "c_rewrite")).expect("JSON");
    payload["cwd"] = json!(dir.path().to_str().expect("a UTF-8 path"));
    payload["tool_input"]["command"] = json!(
        "*** Begin Patch\n*** Update File: other.py\n@@\n a = 1\n-b = 2\n+b = 3\n*** Update \
         File: inventory.py\n@@ class Item:\n   qty: int\n   price: float\n+  sku: str = \"\"\n\
         *** End Patch"
    );
    let gate = gate_of(
        dir.path(),
        GateAgent::Codex,
        "loose=review",
        payload.to_string().into_bytes(),
    );
    let screen = screen_showing(
        &pane,
        "the patch, its loose file first",
        &["loose (trimmed)", "#1", "file 1/2"],
    );
    assert_countdown_whole(&screen);
    // The loose hunk (its `sku` line) is shown, not the other file's.
    assert_holds(
        &screen,
        &[
            "file 1/2 of the patch: inventory.py, the one the gate's case is about",
            "≈ trimmed",
            "sku",
        ],
        &["b = 3"],
    );
    pane.press(b"f");
    pane.wait_for("the other file", |s| s.contains("file 2/2"));
    let screen = pane.contents();
    println!("{screen}");
    // Its hunk is exact.
    assert_holds(
        &screen,
        &[
            "file 2/2 of the patch: other.py, not the one the gate's case is about",
            "b = 3",
            "E exact",
        ],
        &["≈ trimmed"],
    );
    assert!(
        screen.contains("the gate: loose (trimmed), about another"),
        "{screen}"
    );
    // srview's corrected patch keeps the file shown; `f` goes back to the
    // one in question, its hunk now exact, re-indented.
    pane.press(b"s");
    pane.wait_for("the corrected patch", |s| {
        s.contains("file 2/2") && s.contains("shown: srview's corrected")
    });
    pane.press(b"f");
    let screen = screen_showing(
        &pane,
        "the corrected patch's file in question",
        &["file 1/2", "    sku: str"],
    );
    assert!(screen.contains("E exact"), "{screen}");
    pane.press(b"rno\r");
    let (stdout, code, _) = gate.join().expect("the gate");
    assert_eq!(code, Some(0));
    let answer: Value = serde_json::from_slice(&stdout).expect("a JSON answer");
    assert_eq!(
        answer["hookSpecificOutput"]["permissionDecision"], "deny",
        "{answer}"
    );
    pane.press(b"q");
    assert_eq!(pane.exit_code(), 0);
}

/// Tester 51's payload `name` (tests/fixtures/gate/tester51/), its
/// folder put at `dir`.
fn tester51_payload(name: &str, dir: &Path) -> Vec<u8> {
    let path = super::fixtures().join("tester51").join(name);
    let text = std::fs::read_to_string(&path).expect("the fixture payload");
    let cwd = dir.to_str().expect("a UTF-8 path");
    text.replace("WORKSPACE", cwd).into_bytes()
}

/// `A` is "stop asking me about this session's exact edits", not "stop
/// repairing" (tester 51, T-03): at 80x24 with `exact=review,loose=review`,
/// OpenCode's exact edit is answered `A`; the same session's loose edit
/// (sent without the method's indentation: OpenCode's LineTrimmedReplacer
/// would write its lines at column 0, `'return' outside function`) is
/// answered unseen with the corrected, re-indented edit, as `loose=repair`
/// sends it (it was allowed as sent); its loose edit that srview has no
/// corrected edit for (the trimmed text at two places) waits for a key.
#[test]
fn allowing_a_session_still_repairs_its_loose_edits() {
    let dir = tempfile::tempdir().expect("a workspace");
    let inv = super::fixtures().join("tester51/inv.py");
    std::fs::copy(&inv, dir.path().join("inv.py")).expect("inv.py");
    std::fs::write(
        dir.path().join("two.py"),
        "def f(x):\n    if x:\n        return 1\n\n\nclass C:\n    def g(self, x):\n        if x:\n            return 1\n",
    )
    .expect("two.py");
    let mut pane = review_pane(dir.path());
    let opencode = GateAgent::Opencode;
    let policy = "exact=review,loose=review";
    let exact = gate_of(
        dir.path(),
        opencode,
        policy,
        tester51_payload("t03_exact.opencode.json", dir.path()),
    );
    pane.wait_for("the exact edit", |s| {
        s.contains("1/1 OpenCode edit inv.py · exact")
    });
    pane.press(b"A");
    let (stdout, code, _) = exact.join().expect("the exact gate");
    assert_eq!((stdout, code), (Vec::new(), Some(0)), "allowed");
    let loose_payload = tester51_payload("t03_loose.opencode.json", dir.path());
    let (stdout, code, _) = gate_of(dir.path(), opencode, policy, loose_payload.clone())
        .join()
        .expect("the loose gate");
    let cwd = dir.path().to_str().expect("UTF-8");
    let expected = super::judged_in_its_folder(
        opencode,
        &loose_payload,
        &Policy::parse(policy).expect("a policy"),
    )
    .with_verdict(Verdict::SessionRepair)
    .reply()
    .stdout;
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        String::from_utf8_lossy(&expected)
    );
    let answer: Value = serde_json::from_slice(&stdout).expect("a JSON answer");
    assert_eq!(code, Some(0));
    assert_eq!(answer["decision"], "rewrite", "{answer}");
    assert_eq!(
        answer["args"],
        json!({"filePath": format!("{cwd}/inv.py"),
               "oldString": "        for sku, qty in self.items.items():\n            total += qty",
               "newString": "        for sku, qty in self.items.items():\n            if qty > 0:\n                total += qty"})
    );
    assert_starts_with(
        answer["reason"].as_str().unwrap_or_default(),
        "srview gate: rewrote this edit to the exact edit that writes what the model's text \
         meant (the user allowed this session in the review pane, which lets no loose edit \
         through as sent): OpenCode 1.18.33's edit tool would place edit 1 at lines 7-8 only by \
         its loose stage `LineTrimmedReplacer`",
    );
    pane.wait_for("the log", |s| {
        s.contains("repaired (session allowed): OpenCode edit inv.py (loose)")
    });
    // Its loose edit srview cannot correct (the trimmed text stands at
    // lines 2-3 and 8-9): put to the user, not allowed unseen.
    let mut ambiguous: Value =
        serde_json::from_slice(&tester51_payload("t03_loose.opencode.json", dir.path()))
            .expect("JSON");
    ambiguous["callID"] = json!("c3");
    ambiguous["args"] = json!({"filePath": format!("{cwd}/two.py"),
                               "oldString": "if x:\n    return 1",
                               "newString": "if x:\n    return 2"});
    let waiting = gate_of(
        dir.path(),
        opencode,
        policy,
        ambiguous.to_string().into_bytes(),
    );
    pane.wait_for("the ambiguous edit, waiting for a key", |s| {
        s.contains("OpenCode edit two.py · loose")
    });
    assert!(!waiting.is_finished(), "not answered unseen");
    pane.press(b"rsay which one\r");
    let (stdout, _, _) = waiting.join().expect("the ambiguous gate");
    let answer: Value = serde_json::from_slice(&stdout).expect("a JSON answer");
    assert_eq!(answer["decision"], "deny", "{answer}");
    assert_starts_with(
        answer["reason"].as_str().unwrap_or_default(),
        "srview gate: the user rejected this edit in the review pane: say which one\n",
    );
    pane.press(b"?");
    pane.wait_for("the keys", |s| {
        s.contains("doubts and the rest still wait for a key")
    });
}
