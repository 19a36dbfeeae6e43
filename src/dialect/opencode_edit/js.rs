//! The JavaScript string semantics OpenCode's tools rely on, for its ports
//! (`edit` and `apply_patch`): `String.prototype.trim`'s whitespace (also
//! `\s` in a regex), UTF-16 lengths, the BOM helpers and
//! `String.prototype.replaceAll` with a string pattern (`$` patterns
//! expanded).

/// JS `WhiteSpace` + `LineTerminator`: what `trim()` removes (the
/// engine's, shared by every port of JavaScript code).
pub use crate::engine::js::is_js_whitespace as is_space;

/// `s.trim()`.
pub use crate::engine::js::js_trim as trim;

/// `s.trimEnd()`.
pub use crate::engine::js::js_trim_end as trim_end;

/// `s.length`: UTF-16 code units.
pub use crate::engine::js::utf16_len;

/// The byte order mark as OpenCode writes it (`String.fromCharCode(65279)`).
pub const BOM: char = '\u{feff}';

/// OpenCode's `Bom.split` (`x`): one leading BOM split off.
pub fn split_bom(text: &str) -> (bool, &str) {
    match text.strip_prefix(BOM) {
        Some(rest) => (true, rest),
        None => (false, text),
    }
}

/// OpenCode's `Bom.join` (`E`): `text` with one leading BOM split off, and
/// one put back when `bom`.
pub fn join_bom(text: &str, bom: bool) -> String {
    let (_, text) = split_bom(text);
    if bom {
        format!("{BOM}{text}")
    } else {
        text.to_string()
    }
}

/// `haystack.replaceAll(pattern, replacement)` with a string pattern: every
/// non-overlapping occurrence, left to right, replaced by `replacement`
/// with its `$` patterns expanded (`$$`, `$&`, `` $` ``, `$'`; `$1` and
/// `$<name>` stay literal, a string pattern has no groups). An empty
/// pattern matches before every UTF-16 code unit and at the end; a
/// surrogate pair split that way is written as U+FFFD each half, as
/// `TextEncoder` writes it.
pub fn replace_all(haystack: &str, pattern: &str, replacement: &str) -> String {
    if pattern.is_empty() {
        return replace_all_empty(haystack, replacement);
    }
    let mut out = String::with_capacity(haystack.len());
    let mut copied = 0;
    for (at, _) in haystack.match_indices(pattern) {
        out.push_str(&haystack[copied..at]);
        let after = at + pattern.len();
        expand(
            &mut out,
            replacement,
            pattern,
            &haystack[..at],
            &haystack[after..],
        );
        copied = after;
    }
    out.push_str(&haystack[copied..]);
    out
}

/// What [`replace_all`] writes for the occurrence of `pattern` at byte
/// `at` of `haystack`: `replacement` with its `$` patterns expanded there.
pub fn expanded_at(haystack: &str, pattern: &str, replacement: &str, at: usize) -> String {
    let mut out = String::new();
    let after = (at + pattern.len()).min(haystack.len());
    expand(
        &mut out,
        replacement,
        pattern,
        haystack.get(..at).unwrap_or_default(),
        haystack.get(after..).unwrap_or_default(),
    );
    out
}

/// `GetSubstitution` for a match without captures.
fn expand(out: &mut String, replacement: &str, matched: &str, before: &str, after: &str) {
    let mut rest = replacement;
    while let Some(dollar) = rest.find('$') {
        out.push_str(&rest[..dollar]);
        let tail = &rest[dollar + 1..];
        match tail.as_bytes().first() {
            Some(b'$') => out.push('$'),
            Some(b'&') => out.push_str(matched),
            Some(b'`') => out.push_str(before),
            Some(b'\'') => out.push_str(after),
            _ => {
                out.push('$');
                rest = tail;
                continue;
            }
        }
        rest = &tail[1..];
    }
    out.push_str(rest);
}

fn replace_all_empty(haystack: &str, replacement: &str) -> String {
    let units: Vec<u16> = haystack.encode_utf16().collect();
    let replacement: Vec<u16> = replacement.encode_utf16().collect();
    let mut out: Vec<u16> = Vec::new();
    for at in 0..=units.len() {
        expand_units(&mut out, &replacement, &units[..at], &units[at..]);
        if let Some(&unit) = units.get(at) {
            out.push(unit);
        }
    }
    String::from_utf16_lossy(&out)
}

/// [`expand`] over UTF-16 code units, the match being empty.
fn expand_units(out: &mut Vec<u16>, replacement: &[u16], before: &[u16], after: &[u16]) {
    const DOLLAR: u16 = b'$' as u16;
    let mut i = 0;
    while i < replacement.len() {
        let unit = replacement[i];
        if unit == DOLLAR {
            match replacement.get(i + 1).copied() {
                Some(DOLLAR) => out.push(DOLLAR),
                Some(u) if u == u16::from(b'&') => {}
                Some(u) if u == u16::from(b'`') => out.extend_from_slice(before),
                Some(u) if u == u16::from(b'\'') => out.extend_from_slice(after),
                _ => {
                    out.push(DOLLAR);
                    i += 1;
                    continue;
                }
            }
            i += 2;
        } else {
            out.push(unit);
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn replace_all_expands_dollar_patterns() {
        assert_cases(
            |(haystack, pattern, replacement)| replace_all(haystack, pattern, replacement),
            &[
                (("a-b-a", "a", "[$&]"), "[a]-b-[a]"),
                (("xay", "a", "$$item"), "x$itemy"),
                (("xay", "a", "<$`|$'>"), "x<x|y>y"),
                (("xay", "a", "$1$<n>$"), "x$1$<n>$y"),
                (("ab", "", "-"), "-a-b-"),
                (("\u{1F600}", "", "-"), "-\u{FFFD}-\u{FFFD}-"),
            ],
        );
    }

    #[test]
    fn bom_split_and_join_take_one_bom() {
        assert_eq!(split_bom("\u{feff}\u{feff}a"), (true, "\u{feff}a"));
        assert_eq!(join_bom("\u{feff}\u{feff}a", false), "\u{feff}a");
        assert_eq!(join_bom("a", true), "\u{feff}a");
        assert_eq!(utf16_len("a\u{1F600}é"), 4);
    }
}
