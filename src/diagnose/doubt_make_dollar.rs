//! *Pure.* A Makefile recipe line an edit adds that writes a shell
//! variable with one `$` (`echo "file: $f"`, `cd $HOME`): make expands
//! every `$` of a recipe before the shell sees it, reading `$f` as its own
//! variable `f` (empty) and `$HOME` as `$H` followed by `OME` (a tester's
//! find, round 49 T-09: GNU make printed `file: ` and `home is OME`). The
//! shell's variable is written `$$f` in a recipe.
//!
//! The rule, by evidence only, for a file srview reads as a Makefile
//! ([`super::file_kind`]):
//! - a line the edit adds (not among the lines it replaces), starting with
//!   a tab, in a recipe (a rule or a tab-indented line above it, as
//!   [`super::doubt_make`] reads it), not inside `define` ... `endef` (a
//!   body `$(call)` or `$(eval)` expands, where `$1` is its argument);
//! - a `$` followed by a letter or `_` (not `$$`, `$(`, `${`, an automatic
//!   variable `$@ $< $^ $? $* $+ $| $%`, nor a digit);
//! - the file defines no variable of that one letter (`f = ..`, `f := ..`,
//!   `export f = ..`, `define f`): a one-letter make variable is meant
//!   then.

use super::doubt_make::recipe_above;

/// A recipe line whose `$name` make expands as its own one-letter
/// variable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecipeDollar {
    /// The result's line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// The shell variable as written (`$HOME`).
    pub written: String,
    /// The letter make reads as its variable (`H`).
    pub letter: char,
}

impl RecipeDollar {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: write `${}` for the shell's variable",
            self.fault(),
            self.written
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        let rest = &self.written[1 + self.letter.len_utf8()..];
        let shell_gets = if rest.is_empty() {
            "nothing there".to_string()
        } else {
            format!("`{rest}`")
        };
        format!(
            "line {line} (`{text}`) writes `{written}` in a recipe: make expands it before the \
             shell runs, reading `${letter}` as its own variable `{letter}`, which the file \
             never sets (empty), so the shell gets {shell_gets}",
            written = self.written,
            letter = self.letter,
        )
    }
}

/// The first recipe line `result` (a Makefile as an edit leaves it) adds
/// with a shell variable make reads as its own (see the module's rule).
pub(super) fn recipe_dollar(original: &str, result: &str) -> Option<RecipeDollar> {
    if original == result {
        return None;
    }
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let replaced = &old[prefix..old.len() - suffix];
    let mut in_define = false;
    for (at, line) in new.iter().enumerate().take(new.len() - suffix) {
        match line.split_whitespace().next() {
            Some("define") => in_define = true,
            Some("endef") => in_define = false,
            _ => {}
        }
        if at < prefix || in_define || !line.starts_with('\t') || replaced.contains(line) {
            continue;
        }
        if recipe_above(&new, at).is_none() {
            continue;
        }
        let Some((written, letter)) = one_letter_reference(line) else {
            continue;
        };
        if defines(&new, letter) {
            continue;
        }
        return Some(RecipeDollar {
            line: (at + 1, line.trim().to_string()),
            written,
            letter,
        });
    }
    None
}

/// The first `$` of `line` followed by a letter or `_`: the name as
/// written (`$HOME`) and the letter make reads.
fn one_letter_reference(line: &str) -> Option<(String, char)> {
    let mut chars = line.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '$' {
            continue;
        }
        let &(_, next) = chars.peek()?;
        if next.is_ascii_alphabetic() || next == '_' {
            let name_end = line[at + 1..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(line.len(), |n| at + 1 + n);
            return Some((line[at..name_end].to_string(), next));
        }
        // `$$`, `$(`, `${`, an automatic variable, a digit: one
        // character more read as part of it.
        chars.next();
    }
    None
}

/// Whether `lines` set a make variable named `letter`.
fn defines(lines: &[&str], letter: char) -> bool {
    lines.iter().any(|line| {
        let text = line.trim_start();
        let text = text
            .strip_prefix("export ")
            .or_else(|| text.strip_prefix("override "))
            .unwrap_or(text)
            .trim_start();
        if let Some(name) = text.strip_prefix("define ") {
            return name.trim().starts_with(letter) && name.trim().len() == letter.len_utf8();
        }
        let Some(rest) = text.strip_prefix(letter) else {
            return false;
        };
        let rest = rest.trim_start();
        ["=", ":=", "::=", "?=", "+=", "!="]
            .iter()
            .any(|op| rest.starts_with(op))
    })
}

#[cfg(test)]
mod tests {
    use super::recipe_dollar;

    const MAKEFILE: &str = "SRC = $(wildcard *.go)\n\nall: build\n\nbuild:\n\tgo build ./...\n";

    fn said(added: &str) -> Option<String> {
        let result = MAKEFILE.replace("\tgo build ./...\n", &format!("\tgo build ./...\n{added}"));
        recipe_dollar(MAKEFILE, &result).map(|d| d.describe())
    }

    /// The tester's case (round 49 T-09): `$f` and `$HOME` in a recipe,
    /// which GNU make expands to nothing and `OME`.
    #[test]
    fn a_shell_variable_with_one_dollar_in_a_recipe_is_said() {
        assert_eq!(
            said("\tfor f in *.go; do echo \"file: $f\"; done\n").as_deref(),
            Some(
                "line 7 (`for f in *.go; do echo \"file: $f\"; done`) writes `$f` in a recipe: \
                 make expands it before the shell runs, reading `$f` as its own variable `f`, \
                 which the file never sets (empty), so the shell gets nothing there: write \
                 `$$f` for the shell's variable"
            )
        );
        assert_eq!(
            said("\techo \"home is $HOME\"\n").as_deref(),
            Some(
                "line 7 (`echo \"home is $HOME\"`) writes `$HOME` in a recipe: make expands it \
                 before the shell runs, reading `$H` as its own variable `H`, which the file \
                 never sets (empty), so the shell gets `OME`: write `$$HOME` for the shell's \
                 variable"
            )
        );
    }

    #[test]
    fn make_references_and_doubled_dollars_are_not_said() {
        let fine = [
            "\tfor f in *.go; do echo \"file: $$f\"; done\n",
            "\techo $(SRC) ${SRC} $@ $< $^ $? $* $+ $| $%\n",
            "\techo \"home is $$HOME\"\n",
            "\tcost=$$((1 + 2))\n",
            // Not a recipe line: an assignment, a comment.
            "X := $(shell echo $$PATH)\n",
            "# echo $HOME\n",
        ];
        for added in fine {
            assert_eq!(said(added), None, "{added}");
        }
        // A one-letter variable the file sets.
        let with_f = format!("f = main.go\n{MAKEFILE}");
        let result = with_f.replace("\tgo build ./...\n", "\tgo build ./...\n\tgofmt -l $f\n");
        assert_eq!(recipe_dollar(&with_f, &result), None);
        // Inside define ... endef ($1 and friends are call arguments).
        let define = format!("{MAKEFILE}define run\n\techo $1\nendef\n");
        let result = define.replace("\techo $1\n", "\techo $1 $x\n");
        assert_eq!(recipe_dollar(&define, &result), None);
        // The line was there before (the edit did not write it).
        let old = format!("{MAKEFILE}\techo $HOME\n");
        let result = old.replace("go build", "go build -v");
        assert_eq!(recipe_dollar(&old, &result), None);
    }
}
