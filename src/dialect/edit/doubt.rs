//! An edit that applied but does not read as it acts, which the agents do
//! without a word; srview says it, and holds a write back:
//! - its old text starts or ends inside a word of the file (`x = 1` found
//!   in `max = 10`): it changes part of a word it does not show;
//! - the file mixes CRLF and LF line endings and the result does not: the
//!   agent rewrote the endings of lines the edit does not show.

use super::EditOutcome;

/// Every reason srview cannot stand behind the edit's result over
/// `original` (the content it applied to): none for an edit that did not
/// apply.
pub fn edit_doubts(outcome: &EditOutcome, original: &str) -> Vec<String> {
    let mut out = cut_words(outcome, original);
    if let Ok(done) = &outcome.result {
        out.extend(endings_rewritten(original, &done.new_content));
    }
    out
}

/// Lines ending in CRLF and lines ending in a bare LF.
fn endings(text: &str) -> (usize, usize) {
    let lf = text.matches('\n').count();
    let crlf = text.matches("\r\n").count();
    (crlf, lf - crlf)
}

/// When `original` mixes line endings and `result` has one kind only: the
/// lines of the other kind were rewritten.
fn endings_rewritten(original: &str, result: &str) -> Option<String> {
    let (crlf, lf) = endings(original);
    if crlf == 0 || lf == 0 {
        return None;
    }
    let (new_crlf, new_lf) = endings(result);
    let (kind, changed) = match (new_crlf, new_lf) {
        (_, 0) => ("CRLF", lf),
        (0, _) => ("LF", crlf),
        _ => return None,
    };
    Some(format!(
        "the file mixes CRLF and LF line endings and the result ends every line with {kind}: \
         {} outside the edit {} its ending",
        crate::words::count(changed, "line"),
        if changed == 1 { "changes" } else { "change" }
    ))
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The word of `text` around byte `at`, a boundary inside it.
fn word_around(text: &str, at: usize) -> &str {
    let start = text[..at]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = text[at..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(text.len(), |(i, _)| at + i);
    &text[start..end]
}

/// Whether byte `at` of `text` falls between two word characters.
fn cuts_a_word(text: &str, at: usize) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at..].chars().next();
    matches!((before, after), (Some(b), Some(a)) if is_word(b) && is_word(a))
}

/// One reason per end of the replaced text that falls inside a word of
/// `original` (the content the edit applied to); none for an edit that did
/// not apply, or a whole new content.
fn cut_words(outcome: &EditOutcome, original: &str) -> Vec<String> {
    let Some(span) = outcome.block.original.filter(|_| outcome.result.is_ok()) else {
        return Vec::new();
    };
    if span.start >= span.end
        || span.end > original.len()
        || !original.is_char_boundary(span.start)
        || !original.is_char_boundary(span.end)
    {
        return Vec::new();
    }
    let line_of = |at: usize| original[..at].matches('\n').count() + 1;
    let mut out = Vec::new();
    for (at, which) in [(span.start, "starts"), (span.end, "ends")] {
        if cuts_a_word(original, at) {
            out.push(format!(
                "the edit's old text {which} inside the word `{}` at line {}: it changes part \
                 of a word it does not show",
                word_around(original, at),
                line_of(at)
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::edit::{Edit, apply};

    fn doubts(json: &str, original: &str) -> Vec<String> {
        let edit = Edit::from_tool_input("Edit", json).expect("an edit");
        edit_doubts(&apply(&edit, Some(original)), original)
    }

    /// Claude Code writes a mixed file with one line ending: said. A file
    /// with one kind, or a result that keeps both, is not.
    #[test]
    fn rewritten_line_endings_are_said() {
        let edit = r#"{"file_path": "a.py", "old_string": "a = 1", "new_string": "a = 5"}"#;
        assert_eq!(
            doubts(edit, "a = 1\r\nb = 2\r\nc = 3\nd = 4\r\n"),
            [
                "the file mixes CRLF and LF line endings and the result ends every line with \
              CRLF: 1 line outside the edit changes its ending"
            ]
        );
        assert!(doubts(edit, "a = 1\r\nb = 2\r\n").is_empty());
        assert!(doubts(edit, "a = 1\nb = 2\n").is_empty());
        let cline = r#"{"path": "a.py", "old_text": "a = 1", "new_text": "a = 5"}"#;
        let edit = Edit::from_tool_input("editor", cline).expect("an edit");
        let mixed = "a = 1\r\nb = 2\r\nc = 3\nd = 4\r\n";
        assert!(edit_doubts(&apply(&edit, Some(mixed)), mixed).is_empty());
    }

    #[test]
    fn an_old_text_inside_a_longer_name_is_said() {
        let file = "def f():\n    max = 10\n    return max\n";
        assert_eq!(
            doubts(
                r#"{"file_path": "a.py", "old_string": "x = 1", "new_string": "x = 2"}"#,
                file
            ),
            [
                "the edit's old text starts inside the word `max` at line 2: it changes part of \
                 a word it does not show",
                "the edit's old text ends inside the word `10` at line 2: it changes part of a \
                 word it does not show"
            ]
        );
        // Part of a line, whole words: what edits usually are.
        for old in ["max = 10", "return max", "max", "= 10", "f():\\n    max"] {
            let json =
                format!(r#"{{"file_path": "a.py", "old_string": "{old}", "new_string": "y"}}"#);
            assert_eq!(doubts(&json, file), Vec::<String>::new(), "{old}");
        }
        // A failed edit has nothing to doubt.
        let failed = r#"{"file_path": "a.py", "old_string": "nowhere", "new_string": "y"}"#;
        assert!(doubts(failed, file).is_empty());
    }
}
