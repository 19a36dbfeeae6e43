//! *Pure.* A Terraform file (`.tf`) an edit leaves with an argument set
//! twice in one block, a top-level block declared twice, or a list's or
//! an object's item without the comma it needs (a tester's find, round
//! 49 T-01 and T-14: `terraform validate` refused each edit, srview
//! called it fine). Terraform reads a module's files whole, and stops:
//! - `Attribute redefined`: `instance_type = ..` set again in a block
//!   that has it (HCL's parser, any body);
//! - `Duplicate resource "aws_s3_bucket" configuration` (`data` too),
//!   `Duplicate variable declaration`, `Duplicate output definition`,
//!   `Duplicate module call`, `Duplicate local value definition` (a
//!   `locals` name in any `locals` block), `Duplicate provider
//!   configuration` (a `provider` of one name and one `alias`, or none);
//! - `Missing item separator` (`["a" "b"]`: a tuple's items need commas,
//!   over lines too) and `Missing attribute separator` (`{ a = 1 b = 2 }`
//!   on one line: an object's items need a comma or a new line);
//! - `Missing newline after argument` (`a = "x" b = "y"`, `a = 1, b = 2`:
//!   an argument ends at its line's end), and in a block written on one
//!   line (`resource "a" "b" { x = 1 y = 2 }`) `Invalid single-argument
//!   block definition` (conf50's leftover, terraform 1.x the referee); an
//!   object's or a tuple's item after a value that is no name, opening
//!   with `(` (`{ "x" = 1 (var.k) = 2 }`: no call, a separator missing).
//!
//! Repeatable nested blocks (`ingress`, `dynamic`, `tag`) are blocks, not
//! arguments: any number. Read as HCL's native syntax: `#`, `//` and
//! `/* */` comments, strings with `${ }` and `%{ }` templates, heredocs
//! (`<<EOF`, `<<-EOF`), `for` expressions (`[for x in y : x]`) not read
//! for separators. By evidence only: the file before reads (this reader
//! follows it and finds none of these), the file after has one.

use std::collections::HashMap;

/// What Terraform stops at in the file an edit leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HclFault {
    /// The later line (1-based).
    pub line: usize,
    /// Which fault.
    pub kind: HclKind,
}

/// The faults read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HclKind {
    /// An argument set twice in one block: its name, the block (`resource
    /// "aws_instance" "web"`, or `None` at the file's top level) and the
    /// earlier line.
    ArgumentTwice(String, Option<String>, usize),
    /// A top-level block declared twice: Terraform's error title, the
    /// block as written (`resource "aws_s3_bucket" "logs"`) and the
    /// earlier line.
    BlockTwice(String, String, usize),
    /// A `locals` name given twice, and its earlier line.
    LocalTwice(String, usize),
    /// An item of a list (`true`) or an object without its separator.
    Separator(bool),
    /// An argument's value followed by more on its line (`false`), in a
    /// block written on one line (`true`).
    ArgumentNewline(bool),
}

impl HclFault {
    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let send = match &self.kind {
            HclKind::ArgumentTwice(..) => {
                "change the argument's line that is there instead of adding it again"
            }
            HclKind::BlockTwice(..) => {
                "change the block that is there, or give the new one another name"
            }
            HclKind::LocalTwice(..) => "change the local value that is there",
            HclKind::Separator(true) => "send a comma after each item but the last",
            HclKind::Separator(false) => "send a comma or a new line between the items",
            HclKind::ArgumentNewline(false) => "put each argument on a line of its own",
            HclKind::ArgumentNewline(true) => "write the block over lines, one argument a line",
        };
        format!("{}: {send}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let line = self.line;
        match &self.kind {
            HclKind::ArgumentTwice(name, block, earlier) => {
                let in_block = block
                    .as_ref()
                    .map_or("at the file's top level".to_string(), |b| format!("in {b}"));
                format!(
                    "as written, the argument `{name}` is set twice {in_block}, at lines \
                     {earlier} and {line}: Terraform refuses the file (`Error: Attribute \
                     redefined`: each argument may be set only once)"
                )
            }
            HclKind::BlockTwice(title, block, earlier) => format!(
                "as written, `{block}` is declared twice, at lines {earlier} and {line}: \
                 Terraform refuses the module (`Error: {title}`)"
            ),
            HclKind::LocalTwice(name, earlier) => format!(
                "as written, the local value `{name}` is defined twice, at lines {earlier} and \
                 {line}: Terraform refuses the module (`Error: Duplicate local value \
                 definition`)"
            ),
            HclKind::Separator(true) => format!(
                "as written, line {line} puts a list's item after another without a comma: \
                 Terraform refuses the file (`Error: Missing item separator`: expected a comma \
                 to mark the beginning of the next item)"
            ),
            HclKind::Separator(false) => format!(
                "as written, line {line} puts an object's item after another on its line \
                 without a comma: Terraform refuses the file (`Error: Missing attribute \
                 separator`: expected a newline or comma to mark the beginning of the next \
                 attribute)"
            ),
            HclKind::ArgumentNewline(false) => format!(
                "as written, line {line} goes on after an argument's value on its line: \
                 Terraform refuses the file (`Error: Missing newline after argument`: an \
                 argument definition must end with a newline)"
            ),
            HclKind::ArgumentNewline(true) => format!(
                "as written, line {line} puts a second argument in a block written on one line: \
                 Terraform refuses the file (`Error: Invalid single-argument block definition`: \
                 single-line block syntax can include only one argument definition)"
            ),
        }
    }
}

/// Whether `path` names a Terraform file this reader reads (`.tf`).
pub fn terraform_name(path: &str) -> bool {
    path.ends_with(".tf")
}

/// One token of HCL's native syntax.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token<'a> {
    /// A name or a keyword.
    Ident(&'a str),
    /// A quoted string (its text without quotes) or a heredoc.
    Str(&'a str),
    /// A number.
    Number,
    /// A new line outside any comment or string.
    Newline,
    /// An operator or a bracket.
    Punct(&'a str),
}

/// `text`'s tokens and their lines (1-based); `None` where this reader
/// does not follow it.
fn tokens(text: &str) -> Option<Vec<(Token<'_>, usize)>> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let (mut at, mut line) = (0, 1);
    while at < bytes.len() {
        let c = bytes[at];
        let start = at;
        match c {
            b'\n' => {
                found.push((Token::Newline, line));
                line += 1;
                at += 1;
            }
            b' ' | b'\t' | b'\r' => at += 1,
            b'#' => at = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n),
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |n| at + n);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let end = memchr::memmem::find(&bytes[at + 2..], b"*/")? + at + 2;
                line += memchr::memchr_iter(b'\n', &bytes[at..end]).count();
                at = end + 2;
            }
            b'"' => {
                let end = string_end(bytes, at + 1, &mut line)?;
                found.push((Token::Str(&text[start + 1..end - 1]), line));
                at = end;
            }
            b'<' if bytes.get(at + 1) == Some(&b'<')
                && bytes
                    .get(at + 2)
                    .is_some_and(|&b| b == b'-' || b.is_ascii_alphabetic()) =>
            {
                let opened = line;
                at = heredoc_end(text, at + 2, &mut line)?;
                found.push((Token::Str(&text[start..at]), opened));
            }
            c if c.is_ascii_digit() => {
                while at < bytes.len()
                    && (bytes[at].is_ascii_alphanumeric()
                        || bytes[at] == b'.' && bytes.get(at + 1).is_some_and(u8::is_ascii_digit))
                {
                    at += 1;
                }
                found.push((Token::Number, line));
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while at < bytes.len()
                    && (bytes[at].is_ascii_alphanumeric() || matches!(bytes[at], b'_' | b'-'))
                {
                    at += 1;
                }
                found.push((Token::Ident(&text[start..at]), line));
            }
            _ => {
                let two = text.get(at..at + 2).unwrap_or("");
                let three = text.get(at..at + 3).unwrap_or("");
                let len = if three == "..." {
                    3
                } else if ["==", "!=", "<=", ">=", "=>", "&&", "||"].contains(&two) {
                    2
                } else if c.is_ascii_punctuation() {
                    1
                } else {
                    return None;
                };
                found.push((Token::Punct(&text[at..at + len]), line));
                at += len;
            }
        }
    }
    Some(found)
}

/// Past the `"` closing the string whose text starts at `at`: `\`
/// escapes, `${ }` and `%{ }` templates (strings and braces in them);
/// `None` at a line's end or the file's.
fn string_end(bytes: &[u8], mut at: usize, line: &mut usize) -> Option<usize> {
    while at < bytes.len() {
        match bytes[at] {
            b'"' => return Some(at + 1),
            b'\\' => at += 2,
            b'\n' => return None,
            b'$' | b'%' if bytes.get(at + 1) == Some(&b'{') => {
                if at > 0 && bytes[at - 1] == bytes[at] {
                    // `$${` and `%%{` are the literal text.
                    at += 2;
                    continue;
                }
                at = template_end(bytes, at + 2, line)?;
            }
            _ => at += 1,
        }
    }
    None
}

/// Past the `}` closing a template that starts at `at`.
fn template_end(bytes: &[u8], at: usize, line: &mut usize) -> Option<usize> {
    braced_end(bytes, at, line, |bytes, at, line| {
        (bytes[at] == b'"').then(|| string_end(bytes, at + 1, line))
    })
}

/// Past the `}` closing a block of code inside a string (HCL's `${ }`
/// template, Nix's `${ }` interpolation) whose text starts at `at`: braces
/// nested, `line` counting the newlines passed. `skip(bytes, at, line)`
/// reads what the language holds there besides braces (a string, a
/// comment): `Some(Some(after))` goes on after it, `Some(None)` is one
/// left open (`None` for the whole), `None` is none.
pub(crate) fn braced_end(
    bytes: &[u8],
    mut at: usize,
    line: &mut usize,
    mut skip: impl FnMut(&[u8], usize, &mut usize) -> Option<Option<usize>>,
) -> Option<usize> {
    let mut depth = 1;
    while at < bytes.len() {
        if let Some(after) = skip(bytes, at, line) {
            at = after?;
            continue;
        }
        match bytes[at] {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            b'\n' => *line += 1,
            _ => {}
        }
        at += 1;
    }
    None
}

/// Past a heredoc whose `<<` ends at `at` (`-` and its word after):
/// through the line holding its word alone.
fn heredoc_end(text: &str, at: usize, line: &mut usize) -> Option<usize> {
    let rest = &text[at..];
    let rest = rest.strip_prefix('-').unwrap_or(rest);
    let word_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let word = &rest[..word_len];
    let head_end = text.len() - rest.len() + word_len;
    if word.is_empty() || !text[head_end..].starts_with(['\n', '\r']) {
        return None;
    }
    let mut offset = head_end + text[head_end..].find('\n')? + 1;
    *line += 1;
    loop {
        let end = text[offset..].find('\n').map_or(text.len(), |n| offset + n);
        if text[offset..end].trim() == word {
            return Some(end);
        }
        if end == text.len() {
            return None;
        }
        *line += 1;
        offset = end + 1;
    }
}

/// What a bracket of an expression opens.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    /// A tuple `[..]`; `for_expr`: a `for` expression.
    Tuple { for_expr: bool },
    /// An object `{..}`; `for_expr`: a `for` expression.
    Object { for_expr: bool },
    /// `(..)` or an index `x[..]`.
    Other,
}

/// Whether a token ends an operand (a value could stop there).
fn ends_operand(token: &Token<'_>) -> bool {
    matches!(
        token,
        Token::Ident(_) | Token::Str(_) | Token::Number | Token::Punct(")" | "]" | "}")
    )
}

/// Whether a token starts an operand (after another operand, it needs a
/// separator).
fn starts_operand(token: &Token<'_>) -> bool {
    matches!(token, Token::Ident(_) | Token::Str(_) | Token::Number)
}

/// A reader of one file's tokens.
struct Reader<'t, 'a> {
    tokens: &'t [(Token<'a>, usize)],
    at: usize,
    fault: Option<HclFault>,
}

/// An argument read: its name, its line, and its value where that is a
/// single string.
type Argument<'a> = (&'a str, usize, Option<&'a str>);

/// A top-level block read: its type, labels, line, and its arguments.
struct Block<'a> {
    kind: &'a str,
    labels: Vec<&'a str>,
    line: usize,
    arguments: Vec<Argument<'a>>,
}

impl<'t, 'a> Reader<'t, 'a> {
    fn peek(&self) -> Option<&'t Token<'a>> {
        self.tokens.get(self.at).map(|t| &t.0)
    }

    fn line(&self) -> usize {
        self.tokens.get(self.at).map_or(0, |t| t.1)
    }

    /// Notes `fault` unless an earlier one is noted.
    fn note(&mut self, line: usize, kind: HclKind) {
        if self.fault.is_none() {
            self.fault = Some(HclFault { line, kind });
        }
    }

    /// Reads a body up to its `}` (`nested`) or the file's end: its
    /// arguments (each name once) and blocks. `Err` where it does not
    /// follow. `block` names the block for a fault's words.
    fn body(
        &mut self,
        nested: bool,
        block: Option<&str>,
        top: &mut Vec<Block<'a>>,
    ) -> Result<Vec<Argument<'a>>, ()> {
        let mut arguments: Vec<Argument<'a>> = Vec::new();
        // The line of the body's `{`, just read.
        let opened = self
            .at
            .checked_sub(1)
            .and_then(|k| self.tokens.get(k))
            .map(|t| t.1);
        let mut seen: HashMap<&'a str, usize> = HashMap::new();
        loop {
            match self.peek() {
                None if !nested => return Ok(arguments),
                None => return Err(()),
                Some(Token::Newline) => self.at += 1,
                Some(Token::Punct("}")) if nested => {
                    self.at += 1;
                    return Ok(arguments);
                }
                Some(&Token::Ident(name)) => {
                    let line = self.line();
                    self.at += 1;
                    if self.peek() == Some(&Token::Punct("=")) {
                        let one_line_block = nested && opened == Some(line);
                        self.at += 1;
                        let single = match (self.peek(), self.tokens.get(self.at + 1).map(|t| &t.0))
                        {
                            (
                                Some(&Token::Str(s)),
                                Some(Token::Newline | Token::Punct("}")) | None,
                            ) => Some(s),
                            _ => None,
                        };
                        self.expression(one_line_block)?;
                        if let Some(&earlier) = seen.get(name) {
                            self.note(
                                line,
                                HclKind::ArgumentTwice(
                                    name.to_string(),
                                    block.map(str::to_string),
                                    earlier,
                                ),
                            );
                        }
                        seen.entry(name).or_insert(line);
                        arguments.push((name, line, single));
                        continue;
                    }
                    let mut labels = Vec::new();
                    loop {
                        match self.peek() {
                            Some(&Token::Str(s)) | Some(&Token::Ident(s)) => {
                                labels.push(s);
                                self.at += 1;
                            }
                            Some(Token::Punct("{")) => break,
                            _ => return Err(()),
                        }
                    }
                    self.at += 1;
                    let written = std::iter::once(name.to_string())
                        .chain(labels.iter().map(|l| format!("\"{l}\"")))
                        .collect::<Vec<_>>()
                        .join(" ");
                    let inner = self.body(true, Some(&written), top)?;
                    if !nested {
                        top.push(Block {
                            kind: name,
                            labels,
                            line,
                            arguments: inner,
                        });
                    }
                }
                Some(_) => return Err(()),
            }
        }
    }

    /// Reads an argument's expression, to the new line or the `}` (left
    /// unread) that ends it; notes an item without its separator, and
    /// more than the value on the argument's line (`one_line_block`: in a
    /// block written on its `{`'s line).
    fn expression(&mut self, one_line_block: bool) -> Result<(), ()> {
        let mut stack: Vec<Open> = Vec::new();
        let mut previous: Option<&'t Token<'a>> = None;
        while let Some(token) = self.peek() {
            let line = self.line();
            match token {
                Token::Newline if stack.is_empty() => return Ok(()),
                Token::Punct("}") if stack.is_empty() => return Ok(()),
                Token::Newline => {
                    // A tuple reads over lines; an object's new line
                    // separates its items.
                    if matches!(stack.last(), Some(Open::Object { .. })) {
                        previous = None;
                    }
                    self.at += 1;
                    continue;
                }
                _ => {}
            }
            let after_operand = previous.is_some_and(ends_operand);
            // `(` after a value that is no name calls nothing: an item.
            let paren_item = *token == Token::Punct("(")
                && after_operand
                && !matches!(previous, Some(Token::Ident(_)));
            if stack.is_empty()
                && ((after_operand && starts_operand(token))
                    || paren_item
                    || *token == Token::Punct(","))
            {
                self.note(line, HclKind::ArgumentNewline(one_line_block));
            }
            if after_operand && (starts_operand(token) || paren_item) {
                match stack.last() {
                    Some(Open::Tuple { for_expr: false }) => {
                        self.note(line, HclKind::Separator(true));
                    }
                    Some(Open::Object { for_expr: false }) => {
                        self.note(line, HclKind::Separator(false));
                    }
                    _ => {}
                }
            }
            // A `for` expression's word may stand on the next line.
            let for_expr = self.tokens[self.at + 1..]
                .iter()
                .find(|t| t.0 != Token::Newline)
                .is_some_and(|t| t.0 == Token::Ident("for"));
            match token {
                Token::Punct("[") if after_operand => stack.push(Open::Other),
                Token::Punct("[") => stack.push(Open::Tuple { for_expr }),
                Token::Punct("{") => stack.push(Open::Object { for_expr }),
                Token::Punct("(") => stack.push(Open::Other),
                Token::Punct(")" | "]" | "}") => {
                    stack.pop().ok_or(())?;
                }
                _ => {}
            }
            previous = Some(token);
            self.at += 1;
        }
        if stack.is_empty() { Ok(()) } else { Err(()) }
    }
}

/// The error title of a top-level block of `kind` declared twice, and
/// the labels (or the `alias`) that name it; `None` for a block any
/// number of which is allowed.
fn block_identity(block: &Block<'_>) -> Option<(String, String)> {
    let labels = block.labels.join("\" \"");
    let title = match (block.kind, block.labels.len()) {
        ("resource" | "data", 2) => format!(
            "Duplicate {} \"{}\" configuration",
            block.kind, block.labels[0]
        ),
        ("variable", 1) => "Duplicate variable declaration".to_string(),
        ("output", 1) => "Duplicate output definition".to_string(),
        ("module", 1) => "Duplicate module call".to_string(),
        ("provider", 1) => {
            let alias = block.arguments.iter().find(|a| a.0 == "alias").map(|a| a.2);
            return match alias {
                // An alias not written as a plain string: not judged.
                Some(None) => None,
                Some(Some(alias)) => Some((
                    "Duplicate provider configuration".to_string(),
                    format!("provider \"{labels}\" (alias \"{alias}\")"),
                )),
                None => Some((
                    "Duplicate provider configuration".to_string(),
                    format!("provider \"{labels}\""),
                )),
            };
        }
        _ => return None,
    };
    Some((title, format!("{} \"{labels}\"", block.kind)))
}

/// What stops Terraform in `text`: `Ok(None)` when it reads, `Err(())`
/// when this reader does not follow it.
fn hcl_fault(text: &str) -> Result<Option<HclFault>, ()> {
    let tokens = tokens(text).ok_or(())?;
    let mut reader = Reader {
        tokens: &tokens,
        at: 0,
        fault: None,
    };
    let mut top = Vec::new();
    reader.body(false, None, &mut top)?;
    if reader.fault.is_some() {
        return Ok(reader.fault);
    }
    let mut declared: HashMap<String, usize> = HashMap::new();
    let mut locals: HashMap<&str, usize> = HashMap::new();
    let mut found: Option<HclFault> = None;
    let mut note = |fault: HclFault| {
        if found.as_ref().is_none_or(|f| fault.line < f.line) {
            found = Some(fault);
        }
    };
    for block in &top {
        if block.kind == "locals" && block.labels.is_empty() {
            for &(name, line, _) in &block.arguments {
                if let Some(&earlier) = locals.get(name) {
                    note(HclFault {
                        line,
                        kind: HclKind::LocalTwice(name.to_string(), earlier),
                    });
                }
                locals.entry(name).or_insert(line);
            }
            continue;
        }
        let Some((title, written)) = block_identity(block) else {
            continue;
        };
        if let Some(&earlier) = declared.get(&written) {
            note(HclFault {
                line: block.line,
                kind: HclKind::BlockTwice(title, written.clone(), earlier),
            });
        }
        declared.entry(written).or_insert(block.line);
    }
    Ok(found)
}

/// The fault `result` (the Terraform file `path` as an edit leaves it)
/// has where `original` read (see the module).
pub(super) fn hcl_broken(path: &str, original: &str, result: &str) -> Option<HclFault> {
    if !terraform_name(path) || original == result || original.trim().is_empty() {
        return None;
    }
    if hcl_fault(original) != Ok(None) {
        return None;
    }
    hcl_fault(result).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::{HclFault, HclKind, hcl_broken};

    const MAIN: &str = "terraform {\n  required_version = \">= 1.5\"\n}\n\n\
        provider \"aws\" {\n  region = var.region\n}\n\n\
        variable \"region\" {\n  type    = string\n  default = \"eu-west-1\"\n}\n\n\
        locals {\n  tags = { team = \"ops\", env = \"prod\" }\n  names = [\"a\", \"b\"]\n}\n\n\
        resource \"aws_instance\" \"web\" {\n  ami           = data.aws_ami.ubuntu.id\n  \
        instance_type = \"t3.micro\"\n  user_data     = <<-EOT\n    name = ${var.region}\n    \
        name = x\n  EOT\n  tags = merge(local.tags, {\n    Name = \"web\"\n  })\n}\n\n\
        resource \"aws_security_group\" \"web\" {\n  name = \"web-${var.region}\" # } {\n  \
        ingress {\n    from_port = 80\n    to_port   = 80\n  }\n  ingress {\n    from_port = 443\n    \
        to_port   = 443\n  }\n  dynamic \"egress\" {\n    for_each = [for p in [1, 2] : p]\n    \
        content {\n      from_port = egress.value\n    }\n  }\n}\n\n\
        output \"ip\" {\n  value = aws_instance.web.public_ip\n}\n";

    fn judged(old: &str, new: &str) -> Option<HclFault> {
        assert!(MAIN.contains(old), "{old:?}");
        hcl_broken("main.tf", MAIN, &MAIN.replacen(old, new, 1))
    }

    /// The tester's finds (round 49 T-01, T-14): an argument set again in
    /// its block, a block declared again, a list's or object's item
    /// without its separator; each said with its lines and Terraform's
    /// error.
    #[test]
    fn arguments_and_blocks_twice_and_missing_separators_are_doubted() {
        let argument = judged(
            "  instance_type = \"t3.micro\"\n",
            "  instance_type = \"t3.micro\"\n  instance_type = \"t3.large\"\n",
        );
        assert_eq!(
            argument.map(|a| a.describe()).as_deref(),
            Some(
                "as written, the argument `instance_type` is set twice in resource \
                 \"aws_instance\" \"web\", at lines 21 and 22: Terraform refuses the file \
                 (`Error: Attribute redefined`: each argument may be set only once): change the \
                 argument's line that is there instead of adding it again"
            )
        );
        let block = judged(
            "output \"ip\" {\n",
            "resource \"aws_instance\" \"web\" {\n  ami = \"x\"\n}\n\noutput \"ip\" {\n",
        );
        assert_eq!(
            block.map(|b| b.fault()).as_deref(),
            Some(
                "as written, `resource \"aws_instance\" \"web\"` is declared twice, at lines 19 \
                 and 49: Terraform refuses the module (`Error: Duplicate resource \
                 \"aws_instance\" configuration`)"
            )
        );
        for (old, new, kind) in [
            (
                "output \"ip\" {\n",
                "variable \"region\" {}\noutput \"ip\" {\n",
                "Duplicate variable declaration",
            ),
            (
                "output \"ip\" {\n",
                "output \"ip\" {\n  value = 1\n}\noutput \"ip\" {\n",
                "Duplicate output definition",
            ),
            (
                "output \"ip\" {\n",
                "provider \"aws\" {\n  region = \"us-east-1\"\n}\noutput \"ip\" {\n",
                "Duplicate provider configuration",
            ),
        ] {
            let got = judged(old, new).map(|f| f.fault());
            assert!(got.as_deref().is_some_and(|g| g.contains(kind)), "{got:?}");
        }
        let local = judged("locals {\n", "locals {\n  names = []\n");
        assert_eq!(
            local.map(|l| (l.line, l.kind)),
            Some((
                17,
                HclKind::ArgumentTwice("names".into(), Some("locals".into()), 15)
            ))
        );
        let other_locals = judged(
            "output \"ip\" {\n",
            "locals {\n  tags = {}\n}\noutput \"ip\" {\n",
        );
        assert_eq!(
            other_locals.map(|l| l.kind),
            Some(HclKind::LocalTwice("tags".into(), 15))
        );
        let list = judged("[\"a\", \"b\"]", "[\"a\", \"b\" \"c\"]");
        assert_eq!(
            list.map(|l| (l.line, l.kind)),
            Some((16, HclKind::Separator(true)))
        );
        let over_lines = judged(
            "[\"a\", \"b\"]",
            "[\n    \"a\",\n    \"b\"\n    \"c\",\n  ]",
        );
        assert_eq!(over_lines.map(|l| l.line), Some(19));
        let object = judged("env = \"prod\" }", "env = \"prod\" tier = 1 }");
        assert_eq!(
            object.map(|o| o.describe()).as_deref(),
            Some(
                "as written, line 15 puts an object's item after another on its line without a \
                 comma: Terraform refuses the file (`Error: Missing attribute separator`: \
                 expected a newline or comma to mark the beginning of the next attribute): send \
                 a comma or a new line between the items"
            )
        );
    }

    /// No doubt: repeatable nested blocks, a provider of another alias,
    /// arguments of the same name in other blocks, an object's items on
    /// their own lines, words in strings, comments and heredocs, a file
    /// that did not read, another file's name.
    #[test]
    fn repeatable_blocks_and_well_separated_items_are_not_doubted() {
        for (old, new) in [
            (
                "  dynamic \"egress\" {\n",
                "  ingress {\n    from_port = 22\n  }\n  dynamic \"egress\" {\n",
            ),
            (
                "output \"ip\" {\n",
                "provider \"aws\" {\n  alias  = \"us\"\n  region = \"us-east-1\"\n}\noutput \"ip\" {\n",
            ),
            (
                "    Name = \"web\"\n",
                "    Name = \"web\"\n    Role = \"app\"\n",
            ),
            ("[\"a\", \"b\"]", "[\"a\", \"b\", \"c\",]"),
            ("[\"a\", \"b\"]", "[\n    \"a\",\n    \"b\",\n  ]"),
            ("    name = x\n", "    name = x\n    name = y \"z\"\n"),
            ("# } {", "# name = 1 name = 2"),
            ("output \"ip\" {\n", "# output \"ip\" {}\noutput \"ip\" {\n"),
            ("env = \"prod\" }", "env = \"prod\"\n    tier = 1 }"),
            (
                "[for p in [1, 2] : p]",
                "[\n      for p in [1, 2] :\n      p\n    ]",
            ),
            (
                "[for p in [1, 2] : p]",
                "{ for k, v in var.m : k => v if v != null }",
            ),
            (
                "  default = \"eu-west-1\"\n",
                "  default = \"eu-west-1\"\n  description = \"The \\\"region\\\" ${\"x\"}\"\n",
            ),
        ] {
            assert_eq!(judged(old, new), None, "{new:?}");
        }
        let broken = MAIN.replace("[\"a\", \"b\"]", "[\"a\" \"b\"]");
        assert_eq!(
            hcl_broken("main.tf", &broken, &format!("{broken}output \"ip\" {{}}\n")),
            None
        );
        let twice = format!("{MAIN}output \"ip\" {{}}\n");
        assert_eq!(hcl_broken("main.tf.json", MAIN, &twice), None);
        assert!(hcl_broken("modules/x/outputs.tf", MAIN, &twice).is_some());
    }

    /// conf50's leftover (terraform validate the referee): more than an
    /// argument's value on its line, a second argument in a block written
    /// on one line, an item opening with `(` after a value.
    #[test]
    fn an_argument_run_on_and_a_paren_item_are_doubted() {
        let run_on = judged(
            "  instance_type = \"t3.micro\"\n",
            "  instance_type = \"t3.micro\" monitoring = true\n",
        );
        assert_eq!(
            run_on.map(|r| r.describe()).as_deref(),
            Some(
                "as written, line 21 goes on after an argument's value on its line: Terraform \
                 refuses the file (`Error: Missing newline after argument`: an argument \
                 definition must end with a newline): put each argument on a line of its own"
            )
        );
        let comma = judged(
            "  region = var.region\n",
            "  region = var.region, alias = \"b\"\n",
        );
        assert_eq!(comma.map(|c| c.kind), Some(HclKind::ArgumentNewline(false)));
        let one_line = judged(
            "output \"ip\" {\n  value = aws_instance.web.public_ip\n}\n",
            "output \"ip\" { value = aws_instance.web.public_ip sensitive = true }\n",
        );
        assert_eq!(
            one_line.map(|o| o.kind),
            Some(HclKind::ArgumentNewline(true))
        );
        let after_index = judged(
            "  region = var.region\n",
            "  region = var.regions[0] (var.k) = 1\n",
        );
        assert_eq!(
            after_index.map(|a| a.kind),
            Some(HclKind::ArgumentNewline(false))
        );
        let paren = judged("{ team = \"ops\", env", "{ team = \"ops\" (var.k) = 1, env");
        assert_eq!(paren.map(|p| p.kind), Some(HclKind::Separator(false)));
        for (old, new) in [
            (
                "output \"ip\" {\n  value = aws_instance.web.public_ip\n}\n",
                "output \"ip\" { value = aws_instance.web.public_ip }\n",
            ),
            (
                "  region = var.region\n",
                "  region = var.enabled ? var.region : \"x\"\n",
            ),
            (
                "  region = var.region\n",
                "  region = lookup (var.m, \"r\")\n",
            ),
            ("{ team = \"ops\", env", "{ (var.k) = \"ops\", env"),
            ("  region = var.region\n", "  region = var.region # b = 2\n"),
        ] {
            assert_eq!(judged(old, new), None, "{new}");
        }
    }
}
