//! *Pure.* An edit that leaves a Python dict display or a JavaScript /
//! TypeScript object literal holding one key twice (a tester's find, round
//! 41a, 03: `"debug": True` added above the existing `"debug": False` of a
//! settings dict; the later key wins in Python and in JavaScript without a
//! word, so the model's new value has no effect), or an object literal
//! defining one method twice (round 41a, 05: `post(url, body) { .. }` added
//! again to an API client's literal: the later one runs, the model's fix is
//! dead code). The twin of [`super::doubt_redefine`]'s YAML and JSON keys;
//! checked against Python's `ast` and Node
//! (`tests/fixtures/trust/pydupe/record.py`).
//!
//! The rule, by evidence only:
//! - the file: Python as [`super::file_kind`] tells one; JavaScript and
//!   TypeScript by the extension (`.js .mjs .cjs .jsx .ts .tsx .mts .cts`);
//! - read outside strings and comments (Python: `#`, `'..'`, `".."`,
//!   triple-quoted strings with their prefixes; JavaScript: `//`, `/* */`,
//!   `'..'`, `".."`, template literals with their `${..}`, regular
//!   expression literals told from a division by what precedes the `/`). A
//!   text whose reading goes wrong (a one-line string left open at its
//!   line's end, as JSX text's `Don't` does, a bracket closing another's
//!   opener, brackets left open at the end) is not judged;
//! - a literal is a Python `{..}` (a dict display: a comprehension, told
//!   by a `for` at its own level, is not read), or a JavaScript `{` after
//!   `=`, `(`, `,`, `:`, `[`, `?`, `=>(`-less operators (`||`, `&&`, `??`,
//!   `!`, `...`) or the words `return`, `default`, `yield`, `await`,
//!   `typeof`: an object literal, not a block, class body, destructuring
//!   declaration or import list;
//! - a key is the start of a member (after the `{` or a `,` at the
//!   literal's own level): a plain string literal followed by `:`
//!   (Python: no `b` or `f` prefix; escapes other than `\'`, `\"` and
//!   `\\` make the key unread); in JavaScript also a name followed by `:`,
//!   `,` or `}` (shorthand), and a method `name(` (with `async` or `*`
//!   before it); `get NAME(` and `set NAME(` are counted apart (a getter
//!   beside its setter is meant). `"a"`, `'a'` and `a` are one key. Not
//!   read: computed keys `[k]`, numbers, variables as Python keys, string
//!   concatenation;
//! - a spread between two copies (`{"a": 1, **base, "a": 2}`, `{a: 1,
//!   ...base, a: 2}`) does not excuse them: the earlier value is lost
//!   whatever `base` holds;
//! - doubted: the file as the edit leaves it has a key twice or more in
//!   one literal, one of them on a line the edit changed, more often than
//!   the file before had it in literals opening on the same text (a
//!   literal that held the key twice already is not the edit's doing).
//!
//! Not caught: a key given again through `dict(a=1, **x)`, `Object.assign`,
//! `obj.key = ` after the literal; JSX's `style={{ .. }}` (the inner
//! literal follows a `{`, read as a block).

use super::doubt_redefine::key_twice_said;
use super::file_kind::FileKind;
use crate::textdiff::changed_lines;
use std::collections::HashMap;

/// The languages this check reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    /// A Python dict display.
    Python,
    /// A JavaScript object literal.
    JavaScript,
    /// A TypeScript object literal.
    TypeScript,
}

impl Literal {
    /// The language of the file `path` as an edit leaves it (`result`),
    /// `original` before.
    pub fn of(path: &str, original: &str, result: &str) -> Option<Literal> {
        if FileKind::of_edit(path, original, result) == FileKind::Python {
            return Some(Literal::Python);
        }
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        match name.rsplit_once('.').map(|(_, e)| e) {
            Some("js" | "mjs" | "cjs" | "jsx") => Some(Literal::JavaScript),
            Some("ts" | "tsx" | "mts" | "cts") => Some(Literal::TypeScript),
            _ => None,
        }
    }
}

/// A key one literal holds twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiteralKey {
    /// The file's language.
    pub lang: Literal,
    /// The key (its value: quotes taken off).
    pub key: String,
    /// The line (1-based) of the literal's `{`, and its text trimmed.
    pub holder: (usize, String),
    /// The two copies' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
    /// Both copies are methods or functions (`post() {..}`, `post:
    /// function`, `post: () =>`): a definition, not a value.
    pub method: bool,
    /// The edit creates the file: there is no key there to change.
    pub created: bool,
}

impl LiteralKey {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let what = if self.method { "method" } else { "key" };
        key_twice_said(self.fault(), what, self.created)
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let (line, text) = &self.holder;
        let literal = match self.lang {
            Literal::Python => "dict",
            _ => "object literal",
        };
        let at = if earlier == later {
            format!("on line {earlier}")
        } else {
            format!("at lines {earlier} and {later}")
        };
        let what = if self.method {
            format!("defines the method `{}`", self.key)
        } else {
            format!("has the key `{}`", self.key)
        };
        let keeps = match self.lang {
            Literal::Python => "Python keeps",
            Literal::JavaScript => "JavaScript keeps",
            Literal::TypeScript => {
                "tsc refuses it (TS1117, properties of the same name), and run as JavaScript it \
                 keeps"
            }
        };
        let lost = if self.method {
            format!("the one at line {earlier} never runs")
        } else {
            format!("the value at line {earlier} is lost")
        };
        let later_one = if self.method { "one" } else { "value" };
        format!(
            "as written, the file {what} twice in the {literal} of line {line} (`{text}`), {at}: \
             {keeps} the later {later_one} (line {later}) without a word, and {lost}"
        )
    }
}

/// One key a literal holds: its value, its line (0-based), whether it is
/// a method or function, and its role (`get`, `set`, `""` for a plain
/// member).
#[derive(Debug, Clone)]
struct Member {
    key: String,
    line: usize,
    method: bool,
    role: &'static str,
}

/// A literal read whole: its `{`'s line (0-based) and its members.
#[derive(Debug)]
struct Read {
    open: usize,
    members: Vec<Member>,
}

/// A token's text, held in place when short (a file's words are read
/// without a heap allocation each).
#[derive(Debug, Clone)]
enum Text {
    /// Up to 22 bytes, and their length.
    Inline([u8; 22], u8),
    Heap(String),
}

impl Text {
    fn of_chars(chars: &[char]) -> Text {
        let mut buf = [0u8; 22];
        let mut len = 0;
        for c in chars {
            let width = c.len_utf8();
            if len + width > buf.len() {
                return Text::Heap(chars.iter().collect());
            }
            c.encode_utf8(&mut buf[len..]);
            len += width;
        }
        Text::Inline(buf, len as u8)
    }

    fn as_str(&self) -> &str {
        match self {
            Text::Inline(buf, len) => std::str::from_utf8(&buf[..*len as usize]).unwrap_or(""),
            Text::Heap(s) => s,
        }
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

/// A token of the reading.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    /// A name or a number.
    Word(Text),
    /// A string literal: its value, `None` when not read as a key.
    Str(Option<Text>),
    /// Punctuation: one of `{}()[],:;?` or an operator run (`=>`, `...`,
    /// `**`, `=`).
    Punct(Text),
    /// A regular expression or a template literal (JavaScript).
    Other,
}

/// An open bracket of the reading.
#[derive(Debug)]
struct Frame {
    /// `{`, `(`, `[`, or `$` for a template literal's `${`.
    open: char,
    /// A literal whose keys are read (a dict, an object literal).
    literal: bool,
    /// Its `{`'s line (0-based).
    line: usize,
    /// The tokens of the member being read, from its start (up to 3).
    head: Vec<(Tok, usize)>,
    /// Whether the head is still being gathered (the member's start).
    gathering: bool,
    members: Vec<Member>,
    /// A Python comprehension's `for` was met at its level.
    comprehension: bool,
}

impl Frame {
    fn new(open: char, literal: bool, line: usize) -> Frame {
        Frame {
            open,
            literal,
            line,
            head: Vec::new(),
            gathering: literal,
            members: Vec::new(),
            comprehension: false,
        }
    }
}

/// Words after which a JavaScript `{` opens an object literal.
const JS_VALUE_WORDS: [&str; 8] = [
    "return", "default", "yield", "await", "typeof", "case", "in", "of",
];

/// Punctuation after which a JavaScript `/` starts a regular expression
/// and `{` an object literal (most of it).
fn js_operand_expected(prev: Option<&Tok>) -> bool {
    match prev {
        None => true,
        Some(Tok::Punct(p)) => !matches!(p.as_str(), ")" | "]" | "}"),
        Some(Tok::Word(w)) => JS_VALUE_WORDS.contains(&w.as_str()),
        Some(_) => false,
    }
}

/// Whether a JavaScript `{` after `prev`, in `top`, opens an object
/// literal (see the module): not after `;`, `)`, `]`, `}`, `{`, `=>` (a
/// block, a function's body), a name or a keyword other than
/// [`JS_VALUE_WORDS`] (`class A {`, `else {`, `const {`, `import {`),
/// nor at the text's start; after `:` only inside a literal or brackets
/// (`case 1: {` and a label's `a: {` open blocks).
fn js_object_opens(prev: Option<&Tok>, top: Option<&Frame>) -> bool {
    match prev {
        Some(Tok::Punct(p)) if *p == ":" => top.is_some_and(|f| f.literal || f.open != '{'),
        Some(Tok::Punct(p)) => !matches!(p.as_str(), ";" | ")" | "]" | "}" | "=>" | "{"),
        Some(Tok::Word(w)) => JS_VALUE_WORDS.contains(&w.as_str()) && *w != "case",
        _ => false,
    }
}

/// The reader: one pass over a text, char by char.
struct Reader<'a> {
    lang: Literal,
    chars: Vec<char>,
    at: usize,
    line: usize,
    prev: Option<Tok>,
    stack: Vec<Frame>,
    done: Vec<Read>,
    lines: std::marker::PhantomData<&'a ()>,
}

/// Decodes a string literal's body for a key: only `\'`, `\"`, `\\`
/// escapes; `None` for others (a key whose value srview would guess).
fn decode(body: &[char], raw: bool) -> Option<Text> {
    if raw || !body.contains(&'\\') {
        return Some(Text::of_chars(body));
    }
    let mut out = String::new();
    let mut chars = body.iter().copied();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next()? {
                e @ ('\'' | '"' | '\\') => out.push(e),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(Text::Heap(out))
}

impl Reader<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.at + ahead).copied()
    }

    /// Reads a quoted string from `self.at` (its quote), the prefix
    /// letters before it given; `None` when it is left open where its
    /// language ends it (the reading is not trusted).
    fn string(&mut self, prefix: &str) -> Option<Tok> {
        let quote = self.chars[self.at];
        let triple = self.lang == Literal::Python
            && self.peek(1) == Some(quote)
            && self.peek(2) == Some(quote);
        let width = if triple { 3 } else { 1 };
        self.at += width;
        let start = self.at;
        loop {
            let c = self.peek(0)?;
            if c == '\\' {
                if self.peek(1) == Some('\n') {
                    self.line += 1;
                }
                self.at += 2;
                continue;
            }
            if c == '\n' {
                if !triple {
                    return None;
                }
                self.line += 1;
            }
            if c == quote
                && (!triple || (self.peek(1) == Some(quote) && self.peek(2) == Some(quote)))
            {
                let body = &self.chars[start..self.at];
                self.at += width;
                let lower = prefix.to_ascii_lowercase();
                let plain = !triple && !lower.contains('b') && !lower.contains('f');
                let value = plain.then(|| decode(body, lower.contains('r'))).flatten();
                return Some(Tok::Str(value));
            }
            self.at += 1;
        }
    }

    /// Reads a JavaScript template literal from `self.at` (its backquote)
    /// up to its end or its first `${` (a frame is pushed).
    fn template(&mut self) -> Option<()> {
        self.at += 1;
        loop {
            let c = self.peek(0)?;
            match c {
                '\\' => {
                    if self.peek(1) == Some('\n') {
                        self.line += 1;
                    }
                    self.at += 2;
                }
                '`' => {
                    self.at += 1;
                    return Some(());
                }
                '$' if self.peek(1) == Some('{') => {
                    self.at += 2;
                    self.stack.push(Frame::new('$', false, self.line));
                    self.prev = None;
                    return Some(());
                }
                '\n' => {
                    self.line += 1;
                    self.at += 1;
                }
                _ => self.at += 1,
            }
        }
    }

    /// Reads a JavaScript regular expression from `self.at` (its `/`);
    /// `None` when its line ends first.
    fn regex(&mut self) -> Option<()> {
        self.at += 1;
        let mut class = false;
        loop {
            match self.peek(0)? {
                '\\' => self.at += 1,
                '\n' => return None,
                '[' => class = true,
                ']' => class = false,
                '/' if !class => {
                    self.at += 1;
                    while self.peek(0).is_some_and(|c| c.is_alphanumeric()) {
                        self.at += 1;
                    }
                    return Some(());
                }
                _ => {}
            }
            self.at += 1;
        }
    }

    /// Gives a token to the frame on top: a member's start is gathered,
    /// a `,` at its level starts the next.
    fn token(&mut self, tok: Tok) {
        let line = self.line;
        let lang = self.lang;
        if let Some(frame) = self.stack.last_mut() {
            if lang == Literal::Python && matches!(&tok, Tok::Word(w) if *w == "for") {
                frame.comprehension = true;
            }
            if frame.literal {
                if matches!(&tok, Tok::Punct(p) if *p == ",") {
                    member(lang, frame, true);
                    frame.head.clear();
                    frame.gathering = true;
                } else if frame.gathering {
                    frame.head.push((tok.clone(), line));
                    if frame.head.len() >= 4 {
                        member(lang, frame, false);
                    }
                }
            }
        }
        self.prev = Some(tok);
    }

    fn read(mut self) -> Option<Vec<Read>> {
        while let Some(c) = self.peek(0) {
            let python = self.lang == Literal::Python;
            match c {
                '\n' => {
                    self.line += 1;
                    self.at += 1;
                }
                c if c.is_whitespace() => self.at += 1,
                '#' if python => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                }
                '/' if !python && self.peek(1) == Some('/') => {
                    while self.peek(0).is_some_and(|c| c != '\n') {
                        self.at += 1;
                    }
                }
                '/' if !python && self.peek(1) == Some('*') => {
                    self.at += 2;
                    while !(self.peek(0) == Some('*') && self.peek(1) == Some('/')) {
                        if self.peek(0)? == '\n' {
                            self.line += 1;
                        }
                        self.at += 1;
                    }
                    self.at += 2;
                }
                '/' if !python && js_operand_expected(self.prev.as_ref()) => {
                    self.regex()?;
                    self.token(Tok::Other);
                }
                '\'' | '"' => {
                    let tok = self.string("")?;
                    self.token(tok);
                }
                '`' if !python => {
                    self.template()?;
                    if self.stack.last().is_none_or(|f| f.open != '$') {
                        self.token(Tok::Other);
                    }
                }
                c if c.is_alphanumeric() || c == '_' || c == '$' => {
                    let start = self.at;
                    while self
                        .peek(0)
                        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
                    {
                        self.at += 1;
                    }
                    let word = Text::of_chars(&self.chars[start..self.at]);
                    let quote = self.peek(0).filter(|q| *q == '\'' || *q == '"');
                    let prefix = word.as_str().len() <= 2
                        && word
                            .as_str()
                            .chars()
                            .all(|c| matches!(c.to_ascii_lowercase(), 'r' | 'b' | 'u' | 'f'));
                    if python && quote.is_some() && prefix {
                        let tok = self.string(word.as_str())?;
                        self.token(tok);
                    } else {
                        self.token(Tok::Word(word));
                    }
                }
                '{' | '(' | '[' => {
                    let literal = match (c, python) {
                        ('{', true) => true,
                        ('{', false) => js_object_opens(self.prev.as_ref(), self.stack.last()),
                        _ => false,
                    };
                    self.token(Tok::Punct(Text::of_chars(&[c])));
                    self.stack.push(Frame::new(c, literal, self.line));
                    self.prev = Some(Tok::Punct(Text::of_chars(&[c])));
                    self.at += 1;
                }
                '}' | ')' | ']' => {
                    let frame = self.stack.pop()?;
                    let wanted = match frame.open {
                        '{' | '$' => '}',
                        '(' => ')',
                        _ => ']',
                    };
                    if c != wanted {
                        return None;
                    }
                    self.at += 1;
                    if frame.open == '$' {
                        // Back in the template literal.
                        self.at -= 1;
                        self.template()?;
                        if self.stack.last().is_none_or(|f| f.open != '$') {
                            self.prev = Some(Tok::Other);
                            continue;
                        }
                        continue;
                    }
                    let mut frame = frame;
                    if frame.literal {
                        member(self.lang, &mut frame, true);
                        if !frame.comprehension {
                            self.done.push(Read {
                                open: frame.line,
                                members: frame.members,
                            });
                        }
                    }
                    self.token(Tok::Punct(Text::of_chars(&[c])));
                }
                _ => {
                    // Punctuation: a run of operator characters.
                    let start = self.at;
                    let single = matches!(c, ',' | ':' | ';' | '?');
                    self.at += 1;
                    if !single {
                        while self.peek(0).is_some_and(|c| {
                            matches!(
                                c,
                                '=' | '>'
                                    | '<'
                                    | '!'
                                    | '&'
                                    | '|'
                                    | '*'
                                    | '+'
                                    | '-'
                                    | '.'
                                    | '%'
                                    | '^'
                                    | '~'
                                    | '@'
                            )
                        }) {
                            self.at += 1;
                        }
                    }
                    let p = Text::of_chars(&self.chars[start..self.at]);
                    self.token(Tok::Punct(p));
                }
            }
        }
        self.stack.is_empty().then_some(self.done)
    }
}

/// Reads the head gathered of `frame`'s current member as a key, if it
/// is one (see the module); `ended`: the member's text is over (a `,` or
/// the closing `}` came).
fn member(lang: Literal, frame: &mut Frame, ended: bool) {
    if !frame.gathering {
        return;
    }
    frame.gathering = false;
    let head = std::mem::take(&mut frame.head);
    let punct = |i: usize, p: &str| matches!(head.get(i), Some((Tok::Punct(q), _)) if *q == p);
    let name = |i: usize| -> Option<String> {
        match head.get(i) {
            Some((Tok::Str(Some(s)), _)) => Some(s.as_str().to_string()),
            Some((Tok::Word(w), _)) if lang != Literal::Python => {
                let first = w.as_str().chars().next()?;
                (!first.is_ascii_digit()).then(|| w.as_str().to_string())
            }
            _ => None,
        }
    };
    let Some((_, line)) = head.first() else {
        return;
    };
    let line = *line;
    // `key: value`: a function as the value is a method too.
    if let Some(key) = name(0).filter(|_| punct(1, ":")) {
        let function = match head.get(2) {
            Some((Tok::Word(w), _)) => *w == "function" || *w == "async",
            Some((Tok::Punct(p), _)) => *p == "(" && lang != Literal::Python,
            _ => false,
        };
        frame.members.push(Member {
            key,
            line,
            method: function,
            role: "",
        });
        return;
    }
    if lang == Literal::Python {
        return;
    }
    // Shorthand `{a, b}`.
    if let Some(key) = name(0).filter(|_| ended && head.len() == 1) {
        frame.members.push(Member {
            key,
            line,
            method: false,
            role: "",
        });
        return;
    }
    // Methods: `name(`, `async name(`, `*name(`, `get name(`.
    let mut i = 0;
    let mut role = "";
    match head.first() {
        Some((Tok::Word(w), _)) if *w == "async" && name(1).is_some() => i = 1,
        Some((Tok::Word(w), _)) if (*w == "get" || *w == "set") && name(1).is_some() => {
            role = if *w == "get" { "get" } else { "set" };
            i = 1;
        }
        Some((Tok::Punct(p), _)) if *p == "*" => i = 1,
        _ => {}
    }
    if i == 1 && punct(1, "*") {
        i = 2;
    }
    if let Some(key) = name(i).filter(|_| punct(i + 1, "(")) {
        frame.members.push(Member {
            key,
            line,
            method: true,
            role,
        });
    }
}

/// The texts of `line` that may be keys, by their shape alone (a cheap
/// filter, not the reading): a quoted text before a `:`; in JavaScript
/// also a name before a `:` or `(`, or one between `{`/`,`/the line's start
/// and `,`/`}`/the line's end (shorthand).
fn key_shapes(lang: Literal, line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let next = |from: usize| line[from..].trim_start().bytes().next();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\'' || c == b'"' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && bytes[j] != c {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            let end = j.min(bytes.len());
            if next((end + 1).min(bytes.len())) == Some(b':') {
                out.push(&line[start..end]);
            }
            i = end + 1;
            continue;
        }
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80;
        if lang != Literal::Python && word(c) {
            let start = i;
            while i < bytes.len() && word(bytes[i]) {
                i += 1;
            }
            let before = line[..start].trim_end().bytes().next_back();
            let after = next(i);
            let keyed = matches!(after, Some(b':' | b'('));
            let shorthand = matches!(before, None | Some(b'{' | b','))
                && matches!(after, None | Some(b',' | b'}'));
            if keyed || shorthand {
                out.push(&line[start..i]);
            }
            continue;
        }
        i += 1;
    }
    out
}

/// The literals of `text` read whole; `None` where the reading goes wrong
/// (see the module).
fn literals(lang: Literal, text: &str) -> Option<Vec<Read>> {
    Reader {
        lang,
        chars: text.chars().collect(),
        at: 0,
        line: 0,
        prev: None,
        stack: Vec::new(),
        done: Vec::new(),
        lines: std::marker::PhantomData,
    }
    .read()
}

/// Per literal's opening line's text and key (and role): how many copies
/// stand beside another in one literal.
fn twice<'a>(lines: &[&'a str], read: &'a [Read]) -> HashMap<(&'a str, &'a str, &'a str), usize> {
    let mut out = HashMap::new();
    for r in read {
        let mut count: HashMap<(&str, &str), usize> = HashMap::new();
        for m in &r.members {
            *count.entry((m.key.as_str(), m.role)).or_default() += 1;
        }
        let text = lines.get(r.open).map_or("", |l| l.trim());
        for ((key, role), n) in count {
            if n > 1 {
                *out.entry((text, key, role)).or_default() += n;
            }
        }
    }
    out
}

/// The key `result` (the file `path` as an edit leaves it) holds twice in
/// one literal where `original` (the file before) did not (see the
/// module).
pub fn literal_key_twice(path: &str, original: &str, result: &str) -> Option<LiteralKey> {
    if original == result {
        return None;
    }
    let lang = Literal::of(path, original, result)?;
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    // Only a changed line holding a key's shape whose text the result holds
    // again can make a key twice: else the file is not read (an edit of a
    // 10,000-line file's `return a, b` costs a scan of its lines' words).
    let again = |key: &str| !key.is_empty() && result.match_indices(key).nth(1).is_some();
    if !new[changed.clone()]
        .iter()
        .any(|l| key_shapes(lang, l).into_iter().any(again))
    {
        return None;
    }
    let after = literals(lang, result)?;
    // The pairs with a copy on a changed line, in the file's order: the
    // file before is read only when there is one.
    let mut pairs = Vec::new();
    for r in &after {
        let mut last: HashMap<(&str, &str), &Member> = HashMap::new();
        for m in &r.members {
            if let Some(a) = last.insert((m.key.as_str(), m.role), m)
                && (changed.contains(&a.line) || changed.contains(&m.line))
            {
                pairs.push((r, a, m));
            }
        }
    }
    if pairs.is_empty() {
        return None;
    }
    let before = if original.is_empty() {
        Vec::new()
    } else {
        literals(lang, original)?
    };
    let was = twice(&old, &before);
    let now = twice(&new, &after);
    for (r, a, m) in pairs {
        let text = new.get(r.open).map_or("", |l| l.trim());
        let key = (text, m.key.as_str(), m.role);
        if now.get(&key) <= was.get(&key) {
            continue;
        }
        return Some(LiteralKey {
            lang,
            key: m.key.clone(),
            holder: (r.open + 1, text.to_string()),
            lines: (a.line + 1, m.line + 1),
            method: a.method && m.method,
            created: original.is_empty(),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Literal, LiteralKey, literal_key_twice};
    use crate::diagnose::doubt::test_edits::{after, recorded_cases};

    const CONF: &str =
        "CONFIG = {\n    \"port\": 3000,\n    \"host\": \"localhost\",\n    \"debug\": False,\n}\n";

    /// A tester's find (round 41a, 03): `"debug": True` added above the
    /// existing `"debug": False`.
    #[test]
    fn a_dict_key_added_again_is_doubted() {
        let result = after(
            CONF,
            "    \"port\": 3000,\n",
            "    \"timeout\": 5,\n    \"debug\": True,\n",
        );
        let found = literal_key_twice("cfg.py", CONF, &result);
        assert_eq!(
            found,
            Some(LiteralKey {
                lang: Literal::Python,
                key: "debug".into(),
                holder: (1, "CONFIG = {".into()),
                lines: (4, 6),
                method: false,
                created: false,
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the file has the key `debug` twice in the dict of line 1 (`CONFIG \
                 = {`), at lines 4 and 6: Python keeps the later value (line 6) without a word, \
                 and the value at line 4 is lost: change the key that is there (its line in the \
                 old text) instead of adding it again"
            )
        );
        // Not a Python or JavaScript file: not read.
        assert_eq!(literal_key_twice("cfg.txt", CONF, &result), None);
    }

    /// A tester's find (round 41a, 05): an object literal's method added
    /// again above the old one.
    #[test]
    fn an_object_literal_method_added_again_is_doubted() {
        let api = "const api = {\n  get(url) {\n    return fetch(url);\n  },\n  post(url, body) {\n    return fetch(url, { method: \"POST\", body });\n  },\n};\n";
        let result = after(
            api,
            "const api = {\n",
            "  post(url, body) {\n    return fetch(url, { method: \"POST\", body: JSON.stringify(body) });\n  },\n",
        );
        let found = literal_key_twice("api.js", api, &result).expect("doubted");
        assert_eq!(
            (found.key.as_str(), found.lines, found.method),
            ("post", (2, 8), true)
        );
        assert_eq!(
            found.describe(),
            "as written, the file defines the method `post` twice in the object literal of line \
             1 (`const api = {`), at lines 2 and 8: JavaScript keeps the later one (line 8) \
             without a word, and the one at line 2 never runs: change the method that is there \
             (its line in the old text) instead of adding it again"
        );
        let ts = literal_key_twice("api.ts", api, &result).expect("doubted");
        assert!(
            ts.fault().contains("tsc refuses it (TS1117"),
            "{}",
            ts.fault()
        );
        // The inner `{ method: .., body }` literals each hold their keys once.
        let cfg = "module.exports = {\n  port: 3000,\n  debug: false,\n};\n";
        let again = after(cfg, "  port: 3000,\n", "  debug: true,\n");
        assert_eq!(
            literal_key_twice("cfg.js", cfg, &again).map(|f| (f.key, f.lines)),
            Some(("debug".to_string(), (3, 4)))
        );
    }

    /// Readings that go wrong are not judged: a string left open at its
    /// line's end (JSX text), brackets that cross.
    #[test]
    fn a_text_misread_is_not_judged() {
        let jsx = "const a = {\n  k: 1,\n};\nconst p = <p>Don't {a}</p>;\n";
        let again = after(jsx, "  k: 1,\n", "  k: 2,\n");
        assert_eq!(literal_key_twice("a.jsx", jsx, &again), None);
        let crossed = "x = {\n    'a': 1,\n)\n";
        assert_eq!(
            literal_key_twice("a.py", "", &format!("{crossed}'a': 2}}\n")),
            None
        );
    }

    /// Whether Node's printed `value` is a string's text (not a number, a
    /// boolean or a marker of a function's).
    fn l_is_text(value: &str) -> bool {
        !(value.parse::<f64>().is_ok()
            || value == "true"
            || value == "false"
            || value.contains(' '))
    }

    /// The filter before the reading: a changed line's texts shaped as
    /// keys.
    #[test]
    fn key_shapes_are_quoted_texts_before_a_colon_and_javascript_names() {
        use super::key_shapes;
        let py = Literal::Python;
        assert_eq!(key_shapes(py, "    'a': 1, \"b\" : 2,"), ["a", "b"]);
        assert_eq!(key_shapes(py, "    return label, item.price * 3"), [""; 0]);
        assert_eq!(key_shapes(py, "    x = f('a') + d['b']"), [""; 0]);
        let js = Literal::JavaScript;
        assert_eq!(key_shapes(js, "  post(url, body) {"), ["post"]);
        assert_eq!(key_shapes(js, "  port: 3000, 'x': 1"), ["port", "x"]);
        assert_eq!(key_shapes(js, "const o = { a, b };"), ["a", "b"]);
        assert_eq!(key_shapes(js, "  return a + b;"), [""; 0]);
    }

    /// Every dict and object-literal case recorded
    /// (`tests/fixtures/trust/pydupe/record.py`: Python's `ast`, Node):
    /// srview's verdict is the one the rule expects; where it doubts,
    /// Python reads the key twice in one dict, and the value Python or
    /// Node keeps is the later copy's srview names.
    #[test]
    fn pythons_and_nodes_reading_of_literal_keys_agrees() {
        let fixture = include_str!("../../tests/fixtures/trust/pydupe/cases.json");
        let cases = recorded_cases(fixture, &["dict", "js"]);
        let dicts = cases.iter().filter(|c| c["kind"] == "dict").count();
        assert!(dicts >= 30 && cases.len() - dicts >= 15, "{}", cases.len());
        let (mut doubted, mut allowed) = (0, 0);
        for case in &cases {
            let (name, before, after, want) = case.texts();
            let python = case["kind"] == "dict";
            let path = if python { "settings.py" } else { "config.js" };
            let got = literal_key_twice(path, before, after);
            assert_eq!(got.is_some(), want, "{name}: {got:?}");
            let Some(found) = got else {
                allowed += 1;
                continue;
            };
            doubted += 1;
            let lines: Vec<&str> = after.lines().collect();
            let (earlier, later) = (found.lines.0 - 1, found.lines.1 - 1);
            if python {
                let twice = case["twice_after"].as_array().expect("python parsed it");
                assert!(twice.iter().any(|k| k == found.key.as_str()), "{name}");
            }
            // What the language kept is written from the later copy on,
            // not between the two (the value Python's repr or Node
            // printed; a function's marker).
            let kept = if python {
                case["kept"].as_str().map(str::to_string)
            } else {
                case["runs"].as_str().map(str::to_string)
            };
            let Some(kept) = kept else {
                continue;
            };
            // As a word (`u` is not in `user`), quoted either way.
            let bare = kept.trim_matches(['\'', '"']);
            let word = |l: &str| {
                l.match_indices(bare).any(|(at, _)| {
                    let before = l[..at].chars().next_back();
                    let after = l[at + bare.len()..].chars().next();
                    let edge =
                        |c: Option<char>| !c.is_some_and(|c| c.is_alphanumeric() || c == '_');
                    edge(before) && edge(after)
                })
            };
            let quoted =
                |l: &str| l.contains(&format!("'{bare}'")) || l.contains(&format!("\"{bare}\""));
            let string = python && kept.starts_with('\'') || !python && l_is_text(&kept);
            let holds = |from: usize, to: usize| {
                lines[from..to]
                    .iter()
                    .any(|l| if string { quoted(l) } else { word(l) })
            };
            assert!(
                holds(later, lines.len()),
                "{name}: {kept} not from the later one"
            );
            if earlier < later {
                assert!(
                    !holds(earlier, later),
                    "{name}: {kept} from the earlier one"
                );
            }
        }
        assert!(doubted >= 20 && allowed >= 25, "{doubted} {allowed}");
    }
}

/// The cost of the checks on a 10,000-line Python file and a 10,000-line
/// JavaScript file, an edit in the middle adding a key (run in release:
/// `cargo test --release --lib keys_cost -- --ignored --nocapture`).
#[cfg(test)]
mod cost {
    use super::literal_key_twice;
    use crate::diagnose::doubt::test_edits::check_edit;
    use crate::diagnose::layout::layout_break;
    use std::time::Instant;

    /// Runs `f` 20 times, asserts each answer, prints the time a call.
    fn time(what: &str, f: &dyn Fn() -> bool, expect: bool) {
        let runs = 20;
        let start = Instant::now();
        for _ in 0..runs {
            assert_eq!(f(), expect, "{what}");
        }
        let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(runs);
        eprintln!("{what}: {ms:.2} ms a call");
    }

    #[test]
    #[ignore = "a measurement: run in release"]
    fn keys_cost_on_10000_line_files() {
        let py = "class C{n}:\n    PORT = {n}\n    NAME: str = 'c{n}'\n\n    def f(self, a):\n        \
                  return {'port': self.PORT, 'a': a, \"s\": f\"{a}\"}\n\nD{n} = {\n    'k': [1, 2],  # {n}\n}\n";
        let python: String = (0..1000)
            .map(|n| py.replace("{n}", &n.to_string()))
            .collect();
        assert_eq!(python.lines().count(), 10_000);
        let js = "export const c{n} = {\n  port: {n},\n  \"name\": `c${'{n}'}`,\n  get(url) {\n    \
                  return fetch(url, { method: 'GET' });\n  },\n  re: /['{]/g,\n};\n// {n}\n\n";
        let javascript: String = (0..1000)
            .map(|n| js.replace("{n}", &n.to_string()))
            .collect();
        assert_eq!(javascript.lines().count(), 10_000);
        let py_again = python.replacen("    PORT = 500\n", "    PORT = 9\n    PORT = 500\n", 1);
        let py_key = python.replacen(
            "    'k': [1, 2],  # 500\n",
            "    'k': 0,\n    'k': [1, 2],  # 500\n",
            1,
        );
        let py_fine = python.replacen("    PORT = 500\n", "    PORT = 500\n    HOST = 'h'\n", 1);
        let js_key = javascript.replacen("  port: 500,\n", "  port: 9,\n  port: 500,\n", 1);
        let js_fine = javascript.replacen("  port: 500,\n", "  port: 500,\n  host: 'h',\n", 1);
        let py_value = python.replacen("    PORT = 500\n", "    PORT = 501\n", 1);
        let py_return = python.replacen("'a': a, \"s\"", "'a': a + 1, \"s\"", 1);
        time(
            "Python: layout_break (every check), a class attribute's value changed",
            &|| layout_break("a.py", &python, &py_value).is_some(),
            false,
        );
        time(
            "Python: literal_key_twice, a dict's value changed",
            &|| literal_key_twice("a.py", &python, &py_return).is_some(),
            false,
        );
        time(
            "Python: literal_key_twice, a dict key added again",
            &|| literal_key_twice("a.py", &python, &py_key).is_some(),
            true,
        );
        time(
            "Python: literal_key_twice, another key",
            &|| literal_key_twice("a.py", &python, &py_fine).is_some(),
            false,
        );
        time(
            "Python: layout_break, a class attribute added again",
            &|| layout_break("a.py", &python, &py_again).is_some(),
            true,
        );
        time(
            "Python: layout_break (every check), another attribute",
            &|| layout_break("a.py", &python, &py_fine).is_some(),
            false,
        );
        time(
            "JavaScript: layout_break (every check), a value changed",
            &|| {
                check_edit(
                    layout_break,
                    "a.js",
                    &javascript,
                    "  port: 500,\n",
                    "  port: 501,\n",
                )
                .is_some()
            },
            false,
        );
        time(
            "JavaScript: literal_key_twice, a key added again",
            &|| literal_key_twice("a.js", &javascript, &js_key).is_some(),
            true,
        );
        time(
            "JavaScript: literal_key_twice, another key",
            &|| literal_key_twice("a.js", &javascript, &js_fine).is_some(),
            false,
        );
        time(
            "JavaScript: layout_break (every check), another key",
            &|| layout_break("a.js", &javascript, &js_fine).is_some(),
            false,
        );
    }
}
