//! What running the real agent CLIs with the installed gate showed
//! (tests/gate_e2e/run.py, output in docs/gate.md "Verified against the
//! real CLI"), kept here as payloads in the recorded shape.

use serde_json::json;
use srview::gate::{Case, GateAgent};

use super::{
    assert_exact_with_agents_matcher, inventory, judged, patch, payload_with, rewritten_input,
};

/// Codex 0.169.0, `quotes`: a patch written with curly quotes where the
/// file has straight ones matches only at Codex's `unicode` level. Its
/// added line meant the file's straight quotes too: srview's rewrite
/// writes them so (left as sent, Codex wrote `label = “LOW” … “ok”` into
/// the Python file, which no longer parses, while srview said it wrote
/// what the model meant).
#[test]
fn codex_loose_unicode_patch_is_rewritten_with_the_files_quotes() {
    let sent = patch(
        "@@ def describe(item):\n-    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \u{201c}ok\u{201d}\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \u{201c}ok\u{201d}\n",
    );
    let judgment = judged(
        GateAgent::Codex,
        &payload_with(GateAgent::Codex, "b_deny_json", sent),
    );
    assert_eq!(judgment.case, Case::Loose);
    assert_eq!(judgment.stage.as_deref(), Some("unicode"));
    let rewritten = rewritten_input(&judgment);
    assert_eq!(
        rewritten,
        json!({"command": "*** Begin Patch\n*** Update File: inventory.py\n@@ def describe(item):\n\
             -    label = \"low\" if item.qty < LOW_STOCK else \"ok\"\n\
             +    label = \"LOW\" if item.qty < LOW_STOCK else \"ok\"\n*** End Patch\n"})
    );
    assert_exact_with_agents_matcher(GateAgent::Codex, &rewritten, &inventory());
}

/// The file's own curly quotes are not the model's look-alikes: a hunk
/// matched at `unicode` because of another character keeps them in its
/// added lines.
#[test]
fn codex_keeps_the_files_own_curly_quotes_in_added_lines() {
    let file = inventory().replace(
        "    label = \"low\" if item.qty < LOW_STOCK else \"ok\"\n",
        "    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2013} note\n",
    );
    let sent = patch(
        "@@ def describe(item):\n-    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # - note\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2014} note\n",
    );
    let judgment = super::judge_on(
        GateAgent::Codex,
        &payload_with(GateAgent::Codex, "b_deny_json", sent),
        &file,
        &srview::gate::Policy::default(),
    );
    assert_eq!(judgment.case, Case::Loose);
    assert_eq!(judgment.stage.as_deref(), Some("unicode"));
    let rewritten = rewritten_input(&judgment);
    assert_eq!(
        rewritten["command"],
        "*** Begin Patch\n*** Update File: inventory.py\n@@ def describe(item):\n\
         -    label = \u{201c}low\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2013} note\n\
         +    label = \u{201c}LOW\u{201d} if item.qty < LOW_STOCK else \"ok\"  # \u{2014} note\n*** End Patch\n"
    );
}
