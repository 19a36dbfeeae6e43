//! *Pure.* A shell test (`[ .. ]`, `test ..`, `[[ .. ]]`) an edit breaks
//! while `bash -n` and `dash -n` still accept the script (a tester's
//! find, round 50 T-09: `if [ "$mode" = "dev"]; then` and `if
//! [ "$mode"="dev" ]; then` were written and called fine).
//!
//! What the shells do, checked with bash 5.2 and dash 0.5.12:
//! - `[` whose last word is not `]` (`"dev"]` is one word: a `]` counts
//!   only as a word of its own) fails with status 2 each time the line
//!   runs, printing `[: missing `]'` (dash: `[: missing ]`); an `if`
//!   takes its `else`, `&&` and `||` read it as false, and `set -e` stops
//!   the script where no `if` or list holds it;
//! - `[[` whose `]]` is glued to the word before it: bash finds no `]]`
//!   and stops the script at that line with a syntax error (`syntax error
//!   in conditional expression`), the lines above it run (`bash -n`
//!   prints the error and still exits 0); so too where `||` or `&&` and
//!   another `[[` follow the glued word (bash reads on to that test's
//!   `]]`: `conditional binary operator expected`);
//! - `[ "$a"="b" ]`, `[ $a!=b ]`, `test $a=b`, `[[ $a==b ]]`: one
//!   non-empty word, tested for being non-empty: always true, never a
//!   comparison.
//!
//! The rule, by evidence only, for a sh or bash script
//! ([`super::doubt_shell::shell_script`]), read with
//! [`super::doubt_shell::words`] (quotes, `$(..)`, backquotes, comments,
//! heredocs):
//! - the test stands on a line the edit adds or changes (not a line among
//!   those it replaces), and the script before held no such fault on a
//!   line of the same text;
//! - `[`, `test` and `[[` only where a command's name stands (a
//!   redirection, `2>/dev/null`, is no argument);
//! - a joined word is said only where it holds a `$` or a backquote (a
//!   variable compared), or where the lines the edit replaces wrote the
//!   same comparison spaced (the edit took the spaces out).

use super::doubt_shell::{ShellWord, Stop, shell_script, words};

/// What is broken in a test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TestFault {
    /// A `[` whose last word is not `]`.
    Unclosed {
        /// Its last word, as written (empty: `[` alone).
        last: String,
        /// That word ends in a `]` glued to it.
        glued: bool,
        /// The text before that `]` is expansions and quotes only, which
        /// may expand to nothing: then the `]` stands alone.
        may_vanish: bool,
        /// The text before that `]` is empty quotes (`""`) after a
        /// comparison's operator: the `]` always stands alone, and the
        /// comparison has no right side.
        empty_right: bool,
    },
    /// A `[[` with no `]]` word after it on its line, a word there ending
    /// in `]]`.
    DoubleUnclosed {
        /// That word, as written.
        last: String,
    },
    /// One word joining an operator to both its sides.
    Joined {
        /// The command: `[`, `test` or `[[`.
        command: &'static str,
        /// The word, as written.
        word: String,
        /// The operator: `=`, `==`, `!=`, `=~`.
        op: &'static str,
        /// The texts on either side of it.
        sides: (String, String),
    },
}

/// A test an edit breaks, with its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestBreak {
    /// What.
    pub fault: TestFault,
    /// The result's line (1-based) the test starts at, and its text,
    /// trimmed.
    pub line: (usize, String),
}

impl TestBreak {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let advice = match &self.fault {
            TestFault::Unclosed { glued: true, .. } => {
                "put a space before the `]`, so `]` is a word of its own".to_string()
            }
            TestFault::Unclosed { .. } => "end the test with ` ]`".to_string(),
            TestFault::DoubleUnclosed { .. } => {
                "put a space before the `]]`, so `]]` is a word of its own".to_string()
            }
            TestFault::Joined { op, sides, .. } => format!(
                "write `{} {op} {}`, with spaces around the `{op}`",
                sides.0, sides.1
            ),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        match &self.fault {
            TestFault::Unclosed {
                last,
                empty_right: true,
                ..
            } => format!(
                "line {line} (`{text}`) ends its test with `{last}`, which `[` reads as its \
                 closing `]` (the quotes hold nothing), so the comparison has no right side: \
                 each time the line runs, `[` fails with status 2 (bash: `unary operator \
                 expected`, dash: `argument expected`), which an `if`, `while`, `&&` or `||` \
                 reads as false; `bash -n` and `dash -n` accept the script"
            ),
            TestFault::Unclosed {
                last,
                glued,
                may_vanish,
                ..
            } => {
                let runs = if last.is_empty() {
                    "runs `[` with no words after it".to_string()
                } else {
                    format!("runs `[` with `{last}` as its last word, not `]`")
                };
                let glued = if *glued {
                    " (its `]` is glued to the word: `[` counts a `]` only as a word of its own)"
                } else {
                    ""
                };
                let when = match last.strip_suffix(']') {
                    Some(before) if *may_vanish => format!(
                        "each time the line runs with `{before}` not empty (empty, the `]` \
                         stands alone and `[` tests the words before it)"
                    ),
                    _ => "each time the line runs".to_string(),
                };
                format!(
                    "line {line} (`{text}`) {runs}{glued}: {when}, `[` prints \
                     `[: missing `]'` (dash: `[: missing ]`) and fails with status 2, which an \
                     `if`, `while`, `&&` or `||` reads as false (an `if` takes its `else`; `set \
                     -e` stops the script where none of them holds it); `bash -n` and `dash -n` \
                     accept the script"
                )
            }
            TestFault::DoubleUnclosed { last } => format!(
                "line {line} (`{text}`) opens `[[` and no `]]` word closes it: `{last}` holds \
                 the `]]` glued to the word before it, which bash reads as part of that word; \
                 bash stops the script at this line with a syntax error (`syntax error in \
                 conditional expression`, `conditional binary operator expected`), after running \
                 the lines above it (`bash -n` prints the error yet exits 0)"
            ),
            TestFault::Joined {
                command, word, op, ..
            } => {
                let shells = if *command == "[[" {
                    "bash"
                } else {
                    "bash and dash alike"
                };
                format!(
                    "line {line} (`{text}`) gives `{command}` the one word `{word}`, its `{op}` \
                     joined to both sides, where a comparison is three words: always true: \
                     `{command}` tests one non-empty string ({shells}), whatever the values"
                )
            }
        }
    }
}

/// The first test `result` (the script `path` as an edit leaves it)
/// breaks on a line the edit adds or changes (see the module's rule).
pub(super) fn test_broken(path: &str, original: &str, result: &str) -> Option<TestBreak> {
    if original == result || !shell_script(path, super::file_kind::told_by(original, result)) {
        return None;
    }
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let replaced = &old[prefix..old.len() - suffix];
    let last_changed = new.len() - suffix;
    let held: Vec<String> = faults(original).into_iter().map(|b| b.line.1).collect();
    let changed = |line: usize| {
        line > prefix
            && line <= last_changed
            && new
                .get(line - 1)
                .is_some_and(|text| !replaced.contains(text))
    };
    faults(result).into_iter().find(|b| {
        if !changed(b.line.0) || held.contains(&b.line.1) {
            return false;
        }
        match &b.fault {
            TestFault::Joined {
                word, op, sides, ..
            } => word.contains(['$', '`']) || spaced_before(replaced, sides, op),
            _ => true,
        }
    })
}

/// Whether a line of `replaced` writes `left op right` with a blank on
/// either side of `op`.
fn spaced_before(replaced: &[&str], (left, right): &(String, String), op: &str) -> bool {
    replaced.iter().any(|line| {
        line.match_indices(left.as_str()).any(|(at, _)| {
            let rest = &line[at + left.len()..];
            let after_left = rest.trim_start_matches([' ', '\t']);
            let Some(after_op) = after_left.strip_prefix(op) else {
                return false;
            };
            let after_blanks = after_op.trim_start_matches([' ', '\t']);
            let blanks = rest.len() - after_left.len() + after_op.len() - after_blanks.len();
            blanks > 0 && after_blanks.starts_with(right.as_str())
        })
    })
}

/// Every broken test of the script `text`, in reading order, each at its
/// line (faults or not, as the module says; unjudged for evidence).
fn faults(text: &str) -> Vec<TestBreak> {
    let (found, read) = words(text);
    let s = text.as_bytes();
    let lines: Vec<&str> = text.lines().collect();
    let at_line = |fault: TestFault, line: usize| TestBreak {
        fault,
        line: (
            line,
            lines.get(line - 1).map_or("", |l| l.trim()).to_string(),
        ),
    };
    let raw = |w: &ShellWord| {
        String::from_utf8_lossy(s.get(w.start..w.end).unwrap_or_default()).into_owned()
    };
    match read {
        Ok(()) => {}
        // The reader stopped in a `[[` whose `]]` is glued on.
        Err(Stop::Unsure) => {
            return double_unclosed(&found)
                .map(|(open, glued)| {
                    let last = raw(glued);
                    at_line(TestFault::DoubleUnclosed { last }, open.line)
                })
                .into_iter()
                .collect();
        }
        Err(Stop::Fault(_)) => return Vec::new(),
    }
    let mut out = Vec::new();
    for (at, name) in found.iter().enumerate() {
        let command = match name.bare.as_slice() {
            b"[" => "[",
            b"test" => "test",
            b"[[" => "[[",
            _ => continue,
        };
        if !(name.first && name.plain) {
            continue;
        }
        if command == "[[" {
            let rest = arguments(&found, at, s);
            if let Some(glued) = glued_before_next(s, &rest) {
                out.push(at_line(
                    TestFault::DoubleUnclosed { last: raw(glued) },
                    name.line,
                ));
                continue;
            }
            if let [word, close, ..] = rest[..] {
                let between = |a: usize, b: usize| {
                    s.get(a..b)
                        .is_some_and(|gap| gap.iter().all(|c| matches!(c, b' ' | b'\t')))
                };
                if close.plain
                    && close.bare == b"]]"
                    && between(name.end, word.start)
                    && between(word.end, close.start)
                    && let Some(fault) = joined(command, &raw(word), true)
                {
                    out.push(at_line(fault, name.line));
                }
            }
            continue;
        }
        let args = arguments(&found, at, s);
        let operands = match (command, args.split_last()) {
            ("test", _) => args.as_slice(),
            (_, Some((last, before))) if closes(&raw(last)) => before,
            (_, last) => {
                let last = last.map_or(String::new(), |(w, _)| raw(w));
                let glued = last.len() > 1 && last.ends_with(']');
                let before = if glued { &last[..last.len() - 1] } else { "" };
                let quotes_only =
                    !before.is_empty() && before.chars().all(|c| c == '"' || c == '\'');
                let operator =
                    args.len() >= 2 && BINARY.contains(&raw(args[args.len() - 2]).as_str());
                if quotes_only && !operator {
                    // `[ -n ""]` is `[ -n ]`: a test, if not the one meant.
                    continue;
                }
                let fault = TestFault::Unclosed {
                    may_vanish: glued && may_vanish(before),
                    empty_right: quotes_only,
                    last,
                    glued,
                };
                out.push(at_line(fault, name.line));
                continue;
            }
        };
        if let [word] = operands
            && let Some(fault) = joined(command, &raw(word), false)
        {
            out.push(at_line(fault, name.line));
        }
    }
    out
}

/// The binary operators of `[`.
const BINARY: [&str; 11] = [
    "=", "!=", "==", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot",
];

/// Whether `word` (as written) holds no text but expansions (`$x`,
/// `${..}`, `$(..)`, backquotes) and quotes, so may expand to nothing.
fn may_vanish(word: &str) -> bool {
    let bytes = word.as_bytes();
    let mut at = 0;
    while let Some(&c) = bytes.get(at) {
        match c {
            b'"' | b'\'' => at += 1,
            b'$' => {
                let rest = &bytes[at + 1..];
                let close = match rest.first() {
                    Some(b'{') => rest.iter().position(|&c| c == b'}'),
                    Some(b'(') => rest.iter().rposition(|&c| c == b')'),
                    Some(c) if c.is_ascii_digit() || b"#@*?!$-".contains(c) => Some(0),
                    _ => rest
                        .iter()
                        .position(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                        .map(|n| n.saturating_sub(1))
                        .or(Some(rest.len().saturating_sub(1))),
                };
                match close {
                    Some(n) if !rest.is_empty() => at += n + 2,
                    _ => return false,
                }
            }
            b'`' => match bytes[at + 1..].iter().position(|&c| c == b'`') {
                Some(n) => at += n + 2,
                None => return false,
            },
            _ => return false,
        }
    }
    true
}

/// Whether `word` (as written) is `]` once its quotes are taken off.
fn closes(word: &str) -> bool {
    matches!(word, "]" | "\"]\"" | "']'" | "\\]")
}

/// The words after the command's name `found[at]`: those of its `$(`
/// depth up to the next command's name or the end of its substitution,
/// not a redirection's (its target, a `2` or `{fd}` before `<` or `>`).
fn arguments<'w>(found: &'w [ShellWord], at: usize, s: &[u8]) -> Vec<&'w ShellWord> {
    let depth = found[at].depth;
    let mut args = Vec::new();
    for word in &found[at + 1..] {
        if word.depth < depth || (word.depth == depth && word.first) {
            break;
        }
        let fd = matches!(s.get(word.end), Some(b'<' | b'>'))
            && (word.bare.iter().all(u8::is_ascii_digit)
                || (word.bare.starts_with(b"{") && word.bare.ends_with(b"}")));
        if word.depth > depth || word.target || fd {
            continue;
        }
        args.push(word);
    }
    args
}

/// Where the reading stopped inside a `[[` (the last one read, with no
/// `]]` word after it): that `[[` and a word on its line ending in a
/// glued `]]`.
fn double_unclosed(found: &[ShellWord]) -> Option<(&ShellWord, &ShellWord)> {
    let open = found
        .iter()
        .rposition(|w| w.first && w.plain && w.bare == b"[[")?;
    let depth = found[open].depth;
    let rest: Vec<&ShellWord> = found[open + 1..]
        .iter()
        .filter(|w| w.depth == depth)
        .collect();
    if rest.iter().any(|w| w.plain && w.bare == b"]]") {
        return None;
    }
    let glued = rest
        .iter()
        .take_while(|w| w.line == found[open].line)
        .find(|w| w.bare.ends_with(b"]]") && w.end - w.start > 2)?;
    Some((&found[open], glued))
}

/// In the words after a `[[` that read clean (`rest`), one ending in a
/// glued `]]` followed by only `&&` or `||` and a next `[[`: bash took
/// the next test's `]]` for this one's, reading the `[[` as a word where
/// an operator belongs (`[[ -x "$a"]] || [[ -n $b ]]`: a syntax error).
/// A pattern ending in `]]` before the closing `]]` (`[[ $x == *]] ]]`)
/// is not one.
fn glued_before_next<'w>(s: &[u8], rest: &[&'w ShellWord]) -> Option<&'w ShellWord> {
    let close = rest.iter().position(|w| w.plain && w.bare == b"]]")?;
    rest[..close].windows(2).find_map(|pair| {
        let (glued, next) = (pair[0], pair[1]);
        let between = String::from_utf8_lossy(s.get(glued.end..next.start)?);
        let joins = matches!(
            between.split_whitespace().collect::<Vec<_>>()[..],
            ["&&" | "||"]
        );
        let ends = glued.bare.ends_with(b"]]") && glued.end - glued.start > 2;
        (ends && joins && next.plain && next.bare == b"[[").then_some(glued)
    })
}

/// The operator `word` (one test operand, as written) joins to text on
/// both its sides, outside quotes and expansions: `=`, `==`, `!=`
/// (`double`: in `[[`, also `=~`).
fn joined(command: &'static str, word: &str, double: bool) -> Option<TestFault> {
    let at = bare_equals(word.as_bytes())?;
    let bytes = word.as_bytes();
    let (start, op) = match (at.checked_sub(1).map(|p| bytes[p]), bytes.get(at + 1)) {
        (Some(b'!'), _) => (at - 1, "!="),
        (_, Some(b'=')) => (at, "=="),
        (_, Some(b'~')) if double => (at, "=~"),
        _ => (at, "="),
    };
    let (left, right) = (&word[..start], &word[start + op.len()..]);
    if left.is_empty() || right.is_empty() {
        return None;
    }
    Some(TestFault::Joined {
        command,
        word: word.to_string(),
        op,
        sides: (left.to_string(), right.to_string()),
    })
}

/// The first `=` of `word` outside quotes, escapes, `$(..)`, `${..}` and
/// backquotes.
fn bare_equals(word: &[u8]) -> Option<usize> {
    let mut quote: Option<u8> = None;
    let mut depth = 0usize;
    let mut at = 0;
    while let Some(&c) = word.get(at) {
        match (quote, c) {
            (Some(b'\''), b'\'') | (Some(b'"'), b'"') | (Some(b'`'), b'`') => quote = None,
            (Some(b'\''), _) => {}
            (_, b'\\') => at += 1,
            (None, b'\'' | b'"' | b'`') => quote = Some(c),
            (_, b'$') if matches!(word.get(at + 1), Some(b'(' | b'{')) => {
                depth += 1;
                at += 1;
            }
            (_, b')' | b'}') if depth > 0 => depth -= 1,
            (None, b'=') if depth == 0 => return Some(at),
            _ => {}
        }
        at += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{TestFault, test_broken};

    const BUILD: &str = "#!/bin/bash\nset -e\nmode=\"$1\"\nif [ \"$mode\" = \"dev\" ]; then\n  \
                         echo dev\nelse\n  echo prod\nfi\n";

    /// The fault (its description) of `BUILD` with `old` made `new`.
    fn said(old: &str, new: &str) -> Option<String> {
        let result = BUILD.replacen(old, new, 1);
        assert_ne!(result, BUILD, "{old:?} not in the script");
        test_broken("build.sh", BUILD, &result).map(|b| b.describe())
    }

    /// The tester's two cases (round 50 T-09), as bash and dash run them.
    #[test]
    fn a_glued_bracket_and_a_joined_equals_are_said() {
        assert_eq!(
            said("\"dev\" ]", "\"dev\"]").as_deref(),
            Some(
                "line 4 (`if [ \"$mode\" = \"dev\"]; then`) runs `[` with `\"dev\"]` as its last \
                 word, not `]` (its `]` is glued to the word: `[` counts a `]` only as a word \
                 of its own): each time the line runs, `[` prints `[: missing `]'` (dash: `[: \
                 missing ]`) and fails with status 2, which an `if`, `while`, `&&` or `||` \
                 reads as false (an `if` takes its `else`; `set -e` stops the script where \
                 none of them holds it); `bash -n` and `dash -n` accept the script: put a \
                 space before the `]`, so `]` is a word of its own"
            )
        );
        assert_eq!(
            said("\"$mode\" = \"dev\"", "\"$mode\"=\"dev\"").as_deref(),
            Some(
                "line 4 (`if [ \"$mode\"=\"dev\" ]; then`) gives `[` the one word \
                 `\"$mode\"=\"dev\"`, its `=` joined to both sides, where a comparison is \
                 three words: always true: `[` tests one non-empty string (bash and dash \
                 alike), whatever the values: write `\"$mode\" = \"dev\"`, with spaces around \
                 the `=`"
            )
        );
    }

    #[test]
    fn each_form_is_said() {
        let cases: [(&str, &str, &str); 12] = [
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ $mode = dev",
                "end the test with ` ]`",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ $mode != dev]",
                "`dev]` as its last word",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ $mode!=dev ]",
                "write `$mode != dev`",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "test $mode==dev",
                "gives `test` the one word",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[[ $mode==dev ]]",
                "`[[` tests one non-empty string (bash)",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[[ $mode == dev]]",
                "opens `[[` and no `]]` word closes it: `dev]]` holds",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ \"$(uname)\" = Linux] 2>/dev/null",
                "`Linux]` as its last word",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ -n \"$mode\"]",
                "each time the line runs with `\"$mode\"` not empty (empty, the `]` stands alone",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[[ -n \"${mode}\"]]",
                "`\"${mode}\"]]` holds the `]]` glued",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[ \"$mode\" = \"\"]",
                "ends its test with `\"\"]`, which `[` reads as its closing `]`",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[[ $(python -V) != \"Python 3\"]] ; then :; fi\nif true",
                "`\"Python 3\"]]` holds the `]]` glued",
            ),
            (
                "[ \"$mode\" = \"dev\" ]",
                "[[ -n $mode]] || [[ -z $1 ]]",
                "`$mode]]` holds the `]]` glued",
            ),
        ];
        for (old, new, want) in cases {
            let got = said(old, new);
            assert!(
                got.as_deref().is_some_and(|g| g.contains(want)),
                "{new}: {got:?}"
            );
        }
    }

    #[test]
    fn a_word_of_expansions_only_may_vanish() {
        for word in [
            "\"$mode\"",
            "$1",
            "\"${a:-b}\"",
            "$(pwd)",
            "`pwd`",
            "\"$a$b\"",
            "$#",
        ] {
            assert!(super::may_vanish(word), "{word}");
        }
        for word in ["\"dev\"", "x$a", "\"$a\"x", "$", "\"${a\""] {
            assert!(!super::may_vanish(word), "{word}");
        }
    }

    #[test]
    fn sound_tests_and_untouched_lines_are_not_said() {
        let fine = [
            "[ \"$mode\" = dev ] 2>/dev/null",
            "[ -n \"$mode\" ] && [ \"$mode\" != \"x=y\" ]",
            "test \"$mode\" = dev",
            "[ \"$mode\" ]",
            "[ \"$mode=dev\" ]",
            "[ \"${mode:=dev}\" ]",
            "[ \"$mode\" = \"]\" ]",
            "[ \"$(echo \"$mode\" | tr a b)\" = dev ]",
            "[[ $mode == dev ]]",
            "[[ $mode == *] ]]",
            "[[ $mode == *]] ]] || [[ -z $1 ]]",
            "[[ $(uname -s) != \"Linux\" ]] || [[ -n \"$(id -u)\" ]]",
            "[ a=b ]",
            "[ -n \"\"]",
        ];
        for new in fine {
            assert_eq!(said("[ \"$mode\" = \"dev\" ]", new), None, "{new}");
        }
        // Words in quotes, comments and heredocs.
        for new in [
            "echo '[ a = b'\nif [ \"$mode\" = \"dev\" ]",
            "# [ a = b\nif [ \"$mode\" = \"dev\" ]",
            "cat <<EOF\n[ $a=b ]\nEOF\nif [ \"$mode\" = \"dev\" ]",
        ] {
            assert_eq!(said("if [ \"$mode\" = \"dev\" ]", new), None, "{new}");
        }
        // The broken line was there before the edit.
        let broken = BUILD.replace("\"dev\" ]", "\"dev\"]");
        let result = broken.replace("echo prod", "echo production");
        assert_eq!(test_broken("build.sh", &broken, &result), None);
        // No shell script.
        let result = BUILD.replace("\"dev\" ]", "\"dev\"]");
        assert_eq!(test_broken("build.txt", "mode\n", "mode\nx\n"), None);
        assert_eq!(test_broken("build.zsh", BUILD, &result), None);
    }

    /// A literal joined word is said only where the edit took the spaces
    /// out of the same comparison.
    #[test]
    fn a_literal_joined_word_is_said_where_the_spaces_were() {
        let original = "#!/bin/sh\nif [ a = b ]; then echo same; fi\n";
        let result = original.replace("a = b", "a=b");
        let got = test_broken("t.sh", original, &result).map(|b| b.fault);
        assert!(
            matches!(got, Some(TestFault::Joined { op: "=", .. })),
            "{got:?}"
        );
        let other = original.replace("a = b", "c=d");
        assert_eq!(test_broken("t.sh", original, &other), None);
    }
}
