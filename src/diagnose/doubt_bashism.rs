//! *Pure.* A bash-only construct an edit adds to a script whose `#!` line
//! names `sh` or `dash` (a tester's find, round 49 T-12: `#!/bin/sh`
//! scripts were judged as bash). On Debian and Ubuntu `/bin/sh` is dash,
//! which refuses some of them when it parses the script (it then runs
//! none of it) and misruns the others when their line runs. Checked with
//! dash 0.5.12 (`dash -n` for the parse-time ones):
//! - refused at parse (`Syntax error`): an array `a=(1 2)`, `function f`,
//!   a here-string `<<<`, `for ((..))`, `select`;
//! - refused or misrun at run time: `[[ .. ]]` (`[[: not found`),
//!   `source` and `let` (`not found`), `==` in `[ .. ]` or `test`
//!   (`unexpected operator`), `${x//a/b}`, `${x:1:2}`, `${!x}`, `${x^^}`,
//!   `${a[0]}` (`Bad substitution`, the script stops), `((i++))` (read as
//!   two subshells running `i++`: `not found`), `$'..'` (a `$` and a
//!   plain quoted text), `{a,b}` (kept as one word), `cmd &> f` (`cmd`
//!   run in the background, `f` emptied).
//!
//! The rule, by evidence only:
//! - the script's `#!` line, before and after the edit, names `sh` or
//!   `dash` (`#!/bin/sh`, `#!/usr/bin/env sh`, `#!/bin/dash`);
//! - the script before holds none of these constructs (one that does is
//!   run by bash some other way, or was already broken: not judged);
//! - the construct stands on a line the edit changed or added, in code:
//!   not in a comment, a quoted text (but `${..}` in `".."`), nor a
//!   heredoc's text;
//! - the script is read as a whole, its quotes, `$(..)`, `${..}`,
//!   backquotes, comments and heredocs; anything the reader is unsure of
//!   (a quote or a heredoc open at the end) gives no verdict.

use super::doubt_shell::{heredoc_line, is_name, separator};

/// A bash-only construct.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bashism {
    /// `[[ .. ]]`.
    DoubleBracket,
    /// `function f`, with `()` after the name or not.
    Function {
        /// `()` follows the name.
        parens: bool,
        /// Its `{` stands on the same line.
        brace: bool,
    },
    /// `a=(1 2)`.
    Array,
    /// `<<<`.
    HereString,
    /// `for ((..))`.
    ForArith,
    /// `select x in ..`.
    Select,
    /// `$'..'`.
    AnsiQuote,
    /// `==` in `[ .. ]` or `test`.
    DoubleEquals,
    /// `source FILE`.
    Source,
    /// `let ..`.
    Let,
    /// `${x//a/b}`, `${x:1:2}`, `${!x}`, `${x^^}`, `${a[0]}`.
    Substitution,
    /// `((..))` as a command.
    Arith,
    /// `{a,b}` or `{1..3}`.
    Braces,
    /// `&>` or `&>>`.
    AmpRedirect,
}

impl Bashism {
    /// Whether dash refuses it when it parses the script.
    pub fn at_parse(self) -> bool {
        matches!(
            self,
            Bashism::Function { parens: true, .. }
                | Bashism::Function { brace: true, .. }
                | Bashism::Array
                | Bashism::HereString
                | Bashism::ForArith
                | Bashism::Select
        )
    }

    /// What dash does with it.
    fn dash_does(self) -> &'static str {
        match self {
            Bashism::DoubleBracket => {
                "dash has no `[[`: the line fails with `[[: not found` (an `if [[ .. ]]` takes \
                 its `else`)"
            }
            Bashism::Function { parens: true, .. } => {
                "dash refuses the script before running any of it: `Syntax error: \"(\" \
                 unexpected`"
            }
            Bashism::Function { brace: true, .. } => {
                "dash refuses the script before running any of it: `Syntax error: \"}\" \
                 unexpected`"
            }
            Bashism::Function { .. } => {
                "dash runs `function` as a command (`function: not found`), then the body \
                 below it at once, as a `{ .. }` group"
            }
            Bashism::Array => {
                "dash has no arrays and refuses the script before running any of it: `Syntax \
                 error: \"(\" unexpected`"
            }
            Bashism::HereString => {
                "dash refuses the script before running any of it: `Syntax error: redirection \
                 unexpected`"
            }
            Bashism::ForArith => {
                "dash refuses the script before running any of it: `Syntax error: Bad for loop \
                 variable`"
            }
            Bashism::Select => {
                "dash refuses the script before running any of it: `Syntax error: \"do\" \
                 unexpected`"
            }
            Bashism::AnsiQuote => {
                "dash reads it as a `$` followed by a quoted text, its escapes kept as written"
            }
            Bashism::DoubleEquals => "dash's `[` fails with `unexpected operator`",
            Bashism::Source => "dash has no `source`: `source: not found`",
            Bashism::Let => "dash has no `let`: `let: not found`",
            Bashism::Substitution => "dash stops the script there with `Bad substitution`",
            Bashism::Arith => {
                "dash reads `((` as two subshells and runs the expression as a command: `not \
                 found`"
            }
            Bashism::Braces => "dash does no brace expansion: the word stays as written",
            Bashism::AmpRedirect => {
                "dash reads `cmd &> f` as `cmd &` (run in the background, its output not \
                 redirected) then `> f` (the file emptied)"
            }
        }
    }

    /// The POSIX way to write it.
    fn posix(self) -> &'static str {
        match self {
            Bashism::DoubleBracket => "`[ .. ]` (quote its variables)",
            Bashism::Function { .. } => "`f() { .. }`",
            Bashism::Array => "`set -- 1 2` or separate variables",
            Bashism::HereString => "`printf '%s\\n' \"$x\" | cmd`",
            Bashism::ForArith => "`i=0; while [ \"$i\" -lt N ]; do ..; i=$((i+1)); done`",
            Bashism::Select => "a `read` loop",
            Bashism::AnsiQuote => "`\"$(printf '..')\"`",
            Bashism::DoubleEquals => "`=`",
            Bashism::Source => "`. FILE`",
            Bashism::Let | Bashism::Arith => "`i=$((i+1))`",
            Bashism::Substitution => "`sed`, `cut` or `${x%..}`/`${x#..}`",
            Bashism::Braces => "each word written out",
            Bashism::AmpRedirect => "`> f 2>&1`",
        }
    }
}

/// A bash-only construct an edit adds to a sh script, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShBashism {
    /// What it is.
    pub bashism: Bashism,
    /// As written (`[[`, `${x//a/b}`).
    pub written: String,
    /// The result's line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// The interpreter the `#!` line names (`sh`, `dash`).
    pub shell: String,
}

impl ShBashism {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: write it the POSIX way ({}), or send a `#!/bin/bash` first line if the script \
             needs bash",
            self.fault(),
            self.bashism.posix()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        let when = if self.bashism.at_parse() {
            "`dash -n` refuses it"
        } else {
            "`dash -n` accepts it, the fault comes when the line runs"
        };
        format!(
            "line {line} (`{text}`) writes `{written}`, which only bash reads, in a script \
             whose `#!` line runs `{shell}` (dash on Debian and Ubuntu): {does} ({when})",
            written = self.written,
            shell = self.shell,
            does = self.bashism.dash_does(),
        )
    }
}

/// The first bash-only construct `result` (the script `path` as an edit
/// leaves it) holds on a line the edit changed, where `original` held
/// none (see the module's rule).
pub(super) fn sh_bashism(path: &str, original: &str, result: &str) -> Option<ShBashism> {
    let _ = path;
    if original == result {
        return None;
    }
    let shell = sh_shell(result)?;
    if !original.is_empty() && sh_shell(original).is_none() {
        return None;
    }
    if !bashisms(original)?.is_empty() {
        return None;
    }
    let found = bashisms(result)?;
    let (_, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let last = new.len() - suffix;
    let starts = line_starts(result);
    found.into_iter().find_map(|(bashism, at, end)| {
        let line = starts.partition_point(|&s| s <= at);
        if line <= prefix || line > last {
            return None;
        }
        let text = new.get(line - 1).map_or("", |l| l.trim());
        Some(ShBashism {
            bashism,
            written: String::from_utf8_lossy(&result.as_bytes()[at..end]).into_owned(),
            line: (line, text.to_string()),
            shell: shell.to_string(),
        })
    })
}

/// The shell `text`'s `#!` line names, when it is a POSIX sh.
fn sh_shell(text: &str) -> Option<&str> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    super::file_kind::interpreter(text).filter(|s| matches!(*s, "sh" | "dash"))
}

/// The byte offsets lines of `text` start at.
pub(super) fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

/// The bash-only constructs of `text`, each with its byte range, in
/// reading order; `None` when the reader is unsure of the text.
pub fn bashisms(text: &str) -> Option<Vec<(Bashism, usize, usize)>> {
    let lexer = read(text)?;
    Some(lexer.found)
}

/// A heredoc's body as a script's reader skips it: byte offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Body {
    /// Where its `<<` stands.
    pub opener: usize,
    /// Where its first line starts.
    pub first: usize,
    /// Where its delimiter's line starts; `None`: no line ends it (it runs
    /// to the file's end).
    pub end: Option<usize>,
    /// The delimiter, its quotes taken off.
    pub delimiter: String,
}

/// The heredoc bodies of the script `text`, in reading order; `None`
/// when the reader is unsure of the text.
pub fn heredoc_bodies(text: &str) -> Option<Vec<Body>> {
    Some(read(text)?.bodies)
}

/// The plain words of the script `text` that stand where a command's name
/// does (not reserved words, assignments, quoted words), each with the
/// byte it starts at, in reading order (a function's definition `f()`
/// among them); `None` when the reader is unsure of the text.
pub fn command_names(text: &str) -> Option<Vec<(String, usize)>> {
    let lexer = read(text)?;
    let s = text.as_bytes();
    Some(
        lexer
            .names
            .iter()
            .map(|&(a, b)| (String::from_utf8_lossy(&s[a..b]).into_owned(), a))
            .collect(),
    )
}

/// `text` read whole; `None` when the reader is unsure of it.
fn read(text: &str) -> Option<Lexer<'_>> {
    let mut lexer = Lexer {
        s: text.as_bytes(),
        i: 0,
        found: Vec::new(),
        heredocs: Vec::new(),
        bodies: Vec::new(),
        names: Vec::new(),
    };
    lexer.code(false).ok()?;
    if !lexer.heredocs.is_empty() {
        return None;
    }
    Some(lexer)
}

/// The reader gave up: no verdict.
struct Unsure;

struct Lexer<'a> {
    s: &'a [u8],
    i: usize,
    found: Vec<(Bashism, usize, usize)>,
    /// Heredocs whose bodies start at the next line: delimiter, `<<-`,
    /// where the `<<` stands.
    heredocs: Vec<(Vec<u8>, bool, usize)>,
    /// The heredoc bodies read.
    bodies: Vec<Body>,
    /// The plain command names read: byte ranges ([`command_names`]).
    names: Vec<(usize, usize)>,
}

/// Words after which a command starts again.
const LEADS: [&[u8]; 10] = [
    b"if", b"then", b"else", b"elif", b"do", b"while", b"until", b"!", b"{", b"time",
];

/// Commands whose arguments may be assignments (`local a=(1 2)`).
const DECLARES: [&[u8]; 5] = [b"local", b"declare", b"export", b"readonly", b"typeset"];

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.i + ahead).copied()
    }

    fn note(&mut self, bashism: Bashism, start: usize, end: usize) {
        self.found.push((bashism, start, end.min(self.s.len())));
    }

    /// Commands up to the file's end, or (`nested`) a `)` closing a
    /// `$(`.
    fn code(&mut self, nested: bool) -> Result<(), Unsure> {
        let mut command_start = true;
        let mut command: Option<Vec<u8>> = None;
        let mut depth = 0usize;
        let mut cases = 0usize;
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' => self.i += 1,
                b'\\' if self.peek(1) == Some(b'\n') => self.i += 2,
                b'\n' => {
                    self.i += 1;
                    self.bodies();
                    command_start = true;
                    command = None;
                }
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b';' | b'|' => {
                    self.i += 1;
                    command_start = true;
                    command = None;
                }
                b'&' => {
                    if self.peek(1) == Some(b'>') {
                        let end = self.i + if self.peek(2) == Some(b'>') { 3 } else { 2 };
                        self.note(Bashism::AmpRedirect, self.i, end);
                        self.i = end;
                    } else {
                        self.i += 1;
                        command_start = true;
                        command = None;
                    }
                }
                b'(' => {
                    if command_start && self.peek(1) == Some(b'(') {
                        if let Some(end) = arithmetic_command(&self.s[self.i..]) {
                            self.note(Bashism::Arith, self.i, self.i + end);
                        }
                    } else if command.as_deref() == Some(b"for") && self.peek(1) == Some(b'(') {
                        self.note(Bashism::ForArith, self.i, self.i + 2);
                    }
                    depth += 1;
                    self.i += 1;
                    command_start = true;
                    command = None;
                }
                b')' => {
                    if depth == 0 && cases == 0 && nested {
                        return Ok(());
                    }
                    depth = depth.saturating_sub(1);
                    self.i += 1;
                }
                b'<' | b'>' => self.redirect(),
                _ => {
                    let start = self.i;
                    let plain = self.word()?;
                    let word = &self.s[start..self.i];
                    if !command_start {
                        let test = matches!(command.as_deref(), Some(b"[" | b"test"));
                        if test && plain && word == b"==" {
                            self.note(Bashism::DoubleEquals, start, self.i);
                        }
                        let declares = command.as_deref().is_some_and(|c| DECLARES.contains(&c));
                        if declares && assignment(word) && self.peek(0) == Some(b'(') {
                            self.note(Bashism::Array, start, self.i + 1);
                        }
                        if plain && word == b"esac" {
                            cases = cases.saturating_sub(1);
                        }
                        continue;
                    }
                    if assignment(word) {
                        if self.peek(0) == Some(b'(') {
                            self.note(Bashism::Array, start, self.i + 1);
                        }
                        continue;
                    }
                    if !plain {
                        command_start = false;
                        command = Some(word.to_vec());
                        continue;
                    }
                    match word {
                        b"[[" => self.note(Bashism::DoubleBracket, start, self.i),
                        b"function" => {
                            let rest = self.s[self.i..].iter().take_while(|&&c| c != b'\n');
                            let parens = rest.clone().any(|&c| c == b'(');
                            let brace = rest.clone().any(|&c| c == b'{');
                            self.note(Bashism::Function { parens, brace }, start, self.i);
                        }
                        b"source" => self.note(Bashism::Source, start, self.i),
                        b"let" => self.note(Bashism::Let, start, self.i),
                        b"select" => self.note(Bashism::Select, start, self.i),
                        b"case" => cases += 1,
                        b"esac" => cases = cases.saturating_sub(1),
                        _ => {}
                    }
                    if LEADS.contains(&word) {
                        continue;
                    }
                    self.names.push((start, self.i));
                    command_start = false;
                    command = Some(word.to_vec());
                }
            }
        }
        if nested {
            return Err(Unsure);
        }
        Ok(())
    }

    /// At a line's start: the heredoc bodies the line above opened are
    /// skipped (to the file's end, where no line ends one).
    fn bodies(&mut self) {
        for (delim, strip, opener) in std::mem::take(&mut self.heredocs) {
            let first = self.i;
            let mut closed = None;
            while self.i < self.s.len() {
                let (end, done) = heredoc_line(self.s, self.i, strip, &delim);
                let at = self.i;
                self.i = (end + 1).min(self.s.len());
                if done {
                    closed = Some(at);
                    break;
                }
            }
            self.bodies.push(Body {
                opener,
                first,
                end: closed,
                delimiter: String::from_utf8_lossy(&delim).into_owned(),
            });
            if self.i >= self.s.len() && !self.s.ends_with(b"\n") {
                // Read to the end: nothing more to skip.
                break;
            }
        }
    }

    /// A redirection operator: a heredoc's delimiter noted, a `<<<`
    /// said.
    fn redirect(&mut self) {
        if self.peek(0) == Some(b'<') && self.peek(1) == Some(b'<') {
            if self.peek(2) == Some(b'<') {
                self.note(Bashism::HereString, self.i, self.i + 3);
                self.i += 3;
                return;
            }
            let opener = self.i;
            self.i += 2;
            let strip = self.peek(0) == Some(b'-');
            if strip {
                self.i += 1;
            }
            while matches!(self.peek(0), Some(b' ' | b'\t')) {
                self.i += 1;
            }
            let start = self.i;
            while self.peek(0).is_some_and(|c| !separator(c)) {
                self.i += 1;
            }
            let delim = self.s[start..self.i]
                .iter()
                .copied()
                .filter(|&c| !matches!(c, b'\'' | b'"' | b'\\'))
                .collect();
            self.heredocs.push((delim, strip, opener));
            return;
        }
        self.i += 1;
        while matches!(self.peek(0), Some(b'<' | b'>' | b'&' | b'|')) {
            self.i += 1;
        }
    }

    /// One word, its quotes and substitutions read through; whether it
    /// is plain (no quote, escape or substitution).
    fn word(&mut self) -> Result<bool, Unsure> {
        let mut plain = true;
        // An unquoted `{` of the word, and whether a `,` or `..` followed
        // it.
        let mut brace: Option<(usize, bool)> = None;
        while let Some(c) = self.peek(0) {
            match c {
                _ if separator(c) => break,
                b'\\' => {
                    plain = false;
                    self.i += 2;
                }
                b'\'' => {
                    plain = false;
                    self.single()?;
                }
                b'"' => {
                    plain = false;
                    self.double()?;
                }
                b'`' => {
                    plain = false;
                    self.backquote()?;
                }
                b'$' => {
                    plain = false;
                    if self.peek(1) == Some(b'\'') {
                        self.note(Bashism::AnsiQuote, self.i, self.i + 2);
                        self.i += 1;
                        self.single()?;
                    } else {
                        self.dollar()?;
                    }
                }
                b'{' => {
                    brace.get_or_insert((self.i, false));
                    self.i += 1;
                }
                b',' => {
                    if let Some((_, sep)) = brace.as_mut() {
                        *sep = true;
                    }
                    self.i += 1;
                }
                b'.' if self.peek(1) == Some(b'.') => {
                    if let Some((_, sep)) = brace.as_mut() {
                        *sep = true;
                    }
                    self.i += 2;
                }
                b'}' => {
                    if let Some((open, true)) = brace {
                        self.note(Bashism::Braces, open, self.i + 1);
                    }
                    brace = None;
                    self.i += 1;
                }
                _ => self.i += 1,
            }
        }
        self.i = self.i.min(self.s.len());
        Ok(plain)
    }

    /// At a `'`: to its closing `'`.
    fn single(&mut self) -> Result<(), Unsure> {
        let close = self.s[self.i + 1..]
            .iter()
            .position(|&c| c == b'\'')
            .ok_or(Unsure)?;
        self.i += close + 2;
        Ok(())
    }

    /// At a `"`: to its closing `"`, `${..}` and `$(..)` read.
    fn double(&mut self) -> Result<(), Unsure> {
        self.i += 1;
        self.through(b'"', b"`$")
    }

    /// At a backquote: to its closing one.
    fn backquote(&mut self) -> Result<(), Unsure> {
        self.i += 1;
        self.through(b'`', b"")
    }

    /// Past the `close` that ends what the reader is in (its opening read
    /// already), a `\` escaping the next byte and each quote or `$` of
    /// `nested` read through as its own.
    fn through(&mut self, close: u8, nested: &[u8]) -> Result<(), Unsure> {
        while let Some(c) = self.peek(0) {
            match c {
                _ if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                b'\\' => self.i += 2,
                _ if !nested.contains(&c) => self.i += 1,
                b'\'' => self.single()?,
                b'"' => self.double()?,
                b'`' => self.backquote()?,
                b'$' => self.dollar()?,
                _ => self.i += 1,
            }
        }
        Err(Unsure)
    }

    /// At a `$`: a `$((..))`, `$(..)` or `${..}` read through.
    fn dollar(&mut self) -> Result<(), Unsure> {
        match (self.peek(1), self.peek(2)) {
            (Some(b'('), Some(b'(')) => {
                self.i += 3;
                let mut depth = 2usize;
                while let Some(c) = self.peek(0) {
                    self.i += 1;
                    match c {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                }
                Err(Unsure)
            }
            (Some(b'('), _) => {
                self.i += 2;
                let heredocs = std::mem::take(&mut self.heredocs);
                self.code(true)?;
                self.heredocs.splice(0..0, heredocs);
                self.i += 1;
                Ok(())
            }
            (Some(b'{'), _) => {
                let start = self.i;
                self.i += 2;
                if parameter_bashism(&self.s[self.i..]) {
                    let end = self.s[self.i..]
                        .iter()
                        .position(|&c| c == b'}')
                        .map_or(self.s.len(), |n| self.i + n + 1);
                    self.note(Bashism::Substitution, start, end);
                }
                self.through(b'}', b"'\"`$")
            }
            _ => {
                self.i += 1;
                Ok(())
            }
        }
    }
}

/// Whether a `${` followed by `rest` is a bash-only expansion:
/// `${!name}`, `${name/..}`, `${name:N..}` (not `:-`, `:=`, `:?`, `:+`),
/// `${name^..}`, `${name,..}`, `${name[..]}`.
fn parameter_bashism(rest: &[u8]) -> bool {
    if let [b'!', c, ..] = rest {
        return c.is_ascii_alphabetic() || *c == b'_';
    }
    let name = rest
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
        .count();
    let starts_name = rest
        .first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
    if !starts_name {
        return false;
    }
    match &rest[name..] {
        [b'/' | b'^' | b',' | b'[', ..] => true,
        [b':', next, ..] => !matches!(next, b'-' | b'=' | b'?' | b'+'),
        _ => false,
    }
}

/// Where a `((` command at the start of `rest` is bash's arithmetic, its
/// length: its `))` on the same line, and only names, numbers, blanks and
/// operators between (not `((cmd; cmd) | cmd)`, nested subshells, which
/// dash and bash both read so).
fn arithmetic_command(rest: &[u8]) -> Option<usize> {
    let inner = &rest[2..];
    let close = inner.windows(2).position(|w| w == b"))")?;
    let body = &inner[..close];
    let arithmetic = body
        .iter()
        .all(|&c| c.is_ascii_alphanumeric() || b"_ \t+-*/%<>=!&|?:$,^~".contains(&c));
    (arithmetic && !body.trim_ascii().is_empty()).then_some(close + 4)
}

/// Whether `word` is an assignment's start, `NAME=` or `NAME+=`, with
/// nothing after the `=`.
fn assignment(word: &[u8]) -> bool {
    let Some(name) = word.strip_suffix(b"=") else {
        return false;
    };
    let name = name.strip_suffix(b"+").unwrap_or(name);
    is_name(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Bashism> {
        bashisms(text)
            .expect("read")
            .into_iter()
            .map(|(b, _, _)| b)
            .collect()
    }

    #[test]
    fn each_construct_is_found_in_code_only() {
        let cases: [(&str, Bashism); 16] = [
            ("if [[ -n \"$x\" ]]; then :; fi\n", Bashism::DoubleBracket),
            (
                "function f {\n  :\n}\n",
                Bashism::Function {
                    parens: false,
                    brace: true,
                },
            ),
            (
                "function f\n{\n  :\n}\n",
                Bashism::Function {
                    parens: false,
                    brace: false,
                },
            ),
            ("a=(1 2)\n", Bashism::Array),
            ("local a=(1 2)\n", Bashism::Array),
            ("cat <<< \"$x\"\n", Bashism::HereString),
            ("for ((i=0;i<3;i++)); do :; done\n", Bashism::ForArith),
            ("echo $'a\\tb'\n", Bashism::AnsiQuote),
            ("[ \"$x\" == y ] && echo y\n", Bashism::DoubleEquals),
            ("source ./lib.sh\n", Bashism::Source),
            ("echo \"${x//a/b}\"\n", Bashism::Substitution),
            ("echo ${x:1:2}\n", Bashism::Substitution),
            ("((i++))\n", Bashism::Arith),
            ("mkdir -p dir/{a,b}\n", Bashism::Braces),
            ("echo hi &> /dev/null\n", Bashism::AmpRedirect),
            ("select x in a b; do break; done\n", Bashism::Select),
        ];
        for (text, want) in cases {
            assert_eq!(kinds(text), vec![want], "{text:?}");
        }
        let posix = "#!/bin/sh\n# [[ a ]] function f {\necho '[[ x ]]' \"a=(1)\" ${x:-d} ${x%.*} ${#x}\n\
                     cat <<EOF\n[[ here ]] a=(1)\nEOF\nfind . -exec rm {} +\nx=$((1 + (2)))\n\
                     y=$(case a in a) echo;; esac)\n( (cd a) )\n((cd a; make) | tee log)\n[ a = b ] && echo 2>&1 >/dev/null\n\
                     echo ${x:=1} a,b {} {a}\n";
        assert_eq!(kinds(posix), vec![]);
    }

    #[test]
    fn only_what_the_edit_adds_to_a_sh_script_is_said() {
        let original = "#!/bin/sh\nset -e\nif [ -n \"$1\" ]; then\n  echo yes\nfi\n";
        let result = original.replace("[ -n \"$1\" ]", "[[ -n \"$1\" ]]");
        let found = sh_bashism("run.sh", original, &result).expect("a bashism");
        assert_eq!(
            found.describe(),
            "line 3 (`if [[ -n \"$1\" ]]; then`) writes `[[`, which only bash reads, in a script \
             whose `#!` line runs `sh` (dash on Debian and Ubuntu): dash has no `[[`: the line \
             fails with `[[: not found` (an `if [[ .. ]]` takes its `else`) (`dash -n` accepts \
             it, the fault comes when the line runs): write it the POSIX way (`[ .. ]` (quote \
             its variables)), or send a `#!/bin/bash` first line if the script needs bash"
        );
        let array = original.replace("set -e\n", "set -e\nitems=(a b)\n");
        let found = sh_bashism("run", original, &array).expect("a bashism");
        assert_eq!(found.line, (3, "items=(a b)".to_string()));
        assert!(
            found
                .fault()
                .contains("`Syntax error: \"(\" unexpected` (`dash -n` refuses it)")
        );
        // A bash script, a script already holding one, a bashism in a
        // comment: no verdict.
        let bash = original.replace("/bin/sh", "/bin/bash");
        assert_eq!(
            sh_bashism("run.sh", &bash, &bash.replace("[ -n", "[[ -n")),
            None
        );
        let held = original.replace("set -e", "source ./lib.sh");
        assert_eq!(
            sh_bashism("run.sh", &held, &held.replace("echo yes", "a=(1)")),
            None
        );
        let commented = original.replace("echo yes", "echo yes # [[ later ]]");
        assert_eq!(sh_bashism("run.sh", original, &commented), None);
    }
}
