//! `srview gate`: hook payloads of the command-hook agents judged with each
//! agent's own matcher and answered in its own decision format.
//!
//! The payloads in tests/fixtures/gate/ are the exact bytes each real CLI
//! sent its hook (Claude Code 2.1.328, Codex 0.169.0, Gemini CLI 0.61.0,
//! Qwen Code 0.24.4), with the recorded hook's answer beside them
//! (`*.recorded-stdout.txt`: a fixed example answer, not a judgment; its
//! rewrites were made by hand, and are what srview's repair must give).
//! The recordings hold only exact edits and one indentation mismatch (a
//! quotes one for Claude Code); the failing, loose and damaging payloads
//! are built in the same shape. Most cases are judged in process
//! ([`srview::gate::judge`] over files in memory); a few run the binary.

mod support;

#[path = "gate/install.rs"]
mod install;
#[path = "gate/judgment.rs"]
mod judgment;
#[path = "gate/next_steps.rs"]
mod next_steps;
#[path = "gate/placement.rs"]
mod placement;
#[path = "gate/real_cli.rs"]
mod real_cli;
#[path = "gate/record.rs"]
mod record;
#[path = "gate/review.rs"]
mod review;
#[path = "gate/trust.rs"]
mod trust;
#[path = "gate/unchecked.rs"]
mod unchecked;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use srview::dialect::apply_patch::{self, MemoryFs};
use srview::dialect::edit::{self, Edit};
use srview::dialect::registry;
use srview::gate::{Answer, Case, GateAgent, Judgment, NextStep, Policy, judge};
use support::text::assert_starts_with;

const CWD: &str = "/home/user/project";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gate")
}

/// `inventory.py` as every recording had it before the edit.
fn inventory() -> String {
    std::fs::read_to_string(fixtures().join("inventory.py")).expect("the fixture file")
}

fn read(agent: GateAgent, name: &str) -> Vec<u8> {
    let path = fixtures().join(agent.id()).join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The recorded payload of `scenario`.
fn payload(agent: GateAgent, scenario: &str) -> Vec<u8> {
    read(agent, &format!("{scenario}.payload.json"))
}

/// The recorded hook's answer in `scenario`, as JSON.
fn recorded_answer(agent: GateAgent, scenario: &str) -> Value {
    serde_json::from_slice(&read(agent, &format!("{scenario}.recorded-stdout.txt")))
        .expect("the recorded answer is JSON")
}

/// A payload in the recorded shape of `scenario`, with another tool input.
fn payload_with(agent: GateAgent, scenario: &str, input: Value) -> Vec<u8> {
    let mut json: Value = serde_json::from_slice(&payload(agent, scenario)).expect("JSON");
    json["tool_input"] = input;
    json.to_string().into_bytes()
}

/// A folder `name` (with this process's id) in the temp folder, its
/// `inventory.py` not UTF-8: `name = "café"` in Latin-1 (`é` the byte
/// 0xE9). The caller removes it.
fn latin1_project(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("inventory.py"), b"name = \"caf\xe9\"\n").expect("a file");
    dir
}

/// The project holding `inventory.py` with `content`.
fn project(content: &str) -> MemoryFs {
    MemoryFs::new([("inventory.py".to_string(), content.to_string())])
}

fn judge_on(agent: GateAgent, payload: &[u8], content: &str, policy: &Policy) -> Judgment {
    judge(agent, payload, |_| project(content), policy)
}

/// [`judge_on`] under the default policy.
fn judged_over(agent: GateAgent, payload: &[u8], content: &str) -> Judgment {
    judge_on(agent, payload, content, &Policy::default())
}

/// `bytes` of `agent` judged under `policy` against the folder the
/// payload names (its files as they are on disk).
fn judged_in_its_folder(agent: GateAgent, bytes: &[u8], policy: &Policy) -> Judgment {
    judge(
        agent,
        bytes,
        |cwd| apply_patch::DirFs { root: cwd.into() },
        policy,
    )
}

fn judged(agent: GateAgent, payload: &[u8]) -> Judgment {
    judged_over(agent, payload, &inventory())
}

/// Asserts `judgment`'s case, naming its agent and answer where it is not.
fn assert_case(judgment: &Judgment, case: Case) {
    assert_eq!(
        judgment.case, case,
        "{:?}: {:?}",
        judgment.agent, judgment.answer
    );
}

/// The reply's stdout as JSON (it must be JSON), its exit status 0.
fn reply_json(judgment: &Judgment) -> Value {
    let reply = judgment.reply();
    assert_eq!(reply.exit_code, 0);
    serde_json::from_slice(&reply.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {:?}",
            String::from_utf8_lossy(&judgment.reply().stdout)
        )
    })
}

/// The text for the model in a deny (in the agent's own field).
fn deny_reason(judgment: &Judgment) -> String {
    let json = reply_json(judgment);
    let reason = match judgment.agent {
        GateAgent::GeminiCli => {
            assert_eq!(json["decision"], "deny", "{json}");
            &json["reason"]
        }
        // An edit Cline refuses itself: srview's text as the hook's
        // context, no cancel (which would stop Cline's whole task); any
        // other deny: a cancel.
        GateAgent::ClineCli if judgment.case == Case::Failing => {
            assert_eq!(json.as_object().map(|o| o.len()), Some(1), "{json}");
            &json["context"]
        }
        GateAgent::ClineCli => {
            assert_eq!(json["cancel"], true, "{json}");
            &json["errorMessage"]
        }
        GateAgent::Opencode | GateAgent::Pi => {
            assert_eq!(json["decision"], "deny", "{json}");
            &json["reason"]
        }
        _ => {
            let out = &json["hookSpecificOutput"];
            assert_eq!(out["hookEventName"], "PreToolUse", "{json}");
            assert_eq!(out["permissionDecision"], "deny", "{json}");
            &out["permissionDecisionReason"]
        }
    };
    reason.as_str().expect("a reason").to_string()
}

/// The rewritten tool input of a repair, in the agent's own field.
fn rewritten_input(judgment: &Judgment) -> Value {
    let json = reply_json(judgment);
    match judgment.agent {
        GateAgent::GeminiCli => {
            let out = &json["hookSpecificOutput"];
            assert_eq!(out["hookEventName"], "BeforeTool", "{json}");
            out["tool_input"].clone()
        }
        GateAgent::Opencode | GateAgent::Pi => {
            assert_eq!(json["decision"], "rewrite", "{json}");
            json["args"].clone()
        }
        GateAgent::ClineCli => {
            // Beside it only the reason, as Cline's hook `context` (the
            // model reads it after the tool's result); a `cancel` would
            // stop the task.
            assert_eq!(json.as_object().map(|o| o.len()), Some(2), "{json}");
            assert_eq!(
                json["context"].as_str(),
                judgment.answer.message(),
                "{json}"
            );
            assert_starts_with(
                json["context"].as_str().unwrap_or_default(),
                "srview gate: ",
            );
            json["overrideInput"].clone()
        }
        _ => {
            let out = &json["hookSpecificOutput"];
            assert_eq!(out["permissionDecision"], "allow", "{json}");
            assert_starts_with(
                out["permissionDecisionReason"].as_str().unwrap_or_default(),
                "srview gate: rewrote this ",
            );
            out["updatedInput"].clone()
        }
    }
}

/// Asserts that OpenCode's own `apply_patch` matcher places the patch
/// tool input `input` over `fs` with every hunk exact (`what` names the
/// case).
fn assert_exact_with_opencodes_apply_patch(input: &Value, fs: &MemoryFs, what: &str) {
    let own = registry::find("opencode-apply-patch")
        .and_then(|row| row.matcher())
        .expect("OpenCode's apply_patch");
    let ran = own.run(&srview::dialect::call::ToolCall {
        input,
        cwd: CWD,
        fs,
    });
    assert!(ran.ok, "{what}: {input}: {:?}", ran.error);
    assert!(
        !ran.edits.is_empty() && ran.edits.iter().all(|m| !m.loose),
        "{what}: {input}: {:?}",
        ran.edits
    );
}

/// Asserts that `input` (a corrected or rewritten tool input) applies
/// exactly with `agent`'s own matcher over `content`.
fn assert_exact_with_agents_matcher(agent: GateAgent, input: &Value, content: &str) {
    match agent {
        GateAgent::ClaudeCode | GateAgent::ClineCli => {
            // Claude Code's `Edit` and Cline's `editor` take the same
            // exact-string edit.
            let tool = match agent {
                GateAgent::ClaudeCode => "Edit",
                _ => "editor",
            };
            let edit = Edit::from_tool_input(tool, &input.to_string())
                .unwrap_or_else(|e| panic!("an {tool} edit: {e:?}"));
            let outcome = edit::apply(&edit, Some(content));
            assert!(outcome.result.is_ok(), "{input}: {:?}", outcome.result);
            assert!(edit::edit_doubts(&outcome, content).is_empty(), "{input}");
        }
        GateAgent::Codex => {
            let patch = input["command"].as_str().expect("a patch");
            let outcome = apply_patch::apply_text(patch, &project(content), CWD);
            assert_eq!(outcome.exit_code, 0, "{patch}: {}", outcome.stderr);
            assert_eq!(outcome.loose_hunks().count(), 0, "{patch}");
        }
        GateAgent::GeminiCli | GateAgent::QwenCode | GateAgent::Opencode | GateAgent::Pi => {
            // The agent's dialect and the input's key naming the file.
            let (dialect, key) = match agent {
                GateAgent::GeminiCli => ("gemini-replace", "file_path"),
                GateAgent::QwenCode => ("qwen-edit", "file_path"),
                GateAgent::Opencode => ("opencode-edit", "filePath"),
                _ => ("pi-edit", "path"),
            };
            let path = input[key].as_str().expect("a path");
            let run =
                registry::run_on_file(dialect, input, path, Some(content), CWD).expect("a matcher");
            assert!(run.outcome.ok, "{input}: {:?}", run.outcome.error);
            assert!(
                run.outcome
                    .edits
                    .iter()
                    .all(|m| m.found.is_some() && !m.loose),
                "{input}: {:?}",
                run.outcome.edits
            );
        }
    }
}

/// The corrected input a deny offers (the JSON or patch after "instead").
fn offered_input(agent: GateAgent, reason: &str) -> Option<Value> {
    let (_, after) = reason.split_once(" exactly):\n")?;
    Some(match agent {
        GateAgent::Codex => json!({ "command": after }),
        _ => serde_json::from_str(after).expect("the offered input is JSON"),
    })
}

// --- the recorded payloads -------------------------------------------------

/// Every recorded exact edit (and Claude Code's Write of a new file): no
/// opinion, nothing on stdout, exit 0.
#[test]
fn recorded_exact_payloads_get_no_opinion() {
    for (agent, scenario) in [
        (GateAgent::ClaudeCode, "a_allow"),
        (GateAgent::ClaudeCode, "w_write_allow"),
        (GateAgent::Codex, "a0_no_output"),
        (GateAgent::GeminiCli, "a0_no_output"),
        (GateAgent::QwenCode, "a0_no_output"),
    ] {
        let judgment = judged(agent, &payload(agent, scenario));
        assert_eq!(judgment.case, Case::Exact, "{scenario}");
        assert_eq!(judgment.answer, Answer::NoOpinion, "{scenario}");
        let reply = judgment.reply();
        assert_eq!((reply.stdout.as_slice(), reply.exit_code), (&b""[..], 0));
    }
}

/// The recorded mis-quoted (Claude Code) and mis-indented (Codex, Gemini
/// CLI) edits, which the agent would place through a loose stage, are
/// rewritten to exactly the input the recordings' hand-made rewrite sent,
/// which the real CLIs then applied exactly.
#[test]
fn recorded_loose_payloads_are_rewritten_as_the_recorded_rewrites() {
    for (agent, stage) in [
        (GateAgent::ClaudeCode, "quote-normalised"),
        (GateAgent::Codex, "trimmed"),
        (GateAgent::GeminiCli, "flexible"),
    ] {
        let judgment = judged(agent, &payload(agent, "b_deny_json"));
        assert_eq!(judgment.case, Case::Loose, "{agent:?}");
        assert_eq!(judgment.stage.as_deref(), Some(stage), "{agent:?}");
        let input = rewritten_input(&judgment);
        let recorded = recorded_answer(agent, "c_rewrite");
        let recorded = match agent {
            GateAgent::GeminiCli => &recorded["hookSpecificOutput"]["tool_input"],
            _ => &recorded["hookSpecificOutput"]["updatedInput"],
        };
        match agent {
            // srview's patch ends in a newline, the hand-made one does not.
            GateAgent::Codex => assert_eq!(
                input["command"].as_str().map(str::trim_end),
                recorded["command"].as_str()
            ),
            _ => assert_eq!(&input, recorded, "{agent:?}"),
        }
        assert_exact_with_agents_matcher(agent, &input, &inventory());
    }
    // Gemini CLI's answer, byte for byte.
    let judgment = judged(
        GateAgent::GeminiCli,
        &payload(GateAgent::GeminiCli, "b_deny_json"),
    );
    assert_eq!(
        String::from_utf8_lossy(&judgment.reply().stdout),
        r#"{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"file_path":"/home/user/project/inventory.py","instruction":"Add a sku field to Item.","new_string":"    qty: int\n    price: float\n    sku: str = \"\"\n","old_string":"    qty: int\n    price: float\n"}}}"#
    );
}

/// A repair keeps the user's approval where Claude Code would have asked
/// (a tester's find: in `--permission-mode default` the gate's `allow`
/// ran the repaired edit by itself, recorded in
/// shared/agent-hooks/claude-code-2.1.328/a_allow_permission_default):
/// Claude Code gets `ask` with the corrected `updatedInput` in every mode
/// but `acceptEdits` and `bypassPermissions`. Codex ignores `ask` (the edit
/// it would run is the model's): its rewrite stays `allow` in any mode.
#[test]
fn a_repair_asks_the_user_where_claude_codes_mode_would_have_asked() {
    for (agent, mode, decision) in [
        (GateAgent::ClaudeCode, "default", "ask"),
        (GateAgent::ClaudeCode, "plan", "ask"),
        (GateAgent::ClaudeCode, "a-mode-srview-does-not-know", "ask"),
        (GateAgent::ClaudeCode, "acceptEdits", "allow"),
        (GateAgent::ClaudeCode, "bypassPermissions", "allow"),
        (GateAgent::Codex, "default", "allow"),
    ] {
        let mut json: Value = serde_json::from_slice(&payload(agent, "b_deny_json")).expect("JSON");
        json["permission_mode"] = json!(mode);
        let judgment = judged(agent, json.to_string().as_bytes());
        assert_eq!(judgment.case, Case::Loose, "{agent:?} {mode}");
        let reply: Value = serde_json::from_slice(&judgment.reply().stdout).expect("JSON");
        let out = &reply["hookSpecificOutput"];
        assert_eq!(
            out["permissionDecision"], decision,
            "{agent:?} {mode}: {reply}"
        );
        let Answer::Rewrite { input, .. } = &judgment.answer else {
            panic!("{agent:?} {mode}: not a rewrite: {:?}", judgment.answer);
        };
        assert_eq!(&out["updatedInput"], input, "{agent:?} {mode}");
    }
    // A payload without a mode (an older Claude Code): the recorded
    // `acceptEdits` answer.
    let mut json: Value =
        serde_json::from_slice(&payload(GateAgent::ClaudeCode, "b_deny_json")).expect("JSON");
    json.as_object_mut().map(|o| o.remove("permission_mode"));
    let reply: Value = serde_json::from_slice(
        &judged(GateAgent::ClaudeCode, json.to_string().as_bytes())
            .reply()
            .stdout,
    )
    .expect("JSON");
    assert_eq!(reply["hookSpecificOutput"]["permissionDecision"], "allow");
}

/// A recorded payload judged as another agent's (a tester's find: Qwen
/// Code's settings holding Gemini CLI's hook line let every edit through
/// unjudged): its event or its edit tool says whose it is, and the call is
/// denied with the fix. A tool of the right agent that is not an edit
/// still gets no opinion.
#[test]
fn a_payload_of_another_agent_is_denied_with_the_hooks_fix() {
    let claude = payload(GateAgent::ClaudeCode, "a_allow");
    let qwen = payload(GateAgent::QwenCode, "a0_no_output");
    let gemini = payload(GateAgent::GeminiCli, "a0_no_output");
    let codex = payload(GateAgent::Codex, "a0_no_output");
    // Each deny: why the payload is not the agent's, then the same fix.
    let event = |event: &str, agent: &str, owner: &str| {
        format!(
            "this call's hook event is `{event}`, which {agent} never sends (it looks like \
             {owner}'s)"
        )
    };
    let tool = |tool: &str, agent: &str, owner: &str| {
        format!(
            "this call's tool `{tool}` is not one of {agent}'s edit tools but {owner}'s edit \
             tool"
        )
    };
    for (agent, bytes, why, owner) in [
        (
            GateAgent::GeminiCli,
            &qwen,
            event("PreToolUse", "Gemini CLI", "Qwen Code"),
            GateAgent::QwenCode,
        ),
        (
            GateAgent::ClaudeCode,
            &qwen,
            tool("edit", "Claude Code", "Qwen Code"),
            GateAgent::QwenCode,
        ),
        (
            GateAgent::QwenCode,
            &claude,
            tool("Edit", "Qwen Code", "Claude Code"),
            GateAgent::ClaudeCode,
        ),
        (
            GateAgent::Codex,
            &claude,
            tool("Edit", "Codex", "Claude Code"),
            GateAgent::ClaudeCode,
        ),
        (
            GateAgent::ClaudeCode,
            &gemini,
            event("BeforeTool", "Claude Code", "Gemini CLI"),
            GateAgent::GeminiCli,
        ),
        (
            GateAgent::QwenCode,
            &codex,
            tool("apply_patch", "Qwen Code", "Codex"),
            GateAgent::Codex,
        ),
    ] {
        let judgment = judged(agent, bytes);
        assert_eq!(judgment.case, Case::Unreadable, "{agent:?}");
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: {why}: the hook runs `srview gate --agent {}` for another agent, \
                 so srview cannot judge the edit and lets none through. Set the hook's command \
                 to the agent that runs it (`srview gate --agent {}`).",
                agent.id(),
                owner.id()
            ),
            "{agent:?}"
        );
    }
    // Each agent's own payload is judged, and its tools that edit nothing
    // get no opinion.
    for (agent, scenario) in [
        (GateAgent::ClaudeCode, "a_allow"),
        (GateAgent::QwenCode, "a0_no_output"),
    ] {
        let mut json: Value = serde_json::from_slice(&payload(agent, scenario)).expect("JSON");
        assert_eq!(judged(agent, json.to_string().as_bytes()).case, Case::Exact);
        json["tool_name"] = json!("Bash");
        assert_eq!(
            judged(agent, json.to_string().as_bytes()).case,
            Case::NotAnEdit
        );
    }
}

/// Qwen Code cannot rewrite, and its own matcher refuses the mis-indented
/// edit: denied, with what failed, the region and the exact edit.
#[test]
fn qwen_codes_recorded_mis_indented_edit_is_denied_with_the_exact_edit() {
    let agent = GateAgent::QwenCode;
    let judgment = judged(agent, &payload(agent, "b_deny_json"));
    assert_eq!(judgment.case, Case::Failing);
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: Qwen Code 0.24.4's edit tool would refuse this edit: Failed to edit, 0 \
         occurrences found for old_string in /home/user/project/inventory.py. No edits made. \
         The exact text in old_string was not found. Ensure you're not escaping content \
         incorrectly and check whitespace, indentation, and context. Use read_file tool to \
         verify.\n\
         old_string does not occur in the file; closest: lines 12-13 (similarity 0.92): \
         indentation or spacing differs from the file.\n\
         The lines (- a line as sent, + the file's line at that number, blank: the same in both):\n\
         \x20 -  sent |   qty: int\n\
         \x20 +    12 |     qty: int\n\
         \x20 -  sent |   price: float\n\
         \x20 +    13 |     price: float\n\
         Send this edit input instead (srview checked that Qwen Code places it exactly):\n\
         {\"file_path\":\"/home/user/project/inventory.py\",\"new_string\":\"    qty: int\\n    \
         price: float\\n    sku: str = \\\"\\\"\\n\",\"old_string\":\"    qty: int\\n    price: \
         float\\n\"}"
    );
    let offered = offered_input(agent, &deny_reason(&judgment)).expect("an exact edit");
    assert_exact_with_agents_matcher(agent, &offered, &inventory());
}

// --- built payloads in the recorded shapes ---------------------------------

/// A string edit's input in `agent`'s schema (Claude Code's `Edit` adds
/// `replace_all`, Gemini CLI's `replace` an `instruction`).
fn string_edit(agent: GateAgent, old: &str, new: &str) -> Value {
    let path = format!("{CWD}/inventory.py");
    match agent {
        GateAgent::ClaudeCode => {
            json!({"file_path": path, "old_string": old, "new_string": new, "replace_all": false})
        }
        GateAgent::GeminiCli => {
            json!({"file_path": path, "instruction": "Edit.", "old_string": old, "new_string": new})
        }
        _ => json!({"file_path": path, "old_string": old, "new_string": new}),
    }
}

/// A payload of `agent` carrying a string edit (Codex: a patch).
fn edit_payload(agent: GateAgent, input: Value) -> Vec<u8> {
    let scenario = match agent {
        GateAgent::ClaudeCode => "a_allow",
        _ => "a0_no_output",
    };
    payload_with(agent, scenario, input)
}

fn patch(body: &str) -> Value {
    json!({ "command": format!("*** Begin Patch\n*** Update File: inventory.py\n{body}*** End Patch") })
}

/// The agents whose edit tool takes an old and a new text (Codex: the same
/// edit as a one-hunk patch) in the payloads `old_new_payload` builds.
const OLD_NEW_AGENTS: [GateAgent; 6] = [
    GateAgent::ClaudeCode,
    GateAgent::Codex,
    GateAgent::GeminiCli,
    GateAgent::QwenCode,
    GateAgent::Opencode,
    GateAgent::Pi,
];

/// The agents whose edit tool takes an old and a new string (not Codex's
/// patch), in `OLD_NEW_AGENTS`' order.
const STRING_EDIT_AGENTS: [GateAgent; 5] = [
    GateAgent::ClaudeCode,
    GateAgent::GeminiCli,
    GateAgent::QwenCode,
    GateAgent::Opencode,
    GateAgent::Pi,
];

/// The edit `(old, new)` of inventory.py as `agent`'s tool input, in its
/// payload (Codex: a hunk removing `old`'s lines and adding `new`'s;
/// OpenCode and pi: srview's own JSON; the others: their recorded shape).
fn old_new_payload(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::Codex => {
            let minus: String = old.lines().map(|l| format!("-{l}\n")).collect();
            let plus: String = new.lines().map(|l| format!("+{l}\n")).collect();
            edit_payload(agent, patch(&format!("@@\n{minus}{plus}")))
        }
        GateAgent::Opencode => own_payload(
            "edit",
            json!({"filePath": format!("{CWD}/inventory.py"), "oldString": old, "newString": new}),
        ),
        GateAgent::Pi => own_payload(
            "edit",
            json!({"path": "inventory.py", "edits": [{"oldText": old, "newText": new}]}),
        ),
        _ => edit_payload(agent, string_edit(agent, old, new)),
    }
}

/// The recorded calls of the agents with fuzzy matchers: each agent with
/// the folder of tests/fixtures/matchers/recorded/ holding its tool's calls.
const FUZZY_RECORDED: [(GateAgent, &str); 5] = [
    (GateAgent::GeminiCli, "gemini_replace"),
    (GateAgent::QwenCode, "qwen_edit"),
    (GateAgent::Opencode, "opencode_edit"),
    (GateAgent::Opencode, "opencode_apply_patch"),
    (GateAgent::Pi, "pi_edit"),
];

/// An edit whose old text is not in the file, close to line 5: denied
/// with what failed, the closest region with its line numbers and
/// differing lines, and the corrected edit, which applies exactly with the
/// agent's own matcher. (Gemini CLI's fuzzy stage places it: see
/// `loose_edits_are_repaired_or_denied_with_the_exact_edit`.)
#[test]
fn a_failing_edit_is_denied_with_the_region_and_the_corrected_edit() {
    let old = "LOW_STOK = 5\nTAX_RATE = 0.2\n";
    let new = "LOW_STOCK = 10\nTAX_RATE = 0.2\n";
    for agent in [GateAgent::ClaudeCode, GateAgent::Codex, GateAgent::QwenCode] {
        let input = match agent {
            GateAgent::Codex => patch("@@\n-LOW_STOK = 5\n+LOW_STOCK = 10\n TAX_RATE = 0.2\n"),
            _ => string_edit(agent, old, new),
        };
        let judgment = judged(agent, &edit_payload(agent, input));
        assert_eq!(judgment.case, Case::Failing, "{agent:?}");
        let reason = deny_reason(&judgment);
        assert!(reason.starts_with("srview gate: "), "{reason}");
        assert!(reason.contains("closest: line"), "{agent:?}: {reason}");
        assert!(
            reason.contains("  -  sent | LOW_STOK = 5\n  +     5 | LOW_STOCK = 5\n"),
            "{agent:?}: {reason}"
        );
        let offered = offered_input(agent, &reason)
            .unwrap_or_else(|| panic!("{agent:?}: no corrected edit: {reason}"));
        assert_exact_with_agents_matcher(agent, &offered, &inventory());
    }
    // Codex's, word for word.
    let judgment = judged(
        GateAgent::Codex,
        &payload(GateAgent::Codex, "b_deny_unverifiable_patch"),
    );
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: Codex would refuse this patch: Failed to find expected lines in \
         /home/user/project/inventory.py:\nLOW_STOK = 5\n\
         hunk 1 of inventory.py failed: its lines are not in the file; closest: line 5 \
         (similarity 0.95): the closest region of the file has different content.\n\
         The lines (- a line as sent, + the file's line at that number, blank: the same in both):\n\
         \x20 -  sent | LOW_STOK = 5\n\
         \x20 +     5 | LOW_STOCK = 5\n\
         Send this patch instead (srview checked that Codex applies every hunk of it exactly):\n\
         *** Begin Patch\n*** Update File: inventory.py\n@@\n-LOW_STOCK = 5\n+LOW_STOCK = 10\n\
         *** End Patch\n"
    );
}

/// An old text that occurs twice, and one that is nowhere near: denied
/// with the agent's own error and why no corrected edit is offered.
#[test]
fn an_ambiguous_or_unplaceable_edit_is_denied_with_a_reason() {
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
    ] {
        let input = string_edit(agent, "        return None\n", "        return []\n");
        let judgment = judged(agent, &edit_payload(agent, input));
        assert_eq!(judgment.case, Case::Exact, "{agent:?}: occurs once");
        let input = string_edit(agent, "    return None\n", "    return []\n");
        let judgment = judged(agent, &edit_payload(agent, input));
        assert_eq!(judgment.case, Case::Failing, "{agent:?}");
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(
                "old_string occurs 2 times (line 27, line 32): the edit cannot tell which is meant"
            ),
            "{agent:?}: {reason}"
        );
        assert!(
            reason.contains("so no corrected edit is offered"),
            "{agent:?}: {reason}"
        );
        // What to send, in the agent's own terms: more context, or its own
        // replace-all; not "send the file's own old text" (it is).
        let all = match agent {
            GateAgent::GeminiCli => "set allow_multiple to true",
            _ => "set replace_all to true",
        };
        assert!(
            reason.contains(&format!(
                "so no corrected edit is offered. To change one of them, send old_string again \
                 with enough of the lines around it to occur only at that place; to change all \
                 2, {all}."
            )),
            "{agent:?}: {reason}"
        );
        assert!(
            !reason.contains("Read the file again"),
            "{agent:?}: {reason}"
        );
        assert_eq!(offered_input(agent, &reason), None);
        let input = string_edit(agent, "    weight_in_grams: float\n", "");
        let judgment = judged(agent, &edit_payload(agent, input));
        assert_eq!(judgment.case, Case::Failing, "{agent:?}");
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains("\nNo corrected edit: "),
            "{agent:?}: {reason}"
        );
        assert_eq!(offered_input(agent, &reason), None);
    }
}

/// Edits each agent would place through a loose stage of its own matcher:
/// rewritten to the exact edit where the agent can take one, denied with
/// that edit where it cannot (Qwen Code), and denied with the difference
/// when `loose=deny`.
#[test]
fn loose_edits_are_repaired_or_denied_with_the_exact_edit() {
    let cases = [
        // Gemini CLI's fuzzy stage places a typo.
        (
            GateAgent::GeminiCli,
            string_edit(
                GateAgent::GeminiCli,
                "LOW_STOK = 5\nTAX_RATE = 0.2\n",
                "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
            ),
            "fuzzy",
        ),
        // Qwen Code's trailing white space stage.
        (
            GateAgent::QwenCode,
            string_edit(
                GateAgent::QwenCode,
                "LOW_STOCK = 5   \n",
                "LOW_STOCK = 10\n",
            ),
            "line_pass_trimEnd+removedTrailingFinalEmptyLine",
        ),
        // Codex's trailing-space level.
        (
            GateAgent::Codex,
            patch("@@\n-LOW_STOCK = 5  \n+LOW_STOCK = 10\n"),
            "trailing-space",
        ),
    ];
    for (agent, input, stage) in cases {
        let judgment = judged(agent, &edit_payload(agent, input.clone()));
        assert_eq!(judgment.case, Case::Loose, "{agent:?}");
        assert_eq!(judgment.stage.as_deref(), Some(stage), "{agent:?}");
        let exact = if agent.can_rewrite() {
            rewritten_input(&judgment)
        } else {
            let reason = deny_reason(&judgment);
            offered_input(agent, &reason).unwrap_or_else(|| panic!("{reason}"))
        };
        assert_exact_with_agents_matcher(agent, &exact, &inventory());
        let denied = judge_on(
            agent,
            &edit_payload(agent, input),
            &inventory(),
            &Policy::parse("loose=deny").expect("a policy"),
        );
        let reason = deny_reason(&denied);
        assert!(
            reason.contains("loose stage") || reason.contains("only at level"),
            "{reason}"
        );
        assert_eq!(offered_input(agent, &reason), Some(exact), "{agent:?}");
    }
}

/// A Codex patch whose context is indented two columns in: repaired; with
/// `loose=deny`, the damage it would do as written is said (the new lines
/// shifted out of the class body, and Python's refusal of the file).
#[test]
fn a_loose_patch_denied_says_the_indentation_it_would_break() {
    let agent = GateAgent::Codex;
    let judgment = judge_on(
        agent,
        &payload(agent, "b_deny_json"),
        &inventory(),
        &Policy::parse("loose=deny").expect("a policy"),
    );
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "As written: hunk #1 of inventory.py matched only with white space ignored (trimmed) \
             at lines 12-13, and the new lines are 2 columns left of the lines they replace: in \
             code whose indentation has a meaning (Python, YAML, ...) this moves them out of the \
             enclosing block; the patch leaves inventory.py misindented: as written, line 14"
        ),
        "{reason}"
    );
    // What Python does with the file as sent (round 49 T-13).
    assert!(
        reason.contains("Python refuses the file (IndentationError"),
        "{reason}"
    );
    let offered = offered_input(agent, &reason).expect("the exact patch");
    assert_exact_with_agents_matcher(agent, &offered, &inventory());
}

/// An exact edit whose new text is already there (sent again after it was
/// applied): denied with the doubt spelled out, and, the review pane not
/// running, that the policy fell back to deny. `doubt=deny` says no
/// fallback; `doubt=allow` lets it through.
#[test]
fn an_exact_edit_already_applied_is_denied_with_the_doubt() {
    let old = "LOW_STOCK = 5\n";
    let new = "LOW_STOCK = 5\nTAX_RATE = 0.2\n";
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
    ] {
        let input = match agent {
            GateAgent::Codex => patch("@@\n LOW_STOCK = 5\n+TAX_RATE = 0.2\n"),
            _ => string_edit(agent, old, new),
        };
        let payload = edit_payload(agent, input);
        let judgment = judged(agent, &payload);
        assert_eq!(judgment.case, Case::Doubt, "{agent:?}");
        let reason = deny_reason(&judgment);
        assert!(reason.contains("already there"), "{agent:?}: {reason}");
        assert!(
            reason.contains(
                "(no review pane runs, so srview's policy doubt=review falls back to deny)"
            ),
            "{reason}"
        );
        let strict = Policy::parse("doubt=deny").expect("a policy");
        let reason = deny_reason(&judge_on(agent, &payload, &inventory(), &strict));
        assert!(!reason.contains("review pane"), "{reason}");
        let lenient = Policy::parse("doubt=allow").expect("a policy");
        let judgment = judge_on(agent, &payload, &inventory(), &lenient);
        assert_eq!(judgment.answer, Answer::NoOpinion);
    }
    let agent = GateAgent::ClaudeCode;
    let judgment = judged(agent, &edit_payload(agent, string_edit(agent, old, new)));
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: the edit of /home/user/project/inventory.py matches exactly (line 5), but \
         srview cannot stand behind its result: its new text is already there (lines 5-6): this \
         looks applied already, and applied again it repeats what it adds.\n\
         (no review pane runs, so srview's policy doubt=review falls back to deny)\n\
         Read the file again before editing it: it may already hold what this edit means."
    );
}

/// An exact edit the policy holds back (`exact=deny`, `exact=review` with
/// no pane) says why: the model read "srview gate: " and nothing more (a
/// new user's find).
#[test]
fn an_exact_edit_held_back_by_the_policy_says_so() {
    let file = "/home/user/project/inventory.py";
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
    ] {
        let payload = edit_payload(
            agent,
            string_edit(agent, "LOW_STOCK = 5\n", "LOW_STOCK = 10\n"),
        );
        let deny = Policy::parse("exact=deny").expect("a policy");
        let judgment = judge_on(agent, &payload, &inventory(), &deny);
        assert_eq!(judgment.case, Case::Exact, "{agent:?}");
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: the edit of {file} matches exactly, but srview's policy \
                 exact=deny lets no edit through.\nNothing in the edit needs changing: only the \
                 user can let it through (in srview's review pane, or by srview's policy)."
            ),
            "{agent:?}"
        );
        let review = Policy::parse("exact=review").expect("a policy");
        let reason = deny_reason(&judge_on(agent, &payload, &inventory(), &review));
        assert!(
            reason.starts_with(&format!(
                "srview gate: the edit of {file} matches exactly; srview's policy exact=review \
                 puts every edit to the review pane.\n(no review pane runs"
            )),
            "{agent:?}: {reason}"
        );
    }
}

/// A write of exactly what the file holds is in doubt; a write that
/// changes it has nothing to match and gets no opinion.
#[test]
fn writes_are_judged_for_content_already_there() {
    for (agent, tool) in [
        (GateAgent::ClaudeCode, "Write"),
        (GateAgent::GeminiCli, "write_file"),
        (GateAgent::QwenCode, "write_file"),
    ] {
        let mut json: Value =
            serde_json::from_slice(&edit_payload(agent, json!({}))).expect("JSON");
        json["tool_name"] = tool.into();
        let path = format!("{CWD}/inventory.py");
        json["tool_input"] = json!({"file_path": path, "content": inventory()});
        let judgment = judged(agent, json.to_string().as_bytes());
        assert_eq!(judgment.case, Case::Doubt, "{agent:?}");
        assert!(deny_reason(&judgment).contains("already holds exactly this content"));
        json["tool_input"]["content"] = "print('hi')\n".into();
        let judgment = judged(agent, json.to_string().as_bytes());
        assert_eq!(judgment.case, Case::Exact, "{agent:?}");
        assert_eq!(judgment.answer, Answer::NoOpinion);
    }
}

/// A payload that is no JSON, one without its tool input, an input whose
/// file is a folder: an explicit deny with the reason, in each agent's
/// format (the agents let an edit through when their hook fails).
#[test]
fn unreadable_payloads_and_files_are_denied_explicitly() {
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::ClineCli,
    ] {
        let judgment = judged(agent, b"{\"cwd\": \"/home/user/pro");
        assert_eq!(judgment.case, Case::Unreadable);
        assert_eq!(
            deny_reason(&judgment),
            "srview gate: the hook's payload cannot be read: it is not JSON (EOF while parsing \
             a string at line 1 column 23)"
        );
    }
    let agent = GateAgent::GeminiCli;
    assert_eq!(
        String::from_utf8_lossy(&judged(agent, b"").reply().stdout),
        r#"{"decision":"deny","reason":"srview gate: the hook's payload cannot be read: it is empty"}"#
    );
    let mut json: Value = serde_json::from_slice(&payload(agent, "a0_no_output")).expect("JSON");
    json["tool_input"] = json!({"file_path": format!("{CWD}/src"), "instruction": "x", "old_string": "a", "new_string": "b"});
    let folder = MemoryFs::new([("src/a.py".to_string(), "a\n".to_string())]);
    let judgment = judge(
        agent,
        json.to_string().as_bytes(),
        |_| folder,
        &Policy::default(),
    );
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: this replace cannot be judged, so it is denied: /home/user/project/src is \
         a directory\nCheck the path it names and send it again."
    );
    // An input the agent's own validation refuses: its words.
    json["tool_input"] = json!({"file_path": "a.py"});
    let judgment = judged(agent, json.to_string().as_bytes());
    assert_eq!(judgment.case, Case::Failing);
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: Gemini CLI 0.61.0's replace tool would refuse this replace: params must \
         have required property 'instruction'\nSend the replace again in the form it takes: the \
         error above says what is wrong with this one."
    );
    // Claude Code's Edit without its old text: srview cannot read it.
    let agent = GateAgent::ClaudeCode;
    let judgment = judged(agent, &edit_payload(agent, json!({"file_path": "a.py"})));
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: this Edit cannot be judged, so it is denied: the tool input cannot be \
         read: invalid Edit tool input: missing field `old_string` at line 1 column 20\nSend the \
         Edit again with every field it takes."
    );
}

// --- every recorded call of Gemini CLI, Qwen Code, OpenCode and pi ----------

/// One recorded call (tests/fixtures/matchers/recorded/FOLDER/*.json): the
/// files before it, its input, and what the real agent did.
struct RecordedCall {
    what: String,
    payload: Vec<u8>,
    files: MemoryFs,
    /// The file the edit names, before (`None`: a patch, or no such file).
    before: Option<String>,
    /// The agent reported success.
    ok: bool,
    /// It succeeded by a loose stage: the text it replaced is not the
    /// model's (from the recording: the stage the agent logged, or, where
    /// it logs none, an old text that is not in the file as sent).
    loose: bool,
    /// The agent's own error text, when it failed.
    error: Option<String>,
}

/// Each old text of a patch's hunks (its ` ` and `-` lines).
fn patch_old_texts(patch: &str) -> Vec<String> {
    let mut texts = vec![String::new()];
    for line in patch.lines() {
        if line.starts_with("@@") || line.starts_with("***") {
            if !texts.last().is_some_and(String::is_empty) {
                texts.push(String::new());
            }
            continue;
        }
        if let Some(rest) = line.strip_prefix(' ').or_else(|| line.strip_prefix('-')) {
            let last = texts.last_mut().expect("a text");
            last.push_str(rest);
            last.push('\n');
        }
    }
    texts.retain(|t| !t.is_empty());
    texts
}

fn recorded_calls(agent: GateAgent, folder: &str) -> Vec<RecordedCall> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/matchers/recorded")
        .join(folder);
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the recordings")
        .map(|e| e.expect("an entry").path())
        .collect();
    names.sort();
    names
        .into_iter()
        .map(|name| {
            let record: Value =
                serde_json::from_slice(&std::fs::read(&name).expect("a recording")).expect("JSON");
            let input = record["input"].clone();
            let what = name.display().to_string();
            let (files, before) = match &record["before"] {
                Value::String(text) => (project(text), Some(text.clone())),
                Value::Object(files) => (
                    MemoryFs::new(files.iter().map(|(path, text)| {
                        (path.clone(), text.as_str().expect("a file").to_string())
                    })),
                    None,
                ),
                _ => (MemoryFs::new([]), None),
            };
            let as_sent = |text: &str| {
                before
                    .as_deref()
                    .or_else(|| files.files.get("inventory.py").map(String::as_str))
                    .map(|b| b.trim_start_matches('\u{feff}').replace("\r\n", "\n"))
                    .is_some_and(|b| b.contains(text))
            };
            let (payload, ok, loose, error) = match folder {
                "gemini_replace" | "qwen_edit" => {
                    let exact = if folder == "qwen_edit" {
                        "literal"
                    } else {
                        "exact"
                    };
                    let ok = record["ok"].as_bool().expect("ok");
                    (
                        edit_payload(agent, input),
                        ok,
                        ok && record["stage"] != exact,
                        (!ok).then(|| record["result"].as_str().expect("an error").to_string()),
                    )
                }
                "opencode_edit" | "opencode_apply_patch" => {
                    let ok = record["ok"].as_bool().expect("ok");
                    let loose = ok
                        && match folder {
                            "opencode_edit" => record["stage"] != "SimpleReplacer",
                            _ => patch_old_texts(input["patchText"].as_str().expect("a patch"))
                                .iter()
                                .any(|t| !as_sent(t)),
                        };
                    let tool = record["tool"].as_str().expect("a tool");
                    (
                        own_payload(tool, input),
                        ok,
                        loose,
                        (!ok).then(|| record["text"].as_str().expect("an error").to_string()),
                    )
                }
                _ => {
                    let ok = record["isError"] == false;
                    let loose = ok
                        && input["edits"].as_array().is_some_and(|edits| {
                            edits
                                .iter()
                                .any(|e| e["oldText"].as_str().is_some_and(|t| !as_sent(t)))
                        });
                    (
                        own_payload("edit", input),
                        ok,
                        loose,
                        (!ok).then(|| record["resultText"].as_str().expect("an error").to_string()),
                    )
                }
            };
            RecordedCall {
                what,
                payload,
                files,
                before,
                ok,
                loose,
                error,
            }
        })
        .collect()
}

/// Every call of Gemini CLI 0.61.0 (`replace`), Qwen Code 0.24.4 (`edit`),
/// OpenCode 1.18.33 (`edit`, `apply_patch`) and pi 0.73.1 (`edit`) recorded
/// from the real CLIs (tests/fixtures/matchers/recorded/: the tool input,
/// the files before and what the agent did), fed to the gate in that
/// agent's payload shape (the recorded hook payload's for Gemini CLI and
/// Qwen Code, srview's plugin's and extension's JSON for OpenCode and pi):
/// each one the agent placed loosely is stopped (rewritten or denied), each
/// one it refused is denied with a reason (holding the agent's own error),
/// each exact one passes; every exact edit offered or rewritten applies
/// exactly with the agent's own matcher.
#[test]
fn every_recorded_call_of_the_agents_with_fuzzy_matchers_is_judged() {
    let mut tally = std::collections::BTreeMap::<(&str, &str), usize>::new();
    for (agent, folder) in FUZZY_RECORDED {
        for call in recorded_calls(agent, folder) {
            let what = &call.what;
            let files = call.files.clone();
            let judgment = judge(agent, &call.payload, |_| files, &Policy::default());
            match (call.ok, call.loose) {
                (true, false) => {
                    assert_eq!(judgment.case, Case::Exact, "{what}: {:?}", judgment.answer);
                    assert_eq!(judgment.answer, Answer::NoOpinion, "{what}");
                }
                (true, true) => {
                    assert_eq!(judgment.case, Case::Loose, "{what}: {:?}", judgment.answer);
                    assert!(
                        matches!(
                            judgment.answer,
                            Answer::Rewrite { .. } | Answer::Deny { .. }
                        ),
                        "{what}: not stopped: {:?}",
                        judgment.answer
                    );
                }
                (false, _) => {
                    let reason = deny_reason(&judgment);
                    assert!(reason.starts_with("srview gate: "), "{what}: {reason}");
                    let own = call.error.as_deref().expect("the agent's error");
                    let first = own.lines().next().unwrap_or_default();
                    assert!(reason.contains(first), "{what}: {reason}");
                }
            }
            let exact = match &judgment.answer {
                Answer::NoOpinion => None,
                Answer::Rewrite { .. } => Some(rewritten_input(&judgment)),
                Answer::Deny { reason } => offered_input(agent, reason),
                Answer::Context { .. } => panic!("{what}: a context answers only after a failure"),
            };
            if let Some(exact) = &exact {
                match (folder, call.before.as_deref()) {
                    ("opencode_apply_patch", _) => {
                        assert_exact_with_opencodes_apply_patch(exact, &call.files, what);
                    }
                    (_, Some(before)) => assert_exact_with_agents_matcher(agent, exact, before),
                    (_, None) => panic!("{what}: an edit offered for a file that is not there"),
                }
            }
            let key = (folder, judgment.case.name());
            *tally.entry(key).or_default() += 1;
            if exact.is_some() && judgment.case != Case::Exact {
                *tally.entry((folder, "corrected")).or_default() += 1;
            }
        }
    }
    let tally: Vec<String> = tally
        .into_iter()
        .map(|((folder, what), n)| format!("{folder} {what} {n}"))
        .collect();
    assert_eq!(
        tally,
        [
            "gemini_replace corrected 3",
            "gemini_replace exact 8",
            "gemini_replace failing 2",
            "gemini_replace loose 4",
            "opencode_apply_patch corrected 1",
            "opencode_apply_patch exact 1",
            "opencode_apply_patch failing 1",
            // One fewer since session 32: `d2_ambiguous_exact_unique_fuzzy`'s
            // `return item` occurs twice (lines 27 and 45, trimmed); its
            // re-indented edit picked line 27 while the message said the
            // edit cannot tell which is meant (a fresh tester's find).
            "opencode_edit corrected 3",
            "opencode_edit exact 6",
            "opencode_edit failing 2",
            "opencode_edit loose 7",
            // Two fewer since session 31: pi's `c2`/`c3` calls wrote straight
            // quotes where the file has curly ones (`Don’t`, `“low stock”`);
            // the correction made the file's own curly quotes straight, which
            // the model did not mean: withheld now (see
            // `a_repair_never_straightens_the_files_curly_quotes`).
            "pi_edit corrected 4",
            "pi_edit exact 10",
            "pi_edit failing 9",
            "pi_edit loose 5",
            "qwen_edit corrected 2",
            "qwen_edit exact 5",
            "qwen_edit failing 1",
            "qwen_edit loose 2"
        ],
        "the recorded calls by case, and those given an exact edit"
    );
}

// --- the binary --------------------------------------------------------------

/// A temporary project holding `inventory.py` with `content`, and its path
/// as text.
fn project_on_disk(content: &str) -> (tempfile::TempDir, String) {
    let project = tempfile::tempdir().expect("a project");
    let root = project.path().to_string_lossy().into_owned();
    std::fs::write(project.path().join("inventory.py"), content).expect("the file");
    (project, root)
}

/// `agent`'s recorded payload of `scenario`, its `cwd` (and the paths under
/// it) moved to `root`.
fn payload_moved(agent: GateAgent, scenario: &str, root: &str) -> String {
    let recorded = String::from_utf8(payload(agent, scenario)).expect("UTF-8");
    recorded.replace(CWD, root)
}

/// Runs `srview gate ARGS` in `dir` with `stdin`; (stdout, stderr, exit
/// status).
fn run_gate(dir: &Path, args: &[&str], stdin: &[u8]) -> (Vec<u8>, String, Option<i32>) {
    use std::io::Write;
    let mut child = support::runner::srview(["gate"])
        .args(args)
        .cwd(dir)
        .spawn_piped();
    // srview reads stdin to its end when it reads the payload; a refusal
    // before reading it (a usage error) may close the pipe first, so a
    // broken pipe here is no failure: the exit status and output say.
    let mut input = child.stdin.take().expect("stdin");
    match input.write_all(stdin) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        written => written.expect("the payload is written"),
    }
    drop(input);
    let out = child.wait_with_output().expect("srview ends");
    (
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

/// The recorded Gemini CLI payload, its `cwd` a temporary project holding
/// the recorded file: the rewrite on stdout, exit 0, and the decision in
/// `.srview/gate.jsonl` (a folder only its owner reads, ignored by git).
/// An unreadable payload then: an explicit deny, recorded too.
#[test]
fn the_binary_answers_and_records_each_decision() {
    use std::os::unix::fs::PermissionsExt;
    let (project, root) = project_on_disk(&inventory());
    let moved = payload_moved(GateAgent::GeminiCli, "b_deny_json", &root);
    let (stdout, stderr, code) =
        run_gate(project.path(), &["--agent", "gemini-cli"], moved.as_bytes());
    assert_eq!(code, Some(0), "{stderr}");
    let expected = format!(
        r#"{{"hookSpecificOutput":{{"hookEventName":"BeforeTool","tool_input":{{"file_path":"{root}/inventory.py","instruction":"Add a sku field to Item.","new_string":"    qty: int\n    price: float\n    sku: str = \"\"\n","old_string":"    qty: int\n    price: float\n"}}}}}}"#
    );
    assert_eq!(String::from_utf8_lossy(&stdout), expected);
    assert_eq!(stderr, "");
    let folder = project.path().join(".srview");
    let mode = std::fs::metadata(&folder)
        .expect("the folder")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);
    assert_eq!(
        std::fs::read_to_string(folder.join(".gitignore")).expect("a .gitignore"),
        "*\n"
    );
    let (stdout, _, code) = run_gate(project.path(), &["--agent", "gemini-cli"], b"{\"cwd\": 1}");
    assert_eq!(code, Some(0));
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        r#"{"decision":"deny","reason":"srview gate: the hook's payload cannot be read: it has no \"cwd\" text"}"#
    );
    // The unreadable payload names no folder: recorded where srview ran.
    let record = std::fs::read_to_string(folder.join("gate.jsonl")).expect("the record");
    let lines: Vec<Value> = record
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(lines.len(), 2, "{record}");
    assert_eq!(
        (&lines[1]["case"], &lines[1]["decision"], &lines[1]["tool"]),
        (&json!("unreadable"), &json!("deny"), &Value::Null)
    );
    let line = &lines[0];
    let input: Value = serde_json::from_str::<Value>(&moved).expect("JSON")["tool_input"].clone();
    assert_eq!(line["agent"], "gemini-cli");
    assert_eq!(line["sessionId"], "6e7f0000-0000-4000-8000-000000000003");
    assert_eq!(line["callId"], Value::Null);
    assert_eq!(line["tool"], "replace");
    assert_eq!(line["file"], format!("{root}/inventory.py"));
    assert_eq!(
        line["inputSha256"],
        srview::gate::sha256_hex(input.to_string().as_bytes())
    );
    assert_eq!(line["stage"], "flexible");
    assert_eq!(line["case"], "loose");
    assert_eq!(line["policy"], "repair");
    assert_eq!(line["decision"], "repair");
    assert!(
        line["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("srview gate: rewrote this replace")),
        "{line}"
    );
    let time = line["time"].as_str().expect("a time");
    assert_eq!(
        (time.len(), &time[10..11], &time[23..]),
        (24, "T", "Z"),
        "{time}"
    );
}

/// A `--policy` srview cannot read is a deny (the agent would otherwise
/// let the edit through); an agent srview does not know is a usage error,
/// exit 2, which each command-hook agent reads as a deny too; a payload
/// that does not arrive within `--timeout` is denied before the agent's
/// own timeout.
#[test]
fn the_binary_refuses_on_every_path() {
    let here = tempfile::tempdir().expect("a folder");
    let dir = here.path();
    let (stdout, _, code) = run_gate(
        dir,
        &["--agent", "qwen-code", "--policy", "loose=ask"],
        b"{}",
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"srview gate: --policy: unknown action \"ask\" (allow, deny, repair, review): the edit is denied"}}"#
    );
    // A case given twice is refused as the other mistakes are (the last
    // one winning, `doubt=deny,doubt=allow` let doubts through).
    let (stdout, _, code) = run_gate(
        dir,
        &[
            "--agent",
            "claude-code",
            "--policy",
            "doubt=deny,doubt=allow",
        ],
        b"{}",
    );
    assert_eq!(code, Some(0));
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"srview gate: --policy: doubt is given twice (doubt=deny, then doubt=allow): give each case once: the edit is denied"}}"#
    );
    let (stdout, stderr, code) = run_gate(dir, &["--agent", "aider"], b"{}");
    assert_eq!((stdout.len(), code), (0, Some(2)));
    assert!(
        stderr.contains("invalid value 'aider' for '--agent <AGENT>'"),
        "{stderr}"
    );

    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_srview"))
        .current_dir(dir)
        .args(["gate", "--agent", "codex", "--timeout", "0.6"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("srview runs");
    // stdin is held open: the payload never ends.
    let open_stdin = child.stdin.take();
    let out = child.wait_with_output().expect("srview ends");
    drop(open_stdin);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"srview gate: srview did not finish judging this edit within 0.45 s (--timeout 0.6): it is denied"}}"#
    );
}

/// A judgment that runs out of time is recorded with its call: the tool,
/// the session and call id, the file and the input's hash (a user's find:
/// such a decision was recorded without them, so `srview session` could
/// not join it). Codex's failing patch on a 200,000-line file takes a
/// debug build seconds to judge; `--timeout 0.2` gives it 0.15 s.
#[test]
fn a_judgment_out_of_time_is_recorded_with_its_call() {
    let mut big = inventory();
    for i in 0..50_000 {
        big.push_str(&format!("\n\ndef helper_{i}(x):\n    return x + {i}\n"));
    }
    let (project, root) = project_on_disk(&big);
    let agent = GateAgent::Codex;
    let input = patch("@@\n-LOW_STOK = 5\n+LOW_STOCK = 10\n TAX_RATE = 0.2\n");
    let moved = String::from_utf8(edit_payload(agent, input.clone()))
        .expect("UTF-8")
        .replace(CWD, &root);
    let (stdout, stderr, code) = run_gate(
        project.path(),
        &["--agent", "codex", "--timeout", "0.2"],
        moved.as_bytes(),
    );
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&stdout),
        r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"srview gate: srview did not finish judging this edit within 0.15 s (--timeout 0.2): it is denied"}}"#
    );
    let record = std::fs::read_to_string(project.path().join(".srview/gate.jsonl"))
        .expect("recorded in the payload's cwd");
    let line: Value = serde_json::from_str(record.trim_end()).expect("one JSON line");
    assert_eq!(line["agent"], "codex");
    assert_eq!(line["tool"], "apply_patch");
    assert_eq!(line["callId"], "call_patch_01");
    assert_eq!(line["sessionId"], "01a231f4-a096-79b3-bad6-8bb3ac51b182");
    assert_eq!(line["file"], format!("{root}/inventory.py"));
    assert_eq!(
        line["inputSha256"],
        srview::gate::sha256_hex(input.to_string().as_bytes())
    );
    assert_eq!(
        (&line["case"], &line["decision"], &line["stage"]),
        (&json!("unreadable"), &json!("deny"), &Value::Null)
    );
}

/// A short `--timeout` leaves most of it to the judgment (the margin kept
/// for answering is a quarter of it, at most half a second): the recorded
/// exact edit under `--timeout 0.2` gets no opinion, not a deny for want of
/// time. `--timeout 0` (or any value naming no time) judges without a
/// limit of srview's own, and says so on stderr (the agent's log, not the
/// model's).
#[test]
fn short_timeouts_still_judge_the_edit() {
    let (project, root) = project_on_disk(&inventory());
    let moved = payload_moved(GateAgent::QwenCode, "a0_no_output", &root);
    for timeout in ["0.2", "1", "0", "NaN", "1e30"] {
        let (stdout, stderr, code) = run_gate(
            project.path(),
            &["--agent", "qwen-code", "--timeout", timeout],
            moved.as_bytes(),
        );
        assert_eq!(
            (String::from_utf8_lossy(&stdout).as_ref(), code),
            ("", Some(0)),
            "--timeout {timeout}: {stderr}"
        );
        match timeout {
            "0.2" | "1" => assert_eq!(stderr, "", "--timeout {timeout}"),
            _ => assert!(
                stderr.starts_with("srview: gate: --timeout ")
                    && stderr.ends_with(" names no time limit: the edit is judged without one\n"),
                "--timeout {timeout}: {stderr}"
            ),
        }
    }
}

/// Every cut-off prefix of every recorded payload is an explicit deny
/// (never a panic, never no opinion).
#[test]
fn every_cut_off_payload_is_denied() {
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
    ] {
        let dir = fixtures().join(agent.id());
        for entry in std::fs::read_dir(&dir).expect("the fixtures") {
            let path = entry.expect("an entry").path();
            if !path.to_string_lossy().ends_with(".payload.json") {
                continue;
            }
            let bytes = std::fs::read(&path).expect("a payload");
            let whole = bytes.trim_ascii_end().len();
            for end in 0..whole {
                let judgment = judged(agent, &bytes[..end]);
                assert_eq!(judgment.case, Case::Unreadable, "{}: {end}", path.display());
                assert!(deny_reason(&judgment).starts_with("srview gate: "));
            }
        }
    }
}

// --- OpenCode and pi (srview's plugin and extension), Cline (documented) ----

/// srview's own JSON, as its OpenCode plugin and pi extension send it.
fn own_payload(tool: &str, args: Value) -> Vec<u8> {
    json!({"tool": tool, "args": args, "cwd": CWD, "sessionID": "ses_1", "callID": "call_1"})
        .to_string()
        .into_bytes()
}

/// The recordings' mis-indented edit, sent to OpenCode's `edit` (placed by
/// its loose `LineTrimmedReplacer`: rewritten) and pi's `edit` (refused:
/// denied with the exact edit; with `failing=repair`, rewritten); an exact
/// one gets no opinion. Each rewrite applies exactly with the agent's own
/// matcher.
#[test]
fn opencode_and_pi_edits_are_judged_with_their_own_matchers() {
    let (old, new) = (
        "  qty: int\n  price: float\n",
        "  qty: int\n  price: float\n  sku: str = \"\"\n",
    );
    let path = format!("{CWD}/inventory.py");
    let agent = GateAgent::Opencode;
    let payload = own_payload(
        "edit",
        json!({"filePath": path, "oldString": old, "newString": new}),
    );
    let judgment = judged(agent, &payload);
    assert_eq!(
        (judgment.case, judgment.stage.as_deref()),
        (Case::Loose, Some("LineTrimmedReplacer"))
    );
    let args = rewritten_input(&judgment);
    assert_eq!(
        args,
        json!({"filePath": path, "oldString": "    qty: int\n    price: float\n", "newString": "    qty: int\n    price: float\n    sku: str = \"\"\n"})
    );
    assert_exact_with_agents_matcher(agent, &args, &inventory());
    let exact = own_payload(
        "edit",
        json!({"filePath": path, "oldString": "LOW_STOCK = 5\n", "newString": "LOW_STOCK = 10\n"}),
    );
    assert_eq!(judged(agent, &exact).answer, Answer::NoOpinion);

    let agent = GateAgent::Pi;
    let edits = json!({"path": "inventory.py", "edits": [{"oldText": old, "newText": new}]});
    let payload = own_payload("edit", edits);
    let judgment = judged(agent, &payload);
    assert_eq!(judgment.case, Case::Failing);
    let offered = offered_input(agent, &deny_reason(&judgment)).expect("the exact edit");
    assert_exact_with_agents_matcher(agent, &offered, &inventory());
    let repair = Policy::parse("failing=repair").expect("a policy");
    let judgment = judge_on(agent, &payload, &inventory(), &repair);
    assert_eq!(rewritten_input(&judgment), offered);
    let exact = own_payload(
        "edit",
        json!({"path": "inventory.py", "edits": [{"oldText": "LOW_STOCK = 5\n", "newText": "LOW_STOCK = 10\n"}]}),
    );
    assert_eq!(judged(agent, &exact).answer, Answer::NoOpinion);
}

/// Cline's documented payload (without the `tool_call` Cline CLI 3.0.65
/// adds: `real_cli.rs`): its `editor` judged with srview's exact-string
/// semantics, a deny in its documented format.
#[test]
fn clines_documented_payload_is_answered_in_its_documented_format() {
    let payload = json!({
        "clineVersion": "3.0.65", "hookName": "PreToolUse", "timestamp": "0", "taskId": "task-1",
        "workspaceRoots": [CWD], "userId": "u",
        "preToolUse": {"toolName": "editor", "parameters": {"path": "inventory.py", "old_text": "    weight: float\n", "new_text": ""}},
    });
    let judgment = judged(GateAgent::ClineCli, payload.to_string().as_bytes());
    assert_eq!(judgment.case, Case::Failing);
    // Cline refuses it itself: srview's finding goes to the model as the
    // hook's context, with no cancel (which would end Cline's task).
    let reply = reply_json(&judgment);
    assert_eq!(reply.get("cancel"), None, "{reply}");
    assert!(
        reply["context"]
            .as_str()
            .is_some_and(|m| m.starts_with("srview gate: this editor fails: ")),
        "{reply}"
    );
    let record: Value = serde_json::from_str(&judgment.record("t")).expect("the record");
    assert_eq!(record["decision"], "context");
}

// --- any edit near the file's own text ---------------------------------------

mod near_edits {
    use super::*;
    use proptest::prelude::*;

    /// A window of the file's lines, sent with a typical slip.
    fn slip(lines: &[&str], kind: u8, at: usize) -> String {
        let mut out: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        let i = at % out.len();
        match kind % 6 {
            0 => {}
            1 => out.iter_mut().for_each(|l| {
                if let Some(rest) = l.strip_prefix("  ") {
                    *l = rest.to_string();
                }
            }),
            2 => out[i].push_str("   "),
            3 => {
                if let Some((c, _)) = out[i].char_indices().find(|(_, c)| c.is_alphabetic()) {
                    out[i].insert(c + 1, 'q');
                }
            }
            4 => out[i] = out[i].replace('"', "\u{201C}"),
            _ => out[i] = out[i].replace('\u{2013}', "-"),
        }
        out.iter().map(|l| format!("{l}\n")).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

        /// Whatever the slip, every agent's answer holds together: exact
        /// is no opinion, and every rewrite and every exact edit offered
        /// applies exactly with the agent's own matcher; nothing panics.
        #[test]
        fn every_exact_edit_offered_applies_exactly(
            start in 0usize..50,
            len in 1usize..4,
            kind in 0u8..6,
            at in 0usize..4,
        ) {
            let file = inventory();
            let lines: Vec<&str> = file.lines().collect();
            let start = start.min(lines.len() - len);
            let window = &lines[start..start + len];
            let old = slip(window, kind, at);
            let mut changed: Vec<String> = window.iter().map(|l| l.to_string()).collect();
            changed[0].push_str("  # changed");
            let new: String = changed.iter().map(|l| format!("{l}\n")).collect();
            for agent in OLD_NEW_AGENTS {
                let judgment = judged(agent, &old_new_payload(agent, &old, &new));
                let exact = match &judgment.answer {
                    Answer::NoOpinion => {
                        prop_assert!(matches!(judgment.case, Case::Exact), "{agent:?}: {:?}", judgment.case);
                        None
                    }
                    Answer::Rewrite { .. } => Some(rewritten_input(&judgment)),
                    Answer::Deny { reason } => offered_input(agent, reason),
                    Answer::Context { .. } => panic!("a context answers only after a failure"),
                };
                if let Some(exact) = exact {
                    assert_exact_with_agents_matcher(agent, &exact, &file);
                }
            }
        }
    }
}

/// Claude Code never shows PreToolUse an edit it cannot match; after the
/// failure, its `PostToolUseFailure` hook (documented, not recorded: best
/// effort) gets srview's diagnosis and the corrected edit as context for
/// the model. An edit that did not fail there gets no opinion.
#[test]
fn claude_codes_failed_edit_gets_the_diagnosis_after_the_failure() {
    let agent = GateAgent::ClaudeCode;
    let mut json: Value = serde_json::from_slice(&payload(agent, "a_allow")).expect("JSON");
    json["hook_event_name"] = "PostToolUseFailure".into();
    json["error"] = "String to replace not found in file.".into();
    json["tool_input"] = string_edit(agent, "LOW_STOK = 5\n", "LOW_STOCK = 10\n");
    let judgment = judged(agent, json.to_string().as_bytes());
    assert_eq!(judgment.case, Case::Failing);
    let reply = reply_json(&judgment);
    let out = &reply["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PostToolUseFailure");
    let text = out["additionalContext"].as_str().expect("a context");
    assert!(
        text.starts_with("srview gate: this Edit fails: String to replace not found in file."),
        "{text}"
    );
    let offered = offered_input(agent, text).expect("the corrected edit");
    assert_exact_with_agents_matcher(agent, &offered, &inventory());
    json["tool_input"] = string_edit(agent, "LOW_STOCK = 5\n", "LOW_STOCK = 10\n");
    assert_eq!(
        judged(agent, json.to_string().as_bytes()).answer,
        Answer::NoOpinion
    );
}

/// A hook wired to the gate on another event (`PostToolUse`, a prompt's
/// hook) gets no opinion: the edit already ran, and a `PreToolUse` deny of
/// it would tell the model a written edit failed.
#[test]
fn events_after_an_edit_ran_get_no_opinion() {
    let mut json: Value =
        serde_json::from_slice(&payload(GateAgent::ClaudeCode, "a_allow")).expect("JSON");
    for event in ["PostToolUse", "UserPromptSubmit"] {
        json["hook_event_name"] = event.into();
        json["tool_input"]["old_string"] = "no such text in the file".into();
        let judgment = judged(GateAgent::ClaudeCode, json.to_string().as_bytes());
        assert_eq!(judgment.answer, Answer::NoOpinion, "{event}");
        assert_eq!(judgment.case, Case::NotAnEdit, "{event}");
    }
}

/// A repair never turns the file's curly quotes into the model's straight
/// ones (a new user's find: Claude Code's quote repair and Codex's patch
/// correction wrote `Don't` over the file's `Don’t`, which Claude Code
/// itself keeps). Since round 36 the correction carries the file's form
/// onto the line the model changes: the loose edit is rewritten to the
/// exact edit that keeps the file's `’` and adds the model's `!`.
#[test]
fn a_repair_never_straightens_the_files_curly_quotes() {
    let file = inventory().replace(
        "LOW_STOCK = 5\n",
        "LOW_STOCK = 5\nNOTE = \"Don\u{2019}t panic\"\n",
    );
    for agent in [GateAgent::ClaudeCode, GateAgent::Codex] {
        let input = match agent {
            GateAgent::Codex => patch("@@\n-NOTE = \"Don't panic\"\n+NOTE = \"Don't panic!\"\n"),
            _ => string_edit(
                agent,
                "NOTE = \"Don't panic\"\n",
                "NOTE = \"Don't panic!\"\n",
            ),
        };
        let judgment = judged_over(agent, &edit_payload(agent, input), &file);
        assert_eq!(judgment.case, Case::Loose, "{agent:?}");
        let rewritten = rewritten_input(&judgment).to_string();
        assert!(
            rewritten.contains("NOTE = \\\"Don\u{2019}t panic!\\\"")
                && !rewritten.contains("Don't"),
            "{agent:?}: {rewritten}"
        );
    }
}

/// Each sentence after a quoted text starts on a line of its own, even
/// when the quoted text has no newline at its end (a new user's find:
/// "| label = “LOW” ifpi 0.73.1's edit tool also rewrites ...").
#[test]
fn sentences_never_run_into_quoted_lines() {
    let input = json!({"path": "inventory.py", "edits": [
        {"oldText": "LOW_STOCK = 5\n", "newText": "LOW_STOCK = 10\n"},
        {"oldText": "    label = \u{201C}low\u{201D} if", "newText": "    label = \u{201C}LOW\u{201D} if"}
    ]});
    let judgment = judge_on(
        GateAgent::Pi,
        &own_payload("edit", input),
        &inventory(),
        &Policy::parse("loose=deny").expect("a policy"),
    );
    assert_eq!(judgment.case, Case::Loose);
    let reason = deny_reason(&judgment);
    for line in reason.lines().filter(|l| l.starts_with("    | ")) {
        assert!(
            !line.contains(" would place ") && !line.contains(" also rewrites "),
            "a sentence ran into a quoted line: {line:?}\n{reason}"
        );
    }
    assert!(reason.contains("only by its loose stage"), "{reason}");
}

/// A failing patch whose hunk the diagnosis cannot correct says why once
/// (a new user's find: the "No corrected hunk" sentence came twice).
#[test]
fn a_patch_without_a_correction_says_why_once() {
    let agent = GateAgent::Codex;
    let input = patch("@@\n-LOW_STOCK = 4\n+LOW_STOCK = 5\n");
    let judgment = judged(agent, &edit_payload(agent, input));
    assert_eq!(judgment.case, Case::Failing);
    let reason = deny_reason(&judgment);
    let said =
        reason.matches("No corrected hunk").count() + reason.matches("No corrected edit").count();
    assert_eq!(said, 1, "{reason}");
}

// --- paths as the agent's tool reads them ----------------------------------

/// A write of inventory.py whose content stands in for the rest of the file.
const STAND_IN: &str =
    "\"\"\"Inventory helpers.\"\"\"\n\nLOW_STOCK = 5\n\n# ... rest of the file unchanged ...\n";

/// pi's `@inventory.py` and Gemini CLI's `replace` of `@inventory.py` are
/// judged as the file the agent edits (a tester's find: the matcher placed
/// the edit in inventory.py while the trust checks read `@inventory.py`,
/// which does not exist, and a write deleting the file's lines passed as
/// exact): the doubt, the correction and the file named are inventory.py's.
#[test]
fn an_at_path_is_judged_as_the_file_the_agent_edits() {
    let write = own_payload(
        "write",
        json!({"path": "@inventory.py", "content": STAND_IN}),
    );
    let judgment = judged(GateAgent::Pi, &write);
    assert_case(&judgment, Case::Doubt);
    assert_eq!(judgment.file.as_deref(), Some("inventory.py"));
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains("stands in for lines it leaves out"),
        "{reason}"
    );
    let record: Value =
        serde_json::from_str(&judgment.record("2026-01-01T00:00:00.000Z")).expect("JSON");
    assert_eq!(record["file"], format!("{CWD}/inventory.py"));
    // A failing edit gets the diagnosis and the exact edit to send.
    let (old, new) = (
        "  qty: int\n  price: float\n",
        "  qty: int\n  price: float\n  sku: str\n",
    );
    let edits = json!({"path": "@inventory.py", "edits": [{"oldText": old, "newText": new}]});
    let judgment = judged(GateAgent::Pi, &own_payload("edit", edits));
    assert_case(&judgment, Case::Failing);
    let offered = offered_input(GateAgent::Pi, &deny_reason(&judgment)).expect("the exact edit");
    assert_exact_with_agents_matcher(GateAgent::Pi, &offered, &inventory());
    // An exact edit that defines a function twice.
    let twice = "def cheapest(items):\n    return None\n\n\ndef low_stock(";
    let edits = json!({"path": "@inventory.py", "edits": [{"oldText": "def low_stock(", "newText": twice}]});
    assert_case(
        &judged(GateAgent::Pi, &own_payload("edit", edits)),
        Case::Doubt,
    );
    // Gemini CLI drops the `@` of a file that does not exist so named.
    // Its loose edit is rewritten to the exact one (no file, no rewrite).
    let mut input = string_edit(GateAgent::GeminiCli, old, new);
    input["file_path"] = "@inventory.py".into();
    let judgment = judged(
        GateAgent::GeminiCli,
        &edit_payload(GateAgent::GeminiCli, input),
    );
    assert_eq!(judgment.file.as_deref(), Some("inventory.py"));
    let rewritten = rewritten_input(&judgment);
    assert_eq!(rewritten["old_string"], "    qty: int\n    price: float\n");
}

/// pi's `~/project/inventory.py` is `$HOME/project/inventory.py`, as pi
/// expands it: the binary judges and records that file.
#[test]
fn a_pi_tilde_path_is_judged_as_the_file_under_home() {
    let home = tempfile::tempdir().expect("a home");
    let project = home.path().join("project");
    std::fs::create_dir(&project).expect("the project");
    std::fs::write(project.join("inventory.py"), inventory()).expect("the file");
    let root = project.to_string_lossy().into_owned();
    let payload = json!({"tool": "write", "args": {"path": "~/project/inventory.py", "content": STAND_IN},
        "cwd": root, "sessionID": "ses_1", "callID": "call_1"});
    let out = support::runner::srview(["gate", "--agent", "pi"])
        .cwd(&project)
        .env("HOME", &home.path().to_string_lossy())
        .stdin(payload.to_string().as_bytes())
        .output();
    let stdout = support::runner::stdout(&out);
    assert!(stdout.contains("\"decision\":\"deny\""), "{stdout}");
    assert!(
        stdout.contains("stands in for lines it leaves out"),
        "{stdout}"
    );
    let record = std::fs::read_to_string(project.join(".srview/gate.jsonl")).expect("the record");
    let line: Value = serde_json::from_str(record.trim_end()).expect("one JSON line");
    assert_eq!(line["file"], format!("{root}/inventory.py"));
    assert_eq!(line["case"], "doubt");
}

// --- the gate's own folders --------------------------------------------------

/// A new OpenCode plugin or pi extension written beside srview's (it runs
/// in the agent's process and can rewrite every edit the gate let
/// through: a tester's find, it passed as exact) is a doubt the user
/// decides, as a change of the agent's hook settings is; the same file
/// elsewhere is exact.
#[test]
fn a_new_plugin_or_extension_beside_the_gate_is_a_doubt() {
    let plugin = "export const Z = async () => ({\"tool.execute.before\": async (i, o) => {}})\n";
    let cases = [
        (
            GateAgent::Opencode,
            "filePath",
            format!("{CWD}/.opencode/plugin/zz-after.js"),
        ),
        (
            GateAgent::Opencode,
            "filePath",
            "/home/user/.config/opencode/plugins/zz.ts".to_string(),
        ),
        (GateAgent::Pi, "path", ".pi/extensions/zz.ts".to_string()),
        (
            GateAgent::Pi,
            "path",
            "/home/user/.pi/agent/extensions/zz/index.ts".to_string(),
        ),
    ];
    for (agent, key, path) in cases {
        let judgment = judged(
            agent,
            &own_payload("write", json!({key: path, "content": plugin})),
        );
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(&format!(
                "the edit of {path} matches exactly, but srview cannot stand behind its result: \
                 it changes a file in the folder the agent runs its plugins, extensions or hooks \
                 from, beside srview's gate (a new one runs too), which may turn srview's gate \
                 off: the user decides."
            )),
            "{agent:?}: {reason}"
        );
    }
    let elsewhere = own_payload(
        "write",
        json!({"filePath": format!("{CWD}/src/plugin/zz.js"), "content": plugin}),
    );
    assert_case(&judged(GateAgent::Opencode, &elsewhere), Case::Exact);
}

// --- what each agent is told -------------------------------------------------

/// An empty old text over a file that exists, which pi's and OpenCode's
/// `edit` refuse: the agent's own error and the step, true for each (pi's
/// edit never creates a file: a tester's find, "an empty old text only
/// creates a file" was said), without Claude Code's "Cannot create new
/// file" under it.
#[test]
fn an_empty_old_text_over_a_file_is_told_in_the_agents_own_terms() {
    let cases = [
        (
            GateAgent::Pi,
            json!({"path": "inventory.py", "edits": [{"oldText": "", "newText": "print('hi')\n"}]}),
            "write tool (path, content)",
        ),
        (
            GateAgent::Opencode,
            json!({"filePath": format!("{CWD}/inventory.py"), "oldString": "", "newString": "print('hi')\n"}),
            "write tool (filePath, content)",
        ),
    ];
    for (agent, input, write) in cases {
        let judgment = judged(agent, &own_payload("edit", input));
        assert_case(&judgment, Case::Failing);
        let reason = deny_reason(&judgment);
        assert!(
            reason.ends_with(&format!(
                "The file exists already, and an edit with an empty old text changes no file \
                 that exists: send its whole content with the {write}, or, to change part of \
                 it, send the text it replaces there as the old text."
            )),
            "{agent:?}: {reason}"
        );
        for wrong in [
            "Cannot create new file",
            "No corrected edit",
            "only creates a file",
        ] {
            assert!(!reason.contains(wrong), "{agent:?}: {reason}");
        }
    }
}

/// A Codex patch refused for a path it names (a move onto a folder, a
/// file added below a file) or for having no section: the cause, and the
/// step that can fix it, not "read the file again" (a tester's find: the
/// hunk's text was fine).
#[test]
fn a_patch_refused_for_its_path_names_the_path() {
    let files = || {
        MemoryFs::new([
            ("util.js".to_string(), "let a = 1;\n".to_string()),
            ("app.py".to_string(), "x = 1\n".to_string()),
            (".claude/settings.json".to_string(), "{}\n".to_string()),
        ])
    };
    let cases = [
        (
            "*** Update File: util.js\n*** Move to: .claude\n@@\n-let a = 1;\n+let a = 2;\n",
            ".claude is a folder: the patch's `*** Move to:` must name a file.\nCheck the path \
             it names and send it again.",
        ),
        (
            "*** Add File: app.py/x.py\n+y = 2\n",
            "app.py is a file, so app.py/x.py cannot be written.\nCheck the path it names and \
             send it again.",
        ),
        (
            "",
            "The patch has no file section, so it changes nothing: send the changes as `*** \
             Update File:` sections (or no patch, if no change was meant).",
        ),
    ];
    let agent = GateAgent::Codex;
    for (body, said) in cases {
        let input = json!({"command": format!("*** Begin Patch\n{body}*** End Patch")});
        let judgment = judge(
            agent,
            &edit_payload(agent, input),
            |_| files(),
            &Policy::default(),
        );
        assert_case(&judgment, Case::Failing);
        let reason = deny_reason(&judgment);
        assert!(reason.ends_with(said), "{body}: {reason}");
        for wrong in ["No corrected edit", "Read the file again"] {
            assert!(!reason.contains(wrong), "{body}: {reason}");
        }
    }
}
