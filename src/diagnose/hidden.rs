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
//! beside the one the file holds too), or one on a line the file did not
//! have that the lines it replaces did not hold (one moved from test data
//! into code), is a trust doubt ([`hidden_added`]): text the file already
//! has, kept on its line, is not, nor are the marks of an Arabic or Hebrew
//! file written again with its new text. A joiner (U+200C, U+200D) between two characters that are
//! neither ASCII nor white space joins a script's letters or an emoji
//! sequence, and is not doubted.

use std::collections::HashSet;
use std::ops::Range;

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
        let more = self.counts.iter().any(|&(before, after)| after > before);
        let chars: Vec<String> = self
            .chars
            .iter()
            .zip(&self.counts)
            .map(|(&c, &(before, after))| {
                let char = format!("U+{:04X} {}", u32::from(c), name(c));
                match (held && more, before) {
                    (false, _) => char,
                    (true, 0) => format!("{char}: {after} added"),
                    (true, _) if after > before => {
                        format!("{char}: {} more than the file's {before}", after - before)
                    }
                    (true, _) => format!("{char}: put where it was not"),
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
        let adds = if held && more {
            format!("adds more invisible {kind} characters than the file held")
        } else if held {
            // As many as the file held, one on a line that did not hold it
            // (tester finding 37/04).
            format!("puts invisible {kind} characters the file held where they were not")
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

/// Whether `c` is a letter of a right-to-left script (Hebrew, Arabic,
/// Syriac, Thaana, N'Ko and their presentation forms).
fn rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08ff}' | '\u{fb1d}'..='\u{fdff}' | '\u{fe70}'..='\u{fefc}')
        && c.is_alphabetic()
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

/// One hidden character of a text: the character, its line (1-based) and
/// the characters beside it on that line (what a kept one keeps).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Met {
    c: char,
    line: usize,
    beside: (Option<char>, Option<char>),
}

/// The hidden characters of `text` (a U+FEFF starting it is a byte-order
/// mark, left out), each with its line and the characters beside it.
fn met_in(text: &str) -> Vec<Met> {
    let (mut line, mut counted) = (1, 0);
    let mut met = Vec::new();
    for (at, c) in hidden_in(text) {
        if at == 0 && c == '\u{feff}' {
            continue;
        }
        line += memchr::memchr_iter(b'\n', &text.as_bytes()[counted..at]).count();
        counted = at;
        let on_line = |n: Option<char>| n.filter(|&n| n != '\n' && n != '\r');
        let before = on_line(text[..at].chars().next_back());
        let after = on_line(text[at + c.len_utf8()..].chars().next());
        met.push(Met {
            c,
            line,
            beside: (before, after),
        });
    }
    met
}

/// The 1-based lines of `result` that are not the file's as they are (a
/// line the file holds word for word is its own wherever it lands), each
/// with the file's lines it replaces: the changed stretches of a line
/// diff, as `(lines of the file, lines of the result)`.
fn changed_stretches(original: &str, result: &str) -> Vec<(Range<usize>, Range<usize>)> {
    use similar::DiffOp;
    let diff = similar::TextDiff::configure()
        .timeout(std::time::Duration::from_secs(1))
        .diff_lines(original, result);
    let mut stretches: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    let mut open = false;
    for op in diff.ops() {
        let (old, new) = (op.old_range(), op.new_range());
        if matches!(op, DiffOp::Equal { .. }) {
            open = false;
            continue;
        }
        match stretches.last_mut().filter(|_| open) {
            Some((o, n)) => {
                o.end = old.end;
                n.end = new.end;
            }
            None => stretches.push((old, new)),
        }
        open = true;
    }
    // 1-based lines.
    stretches
        .into_iter()
        .map(|(o, n)| (o.start + 1..o.end + 1, n.start + 1..n.end + 1))
        .collect()
}

/// The hidden characters `result` (the file as an edit leaves it, in
/// pieces) adds (tester finding 37/04: counted per file, one moved from a
/// string of test data into a code line passed). One is added when:
/// - the result holds more of it than `original` (the file before) did
///   (a right-to-left override beside the one the file holds), or
/// - it is on a line of the result that is not the file's as it is (no
///   line of the file is that line word for word) and the file's lines
///   that line replaces do not hold it between the same characters (the
///   file's own kept on its edited line is not added; one taken out of
///   one line and put in another is).
///
/// A directional mark is added only when the file held none (see
/// [`mark`]). A U+FEFF starting either is a byte-order mark, not counted.
/// `None` when there is none.
pub fn hidden_added<'a>(
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Option<HiddenAdded> {
    let result: String = result.into_iter().collect();
    let old = met_in(original);
    let new = met_in(&result);
    let mut had: Vec<(char, usize)> = Vec::new();
    for m in &old {
        count_in(&mut had, m.c);
    }
    // A directional mark is Arabic or Hebrew text's own: not doubted where
    // the file held one, nor on a line of right-to-left letters (a
    // tester's find: `\u{200f}%d\u{200f}` in an Arabic locale file). It
    // cannot reorder code as the embedding, override and isolate controls
    // do.
    let lines_of: Vec<&str> = result.split_inclusive('\n').collect();
    let rtl_line = |line: usize| lines_of.get(line - 1).is_some_and(|l| l.chars().any(rtl));
    let doubted = |m: &Met| !mark(m.c) || (count_of(&had, m.c) == 0 && !rtl_line(m.line));
    if !new.iter().any(doubted) {
        return None;
    }
    let mut has: Vec<(char, usize)> = Vec::new();
    for m in &new {
        count_in(&mut has, m.c);
    }
    // The result's characters not kept from the file: on a changed line,
    // not matched by one of the lines it replaces.
    let original_lines: HashSet<&str> = original.split_inclusive('\n').collect();
    let result_lines: Vec<&str> = result.split_inclusive('\n').collect();
    let mut not_kept: Vec<Met> = Vec::new();
    for (old_lines, new_lines) in changed_stretches(original, &result) {
        let mut replaced: Vec<&Met> = old.iter().filter(|m| old_lines.contains(&m.line)).collect();
        for m in new.iter().filter(|m| new_lines.contains(&m.line)) {
            let own_line = result_lines
                .get(m.line - 1)
                .is_some_and(|text| original_lines.contains(text));
            if own_line {
                continue;
            }
            match replaced
                .iter()
                .position(|o| o.c == m.c && o.beside == m.beside)
            {
                Some(i) => {
                    replaced.swap_remove(i);
                }
                None => not_kept.push(*m),
            }
        }
    }
    let mut found = HiddenAdded {
        chars: Vec::new(),
        counts: Vec::new(),
        lines: Vec::new(),
    };
    for m in &new {
        let (before, after) = (count_of(&had, m.c), count_of(&has, m.c));
        let added = after > before || not_kept.iter().any(|k| k.c == m.c);
        if added && doubted(m) && !found.chars.contains(&m.c) {
            found.chars.push(m.c);
            found.counts.push((before, after));
        }
    }
    if found.chars.is_empty() {
        return None;
    }
    // Each character's lines not kept from the file; all its lines when
    // that is none (a file's line written twice).
    for &c in &found.chars {
        let lines = |from: &[Met]| -> Vec<usize> {
            from.iter().filter(|m| m.c == c).map(|m| m.line).collect()
        };
        let not = lines(&not_kept);
        found
            .lines
            .extend(if not.is_empty() { lines(&new) } else { not });
    }
    found.lines.sort_unstable();
    found.lines.dedup();
    Some(found)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::before;
    use crate::diagnose::doubt::test_edits::after;

    const FILE: &str = "def is_admin(user):\n    access = \"user\"\n    return access\n";

    /// Asserts what `hidden_added` finds in `result` (one piece) against
    /// `original`: the characters, their counts (the file's, the result's)
    /// and the lines; and the doubt's sentence, of `the diff`.
    fn assert_added(
        original: &str,
        result: &str,
        (chars, counts, lines): (&[char], &[(usize, usize)], &[usize]),
        said: &str,
    ) {
        let found = hidden_added(original, [result]).expect("added");
        assert_eq!(
            (
                found.chars.as_slice(),
                found.counts.as_slice(),
                found.lines.as_slice()
            ),
            (chars, counts, lines),
            "{result}"
        );
        assert_eq!(found.describe("the diff"), said, "{result}");
    }

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
        assert_added(
            &held,
            &more,
            (&['\u{202e}'], &[(1, 2)], &[3]),
            "the diff adds more invisible bidirectional control characters than the file \
             held (U+202E RIGHT-TO-LEFT OVERRIDE: 1 more than the file's 1, at line 3): they \
             reorder or hide the text around them, so the line reads otherwise in an editor \
             than a compiler reads it: send the text without them, or write them as escapes \
             (`\\u202E`) where they are meant",
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
        // The file's one kept (its line edited): nothing added.
        let kept = held.replace("access = ", "level = ");
        assert_eq!(hidden_added(&held, [kept.as_str()]), None);
        // Moved to a line that did not hold it (tester finding 37/04): as
        // many as before, added at its new line.
        let moved = FILE.replace("return access", "return \"\u{202e}\" + access");
        assert_added(
            &held,
            &moved,
            (&['\u{202e}'], &[(1, 1)], &[3]),
            "the diff puts invisible bidirectional control characters the file held where they \
             were not (U+202E RIGHT-TO-LEFT OVERRIDE, at line 3): they reorder or hide the text \
             around them, so the line reads otherwise in an editor than a compiler reads it: \
             send the text without them, or write them as escapes (`\\u202E`) where they are \
             meant",
        );
        // Moved within the line it was on, or its line moved whole: kept.
        let within = after(&held, "\"user\u{202e}\"", " + \"\"");
        assert_eq!(hidden_added(&held, [within.as_str()]), None);
        let lines: Vec<&str> = held.split_inclusive('\n').collect();
        let swapped = [lines[0], lines[2], lines[1]].concat();
        assert_eq!(hidden_added(&held, [swapped.as_str()]), None);
        // Its neighbours changed on its own line: not the file's as it was.
        let reworded = held.replace("\"user\u{202e}\"", "\"admin\u{202e}\"");
        assert_eq!(
            hidden_added(&held, [reworded.as_str()]).map(|f| f.lines),
            Some(vec![2])
        );
        // A file's line written twice: the lines holding it are named.
        let twice = before(&held, "    return", "    access = \"user\u{202e}\"\n");
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

    /// A tester's find (round 42b, 08): the first right-to-left mark of an
    /// Arabic locale file, beside Arabic letters, is the text's own; the
    /// same mark in a line of code without such letters is still said,
    /// and an override beside Arabic letters too.
    #[test]
    fn a_directional_mark_beside_right_to_left_letters_is_not_said() {
        let file = "{\n  \"files\": \"\u{645}\u{644}\u{641}\u{627}\u{62a}\"\n}\n";
        let arabic = file.replace(
            "\"\n}",
            "\",\n  \"count\": \"\u{200f}%d\u{200f} \u{645}\u{644}\"\n}",
        );
        assert_eq!(hidden_added(file, [arabic.as_str()]), None);
        let code = file.replace("\"\n}", "\",\n  \"path\": \"\u{200f}C:/x\"\n}");
        assert!(hidden_added(file, [code.as_str()]).is_some());
        let over = arabic.replace('\u{200f}', "\u{202e}");
        assert!(hidden_added(file, [over.as_str()]).is_some());
    }
}
