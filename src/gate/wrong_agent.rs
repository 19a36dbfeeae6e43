//! A payload sent by another agent than `--agent` names (a tester's find:
//! Qwen Code's settings hold a copy of Gemini CLI's hook line, and the gate,
//! reading Qwen's `edit` as a tool Gemini CLI does not have, let every edit
//! through unjudged). Its event or its edit tool says whose it is: such a
//! call is denied with the fix, never given no opinion.

use super::judge::kind;
use super::{Call, GateAgent};

/// The agents whose hooks send one payload shape (`hook_event_name`,
/// `tool_name`, `tool_input`), and the two that get srview's own JSON
/// from its plugin and extension: a payload of one group read as the other
/// cannot be read at all, and is denied as unreadable already.
const COMMAND_HOOKS: [GateAgent; 4] = [
    GateAgent::ClaudeCode,
    GateAgent::Codex,
    GateAgent::GeminiCli,
    GateAgent::QwenCode,
];
const OWN_JSON: [GateAgent; 2] = [GateAgent::Opencode, GateAgent::Pi];

/// Why `call` is not `agent`'s, naming whose it looks like, or `None`.
pub(super) fn said(agent: GateAgent, call: &Call) -> Option<String> {
    let group: &[GateAgent] = if COMMAND_HOOKS.contains(&agent) {
        &COMMAND_HOOKS
    } else if OWN_JSON.contains(&agent) {
        &OWN_JSON
    } else {
        return None;
    };
    let tool = call.tool.as_str();
    let owner_of_tool = group
        .iter()
        .copied()
        .find(|&other| other != agent && kind(other, tool).is_some());
    // Gemini CLI's hook event is `BeforeTool`; the others' `PreToolUse`.
    let event = call.event.as_deref().unwrap_or_default();
    let owner_of_event = match (agent, event) {
        (GateAgent::GeminiCli, "PreToolUse") => {
            Some(owner_of_tool.unwrap_or(GateAgent::ClaudeCode))
        }
        (GateAgent::ClaudeCode | GateAgent::Codex | GateAgent::QwenCode, "BeforeTool") => {
            Some(GateAgent::GeminiCli)
        }
        _ => None,
    };
    if let Some(owner) = owner_of_event {
        let whose = if owner_of_tool == Some(owner) {
            format!("it looks like {}'s", owner.title())
        } else {
            "it is another agent's".to_string()
        };
        return Some(format!(
            "this call's hook event is `{event}`, which {} never sends ({whose}){}",
            agent.title(),
            fix(agent, owner_of_tool)
        ));
    }
    if kind(agent, tool).is_some() {
        return None;
    }
    let owner = owner_of_tool?;
    Some(format!(
        "this call's tool `{tool}` is not one of {}'s edit tools but {}'s edit tool{}",
        agent.title(),
        owner.title(),
        fix(agent, Some(owner))
    ))
}

/// The end of the deny: the hook is set up for the wrong agent, and how it
/// is set up right.
fn fix(agent: GateAgent, owner: Option<GateAgent>) -> String {
    let run_as = owner
        .map(|owner| format!(" (`srview gate --agent {}`)", owner.id()))
        .unwrap_or_default();
    format!(
        ": the hook runs `srview gate --agent {}` for another agent, so srview cannot judge \
         the edit and lets none through. Set the hook's command to the agent that runs it{run_as}.",
        agent.id()
    )
}
