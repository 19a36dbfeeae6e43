//! *Pure.* An edit whose new text ends with the lines that already follow
//! the text it replaces (or begins with the lines that already precede
//! it), which its old text does not account for: written, those lines
//! appear twice (an extra `}`, a repeated `return`). A tester's find: the
//! commonest shape of a model's string-replace slip, and every agent
//! writes it as an exact edit.
//!
//! The rule, chosen so that an edit which closes a block it opens is not
//! doubted:
//! - the new text's last `k` non-blank lines equal, byte for byte (their
//!   indentation included), the first `k` non-blank lines after the
//!   replaced text (`k` as large as it goes), and the old text's last
//!   non-blank line is not the new text's last one (else the edit rewrites
//!   those lines itself, and the ones after are others); the same at the
//!   start, with the lines before the replaced text;
//! - and the repeated lines are substantive (a line holding a letter or a
//!   digit: `return x`, `else:`, `@cache`), or they are closing or
//!   opening punctuation alone (`}`, `)`, `});`) and the edit leaves the
//!   brackets less balanced than its old text did, in their direction (the
//!   new text closes more than it opens where a `}` is repeated after it).
//!   A keyword closer alone (`end`, `fi`, `done`) is never doubted: whether
//!   the edit opens a block it closes cannot be told from brackets.
//!   Blank lines are skipped on both sides and never doubted.

/// Lines of a text an edit writes twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// At the end of the new text (`false`: at its start).
    pub at_end: bool,
    /// The repeated lines, as the file has them.
    pub lines: Vec<String>,
    /// The file's lines they repeat (1-based, first and last).
    pub file_lines: (usize, usize),
}

impl Repeated {
    /// One sentence, without a final stop; `new`: what the new text is
    /// called (`its new text`; `plural` for `has new lines that`).
    pub fn describe(&self, new: &str, plural: bool) -> String {
        let (verb, place) = match (self.at_end, plural) {
            (true, false) => ("ends", "right after"),
            (true, true) => ("end", "right after"),
            (false, false) => ("begins", "right before"),
            (false, true) => ("begin", "right before"),
        };
        let (a, b) = self.file_lines;
        let at = crate::words::line_range("line", a, b);
        match self.lines.as_slice() {
            [one] => format!(
                "{new} {verb} with `{}`, which the file already has {place} the text it \
                 replaces ({at}): written, it appears twice: send the edit without it, or with \
                 it in the old text too",
                one.trim()
            ),
            lines => format!(
                "{new} {verb} with {} lines (`{}` to `{}`) that the file already has {place} \
                 the text it replaces ({at}): written, they appear twice: send the edit without \
                 them, or with them in the old text too",
                lines.len(),
                lines.first().map_or("", |l| l.trim()),
                lines.last().map_or("", |l| l.trim())
            ),
        }
    }
}

/// Opening minus closing brackets of `text` (`{[(` against `}])`).
fn balance<'a>(lines: impl IntoIterator<Item = &'a str>) -> isize {
    lines
        .into_iter()
        .flat_map(str::chars)
        .map(|c| match c {
            '{' | '[' | '(' => 1,
            '}' | ']' | ')' => -1,
            _ => 0,
        })
        .sum()
}

/// Whether `line` holds a letter or a digit (code, not punctuation alone).
fn substantive(line: &str) -> bool {
    line.chars().any(char::is_alphanumeric)
}

/// Whether `line` is a keyword that ends a block, alone.
fn keyword_closer(line: &str) -> bool {
    let word = line.trim().trim_end_matches(';');
    [
        "end", "fi", "done", "esac", "endif", "endfor", "endwhile", "end if", "End", "END",
    ]
    .contains(&word)
}

/// The non-blank lines of `lines` with their 0-based indexes.
pub(super) fn non_blank<'a>(
    lines: &'a [&'a str],
) -> impl DoubleEndedIterator<Item = (usize, &'a str)> {
    lines
        .iter()
        .copied()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
}

/// The file's non-blank lines nearest a place, as [`repeated`] reads
/// them: at most `count`, nearest first, each with its 1-based number.
/// `lines`: the file's lines going away from the place (forwards after
/// it, backwards before it), `first`: the number of the first of them,
/// `step`: +1 forwards, -1 backwards.
pub fn nearest<'a>(
    lines: impl Iterator<Item = &'a str>,
    first: usize,
    step: isize,
    count: usize,
) -> Vec<(usize, &'a str)> {
    lines
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(count)
        .map(|(i, l)| ((first as isize + step * i as isize) as usize, l))
        .collect()
}

/// What an edit replacing `old` (whole lines) with `new` (whole lines)
/// writes twice. `previous` and `next`: the file's non-blank lines before
/// and after the replaced ones, nearest first, with their 1-based numbers
/// (at least as many as `new` has non-blank lines, where the file has
/// them: see [`nearest`]).
pub fn repeated(
    previous: &[(usize, &str)],
    old: &[&str],
    new: &[&str],
    next: &[(usize, &str)],
) -> Option<Repeated> {
    let tail = |text: &[&str]| non_blank(text).next_back().map(|(_, l)| l.to_string());
    let head = |text: &[&str]| non_blank(text).next().map(|(_, l)| l.to_string());
    let new_lines = || non_blank(new).map(|(_, l)| l);
    if tail(old) != tail(new)
        && let Some(found) = repeated_beside(next, new_lines().rev(), true, old, new)
    {
        return Some(found);
    }
    if head(old) != head(new) {
        return repeated_beside(previous, new_lines(), false, old, new);
    }
    None
}

/// The lines of the file `beside` the replaced ones (nearest first: after
/// them when `at_end`, else before) that the edit's new non-blank lines
/// from that side on (`new_from_edge`, nearest the file's first) write
/// again, when repeating them is [`doubted`].
fn repeated_beside<'a>(
    beside: &[(usize, &str)],
    new_from_edge: impl Iterator<Item = &'a str>,
    at_end: bool,
    old: &[&str],
    new: &[&str],
) -> Option<Repeated> {
    let k = new_from_edge
        .zip(beside)
        .take_while(|(n, (_, line))| n == line)
        .count();
    if k == 0 {
        return None;
    }
    let mut lines: Vec<String> = beside[..k].iter().map(|(_, l)| l.to_string()).collect();
    let (near, far) = (beside[0].0, beside[k - 1].0);
    // The lines in the file's order.
    let file_lines = if at_end {
        (near, far)
    } else {
        lines.reverse();
        (far, near)
    };
    doubted(&lines, old, new).then_some(Repeated {
        at_end,
        lines,
        file_lines,
    })
}

/// Whether repeating `lines` is damage by evidence (see the module's rule).
fn doubted(lines: &[String], old: &[&str], new: &[&str]) -> bool {
    if lines.iter().any(|l| substantive(l) && !keyword_closer(l)) {
        return true;
    }
    if lines.iter().any(|l| keyword_closer(l)) {
        return false;
    }
    let repeated = balance(lines.iter().map(String::as_str));
    let change = balance(new.iter().copied()) - balance(old.iter().copied());
    // Closers repeated (after the text): the edit closes more than it
    // opens; openers repeated (before it): it opens more than it closes.
    repeated != 0 && change.signum() == repeated.signum() && change.abs() >= repeated.abs()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<&str> {
        text.lines().collect()
    }

    #[test]
    fn a_closing_brace_the_file_has_next_is_repeated() {
        let found = repeated(
            &[(2, "  if (x < lo) return lo;"), (1, "function clamp(x) {")],
            &lines("  if (x > hi) return hi;\n  return x;"),
            &lines("  if (x > hi) return hi;\n  return Number.isNaN(x) ? lo : x;\n}"),
            &[(5, "}"), (7, "export function sum(xs) {")],
        );
        let found = found.expect("a doubt");
        assert_eq!(found.lines, ["}"]);
        assert_eq!(found.file_lines, (5, 5));
    }

    #[test]
    fn a_block_the_edit_opens_and_closes_is_not_doubted() {
        let found = repeated(
            &[(1, "function f() {")],
            &lines("  a();"),
            &lines("  if (x) {\n    a();\n}"),
            &[(3, "}")],
        );
        assert_eq!(found, None);
    }
}
