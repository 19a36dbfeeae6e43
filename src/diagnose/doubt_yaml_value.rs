//! *Pure.* An edit that writes a YAML value unquoted which YAML then reads
//! as something other than its text: a version `3.10` read as the number
//! 3.1 (a tester's find, round 46 T-04: `python-version: 3.10` in a GitHub
//! workflow; setup-python then looks for Python 3.1 and fails; srview
//! called it fine, for the file still parses).
//!
//! The rule, by evidence only, for a YAML file both before and after the
//! edit parse: a plain (unquoted, untagged) scalar value of the result
//! standing on a line the edit changed, whose text differs from what PyYAML
//! (YAML 1.1, the reference) loads it to, printed back as YAML prints it
//! (`3.10` -> `3.1`, `1.20` -> `1.2`, `010` -> `8`, `1_000` -> `1000`,
//! `22:22` -> `1342`, `yes`/`on` -> `true`), is doubted when one of these
//! says the model meant a string:
//! - the file before held a string at the same place (the same keys and
//!   list indexes from the document's root): a quoted value (`"3.9"`) or
//!   a plain one PyYAML reads as text (`${{ matrix.python-version }}`);
//! - the value is a new item of a list whose items were all strings
//!   before, quoted or plain (`["3.8", "3.9"]` given `3.10`, `[SE, DK]`
//!   given `NO`);
//! - the key holding it (for a list item, the key holding the list) names
//!   a version (`version`, `python-version`, `node-version`, `go-version`:
//!   any key holding the word, case aside; or a key one of whose words,
//!   split at `-`, `_` and camelCase, names a language, a tool or a system
//!   whose version it holds: `python`, `ruby`, `go`, `node`, `ubuntu`...,
//!   [`VERSION_WORDS`]), or a name or a code (`name`, `country`, `lang`,
//!   `locale`, `region`, `tag`, `image`: `country: NO` is Norway);
//! - for a value at a place the file before held none (a new key, a new
//!   item): the same key beside it held only strings (the values whose
//!   path differs at one step before the key: another item of a list of
//!   mappings, another service: `enum_value: NO` below `enum_value:
//!   EVERYSEC`); or the value is a base-60 number (`22:22`, a port pair or
//!   a time, read 1342) or a number with a leading zero (`02134`, read
//!   1116) under a key naming no file mode (`mode`, `umask`, `perm`:
//!   Ansible's `mode: 0644` is octal meant).
//!
//! A new key's value alone is no evidence otherwise: of the plain values
//! the machine's 4,460 YAML files hold that PyYAML reads otherwise than
//! written, the booleans `yes`/`on` were meant as booleans 8 times in 10
//! (`threadsafe: yes`, `require_changes: yes`, `mapreduce: on`; the other
//! two, `enum_value: NO` beside strings, are caught by the rule beside),
//! and the floats losing digits were numbers (`price: 450.00`).
//!
//! Not doubted: a value that reads back as written (`3.9`, `10`, `1.0`,
//! `true`), whatever it replaced; a new boolean, a float losing a trailing
//! zero, a hexadecimal or `1_000` number under a key naming nothing of the
//! above; a value the file before held at the same
//! place with the same text (not the edit's); a key (GitHub's `on:` is
//! read by its own reader); a float PyYAML would print with an exponent
//! (outside 1e-4..1e16), `.inf`, `.nan` and base-60 floats (not read); a
//! file that did not parse before or does not after (the parse check,
//! [`super::doubt_not_yaml`], speaks for it). A `!!float`-tagged or quoted
//! value is the writer's choice and is not read.

use crate::textdiff::changed_lines;
use saphyr_parser::{Event, Parser, ScalarStyle, Span, SpannedEventReceiver};

/// A plain value YAML reads otherwise than it is written, where the model
/// meant a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueRead {
    /// The result's line (1-based) holding it.
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// The value as written.
    pub value: String,
    /// What PyYAML reads, printed back as YAML prints it.
    pub reads: String,
    /// What it reads as (`the number`, `the boolean`).
    pub kind: ReadKind,
    /// Why a string was meant.
    pub meant: Meant,
}

/// What a plain scalar reads as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadKind {
    /// A float YAML 1.1 and 1.2 read alike.
    Float,
    /// A decimal integer YAML 1.1 and 1.2 read alike (`+5`, `007` aside).
    Integer,
    /// An integer only YAML 1.1 reads so (octal `010`, base 60 `1:30`,
    /// binary `0b1`, hexadecimal, digits with `_`, a leading sign or zero).
    Integer11,
    /// A boolean YAML 1.1 and 1.2 read alike (`True`, `FALSE`).
    Boolean,
    /// A boolean only YAML 1.1 reads so (`yes`, `no`, `on`, `off`).
    Boolean11,
}

/// What says the model meant a string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Meant {
    /// The file before held this string at the same place (as written,
    /// quotes included).
    Replaced(String),
    /// The list it joins held only strings.
    StringList,
    /// The key holding it names a version.
    VersionKey(String),
    /// The key holding it names a name or a code.
    NameKey(String),
    /// The same key beside it held only strings (the key, the first
    /// string as written).
    Beside(String, String),
    /// A base-60 number (`22:22`), for no one writes one.
    Base60,
    /// A number with a leading zero (`010`) under no file mode's key.
    Octal,
}

impl ValueRead {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: write it quoted, `{}`, to keep it as written",
            self.fault(),
            self.quoted()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let reader = match self.kind {
            ReadKind::Float | ReadKind::Integer | ReadKind::Boolean => "YAML reads",
            ReadKind::Integer11 | ReadKind::Boolean11 => "YAML 1.1 readers (PyYAML) read",
        };
        let what = match self.kind {
            ReadKind::Boolean | ReadKind::Boolean11 => "the boolean",
            _ => "the number",
        };
        let why = match &self.meant {
            Meant::Replaced(old) => format!("where the file held the string `{old}`"),
            Meant::StringList => "in a list of strings".to_string(),
            Meant::VersionKey(key) => format!("under `{key}`, a version"),
            Meant::NameKey(key) => format!("under `{key}`, a name or a code"),
            Meant::Beside(key, string) => {
                format!("where `{key}` beside it holds the string `{string}`")
            }
            Meant::Base60 => "in YAML 1.1's base-60 form".to_string(),
            Meant::Octal => "with a leading zero, YAML 1.1's octal form".to_string(),
        };
        format!(
            "as written, line {} (`{}`) gives the unquoted value `{}` {why}, which {reader} as \
             {what} {}, not the text `{}`",
            self.line, self.text, self.value, self.reads, self.value
        )
    }

    /// The value in quotes: single where the string it replaced was in
    /// single quotes, double otherwise (no character of a value read as a
    /// number or a boolean needs escaping in either).
    fn quoted(&self) -> String {
        match &self.meant {
            Meant::Replaced(old) if old.starts_with('\'') => format!("'{}'", self.value),
            _ => format!("\"{}\"", self.value),
        }
    }
}

/// One step from a document's root to a value.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Document(usize),
    Key(String),
    Item(usize),
}

/// A scalar value (not a key) of a YAML text.
#[derive(Debug, Clone)]
struct Scalar {
    path: Vec<Step>,
    /// As loaded (a plain scalar: its text).
    value: String,
    /// Plain and untagged.
    plain: bool,
    /// Its source between its first and last character, quotes included.
    source: String,
    /// 1-based.
    line: usize,
}

/// What a mapping's key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Holds {
    /// Nothing written (`with:` and no value): YAML reads null.
    Nothing,
    /// A scalar written (a null written as `~` or `null` too).
    Scalar,
    Mapping,
    Sequence,
    /// An alias, or a key whose value was not read.
    Other,
}

/// A plain scalar key of a block or flow mapping.
#[derive(Debug, Clone)]
pub(super) struct Key {
    /// The key's text.
    pub name: String,
    /// 1-based line and 0-based column (in characters) of the key.
    pub line: usize,
    pub column: usize,
    /// Which mapping holds it (numbered in the order they open).
    pub mapping: usize,
    pub holds: Holds,
}

/// An open collection while the events are read.
enum Open {
    /// The next scalar is a key when `key` is `None`; `id` numbers the
    /// mapping, `last` is the index in [`Values::keys`] of its key read
    /// last.
    Mapping {
        key: Option<String>,
        id: usize,
        last: Option<usize>,
    },
    Sequence {
        next: usize,
    },
}

/// Reads the events into the values' paths.
struct Values<'t> {
    text: &'t str,
    document: usize,
    stack: Vec<(Option<Step>, Open)>,
    found: Vec<Scalar>,
    keys: Vec<Key>,
    mappings: usize,
    /// The byte offset of each character of `text`.
    bytes: Vec<usize>,
}

impl Values<'_> {
    /// The step a new node takes under the innermost open collection, and
    /// whether it is a mapping's key; advances that collection.
    fn place(&mut self, key_text: Option<&str>) -> (Option<Step>, bool) {
        match self.stack.last_mut() {
            None => (None, false),
            Some((_, Open::Mapping { key, .. })) => match key.take() {
                None => {
                    *key = Some(key_text.unwrap_or("?").to_string());
                    (None, true)
                }
                Some(k) => (Some(Step::Key(k)), false),
            },
            Some((_, Open::Sequence { next })) => {
                *next += 1;
                (Some(Step::Item(*next - 1)), false)
            }
        }
    }

    fn path(&self, last: Option<Step>) -> Vec<Step> {
        std::iter::once(Step::Document(self.document))
            .chain(self.stack.iter().filter_map(|(s, _)| s.clone()))
            .chain(last)
            .collect()
    }

    /// A key read: recorded as its mapping's last.
    fn key_read(&mut self, name: &str, span: &Span) {
        let Some((_, Open::Mapping { id, last, .. })) = self.stack.last_mut() else {
            return;
        };
        *last = Some(self.keys.len());
        self.keys.push(Key {
            name: name.to_string(),
            line: span.start.line(),
            column: span.start.col(),
            mapping: *id,
            holds: Holds::Other,
        });
    }

    /// A node read where the innermost open collection is a mapping whose
    /// key was just read (called after [`Self::place`]): what that key
    /// holds. A key's own collection is read before it opens.
    fn value_read(&mut self, holds: Holds) {
        if let Some((
            _,
            Open::Mapping {
                key: None, last, ..
            },
        )) = self.stack.last_mut()
            && let Some(at) = last.take()
            && let Some(key) = self.keys.get_mut(at)
        {
            key.holds = holds;
        }
    }

    /// The text between a span's ends (character indexes), read through
    /// [`Values::bytes`] (a scan of the text from its start for each value
    /// made a large file's reading quadratic).
    fn source(&self, span: &Span) -> String {
        let at = |i: usize| self.bytes.get(i).copied().unwrap_or(self.text.len());
        let (start, end) = (at(span.start.index()), at(span.end.index()));
        self.text
            .get(start..end.max(start))
            .unwrap_or_default()
            .to_string()
    }
}

impl<'input> SpannedEventReceiver<'input> for Values<'_> {
    fn on_event(&mut self, event: Event<'input>, span: Span) {
        match event {
            Event::DocumentStart(_) => {
                self.document += 1;
                self.stack.clear();
            }
            Event::Scalar(value, style, _, tag) => {
                let (step, is_key) = self.place(Some(&value));
                if is_key {
                    self.key_read(&value, &span);
                    return;
                }
                let empty = style == ScalarStyle::Plain
                    && tag.is_none()
                    && span.start.index() == span.end.index();
                self.value_read(if empty { Holds::Nothing } else { Holds::Scalar });
                let scalar = Scalar {
                    path: self.path(step),
                    plain: style == ScalarStyle::Plain && tag.is_none(),
                    source: self.source(&span),
                    value: value.into_owned(),
                    line: span.start.line(),
                };
                self.found.push(scalar);
            }
            // An alias takes its place (in the guard) whether key or value.
            Event::Alias(_) if !self.place(None).1 => self.value_read(Holds::Other),
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                // A collection used as a key: its steps read as `?`.
                let (step, is_key) = self.place(None);
                let step = if is_key {
                    Some(Step::Key("?".into()))
                } else {
                    step
                };
                let open = match event {
                    Event::MappingStart(..) => {
                        self.value_read(Holds::Mapping);
                        self.mappings += 1;
                        Open::Mapping {
                            key: None,
                            id: self.mappings,
                            last: None,
                        }
                    }
                    _ => {
                        self.value_read(Holds::Sequence);
                        Open::Sequence { next: 0 }
                    }
                };
                self.stack.push((step, open));
            }
            Event::MappingEnd | Event::SequenceEnd => {
                self.stack.pop();
            }
            _ => {}
        }
    }
}

/// Every scalar value of `text` with its path, or `None` where it does
/// not parse.
fn values(text: &str) -> Option<Vec<Scalar>> {
    read(text).map(|r| r.0)
}

/// Every plain scalar key of `text`, in the order written, or `None`
/// where it does not parse.
pub(super) fn keys(text: &str) -> Option<Vec<Key>> {
    read(text).map(|r| r.1)
}

/// [`values`] and [`keys`].
fn read(text: &str) -> Option<(Vec<Scalar>, Vec<Key>)> {
    let mut reader = Values {
        text,
        document: 0,
        stack: Vec::new(),
        found: Vec::new(),
        keys: Vec::new(),
        mappings: 0,
        bytes: text.char_indices().map(|(at, _)| at).collect(),
    };
    Parser::new_from_str(text).load(&mut reader, true).ok()?;
    Some((reader.found, reader.keys))
}

/// The first plain value of `result` (a YAML file as an edit leaves it) on
/// a line the edit changed that reads otherwise than written where a
/// string was meant (see the module).
pub(super) fn yaml_value_read(original: &str, result: &str) -> Option<ValueRead> {
    if original == result {
        return None;
    }
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix + 1..=new.len() - suffix;
    if changed.is_empty() {
        return None;
    }
    let after = values(result)?;
    let candidates: Vec<(Scalar, Read)> = after
        .iter()
        .filter(|s| s.plain && changed.contains(&s.line))
        .cloned()
        .filter_map(|s| Some((read_plain(&s.value)?, s)))
        .filter(|(r, s)| r.printed != s.value)
        .map(|(r, s)| (s, r))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let before = values(original)?;
    candidates.into_iter().find_map(|(scalar, read)| {
        let was = before
            .iter()
            .find(|b| b.path == scalar.path)
            .filter(|b| !displaced(b, &after));
        if was.is_some_and(|b| b.plain && b.value == scalar.value) {
            return None;
        }
        let meant = match was {
            Some(b) if reads_as_text(b) => Meant::Replaced(b.source.clone()),
            Some(_) => version_key(&scalar.path)?,
            None => list_of_strings(&before, &scalar.path)
                .then_some(Meant::StringList)
                .or_else(|| version_key(&scalar.path))
                .or_else(|| sibling_string(&before, &scalar.path))
                .or_else(|| unmeant_form(&scalar.value, &read, &scalar.path))?,
        };
        Some(ValueRead {
            line: scalar.line,
            text: new
                .get(scalar.line - 1)
                .map_or(String::new(), |l| l.trim().to_string()),
            value: scalar.value,
            reads: read.printed,
            kind: read.kind,
            meant,
        })
    })
}

/// Whether the list item `old` (of the file before) stands further down
/// its list in `after`, with its text as written: an item inserted above
/// it took its index, and it is not the value the new item replaced.
fn displaced(old: &Scalar, after: &[Scalar]) -> bool {
    let Some((Step::Item(at), list)) = old.path.split_last() else {
        return false;
    };
    after.iter().any(|a| {
        a.source == old.source
            && matches!(a.path.split_last(), Some((Step::Item(i), l)) if l == list && i > at)
    })
}

/// Whether PyYAML reads `scalar` as a string.
fn reads_as_text(scalar: &Scalar) -> bool {
    !scalar.plain || (resolves(&scalar.value).is_none() && !scalar.source.is_empty())
}

/// Words of a key naming a version of a language, tool or system (the key
/// holds a version): `python`, `node-version`, `go`, `ubuntu`.
const VERSION_WORDS: [&str; 30] = [
    "version",
    "python",
    "py",
    "node",
    "nodejs",
    "ruby",
    "go",
    "golang",
    "java",
    "jdk",
    "php",
    "perl",
    "rust",
    "toolchain",
    "elixir",
    "otp",
    "erlang",
    "dotnet",
    "deno",
    "bun",
    "scala",
    "kotlin",
    "gradle",
    "terraform",
    "kubernetes",
    "k8s",
    "helm",
    "ubuntu",
    "debian",
    "release",
];

/// Words of a key naming a name or a code (`country: NO` is Norway).
const NAME_WORDS: [&str; 8] = [
    "name", "country", "lang", "language", "locale", "region", "tag", "image",
];

/// A key's words, lower case: split at characters other than letters and
/// digits and where a lower-case letter meets an upper-case one
/// (`nodeVersion`: `node`, `version`).
fn key_words(key: &str) -> Vec<String> {
    let mut words = vec![String::new()];
    let mut lower = false;
    for c in key.chars() {
        if !c.is_alphanumeric() || (lower && c.is_uppercase()) {
            words.push(String::new());
        }
        if c.is_alphanumeric()
            && let Some(word) = words.last_mut()
        {
            word.extend(c.to_lowercase());
        }
        lower = c.is_lowercase();
    }
    words.retain(|w| !w.is_empty());
    words
}

/// The key of the value at `path`, or of the list holding it.
fn holding_key(path: &[Step]) -> Option<&String> {
    path.iter().rev().find_map(|s| match s {
        Step::Key(k) => Some(k),
        _ => None,
    })
}

/// A version or a name key holding the value at `path` (the key of the
/// value, or of the list holding it): a key containing `version`, or one
/// of whose words is one of [`VERSION_WORDS`] or [`NAME_WORDS`].
fn version_key(path: &[Step]) -> Option<Meant> {
    let key = holding_key(path)?;
    let words = key_words(key);
    let has = |list: &[&str]| words.iter().any(|w| list.contains(&w.as_str()));
    if key.to_lowercase().contains("version") || has(&VERSION_WORDS) {
        Some(Meant::VersionKey(key.clone()))
    } else {
        has(&NAME_WORDS).then(|| Meant::NameKey(key.clone()))
    }
}

/// Whether the value at `path` is a list item whose list, in `before`,
/// held items that were all strings, quoted or plain (at least one).
fn list_of_strings(before: &[Scalar], path: &[Step]) -> bool {
    let Some((Step::Item(_), list)) = path.split_last() else {
        return false;
    };
    let items: Vec<&Scalar> = before
        .iter()
        .filter(|b| b.path.len() == path.len() && b.path.starts_with(list))
        .collect();
    !items.is_empty() && items.iter().all(|b| reads_as_text(b))
}

/// The same key beside the value at `path` holding only strings in
/// `before`: the values whose path differs from `path` at one step before
/// the last (another item of the list of mappings, another service), the
/// last step the same key (at least one, all read as strings).
fn sibling_string(before: &[Scalar], path: &[Step]) -> Option<Meant> {
    let (Step::Key(key), above) = path.split_last()? else {
        return None;
    };
    let beside: Vec<&Scalar> = before
        .iter()
        .filter(|b| {
            b.path.len() == path.len()
                && b.path.last() == path.last()
                && b.path.iter().zip(above).filter(|(x, y)| x != y).count() == 1
        })
        .collect();
    let first = beside.first()?;
    beside
        .iter()
        .all(|b| reads_as_text(b))
        .then(|| Meant::Beside(key.clone(), first.source.clone()))
}

/// Words of a key holding a file mode, where a leading zero is octal meant
/// (Ansible's `mode: 0644`, Compose's secrets' `mode: 0440`).
const MODE_WORDS: [&str; 5] = ["mode", "umask", "perm", "permissions", "chmod"];

/// A form PyYAML reads that a writer of a new value almost never means: a
/// base-60 number (`22:22`, a port pair or a time of day, read 1342), or a
/// number with a leading zero (`010`, read 8) outside a key holding a file
/// mode.
fn unmeant_form(value: &str, read: &Read, path: &[Step]) -> Option<Meant> {
    if matches!(read.kind, ReadKind::Integer11 | ReadKind::Float) && value.contains(':') {
        return Some(Meant::Base60);
    }
    let (body, _) = unsigned(value);
    let octal = read.kind == ReadKind::Integer11
        && body.len() > 1
        && body.starts_with('0')
        && body[1..].starts_with(|c: char| c.is_ascii_digit());
    let mode = holding_key(path).is_some_and(|k| {
        key_words(k)
            .iter()
            .any(|w| MODE_WORDS.contains(&w.as_str()))
    });
    (octal && !mode).then_some(Meant::Octal)
}

/// What a plain scalar reads as, printed back.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Read {
    printed: String,
    kind: ReadKind,
}

/// Which of PyYAML's implicit types a plain scalar resolves to, other
/// than a string: `Some` for a bool, int, float, null or timestamp.
fn resolves(text: &str) -> Option<()> {
    let null = matches!(text, "~" | "null" | "Null" | "NULL" | "");
    let timestamp = text.len() >= 10
        && text.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && text.as_bytes()[4] == b'-';
    (null || timestamp || is_bool(text) || is_float(text) || is_int(text)).then_some(())
}

/// PyYAML's bool resolver's words.
fn is_bool(text: &str) -> bool {
    [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF",
    ]
    .contains(&text)
}

/// `[-+]?`: the text past an optional sign, and the sign.
fn unsigned(text: &str) -> (&str, &str) {
    match text.as_bytes().first() {
        Some(b'-' | b'+') => (&text[1..], &text[..1]),
        _ => (text, ""),
    }
}

fn all_of(text: &str, allowed: impl Fn(char) -> bool) -> bool {
    text.chars().all(allowed)
}

fn digits_(text: &str) -> bool {
    all_of(text, |c| c.is_ascii_digit() || c == '_')
}

/// `[eE][-+][0-9]+` or nothing.
fn exponent(text: &str) -> bool {
    let Some(rest) = text.strip_prefix(['e', 'E']) else {
        return text.is_empty();
    };
    let (digits, sign) = unsigned(rest);
    !sign.is_empty() && !digits.is_empty() && all_of(digits, |c| c.is_ascii_digit())
}

/// PyYAML's float resolver (its regular expression, in code).
fn is_float(text: &str) -> bool {
    if matches!(text, ".nan" | ".NaN" | ".NAN") {
        return true;
    }
    let (body, sign) = unsigned(text);
    if matches!(body, ".inf" | ".Inf" | ".INF") {
        return true;
    }
    let Some((whole, fraction)) = body.split_once('.') else {
        return false;
    };
    let (fraction, exp) = match fraction.find(['e', 'E']) {
        Some(at) => fraction.split_at(at),
        None => (fraction, ""),
    };
    let fraction_ok = digits_(fraction) && exponent(exp);
    if whole.is_empty() {
        // `\.[0-9][0-9_]*`, no sign.
        return sign.is_empty()
            && fraction.starts_with(|c: char| c.is_ascii_digit())
            && fraction_ok;
    }
    if whole.contains(':') {
        return exp.is_empty() && digits_(fraction) && base60(whole);
    }
    whole.starts_with(|c: char| c.is_ascii_digit()) && digits_(whole) && fraction_ok
}

/// `[0-9][0-9_]*(?::[0-5]?[0-9])+` (the first digit as the caller needs).
fn base60(text: &str) -> bool {
    let mut parts = text.split(':');
    let head = parts.next().unwrap_or_default();
    let head_ok = head.starts_with(|c: char| c.is_ascii_digit()) && digits_(head);
    head_ok
        && parts.all(|p| {
            let b = p.as_bytes();
            match b {
                [d] => d.is_ascii_digit(),
                [t, d] => (b'0'..=b'5').contains(t) && d.is_ascii_digit(),
                _ => false,
            }
        })
}

/// PyYAML's int resolver (its regular expression, in code).
fn is_int(text: &str) -> bool {
    let (body, _) = unsigned(text);
    if let Some(bits) = body.strip_prefix("0b") {
        return !bits.is_empty() && all_of(bits, |c| matches!(c, '0' | '1' | '_'));
    }
    if let Some(hex) = body.strip_prefix("0x") {
        return !hex.is_empty() && all_of(hex, |c| c.is_ascii_hexdigit() || c == '_');
    }
    if body == "0" {
        return true;
    }
    if let Some(octal) = body.strip_prefix('0') {
        return !octal.is_empty() && all_of(octal, |c| matches!(c, '0'..='7' | '_'));
    }
    if body.contains(':') {
        return !body.starts_with('0') && base60(body);
    }
    body.starts_with(|c: char| c.is_ascii_digit()) && digits_(body)
}

/// What PyYAML loads the plain scalar `text` to, printed back as
/// `yaml.safe_dump` prints it, where srview reads it (see the module):
/// `None` for a string, null, timestamp, or a float not read.
fn read_plain(text: &str) -> Option<Read> {
    if is_bool(text) {
        let yes = matches!(text.to_ascii_lowercase().as_str(), "yes" | "true" | "on");
        let printed = if yes { "true" } else { "false" };
        let kind = if text.eq_ignore_ascii_case(printed) {
            ReadKind::Boolean
        } else {
            ReadKind::Boolean11
        };
        return Some(Read {
            printed: printed.to_string(),
            kind,
        });
    }
    if is_float(text) {
        return read_float(text);
    }
    if is_int(text) {
        return read_int(text);
    }
    None
}

/// A float as Python's `repr` prints it (PyYAML's dump), for magnitudes
/// it prints without an exponent.
fn read_float(text: &str) -> Option<Read> {
    let plain: String = text.chars().filter(|&c| c != '_').collect();
    if plain.contains(':') || plain.contains("inf") || plain.contains("nan") {
        return None;
    }
    let plain = plain.to_ascii_lowercase();
    let number: f64 = plain.strip_suffix('.').unwrap_or(&plain).parse().ok()?;
    let size = number.abs();
    if size != 0.0 && !(1e-4..1e16).contains(&size) {
        return None;
    }
    let mut printed = format!("{number}");
    if !printed.contains('.') {
        printed.push_str(".0");
    }
    Some(Read {
        printed,
        kind: ReadKind::Float,
    })
}

/// An int as PyYAML reads it (octal for a leading 0, base 60 for `:`).
fn read_int(text: &str) -> Option<Read> {
    let (body, sign) = unsigned(text);
    let body: String = body.chars().filter(|&c| c != '_').collect();
    let (value, yaml11) = if let Some(bits) = body.strip_prefix("0b") {
        (i128::from_str_radix(bits, 2).ok()?, true)
    } else if let Some(hex) = body.strip_prefix("0x") {
        (i128::from_str_radix(hex, 16).ok()?, true)
    } else if body.contains(':') {
        let mut value: i128 = 0;
        for part in body.split(':') {
            value = value.checked_mul(60)?.checked_add(part.parse().ok()?)?;
        }
        (value, true)
    } else if body.len() > 1 && body.starts_with('0') {
        (i128::from_str_radix(&body, 8).ok()?, true)
    } else {
        (body.parse().ok()?, text.contains('_') || sign == "+")
    };
    let value = if sign == "-" { -value } else { value };
    Some(Read {
        printed: value.to_string(),
        kind: if yaml11 {
            ReadKind::Integer11
        } else {
            ReadKind::Integer
        },
    })
}

#[cfg(test)]
mod tests {
    use super::{ReadKind, read_plain, values, yaml_value_read};

    /// Each scalar's source as written, found from the previous one's
    /// place (the parser's marks count characters, not bytes): after
    /// characters of two, three and four bytes, quoted and plain, in two
    /// documents.
    #[test]
    fn each_scalar_source_is_its_own_text_after_wide_characters() {
        let text = "é: \"ü ñ\"\n名前: 値 3.10\n---\n🎉: '🎉 x'\nn: 010\n";
        let sources: Vec<String> = values(text)
            .unwrap_or_default()
            .into_iter()
            .map(|s| s.source)
            .collect();
        assert_eq!(sources, ["\"ü ñ\"", "値 3.10", "'🎉 x'", "010"]);
    }

    /// What PyYAML 6.0.3 loads each scalar to, printed back by
    /// `yaml.safe_dump` (recorded with python3 on this machine:
    /// `yaml.safe_dump(yaml.safe_load('v: ' + t)['v'])`); `None` where it
    /// loads a string.
    #[test]
    fn plain_scalars_read_as_pyyaml_reads_them() {
        let cases = [
            ("3.10", Some("3.1")),
            ("3.9", Some("3.9")),
            ("1.20", Some("1.2")),
            ("1.0", Some("1.0")),
            ("1.", Some("1.0")),
            (".5", Some("0.5")),
            ("1.5e+3", Some("1500.0")),
            ("1.5e3", None),
            ("010", Some("8")),
            ("08", None),
            ("10", Some("10")),
            ("+5", Some("5")),
            ("-7", Some("-7")),
            ("1_000", Some("1000")),
            ("0x1F", Some("31")),
            ("0b11", Some("3")),
            ("22:22", Some("1342")),
            ("yes", Some("true")),
            ("Off", Some("false")),
            ("true", Some("true")),
            ("1.2.3", None),
            ("v3.10", None),
            ("2024-01-02", None),
        ];
        for (text, printed) in cases {
            assert_eq!(
                read_plain(text).map(|r| r.printed),
                printed.map(str::to_string),
                "{text}"
            );
        }
        assert_eq!(read_plain("3.10").map(|r| r.kind), Some(ReadKind::Float));
        assert_eq!(read_plain("010").map(|r| r.kind), Some(ReadKind::Integer11));
        assert_eq!(read_plain("on").map(|r| r.kind), Some(ReadKind::Boolean11));
    }

    const CI: &str = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    \
                      strategy:\n      matrix:\n        python-version: [3.8, 3.9]\n    steps:\n      \
                      - uses: actions/setup-python@v5\n        with:\n          python-version: \
                      ${{ matrix.python-version }}\n";

    fn said(original: &str, result: &str) -> Option<String> {
        yaml_value_read(original, result).map(|v| v.describe())
    }

    /// The tester's finds (round 46 T-04): `3.10` added to a version
    /// matrix, written over a string of a version key, and over a quoted
    /// `"1.9"` under a key naming no version.
    #[test]
    fn a_version_written_unquoted_is_doubted() {
        let matrix = CI.replace("[3.8, 3.9]", "[3.8, 3.9, 3.10]");
        assert_eq!(
            said(CI, &matrix).as_deref(),
            Some(
                "as written, line 8 (`python-version: [3.8, 3.9, 3.10]`) gives the unquoted \
                 value `3.10` under `python-version`, a version, which YAML reads as the number \
                 3.1, not the text `3.10`: write it quoted, `\"3.10\"`, to keep it as written"
            )
        );
        let step = CI.replace("${{ matrix.python-version }}", "3.10");
        assert_eq!(
            said(CI, &step).as_deref(),
            Some(
                "as written, line 12 (`python-version: 3.10`) gives the unquoted value `3.10` \
                 where the file held the string `${{ matrix.python-version }}`, which YAML reads \
                 as the number 3.1, not the text `3.10`: write it quoted, `\"3.10\"`, to keep it \
                 as written"
            )
        );
        let env = "env:\n  VERSION_TAG: 'x'\n  NAME: '1.9'\n";
        assert_eq!(
            said(env, &env.replace("'1.9'", "1.10")).as_deref(),
            Some(
                "as written, line 3 (`NAME: 1.10`) gives the unquoted value `1.10` where the \
                 file held the string `'1.9'`, which YAML reads as the number 1.1, not the text \
                 `1.10`: write it quoted, `'1.10'`, to keep it as written"
            )
        );
        let list = "python: [\"3.8\", \"3.9\"]\n";
        assert_eq!(
            yaml_value_read(list, "python: [\"3.8\", \"3.9\", 3.10]\n").map(|v| v.meant),
            Some(super::Meant::StringList)
        );
    }

    /// YAML 1.1's octal, base 60 and yes/no words over strings.
    #[test]
    fn yaml11_readings_over_strings_are_doubted() {
        let compose = "ports:\n  - \"22:22\"\nmode: \"0755\"\nanswer: \"no\"\n";
        let cases = [
            (
                "\"22:22\"",
                "22:22",
                "YAML 1.1 readers (PyYAML) read as the number 1342",
            ),
            (
                "\"0755\"",
                "0755",
                "YAML 1.1 readers (PyYAML) read as the number 493",
            ),
            (
                "\"no\"",
                "no",
                "YAML 1.1 readers (PyYAML) read as the boolean false",
            ),
        ];
        for (old, new, reads) in cases {
            let got = said(compose, &compose.replace(old, new));
            assert!(got.as_deref().is_some_and(|g| g.contains(reads)), "{got:?}");
        }
    }

    /// A value at a place the file held none (a new key, a new item)
    /// where the data says a string was meant (tester 48 T-02): a version
    /// or a name key, a list of strings, the same key beside it holding
    /// strings, a base-60 or leading-zero number. PyYAML reads each as the
    /// number or boolean named (python3 -c 'import yaml').
    #[test]
    fn a_new_value_read_otherwise_is_doubted_where_a_string_is_meant() {
        use super::Meant;
        let meant =
            |original: &str, result: &str| yaml_value_read(original, result).map(|v| v.meant);
        let step = "steps:\n  - uses: ruby/setup-ruby@v1\n";
        assert_eq!(
            meant(step, &format!("{step}    with:\n      ruby: 3.10\n")),
            Some(Meant::VersionKey("ruby".into()))
        );
        let people = "people:\n  - name: Ola\n";
        assert_eq!(
            meant(people, &format!("{people}    homeCountry: NO\n")),
            Some(Meant::NameKey("homeCountry".into()))
        );
        let nordic = "countries: [SE, DK]\n";
        assert_eq!(
            meant(nordic, "countries: [SE, DK, NO]\n"),
            Some(Meant::StringList)
        );
        let choices =
            "choices:\n- enum_value: EVERYSEC\n  arg_value: everysec\n- enum_value: ALWAYS\n";
        let no = format!("{choices}- enum_value: NO\n");
        assert_eq!(
            said(choices, &no).as_deref(),
            Some(
                "as written, line 5 (`- enum_value: NO`) gives the unquoted value `NO` where \
                 `enum_value` beside it holds the string `EVERYSEC`, which YAML 1.1 readers \
                 (PyYAML) read as the boolean false, not the text `NO`: write it quoted, \
                 `\"NO\"`, to keep it as written"
            )
        );
        let web = "services:\n  web:\n    image: nginx\n";
        assert_eq!(
            said(web, &format!("{web}    ports:\n      - 22:22\n")).as_deref(),
            Some(
                "as written, line 5 (`- 22:22`) gives the unquoted value `22:22` in YAML 1.1's \
                 base-60 form, which YAML 1.1 readers (PyYAML) read as the number 1342, not the \
                 text `22:22`: write it quoted, `\"22:22\"`, to keep it as written"
            )
        );
        assert_eq!(
            meant(
                "office:\n  city: Boston\n",
                "office:\n  city: Boston\n  zip: 02134\n"
            ),
            Some(Meant::Octal)
        );
    }

    /// A new item inserted at a list's head is read as new, not as the
    /// item it pushed down (wt-yaml47's leftover: the message named the
    /// displaced `"3.8"` as the string the file held there).
    #[test]
    fn an_item_inserted_first_names_no_displaced_item() {
        let list = "python: [\"3.8\", \"3.9\"]\n";
        let got = said(list, "python: [3.10, \"3.8\", \"3.9\"]\n");
        assert_eq!(
            got.as_deref(),
            Some(
                "as written, line 1 (`python: [3.10, \"3.8\", \"3.9\"]`) gives the unquoted value \
                 `3.10` in a list of strings, which YAML reads as the number 3.1, not the text \
                 `3.10`: write it quoted, `\"3.10\"`, to keep it as written"
            )
        );
        let block = "v:\n  - \"3.8\"\n";
        let got = yaml_value_read(block, "v:\n  - \"3.8\"\n  - 3.10\n").map(|v| v.meant);
        assert_eq!(got, Some(super::Meant::StringList));
        // A value replaced in place still names what it replaced.
        let got = yaml_value_read(block, "v:\n  - 3.10\n").map(|v| v.meant);
        assert_eq!(got, Some(super::Meant::Replaced("\"3.8\"".into())));
    }

    /// No doubt for a new value where the data says it may be meant as
    /// read: the machine's YAML files write `threadsafe: yes`,
    /// `require_changes: yes`, `mapreduce: on` as booleans, `price: 450.00`
    /// as a number; Ansible's `mode: 0644` is octal meant; a boolean beside
    /// the same key holding booleans.
    #[test]
    fn new_values_meant_as_read_are_not_doubted() {
        let task = "- name: copy\n  copy:\n    src: a\n";
        let flags = "a:\n  enabled: true\nb:\n  x: 1\n";
        let cases = [
            (task, format!("{task}  become: yes\n")),
            (task, format!("{task}    mode: 0644\n")),
            ("app: x\n", "app: x\nthreadsafe: yes\n".to_string()),
            ("app: x\n", "app: x\nmapreduce: on\n".to_string()),
            ("item: x\n", "item: x\nprice: 450.00\n".to_string()),
            (
                "svc: x\n",
                "svc: x\ncpus: 0.50\ntimeout: 1.50\n".to_string(),
            ),
            ("svc: x\n", "svc: x\ncolor: 0xFF\nsize: 1_000\n".to_string()),
            (flags, flags.replace("  x: 1\n", "  x: 1\n  enabled: off\n")),
        ];
        for (original, result) in cases {
            assert_eq!(said(original, &result), None, "{result}");
        }
    }

    /// No doubt where the value reads back as written, where the old value
    /// was no string and the key names no version, where the file held the
    /// same text before, or where only lines around it changed.
    #[test]
    fn values_that_read_as_written_are_not_doubted() {
        let cases = [
            (CI, CI.replace("[3.8, 3.9]", "[3.8, 3.9, 3.11]")),
            (CI, CI.replace("${{ matrix.python-version }}", "3.9")),
            (
                CI,
                CI.replace("runs-on: ubuntu-latest", "runs-on: ubuntu-22.04"),
            ),
            (CI, CI.replace("name: ci\n", "name: ci\n\n# tests\n")),
            (
                "timeout: 1.5\nname: a\n",
                "timeout: 1.50\nname: a\n".to_string(),
            ),
            ("replicas: \"3\"\n", "replicas: 3\n".to_string()),
            ("flag: \"true\"\n", "flag: true\n".to_string()),
            (
                "go-version: 1.20\nname: a\n",
                "go-version: 1.20\nname: b\n".to_string(),
            ),
            ("v: [\"3.8\"]\n", "v: [\"3.8\", \"3.10\"]\n".to_string()),
        ];
        for (original, result) in cases {
            assert_eq!(said(original, &result), None, "{result}");
        }
        // The same text re-sent on an edited line of a flow list.
        let had = CI.replace("[3.8, 3.9]", "[3.10, 3.11]");
        assert_eq!(said(&had, &had.replace("3.11]", "3.11, 3.12]")), None);
    }
}

#[cfg(test)]
mod keys_tests {
    use super::{Holds, keys};

    #[test]
    fn keys_are_read_with_what_they_hold() {
        let text =
            "a:\n  - uses: x\n    with:\n    v: '3'\n  - b: ~\nc: {d: 1}\ne: &x [1]\nf: *x\ng:\n";
        let got: Vec<(String, usize, usize, usize, Holds)> = keys(text)
            .unwrap_or_default()
            .into_iter()
            .map(|k| (k.name, k.line, k.column, k.mapping, k.holds))
            .collect();
        let want = [
            ("a", 1, 0, 1, Holds::Sequence),
            ("uses", 2, 4, 2, Holds::Scalar),
            ("with", 3, 4, 2, Holds::Nothing),
            ("v", 4, 4, 2, Holds::Scalar),
            ("b", 5, 4, 3, Holds::Scalar),
            ("c", 6, 0, 1, Holds::Mapping),
            ("d", 6, 4, 4, Holds::Scalar),
            ("e", 7, 0, 1, Holds::Sequence),
            ("f", 8, 0, 1, Holds::Other),
            ("g", 9, 0, 1, Holds::Nothing),
        ];
        let want: Vec<_> = want
            .into_iter()
            .map(|(n, l, c, m, h)| (n.to_string(), l, c, m, h))
            .collect();
        assert_eq!(got, want);
    }
}
