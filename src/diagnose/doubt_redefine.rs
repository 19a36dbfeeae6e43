//! *Pure.* An edit that leaves a Python file defining one name twice in
//! one block: a method re-sent after it was already added (changed a
//! little, so its text is not "already there"), or a new version of a
//! function written beside the old one. Python keeps the later definition
//! without a word; when the model's new one is the earlier, its change
//! never runs. Each copy matched exactly, so nothing else doubted it.
//!
//! The rule, by evidence only, for a Python file ([`super::file_kind`]):
//! - a definition is a statement `def NAME`, `async def NAME` or `class
//!   NAME`, read with the file's statements as Python reads them (lines
//!   inside brackets, triple-quoted strings and after a `\` are not
//!   statements; [`super::doubt_indent`]'s reading);
//! - two definitions of one name are in one block when the statements
//!   enclosing them are the same lines (a `def` under `if` and one under
//!   `else:` are in two blocks, as are two `if TYPE_CHECKING:` blocks);
//! - not counted: the name `_`, and a definition with a decorator naming
//!   `overload`: those are meant to be defined again; a definition with a
//!   decorator starting `@NAME.` (a property's `@x.setter`, `@x.deleter`)
//!   is counted apart, as that role of the name: one setter beside the
//!   getter is meant, a second setter of the same property replaces the
//!   first as silently (a tester's find);
//! - two definitions under other decorators (their lines' text, compared
//!   whole) are registrations, not doubted: `@dispatch(int)` and
//!   `@dispatch(str)`, `@f.register(int)` and `@f.register(float)` each
//!   add one (a tester's find); the same decorators, or none, on both are;
//! - two definitions with a use of the name between them (a word, not
//!   after a `.`, on a line of code that runs there: not inside the first's
//!   body or another function's, nor a comment or a string) are meant: a
//!   helper defined, called, defined again and called again (a tester's
//!   find);
//! - doubted: the file as the edit leaves it has more definitions of a
//!   name in one block, beside another of it, than the file before had
//!   under the same enclosing statements (their text), and one of the
//!   edit's changed lines is one of them. A name the file already defined
//!   twice there is not doubted again.
//!
//! The same for a class attribute or a dataclass field assigned again in
//! its class body (a tester's find, round 41a, 09: `PORT = 9000` added
//! above `PORT = 8000`, `qty: int = 1` above `qty: int = 0`; the later
//! value is the class's, the model's new one has no effect), counted
//! apart from `def` and `class` (a method and an attribute of one name
//! are not compared):
//! - an assignment is a statement `NAME = ..` or `NAME: T = ..` with one
//!   simple target, directly in a class body: not under the body's `if`,
//!   `try` or `with` (`if TYPE_CHECKING:`), not in a method (reassigning
//!   there is normal), not at the module's level; not `a.b =`, `a[i] =`,
//!   `a, b =`, `a += 1`, nor a bare annotation `NAME: T` (it keeps the
//!   value there);
//! - not doubted: the later value reading the name (`X = X + 1`) or a
//!   name defined between the two (optparse's `CHECK_METHODS = None`, then
//!   `CHECK_METHODS = [_check_action, ..]` below those methods), a use of
//!   the name between the two (as for definitions), a name the class body
//!   assigned twice already.
//!
//! Checked against Python's own reading (`ast`,
//! `tests/fixtures/trust/pydupe/record.py`).
//!
//! Not caught: a name defined again by an import, or an assignment
//! elsewhere than a class body; a definition in another block that
//! shadows one (a nested `def`), other languages.
//!
//! The same for a YAML file: a key the edit adds to a mapping that already
//! holds it ([`yaml_duplicate_key`]; read by [`super::doubt_yaml`]'s
//! reading of keys and list items by their columns, a mapping told by the
//! line of the key or list item holding it). Some YAML readers refuse a
//! duplicated key (js-yaml, Go's yaml.v3, ruamel.yaml), others keep the
//! later value silently (PyYAML): damage either way. A key is compared
//! by its value (`"host"`, `'host'` and `host` are one), and a flow
//! mapping written whole on one line (`limits: {cpu: 1, cpu: 2}`, no
//! quotes or brackets inside) is a mapping of its own. Not caught: other
//! flow mappings.
//!
//! The same for a JSON file (`.json`, `.jsonc`): a key an object holds
//! twice where the file before did not ([`json_duplicate_key`], read
//! by [`crate::gate::jsonc`], comments and trailing commas allowed as
//! JSONC readers allow them): `JSON.parse` keeps the later value without
//! a word.
//!
//! A YAML file that is a template (a Helm chart's `{{- if }}` / `{{- else
//! }}` branches each setting one key, a Jinja `{% if %}`) is not read for
//! duplicate keys ([`yaml_template`]): only one branch is ever rendered,
//! and srview does not read templates.

use super::doubt_indent::Scanner;
use super::doubt_json::lenient;
use crate::gate::jsonc::{self, Node};
use crate::textdiff::changed_lines;
use std::collections::HashMap;

/// A name a Python file defines twice in one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redefinition {
    /// The name.
    pub name: String,
    /// The role a decorator `@NAME.ROLE` gives both (`setter`), `None`
    /// for a plain definition.
    pub role: Option<String>,
    /// The statement enclosing both, trimmed, and its line (1-based);
    /// `None` at the module's top level.
    pub block: Option<(usize, String)>,
    /// The two definitions' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
    /// Both are assignments in a class body (`PORT = 8000`, `qty: int =
    /// 0`), not `def` or `class` statements.
    pub assigned: bool,
}

impl Redefinition {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        if self.assigned {
            return format!(
                "{}: change the assignment that is there (its line in the old text) instead \
                 of adding another",
                self.fault()
            );
        }
        format!(
            "{}: change the definition that is there (its text in the old text) instead of \
             adding another, or give the new one another name",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let place = match &self.block {
            None => "at the module's top level".to_string(),
            Some((line, text)) => match definition(text) {
                Some(("class", name)) => format!("in class `{name}` (line {line})"),
                Some((_, name)) => format!("in function `{name}` (line {line})"),
                None => format!("in the block of line {line} (`{text}`)"),
            },
        };
        if self.assigned {
            return format!(
                "as written, the file assigns `{}` twice {place}, at lines {earlier} and \
                 {later}: Python keeps the later value (line {later}) without a word, and the \
                 one at line {earlier} has no effect",
                self.name
            );
        }
        let what = match &self.role {
            None => format!("`{}`", self.name),
            Some(role) => format!("`{}`'s `@{}.{role}`", self.name, self.name),
        };
        format!(
            "as written, the file defines {what} twice {place}, at lines {earlier} and {later}: \
             Python keeps the later one (line {later}) without a word, and the one at line \
             {earlier} never runs"
        )
    }
}

/// The name a statement (trimmed of its indentation) defines, and `def`
/// or `class`.
fn definition(text: &str) -> Option<(&'static str, &str)> {
    let (kind, rest) = if let Some(rest) = text.strip_prefix("class ") {
        ("class", rest)
    } else if let Some(rest) = text.strip_prefix("def ") {
        ("def", rest)
    } else {
        let rest = text.strip_prefix("async")?;
        let rest = rest.trim_start_matches([' ', '\t']);
        if rest.len() == text.len() - "async".len() {
            return None;
        }
        ("def", rest.strip_prefix("def ")?)
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    starts_well.then_some((kind, name))
}

/// Python's keywords a statement may start with followed by `:` or `=`
/// (`else:`), which are no names.
const KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The name a statement (trimmed of its indentation) assigns as a simple
/// target: `NAME = ..` (`==` is no assignment), `NAME: T = ..` or `NAME:
/// T`; and whether it gives a value. Not one: `a.b = `, `a[0] =`, `a, b
/// =`, `a += 1`, a keyword's `else:`.
fn assignment(text: &str) -> Option<(&str, bool)> {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let name = &text[..end];
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    if !starts_well || KEYWORDS.contains(&name) {
        return None;
    }
    let rest = text[end..].trim_start_matches([' ', '\t']);
    if let Some(value) = rest.strip_prefix('=') {
        return (!value.starts_with('=')).then_some((name, true));
    }
    let annotation = rest.strip_prefix(':')?.trim();
    if annotation.is_empty() || annotation.starts_with('#') || annotation.starts_with('=') {
        return None;
    }
    // `NAME: T = ..`: a value; `=` inside the type's brackets is no
    // assignment (`Callable[[int], int]` holds none; a default in a
    // `Literal["a=b"]` might: the value is said to be there).
    Some((name, annotation.contains('=')))
}

/// One definition the reading found.
struct Defined<'a> {
    /// Its line (0-based).
    line: usize,
    name: &'a str,
    /// See [`Redefinition::role`].
    role: Option<&'a str>,
    /// The lines (0-based) of the statements enclosing it, outermost first.
    blocks: Vec<usize>,
    /// Its decorators' lines, trimmed (`@dispatch(int)`), in order.
    decorators: Vec<&'a str>,
    /// The line (0-based) of its first decorator, its own line without one.
    first: usize,
    /// An assignment of a value in a class body ([`assignment`]), not a
    /// `def` or `class`.
    assigns: bool,
}

/// What [`definitions`] reads of each line: `None` for a line that is no
/// code (blank, a comment, inside a triple-quoted string); else the lines
/// (0-based) of the statements enclosing the statement it is or continues.
type Enclosed = Vec<Option<Vec<usize>>>;

/// The counted definitions of `lines` (see the module); `None` where the
/// reading cannot be trusted (a form feed in an indentation).
fn definitions<'a>(lines: &[&'a str]) -> Option<(Vec<Defined<'a>>, Enclosed)> {
    let mut scan = Scanner::default();
    // The statements enclosing the next one: their column and line.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut decorators: Vec<&str> = Vec::new();
    let mut first = 0;
    let mut found = Vec::new();
    let mut enclosed = Vec::with_capacity(lines.len());
    // The enclosing statements of the statement a continued line continues.
    let mut current: Vec<usize> = Vec::new();
    for (at, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches('\r');
        let (lead, text) = super::doubt_indent::split_lead(line);
        let code = !text.is_empty() && !text.starts_with('#');
        if scan.at_statement() && code {
            let column = super::doubt_indent::widths(lead)?.0;
            while open.last().is_some_and(|&(c, _)| c >= column) {
                open.pop();
            }
            current = open.iter().map(|&(_, l)| l).collect();
            enclosed.push(Some(current.clone()));
            if text.starts_with('@') {
                if decorators.is_empty() {
                    first = at;
                }
                decorators.push(text.trim_end());
            } else {
                if let Some((_, name)) = definition(text) {
                    let meant_again =
                        name == "_" || decorators.iter().any(|d| d.contains("overload"));
                    let role = decorators.iter().find_map(|d| {
                        let rest = d[1..].trim_start().strip_prefix(name)?.strip_prefix('.')?;
                        let end = rest
                            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .unwrap_or(rest.len());
                        Some(&rest[..end])
                    });
                    if !meant_again {
                        found.push(Defined {
                            line: at,
                            name,
                            role,
                            blocks: current.clone(),
                            first: if decorators.is_empty() { at } else { first },
                            decorators: std::mem::take(&mut decorators),
                            assigns: false,
                        });
                    }
                } else if let Some((name, _)) = assignment(text).filter(|&(_, value)| {
                    // A value (a bare `NAME: T` keeps the value there),
                    // directly in a class body: not under its `if` or
                    // `try`, not in a method, not at the module's level.
                    value
                        && current.last().is_some_and(|&l| {
                            definition(lines[l].trim_start_matches([' ', '\t']))
                                .is_some_and(|(kind, _)| kind == "class")
                        })
                }) {
                    found.push(Defined {
                        line: at,
                        name,
                        role: None,
                        blocks: current.clone(),
                        first: at,
                        decorators: Vec::new(),
                        assigns: true,
                    });
                }
                decorators.clear();
            }
            open.push((column, at));
        } else if scan.in_triple() || !code {
            enclosed.push(None);
        } else {
            enclosed.push(Some(current.clone()));
        }
        scan.line(line);
    }
    Some((found, enclosed))
}

/// Whether `name` is used (called, passed, assigned, decorating) on a line
/// of `lines` between the definitions `a` and `b` of it (a tester's find:
/// a helper defined, called, then defined again and called again is meant;
/// the first runs). Not counted: a line inside a function defined in their
/// block (it runs later, and finds the later one), inside `a`'s own body
/// (a recursive call), `b`'s decorators, another definition of the name
/// and a property's `@NAME.setter`; a word after a `.` (an attribute).
fn used_between(lines: &[&str], enclosed: &Enclosed, a: &Defined, b: &Defined) -> bool {
    let depth = a.blocks.len();
    (a.line + 1..b.first).any(|at| {
        let Some(Some(outer)) = enclosed.get(at) else {
            return false;
        };
        let deferred = outer.get(depth..).unwrap_or_default().iter().any(|&l| {
            l == a.line || definition(lines[l].trim_start()).is_some_and(|(k, _)| k == "def")
        });
        let text = lines[at].trim_start();
        let own = definition(text).is_some_and(|(_, n)| n == a.name)
            || text
                .strip_prefix('@')
                .and_then(|d| d.trim_start().strip_prefix(a.name))
                .is_some_and(|d| d.starts_with('.'));
        !deferred && !own && word_in(text, a.name)
    })
}

/// The value an assignment at `lines[at]` gives: its text after the first
/// `=`, and the lines after it indented deeper (its brackets' lines).
fn value_text(lines: &[&str], at: usize) -> String {
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let own = indent(lines[at]);
    let mut text = lines[at].split_once('=').map_or("", |(_, v)| v).to_string();
    for line in lines.iter().skip(at + 1) {
        if !line.trim().is_empty() && indent(line) <= own {
            break;
        }
        text.push('\n');
        text.push_str(line);
    }
    text
}

/// Whether `name` occurs in `text` as a word not after a `.`.
fn word_in(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(|c| word(c) || c == '.') && !after.is_some_and(word)
    })
}

/// A definition's name and role (see [`Redefinition::role`]), and
/// whether it is an assignment (counted apart from `def` and `class`).
type Named<'a> = (&'a str, Option<&'a str>, bool);

/// The definitions of `lines` that stand beside another of their name and
/// role in their block, grouped by that block's enclosing statements' text
/// and the name and role: how many.
fn twice<'a>(
    lines: &[&'a str],
    found: &[Defined<'a>],
) -> HashMap<(Vec<&'a str>, Named<'a>), usize> {
    let mut per_block: HashMap<(&[usize], Named), usize> = HashMap::new();
    for d in found {
        *per_block
            .entry((&d.blocks, (d.name, d.role, d.assigns)))
            .or_default() += 1;
    }
    let mut by_text = HashMap::new();
    for ((blocks, named), n) in per_block {
        if n > 1 {
            let text = blocks.iter().map(|&l| lines[l].trim()).collect();
            *by_text.entry((text, named)).or_default() += n;
        }
    }
    by_text
}

/// The name `result` (the file as an edit leaves it) defines twice in one
/// block where `original` (the file before) did not (see the module).
pub(super) fn python_redefinition(original: &str, result: &str) -> Option<Redefinition> {
    if original == result {
        return None;
    }
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    // Only a changed line can add a definition (a 10,000-line file whose
    // edit defines nothing is not read).
    // An assignment counts in a class body only: an indented line.
    // An assignment counts in a class body only (an indented line), and
    // only where another line assigns its name (a function body's `label =
    // ..` edited in a 10,000-line file is not read).
    let assigned_again = |text: &str| {
        assignment(text).is_some_and(|(name, value)| {
            value
                && new
                    .iter()
                    .filter(|l| {
                        let other = l.trim_start_matches([' ', '\t']);
                        other.starts_with(name) && assignment(other).is_some_and(|(n, _)| n == name)
                    })
                    .nth(1)
                    .is_some()
        })
    };
    let defines = |l: &&str| {
        let text = l.trim_start_matches([' ', '\t']);
        definition(text).is_some() || (text.len() < l.len() && assigned_again(text))
    };
    if !new[changed.clone()].iter().any(defines) {
        return None;
    }
    let (after, enclosed) = definitions(&new)?;
    let (before, _) = definitions(&old)?;
    let was = twice(&old, &before);
    let now = twice(&new, &after);
    // The first pair of one block, in the file's order, with a changed
    // line in it and more such definitions than the file had there.
    // Two definitions under other decorators are registrations
    // (`@dispatch(int)`, `@dispatch(str)`: a tester's find), not alike.
    let next = next_alike(&after, |d| {
        (
            d.name,
            d.role,
            d.assigns,
            d.blocks.as_slice(),
            d.decorators.as_slice(),
        )
    });
    for (a, b) in after.iter().zip(&next) {
        let Some(b) = b.map(|at| &after[at]) else {
            continue;
        };
        if !changed.contains(&a.line) && !changed.contains(&b.line) {
            continue;
        }
        if used_between(&new, &enclosed, a, b) {
            continue;
        }
        // `X = X + 1`: the later value reads the earlier; or it reads a
        // name defined between the two (optparse's `CHECK_METHODS = None`,
        // then `CHECK_METHODS = [_check_action, ..]` below the methods it
        // lists: it could not stand in the first's place).
        if b.assigns {
            let value = value_text(&new, b.line);
            let between = after[..]
                .iter()
                .filter(|d| d.line > a.line && d.line < b.line && d.blocks == a.blocks);
            if word_in(&value, b.name) || between.clone().any(|d| word_in(&value, d.name)) {
                continue;
            }
        }
        let key = (
            a.blocks.iter().map(|&l| new[l].trim()).collect(),
            (a.name, a.role, a.assigns),
        );
        if now.get(&key) <= was.get(&key) {
            continue;
        }
        let block = a.blocks.last().map(|&l| (l + 1, new[l].trim().to_string()));
        return Some(Redefinition {
            name: a.name.to_string(),
            role: a.role.map(str::to_string),
            block,
            lines: (a.line + 1, b.line + 1),
            assigned: a.assigns,
        });
    }
    None
}

/// For each of `items`, the index of the next one alike (the same
/// `key`), in one pass from the end: a file of 10,000 definitions or keys
/// is not compared pair by pair.
fn next_alike<'a, T, K: std::hash::Hash + Eq>(
    items: &'a [T],
    key: impl Fn(&'a T) -> K,
) -> Vec<Option<usize>> {
    let mut seen: HashMap<K, usize> = HashMap::new();
    let mut next = vec![None; items.len()];
    for (at, item) in items.iter().enumerate().rev() {
        next[at] = seen.insert(key(item), at);
    }
    next
}

/// A key held twice, said: its `fault` and what to send instead, which
/// changes the `what` (`key`, `method`) that is there; for a file the edit
/// `created`, which has no old text (a tester's find, round 39b, 05), each
/// key given once. [`DuplicateKey`]'s and [`super::doubt_keys`]' sentence.
pub(super) fn key_twice_said(fault: String, what: &str, created: bool) -> String {
    if created {
        return format!("{fault}: give each key once");
    }
    format!(
        "{fault}: change the {what} that is there (its line in the old text) instead of adding \
         it again"
    )
}

/// A key a YAML mapping holds twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// The key, as written.
    pub key: String,
    /// The key or list item holding the mapping, trimmed, and its line
    /// (1-based); `None` at the document's top level.
    pub holder: Option<(usize, String)>,
    /// The two lines (1-based) holding it: the earlier and the later (the
    /// same line for a YAML flow mapping's `{a: 1, a: 2}`).
    pub lines: (usize, usize),
    /// A JSON file's object (not a YAML mapping).
    pub json: bool,
    /// The edit creates the file: there is no key there to change.
    pub created: bool,
}

impl DuplicateKey {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        key_twice_said(self.fault(), "key", self.created)
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let place = match &self.holder {
            None => "at the top level".to_string(),
            Some((line, text)) if self.json => format!("in the object of line {line} (`{text}`)"),
            Some((line, text)) => format!("in the mapping under line {line} (`{text}`)"),
        };
        let at = if earlier == later {
            format!("in one flow mapping on line {earlier}")
        } else {
            format!("{place}, at lines {earlier} and {later}")
        };
        let outcome = if self.json {
            format!(
                "JSON.parse (Node, npm and most JSON readers) keeps the later value (line \
                 {later}) without a word, and the one at line {earlier} is lost"
            )
        } else {
            format!(
                "some YAML readers refuse the file (a duplicated key), others keep the later \
                 value (line {later}) without a word"
            )
        };
        format!(
            "as written, the file has the key `{}` twice {at}: {outcome}",
            self.key
        )
    }
}

/// A YAML key as YAML compares it: `"host"`, `'host'` and `host` are one
/// key (a tester's find: a quoted key beside the plain one was not
/// doubted). A double-quoted key with an escape JSON does not read stays
/// as written.
fn yaml_key_value(key: &str) -> String {
    let quoted = |q: char| key.len() >= 2 && key.starts_with(q) && key.ends_with(q);
    if quoted('\'') {
        key[1..key.len() - 1].replace("''", "'")
    } else if quoted('"') {
        serde_json::from_str::<String>(key).unwrap_or_else(|_| key.to_string())
    } else {
        key.to_string()
    }
}

/// The keys of a flow mapping written whole on `line` (`limits: {cpu: 1,
/// memory: 2Gi}`, `- {a: 1}`), a simple one only: no brackets or quotes
/// inside, no comment after it. `None` for any other line.
fn flow_keys(line: &str) -> Option<Vec<String>> {
    let text = line.trim();
    let open = text.find('{')?;
    let before = text[..open].trim_end();
    if !(before.ends_with(':') || before == "-") || !text.ends_with('}') {
        return None;
    }
    let inner = &text[open + 1..text.len() - 1];
    if inner.contains(['{', '}', '[', ']', '"', '\'', '#', '&', '*', '!', '?']) {
        return None;
    }
    let mut keys = Vec::new();
    for member in inner.split(',') {
        let member = member.trim();
        if member.is_empty() {
            continue;
        }
        let (key, _) = member.split_once(':')?;
        let key = key.trim();
        if key.is_empty() {
            return None;
        }
        keys.push(key.to_string());
    }
    Some(keys)
}

/// One key line the YAML reading found: its line (0-based), its key and
/// its mapping (see `Reader::key_line`).
type KeyAt = (usize, String, (usize, usize));

/// The key lines of a YAML text; `None` where the reading stops (a tab in
/// an indentation).
fn yaml_keys(lines: &[&str]) -> Option<Vec<KeyAt>> {
    let mut reader = super::doubt_yaml::Reader::new();
    let mut keys = Vec::new();
    for line in lines {
        // An explicit key (`? key` then `: value`): its value's keys belong
        // to it, which the reading by columns does not tell (a false doubt
        // on a Google Cloud SDK resource file): the text is not read.
        let text = line.trim_start_matches([' ', '-']);
        if text == "?" || text == ":" || text.starts_with("? ") || text.starts_with(": ") {
            return None;
        }
        if let Some((key, mapping)) = reader.key_line(line) {
            let at = reader.read() - 1;
            // A flow mapping's keys: a mapping of its own, told by its
            // line.
            for flow in flow_keys(line).unwrap_or_default() {
                keys.push((at, flow, (mapping.0, at + 1)));
            }
            keys.push((at, yaml_key_value(&key), mapping));
        }
        if reader.tabbed() {
            return None;
        }
    }
    Some(keys)
}

/// The key `result` (a YAML file as an edit leaves it) holds twice in one
/// mapping where `original` (the file before) did not, one of the two on a
/// line the edit changed: the same rule as [`python_redefinition`]'s, the
/// mapping told by the line of the key or list item holding it (`<<`, the
/// merge key, is left out).
pub(super) fn yaml_duplicate_key(original: &str, result: &str) -> Option<DuplicateKey> {
    if original == result {
        return None;
    }
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    if changed.is_empty() {
        return None;
    }
    let after = yaml_keys(&new)?;
    let before = yaml_keys(&old)?;
    // Per mapping's holder text and key: how many keys stand beside another
    // of their name.
    let twice = |lines: &[&str], keys: &[KeyAt]| {
        let mut per_mapping: HashMap<(&(usize, usize), &str), usize> = HashMap::new();
        for (_, key, mapping) in keys {
            *per_mapping.entry((mapping, key.as_str())).or_default() += 1;
        }
        let mut by_text: HashMap<(usize, String, String), usize> = HashMap::new();
        for ((&(document, holder), key), n) in per_mapping {
            if n > 1 {
                let text = holder
                    .checked_sub(1)
                    .and_then(|at| lines.get(at))
                    .map_or(String::new(), |l| l.trim().to_string());
                *by_text
                    .entry((document, text, key.to_string()))
                    .or_default() += n;
            }
        }
        by_text
    };
    let (was, now) = (twice(&old, &before), twice(&new, &after));
    let next = next_alike(&after, |(_, key, mapping)| (key.as_str(), *mapping));
    for ((a, key, mapping), b) in after.iter().zip(&next) {
        if key == "<<" {
            continue;
        }
        let Some((b, ..)) = b.map(|at| &after[at]) else {
            continue;
        };
        if !changed.contains(a) && !changed.contains(b) {
            continue;
        }
        let (document, holder) = *mapping;
        let text = holder
            .checked_sub(1)
            .and_then(|at| new.get(at))
            .map(|l| l.trim().to_string());
        let at = (document, text.clone().unwrap_or_default(), key.clone());
        if now.get(&at) <= was.get(&at) {
            continue;
        }
        return Some(DuplicateKey {
            key: key.clone(),
            holder: text.map(|t| (holder, t)),
            lines: (a + 1, b + 1),
            json: false,
            created: original.is_empty(),
        });
    }
    None
}

/// Whether the YAML file `path` holding `text` is a template srview does
/// not read for duplicate keys (a tester's find: a Helm chart's key set in
/// a `{{- if }}` and its `{{- else }}` branch was doubted, though only one
/// is rendered): a line starting (after its indentation) with a template
/// directive `{{` or `{%`, or a `{{` anywhere in a file under a
/// `templates/` folder (a Helm chart's). A `{{ var }}` in a value of a
/// plain YAML file (Ansible) is YAML's text: that file is read.
pub(super) fn yaml_template(path: &str, text: &str) -> bool {
    let directive = text.lines().any(|l| {
        let t = l.trim_start_matches([' ', '\t', '-']).trim_start();
        t.starts_with("{{") || t.starts_with("{%")
    });
    let under_templates = path
        .split(['/', '\\'])
        .rev()
        .skip(1)
        .any(|part| part == "templates");
    directive || (under_templates && text.contains("{{"))
}

/// One object's key given more than once: the object's path from the
/// top (keys and indexes), the key, and the offsets of its quotes; the
/// object's `{` offset, `None` for the top-level object.
type JsonTwice = (Vec<String>, String, Vec<usize>, Option<usize>);

/// The keys each object of `node` holds more than once (see
/// [`JsonTwice`]), in the text's order.
fn json_twice(node: &Node, path: &mut Vec<String>, top: bool, out: &mut Vec<JsonTwice>) {
    match node {
        Node::Object { open, members, .. } => {
            // In the members' order; found by a map (a package-lock.json's
            // `packages` holds tens of thousands of keys: a search of the
            // list per key took seconds).
            let mut seen: Vec<(&str, Vec<usize>)> = Vec::new();
            let mut index: HashMap<&str, usize> = HashMap::with_capacity(members.len());
            for m in members {
                match index.get(m.key.as_str()) {
                    Some(&i) => seen[i].1.push(m.key_start),
                    None => {
                        index.insert(&m.key, seen.len());
                        seen.push((&m.key, vec![m.key_start]));
                    }
                }
            }
            for (key, at) in seen {
                // `"//"` keys are comments by npm's convention, several
                // to an object (a tester's find, round 39b, 08).
                if at.len() > 1 && key != "//" {
                    let holder = (!top).then_some(*open);
                    out.push((path.clone(), key.to_string(), at, holder));
                }
            }
            for m in members {
                path.push(format!("{:?}", m.key));
                json_twice(&m.value, path, false, out);
                path.pop();
            }
        }
        Node::Array { elements, .. } => {
            for (i, e) in elements.iter().enumerate() {
                path.push(i.to_string());
                json_twice(e, path, false, out);
                path.pop();
            }
        }
        Node::Str { .. } | Node::Other { .. } => {}
    }
}

/// The key `result` (a JSON file `path` as an edit leaves it, `.json` or
/// `.jsonc`) holds twice in one object more often than `original` (the
/// file before) did there, one of them on a line the edit changed (a
/// tester's find: package.json's `"scripts"` added again with its one new
/// script, and `JSON.parse` lost the others). The keys are read exactly,
/// escapes decoded ([`crate::gate::jsonc`]), comments and trailing commas
/// read as white space in every JSON file, as JSONC readers read them
/// ([`super::doubt_json::lenient`]; a tester's find: a trailing comma in
/// a tsconfig or VS Code settings switched the check off); a text that is
/// not JSON even so is not read ([`super::doubt_json`] judges that).
pub(super) fn json_duplicate_key(path: &str, original: &str, result: &str) -> Option<DuplicateKey> {
    if !super::doubt_json::json_name(path) || original == result {
        return None;
    }
    let (_, new, prefix, suffix) = changed_lines(original, result);
    // 1-based lines.
    let changed = prefix + 1..new.len() - suffix + 1;
    let after = jsonc::parse(&lenient(result)).ok()?;
    let (mut was, mut now) = (Vec::new(), Vec::new());
    // A file the edit creates had no key.
    if !original.is_empty() {
        let before = jsonc::parse(&lenient(original)).ok()?;
        json_twice(&before, &mut Vec::new(), true, &mut was);
    }
    json_twice(&after, &mut Vec::new(), true, &mut now);
    for (path, key, at, holder) in now {
        let lines: Vec<usize> = at.iter().map(|&a| jsonc::line_of(result, a)).collect();
        let Some(later) = lines.iter().position(|l| changed.contains(l)) else {
            continue;
        };
        let had = was
            .iter()
            .find(|(p, k, ..)| *p == path && *k == key)
            .map_or(1, |(_, _, at, _)| at.len());
        if lines.len() <= had {
            continue;
        }
        let pair = if later > 0 {
            (lines[later - 1], lines[later])
        } else {
            (lines[0], lines[1])
        };
        let holder = holder.map(|open| {
            let line = jsonc::line_of(result, open);
            (line, new.get(line - 1).map_or("", |l| l.trim()).to_string())
        });
        return Some(DuplicateKey {
            key,
            holder,
            lines: pair,
            json: true,
            created: original.is_empty(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{
        DuplicateKey, Redefinition, json_duplicate_key, python_redefinition, yaml_duplicate_key,
        yaml_template,
    };
    use crate::cases::{assert_none, before};
    use crate::diagnose::doubt::test_edits::{after, check_edit, recorded_cases};

    const CLASS: &str = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def total(self):\n        return sum(self.items.values())\n";

    /// A name defined or assigned (`assigned`) again at `lines` in its
    /// class `block`, with no role.
    type Want<'a> = (&'a str, (usize, &'a str), (usize, usize), bool);

    /// Asserts that Python's reading of the edit `(original, result)` is
    /// `want`, said as `said`.
    fn assert_redefinition((original, result): (&str, &str), want: Want, said: &str) {
        let (name, (block_line, block), lines, assigned) = want;
        let want = Redefinition {
            name: name.into(),
            role: None,
            block: Some((block_line, block.into())),
            lines,
            assigned,
        };
        let found = python_redefinition(original, result);
        assert_eq!(found, Some(want));
        assert_eq!(found.map(|f| f.describe()).as_deref(), Some(said));
    }

    /// A tester's kind of find: an edit re-sent, changed a little, after
    /// its first send was applied: the method is there twice, and the
    /// earlier copy (the model's, here) never runs.
    #[test]
    fn a_method_added_again_in_its_class_is_doubted() {
        let result = after(
            CLASS,
            "        self.items = {}\n",
            "\n    def total(self):\n        return 0\n",
        );
        assert_redefinition(
            (CLASS, &result),
            ("total", (1, "class Inventory:"), (5, 8), false),
            "as written, the file defines `total` twice in class `Inventory` (line 1), at lines \
             5 and 8: Python keeps the later one (line 8) without a word, and the one at line 5 \
             never runs: change the definition that is there (its text in the old text) instead \
             of adding another, or give the new one another name",
        );
    }

    #[test]
    fn functions_classes_and_async_defs_at_the_top_level_are_doubted() {
        let cases = [
            (
                "def f():\n    return 1\n",
                "def f():\n    return 1\n\ndef f():\n    return 2\n",
                (1, 4),
            ),
            (
                "class A:\n    pass\n",
                "class A:\n    pass\nclass A:\n    x = 1\n",
                (1, 3),
            ),
            (
                "async def run():\n    pass\n",
                "async  def run():\n    await x()\n\nasync def run():\n    pass\n",
                (1, 4),
            ),
            (
                "def test_a():\n    assert f()\n",
                "def test_a():\n    assert f()\n\n\ndef test_a():\n    assert g()\n",
                (1, 5),
            ),
        ];
        for (original, result, lines) in cases {
            let found = python_redefinition(original, result);
            assert_eq!(found.as_ref().map(|f| f.lines), Some(lines), "{result}");
            assert_eq!(found.and_then(|f| f.block), None, "{result}");
        }
    }

    #[test]
    fn definitions_meant_again_or_in_other_blocks_are_not_doubted() {
        let cases = [
            // A property's setter, overloads, a dispatcher's registrations.
            (
                "class A:\n    @property\n    def x(self):\n        return 1\n",
                "class A:\n    @property\n    def x(self):\n        return 1\n\n    @x.setter\n    def x(self, v):\n        pass\n",
            ),
            (
                "def f(a):\n    return a\n",
                "@overload\ndef f(a: int) -> int: ...\n@typing.overload\ndef f(a: str) -> str: ...\ndef f(a):\n    return a\n",
            ),
            (
                "@f.register\ndef _(a: int):\n    pass\n",
                "@f.register\ndef _(a: int):\n    pass\n@f.register\ndef _(a: str):\n    pass\n",
            ),
            // Two blocks: if/else, try/except, two methods of two classes.
            (
                "if X:\n    def f():\n        pass\n",
                "if X:\n    def f():\n        pass\nelse:\n    def f():\n        return 1\n",
            ),
            (
                "try:\n    from a import f\nexcept ImportError:\n    pass\n",
                "try:\n    def f():\n        pass\nexcept ImportError:\n    def f():\n        return 1\n",
            ),
            (
                "class A:\n    def f(self):\n        pass\n",
                "class A:\n    def f(self):\n        pass\nclass B:\n    def f(self):\n        pass\n",
            ),
            // Nested: a function inside a method of the same name.
            (
                "def f():\n    return 1\n",
                "def f():\n    def f():\n        return 1\n    return f()\n",
            ),
            // Inside a string or brackets: not a statement.
            (
                "def f():\n    return 1\n",
                "def f():\n    \"\"\"Example:\ndef f():\n    pass\n\"\"\"\n    return 1\n",
            ),
            // A function moved, or replaced by a new version, in one edit.
            (
                "def f():\n    return 1\n\ndef g():\n    pass\n",
                "def g():\n    pass\n\ndef f():\n    return 2\n",
            ),
        ];
        assert_none(
            |(original, result)| python_redefinition(original, result),
            &cases,
        );
    }

    /// A tester's find (round 38d): a property's setter sent again, changed
    /// a little: the second `@x.setter` replaces the first as silently. One
    /// setter and one deleter beside the getter are not doubted.
    #[test]
    fn a_second_setter_of_one_property_is_doubted() {
        let class = "class A:\n    @property\n    def x(self):\n        return self._x\n\n    @x.setter\n    def x(self, v):\n        self._x = v\n\n    def run(self):\n        return 1\n";
        let again = before(
            class,
            "    def run(self):\n",
            "    @x.setter\n    def x(self, v):\n        self._x = int(v)\n\n",
        );
        let found = python_redefinition(class, &again);
        assert_eq!(
            found.as_ref().map(|f| (f.role.as_deref(), f.lines)),
            Some((Some("setter"), (7, 11)))
        );
        assert!(
            found
                .map(|f| f.fault())
                .is_some_and(|f| f.starts_with("as written, the file defines `x`'s `@x.setter` twice in class `A` (line 1), at lines 7 and 11")),
        );
        let deleter = before(
            class,
            "    def run(self):\n",
            "    @x.deleter\n    def x(self):\n        del self._x\n\n",
        );
        assert_eq!(python_redefinition(class, &deleter), None);
    }

    /// A tester's find (round 39b, 11): a helper defined, called, then
    /// defined again and called again: the first runs. A use inside a
    /// function between (it runs later, finding the later one), inside the
    /// first's own body, or as an attribute, is no use: still doubted.
    #[test]
    fn a_definition_used_before_it_is_defined_again_is_not_doubted() {
        let test = "def test_parse():\n    def check(s):\n        assert parse(s) == 1\n\n    check(\"1\")\n";
        let again = format!(
            "{test}\n    def check(s):\n        assert parse(s) == 2\n\n    check(\"2\")\n"
        );
        let module = "def f(x):\n    return x\n\nplt.plot([f(i) for i in r])\n";
        let cases = [
            (test.to_string(), again),
            (
                module.to_string(),
                format!("{module}\ndef f(x):\n    return 2 * x\n"),
            ),
            // Passed, assigned, decorating, in a loop's body.
            (
                module.replace("plt.plot([f(i) for i in r])", "x = findroot(f, (1, 2))"),
                module.replace(
                    "plt.plot([f(i) for i in r])",
                    "x = findroot(f, (1, 2))\ndef f(y):\n    pass\n",
                ),
            ),
            (
                "def f():\n    pass\n".to_string(),
                "def f():\n    pass\ng = f\ndef f():\n    pass\n".to_string(),
            ),
            (
                "def f(g):\n    return g\n".to_string(),
                "def f(g):\n    return g\n@f\ndef h():\n    pass\ndef f(g):\n    return 1\n"
                    .to_string(),
            ),
            (
                "def f():\n    pass\n".to_string(),
                "def f():\n    pass\nfor i in r:\n    f()\ndef f():\n    pass\n".to_string(),
            ),
        ];
        for (original, result) in &cases {
            assert_eq!(python_redefinition(original, result), None, "{result}");
        }
        let doubted = [
            // Recursive: its own body.
            "def f(n):\n    return f(n - 1)\n\ndef f(n):\n    return 0\n",
            // Inside another function's body, a comment, a string, an attribute.
            "def f():\n    pass\ndef g():\n    return f()\ndef f():\n    return 1\n",
            "def f():\n    pass\n# f is old\nx = obj.f\ny = \"\"\"\nf\n\"\"\"\ndef f():\n    return 1\n",
        ];
        for result in doubted {
            assert_eq!(
                python_redefinition("", result).map(|f| (f.name, f.lines.0)),
                Some(("f".to_string(), 1)),
                "{result}"
            );
        }
        // A method re-sent in its class, called by another method between.
        let called = before(
            CLASS,
            "    def total(self):\n",
            "    def report(self):\n        return self.total()\n\n",
        );
        let resent = format!("{called}\n    def report(self):\n        return 0\n");
        assert_eq!(
            python_redefinition(&called, &resent).map(|f| f.lines),
            Some((5, 11))
        );
    }

    /// A tester's find (round 39b, 12): multiple dispatch registers each
    /// definition under its own decorator; the same decorators on both
    /// copies (or none) stay doubted.
    #[test]
    fn definitions_under_other_decorators_are_registrations() {
        let cases = [
            "from multipledispatch import dispatch\n\n@dispatch(int, int)\ndef add(a, b):\n    return a + b\n\n@dispatch(str, str)\ndef add(a, b):\n    return a + b\n",
            "def t():\n    f = Dispatcher('f')\n    @f.register(int)\n    def inc(x):\n        return x + 1\n    @f.register(float)\n    def inc(x):\n        return x - 1\n",
        ];
        assert_none(|result| python_redefinition("", result), &cases);
        let doubted = [
            (
                "@dispatch(int)\ndef f(x):\n    pass\n@dispatch(str)\ndef f(x):\n    pass\n@dispatch(int)\ndef f(x):\n    return 1\n",
                (2, 8),
            ),
            (
                "class A:\n    @staticmethod\n    def f():\n        pass\n\n    @staticmethod\n    def f():\n        return 1\n",
                (3, 7),
            ),
        ];
        for (result, lines) in doubted {
            assert_eq!(
                python_redefinition("", result).map(|f| f.lines),
                Some(lines),
                "{result}"
            );
        }
    }

    /// Twice already before the edit: not this edit's doing. A third copy
    /// is.
    #[test]
    fn a_name_the_file_defined_twice_already_is_doubted_only_for_a_third() {
        let twice = "def f():\n    pass\ndef f():\n    pass\n";
        let edited = twice.replace("def f():\n    pass\n", "def f():\n    return 3\n");
        assert_eq!(python_redefinition(twice, &edited), None);
        let third = format!("{twice}def f():\n    return 3\n");
        assert_eq!(
            python_redefinition(twice, &third).map(|f| f.lines),
            Some((3, 5))
        );
    }

    /// An edit that defines nothing is not read, and a definition it does
    /// not touch is never blamed on it.
    #[test]
    fn an_edit_that_defines_nothing_is_not_doubted() {
        let twice = "def f():\n    pass\ndef f():\n    pass\nx = 1\n";
        assert_eq!(
            python_redefinition(twice, &twice.replace("x = 1", "x = 2")),
            None
        );
        let other = format!("{twice}def g():\n    pass\n");
        assert_eq!(python_redefinition(twice, &other), None);
    }

    /// A tester's find (round 41a, 09): a class attribute and a dataclass
    /// field added again above the old one; Python keeps the later value.
    #[test]
    fn a_class_attribute_assigned_again_is_doubted() {
        let config = "class Config:\n    DEBUG = False\n    PORT = 8000\n";
        let result = after(
            config,
            "    DEBUG = False\n",
            "    PORT = 9000\n    TIMEOUT = 5\n",
        );
        assert_redefinition(
            (config, &result),
            ("PORT", (1, "class Config:"), (3, 5), true),
            "as written, the file assigns `PORT` twice in class `Config` (line 1), at lines 3 and \
             5: Python keeps the later value (line 5) without a word, and the one at line 3 has \
             no effect: change the assignment that is there (its line in the old text) instead \
             of adding another",
        );
        // `else:` and `try:` are no names; `NAME: T` alone gives no value.
        for text in [
            "else:",
            "try:",
            "x: int",
            "x == 1",
            "x.y = 1",
            "x += 1",
            "a, b = 1, 2",
        ] {
            assert!(
                super::assignment(text).is_none_or(|(_, value)| !value),
                "{text}"
            );
        }
        assert_eq!(super::assignment("qty: int = 0"), Some(("qty", true)));
        assert_eq!(super::assignment("f = lambda: 1"), Some(("f", true)));
    }

    /// Every Python class-attribute case recorded with Python's `ast`
    /// (`tests/fixtures/trust/pydupe/record.py`): srview's verdict is the
    /// one the rule expects; where it doubts, Python reads the name as
    /// assigned twice in one class body (more often than before), and the
    /// value Python keeps is the later line's srview names.
    #[test]
    fn pythons_reading_of_class_attributes_agrees() {
        let fixture = include_str!("../../tests/fixtures/trust/pydupe/cases.json");
        let cases = recorded_cases(fixture, &["attr"]);
        assert!(cases.len() >= 30, "{} cases", cases.len());
        let (mut doubted, mut allowed) = (0, 0);
        for case in &cases {
            let (name, before, after, want) = case.texts();
            let got = python_redefinition(before, after);
            assert_eq!(got.is_some(), want, "{name}: {got:?}");
            let Some(found) = got else {
                allowed += 1;
                continue;
            };
            doubted += 1;
            assert!(found.assigned, "{name}");
            let twice = |key: &str| {
                case[key]
                    .as_array()
                    .expect("python parsed it")
                    .iter()
                    .any(|n| n == found.name.as_str())
            };
            assert!(twice("twice_after"), "{name}: Python reads it once");
            let more = after.matches(&found.name).count() > before.matches(&found.name).count();
            assert!(!twice("twice_before") || more, "{name}");
            // The later statement's text on (white space, quotes and commas
            // left out, as `repr` writes them otherwise) holds the value.
            let plain = |t: &str| t.replace([' ', '\n', '\'', '"', ','], "");
            let later: Vec<&str> = after.lines().skip(found.lines.1 - 1).collect();
            if let Some(kept) = case["kept"].as_str().filter(|k| !k.starts_with("error")) {
                assert!(
                    plain(&later.join("\n")).contains(&plain(kept)),
                    "{name}: Python kept {kept}, not line {}",
                    found.lines.1
                );
            }
        }
        assert!(doubted >= 12 && allowed >= 15, "{doubted} {allowed}");
    }

    const SERVER: &str = "server:\n  port: 80\n  timeout: 30\nlogging:\n  level: info\n";

    /// A key added to a mapping that holds it (a model that did not see
    /// `timeout` further down): a doubt naming both lines.
    #[test]
    fn a_yaml_key_added_again_to_its_mapping_is_doubted() {
        let result = after(SERVER, "  port: 80\n", "  timeout: 5\n");
        let found = yaml_duplicate_key(SERVER, &result);
        assert_eq!(
            found,
            Some(DuplicateKey {
                key: "timeout".into(),
                holder: Some((1, "server:".into())),
                lines: (3, 4),
                json: false,
                created: false,
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the file has the key `timeout` twice in the mapping under line 1 \
                 (`server:`), at lines 3 and 4: some YAML readers refuse the file (a duplicated \
                 key), others keep the later value (line 4) without a word: change the key that \
                 is there (its line in the old text) instead of adding it again"
            )
        );
        let top = format!("{SERVER}server:\n  port: 81\n");
        assert_eq!(
            yaml_duplicate_key(SERVER, &top).map(|f| (f.holder, f.lines)),
            Some((None, (1, 6)))
        );
        // In a list item's mapping.
        let items = "steps:\n  - name: a\n    run: x\n";
        let again = after(items, "    run: x\n", "    name: b\n");
        assert_eq!(
            yaml_duplicate_key(items, &again).map(|f| (f.key, f.lines)),
            Some(("name".to_string(), (2, 4)))
        );
    }

    #[test]
    fn the_same_key_in_other_mappings_is_not_doubted() {
        let items = "steps:\n  - name: a\n    run: x\n";
        let cases = [
            // A new list item: its own mapping.
            (
                items,
                "steps:\n  - name: a\n    run: x\n  - name: b\n    run: y\n",
            ),
            (
                SERVER,
                "server:\n  port: 80\n  timeout: 30\nlogging:\n  level: info\n  timeout: 5\n",
            ),
            // Another document.
            ("kind: A\n", "kind: A\n---\nkind: B\n"),
            // Text of a block scalar.
            ("run: |\n  echo a\n", "run: |\n  echo a\n  run: b\n"),
            // The merge key.
            ("a:\n  <<: *x\n  k: 1\n", "a:\n  <<: *x\n  <<: *y\n  k: 1\n"),
            // An explicit key: its value's keys are its own (not read).
            (
                "a:\n  name: x\n  plural: xs\n",
                "a:\n  name: x\n  plural: xs\n? b\n: name: y\n  plural: ys\n",
            ),
        ];
        assert_none(
            |(original, result)| yaml_duplicate_key(original, result),
            &cases,
        );
    }

    /// A tester's find (round 38e, 04): a quoted key beside the plain one,
    /// and a key twice in a flow mapping, are one mapping's key twice.
    #[test]
    fn quoted_yaml_keys_and_flow_mappings_are_doubted() {
        let q = "server:\n  host: localhost\n  port: 8080\n";
        for added in [
            "  \"host\": 0.0.0.0\n",
            "  'host': 0.0.0.0\n",
            "  \"h\\u006fst\": x\n",
        ] {
            let result = format!("{q}{added}");
            let found = yaml_duplicate_key(q, &result);
            assert_eq!(
                found.map(|f| (f.key, f.lines)),
                Some(("host".to_string(), (2, 4))),
                "{added}"
            );
        }
        let k = "server:\n  limits: {cpu: 1, memory: 2Gi}\n";
        let result = "server:\n  limits: {cpu: 1, memory: 2Gi, cpu: 2}\n";
        let found = yaml_duplicate_key(k, result);
        assert_eq!(
            found.as_ref().map(|f| (f.key.as_str(), f.lines)),
            Some(("cpu", (2, 2)))
        );
        assert!(
            found
                .map(|f| f.fault())
                .is_some_and(|f| f.starts_with("as written, the file has the key `cpu` twice in one flow mapping on line 2: some YAML readers refuse"))
        );
        let cases = [
            // Other keys, another flow mapping, quoted text.
            "server:\n  limits: {cpu: 1, memory: 2Gi, disk: 2}\n",
            "server:\n  limits: {cpu: 1, memory: 2Gi}\n  requests: {cpu: 1}\n",
            "server:\n  limits: {cpu: 1, memory: \"a, cpu: 2\"}\n",
            "server:\n  limits: {cpu: 1, memory: 2Gi}\n  \"cpu\": 2\n",
        ];
        assert_none(|result| yaml_duplicate_key(k, result), &cases);
    }

    const PACKAGE: &str = "{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  },\n  \"dependencies\": {\n    \"react\": \"^18.2.0\"\n  }\n}\n";

    /// A tester's find (round 38e, 04): package.json's `"scripts"` added
    /// again with its one new script: `JSON.parse` keeps the later, and
    /// `build` and `test` are lost.
    #[test]
    fn a_json_key_added_again_to_its_object_is_doubted() {
        let result = before(
            PACKAGE,
            "  \"dependencies\"",
            "  \"scripts\": {\n    \"lint\": \"eslint .\"\n  },\n",
        );
        let found = json_duplicate_key("package.json", PACKAGE, &result);
        assert_eq!(
            found
                .as_ref()
                .map(|f| (f.key.as_str(), f.holder.clone(), f.lines)),
            Some(("scripts", None, (3, 7)))
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the file has the key `scripts` twice at the top level, at lines 3 \
                 and 7: JSON.parse (Node, npm and most JSON readers) keeps the later value (line \
                 7) without a word, and the one at line 3 is lost: change the key that is there \
                 (its line in the old text) instead of adding it again"
            )
        );
        // Nested, the key spelled with an escape, a comment in a .jsonc.
        let nested = before(PACKAGE, "    \"react\"", "    \"r\\u0065act\": \"^17\",\n");
        assert_eq!(
            json_duplicate_key("a.jsonc", PACKAGE, &format!("// c\n{nested}"))
                .map(|f| (f.key, f.holder, f.lines)),
            Some((
                "react".to_string(),
                Some((8, "\"dependencies\": {".to_string())),
                (9, 10)
            ))
        );
        let cases = [
            // Another object's key, a value, a text that is not JSON.
            PACKAGE.replace("\"react\"", "\"build\""),
            PACKAGE.replace("\"tsc\"", "\"scripts\""),
            after(PACKAGE, "\"tsc\",", ",\n    \"build\": 1,"),
            // Keys that differ by an escape's meaning.
            before(PACKAGE, "    \"test\"", "    \"build\\n\": 1,\n"),
        ];
        for result in cases {
            assert_eq!(
                json_duplicate_key("package.json", PACKAGE, &result),
                None,
                "{result}"
            );
        }
        // Not a JSON file's name.
        assert_eq!(json_duplicate_key("package.txt", PACKAGE, &result), None);
        // Twice already: only more is the edit's.
        assert_eq!(
            json_duplicate_key("a.json", &result, &result.replace("eslint .", "eslint src")),
            None
        );
    }

    #[test]
    fn a_yaml_key_held_twice_already_is_not_doubted_again() {
        let twice = "a: 1\na: 2\nb: 3\n";
        assert_eq!(yaml_duplicate_key(twice, "a: 1\na: 5\nb: 3\n"), None);
        assert_eq!(yaml_duplicate_key(twice, "a: 1\na: 2\nb: 4\n"), None);
    }

    /// A tester's find (round 39a, 04): a trailing comma, legal in JSONC
    /// (tsconfig, VS Code settings), switched the duplicate-key check off.
    /// Every JSON file is read with comments and trailing commas.
    /// A new file's key twice asks for each key once: there is no old
    /// text to change (round 39b, 05).
    #[test]
    fn a_new_files_key_twice_asks_for_each_key_once() {
        let new = "{\n  \"scripts\": {\"a\": \"1\"},\n  \"scripts\": {\"b\": \"2\"}\n}\n";
        let found = json_duplicate_key("package.json", "", new).expect("doubted");
        assert!(found.created);
        assert!(
            found.describe().ends_with(": give each key once"),
            "{}",
            found.describe()
        );
        let yaml = yaml_duplicate_key("", "a: 1\na: 2\n").expect("doubted");
        assert!(
            yaml.describe().ends_with(": give each key once"),
            "{}",
            yaml.describe()
        );
    }

    /// npm's `"//"` comment keys, several in one object, are no key
    /// twice (round 39b, 08); another key added again still is.
    #[test]
    fn comment_keys_of_npm_are_not_a_key_twice() {
        let before = "{\n  \"name\": \"app\",\n  \"//\": \"build uses tsc\",\n  \"scripts\": {\n    \"build\": \"tsc\"\n  }\n}\n";
        assert_eq!(
            check_edit(
                json_duplicate_key,
                "package.json",
                before,
                "  \"scripts\": {\n",
                "  \"//\": \"see docs/build.md\",\n  \"scripts\": {\n"
            ),
            None
        );
        assert!(
            check_edit(
                json_duplicate_key,
                "package.json",
                before,
                "  \"scripts\": {\n",
                "  \"name\": \"b\",\n  \"scripts\": {\n"
            )
            .is_some()
        );
    }

    #[test]
    fn a_json_key_added_again_beside_trailing_commas_is_doubted() {
        let tsconfig = "{\n  \"compilerOptions\": {\n    \"strict\": true,\n    \"target\": \"es2020\",\n  },\n  \"include\": [\"src\",],\n}\n";
        let again = after(
            tsconfig,
            "  },\n",
            "  \"compilerOptions\": {\n    \"outDir\": \"dist\",\n  },\n",
        );
        for name in ["tc.jsonc", "tsconfig.json", "plain.json"] {
            assert_eq!(
                json_duplicate_key(name, tsconfig, &again).map(|f| (f.key, f.lines)),
                Some(("compilerOptions".to_string(), (2, 6))),
                "{name}"
            );
        }
        let settings = "{\n  // editor\n  \"editor.tabSize\": 2,\n  \"files.exclude\": {\n    \"**/dist\": true,\n  },\n}\n";
        let retab = after(settings, "  },\n", "  \"editor.tabSize\": 4,\n");
        assert_eq!(
            json_duplicate_key(".vscode/settings.json", settings, &retab).map(|f| f.lines),
            Some((3, 7))
        );
        // Another key beside trailing commas: no doubt.
        let other = after(settings, "  },\n", "  \"editor.rulers\": [80,],\n");
        assert_eq!(
            json_duplicate_key(".vscode/settings.json", settings, &other),
            None
        );
    }

    /// A tester's find (round 39a, 08): a Helm template's `{{- if }}` and
    /// `{{- else }}` branches each set `mode`: a template is not read; a
    /// `{{ var }}` in a plain file's value is.
    #[test]
    fn yaml_templates_are_told_by_their_directives() {
        let helm =
            "data:\n{{- if .Values.prod }}\n  mode: prod\n{{- else }}\n  mode: dev\n{{- end }}\n";
        assert!(yaml_template("cm.yaml", helm));
        assert!(yaml_template(
            "x.yaml",
            "a:\n  {% if x %}\n  b: 1\n  {% endif %}\n"
        ));
        assert!(yaml_template(
            "chart/templates/cm.yaml",
            "data:\n  mode: {{ .Values.mode }}\n"
        ));
        for (path, text) in [
            ("play.yaml", "- debug:\n    msg: \"{{ greeting }}\"\n"),
            ("play.yaml", "when: x\nvars:\n  a: \"{{ b }}\"\n"),
            ("templates.yaml", "a: \"{{ b }}\"\n"),
            ("chart/templates/cm.yaml", "data:\n  mode: dev\n"),
        ] {
            assert!(!yaml_template(path, text), "{path}: {text}");
        }
    }
}
