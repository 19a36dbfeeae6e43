//! *Pure.* An edit that leaves a Ruby or Lua file with a block's `end`
//! lost, or an `end` too many (tester 47 T-05's remainder: the brace
//! check counts brackets; these two languages close their blocks with a
//! word, and an edit dropping the `end` of a method was allowed; Ruby
//! then refuses the file, "syntax error, unexpected end-of-input", Lua
//! "'end' expected").
//!
//! The rule, by evidence only, for a Ruby file or a Lua file as
//! [`Script::of`] tells them: the file before reads balanced (each block
//! opened is closed, and each `end` closes one), and the file as the edit
//! leaves it does not. A reading that meets what it cannot tell (below:
//! "not read"), or ends inside a string, a comment or a heredoc, judges
//! nothing.
//!
//! What opens a block:
//! - Ruby: `def` (not an endless `def a = 1`), `class` (`class << self`
//!   too), `module`, `begin`, `case`, `for`, `do` (not a `while`'s,
//!   `until`'s or `for`'s own `do` on its line), and `if`, `unless`,
//!   `while`, `until` where they start an expression (a line's first word,
//!   after `;`, `=`, `(`, `,`, an operator, `then`, `else`, `do`, `and`,
//!   `or`, `not`..): after a value (`return if x`, `x += 1 while y`,
//!   `end while z`, a line continued by `\`) they are modifiers, opening
//!   nothing. A word after `.`, `&.` or `::` is a method (`range.end`), a
//!   word before `:` a hash key (`if: 1`), `:end` a symbol. Read past:
//!   `#` comments, `=begin`/`=end`, `'..'`, `".."` and backquotes with
//!   their `#{..}` (their code read), percent literals (`%w[..]`,
//!   `%Q{..}`, `%(..)`, brackets nesting), regular expressions `/../`
//!   (told from a division by what precedes the `/`), `?x` characters,
//!   `$'`-style globals, heredocs (`<<~EOS`, `<<-'EOS'`, `<<EOS`: their
//!   bodies, up to the closing word), and all after `__END__`.
//! - Lua: `function`, `if`, `do` (a `while`'s and a `for`'s too) closed
//!   by `end`, `repeat` closed by `until`. Read past: `--` comments,
//!   `--[[ .. ]]` and `--[==[ .. ]==]`, strings `'..'`, `".."` (a final
//!   `\` continuing them) and long strings `[[ .. ]]`, a `#!` first line.
//!   A `repeat` closed by `end` (or a block by `until`) is a fault too.
//!
//! Not read: a Ruby string, percent literal or regular expression, or a
//! Lua string, left open at the file's end; a heredoc or `=begin` whose
//! closing line never comes.

use super::doubt_braces::{count_word, edit_place};
use super::doubt_twins::Script;
use crate::textdiff::changed_lines;

/// The language whose blocks close with `end`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndLang {
    /// Ruby (`.rb`, `.rake`, `.gemspec`, `Rakefile`, a `ruby` `#!`).
    Ruby,
    /// Lua (`.lua`, a `lua` `#!`).
    Lua,
}

impl EndLang {
    /// The language of the file `path` whose content is `content`.
    fn of(path: &str, content: &str) -> Option<EndLang> {
        match Script::of(path, content)? {
            Script::Ruby => Some(EndLang::Ruby),
            Script::Lua => Some(EndLang::Lua),
            Script::Shell | Script::Make => None,
        }
    }

    /// Its name in a sentence.
    fn name(self) -> &'static str {
        match self {
            EndLang::Ruby => "Ruby",
            EndLang::Lua => "Lua",
        }
    }

    /// What the language says of a block left without its `end`.
    fn refusal(self) -> &'static str {
        match self {
            EndLang::Ruby => "syntax error, unexpected end-of-input",
            EndLang::Lua => "'end' expected",
        }
    }
}

/// What a reading of a file found of its blocks.
#[derive(Debug, Default, Clone)]
struct Blocks {
    /// The blocks open: line (0-based) and the word that opened each.
    open: Vec<(usize, &'static str)>,
    /// The first closer that closes no block, or a block of another kind
    /// (Lua's `until` closing a `function`): its line and word.
    stray: Option<(usize, &'static str)>,
    /// Per line read: the blocks it opens and the closers it holds.
    per_line: Vec<(usize, usize)>,
    /// A construct the reading cannot tell was met, or the reading ended
    /// inside a string, a comment or a heredoc.
    unsure: bool,
}

impl Blocks {
    fn opens(&mut self, line: usize, word: &'static str) {
        self.open.push((line, word));
        self.count(line).0 += 1;
    }

    /// A closer `word` on `line`; `repeat`: whether it is Lua's `until`.
    fn closes(&mut self, line: usize, word: &'static str) {
        self.count(line).1 += 1;
        let wants_repeat = word == "until";
        match self.open.pop() {
            Some((_, opener)) if (opener == "repeat") == wants_repeat => {}
            _ => {
                self.stray.get_or_insert((line, word));
            }
        }
    }

    fn count(&mut self, line: usize) -> &mut (usize, usize) {
        if self.per_line.len() <= line {
            self.per_line.resize(line + 1, (0, 0));
        }
        &mut self.per_line[line]
    }

    /// Whether every block read is closed and every closer closes one.
    fn balanced(&self) -> bool {
        self.open.is_empty() && self.stray.is_none()
    }
}

/// Reads `lines` in `lang`.
fn read(lang: EndLang, lines: &[&str]) -> Blocks {
    match lang {
        EndLang::Ruby => ruby::read(lines),
        EndLang::Lua => lua::read(lines),
    }
}

/// A block an edit leaves without its `end`, or an `end` it leaves
/// closing nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndsUnbalanced {
    /// The file's language.
    pub lang: EndLang,
    /// How many more blocks than closers the result has (fewer: below 0).
    pub excess: i64,
    /// The line named (1-based) and its text: of the old text, a closer
    /// its new text lost (more blocks) or an opener it lost (more
    /// closers); of the result, an opener the new text adds (more blocks)
    /// or a closer it adds (more closers).
    pub line: Option<(usize, String)>,
    /// Whether `line` is of the old text.
    pub of_old: bool,
    /// Lua: a closer of the other kind (`until` closing a block `end`
    /// closes, or `end` a `repeat`): its line (1-based) and word.
    pub crossed: Option<(usize, &'static str)>,
}

impl EndsUnbalanced {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let advice = if self.crossed.is_some() {
            "close a `repeat` with `until` and every other block with `end`"
        } else {
            match (self.excess > 0, self.of_old) {
                (true, true) => "send the new text with its closing `end`",
                (true, false) => "close the block the new text opens with `end`, or leave it out",
                (false, true) => "send the new text with the line that opens the block",
                (false, false) => "leave out the extra `end`, or open the block it closes",
            }
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let lang = self.lang.name();
        if let Some((line, word)) = self.crossed {
            return format!(
                "as written, the `{word}` on line {line} closes a block of another kind \
                 (srview reads {lang}'s blocks outside strings and comments; the file before \
                 closed each with its own word)"
            );
        }
        let n = self.excess.unsigned_abs();
        let count = count_word(n);
        let head = if self.excess > 0 {
            let blocks = if n == 1 { "block" } else { "blocks" };
            format!(
                "as written, {count} {blocks} of the file {} left without its `end` ({lang} \
                 refuses the file: {})",
                if n == 1 { "is" } else { "are" },
                self.lang.refusal()
            )
        } else {
            format!("as written, the file has {count} `end` more than the blocks it opens")
        };
        let place = match &self.line {
            Some(l) => edit_place(l, self.excess > 0, self.of_old, "`end`"),
            None => String::new(),
        };
        format!(
            "{head} (srview reads {lang}'s blocks outside strings and comments; the file \
             before closed each){place}"
        )
    }
}

/// The blocks `result` (the file `path` as an edit leaves it) leaves
/// unclosed, or the `end` it leaves closing nothing, where `original`
/// (the file before) read balanced (see the module).
pub fn ends_unbalanced(path: &str, original: &str, result: &str) -> Option<EndsUnbalanced> {
    if original == result {
        return None;
    }
    // A file the edit creates is told by its new text.
    let lang = EndLang::of(path, super::file_kind::told_by(original, result))?;
    let (old, new, prefix, suffix) = changed_lines(original, result);
    let before = read(lang, &old);
    if before.unsure || !before.balanced() {
        return None;
    }
    let after = read(lang, &new);
    if after.unsure || after.balanced() {
        return None;
    }
    let old_changed = prefix..old.len() - suffix;
    let new_changed = prefix..new.len() - suffix;
    let sum = |b: &Blocks, range: std::ops::Range<usize>| {
        range.fold((0usize, 0usize), |(o, c), at| {
            let (lo, lc) = b.per_line.get(at).copied().unwrap_or_default();
            (o + lo, c + lc)
        })
    };
    let (old_opens, old_closes) = sum(&before, old_changed.clone());
    let (new_opens, new_closes) = sum(&after, new_changed.clone());
    // The edit's own lines must change the balance: a reading that moves
    // for another reason (a string the edit opens) is not judged here.
    let excess = (new_opens as i64 - new_closes as i64) - (old_opens as i64 - old_closes as i64);
    if excess == 0 {
        // Every block counted closed, a closer of the other kind met.
        let crossed = after.stray.filter(|(at, _)| new_changed.contains(at))?;
        return Some(EndsUnbalanced {
            lang,
            excess: 0,
            line: None,
            of_old: false,
            crossed: Some((crossed.0 + 1, crossed.1)),
        });
    }
    // The line named: where the edit's old text had a closer (an opener)
    // its new text lost, else the new text's opener (closer) it adds.
    let first_with = |b: &Blocks, range: std::ops::Range<usize>, closer: bool, last: bool| {
        let mut lines = range.filter(|&at| {
            b.per_line
                .get(at)
                .is_some_and(|&(o, c)| if closer { c > 0 } else { o > 0 })
        });
        if last {
            lines.next_back()
        } else {
            lines.next()
        }
    };
    let (line, of_old) = if excess > 0 {
        if old_closes > new_closes {
            (first_with(&before, old_changed, true, true), true)
        } else {
            (first_with(&after, new_changed, false, false), false)
        }
    } else if old_opens > new_opens {
        (first_with(&before, old_changed, false, true), true)
    } else {
        (first_with(&after, new_changed, true, false), false)
    };
    let text = |at: usize| {
        let lines = if of_old { &old } else { &new };
        (at + 1, lines[at].to_string())
    };
    Some(EndsUnbalanced {
        lang,
        excess,
        line: line.map(text),
        of_old,
        crossed: None,
    })
}

/// Whether `c` continues a word (a name, a keyword).
pub(crate) fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The word of `chars` starting at `at`, and the index after it.
fn word_at(chars: &[char], at: usize) -> (String, usize) {
    let end = at + chars[at..].iter().take_while(|c| word_char(**c)).count();
    (chars[at..end].iter().collect(), end)
}

/// The Lua reader.
mod lua {
    use super::{Blocks, word_at, word_char};
    use crate::diagnose::strings::long_bracket;

    /// Where the reading is at a line's end.
    enum State {
        Code,
        /// A long string or comment of this level.
        Long(usize),
        /// A quoted string continued by a final `\`.
        Quote(char),
    }

    pub(super) fn read(lines: &[&str]) -> Blocks {
        let mut blocks = Blocks::default();
        let mut state = State::Code;
        for (at, raw) in lines.iter().enumerate() {
            let line = raw.trim_end_matches('\r');
            if at == 0 && line.starts_with('#') {
                continue;
            }
            let chars: Vec<char> = line.chars().collect();
            let mut i = 0;
            while i < chars.len() {
                let c = chars[i];
                match state {
                    State::Long(level) => {
                        let closes = c == ']'
                            && (1..=level).all(|k| chars.get(i + k) == Some(&'='))
                            && chars.get(i + 1 + level) == Some(&']');
                        if closes {
                            state = State::Code;
                            i += level + 1;
                        }
                    }
                    State::Quote(q) => {
                        if c == '\\' {
                            // `\z` skips the white space after it, line
                            // breaks too: not read.
                            if chars.get(i + 1) == Some(&'z') {
                                blocks.unsure = true;
                            }
                            i += 1;
                        } else if c == q {
                            state = State::Code;
                        }
                    }
                    State::Code => {
                        if c == '-' && chars.get(i + 1) == Some(&'-') {
                            match long_bracket(&chars, i + 2) {
                                Some(level) => {
                                    state = State::Long(level);
                                    i += level + 3;
                                }
                                None => break,
                            }
                        } else if let Some(level) = long_bracket(&chars, i) {
                            state = State::Long(level);
                            i += level + 1;
                        } else if c == '"' || c == '\'' {
                            state = State::Quote(c);
                        } else if word_char(c) {
                            let (word, end) = word_at(&chars, i);
                            // A number's letters (`0x1f`, `1e5`) are no word.
                            if !c.is_ascii_digit() {
                                match word.as_str() {
                                    "function" => blocks.opens(at, "function"),
                                    "if" => blocks.opens(at, "if"),
                                    "do" => blocks.opens(at, "do"),
                                    "repeat" => blocks.opens(at, "repeat"),
                                    "end" => blocks.closes(at, "end"),
                                    "until" => blocks.closes(at, "until"),
                                    _ => {}
                                }
                            }
                            i = end;
                            continue;
                        }
                    }
                }
                i += 1;
            }
            // A quote no `\` continues ends with its line: Lua refuses it.
            if let State::Quote(_) = state
                && !line.ends_with('\\')
            {
                blocks.unsure = true;
                state = State::Code;
            }
        }
        blocks.unsure |= !matches!(state, State::Code);
        blocks
    }
}

/// The Ruby reader.
mod ruby {
    use super::{Blocks, word_at, word_char};
    use crate::diagnose::doubt_twins::closing_delimiter;
    use crate::diagnose::doubt_twins::ruby::method as ruby_method;
    use std::collections::VecDeque;

    /// What the last token read leaves: whether an `if` after it starts an
    /// expression (opening a block) or follows a value (a modifier).
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Ctx {
        Start,
        Value,
    }

    /// A string being read, or code inside a string's `#{..}`.
    #[derive(Debug, Clone, Copy)]
    enum Mode {
        /// Code of an interpolation, this many `{` deep in it.
        Interp(usize),
        /// A string (a percent literal, a regular expression) closed by
        /// `close`, whose `open` nests (`%Q{a {b}}`) where it differs;
        /// `interp`: `#{..}` holds code; `regex`: flags follow its end.
        Quoted {
            open: char,
            close: char,
            depth: usize,
            interp: bool,
            regex: bool,
        },
    }

    /// Words after which `if`, `unless`, `while` and `until` start an
    /// expression (as after an operator).
    const STARTS: [&str; 16] = [
        "then", "else", "elsif", "when", "in", "rescue", "ensure", "and", "or", "not", "do",
        "begin", "if", "unless", "while", "until",
    ];

    /// The reading's state.
    struct Reader {
        blocks: Blocks,
        modes: Vec<Mode>,
        /// Heredocs whose bodies come: closing word, and whether it may
        /// be indented.
        heredocs: VecDeque<(String, bool)>,
        ctx: Ctx,
        /// A `while`, `until` or `for` read on this statement: its `do`
        /// opens nothing.
        loop_do: bool,
        /// The last token was `.`, `&.` or `::`: the next word is a
        /// method's name.
        member: bool,
    }

    pub(super) fn read(lines: &[&str]) -> Blocks {
        let mut r = Reader {
            blocks: Blocks::default(),
            modes: Vec::new(),
            heredocs: VecDeque::new(),
            ctx: Ctx::Start,
            loop_do: false,
            member: false,
        };
        let mut comment = false;
        let mut continued = false;
        for (at, raw) in lines.iter().enumerate() {
            let line = raw.trim_end_matches('\r');
            if comment {
                comment = !line.starts_with("=end");
                continue;
            }
            if let Some((word, indented)) = r.heredocs.front() {
                let text = if *indented { line.trim() } else { line };
                if text == word {
                    r.heredocs.pop_front();
                }
                continue;
            }
            if r.modes.is_empty() {
                if line == "__END__" {
                    break;
                }
                if line.starts_with("=begin") {
                    comment = true;
                    continue;
                }
                if !continued {
                    // A line ending in an operator (`until a or`) goes on:
                    // its loop's `do` may come.
                    r.loop_do &= r.ctx == Ctx::Start;
                    r.ctx = Ctx::Start;
                }
            }
            let chars: Vec<char> = line.chars().collect();
            r.line(at, &chars);
            continued = line.ends_with('\\');
        }
        let mut blocks = r.blocks;
        blocks.unsure |= comment || !r.modes.is_empty() || !r.heredocs.is_empty();
        blocks
    }

    impl Reader {
        /// Reads one line.
        fn line(&mut self, at: usize, chars: &[char]) {
            let mut i = 0;
            while i < chars.len() {
                i = match self.modes.last().copied() {
                    Some(Mode::Quoted {
                        open,
                        close,
                        depth,
                        interp,
                        regex,
                    }) => self.quoted(chars, i, (open, close, depth, interp, regex)),
                    _ => match self.code(at, chars, i) {
                        Some(next) => next,
                        None => return,
                    },
                };
            }
        }

        /// Reads a string's text at `chars[i]`: the index to read next.
        fn quoted(
            &mut self,
            chars: &[char],
            i: usize,
            (open, close, depth, interp, regex): (char, char, usize, bool, bool),
        ) -> usize {
            let c = chars[i];
            if c == '\\' {
                return i + 2;
            }
            if interp && c == '#' && chars.get(i + 1) == Some(&'{') {
                self.modes.push(Mode::Interp(0));
                self.ctx = Ctx::Start;
                return i + 2;
            }
            let set = |modes: &mut Vec<Mode>, depth: usize| {
                if let Some(top) = modes.last_mut() {
                    *top = Mode::Quoted {
                        open,
                        close,
                        depth,
                        interp,
                        regex,
                    };
                }
            };
            if c == close {
                if depth > 0 {
                    set(&mut self.modes, depth - 1);
                    return i + 1;
                }
                self.modes.pop();
                self.ctx = Ctx::Value;
                let mut next = i + 1;
                if regex {
                    next += chars[next..]
                        .iter()
                        .take_while(|c| c.is_ascii_alphabetic())
                        .count();
                }
                return next;
            }
            if c == open && open != close {
                set(&mut self.modes, depth + 1);
            }
            i + 1
        }

        /// Enters a string closed by `close` (opened by `open`).
        fn enter(&mut self, open: char, interp: bool, regex: bool) {
            self.modes.push(Mode::Quoted {
                open,
                close: closing_delimiter(open),
                depth: 0,
                interp,
                regex,
            });
        }

        /// Reads code at `chars[i]`: the index to read next; `None` where
        /// the rest of the line is a comment.
        fn code(&mut self, at: usize, chars: &[char], i: usize) -> Option<usize> {
            let c = chars[i];
            if c == ' ' || c == '\t' {
                return Some(i + 1);
            }
            let next = chars.get(i + 1).copied();
            let member = std::mem::take(&mut self.member);
            // Whether a space precedes `chars[i]` and a word before it: a
            // method's first argument may follow (`puts %w[a]`, `p /x/`).
            let after_name_space = i > 0
                && chars[i - 1].is_whitespace()
                && chars[..i]
                    .iter()
                    .rev()
                    .find(|c| !c.is_whitespace())
                    .is_some_and(|c| word_char(*c))
                && next.is_some_and(|n| !n.is_whitespace() && n != '=');
            let argument = self.ctx == Ctx::Start || after_name_space;
            let start = |r: &mut Reader, to: usize| {
                r.ctx = Ctx::Start;
                Some(to)
            };
            match c {
                '#' => None,
                ';' => {
                    self.loop_do = false;
                    start(self, i + 1)
                }
                '\\' => Some(i + 2),
                '{' => {
                    if let Some(Mode::Interp(d)) = self.modes.last_mut() {
                        *d += 1;
                    }
                    start(self, i + 1)
                }
                '}' => {
                    match self.modes.last_mut() {
                        Some(Mode::Interp(0)) => {
                            self.modes.pop();
                        }
                        Some(Mode::Interp(d)) => *d -= 1,
                        _ => {}
                    }
                    self.ctx = Ctx::Value;
                    Some(i + 1)
                }
                ')' | ']' => {
                    self.ctx = Ctx::Value;
                    Some(i + 1)
                }
                '\'' => {
                    self.enter('\'', false, false);
                    Some(i + 1)
                }
                '"' | '`' => {
                    self.enter(c, true, false);
                    Some(i + 1)
                }
                ':' if matches!(next, Some('"' | '\'')) => {
                    self.enter(next.unwrap_or('"'), next == Some('"'), false);
                    Some(i + 2)
                }
                ':' if !(i > 0 && word_char(chars[i - 1]))
                    && let Some(n) = operator_symbol(&chars[i + 1..]) =>
                {
                    // An operator's symbol (`:/`, `:<<`, `:%`, `:[]=`).
                    self.ctx = Ctx::Value;
                    Some(i + 1 + n)
                }
                ':' if next == Some(':') => {
                    self.member = true;
                    start(self, i + 2)
                }
                ':' if next.is_some_and(|n| word_char(n) && !n.is_ascii_digit())
                    && !(i > 0 && word_char(chars[i - 1])) =>
                {
                    // A symbol (`:end`).
                    let (_, end) = word_at(chars, i + 1);
                    self.ctx = Ctx::Value;
                    Some(end + usize::from(matches!(chars.get(end), Some('?' | '!' | '='))))
                }
                '.' if next == Some('.') => {
                    let dots = chars[i..].iter().take_while(|d| **d == '.').count();
                    start(self, i + dots)
                }
                '.' => {
                    self.member = true;
                    start(self, i + 1)
                }
                '?' if self.ctx == Ctx::Start && next.is_some() => {
                    // A character literal `?a`, `?\n`.
                    self.ctx = Ctx::Value;
                    if next == Some('\\') {
                        return Some(i + 3);
                    }
                    if chars.get(i + 2).is_some_and(|n| word_char(*n)) {
                        // `?ab` is no literal: Ruby refuses it; not read.
                        self.blocks.unsure = true;
                    }
                    Some(i + 2)
                }
                '$' => {
                    // A global: `$stdout`, `$'`, `$/`, `$-w`.
                    self.ctx = Ctx::Value;
                    match next {
                        Some(n) if word_char(n) => Some(word_at(chars, i + 1).1),
                        Some('-') => Some(i + 3),
                        Some(_) => Some(i + 2),
                        None => Some(i + 1),
                    }
                }
                '@' => {
                    let ats = chars[i..].iter().take_while(|d| **d == '@').count();
                    self.ctx = Ctx::Value;
                    Some(match chars.get(i + ats) {
                        Some(n) if word_char(*n) => word_at(chars, i + ats).1,
                        _ => i + ats,
                    })
                }
                '%' if argument => match percent(chars, i) {
                    Some((delimiter, interp, regex, to)) => {
                        self.enter(delimiter, interp, regex);
                        Some(to)
                    }
                    None => start(self, i + 1),
                },
                '/' if argument => {
                    self.enter('/', true, true);
                    Some(i + 1)
                }
                '<' if next == Some('<') && argument => match heredoc(chars, i + 2) {
                    Some((word, indented, to)) => {
                        self.heredocs.push_back((word, indented));
                        self.ctx = Ctx::Value;
                        Some(to)
                    }
                    None => start(self, i + 2),
                },
                '<' if next == Some('<') => start(self, i + 2),
                _ if c.is_ascii_digit() => {
                    let (_, end) = word_at(chars, i);
                    self.ctx = Ctx::Value;
                    Some(end)
                }
                _ if word_char(c) => Some(self.word(at, chars, i, member)),
                _ => start(self, i + 1),
            }
        }

        /// Reads the word at `chars[i]` (`member`: after `.` or `::`): the
        /// index after it.
        fn word(&mut self, at: usize, chars: &[char], i: usize, member: bool) -> usize {
            let (word, mut end) = word_at(chars, i);
            // A method's `?` or `!` (`empty?`), not `!=`.
            if matches!(chars.get(end), Some('?' | '!')) && chars.get(end + 1) != Some(&'=') {
                end += 1;
                self.ctx = Ctx::Value;
                return end;
            }
            // A hash key (`if: 1`), not `::`.
            let key = chars.get(end) == Some(&':') && chars.get(end + 1) != Some(&':');
            if member || key {
                self.ctx = Ctx::Value;
                return end;
            }
            let starts = self.ctx == Ctx::Start;
            self.ctx = if STARTS.contains(&word.as_str()) {
                Ctx::Start
            } else {
                Ctx::Value
            };
            match word.as_str() {
                "end" => self.blocks.closes(at, "end"),
                "def" => return self.def(at, chars, end),
                "class" => {
                    self.blocks.opens(at, "class");
                    // `class << self`: no heredoc.
                    let rest = chars[end..]
                        .iter()
                        .take_while(|c| c.is_whitespace())
                        .count();
                    if chars.get(end + rest) == Some(&'<')
                        && chars.get(end + rest + 1) == Some(&'<')
                    {
                        end += rest + 2;
                    }
                    self.ctx = Ctx::Start;
                }
                "module" => self.blocks.opens(at, "module"),
                "begin" => self.blocks.opens(at, "begin"),
                "case" => self.blocks.opens(at, "case"),
                "for" => {
                    self.blocks.opens(at, "for");
                    self.loop_do = true;
                }
                "do" if self.loop_do => self.loop_do = false,
                "do" => self.blocks.opens(at, "do"),
                "if" | "unless" | "while" | "until" if starts => {
                    let opener = match word.as_str() {
                        "if" => "if",
                        "unless" => "unless",
                        "while" => "while",
                        _ => "until",
                    };
                    self.blocks.opens(at, opener);
                    self.loop_do = matches!(opener, "while" | "until");
                }
                _ => {}
            }
            end
        }

        /// Reads a `def` whose name follows `chars[from]`: opens its
        /// block unless it is endless (`def a = 1`); the index after the
        /// name.
        fn def(&mut self, at: usize, chars: &[char], from: usize) -> usize {
            let rest: String = chars[from..].iter().collect();
            let spaces = chars[from..]
                .iter()
                .take_while(|c| c.is_whitespace())
                .count();
            let mut end = from + spaces;
            if rest.trim_start().starts_with("self.") {
                end += 5;
            }
            end += chars[end..]
                .iter()
                .take_while(|c| !matches!(c, '(' | ';') && !c.is_whitespace())
                .count();
            if !matches!(ruby_method(&rest), Some((_, true))) {
                // `def obj.name` (no name read): a block all the same.
                self.blocks.opens(at, "def");
            }
            self.ctx = Ctx::Value;
            // The parameters' `)` ends the header: the body starts an
            // expression (`def re(s) /x/ end`).
            let spaces = chars[end..].iter().take_while(|c| **c == ' ').count();
            if chars.get(end + spaces) == Some(&'(') {
                let mut depth = 0usize;
                for (k, c) in chars.iter().enumerate().skip(end + spaces) {
                    match c {
                        '(' => depth += 1,
                        ')' => {
                            depth -= 1;
                            if depth == 0 {
                                self.ctx = Ctx::Start;
                                return k + 1;
                            }
                        }
                        _ => {}
                    }
                }
            }
            end
        }
    }

    /// The length of the operator a symbol names at the start of `rest`
    /// (after its `:`), if it names one.
    fn operator_symbol(rest: &[char]) -> Option<usize> {
        const OPERATORS: [&str; 25] = [
            "[]=", "[]", "<=>", "===", "==", "=~", "!=", "!~", "**", "<<", ">>", "<=", ">=", "+@",
            "-@", "+", "-", "*", "/", "%", "<", ">", "!", "&", "|",
        ];
        let text: String = rest.iter().take(3).collect();
        let op = OPERATORS.iter().find(|o| text.starts_with(*o))?;
        // `:/` before a word or a space ends there; `a ? b :-1` is no symbol
        // where a digit follows.
        let after = rest.get(op.len()).copied();
        (!after.is_some_and(|c| c.is_ascii_digit())).then_some(op.len())
    }

    /// A percent literal opening at `chars[i]` (a `%`): its delimiter,
    /// whether it interpolates, whether it is a regular expression, and
    /// the index after its opening.
    fn percent(chars: &[char], i: usize) -> Option<(char, bool, bool, usize)> {
        let kind = chars.get(i + 1).copied()?;
        let typed = "qQwWiIrsx".contains(kind);
        let at = i + 1 + usize::from(typed);
        let delimiter = chars.get(at).copied()?;
        let ok = !delimiter.is_alphanumeric()
            && !delimiter.is_whitespace()
            && !matches!(delimiter, '_' | '=' | ',' | ';' | ')' | ']' | '}' | '>');
        if !ok {
            return None;
        }
        let interp = !typed || "QWIrx".contains(kind);
        Some((delimiter, interp, typed && kind == 'r', at + 1))
    }

    /// A heredoc's opening after `<<` at `chars[i]`: its closing word,
    /// whether the word may be indented (`<<~`, `<<-`), and the index
    /// after the opening. A bare `<<WORD` only with a capital or `_`
    /// first (`x <<y` is read as a shift).
    fn heredoc(chars: &[char], i: usize) -> Option<(String, bool, usize)> {
        let mut j = i;
        let indented = matches!(chars.get(j), Some('~' | '-'));
        if indented {
            j += 1;
        }
        let quote = chars
            .get(j)
            .filter(|q| matches!(q, '\'' | '"' | '`'))
            .copied();
        if quote.is_some() {
            j += 1;
        }
        if let Some(q) = quote {
            // A quoted word may hold any character but its quote
            // (`<<-'end;'`).
            let close = (j..chars.len()).find(|&k| chars[k] == q)?;
            let word: String = chars[j..close].iter().collect();
            return Some((word, indented, close + 1));
        }
        let first = chars.get(j).copied()?;
        let bare = !indented && quote.is_none();
        if !(first.is_alphabetic() || first == '_') || (bare && first.is_lowercase()) {
            return None;
        }
        let (word, end) = word_at(chars, j);
        Some((word, indented, end))
    }
}

#[cfg(test)]
mod tests;
