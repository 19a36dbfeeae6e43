//! An OpenCode `apply_patch` whose parser drops lines the model sent: a
//! hunk line without a ` `, `-` or `+` prefix (an empty line included)
//! between lines it reads is skipped without a word, so the file gets
//! fewer lines than the patch has ([`CallOutcome::dropped`], a doubt). An
//! empty line standing between added lines is an added empty line, and
//! only that is repaired (sent as `+`), when OpenCode's own matcher then
//! places every hunk exactly, drops nothing, and no patch check doubts
//! it; any other dropped line is left to the model (kept or added: srview
//! does not guess which).
//!
//! [`CallOutcome::dropped`]: crate::dialect::call::CallOutcome::dropped

use serde_json::Value;

use super::moved::{Offer, PatchCall};
use crate::dialect::opencode_apply_patch::parse::{Skipped, parse_patch};

/// Whether `skipped` is an empty line with added lines on both sides.
fn empty_among_added(skipped: &Skipped) -> bool {
    skipped.text.trim_end_matches('\r').is_empty() && skipped.after_added && skipped.before_added
}

/// The files an OpenCode patch names, as it names them (joined by `, `),
/// read by OpenCode's own parser (it reads patches Codex's refuses).
pub(super) fn files_of_text(text: &str) -> Option<String> {
    let parsed = parse_patch(text).ok()?;
    let mut named: Vec<&str> = Vec::new();
    for hunk in &parsed.hunks {
        if !named.contains(&hunk.path()) {
            named.push(hunk.path());
        }
    }
    (!named.is_empty()).then(|| named.join(", "))
}

/// `text` (a patch) with each of `plus` (1-based lines) prefixed by `+`
/// and a line `@@` put above each of `headed`; every other byte as sent.
fn repaired(text: &str, plus: &[usize], headed: &[usize]) -> String {
    let mut out = String::with_capacity(text.len() + plus.len() + 3 * headed.len());
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if headed.contains(&(i + 1)) {
            out.push_str(if line.ends_with("\r\n") {
                "@@\r\n"
            } else {
                "@@\n"
            });
        }
        if plus.contains(&(i + 1)) {
            out.push('+');
        }
        out.push_str(line);
    }
    out
}

/// OpenCode's `apply_patch` (`row`, the patch in the input's `key`) with
/// its dropped empty lines among added lines sent as `+`: the corrected
/// input, or why there is none. `(None, None)` when its parser drops no
/// line.
pub(super) fn own(patch: &PatchCall) -> Offer {
    let &PatchCall { key, call, .. } = patch;
    let Some(text) = call.input.get(key).and_then(Value::as_str) else {
        return (None, None);
    };
    let Ok(parsed) = parse_patch(text) else {
        return (None, None);
    };
    if parsed.skipped.is_empty() && parsed.headless.is_empty() {
        return (None, None);
    }
    if !parsed.skipped.iter().all(empty_among_added) {
        // Kept or added: srview does not guess; the doubt's sentence says
        // what to send.
        return (None, None);
    }
    let plus: Vec<usize> = parsed.skipped.iter().map(|s| s.line).collect();
    let headed: Vec<usize> = parsed.headless.iter().map(|h| h.lines.0).collect();
    let fixed = repaired(text, &plus, &headed);
    let what = [
        (!plus.is_empty()).then_some("its empty lines sent as `+`"),
        (!headed.is_empty()).then_some("an `@@` line above each hunk that had none"),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(" and ");
    super::moved::offer_repaired(patch, &fixed, &format!("with {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_named_lines_get_a_plus_and_files_are_read_as_opencode_reads_them() {
        assert_eq!(
            repaired("a\n\n+b\r\n\r\nc", &[2, 4], &[]),
            "a\n+\n+b\r\n+\r\nc"
        );
        assert_eq!(
            repaired("x\n a\r\n-b\r\n", &[], &[2]),
            "x\n@@\r\n a\r\n-b\r\n"
        );
        assert_eq!(
            files_of_text(
                "*** Begin Patch\n*** Update File: a.py\n@@\n x\nunprefixed\n+y\n*** Delete File: \
                 b.py\n*** Update File: a.py\n@@\n-y\n*** End Patch"
            )
            .as_deref(),
            Some("a.py, b.py")
        );
        assert_eq!(files_of_text("*** Begin Patch\n*** End Patch"), None);
    }
}
