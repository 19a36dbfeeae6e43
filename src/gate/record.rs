//! The gate's record read back: `.srview/gate.jsonl` in a session's
//! workspace, each decision joined to the session's edit it was about, for
//! `srview session`.
//!
//! The join, by [`join_key`]:
//! - by the tool call's id (`callId`) where the session records the id the
//!   hook's payload carries: Claude Code's `tool_use` id (`tool_use_id`),
//!   Codex's `call_id` (its hook's `tool_use_id`). Every edit of one call
//!   (a Codex patch's file sections) takes that call's decision; of several
//!   decisions for one call (the model's call judged before it ran, then
//!   after Claude Code refused it) the last one;
//! - else by the SHA-256 of the tool input (`inputSha256`, compact JSON with
//!   sorted keys) where the session keeps the input exactly as the model
//!   sent it (the edits srview runs with the agent's own matcher: Gemini
//!   CLI, Qwen Code, OpenCode, pi). When several decisions share an input
//!   (the model sent the same call again), the n-th edit with that input
//!   takes the n-th decision. A repair joins by the rewritten input too
//!   (`rewrittenSha256`): OpenCode's session keeps the arguments it ran.
//!   Only decisions of the session itself are joined by input
//!   ([`of_session`]): the record is shared by every session run in the
//!   workspace, and the same input sent in another session (the same task
//!   run again) is another call (a tester's find: an older session's deny
//!   was joined, and the browser said the gate had been bypassed).

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::source::agent::{AgentEdit, EditInput, SessionStamp, Verdict};

/// One line of `.srview/gate.jsonl` (see docs/gate.md "The record").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GateDecision {
    /// RFC 3339, UTC.
    pub time: String,
    /// The agent's id (`gemini-cli`, ...).
    pub agent: String,
    /// The case: `exact`, `doubt`, `loose`, `failing`, `unreadable`.
    pub case: String,
    /// `none` (no opinion), `deny`, `repair` or `context`.
    pub decision: String,
    /// The agent's stage that placed the edit (or its failure).
    #[serde(default)]
    pub stage: Option<String>,
    /// What the model was told.
    #[serde(default)]
    pub message: Option<String>,
    /// Who decided when not the policy: `review pane` (a human, in
    /// `srview review`); absent when the policy decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decided_by: Option<String>,
    /// The review pane's answer (`allow`, `reject`, `corrected`,
    /// `allow-session`, `session-repair`) when it decided.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<String>,
    #[serde(default, skip_serializing)]
    input_sha256: Option<String>,
    /// A repair's rewritten input (see the writer's `Record`).
    #[serde(default, skip_serializing)]
    rewritten_sha256: Option<String>,
    #[serde(default, skip_serializing)]
    call_id: Option<String>,
    /// The session the payload named.
    #[serde(default, skip_serializing)]
    session_id: Option<String>,
}

/// A deny for a call srview did not judge (its judgment ran out of time:
/// `why`), with the call as `payload` names it (its tool, session, call id,
/// working folder, input and the file(s) the input names), so that its
/// record joins the edit it was about (a user's find: such a decision was
/// recorded without them). A payload that cannot be read gives the deny
/// alone.
pub fn unjudged(agent: super::GateAgent, payload: &[u8], why: &str) -> super::Judgment {
    let mut judgment = super::failure(agent, why);
    if let Ok(call) = super::payload::read(agent, payload) {
        judgment.file = input_files(&call.input);
        judgment.call = Some(call);
    }
    judgment
}

/// The file(s) a tool input names, as it names them: its path field, or
/// a patch's files (each `*** Add/Update/Delete File:` section's), joined
/// by `, `.
fn input_files(input: &serde_json::Value) -> Option<String> {
    use serde_json::Value;
    let text = |key: &str| input.get(key).and_then(Value::as_str);
    if let Some(path) = ["file_path", "filePath", "path", "absolute_path"]
        .into_iter()
        .find_map(text)
    {
        return Some(path.to_string());
    }
    let patch = ["command", "patchText", "input", "patch"]
        .into_iter()
        .find_map(text)?;
    let files: Vec<&str> = patch
        .lines()
        .filter_map(|line| {
            ["*** Add File: ", "*** Update File: ", "*** Delete File: "]
                .into_iter()
                .find_map(|head| line.strip_prefix(head))
        })
        .map(str::trim)
        .collect();
    (!files.is_empty()).then(|| files.join(", "))
}

/// The decisions recorded for a session whose workspace is `workspace`,
/// oldest first; none when there is no record. The record is the one the
/// gate wrote for calls from that folder: `.srview/gate.jsonl` in the
/// nearest folder from `workspace` up to its repository's root holding
/// `.srview/` ([`super::spool::workspace_of`], as the gate picks it), so a
/// session in a subfolder of a repository joins the record kept at its
/// root. Lines that are not a decision are skipped (see [`read_counted`]).
pub fn read(workspace: &Path) -> Vec<GateDecision> {
    read_counted(workspace).0
}

/// [`read`], and how many lines of the record could not be read as a
/// decision (blank lines aside): the listings say so
/// ([`unreadable_lines`]) rather than join fewer decisions without a word.
pub fn read_counted(workspace: &Path) -> (Vec<GateDecision>, usize) {
    let folder = super::spool::workspace_of(workspace);
    let Ok(text) = std::fs::read_to_string(folder.join(".srview/gate.jsonl")) else {
        return (Vec::new(), 0);
    };
    let mut unreadable = 0;
    let decisions = text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .filter_map(|line| {
            let read = serde_json::from_str(line).ok();
            unreadable += usize::from(read.is_none());
            read
        })
        .collect();
    (decisions, unreadable)
}

/// "2 lines of .srview/gate.jsonl could not be read": what the listings
/// say of a record with lines that are not a decision; `None` for none.
pub fn unreadable_lines(count: usize) -> Option<String> {
    (count > 0).then(|| {
        format!(
            "{} of .srview/gate.jsonl could not be read",
            crate::words::count(count, "line")
        )
    })
}

/// [`unreadable_lines`] short enough for the browser's header at 80
/// columns: "2 gate lines unreadable".
pub fn unreadable_short(count: usize) -> Option<String> {
    (count > 0).then(|| format!("{} unreadable", crate::words::count(count, "gate line")))
}

/// The gate's part of a listing's header: the [`tally`], and what could
/// not be read of the record ([`unreadable_lines`]), joined by `; `.
pub fn summary(tally: Option<String>, unreadable: usize) -> Option<String> {
    match (tally, unreadable_lines(unreadable)) {
        (Some(tally), Some(unread)) => Some(format!("{tally}; {unread}")),
        (tally, unread) => tally.or(unread),
    }
}

/// The file(s) a decision is about as the record names them: absolute
/// (lexically normalised, a patch's several files joined by `, ` as the
/// judgment joins them). Absolute, not relative, because the record may
/// be kept above the folder the call came from (a subfolder's calls are
/// recorded at the repository's workspace, see [`read`]) and does not keep
/// that folder: a relative name would not say which file it was. Claude
/// Code's and the matchers' inputs name files absolutely already, Codex's
/// patches relatively; records written before this named them as the
/// input did, and still join (the join is by call id and input hash, not
/// by file).
pub(crate) fn record_files(cwd: &str, files: &str) -> String {
    files
        .split(", ")
        .map(|file| {
            use crate::dialect::call::{display_path, normalize};
            display_path(cwd, &normalize(file))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// For each edit of the session `session`, the decision about it, when
/// one can be told.
pub fn join<'a>(
    decisions: &'a [GateDecision],
    edits: &[&AgentEdit],
    session: &SessionStamp,
) -> Vec<Option<&'a GateDecision>> {
    let keys: Vec<Option<String>> = edits.iter().map(|e| join_key(e)).collect();
    join_session_keys(decisions, &keys, session)
}

/// How far before its session's first line, or after its last, a decision
/// of it may be timed: the gate decides before the agent writes its line
/// (and the agent may wait on the review pane), and clocks differ a little.
const SESSION_SLACK_MS: i64 = 10 * 60 * 1000;

/// Whether decision `d` may be of the session `session`: where both name a
/// session id, the same one; else, where the session's lines are timed,
/// a decision timed within their span (give or take
/// [`SESSION_SLACK_MS`]); else any.
pub fn of_session(d: &GateDecision, session: &SessionStamp) -> bool {
    if let (Some(ours), Some(theirs)) = (&session.id, &d.session_id) {
        return ours == theirs;
    }
    match (session.span, crate::source::time::epoch_ms(&d.time)) {
        (Some((first, last)), Some(time)) => {
            first - SESSION_SLACK_MS <= time && time <= last + SESSION_SLACK_MS
        }
        _ => true,
    }
}

/// What `edit` is joined to the record by: `call ID` where the session
/// records the call's id, else `input SHA256` where it keeps the tool
/// input as the model sent it; `None` when neither.
pub fn join_key(edit: &AgentEdit) -> Option<String> {
    if let Some(id) = &edit.call_id {
        return Some(format!("call {id}"));
    }
    match &edit.input {
        EditInput::Call(call) => Some(format!(
            "input {}",
            super::sha256_hex(call.input.to_string().as_bytes())
        )),
        _ => None,
    }
}

/// [`join_session_keys`] for a session that names neither its id nor its
/// times: every decision of the record may be its.
pub fn join_keys<'a>(
    decisions: &'a [GateDecision],
    keys: &[Option<String>],
) -> Vec<Option<&'a GateDecision>> {
    join_session_keys(decisions, keys, &SessionStamp::default())
}

/// [`join`] from each edit's [`join_key`]: by call id, or by input among
/// the decisions [`of_session`] `session`.
pub fn join_session_keys<'a>(
    decisions: &'a [GateDecision],
    keys: &[Option<String>],
    session: &SessionStamp,
) -> Vec<Option<&'a GateDecision>> {
    let mut by_input: HashMap<&str, Vec<&GateDecision>> = HashMap::new();
    let mut by_call: HashMap<&str, &GateDecision> = HashMap::new();
    for d in decisions {
        // A repaired call joins the edit by its input as sent or as
        // rewritten (a tester's find: OpenCode keeps the rewritten
        // arguments, and its repaired edits never showed as repaired).
        if of_session(d, session) {
            for sha in d.input_sha256.iter().chain(&d.rewritten_sha256) {
                by_input.entry(sha.as_str()).or_default().push(d);
            }
        }
        if let Some(id) = &d.call_id {
            by_call.insert(id.as_str(), d);
        }
    }
    let mut taken: HashMap<&str, usize> = HashMap::new();
    keys.iter()
        .map(|key| match key.as_deref()?.split_once(' ')? {
            ("call", id) => by_call.get(id).copied(),
            ("input", sha) => {
                let list = by_input.get(sha)?;
                let n = taken.entry(sha).or_default();
                let found = list.get(*n).copied();
                *n += 1;
                found
            }
            _ => None,
        })
        .collect()
}

/// The words `srview session` shows for a decision: `blocked (failing)`,
/// `repaired (loose)`, `passed (exact)`; when a human decided in the
/// review pane rather than the policy, it says so: `rejected in the review
/// pane (loose)`, `allowed in the review pane (doubt)`.
pub fn words(d: &GateDecision) -> String {
    if d.decided_by.as_deref() == Some("review pane") {
        let what = match d.review.as_deref() {
            Some("allow") => "allowed in the review pane",
            Some("allow-session") => "allowed in the review pane with the rest of its session",
            Some("reject") => "rejected in the review pane",
            Some("corrected") => "the corrected edit chosen in the review pane",
            Some("session-repair") => "repaired for its session allowed in the review pane",
            _ => "decided in the review pane",
        };
        return format!("{what} ({})", d.case);
    }
    let what = match d.decision.as_str() {
        "deny" => "blocked",
        "repair" => "repaired",
        "none" => "passed",
        "context" => "diagnosed after the failure",
        other => other,
    };
    format!("{what} ({})", d.case)
}

/// The gate's decision in one short word, for a row at 80 columns:
/// `blocked`, `repaired`, `passed`, `diagnosed` (Claude Code's
/// post-failure context); a human's in the review pane: `rejected`,
/// `allowed`, `corrected` (its corrected edit chosen), `decided` (an
/// answer this srview does not know). At most 9 characters.
pub fn short_word(d: &GateDecision) -> &'static str {
    if d.decided_by.as_deref() == Some("review pane") {
        return match d.review.as_deref() {
            Some("allow" | "allow-session") => "allowed",
            Some("reject") => "rejected",
            Some("corrected") => "corrected",
            Some("session-repair") => "repaired",
            _ => "decided",
        };
    }
    match d.decision.as_str() {
        "deny" => "blocked",
        "repair" => "repaired",
        "none" => "passed",
        "context" => "diagnosed",
        _ => "decided",
    }
}

/// Where the gate's record and the session disagree about an edit, in
/// words (`agent`: the agent's name): the gate let an exact edit through
/// (its policy, or a human in the review pane) but the session shows the
/// agent's edit failed; or the gate denied an edit the session shows
/// applied. `None` when they agree, or the record cannot tell.
pub fn contradiction(d: &GateDecision, verdict: Verdict, agent: &str) -> Option<String> {
    let allowed =
        d.decision == "none" || matches!(d.review.as_deref(), Some("allow" | "allow-session"));
    match verdict {
        Verdict::Failed if allowed && d.case == "exact" => Some(format!(
            "the gate's record says it let this edit through as exact, but {agent} failed it"
        )),
        Verdict::Applied if d.decision == "deny" => Some(format!(
            "the gate's record says it denied this edit, but the session shows {agent} applied it"
        )),
        _ => None,
    }
}

/// Whether the agent was handed the gate's rewrite of the edit rather
/// than the model's input: the decision is `repair`, by the policy or by
/// a human choosing srview's corrected edit in the review pane (`review`
/// `corrected`; where the agent cannot rewrite, that choice is a deny).
pub fn repaired(d: &GateDecision) -> bool {
    d.decision == "repair"
}

/// `review` as the agent ran the edit, given the gate's decision `d` about
/// it: where the gate repaired it ([`repaired`]) and the session keeps the
/// model's input (not the rewrite the agent ran: Claude Code's, Gemini
/// CLI's), srview's replay of that input says nothing of what was written
/// (a tester's find: a repaired edit was listed `FAILED DISAGREE` with a
/// `!!!` line, the replay failing the curly quotes the repair had made
/// straight). The replay is set aside: srview's verdict is "not run",
/// saying the edit was applied as repaired by the gate, with no
/// disagreement or loose match drawn from it. A session that keeps the
/// rewritten input (OpenCode: its input is the one behind
/// `rewrittenSha256`) is replayed as it ran, and kept as it is.
pub fn as_run(
    mut review: crate::sessions::review::Review,
    d: Option<&GateDecision>,
) -> crate::sessions::review::Review {
    if !d.is_some_and(|d| sets_aside(d, join_key(&review.edit).as_deref())) {
        return review;
    }
    let how = match review.edit.agent_verdict {
        Verdict::Applied => "applied as repaired by the gate",
        _ => "repaired by the gate",
    };
    review.run = crate::sessions::review::Run::NotRun(Some(format!(
        "{how}: the agent ran the gate's rewrite of the model's input, which srview does not \
         replay"
    )));
    review.disagreement = None;
    review.loose_match = None;
    review
}

/// [`as_run`] of a review kept behind a shared pointer (the edit the
/// session browser shows): `None` where `d` leaves it as it is; else a
/// copy of it as the agent ran it (srview's replay, which the copy does
/// not take, set aside). The same rule as `session --list` and `--json`.
pub fn as_run_of(
    review: &crate::sessions::review::Review,
    d: Option<&GateDecision>,
) -> Option<crate::sessions::review::Review> {
    as_run_copy(review, d, review.before.clone())
}

/// [`as_run_of`] without the content before, which a row of the list
/// does not use (not copied for every repaired edit at each answer).
pub fn as_run_listed(
    review: &crate::sessions::review::Review,
    d: Option<&GateDecision>,
) -> Option<crate::sessions::review::Review> {
    as_run_copy(review, d, None)
}

fn as_run_copy(
    review: &crate::sessions::review::Review,
    d: Option<&GateDecision>,
    before: Option<crate::source::agent::FileContent>,
) -> Option<crate::sessions::review::Review> {
    let d = d.filter(|d| sets_aside(d, join_key(&review.edit).as_deref()))?;
    let light = crate::sessions::review::Review {
        edit: review.edit.clone(),
        before,
        basis: review.basis,
        run: crate::sessions::review::Run::NotRun(None),
        disagreement: None,
        loose_match: None,
        notices: review.notices.clone(),
    };
    Some(as_run(light, Some(d)))
}

/// Whether decision `d`, joined to the edit whose [`join_key`] is `key`,
/// sets srview's replay of it aside ([`as_run`]): the gate repaired it and
/// the session keeps the model's input, not the rewrite the agent ran.
pub fn sets_aside(d: &GateDecision, key: Option<&str>) -> bool {
    let ran = d
        .rewritten_sha256
        .as_ref()
        .is_some_and(|sha| key == Some(format!("input {sha}").as_str()));
    repaired(d) && !ran
}

/// One edit's counts as `review` has it, and as [`as_run`] has it when
/// the gate repaired the edit (srview's verdict not run: failed only when
/// the agent failed it), for `srview sessions`, which counts each edit
/// before it reads the record.
pub fn counts(
    review: &crate::sessions::review::Review,
) -> (
    crate::sessions::review::Counts,
    crate::sessions::review::Counts,
) {
    use crate::sessions::review::Counts;
    let mut reviewed = Counts::default();
    reviewed.add(review);
    let repaired = Counts {
        edits: 1,
        failed: usize::from(review.edit.agent_verdict == Verdict::Failed),
        loose: 0,
        disagreements: 0,
        unknown: 1,
        doubted: 0,
    };
    (reviewed, repaired)
}

/// "3 blocked, 2 repaired": the decisions that changed something, each
/// counted once (the edits of one call share its decision); `None` when
/// none did.
pub fn tally<'a>(joined: impl IntoIterator<Item = &'a GateDecision>) -> Option<String> {
    let (mut blocked, mut repaired) = (0, 0);
    let mut seen: Vec<*const GateDecision> = Vec::new();
    for d in joined {
        let at: *const GateDecision = d;
        if seen.contains(&at) {
            continue;
        }
        seen.push(at);
        match d.decision.as_str() {
            "deny" => blocked += 1,
            "repair" => repaired += 1,
            _ => {}
        }
    }
    (blocked + repaired > 0).then(|| format!("gate: {blocked} blocked, {repaired} repaired"))
}

#[cfg(test)]
mod tests {
    /// A repaired call joins the edit whose input is the one sent or the
    /// one the agent was handed (OpenCode's session keeps the rewritten
    /// arguments: a tester's find); the writer records the rewritten one.
    #[test]
    fn a_repair_joins_by_the_rewritten_input_too() {
        let line = r#"{"time":"t","agent":"opencode","case":"loose","decision":"repair","inputSha256":"sent","rewrittenSha256":"ran","callId":null}"#;
        let decisions: Vec<super::GateDecision> =
            vec![serde_json::from_str(line).expect("a decision")];
        for key in ["input ran", "input sent"] {
            let joined = super::join_keys(&decisions, &[Some(key.to_string())]);
            assert_eq!(
                joined[0].map(|d| d.decision.as_str()),
                Some("repair"),
                "{key}"
            );
        }
        let other = super::join_keys(&decisions, &[Some("input other".to_string())]);
        assert!(other[0].is_none());
        // The writer: a rewrite records the SHA-256 of the input handed over.
        let payload = serde_json::json!({"tool": "edit", "cwd": "/p", "sessionID": "s", "callID": "c",
            "args": {"filePath": "/p/a.py", "oldString": "  x = 1\n  y = 2\n", "newString": "  x = 1\n  y = 3\n"}});
        let fs = crate::dialect::apply_patch::MemoryFs::new([(
            "a.py".to_string(),
            "def f():\n    x = 1\n    y = 2\n".to_string(),
        )]);
        let judgment = crate::gate::judge(
            crate::gate::GateAgent::Opencode,
            payload.to_string().as_bytes(),
            |_| fs,
            &crate::gate::Policy::default(),
        );
        let crate::gate::Answer::Rewrite { input, .. } = &judgment.answer else {
            panic!("{:?}", judgment.answer);
        };
        let record: serde_json::Value =
            serde_json::from_str(&judgment.record("t")).expect("the record line");
        assert_eq!(
            record["rewrittenSha256"].as_str(),
            Some(crate::gate::sha256_hex(input.to_string().as_bytes()).as_str())
        );
    }

    /// The record contradicts the session only where the gate let an
    /// exact edit through that the agent failed, or denied one the agent
    /// applied.
    #[test]
    fn a_contradiction_is_an_exact_edit_passed_but_failed_or_one_denied_but_applied() {
        use crate::source::agent::Verdict;
        let decision = |case: &str, decision: &str, review: Option<&str>| super::GateDecision {
            time: "2026-12-01T20:22:53.771Z".into(),
            agent: "claude-code".into(),
            case: case.into(),
            decision: decision.into(),
            stage: None,
            message: None,
            decided_by: review.map(|_| "review pane".into()),
            review: review.map(str::to_string),
            input_sha256: None,
            rewritten_sha256: None,
            call_id: None,
            session_id: None,
        };
        let said = |d: &super::GateDecision, v: Verdict| super::contradiction(d, v, "Claude Code");
        let passed = decision("exact", "none", None);
        assert_eq!(
            said(&passed, Verdict::Failed).as_deref(),
            Some(
                "the gate's record says it let this edit through as exact, but Claude Code failed it"
            )
        );
        assert_eq!(said(&passed, Verdict::Applied), None);
        assert_eq!(
            said(&decision("loose", "none", None), Verdict::Failed),
            None
        );
        let allowed_in_pane = decision("exact", "none", Some("allow"));
        assert!(said(&allowed_in_pane, Verdict::Failed).is_some());
        let denied = decision("failing", "deny", None);
        assert_eq!(
            said(&denied, Verdict::Applied).as_deref(),
            Some(
                "the gate's record says it denied this edit, but the session shows Claude Code \
                 applied it"
            )
        );
        assert_eq!(said(&denied, Verdict::Failed), None);
        assert_eq!(said(&denied, Verdict::NotRun), None);
        assert_eq!(
            said(&decision("loose", "repair", None), Verdict::Applied),
            None
        );
    }

    /// Relative names are made absolute from the call's folder, absolute
    /// ones normalised; a patch's files each.
    #[test]
    fn the_record_names_files_absolutely() {
        let cwd = "/home/user/project";
        assert_eq!(
            super::record_files(cwd, "src/a.rs"),
            "/home/user/project/src/a.rs"
        );
        assert_eq!(
            super::record_files(cwd, "/home/user/project/./src/../a.py"),
            "/home/user/project/a.py"
        );
        assert_eq!(
            super::record_files("/w/", "a.py, lib/b.py, /elsewhere/c.py"),
            "/w/a.py, /w/lib/b.py, /elsewhere/c.py"
        );
        assert_eq!(super::record_files(cwd, "../other/x"), "/home/user/other/x");
    }

    /// A tester's find: the same tool input judged in an older session
    /// (a deny) was joined to this session's edit, and the browser said the
    /// gate had been bypassed. By input, only decisions of the session
    /// itself join: the same session id where both name one, else a time
    /// within the session's span; call ids join as before.
    #[test]
    fn only_the_sessions_own_decisions_join_by_input() {
        use crate::source::agent::SessionStamp;
        let line = |time: &str, session: Option<&str>, decision: &str| {
            serde_json::from_value::<super::GateDecision>(serde_json::json!({
                "time": time, "agent": "gemini-cli", "sessionId": session,
                "callId": null, "inputSha256": "same", "case": "exact", "decision": decision,
            }))
            .expect("a decision")
        };
        let older = line("2026-11-20T10:00:00.000Z", Some("older"), "deny");
        let own = line("2026-12-01T14:04:31.000Z", Some("ours"), "none");
        let decisions = [older.clone(), own.clone()];
        let keys = [Some("input same".to_string())];
        let stamp = |id: Option<&str>, span: Option<(&str, &str)>| SessionStamp {
            id: id.map(str::to_string),
            span: span.map(|(a, b)| {
                (
                    crate::source::time::epoch_ms(a).expect("a time"),
                    crate::source::time::epoch_ms(b).expect("a time"),
                )
            }),
        };
        let span = Some(("2026-12-01T14:04:29.429Z", "2026-12-01T14:04:40.000Z"));
        let joined = |session: &SessionStamp| {
            super::join_session_keys(&decisions, &keys, session)[0].cloned()
        };
        assert_eq!(joined(&stamp(Some("ours"), span)), Some(own.clone()));
        assert_eq!(joined(&stamp(Some("ours"), None)), Some(own.clone()));
        // No id in the session: by its time span (give or take ten minutes).
        assert_eq!(joined(&stamp(None, span)), Some(own.clone()));
        // Another session's only: nothing joined, no bypass said.
        assert_eq!(joined(&stamp(Some("third"), span)), None);
        let late = [line("2026-12-01T15:00:00.000Z", None, "deny")];
        assert_eq!(
            super::join_session_keys(&late, &keys, &stamp(None, span))[0],
            None
        );
        let near = [line("2026-12-01T14:10:00.000Z", None, "deny")];
        assert!(super::join_session_keys(&near, &keys, &stamp(None, span))[0].is_some());
        // A session that names neither: every decision, as before.
        assert_eq!(joined(&SessionStamp::default()), Some(older));
        // By call id: not filtered.
        let call = serde_json::from_value::<super::GateDecision>(serde_json::json!({
            "time": "2020-01-01T00:00:00Z", "agent": "claude-code", "sessionId": "other",
            "callId": "toolu_1", "case": "exact", "decision": "none",
        }))
        .expect("a decision");
        assert!(
            super::join_session_keys(
                std::slice::from_ref(&call),
                &[Some("call toolu_1".into())],
                &stamp(Some("ours"), span)
            )[0]
            .is_some()
        );
    }

    /// A repair (the policy's, or the pane's corrected edit) sets srview's replay aside
    /// unless the session keeps the rewritten input (its key is the
    /// record's `rewrittenSha256`); a deny or a pass never does.
    #[test]
    fn a_repair_sets_the_replay_aside_unless_the_session_kept_the_rewrite() {
        let line = |json: serde_json::Value| {
            serde_json::from_value::<super::GateDecision>(json).expect("a decision")
        };
        let repair = line(serde_json::json!({"time": "t", "agent": "claude-code",
            "case": "loose", "decision": "repair", "inputSha256": "sent",
            "rewrittenSha256": "ran"}));
        assert!(super::sets_aside(&repair, Some("call toolu_1")));
        assert!(super::sets_aside(&repair, Some("input sent")));
        assert!(!super::sets_aside(&repair, Some("input ran")));
        let corrected = |decision: &str| {
            line(serde_json::json!({"time": "t", "agent": "gemini-cli",
                "case": "loose", "decision": decision, "decidedBy": "review pane",
                "review": "corrected"}))
        };
        assert!(super::sets_aside(&corrected("repair"), Some("input sent")));
        // Qwen Code cannot rewrite: the corrected edit chosen is a deny.
        assert!(!super::sets_aside(&corrected("deny"), Some("input sent")));
        for decision in ["deny", "none", "context"] {
            let d = line(serde_json::json!({"time": "t", "agent": "gemini-cli",
                "case": "loose", "decision": decision}));
            assert!(!super::sets_aside(&d, Some("input sent")), "{decision}");
        }
    }
}
