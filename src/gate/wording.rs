//! The words of the gate's messages to the model: srview's diagnosis in
//! the terms of the tool the model called, and a diagnosis's line diff.
//! Shared by the string edits' judgment (`judge`) and the patches'
//! (`patch`).

use crate::diagnose::{DiffLine, Side};

/// A diagnosis's line diff, for the model: the sent text's lines (`-`)
/// against the file's (`+`, with their line numbers).
pub(super) fn line_diff_text(lines: &[DiffLine]) -> String {
    let mut out = String::new();
    for line in lines {
        let number = line.file_line.map(|n| n.to_string()).unwrap_or_default();
        let (mark, number) = match line.tag {
            Side::Equal => (' ', number),
            Side::Delete => ('-', "sent".to_string()),
            Side::Insert => ('+', number),
        };
        out.push_str(&format!("  {mark} {number:>5} | {}\n", line.text));
    }
    out
}

/// The legend of [`line_diff_text`].
pub(super) const LINE_DIFF_LEGEND: &str =
    "(- a line as sent, + the file's line at that number, blank: the same in both)";

/// `message` (srview's diagnosis, worded for SEARCH/REPLACE blocks) in the
/// terms of the tool the model called: its fields (`old` and `new`:
/// `old_string`, `oldText`, a patch's "old lines" ...) for the block's
/// parts. Only srview's sentences go through it, never the file's lines.
pub(super) fn in_terms(message: &str, terms: &Terms) -> String {
    let Terms {
        old,
        new,
        old_line,
        new_line,
    } = terms;
    message
        .replace("SEARCH/REPLACE", "edit")
        .replace("SEARCH lines", &format!("{old_line}s"))
        .replace("SEARCH line", old_line)
        .replace("SEARCH text", old)
        .replace("SEARCH section", old)
        .replace("the SEARCH", old)
        .replace("SEARCH", old)
        .replace("REPLACE lines", &format!("{new_line}s"))
        .replace("REPLACE line", new_line)
        .replace("REPLACE text", new)
        .replace("REPLACE section", new)
        .replace("the REPLACE", new)
        .replace("REPLACE", new)
}

/// The tool's words for a block's parts, for [`in_terms`].
pub(super) struct Terms {
    /// The text to find (`old_string`, `oldText`, "the hunk's old lines").
    pub old: String,
    /// The text written instead.
    pub new: String,
    /// One line of the text to find ("old_string line", "the hunk's old
    /// line"), before its number.
    pub old_line: String,
    /// One line of the text written instead.
    pub new_line: String,
}

impl Terms {
    /// An old/new string edit's field names.
    pub(super) fn fields(old: &str, new: &str) -> Terms {
        Terms {
            old: old.to_string(),
            new: new.to_string(),
            old_line: format!("{old} line"),
            new_line: format!("{new} line"),
        }
    }

    /// A patch's parts: "the hunk's old lines", "the hunk's old line 3".
    pub(super) fn patch() -> Terms {
        Terms {
            old: "the hunk's old lines".to_string(),
            new: "the hunk's new lines".to_string(),
            old_line: "the hunk's old line".to_string(),
            new_line: "the hunk's new line".to_string(),
        }
    }
}
