//! Edits a tester found the gate let through without running its trust
//! checks on them: a replace-all (every place of the old text), OpenCode's
//! and Cline's `apply_patch` (the checks Codex's patches get), an edit whose
//! new text stands in for lines it leaves out (held in a Write), an edit
//! of the gate's own files. Each is judged here in its agent's shape.

use serde_json::json;
use srview::gate::{Case, GateAgent, Judgment, Policy};

use super::support::samples::RETURNS_PY;
use super::support::text::assert_contains;

use super::{
    CWD, assert_case, deny_reason, edit_payload, inventory, judge_on, judged, judged_in_its_folder,
    judged_over, latin1_project, own_payload, string_edit,
};

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
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains("already"), "{agent:?}: {reason}");
        let renamed = replace_all(agent, "count", "total");
        let judgment = judge_on(agent, &renamed, ACC, &policy);
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(reason.contains("inside the word"), "{agent:?}: {reason}");
    }
}

/// Cline CLI 3.0.65's recorded payload carrying an `apply_patch` call.
fn cline_patch(patch: &str) -> Vec<u8> {
    let bytes = std::fs::read(super::fixtures().join("cline-cli/tool_call.payload.json"))
        .expect("the recorded payload");
    let mut payload: serde_json::Value = serde_json::from_slice(&bytes).expect("JSON");
    payload["tool_call"]["name"] = "apply_patch".into();
    payload["tool_call"]["input"] = json!({ "input": patch });
    payload["preToolUse"] = json!({"toolName": "apply_patch", "parameters": {"input": patch}});
    payload.to_string().into_bytes()
}

/// OpenCode's and Cline's `apply_patch`, which their own matchers place
/// exactly: a hunk already applied (`@dataclass` sent again above `class
/// Item`), a hunk whose lines occur twice (`for item in items:`, lines 18
/// and 24: the first is taken), an `*** Add File:` over the file (OpenCode
/// replaces it; Cline refuses it itself). Each a doubt naming the file, as
/// Codex's patches are (they passed with no opinion, recorded as of "the
/// files").
#[test]
fn opencode_and_cline_patches_get_the_patch_checks() {
    let wrap =
        |body: &str| format!("*** Begin Patch\n*** Update File: inventory.py\n{body}*** End Patch");
    let cases = [
        (wrap("@@\n+@dataclass\n class Item:\n"), "already there"),
        (
            wrap("@@\n-    for item in items:\n+    for it in items:\n"),
            "also stands at line 24",
        ),
    ];
    for (patch, said) in &cases {
        for (agent, payload) in [
            (
                GateAgent::Opencode,
                own_payload("apply_patch", json!({ "patchText": patch })),
            ),
            (GateAgent::ClineCli, cline_patch(patch)),
        ] {
            let reason = inventory_doubt(agent, &payload, patch);
            assert!(reason.contains(said), "{agent:?}: {reason}");
        }
    }
    let add_over = "*** Begin Patch\n*** Add File: inventory.py\n+x = 1\n*** End Patch";
    let reason = inventory_doubt(
        GateAgent::Opencode,
        &own_payload("apply_patch", json!({ "patchText": add_over })),
        add_over,
    );
    assert_contains(
        &reason,
        "the patch adds inventory.py, which exists (54 lines)",
    );
    let judgment = judged(GateAgent::ClineCli, &cline_patch(add_over));
    assert_eq!(judgment.case, Case::Failing, "{:?}", judgment.answer);
    assert_eq!(judgment.file.as_deref(), Some("inventory.py"));
}

/// An edit replacing two functions whose new text keeps one, changed, and
/// stands `# ... rest of the helpers unchanged ...` in for the other: in
/// doubt in every agent's shape (it passed everywhere, while a Write of the
/// same result was held), and an edit that keeps every line beside such a
/// comment is not.
#[test]
fn an_edit_standing_in_for_lines_it_leaves_out_is_a_doubt() {
    let old = "def total_value(items):\n    total = 0\n    for item in items:\n        total += item.price * item.qty\n    return total\n\n\ndef find_item(items, name):\n    for item in items:\n        if item.name == name:\n            return item\n    return None\n";
    let new = "def total_value(items):\n    return sum(i.price * i.qty for i in items)\n\n\n# ... rest of the helpers unchanged ...\n";
    let said = "its new text stands in for lines it leaves out (its line 5: `# ... rest of the \
                helpers unchanged ...`), so it deletes 9 non-blank lines of the text it replaces";
    for agent in super::OLD_NEW_AGENTS {
        let payload = super::old_new_payload(agent, old, new);
        let judgment = judged(agent, &payload);
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        let expected = if agent == GateAgent::Codex {
            "hunk #1 of inventory.py stands in for lines it leaves out (its added line `# ... \
             rest of the helpers unchanged ...`), so it deletes 9 non-blank lines"
        } else {
            said
        };
        assert!(reason.contains(expected), "{agent:?}: {reason}");
    }
    // Every line kept, a comment beside them: no doubt.
    let kept = format!("{old}\n\n# ... rest of the helpers unchanged ...\n");
    let judgment = judged(
        GateAgent::GeminiCli,
        &edit_payload(
            GateAgent::GeminiCli,
            string_edit(GateAgent::GeminiCli, old, &kept),
        ),
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// A Write of `{}` over Claude Code's settings (which turns the gate off),
/// a patch adding a file in `.srview/`, an OpenCode write over srview's
/// plugin: each a doubt the user decides (they had no opinion); the same
/// Write elsewhere is exact.
#[test]
fn an_edit_of_the_gates_own_files_is_a_doubt() {
    let write = |path: &str| {
        let mut payload: serde_json::Value =
            serde_json::from_slice(&edit_payload(GateAgent::ClaudeCode, json!({}))).expect("JSON");
        payload["tool_name"] = "Write".into();
        payload["tool_input"] = json!({"file_path": path, "content": "{}\n"});
        payload.to_string().into_bytes()
    };
    let judgment = judged(
        GateAgent::ClaudeCode,
        &write(&format!("{CWD}/.claude/settings.json")),
    );
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    assert_eq!(
        deny_reason(&judgment),
        format!(
            "srview gate: the edit of {CWD}/.claude/settings.json matches exactly, but srview \
             cannot stand behind its result: it changes the agent's hook settings (where \
             srview's gate is installed), which may turn srview's gate off: the user decides.\n\
             (no review pane runs, so srview's policy doubt=review falls back to deny)\n\
             Leave srview's gate as it is unless the user asked for this change; if they did, \
             only they can let it through (in srview's review pane, or by srview's policy)."
        )
    );
    let judgment = judged(
        GateAgent::ClaudeCode,
        &write(&format!("{CWD}/settings.json")),
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
    let add = super::patch("").to_string().replace(
        "*** Update File: inventory.py\\n",
        "*** Add File: .srview/gate.jsonl\\n+{}\\n",
    );
    let add: serde_json::Value = serde_json::from_str(&add).expect("JSON");
    let judgment = judged(GateAgent::Codex, &edit_payload(GateAgent::Codex, add));
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    assert!(deny_reason(&judgment).contains("srview's own folder"));
    let plugin = own_payload(
        "write",
        json!({"filePath": format!("{CWD}/.opencode/plugin/srview-gate.js"), "content": ""}),
    );
    assert_eq!(judged(GateAgent::Opencode, &plugin).case, Case::Doubt);
}

/// A file that is not UTF-8 (UTF-16, Latin-1): the deny says so plainly and
/// what the model can do, not Rust's "stream did not contain valid UTF-8".
#[test]
fn an_edit_of_a_file_that_is_not_utf8_is_denied_plainly() {
    let dir = latin1_project("srview-gate-latin1");
    let root = dir.to_string_lossy().to_string();
    let judgment = srview::gate::judge(
        GateAgent::GeminiCli,
        &edit_payload(
            GateAgent::GeminiCli,
            string_edit(GateAgent::GeminiCli, "a", "b"),
        ),
        |_| srview::dialect::apply_patch::DirFs {
            root: root.clone().into(),
        },
        &Policy::default(),
    );
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(judgment.case, Case::Unreadable);
    assert_eq!(
        deny_reason(&judgment),
        format!(
            "srview gate: this replace cannot be judged, so it is denied: {CWD}/inventory.py is \
             not UTF-8 text (its encoding is another, or it is binary), which srview reads \
             only\nDo not send this edit again: tell the user that srview's gate cannot judge \
             edits of this file, so they can make the change themselves."
        )
    );
}

/// Codex's patch of `hunk` over the inventory, judged under `loose=deny`.
fn codex_hunk_under_loose_deny(hunk: &str) -> Judgment {
    super::judge_on(
        GateAgent::Codex,
        &edit_payload(GateAgent::Codex, super::patch(hunk)),
        &super::inventory(),
        &Policy::parse("loose=deny").expect("a policy"),
    )
}

/// A Codex hunk whose `@@` line is written without the file's indentation
/// while its lines match exactly: the message names the `@@` line and shows
/// it against the file's (it blamed the hunk's first line, shown the same
/// in both).
#[test]
fn a_loose_at_at_line_is_named_as_the_loose_line() {
    let judgment = codex_hunk_under_loose_deny(
        "@@ for item in items:\n-        total += item.price * item.qty\n+        total += item.qty * item.price\n",
    );
    assert_eq!(judgment.case, Case::Loose);
    let reason = deny_reason(&judgment);
    assert!(
        reason.starts_with(
            "srview gate: Codex would apply this patch only loosely: hunk 1 of inventory.py \
             matched line 19 with its lines exact, but its @@ line only at level trimmed: the @@ \
             line `for item in items:` is `    for item in items:` at line 18 of the file \
             (indentation or spacing differs from the file).\nThe lines (- a line as sent, + \
             the file's line at that number, blank: the same in both):\n  -  sent | for item in \
             items:\n  +    18 |     for item in items:\n"
        ),
        "{reason}"
    );
}

/// A tester's find (42a-12): an `@@` line written without the file's
/// indentation, found only trimmed but at one line of the file, with the
/// hunk's lines exact: Codex writes the model's lines byte for byte (the
/// `@@` line is never written), so it is exact, not loose, under
/// `loose=deny` too. The same `@@` line standing twice in the file (the
/// test above) stays loose: the place it names is in question.
#[test]
fn a_loose_at_at_line_found_at_one_place_is_exact() {
    let judgment = codex_hunk_under_loose_deny(
        "@@ total = 0\n-        total += item.price * item.qty\n+        total += item.qty * item.price\n",
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// pi's edit of a file mixing CRLF and LF: pi writes every line with one
/// ending, lines no edit covers too. The model is told which lines, why,
/// and that no edit text avoids it (it read only "also rewrites lines no
/// edit covers", then "send an edit whose old text is the file's own").
#[test]
fn pis_rewrite_of_mixed_line_endings_is_said_with_what_to_do() {
    let payload = own_payload(
        "edit",
        json!({"path": "inventory.py", "edits": [{"oldText": "line one\n", "newText": "line 1\n"}]}),
    );
    let judgment = judged_over(
        GateAgent::Pi,
        &payload,
        "line one\r\nline two\nline three\r\n",
    );
    assert_eq!(judgment.case, Case::Loose);
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: pi 0.73.1's edit tool also rewrites 1 line no edit covers (line 2): the \
         file mixes CRLF and LF line endings, and it writes every line with CRLF, whatever the \
         edit's text: tell the user, who can unify the file's line endings first."
    );
}

/// An older Claude Code's MultiEdit (a hook matcher written by hand): not
/// judged, so denied with what to send instead (it had no opinion).
#[test]
fn a_multiedit_is_denied_with_what_to_send_instead() {
    let mut payload: serde_json::Value =
        serde_json::from_slice(&edit_payload(GateAgent::ClaudeCode, json!({}))).expect("JSON");
    payload["tool_name"] = "MultiEdit".into();
    payload["tool_input"] = json!({"file_path": format!("{CWD}/inventory.py"), "edits": [
        {"old_string": "LOW_STOCK = 5\n", "new_string": "LOW_STOCK = 10\n"}]});
    let judgment = judged(GateAgent::ClaudeCode, payload.to_string().as_bytes());
    assert_eq!(judgment.case, Case::Unreadable);
    assert_eq!(
        deny_reason(&judgment),
        "srview gate: this MultiEdit cannot be judged, so it is denied: srview's gate does not \
         judge MultiEdit (Claude Code 2.1.328, whose tools srview follows, has none)\nSend each \
         of its edits with the Edit tool instead."
    );
}

/// `shop.py` of a tester's find (41 lines): `Cart.add`, `Cart.total` and
/// `Cart.account_count` share `return self.count`-like lines.
const SHOP_PY: &str = "import os\nimport sys\nfrom dataclasses import dataclass\n\n\n@dataclass\nclass Item:\n    name: str\n    qty: int\n    price: float\n\n\nclass Cart:\n    def __init__(self):\n        self.items = []\n        self.count = 0\n\n    def add(self, item):\n        self.items.append(item)\n        self.count += 1\n        return self.count\n\n    def total(self):\n        total = 0\n        for item in self.items:\n            if item.qty > 0:\n                total += item.qty * item.price\n        return total\n\n    def account_count(self):\n        return self.count\n\n\ndef main():\n    cart = Cart()\n    cart.add(Item(\"pen\", 1, 2.5))\n    print(cart.total())\n\n\nif __name__ == \"__main__\":\n    main()\n";

/// A Write of `content` over inventory.py in `agent`'s shape.
pub(super) fn write_payload(agent: GateAgent, content: &str) -> Vec<u8> {
    let path = format!("{CWD}/inventory.py");
    match agent {
        GateAgent::Opencode => own_payload("write", json!({"filePath": path, "content": content})),
        GateAgent::Pi => own_payload("write", json!({"path": path, "content": content})),
        _ => {
            let mut payload: serde_json::Value =
                serde_json::from_slice(&edit_payload(agent, json!({}))).expect("JSON");
            payload["tool_name"] = match agent {
                GateAgent::ClaudeCode => "Write",
                _ => "write_file",
            }
            .into();
            payload["tool_input"] = json!({"file_path": path, "content": content});
            payload.to_string().into_bytes()
        }
    }
}

/// The deny reason of `agent`'s `payload` (sending `what`), judged over
/// the project: it must be a doubt about inventory.py.
fn inventory_doubt(agent: GateAgent, payload: &[u8], what: &str) -> String {
    let judgment = judged(agent, payload);
    assert_eq!(
        judgment.case,
        Case::Doubt,
        "{agent:?} {what}: {:?}",
        judgment.answer
    );
    assert_eq!(
        judgment.file.as_deref(),
        Some("inventory.py"),
        "{agent:?} {what}"
    );
    deny_reason(&judgment)
}

/// A tester's find: a Write, an Edit and a Codex hunk standing a line in
/// for the methods they drop passed unless the line used one of a few
/// known wordings (`# existing methods here`, `# same as before`, a bare
/// `...` passed: 41 lines became 21). Now decided by what the line stands
/// where: a comment-only line (or a lone `...`) the file does not hold, alone
/// where a run of the file's lines disappears.
#[test]
fn a_stand_in_is_found_by_where_it_stands_not_by_its_wording() {
    let lines: Vec<&str> = SHOP_PY.lines().collect();
    let wordings = [
        "    # ... existing code ...",
        "    # (unchanged)",
        "    # existing methods here",
        "    # same as before",
        "    # Keep existing methods",
        "    # [snip]",
        "    # and so on",
        "    # <existing methods>",
        "    # [other methods]",
        "    // the other methods",
        "    ...",
        "    \u{2026}",
    ];
    for stand_in in wordings {
        let content = format!("{}\n{stand_in}\n", lines[..20].join("\n"));
        let agents = super::STRING_EDIT_AGENTS;
        for agent in agents {
            let judgment = judged_over(agent, &write_payload(agent, &content), SHOP_PY);
            assert_eq!(judgment.case, Case::Doubt, "{agent:?} [{stand_in}]");
            let expected = format!(
                "its content stands in for lines it leaves out (line 21: `{}`), so writing it \
                 deletes 15 non-blank lines of the file (41 lines become 21)",
                stand_in.trim()
            );
            let reason = deny_reason(&judgment);
            assert!(reason.contains(&expected), "{agent:?}: {reason}");
        }
        // An Edit keeping `add()`, changed, and standing the line in for
        // `total()` and `account_count()`.
        let old = &SHOP_PY[SHOP_PY.find("    def add").expect("add")
            ..SHOP_PY.find("\n\ndef main").expect("main") + 1];
        let new = format!(
            "    def add(self, item, n=1):\n        self.items.append(item)\n        self.count += n\n        return self.count\n\n{stand_in}\n"
        );
        let payload = edit_payload(
            GateAgent::ClaudeCode,
            string_edit(GateAgent::ClaudeCode, old, &new),
        );
        let judgment = judged_over(GateAgent::ClaudeCode, &payload, SHOP_PY);
        assert_eq!(judgment.case, Case::Doubt, "Edit [{stand_in}]");
        let expected = format!(
            "its new text stands in for lines it leaves out (its line 6: `{}`), so it deletes \
             10 non-blank lines of the text it replaces",
            stand_in.trim()
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains(&expected), "{reason}");
        // Codex: a hunk dropping `total()` and `account_count()`.
        let hunk: String = ["@@ class Cart:".to_string()]
            .into_iter()
            .chain(lines[17..22].iter().map(|l| format!(" {l}")))
            .chain(lines[22..31].iter().map(|l| format!("-{l}")))
            .chain([format!("+{stand_in}")])
            .chain(lines[31..34].iter().map(|l| format!(" {l}")))
            .map(|l| l + "\n")
            .collect();
        let payload = edit_payload(GateAgent::Codex, super::patch(&hunk));
        let judgment = judged_over(GateAgent::Codex, &payload, SHOP_PY);
        assert_eq!(judgment.case, Case::Doubt, "Codex [{stand_in}]");
        let expected = format!(
            "hunk #1 of inventory.py stands in for lines it leaves out (its added line `{}`), \
             so it deletes 8 non-blank lines",
            stand_in.trim()
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains(&expected), "{reason}");
    }
}

/// Texts that look like stand-ins and are not: each exact, no opinion.
/// A comment written beside the code that replaces a loop (a refactor
/// explaining itself); a comment where two lines go; a `...` the stub file
/// already holds, while a Write drops three of its methods; a docstring
/// whose doctest has a `...` line and a `# ` line; a section comment added
/// while a method is deleted elsewhere; a Python string line saying "...
/// rest unchanged ..." beside new code (`"` opens a comment in Vim script
/// only); a `%` continuing a format; a docstring saying what the code does;
/// a code line commented `# unchanged` where one line goes; a `raise
/// NotImplementedError` whose comment says something else.
#[test]
fn look_alikes_of_a_stand_in_are_not_doubted() {
    let claude_edit = |old: &str, new: &str| {
        edit_payload(
            GateAgent::ClaudeCode,
            string_edit(GateAgent::ClaudeCode, old, new),
        )
    };
    let loop_body = "        total = 0\n        for item in self.items:\n            if item.qty > 0:\n                total += item.qty * item.price\n        return total\n";
    let stub = "from typing import Protocol\n\n\nclass Store(Protocol):\n    def get(self, key: str) -> int:\n        ...\n\n    def put(self, key: str, value: int) -> None:\n        ...\n\n    def drop(self, key: str) -> None:\n        ...\n\n    def size(self) -> int:\n        ...\n";
    let stub_kept = "from typing import Protocol\n\n\nclass Store(Protocol):\n    def get(self, key: str) -> int:\n        ...\n";
    let deleted_elsewhere = SHOP_PY
        .replace(loop_body, "")
        .replace("    def total(self):\n", "")
        .replace("\n\ndef main", "\n\n# The entry point.\ndef main");
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a comment beside the code replacing a loop",
            claude_edit(
                loop_body,
                "        # Only items in stock count.\n        return sum(i.qty * i.price for i in self.items if i.qty > 0)\n",
            ),
            SHOP_PY,
        ),
        (
            "a comment where two lines go",
            claude_edit(
                "        self.count += 1\n        return self.count\n",
                "        # The count is len(self.items) now.\n",
            ),
            SHOP_PY,
        ),
        (
            "a stub's `...` it already holds",
            write_payload(GateAgent::ClaudeCode, stub_kept),
            stub,
        ),
        (
            "a docstring with a doctest",
            claude_edit(
                loop_body,
                "        \"\"\"The cart's total.\n\n        # in stock only\n        >>> Cart().total(\n        ...\n        ... )\n        0\n        \"\"\"\n        return sum(i.qty * i.price for i in self.items if i.qty > 0)\n",
            ),
            SHOP_PY,
        ),
        (
            "a section comment while a method is deleted elsewhere",
            write_payload(GateAgent::ClaudeCode, &deleted_elsewhere),
            SHOP_PY,
        ),
        (
            "a string line saying the rest is unchanged, beside new code",
            claude_edit(
                loop_body,
                "        log(\n            \"... rest of the items unchanged ...\"\n        )\n        return sum(i.qty * i.price for i in self.items if i.qty > 0)\n",
            ),
            SHOP_PY,
        ),
        (
            "a `%` line continuing a format where lines go",
            claude_edit(
                loop_body,
                "        return (\"%d in stock\"\n                % len(self.items))\n",
            ),
            SHOP_PY,
        ),
        (
            "a docstring saying what the method does",
            claude_edit(
                loop_body,
                "        \"\"\"The cart's total, items in stock only.\"\"\"\n        return sum(i.qty * i.price for i in self.items if i.qty > 0)\n",
            ),
            SHOP_PY,
        ),
        (
            "a code line whose comment says it is unchanged, where one line goes",
            claude_edit(
                "        self.count += 1\n        return self.count\n",
                "        return self.count  # unchanged\n",
            ),
            SHOP_PY,
        ),
        (
            "a `raise NotImplementedError` with another comment",
            claude_edit(
                loop_body,
                "        raise NotImplementedError  # subclasses price their items\n",
            ),
            SHOP_PY,
        ),
    ];
    for (what, payload, content) in cases {
        let judgment = judged_over(GateAgent::ClaudeCode, &payload, content);
        assert_eq!(judgment.case, Case::Exact, "{what}: {:?}", judgment.answer);
    }
}

/// A patch whose `*** Move to:` names the file it updates (`./inventory.py`,
/// `inventory.py`, its absolute path): Codex, OpenCode and Cline write the
/// file, then delete it. A doubt naming the loss, with the patch without
/// the Move line offered (it passed with no opinion). A move to another,
/// new file is no doubt.
#[test]
fn a_patch_moving_a_file_onto_itself_is_a_doubt_with_the_move_dropped() {
    let hunk = "@@\n class Item:\n-    name: str\n+    name: str  # the label\n";
    let fixed = format!("*** Begin Patch\n*** Update File: inventory.py\n{hunk}*** End Patch");
    for target in [
        "./inventory.py".to_string(),
        "inventory.py".to_string(),
        format!("{CWD}/inventory.py"),
    ] {
        let patch = format!(
            "*** Begin Patch\n*** Update File: inventory.py\n*** Move to: {target}\n{hunk}*** End \
             Patch"
        );
        for (agent, payload, key) in [
            (
                GateAgent::Codex,
                edit_payload(GateAgent::Codex, json!({ "command": patch })),
                "command",
            ),
            (
                GateAgent::Opencode,
                own_payload("apply_patch", json!({ "patchText": patch })),
                "patchText",
            ),
            (GateAgent::ClineCli, cline_patch(&patch), "input"),
        ] {
            let judgment = judged(agent, &payload);
            assert_eq!(judgment.case, Case::Doubt, "{agent:?} {target}");
            let reason = deny_reason(&judgment);
            let own = match agent {
                GateAgent::Codex => "Codex's",
                GateAgent::Opencode => "OpenCode's",
                _ => "Cline's",
            };
            assert!(
                reason.contains(&format!(
                    "inventory.py is moved onto itself (`*** Move to: {target}`): {own} \
                     apply_patch writes it, then deletes it, and the file is lost: send the \
                     patch without that `*** Move to:` line to update inventory.py in place."
                )),
                "{agent:?}: {reason}"
            );
            let offered = super::offered_input(agent, &reason).expect("an offered patch");
            assert_eq!(offered[key], fixed.as_str(), "{agent:?}");
        }
        // The same doubt in srview's patch checks (`check`, the previewer).
        use srview::dialect::apply_patch::{self, PatchDoubtKind};
        let parsed = apply_patch::parse(&patch).expect("a patch");
        let fs = super::project(&super::inventory());
        let outcome = apply_patch::apply(&parsed, &fs, CWD);
        let kinds: Vec<PatchDoubtKind> = apply_patch::patch_doubts(&parsed, &outcome, &fs, CWD)
            .into_iter()
            .map(|d| d.kind)
            .collect();
        assert_eq!(kinds, [PatchDoubtKind::MovesOntoItself], "{target}");
    }
    // The offered patch applies exactly with Codex's matcher, and is no doubt.
    let offered = json!({ "command": fixed });
    super::assert_exact_with_agents_matcher(GateAgent::Codex, &offered, &super::inventory());
    let judgment = judged(GateAgent::Codex, &edit_payload(GateAgent::Codex, offered));
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
    // A move to another file, which does not exist: no doubt.
    let elsewhere = format!(
        "*** Begin Patch\n*** Update File: inventory.py\n*** Move to: stock.py\n{hunk}*** End Patch"
    );
    let judgment = judged(
        GateAgent::Codex,
        &edit_payload(GateAgent::Codex, json!({ "command": elsewhere })),
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// A tester's find (round 48, T-06): a patch with two `*** Update File:`
/// sections for one file. Codex applies them in turn and searches the
/// later section's hunks from the file's top again: its `return None`
/// lands in `first`, not after `second` as one section would place it.
/// OpenCode derives both sections from the file before the patch and
/// writes them in turn: the first section's change is lost. Each a doubt
/// naming both sections, with the patch as one section offered (checked
/// with the agent's matcher); Cline refuses such a patch itself. Sections
/// whose result is the one section's are no doubt with Codex.
#[test]
fn two_sections_for_one_file_are_a_doubt_with_the_sections_joined() {
    let section = |hunk: &str| format!("*** Update File: inventory.py\n{hunk}");
    let patch_of = |body: &str| format!("*** Begin Patch\n{body}*** End Patch");
    let first = "@@ def second(y):\n     if y is None:\n-        return None\n+        return 0\n";
    let second = "@@\n-        return None\n+        return []\n";
    let patch = patch_of(&(section(first) + &section(second)));
    let fixed = patch_of(&(section(first) + second));
    let payload_of = |agent: GateAgent, patch: &str| match agent {
        GateAgent::Codex => edit_payload(agent, json!({ "command": patch })),
        GateAgent::Opencode => own_payload("apply_patch", json!({ "patchText": patch })),
        _ => cline_patch(patch),
    };
    for (agent, key, said) in [
        (
            GateAgent::Codex,
            "command",
            "hunk #1 of section 2 updates inventory.py again after section 1: Codex's \
             apply_patch searches a section's hunks from the top of the file (as section 1 \
             left it), so it lands at line 3, and its lines stand again at line 15, past \
             section 1's hunks, where the same hunks sent as one section would land: send the \
             hunks of inventory.py as one section, in file order.",
        ),
        (
            GateAgent::Opencode,
            "patchText",
            "sections 1 and 2 both update inventory.py (patch lines 2-10): OpenCode's \
             apply_patch reads each section from inventory.py as it was before the patch and \
             writes them in turn, so section 2's result replaces section 1's, and the change \
             of section 1 is lost: send the hunks of inventory.py as one section, in file \
             order",
        ),
    ] {
        let judgment = judged_over(agent, &payload_of(agent, &patch), RETURNS_PY);
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert_contains(&reason, said);
        let offered = super::offered_input(agent, &reason).expect("an offered patch");
        assert_eq!(
            offered[key].as_str().map(str::trim_end),
            Some(fixed.as_str()),
            "{agent:?}"
        );
        // The offered patch: exact with the agent's matcher, no doubt.
        let judgment = judged_over(agent, &payload_of(agent, &fixed), RETURNS_PY);
        assert_eq!(
            judgment.case,
            Case::Exact,
            "{agent:?}: {:?}",
            judgment.answer
        );
    }
    // Cline refuses the patch itself (no write to doubt): its error, and
    // the sections joined offered, which Cline places exactly.
    let judgment = judged_over(GateAgent::ClineCli, &cline_patch(&patch), RETURNS_PY);
    assert_eq!(judgment.case, Case::Failing, "{:?}", judgment.answer);
    let reason = deny_reason(&judgment);
    assert_contains(&reason, "Duplicate update for file: inventory.py");
    let offered = super::offered_input(GateAgent::ClineCli, &reason).expect("an offered patch");
    assert_eq!(
        offered["input"].as_str().map(str::trim_end),
        Some(fixed.as_str())
    );
    let judgment = judged_over(GateAgent::ClineCli, &cline_patch(&fixed), RETURNS_PY);
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
    // Sections whose hunks land as one section's would: Codex writes what
    // was meant (OpenCode still loses the first section's change).
    let unique = patch_of(
        &(section("@@ def second(y):\n-    return y + 1\n+    return y + 2\n")
            + &section("@@\n     if not z:\n-        return None\n+        raise ValueError\n")),
    );
    let judgment = judged_over(
        GateAgent::Codex,
        &payload_of(GateAgent::Codex, &unique),
        RETURNS_PY,
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
    let judgment = judged_over(
        GateAgent::Opencode,
        &payload_of(GateAgent::Opencode, &unique),
        RETURNS_PY,
    );
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
}

/// A temporary project (kept while its `TempDir` lives) holding a
/// symbolic link for each `(target, name)`: the folder, its real path (the
/// gate reads real paths) and that path as the agent's working folder.
#[cfg(unix)]
fn project_with_links(links: &[(&str, &str)]) -> (tempfile::TempDir, std::path::PathBuf, String) {
    let dir = tempfile::tempdir().expect("a project");
    let root = dir.path().canonicalize().expect("its real path");
    for (to, name) in links {
        std::os::unix::fs::symlink(to, root.join(name)).expect("ln");
    }
    let cwd = root.to_string_lossy().into_owned();
    (dir, root, cwd)
}

/// The gate's own files reached other than by their path: a symbolic link
/// to Claude Code's settings (`notes.json`), to their folder (`cfg ->
/// .claude`, a file edited or created there), to `.srview/`, and a Codex
/// patch moving a file onto the settings (`*** Move to:`, a new file or
/// one that exists). Each a doubt naming the way there (they passed with
/// no opinion, and the agent wrote the settings through them); an edit
/// through a link to an ordinary file stays exact.
#[cfg(unix)]
#[test]
fn the_gates_own_files_are_found_through_links_and_move_targets() {
    let (_dir, root, cwd) = project_with_links(&[
        (".claude/settings.json", "notes.json"),
        (".claude", "cfg"),
        (".srview", "queue"),
        ("data.json", "plain.json"),
    ]);
    let settings = "{\"hooks\": {\"PreToolUse\": []}}\n";
    std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
    std::fs::create_dir_all(root.join(".srview")).expect("mkdir");
    std::fs::write(root.join(".claude/settings.json"), settings).expect("write");
    std::fs::write(root.join("data.json"), settings).expect("write");
    std::fs::write(root.join("off.json"), "{\"disableAllHooks\": true}\n").expect("write");
    let judge_here = |agent: GateAgent, tool: &str, input: serde_json::Value| {
        let mut payload: serde_json::Value =
            serde_json::from_slice(&edit_payload(agent, input)).expect("JSON");
        payload["cwd"] = cwd.as_str().into();
        payload["tool_name"] = tool.into();
        judged_in_its_folder(agent, payload.to_string().as_bytes(), &Policy::default())
    };
    let edit = |path: &str| {
        json!({"file_path": format!("{cwd}/{path}"), "old_string": "\"PreToolUse\"",
               "new_string": "\"Disabled\"", "replace_all": false})
    };
    let real = format!("{cwd}/.claude/settings.json");
    let cases = [
        ("notes.json", real.clone()),
        ("cfg/settings.json", real.clone()),
    ];
    for (path, leads_to) in cases {
        let judgment = judge_here(GateAgent::ClaudeCode, "Edit", edit(path));
        assert_eq!(judgment.case, Case::Doubt, "{path}: {:?}", judgment.answer);
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: the edit of {cwd}/{path} matches exactly, but srview cannot stand \
                 behind its result: it changes the agent's hook settings (where srview's gate \
                 is installed), which may turn srview's gate off: the user decides. {cwd}/{path} \
                 leads to {leads_to} through a symbolic link.\n(no review pane runs, so \
                 srview's policy doubt=review falls back to deny)\nLeave srview's gate as it is \
                 unless the user asked for this change; if they did, only they can let it \
                 through (in srview's review pane, or by srview's policy)."
            )
        );
    }
    // New files through a linked folder: the deepest folder that exists is
    // resolved.
    for (path, what) in [
        ("cfg/settings.local.json", "the agent's hook settings"),
        ("queue/review/x.json", "srview's own folder"),
    ] {
        let write = json!({"file_path": format!("{cwd}/{path}"), "content": "{}\n"});
        let judgment = judge_here(GateAgent::ClaudeCode, "Write", write);
        assert_eq!(judgment.case, Case::Doubt, "{path}: {:?}", judgment.answer);
        assert!(deny_reason(&judgment).contains(what), "{path}");
    }
    // A move's target.
    let moved = |to: &str| {
        json!({ "command": format!(
            "*** Begin Patch\n*** Update File: off.json\n*** Move to: {to}\n@@\n-{{\"disableAllHooks\": true}}\n+{{\"disableAllHooks\": true }}\n*** End Patch"
        )})
    };
    let judgment = judge_here(
        GateAgent::Codex,
        "apply_patch",
        moved(".claude/settings.local.json"),
    );
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    let reason = deny_reason(&judgment);
    assert!(
        reason.starts_with(
            "srview gate: the edit of off.json matches exactly, but srview cannot stand behind \
             its result: it changes the agent's hook settings (where srview's gate is \
             installed), which may turn srview's gate off: the user decides. The patch moves \
             off.json to .claude/settings.local.json.\n"
        ),
        "{reason}"
    );
    // Onto the settings that exist: the loss and the gate's settings both
    // said, and nothing offered.
    let judgment = judge_here(GateAgent::Codex, "apply_patch", moved("cfg/settings.json"));
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    let reason = deny_reason(&judgment);
    assert!(
        reason.contains("(its content is lost).\nThe edit also changes the agent's hook settings")
            && reason.contains(
                "The patch moves off.json to cfg/settings.json, which leads to \
                 {cwd}/.claude/settings.json through a symbolic link."
                    .replace("{cwd}", &cwd)
                    .as_str()
            ),
        "{reason}"
    );
    assert!(super::offered_input(GateAgent::Codex, &reason).is_none());
    // A link to an ordinary file: exact.
    let judgment = judge_here(GateAgent::ClaudeCode, "Edit", edit("plain.json"));
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// OpenCode's `edit` with `replaceAll` expands `$'`, `$&`, `` $` `` and `$$`
/// in newString (JavaScript's replaceAll): each a doubt saying so, with
/// the line it writes and what to send instead (they passed as exact, and
/// OpenCode wrote the rest of the file over a `'$' + p`). Without
/// replaceAll, and for Gemini CLI's `allow_multiple` and Qwen Code's
/// `replace_all` (which write the text as sent), the same edit is exact.
#[test]
fn a_replace_all_whose_dollars_opencode_expands_is_a_doubt() {
    let js = "export function show(p) {\n  label.text = fmt(p);\n  total.text = fmt(p);\n}\n";
    let make = "a:\n\techo $(X)\nb:\n\techo $(X)\n";
    let policy = Policy::default();
    let cases = [
        (
            js,
            "fmt(p)",
            "'$' + p.toFixed(2)",
            "';",
            "'$' + p.toFixed(2)",
        ),
        (
            make,
            "echo $(X)",
            "echo $$HOME",
            "echo $HOME",
            "echo $$HOME",
        ),
        (js, "fmt(p)", "[$&]", "[fmt(p)]", "[$&]"),
    ];
    for (file, old, new, wrote, meant) in cases {
        let judgment = judge_on(
            GateAgent::Opencode,
            &replace_all(GateAgent::Opencode, old, new),
            file,
            &policy,
        );
        assert_eq!(judgment.case, Case::Doubt, "{new}: {:?}", judgment.answer);
        assert_eq!(
            deny_reason(&judgment),
            format!(
                "srview gate: the edit of {CWD}/inventory.py matches exactly (line 2), but \
                 srview cannot stand behind its result: OpenCode 1.18.33's edit tool with \
                 replaceAll expands the `$` sequences of newString as JavaScript's replaceAll \
                 does (`$$` writes one `$`, `$&` the text matched, `` $` `` the text before it, \
                 `$'` the text after it), so it writes text the model did not send: line 1 of \
                 what it writes is `{wrote}` where the model wrote `{meant}`: send one edit per \
                 place without replaceAll (its newString is then written as sent), each old \
                 text long enough to occur once.\n(no review pane runs, so srview's policy \
                 doubt=review falls back to deny)"
            )
        );
        for agent in [GateAgent::GeminiCli, GateAgent::QwenCode] {
            let judgment = judge_on(agent, &replace_all(agent, old, new), file, &policy);
            assert_eq!(
                judgment.case,
                Case::Exact,
                "{agent:?} {new}: {:?}",
                judgment.answer
            );
        }
    }
    // One place, without replaceAll: OpenCode writes newString as sent.
    let single = own_payload(
        "edit",
        json!({"filePath": format!("{CWD}/inventory.py"), "oldString": "label.text = fmt(p)",
               "newString": "label.text = '$' + p"}),
    );
    let judgment = judge_on(GateAgent::Opencode, &single, js, &policy);
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// A fresh tester's find (round 35, #09): Codex has no write tool, and an
/// `*** Add File:` over an existing file is denied ("replaces it whole");
/// the same rewrite sent as `*** Delete File:` then `*** Add File:` of the
/// one path got no opinion (Codex, OpenCode) and wrote a stand-in over two
/// functions. Now the pair is the same whole-file replacement: a doubt
/// naming the file once, with the deleted file's length.
#[test]
fn a_delete_then_add_of_one_file_is_a_whole_file_replacement() {
    let pair = "*** Begin Patch\n*** Delete File: inventory.py\n*** Add File: inventory.py\n+x = 1\n*** End Patch";
    for (agent, payload) in [
        (
            GateAgent::Codex,
            edit_payload(GateAgent::Codex, json!({ "command": pair })),
        ),
        (
            GateAgent::Opencode,
            own_payload("apply_patch", json!({ "patchText": pair })),
        ),
    ] {
        let reason = inventory_doubt(agent, &payload, pair);
        assert!(
            reason.contains("the patch deletes inventory.py (section 1) and adds it again"),
            "{agent:?}: {reason}"
        );
        assert!(reason.contains("its 54 lines whole"), "{agent:?}: {reason}");
    }
    // Deleted and added with the same content: nothing is lost.
    let same = format!(
        "*** Begin Patch\n*** Delete File: inventory.py\n*** Add File: inventory.py\n{}*** End Patch",
        inventory()
            .lines()
            .map(|l| format!("+{l}\n"))
            .collect::<String>()
    );
    let judgment = judged(
        GateAgent::Codex,
        &edit_payload(GateAgent::Codex, json!({ "command": same })),
    );
    assert_ne!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
}

/// A fresh tester's finds, each an edit that deletes lines and says so in
/// a line the gate passed as exact: a comment in its file's own marks (`%`
/// in LaTeX and MATLAB, `"` in Vim script, `'` in Visual Basic, `REM` and
/// `::` in a batch file), a docstring (`"""... existing methods unchanged
/// ..."""`), a stub of another language or kind (`raise
/// NotImplementedError  # existing implementation`, `todo!() // existing
/// body unchanged`), a line of code whose comment says the rest is
/// unchanged, a lone `...` cutting two bodies. Each a doubt in every
/// agent's shape, named by its line; a Write of the same stand-in too.
#[test]
fn stand_ins_in_every_comment_syntax_docstring_and_stub_are_doubts() {
    let items =
        "\\begin{itemize}\n\\item One\n\\item Two\n\\item Three\n\\item Four\n\\end{itemize}\n";
    let four = "a = 1;\nb = 2;\nc = 3;\nd = 4;\n";
    let cart = "class Cart:\n    def add(self, x):\n        self.items.append(x)\n\n    def remove(self, x):\n        self.items.remove(x)\n\n    def total(self):\n        return sum(self.items)\n";
    let bodies = "class Cart:\n    def add(self, x):\n        self.items.append(x)\n        self.count += 1\n        self.log(x)\n\n    def remove(self, x):\n        self.items.remove(x)\n        self.count -= 1\n        self.log(x)\n";
    let rust = "fn add(a: i32, b: i32) -> i32 {\n    let s = a + b;\n    log(s);\n    check(s);\n    s\n}\n";
    let js = "function add(a, b) {\n  const s = a + b;\n  log(s);\n  check(s);\n  return s;\n}\n";
    let methods = &bodies[bodies.find("    def add").expect("add")..];
    // (file, its content, old text, new text, the stand-in's line in the
    // new text, the stand-in)
    let cases: Vec<(&str, &str, &str, String, usize, &str)> = vec![
        (
            "d.tex",
            items,
            "\\item One\n\\item Two\n\\item Three\n\\item Four\n",
            "\\item Zero\n% ... existing items ...\n".into(),
            2,
            "% ... existing items ...",
        ),
        ("f.m", four, four, "a = 9;\n% ... rest unchanged ...\n".into(), 2, "% ... rest unchanged ..."),
        ("f.vim", four, four, "a = 9;\n\" ... rest unchanged ...\n".into(), 2, "\" ... rest unchanged ..."),
        ("f.bas", four, four, "a = 9;\n' ... rest unchanged ...\n".into(), 2, "' ... rest unchanged ..."),
        ("f.bat", four, four, "a = 9;\nREM ... rest unchanged ...\n".into(), 2, "REM ... rest unchanged ..."),
        ("f.cmd", four, four, "a = 9;\n:: ... existing steps ...\n".into(), 2, ":: ... existing steps ..."),
        (
            "c.py",
            cart,
            cart,
            "class Cart:\n    \"\"\"... existing methods unchanged ...\"\"\"\n\n    def clear(self):\n        self.items = []\n".into(),
            2,
            "\"\"\"... existing methods unchanged ...\"\"\"",
        ),
        (
            "d.py",
            bodies,
            methods,
            "    def add(self, x):\n        raise NotImplementedError  # existing implementation\n\n    def remove(self, x):\n        raise NotImplementedError  # existing implementation\n".into(),
            2,
            "raise NotImplementedError  # existing implementation",
        ),
        (
            "e.py",
            bodies,
            methods,
            "    def add(self, x):\n        self.items.append(x)\n        ...\n\n    def remove(self, x):\n        self.items.remove(x)\n        ...\n".into(),
            3,
            "...",
        ),
        (
            "a.rs",
            rust,
            "    let s = a + b;\n    log(s);\n    check(s);\n    s\n",
            "    todo!() // existing body unchanged\n".into(),
            1,
            "todo!() // existing body unchanged",
        ),
        (
            "a.js",
            js,
            "  const s = a + b;\n  log(s);\n  check(s);\n  return s;\n",
            "  return s; // rest of the body unchanged\n".into(),
            1,
            "return s; // rest of the body unchanged",
        ),
    ];
    for (name, content, old, new, line, stand_in) in &cases {
        let on_file = |payload: Vec<u8>| -> Vec<u8> {
            String::from_utf8(payload)
                .expect("UTF-8")
                .replace("inventory.py", name)
                .into_bytes()
        };
        let judge_it = |agent: GateAgent, payload: &[u8]| {
            srview::gate::judge(
                agent,
                payload,
                |_| {
                    srview::dialect::apply_patch::MemoryFs::new([(
                        name.to_string(),
                        content.to_string(),
                    )])
                },
                &Policy::default(),
            )
        };
        for agent in super::OLD_NEW_AGENTS {
            let judgment = judge_it(agent, &on_file(super::old_new_payload(agent, old, new)));
            assert_eq!(
                judgment.case,
                Case::Doubt,
                "{name} {agent:?}: {:?}",
                judgment.answer
            );
            let expected = if agent == GateAgent::Codex {
                format!(
                    "hunk #1 of {name} stands in for lines it leaves out (its added line `{stand_in}`)"
                )
            } else {
                format!(
                    "its new text stands in for lines it leaves out (its line {line}: `{stand_in}`)"
                )
            };
            let reason = deny_reason(&judgment);
            assert!(reason.contains(&expected), "{name} {agent:?}: {reason}");
        }
        // A Write of the file's content with the edit made.
        let written = content.replacen(old, new, 1);
        let at = content[..content.find(old).expect("old")].lines().count() + line;
        for agent in super::STRING_EDIT_AGENTS {
            let judgment = judge_it(agent, &on_file(write_payload(agent, &written)));
            assert_eq!(judgment.case, Case::Doubt, "{name} {agent:?} Write");
            let expected = format!(
                "its content stands in for lines it leaves out (line {at}: `{stand_in}`), so \
                 writing it deletes"
            );
            let reason = deny_reason(&judgment);
            assert!(reason.contains(&expected), "{name} {agent:?}: {reason}");
        }
    }
}

// --- the gate's self-protection (testers 42a-18, 42a-15, 42a-05) ----------

/// `sp ace/mod.py` in the project: a function whose `return` an edit
/// misindents.
fn spaced_project(extra: &[(&str, &str)]) -> srview::dialect::apply_patch::MemoryFs {
    let mut files = vec![(
        "sp ace/mod.py".to_string(),
        "def f():\n    x = 1\n    return x\n".to_string(),
    )];
    files.extend(extra.iter().map(|(p, c)| (p.to_string(), c.to_string())));
    srview::dialect::apply_patch::MemoryFs::new(files)
}

fn judged_in(
    agent: GateAgent,
    payload: &[u8],
    fs: &srview::dialect::apply_patch::MemoryFs,
) -> srview::gate::Judgment {
    srview::gate::judge(agent, payload, |_| fs.clone(), &Policy::default())
}

/// A path Gemini CLI's `replace` decodes (`%20`, `%2E`) or Qwen Code's
/// `edit` shell-unescapes (`\ `) is judged as the file the agent writes:
/// the trust checks and the check of the gate's own files run on it, and
/// the message names it (they passed as exact, no check having read the
/// file, and a renamed hook event turned the gate off). A correct edit
/// through such a path stays exact; a path whose decoded name would be
/// decoded again is not judged.
#[test]
fn a_path_the_agent_decodes_is_judged_as_the_file_it_writes() {
    let misindent = |path: &str| {
        json!({"file_path": path, "instruction": "x", "old_string": "    return x\n",
               "new_string": "  return x\n"})
    };
    let misindented = format!(
        "srview gate: the edit of {CWD}/sp ace/mod.py matches exactly (line 3), but srview \
         cannot stand behind its result: as written, line 3 (`return x`) is at column 2, which \
         matches no enclosing block's indentation (columns 0, 4 there): Python refuses the file \
         (IndentationError: unindent does not match any outer indentation level)"
    );
    let fs = spaced_project(&[]);
    for (agent, path) in [
        (GateAgent::GeminiCli, format!("{CWD}/sp%20ace/mod.py")),
        (GateAgent::GeminiCli, format!("{CWD}/sp%20ace/mod%2Epy")),
        (GateAgent::GeminiCli, "sp%20ace/mod.py".to_string()),
        (GateAgent::QwenCode, format!("{CWD}/sp\\ ace/mod.py")),
        (GateAgent::QwenCode, format!(" {CWD}/sp\\ ace/mod.py\n")),
    ] {
        let judgment = judged_in(agent, &edit_payload(agent, misindent(&path)), &fs);
        assert_eq!(judgment.case, Case::Doubt, "{agent:?} {path}");
        assert_contains(&deny_reason(&judgment), &misindented);
    }
    // A correct edit through the same paths: exact.
    let correct = |path: &str| {
        json!({"file_path": path, "instruction": "x", "old_string": "    return x\n",
               "new_string": "    return x + 1\n"})
    };
    for (agent, path) in [
        (GateAgent::GeminiCli, format!("{CWD}/sp%20ace/mod.py")),
        (GateAgent::QwenCode, format!("{CWD}/sp\\ ace/mod.py")),
    ] {
        let judgment = judged_in(agent, &edit_payload(agent, correct(&path)), &fs);
        assert_eq!(judgment.case, Case::Exact, "{agent:?} {path}");
    }
    // The gate's hook settings, one dot encoded.
    let settings = "{\"hooks\": {\"BeforeTool\": []}}\n";
    let fs = spaced_project(&[(".gemini/settings.json", settings)]);
    let rename = json!({"file_path": format!("{CWD}/.gemini/settings%2Ejson"), "instruction": "x",
                        "old_string": "\"BeforeTool\"", "new_string": "\"BeforeToolX\""});
    let gemini = |input| {
        judged_in(
            GateAgent::GeminiCli,
            &edit_payload(GateAgent::GeminiCli, input),
            &fs,
        )
    };
    let judgment = gemini(rename);
    assert_eq!(judgment.case, Case::Doubt);
    assert_contains(
        &deny_reason(&judgment),
        &format!(
            "srview gate: the edit of {CWD}/.gemini/settings.json matches exactly, but srview \
             cannot stand behind its result: it changes the agent's hook settings (where \
             srview's gate is installed), which may turn srview's gate off: the user decides."
        ),
    );
    // Decoded twice would name another file: not judged.
    let twice = misindent(&format!("{CWD}/a%2541.py"));
    let judgment = gemini(twice);
    assert_eq!(judgment.case, Case::Unreadable);
    assert_contains(
        &deny_reason(&judgment),
        &format!(
            "srview cannot judge this edit: the agent reads the path {CWD}/a%2541.py as \
             {CWD}/a%41.py, a name srview's reading of the agent's tool would change again (to \
             {CWD}/aA.py), so no check could be run on the file the agent writes"
        ),
    );
}

/// OpenCode's `opencode.json`/`opencode.jsonc` in the project root (or any
/// folder it starts below) and its global `config.json`, and pi's
/// `settings.json` (`.pi/`, `~/.pi/agent/`): their plugin or extension
/// list loads code beside srview's gate, so a write to them is a doubt
/// (they were written with no opinion). A `config.json` or `settings.json`
/// elsewhere stays exact.
#[test]
fn opencode_and_pi_configs_that_load_plugins_are_the_gates_own() {
    let content = "{\n  \"plugin\": [\"./tools/helper.js\"]\n}\n";
    let config = "the agent's config, whose list of plugins or extensions loads code into the \
                  agent beside srview's gate (a new one runs too), which may turn srview's gate \
                  off: the user decides.";
    let fs = srview::dialect::apply_patch::MemoryFs::default();
    let cases = [
        (
            GateAgent::Opencode,
            "filePath",
            format!("{CWD}/opencode.json"),
        ),
        (
            GateAgent::Opencode,
            "filePath",
            format!("{CWD}/opencode.jsonc"),
        ),
        (
            GateAgent::Opencode,
            "filePath",
            format!("{CWD}/app/opencode.json"),
        ),
        (
            GateAgent::Opencode,
            "filePath",
            "/home/user/.config/opencode/config.json".to_string(),
        ),
        (GateAgent::Pi, "path", format!("{CWD}/.pi/settings.json")),
        (
            GateAgent::Pi,
            "path",
            "/home/user/.pi/agent/settings.json".to_string(),
        ),
    ];
    for (agent, key, path) in cases {
        let payload = own_payload("write", json!({ key: path, "content": content }));
        let judgment = judged_in(agent, &payload, &fs);
        assert_eq!(judgment.case, Case::Doubt, "{agent:?} {path}");
        assert_contains(
            &deny_reason(&judgment),
            &format!(
                "the edit of {path} matches exactly, but srview cannot stand behind its result: \
                 it changes {config}"
            ),
        );
    }
    for (agent, key, path) in [
        (
            GateAgent::Opencode,
            "filePath",
            format!("{CWD}/config.json"),
        ),
        (GateAgent::Pi, "path", format!("{CWD}/settings.json")),
        (
            GateAgent::Pi,
            "path",
            format!("{CWD}/.vscode/settings.json"),
        ),
    ] {
        let payload = own_payload("write", json!({ key: path, "content": content }));
        let judgment = judged_in(agent, &payload, &fs);
        assert_eq!(judgment.case, Case::Exact, "{agent:?} {path}");
    }
}

/// A write through a symbolic link whose target does not exist yet
/// creates that target: the link is followed before the check of the
/// gate's own files (a Write through `notes.json ->
/// .claude/settings.local.json` and an OpenCode write through `tool.js ->
/// .opencode/plugin/helper.js` passed with no opinion). A dangling link
/// to an ordinary new file stays exact.
#[cfg(unix)]
#[test]
fn a_write_through_a_dangling_link_to_the_gates_own_files_is_a_doubt() {
    let (_dir, root, cwd) = project_with_links(&[
        (".claude/settings.local.json", "notes.json"),
        (".opencode/plugin/helper.js", "tool.js"),
        ("link2.json", "link1.json"),
        ("new/data.json", "link2.json"),
    ]);
    std::fs::create_dir_all(root.join(".claude")).expect("mkdir");
    let judge_here = |agent: GateAgent, payload: serde_json::Value| {
        judged_in_its_folder(agent, payload.to_string().as_bytes(), &Policy::default())
    };
    let claude_write = |path: &str| {
        let mut payload: serde_json::Value = serde_json::from_slice(&edit_payload(
            GateAgent::ClaudeCode,
            json!({"file_path": format!("{cwd}/{path}"), "content": "{\"disableAllHooks\": true}\n"}),
        ))
        .expect("JSON");
        payload["cwd"] = cwd.as_str().into();
        payload["tool_name"] = "Write".into();
        payload
    };
    let judgment = judge_here(GateAgent::ClaudeCode, claude_write("notes.json"));
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    assert_contains(
        &deny_reason(&judgment),
        &format!(
            "srview gate: the edit of {cwd}/notes.json matches exactly, but srview cannot stand \
             behind its result: it changes the agent's hook settings (where srview's gate is \
             installed), which may turn srview's gate off: the user decides. {cwd}/notes.json \
             leads to {cwd}/.claude/settings.local.json through a symbolic link."
        ),
    );
    let plugin = json!({"tool": "write", "args": {"filePath": format!("{cwd}/tool.js"),
        "content": "export const P = async () => ({});\n"},
        "cwd": cwd, "sessionID": "ses_1", "callID": "call_1"});
    let judgment = judge_here(GateAgent::Opencode, plugin);
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    assert_contains(
        &deny_reason(&judgment),
        &format!(
            "it changes a file in the folder the agent runs its plugins, extensions or hooks \
             from, beside srview's gate (a new one runs too), which may turn srview's gate off: \
             the user decides. {cwd}/tool.js leads to {cwd}/.opencode/plugin/helper.js through \
             a symbolic link."
        ),
    );
    // Two dangling links to an ordinary new file: exact.
    let judgment = judge_here(GateAgent::ClaudeCode, claude_write("link1.json"));
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// The tester's find (T-09): a whole write of a README whose content is
/// the file (one line edited) twice, back to back. Every agent's write
/// tool is in doubt, saying which lines stand twice and where; the same
/// content once is exact.
#[test]
fn a_write_holding_the_file_twice_is_a_doubt() {
    let readme = "# Project\n\nA tool for X.\n\n## Install\n\n    pip install x\n\n## Usage\n\nRun `x --help`.\n";
    let edited = readme.replace("for X.", "for X and Y.");
    let twice = format!("{edited}\n{edited}");
    let path = format!("{CWD}/README.md");
    let said = format!(
        "its content holds lines 1-11 twice, back to back (lines 1-11 and 13-23, from \
         `# Project` to `Run `x --help`.`), where {path} holds them once: written, the file \
         has them two times over (a content sent twice, or a stream replayed): send the \
         content with those lines once."
    );
    let judge = |agent: GateAgent, content: &str| {
        let payload = String::from_utf8(write_payload(agent, content))
            .expect("UTF-8")
            .replace("inventory.py", "README.md");
        let fs = srview::dialect::apply_patch::MemoryFs::new([(
            "README.md".to_string(),
            readme.to_string(),
        )]);
        srview::gate::judge(agent, payload.as_bytes(), |_| fs, &Policy::default())
    };
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::QwenCode,
        GateAgent::Opencode,
        GateAgent::Pi,
    ] {
        let judgment = judge(agent, &twice);
        assert_eq!(
            judgment.case,
            Case::Doubt,
            "{agent:?}: {:?}",
            judgment.answer
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains(&said), "{agent:?}: {reason}");
        let once = judge(agent, &edited);
        assert_eq!(once.case, Case::Exact, "{agent:?}: {:?}", once.answer);
    }
}

/// A tester's find (round 45): an `*** Add File:` of the path an earlier
/// section's `*** Move to:` creates said the file "exists (N lines)",
/// while it exists only after the move: the doubt now names the move. The
/// same Add over a file on disk still says it exists.
#[test]
fn an_added_file_an_earlier_move_creates_names_the_move() {
    use srview::dialect::apply_patch::{self, PatchDoubtKind};
    let patch = "*** Begin Patch\n*** Update File: inventory.py\n*** Move to: sub/stock.py\n@@\n class Item:\n-    name: str\n+    name: str  # the label\n*** Add File: sub/stock.py\n+x = 1\n*** End Patch";
    let parsed = apply_patch::parse(patch).expect("a patch");
    let fs = super::project(&super::inventory());
    let outcome = apply_patch::apply(&parsed, &fs, CWD);
    let said: Vec<(PatchDoubtKind, String)> =
        apply_patch::patch_doubts(&parsed, &outcome, &fs, CWD)
            .into_iter()
            .map(|d| (d.kind, d.message))
            .collect();
    let lines = super::inventory().lines().count();
    assert_eq!(
        said,
        [(
            PatchDoubtKind::ReplacesFile,
            format!(
                "the patch adds sub/stock.py, which section 1's move of inventory.py creates \
                 ({lines} lines): the reference replaces it whole"
            )
        )]
    );
}
