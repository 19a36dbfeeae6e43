//! *Pure.* A Nix file (`.nix`) an edit leaves with a binding's `;` left
//! out, or a `let` without its `in` (tester 49 T-14). Nix's grammar
//! (`src/libexpr/parser.y`: `binds : binds attrpath '=' expr ';'`,
//! `LET binds IN expr`) ends every binding of an attribute set or a
//! `let` with `;`, and an expression reads juxtaposed values as a
//! function call (`expr_app : expr_app expr_select`), so a value without
//! its `;` swallows the next binding's name as an argument and stops at
//! its `=`: Nix refuses the file with `error: syntax error, unexpected
//! '=', expecting ';'` (before the set's `}`: `unexpected '}', expecting
//! ';'`). A `let` whose `in` is gone reads its body as one more binding
//! and stops there.
//!
//! Read as Nix's lexer reads the file: `#` and `/* */` comments, `".."`
//! and `''..''` strings with their `${ }`, paths (`./a/b`, `a/b`,
//! `<nixpkgs>`, `~/x`), URIs (`x:y`, `https://..`), identifiers with `-`
//! and `'`. A function's formals (`{ a, b ? 1 }:`) are read past; `with
//! e;` and `assert e;` take their own `;`. By evidence only: the file
//! before reads through this reader with every binding ended, the file
//! after does not, at a line the edit writes or next to one it removes.
//! Brackets left unbalanced are [`super::doubt_braces`]'s.

use super::doubt_hcl::braced_end;
use super::doubt_separator::SeparatorDropped;
use crate::textdiff::changed_lines;

/// What Nix stops at in the file an edit leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NixFault {
    /// A binding's value with no `;` before the next binding, the set's
    /// `}` or the `let`'s `in`.
    Semicolon(SeparatorDropped),
    /// A `let` whose bindings run into its body: no `in` between.
    LetWithoutIn(LetWithoutIn),
}

impl NixFault {
    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        match self {
            NixFault::Semicolon(s) => s.describe(),
            NixFault::LetWithoutIn(l) => l.describe(),
        }
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        match self {
            NixFault::Semicolon(s) => s.fault(),
            NixFault::LetWithoutIn(l) => l.fault(),
        }
    }
}

/// A `let` whose body follows its bindings with no `in`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LetWithoutIn {
    /// The `let`'s line (1-based).
    pub let_line: usize,
    /// The body's first line (1-based) and its text, trimmed.
    pub body: (usize, String),
    /// The body's first token, where Nix stops.
    pub token: String,
}

impl LetWithoutIn {
    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: send the `in` before line {}",
            self.fault(),
            self.body.0
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        format!(
            "as written, the `let` at line {} has no `in` before its body at line {} (`{}`): \
             Nix reads the body as one more binding and refuses the file (a syntax error at \
             `{}`, expecting `=`)",
            self.let_line, self.body.0, self.body.1, self.token
        )
    }
}

/// Whether `path` names a Nix file (`.nix`).
pub fn nix_name(path: &str) -> bool {
    path.ends_with(".nix")
}

/// One token of Nix's lexer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tok<'a> {
    /// An identifier or a keyword.
    Id(&'a str),
    /// A `".."` string (it may name an attribute).
    Str,
    /// A number, a path, a URI or an indented string.
    Atom,
    /// An operator or a bracket; `${` opens like a bracket.
    Punct(&'a str),
}

/// A token and its line (1-based).
type Token<'a> = (Tok<'a>, usize);

/// Characters of a path's segment (Nix's `PATH_CHAR`).
fn path_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+')
}

/// Characters of a URI after its `:` (Nix's `URI` rule).
fn uri_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"%/?:@&=+$,-_.!~*'".contains(&b)
}

/// The length of a path starting at `at` (`{PATH_CHAR}*(/{PATH_CHAR}+)+/?`), 0 if none.
fn path_len(bytes: &[u8], at: usize) -> usize {
    let mut end = at;
    while end < bytes.len() && path_char(bytes[end]) {
        end += 1;
    }
    let mut segments = 0;
    while bytes.get(end) == Some(&b'/') && bytes.get(end + 1).is_some_and(|&b| path_char(b)) {
        end += 1;
        while end < bytes.len() && path_char(bytes[end]) {
            end += 1;
        }
        segments += 1;
    }
    if segments == 0 {
        return 0;
    }
    // A path may go on with `${..}` (`./a/${name}`): read as the path's.
    end - at
}

/// The length of a URI starting at `at`, 0 if none.
fn uri_len(bytes: &[u8], at: usize) -> usize {
    if !bytes[at].is_ascii_alphabetic() {
        return 0;
    }
    let mut end = at + 1;
    while end < bytes.len() && (bytes[end].is_ascii_alphanumeric() || b"+-.".contains(&bytes[end]))
    {
        end += 1;
    }
    if bytes.get(end) != Some(&b':') {
        return 0;
    }
    let rest = end + 1;
    let mut stop = rest;
    while stop < bytes.len() && uri_char(bytes[stop]) {
        stop += 1;
    }
    if stop == rest { 0 } else { stop - at }
}

/// Past the `}` closing an interpolation whose `${` ends at `at`: its
/// strings and comments read as Nix's lexer reads them.
fn interpolation_end(bytes: &[u8], at: usize, line: &mut usize) -> Option<usize> {
    braced_end(bytes, at, line, |bytes, at, line| match bytes[at] {
        b'"' => Some(string_end(bytes, at + 1, line)),
        b'\'' if bytes.get(at + 1) == Some(&b'\'') => Some(indented_end(bytes, at + 2, line)),
        b'#' => Some(Some(
            memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n),
        )),
        b'/' if bytes.get(at + 1) == Some(&b'*') => {
            Some(memchr::memmem::find(&bytes[at + 2..], b"*/").map(|n| {
                let end = at + 2 + n;
                *line += memchr::memchr_iter(b'\n', &bytes[at..end]).count();
                end + 2
            }))
        }
        _ => None,
    })
}

/// Past the `"` closing the string whose text starts at `at`.
fn string_end(bytes: &[u8], mut at: usize, line: &mut usize) -> Option<usize> {
    while at < bytes.len() {
        match bytes[at] {
            b'"' => return Some(at + 1),
            b'\\' => {
                if bytes.get(at + 1) == Some(&b'\n') {
                    *line += 1;
                }
                at += 2;
            }
            b'$' if bytes.get(at + 1) == Some(&b'$') => at += 2,
            b'$' if bytes.get(at + 1) == Some(&b'{') => {
                at = interpolation_end(bytes, at + 2, line)?;
            }
            b'\n' => {
                *line += 1;
                at += 1;
            }
            _ => at += 1,
        }
    }
    None
}

/// Past the `''` closing the indented string whose text starts at `at`.
fn indented_end(bytes: &[u8], mut at: usize, line: &mut usize) -> Option<usize> {
    while at < bytes.len() {
        match bytes[at] {
            b'\'' if bytes.get(at + 1) == Some(&b'\'') => match bytes.get(at + 2) {
                // `'''`, `''$`, `''\x`: escapes.
                Some(b'\'') | Some(b'$') => at += 3,
                Some(b'\\') => {
                    if bytes.get(at + 3) == Some(&b'\n') {
                        *line += 1;
                    }
                    at += 4;
                }
                _ => return Some(at + 2),
            },
            b'$' if bytes.get(at + 1) == Some(&b'$') => at += 2,
            b'$' if bytes.get(at + 1) == Some(&b'{') => {
                at = interpolation_end(bytes, at + 2, line)?;
            }
            b'\n' => {
                *line += 1;
                at += 1;
            }
            _ => at += 1,
        }
    }
    None
}

/// `text`'s tokens; `None` where this reader does not follow the lexer.
fn tokens(text: &str) -> Option<Vec<Token<'_>>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut at, mut line) = (0, 1);
    while at < bytes.len() {
        let c = bytes[at];
        let start_line = line;
        match c {
            b'\n' => {
                line += 1;
                at += 1;
            }
            b' ' | b'\t' | b'\r' => at += 1,
            b'#' => at = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n),
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let end = memchr::memmem::find(&bytes[at + 2..], b"*/")? + at + 2;
                line += memchr::memchr_iter(b'\n', &bytes[at..end]).count();
                at = end + 2;
            }
            b'"' => {
                at = string_end(bytes, at + 1, &mut line)?;
                found.push((Tok::Str, start_line));
            }
            b'\'' if bytes.get(at + 1) == Some(&b'\'') => {
                at = indented_end(bytes, at + 2, &mut line)?;
                found.push((Tok::Atom, start_line));
            }
            b'<' if {
                let n = bytes[at + 1..]
                    .iter()
                    .take_while(|&&b| path_char(b) || b == b'/')
                    .count();
                n > 0 && bytes.get(at + 1 + n) == Some(&b'>') && path_char(bytes[at + 1])
            } =>
            {
                let n = bytes[at + 1..]
                    .iter()
                    .take_while(|&&b| path_char(b) || b == b'/')
                    .count();
                at += n + 2;
                found.push((Tok::Atom, start_line));
            }
            b'~' if bytes.get(at + 1) == Some(&b'/') && path_len(bytes, at + 1) > 0 => {
                at += 1 + path_len(bytes, at + 1);
                found.push((Tok::Atom, start_line));
            }
            c if path_char(c) || c == b'/' => {
                let word = if c.is_ascii_alphabetic() || c == b'_' {
                    bytes[at..]
                        .iter()
                        .take_while(|&&b| {
                            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'\'' | b'-')
                        })
                        .count()
                } else {
                    0
                };
                let digit_next = bytes.get(at + 1).is_some_and(u8::is_ascii_digit);
                let number = if c.is_ascii_digit() || (c == b'.' && digit_next) {
                    bytes[at..]
                        .iter()
                        .take_while(|&&b| b.is_ascii_digit() || b == b'.' || b == b'e' || b == b'E')
                        .count()
                } else {
                    0
                };
                let (path, uri) = (path_len(bytes, at), uri_len(bytes, at));
                let longest = word.max(number).max(path).max(uri);
                if longest == 0 {
                    // `.`, `-`, `+`, `/` alone: an operator.
                    let two = text.get(at..at + 2).unwrap_or("");
                    let three = text.get(at..at + 3).unwrap_or("");
                    let len = if three == "..." {
                        3
                    } else if ["//", "++", "->"].contains(&two) {
                        2
                    } else {
                        1
                    };
                    found.push((Tok::Punct(&text[at..at + len]), start_line));
                    at += len;
                    continue;
                }
                if longest == word && word > path && word >= uri {
                    found.push((Tok::Id(&text[at..at + word]), start_line));
                } else {
                    found.push((Tok::Atom, start_line));
                    if longest == path && bytes.get(at + path) == Some(&b'$') {
                        // A path going on with `${..}`: not followed.
                        return None;
                    }
                }
                at += longest;
            }
            _ => {
                let two = text.get(at..at + 2).unwrap_or("");
                let len = if [
                    "==", "!=", "<=", ">=", "&&", "||", "${", "|>", "<|", "->", "++", "//",
                ]
                .contains(&two)
                {
                    2
                } else if c.is_ascii_punctuation() {
                    1
                } else {
                    return None;
                };
                found.push((Tok::Punct(&text[at..at + len]), start_line));
                at += len;
            }
        }
    }
    Some(found)
}

/// Why the reader stopped.
enum Stop {
    /// What Nix stops at.
    Fault(Found),
    /// Anything this reader does not follow.
    Unread,
}

/// A fault found, by token indexes.
enum Found {
    /// No `;` after the token `last` (a value's end), before the token
    /// `next` (a binding's name, the set's `}`, the `let`'s `in`).
    Semicolon { last: usize, next: usize },
    /// The `let` token `let_at`'s body starts at the token `body`.
    LetWithoutIn { let_at: usize, body: usize },
}

/// Where a set of bindings ends.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Binds {
    /// An attribute set's `}`.
    Set,
    /// A `let`'s `in` (the `let` token's index).
    Let(usize),
}

/// A reader of one file's tokens, by Nix's grammar.
struct Reader<'t, 'a> {
    tokens: &'t [Token<'a>],
    at: usize,
}

impl<'a> Reader<'_, 'a> {
    fn peek(&self) -> Option<Tok<'a>> {
        self.tokens.get(self.at).map(|t| t.0)
    }

    /// Consumes the token `want`, else stops unread.
    fn expect(&mut self, want: &str) -> Result<(), Stop> {
        match self.peek() {
            Some(Tok::Punct(p)) if p == want => {
                self.at += 1;
                Ok(())
            }
            _ => Err(Stop::Unread),
        }
    }

    /// The index of the `}` matching the `{` at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (k, t) in self.tokens.iter().enumerate().skip(open) {
            match t.0 {
                Tok::Punct("{" | "${") => depth += 1,
                Tok::Punct("}") => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Reads an expression up to a token that ends it (`;`, `}`, `]`,
    /// `)`, `,`, `in`, the file's end), left unread. `value`: the
    /// expression is a binding's value, where a bare `=` is the next
    /// binding run into it.
    fn expr(&mut self, value: bool) -> Result<(), Stop> {
        let start = self.at;
        while let Some(token) = self.peek() {
            match token {
                Tok::Punct(";" | "}" | "]" | ")" | ",") | Tok::Id("in") => return Ok(()),
                Tok::Id("let") => {
                    let let_at = self.at;
                    self.at += 1;
                    if self.peek() == Some(Tok::Punct("{")) {
                        self.at += 1;
                        self.binds(Binds::Set)?;
                    } else {
                        self.binds(Binds::Let(let_at))?;
                    }
                }
                Tok::Id("with" | "assert") => {
                    self.at += 1;
                    self.expr(false)?;
                    self.expect(";")?;
                }
                Tok::Punct("{") => {
                    let close = self.matching(self.at).ok_or(Stop::Unread)?;
                    let formals = matches!(
                        self.tokens.get(close + 1).map(|t| t.0),
                        Some(Tok::Punct(":" | "@"))
                    );
                    if formals {
                        self.formals()?;
                        if self.at != close + 1 {
                            return Err(Stop::Unread);
                        }
                    } else {
                        self.at += 1;
                        self.binds(Binds::Set)?;
                    }
                }
                Tok::Punct(open @ ("[" | "(" | "${")) => {
                    self.at += 1;
                    self.expr(false)?;
                    self.expect(match open {
                        "[" => "]",
                        "(" => ")",
                        _ => "}",
                    })?;
                }
                Tok::Punct("=") if value => {
                    // The attribute path before `=` is the next binding's:
                    // names (`a`, `"a"`) joined by `.`.
                    let name = |k: usize| matches!(self.tokens[k].0, Tok::Id(_) | Tok::Str);
                    let mut first = self.at - 1;
                    if first <= start || !name(first) {
                        return Err(Stop::Unread);
                    }
                    while first >= start + 2
                        && self.tokens[first - 1].0 == Tok::Punct(".")
                        && name(first - 2)
                    {
                        first -= 2;
                    }
                    if first <= start {
                        return Err(Stop::Unread);
                    }
                    return Err(Stop::Fault(Found::Semicolon {
                        last: first - 1,
                        next: first,
                    }));
                }
                Tok::Punct("=") => return Err(Stop::Unread),
                // `inherit` is a keyword no expression holds: the next
                // binding's.
                Tok::Id("inherit") if value && self.at > start => {
                    return Err(Stop::Fault(Found::Semicolon {
                        last: self.at - 1,
                        next: self.at,
                    }));
                }
                _ => self.at += 1,
            }
        }
        Ok(())
    }

    /// Reads bindings up to their end (the set's `}`, the `let`'s `in`),
    /// consumed.
    fn binds(&mut self, kind: Binds) -> Result<(), Stop> {
        loop {
            let Some(token) = self.peek() else {
                return Err(Stop::Unread);
            };
            match (token, kind) {
                (Tok::Punct("}"), Binds::Set) | (Tok::Id("in"), Binds::Let(_)) => {
                    self.at += 1;
                    return Ok(());
                }
                (Tok::Id("inherit"), _) => {
                    self.at += 1;
                    if self.peek() == Some(Tok::Punct("(")) {
                        self.at += 1;
                        self.expr(false)?;
                        self.expect(")")?;
                    }
                    let names = self.at;
                    while matches!(self.peek(), Some(Tok::Id(_) | Tok::Str)) {
                        self.at += 1;
                    }
                    match self.peek() {
                        Some(Tok::Punct(";")) => self.at += 1,
                        Some(Tok::Punct("=")) if self.at >= names + 2 => {
                            return Err(Stop::Fault(Found::Semicolon {
                                last: self.at - 2,
                                next: self.at - 1,
                            }));
                        }
                        Some(Tok::Punct("}")) if kind == Binds::Set && self.at > names => {
                            return Err(self.missing_before_end());
                        }
                        Some(Tok::Id("in")) if kind != Binds::Set && self.at > names => {
                            return Err(self.missing_before_end());
                        }
                        _ => return Err(Stop::Unread),
                    }
                }
                (Tok::Id(_) | Tok::Str | Tok::Punct("${"), _) => {
                    let path = self.at;
                    self.attrpath()?;
                    if self.peek() != Some(Tok::Punct("=")) {
                        return match kind {
                            Binds::Let(let_at) => {
                                Err(Stop::Fault(Found::LetWithoutIn { let_at, body: path }))
                            }
                            Binds::Set => Err(Stop::Unread),
                        };
                    }
                    self.at += 1;
                    let value = self.at;
                    self.expr(true)?;
                    if self.at == value {
                        return Err(Stop::Unread);
                    }
                    match (self.peek(), kind) {
                        (Some(Tok::Punct(";")), _) => self.at += 1,
                        (Some(Tok::Punct("}")), Binds::Set)
                        | (Some(Tok::Id("in")), Binds::Let(_)) => {
                            return Err(self.missing_before_end());
                        }
                        _ => return Err(Stop::Unread),
                    }
                }
                (_, Binds::Let(let_at)) => {
                    return Err(Stop::Fault(Found::LetWithoutIn {
                        let_at,
                        body: self.at,
                    }));
                }
                _ => return Err(Stop::Unread),
            }
        }
    }

    /// Reads a function's formals (`{ a, b ? 1, ... }`) through their
    /// `}`: a default value is read as any expression.
    fn formals(&mut self) -> Result<(), Stop> {
        self.expect("{")?;
        loop {
            match self.peek() {
                Some(Tok::Punct("}")) => {
                    self.at += 1;
                    return Ok(());
                }
                Some(Tok::Punct("...")) => self.at += 1,
                Some(Tok::Id(_)) => {
                    self.at += 1;
                    if self.peek() == Some(Tok::Punct("?")) {
                        self.at += 1;
                        self.expr(false)?;
                    }
                }
                _ => return Err(Stop::Unread),
            }
            match self.peek() {
                Some(Tok::Punct(",")) => self.at += 1,
                Some(Tok::Punct("}")) => {}
                _ => return Err(Stop::Unread),
            }
        }
    }

    /// No `;` before the token at hand (a `}` or an `in`).
    fn missing_before_end(&self) -> Stop {
        Stop::Fault(Found::Semicolon {
            last: self.at - 1,
            next: self.at,
        })
    }

    /// Reads an attribute path (`a.b."c".${d}`).
    fn attrpath(&mut self) -> Result<(), Stop> {
        loop {
            match self.peek() {
                Some(Tok::Id(_) | Tok::Str) => self.at += 1,
                Some(Tok::Punct("${")) => {
                    self.at += 1;
                    self.expr(false)?;
                    self.expect("}")?;
                }
                _ => return Err(Stop::Unread),
            }
            if self.peek() == Some(Tok::Punct(".")) {
                self.at += 1;
            } else {
                return Ok(());
            }
        }
    }
}

/// What stops Nix in `text`, by token indexes, with the tokens:
/// `Ok(None)` when it reads, `Err(())` when this reader does not follow.
fn read(text: &str) -> Result<(Vec<Token<'_>>, Option<Found>), ()> {
    let tokens = tokens(text).ok_or(())?;
    let mut reader = Reader {
        tokens: &tokens,
        at: 0,
    };
    let found = match reader.expr(false) {
        Ok(()) if reader.at == tokens.len() => None,
        Ok(()) | Err(Stop::Unread) => return Err(()),
        Err(Stop::Fault(found)) => Some(found),
    };
    Ok((tokens, found))
}

/// The fault `result` (the Nix file `path` as an edit leaves it) has
/// where `original` read, at a line the edit writes (see the module).
pub(super) fn nix_broken(path: &str, original: &str, result: &str) -> Option<NixFault> {
    if !nix_name(path) || original == result || original.trim().is_empty() {
        return None;
    }
    if !matches!(read(original), Ok((_, None))) {
        return None;
    }
    let (tokens, found) = read(result).ok()?;
    let found = found?;
    let (first, last) = match found {
        Found::Semicolon { last, next } => (tokens[last].1, tokens[next].1),
        Found::LetWithoutIn { let_at, body } => (tokens[let_at].1, tokens[body].1),
    };
    // The lines the edit writes (0-based, end excluded), or the line
    // after the lines it removes.
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let (lo, hi) = (prefix, (new.len() - suffix).max(prefix + 1));
    if !(lo < last && first - 1 < hi) {
        return None;
    }
    let text = |line: usize| new.get(line - 1).map_or("", |l| l.trim()).to_string();
    Some(match found {
        Found::Semicolon { next, .. } => {
            let (gap, effect) = match tokens[next].0 {
                Tok::Punct("}") => (
                    format!("before the `}}` closing its attribute set at line {last}"),
                    "Nix refuses the file (`error: syntax error, unexpected '}', expecting ';'`)"
                        .to_string(),
                ),
                Tok::Id("in") => (
                    format!("before the `in` of its `let` at line {last}"),
                    "Nix refuses the file (a syntax error at `in`, expecting `;`)".to_string(),
                ),
                Tok::Id("inherit") => (
                    format!(
                        "before line {last} (`{}`), which starts another binding",
                        text(last)
                    ),
                    "Nix refuses the file (a syntax error at `inherit`, expecting `;`)".to_string(),
                ),
                _ => (
                    format!(
                        "before line {last} (`{}`), which starts another binding",
                        text(last)
                    ),
                    "Nix reads the next binding's name as an argument of the value above it and \
                     refuses the file (`error: syntax error, unexpected '=', expecting ';'`)"
                        .to_string(),
                ),
            };
            NixFault::Semicolon(SeparatorDropped {
                line: (first, text(first)),
                separator: ';',
                gap,
                effect,
                send: format!("end line {first} with `;`"),
            })
        }
        Found::LetWithoutIn { body, .. } => NixFault::LetWithoutIn(LetWithoutIn {
            let_line: first,
            body: (last, text(last)),
            token: match tokens[body].0 {
                Tok::Id(name) => name.to_string(),
                Tok::Punct(p) => p.to_string(),
                Tok::Str => "\"".to_string(),
                Tok::Atom => text(last).chars().take(20).collect(),
            },
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::{NixFault, nix_broken, read};

    const DRV: &str = "{ lib, stdenv, fetchurl, ... }:\n\nlet\n  # the version\n  \
                       version = \"1.2\";\n  urls = [ \"https://a.org/${version}.tar.gz\" ];\nin\n\
                       stdenv.mkDerivation rec {\n  pname = \"hello\";\n  inherit version;\n  \
                       src = fetchurl {\n    url = builtins.head urls;\n    \
                       sha256 = \"0000\";\n  };\n  buildInputs = with lib; [ a b ];\n  \
                       postInstall = ''\n    echo ''${out} > $out/x; a = b\n  '';\n  \
                       passthru = { f = x: x; g = { a ? 1 }: a; };\n  \
                       meta.homepage = https://example.org/x;\n  \
                       patches = [ ./a/b.patch <nixpkgs/x> ];\n}\n";

    fn judged(old: &str, new: &str) -> Option<NixFault> {
        assert!(DRV.contains(old), "{old:?}");
        nix_broken("pkgs/hello/default.nix", DRV, &DRV.replacen(old, new, 1))
    }

    #[test]
    fn the_fixture_reads_clean() {
        assert!(matches!(read(DRV), Ok((_, None))));
    }

    /// The tester's find (round 49 T-14): `version = "1.2"` with its `;`
    /// dropped above another binding.
    #[test]
    fn a_binding_without_its_semicolon_is_doubted() {
        let said = judged("version = \"1.2\";", "version = \"1.3\"").map(|f| f.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "line 5 (`version = \"1.3\"`) has no `;` before line 6 (`urls = [ \
                 \"https://a.org/${version}.tar.gz\" ];`), which starts another binding: Nix \
                 reads the next binding's name as an argument of the value above it and refuses \
                 the file (`error: syntax error, unexpected '=', expecting ';'`): end line 5 \
                 with `;`"
            )
        );
        let before_close = judged("    sha256 = \"0000\";", "    sha256 = \"1111\"");
        assert_eq!(
            before_close.map(|f| f.fault()).as_deref(),
            Some(
                "line 13 (`sha256 = \"1111\"`) has no `;` before the `}` closing its attribute \
                 set at line 14: Nix refuses the file (`error: syntax error, unexpected '}', \
                 expecting ';'`)"
            )
        );
        let before_in = judged("${version}.tar.gz\" ];", "${version}.tar.gz\" ]");
        assert!(
            before_in
                .map(|f| f.fault())
                .is_some_and(|f| f.contains("before the `in` of its `let` at line 7")),
        );
        // A multi-line value: the `;` belongs on its last line.
        let list = judged("[ a b ];", "[\n    a\n    b\n  ]");
        assert!(list.is_some_and(|f| f.fault().starts_with("line 18 (`]`) has no `;`")));
        // An attribute path and an `inherit` run on too.
        assert!(judged("  inherit version;", "  inherit version").is_some());
        assert!(judged("  pname = \"hello\";", "  pname = \"hello\"").is_some());
    }

    #[test]
    fn a_let_without_its_in_is_doubted() {
        let said = judged("in\nstdenv", "stdenv").map(|f| f.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "as written, the `let` at line 3 has no `in` before its body at line 7 \
                 (`stdenv.mkDerivation rec {`): Nix reads the body as one more binding and \
                 refuses the file (a syntax error at `stdenv`, expecting `=`): send the `in` \
                 before line 7"
            )
        );
    }

    #[test]
    fn harmless_edits_are_not_doubted() {
        for (old, new) in [
            ("version = \"1.2\";", "version = \"1.3\";"),
            ("# the version", "# the version = 1"),
            (
                "  pname = \"hello\";",
                "  pname = \"hello\";\n  doCheck = true;",
            ),
            ("echo ''${out}", "echo ''${out} x = 1"),
            ("with lib; [ a b ]", "with lib; [\n    a\n    b\n  ]"),
            ("f = x: x;", "f = x: x + 1;"),
            ("  passthru", "\n  passthru"),
            // Formals, `assert`, a `let` inside a value.
            (
                "g = { a ? 1 }: a;",
                "g = { a ? 1, b }: assert a > 0; let c = a; in c;",
            ),
            ("sha256 = \"0000\";", "sha256 = \"0000\"; # x = 1"),
        ] {
            assert_eq!(judged(old, new), None, "{new}");
        }
        // A file that did not read before, another language's name.
        let broken = DRV.replacen("version = \"1.2\";", "version = \"1.2\"", 1);
        assert_eq!(
            nix_broken("a.nix", &broken, &broken.replacen("hello", "hi", 1)),
            None
        );
        assert_eq!(
            nix_broken("a.txt", DRV, &DRV.replacen("\"1.2\";", "\"1.2\"", 1)),
            None
        );
    }

    /// A formal's default value is read like any expression: a set in it
    /// holds bindings too (nixpkgs' `grammarsOverlay ? (final: prev: {..})`).
    #[test]
    fn bindings_in_a_formal_default_are_read() {
        let file = "{\n  lib,\n  overlay ? (\n    final: prev: {\n      a = prev.a.override {\n        \
                    check = false;\n      };\n    }\n  ),\n  ...\n}:\nlib.id overlay\n";
        assert!(matches!(read(file), Ok((_, None))));
        let result = file.replacen("check = false;", "check = true", 1);
        assert!(nix_broken("package.nix", file, &result).is_some());
        let renamed = file.replacen("check = false;", "doCheck = false;", 1);
        assert_eq!(nix_broken("package.nix", file, &renamed), None);
    }

    /// A plain attribute set: a value changed in place is fine, a `;`
    /// dropped is said.
    #[test]
    fn a_plain_set_is_read_too() {
        let set = "{\n  a = 1;\n  b.c = 2;\n  \"d\" = 3;\n}\n";
        assert_eq!(nix_broken("a.nix", set, &set.replacen("1;", "2;", 1)), None);
        for (old, new) in [("1;", "1"), ("2;", "2"), ("3;", "3")] {
            let result = set.replacen(old, new, 1);
            assert!(nix_broken("a.nix", set, &result).is_some(), "{result}");
        }
    }
}
