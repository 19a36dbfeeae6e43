//! *Pure.* A Python statement an edit keeps word for word but sets at
//! another column, while the block it stood in and the block it lands in
//! both stay as they were: the statement moves into or out of a block
//! (a tester's find, round 51 T-10: a comment added in `fnmatch.filter`'s
//! `else:` branch, the function's last line `return result` re-sent 8
//! columns deep where the file had it at 4: it moves into the `else:`,
//! and on posix `filter()` returns `None`; the mirror, `result.append(name)`
//! re-sent one level out of its `if`, returns every name). Python compiles
//! both; only the meaning changes.
//!
//! The rule, by evidence only, for a file srview reads as Python
//! ([`super::file_kind`]), both versions read by its tokenizer
//! ([`super::doubt_names::python_lines`]: logical lines, so a line inside
//! a string or a bracket is never a statement):
//! - the file before and after are compared line by line, each line read
//!   without its indentation (a line diff); a line of the result is
//!   **kept** when that diff keeps it: a block re-indented whole lines up
//!   with its old lines one for one;
//! - a kept statement whose column changes has a **block** before (the
//!   nearest statement above it at a smaller column, its header, or the
//!   module) and a block after, read the same way in the result;
//! - it is doubted when both headers are kept statements at their old
//!   columns (or the module) and the block after is not the block before.
//!
//! An edit that only re-indents (every line kept, blank lines aside) does
//! what it means: a line dedented out of its `if` and nothing else is not
//! doubted; the tester's edits each add a line beside the move (a comment,
//! `matched = True`).
//!
//! So a block wrapped in a new `if`, `with` or `try` (its new header is no
//! kept line), a block dedented out of an `if` the edit removes (its old
//! header is no kept line), a whole file re-indented from 2 to 4 columns
//! (every header the same), a header the edit rewrites (`if a:` to `if a
//! and b:`) or re-indents are never doubted. The first such statement is named,
//! with the blocks it leaves and enters and how many more move.

use super::doubt_names::python_lines;
use super::pytokens::Token;
use crate::textdiff::{changed_lines, ops};
use similar::DiffOp;
use std::collections::HashMap;

/// The block a statement stands in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Block {
    /// The module's top level.
    Module,
    /// The body of the header on the result's line `line` (1-based).
    Header {
        /// The result's line (1-based) holding the header.
        line: usize,
        /// The header in words: "`filter`'s body", "the `else:` block".
        said: String,
    },
}

impl Block {
    /// The block in words, with its line.
    fn said(&self) -> String {
        match self {
            Block::Module => "the module's top level".into(),
            Block::Header { line, said } => format!("{said} (line {line})"),
        }
    }
}

/// A kept statement the edit sets in another block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DepthMove {
    /// The result's line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// Its column in the file before.
    pub was: usize,
    /// Its column as the edit leaves it.
    pub is: usize,
    /// The block it stood in.
    pub left: Block,
    /// The block it stands in now.
    pub entered: Block,
    /// How many more kept statements move to another block.
    pub others: usize,
}

impl DepthMove {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: send it at column {}, as the file has it, unless the move is meant",
            self.fault(),
            self.was
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        let others = match self.others {
            0 => String::new(),
            n => format!(
                " ({} {} too)",
                crate::words::count(n, "other kept statement"),
                if n == 1 { "moves" } else { "move" }
            ),
        };
        format!(
            "as written, line {line} (`{text}`), kept word for word, moves from {} into {}{others}: \
             the new text sets it at column {} where the file before has it at column {}, while \
             both headers keep their columns, and Python reads a statement's block by its column \
             (the file compiles, and runs the line in another block than before)",
            self.left.said(),
            self.entered.said(),
            self.is,
            self.was,
        )
    }
}

/// A statement of a file: the 0-based line it starts on, its column, its
/// header in words where it opens a block, and its block (the index of
/// its header among the statements, `None` for the module).
struct Statement {
    line: usize,
    column: usize,
    header: Option<String>,
    block: Option<usize>,
}

/// The statements of `text`, each with its block; `None` where its
/// tokenizer stops (a string or a bracket left open).
fn statements(text: &str) -> Option<Vec<Statement>> {
    let lines = python_lines(text)?;
    let physical: Vec<&str> = text.lines().collect();
    let mut read: Vec<Statement> = Vec::with_capacity(lines.len());
    // The headers open above, innermost last: (column, index).
    let mut open: Vec<(usize, usize)> = Vec::new();
    for (column, tokens) in &lines {
        let Some(first) = tokens.first() else {
            continue;
        };
        let line = first.line.saturating_sub(1);
        while open.last().is_some_and(|&(at, _)| at >= *column) {
            open.pop();
        }
        let block = open.last().map(|&(_, index)| index);
        let header = tokens
            .last()
            .filter(|last| last.is(":"))
            .map(|_| header_said(tokens, physical.get(line).copied().unwrap_or("")));
        if header.is_some() {
            open.push((*column, read.len()));
        }
        read.push(Statement {
            line,
            column: *column,
            header,
            block,
        });
    }
    Some(read)
}

/// A block's header in words: "`filter`'s body", "class `Cache`'s body",
/// "the `else:` block" (`line`: its first physical line).
fn header_said(tokens: &[Token], line: &str) -> String {
    let words: Vec<&str> = tokens.iter().take(3).map(|t| t.text).collect();
    match words.as_slice() {
        ["def", name, ..] | ["async", "def", name] => format!("`{name}`'s body"),
        ["class", name, ..] => format!("class `{name}`'s body"),
        _ => {
            let text = line.trim();
            let shown: String = text.chars().take(60).collect();
            let cut = if shown.len() < text.len() { "..." } else { "" };
            format!("the `{shown}{cut}` block")
        }
    }
}

/// The result's kept lines: for each line of `new` the diff of the two
/// files' lines, each read without its indentation, keeps, the line of
/// `old` it stands for (see the module). Read without indentation, a
/// block re-indented whole lines up with its old lines one for one.
fn kept_lines(old: &[&str], new: &[&str]) -> HashMap<usize, usize> {
    let old: Vec<&str> = old.iter().map(|line| line.trim()).collect();
    let new: Vec<&str> = new.iter().map(|line| line.trim()).collect();
    let (prefix, suffix) = crate::textdiff::shared_ends(&old, &new);
    let mut kept: HashMap<usize, usize> = HashMap::new();
    for at in 0..prefix {
        kept.insert(at, at);
    }
    for at in 0..suffix {
        kept.insert(new.len() - 1 - at, old.len() - 1 - at);
    }
    let (old_mid, new_mid) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    for op in ops(old_mid, new_mid, None) {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = op
        {
            for at in 0..len {
                kept.insert(prefix + new_index + at, prefix + old_index + at);
            }
        }
    }
    kept
}

/// Whether the lines of `new` are those of `old`, blank lines aside, each
/// read without its indentation: the edit only re-indents, so the move is
/// all it does, and meant (a line dedented out of its `if` on purpose).
fn only_reindents(old: &[&str], new: &[&str]) -> bool {
    let texts = |lines: &[&str]| {
        lines
            .iter()
            .map(|line| line.trim().to_string())
            .filter(|line| !line.is_empty())
            .collect::<Vec<String>>()
    };
    texts(old) == texts(new)
}

/// The first kept statement of `result` (the Python file as an edit
/// leaves it) that stands in another block than it did in `original`,
/// both blocks' headers kept (see the module's rule).
pub(super) fn python_depth_move(original: &str, result: &str) -> Option<DepthMove> {
    if original == result {
        return None;
    }
    let (old, new, _, _) = changed_lines(original, result);
    if only_reindents(&old, &new) {
        return None;
    }
    let (before, after) = (statements(original)?, statements(result)?);
    let kept = kept_lines(&old, &new);
    let back: HashMap<usize, usize> = kept.iter().map(|(&n, &o)| (o, n)).collect();
    let at = |statements: &[Statement]| -> HashMap<usize, usize> {
        statements
            .iter()
            .enumerate()
            .map(|(index, s)| (s.line, index))
            .collect()
    };
    let (old_at, new_at) = (at(&before), at(&after));
    // A header of the result as the same header of the file before, at
    // the same column: `Some(None)` for the module, `None` for a header
    // the edit adds, rewrites or re-indents.
    let header_before = |block: Option<usize>| -> Option<Option<usize>> {
        let Some(index) = block else {
            return Some(None);
        };
        let line = kept.get(&after[index].line)?;
        let old = *old_at.get(line)?;
        (before[old].column == after[index].column).then_some(Some(old))
    };
    let said = |block: Option<usize>| match block {
        None => Block::Module,
        Some(index) => Block::Header {
            line: after[index].line + 1,
            said: after[index].header.clone().unwrap_or_default(),
        },
    };
    let mut moves: Vec<DepthMove> = Vec::new();
    for statement in &after {
        let Some(was) = kept.get(&statement.line).and_then(|line| old_at.get(line)) else {
            continue;
        };
        let was = &before[*was];
        if was.column == statement.column {
            continue;
        }
        let Some(entered) = header_before(statement.block) else {
            continue;
        };
        // The block it stood in, as a header of the result.
        let left = match was.block {
            None => None,
            Some(old) => match back
                .get(&before[old].line)
                .and_then(|line| new_at.get(line))
            {
                Some(&index) if after[index].column == before[old].column => Some(index),
                _ => continue,
            },
        };
        if entered == was.block {
            continue;
        }
        moves.push(DepthMove {
            line: (statement.line + 1, new[statement.line].trim().to_string()),
            was: was.column,
            is: statement.column,
            left: said(left),
            entered: said(statement.block),
            others: 0,
        });
    }
    let others = moves.len().saturating_sub(1);
    let mut first = moves.into_iter().next()?;
    first.others = others;
    Some(first)
}

#[cfg(test)]
mod tests {
    use super::python_depth_move;

    /// `fnmatch.py` of Python 3.11's standard library (the tester's file).
    const FNMATCH: &str = include_str!("../../tests/fixtures/trust/py_depth/fnmatch.py.txt");

    /// What the check says of `FNMATCH` with `old` replaced by `new`.
    fn said(old: &str, new: &str) -> Option<String> {
        assert_eq!(FNMATCH.matches(old).count(), 1, "{old}");
        let result = FNMATCH.replacen(old, new, 1);
        python_depth_move(FNMATCH, &result).map(|d| d.describe())
    }

    /// The tester's case (round 51 T-10): a comment added in `filter`'s
    /// `else:`, the function's last line re-sent 8 columns deep.
    #[test]
    fn a_kept_line_sent_into_the_block_above_it_is_said() {
        let old = "    else:\n        for name in names:\n            if match(os.path.normcase(name)):\n                result.append(name)\n    return result\n";
        let new = "    else:\n        # normcase is needed on Windows: compare case-folded names.\n        for name in names:\n            if match(os.path.normcase(name)):\n                result.append(name)\n        return result\n";
        assert_eq!(
            said(old, new).as_deref(),
            Some(
                "as written, line 63 (`return result`), kept word for word, moves from \
                 `filter`'s body (line 48) into the `else:` block (line 58): the new text sets \
                 it at column 8 where the file before has it at column 4, while both headers \
                 keep their columns, and Python reads a statement's block by its column (the \
                 file compiles, and runs the line in another block than before): send it at \
                 column 4, as the file has it, unless the move is meant"
            )
        );
    }

    /// The mirror (T-10's t_dep2): a line added under `if match(name):`,
    /// the kept `result.append(name)` re-sent one level out of the `if`.
    #[test]
    fn a_kept_line_sent_out_of_its_block_is_said() {
        let old = "        for name in names:\n            if match(name):\n                result.append(name)\n    else:\n";
        let new = "        for name in names:\n            if match(name):\n                matched = True\n            result.append(name)\n    else:\n";
        let said = said(old, new).unwrap_or_default();
        assert!(
            said.starts_with(
                "as written, line 58 (`result.append(name)`), kept word for word, moves from \
                 the `if match(name):` block (line 56) into the `for name in names:` block \
                 (line 55): the new text sets it at column 12 where the file before has it at \
                 column 16"
            ),
            "{said}"
        );
    }

    /// Harmless edits: a block wrapped in a new `if` (consistently one
    /// level deeper), a block dedented out of an `if` the edit removes, a
    /// header rewritten with its body re-indented, a comment, a rename, the
    /// whole function re-indented by 2.
    #[test]
    fn a_block_wrapped_or_unwrapped_whole_is_not_doubted() {
        let body =
            "    result = []\n    pat = os.path.normcase(pat)\n    match = _compile_pattern(pat)\n";
        let wrapped = "    if pat:\n        result = []\n        pat = os.path.normcase(pat)\n        match = _compile_pattern(pat)\n";
        assert_eq!(said(body, wrapped), None);
        let unwrapped = "        for name in names:\n            if match(name):\n                result.append(name)\n";
        let posix = "    if os.path is posixpath:\n        # normcase on posix is NOP. Optimize it away from the loop.\n";
        let old = format!("{posix}{unwrapped}");
        let new = "    # normcase on posix is NOP. Optimize it away from the loop.\n    for name in names:\n        if match(name):\n            result.append(name)\n    if not (os.path is posixpath):\n";
        assert_eq!(said(&old, new), None);
        let rewritten = "    if os.path is posixpath and names:\n        # normcase on posix is NOP.\n        for name in names:\n            if match(name):\n                result.append(name)\n";
        assert_eq!(said(&old, rewritten), None);
        assert_eq!(
            said(
                "    return result\n",
                "    # the names that match\n    return result\n"
            ),
            None
        );
        assert_eq!(
            said(
                "            if match(name):\n                result.append(name)\n",
                "            if match(name):\n                result.append(name)  # kept\n"
            ),
            None
        );
        let function = FNMATCH
            .split("def filter(names, pat):\n")
            .nth(1)
            .and_then(|rest| rest.split("\n\n").next())
            .unwrap_or_default();
        let halved: String = function
            .lines()
            .map(|line| {
                let spaces = line.len() - line.trim_start().len();
                format!("{}{}\n", " ".repeat(spaces / 2), line.trim_start())
            })
            .collect();
        assert_eq!(said(&format!("{function}\n"), &halved), None);
    }

    /// An edit that only re-indents (gate test
    /// `a_deliberate_python_reindent_is_not_doubted`): meant.
    #[test]
    fn an_edit_that_only_reindents_is_not_doubted() {
        let file = "def f(x):\n    if x:\n        a()\n        b()\n    return 1\n";
        let moved = "def f(x):\n    if x:\n        a()\n    b()\n\n    return 1\n";
        assert_eq!(python_depth_move(file, moved), None);
        let with_a_line = "def f(x):\n    if x:\n        a()\n        c()\n    b()\n    return 1\n";
        assert!(python_depth_move(file, with_a_line).is_some());
    }

    /// Two kept lines moved: the first named, the other counted; a file
    /// the tokenizer stops in is not read.
    #[test]
    fn more_moves_are_counted_and_an_unread_file_is_not_judged() {
        let file = "def f(a):\n    if a:\n        pass\n    x = 1\n    x = 1\n    return x\n";
        let result = "def f(a):\n    if a:\n        pass\n        x = 1\n        x = 1\n    y = 2\n    \
                      return x\n";
        let said = python_depth_move(file, result)
            .map(|d| d.fault())
            .unwrap_or_default();
        assert!(
            said.starts_with(
                "as written, line 4 (`x = 1`), kept word for word, moves from `f`'s body (line \
                 1) into the `if a:` block (line 2) (1 other kept statement moves too)"
            ),
            "{said}"
        );
        let open = "def f(a):\n    if a:\n        x = (1\n    return x\n";
        assert_eq!(python_depth_move(file, open), None);
    }
}
