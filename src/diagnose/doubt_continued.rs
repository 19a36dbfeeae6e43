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
//! A Makefile's recipe lines are read alike, as its shell reads them (the
//! `\` of a recipe line hands the next line to the shell with it; a `\ `
//! does not: GNU make 4.3, `make -n`).
//!
//! Said: the line, how bash reads it, the line that then runs alone, and
//! the line to send (the `\` alone at its end; checked with bash in
//! tests/diagnose_trust.rs).

use super::doubt_shell::{Cut, joins, shell_script};
use super::file_kind::FileKind;

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
    /// Who reads the command: `bash`, or `the shell` (a Makefile's
    /// recipe).
    pub shell: &'static str,
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
        let shell = self.shell;
        let (next, next_text) = (&self.next.0, &self.next.1);
        let how = match self.cut {
            Cut::EscapedBlank => format!(
                "line {n} (`{text}`) ends in `\\` with a blank after it: {shell} reads `\\ ` as an \
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
            "as the edit (from line {}) leaves it, {how}, so {shell} ends the command at the \
             line's end and {runs} ({why})",
            self.changed
        )
    }
}

/// The command `result` (the script `path` as an edit leaves it) ends at
/// a line's end where a `\` was meant to continue it, by the module's
/// rule; `None` when there is none, either text does not read clean, or
/// `path` is no sh or bash script or Makefile.
pub(super) fn command_cut(path: &str, original: &str, result: &str) -> Option<CutCommand> {
    // A new file continued nothing before.
    if original.is_empty() {
        return None;
    }
    let (after_joins, shell) = if shell_script(path, original) {
        (joins(result)?, "bash")
    } else if FileKind::of(path, original) == FileKind::Makefile {
        (joins(&recipes(result))?, "the shell")
    } else {
        return None;
    };
    if after_joins.cuts.is_empty() {
        return None;
    }
    let before_joins = match shell {
        "bash" => joins(original)?,
        _ => joins(&recipes(original))?,
    };
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
            shell,
        })
    })
}

/// A Makefile's recipe lines as the shell reads them, each in its place:
/// a line starting with a tab under a rule's line (`target: ...`) without
/// its tab, any other line blank (a variable's value continued on lines
/// starting with a tab is no recipe: a `#` there is make's comment, which a
/// `\` continues). make hands a recipe line ending in `\` to the shell with
/// the next one (its tab taken off); one ending in `\ ` alone (checked with
/// GNU make 4.3).
fn recipes(text: &str) -> String {
    let mut in_rule = false;
    // The line above, not a recipe's, ends in `\`: this one continues it.
    let mut continues = false;
    let mut out = Vec::new();
    for line in text.split('\n') {
        let code = line.trim_end_matches('\r');
        if let Some(recipe) = code.strip_prefix('\t').filter(|_| in_rule && !continues) {
            out.push(recipe);
            continue;
        }
        out.push("");
        let trimmed = code.trim_start();
        if !continues && !code.starts_with('\t') && !trimmed.is_empty() && !trimmed.starts_with('#')
        {
            let word = trimmed.split_whitespace().next().unwrap_or("");
            let conditional = matches!(
                word,
                "ifeq" | "ifneq" | "ifdef" | "ifndef" | "else" | "endif"
            );
            if !conditional {
                in_rule = match trimmed.find(':') {
                    Some(colon) => {
                        !trimmed[..colon].contains('=')
                            && !trimmed[colon..].starts_with(":=")
                            && !trimmed[colon..].starts_with("::=")
                    }
                    None => false,
                };
            }
        }
        continues = code.ends_with('\\');
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::command_cut;
    use crate::diagnose::doubt::test_edits::check_edit;

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
        let got = check_edit(
            command_cut,
            "run.sh",
            RUN,
            "  -e CI=1 \\\n",
            "  # the CI flag\n  -e CI=1 \\\n",
        )
        .expect("said");
        assert_eq!((got.line.0, got.next.0, got.before), (5, 6, Some(4)));
        assert!(got.describe().ends_with("take line 5 out of the command (a comment may stand above it), or end the line above without its `\\`"));
        // An edit that adds both lines, the next an option.
        assert_eq!(
            check_edit(
                command_cut,
                "run.sh",
                RUN,
                "  img\n",
                "  --net host # \\\n  --pull always \\\n  img\n"
            )
            .map(|c| c.line.0),
            Some(6)
        );
    }

    /// A Makefile's recipe is read as its shell reads it: a `\ ` or a
    /// comment before the `\` ends the command there; a variable's
    /// continued value is no recipe.
    #[test]
    fn a_recipe_cut_before_its_continued_line_is_said() {
        let make = "SRCS = a.c \\\n  b.c\n\nall:\n\techo start \\\n\t  middle \\\n\t  end\n";
        let cut = make.replace("middle \\\n", "middle \\ \n");
        let got = command_cut("Makefile", make, &cut).expect("said");
        assert_eq!((got.line.0, got.next.0, got.before), (6, 7, Some(6)));
        assert!(got.describe().contains(
            "the shell reads `\\ ` as an escaped space, a word of its own, so the shell ends the \
             command at the line's end and runs line 7 (`end`) as a command of its own, `end`"
        ));
        let comment = make.replace("middle \\\n", "middle # the rest \\\n");
        assert!(command_cut("Makefile", make, &comment).is_some());
        let value = make.replace("a.c \\\n", "a.c \\ \n");
        assert_eq!(command_cut("Makefile", make, &value), None);
        // A variable's value continued on tab-indented lines: no recipe.
        let arches = "ARCHES = \\\n\t\tamd64 \\\n\t\tarm64 \\\n\t\ti386\n";
        assert_eq!(
            check_edit(
                command_cut,
                "arch.mk",
                arches,
                "amd64 \\",
                "amd64 # note \\"
            ),
            None
        );
        assert_eq!(
            check_edit(
                command_cut,
                "Makefile",
                make,
                "middle \\\n",
                "middle \\\n\t  more \\\n"
            ),
            None
        );
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
        assert_eq!(
            check_edit(command_cut, "run.sh", &array, "  a \\\n", "  a \\ \n"),
            None
        );
        let cut = RUN.replace("--rm \\\n", "--rm \\ \n");
        assert_eq!(
            check_edit(command_cut, "run.sh", &cut, "set -e\n", "set -eu\n"),
            None
        );
    }
}
