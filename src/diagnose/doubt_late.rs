//! *Pure.* An edit that leaves a Python file defining a name after the
//! code that runs it: a `def helper()` appended at the end of the file,
//! below `if __name__ == "__main__": main()`, while `main` calls
//! `helper()` (a tester's find, T-06: a Codex hunk under a bare `@@`
//! lands there, and the script dies with `NameError` at its first run).
//!
//! The rule, where it is certain, for a Python file
//! ([`super::file_kind`]):
//! - a line that runs: a statement at the module's top level (it runs on
//!   import), or one directly in the body of a top-level
//!   `if __name__ == "__main__":` (it runs when the file runs as a
//!   script); the header of a top-level `if`, `while`, `for` or `with`
//!   too, not its body (it may not run);
//! - the names it uses: the bare names it loads from the module (as
//!   [`super::doubt_names`] reads them: not an attribute, a keyword
//!   argument, a string, an annotation, a local); and, through each
//!   top-level function it calls (`main()`, defined once, undecorated,
//!   above that line), the names the statements directly in that
//!   function's body load, up to a `return` or `raise` there, and through
//!   the functions those call in turn. A line holding a `lambda` is not
//!   read (its body runs later, or never);
//! - doubted: a name so used whose first binding at the module's level
//!   (a `def`, a `class`, an assignment, an import) comes after that
//!   line, where the file before had no such late name; not a builtin.
//!
//! Nothing is said when the file imports `*` or binds names by hand
//! (`globals()`), or when either text is not read. The verdicts are
//! checked by running each result with python3 (tests/diagnose_trust.rs).
//!
//! The same judgment ([`late_in`]) reads a sh or bash script (round 45,
//! T-11: `greet()` appended below `main "$@"` while `main` calls it: bash
//! stops with `greet: command not found`): its top-level functions, the
//! lines that run at the top level and directly in those functions'
//! bodies, each calling its first word ([`shell_program`]); checked by
//! running each result with bash.

use std::collections::{HashMap, HashSet};

use super::doubt_names::{ModuleNames, compound, ignored, module_names, python_lines, top_colon};
use super::pytokens::{Tok, Token};

/// A name a Python file defines after a line that runs and uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DefinedLate {
    /// The name.
    pub name: String,
    /// The line (1-based) first binding it, and its text, trimmed.
    pub defined: (usize, String),
    /// The line that runs first and uses it, and its text, trimmed.
    pub runs: (usize, String),
    /// The function through which that line uses it, and the line of the
    /// function's body that loads it, with its text (`None`: the line
    /// itself loads it).
    pub through: Option<(String, usize, String)>,
    /// That line runs when the file runs as a script (in its
    /// `if __name__ == "__main__":` block), not on import.
    pub script: bool,
    /// The line above which the definition would come first: the
    /// `if __name__` block's header, or the line that runs.
    pub above: (usize, String),
    /// The language: what running the file does then.
    pub language: LateLanguage,
}

/// The language of a [`DefinedLate`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LateLanguage {
    /// Python: a `NameError`.
    Python,
    /// A sh or bash script: `command not found` (round 45, T-11).
    Shell,
}

impl DefinedLate {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: define `{}` above line {} (`{}`), or run that code after the definition",
            self.fault(),
            self.name,
            self.above.0,
            self.above.1
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (def_line, def_text) = &self.defined;
        let (run_line, run_text) = &self.runs;
        let when = match (self.language, self.script) {
            (LateLanguage::Shell, _) => "when the script runs",
            (_, true) => "when the file runs as a script",
            (_, false) => "when the module is imported or run",
        };
        let fails = match (self.language, &self.through) {
            (LateLanguage::Python, _) => {
                format!("running the file raises NameError at line {run_line}")
            }
            (LateLanguage::Shell, Some((_, line, _))) => format!(
                "running the script fails at line {line} with `{}: command not found`",
                self.name
            ),
            (LateLanguage::Shell, None) => format!(
                "running the script fails at line {run_line} with `{}: command not found`",
                self.name
            ),
        };
        let through = match &self.through {
            Some((function, line, text)) => {
                format!(" through `{function}` (line {line}: `{text}`)")
            }
            None => String::new(),
        };
        format!(
            "line {def_line} defines `{name}` (`{def_text}`) after line {run_line} \
             (`{run_text}`), which runs first, {when}, and uses it{through}: {fails}",
            name = self.name
        )
    }
}

/// The name `result` (the Python file as an edit leaves it) defines after
/// a line that runs and uses it, where `original` had no such name (see
/// the module's rule). `None` when there is none, or either text is not
/// read.
pub(super) fn python_defined_late(original: &str, result: &str) -> Option<DefinedLate> {
    defined_late(original, result, late_names)
}

/// The function `result` (the sh or bash script `path` as an edit leaves
/// it) defines after a top-level line that runs and calls it, directly or
/// through the functions that line calls (`main "$@"` above a `greet()`
/// that `main` calls: round 45, T-11), where `original` had no such
/// function; read as [`shell_program`] reads a script. `None` when there is
/// none, or either text is not read.
pub(super) fn shell_defined_late(path: &str, original: &str, result: &str) -> Option<DefinedLate> {
    let base = if original.is_empty() {
        result
    } else {
        original
    };
    if !super::doubt_shell::shell_script(path, base) {
        return None;
    }
    defined_late(original, result, |text| {
        let (names, reading) = shell_program(text)?;
        Some(late_in(
            text,
            &names,
            &reading,
            |_| false,
            LateLanguage::Shell,
        ))
    })
}

/// The name `result` defines late where `original` did not, each text's
/// late names read by `late`.
fn defined_late(
    original: &str,
    result: &str,
    late: impl Fn(&str) -> Option<Vec<DefinedLate>>,
) -> Option<DefinedLate> {
    let after = late(result)?;
    if after.is_empty() {
        return None;
    }
    let before = late(original)?;
    let known: HashSet<&str> = before.iter().map(|l| l.name.as_str()).collect();
    after.into_iter().find(|l| !known.contains(l.name.as_str()))
}

/// Where a line stands, for what runs when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Place<'a> {
    /// It runs, at its own line; `script`: in the `__main__` block whose
    /// header is at `block` (else `block` is the line itself).
    Runs { script: bool, block: usize },
    /// Directly in the body of the top-level function of that name.
    Body(&'a str),
}

/// An open block of [`Reading::of`]'s pass.
#[derive(Debug, Clone, Copy)]
enum Block<'a> {
    Main(usize),
    Def(&'a str),
    Other,
}

/// A top-level function: its `def` line, how many times the module's top
/// level defines it, and whether a decorator wraps it.
struct Function {
    line: usize,
    count: usize,
    decorated: bool,
}

/// A Python text's lines that run or stand in a function's body, the
/// names called on them, and its top-level functions.
struct Reading<'a> {
    places: HashMap<usize, Place<'a>>,
    calls: HashSet<(usize, &'a str)>,
    functions: HashMap<&'a str, Function>,
}

/// Whether a logical line may leave the function or the script it runs
/// in: a `return` or a `raise`, a call of `sys.exit`, `exit`, `quit` or
/// `os._exit` (a header's one-line body included).
fn stops(tokens: &[Token]) -> bool {
    let start = top_colon(tokens)
        .filter(|_| compound(tokens))
        .map_or(0, |c| c + 1);
    let words: Vec<&str> = tokens[start.min(tokens.len())..]
        .iter()
        .take(3)
        .map(|t| t.text)
        .collect();
    matches!(
        words.as_slice(),
        ["return" | "raise", ..]
            | ["sys" | "os", ".", "exit" | "_exit"]
            | ["exit" | "quit", "(", ..]
    )
}

/// Whether a logical line may leave some of its names unread when it
/// runs: a `lambda` (its body runs later, or never), `and`, `or`, a
/// conditional expression's or a comprehension's `if`, a comprehension's
/// `for` (its body runs once per item, maybe never).
fn uncertain(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        t.kind == Tok::Name
            && match t.text {
                "lambda" | "and" | "or" => true,
                "if" | "for" => i > 0 && !tokens[i - 1].name("async"),
                _ => false,
            }
    })
}

/// Whether a header is `if __name__ == "__main__"` (either side).
fn main_guard(tokens: &[Token]) -> bool {
    let main = |t: &Token| t.kind == Tok::Str && matches!(t.text, "\"__main__\"" | "'__main__'");
    match tokens {
        [i, a, eq, b] => {
            i.name("if")
                && eq.is("==")
                && ((a.name("__name__") && main(b)) || (main(a) && b.name("__name__")))
        }
        _ => false,
    }
}

impl<'a> Reading<'a> {
    /// A shell line `line` standing at `place` that calls `called`.
    fn record(
        &mut self,
        names: &mut ModuleNames<'a>,
        line: usize,
        place: Place<'a>,
        called: &'a str,
    ) {
        self.places.insert(line, place);
        self.calls.insert((line, called));
        names.global_loads.push((line, called));
    }

    fn of(text: &'a str) -> Option<Reading<'a>> {
        let mut r = Reading {
            places: HashMap::new(),
            calls: HashSet::new(),
            functions: HashMap::new(),
        };
        // Open blocks: the header's indentation, the block, and whether a
        // statement in it that may leave it ([`stops`]) ended what surely
        // runs there.
        let mut open: Vec<(usize, Block<'a>, bool)> = Vec::new();
        let mut decorated = false;
        // A statement that may leave the module's code before its end.
        let mut top_stopped = false;
        for (indent, tokens) in python_lines(text)? {
            while open.last().is_some_and(|&(at, _, _)| at >= indent) {
                open.pop();
            }
            let (Some(first), Some(last)) = (tokens.first(), tokens.last()) else {
                continue;
            };
            let place = match open.as_slice() {
                [] if top_stopped => None,
                [] => Some(Place::Runs {
                    script: false,
                    block: first.line,
                }),
                [(_, Block::Main(header), false)] => Some(Place::Runs {
                    script: true,
                    block: *header,
                }),
                [(_, Block::Def(name), false)] => Some(Place::Body(name)),
                _ => None,
            };
            let header = compound(&tokens).then(|| top_colon(&tokens)).flatten();
            let (place, block) = match header {
                Some(colon) => r.header(&tokens, colon, open.is_empty(), place, &mut decorated),
                None => {
                    decorated = open.is_empty() && first.is("@");
                    (place, None)
                }
            };
            // What follows a statement that may leave the function or the
            // script (directly, or under an `if`) may not run; a one-line
            // function's `return` is its own.
            let defines = tokens
                .first()
                .is_some_and(|t| t.name("def") || t.name("async"));
            if stops(&tokens) && !defines {
                match open.first_mut() {
                    Some(top) => top.2 = true,
                    None => top_stopped = true,
                }
            }
            if let Some(block) = block {
                open.push((indent, block, false));
            }
            let Some(place) = place.filter(|_| !uncertain(&tokens)) else {
                continue;
            };
            for line in first.line..=last.line {
                r.places.insert(line, place);
            }
            for (i, t) in tokens.iter().enumerate() {
                let called = tokens.get(i + 1).is_some_and(|n| n.is("("));
                let attribute = i > 0 && tokens[i - 1].is(".");
                if t.kind == Tok::Name && called && !attribute {
                    r.calls.insert((t.line, t.text));
                }
            }
        }
        Some(r)
    }

    /// A compound statement's header line (its `:` at `colon`), at the
    /// top level or not, where a line there stands at `place`: where the
    /// line itself stands, and the block it opens.
    fn header(
        &mut self,
        tokens: &[Token<'a>],
        colon: usize,
        top: bool,
        place: Option<Place<'a>>,
        decorated: &mut bool,
    ) -> (Option<Place<'a>>, Option<Block<'a>>) {
        let one_line = colon + 1 < tokens.len();
        let was_decorated = std::mem::take(decorated);
        let words: Vec<&str> = tokens.iter().take(2).map(|t| t.text).collect();
        let def = match words.as_slice() {
            ["def", ..] => tokens.get(1),
            ["async", "def"] => tokens.get(2),
            _ => None,
        };
        if let (true, Some(name)) = (top, def.filter(|t| t.kind == Tok::Name)) {
            let entry = self.functions.entry(name.text).or_insert(Function {
                line: name.line,
                count: 0,
                decorated: false,
            });
            entry.count += 1;
            entry.decorated |= was_decorated;
            // A one-line function's body is on its header's line.
            let place = one_line.then_some(Place::Body(name.text));
            return (place, Some(Block::Def(name.text)));
        }
        if top && main_guard(&tokens[..colon]) {
            let header = tokens[0].line;
            let place = one_line.then_some(Place::Runs {
                script: true,
                block: header,
            });
            return (place, Some(Block::Main(header)));
        }
        // The header's own expression runs where the line stands; a body
        // on the same line may not.
        let runs = matches!(words.first(), Some(&("if" | "while" | "for" | "with")));
        (place.filter(|_| runs && !one_line), Some(Block::Other))
    }
}

/// Every name the Python `text` defines after a line that runs and uses
/// it, in the order of those lines; `None` when it is not read.
fn late_names(text: &str) -> Option<Vec<DefinedLate>> {
    let names = module_names(text)?;
    let reading = Reading::of(text)?;
    Some(late_in(
        text,
        &names,
        &reading,
        ignored,
        LateLanguage::Python,
    ))
}

/// Every name `text` (its names and its reading given; `builtin`: a name
/// never bound late, whatever binds it) defines after a line that runs and
/// uses it, in the order of those lines: the one judgment of every
/// language.
fn late_in<'a>(
    text: &'a str,
    names: &ModuleNames<'a>,
    reading: &Reading<'a>,
    builtin: fn(&str) -> bool,
    language: LateLanguage,
) -> Vec<DefinedLate> {
    let lines: Vec<&str> = text.lines().collect();
    let line_text = |line: usize| {
        lines
            .get(line.wrapping_sub(1))
            .map_or(String::new(), |l| l.trim().to_string())
    };
    let late = Late {
        names,
        reading,
        builtin,
    };
    let mut found: Vec<DefinedLate> = Vec::new();
    for &(line, name) in &names.global_loads {
        let Some(&Place::Runs { script, block }) = reading.places.get(&line) else {
            continue;
        };
        let mut seen = HashSet::new();
        for (late_name, through) in late.uses(line, line, name, &mut seen) {
            if found.iter().any(|f| f.name == late_name) {
                continue;
            }
            let defined = names.first_bound[late_name];
            found.push(DefinedLate {
                name: late_name.to_string(),
                defined: (defined, line_text(defined)),
                runs: (line, line_text(line)),
                through: through.map(|(f, at)| (f.to_string(), at, line_text(at))),
                script,
                above: (block, line_text(block)),
                language,
            });
        }
    }
    found
}

/// What [`late_names`] reads a text by.
struct Late<'r, 'a> {
    names: &'r ModuleNames<'a>,
    reading: &'r Reading<'a>,
    builtin: fn(&str) -> bool,
}

/// A name used late, and the function and line through which (`None`:
/// loaded by the running line itself).
type LateUse<'a> = (&'a str, Option<(&'a str, usize)>);

impl<'a> Late<'_, 'a> {
    /// The names bound only after `runs` that `name`, loaded at `at`
    /// while the line `runs` runs, stands for or uses through the
    /// function it calls. `seen`: the functions already followed.
    fn uses(
        &self,
        runs: usize,
        at: usize,
        name: &'a str,
        seen: &mut HashSet<&'a str>,
    ) -> Vec<LateUse<'a>> {
        let late = |name: &str| {
            !(self.builtin)(name) && self.names.first_bound.get(name).is_some_and(|&l| l > runs)
        };
        if late(name) {
            return vec![(name, None)];
        }
        let followed = self
            .reading
            .functions
            .get(name)
            .is_some_and(|f| f.count == 1 && !f.decorated && f.line < runs);
        if !followed || !self.reading.calls.contains(&(at, name)) || !seen.insert(name) {
            return Vec::new();
        }
        let mut out = Vec::new();
        for &(line, used) in &self.names.global_loads {
            if self.reading.places.get(&line) != Some(&Place::Body(name)) {
                continue;
            }
            for (found, through) in self.uses(runs, line, used, seen) {
                out.push((found, Some(through.unwrap_or((name, line)))));
            }
        }
        out
    }
}

/// A sh or bash script read as [`late_in`] reads a program, where it is
/// certain: the script reads clean ([`super::doubt_shell::scan`]), holds
/// no heredoc, no line continued by `\\`, and no `source`, `.` or `eval`
/// (names bound elsewhere); a top-level function is a line at column 0
/// `NAME() {`, `NAME()` or `function NAME {` and its body runs to the `}`
/// closing it; a line runs at the top level outside any block (not under
/// an `if`, a loop, a `case`, a group), or stands directly in a function's
/// body, up to a `return` or `exit` there; the name it calls is its first
/// word (no assignment before it). After a top-level `exit`, nothing runs.
fn shell_program(text: &str) -> Option<(ModuleNames<'_>, Reading<'_>)> {
    if super::doubt_shell::scan(text).is_err() || text.contains("<<") {
        return None;
    }
    let mut names = ModuleNames {
        first_bound: HashMap::new(),
        global_loads: Vec::new(),
    };
    let mut r = Reading {
        places: HashMap::new(),
        calls: HashSet::new(),
        functions: HashMap::new(),
    };
    // The function whose body is read, its blocks open (its own `{` one),
    // and whether a `return` or `exit` ended what surely runs there.
    let mut function: Option<(&str, usize, bool)> = None;
    // Blocks open at the top level; a top-level `exit` read.
    let mut depth = 0usize;
    let mut exited = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let code = line.trim();
        if code.is_empty() || code.starts_with('#') {
            continue;
        }
        if code.ends_with('\\') {
            return None;
        }
        let words: Vec<&str> = code
            .split(|c: char| c.is_whitespace() || c == ';')
            .filter(|w| !w.is_empty())
            .collect();
        let first = words.first().copied().unwrap_or("");
        if matches!(first, "source" | "." | "eval") {
            return None;
        }
        let net = words.iter().map(|w| block_step(w)).sum::<isize>();
        if let Some((name, open, stopped)) = function.as_mut() {
            let place = (*open == 1 && !*stopped).then_some(Place::Body(name));
            *stopped |= *open == 1 && matches!(first, "return" | "exit");
            *open = open.checked_add_signed(net)?;
            if let (Some(place), Some(called)) = (place, called_name(first)) {
                r.record(&mut names, number, place, called);
            }
            if *open == 0 {
                function = None;
            }
            continue;
        }
        if depth == 0 {
            if let Some((name, braced)) = function_header(line) {
                let entry = r.functions.entry(name).or_insert(Function {
                    line: number,
                    count: 0,
                    decorated: false,
                });
                entry.count += 1;
                names.first_bound.entry(name).or_insert(number);
                function = Some((name, usize::from(braced), false));
                continue;
            }
            if let Some(called) = called_name(first).filter(|_| !exited) {
                let runs = Place::Runs {
                    script: true,
                    block: number,
                };
                r.record(&mut names, number, runs, called);
            }
            exited |= first == "exit";
        }
        depth = depth.checked_add_signed(net)?;
    }
    Some((names, r))
}

/// How a word changes the count of blocks open: `if`, `case`, a loop's
/// word, `{` or `(` opens one; `fi`, `esac`, `done`, `}` or `)` closes one.
fn block_step(word: &str) -> isize {
    match word {
        "if" | "case" | "for" | "while" | "until" | "select" | "{" | "(" => 1,
        "fi" | "esac" | "done" | "}" | ")" => -1,
        _ => 0,
    }
}

/// The function a top-level line at column 0 defines (`NAME() {`,
/// `NAME ()`, `function NAME {`, `function NAME() {`), and whether its `{`
/// is on that line.
fn function_header(line: &str) -> Option<(&str, bool)> {
    let rest = line.strip_prefix("function ").map_or(line, str::trim_start);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':')))
        .unwrap_or(rest.len());
    let (name, tail) = rest.split_at(end);
    let keyword = rest.len() != line.len();
    let tail = tail.trim_start();
    let tail = match tail.strip_prefix("()") {
        Some(t) => t.trim_start(),
        None if keyword => tail,
        None => return None,
    };
    let braced = match tail {
        "{" => true,
        "" => false,
        _ => return None,
    };
    called_name(name).map(|name| (name, braced))
}

/// The command a line's first word names, when it is a name a function
/// may have ([`super::doubt_twins::shell::function_name`]: not a reserved
/// word, an assignment, a quote or an expansion).
fn called_name(first: &str) -> Option<&str> {
    super::doubt_twins::shell::function_name(first).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::python_defined_late;

    const APP: &str =
        "def main():\n    print(\"start\")\n\n\nif __name__ == \"__main__\":\n    main()\n";

    /// The tester's find (T-06): a helper appended after the entry point
    /// while `main` calls it.
    #[test]
    fn a_helper_appended_after_the_entry_point_is_said() {
        let result = "def main():\n    print(\"start\", helper())\n\n\nif __name__ == \"__main__\":\n    main()\n\n\ndef helper():\n    return 42\n";
        let late = python_defined_late(APP, result).expect("said");
        assert_eq!(
            late.describe(),
            "line 9 defines `helper` (`def helper():`) after line 6 (`main()`), which runs \
             first, when the file runs as a script, and uses it through `main` (line 2: \
             `print(\"start\", helper())`): running the file raises NameError at line 6: define \
             `helper` above line 5 (`if __name__ == \"__main__\":`), or run that code after \
             the definition"
        );
        // Above the entry point: fine.
        let above = "def main():\n    print(\"start\", helper())\n\n\ndef helper():\n    return 42\n\n\nif __name__ == \"__main__\":\n    main()\n";
        assert_eq!(python_defined_late(APP, above), None);
    }
}
