//! A text that stands in for lines it leaves out: a placeholder line
//! (`# ... rest of the file unchanged ...`, `// existing code`, `# existing
//! methods here`, a lone `...`) where the text it replaces had lines the
//! new text no longer holds. Models write such texts for "the rest stays as
//! it is"; applied, the lines are gone. A whole-file write (the gate), an
//! exact-string edit's new text and a patch hunk's added lines are checked
//! alike.
//!
//! Decided by evidence, not by wording ([`elided`]): a comment-only line
//! (or a lone `...` / `…`, or a bracketed note that is code in no language:
//! `<existing code>`, `[unchanged]`) the old text does not hold, standing alone
//! where a run of the old text's non-blank lines disappears. A wording that
//! says so ([`is_placeholder`]) is enough wherever lines are lost.

use std::collections::{HashMap, HashSet};

/// Where a new text stands in for lines it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elided {
    /// 1-based line of the new text holding the placeholder.
    pub line: usize,
    /// The placeholder line, trimmed.
    pub placeholder: String,
    /// How many non-blank lines of the old text the new text no longer
    /// holds (each line counted as often as it stands).
    pub lost: usize,
}

/// Whether `new`, replacing `old`, stands in for lines it leaves out, and
/// where: `None` when `new` loses no non-blank line of `old`, or holds no
/// line that stands in for the lines it loses. A line of `new` that `old`
/// does not hold stands in for lost lines when
/// - its wording says so ([`is_placeholder`]: `# ... rest unchanged ...`),
///   wherever the lines are lost; or
/// - it is a comment-only line or a lone `...` / `…` ([`stand_in_shaped`],
///   not inside a docstring), standing alone where a run of
///   [`MIN_RUN`] or more non-blank lines of `old` (code among them)
///   disappears: the nearest lines around it that are not such lines
///   (or the text's ends) are lines `old` holds, and between those lines
///   `old` had the run, whose lines `new` holds nowhere.
///
/// So a comment written beside new code (a refactor explaining itself), a
/// comment added where at most two lines go, a `...` the old text already
/// had (a stub) and the lines of a docstring are not stand-ins.
pub fn elided(old: &str, new: &str) -> Option<Elided> {
    // Lines both texts start or end with are held by `old`: no candidate
    // stands there. When the lines between hold none that is shaped or
    // worded as a stand-in, nothing is (a write of a long file changing a
    // few lines is judged by those lines, not by hashing every line).
    if !changed_lines(old, new).any(|line| is_placeholder(line) || stand_in_shaped(line)) {
        return None;
    }
    let held: HashSet<&str> = old.lines().map(str::trim).collect();
    let shapes = stand_in_shapes(new);
    let worded = |line: &str| is_placeholder(line) && !held.contains(line.trim());
    // Most texts hold no candidate: `old` is looked at further only for
    // one that does.
    if !new
        .lines()
        .zip(&shapes)
        .any(|(line, &shaped)| worded(line) || (shaped && !held.contains(line.trim())))
    {
        return None;
    }
    let mut kept = HashMap::<&str, usize>::new();
    for line in new.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *kept.entry(line).or_default() += 1;
    }
    let lost = old
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter(|line| match kept.get_mut(line) {
            Some(left) if *left > 0 => {
                *left -= 1;
                false
            }
            _ => true,
        })
        .count();
    if lost == 0 {
        return None;
    }
    let found = |number: usize, line: &str| Elided {
        line: number + 1,
        placeholder: line.trim().to_string(),
        lost,
    };
    if let Some((number, line)) = new.lines().enumerate().find(|(_, line)| worded(line)) {
        return Some(found(number, line));
    }
    let number = Evidence::new(old, new, &shapes, &held).first_stand_in()?;
    Some(found(number, new.lines().nth(number)?))
}

/// The lines of `new` between the whole lines it shares with `old` at
/// the start and at the end (a line or two more where that is simpler:
/// only ever more).
fn changed_lines<'a>(old: &str, new: &'a str) -> std::str::Lines<'a> {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let same = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    // Back to the start of the line the texts part in.
    // (Bytes: the texts may part inside a character.)
    let start = memchr::memrchr(b'\n', &b[..same]).map_or(0, |i| i + 1);
    let max_tail = (a.len() - start).min(b.len() - start);
    let tail = a
        .iter()
        .rev()
        .zip(b.iter().rev())
        .take(max_tail)
        .take_while(|(x, y)| x == y)
        .count();
    // On to the end of the line the texts part in (from the end).
    let end = match memchr::memchr(b'\n', &b[b.len() - tail..]) {
        Some(i) if tail < b.len() - start => b.len() - tail + i + 1,
        _ => b.len(),
    };
    new[start..end.max(start)].lines()
}

/// How many non-blank lines of the old text (code among them) a
/// comment-only line or a lone `...` must stand where to be taken for a
/// stand-in by position alone: a comment added where one or two lines go
/// is an ordinary edit.
pub const MIN_RUN: usize = 3;

/// The texts' non-blank lines, trimmed, for [`elided`]'s evidence.
struct Evidence<'a> {
    /// `old`'s non-blank lines.
    old: Vec<&'a str>,
    /// Where each of them stands in `old`, in order.
    at_old: HashMap<&'a str, Vec<usize>>,
    /// `new`'s non-blank lines: (line number in `new`, text, whether it is
    /// a candidate stand-in: shaped as one and not held by `old`, how many
    /// times the text stood in `new` before).
    new: Vec<(usize, &'a str, bool, usize)>,
    /// Every line `new` holds.
    in_new: HashSet<&'a str>,
}

impl<'a> Evidence<'a> {
    fn new(old: &'a str, new: &'a str, shapes: &[bool], held: &HashSet<&str>) -> Self {
        let mut seen = HashMap::<&str, usize>::new();
        let new_lines: Vec<(usize, &str, bool, usize)> = new
            .lines()
            .zip(shapes)
            .enumerate()
            .map(|(number, (line, &shaped))| (number, line.trim(), shaped))
            .filter(|(_, line, _)| !line.is_empty())
            .map(|(number, line, shaped)| {
                let rank = seen.entry(line).or_default();
                *rank += 1;
                (number, line, shaped && !held.contains(line), *rank - 1)
            })
            .collect();
        let old: Vec<&str> = old
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        let mut at_old = HashMap::<&str, Vec<usize>>::new();
        for (i, line) in old.iter().enumerate() {
            at_old.entry(line).or_default().push(i);
        }
        Evidence {
            old,
            at_old,
            in_new: new_lines.iter().map(|l| l.1).collect(),
            new: new_lines,
        }
    }

    /// The first line of the new text (its number) that is a candidate
    /// standing alone where a run of the old text's lines disappears (see
    /// [`elided`]).
    fn first_stand_in(&self) -> Option<usize> {
        (0..self.new.len())
            .find(|&at| self.new[at].2 && self.stands_in(at))
            .map(|at| self.new[at].0)
    }

    /// Whether the candidate at `at` (of the new text's non-blank lines)
    /// stands alone where a run of the old text's lines disappears.
    fn stands_in(&self, at: usize) -> bool {
        // The nearest lines around it that are not candidates: both must
        // be lines of the old text (else new code stands in that place).
        let before = self.new[..at].iter().rev().find(|l| !l.2);
        let after = self.new[at + 1..].iter().find(|l| !l.2);
        // Where the line before stands in the old text: its k-th
        // occurrence in the new text taken for its k-th in the old (its
        // last when the old text has fewer).
        let start = match before {
            None => 0,
            Some(&(_, text, _, rank)) => match self.at_old.get(text) {
                Some(places) => places.get(rank).or(places.last()).map_or(0, |i| i + 1),
                None => return false,
            },
        };
        let end = match after {
            None => self.old.len(),
            Some(&(_, text, _, _)) => {
                let places = self.at_old.get(text).map_or(&[][..], Vec::as_slice);
                match places.get(places.partition_point(|&i| i < start)) {
                    Some(&i) => i,
                    None => return false,
                }
            }
        };
        // At least MIN_RUN lines the new text holds nowhere, code among
        // them (looked at until that is known).
        let (mut lost, mut code) = (0, false);
        for line in self.old[start..end.max(start)]
            .iter()
            .filter(|line| !self.in_new.contains(*line))
        {
            lost += 1;
            code |= !is_comment(line);
            if lost >= MIN_RUN && code {
                return true;
            }
        }
        false
    }
}

/// For each line of `new`: whether it is shaped as a stand-in
/// ([`stand_in_shaped`]) outside a triple-quoted string (a docstring's
/// lines are text: a doctest's `...`, a `#` in prose).
fn stand_in_shapes(new: &str) -> Vec<bool> {
    let mut in_string: Option<&str> = None;
    new.lines()
        .map(|line| {
            let was_in = in_string.is_some();
            for quotes in ["\"\"\"", "'''"] {
                if in_string.is_none_or(|open| open == quotes)
                    && line.matches(quotes).count() % 2 == 1
                {
                    in_string = match in_string {
                        Some(_) => None,
                        None => Some(quotes),
                    };
                }
            }
            !was_in && in_string.is_none() && stand_in_shaped(line)
        })
        .collect()
}

/// A line that can stand in for others: a lone `...` or `…` (Python's
/// Ellipsis, a TypeScript stub's body, a model's "and so on"), a
/// comment-only line ([`is_comment`]), or a note in brackets that is code
/// in no language ([`bracketed_note`]: `<existing code>`, `[... rest of
/// the file ...]`, `(rest unchanged)`).
pub fn stand_in_shaped(line: &str) -> bool {
    let line = line.trim();
    matches!(line, "..." | "\u{2026}") || is_comment(line) || bracketed_note(line)
}

/// A line that is one pair of brackets (`<…>`, `[…]`, `(…)`) around a
/// note saying lines are left out: inside, words only (letters, digits,
/// spaces, `-`, `'`, `,`, `:`) beside ellipses, and either an ellipsis
/// with two words or more, or words that say so
/// (`unchanged`, `omitted`, `rest of`, `remaining`, `existing` among two
/// words or more: `<existing code>`, `[unchanged]`, `(rest unchanged)`).
/// Code has other marks inside such brackets (`<div class="a">`, `</div>`,
/// `<App />`, `[1, 2]`, `[x.rest]`, `(a + b)`, `[link](url)`), no such
/// word (`[...]`, `(rest items)`, `<main>`) or a name right after an
/// ellipsis (a spread: `[...remaining]`), so it is not taken for one.
pub fn bracketed_note(line: &str) -> bool {
    let line = line.trim();
    let inner = [('<', '>'), ('[', ']'), ('(', ')')]
        .iter()
        .find_map(|&(open, close)| line.strip_prefix(open)?.strip_suffix(close));
    let Some(inner) = inner else {
        return false;
    };
    let ellipsis = inner.contains("...") || inner.contains('\u{2026}');
    let text = inner.replace("...", " ").replace('\u{2026}', " ");
    let wordy = |c: char| c.is_alphanumeric() || c.is_whitespace() || "-',:".contains(c);
    if !text.chars().all(wordy) || !text.chars().any(char::is_alphabetic) {
        return false;
    }
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let says = [
        "unchanged",
        "unmodified",
        "omitted",
        "elided",
        "snip",
        "brevity",
        "remaining",
        "remains",
    ]
    .iter()
    .any(|w| words.iter().any(|word| word.trim_matches([',', ':']) == *w))
        || lower.contains("rest of")
        || lower.contains("the same")
        || (words.len() >= 2
            && words
                .iter()
                .any(|w| w.trim_matches([',', ':']) == "existing"));
    // An ellipsis against a name is a spread (`[...rest]`, `(...args)`).
    let spread = inner
        .match_indices("...")
        .any(|(at, _)| inner[at + 3..].starts_with(|c: char| c.is_alphanumeric() || c == '_'));
    !spread && (says || (ellipsis && words.len() >= 2))
}

/// A line holding a comment only, by the marks of common languages: `#`
/// followed by a space, another `#` or nothing (not `#include`,
/// `#[derive]`, `#!`), `//`, `/*`, a block comment's `* ` or `*/`,
/// `<!--`, `{/*`, `-- `, `;;` or `; `, `% `.
pub fn is_comment(line: &str) -> bool {
    let line = line.trim();
    if let Some(rest) = line.strip_prefix('#') {
        return rest.is_empty() || rest.starts_with([' ', '\t', '#']);
    }
    [
        "//", "/*", "*/", "* ", "<!--", "{/*", "-- ", ";;", "; ", "% ",
    ]
    .iter()
    .any(|mark| line.starts_with(mark))
        || matches!(line, "*" | "--" | ";" | "%")
}

/// Whether a line stands for lines left out: a comment opening with an
/// ellipsis (`# ...`, `// ... existing code ...`, `/* … */`, `<!-- ... -->`,
/// `(...)`), one naming what it leaves out beside an ellipsis (`(rest of
/// methods ...)`, `// unchanged ...`), or a short comment saying so without
/// one (`# Rest of the file remains unchanged`, `# existing code`,
/// `// [unchanged]`, `# (remaining functions unchanged)`, `# [omitted for
/// brevity]`). A bare `...` is code (Python's Ellipsis, a spread), not a
/// placeholder. Only a write that also loses lines of the file is doubted
/// ([`elided`]): a real comment saying "unchanged" costs a question
/// at most.
pub fn is_placeholder(line: &str) -> bool {
    let line = line.trim();
    if stub_saying_left_out(line) {
        return true;
    }
    let bare = line
        .trim_start_matches(['#', '/', '*', '-', ';', '<', '!', '('])
        .trim_start();
    let commented = bare.len() < line.len();
    let ellipsis = bare.contains("...") || bare.contains('\u{2026}');
    let opens = bare.starts_with("...") || bare.starts_with('\u{2026}');
    let comment = ["#", "//", "/*", "--", ";", "<!--", "%", "\"\"\""]
        .iter()
        .any(|mark| line.starts_with(mark));
    // Most lines are no comment and do not open with an ellipsis: answered
    // before their lower case is made (a write of a 10,000-line file asks
    // of every line).
    if !(commented || opens || comment) {
        return false;
    }
    let lower = bare.to_lowercase();
    if !ellipsis {
        // Without an ellipsis: a comment of a few words, all about what
        // it leaves out.
        let says = [
            "rest of",
            "unchanged",
            "existing code",
            "remains the same",
            "remain the same",
            "stays the same",
            "stay the same",
            "omitted",
            "for brevity",
            "remaining code",
            "remaining functions",
            "remaining methods",
        ]
        .iter()
        .any(|words| lower.contains(words));
        return comment && says && bare.split_whitespace().count() <= 10;
    }
    let names = [
        "rest of",
        "unchanged",
        "existing code",
        "remaining",
        "omitted",
    ]
    .iter()
    .any(|word| lower.contains(word));
    (commented && opens) || (names && (commented || opens))
}

/// Whether `line` (trimmed) is an empty body whose comment says the code
/// it stands for is left out: an empty statement (`pass`, `...`, `…`,
/// alone or after a `:`) with such a `#` comment (`pass  # unchanged`,
/// `pass  # ... existing code ...`, `...  # existing implementation`,
/// `def total(self): pass  # unchanged`), or braces around nothing but
/// such a block comment (`total(items) { /* ... existing code ... */ }`).
/// A body written so keeps nothing (a tester's find: `pass  # unchanged`
/// passed where `...  # unchanged` was a doubt). A stub with another
/// comment (`pass  # TODO`, `pass  # nothing to clean up`) is not.
fn stub_saying_left_out(line: &str) -> bool {
    if let Some(open) = line.find("/*")
        && let Some(length) = line[open..].find("*/")
    {
        let (before, after) = (&line[..open], &line[open + length + 2..]);
        return before.trim_end().ends_with('{')
            && after.trim_start().starts_with('}')
            && says_left_out(&line[open + 2..open + length]);
    }
    let Some((code, comment)) = line.split_once('#') else {
        return false;
    };
    // A `#` inside a string is no comment.
    if code.contains(['"', '\'']) {
        return false;
    }
    let code = code.trim_end();
    let head = ["pass", "...", "\u{2026}"]
        .iter()
        .find_map(|stub| code.strip_suffix(stub));
    head.is_some_and(|head| head.is_empty() || head.ends_with([' ', '\t', ':']))
        && says_left_out(comment)
}

/// Whether a comment's text says the code it stands for is left out:
/// `unchanged`, `unmodified`, `omitted`, `elided`, `remaining`, `remains`,
/// `rest of`, `for brevity`, `as before`, or `existing` before `code`,
/// `implementation`, `logic`, `body`, `lines`, `methods` or `functions`.
fn says_left_out(comment: &str) -> bool {
    let lower = comment.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let existing = words.windows(2).any(|pair| {
        pair[0] == "existing"
            && [
                "code",
                "implementation",
                "logic",
                "body",
                "lines",
                "methods",
                "functions",
            ]
            .contains(&pair[1])
    });
    existing
        || words.iter().any(|w| {
            [
                "unchanged",
                "unmodified",
                "omitted",
                "elided",
                "remaining",
                "remains",
            ]
            .contains(w)
        })
        || lower.contains("rest of")
        || lower.contains("for brevity")
        || lower.contains("as before")
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_changed_lines_cover_every_line_that_differs() {
        fn lines<'a>(old: &str, new: &'a str) -> Vec<&'a str> {
            super::changed_lines(old, new).collect()
        }
        assert_eq!(lines("a\nb\nc\n", "a\nB\nc\n"), ["B"]);
        assert_eq!(lines("a\nb\nc\n", "a\nb\nc\n"), Vec::<&str>::new());
        assert_eq!(lines("a\nb\n", "a\nb\n# rest\n"), ["# rest"]);
        assert_eq!(lines("x = \"é\"\ny\n", "x = \"è\"\ny\n"), ["x = \"è\""]);
        assert_eq!(lines("a\nb\nc\n", "# ...\n"), ["# ..."]);
        assert_eq!(lines("a\nb\nc\n", "a\nc\n"), ["c"]);
    }

    use super::elided;

    const OLD: &str = "def fetch(url):\n    resp = get(url)\n    time.sleep(1)\n    time.sleep(2)\n    time.sleep(4)\n    return resp\n";

    /// A lone comment where three lines of code go is asked about, whatever
    /// it says: `# retry with backoff (was three lines of sleep)` and `#
    /// existing methods here` stand where they stand alike, and nothing in
    /// either text tells a deletion the model meant from lines it left out
    /// (docs/guarantees.md, "A lone comment where code goes"). Written
    /// beside the code that replaces the lines, the same comment passes.
    #[test]
    fn a_lone_comment_where_code_goes_is_asked_about_beside_new_code_it_is_not() {
        for comment in [
            "# retry with backoff (was three lines of sleep)",
            "# existing methods here",
            "# ... rest unchanged",
            "...",
        ] {
            let new =
                format!("def fetch(url):\n    resp = get(url)\n    {comment}\n    return resp\n");
            let found = elided(OLD, &new).unwrap_or_else(|| panic!("{comment}: not asked"));
            assert_eq!(
                (found.line, found.placeholder.as_str(), found.lost),
                (3, comment, 3)
            );
        }
        let beside_code = "def fetch(url):\n    resp = get(url)\n    # retry with backoff (was three lines of sleep)\n    resp = retry(resp, backoff=2)\n    return resp\n";
        assert_eq!(elided(OLD, beside_code), None);
        // Where one or two lines go, a comment is an ordinary edit.
        let two = "def fetch(url):\n    resp = get(url)\n    # one sleep is enough\n    time.sleep(4)\n    return resp\n";
        assert_eq!(elided(OLD, two), None);
    }

    /// A stub whose comment says the body is left out stands in for it
    /// wherever lines go; a stub with another comment, or one that loses
    /// no line, does not.
    #[test]
    fn a_stub_saying_its_body_is_left_out_is_a_stand_in() {
        for stub in [
            "pass  # unchanged",
            "pass  # ... existing code ...",
            "...  # existing implementation",
            "...  # unchanged",
            "pass  # rest of the method as before",
            "def fetch(url): pass  # unchanged",
            "fetch(url) { /* ... existing code ... */ }",
            "fetch(url) { /* unchanged */ }",
        ] {
            let new = format!("def fetch(url):\n    {stub}\n");
            let found = elided(OLD, &new).unwrap_or_else(|| panic!("{stub}: not asked"));
            assert_eq!((found.line, found.placeholder.as_str()), (2, stub));
        }
        for stub in [
            "pass  # TODO",
            "pass  # nothing to clean up",
            "pass  # existing users keep their rows",
            "log(\"# unchanged\")  # pass",
            "fetch(url) { /* TODO */ }",
            "fetch(url) { run(); /* unchanged */ }",
        ] {
            let new =
                format!("def fetch(url):\n    resp = get(url)\n    {stub}\n    return resp\n");
            assert_eq!(elided(OLD, &new), None, "{stub}");
        }
        let kept = format!("{OLD}    pass  # unchanged\n");
        assert_eq!(elided(OLD, &kept), None);
    }
}
