//! Text normalisations that each undo one kind of damage, and the test for
//! lines that are almost SEARCH/REPLACE markers.
//!
//! Each normalisation is tried on its own by the classifier, so it can name
//! the one that makes a SEARCH text line up with the file.

use crate::engine::js::{is_js_whitespace, js_trim};
use crate::engine::markers;

/// HTML entities Cline's caller unescapes for non-Claude models.
const ENTITIES: [(&str, &str); 5] = [
    ("&gt;", ">"),
    ("&lt;", "<"),
    ("&quot;", "\""),
    ("&amp;", "&"),
    ("&apos;", "'"),
];

/// Whether `s` holds one of the entities the caller would unescape.
pub fn has_entity(s: &str) -> bool {
    ENTITIES.iter().any(|(e, _)| s.contains(e))
}

/// `s` with the entities unescaped (same order as the caller).
pub fn unescape_entities(s: &str) -> String {
    let mut text = s.to_string();
    for (entity, plain) in ENTITIES {
        if text.contains(entity) {
            text = text.replace(entity, plain);
        }
    }
    text
}

/// Invisible characters models insert or drop: zero-width space, joiners,
/// word joiner, BOM.
pub fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}'
    )
}

/// The ASCII character a typographic look-alike stands for, `None` when the
/// character should vanish, `Some(c)` unchanged otherwise.
pub fn plain_char(c: char) -> Option<char> {
    match c {
        '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' | '\u{2032}' => Some('\''),
        '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' | '\u{2033}' => Some('"'),
        '\u{2010}'..='\u{2015}' | '\u{2212}' => Some('-'),
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => Some(' '),
        '\u{2026}' => Some('.'),
        c if is_zero_width(c) => None,
        c => Some(c),
    }
}

/// Whether `s` holds a look-alike character [`plain_char`] would change.
pub fn has_lookalike(s: &str) -> bool {
    s.chars().any(|c| plain_char(c) != Some(c))
}

/// `s` with look-alikes replaced by their ASCII forms.
pub fn plain_lookalikes(s: &str) -> String {
    s.chars().filter_map(plain_char).collect()
}

/// `s` with every run of white space removed: equal for lines that differ
/// only in indentation, inner spacing or tabs.
pub fn squeeze_space(s: &str) -> String {
    s.chars()
        .filter(|&c| !is_js_whitespace(c) && !is_zero_width(c))
        .collect()
}

/// The key used to find candidate lines: every normalisation at once, plus
/// lower case, hashed without allocating.
pub fn loose_hash(s: &str) -> u64 {
    // FNV-1a: fast, stable, good enough for a hash table of lines.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |c: char| {
        h ^= c as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    // Source text is mostly ASCII, where every normalisation is one byte
    // test: the diagnosis hashes each line of the file on every pass.
    let mut rest = s;
    while !rest.is_empty() {
        let ascii = rest
            .bytes()
            .position(|b| !b.is_ascii())
            .unwrap_or(rest.len());
        for b in rest[..ascii].bytes() {
            if !matches!(b, b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b' ') {
                mix(b.to_ascii_lowercase() as char);
            }
        }
        rest = &rest[ascii..];
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            if let Some(c) = plain_char(c).filter(|&c| !is_js_whitespace(c)) {
                c.to_lowercase().for_each(&mut mix);
            }
            rest = chars.as_str();
        }
    }
    h
}

/// Which marker a line nearly is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerKind {
    SearchStart,
    Separator,
    ReplaceEnd,
}

/// How a line relates to the markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarkerLine {
    /// A marker the reference recognises.
    Exact(MarkerKind),
    /// A marker followed by `\r`: a CRLF diff, not seen as a marker.
    CarriageReturn(MarkerKind),
    /// Almost a marker: a typo the reference does not recognise.
    Typo(MarkerKind),
    /// Ordinary text.
    Text,
}

/// Classifies one diff line (without its `\n`).
pub fn marker_line(line: &str) -> MarkerLine {
    if let Some(kind) = exact_kind(line) {
        return MarkerLine::Exact(kind);
    }
    if let Some(kind) = line.strip_suffix('\r').and_then(exact_kind) {
        return MarkerLine::CarriageReturn(kind);
    }
    match near_kind(line) {
        Some(kind) => MarkerLine::Typo(kind),
        None => MarkerLine::Text,
    }
}

fn exact_kind(line: &str) -> Option<MarkerKind> {
    if markers::is_search_start(line) {
        Some(MarkerKind::SearchStart)
    } else if markers::is_separator(line) {
        Some(MarkerKind::Separator)
    } else if markers::is_replace_end(line) {
        Some(MarkerKind::ReplaceEnd)
    } else {
        None
    }
}

/// A run of marker characters followed by the marker word, with the spacing,
/// count or trailing characters wrong; or a separator with extra characters.
fn near_kind(line: &str) -> Option<MarkerKind> {
    let t = js_trim(line);
    let run = |set: &[char]| t.len() - t.trim_start_matches(set).len();
    let word_after = |n: usize, word: &str| {
        let rest = js_trim(&t[n..]);
        let head: String = rest.chars().take(word.len()).collect();
        head.eq_ignore_ascii_case(word) && rest.len() <= word.len() + 3
    };
    let dashes = run(&['-', '<', '\u{2014}', '\u{2013}']);
    if dashes >= 2 && word_after(dashes, "SEARCH") {
        return Some(MarkerKind::SearchStart);
    }
    let pluses = run(&['+', '>']);
    if pluses >= 2 && word_after(pluses, "REPLACE") {
        return Some(MarkerKind::ReplaceEnd);
    }
    let equals = run(&['=', '\u{2550}']);
    // `=======>`, `======= ` or `═══════`; but not `a == b` or a setext
    // heading followed by text.
    if equals >= 3 && t[equals..].chars().all(|c| c == '>' || c == '<') && t[equals..].len() <= 2 {
        return Some(MarkerKind::Separator);
    }
    None
}

/// Whether a line is blank to JavaScript's `trim()`.
pub fn is_blank(line: &str) -> bool {
    js_trim(line).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_markers() {
        use MarkerKind::{ReplaceEnd, SearchStart, Separator};
        use MarkerLine::{CarriageReturn, Exact, Text, Typo};
        for (line, want) in [
            ("-------SEARCH", Typo(SearchStart)),
            ("======= ", Typo(Separator)),
            ("=======>", Typo(Separator)),
            ("++++ REPLACE ", Typo(ReplaceEnd)),
            ("------- SEARCH>>", Typo(SearchStart)),
            ("=======\r", CarriageReturn(Separator)),
            ("+++++++ REPLACE", Exact(ReplaceEnd)),
            ("- item", Text),
            ("a == b", Text),
            ("--- project when", Text),
        ] {
            assert_eq!(marker_line(line), want, "{line:?}");
        }
    }

    #[test]
    fn normalisations() {
        assert_eq!(unescape_entities("a &lt;b&gt;"), "a <b>");
        assert_eq!(
            plain_lookalikes("\u{201C}x\u{201D}\u{200B}\u{2014}"),
            "\"x\"-"
        );
        assert_eq!(squeeze_space("\t a  b "), "ab");
        assert_eq!(loose_hash("  Foo(x)"), loose_hash("foo( x )\r"));
    }

    /// The per-character definition the fast ASCII path must agree with.
    fn loose_hash_by_chars(s: &str) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for c in s.chars().filter_map(plain_char) {
            if is_js_whitespace(c) {
                continue;
            }
            for l in c.to_lowercase() {
                h ^= l as u64;
                h = h.wrapping_mul(0x0100_0000_01b3);
            }
        }
        h
    }

    proptest::proptest! {
        #[test]
        fn loose_hash_agrees_with_its_definition(
            s in "[ -~\t\r\u{0}\u{b}\u{c}\u{a0}\u{200b}\u{2014}\u{201c}\u{3000}\u{130}ÀßΣé漢😀]{0,40}"
        ) {
            proptest::prop_assert_eq!(loose_hash(&s), loose_hash_by_chars(&s));
        }
    }
}
