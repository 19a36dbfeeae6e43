//! Why an apply_patch hunk failed (or only matched loosely), where it was
//! meant to go, and the hunk corrected.
//!
//! A hunk's old lines (context and removed) and new lines (context and
//! added) are diagnosed as a SEARCH/REPLACE block with those texts, so a
//! hunk gets the reason, closest region, differences and line diff a block
//! gets, with the same floor and tie rules: no region below
//! [`MIN_SIMILARITY`], none when two regions are about equally similar or
//! when every line occurs several times. A corrected hunk is offered only
//! when the block diagnosis offers a corrected block (the file's own lines,
//! the author's change merged onto them) and the region lies where the
//! reference searches for the hunk (after the previous hunk's match and
//! its own `@@` line). A failing `@@ context` line gets its own
//! explanation: the closest file line at or after where it is searched.

use serde::Serialize;

use super::apply::apply;
use super::fs::{Entry, PatchFs, SharedText, normalize};
use super::model::{Chunk, ChunkLine, LineKind, Patch, Section};
use super::outcome::{HeaderMatch, HunkReport, HunkState, PatchOutcome};
use super::reindent::{Unindentable, tighten_reindented};
use super::seek::MatchLevel;
use super::update::line_texts;
use crate::diagnose::{
    self, BlockDiagnosis, Closest, DiffLine, Difference, MIN_SIMILARITY, Reason, TIE_MARGIN,
};
use crate::engine::Options;
use crate::engine::markers::{
    REPLACE_END, SEARCH_START, SEPARATOR, canonical_block, is_marker, whole_lines,
};
use crate::words;

/// A file line an `@@` context line may stand for.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ClosestLine {
    /// 1-based line of the file.
    pub line: usize,
    /// The file line's text.
    pub text: String,
    /// Character-level similarity (both ends trimmed) in [0, 1]; in JSON
    /// with three decimals, cut (never rounded up), as every similarity.
    #[serde(serialize_with = "three_decimals")]
    pub similarity: f64,
}

/// A similarity as JSON gives it: three decimals, cut.
fn three_decimals<S: serde::Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(words::similarity_in_thousandths(*value))
}

/// Why an `@@ context` line was not found.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeaderDiagnosis {
    /// The `@@` line's context text, as the patch has it.
    pub context: String,
    /// 1-based file line from which it was searched.
    pub searched_from: usize,
    /// The one most similar line at or after `searched_from`, at or above
    /// [`MIN_SIMILARITY`]; `None` below the floor or on a tie.
    pub closest: Option<ClosestLine>,
    /// Two lines about equally similar: neither is offered.
    pub tie: Option<[ClosestLine; 2]>,
    /// One sentence for people.
    pub message: String,
}

/// Everything known about one failed or loosely matched hunk.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HunkDiagnosis {
    /// The file as the patch names it.
    pub file: String,
    /// 0-based section of the patch.
    pub section: usize,
    /// 0-based hunk within the section.
    pub index: usize,
    /// 1-based first and last patch lines of the hunk.
    pub patch_lines: [usize; 2],
    /// What the engine did with the hunk.
    pub state: HunkState,
    /// The level the hunk matched at (`None` when it failed).
    pub level: Option<MatchLevel>,
    /// Set when the `@@` line was not found.
    pub header: Option<HeaderDiagnosis>,
    /// Why it failed or matched only loosely (`None` when that cannot be told).
    pub reason: Option<Reason>,
    /// The region the old lines were meant for (1-based file lines).
    pub closest: Option<Closest>,
    /// Two regions about equally similar: neither is offered.
    pub tie: Option<[Closest; 2]>,
    /// Every old line occurs several times in the file: no region.
    pub vague: bool,
    /// How the old lines differ from the region, line by line.
    pub differences: Vec<Difference>,
    /// The hunk's old lines against the region, line by line.
    pub line_diff: Vec<DiffLine>,
    /// One sentence for people.
    pub message: String,
    /// The hunk rewritten so that it matches exactly at the region, with
    /// the result the author meant; `None` when that cannot be told.
    pub suggestion: Option<Chunk>,
    /// Why no suggestion is offered (when none is).
    pub withheld: Option<String>,
}

/// Diagnoses every failed hunk of `outcome` (the result of applying
/// `patch` over `fs` in `cwd`) and every hunk that matched at a loose level.
pub fn diagnose_hunks(
    patch: &Patch,
    outcome: &PatchOutcome,
    fs: &dyn PatchFs,
    cwd: &str,
) -> Vec<HunkDiagnosis> {
    let (tightened, unindentable) = tighten_reindented(patch, outcome);
    let mut out = Vec::new();
    for (s, (section, report)) in patch.sections.iter().zip(&outcome.sections).enumerate() {
        let Section::Update { chunks, .. } = section else {
            continue;
        };
        let Section::Update {
            chunks: tight_chunks,
            ..
        } = &tightened.sections[s]
        else {
            continue;
        };
        for (h, (chunk, hunk)) in chunks.iter().zip(&report.hunks).enumerate() {
            let loose = hunk.state == HunkState::Applied
                && (hunk.level.is_some_and(MatchLevel::is_loose)
                    || hunk.header.as_ref().is_some_and(HeaderMatch::is_loose));
            if loose {
                let unclear = unindentable
                    .iter()
                    .find(|(at, _)| *at == [s, h])
                    .map(|(_, why)| why);
                out.push(explain_loose(s, chunk, hunk, &tight_chunks[h], unclear));
            } else if hunk.state == HunkState::Failed {
                match section_input(patch, fs, cwd, s) {
                    Some(content) => {
                        let cursor = cursor_before(&report.hunks, h);
                        out.push(explain_failed(s, chunk, hunk, &content, cursor));
                    }
                    None => out.push(HunkDiagnosis {
                        message: format!(
                            "hunk {} of {} failed: {}",
                            h + 1,
                            hunk.file,
                            hunk.error.as_deref().unwrap_or("its file cannot be read")
                        ),
                        ..blank(s, hunk)
                    }),
                }
            }
        }
    }
    // Similarities in JSON have three decimals, cut, in every dialect (the
    // block diagnosis's are cut where they are made).
    for d in &mut out {
        for c in d.closest.iter_mut().chain(d.tie.iter_mut().flatten()) {
            c.similarity = words::similarity_in_thousandths(c.similarity);
        }
    }
    out
}

fn blank(section: usize, hunk: &HunkReport) -> HunkDiagnosis {
    HunkDiagnosis {
        file: hunk.file.clone(),
        section,
        index: hunk.index,
        patch_lines: hunk.patch_lines,
        state: hunk.state,
        level: hunk.level,
        header: None,
        reason: None,
        closest: None,
        tie: None,
        vague: false,
        differences: Vec::new(),
        line_diff: Vec::new(),
        message: String::new(),
        suggestion: None,
        withheld: None,
    }
}

/// The content section `s`'s file has when the section runs: the file
/// system's, as the sections before it left it. `None` when it is no
/// readable file then (or an earlier section fails).
pub(super) fn section_input(
    patch: &Patch,
    fs: &dyn PatchFs,
    cwd: &str,
    s: usize,
) -> Option<SharedText> {
    let key = normalize(patch.sections.get(s)?.path());
    if s > 0 {
        let earlier = Patch {
            sections: patch.sections[..s].to_vec(),
        };
        let outcome = apply(&earlier, fs, cwd);
        if outcome.exit_code != 0 {
            return None;
        }
        if let Some(content) = outcome.files.get(&key) {
            return content.clone().map(SharedText::new);
        }
    }
    // Only read: shared with `fs`, not copied.
    match fs.read_shared(&key) {
        Ok(content) => Some(content),
        Err(Entry::File(content)) => Some(SharedText::new(content)),
        Err(_) => None,
    }
}

/// 0-based file line from which hunk `h` of a section is searched (its
/// `@@` line included in the search): where the previous hunk's match (or
/// its `@@` line) ended.
pub(super) fn cursor_before(hunks: &[HunkReport], h: usize) -> usize {
    let mut cursor = 0;
    for report in &hunks[..h] {
        if let Some(header) = &report.header {
            cursor = header.line;
        }
        if let Some(matched) = report.matched {
            cursor = matched.end_line;
        }
    }
    cursor
}

/// `unindentable`: why the hunk's added lines cannot be re-indented as the
/// file is (no corrected hunk then).
fn explain_loose(
    s: usize,
    chunk: &Chunk,
    hunk: &HunkReport,
    tight: &Chunk,
    unindentable: Option<&Unindentable>,
) -> HunkDiagnosis {
    let mut out = blank(s, hunk);
    let level = hunk
        .level
        .filter(|l| l.is_loose())
        .or(hunk.header.as_ref().map(|m| m.level))
        .unwrap_or(MatchLevel::Exact);
    out.reason = Some(match level {
        MatchLevel::Unicode => Reason::UnicodeLookalike,
        _ => Reason::Whitespace,
    });
    if let Some(matched) = hunk.matched {
        let old = old_lines_matched(chunk, hunk);
        let region: Vec<String> = (0..old.len())
            .map(|i| {
                let line = matched.start_line + i;
                hunk.differing
                    .iter()
                    .find(|d| d.line == line)
                    .map_or_else(|| old[i].to_string(), |d| d.file.clone())
            })
            .collect();
        let region_refs: Vec<&str> = region.iter().map(String::as_str).collect();
        out.line_diff = diagnose::line_diff(&old, &region_refs, matched.start_line);
        out.differences = diagnose::differences(&out.line_diff);
        out.closest = (matched.end_line >= matched.start_line).then(|| Closest {
            start_line: matched.start_line,
            end_line: matched.end_line,
            similarity: similarity(&old.join("\n"), &region.join("\n")),
        });
    }
    let header_fixable = hunk
        .header
        .as_ref()
        .and_then(|m| m.differing.as_ref())
        .is_none_or(|d| d.file.trim_end() == d.file);
    let where_ = hunk.matched.map_or_else(
        || "its @@ line".to_string(),
        |m| words::line_range("line", m.start_line, m.end_line),
    );
    let lines = hunk.differing.len()
        + usize::from(hunk.header.as_ref().is_some_and(|m| m.differing.is_some()));
    // Only its @@ line is loose: that line is named and shown (a tester's
    // find: the message blamed the hunk's first line, shown the same in
    // both, and never named the @@ line).
    let header_only = hunk.level.is_none_or(|l| !l.is_loose())
        && hunk.differing.is_empty()
        && hunk.header.as_ref().is_some_and(|m| m.differing.is_some());
    if header_only
        && let Some((header, differing)) = hunk
            .header
            .as_ref()
            .and_then(|m| Some((m, m.differing.as_ref()?)))
    {
        out.line_diff = diagnose::line_diff(
            &[differing.patch.as_str()],
            &[differing.file.as_str()],
            header.line,
        );
        out.differences = diagnose::differences(&out.line_diff);
        out.message = format!(
            "hunk {} of {} matched {} with its lines exact, but its @@ line only at level {}: \
             the @@ line `{}` is `{}` at line {} of the file ({}).",
            hunk.index + 1,
            hunk.file,
            where_,
            level.name(),
            differing.patch,
            differing.file,
            header.line,
            out.reason.map_or("", Reason::describe)
        );
    } else {
        out.message = format!(
            "hunk {} of {} matched {} only at level {}: {} {} from the file ({}).",
            hunk.index + 1,
            hunk.file,
            where_,
            level.name(),
            words::count(lines, "line"),
            if lines == 1 { "differs" } else { "differ" },
            out.reason.map_or("", Reason::describe)
        );
    }
    if let Some(why) = unindentable {
        out.withheld = Some(why.to_string());
        out.message.push_str(&format!(" No corrected hunk: {why}."));
    } else if header_fixable {
        out.suggestion = Some(tight.clone());
    } else {
        out.withheld = Some(
            "the file's @@ line ends in white space, which a patch's @@ line cannot carry".into(),
        );
        out.message.push_str(" No corrected hunk: the file's @@ line ends in white space, which a patch's @@ line cannot carry.");
    }
    out
}

/// The old lines the report's match covers (the reference's retry may
/// have dropped a trailing empty one).
fn old_lines_matched<'c>(chunk: &'c Chunk, hunk: &HunkReport) -> Vec<&'c str> {
    let mut old = chunk.old_lines();
    if hunk.dropped_trailing_blank {
        old.pop();
    }
    old
}

/// A hunk that failed (its chunk and its report) over the file's `lines`:
/// what the explanations of a hunk found elsewhere read.
#[derive(Clone, Copy)]
struct Failed<'a> {
    chunk: &'a Chunk,
    hunk: &'a HunkReport,
    lines: &'a [&'a str],
}

fn explain_failed(
    s: usize,
    chunk: &Chunk,
    hunk: &HunkReport,
    content: &str,
    mut cursor: usize,
) -> HunkDiagnosis {
    let mut out = blank(s, hunk);
    let lines = line_texts(content);
    let failed = Failed {
        chunk,
        hunk,
        lines: &lines,
    };
    if let Some(earlier) = found_before(&lines, chunk, cursor) {
        return explain_out_of_order(out, failed, earlier, cursor);
    }
    if let Some(at) = found_without_bom(&lines, chunk, cursor) {
        return explain_bom(out, failed, at);
    }
    if let Some(at) = found_before_the_end(&lines, chunk, cursor) {
        return explain_not_at_end(out, failed, at);
    }
    let mut problems = Vec::new();
    let mut fixed_context = chunk.context.clone();
    match (&chunk.context, &hunk.header) {
        (Some(_), Some(found)) => cursor = found.line,
        (Some(context), None) => {
            let header = explain_header(context, &lines, cursor);
            if let Some(line) = &header.closest {
                cursor = line.line;
            }
            fixed_context = header.closest.as_ref().map(|l| l.text.clone());
            problems.push(header.message.clone());
            out.header = Some(header);
        }
        _ => {}
    }
    let old = chunk.old_lines();
    let new = chunk.new_lines();
    let header_failed = out.header.is_some();
    let header_withheld = out.header.is_some()
        && fixed_context
            .as_ref()
            .is_none_or(|text| text.trim_end() != text);
    if header_failed && seek_exact_from(&lines, &old, cursor, chunk.is_eof) {
        // The old lines are where the corrected @@ line leads.
        out.message = format!(
            "hunk {} of {}: {}",
            hunk.index + 1,
            hunk.file,
            problems.join(" ")
        );
        // The @@ line naming another line (a method's other name), where
        // the hunk's lines stand at more than one place: the @@ line is
        // what places it, and which place is meant cannot be told (a
        // tester's find: `def clear_all` corrected to `def clear`, one of
        // three places, and offered as exact).
        let places = old_places(&lines, &old);
        let renamed = |text: &str| {
            let bare = |s: &str| s.split_whitespace().collect::<String>();
            chunk
                .context
                .as_deref()
                .is_some_and(|c| bare(c) != bare(text))
        };
        match fixed_context {
            Some(text) if places.len() > 1 && renamed(&text) => {
                let at: Vec<String> = places.iter().map(|p| (p + 1).to_string()).collect();
                out.withheld = Some(format!(
                    "the @@ line names no line of the file (the closest, line {} `{}`, is \
                     another line), and the hunk's lines stand at {} places (lines {}): which \
                     is meant cannot be told",
                    out.header
                        .as_ref()
                        .and_then(|h| h.closest.as_ref())
                        .map_or(0, |c| c.line),
                    text.trim(),
                    places.len(),
                    at.join(", ")
                ));
            }
            Some(text) if text.trim_end() == text => {
                let mut fixed = chunk.clone();
                fixed.context = Some(text);
                out.suggestion = Some(fixed);
            }
            Some(_) => {
                out.withheld = Some(
                    "the file's line ends in white space, which a patch's @@ line cannot carry"
                        .into(),
                )
            }
            None => out.withheld = Some("the @@ line names no single line of the file".into()),
        }
        if let Some(why) = &out.withheld {
            out.message.push_str(&format!(" No corrected hunk: {why}."));
        }
        return out;
    }
    let Some(block) = block_diagnosis(&lines, &old, &new) else {
        out.reason = Some(Reason::MarkerTypo);
        out.message = format!(
            "hunk {} of {} failed: its lines are not in the file; a line reads as a SEARCH/REPLACE marker, so no region is looked for.",
            hunk.index + 1,
            hunk.file
        );
        out.withheld = Some("no region is looked for".into());
        return out;
    };
    let reason = block.reason.unwrap_or(Reason::NotFound);
    out.reason = Some(reason);
    let mut block = block;
    // Whether the region is ours rather than the block diagnosis's.
    let mut relocated = false;
    if let Some(c) = block.closest
        && let Some(better) = better_nearby(&lines, &old, c)
    {
        // The block diagnosis's region is off: a window beside it is
        // clearly more alike (its alignment may trim blank edge lines).
        let window = &lines[better.start_line - 1..better.end_line];
        block.closest = Some(better);
        block.suggestion = None;
        block.line_diff = diagnose::line_diff(&old, window, better.start_line);
        block.differences = diagnose::differences(&block.line_diff);
        relocated = true;
    }
    out.closest = block.closest;
    out.tie = block.tie;
    if let Some(c) = block.closest
        && let Some(other) = rival(&lines, &old, c)
    {
        // The SEARCH/REPLACE engine's own fallbacks may have picked one of
        // two equally good places: for a hunk, neither is the place.
        block.closest = None;
        block.tie = Some([c, other]);
        block.suggestion = None;
        out.closest = None;
        out.tie = block.tie;
    }
    out.vague = block.vague;
    out.differences = block.differences.clone();
    out.line_diff = block.line_diff.clone();
    let where_ = block.region_sentence(reason);
    let withheld = if header_withheld {
        Some("the @@ line names no single line of the file it can be corrected to".to_string())
    } else {
        match (block.closest, &block.suggestion) {
            (None, _) => Some("there is no single region to correct it onto".to_string()),
            (Some(c), _) if c.start_line <= cursor => Some(format!(
                "the region starts before line {}, where the hunk is searched from",
                cursor + 1
            )),
            (Some(_), None) if !relocated => Some(block.withheld.clone().unwrap_or_else(|| {
                "the author's change cannot be carried onto the file's lines unambiguously"
                    .to_string()
            })),
            (Some(c), _) if let Some(why) = renamed_context(&lines, chunk, c) => Some(why),
            (Some(c), text) => {
                match corrected_chunk(text.as_deref(), &lines, c, chunk, fixed_context) {
                    Some(fixed) => {
                        out.suggestion = Some(fixed);
                        None
                    }
                    None => Some("the corrected lines cannot be placed in the file".to_string()),
                }
            }
        }
    };
    let mut message = format!(
        "hunk {} of {} failed: its lines are not in the file; {where_}.",
        hunk.index + 1,
        hunk.file
    );
    if !problems.is_empty() {
        message = format!("{} {message}", problems.join(" "));
    }
    if let Some(why) = &withheld {
        message.push_str(&format!(" No corrected hunk: {why}."));
    }
    out.message = message;
    out.withheld = withheld;
    out
}

/// Where a hunk's old lines (after its `@@` line) are found searching
/// the whole file, when that is before `cursor`, where the reference
/// searches from (it searches forward only): the 0-based start and the
/// level. `None` for the first hunk, a pure addition, or lines not found
/// before `cursor`.
fn found_before(lines: &[&str], chunk: &Chunk, cursor: usize) -> Option<(usize, MatchLevel)> {
    let old = chunk.old_lines();
    if cursor == 0 || old.is_empty() {
        return None;
    }
    let from = match &chunk.context {
        Some(context) => super::seek::seek(lines, &[context.as_str()], 0, false)?.0 + 1,
        None => 0,
    };
    let (at, level) = super::seek::seek(lines, &old, from, chunk.is_eof)?;
    (at < cursor).then_some((at, level))
}

/// A hunk whose old lines are in the file, but before the previous hunk's
/// match: hunks out of order. Their place is the region; no corrected hunk
/// (the hunks would have to be reordered).
fn explain_out_of_order(
    mut out: HunkDiagnosis,
    failed: Failed,
    (at, level): (usize, MatchLevel),
    cursor: usize,
) -> HunkDiagnosis {
    let Failed { chunk, hunk, lines } = failed;
    let old = chunk.old_lines();
    let window = &lines[at..at + old.len()];
    out.reason = Some(Reason::OutOfOrder);
    shown_at(&mut out, &old, window, at);
    let why = "the hunks are out of order; put this one before the previous hunk";
    let loose = if level.is_loose() {
        format!(" (at level {})", level.name())
    } else {
        String::new()
    };
    out.message = format!(
        "hunk {} of {} failed: its lines are found at {}{loose}, before the previous hunk's \
         match; the reference searches forward only, from line {}. No corrected hunk: {why}.",
        hunk.index + 1,
        hunk.file,
        words::line_range("line", at + 1, at + old.len()),
        cursor + 1,
    );
    out.withheld = Some(why.to_string());
    out
}

/// Where a hunk pinned by `*** End of File` finds its old lines exactly,
/// once, from `cursor` on, when that is not at the end of the file (the
/// file goes on after them, with blank lines most often): 0-based.
fn found_before_the_end(lines: &[&str], chunk: &Chunk, cursor: usize) -> Option<usize> {
    if !chunk.is_eof || chunk.context.is_some() {
        return None;
    }
    let old = chunk.old_lines();
    let (at, level) = super::seek::seek(lines, &old, cursor, false)?;
    let once = old_places(lines, &old).len() == 1;
    (level == MatchLevel::Exact && once && at + old.len() < lines.len()).then_some(at)
}

/// `out` shows the hunk's old lines `old` against `window`, the file's
/// lines from line `at` (0-based) on: the line diff, its differences, and
/// the region with its similarity.
fn shown_at(out: &mut HunkDiagnosis, old: &[&str], window: &[&str], at: usize) {
    out.line_diff = diagnose::line_diff(old, window, at + 1);
    out.differences = diagnose::differences(&out.line_diff);
    out.closest = Some(Closest {
        start_line: at + 1,
        end_line: at + old.len(),
        similarity: similarity(&old.join("\n"), &window.join("\n")),
    });
}

/// A hunk pinned by `*** End of File` whose lines stand once in the file,
/// exactly, but not at its end (a tester's find: "its lines are not in the
/// file; nothing similar exists" where they stood at line 11, a blank line
/// after them): said so, and corrected without the pin, which places it
/// there.
fn explain_not_at_end(mut out: HunkDiagnosis, failed: Failed, at: usize) -> HunkDiagnosis {
    let Failed { chunk, hunk, lines } = failed;
    let old = chunk.old_lines();
    let window = &lines[at..at + old.len()];
    let after = lines.len() - (at + old.len());
    let blank = lines[at + old.len()..].iter().all(|l| l.trim().is_empty());
    out.reason = Some(Reason::NotFound);
    shown_at(&mut out, &old, window, at);
    out.message = format!(
        "hunk {} of {} failed: it ends with `*** End of File`, which pins its lines to the end \
         of the file, and they stand at {}, exactly, with {} after them{}: not the end.",
        hunk.index + 1,
        hunk.file,
        words::line_range("line", at + 1, at + old.len()),
        words::count(after, "line"),
        if blank { " (blank)" } else { "" },
    );
    let mut fixed = chunk.clone();
    fixed.is_eof = false;
    out.suggestion = Some(fixed);
    out
}

/// The byte order mark a file may start with: the reference reads it as
/// part of the first line.
const BOM: char = '\u{FEFF}';

/// Where a hunk's old lines are found (0-based), as the reference searches
/// from `cursor`, once the byte order mark that starts the file is left
/// out, when they cover the file's first line (or its `@@` line is it).
fn found_without_bom(lines: &[&str], chunk: &Chunk, cursor: usize) -> Option<usize> {
    let first = lines.first()?.strip_prefix(BOM)?;
    let mut plain = lines.to_vec();
    plain[0] = first;
    let mut from = cursor;
    let mut header_first = false;
    if let Some(context) = &chunk.context {
        let (at, _) = super::seek::seek(&plain, &[context.as_str()], cursor, false)?;
        header_first = at == 0;
        from = at + 1;
    }
    let old = chunk.old_lines();
    let (at, _) = super::seek::seek(&plain, &old, from, chunk.is_eof)?;
    (header_first || (at == 0 && !old.is_empty())).then_some(at)
}

/// A hunk that fails only because the file starts with a byte order mark.
/// The corrected hunk carries the mark in its first old line, and in the
/// new line that takes that line's place, so the file keeps it.
fn explain_bom(mut out: HunkDiagnosis, failed: Failed, at: usize) -> HunkDiagnosis {
    let Failed { chunk, hunk, lines } = failed;
    let old = chunk.old_lines();
    let end = at + old.len();
    out.reason = Some(Reason::UnicodeLookalike);
    if let Some(window) = lines.get(at..end).filter(|w| !w.is_empty()) {
        shown_at(&mut out, &old, window, at);
    }
    let found = if old.is_empty() {
        String::new()
    } else {
        format!(
            "; without it the hunk's lines are found at {}",
            words::line_range("line", at + 1, end)
        )
    };
    out.message = format!(
        "hunk {} of {} failed: the file starts with a byte order mark (U+FEFF), which the \
         reference reads as part of line 1{found}.",
        hunk.index + 1,
        hunk.file,
    );
    match with_bom(chunk, lines, at) {
        Some(fixed) => out.suggestion = Some(fixed),
        None => {
            let why = "the hunk removes the file's first line and adds none in its place, so the \
                       mark cannot be kept";
            out.message.push_str(&format!(" No corrected hunk: {why}."));
            out.withheld = Some(why.to_string());
        }
    }
    out
}

/// `chunk` with the byte order mark on the old line that matches the file's
/// first line (and on the header, when that is the first line), and on the
/// added line that takes a removed first line's place.
fn with_bom(chunk: &Chunk, lines: &[&str], at: usize) -> Option<Chunk> {
    let mut fixed = chunk.clone();
    if at > 0 || chunk.old_lines().is_empty() {
        // Only the @@ line is the first line: it gets the mark.
        let context = fixed.context.as_mut()?;
        if lines.first()?.trim_end() != *lines.first()? {
            return None;
        }
        *context = lines.first()?.to_string();
        return Some(fixed);
    }
    let first_old = fixed.lines.iter().position(|l| l.kind != LineKind::Added)?;
    fixed.lines[first_old].text = lines.first()?.to_string();
    if fixed.lines[first_old].kind == LineKind::Removed {
        let next_context = fixed.lines[first_old..]
            .iter()
            .position(|l| l.kind == LineKind::Context)
            .map_or(fixed.lines.len(), |p| p + first_old);
        let added = fixed.lines[..next_context]
            .iter()
            .position(|l| l.kind == LineKind::Added)?;
        let line = &mut fixed.lines[added];
        line.text = format!("{BOM}{}", line.text);
    }
    Some(fixed)
}

/// A window within a hunk's length of region `c`, as long as the region or
/// as the hunk's old lines, with more lines reading as the old line in
/// their place (both ends trimmed) and clearly more alike to them (by more
/// than [`TIE_MARGIN`]): the most alike such window.
fn better_nearby(lines: &[&str], old: &[&str], c: Closest) -> Option<Closest> {
    let start = c.start_line.checked_sub(1)?;
    let region_len = c.end_line + 1 - c.start_line;
    let same_in_place = |window: &[&str]| {
        old.iter()
            .zip(window)
            .filter(|(o, w)| o.trim() == w.trim())
            .count()
    };
    let region = lines.get(start..start + region_len)?;
    let own_same = same_in_place(region);
    let old_text = old.join("\n");
    let mut own: Option<f64> = None;
    let from = start.saturating_sub(old.len());
    let mut best: Option<Closest> = None;
    for len in [region_len, old.len()] {
        for at in from..=start + old.len() {
            let Some(window) = lines.get(at..at + len) else {
                break;
            };
            if (at, len) == (start, region_len) || len == 0 || same_in_place(window) <= own_same {
                continue;
            }
            let own = *own.get_or_insert_with(|| similarity(&old_text, &region.join("\n")));
            let alike = similarity(&old_text, &window.join("\n"));
            if alike > own + TIE_MARGIN && best.is_none_or(|b| alike > b.similarity) {
                best = Some(Closest {
                    start_line: at + 1,
                    end_line: at + len,
                    similarity: alike,
                });
            }
        }
    }
    best
}

/// Another window of the file about as similar to `old` as region `c`
/// (within [`TIE_MARGIN`]): a window as long, not overlapping `c`, with at
/// least as many lines reading as the old line in their place (both ends
/// trimmed).
fn rival(lines: &[&str], old: &[&str], c: Closest) -> Option<Closest> {
    let start = c.start_line.checked_sub(1)?;
    let len = c.end_line + 1 - c.start_line;
    let region = lines.get(start..start + len)?;
    let same_in_place = |window: &[&str]| {
        old.iter()
            .zip(window)
            .filter(|(o, w)| o.trim() == w.trim())
            .count()
    };
    let own_same = same_in_place(region);
    let old_text = old.join("\n");
    let own = similarity(&old_text, &region.join("\n"));
    (0..=lines.len().saturating_sub(len))
        .filter(|&at| at + len <= start || at >= start + len)
        .filter(|&at| same_in_place(&lines[at..at + len]) >= own_same.max(1))
        .map(|at| Closest {
            start_line: at + 1,
            end_line: at + len,
            similarity: similarity(&old_text, &lines[at..at + len].join("\n")),
        })
        .find(|other| other.similarity >= own - TIE_MARGIN)
}

/// Whether `old` occurs byte for byte from `cursor` on.
/// Why no corrected hunk is offered onto region `c` where a context line
/// of the hunk names another line than the region's (`def clear_all` for
/// `def clear`: more than white space differs) and the hunk's other lines
/// stand at more than one place: the context line is what places the hunk,
/// and which place is meant cannot be told (a tester's find: the closest
/// name was taken, one of three places). `None` where the correction may
/// stand.
fn renamed_context(lines: &[&str], chunk: &Chunk, c: Closest) -> Option<String> {
    let old: Vec<(&str, LineKind)> = chunk
        .lines
        .iter()
        .filter(|l| l.kind != LineKind::Added)
        .map(|l| (l.text.as_str(), l.kind))
        .collect();
    let start = c.start_line.checked_sub(1)?;
    if c.end_line + 1 - c.start_line != old.len() || start + old.len() > lines.len() {
        return None;
    }
    let bare = |s: &str| s.split_whitespace().collect::<String>();
    let renamed: Vec<usize> = (0..old.len())
        .filter(|&i| old[i].1 == LineKind::Context && bare(old[i].0) != bare(lines[start + i]))
        .collect();
    let first = *renamed.first()?;
    let places: Vec<usize> = (0..=lines.len() - old.len())
        .filter(|&p| {
            (0..old.len())
                .filter(|j| !renamed.contains(j))
                .all(|j| lines[p + j].trim() == old[j].0.trim())
        })
        .collect();
    if places.len() < 2 {
        return None;
    }
    let at: Vec<String> = places.iter().map(|p| (p + 1).to_string()).collect();
    Some(format!(
        "its context line `{}` is `{}` at line {} of the file, another line, and the hunk's \
         other lines stand at {} places (from lines {}): which is meant cannot be told",
        old[first].0.trim(),
        lines[start + first].trim(),
        start + first + 1,
        places.len(),
        at.join(", ")
    ))
}

/// Every line (0-based) where `old`, whole and exact, starts in `lines`.
fn old_places(lines: &[&str], old: &[&str]) -> Vec<usize> {
    if old.is_empty() || old.len() > lines.len() {
        return Vec::new();
    }
    (0..=lines.len() - old.len())
        .filter(|&i| lines[i..i + old.len()] == *old)
        .collect()
}

fn seek_exact_from(lines: &[&str], old: &[&str], cursor: usize, at_end: bool) -> bool {
    super::seek::seek(lines, old, cursor, at_end)
        .is_some_and(|(_, level)| level == MatchLevel::Exact)
}

/// The block diagnosis of old → new against the file's lines; `None` when
/// a line reads as a marker (the block would not parse as written).
fn block_diagnosis(lines: &[&str], old: &[&str], new: &[&str]) -> Option<BlockDiagnosis> {
    if old.iter().chain(new).any(|l| is_marker(l)) {
        return None;
    }
    let content = whole_lines(lines.iter().copied());
    let diff = canonical_block(
        &whole_lines(old.iter().copied()),
        &whole_lines(new.iter().copied()),
    );
    diagnose::diagnose(&diff, &content, Options::default())
        .into_iter()
        .next()
}

/// Each old line of a hunk must be at least this alike (character ratio,
/// both ends trimmed) to the region's line in its place for the hunk to be
/// corrected line by line (as the exact-string edits require).
pub const MIN_LINE_SIMILARITY: f64 = 0.6;

/// The hunk corrected onto region `c`. When the region has as many lines
/// as the hunk's old lines and each is alike to the one in its place, the
/// hunk itself with its context and removed lines replaced by the file's
/// (its added lines as written, as the reference writes them for a loose
/// match); otherwise the corrected block's SEARCH lines (the file's own,
/// around the region) as old lines and its merged REPLACE lines as new.
fn corrected_chunk(
    block: Option<&str>,
    lines: &[&str],
    c: Closest,
    chunk: &Chunk,
    context: Option<String>,
) -> Option<Chunk> {
    let region = lines.get(c.start_line.checked_sub(1)?..c.end_line)?;
    let old = chunk.old_lines();
    let in_place = old.len() == region.len()
        && old
            .iter()
            .zip(region)
            .all(|(o, r)| similarity(o.trim(), r.trim()) >= MIN_LINE_SIMILARITY);
    if in_place {
        // An added line rewriting a removed one keeps the file's form of it
        // where the model kept the text (a TSV row's tabs, the file's en
        // dash, a Markdown hard break): none where the two meet.
        let mut fixed = chunk.clone();
        fixed.context = context;
        if !super::render::carry_forms(&mut fixed, |i| region.get(i).copied()) {
            return None;
        }
        let mut file_lines = region.iter();
        for line in fixed.lines.iter_mut().filter(|l| l.kind != LineKind::Added) {
            line.text = file_lines.next()?.to_string();
        }
        return Some(fixed);
    }
    merged_chunk(block?, lines, c, chunk, context)
}

/// The hunk whose old lines are the corrected block's SEARCH lines (the
/// file's own, around region `c`) and whose new lines are its REPLACE lines.
fn merged_chunk(
    block: &str,
    lines: &[&str],
    c: Closest,
    chunk: &Chunk,
    context: Option<String>,
) -> Option<Chunk> {
    let mut parts = block.lines();
    (parts.next()? == SEARCH_START).then_some(())?;
    let search: Vec<&str> = parts.by_ref().take_while(|l| *l != SEPARATOR).collect();
    let replace: Vec<&str> = parts.take_while(|l| *l != REPLACE_END).collect();
    let region_start = c.start_line.checked_sub(1)?;
    let start = (0..=region_start)
        .rev()
        .take(search.len() + 1)
        .find(|&at| lines.get(at..at + search.len()) == Some(&search[..]))?;
    if chunk.is_eof && start + search.len() != lines.len() {
        return None;
    }
    let mut out = Vec::new();
    for op in similar::capture_diff_slices(similar::Algorithm::Myers, &search, &replace) {
        for change in op.iter_changes(&search, &replace) {
            let kind = match change.tag() {
                similar::ChangeTag::Equal => LineKind::Context,
                similar::ChangeTag::Delete => LineKind::Removed,
                similar::ChangeTag::Insert => LineKind::Added,
            };
            out.push(ChunkLine {
                kind,
                text: change.value().to_string(),
                patch_line: 0,
            });
        }
    }
    Some(Chunk {
        context,
        header_line: chunk.header_line,
        lines: out,
        is_eof: chunk.is_eof,
    })
}

/// Where an `@@` line that was not found most likely is: the most similar
/// file line at or after `cursor`.
fn explain_header(context: &str, lines: &[&str], cursor: usize) -> HeaderDiagnosis {
    let mut scored: Vec<ClosestLine> = lines
        .iter()
        .enumerate()
        .skip(cursor)
        .map(|(i, l)| ClosestLine {
            line: i + 1,
            text: l.to_string(),
            similarity: similarity(context.trim(), l.trim()),
        })
        .filter(|l| l.similarity >= MIN_SIMILARITY)
        .collect();
    scored.sort_by(|a, b| {
        b.similarity
            .total_cmp(&a.similarity)
            .then(a.line.cmp(&b.line))
    });
    let searched = words::line_range("line", cursor + 1, cursor + 1);
    let mut header = HeaderDiagnosis {
        context: context.to_string(),
        searched_from: cursor + 1,
        closest: None,
        tie: None,
        message: String::new(),
    };
    match scored.as_slice() {
        [] => {
            header.message = format!(
                "The @@ line '{context}' is not in the file from {searched} on, and no line reaches similarity {}.",
                words::similarity(MIN_SIMILARITY)
            );
        }
        [best, second, ..] if best.similarity - second.similarity <= TIE_MARGIN => {
            header.message = format!(
                "The @@ line '{context}' is not in the file from {searched} on; lines {} and {} are about equally similar.",
                best.line, second.line
            );
            header.tie = Some([best.clone(), second.clone()]);
        }
        [best, ..] => {
            header.message = format!(
                "The @@ line '{context}' is not in the file from {searched} on; closest: line {} '{}' (similarity {}).",
                best.line,
                best.text,
                words::similarity(best.similarity)
            );
            header.closest = Some(best.clone());
        }
    }
    header
}

/// Character-level similarity in [0, 1]; a diff that takes too long
/// gives a lower bound.
fn similarity(a: &str, b: &str) -> f64 {
    if a == b {
        return 1.0;
    }
    let mut config = similar::TextDiff::configure();
    if let Some(deadline) = crate::diagnose::char_diff_deadline(a, b) {
        config.deadline(deadline);
    }
    f64::from(config.diff_chars(a, b).ratio())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// JSON gives a header line's similarity as every similarity: three
    /// decimals, cut, not the f32 ratio's noise.
    #[test]
    fn a_closest_line_similarity_has_three_decimals_in_json() {
        let line = ClosestLine {
            line: 3,
            text: "def f():".into(),
            similarity: f64::from(0.986_486_5_f32),
        };
        let json = serde_json::to_string(&line).expect("serializes");
        assert_eq!(json, r#"{"line":3,"text":"def f():","similarity":0.986}"#);
    }
}
