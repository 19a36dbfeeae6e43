//! The gate's record read back: `.srview/gate.jsonl` in a session's
//! workspace, each decision joined to the session's edit it was about, for
//! `srview session`.
//!
//! The join: by the SHA-256 of the tool input (`inputSha256`, compact JSON
//! with sorted keys) where the session keeps the input exactly as the model
//! sent it (the edits srview runs with the agent's own matcher: Gemini CLI,
//! Qwen Code, OpenCode, pi). Sessions whose reader keeps no input JSON
//! (Claude Code's and Codex's edits are read into srview's own forms) and
//! no call id are not joined yet. When several decisions share an input
//! (the model sent the same call again), the n-th edit with that input
//! takes the n-th decision.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::source::agent::{AgentEdit, EditInput};

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
    #[serde(default, skip_serializing)]
    input_sha256: Option<String>,
}

/// The decisions recorded in `workspace/.srview/gate.jsonl`, oldest first;
/// none when there is no record. Lines that are not a decision are skipped.
pub fn read(workspace: &Path) -> Vec<GateDecision> {
    let Ok(text) = std::fs::read_to_string(workspace.join(".srview/gate.jsonl")) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect()
}

/// For each edit, the decision about it, when one can be told.
pub fn join<'a>(
    decisions: &'a [GateDecision],
    edits: &[&AgentEdit],
) -> Vec<Option<&'a GateDecision>> {
    let shas: Vec<Option<String>> = edits.iter().map(|e| input_sha256(e)).collect();
    join_inputs(decisions, &shas)
}

/// The SHA-256 the gate records for `edit`'s tool input, where the session
/// keeps the input as the model sent it.
pub fn input_sha256(edit: &AgentEdit) -> Option<String> {
    match &edit.input {
        EditInput::Call(call) => Some(super::sha256_hex(call.input.to_string().as_bytes())),
        _ => None,
    }
}

/// [`join`] from each edit's [`input_sha256`].
pub fn join_inputs<'a>(
    decisions: &'a [GateDecision],
    inputs: &[Option<String>],
) -> Vec<Option<&'a GateDecision>> {
    let mut by_input: HashMap<&str, Vec<&GateDecision>> = HashMap::new();
    for d in decisions {
        if let Some(sha) = &d.input_sha256 {
            by_input.entry(sha.as_str()).or_default().push(d);
        }
    }
    let mut taken: HashMap<&str, usize> = HashMap::new();
    inputs
        .iter()
        .map(|sha| {
            let sha = sha.as_deref()?;
            let list = by_input.get(sha)?;
            let n = taken.entry(sha).or_default();
            let found = list.get(*n).copied();
            *n += 1;
            found
        })
        .collect()
}

/// The words `srview session` shows for a decision: `blocked (failing)`,
/// `repaired (loose)`, `passed (exact)`.
pub fn words(d: &GateDecision) -> String {
    let what = match d.decision.as_str() {
        "deny" => "blocked",
        "repair" => "repaired",
        "none" => "passed",
        "context" => "diagnosed after the failure",
        other => other,
    };
    format!("{what} ({})", d.case)
}

/// "3 blocked, 2 repaired": the decisions that changed something; `None`
/// when none did.
pub fn tally<'a>(joined: impl IntoIterator<Item = &'a GateDecision>) -> Option<String> {
    let (mut blocked, mut repaired) = (0, 0);
    for d in joined {
        match d.decision.as_str() {
            "deny" => blocked += 1,
            "repair" => repaired += 1,
            _ => {}
        }
    }
    (blocked + repaired > 0).then(|| format!("gate: {blocked} blocked, {repaired} repaired"))
}
