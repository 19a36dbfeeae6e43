//! A patch whose `*** Move to:` names the file its section updates
//! (`*** Update File: a.py` / `*** Move to: ./a.py`): Codex, OpenCode and
//! Cline write the file, then delete it ([`PatchDoubtKind::MovesOntoItself`],
//! a doubt of srview's patch checks). Its meaning is clear (update the file
//! in place), so the patch without those Move lines is offered as the
//! corrected edit, when srview stands behind it: the agent's own matcher
//! (Codex: srview's port of it) applies it with every hunk exact, nothing
//! is written and then deleted, and no patch check doubts it.
//!
//! [`PatchDoubtKind::MovesOntoItself`]: crate::dialect::apply_patch::PatchDoubtKind::MovesOntoItself

use serde_json::Value;

use super::Call;
use crate::dialect::apply_patch::{PatchFs, without_moves_onto_themselves};
use crate::dialect::registry::DialectRow;

/// A call of an agent's `apply_patch`: its dialect's `row`, the input's
/// `key` holding the patch, and the files it reads.
pub(super) struct PatchCall<'a> {
    pub(super) row: &'a DialectRow,
    pub(super) key: &'a str,
    pub(super) call: &'a Call,
    pub(super) fs: &'a dyn PatchFs,
}

/// The corrected input offered, or why there is none (`(None, None)`: no
/// repair applies).
pub(super) type Offer = (Option<Value>, Option<String>);

/// OpenCode's and Cline's `apply_patch` (`row`, the patch in the input's
/// `key`) without its moves onto the files themselves, checked with the
/// agent's own matcher (Codex's: `patch::without_self_moves`).
pub(super) fn own(patch: &PatchCall) -> Offer {
    offer_text(
        patch,
        without_moves_onto_themselves,
        "without its Move line",
    )
}

/// The agent's patch (in the input's `key`) as `repair` rewrites it (the
/// patch text and the call's folder; `None`: no repair applies), offered
/// by [`offer_repaired`]; `(None, None)` when no repair applies.
pub(super) fn offer_text(
    patch: &PatchCall,
    repair: impl Fn(&str, &str) -> Option<String>,
    what: &str,
) -> Offer {
    let &PatchCall { key, call, .. } = patch;
    let Some(fixed) = call
        .input
        .get(key)
        .and_then(Value::as_str)
        .and_then(|text| repair(text, &call.cwd))
    else {
        return (None, None);
    };
    offer_repaired(patch, &fixed, what)
}

/// The agent's patch (`row`, in the input's `key`) repaired into `fixed`,
/// offered as the corrected input when srview stands behind it: the
/// agent's own matcher applies it with every hunk exact, drops no line,
/// writes no file it then deletes, and no patch check doubts it; else why
/// not, the repair named by `what` (`without its Move line`).
pub(super) fn offer_repaired(patch: &PatchCall, fixed: &str, what: &str) -> Offer {
    let &PatchCall { row, key, call, fs } = patch;
    let Some(matcher) = row.matcher() else {
        return (None, None);
    };
    let mut input = call.input.clone();
    if let Some(object) = input.as_object_mut() {
        object.insert(key.to_string(), fixed.into());
    }
    let ran = matcher.run(&crate::dialect::call::ToolCall {
        input: &input,
        cwd: &call.cwd,
        fs,
    });
    let deleted_after_write = ran.writes.iter().any(|w| {
        w.content.is_none()
            && ran
                .writes
                .iter()
                .any(|other| other.path == w.path && other.content.is_some())
    });
    let exact = ran.exact_as_sent();
    let doubts = super::patch::doubts_of_text(row.value, fixed, fs, &call.cwd);
    match doubts {
        Some((_, doubts, _)) if exact && !deleted_after_write && doubts.is_empty() => {
            (Some(input), None)
        }
        Some((_, doubts, _)) if !doubts.is_empty() => (
            None,
            Some(format!(
                "the patch {what} is in doubt too: {}",
                doubts
                    .into_iter()
                    .map(|(_, message)| message)
                    .collect::<Vec<_>>()
                    .join("; ")
            )),
        ),
        _ => (
            None,
            Some(not_exact(row.title, &ran, deleted_after_write, what)),
        ),
    }
}

/// Why `title`'s matcher, having run the repaired patch (`what` names the
/// repair) into `ran`, does not apply it exactly: its error, the edit a
/// loose stage placed, the lines its parser drops, or a file written and
/// then deleted (session 50: the deny said only "would not apply the patch
/// ... exactly", not which check refused it).
fn not_exact(
    title: &str,
    ran: &crate::dialect::call::CallOutcome,
    deleted_after_write: bool,
    what: &str,
) -> String {
    if let Some(error) = ran.error.as_deref().filter(|_| !ran.ok) {
        let error = error.trim_end().replace('\n', " ");
        return format!("{title} refuses the patch {what}: {error}");
    }
    if let Some((i, edit)) = ran.loose_edits().next() {
        let at = edit
            .lines
            .map(|(a, b)| format!(" at {}", crate::words::line_range("line", a, b)))
            .unwrap_or_default();
        return format!(
            "{title} would place edit {} of the patch {what}{at} only by its loose stage `{}`",
            i + 1,
            edit.stage
        );
    }
    if !ran.dropped.is_empty() {
        return format!(
            "{title}'s parser skips lines of the patch {what}: {}",
            ran.dropped.join("; ")
        );
    }
    if deleted_after_write {
        return format!("{title} would write a file of the patch {what} and then delete it");
    }
    format!("{title} would not apply the patch {what} exactly")
}

/// OpenCode's and Cline's `apply_patch` (`row`, the patch in the input's
/// `key`) with each file's sections joined into one
/// ([`super::patch::joined_text`]), checked with the agent's own matcher.
pub(super) fn own_joined(patch: &PatchCall) -> Offer {
    offer_text(
        patch,
        |text, _| super::patch::joined_text(text),
        "with the sections of each file joined into one",
    )
}
