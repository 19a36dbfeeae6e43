//! *Pure.* Python's tokenizer, as srview's Python checks read a file: the
//! one reading of strings (every prefix, triple-quoted ones, an f-string's
//! `{...}` fields as code and its format spec as text), comments, names,
//! numbers, operators and brackets, and a `\` at a line's end, that
//! [`super::doubt_names`] (names, logical lines, the spans of strings and
//! comments) and [`super::doubt_pysyntax`] (what CPython refuses) share.
//!
//! An f-string's field is read as CPython 3.11 reads it: its brackets as
//! code up to a `:` or a `!` conversion outside them, the format spec after
//! it as text (a nested `{...}` field in it is code again); the first
//! bracket fault in a field is kept ([`Tokens::field`]), not a stop, as
//! CPython says it only when no fault of its tokenizer comes later.

/// What a lexed token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tok {
    Name,
    Op,
    Str,
    Num,
}

/// A token: its kind, its text and the line (1-based) it starts at.
#[derive(Debug, Clone, Copy)]
pub(super) struct Token<'a> {
    pub(super) kind: Tok,
    pub(super) text: &'a str,
    pub(super) line: usize,
}

impl Token<'_> {
    pub(super) fn is(&self, op: &str) -> bool {
        self.kind == Tok::Op && self.text == op
    }
    pub(super) fn name(&self, word: &str) -> bool {
        self.kind == Tok::Name && self.text == word
    }
    pub(super) fn opens(&self) -> bool {
        self.kind == Tok::Op && matches!(self.text, "(" | "[" | "{")
    }
    pub(super) fn closes(&self) -> bool {
        self.kind == Tok::Op && matches!(self.text, ")" | "]" | "}")
    }
}

/// A part of a Python file that is not code: a string's text (of a
/// single-quoted or a triple-quoted string: an f-string's literal parts
/// only, its fields are code) or a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// A `'...'` or `"..."` string's text.
    Str,
    /// A triple-quoted string's text (a docstring's).
    LongStr,
    /// A comment, its `#` included.
    Comment,
}

/// A bracket fault in an f-string's field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldFault {
    /// A closing bracket (the field's `}` too) where another kind is open
    /// in the field.
    Mismatch {
        /// The closing bracket.
        close: char,
        /// The bracket open in the field.
        open: char,
    },
    /// A `)` or `]` with no bracket open in the field.
    Unmatched {
        /// The closing bracket.
        close: char,
    },
    /// The field left open at its string's closing quote.
    Open {
        /// The bracket open in the field there, if any.
        bracket: Option<char>,
    },
}

/// The first bracket fault in an f-string's field, where it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Field {
    pub(super) fault: FieldFault,
    /// Its line (1-based).
    pub(super) line: usize,
    /// Its byte.
    pub(super) at: usize,
}

/// Why the tokenizer stops reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stop {
    /// A string opened at `line` and left open: a `'...'` one at its
    /// line's end, a triple-quoted one at the file's end.
    StringOpen {
        line: usize,
        triple: bool,
        /// An f-string (or a t-string).
        fmt: bool,
    },
    /// A `\` before anything but a line's end.
    Backslash,
}

/// What the tokenizer reads next.
#[derive(Debug, Clone, Copy)]
pub(super) enum Item<'a> {
    /// A token and the byte it starts at.
    Token(Token<'a>, usize),
    /// A line's end in code (not in a string, not after a `\`).
    LineEnd,
    /// A character outside strings and comments that is neither a name's
    /// nor an operator's (Python may refuse it: a combining mark that
    /// continues a name is one Python takes): the character (`None` where
    /// it is not known) and its line (1-based).
    Stray(Option<char>, usize),
}

/// How an f-string's field ends.
enum FieldEnd {
    /// At its `}`: the byte after it.
    Closed(usize),
    /// Left open at its string's closing quote: the byte after the quote.
    StringEnds(usize),
}

/// A Python file's tokens, in order ([`Item`]s); it stops after the first
/// [`Stop`].
pub(super) struct Tokens<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    /// The byte spans of the strings' texts and the comments read so far.
    pub(super) pieces: Vec<(usize, usize, Piece)>,
    /// The first bracket fault in an f-string's field read so far.
    pub(super) field: Option<Field>,
}

/// The byte of the line end a backslash at byte `i` of `b` continues the
/// line over (its `\r\n` or `\n`); `None` where anything else follows it
/// (Python refuses a backslash there).
fn continued(b: &[u8], i: usize) -> Option<usize> {
    let next = if b.get(i + 1) == Some(&b'\r') {
        i + 2
    } else {
        i + 1
    };
    (b.get(next) == Some(&b'\n')).then_some(next)
}

/// The prefix letters a string may have (`r`, `b`, `u`, `f`, `t` and
/// pairs of them), and whether it is an f-string (or a t-string).
fn string_prefix(word: &str) -> Option<bool> {
    let lower = word.to_ascii_lowercase();
    let ok = matches!(
        lower.as_str(),
        "r" | "b" | "u" | "f" | "t" | "rb" | "br" | "fr" | "rf" | "tr" | "rt"
    );
    ok.then(|| lower.contains('f') || lower.contains('t'))
}

/// The byte after the name or number starting at byte `at` of `b`.
fn word_end(b: &[u8], at: usize) -> usize {
    b[at..]
        .iter()
        .position(|&c| !(c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80))
        .map_or(b.len(), |n| at + n)
}

/// Python's keywords (not soft ones), sorted.
const KEYWORDS: &[&str] = &[
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

pub(super) fn keyword(name: &str) -> bool {
    KEYWORDS.binary_search(&name).is_ok()
}

/// Whether a string begins at byte `at` of `text`: its opening quote's
/// byte, after a prefix (`rb"..."`) if any, and whether it is an f-string
/// (or a t-string).
///
/// A prefix is one or two letters of `rbuft` (either case), so only the
/// two bytes after a letter of them are looked at (this runs at every
/// token: reading the whole name, and lowering it, took most of a large
/// file's reading).
fn string_start(text: &str, at: usize) -> Option<(usize, bool)> {
    let rest = text.get(at..)?;
    let b = rest.as_bytes();
    let quote = |i: usize| matches!(b.get(i), Some(b'\'' | b'"'));
    if quote(0) {
        return Some((at, false));
    }
    if !b"rRbBuUfFtT".contains(b.first()?) {
        return None;
    }
    let len = if quote(1) {
        1
    } else if quote(2) {
        2
    } else {
        return None;
    };
    let fmt = string_prefix(rest.get(..len)?)?;
    Some((at + len, fmt))
}

/// The closing bracket of the opening one `open`.
pub(super) fn pair(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

const OPS3: &[&str] = &["**=", "//=", ">>=", "<<=", "..."];
const OPS2: &[&str] = &[
    "->", ":=", "==", "!=", "<=", ">=", "**", "//", "<<", ">>", "+=", "-=", "*=", "/=", "%=", "&=",
    "|=", "^=", "@=", "<>",
];

impl<'a> Tokens<'a> {
    /// `text`'s tokens, from its start.
    pub(super) fn new(text: &'a str) -> Self {
        Tokens {
            text,
            at: 0,
            line: 1,
            pieces: Vec::new(),
            field: None,
        }
    }

    /// A token of `kind` from byte `start` to the reading point.
    fn token(&self, kind: Tok, start: usize, line: usize) -> Item<'a> {
        match self.text.get(start..self.at) {
            Some(text) => Item::Token(Token { kind, text, line }, start),
            None => Item::Stray(None, line),
        }
    }

    /// Reads a string whose opening quote is at byte `at`; `fmt`: an
    /// f-string, whose `{...}` fields are read as code. Adds its text's
    /// spans to the pieces, counts its newlines, and gives the byte after
    /// its closing quote.
    fn skip_string(&mut self, at: usize, fmt: bool) -> Result<usize, Stop> {
        let b = self.text.as_bytes();
        let quote = b[at];
        let triple = b.get(at + 1) == Some(&quote) && b.get(at + 2) == Some(&quote);
        let open = Stop::StringOpen {
            line: self.line,
            triple,
            fmt,
        };
        let kind = if triple { Piece::LongStr } else { Piece::Str };
        let mut i = at + if triple { 3 } else { 1 };
        let mut from = i;
        while i < b.len() {
            let c = b[i];
            if c == b'\\' {
                if b.get(i + 1) == Some(&b'\n') {
                    self.line += 1;
                }
                i += 2;
                continue;
            }
            if c == b'\n' {
                if !triple {
                    return Err(open);
                }
                self.line += 1;
            }
            if c == quote
                && (!triple || (b.get(i + 1) == Some(&quote) && b.get(i + 2) == Some(&quote)))
            {
                self.pieces.push((from, i, kind));
                return Ok(i + if triple { 3 } else { 1 });
            }
            if fmt && c == b'{' {
                if b.get(i + 1) == Some(&b'{') {
                    i += 2;
                    continue;
                }
                self.pieces.push((from, i, kind));
                match self.skip_field(i + 1, quote, triple).ok_or(open)? {
                    FieldEnd::Closed(end) => i = end,
                    FieldEnd::StringEnds(end) => return Ok(end),
                }
                from = i;
                continue;
            }
            i += 1;
        }
        Err(open)
    }

    /// Keeps the first fault in an f-string's field.
    fn field_fault(&mut self, fault: FieldFault, at: usize) {
        if self.field.is_none() {
            self.field = Some(Field {
                fault,
                line: self.line,
                at,
            });
        }
    }

    /// A closing bracket `close` at byte `at` in an f-string's field whose
    /// open brackets are `open`.
    fn close_in_field(&mut self, open: &mut Vec<u8>, close: u8, at: usize) {
        match open.pop() {
            None if close == b'}' => {}
            None => self.field_fault(
                FieldFault::Unmatched {
                    close: char::from(close),
                },
                at,
            ),
            Some(o) if pair(o) != close => self.field_fault(
                FieldFault::Mismatch {
                    close: char::from(close),
                    open: char::from(o),
                },
                at,
            ),
            Some(_) => {}
        }
    }

    /// The field left open where its string's own quote (at byte `at`,
    /// `triple` or not) ends the string, as CPython 3.11 reads it: the
    /// fault kept, the byte after the quote; `None` where no closing quote
    /// stands there.
    fn field_left_open(&mut self, open: &[u8], at: usize, triple: bool) -> Option<FieldEnd> {
        let b = self.text.as_bytes();
        let end = at + if triple { 3 } else { 1 };
        let closes = b
            .get(at..end)
            .is_some_and(|q| q.iter().all(|&x| x == b[at]));
        if !closes {
            return None;
        }
        let bracket = open.last().map(|&o| char::from(o));
        self.field_fault(FieldFault::Open { bracket }, at);
        Some(FieldEnd::StringEnds(end))
    }

    /// An f-string's field from byte `at` (after its `{`), in a string
    /// opened by `quote` (`triple`); strings inside it read as strings.
    /// `None`: a string inside it left open, or a line's end in a
    /// single-quoted string.
    fn skip_field(&mut self, at: usize, quote: u8, triple: bool) -> Option<FieldEnd> {
        let text = self.text;
        let b = text.as_bytes();
        let mut depth = 1;
        // The brackets open in the field's code; its format spec is text.
        let mut open = Vec::new();
        let mut spec = false;
        // The field's code read last is an operand (a name, a number, a
        // closed bracket): a string's quote right after it is no code in
        // any Python (`f"{total" + "}"`: 3.11 ends the string there, 3.12
        // reads `total " + "`).
        let mut after_operand = false;
        let mut i = at;
        while i < b.len() {
            let c = b[i];
            if !spec && (c == b'_' || c.is_ascii_alphanumeric() || c >= 0x80) {
                let end = word_end(b, i);
                let word = text.get(i..end).unwrap_or("");
                let prefix =
                    matches!(b.get(end), Some(b'\'' | b'"')) && string_prefix(word).is_some();
                if !prefix {
                    after_operand = !keyword(word) || matches!(word, "True" | "False" | "None");
                }
                i = end;
                continue;
            }
            if !spec && !c.is_ascii_whitespace() && !matches!(c, b'\'' | b'"') {
                after_operand = matches!(c, b')' | b']' | b'}');
            }
            match c {
                b'{' if spec => match self.skip_field(i + 1, quote, triple)? {
                    FieldEnd::Closed(end) => {
                        i = end;
                        continue;
                    }
                    ends => return Some(ends),
                },
                b'{' => {
                    depth += 1;
                    open.push(c);
                }
                b'}' => {
                    if !spec {
                        self.close_in_field(&mut open, c, i);
                    }
                    depth -= 1;
                    if depth == 0 {
                        return Some(FieldEnd::Closed(i + 1));
                    }
                }
                b'(' | b'[' if !spec => open.push(c),
                b')' | b']' if !spec => self.close_in_field(&mut open, c, i),
                b':' if !spec && open.is_empty() => spec = true,
                b'!' if !spec && open.is_empty() && b.get(i + 1) != Some(&b'=') => spec = true,
                b'\n' if !triple => return None,
                b'\n' => self.line += 1,
                // A quote in a format spec is its text (`{x:'>10}`).
                b'\'' | b'"' if spec && c != quote => {}
                b'\'' | b'"' if !spec && c == quote && after_operand => {
                    return self.field_left_open(&open, i, triple);
                }
                b'\'' | b'"' => {
                    let mut p = i;
                    while p > at && b[p - 1].is_ascii_alphabetic() {
                        p -= 1;
                    }
                    let fmt = string_prefix(&text[p..i]).unwrap_or(false);
                    let line = self.line;
                    match self.skip_string(i, fmt) {
                        Ok(end) => {
                            // Strings side by side are one (`"a" "b"`).
                            after_operand = false;
                            i = end;
                            continue;
                        }
                        // CPython 3.11 ends the string at its own quote:
                        // the field is left open there.
                        Err(_) if c == quote => {
                            self.line = line;
                            return self.field_left_open(&open, i, triple);
                        }
                        Err(_) => return None,
                    }
                }
                _ => {}
            }
            i += 1;
        }
        None
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Result<Item<'a>, Stop>;

    fn next(&mut self) -> Option<Self::Item> {
        let text = self.text;
        let b = text.as_bytes();
        while self.at < b.len() {
            let start = self.at;
            let line = self.line;
            if let Some((quote, fmt)) = string_start(text, start) {
                return Some(match self.skip_string(quote, fmt) {
                    Ok(end) => {
                        self.at = end;
                        Ok(self.token(Tok::Str, start, line))
                    }
                    Err(stop) => {
                        self.at = b.len();
                        Err(stop)
                    }
                });
            }
            let c = b[start];
            match c {
                b'\n' => {
                    self.line += 1;
                    self.at += 1;
                    return Some(Ok(Item::LineEnd));
                }
                b' ' | b'\t' | b'\r' | b'\x0c' => self.at += 1,
                b'\\' => {
                    // A continuation: the logical line goes on.
                    let Some(end) = continued(b, start) else {
                        self.at = b.len();
                        return Some(Err(Stop::Backslash));
                    };
                    self.at = end + 1;
                    self.line += 1;
                }
                b'#' => {
                    let end = text[start..].find('\n').map_or(b.len(), |n| start + n);
                    self.pieces.push((start, end, Piece::Comment));
                    self.at = end;
                }
                _ if c.is_ascii_digit()
                    || (c == b'.' && b.get(start + 1).is_some_and(u8::is_ascii_digit)) =>
                {
                    let mut i = start;
                    while i < b.len() {
                        let d = b[i];
                        let exp = matches!(d, b'+' | b'-') && matches!(b[i - 1], b'e' | b'E');
                        if !(d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || exp) {
                            break;
                        }
                        i += 1;
                    }
                    self.at = i;
                    return Some(Ok(self.token(Tok::Num, start, line)));
                }
                _ if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 => {
                    let rest = &text[start..];
                    let len = rest
                        .char_indices()
                        .find(|&(_, ch)| !(ch == '_' || ch.is_alphanumeric()))
                        .map_or(rest.len(), |(n, _)| n);
                    if len == 0 {
                        let ch = rest.chars().next();
                        self.at += ch.map_or(1, char::len_utf8);
                        return Some(Ok(Item::Stray(ch, line)));
                    }
                    self.at += len;
                    return Some(Ok(self.token(Tok::Name, start, line)));
                }
                _ => {
                    let rest = &text[start..];
                    self.at += if OPS3.iter().any(|o| rest.starts_with(o)) {
                        3
                    } else if OPS2.iter().any(|o| rest.starts_with(o)) {
                        2
                    } else {
                        1
                    };
                    return Some(Ok(self.token(Tok::Op, start, line)));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::{FieldFault, Item, Piece, Stop, Tok, Tokens, string_start};

    /// A string's start after every prefix Python takes (either case),
    /// and none after a longer name, a name that is no prefix, or a prefix
    /// parted from its quote.
    #[test]
    fn string_starts_after_prefixes_only() {
        let cases = [
            ("\"x\"", Some((0, false))),
            ("'x'", Some((0, false))),
            ("r'x'", Some((1, false))),
            ("B\"x\"", Some((1, false))),
            ("f'{x}'", Some((1, true))),
            ("rb'x'", Some((2, false))),
            ("Rb'x'", Some((2, false))),
            ("fR'x'", Some((2, true))),
            ("tr'x'", Some((2, true))),
            ("t'x'", Some((1, true))),
            ("bu'x'", None),
            ("rbx'x'", None),
            ("fr_'x'", None),
            ("r 'x'", None),
            ("x'x'", None),
            ("é'x'", None),
            ("rf", None),
            ("r", None),
            ("", None),
        ];
        for (text, start) in cases {
            assert_eq!(string_start(text, 0), start, "{text}");
        }
        assert_eq!(string_start("x = rb'1'", 4), Some((6, false)));
    }

    /// The tokens of `text` as (kind, text, line), to the first stop.
    fn tokens(text: &str) -> (Vec<(Tok, &str, usize)>, Option<Stop>) {
        let mut out = Vec::new();
        for item in Tokens::new(text) {
            match item {
                Ok(Item::Token(t, _)) => out.push((t.kind, t.text, t.line)),
                Ok(_) => {}
                Err(stop) => return (out, Some(stop)),
            }
        }
        (out, None)
    }

    /// Names, numbers, operators and strings of every prefix, each with
    /// the line it starts at; a `\` continues a line, a comment is no
    /// token.
    #[test]
    fn a_file_reads_as_pythons_tokens() {
        let text = "x = rb'a' + 1.5e+3  # c'\ny = f\"{x!r:>{w}}\" \\\n  ** 2\nz = '''a\nb'''\n";
        let (got, stop) = tokens(text);
        assert_eq!(stop, None);
        let got: Vec<String> = got
            .iter()
            .map(|(kind, text, line)| format!("{kind:?} {text} {line}"))
            .collect();
        assert_eq!(
            got.join(" | "),
            "Name x 1 | Op = 1 | Str rb'a' 1 | Op + 1 | Num 1.5e+3 1 | Name y 2 | Op = 2 | \
             Str f\"{x!r:>{w}}\" 2 | Op ** 3 | Num 2 3 | Name z 4 | Op = 4 | Str '''a\nb''' 4"
        );
        let mut read = Tokens::new(text);
        read.by_ref().for_each(drop);
        let kinds: Vec<Piece> = read.pieces.iter().map(|p| p.2).collect();
        assert_eq!(
            kinds,
            [
                Piece::Str,
                Piece::Comment,
                Piece::Str,
                Piece::Str,
                Piece::LongStr
            ]
        );
    }

    /// A string left open stops the reading at its line; a `\` before
    /// anything but a line's end too.
    #[test]
    fn a_string_left_open_or_a_stray_backslash_stops() {
        let (_, stop) = tokens("a = 1\nb = f'{a}\nc = 2\n");
        assert_eq!(
            stop,
            Some(Stop::StringOpen {
                line: 2,
                triple: false,
                fmt: true
            })
        );
        assert_eq!(tokens("a = 1 \\ 2\n").1, Some(Stop::Backslash));
        // A line's end in a single-quoted f-string's field.
        assert!(matches!(
            tokens("a = f\"{len(\nb)}\"\n").1,
            Some(Stop::StringOpen { line: 1, .. })
        ));
    }

    /// The first bracket fault in an f-string's field is kept, the string
    /// read to its end as before; a format spec's brackets are its text.
    #[test]
    fn a_fields_first_bracket_fault_is_kept() {
        let field = |text: &str| {
            let mut read = Tokens::new(text);
            let ends = read.by_ref().filter(|i| i.is_ok()).count();
            (read.field.map(|f| (f.fault, f.line)), ends)
        };
        let (fault, _) = field("x = 1\ny = f\"{len(a} {b)}\"\n");
        assert_eq!(
            fault,
            Some((
                FieldFault::Mismatch {
                    close: '}',
                    open: '('
                },
                2
            ))
        );
        assert_eq!(
            field("f\"{a)}\"").0,
            Some((FieldFault::Unmatched { close: ')' }, 1))
        );
        assert_eq!(
            field("f\"{len(a\"\nz = 1\n").0,
            Some((FieldFault::Open { bracket: Some('(') }, 1))
        );
        assert_eq!(field("f\"{a:(>{w}} {a:'^3} {a[1:2]!r}\"").0, None);
    }
}
