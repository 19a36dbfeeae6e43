//! A whole-line old/new string edit whose old text is indented unlike the
//! file, corrected as srview corrects such a patch hunk: the edit is read
//! as one apply_patch hunk (old lines removed, new lines added), matched
//! as Codex matches it (white space at the line ends ignored), and
//! rewritten with its old lines as the file has them and its new lines
//! re-indented as the file is
//! ([`tighten_reindented`](crate::dialect::apply_patch::tighten_reindented),
//! which withholds what it cannot tell). srview's exact-string diagnosis
//! offers no correction here: it does not re-indent new text.

use crate::dialect::apply_patch::{
    self, LineKind, MemoryFs, Patch, PatchDoubtKind, Section, parse,
};

/// The corrected old and new texts, or `None` when the edit is not whole
/// lines, does not match as one loose hunk once, or cannot be re-indented
/// safely.
pub(super) fn reindented(old: &str, new: &str, content: &str) -> Option<(String, String)> {
    let ends = old.ends_with('\n');
    if old.trim().is_empty() || ends != (new.ends_with('\n') || new.is_empty()) {
        return None;
    }
    let lines = |text: &str, prefix: char| -> String {
        text.strip_suffix('\n')
            .unwrap_or(text)
            .split('\n')
            .map(|l| format!("{prefix}{l}\n"))
            .collect()
    };
    let added = if new.is_empty() {
        String::new()
    } else {
        lines(new, '+')
    };
    let text = format!(
        "*** Begin Patch\n*** Update File: f\n@@\n{}{added}*** End Patch\n",
        lines(old, '-')
    );
    let patch = parse(&text).ok()?;
    let fs = MemoryFs::new([("f".to_string(), content.to_string())]);
    let outcome = apply_patch::apply(&patch, &fs, "/");
    if outcome.exit_code != 0 || outcome.loose_hunks().count() != 1 {
        return None;
    }
    // A hunk whose lines occur again is no place srview can stand behind.
    let doubts = apply_patch::patch_doubts(&patch, &outcome, &fs, "/");
    if doubts.iter().any(|d| d.kind != PatchDoubtKind::IndentShift) {
        return None;
    }
    let (tight, withheld) = apply_patch::tighten_reindented(&patch, &outcome);
    if !withheld.is_empty() {
        return None;
    }
    let tight: &Patch = &tight;
    let Some(Section::Update { chunks, .. }) = tight.sections.first() else {
        return None;
    };
    let chunk = chunks.first()?;
    let join = |kind: LineKind| -> String {
        let texts: Vec<&str> = chunk
            .lines
            .iter()
            .filter(|l| l.kind == kind)
            .map(|l| l.text.as_str())
            .collect();
        if texts.is_empty() {
            return String::new();
        }
        let mut s = texts.join("\n");
        if ends {
            s.push('\n');
        }
        s
    };
    Some((join(LineKind::Removed), join(LineKind::Added)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edit_two_spaces_in_is_corrected_with_its_new_lines() {
        let file = "class Item:\n    name: str\n    qty: int\n    price: float\n\n\nx = 1\n";
        let fixed = reindented(
            "  qty: int\n  price: float\n",
            "  qty: int\n  price: float\n  sku: str = \"\"\n",
            file,
        );
        assert_eq!(
            fixed,
            Some((
                "    qty: int\n    price: float\n".to_string(),
                "    qty: int\n    price: float\n    sku: str = \"\"\n".to_string()
            ))
        );
        // Not whole lines, or nowhere near: nothing.
        assert_eq!(reindented("qty: int", "qty: str\n", file), None);
        assert_eq!(reindented("  weight: int\n", "  w: int\n", file), None);
    }
}
