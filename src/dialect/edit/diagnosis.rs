//! Why an edit failed, where it was meant to go, and a corrected edit.
//!
//! A text that does not occur is diagnosed as a SEARCH/REPLACE block with
//! the same texts (`old` as SEARCH, `new` as REPLACE), so it gets the
//! reason, closest region, differences and line diff a block gets. The
//! block reads whole lines while `old` may be part of a line, so the
//! corrected edit (`old` replaced by the file's own text of the region) is
//! offered only when each line of `old` is about as long as the region's
//! line it stands for, indented the same and similar to it, and when the
//! corrected text occurs exactly once and applies: otherwise none is
//! offered, and the message says why.

use super::applier::run;
use super::cline::{line_end, normalise_line_ends};
use super::explanation::EditDiagnosis;
use super::part_of_line::within_line;
use super::text::CrlfMap;
use super::{Edit, EditError};
use crate::diagnose::{self, BlockDiagnosis, Closest, Reason};
use crate::engine::Options;
use crate::engine::markers::{canonical_block, is_marker};
use crate::words;

/// Below this trimmed-length ratio a line of `old` is taken for part of the
/// file's line, and no corrected edit is offered.
pub const MIN_LENGTH_RATIO: f64 = 0.8;
/// Each line of `old` must be at least this alike (character ratio,
/// trimmed) to the region's line for a corrected edit.
pub const MIN_LINE_SIMILARITY: f64 = 0.6;

/// Diagnoses `edit`, which failed on `original` with `error`.
pub(super) fn explain(edit: &Edit, original: Option<&str>, error: &EditError) -> EditDiagnosis {
    let (Some(original), Some((field, old, new))) = (original, find_texts(edit)) else {
        return EditDiagnosis::only(error.to_string());
    };
    // The text the agent searches and the form of `old` it searches for.
    let (content, old) = match edit {
        Edit::ClineEditor { .. } => (
            std::borrow::Cow::Borrowed(original),
            normalise_line_ends(old, line_end(original)),
        ),
        _ => (CrlfMap::normalise(original).0, old.to_string()),
    };
    match error {
        EditError::ClaudeAmbiguous { .. } | EditError::ClineAmbiguous { .. } => {
            ambiguous(field, &content, &old, edit)
        }
        EditError::ClaudeNotFound { .. }
        | EditError::ClineNotFound { .. }
        | EditError::ClaudeQuoteNormalised { .. } => {
            not_found(field, &content, &old, new, edit, original)
        }
        _ => EditDiagnosis::only(error.to_string()),
    }
}

/// The field name of the text to find, that text, and the new text.
fn find_texts(edit: &Edit) -> Option<(&'static str, &str, &str)> {
    match edit {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => Some(("old_string", old_string, new_string)),
        Edit::ClineEditor {
            old_text: Some(old),
            new_text,
            insert_line: None,
            ..
        } => Some(("old_text", old, new_text.as_deref().unwrap_or(""))),
        _ => None,
    }
}

/// How many places an ambiguous edit's message lists; the rest are
/// counted ("and 990 more"), and every place stays in `occurrences`.
const PLACES_SAID: usize = 12;

fn ambiguous(field: &str, content: &str, old: &str, edit: &Edit) -> EditDiagnosis {
    let occurrences: Vec<[usize; 2]> = super::text::line_spans(
        content,
        content.match_indices(old).map(|(at, m)| (at, at + m.len())),
    )
    .into_iter()
    .map(|lines| [lines.start_line, lines.end_line.max(lines.start_line)])
    .collect();
    let mut places = occurrences
        .iter()
        .take(PLACES_SAID)
        .map(|[a, b]| words::line_range("line", *a, *b))
        .collect::<Vec<_>>()
        .join(", ");
    if occurrences.len() > PLACES_SAID {
        places.push_str(&format!(" and {} more", occurrences.len() - PLACES_SAID));
    }
    let hint = match edit {
        Edit::ClaudeEdit { .. } => {
            " Add context that occurs only at the intended place, or set replace_all to change every one."
        }
        _ => " Add context that occurs only at the intended place.",
    };
    let message = format!(
        "{field} occurs {} times ({places}): the edit cannot tell which is meant, so no corrected edit is offered.{hint}",
        occurrences.len()
    );
    EditDiagnosis {
        reason: Some(Reason::Ambiguous),
        occurrences,
        message,
        ..EditDiagnosis::only(String::new())
    }
}

fn not_found(
    field: &str,
    content: &str,
    old: &str,
    new: &str,
    edit: &Edit,
    original: &str,
) -> EditDiagnosis {
    if old.is_empty() {
        return EditDiagnosis {
            reason: Some(Reason::EmptySearch),
            ..EditDiagnosis::only(format!("{field} is empty: it names no place in the file."))
        };
    }
    let Some(block) = as_block(content, old, new) else {
        return EditDiagnosis::only(format!(
            "{field} does not occur in the file; it has a line that reads as a SEARCH/REPLACE marker, so no region is looked for."
        ));
    };
    let reason = block.reason.unwrap_or(Reason::NotFound);
    if reason == Reason::Ambiguous
        && block.fits_trimmed()
        && let Some(at) = block.ambiguous_places_said()
    {
        return trimmed_at_several_places(field, &block, at);
    }
    if block.closest.is_none()
        && block.tie.is_none()
        && let Some(part) = within_line(content, old)
    {
        return part.diagnosis(field);
    }
    let mut out = EditDiagnosis {
        reason: Some(reason),
        closest: block.closest,
        tie: block.tie,
        vague: block.vague,
        occurrences: Vec::new(),
        differences: block.differences.clone(),
        line_diff: block.line_diff.clone(),
        message: String::new(),
        suggestion: None,
    };
    let where_ = block.region_sentence(reason);
    let (suggestion, withheld) = match (block.closest, &block.withheld) {
        // The rules of trust the block diagnosis applies hold for the edit,
        // but for a SEARCH indentation it maps by no rule: an edit's text
        // is never re-indented here, and its own check names the line.
        (Some(c), Some(why)) if *why == diagnose::no_indent_relation_withheld() => {
            suggest(content, old, new, c, edit, original)
        }
        (Some(_), Some(why)) => (None, Some(why.clone())),
        (Some(c), None) => suggest(content, old, new, c, edit, original),
        (None, _) => (None, None),
    };
    out.message = match withheld {
        Some(why) => {
            format!("{field} does not occur in the file; {where_}. No corrected edit: {why}.")
        }
        None => format!("{field} does not occur in the file; {where_}."),
    };
    if let (Some(c), true) = (block.closest, crlf_sent_to_claude(edit, reason, original)) {
        // Claude Code reads a CRLF file with LF line ends: an old_string
        // sent with the file's CRLF never matches, and its lines look the
        // same as the file's (a tester's find: "line endings differ (CRLF
        // against LF)" of a file that is CRLF on disk, over delete and
        // insert lines that read alike).
        out.message = format!(
            "{field} does not occur in the file as Claude Code reads it: Claude Code reads this \
             CRLF file with LF line endings (and writes it back in CRLF), so an old_string \
             whose lines end in CRLF (\\r\\n) never matches; its text is the file's at {}: \
             send old_string and new_string with LF (\\n) line endings.",
            words::line_range("line", c.start_line, c.end_line)
        );
        out.line_diff = Vec::new();
        out.differences = Vec::new();
    }
    out.suggestion = suggestion;
    out
}

/// An edit whose text occurs nowhere as sent, but trimmed (white space at
/// its lines' ends ignored) at several places, said `at line 2 and line 5`
/// (`at`): each named, none offered as the closest region or corrected
/// (a tester's find, 43b-06: "closest: line 2" picked one of two equal
/// places and never named the other).
fn trimmed_at_several_places(field: &str, block: &BlockDiagnosis, at: String) -> EditDiagnosis {
    EditDiagnosis {
        reason: Some(Reason::Ambiguous),
        occurrences: block
            .ambiguous_places()
            .into_iter()
            .map(|(a, b)| [a, b])
            .collect(),
        differences: block.differences.clone(),
        ..EditDiagnosis::only(format!(
            "{field} does not occur in the file; trimmed, it occurs {at}: which one is meant \
             cannot be told, so no corrected edit is offered."
        ))
    }
}

/// A Claude Code edit that failed for its line endings alone, whose old
/// text ends its lines in CRLF, on a file that does too ([`not_found`]).
fn crlf_sent_to_claude(edit: &Edit, reason: Reason, original: &str) -> bool {
    matches!(edit, Edit::ClaudeEdit { old_string, .. } if old_string.contains("\r\n"))
        && reason == Reason::LineEndings
        && original.contains("\r\n")
}

/// The block diagnosis of `old` → `new` against `content`; `None` when a
/// line of either reads as a marker (the block would not parse as written).
fn as_block(content: &str, old: &str, new: &str) -> Option<BlockDiagnosis> {
    let ended = |s: &str| {
        if s.ends_with('\n') {
            s.to_string()
        } else {
            format!("{s}\n")
        }
    };
    if old.lines().chain(new.lines()).any(is_marker) {
        return None;
    }
    let diff = canonical_block(&ended(old), &ended(new));
    diagnose::diagnose(&diff, content, Options::default())
        .into_iter()
        .next()
}

/// Why no corrected edit is offered for line `k` of the text (`sent`,
/// trimmed), which the new text changes, where file line `n` (`file`,
/// trimmed) is much shorter or longer: the sent line is part of the file's
/// (a line cut short: the file's whole line may not be what the new text
/// replaces), or the file's is part of it (it holds code the file's line
/// does not); else it is another line than the file's, whose text the
/// model misremembered, and what the file's line should become cannot be
/// told.
fn length_withheld(k: usize, n: usize, sent: &str, file: &str) -> String {
    if file.contains(sent) {
        format!(
            "line {k} of the text looks like part of file line {n}, and the file's whole line may not be what the new text replaces"
        )
    } else if sent.contains(file) {
        format!(
            "line {k} of the text is much longer than file line {n}: it holds code the file's line does not, and what the new text should become there cannot be told"
        )
    } else {
        format!(
            "line {k} of the text as sent (`{sent}`) is not file line {n} (`{file}`), and the edit changes that line: what the file's line should become cannot be told; send the edit with the file's line as it stands"
        )
    }
}

/// The text of file line `r` before (with `starts`) or after (with
/// `ends`) what the text's line `o` is aligned with, character by
/// character, when it is more than white space: what `o`, part of the
/// line, does not show.
fn unseen_part(o: &str, r: &str, starts: bool, ends: bool) -> Option<String> {
    let (o, r) = (o.trim(), r.trim());
    if o.is_empty() || !(starts || ends) {
        return None;
    }
    let diff = similar::TextDiff::from_chars(o, r);
    let ops = diff.ops();
    let text = |op: &similar::DiffOp| -> String {
        r.chars()
            .skip(op.new_range().start)
            .take(op.new_range().len())
            .collect()
    };
    let inserted = |op: Option<&similar::DiffOp>| {
        op.filter(|op| op.tag() == similar::DiffTag::Insert)
            .map(text)
            .filter(|t| !t.trim().is_empty())
    };
    let tail = if ends { inserted(ops.last()) } else { None };
    let head = if starts { inserted(ops.first()) } else { None };
    tail.or(head).map(|t| t.trim().to_string())
}

/// A corrected edit for region `c`, or why none is offered.
fn suggest(
    content: &str,
    old: &str,
    new: &str,
    c: Closest,
    edit: &Edit,
    original: &str,
) -> (Option<Edit>, Option<String>) {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(memchr::memchr_iter(b'\n', content.as_bytes()).map(|i| i + 1))
        .collect();
    // The region's first byte, and the byte after its last line (its `\n`
    // included, when it has one).
    let Some(&from) = c.start_line.checked_sub(1).and_then(|i| starts.get(i)) else {
        return (None, Some("the region is past the end of the file".into()));
    };
    let to = starts.get(c.end_line).copied().unwrap_or(content.len());
    let mut region = content.get(from..to).unwrap_or("");
    if !old.ends_with('\n') {
        region = region
            .strip_suffix('\n')
            .map(|r| r.strip_suffix('\r').unwrap_or(r))
            .unwrap_or(region);
    }
    let old_lines: Vec<&str> = old.lines().collect();
    let new_lines: Vec<&str> = new.lines().collect();
    let region_lines: Vec<&str> = region.lines().collect();
    if old_lines.len() != region_lines.len() {
        return (
            None,
            Some(format!(
                "{} of the text stand for {} of the file",
                words::count(old_lines.len(), "line"),
                words::count(region_lines.len(), "line")
            )),
        );
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let strings = diagnose::MultilineStrings::of(edit.path(), content);
    for (i, (o, r)) in old_lines.iter().zip(&region_lines).enumerate() {
        if !o.trim().is_empty() && o[..indent(o)] != r[..indent(r)] {
            return (
                None,
                Some(format!(
                    "line {} of the text is indented unlike file line {}, and the new text, written the same way, would land misindented",
                    i + 1,
                    c.start_line + i
                )),
            );
        }
        // The new text is written as it is: a damaged line it keeps would
        // be written back over the file's own.
        // A line differing only in Unicode normalisation is the file's line
        // (carried as the file has it): not damage.
        if diagnose::differs_in_content(o, r)
            && !diagnose::differs_only_in_normalisation(o, r)
            && new_lines.contains(o)
        {
            return (
                None,
                Some(format!(
                    "line {} of the text differs from file line {} in more than white space, and the new text keeps it as written",
                    i + 1,
                    c.start_line + i
                )),
            );
        }
        // A line the new text changes whose file line is spaced otherwise
        // inside a string literal: the model's spacing would be written
        // over the file's (the one check every suggestion builder runs).
        if !new_lines.contains(o)
            && let Some(literal) =
                diagnose::spaced_otherwise(o, r, || strings.at(c.start_line - 1 + i))
        {
            return (
                None,
                Some(diagnose::string_spacing_withheld(
                    c.start_line + i,
                    &literal,
                )),
            );
        }
        // The text's first line starting after the start of its file line,
        // or its last (when the text ends inside a line) stopping short of
        // the line's end: the corrected edit, the whole line, would write
        // away what the model did not send (`fetch(rows)[0]`'s `[0]`).
        let ends_inside = i + 1 == old_lines.len() && !old.ends_with('\n');
        if let Some(unseen) = unseen_part(o, r, i == 0, ends_inside) {
            return (
                None,
                Some(format!(
                    "line {} of the text does not show `{unseen}` of file line {} (`{}`), which the corrected edit, the whole line, would write away; send the edit with the file's whole line as it stands",
                    i + 1,
                    c.start_line + i,
                    r.trim()
                )),
            );
        }
        let (o, r) = (o.trim(), r.trim());
        let (lo, lr) = (o.chars().count(), r.chars().count());
        let ratio = if lo.max(lr) == 0 {
            1.0
        } else {
            lo.min(lr) as f64 / lo.max(lr) as f64
        };
        if ratio < MIN_LENGTH_RATIO {
            return (None, Some(length_withheld(i + 1, c.start_line + i, o, r)));
        }
        if similar::TextDiff::from_chars(o, r).ratio() < MIN_LINE_SIMILARITY as f32 {
            return (
                None,
                Some(format!(
                    "line {} of the text is unlike file line {}",
                    i + 1,
                    c.start_line + i
                )),
            );
        }
    }
    // Non-overlapping places, as `str::matches` counts them; one is enough
    // to tell after the first.
    let once = if region.is_empty() {
        content.matches(region).count() == 1
    } else {
        memchr::memmem::find_iter(content.as_bytes(), region.as_bytes())
            .take(2)
            .count()
            == 1
    };
    if !once {
        return (
            None,
            Some("the file's text of the region occurs more than once".into()),
        );
    }
    let mut written = match carried_onto_file(new, &old_lines, &region_lines) {
        Ok(carried) => carried,
        Err((i, clash)) => {
            return (
                None,
                Some(diagnose::line_form_withheld(
                    &format!("file line {}", c.start_line + i),
                    &format!("line {} of the text", i + 1),
                    &clash.file,
                    &clash.model,
                )),
            );
        }
    };
    // A line's trailing white space where it means something (a Markdown
    // hard break): as the model's edit means it, or no correction.
    if let Some(meaning) = diagnose::trailing::Meaning::of(edit.path()) {
        match diagnose::trailing::carry_ends_text(meaning, (old, new), region, &written) {
            Ok(Some(carried)) => written = carried,
            Ok(None) => {}
            Err(doubt) => {
                let place = format!("file line {}", c.start_line + doubt.file);
                return (None, Some(doubt.describe(&place)));
            }
        }
    }
    // The old text's CRLF endings where the file (as the agent reads it)
    // has LF: the new text's too, or the agent, writing a CRLF file's lines
    // back in CRLF, would end them `\r\r\n` (a tester's find).
    if old.contains("\r\n") && !region.contains('\r') {
        written = written.replace("\r\n", "\n");
    }
    let fixed = with_texts(edit, region, &written);
    match run(&fixed, Some(original)) {
        Ok(done) if done.occurrences == 1 => (Some(fixed), None),
        _ => (None, Some("the corrected edit would not apply".into())),
    }
}

/// The new text with the file's own text where the model's differs only as
/// a rendering of it: a line the new text keeps from the old text (context
/// the model did not mean to change) is written as the file has it, and
/// where the old text's lines differ from the file's only by typographic
/// look-alikes (smart quotes, dashes: a rendering the model applied to the
/// file's text), the new lines' look-alikes are made plain too. Written as
/// sent, they would change lines the model did not mean to change. A line
/// the model rewrites keeps the file's form where the model kept the text
/// ([`diagnose::carry_form`]: a TSV row's tabs, a Markdown hard break, the
/// file's en dash); `Err` the old line (0-based) where the two meet.
fn carried_onto_file(
    new: &str,
    old_lines: &[&str],
    region_lines: &[&str],
) -> Result<String, (usize, diagnose::FormClash)> {
    use crate::diagnose::plain_lookalikes;
    let rendered = old_lines.iter().zip(region_lines).any(|(o, r)| {
        o != r && plain_lookalikes(o) == plain_lookalikes(r) && plain_lookalikes(r) == *r
    });
    let pieces: Vec<&str> = new.split_inclusive('\n').collect();
    let bodies: Vec<&str> = pieces
        .iter()
        .map(|piece| piece.trim_end_matches(['\n', '\r']))
        .collect();
    let ops = crate::textdiff::ops(old_lines, &bodies, None);
    let rewrites = diagnose::rewritten_from(&ops, |i, k| {
        diagnose::line_likeness(old_lines[i], bodies[k])
    });
    let plain = |l: &str| {
        if rendered {
            plain_lookalikes(l)
        } else {
            l.to_string()
        }
    };
    let mut out = String::with_capacity(new.len());
    for ((piece, body), rewrite) in pieces.iter().zip(&bodies).zip(rewrites) {
        let end = &piece[body.len()..];
        let kept = old_lines
            .iter()
            .zip(region_lines)
            .find(|(o, r)| **o == *body && o != r)
            .map(|(_, r)| (*r).to_string());
        let line = match (kept, rewrite) {
            (Some(file_line), _) => file_line,
            (None, Some(i))
                if old_lines[i] != region_lines[i]
                    && !diagnose::differs_in_content(old_lines[i], region_lines[i]) =>
            {
                diagnose::carry_form(&plain(old_lines[i]), region_lines[i], &plain(body))
                    .map_err(|clash| (i, clash))?
            }
            (None, _) => plain(body),
        };
        out.push_str(&line);
        out.push_str(end);
    }
    Ok(out)
}

/// `edit` with its text to find replaced by `old` and its new text by `new`.
fn with_texts(edit: &Edit, old: &str, new: &str) -> Edit {
    let mut fixed = edit.clone();
    match &mut fixed {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => {
            *old_string = old.to_string();
            *new_string = new.to_string();
        }
        Edit::ClineEditor {
            old_text, new_text, ..
        } => {
            *old_text = Some(old.to_string());
            if new_text.is_some() {
                *new_text = Some(new.to_string());
            }
        }
        Edit::ClaudeWrite { .. } => {}
    }
    fixed
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An old text standing in many places: every place is kept with its
    /// lines (counted in one pass), the message lists the first twelve and
    /// counts the rest, with the true total.
    #[test]
    fn an_old_text_in_many_places_lists_twelve_and_counts_the_rest() {
        let content = "fn a() {\n}\n".repeat(15);
        let edit = Edit::ClaudeEdit {
            file_path: "a.rs".to_string(),
            old_string: "}".to_string(),
            new_string: "};".to_string(),
            replace_all: false,
        };
        let found = ambiguous("old_string", &content, "}", &edit);
        let lines: Vec<[usize; 2]> = (1..=15).map(|n| [2 * n, 2 * n]).collect();
        assert_eq!(found.occurrences, lines);
        assert!(
            found.message.starts_with(
                "old_string occurs 15 times (line 2, line 4, line 6, line 8, line 10, line 12, \
                 line 14, line 16, line 18, line 20, line 22, line 24 and 3 more): the edit \
                 cannot tell which is meant"
            ),
            "{}",
            found.message
        );
        let spanning = ambiguous("old_string", &"a\nb\n".repeat(3), "a\nb", &edit);
        assert_eq!(spanning.occurrences, vec![[1, 2], [3, 4], [5, 6]]);
    }

    /// A line much shorter or longer than the file's: part of it, holding
    /// it, or another line than the file's, which shares only its
    /// indentation (round 38a, finding 06: `return null;` is no part of
    /// `throw new Error("missing");`).
    #[test]
    fn a_line_unlike_the_files_in_length_is_told_by_what_it_shares() {
        assert_eq!(
            length_withheld(2, 5, "total +=", "total += o.price * o.qty"),
            "line 2 of the text looks like part of file line 5, and the file's whole line may \
             not be what the new text replaces"
        );
        assert_eq!(
            length_withheld(2, 5, "total += o.price * o.qty", "o.qty"),
            "line 2 of the text is much longer than file line 5: it holds code the file's line \
             does not, and what the new text should become there cannot be told"
        );
        assert_eq!(
            length_withheld(4, 4, "return null;", "throw new Error(\"missing\");"),
            "line 4 of the text as sent (`return null;`) is not file line 4 (`throw new \
             Error(\"missing\");`), and the edit changes that line: what the file's line should \
             become cannot be told; send the edit with the file's line as it stands"
        );
    }

    /// What a line of the text, part of its file line, does not show: the
    /// file's text after its last line (a text ending inside the line) or
    /// before its first; a typo inside the line is none.
    #[test]
    fn unseen_part_is_the_files_text_beyond_the_texts_ends() {
        let line = "    row = fetch(rows)[0]";
        for (text, (starts, ends), unseen) in [
            ("    row = fetchh(rows)", (true, true), Some("[0]")),
            ("    row = fetchh(rows)", (true, false), None),
            ("= fetch(rows)[0]", (true, false), Some("row")),
            ("    row = fetch(rowz)[0]", (true, true), None),
            ("    row = fetch(rows)[0]  ", (true, true), None),
        ] {
            assert_eq!(
                unseen_part(text, line, starts, ends),
                unseen.map(str::to_string),
                "{text:?}"
            );
        }
    }
}
