//! *Pure.* An edit that leaves a JavaScript, TypeScript, Go or Rust file
//! defining one top-level function twice: a helper the file already has,
//! added again at another place (a tester's find: the model re-added
//! `formatPrice` before the exports after a context loss; each text matched
//! exactly, so nothing doubted it). JavaScript keeps the later definition
//! without a word; TypeScript, Go and Rust refuse the file. The brace
//! languages' twin of [`super::doubt_redefine`] (Python).
//!
//! The rule, by evidence only, for a file by its extension
//! ([`super::doubt_braces::brace_language`]):
//! - a definition is a line at column 0: `function NAME`, with `export`,
//!   `export default`, `async` before it and `function*` (JavaScript,
//!   TypeScript); `func NAME(` or `func NAME[` and a method `func (r T)
//!   NAME(`, its receiver's type (without `*` and type parameters) part of
//!   its key (Go); `fn NAME` with `pub`, `pub(..)`, `const`, `async`,
//!   `unsafe`, `extern ".."` before it (Rust);
//! - not counted: a line ending with `;` (a declaration), a TypeScript
//!   overload's signature (the line closing its parameter list ends with
//!   `;`, a comment after it left out), a definition right below a decorator
//!   (`@memo`: the line above, comments between skipped), Go's `init` and
//!   `_` (meant more than once); in Rust, two definitions gated apart:
//!   each below `#[cfg(..)]` (or `#[cfg_attr(..)]` naming a `cfg`)
//!   attributes, and the two gates' text differs (`#[cfg(unix)]`,
//!   `#[cfg(not(unix))]`). Any other attribute (`#[inline]`, `#[test]`)
//!   is read through, and an ungated definition clashes with any;
//! - doubted: the file as the edit leaves it defines a key more times than
//!   the file before, twice at least, and one of them is on a line the
//!   edit changed.
//!
//! Not caught: C and C++ (declarations and definitions read alike, and the
//! preprocessor decides what is compiled: no reliable reading), nested
//! definitions (methods in a class or an `impl`), a name defined again by
//! `const NAME =` or an import.

use super::doubt_braces::{Lang, brace_language};
use crate::textdiff::shared_ends;
use std::collections::HashMap;

/// A function a brace-language file defines twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redefined {
    /// The file's language.
    pub lang: Lang,
    /// TypeScript (not JavaScript).
    pub typescript: bool,
    /// The name, `Type.Name` for a Go method.
    pub name: String,
    /// The two definitions' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
    /// Both lines read the same (the model's copy of what is there).
    pub same: bool,
}

impl Redefined {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let advice = if self.same {
            "the file has it already: leave it out of the new text, or change the definition \
             that is there (its text in the old text) instead of adding another"
        } else {
            "change the definition that is there (its text in the old text) instead of adding \
             another, or give the new one another name"
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let name = &self.name;
        let (what, outcome) = match self.lang {
            Lang::Go if name.contains('.') => (
                format!("method `{name}`"),
                format!("Go refuses to compile the package (method {name} already declared)"),
            ),
            Lang::Go => (
                format!("func `{name}`"),
                format!("Go refuses to compile the package ({name} redeclared in this block)"),
            ),
            Lang::Rust => (
                format!("fn `{name}`"),
                format!("Rust refuses to compile it (the name `{name}` is defined multiple times)"),
            ),
            _ if self.typescript => (
                format!("function `{name}`"),
                "TypeScript refuses the file (Duplicate function implementation), and run as \
                 JavaScript the later one wins"
                    .to_string(),
            ),
            _ => (
                format!("function `{name}`"),
                format!(
                    "JavaScript keeps the later one (line {later}) without a word, and the one \
                     at line {earlier} never runs"
                ),
            ),
        };
        format!(
            "as written, the file defines {what} twice at its top level, at lines {earlier} and \
             {later}: {outcome}"
        )
    }
}

/// The key a line (at column 0) defines in `lang`: its name, `Type.Name`
/// for a Go method.
fn definition(lang: Lang, line: &str) -> Option<String> {
    let line = line.trim_end_matches('\r');
    let code = if lang == Lang::Js {
        code_of(line)
    } else {
        line
    };
    if code.trim_end().ends_with(';') {
        return None;
    }
    let word = |rest: &str| -> Option<String> {
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .unwrap_or(rest.len());
        let name = &rest[..end];
        name.chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
            .then(|| name.to_string())
    };
    match lang {
        Lang::Js => {
            let mut rest = line;
            for prefix in ["export ", "default ", "async "] {
                if let Some(r) = rest.strip_prefix(prefix) {
                    rest = r.trim_start();
                }
            }
            let rest = rest.strip_prefix("function")?;
            // `functionName(x)` is a call.
            if !rest.starts_with([' ', '\t', '*']) {
                return None;
            }
            let rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
            let rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
            word(rest)
        }
        Lang::Go => {
            let rest = line.strip_prefix("func")?;
            if !rest.starts_with([' ', '(']) {
                return None;
            }
            let rest = rest.trim_start();
            let (receiver, rest) = match rest.strip_prefix('(') {
                Some(inner) => {
                    let close = inner.find(')')?;
                    // `(r *Stack[T])`, `(Stack)`: the type's name.
                    let ty = inner[..close].split_whitespace().last()?;
                    let ty = ty.trim_start_matches('*');
                    let ty = ty.split('[').next().unwrap_or(ty);
                    (Some(ty.to_string()), inner[close + 1..].trim_start())
                }
                None => (None, rest),
            };
            let name = word(rest)?;
            if !rest[name.len()..].starts_with(['(', '[']) {
                return None;
            }
            match receiver {
                Some(ty) => Some(format!("{ty}.{name}")),
                None if name == "init" || name == "_" => None,
                None => Some(name),
            }
        }
        Lang::Rust => {
            let mut rest = line;
            loop {
                let before = rest;
                if let Some(r) = rest.strip_prefix("pub(") {
                    rest = r.split_once(')')?.1.trim_start();
                }
                for prefix in ["pub ", "const ", "async ", "unsafe "] {
                    if let Some(r) = rest.strip_prefix(prefix) {
                        rest = r.trim_start();
                    }
                }
                if let Some(r) = rest.strip_prefix("extern ") {
                    let r = r.trim_start();
                    rest = match r.strip_prefix('"') {
                        Some(abi) => abi.split_once('"')?.1.trim_start(),
                        None => r,
                    };
                }
                if rest == before {
                    break;
                }
            }
            word(rest.strip_prefix("fn ")?.trim_start())
        }
        _ => None,
    }
}

/// `line` without a comment at its end (`// ..`, `/* .. */`), quoted
/// text read past.
fn code_of(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut chars = line.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        match quote {
            Some(_) if c == '\\' => {
                chars.next();
            }
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if c == '/' && matches!(chars.peek(), Some((_, '/' | '*'))) => {
                let rest = &line[i..];
                // A `/* .. */` closed before more code is not the end.
                if rest.starts_with("/*")
                    && let Some(end) = rest.find("*/")
                    && !rest[end + 2..].trim().is_empty()
                {
                    continue;
                }
                return &line[..i];
            }
            None => {}
        }
    }
    line
}

/// Whether the JavaScript or TypeScript definition at `lines[at]` has a
/// body: the line where its parameter list closes does not end with `;`
/// (comments at the end left out). A TypeScript overload's signature
/// (`function f(a: string): number;`, over several lines as Prettier
/// writes it, or with a comment after it) is no implementation (a
/// tester's find: such a signature was counted as one).
fn has_body(lines: &[&str], at: usize) -> bool {
    let mut depth = 0i64;
    let mut opened = false;
    for line in lines[at..].iter().take(60) {
        let code = code_of(line.trim_end_matches('\r')).trim_end();
        for c in code.chars() {
            match c {
                '(' => {
                    depth += 1;
                    opened = true;
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        if opened && depth <= 0 {
            return !code.ends_with(';');
        }
    }
    true
}

/// Whether the definition at `lines[at]` stands right below a decorator
/// (`@memo`; comments between skipped): not counted (JavaScript).
fn decorated(lines: &[&str], at: usize) -> bool {
    lines[..at]
        .iter()
        .rev()
        .map(|l| l.trim())
        .find(|l| !l.starts_with("//") && !l.starts_with("/*") && !l.starts_with('*'))
        .is_some_and(|l| l.starts_with('@'))
}

/// The gate of the Rust definition at `lines[at]`: the text of the
/// `#[cfg(..)]` attributes (and `#[cfg_attr(..)]` naming a `cfg`) right
/// above it, other attributes (`#[inline]`, `#[test]`), doc comments and
/// comments read through; `None` when it has none. Two definitions gated
/// apart are never compiled together; an ungated one clashes with any (a
/// tester's find: any attribute above a function switched the check
/// off, and `rustc` refused the result).
fn gate(lines: &[&str], at: usize) -> Option<String> {
    let mut cfgs: Vec<String> = Vec::new();
    // An attribute over several lines, read upwards to its `#[`.
    let mut pending: Vec<&str> = Vec::new();
    for line in lines[..at].iter().rev() {
        let l = line.trim();
        if pending.is_empty() && (l.starts_with("//") || l.starts_with("/*") || l.starts_with('*'))
        {
            continue;
        }
        if !l.starts_with("#[") {
            // A continuation: the attribute's last line ends with `]`.
            if (pending.is_empty() && !l.ends_with(']')) || pending.len() > 8 || l.is_empty() {
                break;
            }
            pending.push(l);
            continue;
        }
        pending.push(l);
        pending.reverse();
        let text = pending.join(" ");
        pending.clear();
        let inner = text["#[".len()..].trim_start();
        if inner.starts_with("cfg(") || (inner.starts_with("cfg_attr(") && inner.contains("cfg(")) {
            cfgs.push(text.split_whitespace().collect::<Vec<_>>().join(" "));
        }
    }
    (!cfgs.is_empty()).then(|| {
        cfgs.reverse();
        cfgs.join(" ")
    })
}

/// Whether two definitions of one name, gated `a` and `b`, are compiled
/// together: unless both are gated, and gated apart.
fn clash(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a == b,
        _ => true,
    }
}

/// The counted definitions of `lines`: each key's lines (0-based), only
/// those that clash with another of the key ([`clash`]).
fn definitions(lang: Lang, lines: &[&str]) -> HashMap<String, Vec<usize>> {
    let mut found: HashMap<String, Vec<(usize, Option<String>)>> = HashMap::new();
    for (at, line) in lines.iter().enumerate() {
        let Some(key) = definition(lang, line) else {
            continue;
        };
        match lang {
            Lang::Rust => found.entry(key).or_default().push((at, gate(lines, at))),
            _ if decorated(lines, at) || !has_body(lines, at) => {}
            _ => found.entry(key).or_default().push((at, None)),
        }
    }
    found
        .into_iter()
        .map(|(key, all)| {
            let clashing = all
                .iter()
                .enumerate()
                .filter(|(i, (_, g))| {
                    all.iter()
                        .enumerate()
                        .any(|(j, (_, other))| *i != j && clash(g, other))
                })
                .map(|(_, (at, _))| *at)
                .collect();
            (key, clashing)
        })
        .collect()
}

/// The function `result` (the file `path` as an edit leaves it) defines
/// twice at its top level more than `original` (the file before) did (see
/// the module).
pub fn redefined(path: &str, original: &str, result: &str) -> Option<Redefined> {
    let lang = brace_language(path).filter(|l| matches!(l, Lang::Js | Lang::Go | Lang::Rust))?;
    if original == result {
        return None;
    }
    let old: Vec<&str> = original.lines().collect();
    let new: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = shared_ends(&old, &new);
    let changed = prefix..new.len() - suffix;
    // Only a changed line can add a definition (a 10,000-line file whose
    // edit defines nothing is not read).
    if !new[changed.clone()]
        .iter()
        .any(|l| definition(lang, l).is_some())
    {
        return None;
    }
    let before = definitions(lang, &old);
    let after = definitions(lang, &new);
    let mut twice: Vec<(&String, &Vec<usize>)> = after
        .iter()
        .filter(|(key, at)| {
            at.len() > 1
                && at.len() > before.get(*key).map_or(0, Vec::len)
                && at.iter().any(|l| changed.contains(l))
        })
        .collect();
    // The first in the file's order.
    twice.sort_by_key(|(_, at)| at[0]);
    let (key, at) = twice.first()?;
    // The pair: the changed definition and the one beside it before it
    // (else after it).
    let later = at.iter().position(|l| changed.contains(l))?;
    let (a, b) = if later > 0 {
        (at[later - 1], at[later])
    } else {
        (at[0], at[1])
    };
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let typescript = [".ts", ".tsx", ".mts", ".cts"]
        .iter()
        .any(|ext| name.ends_with(ext));
    Some(Redefined {
        lang,
        typescript,
        name: key.to_string(),
        lines: (a + 1, b + 1),
        same: new[a].trim_end() == new[b].trim_end(),
    })
}

#[cfg(test)]
mod tests {
    use super::{Lang, redefined};

    const RENDER: &str = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nfunction render(items) {\n  return items.map((i) => formatPrice(i.price)).join(\"\\n\");\n}\n\nmodule.exports = { render };\n";

    /// The tester's find: the helper re-added before the exports.
    #[test]
    fn a_function_added_again_at_another_place_is_doubted() {
        let result = RENDER.replace(
            "module.exports",
            "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nmodule.exports",
        );
        let found = redefined("render.js", RENDER, &result);
        assert_eq!(
            found.as_ref().map(|f| (f.name.as_str(), f.lines)),
            Some(("formatPrice", (1, 9)))
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the file defines function `formatPrice` twice at its top level, at \
                 lines 1 and 9: JavaScript keeps the later one (line 9) without a word, and the \
                 one at line 1 never runs: the file has it already: leave it out of the new \
                 text, or change the definition that is there (its text in the old text) instead \
                 of adding another"
            )
        );
    }

    #[test]
    fn go_funcs_and_methods_and_rust_fns_are_doubted() {
        let go = "package main\n\nfunc normalize(s string) string {\n\treturn s\n}\n\nfunc (s *Stack[T]) Push(v T) {\n}\n\nfunc main() {\n}\n";
        let again = go.replace(
            "func main",
            "func normalize(s string) string {\n\treturn s\n}\n\nfunc main",
        );
        let found = redefined("main.go", go, &again);
        assert_eq!(
            found.as_ref().map(|f| (f.lang, f.lines)),
            Some((Lang::Go, (3, 10)))
        );
        assert!(found.is_some_and(|f| f.describe().contains("normalize redeclared in this block")));
        let method = go.replace("func main", "func (s Stack[T]) Push(v T) {\n}\n\nfunc main");
        assert_eq!(
            redefined("main.go", go, &method).map(|f| f.name),
            Some("Stack.Push".to_string())
        );
        let rs = "fn greet() {}\n\npub(crate) fn main() {}\n";
        let again = format!("{rs}pub fn greet() {{\n}}\n");
        assert_eq!(
            redefined("src/main.rs", rs, &again).map(|f| (f.name, f.lines)),
            Some(("greet".to_string(), (1, 4)))
        );
        let ts = "export async function load(): Promise<void> {\n}\n";
        let found = redefined("a.ts", ts, &format!("{ts}function load() {{}}\n"));
        assert!(found.is_some_and(|f| f.fault().contains("Duplicate function implementation")));
    }

    #[test]
    fn overloads_attributes_others_and_moves_are_not_doubted() {
        let cases = [
            // TypeScript overloads: signatures end with `;`.
            (
                "a.ts",
                "function f(a: any) {\n}\n",
                "function f(a: string): string;\nfunction f(a: number): number;\nfunction f(a: any) {\n}\n",
            ),
            // Rust: one fn per `cfg`.
            (
                "a.rs",
                "#[cfg(unix)]\nfn home() {}\n",
                "#[cfg(unix)]\nfn home() {}\n#[cfg(windows)]\n/// Windows.\nfn home() {}\n",
            ),
            // Calls, not definitions.
            (
                "a.js",
                "functionName(1)\n",
                "functionName(1)\nfunctionName(2)\n",
            ),
            // A decorator.
            (
                "a.ts",
                "function f() {}\n",
                "function f() {}\n@dec\nfunction f() {}\n",
            ),
            // Go: several `init`s, methods of two types.
            (
                "a.go",
                "func init() {\n}\n",
                "func init() {\n}\n\nfunc init() {\n}\n",
            ),
            (
                "a.go",
                "func (a A) Len() int {\n}\n",
                "func (a A) Len() int {\n}\nfunc (b *B) Len() int {\n}\n",
            ),
            // Nested (indented), C, a function moved or replaced.
            (
                "a.js",
                "function f() {}\n",
                "function f() {}\nclass A {\n  function f() {}\n}\n",
            ),
            (
                "a.c",
                "int f(void) {}\n",
                "int f(void);\nint f(void) {}\nint f(void) {}\n",
            ),
            (
                "a.js",
                "function f() {}\nfunction g() {}\n",
                "function g() {}\nfunction f() { return 2; }\n",
            ),
        ];
        for (path, original, result) in cases {
            assert_eq!(redefined(path, original, result), None, "{path}: {result}");
        }
    }

    /// A tester's find (round 38e, 02): overload signatures over several
    /// lines (Prettier's layout) or with a comment after them are no
    /// implementations; a body after a multi-line parameter list is.
    #[test]
    fn overload_signatures_over_lines_or_commented_are_not_doubted() {
        let parse =
            "export function parse(input: string | Buffer): number {\n  return input.length;\n}\n";
        let cases = [
            "export function parse(\n  input: string,\n): number;\nexport function parse(input: Buffer): number;\n",
            "export function parse(input: string): number; // text\nexport function parse(input: Buffer): number; /* bytes */\n",
            "export function parse(\n  input: string, // text\n  n: number,\n): number; // text\n",
        ];
        for signatures in cases {
            let result = format!("{signatures}{parse}");
            assert_eq!(redefined("parse.ts", parse, &result), None, "{result}");
        }
        let twice = format!(
            "{parse}export function parse(\n  input: string,\n): number {{\n  return 0;\n}}\n"
        );
        assert_eq!(
            redefined("parse.ts", parse, &twice).map(|f| f.lines),
            Some((1, 4))
        );
        let commented = format!("{parse}function parse(s) {{ return s; }} // \"a;\" ;\n");
        assert_eq!(
            redefined("parse.ts", parse, &commented).map(|f| f.lines),
            Some((1, 4))
        );
    }

    /// A tester's find (round 38e, 05): `#[inline]` above the function
    /// there switched the check off, on either copy; only `cfg` gates
    /// set two definitions apart, and only both gated, apart.
    #[test]
    fn only_cfg_gated_twins_are_exempt_in_rust() {
        let lib = "#[inline]\npub fn clamp(x: i32) -> i32 {\n    x.max(0).min(10)\n}\n\npub fn helper() {}\n\npub fn run() -> i32 {\n    clamp(5)\n}\n";
        for attr in [
            "#[inline]\n",
            "#[must_use]\n",
            "",
            "/// Doc.\n#[allow(\n    dead_code,\n)]\n",
        ] {
            let result = lib.replace(
                "pub fn run",
                &format!(
                    "{attr}pub fn clamp(x: i32) -> i32 {{\n    x.clamp(0, 10)\n}}\n\npub fn run"
                ),
            );
            let found = redefined("lib.rs", lib, &result);
            let later = 8 + attr.matches('\n').count();
            assert_eq!(
                found.map(|f| (f.name, f.lines)),
                Some(("clamp".to_string(), (2, later))),
                "{attr}"
            );
        }
        // An ungated twin of a gated one, and two of one gate: compiled
        // together.
        let unix = "#[cfg(unix)]\nfn home() {}\n";
        for added in ["fn home() {}\n", "#[cfg(unix)]\n#[inline]\nfn home() {}\n"] {
            let result = format!("{unix}{added}");
            assert_eq!(
                redefined("a.rs", unix, &result).map(|f| f.name),
                Some("home".to_string()),
                "{added}"
            );
        }
        // Gated apart, read through other attributes and over lines.
        let cases = [
            "#[cfg(not(unix))]\n#[inline]\nfn home() {}\n",
            "#[inline]\n#[cfg(\n    windows\n)]\nfn home() {}\n",
            "#[cfg_attr(docsrs, cfg(windows))]\nfn home() {}\n",
        ];
        for added in cases {
            assert_eq!(
                redefined("a.rs", unix, &format!("{unix}{added}")),
                None,
                "{added}"
            );
        }
    }

    /// Twice already before: only a third copy is the edit's.
    #[test]
    fn a_function_twice_already_is_doubted_only_for_a_third() {
        let twice = "function f() {}\nfunction f() {}\nlet x = 1;\n";
        assert_eq!(
            redefined("a.js", twice, &twice.replace("x = 1", "x = 2")),
            None
        );
        let third = format!("{twice}function f() {{ return 3; }}\n");
        assert_eq!(
            redefined("a.js", twice, &third).map(|f| f.lines),
            Some((2, 4))
        );
    }
}
