//! *Pure.* An edit that leaves a shell script one `bash -n` refuses, where
//! the script before read clean (a tester's find, round 44, T-12: a
//! dropped `fi` or a `"` left open was written and called fine).
//!
//! The rule, conservative, for a sh or bash script ([`shell_script`]):
//! - the script is read as the shell's parser reads its structure: words,
//!   quotes (`'...'`, `"..."`, `$'...'`, backquotes) over lines, `$(...)`,
//!   `${...}`, `$((...))`, comments, `\` escapes, heredoc bodies skipped,
//!   and the reserved words at a command's start: `if`/`then`/`elif`/
//!   `else`/`fi`, `do`/`done`, `case`/`esac` (with its patterns), `{`/`}`,
//!   and `(`/`)`;
//! - a fault: a quote or a block still open at the file's end, or a
//!   closing word (`fi`, `done`, `esac`, `}`, `)`, `then`, `else`, `;;`)
//!   where its block is not the one open;
//! - anything the reader is unsure of (a heredoc never ended, an extended
//!   glob, a `[[` over lines, ...) gives no verdict, for either text;
//! - doubted: the result has a fault, the script before read clean.
//!
//! The verdicts are tested against `bash -n` (tests/fixtures/trust/shell/).

/// A fault that makes `bash -n` refuse a script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellFault {
    /// A quote, a substitution or a block opened at `line` and open at the
    /// file's end.
    Open {
        /// What opens it: `"`, `'`, `` ` ``, `$(`, `${`, `if`, `do`,
        /// `case`, `{`, `(`.
        opener: &'static str,
        /// The line (1-based) it opens at.
        line: usize,
    },
    /// A closing word where its block is not the one open.
    Unexpected {
        /// The word: `fi`, `done`, `esac`, `}`, `)`, `then`, `elif`,
        /// `else`, `;;`.
        word: &'static str,
        /// Its line (1-based).
        line: usize,
    },
    /// A command where a `case` pattern (ending in `)`) or `esac` belongs.
    NotPattern {
        /// Its line (1-based).
        line: usize,
    },
}

impl ShellFault {
    /// The line (1-based) the fault is said at.
    pub fn line(&self) -> usize {
        match *self {
            ShellFault::Open { line, .. }
            | ShellFault::Unexpected { line, .. }
            | ShellFault::NotPattern { line } => line,
        }
    }

    /// Whether it is a quote (or a substitution) left open.
    pub fn is_quote(&self) -> bool {
        matches!(
            self,
            ShellFault::Open {
                opener: "\"" | "'" | "`" | "$(" | "${",
                ..
            }
        )
    }

    /// What closes `opener`.
    fn closer(opener: &str) -> &'static str {
        match opener {
            "\"" => "\"",
            "'" => "'",
            "`" => "`",
            "$(" | "(" => ")",
            "${" | "{" => "}",
            "if" => "fi",
            "do" => "done",
            _ => "esac",
        }
    }
}

/// A fault an edit leaves in a shell script, with the line it is at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellBreak {
    /// The fault.
    pub fault: ShellFault,
    /// The result's line it is at, trimmed.
    pub text: String,
    /// The result's first line the edit changed (1-based).
    pub changed: usize,
}

impl ShellBreak {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match self.fault {
            ShellFault::Open { opener, .. } if self.fault.is_quote() => format!(
                "close the `{opener}` with `{}` in the new text",
                ShellFault::closer(opener)
            ),
            ShellFault::Open { opener, .. } => format!(
                "keep the `{}` that closes the `{opener}` in the new text",
                ShellFault::closer(opener)
            ),
            ShellFault::Unexpected { .. } | ShellFault::NotPattern { .. } => {
                "send the new text with each block closed by its own word".to_string()
            }
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let line = self.fault.line();
        let what = match self.fault {
            ShellFault::Open { opener, .. } => format!(
                "opens `{opener}` and nothing closes it with `{}` before the file's end",
                ShellFault::closer(opener)
            ),
            ShellFault::Unexpected { word, .. } => {
                format!("has `{word}` where no block it closes is open")
            }
            ShellFault::NotPattern { .. } => {
                "has a command where a `case` pattern (ending in `)`) or `esac` belongs".to_string()
            }
        };
        format!(
            "as the edit (from line {}) leaves it, `bash -n` refuses the script: line {line} \
             (`{}`) {what}, where the script before read clean",
            self.changed, self.text
        )
    }
}

/// Whether `path` (content `content`, any version) is a script read as
/// sh or bash: `.sh`, `.bash`, a `.bashrc`-like name, or a `#!` line
/// naming `sh`, `bash`, `dash` or `ash` (not zsh or ksh, whose syntax
/// differs).
pub fn shell_script(path: &str, content: &str) -> bool {
    use super::doubt_twins::Script;
    use super::file_kind::interpreter;
    if Script::of(path, content) != Some(Script::Shell) {
        return false;
    }
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let other = [".zsh", ".ksh", ".zshrc", ".zprofile", ".kshrc"]
        .iter()
        .any(|ext| name.ends_with(ext));
    !other && !matches!(interpreter(content), Some("zsh" | "ksh" | "mksh"))
}

/// The fault `result` (the script `path` as an edit leaves it) has where
/// `original` read clean; `None` when there is none, when either text is
/// one the reader is unsure of, or `path` is no sh or bash script.
pub(super) fn shell_syntax(path: &str, original: &str, result: &str) -> Option<ShellBreak> {
    let base = if original.is_empty() {
        result
    } else {
        original
    };
    if !shell_script(path, base) || scan(original) != Ok(()) {
        return None;
    }
    let Err(Stop::Fault(fault)) = scan(result) else {
        return None;
    };
    let lines: Vec<&str> = result.lines().collect();
    let text = lines
        .get(fault.line().saturating_sub(1))
        .map_or("", |l| l.trim())
        .to_string();
    let changed = original
        .lines()
        .zip(result.lines())
        .take_while(|(a, b)| a == b)
        .count()
        + 1;
    Some(ShellBreak {
        fault,
        text,
        changed,
    })
}

/// Why a scan stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A fault `bash -n` refuses.
    Fault(ShellFault),
    /// Something the reader is unsure of: no verdict.
    Unsure,
}

/// Reads `text` as a script: `Ok` when it reads clean.
pub fn scan(text: &str) -> Result<(), Stop> {
    let mut reader = Reader {
        s: text.as_bytes(),
        i: 0,
        line: 1,
        heredocs: Vec::new(),
    };
    reader.commands(false)
}

/// A block open in a list of commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// An `if`: its stage.
    If(IfStage),
    Do,
    /// A `case`: its stage.
    Case(CaseStage),
    Brace,
    Paren,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum IfStage {
    /// Its condition (after `if` or `elif`).
    Condition,
    /// After `then`.
    Then,
    /// After `else`.
    Else,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CaseStage {
    /// Before `in` (the subject read or not).
    Head { subject: bool },
    /// Where a pattern (or `esac`) is read.
    Pattern,
    /// A pattern's commands.
    Body,
}

impl Block {
    fn opener(self) -> &'static str {
        match self {
            Block::If(_) => "if",
            Block::Do => "do",
            Block::Case(_) => "case",
            Block::Brace => "{",
            Block::Paren => "(",
        }
    }
}

/// The reader's place in a script.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    /// Heredocs whose bodies start after the current line: the delimiter,
    /// and whether leading tabs are stripped (`<<-`).
    heredocs: Vec<(Vec<u8>, bool)>,
}

/// A byte that ends a word outside quotes.
fn separator(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

type Scan = Result<(), Stop>;

impl Reader<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.i + ahead).copied()
    }

    /// Steps past one byte, counting lines.
    fn bump(&mut self) {
        if self.peek(0) == Some(b'\n') {
            self.line += 1;
        }
        self.i += 1;
    }

    fn fault_open(opener: &'static str, line: usize) -> Stop {
        Stop::Fault(ShellFault::Open { opener, line })
    }

    fn unexpected(&self, word: &'static str) -> Stop {
        Stop::Fault(ShellFault::Unexpected {
            word,
            line: self.line,
        })
    }

    /// Skips blanks and `\` line continuations.
    fn blanks(&mut self) {
        loop {
            match (self.peek(0), self.peek(1)) {
                (Some(b' ' | b'\t' | b'\r'), _) => self.i += 1,
                (Some(b'\\'), Some(b'\n')) => {
                    self.i += 1;
                    self.bump();
                }
                _ => return,
            }
        }
    }

    /// A list of commands up to the file's end, or (`in_subst`) to the
    /// `)` closing a `$(` (consumed).
    fn commands(&mut self, in_subst: bool) -> Scan {
        let mut stack: Vec<(Block, usize)> = Vec::new();
        let mut cmd = true;
        // The next word is a redirection's target or a function's name.
        let mut target = false;
        let mut name_then_cmd = false;
        let mut after_for = false;
        let mut for_do = false;
        loop {
            self.blanks();
            let Some(c) = self.peek(0) else {
                return match stack.last() {
                    Some(&(b, line)) => Err(Self::fault_open(b.opener(), line)),
                    None if in_subst => Err(Stop::Unsure),
                    None => Ok(()),
                };
            };
            if let Some((Block::Case(CaseStage::Pattern), _)) = stack.last() {
                if self.pattern(&mut stack)? {
                    cmd = true;
                }
                continue;
            }
            match c {
                b'#' => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'\n' => {
                    self.newline()?;
                    cmd = true;
                    target = false;
                }
                b';' => {
                    self.i += 1;
                    if matches!(self.peek(0), Some(b';' | b'&')) {
                        self.i += 1;
                        if self.peek(0) == Some(b'&') {
                            self.i += 1;
                        }
                        match stack.last_mut() {
                            Some((Block::Case(stage @ CaseStage::Body), _)) => {
                                *stage = CaseStage::Pattern;
                            }
                            _ => return Err(self.unexpected(";;")),
                        }
                    }
                    cmd = true;
                }
                b'&' | b'|' => {
                    self.i += 1;
                    if c == b'&' && self.peek(0) == Some(b'>') {
                        target = self.redirect()?;
                        continue;
                    }
                    if matches!(self.peek(0), Some(b'&' | b'|')) {
                        self.i += 1;
                    }
                    cmd = true;
                }
                b'(' => {
                    if self.peek(1) == Some(b'(') && (cmd || after_for) {
                        self.i += 2;
                        self.arithmetic(2)?;
                        cmd = false;
                    } else {
                        stack.push((Block::Paren, self.line));
                        self.i += 1;
                        cmd = true;
                    }
                    after_for = false;
                }
                b')' => match stack.last() {
                    Some((Block::Paren, _)) => {
                        stack.pop();
                        self.i += 1;
                        cmd = true;
                    }
                    None if in_subst => {
                        self.i += 1;
                        return Ok(());
                    }
                    _ => return Err(self.unexpected(")")),
                },
                b'<' | b'>' => {
                    if self.peek(1) == Some(b'(') {
                        let line = self.line;
                        self.i += 2;
                        self.substitution(line)?;
                        cmd = false;
                    } else {
                        target = self.redirect()?;
                    }
                }
                _ => {
                    let (word, plain) = self.word()?;
                    // `for NAME do`: a `do` right after the loop's name.
                    let for_name = after_for;
                    after_for = false;
                    if for_name {
                        for_do = true;
                        continue;
                    }
                    if std::mem::take(&mut for_do) && plain && word == b"do" {
                        stack.push((Block::Do, self.line));
                        cmd = true;
                        continue;
                    }
                    if target {
                        target = false;
                        continue;
                    }
                    if name_then_cmd {
                        name_then_cmd = false;
                        cmd = true;
                        continue;
                    }
                    if let Some(entry @ (Block::Case(CaseStage::Head { .. }), _)) = stack.last_mut()
                    {
                        match entry.0 {
                            Block::Case(CaseStage::Head { subject: false }) => {
                                entry.0 = Block::Case(CaseStage::Head { subject: true });
                            }
                            _ if plain && word == b"in" => {
                                entry.0 = Block::Case(CaseStage::Pattern);
                            }
                            _ => return Err(Stop::Unsure),
                        }
                        continue;
                    }
                    if !(cmd && plain) {
                        cmd = false;
                        continue;
                    }
                    cmd = self.keyword(&word, &mut stack, &mut after_for, &mut name_then_cmd)?;
                }
            }
        }
    }

    /// A reserved word `word` at a command's start: the blocks it opens or
    /// closes; whether a command's start follows it.
    fn keyword(
        &mut self,
        word: &[u8],
        stack: &mut Vec<(Block, usize)>,
        after_for: &mut bool,
        name_then_cmd: &mut bool,
    ) -> Result<bool, Stop> {
        let line = self.line;
        let top = stack.last().map(|&(b, _)| b);
        let close = |stack: &mut Vec<(Block, usize)>, want: Block, word: &'static str| {
            if top == Some(want) {
                stack.pop();
                Ok(true)
            } else {
                Err(Stop::Fault(ShellFault::Unexpected { word, line }))
            }
        };
        match word {
            b"if" => stack.push((Block::If(IfStage::Condition), line)),
            b"then" | b"elif" | b"else" | b"fi" => return self.if_word(word, stack),
            b"while" | b"until" | b"!" | b"time" => {}
            b"do" => stack.push((Block::Do, line)),
            b"done" => return close(stack, Block::Do, "done"),
            b"{" => stack.push((Block::Brace, line)),
            b"}" => return close(stack, Block::Brace, "}"),
            b"esac" => return close(stack, Block::Case(CaseStage::Body), "esac"),
            b"case" => {
                stack.push((Block::Case(CaseStage::Head { subject: false }), line));
                return Ok(false);
            }
            b"for" | b"select" => {
                *after_for = true;
                return Ok(false);
            }
            b"function" => {
                *name_then_cmd = true;
                return Ok(false);
            }
            b"[[" => {
                self.test_expression()?;
                return Ok(false);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// `then`, `elif`, `else` or `fi` at a command's start: the `if` on
    /// the stack's top moved to its next stage (closed by `fi`), or a
    /// fault where it is not at a stage the word may follow.
    fn if_word(&mut self, word: &[u8], stack: &mut Vec<(Block, usize)>) -> Result<bool, Stop> {
        let (name, next) = match word {
            b"then" => ("then", IfStage::Then),
            b"elif" => ("elif", IfStage::Condition),
            b"else" => ("else", IfStage::Else),
            _ => ("fi", IfStage::Else),
        };
        let stage = match stack.last_mut() {
            Some((Block::If(stage), _)) => stage,
            _ => return Err(self.unexpected(name)),
        };
        let follows = match name {
            "then" => *stage == IfStage::Condition,
            "elif" | "else" => *stage == IfStage::Then,
            _ => *stage != IfStage::Condition,
        };
        if !follows {
            return Err(self.unexpected(name));
        }
        if name == "fi" {
            stack.pop();
        } else {
            *stage = next;
        }
        Ok(true)
    }

    /// Where a `case` pattern is read (on the stack's top): `esac` (its
    /// block closed), or a pattern up to its `)`. Whether a command's start
    /// follows.
    fn pattern(&mut self, stack: &mut Vec<(Block, usize)>) -> Result<bool, Stop> {
        match self.peek(0) {
            Some(b'\n') => return self.newline().map(|()| false),
            Some(b'#') => {
                while self.peek(0).is_some_and(|c| c != b'\n') {
                    self.i += 1;
                }
                return Ok(false);
            }
            Some(b'(') => self.i += 1,
            _ => {}
        }
        loop {
            self.blanks();
            let line = self.line;
            let (word, plain) = self.word()?;
            if word.is_empty() && !matches!(self.peek(0), Some(b')' | b'|')) {
                return Err(Stop::Unsure);
            }
            if plain && word == b"esac" {
                stack.pop();
                return Ok(true);
            }
            self.blanks();
            match self.peek(0) {
                Some(b'|') => self.i += 1,
                Some(b')') => {
                    self.i += 1;
                    if let Some((Block::Case(stage), _)) = stack.last_mut() {
                        *stage = CaseStage::Body;
                    }
                    return Ok(true);
                }
                // A pattern is one word: a command there is bash's
                // fault.
                Some(_) if !word.is_empty() => {
                    return Err(Stop::Fault(ShellFault::NotPattern { line }));
                }
                _ => return Err(Stop::Unsure),
            }
        }
    }

    /// Past a `[[ ... ]]` on one line (its `<`, `>`, `(`, `)`, `&&` are
    /// its own); unsure over lines.
    fn test_expression(&mut self) -> Scan {
        loop {
            self.blanks();
            match self.peek(0) {
                None | Some(b'\n') => return Err(Stop::Unsure),
                Some(b'(' | b')' | b'<' | b'>' | b'&' | b'|' | b'!' | b';') => self.i += 1,
                Some(_) => {
                    let (word, plain) = self.word()?;
                    if plain && word == b"]]" {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// A newline: the line's heredoc bodies after it are skipped.
    fn newline(&mut self) -> Scan {
        self.bump();
        for (delim, strip) in std::mem::take(&mut self.heredocs) {
            loop {
                if self.i >= self.s.len() {
                    // bash reads to the end with a warning: unsure.
                    return Err(Stop::Unsure);
                }
                let end = self.s[self.i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(self.s.len(), |n| self.i + n);
                let mut body = &self.s[self.i..end];
                if strip {
                    while let [b'\t', rest @ ..] = body {
                        body = rest;
                    }
                }
                let done = body == delim.as_slice();
                self.i = end;
                if self.i < self.s.len() {
                    self.bump();
                }
                if done {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A redirection operator (at `<`, `>` or `>` after `&`): a heredoc's
    /// delimiter is read and noted for the line's end. Whether a target
    /// word follows.
    fn redirect(&mut self) -> Result<bool, Stop> {
        if self.peek(0) == Some(b'<') && self.peek(1) == Some(b'<') {
            if self.peek(2) == Some(b'<') {
                self.i += 3;
                return Ok(true);
            }
            self.i += 2;
            let strip = self.peek(0) == Some(b'-');
            if strip {
                self.i += 1;
            }
            self.blanks();
            let start = self.i;
            let (_, _) = self.word()?;
            let raw = &self.s[start..self.i];
            if raw.is_empty() || raw.iter().any(|&c| matches!(c, b'$' | b'`' | b'\n')) {
                return Err(Stop::Unsure);
            }
            let delim = raw
                .iter()
                .copied()
                .filter(|&c| !matches!(c, b'\'' | b'"' | b'\\'))
                .collect();
            self.heredocs.push((delim, strip));
            return Ok(false);
        }
        while matches!(self.peek(0), Some(b'<' | b'>' | b'&' | b'|')) {
            self.i += 1;
        }
        if self.peek(0) == Some(b'-') {
            self.i += 1;
        }
        Ok(true)
    }

    /// One word (its quotes and substitutions read through); whether it is
    /// plain (no quote, escape or substitution: a reserved word may be).
    fn word(&mut self) -> Result<(Vec<u8>, bool), Stop> {
        let mut out = Vec::new();
        let mut plain = true;
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                b'\\' => {
                    plain = false;
                    self.i += 1;
                    if self.peek(0).is_some() {
                        self.bump();
                    }
                }
                b'\'' => {
                    plain = false;
                    self.i += 1;
                    self.single(line, false)?;
                }
                b'"' => {
                    plain = false;
                    self.i += 1;
                    self.double(line)?;
                }
                b'`' => {
                    plain = false;
                    self.i += 1;
                    self.backquote(line)?;
                }
                b'$' => {
                    plain = false;
                    self.i += 1;
                    self.dollar(line, false)?;
                }
                b'(' if out.last() == Some(&b'=') => {
                    plain = false;
                    self.i += 1;
                    self.array(line)?;
                }
                b'(' if matches!(out.last(), Some(b'?' | b'*' | b'+' | b'@' | b'!')) => {
                    return Err(Stop::Unsure);
                }
                c if separator(c) => break,
                c => {
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        Ok((out, plain))
    }

    /// After a `$`: `$'...'`, `$"..."`, `$(...)`, `$((...))`, `${...}`, or
    /// a plain `$`.
    fn dollar(&mut self, line: usize, in_double: bool) -> Scan {
        match self.peek(0) {
            Some(b'\'') if !in_double => {
                self.i += 1;
                self.single(line, true)
            }
            Some(b'"') if !in_double => {
                self.i += 1;
                self.double(line)
            }
            Some(b'(') if self.peek(1) == Some(b'(') => {
                self.i += 2;
                self.arithmetic(2)
            }
            Some(b'(') => {
                self.i += 1;
                self.substitution(line)
            }
            Some(b'{') => {
                self.i += 1;
                self.parameter(in_double)
            }
            _ => Ok(()),
        }
    }

    /// A `$(` (or `<(`) opened at `line`, read past its `)`.
    fn substitution(&mut self, line: usize) -> Scan {
        let heredocs = std::mem::take(&mut self.heredocs);
        match self.commands(true) {
            Err(Stop::Unsure) if self.i >= self.s.len() => Err(Self::fault_open("$(", line)),
            other => {
                self.heredocs.splice(0..0, heredocs);
                other
            }
        }
    }

    /// Past a `'...'` (`ansi`: `$'...'`, where `\` escapes).
    fn single(&mut self, line: usize, ansi: bool) -> Scan {
        self.quoted(b'\'', "'", line, ansi)
    }

    /// Past a text up to its closing `close` (opened by `opener` at
    /// `line`); `escapes`: a `\` escapes the byte after it.
    fn quoted(&mut self, close: u8, opener: &'static str, line: usize, escapes: bool) -> Scan {
        loop {
            match self.peek(0) {
                None => return Err(Self::fault_open(opener, line)),
                Some(c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') if escapes => self.escaped(),
                Some(_) => self.bump(),
            }
        }
    }

    /// Past a `\` and the byte it escapes.
    fn escaped(&mut self) {
        self.i += 1;
        if self.peek(0).is_some() {
            self.bump();
        }
    }

    /// Past a `"..."`.
    fn double(&mut self, line: usize) -> Scan {
        loop {
            let at = self.line;
            match self.peek(0) {
                None => return Err(Self::fault_open("\"", line)),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\\') => self.escaped(),
                Some(b'`') => {
                    self.i += 1;
                    self.backquote(at)?;
                }
                Some(b'$') => {
                    self.i += 1;
                    self.dollar(at, true)?;
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// Past a backquoted command (its text not read).
    fn backquote(&mut self, line: usize) -> Scan {
        self.quoted(b'`', "`", line, true)
    }

    /// Past a `${...}`; in double quotes a `'` in it is unsure.
    fn parameter(&mut self, in_double: bool) -> Scan {
        let mut depth = 1;
        loop {
            let at = self.line;
            match self.peek(0) {
                None => return Err(Stop::Unsure),
                Some(b'}') => {
                    self.i += 1;
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                Some(b'{') => {
                    self.i += 1;
                    depth += 1;
                }
                Some(b'\\') => self.escaped(),
                // bash -n reads past a `${` left open (tested): unsure.
                Some(b'\'' | b'\n') if in_double => return Err(Stop::Unsure),
                Some(b'\n') => return Err(Stop::Unsure),
                Some(b'\'') => {
                    self.i += 1;
                    self.single(at, false)?;
                }
                Some(b'"') => {
                    self.i += 1;
                    self.double(at)?;
                }
                Some(b'`') => {
                    self.i += 1;
                    self.backquote(at)?;
                }
                Some(b'$') => {
                    self.i += 1;
                    self.dollar(at, in_double)?;
                }
                Some(_) => self.bump(),
            }
        }
    }

    /// Past an arithmetic `((...))` with `depth` parentheses open.
    fn arithmetic(&mut self, mut depth: usize) -> Scan {
        while depth > 0 {
            match self.peek(0) {
                None | Some(b'\'' | b'"' | b'`') => return Err(Stop::Unsure),
                Some(b'(') => depth += 1,
                Some(b')') => depth -= 1,
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }

    /// Past an array's `(...)` after `=`: words, comments and newlines.
    fn array(&mut self, line: usize) -> Scan {
        loop {
            self.blanks();
            match self.peek(0) {
                None => return Err(Self::fault_open("(", line)),
                Some(b')') => {
                    self.i += 1;
                    return Ok(());
                }
                Some(b'\n') => self.bump(),
                Some(b'#') => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                Some(c) if separator(c) => return Err(Stop::Unsure),
                Some(_) => {
                    self.word()?;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ShellFault, Stop, scan, shell_syntax};

    const DEPLOY: &str = "#!/bin/bash\nset -e\nif [ -z \"$ENV\" ]; then\n  echo \"ENV not \
                          set\"\n  exit 1\nfi\nfor host in a b; do\n  echo \"deploy \
                          $host\"\ndone\n";

    /// The tester's two edits (round 44, T-12): a `fi` dropped, a `"` left
    /// open.
    #[test]
    fn a_dropped_fi_or_an_open_quote_is_a_fault() {
        let dropped = DEPLOY.replace("  exit 1\nfi\n", "  exit 2\n");
        let got = shell_syntax("deploy.sh", DEPLOY, &dropped).expect("a fault");
        assert_eq!(
            got.fault,
            ShellFault::Open {
                opener: "if",
                line: 3
            }
        );
        assert_eq!(
            got.describe(),
            "as the edit (from line 5) leaves it, `bash -n` refuses the script: line 3 (`if [ \
             -z \"$ENV\" ]; then`) opens `if` and nothing closes it with `fi` before the file's \
             end, where the script before read clean: keep the `fi` that closes the `if` in the new text"
        );
        let open = DEPLOY.replace("  echo \"deploy $host\"\n", "  echo \"deploy $host\n");
        let got = shell_syntax("deploy.sh", DEPLOY, &open).expect("a fault");
        assert_eq!(
            got.fault,
            ShellFault::Open {
                opener: "\"",
                line: 8
            }
        );
        assert!(got.fault.is_quote());
    }

    /// Edits `bash -n` accepts: no fault; a zsh script is not read.
    #[test]
    fn an_edit_bash_accepts_is_none() {
        let fine = [
            "  exit 1\nfi\ncase $1 in\n  a|b) echo x ;;\n  (*) echo \"it's\" ;;\nesac\n",
            "  exit 1\nfi\ncat <<'EOF'\nif \"\nEOF\n",
            "  exit 1\nfi\nx=$(case $1 in a) echo a;; esac)\n",
            "  exit 1\nfi\ndeploy() { echo \"${1:-}\" # don't\n}\n",
            "  exit 1\nfi\narr=(a 'b c' # (x\n)\n{ if true; then :; fi }\n",
        ];
        for new in fine {
            let result = DEPLOY.replace("  exit 1\nfi\n", new);
            assert_eq!(scan(&result), Ok(()), "{new}");
            assert_eq!(shell_syntax("deploy.sh", DEPLOY, &result), None, "{new}");
        }
        let dropped = DEPLOY.replace("fi\n", "");
        assert_eq!(shell_syntax("deploy.zsh", DEPLOY, &dropped), None);
        assert!(shell_syntax("deploy", DEPLOY, &dropped).is_some());
        assert_eq!(scan("cat <<EOF\nnever ended\n"), Err(Stop::Unsure));
    }
}
