//! *Pure.* An edit that ends a shell command at a line's end where a `\`
//! was meant to continue it (a tester's find, round 48, T-03): the edit
//! leaves `cmd --a \ ` (a blank after the `\`: bash reads `\ ` as an
//! escaped space, a word of its own, and the line's end ends the command),
//! or puts a `# comment` before the `\` (`--a # note \`: the `\` is in the
//! comment and continues nothing), or a comment line inside the continued
//! command. Either way the next line (`--b value`) runs as a command of
//! its own (`--b: command not found`; one starting with `|` or `&&` is
//! a syntax error), and `bash -n` reads the script clean in the first
//! case.
//!
//! The rule, by evidence only, for a sh or bash script
//! ([`super::doubt_shell::shell_script`]) both of whose texts read clean
//! ([`super::doubt_shell::joins`]):
//! - the cut is on a line the edit changed or added, and no line of the
//!   file before read the same and was cut alike;
//! - the line after it holds a command (not blank, not a comment);
//! - where the edit keeps that next line: the file before continued onto
//!   it (the line above it ended in `\` before); where the edit wrote it
//!   too: it reads as a continuation, starting with `-` (an option), or
//!   the line above the cut one is itself continued.
//!
//! Said: the line, how bash reads it, the line that then runs alone, and
//! the line to send (the `\` alone at its end; checked with bash in
//! tests/diagnose_trust.rs).

use super::doubt_shell::{Cut, joins, shell_script};

/// A command an edit ends at a line's end that a `\` was meant to
/// continue.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CutCommand {
    /// How it is cut.
    pub cut: Cut,
    /// The cut line (1-based) and its text, as the edit leaves it.
    pub line: (usize, String),
    /// The next line (1-based), which now runs alone, and its text,
    /// trimmed.
    pub next: (usize, String),
    /// The original's line (1-based) that continued onto that next line,
    /// where it did.
    pub before: Option<usize>,
    /// The result's first line the edit changed (1-based).
    pub changed: usize,
}

impl CutCommand {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let n = self.line.0;
        let advice = match self.fixed() {
            Some(fixed) => format!("send line {n} with the `\\` alone at its end, `{fixed}`"),
            None => format!(
                "take line {n} out of the command (a comment may stand above it), or end the \
                 line above without its `\\`"
            ),
        };
        format!("{}: {advice}", self.fault())
    }

    /// The cut line as it continues the command (trimmed), where one
    /// is offered: its blanks after the `\` dropped, or its comment.
    fn fixed(&self) -> Option<String> {
        let text = self.line.1.as_str();
        match self.cut {
            Cut::EscapedBlank => Some(text.trim().to_string()),
            Cut::Comment { column, .. } => {
                let words = text.get(..column)?.trim();
                (!words.is_empty()).then(|| format!("{words} \\"))
            }
        }
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (n, text) = (&self.line.0, self.line.1.trim());
        let (next, next_text) = (&self.next.0, &self.next.1);
        let how = match self.cut {
            Cut::EscapedBlank => format!(
                "line {n} (`{text}`) ends in `\\` with a blank after it: bash reads `\\ ` as an \
                 escaped space, a word of its own"
            ),
            Cut::Comment {
                backslash: true, ..
            } => format!(
                "line {n} (`{text}`) has its `\\` inside a `#` comment, which runs to the line's \
                 end and continues nothing"
            ),
            Cut::Comment { .. } => format!(
                "line {n} (`{text}`) is a comment inside the command the line above continues, \
                 and a comment continues nothing"
            ),
        };
        let name = next_text.split_whitespace().next().unwrap_or("");
        let why = match self.before {
            Some(m) => format!("where before the edit line {m} continued onto it"),
            None => "where it reads as the command's continuation".to_string(),
        };
        // A line starting with an operator is no command: bash refuses it.
        let op = ["&&", "||", "|", ";", "&"]
            .into_iter()
            .find(|op| next_text.starts_with(op));
        let runs = match op {
            Some(op) => format!(
                "reads line {next} (`{next_text}`) as a command of its own, where its leading \
                 `{op}` is a syntax error that stops the script"
            ),
            None => format!("runs line {next} (`{next_text}`) as a command of its own, `{name}`"),
        };
        format!(
            "as the edit (from line {}) leaves it, {how}, so bash ends the command at the \
             line's end and {runs} ({why})",
            self.changed
        )
    }
}

/// The command `result` (the script `path` as an edit leaves it) ends at
/// a line's end where a `\` was meant to continue it, by the module's
/// rule; `None` when there is none, either text does not read clean, or
/// `path` is no sh or bash script.
pub(super) fn command_cut(path: &str, original: &str, result: &str) -> Option<CutCommand> {
    let base = if original.is_empty() {
        result
    } else {
        original
    };
    if !shell_script(path, base) || original.is_empty() {
        return None;
    }
    let after_joins = joins(result)?;
    if after_joins.cuts.is_empty() {
        return None;
    }
    let before_joins = joins(original)?;
    let before: Vec<&str> = original.lines().collect();
    let after: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = crate::textdiff::shared_ends(&before, &after);
    let kept_from = after.len() - suffix;
    let cut_before = |text: &str| {
        before_joins
            .cuts
            .iter()
            .any(|&(l, _)| before.get(l - 1).is_some_and(|b| b.trim() == text.trim()))
    };
    after_joins.cuts.iter().find_map(|&(line, cut)| {
        let text = *after.get(line - 1)?;
        if line <= prefix || line > kept_from || cut_before(text) {
            return None;
        }
        let next = after.get(line)?.trim();
        if next.is_empty() || next.starts_with('#') {
            return None;
        }
        // The next line kept: the original's line above it continued
        // onto it, or the file never joined them. The next line written
        // too: it reads as a continuation.
        let before_line = if line + 1 > kept_from {
            let m = line + before.len() - after.len();
            Some(m).filter(|m| before_joins.continued.contains(m))?;
            Some(m)
        } else {
            let looks = next.starts_with('-') || after_joins.continued.contains(&(line - 1));
            looks.then_some(None)?
        };
        Some(CutCommand {
            cut,
            line: (line, text.to_string()),
            next: (line + 1, next.to_string()),
            before: before_line,
            changed: prefix + 1,
        })
    })
}

#[cfg(test)]
mod tests {
    use super::command_cut;

    const RUN: &str =
        "#!/bin/bash\nset -e\ndocker run \\\n  --rm \\\n  -e CI=1 \\\n  img\necho done\n";

    fn said(result: &str) -> Option<String> {
        command_cut("run.sh", RUN, result).map(|c| c.describe())
    }

    /// Tester 48, T-03: a blank after the `\`, a comment before it, a
    /// comment line inside the command: each said, with the line that
    /// then runs alone and the line to send.
    #[test]
    fn a_command_cut_before_its_continued_line_is_said() {
        assert_eq!(
            said(&RUN.replace("--rm \\\n", "--rm \\ \n")).as_deref(),
            Some(
                "as the edit (from line 4) leaves it, line 4 (`--rm \\`) ends in `\\` with a \
                 blank after it: bash reads `\\ ` as an escaped space, a word of its own, so \
                 bash ends the command at the line's end and runs line 5 (`-e CI=1 \\`) as a \
                 command of its own, `-e` (where before the edit line 4 continued onto it): \
                 send line 4 with the `\\` alone at its end, \
                 `--rm \\`"
            )
        );
        assert_eq!(
            said(&RUN.replace("--rm \\\n", "--rm # keep nothing \\\n")).as_deref(),
            Some(
                "as the edit (from line 4) leaves it, line 4 (`--rm # keep nothing \\`) has its \
                 `\\` inside a `#` comment, which runs to the line's end and continues nothing, \
                 so bash ends the command at the line's end and runs line 5 (`-e CI=1 \\`) as a \
                 command of its own, `-e` (where before the edit line 4 continued onto it): \
                 send line 4 with the `\\` alone at its end, \
                 `--rm \\`"
            )
        );
        let inside = RUN.replace("  -e CI=1 \\\n", "  # the CI flag\n  -e CI=1 \\\n");
        let got = command_cut("run.sh", RUN, &inside).expect("said");
        assert_eq!((got.line.0, got.next.0, got.before), (5, 6, Some(4)));
        assert!(got.describe().ends_with("take line 5 out of the command (a comment may stand above it), or end the line above without its `\\`"));
        // An edit that adds both lines, the next an option.
        let both = RUN.replace("  img\n", "  --net host # \\\n  --pull always \\\n  img\n");
        assert_eq!(command_cut("run.sh", RUN, &both).map(|c| c.line.0), Some(6));
    }

    /// Edits that cut nothing: a comment above the command or after an
    /// `&&`, a `\ ` where nothing was continued, a cut the file had
    /// before, a `\` in quotes.
    #[test]
    fn an_edit_that_cuts_no_continued_command_is_none() {
        for result in [
            RUN.replace("docker run", "# run it\ndocker run"),
            RUN.replace("echo done", "true && \\\n  # then say so\n  echo done"),
            RUN.replace("echo done", "echo done \\ "),
            RUN.replace("echo done", "echo 'a \\ ' \"# b \\\\\"\necho done"),
            RUN.replace("--rm \\\n", "--rm \\\n  --init \\\n"),
            RUN.replace("img\n", "img # the image \\\n"),
            // Inside an array's `( )` a line's end ends no command.
            RUN.replace("set -e\n", "set -e\nA=(\n  a \\\n  b\n)\n"),
        ] {
            assert_eq!(command_cut("run.sh", RUN, &result), None, "{result}");
        }
        let array = RUN.replace("set -e\n", "set -e\nA=(\n  a \\\n  b\n)\n");
        let spaced = array.replace("  a \\\n", "  a \\ \n");
        assert_eq!(command_cut("run.sh", &array, &spaced), None);
        let cut = RUN.replace("--rm \\\n", "--rm \\ \n");
        let again = cut.replace("set -e\n", "set -eu\n");
        assert_eq!(command_cut("run.sh", &cut, &again), None);
    }
}
