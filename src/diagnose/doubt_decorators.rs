//! *Pure.* A decorator or attribute an edit moves onto another definition
//! (a tester's find, round 44 T-13): a model adds a function "above
//! `def about():`" by taking that line as its old text, and the new
//! function lands between the line and its `@app.route("/about")`, which
//! now routes the new function; `#[derive(Debug, Clone)]` leaves `Item`
//! for the struct put above it; a TypeScript `@Component(..)` ends up on a
//! `const` (TS1206). Every agent's matcher applies it exactly.
//!
//! Read by the file's pairs of *decorators* and the *target* they stand
//! on: a run of decorator lines (Python's, JavaScript's and TypeScript's,
//! Java's and Kotlin's `@Name..`, Rust's `#[..]`; one spanning lines read
//! to its closing bracket), then the first line below that is neither
//! blank nor a comment (a blank line between binds in each of these
//! languages: checked with python3, tsc, javac and rustc). A decorator
//! line is in a run only when it holds nothing but decorators (and a
//! comment): a line with a definition after its decorators (TypeScript's
//! `@Input() label = "";`, Java's `@Autowired private Repo repo;`,
//! Kotlin's `@Inject lateinit var repo: Repo`, Rust's `#[test] fn t() {}`)
//! is decorated on that line and decorates nothing below (a tester's
//! find, round 45 T-02); it is the target of a run standing above it.
//! Python's grammar ends every decorator with its line.
//!
//! The result moves a decorator when a pair of the file before is gone
//! from it, while its target line still stands in it and its decorators
//! stand on a target line the file before did not hold (a new
//! definition). A target renamed or rewritten by the edit is no
//! move: the decorators stay on what it became. Decorators the edit writes
//! again above both definitions are left alone (the model wrote them).
//!
//! The reverse move (a tester's find, round 45 T-12): an edit removing a
//! decorated definition's own lines and keeping its decorators (a model
//! deleting "the function" by its `def` and body) leaves them on the
//! definition below, above a closing `}`, or at the file's end: read by
//! the lines a line diff says the edit kept (`left_behind`).

use std::collections::HashSet;
use std::time::{Duration, Instant};

use similar::DiffOp;

use super::doubt_braces::{Lang, brace_language};
use super::file_kind::FileKind;
use crate::textdiff;

/// A decorator run the result puts on another target than its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MovedDecorator {
    /// The decorator lines, trimmed.
    pub decorators: Vec<String>,
    /// The line (1-based) of the file before its target stood at, and its
    /// text, trimmed.
    pub was_on: (usize, String),
    /// The result's line (1-based) of the target it stands on now, and its
    /// text, trimmed.
    pub now_on: (usize, String),
    /// What became of its former target.
    pub former: Former,
    /// The line (1-based) of the file before its first decorator stood at.
    pub first_line: usize,
    /// Whether the file is Python's, where only a `def` or a `class` may
    /// stand under a decorator (python3 refuses any other line there).
    pub python: bool,
}

/// What became of the definition a moved decorator run stood on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Former {
    /// It stands in the result at this line (1-based), left without its
    /// decorators: a definition was put between them (round 44 T-13).
    Left(usize),
    /// The edit removed it and kept its decorators, which now stand on
    /// the definition that followed it (round 45 T-12), above a closing
    /// bracket, or at the file's end.
    Removed {
        /// The own decorators, trimmed, of the definition they now stand
        /// on that still stand above it.
        beside: Vec<String>,
    },
}

impl MovedDecorator {
    /// The fault and what to send instead.
    pub fn describe(&self) -> String {
        let first = self.decorators.first().map_or("", String::as_str);
        match self.former {
            Former::Left(_) => format!(
                "{}: start the old text at the line `{first}` and put the new lines above it, \
                 keeping `{}` right above `{}`",
                self.fault(),
                self.joined(),
                self.was_on.1
            ),
            Former::Removed { .. } => format!(
                "{}: to remove `{}`, remove `{}` with it (start the old text at the line \
                 `{first}`); to keep `{}`, keep a definition right under it",
                self.fault(),
                self.was_on.1,
                self.joined(),
                self.joined()
            ),
        }
    }

    /// [`Self::describe`] for an edit that inserts its new text at a line
    /// (Cline's `insert_line`: before that one-based line) and has no old
    /// text: where to insert instead (a tester's find, round 47 T-08: told
    /// to "start the old text at" a line).
    pub fn describe_insertion(&self) -> String {
        match self.former {
            Former::Left(_) => format!(
                "{}: insert the new lines at line {} instead, above `{}`, so `{}` stays right \
                 above `{}`",
                self.fault(),
                self.first_line,
                self.decorators.first().map_or("", String::as_str),
                self.joined(),
                self.was_on.1
            ),
            Former::Removed { .. } => self.describe(),
        }
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let stood = format!(
            "`{}` stood on `{}` (line {})",
            self.joined(),
            self.was_on.1,
            self.was_on.0
        );
        match &self.former {
            Former::Left(left) => format!(
                "{stood} and now stands on `{}` (line {}), which it {} instead; `{}` (line \
                 {left}) is left without it",
                self.now_on.1,
                self.now_on.0,
                self.verb(),
                self.was_on.1,
            ),
            Former::Removed { .. } if self.now_on.1.is_empty() => format!(
                "{stood}, which the edit removes, and now stands at the end of the file: it \
                 {} no definition",
                self.verb(),
            ),
            Former::Removed { .. } if self.python && !python_definition(&self.now_on.1) => {
                format!(
                    "{stood}, which the edit removes, and now stands on `{}` (line {}), which \
                     is no definition: Python refuses the file (a decorator stands only on a \
                     `def` or a `class`)",
                    self.now_on.1, self.now_on.0,
                )
            }
            Former::Removed { .. } if closes_a_block(&self.now_on.1) => format!(
                "{stood}, which the edit removes, and now stands above `{}` (line {}), which \
                 closes the block: it {} no definition",
                self.now_on.1,
                self.now_on.0,
                self.verb(),
            ),
            Former::Removed { beside } => format!(
                "{stood}, which the edit removes, and now stands on `{}` (line {}), which it \
                 now {}{}",
                self.now_on.1,
                self.now_on.0,
                self.verb(),
                if beside.is_empty() {
                    String::new()
                } else {
                    format!(" on top of its own `{}`", beside.join(" "))
                }
            ),
        }
    }

    /// The decorator lines joined by a space.
    pub fn joined(&self) -> String {
        self.decorators.join(" ")
    }

    /// What a decorator does to what it stands on.
    fn verb(&self) -> &'static str {
        if self.decorators.iter().all(|d| d.starts_with("#[")) {
            "applies to"
        } else {
            "decorates"
        }
    }
}

/// How a language writes its decorators and comments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Python: `@name..`, `#` comments.
    Python,
    /// JavaScript, TypeScript, Java, Kotlin: `@Name..`, `//` and `/* */`
    /// comments.
    At,
    /// Rust: `#[..]` outer attributes, `//` comments.
    Rust,
}

impl Style {
    /// The style of the file `path` whose content is `content`.
    fn of(path: &str, content: &str) -> Option<Style> {
        if FileKind::of(path, content) == FileKind::Python {
            return Some(Style::Python);
        }
        match brace_language(path)? {
            Lang::Js | Lang::Java | Lang::Kotlin => Some(Style::At),
            Lang::Rust => Some(Style::Rust),
            _ => None,
        }
    }

    /// Whether the trimmed line `t` starts a decorator.
    fn decorator(self, t: &str) -> bool {
        match self {
            Style::Rust => t.starts_with("#["),
            Style::Python | Style::At => {
                let Some(rest) = t.strip_prefix('@') else {
                    return false;
                };
                let starts_name = rest
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphabetic() || c == '_');
                // Java's `@interface Name` declares; Kotlin's `@file:..`
                // applies to the file.
                starts_name
                    && !(self == Style::At
                        && (rest.starts_with("interface") || rest.starts_with("file:")))
            }
        }
    }

    /// Whether the trimmed line `t` is blank or a comment.
    fn passed_over(self, t: &str) -> bool {
        t.is_empty()
            || match self {
                Style::Python => t.starts_with('#'),
                Style::At | Style::Rust => {
                    t.starts_with("//") || t.starts_with("/*") || t.starts_with('*')
                }
            }
    }
}

/// A decorator run and the line it stands on.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Decorated {
    /// The decorator lines, trimmed.
    decorators: Vec<String>,
    /// Their line indexes (0-based), in order.
    lines: Vec<usize>,
    /// The target's line index (0-based) and its text, trimmed.
    target: (usize, String),
}

/// The decorator move `result` makes that `original` (the file `path`)
/// did not have ([`MovedDecorator`]): a definition put between decorators
/// and their own (`put_between`), or their own removed from under them
/// (`left_behind`); `None` for a file whose decorators srview does not
/// read.
pub fn decorator_moved(path: &str, original: &str, result: &str) -> Option<MovedDecorator> {
    let style = Style::of(path, original)?;
    let before = decorated(style, original);
    if before.is_empty() {
        return None;
    }
    let after = decorated(style, result);
    put_between(&before, &after, original, result)
        .or_else(|| {
            let [earliest, latest] = kept_lines(original, result);
            let original_len = original.lines().count();
            let moved = left_behind(&before, &after, &earliest, original_len)?;
            left_behind(&before, &after, &latest, original_len).map(|_| moved)
        })
        .map(|moved| MovedDecorator {
            python: style == Style::Python,
            ..moved
        })
}

/// A decorator run of `original` (`before`) that stands in `result`
/// (`after`) on a line the file before did not hold, its own target still
/// standing below it (round 44 T-13).
fn put_between(
    before: &[Decorated],
    after: &[Decorated],
    original: &str,
    result: &str,
) -> Option<MovedDecorator> {
    let result_lines: Vec<&str> = result.lines().map(str::trim).collect();
    let original_lines: HashSet<&str> = original.lines().map(str::trim).collect();
    before.iter().find_map(|was| {
        let kept = after
            .iter()
            .any(|now| now.decorators == was.decorators && now.target.1 == was.target.1);
        if kept {
            return None;
        }
        let now = after.iter().find(|now| {
            now.decorators == was.decorators
                && now.target.0 < result_lines.len()
                && !original_lines.contains(now.target.1.as_str())
        })?;
        let left = result_lines
            .iter()
            .enumerate()
            .skip(now.target.0 + 1)
            .find(|(_, t)| **t == was.target.1)?
            .0;
        Some(MovedDecorator {
            decorators: was.decorators.clone(),
            was_on: (was.target.0 + 1, was.target.1.clone()),
            now_on: (now.target.0 + 1, now.target.1.clone()),
            former: Former::Left(left + 1),
            first_line: was.lines.first().map_or(was.target.0, |&l| l) + 1,
            python: false,
        })
    })
}

/// Decorator lines the edit keeps whose definition it removes (a tester's
/// find, round 45 T-12: `def old_admin():` and its body deleted, its
/// `@app.route("/admin")` left to route `index`): read by the lines the
/// edit keeps (a line diff of the two texts), a target of `result` the
/// edit kept gains kept decorator lines that, in `original`, stood on
/// another target, one the edit did not keep. Certain only so: a
/// decorator the edit writes above a definition is the model's; a
/// definition replaced under its decorators (renamed, rewritten) is a new
/// target; a whole decorated definition removed leaves the next one its
/// own decorators (compared by their text, nearest first, so a stack of
/// one name, `@overload`, reads the same whichever of its lines the diff
/// keeps).
fn left_behind(
    before: &[Decorated],
    after: &[Decorated],
    kept: &[Option<usize>],
    original_len: usize,
) -> Option<MovedDecorator> {
    let survives: HashSet<usize> = kept.iter().flatten().copied().collect();
    after.iter().find_map(|now| {
        // The end of the file is kept by any edit.
        let target = if now.target.0 == kept.len() {
            original_len
        } else {
            kept.get(now.target.0).copied().flatten()?
        };
        let beside = before
            .iter()
            .find(|was| was.target.0 == target)
            .map_or(&[][..], |was| &was.decorators[..]);
        let (gained, beside) = gained_lines(now, beside);
        let was = gained.iter().find_map(|line| {
            let k = kept.get(*line).copied().flatten()?;
            before.iter().find(|was| {
                was.lines.contains(&k)
                    && was.target.0 != target
                    && !survives.contains(&was.target.0)
            })
        })?;
        let decorators = now
            .lines
            .iter()
            .zip(&now.decorators)
            .filter(|(line, _)| {
                gained.contains(line)
                    && kept
                        .get(**line)
                        .copied()
                        .flatten()
                        .is_some_and(|k| was.lines.contains(&k))
            })
            .map(|(_, text)| text.clone())
            .collect();
        Some(MovedDecorator {
            decorators,
            was_on: (was.target.0 + 1, was.target.1.clone()),
            now_on: (now.target.0 + 1, now.target.1.clone()),
            former: Former::Removed { beside },
            first_line: was.lines.first().map_or(was.target.0, |&l| l) + 1,
            python: false,
        })
    })
}

/// The lines of the run `now` that its target's own decorators before
/// (`own`, trimmed) do not account for, matched by their text from the
/// target up (a definition's own decorators stand nearest it); and the own
/// decorators that still stand in it, in order.
fn gained_lines(now: &Decorated, own: &[String]) -> (Vec<usize>, Vec<String>) {
    let mut unclaimed: Vec<&String> = own.iter().collect();
    let (mut gained, mut still) = (Vec::new(), Vec::new());
    for (line, text) in now.lines.iter().zip(&now.decorators).rev() {
        match unclaimed.iter().rposition(|o| *o == text) {
            Some(at) => {
                unclaimed.remove(at);
                still.push(text.clone());
            }
            None => gained.push(*line),
        }
    }
    gained.reverse();
    still.reverse();
    (gained, still)
}

/// For each line of `result`, the line of `original` it is when the edit
/// kept it (a line diff of the two, lines trimmed), `None` for a line it
/// wrote; in two readings, each removed run of lines read as removed as
/// early as their text allows, then as late ([`slide`]). A diff cannot
/// tell which of two like lines an edit kept (`def _(a, b):` / `return a`
/// of two handlers registered alike, an overload's `def activate(` and
/// its implementation's): a decorator moves only when it moves in both.
/// Past a deadline on long texts the diff keeps fewer lines (still only
/// equal ones).
fn kept_lines(original: &str, result: &str) -> [Vec<Option<usize>>; 2] {
    let old: Vec<&str> = original.lines().map(str::trim).collect();
    let new: Vec<&str> = result.lines().map(str::trim).collect();
    let deadline = (old.len() + new.len() > DIFF_EXACT_UP_TO)
        .then(|| Instant::now() + Duration::from_millis(50));
    let ops = textdiff::ops(&old, &new, deadline);
    let mut kept = vec![None; new.len()];
    for op in &ops {
        if let DiffOp::Equal {
            old_index,
            new_index,
            len,
        } = *op
        {
            for i in 0..len {
                kept[new_index + i] = Some(old_index + i);
            }
        }
    }
    [true, false].map(|up| {
        let mut reading = kept.clone();
        for op in &ops {
            if let DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } = *op
            {
                let removed = old_index..old_index + old_len;
                slide(&old, &mut reading, removed, new_index, up);
            }
        }
        reading
    })
}

/// Slides the lines `removed` of `old`, which a diff removes before the
/// result's line `at`, up (`up`) while the kept line above them reads as
/// their last one, or down while the kept line below reads as their
/// first: that line is then read as removed and the one at the other end
/// as kept.
fn slide(
    old: &[&str],
    kept: &mut [Option<usize>],
    removed: std::ops::Range<usize>,
    at: usize,
    up: bool,
) {
    let (mut start, mut end, mut at) = (removed.start, removed.end, at);
    if up {
        while start > 0
            && at > 0
            && kept[at - 1] == Some(start - 1)
            && old[start - 1] == old[end - 1]
        {
            kept[at - 1] = Some(end - 1);
            (start, end, at) = (start - 1, end - 1, at - 1);
        }
    } else {
        while at < kept.len() && kept[at] == Some(end) && old[start] == old[end] {
            kept[at] = Some(start);
            (start, end, at) = (start + 1, end + 1, at + 1);
        }
    }
}

/// Lines of both texts up to which [`kept_lines`] diffs without a
/// deadline (the result is then the same on any machine).
const DIFF_EXACT_UP_TO: usize = 20_000;

/// Whether the trimmed line `t` starts by closing a block (`}`, `)`,
/// `]`): decorators above it stand on no definition.
/// Whether the trimmed Python line `t` starts a definition a decorator
/// may stand on.
fn python_definition(t: &str) -> bool {
    ["def ", "async def ", "class "]
        .iter()
        .any(|k| t.starts_with(k))
}

fn closes_a_block(t: &str) -> bool {
    t.starts_with(['}', ')', ']'])
}

/// Every decorator run of `text` and the line it stands on; a run the
/// text ends with stands on the line past its last, `""`.
fn decorated(style: Style, text: &str) -> Vec<Decorated> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let mut out = Vec::new();
    let mut run: Vec<usize> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let target = if style.decorator(lines[i]) {
            let (end, alone) = decorator_line(style, &lines, i);
            if alone {
                run.extend(i..=end);
                i = end + 1;
                continue;
            }
            end
        } else if run.is_empty() || style.passed_over(lines[i]) {
            i += 1;
            continue;
        } else {
            i
        };
        if !run.is_empty() {
            out.push(Decorated {
                decorators: run.iter().map(|&at| lines[at].to_string()).collect(),
                lines: std::mem::take(&mut run),
                target: (target, lines[target].to_string()),
            });
        }
        i = target + 1;
    }
    // Decorators the file ends with stand on its end (no definition).
    if !run.is_empty() {
        out.push(Decorated {
            decorators: run.iter().map(|&at| lines[at].to_string()).collect(),
            lines: run,
            target: (lines.len(), String::new()),
        });
    }
    out
}

/// Where the decorators opening `lines[start]` end, and whether they
/// stand alone: the index of the line their last bracket closes on, and
/// `true` when nothing but a comment follows them there (`@Output()`,
/// `#[derive(Debug)]`), `false` when a definition does (`@Input() label
/// = "";`, `#[test] fn t() {}`). Python's end their line (its grammar);
/// decorators whose brackets never close stand alone on `start`.
fn decorator_line(style: Style, lines: &[&str], start: usize) -> (usize, bool) {
    if style == Style::Python {
        return (decorator_end(lines, start), true);
    }
    let (mut line, mut col) = (start, 0);
    loop {
        let Some((end_line, end_col)) = one_decorator_end(style, lines, line, col) else {
            return (start, true);
        };
        (line, col) = (end_line, end_col);
        let rest = lines[line][col..].trim_start();
        if style.passed_over(rest) {
            return (line, true);
        }
        if !style.decorator(rest) {
            return (line, false);
        }
        col = lines[line].len() - rest.len();
    }
}

/// The line and byte right after the decorator starting at byte `col` of
/// `lines[line]`: Rust's `#[..]` to its closing bracket; an `@Name`
/// (dotted, or with a Kotlin use-site target: `@field:Json`) to its name's
/// end, or to its arguments' closing parenthesis (`@Value("x")`, over
/// lines too). `None` when a bracket never closes.
fn one_decorator_end(
    style: Style,
    lines: &[&str],
    line: usize,
    col: usize,
) -> Option<(usize, usize)> {
    let text = &lines[line][col..];
    if style == Style::Rust {
        return bracket_close(lines, line, col + 1);
    }
    let name = text[1..]
        .find(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$')))
        .map_or(text.len(), |i| i + 1);
    let spaces = text[name..].len() - text[name..].trim_start().len();
    if text[name + spaces..].starts_with('(') {
        bracket_close(lines, line, col + name + spaces)
    } else {
        Some((line, col + name))
    }
}

/// The brackets of `line` outside its quotes: each one's byte and `1` for
/// an opening one, `-1` for a closing one.
fn brackets(line: &str) -> impl Iterator<Item = (usize, i64)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    line.char_indices().filter_map(move |(i, c)| {
        match quote {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if matches!(c, '"' | '\'' | '`') => quote = Some(c),
            None if matches!(c, '(' | '[' | '{') => return Some((i, 1)),
            None if matches!(c, ')' | ']' | '}') => return Some((i, -1)),
            None => {}
        }
        None
    })
}

/// The index of the line that closes the decorator starting at
/// `lines[start]`: the first where its brackets, counted outside quotes,
/// close (a `@Component({` .. `})` over lines); `start` itself when they
/// never do by the file's end.
fn decorator_end(lines: &[&str], start: usize) -> usize {
    let mut depth: i64 = 0;
    for (i, line) in lines.iter().enumerate().skip(start) {
        depth += brackets(line).map(|(_, step)| step).sum::<i64>();
        if depth <= 0 {
            return i;
        }
    }
    start
}

/// The line and byte right after the bracket closing the one at byte
/// `col` of `lines[line]`, counted outside quotes; `None` when it never
/// closes by the file's end.
fn bracket_close(lines: &[&str], line: usize, col: usize) -> Option<(usize, usize)> {
    let mut depth: i64 = 0;
    for (i, text) in lines.iter().enumerate().skip(line) {
        let from = if i == line { col } else { 0 };
        for (at, step) in brackets(&text[from..]) {
            depth += step;
            if depth == 0 {
                return Some((i, from + at + 1));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Former, decorator_moved};

    /// Each edit `(path, text, old, new)` (old replaced once, and found)
    /// moves no decorator.
    fn assert_moves_nothing(edits: &[(&str, &str, &str, &str)]) {
        for (path, text, old, new) in edits {
            let result = text.replacen(old, new, 1);
            assert_ne!(&result, text, "{path}: {old}");
            assert_eq!(
                decorator_moved(path, text, &result),
                None,
                "{path}: {old} -> {new}"
            );
        }
    }

    /// Two Flask routes, the first behind a login (the tester's r.py,
    /// round 45 T-12).
    const ROUTES: &str = "app = Flask(__name__)\n\n\n@app.route(\"/admin\")\n@login_required\ndef old_admin():\n    return \"legacy\"\n\n\n@app.route(\"/\")\ndef index():\n    return \"hi\"\n";

    /// A `#[test]` function and a plain one below it (the tester's t.rs).
    const OLD_TEST: &str =
        "#[test]\nfn old_test() {\n    assert!(true);\n}\n\npub fn helper() -> i32 {\n    1\n}\n";

    /// A method under `@Override` and one below it (the tester's B.java).
    const OVERRIDE: &str = "public class B extends A {\n    @Override\n    public String toString() {\n        return \"B\";\n    }\n\n    public int size() {\n        return 0;\n    }\n}\n";

    /// A class whose last method stands under `@HostListener`.
    const LAST_LISTENER: &str =
        "class C {\n  @HostListener(\"click\")\n  onClick() {\n    go();\n  }\n}\n";

    /// A struct under `#[derive]` and `#[cfg]`, a function below it.
    const ITEM: &str = "#[derive(Debug, Clone)]\n#[cfg(feature = \"x\")]\npub struct Item {\n    pub n: u32,\n}\n\npub fn helper() -> i32 {\n    1\n}\n";

    /// An `@overload` stack and its implementation.
    const OVERLOADS: &str = "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\ndef f(x):\n    return x\n";

    /// Two fixtures under the same decorator.
    const FIXTURES: &str =
        "@pytest.fixture\ndef a():\n    return 1\n\n\n@pytest.fixture\ndef b():\n    return 2\n";

    /// The tester's four files (round 44, T-13), each edited by an old
    /// text of the definition's own line and a new text putting another
    /// statement first; and the same files edited the ordinary ways.
    #[test]
    fn an_insertion_under_a_decorator_moves_it() {
        let flask = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route(\"/\")\ndef index():\n    return \"home\"\n\n\n@app.route(\"/about\")\ndef about():\n    return \"about\"\n";
        let rust = "#[derive(Debug, Clone)]\npub struct Item {\n    pub n: u32,\n}\n";
        let ts = "@Component({ selector: \"app-root\" })\nexport class AppComponent {\n  title = \"app\";\n}\n";
        let cases = [
            (
                "app.py",
                flask,
                "def about():\n",
                "def format_title(s):\n    return s.title()\n\n\ndef about():\n",
                "`@app.route(\"/about\")` stood on `def about():` (line 12) and now stands on \
                 `def format_title(s):` (line 12), which it decorates instead; `def about():` \
                 (line 16) is left without it",
            ),
            (
                "r.rs",
                rust,
                "pub struct Item {",
                "pub struct Tag {\n    pub s: String,\n}\n\npub struct Item {",
                "`#[derive(Debug, Clone)]` stood on `pub struct Item {` (line 2) and now stands \
                 on `pub struct Tag {` (line 2), which it applies to instead; `pub struct Item {` \
                 (line 6) is left without it",
            ),
            (
                "t.ts",
                ts,
                "export class AppComponent {",
                "export const VERSION = 2;\n\nexport class AppComponent {",
                "`@Component({ selector: \"app-root\" })` stood on `export class AppComponent {` \
                 (line 2) and now stands on `export const VERSION = 2;` (line 2), which it \
                 decorates instead; `export class AppComponent {` (line 4) is left without it",
            ),
        ];
        for (path, text, old, new, said) in cases {
            let result = text.replacen(old, new, 1);
            let got = decorator_moved(path, text, &result).map(|m| m.fault());
            assert_eq!(got.as_deref(), Some(said), "{path}");
        }
        let result = flask.replacen(
            "def about():\n",
            "def t(s):\n    return s\n\n\ndef about():\n",
            1,
        );
        let said = decorator_moved("app.py", flask, &result).map(|m| m.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "`@app.route(\"/about\")` stood on `def about():` (line 12) and now stands on \
                 `def t(s):` (line 12), which it decorates instead; `def about():` (line 16) is \
                 left without it: start the old text at the line `@app.route(\"/about\")` and \
                 put the new lines above it, keeping `@app.route(\"/about\")` right above \
                 `def about():`"
            )
        );
        // Ordinary edits: the new definition above the decorator, with a
        // decorator of its own (the same one too), a renamed target, one
        // more decorator, a body changed.
        let fine = [
            (
                "app.py",
                flask,
                "@app.route(\"/about\")\n",
                "def format_title(s):\n    return s.title()\n\n\n@app.route(\"/about\")\n",
            ),
            (
                "app.py",
                flask,
                "@app.route(\"/about\")\n",
                "@app.route(\"/x\")\ndef x():\n    return 1\n\n\n@app.route(\"/about\")\n",
            ),
            ("app.py", flask, "def about():\n", "def about_page():\n"),
            (
                "app.py",
                flask,
                "def about():\n",
                "@login_required\ndef about():\n",
            ),
            ("app.py", flask, "return \"about\"", "return \"About\""),
            (
                "r.rs",
                rust,
                "#[derive(Debug, Clone)]\n",
                "#[derive(Debug)]\npub struct Tag;\n\n#[derive(Debug, Clone)]\n",
            ),
            (
                "r.rs",
                rust,
                "pub struct Item {",
                "/// An item.\npub struct Item {",
            ),
        ];
        assert_moves_nothing(&fine);
        // Two functions under the same decorator: a new one with it above
        // (a diff could read it as put under the first's decorator).
        let fixtures = "@pytest.fixture\ndef a():\n    return 1\n";
        let more = fixtures.replacen(
            "@pytest.fixture\n",
            "@pytest.fixture\ndef b():\n    return 2\n\n\n@pytest.fixture\n",
            1,
        );
        assert_eq!(decorator_moved("conftest.py", fixtures, &more), None);
    }

    /// A decorator beside what it decorates, on its line, decorates that
    /// (a tester's find, round 45 T-02: `@Input() label = "";`); only
    /// decorators standing alone on their lines, over a blank line too,
    /// decorate the definition below. Checked with tsc (TypeScript 5,
    /// `--experimentalDecorators`), javac and rustc.
    #[test]
    fn only_a_decorator_alone_on_its_lines_decorates_what_follows() {
        let fields = "class Svc {\n  @Input() label = \"\";\n  @Output() changed = new E();\n\n  ngOnInit() {}\n}\n";
        let java = "class S {\n    @Autowired private Repo repo;\n    @Value(\"${a}\") @Nullable private String n;\n\n    public void run() {}\n}\n";
        let kotlin = "class Vm {\n    @Inject lateinit var repo: Repo\n    @field:Json(name = \"x\") val x = 1\n\n    fun load() {}\n}\n";
        let rust =
            "#[derive(Debug)] struct A;\n#[cfg(test)] #[allow(dead_code)] fn t() {}\nfn u() {}\n";
        let multi = "class C {\n  @Input({\n    alias: \"n\",\n  }) name = \"\";\n  go() {}\n}\n";
        for (path, text, above) in [
            ("d.ts", fields, "  ngOnInit() {}"),
            ("d.ts", fields, "\n  ngOnInit() {}"),
            ("S.java", java, "    public void run() {}"),
            ("k.kt", kotlin, "    fun load() {}"),
            ("r.rs", rust, "fn u() {}"),
            ("m.ts", multi, "  go() {}"),
        ] {
            let result = text.replacen(above, &format!("  stop() {{}}\n{above}"), 1);
            assert_ne!(result, text, "{path}: {above}");
            assert_eq!(
                decorator_moved(path, text, &result),
                None,
                "{path}: {above}"
            );
        }
        // Alone on its line (its comment beside it), over a blank line,
        // under a member decorated on its own line: it moves, and it alone
        // is named.
        let lone = "class C {\n  @Input() name = \"\";\n\n  @HostListener(\"click\") // on click\n\n  onClick() {}\n}\n";
        let result = lone.replacen("  onClick() {}", "  onHover() {}\n\n  onClick() {}", 1);
        let got = decorator_moved("c.ts", lone, &result).map(|m| m.describe());
        assert_eq!(
            got.as_deref(),
            Some(
                "`@HostListener(\"click\") // on click` stood on `onClick() {}` (line 6) and now \
                 stands on `onHover() {}` (line 6), which it decorates instead; `onClick() {}` \
                 (line 8) is left without it: start the old text at the line \
                 `@HostListener(\"click\") // on click` and put the new lines above it, keeping \
                 `@HostListener(\"click\") // on click` right above `onClick() {}`"
            )
        );
        // A lone decorator above a member decorated on its line: the two
        // stand on that member's line.
        let both = "class C {\n  @HostBinding(\"class.on\")\n  @Input() on = false;\n}\n";
        let result = both.replacen("  @Input() on", "  off = true;\n  @Input() on", 1);
        let got = decorator_moved("c.ts", both, &result).map(|m| (m.joined(), m.now_on));
        assert_eq!(
            got,
            Some((
                "@HostBinding(\"class.on\")".to_string(),
                (3, "off = true;".to_string())
            ))
        );
    }

    /// A tester's find (round 45, T-12, and its Java addendum): an edit
    /// removing a decorated definition's own lines, not its decorators,
    /// leaves them on the definition below (`/admin` then served `index`
    /// behind a login; rustc --test: E0277 on `helper`; javac: "method does
    /// not override or implement a method from a supertype").
    #[test]
    fn a_definition_removed_from_under_its_decorators_leaves_them_on_the_next() {
        let cases = [
            (
                "r.py",
                ROUTES,
                "def old_admin():\n    return \"legacy\"\n\n\n",
                "`@app.route(\"/admin\") @login_required` stood on `def old_admin():` (line 6), \
                 which the edit removes, and now stands on `def index():` (line 7), which it \
                 now decorates on top of its own `@app.route(\"/\")`",
            ),
            (
                "t.rs",
                OLD_TEST,
                "fn old_test() {\n    assert!(true);\n}\n\n",
                "`#[test]` stood on `fn old_test() {` (line 2), which the edit removes, and now \
                 stands on `pub fn helper() -> i32 {` (line 2), which it now applies to",
            ),
            (
                "B.java",
                OVERRIDE,
                "    public String toString() {\n        return \"B\";\n    }\n\n",
                "`@Override` stood on `public String toString() {` (line 3), which the edit \
                 removes, and now stands on `public int size() {` (line 3), which it now \
                 decorates",
            ),
            (
                "c.ts",
                LAST_LISTENER,
                "  onClick() {\n    go();\n  }\n",
                "`@HostListener(\"click\")` stood on `onClick() {` (line 3), which the edit \
                 removes, and now stands above `}` (line 3), which closes the block: it \
                 decorates no definition",
            ),
            // A class's last method removed from under its decorator: it
            // stands above the module's next line, no definition (python3:
            // IndentationError; a tester's find, round 46: "which it now
            // decorates").
            (
                "g.py",
                "class A:\n    @functools.cache\n    def g(self):\n        return 2\n\nx = 1\n",
                "    def g(self):\n        return 2\n",
                "`@functools.cache` stood on `def g(self):` (line 3), which the edit removes, and \
                 now stands on `x = 1` (line 4), which is no definition: Python refuses the file \
                 (a decorator stands only on a `def` or a `class`)",
            ),
            // The file's LAST_LISTENER definition: its decorators end the file
            // (python3: SyntaxError).
            (
                "r.py",
                ROUTES,
                "def index():\n    return \"hi\"\n",
                "`@app.route(\"/\")` stood on `def index():` (line 11), which the edit removes, \
                 and now stands at the end of the file: it decorates no definition",
            ),
            // The next definition's own decorator removed too: named as
            // its own no more.
            (
                "r.py",
                ROUTES,
                "def old_admin():\n    return \"legacy\"\n\n\n@app.route(\"/\")\n",
                "`@app.route(\"/admin\") @login_required` stood on `def old_admin():` (line 6), \
                 which the edit removes, and now stands on `def index():` (line 6), which it \
                 now decorates",
            ),
            // Only the decorator nearest the definition removed with it.
            (
                "r.py",
                ROUTES,
                "@login_required\ndef old_admin():\n    return \"legacy\"\n\n\n",
                "`@app.route(\"/admin\")` stood on `def old_admin():` (line 6), which the edit \
                 removes, and now stands on `def index():` (line 6), which it now decorates on \
                 top of its own `@app.route(\"/\")`",
            ),
        ];
        for (path, text, old, said) in cases {
            let result = text.replacen(old, "", 1);
            assert_ne!(result, text, "{path}: {old}");
            let got = decorator_moved(path, text, &result).map(|m| m.fault());
            assert_eq!(got.as_deref(), Some(said), "{path}: {old}");
        }
        let result = OLD_TEST.replacen("fn old_test() {\n    assert!(true);\n}\n\n", "", 1);
        let said = decorator_moved("t.rs", OLD_TEST, &result).map(|m| m.describe());
        assert_eq!(
            said.as_deref(),
            Some(
                "`#[test]` stood on `fn old_test() {` (line 2), which the edit removes, and now \
                 stands on `pub fn helper() -> i32 {` (line 2), which it now applies to: to \
                 remove `fn old_test() {`, remove `#[test]` with it (start the old text at the \
                 line `#[test]`); to keep `#[test]`, keep a definition right under it"
            )
        );
    }

    /// The ordinary edits around a decorated definition: removed whole,
    /// with its decorators; replaced or renamed under them; a struct under
    /// `#[derive]`/`#[cfg]` rewritten; a whole variant of an `@overload`
    /// stack or a fixture under the same decorator as the next removed
    /// (whichever of the like lines the diff keeps); a decorator the edit
    /// writes above the next definition itself.
    #[test]
    fn a_decorated_definition_removed_whole_or_replaced_moves_nothing() {
        let fine = [
            (
                "r.py",
                ROUTES,
                "@app.route(\"/admin\")\n@login_required\ndef old_admin():\n    return \"legacy\"\n\n\n",
                "",
            ),
            (
                "r.py",
                ROUTES,
                "def old_admin():\n    return \"legacy\"\n",
                "def admin():\n    return \"new\"\n",
            ),
            (
                "r.py",
                ROUTES,
                "def old_admin():\n    return \"legacy\"\n\n\n@app.route(\"/\")\n",
                "def admin():\n    return 1\n\n\n@app.route(\"/\")\n@login_required\n",
            ),
            (
                "r.rs",
                ITEM,
                "pub struct Item {\n    pub n: u32,\n}\n",
                "pub enum Item {\n    A,\n}\n",
            ),
            (
                "r.rs",
                ITEM,
                "#[derive(Debug, Clone)]\n#[cfg(feature = \"x\")]\npub struct Item {\n    pub n: u32,\n}\n\n",
                "",
            ),
            (
                "o.py",
                OVERLOADS,
                "@overload\ndef f(x: int) -> int: ...\n",
                "",
            ),
            (
                "o.py",
                OVERLOADS,
                "def f(x: int) -> int: ...\n@overload\n",
                "",
            ),
            (
                "o.py",
                OVERLOADS,
                "def f(x: str) -> str: ...\n",
                "def f(x: bytes) -> bytes: ...\n",
            ),
            (
                "c.py",
                FIXTURES,
                "def a():\n    return 1\n\n\n@pytest.fixture\n",
                "",
            ),
            (
                "c.py",
                FIXTURES,
                "@pytest.fixture\ndef a():\n    return 1\n\n\n",
                "",
            ),
        ];
        assert_moves_nothing(&fine);
        // Like lines a diff cannot place: an overload's `def activate(`
        // removed down to its implementation's reads the same as the
        // overload's parameters and the implementation's `def activate(`
        // removed, its `@overload` on its own line (the sweep's
        // responses.py): not said to move (the implementation gone is no
        // fault this check reads). Two handlers registered alike, one
        // swapped with the plain function below it (the sweep's sympy
        // intersection.py: read as the first `def _(a, b):` removed, the
        // second's decorator was said to move onto the third).
        let activate = "class R:\n    @overload\n    def activate(\n        self, *, registry: int = ...\n    ) -> None: ...\n\n    def activate(\n        self, func=None\n    ):\n        return func\n";
        let variant =
            "    def activate(\n        self, *, registry: int = ...\n    ) -> None: ...\n\n";
        let result = activate.replacen(variant, "", 1);
        assert_eq!(decorator_moved("r.py", activate, &result), None);
        let whole = activate.replacen(&format!("    @overload\n{variant}"), "", 1);
        assert_eq!(decorator_moved("r.py", activate, &whole), None);
        let handlers = "@register(N, Q)\ndef _(a, b):\n    return a\n\n@register(Q, R)\ndef _(a, b):\n    return a\n\ndef _like(a, b):\n    return None\n\n@register(Z, I)\ndef _(a, b):\n    return _like(a, b)\n";
        let swapped = handlers.replacen(
            "@register(Q, R)\ndef _(a, b):\n    return a\n\ndef _like(a, b):\n    return None\n",
            "def _like(a, b):\n    return None\n\n@register(Q, R)\ndef _(a, b):\n    return a\n",
            1,
        );
        assert_ne!(swapped, handlers);
        assert_eq!(decorator_moved("h.py", handlers, &swapped), None);
        // A fixture's `def` alone removed: its `@pytest.fixture` stands on
        // `b` as a second one; an overload's `def` alone removed: its
        // `@overload` makes the implementation an overload (python3:
        // calling `f` then raises NotImplementedError).
        let result = FIXTURES.replacen("def a():\n    return 1\n\n\n", "", 1);
        let got = decorator_moved("c.py", FIXTURES, &result).map(|m| m.fault());
        assert_eq!(
            got.as_deref(),
            Some(
                "`@pytest.fixture` stood on `def a():` (line 2), which the edit removes, and now \
                 stands on `def b():` (line 3), which it now decorates on top of its own \
                 `@pytest.fixture`"
            )
        );
        let result = OVERLOADS.replacen("def f(x: str) -> str: ...\n", "", 1);
        let got = decorator_moved("o.py", OVERLOADS, &result).map(|m| m.fault());
        assert_eq!(
            got.as_deref(),
            Some(
                "`@overload` stood on `def f(x: str) -> str: ...` (line 4), which the edit \
                 removes, and now stands on `def f(x):` (line 4), which it now decorates"
            )
        );
    }

    /// A decorator spanning lines is read to its closing bracket; a file
    /// whose language has no decorators srview reads is not read.
    #[test]
    fn a_decorator_over_lines_and_other_languages() {
        let ts = "@Component({\n  selector: \"app-root\",\n})\nexport class AppComponent {}\n";
        let result = ts.replacen("export class", "export const V = 1;\nexport class", 1);
        let got = decorator_moved("a.ts", ts, &result).map(|m| (m.joined(), m.now_on, m.former));
        assert_eq!(
            got,
            Some((
                "@Component({ selector: \"app-root\", })".to_string(),
                (4, "export const V = 1;".to_string()),
                Former::Left(5)
            ))
        );
        let c = "#[x]\nint a;\n";
        assert_eq!(
            decorator_moved("a.c", c, &c.replacen("int a;", "int b;\nint a;", 1)),
            None
        );
    }
}
