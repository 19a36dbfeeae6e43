//! The JavaScript string semantics Gemini CLI's `edit.ts` relies on, on
//! Rust strings: `String.prototype.trim`'s whitespace set (also `\s` in its
//! regexes), `.` and `^` line terminators, UTF-16 lengths, and the
//! `/.*(?:\n|$)/g` line split.

/// JS `WhiteSpace` + `LineTerminator` (what `trim()` and `\s` remove; the
/// engine's, shared by every port of JavaScript code).
pub use crate::engine::js::is_js_whitespace as is_space;

/// A JS regex `LineTerminator`: what `.` does not match and after which `^`
/// matches in multiline mode (the definition [`line_terminators`] finds by
/// a byte search).
#[cfg(test)]
pub fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// `s.trim()`.
pub use crate::engine::js::js_trim as trim;

/// `s.trimStart()`.
pub use crate::engine::js::js_trim_start as trim_start;

/// `s.trimEnd()`.
pub use crate::engine::js::js_trim_end as trim_end;

/// `s.length`: UTF-16 code units.
pub use crate::engine::js::utf16_len;

/// `text.match(/.*(?:\n|$)/g).slice(0, -1)`: each line with its `\n`, the
/// last one without when the text does not end with `\n`. `.` stops at every
/// JS line terminator, so a segment ended by a lone `\r`, U+2028 or U+2029
/// never matches: it (and its terminator) is missing from the result, and
/// text joined back from these lines loses it.
pub fn match_lines(text: &str) -> Vec<&str> {
    let mut lines = Vec::with_capacity(crate::dialect::quick::count_newlines(text) + 1);
    let mut start = 0;
    for (i, len) in line_terminators(text) {
        if text.as_bytes()[i] == b'\n' {
            lines.push(&text[start..=i]);
        }
        start = i + len;
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// Each JS line terminator of `text` (`\n`, `\r`, U+2028, U+2029), in order:
/// its byte offset and length. Found by a byte search for `\n`, `\r` and
/// the lead byte 0xE2 of U+2028 and U+2029 (a lead byte in UTF-8 is
/// always a character's first).
pub fn line_terminators(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    memchr::memchr3_iter(b'\n', b'\r', 0xE2, bytes).filter_map(move |i| match bytes[i] {
        b'\n' | b'\r' => Some((i, 1)),
        _ => (bytes.get(i + 1) == Some(&0x80) && matches!(bytes.get(i + 2), Some(0xA8 | 0xA9)))
            .then_some((i, 3)),
    })
}

/// The byte offset of every character of `text` that starts a line for a
/// multiline `^`: the first, and each right after a line terminator (not
/// the end of the text), in order.
pub fn line_starts(text: &str) -> impl Iterator<Item = usize> + '_ {
    let first = (!text.is_empty()).then_some(0);
    first.into_iter().chain(
        line_terminators(text)
            .map(|(i, len)| i + len)
            .filter(move |&at| at < text.len()),
    )
}

/// `restoreTrailingNewline(original, modified)`: the result ends with `\n`
/// exactly when the original did (adds one, or removes one).
pub fn restore_trailing_newline(original: &str, modified: String) -> String {
    let had = original.ends_with('\n');
    if had && !modified.ends_with('\n') {
        modified + "\n"
    } else if !had && modified.ends_with('\n') {
        let mut modified = modified;
        modified.pop();
        modified
    } else {
        modified
    }
}

/// `decodeURIComponent(s)`, or `None` where it throws (a `%` not followed by
/// two hex digits, or escapes that do not form UTF-8).
pub fn decode_uri_component(s: &str) -> Option<String> {
    let bytes = s.as_bytes();
    let hex = |i: usize| -> Option<u8> {
        let pair = bytes.get(i + 1..i + 3)?;
        let text = std::str::from_utf8(pair).ok()?;
        u8::from_str_radix(text, 16).ok()
    };
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            out.push(bytes[i]);
            i += 1;
            continue;
        }
        let lead = hex(i)?;
        i += 3;
        let width = match lead {
            0x00..=0x7f => {
                out.push(lead);
                continue;
            }
            0xc2..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xf4 => 4,
            _ => return None,
        };
        let mut sequence = vec![lead];
        for _ in 1..width {
            if bytes.get(i) != Some(&b'%') {
                return None;
            }
            let next = hex(i)?;
            if next & 0xc0 != 0x80 {
                return None;
            }
            sequence.push(next);
            i += 3;
        }
        std::str::from_utf8(&sequence).ok()?;
        out.extend_from_slice(&sequence);
    }
    String::from_utf8(out).ok()
}

/// Node's `path.resolve(base, p)` on POSIX: `p` if absolute, else joined to
/// `base`, then `.`/`..`/empty segments folded; no trailing `/`.
pub fn resolve_path(base: &str, p: &str) -> String {
    let joined = if p.starts_with('/') {
        p.to_string()
    } else {
        format!("{base}/{p}")
    };
    let mut parts: Vec<&str> = Vec::new();
    for segment in joined.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            other => parts.push(other),
        }
    }
    format!("/{}", parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `match_lines` as it was first written, a character at a time: the
    /// definition the byte search must agree with.
    fn match_lines_by_chars(text: &str) -> Vec<&str> {
        let mut lines = Vec::new();
        let mut start = 0;
        for (i, c) in text.char_indices() {
            if is_line_terminator(c) {
                if c == '\n' {
                    lines.push(&text[start..=i]);
                }
                start = i + c.len_utf8();
            }
        }
        if start < text.len() {
            lines.push(&text[start..]);
        }
        lines
    }

    /// The line starts as the regex stage first found them, a character at
    /// a time.
    fn line_starts_by_chars(text: &str) -> Vec<usize> {
        let mut starts = Vec::new();
        let mut previous_terminator = true;
        for (i, c) in text.char_indices() {
            if previous_terminator {
                starts.push(i);
            }
            previous_terminator = is_line_terminator(c);
        }
        starts
    }

    proptest::proptest! {
        #[test]
        fn line_splits_by_byte_search_agree_with_their_definitions(
            text in "[a \n\r\t\u{2028}\u{2029}\u{2027}\u{20ac}\u{e2}\u{85}é]{0,40}"
        ) {
            proptest::prop_assert_eq!(match_lines(&text), match_lines_by_chars(&text));
            proptest::prop_assert_eq!(
                line_starts(&text).collect::<Vec<_>>(),
                line_starts_by_chars(&text)
            );
        }
    }

    #[test]
    fn match_lines_drops_segments_ended_by_a_lone_cr() {
        assert_eq!(match_lines("a\nb"), vec!["a\n", "b"]);
        assert_eq!(match_lines("a\n"), vec!["a\n"]);
        assert_eq!(match_lines("a\rb\nc\r"), vec!["b\n"]);
        assert!(match_lines("").is_empty());
    }

    #[test]
    fn decode_uri_component_as_js() {
        assert_eq!(decode_uri_component("a%20b").as_deref(), Some("a b"));
        assert_eq!(decode_uri_component("a%zz"), None);
        assert_eq!(decode_uri_component("%C3%A9").as_deref(), Some("é"));
        assert_eq!(decode_uri_component("%C3x"), None);
    }

    #[test]
    fn resolve_folds_segments() {
        assert_eq!(resolve_path("/r", "./a/../b//c"), "/r/b/c");
        assert_eq!(resolve_path("/r", "/x/./y"), "/x/y");
    }
}
