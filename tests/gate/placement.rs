//! Where a patch hunk with only added lines lands: Codex's and OpenCode's
//! `apply_patch` put such a hunk at the end of the file, whatever its `@@`
//! line names (Codex's `compute_replacements`: "Pure addition (no old
//! lines)"); Cline's puts it right after its `@@` line (or at the top of
//! the file under a bare `@@`).

use super::*;

/// The gate's record line of `judgment`, as JSON.
fn record_of(judgment: &Judgment) -> Value {
    serde_json::from_str(&judgment.record("t")).expect("the record line")
}

/// `body`'s patch of inventory.py in `agent`'s payload (Codex, OpenCode,
/// Cline).
fn patch_payload(agent: GateAgent, body: &str) -> Vec<u8> {
    let text = format!("*** Begin Patch\n*** Update File: inventory.py\n{body}*** End Patch");
    match agent {
        GateAgent::Codex => edit_payload(agent, json!({ "command": text })),
        GateAgent::Opencode => own_payload("apply_patch", json!({ "patchText": text })),
        _ => cline_patch_payload(&text),
    }
}

/// Cline's recorded payload with an `apply_patch` call of `text`.
fn cline_patch_payload(text: &str) -> Vec<u8> {
    let bytes = std::fs::read(fixtures().join("cline-cli/tool_call.payload.json"))
        .expect("the recorded payload");
    let mut payload: Value = serde_json::from_slice(&bytes).expect("JSON");
    payload["tool_call"]["name"] = "apply_patch".into();
    payload["tool_call"]["input"] = json!({ "input": text });
    payload["preToolUse"]["toolName"] = "apply_patch".into();
    payload["preToolUse"]["parameters"] = json!({ "input": text });
    payload.to_string().into_bytes()
}

/// A file whose last block is a class: a line added under `@@ class B:`
/// lands at the end of the file, inside that class.
const LAST_CLASS: &str = "class A:\n    x = 1\n\n\nclass B:\n    y = 2\n";

/// A hunk of only added lines under `@@ class Item:` lands at the end of
/// inventory.py (after `if __name__ == "__main__":`'s block), not in the
/// class: a doubt saying where it lands and what its `@@` line named, and
/// the next step to add context lines (it was told to send "whole lines of
/// the file" for it, which does not say what is wrong). Codex and OpenCode
/// place it so; the policy's fallback denies it.
#[test]
fn a_pure_addition_under_an_at_line_landing_outside_its_place_is_a_doubt() {
    let body = "@@ class Item:\n+    sku: str = \"\"\n";
    for (agent, said) in [
        (GateAgent::Codex, "the patch matches exactly"),
        (
            GateAgent::Opencode,
            "the edit of inventory.py matches exactly",
        ),
    ] {
        let judgment = judged(agent, &patch_payload(agent, body));
        assert_eq!(judgment.case, Case::Doubt, "{agent:?}");
        assert_eq!(
            judgment.next_step,
            Some(NextStep::ContextLines),
            "{agent:?}"
        );
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: {said}, but srview cannot stand behind its result: hunk #1 of \
                 inventory.py adds its lines at the end of the file, after line 54, not after its \
                 @@ line 'class Item:' (line 10): {}'s apply_patch puts a hunk with no context or \
                 removed lines at the end of the file, whatever its @@ line.\n\
                 (no review pane runs, so srview's policy doubt=review falls back to deny)\n\
                 Send the hunk again with context lines: a few lines of the file as they are there \
                 (each after a space), from the place the new lines go, around them. A hunk with \
                 no context or removed lines is placed at the end of the file, whatever its @@ \
                 line names.",
                agent.title()
            ),
            "{agent:?}"
        );
    }
}

/// The same hunk under `@@ class B:` where class B runs to the end of the
/// file: the line lands at the end of that class, the place named. Exact,
/// no opinion (it was a doubt: "not after its @@ line").
#[test]
fn a_pure_addition_landing_at_the_end_of_the_block_its_at_line_opens_passes() {
    for agent in [GateAgent::Codex, GateAgent::Opencode] {
        let judgment = judged_over(
            agent,
            &patch_payload(agent, "@@ class B:\n+    z = 3\n"),
            LAST_CLASS,
        );
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{agent:?}");
        // A line added at the class's own depth is outside it: a doubt.
        let judgment = judged_over(
            agent,
            &patch_payload(agent, "@@ class B:\n+def f(): pass\n"),
            LAST_CLASS,
        );
        assert_eq!(judgment.case, Case::Doubt, "{agent:?}");
    }
}

/// Cline's `apply_patch` puts a hunk with only added lines right after its
/// `@@` line, the place it names (its cursor): no doubt. It was told the
/// lines land at the end of the file, which is Codex's placement, not
/// Cline's (the doubt came from srview's port of Codex's applier).
#[test]
fn clines_pure_addition_lands_after_its_at_line_and_passes() {
    let agent = GateAgent::ClineCli;
    let judgment = judged(
        agent,
        &patch_payload(agent, "@@ class Item:\n+    sku: str = \"\"\n"),
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
    assert_eq!(judgment.answer, Answer::NoOpinion);
    assert_eq!(record_of(&judgment).get("note"), None);
}

/// A hunk of only added lines under a bare `@@` names no place: Codex and
/// OpenCode append it at the end of the file, their documented placement,
/// which the model may well mean (a new function, a test): exact, no
/// opinion, and the record says where the lines went. Cline puts it at the
/// top of the file, here above the module's docstring, which must stay
/// first (round 40a's find 09): a doubt saying so.
#[test]
fn a_pure_addition_under_a_bare_at_line_passes_and_the_record_says_where_it_lands() {
    let body = "@@\n+\n+\n+def restock(item, qty):\n+    item.qty += qty\n";
    let agent = GateAgent::ClineCli;
    let judgment = judged(agent, &patch_payload(agent, body));
    assert_case(&judgment, Case::Doubt);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "edit 1: Cline's apply_patch puts its 4 added lines at the top of the file, above \
             line 1 '\"\"\"Inventory helpers"
        ),
        "{reason}"
    );
    for (agent, place) in [
        (GateAgent::Codex, "at the end of the file, after line 54"),
        (GateAgent::Opencode, "at the end of the file, after line 54"),
    ] {
        let judgment = judged(agent, &patch_payload(agent, body));
        assert_case(&judgment, Case::Exact);
        assert_eq!(judgment.answer, Answer::NoOpinion, "{agent:?}");
        let title = match agent {
            GateAgent::ClineCli => "Cline",
            other => other.title(),
        };
        assert_eq!(
            record_of(&judgment)["note"],
            format!(
                "hunk #1 of inventory.py adds its 4 lines {place}: {title}'s apply_patch puts a \
                 hunk with no context or removed lines there when its @@ line names no place"
            ),
            "{agent:?}"
        );
    }
    // An edit with context has no note: the record's line is as before.
    let agent = GateAgent::Codex;
    let judgment = judged(
        agent,
        &patch_payload(agent, "@@\n LOW_STOCK = 5\n+LOW_FLOOR = 1\n"),
    );
    assert_eq!(judgment.case, Case::Exact);
    assert_eq!(record_of(&judgment).get("note"), None);
}

/// Two functions with the same body: Cline's `apply_patch` ignores an `@@`
/// line it does not find (`parseB(str)` for the file's `parseB(s)`) and
/// takes the first copy from the top, in `parseA` (a tester's find: `check`
/// said so, the gate allowed it). A doubt naming both places; the same
/// hunk under the file's own `@@` line goes on. OpenCode refuses the
/// header it does not find.
#[test]
fn a_cline_hunk_whose_at_line_is_not_found_and_lands_at_a_first_copy_is_a_doubt() {
    let judged = |header: &str| {
        judged_over(
            GateAgent::ClineCli,
            &cline_patch_payload(&support::finds::twin_parsers_patch("inventory.py", header)),
            support::finds::TWIN_PARSERS,
        )
    };
    let missed = judged("function parseB(str) {");
    assert_eq!(missed.case, Case::Doubt, "{:?}", missed.answer);
    assert_eq!(missed.next_step, Some(NextStep::WholeLines));
    assert!(
        deny_reason(&missed).contains(
            "edit 1: its @@ line 'function parseB(str) {' is not in the file, so the agent \
             searched from the top without it and took lines 2-3; the same text stands at lines \
             7-8: the agent takes the first place, which may not be the one meant."
        ),
        "{}",
        deny_reason(&missed)
    );
    let found = judged("function parseB(s) {");
    assert_eq!(found.case, Case::Exact, "{:?}", found.answer);
}

/// A tester's find (round 42a, 16): a Codex patch its parser refuses (a
/// context line without its leading space, an @@ line where a hunk line
/// goes) was answered "Read the file again": the patch's form is at fault.
/// The next step is to send it in its form; a line without its prefix gets
/// the hunk's line rules.
#[test]
fn a_patch_codex_cannot_read_is_sent_back_in_its_form() {
    for (body, rules) in [
        ("@@\n def f():\n+    x = 1\nreturn 1\n", true),
        ("@@ class Item:\n@@     def f(self):\n+    x = 1\n", false),
    ] {
        let judgment = judged(GateAgent::Codex, &patch_payload(GateAgent::Codex, body));
        assert_eq!(judgment.case, Case::Failing, "{body}");
        assert_eq!(judgment.next_step, Some(NextStep::InItsForm), "{body}");
        let reason = deny_reason(&judgment);
        assert_eq!(
            reason.contains("each line after its @@ line starts with a space"),
            rules,
            "{reason}"
        );
        assert!(
            reason.starts_with("srview gate: Codex cannot read this patch: ")
                && reason.ends_with(
                    "Send the apply_patch again in the form it takes: the error above says what \
                     is wrong with this one."
                ),
            "{reason}"
        );
    }
}

// --- several places, part of a line (tester round 43a: 04, 06, 10) -------

/// `(old, new)` as `agent`'s string edit of inventory.py in its payload
/// (Gemini CLI, Qwen Code: their recorded shape; OpenCode: srview's JSON).
fn string_payload(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::Opencode => own_payload(
            "edit",
            json!({"filePath": format!("{CWD}/inventory.py"), "oldString": old, "newString": new}),
        ),
        _ => edit_payload(agent, string_edit(agent, old, new)),
    }
}

/// The old and new texts of a rewritten string edit.
fn rewritten_pair(judgment: &Judgment) -> (String, String) {
    let input = rewritten_input(judgment);
    let field = |a: &str, b: &str| {
        input[a]
            .as_str()
            .or_else(|| input[b].as_str())
            .unwrap_or_else(|| panic!("{input}"))
            .to_string()
    };
    (
        field("old_string", "oldString"),
        field("new_string", "newString"),
    )
}

/// A tester's find (43a-10): an old text a loose stage (Gemini CLI's
/// `regex`, OpenCode's `WhitespaceNormalizedReplacer`) matched at the start
/// of a line was "corrected" to the whole line with the model's new text,
/// dropping the line's rest the model never saw (`[0]`, ` or 0`). The
/// rewrite keeps that rest, as the agent's own result does; where the
/// match ends inside a word (`retries = 1` of `retries = 10`: the value
/// the model believed is not the file's), no correction: denied, the word
/// and the whole line named.
#[test]
fn a_loose_match_of_part_of_a_line_keeps_the_lines_unseen_rest() {
    let file = "def first(rows):\n    row = fetch(rows)[0]\n    value = cache.get(key) or 0\n    retries = 10\n    return row\n";
    for agent in [GateAgent::GeminiCli, GateAgent::Opencode] {
        for (old, new, want_old, want_new) in [
            (
                "    row  = fetch(rows)",
                "    row = fetch(rows, limit=1)",
                "    row = fetch(rows)[0]",
                "    row = fetch(rows, limit=1)[0]",
            ),
            (
                "    value  = cache.get(key)",
                "    value = cache.get(key, ttl=5)",
                "    value = cache.get(key) or 0",
                "    value = cache.get(key, ttl=5) or 0",
            ),
        ] {
            let judgment = judged_over(agent, &string_payload(agent, old, new), file);
            assert_case(&judgment, Case::Loose);
            let (fixed_old, fixed_new) = rewritten_pair(&judgment);
            assert_eq!(fixed_old, want_old, "{agent:?}");
            assert_eq!(fixed_new, want_new, "{agent:?}");
            assert!(
                judgment
                    .answer
                    .message()
                    .is_some_and(|m| m.contains("keeps the rest of file line")),
                "{agent:?}: {:?}",
                judgment.answer
            );
        }
        let judgment = judged_over(
            agent,
            &string_payload(agent, "    retries  = 1", "    retries = 2"),
            file,
        );
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(
                "No corrected edit: the text the agent matched ends inside `10` of file line 4 \
                 (`retries = 10`)"
            ) && reason.contains("+     4 |     retries = 10"),
            "{agent:?}: {reason}"
        );
        assert_eq!(offered_input(agent, &reason), None, "{agent:?}");
    }
}

/// Two functions whose lines differ only in indentation.
const TWO_LOADS: &str = "def load(path):\n    data = read(path)\n    return parse(data)\n\n\nclass Loader:\n    def load(self, path):\n        data = read(path)\n        return parse(data)\n";

/// A tester's find (43a-06): a patch hunk whose lines, trimmed, fit two
/// places indented differently was rewritten onto the first and allowed
/// (Codex, OpenCode, Cline), the second never named. Which one the model
/// meant cannot be told: denied, both places named, nothing rewritten. A
/// hunk that fits one place loosely is still rewritten.
#[test]
fn a_loose_hunk_fitting_two_places_is_denied_naming_both() {
    let two = "@@\n          data = read(path)\n-          return parse(data)\n+          return parse(data, strict=True)\n";
    let one = "@@\n       def load(self, path):\n           data = read(path)\n-          return parse(data)\n+          return parse(data, strict=True)\n";
    for agent in [GateAgent::Codex, GateAgent::Opencode, GateAgent::ClineCli] {
        let judgment = judged_over(agent, &patch_payload(agent, two), TWO_LOADS);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains("at lines 2-3, and its lines fit lines 8-9 as loosely: which place is meant cannot be told"),
            "{agent:?}: {reason}"
        );
        let judgment = judged_over(agent, &patch_payload(agent, one), TWO_LOADS);
        assert_case(&judgment, Case::Loose);
        assert!(
            matches!(judgment.answer, Answer::Rewrite { .. }),
            "{agent:?}: {:?}",
            judgment.answer
        );
    }
}

/// A tester's find (43a-04): an old text fitting line 6 by its quote style
/// (where Qwen Code's loose stage places it) and line 11 by its trailing
/// spaces (srview's closest) was corrected onto line 11, presented as
/// certain. Denied naming both, no edit offered; the same text as a Codex
/// hunk too.
#[test]
fn an_old_text_fitting_two_places_by_different_forms_is_denied_naming_both() {
    let readme = "# Tool\n\n## Linux\n\nInstall the package.\nThen run \u{201c}make test\u{201d} first.\n\n## macOS\n\nInstall with brew.\nThen run \"make test\" first.  \n";
    let old = "Then run \"make test\" first.\n";
    let new = "Then run \"make check\" first.\n";
    let judgment = judged_over(
        GateAgent::QwenCode,
        &string_payload(GateAgent::QwenCode, old, new),
        readme,
    );
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains(
            "No corrected edit: the old_string fits line 6 and line 11 about as loosely (Qwen \
             Code 0.24.4's edit tool places it at line 6 by its loose stage \
             `normalizeBasicCharacters`): which place is meant cannot be told"
        ),
        "{reason}"
    );
    assert_eq!(offered_input(GateAgent::QwenCode, &reason), None);
    let judgment = judged_over(
        GateAgent::Codex,
        &patch_payload(
            GateAgent::Codex,
            "@@\n-Then run \"make test\" first.\n+Then run \"make check\" first.\n",
        ),
        readme,
    );
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains("(trailing-space) at line 11, and its lines fit line 6 as loosely"),
        "{reason}"
    );
}

/// Tester 51's payload `name` (tests/fixtures/gate/tester51/) judged under
/// the default policy in a folder holding `ra.py` and `one.py`: the
/// answer's stdout, the folder written `WORKSPACE`.
fn tester51_answer(agent: GateAgent, name: &str) -> String {
    let dir = tempfile::tempdir().expect("a workspace");
    let fixtures = fixtures().join("tester51");
    for file in ["ra.py", "one.py"] {
        std::fs::copy(fixtures.join(file), dir.path().join(file)).expect("the file");
    }
    let cwd = dir.path().to_str().expect("a UTF-8 path");
    let payload = std::fs::read_to_string(fixtures.join(name))
        .expect("the payload")
        .replace("WORKSPACE", cwd);
    let judgment = judged_in_its_folder(agent, payload.as_bytes(), &Policy::default());
    String::from_utf8_lossy(&judgment.reply().stdout).replace(cwd, "WORKSPACE")
}

/// A replace-all edit (OpenCode's `replaceAll`, Gemini CLI's
/// `allow_multiple`) sent without indentation, of a text at 4 columns in
/// `load()` and at 8 in `Store.get()` (tester 51, T-10): the model asked
/// for every place, so the deny no longer says "which one is meant cannot
/// be told". It says what the agent writes (Gemini CLI re-indents every
/// place: what the model meant; OpenCode changes lines 2-3 only, with the
/// model's lines as sent), the lines each place should get, and, the
/// places standing at two indentations, the two exact replace-all edits to
/// send (their result compiles: `python3 -m py_compile`). Where every place
/// stands at one indentation, the one exact replace-all edit is the repair.
/// Qwen Code, which refuses the edit (no stage of its finds trimmed
/// lines) and takes no rewrite, is denied with the same edits to send.
#[test]
fn a_replace_all_placed_loosely_is_judged_at_every_place() {
    let expected = |name: &str| {
        std::fs::read_to_string(fixtures().join("tester51").join(name))
            .expect("the expected answer")
    };
    for (agent, name) in [
        (GateAgent::GeminiCli, "t10_replace_all.gemini-cli"),
        (GateAgent::Opencode, "t10_replace_all.opencode"),
        (GateAgent::Opencode, "t10_one_indentation.opencode"),
        (GateAgent::QwenCode, "t10_replace_all.qwen-code"),
        (GateAgent::QwenCode, "t10_one_indentation.qwen-code"),
    ] {
        assert_eq!(
            tester51_answer(agent, &format!("{name}.json")),
            expected(&format!("{name}.expected.json")),
            "{name}"
        );
    }
}
