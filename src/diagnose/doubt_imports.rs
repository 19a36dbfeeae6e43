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
//!   block; two bind one name when they are the same path under one name,
//!   or their names are the same and each is certain (tester 42c, 04:
//!   `"crypto/rand"` beside `"math/rand"`): an alias, a standard library
//!   package's last element, another path's last element where it is a Go
//!   name (a major version `v2` and up read past: the element before).
//!   gopkg.in's `name.vN` binds `name` (that host's spelling of a major
//!   version). Not certain, so compared by path only: an element such as
//!   `go-isatty` or `v1` (a package may name itself otherwise). Not read:
//!   `_` and `.` imports (Go takes `_` any number of times; a dot import's
//!   names are another matter). The same path under two aliases compiles,
//!   and is not read. `go build`: `rand redeclared in this block`;
//! - Rust: `use` (and `pub use`, `pub(..) use`) at column 0 of the file's
//!   own module, over several lines too, a tree such as `a::{b, c::{d,
//!   self}}` read whole; each item binds a name (`as` alias, else the last
//!   segment; `self` binds its module's name). Two bind one name when they
//!   are the same path, or (tester 42c, 04: `use std::io::Write;` beside
//!   `use std::fmt::Write;`) when their names are the same and the two are
//!   in one namespace as far as can be told: a capitalised name (a type, a
//!   trait, a constant, a variant) that no `derive(..)` of the file names
//!   unqualified (`thiserror::Error` is a derive macro alone, and sits
//!   beside `std::error::Error` in compiling crates); a lower-case name both of the standard library
//!   (`std`, `core`, `alloc`), both at its root (`std::fmt`, `core::fmt`)
//!   or both below it (`std::mem::swap`, `std::ptr::swap`). Other lower-
//!   case names may be a module beside a function: not compared. Not
//!   read: globs (`*`), `as _`, a `use` below a `#[cfg..]` attribute
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
    /// What the earlier import imports: [`Self::what`], or another path
    /// binding the same name.
    pub first: String,
    /// The two imports' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
}

impl ImportTwice {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let send = match self.lang {
            _ if self.first != self.what => self.rename(),
            Lang::Go => {
                "leave the import block as it is, the package is imported already".to_string()
            }
            _ => "leave the new import out, the name is imported already".to_string(),
        };
        format!("{}: {send}", self.fault())
    }

    /// What to send where two imports of two paths bind one name.
    fn rename(&self) -> String {
        let name = &self.name;
        match self.lang {
            Lang::Go => {
                let path = self.what.trim_matches('"');
                let before = path.rsplit('/').nth(1).unwrap_or("");
                // A major version (`/v3`, gopkg.in's `.v3`) names the alias.
                let last = path.rsplit('/').next().unwrap_or("");
                let major = last.rsplit('.').next().filter(|v| is_version(v));
                let alias = match (
                    major,
                    before.chars().next().filter(char::is_ascii_lowercase),
                ) {
                    (Some(v), _) => format!("{name}{v}"),
                    (None, Some(c)) => format!("{c}{name}"),
                    (None, None) => format!("{name}2"),
                };
                format!(
                    "import one of them under another name (`{alias} {}`)",
                    self.what
                )
            }
            Lang::Rust => {
                let before = self.what.rsplit("::").nth(1).unwrap_or("");
                let before = before.trim_start_matches("r#");
                let alias = if before.is_empty() || matches!(before, "crate" | "self" | "super") {
                    format!("{name}2")
                } else if name.starts_with(|c: char| c.is_ascii_uppercase()) {
                    let mut chars = before.chars();
                    let head: String = chars
                        .next()
                        .map(|c| c.to_ascii_uppercase())
                        .into_iter()
                        .collect();
                    let rest: String = chars.filter(|&c| c != '_').collect();
                    format!("{head}{rest}{name}")
                } else {
                    format!("{before}_{name}")
                };
                format!(
                    "import one of them under another name (`use {} as {alias};`, or `as _` \
                     where only a trait's methods are used)",
                    self.what
                )
            }
            _ => format!("import one of them under another name (`{{ {name} as ... }}`)"),
        }
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
        if self.first != self.what {
            let tick = if self.lang == Lang::Rust { "`" } else { "" };
            return format!(
                "as written, the file binds `{name}` twice: {tick}{}{tick} at line {earlier}, \
                 {tick}{}{tick} at line {later}: {refuses}",
                self.first, self.what
            );
        }
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

/// A Go import of a file, for [`super::doubt_go_use`].
pub struct GoImport {
    /// The name it binds, where that is certain (an alias, a standard
    /// package's last element); `None` where it is not, and for a `.`
    /// import (its names are the package's).
    pub name: Option<String>,
    /// The path, quoted as Go writes it (`"fmt"`).
    pub path: String,
    /// Its line, 0-based.
    pub line: usize,
}

/// Every import of `text`, a Go file's (`path`); `None` for another file.
/// `_` imports bind no name and are left out.
pub fn go_imports(path: &str, text: &str) -> Option<Vec<GoImport>> {
    (brace_language(path) == Some(Lang::Go)).then_some(())?;
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<GoImport> = imports(Lang::Go, &lines)
        .into_iter()
        .map(|b| GoImport {
            name: b.class.map(|_| b.name),
            path: b.what,
            line: b.line,
        })
        .collect();
    // A `.` import (`. "strings"`, `import . "strings"`): go_spec leaves it
    // out; it puts names in scope that no selector shows.
    for (line, text) in lines.iter().enumerate() {
        let code = text.trim_start().trim_start_matches("import").trim_start();
        if code.starts_with(". \"") || code.starts_with(".\t\"") {
            out.push(GoImport {
                name: None,
                path: code[1..].trim().to_string(),
                line,
            });
        }
    }
    Some(out)
}

/// One import read: the key it binds (one path as one name), the name,
/// what it imports, its line (0-based), and the class of its name: two
/// imports of one name and one class bind it twice whatever their paths
/// (see the module); `None` where that cannot be told.
struct Bound {
    key: String,
    name: String,
    what: String,
    line: usize,
    class: Option<&'static str>,
}

/// Each name `lines` (a text in `lang`) binds twice: the two imports, in
/// the order of the later one.
fn twice<'a>(lang: Lang, lines: &'a [&'a str]) -> impl Iterator<Item = ImportTwice> + 'a {
    let mut seen: HashMap<String, (usize, String)> = HashMap::new();
    let mut named: HashMap<(String, &'static str), (usize, String)> = HashMap::new();
    imports(lang, lines).into_iter().filter_map(move |b| {
        let class = b.class.map(|c| (b.name.clone(), c));
        let earlier = seen
            .get(&b.key)
            .or_else(|| class.as_ref().and_then(|c| named.get(c)))
            .cloned();
        match earlier {
            Some((first, what)) => Some(ImportTwice {
                lang,
                name: b.name,
                what: b.what,
                first: what,
                lines: (first + 1, b.line + 1),
            }),
            None => {
                if let Some(class) = class {
                    named.insert(class, (b.line, b.what.clone()));
                }
                seen.insert(b.key, (b.line, b.what));
                None
            }
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
    let mut derived: Option<Vec<String>> = None;
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
                    let path = path.trim_start_matches("::").to_string();
                    let class =
                        rust_class(&path, &name, derived.get_or_insert_with(|| derives(lines)));
                    out.push(Bound {
                        key: format!("{path} as {name}"),
                        name,
                        what: path,
                        line: at,
                        class,
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

/// Whether a Go path element is a version (`v1`, `v3`).
fn is_version(element: &str) -> bool {
    element.len() > 1
        && element.starts_with('v')
        && element[1..].chars().all(|c| c.is_ascii_digit())
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
    let go_name = |n: &str| {
        n.starts_with(|c: char| c == '_' || c.is_alphabetic())
            && n.chars().all(|c| c == '_' || c.is_alphanumeric())
    };
    let (name, certain) = match alias {
        Some("_" | ".") => return None,
        Some(alias) if go_name(alias) => (alias, true),
        Some(_) => return None,
        // The package's name, as the last element says it (a major
        // version element `v2` read past); certain for the standard
        // library's paths (no dot in the first element) and a Go name.
        // gopkg.in's `name.vN` is that convention's other spelling
        // (tester 43b-11: `gopkg.in/yaml.v2` beside `gopkg.in/yaml.v3`
        // both bind `yaml`; `go build`: yaml redeclared in this block).
        None if path.starts_with("gopkg.in/") => {
            let last = path.rsplit('/').next().unwrap_or(path);
            match last.rsplit_once(".v") {
                Some((name, major)) if major.chars().all(|c| c.is_ascii_digit()) => {
                    (name, !major.is_empty() && go_name(name))
                }
                _ => (last, false),
            }
        }
        None => {
            let mut parts = path.rsplit('/');
            let last = parts.next().unwrap_or(path);
            let version = is_version(last);
            let major = version && !matches!(last, "v0" | "v1");
            match parts.next() {
                Some(before) if version => (before, major && go_name(before)),
                _ => (last, go_name(last) && !version),
            }
        }
    };
    Some(Bound {
        key: format!("{path} as {}", alias.unwrap_or("")),
        name: name.to_string(),
        what: format!("\"{path}\""),
        line: at,
        class: certain.then_some("package"),
    })
}

/// The class of the name `name` a Rust `use` of `path` binds (see the
/// module), `derived` the names the file's `derive(..)` lists hold.
fn rust_class(path: &str, name: &str, derived: &[String]) -> Option<&'static str> {
    if name.starts_with(|c: char| c.is_uppercase()) {
        return (!derived.iter().any(|d| d == name)).then_some("capitalised");
    }
    let mut segments = path.split("::");
    if !matches!(segments.next(), Some("std" | "core" | "alloc")) {
        return None;
    }
    Some(if segments.count() > 1 {
        "standard library item"
    } else {
        "standard library root"
    })
}

/// Each name the `derive(..)` lists of `lines` hold unqualified (a
/// `thiserror::Error` there names no import).
fn derives(lines: &[&str]) -> Vec<String> {
    let text = lines.join("\n");
    let mut out = Vec::new();
    for (at, _) in text.match_indices("derive(") {
        let list = &text[at + "derive(".len()..];
        let list = list.split(')').next().unwrap_or("");
        for item in list.split(',') {
            let item = item.trim();
            if !item.is_empty() && !item.contains("::") {
                out.push(item.to_string());
            }
        }
    }
    out
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
            class: Some("binding"),
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

    /// A case of a table: `base` at `path`, and `base` with `from` replaced by `to`.
    fn edited(
        path: &'static str,
        base: &str,
        from: &str,
        to: &str,
    ) -> (&'static str, String, String) {
        (path, base.into(), base.replace(from, to))
    }

    /// A case of a table: [`GO`] with `spec` imported after `"strings"`.
    fn go_import(spec: &str) -> (&'static str, String, String) {
        edited(
            "a.go",
            GO,
            "\t\"strings\"\n",
            &format!("\t\"strings\"\n{spec}"),
        )
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
        // gopkg.in's major versions bind one name (tester 43b-11).
        let yaml = GO.replace("\t\"fmt\"\n", "\t\"gopkg.in/yaml.v2\"\n");
        let both = yaml.replace("\t\"strings\"\n", "\t\"strings\"\n\t\"gopkg.in/yaml.v3\"\n");
        assert_eq!(
            import_twice("a.go", &yaml, &both)
                .map(|t| t.describe())
                .as_deref(),
            Some(
                "as written, the file binds `yaml` twice: \"gopkg.in/yaml.v2\" at line 4, \
                 \"gopkg.in/yaml.v3\" at line 6: Go refuses to compile the package (yaml \
                 redeclared in this block): import one of them under another name (`yamlv3 \
                 \"gopkg.in/yaml.v3\"`)"
            )
        );
        let fmt_v3 = GO.replace("\t\"strings\"\n", "\t\"strings\"\n\t\"gopkg.in/fmt.v3\"\n");
        assert_eq!(found("a.go", GO, &fmt_v3).map(|f| f.0), Some("fmt".into()));
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
            go_import("\t\"os\"\n"),
            go_import("\t_ \"fmt\"\n\t_ \"fmt\"\n"),
            go_import("\tf \"fmt\"\n"),
            go_import("\t. \"fmt\"\n"),
            go_import("\t// \"fmt\"\n"),
            edited(
                "a.rs",
                RUST,
                "pub struct",
                "use std::io::*;\nuse std::io::*;\n\npub struct",
            ),
            edited(
                "a.rs",
                RUST,
                "pub struct",
                "use std::fmt as _;\n\npub struct",
            ),
            edited(
                "a.rs",
                RUST,
                "pub struct",
                "mod inner {\n    use std::fmt;\n}\n\npub struct",
            ),
            edited(
                "a.rs",
                RUST,
                "        write!",
                "        use std::fmt;\n        write!",
            ),
            edited(
                "a.rs",
                RUST,
                "use std::fmt;\n",
                "#[cfg(unix)]\nuse std::fmt;\n#[cfg(not(unix))]\nuse std::fmt;\n",
            ),
            edited(
                "a.rs",
                RUST,
                "pub struct",
                "// use std::fmt;\nconst S: &str = \"\nuse std::fmt;\n\";\n\npub struct",
            ),
            edited(
                "a.rs",
                RUST,
                "pub struct",
                "use core::fmt::Write;\n\npub struct",
            ),
            edited(
                "a.ts",
                TS,
                "import path",
                "import \"./polyfill\";\nimport \"./polyfill\";\nimport path",
            ),
            edited(
                "a.ts",
                TS,
                "import path",
                "import type { readFileSync } from \"x\";\nimport path",
            ),
            edited(
                "a.ts",
                TS,
                "import path",
                "import { type readFileSync as r2, type path } from \"x\";\nimport path",
            ),
            edited(
                "a.ts",
                TS,
                "import path",
                "import { readFile } from \"node:fs\";\nimport path",
            ),
            edited(
                "a.ts",
                TS,
                "  return",
                "  const s = `\nimport path from \"x\";\n`;\n  return",
            ),
            edited(
                "a.ts",
                TS,
                "  return",
                "  const m = await import(\"node:path\");\n  return",
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

    /// One name bound from two paths (tester 42c, 04): Rust's two
    /// `Write` traits, two `HashMap` paths, `std::fmt` beside `core::fmt`,
    /// two functions of the standard library, `anyhow::Result` beside
    /// `std::io::Result`; Go's two `rand` packages, an alias naming a
    /// package imported, a major version's package; the sentence names
    /// both lines and both paths.
    #[test]
    fn a_name_bound_from_another_path_is_doubted() {
        let w = "use std::fmt::Write;\nfn f() {}\n";
        let w2 = "use std::fmt::Write;\nuse std::io::Write;\nfn f() {}\n";
        let t = import_twice("w.rs", w, w2).expect("rust");
        assert_eq!(
            t.describe(),
            "as written, the file binds `Write` twice: `std::fmt::Write` at line 1, \
             `std::io::Write` at line 2: Rust refuses to compile it (E0252: the name `Write` is \
             defined multiple times): import one of them under another name (`use \
             std::io::Write as IoWrite;`, or `as _` where only a trait's methods are used)"
        );
        for (added, name, lines) in [
            ("use ::std::collections::HashMap;\n", "HashMap", (2, 3)),
            (
                "use std::collections::hash_map::HashMap;\n",
                "HashMap",
                (2, 3),
            ),
            ("use core::fmt;\n", "fmt", (1, 3)),
            (
                "use std::io::{self, Result};\nuse anyhow::Result;\n",
                "Result",
                (3, 4),
            ),
            ("use std::mem::swap;\nuse std::ptr::swap;\n", "swap", (3, 4)),
            (
                "pub(crate) use crate::cart::Cart;\nuse self::shop::Cart;\n",
                "Cart",
                (3, 4),
            ),
            (
                "use std::error::Error;\n#[derive(Debug, thiserror::Error)]\npub enum E {}\nuse std::fmt::Error;\n",
                "Error",
                (3, 6),
            ),
        ] {
            let after = RUST.replace("\npub struct", &format!("{added}\npub struct"));
            assert_eq!(
                found("a.rs", RUST, &after),
                Some((name.to_string(), lines)),
                "{added}"
            );
        }
        let go = GO.replace("\t\"strings\"\n", "\t\"math/rand\"\n");
        let go2 = go.replace("\t\"math/rand\"\n", "\t\"math/rand\"\n\t\"crypto/rand\"\n");
        let t = import_twice("main.go", &go, &go2).expect("go");
        assert_eq!(
            t.describe(),
            "as written, the file binds `rand` twice: \"math/rand\" at line 5, \"crypto/rand\" \
             at line 6: Go refuses to compile the package (rand redeclared in this block): \
             import one of them under another name (`crand \"crypto/rand\"`)"
        );
        for (added, name) in [
            ("\tfmt \"github.com/x/fmt\"\n", "fmt"),
            ("\t\"github.com/x/strings\"\n", "strings"),
            ("\tstrings \"github.com/x/y\"\n", "strings"),
            ("\t\"github.com/x/strings/v3\"\n", "strings"),
        ] {
            let after = GO.replace("\t\"strings\"\n", &format!("\t\"strings\"\n{added}"));
            assert_eq!(
                found("a.go", GO, &after).map(|f| f.0),
                Some(name.into()),
                "{added}"
            );
        }
    }

    /// One name from two paths where the two may be in other namespaces,
    /// or the name a Go path binds is not certain, is not doubted: a
    /// derive macro beside its trait (`thiserror::Error`), lower-case
    /// names outside the standard library or of two depths of it (a macro
    /// beside a function), Go elements that are no Go name or a `v1`.
    #[test]
    fn a_name_from_another_path_is_not_doubted_where_unsure() {
        let cases: Vec<(&str, String, String)> = vec![
            (
                "a.rs",
                "use std::error::Error;\n\n#[derive(Debug, Error)]\npub struct E;\n".into(),
                "use std::error::Error;\nuse thiserror::Error;\n\n#[derive(Debug, Error)]\npub struct E;\n".into(),
            ),
            (
                "a.rs",
                "use std::fmt::Display;\n\n#[derive(\n    Debug,\n    Display,\n)]\npub struct E;\n".into(),
                "use std::fmt::Display;\nuse derive_more::Display;\n\n#[derive(\n    Debug,\n    Display,\n)]\npub struct E;\n".into(),
            ),
            edited("a.rs", RUST, "pub struct", "use crate::util::fmt;\n\npub struct"),
            (
                "a.rs",
                "use crate::parse;\n".into(),
                "use crate::parse;\nuse crate::text::parse;\n".into(),
            ),
            (
                "a.rs",
                "use std::write;\n".into(),
                "use std::write;\nuse std::fmt::write;\n".into(),
            ),
            (
                "a.rs",
                "use std::fmt::Write;\n".into(),
                "use std::fmt::Write;\nuse std::io::Write as _;\n".into(),
            ),
            go_import("\t\"gopkg.in/fmt-x.v3\"\n"),
            go_import("\t\"github.com/x/go-fmt\"\n"),
            go_import("\t\"k8s.io/api/fmt/v1\"\n"),
            go_import("\t_ \"github.com/x/fmt\"\n"),
        ];
        for (path, before, after) in &cases {
            assert_eq!(found(path, before, after), None, "{path}: {after}");
        }
    }
}
