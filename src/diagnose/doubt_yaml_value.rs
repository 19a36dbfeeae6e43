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
//! - the value is a new item of a list whose items were all quoted
//!   strings before (`["3.8", "3.9"]` given `3.10`);
//! - the key holding it (for a list item, the key holding the list) names
//!   a version (`version`, `python-version`, `node-version`, `go-version`:
//!   any key holding the word, case aside), where a number is read as a
//!   version string.
//!
//! Not doubted: a value that reads back as written (`3.9`, `10`, `1.0`,
//! `true`), whatever it replaced; a value the file before held at the same
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
    /// The list it joins held only quoted strings.
    StringList,
    /// The key holding it names a version.
    VersionKey(String),
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
            Meant::StringList => "in a list of quoted strings".to_string(),
            Meant::VersionKey(key) => format!("under `{key}`, a version"),
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

/// An open collection while the events are read.
enum Open {
    /// The next scalar is a key when `key` is `None`.
    Mapping {
        key: Option<String>,
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
    /// The last span start read: (character index, byte offset), so that
    /// each scalar's source is found from there, not from the file's start
    /// (the parser's marks count characters; its scalars come in order).
    at: (usize, usize),
}

impl Values<'_> {
    /// The step a new node takes under the innermost open collection, and
    /// whether it is a mapping's key; advances that collection.
    fn place(&mut self, key_text: Option<&str>) -> (Option<Step>, bool) {
        match self.stack.last_mut() {
            None => (None, false),
            Some((_, Open::Mapping { key })) => match key.take() {
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

    fn source(&mut self, span: &Span) -> String {
        let (start, end) = (span.start.index(), span.end.index());
        if start < self.at.0 {
            self.at = (0, 0);
        }
        let from = self.text.get(self.at.1..).unwrap_or_default();
        let byte = self.at.1 + byte_of_char(from, start - self.at.0);
        self.at = (start, byte);
        let rest = self.text.get(byte..).unwrap_or_default();
        rest.get(..byte_of_char(rest, end.saturating_sub(start)))
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
                    return;
                }
                let scalar = Scalar {
                    path: self.path(step),
                    plain: style == ScalarStyle::Plain && tag.is_none(),
                    source: self.source(&span),
                    value: value.into_owned(),
                    line: span.start.line(),
                };
                self.found.push(scalar);
            }
            Event::Alias(_) => {
                self.place(None);
            }
            Event::MappingStart(..) | Event::SequenceStart(..) => {
                // A collection used as a key: its steps read as `?`.
                let (step, is_key) = self.place(None);
                let step = if is_key {
                    Some(Step::Key("?".into()))
                } else {
                    step
                };
                let open = match event {
                    Event::MappingStart(..) => Open::Mapping { key: None },
                    _ => Open::Sequence { next: 0 },
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

/// The byte offset of `text`'s character `n` (its length past the end).
fn byte_of_char(text: &str, n: usize) -> usize {
    text.char_indices().nth(n).map_or(text.len(), |(i, _)| i)
}

/// Every scalar value of `text` with its path, or `None` where it does
/// not parse.
fn values(text: &str) -> Option<Vec<Scalar>> {
    let mut reader = Values {
        text,
        document: 0,
        stack: Vec::new(),
        found: Vec::new(),
        at: (0, 0),
    };
    Parser::new_from_str(text).load(&mut reader, true).ok()?;
    Some(reader.found)
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
    let candidates: Vec<(Scalar, Read)> = values(result)?
        .into_iter()
        .filter(|s| s.plain && changed.contains(&s.line))
        .filter_map(|s| Some((read_plain(&s.value)?, s)))
        .filter(|(r, s)| r.printed != s.value)
        .map(|(r, s)| (s, r))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    let before = values(original)?;
    candidates.into_iter().find_map(|(scalar, read)| {
        let was = before.iter().find(|b| b.path == scalar.path);
        if was.is_some_and(|b| b.plain && b.value == scalar.value) {
            return None;
        }
        let meant = match was {
            Some(b) if reads_as_text(b) => Meant::Replaced(b.source.clone()),
            Some(_) => version_key(&scalar.path)?,
            None => list_of_strings(&before, &scalar.path)
                .then_some(Meant::StringList)
                .or_else(|| version_key(&scalar.path))?,
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

/// Whether PyYAML reads `scalar` as a string.
fn reads_as_text(scalar: &Scalar) -> bool {
    !scalar.plain || (resolves(&scalar.value).is_none() && !scalar.source.is_empty())
}

/// A version key holding the value at `path` (the key of the value, or of
/// the list holding it).
fn version_key(path: &[Step]) -> Option<Meant> {
    let key = path.iter().rev().find_map(|s| match s {
        Step::Key(k) => Some(k),
        _ => None,
    })?;
    key.to_lowercase()
        .contains("version")
        .then(|| Meant::VersionKey(key.clone()))
}

/// Whether the value at `path` is a list item whose list, in `before`,
/// held items that were all quoted scalars (at least one).
fn list_of_strings(before: &[Scalar], path: &[Step]) -> bool {
    let Some((Step::Item(_), list)) = path.split_last() else {
        return false;
    };
    let items: Vec<&Scalar> = before
        .iter()
        .filter(|b| b.path.len() == path.len() && b.path.starts_with(list))
        .collect();
    !items.is_empty() && items.iter().all(|b| !b.plain)
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
