//! *Pure.* An edit that adds an import the file already has (a tester's
//! find, round 42a, 20: `"fmt"` added again to a Go import block, `use
//! std::fmt;` twice, `import { readFileSync }` again; each was written and
//! called fine, and none compiles). A name a top-level import binds
//! against a definition of it is [`super::doubt_defines`]'s; this is an
//! import against an import.
//!
//! Read, for a file by its extension, lines inside strings and comments
//! left out ([`super::doubt_braces::line_starts`]), at brace depth 0 only:
//! - Go: `import "p"`, `import name "p"` and each line of an `import (`
//!   block; the key is the path and the name it binds (its alias, or the
//!   package's). Not read: `_` and `.` imports (Go takes `_` any number
//!   of times; a dot import's names are another matter). The same path
//!   under two aliases compiles, and is not read. `go build`: `fmt
//!   redeclared in this block`;
//! - Rust: `use` (and `pub use`, `pub(..) use`) at column 0 of the file's
//!   own module, over several lines too, a tree such as `a::{b, c::{d,
//!   self}}` read whole; the key is the item's path and the name it binds
//!   (`as` alias, else the last segment; `self` binds its module's name).
//!   Not read: globs (`*`), `as _`, a `use` below a `#[cfg..]` attribute
//!   (gated apart), a `use` in a `mod` block or a function body (another
//!   scope). rustc: E0252 `the name 'fmt' is defined multiple times`;
//! - JavaScript, TypeScript: an `import` statement at column 0 (not
//!   `import type`, nor a `type` name in the braces: TypeScript merges
//!   types); the key is the local name it binds (default, `* as ns`, `{
//!   a, b as c }`), whatever the module: an ES module may bind a name once.
//!   node: `SyntaxError: Identifier 'x' has already been declared`;
//!   TypeScript: TS2300 Duplicate identifier.
//!
//! Doubted: the file after binds a key twice, the file before binds none
//! twice, and one of the two is on a line the edit changed. Python
//! accepts an import twice: not read.

use super::doubt_braces::{Lang, brace_language, line_starts};
use crate::textdiff::changed_lines;
use std::collections::HashMap;

/// An import an edit leaves in a file twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportTwice {
    /// The file's language ([`Lang::Go`], [`Lang::Rust`] or [`Lang::Js`]).
    pub lang: Lang,
    /// The name bound twice.
    pub name: String,
    /// What is imported: the path (Go, Rust), or the module (JavaScript)
    /// of the later import.
    pub what: String,
    /// The two imports' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
}

impl ImportTwice {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let send = match self.lang {
            Lang::Go => "leave the import block as it is, the package is imported already",
            _ => "leave the new import out, the name is imported already",
        };
        format!("{}: {send}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let name = &self.name;
        let refuses = match self.lang {
            Lang::Go => {
                format!("Go refuses to compile the package ({name} redeclared in this block)")
            }
            Lang::Rust => format!(
                "Rust refuses to compile it (E0252: the name `{name}` is defined multiple times)"
            ),
            _ => format!(
                "an ES module does not load (SyntaxError: Identifier '{name}' has already been \
                 declared), and TypeScript refuses it (Duplicate identifier '{name}')"
            ),
        };
        format!(
            "as written, the file imports `{name}` ({}) at lines {earlier} and {later}: {refuses}",
            self.what
        )
    }
}

/// The import `result` (the file `path` after an edit) binds twice where
/// `original` bound none twice; `None` for a file not read (see the
/// module).
pub fn import_twice(path: &str, original: &str, result: &str) -> Option<ImportTwice> {
    let lang = brace_language(path).filter(|l| matches!(l, Lang::Go | Lang::Rust | Lang::Js))?;
    let (old, new, prefix, suffix) = changed_lines(original, result);
    if twice(lang, &old).next().is_some() {
        return None;
    }
    let changed = prefix..new.len() - suffix;
    let mut found = twice(lang, &new)
        .filter(|t| changed.contains(&(t.lines.0 - 1)) || changed.contains(&(t.lines.1 - 1)));
    found.next()
}

/// One import read: the key it binds, the name, what it imports, and its
/// line (0-based).
struct Bound {
    key: String,
    name: String,
    what: String,
    line: usize,
}

/// Each key `lines` (a text in `lang`) binds twice: the two imports, in
/// the order of the later one.
fn twice<'a>(lang: Lang, lines: &'a [&'a str]) -> impl Iterator<Item = ImportTwice> + 'a {
    let mut seen: HashMap<String, usize> = HashMap::new();
    imports(lang, lines)
        .into_iter()
        .filter_map(move |b| match seen.get(&b.key) {
            Some(&first) => Some(ImportTwice {
                lang,
                name: b.name,
                what: b.what,
                lines: (first + 1, b.line + 1),
            }),
            None => {
                seen.insert(b.key, b.line);
                None
            }
        })
}

/// Every import `lines` (a text in `lang`) binds at its top level.
fn imports(lang: Lang, lines: &[&str]) -> Vec<Bound> {
    let starts = line_starts(lang, lines);
    let top = |at: usize| {
        starts
            .get(at)
            .is_some_and(|&(depth, code)| depth == 0 && code)
    };
    let mut out = Vec::new();
    let mut go_block = false;
    for (at, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches('\r');
        if !top(at) {
            continue;
        }
        match lang {
            Lang::Go => {
                let code = line.split("//").next().unwrap_or("").trim();
                if go_block {
                    if code.starts_with(')') {
                        go_block = false;
                    } else if let Some(b) = go_spec(code, at) {
                        out.push(b);
                    }
                    continue;
                }
                let Some(rest) = code.strip_prefix("import") else {
                    continue;
                };
                let rest = rest.trim_start();
                if let Some(inner) = rest.strip_prefix('(') {
                    let inner = inner.trim();
                    if inner.is_empty() {
                        go_block = true;
                    } else if let Some(inner) = inner.strip_suffix(')') {
                        out.extend(inner.split(';').filter_map(|s| go_spec(s.trim(), at)));
                    }
                } else if let Some(b) = go_spec(rest, at) {
                    out.push(b);
                }
            }
            Lang::Rust => {
                if !line.starts_with(['u', 'p']) || gated(lines, at) {
                    continue;
                }
                let Some(tree) = rust_use(lines, at) else {
                    continue;
                };
                let mut bound = Vec::new();
                rust_tree(&tree, "", &mut bound);
                for (path, name) in bound {
                    out.push(Bound {
                        key: format!("{path} as {name}"),
                        name,
                        what: path,
                        line: at,
                    });
                }
            }
            _ => {
                if line.starts_with("import") {
                    out.extend(js_import(lines, at));
                }
            }
        }
    }
    out
}

/// A Go import spec (`"p"`, `name "p"`), read at line `at`; `None` for a
/// `_` or `.` import and what is none.
fn go_spec(spec: &str, at: usize) -> Option<Bound> {
    let spec = spec.split("/*").next().unwrap_or("").trim();
    let (alias, quoted) = match spec.split_once(char::is_whitespace) {
        Some((alias, quoted)) => (Some(alias), quoted.trim()),
        None => (None, spec),
    };
    let path = quoted
        .strip_prefix('"')
        .and_then(|q| q.strip_suffix('"'))
        .or_else(|| quoted.strip_prefix('`').and_then(|q| q.strip_suffix('`')))?;
    if path.is_empty() || path.contains(['"', '`']) {
        return None;
    }
    let name = match alias {
        Some("_" | ".") => return None,
        Some(alias) if alias.chars().all(|c| c == '_' || c.is_alphanumeric()) => alias,
        Some(_) => return None,
        // The package's name, as the last element says it (a version
        // element `v2` read past).
        None => {
            let mut parts = path.rsplit('/');
            let last = parts.next().unwrap_or(path);
            let version = last.len() > 1
                && last.starts_with('v')
                && last[1..].chars().all(|c| c.is_ascii_digit());
            match parts.next() {
                Some(before) if version => before,
                _ => last,
            }
        }
    };
    Some(Bound {
        key: format!("{path} as {}", alias.unwrap_or("")),
        name: name.to_string(),
        what: format!("\"{path}\""),
        line: at,
    })
}

/// Whether the Rust item at `at` has a `#[cfg..]` (or `#[cfg_attr..]`)
/// attribute above it (comments and other attributes between).
fn gated(lines: &[&str], at: usize) -> bool {
    for line in lines[..at].iter().rev() {
        let t = line.trim();
        if t.starts_with("#[cfg") {
            return true;
        }
        if !(t.starts_with("#[") || t.starts_with("//")) {
            return false;
        }
    }
    false
}

/// The tree of a Rust `use` at column 0 of line `at` (`a::{b, c}`, white
/// space removed, without `use` and `;`), over up to 40 lines; `None` for
/// a line that is no `use`.
fn rust_use(lines: &[&str], at: usize) -> Option<String> {
    let line = lines[at];
    let rest = if let Some(r) = line.strip_prefix("pub") {
        let r = r.trim_start();
        match r.strip_prefix('(') {
            Some(inner) => inner.split_once(')')?.1,
            None => r,
        }
    } else {
        line
    };
    let rest = rest.trim_start().strip_prefix("use")?;
    if !rest.starts_with([' ', '\t', ':', '{']) {
        return None;
    }
    let mut text = String::new();
    for l in std::iter::once(rest)
        .chain(lines[at + 1..].iter().copied())
        .take(40)
    {
        let code = l.split("//").next().unwrap_or("");
        if let Some((head, _)) = code.split_once(';') {
            text.push_str(head);
            return Some(text.split_whitespace().collect::<Vec<_>>().join(" "));
        }
        text.push_str(code);
        text.push(' ');
    }
    None
}

/// Each `(path, name)` a Rust use tree binds, `prefix` before it.
fn rust_tree(tree: &str, prefix: &str, out: &mut Vec<(String, String)>) {
    let tree = tree.trim();
    let join = |p: &str| -> String {
        let p = p.replace(' ', "");
        match (prefix.is_empty(), p.is_empty()) {
            (true, _) => p,
            (false, true) => prefix.to_string(),
            (false, false) => format!("{prefix}::{p}"),
        }
    };
    if let Some(open) = tree.find('{') {
        let Some(inner) = tree[open + 1..].trim_end().strip_suffix('}') else {
            return;
        };
        let head = join(tree[..open].trim().trim_end_matches("::"));
        for item in split_top(inner) {
            rust_tree(item, &head, out);
        }
        return;
    }
    let (path, alias) = match tree.split_once(" as ") {
        Some((p, a)) => (p.trim(), Some(a.trim())),
        None => (tree, None),
    };
    if path.is_empty() || path.ends_with('*') || alias == Some("_") {
        return;
    }
    let full = if path == "self" {
        prefix.to_string()
    } else {
        join(path)
    };
    let last = full.rsplit("::").next().unwrap_or(&full).to_string();
    let name = alias.map_or(last, str::to_string);
    if name.is_empty()
        || matches!(name.as_str(), "self" | "super" | "crate")
        || !name.chars().all(|c| c == '_' || c.is_alphanumeric())
    {
        return;
    }
    out.push((full, name));
}

/// `text` split at its commas outside braces, empty items left out.
fn split_top(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i64, 0);
    for (i, c) in text.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts.into_iter().filter(|p| !p.trim().is_empty()).collect()
}

/// The names a JavaScript or TypeScript `import` at column 0 of line
/// `at` binds (over up to 40 lines).
fn js_import(lines: &[&str], at: usize) -> Vec<Bound> {
    let first = lines[at].trim_end_matches('\r');
    let rest = &first["import".len()..];
    if !rest.starts_with([' ', '\t', '{', '*']) {
        return Vec::new();
    }
    let mut text = String::new();
    for l in lines[at..].iter().take(40) {
        text.push_str(l.split("//").next().unwrap_or("").trim());
        text.push(' ');
        if text.contains(" from ") || text.contains("}from") || text.contains(';') {
            break;
        }
    }
    let clause = text["import".len()..].trim_start();
    if clause.starts_with(['"', '\''])
        || clause.starts_with("type ")
        || clause.starts_with("typeof ")
    {
        return Vec::new();
    }
    let Some((bindings, module)) = clause
        .split_once(" from ")
        .or_else(|| clause.split_once("}from"))
    else {
        return Vec::new();
    };
    let module = module
        .trim()
        .trim_end_matches(';')
        .split_whitespace()
        .next()
        .unwrap_or("")
        .to_string();
    if !module.starts_with(['"', '\'']) {
        return Vec::new();
    }
    let (head, braces) = match bindings.split_once('{') {
        Some((head, rest)) => (head, rest.split_once('}').map_or(rest, |(b, _)| b)),
        None => (bindings, ""),
    };
    let mut out = Vec::new();
    let bind = |part: &str, out: &mut Vec<Bound>| {
        let part = part.trim();
        if part.is_empty() || part.starts_with("type ") || part.starts_with("typeof ") {
            return;
        }
        let local = match part.split_once(" as ") {
            Some((_, alias)) => alias.trim(),
            None => part,
        };
        if local.is_empty()
            || !local
                .chars()
                .all(|c| c == '_' || c == '$' || c.is_alphanumeric())
        {
            return;
        }
        out.push(Bound {
            key: local.to_string(),
            name: local.to_string(),
            what: format!("from {module}"),
            line: at,
        });
    };
    for part in head.split(',').chain(braces.split(',')) {
        bind(part, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::import_twice;

    const GO: &str = "package shop\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\nfunc Name(s string) string {\n\treturn fmt.Sprint(strings.ToUpper(s))\n}\n";
    const RUST: &str = "use std::fmt;\nuse std::collections::{HashMap, HashSet};\n\npub struct Cart;\n\nimpl fmt::Display for Cart {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, \"cart\")\n    }\n}\n";
    const TS: &str = "import { readFileSync } from \"node:fs\";\nimport path from \"node:path\";\n\nexport function load(p: string): string {\n  return readFileSync(path.join(\".\", p), \"utf8\");\n}\n";

    fn found(path: &str, before: &str, after: &str) -> Option<(String, (usize, usize))> {
        import_twice(path, before, after).map(|t| (t.name, t.lines))
    }

    /// The tester's three cases (round 42a, 20), with their sentences.
    #[test]
    fn an_import_added_again_is_doubted() {
        let go = GO.replace("\t\"strings\"\n", "\t\"strings\"\n\t\"fmt\"\n");
        let t = import_twice("shop.go", GO, &go).expect("go");
        assert_eq!(
            t.describe(),
            "as written, the file imports `fmt` (\"fmt\") at lines 4 and 6: Go refuses to compile \
             the package (fmt redeclared in this block): leave the import block as it is, the \
             package is imported already"
        );
        let rs = RUST.replace("use std::fmt;\n", "use std::fmt;\nuse std::fmt;\n");
        let t = import_twice("src/lib.rs", RUST, &rs).expect("rust");
        assert_eq!(
            t.fault(),
            "as written, the file imports `fmt` (std::fmt) at lines 1 and 2: Rust refuses to \
             compile it (E0252: the name `fmt` is defined multiple times)"
        );
        let ts = TS.replace(
            "import path from \"node:path\";\n",
            "import path from \"node:path\";\nimport { readFileSync } from \"node:fs\";\n",
        );
        let t = import_twice("src/load.ts", TS, &ts).expect("ts");
        assert_eq!(
            t.describe(),
            "as written, the file imports `readFileSync` (from \"node:fs\") at lines 1 and 3: an \
             ES module does not load (SyntaxError: Identifier 'readFileSync' has already been \
             declared), and TypeScript refuses it (Duplicate identifier 'readFileSync'): leave \
             the new import out, the name is imported already"
        );
    }

    /// More shapes doubted: a Go single import line, an alias twice, a
    /// Rust group's `self`, a nested tree, `pub use`; a JavaScript default
    /// and a renamed binding of one name, from two modules.
    #[test]
    fn other_shapes_of_an_import_twice_are_doubted() {
        let go = GO.replace("import (\n", "import \"fmt\"\n\nimport (\n");
        assert_eq!(found("a.go", GO, &go).map(|f| f.0), Some("fmt".into()));
        let aliased = GO.replace("\t\"fmt\"\n", "\tf \"fmt\"\n");
        let twice = aliased.replace("\t\"strings\"\n", "\t\"strings\"\n\tf \"fmt\"\n");
        assert_eq!(
            found("a.go", &aliased, &twice).map(|f| f.0),
            Some("f".into())
        );
        let v2 = GO.replace("\t\"fmt\"\n", "\t\"example.com/x/v2\"\n");
        let v2twice = v2.replace("\t\"strings\"\n", "\t\"strings\"\n\t\"example.com/x/v2\"\n");
        assert_eq!(found("a.go", &v2, &v2twice).map(|f| f.0), Some("x".into()));
        let rs = RUST.replace("use std::fmt;\n", "use std::fmt::{self, Write};\n");
        let rs2 = rs.replace("pub struct", "use std::fmt;\n\npub struct");
        assert_eq!(found("a.rs", &rs, &rs2), Some(("fmt".into(), (1, 4))));
        let nested = RUST.replace(
            "pub struct",
            "pub use std::{collections::{HashMap}, io};\n\npub struct",
        );
        assert_eq!(
            found("a.rs", RUST, &nested).map(|f| f.0),
            Some("HashMap".into())
        );
        let multi = RUST.replace(
            "pub struct",
            "use std::collections::{\n    BTreeMap,\n    HashSet,\n};\n\npub struct",
        );
        assert_eq!(
            found("a.rs", RUST, &multi),
            Some(("HashSet".into(), (2, 4)))
        );
        let js = "import x from 'a';\nexport const y = x;\n";
        let js2 = "import x from 'a';\nimport { z as x } from 'b';\nexport const y = x;\n";
        assert_eq!(found("a.mjs", js, js2), Some(("x".into(), (1, 2))));
        let ns = "import * as p from 'node:path';\n";
        let ns2 = "import * as p from 'node:path';\nimport * as p from 'node:path';\n";
        assert_eq!(found("a.js", ns, ns2).map(|f| f.0), Some("p".into()));
        let over = "import {\n  a,\n  b,\n} from 'm';\n";
        let over2 = "import {\n  a,\n  b,\n} from 'm';\nimport { b } from 'm';\n";
        assert_eq!(found("a.tsx", over, over2), Some(("b".into(), (1, 5))));
    }

    /// Ordinary edits stay allowed: a new import, `_` and dot imports
    /// again, one path under two aliases, a glob or `as _` twice, a `use`
    /// in a `mod` or a function, uses gated apart, a side-effect import
    /// twice, `import type`, a type and a value of one name, an import in
    /// a string or a comment, a file already holding one twice, Python.
    #[test]
    fn ordinary_imports_are_not_doubted() {
        let cases: Vec<(&str, String, String)> = vec![
            (
                "a.go",
                GO.into(),
                GO.replace("\t\"strings\"\n", "\t\"strings\"\n\t\"os\"\n"),
            ),
            (
                "a.go",
                GO.into(),
                GO.replace(
                    "\t\"strings\"\n",
                    "\t\"strings\"\n\t_ \"fmt\"\n\t_ \"fmt\"\n",
                ),
            ),
            (
                "a.go",
                GO.into(),
                GO.replace("\t\"strings\"\n", "\t\"strings\"\n\tf \"fmt\"\n"),
            ),
            (
                "a.go",
                GO.into(),
                GO.replace("\t\"strings\"\n", "\t\"strings\"\n\t. \"fmt\"\n"),
            ),
            (
                "a.go",
                GO.into(),
                GO.replace("\t\"strings\"\n", "\t\"strings\"\n\t// \"fmt\"\n"),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace(
                    "pub struct",
                    "use std::io::*;\nuse std::io::*;\n\npub struct",
                ),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace("pub struct", "use std::fmt as _;\n\npub struct"),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace(
                    "pub struct",
                    "mod inner {\n    use std::fmt;\n}\n\npub struct",
                ),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace("        write!", "        use std::fmt;\n        write!"),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace(
                    "use std::fmt;\n",
                    "#[cfg(unix)]\nuse std::fmt;\n#[cfg(not(unix))]\nuse std::fmt;\n",
                ),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace(
                    "pub struct",
                    "// use std::fmt;\nconst S: &str = \"\nuse std::fmt;\n\";\n\npub struct",
                ),
            ),
            (
                "a.rs",
                RUST.into(),
                RUST.replace("pub struct", "use core::fmt::Write;\n\npub struct"),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "import path",
                    "import \"./polyfill\";\nimport \"./polyfill\";\nimport path",
                ),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "import path",
                    "import type { readFileSync } from \"x\";\nimport path",
                ),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "import path",
                    "import { type readFileSync as r2, type path } from \"x\";\nimport path",
                ),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "import path",
                    "import { readFile } from \"node:fs\";\nimport path",
                ),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "  return",
                    "  const s = `\nimport path from \"x\";\n`;\n  return",
                ),
            ),
            (
                "a.ts",
                TS.into(),
                TS.replace(
                    "  return",
                    "  const m = await import(\"node:path\");\n  return",
                ),
            ),
            (
                "a.py",
                "import os\n".into(),
                "import os\nimport os\n".into(),
            ),
        ];
        for (path, before, after) in &cases {
            assert_eq!(found(path, before, after), None, "{path}: {after}");
        }
        let held = TS.replace("import path", "import path from \"x\";\nimport path");
        let more = held.replace("  return", "  // more\n  return");
        assert_eq!(found("a.ts", &held, &more), None);
    }
}
