//! JavaScript string semantics the reference depends on: which characters
//! `String.prototype.trim` strips, and UTF-16 offsets.

/// True for the characters JavaScript's `trim()` removes. Differs from
/// `char::is_whitespace`: U+FEFF is stripped, U+0085 is not.
pub fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{0009}'
            | '\u{000A}'
            | '\u{000B}'
            | '\u{000C}'
            | '\u{000D}'
            | '\u{0020}'
            | '\u{00A0}'
            | '\u{1680}'
            | '\u{2000}'
            ..='\u{200A}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202F}'
                | '\u{205F}'
                | '\u{3000}'
                | '\u{FEFF}'
    )
}

/// `s.trim()` as JavaScript computes it.
pub fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

/// `s.trimEnd()` as JavaScript computes it.
pub fn js_trim_end(s: &str) -> &str {
    s.trim_end_matches(is_js_whitespace)
}

/// `s.trimStart()` as JavaScript computes it.
pub fn js_trim_start(s: &str) -> &str {
    s.trim_start_matches(is_js_whitespace)
}

/// `s.length` as JavaScript counts it: UTF-16 code units.
pub fn utf16_len(s: &str) -> usize {
    if s.is_ascii() {
        s.len()
    } else {
        s.chars().map(char::len_utf16).sum()
    }
}

/// Converts a byte offset into `s` to the UTF-16 code-unit offset JavaScript
/// would report. Offsets past the end count as the end.
pub fn utf16_offset(s: &str, byte_offset: usize) -> usize {
    let end = floor_char_boundary(s, byte_offset.min(s.len()));
    s[..end].chars().map(char::len_utf16).sum()
}

/// The largest char boundary not above `i` (std's is unstable).
pub fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// JavaScript's `s.slice(start, end)` for non-negative byte offsets: clamped
/// to the string, empty when `start >= end`.
pub fn js_slice(s: &str, start: usize, end: usize) -> &str {
    let start = floor_char_boundary(s, start);
    let end = floor_char_boundary(s, end);
    if start >= end { "" } else { &s[start..end] }
}

/// `Number.prototype.toString()` (radix 10) of a double: the shortest
/// digits that round-trip, placed as ECMAScript's Number::toString says
/// (plain up to 21 integer digits, `0.000001` down to 1e-6, else
/// `d.ddde+n`).
pub fn number_to_string(n: f64) -> String {
    if n.is_nan() {
        return "NaN".into();
    }
    if n == 0.0 {
        return "0".into();
    }
    if n.is_infinite() {
        return if n > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if n < 0.0 {
        return format!("-{}", number_to_string(-n));
    }
    // Rust's `{:e}` gives the shortest round-trip digits: `d.ddde±x`.
    let scientific = format!("{n:e}");
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i64;
    // ECMAScript's n: the value is 0.digits × 10^n.
    let e = exponent.parse::<i64>().unwrap_or(0) + 1;
    if k <= e && e <= 21 {
        format!("{digits}{}", "0".repeat((e - k) as usize))
    } else if 0 < e && e <= 21 {
        format!("{}.{}", &digits[..e as usize], &digits[e as usize..])
    } else if -6 < e && e <= 0 {
        format!("0.{}{digits}", "0".repeat((-e) as usize))
    } else {
        let sign = if e - 1 < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        let point = if rest.is_empty() { "" } else { "." };
        format!("{first}{point}{rest}e{sign}{}", (e - 1).abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    /// The one trim every ported matcher uses (Cline's, OpenCode's and
    /// Gemini CLI's `trim` are these, re-exported).
    #[test]
    fn trim_follows_javascript_not_rust() {
        assert_cases(
            js_trim,
            &[
                ("\u{FEFF} a \u{3000}", "a"),
                ("\u{0085}a", "\u{0085}a"),
                ("\u{FEFF}\u{A0} a \u{202F}", "a"),
                ("\u{feff}\u{a0} a\r\t", "a"),
                ("\u{feff}\u{a0} x \u{3000}", "x"),
            ],
        );
        assert_cases(
            js_trim_end,
            &[("a\u{00A0}\n", "a"), (" a \t", " a"), (" a \u{3000}", " a")],
        );
    }

    #[test]
    fn utf16_counts_surrogate_pairs() {
        let s = "a😀b";
        assert_eq!(utf16_offset(s, 5), 3);
        assert_eq!(utf16_offset(s, 100), 4);
    }

    #[test]
    fn slice_clamps_like_javascript() {
        assert_eq!(js_slice("abc", 2, 1), "");
        assert_eq!(js_slice("abc", 1, 10), "bc");
    }
}
