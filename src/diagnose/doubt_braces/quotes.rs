//! *Pure.* An edit that leaves a line ending inside a string its language
//! ends at the line (a tester's find: `const s = "x;` for `"x";` was
//! written and called fine; node, gcc, javac and go refuse the file).
//!
//! In JavaScript and TypeScript, Go, the C family, Java, C#, Kotlin,
//! Scala, Swift, Dart, Groovy, Solidity, Protocol Buffers and Zig an
//! ordinary `".."` string (and `'..'` where `'` opens a string:
//! JavaScript, Dart, Groovy, Solidity) cannot run past its line, nor a
//! character literal `'x'` (C, Java, Go, C#, Kotlin). The rule, by
//! evidence only, as the bracket check's ([`super::unbalanced`]): the file
//! is read as that check reads it (strings, comments, template literals,
//! text blocks and raw strings over several lines, regular expressions,
//! `#if` branches not counted), the lines ending inside such a string (or
//! holding a `'` no other on the line closes) counted in the file before
//! and in the result; the result having more is doubted, naming its first
//! such line (of the edit's new text where one is). A file whose reading
//! before does not end in code, or that holds a construct srview does not
//! read, is not judged.
//!
//! Not counted: a line whose string's `\` escapes the line's end (C and
//! JavaScript continue the string); a C or C# directive line (`#error
//! don't`); in a file that may hold JSX (`.js .jsx .tsx`) a `'` after a
//! letter or digit, a `"` after one past a tag's `>` (`<p>A 5" screen,
//! {n} px</p>`), or a line that may hold JSX text with a quote
//! (`<p>Don't</p>`, `<b>'90s</b>`): to JSX, characters (so `g('a, 'b')`
//! there is not doubted by this check; its brackets are). Misread: JSX text on a line of its own opening with a
//! quote after white space (`  the '90s`), if an edit adds one. Not read:
//! Rust (its strings span lines), JSON (its own check reads it), Python
//! (the indentation reader does not lex its strings: prefixes, f-strings
//! nesting their own quotes since 3.12).

use super::{
    EditReading, Lang, Loose, Mode, bracket_language, changes_jsx_text, jsx_text_unread, read_edit,
};

/// A line an edit leaves ending inside a string (or a character literal)
/// its language ends at the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unclosed {
    /// The line (1-based, of the result) and its text.
    pub line: (usize, String),
    /// The quote that opens what is left open.
    pub quote: char,
    /// Whether it is a character literal (else a string).
    pub char_literal: bool,
    /// The language, in words ("JavaScript", "C++").
    pub language: &'static str,
    /// How many such lines the file before has, and the result.
    pub counts: (usize, usize),
    /// The edit creates the file (judged against no file).
    pub created: bool,
    /// The interpolation left open around the string (its opening and
    /// closing marks: `${`, `}`): the string's own closing quote, read
    /// inside it, opens the string left open.
    pub hole: Option<(String, char)>,
}

impl Unclosed {
    /// One sentence without a final stop, with what to send instead.
    pub fn describe(&self) -> String {
        let q = self.quote;
        if let Some((open, close)) = &self.hole {
            return format!(
                "{}: close the `{open}` with its `{close}` before the string's closing `{q}`",
                self.fault()
            );
        }
        let advice = if self.char_literal {
            format!("close it with its `{q}`")
        } else {
            format!("close it with its `{q}`, or escape the quote (`\\{q}`) if it is text")
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (at, text) = &self.line;
        let what = if self.char_literal {
            "character literal"
        } else {
            "string"
        };
        let before = match self.counts {
            _ if self.created => "the file is new".to_string(),
            (0, _) => "the file before has no such line".to_string(),
            (1, a) => format!("the file before has one such line, the result {a}"),
            (b, a) => format!("the file before has {b} such lines, the result {a}"),
        };
        if let Some((open, close)) = &self.hole {
            return format!(
                "line {at} opens a `{open}` in a string and does not close it with its `{close}` \
                 (`{}`): the string's closing `{q}` is read inside the `{open}` and opens a string \
                 left open at the line's end, and a `{q}` string ends at its line in {} ({before})",
                text.trim(),
                self.language,
                q = self.quote
            );
        }
        format!(
            "line {at} opens a {what} it does not close (`{}`): a `{}` {what} ends at its line \
             in {} ({before})",
            text.trim(),
            self.quote,
            self.language
        )
    }
}

/// A block comment or a string over lines the edit leaves open at the
/// file's end (round 45 T-06: a `/*` above a function, a `*/` deleted, a
/// JavaScript template literal or a Rust string opened and not closed:
/// the compiler refuses the file, and the code after is read as comment
/// or text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAtEnd {
    /// The line (1-based, of the result) where the reading last left
    /// code, and its text.
    pub line: (usize, String),
    /// A block comment (else a string).
    pub comment: bool,
    /// The language, in words ("JavaScript", "Rust").
    pub language: &'static str,
    /// The edit creates the file (judged against no file).
    pub created: bool,
}

impl OpenAtEnd {
    /// One sentence without a final stop, with what to send instead.
    pub fn describe(&self) -> String {
        let close = if self.comment {
            "close the comment with its `*/`"
        } else {
            "close the string with its quote"
        };
        format!("{}: {close}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (at, text) = &self.line;
        let what = if self.comment {
            "a block comment"
        } else {
            "a string"
        };
        let was = if self.created {
            "the file is new"
        } else {
            "the file before ends in code"
        };
        format!(
            "from line {at} (`{}`) {what} runs to the file's end and nothing closes it: {} \
             refuses the file, and reads the code after as {} ({was})",
            text.trim(),
            self.language,
            if self.comment { "comment" } else { "text" }
        )
    }
}

/// The [`OpenAtEnd`] an edit read leaves where the file before ended in
/// code, every construct read; not for JSON nor for a JSX file whose
/// changed lines may hold text srview does not tell from code.
pub(super) fn open_at_end(path: &str, original: &str, reading: &EditReading) -> Option<OpenAtEnd> {
    let lang = bracket_language(path)?;
    if matches!(lang, Lang::Json | Lang::Jsonc) {
        return None;
    }
    let EditReading {
        new, before, after, ..
    } = reading;
    if !before.read_through() || after.any_unsure() || !after.templates.is_empty() {
        return None;
    }
    let comment = match &after.mode {
        Mode::Block(_) => true,
        Mode::Str(s) if !s.line => false,
        _ => return None,
    };
    if changes_jsx_text(path, reading) {
        return None;
    }
    let at = after.left_code?;
    let text = new.get(at).copied().unwrap_or_default();
    Some(OpenAtEnd {
        line: (at + 1, text.trim_end_matches('\r').to_string()),
        comment,
        language: language(path, lang),
        created: original.is_empty(),
    })
}

/// The language `path` is written in, in words, as `lang` reads it.
fn language(path: &str, lang: Lang) -> &'static str {
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    match lang {
        Lang::Js if ext.contains("ts") => "TypeScript",
        Lang::Js => "JavaScript",
        Lang::Go => "Go",
        Lang::C => match ext {
            "c" | "h" => "C",
            "m" | "mm" => "Objective-C",
            "cu" | "cuh" => "CUDA",
            _ => "C++",
        },
        Lang::Java => "Java",
        Lang::Kotlin => "Kotlin",
        Lang::Scala => "Scala",
        Lang::Swift => "Swift",
        Lang::CSharp => "C#",
        Lang::Dart => "Dart",
        Lang::Groovy => "Groovy",
        Lang::Quotes if ext == "proto" => "Protocol Buffers",
        Lang::Quotes => "Solidity",
        Lang::Zig => "Zig",
        Lang::Rust => "Rust",
        Lang::Json | Lang::Jsonc => "JSON",
        Lang::Hcl if ext == "hcl" => "HCL",
        Lang::Hcl => "Terraform",
        Lang::Cmake => "CMake",
        Lang::Nix => "Nix",
        Lang::Sql => "SQL",
    }
}

/// The line `result` (the file `path` as an edit leaves it) leaves inside
/// a string its language ends at the line, where `original` (the file
/// before) had fewer such lines (see the module).
pub fn unclosed_string(path: &str, original: &str, result: &str) -> Option<Unclosed> {
    if !read(path) {
        return None;
    }
    unclosed_in(path, original, &read_edit(path, original, result)?)
}

/// Whether the check reads `path`: a brace language's file, not Rust nor
/// JSON.
fn read(path: &str) -> bool {
    bracket_language(path).is_some_and(|l| !matches!(l, Lang::Rust | Lang::Json | Lang::Jsonc))
}

/// [`unclosed_string`] of an edit read (`original`: the file before).
pub(super) fn unclosed_in(path: &str, original: &str, reading: &EditReading) -> Option<Unclosed> {
    let lang = bracket_language(path)?;
    if !read(path) {
        return None;
    }
    let EditReading {
        old,
        new,
        prefix,
        new_changed,
        before,
        after,
        ..
    } = reading;
    let prefix = *prefix;
    // An interpolation left open over a line's end is read on: the line
    // it leaves inside a string is counted (tester 47 T-02: the edit
    // itself made the file unreadable).
    if !before.read_through() || after.unread() {
        return None;
    }
    // JSX text holding a quote is characters to JSX: an apostrophe after
    // a word (`Don't`), a `"` after one past a tag's `>` (`<p>A 5" screen,
    // {n} px</p>`), a line that may hold text with a quote.
    let jsx = [".js", ".jsx", ".tsx"].iter().any(|e| path.ends_with(e));
    let text = |l: &Loose, lines: &[&str]| {
        let line = lines.get(l.line).copied().unwrap_or_default();
        let after_tag = || {
            let before: Vec<char> = line.chars().take(l.at).collect();
            before
                .iter()
                .enumerate()
                .any(|(k, &c)| c == '>' && (k == 0 || !matches!(before[k - 1], '=' | '-' | '>')))
        };
        (l.after_word && (l.quote == '\'' || after_tag())) || jsx_text_unread(line)
    };
    let kept = |loose: &[Loose], lines: &[&str]| -> Vec<Loose> {
        loose
            .iter()
            .filter(|l| !jsx || !text(l, lines))
            .copied()
            .collect()
    };
    let had = kept(&before.loose, old);
    let has = kept(&after.loose, new);
    if has.len() <= had.len() {
        return None;
    }
    // The first of the edit's new text, else the first after the lines
    // both files share.
    let named = has
        .iter()
        .find(|l| new_changed.contains(&l.line))
        .or_else(|| has.iter().find(|l| l.line >= prefix))
        .or(has.first())?;
    Some(Unclosed {
        line: (named.line + 1, new.get(named.line)?.to_string()),
        quote: named.quote,
        char_literal: named.char_literal,
        language: language(path, lang),
        counts: (had.len(), has.len()),
        created: original.is_empty(),
        hole: named.hole.and_then(|h| h.marks()),
    })
}

#[cfg(test)]
mod tests {
    use super::unclosed_string;
    use crate::diagnose::doubt::test_edits::check_edit;
    use crate::diagnose::layout::{BreakKind, layout_break};

    /// Round 45 T-06: a `/*`, a template literal or a string over lines
    /// the edit leaves open to the file's end, where the file before ended
    /// in code (node --check, rustc and go refuse each); a comment closed
    /// on its line, and Rust's nested `/* /* */ */`, are no doubt.
    #[test]
    fn a_comment_or_string_left_open_to_the_end_is_doubted() {
        use crate::diagnose::doubt_braces::{BraceFault, brace_fault};
        let js = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n";
        let rs = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\npub fn mul(a: i32, b: i32) -> i32 {\n    a * b\n}\n";
        let open = |path: &str, before: &str, old: &str, new: &str| match brace_fault(
            path,
            before,
            &before.replacen(old, new, 1),
        ) {
            Some(BraceFault::OpenAtEnd(o)) => Some(o.describe()),
            _ => None,
        };
        assert_eq!(
            open("a.js", js, "\nfunction b", "\n/* helpers\nfunction b").as_deref(),
            Some(
                "from line 5 (`/* helpers`) a block comment runs to the file's end and nothing \
                 closes it: JavaScript refuses the file, and reads the code after as comment \
                 (the file before ends in code): close the comment with its `*/`"
            )
        );
        assert_eq!(
            open(
                "a.ts",
                js,
                "\nfunction b",
                "\nconst help = `usage\nfunction b"
            )
            .as_deref(),
            Some(
                "from line 5 (`const help = `usage`) a string runs to the file's end and \
                 nothing closes it: TypeScript refuses the file, and reads the code after as \
                 text (the file before ends in code): close the string with its quote"
            )
        );
        assert!(open("lib.rs", rs, "\npub fn mul", "\n/* a /* b */\npub fn mul").is_some());
        assert!(
            open(
                "lib.rs",
                rs,
                "\npub fn mul",
                "\nconst H: &str = \"u\npub fn mul"
            )
            .is_some()
        );
        assert!(open("m.go", js, "\nfunction b", "\n/* x\nfunction b").is_some());
        assert_eq!(
            open("a.js", js, "\nfunction b", "\n/* helpers */\nfunction b"),
            None
        );
        assert_eq!(
            open(
                "lib.rs",
                rs,
                "\npub fn mul",
                "\n/* a /* b */ */\npub fn mul"
            ),
            None
        );
        // C's comments do not nest: `/* a /* b */` is closed.
        assert_eq!(
            open("a.c", js, "\nfunction b", "\n/* a /* b */\nfunction b"),
            None
        );
    }

    /// The cases `tests/fixtures/trust/strings/record.py` ran real
    /// compilers on (node, the TypeScript parser, gcc, g++, javac, rustc):
    /// srview doubts exactly the edits whose file before the compiler
    /// accepts and whose file after it refuses, and says so of the string
    /// (every edit there is about strings); the others, escaped quotes,
    /// apostrophes in comments and JSX text, URLs, template literals, text
    /// blocks, raw strings, character literals `'"'`, are written.
    #[test]
    fn srview_doubts_what_the_compilers_refuse() {
        let cases: Vec<serde_json::Value> = serde_json::from_str(include_str!(
            "../../../tests/fixtures/trust/strings/cases.json"
        ))
        .expect("cases.json reads");
        let (mut refused, mut accepted) = (0, 0);
        for case in &cases {
            let name = case["name"].as_str().unwrap_or_default();
            let path = case["path"].as_str().unwrap_or_default();
            let (Some(before), Some(after)) = (case["before"].as_str(), case["after"].as_str())
            else {
                panic!("{name}: no texts");
            };
            // Left out: a compiler not there when recorded, a file before
            // it refuses.
            let (Some(true), Some(accepts)) = (
                case["compiler_accepts_before"].as_bool(),
                case["compiler_accepts"].as_bool(),
            ) else {
                continue;
            };
            let found = layout_break(path, before, after);
            if accepts {
                accepted += 1;
                assert_eq!(found, None, "{name}: the compiler accepts it");
            } else {
                refused += 1;
                assert_eq!(
                    found.map(|b| b.kind),
                    Some(BreakKind::Unclosed),
                    "{name}: {}",
                    case["compiler_says"]
                );
                // The file created with that text: judged the same.
                assert!(unclosed_string(path, "", after).is_some(), "{name}");
            }
        }
        assert!(refused >= 15 && accepted >= 20, "{refused} {accepted}");
    }

    const BASE: &str = "void z() {\n  c();\n}\n";

    /// `line` added to BASE: whether a line is left open, its number and
    /// whether it is a character literal.
    fn added(path: &str, line: &str) -> Option<(usize, bool)> {
        check_edit(
            unclosed_string,
            path,
            BASE,
            "  c();\n",
            &format!("  c();\n{line}\n"),
        )
        .map(|u| (u.line.0, u.char_literal))
    }

    /// The languages no compiler of this machine reads: each one's string
    /// forms over lines, escapes and quotes inside are no doubt; a `"`
    /// string (a `'` one, a character literal) left open is.
    #[test]
    fn each_languages_strings_are_read() {
        let cases = [
            (
                "a.go",
                "  s := `a\n\"b` + \"\\\"\" + string('\"') // it's",
                "  s := \"ab",
            ),
            ("a.go", "  r := '\\''", "  r := 'x"),
            (
                "a.cs",
                "  var s = @\"a\n\"\"b\" + $\"{x}\" + '\"'; // it's",
                "  var s = $\"{x};",
            ),
            (
                "a.cs",
                "  var r = \"\"\"\"\n\"\"\" it's\n\"\"\"\";",
                "  var c = 'x;",
            ),
            ("a.cs", "#region it's \"here", "  var s = \"a;"),
            (
                "a.kt",
                "  val s = \"\"\"a\n\"b\"\"\" + \"${m[\"k\"]}\" + '\"'",
                "  val s = \"${x}",
            ),
            ("a.kt", "  val c = '\\u0041'", "  val c = 'x"),
            (
                "a.swift",
                "  let s = #\"a \"b\"# + \"\\(f(\"x\"))\" + \"\"\"\n\"a\n\"\"\"",
                "  let s = #\"a\" + b",
            ),
            (
                "a.dart",
                "  var s = 'it\\'s' + r'\\' + '''\nit's''' + \"it's\";",
                "  var s = 'it's';",
            ),
            (
                "a.groovy",
                "  def s = 'a' + \"b${x}\" + '''\n'''",
                "  def s = \"b",
            ),
            (
                "a.scala",
                "  val s = s\"${x}\" + \"\"\"\n\"\"\"",
                "  val s = \"a",
            ),
            (
                "a.sol",
                "  string s = 'it\\'s'; // don't",
                "  string s = \"a;",
            ),
            (
                "a.proto",
                "  string s = 1 [json_name = \"it's\"];",
                "  string s = 1 [json_name = \"s];",
            ),
            (
                "a.zig",
                "  const s =\n    \\\\ it's \"\n  ;",
                "  const s = \"a;",
            ),
            ("a.c", "#error don't \"do it", "  puts(\"a);"),
            ("a.ts", "  g('a', \"it's\");", "  g('a, 'b');"),
        ];
        for (path, good, bad) in cases {
            assert_eq!(added(path, good), None, "{path}: {good:?}");
            let char_literal = bad.contains("'x");
            assert_eq!(added(path, bad), Some((3, char_literal)), "{path}: {bad:?}");
        }
        // Rust's strings span lines, JSON has its own check: not read.
        assert_eq!(added("a.rs", "  let s = \"a;"), None);
        assert_eq!(added("a.json", "  \"a"), None);
        // In a file that may hold JSX, an apostrophe after a word is text.
        assert_eq!(added("a.jsx", "  g('a, 'b');"), None);
        assert_eq!(added("a.jsx", "  g(\"a, \"b\");"), Some((3, false)));
        // A tester's JSX file: a `"` after a digit in text (inches).
        assert_eq!(
            added("a.jsx", "  return <p>A 5\" screen, {n} px</p>;"),
            None
        );
        assert_eq!(
            added("a.jsx", "  x = a => b(\"a, \"b\");"),
            Some((3, false))
        );
    }

    /// Counts compared: a file already holding such a line (JSX text
    /// srview misreads) is judged by how many the edit leaves; the line
    /// named is the edit's; the sentence says the rule and what to send.
    #[test]
    fn counts_are_compared_and_the_edits_line_named() {
        let jsx = "const A = () => (\n  <p>\n    the '90s\n  </p>\n);\nconst b = 1;\n";
        assert_eq!(
            check_edit(unclosed_string, "a.jsx", jsx, "b = 1", "b = 2"),
            None
        );
        let found = check_edit(unclosed_string, "a.jsx", jsx, "b = 1;", "b = \"1;");
        assert_eq!(found.as_ref().map(|u| u.counts), Some((1, 2)));
        assert_eq!(
            found.map(|u| u.describe()).as_deref(),
            Some(
                "line 6 opens a string it does not close (`const b = \"1;`): a `\"` string \
                 ends at its line in JavaScript (the file before has one such line, the \
                 result 2): close it with its `\"`, or escape the quote (`\\\"`) if it is text"
            )
        );
        let java = "class A {\n  char c = 'x';\n}\n";
        let found = unclosed_string("A.java", "", &java.replace("'x'", "'x"));
        assert_eq!(
            found.map(|u| u.describe()).as_deref(),
            Some(
                "line 2 opens a character literal it does not close (`char c = 'x;`): a `'` \
                 character literal ends at its line in Java (the file is new): close it with \
                 its `'`"
            )
        );
    }
}

/// The cost of the check on a 10,000-line JavaScript file, an edit in its
/// middle (run in release: `cargo test --release --lib quotes_cost --
/// --ignored --nocapture`).
#[cfg(test)]
mod cost {
    use super::unclosed_string;
    use crate::diagnose::doubt_braces::{brace_fault, unbalanced};
    use std::time::Instant;

    #[test]
    #[ignore = "a measurement: run in release"]
    fn quotes_cost_on_a_10000_line_javascript_file() {
        let part = "export function f{n}(a) {\n  const s = \"it's {n}\"; // don't\n  \
                    const t = `a ${a} \"b\"`;\n  if (/['\"]/.test(s)) {\n    return 'x' + \
                    s;\n  }\n  /* a 'comment' */\n  return [a, \"//\"];\n}\n\n";
        let original: String = (0..1000)
            .map(|n| part.replace("{n}", &n.to_string()))
            .collect();
        assert_eq!(original.lines().count(), 10_000);
        let fine = original.replacen("\"it's 500\"", "\"it is 500\"", 1);
        let broken = original.replacen("\"it's 500\"", "\"it's 500", 1);
        let time = |what: &str, f: &dyn Fn() -> bool, expect: bool| {
            let runs = 50;
            let start = Instant::now();
            for _ in 0..runs {
                assert_eq!(f(), expect, "{what}");
            }
            let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
            eprintln!("{what}: {ms:.2} ms a call");
        };
        time(
            "unclosed_string, an edit keeping its quote",
            &|| unclosed_string("a.js", &original, &fine).is_some(),
            false,
        );
        time(
            "unclosed_string, an edit dropping one",
            &|| unclosed_string("a.js", &original, &broken).is_some(),
            true,
        );
        time(
            "unbalanced (the bracket check alone), the same fine edit",
            &|| unbalanced("a.js", &original, &fine).is_some(),
            false,
        );
        time(
            "brace_fault (both checks, one reading: what layout_break runs)",
            &|| brace_fault("a.js", &original, &fine).is_some(),
            false,
        );
    }
}
