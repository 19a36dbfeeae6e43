//! *Pure.* A separator the edit leaves out: an element of a list, call,
//! dict, object, match or initializer the edit writes (or writes a new
//! element under) with no `,` where the file separates its elements with
//! `,`; a C `struct`'s `};` become `}`; a SQL statement's `;` dropped
//! before the next statement; a Dockerfile exec form (`CMD ["a" "b"]`)
//! with two strings and no comma between. Tester round 50 T-01, T-02,
//! T-03, T-05, T-06, T-08: the commonest way an agent breaks a file.
//!
//! The rule for a bracketed sequence (Python, JavaScript/TypeScript, Rust,
//! C/C++), by evidence only:
//! - two code lines `a` and `b`, next to each other (blank and comment
//!   lines between are read past, a preprocessor line is not), at one
//!   indentation, both starting in the same open bracket and `a` a whole
//!   element (its brackets balanced, none closing below its start), where
//!   the edit writes `a` or `b` and the original held no such pair;
//! - `a` ends with no `,` and no operator (it is no continued
//!   expression), `b` starts with no operator or continuing keyword
//!   (`.`, `+`, `and`, `for`, `if`, `else`, `as`, ...) and no `(` or `[`
//!   (a call, an index);
//! - another line of that bracket at that indentation ends with `,`: the
//!   file separates these elements with commas;
//! - the bracket is one whose elements need commas: Python's `( [ {`;
//!   JavaScript's `( [` and an object literal's `{` (after `=`, `(`, `,`,
//!   `:` in JavaScript, `return`, ...; `b` a `key:`), never a block;
//!   Rust's `( [` outside macros (but `vec!`), a `match`'s arms (both
//!   lines hold `=>`, `a` not ending in a block's `}`) and a struct's or a
//!   struct literal's fields (`name: ..`); C's `(`, an initializer's `{`
//!   (after `=`) and an `enum`'s;
//! - two strings (`'match'` over `'type'`) in Python or C, which join
//!   them silently, only where the edit makes the pair: `a` was the last
//!   element or had its comma, or `b` an element of its own, in the
//!   original (an added concatenated string is meant so).

use crate::textdiff::changed_lines;

/// The language a file's name says, for what this check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Python,
    JavaScript,
    TypeScript,
    Rust,
    C,
    Sql,
    Docker,
}

impl Lang {
    fn of(path: &str) -> Option<Lang> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if name == "Dockerfile"
            || name.starts_with("Dockerfile.")
            || name.ends_with(".Dockerfile")
            || name.ends_with(".dockerfile")
            || name == "Containerfile"
        {
            return Some(Lang::Docker);
        }
        let ext = name.rsplit_once('.')?.1.to_ascii_lowercase();
        Some(match ext.as_str() {
            "py" | "pyi" | "pyw" => Lang::Python,
            "js" | "mjs" | "cjs" => Lang::JavaScript,
            "ts" | "mts" | "cts" => Lang::TypeScript,
            "rs" => Lang::Rust,
            "c" | "h" | "cc" | "cpp" | "cxx" | "hpp" | "hh" | "hxx" => Lang::C,
            "sql" => Lang::Sql,
            _ => return None,
        })
    }

    fn name(self) -> &'static str {
        match self {
            Lang::Python => "Python",
            Lang::JavaScript => "JavaScript",
            Lang::TypeScript => "TypeScript",
            Lang::Rust => "Rust",
            Lang::C => "C",
            Lang::Sql => "SQL",
            Lang::Docker => "Docker",
        }
    }
}

/// A separator the edit leaves out, with what the language then does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeparatorDropped {
    /// The result's line (1-based) lacking the separator, trimmed.
    pub line: (usize, String),
    /// The separator left out (`,` or `;`).
    pub separator: char,
    /// Where it is missing (`before line 5 (..), which starts another
    /// element`).
    pub gap: String,
    /// What the language does with the text as written.
    pub effect: String,
    /// What to send instead (`end line 4 with `,``).
    pub send: String,
}

impl SeparatorDropped {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!("{}: {}", self.fault(), self.send)
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (at, text) = &self.line;
        format!(
            "line {at} (`{text}`) has no `{sep}` {gap}: {effect}",
            sep = self.separator,
            gap = self.gap,
            effect = self.effect,
        )
    }
}

/// The `gap` of a separator missing before line `next` (0-based).
fn before_line(next: usize, text: &str, starts: &str) -> String {
    format!(
        "before line {} (`{}`), which starts {starts}",
        next + 1,
        text.trim()
    )
}

/// The `send` of a separator missing at the end of line `at` (0-based).
fn end_line_with(at: usize, separator: char) -> String {
    format!("end line {} with `{separator}`", at + 1)
}

/// Whether [`separator_dropped`] reads the file `path` (a Dockerfile, a
/// SQL file, Python, JavaScript, TypeScript, Rust, C or C++ by its name).
pub(super) fn separator_read(path: &str) -> bool {
    Lang::of(path).is_some()
}

/// The first separator `result` (the file `path` as an edit leaves it)
/// lacks where `original` had it (see the module's rule).
pub(super) fn separator_dropped(
    path: &str,
    original: &str,
    result: &str,
) -> Option<SeparatorDropped> {
    if original == result || original.is_empty() {
        return None;
    }
    let lang = Lang::of(path)?;
    match lang {
        Lang::Docker => docker_exec_comma(original, result),
        Lang::Sql => sql_statement_joined(original, result),
        _ => sequence_comma(lang, original, result)
            .or_else(|| (lang == Lang::C).then(|| struct_semicolon(original, result))?),
    }
}

/// One line as the scanner leaves it: strings' insides blanked, comments
/// removed, and the brackets around it.
#[derive(Debug, Clone)]
struct Line {
    /// The code, strings kept as their quotes around `_`s, no comment.
    code: String,
    indent: usize,
    /// The line starts outside strings and comments.
    starts_in_code: bool,
    /// The line starts inside a block comment.
    starts_in_comment: bool,
    /// The innermost open bracket at its start (index in `openers`).
    opener: Option<usize>,
    depth_start: usize,
    depth_end: usize,
    depth_min: usize,
    /// The innermost open bracket at its end.
    opener_end: Option<usize>,
}

/// An open bracket: its character, the code before it (on its line, or
/// the code line above when it stands first) and its enclosing bracket.
#[derive(Debug, Clone)]
struct Opener {
    bracket: char,
    header: String,
    parent: Option<usize>,
}

/// The scanner's state between lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Inside {
    Code,
    /// A string closed by this quote (`'`, `"`, a backquote), three of them
    /// when `triple`.
    Str {
        quote: char,
        triple: bool,
    },
    /// A block comment, nested `depth` deep (Rust nests them).
    Comment {
        depth: usize,
    },
    /// A Rust raw string closed by `"` and `hashes` `#`s.
    Raw {
        hashes: usize,
    },
    /// A SQL dollar-quoted body (`$$ .. $$`, `$fn$ .. $fn$`), closed by its
    /// tag (its first `len` bytes, ASCII).
    Dollar {
        tag: [u8; 16],
        len: usize,
    },
}

/// `text`'s lines read in `lang`: strings blanked, comments gone, every
/// bracket matched.
fn scan(lang: Lang, text: &str) -> (Vec<Line>, Vec<Opener>) {
    let mut lines = Vec::new();
    let mut openers: Vec<Opener> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut inside = Inside::Code;
    let mut last_code = String::new();
    for raw in text.lines() {
        let starts_in_code = inside == Inside::Code;
        let starts_in_comment = matches!(inside, Inside::Comment { .. });
        let chars: Vec<char> = raw.chars().collect();
        let mut code = String::new();
        let depth_start = stack.len();
        let opener = stack.last().copied();
        let mut depth_min = depth_start;
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let next = chars.get(i + 1).copied();
            match inside {
                Inside::Str { quote, triple } => {
                    if c == '\\' {
                        code.push_str("__");
                        i += 2;
                        continue;
                    }
                    if c == quote
                        && (!triple
                            || (chars.get(i + 1) == Some(&quote)
                                && chars.get(i + 2) == Some(&quote)))
                    {
                        let n = if triple { 3 } else { 1 };
                        for _ in 0..n {
                            code.push(quote);
                        }
                        i += n;
                        inside = Inside::Code;
                        continue;
                    }
                    code.push('_');
                    i += 1;
                }
                Inside::Raw { hashes } => {
                    if c == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                        code.push('"');
                        i += 1 + hashes;
                        inside = Inside::Code;
                        continue;
                    }
                    code.push('_');
                    i += 1;
                }
                Inside::Dollar { tag, len } => {
                    let closes = c == '$'
                        && chars.len() >= i + len
                        && chars[i..i + len]
                            .iter()
                            .zip(&tag[..len])
                            .all(|(x, t)| u32::from(*x) == u32::from(*t));
                    if closes {
                        code.push_str("$$");
                        i += len;
                        inside = Inside::Code;
                        continue;
                    }
                    code.push('_');
                    i += 1;
                }
                Inside::Comment { depth } => {
                    if c == '*' && next == Some('/') {
                        inside = if depth > 1 {
                            Inside::Comment { depth: depth - 1 }
                        } else {
                            Inside::Code
                        };
                        i += 2;
                        continue;
                    }
                    if lang == Lang::Rust && c == '/' && next == Some('*') {
                        inside = Inside::Comment { depth: depth + 1 };
                        i += 2;
                        continue;
                    }
                    i += 1;
                }
                Inside::Code => {
                    let slashes = !matches!(lang, Lang::Python | Lang::Sql);
                    if (lang == Lang::Python && c == '#')
                        || (slashes && c == '/' && next == Some('/'))
                        || (lang == Lang::Sql && c == '-' && next == Some('-'))
                    {
                        break;
                    }
                    if lang == Lang::Sql && c == '$' {
                        // `$tag$` opens a dollar-quoted body (PostgreSQL).
                        let tag_len = chars[i + 1..]
                            .iter()
                            .take_while(|t| t.is_ascii_alphanumeric() || **t == '_')
                            .count();
                        if chars.get(i + 1 + tag_len) == Some(&'$') && tag_len + 2 <= 16 {
                            let mut tag = [0u8; 16];
                            for (k, t) in chars[i..i + tag_len + 2].iter().enumerate() {
                                tag[k] = u8::try_from(u32::from(*t)).unwrap_or(b'?');
                            }
                            code.push_str("$$");
                            i += tag_len + 2;
                            inside = Inside::Dollar {
                                tag,
                                len: tag_len + 2,
                            };
                            continue;
                        }
                    }
                    if lang != Lang::Python && c == '/' && next == Some('*') {
                        inside = Inside::Comment { depth: 1 };
                        i += 2;
                        continue;
                    }
                    if matches!(lang, Lang::JavaScript | Lang::TypeScript)
                        && c == '/'
                        && regex_may_start(&code)
                    {
                        // A regular expression literal: read to its `/`.
                        code.push('/');
                        i += 1;
                        let mut class = false;
                        while i < chars.len() {
                            let r = chars[i];
                            if r == '\\' {
                                i += 2;
                                code.push_str("__");
                                continue;
                            }
                            i += 1;
                            match r {
                                '[' => class = true,
                                ']' => class = false,
                                '/' if !class => break,
                                _ => {}
                            }
                            code.push('_');
                        }
                        code.push('/');
                        continue;
                    }
                    if lang == Lang::Rust && c == 'r' && matches!(next, Some('"' | '#')) {
                        let ident_before = code
                            .chars()
                            .last()
                            .is_some_and(|p| p.is_alphanumeric() || p == '_');
                        let hashes = chars[i + 1..].iter().take_while(|h| **h == '#').count();
                        if !ident_before && chars.get(i + 1 + hashes) == Some(&'"') {
                            code.push('"');
                            i += 2 + hashes;
                            inside = Inside::Raw { hashes };
                            continue;
                        }
                    }
                    if lang == Lang::Rust && c == '\'' {
                        // A char literal (`'x'`, `'\n'`), else a lifetime.
                        let end = if next == Some('\\') {
                            chars[i + 2..]
                                .iter()
                                .position(|q| *q == '\'')
                                .map(|p| i + 2 + p)
                        } else if chars.get(i + 2) == Some(&'\'') {
                            Some(i + 2)
                        } else {
                            None
                        };
                        match end {
                            Some(end) => {
                                code.push_str("'_'");
                                i = end + 1;
                            }
                            None => {
                                code.push('\'');
                                i += 1;
                            }
                        }
                        continue;
                    }
                    let quotes: &[char] = match lang {
                        Lang::JavaScript | Lang::TypeScript => &['\'', '"', '`'],
                        Lang::Rust => &['"'],
                        _ => &['\'', '"'],
                    };
                    if quotes.contains(&c) {
                        let triple = lang == Lang::Python
                            && chars.get(i + 1) == Some(&c)
                            && chars.get(i + 2) == Some(&c);
                        let n = if triple { 3 } else { 1 };
                        for _ in 0..n {
                            code.push(c);
                        }
                        i += n;
                        inside = Inside::Str { quote: c, triple };
                        continue;
                    }
                    match c {
                        '(' | '[' | '{' => {
                            let before = code.trim();
                            let header = if before.is_empty() {
                                last_code.clone()
                            } else {
                                before.to_string()
                            };
                            openers.push(Opener {
                                bracket: c,
                                header,
                                parent: stack.last().copied(),
                            });
                            stack.push(openers.len() - 1);
                        }
                        ')' | ']' | '}' => {
                            stack.pop();
                            depth_min = depth_min.min(stack.len());
                        }
                        _ => {}
                    }
                    code.push(c);
                    i += 1;
                }
            }
        }
        // A single-quoted string ends at its line in every language read
        // here but JavaScript's template and Python's triple quotes (and a
        // line ending in `\`, read as ending it too).
        if let Inside::Str { quote, triple } = inside {
            let multi_line = triple
                || quote == '`'
                || (lang == Lang::Rust && quote == '"')
                || lang == Lang::C
                || lang == Lang::Sql;
            if !multi_line {
                inside = Inside::Code;
            }
        }
        let code = code.trim_end().to_string();
        if !code.trim().is_empty() {
            last_code = code.trim().to_string();
        }
        lines.push(Line {
            indent: raw.len() - raw.trim_start().len(),
            code,
            starts_in_code,
            starts_in_comment,
            opener,
            depth_start,
            depth_end: stack.len(),
            opener_end: stack.last().copied(),
            depth_min,
        });
    }
    (lines, openers)
}

/// A `/` after this code starts a regular expression, not a division.
fn regex_may_start(code: &str) -> bool {
    let before = code.trim_end();
    match before.chars().last() {
        None => true,
        Some(c) if "(,=:[!&|?{};+-*%<>~^".contains(c) => true,
        Some(_) => ["return", "typeof", "case", "in", "of", "void"]
            .iter()
            .any(|k| ends_with_word(before, k)),
    }
}

fn ends_with_word(text: &str, word: &str) -> bool {
    text.strip_suffix(word).is_some_and(|rest| {
        !rest
            .chars()
            .last()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '.')
    })
}

fn starts_with_word(text: &str, word: &str) -> bool {
    text.strip_prefix(word).is_some_and(|rest| {
        !rest
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

/// Words that continue an expression from the line above.
fn continuing_word(lang: Lang, text: &str) -> bool {
    let words: &[&str] = match lang {
        Lang::Python => &[
            "and", "or", "not", "in", "is", "if", "else", "for", "async", "lambda", "from",
        ],
        Lang::JavaScript | Lang::TypeScript => {
            &["instanceof", "in", "of", "as", "satisfies", "extends"]
        }
        Lang::Rust => &["as", "else", "where", "if"],
        _ => &[],
    };
    words.iter().any(|w| starts_with_word(text, w))
}

/// Words that leave an expression open at a line's end.
fn open_ending_word(text: &str) -> bool {
    [
        "and", "or", "not", "in", "is", "if", "else", "lambda", "return", "await", "yield", "new",
        "typeof", "as",
    ]
    .iter()
    .any(|w| ends_with_word(text, w))
}

/// The line is a string literal first (with Python's or C's prefixes).
fn starts_with_string(lang: Lang, text: &str) -> bool {
    let prefixes = match lang {
        Lang::Python => "rRbBuUfF",
        Lang::C => "LuU8",
        _ => "",
    };
    text.find(['\'', '"'])
        .is_some_and(|p| p <= 2 && text[..p].chars().all(|c| prefixes.contains(c)))
}

/// `text` starts with a key and `:` (a dict's, an object's or a struct's
/// field), not `::`.
fn starts_with_key(text: &str) -> bool {
    let key_end = if text.starts_with(['\'', '"']) {
        let quote = text.chars().next().unwrap_or('"');
        text[1..].find(quote).map(|p| p + 2)
    } else {
        let n = text
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(text.len());
        (n > 0).then_some(n)
    };
    let Some(end) = key_end else {
        return false;
    };
    let rest = text[end..].trim_start();
    rest.starts_with(':') && !rest.starts_with("::")
}

/// The bracket `opener` holds elements separated by commas in `lang`
/// (see the module's rule), for the lines `a` over `b`.
fn comma_bracket(lang: Lang, openers: &[Opener], opener: usize, a: &str, b: &str) -> bool {
    let Some(o) = openers.get(opener) else {
        return false;
    };
    let header = o.header.trim_end();
    match lang {
        Lang::Python => true,
        Lang::JavaScript | Lang::TypeScript => match o.bracket {
            '{' => {
                let mut ends = vec!["=", "(", ",", "[", "?", "||", "&&", "??"];
                if lang == Lang::JavaScript {
                    ends.push(":");
                }
                let value_after = ends
                    .iter()
                    .any(|e| header.ends_with(e) && !header.ends_with("=>"))
                    || [
                        "return", "default", "const", "let", "var", "import", "export",
                    ]
                    .iter()
                    .any(|w| ends_with_word(header, w));
                let label = ["case", "default"]
                    .iter()
                    .any(|w| starts_with_word(header, w));
                let type_alias = starts_with_word(header.trim_start_matches("export "), "type")
                    || header.starts_with("declare ");
                value_after
                    && !type_alias
                    && !label
                    && (starts_with_key(b) || property_name(b))
                    && !starts_with_word(a, "case")
                    && !starts_with_word(a, "default")
            }
            _ => !(a.starts_with('<') || b.starts_with('<')),
        },
        Lang::Rust => {
            if in_macro(openers, opener) {
                return false;
            }
            match o.bracket {
                '{' => {
                    let arms = a.contains("=>") && b.contains("=>") && !a.ends_with('}');
                    let struct_header = header
                        .split_whitespace()
                        .any(|w| w == "struct" || w == "union")
                        || header
                            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                            .next()
                            .is_some_and(|last| {
                                last.rsplit("::")
                                    .next()
                                    .is_some_and(|n| n.starts_with(|c: char| c.is_uppercase()))
                            });
                    let field = |t: &str| {
                        let t = unvisible(t);
                        starts_with_key(t) || shorthand(t)
                    };
                    let fields = struct_header
                        && field(a)
                        && (field(b) || b.starts_with(".."))
                        && !a.ends_with('}');
                    let words: Vec<&str> = header.split_whitespace().collect();
                    let variants = words.contains(&"enum")
                        && unvisible(b).starts_with(|c: char| c.is_uppercase());
                    let uses = matches!(words.first(), Some(&"use"))
                        || words.first().is_some_and(|w| w.starts_with("pub"))
                            && words.get(1) == Some(&"use");
                    arms || fields || variants || uses
                }
                _ => true,
            }
        }
        Lang::C => match o.bracket {
            '{' => {
                header.ends_with('=')
                    || header.split_whitespace().take(2).any(|w| w == "enum")
                    || (header.is_empty() || header.ends_with(',') || header.ends_with('{'))
                        && o.parent.is_some_and(|p| {
                            openers.get(p).is_some_and(|q| {
                                q.bracket == '{' && q.header.trim_end().ends_with('=')
                            })
                        })
            }
            '(' => true,
            _ => false,
        },
        Lang::Sql | Lang::Docker => false,
    }
}

/// `text` is a shorthand property, a spread or a method (`name,`,
/// `...rest`, `name(a) {`, `async name(`), as an object literal's line.
fn property_name(text: &str) -> bool {
    if text.starts_with("...") {
        return true;
    }
    let text = ["async ", "get ", "set ", "*"]
        .iter()
        .fold(text, |t, p| t.strip_prefix(p).unwrap_or(t));
    let n = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(text.len());
    let rest = text[n..].trim_start();
    n > 0
        && !text.starts_with(|c: char| c.is_ascii_digit())
        && (rest.is_empty() || rest == "," || rest.starts_with('('))
        && ![
            "return", "await", "yield", "throw", "delete", "typeof", "void", "new",
        ]
        .iter()
        .any(|w| starts_with_word(text, w))
}

/// A Rust line without its leading `pub`, `pub(crate)`, `pub(in ..)`.
fn unvisible(text: &str) -> &str {
    if let Some(rest) = text.strip_prefix("pub(") {
        return rest.split_once(')').map_or(text, |(_, r)| r.trim_start());
    }
    text.strip_prefix("pub ").unwrap_or(text)
}

/// `text` is a name alone, with a comma or not (`fd,`, `fd`).
fn shorthand(text: &str) -> bool {
    let name = text.strip_suffix(',').unwrap_or(text);
    !name.is_empty()
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// A standard Rust macro whose arguments are expressions separated by
/// commas (`vec!`, `format!`, `assert_eq!`, ...), the code before its `!`.
fn comma_macro(before_bang: &str) -> bool {
    const MACROS: [&str; 16] = [
        "vec",
        "format",
        "print",
        "println",
        "eprint",
        "eprintln",
        "write",
        "writeln",
        "panic",
        "assert",
        "assert_eq",
        "assert_ne",
        "debug_assert",
        "debug_assert_eq",
        "debug_assert_ne",
        "format_args",
    ];
    let name = before_bang
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()
        .unwrap_or("");
    MACROS.contains(&name)
}

/// Some bracket around `opener` (or it) is a Rust macro's, `vec!` aside.
fn in_macro(openers: &[Opener], opener: usize) -> bool {
    let mut at = Some(opener);
    while let Some(i) = at {
        let Some(o) = openers.get(i) else {
            return false;
        };
        let header = o.header.trim_end();
        if header.contains("macro_rules!")
            || (header.ends_with('!') && !comma_macro(header.trim_end_matches('!')))
        {
            return true;
        }
        at = o.parent;
    }
    false
}

/// A pair of code lines `a` over `b` read as two elements with no comma
/// between: the index of `a` and `b` in `lines`.
/// `had_comma(i)`: the original ended line `i`'s text with a comma.
fn missing_commas(
    lang: Lang,
    lines: &[Line],
    openers: &[Opener],
    had_comma: &dyn Fn(usize) -> bool,
) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    let mut above: Option<usize> = None;
    for (j, b) in lines.iter().enumerate() {
        let text = b.code.trim();
        // A comment's lines between two elements are read past.
        if b.starts_in_comment && text.is_empty() {
            continue;
        }
        if !b.starts_in_code {
            above = None;
            continue;
        }
        if text.is_empty() {
            continue;
        }
        if lang == Lang::C && text.starts_with('#') {
            above = None;
            continue;
        }
        if let Some(i) = above
            && separator_missing(lang, lines, openers, i, j, had_comma)
        {
            pairs.push((i, j));
        }
        above = Some(j);
    }
    pairs
}

/// [`missing_commas`] for one pair.
fn separator_missing(
    lang: Lang,
    lines: &[Line],
    openers: &[Opener],
    i: usize,
    j: usize,
    had_comma: &dyn Fn(usize) -> bool,
) -> bool {
    let (a, b) = (&lines[i], &lines[j]);
    let (at, bt) = (a.code.trim(), b.code.trim());
    let Some(opener) = b.opener else {
        return false;
    };
    let in_place = a.opener_end == Some(opener)
        && a.depth_end == b.depth_start
        && a.indent == b.indent
        && a.starts_in_code;
    // A whole element on its line, or the closing line of one that spans
    // lines (`}` or `]` under its content).
    let whole =
        a.opener == Some(opener) && a.depth_start == a.depth_end && a.depth_min == a.depth_start;
    let closing = closer_only(at) && a.depth_start > a.depth_end;
    if !in_place || !(whole || closing) {
        return false;
    }
    let open_end =
        at.ends_with(|c: char| ",;+-*/%=<>&|^~!?:.\\([{@".contains(c)) || open_ending_word(at);
    // A line starting with `(` or `[` calls or indexes a literal above it.
    let called = bt.starts_with(['(', '['])
        && (one_group(at) || one_string(lang, at) || (closing && !at.ends_with(')')));
    // A Rust struct literal's `..base` is an element of its own.
    let update = lang == Lang::Rust && bt.starts_with("..") && openers[opener].bracket == '{';
    let continued =
        (bt.starts_with(|c: char| ".+-*/%=<>&|^~!?:)]},;([`@#".contains(c)) && !called && !update)
            || continuing_word(lang, bt)
            || bt.starts_with("=>");
    // A Rust type's generic arguments end with `>`.
    let generic_end = lang == Lang::Rust
        && at.ends_with('>')
        && at.matches('<').count()
            == at
                .matches('>')
                .count()
                .saturating_sub(at.matches("=>").count() + at.matches("->").count());
    let open_end = open_end && !generic_end;
    let block_end = lang == Lang::Rust
        && openers[opener].bracket == '{'
        && at.ends_with('}')
        && !openers[opener]
            .header
            .split_whitespace()
            .any(|w| w == "enum");
    // An attribute (`#[serde(default)]`) stands over its element.
    let attribute = lang == Lang::Rust && at.starts_with('#');
    if open_end || continued || block_end || attribute {
        return false;
    }
    if !comma_bracket(lang, openers, opener, at, bt) {
        return false;
    }
    // The original ended this line with `,`, or another line of this
    // bracket, at this indentation, ends with `,`.
    had_comma(i)
        || lines.iter().enumerate().any(|(k, s)| {
            k != i
                && s.opener_end == Some(opener)
                && s.indent == a.indent
                && s.depth_end == a.depth_end
                && s.starts_in_code
                && s.code.trim_end().ends_with(',')
        })
}

/// `code` is only closing brackets (`}`, `])`).
fn closer_only(code: &str) -> bool {
    !code.is_empty() && code.chars().all(|c| matches!(c, ')' | ']' | '}'))
}

/// `code` is one bracketed group: its first bracket closes at its end.
fn one_group(code: &str) -> bool {
    if !code.starts_with(['(', '[', '{']) {
        return false;
    }
    let mut depth = 0usize;
    for (at, c) in code.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return at + 1 == code.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// `code` is one string literal (its insides blanked by [`scan`]).
fn one_string(lang: Lang, code: &str) -> bool {
    starts_with_string(lang, code)
        && code.ends_with(['\'', '"'])
        && code.chars().filter(|c| matches!(c, '\'' | '"')).count() <= 6
        && !code.contains([' ', '+', '%', ','])
}

/// Both lines are string literals alone, which Python and C join.
fn joined_strings(lang: Lang, a: &str, b: &str) -> bool {
    matches!(lang, Lang::Python | Lang::C)
        && starts_with_string(lang, a)
        && a.ends_with(['\'', '"'])
        && starts_with_string(lang, b)
}

/// What `lang` does with `a` over `b`, no comma between.
fn comma_effect(lang: Lang, a: &str, b: &str, bracket: char) -> String {
    if joined_strings(lang, a, b) {
        let joiner = if lang == Lang::Python {
            "Python"
        } else {
            "the C compiler"
        };
        return format!(
            "{joiner} joins the two strings into one, silently, and the {} has one element \
             fewer than written",
            if lang == Lang::Python {
                "sequence"
            } else {
                "array"
            }
        );
    }
    if b.starts_with(['(', '['])
        && matches!(lang, Lang::Python | Lang::JavaScript | Lang::TypeScript)
    {
        return format!(
            "{} reads line {{next}} as a call or an index of the element above it (a `TypeError` \
             or `undefined` when it runs), one element fewer than written",
            lang.name()
        );
    }
    match lang {
        Lang::Python => {
            "Python refuses the file (`SyntaxError: invalid syntax. Perhaps you forgot a \
             comma?`)"
                .to_string()
        }
        Lang::JavaScript | Lang::TypeScript => format!(
            "{} refuses the file (`SyntaxError: Unexpected {}`)",
            lang.name(),
            if b.starts_with(['\'', '"', '`']) {
                "string"
            } else {
                "identifier"
            }
        ),
        Lang::Rust if bracket == '{' && a.contains("=>") => {
            "rustc refuses the file (expected `,` following `match` arm)".to_string()
        }
        Lang::Rust => "rustc refuses the file (expected `,`)".to_string(),
        _ => "the compiler refuses the file (expected `,` or the closing bracket)".to_string(),
    }
}

/// The module's rule for bracketed sequences.
fn sequence_comma(lang: Lang, original: &str, result: &str) -> Option<SeparatorDropped> {
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    let replaced = &old[prefix..old.len() - suffix];
    let (old_lines, old_openers) = scan(lang, original);
    let old_pairs: Vec<(String, String)> =
        missing_commas(lang, &old_lines, &old_openers, &|_| false)
            .into_iter()
            .map(|(i, j)| {
                (
                    old_lines[i].code.trim().to_string(),
                    old_lines[j].code.trim().to_string(),
                )
            })
            .collect();
    let (lines, openers) = scan(lang, result);
    let written = |k: usize| changed.contains(&k) && !replaced.contains(&new[k]);
    // The original held line `k`'s text with a `,` after it.
    let had_comma = |k: usize| {
        let with = format!("{},", new[k].trim_end());
        replaced.iter().any(|l| *l == with)
    };
    for (i, j) in missing_commas(lang, &lines, &openers, &had_comma) {
        if !(changed.contains(&i) || changed.contains(&j)) {
            continue;
        }
        let (a, b) = (lines[i].code.trim(), lines[j].code.trim());
        if old_pairs.iter().any(|(x, y)| x == a && y == b) {
            continue;
        }
        if joined_strings(lang, a, b) {
            if written(i) && written(j) {
                continue;
            }
            // `a` as it stood: followed by another string, it was joined
            // to it already (a concatenation the edit extends).
            let was_joined = old_lines.iter().enumerate().any(|(k, l)| {
                l.code.trim() == a
                    && old_lines[k + 1..]
                        .iter()
                        .find(|n| !n.code.trim().is_empty())
                        .is_some_and(|n| {
                            let t = n.code.trim();
                            !t.starts_with([')', ']', '}'])
                        })
            });
            if was_joined {
                continue;
            }
        }
        let bracket = lines[j]
            .opener
            .and_then(|o| openers.get(o))
            .map_or('(', |o| o.bracket);
        return Some(SeparatorDropped {
            line: (i + 1, new[i].trim().to_string()),
            separator: ',',
            gap: before_line(j, new[j], "another element"),
            effect: comma_effect(lang, a, b, bracket).replace("{next}", &(j + 1).to_string()),
            send: end_line_with(i, ','),
        });
    }
    None
}

/// C/C++: a `struct`, `class`, `union` or `enum` definition whose `}` the
/// edit leaves with no `;` (nor a declarator) after it, where the original
/// had it.
fn struct_semicolon(original: &str, result: &str) -> Option<SeparatorDropped> {
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    let old_faults = bare_type_closers(original);
    for (close, header, next) in bare_type_closers(result) {
        if !changed.contains(&close) || old_faults.iter().any(|(_, h, _)| *h == header) {
            continue;
        }
        let gap = match next {
            Some(n) => format!(
                "after the definition of `{header}`, before line {} (`{}`)",
                n + 1,
                new[n].trim()
            ),
            None => format!("after the definition of `{header}`, at the end of the file"),
        };
        return Some(SeparatorDropped {
            line: (close + 1, new[close].trim().to_string()),
            separator: ';',
            gap,
            effect: "a C or C++ compiler refuses the file (g++: `expected ';' after struct \
                     definition`; gcc: `expected ';', identifier or '(' before ..`)"
                .to_string(),
            send: format!("write `}};` on line {}", close + 1),
        });
    }
    None
}

/// The `}` lines (index) closing a type definition with nothing after
/// them, the definition's header, and the next code line (index).
fn bare_type_closers(text: &str) -> Vec<(usize, String, Option<usize>)> {
    let (lines, _) = scan(Lang::C, text);
    let mut found = Vec::new();
    let mut stack: Vec<(usize, String)> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        if !line.starts_in_code {
            continue;
        }
        let code = line.code.trim();
        if code.starts_with('#') {
            continue;
        }
        // Openers started on this line, in order.
        let mut before = String::new();
        for c in code.chars() {
            match c {
                '{' => {
                    let head = before.trim().to_string();
                    let head = if head.is_empty() {
                        lines[..k]
                            .iter()
                            .rev()
                            .map(|l| l.code.trim())
                            .find(|t| !t.is_empty())
                            .unwrap_or("")
                            .to_string()
                    } else {
                        head
                    };
                    stack.push((k, head));
                    before.clear();
                }
                '}' => {
                    if let Some((_, head)) = stack.pop()
                        && code == "}"
                        && type_header(&head)
                    {
                        let next = lines[k + 1..]
                            .iter()
                            .position(|l| !l.code.trim().is_empty())
                            .map(|p| k + 1 + p);
                        let declared = next.is_some_and(|n| {
                            let t = lines[n].code.trim();
                            t.starts_with(';')
                                || t.starts_with('*')
                                || t.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                                    .next()
                                    .is_some_and(|w| !w.is_empty())
                                    && t.ends_with(';')
                                    && !t.contains('(')
                                    && t.split_whitespace().count() == 1
                        });
                        if !declared {
                            found.push((k, head, next));
                        }
                    }
                    before.clear();
                }
                ';' => before.clear(),
                _ => before.push(c),
            }
        }
    }
    found
}

/// `head` opens a type definition: `struct s`, `typedef enum`, `class A :
/// public B`, not a function returning one (`struct s *f(void)`).
fn type_header(head: &str) -> bool {
    let head = head.trim_start_matches("typedef ").trim();
    let head = head.strip_prefix("template").map_or(head, |_| {
        head.rsplit_once('>').map_or(head, |(_, r)| r.trim())
    });
    ["struct", "class", "union", "enum"]
        .iter()
        .any(|k| starts_with_word(head, k))
        && !head.contains('(')
        && !head.contains('=')
}

/// SQL: a statement the edit leaves with no `;` before the next, at the
/// start of a line, in a file that ends its statements with `;`.
fn sql_statement_joined(original: &str, result: &str) -> Option<SeparatorDropped> {
    let skip = |t: &str| {
        t.lines().any(|l| {
            let l = l.trim().to_ascii_uppercase();
            l.starts_with("DELIMITER") || l == "GO"
        })
    };
    if skip(original) || skip(result) {
        return None;
    }
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    let (old_lines, _) = scan(Lang::Sql, original);
    let old: Vec<(&str, &str)> = sql_joins(original)
        .into_iter()
        .map(|(x, y)| (old_lines[x].code.trim(), old_lines[y].code.trim()))
        .collect();
    let (lines, _) = scan(Lang::Sql, result);
    for (i, j) in sql_joins(result) {
        if !(changed.contains(&i) || changed.contains(&j)) {
            continue;
        }
        let (a, b) = (lines[i].code.trim(), lines[j].code.trim());
        if old.contains(&(a, b)) {
            continue;
        }
        let word = b.split_whitespace().next().unwrap_or(b);
        return Some(SeparatorDropped {
            line: (i + 1, new[i].trim().to_string()),
            separator: ';',
            gap: before_line(j, new[j], "another statement"),
            send: end_line_with(i, ';'),
            effect: format!(
                "the statement runs on into `{word}` as one statement, which the database \
                 refuses (sqlite3: `near \"{word}\": syntax error`)"
            ),
        });
    }
    None
}

/// Statement-starting lines (index) with no `;` ending the code above.
fn sql_joins(text: &str) -> Vec<(usize, usize)> {
    const STARTS: [&str; 12] = [
        "CREATE", "INSERT", "UPDATE", "DELETE", "DROP", "ALTER", "PRAGMA", "GRANT", "REVOKE",
        "TRUNCATE", "COMMIT", "VACUUM",
    ];
    let (lines, _) = scan(Lang::Sql, text);
    let mut statements = 0;
    let mut ended = 0;
    let mut joins = Vec::new();
    let mut above: Option<usize> = None;
    for (k, line) in lines.iter().enumerate() {
        let code = line.code.trim();
        if code.is_empty() {
            continue;
        }
        // A body's or a string's inner line: its end counts, not its start.
        if !line.starts_in_code {
            above = Some(k);
            continue;
        }
        if code.starts_with('\\') {
            above = None;
            continue;
        }
        let word = code
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("")
            .to_ascii_uppercase();
        let starts = line.indent == 0 && line.depth_start == 0 && STARTS.contains(&word.as_str());
        if starts {
            statements += 1;
        }
        if let Some(a) = above {
            let at = lines[a].code.trim();
            let last = at
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            let open = at.ends_with([';', ',', '('])
                || ["BEGIN", "AS", "THEN", "DO", "ELSE"].contains(&last.as_str());
            if starts && !open && lines[a].depth_end == 0 {
                joins.push((a, k));
            }
        }
        if code.ends_with(';') && line.depth_end == 0 {
            ended += 1;
        }
        above = Some(k);
    }
    if ended == 0 || statements < 2 {
        return Vec::new();
    }
    joins
}

/// Dockerfile: an exec form (`CMD ["a", "b"]`) the edit writes with two
/// strings and no comma between them.
fn docker_exec_comma(original: &str, result: &str) -> Option<SeparatorDropped> {
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let replaced = &old[prefix..old.len() - suffix];
    for (k, line) in new.iter().enumerate().take(new.len() - suffix).skip(prefix) {
        if replaced.contains(line) {
            continue;
        }
        let trimmed = line.trim();
        let Some((word, rest)) = trimmed.split_once(char::is_whitespace) else {
            continue;
        };
        let word = word.to_ascii_uppercase();
        if !["CMD", "ENTRYPOINT", "RUN", "SHELL", "VOLUME", "HEALTHCHECK"].contains(&word.as_str())
        {
            continue;
        }
        let rest = rest.trim();
        let rest = rest.strip_prefix("CMD ").map_or(rest, str::trim);
        if !(rest.starts_with('[') && rest.ends_with(']')) {
            continue;
        }
        if let Some((first, second)) = adjacent_strings(&rest[1..rest.len() - 1]) {
            return Some(SeparatorDropped {
                line: (k + 1, trimmed.to_string()),
                separator: ',',
                gap: format!("between `{first}` and `{second}`"),
                effect: format!(
                    "the exec form is no JSON array, so Docker runs the line as a shell command \
                     (`/bin/sh -c '{rest}'`), which fails when the container starts"
                ),
                send: format!("write `{first}, {second}`"),
            });
        }
    }
    None
}

/// The first two double-quoted strings of a JSON array's inside with only
/// spaces between them.
fn adjacent_strings(inside: &str) -> Option<(String, String)> {
    let mut strings: Vec<(usize, usize)> = Vec::new();
    let bytes: Vec<char> = inside.chars().collect();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == '"' {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i] != '"' {
                if bytes[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            strings.push((start, i.min(bytes.len().saturating_sub(1))));
        }
        i += 1;
    }
    strings.windows(2).find_map(|w| {
        let (a, b) = (w[0], w[1]);
        let between: String = bytes[a.1 + 1..b.0].iter().collect();
        between.trim().is_empty().then(|| {
            (
                bytes[a.0..=a.1].iter().collect(),
                bytes[b.0..=b.1].iter().collect(),
            )
        })
    })
}

#[cfg(test)]
mod tests {
    use super::separator_dropped;

    fn said(path: &str, original: &str, result: &str) -> Option<String> {
        separator_dropped(path, original, result).map(|s| s.describe())
    }

    #[test]
    fn a_python_item_added_under_the_last_without_its_comma_is_said() {
        let original = "softkwlist = [\n    '_',\n    'case',\n    'match'\n]\n";
        let result = "softkwlist = [\n    '_',\n    'case',\n    'match'\n    'type'\n]\n";
        assert_eq!(
            said("keyword.py", original, result).as_deref(),
            Some(
                "line 4 (`'match'`) has no `,` before line 5 (`'type'`), which starts another \
                 element: Python joins the two strings into one, silently, and the sequence has \
                 one element fewer than written: end line 4 with `,`"
            )
        );
        let fixed = "softkwlist = [\n    '_',\n    'case',\n    'match',\n    'type'\n]\n";
        assert_eq!(said("keyword.py", original, fixed), None);
    }

    #[test]
    fn a_python_dict_entry_without_its_comma_is_a_syntax_error() {
        let original = "F = {\n    \"size\": int,\n    \"mtime\": float,\n}\n";
        let result = "F = {\n    \"size\": int\n    \"devmajor\": int,\n    \"mtime\": float,\n}\n";
        let s = said("t.py", original, result).unwrap_or_default();
        assert!(s.contains("line 2 (`\"size\": int`)"), "{s}");
        assert!(s.contains("SyntaxError"), "{s}");
    }

    #[test]
    fn concatenated_strings_and_continued_expressions_are_not_said() {
        let original = "x = foo(\n    'a',\n    b,\n)\n";
        // A concatenation the edit writes whole, a comprehension, an
        // operator continuing the line above.
        for result in [
            "x = foo(\n    'a ',\n    'c',\n    b,\n)\n",
            "x = foo(\n    'a '\n    'c',\n    b,\n)\n",
            "x = foo(\n    'a',\n    b\n    for b in c\n)\n",
            "x = foo(\n    'a',\n    b\n    + c,\n)\n",
            "x = foo(\n    'a',\n    b,\n    c,\n)\n",
        ] {
            assert_eq!(said("t.py", original, result), None, "{result}");
        }
        // A fault already in the file is not the edit's.
        let broken = "x = [\n    a\n    b,\n    c,\n]\n";
        let edited = "x = [\n    a\n    b,\n    d,\n]\n";
        assert_eq!(said("t.py", broken, edited), None);
    }

    #[test]
    fn a_tuple_called_a_closing_brace_and_a_last_argument_are_said() {
        let rules = "R = [\n    (r'a', A),\n    (r'b', B),\n    (r'c', C),\n]\n";
        let called = rules.replace("(r'b', B),", "(r'b', B)");
        let s = said("lex.py", rules, &called).unwrap_or_default();
        assert!(s.contains("reads line 4 as a call or an index"), "{s}");
        let nested = "D = {\n    'a': {\n        'x': 1,\n    },\n    'b': 2,\n}\n";
        let closed = nested.replace("    },\n", "    }\n");
        let s = said("d.py", nested, &closed).unwrap_or_default();
        assert!(s.contains("line 4 (`}`)"), "{s}");
        let call = "warn('one '\n     'two',\n     DeprecationWarning)\n";
        let dropped = call.replace("'two',", "'two'");
        let s = said("w.py", call, &dropped).unwrap_or_default();
        assert!(s.contains("SyntaxError"), "{s}");
    }

    #[test]
    fn a_javascript_property_without_its_comma_is_said_and_a_block_is_not() {
        let original = "module.exports = {\n  access: 1,\n  publish: require('./p.js'),\n}\n";
        let result = "module.exports = {\n  access: 1,\n  publish: require('./p.js')\n  provenance: true,\n}\n";
        let s = said("index.js", original, result).unwrap_or_default();
        assert!(s.contains("SyntaxError: Unexpected identifier"), "{s}");
        let names = "const {\n  readFile,\n  unlink,\n} = require('fs')\n";
        let dropped = names.replace("readFile,", "readFile");
        assert!(said("a.js", names, &dropped).is_some());
        let block = "function f() {\n  a: 1,\n  b()\n}\n";
        let block2 = "function f() {\n  a: 1,\n  b()\n  c()\n}\n";
        assert_eq!(said("index.js", block, block2), None);
        let ts = "interface A {\n  a: string,\n}\n";
        let ts2 = "interface A {\n  a: string\n  b: number,\n}\n";
        assert_eq!(said("a.ts", ts, ts2), None);
    }

    #[test]
    fn a_rust_match_arm_without_its_comma_is_said_and_a_block_arm_is_not() {
        let original = "fn f(l: u8) -> &'static str {\n    match l {\n        0 => \"debug\",\n        1 => \"info\",\n        _ => \"?\",\n    }\n}\n";
        let result = original.replace("1 => \"info\",", "1 => \"info\"\n        2 => \"error\",");
        let s = said("lvl.rs", original, &result).unwrap_or_default();
        assert!(s.contains("expected `,` following `match` arm"), "{s}");
        let block = original.replace(
            "1 => \"info\",",
            "1 => {\n            g()\n        }\n        2 => \"error\",",
        );
        assert_eq!(said("lvl.rs", original, &block), None);
        let tagged = "enum E {\n    #[default]\n    A,\n    B,\n}\n";
        let tagged2 = tagged.replace("    B,\n", "    B,\n    #[serde(skip)]\n    C,\n");
        assert_eq!(said("e.rs", tagged, &tagged2), None);
        let variant = tagged.replace("    A,\n", "    A\n");
        assert!(said("e.rs", tagged, &variant).is_some());
        let text = "fn f() {\n    assert_eq!(\n        a,\n        b,\n        \"m\"\n    );\n}\n";
        let dropped = text.replace("        b,\n", "        b\n");
        assert!(said("m.rs", text, &dropped).is_some());
        let custom = text.replace("assert_eq!", "quote!");
        let dropped = custom.replace("        b,\n", "        b\n");
        assert_eq!(said("m.rs", &custom, &dropped), None);
        let update = "fn f() -> C {\n    C {\n        x: 1,\n        ..C::default()\n    }\n}\n";
        assert!(said("c.rs", update, &update.replace("x: 1,", "x: 1")).is_some());
        let field = "fn f() -> P {\n    P {\n        x: 1,\n        y: 2,\n    }\n}\n";
        let field2 = field.replace("x: 1,", "x: 1");
        assert!(said("p.rs", field, &field2).is_some());
    }

    #[test]
    fn a_c_struct_losing_its_semicolon_and_a_string_array_its_comma_are_said() {
        let original = "struct p {\n    int x;\n    int y;\n};\n\nint main(void) { return 0; }\n";
        let result = original.replace("    int y;\n};", "    int y;\n    int z;\n}");
        let s = said("h.c", original, &result).unwrap_or_default();
        assert!(s.contains("expected ';' after struct definition"), "{s}");
        let names = "static const char *names[] = {\n    \"ab\",\n    \"cd\",\n    \"ef\",\n};\n";
        let joined = names.replace("\"cd\",", "\"cd\"");
        let s = said("n.c", names, &joined).unwrap_or_default();
        assert!(s.contains("C compiler joins the two strings"), "{s}");
        let states = "enum s {\n    A = 1,\n    /*\n     * the next\n     */\n    B = 2,\n};\n";
        let dropped = states.replace("A = 1,", "A = 1");
        assert!(said("s.h", states, &dropped).is_some());
        let function = "struct p *make(void)\n{\n    return 0;\n}\n";
        let function2 = function.replace("return 0;", "return NULL;");
        assert_eq!(said("h.c", function, &function2), None);
    }

    #[test]
    fn a_sql_statement_losing_its_semicolon_and_a_docker_exec_form_its_comma_are_said() {
        let original = "CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER);\nINSERT INTO posts VALUES (1, 2);\n";
        let result = original.replace("user_id INTEGER);", "user_id INTEGER, body TEXT)");
        let s = said("m.sql", original, &result).unwrap_or_default();
        assert!(s.contains("`INSERT`"), "{s}");
        let view = "CREATE VIEW v AS\nSELECT 1;\nINSERT INTO t VALUES (1);\n";
        let view2 = view.replace("SELECT 1;", "SELECT 2;");
        assert_eq!(said("m.sql", view, &view2), None);
        let body = "CREATE FUNCTION f() RETURNS int AS $$\nSELECT 1\n$$ LANGUAGE sql;\nCREATE TABLE t (a int);\nDROP TABLE u;\n";
        let body2 = body.replace("SELECT 1\n", "SELECT 2\n");
        assert_eq!(said("f.sql", body, &body2), None);
        let body3 = body.replace("(a int);", "(a int, b int);");
        assert_eq!(said("f.sql", body, &body3), None);
        let joined = body.replace("(a int);", "(a int, b int)");
        assert!(said("f.sql", body, &joined).is_some());
        let docker = "FROM python:3\nCOPY . .\nCMD [\"python\", \"app.py\"]\n";
        let bad = docker.replace("\"python\", \"app.py\"", "\"python\" \"-u\", \"app.py\"");
        let s = said("Dockerfile", docker, &bad).unwrap_or_default();
        assert!(s.contains("runs the line as a shell command"), "{s}");
        let good = docker.replace("\"python\", \"app.py\"", "\"python\", \"-u\", \"app.py\"");
        assert_eq!(said("Dockerfile", docker, &good), None);
    }
}
