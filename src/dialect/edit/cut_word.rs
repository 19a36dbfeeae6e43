//! An edit that applied but does not read as it acts: its old text starts
//! or ends inside a word of the file (`x = 1` found in `max = 10`), so it
//! changes part of a word it does not show. The agents replace text, not
//! words, and say nothing; srview says it, and holds a write back.

use super::EditOutcome;

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
pub fn cut_words(outcome: &EditOutcome, original: &str) -> Vec<String> {
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
        cut_words(&apply(&edit, Some(original)), original)
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
