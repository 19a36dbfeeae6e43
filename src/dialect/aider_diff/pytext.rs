//! The few Python `str` operations Aider's editblock code relies on, with
//! Python's own semantics: `str.isspace`'s whitespace set (wider than
//! Rust's: it has `\x1c`..`\x1f`), `str.strip`, `str.splitlines` (which
//! also breaks lines at `\r`, `\x0b`, `\x0c`, `\x1c`..`\x1e`, `\x85`,
//! `\u2028`, `\u2029`), and lengths and slices counted in code points.

/// Python's `str.isspace()` for one character (also what `\s` matches in a
/// `str` regular expression).
pub fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t'..='\r'
            | '\x1c'..='\x1f'
            | ' '
            | '\u{85}'
            | '\u{a0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200a}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202f}'
            | '\u{205f}'
            | '\u{3000}'
    )
}

/// A character at which Python's `str.splitlines` ends a line (`\r\n`
/// counts as one break).
fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\x0b'
            | '\x0c'
            | '\r'
            | '\x1c'
            | '\x1d'
            | '\x1e'
            | '\u{85}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

/// `s.strip()`.
pub fn strip(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// `s.lstrip()`.
pub fn lstrip(s: &str) -> &str {
    s.trim_start_matches(is_space)
}

/// `s.strip()` is empty: the line is blank in Python's eyes.
pub fn is_blank(s: &str) -> bool {
    s.chars().all(is_space)
}

/// The bytes that may start a line break in UTF-8 text.
const MAY_BREAK: [bool; 256] = {
    let mut table = [false; 256];
    let mut at = 0;
    let starts = [b'\n', 0x0b, 0x0c, b'\r', 0x1c, 0x1d, 0x1e, 0xC2, 0xE2];
    while at < starts.len() {
        table[starts[at] as usize] = true;
        at += 1;
    }
    table
};

/// Whether `bytes` may hold a line break other than `\n` (a byte that starts
/// one): checked 64 bytes at a time with a branch-free test the compiler
/// vectorises.
fn has_rare_break(bytes: &[u8]) -> bool {
    let rare =
        |b: u8| (b.wrapping_sub(0x0b) < 3) | (b.wrapping_sub(0x1c) < 3) | (b == 0xC2) | (b == 0xE2);
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        if chunk.iter().fold(0u8, |seen, &b| seen | u8::from(rare(b))) != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| rare(b))
}

/// `s.splitlines(keepends=True)`: each line with its own break. Scans
/// bytes: the ASCII breaks are single bytes, `\x85` is `C2 85` and
/// `\u2028`/`\u2029` are `E2 80 A8`/`E2 80 A9` in UTF-8 (none of those bytes
/// starts a character otherwise).
pub fn splitlines_keepends(s: &str) -> Vec<&str> {
    let bytes = s.as_bytes();
    if !has_rare_break(bytes) {
        // Only `\n` breaks lines (lines are short: a plain scan beats a
        // memchr call per line).
        let mut lines = Vec::with_capacity(bytes.len() / 32 + 1);
        let mut start = 0;
        for (at, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                lines.push(&s[start..=at]);
                start = at + 1;
            }
        }
        if start < s.len() {
            lines.push(&s[start..]);
        }
        return lines;
    }
    let mut lines = Vec::new();
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        // Skip to the next byte that may start a break.
        match bytes[at..].iter().position(|&b| MAY_BREAK[b as usize]) {
            Some(skip) => at += skip,
            None => break,
        }
        let width = match bytes[at] {
            b'\r' if bytes.get(at + 1) == Some(&b'\n') => 2,
            b'\n' | b'\x0b' | b'\x0c' | b'\r' | b'\x1c' | b'\x1d' | b'\x1e' => 1,
            0xC2 if bytes.get(at + 1) == Some(&0x85) => 2,
            0xE2 if bytes.get(at + 1) == Some(&0x80)
                && matches!(bytes.get(at + 2), Some(0xA8 | 0xA9)) =>
            {
                3
            }
            _ => {
                at += 1;
                continue;
            }
        };
        at += width;
        lines.push(&s[start..at]);
        start = at;
    }
    if start < s.len() {
        lines.push(&s[start..]);
    }
    lines
}

/// `s.splitlines()`: the lines without their breaks.
pub fn splitlines(s: &str) -> Vec<&str> {
    splitlines_keepends(s)
        .into_iter()
        // A line ends with exactly one break (or `\r\n`): trimming break
        // characters off its end removes just that.
        .map(|line| line.trim_end_matches(is_line_break))
        .collect()
}

/// `len(s)`: code points.
pub fn len_chars(s: &str) -> usize {
    s.chars().count()
}

/// The byte offset of code point `n` of `s` (its length when `n` is past
/// the end).
pub fn byte_at_char(s: &str, n: usize) -> usize {
    s.char_indices().nth(n).map_or(s.len(), |(at, _)| at)
}

/// `s[:n]` with Python's slice rules (a negative `n` counts from the end,
/// clamped to the ends).
pub fn prefix(s: &str, n: isize) -> &str {
    let len = len_chars(s) as isize;
    let end = if n < 0 { (len + n).max(0) } else { n.min(len) };
    &s[..byte_at_char(s, end as usize)]
}

/// What Python's text-mode `open(...).read()` returns (universal newlines):
/// `\r\n` and a lone `\r` become `\n`.
pub fn universal_newlines(s: &str) -> String {
    if !s.contains('\r') {
        return s.to_string();
    }
    s.replace("\r\n", "\n").replace('\r', "\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitlines_breaks_where_python_does() {
        assert_eq!(
            splitlines_keepends("a\r\nb\rc\x0cd\u{2028}e\x1ff\n\ng"),
            ["a\r\n", "b\r", "c\x0c", "d\u{2028}", "e\x1ff\n", "\n", "g"]
        );
        assert_eq!(splitlines("a\r\nb\n\n"), ["a", "b", ""]);
        // Only "\n" (the fast scan), and text whose bytes only look like
        // the start of a break ("—" is E2 80 94, "\u{a0}" is C2 A0).
        assert_eq!(splitlines_keepends("a\nb\n\nc"), ["a\n", "b\n", "\n", "c"]);
        assert_eq!(splitlines_keepends("a—b\u{a0}\nc"), ["a—b\u{a0}\n", "c"]);
        assert_eq!(
            splitlines_keepends("a\u{85}b\u{2029}"),
            ["a\u{85}", "b\u{2029}"]
        );
        assert!(splitlines("").is_empty());
        assert_eq!(splitlines("\n"), [""]);
    }

    #[test]
    fn whitespace_is_python_s() {
        assert_eq!(strip("\x1c\u{3000} x \x1f"), "x");
        assert_eq!(lstrip("\t x \n"), "x \n");
        assert!(!is_space('\u{200b}'));
        assert!(is_blank(" \x0b\n"));
    }

    #[test]
    fn prefixes_slice_like_python() {
        assert_eq!(prefix("héllo", 2), "hé");
        assert_eq!(prefix("abc\n", -2), "ab");
        assert_eq!(prefix("ab", -5), "");
        assert_eq!(prefix("ab", 9), "ab");
    }
}
