//! Edits a tester found the gate let through without running its trust
//! checks on them: a replace-all (every place of the old text), ... Each
//! is judged here in its agent's shape.

use serde_json::json;
use srview::gate::{Case, GateAgent, Policy};

use super::{CWD, deny_reason, edit_payload, judge_on, own_payload, string_edit};

/// `shop.py`: the line `self.items.append(item)` in two methods, one of
/// which already counts.
const SHOP: &str = "class Cart:\n    def add(self, item):\n        self.items.append(item)\n        self.count += 1\n        return self\n\n\nclass Order:\n    def add(self, item):\n        self.items.append(item)\n        return self\n";

/// `acc.py`: `count` alone and inside `account` and `counter`.
const ACC: &str = "def tally(account, count):\n    counter = count + 1\n    account.count = counter\n    return count\n";

/// A replace-all payload of `agent` (Gemini CLI's `allow_multiple`, Qwen
/// Code's `replace_all`, OpenCode's `replaceAll`) over inventory.py.
fn replace_all(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::Opencode => own_payload(
            "edit",
            json!({"filePath": format!("{CWD}/inventory.py"), "oldString": old, "newString": new, "replaceAll": true}),
        ),
        _ => {
            let mut input = string_edit(agent, old, new);
            let flag = if agent == GateAgent::GeminiCli {
                "allow_multiple"
            } else {
                "replace_all"
            };
            input[flag] = true.into();
            edit_payload(agent, input)
        }
    }
}

/// A replace-all that adds a line one of its places already has (the
/// line doubled in `Cart.add`), and one that renames `count` inside
/// `account` and `counter`: each a doubt, as Claude Code's own replace_all
/// edit is, on every agent with a replace-all flag (they passed with no
/// opinion: the checks ran as if on the first place only).
#[test]
fn a_replace_all_edit_is_checked_at_every_place() {
    let policy = Policy::default();
    for agent in [
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::Opencode,
        GateAgent::ClaudeCode,
    ] {
        let doubled = replace_all(
            agent,
            "        self.items.append(item)\n",
            "        self.items.append(item)\n        self.count += 1\n",
        );
        let judgment = judge_on(agent, &doubled, SHOP, &policy);
        assert_eq!(
            judgment.case,
            Case::Doubt,
            "{agent:?}: {:?}",
            judgment.answer
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains("already"), "{agent:?}: {reason}");
        let renamed = replace_all(agent, "count", "total");
        let judgment = judge_on(agent, &renamed, ACC, &policy);
        assert_eq!(
            judgment.case,
            Case::Doubt,
            "{agent:?}: {:?}",
            judgment.answer
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains("inside the word"), "{agent:?}: {reason}");
    }
}
