//! *Pure.* An edit that leaves a Rust format string with a `{` or a `}`
//! unmatched (tester 47 T-02's remainder: `println!("{x");` was allowed;
//! rustc refuses it, "invalid format string: expected `}` but string was
//! terminated", and `"a } b"` with "unmatched `}` found").
//!
//! The rule, by evidence only, for a Rust file (`.rs`): a format string
//! is the string literal (`".."` or a raw `r#".."#`) a format macro takes
//! as its format: the first argument of `format!`, `print!`, `println!`,
//! `eprint!`, `eprintln!`, `format_args!`, `panic!`, `unreachable!`,
//! `todo!`, `unimplemented!`; the second of `write!`, `writeln!`,
//! `assert!`, `debug_assert!`; the third of `assert_eq!`, `assert_ne!`,
//! `debug_assert_eq!`, `debug_assert_ne!`. In it `{{` and `}}` are
//! braces; a `{` opens a placeholder that a `}` closes (`{:}>5}`: a fill
//! character before `<`, `^` or `>` is text). Doubted: the file as the
//! edit leaves it holds such a string, on a line the edit changed, with a
//! `{` left open (or a `{` inside a placeholder) or a lone `}`, and the
//! file before held none.
//!
//! Not read: a `panic!`-like macro's (`panic!`, `unreachable!`,
//! `assert!`'s) format string with no argument after it (Rust 2018 takes
//! it as text, Rust 2021 formats it: the edition is not known here); a
//! string whose escapes write a brace (`\u{7b}`); comments, byte and C
//! strings, and anything after a reading that ends inside a string or a
//! comment.

use crate::textdiff::changed_lines;

/// A token of Rust code, as far as this check reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Tok {
    Ident(String),
    /// A string literal: its value (`None` where an escape writes a
    /// brace), its line (0-based) and its source text.
    Str(Option<String>, usize, String),
    Open,
    Close,
    Comma,
    Bang,
    /// Anything else: a number, a character, an operator, a byte string.
    Other,
}

/// The tokens of `text`; `None` when the reading ends inside a string or
/// a block comment.
fn tokens(text: &str) -> Option<Vec<Tok>> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 0usize;
    let mut i = 0;
    let at = |k: usize| chars.get(k).copied();
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            '/' if at(i + 1) == Some('/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == Some('*') => {
                let mut depth = 0usize;
                loop {
                    match (at(i), at(i + 1)) {
                        (None, _) => return None,
                        (Some('/'), Some('*')) => {
                            depth += 1;
                            i += 2;
                        }
                        (Some('*'), Some('/')) => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        }
                        (Some(c), _) => {
                            line += usize::from(c == '\n');
                            i += 1;
                        }
                    }
                }
            }
            '"' => {
                let (value, end, lines) = cooked(&chars, i + 1)?;
                let source: String = chars[i..end].iter().collect();
                out.push(Tok::Str(value, line, source));
                line += lines;
                i = end;
            }
            '\'' => {
                // A character literal (`'{'`, `'\''`, `'\u{7b}'`), or a
                // lifetime or label (`'a`).
                i += match (at(i + 1), at(i + 2)) {
                    (Some('\\'), _) => {
                        let close = (i + 3..chars.len()).find(|&k| chars[k] == '\'')?;
                        close + 1 - i
                    }
                    (Some(_), Some('\'')) => 3,
                    _ => 1,
                };
                out.push(Tok::Other);
            }
            _ if c.is_alphabetic() || c == '_' => {
                let start = i;
                while at(i).is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    i += 1;
                }
                let word: String = chars[start..i].iter().collect();
                let raw =
                    matches!(word.as_str(), "r" | "br" | "cr") && matches!(at(i), Some('"' | '#'));
                if raw {
                    let hashes = chars[i..].iter().take_while(|&&h| h == '#').count();
                    if at(i + hashes) != Some('"') {
                        // `r#name`: a raw identifier.
                        continue;
                    }
                    let body = i + hashes + 1;
                    let closing: Vec<char> = std::iter::once('"')
                        .chain(std::iter::repeat_n('#', hashes))
                        .collect();
                    let end = (body..chars.len()).find(|&k| chars[k..].starts_with(&closing))?;
                    let value: String = chars[body..end].iter().collect();
                    let lines = value.matches('\n').count();
                    let source: String = chars[start..end + closing.len()].iter().collect();
                    out.push(if word == "r" {
                        Tok::Str(Some(value), line, source)
                    } else {
                        Tok::Other
                    });
                    line += lines;
                    i = end + closing.len();
                } else if matches!(word.as_str(), "b" | "c") && at(i) == Some('"') {
                    let (_, end, lines) = cooked(&chars, i + 1)?;
                    out.push(Tok::Other);
                    line += lines;
                    i = end;
                } else if word == "b" && at(i) == Some('\'') {
                    // A byte `b'{'`: read as a character next.
                    out.push(Tok::Other);
                } else {
                    out.push(Tok::Ident(word));
                }
            }
            '(' | '[' | '{' => {
                out.push(Tok::Open);
                i += 1;
            }
            ')' | ']' | '}' => {
                out.push(Tok::Close);
                i += 1;
            }
            ',' => {
                out.push(Tok::Comma);
                i += 1;
            }
            '!' => {
                out.push(Tok::Bang);
                i += 1;
            }
            _ if c.is_whitespace() => i += 1,
            _ => {
                out.push(Tok::Other);
                i += 1;
            }
        }
    }
    Some(out)
}

/// The value of a `".."` string whose text starts at `chars[from]`, the
/// index after its closing quote, and the line breaks it holds; the value
/// `None` where an escape writes a brace. `None` when it does not close.
fn cooked(chars: &[char], from: usize) -> Option<(Option<String>, usize, usize)> {
    let mut value = Some(String::new());
    let mut lines = 0;
    let mut i = from;
    loop {
        let c = *chars.get(i)?;
        match c {
            '"' => return Some((value, i + 1, lines)),
            '\\' => {
                let e = *chars.get(i + 1)?;
                i += 2;
                let written = match e {
                    'n' => Some('\n'),
                    't' => Some('\t'),
                    'r' => Some('\r'),
                    '0' => Some('\0'),
                    '\n' => {
                        // A line continued: its next line's leading white
                        // space is skipped.
                        lines += 1;
                        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                            lines += usize::from(chars[i] == '\n');
                            i += 1;
                        }
                        None
                    }
                    'x' => {
                        let hex: String = chars.get(i..i + 2)?.iter().collect();
                        i += 2;
                        u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32)
                    }
                    'u' => {
                        let close = (i..chars.len()).find(|&k| chars[k] == '}')?;
                        let hex: String = chars[i + 1..close].iter().collect();
                        i = close + 1;
                        u32::from_str_radix(&hex.replace('_', ""), 16)
                            .ok()
                            .and_then(char::from_u32)
                    }
                    other => Some(other),
                };
                if let Some(w) = written {
                    if matches!(w, '{' | '}') && !matches!(e, '{' | '}') {
                        value = None;
                    }
                    if let Some(v) = value.as_mut() {
                        v.push(w);
                    }
                }
            }
            _ => {
                lines += usize::from(c == '\n');
                if let Some(v) = value.as_mut() {
                    v.push(c);
                }
                i += 1;
            }
        }
    }
}

/// The format macros: name, which argument is the format (0-based), and
/// whether a format with no argument after it may be text (Rust 2018's
/// `panic!("{")`).
const MACROS: [(&str, usize, bool); 18] = [
    ("format", 0, false),
    ("print", 0, false),
    ("println", 0, false),
    ("eprint", 0, false),
    ("eprintln", 0, false),
    ("format_args", 0, false),
    ("panic", 0, true),
    ("unreachable", 0, true),
    ("todo", 0, false),
    ("unimplemented", 0, false),
    ("write", 1, false),
    ("writeln", 1, false),
    ("assert", 1, true),
    ("debug_assert", 1, true),
    ("assert_eq", 2, true),
    ("assert_ne", 2, true),
    ("debug_assert_eq", 2, true),
    ("debug_assert_ne", 2, true),
];

/// What is wrong with a format string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Brace {
    /// A `{` the string ends in, or a `{` inside a placeholder.
    Open,
    /// A `}` no `{` opened (not `}}`).
    Lone,
}

/// The first fault of format string `value`, if any.
fn fault_of(value: &str) -> Option<Brace> {
    let chars: Vec<char> = value.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '{' if chars.get(i + 1) == Some(&'{') => i += 2,
            '}' if chars.get(i + 1) == Some(&'}') => i += 2,
            '}' => return Some(Brace::Lone),
            '{' => {
                let mut j = i + 1;
                loop {
                    match chars.get(j) {
                        None | Some('{') => return Some(Brace::Open),
                        Some('}') => break,
                        Some(':') if matches!(chars.get(j + 2), Some('<' | '^' | '>')) => {
                            j += 3;
                        }
                        Some(_) => j += 1,
                    }
                }
                i = j + 1;
            }
            _ => i += 1,
        }
    }
    None
}

/// A format string with a brace unmatched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatBrace {
    /// The macro (`println`).
    pub name: String,
    /// The string's first line (1-based).
    pub line: usize,
    /// The string's source text (its quotes too).
    pub source: String,
    /// Which brace.
    pub brace: Brace,
}

impl FormatBrace {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let advice = match self.brace {
            Brace::Open => "close the placeholder with `}`, or write `{{` for a brace",
            Brace::Lone => "write `}}` for a brace, or open the placeholder it closes",
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let said = match self.brace {
            Brace::Open => {
                "leaves a `{` open (rustc refuses it: invalid format string: expected `}`)"
            }
            Brace::Lone => {
                "has a `}` that closes nothing (rustc refuses it: invalid format \
                 string: unmatched `}` found)"
            }
        };
        let source: String = self.source.lines().next().unwrap_or_default().to_string();
        format!(
            "as written, the format string of `{}!` on line {} (`{source}`) {said}; the file \
             before had no such string",
            self.name, self.line
        )
    }
}

/// The format strings of `text` with a fault: each with its macro.
fn faults(text: &str) -> Option<Vec<FormatBrace>> {
    let toks = tokens(text)?;
    let mut found = Vec::new();
    for k in 0..toks.len() {
        let Tok::Ident(name) = &toks[k] else {
            continue;
        };
        let Some(&(_, index, may_be_text)) = MACROS.iter().find(|m| m.0 == name) else {
            continue;
        };
        if toks.get(k + 1) != Some(&Tok::Bang) || toks.get(k + 2) != Some(&Tok::Open) {
            continue;
        }
        // The call's arguments at its top level: each a run of tokens.
        let mut args: Vec<Vec<&Tok>> = vec![Vec::new()];
        let mut depth = 0usize;
        for tok in &toks[k + 3..] {
            match tok {
                Tok::Close if depth == 0 => break,
                Tok::Comma if depth == 0 => {
                    args.push(Vec::new());
                    continue;
                }
                Tok::Open => depth += 1,
                Tok::Close => depth -= 1,
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(tok);
            }
        }
        let Some([Tok::Str(Some(value), line, source)]) = args.get(index).map(Vec::as_slice) else {
            continue;
        };
        let more = args[index + 1..].iter().any(|a| !a.is_empty());
        if may_be_text && !more {
            continue;
        }
        if let Some(brace) = fault_of(value) {
            found.push(FormatBrace {
                name: name.clone(),
                line: line + 1,
                source: source.clone(),
                brace,
            });
        }
    }
    Some(found)
}

/// The format string `result` (the file `path` as an edit leaves it)
/// leaves with a brace unmatched, on a line the edit changed, where
/// `original` (the file before) had none (see the module).
pub fn format_brace(path: &str, original: &str, result: &str) -> Option<FormatBrace> {
    if !path.ends_with(".rs") || original == result {
        return None;
    }
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    // An edit whose lines hold no brace, quote or escape makes none.
    let marks = |l: &&str| l.contains(['{', '}', '"', '\\']);
    if !new[changed.clone()].iter().any(marks) && !old[prefix..old.len() - suffix].iter().any(marks)
    {
        return None;
    }
    if !faults(original)?.is_empty() {
        return None;
    }
    faults(result)?.into_iter().find(|f| {
        let lines = f.source.matches('\n').count();
        (f.line - 1..f.line + lines).any(|at| changed.contains(&at))
    })
}

#[cfg(test)]
mod tests;
