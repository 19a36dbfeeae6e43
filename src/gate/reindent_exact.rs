//! The corrected edit for an exact Claude Code `Edit` that leaves a Python
//! file misindented ([`crate::diagnose::doubt_indent`]): its new text
//! shifted as a whole to its old text's column (the replaced lines'
//! depth), offered only when srview stands behind it:
//! - old and new text are indented with spaces only, and the new text
//!   holds no triple-quoted string (whose content a shift would change);
//! - the shifted edit applies exactly and no trust check doubts it (the
//!   file then reads as Python reads it without a fault);
//! - for a dedent to no enclosing level, the replaced lines' column is the
//!   enclosing level nearest the column written (a slip, not a dedent
//!   meant for another level).

use serde_json::Value;

use crate::diagnose::doubt_indent::{BreakKind, indent_break};
use crate::dialect::edit::{self, Edit};

/// The least indentation of `text`'s non-blank lines, in spaces; `None`
/// when a tab indents one of them, or none is non-blank.
fn base(text: &str) -> Option<usize> {
    let mut least: Option<usize> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let body = line.trim_start_matches([' ', '\t']);
        let lead = &line[..line.len() - body.len()];
        if lead.contains('\t') {
            return None;
        }
        least = Some(least.map_or(lead.len(), |l| l.min(lead.len())));
    }
    least
}

/// `text` with every non-blank line moved `delta` columns (right when
/// positive).
fn shifted(text: &str, delta: isize) -> String {
    text.split_inclusive('\n')
        .map(|line| {
            if line.trim().is_empty() {
                line.to_string()
            } else if delta >= 0 {
                format!("{}{line}", " ".repeat(delta.unsigned_abs()))
            } else {
                line[delta.unsigned_abs()..].to_string()
            }
        })
        .collect()
}

/// The tool input with the shifted new text, when srview stands behind it
/// (see the module); `content`: the file before the edit.
pub(super) fn corrected(sent: &Edit, content: &str, input: &Value) -> Option<Value> {
    let Edit::ClaudeEdit {
        file_path,
        old_string,
        new_string,
        replace_all: false,
    } = sent
    else {
        return None;
    };
    if new_string.contains("\"\"\"") || new_string.contains("'''") {
        return None;
    }
    let (old_base, new_base) = (base(old_string)?, base(new_string)?);
    if old_base == new_base {
        return None;
    }
    let written = edit::apply(sent, Some(content)).result.ok()?.new_content;
    let fault = indent_break(file_path, content, &written)?;
    if fault.kind == BreakKind::Unindent {
        let distance = |level: usize| level.abs_diff(new_base);
        let nearest = fault.levels.iter().copied().min_by_key(|&l| distance(l))?;
        if nearest != old_base
            || fault
                .levels
                .iter()
                .any(|&l| l != old_base && distance(l) == distance(old_base))
        {
            return None;
        }
    }
    let fixed = Edit::ClaudeEdit {
        file_path: file_path.clone(),
        old_string: old_string.clone(),
        new_string: shifted(new_string, old_base as isize - new_base as isize),
        replace_all: false,
    };
    let outcome = edit::apply(&fixed, Some(content));
    if outcome.result.is_err() || !edit::edit_doubts(&outcome, content).is_empty() {
        return None;
    }
    let Edit::ClaudeEdit { new_string, .. } = fixed else {
        return None;
    };
    let mut input = input.clone();
    input
        .as_object_mut()?
        .insert("new_string".into(), new_string.into());
    Some(input)
}
