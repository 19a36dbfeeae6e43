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
    let base = super::file_kind::told_by(original, result);
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
    // The header line of a top-level `if` whose `then` branch runs when
    // the script runs ([`entry_guard`]), while that branch is read.
    let mut guard: Option<usize> = None;
    // The header line of such an `if` whose `then` is on a line of its
    // own, up to that line.
    let mut awaits_then: Option<usize> = None;
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
        // `then` on a line of its own below a guard's test: the branch
        // opens there, and what follows it on that line runs.
        let mut code = code;
        if let (1, Some(header)) = (depth, awaits_then.take())
            && first == "then"
        {
            guard = Some(header);
            code = code["then".len()..].trim_start();
        }
        if let (1, Some(header)) = (depth, guard) {
            if matches!(first, "else" | "elif") {
                guard = None;
            } else if !exited {
                let runs = Place::Runs {
                    script: true,
                    block: header,
                };
                let surely = surely_run(code);
                for called in surely.calls {
                    r.record(&mut names, number, runs, called);
                }
                exited |= surely.exits;
            }
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
            let surely = surely_run(code);
            if !exited {
                let runs = Place::Runs {
                    script: true,
                    block: number,
                };
                for called in surely.calls {
                    r.record(&mut names, number, runs, called);
                }
            }
            exited |= first == "exit" || surely.exits;
            guard = (surely.opens_guard && net == 1).then_some(number);
            awaits_then = (surely.awaits_then && net == 1).then_some(number);
        }
        depth = depth.checked_add_signed(net)?;
        if depth == 0 {
            guard = None;
        }
    }
    Some((names, r))
}

/// What a line standing where it surely runs runs in turn, when the
/// script runs ([`surely_run`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Surely<'a> {
    /// The first word of each command that runs.
    calls: Vec<&'a str>,
    /// One of them is `exit`.
    exits: bool,
    /// The line ends in the `then` of an `if` whose test holds when the
    /// script runs: the lines of that branch run too.
    opens_guard: bool,
    /// The line ends in such an `if`'s test, its `then` on a line of its
    /// own below (wt-sh47's leftover).
    awaits_then: bool,
}

/// What a line, where it runs, surely runs (tester 46, T-12: the entry
/// point behind bash's `if __name__ == "__main__":`): its commands split
/// where bash splits a list outside quotes ([`list_parts`]); the first
/// runs; one after `;` runs; one after `&&` (`||`) runs when the test
/// before it holds (fails) whenever the script runs ([`entry_guard`]);
/// an `if` whose test so holds runs its `then` branch. Reading stops at
/// anything else (a `|`, an `&&` after another command, an `else`).
fn surely_run(code: &str) -> Surely<'_> {
    let mut surely = Surely::default();
    // The test before, as [`entry_guard`] reads it; inside an `if` test.
    let mut test: Option<bool> = None;
    let mut in_guard_if = false;
    for (op, part) in list_parts(code) {
        let runs = match op {
            ListOp::First | ListOp::Then => true,
            ListOp::And => test == Some(true),
            ListOp::Or => test == Some(false),
        };
        if !runs {
            break;
        }
        let mut command = part.trim();
        if let Some(condition) = command.strip_prefix("if ") {
            if entry_guard(condition) != Some(true) {
                break;
            }
            in_guard_if = true;
            test = None;
            continue;
        }
        if in_guard_if {
            match command.strip_prefix("then") {
                Some(rest) if rest.is_empty() || rest.starts_with(char::is_whitespace) => {
                    command = rest.trim_start();
                    in_guard_if = false;
                    surely.opens_guard = command.is_empty();
                }
                _ => break,
            }
        }
        if command == "fi" {
            surely.opens_guard = false;
            continue;
        }
        test = entry_guard(command);
        let first = command.split_whitespace().next().unwrap_or("");
        if test.is_some() || command.is_empty() || matches!(first, "else" | "elif") {
            if matches!(first, "else" | "elif") {
                break;
            }
            continue;
        }
        surely.exits |= first == "exit";
        surely.calls.extend(called_name(first));
    }
    surely.awaits_then = in_guard_if;
    surely
}

/// The operator before a command of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ListOp {
    /// The line's first command.
    First,
    /// `;`.
    Then,
    /// `&&`.
    And,
    /// `||`.
    Or,
}

/// A line's commands where bash splits a list: at `;`, `&&` and `||`
/// outside quotes and parentheses, up to a comment. A `|` or a lone `&`
/// ends the reading after the command before it (a pipeline's first
/// command runs); a `;;`, a `)` with none open or a quote left open ends
/// it before the part holding it.
fn list_parts(code: &str) -> Vec<(ListOp, &str)> {
    let bytes = code.as_bytes();
    let mut parts = Vec::new();
    let (mut start, mut op) = (0, ListOp::First);
    let mut quote: Option<u8> = None;
    let mut parens = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let next = bytes.get(i + 1).copied();
        if let Some(q) = quote {
            if c == b'\\' && q == b'"' {
                i += 1;
            } else if c == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        let word_start = i == 0 || bytes[i - 1].is_ascii_whitespace();
        let split = match (c, next) {
            (b'\'' | b'"' | b'`', _) => {
                quote = Some(c);
                None
            }
            (b'\\', _) => {
                i += 1;
                None
            }
            (b'#', _) if word_start => break,
            (b'(', _) => {
                parens += 1;
                None
            }
            (b')', _) => match parens.checked_sub(1) {
                Some(p) => {
                    parens = p;
                    None
                }
                None => return parts,
            },
            _ if parens > 0 => None,
            (b';', Some(b';')) => return parts,
            (b';', _) => Some((ListOp::Then, 1)),
            (b'&', Some(b'&')) => Some((ListOp::And, 2)),
            (b'|', Some(b'|')) => Some((ListOp::Or, 2)),
            (b'&', Some(b'>')) => None,
            (b'&', _) if i > 0 && matches!(bytes[i - 1], b'>' | b'<') => None,
            (b'|' | b'&', _) => {
                parts.push((op, &code[start..i]));
                return parts;
            }
            _ => None,
        };
        match split {
            Some((after, width)) => {
                parts.push((op, &code[start..i]));
                op = after;
                i += width;
                start = i;
            }
            None => i += 1,
        }
    }
    if quote.is_none() && parens == 0 {
        parts.push((op, &code[start..i]));
    }
    parts
}

/// Whether a test holds (`Some(true)`) or fails (`Some(false)`) whenever
/// the script runs (is not sourced): bash's entry-point guard, `[[
/// "${BASH_SOURCE[0]}" == "$0" ]]` (either side, `[`, `=`, `!=`), and
/// `(return 0 2>/dev/null)` (a `return` outside a function fails unless
/// the file is sourced). `None`: any other test or command.
fn entry_guard(test: &str) -> Option<bool> {
    let compact: String = test.split_whitespace().collect();
    if matches!(
        compact.as_str(),
        "(return02>/dev/null)" | "(return2>/dev/null)" | "(return0)"
    ) {
        return Some(false);
    }
    let words: Vec<&str> = test.split_whitespace().collect();
    let (left, op, right) = match words.as_slice() {
        ["[[", l, op, r, "]]"] | ["[", l, op, r, "]"] => (*l, *op, *r),
        _ => return None,
    };
    let unquoted = |w: &str| {
        w.strip_prefix('"')
            .and_then(|w| w.strip_suffix('"'))
            .map_or(w.to_string(), str::to_string)
    };
    let script = |w: &str| matches!(unquoted(w).as_str(), "$0" | "${0}");
    let source = |w: &str| {
        matches!(
            unquoted(w).as_str(),
            "$BASH_SOURCE" | "${BASH_SOURCE}" | "${BASH_SOURCE[0]}"
        )
    };
    if !((script(left) && source(right)) || (source(left) && script(right))) {
        return None;
    }
    match op {
        "==" | "=" => Some(true),
        "!=" => Some(false),
        _ => None,
    }
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
    use super::{Surely, python_defined_late, surely_run};

    /// What a top-level shell line surely runs (tester 46, T-12): the
    /// commands of its list bash runs whenever the script runs.
    #[test]
    fn a_shell_line_runs_its_list_and_its_entry_guard() {
        let run = |calls: Vec<&'static str>, exits, opens_guard| Surely {
            calls,
            exits,
            opens_guard,
            awaits_then: false,
        };
        let cases = [
            ("main \"$@\"", run(vec!["main"], false, false)),
            (
                "set -- \"$@\"; main \"$@\"; exit $?",
                run(vec!["set", "main", "exit"], true, false),
            ),
            (
                "main \"$@\" 2>&1 | tee log.txt",
                run(vec!["main"], false, false),
            ),
            ("main \"$@\" || exit 1", run(vec!["main"], false, false)),
            (
                "[[ \"${BASH_SOURCE[0]}\" == \"${0}\" ]] && main \"$@\"",
                run(vec!["main"], false, false),
            ),
            (
                "[ \"$0\" != \"$BASH_SOURCE\" ] || main",
                run(vec!["main"], false, false),
            ),
            (
                "(return 0 2>/dev/null) || main \"$@\"",
                run(vec!["main"], false, false),
            ),
            (
                "if [[ \"${BASH_SOURCE[0]}\" == \"$0\" ]]; then",
                run(vec![], false, true),
            ),
            (
                "if [[ \"${BASH_SOURCE[0]}\" == \"$0\" ]]",
                Surely {
                    awaits_then: true,
                    ..run(vec![], false, false)
                },
            ),
            (
                "if [ \"$0\" = \"${BASH_SOURCE}\" ]; then main; fi",
                run(vec!["main"], false, false),
            ),
            (
                "if [[ $# -gt 0 ]]; then main; fi",
                run(vec![], false, false),
            ),
            ("[[ $# -gt 0 ]] && main", run(vec![], false, false)),
            ("cd /tmp && main", run(vec!["cd"], false, false)),
            (
                "echo \"a; greet\" # ; greet",
                run(vec!["echo"], false, false),
            ),
            ("echo $(true; greet)", run(vec!["echo"], false, false)),
        ];
        for (line, expected) in cases {
            assert_eq!(surely_run(line), expected, "{line}");
        }
    }

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
