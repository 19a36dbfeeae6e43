//! The added lines of a hunk that matched only with its indentation
//! trimmed, re-indented as the file is: the reference writes `+` lines as
//! they are, so a hunk whose context was written two spaces in from the
//! file's leaves its new lines two spaces off. [`tighten`] rewrites the old
//! lines as the file has them; this carries the same indentation change
//! onto the added lines, when it can be told safely.
//!
//! The hunk's old lines and the file lines they matched pair one to one.
//! Their leading white space gives a map from the patch's indentation
//! widths to the file's. An added line is written either in the patch's
//! indentation (as its neighbours were) or already in the file's. They
//! stay as written only when every added width is one the file has and
//! none is a width the old lines have with another meaning in the file (a
//! line left at such a width would change depth). They are re-indented
//! when some added width is not one the file has (so the added lines are
//! in the patch's indentation) and every added width is one the old lines
//! have or follows the one shift (or scale) every old line agrees on.
//! Which indentation they follow is read from the added lines that begin
//! a statement; a line continuing one (inside brackets, after a `\`)
//! goes with the line it continues: scaled with it, or kept at its offset
//! under a word of the line above it, a run of them under the first.
//! Anything else is withheld, with the reason.
//!
//! [`tighten`]: super::render::tighten

use std::collections::BTreeMap;

use super::model::{Chunk, LineKind, Patch, Section};
use super::outcome::{HunkReport, PatchOutcome};
use super::render::tighten;
use super::seek::MatchLevel;

/// Why a hunk's added lines cannot be re-indented safely.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Unindentable {
    /// Old lines indented alike in the patch are indented differently in
    /// the file.
    #[error(
        "the hunk's lines indented by {width} are indented differently in the file, so \
         its added lines' indentation cannot be told"
    )]
    Inconsistent {
        /// The patch's width.
        width: usize,
    },
    /// The added lines' widths read as well in the patch's indentation as
    /// in the file's (or in neither), and the two give different results.
    #[error(
        "the file is indented unlike the hunk, and whether its added lines follow the \
         hunk's indentation or already the file's cannot be told"
    )]
    Unclear,
    /// An added line continuing the statement above it (inside brackets,
    /// after a `\`) has no width the file's indentation carries it to
    /// with confidence: a halved width that is no whole one, or a line
    /// lined up with spaces under a word in a file indented with tabs.
    #[error(
        "the file is indented unlike the hunk, and where its added line `{line}`, which \
         continues the statement above it, goes in the file's indentation cannot be told"
    )]
    Continuation {
        /// The added line, trimmed.
        line: String,
    },
    /// A docstring's continuation line that cannot move with its opening
    /// line, keeping its place against it (it would have to move left of
    /// where it starts).
    #[error(
        "the file is indented unlike the hunk, and the docstring line `{line}` cannot move \
         with the docstring's first line (it starts left of the distance it would move)"
    )]
    Docstring {
        /// The line, trimmed.
        line: String,
    },
    /// The hunk matched only loosely, and its lines fit other places as
    /// loosely ([`HunkReport::elsewhere`]): rewritten as the first place
    /// has them, the guess would read as certain.
    #[error(
        "it matched only loosely ({level}) at {taken}, and its lines fit {others} as \
         loosely: which place is meant cannot be told; send the hunk with context that \
         occurs only at the intended place (such as an @@ line naming the enclosing \
         function or class)"
    )]
    SeveralPlaces {
        /// The level's name.
        level: &'static str,
        /// The matched lines (`lines 2-3`).
        taken: String,
        /// The other places (`lines 8-9`, `lines 8-9 and 14-15`).
        others: String,
    },
}

impl Unindentable {
    /// For a loose `hunk` whose lines fit other places as loosely, the
    /// reason it is left as written.
    pub fn several_places(hunk: &HunkReport) -> Option<Self> {
        let (level, matched) = (hunk.level?, hunk.matched?);
        if hunk.elsewhere.is_empty() || !level.is_loose() {
            return None;
        }
        let len = matched.end_line + 1 - matched.start_line;
        let range = |first: usize| crate::words::line_range("line", first, first + len.max(1) - 1);
        let others: Vec<String> = hunk.elsewhere.iter().map(|&at| range(at + 1)).collect();
        Some(Unindentable::SeveralPlaces {
            level: level.name(),
            taken: range(matched.start_line),
            others: match others.split_last() {
                Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                _ => others.join(""),
            },
        })
    }
}

/// Width of a line's leading white space, in characters.
fn lead(line: &str) -> usize {
    line.chars().take_while(|c| c.is_whitespace()).count()
}

/// `chunk`'s added lines re-indented for the file lines `hunk` matched
/// (the old lines' texts as the file has them, from the report's
/// differing lines); `Ok(false)` when nothing changes.
pub fn reindent_added(chunk: &mut Chunk, hunk: &HunkReport) -> Result<bool, Unindentable> {
    let Some(matched) = hunk.matched else {
        return Ok(false);
    };
    // The file's text of each old line matched.
    let file_lines: Vec<String> = chunk
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Added)
        .enumerate()
        .take(matched.end_line + 1 - matched.start_line)
        .map(|(i, line)| {
            hunk.differing
                .iter()
                .find(|d| d.line == matched.start_line + i)
                .map_or(line.text.clone(), |d| d.file.clone())
        })
        .collect();
    // An added line the model keeps as it is (the same text as the old
    // line it stands for): the file's own line, never re-indented (a
    // recipe's continuation `\t    lint clean"` inside a quoted string is
    // not five tabs). The file's text for each line after the hunk.
    let kept: Vec<Option<String>> = {
        let old = chunk.old_lines();
        let new = chunk.new_lines();
        let kinds: Vec<LineKind> = chunk.new_side().map(|l| l.kind).collect();
        let mut kept = vec![None; new.len()];
        for op in crate::textdiff::ops(&old, &new, None) {
            if let similar::DiffOp::Equal { .. } = op {
                for (i, k) in op.old_range().zip(op.new_range()) {
                    if kinds[k] == LineKind::Added
                        && let Some(file) = file_lines.get(i).filter(|f| **f != new[k])
                    {
                        kept[k] = Some(file.clone());
                    }
                }
            }
        }
        kept
    };
    // A docstring's continuation lines are its text, not statements: they
    // move with its opening line, each keeping its place against it
    // ([`place_docstrings`]), and are no line the indentation is read from.
    let docstring = {
        let new = chunk.new_lines();
        crate::diagnose::docstring_content(&crate::diagnose::string_spans(&new), new.len())
    };
    let in_docstring: Vec<bool> = docstring.iter().map(Option::is_some).collect();
    let written: Vec<String> = chunk.new_lines().into_iter().map(String::from).collect();
    let placed = place_added(chunk, hunk, &file_lines, &kept, &in_docstring)?;
    let moved = place_docstrings(chunk, (&written, &file_lines), &kept, &docstring)?;
    let mut carried = false;
    for (line, file) in chunk.new_side_mut().zip(kept) {
        if let Some(file) = file {
            line.text = file;
            carried = true;
        }
    }
    Ok(placed || moved || carried)
}

/// [`reindent_added`] for the lines the model changes (`kept`: the file's
/// text of each line after the hunk the model keeps as it is, carried by
/// the caller; `in_docstring`: each line after the hunk that is a
/// docstring's continuation line, left to [`place_docstrings`] and read
/// as blank here).
fn place_added(
    chunk: &mut Chunk,
    hunk: &HunkReport,
    file_lines: &[String],
    kept: &[Option<String>],
    in_docstring: &[bool],
) -> Result<bool, Unindentable> {
    // (patch width, file width) of every non-blank old line matched.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    // The file's own leading white space at each width it has (a recipe's
    // `\t    `: a tab and four spaces, not five of either).
    let mut prefixes: BTreeMap<usize, String> = BTreeMap::new();
    // Old lines inside a bracket opened before the hunk (the arguments
    // ending a call) are aligned, not indented: where the new lines go on
    // after that bracket closes (a method added after the call ending the
    // one before), their columns say nothing of the file's indentation,
    // and none other telling it leaves it unclear (the measurement of
    // tester 42a-11's fix: a new method after two such lines, shifted by
    // their 6 columns, landed inside the method before it).
    let old_texts = chunk.old_lines();
    let new_texts = chunk.new_lines();
    let outer = crate::diagnose::opened_before(&old_texts);
    let after_outer = crate::diagnose::opened_before(&new_texts);
    let goes_on = outer > 0
        && chunk.new_side().enumerate().any(|(k, l)| {
            k >= after_outer && l.kind == LineKind::Added && !l.text.trim().is_empty()
        });
    let skip = if goes_on { outer } else { 0 };
    let old = chunk.lines.iter().filter(|l| l.kind != LineKind::Added);
    for (line, file_line) in old.zip(file_lines).skip(skip) {
        if !line.text.trim().is_empty() && !file_line.trim().is_empty() {
            pairs.push((lead(&line.text), lead(file_line)));
            prefixes
                .entry(lead(file_line))
                .or_insert_with(|| file_line.chars().take(lead(file_line)).collect());
        }
    }
    if skip > 0 && pairs.is_empty() {
        return Err(Unindentable::Unclear);
    }
    let mut map: BTreeMap<usize, usize> = BTreeMap::new();
    for &(patch, file) in &pairs {
        if *map.entry(patch).or_insert(file) != file {
            return Err(Unindentable::Inconsistent { width: patch });
        }
    }
    let relation = uniform_relation(&pairs);
    let mapped = |w: usize| {
        map.get(&w)
            .copied()
            .or_else(|| relation.as_ref().and_then(|r| r(w)))
    };
    let pad_char = hunk
        .differing
        .iter()
        .find_map(|d| d.file.chars().next().filter(|c| *c == ' ' || *c == '\t'))
        .unwrap_or(' ');
    // An added line at a width no old line has that lines up with a word
    // of the line before it (a YAML key under the one after `- `, a
    // Haskell binding): aligned, not nested; it keeps its offset from that
    // line, which a scale would break. A line continuing a statement
    // (inside brackets, after a `\`) lined up so keeps it at any width,
    // and one at the width of the continuation before it stays under that
    // one. The file width of each added line so placed; the first
    // continuation with no sure place.
    let mut aligned: Vec<Option<usize>> = Vec::new();
    // Whether each added line (not blank) continues a statement.
    let mut added_continues: Vec<bool> = Vec::new();
    let mut uncarried: Option<String> = None;
    let new_lines: Vec<&str> = chunk
        .new_side()
        .zip(in_docstring.iter().chain(std::iter::repeat(&false)))
        .map(|(l, &doc)| if doc { "" } else { l.text.as_str() })
        .collect();
    let continuations = crate::diagnose::continuation_lines(&new_lines);
    // A line read as blank: white space only, or a docstring's text.
    let blank = |line: &super::model::ChunkLine, doc: bool| doc || line.text.trim().is_empty();
    // The line before: its text, file width, whether it continues.
    let mut prev: Option<(&str, Option<usize>, bool)> = None;
    for (((line, &continues), kept), &doc) in chunk
        .new_side()
        .zip(&continuations)
        .zip(kept)
        .zip(in_docstring)
    {
        if doc {
            continue;
        }
        let have = lead(&line.text);
        let mut want = mapped(have);
        if line.kind == LineKind::Added && !line.text.trim().is_empty() {
            let lined_up = prev.filter(|(text, _, _)| {
                (continues || !map.contains_key(&have))
                    && crate::diagnose::lines_up_with_a_word(text, &line.text)
            });
            let under = prev.filter(|(text, _, prev_continues)| {
                continues && *prev_continues && have == lead(text)
            });
            let offset = match (lined_up, under) {
                (Some((text, at, _)), _) => at.map(|at| at + (have - lead(text))),
                (None, Some((_, at, _))) => at,
                (None, None) => None,
            };
            // A kept line is the file's own: its place is sure.
            let unsure = kept.is_none()
                && continues
                && ((lined_up.is_some() && pad_char != ' ') || offset.or(want).is_none());
            if unsure && uncarried.is_none() {
                uncarried = Some(line.text.trim().to_string());
            }
            if offset.is_some() {
                want = offset;
            }
            aligned.push(offset);
            added_continues.push(continues);
        }
        if !line.text.trim().is_empty() {
            prev = Some((line.text.as_str(), want, continues));
        }
    }
    let added: Vec<usize> = chunk
        .new_side()
        .zip(in_docstring)
        .filter(|(l, doc)| l.kind == LineKind::Added && !blank(l, **doc))
        .map(|(l, _)| lead(&l.text))
        .collect();
    let all_mapped = added
        .iter()
        .zip(&aligned)
        .all(|(&w, offset)| offset.is_some() || mapped(w).is_some());
    // Which indentation the added lines follow is read from those that
    // begin a statement: a continuation goes with the line it continues.
    // Added lines that all continue one (a new argument under an opener
    // kept as context) follow the hunk's indentation, as that line does.
    let statements: Vec<usize> = added
        .iter()
        .zip(&added_continues)
        .filter(|(_, continues)| !**continues)
        .map(|(w, _)| *w)
        .collect();
    let mut in_file = false;
    if !statements.is_empty() || added.is_empty() {
        if statements.iter().all(|&w| mapped(w) == Some(w)) {
            return Ok(false);
        }
        let file_widths: Vec<usize> = map.values().copied().collect();
        in_file = statements.iter().all(|w| file_widths.contains(w));
        // Left as written, an added line at a width the old lines have
        // would keep the patch's meaning of it only if the file gives it
        // the same.
        let meaning_kept = statements
            .iter()
            .all(|w| map.get(w).is_none_or(|file| file == w));
        if in_file && meaning_kept {
            return Ok(false);
        }
    } else if added
        .iter()
        .zip(&aligned)
        .all(|(&w, offset)| offset.or(mapped(w)) == Some(w))
    {
        return Ok(false);
    }
    if let Some(line) = uncarried {
        return Err(Unindentable::Continuation { line });
    }
    // Added lines that begin a statement each at the width of a line the
    // hunk removes (the rewritten `return` at the removed one's column):
    // written in the hunk's indentation, as the lines they replace are,
    // whatever widths the file has (a tester's find: the same method
    // change was re-indented as an edit, and withheld as a patch; read in
    // the file's indentation it would leave a method's `return` in the
    // class body). A line only added beside context lines stays unclear.
    let removed: Vec<usize> = chunk
        .lines
        .iter()
        .filter(|l| l.kind == LineKind::Removed && !l.text.trim().is_empty())
        .map(|l| lead(&l.text))
        .collect();
    let in_hunks = !statements.is_empty()
        && statements
            .iter()
            .all(|w| removed.contains(w) && map.contains_key(w));
    if (in_file && !in_hunks) || !all_mapped {
        return Err(Unindentable::Unclear);
    }
    let mut aligned = aligned.into_iter();
    for ((line, kept), &doc) in chunk.new_side_mut().zip(kept).zip(in_docstring) {
        if line.kind != LineKind::Added || blank(line, doc) {
            continue;
        }
        let offset = aligned.next().flatten();
        if kept.is_some() {
            continue;
        }
        let have = lead(&line.text);
        let want = offset.or(mapped(have)).ok_or(Unindentable::Unclear)?;
        let body: String = line.text.chars().skip(have).collect();
        let pad = match prefixes.get(&want) {
            Some(own) if offset.is_none() => own.clone(),
            _ => std::iter::repeat_n(pad_char, want).collect(),
        };
        line.text = pad + &body;
    }
    Ok(true)
}

/// The continuation lines of each docstring among the lines after the
/// hunk (`docstring`: per line, the docstring it belongs to) that the hunk
/// adds, moved as its opening line moved from as it was `written` (each
/// line after the hunk, before [`place_added`] re-indented them) to where
/// it is now (re-indented, the file's own line the model keeps, or a
/// context line written as the file has it: `file_lines`): each keeps its place against the opening line, as black
/// or an editor re-indents a docstring with its code, so what it reads
/// (`inspect.cleandoc`) is the same. A line the model keeps as it is
/// (`kept`) is the file's own. `Ok(true)` when a line moved.
fn place_docstrings(
    chunk: &mut Chunk,
    (written, file_lines): (&[String], &[String]),
    kept: &[Option<String>],
    docstring: &[Option<usize>],
) -> Result<bool, Unindentable> {
    // Per line after the hunk: its kind, its text now, and its text as
    // written.
    let mut old_index = 0;
    let mut rows: Vec<(LineKind, String, String)> = Vec::new();
    for line in &chunk.lines {
        if line.kind != LineKind::Added {
            old_index += 1;
        }
        if line.kind == LineKind::Removed {
            continue;
        }
        let k = rows.len();
        let now = match (line.kind, kept.get(k).cloned().flatten()) {
            (_, Some(own)) => own,
            (LineKind::Context, None) => file_lines
                .get(old_index - 1)
                .cloned()
                .unwrap_or_else(|| line.text.clone()),
            _ => line.text.clone(),
        };
        let sent = written.get(k).cloned().unwrap_or_else(|| line.text.clone());
        rows.push((line.kind, now, sent));
    }
    let mut placed: Vec<Option<String>> = vec![None; rows.len()];
    let mut moved = false;
    for (k, span) in docstring.iter().enumerate() {
        let Some(doc) = span else { continue };
        let (kind, _, written) = &rows[k];
        if *kind != LineKind::Added || kept.get(k).is_some_and(Option::is_some) {
            continue;
        }
        // The opening line: the first of this docstring's lines, less one.
        let Some(open) = docstring.iter().position(|d| d == &Some(*doc)) else {
            continue;
        };
        let Some((_, now_open, written_open)) = open.checked_sub(1).and_then(|o| rows.get(o))
        else {
            continue;
        };
        let text = match crate::diagnose::docstring_moved_with(written_open, now_open, written) {
            Some(text) => text,
            None if written.trim().is_empty() => written.clone(),
            None => {
                return Err(Unindentable::Docstring {
                    line: written.trim().to_string(),
                });
            }
        };
        if text != *written {
            placed[k] = Some(text);
            moved = true;
        }
    }
    for (line, place) in chunk.new_side_mut().zip(placed) {
        if let Some(text) = place {
            line.text = text;
        }
    }
    Ok(moved)
}

/// `patch` [`tighten`]ed for `outcome`, with the added lines of every
/// hunk that matched loosely re-indented as the file is (see
/// [`reindent_added`]). A hunk whose added lines cannot be re-indented
/// safely is left as written; its `[section, hunk]` and the reason come
/// back with the patch.
///
/// [`tighten`]: super::render::tighten
pub fn tighten_reindented(
    patch: &Patch,
    outcome: &PatchOutcome,
) -> (Patch, Vec<([usize; 2], Unindentable)>) {
    let mut reindented = patch.clone();
    let mut withheld = Vec::new();
    for (s, (section, report)) in reindented
        .sections
        .iter_mut()
        .zip(&outcome.sections)
        .enumerate()
    {
        let Section::Update { chunks, .. } = section else {
            continue;
        };
        for (h, (chunk, hunk)) in chunks.iter_mut().zip(&report.hunks).enumerate() {
            if !hunk.level.is_some_and(MatchLevel::is_loose) {
                continue;
            }
            if let Some(why) = Unindentable::several_places(hunk) {
                withheld.push(([s, h], why));
                continue;
            }
            match reindent_added(chunk, hunk) {
                Err(why) => withheld.push(([s, h], why)),
                Ok(_) => {
                    if let Some(matched) = hunk.matched {
                        super::render::carry_loose_forms(
                            chunk,
                            matched.start_line,
                            &hunk.differing,
                        );
                    }
                }
            }
        }
    }
    let mut tight = tighten(&reindented, outcome);
    for ([s, h], _) in &withheld {
        if let (Some(Section::Update { chunks, .. }), Some(Section::Update { chunks: own, .. })) =
            (tight.sections.get_mut(*s), patch.sections.get(*s))
            && let (Some(slot), Some(chunk)) = (chunks.get_mut(*h), own.get(*h))
        {
            *slot = chunk.clone();
        }
    }
    (tight, withheld)
}

/// `fixed`, a correction of the model's patch `sent` (hunk for hunk), with
/// each added line's trailing white space as the model's hunk means it
/// where that white space means something in the file (a Markdown hard
/// break: [`crate::diagnose::trailing`]); `Err` with the sentence saying
/// why a hunk cannot carry it (the hunk and the file's line named).
pub fn carry_ends(sent: &Patch, fixed: &mut Patch) -> Result<(), String> {
    use crate::diagnose::trailing::{Meaning, carry_ends as carry};
    for (section, own) in fixed.sections.iter_mut().zip(&sent.sections) {
        let (Section::Update { chunks, path, .. }, Section::Update { chunks: own, .. }) =
            (section, own)
        else {
            continue;
        };
        let Some(meaning) = Meaning::of(path) else {
            continue;
        };
        for (k, (chunk, own)) in chunks.iter_mut().zip(own).enumerate() {
            let carried = carry(
                meaning,
                &own.old_lines(),
                &own.new_lines(),
                &chunk.old_lines(),
                &chunk.new_lines(),
            )
            .map_err(|doubt| {
                doubt.describe(&format!("the file's line in hunk {} of {path}", k + 1))
            })?;
            let Some(carried) = carried else { continue };
            let lines = chunk.new_side_mut();
            for (line, text) in lines.zip(carried) {
                if line.text == text {
                    continue;
                }
                if line.kind == LineKind::Context {
                    return Err(format!(
                        "in hunk {} of {path}, the context line `{}` would have to end \
                         otherwise than the file's line to keep what the model's hunk means",
                        k + 1,
                        line.text
                    ));
                }
                line.text = text;
            }
        }
    }
    Ok(())
}

/// The one shift (or whole scale) every pair agrees on, as a function of
/// the patch's width. A width a halving (or smaller) scale takes to no whole width maps to
/// none.
fn uniform_relation(pairs: &[(usize, usize)]) -> Option<Box<dyn Fn(usize) -> Option<usize>>> {
    let &(p0, f0) = pairs.first()?;
    let shift = f0 as isize - p0 as isize;
    if pairs.iter().all(|&(p, f)| f as isize - p as isize == shift) {
        return Some(Box::new(
            move |w| Some((w as isize + shift).max(0) as usize),
        ));
    }
    if pairs.iter().any(|&(p, _)| p > 0) {
        for k in 2..=4 {
            if pairs.iter().all(|&(p, f)| f == p * k) {
                return Some(Box::new(move |w| Some(w * k)));
            }
            if pairs.iter().all(|&(p, f)| p == f * k) && pairs.iter().all(|&(p, _)| p % k == 0) {
                return Some(Box::new(move |w| w.is_multiple_of(k).then_some(w / k)));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::model::ChunkLine;
    use crate::dialect::apply_patch::outcome::{HunkState, LooseLine};
    use crate::engine::LineSpan;

    fn chunk(lines: &[(LineKind, &str)]) -> Chunk {
        Chunk {
            context: None,
            header_line: None,
            lines: lines
                .iter()
                .map(|&(kind, text)| ChunkLine {
                    kind,
                    text: text.into(),
                    patch_line: 0,
                })
                .collect(),
            is_eof: false,
        }
    }

    /// A report of `chunk` matched from file line 1, where `file` has the
    /// old lines as the file has them.
    fn report(chunk: &Chunk, file: &[&str]) -> HunkReport {
        let old = chunk.old_lines();
        HunkReport {
            file: "m.py".into(),
            index: 0,
            patch_lines: [1, 1],
            state: HunkState::Applied,
            header: None,
            level: None,
            matched: Some(LineSpan {
                start_line: 1,
                end_line: old.len(),
            }),
            replaced: None,
            replacement: None,
            differing: old
                .iter()
                .zip(file)
                .enumerate()
                .filter(|(_, (p, f))| p != f)
                .map(|(i, (p, f))| LooseLine {
                    line: i + 1,
                    file: f.to_string(),
                    patch: p.to_string(),
                })
                .collect(),
            dropped_trailing_blank: false,
            error: None,
            elsewhere: Vec::new(),
        }
    }

    fn added(chunk: &Chunk) -> Vec<&str> {
        chunk
            .lines
            .iter()
            .filter(|l| l.kind == LineKind::Added)
            .map(|l| l.text.as_str())
            .collect()
    }

    use LineKind::{Added as A, Context as C};

    /// Asserts `reindent_added` on a chunk of `lines` matched where `file`
    /// has its old lines returns `want` and leaves the added lines `added`,
    /// naming the chunk.
    fn assert_reindented(
        lines: &[(LineKind, &str)],
        file: &[&str],
        want: Result<bool, Unindentable>,
        added_after: &[&str],
    ) {
        let mut c = chunk(lines);
        let r = report(&c, file);
        assert_eq!(reindent_added(&mut c, &r), want, "{lines:?}");
        assert_eq!(added(&c), added_after, "{lines:?}");
    }

    #[test]
    fn added_lines_in_the_hunk_s_indentation_take_the_file_s() {
        assert_reindented(
            &[
                (C, "def f(b):"),
                (C, "  if b == 0:"),
                (C, "      raise E"),
                (A, "  b = float(b)"),
                (C, "  return b"),
            ],
            &[
                "def f(b):",
                "    if b == 0:",
                "        raise E",
                "    return b",
            ],
            Ok(true),
            &["    b = float(b)"],
        );
    }

    #[test]
    fn added_lines_already_in_the_file_s_indentation_stay() {
        assert_reindented(
            &[
                (C, "def f(b):"),
                (LineKind::Removed, "  x = 1"),
                (A, "    x = 2"),
                (C, "  return x"),
            ],
            &["def f(b):", "    x = 1", "    return x"],
            Ok(false),
            &["    x = 2"],
        );
    }

    #[test]
    fn a_width_both_sides_have_is_withheld() {
        assert_reindented(
            &[(C, "  a"), (C, "    b"), (A, "    c")],
            &["    a", "      b"],
            Err(Unindentable::Unclear),
            &["    c"],
        );
    }

    /// An added line at the width of a line the hunk removes (the file
    /// has that width too, with another meaning) is read in the hunk's
    /// indentation, as the same change sent as an old/new string edit is
    /// (tester round 40b, 07: a method's `return` rewritten at the removed
    /// one's column was withheld as a patch, re-indented as an edit).
    #[test]
    fn a_line_rewritten_at_the_removed_ones_width_is_read_as_the_hunks() {
        assert_reindented(
            &[
                (C, "def total(self):"),
                (LineKind::Removed, "    return self.subtotal()"),
                (A, "    return round(self.subtotal(), 2)"),
            ],
            &["    def total(self):", "        return self.subtotal()"],
            Ok(true),
            &["        return round(self.subtotal(), 2)"],
        );
    }

    #[test]
    fn an_added_width_the_old_lines_give_another_meaning_is_not_left() {
        // Patch widths 0 and 4 are the file's 4 and 8: `if x:` left at 4
        // would leave the method; read as the patch's, 8 would follow the
        // shift. Either reading holds, so neither is taken.
        assert_reindented(
            &[
                (C, "def f(self):"),
                (C, "    x = 1"),
                (A, "    if x:"),
                (A, "        x += 1"),
                (C, "    return x"),
            ],
            &["    def f(self):", "        x = 1", "        return x"],
            Err(Unindentable::Unclear),
            &["    if x:", "        x += 1"],
        );
    }

    /// A tester's find (round 36b, the same in SEARCH/REPLACE): a line
    /// continuing a statement goes with the line it continues: scaled with
    /// it (inside brackets, after a `\`, under an opener kept as context),
    /// or lined up under a word of the line above at its offset from it,
    /// a run of them under the first. Where its place cannot be told, the
    /// hunk is withheld saying so.
    #[test]
    fn a_continuation_goes_with_the_line_it_continues() {
        let file = ["def f():", "    return 1"];
        let cases: [(&[&str], &[&str]); 3] = [
            (
                &["  v = (a +", "    b)", "  return v"],
                &["    v = (a +", "        b)", "    return v"],
            ),
            (
                &["  v = a + \\", "    b", "  return v"],
                &["    v = a + \\", "        b", "    return v"],
            ),
            (
                &["  v = foo(a,", "          b,", "          c)", "  return v"],
                &[
                    "    v = foo(a,",
                    "            b,",
                    "            c)",
                    "    return v",
                ],
            ),
        ];
        for (new, want) in cases {
            let mut lines = vec![(C, "def f():"), (LineKind::Removed, "  return 1")];
            lines.extend(new.iter().map(|l| (A, *l)));
            assert_reindented(&lines, &file, Ok(true), want);
        }
        // The opener kept as context.
        assert_reindented(
            &[
                (C, "def f():"),
                (C, "  v = foo("),
                (LineKind::Removed, "    a)"),
                (A, "    a,"),
                (A, "    b)"),
            ],
            &["def f():", "    v = foo(", "        a)"],
            Ok(true),
            &["        a,", "        b)"],
        );
        // Halved, the continuation's width 7 is no whole one; lined up
        // with spaces where the file indents with tabs.
        let unsure: [(&[&str], &[&str], &[&str]); 2] = [
            (
                &["def f():", "    return 1"],
                &["    v = (a +", "       b)"],
                &["def f():", "  return 1"],
            ),
            (
                &["def f():", "  return 1"],
                &["  v = foo(a,", "          b)"],
                &["def f():", "\treturn 1"],
            ),
        ];
        let why = Unindentable::Continuation { line: "b)".into() };
        for (old, new, file) in unsure {
            let mut lines = vec![(C, old[0]), (LineKind::Removed, old[1])];
            lines.extend(new.iter().map(|l| (A, *l)));
            assert_reindented(&lines, file, Err(why.clone()), new);
        }
        assert!(why.to_string().ends_with(
            "where its added line `b)`, which continues the statement above it, goes in the \
             file's indentation cannot be told"
        ));
    }

    #[test]
    fn a_width_indented_two_ways_is_withheld() {
        assert_reindented(
            &[(C, "  a"), (C, "  b"), (A, "  c")],
            &["    a", "      b"],
            Err(Unindentable::Inconsistent { width: 2 }),
            &["  c"],
        );
    }

    #[test]
    fn a_new_width_follows_a_uniform_shift() {
        assert_reindented(
            &[(C, "  if x:"), (A, "      y()")],
            &["    if x:"],
            Ok(true),
            &["        y()"],
        );
    }
}
