//! The little of JavaScript's value model pi's argument handling shows the
//! model: own-property order (array-index keys first, ascending, then the
//! others in insertion order), `JSON.parse`, `JSON.stringify(v, null, 2)`
//! and `Number.prototype.toString`.

use std::sync::OnceLock;

/// A JSON value as a JavaScript object graph holds it.
#[derive(Debug, Clone, PartialEq)]
pub enum Js {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    Obj(JsObject),
}

/// A plain object: its properties in insertion order; [`JsObject::keys`]
/// gives them in JavaScript's own-property order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct JsObject {
    entries: Vec<(String, Js)>,
}

/// An array index key (`"0"`, `"17"`, below 2^32 - 1, canonical): such keys
/// come first, ascending, in every JavaScript property enumeration.
fn array_index(key: &str) -> Option<u32> {
    let canonical = key == "0" || (!key.starts_with('0') && !key.is_empty());
    if !canonical || key.len() > 10 || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u64>()
        .ok()
        .filter(|&n| n < u64::from(u32::MAX))
        .map(|n| n as u32)
}

impl JsObject {
    pub fn get(&self, key: &str) -> Option<&Js> {
        self.entries.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut Js> {
        self.entries
            .iter_mut()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// `object[key] = value`: an existing property keeps its place.
    pub fn set(&mut self, key: &str, value: Js) {
        match self.get_mut(key) {
            Some(slot) => *slot = value,
            None => self.entries.push((key.to_string(), value)),
        }
    }

    pub fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// `Object.getOwnPropertyNames`: array-index keys ascending, then the
    /// other keys in insertion order.
    pub fn keys(&self) -> Vec<&str> {
        let mut indexed: Vec<(u32, &str)> = self
            .entries
            .iter()
            .filter_map(|(k, _)| array_index(k).map(|i| (i, k.as_str())))
            .collect();
        indexed.sort_unstable_by_key(|&(i, _)| i);
        indexed
            .into_iter()
            .map(|(_, k)| k)
            .chain(
                self.entries
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .filter(|k| array_index(k).is_none()),
            )
            .collect()
    }

    /// The properties in own-property order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Js)> {
        self.keys()
            .into_iter()
            .filter_map(|k| self.get(k).map(|v| (k, v)))
    }
}

/// Whether `serde_json::Map` keeps keys in the order they were parsed (its
/// `preserve_order` feature); without it keys come back sorted and the
/// order the model sent them in is lost.
fn serde_keeps_key_order() -> bool {
    static KEEPS: OnceLock<bool> = OnceLock::new();
    *KEEPS.get_or_init(|| {
        serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(r#"{"b":0,"a":0}"#)
            .is_ok_and(|map| map.keys().next().is_some_and(|k| k == "b"))
    })
}

/// The keys of pi's `edit` schema and of the other tools' shapes models
/// mix up with it, in the order models send them (pi's own schema order
/// first). Used only when `serde_json` has lost the order the model sent
/// (see [`serde_keeps_key_order`]): these keys first in this order, the
/// others after them, sorted.
const LIKELY_KEY_ORDER: [&str; 12] = [
    "path",
    "file_path",
    "filePath",
    "edits",
    "oldText",
    "old_string",
    "oldString",
    "newText",
    "new_string",
    "newString",
    "replaceAll",
    "replace_all",
];

impl Js {
    /// The value as the model sent it: objects' keys in the order the map
    /// holds them when it keeps the parse order, else in the likely order
    /// the model sent them in ([`LIKELY_KEY_ORDER`]).
    pub fn from_serde(value: &serde_json::Value) -> Js {
        match value {
            serde_json::Value::Null => Js::Null,
            serde_json::Value::Bool(b) => Js::Bool(*b),
            serde_json::Value::Number(n) => Js::Num(n.as_f64().unwrap_or(f64::NAN)),
            serde_json::Value::String(s) => Js::Str(s.clone()),
            serde_json::Value::Array(items) => Js::Arr(items.iter().map(Js::from_serde).collect()),
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                if !serde_keeps_key_order() {
                    let rank = |k: &str| {
                        LIKELY_KEY_ORDER
                            .iter()
                            .position(|known| *known == k)
                            .unwrap_or(LIKELY_KEY_ORDER.len())
                    };
                    keys.sort_by_key(|k| rank(k));
                }
                let mut object = JsObject::default();
                for key in keys {
                    object.set(key, Js::from_serde(&map[key]));
                }
                Js::Obj(object)
            }
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Js::Str(s) => Some(s),
            _ => None,
        }
    }

    /// `JSON.stringify(value, null, 2)`.
    pub fn stringify_pretty(&self) -> String {
        let mut out = String::new();
        write_pretty(self, 0, &mut out);
        out
    }
}

fn write_pretty(value: &Js, depth: usize, out: &mut String) {
    let indent = |out: &mut String, depth: usize| {
        out.push('\n');
        out.extend(std::iter::repeat_n("  ", depth));
    };
    match value {
        Js::Null => out.push_str("null"),
        Js::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Js::Num(n) if n.is_finite() => out.push_str(&number_to_string(*n)),
        Js::Num(_) => out.push_str("null"),
        Js::Str(s) => write_json_string(s, out),
        Js::Arr(items) if items.is_empty() => out.push_str("[]"),
        Js::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write_pretty(item, depth + 1, out);
            }
            indent(out, depth);
            out.push(']');
        }
        Js::Obj(object) if object.entries.is_empty() => out.push_str("{}"),
        Js::Obj(object) => {
            out.push('{');
            for (i, (key, item)) in object.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                indent(out, depth + 1);
                write_json_string(key, out);
                out.push_str(": ");
                write_pretty(item, depth + 1, out);
            }
            indent(out, depth);
            out.push('}');
        }
    }
}

/// `JSON.stringify` of a string: `"` and `\` escaped, `\b \f \n \r \t`,
/// other control characters as `\u00xx`; everything else as is.
fn write_json_string(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `Number.prototype.toString()` (radix 10) of a double: the engine's.
pub use crate::engine::js::number_to_string;

/// `JSON.parse(text)`: `None` where it throws. Keys keep the text's order
/// (a repeated key keeps its first place and its last value); a lone
/// surrogate escape, which a Rust string cannot hold, becomes U+FFFD.
pub fn json_parse(text: &str) -> Option<Js> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        pos: 0,
    };
    parser.skip_ws();
    let value = parser.value(0)?;
    parser.skip_ws();
    (parser.pos == parser.bytes.len()).then_some(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
}

/// Deeper nesting is refused instead of recursing without bound (V8 would
/// parse it; no tool call nests this deep).
const MAX_DEPTH: usize = 512;

impl Parser<'_> {
    fn skip_ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.bytes.get(self.pos) {
            self.pos += 1;
        }
    }

    fn eat(&mut self, literal: &str) -> bool {
        if self.bytes[self.pos..].starts_with(literal.as_bytes()) {
            self.pos += literal.len();
            true
        } else {
            false
        }
    }

    fn value(&mut self, depth: usize) -> Option<Js> {
        if depth > MAX_DEPTH {
            return None;
        }
        match *self.bytes.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                let mut object = JsObject::default();
                self.items("}", |p| {
                    if p.bytes.get(p.pos) != Some(&b'"') {
                        return None;
                    }
                    let key = p.string()?;
                    p.skip_ws();
                    if !p.eat(":") {
                        return None;
                    }
                    p.skip_ws();
                    let item = p.value(depth + 1)?;
                    object.set(&key, item);
                    Some(())
                })?;
                Some(Js::Obj(object))
            }
            b'[' => {
                self.pos += 1;
                let mut items = Vec::new();
                self.items("]", |p| {
                    items.push(p.value(depth + 1)?);
                    Some(())
                })?;
                Some(Js::Arr(items))
            }
            b'"' => self.string().map(Js::Str),
            b't' => self.eat("true").then_some(Js::Bool(true)),
            b'f' => self.eat("false").then_some(Js::Bool(false)),
            b'n' => self.eat("null").then_some(Js::Null),
            _ => self.number(),
        }
    }

    /// Reads the members or elements of the object or array whose opening
    /// bracket was just taken, up to its `close`: each by `item` (called
    /// at its first byte), and the commas between them. `None` where the
    /// text stops being JSON.
    fn items(&mut self, close: &str, mut item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.skip_ws();
        if self.eat(close) {
            return Some(());
        }
        loop {
            self.skip_ws();
            item(self)?;
            self.skip_ws();
            if self.eat(close) {
                return Some(());
            }
            if !self.eat(",") {
                return None;
            }
        }
    }

    fn number(&mut self) -> Option<Js> {
        let start = self.pos;
        let digits = |p: &mut Self| {
            let from = p.pos;
            while p.bytes.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos > from
        };
        self.eat("-");
        if self.eat("0") {
            // A leading zero stands alone.
        } else if !digits(self) {
            return None;
        }
        if self.eat(".") && !digits(self) {
            return None;
        }
        if matches!(self.bytes.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            if !self.eat("+") {
                self.eat("-");
            }
            if !digits(self) {
                return None;
            }
        }
        self.text[start..self.pos].parse::<f64>().ok().map(Js::Num)
    }

    fn hex4(&mut self) -> Option<u32> {
        let hex = self.text.get(self.pos..self.pos + 4)?;
        if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        self.pos += 4;
        u32::from_str_radix(hex, 16).ok()
    }

    /// A string literal at `pos` (its opening quote).
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let run_start = self.pos;
            while let Some(&b) = self.bytes.get(self.pos) {
                if b == b'"' || b == b'\\' || b < 0x20 {
                    break;
                }
                self.pos += 1;
            }
            out.push_str(&self.text[run_start..self.pos]);
            match *self.bytes.get(self.pos)? {
                b'"' => {
                    self.pos += 1;
                    return Some(out);
                }
                b'\\' => {
                    self.pos += 1;
                    let escape = *self.bytes.get(self.pos)?;
                    self.pos += 1;
                    match escape {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4()?;
                            out.push(self.surrogate_pair(unit));
                        }
                        _ => return None,
                    }
                }
                // A raw control character inside a string.
                _ => return None,
            }
        }
    }

    /// The character a `\uXXXX` escape starts: a high surrogate takes the
    /// `\uXXXX` low surrogate that follows it.
    fn surrogate_pair(&mut self, unit: u32) -> char {
        if (0xD800..0xDC00).contains(&unit) && self.text[self.pos..].starts_with("\\u") {
            let save = self.pos;
            self.pos += 2;
            if let Some(low) = self.hex4().filter(|low| (0xDC00..0xE000).contains(low)) {
                let code = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
                return char::from_u32(code).unwrap_or('\u{fffd}');
            }
            self.pos = save;
        }
        char::from_u32(unit).unwrap_or('\u{fffd}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_prints_them() {
        for (n, text) in [
            (1.0, "1"),
            (-0.0, "0"),
            (0.1, "0.1"),
            (1e21, "1e+21"),
            (1.5e-7, "1.5e-7"),
            (123456789012345680000.0, "123456789012345680000"),
            (0.000001, "0.000001"),
            (12.5, "12.5"),
            (-3.0, "-3"),
            (2e-7, "2e-7"),
        ] {
            assert_eq!(number_to_string(n), text);
        }
    }

    #[test]
    fn index_keys_come_first() {
        let parsed = json_parse(r#"{"b":1,"2":2,"a":3,"1":4,"01":5}"#).unwrap();
        assert_eq!(
            parsed.stringify_pretty(),
            "{\n  \"1\": 4,\n  \"2\": 2,\n  \"b\": 1,\n  \"a\": 3,\n  \"01\": 5\n}"
        );
    }

    #[test]
    fn parse_is_strict_json() {
        assert!(json_parse("[1,]").is_none());
        assert!(json_parse("{\"a\":1").is_none());
        assert!(json_parse(" [\"\\u00e9\\ud83d\\ude00\"] ").is_some());
        assert!(json_parse("01").is_none());
        assert_eq!(
            json_parse(r#"{"a":1,"a":2}"#).unwrap().stringify_pretty(),
            "{\n  \"a\": 2\n}"
        );
        assert_eq!(
            json_parse("\"\\ud83d\\ude00\"").unwrap(),
            Js::Str("\u{1f600}".into())
        );
    }

    #[test]
    fn stringify_escapes_as_javascript() {
        assert_eq!(
            Js::Str("a\u{2028}\u{7f}\u{1}\"\\\n".into()).stringify_pretty(),
            "\"a\u{2028}\u{7f}\\u0001\\\"\\\\\\n\""
        );
        assert_eq!(
            Js::Arr(vec![Js::Arr(vec![]), Js::Obj(JsObject::default())]).stringify_pretty(),
            "[\n  [],\n  {}\n]"
        );
    }
}
