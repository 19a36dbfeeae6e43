//! A JSON settings file edited as text: `srview gate install` adds its hook
//! entry to an agent's settings and removes it again without touching any
//! other byte (no re-serialising, so a user's key order, spacing and
//! comments stay). [`parse`] gives each value's byte span; [`insert`] puts
//! one new member or element at the end of an object or array as a single
//! contiguous piece of text, and [`remove`] takes exactly that piece out,
//! so that removing what was inserted gives back the file as it was.
//!
//! Comments (`//`, `/* */`) are read as whitespace: Gemini CLI and Qwen Code
//! accept them in their settings.

/// A parsed JSON value with its byte span in the text.
#[derive(Debug, Clone)]
pub enum Node {
    Object {
        /// Offset of `{` and of `}`.
        open: usize,
        close: usize,
        members: Vec<Member>,
    },
    Array {
        open: usize,
        close: usize,
        elements: Vec<Node>,
    },
    Str {
        start: usize,
        end: usize,
        value: String,
    },
    /// A number, `true`, `false` or `null`.
    Other { start: usize, end: usize },
}

/// One `"key": value` of an object.
#[derive(Debug, Clone)]
pub struct Member {
    pub key: String,
    /// Offset of the key's opening quote.
    pub key_start: usize,
    pub value: Node,
}

impl Node {
    pub fn start(&self) -> usize {
        match self {
            Node::Object { open, .. } | Node::Array { open, .. } => *open,
            Node::Str { start, .. } | Node::Other { start, .. } => *start,
        }
    }

    pub fn end(&self) -> usize {
        match self {
            Node::Object { close, .. } | Node::Array { close, .. } => close + 1,
            Node::Str { end, .. } | Node::Other { end, .. } => *end,
        }
    }

    /// The value of member `key` of an object: the last one when the key
    /// is given more than once, as JavaScript's `JSON.parse` and Python's
    /// `json` read it.
    pub fn get(&self, key: &str) -> Option<&Node> {
        match self {
            Node::Object { members, .. } => members
                .iter()
                .rev()
                .find(|m| m.key == key)
                .map(|m| &m.value),
            _ => None,
        }
    }

    /// The text of a number, `true`, `false` or `null`.
    pub fn literal<'t>(&self, text: &'t str) -> Option<&'t str> {
        match self {
            Node::Other { start, end } => text.get(*start..*end),
            _ => None,
        }
    }

    /// The value as serde_json reads it (comments dropped; the last of a
    /// key given twice), `None` when a number does not read.
    pub fn to_value(&self, text: &str) -> Option<serde_json::Value> {
        Some(match self {
            Node::Object { members, .. } => {
                let mut map = serde_json::Map::new();
                for member in members {
                    map.insert(member.key.clone(), member.value.to_value(text)?);
                }
                serde_json::Value::Object(map)
            }
            Node::Array { elements, .. } => serde_json::Value::Array(
                elements
                    .iter()
                    .map(|e| e.to_value(text))
                    .collect::<Option<_>>()?,
            ),
            Node::Str { value, .. } => serde_json::Value::from(value.as_str()),
            Node::Other { .. } => serde_json::from_str(self.literal(text)?).ok()?,
        })
    }

    /// The members of an object (none for another value).
    pub fn members(&self) -> &[Member] {
        match self {
            Node::Object { members, .. } => members,
            _ => &[],
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Node::Str { value, .. } => Some(value),
            _ => None,
        }
    }

    pub fn elements(&self) -> &[Node] {
        match self {
            Node::Array { elements, .. } => elements,
            _ => &[],
        }
    }
}

/// Parses `text` as one JSON value (comments allowed), or says where it
/// stops being JSON ("line L: ...").
pub fn parse(text: &str) -> Result<Node, String> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        text,
        at: 0,
    };
    parser.skip_space()?;
    let node = parser.value(0)?;
    parser.skip_space()?;
    if parser.at < parser.bytes.len() {
        return Err(parser.error("text after the JSON value"));
    }
    Ok(node)
}

struct Parser<'a> {
    bytes: &'a [u8],
    text: &'a str,
    at: usize,
}

/// Nesting deeper than this is refused (no stack overflow on any input).
const MAX_DEPTH: usize = 256;

impl Parser<'_> {
    fn error(&self, what: &str) -> String {
        let line = self.bytes[..self.at.min(self.bytes.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        format!("line {line}: {what}")
    }

    fn skip_space(&mut self) -> Result<(), String> {
        loop {
            match self.bytes.get(self.at) {
                Some(b' ' | b'\t' | b'\n' | b'\r') => self.at += 1,
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'/') => {
                    while self.at < self.bytes.len() && self.bytes[self.at] != b'\n' {
                        self.at += 1;
                    }
                }
                Some(b'/') if self.bytes.get(self.at + 1) == Some(&b'*') => {
                    match self.text[self.at + 2..].find("*/") {
                        Some(end) => self.at += 2 + end + 2,
                        None => return Err(self.error("a comment that does not end")),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Node, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deeply"));
        }
        match self.bytes.get(self.at) {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => {
                let (start, end, value) = self.string()?;
                Ok(Node::Str { start, end, value })
            }
            Some(_) => {
                let start = self.at;
                while self.at < self.bytes.len()
                    && matches!(self.bytes[self.at], b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z')
                {
                    self.at += 1;
                }
                let word = &self.text[start..self.at];
                let valid = matches!(word, "true" | "false" | "null")
                    || serde_json::from_str::<serde_json::Number>(word).is_ok();
                if !valid {
                    self.at = start;
                    return Err(self.error("not a JSON value"));
                }
                Ok(Node::Other {
                    start,
                    end: self.at,
                })
            }
            None => Err(self.error("the text ends where a value should be")),
        }
    }

    fn string(&mut self) -> Result<(usize, usize, String), String> {
        let start = self.at;
        self.at += 1;
        loop {
            match self.bytes.get(self.at) {
                Some(b'"') => break,
                Some(b'\\') => self.at += 2,
                Some(_) => self.at += 1,
                None => return Err(self.error("a string that does not end")),
            }
        }
        self.at += 1;
        let value = serde_json::from_str::<String>(&self.text[start..self.at])
            .map_err(|e| self.error(&format!("a bad string ({e})")))?;
        Ok((start, self.at, value))
    }

    fn object(&mut self, depth: usize) -> Result<Node, String> {
        let mut members = Vec::new();
        let (open, close) = self.container(b'}', "',' or '}' should be here", |p| {
            if p.bytes.get(p.at) != Some(&b'"') {
                return Err(p.error("a key should be here"));
            }
            let (key_start, _, key) = p.string()?;
            p.skip_space()?;
            if p.bytes.get(p.at) != Some(&b':') {
                return Err(p.error("':' should follow the key"));
            }
            p.at += 1;
            p.skip_space()?;
            let value = p.value(depth + 1)?;
            members.push(Member {
                key,
                key_start,
                value,
            });
            Ok(())
        })?;
        Ok(Node::Object {
            open,
            close,
            members,
        })
    }

    fn array(&mut self, depth: usize) -> Result<Node, String> {
        let mut elements = Vec::new();
        let (open, close) = self.container(b']', "',' or ']' should be here", |p| {
            elements.push(p.value(depth + 1)?);
            Ok(())
        })?;
        Ok(Node::Array {
            open,
            close,
            elements,
        })
    }

    /// Reads the object or array opening at `self.at` up to its `close`
    /// bracket: each member or element by `item` (called at its first
    /// byte), the commas between them; `misplaced`: the error where
    /// neither a comma nor `close` follows an item. Returns the offsets of
    /// the opening and the closing bracket.
    fn container(
        &mut self,
        close: u8,
        misplaced: &str,
        mut item: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(usize, usize), String> {
        let open = self.at;
        self.at += 1;
        self.skip_space()?;
        if self.bytes.get(self.at) == Some(&close) {
            self.at += 1;
            return Ok((open, self.at - 1));
        }
        loop {
            item(self)?;
            self.skip_space()?;
            match self.bytes.get(self.at) {
                Some(b',') => {
                    self.at += 1;
                    self.skip_space()?;
                }
                Some(&b) if b == close => {
                    self.at += 1;
                    return Ok((open, self.at - 1));
                }
                _ => return Err(self.error(misplaced)),
            }
        }
    }
}

/// A JSON value to write, its object keys in the order given.
#[derive(Debug, Clone)]
pub enum Json {
    Str(String),
    Num(u64),
    Obj(Vec<(&'static str, Json)>),
    Arr(Vec<Json>),
}

/// How the file around an insertion is laid out.
#[derive(Debug, Clone)]
struct Layout {
    /// One level of indentation ("  ", "    ", "\t"), or `None` for a file
    /// written on one line.
    unit: Option<String>,
    newline: &'static str,
}

impl Json {
    /// The value as serde_json reads it (to compare with a file's).
    pub fn to_value(&self) -> serde_json::Value {
        match self {
            Json::Str(s) => serde_json::Value::from(s.as_str()),
            Json::Num(n) => serde_json::Value::from(*n),
            Json::Obj(members) => serde_json::Value::Object(
                members
                    .iter()
                    .map(|(k, v)| ((*k).to_string(), v.to_value()))
                    .collect(),
            ),
            Json::Arr(items) => {
                serde_json::Value::Array(items.iter().map(Json::to_value).collect())
            }
        }
    }

    /// The value as text; `indent` is the indentation of the line it starts on.
    fn render(&self, layout: &Layout, indent: &str) -> String {
        let inner = |indent: &str| match &layout.unit {
            Some(unit) => format!("{indent}{unit}"),
            None => String::new(),
        };
        let (open_gap, close_gap, sep) = match &layout.unit {
            Some(_) => (
                format!("{}{}", layout.newline, inner(indent)),
                format!("{}{indent}", layout.newline),
                format!(",{}{}", layout.newline, inner(indent)),
            ),
            None => (String::new(), String::new(), ", ".to_string()),
        };
        match self {
            Json::Str(s) => serde_json::Value::from(s.as_str()).to_string(),
            Json::Num(n) => n.to_string(),
            Json::Obj(members) => {
                let inner = inner(indent);
                let items: Vec<String> = members
                    .iter()
                    .map(|(k, v)| {
                        format!(
                            "{}: {}",
                            serde_json::Value::from(*k),
                            v.render(layout, &inner)
                        )
                    })
                    .collect();
                format!("{{{open_gap}{}{close_gap}}}", items.join(&sep))
            }
            Json::Arr(elements) => {
                let inner = inner(indent);
                let items: Vec<String> =
                    elements.iter().map(|v| v.render(layout, &inner)).collect();
                format!("[{open_gap}{}{close_gap}]", items.join(&sep))
            }
        }
    }
}

fn layout_of(text: &str, root: &Node) -> Layout {
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let first_indent = match root {
        Node::Object { members, .. } => members.first().map(|m| m.key_start),
        Node::Array { elements, .. } => elements.first().map(Node::start),
        _ => None,
    }
    .map(|at| indent_before(text, at));
    let unit = match first_indent {
        Some(Some(indent)) if !indent.is_empty() => Some(indent.to_string()),
        // Members on the `{` line: a file written on one line.
        Some(_) => None,
        // An empty root: two spaces, the agents' own settings layout.
        None => Some("  ".to_string()),
    };
    Layout { unit, newline }
}

/// The indentation of the line `at` is on, when only blanks precede `at`
/// on it; `None` when other text does (a one-line layout).
fn indent_before(text: &str, at: usize) -> Option<&str> {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..at];
    let blank = before.chars().all(|c| c == ' ' || c == '\t');
    (blank && line_start > 0).then_some(before)
}

/// The indentation of the line holding offset `at` (its leading blanks).
fn line_indent(text: &str, at: usize) -> &str {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let line = &text[line_start..];
    let len = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[..len]
}

/// The text insertion: `piece` at offset `at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Insertion {
    pub at: usize,
    pub piece: String,
}

impl Insertion {
    pub fn apply(&self, text: &str) -> String {
        format!("{}{}{}", &text[..self.at], self.piece, &text[self.at..])
    }
}

/// Inserts `"key": value` (when `key` is given, into an object) or `value`
/// (into an array) as the last item of `container`, laid out as the file is.
pub fn insert(
    text: &str,
    root: &Node,
    container: &Node,
    key: Option<&str>,
    value: &Json,
) -> Insertion {
    let layout = layout_of(text, root);
    let (open, close, last_end) = match container {
        Node::Object {
            open,
            close,
            members,
        } => (*open, *close, members.last().map(|m| m.value.end())),
        Node::Array {
            open,
            close,
            elements,
        } => (*open, *close, elements.last().map(Node::end)),
        _ => (0, 0, None),
    };
    let own = line_indent(text, open).to_string();
    let indent = match &layout.unit {
        Some(unit) => format!("{own}{unit}"),
        None => String::new(),
    };
    let item = match key {
        Some(key) => format!(
            "{}: {}",
            serde_json::Value::from(key),
            value.render(&layout, &indent)
        ),
        None => value.render(&layout, &indent),
    };
    let mut piece = String::new();
    if last_end.is_some() {
        piece.push(',');
    }
    match &layout.unit {
        Some(_) => {
            piece.push_str(layout.newline);
            piece.push_str(&indent);
        }
        None if last_end.is_some() => piece.push(' '),
        None => {}
    }
    piece.push_str(&item);
    let at = last_end.unwrap_or(open + 1);
    // An empty `{}` or `[]`: its closing bracket goes on a line of its own.
    if last_end.is_none()
        && layout.unit.is_some()
        && text[open + 1..close].trim().is_empty()
        && !text[open + 1..close].contains('\n')
    {
        piece.push_str(layout.newline);
        piece.push_str(&own);
    }
    Insertion { at, piece }
}

/// The line (from 1) that offset `at` of `text` is on.
pub fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The text with `node` replaced by `value`, laid out as the file is from
/// the indentation of the line `node` starts on: nothing before or after
/// it moves.
pub fn replace(text: &str, root: &Node, node: &Node, value: &Json) -> String {
    let layout = layout_of(text, root);
    let indent = match &layout.unit {
        Some(_) => line_indent(text, node.start()).to_string(),
        None => String::new(),
    };
    format!(
        "{}{}{}",
        &text[..node.start()],
        value.render(&layout, &indent),
        &text[node.end()..]
    )
}

/// The text with item `index` of `container` taken out: the inverse of
/// [`insert`] for the last item (its comma and the line break before it go
/// with it).
pub fn remove(text: &str, root: &Node, container: &Node, index: usize) -> String {
    let layout = layout_of(text, root);
    let (open, close, spans): (usize, usize, Vec<(usize, usize)>) = match container {
        Node::Object {
            open,
            close,
            members,
        } => (
            *open,
            *close,
            members
                .iter()
                .map(|m| (m.key_start, m.value.end()))
                .collect(),
        ),
        Node::Array {
            open,
            close,
            elements,
        } => (
            *open,
            *close,
            elements.iter().map(|e| (e.start(), e.end())).collect(),
        ),
        _ => return text.to_string(),
    };
    let Some(&(start, end)) = spans.get(index) else {
        return text.to_string();
    };
    let (from, to) = if index > 0 {
        (spans[index - 1].1, end)
    } else if let Some(&(next_start, _)) = spans.get(1) {
        (start, next_start)
    } else {
        let own = line_indent(text, open);
        let closing = format!("{}{own}", layout.newline);
        let to = if layout.unit.is_some() && text[end..close] == closing {
            close
        } else {
            end
        };
        (open + 1, to)
    };
    format!("{}{}", &text[..from], &text[to..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Json {
        Json::Obj(vec![
            ("matcher", Json::Str("Edit".into())),
            (
                "hooks",
                Json::Arr(vec![Json::Obj(vec![("timeout", Json::Num(3))])]),
            ),
        ])
    }

    /// Inserts at `path` (object keys) then removes, checking both texts.
    fn round_trip(text: &str, key: Option<&str>, want: &str) {
        let root = parse(text).unwrap();
        let container = match key {
            Some(_) => &root,
            None => root.get("list").unwrap(),
        };
        let inserted = insert(text, &root, container, key, &entry()).apply(text);
        assert_eq!(inserted, want);
        let again = parse(&inserted).unwrap();
        let container = match key {
            Some(_) => &again,
            None => again.get("list").unwrap(),
        };
        let last = match container {
            Node::Object { members, .. } => members.len() - 1,
            _ => container.elements().len() - 1,
        };
        assert_eq!(remove(&inserted, &again, container, last), text);
    }

    #[test]
    fn a_member_goes_in_and_out_byte_for_byte() {
        round_trip(
            "{\n    \"a\": 1 // kept\n}\n",
            Some("k"),
            "{\n    \"a\": 1,\n    \"k\": {\n        \"matcher\": \"Edit\",\n        \"hooks\": [\n            {\n                \"timeout\": 3\n            }\n        ]\n    } // kept\n}\n",
        );
        round_trip(
            "{}\n",
            Some("k"),
            "{\n  \"k\": {\n    \"matcher\": \"Edit\",\n    \"hooks\": [\n      {\n        \"timeout\": 3\n      }\n    ]\n  }\n}\n",
        );
        round_trip(
            "{\"a\": 1}",
            Some("k"),
            "{\"a\": 1, \"k\": {\"matcher\": \"Edit\", \"hooks\": [{\"timeout\": 3}]}}",
        );
    }

    #[test]
    fn an_element_goes_in_and_out_byte_for_byte() {
        round_trip(
            "{\n\t\"list\": [\n\t\t1\n\t]\n}",
            None,
            "{\n\t\"list\": [\n\t\t1,\n\t\t{\n\t\t\t\"matcher\": \"Edit\",\n\t\t\t\"hooks\": [\n\t\t\t\t{\n\t\t\t\t\t\"timeout\": 3\n\t\t\t\t}\n\t\t\t]\n\t\t}\n\t]\n}",
        );
    }

    #[test]
    fn a_value_is_replaced_in_place_and_the_last_key_is_read() {
        let text =
            "{\n  \"list\": [\n    1,\n    {\"old\": 2},\n    3\n  ],\n  \"list\": [] // end\n}\n";
        let root = parse(text).unwrap();
        assert_eq!(root.get("list").map(|l| l.elements().len()), Some(0));
        let first = &root.members()[0].value;
        let replaced = replace(text, &root, &first.elements()[1], &entry());
        assert_eq!(
            replaced,
            "{\n  \"list\": [\n    1,\n    {\n      \"matcher\": \"Edit\",\n      \"hooks\": [\n        {\n          \
             \"timeout\": 3\n        }\n      ]\n    },\n    3\n  ],\n  \"list\": [] // end\n}\n"
        );
        assert_eq!(line_of(text, text.find("3\n").unwrap()), 5);
    }

    #[test]
    fn what_is_not_json_is_said_with_its_line() {
        assert_eq!(
            parse("{\n \"a\": tru\n}").unwrap_err(),
            "line 2: not a JSON value"
        );
        assert_eq!(
            parse("{\"a\": 1,}").unwrap_err(),
            "line 1: a key should be here"
        );
        assert_eq!(
            parse("[1] x").unwrap_err(),
            "line 1: text after the JSON value"
        );
        assert!(parse(&"[".repeat(10_000)).is_err());
    }
}
