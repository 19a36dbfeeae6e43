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
//!   indentation included) and in order, the first `k` non-blank lines
//!   after the replaced text (`k` as large as it goes: a tester's find,
//!   T-07, the two or more lines after the old text written again were
//!   let through while one was said), and the old text's last
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
//!
//! And an edit whose new text holds a run of its own lines twice, back to
//! back, where its old text did not (the same slip inside the new text:
//! [`twice_within`]).

/// Lines of a text an edit writes twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repeated {
    /// Where the second copy stands.
    pub place: Place,
    /// The repeated lines, as the file (or the new text) has them.
    pub lines: Vec<String>,
}

/// Where an edit's lines written twice stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// At an end of the new text, repeating the file's lines right after
    /// or right before the replaced text.
    Beside {
        /// At the new text's end (`false`: at its start).
        at_end: bool,
        /// The file's lines repeated (1-based, first and last).
        file_lines: (usize, usize),
    },
    /// Inside the new text, twice back to back.
    Within {
        /// The first copy's lines (1-based in the new text, first and last).
        first: (usize, usize),
        /// The second copy's.
        second: (usize, usize),
    },
}

impl Repeated {
    /// The file's lines the new text repeats (1-based, first and last),
    /// when they are the file's (not for lines the new text holds twice).
    pub fn file_lines(&self) -> Option<(usize, usize)> {
        match self.place {
            Place::Beside { file_lines, .. } => Some(file_lines),
            Place::Within { .. } => None,
        }
    }

    /// One sentence, without a final stop; `new`: what the new text is
    /// called (`its new text`; `plural` for `has new lines that`).
    pub fn describe(&self, new: &str, plural: bool) -> String {
        let first = self.lines.first().map_or("", |l| l.trim());
        let last = self.lines.last().map_or("", |l| l.trim());
        let (at_end, (a, b)) = match self.place {
            Place::Beside { at_end, file_lines } => (at_end, file_lines),
            Place::Within {
                first: (a, b),
                second: (c, d),
            } => {
                let n = self.lines.len();
                let (holds, own, old) = if plural {
                    (
                        format!("has {n} new lines"),
                        "its new lines",
                        "its old lines do",
                    )
                } else {
                    (
                        format!("{new} holds {n} lines"),
                        "its lines",
                        "its old text does",
                    )
                };
                return format!(
                    "{holds} twice, back to back (`{first}` to `{last}`, {own} {a}-{b} and \
                     {c}-{d}), which {old} not hold twice: written, they run twice: send it \
                     with them once"
                );
            }
        };
        let (verb, place) = match (at_end, plural) {
            (true, false) => ("ends", "right after"),
            (true, true) => ("end", "right after"),
            (false, false) => ("begins", "right before"),
            (false, true) => ("begin", "right before"),
        };
        let at = crate::words::line_range("line", a, b);
        match self.lines.as_slice() {
            [_] => format!(
                "{new} {verb} with `{first}`, which the file already has {place} the text it \
                 replaces ({at}): written, it appears twice: send the edit without it, or with \
                 it in the old text too"
            ),
            lines => format!(
                "{new} {verb} with {} lines (`{first}` to `{last}`) that the file already has \
                 {place} the text it replaces ({at}): written, they appear twice: send the edit \
                 without them, or with them in the old text too",
                lines.len()
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
    let new_lines: Vec<&str> = non_blank(new).map(|(_, l)| l).collect();
    if tail(old) != tail(new) {
        let from_end: Vec<&str> = new_lines.iter().rev().copied().collect();
        if let Some(found) = repeated_beside(next, &from_end, true, old, new) {
            return Some(found);
        }
    }
    if head(old) != head(new)
        && let Some(found) = repeated_beside(previous, &new_lines, false, old, new)
    {
        return Some(found);
    }
    twice_within(old, new)
}

/// The lines of the file `beside` the replaced ones (nearest first: after
/// them when `at_end`, else before) that the edit's new non-blank lines
/// on that side (`new_from_edge`: nearest the file's first) write again,
/// when repeating them is [`doubted`]: the most lines `k` for which the
/// new text's `k` lines on that side are, in the file's order, the `k`
/// lines of the file beside it (a new text ending with the two lines that
/// follow it writes them twice, whichever of its lines is last).
fn repeated_beside(
    beside: &[(usize, &str)],
    new_from_edge: &[&str],
    at_end: bool,
    old: &[&str],
    new: &[&str],
) -> Option<Repeated> {
    // The edge's `k`th line (from it) stands where the file's nearest one
    // is: the `k` lines read outwards are the file's read inwards.
    let overlaps = |k: usize| (0..k).all(|i| new_from_edge[k - 1 - i] == beside[i].1);
    let k = (1..=new_from_edge.len().min(beside.len()))
        .rev()
        .find(|&k| overlaps(k))?;
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
        place: Place::Beside { at_end, file_lines },
        lines,
    })
}

/// Whether `line` tells a statement of its own: two words or more (`x
/// += 1`, `return total`), not a keyword or a call alone (`else:`,
/// `print()`, `break;`, `}`), which code repeats on purpose.
fn telling(line: &str) -> bool {
    line.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
        .nth(1)
        .is_some()
}

/// A run of `new`'s non-blank lines followed right away by itself (blank
/// lines read past), which `old` does not hold so: the model wrote its
/// lines twice (a tester's find, T-07: `account.balance -= total` and the
/// two lines after it, sent again under themselves). Said when the run
/// holds two lines or more, two of them [`telling`], stands exactly twice
/// (a third copy before or after, or a run made of a shorter one
/// repeated, is code repeated on purpose: an unrolled loop, a table), and
/// `old` does not hold the two copies back to back. The longest such run.
fn twice_within(old: &[&str], new: &[&str]) -> Option<Repeated> {
    let solid: Vec<(usize, &str)> = non_blank(new).map(|(i, l)| (i, l.trim_end())).collect();
    let lines: Vec<&str> = solid.iter().map(|(_, l)| *l).collect();
    // Run lengths worth trying: the distance from a telling line to the
    // next copy of it.
    let mut seen: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut tried: Vec<usize> = Vec::new();
    for (j, line) in lines.iter().enumerate() {
        if !telling(line) {
            continue;
        }
        if let Some(p) = seen.insert(line, j)
            && j - p >= 2
            && 2 * (j - p) <= lines.len()
            && !tried.contains(&(j - p))
        {
            tried.push(j - p);
        }
    }
    tried.sort_unstable_by(|a, b| b.cmp(a));
    let old_lines: Vec<&str> = non_blank(old).map(|(_, l)| l.trim_end()).collect();
    tried.into_iter().take(64).find_map(|k| {
        let start = run_twice(&lines, k)?;
        let run = &lines[start..start + k];
        let doubled = &lines[start..start + 2 * k];
        if old_lines.windows(2 * k).any(|w| w == doubled) {
            return None;
        }
        let at = |i: usize| solid[i].0 + 1;
        Some(Repeated {
            place: Place::Within {
                first: (at(start), at(start + k - 1)),
                second: (at(start + k), at(start + 2 * k - 1)),
            },
            lines: run.iter().map(|l| l.to_string()).collect(),
        })
    })
}

/// The start of the first run of `k` of `lines` followed right away by
/// itself and by no third copy (nor a part of one as long as the run
/// before or after: the stretch where each line equals the one `k` on is
/// shorter than `2k`), holding two [`telling`] lines, not made of a
/// shorter run repeated.
fn run_twice(lines: &[&str], k: usize) -> Option<usize> {
    let n = lines.len();
    let mut i = 0;
    while i + k < n {
        if lines[i] != lines[i + k] {
            i += 1;
            continue;
        }
        let from = i;
        while i + k < n && lines[i] == lines[i + k] {
            i += 1;
        }
        let stretch = i - from;
        if stretch < k || stretch >= 2 * k {
            continue;
        }
        let run = &lines[from..from + k];
        let shorter =
            (1..k).any(|p| k.is_multiple_of(p) && (0..k - p).all(|j| run[j] == run[j + p]));
        let told = run
            .iter()
            .filter(|l| telling(l) && !keyword_closer(l))
            .count();
        if !shorter && told >= 2 {
            return Some(from);
        }
    }
    None
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
        assert_eq!(found.file_lines(), Some((5, 5)));
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

    /// The tester's find (T-07): a new text ending with the two lines the
    /// file has right after its old text (the charge written twice), and
    /// the mirror, beginning with the two right before it, are said as
    /// the one-line overlap is; the most lines that overlap are named.
    #[test]
    fn two_or_more_lines_beside_the_edit_written_again_are_said() {
        let old = lines("  const total = cart.reduce((s, i) => s + i.price, 0);");
        let new = lines(
            "  const total = cart.reduce((s, i) => s + i.price * i.qty, 0);\n  account.balance \
             -= total;\n  account.orders += 1;",
        );
        let next = [
            (3, "  account.balance -= total;"),
            (4, "  account.orders += 1;"),
            (5, "  log(`charged ${total}`);"),
        ];
        let found = repeated(
            &[(1, "function checkout(cart, account) {")],
            &old,
            &new,
            &next,
        )
        .expect("said");
        assert_eq!(
            found.place,
            Place::Beside {
                at_end: true,
                file_lines: (3, 4)
            }
        );
        assert_eq!(
            found.describe("its new text", false),
            "its new text ends with 2 lines (`account.balance -= total;` to `account.orders += \
             1;`) that the file already has right after the text it replaces (lines 3-4): \
             written, they appear twice: send the edit without them, or with them in the old \
             text too"
        );
        // Three lines, Python.
        let found = repeated(
            &[],
            &lines("    total = sum(i.price for i in cart)"),
            &lines("    total = sum(i.price * i.qty for i in cart)\n    a.b -= total\n    a.c += 1\n    log(total)"),
            &[(3, "    a.b -= total"), (4, "    a.c += 1"), (5, "    log(total)"), (6, "    return total")],
        )
        .expect("said");
        assert_eq!(found.file_lines(), Some((3, 5)));
        // The mirror: the two lines before the old text begin the new one.
        let previous = [
            (3, "  account.orders += 1;"),
            (2, "  account.balance -= total;"),
            (1, "function checkout(cart, account) {"),
        ];
        let found = repeated(
            &previous,
            &lines("  log(`charged ${total}`);"),
            &lines("  account.balance -= total;\n  account.orders += 1;\n  log(`charged ${total} to ${account.id}`);"),
            &[(5, "}")],
        )
        .expect("said");
        assert_eq!(
            found.place,
            Place::Beside {
                at_end: false,
                file_lines: (2, 3)
            }
        );
        assert_eq!(
            found.lines,
            ["  account.balance -= total;", "  account.orders += 1;"]
        );
    }

    /// A new block added before an existing one that ends as it does, an
    /// edit rewriting the lines it repeats (its old text ends as its new
    /// text), and closers the edit balances are not said.
    #[test]
    fn a_block_added_before_a_like_one_is_not_said() {
        // `def b` added above `def a`, both ending `return True`: the new
        // text ends with the old text's line.
        let found = repeated(
            &[(2, "    return True"), (1, "def a():")],
            &lines("def c():"),
            &lines("def b():\n    x()\n    return True\n\n\ndef c():"),
            &[(6, "    y()"), (7, "    return True")],
        );
        assert_eq!(found, None);
        // Closing lines only, which the new text opens: balanced.
        let found = repeated(
            &[(1, "  if (a) {")],
            &lines("    b();"),
            &lines("    b();\n    if (c) {\n      d();\n    }\n  }"),
            &[(3, "    }"), (4, "  }")],
        );
        assert_eq!(found, None);
    }

    /// The tester's find (T-07, dup10): a new text holding its three lines
    /// twice, back to back, where its old text held two of them once.
    #[test]
    fn a_new_text_holding_its_lines_twice_is_said() {
        let old = lines("  account.balance -= total;\n  account.orders += 1;");
        let new = lines(
            "  account.balance -= total;\n  account.orders += 1;\n  account.lastOrder = \
             Date.now();\n\n  account.balance -= total;\n  account.orders += 1;\n  \
             account.lastOrder = Date.now();",
        );
        let found = repeated(&[], &old, &new, &[(9, "}")]).expect("said");
        assert_eq!(
            found.place,
            Place::Within {
                first: (1, 3),
                second: (5, 7)
            }
        );
        assert_eq!(found.file_lines(), None);
        assert_eq!(
            found.describe("its new text", false),
            "its new text holds 3 lines twice, back to back (`account.balance -= total;` to \
             `account.lastOrder = Date.now();`, its lines 1-3 and 5-7), which its old text \
             does not hold twice: written, they run twice: send it with them once"
        );
        assert!(
            found
                .describe("", true)
                .starts_with("has 3 new lines twice")
        );
    }

    /// Repeats made on purpose are not said: a call or a keyword alone
    /// twice (`print()`), one line twice, three copies (an unrolled
    /// loop), a run made of a shorter one repeated, and a pair the old
    /// text already held twice.
    #[test]
    fn repeats_on_purpose_are_not_said() {
        let none = |old: &str, new: &str| repeated(&[], &lines(old), &lines(new), &[]);
        assert_eq!(
            none("x = 1", "x = 1\nprint()\nprint()\nprint()\nprint()"),
            None
        );
        assert_eq!(none("x = 1", "x = 1\nprint()\nbreak\nprint()\nbreak"), None);
        assert_eq!(none("x = 1", "x = 1\ny += 1\ny += 1"), None);
        let three = "p += 1; s += 1;\nif (p == e) return f;\n";
        assert_eq!(
            none("x = 1", &format!("x = 1\n{three}{three}{three}")),
            None
        );
        let pair = "a.push(1);\na.push(2);\n";
        assert_eq!(
            none("x = 1", &format!("x = 1\n{pair}{pair}")),
            Some(Repeated {
                place: Place::Within {
                    first: (2, 3),
                    second: (4, 5)
                },
                lines: vec!["a.push(1);".to_string(), "a.push(2);".to_string()],
            })
        );
        assert_eq!(
            none(&format!("{pair}{pair}"), &format!("x = 1\n{pair}{pair}")),
            None
        );
        // Closers and `else:` between equal lines tell nothing.
        assert_eq!(
            none("x = 1", "x = 1\nelse:\n    pass\nelse:\n    pass"),
            None
        );
    }
}
