//! Denies whose next step could not be followed (a tester's finds), each
//! now with one that can work: a patch over a file with CRLF line endings
//! (OpenCode's `apply_patch` compares lines with their `\r`), an empty
//! old text for a file that exists (Gemini CLI's `replace`, Qwen Code's
//! `edit`: it only creates files), a Codex `*** Move to:` onto a file that
//! exists.

use super::*;

/// A deny's reason, checked to end with `step`'s sentence, and its field.
fn assert_ends_with_step(judgment: &Judgment, step: NextStep) -> String {
    let reason = deny_reason(judgment);
    assert_eq!(judgment.next_step, Some(step), "{reason}");
    let tool = judgment.call.as_ref().map_or("", |c| c.tool.as_str());
    let text = step.text(tool).expect("a sentence");
    assert!(reason.ends_with(&format!("\n{text}")), "{reason}");
    reason
}

/// OpenCode's `apply_patch` changing one line of a CRLF file, judged (its
/// matcher compares lines with their `\r`: loose).
fn opencode_patch_over_crlf() -> Judgment {
    let crlf = "def add(a, b):\r\n    return a + b\r\n\r\ndef sub(a, b):\r\n    return a - b\r\n";
    let args = json!({"patchText": "*** Begin Patch\n*** Update File: inventory.py\n@@\n def add(a, b):\n-    return a + b\n+    return int(a) + int(b)\n*** End Patch"});
    judged_over(GateAgent::Opencode, &own_payload("apply_patch", args), crlf)
}

#[test]
fn a_patch_over_a_crlf_file_says_its_line_endings() {
    let judgment = opencode_patch_over_crlf();
    assert_eq!(judgment.case, Case::Loose);
    let reason = assert_ends_with_step(&judgment, NextStep::LineEndings);
    assert!(
        reason.contains(
            "\ninventory.py ends its lines with CRLF (\\r\\n), and OpenCode 1.18.33's apply_patch \
             tool compares lines with their \\r: no patch line the model writes matches them exactly, \
             and the lines it adds would be written with LF among the file's CRLF lines."
        ),
        "{reason}"
    );
    assert!(
        reason.ends_with(
            "Tell the user: the file's CRLF line endings keep apply_patch from matching any patch \
             exactly; they can let this edit through (in srview's review pane, or by srview's \
             policy loose=allow), or give the file LF line endings first."
        ),
        "{reason}"
    );
    assert!(!reason.contains("old text is the file's own"), "{reason}");
}

#[test]
fn an_empty_old_text_for_a_file_that_exists_is_told_to_write_it() {
    for agent in [GateAgent::GeminiCli, GateAgent::QwenCode] {
        let payload = edit_payload(agent, string_edit(agent, "", "print(1)\n"));
        let judgment = judged_over(agent, &payload, "");
        assert_eq!(judgment.case, Case::Failing, "{agent:?}");
        let reason = assert_ends_with_step(
            &judgment,
            NextStep::WriteWhole("write_file tool (file_path, content)"),
        );
        assert!(
            reason.ends_with(
                "The file exists already, and an edit with an empty old text changes no file \
                 that exists: send its whole content with the write_file tool (file_path, \
                 content), or, to change part of it, send the text it replaces there as the old \
                 text."
            ),
            "{agent:?}: {reason}"
        );
    }
}

#[test]
fn a_move_onto_a_file_that_exists_is_told_another_target() {
    let agent = GateAgent::Codex;
    let payload = edit_payload(
        agent,
        json!({"command": "*** Begin Patch\n*** Update File: old.py\n*** Move to: new.py\n@@\n-a = 1\n+a = 2\n*** End Patch"}),
    );
    let files = MemoryFs::new([
        ("old.py".to_string(), "a = 1\n".to_string()),
        ("new.py".to_string(), "keep = True\n".to_string()),
    ]);
    let judgment = judge(agent, &payload, |_| files, &Policy::default());
    assert_eq!(judgment.case, Case::Doubt);
    let reason = assert_ends_with_step(&judgment, NextStep::MoveTarget);
    assert!(
        reason.ends_with(
            "Send the patch again with a `*** Move to:` path that does not exist, or without its \
             `*** Move to:` line (its changes then stay in the file it updates); whether the \
             existing file may be replaced is the user's to decide."
        ),
        "{reason}"
    );
}

/// A corrected patch the agent's own matcher places only by a loose stage
/// is withheld, and the reason names that stage (it read "would not apply
/// the corrected patch exactly (a loose stage)": which one, and where, was
/// left out). OpenCode's `apply_patch` over a CRLF file compares lines with
/// their `\r`, so srview's corrected patch is placed loosely too.
#[test]
fn a_corrected_patch_withheld_for_a_loose_stage_names_it() {
    let judgment = opencode_patch_over_crlf();
    let reason = deny_reason(&judgment);
    assert!(!reason.contains("(a loose stage)"), "{reason}");
    assert!(
        reason.contains(
            "No corrected edit: OpenCode 1.18.33's apply_patch tool would not apply the \
             corrected patch exactly (its edit 1 at lines 1-2 only by its loose stage `trimEnd`)."
        ),
        "{reason}"
    );
}

/// Round 38a, finding 06: OpenCode's `edit` misremembering one line of a
/// function and changing that very line is denied without a corrected
/// edit, and the deny says the line as sent is not the file's line and the
/// edit changes it (not that it looks like part of the file's line).
#[test]
fn a_misremembered_line_the_edit_changes_is_said_as_not_the_files_line() {
    let file = "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    throw new Error(\"missing\");\n  }\n  return row;\n}\n";
    let args = json!({
        "filePath": format!("{CWD}/inventory.py"),
        "oldString": "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    return null;\n  }\n  return row;\n}",
        "newString": "function find(id) {\n  const row = db.get(id);\n  if (!row) {\n    return undefined;\n  }\n  return row.value;\n}",
    });
    let judgment = judged_over(GateAgent::Opencode, &own_payload("edit", args), file);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "No corrected edit: line 4 of the text as sent (`return null;`) is not file line 4 \
             (`throw new Error(\"missing\");`), and the edit changes that line: what the file's \
             line should become cannot be told; send the edit with the file's line as it stands."
        ),
        "{reason}"
    );
    assert!(!reason.contains("looks like part of"), "{reason}");
}
