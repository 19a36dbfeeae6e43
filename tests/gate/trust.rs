//! Corrections srview must not offer (a fresh tester's finds): a quote
//! repair that straightens the model's own curly quotes in a line it adds,
//! a re-indentation that changes the code's nesting or a multi-line
//! string's content, a re-indented edit that picks one of two places, and
//! sentences of the diagnosis that were not true.

use super::*;

/// Every agent with an old/new string edit tool (Codex: the same edit as a
/// patch), each in its own payload shape.
const AGENTS: [GateAgent; 7] = [
    GateAgent::ClaudeCode,
    GateAgent::Codex,
    GateAgent::GeminiCli,
    GateAgent::QwenCode,
    GateAgent::Opencode,
    GateAgent::Pi,
    GateAgent::ClineCli,
];

/// `agent`'s payload replacing `old` with `new` in inventory.py (Codex: a
/// one-hunk patch of the same lines, both texts whole lines).
fn payload_for(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::Codex => {
            let mut body = String::from("@@\n");
            for line in old.lines() {
                body.push_str(&format!("-{line}\n"));
            }
            for line in new.lines() {
                body.push_str(&format!("+{line}\n"));
            }
            edit_payload(agent, patch(&body))
        }
        GateAgent::Opencode => own_payload(
            "edit",
            json!({"filePath": "inventory.py", "oldString": old, "newString": new}),
        ),
        GateAgent::Pi => own_payload(
            "edit",
            json!({"path": "inventory.py", "edits": [{"oldText": old, "newText": new}]}),
        ),
        GateAgent::ClineCli => {
            let bytes = std::fs::read(fixtures().join("cline-cli/tool_call.payload.json"))
                .expect("the recorded payload");
            let mut payload: Value = serde_json::from_slice(&bytes).expect("JSON");
            for place in ["/tool_call/input", "/preToolUse/parameters"] {
                let input = payload.pointer_mut(place).expect("the input");
                input["old_text"] = old.into();
                input["new_text"] = new.into();
            }
            payload.to_string().into_bytes()
        }
        _ => edit_payload(agent, string_edit(agent, old, new)),
    }
}

/// Asserts that `judgment` neither rewrites the edit nor offers a
/// corrected one, and that its deny says `why`.
fn assert_withheld(judgment: &Judgment, why: &str) {
    let agent = judgment.agent;
    assert!(
        !matches!(judgment.answer, Answer::Rewrite { .. }),
        "{agent:?}: {:?}",
        judgment.answer
    );
    let reason = deny_reason(judgment);
    assert_eq!(offered_input(agent, &reason), None, "{agent:?}: {reason}");
    assert!(reason.contains(why), "{agent:?}: {reason}");
}

/// The corrected input of a rewrite (or, for Qwen Code, which cannot
/// rewrite, of its deny), checked to apply exactly with `agent`'s matcher.
fn corrected_input(judgment: &Judgment, content: &str) -> Value {
    let input = match judgment.agent {
        GateAgent::QwenCode => {
            offered_input(judgment.agent, &deny_reason(judgment)).expect("an offered edit")
        }
        _ => rewritten_input(judgment),
    };
    assert_exact_with_agents_matcher(judgment.agent, &input, content);
    input
}

/// The model writes curly quotes where the file has straight ones, and
/// adds a line with quotes of its own, straight delimiters around curly
/// prose: straightening them all breaks the string (`'You're ...'`), so no
/// correction is offered. Without curly quotes of its own in the added
/// line, the quote repair still goes on (its straightened old line).
#[test]
fn a_quote_repair_never_straightens_the_models_own_curly_quotes() {
    let file = "def banner():\n    title = 'Welcome'\n    return title\n";
    let old = "    title = \u{2018}Welcome\u{2019}\n";
    let own = "    title = \u{2018}Welcome\u{2019}\n    subtitle = 'You\u{2019}re in the \u{201C}beta\u{201D} programme'\n";
    let plain = "    title = \u{2018}Welcome\u{2019}\n    subtitle = 'beta'\n";
    let policy = Policy::parse("failing=repair").expect("a policy");
    for agent in AGENTS {
        let judgment = judge_on(agent, &payload_for(agent, old, own), file, &policy);
        assert_withheld(
            &judgment,
            "its new line `subtitle = 'You\u{2019}re in the \u{201C}beta\u{201D} programme'` \
             holds curly quotes of its own: srview cannot tell which of them it means as \
             straight quotes",
        );
    }
    // The added line holds no curly quote: the quote repair is offered
    // (where the agent's own matcher does not place the edit exactly).
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::Pi,
    ] {
        let judgment = judge_on(agent, &payload_for(agent, old, plain), file, &policy);
        let input = corrected_input(&judgment, file);
        let sent = input.to_string();
        assert!(
            sent.contains("title = 'Welcome'") && sent.contains("subtitle = 'beta'"),
            "{agent:?}: {sent}"
        );
    }
}
