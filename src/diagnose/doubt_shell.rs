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
//! - a fault: a quote, a `$((` or a block still open at the file's end, a
//!   closing word (`fi`, `done`, `esac`, `}`, `)`, `then`, `else`, `;;`)
//!   where its block is not the one open, a `do` with no loop head before
//!   it; a block's part left empty (`then` straight to `fi`, `do` to
//!   `done`, `{` to `}`: round 45, T-08); an `&&`, `||` or `|` with no
//!   command after it before a closing word, a `;`, a `)` or the file's
//!   end (T-01); and a heredoc whose delimiter no line holds, so every
//!   line after it is its text (`bash -n` only warns; T-01); a `(` after
//!   a command's words (a heredoc's text read as commands once its
//!   `cat <<EOF` line is taken out) and a `case` pattern list starting
//!   with `|` (wt-shell's leftovers, round 46);
//! - `$((` is read as bash 5.2 reads it: to the `)` matching its second
//!   `(` (quotes and substitutions read through), then a `)` right after,
//!   or else on to the `)` matching the `$(`, by the text;
//! - an extended glob (`@(a|b)`) where bash parses it with `extglob` off
//!   ([`ShellFault::Extglob`]: tester 46, T-13) is a fault; one the text
//!   above may have turned on is unsure;
//! - anything else the reader is unsure of (a `[[` over
//!   lines, ...) gives no verdict, for either text;
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
    /// A part of a block with no command in it: `then` straight to `fi`,
    /// `do` to `done`, `{` to `}`, `if` to `then`, `else` to `fi`.
    Empty {
        /// The word that began the part: `if`, `elif`, `then`, `else`,
        /// `do`, `{`.
        part: &'static str,
        /// Its line (1-based).
        opened: usize,
        /// The word that ends it: `then`, `elif`, `else`, `fi`, `done`,
        /// `}`.
        word: &'static str,
        /// That word's line (1-based).
        line: usize,
    },
    /// `&&`, `||` or `|` with no command after it before a closing word,
    /// a `;`, a `)` or the file's end.
    Dangling {
        /// The operator.
        op: &'static str,
        /// Its line (1-based).
        opened: usize,
        /// What comes instead of a command (`fi`, `;;`, ...); empty: the
        /// file's end.
        word: &'static str,
        /// Where that is (1-based; the operator's line at the file's end).
        line: usize,
    },
    /// A heredoc whose delimiter no line after it holds: bash reads every
    /// line after it, to the file's end, as its text (`bash -n` warns
    /// only).
    Heredoc {
        /// The delimiter.
        delimiter: String,
        /// The line (1-based) of the redirection.
        line: usize,
        /// The file's last line (1-based).
        last: usize,
    },
    /// A `case` pattern list starting with `|` (its first pattern's line
    /// taken out: wt-shell's leftover).
    PipeFirst {
        /// Its line (1-based).
        line: usize,
    },
    /// A `(` after a command's words (`echo a (b)`: a heredoc's text read
    /// as commands once its `cat <<EOF` line is taken out): bash reads one
    /// only where a command starts, or in a function's `NAME ()`.
    ParenAfterWords {
        /// Its line (1-based).
        line: usize,
    },
    /// An extended glob pattern (`@(`, `!(`, `+(`, `*(`, `?(`) outside a
    /// `[[ ... ]]`, where no top-level line above the command holding it
    /// turns `extglob` on: bash parses that command whole before it runs
    /// any of it (a `shopt` inside the same function comes too late) and
    /// stops at it with a syntax error (tester 46, T-13).
    Extglob {
        /// The pattern's opening: `@(`, ...
        opener: &'static str,
        /// Its line (1-based).
        line: usize,
        /// The line (1-based) the top-level command holding it starts at.
        command: usize,
    },
}

impl ShellFault {
    /// The line (1-based) the fault is said at.
    pub fn line(&self) -> usize {
        match *self {
            ShellFault::Open { line, .. }
            | ShellFault::Unexpected { line, .. }
            | ShellFault::NotPattern { line }
            | ShellFault::Empty { line, .. }
            | ShellFault::Dangling { line, .. }
            | ShellFault::Heredoc { line, .. }
            | ShellFault::PipeFirst { line }
            | ShellFault::ParenAfterWords { line }
            | ShellFault::Extglob { line, .. } => line,
        }
    }

    /// Whether it is a quote, a substitution or a heredoc left open.
    pub fn is_quote(&self) -> bool {
        matches!(
            self,
            ShellFault::Open {
                opener: "\"" | "'" | "`" | "$(" | "${" | "$((",
                ..
            } | ShellFault::Heredoc { .. }
        )
    }

    /// What closes `opener`.
    fn closer(opener: &str) -> &'static str {
        match opener {
            "\"" => "\"",
            "'" => "'",
            "`" => "`",
            "$(" | "(" => ")",
            "$((" | "((" => "))",
            "${" | "{" => "}",
            "if" => "fi",
            "do" => "done",
            "while" | "until" | "for" | "select" => "do",
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
    /// For a block part left empty: the original's first command line the
    /// edit took out or changed there (1-based), trimmed.
    pub held: Option<(usize, String)>,
}

impl ShellBreak {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match &self.fault {
            ShellFault::Heredoc { delimiter, .. } => {
                format!("end the heredoc with a line `{delimiter}` in the new text")
            }
            ShellFault::Empty { .. } => {
                "keep a command in it (`:` does nothing) or send the new text without the \
                 block"
                    .to_string()
            }
            ShellFault::Dangling { op, .. } => {
                format!("send the command that follows the `{op}`, or the new text without it")
            }
            &ShellFault::Open { opener, .. } if self.fault.is_quote() => format!(
                "close the `{opener}` with `{}` in the new text",
                ShellFault::closer(opener)
            ),
            &ShellFault::Open { opener, .. } => format!(
                "keep the `{}` that closes the `{opener}` in the new text",
                ShellFault::closer(opener)
            ),
            ShellFault::Unexpected { .. } | ShellFault::NotPattern { .. } => {
                "send the new text with each block closed by its own word".to_string()
            }
            ShellFault::PipeFirst { .. } => {
                "keep the pattern before the `|` in the new text".to_string()
            }
            ShellFault::ParenAfterWords { .. } if self.held.is_some() => {
                "keep the line that opens the heredoc in the new text".to_string()
            }
            ShellFault::ParenAfterWords { .. } => {
                "quote the `(` in the new text, or put it where a command starts".to_string()
            }
            ShellFault::Extglob {
                opener, command, ..
            } => format!(
                "put `shopt -s extglob` on a line of its own above line {command}, or send a \
                 pattern without `{opener}`"
            ),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let line = self.fault.line();
        let what = match &self.fault {
            ShellFault::Heredoc {
                delimiter, last, ..
            } => {
                let lines = if *last == line + 1 {
                    format!("line {last}")
                } else {
                    format!("lines {} to {last}", line + 1)
                };
                return format!(
                    "as the edit (from line {}) leaves it, line {line} (`{}`) opens a heredoc \
                     that a line `{delimiter}` ends, and no line after it is `{delimiter}`: bash \
                     reads {lines}, to the file's end, as the heredoc's text and runs none of \
                     it (`bash -n` only warns), where the script before read clean",
                    self.changed, self.text,
                );
            }
            ShellFault::Extglob {
                opener, command, ..
            } => {
                let within = if *command == line {
                    String::new()
                } else {
                    format!(
                        " (the command it stands in starts at line {command}: bash parses a \
                         whole function, `if` or loop before it runs any line of it, so a \
                         `shopt` inside it comes too late)"
                    )
                };
                return format!(
                    "as the edit (from line {}) leaves it, line {line} (`{}`) holds the extended \
                     glob `{opener}`, which bash parses only once `shopt -s extglob` has run, and \
                     no top-level line above the command holding it runs that{within}: running \
                     the script stops there with `syntax error near unexpected token `('`, \
                     where the script before read clean",
                    self.changed, self.text,
                );
            }
            ShellFault::Empty {
                part, opened, word, ..
            } => {
                let held = match &self.held {
                    Some((n, text)) => format!(" (before the edit, line {n} `{text}` stood there)"),
                    None => String::new(),
                };
                format!(
                    "has `{word}` right after the `{part}` of line {opened} with no command \
                     between{held}: bash refuses an empty block"
                )
            }
            ShellFault::Dangling { op, word: "", .. } => {
                format!("ends in `{op}` and no command follows before the file's end")
            }
            ShellFault::Dangling {
                op, opened, word, ..
            } => format!("has `{word}` where the `{op}` of line {opened} needs a command after it"),
            &ShellFault::Open { opener, .. } => format!(
                "opens `{opener}` and nothing closes it with `{}` before the file's end",
                ShellFault::closer(opener)
            ),
            ShellFault::Unexpected { word: "do", .. } => {
                "has `do` with no `for`, `while` or `until` before it to begin its loop".to_string()
            }
            ShellFault::Unexpected { word, .. } => {
                format!("has `{word}` where no block it closes is open")
            }
            ShellFault::NotPattern { .. } => {
                "has a command where a `case` pattern (ending in `)`) or `esac` belongs".to_string()
            }
            ShellFault::PipeFirst { .. } => {
                "starts a `case` pattern list with `|`, where bash reads a pattern first"
                    .to_string()
            }
            ShellFault::ParenAfterWords { .. } => {
                let held = match &self.held {
                    Some((n, text)) => format!(
                        " (the edit took out line {n}, `{text}`, whose heredoc text these lines \
                         were: bash now reads them as commands)"
                    ),
                    None => String::new(),
                };
                format!(
                    "has a `(` after a command's words, where bash reads one only at a \
                     command's start or in a function's `NAME ()`{held}"
                )
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
    let base = super::file_kind::told_by(original, result);
    if !shell_script(path, base) || scan(original) != Ok(()) {
        return None;
    }
    let Err(Stop::Fault(fault)) = scan(result) else {
        return None;
    };
    if execs_before(result, fault.line()) {
        return None;
    }
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
    let held = match fault {
        ShellFault::Empty { opened, .. } => held_command(original, result, opened),
        ShellFault::ParenAfterWords { .. } => heredoc_taken(original, result),
        _ => None,
    };
    Some(ShellBreak {
        fault,
        text,
        changed,
        held,
    })
}

/// Whether a line above `line` (1-based) of `text`, at column 0, runs
/// `exec` with a command (a sh head over a Python file: `'''exec'
/// python3 "$0" "$@"`): the shell is replaced there and never reads on,
/// though `bash -n` does. An `exec` of redirections alone is not one.
fn execs_before(text: &str, line: usize) -> bool {
    text.lines().take(line.saturating_sub(1)).any(|l| {
        let rest = ["exec ", "'''exec' ", "\"\"\"exec\" "]
            .iter()
            .find_map(|head| l.strip_prefix(head));
        rest.map(str::trim_start).is_some_and(|r| {
            !r.is_empty()
                && !r
                    .trim_start_matches(|c: char| c.is_ascii_digit())
                    .starts_with(['<', '>', '&'])
        })
    })
}

/// The original's first command line (not blank, not a comment) among
/// those the edit took out or changed, when it stands below line `opened`
/// (1-based): what a block part left empty held before.
fn held_command(original: &str, result: &str, opened: usize) -> Option<(usize, String)> {
    first_taken(original, result, |n, l| {
        n > opened && !l.is_empty() && !l.starts_with('#')
    })
}

/// The original's first line the edit took out or changed that opens a
/// heredoc (`<<`, not `<<<`), where the result holds fewer such lines:
/// its text now read as commands.
fn heredoc_taken(original: &str, result: &str) -> Option<(usize, String)> {
    let opens = |l: &str| l.contains("<<") && !l.contains("<<<");
    if result.lines().filter(|l| opens(l)).count() >= original.lines().filter(|l| opens(l)).count()
    {
        return None;
    }
    first_taken(original, result, |_, l| opens(l))
}

/// The original's first line among those the edit took out or changed
/// (its number, 1-based, and its text, trimmed) that `wanted` accepts.
fn first_taken(
    original: &str,
    result: &str,
    wanted: impl Fn(usize, &str) -> bool,
) -> Option<(usize, String)> {
    let before: Vec<&str> = original.lines().collect();
    let after: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = crate::textdiff::shared_ends(&before, &after);
    before[prefix..before.len() - suffix]
        .iter()
        .enumerate()
        .map(|(i, l)| (prefix + i + 1, l.trim()))
        .find(|&(n, l)| wanted(n, l))
        .map(|(n, l)| (n, l.to_string()))
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
    let mut reader = Reader::new(text);
    reader.commands(false)
}

/// Where `text` (a script that reads clean) holds a Unicode space other
/// than U+0020 ([`super::odd_spaces::odd_space`]) unquoted in a word
/// (bash splits no word at it): in a command's name, before any `=` (the
/// name runs as one command, not found), or in another word, an argument,
/// a redirection's target, a `case` pattern, a `[[ ]]` operand, not an
/// assignment's (`NAME=a b`, `local NAME=...`: two words or one value,
/// either may be meant; tester 48, T-04): byte offsets, in reading order,
/// each with whether it is in a command's name. Quotes, comments and
/// heredoc bodies are not read for it. `None` when the script does not
/// read clean.
pub(super) fn command_spaces(text: &str) -> Option<Vec<(usize, bool)>> {
    let mut reader = Reader::new(text);
    reader.commands(false).ok()?;
    Some(reader.odd_spaces)
}

/// How an edit may end a command at a line's end that a `\` was meant to
/// continue ([`joins`]; tester 48, T-03).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The line ends in `\` and blanks after it: bash reads `\ ` as an
    /// escaped space, a word, and the line's end ends the command.
    EscapedBlank,
    /// A `#` comment inside a command's words (after its words on the
    /// line, or on a line a `\` continued onto): it runs to the line's
    /// end, and a `\` in it continues nothing. `backslash`: the comment
    /// ends in `\`.
    Comment {
        /// The comment ends in `\`.
        backslash: bool,
        /// Where its `#` stands in its line (a byte offset).
        column: usize,
    },
}

/// A script's line ends as bash reads them: the lines (1-based) a `\`
/// continues onto the next (outside quotes, comments and heredocs), and
/// the lines where a [`Cut`] ends a command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Joins {
    /// The lines a `\` continues.
    pub continued: Vec<usize>,
    /// The lines where a command ends at a cut, with how.
    pub cuts: Vec<(usize, Cut)>,
}

/// [`Joins`] of `text`; `None` when it does not read clean.
pub fn joins(text: &str) -> Option<Joins> {
    let mut reader = Reader::new(text);
    reader.commands(false).ok()?;
    Some(reader.joins)
}

/// A word of a command as the reader read it ([`words`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellWord {
    /// Where it starts in the text (a byte offset).
    pub start: usize,
    /// Where it ends (the byte after it).
    pub end: usize,
    /// Its line (1-based).
    pub line: usize,
    /// Its bytes outside quotes and expansions.
    pub bare: Vec<u8>,
    /// No quote, escape or expansion in it.
    pub plain: bool,
    /// It stands where a command's name does.
    pub first: bool,
    /// It is a redirection's target.
    pub target: bool,
    /// How many `$(`/`<(` it stands inside (a command's words are those
    /// of its depth).
    pub depth: usize,
}

/// The words of `text`'s commands (and of each `[[ ... ]]`) in reading
/// order, as far as the reader read, with how its reading ended (`Ok`:
/// the script reads clean). Case patterns and backquoted commands are not
/// among them.
pub fn words(text: &str) -> (Vec<ShellWord>, Scan) {
    let mut reader = Reader::new(text);
    let read = reader.commands(false);
    (reader.words, read)
}

/// A block open in a list of commands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block {
    /// An `if`: its stage.
    If(IfStage),
    /// A loop's head (`while`, `until`, `for`, `select`), up to its `do`.
    Head(&'static str),
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
            Block::Head(word) => word,
            Block::Do => "do",
            Block::Case(_) => "case",
            Block::Brace => "{",
            Block::Paren => "(",
        }
    }
}

/// An open block: what it is, the line it opens at, and, while no
/// command stands in its current part, the word that began that part
/// (`if`, `then`, `elif`, `else`, `do`, `{`) and its line (bash refuses
/// a part left empty).
type Frame = (Block, usize, Option<(&'static str, usize)>);

/// The reader's place in a script.
struct Reader<'a> {
    s: &'a [u8],
    i: usize,
    line: usize,
    /// Heredocs whose bodies start after the current line: the delimiter,
    /// and whether leading tabs are stripped (`<<-`).
    heredocs: Vec<(Vec<u8>, bool, usize)>,
    /// Where the top-level command being read starts: its byte and line
    /// (bash parses it whole, then runs it).
    top: (usize, usize),
    /// Inside a `[[ ... ]]` (bash reads extended globs there unasked).
    in_test: bool,
    /// The word read is a command's name ([`command_spaces`]).
    command_word: bool,
    /// The odd spaces met unquoted in words, each with whether it is in a
    /// command's name ([`command_spaces`]).
    odd_spaces: Vec<(usize, bool)>,
    /// The line ends read ([`joins`]).
    joins: Joins,
    /// The words read ([`words`]) and the `$(` depth read at.
    words: Vec<ShellWord>,
    depth: usize,
}

/// Whether the script's `#!` line names bash or a POSIX sh (a sourced
/// file, with no `#!` line, runs with its shell's options).
fn bash_or_sh(text: &[u8]) -> bool {
    let end = text.iter().position(|&c| c == b'\n').unwrap_or(text.len());
    let first = String::from_utf8_lossy(&text[..end]);
    matches!(
        super::file_kind::interpreter(&first),
        Some("bash" | "sh" | "dash" | "ash")
    )
}

/// A command stands in the innermost block's current part.
fn filled(stack: &mut [Frame]) {
    if let Some(top) = stack.last_mut() {
        top.2 = None;
    }
}

/// The reserved word `word` is, where it ends a block or a block's part
/// (no command may stand right before it after `&&`, `||` or `|`).
fn closing_word(word: &[u8]) -> Option<&'static str> {
    ["then", "elif", "else", "fi", "do", "done", "esac", "}"]
        .into_iter()
        .find(|w| w.as_bytes() == word)
}

/// Whether a word that starts `head` is an assignment (`NAME=`,
/// `NAME+=`, `NAME[i]=`), as `local`, `export` and `declare` take one.
fn assigns(head: &[u8]) -> bool {
    let Some(eq) = head.iter().position(|&c| c == b'=') else {
        return false;
    };
    let name = head[..eq].strip_suffix(b"+").unwrap_or(&head[..eq]);
    let name = match name.iter().position(|&c| c == b'[') {
        Some(open) if name.ends_with(b"]") => &name[..open],
        _ => name,
    };
    is_name(name)
}

/// Whether `name` is a shell variable's name (a letter or `_`, then
/// letters, digits and `_`).
pub(super) fn is_name(name: &[u8]) -> bool {
    name.first()
        .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && name.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
}

/// A byte that ends a word outside quotes.
pub(super) fn separator(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

/// How a reading ended: `Ok` where the script reads clean.
pub type Scan = Result<(), Stop>;

impl Reader<'_> {
    /// At the start of `text`.
    fn new(text: &str) -> Reader<'_> {
        Reader {
            s: text.as_bytes(),
            i: 0,
            line: 1,
            heredocs: Vec::new(),
            top: (0, 1),
            in_test: false,
            command_word: false,
            odd_spaces: Vec::new(),
            joins: Joins::default(),
            words: Vec::new(),
            depth: 0,
        }
    }

    fn peek(&self, ahead: usize) -> Option<u8> {
        self.s.get(self.i + ahead).copied()
    }

    /// Whether the `(` at the reader is a function's `()` (blanks between).
    fn function_parens(&self) -> bool {
        self.s[self.i + 1..]
            .iter()
            .find(|c| !matches!(c, b' ' | b'\t'))
            .is_some_and(|&c| c == b')')
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

    /// `op` (and its line) with `word` where its command belongs, at
    /// `line` (`word` empty: the file's end).
    fn dangling(op: (&'static str, usize), word: &'static str, line: usize) -> Stop {
        Stop::Fault(ShellFault::Dangling {
            op: op.0,
            opened: op.1,
            word,
            line,
        })
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
                    self.joins.continued.push(self.line);
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
        let mut stack: Vec<Frame> = Vec::new();
        let mut cmd = true;
        // The next word is a redirection's target or a function's name.
        let mut target = false;
        let mut name_then_cmd = false;
        let mut after_for = false;
        let mut for_do = false;
        // An `&&`, `||` or `|` (and its line) no command follows yet.
        let mut dangling: Option<(&'static str, usize)> = None;
        loop {
            self.blanks();
            let Some(c) = self.peek(0) else {
                if let Some((op, line)) = dangling {
                    return Err(Self::dangling((op, line), "", line));
                }
                return match stack.last() {
                    Some(&(b, line, _)) => Err(Self::fault_open(b.opener(), line)),
                    None if in_subst => Err(Stop::Unsure),
                    None => Ok(()),
                };
            };
            if let Some((Block::Case(CaseStage::Pattern), _, _)) = stack.last() {
                if self.pattern(&mut stack)? {
                    cmd = true;
                }
                continue;
            }
            match c {
                b'#' => {
                    let start = self.i;
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                    // A comment inside a command's words: after words on
                    // its line, or on a line a `\` continued onto.
                    let line_start = self.s[..start]
                        .iter()
                        .rposition(|&c| c == b'\n')
                        .map_or(0, |p| p + 1);
                    let continued = self.joins.continued.last() == Some(&(self.line - 1))
                        && self.s[line_start..start].trim_ascii().is_empty();
                    if dangling.is_none() && (!cmd || continued) {
                        let backslash = self.s[start..self.i].trim_ascii_end().ends_with(b"\\");
                        if backslash || continued {
                            let column = start - line_start;
                            let cut = Cut::Comment { backslash, column };
                            self.joins.cuts.push((self.line, cut));
                        }
                    }
                }
                b'\n' => {
                    self.newline()?;
                    cmd = true;
                    target = false;
                    if !in_subst && stack.is_empty() && dangling.is_none() {
                        self.top = (self.i, self.line);
                    }
                }
                b';' => {
                    if let Some(op) = dangling {
                        let word = if self.peek(1) == Some(b';') {
                            ";;"
                        } else {
                            ";"
                        };
                        return Err(Self::dangling(op, word, self.line));
                    }
                    self.i += 1;
                    if matches!(self.peek(0), Some(b';' | b'&')) {
                        self.i += 1;
                        if self.peek(0) == Some(b'&') {
                            self.i += 1;
                        }
                        match stack.last_mut() {
                            Some((Block::Case(stage @ CaseStage::Body), _, _)) => {
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
                        dangling = None;
                        filled(&mut stack);
                        continue;
                    }
                    let op = match (c, self.peek(0)) {
                        (b'&', Some(b'&')) => "&&",
                        (b'|', Some(b'|')) => "||",
                        (b'|', Some(b'&')) => "|&",
                        (b'|', _) => "|",
                        _ => "&",
                    };
                    if let Some(before) = dangling {
                        return Err(Self::dangling(before, op, self.line));
                    }
                    if op.len() == 2 {
                        self.i += 1;
                    }
                    if op != "&" {
                        dangling = Some((op, self.line));
                    }
                    cmd = true;
                }
                b'(' => {
                    dangling = None;
                    filled(&mut stack);
                    let back = (self.i + 1, self.line);
                    if self.peek(1) == Some(b'(') && (cmd || after_for) {
                        self.i += 2;
                        if self.arithmetic("((", back.1)? {
                            cmd = false;
                        } else {
                            // `((a) b)`: bash reads a subshell in a
                            // subshell.
                            (self.i, self.line) = back;
                            stack.push((Block::Paren, self.line, None));
                            cmd = true;
                        }
                    } else if !cmd && !after_for && !self.function_parens() {
                        if self.s.windows(6).any(|w| w == b"coproc") {
                            return Err(Stop::Unsure);
                        }
                        return Err(Stop::Fault(ShellFault::ParenAfterWords { line: self.line }));
                    } else {
                        stack.push((Block::Paren, self.line, None));
                        self.i += 1;
                        cmd = true;
                    }
                    after_for = false;
                }
                b')' if dangling.is_some() => {
                    return Err(Self::dangling(dangling.unwrap_or(("", 0)), ")", self.line));
                }
                b')' => match stack.last() {
                    Some((Block::Paren, _, _)) => {
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
                    dangling = None;
                    filled(&mut stack);
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
                    self.command_word = cmd && !target && !name_then_cmd && !after_for && !for_do;
                    let (start, line) = (self.i, self.line);
                    let read = self.word();
                    let first = std::mem::take(&mut self.command_word);
                    let (word, plain) = read?;
                    self.note_word((start, line), &word, plain, (first, target));
                    // `for NAME do`: a `do` right after the loop's name.
                    let for_name = after_for;
                    after_for = false;
                    if for_name {
                        for_do = true;
                        continue;
                    }
                    if std::mem::take(&mut for_do) && plain && word == b"do" {
                        cmd =
                            self.keyword(&word, &mut stack, &mut after_for, &mut name_then_cmd)?;
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
                    if let Some(entry @ (Block::Case(CaseStage::Head { .. }), _, _)) =
                        stack.last_mut()
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
                        dangling = None;
                        filled(&mut stack);
                        cmd = false;
                        continue;
                    }
                    let closing = closing_word(&word);
                    match (dangling, closing) {
                        (Some(op), Some(word)) => {
                            return Err(Self::dangling(op, word, self.line));
                        }
                        (_, None) => {
                            dangling = None;
                            filled(&mut stack);
                        }
                        (None, Some(_)) => {}
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
        stack: &mut Vec<Frame>,
        after_for: &mut bool,
        name_then_cmd: &mut bool,
    ) -> Result<bool, Stop> {
        let line = self.line;
        let top = stack.last().map(|&(b, _, _)| b);
        let close = |stack: &mut Vec<Frame>, want: Block, word: &'static str| {
            if top == Some(want) {
                if let Some((_, _, Some((part, opened)))) = stack.pop() {
                    return Err(Stop::Fault(ShellFault::Empty {
                        part,
                        opened,
                        word,
                        line,
                    }));
                }
                Ok(true)
            } else {
                Err(Stop::Fault(ShellFault::Unexpected { word, line }))
            }
        };
        match word {
            b"if" => stack.push((Block::If(IfStage::Condition), line, Some(("if", line)))),
            b"then" | b"elif" | b"else" | b"fi" => return self.if_word(word, stack),
            b"while" => stack.push((Block::Head("while"), line, Some(("while", line)))),
            b"until" => stack.push((Block::Head("until"), line, Some(("until", line)))),
            b"!" | b"time" => {}
            b"do" => return Self::loop_do(stack, line),
            b"done" => return close(stack, Block::Do, "done"),
            b"{" => stack.push((Block::Brace, line, Some(("{", line)))),
            b"}" => return close(stack, Block::Brace, "}"),
            b"esac" => return close(stack, Block::Case(CaseStage::Body), "esac"),
            b"case" => {
                stack.push((Block::Case(CaseStage::Head { subject: false }), line, None));
                return Ok(false);
            }
            b"for" | b"select" => {
                let head = if word == b"for" { "for" } else { "select" };
                stack.push((Block::Head(head), line, None));
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

    /// `do` at a command's start (line `line`): the loop head on the
    /// stack's top becomes its body; a fault where no head is open, or a
    /// `while`/`until` has no condition.
    fn loop_do(stack: &mut [Frame], line: usize) -> Result<bool, Stop> {
        let Some(top @ (Block::Head(_), _, _)) = stack.last_mut() else {
            return Err(Stop::Fault(ShellFault::Unexpected { word: "do", line }));
        };
        if let Some((part, opened)) = top.2 {
            return Err(Stop::Fault(ShellFault::Empty {
                part,
                opened,
                word: "do",
                line,
            }));
        }
        *top = (Block::Do, line, Some(("do", line)));
        Ok(true)
    }

    /// `then`, `elif`, `else` or `fi` at a command's start: the `if` on
    /// the stack's top moved to its next stage (closed by `fi`), or a
    /// fault where it is not at a stage the word may follow.
    fn if_word(&mut self, word: &[u8], stack: &mut Vec<Frame>) -> Result<bool, Stop> {
        let (name, next) = match word {
            b"then" => ("then", IfStage::Then),
            b"elif" => ("elif", IfStage::Condition),
            b"else" => ("else", IfStage::Else),
            _ => ("fi", IfStage::Else),
        };
        let (stage, part) = match stack.last_mut() {
            Some((Block::If(stage), _, part)) => (stage, part),
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
        if let Some((part, opened)) = *part {
            return Err(Stop::Fault(ShellFault::Empty {
                part,
                opened,
                word: name,
                line: self.line,
            }));
        }
        *part = Some((name, self.line));
        *stage = next;
        if name == "fi" {
            stack.pop();
        }
        Ok(true)
    }

    /// Where a `case` pattern is read (on the stack's top): `esac` (its
    /// block closed), or a pattern up to its `)`. Whether a command's start
    /// follows.
    fn pattern(&mut self, stack: &mut Vec<Frame>) -> Result<bool, Stop> {
        match self.peek(0) {
            Some(b'\n') => return self.newline().map(|()| false),
            Some(b'#') => {
                while self.peek(0).is_some_and(|c| c != b'\n') {
                    self.i += 1;
                }
                return Ok(false);
            }
            Some(b'(') => self.i += 1,
            // `;;` where a pattern belongs (its pattern line taken out).
            Some(b';') => {
                let word = if self.peek(1) == Some(b';') {
                    ";;"
                } else {
                    ";"
                };
                return Err(self.unexpected(word));
            }
            _ => {}
        }
        let mut first = true;
        loop {
            self.blanks();
            let line = self.line;
            let start = self.i;
            let (word, plain) = self.word()?;
            // A quoted pattern (`" x"`) is a word with no plain bytes.
            let empty = self.i == start;
            if empty && first && self.peek(0) == Some(b'|') {
                return Err(Stop::Fault(ShellFault::PipeFirst { line }));
            }
            first = false;
            if empty && !matches!(self.peek(0), Some(b')' | b'|')) {
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
                    if let Some((Block::Case(stage), _, _)) = stack.last_mut() {
                        *stage = CaseStage::Body;
                    }
                    return Ok(true);
                }
                // A pattern is one word: a command there is bash's
                // fault.
                Some(_) if !empty => {
                    return Err(Stop::Fault(ShellFault::NotPattern { line }));
                }
                _ => return Err(Stop::Unsure),
            }
        }
    }

    /// Past a `[[ ... ]]` on one line (its `<`, `>`, `(`, `)`, `&&` are
    /// its own); unsure over lines.
    fn test_expression(&mut self) -> Scan {
        self.in_test = true;
        let read = self.test_words();
        self.in_test = false;
        read
    }

    /// The words of a `[[ ... ]]` ([`Self::test_expression`]).
    fn test_words(&mut self) -> Scan {
        loop {
            self.blanks();
            match self.peek(0) {
                None | Some(b'\n') => return Err(Stop::Unsure),
                Some(b'(' | b')' | b'<' | b'>' | b'&' | b'|' | b'!' | b';') => self.i += 1,
                Some(_) => {
                    let (start, line) = (self.i, self.line);
                    let (word, plain) = self.word()?;
                    self.note_word((start, line), &word, plain, (false, false));
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
        for (delim, strip, line) in std::mem::take(&mut self.heredocs) {
            loop {
                // No line after it: nothing becomes its text (bash warns).
                if self.i >= self.s.len() && self.line == line + 1 {
                    return Err(Stop::Unsure);
                }
                if self.i >= self.s.len() {
                    // bash reads to the end with a warning.
                    return Err(Stop::Fault(ShellFault::Heredoc {
                        delimiter: String::from_utf8_lossy(&delim).into_owned(),
                        line,
                        last: self.line - usize::from(self.s.ends_with(b"\n")),
                    }));
                }
                let (end, done) = heredoc_line(self.s, self.i, strip, &delim);
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
            self.heredocs.push((delim, strip, self.line));
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

    /// Notes the word read from `(start, line)` ([`words`]); `(first,
    /// target)`: it stands as a command's name, as a redirection's target.
    fn note_word(
        &mut self,
        (start, line): (usize, usize),
        bare: &[u8],
        plain: bool,
        at: (bool, bool),
    ) {
        self.words.push(ShellWord {
            start,
            end: self.i,
            line,
            bare: bare.to_vec(),
            plain,
            first: at.0,
            target: at.1,
            depth: self.depth,
        });
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
                    self.escape_in_word();
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
                b'`' | b'$' => {
                    plain = false;
                    self.expansion(c, line, false)?;
                }
                b'(' if out.last() == Some(&b'=') => {
                    plain = false;
                    self.i += 1;
                    self.array(line)?;
                }
                b'(' if matches!(out.last(), Some(b'?' | b'*' | b'+' | b'@' | b'!')) => {
                    return Err(self.extended_glob(&out));
                }
                c if separator(c) => break,
                c => {
                    if super::odd_spaces::odd_space_at(&self.s[self.i..]) {
                        let name = self.command_word;
                        let read = if name {
                            !out.contains(&b'=')
                        } else {
                            !assigns(&out)
                        };
                        if read {
                            self.odd_spaces.push((self.i, name));
                        }
                    }
                    out.push(c);
                    self.i += 1;
                }
            }
        }
        Ok((out, plain))
    }

    /// Past the byte a `\` in a word escapes (the reader after the `\`):
    /// a newline continues the line; a blank with only blanks after it to
    /// the line's end is a [`Cut::EscapedBlank`].
    fn escape_in_word(&mut self) {
        match self.peek(0) {
            Some(b'\n') => self.joins.continued.push(self.line),
            Some(b' ' | b'\t') => {
                let rest = &self.s[self.i..];
                let end = rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len());
                if rest[..end].iter().all(|c| matches!(c, b' ' | b'\t')) {
                    self.joins.cuts.push((self.line, Cut::EscapedBlank));
                }
            }
            _ => {}
        }
        if self.peek(0).is_some() {
            self.bump();
        }
    }

    /// An extended glob's `(` after `word` (at the `(`): a fault where
    /// bash surely reads it with `extglob` off ([`ShellFault::Extglob`]),
    /// else unsure: in a `[[ ... ]]`; `!(` starting a command's first
    /// word (`if !(cmd)` is `! (cmd)`: bash reads the `!` there as the
    /// pipeline's negation; an argument's `!(`, `ls !(*.txt)`, is a glob
    /// as `@(` is); a function's `NAME()`; a script whose `#!` line
    /// names no bash or sh ([`bash_or_sh`]); or where the text
    /// above the command holding it names `extglob` (a `shopt`, a `#!`
    /// line's `-O extglob`) or sources another file.
    fn extended_glob(&self, word: &[u8]) -> Stop {
        let opener = match word.last() {
            Some(b'?') => "?(",
            Some(b'*') => "*(",
            Some(b'+') => "+(",
            Some(b'@') => "@(",
            _ => "!(",
        };
        let (at, command) = self.top;
        let above = String::from_utf8_lossy(&self.s[..at]);
        let sources = above.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("source ") || l.starts_with(". ") || l.contains(" source ")
        });
        let unsure = self.in_test
            || (word == b"!" && self.command_word)
            || self.s[self.i + 1..].trim_ascii_start().starts_with(b")")
            || !bash_or_sh(self.s)
            || above.contains("extglob")
            || sources;
        if unsure {
            return Stop::Unsure;
        }
        Stop::Fault(ShellFault::Extglob {
            opener,
            line: self.line,
            command,
        })
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
                if self.arithmetic("$((", line)? {
                    return Ok(());
                }
                // Not arithmetic: bash reads on to the `)` matching the
                // `$(`, by the text (bash 5.2, tested).
                self.matched("$((", line)
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
        self.depth += 1;
        let read = self.commands(true);
        self.depth -= 1;
        match read {
            Err(Stop::Unsure) if self.i >= self.s.len() => Err(Self::fault_open("$(", line)),
            other => {
                self.heredocs.splice(0..0, heredocs);
                other
            }
        }
    }

    /// Past a `'...'` in a `"${...}"` whose reading cannot differ whether
    /// bash takes it for a quote or not (on one line, none of `}"\$` and
    /// backquotes in it); unsure otherwise.
    fn plain_single(&mut self) -> Scan {
        let rest = &self.s[self.i + 1..];
        let Some(end) = rest.iter().position(|&c| c == b'\'') else {
            return Err(Stop::Unsure);
        };
        if rest[..end]
            .iter()
            .any(|c| matches!(c, b'}' | b'"' | b'\\' | b'$' | b'`' | b'\n'))
        {
            return Err(Stop::Unsure);
        }
        self.i += end + 2;
        Ok(())
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
                Some(opener @ (b'`' | b'$')) => self.expansion(opener, at, true)?,
                Some(_) => self.bump(),
            }
        }
    }

    /// Past the `` ` `` or `$` at the reading place (`opener`, on `line`)
    /// and the backquoted command or the expansion it starts.
    fn expansion(&mut self, opener: u8, line: usize, in_double: bool) -> Scan {
        self.i += 1;
        if opener == b'`' {
            self.backquote(line)
        } else {
            self.dollar(line, in_double)
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
                // A `'...'` holding none of `}"\$` and backquotes ends
                // where it ends whether it quotes or not.
                Some(b'\'') if in_double => self.plain_single()?,
                // bash -n reads past a `${` left open (tested): unsure.
                Some(b'\n') => return Err(Stop::Unsure),
                Some(b'\'') => {
                    self.i += 1;
                    self.single(at, false)?;
                }
                Some(b'"') => {
                    self.i += 1;
                    self.double(at)?;
                }
                Some(opener @ (b'`' | b'$')) => self.expansion(opener, at, in_double)?,
                Some(_) => self.bump(),
            }
        }
    }

    /// After `((` (or `$((`, `opener`, at `line`): as bash reads it, past
    /// the `)` matching the second `(` and the `)` right after it; `false`
    /// (that `)` not right after) where bash reads no arithmetic.
    fn arithmetic(&mut self, opener: &'static str, line: usize) -> Result<bool, Stop> {
        self.matched(opener, line)?;
        if self.peek(0) != Some(b')') {
            return Ok(false);
        }
        self.i += 1;
        Ok(true)
    }

    /// Past the `)` matching one `(` open (of `opener`, at `line`), as
    /// bash matches a pair: by the text, quotes and substitutions read
    /// through; open at the file's end, a fault.
    fn matched(&mut self, opener: &'static str, line: usize) -> Scan {
        let mut depth = 1;
        while depth > 0 {
            let at = self.line;
            match self.peek(0) {
                None => return Err(Self::fault_open(opener, line)),
                Some(b'(') => depth += 1,
                Some(b')') => depth -= 1,
                Some(b'\\') => {
                    self.escaped();
                    continue;
                }
                Some(quote @ (b'\'' | b'"' | b'`' | b'$')) => {
                    self.i += 1;
                    match quote {
                        b'\'' => self.single(at, false)?,
                        b'"' => self.double(at)?,
                        b'`' => self.backquote(at)?,
                        _ => self.dollar(at, false)?,
                    }
                    continue;
                }
                _ => {}
            }
            self.bump();
        }
        Ok(())
    }

    /// Past an array's `(...)` after `=`: words, comments and newlines
    /// (none of them a command's name; a line's end there ends no
    /// command, so no [`Cut`] either).
    fn array(&mut self, line: usize) -> Scan {
        let name = std::mem::replace(&mut self.command_word, false);
        let cuts = self.joins.cuts.len();
        let read = self.array_words(line);
        self.joins.cuts.truncate(cuts);
        self.command_word = name;
        read
    }

    /// The words of an array's `(...)` ([`Self::array`]).
    fn array_words(&mut self, line: usize) -> Scan {
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

/// The heredoc body line of `s` starting at `from`: where it ends (its
/// `\n`, or the text's end), and whether it is the line that ends the
/// heredoc `delim` (leading tabs stripped first for `<<-`).
pub(super) fn heredoc_line(s: &[u8], from: usize, strip: bool, delim: &[u8]) -> (usize, bool) {
    let end = s[from..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(s.len(), |n| from + n);
    let mut body = &s[from..end];
    if strip {
        while let [b'\t', rest @ ..] = body {
            body = rest;
        }
    }
    (end, body == delim)
}

#[cfg(test)]
mod tests {
    use super::{ShellFault, Stop, scan, shell_syntax};
    use crate::diagnose::doubt::test_edits::{check_edit, edited};

    const DEPLOY: &str = "#!/bin/bash\nset -e\nif [ -z \"$ENV\" ]; then\n  echo \"ENV not \
                          set\"\n  exit 1\nfi\nfor host in a b; do\n  echo \"deploy \
                          $host\"\ndone\n";

    /// The tester's two edits (round 44, T-12): a `fi` dropped, a `"` left
    /// open.
    #[test]
    fn a_dropped_fi_or_an_open_quote_is_a_fault() {
        let got = check_edit(
            shell_syntax,
            "deploy.sh",
            DEPLOY,
            "  exit 1\nfi\n",
            "  exit 2\n",
        )
        .expect("a fault");
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
        let got = check_edit(
            shell_syntax,
            "deploy.sh",
            DEPLOY,
            "  echo \"deploy $host\"\n",
            "  echo \"deploy $host\n",
        )
        .expect("a fault");
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
            let result = edited(DEPLOY, "  exit 1\nfi\n", new);
            assert_eq!(scan(&result), Ok(()), "{new}");
            assert_eq!(shell_syntax("deploy.sh", DEPLOY, &result), None, "{new}");
        }
        let dropped = edited(DEPLOY, "fi\n", "");
        assert_eq!(shell_syntax("deploy.zsh", DEPLOY, &dropped), None);
        assert!(shell_syntax("deploy", DEPLOY, &dropped).is_some());
        assert_eq!(
            scan("cat <<EOF\nnever ended\n"),
            Err(Stop::Fault(ShellFault::Heredoc {
                delimiter: "EOF".to_string(),
                line: 1,
                last: 2
            }))
        );
    }

    /// The tester's script (round 45, T-08, dbg.sh).
    const DBG: &str = "#!/bin/sh\nset -e\nif [ -n \"$DEBUG\" ]; then\n  echo \"debug: \
                       starting\" >&2\nfi\nfor f in \"$@\"; do\n  echo \"processing \
                       $f\"\ndone\ncleanup() {\n  rm -f /tmp/x.lock\n}\necho done\n";

    /// Round 45, T-08: a block part left empty (an `if`'s only line
    /// commented out, a loop's or a function's only line deleted) is said
    /// with the word that ends it, the part's word, and the line the edit
    /// took from it.
    #[test]
    fn a_block_part_left_empty_is_said_with_the_line_it_held() {
        let got = check_edit(
            shell_syntax,
            "dbg.sh",
            DBG,
            "  echo \"debug",
            "  # echo \"debug",
        )
        .expect("a fault");
        assert_eq!(
            got.describe(),
            "as the edit (from line 4) leaves it, `bash -n` refuses the script: line 5 (`fi`) has `fi` right after the `then` of line 3 with no command between (before the edit, line 4 `echo \"debug: starting\" >&2` stood there): bash refuses an empty block, where the script before read clean: keep a command in it (`:` does nothing) or send the new text without the block"
        );
        let got =
            check_edit(shell_syntax, "dbg.sh", DBG, "  rm -f /tmp/x.lock\n", "").expect("a fault");
        assert_eq!(
            got.fault(),
            "as the edit (from line 10) leaves it, `bash -n` refuses the script: line 10 (`}`) has `}` right after the `{` of line 9 with no command between (before the edit, line 10 `rm -f /tmp/x.lock` stood there): bash refuses an empty block, where the script before read clean"
        );
        let got = check_edit(shell_syntax, "dbg.sh", DBG, "for f in \"$@\"; do\n", "do\n")
            .expect("a fault");
        assert_eq!(
            got.fault(),
            "as the edit (from line 6) leaves it, `bash -n` refuses the script: line 6 (`do`) has `do` with no `for`, `while` or `until` before it to begin its loop, where the script before read clean"
        );
    }

    /// Round 45, T-01: a line left ending in `&&`, `||` or `|`, an
    /// arithmetic left open, a heredoc's delimiter renamed.
    #[test]
    fn an_operator_an_arithmetic_or_a_heredoc_left_open_is_said() {
        let and = edited(DBG, "starting\" >&2\n", "starting\" >&2 &&\n");
        let got = shell_syntax("dbg.sh", DBG, &and).expect("a fault");
        assert_eq!(
            got.describe(),
            "as the edit (from line 4) leaves it, `bash -n` refuses the script: line 5 (`fi`) has `fi` where the `&&` of line 4 needs a command after it, where the script before read clean: send the command that follows the `&&`, or the new text without it"
        );
        let end = format!("{DBG}ls |\n");
        let got = shell_syntax("dbg.sh", DBG, &end).expect("a fault");
        assert_eq!(
            got.fault(),
            "as the edit (from line 13) leaves it, `bash -n` refuses the script: line 13 (`ls |`) ends in `|` and no command follows before the file's end, where the script before read clean"
        );
        let arithmetic = format!("{DBG}n=$(( 1 + 2\n");
        let got = shell_syntax("dbg.sh", DBG, &arithmetic).expect("a fault");
        assert_eq!(
            got.describe(),
            "as the edit (from line 13) leaves it, `bash -n` refuses the script: line 13 (`n=$(( 1 + 2`) opens `$((` and nothing closes it with `))` before the file's end, where the script before read clean: close the `$((` with `))` in the new text"
        );
        let hd = "#!/bin/sh\ncat > conf.txt <<EOF\nname=demo\nEOF\necho written\nexit 0\n";
        let got = check_edit(shell_syntax, "hd.sh", hd, "<<EOF", "<<END").expect("a fault");
        assert_eq!(
            got.describe(),
            "as the edit (from line 2) leaves it, line 2 (`cat > conf.txt <<END`) opens a heredoc that a line `END` ends, and no line after it is `END`: bash reads lines 3 to 6, to the file's end, as the heredoc's text and runs none of it (`bash -n` only warns), where the script before read clean: end the heredoc with a line `END` in the new text"
        );
        // A heredoc on the last line swallows nothing: no verdict.
        assert_eq!(scan("echo a\ncat <<EOF\n"), Err(Stop::Unsure));
    }
    /// A sh head over a Python file (`'''exec' python3 "$0" "$@"`): the
    /// shell is replaced before it reads the Python lines, which `bash -n`
    /// alone refuses: no verdict. An `exec` of redirections alone runs on.
    #[test]
    fn a_script_that_execs_another_program_is_not_judged_past_the_exec() {
        let head = "#!/bin/sh\n'''exec' \"$(dirname -- \"$0\")/python3\" \"$0\" \"$@\"\n' '''\n";
        let polyglot = format!("{head}import sys\nsys.exit(main(\"x\"))\n");
        assert_eq!(shell_syntax("2to3", "", &polyglot), None);
        let redirected = "#!/bin/sh\nexec >/tmp/log 2>&1\necho a (b)\n";
        assert_eq!(
            shell_syntax("run.sh", "", redirected).map(|b| b.fault),
            Some(ShellFault::ParenAfterWords { line: 3 })
        );
    }

    /// Tester 48, T-01: an extended glob starting an argument (`rm -rf
    /// !(keep|data)`, `ls +(a|b)`), a `case` pattern or an array's word is
    /// parsed as `@(` is: a fault with `extglob` off; a `!(` starting a
    /// command is `! (cmd)`, and `$!`, a quoted `!(`, a `[[ ]]` pattern and
    /// an arithmetic `!(1)` are no glob (each checked with `bash -n`).
    #[test]
    fn an_extended_glob_starting_an_argument_is_a_fault() {
        let head = "#!/bin/bash\nset -e\n";
        for (body, opener) in [
            ("rm -rf !(keep|data)\n", "!("),
            ("ls !(*.txt)\n", "!("),
            ("ls +(a|b)\n", "+("),
            ("ls ?(a|b) *(c)\n", "?("),
            ("cat > !(a)\n", "!("),
            ("x=1 !(true)\n", "!("),
            ("echo $(ls !(a))\n", "!("),
            ("for f in !(a); do :; done\n", "!("),
            ("case $1 in\n  !(a)) :;;\nesac\n", "!("),
            ("arr=( !(a) )\n", "!("),
        ] {
            let text = format!("{head}{body}");
            match scan(&text) {
                Err(Stop::Fault(ShellFault::Extglob {
                    opener: o, line, ..
                })) => {
                    let at = text.lines().position(|l| l.contains(opener));
                    assert_eq!((o, Some(line)), (opener, at.map(|i| i + 1)), "{body}");
                }
                other => panic!("{body}: {other:?}"),
            }
        }
        for body in [
            "if !(false); then :; fi\n",
            "if ! (false); then :; fi\n",
            "!(cd /tmp)\n",
            "true && !(false)\n",
            "{ !(false); }\n",
            "echo $! \"!(a)\" '!(b)'\n",
            "[[ x == !(a) ]]\n",
            "(( !(1) )) || echo $(( !(0) ))\n",
        ] {
            let text = format!("{head}{body}");
            let read = scan(&text);
            assert!(!matches!(read, Err(Stop::Fault(_))), "{body}: {read:?}");
        }
    }

    /// Round 45, T-08b: an arithmetic holding a quoted command
    /// substitution, a quoted case pattern, a quote in a `"${x=...}"`, a
    /// subshell in a subshell: read, not unsure.
    #[test]
    fn constructs_that_hid_a_script_are_read() {
        for text in [
            "x=$(( $(date \"+%s\") + 30 ))\n",
            "case $o in\n  (\" x\" | \" y\") :;;\nesac\n",
            "IFS=\"${SEP=':'}\"\n",
            "((cd /tmp; ls) | wc -l)\n",
            "for ((i = 0; i < 2; i++)); do :; done\n",
        ] {
            assert_eq!(scan(text), Ok(()), "{text}");
            let orphan = format!("{text}fi\n");
            assert!(
                matches!(
                    scan(&orphan),
                    Err(Stop::Fault(ShellFault::Unexpected { word: "fi", .. }))
                ),
                "{text}"
            );
        }
    }
}
