//! *Pure.* An edit that leaves a PHP file, an nginx configuration, or the
//! code inside a page's `<script>` and `<style>` elements with its blocks
//! unbalanced (tester 49 T-08: each passed, and `php -l`, `nginx -t`,
//! the browser or Vue's compiler refuse the file or lose its rest).
//!
//! The rule, by evidence only, as for the brace languages
//! ([`super::doubt_braces`]): the file before reads with every block
//! closed (and, in nginx, every directive ended), and the file as the
//! edit leaves it does not. A file that reads otherwise before is not
//! judged (its reading is not trusted); a file the edit creates is judged
//! against none.
//!
//! Read, by the file's name:
//! - PHP (`.php`, `.phtml`, `.inc` holding `<?php`): the code between
//!   `<?php` (or `<?=`, or `<?` and a space) and `?>`, the rest HTML not
//!   read; `{}`, `()` and `[]` counted outside `'..'`, `".."` (with
//!   `{$..}` and `${..}` read as code), backquotes, heredocs `<<<EOT` and
//!   nowdocs `<<<'EOT'` (the closing marker indented or not), and `//`,
//!   `#` (not `#[`, an attribute) and `/* */` comments, a `//` or `#`
//!   comment ending at `?>` as PHP ends it. Reading stops at
//!   `__halt_compiler`. Said as `php -l` says it (`Unclosed '{' on
//!   line 3`, `syntax error, unexpected token "}"`).
//! - nginx (`nginx.conf`, a `.conf` file whose name holds `nginx`, and `.conf` files, `sites-available/`,
//!   `sites-enabled/` files and the `*_params` files under a folder whose
//!   name holds `nginx`): read as nginx's own `ngx_conf_read_token` reads
//!   it, `#` comments, `'..'` and `".."` with `\` escapes, `${..}`: a
//!   block left open or a `}` too many, a directive left without its `;`
//!   before a `}` or the file's end, a directive run into a block header
//!   below it (`root /x` above `location / {`: `directive "root" is not
//!   terminated by ";"`; a name nginx or the file before never opens a
//!   block with), and a directive run into the next line's (its `;`
//!   dropped: `root /x` above `index a;` reads as one `root` directive
//!   with three arguments) where the next line starts with a name the
//!   file before gives directives. OpenResty's `*_by_lua_block { .. }`
//!   is read as Lua to its `}` (strings, `--` comments, `[[ ]]`).
//! - Pages and components (`.html`, `.htm`, `.vue`, `.svelte`): the
//!   JavaScript of each `<script>` element (no `type`, or a JavaScript,
//!   module or JSON one; `lang="ts"`) read as
//!   [`super::doubt_braces`] reads a `.js` or `.ts` file, all of a page's
//!   scripts as one text (so a bracket one script leaves open for another
//!   to close is not seen); the CSS of each `<style>` (`lang` CSS, SCSS or
//!   Less; not Sass or Stylus) counted for `{}` outside comments,
//!   strings and `url(..)`; and a Vue component's `<template>` tags, whose
//!   starts and `</template>` ends the file before had as many of
//!   (Vue's compiler: `Element is missing end tag`). A script holding
//!   `<!--` is not read (its end is read otherwise by HTML).
//!
//! Left to others: a `<script>` or `<style>` left without its end tag
//! ([`super::doubt_markup`]).

use super::doubt_braces::{BraceFault, brace_fault};

/// What a [`WebFault`] is, for its kind of doubt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WebKind {
    /// Brackets or blocks left unbalanced (`unbalanced`).
    Unbalanced,
    /// A string left open (`unclosed`).
    Unclosed,
    /// A Vue `<template>` left without its end tag, or one too many
    /// (`markup-open`).
    MarkupOpen,
}

/// An edit's fault in a PHP file, an nginx configuration, or a page's
/// script or style code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebFault {
    /// Its kind of doubt.
    pub kind: WebKind,
    /// The fault, from the file's reading on (no final stop).
    fault: String,
    /// What to send instead.
    advice: String,
}

impl WebFault {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!("{}: {}", self.fault, self.advice)
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        self.fault.clone()
    }
}

/// What a file is read as by this check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Web {
    Php,
    Nginx,
    /// A page (`vue`: a Vue component, whose `<template>` tags are read).
    Page {
        vue: bool,
    },
}

/// How `path` (whose content, before or after, is `text`) is read.
fn web_kind(path: &str, text: &str) -> Option<Web> {
    let lower = path.to_ascii_lowercase().replace('\\', "/");
    let mut parts: Vec<&str> = lower.split('/').collect();
    let name = parts.pop().unwrap_or("");
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    match ext {
        "php" | "phtml" => return Some(Web::Php),
        "inc" if text.contains("<?php") => return Some(Web::Php),
        "html" | "htm" | "svelte" => return Some(Web::Page { vue: false }),
        "vue" => return Some(Web::Page { vue: true }),
        _ => {}
    }
    if name == "nginx.conf" || (ext == "conf" && name.contains("nginx")) {
        return Some(Web::Nginx);
    }
    let under_nginx = parts.iter().any(|p| p.contains("nginx"));
    let parent = parts.last().copied().unwrap_or("");
    let nginx_file = ext == "conf"
        || matches!(parent, "sites-available" | "sites-enabled")
        || name.ends_with("_params");
    (under_nginx && nginx_file).then_some(Web::Nginx)
}

/// Whether this check reads `path` (its content not known).
pub fn web_name(path: &str) -> bool {
    web_kind(path, "<?php").is_some()
}

/// The fault `result` (the file `path` as an edit leaves it) has where
/// `original` (the file before) read without one (see the module).
pub fn web_fault(path: &str, original: &str, result: &str) -> Option<WebFault> {
    if original == result || !changes_marks(original, result) {
        return None;
    }
    match web_kind(path, original).or_else(|| web_kind(path, result))? {
        Web::Php => php_fault(original, result),
        Web::Nginx => nginx_fault(original, result),
        Web::Page { vue } => page_fault(original, result, vue),
    }
}

/// Whether the bytes an edit changes (between the texts' common start
/// and end) hold a character any reading of this check stops at: else
/// every reading is the file before's (a long page is not read again).
fn changes_marks(original: &str, result: &str) -> bool {
    let (a, b) = (original.as_bytes(), result.as_bytes());
    // Compared a block at a time (a slice comparison), then byte by byte.
    const BLOCK: usize = 4096;
    let shorter = a.len().min(b.len());
    let mut start = 0;
    while start + BLOCK <= shorter && a[start..start + BLOCK] == b[start..start + BLOCK] {
        start += BLOCK;
    }
    while start < shorter && a[start] == b[start] {
        start += 1;
    }
    let room = shorter - start;
    let mut end = 0;
    while end + BLOCK <= room
        && a[a.len() - end - BLOCK..a.len() - end] == b[b.len() - end - BLOCK..b.len() - end]
    {
        end += BLOCK;
    }
    while end < room && a[a.len() - end - 1] == b[b.len() - end - 1] {
        end += 1;
    }
    let marks = |t: &[u8]| {
        t.iter().any(|c| {
            matches!(
                c,
                b'{' | b'}'
                    | b'('
                    | b')'
                    | b'['
                    | b']'
                    | b'\''
                    | b'"'
                    | b'`'
                    | b'/'
                    | b'*'
                    | b'#'
                    | b';'
                    | b'<'
                    | b'>'
                    | b'-'
                    | b'?'
                    | b'\\'
                    | b'$'
            )
        })
    };
    marks(&a[start..a.len() - end]) || marks(&b[start..b.len() - end])
}

/// "the file before read …" or "the file is new".
fn before_words(original: &str, read: &str) -> String {
    if original.is_empty() {
        "the file is new".to_string()
    } else {
        format!("the file before {read}")
    }
}

/// The text of line `line` (1-based) of `text`, trimmed.
fn line_text(text: &str, line: usize) -> &str {
    text.lines()
        .nth(line.saturating_sub(1))
        .map_or("", |l| l.trim())
}

// ---------------------------------------------------------------- PHP

/// Where a PHP reading stands.
#[derive(Debug, Clone, PartialEq, Eq)]
enum PhpMode {
    Html,
    Code,
    LineComment,
    BlockComment,
    /// `'..'`.
    Single,
    /// `".."` or a backquoted command, by its quote.
    Double(u8),
    /// A `{$..}` or `${..}` inside a `".."` string: code, this deep in
    /// braces of its own.
    Interp(usize),
    /// A heredoc or nowdoc, ended by a line starting with this marker.
    Heredoc(Vec<u8>),
}

/// What a PHP reading finds wrong, with its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
enum PhpFault {
    /// An opener never closed.
    Unclosed(u8, usize),
    /// A closer with nothing open.
    Stray(u8, usize),
    /// A closer meeting an opener of another pair: closer, its line, the
    /// opener, its line.
    Crossed(u8, usize, u8, usize),
    /// A string, comment or heredoc open at the file's end: what, and
    /// the line it opens on.
    OpenAtEnd(&'static str, usize),
}

/// The closer of a PHP opener.
fn closer_of(open: u8) -> u8 {
    match open {
        b'{' => b'}',
        b'(' => b')',
        _ => b']',
    }
}

/// Whether `b` continues a PHP name.
fn php_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80
}

/// The heredoc or nowdoc marker `<<<` at `at` opens (`<<<EOT`,
/// `<<<"EOT"`, `<<<'EOT'` ending its line), and where its body starts.
fn heredoc_at(bytes: &[u8], at: usize) -> Option<(Vec<u8>, usize)> {
    let mut i = at + 3;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    let quote = match bytes.get(i) {
        Some(&q @ (b'\'' | b'"')) => {
            i += 1;
            Some(q)
        }
        _ => None,
    };
    let start = i;
    while i < bytes.len() && php_word(bytes[i]) {
        i += 1;
    }
    if i == start || bytes[start].is_ascii_digit() {
        return None;
    }
    let id = bytes[start..i].to_vec();
    if let Some(q) = quote {
        if bytes.get(i) != Some(&q) {
            return None;
        }
        i += 1;
    }
    if bytes.get(i) == Some(&b'\r') {
        i += 1;
    }
    (bytes.get(i) == Some(&b'\n')).then_some((id, i + 1))
}

/// Whether the line starting at `at` ends a heredoc of marker `id`: white
/// space, the marker, then no name character.
fn heredoc_end(bytes: &[u8], at: usize, id: &[u8]) -> Option<usize> {
    let mut i = at;
    while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
        i += 1;
    }
    let end = i + id.len();
    (bytes.get(i..end) == Some(id) && !bytes.get(end).is_some_and(|&b| php_word(b))).then_some(end)
}

/// Reads a PHP file (see the module): its first fault, if any.
fn read_php(text: &str) -> Option<PhpFault> {
    let bytes = text.as_bytes();
    let mut modes = vec![PhpMode::Html];
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let mut line = 1;
    // The line the string, comment or heredoc being read opened on.
    let mut opened = 1;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let mode = modes.last().cloned().unwrap_or(PhpMode::Html);
        let next = bytes.get(i + 1).copied();
        if b == b'\n' {
            line += 1;
            if let PhpMode::Heredoc(id) = &mode
                && let Some(end) = heredoc_end(bytes, i + 1, id)
            {
                modes.pop();
                i = end;
                continue;
            }
            if mode == PhpMode::LineComment {
                modes.pop();
            }
            i += 1;
            continue;
        }
        match mode {
            PhpMode::Html => {
                if b == b'<' && next == Some(b'?') {
                    let rest = &bytes[i + 2..];
                    let tag = rest.get(..3).map(|t| t.eq_ignore_ascii_case(b"php"));
                    let after = rest.get(3).copied();
                    if tag == Some(true) && after.is_none_or(|a| a.is_ascii_whitespace()) {
                        modes.push(PhpMode::Code);
                        i += 5;
                        continue;
                    }
                    if rest.first() == Some(&b'=')
                        || rest.first().is_none_or(|a| a.is_ascii_whitespace())
                    {
                        modes.push(PhpMode::Code);
                        i += 2;
                        continue;
                    }
                }
            }
            PhpMode::Code | PhpMode::Interp(_) => {
                let interp = matches!(mode, PhpMode::Interp(_));
                match b {
                    b'?' if next == Some(b'>') && !interp => {
                        modes.pop();
                        i += 2;
                        continue;
                    }
                    b'#' if next != Some(b'[') => {
                        opened = line;
                        modes.push(PhpMode::LineComment);
                    }
                    b'/' if next == Some(b'/') => {
                        opened = line;
                        modes.push(PhpMode::LineComment);
                    }
                    b'/' if next == Some(b'*') => {
                        opened = line;
                        modes.push(PhpMode::BlockComment);
                        i += 2;
                        continue;
                    }
                    b'\'' => {
                        opened = line;
                        modes.push(PhpMode::Single);
                    }
                    b'"' | b'`' => {
                        opened = line;
                        modes.push(PhpMode::Double(b));
                    }
                    b'<' if bytes.get(i..i + 3) == Some(b"<<<") => {
                        if let Some((id, body)) = heredoc_at(bytes, i) {
                            opened = line;
                            line += 1;
                            // An empty heredoc: its marker on the next line.
                            match heredoc_end(bytes, body, &id) {
                                Some(end) => i = end,
                                None => {
                                    modes.push(PhpMode::Heredoc(id));
                                    i = body;
                                }
                            }
                            continue;
                        }
                        i += 3;
                        continue;
                    }
                    b'_' if !interp
                        && bytes
                            .get(i..i + 15)
                            .is_some_and(|w| w.eq_ignore_ascii_case(b"__halt_compiler"))
                        && !(i > 0 && php_word(bytes[i - 1])) =>
                    {
                        break;
                    }
                    b'{' | b'(' | b'[' if !interp => stack.push((b, line)),
                    b'}' | b')' | b']' if !interp => match stack.pop() {
                        None => return Some(PhpFault::Stray(b, line)),
                        Some((open, at)) if closer_of(open) != b => {
                            return Some(PhpFault::Crossed(b, line, open, at));
                        }
                        Some(_) => {}
                    },
                    b'{' => {
                        if let Some(PhpMode::Interp(depth)) = modes.last_mut() {
                            *depth += 1;
                        }
                    }
                    b'}' => {
                        if let Some(PhpMode::Interp(depth)) = modes.last_mut() {
                            if *depth == 0 {
                                modes.pop();
                            } else {
                                *depth -= 1;
                            }
                        }
                    }
                    _ => {}
                }
            }
            PhpMode::LineComment => {
                if b == b'?' && next == Some(b'>') {
                    // `?>` ends the comment and the code.
                    modes.pop();
                    modes.pop();
                    i += 2;
                    continue;
                }
            }
            PhpMode::BlockComment => {
                if b == b'*' && next == Some(b'/') {
                    modes.pop();
                    i += 2;
                    continue;
                }
            }
            PhpMode::Single => match b {
                b'\\' => {
                    if next == Some(b'\n') {
                        line += 1;
                    }
                    i += 2;
                    continue;
                }
                b'\'' => {
                    modes.pop();
                }
                _ => {}
            },
            PhpMode::Double(quote) => match b {
                b'\\' => {
                    if next == Some(b'\n') {
                        line += 1;
                    }
                    i += 2;
                    continue;
                }
                _ if b == quote => {
                    modes.pop();
                }
                b'{' if next == Some(b'$') => {
                    modes.push(PhpMode::Interp(0));
                }
                b'$' if next == Some(b'{') => {
                    modes.push(PhpMode::Interp(0));
                    i += 2;
                    continue;
                }
                _ => {}
            },
            PhpMode::Heredoc(_) => {}
        }
        i += 1;
    }
    let what = match modes.last() {
        Some(PhpMode::BlockComment) => Some("a `/*` comment"),
        Some(PhpMode::Single | PhpMode::Double(_) | PhpMode::Interp(_)) => Some("a string"),
        Some(PhpMode::Heredoc(_)) => Some("a heredoc"),
        _ => None,
    };
    if let Some(what) = what {
        return Some(PhpFault::OpenAtEnd(what, opened));
    }
    stack.last().map(|&(open, at)| PhpFault::Unclosed(open, at))
}

/// [`web_fault`] of a PHP file.
fn php_fault(original: &str, result: &str) -> Option<WebFault> {
    if read_php(original).is_some() {
        return None;
    }
    let found = read_php(result)?;
    let before = before_words(
        original,
        "closed each (srview counts brackets in the PHP code outside strings and comments)",
    );
    let quoted = |line: usize| format!("line {line} `{}`", line_text(result, line));
    let (kind, fault, advice) = match found {
        PhpFault::Unclosed(open, at) => (
            WebKind::Unbalanced,
            format!(
                "as written, the `{}` on {} is never closed; {before} (php -l: `Unclosed '{}' \
                 on line {at}`)",
                open as char,
                quoted(at),
                open as char
            ),
            format!(
                "send the new text with the `{}` that closes it",
                closer_of(open) as char
            ),
        ),
        PhpFault::Stray(close, at) => (
            WebKind::Unbalanced,
            format!(
                "as written, the `{}` on {} closes nothing open; {before} (php -l: `syntax \
                 error, unexpected token \"{}\"`)",
                close as char,
                quoted(at),
                close as char
            ),
            "leave out the extra closer, or send the line that opens its block".to_string(),
        ),
        PhpFault::Crossed(close, at, open, opened_at) => (
            WebKind::Unbalanced,
            format!(
                "as written, the `{}` on {} meets the `{}` opened on line {opened_at}; {before} \
                 (php -l: `Unclosed '{}' on line {opened_at} does not match '{}'`)",
                close as char,
                quoted(at),
                open as char,
                open as char,
                close as char
            ),
            "send the new text with each block closed where it ends".to_string(),
        ),
        PhpFault::OpenAtEnd(what, at) => (
            WebKind::Unclosed,
            format!(
                "as written, {what} opened on {} runs to the end of the file, the code after it \
                 read as its text; {before} (php -l: `syntax error, unexpected end of file`)",
                quoted(at)
            ),
            "send the new text with what it opens closed".to_string(),
        ),
    };
    Some(WebFault {
        kind,
        fault,
        advice,
    })
}

// -------------------------------------------------------------- nginx

/// The directives nginx's own modules (and OpenResty's `*_by_lua_block`)
/// give a block.
const NGINX_BLOCKS: &[&str] = &[
    "http",
    "server",
    "location",
    "upstream",
    "events",
    "stream",
    "mail",
    "map",
    "geo",
    "types",
    "if",
    "limit_except",
    "split_clients",
    "match",
    "charset_map",
];

/// A directive nginx reads: its name and its words' lines, and how it
/// ended (`;`, `{`, or `}` for a block's end).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Directive {
    name: String,
    /// The line (1-based) of each word.
    lines: Vec<usize>,
    /// The first word of each line after the first that holds one.
    line_starts: Vec<(usize, String)>,
    ended_by: u8,
}

/// What nginx's reading finds wrong, with its line (1-based).
#[derive(Debug, Clone, PartialEq, Eq)]
enum NginxFault {
    /// `unexpected "}"` (a directive without its `;`: its name and line;
    /// or a `}` closing nothing).
    UnexpectedClose(usize, Option<(String, usize)>),
    /// `unexpected end of file, expecting ";" or "}"` (a directive left
    /// without its `;`) or `expecting "}"` (a block left open): the
    /// directive's or the block's line and name.
    EndOfFile {
        line: usize,
        name: String,
        block: bool,
    },
    /// `unexpected "x"` after a quoted word, `unexpected ";"`.
    Unexpected(u8, usize),
}

/// An nginx configuration read: its directives, and its first fault.
#[derive(Debug, Default)]
struct NginxReading {
    directives: Vec<Directive>,
    fault: Option<NginxFault>,
}

/// Reads an nginx configuration as `ngx_conf_read_token` does.
fn read_nginx(text: &str) -> NginxReading {
    let bytes = text.as_bytes();
    let mut reading = NginxReading::default();
    let mut words: Vec<(usize, String)> = Vec::new();
    let mut blocks: Vec<(String, usize)> = Vec::new();
    let mut word = String::new();
    let mut word_line = 1;
    let (mut line, mut last_space, mut need_space) = (1, true, false);
    let (mut comment, mut quoted, mut d_quoted, mut s_quoted, mut variable) =
        (false, false, false, false, false);
    let end = |words: &mut Vec<(usize, String)>, ended_by: u8, reading: &mut NginxReading| {
        let mut line_starts = Vec::new();
        for pair in words.windows(2) {
            if pair[1].0 > pair[0].0 {
                line_starts.push(pair[1].clone());
            }
        }
        reading.directives.push(Directive {
            name: words.first().map(|w| w.1.clone()).unwrap_or_default(),
            lines: words.iter().map(|w| w.0).collect(),
            line_starts,
            ended_by,
        });
        words.clear();
    };
    let mut i = 0;
    while i < bytes.len() {
        // An OpenResty `*_by_lua_block { .. }` holds Lua, which its own
        // reader reads to the `}` that ends it.
        if let Some((name, at)) = blocks.last()
            && name.ends_with("_by_lua_block")
            && last_space
            && words.is_empty()
        {
            let Some(end) = lua_block_end(bytes, i) else {
                reading.fault = Some(NginxFault::EndOfFile {
                    line: *at,
                    name: name.clone(),
                    block: true,
                });
                return reading;
            };
            line += text[i..end].matches('\n').count();
            blocks.pop();
            i = end;
            continue;
        }
        let b = bytes[i];
        i += 1;
        if b == b'\n' {
            line += 1;
            if comment {
                comment = false;
                continue;
            }
        }
        if comment {
            continue;
        }
        if quoted {
            quoted = false;
            word.push(b as char);
            continue;
        }
        let space = matches!(b, b' ' | b'\t' | b'\r' | b'\n');
        if need_space {
            if space {
                last_space = true;
                need_space = false;
                continue;
            }
            match b {
                b';' | b'{' => {
                    need_space = false;
                    last_space = true;
                    if b == b'{' {
                        blocks.push((words.first().map(|w| w.1.clone()).unwrap_or_default(), line));
                    }
                    end(&mut words, b, &mut reading);
                    continue;
                }
                b')' => {
                    last_space = true;
                    need_space = false;
                }
                _ => {
                    reading.fault = Some(NginxFault::Unexpected(b, line));
                    return reading;
                }
            }
            continue;
        }
        if last_space {
            if space {
                continue;
            }
            match b {
                b';' | b'{' => {
                    if words.is_empty() {
                        reading.fault = Some(NginxFault::Unexpected(b, line));
                        return reading;
                    }
                    if b == b'{' {
                        blocks.push((words.first().map(|w| w.1.clone()).unwrap_or_default(), line));
                    }
                    end(&mut words, b, &mut reading);
                    continue;
                }
                b'}' => {
                    if !words.is_empty() {
                        let first = words.first().cloned().map(|(l, n)| (n, l));
                        reading.fault = Some(NginxFault::UnexpectedClose(line, first));
                        return reading;
                    }
                    if blocks.pop().is_none() {
                        reading.fault = Some(NginxFault::UnexpectedClose(line, None));
                        return reading;
                    }
                    reading.directives.push(Directive {
                        name: String::new(),
                        lines: vec![line],
                        line_starts: Vec::new(),
                        ended_by: b'}',
                    });
                    continue;
                }
                b'#' => {
                    comment = true;
                    continue;
                }
                _ => {}
            }
            last_space = false;
            word.clear();
            word_line = line;
            match b {
                b'\\' => quoted = true,
                b'"' => d_quoted = true,
                b'\'' => s_quoted = true,
                b'$' => {
                    variable = true;
                    word.push('$');
                }
                _ => word.push(b as char),
            }
            continue;
        }
        if b == b'{' && variable {
            word.push('{');
            continue;
        }
        variable = false;
        if b == b'\\' {
            quoted = true;
            continue;
        }
        if b == b'$' {
            variable = true;
            word.push('$');
            continue;
        }
        let found = if d_quoted {
            if b == b'"' {
                d_quoted = false;
                need_space = true;
                true
            } else {
                false
            }
        } else if s_quoted {
            if b == b'\'' {
                s_quoted = false;
                need_space = true;
                true
            } else {
                false
            }
        } else if space || b == b';' || b == b'{' {
            last_space = true;
            true
        } else {
            false
        };
        if !found {
            word.push(b as char);
            continue;
        }
        words.push((word_line, std::mem::take(&mut word)));
        if b == b';' || b == b'{' {
            if b == b'{' {
                blocks.push((words.first().map(|w| w.1.clone()).unwrap_or_default(), line));
            }
            end(&mut words, b, &mut reading);
        }
    }
    if !last_space || !words.is_empty() || d_quoted || s_quoted {
        let (line, name) = words.first().cloned().unwrap_or((word_line, word.clone()));
        reading.fault = Some(NginxFault::EndOfFile {
            line,
            name,
            block: false,
        });
    } else if let Some((name, line)) = blocks.pop() {
        reading.fault = Some(NginxFault::EndOfFile {
            line,
            name,
            block: true,
        });
    }
    reading
}

/// The end (past its `}`) of the Lua code of a `*_by_lua_block` whose
/// `{` ends before `at`: `{}` counted outside Lua's strings, long strings
/// `[[ ]]` and comments.
fn lua_block_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut depth = 1;
    while at < bytes.len() {
        let b = bytes[at];
        let long = |from: usize| {
            // `[`, `=`*n, `[`: the closer `]`, `=`*n, `]`.
            let mut i = from + 1;
            while bytes.get(i) == Some(&b'=') {
                i += 1;
            }
            (bytes.get(i) == Some(&b'[')).then(|| {
                let mut close = vec![b']'];
                close.extend(std::iter::repeat_n(b'=', i - from - 1));
                close.push(b']');
                (i + 1, close)
            })
        };
        match b {
            b'-' if bytes.get(at + 1) == Some(&b'-') => {
                if bytes.get(at + 2) == Some(&b'[')
                    && let Some((from, close)) = long(at + 2)
                {
                    at = find_bytes(bytes, from, &close)? + close.len();
                } else {
                    at = find_bytes(bytes, at, b"\n").map_or(bytes.len(), |e| e + 1);
                }
                continue;
            }
            b'[' => {
                if let Some((from, close)) = long(at) {
                    at = find_bytes(bytes, from, &close)? + close.len();
                    continue;
                }
            }
            b'"' | b'\'' => {
                at += 1;
                while at < bytes.len() && bytes[at] != b {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ => {}
        }
        at += 1;
    }
    None
}

/// The first `needle` in `bytes` from `at`.
fn find_bytes(bytes: &[u8], at: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(at..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| at + p)
}

/// Whether `name` reads as a directive's name (not a value such as
/// `text/html`, `~*\.png$` or `200`).
fn directive_like(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// [`web_fault`] of an nginx configuration.
fn nginx_fault(original: &str, result: &str) -> Option<WebFault> {
    let before = read_nginx(original);
    if before.fault.is_some() {
        return None;
    }
    let after = read_nginx(result);
    let read = before_words(original, "read with every block closed and directive ended");
    let quoted = |line: usize| format!("line {line} `{}`", line_text(result, line));
    let unbalanced = |fault: String, advice: &str| WebFault {
        kind: WebKind::Unbalanced,
        fault,
        advice: advice.to_string(),
    };
    if let Some(fault) = after.fault {
        return Some(match fault {
            NginxFault::UnexpectedClose(at, Some((name, from))) => unbalanced(
                format!(
                    "as written, the `{name}` directive on {} is not ended by `;` before the `}}` \
                     on line {at}; {read} (nginx -t: `unexpected \"}}\"`)",
                    quoted(from)
                ),
                "send the new text with the directive's `;`",
            ),
            NginxFault::UnexpectedClose(at, None) => unbalanced(
                format!(
                    "as written, the `}}` on {} closes no block; {read} (nginx -t: `unexpected \
                     \"}}\"`)",
                    quoted(at)
                ),
                "leave out the extra `}`, or send the line that opens its block",
            ),
            NginxFault::EndOfFile {
                line: at,
                name,
                block: true,
            } => unbalanced(
                format!(
                    "as written, the `{name}` block opened on {} is never closed; {read} (nginx \
                     -t: `unexpected end of file, expecting \"}}\"`)",
                    quoted(at)
                ),
                "send the new text with the block's closing `}`",
            ),
            NginxFault::EndOfFile { line: at, name, .. } => unbalanced(
                format!(
                    "as written, the `{name}` directive on {} runs to the end of the file without \
                     its `;`; {read} (nginx -t: `unexpected end of file, expecting \";\" or \
                     \"}}\"`)",
                    quoted(at)
                ),
                "send the new text with the directive's `;` (and a quote it opens closed)",
            ),
            NginxFault::Unexpected(b, at) => unbalanced(
                format!(
                    "as written, the `{}` on {} stands where nginx expects a space or a \
                     directive; {read} (nginx -t: `unexpected \"{}\"`)",
                    b as char,
                    quoted(at),
                    b as char
                ),
                "send the new text with each quoted word followed by a space or `;`",
            ),
        });
    }
    // Names nginx (or this file) opens a block with, and names the file
    // gives directives.
    let opens = |name: &str| {
        NGINX_BLOCKS.contains(&name)
            || name.ends_with("_block")
            || before
                .directives
                .iter()
                .any(|d| d.ended_by == b'{' && d.name == name)
    };
    // A directive ended by the `{` of a block header on a line below it
    // (its `;` dropped): a name opening no block (a module's own block,
    // on one line, is not judged).
    let swallows_block = |d: &&Directive| {
        d.ended_by == b'{' && !opens(&d.name) && d.line_starts.iter().any(|(_, w)| opens(w))
    };
    let not_terminated =
        |reading: &NginxReading| reading.directives.iter().filter(swallows_block).count();
    if not_terminated(&after) > not_terminated(&before)
        && let Some(d) = after.directives.iter().find(swallows_block)
    {
        let from = d.lines.first().copied().unwrap_or(1);
        return Some(unbalanced(
            format!(
                "as written, the `{}` directive on {} is ended by a `{{`, and nginx gives it no \
                 block; {read} (nginx -t: `directive \"{}\" is not terminated by \";\"`)",
                d.name,
                quoted(from),
                d.name
            ),
            "send the new text with the directive's `;`",
        ));
    }
    let names: std::collections::HashSet<&str> = before
        .directives
        .iter()
        .map(|d| d.name.as_str())
        .filter(|n| directive_like(n))
        .collect();
    let run_on = |reading: &NginxReading| {
        reading
            .directives
            .iter()
            .filter_map(|d| {
                let (at, next) = d
                    .line_starts
                    .iter()
                    .find(|(_, w)| names.contains(&w.as_str()))?;
                Some((
                    d.name.clone(),
                    d.lines.first().copied().unwrap_or(1),
                    *at,
                    next.clone(),
                ))
            })
            .collect::<Vec<_>>()
    };
    let (was, now) = (run_on(&before), run_on(&after));
    if now.len() > was.len()
        && let Some((name, from, at, next)) = now
            .iter()
            .find(|r| !was.iter().any(|w| w.0 == r.0 && w.3 == r.3))
            .or(now.first())
    {
        return Some(unbalanced(
            format!(
                "as written, the `{name}` directive on {} has no `;`, so the `{next}` directive \
                 on {} is read as more of its arguments; {read} (nginx -t: `invalid number of \
                 arguments in \"{name}\" directive` where it takes fewer)",
                quoted(*from),
                quoted(*at)
            ),
            "send the new text with the directive's `;`",
        ));
    }
    None
}

// -------------------------------------------------------------- pages

/// The byte ranges of a page's elements named `name` (`script`,
/// `style`), each its text and start tag's attributes, outside
/// `<!-- -->` comments; `None` where an element has no end tag (left to
/// [`super::doubt_markup`]).
fn elements<'t>(text: &'t str, name: &str) -> Option<Vec<(usize, usize, &'t str)>> {
    let lower = text.to_ascii_lowercase();
    let open = format!("<{name}");
    let close = format!("</{name}");
    let mut found = Vec::new();
    let mut at = 0;
    // The next `<!--` at or after `at`, found again only once passed (a
    // page of many scripts and no comment is read once).
    let mut next_comment: Option<usize> = lower.find("<!--");
    while at < lower.len() {
        if next_comment.is_some_and(|c| c < at) {
            next_comment = lower[at..].find("<!--").map(|i| at + i);
        }
        let next_open = lower[at..]
            .match_indices(&open)
            .map(|(i, _)| at + i)
            .find(|&i| {
                lower
                    .as_bytes()
                    .get(i + open.len())
                    .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
            });
        let Some(start) = next_open else { break };
        if let Some(c) = next_comment
            && c < start
        {
            at = lower[c + 4..].find("-->").map(|i| c + 4 + i + 3)?;
            continue;
        }
        let tag_end = tag_end(lower.as_bytes(), start)?;
        let attrs = &text[start + open.len()..tag_end];
        let body = tag_end + 1;
        if attrs.trim_end().ends_with('/') {
            at = body;
            continue;
        }
        // `</script` ends the element only before white space, `>` or `/`
        // (`run('</scripts>')` stays the script's text, as html5lib reads).
        let end = lower[body..]
            .match_indices(&close)
            .map(|(i, _)| body + i)
            .find(|&i| {
                lower
                    .as_bytes()
                    .get(i + close.len())
                    .is_none_or(|b| b.is_ascii_whitespace() || *b == b'>' || *b == b'/')
            })?;
        found.push((body, end, attrs));
        at = end + close.len();
    }
    Some(found)
}

/// The `>` ending the start tag at `at`, outside its quoted values.
fn tag_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let mut quote = None;
    while at < bytes.len() {
        let b = bytes[at];
        match quote {
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if b == b'"' || b == b'\'' => quote = Some(b),
            None if b == b'>' => return Some(at),
            None => {}
        }
        at += 1;
    }
    None
}

/// The value of attribute `name` in a start tag's attributes, lowercase.
fn attribute(attrs: &str, name: &str) -> Option<String> {
    let lower = attrs.to_ascii_lowercase();
    let mut from = 0;
    while let Some(i) = lower[from..].find(name).map(|i| from + i) {
        from = i + name.len();
        let before_ok = i == 0 || lower.as_bytes()[i - 1].is_ascii_whitespace();
        let rest = lower[from..].trim_start();
        if !before_ok || !rest.starts_with('=') {
            continue;
        }
        let value = rest[1..].trim_start();
        return Some(match value.chars().next() {
            Some(q @ ('"' | '\'')) => value[1..].split(q).next().unwrap_or("").to_string(),
            _ => value
                .split(|c: char| c.is_ascii_whitespace() || c == '>')
                .next()
                .unwrap_or("")
                .to_string(),
        });
    }
    None
}

/// The text of `text`'s `ranges` alone, each other character but line
/// breaks left out (a space between two ranges on one line): line `n` of
/// the view is line `n` of the file.
fn view(text: &str, ranges: &[(usize, usize)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for &(start, end) in ranges {
        let gap = &text[at..start];
        let breaks = gap.matches('\n').count();
        if breaks == 0 && at > 0 {
            out.push(' ');
        }
        out.extend(std::iter::repeat_n('\n', breaks));
        out.push_str(&text[start..end]);
        at = end;
    }
    out.extend(std::iter::repeat_n('\n', text[at..].matches('\n').count()));
    out
}

/// How a `<script>` is read, by its `type` and `lang`: as this file name
/// for [`brace_fault`], or not at all.
fn script_reading(attrs: &str) -> Option<&'static str> {
    if attribute(attrs, "src").is_some() {
        return None;
    }
    let lang = attribute(attrs, "lang");
    let ts = matches!(lang.as_deref(), Some("ts" | "typescript"));
    if lang.is_some() && !ts && !matches!(lang.as_deref(), Some("js" | "javascript")) {
        return None;
    }
    match attribute(attrs, "type").as_deref() {
        None | Some("" | "module" | "text/javascript" | "application/javascript") => {}
        Some("application/json" | "application/ld+json" | "importmap") => {}
        Some(_) => return None,
    }
    Some(if ts { "script.ts" } else { "script.js" })
}

/// The line (1-based) of byte `at` of `text`.
fn line_at(text: &str, at: usize) -> usize {
    text[..at.min(text.len())].matches('\n').count() + 1
}

/// Counts a stylesheet's `{}` outside comments, strings and `url(..)`
/// (SCSS's and Less's `//` comments too: `line_comments`): the line of a
/// `}` closing nothing, or of a `{` never closed.
fn css_braces(text: &str, line_comments: bool) -> Option<(bool, usize)> {
    let bytes = text.as_bytes();
    let mut open: Vec<usize> = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'\n' => line += 1,
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = text[i + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |e| i + 2 + e + 2);
                line += text[i..end].matches('\n').count();
                i = end;
                continue;
            }
            b'/' if line_comments && bytes.get(i + 1) == Some(&b'/') => {
                i = text[i..].find('\n').map_or(bytes.len(), |e| i + e);
                continue;
            }
            b'"' | b'\'' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if bytes.get(i) == Some(&b) {
                    i += 1;
                }
                continue;
            }
            b'(' if i >= 3 && bytes[i - 3..i].eq_ignore_ascii_case(b"url") => {
                let rest = text[i + 1..].trim_start();
                if !rest.starts_with(['"', '\'']) {
                    i = text[i..].find([')', '\n']).map_or(bytes.len(), |e| i + e);
                    continue;
                }
            }
            b'{' => open.push(line),
            b'}' if open.pop().is_none() => return Some((false, line)),
            _ => {}
        }
        i += 1;
    }
    open.last().map(|&l| (true, l))
}

/// The `<template>` tags of a Vue component outside its scripts, styles
/// and comments: the line of a `</template>` closing none, or of a
/// `<template>` never closed.
fn vue_templates(text: &str, skipped: &[(usize, usize)]) -> Option<(bool, usize)> {
    let lower = text.to_ascii_lowercase();
    let mut marks: Vec<(usize, bool)> = Vec::new();
    let outside = |i: usize| !skipped.iter().any(|&(s, e)| s <= i && i < e);
    for (i, _) in lower.match_indices("<template") {
        let next = lower.as_bytes().get(i + 9);
        let self_closing = tag_end(lower.as_bytes(), i).is_some_and(|e| lower[..e].ends_with('/'));
        if next.is_some_and(|b| b.is_ascii_whitespace() || *b == b'>') && !self_closing {
            marks.push((i, true));
        }
    }
    for (i, _) in lower.match_indices("</template") {
        marks.push((i, false));
    }
    marks.retain(|&(i, _)| outside(i));
    marks.sort_unstable();
    let mut open = Vec::new();
    for (i, opens) in marks {
        if opens {
            open.push(i);
        } else if open.pop().is_none() {
            return Some((false, line_at(text, i)));
        }
    }
    open.last().map(|&i| (true, line_at(text, i)))
}

/// A page's pieces read by this check: its scripts' views (by the file
/// name they are read as), its styles' views (SCSS or Less: with `//`
/// comments), the ranges of scripts, styles and comments; `None` where an
/// element has no end tag.
struct Page {
    scripts: Vec<(&'static str, String)>,
    styles: Vec<(bool, String)>,
    skipped: Vec<(usize, usize)>,
}

fn read_page(text: &str) -> Option<Page> {
    let mut by_name: Vec<(&'static str, Vec<(usize, usize)>)> = Vec::new();
    let mut skipped = Vec::new();
    let scripts = elements(text, "script")?;
    for &(start, end, attrs) in &scripts {
        skipped.push((start, end));
        if text[start..end].contains("<!--") {
            continue;
        }
        if let Some(name) = script_reading(attrs) {
            match by_name.iter_mut().find(|(n, _)| *n == name) {
                Some((_, ranges)) => ranges.push((start, end)),
                None => by_name.push((name, vec![(start, end)])),
            }
        }
    }
    let mut css: Vec<(bool, Vec<(usize, usize)>)> = Vec::new();
    for (start, end, attrs) in elements(text, "style")? {
        // A `<style>` in a script's text (a template literal) is text.
        if scripts.iter().any(|&(s, e, _)| s <= start && start < e) {
            continue;
        }
        skipped.push((start, end));
        let lang = attribute(attrs, "lang");
        let line_comments = match lang.as_deref() {
            None | Some("css" | "postcss") => false,
            Some("scss" | "less") => true,
            Some(_) => continue,
        };
        match css.iter_mut().find(|(l, _)| *l == line_comments) {
            Some((_, ranges)) => ranges.push((start, end)),
            None => css.push((line_comments, vec![(start, end)])),
        }
    }
    let lower = text.to_ascii_lowercase();
    let mut at = 0;
    while let Some(c) = lower[at..].find("<!--").map(|i| at + i) {
        let end = lower[c + 4..]
            .find("-->")
            .map_or(text.len(), |i| c + 4 + i + 3);
        skipped.push((c, end));
        at = end;
    }
    Some(Page {
        scripts: by_name
            .into_iter()
            .map(|(name, ranges)| (name, view(text, &ranges)))
            .collect(),
        styles: css
            .into_iter()
            .map(|(l, ranges)| (l, view(text, &ranges)))
            .collect(),
        skipped,
    })
}

/// [`web_fault`] of a page or component.
fn page_fault(original: &str, result: &str, vue: bool) -> Option<WebFault> {
    let before = read_page(original)?;
    let after = read_page(result)?;
    for (name, view_after) in &after.scripts {
        // No such script before: judged against the page's lines alone
        // (a new file against none).
        let view_before = before
            .scripts
            .iter()
            .find(|(n, _)| n == name)
            .map_or_else(|| view(original, &[]), |(_, v)| v.clone());
        let language = if name.ends_with(".ts") {
            "TypeScript"
        } else {
            "JavaScript"
        };
        let lead = format!("the code of the `<script>` elements, read as {language}: ");
        let Some(found) = brace_fault(name, &view_before, view_after) else {
            continue;
        };
        let (kind, fault, said) = match found {
            BraceFault::Unbalanced(u) => (WebKind::Unbalanced, u.fault(), u.describe()),
            BraceFault::Unclosed(q) => (WebKind::Unclosed, q.fault(), q.describe()),
            BraceFault::OpenAtEnd(o) => (WebKind::Unclosed, o.fault(), o.describe()),
        };
        let advice = said
            .strip_prefix(fault.as_str())
            .map_or("", |a| a.trim_start_matches(':').trim())
            .to_string();
        let advice = if advice.is_empty() {
            "send the new text with its brackets and quotes closed".to_string()
        } else {
            advice
        };
        return Some(WebFault {
            kind,
            fault: format!("{lead}{fault}"),
            advice,
        });
    }
    for (line_comments, view_after) in &after.styles {
        let view_before = before
            .styles
            .iter()
            .find(|(l, _)| l == line_comments)
            .map_or("", |(_, v)| v.as_str());
        if css_braces(view_before, *line_comments).is_some() {
            continue;
        }
        let Some((open, at)) = css_braces(view_after, *line_comments) else {
            continue;
        };
        let read = before_words(original, "closed each");
        let quoted = format!("line {at} `{}`", line_text(result, at));
        let (fault, advice) = if open {
            (
                format!(
                    "as written, the `{{` on {quoted} inside a `<style>` element is never \
                     closed, so every rule after it in the element is read inside that rule; \
                     {read}"
                ),
                "send the new text with the rule's closing `}`",
            )
        } else {
            (
                format!(
                    "as written, the `}}` on {quoted} inside a `<style>` element closes no \
                     rule: the CSS parser drops the rule after it; {read}"
                ),
                "leave out the extra `}`, or send the line that opens its rule",
            )
        };
        return Some(WebFault {
            kind: WebKind::Unbalanced,
            fault,
            advice: advice.to_string(),
        });
    }
    if !vue || vue_templates(original, &before.skipped).is_some() {
        return None;
    }
    let (open, at) = vue_templates(result, &after.skipped)?;
    let read = before_words(original, "closed each `<template>`");
    let quoted = format!("line {at} `{}`", line_text(result, at));
    let (fault, advice) = if open {
        (
            format!(
                "as written, the `<template>` on {quoted} is never closed by `</template>`; \
                 {read} (Vue's compiler: `Element is missing end tag`)"
            ),
            "send the new text with the `</template>` that closes it",
        )
    } else {
        (
            format!(
                "as written, the `</template>` on {quoted} closes no `<template>`; {read} \
                 (Vue's compiler: `Invalid end tag`)"
            ),
            "leave out the extra `</template>`, or send the `<template>` it closes",
        )
    };
    Some(WebFault {
        kind: WebKind::MarkupOpen,
        fault,
        advice: advice.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::{WebKind, web_fault};

    /// The kind and sentence of the doubt of replacing `old` by `new` in
    /// `text` (the file `path`).
    fn said(path: &str, text: &str, old: &str, new: &str) -> Option<(WebKind, String)> {
        assert!(text.contains(old), "{old:?}");
        let result = text.replacen(old, new, 1);
        web_fault(path, text, &result).map(|f| (f.kind, f.describe()))
    }

    const PHP: &str = concat!(
        "<html>\n",
        "<body>\n",
        "<?php\n",
        "// Greets the user.\n",
        "function greet($name) {\n",
        "    if ($name === '') {\n",
        "        return \"Hi {$user['x']}\";\n",
        "    }\n",
        "    $doc = <<<EOT\n",
        "    a { b ( c\n",
        "    EOT;\n",
        "    # a hash comment {\n",
        "    return \"Hello $name\";\n",
        "}\n",
        "?>\n",
        "<p><?= greet('a') ?></p>\n",
        "<?php if ($x) { ?>\n",
        "<b>{</b>\n",
        "<?php } // ends here ?>{\n",
        "</body>\n",
        "</html>\n",
    );

    #[test]
    fn an_edit_changing_no_mark_is_not_read() {
        let long = "a".repeat(10_000);
        let text = format!("{long}\n<script>\nf({{}});\n</script>\n{long}");
        assert!(!super::changes_marks(&text, &text.replacen("f(", "fg(", 1)));
        assert!(super::changes_marks(&text, &text.replacen("f(", "f((", 1)));
        assert!(super::changes_marks(&text, &text.replacen("});", "}", 1)));
        assert!(!super::changes_marks(&text, &format!("{text}\n")));
        assert!(super::changes_marks("a", "a}"));
        assert!(super::changes_marks("}a", "a"));
    }

    #[test]
    fn a_php_block_left_open_or_closed_twice_is_doubted() {
        let got = said("index.php", PHP, "    }\n    $doc", "    $doc");
        let (kind, why) = got.expect("a doubt");
        assert_eq!(kind, WebKind::Unbalanced);
        assert!(
            why.contains("the `{` on line 5 `function greet($name) {` is never closed")
                && why.contains("php -l: `Unclosed '{' on line 5`"),
            "{why}"
        );
        let (_, why) = said("index.php", PHP, "<?php } //", "<?php } } //").expect("a doubt");
        assert!(
            why.contains("the `}` on line 19 `<?php } } // ends here ?>{` closes nothing open")
                && why.contains("unexpected token \"}\""),
            "{why}"
        );
        let (_, why) = said("index.php", PHP, "greet('a')", "greet('a'}").expect("a doubt");
        assert!(
            why.contains(
                "the `}` on line 16 `<p><?= greet('a'} ?></p>` meets the `(` opened on line 16"
            ),
            "{why}"
        );
        let (kind, why) = said("index.php", PHP, "'a'", "'a").expect("a doubt");
        assert_eq!(kind, WebKind::Unclosed);
        assert!(
            why.contains("a string opened on line 16 `<p><?= greet('a) ?></p>` runs to the end"),
            "{why}"
        );
    }

    #[test]
    fn php_strings_comments_heredocs_and_html_are_not_counted() {
        for (old, new) in [
            ("a { b ( c", "a { b ( c {"),
            ("a hash comment {", "a hash comment { {"),
            ("<b>{</b>", "<b>{{</b>"),
            ("\"Hello $name\"", "\"Hello {$name} }\""),
            ("// ends here ?>{", "// ends here { ?>{"),
            ("return \"Hi", "// }\n        return \"Hi"),
            ("<html>", "<?xml version=\"1.0\"?>\n<html>"),
            (
                "    return \"Hello",
                "    $a = <<<'NOW'\n    }\n    NOW;\n    return \"Hello",
            ),
            (
                "    return \"Hello",
                "    #[Attr(['a'])]\n    return \"Hello",
            ),
        ] {
            assert_eq!(said("index.php", PHP, old, new), None, "{new}");
        }
        // A file unbalanced before is not judged.
        let broken = PHP.replace("    }\n    $doc", "    $doc");
        assert_eq!(said("a.php", &broken, "<html>", "<html lang=\"en\">"), None);
        assert_eq!(said("a.php", &broken, "<?php } //", "<?php //"), None);
        // Code after `__halt_compiler` is data.
        let halted = "<?php\necho 1;\n__halt_compiler();\n{ data\n";
        assert_eq!(said("a.php", halted, "data", "data {"), None);
    }

    const NGINX: &str = "# The site.\nserver {\n    listen 80;\n    server_name example.com\n        www.example.com;\n\
        root /var/www;\n    index index.html;\n    location / {\n        try_files $uri $uri/ =404; # a {\n\
        add_header X-A \"a;b}\";\n        rewrite \"^/(a{2})$\" /b;\n    }\n}\n";

    #[test]
    fn an_nginx_block_or_directive_left_open_is_doubted() {
        let path = "/etc/nginx/sites-available/default";
        let (kind, why) = said(path, NGINX, "    }\n}", "}").expect("a doubt");
        assert_eq!(kind, WebKind::Unbalanced);
        assert!(
            why.contains("the `server` block opened on line 2 `server {` is never closed")
                && why.contains("expecting \\\"}\\\"")
                || why.contains("expecting \"}\""),
            "{why}"
        );
        let (_, why) = said(
            path,
            NGINX,
            "rewrite \"^/(a{2})$\" /b;",
            "rewrite \"^/(a{2})$\" /b",
        )
        .expect("a doubt");
        assert!(
            why.contains("the `rewrite` directive on line 11") && why.contains("unexpected \"}\""),
            "{why}"
        );
        let (_, why) = said(path, NGINX, "root /var/www;", "root /var/www").expect("a doubt");
        assert!(
            why.contains("the `root` directive on line 6 `root /var/www` has no `;`")
                && why.contains("the `index` directive on line 7"),
            "{why}"
        );
        let (_, why) = said(path, NGINX, "index index.html;", "index index.html").expect("a doubt");
        assert!(
            why.contains("directive \"index\" is not terminated by \";\""),
            "{why}"
        );
        let (_, why) = said("nginx.conf", NGINX, "}\n", "}\n}\n").expect("a doubt");
        assert!(why.contains("closes no block"), "{why}");
        // The quote left open closes at the next one.
        let (_, why) = said("nginx.conf", NGINX, "\"a;b}\"", "\"a;b}").expect("a doubt");
        assert!(why.contains("nginx -t: `unexpected \"^\"`"), "{why}");
        let (_, why) = said(
            "nginx.conf",
            NGINX,
            "index index.html;",
            "index \"index.html;",
        )
        .expect("a doubt");
        assert!(why.contains("nginx -t: `unexpected \"a\"`"), "{why}");
    }

    #[test]
    fn harmless_nginx_edits_and_other_files_are_not_doubted() {
        let path = "/etc/nginx/conf.d/site.conf";
        for (old, new) in [
            ("# The site.", "# The site. {"),
            ("listen 80;", "listen 8080;"),
            ("listen 80;", "listen 80;\n    listen [::]:80;"),
            (
                "root /var/www;",
                "root /srv/www;\n    client_max_body_size 10m;",
            ),
            (
                "    }\n}",
                "    }\n    location /api {\n        proxy_pass http://b;\n    }\n}",
            ),
            ("a;b}", "a;b};c{"),
            (
                "index index.html;",
                "index index.html\n          index.htm;",
            ),
        ] {
            assert_eq!(said(path, NGINX, old, new), None, "{new}");
        }
        // OpenResty's Lua blocks are Lua: a `}` in a string, no `;`.
        let lua = "http {\n    server {\n        location / {\n            content_by_lua_block {\n                local s = \"}\" -- }\n                if s then ngx.say(s) end\n            }\n        }\n    }\n}\n";
        assert_eq!(said("nginx.conf", lua, "ngx.say(s)", "ngx.say('{')"), None);
        let (_, why) = said("nginx.conf", lua, "    }\n}\n", "}\n").expect("a doubt");
        assert!(why.contains("the `http` block opened on line 1"), "{why}");
        // Not an nginx file by its name.
        assert_eq!(said("/etc/app/site.conf", NGINX, "    }\n}", "}"), None);
    }

    const VUE: &str = "<template>\n  <div>\n    <template v-if=\"ok\"><p>{{ a }}</p></template>\n  </div>\n</template>\n\n\
        <script setup lang=\"ts\">\nimport { ref } from 'vue';\nconst a = ref(1);\nfunction go(): void {\n  a.value++;\n}\n\
        </script>\n\n<style scoped lang=\"scss\">\n// a { note\n.a {\n  color: red;\n  background: url(//x/a.png);\n}\n</style>\n";

    #[test]
    fn a_vue_component_left_unbalanced_is_doubted() {
        let (kind, why) =
            said("App.vue", VUE, "  a.value++;\n}\n", "  a.value++;\n").expect("a doubt");
        assert_eq!(kind, WebKind::Unbalanced);
        assert!(
            why.starts_with("the code of the `<script>` elements, read as TypeScript: as written, the file has one `}` fewer than `{`"),
            "{why}"
        );
        let (kind, why) = said("App.vue", VUE, "a.png);\n}\n", "a.png);\n").expect("a doubt");
        assert_eq!(kind, WebKind::Unbalanced);
        assert!(
            why.contains("the `{` on line 17 `.a {` inside a `<style>` element is never closed"),
            "{why}"
        );
        let (kind, why) =
            said("App.vue", VUE, "  </div>\n</template>", "  </div>").expect("a doubt");
        assert_eq!(kind, WebKind::MarkupOpen);
        assert!(
            why.contains("the `<template>` on line 1 `<template>` is never closed"),
            "{why}"
        );
        let (kind, _) = said("App.vue", VUE, "'vue';", "'vue;").expect("a doubt");
        assert_eq!(kind, WebKind::Unclosed);
    }

    #[test]
    fn an_inline_script_or_style_left_unbalanced_is_doubted() {
        let page = "<!doctype html>\n<html>\n<head>\n<style>\nbody { margin: 0; }\n</style>\n</head>\n<body>\n\
            <!-- <script> { </script> -->\n<script type=\"text/template\">{</script>\n<script>\n$(function () {\n  init();\n});\n</script>\n</body>\n</html>\n";
        let (_, why) = said("index.html", page, "  init();\n});", "  init();\n").expect("a doubt");
        assert!(why.contains("read as JavaScript"), "{why}");
        let (_, why) = said("index.html", page, "margin: 0; }", "margin: 0; }}").expect("a doubt");
        assert!(
            why.contains(
                "the `}` on line 5 `body { margin: 0; }}` inside a `<style>` element closes no rule"
            ),
            "{why}"
        );
        for (old, new) in [
            (
                "<!-- <script> { </script> -->",
                "<!-- <script> { { </script> -->",
            ),
            ("{</script>", "{{</script>"),
            ("init();", "init({ a: '}' });"),
            ("margin: 0;", "margin: 0; content: '}';"),
            ("<body>\n", "<body>\n<p>{</p>\n"),
            // A `<style>` in a script's template literal is its text.
            ("  init();", "  init(`<style>\n.a {\n</style>`);"),
        ] {
            assert_eq!(said("index.html", page, old, new), None, "{new}");
        }
    }
}
