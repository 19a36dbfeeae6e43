//! *Pure.* An edit that leaves Python code misindented although its old
//! text matched exactly (a tester's find: a patch's `+` line one column
//! short, a line written at method level in a method's body; both passed
//! as exact, and Python then refused the file). The loose stages already
//! say "the new lines are N columns left of the lines they replace";
//! exact edits get this check, by evidence only:
//! - the file is Python ([`super::file_kind`]: `.py`, `.pyi`, `.pyw`, or a
//!   first line `#!` naming a Python interpreter);
//! - the part of the file around the edit (from the last top-level
//!   `def`, `class` or decorator line before the change to the first one
//!   after it) is read as Python reads indentation (a block opens after a
//!   line ending with `:`; a dedent must return to an enclosing level;
//!   lines inside brackets, triple-quoted strings and after a `\` are
//!   continuation lines, not judged), and that part of the file as it was
//!   reads without a fault (else the reading cannot be trusted there: no
//!   doubt), and as the edit leaves it, it has one at or after the change
//!   (the part is read with the top-level line that ends it, or to the
//!   file's end: a block the edit leaves without a statement is found at
//!   the next line of code, past blank lines and comments, or at the end
//!   of the file).
//!
//! A deliberate dedent (a line moved out of an `if` to the enclosing
//! level) or a line moved to any level that encloses it reads without a
//! fault, and is not doubted. Tabs are counted as Python counts them: a
//! tab to the next multiple of 8 columns, and the line read again with a
//! tab as 1 column; where the two readings compare a line with its block
//! differently (`\t\t` against 8 spaces: the same depth at 8, not at 1),
//! Python refuses the file with a TabError (inconsistent use of tabs and
//! spaces), and so does this check. A form feed in the indentation
//! restarts the count at column 0, as CPython's tokenizer does, and a line
//! holding only form feeds (CPython's stdlib has them between sections)
//! is a blank line.

use crate::textdiff::shared_ends;

/// A fault Python would find in the indentation an edit leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndentBreak {
    /// The result's line (1-based) Python stops at.
    pub line: usize,
    /// That line, trimmed.
    pub text: String,
    /// Its column.
    pub column: usize,
    /// The fault.
    pub kind: BreakKind,
    /// The columns of the blocks enclosing it there (outermost first).
    pub levels: Vec<usize>,
    /// For [`BreakKind::Expected`]: the line (1-based) of the statement
    /// whose `:` opens the block that gets no indented line, and that
    /// line, trimmed.
    pub opener: Option<(usize, String)>,
    /// Whether the file ends where the indented line should be (`line`
    /// and `text` are then the opener's).
    pub at_end: bool,
}

/// Which fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BreakKind {
    /// A dedent to a column no enclosing block has.
    Unindent,
    /// Deeper than the line before, which opens no block.
    Unexpected,
    /// After a line ending with `:`, not deeper.
    Expected,
    /// Its tabs and spaces make its depth against its block's depend on
    /// how wide a tab is (Python's TabError).
    Tabs,
}

impl IndentBreak {
    /// Whether lines without code (blank, comments) stand between the
    /// line that opens the block and the line at its depth.
    fn after_a_gap(&self) -> bool {
        self.opener
            .as_ref()
            .is_some_and(|(opener, _)| opener + 1 < self.line)
    }

    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let (fault, advice) = self.parts();
        format!("{fault}: {advice}")
    }

    /// [`Self::describe`] without what to send instead: the fault alone
    /// (for a result srview's own correction would leave).
    pub fn fault(&self) -> String {
        self.parts().0
    }

    /// The fault, and what to send instead.
    fn parts(&self) -> (String, &'static str) {
        let levels: Vec<String> = self.levels.iter().map(ToString::to_string).collect();
        let (what, error) = match self.kind {
            BreakKind::Unindent => (
                format!(
                    "is at column {}, which matches no enclosing block's indentation (columns {} \
                     there)",
                    self.column,
                    levels.join(", ")
                ),
                "unindent does not match any outer indentation level",
            ),
            BreakKind::Unexpected => (
                format!(
                    "is at column {}, deeper than the line before it, which opens no block",
                    self.column
                ),
                "unexpected indent",
            ),
            BreakKind::Expected if self.at_end || self.after_a_gap() => {
                let (opener, opening) = self.opener.clone().unwrap_or_default();
                let what = if self.at_end {
                    format!(
                        "line {opener} (`{opening}`) ends with `:`, and the file ends before \
                         any indented line under it"
                    )
                } else {
                    format!(
                        "line {} (`{}`) is at column {}, not deeper than line {opener} \
                         (`{opening}`), which ends with `:`, and no indented line comes between \
                         them",
                        self.line, self.text, self.column
                    )
                };
                return (
                    format!(
                        "as written, {what}: Python refuses the file (IndentationError: expected \
                         an indented block)"
                    ),
                    "keep a statement in the block (`pass` where it is meant to be empty), or \
                     take out the line that opens it",
                );
            }
            BreakKind::Expected => (
                format!(
                    "is at column {}, not deeper than the line before it, which ends with `:`",
                    self.column
                ),
                "expected an indented block",
            ),
            BreakKind::Tabs => {
                return (
                    format!(
                        "as written, line {} (`{}`) mixes tabs and spaces against the lines of \
                         its block: its depth depends on how wide a tab is: Python refuses the \
                         file (TabError: inconsistent use of tabs and spaces in indentation)",
                        self.line, self.text
                    ),
                    "send the new lines indented as the file's lines around them are (tabs for \
                     tabs, spaces for spaces)",
                );
            }
        };
        (
            format!(
                "as written, line {} (`{}`) {what}: Python refuses the file (IndentationError: \
                 {error})",
                self.line, self.text
            ),
            "send the new lines at the indentation of the block they belong to",
        )
    }
}

/// A line that starts a top-level definition: where reading may start.
fn top_level(line: &str) -> bool {
    ["def ", "class ", "async def ", "@"]
        .iter()
        .any(|start| line.starts_with(start))
}

/// A fault: its line (0-based; the number of lines read for the end of
/// the file), kind, column, the enclosing levels and, for
/// [`BreakKind::Expected`], the line (0-based) whose `:` opened the block.
type Fault = (usize, BreakKind, usize, Vec<usize>, Option<usize>);

/// A line's indentation as Python's tokenizer measures it: its column
/// with a tab to the next multiple of 8, and with a tab as 1 column; a
/// form feed restarts both at 0 (CPython's tokenizer: `col = altcol = 0`).
/// `None` for any other character.
pub(super) fn widths(lead: &str) -> Option<(usize, usize)> {
    let (mut column, mut alternative) = (0, 0);
    for c in lead.chars() {
        match c {
            '\t' => {
                column = (column / 8 + 1) * 8;
                alternative += 1;
            }
            ' ' => {
                column += 1;
                alternative += 1;
            }
            '\x0c' => (column, alternative) = (0, 0),
            _ => return None,
        }
    }
    Some((column, alternative))
}

/// A line's indentation and its text after it, as Python's tokenizer
/// splits them: spaces, tabs and form feeds (a line holding only a form
/// feed, as CPython's stdlib files have between sections, is blank: a
/// tester's find, it was read as a statement at column 0).
pub(super) fn split_lead(line: &str) -> (&str, &str) {
    let text = line.trim_start_matches([' ', '\t', '\x0c']);
    (&line[..line.len() - text.len()], text)
}

/// Whether Python's tokenizer refuses a line at `at` (its two widths,
/// see [`widths`]) against the blocks `stack` (each level's widths): its
/// depth against the level it stays at, opens or returns to is not the
/// same in both widths (a TabError). A dedent to no level is not this
/// fault (the unindent one).
fn tab_error(stack: &[(usize, usize)], at: (usize, usize)) -> bool {
    let top = stack.last().copied().unwrap_or((0, 0));
    if at.0 == top.0 {
        at.1 != top.1
    } else if at.0 > top.0 {
        at.1 <= top.1
    } else {
        let level = stack.iter().rev().find(|l| l.0 <= at.0);
        level.is_some_and(|l| l.0 == at.0 && l.1 != at.1)
    }
}

/// Python's reading of a file's lines one after another: whether a line
/// starts a statement, or continues one (inside brackets, a triple-quoted
/// string, or after a `\`).
#[derive(Debug, Default)]
pub(super) struct Scanner {
    /// Open brackets.
    depth: isize,
    /// The triple quote a string still open was opened with.
    triple: Option<&'static str>,
    /// The line before ended with `\` (outside a comment and a string).
    continued: bool,
    /// The quote of a `'…'` or `"…"` string the line before continued
    /// with a `\` ending it (a tester's find: brackets in its next line
    /// were read as code).
    quote: Option<char>,
}

impl Scanner {
    /// Whether the next line starts a statement (nothing is left open).
    pub(super) fn at_statement(&self) -> bool {
        self.triple.is_none() && self.quote.is_none() && self.depth <= 0 && !self.continued
    }

    /// Whether the next line starts inside a triple-quoted string.
    pub(super) fn in_triple(&self) -> bool {
        self.triple.is_some()
    }

    /// Reads `line`'s strings, brackets and comment; returns its last
    /// character of code that is not white space (`"` for a string's end),
    /// `None` where it has none.
    pub(super) fn line(&mut self, line: &str) -> Option<char> {
        let mut last = None;
        let mut quote: Option<char> = self.quote.take();
        // The string's `\` was the line's last character.
        let mut spliced = false;
        // A `\` ending a comment continues nothing.
        let mut comment = false;
        let mut rest = line;
        while let Some(c) = rest.chars().next() {
            if let Some(close) = self.triple {
                match rest.find(close) {
                    Some(at) => {
                        rest = &rest[at + 3..];
                        self.triple = None;
                        last = Some('"');
                        continue;
                    }
                    None => break,
                }
            }
            if let Some(q) = quote {
                if c == '\\' {
                    spliced = rest.len() == 1;
                    rest = rest.get(2..).unwrap_or("");
                    continue;
                }
                if c == q {
                    quote = None;
                    last = Some(c);
                }
                rest = &rest[c.len_utf8()..];
                continue;
            }
            if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
                self.triple = Some(if c == '"' { "\"\"\"" } else { "'''" });
                rest = &rest[3..];
                continue;
            }
            match c {
                '#' => {
                    comment = true;
                    break;
                }
                '"' | '\'' => quote = Some(c),
                '(' | '[' | '{' => self.depth += 1,
                ')' | ']' | '}' => self.depth -= 1,
                _ => {}
            }
            if !c.is_whitespace() {
                last = Some(c);
            }
            rest = &rest[c.len_utf8()..];
        }
        self.continued = self.triple.is_none() && !comment && line.ends_with('\\');
        self.quote = quote.filter(|_| spliced);
        last
    }
}

/// The first indentation fault of `lines` (0-based index), read as
/// Python reads them from a top-level line; `Err(())` when the reading
/// cannot be trusted (an indentation [`widths`] does not measure). `ends_file`: the
/// file ends after them, so a block opened by the last statement and
/// given no indented line is a fault (Python's "expected an indented
/// block" at the end of the file).
fn first_fault<'a>(
    lines: impl IntoIterator<Item = &'a str>,
    ends_file: bool,
) -> Result<Option<Fault>, ()> {
    // Each open block's column and its column with a tab as 1.
    let mut stack = vec![(0usize, 0usize)];
    let mut scan = Scanner::default();
    let mut opens_block = false;
    // The line whose `:` opened the block still waiting for its first line.
    let mut opener = 0;
    let mut read = 0;
    for (i, raw) in lines.into_iter().enumerate() {
        read = i + 1;
        let line = raw.trim_end_matches('\r');
        let starts_statement = scan.at_statement();
        let (lead, text) = split_lead(line);
        if starts_statement && !text.is_empty() && !text.starts_with('#') {
            let widths = widths(lead).ok_or(())?;
            let column = widths.0;
            let levels = || stack.iter().map(|l| l.0).collect::<Vec<usize>>();
            // The tokenizer's fault comes before the parser's.
            if tab_error(&stack, widths) {
                return Ok(Some((i, BreakKind::Tabs, column, levels(), None)));
            }
            let top = stack.last().map_or(0, |l| l.0);
            if opens_block {
                if column <= top {
                    let fault = (i, BreakKind::Expected, column, levels(), Some(opener));
                    return Ok(Some(fault));
                }
                stack.push(widths);
            } else if column > top {
                return Ok(Some((i, BreakKind::Unexpected, column, levels(), None)));
            } else if column < top {
                let levels = levels();
                while stack.last().is_some_and(|t| column < t.0) {
                    stack.pop();
                }
                if stack.last().map(|l| l.0) != Some(column) {
                    return Ok(Some((i, BreakKind::Unindent, column, levels, None)));
                }
            }
        }
        let last = scan.line(line);
        let ends_statement = scan.at_statement();
        if starts_statement && !text.is_empty() && !text.starts_with('#') {
            opens_block = last == Some(':') && ends_statement;
        } else if ends_statement && last.is_some() {
            // The last line of a statement that ran over several.
            opens_block = last == Some(':');
        }
        if opens_block && ends_statement && last.is_some() {
            opener = i;
        }
    }
    if ends_file && opens_block {
        let levels = stack.iter().map(|l| l.0).collect();
        return Ok(Some((read, BreakKind::Expected, 0, levels, Some(opener))));
    }
    Ok(None)
}

/// The fault `result` (the file as an edit leaves it) has where `original`
/// (the file before) had none, on a changed line or the line after them;
/// `None` for a file srview does not read as Python (see the module).
pub fn indent_break(path: &str, original: &str, result: &str) -> Option<IndentBreak> {
    if super::file_kind::FileKind::of_edit(path, original, result)
        != super::file_kind::FileKind::Python
    {
        return None;
    }
    python_break(original, result)
}

/// [`indent_break`] of a file known to be Python.
pub(super) fn python_break(original: &str, result: &str) -> Option<IndentBreak> {
    if original == result {
        return None;
    }
    // The lines before the last top-level line ahead of the first change
    // stand the same in both and are never read (the part around the
    // change starts at that line or later): skipped, which keeps a 10,000-
    // line file's check from splitting every line; the line number counts
    // them.
    let (bytes, lines) = identical_head(original, result);
    let mut found = break_in(&original[bytes..], &result[bytes..])?;
    found.line += lines;
    if let Some((opener, _)) = &mut found.opener {
        *opener += lines;
    }
    Some(found)
}

/// Where the part of `original` and `result` that [`break_in`] may skip
/// ends: the byte offset of the last top-level line whose bytes, and every
/// byte before them, both texts share, and how many lines come before it;
/// `(0, 0)` where there is none.
fn identical_head(original: &str, result: &str) -> (usize, usize) {
    let a = original.as_bytes();
    let differ = common_prefix(a, result.as_bytes());
    // The start of the line the first difference is on: the lines before
    // it are whole in both.
    let mut end = memchr::memrchr(b'\n', &a[..differ]).map_or(0, |at| at + 1);
    while end > 0 {
        let start = memchr::memrchr(b'\n', &a[..end - 1]).map_or(0, |at| at + 1);
        // `end` follows a newline and `start` is 0 or follows one: both
        // are character boundaries.
        if top_level(&original[start..end]) {
            return (start, bytecount::count(&a[..start], b'\n'));
        }
        end = start;
    }
    (0, 0)
}

/// How many leading bytes `a` and `b` share (compared a block at a time:
/// the gate compares a whole file and the edit's result on each call).
fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    const BLOCK: usize = 64;
    let n = a.len().min(b.len());
    let mut at = 0;
    while at + BLOCK <= n && a[at..at + BLOCK] == b[at..at + BLOCK] {
        at += BLOCK;
    }
    at + a[at..n]
        .iter()
        .zip(&b[at..n])
        .position(|(x, y)| x != y)
        .unwrap_or(n - at)
}

/// How many trailing bytes `a` and `b` share, at most `limit`.
fn common_suffix(a: &[u8], b: &[u8], limit: usize) -> usize {
    const BLOCK: usize = 64;
    let n = a.len().min(b.len()).min(limit);
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut at = 0;
    while at + BLOCK <= n && a[n - at - BLOCK..n - at] == b[n - at - BLOCK..n - at] {
        at += BLOCK;
    }
    at + a[..n - at]
        .iter()
        .rev()
        .zip(b[..n - at].iter().rev())
        .position(|(x, y)| x != y)
        .unwrap_or(n - at)
}

/// Whether `at` starts a line of `text`.
fn starts_line(text: &[u8], at: usize) -> bool {
    at == 0 || text[at - 1] == b'\n'
}

/// The tail [`break_in`] may leave unsplit: the length in bytes of the
/// longest end both texts share (after the bytes they share from their
/// start) that starts with a top-level line, at a line start in both; 0
/// where there is none. The part read ends at the first top-level line
/// after the change, so nothing after such a line is read.
fn identical_tail(original: &str, result: &str) -> usize {
    let (a, b) = (original.as_bytes(), result.as_bytes());
    let head = common_prefix(a, b);
    let shared = common_suffix(a, b, a.len().min(b.len()) - head);
    let mut at = a.len() - shared;
    // Past the first byte of the shared end, the byte before is the same
    // in both texts.
    if !(starts_line(a, at) && starts_line(b, b.len() - shared)) {
        at = match memchr::memchr(b'\n', &a[at..]) {
            Some(newline) => at + newline + 1,
            None => return 0,
        };
    }
    while at < a.len() {
        // A line start: a character boundary.
        if top_level(&original[at..]) {
            return a.len() - at;
        }
        at = match memchr::memchr(b'\n', &a[at..]) {
            Some(newline) => at + newline + 1,
            None => return 0,
        };
    }
    0
}

/// [`indent_break`] of two texts known to differ, its line counted from
/// their first line. Their identical tail ([`identical_tail`]) is not
/// split into lines where leaving it out gives the same reading
/// ([`tail_keeps_the_prefix`]): a 10,000-line file's check splits only
/// the lines from the change's top-level line to the next one.
fn break_in(original: &str, result: &str) -> Option<IndentBreak> {
    let tail = identical_tail(original, result);
    if tail > 0 {
        let (old, new): (Vec<&str>, Vec<&str>) = (
            original[..original.len() - tail].lines().collect(),
            result[..result.len() - tail].lines().collect(),
        );
        let first_of_tail = original[original.len() - tail..].lines().next();
        if tail_keeps_the_prefix(&old, &new, first_of_tail) {
            return break_in_lines(&old, &new, first_of_tail);
        }
    }
    let (old, new): (Vec<&str>, Vec<&str>) = (original.lines().collect(), result.lines().collect());
    break_in_lines(&old, &new, None)
}

/// Whether `old` and `new` (two texts' lines without their shared tail)
/// share as many lines from their start as they do with that tail, whose
/// first line is `first_of_tail`, after each: they differ within the
/// shorter one's lines, or the longer one's next line is not the tail's
/// first. Then the lines they share from their end are as many more as
/// the tail's, and the part read (from the last top-level line before the
/// change to the first after it: the tail's first line at the latest) is
/// the same.
fn tail_keeps_the_prefix(old: &[&str], new: &[&str], first_of_tail: Option<&str>) -> bool {
    let shorter = old.len().min(new.len());
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    if prefix < shorter {
        return true;
    }
    let longer = if old.len() > new.len() { old } else { new };
    longer.len() > shorter && longer.get(shorter).copied() != first_of_tail
}

/// [`break_in`] of the two texts' lines; `next`: the line both have after
/// them (a top-level line: the lines they share from there on are left
/// out), `None` where they run to the file's end.
fn break_in_lines<'a>(
    old: &[&'a str],
    new: &[&'a str],
    next: Option<&'a str>,
) -> Option<IndentBreak> {
    let (prefix, suffix) = shared_ends(old, new);
    let (changed_end_new, changed_end_old) = (new.len() - suffix, old.len() - suffix);
    // The part around the change: from the last top-level definition
    // before it to the first one after it (on either side).
    let start = new[..prefix]
        .iter()
        .rposition(|l| top_level(l))
        .unwrap_or(0);
    let end_new = new[changed_end_new..]
        .iter()
        .position(|l| top_level(l))
        .map_or(new.len(), |at| changed_end_new + at);
    let end_old = old[changed_end_old..]
        .iter()
        .position(|l| top_level(l))
        .map_or(old.len(), |at| changed_end_old + at);
    // Each part is read with the top-level line that ends it (a block
    // opened right before it and left empty is Python's fault there), or
    // to the file's end.
    let line_at = |lines: &[&'a str], at: usize| {
        lines
            .get(at)
            .copied()
            .or(next.filter(|_| at == lines.len()))
    };
    let closing = line_at(old, end_old);
    let old_part = old[start..end_old].iter().copied().chain(closing);
    if !matches!(first_fault(old_part, closing.is_none()), Ok(None)) {
        return None;
    }
    let closing = line_at(new, end_new);
    let new_part = new[start..end_new].iter().copied().chain(closing);
    let (at, kind, column, levels, opener) = first_fault(new_part, closing.is_none()).ok()??;
    let line = start + at;
    // A fault before the change is in the file before it too.
    if line < prefix {
        return None;
    }
    let trimmed = |at: usize| line_at(new, at).unwrap_or_default().trim().to_string();
    let opener = opener.map(|at| (start + at + 1, trimmed(start + at)));
    let at_end = line_at(new, line).is_none();
    let (line, text) = match (&opener, at_end) {
        (Some((opener, opening)), true) => (*opener, opening.clone()),
        _ => (line + 1, trimmed(line)),
    };
    Some(IndentBreak {
        line,
        text,
        column,
        kind,
        levels,
        opener,
        at_end,
    })
}

#[cfg(test)]
mod tests {
    use crate::diagnose::doubt::test_edits::check_edit;
    /// Skipping the identical head gives what the whole texts give: every
    /// file of a few generated shapes, changed at every line.
    #[test]
    fn the_skipped_head_does_not_change_the_answer() {
        let shapes = [
            "import os\n\n@dec\ndef f(x):\n    if x:\n        return 1\n    return 2\n\n\nclass C:\n    def g(self):\n        pass\n\nasync def h():\n    await x\n",
            "def a():\r\n    x = 1\r\n    return x\r\n\r\ndef b():\r\n    y = (1,\r\n      2)\r\n    return y\r\n",
            "s = \"\"\"\ndef not_code():\n\"\"\"\ndef f():\n    return s\n",
        ];
        let mut faults = 0;
        for shape in shapes {
            let lines: Vec<&str> = shape.split_inclusive('\n').collect();
            for at in 0..lines.len() {
                for change in ["  ", "   x = 0\n", "", "def z():\n", "\t"] {
                    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    changed[at] = format!("{change}{}", changed[at]);
                    let result = changed.concat();
                    if result == shape {
                        continue;
                    }
                    let found = indent_break("a.py", shape, &result);
                    assert_eq!(found, break_in(shape, &result), "{shape:?} -> {result:?}");
                    faults += usize::from(found.is_some());
                }
            }
        }
        assert!(
            faults > 10,
            "only {faults} faults: the test checks too little"
        );
    }

    /// The whole texts' lines read without skipping anything: the
    /// definition the skipped head and tail must keep.
    fn whole(original: &str, result: &str) -> Option<IndentBreak> {
        let (old, new): (Vec<&str>, Vec<&str>) =
            (original.lines().collect(), result.lines().collect());
        break_in_lines(&old, &new, None)
    }

    /// Skipping the identical head and tail gives what the whole texts'
    /// lines give: files of a few shapes (repeated functions, so that the
    /// tail also matches lines before the change; CRLF; lines that differ
    /// only by their `\r`; no newline at the end), each line changed,
    /// deleted, its ending changed, and pairs of lines changed, both ways.
    #[test]
    fn the_skipped_tail_does_not_change_the_answer() {
        let shapes = [
            "def f(x):\n    if x:\n        return 1\n    return 2\n\ndef f(x):\n    if x:\n        return 1\n    return 2\n\ndef f(x):\n    return 3\n",
            "import os\n\n@dec\ndef f(x):\n    if x:\n        return 1\n    return 2\n\n\nclass C:\n    def g(self):\n        pass\n\nasync def h():\n    await x",
            "def a():\r\n    x = 1\r\n    return x\r\n\r\ndef b():\r\n    y = (1,\r\n      2)\r\n    return y\r\ndef a():\n    x = 1\n",
            "s = \"\"\"\ndef not_code():\n\"\"\"\ndef f():\n    return s\ndef f():\n    return s\n",
            "class C:\n    def g(self):\n        if x:\n            pass\nclass C:\n    def g(self):\n",
        ];
        let changes = [
            "  ",
            "   x = 0\n",
            "",
            "def z():\n",
            "\t",
            "def f(x):\n",
            "class C:\n    def g(self):\n",
        ];
        let (mut cases, mut faults, mut skipped) = (0, 0, 0);
        for shape in shapes {
            let lines: Vec<&str> = shape.split_inclusive('\n').collect();
            let mut results = Vec::new();
            for at in 0..lines.len() {
                let mut deleted = lines.clone();
                deleted.remove(at);
                results.push(deleted.concat());
                let mut ending: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                ending[at] = match ending[at].strip_suffix("\r\n") {
                    Some(line) => format!("{line}\n"),
                    None => ending[at].replace('\n', "\r\n"),
                };
                results.push(ending.concat());
                for change in changes {
                    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
                    changed[at] = format!("{change}{}", changed[at]);
                    results.push(changed.concat());
                    for other in at + 1..lines.len() {
                        let mut two = changed.clone();
                        two[other] = format!("{change}{}", two[other]);
                        results.push(two.concat());
                    }
                }
            }
            for result in &results {
                for (original, result) in [(shape, result.as_str()), (result.as_str(), shape)] {
                    if original == result {
                        continue;
                    }
                    cases += 1;
                    let tail = identical_tail(original, result);
                    skipped += usize::from(tail > 0);
                    let found = whole(original, result);
                    let context = format!("{original:?} -> {result:?}");
                    assert_eq!(break_in(original, result), found, "{context}");
                    assert_eq!(indent_break("a.py", original, result), found, "{context}");
                    faults += usize::from(found.is_some());
                }
            }
        }
        assert!(
            cases > 1000 && faults > 50 && skipped > 500,
            "{cases} cases, {faults} faults, {skipped} with a tail: the test checks too little"
        );
    }

    /// The blocks compared at a time count what comparing byte by byte
    /// counts.
    #[test]
    fn shared_ends_are_counted_as_byte_by_byte() {
        let base: Vec<u8> = (0..300u32).map(|i| b'a' + (i % 7) as u8).collect();
        for at in [0, 1, 63, 64, 65, 128, 200, 299] {
            let mut other = base.clone();
            other[at] = b'z';
            assert_eq!(common_prefix(&base, &other), at);
            assert_eq!(common_suffix(&base, &other, usize::MAX), 299 - at);
            assert_eq!(common_suffix(&base, &other, 10), (299 - at).min(10));
            assert_eq!(common_prefix(&base[..at], &base), at);
            assert_eq!(common_suffix(&base[at..], &base, usize::MAX), 300 - at);
        }
    }

    use super::*;
    use crate::cases::{assert_none, before};
    use crate::diagnose::doubt::test_edits::after;

    const CART: &str = "class Cart:\n    def __init__(self):\n        self.items = []\n\n    def add(self, item):\n        if item:\n            self.items.append(item)\n        return self\n";

    /// A form feed, as CPython's tokenizer reads it (each result checked
    /// with python3's `compile`): a line holding only one is blank (a
    /// tester's find: CPython's stdlib files have them between sections,
    /// and the line after one, indented, was said to be an unexpected
    /// indent), and one in an indentation restarts the count at column 0.
    #[test]
    fn a_form_feed_is_read_as_pythons_tokenizer_reads_it() {
        let original = "def f():\n    a = 1\n";
        for compiles in [
            "def f():\n    a = 1\n\x0c\n    b = 2\n",
            "def f():\n    a = 1\n\x0c    b = 2\n",
            "def f():\n    a = 1\n    \x0c    b = 2\n",
        ] {
            assert_eq!(
                indent_break("f.py", original, compiles),
                None,
                "{compiles:?}"
            );
        }
        // "unindent does not match any outer indentation level (line 3)".
        let found = indent_break("f.py", original, "def f():\n    a = 1\n  \x0c  b = 2\n")
            .expect("a fault");
        assert_eq!((found.line, found.kind), (3, BreakKind::Unindent));
    }

    #[test]
    fn a_line_one_column_short_is_a_fault() {
        let found = check_edit(
            indent_break,
            "cart.py",
            CART,
            "        return self\n",
            "       return self\n",
        )
        .expect("a fault");
        assert_eq!(
            (found.line, found.column, found.kind),
            (8, 7, BreakKind::Unindent)
        );
        assert_eq!(found.levels, [0, 4, 8, 12]);
    }

    /// Python 3's TabError, as its tokenizer decides it: a line whose depth
    /// against its block differs with a tab 8 columns wide and 1 column
    /// wide. Spaces at the depth of tabs (or tabs in a space-indented
    /// block) are refused; a file indented with tabs throughout, and one
    /// already mixed before the edit, are not doubted.
    #[test]
    fn tabs_against_spaces_are_a_tab_error() {
        let tabbed = "def f(x):\n\tif x > 0:\n\t\tx = x + 1\n\t\tlog(x)\n\treturn x\n";
        let spaces_after_tabs = after(tabbed, "\t\tx = x + 1\n", "        y = x * 2\n");
        let found = indent_break("t.py", tabbed, &spaces_after_tabs).expect("a TabError");
        assert_eq!((found.line, found.kind), (4, BreakKind::Tabs));
        assert_eq!(
            found.describe(),
            "as written, line 4 (`y = x * 2`) mixes tabs and spaces against the lines of its \
             block: its depth depends on how wide a tab is: Python refuses the file (TabError: \
             inconsistent use of tabs and spaces in indentation): send the new lines indented \
             as the file's lines around them are (tabs for tabs, spaces for spaces)"
        );
        // A dedent in spaces to a level written with a tab.
        let dedent = tabbed.replace("\treturn x\n", "        return x\n");
        assert_eq!(
            indent_break("t.py", tabbed, &dedent).map(|f| (f.line, f.kind)),
            Some((5, BreakKind::Tabs))
        );
        // A tab in a space-indented file.
        let spaced = "def f(x):\n    if x:\n        x += 1\n    return x\n";
        let tab_in = after(spaced, "        x += 1\n", "\ty = x\n");
        assert_eq!(
            indent_break("t.py", spaced, &tab_in).map(|f| f.kind),
            Some(BreakKind::Tabs)
        );
        // A new block opened with tabs under a space-indented `if`: deeper
        // at 8 columns a tab, not at 1.
        let opened = spaced.replace("        x += 1\n", "        if x:\n\t\t\tx += 1\n");
        assert_eq!(
            indent_break("t.py", spaced, &opened).map(|f| (f.line, f.kind)),
            Some((4, BreakKind::Tabs))
        );
        // Tabs throughout; a consistent mix Python accepts (a tab then
        // spaces inside a tab-indented block: deeper in both readings).
        let more_tabs = after(tabbed, "\t\tlog(x)\n", "\t\ty = 2\n");
        assert_eq!(indent_break("t.py", tabbed, &more_tabs), None);
        let consistent = tabbed.replace("\t\tlog(x)\n", "\t\tif x:\n\t\t    log(x)\n");
        assert_eq!(indent_break("t.py", tabbed, &consistent), None);
        // Already inconsistent before the edit: the reading is not trusted.
        let mixed = spaces_after_tabs.clone();
        let edited = mixed.replace("log(x)", "log(x, 2)");
        assert_eq!(indent_break("t.py", &mixed, &edited), None);
    }

    #[test]
    fn a_deliberate_dedent_is_none() {
        let result = CART.replace(
            "            self.items.append(item)\n",
            "            pass\n        self.items.append(item)\n",
        );
        assert_eq!(indent_break("cart.py", CART, &result), None);
        assert_eq!(
            indent_break("cart.txt", CART, &CART.replace("    def", "   def")),
            None
        );
    }

    /// `report.py` of a tester's find: blocks whose only line an edit
    /// takes out or comments out, with blank lines, comments, the next
    /// top-level line or the file's end after them (all passed: the check
    /// read only the line right after the change).
    const REPORT: &str = "def report(rows, verbose):\n    total = sum(rows)\n    if verbose:\n        print(\"rows:\", rows)\n\n    return total\n\n\ndef main():\n    for r in [[1, 2], [3]]:\n        print(\"row\", r)\n\n\nif __name__ == \"__main__\":\n    main()\n";

    #[test]
    fn a_block_an_edit_leaves_without_a_line_is_a_fault() {
        let emptied = REPORT.replace("        print(\"rows:\", rows)\n", "");
        let found = indent_break("report.py", REPORT, &emptied).expect("a fault");
        assert_eq!(
            (found.line, found.kind, found.opener.clone(), found.at_end),
            (
                5,
                BreakKind::Expected,
                Some((3, "if verbose:".into())),
                false
            )
        );
        assert_eq!(
            found.describe(),
            "as written, line 5 (`return total`) is at column 4, not deeper than line 3 (`if \
             verbose:`), which ends with `:`, and no indented line comes between them: Python \
             refuses the file (IndentationError: expected an indented block): keep a statement \
             in the block (`pass` where it is meant to be empty), or take out the line that \
             opens it"
        );
        let found = check_edit(
            indent_break,
            "report.py",
            REPORT,
            "        print(\"row\", r)",
            "        # print(\"row\", r)",
        )
        .expect("a fault");
        assert_eq!((found.line, found.kind), (14, BreakKind::Expected));
        // The block right before the next top-level line.
        let before_def = before(REPORT, "    return total\n", "    if total:\n    ");
        let found = check_edit(
            indent_break,
            "report.py",
            &before_def,
            "        return total\n",
            "",
        )
        .expect("a fault");
        assert_eq!((found.line, &*found.text), (9, "def main():"));
        // At the file's end: the opener is named.
        let at_end = "def f(x):\n    if x:\n        log(x)\n";
        let found = indent_break("f.py", at_end, "def f(x):\n    if x:\n").expect("a fault");
        assert_eq!((found.line, found.at_end), (2, true));
        assert_eq!(
            found.describe(),
            "as written, line 2 (`if x:`) ends with `:`, and the file ends before any indented \
             line under it: Python refuses the file (IndentationError: expected an indented \
             block): keep a statement in the block (`pass` where it is meant to be empty), or \
             take out the line that opens it"
        );
        assert_eq!(
            indent_break("f.py", at_end, "def f(x):\n    if x:\n        # log(x)\n\n")
                .map(|f| f.at_end),
            Some(true)
        );
    }

    /// A tester's find (round 39b, 13): a `'…'` string continued by a `\\`
    /// ending its line, brackets in both halves: its next line is the
    /// string's, not code; a misindent after it is still found.
    #[test]
    fn a_string_continued_by_a_backslash_holds_its_brackets() {
        let plain = "def t():\n    c = g(\n        'a'\n    )\n    expr = g(\n        1\n    )\n    return c\n";
        for string in ["'a((b, \\\n        c)'", "\"a[[b \\\\ \\\n        c]\""] {
            let result = plain.replace("'a'", string);
            assert_eq!(indent_break("t.py", plain, &result), None, "{result}");
            let misindented = before(&result, "    return c", "  ");
            assert_eq!(
                indent_break("t.py", plain, &misindented).map(|b| (b.line, b.column)),
                Some((9, 6)),
                "{misindented}"
            );
        }
    }

    /// Blocks that keep a statement: `pass`, a one-line body, a docstring,
    /// a comment after the `:`, an opener continued over lines, a block
    /// taken out whole; and a file already refused before the edit.
    #[test]
    fn a_block_that_keeps_a_statement_is_none() {
        let line = "        print(\"rows:\", rows)\n";
        let cases = [
            (line, "        pass\n"),
            (line, "        ...\n"),
            (line, "        \"\"\"Nothing.\"\"\"\n"),
            (line, "        # nothing\n        pass\n"),
            (
                line,
                "        # a comment ending with a backslash \\\n        log(rows)\n        log(rows)\n",
            ),
            (
                "    if verbose:\n        print(\"rows:\", rows)\n",
                "    if verbose: print(rows)\n",
            ),
            ("    if verbose:\n        print(\"rows:\", rows)\n", ""),
            ("    if verbose:\n", "    if verbose:  # noisy\n"),
            (
                "    if verbose:\n",
                "    if (verbose and\n            rows):\n",
            ),
            (
                "    if verbose:\n",
                "    if verbose and \\\n            rows:\n",
            ),
        ];
        assert_none(
            |(old, new)| indent_break("report.py", REPORT, &REPORT.replace(old, new)),
            &cases,
        );
        let refused = REPORT.replace(line, "");
        let edited = after(&refused, "total = sum(rows)", " + 1");
        assert_eq!(indent_break("report.py", &refused, &edited), None);
    }
}
