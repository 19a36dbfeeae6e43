//! *Pure.* Characters that change how a line reads without showing
//! themselves: the bidirectional controls (U+202A-U+202E, U+2066-U+2069,
//! U+200E, U+200F, U+061C), which reorder the text around them in an
//! editor but not for a compiler (the "Trojan Source" pattern,
//! CVE-2021-42574), and the zero-width characters (U+200B-U+200D, U+2060,
//! U+FEFF after the start of the file), which make two identifiers that
//! look the same differ (a tester's find: an edit adding `"user<U+202E>
//! <U+2066>// Check if admin<U+2069> <U+2066>"` reviewed as a harmless
//! string everywhere srview showed it, and passed every check).
//!
//! The previewer draws each as a stand-in (`⟨U+202E⟩`,
//! [`crate::tui::shown::sanitize`]); an edit whose result holds one the
//! file did not hold is a trust doubt ([`hidden_added`]): text the file
//! already has (the marks of an Arabic or Hebrew file, kept or written
//! again) is not. A joiner (U+200C, U+200D) between two characters that are
//! neither ASCII nor white space joins a script's letters or an emoji
//! sequence, and is not doubted.

/// Whether `c` is a bidirectional control or a zero-width character.
pub fn is_hidden(c: char) -> bool {
    matches!(
        c,
        '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{061c}'
            | '\u{200b}'..='\u{200d}'
            | '\u{2060}'
            | '\u{feff}'
    )
}

/// What the panes draw for a hidden character: `⟨U+202E⟩`.
pub fn stand_in(c: char) -> String {
    format!("⟨U+{:04X}⟩", u32::from(c))
}

/// The Unicode name of a hidden character.
fn name(c: char) -> &'static str {
    match c {
        '\u{202a}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202b}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202c}' => "POP DIRECTIONAL FORMATTING",
        '\u{202d}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202e}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        '\u{2069}' => "POP DIRECTIONAL ISOLATE",
        '\u{200e}' => "LEFT-TO-RIGHT MARK",
        '\u{200f}' => "RIGHT-TO-LEFT MARK",
        '\u{061c}' => "ARABIC LETTER MARK",
        '\u{200b}' => "ZERO WIDTH SPACE",
        '\u{200c}' => "ZERO WIDTH NON-JOINER",
        '\u{200d}' => "ZERO WIDTH JOINER",
        '\u{2060}' => "WORD JOINER",
        _ => "ZERO WIDTH NO-BREAK SPACE",
    }
}

/// The hidden characters of `text` with their byte offsets, a joiner
/// inside a script or an emoji sequence left out (see the module). Only
/// the bytes that can start one are looked at (`0xD8`, `0xE2`, `0xEF`).
fn hidden_in(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    memchr::memchr3_iter(0xd8, 0xe2, 0xef, text.as_bytes()).filter_map(move |at| {
        // Those bytes only ever start a character.
        let c = text.get(at..)?.chars().next()?;
        if !is_hidden(c) {
            return None;
        }
        if matches!(c, '\u{200c}' | '\u{200d}') {
            let joined = |n: Option<char>| n.is_some_and(|n| !n.is_ascii() && !n.is_whitespace());
            let before = text[..at].chars().next_back();
            let after = text[at + c.len_utf8()..].chars().next();
            if joined(before) && joined(after) {
                return None;
            }
        }
        Some((at, c))
    })
}

/// Whether `text` holds a hidden character (a quick test before a result
/// is put together).
pub fn has_hidden(text: &str) -> bool {
    hidden_in(text).next().is_some()
}

/// The hidden characters an edit's result holds and the file did not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenAdded {
    /// Each character, once, in the order first met.
    pub chars: Vec<char>,
    /// The result's lines (1-based) holding them, in order.
    pub lines: Vec<usize>,
}

/// How many lines a sentence names.
const LINES_NAMED: usize = 5;

impl HiddenAdded {
    /// One sentence without a final stop, `what` its subject ("its new
    /// text", "the diff"), ending with what to send.
    pub fn describe(&self, what: &str) -> String {
        let chars: Vec<String> = self
            .chars
            .iter()
            .map(|&c| format!("U+{:04X} {}", u32::from(c), name(c)))
            .collect();
        let mut lines: Vec<String> = self
            .lines
            .iter()
            .take(LINES_NAMED)
            .map(ToString::to_string)
            .collect();
        if self.lines.len() > LINES_NAMED {
            lines.push(format!("{} more", self.lines.len() - LINES_NAMED));
        }
        let where_ = if self.lines.len() == 1 {
            "line"
        } else {
            "lines"
        };
        let kind = if self.chars.iter().any(|&c| bidi(c)) {
            "bidirectional control"
        } else {
            "zero-width"
        };
        format!(
            "{what} adds invisible {kind} characters the file did not hold ({}, at {where_} {}): \
             they reorder or hide the text around them, so the line reads otherwise in an \
             editor than a compiler reads it: send the text without them, or write them as \
             escapes (`\\u{:04X}`) where they are meant",
            chars.join(", "),
            lines.join(", "),
            u32::from(self.chars[0]),
        )
    }
}

/// Whether `c` is a bidirectional control (not a zero-width character).
fn bidi(c: char) -> bool {
    !matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}' | '\u{feff}')
}

/// The hidden characters `result` (the file as an edit leaves it, in
/// pieces) holds that `original` (the file before) does not hold anywhere;
/// a U+FEFF starting either is a byte-order mark, not counted. `None`
/// when there is none.
pub fn hidden_added<'a>(
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Option<HiddenAdded> {
    let mut had: Vec<char> = Vec::new();
    for (at, c) in hidden_in(original) {
        let mark = at == 0 && c == '\u{feff}';
        if !mark && !had.contains(&c) {
            had.push(c);
        }
    }
    let mut found = HiddenAdded {
        chars: Vec::new(),
        lines: Vec::new(),
    };
    // Lines and bytes before the current piece.
    let (mut line, mut offset) = (1, 0);
    for piece in result {
        let mut counted = 0;
        for (at, c) in hidden_in(piece) {
            if (offset + at == 0 && c == '\u{feff}') || had.contains(&c) {
                continue;
            }
            line += memchr::memchr_iter(b'\n', &piece.as_bytes()[counted..at]).count();
            counted = at;
            if !found.chars.contains(&c) {
                found.chars.push(c);
            }
            if found.lines.last() != Some(&line) {
                found.lines.push(line);
            }
        }
        line += memchr::memchr_iter(b'\n', &piece.as_bytes()[counted..]).count();
        offset += piece.len();
    }
    (!found.chars.is_empty()).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "def is_admin(user):\n    access = \"user\"\n    return access\n";

    #[test]
    fn added_controls_are_named_with_their_lines() {
        let result = FILE.replace(
            "\"user\"",
            "\"user\u{202e} \u{2066}// Check if admin\u{2069} \u{2066}\"",
        );
        let found = hidden_added(FILE, [result.as_str()]).expect("added");
        assert_eq!(found.chars, ['\u{202e}', '\u{2066}', '\u{2069}']);
        assert_eq!(found.lines, [2]);
        assert_eq!(
            found.describe("its new text"),
            "its new text adds invisible bidirectional control characters the file did not \
             hold (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP \
             DIRECTIONAL ISOLATE, at line 2): they reorder or hide the text around them, so the \
             line reads otherwise in an editor than a compiler reads it: send the text without \
             them, or write them as escapes (`\\u202E`) where they are meant"
        );
        // Across pieces, the lines counted on.
        let (head, tail) = result.split_at(result.find("    return").expect("line 3"));
        let spaced = tail.replace("access\n", "acc\u{200b}ess\n");
        let found = hidden_added(FILE, [head, &spaced]).expect("added");
        assert_eq!(found.lines, [2, 3]);
        assert_eq!(found.chars.last(), Some(&'\u{200b}'));
    }

    #[test]
    fn what_the_file_holds_and_a_byte_order_mark_are_not_added() {
        // Kept, or written again elsewhere: the file held it.
        let hebrew = "label = \"\u{200f}שלום\"\nname = 1\n";
        let edited = hebrew.replace("name = 1", "name = \"\u{200f}עולם\"");
        assert_eq!(hidden_added(hebrew, [edited.as_str()]), None);
        assert_eq!(
            hidden_added(FILE, [format!("\u{feff}{FILE}").as_str()]),
            None
        );
        // A joiner inside a script or an emoji sequence.
        let joined = FILE.replace("\"user\"", "\"👩\u{200d}💻 می\u{200c}خواهم\"");
        assert_eq!(hidden_added(FILE, ["", joined.as_str()]), None);
        // A joiner in ASCII text, a U+FEFF past the start: added.
        let found = hidden_added(FILE, [FILE, "is\u{200d}_admin \u{feff}"]).expect("added");
        assert_eq!(
            (found.chars, found.lines),
            (vec!['\u{200d}', '\u{feff}'], vec![4])
        );
        assert!(!has_hidden(FILE));
        assert!(has_hidden("a\u{2060}b"));
    }
}
