//! *Pure.* An edit whose new lines write a name of the file's code in
//! another Unicode normalisation form than the file writes it (a tester's
//! find, 44-10: `café` typed composed, U+00E9, where the file declares it
//! decomposed, `e` U+0301; node: `ReferenceError: café is not defined`).
//! The two look identical; a language that does not normalise names reads
//! two names.
//!
//! Read, by the file's extension: JavaScript and TypeScript (tokens,
//! [`super::js_tokens`]: names outside strings, comments and template
//! text; node 20 checked), C and C++ (gcc checked: `'café' undeclared`),
//! Java (javac checked: `cannot find symbol`) and Go (its specification:
//! source text is not canonicalised), names outside `//` and `/* */`
//! comments, `".."`, `'..'` and backquoted literals. Not read: Python and
//! Rust, which normalise names to NFKC and NFC (`python3` and `rustc`
//! run the mixed file), nor languages srview has not checked.
//!
//! Doubted: a name on a line the edit changed that the file before did
//! not write, whose NFC form is that of a name the file before writes
//! otherwise. Said with both names' code points, and to write the name as
//! the file does.

use super::doubt_braces::{Lang, brace_language};
use std::collections::HashMap;
use unicode_normalization::UnicodeNormalization;

/// A name written in another normalisation than the file writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherForm {
    /// The language's name.
    pub language: &'static str,
    /// The name as the edit writes it, and its line (1-based).
    pub written: (String, usize),
    /// The name as the file writes it, and its first line (1-based).
    pub file: (String, usize),
}

impl OtherForm {
    /// [`Self::fault`] and what to send instead.
    pub fn describe(&self) -> String {
        format!(
            "{}: write the name as the file does (copy it from line {})",
            self.fault(),
            self.file.1
        )
    }

    /// The two forms, without what to send.
    pub fn fault(&self) -> String {
        let (written, line) = &self.written;
        let (file, first) = &self.file;
        let (theirs, ours) = normalisation_stretch(written, file);
        format!(
            "line {line} writes the name `{written}` in another Unicode normalisation than \
             the file, which writes it at line {first}: the file writes `{ours}` as {} ({}), \
             the edit as {} ({}); they look identical, but {} does not normalise names, so \
             they are two names",
            code_points(ours),
            normal_form(ours),
            code_points(theirs),
            normal_form(theirs),
            self.language,
        )
    }
}

/// The stretch of `sent` and of `file` (two texts differing only in
/// normalisation) that differs: what lies between their common start and
/// end, `(sent's, file's)`.
pub fn normalisation_stretch<'a>(sent: &'a str, file: &'a str) -> (&'a str, &'a str) {
    let start = sent
        .char_indices()
        .zip(file.chars())
        .find(|((_, a), b)| a != b)
        .map_or(0, |((at, _), _)| at);
    let common_end = sent[start..]
        .chars()
        .rev()
        .zip(file[start..].chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(a, _)| a.len_utf8())
        .sum::<usize>();
    (
        &sent[start..sent.len() - common_end],
        &file[start..file.len() - common_end],
    )
}

/// The normalisation form `s` is in: "composed, NFC", "decomposed, NFD"
/// or "another form".
pub fn normal_form(s: &str) -> &'static str {
    use unicode_normalization::{is_nfc, is_nfd};
    match (is_nfc(s), is_nfd(s)) {
        (true, false) => "composed, NFC",
        (false, true) => "decomposed, NFD",
        _ => "another form",
    }
}

/// `s`'s code points: `U+0065 U+0301`.
pub fn code_points(s: &str) -> String {
    s.chars()
        .map(|c| format!("U+{:04X}", c as u32))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The language of `path` whose names are read (see the module).
fn language(path: &str) -> Option<(&'static str, Lang)> {
    let lang = brace_language(path)?;
    let name = match lang {
        Lang::Js if path.ends_with("ts") || path.ends_with("tsx") => "TypeScript",
        Lang::Js => "JavaScript",
        Lang::C => "C",
        Lang::Java => "Java",
        Lang::Go => "Go",
        _ => return None,
    };
    Some((name, lang))
}

/// The first name `result` (the file `path` after an edit) writes on a
/// changed line in another normalisation than `original` writes it; `None`
/// for a file not read (see the module).
pub fn other_form(path: &str, original: &str, result: &str) -> Option<OtherForm> {
    let (language, lang) = language(path)?;
    if result.is_ascii() || original.is_ascii() {
        return None;
    }
    let (_, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    let before = names(lang, original)?;
    let mut by_form: HashMap<String, (&str, usize)> = HashMap::new();
    for &(name, line) in before.iter().filter(|(n, _)| !n.is_ascii()) {
        by_form.entry(name.nfc().collect()).or_insert((name, line));
    }
    let written: std::collections::HashSet<&str> = before.iter().map(|(n, _)| *n).collect();
    names(lang, result)?
        .into_iter()
        .filter(|(name, line)| !name.is_ascii() && changed.contains(line))
        .filter(|(name, _)| !written.contains(name))
        .find_map(|(name, line)| {
            let form: String = name.nfc().collect();
            let &(file, first) = by_form.get(&form)?;
            Some(OtherForm {
                language,
                written: (name.to_string(), line + 1),
                file: (file.to_string(), first + 1),
            })
        })
}

/// The names of `text`'s code with their lines (0-based), or `None`
/// where the reading cannot follow it.
fn names(lang: Lang, text: &str) -> Option<Vec<(&str, usize)>> {
    if lang == Lang::Js {
        let tokens = super::js_tokens::tokens(text)?;
        return Some(
            tokens
                .iter()
                .filter(|t| t.kind == super::js_tokens::Kind::Word)
                .map(|t| (t.text, t.line))
                .collect(),
        );
    }
    Some(c_like_names(text))
}

/// The names of a C-like text outside comments, strings, character
/// literals and backquoted text (Go's raw strings), line by line; a block
/// comment or a raw string runs over lines.
fn c_like_names(text: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut open: Option<&str> = None;
    for (n, line) in text.lines().enumerate() {
        let mut at = 0;
        while at < line.len() {
            let rest = &line[at..];
            if let Some(end) = open {
                match rest.find(end) {
                    Some(i) => {
                        at += i + end.len();
                        open = None;
                    }
                    None => at = line.len(),
                }
                continue;
            }
            let c = rest.chars().next().unwrap_or(' ');
            if rest.starts_with("//") {
                break;
            } else if rest.starts_with("/*") {
                open = Some("*/");
                at += 2;
            } else if c == '`' {
                open = Some("`");
                at += 1;
            } else if c == '"' || c == '\'' {
                at += quoted_len(rest, c);
            } else if c.is_alphabetic() || c == '_' {
                let len = rest
                    .char_indices()
                    .find(|&(_, c)| !super::js_tokens::continues_word(c))
                    .map_or(rest.len(), |(i, _)| i);
                out.push((&rest[..len], n));
                at += len;
            } else {
                at += c.len_utf8();
            }
        }
    }
    out
}

/// The length of the literal `rest` starts with (quote `q`, `\` escaping),
/// to its closing quote or the line's end.
fn quoted_len(rest: &str, q: char) -> usize {
    let mut chars = rest.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        if c == '\\' {
            chars.next();
        } else if c == q {
            return i + 1;
        }
    }
    rest.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::doubt::test_edits::check_edit;

    const NFD_JS: &str = "const cafe\u{301} = 1;\nconsole.log(cafe\u{301});\n";

    /// The tester's case (44-10), said with both forms' code points.
    #[test]
    fn a_name_written_composed_where_the_file_decomposes_it_is_two_names() {
        let result = NFD_JS.replacen(
            "console.log(",
            "console.log(caf\u{e9} + 1);\nconsole.log(",
            1,
        );
        let found = other_form("n.js", NFD_JS, &result).expect("another form");
        assert_eq!(
            found.describe(),
            "line 2 writes the name `caf\u{e9}` in another Unicode normalisation than the file, \
             which writes it at line 1: the file writes `e\u{301}` as U+0065 U+0301 \
             (decomposed, NFD), the edit as U+00E9 (composed, NFC); they look identical, but \
             JavaScript does not normalise names, so they are two names: write the name as the \
             file does (copy it from line 1)"
        );
        // The other way round, and in C, Java, Go.
        let nfc = NFD_JS.replace("e\u{301}", "\u{e9}");
        assert_eq!(
            check_edit(
                other_form,
                "n.ts",
                &nfc,
                "console.log(",
                "console.log(cafe\u{301});\nconsole.log("
            )
            .map(|f| (f.language, f.written.1)),
            Some(("TypeScript", 2))
        );
        for (path, language) in [("n.c", "C"), ("N.java", "Java"), ("n.go", "Go")] {
            let found = other_form(path, NFD_JS, &result).map(|f| f.language);
            assert_eq!(found, Some(language), "{path}");
        }
    }

    /// Strings, comments, names the file already writes so, languages
    /// that normalise: nothing said.
    #[test]
    fn strings_comments_and_normalising_languages_are_not_read() {
        for new in [
            "console.log(\"caf\u{e9}\");\n",
            "// caf\u{e9}\n",
            "console.log(`caf\u{e9}`);\n",
            "/* caf\u{e9} */\n",
            "console.log(cafe\u{301} + 1);\n",
        ] {
            assert_eq!(
                check_edit(
                    other_form,
                    "n.js",
                    NFD_JS,
                    "console.log(",
                    &format!("{new}console.log(")
                ),
                None,
                "{new:?}"
            );
        }
        for path in ["n.py", "n.rs", "n.swift", "n.json"] {
            assert_eq!(
                check_edit(
                    other_form,
                    path,
                    NFD_JS,
                    "console.log(",
                    "console.log(caf\u{e9});\nconsole.log("
                ),
                None,
                "{path}"
            );
        }
        // A name the edit leaves as it was: not the edit's.
        let both = format!("{NFD_JS}let x = caf\u{e9};\n");
        assert_eq!(other_form("n.js", &both, &both.replace("x =", "y =")), None);
    }
}
