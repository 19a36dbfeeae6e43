//! The gate's judgment where it fell short: an OpenCode `apply_patch` hunk
//! placed loosely or failing (now corrected as a Codex patch is, checked
//! with OpenCode's own matcher), a Claude Code `Edit` indented unlike the
//! file (re-indented), a loose stage that deletes a blank line the model's
//! edit does not (said), srview's SEARCH/REPLACE words in the messages (the
//! agent's own field names instead), and a file that does not exist (said,
//! with the agent's tool to create one).

use super::*;

fn opencode_patch(body: &str) -> Vec<u8> {
    own_payload(
        "apply_patch",
        json!({"patchText": format!("*** Begin Patch\n*** Update File: inventory.py\n{body}*** End Patch")}),
    )
}

/// The corrected OpenCode patch applies exactly with OpenCode's own
/// `apply_patch` matcher over `content`.
fn assert_exact_opencode_patch(args: &Value, content: &str) {
    assert_exact_with_opencodes_apply_patch(args, &project(content), "the corrected patch");
}

/// The recordings' patch two columns in, sent to OpenCode's `apply_patch`:
/// placed only by its loose pass, so rewritten to the patch with the
/// file's own lines (the added line re-indented), which OpenCode's matcher
/// places exactly. With `loose=deny` the same patch is offered in the deny.
/// A hunk with a typo (OpenCode refuses it): denied with the closest region
/// and the corrected patch.
#[test]
fn an_opencode_patch_placed_loosely_or_failing_gets_the_exact_patch() {
    let agent = GateAgent::Opencode;
    let loose =
        opencode_patch("@@ class Item:\n   qty: int\n   price: float\n+  sku: str = \"\"\n");
    let judgment = judged(agent, &loose);
    assert_eq!(judgment.case, Case::Loose);
    let args = rewritten_input(&judgment);
    assert_eq!(
        args["patchText"],
        "*** Begin Patch\n*** Update File: inventory.py\n@@ class Item:\n     qty: int\n     \
         price: float\n+    sku: str = \"\"\n*** End Patch\n"
    );
    assert_exact_opencode_patch(&args, &inventory());
    let denied = judge_on(
        agent,
        &loose,
        &inventory(),
        &Policy::parse("loose=deny").expect("a policy"),
    );
    let reason = deny_reason(&denied);
    assert_eq!(offered_input(agent, &reason), Some(args));

    let failing = opencode_patch("@@\n-LOW_STOK = 5\n+LOW_STOCK = 10\n");
    let judgment = judged(agent, &failing);
    assert_eq!(judgment.case, Case::Failing);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains("  -  sent | LOW_STOK = 5\n  +     5 | LOW_STOCK = 5\n"),
        "{reason}"
    );
    let offered = offered_input(agent, &reason).unwrap_or_else(|| panic!("{reason}"));
    assert_exact_opencode_patch(&offered, &inventory());
}

/// Claude Code's `Edit` with the recordings' old text two columns in (its
/// own check refuses it; the gate sees it after the failure, or under
/// PreToolUse in a hook that gets it): the corrected edit is the one with
/// the file's indentation, new line included, and it applies exactly. The
/// same with curly quotes where the file has straight ones: straightened
/// and re-indented.
#[test]
fn a_claude_code_edit_indented_unlike_the_file_gets_the_reindented_edit() {
    let agent = GateAgent::ClaudeCode;
    // The edit `old` -> `new` fails; the deny reason, and the corrected edit
    // it offers, which the agent's own matcher places exactly.
    let corrected = |old: &str, new: &str| {
        let judgment = judged(agent, &edit_payload(agent, string_edit(agent, old, new)));
        assert_eq!(judgment.case, Case::Failing, "{old:?}");
        let reason = deny_reason(&judgment);
        let offered = offered_input(agent, &reason).unwrap_or_else(|| panic!("{reason}"));
        assert_exact_with_agents_matcher(agent, &offered, &inventory());
        (offered, reason)
    };
    let (offered, reason) = corrected(
        "  qty: int\n  price: float\n",
        "  qty: int\n  price: float\n  sku: str = \"\"\n",
    );
    assert_eq!(offered["old_string"], "    qty: int\n    price: float\n");
    assert_eq!(
        offered["new_string"],
        "    qty: int\n    price: float\n    sku: str = \"\"\n"
    );
    assert!(!reason.contains("No corrected edit"), "{reason}");

    // Six columns in: no substring of the file's line, so Claude Code's
    // own check (quotes normalised) refuses it too.
    let (offered, _) = corrected(
        "      label = \u{201C}low\u{201D} if item.qty < LOW_STOCK else \u{201C}ok\u{201D}\n",
        "      label = \u{201C}LOW\u{201D} if item.qty < LOW_STOCK else \u{201C}ok\u{201D}\n",
    );
    assert_eq!(
        offered["new_string"],
        "    label = \"LOW\" if item.qty < LOW_STOCK else \"ok\"\n"
    );
}

/// A loose stage whose found text holds a blank line its written text
/// does not: every line of both is shown (blank ones too), and the blank
/// line deleted beyond the model's edit is said. Qwen Code's trimEnd line
/// pass matches the model's `TAX_RATE = 0.2   ` and one blank line as three
/// lines (the old text's final newline is a line of its own there), so it
/// would delete both blank lines after `TAX_RATE`; the exact edit deletes
/// the one the model named.
#[test]
fn a_blank_line_a_loose_stage_deletes_is_shown_and_said() {
    let agent = GateAgent::QwenCode;
    let input = string_edit(agent, "TAX_RATE = 0.2   \n\n", "TAX_RATE = 0.25\n");
    let judgment = judged(agent, &edit_payload(agent, input));
    assert_eq!(judgment.case, Case::Loose, "{:?}", judgment.answer);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "It would replace (every line, blank ones included):\n    | TAX_RATE = 0.2\n    | \n    \
             | \nwith:\n    | TAX_RATE = 0.25\nIt would delete 1 blank line the model's edit does \
             not delete.\n"
        ),
        "{reason}"
    );
    let offered = offered_input(agent, &reason).unwrap_or_else(|| panic!("{reason}"));
    assert_eq!(offered["old_string"], "TAX_RATE = 0.2\n\n");
    assert_eq!(offered["new_string"], "TAX_RATE = 0.25\n");
    assert_exact_with_agents_matcher(agent, &offered, &inventory());
}

/// srview's diagnosis speaks of SEARCH and REPLACE blocks; the model reads
/// its own tool's words: no message of a failing or loose edit of any
/// agent says SEARCH or REPLACE.
#[test]
fn messages_use_the_agents_own_words() {
    let slips = [
        (
            "LOW_STOK = 5\nTAX_RATE = 0.2\n",
            "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
        ),
        ("    return None\n", "    return []\n"),
        ("LOW_STOCK = 5   \n", "LOW_STOCK = 10\n"),
        (
            "def cheapest(items):\n    if not items:\n        return []\n",
            "x\n",
        ),
    ];
    for agent in super::OLD_NEW_AGENTS {
        for (old, new) in slips {
            let payload = super::old_new_payload(agent, old, new);
            let judgment = judge_on(
                agent,
                &payload,
                &inventory(),
                &Policy::parse("loose=deny").expect("a policy"),
            );
            if let Some(message) = judgment.answer.message() {
                assert!(
                    !message.contains("SEARCH") && !message.contains("REPLACE"),
                    "{agent:?} {old:?}: {message}"
                );
            }
        }
    }
}

/// An edit of a file that does not exist: the model is told so and how to
/// create one with its own agent's tool, never to read the file again and
/// resend an old text.
#[test]
fn an_edit_of_a_missing_file_says_so_and_how_to_create_it() {
    let missing = format!("{CWD}/inventry.py");
    let cases = [
        (
            GateAgent::ClaudeCode,
            json!({"file_path": missing, "old_string": "a\n", "new_string": "b\n", "replace_all": false}),
            "the Write tool (file_path, content)",
        ),
        (
            GateAgent::GeminiCli,
            json!({"file_path": missing, "instruction": "x", "old_string": "a\n", "new_string": "b\n"}),
            "the write_file tool (file_path, content)",
        ),
        (
            GateAgent::QwenCode,
            json!({"file_path": missing, "old_string": "a\n", "new_string": "b\n"}),
            "the write_file tool (file_path, content)",
        ),
        (
            GateAgent::Codex,
            json!({"command": "*** Begin Patch\n*** Update File: inventry.py\n@@\n-a\n+b\n*** End Patch"}),
            "`*** Add File: inventry.py` section",
        ),
    ];
    for (agent, input, tool) in cases {
        let judgment = judged(agent, &edit_payload(agent, input));
        assert_eq!(judgment.case, Case::Failing, "{agent:?}");
        let reason = deny_reason(&judgment);
        let name = if agent == GateAgent::Codex {
            "inventry.py"
        } else {
            missing.as_str()
        };
        assert!(
            reason.contains(&format!(
                "\n{name} does not exist, so there is no text to replace. To create it, "
            )),
            "{agent:?}: {reason}"
        );
        assert!(reason.contains(tool), "{agent:?}: {reason}");
        assert!(
            !reason.contains("Read the file again"),
            "{agent:?}: {reason}"
        );
    }
    for (agent, tool, args, words) in [
        (
            GateAgent::Opencode,
            "edit",
            json!({"filePath": missing, "oldString": "a\n", "newString": "b\n"}),
            "the write tool (filePath, content)",
        ),
        (
            GateAgent::Pi,
            "edit",
            json!({"path": "inventry.py", "edits": [{"oldText": "a\n", "newText": "b\n"}]}),
            "the write tool (path, content)",
        ),
    ] {
        let judgment = judged(agent, &own_payload(tool, args));
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(" does not exist, so there is no text to replace. To create it, "),
            "{agent:?}: {reason}"
        );
        assert!(reason.contains(words), "{agent:?}: {reason}");
    }
}

/// `(old, new)` string edits of `inventory.py` in every case the gate
/// tells apart: exact, failing (a typo, an old text at two places, a
/// no-op), loose (trailing spaces, another indentation, curly quotes),
/// doubts (applied already, an old text cutting a word).
const WORDING_EDITS: [(&str, &str); 9] = [
    ("LOW_STOCK = 5\n", "LOW_STOCK = 10\n"),
    (
        "LOW_STOK = 5\nTAX_RATE = 0.2\n",
        "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
    ),
    (
        "        return item\n    return None\n",
        "        return item\n    return []\n",
    ),
    ("    return None\n", "    return []\n"),
    ("LOW_STOCK = 5\n", "LOW_STOCK = 5\n"),
    ("LOW_STOCK = 5   \n", "LOW_STOCK = 10\n"),
    (
        "  qty: int\n  price: float\n",
        "  qty: int\n  price: float\n  sku: str = \"\"\n",
    ),
    ("LOW_STOCK = 5\n", "LOW_STOCK = 5\nTAX_RATE = 0.2\n"),
    ("OW_STOCK = 5", "OW_STOCK = 6"),
];

/// The edit `(old, new)` as `agent`'s tool input, in its payload.
fn wording_payload(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::ClineCli => json!({
            "clineVersion": "3.0.65", "hookName": "PreToolUse", "timestamp": "0",
            "taskId": "task-1", "workspaceRoots": [CWD], "userId": "u",
            "preToolUse": {"toolName": "editor", "parameters": {"path": "inventory.py",
                "old_text": old, "new_text": new}},
        })
        .to_string()
        .into_bytes(),
        _ => super::old_new_payload(agent, old, new),
    }
}

/// Every message the gate gives the model over a range of edits of each
/// agent, under the policies that word them differently: `(what, text)`
/// for each deny, repair and context.
fn every_message() -> Vec<(String, Judgment)> {
    let policies = [
        "",
        "loose=deny",
        "loose=review",
        "failing=repair",
        "doubt=deny,loose=deny",
    ];
    let mut judged_all = Vec::new();
    for agent in GateAgent::ALL {
        for (old, new) in WORDING_EDITS {
            let payload = wording_payload(agent, old, new);
            for policy in policies {
                let parsed = if policy.is_empty() {
                    Policy::default()
                } else {
                    Policy::parse(policy).expect("a policy")
                };
                let judgment = judge_on(agent, &payload, &inventory(), &parsed);
                judged_all.push((format!("{agent:?} {old:?} -> {new:?} [{policy}]"), judgment));
            }
        }
    }
    // Patches: a missing file to update and to delete, a file added over
    // an existing one.
    for body in [
        "*** Update File: inventry.py\n@@\n-a\n+b\n",
        "*** Delete File: inventry.py\n",
        "*** Add File: inventory.py\n+x = 1\n",
    ] {
        let input = json!({"command": format!("*** Begin Patch\n{body}*** End Patch")});
        let agent = GateAgent::Codex;
        let judgment = judged(agent, &edit_payload(agent, input));
        judged_all.push((format!("Codex {body:?}"), judgment));
        let args = json!({"patchText": format!("*** Begin Patch\n{body}*** End Patch")});
        let agent = GateAgent::Opencode;
        let judgment = judged(agent, &own_payload("apply_patch", args));
        judged_all.push((format!("OpenCode apply_patch {body:?}"), judgment));
    }
    // Every recorded call of the agents with fuzzy matchers.
    for (agent, folder) in super::FUZZY_RECORDED {
        for call in super::recorded_calls(agent, folder) {
            for policy in ["", "loose=deny"] {
                let parsed = if policy.is_empty() {
                    Policy::default()
                } else {
                    Policy::parse(policy).expect("a policy")
                };
                let files = call.files.clone();
                let judgment = judge(agent, &call.payload, |_| files, &parsed);
                judged_all.push((format!("{} [{policy}]", call.what), judgment));
            }
        }
    }
    judged_all
}

/// No text the model reads says "the reference" (srview's own word for the
/// program a dialect reproduces: a user's find): it names the agent's own
/// matcher (`Codex's apply_patch replaces it whole`).
#[test]
fn no_message_says_the_reference() {
    let all = every_message();
    for (what, judgment) in &all {
        if let Some(message) = judgment.answer.message() {
            assert!(
                !message.to_lowercase().contains("the reference"),
                "{what}: {message}"
            );
        }
    }
    let added =
        json!({"command": "*** Begin Patch\n*** Add File: inventory.py\n+x = 1\n*** End Patch"});
    let agent = GateAgent::Codex;
    assert!(
        deny_reason(&judged(agent, &edit_payload(agent, added)))
            .contains("(54 lines): Codex's apply_patch replaces it whole.\n")
    );
}

/// Every deny says what to do next (a tester's find: Gemini CLI's model
/// read why no correction was offered, and nothing more).
#[test]
fn every_deny_says_what_to_do_next() {
    let next_steps = [
        "Send ",
        "send ",
        "Read the file",
        "To create it",
        "To change one",
        "check its path",
        "Nothing needs sending",
        "Merge them",
    ];
    let all = every_message();
    let mut denies = 0;
    let mut steps = std::collections::BTreeSet::new();
    for (what, judgment) in &all {
        let Some(message) = judgment.answer.message() else {
            continue;
        };
        if matches!(judgment.answer, Answer::Deny { .. }) {
            denies += 1;
            assert!(
                next_steps.iter().any(|step| message.contains(step)),
                "{what}: no next step: {message}"
            );
            // The step is the finding's own field, set where it was made:
            // the deny ends with its sentence, unless it offers a corrected
            // edit, says why none is offered, or names a missing file (each
            // with its own step), or the explanation says it (`Said`).
            let step = judgment
                .next_step
                .unwrap_or_else(|| panic!("{what}: no next step set: {message}"));
            let tool = judgment.call.as_ref().map_or("", |c| c.tool.as_str());
            let other = [
                "instead (srview checked",
                "No corrected edit",
                "does not exist",
            ]
            .iter()
            .any(|words| message.contains(words));
            // An old text found at several places: the explanation says
            // what to send to change one (in the agent's terms).
            let text = step.text(tool).filter(|_| step != NextStep::Ambiguous);
            match text {
                Some(text) if !other => {
                    assert!(message.ends_with(&text), "{what}: {step:?}: {message}");
                    steps.insert(step);
                }
                Some(_) => {}
                None => {
                    assert!(
                        matches!(step, NextStep::Said | NextStep::Ambiguous),
                        "{what}"
                    );
                    // The explanation's last line (the policy's fallback,
                    // in brackets, comes after it).
                    let last = message
                        .trim_end()
                        .rsplit('\n')
                        .find(|line| !line.starts_with('('))
                        .unwrap_or_default();
                    assert!(
                        next_steps.iter().any(|words| last.contains(words)),
                        "{what}: the explanation says no step: {message}"
                    );
                }
            }
        }
    }
    assert!(all.len() > 400 && denies > 230, "{} {denies}", all.len());
    // Most steps are said by some deny of the corpus.
    assert!(steps.len() >= 5, "{steps:?}");
    let added =
        json!({"command": "*** Begin Patch\n*** Add File: inventory.py\n+x = 1\n*** End Patch"});
    let agent = GateAgent::Codex;
    assert_eq!(
        deny_reason(&judged(agent, &edit_payload(agent, added))),
        "srview gate: the patch matches exactly, but srview cannot stand behind its result: the \
         patch adds inventory.py, which exists (54 lines): Codex's apply_patch replaces it whole.\n\
         (no review pane runs, so srview's policy doubt=review falls back to deny)\n\
         Read the file, then send an `*** Update File:` section with the lines that change (an \
         `*** Add File:` section replaces the whole file)."
    );
    let agent = GateAgent::GeminiCli;
    let same = string_edit(agent, "LOW_STOCK = 5\n", "LOW_STOCK = 5\n");
    assert_eq!(
        deny_reason(&judged(agent, &edit_payload(agent, same))),
        "srview gate: Gemini CLI 0.61.0's replace tool would refuse this replace: No changes to \
         apply. The old_string and new_string are identical in file: \
         /home/user/project/inventory.py\n\
         No changes to make: old_string and new_string are exactly the same.\n\
         No corrected edit: srview cannot stand behind a correction of this edit.\n\
         Nothing needs sending if the file already reads as meant; if a change was meant, send \
         the edit again with the change in its new text."
    );
}

/// A Codex patch deleting a file that does not exist: Codex refuses it
/// (`Failed to delete file PATH`); the model is told the file does not
/// exist and nothing needs deleting, never to add it (a tester's find:
/// the advice was an `*** Add File:` section).
#[test]
fn a_patch_deleting_a_missing_file_says_nothing_needs_deleting() {
    let agent = GateAgent::Codex;
    let input = json!({"command": "*** Begin Patch\n*** Delete File: inventry.py\n*** End Patch"});
    let judgment = judged(agent, &edit_payload(agent, input));
    assert_eq!(judgment.case, Case::Failing);
    let reason = deny_reason(&judgment);
    assert_eq!(
        reason,
        "srview gate: Codex would refuse this patch: Failed to delete file \
         /home/user/project/inventry.py\n\
         inventry.py does not exist, so there is nothing to delete: send the patch again without \
         its `*** Delete File: inventry.py` section (a patch of that section alone needs no \
         sending); if another file was meant, check its path (a relative path is read from the \
         agent's working folder)."
    );
    assert!(!reason.contains("Add File"), "{reason}");
    let agent = GateAgent::Opencode;
    let args = json!({"patchText": "*** Begin Patch\n*** Delete File: inventry.py\n*** End Patch"});
    let reason = deny_reason(&judged(agent, &own_payload("apply_patch", args)));
    assert!(
        reason.ends_with(
            "\nThe file does not exist, so there is nothing to delete: send the patch again \
             without its `*** Delete File:` section (a patch of that section alone needs no \
             sending)."
        ),
        "{reason}"
    );
    assert!(!reason.contains("Read the file again"), "{reason}");
}

/// issue 31, "Done when": the decision bytes in each command-hook agent's
/// recorded shape. srview's deny and rewrite have exactly the recorded
/// answers' fields, nested as recorded (the values are srview's own: the
/// recorded texts are examples), as one line of compact JSON, exit 0; an
/// exact edit's answer is the recorded empty stdout.
#[test]
fn every_answer_has_the_recorded_answers_shape() {
    /// The JSON with every value but objects' keys blanked.
    fn shape(json: &Value) -> Value {
        match json {
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(key, value)| (key.clone(), shape(value)))
                    .collect(),
            ),
            _ => Value::Null,
        }
    }
    let recorded =
        |agent: GateAgent, scenario: &str| -> Value { shape(&recorded_answer(agent, scenario)) };
    let deny_loose = Policy::parse("loose=deny").expect("a policy");
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
    ] {
        let sent = payload(agent, "b_deny_json");
        let mut answers = vec![(
            "deny",
            judge_on(agent, &sent, &inventory(), &deny_loose),
            recorded(agent, "b_deny_json"),
        )];
        if agent != GateAgent::QwenCode {
            answers.push((
                "rewrite",
                judged(agent, &sent),
                recorded(agent, "c_rewrite"),
            ));
        }
        for (what, judgment, want) in answers {
            let reply = judgment.reply();
            assert_eq!(reply.exit_code, 0, "{agent:?} {what}");
            let text = String::from_utf8(reply.stdout.clone()).expect("UTF-8");
            assert_eq!(text.lines().count(), 1, "{agent:?} {what}: {text}");
            let json: Value = serde_json::from_str(&text).expect("JSON");
            assert_eq!(
                json.to_string(),
                text.trim_end(),
                "compact: {agent:?} {what}"
            );
            assert_eq!(shape(&json), want, "{agent:?} {what}: {text}");
        }
    }
    for (agent, scenario) in [
        (GateAgent::Codex, "a0_no_output"),
        (GateAgent::GeminiCli, "a0_no_output"),
        (GateAgent::QwenCode, "a0_no_output"),
    ] {
        let recorded = read(agent, &format!("{scenario}.recorded-stdout.txt"));
        let reply = judged(agent, &payload(agent, scenario)).reply();
        assert_eq!((reply.stdout, reply.exit_code), (recorded, 0), "{agent:?}");
    }
}

/// `agent` is denied `payload` on `content` with a reason that offers no
/// corrected edit and says `said`.
#[track_caller]
fn assert_denied_without_correction(agent: GateAgent, payload: &[u8], content: &str, said: &str) {
    let judgment = judged_over(agent, payload, content);
    let reason = deny_reason(&judgment);
    assert!(
        offered_input(agent, &reason).is_none(),
        "{agent:?}: {reason}"
    );
    assert!(
        reason.contains(said),
        "{agent:?}: {said:?} not in: {reason}"
    );
}

/// A fresh tester's find (round 34, #11): an old text sent 2 columns short
/// of a function body at column 4, plus a new line at column 0. Re-indented
/// as a loose hunk, the new line lands at column 2, which no enclosing
/// block has: Python refuses the file. Every agent's correction runs the
/// same Python indentation check before srview stands behind it: Gemini
/// CLI and OpenCode get no rewrite, pi and Qwen Code no "corrected edit",
/// Claude Code none either; each is told why.
#[test]
fn a_repair_that_would_misindent_python_is_withheld_for_every_agent() {
    let content = "def load_demo():\n    inv = Inventory()\n    inv.add(Item(\"A-100\", \"bolts\", 40))\n    \
                   inv.add(Item(\"A-200\", \"nuts\", 3))\n    return inv\n";
    let old =
        "  inv.add(Item(\"A-100\", \"bolts\", 40))\n  inv.add(Item(\"A-200\", \"nuts\", 3))\n";
    let new = format!("{old}DEMO_LOADED = True\n");
    for agent in super::STRING_EDIT_AGENTS {
        assert_denied_without_correction(
            agent,
            &super::old_new_payload(agent, old, &new),
            content,
            "\nNo corrected edit: the corrected edit is in doubt: as written, line 5 \
             (`DEMO_LOADED = True`) is at column 2, which matches no enclosing block's \
             indentation (columns 0, 4 there): Python refuses the file (IndentationError: \
             unindent does not match any outer indentation level)",
        );
    }
}

/// A fresh tester's find (round 34, #03): the model's line differs from the
/// file's only in the spaces inside a string literal, and its edit changes
/// that line. Gemini CLI's regex stage would place it (loose): no rewrite
/// to the model's spacing; Claude Code and Qwen Code: no corrected edit.
/// Each is told why.
#[test]
fn spaces_inside_a_string_literal_are_never_corrected_away() {
    let content = "def footer(total):\n    print(\"-\" * 20)\n    print(\"Total:    %8.2f\" % total)\n    print(\"-\" * 20)\n";
    let (old, new) = (
        "    print(\"Total: %8.2f\" % total)\n",
        "    print(\"Total: %8.2f EUR\" % total)\n",
    );
    for agent in [
        GateAgent::GeminiCli,
        GateAgent::ClaudeCode,
        GateAgent::QwenCode,
    ] {
        assert_denied_without_correction(
            agent,
            &edit_payload(agent, string_edit(agent, old, new)),
            content,
            "file line 3 differs from the edit's line only in white space, but inside a \
             string literal (the file has `Total:    %8.2f`), and the edit changes that line: \
             written with the model's spacing, the string's content (what the program \
             prints) would change, and whether the file's spacing is to be kept cannot be told",
        );
    }
}

/// A fresh tester's find (round 34, #12): the file writes `café` decomposed
/// (NFD: `e` + U+0301), the edit composed (NFC) on a line it leaves
/// unchanged. Gemini CLI and Qwen Code were denied with two lines that look
/// identical, "differs in more than white space", no corrected edit and
/// "read the file again" (a loop: the model re-composes what it reads).
/// Now the message says the lines differ in Unicode normalisation with the
/// code points, and the corrected edit (the file's own bytes for the
/// unchanged line) is offered, placed exactly by the agent's own matcher,
/// as Codex's corrected patch was.
#[test]
fn a_line_differing_only_in_unicode_normalisation_is_named_and_corrected() {
    let content = "NAME = \"cafe\u{301}\"\nX = 1\n";
    let (old, new) = (
        "NAME = \"caf\u{e9}\"\nX = 1\n",
        "NAME = \"caf\u{e9}\"\nX = 2\n",
    );
    for agent in [GateAgent::GeminiCli, GateAgent::QwenCode, GateAgent::Codex] {
        let input = match agent {
            GateAgent::Codex => patch("@@\n NAME = \"caf\u{e9}\"\n-X = 1\n+X = 2\n"),
            _ => string_edit(agent, old, new),
        };
        let judgment = judged_over(agent, &edit_payload(agent, input), content);
        let reason = deny_reason(&judgment);
        if agent != GateAgent::Codex {
            assert!(
                reason.contains(
                    "\nFile line 1 and the line as sent look identical but differ in Unicode \
                     normalisation: the file writes `e\u{301}` as U+0065 U+0301 (decomposed, \
                     NFD), the edit as U+00E9 (composed, NFC).\n"
                ),
                "{agent:?}: {reason}"
            );
            assert!(
                !reason.contains("Read the file again"),
                "{agent:?}: {reason}"
            );
        }
        let offered = offered_input(agent, &reason)
            .unwrap_or_else(|| panic!("{agent:?}: no corrected edit: {reason}"));
        assert_exact_with_agents_matcher(agent, &offered, content);
        if agent != GateAgent::Codex {
            assert_eq!(
                offered["old_string"], "NAME = \"cafe\u{301}\"\nX = 1\n",
                "{agent:?}"
            );
            assert_eq!(
                offered["new_string"], "NAME = \"cafe\u{301}\"\nX = 2\n",
                "{agent:?}"
            );
        }
    }
}

/// A fresh tester's find (round 35, #05): the file's string holds a
/// no-break space (French typography, `"Total\u{a0}: %s EUR"`), the model
/// sends the line with a plain space and changes its format. pi, Gemini CLI
/// and OpenCode were rewritten silently to the model's plain space, and
/// Claude Code and Qwen Code offered that as a corrected edit (the
/// program's output changed); a special space inside a literal is data as
/// much as a run of spaces. Each agent is denied with no corrected edit,
/// and told which space the file has (the model cannot see it).
#[test]
fn a_special_space_inside_a_string_literal_is_never_corrected_away() {
    let (old, new) = (
        "    return \"Total : %s EUR\" % total\n",
        "    return \"Total : %.2f EUR\" % total\n",
    );
    for (space, code) in [('\u{a0}', "U+00A0"), ('\u{202f}', "U+202F")] {
        let content = format!("def label(total):\n    return \"Total{space}: %s EUR\" % total\n");
        for agent in super::STRING_EDIT_AGENTS
            .into_iter()
            .chain([GateAgent::Codex])
        {
            let line = match agent {
                GateAgent::Codex => "in hunk 1 of inventory.py, the file's line",
                _ => "file line 2",
            };
            assert_denied_without_correction(
                agent,
                &super::old_new_payload(agent, old, new),
                &content,
                &format!(
                    "{line} differs from the edit's line only in white space, but inside a \
                     string literal (the file has `Total{space}: %s EUR`, whose {code} is not a \
                     plain space), and the edit changes that line"
                ),
            );
        }
    }
}

/// A fresh tester's find (round 35, #05, second part): a line of a
/// triple-quoted text template (`Price:    {price}`, aligned columns) the
/// model sends with its spaces collapsed, changing `{price}`. Every agent's
/// correction wrote `Price: {price:.2f}` (the template's columns broke):
/// inside a string over several lines every space is content, so no
/// corrected edit, and the reason says so.
#[test]
fn spacing_inside_a_multiline_string_is_never_corrected_away() {
    let content = "TEMPLATE = \"\"\"\\\nName:     {name}\nPrice:    {price}\n\"\"\"\n\n\ndef render(name, price):\n    return TEMPLATE.format(name=name, price=price)\n";
    let (old, new) = ("Price: {price}\n", "Price: {price:.2f}\n");
    for agent in super::STRING_EDIT_AGENTS {
        assert_denied_without_correction(
            agent,
            &super::old_new_payload(agent, old, new),
            content,
            "file line 3 differs from the edit's line only in white space, but inside a \
             string literal (the file has `Price:    {price}`), and the edit changes that line",
        );
    }
    // The same spacing outside a string is spacing: corrected as before.
    let content = "x = 1\nprice  =  total(items)\n";
    let payload = super::old_new_payload(
        GateAgent::ClaudeCode,
        "price = total(items)\n",
        "price = total(items) * 2\n",
    );
    let judgment = judged_over(GateAgent::ClaudeCode, &payload, content);
    assert!(
        offered_input(GateAgent::ClaudeCode, &deny_reason(&judgment)).is_some(),
        "{}",
        deny_reason(&judgment)
    );
}

/// OpenCode's `apply_patch` parser skips, without a word, a hunk line that
/// starts with none of ` `, `-`, `+`: the file it writes lacks it. An
/// empty line between added lines (two Markdown paragraphs would merge) is
/// a doubt, and the patch with that line sent as `+` is offered, checked
/// with OpenCode's own matcher; a code line that lost its prefix (the
/// `import json` OpenCode drops) is denied with the lines it drops and what
/// to send, no guess offered (kept or added).
#[test]
fn lines_opencodes_patch_parser_drops_are_denied_or_repaired() {
    let agent = GateAgent::Opencode;
    let judge_patch = |name: &str, content: &str, patch: &str| {
        let payload = own_payload("apply_patch", json!({ "patchText": patch }));
        let fs = MemoryFs::new([(name.to_string(), content.to_string())]);
        judge(agent, &payload, |_| fs, &Policy::default())
    };
    let readme = "# Tool\n\nIntro text.\n\n## Usage\n\nRun it.\n";
    let blank = "*** Begin Patch\n*** Update File: README.md\n@@\n ## Usage\n \n-Run it.\n+Run it \
                 with `tool go`.\n\n+It never writes outside the current folder.\n*** End Patch";
    let judgment = judge_patch("README.md", readme, blank);
    assert_case(&judgment, Case::Doubt);
    let repaired = "*** Begin Patch\n*** Update File: README.md\n@@\n ## Usage\n \n-Run it.\n+Run \
                    it with `tool go`.\n+\n+It never writes outside the current folder.\n*** End \
                    Patch";
    assert_eq!(
        deny_reason(&judgment),
        format!(
            "srview gate: the edit of README.md matches exactly (lines 5-7), but srview cannot \
             stand behind its result: OpenCode drops patch line 8 (an empty line without a \
             prefix) in hunk #1 of README.md: its parser skips, without a word, a line that \
             starts with none of ` `, `-`, `+`, so it writes 4 lines where the patch has 5: send \
             every line of a hunk with its prefix: ` ` (a space) for a line kept, `-` for one \
             removed, `+` for one added (an empty added line as `+` alone).\n(no review pane \
             runs, so srview's policy doubt=review falls back to deny)\nSend this apply_patch \
             input instead (srview checked that OpenCode places it exactly):\n{}",
            json!({ "patchText": repaired })
        )
    );
    let fs = MemoryFs::new([("README.md".to_string(), readme.to_string())]);
    assert_exact_with_opencodes_apply_patch(&json!({ "patchText": repaired }), &fs, "repaired");

    let imports = "import os\n\nprint(os.getcwd(), json.dumps(1))\n";
    let unprefixed = "*** Begin Patch\n*** Update File: imp.py\n@@\n import os\n+import \
                      sys\nimport json\n+import re\n*** End Patch";
    let judgment = judge_patch("imp.py", imports, unprefixed);
    assert_case(&judgment, Case::Doubt);
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: the edit of imp.py matches exactly (line 1), but srview cannot stand \
         behind its result: OpenCode drops patch line 6 (`import json`, a line without a prefix) \
         in hunk #1 of imp.py: its parser skips, without a word, a line that starts with none of \
         ` `, `-`, `+`, so it writes 3 lines where the patch has 4: send every line of a hunk \
         with its prefix: ` ` (a space) for a line kept, `-` for one removed, `+` for one added \
         (an empty added line as `+` alone).\n(no review pane runs, so srview's policy \
         doubt=review falls back to deny)"
    );
}

/// A tester's find (round 47, T-09): an OpenCode `apply_patch` update whose
/// lines stand before any `@@` line (Codex's form, where the first hunk may
/// go without one): OpenCode's parser skips them, writes the file unchanged
/// and answers Success (the conformance notes: 8 `no_at_header` cases).
/// Denied, saying so, with the patch given its `@@` line offered (checked
/// with OpenCode's own matcher).
#[test]
fn an_opencode_patch_hunk_without_its_at_line_is_denied_and_repaired() {
    let content = "def a():\n    return 1\n\n\ndef b():\n    return 2\n";
    let patch = "*** Begin Patch\n*** Update File: m.py\n def a():\n-    return 1\n+    return \
                 10\n*** End Patch";
    let payload = own_payload("apply_patch", json!({ "patchText": patch }));
    let fs = MemoryFs::new([("m.py".to_string(), content.to_string())]);
    let judgment = judge(GateAgent::Opencode, &payload, |_| fs, &Policy::default());
    assert_case(&judgment, Case::Doubt);
    let repaired = "*** Begin Patch\n*** Update File: m.py\n@@\n def a():\n-    return 1\n+    \
                    return 10\n*** End Patch";
    assert_eq!(
        deny_reason(&judgment),
        format!(
            "srview gate: the edit of m.py matches exactly, but srview cannot stand behind its \
             result: OpenCode ignores patch lines 3-5 of the update of m.py (1 line removed, 1 \
             line added): no `@@` line stands above them, and its parser reads a hunk only from \
             an `@@` line, so it writes none of their change and still answers Success: start \
             the hunk with a line `@@`.\n(no review pane runs, so srview's policy doubt=review \
             falls back to deny)\nSend this apply_patch input instead (srview checked that \
             OpenCode places it exactly):\n{}",
            json!({ "patchText": repaired })
        )
    );
    let fs = MemoryFs::new([("m.py".to_string(), content.to_string())]);
    assert_exact_with_opencodes_apply_patch(&json!({ "patchText": repaired }), &fs, "repaired");
    // Only context before the first `@@`: nothing of the change is lost.
    let context = "*** Begin Patch\n*** Update File: m.py\n def a():\n@@\n-    return 1\n+    \
                   return 10\n*** End Patch";
    let payload = own_payload("apply_patch", json!({ "patchText": context }));
    let fs = MemoryFs::new([("m.py".to_string(), content.to_string())]);
    let judgment = judge(GateAgent::Opencode, &payload, |_| fs, &Policy::default());
    assert_case(&judgment, Case::Exact);
}

/// Claude Code's `Edit` (or `Write`) of a YAML file in the project,
/// judged with the default policy over the file `y0.yaml` holding
/// `content` (none for `None`).
fn judged_yaml(tool: &str, input: Value, content: Option<&str>) -> Judgment {
    judged_named("y0.yaml", tool, input, content)
}

/// Claude Code's `Edit` (or `Write`) judged with the default policy over
/// the project's file `name` holding `content` (none for `None`).
fn judged_named(name: &str, tool: &str, input: Value, content: Option<&str>) -> Judgment {
    let mut json: Value =
        serde_json::from_slice(&edit_payload(GateAgent::ClaudeCode, json!({}))).expect("JSON");
    json["tool_name"] = tool.into();
    json["tool_input"] = input;
    let files: Vec<(String, String)> = content
        .map(|c| (name.to_string(), c.to_string()))
        .into_iter()
        .collect();
    judge(
        GateAgent::ClaudeCode,
        json.to_string().as_bytes(),
        |_| MemoryFs::new(files),
        &Policy::default(),
    )
}

/// A tester's find (round 39b, 07): a Claude Code `Edit` leaving a YAML
/// file unparseable (a tab in an indentation, a quote or a `[` left open)
/// was allowed. Denied now as a doubt with the parser's line, column and
/// words; a key one column too deep says the misindent alone; the edit
/// with its quote and bracket closed, and a tab inside a block scalar's
/// text, are allowed. A new YAML file (`Write`) must parse.
#[test]
fn an_edit_leaving_a_yaml_file_unparseable_is_a_doubt() {
    let y0 = "server:\n  host: a\n  port: 80\n";
    let path = format!("{CWD}/y0.yaml");
    let edit = |new: &str| json!({"file_path": path, "old_string": "  port: 80\n", "new_string": new, "replace_all": false});
    for (new, said) in [
        (
            "  port: 80\n\ttimeout: 5\n",
            "the file was valid YAML before and is not after: line 3, column 9: while scanning \
             a plain scalar, found a tab (line 4 is indented with a tab): YAML readers refuse \
             the whole file: send the edit so that the file stays YAML (indentation in spaces: \
             YAML forbids tabs there)",
        ),
        (
            "  port: 80\n  name: \"web\n",
            "the file was valid YAML before and is not after: line 4, column 9: while scanning \
             a quoted scalar, found unexpected end of stream",
        ),
        (
            "  port: 80\n  tags: [a, b\n",
            "the file was valid YAML before and is not after: line 5, column 1 (the end of the \
             file): while parsing a flow sequence, expected ',' or ']'",
        ),
        (
            "  port: 80\n   debug: true\n",
            "as written, line 4 (`debug: true`) is a key at column 3, deeper than the key \
             `port` that holds a value on its own line: YAML refuses a key there",
        ),
    ] {
        let judgment = judged_yaml("Edit", edit(new), Some(y0));
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{new:?}: {reason}");
        // One doubt: the misindent's says what the parser's would.
        assert_eq!(
            reason.matches("no longer parses").count() + reason.matches("valid YAML").count(),
            1,
            "{reason}"
        );
    }
    for new in [
        "  port: 80\n  name: \"web\"\n",
        "  port: 80\n  tags: [a, b]\n",
        "  port: 80\n  script: |\n    make\n    \techo tabbed\n",
    ] {
        let judgment = judged_yaml("Edit", edit(new), Some(y0));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{new:?}");
    }
    let write = |content: &str| json!({"file_path": path, "content": content});
    let judgment = judged_yaml("Write", write("server:\n  tags: [a, b\n"), None);
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "the new file is not valid YAML: line 3, column 1 (the end of the file): while \
             parsing a flow sequence, expected ',' or ']'"
        ),
        "{reason}"
    );
    let judgment = judged_yaml("Write", write("server:\n  tags: [a, b]\n"), None);
    assert_case(&judgment, Case::Exact);
}

/// A tester's find (round 41a, 02): Claude Code's `Edit` adding `serde`
/// again to Cargo.toml's `[dependencies]`, or declaring `[dependencies]`
/// again, was allowed; Cargo then refuses the manifest. Denied now as a
/// doubt naming the key or table and the line of the first; the ordinary
/// edits (a new dependency, features given to the one there, a new table)
/// are allowed. A new TOML file (`Write`) must parse.
#[test]
fn an_edit_adding_a_toml_key_or_table_again_is_a_doubt() {
    let cargo = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1.0\"\nanyhow = \"1\"\n";
    let path = format!("{CWD}/Cargo.toml");
    let edit = |old: &str, new: &str| json!({"file_path": path, "old_string": old, "new_string": new, "replace_all": false});
    for (old, new, said) in [
        (
            "anyhow = \"1\"\n",
            "anyhow = \"1\"\nserde = { version = \"1.0\", features = [\"derive\"] }\n",
            "the file was valid TOML before and is not after: line 8, column 1: the key `serde` \
             set twice in table [dependencies], first at line 6: Cargo, pip and every TOML \
             reader refuse the whole file",
        ),
        (
            "version = \"0.1.0\"\n",
            "version = \"0.1.0\"\n\n[dependencies]\nclap = \"4\"\n",
            "line 8, column 2: the table [dependencies] declared twice, first at line 5",
        ),
    ] {
        let judgment = judged_named("Cargo.toml", "Edit", edit(old, new), Some(cargo));
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{new:?}: {reason}");
    }
    for (old, new) in [
        ("anyhow = \"1\"\n", "anyhow = \"1\"\nclap = \"4\"\n"),
        (
            "serde = \"1.0\"\n",
            "serde = { version = \"1.0\", features = [\"derive\"] }\n",
        ),
        (
            "anyhow = \"1\"\n",
            "anyhow = \"1\"\n\n[dev-dependencies]\nserde = \"1.0\"\n",
        ),
    ] {
        let judgment = judged_named("Cargo.toml", "Edit", edit(old, new), Some(cargo));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{new:?}");
    }
    let write = |content: &str| json!({"file_path": path, "content": content});
    let twice = "[package]\nname = \"x\"\nname = \"y\"\n";
    let judgment = judged_named("Cargo.toml", "Write", write(twice), None);
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "the new file is not valid TOML: line 3, column 1: the key `name` set twice in \
             table [package], first at line 2"
        ),
        "{reason}"
    );
    let judgment = judged_named("Cargo.toml", "Write", write(cargo), None);
    assert_case(&judgment, Case::Exact);
}

/// A tester's find (round 41a, 10): an INI option added again above the
/// old one was allowed. In a file Python's configparser reads (setup.cfg,
/// tox.ini) it is denied, naming both lines; in a plain `.ini` (uWSGI
/// repeats options on purpose) and for another option it is allowed.
#[test]
fn an_edit_adding_an_ini_option_again_is_a_doubt_where_configparser_reads() {
    let ini = "[metadata]\nname = app\nversion = 0.1.0\n";
    for (name, doubted) in [("setup.cfg", true), ("app.ini", false)] {
        let path = format!("{CWD}/{name}");
        let edit = |new: &str| json!({"file_path": path, "old_string": "name = app\n", "new_string": new, "replace_all": false});
        let judgment = judged_named(
            name,
            "Edit",
            edit("name = app\nversion = 0.2.0\n"),
            Some(ini),
        );
        if doubted {
            assert_case(&judgment, Case::Doubt);
            let reason = deny_reason(&judgment);
            assert!(
                reason.contains(
                    "the option `version` twice in section [metadata], at lines 3 and 4: \
                     Python's configparser"
                ),
                "{reason}"
            );
        } else {
            assert_case(&judgment, Case::Exact);
        }
        let judgment = judged_named(name, "Edit", edit("name = app\nlicense = MIT\n"), Some(ini));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{name}");
    }
}

/// Claude Code's `Edit` in straight quotes over a file's curly ones,
/// changing the text inside them (tester round 40b, 11): the quotes sit
/// where the file has its curly ones, so the edit is rewritten to the
/// file's own text with them carried (`msg = “Hello, world”`, as Claude
/// Code writes it). A change that writes a quote of its own is denied, and
/// says that is what cannot be told.
#[test]
fn a_claude_code_edit_over_curly_quotes_carries_them_where_certain() {
    let agent = GateAgent::ClaudeCode;
    let content = "msg = \u{201C}Hello\u{201D}\nother = 1\n";
    let run = |new: &str| {
        let input = string_edit(agent, "msg = \"Hello\"", new);
        judged_over(agent, &edit_payload(agent, input), content)
    };
    let judgment = run("msg = \"Hello, world\"");
    assert_case(&judgment, Case::Loose);
    let args = rewritten_input(&judgment);
    assert_eq!(args["old_string"], "msg = \u{201C}Hello\u{201D}");
    assert_eq!(args["new_string"], "msg = \u{201C}Hello, world\u{201D}");
    assert_exact_with_agents_matcher(agent, &args, content);
    let reason = reply_json(&judgment)["hookSpecificOutput"]["permissionDecisionReason"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(!reason.contains("No corrected edit"), "{reason}");

    let judgment = run("msg = \"Hello\" + \"!\"");
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "No corrected edit: the model's new text writes quotes of its own (`+ \"!\"`) \
             where the file has curly ones: srview cannot tell whether each is meant straight \
             or curly."
        ),
        "{reason}"
    );
}

/// A whole write over a file that is not UTF-8 (Latin-1), by Claude Code's
/// `Write` and Gemini CLI's `write_file` (tester round 40b, 08): not
/// "cannot be judged" (nothing of the old file is needed to place it) but
/// a doubt saying the old file was not UTF-8 and which checks could not
/// run, so a policy can let it through; its content is judged as a new
/// file's (a Python block left without its body is said too).
#[test]
fn a_whole_write_over_a_file_that_is_not_utf8_is_judged_on_its_content() {
    let dir = latin1_project("srview-gate-latin1-write");
    let root = dir.to_string_lossy().to_string();
    let path = format!("{CWD}/inventory.py");
    let run = |agent: GateAgent, tool: &str, content: &str, policy: &str| {
        let mut json: Value =
            serde_json::from_slice(&edit_payload(agent, json!({}))).expect("JSON");
        json["tool_name"] = tool.into();
        json["tool_input"] = json!({"file_path": path, "content": content});
        let payload = json.to_string().into_bytes();
        srview::gate::judge(
            agent,
            &payload,
            |_| srview::dialect::apply_patch::DirFs {
                root: root.clone().into(),
            },
            &Policy::parse(policy).expect("a policy"),
        )
    };
    let said = format!(
        "the whole write of {path} is in doubt: {path} is not UTF-8 text now (its encoding is \
         another, or it is binary), and this write replaces it with UTF-8 text: srview judged \
         the content as a new file's, but could not check it against the old text (whether it \
         stands in for lines it leaves out, or changes nothing)"
    );
    let clean = run(
        GateAgent::ClaudeCode,
        "Write",
        "name = \"café\"\n",
        "doubt=deny",
    );
    let gemini = run(
        GateAgent::GeminiCli,
        "write_file",
        "name = \"café\"\n",
        "doubt=deny",
    );
    let allowed = run(
        GateAgent::ClaudeCode,
        "Write",
        "name = \"café\"\n",
        "doubt=allow",
    );
    let broken = run(
        GateAgent::ClaudeCode,
        "Write",
        "if name:\nprint(name)\n",
        "doubt=deny",
    );
    std::fs::remove_dir_all(&dir).ok();
    for judgment in [&clean, &gemini] {
        assert_case(judgment, Case::Doubt);
        let reason = deny_reason(judgment);
        assert!(reason.contains(&format!("{said}.")), "{reason}");
    }
    assert_case(&allowed, Case::Doubt);
    assert_eq!(allowed.answer, Answer::NoOpinion);
    let reason = deny_reason(&broken);
    assert!(reason.contains(&format!("{said}; ")), "{reason}");
}

/// Gemini CLI's `fuzzy` stage finds 23 look-alikes of an old text with
/// two typos (tester round 40b, 09): without allow_multiple the deny says
/// the 23 are look-alikes its loose stage found, not copies, and not to set
/// allow_multiple; with it, the loose sentence names every place (23 in
/// all, the first few by their lines), not only the first.
#[test]
fn gemini_fuzzy_places_are_said_as_look_alikes_and_counted() {
    let agent = GateAgent::GeminiCli;
    let content: String = (0..300)
        .map(|i| format!("def func_{i}(a, b):\n    return a * {i} + b  # comment {i}\n\n"))
        .collect();
    let run = |multiple: bool, policy: &str| {
        let mut input = string_edit(
            agent,
            "def func_123(a, b):\n    return a * 123 + c  # coment 123\n",
            "def func_123(a, b):\n    return 0\n",
        );
        if multiple {
            input["allow_multiple"] = true.into();
        }
        judge_on(
            agent,
            &edit_payload(agent, input),
            &content,
            &Policy::parse(policy).expect("a policy"),
        )
    };
    let reason = deny_reason(&run(false, "failing=deny"));
    assert!(
        reason.contains(
            "found 23 for old_string in file: /home/user/project/inventory.py. If you intended \
             to replace multiple occurrences, set 'allow_multiple' to true.\nThose 23 places \
             are what its loose stage `fuzzy` found: text that looks like old_string, not \
             copies of it. Do not set allow_multiple: it would rewrite every one of them.\n"
        ),
        "{reason}"
    );
    let reason = deny_reason(&run(true, "loose=deny"));
    assert!(
        reason.contains(
            "would place edit 1 at lines 37-38, and at 22 other places (lines 40-41, lines \
             70-71, lines 310-311, lines 340-341, lines 361-362, ...) only by its loose stage \
             `fuzzy`"
        ),
        "{reason}"
    );
    assert!(
        reason
            .contains("It would replace at its first place (each other place holds its own text)"),
        "{reason}"
    );
}

/// A method's `return` rewritten without the class's four columns, sent
/// as a patch to Codex and to OpenCode's `apply_patch` (tester round 40b,
/// 07): repaired as the same change sent as an edit is, the added line
/// at the removed one's column in the file (8), not withheld as "cannot
/// be told".
#[test]
fn a_patch_shifted_like_its_edit_form_gets_the_same_correction() {
    let content = "class Order:\n    def subtotal(self):\n        return 1\n\n    def total(self):\n        return self.subtotal() * (1 + TAX_RATE)\n";
    let body = "@@\n def total(self):\n-    return self.subtotal() * (1 + TAX_RATE)\n+    return round(self.subtotal() * (1 + TAX_RATE), 2)\n";
    let fixed = "*** Begin Patch\n*** Update File: inventory.py\n@@\n     def total(self):\n-        return self.subtotal() * (1 + TAX_RATE)\n+        return round(self.subtotal() * (1 + TAX_RATE), 2)\n*** End Patch\n";
    let codex = judged_over(
        GateAgent::Codex,
        &edit_payload(GateAgent::Codex, patch(body)),
        content,
    );
    assert_case(&codex, Case::Loose);
    assert_eq!(rewritten_input(&codex)["command"], fixed);
    let opencode = judged_over(GateAgent::Opencode, &opencode_patch(body), content);
    assert_case(&opencode, Case::Loose);
    assert_eq!(rewritten_input(&opencode)["patchText"], fixed);
}

/// A tester's find (round 41a, 06): Claude Code's `Write` of a Python
/// file leaving out `def helper` while `main` still calls it was allowed
/// (the program then dies with NameError). A doubt now, naming the name,
/// the line it was defined on and the line using it; an `Edit` deleting
/// the definition is one too; the write that imports `helper` instead, or
/// drops its use too, is allowed.
#[test]
fn a_write_leaving_out_a_function_still_called_is_a_doubt() {
    let agent = GateAgent::ClaudeCode;
    let app = "import sys\n\n\ndef parse(argv):\n    return argv[1:]\n\n\ndef helper(xs):\n    return [x.upper() for x in xs]\n\n\ndef main():\n    args = parse(sys.argv)\n    print(helper(args))\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let helper = "def helper(xs):\n    return [x.upper() for x in xs]\n\n\n";
    let lazy = app.replace(helper, "");
    let path = format!("{CWD}/inventory.py");
    let run = |tool: &str, input: Value| {
        let mut json: Value =
            serde_json::from_slice(&edit_payload(agent, json!({}))).expect("JSON");
        json["tool_name"] = tool.into();
        json["tool_input"] = input;
        judged_over(agent, json.to_string().as_bytes(), app)
    };
    let said = "the file defined `helper` at its top level before (line 8: `def helper(xs):`) \
                and no longer defines, assigns or imports it, but line 10 still uses it \
                (`print(helper(args))`): running that line raises NameError";
    let judgment = run("Write", json!({"file_path": path, "content": lazy}));
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(reason.contains(said), "{reason}");
    assert!(
        reason.contains("using a name it no longer defines"),
        "{reason}"
    );
    let edit =
        json!({"file_path": path, "old_string": helper, "new_string": "", "replace_all": false});
    let judgment = run("Edit", edit);
    assert_case(&judgment, Case::Doubt);
    assert!(deny_reason(&judgment).contains("but line 10 still uses it"));
    for fine in [
        lazy.replace("import sys\n", "import sys\nfrom util import helper\n"),
        lazy.replace("print(helper(args))", "print(args)"),
    ] {
        let judgment = run("Write", json!({"file_path": path, "content": fine}));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion);
    }
}

/// A tester's find (round 41a, 01): a replace-all renaming the parameter
/// `id` also renamed `doc.owner.id` and `owner.id`, attributes of other
/// objects, and was allowed for Claude Code (`replace_all`), Gemini CLI
/// (`allow_multiple`) and OpenCode (`replaceAll`). A doubt now, naming the
/// name's place and the attributes'; a rename of a local used as a name
/// only is allowed.
#[test]
fn a_replace_all_rename_reaching_attributes_is_a_doubt() {
    let r2 =
        "def can_edit(id, doc):\n    owner = db.user(id)\n    return doc.owner.id == owner.id\n";
    let local = "def total(xs):\n    acc = 0\n    for x in xs:\n        acc += x\n    return acc\n";
    let path = format!("{CWD}/inventory.py");
    let run = |agent: GateAgent, content: &str, old: &str, new: &str| {
        let payload = match agent {
            GateAgent::ClaudeCode => edit_payload(
                agent,
                json!({"file_path": path, "old_string": old, "new_string": new, "replace_all": true}),
            ),
            GateAgent::GeminiCli => edit_payload(
                agent,
                json!({"file_path": path, "instruction": "Rename.", "old_string": old,
                    "new_string": new, "allow_multiple": true}),
            ),
            _ => own_payload(
                "edit",
                json!({"filePath": path, "oldString": old, "newString": new, "replaceAll": true}),
            ),
        };
        judged_over(agent, &payload, content)
    };
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::Opencode,
    ] {
        let judgment = run(agent, r2, "id", "user_id");
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(
                "the edit replaces every `id` (4 places), and they play different roles: as a \
                 name at line 1 (`def can_edit(id, doc):`, 2 places); after a `.` (an \
                 attribute, maybe of another object) at line 3"
            ),
            "{agent:?}: {reason}"
        );
        let judgment = run(agent, local, "acc", "count");
        assert_eq!(judgment.answer, Answer::NoOpinion, "{agent:?}");
    }
}

/// Claude Code's `Edit` of `name` (holding `content`) in the project,
/// `old` made `new`, judged with the default policy.
fn judged_edit(name: &str, content: &str, old: &str, new: &str) -> Judgment {
    let input = json!({"file_path": format!("{CWD}/{name}"), "old_string": old, "new_string": new, "replace_all": false});
    judged_named(name, "Edit", input, Some(content))
}

/// Asserts that each Claude Code `Edit` (file name, its text, old, new) is
/// exact, with no opinion.
fn assert_exact_edits(edits: &[(&str, &str, &str, &str)]) {
    for &(name, content, old, new) in edits {
        let judgment = judged_edit(name, content, old, new);
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{name}: {new:?}");
    }
}

/// Testers' finds (round 41a, 03, 05, 09): a Claude Code `Edit` adding a
/// dataclass field, a class attribute, a dict key, an object literal's key
/// or method, or a Lua function again above the old one (which wins) was
/// allowed. A doubt now, naming both lines; the same edit adding another
/// name, a property's setter beside its getter, and a dict comprehension
/// are allowed.
#[test]
fn an_edit_giving_a_name_or_key_again_is_a_doubt() {
    let item = "from dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n    name: str\n    qty: int = 0\n    price: float = 0.0\n";
    let config = "class Config:\n    DEBUG = False\n    PORT = 8000\n";
    let dict = "CONFIG = {\n    \"port\": 3000,\n    \"debug\": False,\n}\n";
    let object = "export default {\n  data() {\n    return { a: 1 };\n  },\n  methods: {\n    save() {\n      return 1;\n    },\n  },\n};\n";
    let lua = "local M = {}\n\nfunction M.bye(name)\n  return name\nend\n\nreturn M\n";
    let doubts = [
        (
            "dc.py",
            item,
            "    name: str\n",
            "    name: str\n    price: float = 1.0\n",
            "the file assigns `price` twice in class `Item` (line 5), at lines 7 and 9: Python \
             keeps the later value (line 9)",
        ),
        (
            "k.py",
            config,
            "    DEBUG = False\n",
            "    DEBUG = False\n    PORT = 9000\n",
            "the file assigns `PORT` twice in class `Config` (line 1), at lines 3 and 4",
        ),
        (
            "cfg.py",
            dict,
            "    \"port\": 3000,\n",
            "    \"port\": 3000,\n    \"debug\": True,\n",
            "the file has the key `debug` twice in the dict of line 1 (`CONFIG = {`), at lines 3 \
             and 4",
        ),
        (
            "App.js",
            object,
            "  methods: {\n",
            "  methods: {\n    save() {\n      return 2;\n    },\n",
            "the file defines the method `save` twice in the object literal of line 5 \
             (`methods: {`), at lines 6 and 9: JavaScript keeps the later one (line 9)",
        ),
        (
            "m.lua",
            lua,
            "local M = {}\n",
            "local M = {}\n\nfunction M.bye(name)\n  return 'bye ' .. name\nend\n",
            "the file defines function `M.bye` twice at its top level, at lines 3 and 7: Lua \
             keeps the later one (line 7)",
        ),
    ];
    for (name, content, old, new, said) in doubts {
        let judgment = judged_edit(name, content, old, new);
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{name}: {reason}");
    }
    let prop = "class A:\n    @property\n    def x(self):\n        return self._x\n";
    let allowed = [
        (
            "k.py",
            config,
            "    DEBUG = False\n",
            "    DEBUG = False\n    HOST = 'x'\n",
        ),
        (
            "cfg.py",
            dict,
            "    \"port\": 3000,\n",
            "    \"port\": 3000,\n    \"timeout\": 5,\n",
        ),
        (
            "cfg.py",
            dict,
            "}\n",
            "}\nFLAGS = {k: v for k, v in CONFIG.items() if v}\n",
        ),
        (
            "a.py",
            prop,
            "        return self._x\n",
            "        return self._x\n\n    @x.setter\n    def x(self, value):\n        self._x = value\n",
        ),
        (
            "App.js",
            object,
            "  methods: {\n",
            "  methods: {\n    load() {\n      return 2;\n    },\n",
        ),
        (
            "m.lua",
            lua,
            "local M = {}\n",
            "local M = {}\n\nfunction M.hi(name)\n  return name\nend\n",
        ),
    ];
    assert_exact_edits(&allowed);
}

/// Testers' finds (round 42a, 07 and 09): an edit whose new text drops its
/// old text's final newline (`B = 2\n` → `B = 20`: `B = 20C = 3`) was
/// allowed for every agent, and an empty new text deleting a trailing
/// comment, whose newline Claude Code and Qwen Code delete too
/// (`x = compute()    y = 2`), was allowed for both. Denied now as a doubt
/// with the joined line; Gemini CLI, OpenCode and pi, which keep that
/// newline, are allowed the deletion; the edit with its newline, and a
/// join the new text shows meant, are allowed for every agent.
#[test]
fn an_edit_joining_two_lines_is_a_doubt() {
    let agents = [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::Opencode,
        GateAgent::Pi,
    ];
    let abc = "A = 1\nB = 2\nC = 3\n";
    let run = "def run():\n    x = compute()  # TODO remove\n    y = 2\n    return x + y\n";
    let call = "total = f(a,\n          b)\n";
    for agent in agents {
        let judged = |content: &str, old: &str, new: &str| {
            judged_over(agent, &old_new_payload(agent, old, new), content)
        };
        let judgment = judged(abc, "B = 2\n", "B = 20");
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(
                "so line 3 (`C = 3`) is joined onto the new text's last line, which then reads \
                 `B = 20C = 3`: end the new text with a newline"
            ),
            "{agent:?}: {reason}"
        );
        let judgment = judged(run, "  # TODO remove", "");
        if matches!(agent, GateAgent::ClaudeCode | GateAgent::QwenCode) {
            assert_case(&judgment, Case::Doubt);
            let reason = deny_reason(&judgment);
            assert!(
                reason.contains(
                    "deleting `  # TODO remove` with an empty new text also deletes the line \
                     end after it (the agent's rule for an empty new text), so line 3 (`    y = \
                     2`) is joined onto line 2, which then reads `    x = compute()    y = 2`"
                ),
                "{agent:?}: {reason}"
            );
        } else {
            assert_case(&judgment, Case::Exact);
            assert_eq!(judgment.answer, Answer::NoOpinion, "{agent:?}");
        }
        for (content, old, new) in [
            (abc, "B = 2\n", "B = 20\n"),
            (run, "  # TODO remove\n", "\n"),
            (run, "x = compute()  # TODO remove", "x = compute()"),
            (call, "total = f(a,\n", "total = f(a,"),
        ] {
            let judgment = judged(content, old, new);
            assert_case(&judgment, Case::Exact);
            assert_eq!(judgment.answer, Answer::NoOpinion, "{agent:?}: {old:?}");
        }
    }
}

/// Testers' finds (round 42a, 13; 42b, 03, 05, 10), through the gate: a
/// Claude Code `Edit` shortening a README's code example to `// ...`,
/// deleting a block with a note saying it was removed, a replace-all
/// version bump or prefix rename reaching inside words as meant, and a
/// Compose `volumes:` block moved to the top level by re-indenting it
/// alone are allowed. A replace-all cutting a word it does not mean is
/// denied with the words it changes, and no step asking for whole lines.
#[test]
fn the_42_false_alarms_are_allowed_and_a_replace_all_cut_asks_no_whole_lines() {
    let readme = "```rust\nfn main() {\n    trace!(\"go\");\n    let yak = find();\n    shave(yak);\n    info!(\"done\");\n}\n```\n";
    let app = "function route(path) {\n  if (path === \"/legacy\") {\n    warn(\"legacy\");\n    return \"legacy\";\n  }\n  return \"404\";\n}\n";
    let compose = "services:\n  web:\n    image: nginx:1.27\n    volumes:\n      db-data:\n";
    let allowed = [
        (
            "README.md",
            readme,
            "    let yak = find();\n    shave(yak);\n    info!(\"done\");\n",
            "    // ...\n",
        ),
        (
            "app.js",
            app,
            "  if (path === \"/legacy\") {\n    warn(\"legacy\");\n    return \"legacy\";\n  }\n",
            "  // The /legacy route was removed in v2 (see CHANGELOG).\n",
        ),
        (
            "docker-compose.yml",
            compose,
            "    volumes:\n      db-data:\n",
            "\nvolumes:\n  db-data:\n",
        ),
    ];
    assert_exact_edits(&allowed);
    // The same shortening in Rust source stands in.
    let judgment = judged_edit(
        "main.rs",
        readme,
        "    let yak = find();\n    shave(yak);\n    info!(\"done\");\n",
        "    // ...\n",
    );
    assert_case(&judgment, Case::Doubt);
    let replace_all = |name: &str, content: &str, old: &str, new: &str| {
        let input = json!({"file_path": format!("{CWD}/{name}"), "old_string": old, "new_string": new, "replace_all": true});
        judged_named(name, "Edit", input, Some(content))
    };
    let install =
        "cargo install mytool --version 0.4.35\ncurl -LO https://x/v0.4.35/mytool-v0.4.35.tar.gz\n";
    let dialog = "self.btn_ok = Button()\nself.btn_cancel = Button()\nself.btn_ok.pack()\n";
    for (name, content, old, new) in [
        ("INSTALL.md", install, "0.4.35", "0.4.36"),
        ("dialog.py", dialog, "self.btn_", "self.button_"),
    ] {
        let judgment = replace_all(name, content, old, new);
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{name}");
    }
    let judgment = replace_all("dialog.py", dialog, "btn", "button");
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "a replace-all changes every such word (`btn_ok` becomes `button_ok`, \
             `btn_cancel` becomes `button_cancel`): to change whole words only, send one edit \
             per place meant, each with enough context to occur once"
        ),
        "{reason}"
    );
    assert!(!reason.contains("whole lines"), "{reason}");
}

/// One file's case of a Claude Code `Edit` made two ways: `(file name,
/// content, old_string, the bad new_string, the good one, what the deny
/// of the bad one says)`.
type BadAndGoodEdit<'a> = (&'a str, &'a str, &'a str, &'a str, &'a str, &'a str);

/// For each case, the bad edit is a doubt whose deny says what it should,
/// and the good one is exact with no opinion (a failure names the file).
fn assert_bad_doubted_and_good_exact(cases: &[BadAndGoodEdit]) {
    for &(name, content, old, bad, good, said) in cases {
        let path = format!("{CWD}/{name}");
        let edit = |new: &str| json!({"file_path": path, "old_string": old, "new_string": new, "replace_all": false});
        let judgment = judged_named(name, "Edit", edit(bad), Some(content));
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{name}: {reason}");
        let judgment = judged_named(name, "Edit", edit(good), Some(content));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{name}");
    }
}

/// Testers' finds (round 42a, 01, 19, 20), through the gate: a Claude
/// Code `Edit` leaving a Python `(` open, a Markdown code block's closing
/// fence dropped, a Go import added again: each denied as a doubt naming
/// its line; the same edits done right are allowed.
#[test]
fn python_syntax_an_open_fence_and_an_import_twice_are_doubts_at_the_gate() {
    let cases = [
        (
            "cart.py",
            "def add(lines, sku):\n    lines.append(sku)\n    return lines\n",
            "    lines.append(sku)\n",
            "    lines.append(str(sku)\n",
            "    lines.append(str(sku))\n",
            "'(' was never closed",
        ),
        (
            "README.md",
            "# App\n\n```sh\nmake\n```\n\nThen run it.\n",
            "make\n```\n",
            "make install\n",
            "make install\n```\n",
            "code block",
        ),
        (
            "main.go",
            "package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() { fmt.Println(os.Args) }\n",
            "\t\"os\"\n",
            "\t\"os\"\n\t\"fmt\"\n",
            "\t\"os\"\n\t\"strings\"\n",
            "\"fmt\"",
        ),
    ];
    assert_bad_doubted_and_good_exact(&cases);
}

/// Testers' finds (round 42a, 04): a file with one stray CRLF line, an LF
/// edit of another line. The line endings are judged on what each agent
/// writes: OpenCode keeps every line's ending (allowed, it was denied);
/// Gemini CLI and Qwen Code end every line with CRLF (the two LF lines
/// outside the edit are said, to CRLF, not LF); Claude Code ends every
/// line with LF (line 2 said); pi's own sentence is kept. Each deny says
/// to tell the user, not to send whole lines, which cannot help. The same
/// edit on an LF file is allowed for every one.
#[test]
fn a_mixed_files_line_endings_are_judged_on_what_each_agent_writes() {
    let mixed = "A = 1\nB = 2\r\nC = 3\nD = 4\n";
    let said = |agent: GateAgent, content: &str| {
        let (old, new) = match agent {
            // OpenCode replaces inside the line: no newline sent.
            GateAgent::Opencode => ("D = 4", "D = 5"),
            _ => ("D = 4\n", "D = 5\n"),
        };
        judged_over(agent, &old_new_payload(agent, old, new), content)
    };
    let judgment = said(GateAgent::Opencode, mixed);
    assert_case(&judgment, Case::Exact);
    assert_eq!(judgment.answer, Answer::NoOpinion);
    for (agent, tool) in [
        (GateAgent::GeminiCli, "Gemini CLI's replace"),
        (GateAgent::QwenCode, "Qwen Code's edit"),
    ] {
        let judgment = said(agent, mixed);
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(&format!(
                "the file mixes CRLF and LF line endings, and {tool} writes every line with \
                 CRLF, whatever the edit's text: 2 lines outside the edit (lines 1, 3) change \
                 their ending to CRLF: tell the user, who can unify the file's line endings \
                 first."
            )),
            "{agent:?}: {reason}"
        );
        assert!(!reason.contains("send the new text"), "{agent:?}: {reason}");
    }
    let judgment = said(GateAgent::ClaudeCode, mixed);
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "the file mixes CRLF and LF line endings, and Claude Code's Edit writes every line \
             with LF, whatever the edit's text: 1 line outside the edit (line 2) changes its \
             ending to LF: tell the user, who can unify the file's line endings first."
        ),
        "{reason}"
    );
    assert!(!reason.contains("whole lines"), "{reason}");
    let judgment = said(GateAgent::Pi, mixed);
    assert!(
        deny_reason(&judgment).contains("it writes every line with LF, whatever the edit's text"),
        "{}",
        deny_reason(&judgment)
    );
    // Cline's editor ends new lines with CRLF in a file holding one,
    // whatever the model sent: said so, not as the model's CRLF.
    let judgment = judged_over(
        GateAgent::ClineCli,
        &super::real_cli::clines_edit("D = 4", "D = 5\nE = 6"),
        mixed,
    );
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "the file's lines end in LF but for some in CRLF, and Cline's editor ends the new \
             text's lines with CRLF in a file holding any CRLF line, whatever the edit's text: \
             the result gets 1 more line ending in CRLF: tell the user"
        ),
        "{reason}"
    );
    assert!(!reason.contains("send the new text"), "{reason}");
    // The stray line is the one edited, and each writes the file's other
    // lines' CRLF: no line outside the edit changes.
    let edited = "A = 1\r\nB = 2\r\nC = 3\r\nD = 4\n";
    for agent in [
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::ClaudeCode,
    ] {
        let judgment = said(agent, edited);
        assert_case(&judgment, Case::Exact);
    }
    for agent in STRING_EDIT_AGENTS {
        let judgment = said(agent, &mixed.replace("\r\n", "\n"));
        assert_case(&judgment, Case::Exact);
        let judgment = said(agent, &mixed.replace("\r\n", "\n").replace('\n', "\r\n"));
        assert_case(&judgment, Case::Exact);
    }
}

/// A tester's find (round 42c, 11): a Claude Code `Write` of LF content
/// over a CRLF file was allowed, while `check` and `apply --write` said
/// "the result mixes line endings" (it has one). Claude Code writes the
/// content as sent: the whole file turns from CRLF to LF, said so, with
/// what keeps CRLF; the same sentence as `check`'s
/// (tests/diagnose_trust.rs). CRLF content over an LF file is said the
/// other way; a content in the file's own endings, or one unifying a mixed
/// file towards its own ending, is allowed.
#[test]
fn a_claude_code_write_changing_every_line_ending_is_a_doubt() {
    let crlf = "import os\r\n\r\ndef main():\r\n    x = 1\r\n    return x\r\n";
    let lf = crlf.replace("\r\n", "\n");
    let path = format!("{CWD}/crlf.py");
    let write = |content: &str| json!({"file_path": path, "content": content});
    let judgment = judged_named("crlf.py", "Write", write(&lf.replace('1', "2")), Some(crlf));
    assert_case(&judgment, Case::Doubt);
    assert!(
        deny_reason(&judgment).contains(&format!(
            "its content ends every line with LF, where {path}'s lines end in CRLF: Claude Code \
             writes the content as sent, so the write turns the whole file from CRLF to LF line \
             endings (all 5 lines differ in a diff): to keep CRLF, send the lines that change as \
             Edit calls (Claude Code's Edit writes a CRLF file back in CRLF); if the file should \
             become LF, tell the user."
        )),
        "{}",
        deny_reason(&judgment)
    );
    let judgment = judged_named(
        "crlf.py",
        "Write",
        write(&crlf.replace('1', "2")),
        Some(&lf),
    );
    assert_case(&judgment, Case::Doubt);
    assert!(
        deny_reason(&judgment).contains("turns the whole file from LF to CRLF line endings"),
        "{}",
        deny_reason(&judgment)
    );
    for (over, content) in [
        (crlf.to_string(), crlf.replace('1', "2")),
        (lf.clone(), lf.replace('1', "2")),
        // One stray CRLF line unified away: the content shows every line.
        (lf.replacen('\n', "\r\n", 1), lf.replace('1', "2")),
    ] {
        let judgment = judged_named("crlf.py", "Write", write(&content), Some(&over));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion);
    }
}

/// A tester's find (round 42c, 13): a Claude Code `Edit` of a CRLF file
/// sent with CRLF fails, as Claude Code fails it; the deny said "line
/// endings differ (CRLF against LF)" of a file that is CRLF on disk, over
/// sent and file lines that read alike. Now it says Claude Code reads the
/// file with LF line endings, shows no such lines, and offers the edit in
/// LF.
#[test]
fn a_crlf_edit_of_a_crlf_file_is_told_claude_code_reads_it_as_lf() {
    let crlf = "import os\r\n\r\ndef main():\r\n    x = 1\r\n    return x\r\n";
    let judgment = judged_edit(
        "crlf.py",
        crlf,
        "    x = 1\r\n    return x\r\n",
        "    x = 2\r\n    return x\r\n",
    );
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "old_string does not occur in the file as Claude Code reads it: Claude Code reads \
             this CRLF file with LF line endings (and writes it back in CRLF), so an old_string \
             whose lines end in CRLF (\\r\\n) never matches; its text is the file's at lines \
             4-5: send old_string and new_string with LF (\\n) line endings."
        ),
        "{reason}"
    );
    assert!(!reason.contains("CRLF against LF"), "{reason}");
    assert!(!reason.contains("-  sent |"), "{reason}");
    let offered = offered_input(GateAgent::ClaudeCode, &reason).expect("a corrected edit");
    assert_eq!(offered["old_string"], "    x = 1\n    return x\n");
    assert_eq!(offered["new_string"], "    x = 2\n    return x\n");
}

/// Testers' finds (round 42c, 04, 06) through the gate: a Rust `use` and
/// a Go import binding a name the file imports from another path are
/// denied as doubts naming the name; the import renamed is allowed. A
/// docstring's usage example edited at the docstring's own indentation
/// is allowed, not denied as changing "the string, not the code".
#[test]
fn an_import_of_a_bound_name_and_a_docstring_example_edit_at_the_gate() {
    let cases = [
        (
            "w.rs",
            "use std::fmt::Write;\n\npub fn f(s: &mut String) {\n    write!(s, \"x\").ok();\n}\n",
            "use std::fmt::Write;\n",
            "use std::fmt::Write;\nuse std::io::Write;\n",
            "use std::fmt::Write;\nuse std::io::Write as IoWrite;\n",
            "binds `Write` twice: `std::fmt::Write` at line 1, `std::io::Write` at line 2",
        ),
        (
            "main.go",
            "package main\n\nimport (\n\t\"fmt\"\n\t\"math/rand\"\n)\n\nfunc main() { fmt.Println(rand.Intn(10)) }\n",
            "\t\"math/rand\"\n",
            "\t\"math/rand\"\n\t\"crypto/rand\"\n",
            "\t\"math/rand\"\n\tcrand \"crypto/rand\"\n",
            "binds `rand` twice: \"math/rand\" at line 5, \"crypto/rand\" at line 6",
        ),
    ];
    assert_bad_doubted_and_good_exact(&cases);
    let conn = "def connect(timeout=5):\n    \"\"\"Open a connection.\n\n    Example::\n\n        client = Client()\n        client.connect()\n    \"\"\"\n    client = Client()\n    client.connect(timeout=timeout)\n    return client\n";
    let path = format!("{CWD}/conn.py");
    let example = json!({"file_path": path,
        "old_string": "        client = Client()\n        client.connect()\n",
        "new_string": "        client = Client()\n        client.connect(timeout=10)\n",
        "replace_all": false});
    let judgment = judged_named("conn.py", "Edit", example, Some(conn));
    assert_case(&judgment, Case::Exact);
    assert_eq!(judgment.answer, Answer::NoOpinion);
}

/// Testers' finds (42c-02, 42c-08, 42c-05, 42c-03) at the gate: a
/// Markdown table row's edit dropping its newline (the next row joined
/// after its `|`) and a JS line kept with a trailing space are doubts;
/// a Markdown section retitled with its body dropped, as an edit and as a
/// whole Write, and a list item's fence dropped are allowed (no opinion).
#[test]
fn markdown_joins_headings_and_list_fences_at_the_gate() {
    let table = "# T\n\n| name | default |\n|---|---|\n| port | 8000 |\n| host | localhost |\n";
    let js = "const a = 1\nconst b = 2\nexport { a, b }\n";
    for (name, content, old, new, said) in [
        (
            "doc.md",
            table,
            "| port | 8000 |\n",
            "| port | 9000 |",
            "| port | 9000 || host | localhost |",
        ),
        (
            "j.mjs",
            js,
            "const a = 1\n",
            "const a = 10 ",
            // Claude Code strips the trailing space first
            // (`normalizeFileEditInput`): the line it writes.
            "const a = 10const b = 2",
        ),
    ] {
        let input = json!({"file_path": format!("{CWD}/{name}"), "old_string": old,
            "new_string": new, "replace_all": false});
        let judgment = judged_named(name, "Edit", input, Some(content));
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{name}: {reason}");
    }
    let readme = "# mytool\n\n## Legacy configuration\n\nSet MYTOOL_HOME.\nThen run mytool init.\nThis writes ~/.mytoolrc.\n\n## Usage\n\nmytool run\n";
    let section = "## Legacy configuration\n\nSet MYTOOL_HOME.\nThen run mytool init.\nThis writes ~/.mytoolrc.\n";
    let path = format!("{CWD}/R.md");
    let steps = "1. Install:\n\n   ```sh\n   pip install tool\n   ```\n\n2. Go.\n\n````md\n```py\nx\n```\n````\n";
    for (name, content, tool, input) in [
        (
            "R.md",
            readme,
            "Edit",
            json!({"file_path": path, "old_string": section, "new_string": "## Configuration\n",
                "replace_all": false}),
        ),
        (
            "R.md",
            readme,
            "Write",
            json!({"file_path": path, "content": readme.replace(section, "## Configuration\n")}),
        ),
        (
            "f.md",
            steps,
            "Edit",
            json!({"file_path": format!("{CWD}/f.md"), "old_string": "   pip install tool\n   ```\n",
                "new_string": "   pip install tool\n", "replace_all": false}),
        ),
    ] {
        let judgment = judged_named(name, tool, input, Some(content));
        assert_eq!(judgment.answer, Answer::NoOpinion, "{name} {tool}");
    }
}

/// A tester's find (round 42c, 14), through the gate: a Claude Code
/// `Edit` leaving a `(` open inside an f-string's field is denied in
/// CPython's words; the field closed is allowed.
#[test]
fn a_bracket_left_open_in_an_f_strings_field_is_a_doubt_at_the_gate() {
    let content = "def copy(src, buf):\n    src.write(buf)\n    return len(buf)\n";
    let path = format!("{CWD}/sh.py");
    let edit = |new: &str| {
        json!({"file_path": path, "old_string": "    src.write(buf)\n",
               "new_string": format!("    src.write(buf)\n    print(f\"wrote {new} bytes\")\n"),
               "replace_all": false})
    };
    let judgment = judged_named("sh.py", "Edit", edit("{len(buf}"), Some(content));
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "(SyntaxError: f-string: closing parenthesis '}' does not match opening parenthesis \
             '(')"
        ),
        "{reason}"
    );
    let judgment = judged_named("sh.py", "Edit", edit("{len(buf)}"), Some(content));
    assert_case(&judgment, Case::Exact);
    assert_eq!(judgment.answer, Answer::NoOpinion);
}
