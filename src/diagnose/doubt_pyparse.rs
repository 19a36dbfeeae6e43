//! *Pure.* An edit that leaves a Python file with a statement CPython's
//! parser refuses, where the file before held no such statement (a
//! fresh-eyes tester's finds, round 49, T-11: each was written as exact):
//! - a parameter without a default after one with a default, `def f(a=1,
//!   b):` (or in a `lambda`): "non-default argument follows default
//!   argument";
//! - `=` in an `if`, `elif` or `while` condition, `if w = 0:`: "invalid
//!   syntax. Maybe you meant '==' or ':=' instead of '='?" (CPython's words
//!   follow what stands left of the `=`: `if len(x) = 0:` "cannot assign to
//!   function call here. Maybe you meant '==' instead of '='?"; a form whose
//!   words are not told, `if (x) = 0:`, is not said);
//! - a clause no block above it takes, `else:`, `elif`, `except` or
//!   `finally` (the `if` or `try` it belonged to removed, or the clause put
//!   at another column): "invalid syntax".
//!
//! The rule, by evidence only, over [`super::doubt_names::python_lines`]'s
//! logical lines (a file that does not read as Python is not judged):
//! - a `def`'s parameters are the items of the `(...)` after its name,
//!   split at its own commas; a `lambda`'s up to its `:`. A parameter has a
//!   default when its item holds `=` outside brackets. After a `*`,
//!   `*args` or `**kw` item the parameters are keyword-only and need none;
//!   a `/` does not end the rule. A parameter list holding a `lambda` is
//!   not read (its `:` and commas are the lambda's);
//! - a condition is an `if`, `elif` or `while` header up to its `:` (as
//!   [`super::doubt_names::top_colon`] reads it: not a `lambda`'s); an `=`
//!   outside brackets in it is the fault (a keyword argument, `f(a=1)`, is
//!   in brackets; `==`, `:=`, `<=` are other tokens; an f-string's `{x=}`
//!   is a string's text);
//! - a clause's block is the logical line above it at its own column or
//!   less: at a smaller column (the clause is a block's first statement)
//!   or a statement that is no header it may follow is the fault. `elif`
//!   follows `if` and `elif`; `else` follows `if`, `elif`, `for`, `while`
//!   and `except`; `except` follows `try` and `except`; `finally` follows
//!   `try` and `except`. A clause after `try:` (CPython: "expected 'except'
//!   or 'finally' block") and a `finally` after an `else:` (a `try`'s or
//!   an `if`'s) are not judged;
//! - doubted: the result holds such a fault, the file before none of the
//!   three (a file that held one never compiled: not judged). The first in
//!   the file's order is said, with its line and CPython 3.11's words.

use super::doubt_names::{at_top, closing, compound, python_lines, split_at_top, top_colon};
use super::doubt_pysyntax::python_refuses;
use super::pytokens::{Tok, Token, keyword};

/// A statement CPython's parser refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseFault {
    /// A parameter without a default after one with a default.
    DefaultBefore {
        /// The parameter without a default.
        name: String,
        /// The parameter with a default before it.
        after: String,
        /// Its line (1-based), where CPython says it.
        line: usize,
        /// In a `lambda` (else a `def`).
        lambda: bool,
    },
    /// `=` in an `if`, `elif` or `while` condition.
    AssignInCondition {
        /// `if`, `elif` or `while`.
        word: &'static str,
        /// The header's line (1-based).
        line: usize,
        /// CPython's words, told by what stands left of the `=`
        /// ([`assign_words`]).
        said: &'static str,
    },
    /// Another language's form (tester 50 T-02): `&&`, `||`, `===`,
    /// `!==`, a `!` for `not`, `else if`, Python 2's `print "x"` and
    /// `except E, e:`.
    Foreign {
        /// What the line writes (`&&`, `else if`).
        written: &'static str,
        /// Python's form of it (`and`, `elif`).
        python: &'static str,
        /// Its line (1-based).
        line: usize,
        /// CPython 3.11's words.
        said: &'static str,
    },
    /// A clause no block above it takes.
    StrayClause {
        /// `else`, `elif`, `except` or `finally`.
        word: &'static str,
        /// Its line (1-based).
        line: usize,
        /// What stands above it, in words ("the statement `x = 1` (line
        /// 4)", "the start of the block of line 2").
        above: String,
    },
}

impl ParseFault {
    /// The line (1-based) CPython says the fault at.
    pub fn line(&self) -> usize {
        match *self {
            ParseFault::DefaultBefore { line, .. }
            | ParseFault::AssignInCondition { line, .. }
            | ParseFault::Foreign { line, .. }
            | ParseFault::StrayClause { line, .. } => line,
        }
    }

    /// What CPython 3.11's `SyntaxError` says of it.
    pub fn python(&self) -> &'static str {
        match self {
            ParseFault::DefaultBefore { .. } => "non-default argument follows default argument",
            ParseFault::AssignInCondition { said, .. } | ParseFault::Foreign { said, .. } => said,
            ParseFault::StrayClause { .. } => "invalid syntax",
        }
    }
}

/// A statement an edit leaves a Python file with that CPython's parser
/// refuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBreak {
    /// The fault.
    pub fault: ParseFault,
    /// The result's line it is at, trimmed.
    pub text: String,
}

impl ParseBreak {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match &self.fault {
            ParseFault::DefaultBefore { name, .. } => format!(
                "give `{name}` a default too, or move it before the parameters with defaults \
                 (or after a `*`, to make it keyword-only)"
            ),
            ParseFault::AssignInCondition { .. } => {
                "compare with `==` (or assign with `:=` inside brackets)".to_string()
            }
            ParseFault::Foreign { python, .. } => format!("write {python}"),
            ParseFault::StrayClause { word, .. } => format!(
                "keep the `{}` the `{word}` belongs to, or put the `{word}` at that statement's \
                 column",
                match *word {
                    "except" | "finally" => "try",
                    _ => "if",
                }
            ),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let line = self.fault.line();
        let what = match &self.fault {
            ParseFault::DefaultBefore {
                name,
                after,
                lambda,
                ..
            } => format!(
                "gives the {} parameter `{name}` no default after `{after}`, which has one",
                if *lambda { "lambda's" } else { "function's" }
            ),
            ParseFault::AssignInCondition { word, .. } => {
                format!("assigns with `=` in its `{word}` condition")
            }
            ParseFault::Foreign { written, .. } => {
                format!("writes {written}, which is not Python")
            }
            ParseFault::StrayClause { word, above, .. } => {
                format!("starts an `{word}` clause below {above}, which no `{word}` may follow")
            }
        };
        python_refuses(line, &self.text, &what, self.fault.python())
    }
}

/// The statement of `result` (the Python file as an edit leaves it)
/// CPython's parser refuses, where `original` held none (see the
/// module's rule); `None` when there is none, or either text does not
/// read as Python.
pub(super) fn python_parse(original: &str, result: &str) -> Option<ParseBreak> {
    let fault = first_fault(result)?;
    if python_lines(original).is_none_or(|lines| faults(&lines).next().is_some()) {
        return None;
    }
    let text = result
        .lines()
        .nth(fault.line().saturating_sub(1))
        .map_or(String::new(), |l| l.trim().to_string());
    Some(ParseBreak { fault, text })
}

/// `text`'s first fault, if it reads as Python.
fn first_fault(text: &str) -> Option<ParseFault> {
    let lines = python_lines(text)?;
    faults(&lines).next()
}

/// Each logical line's first fault, in the file's order.
fn faults<'l>(lines: &'l [(usize, Vec<Token<'_>>)]) -> impl Iterator<Item = ParseFault> + 'l {
    lines
        .iter()
        .enumerate()
        .filter_map(move |(i, (_, tokens))| {
            stray_clause(lines, i)
                .or_else(|| assign_in_condition(tokens))
                .or_else(|| default_before(tokens))
                .or_else(|| foreign(tokens))
        })
}

/// The keyword of the header `tokens` starts with (`async for` is
/// `for`).
fn head<'a>(tokens: &[Token<'a>]) -> Option<&'a str> {
    let first = tokens.first().filter(|t| t.kind == Tok::Name)?;
    match first.text {
        "async" => tokens.get(1).map(|t| t.text),
        word => Some(word),
    }
}

/// The clause keyword `word`, as a static string, if it is one.
fn clause(word: &str) -> Option<&'static str> {
    ["else", "elif", "except", "finally"]
        .into_iter()
        .find(|&c| c == word)
}

/// A clause at `lines[at]` that the logical line above it does not take.
fn stray_clause(lines: &[(usize, Vec<Token<'_>>)], at: usize) -> Option<ParseFault> {
    let (indent, tokens) = &lines[at];
    let word = clause(head(tokens)?)?;
    if !compound(tokens) {
        return None;
    }
    let line = tokens[0].line;
    let above_at = lines[..at].iter().rposition(|(i, _)| i <= indent);
    let Some(above_at) = above_at else {
        return Some(ParseFault::StrayClause {
            word,
            line,
            above: "nothing (the file's first statement)".to_string(),
        });
    };
    let (above_indent, above) = &lines[above_at];
    let above_line = above.first().map_or(0, |t| t.line);
    if above_indent < indent {
        // The clause is the first statement of the block `above` opens:
        // judged only where `above` is a header whose body is not on its
        // own line (else Python says the indentation).
        let opens = compound(above) && top_colon(above).is_some_and(|c| c + 1 == above.len());
        return opens.then(|| ParseFault::StrayClause {
            word,
            line,
            above: format!("the start of the block line {above_line} opens"),
        });
    }
    let before = if compound(above) { head(above) } else { None };
    let taken = match (word, before) {
        // CPython says "expected 'except' or 'finally' block"; a `finally`
        // after an `else:` may close a `try`.
        (_, Some("try")) if matches!(word, "else" | "elif") => return None,
        ("finally", Some("else")) => return None,
        ("elif", Some(b)) => matches!(b, "if" | "elif"),
        ("else", Some(b)) => matches!(b, "if" | "elif" | "for" | "while" | "except"),
        ("except", Some(b)) => matches!(b, "try" | "except"),
        ("finally", Some(b)) => matches!(b, "try" | "except"),
        _ => false,
    };
    if taken {
        return None;
    }
    let what = match before {
        Some(b) => format!("the `{b}` block of line {above_line}"),
        None => format!("the statement of line {above_line}"),
    };
    Some(ParseFault::StrayClause {
        word,
        line,
        above: what,
    })
}

/// Another language's form in a logical line's code (strings and
/// comments are no tokens here): `&&`/`||` (two `&`/`|` in a row: Python
/// has no operand between them either way), `===`/`!==`, a `!` that is
/// no `!=`, `else if` at a line's start, `print` followed by an operand
/// (Python 2's statement), and `except E, e:` (a comma outside brackets
/// before the `:`, no `as`). The words are CPython 3.11's (checked with
/// `compile()`).
fn foreign(tokens: &[Token]) -> Option<ParseFault> {
    let fault = |written, python, t: &Token, said| {
        Some(ParseFault::Foreign {
            written,
            python,
            line: t.line,
            said,
        })
    };
    match tokens {
        [e, i, ..] if e.name("else") && i.name("if") => {
            return fault("`else if`", "`elif`", e, "expected ':'");
        }
        [p, next, ..]
            if p.name("print")
                && (matches!(next.kind, Tok::Str | Tok::Num)
                    || (next.kind == Tok::Name && !keyword(next.text))) =>
        {
            return fault(
                "Python 2's `print` statement",
                "`print(...)`, a call",
                p,
                "Missing parentheses in call to 'print'. Did you mean print(...)?",
            );
        }
        [e, ..] if e.name("except") => {
            let colon = top_colon(tokens)?;
            let header = &tokens[1..colon];
            if !header.iter().any(|t| t.name("as")) && !at_top(header, |t| t.is(",")).is_empty() {
                return fault(
                    "`except E, e`, Python 2's form",
                    "`except E as e` (or `except (A, B):` for two types)",
                    e,
                    "multiple exception types must be parenthesized",
                );
            }
        }
        _ => {}
    }
    tokens
        .windows(2)
        .find_map(|pair| {
            let [a, b] = pair else { return None };
            match (a.text, b.text) {
                _ if a.kind != Tok::Op || b.kind != Tok::Op => None,
                ("&", "&") => fault("`&&`", "`and`", a, INVALID),
                ("|", "|") => fault("`||`", "`or`", a, INVALID),
                ("==", "=") => fault("`===`", "`==`", a, INVALID),
                ("!=", "=") => fault("`!==`", "`!=`", a, INVALID),
                _ => None,
            }
        })
        .or_else(|| {
            let bang = tokens.iter().find(|t| t.is("!"))?;
            fault("`!` for `not`", "`not`", bang, INVALID)
        })
}

/// An `=` outside brackets in an `if`, `elif` or `while` header.
fn assign_in_condition(tokens: &[Token]) -> Option<ParseFault> {
    let word = match tokens.first().filter(|t| t.kind == Tok::Name)?.text {
        "if" => "if",
        "elif" => "elif",
        "while" => "while",
        _ => return None,
    };
    let header = &tokens[1..top_colon(tokens)?];
    // A `lambda`'s default (`if lambda a=1: a:`) is not read.
    if header.iter().any(|t| t.name("lambda")) {
        return None;
    }
    let eq = at_top(header, |t| t.is("="));
    let &first = eq.first()?;
    let said = if eq.len() > 1 {
        Some(INVALID)
    } else {
        assign_words(&header[..first])
    };
    // A form whose words srview cannot tell is not said.
    said.map(|said| ParseFault::AssignInCondition {
        word,
        line: tokens[0].line,
        said,
    })
}

/// CPython's plain words.
const INVALID: &str = "invalid syntax";

/// What CPython 3.11 says of `left = ...` in a condition, told by `left`'s
/// form (checked against `compile()`): a bare name is its own message, a
/// name's attribute, subscript or call, a number or an operator's result
/// CPython names ("cannot assign to attribute here. Maybe ..."); a
/// boolean or comparison operator, a conditional expression, a comma, a
/// `*`, `not`, `None`, `True`, `False`: plain "invalid syntax". `None`: a
/// form not told (a bracket, a string, an `await`).
fn assign_words(left: &[Token]) -> Option<&'static str> {
    let plain = |t: &Token| {
        (t.kind == Tok::Name
            && matches!(
                t.text,
                "and" | "or" | "not" | "if" | "else" | "is" | "in" | "None" | "True" | "False"
            ))
            || (t.kind == Tok::Op
                && matches!(
                    t.text,
                    "<" | ">" | "==" | "!=" | "<=" | ">=" | "<>" | "," | ":="
                ))
    };
    if left.is_empty() {
        return None;
    }
    if left[0].is("*") || !at_top(left, plain).is_empty() {
        return Some(INVALID);
    }
    let operator = |t: &Token| {
        t.kind == Tok::Op
            && matches!(
                t.text,
                "+" | "-"
                    | "*"
                    | "/"
                    | "//"
                    | "%"
                    | "**"
                    | "@"
                    | "<<"
                    | ">>"
                    | "&"
                    | "|"
                    | "^"
                    | "~"
            )
    };
    if !at_top(left, operator).is_empty() {
        return Some("cannot assign to expression here. Maybe you meant '==' instead of '='?");
    }
    let first = left[0];
    match left {
        [t] if t.kind == Tok::Name && !keyword(t.text) => {
            return Some("invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
        }
        [t] if t.kind == Tok::Num => {
            return Some("cannot assign to literal here. Maybe you meant '==' instead of '='?");
        }
        _ => {}
    }
    if first.kind != Tok::Name || keyword(first.text) {
        return None;
    }
    // A name and its trailers: `.name`, `[...]`, `(...)`; the last one
    // names the target.
    let mut i = 1;
    let mut last = None;
    while i < left.len() {
        let t = left[i];
        if t.is(".") && left.get(i + 1).is_some_and(|n| n.kind == Tok::Name) {
            last = Some("attribute");
            i += 2;
        } else if t.is("[") || t.is("(") {
            last = Some(if t.is("[") {
                "subscript"
            } else {
                "function call"
            });
            i = closing(left, i) + 1;
        } else {
            return None;
        }
    }
    Some(match last? {
        "attribute" => "cannot assign to attribute here. Maybe you meant '==' instead of '='?",
        "subscript" => "cannot assign to subscript here. Maybe you meant '==' instead of '='?",
        _ => "cannot assign to function call here. Maybe you meant '==' instead of '='?",
    })
}

/// A parameter without a default after one with a default, in a `def` or
/// a `lambda` of `tokens` (one logical line).
fn default_before(tokens: &[Token]) -> Option<ParseFault> {
    for (i, t) in tokens.iter().enumerate() {
        let (params, lambda) = if t.name("def") {
            let open = i + 2;
            if !(tokens.get(i + 1).is_some_and(|n| n.kind == Tok::Name)
                && tokens.get(open).is_some_and(|o| o.is("(")))
            {
                continue;
            }
            let end = closing(tokens, open).min(tokens.len());
            (&tokens[open + 1..end], false)
        } else if t.name("lambda") {
            let rest = &tokens[i + 1..];
            (&rest[..top_colon(rest).unwrap_or(rest.len())], true)
        } else {
            continue;
        };
        if params.iter().any(|p| p.name("lambda")) {
            continue;
        }
        if let Some((name, after, line)) = needs_default(params) {
            return Some(ParseFault::DefaultBefore {
                name,
                after,
                line,
                lambda,
            });
        }
    }
    None
}

/// In the parameter list `params`, the first parameter without a default
/// after one with a default, and that one: their names, and the first's
/// line.
fn needs_default(params: &[Token]) -> Option<(String, String, usize)> {
    let mut with_default: Option<&str> = None;
    for item in split_at_top(params, ",") {
        let first = item[0];
        if first.is("*") || first.is("**") {
            return None;
        }
        if first.is("/") {
            continue;
        }
        if first.kind != Tok::Name {
            return None;
        }
        let has_default = item[1..].iter().enumerate().any(|(k, p)| {
            p.is("=") && {
                let before = &item[1..=k];
                let opened = before.iter().filter(|b| b.opens()).count();
                let closed = before.iter().filter(|b| b.closes()).count();
                opened == closed
            }
        });
        match (has_default, with_default) {
            (true, None) => with_default = Some(first.text),
            (false, Some(after)) => {
                return Some((first.text.to_string(), after.to_string(), first.line));
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::python_parse;

    const SHOP: &str = "import os\n\n\ndef price(item, qty):\n    if qty == 0:\n        \
                        return 0\n    elif qty < 0:\n        raise ValueError(qty)\n    else:\n        \
                        return item * qty\n\n\ndef load(path):\n    try:\n        \
                        return open(path).read()\n    except OSError:\n        return ''\n    \
                        finally:\n        print(path)\n\n\nwhile os.environ:\n    break\n";

    /// CPython's words and line for the edit of `old` into `new` in SHOP.
    fn said(old: &str, new: &str) -> Option<(&'static str, usize)> {
        let result = SHOP.replacen(old, new, 1);
        assert_ne!(result, SHOP, "{new}");
        python_parse(SHOP, &result).map(|b| (b.fault.python(), b.fault.line()))
    }

    const DEFAULT: &str = "non-default argument follows default argument";
    const ASSIGN: &str = "invalid syntax. Maybe you meant '==' or ':=' instead of '='?";
    const STRAY: &str = "invalid syntax";
    const CALL: &str = "cannot assign to function call here. Maybe you meant '==' instead of '='?";
    const ATTRIBUTE: &str = "cannot assign to attribute here. Maybe you meant '==' instead of '='?";
    const SUBSCRIPT: &str = "cannot assign to subscript here. Maybe you meant '==' instead of '='?";
    const EXPRESSION: &str =
        "cannot assign to expression here. Maybe you meant '==' instead of '='?";
    const LITERAL: &str = "cannot assign to literal here. Maybe you meant '==' instead of '='?";

    /// T-11: a parameter without a default after one with one, in a `def`
    /// over lines, across `/`, or in a `lambda`; not after `*`.
    #[test]
    fn a_parameter_without_a_default_after_one_with_one_is_refused() {
        let cases = [
            (
                "def price(item, qty):",
                "def price(item=None, qty):",
                Some((DEFAULT, 4)),
            ),
            (
                "def price(item, qty):",
                "def price(\n    item: int = 1,\n    qty: int,\n):",
                Some((DEFAULT, 6)),
            ),
            (
                "def price(item, qty):",
                "def price(item=1, /, qty):",
                Some((DEFAULT, 4)),
            ),
            (
                "    break\n",
                "    f = lambda a=1, b: 0\n",
                Some((DEFAULT, 23)),
            ),
            ("def price(item, qty):", "def price(item=1, *, qty):", None),
            (
                "def price(item, qty):",
                "def price(item=1, *qty, **kw):",
                None,
            ),
            (
                "def price(item, qty):",
                "def price(item, qty=dict(a=1)):",
                None,
            ),
            (
                "def price(item, qty):",
                "def price(item=lambda a, b: 0, qty=1):",
                None,
            ),
            (
                "def price(item, qty):",
                "def price(item: 'a=1', qty):",
                None,
            ),
        ];
        for (old, new, want) in cases {
            assert_eq!(said(old, new), want, "{new}");
        }
        let result = SHOP.replace("def price(item, qty):", "def price(item=None, qty):");
        let said = python_parse(SHOP, &result).map(|b| b.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "as the edit leaves it, Python refuses the file: line 4 (`def price(item=None, \
                 qty):`) gives the function's parameter `qty` no default after `item`, which has \
                 one (SyntaxError: non-default argument follows default argument), where the \
                 file before had no such fault: give `qty` a default too, or move it before the \
                 parameters with defaults (or after a `*`, to make it keyword-only)"
            )
        );
    }

    /// T-11: `=` in an `if`, `elif` or `while` condition; not `==`, `:=`,
    /// a keyword argument, an f-string's `{x=}`, or a one-line body's
    /// assignment.
    #[test]
    fn an_assignment_in_a_condition_is_refused() {
        let cases = [
            ("    if qty == 0:", "    if qty = 0:", Some((ASSIGN, 5))),
            ("    elif qty < 0:", "    elif qty = -1:", Some((ASSIGN, 7))),
            (
                "while os.environ:",
                "while env = os.environ:",
                Some((ASSIGN, 22)),
            ),
            ("    if qty == 0:", "    if len(qty) = 0:", Some((CALL, 5))),
            (
                "    if qty == 0:",
                "    if item.qty = 0:",
                Some((ATTRIBUTE, 5)),
            ),
            (
                "    if qty == 0:",
                "    if qty[0] = 0:",
                Some((SUBSCRIPT, 5)),
            ),
            (
                "    if qty == 0:",
                "    if qty % 2 = 0:",
                Some((EXPRESSION, 5)),
            ),
            ("    if qty == 0:", "    if 0 = qty:", Some((LITERAL, 5))),
            (
                "    if qty == 0:",
                "    if item and qty = 0:",
                Some((STRAY, 5)),
            ),
            (
                "    if qty == 0:",
                "    if qty = item = 0:",
                Some((STRAY, 5)),
            ),
            ("    if qty == 0:", "    if (qty) = 0:", None),
            ("    if qty == 0:", "    if (n := qty) == 0:", None),
            (
                "    if qty == 0:",
                "    if dict(a=qty).get('a') <= 0:",
                None,
            ),
            ("    if qty == 0:", "    if f\"{qty=}\" == 'qty=0':", None),
            (
                "    if qty == 0:",
                "    if qty: n = 0\n    if qty == 0:",
                None,
            ),
        ];
        for (old, new, want) in cases {
            assert_eq!(said(old, new), want, "{new}");
        }
    }

    /// T-11: an `else`, `elif`, `except` or `finally` whose `if` or `try`
    /// the edit removes, or put at a column no such block stands at; a
    /// clause after its own kind of block, a comment between, is fine.
    #[test]
    fn a_clause_no_block_takes_is_refused() {
        let cases = [
            (
                "    if qty == 0:\n        return 0\n    elif qty < 0:\n",
                "    n = 0\n    if qty < 0:\n",
                None,
            ),
            (
                "    if qty == 0:\n        return 0\n",
                "    n = 0\n",
                Some((STRAY, 6)),
            ),
            (
                "    try:\n        return open(path).read()\n",
                "    return open(path).read()\n",
                Some((STRAY, 15)),
            ),
            (
                "    else:\n        return item",
                "        else:\n            return item",
                Some((STRAY, 9)),
            ),
            (
                "    finally:",
                "    else:\n        pass\n    finally:",
                None,
            ),
            ("    finally:", "finally:", Some((STRAY, 18))),
            (
                "while os.environ:\n    break\n",
                "x = 1\nelse:\n    pass\n",
                Some((STRAY, 23)),
            ),
            (
                "while os.environ:\n    break\n",
                "while os.environ:\n    break\n# c\n\nelse:\n    pass\n",
                None,
            ),
            (
                "    else:\n",
                "    else:\n        pass\n    else:\n",
                Some((STRAY, 11)),
            ),
        ];
        for (old, new, want) in cases {
            assert_eq!(said(old, new), want, "{new}");
        }
        let result = SHOP.replace("    if qty == 0:\n        return 0\n", "    n = 0\n");
        let got = python_parse(SHOP, &result).expect("a stray elif");
        assert!(
            got.describe().starts_with(
                "as the edit leaves it, Python refuses the file: line 6 (`elif qty < 0:`) starts \
                 an `elif` clause below the statement of line 5, which no `elif` may follow \
                 (SyntaxError: invalid syntax)"
            ),
            "{}",
            got.describe()
        );
    }

    /// A file that held such a fault before is not judged.
    #[test]
    fn a_file_refused_before_is_not_judged() {
        let before = "def f(a=1, b):\n    pass\n";
        assert_eq!(
            python_parse(before, &format!("{before}if x = 1:\n    pass\n")),
            None
        );
    }

    /// Tester 50 T-02: another language's forms, each with CPython 3.11's
    /// words and line (checked with `compile()`); the same text in
    /// strings, comments and f-string conversions, and Python's own
    /// forms, are no fault.
    #[test]
    fn another_languages_forms_are_said_with_cpythons_words() {
        let print_2 = "Missing parentheses in call to 'print'. Did you mean print(...)?";
        let except_2 = "multiple exception types must be parenthesized";
        for (old, new, expected) in [
            (
                "    if qty == 0:\n",
                "    if qty == 0 && item:\n",
                Some((STRAY, 5)),
            ),
            (
                "    if qty == 0:\n",
                "    if qty == 0 || item:\n",
                Some((STRAY, 5)),
            ),
            (
                "    if qty == 0:\n",
                "    if qty === 0:\n",
                Some((STRAY, 5)),
            ),
            (
                "    if qty == 0:\n",
                "    if qty !== 0:\n",
                Some((STRAY, 5)),
            ),
            ("    if qty == 0:\n", "    if !qty:\n", Some((STRAY, 5))),
            (
                "    elif qty < 0:\n",
                "    else if qty < 0:\n",
                Some(("expected ':'", 7)),
            ),
            (
                "        print(path)\n",
                "        print \"done\", path\n",
                Some((print_2, 19)),
            ),
            (
                "        print(path)\n",
                "        print path\n",
                Some((print_2, 19)),
            ),
            (
                "    except OSError:\n",
                "    except OSError, e:\n",
                Some((except_2, 16)),
            ),
            ("    if qty == 0:\n", "    if qty == 0 and item:\n", None),
            (
                "    if qty == 0:\n",
                "    if not qty:  # was !qty && x\n",
                None,
            ),
            (
                "        return ''\n",
                "        return '&& || === !x'\n",
                None,
            ),
            (
                "        print(path)\n",
                "        print(f\"{path!r}\")\n",
                None,
            ),
            (
                "    except OSError:\n",
                "    except (OSError, ValueError) as e:\n",
                None,
            ),
            ("        print(path)\n", "        print = path\n", None),
            (
                "    if qty == 0:\n",
                "    if qty != 0 and item & 1 | 2:\n",
                None,
            ),
        ] {
            assert_eq!(said(old, new), expected, "{new}");
        }
    }
}
