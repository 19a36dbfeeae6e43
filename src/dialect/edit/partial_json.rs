//! A tolerant reader for a prefix of a JSON object, as an agent streams a
//! tool input (`input_json_delta.partial_json` pieces, concatenated).
//!
//! Contract: for every prefix of a valid JSON object, [`parse_prefix`]
//! returns `Ok`, never panics, and each field it returns is a prefix of the
//! field's final value (strings) or the final value itself (other kinds).
//! A string cut mid-way is returned as the text decoded so far; a cut escape
//! (`\`, `\u12`, or the first half of a surrogate pair) is dropped until the
//! rest arrives. Nested objects and arrays are skipped ([`Value::Other`]).
//! Text that cannot begin a JSON object, or that stops being JSON, is an
//! [`PartialJsonError`] naming the byte offset.

/// A field value known so far.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A string: complete, or the text so far when its field is streaming.
    Str(String),
    /// A complete `true` or `false`.
    Bool(bool),
    /// A complete number, as written.
    Number(String),
    /// A complete `null`.
    Null,
    /// A complete object or array (not read further).
    Other,
}

/// The fields of an object prefix.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PartialObject {
    /// Fields in input order; a key that appears twice appears twice.
    pub fields: Vec<(String, Value)>,
    /// The key whose value is still arriving (its string value, if any, is
    /// already in `fields` as the text so far).
    pub streaming: Option<String>,
    /// The closing `}` was read.
    pub complete: bool,
}

impl PartialObject {
    /// The last value given for `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.fields
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// `key`'s value when it is a string (possibly still streaming).
    pub fn str(&self, key: &str) -> Option<&str> {
        match self.get(key) {
            Some(Value::Str(s)) => Some(s),
            _ => None,
        }
    }
}

/// The text is not (a prefix of) a JSON object.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid JSON at byte {offset}: {what}")]
pub struct PartialJsonError {
    /// Byte offset of the offending character.
    pub offset: usize,
    /// What went wrong there, in words (e.g. `expected ':'`).
    pub what: &'static str,
}

/// Reads as much of the object prefix `text` as is known.
pub fn parse_prefix(text: &str) -> Result<PartialObject, PartialJsonError> {
    let mut s = Scanner {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        cut: None,
    };
    let mut out = PartialObject::default();
    s.skip_ws();
    if s.at_end() {
        return Ok(out);
    }
    s.expect(b'{', "expected '{'")?;
    let mut first = true;
    loop {
        s.skip_ws();
        if s.at_end() {
            return Ok(out);
        }
        if s.peek() == Some(b'}') {
            s.pos += 1;
            s.skip_ws();
            if !s.at_end() {
                return Err(s.error("text after the object"));
            }
            out.complete = true;
            return Ok(out);
        }
        if !first {
            s.expect(b',', "expected ',' or '}'")?;
            s.skip_ws();
            if s.at_end() {
                return Ok(out);
            }
        }
        first = false;
        if s.peek() != Some(b'"') {
            return Err(s.error("expected a key"));
        }
        let (key, closed) = s.string()?;
        if !closed {
            return Ok(out);
        }
        s.skip_ws();
        if s.at_end() {
            out.streaming = Some(key);
            return Ok(out);
        }
        s.expect(b':', "expected ':'")?;
        s.skip_ws();
        if s.at_end() {
            out.streaming = Some(key);
            return Ok(out);
        }
        match s.value()? {
            Some(value) => out.fields.push((key, value)),
            None => {
                // Cut: a string so far is still worth showing.
                if let Some(Cut::Str(so_far)) = s.cut.take() {
                    out.fields.push((key.clone(), Value::Str(so_far)));
                }
                out.streaming = Some(key);
                return Ok(out);
            }
        }
    }
}

/// Reads any prefix of a JSON object as the value known so far, nested
/// objects and arrays included (pi's `edits` list): a string cut mid-way is
/// its text so far, an object or array cut mid-way holds its members so far
/// (a member whose key or value is cut off, other than a string value, is
/// left out), a cut number or literal is left out. The flag says whether
/// the whole object has arrived. Same errors as [`parse_prefix`].
pub fn parse_value_prefix(text: &str) -> Result<(serde_json::Value, bool), PartialJsonError> {
    let mut s = Scanner {
        bytes: text.as_bytes(),
        text,
        pos: 0,
        cut: None,
    };
    s.skip_ws();
    if s.at_end() {
        return Ok((serde_json::Value::Object(Default::default()), false));
    }
    if s.peek() != Some(b'{') {
        return Err(s.error("expected '{'"));
    }
    let (value, complete) = s.full_value()?;
    let value = value.unwrap_or_else(|| serde_json::Value::Object(Default::default()));
    if complete {
        s.skip_ws();
        if !s.at_end() {
            return Err(s.error("text after the object"));
        }
    }
    Ok((value, complete))
}

/// A complete scalar as serde's value.
fn plain(value: Value) -> serde_json::Value {
    match value {
        Value::Str(s) => serde_json::Value::String(s),
        Value::Bool(b) => serde_json::Value::Bool(b),
        Value::Number(n) => serde_json::from_str(&n).unwrap_or(serde_json::Value::Null),
        Value::Null | Value::Other => serde_json::Value::Null,
    }
}

enum Cut {
    Str(String),
    Other,
}

struct Scanner<'a> {
    bytes: &'a [u8],
    text: &'a str,
    pos: usize,
    /// Set when the text ended inside a value: a string's text so far.
    cut: Option<Cut>,
}

impl Scanner<'_> {
    fn at_end(&self) -> bool {
        self.pos >= self.bytes.len()
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn error(&self, what: &'static str) -> PartialJsonError {
        PartialJsonError {
            offset: self.pos,
            what,
        }
    }

    fn expect(&mut self, byte: u8, what: &'static str) -> Result<(), PartialJsonError> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(self.error(what))
        }
    }

    /// A value; `None` when the text ends inside it (`cut` says what was cut).
    fn value(&mut self) -> Result<Option<Value>, PartialJsonError> {
        match self.peek() {
            Some(b'"') => {
                let (text, closed) = self.string()?;
                if closed {
                    Ok(Some(Value::Str(text)))
                } else {
                    self.cut = Some(Cut::Str(text));
                    Ok(None)
                }
            }
            Some(b't') => self.literal("true", Value::Bool(true)),
            Some(b'f') => self.literal("false", Value::Bool(false)),
            Some(b'n') => self.literal("null", Value::Null),
            Some(b'-' | b'0'..=b'9') => {
                let start = self.pos;
                while matches!(
                    self.peek(),
                    Some(b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                ) {
                    self.pos += 1;
                }
                if self.at_end() {
                    // More digits may follow.
                    self.cut = Some(Cut::Other);
                    return Ok(None);
                }
                let number = &self.text[start..self.pos];
                if serde_json::from_str::<serde_json::Number>(number).is_err() {
                    return Err(PartialJsonError {
                        offset: start,
                        what: "invalid number",
                    });
                }
                Ok(Some(Value::Number(number.to_string())))
            }
            Some(b'{' | b'[') => self.nested(),
            _ => Err(self.error("expected a value")),
        }
    }

    /// A whole value at the cursor, nested ones read too: the value (or
    /// `None` when it is cut before anything of it can be kept) and whether
    /// it is complete.
    fn full_value(&mut self) -> Result<(Option<serde_json::Value>, bool), PartialJsonError> {
        use serde_json::Value as J;
        match self.peek() {
            Some(b'{') => {
                self.pos += 1;
                let mut map = serde_json::Map::new();
                let complete = self.partial_items(b'}', "expected ',' or '}'", |p| {
                    if p.peek() != Some(b'"') {
                        return Err(p.error("expected a key"));
                    }
                    let (key, closed) = p.string()?;
                    p.skip_ws();
                    if !closed || p.at_end() {
                        return Ok(false);
                    }
                    p.expect(b':', "expected ':'")?;
                    p.skip_ws();
                    if p.at_end() {
                        return Ok(false);
                    }
                    let (value, complete) = p.full_value()?;
                    if let Some(value) = value {
                        map.insert(key, value);
                    }
                    Ok(complete)
                })?;
                Ok((Some(J::Object(map)), complete))
            }
            Some(b'[') => {
                self.pos += 1;
                let mut list = Vec::new();
                let complete = self.partial_items(b']', "expected ',' or ']'", |p| {
                    let (value, complete) = p.full_value()?;
                    if let Some(value) = value {
                        list.push(value);
                    }
                    Ok(complete)
                })?;
                Ok((Some(J::Array(list)), complete))
            }
            _ => {
                self.cut = None;
                match self.value()? {
                    Some(value) => Ok((Some(plain(value)), true)),
                    None => match self.cut.take() {
                        Some(Cut::Str(so_far)) => Ok((Some(J::String(so_far)), false)),
                        _ => Ok((None, false)),
                    },
                }
            }
        }
    }

    /// A container's items up to `close` (its opening bracket taken): the
    /// white space and the commas between them (`comma` is the error where
    /// neither a comma nor `close` follows), each item read by `item`,
    /// which says whether the item arrived whole. True when the container
    /// closed; false when the text ends first or an item is cut.
    fn partial_items(
        &mut self,
        close: u8,
        comma: &'static str,
        mut item: impl FnMut(&mut Self) -> Result<bool, PartialJsonError>,
    ) -> Result<bool, PartialJsonError> {
        let mut first = true;
        loop {
            self.skip_ws();
            if self.at_end() {
                return Ok(false);
            }
            if self.peek() == Some(close) {
                self.pos += 1;
                return Ok(true);
            }
            if !first {
                self.expect(b',', comma)?;
                self.skip_ws();
                if self.at_end() {
                    return Ok(false);
                }
            }
            first = false;
            if !item(self)? {
                return Ok(false);
            }
        }
    }

    /// `word` (a prefix of it at the end of the text is a cut value).
    fn literal(&mut self, word: &str, value: Value) -> Result<Option<Value>, PartialJsonError> {
        let rest = &self.bytes[self.pos..];
        let n = rest.len().min(word.len());
        if rest[..n] != word.as_bytes()[..n] {
            return Err(self.error("invalid literal"));
        }
        self.pos += n;
        if n < word.len() {
            self.cut = Some(Cut::Other);
            return Ok(None);
        }
        Ok(Some(value))
    }

    /// Skips a nested object or array, balanced and string-aware.
    fn nested(&mut self) -> Result<Option<Value>, PartialJsonError> {
        let mut stack: Vec<u8> = Vec::new();
        loop {
            match self.peek() {
                None => {
                    self.cut = Some(Cut::Other);
                    return Ok(None);
                }
                Some(b'"') => {
                    let (_, closed) = self.string()?;
                    if !closed {
                        self.cut = Some(Cut::Other);
                        return Ok(None);
                    }
                    continue;
                }
                Some(open @ (b'{' | b'[')) => stack.push(if open == b'{' { b'}' } else { b']' }),
                Some(close @ (b'}' | b']')) => {
                    if stack.pop() != Some(close) {
                        return Err(self.error("unbalanced brackets"));
                    }
                    if stack.is_empty() {
                        self.pos += 1;
                        return Ok(Some(Value::Other));
                    }
                }
                Some(_) => {}
            }
            self.pos += 1;
        }
    }

    /// A string starting at the `"` under the cursor: its decoded text and
    /// whether the closing quote was read. A cut escape is left out.
    fn string(&mut self) -> Result<(String, bool), PartialJsonError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            let Some(b) = self.peek() else {
                return Ok((out, false));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    return Ok((out, true));
                }
                b'\\' => match self.escape()? {
                    Some(c) => out.push(c),
                    None => return Ok((out, false)),
                },
                0x00..=0x1f => return Err(self.error("control character in a string")),
                _ => {
                    // Copy the run up to the next quote, backslash or control.
                    let start = self.pos;
                    while matches!(self.peek(), Some(c) if c != b'"' && c != b'\\' && c >= 0x20) {
                        self.pos += 1;
                    }
                    out.push_str(&self.text[start..self.pos]);
                }
            }
        }
    }

    /// The escape at the cursor (a `\`); `None` when the text ends inside it.
    fn escape(&mut self) -> Result<Option<char>, PartialJsonError> {
        let start = self.pos;
        self.pos += 1;
        let Some(b) = self.peek() else {
            return Ok(None);
        };
        self.pos += 1;
        let c = match b {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let Some(high) = self.hex4()? else {
                    return Ok(None);
                };
                if (0xDC00..0xE000).contains(&high) {
                    return Err(PartialJsonError {
                        offset: start,
                        what: "lone trailing surrogate",
                    });
                }
                if !(0xD800..0xDC00).contains(&high) {
                    return Ok(char::from_u32(u32::from(high)));
                }
                // A leading surrogate: the pair is known only once `\uDCxx` is.
                let rest = &self.bytes[self.pos..];
                let prefix = b"\\u";
                let n = rest.len().min(2);
                if rest[..n] != prefix[..n] {
                    return Err(PartialJsonError {
                        offset: start,
                        what: "lone leading surrogate",
                    });
                }
                if n < 2 {
                    self.pos = self.bytes.len();
                    return Ok(None);
                }
                self.pos += 2;
                let Some(low) = self.hex4()? else {
                    return Ok(None);
                };
                if !(0xDC00..0xE000).contains(&low) {
                    return Err(PartialJsonError {
                        offset: start,
                        what: "lone leading surrogate",
                    });
                }
                let code = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                return Ok(char::from_u32(code));
            }
            _ => {
                return Err(PartialJsonError {
                    offset: start,
                    what: "invalid escape",
                });
            }
        };
        Ok(Some(c))
    }

    /// Four hex digits; `None` when the text ends first.
    fn hex4(&mut self) -> Result<Option<u16>, PartialJsonError> {
        let mut value: u16 = 0;
        for _ in 0..4 {
            let Some(b) = self.peek() else {
                return Ok(None);
            };
            let digit = (b as char)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid \\u escape"))?;
            // Four hex digits fit in 16 bits.
            value = value * 16 + digit as u16;
            self.pos += 1;
        }
        Ok(Some(value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each string in `part` is a prefix of the string at the same place in
    /// `whole`; each other value equals it.
    fn is_prefix_of(part: &serde_json::Value, whole: &serde_json::Value) -> bool {
        use serde_json::Value as J;
        match (part, whole) {
            (J::String(a), J::String(b)) => b.starts_with(a.as_str()),
            (J::Array(a), J::Array(b)) => {
                a.len() <= b.len() && a.iter().zip(b).all(|(x, y)| is_prefix_of(x, y))
            }
            (J::Object(a), J::Object(b)) => a
                .iter()
                .all(|(k, v)| b.get(k).is_some_and(|w| is_prefix_of(v, w))),
            (a, b) => a == b,
        }
    }

    #[test]
    fn every_prefix_of_a_nested_input_reads_as_a_prefix_of_its_value() {
        let text = r#"{"path": "a.py", "edits": [{"oldText": "x = \"1\"\n", "newText": "y\u00e9\ud83d\ude00"}, {"oldText": "z", "newText": ""}], "n": -12.5e3, "ok": true, "none": null}"#;
        let whole: serde_json::Value = serde_json::from_str(text).expect("valid");
        for end in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
            let (value, complete) = parse_value_prefix(&text[..end]).expect("a prefix reads");
            assert!(is_prefix_of(&value, &whole), "{end}: {value}");
            assert_eq!(complete, end == text.len(), "{end}");
        }
        let (value, _) = parse_value_prefix(text).expect("whole");
        assert_eq!(value, whole);
        let (cut, _) =
            parse_value_prefix(r#"{"path": "a.py", "edits": [{"oldText": "x = \"#).unwrap();
        assert_eq!(cut["edits"][0]["oldText"], "x = ");
        assert_eq!(cut["path"], "a.py");
    }

    #[test]
    fn text_that_is_not_a_json_object_prefix_is_an_error() {
        for text in ["[1]", "{\"a\" 1}", "{\"a\": [1,,]}", "{} x"] {
            assert!(parse_value_prefix(text).is_err(), "{text}");
        }
    }
}
