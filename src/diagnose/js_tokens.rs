//! *Pure.* A JavaScript (and TypeScript) text read as tokens, as far as
//! the statement-join check ([`super::doubt_asi`]) needs: words, numbers,
//! strings, template literals (their `${..}` read as code), regular
//! expression literals (told from a division by the token before the
//! `/`), punctuators, each with its line and the bracket it stands in;
//! comments and white space read past. A text this reading cannot follow
//! (a string or a comment left open, brackets that do not pair, a regular
//! expression over a line's end) gives `None`: no judgment is made on it.

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A name or a keyword (`#private` too).
    Word,
    /// A numeric literal.
    Number,
    /// A `'..'` or `".."` string.
    Str,
    /// A template literal's last part (a whole template without `${`, or
    /// the part after its last `}`): the template ends here.
    TemplateEnd,
    /// A template literal's part before a `${` (the template goes on).
    TemplateHead,
    /// A regular expression literal.
    Regex,
    /// An operator or a bracket.
    Punct,
}

/// The bracket a token stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Context {
    /// No bracket: the file's top level.
    Top,
    /// A `{`, opened after the token `head` (an index into the tokens;
    /// `None`: at the file's start).
    Brace(Option<usize>),
    /// A `(` or a `[`.
    Group,
    /// A template literal's `${..}`.
    Interp,
}

/// One token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    /// What it is.
    pub kind: Kind,
    /// Its text (a string or template part with its quotes).
    pub text: &'a str,
    /// Its line (0-based; a token over lines: the line it starts on).
    pub line: usize,
    /// The line it ends on.
    pub end_line: usize,
    /// The bracket it stands in (a closer: the one around its pair).
    pub context: Context,
    /// For a `)` or a `}`: the index of the token before its `(` or `{`.
    pub head: Option<usize>,
}

/// Words after which a `/` starts a regular expression, not a division.
const REGEX_AFTER: [&str; 14] = [
    "return",
    "typeof",
    "instanceof",
    "in",
    "of",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// The operators of more than one character, longest first.
const OPERATORS: [&str; 33] = [
    ">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=", "=>", "==", "!=",
    "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    "**", "<<", ">>",
];

/// The tokens of `text`, or `None` where the reading cannot follow it
/// (see the module).
pub fn tokens(text: &str) -> Option<Vec<Token<'_>>> {
    Scanner {
        text,
        at: 0,
        line: 0,
        out: Vec::new(),
        stack: Vec::new(),
    }
    .run()
}

/// An open bracket: its character, and the [`Context`] it makes.
type Open = (char, Context);

struct Scanner<'a> {
    text: &'a str,
    at: usize,
    line: usize,
    out: Vec<Token<'a>>,
    /// The brackets open around the reading, with the index of the `(`
    /// token for a `(` (its closer's head is the token before it).
    stack: Vec<(Open, usize)>,
}

impl<'a> Scanner<'a> {
    fn run(mut self) -> Option<Vec<Token<'a>>> {
        if self.text.starts_with("#!") {
            self.at = self.text.find('\n').unwrap_or(self.text.len());
        }
        while let Some(c) = self.peek() {
            match c {
                '\n' => {
                    self.line += 1;
                    self.at += 1;
                }
                c if c.is_whitespace() || c == '\u{feff}' => self.at += c.len_utf8(),
                '/' if self.rest().starts_with("//") => {
                    self.at += self.rest().find('\n').unwrap_or(self.rest().len());
                }
                '/' if self.rest().starts_with("/*") => {
                    let end = self.rest()[2..].find("*/")? + 4;
                    self.line += self.rest()[..end].matches('\n').count();
                    self.at += end;
                }
                '\'' | '"' => self.string(c)?,
                '`' => self.template(1)?,
                '/' if self.regex_may_start() => self.regex()?,
                c if c.is_ascii_digit() => self.number(),
                '.' if self.rest()[1..].starts_with(|d: char| d.is_ascii_digit()) => self.number(),
                c if starts_word(c) => self.word(),
                '}' if matches!(self.stack.last(), Some(((_, Context::Interp), _))) => {
                    self.stack.pop();
                    self.template(1)?;
                }
                _ => self.punct(c)?,
            }
        }
        self.stack.is_empty().then_some(self.out)
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn context(&self) -> Context {
        self.stack.last().map_or(Context::Top, |((_, c), _)| *c)
    }

    /// Pushes a token of `len` bytes from `start` (the reading moved past it).
    fn push(&mut self, kind: Kind, start: usize, start_line: usize, head: Option<usize>) {
        self.out.push(Token {
            kind,
            text: &self.text[start..self.at],
            line: start_line,
            end_line: self.line,
            context: self.context(),
            head,
        });
    }

    fn string(&mut self, quote: char) -> Option<()> {
        let (start, line) = (self.at, self.line);
        let mut chars = self.rest().char_indices().skip(1);
        loop {
            let (i, c) = chars.next()?;
            match c {
                '\\' => {
                    let (_, escaped) = chars.next()?;
                    if escaped == '\n' {
                        self.line += 1;
                    } else if escaped == '\r' {
                        // `\` CRLF: the LF is the line's end.
                        if self.rest()[i + 2..].starts_with('\n') {
                            chars.next();
                            self.line += 1;
                        }
                    }
                }
                '\n' => return None,
                c if c == quote => {
                    self.at += i + 1;
                    break;
                }
                _ => {}
            }
        }
        self.push(Kind::Str, start, line, None);
        Some(())
    }

    /// Reads a template literal's part from `skip` bytes on (past its
    /// opening `` ` `` or `}`) to its `` ` `` or `${`.
    fn template(&mut self, skip: usize) -> Option<()> {
        let (start, line) = (self.at, self.line);
        let mut chars = self.rest().char_indices().skip(skip);
        loop {
            let (i, c) = chars.next()?;
            match c {
                // An escaped line end is a line end all the same.
                '\\' if chars.next()?.1 == '\n' => self.line += 1,
                '\\' => {}
                '\n' => self.line += 1,
                '`' => {
                    self.at += i + 1;
                    self.push(Kind::TemplateEnd, start, line, None);
                    return Some(());
                }
                '$' if self.rest()[i + 1..].starts_with('{') => {
                    self.at += i + 2;
                    self.push(Kind::TemplateHead, start, line, None);
                    self.stack.push((('$', Context::Interp), self.out.len()));
                    return Some(());
                }
                _ => {}
            }
        }
    }

    /// Whether a `/` here starts a regular expression: by the token
    /// before it, as a JavaScript reader tells them apart.
    fn regex_may_start(&self) -> bool {
        let Some(last) = self.out.last() else {
            return true;
        };
        match last.kind {
            Kind::Word => REGEX_AFTER.contains(&last.text),
            Kind::Punct => !matches!(last.text, ")" | "]" | "++" | "--"),
            Kind::TemplateHead => true,
            _ => false,
        }
    }

    fn regex(&mut self) -> Option<()> {
        let (start, line) = (self.at, self.line);
        let mut class = false;
        let mut chars = self.rest().char_indices().skip(1);
        loop {
            let (i, c) = chars.next()?;
            match c {
                '\\' => {
                    chars.next()?;
                }
                '\n' => return None,
                '[' => class = true,
                ']' => class = false,
                '/' if !class => {
                    self.at += i + 1;
                    break;
                }
                _ => {}
            }
        }
        let flags = self.rest().len()
            - self
                .rest()
                .trim_start_matches(|c: char| c.is_ascii_alphabetic())
                .len();
        self.at += flags;
        self.push(Kind::Regex, start, line, None);
        Some(())
    }

    fn number(&mut self) {
        let (start, line) = (self.at, self.line);
        let mut last = ' ';
        let len = self
            .rest()
            .char_indices()
            .find(|&(i, c)| {
                let exponent_sign = matches!(c, '+' | '-')
                    && matches!(last, 'e' | 'E')
                    && !self.rest()[..i].starts_with("0x")
                    && !self.rest()[..i].starts_with("0X");
                last = c;
                !(c.is_ascii_alphanumeric() || c == '_' || c == '.' || exponent_sign)
            })
            .map_or(self.rest().len(), |(i, _)| i);
        self.at += len;
        self.push(Kind::Number, start, line, None);
    }

    fn word(&mut self) {
        let (start, line) = (self.at, self.line);
        let len = self
            .rest()
            .char_indices()
            .skip(1)
            .find(|&(_, c)| !continues_word(c))
            .map_or(self.rest().len(), |(i, _)| i);
        self.at += len;
        self.push(Kind::Word, start, line, None);
    }

    fn punct(&mut self, c: char) -> Option<()> {
        let (start, line) = (self.at, self.line);
        let len = OPERATORS
            .iter()
            .find(|op| self.rest().starts_with(*op))
            .map_or(c.len_utf8(), |op| op.len());
        self.at += len;
        match c {
            '(' | '[' | '{' => {
                let context = match c {
                    '{' => Context::Brace(self.out.len().checked_sub(1)),
                    _ => Context::Group,
                };
                self.push(Kind::Punct, start, line, None);
                self.stack.push(((c, context), self.out.len() - 1));
            }
            ')' | ']' | '}' => {
                let ((open, _), opener) = self.stack.pop()?;
                let pair = match open {
                    '(' => ')',
                    '[' => ']',
                    '{' => '}',
                    _ => return None,
                };
                if pair != c {
                    return None;
                }
                let head = (c != ']').then(|| opener.checked_sub(1)).flatten();
                self.push(Kind::Punct, start, line, head);
            }
            _ => self.push(Kind::Punct, start, line, None),
        }
        Some(())
    }
}

/// Whether `c` starts a name (`#` a private one, `\` a name's escape).
fn starts_word(c: char) -> bool {
    c.is_alphabetic()
        || matches!(c, '_' | '$' | '#' | '\\')
        || (!c.is_ascii() && c.is_alphanumeric())
}

/// Whether `c` continues a name (a combining accent, a joiner too).
pub fn continues_word(c: char) -> bool {
    c.is_alphanumeric()
        || matches!(c, '_' | '$' | '\\' | '\u{200c}' | '\u{200d}')
        || unicode_normalization::char::is_combining_mark(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Option<Vec<(Kind, &str, usize)>> {
        tokens(text).map(|t| t.iter().map(|t| (t.kind, t.text, t.line)).collect())
    }

    #[test]
    fn strings_templates_regexes_and_comments_are_read_as_javascript_does() {
        use Kind::*;
        assert_eq!(
            kinds("a = `x${b + `y`}z`\n/* c\n */ r = /[/]x/g // d\n'e\\\nf'").expect("read"),
            vec![
                (Word, "a", 0),
                (Punct, "=", 0),
                (TemplateHead, "`x${", 0),
                (Word, "b", 0),
                (Punct, "+", 0),
                (TemplateEnd, "`y`", 0),
                (TemplateEnd, "}z`", 0),
                (Word, "r", 2),
                (Punct, "=", 2),
                (Regex, "/[/]x/g", 2),
                (Str, "'e\\\nf'", 3),
            ]
        );
        // A division after a name or a closer, a number's exponent.
        assert_eq!(
            kinds("x = a / b / (c) / 1e-3").expect("read")[3..6].to_vec(),
            vec![(Punct, "/", 0), (Word, "b", 0), (Punct, "/", 0)]
        );
        assert_eq!(kinds("1e-3").expect("read"), vec![(Number, "1e-3", 0)]);
        // What the reading cannot follow.
        assert_eq!(kinds("a = 'open\nb"), None);
        assert_eq!(kinds("f(a]"), None);
        assert_eq!(kinds("/* open"), None);
        assert_eq!(kinds("`open ${a"), None);
    }

    #[test]
    fn a_closing_paren_knows_the_token_before_its_opener() {
        let t = tokens("if (a(b)) c").expect("read");
        let closer = t.iter().rposition(|t| t.text == ")").expect("a )");
        assert_eq!(t[closer].head.map(|h| t[h].text), Some("if"));
        let inner = t.iter().position(|t| t.text == ")").expect("a )");
        assert_eq!(t[inner].head.map(|h| t[h].text), Some("a"));
        assert_eq!(t[inner].context, Context::Group);
    }
}
