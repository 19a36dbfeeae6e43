//! *Pure.* An edit that puts a line break where JavaScript allows none
//! (ECMAScript's restricted productions, 12.10.1 "Rules of Automatic
//! Semicolon Insertion"; a tester's find, round 46 T-06): `return`,
//! `throw`, `break`/`continue` with a label, `yield` with a value, before
//! a postfix `++`/`--`, after `async` of an arrow function and before an
//! arrow's `=>`. A model wrapping a long value writes `return` alone on a
//! line and the value below: node reads `return;` (the function returns
//! `undefined`, the value below is never computed); `throw` so cut does
//! not parse (`SyntaxError: Illegal newline after throw`).
//!
//! Read by tokens ([`super::js_tokens`]; a file the reading cannot follow,
//! JSX, is not judged, as [`super::doubt_asi`] reads). A break is doubted
//! when the token after it can only be meant as what the word takes (a
//! value: a name that is no statement's keyword, a literal, an opening
//! bracket (`{` of an object literal too, which JavaScript then reads as
//! a block), a prefix operator; a label after `break`/`continue`), the
//! same two lines held no such break before the edit, and the break is
//! surely a cut, not a `return` ending its function early before the
//! next statement (code without semicolons writes `if (!a) return` over
//! `run()`):
//! - the file before held the two lines' tokens on one line (the edit
//!   split `return a + b` in two), or
//! - the line below is indented deeper than the word's line (written as
//!   its continuation), or
//! - the break cannot parse at all: `throw`, `async`, `=>`.
//!
//! `return` alone over `}`, a blank line or a comment then `}` is no
//! doubt (nothing is returned either way).

use super::doubt_asi::{NOT_VALUES, read_language};
use super::js_tokens::{Kind, Token, tokens};

/// The words a line break after which ends the statement.
const RESTRICTED_WORDS: [&str; 5] = ["return", "throw", "break", "continue", "yield"];

/// Words that end no expression ([`super::doubt_asi`]) but start one: a
/// value after `return` and a line break. (The others, `const`, `if`,
/// `return`, start the next statement: no value.)
const PREFIX_WORDS: [&str; 9] = [
    "new", "typeof", "void", "delete", "await", "yield", "async", "function", "class",
];

/// Words of [`super::doubt_asi`]'s list that are keywords only in a
/// place of their own (`get x()`, `for (a of b)`, `import .. from`) and
/// else names: `return set` returns a variable named `set` (a sweep's
/// find: tar's and glob's `return set;` so cut were allowed).
const NAMES_TOO: [&str; 8] = [
    "get", "set", "of", "from", "out", "is", "global", "accessor",
];

/// Whether `word` is a name or a word starting a value.
fn value_word(word: &str) -> bool {
    !NOT_VALUES.contains(&word) || PREFIX_WORDS.contains(&word) || NAMES_TOO.contains(&word)
}

/// A line break an edit puts where JavaScript ends the statement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RestrictedBreak {
    /// The language's name (`JavaScript`, `TypeScript`).
    pub language: &'static str,
    /// What the break cuts from what it takes (`return`, `++`, `=>`).
    pub word: &'static str,
    /// The line the break ends (1-based) and its text.
    pub line: (usize, String),
    /// The line after the break (1-based) and its text.
    pub below: (usize, String),
}

impl RestrictedBreak {
    /// [`Self::fault`] and what to send instead.
    pub fn describe(&self) -> String {
        let send = match self.word {
            "++" | "--" | "=>" => format!(
                "write `{}` at the end of line {}, not at the start of the line below",
                self.word, self.line.0
            ),
            "async" => format!(
                "keep the arrow function's parameters on line {} with `async`",
                self.line.0
            ),
            "break" | "continue" => format!(
                "keep the label on line {} with `{}`",
                self.line.0, self.word
            ),
            word => format!(
                "keep the value's start on line {} with `{word}`, or open a bracket there \
                 (`{word} (` .. `)`) and wrap the value inside it",
                self.line.0
            ),
        };
        format!("{}: {send}", self.fault())
    }

    /// What the language reads, without what to send.
    pub fn fault(&self) -> String {
        let (n, text) = &self.line;
        let (m, below) = &self.below;
        let (text, below) = (shorten(text.trim()), shorten(below.trim()));
        let word = self.word;
        let language = self.language;
        let reads = match word {
            "return" => format!(
                "so it reads `return;`: the function returns `undefined`, and line {m} is \
                 never run"
            ),
            "throw" => "so the file does not parse (node: `SyntaxError: Illegal newline after \
                        throw`)"
                .to_string(),
            "break" | "continue" => format!(
                "so it reads `{word};` (the innermost loop, not the label), and line {m} as a \
                 statement of its own"
            ),
            "yield" => format!(
                "so it reads `yield;` (yielding `undefined`), and line {m} as a statement of \
                 its own"
            ),
            "++" | "--" => format!(
                "so it reads line {n} as a statement of its own, and `{word}` as applying to \
                 what follows it"
            ),
            _ => "so the file does not parse (an arrow function cut in two)".to_string(),
        };
        let cut = match word {
            "++" | "--" | "=>" => {
                format!("line {m} (`{below}`) starts with `{word}` below line {n} (`{text}`)")
            }
            _ => format!(
                "line {n} (`{text}`) ends in `{word}` and line {m} (`{below}`) holds what it takes"
            ),
        };
        format!(
            "{cut}: {language} allows no line break {} (a restricted production), {reads}",
            match word {
                "++" | "--" => format!("before a postfix `{word}`"),
                "=>" => "before an arrow's `=>`".to_string(),
                "async" => "after the `async` of an arrow function".to_string(),
                _ => format!("between `{word}` and what it takes"),
            }
        )
    }
}

/// A line as a sentence quotes it ([`crate::dialect::edit::shorten`]).
fn shorten(text: &str) -> String {
    crate::dialect::edit::shorten(text)
}

/// The first line break `result` (the file `path` after an edit) puts
/// where the language ends the statement, where `original` held no break
/// of the same two lines; `None` for a file not read (see the module).
pub fn restricted_break(path: &str, original: &str, result: &str) -> Option<RestrictedBreak> {
    let language = read_language(path, original, result)?;
    let lines: Vec<&str> = result.lines().collect();
    let old_lines: Vec<&str> = original.lines().collect();
    let after = cuts(&tokens(result)?);
    if after.is_empty() {
        return None;
    }
    let old_tokens = tokens(original)?;
    let mut held: Vec<(&str, &str)> = cuts(&old_tokens)
        .iter()
        .map(|c| key(c, &old_lines))
        .collect();
    let lines_of = |c: &Cut| (lines_at(&lines, c.line), lines_at(&lines, c.below));
    // Each line of the file before, its tokens written together.
    let one_line: Vec<String> = old_tokens
        .chunk_by(|a, b| a.end_line == b.line)
        .map(|line| line.iter().map(|t| t.text).collect())
        .collect();
    after.into_iter().find_map(|c| {
        if let Some(at) = held.iter().position(|h| *h == key(&c, &lines)) {
            held.swap_remove(at);
            return None;
        }
        let (line, below) = lines_of(&c);
        let split = one_line.iter().any(|l| l.starts_with(&c.joined));
        let deeper = indent(below) > indent(line);
        (c.certain || split || deeper).then(|| RestrictedBreak {
            language,
            word: c.word,
            line: (c.line + 1, line.to_string()),
            below: (c.below + 1, below.to_string()),
        })
    })
}

/// A cut's word and the line it ends, trimmed: a cut of the same word
/// and line before the edit is not its doing (whatever the edit made of
/// the line below).
fn key<'a>(c: &Cut, lines: &[&'a str]) -> (&'static str, &'a str) {
    (c.word, lines_at(lines, c.line).trim())
}

/// Line `k` (0-based) of `lines`, without a CR.
fn lines_at<'a>(lines: &[&'a str], k: usize) -> &'a str {
    lines.get(k).map_or("", |l| l.trim_end_matches('\r'))
}

/// The width of a line's leading white space.
fn indent(line: &str) -> usize {
    line.len() - line.trim_start().len()
}

/// One break read: the word, the lines (0-based), whether it cannot
/// parse, and the two lines' tokens written together (to find them on
/// one line of the file before).
#[derive(Debug)]
struct Cut {
    word: &'static str,
    line: usize,
    below: usize,
    certain: bool,
    joined: String,
}

/// The breaks in restricted productions of a text read as `tokens`.
fn cuts(tokens: &[Token]) -> Vec<Cut> {
    (0..tokens.len().saturating_sub(1))
        .filter_map(|k| {
            let (t, n) = (&tokens[k], &tokens[k + 1]);
            if n.line <= t.end_line {
                return None;
            }
            let (word, certain) = cut_at(tokens, k)?;
            let joined = [t.line, n.line]
                .iter()
                .flat_map(|&l| tokens.iter().filter(move |x| x.line == l))
                .map(|x| x.text)
                .collect();
            Some(Cut {
                word,
                line: t.end_line,
                below: n.line,
                certain,
                joined,
            })
        })
        .collect()
}

/// The restricted production a line break after `tokens[k]` cuts, and
/// whether the cut cannot parse; `None` where the break is allowed.
fn cut_at(tokens: &[Token], k: usize) -> Option<(&'static str, bool)> {
    let (t, n) = (&tokens[k], &tokens[k + 1]);
    let property = k > 0 && matches!(tokens[k - 1].text, "." | "?.");
    if t.kind == Kind::Word && !property {
        if let Some(word) = RESTRICTED_WORDS.iter().find(|w| **w == t.text) {
            let takes = match *word {
                "break" | "continue" => n.kind == Kind::Word && !NOT_VALUES.contains(&n.text),
                _ => starts_value(n),
            };
            return takes.then_some((word, *word == "throw"));
        }
        if t.text == "async" && arrow_after(tokens, k) {
            return Some(("async", true));
        }
    }
    if n.kind == Kind::Punct && matches!(n.text, "++" | "--" | "=>") {
        let word = if n.text == "=>" {
            "=>"
        } else if ends_operand(t) && !starts_value(tokens.get(k + 2)?) {
            // `i` / `++` / `;`: the `++` reads the next line's start.
            return None;
        } else if ends_operand(t) {
            if n.text == "++" { "++" } else { "--" }
        } else {
            return None;
        };
        return Some((word, word == "=>"));
    }
    None
}

/// Whether `t` ends an operand a postfix `++` could apply to.
fn ends_operand(t: &Token) -> bool {
    match t.kind {
        Kind::Word => !NOT_VALUES.contains(&t.text),
        Kind::Punct => matches!(t.text, ")" | "]"),
        _ => false,
    }
}

/// Whether `n` can only start a value (see the module).
fn starts_value(n: &Token) -> bool {
    match n.kind {
        Kind::Word => value_word(n.text),
        Kind::Number | Kind::Str | Kind::TemplateEnd | Kind::TemplateHead | Kind::Regex => true,
        // A `{` below `return` is an object literal's, read as a block.
        Kind::Punct => matches!(
            n.text,
            "(" | "[" | "{" | "!" | "~" | "-" | "+" | "++" | "--"
        ),
    }
}

/// Whether an arrow function's bracketed parameters (`(..) =>`) follow
/// the `async` at `tokens[k]`: cut from them, `async(..)` reads as a
/// call, and the `=>` after it does not parse. (`async` over `x => x`
/// parses, as `async;` and an arrow of its own: not read.)
fn arrow_after(tokens: &[Token], k: usize) -> bool {
    if tokens.get(k + 1).is_none_or(|n| n.text != "(") {
        return false;
    }
    // The `)` whose `(` follows `tokens[k]`, and the token after it.
    tokens
        .iter()
        .skip(k + 2)
        .position(|t| t.text == ")" && t.head == Some(k))
        .and_then(|p| tokens.get(k + 3 + p))
        .is_some_and(|t| t.text == "=>")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::doubt::test_edits::edited;

    const TOTAL: &str = "export function total(a, b) {\n  return a + b;\n}\n";

    /// The tester's cases (round 46, T-06): `return` and `throw` cut from
    /// their values (node: `total(1, 2)` is `undefined`; `SyntaxError:
    /// Illegal newline after throw`).
    #[test]
    fn a_value_cut_from_return_or_throw_is_a_doubt() {
        let result = edited(TOTAL, "return a + b;", "return\n    a + b;");
        let cut = restricted_break("r.js", TOTAL, &result).expect("a cut");
        assert_eq!(
            cut.describe(),
            "line 2 (`return`) ends in `return` and line 3 (`a + b;`) holds what it takes: \
             JavaScript allows no line break between `return` and what it takes (a restricted \
             production), so it reads `return;`: the function returns `undefined`, and line 3 \
             is never run: keep the value's start on line 2 with `return`, or open a bracket \
             there (`return (` .. `)`) and wrap the value inside it"
        );
        let ts = edited(TOTAL, "(a, b)", "(a: number, b: number): number");
        let cut = restricted_break("r.ts", &ts, &ts.replace("return a", "return\n    a"));
        assert_eq!(cut.map(|c| (c.language, c.line.0)), Some(("TypeScript", 2)));
        let th = "export function f(a) {\n  if (!a) throw new Error(\"no a\");\n  return a;\n}\n";
        let cut = restricted_break("th.js", th, &th.replace("throw new", "throw\n    new"))
            .expect("a cut");
        assert_eq!(
            cut.fault(),
            "line 2 (`if (!a) throw`) ends in `throw` and line 3 (`new Error(\"no a\");`) holds \
             what it takes: JavaScript allows no line break between `throw` and what it takes \
             (a restricted production), so the file does not parse (node: `SyntaxError: \
             Illegal newline after throw`)"
        );
        // An object literal below `return` (a sweep's find: npm's
        // `return { regKey, authKey }` so cut; node reads a block).
        let obj = "function f(a, b) {\n  return { a, b }\n}\n";
        let cut = restricted_break("o.js", obj, &obj.replace("return {", "return\n    {"));
        assert_eq!(cut.map(|c| c.word), Some("return"));
        // A name that is a keyword elsewhere (tar's `return set;`).
        let set = "function f(set) {\n  return set;\n}\n";
        let cut = restricted_break("s.js", set, &set.replace("return set", "return\n    set"));
        assert_eq!(cut.map(|c| c.word), Some("return"));
        // Wrapped in a bracket, as the advice says: read as meant.
        let wrapped = edited(TOTAL, "return a + b;", "return (\n    a + b\n  );");
        assert_eq!(restricted_break("r.js", TOTAL, &wrapped), None);
    }

    /// The other restricted productions, each cut by an edit (node reads
    /// each as the fault says: `i` / `++` / `f` adds to `f`; `async` /
    /// `(x) =>` and `(x)` / `=> x` do not parse).
    #[test]
    fn every_restricted_production_is_read() {
        let cases = [
            (
                "outer: for (;;) { for (;;) { break outer } }\n",
                "break outer",
                "break\n  outer",
                "break",
            ),
            (
                "outer: for (;;) { for (;;) { continue outer } }\n",
                "continue outer",
                "continue\n  outer",
                "continue",
            ),
            (
                "function* g() {\n  yield 5\n}\n",
                "yield 5",
                "yield\n    5",
                "yield",
            ),
            ("let i = 0\nlet f = 0\ni++\nf\n", "i++", "i\n  ++", "++"),
            (
                "const f = async (x) => x\n",
                "async (x)",
                "async\n  (x)",
                "async",
            ),
            ("const f = (x) => x\n", "(x) =>", "(x)\n  =>", "=>"),
        ];
        for (file, old, new, word) in cases {
            let result = edited(file, old, new);
            let cut = restricted_break("a.js", file, &result);
            assert_eq!(cut.map(|c| c.word), Some(word), "{result:?}");
        }
    }

    /// What is no doubt: `return` ending a function early over the next
    /// statement, or alone over `}` or a comment; a break the file held
    /// before; a property named `return`; a value on the word's line.
    #[test]
    fn an_early_return_or_a_held_break_is_no_doubt() {
        let cases = [
            // New text: `return` over the next statement, at its depth.
            (
                "function f(a) {\n  run(a)\n}\n",
                "  run(a)",
                "  if (!a) return\n  run(a)",
            ),
            (
                "function f(a) {\n  run(a)\n}\n",
                "  run(a)",
                "  run(a)\n  return\n",
            ),
            (
                "function f(a) {\n  run(a)\n}\n",
                "  run(a)",
                "  run(a)\n  return\n  // done\n",
            ),
            (
                "function f(a) {\n  run(a)\n}\n",
                "  run(a)",
                "  if (!a) return\n  const b = a",
            ),
            (
                "function f(a) {\n  run(a)\n}\n",
                "  run(a)",
                "  return;\n  run(a)",
            ),
            ("const o = { a: 1 }\n", "a: 1", "a: 1, return:\n    2"),
            ("x.y\n", "x.y", "x.return\n    (1)"),
            ("let i = 0\ni++\nf()\n", "i++\n", "i++\n\n"),
            ("for (;;) { break }\n", "break }", "break\n  }"),
        ];
        for (file, old, new) in cases {
            let result = edited(file, old, new);
            assert_eq!(restricted_break("a.js", file, &result), None, "{result:?}");
        }
        // The same cut in the file before: not the edit's.
        let cut = edited(TOTAL, "return a + b;", "return\n    a + b;");
        assert_eq!(
            restricted_break("r.js", &cut, &cut.replace("a + b", "b + a")),
            None
        );
        // A file not read: JSX, another language.
        assert_eq!(restricted_break("r.jsx", TOTAL, &cut), None);
        assert_eq!(restricted_break("r.py", TOTAL, &cut), None);
    }
}
