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
//! says so ([`is_placeholder`]: a comment, a one-line docstring, a stub
//! whose comment says its body is left out) is enough wherever lines are
//! lost. Comments are read in the marks of the file's kind ([`Comments`],
//! one table: `%` in LaTeX, `"` in Vim script, `'` in Visual Basic, `REM`
//! in a batch file, beside the marks of every kind).

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
/// line that stands in for the lines it loses. `path` names the file: its
/// kind tells which marks open a comment ([`Comments`]: `%` in LaTeX, `"`
/// in Vim script, `'` in Visual Basic, `REM` in a batch file). A line of
/// `new` that `old` does not hold stands in for lost lines when
/// - its wording says so ([`is_placeholder`]: `# ... rest unchanged ...`,
///   `"""... existing methods unchanged ..."""`, `raise
///   NotImplementedError  # existing implementation`), wherever the lines
///   are lost; or
/// - it is a comment-only line, a lone `...` / `…` or a line of code
///   whose comment says lines are left out ([`stand_in_shaped`], not
///   inside a docstring), standing alone where a run of [`MIN_RUN`] or
///   more non-blank lines of `old` (code among them) disappears: the
///   nearest lines around it that are not such lines (or the text's ends)
///   are lines `old` holds, and between those lines `old` had the run,
///   whose lines `new` holds nowhere; or
/// - it is a lone `...` / `…` standing so in two places or more where
///   fewer lines go in each, [`MIN_RUN`] or more in all (each body cut to
///   its first line and a `...`).
///
/// So a comment written beside new code (a refactor explaining itself), a
/// comment added where at most two lines go, a `...` the old text already
/// had (a stub), the lines of a docstring, a `...` that is the body of
/// a Python function declared, not written ([`declared_bodies`]: an
/// abstract method, an overload, a `Protocol`'s member), a comment-only
/// note saying the lines were removed ([`notes_removal`]) and a line of a
/// Markdown file's fenced code example (`above` tells whether the new text
/// starts inside one, [`in_fence`]) that does not say its lines are kept
/// as they were ([`says_kept`]: an example cut to `// ...` is the example
/// shortened) are not stand-ins.
pub fn elided(path: &str, old: &str, new: &str) -> Option<Elided> {
    elided_under(path, old, new, "")
}

/// [`elided`] for a new text that goes below `above` in its file (the
/// file's text before the lines it replaces): the class a `def` of the
/// new text stands in may be declared there ([`declared_bodies`]).
pub fn elided_under(path: &str, old: &str, new: &str, above: &str) -> Option<Elided> {
    let comments = Comments::of(path);
    // Lines both texts start or end with are held by `old`: no candidate
    // stands there. When the lines between hold none that is shaped or
    // worded as a stand-in, nothing is (a write of a long file changing a
    // few lines is judged by those lines, not by hashing every line).
    if !changed_lines(old, new)
        .any(|line| is_placeholder(line, comments) || stand_in_shaped(line, comments))
    {
        return None;
    }
    let held: HashSet<&str> = old.lines().map(str::trim).collect();
    let mut shapes = stand_in_shapes(new, comments);
    for (shaped, declared) in shapes.iter_mut().zip(declared_bodies(new, above)) {
        *shaped &= !declared;
    }
    // A Markdown code example's line is text shown to readers: one cut to
    // `// ...` is the example shortened, unless the line says the lines
    // it stands for are kept as they were ([`says_kept`]).
    let fenced = in_fence(path, above, new);
    let example: Vec<bool> = fenced
        .iter()
        .zip(new.lines())
        .map(|(&fenced, line)| fenced && !says_kept(line))
        .collect();
    // Outside its fenced code, a Markdown file's `#` line is a heading and
    // its `* ` line a list item, not comments (a tester's find: a section
    // retitled `## Configuration` with its body dropped was called a
    // stand-in): only `<!--` opens a comment there.
    let markup: Vec<bool> = fenced
        .iter()
        .zip(new.lines())
        .map(|(&fenced, line)| markdown(path) && !fenced && markdown_mark(line, comments))
        .collect();
    for (line, ((shaped, &example), &markup)) in new
        .lines()
        .zip(shapes.iter_mut().zip(&example).zip(&markup))
    {
        *shaped &= !example && !markup && !notes_removal(line, comments);
        *shaped = *shaped && !rewords_a_line_of(old, line);
    }
    // A lone `...` is no code at all in these languages (a tester's find,
    // 43b-13: Aider writes a REPLACE's `...` as it stands when its SEARCH
    // has none, the lines it stood for deleted, beside a line the edit
    // changes): it says lines are left out wherever they go. Not C, C++ or
    // Rust, whose variadic parameter may stand alone on its line (`    ...`
    // before `);` in pyerrors.h, Xag.h, winapi's extern blocks).
    let brace = path.rsplit_once('.').is_some_and(|(_, ext)| {
        matches!(
            ext.to_ascii_lowercase().as_str(),
            "js" | "jsx"
                | "mjs"
                | "cjs"
                | "ts"
                | "tsx"
                | "mts"
                | "cts"
                | "go"
                | "rs"
                | "java"
                | "kt"
                | "swift"
                | "dart"
                | "cs"
        )
    });
    // A lone `…` (U+2026) is code in no language at all (a tester's find,
    // 43b-12: Aider wrote a REPLACE's `    …` into a Python function, the
    // lines it stood for deleted, called exact); only prose holds it.
    let code = !prose(path);
    let worded = |number: usize, line: &str| {
        !example.get(number).copied().unwrap_or(false)
            && !markup.get(number).copied().unwrap_or(false)
            && (is_placeholder(line, comments)
                || (brace && line.trim() == "...")
                || (code && line.trim() == "\u{2026}"))
            && !held.contains(line.trim())
            && !rewords_a_line_of(old, line)
    };
    // Most texts hold no candidate: `old` is looked at further only for
    // one that does.
    if !new
        .lines()
        .zip(&shapes)
        .enumerate()
        .any(|(number, (line, &shaped))| {
            worded(number, line) || (shaped && !held.contains(line.trim()))
        })
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
    if let Some((number, line)) = new
        .lines()
        .enumerate()
        .find(|&(number, line)| worded(number, line))
    {
        return Some(found(number, line));
    }
    let beside = ellipses_beside_statements(path, new, above);
    let number = Evidence::new(old, new, &shapes, &held, comments).first_stand_in(&beside)?;
    Some(found(number, new.lines().nth(number)?))
}

/// Whether `line` is a line of `old` with a word of it changed: as many
/// words, all but one the same, in order (a whole-file rename of `config`
/// turned `# start second daemon over the same config/base` into `... the
/// same config_r/base`, which was read as a stand-in for the renamed
/// lines: a new user's find). Such a line is the old one, edited, not one
/// written in place of lines.
fn rewords_a_line_of(old: &str, line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() < 3 {
        return false;
    }
    old.lines().any(|kept| {
        let mut other = kept.split_whitespace();
        let mut differ = 0;
        for word in &words {
            match other.next() {
                Some(o) if o == *word => {}
                Some(_) => differ += 1,
                None => return false,
            }
        }
        other.next().is_none() && differ == 1
    })
}

/// Whether `path` names a file of prose, where a line may be a lone `…`:
/// Markdown ([`markdown`]), plain text, reStructuredText, AsciiDoc, Org,
/// LaTeX.
fn prose(path: &str) -> bool {
    let ext = path
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase())
        .unwrap_or_default();
    markdown(path)
        || matches!(
            ext.as_str(),
            "txt" | "text" | "rst" | "adoc" | "asciidoc" | "org" | "tex"
        )
}

/// Whether `path` names a Markdown file (`.md`, `.markdown`, `.mdx`).
fn markdown(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".mdx"]
        .iter()
        .any(|end| lower.ends_with(end))
}

/// Whether `line`, in a Markdown file's text, opens with a mark that is a
/// comment elsewhere but Markdown's own markup there: a heading's `#`, a
/// list item's `*`, anything but an HTML comment's `<!--` (or MDX's `{/*`).
fn markdown_mark(line: &str, comments: Comments) -> bool {
    let line = line.trim();
    comments.opening(line, true).is_some() && !line.starts_with("<!--") && !line.starts_with("{/*")
}

/// For each line of `new`, going below `above` in a Markdown file
/// ([`markdown`]): whether it stands inside a fenced code block (between
/// a fence of three or more backticks or tildes and the fence of the same
/// character, as long or longer, that closes it; the fences themselves
/// are not inside). All false for another file.
fn in_fence(path: &str, above: &str, new: &str) -> Vec<bool> {
    if !markdown(path) {
        return vec![false; new.lines().count()];
    }
    // The open fence: its character and length.
    let mut open: Option<(char, usize)> = None;
    let mut step = |line: &str| -> bool {
        let text = line.trim();
        let mark = text.chars().next().filter(|c| matches!(c, '`' | '~'));
        let run = mark.map_or(0, |c| text.chars().take_while(|&x| x == c).count());
        let inside = open.is_some();
        match (open, mark) {
            // A closing fence holds nothing after its marks.
            (Some((c, length)), Some(m))
                if m == c && run >= length && text.trim_start_matches(c).trim().is_empty() =>
            {
                open = None;
                false
            }
            // A backtick fence's info string holds no backtick (```` ```a```
            // ```` is inline code).
            (None, Some(m))
                if run >= 3 && (m == '~' || !text.trim_start_matches('`').contains('`')) =>
            {
                open = Some((m, run));
                false
            }
            _ => inside,
        }
    };
    for line in above.lines() {
        step(line);
    }
    new.lines().map(step).collect()
}

/// Whether a line says the lines it stands for are kept as they were
/// (`// ... existing code ...`, `# rest of the file unchanged`, `//
/// remains the same`, `# as before`): words about the text before the
/// edit, not about the reader (`// ...`, `# snip`, `// and so on`).
fn says_kept(line: &str) -> bool {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .iter()
        .any(|w| ["unchanged", "unmodified", "existing", "untouched"].contains(w))
        || [
            "as before",
            "the same",
            "rest of the file",
            "as is",
            "as-is",
        ]
        .iter()
        .any(|phrase| lower.contains(phrase))
}

/// Whether `line` is a comment-only line noting that code was removed
/// (`// The /legacy route was removed in v2 (see CHANGELOG).`, `# dropped
/// the retry loop`, `// no longer needed: the cache is gone`): standing
/// where lines go, it says they went, as the model meant, and is no
/// stand-in for lines kept elsewhere. One that also says lines are left as
/// they were (`// removed the check; rest unchanged`, `# ... removed ...`)
/// still stands in ([`is_placeholder`], [`says_left_out`]).
fn notes_removal(line: &str, comments: Comments) -> bool {
    if !plain_note(line, comments) {
        return false;
    }
    let lower = line.to_lowercase();
    lower
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| ["removed", "deleted", "dropped", "retired"].contains(&w))
        || lower.contains("no longer")
}

/// Whether `line` is a comment-only line that says nothing of lines left
/// out or kept as they were ([`is_placeholder`], [`says_left_out`],
/// [`says_kept`], no ellipsis): a note, which may say lines went.
fn plain_note(line: &str, comments: Comments) -> bool {
    is_comment(line, comments)
        && !is_placeholder(line, comments)
        && !says_left_out(line)
        && !says_kept(line)
        && !line.contains("...")
        && !line.contains('\u{2026}')
}

/// Whether `line`, a [`plain_note`], points away from the text: it names
/// another file (`legacy.py`, `./csv.js`, `lib/io`: a word holding a `/`,
/// or a name and an extension of letters) or opens as a task to do (`#
/// TODO: bring back a CSV parser`, `FIXME`, `XXX`). Standing where whole
/// definitions go ([`Evidence::deletes_definitions`]), it says where they
/// went or that they are to come back: they are not kept there (a
/// tester's find, T-06: `# old_api moved to legacy.py` after the function
/// was deleted on purpose was denied as a stand-in, while `# old_api was
/// removed` passed).
fn points_away(line: &str, comments: Comments) -> bool {
    if !plain_note(line, comments) {
        return false;
    }
    let line = line.trim();
    let body = &line[comments.opening(line, false).unwrap_or(0)..];
    let words: Vec<&str> = body
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "()[]{}<>'\"`,;:!?*".contains(c)))
        .filter(|w| !w.is_empty())
        .collect();
    let task = words.first().is_some_and(|w| {
        ["todo", "fixme", "xxx"].contains(&w.trim_end_matches('.').to_lowercase().as_str())
    });
    let file = |word: &str| {
        let word = word.trim_end_matches('.');
        let named = |name: &str| name.chars().any(char::is_alphabetic);
        if word.contains('/') {
            return !word.contains("://") && word.split('/').any(named);
        }
        word.rsplit_once('.').is_some_and(|(stem, ext)| {
            stem.chars().filter(|c| c.is_alphanumeric()).count() >= 2
                && named(stem)
                && (1..=5).contains(&ext.len())
                && ext.chars().all(|c| c.is_ascii_alphanumeric())
                && named(ext)
        })
    };
    task || words.iter().any(|w| file(w))
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
    /// The names `new` defines ([`crate::dialect::placed::defined_name`]).
    new_defined: HashSet<&'a str>,
    /// The file's comment marks.
    comments: Comments,
}

impl<'a> Evidence<'a> {
    fn new(
        old: &'a str,
        new: &'a str,
        shapes: &[bool],
        held: &HashSet<&str>,
        comments: Comments,
    ) -> Self {
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
            new_defined: new_lines
                .iter()
                .filter_map(|l| crate::dialect::placed::defined_name(l.1))
                .collect(),
            new: new_lines,
            comments,
        }
    }

    /// The first line of the new text (its number) that is a candidate
    /// standing alone where a run of the old text's lines disappears (any
    /// run, for a Python `...` beside other statements of its block:
    /// `beside`, by line of the new text, [`ellipses_beside_statements`]),
    /// or the first of the lone ellipses that stand so where fewer lines go
    /// in each place, enough in all (see [`elided`]).
    fn first_stand_in(&self, beside: &[bool]) -> Option<usize> {
        let mut ellipses: Vec<(usize, Run)> = Vec::new();
        for at in (0..self.new.len()).filter(|&at| self.new[at].2) {
            let Some(run) = self.run_at(at) else {
                continue;
            };
            let statement = beside.get(self.new[at].0).copied().unwrap_or(false);
            if run.code
                && (run.lost >= MIN_RUN || (statement && run.lost > 0))
                && !(points_away(self.new[at].1, self.comments)
                    && self.deletes_definitions(run.span))
            {
                return Some(self.new[at].0);
            }
            // Two ellipses side by side stand in one place: counted once.
            if matches!(self.new[at].1, "..." | "\u{2026}")
                && run.lost > 0
                && ellipses.iter().all(|(_, seen)| seen.span != run.span)
            {
                ellipses.push((at, run));
            }
        }
        let lost: usize = ellipses.iter().map(|(_, run)| run.lost).sum();
        let code = ellipses.iter().any(|(_, run)| run.code);
        let (first, _) = ellipses.first()?;
        (ellipses.len() >= 2 && lost >= MIN_RUN && code).then_some(self.new[*first].0)
    }

    /// The run of the old text's lines that disappears where the
    /// candidate at `at` (of the new text's non-blank lines) stands alone;
    /// `None` when it does not stand between lines of the old text.
    fn run_at(&self, at: usize) -> Option<Run> {
        // The nearest lines around it that are not candidates: both must
        // be lines of the old text (else new code stands in that place).
        let before = self.new[..at].iter().rev().find(|l| !l.2);
        let after = self.new[at + 1..].iter().find(|l| !l.2);
        // Where the line before stands in the old text: its k-th
        // occurrence in the new text taken for its k-th in the old (its
        // last when the old text has fewer).
        // A neighbour the model changed (`load(user.id)` sent as
        // `load(user.id, req.query)`, a tester's find, 44-14) stands where
        // the old line it changes stood ([`Evidence::changed_from`]).
        let start = match before {
            None => 0,
            Some(&(_, text, _, rank)) => match self.at_old.get(text) {
                Some(places) => places.get(rank).or(places.last()).map_or(0, |i| i + 1),
                None => self.changed_from(text, 0)? + 1,
            },
        };
        let end = match after {
            None => self.old.len(),
            Some(&(_, text, _, _)) => match self.at_old.get(text) {
                Some(places) => *places.get(places.partition_point(|&i| i < start))?,
                None => self.changed_from(text, start)?,
            },
        };
        // The lines the new text holds nowhere, and whether code is among
        // them (looked at until MIN_RUN lines with code are known).
        let mut run = Run {
            span: (start, end),
            lost: 0,
            code: false,
        };
        for line in self.old[start..end.max(start)]
            .iter()
            .filter(|line| !self.in_new.contains(*line))
        {
            run.lost += 1;
            run.code |= !is_comment(line, self.comments);
            if run.lost >= MIN_RUN && run.code {
                break;
            }
        }
        Some(run)
    }
}

impl Evidence<'_> {
    /// Whether the old text's lines `span` that the new text holds nowhere
    /// open with a definition (decorators, attributes and comments before
    /// it aside: `def old_api(path):`, `export function parseCsv(text) {`)
    /// whose name the new text no longer defines: whole definitions go
    /// there, not some of their lines.
    fn deletes_definitions(&self, (start, end): (usize, usize)) -> bool {
        self.old[start..end.max(start)]
            .iter()
            .filter(|line| !self.in_new.contains(*line))
            .find(|line| {
                !(line.starts_with('@')
                    || line.starts_with("#[")
                    || is_comment(line, self.comments))
            })
            .and_then(|line| crate::dialect::placed::defined_name(line))
            .is_some_and(|name| !self.new_defined.contains(name))
    }

    /// The old line (its index, from `from` on) that the new text's line
    /// `changed`, which the old text does not hold, is a change of: the
    /// most similar of the old lines the new text holds nowhere, when
    /// [`CHANGED_LINE_SIMILARITY`] or more alike (the first of equals).
    /// `None` when none is: the line is new code, and a comment beside it
    /// is no evidence of lines left out.
    fn changed_from(&self, changed: &str, from: usize) -> Option<usize> {
        let mut best: Option<(usize, f64)> = None;
        for (i, line) in self.old.iter().enumerate().skip(from) {
            if self.in_new.contains(line) {
                continue;
            }
            let alike = crate::diagnose::closest::text_similarity(line, changed);
            if alike >= CHANGED_LINE_SIMILARITY && best.is_none_or(|(_, b)| alike > b) {
                best = Some((i, alike));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// How alike (character similarity, 0 to 1) a new line must be to an old
/// one the new text no longer holds to be taken for that line changed.
const CHANGED_LINE_SIMILARITY: f64 = 0.8;

/// The old text's lines that disappear where a candidate stands
/// ([`Evidence::run_at`]).
#[derive(Debug, Clone, Copy)]
struct Run {
    /// The old text's non-blank lines (from, to) around the place.
    span: (usize, usize),
    /// How many of them the new text holds nowhere (counted up to
    /// [`MIN_RUN`] once code is among them).
    lost: usize,
    /// Whether code is among those.
    code: bool,
}

/// For each line of `new`: whether it is shaped as a stand-in
/// ([`stand_in_shaped`]) outside a triple-quoted string (a docstring's
/// lines are text: a doctest's `...`, a `#` in prose).
fn stand_in_shapes(new: &str, comments: Comments) -> Vec<bool> {
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
            !was_in && in_string.is_none() && stand_in_shaped(line, comments)
        })
        .collect()
}

/// Decorators (their name's last part: `@abc.abstractmethod`,
/// `@typing.overload`) of a Python function whose body is declared, not
/// written: `...` is that body.
const DECLARING: [&str; 5] = [
    "abstractmethod",
    "abstractclassmethod",
    "abstractstaticmethod",
    "abstractproperty",
    "overload",
];

/// Bases (their name's last part, type arguments aside) of a Python class
/// whose methods may be declared only (`class Store(Protocol)`,
/// `class Store(abc.ABC)`, `metaclass=ABCMeta`).
const DECLARING_BASES: [&str; 3] = ["Protocol", "ABC", "ABCMeta"];

/// For each line of `new`: whether it is a lone `...` that is the whole
/// body of a Python `def` (its header ending with `:` on the lines just
/// above it, over several lines too; no line of the body after it) that
/// is declared, not written (a tester's find, round 40a, 10: an edit
/// making a method abstract was held as leaving its body out):
/// - the `def` is decorated with [`DECLARING`] (`@abstractmethod`,
///   `@overload`, any module before the name), or
/// - the class it stands in derives from [`DECLARING_BASES`] (`Protocol`,
///   `ABC`, or its metaclass is `ABCMeta`).
///
/// The decorators and the class are looked for in `new`, then in `above`
/// (the file's text above it). A `...` among other lines of a body, after
/// a `def` of another kind or outside a class of those bases stays a
/// candidate stand-in.
fn declared_bodies(new: &str, above: &str) -> Vec<bool> {
    let count = new.lines().count();
    if !new.lines().any(|l| l.trim() == "...") {
        return vec![false; count];
    }
    let above: Vec<&str> = above.lines().collect();
    let all: Vec<&str> = above.iter().copied().chain(new.lines()).collect();
    (0..count)
        .map(|i| all[above.len() + i].trim() == "..." && declared_body(&all, above.len() + i))
        .collect()
}

/// For each line of `new`: whether it is a bare `...` statement of a
/// Python file (not a stub file, `.pyi`) beside another statement of its
/// block, in `new` or in `above` (the file's text above it): a statement
/// at its indentation, up or down, before a line indented less, that is
/// not a comment, a string (a docstring), `pass` or another `...`. Such
/// an Ellipsis does nothing (it is no stub's body): where lines of the old
/// text go, it stands in for them (a helper's find, round 44: Aider writes
/// a REPLACE's `...` as code when its SEARCH has none, and `b = 2` of
/// `a = 1 / b = 2 / c = 3` sent as `a = 10 / ... / c = 30` was deleted,
/// called exact).
fn ellipses_beside_statements(path: &str, new: &str, above: &str) -> Vec<bool> {
    use crate::diagnose::file_kind::FileKind;
    let count = new.lines().count();
    let python = FileKind::of(path, if above.is_empty() { new } else { above }) == FileKind::Python
        && !path.ends_with(".pyi");
    if !python || !new.lines().any(|l| l.trim() == "...") {
        return vec![false; count];
    }
    let all: Vec<&str> = above.lines().chain(new.lines()).collect();
    let strings = in_triple_quotes(&all);
    let statement = |k: usize| {
        let t = all[k].trim();
        !strings[k] && !t.starts_with('#') && !matches!(t, "..." | "pass") && !is_string(t)
    };
    let first = all.len() - count;
    (first..all.len())
        .map(|at| {
            if all[at].trim() != "..." || strings[at] {
                return false;
            }
            let depth = indent(all[at]);
            // Its block's lines up, then down: until one indented less.
            let beside = |ks: &mut dyn Iterator<Item = usize>| {
                ks.filter(|&k| !all[k].trim().is_empty())
                    .take_while(|&k| indent(all[k]) >= depth)
                    .any(|k| indent(all[k]) == depth && statement(k))
            };
            beside(&mut (0..at).rev()) || beside(&mut (at + 1..all.len()))
        })
        .collect()
}

/// For each line of `lines`: whether it is part of a triple-quoted string
/// (its first line, its last, or one between).
fn in_triple_quotes(lines: &[&str]) -> Vec<bool> {
    let mut open: Option<&str> = None;
    lines
        .iter()
        .map(|line| {
            let was_in = open.is_some();
            let mut touched = was_in;
            for quotes in ["\"\"\"", "'''"] {
                if open.is_none_or(|o| o == quotes) && line.contains(quotes) {
                    touched = true;
                    if line.matches(quotes).count() % 2 == 1 {
                        open = match open {
                            Some(_) => None,
                            None => Some(quotes),
                        };
                    }
                }
            }
            touched
        })
        .collect()
}

/// Whether a Python line (trimmed) starts with a string literal, its
/// prefix (`r`, `b`, `f`, `u`, two of them) allowed: a docstring or a
/// string statement, no code that runs.
fn is_string(line: &str) -> bool {
    let body = line.trim_start_matches(['r', 'R', 'b', 'B', 'f', 'F', 'u', 'U']);
    line.len() - body.len() <= 2 && body.starts_with(['"', '\''])
}

/// How deep `line` is indented (spaces and tabs, each one).
fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches([' ', '\t']).len()
}

/// Whether `line` (trimmed) is a `def` or `async def` statement.
fn is_def(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("def ")
        || line
            .strip_prefix("async")
            .is_some_and(|r| r.trim_start().starts_with("def ") && r.starts_with([' ', '\t']))
}

/// [`declared_bodies`] for the lone `...` at `all[at]`.
fn declared_body(all: &[&str], at: usize) -> bool {
    let depth = indent(all[at]);
    let blank = |l: &&str| l.trim().is_empty();
    // The header's last line just above, ending with `:`.
    let Some(last) = (0..at).rev().find(|&k| !blank(&all[k])) else {
        return false;
    };
    if indent(all[last]) >= depth || !all[last].trim_end().ends_with(':') {
        return false;
    }
    // The `def` it ends: the header's other lines are its parameters
    // (deeper) or a closing `)`.
    let Some(header) = (last.saturating_sub(40)..=last)
        .rev()
        .find(|&k| is_def(all[k]) && indent(all[k]) < depth)
    else {
        return false;
    };
    let own = indent(all[header]);
    let between = &all[header + 1..=last];
    if between
        .iter()
        .any(|l| !blank(l) && indent(l) < depth && !l.trim_start().starts_with(')'))
    {
        return false;
    }
    // The whole body: the next line of code is out of it.
    if all[at + 1..]
        .iter()
        .find(|l| !blank(l))
        .is_some_and(|l| indent(l) > own)
    {
        return false;
    }
    // Its decorators, just above it.
    let decorated = all[..header]
        .iter()
        .rev()
        .take_while(|l| l.trim_start().starts_with('@') && indent(l) == own)
        .any(|l| {
            let name = l.trim_start()[1..]
                .split('(')
                .next()
                .unwrap_or_default()
                .trim();
            DECLARING.contains(&name.rsplit('.').next().unwrap_or(name))
        });
    if decorated {
        return true;
    }
    // The class it stands in: the first line above less indented.
    let Some(class) = all[..header]
        .iter()
        .rev()
        .find(|l| !blank(l) && indent(l) < own && !l.trim_start().starts_with('#'))
    else {
        return false;
    };
    let Some(bases) = class
        .trim_start()
        .strip_prefix("class ")
        .and_then(|r| Some(&r[r.find('(')? + 1..r.rfind(')')?]))
    else {
        return false;
    };
    bases.split(',').any(|base| {
        let base = base.rsplit('=').next().unwrap_or(base).trim();
        let base = base.split('[').next().unwrap_or(base).trim();
        DECLARING_BASES.contains(&base.rsplit('.').next().unwrap_or(base))
    })
}

/// A line that can stand in for others: a lone `...` or `…` (Python's
/// Ellipsis, a TypeScript stub's body, a model's "and so on"), a
/// comment-only line ([`is_comment`]), a note in brackets that is code
/// in no language ([`bracketed_note`]: `<existing code>`, `[... rest of
/// the file ...]`, `(rest unchanged)`), or a line of code whose comment
/// after it says lines are left out ([`trailing_placeholder`]: `return s;
/// // rest of the body unchanged`).
pub fn stand_in_shaped(line: &str, comments: Comments) -> bool {
    let line = line.trim();
    matches!(line, "..." | "\u{2026}")
        || is_comment(line, comments)
        || bracketed_note(line)
        || trailing_placeholder(line, comments)
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

/// What must follow a comment's mark for the line to open a comment.
#[derive(Debug, Clone, Copy)]
enum Then {
    /// Anything (`//x`, `%x`).
    Anything,
    /// A space, a tab or the line's end (`-- x`, not `--x`; `* x`, not
    /// `*ptr`; `REM x`, not `REMOVE`).
    Space,
    /// As [`Then::Space`], or the mark again (`# x`, `##x`, not
    /// `#include`, `#[derive]`, `#!`; `; x`, `;;x`).
    SpaceOrAgain,
}

/// A mark that opens a comment (see [`LEADERS`]).
#[derive(Debug)]
struct Leader {
    /// The mark; letters in it match in either case (`REM`, `rem`).
    mark: &'static str,
    /// What must follow it.
    then: Then,
    /// Whether it also opens a comment after code on the same line
    /// (`x = 1  # note`, `s; // note`).
    trails: bool,
    /// The file kinds (extensions, or whole file names, in lower case) in
    /// which it opens a comment; empty: in every file.
    kinds: &'static [&'static str],
}

/// The comment marks srview reads, in one table: those of every file kind
/// (`#`, `//`, `/*`, `<!--`, `--`, `;`, ...), and those that open a comment
/// in some kinds only and are code elsewhere, taken only in a file of
/// that kind (`%`: TeX and LaTeX, MATLAB and Octave, Erlang, Prolog,
/// PostScript, LilyPond; `!`: Fortran; `"`:
/// Vim script, where a Python or shell line starting with `"` is a
/// string; `'`: Visual Basic, VBA, VBScript; `REM`: those and Windows
/// batch files; `::` and `@REM`: batch files). A mark that is the start
/// of another comes after it (`*/` before `*`).
const LEADERS: &[Leader] = &[
    Leader::every("#", Then::SpaceOrAgain, true),
    Leader::every("//", Then::Anything, true),
    Leader::every("/*", Then::Anything, true),
    Leader::every("*/", Then::Anything, false),
    Leader::every("*", Then::Space, false),
    Leader::every("<!--", Then::Anything, true),
    Leader::every("{/*", Then::Anything, false),
    // Template comments (a tester's find, 44-05): Jinja's and Django's
    // `{# ... #}` (a space after it: Svelte's `{#if}` and `{#each}` open
    // blocks), Handlebars' `{{!-- ... --}}`, and its and Mustache's
    // `{{! ... }}` in their own files (Vue's `{{!done}}` is an expression).
    Leader::every("{#", Then::Space, false),
    Leader::every("{{!--", Then::Anything, false),
    Leader::own("{{!", Then::Anything, &["hbs", "handlebars", "mustache"]),
    Leader::every("--", Then::Space, true),
    Leader::every(";", Then::SpaceOrAgain, false),
    Leader {
        mark: "%",
        then: Then::Anything,
        trails: true,
        kinds: &[
            "tex", "sty", "cls", "bib", "bst", "ltx", "dtx", "ins", "tikz", "m", "erl", "hrl",
            "pro", "ps", "eps", "ly", "ily",
        ],
    },
    Leader {
        mark: "!",
        then: Then::Anything,
        trails: true,
        kinds: &["f", "for", "ftn", "f77", "f90", "f95", "f03", "f08"],
    },
    Leader {
        mark: "\"",
        then: Then::Anything,
        trails: false,
        kinds: &["vim", "vimrc", "_vimrc", "gvimrc", "_gvimrc", "exrc"],
    },
    Leader {
        mark: "'",
        then: Then::Anything,
        trails: true,
        kinds: VISUAL_BASIC,
    },
    Leader {
        mark: "rem",
        then: Then::Space,
        trails: false,
        kinds: &["vb", "bas", "vbs", "vba", "frm", "bat", "cmd"],
    },
    Leader {
        mark: "@rem",
        then: Then::Space,
        trails: false,
        kinds: BATCH,
    },
    Leader {
        mark: "::",
        then: Then::Anything,
        trails: false,
        kinds: BATCH,
    },
];

/// Visual Basic, VBA and VBScript files.
const VISUAL_BASIC: &[&str] = &["vb", "bas", "vbs", "vba", "frm"];

/// Windows batch files.
const BATCH: &[&str] = &["bat", "cmd"];

impl Leader {
    /// A mark that opens a comment only in the file kinds `kinds`, and
    /// only at a line's start.
    const fn own(mark: &'static str, then: Then, kinds: &'static [&'static str]) -> Leader {
        Leader {
            mark,
            then,
            trails: false,
            kinds,
        }
    }

    /// A mark that opens a comment in every file kind.
    const fn every(mark: &'static str, then: Then, trails: bool) -> Leader {
        Leader {
            mark,
            then,
            trails,
            kinds: &[],
        }
    }

    /// The length of the mark when `line` opens with it. `loose`: what
    /// follows a mark of signs is not looked at (`#rest of the file
    /// unchanged` says it as `# ...` does); what follows a word is
    /// (`remaining` opens no `REM` comment).
    fn opens(&self, line: &str, loose: bool) -> Option<usize> {
        let n = self.mark.len();
        if !line.get(..n)?.eq_ignore_ascii_case(self.mark) {
            return None;
        }
        let rest = &line[n..];
        let spaced = rest.is_empty() || rest.starts_with([' ', '\t']);
        let word = self.mark.ends_with(|c: char| c.is_ascii_alphabetic());
        let followed = match self.then {
            Then::Anything => true,
            Then::Space => spaced,
            Then::SpaceOrAgain => spaced || rest.starts_with(self.mark),
        };
        (followed || (loose && !word)).then_some(n)
    }
}

/// The comment marks of one file, by its name: those of every kind and
/// those of its own kind ([`LEADERS`]). `Comments::of("")` (a file not
/// named) has the marks of every kind only.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Comments {
    /// Which of [`LEADERS`]' kind-only marks the file's kind has (bit `i`:
    /// `LEADERS[i]`).
    own: u32,
}

impl Comments {
    /// The comment marks of the file `path` (by its extension, or its
    /// whole name: `vimrc`, `_vimrc`; in any case).
    pub fn of(path: &str) -> Comments {
        let name = path
            .rsplit(['/', '\\'])
            .next()
            .unwrap_or(path)
            .to_ascii_lowercase();
        let extension = name.rsplit_once('.').map(|(_, e)| e);
        let own = LEADERS
            .iter()
            .enumerate()
            .filter(|(_, leader)| {
                leader
                    .kinds
                    .iter()
                    .any(|kind| extension == Some(kind) || name == *kind)
            })
            .fold(0, |own, (i, _)| own | 1 << i);
        Comments { own }
    }

    /// The marks that open a comment in this file.
    fn leaders(self) -> impl Iterator<Item = &'static Leader> {
        LEADERS
            .iter()
            .enumerate()
            .filter(move |(i, leader)| leader.kinds.is_empty() || self.own & 1 << i != 0)
            .map(|(_, leader)| leader)
    }

    /// The length of the comment mark `line` (trimmed) opens with, if any
    /// (`loose`: see [`Leader::opens`]).
    fn opening(self, line: &str, loose: bool) -> Option<usize> {
        self.leaders().find_map(|leader| leader.opens(line, loose))
    }

    /// Each place a comment opens after code on `line` (trimmed), after a
    /// space or tab: the code before it (trimmed) and the comment from its
    /// mark on. A mark inside a string may be among them: the callers ask
    /// more of each.
    fn trailing(self, line: &str) -> impl Iterator<Item = (&str, &str)> {
        line.match_indices([' ', '\t']).filter_map(move |(at, _)| {
            let comment = &line[at + 1..];
            self.leaders()
                .filter(|leader| leader.trails)
                .find_map(|leader| leader.opens(comment, false))?;
            let code = line[..at].trim_end();
            (!code.is_empty()).then_some((code, comment))
        })
    }
}

/// A line holding a comment only, by the marks of its file's kind
/// ([`LEADERS`]): `#` followed by a space, another `#` or nothing (not
/// `#include`, `#[derive]`, `#!`), `//`, `/*`, a block comment's `* ` or
/// `*/`, `<!--`, `{/*`, `-- `, `;;` or `; `; in a LaTeX, MATLAB or Erlang
/// file `%`, in Vim script `"`, in Visual Basic `'` or `REM`, in a batch
/// file `REM` or `::`.
pub fn is_comment(line: &str, comments: Comments) -> bool {
    comments.opening(line.trim(), false).is_some()
}

/// A line of code whose comment after it says lines are left out
/// ([`is_placeholder`] of the comment: `return s; // rest of the body
/// unchanged`, `total = 0  # ... existing code ...`). The code before the
/// comment closes its strings (a `//` inside `"a // b"` opens none), and
/// a block comment ends the line (in `{ run(); /* unchanged */ }` it says
/// something of the code around it).
fn trailing_placeholder(line: &str, comments: Comments) -> bool {
    comments.trailing(line).any(|(code, comment)| {
        let closed = [("/*", "*/"), ("<!--", "-->")]
            .iter()
            .all(|(open, close)| !comment.starts_with(open) || comment.ends_with(close));
        closed
            && code.matches('"').count() % 2 == 0
            && code.matches('`').count() % 2 == 0
            && is_placeholder(comment, comments)
    })
}

/// The text inside a one-line docstring, or after the quotes opening one
/// (`"""... existing methods unchanged ..."""`), if `line` (trimmed) is
/// one.
fn docstring(line: &str) -> Option<&str> {
    ["\"\"\"", "'''"].iter().find_map(|quotes| {
        let rest = line.strip_prefix(quotes)?;
        Some(rest.strip_suffix(quotes).unwrap_or(rest))
    })
}

/// Whether a line stands for lines left out: a comment (by its file's
/// marks, [`Comments`]) or a docstring opening with an ellipsis (`#
/// ...`, `// ... existing code ...`, `/* … */`, `<!-- ... -->`, `% ...
/// existing items ...` in LaTeX, `"""... existing methods unchanged
/// ..."""`, `(...)`), one naming what it leaves out beside an ellipsis
/// (`(rest of methods ...)`, `// unchanged ...`), a short comment saying
/// so without one (`# Rest of the file remains unchanged`, `# existing
/// code`, `// [unchanged]`, `# (remaining functions unchanged)`, `#
/// [omitted for brevity]`, `REM rest of the script unchanged` in a batch
/// file), or a stub saying so ([`stub_saying_left_out`]). A bare `...` is
/// code (Python's Ellipsis, a spread), not a placeholder, and so is a
/// string (`"... existing code ..."` in Python). Only a write that also
/// loses lines of the file is doubted ([`elided`]): a real comment saying
/// "unchanged" costs a question at most.
pub fn is_placeholder(line: &str, comments: Comments) -> bool {
    let line = line.trim();
    if stub_saying_left_out(line, comments) {
        return true;
    }
    let opened = comments
        .opening(line, true)
        .map(|n| &line[n..])
        .or_else(|| docstring(line));
    let comment = opened.is_some();
    let bare = opened
        .unwrap_or(line)
        .trim_start_matches(['#', '/', '*', '-', ';', '<', '!', '('])
        .trim_start();
    let commented = bare.len() < line.len();
    let ellipsis = bare.contains("...") || bare.contains('\u{2026}');
    let opens = bare.starts_with("...") || bare.starts_with('\u{2026}');
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

/// The statements that stand for a body not written: Python's `pass`,
/// `...` and `raise NotImplementedError`, Rust's `todo!()` and
/// `unimplemented!()`, JavaScript's `throw new Error("not implemented")`
/// (letters in either case; a `;` or `}` after them is not looked at).
const STUBS: &[&str] = &[
    "pass",
    "...",
    "\u{2026}",
    "raise NotImplementedError",
    "raise NotImplementedError()",
    "todo!()",
    "unimplemented!()",
    "throw new Error(\"not implemented\")",
    "throw new Error('not implemented')",
];

/// Whether `code` (trimmed) ends with a stub ([`STUBS`]) standing alone:
/// nothing before it, or a `:`, `{` or white space (`def f(): pass`,
/// `fn f() { todo!() }`).
fn is_stub(code: &str) -> bool {
    let code = code.trim_end_matches([';', '}', ' ', '\t']);
    STUBS.iter().any(|stub| {
        let Some(at) = code.len().checked_sub(stub.len()) else {
            return false;
        };
        code.get(at..)
            .is_some_and(|end| end.eq_ignore_ascii_case(stub))
            && (at == 0 || code[..at].ends_with([' ', '\t', ':', '{']))
    })
}

/// Whether `line` (trimmed) is an empty body whose comment says the code
/// it stands for is left out: a stub ([`STUBS`]: `pass`, `...`, `raise
/// NotImplementedError`, `todo!()`, ..., alone or after a `:` or `{`) with
/// such a comment after it (`pass  # unchanged`, `pass  # ... existing
/// code ...`, `...  # existing implementation`, `def total(self): pass  #
/// unchanged`, `raise NotImplementedError  # existing implementation`,
/// `todo!() // existing body unchanged`), or braces around nothing but
/// such a block comment (`total(items) { /* ... existing code ... */ }`).
/// A body written so keeps nothing (a tester's find: `pass  # unchanged`
/// passed where `...  # unchanged` was a doubt). A stub with another
/// comment (`pass  # TODO`, `pass  # nothing to clean up`) is not.
fn stub_saying_left_out(line: &str, comments: Comments) -> bool {
    if let Some(open) = line.find("/*")
        && let Some(length) = line[open..].find("*/")
    {
        let (before, after) = (&line[..open], &line[open + length + 2..]);
        return before.trim_end().ends_with('{')
            && after.trim_start().starts_with('}')
            && says_left_out(&line[open + 2..open + length]);
    }
    comments
        .trailing(line)
        .any(|(code, comment)| is_stub(code) && says_left_out(comment))
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

    use super::{elided, elided_under, in_fence};

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
            let found =
                elided("fetch.py", OLD, &new).unwrap_or_else(|| panic!("{comment}: not asked"));
            assert_eq!(
                (found.line, found.placeholder.as_str(), found.lost),
                (3, comment, 3)
            );
        }
        let beside_code = "def fetch(url):\n    resp = get(url)\n    # retry with backoff (was three lines of sleep)\n    resp = retry(resp, backoff=2)\n    return resp\n";
        assert_eq!(elided("fetch.py", OLD, beside_code), None);
        // Where one or two lines go, a comment is an ordinary edit.
        let two = "def fetch(url):\n    resp = get(url)\n    # one sleep is enough\n    time.sleep(4)\n    return resp\n";
        assert_eq!(elided("fetch.py", OLD, two), None);
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
            "raise NotImplementedError  # existing implementation",
            "raise NotImplementedError()  # unchanged",
            "todo!() // existing body unchanged",
            "fn fetch() { unimplemented!() } // rest of the body as before",
            "throw new Error(\"not implemented\"); // existing code",
        ] {
            let new = format!("def fetch(url):\n    {stub}\n");
            let found =
                elided("fetch.py", OLD, &new).unwrap_or_else(|| panic!("{stub}: not asked"));
            assert_eq!((found.line, found.placeholder.as_str()), (2, stub));
        }
        for stub in [
            "pass  # TODO",
            "pass  # nothing to clean up",
            "pass  # existing users keep their rows",
            "log(\"# unchanged\")  # pass",
            "fetch(url) { /* TODO */ }",
            "fetch(url) { run(); /* unchanged */ }",
            "raise NotImplementedError  # subclasses override this",
            "todo!() // parse the header next",
            "compass  # existing users keep their rows",
        ] {
            let new =
                format!("def fetch(url):\n    resp = get(url)\n    {stub}\n    return resp\n");
            assert_eq!(elided("fetch.py", OLD, &new), None, "{stub}");
        }
        let kept = format!("{OLD}    pass  # unchanged\n");
        assert_eq!(elided("fetch.py", OLD, &kept), None);
    }

    /// `lines`, each ending in a newline.
    fn text(lines: &[&str]) -> String {
        lines.iter().map(|line| format!("{line}\n")).collect()
    }

    /// A comment in the marks of a file's own kind (`%` in LaTeX, MATLAB
    /// and Erlang, `"` in Vim script, `'` and `REM` in Visual Basic, `REM`,
    /// `@REM` and `::` in a batch file) stands in as a `#` comment does (a
    /// tester's find: `% ... existing items ...` deleted four `\item`s and
    /// was called exact), after new code by its wording, alone by where it
    /// stands. In a file of another kind the same line is code (a Python
    /// string, a format continuation) and is not.
    #[test]
    fn a_comment_in_its_files_own_marks_stands_in() {
        let old = text(&["a = 1;", "b = 2;", "c = 3;", "d = 4;"]);
        for (path, comment) in [
            ("d.tex", "% ... existing items ..."),
            ("f.m", "% ... rest unchanged ..."),
            ("f.erl", "%% rest of the module unchanged"),
            ("f.f90", "! ... existing code ..."),
            ("f.vim", "\" ... rest unchanged ..."),
            ("/home/u/.vimrc", "\" ... rest unchanged ..."),
            ("f.bas", "' ... rest unchanged ..."),
            ("F.VB", "Rem Rest of the module unchanged"),
            ("f.bat", "REM ... rest unchanged ..."),
            ("f.cmd", ":: ... existing steps ..."),
            ("f.bat", "@rem the rest of the script remains the same"),
        ] {
            let new = text(&["a = 9;", comment]);
            let found = elided(path, &old, &new).unwrap_or_else(|| panic!("{path} [{comment}]"));
            assert_eq!(
                (found.line, found.placeholder.as_str(), found.lost),
                (2, comment, 4),
                "{path}"
            );
            let mark = comment.split(' ').next().unwrap_or_default();
            let alone = text(&[&format!("{mark} the other lines")]);
            assert!(elided(path, &old, &alone).is_some(), "{path} [{alone}]");
        }
        for (path, line) in [
            ("f.py", "\"... rest unchanged ...\""),
            ("f.py", "' ... rest unchanged ...'"),
            ("f.py", "% ... rest unchanged ..."),
            ("f.rs", "! the other lines"),
            ("f.sh", "\" ... rest unchanged ...\""),
            ("f.bat", "REMAINING=rest of the file unchanged"),
            ("f.vb", "remaining = \"the others are unchanged\""),
        ] {
            let new = text(&["a = 9;", line]);
            assert_eq!(elided(path, &old, &new), None, "{path} [{line}]");
            assert_eq!(elided(path, &old, &text(&[line])), None, "{path} [{line}]");
        }
    }

    /// A one-line docstring saying the code is left out stands in as the
    /// comment would (a tester's find: `"""... existing methods unchanged
    /// ..."""` deleted three methods); a docstring that says what the code
    /// does is not a stand-in.
    #[test]
    fn a_docstring_saying_the_code_is_left_out_stands_in() {
        let old = text(&[
            "class Cart:",
            "    def add(self, x):",
            "        self.items.append(x)",
            "",
            "    def remove(self, x):",
            "        self.items.remove(x)",
        ]);
        let with = |doc: &str| {
            text(&[
                "class Cart:",
                &format!("    {doc}"),
                "",
                "    def clear(self):",
                "        self.items = []",
            ])
        };
        for doc in [
            "\"\"\"... existing methods unchanged ...\"\"\"",
            "'''... rest of the class ...'''",
            "\"\"\"Existing methods unchanged.\"\"\"",
        ] {
            let found = elided("c.py", &old, &with(doc)).unwrap_or_else(|| panic!("{doc}"));
            assert_eq!(
                (found.line, found.placeholder.as_str(), found.lost),
                (2, doc, 4)
            );
        }
        let documented = with("\"\"\"A cart: items added and removed.\"\"\"");
        assert_eq!(elided("c.py", &old, &documented), None);
    }

    /// A line of code whose comment after it says lines are left out stands
    /// in where a run of lines goes, as a comment-only line does (a
    /// tester's find: `return s; // rest of the body unchanged` for four
    /// lines); where one line goes it is an ordinary edit, and a `//` or
    /// `#` inside a string opens no comment.
    #[test]
    fn code_with_a_comment_saying_the_rest_is_left_out_stands_in() {
        let old = text(&[
            "function add(a, b) {",
            "  const s = a + b;",
            "  log(s);",
            "  check(s);",
            "  return s;",
            "}",
        ]);
        for line in [
            "  return s; // rest of the body unchanged",
            "  return s; /* ... existing code ... */",
            "  const s = a + b;  // ... rest unchanged",
        ] {
            let new = text(&["function add(a, b) {", line, "}"]);
            let found = elided("a.js", &old, &new).unwrap_or_else(|| panic!("{line}"));
            assert_eq!((found.line, found.placeholder.as_str()), (2, line.trim()));
        }
        let strings = [
            "  const url = \"http://x // rest of it unchanged\";",
            "  log(\"# ... rest unchanged ...\");",
        ];
        for line in strings.iter().chain(&["  return s; // unchanged"]) {
            // One line goes: `check(s);`.
            let new = text(&[
                "function add(a, b) {",
                "  const s = a + b;",
                "  log(s);",
                line,
                "  return s;",
                "}",
            ]);
            assert_eq!(elided("a.js", &old, &new), None, "{line}");
        }
        for line in strings {
            let new = text(&["function add(a, b) {", line, "}"]);
            assert_eq!(elided("a.js", &old, &new), None, "{line}");
        }
    }

    /// A lone `...` standing where lines go in several places, fewer than
    /// [`super::MIN_RUN`] in each and more in all, stands in (a tester's
    /// find: two method bodies each cut to their first line and a `...`);
    /// one such place, or places losing fewer lines in all, do not.
    #[test]
    fn a_lone_ellipsis_repeated_where_lines_go_stands_in() {
        let add = [
            "    def add(self, x):",
            "        self.items.append(x)",
            "        self.count += 1",
            "        self.log(x)",
            "",
        ];
        let remove = [
            "    def remove(self, x):",
            "        self.items.remove(x)",
            "        self.count -= 1",
            "        self.log(x)",
        ];
        let old = text(&[&add[..], &remove[..]].concat());
        let cut = |body: &[&'static str], keep: usize| {
            let mut lines = body[..keep].to_vec();
            lines.push("        ...");
            lines
        };
        let new = text(&[cut(&add, 2), vec![""], cut(&remove, 2)].concat());
        let found = elided("d.py", &old, &new).expect("a stand-in");
        assert_eq!(
            (found.line, found.placeholder.as_str(), found.lost),
            (3, "...", 4)
        );
        // One place: two lines go; two places, one line each: too few
        // for a lone `...` by position alone (in a text file), but in
        // Python each `...` stands beside a statement of its body, where
        // it does nothing: it stands in ([`ellipses_beside_statements`]).
        let once = text(&[cut(&add, 2), vec![""], remove.to_vec()].concat());
        let ones = text(&[cut(&add, 3), vec![""], cut(&remove, 3)].concat());
        for (new, python) in [(&once, (3, 2)), (&ones, (4, 2))] {
            assert_eq!(elided("d.txt", &old, new), None);
            let found = elided("d.py", &old, new).expect("a stand-in beside a statement");
            assert_eq!((found.line, found.lost), python);
        }
    }

    /// A bare `...` beside another statement of its Python block does
    /// nothing: where lines of the old text go, it stands in for them (a
    /// helper's find, round 44: Aider wrote `a = 10 / ... / c = 30` over
    /// `a = 1 / b = 2 / c = 3` as sent, `b = 2` deleted). A `...` that is
    /// a body alone, beside a docstring, a comment or `pass` only, inside a
    /// docstring, in a stub file, or where no line goes is none.
    #[test]
    fn a_python_ellipsis_beside_a_statement_stands_in_where_lines_go() {
        let (old, new) = (
            "def f():\n    a = 1\n    b = 2\n    c = 3\n    return a\n",
            "def f():\n    a = 10\n    ...\n    c = 30\n    return a\n",
        );
        assert_eq!(
            elided("a.py", old, new),
            Some(super::Elided {
                line: 3,
                placeholder: "...".into(),
                lost: 3
            })
        );
        // Its siblings in the file above the edit count too.
        assert_eq!(
            elided_under(
                "a.py",
                "    b = 2\n    c = 3\n",
                "    ...\n",
                "def f():\n    a = 1\n"
            )
            .map(|e| e.line),
            Some(1)
        );
        assert_eq!(elided("a.pyi", old, new), None);
        for new in [
            "def f():\n    ...\n",
            "def f():\n    \"\"\"Sum them.\n\n    a = 1\n    \"\"\"\n    ...\n",
            "def f():\n    # left for later\n    pass\n    ...\n",
            "def f():\n    \"\"\"Sum.\n    ...\n    \"\"\"\n    return a\n",
        ] {
            assert_eq!(
                elided("a.py", "def f():\n    a = 1\n    return a\n", new),
                None,
                "{new}"
            );
        }
        // Where no line of the old text goes: an added `...` changes nothing.
        let kept = "def f():\n    a = 1\n    b = 2\n    ...\n    c = 3\n    return a\n";
        assert_eq!(elided("a.py", old, kept), None);
    }

    /// The method the edits below turn into a declaration.
    const GET: &str = "    def get(self, key: str) -> bytes:\n        data = self._db.read(key)\n        self._hits += 1\n        log(key)\n        return data\n";

    /// A tester's find (round 40a, 10): `...` as the whole body of a method
    /// made abstract, an overload or a `Protocol`'s member is its body, not
    /// a stand-in for the lines it replaces: told by the decorator the new
    /// text gives (any module before its name) or by the class's bases in
    /// the file above the edit (any module, type arguments, a metaclass).
    #[test]
    fn an_ellipsis_that_is_a_declared_body_stands_in_for_nothing() {
        let body = "    def get(self, key: str) -> bytes:\n        ...\n";
        for decorator in [
            "@abstractmethod",
            "@abc.abstractmethod",
            "@typing.overload",
            "@overload",
            "@abstractclassmethod",
        ] {
            let new = format!("    {decorator}\n{body}");
            assert_eq!(
                super::elided_under("s.py", GET, &new, ""),
                None,
                "{decorator}"
            );
        }
        for class in [
            "class Store(Protocol):",
            "class Store(typing.Protocol[K]):",
            "class Store(Base, ABC):",
            "class Store(abc.ABC):",
            "class Store(metaclass=ABCMeta):",
        ] {
            let above = format!(
                "import abc\n\n\n{class}\n    \"\"\"A store.\"\"\"\n\n    def put(self):\n        pass\n\n"
            );
            assert_eq!(
                super::elided_under("s.py", GET, body, &above),
                None,
                "{class}"
            );
            // The whole file written: the class in the new text.
            let (old, new) = (format!("{above}{GET}"), format!("{above}{body}"));
            assert_eq!(elided("s.py", &old, &new), None, "{class}");
        }
        // A header over several lines, `async def`, a decorator above the
        // edit (in the file).
        let long =
            "    async def get(\n        self,\n        key: str,\n    ) -> bytes:\n        ...\n";
        assert_eq!(
            super::elided_under("s.py", GET, long, "class S(Protocol):\n"),
            None
        );
        let above = "class S:\n    @overload\n";
        assert_eq!(super::elided_under("s.py", GET, body, above), None);
    }

    /// What still stands in beside the declared bodies: a `...` in a plain
    /// class, after another decorator, among kept lines of the body, or
    /// with body lines after it; a comment saying lines are left out.
    #[test]
    fn an_ellipsis_that_cuts_a_body_still_stands_in() {
        let plain = "class Store(Base):\n";
        let protocol = "class Store(Protocol):\n";
        let cases: &[(&str, &str, &str)] = &[
            (
                plain,
                "    def get(self, key: str) -> bytes:\n        ...\n",
                "...",
            ),
            (
                plain,
                "    @property\n    def get(self, key: str) -> bytes:\n        ...\n",
                "...",
            ),
            (
                protocol,
                "    def get(self, key: str) -> bytes:\n        data = self._db.read(key)\n        ...\n",
                "...",
            ),
            (
                protocol,
                "    @abstractmethod\n    def get(self, key: str) -> bytes:\n        ...\n        return data\n",
                "...",
            ),
            (
                protocol,
                "    @abstractmethod\n    def get(self, key: str) -> bytes:\n        # ... rest unchanged\n",
                "# ... rest unchanged",
            ),
            // A function at the top level, below a Protocol, is not its
            // member.
            (
                protocol,
                "def get(self, key: str) -> bytes:\n    ...\n",
                "...",
            ),
        ];
        for &(above, new, placeholder) in cases {
            let found = super::elided_under("s.py", GET, new, above);
            assert_eq!(
                found.map(|f| f.placeholder),
                Some(placeholder.to_string()),
                "{above}{new}"
            );
        }
    }

    /// The body of a README's fenced example, its first line kept.
    const EXAMPLE: &str = "    trace!(\"Commencing yak shaving\");\n\n    loop {\n        let yak = find_a_yak();\n        shave(yak);\n        info!(\"Shaved a yak\");\n    }\n}\n```\n";

    /// A tester's find (42b-03): a README's code example cut to `// ...`
    /// is the example shortened, text shown to readers, in every form an
    /// elision takes there (`// ...`, `# ...`, `...`, `// snip`); the same
    /// line saying its lines are kept as they were (`// ... existing code
    /// ...`) still stands in. Outside a fence, or in a `.rs` file, `//
    /// ...` stands in as before.
    #[test]
    fn a_markdown_code_example_shortened_is_no_stand_in() {
        let above = "# log\n\n```rust\nuse log::{info, trace};\n\nfn main() {\n";
        for cut in [
            "    // ...",
            "    # ...",
            "    ...",
            "    // snip",
            "    \u{2026}",
        ] {
            let new = format!("    trace!(\"Commencing yak shaving\");\n{cut}\n}}\n```\n");
            for path in ["README.md", "docs/guide.markdown", "page.MDX"] {
                assert_eq!(
                    elided_under(path, EXAMPLE, &new, above),
                    None,
                    "{path} {cut}"
                );
            }
            // In Rust source, the same lines are lost code.
            let rust = elided_under("main.rs", EXAMPLE, &new, above);
            assert_eq!(
                rust.map(|f| f.placeholder),
                Some(cut.trim().to_string()),
                "{cut}"
            );
        }
        // Said to be kept as it was: a stand-in, in Markdown too.
        for kept in [
            "    // ... existing code ...",
            "    // rest of the file unchanged",
        ] {
            let new = format!("    trace!(\"Commencing yak shaving\");\n{kept}\n}}\n```\n");
            let found = elided_under("README.md", EXAMPLE, &new, above);
            assert_eq!(found.map(|f| f.line), Some(2), "{kept}");
        }
        // Outside a fence (the fence closed above), `...` where the
        // README's lines go stands in.
        let closed = format!("{above}}}\n```\n\n");
        let prose = "Install it.\n\nRun it.\n\nConfigure it.\n\nShip it.\n";
        let found = elided_under("README.md", prose, "Install it.\n\n...\n", &closed);
        assert_eq!(found.map(|f| f.lost), Some(3));
        // A whole-file write: the fences are read in the new content.
        let file = format!("{above}{EXAMPLE}\nMore.\n");
        let written = format!("{above}    trace!(\"go\");\n    // ...\n}}\n```\n\nMore.\n");
        assert_eq!(elided("README.md", &file, &written), None);
        // Tilde fences and a longer closing fence are read too; a line of
        // three backticks inside a four-backtick fence does not close it.
        let fences = |text: &str| in_fence("a.md", "", text);
        assert_eq!(
            fences("~~~py\nx\n~~~~\ny\n````\n```\nz\n````\nw\n"),
            [false, true, false, false, false, true, true, false, false]
        );
        assert_eq!(fences("```a``` b\nx\n"), [false, false]);
        assert_eq!(in_fence("a.rs", "```\n", "x\n"), [false]);
    }

    /// A tester's find (42a-13): a block deleted with a one-line note
    /// saying it was removed is the deletion the model meant, not a
    /// stand-in; a note that also says lines are kept as they were, or
    /// opens with an ellipsis, still stands in, and so does a comment
    /// saying nothing of a removal (`# retry with backoff`, above).
    #[test]
    fn a_note_saying_the_lines_were_removed_is_no_stand_in() {
        let old = "  if (path === \"/legacy\") {\n    console.warn(\"legacy route\");\n    return \"legacy\";\n  }\n";
        for note in [
            "// The /legacy route was removed in v2 (see CHANGELOG).",
            "// legacy route deleted",
            "// Dropped the legacy route: no longer served.",
            "/* legacy handler retired */",
        ] {
            let new = format!("  {note}\n");
            assert_eq!(elided("app.ts", old, &new), None, "{note}");
        }
        for note in [
            "// legacy route removed; other routes unchanged",
            "// ... legacy route removed ...",
            "// removed for brevity",
            "// legacy route removed, rest of the routes as before",
            "// legacy route",
        ] {
            let new = format!("  {note}\n");
            let found = elided("app.ts", old, &new);
            assert_eq!(
                found.map(|f| f.placeholder),
                Some(note.to_string()),
                "{note}"
            );
        }
    }

    /// The tester's find (T-06): a whole function deleted on purpose and a
    /// note left pointing elsewhere (to the file it moved to, as a task to
    /// bring it back) is no stand-in, as a note saying it was removed is
    /// not; the same notes where only some of a function's lines go, a
    /// note naming nothing elsewhere, and one saying the lines are kept
    /// still stand in.
    #[test]
    fn a_note_pointing_elsewhere_for_a_deleted_definition_is_no_stand_in() {
        let py = "def old_api(path):\n    data = load(path)\n    data = data.strip()\n    parts = data.split(\",\")\n    return [p.strip() for p in parts]\n";
        for note in [
            "# old_api moved to legacy.py (import it from there)",
            "# TODO: bring back a CSV parser once the format settles",
            "# NOTE: old_api now lives in legacy.py",
            "# old_api: see legacy.py",
            "# FIXME restore once lib/csv lands",
        ] {
            assert_eq!(elided("app.py", py, &format!("{note}\n")), None, "{note}");
        }
        let decorated = format!("@cache\n{py}");
        let note = "# old_api moved to legacy.py\n";
        assert_eq!(elided("app.py", &decorated, note), None);
        let js = "export function parseCsv(text) {\n  const rows = text.split(\"\\n\");\n  const cells = rows.map((r) => r.split(\",\"));\n  return cells;\n}\n";
        assert_eq!(
            elided("util.js", js, "// parseCsv moved to ./csv.js\n"),
            None
        );
        // Still stand-ins: the body goes and the header stays (the name
        // still defined), a note naming nothing elsewhere, a note saying
        // the lines are kept, a version number that is no file.
        for new in [
            "def old_api(path):\n    # TODO: see legacy.py\n",
            "# old_api helpers\n",
            "# old_api: rest as in legacy.py, unchanged\n",
            "# old_api is v2.0 now\n",
        ] {
            assert!(elided("app.py", py, new).is_some(), "{new}");
        }
        assert!(elided("util.js", js, "// parseCsv: see ./csv.js ...\n").is_some());
    }

    /// Outside its fenced code, a Markdown file's `#` line is a heading
    /// and its `* ` line a list item (a tester's find: a section retitled
    /// `## Configuration`, its body dropped, was called a stand-in); an
    /// HTML comment, a lone `...` and a fenced `# ...` still stand in.
    #[test]
    fn a_markdown_heading_or_item_is_no_stand_in() {
        let old = "# mytool\n\n## Legacy configuration\n\nSet MYTOOL_HOME.\nThen run init.\nThis writes rc.\n\n## Usage\n";
        for (heading, lost) in [
            ("## Configuration", 4),
            ("# Notes", 4),
            ("* Configure it", 4),
        ] {
            let new = format!("# mytool\n\n{heading}\n\n## Usage\n");
            assert_eq!(elided("README.md", old, &new), None, "{heading}");
            // The same lines in Python are comments standing in.
            let py = elided("a.py", old, &new);
            assert_eq!(py.map(|f| f.lost), Some(lost), "{heading}");
        }
        for (stand_in, line) in [
            ("<!-- ... rest unchanged ... -->", 3),
            ("...", 3),
            ("```sh\n# ... rest unchanged ...\n```", 4),
        ] {
            let new = format!("# mytool\n\n{stand_in}\n\n## Usage\n");
            let found = elided("README.md", old, &new);
            assert_eq!(found.map(|f| f.line), Some(line), "{stand_in}");
        }
    }

    /// A tester's find (43b-13): a lone `...` in a brace language's new
    /// text, beside a line the edit changes, where lines go: a stand-in (no
    /// code there); in Python, where `...` is code (a stub), by a rule of
    /// its own (`a_python_ellipsis_beside_a_statement_stands_in_where_lines_go`).
    #[test]
    fn a_lone_ellipsis_in_a_brace_language_is_a_stand_in() {
        let old = "  const y = x + 1;\n  log(y);\n  audit(y);\n  notify(y);\n  return y;\n";
        let new = "  const y = x + 2;\n...\n  return y;\n";
        let found = elided("b.js", old, new).expect("a stand-in");
        assert_eq!((found.line, found.placeholder.as_str()), (2, "..."));
        assert_eq!(
            elided("b.ts", old, &new.replace("...", "\u{2026}")).map(|e| e.line),
            Some(2)
        );
        // C's variadic parameter may stand alone on its line: not read so
        // by its wording; where fewer than MIN_RUN lines go, no stand-in.
        let two = "  const y = x + 1;\n  log(y);\n  audit(y);\n  return y;\n";
        assert_eq!(elided("b.js", two, new).map(|e| e.line), Some(2));
        assert_eq!(elided("b.h", two, new), None);
        // Where three go, beside the line the edit changes, the evidence
        // rule reads it in C too (a tester's find, 44-14).
        assert_eq!(elided("b.h", old, new).map(|e| e.line), Some(2));
        // The `...` the old text holds already (a spread's line kept) is none.
        assert_eq!(
            elided("b.js", &format!("...\n{old}"), &format!("...\n{old}")),
            None
        );
    }

    /// A tester's find (43b-12): a lone `…` (U+2026) beside a line the
    /// edit changes, where lines go, is a stand-in in any code (Python's,
    /// C's too: it is code in no language); a line of prose may be one.
    #[test]
    fn a_lone_unicode_ellipsis_in_code_is_a_stand_in() {
        let old = "    a = 1\n    b = 2\n    c = 3\n";
        let new = "    a = 10\n    \u{2026}\n    c = 30\n";
        for path in ["a.py", "a.c", "a.rb", "Makefile"] {
            let found = elided(path, old, new).expect(path);
            assert_eq!((found.line, found.placeholder.as_str()), (2, "\u{2026}"));
        }
        assert_eq!(elided("notes.txt", old, new), None);
        assert_eq!(elided("notes.md", old, new), None);
        // Python's `...` is code (a stub's body), but beside other
        // statements it does nothing: a stand-in by its own rule
        // ([`ellipses_beside_statements`]); not in a C file (a variadic
        // parameter's line).
        let dots = new.replace('\u{2026}', "...");
        assert_eq!(elided("a.py", old, &dots).map(|e| e.line), Some(2));
        assert_eq!(elided("a.c", old, &dots), None);
    }

    /// A tester's find (44-14): a comment beside a line the model changed
    /// (the old line it changes found by likeness) stands in for the
    /// lines between; beside a line of new code, it is no evidence.
    #[test]
    fn a_comment_beside_a_changed_line_stands_in_for_the_lines_between() {
        let old = "  const user = auth(req);\n  if (!user) {\n    return;\n  }\n  const data = load(user.id);\n  res.json(data);\n";
        let new =
            "  // (same as before)\n  const data = load(user.id, req.query);\n  res.json(data);\n";
        let found = elided("svc.js", old, new).expect("a stand-in");
        assert_eq!((found.line, found.lost), (1, 5));
        // The same with the changed line above the comment.
        let above = "  const user = auth(req, opts);\n  // etc.\n";
        let old_above =
            "  const user = auth(req);\n  if (!user) {\n    return;\n  }\n  log(user);\n";
        assert_eq!(elided("svc.js", old_above, above).map(|e| e.line), Some(2));
        // New code (like no old line) below the comment: none.
        let rewrite = "  // one call for all\n  const [a, b, c] = fAll([x, y, z]);\n";
        let old_calls = "  const a = f(x);\n  const b = f(y);\n  const c = f(z);\n";
        assert_eq!(elided("g.js", old_calls, rewrite), None);
    }

    /// A tester's find (44-05): Jinja's and Django's `{# #}`, Handlebars'
    /// `{{!-- --}}` and `{{! }}` are comments; Svelte's `{#each}` and
    /// Vue's `{{!done}}` are not.
    #[test]
    fn template_comments_are_read() {
        let html = super::Comments::of("p.html");
        let hbs = super::Comments::of("p.hbs");
        assert!(super::is_comment("{# ... #}", html));
        assert!(super::is_comment("{{!-- note --}}", html));
        assert!(super::is_comment("{{! note }}", hbs));
        assert!(!super::is_comment(
            "{#each items as item}",
            super::Comments::of("L.svelte")
        ));
        assert!(!super::is_comment(
            "{{!done}}",
            super::Comments::of("A.vue")
        ));
        assert!(super::is_placeholder(
            "{# ... rest of the template unchanged ... #}",
            html
        ));
    }

    /// A new user's find (session 51): a whole-file rename of `config`
    /// changed the comment `# start second daemon over the same
    /// config/base`, whose "the same" read as a stand-in for the 78 renamed
    /// lines. A comment that is a line of the old text with one word
    /// changed is that line, edited; the same comment written in place of
    /// lines still stands in.
    #[test]
    fn a_comment_with_one_word_renamed_is_no_stand_in() {
        let old = "daemon_start ${config} size\n\n# start second daemon over the same config/base\nfailed=`perf daemon start --config ${config}`\necho ${config}\n";
        let new = old.replace("config", "config_r");
        assert_eq!(elided_under("d.sh", old, &new, ""), None);
        let cut =
            "daemon_start ${config} size\n\n# start second daemon over the same config/base\n";
        assert!(elided_under("d.sh", old, cut, "").is_none());
        let stand_in = "daemon_start ${config} size\n\n# ... the rest is the same ...\n";
        assert_eq!(
            elided_under("d.sh", old, stand_in, "").map(|e| (e.line, e.lost)),
            Some((3, 3))
        );
    }
}
