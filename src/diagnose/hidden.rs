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
//! [`crate::tui::shown::sanitize`]); an edit whose result holds more of one
//! than the file did (counted by character: a right-to-left override added
//! beside the one the file holds too) is a trust doubt ([`hidden_added`]):
//! text the file already has, kept, is not, nor are the marks of an Arabic
//! or Hebrew file written again with its new text. A joiner (U+200C, U+200D) between two characters that are
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

/// The hidden characters an edit's result holds more of than the file did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HiddenAdded {
    /// Each character, once, in the order first met.
    pub chars: Vec<char>,
    /// For each of `chars`, how many the file held and how many the result
    /// holds.
    pub counts: Vec<(usize, usize)>,
    /// The result's lines (1-based) holding them, in order: for a character
    /// the file held already, the lines the file does not have as they are.
    pub lines: Vec<usize>,
}

/// How many lines a sentence names.
const LINES_NAMED: usize = 5;

impl HiddenAdded {
    /// One sentence without a final stop, `what` its subject ("its new
    /// text", "the diff"), ending with what to send.
    pub fn describe(&self, what: &str) -> String {
        let held = self.counts.iter().any(|&(before, _)| before > 0);
        let chars: Vec<String> = self
            .chars
            .iter()
            .zip(&self.counts)
            .map(|(&c, &(before, after))| {
                let char = format!("U+{:04X} {}", u32::from(c), name(c));
                match (held, before) {
                    (false, _) => char,
                    (true, 0) => format!("{char}: {after} added"),
                    (true, _) => {
                        format!("{char}: {} more than the file's {before}", after - before)
                    }
                }
            })
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
        let adds = if held {
            format!("adds more invisible {kind} characters than the file held")
        } else {
            format!("adds invisible {kind} characters the file did not hold")
        };
        format!(
            "{what} {adds} ({}, at {where_} {}): \
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

/// Whether `c` is a directional mark (U+200E, U+200F, U+061C): the marks
/// of Arabic or Hebrew text, which a file holding one writes again with
/// its new text; they are doubted only when the file held none.
fn mark(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}')
}

/// How many times `c` is in `counts`.
fn count_of(counts: &[(char, usize)], c: char) -> usize {
    counts.iter().find(|(k, _)| *k == c).map_or(0, |&(_, n)| n)
}

/// Counts `c` once more in `counts`.
fn count_in(counts: &mut Vec<(char, usize)>, c: char) {
    match counts.iter_mut().find(|(k, _)| *k == c) {
        Some((_, n)) => *n += 1,
        None => counts.push((c, 1)),
    }
}

/// The hidden characters `result` (the file as an edit leaves it, in
/// pieces) holds more of than `original` (the file before), counted by
/// character: one the file did not hold, or a further one of a kind it
/// held (a right-to-left override added beside the one the file has); a
/// directional mark only when the file held none (see [`mark`]). A U+FEFF
/// starting either is a byte-order mark, not counted. `None` when there is
/// none.
pub fn hidden_added<'a>(
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Option<HiddenAdded> {
    let mut had: Vec<(char, usize)> = Vec::new();
    for (at, c) in hidden_in(original) {
        if !(at == 0 && c == '\u{feff}') {
            count_in(&mut had, c);
        }
    }
    let pieces: Vec<&str> = result.into_iter().collect();
    // Every hidden character of the result, with its line.
    let mut met: Vec<(char, usize)> = Vec::new();
    let mut has: Vec<(char, usize)> = Vec::new();
    // Lines and bytes before the current piece.
    let (mut line, mut offset) = (1, 0);
    for piece in &pieces {
        let mut counted = 0;
        for (at, c) in hidden_in(piece) {
            if offset + at == 0 && c == '\u{feff}' {
                continue;
            }
            line += memchr::memchr_iter(b'\n', &piece.as_bytes()[counted..at]).count();
            counted = at;
            met.push((c, line));
            count_in(&mut has, c);
        }
        line += memchr::memchr_iter(b'\n', &piece.as_bytes()[counted..]).count();
        offset += piece.len();
    }
    let added = |c: char| {
        let (before, after) = (count_of(&had, c), count_of(&has, c));
        after > before && (before == 0 || !mark(c))
    };
    let mut found = HiddenAdded {
        chars: Vec::new(),
        counts: Vec::new(),
        lines: Vec::new(),
    };
    for &(c, _) in &met {
        if added(c) && !found.chars.contains(&c) {
            found.chars.push(c);
            found.counts.push((count_of(&had, c), count_of(&has, c)));
        }
    }
    if found.chars.is_empty() {
        return None;
    }
    // A character the file held: its lines the file has as they are are
    // not named (the added ones are on the others), unless that leaves
    // none of its lines.
    let held = found.counts.iter().any(|&(before, _)| before > 0);
    let joined = if held { pieces.concat() } else { String::new() };
    let result_lines: Vec<&str> = joined.split_inclusive('\n').collect();
    let original_lines: std::collections::HashSet<&str> = if held {
        original.split_inclusive('\n').collect()
    } else {
        Default::default()
    };
    for (i, &c) in found.chars.iter().enumerate() {
        let all: Vec<usize> = met.iter().filter(|m| m.0 == c).map(|m| m.1).collect();
        let new: Vec<usize> = match found.counts[i].0 {
            1.. => all
                .iter()
                .copied()
                .filter(|&l| {
                    result_lines
                        .get(l - 1)
                        .is_none_or(|text| !original_lines.contains(text))
                })
                .collect(),
            _ => Vec::new(),
        };
        found.lines.extend(if new.is_empty() { all } else { new });
    }
    found.lines.sort_unstable();
    found.lines.dedup();
    Some(found)
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

    /// A file holding a right-to-left override already: one more is
    /// added (named with its count and its own line, not the file's), and
    /// kept as it was it is not. A directional mark the file holds written
    /// again is not counted.
    #[test]
    fn one_more_of_a_character_the_file_holds_is_added() {
        let held = FILE.replace("\"user\"", "\"user\u{202e}\"");
        let more = held.replace("return access", "return \"\u{202e}\" + access");
        let found = hidden_added(&held, [more.as_str()]).expect("added");
        assert_eq!(
            (&found.chars, &found.counts, &found.lines),
            (&vec!['\u{202e}'], &vec![(1, 2)], &vec![3])
        );
        assert_eq!(
            found.describe("the diff"),
            "the diff adds more invisible bidirectional control characters than the file \
             held (U+202E RIGHT-TO-LEFT OVERRIDE: 1 more than the file's 1, at line 3): they \
             reorder or hide the text around them, so the line reads otherwise in an editor \
             than a compiler reads it: send the text without them, or write them as escapes \
             (`\\u202E`) where they are meant"
        );
        // Beside a character the file did not hold: each said with its count.
        let both = more.replace("access\n", "acc\u{200b}ess\n");
        let found = hidden_added(&held, [both.as_str()]).expect("added");
        assert_eq!(found.counts, [(1, 2), (0, 1)]);
        assert!(
            found.describe("the diff").contains(
                "(U+202E RIGHT-TO-LEFT OVERRIDE: 1 more than the file's 1, U+200B ZERO WIDTH \
                 SPACE: 1 added, at line 3)"
            ),
            "{}",
            found.describe("the diff")
        );
        // The file's one kept (its line edited), or moved: nothing added.
        let kept = held.replace("access = ", "level = ");
        assert_eq!(hidden_added(&held, [kept.as_str()]), None);
        let moved = FILE.replace("return access", "return \"\u{202e}\" + access");
        assert_eq!(hidden_added(&held, [moved.as_str()]), None);
        // A file's line written twice: the lines holding it are named.
        let twice = held.replace("    return", "    access = \"user\u{202e}\"\n    return");
        let found = hidden_added(&held, [twice.as_str()]).expect("added");
        assert_eq!(found.lines, [2, 3]);
        let hebrew = "label = \"\u{200f}שלום\"\n";
        let more = format!("{hebrew}name = \"\u{200f}עולם\"\n");
        assert_eq!(hidden_added(hebrew, [more.as_str()]), None);
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
