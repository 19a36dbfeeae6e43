//! *Pure.* An edit that leaves a brace-language file with its brackets
//! unbalanced (a tester's find: an edit whose old text held a block's
//! closing `}` and whose new text did not was called fine; Rust and
//! JavaScript refuse the file, or a later `}` closes the wrong block).
//!
//! The rule, by evidence only, for a file whose extension names a brace
//! language ([`brace_language`]): the file before reads balanced for `{}`,
//! `()` and `[]` (as many openers as closers of each, counted outside
//! strings, comments and character literals, the reading ending outside
//! them), and the file as the edit leaves it does not. A file that reads
//! unbalanced before (a macro, a regular expression or a C++ raw string
//! srview misreads) is not judged: its reading is not trusted.
//!
//! Languages, by extension: JavaScript and TypeScript (`.js .mjs .cjs .jsx
//! .ts .tsx .mts .cts`: `'..'`, `".."`, template literals with their
//! `${..}`, regular-expression literals), Go (`.go`: runes, backquoted raw
//! strings), Rust (`.rs`: strings over several lines, `r#".."#`, byte
//! strings, a lifetime `'a` is no character literal), the C family (`.c .h
//! .cc .cpp .cxx .hpp .hh`), Java, C#, Kotlin, Scala, Swift (`.java .cs .kt
//! .kts .scala .swift`: `"""` text blocks, C#'s `@".."`) and JSON (`.json`).
//! Left out: CSS and its kin (`url(//host/a.png)` unquoted reads as a
//! comment), PHP (HTML around `<?php`, heredocs, `#` comments), shell.
//!
//! Cheap on a long file: the file before is read once; the file after only
//! when the edit's changed lines hold a bracket, a quote or a comment mark
//! (else it reads as the file before does).

use crate::textdiff::shared_ends;

/// The string forms a brace language has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    /// JavaScript, TypeScript.
    Js,
    /// Go.
    Go,
    /// Rust.
    Rust,
    /// C, C++.
    C,
    /// Java, Kotlin, Scala, Swift: `"""` text blocks.
    Jvm,
    /// C#: `@".."` verbatim strings, `"""` raw strings.
    CSharp,
    /// JSON.
    Json,
}

/// The brace language `path`'s extension names (see the module).
pub fn brace_language(path: &str) -> Option<Lang> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    Some(match ext {
        "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" => Lang::Js,
        "go" => Lang::Go,
        "rs" => Lang::Rust,
        "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" => Lang::C,
        "java" | "kt" | "kts" | "scala" | "swift" => Lang::Jvm,
        "cs" => Lang::CSharp,
        "json" => Lang::Json,
        _ => return None,
    })
}

/// The brackets counted, openers and closers.
const OPEN: [char; 3] = ['{', '(', '['];
const CLOSE: [char; 3] = ['}', ')', ']'];

/// Where the reading is at a line's end.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Mode {
    Code,
    /// A `/* */` comment.
    Block,
    /// A string quoted by this character, with `\` escapes.
    Quoted(char),
    /// A JavaScript template literal.
    Template,
    /// Go's backquoted string, no escapes.
    Backquoted,
    /// Rust's raw string with this many `#`.
    Raw(usize),
    /// A `"""` text block.
    Triple,
    /// C#'s `@".."`: `""` is a quote, no escapes.
    Verbatim,
}

/// The bracket counts of a text: openers, then closers, each `{ ( [`.
type Counts = [usize; 6];

/// A reading of a brace language's text, line after line.
#[derive(Debug, Clone)]
struct Reader {
    lang: Lang,
    mode: Mode,
    /// The `{` depth inside each `${` of a template literal open around
    /// the reading (the innermost last).
    templates: Vec<usize>,
    counts: Counts,
    /// The line read last: each pair's balance so far on it, and how far
    /// below 0 it went (its closers of blocks opened on earlier lines).
    running: [i64; 3],
    dips: [usize; 3],
}

impl Reader {
    fn new(lang: Lang) -> Reader {
        Reader {
            lang,
            mode: Mode::Code,
            templates: Vec::new(),
            counts: [0; 6],
            running: [0; 3],
            dips: [0; 3],
        }
    }

    /// Reads one line (without its line ending): the counts of its
    /// brackets.
    fn line(&mut self, line: &str) -> Counts {
        let before = self.counts;
        self.running = [0; 3];
        self.dips = [0; 3];
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        // The last character of code read on this line that is no white
        // space: whether a `/` starts a regular expression.
        let mut last: Option<char> = None;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            match self.mode.clone() {
                Mode::Block => {
                    if c == '*' && next == Some('/') {
                        self.mode = Mode::Code;
                        i += 1;
                    }
                }
                Mode::Quoted(q) => {
                    if c == '\\' {
                        i += 1;
                    } else if c == q {
                        self.mode = Mode::Code;
                    }
                }
                Mode::Backquoted => {
                    if c == '`' {
                        self.mode = Mode::Code;
                    }
                }
                Mode::Template => {
                    if c == '\\' {
                        i += 1;
                    } else if c == '`' {
                        self.mode = Mode::Code;
                    } else if c == '$' && next == Some('{') {
                        self.templates.push(0);
                        self.mode = Mode::Code;
                        i += 1;
                    }
                }
                Mode::Raw(hashes) => {
                    if c == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                        self.mode = Mode::Code;
                        i += hashes;
                    }
                }
                Mode::Triple => {
                    if c == '"' && next == Some('"') && chars.get(i + 2) == Some(&'"') {
                        self.mode = Mode::Code;
                        i += 2;
                    }
                }
                Mode::Verbatim => {
                    if c == '"' {
                        if next == Some('"') {
                            i += 1;
                        } else {
                            self.mode = Mode::Code;
                        }
                    }
                }
                Mode::Code => i = self.code(&chars, i, last),
            }
            if let Some(&taken) = chars.get(i)
                && !taken.is_whitespace()
            {
                last = Some(taken);
            }
            i += 1;
        }
        // A quoted string ends with its line, but in Rust (its strings go
        // on): an apostrophe in text (JSX's `Don't`) misreads one line only.
        if matches!(self.mode, Mode::Quoted(_)) && self.lang != Lang::Rust {
            self.mode = Mode::Code;
        }
        let mut counts = [0; 6];
        for (k, n) in counts.iter_mut().enumerate() {
            *n = self.counts[k] - before[k];
        }
        counts
    }

    /// Reads code at `chars[i]` (the reading is in code): returns the
    /// index of the last character it took.
    fn code(&mut self, chars: &[char], i: usize, last: Option<char>) -> usize {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let lang = self.lang;
        if let Some(k) = OPEN.iter().position(|&o| o == c) {
            self.counts[k] += 1;
            self.running[k] += 1;
            if c == '{'
                && let Some(depth) = self.templates.last_mut()
            {
                *depth += 1;
            }
            return i;
        }
        if let Some(k) = CLOSE.iter().position(|&o| o == c) {
            if c == '}'
                && let Some(depth) = self.templates.last_mut()
            {
                if *depth == 0 {
                    // The `}` ending a template literal's `${`.
                    self.templates.pop();
                    self.mode = Mode::Template;
                    return i;
                }
                *depth -= 1;
            }
            self.counts[3 + k] += 1;
            self.running[k] -= 1;
            self.dips[k] = self.dips[k].max((-self.running[k]).max(0) as usize);
            return i;
        }
        match c {
            '/' if lang != Lang::Json && next == Some('/') => chars.len() - 1,
            '/' if lang != Lang::Json && next == Some('*') => {
                self.mode = Mode::Block;
                i + 1
            }
            '/' if lang == Lang::Js && (starts_regex(last) || keyword_before(chars, i)) => {
                regex_end(chars, i)
            }
            '"' if lang == Lang::Rust => {
                self.mode = Mode::Quoted('"');
                i
            }
            '"' if matches!(lang, Lang::Jvm | Lang::CSharp)
                && next == Some('"')
                && chars.get(i + 2) == Some(&'"') =>
            {
                self.mode = Mode::Triple;
                i + 2
            }
            '@' if lang == Lang::CSharp && next == Some('"') => {
                self.mode = Mode::Verbatim;
                i + 1
            }
            '"' => {
                self.mode = Mode::Quoted('"');
                i
            }
            '`' if lang == Lang::Js => {
                self.mode = Mode::Template;
                i
            }
            '`' if lang == Lang::Go => {
                self.mode = Mode::Backquoted;
                i
            }
            '\'' if lang == Lang::Js => {
                self.mode = Mode::Quoted('\'');
                i
            }
            '\'' if lang != Lang::Json => char_literal_end(chars, i),
            'r' if lang == Lang::Rust && !word_before(chars, i) => {
                // `r"..."`, `r#"..."#`, `br"..."`.
                let hashes = chars[i + 1..].iter().take_while(|&&h| h == '#').count();
                if chars.get(i + 1 + hashes) == Some(&'"') {
                    self.mode = Mode::Raw(hashes);
                    i + 1 + hashes
                } else {
                    i
                }
            }
            'b' if lang == Lang::Rust && next == Some('r') && !word_before(chars, i) => {
                // `br"..."`, `br#"..."#`.
                let hashes = chars[i + 2..].iter().take_while(|&&h| h == '#').count();
                if chars.get(i + 2 + hashes) == Some(&'"') {
                    self.mode = Mode::Raw(hashes);
                    i + 2 + hashes
                } else {
                    i
                }
            }
            _ => i,
        }
    }
}

/// Whether the character before `chars[i]` continues a word (`for"` is
/// not `r"`).
fn word_before(chars: &[char], i: usize) -> bool {
    i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_')
}

/// Whether a `/` after `last` (the code before it on its line) starts a
/// regular expression rather than dividing.
fn starts_regex(last: Option<char>) -> bool {
    match last {
        None => true,
        Some(c) => "(,=:[!&|?{};+-*%<>~^".contains(c),
    }
}

/// Whether the word before `chars[i]` is a keyword after which a `/`
/// starts a regular expression (`return /[(]/.test(s)`).
fn keyword_before(chars: &[char], i: usize) -> bool {
    let mut end = i;
    while end > 0 && chars[end - 1].is_whitespace() {
        end -= 1;
    }
    let mut start = end;
    while start > 0 && (chars[start - 1].is_alphanumeric() || chars[start - 1] == '_') {
        start -= 1;
    }
    let word: String = chars[start..end].iter().collect();
    matches!(
        word.as_str(),
        "return"
            | "typeof"
            | "case"
            | "yield"
            | "await"
            | "in"
            | "of"
            | "delete"
            | "void"
            | "throw"
            | "new"
            | "else"
            | "do"
    )
}

/// The index of the `/` closing a regular expression that opens at
/// `chars[i]` (its flags are letters, read as code); the line's last
/// index when it does not close on the line (then it was a division).
fn regex_end(chars: &[char], i: usize) -> usize {
    let mut class = false;
    let mut k = i + 1;
    while k < chars.len() {
        match chars[k] {
            '\\' => k += 1,
            '[' => class = true,
            ']' => class = false,
            '/' if !class => return k,
            _ => {}
        }
        k += 1;
    }
    // No closing `/`: a division; read on from after it.
    i
}

/// The index of the `'` closing a character literal opening at `chars[i]`
/// (`'{'`, `'\''`, `'\u{7b}'`); `i` itself for a lifetime or label (`'a`,
/// `'static`) or a lone apostrophe.
fn char_literal_end(chars: &[char], i: usize) -> usize {
    match chars.get(i + 1) {
        Some('\\') => (i + 3..chars.len())
            .find(|&k| chars[k] == '\'')
            .unwrap_or(i),
        Some(_) if chars.get(i + 2) == Some(&'\'') => i + 2,
        _ => i,
    }
}

/// The counts of a whole text, or `None` when its reading ends inside a
/// string or a comment.
#[cfg(test)]
fn read_all<'a>(lang: Lang, lines: impl IntoIterator<Item = &'a str>) -> Option<Counts> {
    let mut reader = Reader::new(lang);
    for line in lines {
        reader.line(line.trim_end_matches('\r'));
    }
    (reader.mode == Mode::Code && reader.templates.is_empty()).then_some(reader.counts)
}

/// Per line of `lines` (a text in `lang`): the depth of `{` at its start,
/// and whether it starts in code (not inside a string or a comment).
pub(super) fn line_starts(lang: Lang, lines: &[&str]) -> Vec<(i64, bool)> {
    let mut reader = Reader::new(lang);
    let mut depth = 0i64;
    lines
        .iter()
        .map(|line| {
            let start = (depth, reader.mode == Mode::Code);
            let counts = reader.line(line.trim_end_matches('\r'));
            depth += counts[0] as i64 - counts[3] as i64;
            start
        })
        .collect()
}

/// Whether `line` holds a character that can change a reading's brackets.
fn may_count(line: &str) -> bool {
    line.contains([
        '{', '}', '(', ')', '[', ']', '"', '\'', '`', '/', '*', '#', '@',
    ])
}

/// Brackets an edit leaves unbalanced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unbalanced {
    /// The bracket pair: its opener and closer.
    pub pair: (char, char),
    /// How many more openers than closers the result has (fewer: below 0).
    pub excess: i64,
    /// The line (1-based, of the file before) and text of a closer the
    /// edit's old text has and its new text does not, or of the file
    /// after, of an opener its new text adds (for more openers); of a
    /// closer the new text adds, or an opener its old text had (for more
    /// closers).
    pub line: Option<(usize, String)>,
    /// Which of the above `line` is: true for a line of the old text.
    pub of_old: bool,
    /// The edit's changed lines: of the file before, then after (1-based,
    /// first and last; empty where none).
    pub changed: ((usize, usize), (usize, usize)),
}

impl Unbalanced {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let (open, close) = self.pair;
        let advice = match (self.excess > 0, self.of_old) {
            (true, true) => format!("send the new text with its closing `{close}`"),
            (true, false) => format!("close the `{open}` the new text opens, or leave it out"),
            (false, true) => "send the new text with the line that opens the block".to_string(),
            (false, false) => format!("leave out the extra `{close}`, or open what it closes"),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (open, close) = self.pair;
        let n = self.excess.unsigned_abs();
        let count = match n {
            1 => "one".to_string(),
            2 => "two".to_string(),
            n => n.to_string(),
        };
        let head = if self.excess > 0 {
            format!("as written, the file has {count} `{close}` fewer than `{open}`")
        } else {
            format!("as written, the file has {count} `{close}` more than `{open}`")
        };
        let quoted = |(line, text): &(usize, String)| format!("line {line} `{}`", text.trim());
        let place = match (&self.line, self.excess > 0, self.of_old) {
            (Some(l), true, true) => format!(
                ": the edit's old text closes a block its new text does not close ({})",
                quoted(l)
            ),
            (Some(l), true, false) => format!(
                ": the edit's new text opens a block it does not close ({})",
                quoted(l)
            ),
            (Some(l), false, true) => format!(
                ": the edit's old text opens a block its new text does not open ({}), \
                 and leaves its closing `{close}`",
                quoted(l)
            ),
            (Some(l), false, false) => format!(
                ": the edit's new text closes a block it does not open ({})",
                quoted(l)
            ),
            (None, ..) => {
                let ((a, b), (c, d)) = self.changed;
                let lines = |a: usize, b: usize| crate::words::line_range("line", a, b);
                match (a <= b, c <= d) {
                    (_, true) => format!(" where the edit changes {} of the result", lines(c, d)),
                    (true, false) => format!(" where the edit removes {}", lines(a, b)),
                    (false, false) => String::new(),
                }
            }
        };
        format!(
            "{head} (srview counts them outside strings and comments; the file before has as \
             many of each){place}"
        )
    }
}

/// A changed line read: its index, its counts, and how many of its
/// closers close blocks of earlier lines, per pair.
type Counted = (usize, Counts, [usize; 3]);

/// The lines of `lines` holding an opener of pair `k` that no later closer
/// of them matches, and those holding a closer no earlier opener matches.
fn unmatched(lines: &[Counted], k: usize) -> (Vec<usize>, Vec<usize>) {
    let mut open: Vec<usize> = Vec::new();
    let mut close = Vec::new();
    for &(at, c, dips) in lines {
        for _ in 0..dips[k] {
            if open.pop().is_none() {
                close.push(at);
            }
        }
        // What the line leaves open: its balance, with what it closed of
        // earlier lines given back.
        let left = c[k] + dips[k] - c[3 + k];
        open.extend(std::iter::repeat_n(at, left));
    }
    open.dedup();
    close.dedup();
    (open, close)
}

/// The brackets `result` (the file `path` as an edit leaves it) has
/// unbalanced where `original` (the file before) read balanced (see the
/// module).
pub fn unbalanced(path: &str, original: &str, result: &str) -> Option<Unbalanced> {
    let lang = brace_language(path)?;
    if original == result || original.is_empty() {
        return None;
    }
    let old: Vec<&str> = original.lines().collect();
    let new: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = shared_ends(&old, &new);
    let old_changed = prefix..old.len() - suffix;
    let new_changed = prefix..new.len() - suffix;
    // Changed lines with nothing a reading counts or enters by: the result
    // reads as the file before (a 10,000-line file is not read).
    if !old[old_changed.clone()].iter().any(|l| may_count(l))
        && !new[new_changed.clone()].iter().any(|l| may_count(l))
    {
        return None;
    }
    // The lines both files share before the edit, read once; then the
    // rest of each (a string the edit opens changes the reading of the
    // lines after it), the changed lines' counts on the way.
    let mut before = Reader::new(lang);
    for line in &old[..prefix] {
        before.line(line.trim_end_matches('\r'));
    }
    let mut after = before.clone();
    let rest = |reader: &mut Reader, lines: &[&str], changed: &std::ops::Range<usize>| {
        let mut counted = Vec::new();
        for (at, line) in lines.iter().enumerate().skip(prefix) {
            let counts = reader.line(line.trim_end_matches('\r'));
            if changed.contains(&at) {
                counted.push((at, counts, reader.dips));
            }
        }
        counted
    };
    let old_lines = rest(&mut before, &old, &old_changed);
    let read_through = before.mode == Mode::Code && before.templates.is_empty();
    let before = before.counts;
    if !read_through || (0..3).any(|k| before[k] != before[3 + k]) {
        return None;
    }
    let new_lines = rest(&mut after, &new, &new_changed);
    let after = after.counts;
    let k = (0..3).find(|&k| after[k] != after[3 + k])?;
    let excess = after[k] as i64 - after[3 + k] as i64;
    // Where the edit unbalances them: a closer of the old text that no
    // opener of it matches, gone (or an opener the new text does not
    // close, added) for more openers; an opener the old text does not
    // close, gone (or a closer of the new text no opener of it matches,
    // added) for more closers. The line named: the last such of the old
    // text, the first of the new.
    let (old_open, old_close) = unmatched(&old_lines, k);
    let (new_open, new_close) = unmatched(&new_lines, k);
    let (line, of_old) = if excess > 0 {
        if old_close.len() > new_close.len() {
            (old_close.last().map(|&at| (at, old[at])), true)
        } else {
            (new_open.first().map(|&at| (at, new[at])), false)
        }
    } else if old_open.len() > new_open.len() {
        (old_open.last().map(|&at| (at, old[at])), true)
    } else {
        (new_close.first().map(|&at| (at, new[at])), false)
    };
    Some(Unbalanced {
        pair: (OPEN[k], CLOSE[k]),
        excess,
        line: line.map(|(at, text)| (at + 1, text.to_string())),
        of_old,
        changed: (
            (old_changed.start + 1, old_changed.end),
            (new_changed.start + 1, new_changed.end),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::{Lang, brace_language, read_all, unbalanced};

    fn counts(lang: Lang, text: &str) -> Option<[usize; 6]> {
        read_all(lang, text.lines())
    }

    const RUST: &str = "fn greet(name: &str) -> String {\n    format!(\"Hi {}\", name)\n}\n\nfn main() {\n    println!(\"{}\", greet(\"a\"));\n}\n";

    /// The tester's Rust find: greet's `}` lost with the trailing context.
    #[test]
    fn a_closing_brace_the_new_text_drops_is_doubted() {
        let result = RUST.replace(
            "    format!(\"Hi {}\", name)\n}\n\nfn main() {",
            "    format!(\"Hi {}!\", name)\n\nfn main() {",
        );
        let found = unbalanced("src/main.rs", RUST, &result);
        assert_eq!(
            found.as_ref().map(|u| (u.pair, u.excess)),
            Some((('{', '}'), 1))
        );
        assert_eq!(
            found.map(|u| u.describe()).as_deref(),
            Some(
                "as written, the file has one `}` fewer than `{` (srview counts them outside \
                 strings and comments; the file before has as many of each): the edit's old \
                 text closes a block its new text does not close (line 3 `}`): send the new \
                 text with its closing `}`"
            )
        );
    }

    /// The tester's JavaScript find: a line added in an if-block, the
    /// block's `}` lost.
    #[test]
    fn an_if_blocks_lost_brace_in_javascript_is_doubted() {
        let before =
            "function check(u) {\n  if (!u) {\n    return false;\n  }\n  return u.active;\n}\n";
        let after = "function check(u) {\n  if (!u) {\n    log(\"no user\");\n    return false;\n  return u.active;\n}\n";
        let found = unbalanced("c.js", before, after);
        assert_eq!(
            found.as_ref().and_then(|u| u.line.clone()),
            Some((4, "  }".into()))
        );
        assert!(found.is_some_and(|u| u.of_old && u.excess == 1));
    }

    /// The line named is the one whose bracket nothing in its text
    /// matches: not a `{}` on one line, not a block closed and opened
    /// again (`} else {`), not an inner block the text closes itself.
    #[test]
    fn the_line_named_is_the_unmatched_one() {
        let before = "fn f(a: u8) -> u8 {\n    if a {\n        1\n    } else {\n        2\n    }\n}\n\nfn g() {}\n";
        let after = before.replace(
            "fn f(a: u8) -> u8 {\n    if a {\n        1\n    } else {\n        2\n    }\n",
            "fn f() {}\n",
        );
        let found = unbalanced("a.rs", before, &after);
        assert_eq!(
            found.map(|u| (u.excess, u.of_old, u.line)),
            Some((-1, true, Some((1, "fn f(a: u8) -> u8 {".into()))))
        );
        let dropped = before.replace("        2\n    }\n}\n", "        2\n}\n");
        let found = unbalanced("a.rs", before, &dropped);
        assert_eq!(
            found.map(|u| (u.excess, u.of_old, u.line)),
            Some((1, true, Some((6, "    }".into()))))
        );
    }

    #[test]
    fn added_openers_and_extra_closers_are_doubted() {
        let before = "fn f() {\n    g(1);\n}\n";
        let opened = unbalanced("a.rs", before, "fn f() {\n    if x {\n    g(1);\n}\n");
        assert_eq!(
            opened.map(|u| (u.excess, u.of_old, u.line)),
            Some((1, false, Some((2, "    if x {".into()))))
        );
        let closed = unbalanced("a.go", before, "fn f() {\n    g(1);\n}\n}\n");
        assert_eq!(closed.as_ref().map(|u| u.excess), Some(-1));
        assert!(closed.is_some_and(|u| u.describe().contains("one `}` more than `{`")));
        let paren = unbalanced("a.ts", before, "fn f() {\n    g((1);\n}\n");
        assert_eq!(paren.map(|u| u.pair), Some(('(', ')')));
    }

    /// Brackets in strings, comments, templates, characters and raw
    /// strings are not counted; a lifetime is no character literal.
    #[test]
    fn strings_comments_and_literals_are_not_counted() {
        let balanced = [
            (
                Lang::Js,
                "const a = \"{\"; // }}\nconst b = '(' + `${x + `[`}]`;\n/* {\n */\n",
            ),
            (Lang::Js, "const r = /[{(]/g;\nconst d = a / b / c;\n"),
            (
                Lang::Js,
                "if (x) return /[(]/.test(s);\nconst e = total / count / 2;\n",
            ),
            (Lang::Js, "const t = `line\n{ ${ f({ a: 1 }) }\n`;\n"),
            (
                Lang::Rust,
                "fn f<'a>(x: &'a str) -> char {\n    let c = '{';\n    let e = '\\'';\n    let s = r#\"}\"# ;\n    let m = \"two\n{ lines\";\n    '}'\n}\n",
            ),
            (
                Lang::Rust,
                "fn f() -> &'static str {\n    let b = br\"(\"; let u = '\\u{7b}';\n    \"x\"\n}\n",
            ),
            (Lang::Go, "func f() {\n\ts := `{\n(`\n\tr := '}'\n}\n"),
            (
                Lang::CSharp,
                "var p = @\"C:\\\"; var q = @\"say \"\"{\"\"\";\n{ }\n",
            ),
            (
                Lang::Jvm,
                "String s = \"\"\"\n  { \"a\": 1\n  \"\"\";\n{}\n",
            ),
            (Lang::Js, "<p>Don't {x}</p>\n{ }\n"),
        ];
        for (lang, text) in balanced {
            let c = counts(lang, text);
            assert!(
                c.is_some_and(|c| (0..3).all(|k| c[k] == c[3 + k])),
                "{text:?}: {c:?}"
            );
        }
        // An unterminated block comment: no reading.
        assert_eq!(counts(Lang::C, "int x; /* {\n"), None);
    }

    #[test]
    fn balanced_results_and_unbalanced_files_are_not_doubted() {
        let before = "function a() {\n  return 1;\n}\n\nmodule.exports = { a };\n";
        // A whole balanced function added.
        let added = before.replace(
            "module.exports",
            "function b(x) {\n  if (x) {\n    return [x];\n  }\n}\n\nmodule.exports",
        );
        assert_eq!(unbalanced("a.js", before, &added), None);
        // A brace moved: `}` off one line, onto another.
        let moved = "function a() {\n  return 1; }\n\nmodule.exports = { a };\n";
        assert_eq!(unbalanced("a.js", before, moved), None);
        // A file that read unbalanced before: not judged.
        let broken = "function a() {\n  return 1;\n\nmodule.exports = { a };\n";
        assert_eq!(
            unbalanced("a.js", broken, &broken.replace("1;", "2; }}")),
            None
        );
        // Another language, or a new file.
        assert_eq!(
            unbalanced("a.css", before, &before.replace("}\n", "")),
            None
        );
        assert_eq!(unbalanced("a.js", "", "function a() {\n"), None);
        // Changed lines with no bracket: not read.
        assert_eq!(
            unbalanced("a.js", before, &before.replace("return 1", "return 2")),
            None
        );
    }

    #[test]
    fn extensions_tell_the_language() {
        assert_eq!(brace_language("web/app.tsx"), Some(Lang::Js));
        assert_eq!(brace_language("main.go"), Some(Lang::Go));
        assert_eq!(brace_language("src\\lib.rs"), Some(Lang::Rust));
        assert_eq!(brace_language("x.hpp"), Some(Lang::C));
        assert_eq!(brace_language("A.java"), Some(Lang::Jvm));
        assert_eq!(brace_language("package.json"), Some(Lang::Json));
        for other in ["a.py", "style.css", "index.php", "Makefile", "rs", "a.sh"] {
            assert_eq!(brace_language(other), None, "{other}");
        }
    }
}
