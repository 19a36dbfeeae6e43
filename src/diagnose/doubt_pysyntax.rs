//! *Pure.* An edit that leaves a Python file one CPython refuses to
//! compile, where the file before read without such a fault (a tester's
//! find, round 42a, 01: a dropped `)`, `]` or closing quote, or a
//! function's last line moved to the module's level, was written and
//! called fine, while the same slip in a brace language is a doubt).
//!
//! The rule, by evidence only, for a Python file ([`super::file_kind`]):
//! - the file is read as Python's tokenizer reads it (strings of every
//!   prefix, triple-quoted strings, an f-string's `{...}` fields as code,
//!   comments, a `\` at a line's end): a string left open at its line's
//!   end (a triple-quoted one at the file's end), a bracket never closed,
//!   a bracket closing another kind than the one open, or a closing
//!   bracket with none open is a fault;
//! - its blocks are read as [`super::doubt_indent`] reads them (a
//!   compound statement's header, up to its `:`, opens one): a `return`
//!   outside any function (at the module's level or in a class's body), a
//!   `yield` or `await` there (an `await` in a function not `async`), a
//!   `break` or `continue` outside any loop of its function (a loop's
//!   `else:` is outside the loop) is a fault; a `yield` or `await` after
//!   a `lambda` in its statement is not read;
//! - doubted: the result has a fault, the file before none (and read as
//!   Python: else nothing is said, as for a file that never compiled).
//!
//! The sentence names the line and what CPython 3.11 says of it (its
//! `SyntaxError`'s words). The verdicts are tested against CPython's own
//! `compile()` (tests/fixtures/trust/pysyntax/).

use super::doubt_names::{at_top, closing, compound, python_lines, statements, top_colon};
use super::doubt_redefine::key_twice_said;
use super::pystatements::{argument_twice, dangling, late_future};
pub use super::pytokens::FieldFault;
use super::pytokens::{Item, Stop, Tok, Token, Tokens, pair};

/// A fault that makes CPython refuse a Python file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SyntaxFault {
    /// A string opened at `line` and left open: a `'...'` one at its
    /// line's end, a triple-quoted one at the file's end (`end`, its last
    /// line).
    StringOpen {
        /// The line (1-based) the string opens at.
        line: usize,
        /// Triple-quoted.
        triple: bool,
        /// An f-string (or a t-string).
        fmt: bool,
        /// The file's last line (1-based).
        end: usize,
    },
    /// A bracket opened at `line` and never closed.
    NeverClosed {
        /// `(`, `[` or `{`.
        open: char,
        /// The line (1-based) it opens at.
        line: usize,
    },
    /// A closing bracket at `line` where another kind is open.
    Mismatch {
        /// The closing bracket.
        close: char,
        /// Its line (1-based).
        line: usize,
        /// The bracket open there.
        open: char,
        /// Its line (1-based).
        opened: usize,
    },
    /// A closing bracket with none open.
    Unmatched {
        /// The closing bracket.
        close: char,
        /// Its line (1-based).
        line: usize,
    },
    /// A bracket fault in an f-string's `{...}` field (`{len(buf}`).
    Field {
        /// The fault.
        fault: FieldFault,
        /// Its line (1-based).
        line: usize,
    },
    /// A `yield` in a comprehension (not in its first iterable): the
    /// comprehension is a scope of its own.
    InComprehension {
        /// CPython's name for it: `list comprehension`, `set
        /// comprehension`, `dict comprehension`, `generator expression`.
        what: &'static str,
        /// Its line (1-based).
        line: usize,
    },
    /// A character CPython's tokenizer refuses in code, outside strings
    /// and comments: a no-break space or another space, line or format
    /// character Python calls non-printable, or a typographic quote or
    /// dash ([`refused_character`]).
    Invalid {
        /// The character.
        ch: char,
        /// Its line (1-based).
        line: usize,
    },
    /// A statement ending in an operator outside any bracket (`return 1
    /// +`): [`super::pystatements`].
    Dangling {
        /// The operator (or the word: `and`, `not`, ...).
        op: &'static str,
        /// Its line (1-based).
        line: usize,
    },
    /// A keyword argument given twice in one call or class header, or a
    /// parameter named twice in one `def` or `lambda`.
    ArgumentTwice {
        /// The name.
        name: String,
        /// The later copy's line (1-based).
        line: usize,
        /// A parameter (else a keyword argument).
        parameter: bool,
    },
    /// A `from __future__` import below the file's code.
    LateFuture {
        /// Its line (1-based).
        line: usize,
    },
    /// A statement outside the block it needs: `return` or `yield`
    /// outside a function, `await` outside an `async` one, `break` or
    /// `continue` outside a loop.
    Outside {
        /// The keyword.
        word: &'static str,
        /// Its line (1-based).
        line: usize,
        /// For `await`: in a function that is not `async`.
        in_function: bool,
    },
}

impl SyntaxFault {
    /// The line (1-based) the fault is said at.
    pub fn line(&self) -> usize {
        match *self {
            SyntaxFault::StringOpen { line, .. }
            | SyntaxFault::NeverClosed { line, .. }
            | SyntaxFault::Mismatch { line, .. }
            | SyntaxFault::Unmatched { line, .. }
            | SyntaxFault::Field { line, .. }
            | SyntaxFault::InComprehension { line, .. }
            | SyntaxFault::Outside { line, .. }
            | SyntaxFault::Dangling { line, .. }
            | SyntaxFault::ArgumentTwice { line, .. }
            | SyntaxFault::LateFuture { line }
            | SyntaxFault::Invalid { line, .. } => line,
        }
    }

    /// What CPython 3.11's `SyntaxError` says of it.
    pub fn python(&self) -> String {
        match *self {
            SyntaxFault::StringOpen {
                triple: true, end, ..
            } => format!("unterminated triple-quoted string literal (detected at line {end})"),
            SyntaxFault::StringOpen { line, .. } => {
                format!("unterminated string literal (detected at line {line})")
            }
            SyntaxFault::NeverClosed { open, .. } => format!("'{open}' was never closed"),
            SyntaxFault::Invalid { ch, .. } if non_printable(ch) => {
                format!("invalid non-printable character U+{:04X}", u32::from(ch))
            }
            SyntaxFault::Invalid { ch, .. } => {
                format!("invalid character '{ch}' (U+{:04X})", u32::from(ch))
            }
            SyntaxFault::Mismatch {
                close,
                line,
                open,
                opened,
            } => {
                let on = if opened == line {
                    String::new()
                } else {
                    format!(" on line {opened}")
                };
                format!(
                    "closing parenthesis '{close}' does not match opening parenthesis '{open}'{on}"
                )
            }
            SyntaxFault::Unmatched { close, .. } => format!("unmatched '{close}'"),
            SyntaxFault::Field { fault, .. } => match fault {
                FieldFault::Mismatch { close, open } => format!(
                    "f-string: closing parenthesis '{close}' does not match opening parenthesis \
                     '{open}'"
                ),
                FieldFault::Unmatched { close }
                | FieldFault::Open {
                    bracket: Some(close),
                } => format!("f-string: unmatched '{close}'"),
                FieldFault::Open { bracket: None } => "f-string: expecting '}'".to_string(),
            },
            SyntaxFault::InComprehension { what, .. } => format!("'yield' inside {what}"),
            SyntaxFault::Dangling { .. } => "invalid syntax".to_string(),
            SyntaxFault::ArgumentTwice {
                ref name,
                parameter: true,
                ..
            } => format!("duplicate argument '{name}' in function definition"),
            SyntaxFault::ArgumentTwice { ref name, .. } => {
                format!("keyword argument repeated: {name}")
            }
            SyntaxFault::LateFuture { .. } => {
                "from __future__ imports must occur at the beginning of the file".to_string()
            }
            SyntaxFault::Outside {
                word: "await",
                in_function: true,
                ..
            } => "'await' outside async function".to_string(),
            SyntaxFault::Outside {
                word: "continue", ..
            } => "'continue' not properly in loop".to_string(),
            SyntaxFault::Outside { word, .. } => match word {
                "break" => "'break' outside loop".to_string(),
                _ => format!("'{word}' outside function"),
            },
        }
    }

    /// Whether it is a string left open.
    pub fn is_string(&self) -> bool {
        matches!(self, SyntaxFault::StringOpen { .. })
    }

    /// Whether it is a statement outside its block.
    pub fn is_outside(&self) -> bool {
        matches!(
            self,
            SyntaxFault::Outside { .. } | SyntaxFault::InComprehension { .. }
        )
    }
}

/// A fault an edit leaves in a Python file, with the line it is at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxBreak {
    /// The fault.
    pub fault: SyntaxFault,
    /// The result's line it is at, trimmed.
    pub text: String,
    /// For a string left open below the edit's lines: the triple-quoted
    /// string that runs on past them, so the quotes after it pair the
    /// other way.
    pub runs_on: Option<RunsOn>,
}

/// A triple-quoted string that runs on past the lines an edit changed
/// (their last quotes now open a string, not close one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunsOn {
    /// The line (1-based) it opens at.
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// The line its quotes close at now.
    pub end: usize,
    /// It opens in the edit's new text (else before it: the edit took its
    /// closing quotes).
    pub in_new: bool,
}

impl SyntaxBreak {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match (&self.runs_on, &self.fault) {
            (Some(RunsOn { in_new: true, .. }), _) => {
                "close the triple-quoted string in the new text (or take its quotes out)"
            }
            (Some(_), _) => "keep the string's closing quotes in the new text",
            // A keyword argument given again is said as a dict's key given
            // again ([`super::doubt_keys`]).
            (
                None,
                SyntaxFault::ArgumentTwice {
                    parameter: false, ..
                },
            ) => return key_twice_said(self.fault(), "keyword argument", false),
            (None, fault) => self.advice(fault),
        };
        format!("{}: {advice}", self.fault())
    }

    /// What to send for `fault`.
    fn advice(&self, fault: &SyntaxFault) -> &'static str {
        match fault {
            SyntaxFault::StringOpen { .. } => "close the string in the new text",
            SyntaxFault::NeverClosed { .. } => "close the bracket in the new text",
            SyntaxFault::Mismatch { .. } | SyntaxFault::Unmatched { .. } => {
                "send the new text with each bracket closed by its own kind"
            }
            SyntaxFault::Field {
                fault:
                    FieldFault::Mismatch {
                        open: '(' | '[', ..
                    }
                    | FieldFault::Open {
                        bracket: Some('(' | '['),
                    },
                ..
            } => "close the field's bracket before its `}` in the new text",
            SyntaxFault::Field {
                fault: FieldFault::Open { .. },
                ..
            } => "close the field with `}` before the string's closing quote in the new text",
            SyntaxFault::Field { .. } => {
                "send the new text with each bracket in the field closed by its own kind"
            }
            // Indented right, in a plain `def`: the function is what is
            // wrong (a tester's find: told to check the indentation).
            SyntaxFault::Outside {
                word: "await",
                in_function: true,
                ..
            } => {
                "make the function holding it an `async def` (and await it where it is \
                 called), or do not await there"
            }
            SyntaxFault::InComprehension { .. } => {
                "yield from a `for` loop instead, or keep the `yield` out of the comprehension"
            }
            SyntaxFault::Invalid { .. } => {
                "write the character's plain ASCII form in the new text (a space, `\"`, `'`, \
                 `-`), or put it in a string or a comment"
            }
            SyntaxFault::Outside { .. } => {
                "keep the line indented in the block it belongs to (check the new text's \
                 indentation)"
            }
            SyntaxFault::Dangling { .. } => {
                "finish the expression in the new text (or put it in brackets to go on onto the \
                 next line)"
            }
            SyntaxFault::ArgumentTwice { .. } => "give each parameter its own name",
            SyntaxFault::LateFuture { .. } => {
                "keep `from __future__` imports first in the file, below the module docstring \
                 only, and put the new lines below them"
            }
        }
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let line = self.fault.line();
        let what = match self.fault {
            SyntaxFault::StringOpen { triple: true, .. } => {
                "opens a triple-quoted string nothing closes before the file's end".to_string()
            }
            SyntaxFault::StringOpen { fmt: true, .. } => {
                "opens a string (or an f-string's field) it does not close".to_string()
            }
            SyntaxFault::StringOpen { .. } => "opens a string it does not close".to_string(),
            SyntaxFault::NeverClosed { open, .. } => {
                format!("opens `{open}` and nothing closes it")
            }
            SyntaxFault::Mismatch {
                close,
                open,
                opened,
                ..
            } => format!("closes `{close}` where the `{open}` of line {opened} is open"),
            SyntaxFault::Unmatched { close, .. } => {
                format!("closes `{close}` where no bracket is open")
            }
            SyntaxFault::Field { fault, .. } => match fault {
                FieldFault::Mismatch { close: '}', open } => {
                    format!("ends an f-string's `{{...}}` field while its `{open}` is open")
                }
                FieldFault::Mismatch { close, open } => {
                    format!("closes `{close}` in an f-string's field where its `{open}` is open")
                }
                FieldFault::Unmatched { close } => {
                    format!("closes `{close}` in an f-string's field where no bracket is open")
                }
                FieldFault::Open {
                    bracket: Some(open),
                } => format!("ends an f-string while its field and the `{open}` in it are open"),
                FieldFault::Open { bracket: None } => {
                    "ends an f-string while its `{...}` field is open".to_string()
                }
            },
            SyntaxFault::Outside {
                word: word @ ("break" | "continue"),
                ..
            } => format!("has `{word}` outside any loop"),
            SyntaxFault::Outside {
                word: "await",
                in_function: true,
                ..
            } => "has `await` in a function that is not `async`".to_string(),
            SyntaxFault::InComprehension { what, .. } => {
                format!("has `yield` inside a {what}, a scope of its own where it cannot stand")
            }
            SyntaxFault::Outside { word, .. } => format!("has `{word}` outside any function"),
            SyntaxFault::Invalid { ch, .. } => {
                format!("has {} outside any string or comment", character_words(ch))
            }
            SyntaxFault::Dangling { op, .. } => {
                format!("ends its statement with `{op}` outside any bracket, with nothing after it")
            }
            SyntaxFault::ArgumentTwice {
                ref name,
                parameter: true,
                ..
            } => format!("names the parameter `{name}` a second time in one definition"),
            SyntaxFault::ArgumentTwice { ref name, .. } => {
                format!("gives the keyword argument `{name}` a second time in one call")
            }
            SyntaxFault::LateFuture { .. } => {
                "imports from `__future__` below the file's code, where only the module \
                 docstring and other `__future__` imports may stand above it"
                    .to_string()
            }
        };
        // The string an edit opened (or left running) is what to name,
        // not the far line CPython stops at (tester round 42c, 01).
        if let Some(r) = &self.runs_on {
            let string = if r.in_new {
                format!(
                    "line {} (`{}`, in the new text) opens a triple-quoted string that closes \
                     only at line {}",
                    r.line, r.text, r.end
                )
            } else {
                format!(
                    "the triple-quoted string line {} (`{}`) opens now runs on past the edit's \
                     lines and closes only at line {}",
                    r.line, r.text, r.end
                )
            };
            return format!(
                "as the edit leaves it, Python refuses the file: {string}, so the quotes after \
                 it pair the other way: CPython reads the file to line {line} (`{}`) before it \
                 fails (SyntaxError: {}), where the file before had no such fault",
                self.text,
                self.fault.python()
            );
        }
        python_refuses(line, &self.text, &what, &self.fault.python())
    }
}

/// "as the edit leaves it, Python refuses the file": line `line` (its
/// `text`) does `what`, CPython's SyntaxError saying `python`. The
/// sentence of each check whose fault is one CPython reports
/// ([`super::doubt_pyparse`] too).
pub(super) fn python_refuses(line: usize, text: &str, what: &str, python: &str) -> String {
    format!(
        "as the edit leaves it, Python refuses the file: line {line} (`{text}`) {what} \
         (SyntaxError: {python}), where the file before had no such fault"
    )
}

/// The fault `result` (the Python file as an edit leaves it) has where
/// `original` has none (see the module's rule); `None` when there is none,
/// or `original` does not read as Python.
pub(super) fn python_syntax(original: &str, result: &str) -> Option<SyntaxBreak> {
    if !matches!(scan(original), Scan::Clean) || compiled(original) != Some(None) {
        return None;
    }
    let fault = match scan(result) {
        Scan::Fault(f) => f,
        Scan::Unread => return None,
        Scan::Clean => compiled(result)??,
    };
    let runs_on = if fault.is_string() {
        runs_on(original, result, fault.line())
    } else {
        None
    };
    Some(SyntaxBreak {
        text: line_text(result, fault.line()),
        fault,
        runs_on,
    })
}

/// `text`'s line `line` (1-based), trimmed.
fn line_text(text: &str, line: usize) -> String {
    text.lines()
        .nth(line.saturating_sub(1))
        .map_or(String::new(), |l| l.trim().to_string())
}

/// The triple-quoted string of `result` that runs on past the lines an
/// edit of `original` changed (opened in them, or before them), where the
/// string CPython finds open is at `fault`, below those lines.
fn runs_on(original: &str, result: &str, fault: usize) -> Option<RunsOn> {
    let (_, after, same, tail) = crate::textdiff::changed_lines(original, result);
    // The result's changed lines, 1-based: `from..=to` (none: a deletion).
    let (from, to) = (same + 1, after.len() - tail);
    if fault <= to {
        return None;
    }
    Tokens::new(result).find_map(|item| {
        let Ok(Item::Token(t, _)) = item else {
            return None;
        };
        let quotes = t.text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let triple = quotes.starts_with("\"\"\"") || quotes.starts_with("'''");
        let end = t.line + t.text.matches('\n').count();
        (t.kind == Tok::Str && triple && t.line <= to && end > to).then(|| RunsOn {
            line: t.line,
            text: line_text(result, t.line),
            end,
            in_new: t.line >= from,
        })
    })
}

/// What [`scan`] finds.
#[derive(Debug, PartialEq, Eq)]
enum Scan {
    /// Strings and brackets each closed.
    Clean,
    /// The first fault.
    Fault(SyntaxFault),
    /// A `\` before anything but a line's end: not read.
    Unread,
}

/// Reads `text`'s strings, comments and brackets as Python's tokenizer
/// does ([`super::pytokens`]), to the first fault. A fault in an
/// f-string's field is CPython's only where its tokenizer finds none after
/// it (a bracket left open at the file's end counts only when the field is
/// inside it).
fn scan(text: &str) -> Scan {
    let last = text.lines().count().max(1);
    let mut read = Tokens::new(text);
    // The brackets open: the bracket, its line, its byte.
    let mut open: Vec<(u8, usize, usize)> = Vec::new();
    for item in read.by_ref() {
        let (tok, at) = match item {
            Err(Stop::Backslash) => return Scan::Unread,
            Err(Stop::StringOpen { line, triple, fmt }) => {
                return Scan::Fault(SyntaxFault::StringOpen {
                    line,
                    triple,
                    fmt,
                    end: last,
                });
            }
            Ok(Item::Stray(Some(ch), line)) if refused_character(ch) => {
                return Scan::Fault(SyntaxFault::Invalid { ch, line });
            }
            Ok(Item::Token(tok, at)) if tok.opens() || tok.closes() => (tok, at),
            Ok(_) => continue,
        };
        let line = tok.line;
        let c = tok.text.bytes().next().unwrap_or(b')');
        if tok.opens() {
            open.push((c, line, at));
            continue;
        }
        let close = char::from(c);
        match open.pop() {
            None => return Scan::Fault(SyntaxFault::Unmatched { close, line }),
            Some((o, opened, _)) if pair(o) != c => {
                return Scan::Fault(SyntaxFault::Mismatch {
                    close,
                    line,
                    open: char::from(o),
                    opened,
                });
            }
            Some(_) => {}
        }
    }
    let field = read.field.map(|f| {
        let fault = SyntaxFault::Field {
            fault: f.fault,
            line: f.line,
        };
        (fault, f.at)
    });
    match (open.first(), field) {
        (Some(&(_, _, outer)), Some((fault, at))) if at < outer => Scan::Fault(fault),
        // CPython names the innermost bracket still open at the end.
        (Some(_), _) => {
            let &(o, line, _) = open.last().unwrap_or(&(b'(', 1, 0));
            Scan::Fault(SyntaxFault::NeverClosed {
                open: char::from(o),
                line,
            })
        }
        (None, Some((fault, _))) => Scan::Fault(fault),
        (None, None) => Scan::Clean,
    }
}

/// Whether CPython's tokenizer refuses `ch` in code, said only where
/// certain (no name of Python's holds it): [`non_printable`] characters,
/// typographic quotes and dashes (`‘ ’ “ ” – —`), `…`. A character left
/// out (a combining mark, which continues a name) is not judged.
fn refused_character(ch: char) -> bool {
    non_printable(ch)
        || matches!(
            ch,
            '\u{2018}'..='\u{201F}' | '\u{2013}' | '\u{2014}' | '\u{2026}'
        )
}

/// `ch` named for a model that cannot see it: "a no-break space
/// (U+00A0)", "the typographic quote `“` (U+201C)".
fn character_words(ch: char) -> String {
    let code = format!("U+{:04X}", u32::from(ch));
    match ch {
        '\u{A0}' => format!("a no-break space ({code})"),
        '\u{1680}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => {
            format!("a special space ({code})")
        }
        '\u{2018}'..='\u{201F}' => format!("the typographic quote `{ch}` ({code})"),
        '\u{2013}' | '\u{2014}' => format!("the dash `{ch}` ({code})"),
        '\u{2026}' => format!("the ellipsis `{ch}` ({code})"),
        _ => format!("the invisible character {code}"),
    }
}

/// Whether Python's `str.isprintable` says no to `ch`, for the characters
/// srview names so: C1 controls, the spaces other than U+0020 (Zs), the
/// line and paragraph separators, and the format characters a model's
/// text carries (soft hyphen, zero-width ones, bidirectional controls,
/// word joiners, U+FEFF).
fn non_printable(ch: char) -> bool {
    matches!(
        ch,
        '\u{80}'..='\u{A0}'
            | '\u{AD}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200F}'
            | '\u{2028}'..='\u{202F}'
            | '\u{205F}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// Where a statement stands: in a function (`Some(async)`), in a loop of
/// it.
#[derive(Debug, Clone, Copy)]
struct Context {
    function: Option<bool>,
    in_loop: bool,
}

/// The fault CPython finds in `text` once its tokenizer read it whole, in
/// CPython's order: its parser's (a statement ending in an operator), the
/// `__future__` imports' place, then its symbol table's and its
/// compiler's ([`outside`]); `Some(None)` for none, `None` when `text`
/// does not read as Python.
fn compiled(text: &str) -> Option<Option<SyntaxFault>> {
    let lines = python_lines(text)?;
    Some(
        dangling(text, &lines)
            .map(|(op, line)| SyntaxFault::Dangling { op, line })
            .or_else(|| late_future(&lines).map(|line| SyntaxFault::LateFuture { line }))
            .or_else(|| outside(&lines)),
    )
}

/// The first fault of the symbol table (a parameter named twice, a
/// `yield` in a comprehension) in `lines`, else the first of the compiler
/// (a statement outside the block it needs, a keyword argument given
/// twice: see the module's rule).
fn outside(lines: &[(usize, Vec<Token<'_>>)]) -> Option<SyntaxFault> {
    let symtable = |f: &SyntaxFault| {
        matches!(
            f,
            SyntaxFault::InComprehension { .. }
                | SyntaxFault::ArgumentTwice {
                    parameter: true,
                    ..
                }
        )
    };
    let mut compiler = None;
    for fault in block_faults(lines) {
        if symtable(&fault) {
            return Some(fault);
        }
        compiler.get_or_insert(fault);
    }
    compiler
}

/// Each logical line's first fault of a statement outside the block it
/// needs or an argument given twice, in the file's order.
fn block_faults<'l>(
    lines: &'l [(usize, Vec<Token<'_>>)],
) -> impl Iterator<Item = SyntaxFault> + 'l {
    let module = Context {
        function: None,
        in_loop: false,
    };
    // Open blocks: the header's indentation and its body's context.
    let mut open: Vec<(usize, Context)> = Vec::new();
    lines.iter().filter_map(move |(indent, tokens)| {
        while open.last().is_some_and(|&(at, _)| at >= *indent) {
            open.pop();
        }
        let here = open.last().map_or(module, |o| o.1);
        let fault = in_block(tokens, here, &mut |body| open.push((*indent, body)));
        fault.or_else(|| {
            argument_twice(tokens).map(|(name, line, parameter)| SyntaxFault::ArgumentTwice {
                name,
                line,
                parameter,
            })
        })
    })
}

/// The fault of the logical line `tokens` standing in `here`; `opens` is
/// told the context of the block its header opens, if it opens one.
fn in_block(
    tokens: &[Token],
    here: Context,
    opens: &mut dyn FnMut(Context),
) -> Option<SyntaxFault> {
    let Some(colon) = top_colon(tokens).filter(|_| compound(tokens)) else {
        return statements(tokens).into_iter().find_map(|s| simple(s, here));
    };
    let header = &tokens[..colon];
    if let Some(f) = in_expression(header, here) {
        return Some(f);
    }
    let body = body_of(header, here);
    let rest = &tokens[colon + 1..];
    if rest.is_empty() {
        opens(body);
        return None;
    }
    statements(rest).into_iter().find_map(|s| simple(s, body))
}

/// The context of the body of the block whose header (up to its `:`) is
/// `header`, standing in `here`.
fn body_of(header: &[Token], here: Context) -> Context {
    let is_async = header.first().is_some_and(|t| t.name("async"));
    let first = header.get(usize::from(is_async));
    match first.map(|t| t.text) {
        Some("def") => Context {
            function: Some(is_async),
            in_loop: false,
        },
        Some("class") => Context {
            function: None,
            in_loop: false,
        },
        Some("for" | "while") => Context {
            function: here.function,
            in_loop: true,
        },
        _ => here,
    }
}

/// A simple statement's fault in `here`.
fn simple(tokens: &[Token], here: Context) -> Option<SyntaxFault> {
    let first = tokens.first()?;
    let at = |word: &'static str| SyntaxFault::Outside {
        word,
        line: first.line,
        in_function: false,
    };
    if first.name("return") && here.function.is_none() {
        return Some(at("return"));
    }
    if !here.in_loop {
        if first.name("break") {
            return Some(at("break"));
        }
        if first.name("continue") {
            return Some(at("continue"));
        }
    }
    in_expression(tokens, here)
}

/// A `yield` or an `await` among `tokens` where `here` refuses it (not
/// after a `lambda`, whose body is a function of its own).
fn in_expression(tokens: &[Token], here: Context) -> Option<SyntaxFault> {
    for (i, t) in tokens.iter().enumerate() {
        if t.kind != Tok::Name || (i > 0 && tokens[i - 1].is(".")) {
            continue;
        }
        let fault = |word: &'static str| SyntaxFault::Outside {
            word,
            line: t.line,
            in_function: here.function.is_some(),
        };
        match t.text {
            "lambda" => return None,
            "yield" if let Some(what) = comprehension(tokens, i) => {
                return Some(SyntaxFault::InComprehension { what, line: t.line });
            }
            "yield" if here.function.is_none() => return Some(fault("yield")),
            "await" if here.function != Some(true) => return Some(fault("await")),
            _ => {}
        }
    }
    None
}

/// The comprehension the token at `at` of `tokens` stands in, innermost
/// first, by CPython's name for it; not in a comprehension's first
/// iterable, which the scope around it evaluates.
fn comprehension(tokens: &[Token], at: usize) -> Option<&'static str> {
    let mut opens = Vec::new();
    for (i, t) in tokens[..at].iter().enumerate() {
        if t.opens() {
            opens.push(i);
        } else if t.closes() {
            opens.pop();
        }
    }
    for &open in opens.iter().rev() {
        let inner = tokens.get(open + 1..closing(tokens, open))?;
        let at = at - open - 1;
        let top = at_top(inner, |t| {
            t.name("for") || t.name("in") || t.name("if") || t.is(":")
        });
        let word = |i: &usize, w: &str| inner[*i].name(w);
        let Some(&first) = top.iter().find(|i| word(i, "for")) else {
            continue;
        };
        let iterable = top.iter().find(|&&i| i > first && word(&i, "in"));
        let rest = iterable.and_then(|&n| {
            top.iter()
                .find(|&&i| i > n && (word(&i, "for") || word(&i, "if")))
        });
        if iterable.is_some_and(|&n| n < at && at < rest.map_or(inner.len(), |&r| r)) {
            continue;
        }
        return Some(match tokens[open].text {
            "[" => "list comprehension",
            "(" => "generator expression",
            _ if top.iter().any(|&i| i < first && inner[i].is(":")) => "dict comprehension",
            _ => "set comprehension",
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{SyntaxFault, python_syntax};

    /// The sentence said of the edit from `original` to `result`.
    fn said(original: &str, result: &str) -> String {
        python_syntax(original, result).map_or(String::new(), |b| b.describe())
    }

    fn fault(original: &str, result: &str) -> Option<String> {
        python_syntax(original, result).map(|b| b.fault.python())
    }

    const CART: &str = "class Cart:\n    def __init__(self):\n        self.lines = []\n\n    \
                        def add(self, sku, qty):\n        if qty <= 0:\n            \
                        raise ValueError(\"qty must be positive\")\n        \
                        self.lines.append((sku, qty))\n\n\ndef total(cart):\n    n = 0\n    \
                        for line in cart.lines:\n        n += line[1]\n    return n\n";

    /// A tester's find (round 42a, 01): a `)`, a `"` or a `]` dropped, a
    /// `return` moved to the module's level.
    #[test]
    fn a_bracket_or_string_left_open_is_a_fault() {
        let cases = [
            (
                "        self.lines.append((sku, qty))\n",
                "        self.lines.append((sku, qty)\n",
                "'(' was never closed",
                8,
            ),
            (
                "positive\")",
                "positive)",
                "unterminated string literal (detected at line 7)",
                7,
            ),
            (
                "self.lines = []",
                "self.lines = [",
                "'[' was never closed",
                3,
            ),
            (
                "    return n\n",
                "return n\n",
                "'return' outside function",
                15,
            ),
            (
                "        n += line[1]\n",
                "        n += line[1]\n    break\n",
                "'break' outside loop",
                15,
            ),
            (
                "line[1]",
                "line[1)",
                "closing parenthesis ')' does not match opening parenthesis '['",
                14,
            ),
        ];
        for (old, new, said, line) in cases {
            let result = CART.replacen(old, new, 1);
            let got = python_syntax(CART, &result).expect(said);
            assert_eq!(got.fault.python(), said);
            assert_eq!(got.fault.line(), line, "{said}");
            assert!(
                got.describe().contains(&format!("line {line} (`")),
                "{said}"
            );
        }
    }

    /// Edits that leave the file compiling: no fault.
    #[test]
    fn an_edit_leaving_the_file_compiling_is_none() {
        let fine = [
            (
                "    return n\n",
                "    return n  # (unclosed ' in a comment\n",
            ),
            (
                "        n += line[1]\n",
                "        if n:\n            continue\n        n += line[1]\n",
            ),
            (
                "    return n\n",
                "    x = [\n        n,\n    ]\n    return f\"{x!r:>{n}} ({n}\"\n",
            ),
            (
                "        n += line[1]\n",
                "        n += (lambda: (yield))() and 0\n",
            ),
            ("    return n\n", "    return n \\\n        + 1\n"),
            (
                "def total(cart):\n",
                "async def total(cart):\n    await cart.load()\n",
            ),
            ("    return n\n", "    else:\n        pass\n    return n\n"),
            ("self.lines = []", "self.lines = ['(', \"[\", '''{''']"),
        ];
        for (old, new) in fine {
            let result = CART.replacen(old, new, 1);
            assert_ne!(result, CART, "{new}");
            assert_eq!(fault(CART, &result), None, "{new}");
        }
    }

    /// A file that did not compile before is not judged.
    #[test]
    fn a_file_refused_before_is_not_judged() {
        let broken = CART.replace("return n\n", "return (n\n");
        assert_eq!(fault(&broken, &broken.replace("n = 0", "n = (")), None);
        let outside = format!("{CART}return 1\n");
        assert_eq!(fault(&outside, &outside.replace("]", "")), None);
    }

    /// A loop's `else:` is outside it; a function in a loop resets it; an
    /// `await` in a function not `async` is said as such.
    #[test]
    fn blocks_are_read_as_python_reads_them() {
        let base = "for x in y:\n    pass\n";
        let cases = [
            (
                "for x in y:\n    pass\nelse:\n    break\n",
                Some(("'break' outside loop", 4)),
            ),
            (
                "for x in y:\n    def f():\n        continue\n",
                Some(("'continue' not properly in loop", 3)),
            ),
            (
                "for x in y:\n    if x:\n        break\n    else:\n        continue\n",
                None,
            ),
            (
                "def f():\n    class A:\n        yield 1\n",
                Some(("'yield' outside function", 3)),
            ),
            (
                "def f():\n    await g()\n",
                Some(("'await' outside async function", 2)),
            ),
            ("async def f():\n    for x in y: await x\n", None),
            ("while True: break\n", None),
        ];
        for (result, want) in cases {
            let got = python_syntax(base, result).map(|b| (b.fault.python(), b.fault.line()));
            assert_eq!(got, want.map(|(s, l)| (s.to_string(), l)), "{result}");
        }
        assert!(
            python_syntax(base, "x = '''\n")
                .is_some_and(|b| matches!(b.fault, SyntaxFault::StringOpen { triple: true, .. }))
        );
    }

    /// `await` in a plain `def`, indented right: the advice is the
    /// function's `async`, not the indentation (tester round 42c, 10); a
    /// `return` at the module's level keeps the indentation advice.
    #[test]
    fn await_in_a_plain_function_is_told_to_make_it_async() {
        let before = "import asyncio\n\n\ndef fetch(u):\n    return u\n";
        let after = before.replace(
            "    return u\n",
            "    await asyncio.sleep(0)\n    return u\n",
        );
        let said = python_syntax(before, &after).expect("a fault").describe();
        assert!(
            said.ends_with(
                "make the function holding it an `async def` (and await it where it is called), \
                 or do not await there"
            ),
            "{said}"
        );
        let moved = before.replace("    return u\n", "    pass\nreturn u\n");
        let said = python_syntax(before, &moved).expect("a fault").describe();
        assert!(
            said.ends_with("(check the new text's indentation)"),
            "{said}"
        );
    }

    /// A tester's find (round 42c, 14): a `(` or `[` left open inside an
    /// f-string's field, closed by the field's `}`, is CPython's fault, in
    /// its words, at the field's line; a format spec's brackets and quotes
    /// are its text.
    #[test]
    fn an_f_string_fields_brackets_are_code() {
        let cases = [
            (
                "f\"wrote {len(n} items\"",
                Some("f-string: closing parenthesis '}' does not match opening parenthesis '('"),
            ),
            (
                "f\"{cart.lines[0} first\"",
                Some("f-string: closing parenthesis '}' does not match opening parenthesis '['"),
            ),
            (
                "f\"{cart.lines[0)}\"",
                Some("f-string: closing parenthesis ')' does not match opening parenthesis '['"),
            ),
            ("f\"{n)}\"", Some("f-string: unmatched ')'")),
            ("f\"{len(n\"", Some("f-string: unmatched '('")),
            ("f\"{n!r:{n}\"", Some("f-string: expecting '}'")),
            ("f\"{n:(>10} {n:'^8} {n!r:>{n}}\"", None),
            ("f\"{ {'a': n}['a']} {n != 0} {n=} {(lambda: n)()}\"", None),
            ("f'{n:\"}' + rf\"{{(\"", None),
        ];
        for (string, said) in cases {
            let result = CART.replace(
                "    return n\n",
                &format!("    print({string})\n    return n\n"),
            );
            let got = python_syntax(CART, &result);
            assert_eq!(
                got.as_ref().map(|b| b.fault.python()),
                said.map(str::to_string),
                "{string}"
            );
            if let Some(b) = got {
                assert_eq!(b.fault.line(), 15, "{string}");
                assert!(b.describe().contains("f-string"), "{string}");
            }
        }
        // A field over lines of a triple-quoted string: its bracket's line.
        let result = CART.replace(
            "    return n\n",
            "    s = f\"\"\"{n\n}{len(\nn}\"\"\"\n    return n\n",
        );
        assert_eq!(
            python_syntax(CART, &result).map(|b| b.fault.line()),
            Some(17)
        );
    }

    /// CPython's tokenizer speaks first: a field's fault gives way to a
    /// bracket closed by another kind below it, and to a bracket left open
    /// around it, not to one opened after it.
    #[test]
    fn a_fields_fault_gives_way_to_the_tokenizers() {
        let field = "f\"{len(n}\"";
        let cases = [
            (
                format!("x = {field}\ny = (]\n"),
                "closing parenthesis ']' does not match opening parenthesis '('",
            ),
            (format!("x = ({field},\n"), "'(' was never closed"),
            (
                format!("x = {field} + (1,\n"),
                "f-string: closing parenthesis '}' does not match opening parenthesis '('",
            ),
        ];
        for (result, said) in cases {
            assert_eq!(fault("x = 1\n", &result).as_deref(), Some(said), "{result}");
        }
    }

    /// A tester's find (round 42c, 14): a `yield` in a comprehension is
    /// CPython's fault, but in its first iterable or a lambda it is not.
    #[test]
    fn yield_in_a_comprehension_is_a_fault() {
        let cases = [
            (
                "[x for x in y if (yield x)]",
                Some("'yield' inside list comprehension"),
            ),
            (
                "{(yield x) for x in y}",
                Some("'yield' inside set comprehension"),
            ),
            (
                "{x: (yield) for x in y}",
                Some("'yield' inside dict comprehension"),
            ),
            (
                "sum(x for x in y if (yield))",
                Some("'yield' inside generator expression"),
            ),
            (
                "[x for x in y for z in (yield x)]",
                Some("'yield' inside list comprehension"),
            ),
            ("[x for x in (yield y)]", None),
            ("[lambda: (yield) for x in y]", None),
            ("(yield [x for x in y])", None),
        ];
        for (expr, said) in cases {
            let result = CART.replace("    return n\n", &format!("    n = {expr}\n    return n\n"));
            assert_eq!(fault(CART, &result).as_deref(), said, "{expr}");
        }
        let top = format!("{CART}z = [x for x in y if (yield x)]\n");
        assert_eq!(
            fault(CART, &top).as_deref(),
            Some("'yield' inside list comprehension")
        );
    }

    /// A tester's find (round 42c, 01): a `"""` an edit adds flips the
    /// pairing of the quotes below it and CPython stops far away: the
    /// sentence names the edit's line as the one opening the string, and
    /// the far line as where CPython stops; an edit taking a string's
    /// closing quotes names the string's line as running on, not opening
    /// anything new.
    #[test]
    fn a_triple_quote_the_edit_adds_is_named_not_the_far_line() {
        let file = "def a():\n    x = 1\n    return x\n\n\ndef b():\n    \"\"\"B's doc.\"\"\"\n\n\n\
                    def c():\n    \"\"\"C's doc.\n\n    More.\n    \"\"\"\n    return 'c'\n\n\n\
                    def d():\n    \"\"\"D isn't.\"\"\"\n";
        let added = file.replace("    x = 1\n", "    x = 1\n    \"\"\"Set x.\n");
        let first = said(file, &added);
        assert!(
            first.starts_with(
                "as the edit leaves it, Python refuses the file: line 3 (`\"\"\"Set x.`, in the \
                 new text) opens a triple-quoted string that closes only at line 8, so the quotes \
                 after it pair the other way: CPython reads the file to line 8 (`\"\"\"B's \
                 doc.\"\"\"`) before it fails"
            ),
            "{first}"
        );
        assert!(first.ends_with("(or take its quotes out)"), "{first}");
        let taken = file.replace("    More.\n    \"\"\"\n", "    More.\n");
        let second = said(file, &taken);
        assert!(
            second.contains(
                "the triple-quoted string line 11 (`\"\"\"C's doc.`) opens now runs on past the \
                 edit's lines and closes only at line 18, so the quotes after it pair the other \
                 way: CPython reads the file to line 18"
            ),
            "{second}"
        );
        // A quote left open in the new text itself is named as before.
        let own = file.replace("return 'c'", "return 'c");
        assert!(
            said(file, &own).contains("line 15 (`return 'c`) opens a string it does not close")
        );
    }
}
