//! *Pure.* An edit that leaves a TOML file no longer TOML: a dependency
//! added again to `[dependencies]` in Cargo.toml, a `[tool.ruff]` table
//! declared a second time in pyproject.toml, a quote left open (a
//! tester's find: each was written and called fine, and Cargo, pip, uv
//! and every other reader then refuse the whole file: TOML forbids a key
//! set twice in a table and a table declared twice). The rule, by
//! evidence only, as for JSON ([`super::doubt_json`]) and YAML
//! ([`super::doubt_not_yaml`]): the file before parses and the file as the
//! edit leaves it does not; a file that did not parse before (a
//! template, a file broken already) is not judged. A file the edit
//! creates is judged against none: the new file must parse, unless it
//! holds a template's `{{` or `{%`.
//!
//! The files read ([`toml_name`]): every `.toml` (Cargo.toml,
//! pyproject.toml, rustfmt.toml, config.toml...), and the lock files and
//! manifests that are TOML under another name: `Cargo.lock`, `uv.lock`,
//! `poetry.lock`, `pdm.lock`, `Pipfile`. A lock file is written by its
//! tool, but an agent edits it by hand too (a version bumped, a merge
//! conflict resolved), and a lock file left unreadable stops the build as
//! a manifest does (`cargo` refuses "failed to parse lock file"). A
//! 5,000-line Cargo.lock costs its parse (see docs/perf.md).
//!
//! The file is read by `toml_edit`'s parser (the one Cargo's own `toml`
//! crate is built on), which reports a key set twice, a table declared
//! twice (`[dependencies]` again, `[bin]` after `[[bin]]`), a dotted key
//! that extends a value or a table closed by its header. It reads TOML
//! 1.1, as Cargo 1.95 does: a newline or a trailing comma inside an
//! inline table, `\e` and `\xHH` escapes and a time without seconds
//! parse; Python's `tomllib` (TOML 1.0: 3.11, 3.12 and 3.13 checked) refuses them.
//! The files Python tools read (pyproject.toml: pip, setuptools, hatch;
//! Pipfile, poetry.lock, pdm.lock) are held to TOML 1.0 besides: an edit
//! that brings one of those constructs into such a file, which had none,
//! is doubted (a tester's find: a ruff table written over several lines
//! was called fine, and `pip install .` refused the file).

use super::doubt_json::broken_at;
use toml_edit::{Document, TomlError};

/// A TOML file an edit leaves unreadable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotToml {
    /// Where the parser stops: its line (1-based).
    pub line: usize,
    /// Its column (1-based, in characters).
    pub column: usize,
    /// What the parser says there, with the key and the table it names
    /// for a key or a table twice (`duplicate key `serde` in table
    /// [dependencies], set first at line 6`).
    pub error: String,
    /// What the fault is, for what to send.
    pub twice: Twice,
    /// The edit creates the file (there was none before).
    pub created: bool,
    /// The file still parses as TOML 1.1, as Cargo reads it; Python's
    /// tomllib (TOML 1.0) refuses the construct named here.
    pub newer: Option<Newer>,
}

/// A construct TOML 1.1 allows and TOML 1.0 (Python's tomllib) refuses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Newer {
    /// An inline table over several lines.
    InlineOverLines,
    /// A comma after an inline table's last pair.
    TrailingComma,
    /// The escape `\e` or `\xHH` in a string.
    Escape,
    /// A time without its seconds (`07:32`).
    NoSeconds,
}

impl Newer {
    /// What it is, in words.
    fn words(self) -> &'static str {
        match self {
            Newer::InlineOverLines => "an inline table written over several lines",
            Newer::TrailingComma => "a comma after an inline table's last value",
            Newer::Escape => "the escape `\\e` or `\\xHH` in a string",
            Newer::NoSeconds => "a time without its seconds",
        }
    }

    /// What to send instead.
    fn advice(self) -> &'static str {
        match self {
            Newer::InlineOverLines | Newer::TrailingComma => {
                "each inline table on one line without a comma after its last value, or a \
                 [table] of its own"
            }
            Newer::Escape => "`\\u001b` for `\\e`, `\\u00HH` for `\\xHH`",
            Newer::NoSeconds => "the time with its seconds (`07:32:00`)",
        }
    }
}

/// Whether the fault is a key or a table given twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Twice {
    /// A key its table already holds.
    Key,
    /// A table header already declared.
    Table,
    /// Neither: another fault (a quote, a bracket, a value).
    No,
}

impl NotToml {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        if let Some(newer) = self.newer {
            return format!(
                "{}: Python's tomllib (pip, setuptools, Poetry) refuses the whole file: send the \
                 edit so that the file stays TOML 1.0 ({})",
                self.fault(),
                newer.advice()
            );
        }
        format!(
            "{}: Cargo, pip and every TOML reader refuse the whole file: send the edit so that \
             the file stays TOML ({})",
            self.fault(),
            self.advice()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        if let Some(newer) = self.newer {
            let at = broken_at("TOML 1.0", self.created, self.line, self.column);
            return format!(
                "{at}: {}, which TOML 1.1 (Cargo) allows and TOML 1.0 does not",
                newer.words()
            );
        }
        let at = broken_at("valid TOML", self.created, self.line, self.column);
        format!("{at}: {}", self.error)
    }

    /// What to send, by the fault.
    fn advice(&self) -> &'static str {
        let said = |words: &[&str]| words.iter().any(|w| self.error.contains(w));
        match self.twice {
            Twice::Key => {
                "each key once in its table: change the line that sets it, not add another"
            }
            Twice::Table => {
                "each table declared once: the new keys under the header or the key already there"
            }
            Twice::No if said(&["extend", "dotted"]) => {
                "a dotted key only where no value or table of that name stands"
            }
            Twice::No if said(&["escape"]) => {
                "a backslash in double quotes doubled, or the string in single quotes"
            }
            Twice::No if said(&["must be quoted"]) => {
                "a value after each `key =`, a string in quotes"
            }
            Twice::No if said(&["basic string", "literal string"]) => {
                "each quote closed on its line, `\"\"\"` for a string of several lines"
            }
            Twice::No if said(&["unclosed", "comma", "`]`", "`}`"]) => {
                "each `[` and `{` closed, its items separated by commas"
            }
            Twice::No => "a value after each `key =`, quotes and brackets closed",
        }
    }
}

/// Whether `path` names a TOML file (see the module).
pub fn toml_name(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    name.ends_with(".toml")
        || matches!(
            name,
            "cargo.lock" | "uv.lock" | "poetry.lock" | "pdm.lock" | "pipfile"
        )
}

/// Where `text` stops being TOML; `None` when it parses.
pub fn toml_error(text: &str) -> Option<TomlError> {
    Document::parse(text).err()
}

/// The fault of `result` (the TOML file `path` as an edit leaves it) when
/// it does not parse and `original` (the file before; empty for a new
/// file) did (see the module).
pub(super) fn toml_broken(path: &str, original: &str, result: &str) -> Option<NotToml> {
    if !toml_name(path) || original == result {
        return None;
    }
    // The result first: most edits keep the file TOML, and the file
    // before is read only for one that does not.
    let created = original.is_empty();
    let e = match toml_error(result) {
        Some(e) => e,
        None if python_reads(path) => return toml10_broken(original, result, created),
        None => return None,
    };
    if created && (result.contains("{{") || result.contains("{%")) {
        return None;
    }
    if !created && toml_error(original).is_some() {
        return None;
    }
    let at = e.span().map_or(result.len(), |s| s.start).min(result.len());
    let at = (0..=at)
        .rev()
        .find(|&i| result.is_char_boundary(i))
        .unwrap_or(0);
    let (line, column) = line_column(result, at);
    let message = e.message().trim().to_string();
    let (error, twice) = if message == "duplicate key" {
        twice_said(result, at, e.span().map_or(at, |s| s.end))
    } else {
        (message, Twice::No)
    };
    Some(NotToml {
        line,
        column,
        error,
        twice,
        created,
        newer: None,
    })
}

/// Whether Python tools read the TOML file `path`, whose reader
/// (`tomllib`, `tomli`, `tomlkit`) takes TOML 1.0 only.
fn python_reads(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    matches!(
        name,
        "pyproject.toml" | "pipfile" | "poetry.lock" | "pdm.lock"
    )
}

/// The first TOML 1.1 construct of `result` (which parses) where
/// `original` had none (a file using them already is read by its tools).
fn toml10_broken(original: &str, result: &str, created: bool) -> Option<NotToml> {
    let (at, newer) = toml11_only(result)?;
    if !created && toml11_only(original).is_some() {
        return None;
    }
    let (line, column) = line_column(result, at);
    Some(NotToml {
        line,
        column,
        error: String::new(),
        twice: Twice::No,
        created,
        newer: Some(newer),
    })
}

/// The first construct of `text` that TOML 1.1 allows and TOML 1.0 does
/// not (its byte, what it is); `None` for a text that does not parse or
/// holds none.
pub fn toml11_only(text: &str) -> Option<(usize, Newer)> {
    let doc = Document::parse(text).ok()?;
    let mut found = Vec::new();
    for (_, item) in doc.as_table().iter() {
        newer_in_item(item, text, &mut found);
    }
    found.into_iter().min_by_key(|(at, _)| *at)
}

fn newer_in_item(item: &toml_edit::Item, text: &str, found: &mut Vec<(usize, Newer)>) {
    match item {
        toml_edit::Item::Value(v) => newer_in_value(v, text, found),
        toml_edit::Item::Table(t) => {
            for (_, item) in t.iter() {
                newer_in_item(item, text, found);
            }
        }
        toml_edit::Item::ArrayOfTables(a) => {
            for t in a.iter() {
                for (_, item) in t.iter() {
                    newer_in_item(item, text, found);
                }
            }
        }
        toml_edit::Item::None => {}
    }
}

fn newer_in_value(value: &toml_edit::Value, text: &str, found: &mut Vec<(usize, Newer)>) {
    use toml_edit::Value;
    let Some(span) = value.span() else {
        return;
    };
    let source = text.get(span.clone()).unwrap_or_default();
    match value {
        Value::InlineTable(t) => {
            if let Some(newer) = inline_newer(source) {
                found.push((span.start, newer));
            }
            for (_, v) in t.iter() {
                newer_in_value(v, text, found);
            }
        }
        Value::Array(a) => {
            for v in a.iter() {
                newer_in_value(v, text, found);
            }
        }
        Value::String(_) if source.starts_with('"') && newer_escape(source) => {
            found.push((span.start, Newer::Escape));
        }
        Value::Datetime(d) if d.value().time.is_some_and(|t| t.second.is_none()) => {
            found.push((span.start, Newer::NoSeconds));
        }
        _ => {}
    }
}

/// Whether a basic string's source holds `\e` or `\xHH`.
fn newer_escape(source: &str) -> bool {
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c == '\\' && matches!(chars.next(), Some('e' | 'x')) {
            return true;
        }
    }
    false
}

/// What of TOML 1.1 an inline table's source (`{ ... }`) uses: a newline
/// or a comment between its braces, outside its strings and arrays, or a
/// comma after its last value.
fn inline_newer(source: &str) -> Option<Newer> {
    let mut quote: Option<&str> = None;
    let mut arrays = 0usize;
    let mut last_code = ' ';
    let mut i = 0;
    while i < source.len() {
        let rest = &source[i..];
        let c = rest.chars().next()?;
        if let Some(q) = quote {
            if c == '\\' && q.starts_with('"') {
                i += 1 + rest[1..].chars().next().map_or(0, char::len_utf8);
                continue;
            }
            if rest.starts_with(q) {
                i += q.len();
                quote = None;
                last_code = '"';
                continue;
            }
            i += c.len_utf8();
            continue;
        }
        let opens = ["\"\"\"", "'''", "\"", "'"]
            .into_iter()
            .find(|q| rest.starts_with(q));
        if let Some(q) = opens {
            quote = Some(q);
            i += q.len();
            continue;
        }
        match c {
            // Inside an array, TOML 1.0 takes newlines and comments too.
            '#' if arrays > 0 => {
                i += rest.find('\n').unwrap_or(rest.len());
                continue;
            }
            '\n' if arrays > 0 => {}
            '\n' | '#' => return Some(Newer::InlineOverLines),
            '}' if last_code == ',' => return Some(Newer::TrailingComma),
            '[' => arrays += 1,
            ']' => arrays = arrays.saturating_sub(1),
            _ => {}
        }
        if !c.is_whitespace() {
            last_code = c;
        }
        i += c.len_utf8();
    }
    None
}

/// The line (1-based) and column (1-based, in characters) of the byte
/// `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[start..].chars().count() + 1)
}

/// A table header's key path with its white space and quotes of bare
/// keys left out (`[ dependencies ]` and `["dependencies"]` are
/// `dependencies`), or `None` for a line that is no header.
fn header_path(line: &str) -> Option<String> {
    let t = line.trim();
    let inner = if let Some(rest) = t.strip_prefix("[[") {
        rest.split("]]").next()?
    } else {
        t.strip_prefix('[')?.split(']').next()?
    };
    Some(
        inner
            .split('.')
            .map(|part| part.trim().trim_matches(['"', '\'']))
            .collect::<Vec<_>>()
            .join("."),
    )
}

/// The dotted key a line sets, its parts without white space or quotes
/// (`owner . "name" = 1` sets `owner.name`), or `None` for a header, a
/// comment or a blank line. `head` is the line up to the key's end (no
/// `=`): its key as written so far.
fn key_path(head: &str) -> Option<String> {
    let t = head.trim();
    if t.is_empty() || t.starts_with(['[', '#']) {
        return None;
    }
    let key = t.split('=').next().unwrap_or(t);
    Some(
        key.split('.')
            .map(|part| part.trim().trim_matches(['"', '\'']))
            .collect::<Vec<_>>()
            .join("."),
    )
}

/// Where a section's lines stand in `lines`: after the header of `table`
/// (the top level for `""`), up to the next header, before `to`. `None`
/// when no such header stands before `to`.
fn section(lines: &[&str], table: &str, to: usize) -> Option<std::ops::Range<usize>> {
    let from = if table.is_empty() {
        0
    } else {
        lines[..to]
            .iter()
            .rposition(|l| header_path(l).as_deref() == Some(table))?
            + 1
    };
    let end = lines[from..to]
        .iter()
        .position(|l| header_path(l).is_some())
        .map_or(to, |at| from + at);
    Some(from..end)
}

/// The first line of `range` that sets `key`, or a key under it
/// (`key.more = ...`).
fn sets(lines: &[&str], range: std::ops::Range<usize>, key: &str) -> Option<usize> {
    let under = format!("{key}.");
    range
        .into_iter()
        .find(|&at| key_path(lines[at]).is_some_and(|k| k == key || k.starts_with(&under)))
}

/// The words for a "duplicate key" the parser reports at bytes
/// `start..end` of `text`: the key or the table named, and the line where
/// it was set first when it is found (a header of the same path, a key of
/// a table above setting what the header declares, or a line of the same
/// table setting the same key).
fn twice_said(text: &str, start: usize, end: usize) -> (String, Twice) {
    let end = end.clamp(start, text.len());
    let lines: Vec<&str> = text.split('\n').collect();
    let here = text[..start].matches('\n').count();
    let this = lines.get(here).copied().unwrap_or_default();
    let line_start = text[..start].rfind('\n').map_or(0, |n| n + 1);
    let head = text.get(line_start..end).unwrap_or_default();
    // A header declared again: the same path on an earlier header line, or
    // a key of a table above it that set it (`serde = "1"` in
    // [dependencies] before [dependencies.serde]).
    if this.trim_start().starts_with('[') {
        let path = header_path(this).unwrap_or_default();
        if let Some(at) = lines[..here]
            .iter()
            .position(|l| header_path(l).as_deref() == Some(path.as_str()))
        {
            let said = format!(
                "the table [{path}] declared twice, first at line {}",
                at + 1
            );
            return (said, Twice::Table);
        }
        let parts: Vec<&str> = path.split('.').collect();
        for cut in (0..parts.len()).rev() {
            let (table, key) = (parts[..cut].join("."), parts[cut..].join("."));
            let Some(range) = section(&lines, &table, here) else {
                continue;
            };
            if let Some(at) = sets(&lines, range, &key) {
                let within = if table.is_empty() {
                    "at the top level".to_string()
                } else {
                    format!("in table [{table}]")
                };
                let said = format!(
                    "the table [{path}] declared where `{key}` is set already {within}, at line \
                     {}",
                    at + 1
                );
                return (said, Twice::Table);
            }
        }
        return (format!("the table [{path}] declared twice"), Twice::Table);
    }
    // A key set again inside an inline table: that line.
    if head.contains('{') {
        let key = text.get(start..end).unwrap_or_default().trim();
        let key = key.trim_matches(['"', '\'']);
        let said = format!(
            "the key `{key}` set twice in the inline table of line {}",
            here + 1
        );
        return (said, Twice::Key);
    }
    // A key set again: the table it is in is the last header above it.
    let key = key_path(head).unwrap_or_default();
    let table_at = lines[..here].iter().rposition(|l| header_path(l).is_some());
    let table = match table_at {
        Some(at) => format!("in table [{}]", header_path(lines[at]).unwrap_or_default()),
        None => "at the top level".to_string(),
    };
    let from = table_at.map_or(0, |at| at + 1);
    let said = match sets(&lines, from..here, &key) {
        Some(at) => format!(
            "the key `{key}` set twice {table}, first at line {}",
            at + 1
        ),
        None => format!("the key `{key}` set twice {table}"),
    };
    (said, Twice::Key)
}

#[cfg(test)]
mod tests {
    use super::{Newer, NotToml, Twice, toml_broken, toml_name, toml11_only};
    use crate::diagnose::doubt::test_edits::after;

    const CARGO: &str = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \
                         \"1.0\"\nanyhow = \"1\"\n";

    /// The tester's find (round 41a, 02): `serde` added again to
    /// `[dependencies]`, and `[dependencies]` declared again; each said
    /// with its line and the line of the first.
    #[test]
    fn a_key_or_a_table_added_again_is_doubted() {
        let key = after(
            CARGO,
            "anyhow = \"1\"\n",
            "serde = { version = \"1.0\", features = [\"derive\"] }\n",
        );
        let found = toml_broken("Cargo.toml", CARGO, &key);
        assert_eq!(
            found,
            Some(NotToml {
                line: 8,
                column: 1,
                error: "the key `serde` set twice in table [dependencies], first at line 6".into(),
                twice: Twice::Key,
                created: false,
                newer: None,
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "the file was valid TOML before and is not after: line 8, column 1: the key \
                 `serde` set twice in table [dependencies], first at line 6: Cargo, pip and \
                 every TOML reader refuse the whole file: send the edit so that the file stays \
                 TOML (each key once in its table: change the line that sets it, not add \
                 another)"
            )
        );
        let table = after(
            CARGO,
            "version = \"0.1.0\"\n",
            "\n[dependencies]\nclap = \"4\"\n",
        );
        let found = toml_broken("Cargo.toml", CARGO, &table);
        assert_eq!(
            found.as_ref().map(|f| (f.line, f.column, f.twice)),
            Some((8, 2, Twice::Table))
        );
        assert_eq!(
            found.map(|f| f.fault()).as_deref(),
            Some(
                "the file was valid TOML before and is not after: line 8, column 2: the table \
                 [dependencies] declared twice, first at line 5"
            )
        );
    }

    /// A key at the top level, a quoted key, a dotted key, an array of
    /// tables made a table: each found and named.
    #[test]
    fn the_first_definition_is_named_in_its_forms() {
        let py = "[project]\nname = \"a\"\n\"version\" = \"1\"\n\n[tool.ruff]\nline-length = 88\n";
        let cases = [
            (
                "title = \"a\"\nport = 1\n",
                "port = 1\n",
                "port = 1\ntitle = \"b\"\n",
                "the key `title` set twice at the top level, first at line 1",
            ),
            (
                py,
                "\"version\" = \"1\"\n",
                "\"version\" = \"1\"\nversion = \"2\"\n",
                "the key `version` set twice in table [project], first at line 3",
            ),
            (
                py,
                "line-length = 88\n",
                "line-length = 88\n\n[ tool . \"ruff\" ]\nselect = [\"E\"]\n",
                "the table [tool.ruff] declared twice, first at line 5",
            ),
            (
                "[dependencies]\nserde = \"1\"\n",
                "serde = \"1\"\n",
                "serde = \"1\"\n\n[dependencies.serde]\nfeatures = [\"derive\"]\n",
                "the table [dependencies.serde] declared where `serde` is set already in table \
                 [dependencies], at line 2",
            ),
            (
                "owner.name = \"a\"\n[server]\nport = 1\n",
                "owner.name = \"a\"\n",
                "owner.name = \"a\"\nowner . \"name\" = \"b\"\n",
                "the key `owner.name` set twice at the top level, first at line 1",
            ),
            (
                "[server]\nlimits = { cpu = 2 }\n",
                "{ cpu = 2 }",
                "{ cpu = 2, mem = 1, cpu = 4 }",
                "the key `cpu` set twice in the inline table of line 2",
            ),
            (
                "[[bin]]\nname = \"a\"\n",
                "name = \"a\"\n",
                "name = \"a\"\n\n[bin]\nname = \"b\"\n",
                "the table [bin] declared twice, first at line 1",
            ),
        ];
        for (text, old, new, said) in cases {
            let result = text.replacen(old, new, 1);
            let got = toml_broken("pyproject.toml", text, &result).map(|f| f.error);
            assert_eq!(got.as_deref(), Some(said), "{new:?}");
        }
    }

    /// What to send follows the fault: a quote left open, a dotted key
    /// over a value.
    #[test]
    fn the_advice_follows_the_fault() {
        let open = CARGO.replace("anyhow = \"1\"", "anyhow = \"1");
        let got = toml_broken("Cargo.toml", CARGO, &open).map(|f| f.describe());
        assert!(
            got.as_deref()
                .is_some_and(|g| g.contains("line 7, column 12: invalid basic string")
                    && g.ends_with(
                        "(each quote closed on its line, `\"\"\"` for a string of several lines)"
                    )),
            "{got:?}"
        );
        let empty = CARGO.replace("anyhow = \"1\"", "anyhow =");
        let got = toml_broken("Cargo.toml", CARGO, &empty).map(|f| f.describe());
        assert!(
            got.as_deref()
                .is_some_and(|g| g.ends_with("(a value after each `key =`, a string in quotes)")),
            "{got:?}"
        );
        let escape = CARGO.replace("anyhow = \"1\"", "path = \"C:\\dir\"");
        let got = toml_broken("Cargo.toml", CARGO, &escape).map(|f| f.describe());
        assert!(
            got.as_deref().is_some_and(|g| g.ends_with(
                "(a backslash in double quotes doubled, or the string in single quotes)"
            )),
            "{got:?}"
        );
        let dotted = after(CARGO, "anyhow = \"1\"\n", "serde.version = \"1\"\n");
        let got = toml_broken("Cargo.toml", CARGO, &dotted).map(|f| f.describe());
        assert!(
            got.as_deref()
                .is_some_and(|g| g.contains("a dotted key only where")),
            "{got:?}"
        );
    }

    /// No doubt: an edit that keeps the file TOML, the file unchanged, a
    /// file broken before, another file's name; TOML 1.1 (what Cargo
    /// reads) parses.
    #[test]
    fn edits_that_keep_toml_or_were_not_toml_are_not_doubted() {
        for (old, new) in [
            ("anyhow = \"1\"\n", "anyhow = \"1\"\nclap = \"4\"\n"),
            (
                "serde = \"1.0\"\n",
                "serde = { version = \"1.0\", features = [\"derive\"] }\n",
            ),
            (
                "anyhow = \"1\"\n",
                "anyhow = \"1\"\n\n[dev-dependencies]\nserde = \"1\"\n",
            ),
            (
                "anyhow = \"1\"\n",
                "anyhow = \"1\"\n\n[[bin]]\nname = \"a\"\n\n[[bin]]\nname = \"b\"\n",
            ),
            (
                "anyhow = \"1\"\n",
                "anyhow = { version = \"1\",\n  features = [\"std\"], }\n",
            ),
        ] {
            let result = CARGO.replace(old, new);
            assert_eq!(toml_broken("Cargo.toml", CARGO, &result), None, "{new:?}");
        }
        assert_eq!(toml_broken("Cargo.toml", CARGO, CARGO), None);
        let broken = format!("{CARGO}serde = \"1\"\n");
        assert_eq!(
            toml_broken("Cargo.toml", &broken, &format!("{broken}x = \"\n")),
            None
        );
        assert_eq!(
            toml_broken("Cargo.txt", CARGO, &format!("{CARGO}x = \"\n")),
            None
        );
    }

    /// A new file is judged against none; a template is not.
    #[test]
    fn a_new_toml_file_that_does_not_parse_is_doubted() {
        let found = toml_broken("a/rustfmt.toml", "", "edition = \"2021\nmax_width = 100\n");
        assert_eq!(
            found.map(|f| f.fault()).as_deref(),
            Some(
                "the new file is not valid TOML: line 1, column 16: invalid basic string, expected `\"`"
            )
        );
        assert_eq!(
            toml_broken("rustfmt.toml", "", "edition = \"2021\"\n"),
            None
        );
        let template =
            "[project]\nname = \"{{ cookiecutter.name }}\"\n{% if x %}\nx = 1\n{% endif %}\n";
        assert_eq!(toml_broken("pyproject.toml", "", template), None);
    }

    #[test]
    fn toml_files_are_told_by_their_names() {
        for name in [
            "Cargo.toml",
            "a/pyproject.toml",
            "C:\\p\\.cargo\\config.TOML",
            "Cargo.lock",
            "x/uv.lock",
            "poetry.lock",
            "Pipfile",
        ] {
            assert!(toml_name(name), "{name}");
        }
        for name in [
            "package-lock.json",
            "a.toml.j2",
            "yarn.lock",
            "Pipfile.lock",
            "toml",
        ] {
            assert!(!toml_name(name), "{name}");
        }
    }

    /// A tester's find (round 41c, 01): a ruff table written over several
    /// lines in a pyproject.toml, which Cargo's TOML 1.1 reads and pip's
    /// tomllib refuses; not said where the file used TOML 1.1 already, nor
    /// in a Cargo.toml.
    #[test]
    fn toml_1_1_in_a_file_python_reads_is_doubted() {
        let before = "[tool.ruff]\nline-length = 88\n";
        let after = "[tool.ruff]\nline-length = 88\nlint = { select = [\"E\"],\n  ignore = [] }\n";
        let found = toml_broken("pyproject.toml", before, after).expect("a doubt");
        assert_eq!(
            (found.line, found.column, found.newer),
            (3, 8, Some(Newer::InlineOverLines))
        );
        assert_eq!(
            found.describe(),
            "the file was TOML 1.0 before and is not after: line 3, column 8: an inline table \
             written over several lines, which TOML 1.1 (Cargo) allows and TOML 1.0 does not: \
             Python's tomllib (pip, setuptools, Poetry) refuses the whole file: send the edit so \
             that the file stays TOML 1.0 (each inline table on one line without a comma after \
             its last value, or a [table] of its own)"
        );
        assert_eq!(toml_broken("Cargo.toml", before, after), None);
        let already = format!("{before}x = {{ a = 1, }}\n");
        assert_eq!(
            toml_broken(
                "pyproject.toml",
                &already,
                &format!("{already}{}", &after[before.len()..])
            ),
            None
        );
        assert_eq!(
            toml11_only("t = 07:32\n").map(|f| f.1),
            Some(Newer::NoSeconds)
        );
        assert_eq!(toml11_only("t = 07:32:00\ns = '\\e'\n"), None);
        assert_eq!(toml11_only("s = \"a\\u001b\"\n"), None);
        assert_eq!(
            toml11_only("s = \"a\\e\"\n").map(|f| f.1),
            Some(Newer::Escape)
        );
    }
}
