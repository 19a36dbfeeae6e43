//! *Pure.* An edit that puts a Unicode space (a no-break space U+00A0, a
//! thin or an ideographic one) where code has a space, in a language that
//! reads only ASCII white space (a tester's find, round 46, T-10: `int x`
//! written `int\u{a0}x` was allowed, and gcc refuses the file; the same
//! slip in Python is said by [`super::doubt_pysyntax`]).
//!
//! The rule, by evidence only:
//! - C and C++, Rust, Go ([`super::doubt_braces::brace_language`]): such a
//!   space read in code, outside strings, comments, character literals
//!   and `#if 0` branches (the bracket check's reading): the compiler
//!   refuses the file (gcc: `stray '\302' in program`; rustc: `unknown
//!   start of token`; Go's scanner: an invalid character);
//! - sh and bash ([`super::doubt_shell::shell_script`]): such a space
//!   unquoted in a command's name (before any `=`): bash splits no word at
//!   it, and running the line fails with `command not found`; or unquoted
//!   in another word, an argument (`rm -rf\u{a0}/tmp/x`: `rm` gets one
//!   argument, `-rf\u{a0}/tmp/x`, and refuses the option; tester 48,
//!   T-04), where the file before held no such space anywhere, quoted or
//!   not (a file that writes them, French text's `\u{a0}:`, may mean
//!   one). An assignment's value (`NAME=a\u{a0}b`) is not said: `a b`
//!   there would run `b`, and which was meant is not known;
//! - doubted: the result holds one, the file before none (read the same
//!   way: a file that never compiled is not judged). JavaScript reads the
//!   no-break space as white space: not judged. Inside a string or a
//!   comment it is content: not judged.
//!
//! The sentence names the line and column, and offers the line with an
//! ASCII space for each one so read (those in strings and comments kept).
//! Checked against gcc, rustc and bash (tests/diagnose_trust.rs).

use super::doubt_braces::{Lang, brace_language, code_spaces};
use super::doubt_shell::{command_spaces, shell_script};

/// The language an [`OddSpace`] is read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpaceLanguage {
    /// C, C++, CUDA, Objective-C.
    C,
    /// Rust.
    Rust,
    /// Go.
    Go,
    /// sh or bash.
    Shell,
}

/// A space other than U+0020 an edit put in code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddSpace {
    /// The character.
    pub ch: char,
    /// Its line and column (1-based, in characters).
    pub at: (usize, usize),
    /// The line, as the edit leaves it, trimmed.
    pub text: String,
    /// The line with an ASCII space for each such space in its code,
    /// trimmed.
    pub fixed: String,
    /// For a shell script: the word the space is in (a command's name or
    /// an argument).
    pub word: String,
    /// For a shell script: the word is an argument (or another word than
    /// a command's name).
    pub argument: bool,
    /// The language.
    pub language: SpaceLanguage,
}

impl OddSpace {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: send the line with an ASCII space there, `{}` (a space in a string or a \
             comment kept)",
            self.fault(),
            self.fixed
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, column) = self.at;
        let code = format!("U+{:04X}", u32::from(self.ch));
        let named = if self.ch == '\u{A0}' {
            format!("a no-break space ({code})")
        } else {
            format!("a special space ({code})")
        };
        let refused = match self.language {
            SpaceLanguage::C => format!(
                "a C or C++ compiler reads no such space as white space (gcc: `stray '\\{:o}' \
                 in program`)",
                self.ch.to_string().as_bytes()[0]
            ),
            SpaceLanguage::Rust => {
                "rustc reads no such space as white space (`unknown start of token`)".to_string()
            }
            SpaceLanguage::Go => {
                "Go reads only a space, a tab, a carriage return and a line feed as white space \
                 (its compiler stops at an invalid character)"
                    .to_string()
            }
            SpaceLanguage::Shell if self.argument => {
                let parts: Vec<String> = self
                    .word
                    .split(super::odd_spaces::odd_space)
                    .filter(|p| !p.is_empty())
                    .map(|p| format!("`{p}`"))
                    .collect();
                let shown = match parts.len() {
                    0 | 1 => "where the line shows a space ending it".to_string(),
                    n => format!("where the line shows {n} ({})", parts.join(" and ")),
                };
                format!(
                    "bash splits no word at it, so `{}` reaches its command as one argument, \
                     {shown}",
                    self.word
                )
            }
            SpaceLanguage::Shell => format!(
                "bash splits no word at it, so `{}` runs as one command's name: running the line \
                 fails (`command not found`, or `No such file or directory` for a name holding \
                 a `/`)",
                self.word
            ),
        };
        format!(
            "line {line}, column {column} (`{}`) has {named} in its code, outside any string or \
             comment, where the file before had none: {refused}",
            self.text
        )
    }
}

/// The first space other than U+0020 `result` (the file `path` as an edit
/// leaves it) holds in its code where `original` held none (see the
/// module's rule); `None` when there is none, the file is in no language
/// read here, or either text is not read.
pub(super) fn odd_space_in_code(path: &str, original: &str, result: &str) -> Option<OddSpace> {
    let base = super::file_kind::told_by(original, result);
    let mut argument = false;
    let (language, found) = match brace_language(path) {
        Some(Lang::C) => (SpaceLanguage::C, brace_spaces(Lang::C, original, result)?),
        Some(Lang::Rust) => (
            SpaceLanguage::Rust,
            brace_spaces(Lang::Rust, original, result)?,
        ),
        Some(Lang::Go) => (SpaceLanguage::Go, brace_spaces(Lang::Go, original, result)?),
        Some(_) => return None,
        None if shell_script(path, base) => {
            let found = shell_spaces(original, result)?;
            argument = found.first().is_some_and(|&(_, _, name)| !name);
            let found = found.into_iter().map(|(l, i, _)| (l, i)).collect();
            (SpaceLanguage::Shell, found)
        }
        None => return None,
    };
    let &(line, index) = found.first()?;
    let text = result.lines().nth(line)?.trim_end_matches('\r');
    let on_line: Vec<usize> = found
        .iter()
        .filter(|&&(l, _)| l == line)
        .map(|&(_, i)| i)
        .collect();
    let fixed: String = text
        .chars()
        .enumerate()
        .map(|(i, c)| if on_line.contains(&i) { ' ' } else { c })
        .collect();
    let chars: Vec<char> = text.chars().collect();
    let ch = *chars.get(index)?;
    let bounds = |c: &char| c.is_ascii_whitespace() || matches!(c, ';' | '&' | '|' | '(' | ')');
    let start = chars[..index].iter().rposition(bounds).map_or(0, |p| p + 1);
    let end = chars[index..]
        .iter()
        .position(bounds)
        .map_or(chars.len(), |p| index + p);
    Some(OddSpace {
        ch,
        at: (line + 1, index + 1),
        text: text.trim().to_string(),
        fixed: fixed.trim().to_string(),
        word: chars[start..end].iter().collect(),
        argument,
        language,
    })
}

/// The spaces [`code_spaces`] reads in `result`'s code, where `original`
/// (read, too) has none.
fn brace_spaces(lang: Lang, original: &str, result: &str) -> Option<Vec<(usize, usize)>> {
    if !code_spaces(lang, original)?.is_empty() {
        return None;
    }
    code_spaces(lang, result)
}

/// The spaces [`command_spaces`] reads in `result`'s words (line,
/// character index, whether in a command's name), where `original` (read,
/// too) has none; those in other words than a command's name only where
/// `original` holds no such space at all.
fn shell_spaces(original: &str, result: &str) -> Option<Vec<(usize, usize, bool)>> {
    if !command_spaces(original)?.is_empty() {
        return None;
    }
    let writes_them = original.chars().any(super::odd_spaces::odd_space);
    let at = |(offset, name): (usize, bool)| {
        let before = result.get(..offset)?;
        let line = before.matches('\n').count();
        let start = before.rfind('\n').map_or(0, |p| p + 1);
        Some((line, before[start..].chars().count(), name))
    };
    command_spaces(result)?
        .into_iter()
        .filter(|&(_, name)| name || !writes_them)
        .map(at)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::odd_space_in_code;
    use crate::diagnose::doubt::test_edits::{check_edit, edited};

    fn said(path: &str, original: &str, result: &str) -> Option<String> {
        odd_space_in_code(path, original, result).map(|s| s.describe())
    }

    /// The tester's four edits (round 46, T-10), each said in full.
    #[test]
    fn a_no_break_space_in_code_is_said_with_its_line_column_and_the_fixed_line() {
        let c = "int main(void) {\n    int x = 1;\n    int y = 2;\n    return x + y;\n}\n";
        assert_eq!(
            said("m2.c", c, &c.replace("int x", "int\u{a0}x")).as_deref(),
            Some(
                "line 2, column 8 (`int\u{a0}x = 1;`) has a no-break space (U+00A0) in its code, \
                 outside any string or comment, where the file before had none: a C or C++ \
                 compiler reads no such space as white space (gcc: `stray '\\302' in program`): \
                 send the line with an ASCII space there, `int x = 1;` (a space in a string or a \
                 comment kept)"
            )
        );
        let rs = "fn main() {\n    let x = 1;\n    println!(\"{}\", x);\n}\n";
        let got = odd_space_in_code("m.rs", rs, &rs.replace("let x", "let\u{a0}x")).expect("said");
        assert_eq!((got.at, got.fixed.as_str()), ((2, 8), "let x = 1;"));
        let go = "package main\n\nfunc main() {\n\tx := 1\n\t_ = x\n}\n";
        let got = odd_space_in_code("m.go", go, &go.replace("x :=", "x\u{a0}:=")).expect("said");
        assert_eq!((got.at, got.fixed.as_str()), ((4, 3), "x := 1"));
        let sh = "#!/bin/bash\nset -e\necho start\nls /tmp >/dev/null\necho end\n";
        assert_eq!(
            said("nb.sh", sh, &sh.replace("ls /tmp", "ls\u{a0}/tmp")).as_deref(),
            Some(
                "line 4, column 3 (`ls\u{a0}/tmp >/dev/null`) has a no-break space (U+00A0) in its \
                 code, outside any string or comment, where the file before had none: bash \
                 splits no word at it, so `ls\u{a0}/tmp` runs as one command's name: running the \
                 line fails (`command not found`, or `No such file or directory` for a name \
                 holding a `/`): send the line with an ASCII space there, `ls /tmp >/dev/null` \
                 (a space in a string or a comment kept)"
            )
        );
    }

    /// Tester 48, T-04: a shell command's argument split by a no-break
    /// space is one argument to bash: said, with its parts; not where the
    /// file held such a space before (quoted: French text may mean one).
    #[test]
    fn a_no_break_space_between_shell_arguments_is_said_with_its_parts() {
        let sh = "#!/bin/bash\nset -e\nrm -rf /tmp/x\necho done\n";
        assert_eq!(
            said("rm.sh", sh, &sh.replace("-rf /tmp", "-rf\u{a0}/tmp")).as_deref(),
            Some(
                "line 3, column 7 (`rm -rf\u{a0}/tmp/x`) has a no-break space (U+00A0) in its \
                 code, outside any string or comment, where the file before had none: bash \
                 splits no word at it, so `-rf\u{a0}/tmp/x` reaches its command as one argument, \
                 where the line shows 2 (`-rf` and `/tmp/x`): send the line with an ASCII space \
                 there, `rm -rf /tmp/x` (a space in a string or a comment kept)"
            )
        );
        let got = said("rm.sh", sh, &sh.replace("echo done", "echo done\u{a0}"));
        assert!(
            got.is_some_and(|g| g.contains("where the line shows a space ending it")),
            "a space ending the word"
        );
        let french = edited(sh, "echo done", "echo \"fini\u{a0}!\"");
        assert_eq!(
            check_edit(said, "rm.sh", &french, "-rf /tmp", "-rf\u{a0}/tmp"),
            None
        );
        // A command's name is said whatever the file held in its strings.
        assert!(check_edit(said, "rm.sh", &french, "rm -rf", "rm\u{a0}-rf").is_some());
        for result in [
            sh.replace("rm -rf", "X=a\u{a0}b rm -rf"),
            sh.replace("rm -rf", "export X=a\u{a0}b; rm -rf"),
            sh.replace("rm -rf /tmp/x", "arr[1]=a\u{a0}b"),
        ] {
            assert_eq!(said("rm.sh", sh, &result), None, "{result}");
        }
    }

    /// Content, not code: a string, a comment, a character literal, an
    /// assignment's value; a file that held one before; JavaScript.
    #[test]
    fn a_special_space_that_is_content_is_none() {
        let c = "int main(void) {\n    int x = 1;\n    return x;\n}\n";
        for result in [
            c.replace("int x = 1;", "int x = 1; // a\u{a0}b"),
            c.replace("int x = 1;", "const char *s = \"a\u{a0}b\";"),
            c.replace("int x = 1;", "/* a\u{a0}b */ int x = 1;"),
            c.replace("int x = 1;", "int x = '\u{a0}';"),
            c.replace("int x = 1;", "#if 0\nint\u{a0}x = 1;\n#endif\nint x = 1;"),
        ] {
            assert_eq!(said("m.c", c, &result), None, "{result}");
        }
        let held = edited(c, "return x;", "return\u{a0}x;");
        assert_eq!(
            said("m.c", &held, &held.replace("int x", "int\u{a0}x")),
            None
        );
        let js = "const x = 1;\n";
        assert_eq!(said("a.js", js, "const\u{a0}x = 1;\n"), None);
        let sh = "#!/bin/bash\necho start\n";
        for result in [
            "#!/bin/bash\necho \"start\u{a0}now\"\n",
            "#!/bin/bash\n# a\u{a0}b\necho start\n",
            "#!/bin/bash\nNAME=a\u{a0}b\necho start\n",
        ] {
            assert_eq!(said("run.sh", sh, result), None, "{result}");
        }
    }
}
