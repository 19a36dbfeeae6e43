//! *Pure.* An edit that leaves a JavaScript, TypeScript, Go or Rust file
//! defining one top-level function (or const, class, type; or a class's
//! or an `impl`'s method) twice: a helper the file already has,
//! added again at another place (a tester's find: the model re-added
//! `formatPrice` before the exports after a context loss; each text matched
//! exactly, so nothing doubted it). JavaScript keeps the later definition
//! without a word (a script's function, a class's method; a class's
//! constructor twice, and a function twice in an ES module, do not load);
//! TypeScript, Go and Rust refuse the file. The brace
//! languages' twin of [`super::doubt_redefine`] (Python).
//!
//! The rule, by evidence only, for a file by its extension
//! ([`super::doubt_braces::brace_language`]), lines inside strings and
//! comments left out ([`super::doubt_braces::line_starts`]):
//! - a top-level definition is a line at column 0 and brace depth 0:
//!   `function NAME`, with `export`, `export default`, `async` before it
//!   and `function*`, and `const NAME`, `let NAME`, `class NAME` (with
//!   `export`, `default`, `declare`, `abstract`; JavaScript and
//!   TypeScript: the language refuses a name declared twice so, `var` and
//!   TypeScript's `interface`, `namespace` and `enum` merge and are not
//!   read); `func NAME(` or `func NAME[` and a method `func (r T) NAME(`,
//!   its receiver's type (without `*` and type parameters) part of its
//!   key, `type NAME`, `var NAME`, `const NAME` (Go; and each name a group
//!   `var (`, `const (`, `type (` declares, at its entries' indentation); `fn NAME` with `pub`, `pub(..)`, `const`, `async`, `unsafe`,
//!   `extern ".."` before it, `const NAME:`, `static NAME:` (values), and
//!   `struct`, `enum`, `trait`, `type`, `union NAME` (types, a namespace
//!   of their own; Rust);
//! - a method is a line at brace depth 1 inside a top-level `class`
//!   (also `export default class {`, `module.exports = class`, `exports.X
//!   = class`; JavaScript, TypeScript: `NAME(`, with `static`, `async`,
//!   `get`, `set`, `*`, `readonly` and TypeScript's access words; `static`
//!   and `get`/`set` part of its key, so a getter and its setter are two;
//!   a field whose value is a function, `NAME = (..) =>`, `= async e =>`,
//!   `= function`, one member with a method of its name) or `impl` block
//!   (Rust: `fn NAME`, keyed by the block's header without its gate: two
//!   blocks of one header are one scope; two `impl Trait for Type` blocks
//!   are the trait implemented twice, E0119);
//! - also a top-level definition: each name a top-level import binds
//!   (JavaScript, TypeScript: `import d, { a, b as c } from`, `import *
//!   as e`, over several lines too; not `import type` nor a `type` name:
//!   TypeScript merges types; Rust: `use a::b;`, `use a::{b, c as d};`,
//!   clashing only with a `fn`, `const` or `static`, and not when the file
//!   uses the name as a macro, a module or a type: a derive macro, `use
//!   core::hash;`), a JavaScript `const`/`let`'s later declarators
//!   (`const A = 1, B = 2;`) and destructured names (`const { a } =`); an
//!   import twice is not read as a clash;
//! - Rust: a `mod NAME {` or `trait NAME {` body at column 0 holds its
//!   `fn`s at depth 1 as an `impl` does (E0428 for one twice); a standard
//!   trait a type's `#[derive(..)]` implements (`Default`, `Clone`,
//!   `Copy`, `Debug`, `PartialEq`, `Eq`, `Hash`, `PartialOrd`, `Ord`) and
//!   an `impl TRAIT for TYPE` of it whose `fn`s are that trait's (E0119);
//! - not counted: a function's declaration without a body (Go, Rust: a
//!   line ending with `;`; JavaScript: no `{` after its parameter list,
//!   on the line closing it or first on the next, or that line ends with
//!   `;`, a comment after it left out: a TypeScript overload's signature
//!   over one line or several, with or without `;`, an abstract method;
//!   a method's line opens its body or its parameters), a top-level
//!   function right below a decorator (`@memo`: the line above, comments
//!   between skipped; a decorated class or class member is counted: a
//!   decorator makes no two implementations one), Go's `init`, the name `_` (meant more than once); in Rust,
//!   two definitions gated apart: each below `#[cfg(..)]` (or
//!   `#[cfg_attr(..)]` naming a `cfg`) attributes, and the two gates'
//!   text differs (`#[cfg(unix)]`, `#[cfg(not(unix))]`; a method's gate is
//!   its `impl` block's and its own). Any other attribute (`#[inline]`,
//!   `#[test]`) is read through, and an ungated definition clashes with
//!   any;
//! - doubted: the file as the edit leaves it defines a key more times than
//!   the file before, twice at least, and one of them is on a line the
//!   edit changed.
//!
//! Not caught: C and C++ (declarations and definitions read alike, and the
//! preprocessor decides what is compiled: no reliable reading), methods in
//! an object literal or a nested class, a class's fields other than
//! functions (and a function field typed before its `=`), a Rust import
//! of a type's name beside a type of it, an import inside a body or a
//! module, two inherent `impl` blocks of one type with different headers.

use super::doubt_braces::{Lang, brace_language, line_starts};
use crate::textdiff::changed_lines;
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
    /// The two definitions' kinds (`function`, `const`, `struct`,
    /// `method`).
    pub kinds: (&'static str, &'static str),
    /// The class or `impl` holding both: its line (1-based) and header;
    /// `None` at the top level.
    pub scope: Option<(usize, String)>,
    /// The two definitions' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
    /// Both lines read the same (the model's copy of what is there).
    pub same: bool,
    /// JavaScript, TypeScript: an ES module (`.mjs`, `.mts`, or a
    /// top-level `import`/`export`), where a function declared twice at
    /// the top level fails to load as a `const` would.
    pub module: bool,
    /// Rust: both copies stand in two `impl Trait for Type` blocks of one
    /// header: those blocks' lines (1-based): the trait implemented twice.
    pub trait_impls: Option<(usize, usize)>,
}

impl Redefined {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let kinds = self.kinds;
        let advice = if kinds.0 == "import" || kinds.1 == "import" {
            "the name is imported already: use the imported one and leave the new definition \
             out, or give the new one another name"
                .to_string()
        } else if let Some((tr, _)) = self
            .name
            .split_once(" for ")
            .filter(|_| kinds.0 == "derive" || kinds.1 == "derive")
        {
            format!("drop `{tr}` from the `#[derive(..)]` or leave the `impl` out")
        } else if self.trait_impls.is_some() {
            "change the `impl` block that is there (its text in the old text) instead of adding \
             another"
                .to_string()
        } else if self.same {
            "the file has it already: leave it out of the new text, or change the definition \
             that is there (its text in the old text) instead of adding another"
                .to_string()
        } else {
            "change the definition that is there (its text in the old text) instead of adding \
             another, or give the new one another name"
                .to_string()
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let name = &self.name;
        if let (Some((first, second)), Some((_, header))) = (self.trait_impls, &self.scope) {
            let (implemented, error) = match trait_and_type(header) {
                Some((tr, ty)) => (
                    format!("`{tr}` for `{ty}`"),
                    format!("conflicting implementations of trait `{tr}` for type `{ty}`"),
                ),
                None => (
                    format!("`{header}`"),
                    "conflicting implementations".to_string(),
                ),
            };
            return format!(
                "as written, the file implements {implemented} twice, in `{header}` at lines \
                 {first} and {second} (fn `{name}` at lines {earlier} and {later}): Rust \
                 refuses to compile it (E0119: {error})"
            );
        }
        let kinds = self.kinds;
        if let Some(fault) = self.import_or_derive_fault() {
            return fault;
        }
        let functions = kinds.0 == kinds.1 && matches!(kinds.1, "function" | "method");
        let fields = kinds.0 == "field" || kinds.1 == "field";
        let outcome = match self.lang {
            Lang::Go if name.contains('.') => {
                format!("Go refuses to compile the package (method {name} already declared)")
            }
            Lang::Go => {
                format!("Go refuses to compile the package ({name} redeclared in this block)")
            }
            Lang::Rust if self.scope.as_ref().is_some_and(|(_, h)| !rust_namespace(h)) => {
                format!("Rust refuses to compile it (duplicate definitions with name `{name}`)")
            }
            Lang::Rust => {
                format!("Rust refuses to compile it (the name `{name}` is defined multiple times)")
            }
            // `node -e 'class A { constructor() {} constructor(x) {} }'`.
            _ if functions && self.scope.is_some() && name == "constructor" => {
                let js = "SyntaxError: A class may only have one constructor";
                if self.typescript {
                    format!(
                        "TypeScript refuses the file (Multiple constructor implementations are \
                         not allowed), and run as JavaScript it does not load ({js})"
                    )
                } else {
                    format!("JavaScript refuses to load the file ({js})")
                }
            }
            // TypeScript: Duplicate identifier (TS2300) for a field and
            // another member of its name; JavaScript: the field, set on
            // each instance, hides a method of its name.
            _ if fields => {
                let kept = match kinds {
                    ("field", "field") => format!(
                        "the later one (line {later}) replaces the one at line {earlier} without \
                         a word"
                    ),
                    ("field", _) => format!(
                        "the field (line {earlier}) hides the method at line {later} without a \
                         word"
                    ),
                    _ => format!(
                        "the field (line {later}) hides the method at line {earlier} without a \
                         word"
                    ),
                };
                if self.typescript {
                    format!(
                        "TypeScript refuses the file (Duplicate identifier '{name}'), and run as \
                         JavaScript {kept}"
                    )
                } else {
                    format!("JavaScript runs it, and {kept}")
                }
            }
            // A function declared twice in an ES module is a `const`'s
            // error: `node --input-type=module -e 'export function a() {}
            // export function a() {}'`.
            _ if !functions || (self.module && self.scope.is_none()) => {
                let js = format!("SyntaxError: Identifier '{name}' has already been declared");
                let (typescript, file) = if functions {
                    ("Duplicate function implementation", "module")
                } else {
                    ("Duplicate identifier '{name}'", "file")
                };
                let typescript = typescript.replace("{name}", name);
                if self.typescript {
                    format!(
                        "TypeScript refuses the file ({typescript}), and run as JavaScript the \
                         {file} does not load ({js})"
                    )
                } else {
                    format!("JavaScript refuses to load the {file} ({js})")
                }
            }
            _ if self.typescript => "TypeScript refuses the file (Duplicate function \
                 implementation), and run as JavaScript the later one wins"
                .to_string(),
            _ => format!(
                "JavaScript keeps the later one (line {later}) without a word, and the one at \
                 line {earlier} never runs"
            ),
        };
        let what = |kind: &str| match self.lang {
            Lang::Go if name.contains('.') => format!("method `{name}`"),
            Lang::Rust if self.scope.is_some() => format!("fn `{name}`"),
            _ => format!("{kind} `{name}`"),
        };
        let place = match &self.scope {
            None => "at its top level".to_string(),
            Some((line, header)) => format!("in `{header}` (line {line})"),
        };
        if kinds.0 == kinds.1 {
            format!(
                "as written, the file defines {} twice {place}, at lines {earlier} and \
                 {later}: {outcome}",
                what(kinds.1)
            )
        } else {
            // Each copy by its own kind (a struct and an enum of one name).
            format!(
                "as written, the file defines `{name}` twice {place}, {} at line {earlier} and \
                 {} at line {later}: {outcome}",
                what(kinds.0),
                what(kinds.1)
            )
        }
    }
}

impl Redefined {
    /// [`Self::fault`] for a name imported and defined again, or a trait
    /// derived and implemented by hand; `None` for another pair.
    fn import_or_derive_fault(&self) -> Option<String> {
        let name = &self.name;
        let (kinds, lines) = (self.kinds, self.lines);
        if kinds.0 == "import" || kinds.1 == "import" {
            let ((import, defined), kind) = if kinds.0 == "import" {
                (lines, kinds.1)
            } else {
                ((lines.1, lines.0), kinds.0)
            };
            let js = format!("SyntaxError: Identifier '{name}' has already been declared");
            let outcome = match self.lang {
                Lang::Rust => format!(
                    "Rust refuses to compile it (E0255: the name `{name}` is defined multiple \
                     times)"
                ),
                _ if self.typescript => format!(
                    "TypeScript refuses the file (the import conflicts with the local \
                     declaration), and run as JavaScript the module does not load ({js})"
                ),
                _ => format!("JavaScript refuses to load the module ({js})"),
            };
            return Some(format!(
                "as written, the file imports `{name}` at line {import} and defines it again \
                 at line {defined} ({kind} `{name}`): {outcome}"
            ));
        }
        let (derive, implemented) = match kinds {
            ("derive", "impl") => lines,
            ("impl", "derive") => (lines.1, lines.0),
            _ => return None,
        };
        let (tr, ty) = name.split_once(" for ")?;
        Some(format!(
            "as written, the file implements `{tr}` for `{ty}` twice, derived at line {derive} \
             and implemented at line {implemented}: Rust refuses to compile it (E0119: \
             conflicting implementations of trait `{tr}` for type `{ty}`)"
        ))
    }
}

/// Whether a Rust scope's header is a module's or a trait's (`pub mod
/// tests`, `pub trait Shape`), whose names clash as the top level's
/// (E0428: the name is defined multiple times), not an `impl`'s.
fn rust_namespace(header: &str) -> bool {
    rust_bare(header, false).is_some_and(|b| {
        let b = after(b, &["unsafe"]).map_or(b, |(_, r)| r);
        after(b, &["mod", "trait"]).is_some()
    })
}

/// The trait and the type of a Rust `impl` header (`impl<T> Display for
/// A<T> where ..`): `Display`, `A<T>`.
fn trait_and_type(header: &str) -> Option<(String, String)> {
    let rest = header.strip_prefix("unsafe ").unwrap_or(header);
    let rest = rest.strip_prefix("impl")?.trim_start();
    // The impl's own generics, `<..>` balanced.
    let rest = if rest.starts_with('<') {
        let end = closing(rest, '<', '>')?;
        rest[end + 1..].trim_start()
    } else {
        rest
    };
    let (tr, ty) = rest.split_once(" for ")?;
    let ty = ty.split(" where").next().unwrap_or(ty);
    Some((tr.trim().to_string(), ty.trim().to_string()))
}

/// The byte index of the `close` that balances the `open` `text` starts
/// with; `None` when none does.
fn closing(text: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 0usize;
    text.char_indices().find_map(|(i, c)| {
        if c == open {
            depth += 1;
        } else if c == close {
            depth = depth.saturating_sub(1);
        }
        (depth == 0).then_some(i)
    })
}

/// A name: letters, digits, `_`, `$`, not starting with a digit.
fn word(rest: &str) -> Option<String> {
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        .then(|| name.to_string())
}

/// `rest` after the first of `prefixes` it starts with (each followed by
/// white space), and that prefix.
fn after<'a>(rest: &'a str, prefixes: &[&'static str]) -> Option<(&'static str, &'a str)> {
    prefixes.iter().find_map(|&p| {
        let r = rest.strip_prefix(p)?;
        r.starts_with([' ', '\t']).then(|| (p, r.trim_start()))
    })
}

/// A Rust line without its `pub`, `pub(..)` and, with `fn_too`, a fn's
/// qualifiers (`const`, `async`, `unsafe`, `extern ".."`).
fn rust_bare(line: &str, fn_too: bool) -> Option<&str> {
    let mut rest = line;
    loop {
        let before = rest;
        if let Some(r) = rest.strip_prefix("pub(") {
            rest = r.split_once(')')?.1.trim_start();
        }
        if let Some((_, r)) = after(rest, &["pub"]) {
            rest = r;
        }
        if fn_too {
            if let Some((_, r)) = after(rest, &["const", "async", "unsafe"]) {
                rest = r;
            }
            if let Some((_, r)) = after(rest, &["extern"]) {
                rest = match r.strip_prefix('"') {
                    Some(abi) => abi.split_once('"')?.1.trim_start(),
                    None => r,
                };
            }
        }
        if rest == before {
            return Some(rest);
        }
    }
}

/// The key a line (at column 0) defines in `lang`, and its kind's word
/// (`function`, `const`, `struct`): its name (`Type.Name` for a Go
/// method; `type NAME` for a Rust type, whose names are apart from
/// values'). A function's signature without a body is left to
/// [`definitions`].
fn definition(lang: Lang, line: &str) -> Option<(String, &'static str)> {
    let line = line.trim_end_matches('\r');
    // `_` is meant again; `$name` is a macro's.
    let named =
        |name: String, kind| (name != "_" && !name.starts_with('$')).then_some((name, kind));
    match lang {
        Lang::Js => {
            let mut rest = line;
            for prefix in ["export", "default", "declare", "abstract", "async"] {
                if let Some((_, r)) = after(rest, &[prefix]) {
                    rest = r;
                }
            }
            if let Some((kind, r)) = after(rest, &["const", "let", "class"]) {
                let name = word(r)?;
                // `const enum E` (TypeScript).
                return (name != "enum")
                    .then_some(())
                    .and_then(|()| named(name, kind));
            }
            let rest = rest.strip_prefix("function")?;
            // `functionName(x)` is a call.
            if !rest.starts_with([' ', '\t', '*']) {
                return None;
            }
            let rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
            let rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
            named(word(rest)?, "function")
        }
        Lang::Go => {
            if let Some((kind, r)) = after(line, &["type", "var", "const"]) {
                return named(word(r)?, kind);
            }
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
                Some(ty) => Some((format!("{ty}.{name}"), "method")),
                None if name == "init" => None,
                None => named(name, "func"),
            }
        }
        Lang::Rust => {
            let bare = rust_bare(line, false)?;
            if let Some((kind, r)) = after(bare, &["struct", "enum", "trait", "type", "union"]) {
                return named(word(r)?, kind).map(|(n, k)| (format!("type {n}"), k));
            }
            if let Some((kind, r)) = after(bare, &["static", "const"]) {
                let r = after(r, &["mut"]).map_or(r, |(_, r)| r);
                let name = word(r)?;
                if r[name.len()..].trim_start().starts_with(':') {
                    return named(name, kind);
                }
            }
            let rest = rust_bare(line, true)?;
            let (_, rest) = after(rest, &["fn"])?;
            named(word(rest)?, "fn")
        }
        _ => None,
    }
}

/// The names a top-level import at `lines[at]` (column 0) binds, each
/// with its key (see [`definition`]): JavaScript and TypeScript `import d,
/// { a, b as c } from`, `import * as e from`, `import x = require(..)`
/// (not `import type`, nor a `type` name in the braces: TypeScript merges
/// a type with a value of its name); Rust `use a::b;`, `use a::b as c;`,
/// `use a::{b, c::{d, e as f}};` (not `*`, `self`, `_`), a name starting
/// with a capital, not all capitals, a type's key. Over several lines
/// (`import {\n  a,\n} from`) up to 40.
fn import_names(lang: Lang, lines: &[&str], at: usize) -> Vec<String> {
    let line = code_of(lines[at].trim_end_matches('\r'));
    let joined = |end: &dyn Fn(&str) -> bool| {
        let mut text = String::new();
        for l in lines[at..].iter().take(40) {
            text.push_str(code_of(l.trim_end_matches('\r')).trim());
            text.push(' ');
            if end(&text) {
                return Some(text);
            }
        }
        None
    };
    let mut names = Vec::new();
    match lang {
        Lang::Js => {
            let Some(rest) = line.strip_prefix("import") else {
                return names;
            };
            if !rest.starts_with([' ', '\t', '{', '*'])
                || after(rest.trim_start(), &["type", "typeof"]).is_some()
            {
                return names;
            }
            let Some(text) = joined(&|t: &str| {
                t.contains(" from ")
                    || t.contains("}from")
                    || t.contains(';')
                    || t.contains('=')
                    || t.trim_start_matches("import")
                        .trim_start()
                        .starts_with(['"', '\''])
            }) else {
                return names;
            };
            let clause = text["import".len()..].trim_start();
            if clause.starts_with(['"', '\'']) {
                return names;
            }
            // `import x = require('y')` (TypeScript).
            if let Some(name) = word(clause)
                && clause[name.len()..].trim_start().starts_with('=')
            {
                return vec![name];
            }
            let (head, braces) = match clause.split_once('{') {
                Some((head, rest)) => (head, rest.split_once('}').map_or("", |(b, _)| b)),
                None => (
                    clause
                        .split(" from ")
                        .next()
                        .unwrap_or(clause)
                        .split(['"', '\''])
                        .next()
                        .unwrap_or(""),
                    "",
                ),
            };
            for part in head.split(',').chain(braces.split(',')) {
                let part = part.trim();
                if part.is_empty() || after(part, &["type"]).is_some() {
                    continue;
                }
                let bound = match part.split_once(" as ") {
                    Some((_, alias)) => alias.trim(),
                    None => part,
                };
                if let Some(name) = word(bound)
                    && name != "from"
                {
                    names.push(name);
                }
            }
        }
        Lang::Rust => {
            let Some(rest) = rust_bare(line, false).and_then(|r| after(r, &["use"])) else {
                return names;
            };
            let rest = rest.1;
            let Some(text) = (if rest.contains(';') {
                Some(rest.to_string())
            } else {
                joined(&|t: &str| t.contains(';')).map(|t| {
                    t.split_once("use")
                        .map_or(t.clone(), |(_, r)| r.to_string())
                })
            }) else {
                return names;
            };
            let text = text.split(';').next().unwrap_or("");
            // `a::{b, c::{d}}`: each item after the first `{`, braces read
            // as commas.
            let items: Vec<&str> = match text.split_once('{') {
                Some((_, inner)) => inner.split([',', '{', '}']).collect(),
                None => vec![text],
            };
            for item in items {
                let item = item.trim();
                let bound = match item.split_once(" as ") {
                    // `self as x`: a module's name.
                    Some((path, _)) if path.trim().ends_with("self") => continue,
                    Some((_, alias)) => alias.trim(),
                    None => item.rsplit("::").next().unwrap_or(item).trim(),
                };
                let Some(name) = word(bound) else {
                    continue;
                };
                if name == "_" || name == "self" || name == "super" || name == "crate" {
                    continue;
                }
                let capital = name.chars().next().is_some_and(char::is_uppercase);
                let constant = !name.chars().any(char::is_lowercase);
                names.push(if capital && !constant {
                    format!("type {name}")
                } else {
                    name
                });
            }
        }
        _ => {}
    }
    names
}

/// The names a top-level JavaScript `const`/`let` line declares past its
/// first: each later declarator (`const A = 1, B = 2;`, commas inside
/// brackets and strings read past) and each name a destructuring binds
/// (`const { a, b: c, ...d } = require(..)`, `const [x, y] =`; its
/// brackets on the line).
fn js_more_names(line: &str) -> Vec<String> {
    let line = code_of(line.trim_end_matches('\r'));
    let mut rest = line;
    for prefix in ["export", "declare"] {
        if let Some((_, r)) = after(rest, &[prefix]) {
            rest = r;
        }
    }
    let Some((_, rest)) = after(rest, &["const", "let"]) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    // A destructuring: the names in its brackets.
    if let Some(open) = rest.chars().next().filter(|c| matches!(c, '{' | '[')) {
        let close = if open == '{' { '}' } else { ']' };
        let Some(end) = closing(rest, open, close) else {
            return names;
        };
        let inner = &rest[1..end];
        if inner.contains(['{', '[']) {
            return names;
        }
        for part in inner.split(',') {
            let part = part.trim().trim_start_matches("...");
            let bound = part.split('=').next().unwrap_or(part);
            let bound = bound.rsplit(':').next().unwrap_or(bound).trim();
            if let Some(name) = word(bound)
                && name.len() == bound.len()
            {
                names.push(name);
            }
        }
        return names;
    }
    // Later declarators: after a comma at depth 0, a name then `=`, `:`,
    // `,`, `;` or the line's end.
    let mut depth = 0i64;
    for (i, c) in unquoted(rest) {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ';' if depth == 0 => break,
            ',' if depth == 0 => {
                let next = rest[i + 1..].trim_start();
                if let Some(name) = word(next) {
                    let tail = next[name.len()..].trim_start();
                    let declares = tail.is_empty()
                        || tail.starts_with([':', ',', ';'])
                        || (tail.starts_with('=')
                            && !tail.starts_with("==")
                            && !tail.starts_with("=>"));
                    if declares && name != "_" {
                        names.push(name);
                    }
                }
            }
            _ => {}
        }
    }
    names
}

/// The standard traits a `#[derive(..)]` implements that a hand-written
/// `impl` would conflict with (E0119).
const STD: [&str; 9] = [
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "PartialEq",
    "Eq",
    "Hash",
    "PartialOrd",
    "Ord",
];

/// The traits a Rust `#[derive(..)]` above the type defined at
/// `lines[at]` implements, of those in [`STD`]; each with the line
/// (0-based) of its `derive(`. The attributes, doc comments and comments
/// right above read.
fn derived(lines: &[&str], at: usize) -> Vec<(String, usize)> {
    let mut found = Vec::new();
    let mut top = at;
    while top > 0 && at - top < 60 {
        let l = lines[top - 1].trim();
        let attribute = l.starts_with("#[")
            || l.starts_with("//")
            || l.starts_with(")]")
            || l.starts_with(']')
            || (lines[top - 1].starts_with([' ', '\t']) && !l.is_empty());
        if !attribute {
            break;
        }
        top -= 1;
    }
    for k in top..at {
        let text = code_of(lines[k]);
        let Some((_, rest)) = text.split_once("#[derive(") else {
            continue;
        };
        // The list, over the lines up to its `)`.
        let mut list = rest.to_string();
        for l in &lines[k + 1..at] {
            if list.contains(')') {
                break;
            }
            list.push_str(code_of(l));
        }
        let list = list.split(')').next().unwrap_or("");
        for item in list.split(',') {
            let name = item.trim().rsplit("::").next().unwrap_or("").trim();
            if STD.contains(&name) {
                found.push((name.to_string(), k));
            }
        }
    }
    found
}

/// Whether each `fn` of the `impl` block opening at `lines[at]` (up to
/// its `}` at column 0) is a method of the standard trait its `key`
/// (`impl Ord for Greater`) names: a crate's own trait named as a
/// standard one (typenum's `Ord`, whose `fn to_ordering`) is not derived.
fn std_trait_methods(lines: &[&str], at: usize, key: &str) -> bool {
    let methods: &[&str] = match key.split_whitespace().nth(1) {
        Some("Default") => &["default"],
        Some("Clone") => &["clone", "clone_from"],
        Some("Debug") => &["fmt"],
        Some("PartialEq") => &["eq", "ne"],
        Some("Hash") => &["hash", "hash_slice"],
        Some("PartialOrd") => &["partial_cmp", "lt", "le", "gt", "ge"],
        Some("Ord") => &["cmp", "max", "min", "clamp"],
        _ => &[],
    };
    lines[at + 1..]
        .iter()
        .take_while(|l| !l.starts_with('}'))
        .filter_map(|l| rust_bare(l.trim(), true).and_then(|r| after(r, &["fn"])))
        .filter_map(|(_, r)| word(r))
        .all(|name| methods.contains(&name.as_str()))
}

/// The key a Rust `impl TRAIT for TYPE` header is counted by against a
/// derive: `impl Default for Config`, the trait's path and the type's
/// path and generics left out; `None` for an inherent `impl` or a trait
/// with generics (`PartialEq<Other>`).
fn impl_key(header: &str) -> Option<String> {
    let (tr, ty) = trait_and_type(header)?;
    let tr = tr.rsplit("::").next().unwrap_or(&tr).trim();
    let ty = ty.split('<').next().unwrap_or(&ty);
    let ty = ty.rsplit("::").next().unwrap_or(ty).trim();
    let (name, ty) = (word(tr)?, word(ty)?);
    // `PartialEq<u16>`: another trait than the derived one.
    (name.len() == tr.len()).then(|| format!("impl {name} for {ty}"))
}

/// A method a line of a JavaScript class body (trimmed) defines: its key
/// in the class (`static ` and `get `/`set ` before its name: a getter and
/// a setter of one name are meant together), its name, its kind:
/// `method`, or `field` for a field whose value is a function
/// (`handleClick = () => {`, `= async (e) =>`, `= e =>`, `= function`;
/// a field and a method of one name are one member). Other fields and
/// computed names are not read.
fn js_method(text: &str) -> Option<(String, String, &'static str)> {
    let mut rest = text;
    // Decorators on the member's own line (`@Input() set id(v) {`).
    while let Some(r) = rest.strip_prefix('@') {
        let name = r
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '$' | '.')))
            .unwrap_or(r.len());
        let r = &r[name..];
        rest = match r.strip_prefix('(') {
            Some(_) => {
                let close = closing(r, '(', ')')?;
                r[close + 1..].trim_start()
            }
            None => r.trim_start(),
        };
    }
    let mut marks = String::new();
    loop {
        let modifier = [
            "public",
            "private",
            "protected",
            "override",
            "async",
            "static",
            "readonly",
        ];
        match after(rest, &modifier) {
            Some(("static", r)) => {
                marks.push_str("static ");
                rest = r;
            }
            Some((_, r)) => rest = r,
            None => break,
        }
    }
    rest = rest.strip_prefix('*').unwrap_or(rest).trim_start();
    if let Some((role, r)) = after(rest, &["get", "set"])
        && word(r).is_some()
    {
        marks.push_str(role);
        marks.push(' ');
        rest = r;
    }
    let name = word(rest)?;
    let tail = rest[name.len()..].trim_start();
    let tail = tail.strip_prefix(['?', '!']).unwrap_or(tail).trim_start();
    if tail.starts_with(['(', '<']) {
        return Some((format!("{marks}{name}"), name, "method"));
    }
    // A field whose value is a function (not `==`, `=>`).
    let value = tail.strip_prefix('=')?;
    if value.starts_with(['=', '>']) || marks.contains("get ") || marks.contains("set ") {
        return None;
    }
    let value = value.trim_start();
    let value = after(value, &["async"]).map_or(value, |(_, r)| r);
    let arrow = match value.strip_prefix('(') {
        // `(a, b) =>`, `(a: T): R =>`: `=>` after the list's `)`.
        Some(_) => {
            closing(value, '(', ')').is_some_and(|close| {
                let after = value[close + 1..].trim_start();
                // `(e): void =>`: a return type before the arrow.
                after.starts_with("=>") || (after.starts_with(':') && after.contains("=>"))
            })
        }
        // `e =>`.
        None => word(value).is_some_and(|w| value[w.len()..].trim_start().starts_with("=>")),
    };
    let function = value
        .strip_prefix("function")
        .is_some_and(|r| r.starts_with([' ', '(', '*']));
    (arrow || function).then(|| (format!("{marks}{name}"), name, "field"))
}

/// `line` without a comment at its end (`// ..`, `/* .. */`), quoted
/// text read past.
fn code_of(line: &str) -> &str {
    for (i, c) in unquoted(line) {
        let rest = &line[i..];
        if c == '/' && rest[1..].starts_with(['/', '*']) {
            // A `/* .. */` closed before more code is not the end.
            if rest.starts_with("/*")
                && let Some(end) = rest.find("*/")
                && !rest[end + 2..].trim().is_empty()
            {
                continue;
            }
            return &line[..i];
        }
    }
    line
}

/// The characters of `text` outside quoted text (`"..."`, `'...'`,
/// `` `...` ``, a backslash in them escaping the next character), each with
/// its byte index: an opening quote is one of them, what it quotes and its
/// closing quote are not.
fn unquoted(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    text.char_indices().filter(move |&(_, c)| match quote {
        Some(_) if escaped => {
            escaped = false;
            false
        }
        Some(q) => {
            if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            false
        }
        None => {
            if matches!(c, '"' | '\'' | '`') {
                quote = Some(c);
            }
            true
        }
    })
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
    for (k, line) in lines[at..].iter().take(60).enumerate() {
        let code = code_of(line.trim_end_matches('\r')).trim_end();
        let mut close = 0;
        for (i, c) in code.char_indices() {
            match c {
                '(' => {
                    depth += 1;
                    opened = true;
                }
                ')' => {
                    depth -= 1;
                    close = i;
                }
                _ => {}
            }
        }
        if opened && depth <= 0 {
            if code.ends_with(';') {
                return false;
            }
            // A `{` after the parameters, or on the next line: a body; a
            // signature written without `;` has none.
            if code[close..].contains('{') {
                return true;
            }
            return lines[at + k + 1..]
                .iter()
                .map(|l| code_of(l).trim())
                .find(|l| !l.is_empty())
                .is_some_and(|l| l.starts_with('{'));
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
            if (pending.is_empty() && !l.ends_with(']')) || pending.len() > 60 || l.is_empty() {
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
        // `rustversion`'s attributes gate as `cfg` does.
        if inner.starts_with("cfg(")
            || (inner.starts_with("cfg_attr(") && inner.contains("cfg("))
            || inner.starts_with("rustversion::")
        {
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

/// One definition the reading counted.
#[derive(Debug, Clone)]
struct Def {
    /// Its line (0-based).
    line: usize,
    /// Its kind's word.
    kind: &'static str,
    /// Its name as said.
    name: String,
    /// The class or `impl` holding it: its line (0-based) and header.
    scope: Option<(usize, String)>,
    /// See [`gate`].
    gate: Option<String>,
}

/// The header of a top-level class (JavaScript) or `impl` block (Rust)
/// opening at `line` (column 0), `None` for another line.
fn scope_header(lang: Lang, lines: &[&str], at: usize) -> Option<String> {
    let line = lines[at];
    // The header up to its `{`, over several lines (`impl<T>\n    Trait
    // for S<T>\nwhere ..`).
    let mut head = String::new();
    for l in lines[at..].iter().take(20) {
        let part = l.split('{').next().unwrap_or(l).trim();
        if !head.is_empty() && !part.is_empty() {
            head.push(' ');
        }
        head.push_str(part);
        if l.contains('{') || l.trim_end().ends_with(';') {
            break;
        }
    }
    let head = head.as_str();
    match lang {
        Lang::Js => {
            let class = definition(lang, line).is_some_and(|(_, kind)| kind == "class");
            (class || js_class_expression(line)).then(|| head.to_string())
        }
        Lang::Rust => {
            let bare = after(line, &["unsafe"]).map_or(line, |(_, r)| r);
            // A module's or a trait's body is a namespace of its own, as
            // an `impl`'s (E0428); `mod tests;` has none.
            let named = rust_bare(line, false).is_some_and(|b| {
                let b = after(b, &["unsafe"]).map_or(b, |(_, r)| r);
                after(b, &["mod", "trait"]).is_some() && !code_of(b).trim_end().ends_with(';')
            });
            (bare.starts_with("impl ") || bare.starts_with("impl<") || named)
                .then(|| head.to_string())
        }
        _ => None,
    }
}

/// Whether a line at column 0 opens a class that is no `class NAME`
/// statement: `export default class {`, `module.exports = class Cache {`,
/// `exports.Cache = class {`.
fn js_class_expression(line: &str) -> bool {
    let mut rest = line.trim_end();
    for prefix in ["export", "default"] {
        if let Some((_, r)) = after(rest, &[prefix]) {
            rest = r;
        }
    }
    if let Some(r) = rest.strip_prefix("module.exports").or_else(|| {
        let r = rest.strip_prefix("exports.")?;
        Some(&r[word(r)?.len()..])
    }) {
        match r.trim_start().strip_prefix('=') {
            Some(value) if !value.starts_with('=') => rest = value.trim_start(),
            _ => return false,
        }
    }
    rest.strip_prefix("class")
        .is_some_and(|r| r.is_empty() || r.starts_with([' ', '\t', '{']))
}

/// The kind of a Go group a line (at column 0) opens: `var (`,
/// `const (`, `type (` (a comment after it read past).
fn go_group_opens(line: &str) -> Option<&'static str> {
    let (kind, rest) =
        after(line.trim_end_matches('\r'), &["var", "const", "type"]).or_else(|| {
            // `var(` without a space.
            ["var", "const", "type"]
                .iter()
                .find_map(|&k| line.strip_prefix(k).map(|r| (k, r)))
        })?;
    (code_of(rest).trim() == "(").then_some(kind)
}

/// The names an entry of a Go group declares: `a, b = 1, 2` and `x int`
/// (var, const: each name before the type or the `=`; a bare `B` under
/// `iota` too), `Name struct {`, `Name = Other`, `Name[T any] ...` (type:
/// its one name). `_` is meant again and left out.
fn go_group_names(kind: &str, text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut rest = code_of(text.trim_end_matches('\r'));
    while let Some(name) = word(rest) {
        rest = rest[name.len()..].trim_start();
        if name != "_" {
            names.push(name);
        }
        match rest.strip_prefix(',') {
            Some(more) if kind != "type" => rest = more.trim_start(),
            _ => break,
        }
    }
    names
}

/// The definitions a top-level line (column 0) at `lines[at]` makes
/// besides the one [`definition`] reads: each name an import binds (kind
/// `import`), a JavaScript `const`/`let`'s later declarators and
/// destructured names, and in Rust each standard trait a type's
/// `#[derive(..)]` implements (kind `derive`, on the derive's line) and an
/// `impl TRAIT for TYPE` header (kind `impl`, `scope` its block): key,
/// kind, name, line (0-based).
fn more_definitions(
    lang: Lang,
    lines: &[&str],
    at: usize,
    scope: &Option<(usize, String, Option<String>, bool)>,
) -> Vec<(String, &'static str, String, usize)> {
    let line = lines[at];
    let mut more: Vec<(String, &'static str, String, usize)> = import_names(lang, lines, at)
        .into_iter()
        .map(|key| {
            let name = key.strip_prefix("type ").unwrap_or(&key).to_string();
            (key, "import", name, at)
        })
        .collect();
    match lang {
        Lang::Js => {
            if let Some((_, kind)) = definition(lang, line).filter(|(_, k)| *k != "class") {
                for name in js_more_names(line) {
                    more.push((name.clone(), kind, name, at));
                }
            } else if let Some((_, r)) = after(line, &["const", "let", "export"])
                && r.starts_with(['{', '['])
                    | after(r, &["const", "let"]).is_some_and(|(_, r)| r.starts_with(['{', '[']))
            {
                let kind = if line.contains("let") { "let" } else { "const" };
                for name in js_more_names(line) {
                    more.push((name.clone(), kind, name, at));
                }
            }
        }
        Lang::Rust => {
            if let Some((key, _)) = definition(lang, line)
                && let Some(ty) = key.strip_prefix("type ")
                && rust_bare(line, false)
                    .is_some_and(|b| after(b, &["struct", "enum", "union"]).is_some())
            {
                for (tr, k) in derived(lines, at) {
                    more.push((
                        format!("impl {tr} for {ty}"),
                        "derive",
                        format!("{tr} for {ty}"),
                        k,
                    ));
                }
            }
            if let Some((open, header, _, false)) = scope
                && *open == at
                && let Some(key) = impl_key(header)
                && std_trait_methods(lines, at, &key)
            {
                let name = key["impl ".len()..].to_string();
                more.push((key, "impl", name, at));
            }
        }
        _ => {}
    }
    more
}

/// The counted definitions of `lines`: top-level ones at column 0, and
/// methods at the first depth of a top-level class (JavaScript) or `impl`
/// (Rust); by key (a method's: its scope's header and its own key).
fn read_definitions(lang: Lang, lines: &[&str]) -> HashMap<String, Vec<Def>> {
    let starts = line_starts(lang, lines);
    let mut found: HashMap<String, Vec<Def>> = HashMap::new();
    // The scope whose body the reading is in: its line, its header, its
    // gate (Rust: its `#[cfg(..)]`, see [`gate`]), and whether its `{`
    // was read.
    let mut scope: Option<(usize, String, Option<String>, bool)> = None;
    // Go: the group `var (`, `const (` or `type (` the reading is in, and
    // the indentation of its entries (its first entry's).
    let mut group: Option<(&'static str, Option<usize>)> = None;
    for (at, line) in lines.iter().enumerate() {
        let (depth, code) = starts.get(at).copied().unwrap_or((0, false));
        if !code {
            continue;
        }
        if lang == Lang::Go && depth == 0 {
            if let Some(kind) = go_group_opens(line) {
                group = Some((kind, None));
                continue;
            }
            if let Some((kind, indent)) = &mut group {
                if !line.starts_with([' ', '\t']) {
                    // `)` closes the group (or a line at column 0 ends it).
                    group = None;
                } else {
                    let text = line.trim_start();
                    let this = line.len() - text.len();
                    if indent.is_none() && !text.trim().is_empty() && !text.starts_with("//") {
                        *indent = Some(this);
                    }
                    if *indent == Some(this) {
                        for name in go_group_names(kind, text) {
                            found.entry(name.clone()).or_default().push(Def {
                                line: at,
                                kind,
                                name,
                                scope: None,
                                gate: None,
                            });
                        }
                    }
                    continue;
                }
            }
        }
        if depth == 0 && !line.starts_with([' ', '\t']) {
            let continued = ["{", "where", "extends", "implements"]
                .iter()
                .any(|w| line.starts_with(w));
            if scope
                .as_ref()
                .is_some_and(|(_, _, _, entered)| *entered || !continued)
            {
                scope = None;
            }
            if let Some(header) = scope_header(lang, lines, at) {
                let gated = match lang {
                    Lang::Rust => gate(lines, at),
                    _ => None,
                };
                scope = Some((at, header, gated, false));
            }
        }
        if let Some((_, _, _, entered)) = &mut scope
            && depth > 0
        {
            *entered = true;
        }
        if depth == 0 && !line.starts_with([' ', '\t']) {
            for (key, kind, name, line_at) in more_definitions(lang, lines, at, &scope) {
                let gated = match lang {
                    Lang::Rust => gate(lines, at),
                    _ => None,
                };
                found.entry(key).or_default().push(Def {
                    line: line_at,
                    kind,
                    name,
                    scope: None,
                    gate: gated,
                });
            }
        }
        let counted = match (&scope, depth) {
            (_, 0) if !line.starts_with([' ', '\t']) => {
                definition(lang, line).map(|(key, kind)| {
                    let name = key.strip_prefix("type ").unwrap_or(&key).to_string();
                    (key, kind, name, None)
                })
            }
            (Some((open, header, _, true)), 1) => {
                let text = line.trim();
                // A method's line opens its body or its parameters (not a
                // call in a field's value over several lines); a field's
                // value is a function.
                let code = code_of(text).trim_end();
                let opens = code.ends_with(['{', '(']) || code.ends_with('}');
                let method = match lang {
                    Lang::Js => js_method(text)
                        .filter(|(_, _, kind)| opens || *kind == "field")
                        .map(|(key, name, kind)| (key, kind, name)),
                    Lang::Rust => rust_bare(text, true)
                        .and_then(|r| after(r, &["fn"]))
                        .and_then(|(_, r)| word(r))
                        .map(|name| (name.clone(), "fn", name)),
                    _ => None,
                };
                method.map(|(key, kind, name)| {
                    (
                        format!("{header}\u{0}{key}"),
                        kind,
                        name,
                        Some((*open, header.clone())),
                    )
                })
            }
            _ => None,
        };
        let Some((key, kind, name, within)) = counted else {
            continue;
        };
        let function = matches!(kind, "function" | "method" | "fn");
        let gated = match lang {
            // A method's gate and its `impl`'s: compiled when both are on
            // (a tester's find: an ungated method re-added in a
            // `#[cfg(test)] impl` of its type passed).
            Lang::Rust => {
                let own = gate(lines, at);
                match scope
                    .as_ref()
                    .and_then(|s| s.2.clone())
                    .filter(|_| within.is_some())
                {
                    Some(outer) => Some(own.map_or(outer.clone(), |own| format!("{outer} {own}"))),
                    None => own,
                }
            }
            // A decorator makes no two class members or classes one
            // (TypeScript: Duplicate function implementation, Duplicate
            // identifier): only a top-level function below one is left
            // out.
            _ if kind == "function" && decorated(lines, at) => continue,
            _ => None,
        };
        // A signature without a body (a TypeScript overload, an abstract
        // method) is no implementation.
        if function && lang == Lang::Js && !has_body(lines, at) {
            continue;
        }
        if function && lang != Lang::Js && line.trim_end().ends_with(';') {
            continue;
        }
        found.entry(key).or_default().push(Def {
            line: at,
            kind,
            name,
            scope: within,
            gate: gated,
        });
    }
    if lang == Lang::Rust {
        let text = lines.join("\n");
        for defs in found.values_mut() {
            defs.retain(|d| d.kind != "import" || !rust_not_a_value(&text, &d.name));
        }
    }
    found
}

/// Whether a Rust file's text uses `name` as no value is used: a macro
/// (`date!`), a module (`hash::Hasher`), a type (`: socklen_t`, `->
/// T`, `<xdp_statistics>`): an import of it clashes with no `fn` (a
/// whole-file reading of 5,559 crates' files found those).
fn rust_not_a_value(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let after = &text[i + name.len()..];
        if after.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
            return false;
        }
        let lead = text[..i].trim_end();
        after.starts_with('!')
            || after.starts_with("::")
            || lead.ends_with(':') && !lead.ends_with("::")
            || lead.ends_with("->")
            || lead.ends_with('<')
    })
}

/// Whether two definitions of one key are two of one name: not two
/// imports (an import twice is another matter), two derives or two
/// `impl` headers (a trait implemented twice by hand is read by its
/// methods); an import clashes with a definition, a derive with an `impl`.
fn pair(lang: Lang, a: &Def, b: &Def) -> bool {
    let apart = ["import", "derive", "impl"];
    // Rust: an import of a type's name may be a derive macro's (`use
    // thiserror::Error;` beside `enum Error`), a module's (`self as x`):
    // only a value (fn, const, static) clashes with it.
    let value = |d: &Def| matches!(d.kind, "fn" | "const" | "static");
    let rust_import = |d: &Def, other: &Def| d.kind == "import" && !value(other);
    !(a.kind == b.kind && apart.contains(&a.kind))
        && !(lang == Lang::Rust && (rust_import(a, b) || rust_import(b, a)))
}

/// The counted definitions of `lines`: each key's, only those that clash
/// with another of the key ([`clash`]).
fn definitions(lang: Lang, lines: &[&str]) -> HashMap<String, Vec<Def>> {
    read_definitions(lang, lines)
        .into_iter()
        .map(|(key, all)| {
            let clashing = all
                .iter()
                .enumerate()
                .filter(|(i, d)| {
                    all.iter().enumerate().any(|(j, other)| {
                        *i != j && pair(lang, d, other) && clash(&d.gate, &other.gate)
                    })
                })
                .map(|(_, d)| d.clone())
                .collect();
            (key, clashing)
        })
        .collect()
}

/// The lines of the definition at `lines[at]`, their ends trimmed: its
/// line and those after it up to the first (non-blank) at its column or
/// less deep (its closing `}` kept); a line ending with `}` or `;` alone.
fn block<'a>(lines: &[&'a str], at: usize) -> Vec<&'a str> {
    let depth = |l: &str| l.len() - l.trim_start().len();
    let own = depth(lines[at]);
    let mut out = vec![lines[at].trim_end()];
    if lines[at].trim_end().ends_with(['}', ';']) {
        return out;
    }
    for line in &lines[at + 1..] {
        if line.trim().is_empty() {
            continue;
        }
        out.push(line.trim_end());
        if depth(line) <= own {
            break;
        }
    }
    out
}

/// Whether the JavaScript or TypeScript file `name` (its lines) is an ES
/// module: `.mjs`, `.mts`, or a line at column 0 of code, out of strings
/// and comments, that is an `import` or `export` statement (not a
/// `.cjs`/`.cts` file, not `import(..)`).
fn es_module(name: &str, lines: &[&str]) -> bool {
    if name.ends_with(".mjs") || name.ends_with(".mts") {
        return true;
    }
    if name.ends_with(".cjs") || name.ends_with(".cts") {
        return false;
    }
    let starts = line_starts(Lang::Js, lines);
    lines.iter().zip(starts).any(|(line, (depth, code))| {
        code && depth == 0
            && ["import", "export"].iter().any(|w| {
                line.strip_prefix(w)
                    .is_some_and(|r| r.starts_with([' ', '\t', '{', '*', '"', '\'']))
            })
    })
}

/// The function `result` (the file `path` as an edit leaves it) defines
/// twice at its top level more than `original` (the file before) did (see
/// the module).
pub fn redefined(path: &str, original: &str, result: &str) -> Option<Redefined> {
    let lang = brace_language(path).filter(|l| matches!(l, Lang::Js | Lang::Go | Lang::Rust))?;
    if original == result {
        return None;
    }
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    // Only a changed line can add a definition (a 10,000-line file whose
    // edit defines nothing is not read).
    let defines = |l: &&str| {
        definition(lang, l).is_some()
            || match lang {
                Lang::Js => js_method(l.trim()).is_some(),
                Lang::Rust => {
                    rust_bare(l.trim(), true).is_some_and(|r| after(r, &["fn"]).is_some())
                }
                // An entry of a group `var (`: an indented line.
                Lang::Go => l.starts_with([' ', '\t']),
                _ => false,
            }
            // An import, a derive, a trait's `impl`; a name in a list over
            // several lines (`import {\n  a,\n}`, `#[derive(\n    Clone,`).
            || ["import", "use ", "pub use", "pub(", "impl", "#[derive", "derive("]
                .iter()
                .any(|w| l.trim_start().starts_with(w) || (*w == "derive(" && l.contains(w)))
            || word(l.trim()).is_some_and(|w| {
                let tail = l.trim()[w.len()..].trim_start();
                tail.starts_with([',', '}', ')']) || tail.starts_with("as ") || tail.is_empty()
            })
    };
    if !new[changed.clone()].iter().any(defines) {
        return None;
    }
    let before = definitions(lang, &old);
    let after = definitions(lang, &new);
    // A definition on a changed line, or an import's or a derive's over
    // several lines with a changed line in them (a name added to the
    // list).
    let touched = |d: &Def| {
        let end = match d.kind {
            "import" | "derive" => new[d.line..]
                .iter()
                .take(40)
                .position(|l| {
                    let l = code_of(l);
                    l.contains(';') || l.contains(" from ") || l.contains(")]")
                })
                .map_or(d.line, |k| d.line + k),
            _ => d.line,
        };
        (d.line..=end).any(|l| changed.contains(&l))
    };
    let mut twice: Vec<&Vec<Def>> = after
        .iter()
        .filter(|(key, at)| {
            at.len() > 1
                && at.len() > before.get(*key).map_or(0, Vec::len)
                && at.iter().any(touched)
        })
        .map(|(_, at)| at)
        .collect();
    // The first in the file's order.
    twice.sort_by_key(|at| at[0].line);
    let at = twice.first()?;
    // The pair: the changed definition and the one beside it before it
    // (else after it).
    let later = at.iter().position(touched)?;
    let (a, b) = if later > 0 {
        (&at[later - 1], &at[later])
    } else {
        (&at[0], &at[1])
    };
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let typescript = [".ts", ".tsx", ".mts", ".cts"]
        .iter()
        .any(|ext| name.ends_with(ext));
    // Two copies in two `impl Trait for Type` blocks of one header.
    let trait_impls = match (&a.scope, &b.scope) {
        (Some((first, header)), Some((second, _)))
            if lang == Lang::Rust && first != second && trait_and_type(header).is_some() =>
        {
            Some((first + 1, second + 1))
        }
        _ => None,
    };
    Some(Redefined {
        lang,
        typescript,
        module: lang == Lang::Js && es_module(name, &new),
        trait_impls,
        name: b.name.clone(),
        kinds: (a.kind, b.kind),
        scope: b.scope.clone().map(|(line, header)| (line + 1, header)),
        lines: (a.line + 1, b.line + 1),
        same: block(&new, a.line) == block(&new, b.line),
    })
}

#[cfg(test)]
mod tests {
    use super::{Lang, STD, redefined};
    use crate::cases::{assert_none, before};
    use crate::diagnose::doubt::test_edits::{after, check_after, check_before, check_edit};

    /// The fault the edit leaves, said without advice, if any.
    fn fault_of(path: &str, original: &str, result: &str) -> Option<String> {
        redefined(path, original, result).map(|f| f.fault())
    }

    /// Asserts the fault an edit from `original` to `result` leaves is
    /// `want`, naming the result.
    fn assert_fault(path: &str, original: &str, result: &str, want: &str) {
        assert_eq!(
            fault_of(path, original, result).as_deref(),
            Some(want),
            "{path}: {result}"
        );
    }

    /// Asserts the doubt an edit from `original` to `result` leaves says
    /// `want` (its fault and its advice), naming the result.
    fn assert_described(path: &str, original: &str, result: &str, want: &str) {
        assert_eq!(
            redefined(path, original, result)
                .map(|f| f.describe())
                .as_deref(),
            Some(want),
            "{path}: {result}"
        );
    }

    /// The lines of the two definitions the edit leaves, if any.
    fn twice_at(path: &str, original: &str, result: &str) -> Option<(usize, usize)> {
        redefined(path, original, result).map(|f| f.lines)
    }

    /// Asserts no definition twice in `path` edited from `original` to
    /// `write(added)`, for every `added` of `cases`, naming the failing one.
    fn assert_none_written(
        path: &str,
        original: &str,
        write: impl Fn(&str) -> String,
        cases: &[&str],
    ) {
        assert_none(|added| redefined(path, original, &write(added)), cases);
    }

    /// Each `(path, original, result)` of `cases` is no definition twice.
    fn assert_not_redefined(cases: &[(&str, &str, &str)]) {
        assert_none(
            |(path, original, result)| redefined(path, original, result),
            cases,
        );
    }

    const RENDER: &str = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nfunction render(items) {\n  return items.map((i) => formatPrice(i.price)).join(\"\\n\");\n}\n\nmodule.exports = { render };\n";

    /// The tester's find: the helper re-added before the exports.
    #[test]
    fn a_function_added_again_at_another_place_is_doubted() {
        let result = before(
            RENDER,
            "module.exports",
            "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\n",
        );
        assert_eq!(
            redefined("render.js", RENDER, &result).map(|f| (f.name, f.lines)),
            Some(("formatPrice".to_string(), (1, 9)))
        );
        assert_described(
            "render.js",
            RENDER,
            &result,
            "as written, the file defines function `formatPrice` twice at its top level, at \
             lines 1 and 9: JavaScript keeps the later one (line 9) without a word, and the one \
             at line 1 never runs: the file has it already: leave it out of the new text, or \
             change the definition that is there (its text in the old text) instead of adding \
             another",
        );
    }

    #[test]
    fn go_funcs_and_methods_and_rust_fns_are_doubted() {
        let go = "package main\n\nfunc normalize(s string) string {\n\treturn s\n}\n\nfunc (s *Stack[T]) Push(v T) {\n}\n\nfunc main() {\n}\n";
        let again = before(
            go,
            "func main",
            "func normalize(s string) string {\n\treturn s\n}\n\n",
        );
        let found = redefined("main.go", go, &again);
        assert_eq!(
            found.as_ref().map(|f| (f.lang, f.lines)),
            Some((Lang::Go, (3, 10)))
        );
        assert!(found.is_some_and(|f| f.describe().contains("normalize redeclared in this block")));
        assert_eq!(
            check_before(
                redefined,
                "main.go",
                go,
                "func main",
                "func (s Stack[T]) Push(v T) {\n}\n\n"
            )
            .map(|f| f.name),
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
        assert_not_redefined(&cases);
    }

    /// Go's grouped declarations: a name a `const (`, `var (` or `type (`
    /// group already declares, added again in the group or outside it,
    /// is doubted (Go: redeclared in this block); entries of other
    /// groups, `_`, a struct's fields and a call's arguments over lines
    /// are not names of the package.
    #[test]
    fn go_grouped_declarations_added_again_are_doubted() {
        let go = "package conf\n\nconst (\n\tTimeout = 5\n\tRetries, Backoff = 3, 2\n\tA = iota\n\tB\n)\n\nvar (\n\tcache = newCache(\n\t\t10,\n\t)\n\t_ = check()\n)\n\ntype (\n\tID int\n\tUser struct {\n\t\tID   ID\n\t\tName string\n\t}\n)\n";
        let doubted = [
            // Re-added inside its group, changed a little.
            go.replace("\tB\n)", "\tB\n\tTimeout = 10\n)"),
            // A name of a `name, name` entry, as a top-level const.
            format!("{go}\nconst Backoff = 4\n"),
            // A group type declared again as a top-level type.
            format!("{go}\ntype ID string\n"),
            // A bare iota name again in a new group.
            format!("{go}\nconst (\n\tB = 7\n)\n"),
        ];
        for result in doubted {
            let found = redefined("conf.go", go, &result);
            assert!(found.is_some(), "{result}");
            assert_eq!(found.map(|r| r.lang), Some(Lang::Go));
        }
        let fine = [
            // New names; a struct field named like a type; a second `_`;
            // a new argument line of the call.
            go.replace("\tB\n)", "\tB\n\tC\n\tDelay = 1\n)"),
            after(go, "\t\tName string", "\n\t\tUser string"),
            after(go, "\t_ = check()", "\n\t_ = verify()"),
            after(go, "\t\t10,", "\n\t\tTimeout,"),
            // A group's entry moved to a top-level declaration.
            go.replace("\tTimeout = 5\n", "") + "\nconst Timeout = 5\n",
        ];
        for result in fine {
            assert_eq!(redefined("conf.go", go, &result), None, "{result}");
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
        assert_none_written(
            "parse.ts",
            parse,
            |signatures| format!("{signatures}{parse}"),
            &cases,
        );
        let twice = format!(
            "{parse}export function parse(\n  input: string,\n): number {{\n  return 0;\n}}\n"
        );
        assert_eq!(twice_at("parse.ts", parse, &twice), Some((1, 4)));
        let commented = format!("{parse}function parse(s) {{ return s; }} // \"a;\" ;\n");
        assert_eq!(twice_at("parse.ts", parse, &commented), Some((1, 4)));
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
        assert_none_written("a.rs", unix, |added| format!("{unix}{added}"), &cases);
    }

    /// A tester's find (round 38e, 03): definitions other than a
    /// column-0 `function`/`fn`/`func`, re-sent changed a little: a JS
    /// `const`, a class method, a Rust `impl` method and `struct`, a Go
    /// `type`.
    #[test]
    fn consts_classes_methods_and_types_added_again_are_doubted() {
        let js = "export const formatPrice = (p) => {\n  return '$' + p.toFixed(2);\n};\n\nexport function render(items) {\n  return items.map((i) => formatPrice(i.price));\n}\n\nexport default render;\n";
        let again = before(
            js,
            "export default",
            "export const formatPrice = (p) => {\n  return '$' + p.toFixed(3);\n};\n\n",
        );
        assert_fault(
            "f.js",
            js,
            &again,
            "as written, the file defines const `formatPrice` twice at its top level, at \
             lines 1 and 9: JavaScript refuses to load the file (SyntaxError: Identifier \
             'formatPrice' has already been declared)",
        );
        let cart = "class Cart {\n  total() {\n    return 1;\n  }\n\n  clear() {\n    this.items = [];\n  }\n}\n";
        let again = before(cart, "  clear() {", "  total() {\n    return 2;\n  }\n\n");
        assert_fault(
            "f.ts",
            cart,
            &again,
            "as written, the file defines method `total` twice in `class Cart` (line 1), at \
             lines 2 and 6: TypeScript refuses the file (Duplicate function implementation), \
             and run as JavaScript the later one wins",
        );
        let rs = "struct S;\n\nimpl S {\n    fn area(&self) -> u32 {\n        1\n    }\n\n    fn name(&self) -> &str {\n        \"s\"\n    }\n}\n";
        let again = before(
            rs,
            "    fn name",
            "    fn area(&self) -> u32 {\n        2\n    }\n\n",
        );
        assert_fault(
            "f.rs",
            rs,
            &again,
            "as written, the file defines fn `area` twice in `impl S` (line 3), at lines 4 \
             and 8: Rust refuses to compile it (duplicate definitions with name `area`)",
        );
        let rs = "struct Config {\n    a: u32,\n}\n\nfn helper() {}\n\nfn main() {}\n";
        let again = before(
            rs,
            "fn main",
            "struct Config {\n    a: u32,\n    b: u32,\n}\n\n",
        );
        assert_eq!(
            redefined("f.rs", rs, &again).map(|f| (f.kinds.1, f.lines)),
            Some(("struct", (1, 7)))
        );
        let go =
            "package p\n\ntype Config struct {\n\tA int\n}\n\nfunc helper() {}\n\nfunc Use() {}\n";
        let again = before(
            go,
            "func Use",
            "type Config struct {\n\tA int\n\tB int\n}\n\n",
        );
        assert!(
            redefined("f.go", go, &again)
                .map(|f| f.fault())
                .is_some_and(|f| f.starts_with("as written, the file defines type `Config` twice at its top level, at lines 3 and 9: Go refuses"))
        );
        // Rust consts and statics; a Go var.
        let cases = [
            (
                "a.rs",
                "const N: u32 = 1;\n",
                "const N: u32 = 1;\npub static N: u32 = 2;\n",
            ),
            ("a.go", "var x = 1\n", "var x = 1\nvar x = 2\n"),
            ("a.js", "let x = 1;\n", "let x = 1;\nclass x {}\n"),
        ];
        for (path, original, result) in cases {
            assert!(redefined(path, original, result).is_some(), "{result}");
        }
    }

    /// Definitions meant again, or in other scopes: not doubted.
    #[test]
    fn methods_meant_again_or_in_other_scopes_are_not_doubted() {
        let cases = [
            // A getter and a setter, static and not, TypeScript overloads.
            (
                "a.ts",
                "class A {\n  get x() {\n    return 1;\n  }\n}\n",
                "class A {\n  get x() {\n    return 1;\n  }\n  set x(v) {\n  }\n  static x() {\n  }\n}\n",
            ),
            (
                "a.ts",
                "class A {\n  f(a: any) {\n  }\n}\n",
                "class A {\n  f(a: string): void;\n  f(\n    a: number,\n  ): void;\n  f(a: any) {\n  }\n}\n",
            ),
            // Overloads without `;` (Prettier's `semi: false`), calls in a
            // field's value.
            (
                "a.ts",
                "export function f(a: any) {\n}\n",
                "export function f(a: string): void\nexport function f(\n  a: number,\n): void\nexport function f(a: any) {\n}\n",
            ),
            (
                "a.js",
                "class A {\n  static all = [\n    make(1),\n  ];\n}\n",
                "class A {\n  static all = [\n    make(1),\n    make(2),\n  ];\n}\n",
            ),
            // Two classes, a nested function, `var`, a const in a body.
            (
                "a.js",
                "class A {\n  f() {}\n}\n",
                "class A {\n  f() {}\n}\nclass B {\n  f() {}\n}\nfunction g() {\n  const f = 1;\n}\n",
            ),
            ("a.js", "var x = 1;\n", "var x = 1;\nvar x = 2;\n"),
            // Rust: two impls of two types, a fn after an empty impl, cfg.
            (
                "a.rs",
                "impl A {\n    fn new() {}\n}\n",
                "impl A {\n    fn new() {}\n}\nimpl B {\n    fn new() {}\n}\n",
            ),
            (
                "a.rs",
                "impl A {}\nfn main() {\n    fn helper() {}\n}\n",
                "impl A {}\nfn main() {\n    fn helper() {}\n    fn helper2() {}\n}\nfn x() {\n    fn helper() {}\n}\n",
            ),
            (
                "a.rs",
                "#[cfg(unix)]\nimpl A {\n    fn home() {}\n}\n",
                "#[cfg(unix)]\nimpl A {\n    fn home() {}\n}\n#[cfg(windows)]\nimpl A {\n    fn home() {}\n}\n",
            ),
            // Headers over several lines; a `cfg` over many lines; a
            // macro's `$name`.
            (
                "a.rs",
                "impl<T>\n    Display for A<T>\n{\n    fn fmt() {}\n}\n",
                "impl<T>\n    Display for A<T>\n{\n    fn fmt() {}\n}\nimpl<T>\n    Debug for A<T>\n{\n    fn fmt() {}\n}\n",
            ),
            (
                "a.rs",
                "#[cfg(unix)]\n#[inline]\nfn home() {}\n",
                "#[cfg(unix)]\n#[inline]\nfn home() {}\n#[cfg(any(\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n    target_os = \"a\",\n))]\n#[inline]\nfn home() {}\n",
            ),
            ("a.rs", "fn $name() {}\n", "fn $name() {}\nfn $name() {}\n"),
            (
                "a.rs",
                "const _: () = ();\n",
                "const _: () = ();\nconst _: () = ();\n",
            ),
            // Go: `_`, a type in a function, a const group.
            ("a.go", "var _ = a\n", "var _ = a\nvar _ = b\n"),
            (
                "a.go",
                "type T int\n",
                "type T int\nfunc f() {\n\ttype T string\n}\n",
            ),
            // Inside a template literal.
            (
                "a.js",
                "const x = 1;\n",
                "const x = 1;\nconst doc = `\nconst x = 2;\n`;\n",
            ),
        ];
        assert_not_redefined(&cases);
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
        assert_eq!(twice_at("a.js", twice, &third), Some((2, 4)));
    }

    /// A tester's find (round 39a, 16): the message said "the later one
    /// wins" for a class's constructor twice and for a function twice in
    /// an ES module (both a SyntaxError: checked with `node -e 'class A {
    /// constructor() {} constructor(x) {} }'` and `node --input-type=module
    /// -e 'export function a() {} export function a() {}'`), called a
    /// struct and an enum of one name both "enum", and a trait
    /// implemented twice "duplicate fns" (`rustc --crate-type lib`:
    /// error[E0119]: conflicting implementations of trait `Named` for
    /// type `A`; a struct and an enum: error[E0428]).
    #[test]
    fn messages_name_each_copys_kind_and_the_real_error() {
        let registry = "export class Registry {\n  constructor() {\n    this.items = [];\n  }\n}\n";
        let twice = before(
            registry,
            "  }\n}",
            "  }\n\n  constructor(items) {\n    this.items = items;\n",
        );
        assert_fault(
            "ct.js",
            registry,
            &twice,
            "as written, the file defines method `constructor` twice in `export class \
             Registry` (line 1), at lines 2 and 6: JavaScript refuses to load the file \
             (SyntaxError: A class may only have one constructor)",
        );
        assert!(
            fault_of("ct.ts", registry, &twice)
                .is_some_and(|f| f.contains("(Multiple constructor implementations are not allowed), and run as JavaScript it does not load (SyntaxError: A class may only have one constructor)"))
        );
        // A static method named `constructor` is another member.
        assert_eq!(
            check_before(
                redefined,
                "ct.js",
                registry,
                "  }\n}",
                "  }\n\n  static constructor() {\n"
            ),
            None
        );
        // A function twice in an ES module (an `export`, `.mjs`): the
        // module does not load; in a script the later one wins.
        let ids = "export function ids() {\n  return 1;\n}\n";
        let again = format!("{ids}\nexport function ids() {{\n  return 2;\n}}\n");
        assert_fault(
            "m.js",
            ids,
            &again,
            "as written, the file defines function `ids` twice at its top level, at lines 1 \
             and 5: JavaScript refuses to load the module (SyntaxError: Identifier 'ids' has \
             already been declared)",
        );
        let plain = "function ids() {\n  return 1;\n}\n";
        let again = format!("{plain}function ids() {{\n  return 2;\n}}\n");
        assert!(
            fault_of("m.mjs", plain, &again)
                .is_some_and(|f| f.contains("refuses to load the module"))
        );
        for path in ["m.js", "m.cjs"] {
            let script = format!("{plain}// export function x\nconst s = `\nimport x\n`;\n");
            let again = format!("{script}function ids() {{\n  return 2;\n}}\n");
            assert!(
                fault_of(path, &script, &again)
                    .is_some_and(|f| f.contains("JavaScript keeps the later one")),
                "{path}"
            );
        }
        let again = format!("import a from 'a';\n{plain}function ids() {{}}\n");
        assert!(fault_of("m.ts", plain, &again).is_some_and(|f| f.ends_with(
            "TypeScript refuses the file (Duplicate function implementation), and run as \
             JavaScript the module does not load (SyntaxError: Identifier 'ids' has already \
             been declared)"
        )));
        // Each copy by its own kind.
        let foo =
            "pub struct Foo;\n\nimpl Foo {\n    pub fn new() -> Self {\n        Foo\n    }\n}\n";
        let again = after(foo, "pub struct Foo;\n", "\npub enum Foo {\n    A,\n}\n");
        assert_fault(
            "i.rs",
            foo,
            &again,
            "as written, the file defines `Foo` twice at its top level, struct `Foo` at line \
             1 and enum `Foo` at line 3: Rust refuses to compile it (the name `Foo` is \
             defined multiple times)",
        );
        let parser = "export class Parser {}\n";
        assert!(
            fault_of(
                "p.ts",
                parser,
                &format!("{parser}export const Parser = 1;\n")
            )
            .is_some_and(|f| f.contains("class `Parser` at line 1 and const `Parser` at line 2"))
        );
        // A trait implemented twice: E0119, the fix at the `impl`.
        let named = "pub struct A;\ntrait Named { fn name(&self) -> String; }\nimpl Named for A {\n    fn name(&self) -> String {\n        \"a\".into()\n    }\n}\n";
        let again = format!(
            "{named}impl Named for A {{\n    fn name(&self) -> String {{\n        \"b\".into()\n    }}\n}}\n"
        );
        assert_described(
            "tr.rs",
            named,
            &again,
            "as written, the file implements `Named` for `A` twice, in `impl Named for A` at \
             lines 3 and 8 (fn `name` at lines 4 and 9): Rust refuses to compile it (E0119: \
             conflicting implementations of trait `Named` for type `A`): change the `impl` \
             block that is there (its text in the old text) instead of adding another",
        );
        // A fn twice in one trait impl (E0201), generics read past; the
        // trait for another type is fine.
        let generic = "impl<T: Clone> From<T> for W<T> {\n    fn from(t: T) -> Self {\n        W(t)\n    }\n}\n";
        assert!(
            check_before(fault_of, "g.rs", generic, "    }\n}", "    }\n    fn from(t: T) -> Self {\n        W(t)\n").is_some_and(|f| f.contains("fn `from` twice in `impl<T: Clone> From<T> for W<T>` (line 1), at lines 2 and 5: Rust refuses to compile it (duplicate definitions with name `from`)"))
        );
        let again = format!(
            "{generic}impl<T: Clone> From<T> for W<T> {{\n    fn from(t: T) -> Self {{\n        W(t)\n    }}\n}}\n"
        );
        assert!(fault_of("g.rs", generic, &again).is_some_and(|f| {
            f.contains("(E0119: conflicting implementations of trait `From<T>` for type `W<T>`)")
        }));
        let other = format!(
            "{named}impl Named for B {{\n    fn name(&self) -> String {{\n        \"b\".into()\n    }}\n}}\n"
        );
        assert_eq!(redefined("tr.rs", named, &other), None);
    }

    /// A tester's find (round 39a, 11): a class method re-added where a
    /// copy has a decorator (NestJS's `@Get()`, Angular's `@Component`)
    /// was not counted; a decorator makes no two implementations one
    /// (TypeScript: Duplicate function implementation). A getter and a
    /// setter, overload signatures and a top-level function below a
    /// decorator stay fine.
    #[test]
    fn decorated_methods_and_classes_added_again_are_doubted() {
        let controller = "import { Controller, Get, Param } from '@nestjs/common';\n\n@Controller('users')\nexport class UsersController {\n  @Get(':id')\n  findOne(@Param('id') id: string) {\n    return { id };\n  }\n}\n";
        let copies = [
            "  @Get(':id')\n  findOne(@Param('id') id: string) {\n    return { id, name: 'x' };\n  }\n",
            "  findOne(@Param('id') id: string) {\n    return { id, name: 'x' };\n  }\n",
            "  // Again.\n  @Get(':id')\n  @Header('a', 'b')\n  async findOne(id: string) {\n    return { id };\n  }\n",
            "  @Get(':id') @Header('a', f(1)) findOne(id: string) {\n    return { id };\n  }\n",
        ];
        for copy in copies {
            let found = check_edit(
                redefined,
                "users.controller.ts",
                controller,
                "  }\n}",
                &format!("  }}\n\n{copy}}}"),
            );
            assert_eq!(
                found.as_ref().map(|f| (f.name.as_str(), f.lines.0)),
                Some(("findOne", 6)),
                "{copy}"
            );
            assert!(found.is_some_and(|f| f.fault().contains("Duplicate function implementation")));
        }
        let app =
            "@Component({ selector: 'app' })\nexport class AppComponent {\n  title = 'a';\n}\n";
        let again = format!(
            "{app}\n@Component({{\n  selector: 'app',\n}})\nexport class AppComponent {{\n  title = 'b';\n}}\n"
        );
        assert_eq!(
            redefined("app.ts", app, &again).map(|f| (f.name, f.lines)),
            Some(("AppComponent".to_string(), (2, 9)))
        );
        let fine = [
            // A decorated getter and its setter; overload signatures.
            "  @Input()\n  set id(v: string) {\n  }\n\n  @Input()\n  get id() {\n    return '';\n  }\n",
            "  @Get()\n  findAll(a: string): void;\n  @Get()\n  findAll(a: number): void;\n  findAll(a: any) {\n  }\n",
            "  @Input() set name(v: string) {\n  }\n  @Input() get name() {\n    return '';\n  }\n",
        ];
        assert_none_written(
            "users.controller.ts",
            controller,
            |added| controller.replace("  }\n}", &format!("  }}\n\n{added}}}")),
            &fine,
        );
    }

    /// A tester's find (round 39a, 19): a class field whose value is a
    /// function (`handleClick = () => {`, React's bound handlers) re-added,
    /// or added beside a method of its name, and a method twice in
    /// `module.exports = class` or `export default class {` were called
    /// fine. A field hides a method of its name whichever comes first
    /// (`node -e 'class A { h = () => 1; h() { return 2 } };
    /// console.log(new A().h())'` prints 1).
    #[test]
    fn function_fields_and_methods_of_class_expressions_added_again_are_doubted() {
        let form = "export class Form extends React.Component {\n  handleClick = () => {\n    this.setState({ open: true });\n  };\n\n  render() {\n    return null;\n  }\n}\n";
        let again = before(
            form,
            "  render() {",
            "  handleClick = () => {\n    this.setState({ open: false });\n  };\n\n",
        );
        assert_fault(
            "fm.tsx",
            form,
            &again,
            "as written, the file defines field `handleClick` twice in `export class Form \
             extends React.Component` (line 1), at lines 2 and 6: TypeScript refuses the \
             file (Duplicate identifier 'handleClick'), and run as JavaScript the later one \
             (line 6) replaces the one at line 2 without a word",
        );
        let method = form
            .replace("  handleClick = () => {", "  handleClick() {")
            .replace("  };\n", "  }\n");
        let field = [
            "  handleClick = () => {\n    this.setState({ open: false });\n  };\n",
            "  handleClick = async (e: Event): Promise<void> => {\n  };\n",
            "  handleClick = e => this.toggle(e);\n",
            "  private readonly handleClick = function () {\n  };\n",
        ];
        for added in field {
            let result = method.replace("  render() {", &format!("{added}\n  render() {{"));
            assert_fault(
                "fm2.jsx",
                &method,
                &result,
                "as written, the file defines `handleClick` twice in `export class Form extends \
                 React.Component` (line 1), method `handleClick` at line 2 and field \
                 `handleClick` at line 6: JavaScript runs it, and the field (line 6) hides the \
                 method at line 2 without a word",
            );
        }
        // Fine: a static twin, a field that is no function, a comparison,
        // the field in another class.
        let fine = [
            "  static handleClick = () => {\n  };\n",
            "  handleClickCount = 0;\n  open = a => a;\n",
            "  done = this.handleClick == null;\n",
        ];
        assert_none_written(
            "fm.tsx",
            form,
            |added| form.replace("  render() {", &format!("{added}\n  render() {{")),
            &fine,
        );
        let other = format!("{form}class B {{\n  handleClick = () => {{\n  }};\n}}\n");
        assert_eq!(redefined("fm.tsx", form, &other), None);
        let body = "  get(k) {\n    return this.m[k];\n  }\n";
        let added = "  get(k) {\n    return this.m.get(k);\n  }\n";
        for (head, tail) in [
            ("module.exports = class Cache {\n", "};\n"),
            ("export default class {\n", "}\n"),
            ("exports.Cache = class extends Base {\n", "};\n"),
        ] {
            let original = format!("{head}{body}{tail}");
            let result = format!("{head}{body}\n{added}{tail}");
            assert_eq!(
                redefined("mc.js", &original, &result).map(|f| (f.name, f.lines)),
                Some(("get".to_string(), (2, 6))),
                "{head}"
            );
        }
        // `module.exports = { .. }` is an object, not a class.
        let object = format!("module.exports = {{\n{body}}};\n");
        let result = format!("module.exports = {{\n{body}\n{added}}};\n");
        assert_eq!(redefined("mc.js", &object, &result), None);
    }

    /// A tester's find (round 39a, 03): a method re-added in a
    /// `#[cfg(test)] impl` of a type whose ungated `impl` has it passed
    /// (`rustc --test`: error[E0592]: duplicate definitions with name
    /// `zero`). A method's gate is its `impl`'s and its own; two impls
    /// gated apart stay fine.
    #[test]
    fn a_method_re_added_in_a_cfg_gated_impl_is_doubted() {
        let wrap = "pub struct Wrap<T>(T);\n\nimpl Wrap<u32> {\n    pub fn zero() -> Self {\n        Wrap(0)\n    }\n}\n";
        let gated = format!(
            "{wrap}\n#[cfg(test)]\nimpl Wrap<u32> {{\n    pub fn zero() -> Self {{\n        Wrap(1)\n    }}\n}}\n"
        );
        assert_fault(
            "w.rs",
            wrap,
            &gated,
            "as written, the file defines fn `zero` twice in `impl Wrap<u32>` (line 10), at \
             lines 4 and 11: Rust refuses to compile it (duplicate definitions with name \
             `zero`)",
        );
        let unix = "#[cfg(unix)]\nimpl Wrap<u32> {\n    pub fn zero() -> Self {\n        Wrap(0)\n    }\n}\n";
        let apart = [
            "#[cfg(not(unix))]\nimpl Wrap<u32> {\n    pub fn zero() -> Self {\n        Wrap(1)\n    }\n}\n",
            "impl Wrap<u32> {\n    #[cfg(windows)]\n    pub fn zero() -> Self {\n        Wrap(1)\n    }\n}\n",
        ];
        assert_none_written("w.rs", unix, |added| format!("{unix}{added}"), &apart);
        let same = format!(
            "{unix}#[cfg(unix)]\nimpl Wrap<u32> {{\n    pub fn zero() -> Self {{\n        Wrap(1)\n    }}\n}}\n"
        );
        assert!(redefined("w.rs", unix, &same).is_some());
    }

    /// A tester's find (round 39a, 14): a function, const or class added
    /// with the name of an import passed (`node s.mjs`: SyntaxError:
    /// Identifier 'formatDate' has already been declared; `rustc`:
    /// error[E0255]: the name `parse` is defined multiple times), and so
    /// did a const's second declarator or a destructured name declared
    /// again.
    #[test]
    fn a_name_imported_and_defined_again_is_doubted() {
        let show = "import { formatDate } from './util';\n\nexport function show(d) {\n  return formatDate(d);\n}\n";
        let again = format!("{show}\nfunction formatDate(d) {{\n  return d.toISOString();\n}}\n");
        assert_described(
            "show.js",
            show,
            &again,
            "as written, the file imports `formatDate` at line 1 and defines it again at line \
             7 (function `formatDate`): JavaScript refuses to load the module (SyntaxError: \
             Identifier 'formatDate' has already been declared): the name is imported \
             already: use the imported one and leave the new definition out, or give the new \
             one another name",
        );
        let imports = [
            "import formatDate from './util';\n",
            "import * as formatDate from './util';\n",
            "import { parse, toDate as formatDate } from './util';\n",
            "import D, { formatDate } from './util';\n",
            "import {\n  parse,\n  formatDate,\n} from './util';\n",
            "import formatDate = require('./util');\n",
        ];
        let definitions = [
            "function formatDate(d) {\n  return d;\n}\n",
            "const formatDate = (d) => d;\n",
            "export let formatDate = null;\n",
            "class formatDate {}\n",
        ];
        for import in imports {
            for definition in definitions {
                let original = format!("{import}\nexport const x = 1;\n");
                let result = format!("{original}{definition}");
                let found = redefined("show.ts", &original, &result);
                assert_eq!(
                    found.as_ref().map(|f| (f.name.as_str(), f.kinds.0)),
                    Some(("formatDate", "import")),
                    "{import}{definition}"
                );
                assert!(
                    found.is_some_and(|f| f.fault().contains("TypeScript refuses the file")),
                    "{import}"
                );
            }
        }
        // Rust: `use` in each of its forms, a type by its capital.
        let run = "use crate::util::parse;\n\npub fn run() -> u32 {\n    parse(\"1\")\n}\n";
        let again = format!("{run}\nfn parse(s: &str) -> u32 {{\n    s.parse().unwrap()\n}}\n");
        assert_fault(
            "run.rs",
            run,
            &again,
            "as written, the file imports `parse` at line 1 and defines it again at line 7 \
             (fn `parse`): Rust refuses to compile it (E0255: the name `parse` is defined \
             multiple times)",
        );
        let uses = [
            "use a::{b, parse};\n",
            "use a::{b::{c, parse}, d};\n",
            "use a::other as parse;\n",
            "pub use a::parse;\n",
            "use a::{\n    b,\n    parse,\n};\n",
        ];
        for import in uses {
            let original = format!("{import}\npub fn run() {{}}\n");
            let result = format!("{original}\npub fn parse() {{}}\n");
            assert_eq!(
                redefined("u.rs", &original, &result).map(|f| (f.name, f.kinds)),
                Some(("parse".to_string(), ("import", "fn"))),
                "{import}"
            );
        }
        // A constant; a type is no clash (`use thiserror::Error;` imports
        // the derive macro beside `enum Error`), nor a name used as a
        // macro, a module or a type (`use time::macros::date;` beside
        // `fn date`, `date!(..)`; `use core::hash;` beside `fn hash`).
        let limit = "use crate::settings::LIMIT;\n";
        assert!(
            redefined(
                "c.rs",
                limit,
                &format!("{limit}\npub const LIMIT: u32 = 1;\n")
            )
            .is_some_and(|f| f.fault().contains("imports `LIMIT` at line 1"))
        );
        let not_values = [
            (
                "use thiserror::Error;\n",
                "#[derive(Error, Debug)]\npub enum Error {}\n",
            ),
            (
                "use time::macros::date;\n",
                "fn date() -> u32 {\n    date!(2020 - 1 - 1)\n}\n",
            ),
            (
                "use core::hash;\n",
                "pub fn hash() {}\nimpl hash::Hasher for H {}\n",
            ),
            (
                "use sys::socklen_t;\n",
                "pub fn socklen_t(i: socklen_t) {}\n",
            ),
            (
                "use ::darling::{self as renamed, X};\n",
                "fn renamed() {}\n",
            ),
        ];
        assert_none(
            |(import, added)| redefined("n.rs", import, &format!("{import}{added}")),
            &not_values,
        );
        // The other declarators of a `const`, destructured names.
        let md = "const WIDTH = 800, HEIGHT = 600;\n";
        assert_eq!(
            redefined("md.js", md, &format!("{md}const HEIGHT = 480;\n"))
                .map(|f| (f.name, f.lines)),
            Some(("HEIGHT".to_string(), (1, 2)))
        );
        let ds = "const { readFile, stat: info } = require('fs');\n\nmodule.exports = readFile;\n";
        for added in ["const readFile = 1;\n", "let info = 2;\n"] {
            let result = ds.replace("\nmodule", &format!("\n{added}\nmodule"));
            assert!(redefined("ds.js", ds, &result).is_some(), "{added}");
        }
        // Fine: a type-only import beside a type or a const of its name,
        // an import twice, a `use` in a body or a module, a `use` of a
        // module whose name a method has, a glob, commas in a call or a
        // string, a method named as an import.
        let fine = [
            (
                "t.ts",
                "import type { X } from './x';\n",
                "interface X {\n  a: number;\n}\n",
            ),
            ("t.ts", "import type { X } from './x';\n", "const X = 1;\n"),
            (
                "t.js",
                "import { a } from './a';\n",
                "import { a } from './b';\n",
            ),
            (
                "t.js",
                "import x from './x';\n",
                "class B {\n  x() {\n    return 1;\n  }\n}\n",
            ),
            (
                "t.js",
                "const a = f(1, b), c = \"d, e = 1\";\n",
                "const b = 2;\nconst e = 3;\n",
            ),
            (
                "u.rs",
                "fn run() {\n    use a::parse;\n}\n",
                "fn parse() {}\n",
            ),
            ("u.rs", "mod m {\n    use a::parse;\n}\n", "fn parse() {}\n"),
            ("u.rs", "use a::*;\n", "fn parse() {}\n"),
            (
                "u.rs",
                "use std::fmt;\npub struct X;\n",
                "impl fmt::Display for X {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, \"x\")\n    }\n}\n",
            ),
        ];
        assert_none(
            |(path, original, added)| redefined(path, original, &format!("{original}{added}")),
            &fine,
        );
        // A name added to an import over several lines.
        let many =
            "import {\n  parse,\n} from './util';\n\nfunction formatDate(d) {\n  return d;\n}\n";
        assert_eq!(
            check_after(redefined, "m.js", many, "  parse,\n", "  formatDate,\n")
                .map(|f| (f.kinds, f.lines)),
            Some((("import", "function"), (1, 6)))
        );
        // `use a::x;` in one file and `fn x` in another: each file alone.
        assert_eq!(
            redefined("b.rs", "pub fn y() {}\n", "pub fn y() {}\npub fn x() {}\n"),
            None
        );
    }

    /// A tester's find (round 39a, 12): a test re-added in `mod tests { }`
    /// and a default method twice in a trait passed (`rustc --crate-type
    /// lib m.rs`: error[E0428]: the name `adds` is defined multiple
    /// times). A module's body and a trait's are namespaces of their own.
    #[test]
    fn a_fn_twice_in_a_module_or_a_trait_is_doubted() {
        let lib = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(1, 2), 3);\n    }\n}\n";
        let again = before(
            lib,
            "    }\n}\n",
            "    }\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(-1, 1), 0);\n",
        );
        assert_fault(
            "lib.rs",
            lib,
            &again,
            "as written, the file defines fn `adds` twice in `mod tests` (line 6), at lines 10 \
             and 15: Rust refuses to compile it (the name `adds` is defined multiple times)",
        );
        let shape = "pub trait Shape {\n    fn area(&self) -> f64 {\n        0.0\n    }\n}\n";
        assert_eq!(
            check_before(
                redefined,
                "tt.rs",
                shape,
                "    }\n}\n",
                "    }\n\n    fn area(&self) -> f64 {\n        1.0\n"
            )
            .map(|f| (f.name, f.lines, f.scope)),
            Some((
                "area".to_string(),
                (2, 6),
                Some((1, "pub trait Shape".to_string()))
            ))
        );
        // Fine: one name in two modules, at the top level and in a
        // module, a signature and its impl, `mod tests;`.
        let fine = [
            (lib, before(lib, "mod tests {", "mod a {\n    fn add() {}\n}\n\n")),
            (
                lib,
                format!("{lib}\nmod other {{\n    #[test]\n    fn adds() {{\n    }}\n}}\n"),
            ),
            (
                "pub trait Shape {\n    fn area(&self) -> f64;\n}\n",
                "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\nimpl Shape for A {\n    fn area(&self) -> f64 {\n        1.0\n    }\n}\n".to_string(),
            ),
            (
                "mod tests;\n\nfn adds() {}\n",
                "mod tests;\n\nfn adds() {}\n\nmod b {\n    fn adds() {}\n}\n".to_string(),
            ),
        ];
        for (original, result) in fine {
            assert_eq!(redefined("m.rs", original, &result), None, "{result}");
        }
    }

    /// A tester's find (round 39a, 17): `impl Default for Config` added
    /// where `#[derive(Default)]` implements it passed. `rustc
    /// --crate-type lib c.rs` (rustc 1.95.0) on the result: error[E0119]:
    /// conflicting implementations of trait `Default` for type `Config`;
    /// and on `#[derive(Clone)] pub struct W<T>(T);` with `impl<T: Clone>
    /// Clone for W<T>`: the same error.
    #[test]
    fn a_derived_trait_implemented_again_is_doubted() {
        let config =
            "#[derive(Debug, Clone, Default)]\npub struct Config {\n    pub port: u16,\n}\n";
        let again = format!(
            "{config}\nimpl Default for Config {{\n    fn default() -> Self {{\n        Config {{ port: 8080 }}\n    }}\n}}\n"
        );
        assert_described(
            "config.rs",
            config,
            &again,
            "as written, the file implements `Default` for `Config` twice, derived at line 1 \
             and implemented at line 6: Rust refuses to compile it (E0119: conflicting \
             implementations of trait `Default` for type `Config`): drop `Default` from the \
             `#[derive(..)]` or leave the `impl` out",
        );
        // Each other trait of the list.
        for tr in STD.into_iter().filter(|&tr| tr != "Default") {
            let original =
                format!("/// A point.\n#[derive({tr})]\n#[repr(C)]\npub struct P(u8);\n");
            let result = format!("{original}\nimpl std::fmt::{tr} for P {{}}\n");
            assert_eq!(
                redefined("p.rs", &original, &result).map(|f| (f.name, f.lines)),
                Some((format!("{tr} for P"), (2, 6))),
                "{tr}"
            );
        }
        let wrap = "#[derive(\n    Clone,\n    Debug,\n)]\npub enum W<T> {\n    A(T),\n}\n";
        let again = format!("{wrap}impl<T: Clone> Clone for W<T> {{\n}}\n");
        assert!(redefined("w.rs", wrap, &again).is_some_and(|f| f.name == "Clone for W"));
        // A trait added to a derive over several lines.
        let result = after(wrap, "    Debug,\n", "    Default,\n")
            + "impl<T> Default for W<T> {\n    fn default() -> Self {\n        todo!()\n    }\n}\n";
        let original = wrap.to_string()
            + "impl<T> Default for W<T> {\n    fn default() -> Self {\n        todo!()\n    }\n}\n";
        assert_eq!(
            redefined("w.rs", &original, &result).map(|f| (f.name, f.lines)),
            Some(("Default for W".to_string(), (1, 9)))
        );
        // The derive added where the impl is.
        let hand = "pub struct Config;\n\nimpl Default for Config {\n    fn default() -> Self {\n        Config\n    }\n}\n";
        let derived = format!("#[derive(Default)]\n{hand}");
        assert_eq!(twice_at("h.rs", hand, &derived), Some((1, 4)));
        // Fine: another trait, another type, a trait with generics, a
        // derive from another crate.
        let fine = [
            "impl Default for Other {}\n",
            "impl Display for Config {}\n",
            "impl PartialEq<u16> for Config {}\n",
            // A crate's own trait named as a standard one (typenum's
            // `Ord`): a method the standard trait has not.
            "impl Default for Config {\n    fn to_default() -> u16 {\n        0\n    }\n}\n",
        ];
        assert_none_written(
            "config.rs",
            config,
            |added| format!("{config}{added}"),
            &fine,
        );
        let serde = "#[derive(Serialize)]\npub struct S;\n";
        assert_eq!(
            redefined(
                "s.rs",
                serde,
                &format!("{serde}impl Serialize for S {{}}\n")
            ),
            None
        );
    }
}
