//! *Pure.* What CPython 3.11 refuses in a Python file's statements once
//! its tokenizer has read it whole (T-04, round 44: each was written as
//! exact): a statement ending in an operator outside any bracket (`return
//! 1 +`: its parser's "invalid syntax"), a keyword argument given twice in
//! one call or class header (`dict(debug=True, port=80, debug=False)`:
//! "keyword argument repeated: debug"), a parameter named twice in one
//! `def` or `lambda` ("duplicate argument 'a' in function definition"),
//! and a `from __future__` import below the file's code ("from __future__
//! imports must occur at the beginning of the file").
//!
//! Read over [`super::doubt_names::python_lines`]'s logical lines:
//! - an operator ends a statement (its last token, before a `;` or the
//!   logical line's end): a binary or unary operator, an assignment, `.`,
//!   `->`, `:=`, or one of the words `and or not in is if else lambda as
//!   from import`; not `*` after `import` (`from x import *`), not `...`,
//!   not `,`; a line continued by `\` is not judged (CPython says the
//!   fault at the line after it);
//! - a call's or a class header's arguments are the `(...)` after a name
//!   that is not a keyword, or after `)` or `]`; a keyword argument is
//!   `name =` at the start of one of them (`**kw` beside `a=1` is legal);
//! - a parameter is the first name of a `def`'s `(...)` item (after `*`
//!   or `**`), or of a `lambda`'s item up to its `:`;
//! - a `from __future__ import` may follow only a module docstring (a
//!   first statement of plain string literals: not an f-string, not
//!   bytes) and other `__future__` imports; any statement before it, at
//!   any depth, makes it late ([`future_import`], also read by the patch
//!   checks' top-of-file lines, `dialect::patch_family`).
//!
//! CPython says the parser's fault first, then the late import (its
//! `future.c`), then a symbol table's (a parameter twice), then its
//! compiler's (a keyword twice) in the file's order; the verdicts are
//! tested against CPython's own `compile()`
//! (tests/fixtures/trust/pysyntax/).

use super::doubt_names::{closing, compound, split_at_top, statements, top_colon};
use super::pytokens::{Tok, Token, Tokens, keyword};

/// The operators a statement cannot end with.
const DANGLING: &[&str] = &[
    "+", "-", "*", "/", "//", "%", "**", "@", "<<", ">>", "&", "|", "^", "~", "<", ">", "<=", ">=",
    "==", "!=", "=", "+=", "-=", "*=", "/=", "//=", "%=", "**=", ">>=", "<<=", "&=", "|=", "^=",
    "@=", "->", ":=", ".", "and", "or", "not", "in", "is", "if", "else", "lambda", "as", "from",
    "import",
];

/// The first statement of `lines` ending in an operator (see the
/// module): the operator and its line; `text` is the file, to tell a line
/// continued by `\`.
pub(super) fn dangling(
    text: &str,
    lines: &[(usize, Vec<Token<'_>>)],
) -> Option<(&'static str, usize)> {
    let physical: Vec<&str> = text.lines().collect();
    for (_, tokens) in lines {
        for statement in statements(tokens) {
            let n = statement.len();
            let Some(last) = statement.last() else {
                continue;
            };
            let word = last.kind == Tok::Name && keyword(last.text);
            if !(last.kind == Tok::Op || word) {
                continue;
            }
            let Some(&op) = DANGLING.iter().find(|&&o| o == last.text) else {
                continue;
            };
            if op == "*" && n > 1 && statement[n - 2].name("import") {
                continue;
            }
            let continued = physical
                .get(last.line - 1)
                .is_some_and(|l| l.trim_end().ends_with('\\'));
            if continued {
                continue;
            }
            return Some((op, last.line));
        }
    }
    None
}

/// Whether `tokens` (a statement) is a `from __future__ import`.
pub(super) fn future_statement(tokens: &[Token]) -> bool {
    matches!(tokens, [from, module, import, ..]
        if from.name("from") && module.text == "__future__" && import.name("import"))
}

/// Whether the line `line` starts a `from __future__ import` statement,
/// read as Python's tokenizer reads it (`from  __future__ import (`).
pub fn future_import(line: &str) -> bool {
    let tokens: Vec<Token> = Tokens::new(line.trim_start())
        .take(3)
        .filter_map(|item| match item {
            Ok(super::pytokens::Item::Token(t, _)) => Some(t),
            _ => None,
        })
        .collect();
    future_statement(&tokens)
}

/// Whether `tokens` (a module's first statement) is its docstring: plain
/// string literals only, in brackets or not (no f-string, no bytes).
fn docstring(tokens: &[Token]) -> bool {
    let mut strings = tokens.iter().filter(|t| !(t.is("(") || t.is(")")));
    let plain = |t: &Token| {
        let prefix = t.text.split(['\'', '"']).next().unwrap_or("");
        t.kind == Tok::Str && !prefix.contains(['f', 'F', 'b', 'B', 't', 'T'])
    };
    strings.clone().next().is_some() && strings.all(plain)
}

/// The first `from __future__` import of `lines` that follows another
/// statement than the module's docstring and such imports: its line.
pub(super) fn late_future(lines: &[(usize, Vec<Token<'_>>)]) -> Option<usize> {
    let mut first = true;
    let mut code_seen = false;
    for (_, tokens) in lines {
        // A compound statement's header is a statement of its own.
        let parts: Vec<&[Token]> = match top_colon(tokens).filter(|_| compound(tokens)) {
            Some(colon) => std::iter::once(&tokens[..colon])
                .chain(statements(&tokens[colon + 1..]))
                .collect(),
            None => statements(tokens),
        };
        for part in parts {
            if future_statement(part) {
                if code_seen {
                    return Some(part[0].line);
                }
            } else if !(first && docstring(part)) {
                code_seen = true;
            }
            first = false;
        }
    }
    None
}

/// The items of the bracket whose tokens (inside it) are `inner`, split
/// at its own commas.
fn items<'t, 'a>(inner: &'t [Token<'a>]) -> Vec<&'t [Token<'a>]> {
    split_at_top(inner, ",")
}

/// The first name given twice among `names`: its text and the later
/// copy's line.
fn twice<'a>(names: impl IntoIterator<Item = Token<'a>>) -> Option<(String, usize)> {
    let mut seen = std::collections::HashSet::new();
    names
        .into_iter()
        .find(|t| !seen.insert(t.text))
        .map(|t| (t.text.to_string(), t.line))
}

/// A parameter's name: its item's first name after `*` or `**`.
fn parameter<'a>(item: &[Token<'a>]) -> Option<Token<'a>> {
    let rest = match item.first() {
        Some(t) if t.is("*") || t.is("**") => &item[1..],
        _ => item,
    };
    rest.first().copied().filter(|t| t.kind == Tok::Name)
}

/// A keyword argument's name: `name =` at its item's start.
fn keyword_argument<'a>(item: &[Token<'a>]) -> Option<Token<'a>> {
    match item {
        [name, eq, _, ..] if name.kind == Tok::Name && eq.is("=") => Some(*name),
        _ => None,
    }
}

/// The parameters of the `lambda` at `at` of `tokens`: up to its `:`.
fn lambda_parameters<'a>(tokens: &[Token<'a>], at: usize) -> Vec<Token<'a>> {
    let rest = &tokens[at + 1..];
    let end = top_colon(rest).unwrap_or(rest.len());
    items(&rest[..end])
        .into_iter()
        .filter_map(parameter)
        .collect()
}

/// The first keyword argument or parameter given twice in `tokens` (one
/// logical line), in its order: the name, the later copy's line, and
/// whether it is a parameter (else a keyword argument).
pub(super) fn argument_twice(tokens: &[Token]) -> Option<(String, usize, bool)> {
    for (i, t) in tokens.iter().enumerate() {
        if t.name("lambda") {
            if let Some((name, line)) = twice(lambda_parameters(tokens, i)) {
                return Some((name, line, true));
            }
            continue;
        }
        if !t.is("(") || i == 0 {
            continue;
        }
        let before = &tokens[i - 1];
        let called =
            (before.kind == Tok::Name && !keyword(before.text)) || before.is(")") || before.is("]");
        if !called {
            continue;
        }
        let definition = i >= 2 && tokens[i - 2].name("def");
        let inner = &tokens[i + 1..closing(tokens, i).min(tokens.len())];
        let list = items(inner);
        let found = if definition {
            twice(list.into_iter().filter_map(parameter))
        } else {
            twice(list.into_iter().filter_map(keyword_argument))
        };
        if let Some((name, line)) = found {
            return Some((name, line, definition));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::future_import;
    use crate::diagnose::doubt_pysyntax::python_syntax;

    /// CPython's words and line for `result`, the file before being
    /// `before`.
    fn said(before: &str, result: &str) -> Option<(String, usize)> {
        python_syntax(before, result).map(|b| (b.fault.python(), b.fault.line()))
    }

    fn refused(result: &str, words: &str, line: usize) {
        assert_eq!(
            said("x = 1\n", result),
            Some((words.to_string(), line)),
            "{result}"
        );
    }

    /// T-04 (round 44): a statement ending in an operator outside any
    /// bracket; `*` after `import`, `...`, a trailing comma, an operator
    /// in brackets are legal.
    #[test]
    fn a_statement_ending_in_an_operator_is_invalid_syntax() {
        for (result, line) in [
            (
                "def f(x):\n    if x > 1:\n        return 1 +\n    return 0\n",
                3,
            ),
            ("x = a and\n", 1),
            ("x = (1 +\n 2) +\n", 2),
            ("x = 1; y = 2 +; z = 3\n", 1),
            ("x = y.\n", 1),
            ("x = a if b else\n", 1),
            ("x = 1 +  # c\ny = 2\n", 1),
        ] {
            refused(result, "invalid syntax", line);
        }
        for result in [
            "from os import *\n",
            "x = ...\n",
            "x = 1,\n",
            "x = (1 +\n     2)\n",
            "x = 1 + \\\n    2\n",
            "print(*a, **k)\n",
        ] {
            assert_eq!(said("x = 1\n", result), None, "{result}");
        }
        // Continued by `\` onto a blank line: CPython says line 2, not
        // judged.
        assert_eq!(said("x = 1\n", "x = 1 + \\\n\ny = 2\n"), None);
    }

    /// T-04: a keyword argument given twice in a call or a class header,
    /// a parameter twice in a `def` or a `lambda`; `**kw` beside `a=1`,
    /// one name in two calls, a comparison `a == 1` are legal.
    #[test]
    fn an_argument_given_twice_is_refused() {
        refused(
            "app = dict(\n    debug=True,\n    port=80,\n    debug=False,\n)\n",
            "keyword argument repeated: debug",
            4,
        );
        refused(
            "class A(metaclass=M, metaclass=N):\n    pass\n",
            "keyword argument repeated: metaclass",
            1,
        );
        refused(
            "def f(\n    a,\n    b,\n    *a,\n):\n    pass\n",
            "duplicate argument 'a' in function definition",
            4,
        );
        refused(
            "f = lambda a, b=1, **a: 0\n",
            "duplicate argument 'a' in function definition",
            1,
        );
        for result in [
            "f(a=1, **k)\n",
            "f(a=1, g(a=2))\n",
            "f(a == 1, a == 2)\n",
            "def f(a, *, b, **c):\n    return g(a=a, b=b)\n",
            "f(lambda a: a, lambda a: a)\n",
        ] {
            assert_eq!(said("x = 1\n", result), None, "{result}");
        }
    }

    /// T-04: a `from __future__` import below code; after a docstring,
    /// comments, blank lines and other such imports it is legal.
    #[test]
    fn a_future_import_below_code_is_refused() {
        let late = "from __future__ imports must occur at the beginning of the file";
        refused(
            "\"\"\"Mod.\"\"\"\nimport os\nfrom __future__ import annotations\n",
            late,
            3,
        );
        refused("\"a\"\n\"b\"\nfrom __future__ import division\n", late, 3);
        refused("f\"doc\"\nfrom __future__ import division\n", late, 2);
        refused("def f():\n    from __future__ import division\n", late, 2);
        for result in [
            "#!/usr/bin/env python3\n# c\n\n\"\"\"Mod.\n\nMore.\n\"\"\"\n\nfrom __future__ import \
             annotations\nfrom __future__ import (\n    division,\n)\nimport os\n",
            "(\"doc\")\nfrom __future__ import annotations\n",
            "from __future__ import annotations; from __future__ import division\n",
        ] {
            assert_eq!(said("x = 1\n", result), None, "{result}");
        }
        assert!(future_import("from  __future__ import (x)"));
        assert!(!future_import("from __futures__ import x"));
        assert!(!future_import("# from __future__ import x"));
    }

    /// A file that had the fault before is not judged.
    #[test]
    fn a_file_refused_before_is_not_judged() {
        let before = "x = 1 +\n";
        assert_eq!(said(before, "x = 1 +\ny = f(a=1, a=2)\n"), None);
    }
}
