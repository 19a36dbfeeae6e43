//! Aider's matcher proper (aider/coders/editblock_coder.py, 0.86.2):
//! `strip_quoted_wrapping`, then `replace_most_similar_chunk`'s stages in
//! order: `perfect_replace`, `replace_part_with_missing_leading_whitespace`,
//! both again without a blank first SEARCH line, then `try_dotdotdots`.
//! `replace_closest_edit_distance` follows a bare `return` in 0.86.2: dead
//! code, not ported.

use std::borrow::Cow;
use std::collections::HashSet;

use super::parse::Fence;
use super::pytext::{
    is_blank, is_space, len_chars, lstrip, prefix, splitlines, splitlines_keepends,
};

/// A successful replacement: the whole new text and where it landed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replaced {
    /// The file's new text.
    pub text: String,
    /// The stage, named after Aider's function (`perfect`,
    /// `missing_leading_whitespace`, their `_skip_blank_line` forms,
    /// `dotdotdots`).
    pub stage: &'static str,
    /// Byte range of the text searched (the prepped whole) that was
    /// replaced, and what was written there.
    pub span: (usize, usize),
    pub written: String,
    /// For `dotdotdots`: every SEARCH piece is whole lines standing once
    /// in the text, no two overlapping: each replaced where the model's
    /// own text stands, the lines under `...` kept (a tester's find: such
    /// an edit was called loose). False for every other stage.
    pub pieces_exact: bool,
}

/// `strip_quoted_wrapping(text, fname, fence)` (`file_name` is
/// `Path(fname).name`; Aider always passes a path): drops a first line
/// ending with the file's name and a surrounding fence pair, rejoins the
/// lines with `\n` (every Python line break becomes `\n`; a trailing blank
/// line is lost) and ensures a final `\n`. `None` where Python raises
/// IndexError (the text was only the line naming the file).
pub fn strip_quoted_wrapping(text: &str, file_name: &str, fence: Fence) -> Option<String> {
    if text.is_empty() {
        return Some(String::new());
    }
    let mut lines = splitlines(text);
    if super::pytext::strip(lines[0]).ends_with(file_name) {
        lines.remove(0);
    }
    let (first, last) = (lines.first()?, lines.last()?);
    if first.starts_with(fence.open) && last.starts_with(fence.close) {
        lines = if lines.len() >= 2 {
            lines[1..lines.len() - 1].to_vec()
        } else {
            Vec::new()
        };
    }
    let mut joined = lines.join("\n");
    if !joined.is_empty() && !joined.ends_with('\n') {
        joined.push('\n');
    }
    Some(joined)
}

/// `prep(content)`: a final `\n` added, and the lines (Python's
/// `splitlines(keepends=True)`).
fn prep(content: &str) -> Cow<'_, str> {
    if !content.is_empty() && !content.ends_with('\n') {
        Cow::Owned(format!("{content}\n"))
    } else {
        Cow::Borrowed(content)
    }
}

/// `replace_most_similar_chunk(whole, part, replace)`: `None` when no
/// stage gives a non-empty text (Python's falsy result: an edit that
/// empties the file fails).
///
/// The stage is named as the corpus's oracle names it: after the first
/// stage function that returned a text at all (an empty one included), with
/// `_skip_blank_line` when the second pass without the blank first SEARCH
/// line ran (not for `dotdotdots`). Only an edit that empties the file can
/// make that differ from the stage that gave the final text.
pub fn replace_most_similar_chunk(whole: &str, part: &str, replace: &str) -> Option<Replaced> {
    let whole = prep(whole);
    let part = prep(part);
    let replace = prep(replace);
    let whole_lines = splitlines_keepends(&whole);
    let part_lines = splitlines_keepends(&part);
    let replace_lines = splitlines_keepends(&replace);
    let mut first_hit: Option<&'static str> = None;
    let mut skipped_blank_line = false;

    let mut found = perfect_or_whitespace(
        &whole,
        &whole_lines,
        &part_lines,
        &replace_lines,
        &mut first_hit,
    );
    // "drop leading empty line, GPT sometimes adds them spuriously"
    if found.is_none() && part_lines.len() > 2 && is_blank(part_lines[0]) {
        skipped_blank_line = true;
        found = perfect_or_whitespace(
            &whole,
            &whole_lines,
            &part_lines[1..],
            &replace_lines,
            &mut first_hit,
        );
    }
    if found.is_none() {
        // try_dotdotdots' ValueError is swallowed: the block fails.
        let dotted = try_dotdotdots(&whole, &part, &replace);
        if dotted.is_some() {
            first_hit.get_or_insert("dotdotdots");
        }
        found = dotted.filter(|found| !found.text.is_empty());
    }
    let mut found = found?;
    let base = first_hit.unwrap_or(found.stage);
    found.stage = match (base, skipped_blank_line) {
        ("perfect", true) => "perfect_skip_blank_line",
        ("missing_leading_whitespace", true) => "missing_leading_whitespace_skip_blank_line",
        (base, _) => base,
    };
    Some(found)
}

/// `perfect_or_whitespace`: a non-empty result of `perfect_replace`, else
/// of `replace_part_with_missing_leading_whitespace`; `first_hit` learns
/// the first of them that returned any text.
fn perfect_or_whitespace(
    whole: &str,
    whole_lines: &[&str],
    part_lines: &[&str],
    replace_lines: &[&str],
    first_hit: &mut Option<&'static str>,
) -> Option<Replaced> {
    if let Some(at) = perfect_replace(whole_lines, part_lines) {
        first_hit.get_or_insert("perfect");
        let found = splice(
            whole,
            whole_lines,
            at,
            part_lines.len(),
            replace_lines.concat(),
            "perfect",
        );
        if !found.text.is_empty() {
            return Some(found);
        }
    }
    let found = replace_part_with_missing_leading_whitespace(
        whole,
        whole_lines,
        part_lines,
        replace_lines,
    )?;
    first_hit.get_or_insert("missing_leading_whitespace");
    (!found.text.is_empty()).then_some(found)
}

/// `whole_lines[:at] + written + whole_lines[at + count:]`, joined
/// (`whole_lines` are the consecutive lines of `whole`).
fn splice(
    whole: &str,
    whole_lines: &[&str],
    at: usize,
    count: usize,
    written: String,
    stage: &'static str,
) -> Replaced {
    let start: usize = whole_lines[..at].iter().map(|l| l.len()).sum();
    let end = start
        + whole_lines[at..at + count]
            .iter()
            .map(|l| l.len())
            .sum::<usize>();
    // The lines are consecutive slices of `whole`.
    let mut text = String::with_capacity(whole.len() - (end - start) + written.len());
    text.push_str(&whole[..start]);
    text.push_str(&written);
    text.push_str(&whole[end..]);
    Replaced {
        text,
        stage,
        span: (start, end),
        written,
        pieces_exact: false,
    }
}

/// `perfect_replace`: the first line where all SEARCH lines equal the
/// file's (no uniqueness check: the first occurrence wins).
fn perfect_replace(whole_lines: &[&str], part_lines: &[&str]) -> Option<usize> {
    if part_lines.len() > whole_lines.len() {
        return None;
    }
    (0..=whole_lines.len() - part_lines.len())
        .find(|&i| whole_lines[i..i + part_lines.len()] == *part_lines)
}

/// `len(p) - len(p.lstrip())`.
fn leading_whitespace(line: &str) -> usize {
    line.chars().take_while(|&c| is_space(c)).count()
}

/// `replace_part_with_missing_leading_whitespace`: removes the smallest
/// leading whitespace of the non-blank SEARCH and REPLACE lines from both,
/// finds the first window whose lines equal SEARCH's after `lstrip()` and
/// whose non-blank lines all carry the same extra prefix, and writes
/// REPLACE with that prefix on its non-blank lines.
fn replace_part_with_missing_leading_whitespace(
    whole: &str,
    whole_lines: &[&str],
    part_lines: &[&str],
    replace_lines: &[&str],
) -> Option<Replaced> {
    let leading = part_lines
        .iter()
        .chain(replace_lines)
        .filter(|line| !is_blank(line))
        .map(|line| leading_whitespace(line))
        .min()
        .unwrap_or(0);
    let outdent = |lines: &[&str]| -> Vec<String> {
        lines
            .iter()
            .map(|line| {
                if is_blank(line) {
                    line.to_string()
                } else {
                    line.chars().skip(leading).collect()
                }
            })
            .collect()
    };
    let part_lines = outdent(part_lines);
    let replace_lines = outdent(replace_lines);
    let count = part_lines.len();
    if count > whole_lines.len() {
        return None;
    }
    for i in 0..=whole_lines.len() - count {
        let Some(add) = match_but_for_leading_whitespace(&whole_lines[i..i + count], &part_lines)
        else {
            continue;
        };
        let written: String = replace_lines
            .iter()
            .map(|line| {
                if is_blank(line) {
                    line.clone()
                } else {
                    format!("{add}{line}")
                }
            })
            .collect();
        return Some(splice(
            whole,
            whole_lines,
            i,
            count,
            written,
            "missing_leading_whitespace",
        ));
    }
    None
}

/// `match_but_for_leading_whitespace`: the one prefix the window's
/// non-blank lines have beyond SEARCH's, when all lines agree after
/// `lstrip()` (the prefix is `whole[:len(whole) - len(part)]`, with
/// Python's slice rules).
fn match_but_for_leading_whitespace<'w>(
    window: &[&'w str],
    part_lines: &[String],
) -> Option<&'w str> {
    if !window
        .iter()
        .zip(part_lines)
        .all(|(w, p)| lstrip(w) == lstrip(p))
    {
        return None;
    }
    let add: HashSet<&str> = window
        .iter()
        .zip(part_lines)
        .filter(|(w, _)| !is_blank(w))
        .map(|(w, p)| prefix(w, len_chars(w) as isize - len_chars(p) as isize))
        .collect();
    if add.len() != 1 {
        return None;
    }
    add.into_iter().next()
}

/// Python's `re.split(r"(^\s*\.\.\.\n)", text)` with MULTILINE: the text
/// between `...` lines and the `...` lines themselves (a `...` line takes
/// the blank lines before it), alternating.
fn split_dots(text: &str) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut piece_start = 0;
    let mut at = 0;
    while at < text.len() {
        let line_start = at == 0 || text.as_bytes()[at - 1] == b'\n';
        if line_start {
            let rest = &text[at..];
            let after_space = rest.trim_start_matches(is_space);
            if after_space.starts_with("...\n") {
                let end = at + (rest.len() - after_space.len()) + 4;
                pieces.push(&text[piece_start..at]);
                pieces.push(&text[at..end]);
                piece_start = end;
                at = end;
                continue;
            }
        }
        at += text[at..].chars().next().map_or(1, char::len_utf8);
    }
    pieces.push(&text[piece_start..]);
    pieces
}

/// `try_dotdotdots(whole, part, replace)`: SEARCH and REPLACE split on
/// `...` lines; the pieces must pair up and the `...` lines agree; each
/// SEARCH piece must occur exactly once in the whole text (anywhere, not
/// on line boundaries) and is replaced there; an empty SEARCH piece
/// appends its REPLACE piece. `None` for no `...` and for each of Python's
/// ValueErrors.
fn try_dotdotdots(whole: &str, part: &str, replace: &str) -> Option<Replaced> {
    let part_pieces = split_dots(part);
    let replace_pieces = split_dots(replace);
    if part_pieces.len() != replace_pieces.len() || part_pieces.len() == 1 {
        return None;
    }
    let dots_match = (1..part_pieces.len())
        .step_by(2)
        .all(|i| part_pieces[i] == replace_pieces[i]);
    if !dots_match {
        return None;
    }
    let original = whole;
    let pieces_exact = pieces_apart(original, &part_pieces);
    let mut whole = whole.to_string();
    for (part, replace) in part_pieces.iter().zip(&replace_pieces).step_by(2) {
        if part.is_empty() && replace.is_empty() {
            continue;
        }
        if part.is_empty() {
            if !whole.ends_with('\n') {
                whole.push('\n');
            }
            whole.push_str(replace);
            continue;
        }
        if whole.matches(part).take(2).count() != 1 {
            return None;
        }
        whole = whole.replacen(part, replace, 1);
    }
    let (span, written) = changed_span(original, &whole);
    Some(Replaced {
        text: whole,
        stage: "dotdotdots",
        span,
        written,
        pieces_exact,
    })
}

/// Why Aider's `try_dotdotdots` refuses a block whose SEARCH has `...`
/// lines (a tester's find: srview read the `...` as a SEARCH line missing
/// from the file and blamed it), and the REPLACE that mends it where one is
/// clear.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DotsFault {
    /// The rule that failed, in words, with what to send instead.
    pub said: String,
    /// The REPLACE text with its `...` lines written as the SEARCH's, where
    /// that alone was the fault.
    pub replace: Option<String>,
}

/// The `try_dotdotdots` rule `part` and `replace` break over `whole` (the
/// file as the blocks before left it): `None` when the SEARCH has no `...`
/// line or the pieces place (then another stage's failure is the story).
pub fn dots_fault(whole: &str, part: &str, replace: &str) -> Option<DotsFault> {
    let (whole, part, replace) = (prep(whole), prep(part), prep(replace));
    let part_pieces = split_dots(&part);
    if part_pieces.len() == 1 {
        return None;
    }
    let replace_pieces = split_dots(&replace);
    let dots = |pieces: &[&str]| pieces.len() / 2;
    if part_pieces.len() != replace_pieces.len() {
        if let Some(fault) = stand_ins_for_dots(&part_pieces, &replace) {
            return Some(fault);
        }
        return Some(DotsFault {
            said: format!(
                "its SEARCH has {} and its REPLACE {}: Aider pairs each `...` line of the SEARCH \
                 with one of the REPLACE, so it refuses the block (\"Unpaired ... in \
                 SEARCH/REPLACE block\"): write as many `...` lines in the REPLACE as in the \
                 SEARCH, where the same lines are left out",
                crate::words::count(dots(&part_pieces), "`...` line"),
                dots(&replace_pieces)
            ),
            replace: None,
        });
    }
    let shown = |dots: &str| dots.trim_matches('\n').to_string();
    if let Some(i) = (1..part_pieces.len())
        .step_by(2)
        .find(|&i| part_pieces[i] != replace_pieces[i])
    {
        let mended: String = replace_pieces
            .iter()
            .enumerate()
            .map(|(k, piece)| if k % 2 == 1 { part_pieces[k] } else { piece })
            .collect();
        return Some(DotsFault {
            said: format!(
                "its REPLACE's `...` line `{}` is not written as its SEARCH's `{}`: Aider needs \
                 each pair of `...` lines alike, so it refuses the block (\"Unmatched ... in \
                 SEARCH/REPLACE block\"): write the REPLACE's `...` lines exactly as the SEARCH's",
                shown(replace_pieces[i]),
                shown(part_pieces[i])
            ),
            replace: Some(mended),
        });
    }
    let first_line = |piece: &str| {
        piece
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let original = whole.to_string();
    let mut whole = whole.into_owned();
    for (k, (part, replace)) in part_pieces
        .iter()
        .zip(&replace_pieces)
        .step_by(2)
        .enumerate()
    {
        if part.is_empty() {
            if !replace.is_empty() {
                if !whole.ends_with('\n') {
                    whole.push('\n');
                }
                whole.push_str(replace);
            }
            continue;
        }
        let places = whole.matches(part).count();
        let piece = format!("its SEARCH piece {} (from `{}`)", k + 1, first_line(part));
        let said = match places {
            1 => {
                whole = whole.replacen(part, replace, 1);
                continue;
            }
            0 => format!(
                "{piece} stands nowhere in the file{}: Aider looks for each piece between `...` \
                 lines exactly, so it refuses the block: copy the piece from the file",
                if k > 0 {
                    " as the pieces before it leave it"
                } else {
                    ""
                }
            ),
            _ if original.matches(part).count() == 1 => format!(
                "{piece} stands once in the file but at {places} places once the pieces before \
                 it are replaced (their REPLACE adds it again): Aider replaces the pieces one \
                 after another and refuses a piece standing at more than one place: send two \
                 blocks, the one that removes it first"
            ),
            _ => format!(
                "{piece} stands at {places} places in the file: Aider refuses a piece standing \
                 at more than one place: give it a line around it that stands once"
            ),
        };
        return Some(DotsFault {
            said,
            replace: None,
        });
    }
    None
}

/// A REPLACE that writes a stand-in (`…`, `# ...`, `// ... existing code
/// ...`) where its SEARCH has a `...` line (a tester's find, 43b-12): Aider
/// reads only a line of `...` alone as one, so the pieces do not pair and
/// it refuses the block. Said with the REPLACE mended (each such line and
/// each `...` line written as the SEARCH's `...` line of the same rank)
/// only where the REPLACE's `...` and stand-in lines, in order, are
/// exactly as many as the SEARCH's `...` lines: then each stands for the
/// same lines as its SEARCH twin. `None` otherwise.
fn stand_ins_for_dots(part_pieces: &[&str], replace: &str) -> Option<DotsFault> {
    let dots: Vec<&str> = part_pieces
        .iter()
        .skip(1)
        .step_by(2)
        .filter_map(|piece| splitlines_keepends(piece).last().copied())
        .collect();
    let is_dots = |line: &str| line.trim_start_matches(is_space) == "...\n";
    let slots = splitlines_keepends(replace)
        .into_iter()
        .filter(|line| is_dots(line) || dots_stand_in(line))
        .count();
    let first = splitlines_keepends(replace)
        .into_iter()
        .find(|line| !is_dots(line) && dots_stand_in(line))?;
    if slots != dots.len() {
        return None;
    }
    let mut rank = 0;
    let mended: String = splitlines_keepends(replace)
        .into_iter()
        .map(|line| {
            if is_dots(line) || dots_stand_in(line) {
                rank += 1;
                dots[rank - 1]
            } else {
                line
            }
        })
        .collect();
    Some(DotsFault {
        said: format!(
            "its REPLACE writes `{}` where its SEARCH has a `...` line: Aider reads only a line \
             of `...` alone as one and would write any other line as it stands, so the pieces \
             do not pair and it refuses the block (\"Unpaired ... in SEARCH/REPLACE block\"): \
             write the REPLACE's `...` lines exactly as the SEARCH's",
            first.trim()
        ),
        replace: Some(mended),
    })
}

/// Whether `line` stands in for lines left out in a form Aider's `...`
/// rule does not read (its `...` line is `...` alone, white space before
/// it only): a line opening with `…`; a comment (`#`, `//`, `/*`, `--`,
/// `;`, `<!--`) whose text opens with `...` or `…`; `...` with white space
/// after it (the caller reads a true `...` line first) or followed by
/// words (`... existing code ...`), not code such as JavaScript's
/// `...rest`.
fn dots_stand_in(line: &str) -> bool {
    let bare = line.trim();
    let comment = ["<!--", "//", "/*", "#", "--", ";"]
        .iter()
        .find_map(|mark| bare.strip_prefix(mark))
        .map(str::trim_start);
    match comment {
        Some(text) => text.starts_with("...") || text.starts_with('\u{2026}'),
        None => bare.starts_with('\u{2026}') || bare == "..." || bare.starts_with("... "),
    }
}

/// Whether every SEARCH piece of `pieces` (`...` lines at odd places) is
/// whole lines of `text` standing there once, none empty, each after the
/// one before it. Aider replaces each piece wherever it stands, in any
/// order; a piece standing above the one before it is not where the
/// model's `...` ("the lines between") puts it (a tester's find, 43a-16:
/// `def a():` ... `    return 1` changed `return 1` of `b()`, above `a`),
/// nor is one the skipped lines put in another block ([`leaves_block`]):
/// those placements stay loose, said by the stage's note.
fn pieces_apart(text: &str, pieces: &[&str]) -> bool {
    let mut after = 0;
    let mut previous: Option<&str> = None;
    for piece in pieces.iter().step_by(2) {
        if piece.is_empty() || !piece.ends_with('\n') {
            return false;
        }
        let mut places = text.match_indices(piece);
        let (Some((at, _)), None) = (places.next(), places.next()) else {
            return false;
        };
        if at < after || (at > 0 && text.as_bytes()[at - 1] != b'\n') {
            return false;
        }
        if previous.is_some_and(|before: &str| leaves_block(before, &text[after..at], piece)) {
            return false;
        }
        previous = Some(piece);
        after = at + piece.len();
    }
    true
}

/// Whether the lines a `...` skips (`gap`) leave the block the piece
/// before it (`before`) opens, while the piece after it (`next`) is
/// indented as that block's own lines: a gap line indented no deeper than
/// the opening line closes the block, so `next` stands in another one (a
/// tester's find, 43a-16: `def a():` ... `    return 1` changed the
/// `return 1` of the `def c():` below `a`).
fn leaves_block(before: &str, gap: &str, next: &str) -> bool {
    let indent = |line: &str| line.len() - line.trim_start_matches([' ', '\t']).len();
    let last = before.lines().rev().find(|l| !l.trim().is_empty());
    let first = next.lines().find(|l| !l.trim().is_empty());
    let (Some(last), Some(first)) = (last, first) else {
        return false;
    };
    let opens = last.trim_end().ends_with([':', '{', '(', '[']);
    let depth = indent(last);
    opens
        && indent(first) > depth
        && gap
            .lines()
            .any(|line| !line.trim().is_empty() && indent(line) <= depth)
}

/// The whole lines of `before` that differ from `after` (common leading and
/// trailing lines left out), and the text now in their place.
fn changed_span(before: &str, after: &str) -> ((usize, usize), String) {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    let (head, tail) = crate::textdiff::shared_ends(&old, &new);
    let start: usize = old[..head].iter().map(|l| l.len()).sum();
    let end = before.len()
        - old[old.len() - tail..]
            .iter()
            .map(|l| l.len())
            .sum::<usize>();
    ((start, end), new[head..new.len() - tail].concat())
}

/// `find_similar_lines(search, content)`: the window of the file most like
/// the SEARCH lines (`SequenceMatcher` ratio over lines, at least 0.6),
/// itself when its first and last lines equal SEARCH's, else widened by 5
/// lines each side; empty when none is similar enough. `None` where Python
/// raises IndexError: an empty SEARCH against a file (its empty window is
/// a perfect match, and `best_match[0]` fails).
pub fn find_similar_lines(search: &str, content: &str) -> Option<String> {
    use std::collections::HashMap;
    let search_lines = splitlines(search);
    let content_lines = splitlines(content);
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut intern = |line| {
        let next = ids.len() as u32;
        *ids.entry(line).or_insert(next)
    };
    let search_ids: Vec<u32> = search_lines.iter().map(|l| intern(l)).collect();
    let content_ids: Vec<u32> = content_lines.iter().map(|l| intern(l)).collect();
    let width = search_ids.len();
    if width == 0 {
        // The empty window matches perfectly; `best_match[0]` raises.
        return None;
    }
    if content_ids.len() < width {
        return Some(String::new());
    }
    // A window's ratio is at most `2 * shared / (2 * width)`, `shared` being
    // how many of its lines SEARCH has too (counted with multiplicity,
    // Python's `quick_ratio`). A window whose bound is below 0.6 or not above
    // the best ratio so far cannot change the result, so SequenceMatcher
    // runs only on the others; `shared` slides along with the window.
    let mut wanted = vec![0usize; ids.len()];
    for &id in &search_ids {
        wanted[id as usize] += 1;
    }
    let mut held = vec![0usize; ids.len()];
    let mut shared = 0usize;
    for &id in &content_ids[..width] {
        if held[id as usize] < wanted[id as usize] {
            shared += 1;
        }
        held[id as usize] += 1;
    }
    let total = (2 * width) as f64;
    let mut best_ratio = 0.0;
    let mut best_at = None;
    for i in 0..=content_ids.len() - width {
        if i > 0 {
            let (gone, came) = (
                content_ids[i - 1] as usize,
                content_ids[i + width - 1] as usize,
            );
            held[gone] -= 1;
            if held[gone] < wanted[gone] {
                shared -= 1;
            }
            if held[came] < wanted[came] {
                shared += 1;
            }
            held[came] += 1;
        }
        let bound = if width == 0 {
            1.0
        } else {
            2.0 * shared as f64 / total
        };
        if bound < 0.6 || bound <= best_ratio {
            continue;
        }
        let chunk = &content_ids[i..i + width];
        let ratio = super::difflib::SequenceMatcher::new(&search_ids, chunk).ratio();
        if ratio > best_ratio {
            best_ratio = ratio;
            best_at = Some(i);
        }
    }
    let Some(at) = best_at else {
        return Some(String::new());
    };
    if best_ratio < 0.6 {
        return Some(String::new());
    }
    let best = &content_lines[at..at + width];
    if best.first() == search_lines.first() && best.last() == search_lines.last() {
        return Some(best.join("\n"));
    }
    let end = content_lines.len().min(at + width + 5);
    let start = at.saturating_sub(5);
    Some(content_lines[start..end].join("\n"))
}
