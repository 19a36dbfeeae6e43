//! *Pure.* An edit that puts a line starting with `(`, `[` or a backquote
//! under a JavaScript or TypeScript statement that no semicolon ends (a
//! tester's find, 44-17: `(function init() { setup() })()` inserted under
//! `const a = b` reads as `const a = b(function init() ..)()`; node
//! throws `b(...) is not a function`, and the gate allowed it). JavaScript
//! ends a statement at a line break only where the next token cannot
//! continue it, and `(`, `[` and `` ` `` continue any expression: a call,
//! an index, a tagged template.
//!
//! Doubted only where the join is certain, read by tokens
//! ([`super::js_tokens`]; a file the reading cannot follow is not
//! judged): a line whose first token is `(`, `[` or a template literal,
//! whose token before (on an earlier line, comments read past) ends an
//! expression: a name (not a keyword), a number, a string, a template's
//! end, a `]`, a `)` that closes no `if`/`for`/`while`/`with`/`switch`/
//! `catch`/`function` head, or a `}` that closes a value (an object
//! literal where a value stands, a function or class expression: not a
//! block, a declaration or an arrow function's body); standing at the file's top level or in a
//! block (a `{` after `)`, `=>`, `else`, `do`, `try`, `finally`, `;`, a
//! `{` or a `}`; not an object literal, a class or an interface body,
//! nor inside brackets). Not read: a line above holding a `:` (a type
//! annotation, which TypeScript does not continue over a line break), an
//! `as`/`satisfies` cast, an `import`/`export .. from`, a name a `let`,
//! `var` or `const` declares without a value; a `.jsx`/`.tsx` file, or a
//! `.js` one holding `</` or `/>` (JSX text is no code); a line starting
//! with `+`, `-` or `/` (a continued expression is often meant). And only
//! a join the file before did not hold (the same two lines): the edit's
//! doing.
//!
//! Said: the two lines, and what JavaScript reads. A semicolon starting
//! the line (`;(function ..`, how code without semicolons writes such a
//! line) is offered where it ends the statement above and nothing else:
//! no `if`, `else`, `do`, `while`, `for` or `with` stands in that
//! statement outside its brackets (a semicolon there could end an `if`'s
//! body before its `else`), and the line below the joined one does not go
//! on with it. The statement above is read back from its last line over
//! the lines that continue it (a `.trim()` line under `const b =
//! String(a)`, a call's `)` closing lines above: round 46 T-03) to the
//! line a statement surely starts on: after a `;`, a block's `{` or `}`,
//! or with a word after an expression's end. Where no semicolon is
//! offered, the reason said is the one found: the `if` or loop and its
//! line, or the line that goes on.

use super::js_tokens::{Context, Kind, Token, tokens};

/// Words that end no expression.
pub(super) const NOT_VALUES: [&str; 63] = [
    "break",
    "case",
    "catch",
    "class",
    "const",
    "continue",
    "debugger",
    "default",
    "delete",
    "do",
    "else",
    "export",
    "extends",
    "finally",
    "for",
    "function",
    "if",
    "import",
    "in",
    "instanceof",
    "new",
    "return",
    "switch",
    "throw",
    "try",
    "typeof",
    "var",
    "void",
    "while",
    "with",
    "yield",
    "let",
    "static",
    "async",
    "await",
    "of",
    "get",
    "set",
    "as",
    "satisfies",
    "type",
    "interface",
    "declare",
    "abstract",
    "readonly",
    "public",
    "private",
    "protected",
    "override",
    "implements",
    "enum",
    "namespace",
    "module",
    "keyof",
    "infer",
    "is",
    "asserts",
    "accessor",
    "from",
    "unique",
    "global",
    "package",
    "out",
];

/// The words whose `(..)` is no call's: a `)` closing one ends no
/// expression.
const CONTROL_HEADS: [&str; 8] = [
    "if", "for", "while", "with", "switch", "catch", "function", "await",
];

/// Words that, on the line above, make a semicolon before the joined
/// line unsafe to offer: it may end a body before its `else` or `while`.
const BODY_WORDS: [&str; 6] = ["if", "else", "do", "while", "for", "with"];

/// A line an edit leaves continuing the statement above it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatementJoin {
    /// The language's name (`JavaScript`, `TypeScript`).
    pub language: &'static str,
    /// The line that continues (1-based) and its text.
    pub line: (usize, String),
    /// The line whose statement it continues (1-based) and its text.
    pub above: (usize, String),
    /// What the language reads: `b(...)`.
    pub reads: String,
    /// Whether a semicolon starting the line ends the statement above
    /// and nothing else (see the module): offered only then.
    pub semicolon: Semicolon,
}

/// Whether a semicolon starting the joined line ends the statement above
/// and nothing else, and if not, why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Semicolon {
    /// It does: offered.
    Sound,
    /// The statement above is the body of a statement headed by `word`
    /// (`if`, `else`, a loop) on `line` (1-based): a semicolon could end
    /// that body early.
    InBody {
        /// The word heading the statement.
        word: &'static str,
        /// Its line.
        line: usize,
    },
    /// The line below the joined one (1-based, its text) goes on with
    /// the statement: a semicolon would cut it.
    GoesOn {
        /// The line.
        line: usize,
        /// Its text, as its tokens read.
        text: String,
    },
}

impl StatementJoin {
    /// [`Self::fault`] and what to send instead.
    pub fn describe(&self) -> String {
        let (n, text) = &self.line;
        let withheld = |why: String| {
            format!(
                "if it is meant as a statement of its own, end the statement above where it is \
                 meant to end (srview offers no semicolon: {why})"
            )
        };
        let send = match &self.semicolon {
            Semicolon::Sound => format!(
                "if it is meant as a statement of its own, start line {n} with a semicolon \
                 (`;{}`), as code written without semicolons starts such a line",
                shorten(text.trim_start())
            ),
            Semicolon::InBody { word, line } => withheld(format!(
                "the statement above is the body of the `{word}` of line {line}, which a \
                 semicolon could end early"
            )),
            Semicolon::GoesOn { line, text } => withheld(format!(
                "line {line} (`{}`) goes on with the statement, and a semicolon before line \
                 {n} would cut it there",
                shorten(text.trim())
            )),
        };
        format!("{}: {send}", self.fault())
    }

    /// What the language reads, without what to send.
    pub fn fault(&self) -> String {
        let (n, text) = &self.line;
        let (m, above) = &self.above;
        format!(
            "line {n} (`{}`) continues the statement of line {m} (`{}`): no semicolon ends \
             line {m}, and {} ends a statement at a line break only where the next line \
             cannot continue it, so it reads `{}`, one statement, not two",
            shorten(text.trim()),
            shorten(above.trim()),
            self.language,
            self.reads
        )
    }
}

/// A line as a sentence quotes it ([`crate::dialect::edit::shorten`]).
fn shorten(text: &str) -> String {
    crate::dialect::edit::shorten(text)
}

/// The language `path` names, when its statements are read: JavaScript
/// or TypeScript without JSX.
fn language(path: &str) -> Option<&'static str> {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let (_, ext) = name.rsplit_once('.')?;
    match ext {
        "js" | "mjs" | "cjs" => Some("JavaScript"),
        "ts" | "mts" | "cts" => Some("TypeScript"),
        _ => None,
    }
}

/// The language of `path` when its edit from `original` to `result` is
/// read by tokens: JavaScript or TypeScript, neither text holding JSX (a
/// `.js` file holding `</` or `/>`: JSX text is no code).
pub(super) fn read_language(path: &str, original: &str, result: &str) -> Option<&'static str> {
    let language = language(path)?;
    let jsx = |text: &str| path.ends_with(".js") && (text.contains("</") || text.contains("/>"));
    (!jsx(result) && !jsx(original)).then_some(language)
}

/// The first line `result` (the file `path` after an edit) continues onto
/// the statement above it where `original` held no such join of the same
/// two lines; `None` for a file not read (see the module).
pub fn statement_join(path: &str, original: &str, result: &str) -> Option<StatementJoin> {
    let language = read_language(path, original, result)?;
    if !may_join(result) {
        return None;
    }
    let after = joins(result)?;
    if after.is_empty() {
        return None;
    }
    let before = joins(original)?;
    let lines: Vec<&str> = result.lines().collect();
    let old_lines: Vec<&str> = original.lines().collect();
    let mut held: Vec<(&str, &str)> = before.iter().map(|j| key(j, &old_lines)).collect();
    after.into_iter().find_map(|j| {
        let k = key(&j, &lines);
        if let Some(at) = held.iter().position(|h| *h == k) {
            held.swap_remove(at);
            return None;
        }
        let text = |k: usize| lines.get(k).map_or("", |l| l.trim_end_matches('\r'));
        Some(StatementJoin {
            language,
            line: (j.line + 1, text(j.line).to_string()),
            above: (j.above + 1, text(j.above).to_string()),
            reads: j.reads,
            semicolon: j.semicolon,
        })
    })
}

/// A join's two lines of `lines`, trimmed: the same two lines joined
/// before the edit are not its doing.
fn key<'a>(j: &Join, lines: &[&'a str]) -> (&'a str, &'a str) {
    let text = |k: usize| lines.get(k).map_or("", |l| l.trim());
    (text(j.above), text(j.line))
}

/// Whether a line of `text` starts with `(`, `[` or a backquote: else
/// nothing is read.
fn may_join(text: &str) -> bool {
    text.lines()
        .any(|l| l.trim_start().starts_with(['(', '[', '`']))
}

/// One join read: the lines (0-based), what it reads as, and whether a
/// semicolon is sound (its lines 1-based, as said).
#[derive(Debug)]
struct Join {
    above: usize,
    line: usize,
    reads: String,
    semicolon: Semicolon,
}

/// The joins of `text` (see the module), or `None` where its reading
/// cannot follow it.
fn joins(text: &str) -> Option<Vec<Join>> {
    tokens(text).map(|t| joins_of(&t))
}

/// The joins of `text`, read as `tokens`.
fn joins_of(tokens: &[Token]) -> Vec<Join> {
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate().skip(1) {
        let p = &tokens[i - 1];
        // A template's part after a `${..}` (`}/${b}``) starts with the
        // `}` closing it: the template goes on, none opens.
        let opens = match t.kind {
            Kind::Punct => matches!(t.text, "(" | "["),
            Kind::TemplateEnd | Kind::TemplateHead => t.text.starts_with('`'),
            _ => false,
        };
        if !opens || p.end_line >= t.line || !first_on_line(tokens, i) {
            continue;
        }
        if !statement_context(tokens, t.context) || !ends_expression(tokens, i - 1) {
            continue;
        }
        if above_not_read(tokens, i - 1) {
            continue;
        }
        let close = match t.text {
            "(" => "(...)",
            "[" => "[...]",
            _ => "`...`",
        };
        let what = match p.kind {
            Kind::Punct => format!("...{}", p.text),
            _ => shorten(p.text),
        };
        out.push(Join {
            above: p.end_line,
            line: t.line,
            reads: format!("{what}{close}"),
            semicolon: semicolon(tokens, i - 1, i),
        });
    }
    out
}

/// Whether `tokens[i]` is the first token on its line.
fn first_on_line(tokens: &[Token], i: usize) -> bool {
    i == 0 || tokens[i - 1].end_line < tokens[i].line
}

/// Whether `context` is where statements stand: the top level, or a
/// block's `{` (after `)`, `=>`, `else`, `do`, `try`, `finally`, `;`,
/// `{`, `}`, or at the file's start).
fn statement_context(tokens: &[Token], context: Context) -> bool {
    match context {
        Context::Top => true,
        Context::Brace(None) => true,
        Context::Brace(Some(h)) => {
            let head = &tokens[h];
            match head.kind {
                Kind::Punct => matches!(head.text, ")" | "=>" | ";" | "{" | "}"),
                Kind::Word => matches!(head.text, "else" | "do" | "try" | "finally"),
                _ => false,
            }
        }
        Context::Group | Context::Interp => false,
    }
}

/// Whether `tokens[i]` ends an expression (see the module).
fn ends_expression(tokens: &[Token], i: usize) -> bool {
    let p = &tokens[i];
    let before = i.checked_sub(1).map(|k| &tokens[k]);
    match p.kind {
        Kind::Word => {
            !NOT_VALUES.contains(&p.text)
                && !before.is_some_and(|b| {
                    matches!(
                        (b.kind, b.text),
                        (
                            Kind::Word,
                            "let" | "var" | "const" | "class" | "function" | "extends"
                        ) | (Kind::Punct, ",")
                    )
                })
        }
        Kind::Number | Kind::TemplateEnd => true,
        // A module's name after `from` or `import` ends the declaration.
        Kind::Str => {
            !before.is_some_and(|b| b.kind == Kind::Word && matches!(b.text, "from" | "import"))
        }
        Kind::Punct => match p.text {
            "]" => true,
            ")" => p.head.is_none_or(|h| {
                !(tokens[h].kind == Kind::Word && CONTROL_HEADS.contains(&tokens[h].text))
            }),
            "}" => p.head.is_some_and(|h| closes_a_value(tokens, h)),
            _ => false,
        },
        Kind::Regex | Kind::TemplateHead => false,
    }
}

/// Whether the `{` after `tokens[h]` opens a value, so that its `}` ends
/// an expression a `(` or `[` on the next line calls or indexes: an object
/// literal where a value stands (after `=`, `(`, `,`, an operator,
/// `return`, `throw`, `export default`), a function expression (`=
/// function (..) {`, named or `async`), a class expression (`= class {`).
/// Not a block, a declaration, an arrow function's body (`=> {}` takes no
/// call), a `case`'s or a label's block (after `:`), nor a TypeScript
/// type alias's object type (`type T = {`: TypeScript ends it there).
fn closes_a_value(tokens: &[Token], h: usize) -> bool {
    let head = &tokens[h];
    let value_before = |k: Option<usize>| {
        k.is_some_and(|k| {
            let t = &tokens[k];
            match t.kind {
                Kind::Punct => !matches!(t.text, ")" | "]" | "}" | "{" | ";" | "=>" | ":"),
                Kind::Word => {
                    matches!(t.text, "return" | "throw" | "yield" | "await" | "typeof")
                        || (t.text == "default"
                            && k.checked_sub(1).is_some_and(|e| tokens[e].text == "export"))
                }
                _ => false,
            }
        })
    };
    // The word `function`/`class` at `k`, after `async` at most: whether
    // it stands where a value does.
    let expression_at = |k: usize| {
        let before = k.checked_sub(1);
        let before = match before {
            Some(b) if tokens[b].text == "async" => b.checked_sub(1),
            b => b,
        };
        let default = before.is_some_and(|b| tokens[b].text == "default");
        value_before(before) && !default
    };
    if type_alias(line_of(tokens, h)) {
        return false;
    }
    match (head.kind, head.text) {
        (Kind::Punct, ")") => head.head.is_some_and(|f| {
            let word = |k: usize, w: &str| tokens[k].kind == Kind::Word && tokens[k].text == w;
            if word(f, "function") {
                expression_at(f)
            } else {
                let named = f.checked_sub(1).filter(|&k| word(k, "function"));
                let named = named.or_else(|| {
                    // `function* g(..)`
                    f.checked_sub(2)
                        .filter(|&k| tokens[k + 1].text == "*" && word(k, "function"))
                });
                tokens[f].kind == Kind::Word && named.is_some_and(expression_at)
            }
        }),
        (Kind::Word, "class") => expression_at(h),
        _ => value_before(Some(h)),
    }
}

/// The tokens on the line of `tokens[i]`, up to it.
fn line_of<'t, 'a>(tokens: &'t [Token<'a>], i: usize) -> &'t [Token<'a>] {
    let line = tokens[i].line;
    let start = tokens[..i]
        .iter()
        .rposition(|t| t.end_line < line)
        .map_or(0, |k| k + 1);
    &tokens[start..=i]
}

/// Whether the line above (ending with `tokens[i]`) holds what makes the
/// join uncertain: a `:` (a type annotation), an `as`/`satisfies` cast.
fn above_not_read(tokens: &[Token], i: usize) -> bool {
    let line = line_of(tokens, i);
    line.iter().any(|t| {
        matches!(
            (t.kind, t.text),
            (Kind::Punct, ":") | (Kind::Word, "as" | "satisfies")
        )
    }) || type_alias(line)
}

/// Whether `line` (its tokens) is a TypeScript type alias, `type T =
/// string` (after `export` or `declare`): a type has no call form, and
/// TypeScript ends the alias at a line break before `(` or `[` (a
/// tester's find, round 46 T-14: the parser reads two statements).
fn type_alias(line: &[Token]) -> bool {
    let mut words = line
        .iter()
        .skip_while(|t| t.kind == Kind::Word && matches!(t.text, "export" | "declare"));
    matches!(
        (words.next(), words.next()),
        (Some(t), Some(name)) if t.kind == Kind::Word && t.text == "type" && name.kind == Kind::Word
    )
}

/// The first token of the line after the line of `tokens[i]` when it
/// goes on with the statement: an operator (`: dirname(..)` of a
/// conditional, `.then(..)`, `+ x`), before which a semicolon would cut
/// the statement.
fn goes_on_past<'t, 'a>(tokens: &'t [Token<'a>], i: usize) -> Option<&'t Token<'a>> {
    let line = tokens[i].line;
    let first = tokens[i..].iter().find(|t| t.line > line)?;
    (first.kind == Kind::Punct && !matches!(first.text, "(" | "[" | "{" | "}" | ";"))
        .then_some(first)
}

/// Whether a semicolon before the joined line `tokens[joined]` ends the
/// statement `tokens[i]` ends and nothing else (see the module), and if
/// not, why.
fn semicolon(tokens: &[Token], i: usize, joined: usize) -> Semicolon {
    let context = tokens[i].context;
    let start = statement_start(tokens, i);
    let body = tokens[start..=i]
        .iter()
        .find(|t| t.context == context && t.kind == Kind::Word && BODY_WORDS.contains(&t.text));
    if let Some(t) = body {
        let word = BODY_WORDS
            .iter()
            .find(|w| **w == t.text)
            .map_or("if", |w| w);
        return Semicolon::InBody {
            word,
            line: t.line + 1,
        };
    }
    match goes_on_past(tokens, joined) {
        Some(next) => Semicolon::GoesOn {
            line: next.line + 1,
            text: line_text(tokens, next),
        },
        None => Semicolon::Sound,
    }
}

/// The text of the line `token` starts, as its tokens read (spaced).
fn line_text(tokens: &[Token], token: &Token) -> String {
    let words: Vec<&str> = tokens
        .iter()
        .filter(|t| t.line == token.line)
        .map(|t| t.text)
        .collect();
    words.join(" ")
}

/// Words a line may start with that go on with the expression above.
const GOING_ON_WORDS: [&str; 4] = ["in", "instanceof", "as", "satisfies"];

/// The index of the first token of the statement `tokens[i]` ends: from
/// the first token of its line, back over the lines that continue the one
/// before, to one a statement surely starts (see the module). Reading
/// back too far only reads more words, never fewer.
fn statement_start(tokens: &[Token], i: usize) -> usize {
    let context = tokens[i].context;
    // The first token inside the block the statement stands in.
    let floor = match context {
        Context::Brace(head) => head.map_or(1, |h| h + 2),
        _ => 0,
    };
    let mut first = i + 1 - line_of(tokens, i).len();
    while first > floor && !(tokens[first].context == context && starts_statement(tokens, first)) {
        first = first - line_of(tokens, first - 1).len();
    }
    first.max(floor)
}

/// Whether a statement surely starts at `tokens[f]` (`f > 0`): after a
/// `;` or a block's `{`, or a word (none that goes on with an expression)
/// after a `}` or an expression's end, which the word cannot continue.
fn starts_statement(tokens: &[Token], f: usize) -> bool {
    let (before, first) = (&tokens[f - 1], &tokens[f]);
    if before.kind == Kind::Punct && matches!(before.text, ";" | "{") {
        return true;
    }
    let word = first.kind == Kind::Word && !GOING_ON_WORDS.contains(&first.text);
    word && ((before.kind == Kind::Punct && before.text == "}") || ends_expression(tokens, f - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::doubt::test_edits::check_edit;

    const FILE: &str = "function b() { return 1 }\nfunction setup() { console.log(\"setup\") }\nconst a = b\nconsole.log(\"a is\", a)\n";

    fn inserted(line: &str) -> String {
        FILE.replace(
            "console.log(\"a is\"",
            &format!("{line}\nconsole.log(\"a is\""),
        )
    }

    /// The tester's case (44-17): said with what JavaScript reads, and the
    /// semicolon offered.
    #[test]
    fn a_line_starting_with_a_paren_continues_the_statement_above() {
        let result = inserted("(function init() { setup() })()");
        let join = statement_join("m.js", FILE, &result).expect("a join");
        assert_eq!(
            join.describe(),
            "line 4 (`(function init() { setup() })()`) continues the statement of line 3 \
             (`const a = b`): no semicolon ends line 3, and JavaScript ends a statement at a \
             line break only where the next line cannot continue it, so it reads `b(...)`, one \
             statement, not two: if it is meant as a statement of its own, start line 4 with a \
             semicolon (`;(function init() { setup() })()`), as code written without semicolons \
             starts such a line"
        );
        for (line, reads) in [("[1, 2].forEach(f)", "b[...]"), ("`tpl`", "b`...`")] {
            let join = statement_join("m.ts", FILE, &inserted(line)).expect("a join");
            assert_eq!(join.reads, reads);
            assert_eq!(join.language, "TypeScript");
        }
        // The semicolon written: no join.
        assert_eq!(statement_join("m.js", FILE, &inserted(";(init)()")), None);
    }

    /// A `}` that closes a value: an object literal, a function or class
    /// expression (a sweep of 500 npm files, `(f)()` put under 1,341 `}`
    /// lines: acorn read 200 joined, none of them said before; 105 said
    /// after, none of the 1,141 acorn read alone).
    #[test]
    fn a_line_under_an_object_or_function_expression_continues_it() {
        let cases = [
            ("const o = {\n  a: 1\n}\n(g)()\n", 4, 3),
            ("const f = function () {\n  return 1\n}\n(g)()\n", 4, 3),
            ("const f = async function named() {\n}\n[1].map(g)\n", 3, 2),
            ("x = class {\n}\n(g)()\n", 3, 2),
            ("export default {\n  a: 1\n}\n(g)()\n", 4, 3),
            (
                "function w() {\n  return {\n    a: 1\n  }\n  (g)()\n}\n",
                5,
                4,
            ),
            ("run(a, b)\nconst p = { a }\n`x`.length\n", 3, 2),
        ];
        for (text, line, above) in cases {
            let join = statement_join("a.js", "", text).expect(text);
            assert_eq!((join.line.0, join.above.0), (line, above), "{text:?}");
            assert!(join.reads.starts_with("...}"), "{text:?}: {}", join.reads);
        }
    }

    /// What is not a join, or not a certain one, or not the edit's.
    #[test]
    fn no_join_is_said_where_javascript_ends_the_statement() {
        let cases = [
            // A semicolon, a block's end, a keyword, an operator above.
            "const a = b;\n(f)()\n",
            "function g() {\n}\n(f)()\n",
            "if (x) {\n  y()\n}\n[1].map(f)\n",
            "return\n(f)()\n",
            "const a = b +\n(c)\n",
            // A control head's `)`: the line is its body.
            "if (ready)\n  (f)()\n",
            "for (const x of xs)\n  [x].map(f)\n",
            // Inside brackets, an object literal, a class body.
            "f(a,\n  (b))\n",
            "const o = {\n  a: b\n  (c)\n}\n",
            "class A {\n  x = 1\n  [k]() {}\n}\n",
            // A type annotation, a cast, an import's module, a `let`.
            "let x: number\n(f)()\n",
            // A TypeScript type alias (round 46, T-14).
            "type T = string\n(globalThis as any).t = 1\n",
            "export type U = string[]\n[a, b] = [b, a]\n",
            "const y = z as Foo\n(f)()\n",
            "import x from 'y'\n(f)()\n",
            "let a\n[b] = c\n",
            // A template's `${..}` closed at a line's start (a sweep's
            // find: npm-registry-fetch's `${\n  registry.trim()..\n}/${`).
            // (A `[` line below, so the text is read at all.)
            "const u = `${\n  a.trim()\n}/${b}`;\n[1].map(f)\n",
            "const v = `${\n  x\n}`;\n[1].map(f)\n",
            // Comments, strings, `+`/`-` lines.
            "const a = b // note (x)\n+ c\n",
            "const s = 'a'\n- 1\n",
            // Blocks and bodies no call takes: an arrow function's body, a
            // declaration's, a label's or a case's block, a class or an
            // interface declared, a type alias's object type, `export
            // default function`.
            "const f = () => {\n  return 1\n}\n(g)()\n",
            "async function h() {\n}\n(g)()\n",
            "function* k() {\n}\n(g)()\n",
            "out: {\n  x()\n}\n(g)()\n",
            "switch (v) {\n  case 1: {\n    x()\n  }\n  (g)()\n}\n",
            "class C {\n}\n(g)()\n",
            "export default function () {\n}\n(g)()\n",
            "type T = {\n  a: string\n}\n(g)()\n",
            "try {\n  x()\n} finally {\n}\n(g)()\n",
        ];
        for text in cases {
            assert_eq!(statement_join("a.js", "", text), None, "{text:?}");
            assert_eq!(statement_join("a.ts", "", text), None, "{text:?}");
        }
        // The same join in the file before: not the edit's.
        let joined = inserted("(f)()");
        assert_eq!(
            statement_join("m.js", &joined, &joined.replace("setup()", "setup(1)")),
            None
        );
        // JSX, and files of other languages: not read.
        assert_eq!(statement_join("m.jsx", FILE, &inserted("(f)()")), None);
        let jsx = format!("{FILE}const v = <p>x</p>\n");
        assert_eq!(
            statement_join(
                "m.js",
                &jsx,
                &jsx.replace("const a = b\n", "const a = b\n(f)()\n")
            ),
            None
        );
        assert_eq!(statement_join("m.py", FILE, &inserted("(f)()")), None);
    }

    /// A semicolon is offered only where it ends the statement above and
    /// nothing else; a join inside a function's block is read too.
    #[test]
    fn a_semicolon_is_offered_only_where_it_ends_one_statement() {
        let body = "function g() {\n  const a = b\n  return a\n}\n";
        let join = check_edit(
            statement_join,
            "g.js",
            body,
            "  return",
            "  (f)()\n  return",
        )
        .expect("a join");
        assert_eq!((join.line.0, join.above.0), (3, 2));
        assert_eq!(join.semicolon, Semicolon::Sound);
        let branch = "if (x) b\nelse c\n";
        let join = statement_join("g.js", branch, &branch.replace("\nelse", "\n(f)\nelse"))
            .expect("a join");
        let in_if_of_line_1 = Semicolon::InBody {
            word: "if",
            line: 1,
        };
        assert_eq!(join.semicolon, in_if_of_line_1);
        assert!(join.describe().ends_with(
            "srview offers no semicolon: the statement above is the body of the `if` of line 1, \
             which a semicolon could end early)"
        ));
        // A conditional going on below the line: a semicolon cuts it.
        let ternary = "const v = x ? b\n  : c\n";
        let join =
            statement_join("g.js", ternary, &ternary.replace("b\n", "b\n(f)\n")).expect("a join");
        assert_eq!(
            join.semicolon,
            Semicolon::GoesOn {
                line: 3,
                text: ": c".to_string()
            }
        );
        assert!(join.describe().ends_with(
            "srview offers no semicolon: line 3 (`: c`) goes on with the statement, and a \
             semicolon before line 2 would cut it there)"
        ));
        let after_if = "if (x)\n  b\nc()\n";
        let join = statement_join("g.js", after_if, &after_if.replace("\nc()", "\n(f)\nc()"))
            .expect("a join");
        assert_eq!(
            join.semicolon, in_if_of_line_1,
            "the line above is the if's body"
        );
    }

    /// A tester's find (round 46, T-03): after a line that continues the
    /// statement above it (a method chain's `.trim()`, a call's `)` over
    /// lines, an `if`'s body below it), the statement is read back to its
    /// start: the semicolon offered where it ends that statement (node
    /// reads each such file), withheld naming the `if` that governs it.
    #[test]
    fn the_statement_above_is_read_back_over_its_continued_lines() {
        let sound = [
            (
                "const a = 1\nconst b = String(a)\n  .trim()\nexport default b\n",
                "  .trim()\n",
            ),
            ("const b = foo(\n  1,\n  2\n)\nexport default b\n", ")\n"),
            (
                "const b = [1]\n  .map((x) => {\n    if (x) return x\n  })\nb()\n",
                "  })\n",
            ),
            ("function g() {\n  const b = f\n    .g()\n}\n", "    .g()\n"),
            (
                "if (x) {\n  y()\n}\nconst b = `a`\nb()\n",
                "const b = `a`\n",
            ),
            ("if (x) y()\nconst b = z\n  .w\nb()\n", "  .w\n"),
        ];
        for (file, above) in sound {
            let result = file.replacen(above, &format!("{above}(async () => {{}})()\n"), 1);
            let join = statement_join("d.js", file, &result).expect(file);
            assert_eq!(join.semicolon, Semicolon::Sound, "{file:?}");
        }
        let governed = [
            ("if (x)\n  b\n    .c()\nd()\n", "    .c()\n", "if", 1),
            ("while (x) foo(\n  1\n)\nd()\n", ")\n", "while", 1),
            ("if (x) {\n} else b\n  .c\nd()\n", "  .c\n", "else", 2),
        ];
        for (file, above, word, line) in governed {
            let result = file.replacen(above, &format!("{above}[1].map(f)\n"), 1);
            let join = statement_join("d.js", file, &result).expect(file);
            assert_eq!(join.semicolon, Semicolon::InBody { word, line }, "{file:?}");
        }
        let file = "const a = 1\nconst b = String(a)\n  .trim()\nexport default b\n";
        assert_eq!(
            check_edit(
                statement_join,
                "d.js",
                file,
                ".trim()\n",
                ".trim()\n(async () => {})()\n"
            )
            .map(|j| j.describe()),
            Some(
                "line 4 (`(async () => {})()`) continues the statement of line 3 (`.trim()`): \
                 no semicolon ends line 3, and JavaScript ends a statement at a line break \
                 only where the next line cannot continue it, so it reads `...)(...)`, one \
                 statement, not two: if it is meant as a statement of its own, start line 4 \
                 with a semicolon (`;(async () => {})()`), as code written without semicolons \
                 starts such a line"
                    .to_string()
            )
        );
    }
}
