//! *Pure.* A decorator or attribute an edit moves onto another definition
//! (a tester's find, round 44 T-13): a model adds a function "above
//! `def about():`" by taking that line as its old text, and the new
//! function lands between the line and its `@app.route("/about")`, which
//! now routes the new function; `#[derive(Debug, Clone)]` leaves `Item`
//! for the struct put above it; a TypeScript `@Component(..)` ends up on a
//! `const` (TS1206). Every agent's matcher applies it exactly.
//!
//! Read by the file's pairs of *decorators* and the *target* they stand
//! on: a run of decorator lines (Python's, JavaScript's and TypeScript's,
//! Java's and Kotlin's `@Name..`, Rust's `#[..]`; one spanning lines read
//! to its closing bracket), then the first line below that is neither
//! blank nor a comment. The result moves a decorator when a pair of the
//! file before is gone from it, while its target line still stands in it
//! and its decorators stand on a target line the file before did not hold
//! (a new definition). A target renamed or rewritten by the edit is no
//! move: the decorators stay on what it became. Decorators the edit writes
//! again above both definitions are left alone (the model wrote them).

use super::doubt_braces::{Lang, brace_language};
use super::file_kind::FileKind;

/// A decorator run the result puts on another target than its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedDecorator {
    /// The decorator lines, trimmed.
    pub decorators: Vec<String>,
    /// The line (1-based) of the file before its target stood at, and its
    /// text, trimmed.
    pub was_on: (usize, String),
    /// The result's line (1-based) of the target it stands on now, and its
    /// text, trimmed.
    pub now_on: (usize, String),
    /// The result's line (1-based) of its former target, left without it.
    pub left: usize,
}

impl MovedDecorator {
    /// The fault and what to send instead.
    pub fn describe(&self) -> String {
        format!(
            "{}: start the old text at the line `{}` and put the new lines above it, keeping \
             `{}` right above `{}`",
            self.fault(),
            self.decorators.first().map_or("", String::as_str),
            self.joined(),
            self.was_on.1
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        format!(
            "`{}` stood on `{}` (line {}) and now stands on `{}` (line {}), which it \
             {} instead; `{}` (line {}) is left without it",
            self.joined(),
            self.was_on.1,
            self.was_on.0,
            self.now_on.1,
            self.now_on.0,
            self.verb(),
            self.was_on.1,
            self.left,
        )
    }

    /// The decorator lines joined by a space.
    pub fn joined(&self) -> String {
        self.decorators.join(" ")
    }

    /// What a decorator does to what it stands on.
    fn verb(&self) -> &'static str {
        if self.decorators.iter().all(|d| d.starts_with("#[")) {
            "applies to"
        } else {
            "decorates"
        }
    }
}

/// How a language writes its decorators and comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Python: `@name..`, `#` comments.
    Python,
    /// JavaScript, TypeScript, Java, Kotlin: `@Name..`, `//` and `/* */`
    /// comments.
    At,
    /// Rust: `#[..]` outer attributes, `//` comments.
    Rust,
}

impl Style {
    /// The style of the file `path` whose content is `content`.
    fn of(path: &str, content: &str) -> Option<Style> {
        if FileKind::of(path, content) == FileKind::Python {
            return Some(Style::Python);
        }
        match brace_language(path)? {
            Lang::Js | Lang::Java | Lang::Kotlin => Some(Style::At),
            Lang::Rust => Some(Style::Rust),
            _ => None,
        }
    }

    /// Whether the trimmed line `t` starts a decorator.
    fn decorator(self, t: &str) -> bool {
        match self {
            Style::Rust => t.starts_with("#["),
            Style::Python | Style::At => {
                let Some(rest) = t.strip_prefix('@') else {
                    return false;
                };
                let starts_name = rest
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_');
                // Java's `@interface Name` declares; Kotlin's `@file:..`
                // applies to the file.
                starts_name
                    && !(self == Style::At
                        && (rest.starts_with("interface") || rest.starts_with("file:")))
            }
        }
    }

    /// Whether the trimmed line `t` is blank or a comment.
    fn passed_over(self, t: &str) -> bool {
        t.is_empty()
            || match self {
                Style::Python => t.starts_with('#'),
                Style::At | Style::Rust => {
                    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
                }
            }
    }
}

/// A decorator run and the line it stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decorated {
    /// The decorator lines, trimmed.
    decorators: Vec<String>,
    /// The target's line index (0-based) and its text, trimmed.
    target: (usize, String),
}

/// The decorator move `result` makes that `original` (the file `path`)
/// did not have ([`MovedDecorator`]); `None` for a file whose decorators
/// srview does not read.
pub fn decorator_moved(path: &str, original: &str, result: &str) -> Option<MovedDecorator> {
    let style = Style::of(path, original)?;
    let before = decorated(style, original);
    if before.is_empty() {
        return None;
    }
    let after = decorated(style, result);
    let result_lines: Vec<&str> = result.lines().map(str::trim).collect();
    let original_lines: std::collections::HashSet<&str> = original.lines().map(str::trim).collect();
    before.iter().find_map(|was| {
        let kept = after
            .iter()
            .any(|now| now.decorators == was.decorators && now.target.1 == was.target.1);
        if kept {
            return None;
        }
        let now = after.iter().find(|now| {
            now.decorators == was.decorators && !original_lines.contains(now.target.1.as_str())
        })?;
        let left = result_lines
            .iter()
            .enumerate()
            .skip(now.target.0 + 1)
            .find(|(_, t)| **t == was.target.1)?
            .0;
        Some(MovedDecorator {
            decorators: was.decorators.clone(),
            was_on: (was.target.0 + 1, was.target.1.clone()),
            now_on: (now.target.0 + 1, now.target.1.clone()),
            left: left + 1,
        })
    })
}

/// Every decorator run of `text` and the line it stands on.
fn decorated(style: Style, text: &str) -> Vec<Decorated> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !style.decorator(lines[i]) {
            i += 1;
            continue;
        }
        let mut run: Vec<&str> = Vec::new();
        while i < lines.len() && (style.decorator(lines[i]) || style.passed_over(lines[i])) {
            if style.passed_over(lines[i]) {
                i += 1;
                continue;
            }
            let end = decorator_end(&lines, i);
            run.extend(&lines[i..=end]);
            i = end + 1;
        }
        if let Some(target) = lines.get(i) {
            out.push(Decorated {
                decorators: run.iter().map(|d| (*d).to_string()).collect(),
                target: (i, (*target).to_string()),
            });
        }
        i += 1;
    }
    out
}

/// The index of the line that closes the decorator starting at
/// `lines[start]`: the first where its brackets, counted outside quotes,
/// close (a `@Component({` .. `})` over lines); `start` itself when they
/// never do by the file's end.
fn decorator_end(lines: &[&str], start: usize) -> usize {
    let mut depth: i64 = 0;
    for (i, line) in lines.iter().enumerate().skip(start) {
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in line.chars() {
            match quote {
                Some(_) if escaped => escaped = false,
                Some(_) if c == '\\' => escaped = true,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
                None if matches!(c, '(' | '[' | '{') => depth += 1,
                None if matches!(c, ')' | ']' | '}') => depth -= 1,
                None => {}
            }
        }
        if depth <= 0 {
            return i;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::decorator_moved;

    /// The tester's four files (round 44, T-13), each edited by an old
    /// text of the definition's own line and a new text putting another
    /// statement first; and the same files edited the ordinary ways.
    #[test]
    fn an_insertion_under_a_decorator_moves_it() {
        let flask = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route(\"/\")\ndef index():\n    return \"home\"\n\n\n@app.route(\"/about\")\ndef about():\n    return \"about\"\n";
        let rust = "#[derive(Debug, Clone)]\npub struct Item {\n    pub n: u32,\n}\n";
        let ts = "@Component({ selector: \"app-root\" })\nexport class AppComponent {\n  title = \"app\";\n}\n";
        let cases = [
            (
                "app.py",
                flask,
                "def about():\n",
                "def format_title(s):\n    return s.title()\n\n\ndef about():\n",
                "`@app.route(\"/about\")` stood on `def about():` (line 12) and now stands on \
                 `def format_title(s):` (line 12), which it decorates instead; `def about():` \
                 (line 16) is left without it",
            ),
            (
                "r.rs",
                rust,
                "pub struct Item {",
                "pub struct Tag {\n    pub s: String,\n}\n\npub struct Item {",
                "`#[derive(Debug, Clone)]` stood on `pub struct Item {` (line 2) and now stands \
                 on `pub struct Tag {` (line 2), which it applies to instead; `pub struct Item {` \
                 (line 6) is left without it",
            ),
            (
                "t.ts",
                ts,
                "export class AppComponent {",
                "export const VERSION = 2;\n\nexport class AppComponent {",
                "`@Component({ selector: \"app-root\" })` stood on `export class AppComponent {` \
                 (line 2) and now stands on `export const VERSION = 2;` (line 2), which it \
                 decorates instead; `export class AppComponent {` (line 4) is left without it",
            ),
        ];
        for (path, text, old, new, said) in cases {
            let result = text.replacen(old, new, 1);
            let got = decorator_moved(path, text, &result).map(|m| m.fault());
            assert_eq!(got.as_deref(), Some(said), "{path}");
        }
        let result = flask.replacen(
            "def about():\n",
            "def t(s):\n    return s\n\n\ndef about():\n",
            1,
        );
        let said = decorator_moved("app.py", flask, &result).map(|m| m.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "`@app.route(\"/about\")` stood on `def about():` (line 12) and now stands on \
                 `def t(s):` (line 12), which it decorates instead; `def about():` (line 16) is \
                 left without it: start the old text at the line `@app.route(\"/about\")` and \
                 put the new lines above it, keeping `@app.route(\"/about\")` right above \
                 `def about():`"
            )
        );
        // Ordinary edits: the new definition above the decorator, with a
        // decorator of its own (the same one too), a renamed target, one
        // more decorator, a body changed.
        let fine = [
            (
                "app.py",
                flask,
                "@app.route(\"/about\")\n",
                "def format_title(s):\n    return s.title()\n\n\n@app.route(\"/about\")\n",
            ),
            (
                "app.py",
                flask,
                "@app.route(\"/about\")\n",
                "@app.route(\"/x\")\ndef x():\n    return 1\n\n\n@app.route(\"/about\")\n",
            ),
            ("app.py", flask, "def about():\n", "def about_page():\n"),
            (
                "app.py",
                flask,
                "def about():\n",
                "@login_required\ndef about():\n",
            ),
            ("app.py", flask, "return \"about\"", "return \"About\""),
            (
                "r.rs",
                rust,
                "#[derive(Debug, Clone)]\n",
                "#[derive(Debug)]\npub struct Tag;\n\n#[derive(Debug, Clone)]\n",
            ),
            (
                "r.rs",
                rust,
                "pub struct Item {",
                "/// An item.\npub struct Item {",
            ),
        ];
        for (path, text, old, new) in fine {
            let result = text.replacen(old, new, 1);
            assert_eq!(decorator_moved(path, text, &result), None, "{path}: {new}");
        }
        // Two functions under the same decorator: a new one with it above
        // (a diff could read it as put under the first's decorator).
        let fixtures = "@pytest.fixture\ndef a():\n    return 1\n";
        let more = fixtures.replacen(
            "@pytest.fixture\n",
            "@pytest.fixture\ndef b():\n    return 2\n\n\n@pytest.fixture\n",
            1,
        );
        assert_eq!(decorator_moved("conftest.py", fixtures, &more), None);
    }

    /// A decorator spanning lines is read to its closing bracket; a file
    /// whose language has no decorators srview reads is not read.
    #[test]
    fn a_decorator_over_lines_and_other_languages() {
        let ts = "@Component({\n  selector: \"app-root\",\n})\nexport class AppComponent {}\n";
        let result = ts.replacen("export class", "export const V = 1;\nexport class", 1);
        let got = decorator_moved("a.ts", ts, &result).map(|m| (m.joined(), m.now_on, m.left));
        assert_eq!(
            got,
            Some((
                "@Component({ selector: \"app-root\", })".to_string(),
                (4, "export const V = 1;".to_string()),
                5
            ))
        );
        let c = "#[x]\nint a;\n";
        assert_eq!(
            decorator_moved("a.c", c, &c.replacen("int a;", "int b;\nint a;", 1)),
            None
        );
    }
}
