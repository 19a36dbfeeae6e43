//! pi's text normalizations, from `dist/core/tools/edit-diff.js`:
//! `stripBom`, `detectLineEnding`, `normalizeToLF`, `restoreLineEndings`
//! and `normalizeForFuzzyMatch`.

use std::borrow::Cow;

use unicode_normalization::UnicodeNormalization;

/// pi's `stripBom`: one leading U+FEFF removed, returned apart.
pub fn strip_bom(content: &str) -> (&'static str, &str) {
    match content.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", content),
    }
}

/// pi's `detectLineEnding`: `\r\n` when the first `\r\n` comes before the
/// first `\n` (the first `\n` is preceded by `\r`); `\n` otherwise, also
/// when the text has no `\n` at all.
pub fn detect_line_ending(content: &str) -> &'static str {
    // The first `\r\n` can only start right before the first `\n`.
    match memchr::memchr(b'\n', content.as_bytes()) {
        Some(lf) if lf > 0 && content.as_bytes()[lf - 1] == b'\r' => "\r\n",
        _ => "\n",
    }
}

/// pi's `normalizeToLF`: `\r\n` to `\n`, then every lone `\r` to `\n`.
pub fn normalize_to_lf(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    if memchr::memchr(b'\r', bytes).is_none() {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for at in memchr::memchr_iter(b'\r', bytes) {
        out.push_str(&text[copied..at]);
        if bytes.get(at + 1) != Some(&b'\n') {
            out.push('\n');
        }
        copied = at + 1;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// pi's `restoreLineEndings`: every `\n` to `\r\n` when `ending` is CRLF.
pub fn restore_line_endings<'a>(text: &'a str, ending: &str) -> Cow<'a, str> {
    if ending != "\r\n" {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 16);
    let mut copied = 0;
    for at in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push_str(&text[copied..at]);
        out.push_str("\r\n");
        copied = at + 1;
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// The characters JavaScript's `String.prototype.trimEnd` removes (the
/// engine's, shared by every port of JavaScript code).
pub use crate::engine::js::is_js_whitespace;

/// The per-character replacements `normalizeForFuzzyMatch` applies after
/// NFKC and the trailing-whitespace strip: smart single quotes to `'`,
/// smart double quotes to `"`, the dashes U+2010-U+2015 and the minus
/// U+2212 to `-`, the special spaces (U+00A0, U+2002-U+200A, U+202F,
/// U+205F, U+3000) to a space. The same table as Codex's last seek pass.
use crate::dialect::apply_patch::seek::normalise as fold_typographic;

/// The characters Unicode 18 gave a compatibility decomposition or a
/// non-zero combining class that node 20.20.2's ICU 78.2 (Unicode 17.0),
/// on which the reference ran, does not know: there they are unassigned,
/// so NFKC keeps them and they block reordering like any starter.
/// `unicode-normalization` 0.1.26 has Unicode 18.0; compared with node on
/// every code point, these are all its differences (none canonical).
const UNKNOWN_TO_UNICODE_17: &[(char, char)] = &[
    ('\u{558}', '\u{558}'),
    ('\u{58b}', '\u{58c}'),
    ('\u{5c8}', '\u{5c9}'),
    ('\u{1ade}', '\u{1adf}'),
    ('\u{1aec}', '\u{1af0}'),
    ('\u{209d}', '\u{209f}'),
    ('\u{107bb}', '\u{107bf}'),
    ('\u{10ecb}', '\u{10ecf}'),
    ('\u{10ef0}', '\u{10ef9}'),
    ('\u{1b123}', '\u{1b126}'),
    ('\u{1d127}', '\u{1d128}'),
    ('\u{1d250}', '\u{1d252}'),
    ('\u{1d25b}', '\u{1d25c}'),
    ('\u{1d25f}', '\u{1d25f}'),
    ('\u{1d280}', '\u{1d281}'),
    ('\u{1d6a6}', '\u{1d6a6}'),
    ('\u{1df95}', '\u{1df95}'),
    ('\u{1dfcd}', '\u{1dfff}'),
];

fn unknown_to_unicode_17(c: char) -> bool {
    UNKNOWN_TO_UNICODE_17
        .iter()
        .any(|&(first, last)| first <= c && c <= last)
}

/// `text.normalize("NFKC")` as node 20.20.2 computes it: the characters
/// [`UNKNOWN_TO_UNICODE_17`] kept as they are, the text between them
/// normalised.
pub fn nfkc(text: &str) -> String {
    if text.is_ascii()
        || unicode_normalization::is_nfkc_quick(text.chars())
            == unicode_normalization::IsNormalized::Yes
    {
        return text.to_string();
    }
    if !text.chars().any(unknown_to_unicode_17) {
        return text.nfkc().collect();
    }
    let mut out = String::with_capacity(text.len());
    let mut start = 0;
    for (at, c) in text
        .char_indices()
        .filter(|&(_, c)| unknown_to_unicode_17(c))
    {
        out.extend(text[start..at].nfkc());
        out.push(c);
        start = at + c.len_utf8();
    }
    out.extend(text[start..].nfkc());
    out
}

/// pi's `normalizeForFuzzyMatch`: `text.normalize("NFKC")`, then every
/// `\n`-separated line `trimEnd()`ed, then [`fold_typographic`] on every
/// character.
///
/// Done line by line: `\n` is a starter that no normalization decomposes,
/// composes or moves anything across, so NFKC of the whole text is the
/// lines' NFKC joined; an ASCII line is its own NFKC form and folds to
/// itself.
pub fn normalize_for_fuzzy_match(text: &str) -> String {
    normalized_for_fuzzy_match(text).into_owned()
}

/// [`normalize_for_fuzzy_match`], borrowing `text` when it is its own form
/// (no copy of a whole file whose lines are all ASCII without white space
/// at their end: every exact edit's count reads it).
pub fn normalized_for_fuzzy_match(text: &str) -> Cow<'_, str> {
    let mut out = String::new();
    let mut changed = false;
    // Most lines are ASCII without white space at their end: their own
    // form. They are copied in runs (`as_is` the first byte not yet
    // copied), the others normalised one by one.
    let all_ascii = text.is_ascii();
    let mut as_is = 0;
    let mut start = 0;
    let ends = crate::dialect::quick::BytePlaces::of(text.as_bytes(), b'\n')
        .chain(std::iter::once(text.len()));
    for end in ends {
        let line = &text[start..end];
        let ascii = all_ascii || line.is_ascii();
        let trailing_space = line
            .as_bytes()
            .last()
            .is_some_and(|&b| is_js_whitespace(char::from(b)));
        if ascii && !trailing_space {
            start = end + 1;
            continue;
        }
        if !changed {
            out.reserve(text.len());
            changed = true;
        }
        out.push_str(&text[as_is..start]);
        push_normalized_line(&mut out, line, ascii);
        // The line's `\n` opens the next run.
        as_is = end;
        start = end + 1;
    }
    if !changed {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[as_is..]);
    Cow::Owned(out)
}

/// Where pi counts `old` in `content` (LF lines, no BOM), both normalized
/// ([`normalize_for_fuzzy_match`]), when that is at several places: each
/// place's 1-based first and last line, and what the normalization changed
/// in the file's lines there (`NFKC`, `trailing white space`,
/// `typographic quotes, dashes or spaces`; none where the file's lines are
/// the old text's own form). Empty at one place or none.
pub fn counted_places(content: &str, old: &str) -> Vec<((usize, usize), Vec<&'static str>)> {
    let normalized = normalized_for_fuzzy_match(content);
    let wanted = normalize_for_fuzzy_match(old);
    if wanted.is_empty() {
        return Vec::new();
    }
    // Each place's line counted on from the one before (a lone `}` may
    // stand in tens of thousands of places: counting from the start for
    // each was quadratic).
    let bytes = normalized.as_bytes();
    let (mut counted_to, mut line) = (0, 0);
    let starts: Vec<usize> = memchr::memmem::find_iter(bytes, wanted.as_bytes())
        .map(|at| {
            line += memchr::memchr_iter(b'\n', &bytes[counted_to..at]).count();
            counted_to = at;
            line
        })
        .collect();
    if starts.len() < 2 {
        return Vec::new();
    }
    let lines: Vec<&str> = content.split('\n').collect();
    let height = wanted.matches('\n').count();
    starts
        .into_iter()
        .map(|first| {
            let last = (first + height).min(lines.len().saturating_sub(1));
            let mut changed: Vec<&'static str> = Vec::new();
            for line in &lines[first..=last] {
                let composed = nfkc(line);
                let trimmed = composed.trim_end_matches(is_js_whitespace);
                let folded: String = trimmed.chars().map(fold_typographic).collect();
                for (differs, what) in [
                    (composed != *line, "NFKC"),
                    (trimmed != composed, "trailing white space"),
                    (folded != trimmed, "typographic quotes, dashes or spaces"),
                ] {
                    if differs && !changed.contains(&what) {
                        changed.push(what);
                    }
                }
            }
            ((first + 1, last + 1), changed)
        })
        .collect()
}

/// One line (without its `\n`) as [`normalize_for_fuzzy_match`] makes it,
/// onto `out`; `ascii`: the line is ASCII (its own NFKC form, folding
/// nothing).
fn push_normalized_line(out: &mut String, line: &str, ascii: bool) {
    if ascii {
        out.push_str(line.trim_end_matches(is_js_whitespace));
    } else {
        let line = nfkc(line);
        out.extend(
            line.trim_end_matches(is_js_whitespace)
                .chars()
                .map(fold_typographic),
        );
    }
}

/// The number of UTF-16 code units of `text` (JavaScript's `length`).
pub use crate::engine::js::utf16_len;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn line_ending_is_the_first_line_breaks() {
        assert_cases(
            detect_line_ending,
            &[
                ("a\r\nb\nc", "\r\n"),
                ("a\nb\r\nc", "\n"),
                ("a\rb", "\n"),
                ("abc", "\n"),
                ("a\r\rb\n", "\n"),
            ],
        );
    }

    #[test]
    fn lone_carriage_returns_become_line_feeds() {
        assert_cases(
            normalize_to_lf,
            &[("a\r\nb\rc\n", "a\nb\nc\n"), ("\r\r\n", "\n\n")],
        );
    }

    #[test]
    fn fuzzy_normalization_folds_what_pi_folds() {
        assert_cases(
            normalize_for_fuzzy_match,
            &[
                ("a  \nb\t\n", "a\nb\n"),
                (
                    "\u{2018}x\u{2019} \u{201c}y\u{201d} a\u{2013}b\u{2212}c",
                    "'x' \"y\" a-b-c",
                ),
                ("wait\u{2026}", "wait..."),
                ("\u{fb01}le x\u{b2}", "file x2"),
                ("a\u{a0}b\u{3000}", "a b"),
                ("e\u{301}", "\u{e9}"),
                // Not folded: zero-width space, soft hyphen, guillemets.
                ("a\u{200b}b\u{ad}\u{ab}", "a\u{200b}b\u{ad}\u{ab}"),
                // JavaScript's trimEnd strips U+FEFF and U+2028 but not U+0085.
                ("a\u{feff}\u{2028}", "a"),
                ("a\u{85}", "a\u{85}"),
            ],
        );
    }

    /// `normalize_for_fuzzy_match` as first written, a line at a time:
    /// the definition the runs copied as they are must agree with.
    fn normalize_line_by_line(text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut start = 0;
        let ends = crate::dialect::quick::BytePlaces::of(text.as_bytes(), b'\n')
            .chain(std::iter::once(text.len()));
        for end in ends {
            let line = &text[start..end];
            push_normalized_line(&mut out, line, line.is_ascii());
            if end < text.len() {
                out.push('\n');
            }
            start = end + 1;
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn fuzzy_normalization_agrees_with_its_line_by_line_definition(
            text in "[ab \t\r\n\u{b}\u{c}\u{a0}\u{2019}\u{201c}\u{301}\u{fb01}\u{3000}é]{0,40}"
        ) {
            proptest::prop_assert_eq!(
                normalize_for_fuzzy_match(&text),
                normalize_line_by_line(&text)
            );
        }

        /// The form is the same borrowed or not; a text is borrowed only
        /// when it is its own form, and always when its lines are ASCII
        /// without white space at their end.
        #[test]
        fn a_text_that_is_its_own_form_is_borrowed(
            text in "[ab \t\n\u{a0}\u{2019}é]{0,40}|[ab\n]{0,200}"
        ) {
            let form = normalized_for_fuzzy_match(&text);
            let expected = normalize_line_by_line(&text);
            proptest::prop_assert_eq!(form.as_ref(), expected.as_str());
            let plain = text.bytes().all(|b| matches!(b, b'a' | b'b' | b'\n'));
            match form {
                Cow::Borrowed(_) => proptest::prop_assert_eq!(&expected, &text),
                Cow::Owned(_) => proptest::prop_assert!(!plain, "{text:?} copied"),
            }
        }
    }

    #[test]
    fn fuzzy_normalization_is_idempotent() {
        for text in [
            "x = \u{201c}q\u{201d}  \n\u{2019}\u{301}\u{2013}\u{a0}\n\u{fb01} \u{3000}\u{2026}",
            "e\u{301}\u{327}\t\u{2028}\n\u{ac00}\u{11a8}\u{2011}\u{209d}\u{5c8}\u{316}",
            "\u{ff08}\u{ff09}\u{b2}\u{2122}\u{2460}\u{b5} \u{feff}\n\u{200b}\u{ad}",
        ] {
            let once = normalize_for_fuzzy_match(text);
            assert_eq!(normalize_for_fuzzy_match(&once), once, "{text:?}");
        }
    }

    #[test]
    fn characters_new_in_unicode_18_stay_as_node_20_leaves_them() {
        // U+209D has a compatibility decomposition (to `w`) only since
        // Unicode 18; U+05C8 is a combining mark only since then.
        assert_eq!(nfkc("\u{209d}\u{fb01}"), "\u{209d}fi");
        assert_eq!(nfkc("a\u{301}\u{5c8}\u{316}"), "\u{e1}\u{5c8}\u{316}");
        assert_eq!(nfkc("\u{2126}"), "\u{3a9}");
    }

    #[test]
    fn bom_is_stripped_once() {
        assert_eq!(strip_bom("\u{feff}\u{feff}x"), ("\u{feff}", "\u{feff}x"));
        assert_eq!(strip_bom("x"), ("", "x"));
    }
}
