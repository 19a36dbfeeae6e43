//! *Pure.* JavaScript and TypeScript faults an exact edit writes that the
//! statement-join and bracket checks do not see (tester 49, T-11, T-19):
//! - a typographic quote (`“` `”` `‘` `’`) standing in code, outside any
//!   string, comment, template or regular expression (`console.log(“hi”)`):
//!   node refuses the file (`SyntaxError: Invalid or unexpected token`);
//! - an `await` whose nearest function is not `async` (the edit adds the
//!   `await`, or removes the `async`): node refuses the file (`SyntaxError:
//!   await is only valid in async functions and the top level bodies of
//!   modules`);
//! - a `let`, `const` or `class` declaring a name that its block (or the
//!   file's top level) already declares with `let`, `const`, `class`,
//!   `var` or `function`: node refuses the file (`SyntaxError: Identifier
//!   'x' has already been declared`);
//! - a class field (`x = 1`) or method with a body (`render() {..}`)
//!   written a second time in one class body, same name, both static or
//!   both not: JavaScript keeps the later one and the first is never used
//!   (a second `constructor`: `SyntaxError: A class may only have one
//!   constructor`). Getter and setter pairs, TypeScript overload
//!   signatures (no body), computed names are not read;
//! - a line left ending in a binary operator (`+`, `-`, `*`, `&&`, `||`,
//!   `??`, `=`, `,`, ...) whose next line starts with what no operand can
//!   be: a statement's word (`return`, `const`, `if`, `throw`, ...) or a
//!   closing bracket (not after `,`: a trailing comma is allowed there).
//!   JavaScript reads on over the line break and refuses the file
//!   (`SyntaxError: Unexpected token 'return'`). Where the next line is an
//!   expression (`console.log(x)`), the two lines are silently read as
//!   one expression: not told from a continued one, not judged.
//!
//! - a top-level `const`, `let` or `class` below a top-level line that
//!   uses its name when the file loads (not inside a function, an arrow
//!   function, a class, a conditional block, nor after `?`, `&&`, `||`,
//!   `??` in its statement): node throws `ReferenceError: Cannot access
//!   'x' before initialization` (the temporal dead zone, tester 49 T-04).
//!   JavaScript only (a TypeScript type may share the name).
//!
//! Read by tokens ([`super::js_tokens`]); a file the reading cannot follow,
//! or holding JSX, is not judged. Where the reading is unsure it says
//! nothing: an `await` whose function is told only through a TypeScript
//! return type, a class body, or an arrow function with an expression body
//! on its way; a declaration after `declare`, a destructuring one. Only a
//! fault the file before did not hold (the same lines) is the edit's.

use std::collections::HashMap;

use super::doubt_asi::{NOT_VALUES, read_language};
use super::js_tokens::{Kind, Token, tokens};

/// A fault an edit writes into a JavaScript or TypeScript file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsEarly {
    /// `JavaScript` or `TypeScript`.
    pub language: &'static str,
    /// What it is.
    pub fault: EarlyFault,
}

/// A line (1-based) and its text, trimmed.
pub type Line = (usize, String);

/// The faults read (see the module).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EarlyFault {
    /// A typographic quote in code.
    Quote {
        /// The line.
        line: Line,
        /// The quote.
        quote: char,
    },
    /// An `await` in a function that is not `async`.
    Await {
        /// The line of the `await`.
        line: Line,
        /// The line that starts the function.
        function: Line,
    },
    /// A name declared twice in one block.
    Declared {
        /// The name.
        name: String,
        /// The first declaration.
        first: Line,
        /// The second one, with `let`, `const` or `class`.
        again: Line,
        /// Whether the block is the file's top level.
        top: bool,
    },
    /// A line ending in a binary operator above a line no operand starts.
    Dangling {
        /// The line ending in the operator.
        line: Line,
        /// The operator.
        operator: String,
        /// The next line.
        next: Line,
        /// Its first token.
        token: String,
    },
    /// A top-level name used at load time above its declaration.
    BeforeDeclared {
        /// The name.
        name: String,
        /// The line that uses it.
        used: Line,
        /// Its declaration.
        declared: Line,
    },
    /// Another language's form (tester 50 T-03): `and`/`or` between two
    /// operands on one line, or an `if`/`while` whose condition has no
    /// brackets.
    Foreign {
        /// The line.
        line: Line,
        /// The token node stops at (`and`, `value`, `!`).
        token: String,
        /// What is written, in words.
        what: &'static str,
        /// JavaScript's form.
        write: &'static str,
    },
    /// A class member written twice.
    Member {
        /// The class's name (`(anonymous)` for a class without one).
        class: String,
        /// The member's name (`static x` for a static one).
        name: String,
        /// The first definition.
        first: Line,
        /// The second one.
        again: Line,
    },
}

impl JsEarly {
    /// Whether the fault is a name defined twice (else a character or a
    /// statement the language refuses where it stands).
    pub fn defines_twice(&self) -> bool {
        matches!(
            self.fault,
            EarlyFault::Declared { .. } | EarlyFault::Member { .. }
        )
    }

    /// Whether the fault is an `await` outside an `async` function.
    pub fn outside(&self) -> bool {
        matches!(self.fault, EarlyFault::Await { .. })
    }

    /// Whether the fault is a name used before its declaration.
    pub fn early_use(&self) -> bool {
        matches!(self.fault, EarlyFault::BeforeDeclared { .. })
    }

    /// Whether the fault is a line left ending in an operator.
    pub fn dangling(&self) -> bool {
        matches!(self.fault, EarlyFault::Dangling { .. })
    }

    /// Whether the fault is another language's form.
    pub fn foreign(&self) -> bool {
        matches!(self.fault, EarlyFault::Foreign { .. })
    }

    /// [`Self::fault`] and what to send instead.
    pub fn describe(&self) -> String {
        let send = match &self.fault {
            EarlyFault::Quote { quote, line } => {
                let straight = if matches!(quote, '\u{201c}' | '\u{201d}') {
                    '"'
                } else {
                    '\''
                };
                format!(
                    "write the string's quotes on line {} as straight quotes ({straight})",
                    line.0
                )
            }
            EarlyFault::Await { function, .. } => format!(
                "mark the function of line {} `async` (and await its callers), or drop the \
                 `await`",
                function.0
            ),
            EarlyFault::Declared { name, again, .. } => format!(
                "give the declaration of line {} another name, or assign `{name}` there \
                 without declaring it again",
                again.0
            ),
            EarlyFault::Dangling { line, operator, .. } => format!(
                "complete the expression of line {} after its `{operator}`, or drop the `{operator}`",
                line.0
            ),
            EarlyFault::BeforeDeclared { used, declared, .. } => format!(
                "move the declaration of line {} above line {}, or the use below it",
                declared.0, used.0
            ),
            EarlyFault::Member { first, again, .. } => format!(
                "keep one of the two (merge them), or rename the one of line {} (the first \
                 is at line {})",
                again.0, first.0
            ),
            EarlyFault::Foreign { write, .. } => format!("write {write}"),
        };
        format!("{}: {send}", self.fault())
    }

    /// What the language does with the file, without what to send.
    pub fn fault(&self) -> String {
        let q = |line: &Line| crate::dialect::edit::shorten(&line.1);
        let node = match self.language {
            "TypeScript" => "tsc and node refuse the file",
            _ => "node refuses the file",
        };
        match &self.fault {
            EarlyFault::Quote { line, quote } => format!(
                "line {} (`{}`) has the typographic quote `{quote}` (U+{:04X}) in code, \
                 outside any string, comment or template: {node} (SyntaxError: Invalid or \
                 unexpected token)",
                line.0,
                q(line),
                *quote as u32
            ),
            EarlyFault::Await { line, function } => format!(
                "line {} (`{}`) awaits inside the function of line {} (`{}`), which is not \
                 `async`: {node} (SyntaxError: await is only valid in async functions and the \
                 top level bodies of modules)",
                line.0,
                q(line),
                function.0,
                q(function)
            ),
            EarlyFault::Declared {
                name,
                first,
                again,
                top,
            } => {
                let place = if *top {
                    "the file's top level"
                } else {
                    "the same block"
                };
                format!(
                    "line {} (`{}`) declares `{name}` again in {place}, which line {} (`{}`) \
                     declares already: {node} (SyntaxError: Identifier '{name}' has already \
                     been declared)",
                    again.0,
                    q(again),
                    first.0,
                    q(first)
                )
            }
            EarlyFault::Dangling {
                line,
                operator,
                next,
                token,
            } => format!(
                "line {} (`{}`) ends with `{operator}`, and line {} (`{}`) starts with \
                 `{token}`, which no operand can start: JavaScript reads on over the line break \
                 and {node} (SyntaxError: Unexpected token '{token}')",
                line.0,
                q(line),
                next.0,
                q(next)
            ),
            EarlyFault::BeforeDeclared {
                name,
                used,
                declared,
            } => format!(
                "line {} (`{}`) uses `{name}` when the file loads, above its declaration at \
                 line {} (`{}`): node throws ReferenceError: Cannot access '{name}' before \
                 initialization",
                used.0,
                q(used),
                declared.0,
                q(declared)
            ),
            EarlyFault::Foreign {
                line, token, what, ..
            } => format!(
                "line {} (`{}`) writes {what}, which JavaScript does not read: {node} \
                 (SyntaxError: Unexpected {} '{token}')",
                line.0,
                q(line),
                if token
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
                {
                    "identifier"
                } else {
                    "token"
                }
            ),
            EarlyFault::Member {
                class,
                name,
                first,
                again,
            } => {
                let effect = if name == "constructor" {
                    format!("{node} (SyntaxError: A class may only have one constructor)")
                } else {
                    "JavaScript keeps only the later one: the first is never used (eslint: \
                     no-dupe-class-members)"
                        .to_string()
                };
                format!(
                    "line {} (`{}`) defines `{name}` in class `{class}` a second time (first at \
                     line {}: `{}`): {effect}",
                    again.0,
                    q(again),
                    first.0,
                    q(first)
                )
            }
        }
    }
}

/// The first fault of the module's list that `result` (the file `path`
/// as an edit leaves it) holds and `original` did not. `None` when there
/// is none, the file is not JavaScript or TypeScript, or a text is not
/// read.
pub fn js_early_fault(path: &str, original: &str, result: &str) -> Option<JsEarly> {
    let language = read_language(path, original, result)?;
    // An edit that writes nothing (lines removed only) writes none of
    // these (an `async` removed: that line is changed, not removed), bar
    // a line above the removed ones left ending in an operator.
    let (_, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let writes = prefix + suffix < new.len();
    let dangles = prefix
        .checked_sub(1)
        .and_then(|above| new.get(above))
        .is_some_and(|l| {
            l.trim_end()
                .ends_with(['+', '-', '*', '/', '%', '&', '|', '^', '=', ',', '?'])
        });
    if !writes && !dangles {
        return None;
    }
    let typescript = language == "TypeScript";
    let module = typescript || path.ends_with(".mjs");
    let after = faults(result, typescript, module)?;
    if after.is_empty() {
        return None;
    }
    let before = faults(original, typescript, module)?;
    let mut held: HashMap<Key, usize> = HashMap::new();
    for (key, _) in before {
        *held.entry(key).or_default() += 1;
    }
    after
        .into_iter()
        .find_map(|(key, fault)| match held.get_mut(&key) {
            Some(n) if *n > 0 => {
                *n -= 1;
                None
            }
            _ => Some(JsEarly { language, fault }),
        })
}

/// What tells a fault of the file before from one the edit writes: its
/// kind and the texts of its lines (line numbers move with any edit).
type Key = (u8, String, String, String);

/// Every fault of `text` (see the module), each with its [`Key`], in the
/// order of their lines; `None` where the text is not read.
fn faults(text: &str, typescript: bool, module: bool) -> Option<Vec<(Key, EarlyFault)>> {
    let tokens = tokens(text)?;
    let lines: Vec<&str> = text.lines().collect();
    let line = |n: usize| -> Line {
        (
            n + 1,
            lines.get(n).map_or(String::new(), |l| l.trim().to_string()),
        )
    };
    let mut read = Read::new(&tokens, typescript);
    read.module = module || read.imports_or_exports();
    let mut out: Vec<(usize, Key, EarlyFault)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Kind::Punct
            && let Some(quote) = t.text.chars().next()
            && matches!(quote, '\u{2018}' | '\u{2019}' | '\u{201c}' | '\u{201d}')
        {
            let at = line(t.line);
            let key = (0, at.1.clone(), String::new(), String::new());
            out.push((t.line, key, EarlyFault::Quote { line: at, quote }));
        }
        if let Some(next) = read.dangling(i) {
            let (at, below) = (line(t.line), line(self_line(&tokens, next)));
            let key = (4, at.1.clone(), below.1.clone(), String::new());
            out.push((
                t.line,
                key,
                EarlyFault::Dangling {
                    line: at,
                    operator: t.text.to_string(),
                    next: below,
                    token: tokens[next].text.to_string(),
                },
            ));
        }
        if let Some((token, what, write)) = foreign(&tokens, i) {
            let at = line(t.line);
            let key = (6, at.1.clone(), token.to_string(), String::new());
            out.push((
                t.line,
                key,
                EarlyFault::Foreign {
                    line: at,
                    token: token.to_string(),
                    what,
                    write,
                },
            ));
        }
        if let Some(f) = read.await_outside(i) {
            let (at, function) = (line(t.line), line(f));
            let key = (1, at.1.clone(), function.1.clone(), String::new());
            out.push((t.line, key, EarlyFault::Await { line: at, function }));
        }
    }
    for (name, first, again, top) in read.declared_twice() {
        let (first, again) = (line(first), line(again));
        let key = (2, name.to_string(), first.1.clone(), again.1.clone());
        out.push((
            again.0 - 1,
            key,
            EarlyFault::Declared {
                name: name.to_string(),
                first,
                again,
                top,
            },
        ));
    }
    if !typescript {
        for (name, used, declared) in read.used_before_declared() {
            let (used, declared) = (line(used), line(declared));
            let key = (5, name.to_string(), used.1.clone(), declared.1.clone());
            out.push((
                declared.0 - 1,
                key,
                EarlyFault::BeforeDeclared {
                    name: name.to_string(),
                    used,
                    declared,
                },
            ));
        }
    }
    for (class, name, first, again) in read.members_twice() {
        let (first, again) = (line(first), line(again));
        let key = (
            3,
            format!("{class}.{name}"),
            first.1.clone(),
            again.1.clone(),
        );
        out.push((
            again.0 - 1,
            key,
            EarlyFault::Member {
                class,
                name,
                first,
                again,
            },
        ));
    }
    out.sort_by_key(|(l, ..)| *l);
    Some(out.into_iter().map(|(_, k, f)| (k, f)).collect())
}

/// Another language's form at `tokens[i]` (see [`EarlyFault::Foreign`]):
/// the token node stops at, the form in words, and JavaScript's. `and`
/// or `or` is one when an operand ends right before it on its line (a
/// name that is no keyword, a number, a string, `)`, `]`) and one starts
/// right after it (a name, a number, a string, `(`, `!`); `if` or
/// `while` is one when a name, a number, a string or `!` follows it on
/// its line, not after `.` (a property named so).
fn foreign<'a>(tokens: &[Token<'a>], i: usize) -> Option<(&'a str, &'static str, &'static str)> {
    let t = &tokens[i];
    if t.kind != Kind::Word {
        return None;
    }
    let next = tokens.get(i + 1).filter(|n| n.line == t.line)?;
    let prev = i.checked_sub(1).map(|p| &tokens[p]);
    // Anything an operand may start with: a word (bar the operators spelled
    // as words), a literal, a template, a regular expression, a bracket or
    // a prefix operator.
    let starts_operand = |n: &Token| match n.kind {
        Kind::Word => !matches!(n.text, "in" | "instanceof" | "of" | "as" | "satisfies"),
        Kind::Number | Kind::Str | Kind::TemplateEnd | Kind::TemplateHead | Kind::Regex => true,
        Kind::Punct => matches!(n.text, "(" | "!" | "[" | "-" | "+" | "~"),
    };
    match t.text {
        "and" | "or" => {
            let prev = prev.filter(|p| p.line == t.line)?;
            let ends_operand = match prev.kind {
                // Not a keyword nor a modifier (`get and()`, `static or()`).
                Kind::Word => !NOT_VALUES.contains(&prev.text),
                Kind::Number | Kind::Str | Kind::TemplateEnd | Kind::Regex => true,
                // Not the `)` of an `if`, `while`, `for` or `with` head: the
                // statement after it may call a function named `and`.
                Kind::Punct if prev.text == ")" => {
                    !prev.head.and_then(|h| tokens.get(h)).is_some_and(|h| {
                        h.kind == Kind::Word && matches!(h.text, "if" | "while" | "for" | "with")
                    })
                }
                Kind::Punct => prev.text == "]",
                _ => false,
            };
            (ends_operand && starts_operand(next)).then(|| {
                if t.text == "and" {
                    (t.text, "`and` between two operands", "`&&`")
                } else {
                    (t.text, "`or` between two operands", "`||`")
                }
            })
        }
        "if" | "while" => {
            if prev.is_some_and(|p| p.kind == Kind::Punct && matches!(p.text, "." | "?.")) {
                return None;
            }
            (next.kind != Kind::Punct && starts_operand(next)
                || next.kind == Kind::Punct && matches!(next.text, "!" | "-" | "+" | "~"))
            .then_some((
                next.text,
                "a condition without the brackets JavaScript needs around it",
                "the condition in brackets: `if (..) {`",
            ))
        }
        _ => None,
    }
}

/// The line (0-based) of `tokens[i]`.
fn self_line(tokens: &[Token], i: usize) -> usize {
    tokens.get(i).map_or(0, |t| t.line)
}

/// Binary and assignment operators: a line ending in one goes on.
const BINARY: [&str; 38] = [
    "+", "-", "*", "/", "%", "**", "&&", "||", "??", "&", "|", "^", "<<", ">>", ">>>", "==", "===",
    "!=", "!==", "<=", ">=", "=", "+=", "-=", "*=", "/=", "%=", "**=", "&&=", "||=", "??=", "&=",
    "|=", "^=", "<<=", ">>=", ">>>=", ",",
];

/// Words that start a statement and never an operand.
const STATEMENT_WORDS: [&str; 15] = [
    "return", "const", "var", "if", "for", "while", "throw", "switch", "try", "do", "break",
    "continue", "export", "else", "case",
];

/// What a `{` opens, as far as an `await` in it is concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// An `async` function's body.
    Async,
    /// The body of a function that is not `async`.
    Plain,
    /// A block or an object literal: the function around it counts.
    Block,
    /// Not told.
    Unknown,
}

/// Words that make a `)` before a `{` a statement's head, not a function's
/// parameters.
const STATEMENT_HEADS: [&str; 7] = ["if", "for", "while", "switch", "catch", "with", "await"];

/// Words a class member's name may follow.
const MODIFIERS: [&str; 12] = [
    "static",
    "async",
    "get",
    "set",
    "public",
    "private",
    "protected",
    "readonly",
    "override",
    "declare",
    "abstract",
    "accessor",
];

/// Words no declaration names.
const RESERVED: [&str; 10] = [
    "enum",
    "extends",
    "implements",
    "in",
    "of",
    "instanceof",
    "await",
    "yield",
    "let",
    "static",
];

/// A file's tokens and, for each, the index of the bracket it stands in
/// (a `(`, `[`, `{` token or a template's `${` part; `None`: the top
/// level). A closer stands in the bracket around its pair.
struct Read<'t, 'a> {
    tokens: &'t [Token<'a>],
    inside: Vec<Option<usize>>,
    /// For each opening bracket, its closer's index.
    closer: Vec<Option<usize>>,
    typescript: bool,
    /// Read as a module (`await` a keyword everywhere), not a script
    /// (where `await (x)` calls a function named `await`).
    module: bool,
}

impl<'t, 'a> Read<'t, 'a> {
    fn new(tokens: &'t [Token<'a>], typescript: bool) -> Self {
        let mut stack: Vec<usize> = Vec::new();
        let mut inside = Vec::with_capacity(tokens.len());
        let mut closer = vec![None; tokens.len()];
        for (i, t) in tokens.iter().enumerate() {
            let closes = match t.kind {
                Kind::Punct => matches!(t.text, ")" | "]" | "}"),
                Kind::TemplateHead | Kind::TemplateEnd => t.text.starts_with('}'),
                _ => false,
            };
            if closes && let Some(open) = stack.pop() {
                closer[open] = Some(i);
            }
            inside.push(stack.last().copied());
            let opens = match t.kind {
                Kind::Punct => matches!(t.text, "(" | "[" | "{"),
                Kind::TemplateHead => true,
                _ => false,
            };
            if opens {
                stack.push(i);
            }
        }
        Read {
            tokens,
            inside,
            closer,
            typescript,
            module: false,
        }
    }

    fn text(&self, i: usize) -> &'a str {
        self.tokens.get(i).map_or("", |t| t.text)
    }

    /// Whether `tokens[i]` is the word `w`.
    fn is(&self, i: Option<usize>, w: &str) -> bool {
        i.and_then(|i| self.tokens.get(i))
            .is_some_and(|t| t.kind == Kind::Word && t.text == w)
    }

    /// What the `{` at `b` opens (see [`Frame`]).
    fn frame(&self, b: usize) -> Frame {
        let Some(p) = b.checked_sub(1) else {
            return Frame::Block;
        };
        let prev = &self.tokens[p];
        match prev.text {
            "=>" => self.arrow(p),
            ")" if prev.line == self.tokens[b].line => self.parameters(p),
            ";" | "{" | "else" | "try" | "finally" | "do" | "=" | "(" | "," | "return" | "?"
            | "[" | "||" | "&&" | "??" => Frame::Block,
            ":" if !self.typescript => Frame::Block,
            _ => Frame::Unknown,
        }
    }

    /// The frame of an arrow function whose `=>` is at `a`.
    fn arrow(&self, a: usize) -> Frame {
        let Some(p) = a.checked_sub(1) else {
            return Frame::Unknown;
        };
        let params = &self.tokens[p];
        let head = match (params.kind, params.text) {
            (Kind::Punct, ")") => params.head,
            (Kind::Word, _) => p.checked_sub(1),
            _ => return Frame::Unknown,
        };
        match head.map(|h| &self.tokens[h]) {
            Some(t) if t.kind == Kind::Word && t.text == "async" => Frame::Async,
            Some(t) if self.typescript && matches!(t.text, ">" | ":") => Frame::Unknown,
            _ => Frame::Plain,
        }
    }

    /// The frame of a `{` after the `)` at `close`.
    fn parameters(&self, close: usize) -> Frame {
        let Some(h) = self.tokens[close].head else {
            return Frame::Unknown;
        };
        let head = &self.tokens[h];
        if head.kind == Kind::Word && STATEMENT_HEADS.contains(&head.text) {
            return Frame::Block;
        }
        let async_before = |at: Option<usize>| {
            if self.is(at, "async") {
                Frame::Async
            } else {
                Frame::Plain
            }
        };
        match (head.kind, head.text) {
            (Kind::Word, "function") => async_before(h.checked_sub(1)),
            (Kind::Punct, "*") if self.is(h.checked_sub(1), "function") => {
                async_before(h.checked_sub(2))
            }
            (Kind::Word, _) => {
                // A named function, or a method (`*` before a generator's).
                let mut p = h.checked_sub(1);
                if p.is_some_and(|p| self.text(p) == "*") {
                    p = p.and_then(|p| p.checked_sub(1));
                }
                if self.is(p, "function") {
                    return async_before(p.and_then(|p| p.checked_sub(1)));
                }
                if self.is(p, "async") {
                    return Frame::Async;
                }
                let member_start = p.is_none_or(|p| {
                    let t = &self.tokens[p];
                    t.end_line < head.line
                        || matches!(t.text, "{" | "}" | ";" | "," | "static" | "get" | "set")
                        || MODIFIERS.contains(&t.text)
                });
                if member_start {
                    Frame::Plain
                } else {
                    Frame::Unknown
                }
            }
            _ => Frame::Unknown,
        }
    }

    /// Whether an `import` or `export` statement stands at the top level.
    fn imports_or_exports(&self) -> bool {
        self.tokens.iter().enumerate().any(|(i, t)| {
            self.inside[i].is_none()
                && t.kind == Kind::Word
                && matches!(t.text, "import" | "export")
                && !matches!(self.text(i + 1), "(" | "." | "=")
        })
    }

    /// For an operator at `i` ending its line above a line no operand
    /// starts (see the module): that line's first token.
    fn dangling(&self, i: usize) -> Option<usize> {
        let t = &self.tokens[i];
        if t.kind != Kind::Punct || !BINARY.contains(&t.text) {
            return None;
        }
        let n = i + 1;
        let next = self.tokens.get(n)?;
        if next.line <= t.end_line {
            return None;
        }
        let stops = match next.kind {
            Kind::Word => {
                STATEMENT_WORDS.contains(&next.text)
                    || (next.text == "let"
                        && self
                            .tokens
                            .get(n + 1)
                            .is_some_and(|x| x.kind == Kind::Word && x.line == next.line))
            }
            Kind::Punct => t.text != "," && matches!(next.text, ")" | "]" | "}"),
            _ => false,
        };
        stops.then_some(n)
    }

    /// For an `await` at `i` whose nearest function is surely not `async`:
    /// that function's first line (0-based).
    fn await_outside(&self, i: usize) -> Option<usize> {
        let t = &self.tokens[i];
        if t.kind != Kind::Word || t.text != "await" {
            return None;
        }
        // `x.await`, `{ await: 1 }`: a name, not the operator.
        if i.checked_sub(1)
            .is_some_and(|p| matches!(self.text(p), "." | "?."))
            || matches!(
                self.text(i + 1),
                ":" | "=" | "," | ")" | ";" | "]" | "}" | "." | ""
            )
        {
            return None;
        }
        // In a script, `await (x)`, `await [x]`, await`x` read as a name
        // called or indexed: node loads the file (and throws when the line
        // runs); not said.
        let next = self.tokens.get(i + 1);
        if !self.module
            && next.is_some_and(|n| {
                matches!(n.text, "(" | "[")
                    || matches!(n.kind, Kind::TemplateHead | Kind::TemplateEnd)
            })
        {
            return None;
        }
        let mut chain = Vec::new();
        let mut at = self.inside[i];
        let body = loop {
            let b = at?;
            chain.push(b);
            if self.tokens[b].text == "{" {
                match self.frame(b) {
                    Frame::Async | Frame::Unknown => return None,
                    Frame::Plain => break b,
                    Frame::Block => {}
                }
            }
            at = self.inside[b];
        };
        // An arrow function with an expression body on the way may be
        // the `await`'s own (`async x => await x`): not told.
        let arrow_between = (body + 1..i).any(|k| {
            self.tokens[k].text == "=>"
                && self.text(k + 1) != "{"
                && self.inside[k].is_some_and(|o| chain.contains(&o))
        });
        if arrow_between {
            return None;
        }
        Some(self.function_line(body))
    }

    /// The first line of the function whose body's `{` is at `b`: its
    /// parameters' opening line, or the arrow's.
    fn function_line(&self, b: usize) -> usize {
        let close = b.saturating_sub(1);
        let t = &self.tokens[close];
        let head = match t.text {
            ")" => t.head,
            _ => t.head.or(close.checked_sub(1)),
        };
        head.map_or(t.line, |h| self.tokens[h].line)
    }

    /// Whether `tokens[i]` starts a statement.
    fn statement_start(&self, i: usize) -> bool {
        let Some(p) = i.checked_sub(1) else {
            return true;
        };
        let prev = &self.tokens[p];
        if matches!(prev.text, ";" | "{" | "}" | "export" | "default") {
            return true;
        }
        prev.end_line < self.tokens[i].line
            && (prev.kind != Kind::Punct || matches!(prev.text, ")" | "]" | "++" | "--"))
    }

    /// Each name declared twice in one block, the second time with `let`,
    /// `const` or `class`: the name, the first line, the second (0-based)
    /// and whether the block is the top level.
    fn declared_twice(&self) -> Vec<(&'a str, usize, usize, bool)> {
        // Each block's names: the first line of each, and whether it was
        // declared lexically.
        let mut seen: HashMap<(Option<usize>, &str), (usize, bool)> = HashMap::new();
        let mut out = Vec::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if t.kind != Kind::Word {
                continue;
            }
            let block = self.inside[i];
            if block.is_some_and(|b| self.tokens[b].text != "{" || self.frame(b) == Frame::Unknown)
            {
                // A class body, a TypeScript body, brackets: not read.
                continue;
            }
            let lexical = matches!(t.text, "let" | "const" | "class");
            if !(lexical || matches!(t.text, "var" | "function"))
                || !self.statement_start(i)
                || self.is(i.checked_sub(1), "declare")
            {
                continue;
            }
            let Some(name_at) = self.declared_name(i) else {
                continue;
            };
            let name = self.tokens[name_at];
            match seen.get(&(block, name.text)) {
                Some(&(first, first_lexical)) if lexical || first_lexical => {
                    out.push((name.text, first, name.line, block.is_none()));
                }
                Some(_) => {}
                None => {
                    seen.insert((block, name.text), (name.line, lexical));
                }
            }
        }
        out
    }

    /// The index of the name the declaration word at `i` declares, when
    /// it is one plain name.
    fn declared_name(&self, i: usize) -> Option<usize> {
        let word = self.tokens[i].text;
        let mut n = i + 1;
        if word == "function" && self.text(n) == "*" {
            n += 1;
        }
        let name = self.tokens.get(n)?;
        if name.kind != Kind::Word
            || RESERVED.contains(&name.text)
            || name.line != self.tokens[i].line
        {
            return None;
        }
        let next = self.tokens.get(n + 1);
        let fits = match word {
            "let" | "const" | "var" => next.is_none_or(|x| {
                matches!(x.text, "=" | ";" | "," | ":" | "!") || x.line > name.line
            }),
            "class" => next.is_some_and(|x| matches!(x.text, "{" | "extends" | "implements")),
            _ => next.is_some_and(|x| x.text == "("),
        };
        fits.then_some(n)
    }

    /// Each top-level `const`, `let` or `class` name a top-level line
    /// above it uses when the file loads (see the module): the name, the
    /// using line and the declaring one (0-based).
    fn used_before_declared(&self) -> Vec<(&'a str, usize, usize)> {
        let mut declared: HashMap<&str, usize> = HashMap::new();
        for (i, t) in self.tokens.iter().enumerate() {
            if self.inside[i].is_none()
                && t.kind == Kind::Word
                && matches!(t.text, "const" | "let" | "class")
                && self.statement_start(i)
                && let Some(n) = self.declared_name(i)
            {
                declared.entry(self.tokens[n].text).or_insert(n);
            }
        }
        let mut out = Vec::new();
        let mut said: Vec<&str> = Vec::new();
        for (u, t) in self.tokens.iter().enumerate() {
            let Some(&at) = declared.get(t.text) else {
                continue;
            };
            if t.kind != Kind::Word || u >= at || said.contains(&t.text) || !self.runs_at_load(u) {
                continue;
            }
            said.push(t.text);
            out.push((t.text, t.line, self.tokens[at].line));
        }
        out
    }

    /// Whether the name at `u` is a reference that runs when the file
    /// loads: at the top level or in a call's, an array's or an object
    /// literal's brackets there, in a statement holding no function, class
    /// or condition before it.
    fn runs_at_load(&self, u: usize) -> bool {
        let prev = u.checked_sub(1).map_or("", |p| self.text(p));
        let next = self.text(u + 1);
        if matches!(
            prev,
            "." | "?." | "function" | "class" | "const" | "let" | "var" | "import"
        ) || (next == ":" && matches!(prev, "{" | ","))
        {
            return false;
        }
        let mut at = self.inside[u];
        while let Some(o) = at {
            let fits = match self.text(o) {
                "{" => matches!(
                    o.checked_sub(1).map_or("", |p| self.text(p)),
                    "=" | "(" | "," | "["
                ),
                "(" | "[" => {
                    !self.closer[o].is_some_and(|c| matches!(self.text(c + 1), "{" | "=>"))
                }
                _ => true,
            };
            if !fits {
                return false;
            }
            at = self.inside[o];
        }
        let Some(start) = (0..=u)
            .rev()
            .find(|&k| self.inside[k].is_none() && self.statement_start(k))
        else {
            return false;
        };
        let first = self.text(start);
        !matches!(
            first,
            "if" | "for"
                | "while"
                | "do"
                | "switch"
                | "try"
                | "else"
                | "function"
                | "class"
                | "async"
                | "import"
                | "export"
                | "declare"
        ) && !(start..u).any(|k| {
            matches!(
                self.text(k),
                "=>" | "function" | "class" | "?" | "&&" | "||" | "??" | "typeof"
            )
        })
    }

    /// Each class member defined twice in one class body: the class's
    /// name, the member's, the first line and the second (0-based).
    fn members_twice(&self) -> Vec<(String, String, usize, usize)> {
        let mut out = Vec::new();
        for (c, t) in self.tokens.iter().enumerate() {
            if t.kind != Kind::Word
                || t.text != "class"
                || c.checked_sub(1)
                    .is_some_and(|p| matches!(self.text(p), "." | "?."))
            {
                continue;
            }
            // The body: the first `{` after `class` in the same bracket.
            let Some(body) = (c + 1..self.tokens.len())
                .take_while(|&k| self.text(k) != ";")
                .find(|&k| self.text(k) == "{" && self.inside[k] == self.inside[c])
            else {
                continue;
            };
            let class = match self.tokens.get(c + 1) {
                Some(n) if n.kind == Kind::Word && n.text != "extends" => n.text.to_string(),
                _ => "(anonymous)".to_string(),
            };
            let mut seen: HashMap<String, usize> = HashMap::new();
            let members = (body + 1..self.tokens.len())
                .take_while(|&k| self.inside[k] == Some(body) || self.inside[k] > Some(body))
                .filter(|&k| self.inside[k] == Some(body) && self.member_start(k, body));
            for k in members {
                if let Some((name, line)) = self.member(k) {
                    match seen.get(&name) {
                        Some(&first) => out.push((class.clone(), name, first, line)),
                        None => {
                            seen.insert(name, line);
                        }
                    }
                }
            }
        }
        out
    }

    /// Whether the token at `k` in the class body opened at `body` starts
    /// a member.
    fn member_start(&self, k: usize, body: usize) -> bool {
        let p = k - 1;
        if p == body {
            return true;
        }
        let prev = &self.tokens[p];
        matches!(prev.text, ";" | "}")
            || (prev.end_line < self.tokens[k].line
                && (prev.kind != Kind::Punct || matches!(prev.text, ")" | "]")))
    }

    /// The member starting at `k`, when it is a field with a value or a
    /// method with a body: its key (`static x`, `get x`, `x`) and line.
    fn member(&self, k: usize) -> Option<(String, usize)> {
        let mut n = k;
        let mut is_static = false;
        let mut accessor = "";
        while let Some(t) = self.tokens.get(n)
            && t.kind == Kind::Word
            && MODIFIERS.contains(&t.text)
            && self.tokens.get(n + 1).is_some_and(|x| {
                x.line == t.line
                    && (matches!(x.kind, Kind::Word | Kind::Str | Kind::Number)
                        || matches!(x.text, "*" | "["))
            })
        {
            match t.text {
                "static" => is_static = true,
                "get" | "set" => accessor = t.text,
                _ => {}
            }
            n += 1;
        }
        if self.text(n) == "*" {
            n += 1;
        }
        let name = self.tokens.get(n)?;
        let plain = match name.kind {
            Kind::Word => name.text.to_string(),
            Kind::Number => name.text.to_string(),
            Kind::Str => name.text[1..name.text.len() - 1].to_string(),
            _ => return None,
        };
        let mut after = n + 1;
        if matches!(self.text(after), "?" | "!") {
            after += 1;
        }
        let defines = match self.text(after) {
            "=" => true,
            "(" => {
                // A method with a body: its `)` followed by `{`.
                self.closer[after].is_some_and(|close| self.text(close + 1) == "{")
            }
            _ => false,
        };
        if !defines {
            return None;
        }
        let key = match (is_static, accessor) {
            (true, "") => format!("static {plain}"),
            (true, a) => format!("static {a} {plain}"),
            (false, "") => plain,
            (false, a) => format!("{a} {plain}"),
        };
        Some((key, name.line))
    }
}

#[cfg(test)]
mod tests {
    use super::js_early_fault;

    /// The fault said for `old` → `new` in `text` named `path`.
    fn said(path: &str, text: &str, old: &str, new: &str) -> Option<String> {
        assert!(text.contains(old), "{old}");
        js_early_fault(path, text, &text.replacen(old, new, 1)).map(|f| f.fault())
    }

    const APP: &str = "import fs from 'fs'\n\nexport async function load(p) {\n  const data = await fs.promises.readFile(p)\n  return data\n}\n\nfunction show(x) {\n  const label = 'x'\n  console.log(label, x)\n}\n";

    #[test]
    fn a_typographic_quote_in_code_is_doubted() {
        assert_eq!(
            said(
                "a.js",
                APP,
                "const label = 'x'",
                "const label = \u{201c}x\u{201d}"
            )
            .as_deref(),
            Some(
                "line 9 (`const label = \u{201c}x\u{201d}`) has the typographic quote \
                 `\u{201c}` (U+201C) in code, outside any string, comment or template: node \
                 refuses the file (SyntaxError: Invalid or unexpected token)"
            )
        );
        // In a string, a comment, a template: no fault.
        for new in [
            "const label = '\u{201c}x\u{201d}'",
            "const label = 'x' // \u{2018}x\u{2019}",
            "const label = `\u{2018}x\u{2019}`",
        ] {
            assert_eq!(said("a.js", APP, "const label = 'x'", new), None, "{new}");
        }
    }

    #[test]
    fn an_await_in_a_function_not_async_is_doubted() {
        let added = said(
            "a.js",
            APP,
            "  console.log(label, x)\n",
            "  console.log(label, await x)\n",
        );
        assert_eq!(
            added.as_deref(),
            Some(
                "line 10 (`console.log(label, await x)`) awaits inside the function of line 8 \
                 (`function show(x) {`), which is not `async`: node refuses the file \
                 (SyntaxError: await is only valid in async functions and the top level bodies \
                 of modules)"
            )
        );
        // `async` removed: said, in TypeScript too.
        assert!(said("a.js", APP, "export async function", "export function").is_some());
        let ts = APP.replace("(p)", "(p: string)");
        assert!(
            said("a.ts", &ts, "export async function", "export function")
                .is_some_and(|s| s.contains("tsc and node refuse the file"))
        );
        // Arrows and methods: said where plain, not where async.
        let arrow =
            "const f = (x) => {\n  return x\n}\nclass A {\n  run() {\n    return 1\n  }\n}\n";
        assert!(said("a.js", arrow, "return x", "return await x").is_some());
        assert!(said("a.js", arrow, "return 1", "return await 1").is_some());
        for (old, new, body) in [
            ("(x) => {", "async (x) => {", "return x"),
            ("  run() {", "  async run() {", "return 1"),
        ] {
            let text = arrow.replacen(old, new, 1);
            let awaited = body.replace("return ", "return await ");
            assert_eq!(said("a.js", &text, body, &awaited), None, "{new}");
        }
        // Not the operator, or not told: no fault.
        for new in [
            "  const o = { await: 1 }\n",
            "  items.map(async (i) => await i)\n",
            "  if (x) {\n    x.await(1)\n  }\n",
        ] {
            assert_eq!(
                said("a.js", APP, "  console.log(label, x)\n", new),
                None,
                "{new}"
            );
        }
        // A script's `await (..)`: a call of a function named `await`
        // (node loads the file); in a module, refused.
        let script = "function f(u) {\n  return g(u)\n}\n";
        let call = "return await (0, g)(u)";
        assert_eq!(said("a.js", script, "return g(u)", call), None);
        assert!(said("a.mjs", script, "return g(u)", call).is_some());
        // Top level (a module's): not read.
        assert_eq!(
            said(
                "a.mjs",
                APP,
                "\nfunction show",
                "\nawait load(1)\nfunction show"
            ),
            None
        );
    }

    #[test]
    fn a_name_declared_again_in_its_block_is_doubted() {
        assert_eq!(
            said(
                "a.js",
                APP,
                "  console.log(label, x)\n",
                "  let label = 'y'\n  console.log(label, x)\n"
            )
            .as_deref(),
            Some(
                "line 10 (`let label = 'y'`) declares `label` again in the same block, which \
                 line 9 (`const label = 'x'`) declares already: node refuses the file \
                 (SyntaxError: Identifier 'label' has already been declared)"
            )
        );
        assert!(
            said(
                "a.js",
                APP,
                "\nfunction show",
                "\nclass show {}\nfunction show"
            )
            .is_some_and(|s| s.contains("again in the file's top level"))
        );
        // Another block, a var twice, a function twice (TypeScript
        // overloads), an assignment: no fault.
        for new in [
            "  if (x) {\n    let label = 'y'\n  }\n",
            "  var v = 1\n  var v = 2\n",
            "  label = 'y'\n",
        ] {
            assert_eq!(
                said("a.js", APP, "  console.log(label, x)\n", new),
                None,
                "{new}"
            );
        }
        let overloads = "function f(a: string): void\nfunction f(a: any) {}\n";
        assert_eq!(said("a.ts", overloads, "\n", "\n\n"), None);
    }

    #[test]
    fn a_line_left_ending_in_an_operator_above_a_statement_is_doubted() {
        let concat =
            "function greet(name) {\n  const text = 'Hello, ' +\n    name\n  return text\n}\n";
        assert_eq!(
            said("a.js", concat, "    name\n", "").as_deref(),
            Some(
                "line 2 (`const text = 'Hello, ' +`) ends with `+`, and line 3 (`return text`) \
                 starts with `return`, which no operand can start: JavaScript reads on over the \
                 line break and node refuses the file (SyntaxError: Unexpected token 'return')"
            )
        );
        let ret = "function f(a, b) {\n  return a &&\n    b\n}\n";
        assert!(said("a.js", ret, "    b\n", "").is_some_and(|s| s.contains("'}'")));
        // A trailing comma, an operand on the next line, an expression
        // statement below (not told): no fault.
        let list = "const xs = [\n  1,\n  2,\n]\n";
        assert_eq!(said("a.js", list, "  2,\n", ""), None);
        assert_eq!(
            said("a.js", concat, "    name\n", "    name +\n    '!'\n"),
            None
        );
        let call = "function g(name) {\n  const text = 'Hi ' +\n    name\n  log(text)\n}\n";
        assert_eq!(said("a.js", call, "    name\n", ""), None);
    }

    #[test]
    fn a_name_used_at_load_above_its_declaration_is_doubted() {
        // A use through a function called at load: not read.
        let text = "const double = (x) => x * base\nconsole.log(double(3))\n";
        let end = "console.log(double(3))\n";
        assert_eq!(
            said("a.js", text, end, &format!("{end}const base = 2\n")),
            None
        );
        assert_eq!(
            said(
                "a.js",
                "run()\n",
                "run()\n",
                "module.exports = { helper }\nconst helper = 1\n"
            )
            .as_deref(),
            Some(
                "line 1 (`module.exports = { helper }`) uses `helper` when the file loads, \
                 above its declaration at line 2 (`const helper = 1`): node throws \
                 ReferenceError: Cannot access 'helper' before initialization"
            )
        );
        // Inside a function, an arrow, a condition, a property key: no
        // fault.
        for above in [
            "function f() {\n  return helper\n}\n",
            "const g = () => helper\n",
            "if (x) {\n  helper()\n}\n",
            "const o = { helper: 1 }\n",
            "const h = x && helper\n",
        ] {
            let new = format!("{above}const helper = 1\n");
            assert_eq!(said("a.js", "run()\n", "run()\n", &new), None, "{above}");
        }
    }

    #[test]
    fn a_class_member_written_twice_is_doubted() {
        let class = "export class App {\n  count = 0\n  render() {\n    return this.count\n  }\n  get size() {\n    return 1\n  }\n}\n";
        assert_eq!(
            said(
                "a.js",
                class,
                "  get size() {",
                "  render() {\n    return 2\n  }\n  get size() {"
            )
            .as_deref(),
            Some(
                "line 6 (`render() {`) defines `render` in class `App` a second time (first at \
                 line 3: `render() {`): JavaScript keeps only the later one: the first is never \
                 used (eslint: no-dupe-class-members)"
            )
        );
        assert!(said("a.js", class, "  render() {", "  count = 1\n  render() {").is_some());
        // A setter beside the getter, a static twin, an overload, a
        // method of another class: no fault.
        for new in [
            "  set size(v) {}\n  get size() {",
            "  static render() {}\n  get size() {",
            "  render(a: number): void\n  get size() {",
        ] {
            assert_eq!(said("a.ts", class, "  get size() {", new), None, "{new}");
        }
        let two = format!("{class}class B {{\n  x = 1\n}}\n");
        assert_eq!(
            said("a.js", &two, "  x = 1\n", "  x = 1\n  render() {}\n"),
            None
        );
    }

    /// Tester 50 T-03: `and`/`or` between operands and an `if` whose
    /// condition has no brackets, with node's words; the same words as
    /// names, properties, methods and in strings are no fault.
    #[test]
    fn another_languages_forms_are_said_with_nodes_words() {
        let file = "function f(value, limit) {\n  if (value > limit) {\n    return 1;\n  }\n  \
                    return 0;\n}\n";
        let fault = |new: &str| {
            let result = file.replace("  if (value > limit) {\n", new);
            js_early_fault("a.js", file, &result).map(|e| e.fault())
        };
        assert_eq!(
            fault("  if (value > limit and limit > 0) {\n").as_deref(),
            Some(
                "line 2 (`if (value > limit and limit > 0) {`) writes `and` between two \
                 operands, which JavaScript does not read: node refuses the file (SyntaxError: \
                 Unexpected identifier 'and')"
            )
        );
        assert!(
            fault("  if value > limit {\n")
                .is_some_and(|f| f.ends_with("(SyntaxError: Unexpected identifier 'value')")),
            "{:?}",
            fault("  if value > limit {\n")
        );
        for written in [
            "  if (value == null and typeof limit === 'number') {\n",
            "  if (value and await limit) {\n",
            "  if typeof value === 'number' {\n",
        ] {
            assert!(fault(written).is_some(), "{written}");
        }
        assert!(
            fault("  while !value {\n").is_some_and(|f| f.ends_with("Unexpected token '!')")),
            "{:?}",
            fault("  while !value {\n")
        );
        for harmless in [
            "  if (value > limit && limit > 0) {\n",
            "  if (o.and(value) || o.or) {\n",
            "  if (value > limit) { const s = 'a and b'; // c or d\n",
            "  const o = { and: 1, or: 2, if: 3, get and() { return 1; } };\n  if (o.if) {\n",
            "  class A { static or() {} get and() {} }\n  if (A) {\n",
            "  while (value) and(limit);\n  if (typeof value === 'number' && limit) {\n",
        ] {
            assert_eq!(fault(harmless), None, "{harmless}");
        }
    }
}
