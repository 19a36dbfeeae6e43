//! Walks the diff's blocks as written, pairs each with the engine's report,
//! and decides the root cause, region, differences and suggestion.

use super::Status;
use super::closest::{FileIndex, Found, Region, closest, text_similarity};
use super::compare::{
    differences, is_partial_line, line_diff, line_kind, normalisation_reason, word_diff,
};
use super::merge::{Unmergeable, merge};
use super::structure::{ParsedBlock, ParsedDiff, parse};
use super::{BlockDiagnosis, Closest, Difference, DifferenceKind, EndingCause, Reason, suggestion};
use crate::engine::js::js_trim;
use crate::engine::matcher::{self, LineIndex};
use crate::engine::{BlockReport, BlockState, Options, Outcome, Stage, Version};

/// Where a block's SEARCH text matched: 0-based lines `start..end`.
#[derive(Clone, Copy)]
struct Located {
    /// Byte offset of the match in the original.
    byte_start: usize,
    start: usize,
    end: usize,
    byte_end: usize,
    stage: Stage,
    out_of_order: bool,
}

struct Ctx<'a> {
    options: Options,
    original: &'a str,
    /// The caller's index of the original (the engine's): borrowed, since a
    /// second one costs a word per line of a file that may be huge.
    index: &'a LineIndex<'a>,
    file: FileIndex<'a>,
    parsed: ParsedDiff<'a>,
    /// Where SEARCH texts occur in the file.
    occurrences: super::occurrences::Occurrences<'a>,
}

/// [`diagnose`](super::diagnose) for a caller that already ran the engine
/// on the same input, with the engine's line index of the original
/// (`index.text()`), such as a streaming session: the diagnosis reads lines
/// through it and builds no table of its own. Only the outcome's report is
/// read, so its content may be held any way.
pub fn diagnose_indexed<C>(
    diff: &str,
    index: &LineIndex,
    options: Options,
    outcome: &Outcome<C>,
) -> Vec<BlockDiagnosis> {
    let parsed = parse(diff, options.version);
    let ctx = Ctx {
        options,
        original: index.text(),
        index,
        file: FileIndex::new(index),
        occurrences: super::occurrences::Occurrences::new(index, parsed.blocks.len()),
        parsed,
    };
    let failed = failing_block(&ctx.parsed, outcome);
    let mut from = 0usize;
    let mut out = Vec::with_capacity(ctx.parsed.blocks.len());
    // (index, lines) of the blocks placed in order, down the file.
    let mut in_order: Vec<(usize, [usize; 2])> = Vec::new();
    // (index, lines) of the blocks that edit lines of the file: applied
    // exactly, or with a suggestion (the lines it quotes).
    let mut edits: Vec<(usize, [usize; 2])> = Vec::new();
    for (k, pb) in ctx.parsed.blocks.iter().enumerate() {
        let eng = engine_block(outcome, pb);
        let state = match (failed, eng) {
            (Some(f), _) if f == k => Status::Failed,
            (Some(f), _) if k > f => Status::NotReached,
            (_, Some(b)) => b.state.into(),
            (_, None) => Status::Dropped,
        };
        let mut d = analyse(&ctx, k, pb, eng, state, &mut from);
        // An out-of-order block that lands on lines an earlier block edits:
        // the reference applies both, and the result repeats or loses text.
        // Blocks placed in order follow one another down the file, so the
        // one that can overlap is the last to start at or above its end.
        match (d.out_of_order, d.matched_lines) {
            (true, Some([a, b])) => {
                let at = in_order.partition_point(|&(_, m)| m[0] <= b);
                if let Some(&(e, m)) = at.checked_sub(1).map(|i| &in_order[i])
                    && a <= m[1]
                {
                    d.risky = true;
                    d.suggestion = None;
                    d.message = format!(
                        "{} It overlaps block #{}'s {}: applying both repeats or loses text.",
                        d.message,
                        e + 1,
                        crate::words::line_range("line", m[0], m[1])
                    );
                }
            }
            (false, Some(m)) => in_order.push((d.index, m)),
            _ => {}
        }
        // A suggestion for lines an earlier block edits: once that block
        // applies they are no longer as quoted (`fix` places neither).
        if let (Some(_), Some(c)) = (&d.suggestion, d.closest)
            && let Some(&(e, m)) = edits
                .iter()
                .find(|(_, m)| c.start_line <= m[1] && m[0] <= c.end_line)
        {
            d.suggestion = None;
            d.withheld = Some(format!(
                "block #{} edits {} too, so after it the region is no longer as quoted",
                e + 1,
                crate::words::line_range("line", m[0].max(c.start_line), m[1].min(c.end_line))
            ));
            d.message = super::message::describe(&d, ctx.options.version, ctx.options.is_final);
        }
        let edited = match (d.suggestion.is_some(), d.closest, d.matched_lines) {
            (true, Some(c), _) => Some([c.start_line, c.end_line]),
            (false, _, Some(m)) if d.state == Status::Applied => Some(m),
            _ => None,
        };
        edits.extend(edited.map(|m| (d.index, m)));
        out.push(d);
    }
    out
}

/// The parsed block the engine's error belongs to.
fn failing_block<C>(parsed: &ParsedDiff, outcome: &Outcome<C>) -> Option<usize> {
    let err = outcome.result.as_ref().err()?;
    let line = err
        .block
        .and_then(|b| outcome.blocks.get(b))
        .map(|b| b.diff_lines[0])
        .or(err.diff_line);
    let last = parsed.blocks.len().checked_sub(1)?;
    let Some(line) = line else { return Some(last) };
    let within = parsed
        .blocks
        .iter()
        .position(|b| b.first_line <= line && line <= b.last_line);
    let after = parsed.blocks.iter().position(|b| b.first_line > line);
    Some(within.or(after).unwrap_or(last))
}

/// The engine's report of the parsed block `pb`: the failed one among those
/// that start on its lines, else the first. The engine opens blocks as it
/// meets their lines, so its reports are in diff order: the ones of `pb`
/// are found by a binary search, not a scan per block.
fn engine_block<'o, C>(outcome: &'o Outcome<C>, pb: &ParsedBlock) -> Option<&'o BlockReport> {
    let blocks = &outcome.blocks;
    let start = blocks.partition_point(|b| b.diff_lines[0] < pb.first_line);
    let mine = blocks[start..]
        .iter()
        .take_while(|b| b.diff_lines[0] <= pb.last_line);
    let failed = mine.clone().find(|b| b.state == BlockState::Failed);
    failed.or_else(|| mine.clone().next())
}

fn search_text(lines: &[&str]) -> String {
    lines.iter().flat_map(|l| [*l, "\n"]).collect()
}

/// The matching chain for one block on its own, starting at `from`; a match
/// found only before `from` is returned as out of order.
fn locate_alone(ctx: &Ctx, search: &str, from: usize) -> Option<Located> {
    let idx = &ctx.index;
    let m = matcher::exact(idx, search, from)
        .or_else(|| matcher::line_trimmed(idx, search, from))
        .or_else(|| matcher::block_anchor(idx, search, from));
    let (m, out_of_order) = match m {
        Some(m) => (m, false),
        None => {
            let early = matcher::exact(idx, search, 0)
                .map(|m| matcher::Match {
                    stage: Stage::WholeFile,
                    ..m
                })
                .or_else(|| matcher::line_trimmed(idx, search, 0))?;
            (early, true)
        }
    };
    Some(span_lines(ctx, m.start, m.end, m.stage, out_of_order))
}

fn span_lines(ctx: &Ctx, start: usize, end: usize, stage: Stage, out_of_order: bool) -> Located {
    let end = end.min(ctx.original.len());
    let first = ctx.index.line_of(start);
    let last = if end > start {
        ctx.index.line_of(end - 1) + 1
    } else {
        first
    };
    Located {
        byte_start: start,
        start: first,
        end: last.min(ctx.file.line_count()),
        byte_end: end,
        stage,
        out_of_order,
    }
}

fn analyse(
    ctx: &Ctx,
    k: usize,
    pb: &ParsedBlock,
    eng: Option<&BlockReport>,
    state: Status,
    from: &mut usize,
) -> BlockDiagnosis {
    let search = search_text(&pb.search);
    let engine_span = eng
        .filter(|_| !state.is_failure())
        .and_then(|b| Some((b.original?, b.stage?, b.out_of_order)));
    let located = match engine_span {
        Some((span, stage, ooo)) => Some(span_lines(ctx, span.start, span.end, stage, ooo)),
        None if search.is_empty() => None,
        None => locate_alone(ctx, &search, *from),
    };
    // Where the reference began looking for this block.
    let searched_from = *from;
    if let Some(l) = located.filter(|l| !l.out_of_order) {
        *from = l.byte_end;
    }
    let applied = engine_span.is_some();
    let mut d = BlockDiagnosis {
        index: k,
        diff_lines: [pb.first_line, pb.last_line],
        state,
        // A block the engine did not apply has no stage: how it would match
        // on its own is `would_match`.
        stage: if applied {
            located.map(|l| l.stage)
        } else if state.is_failure() {
            None
        } else {
            located.map(|l| l.stage).or(eng.and_then(|b| b.stage))
        },
        would_match: located.filter(|_| !applied).map(|l| l.stage),
        out_of_order: located.is_some_and(|l| l.out_of_order),
        matched_lines: located
            .filter(|l| l.stage != Stage::Empty && l.end > l.start)
            .map(|l| [l.start + 1, l.end]),
        reason: None,
        closest: None,
        tie: None,
        differences: Vec::new(),
        line_diff: Vec::new(),
        risky: false,
        misplaced: false,
        vague: false,
        message: String::new(),
        suggestion: None,
        withheld: None,
        ending: None,
        shift: None,
        already: None,
    };
    let found = match located {
        Some(l) if l.stage != Stage::Empty => Found::Region(Region::exact(l.start, l.end, 1.0)),
        Some(_) => Found::Nothing,
        None if search.is_empty() => Found::Nothing,
        None => fragment(ctx, &pb.search)
            .or_else(|| elided_region(ctx, &pb.search))
            .unwrap_or_else(|| closest(&ctx.file, &pb.search)),
    };
    // "Every SEARCH line occurs several times in the file" only where it
    // is so (a fresh tester's find: said of a line that occurs nowhere, the
    // file holding two near copies of it): else the places the whole text
    // occurs, white space, case and look-alikes aside, tie.
    let found = match found {
        Found::Vague => near_copies(ctx, &pb.search).unwrap_or(Found::Vague),
        found => found,
    };
    let mut region = match found {
        Found::Region(r) => Some(r),
        Found::Tie(a, b) => {
            d.tie = Some([closest_of(ctx, pb, a), closest_of(ctx, pb, b)]);
            None
        }
        Found::Vague => {
            d.vague = true;
            None
        }
        Found::Nothing => None,
    };
    // Nothing like the SEARCH text as a whole, but one of its lines is a
    // near copy of a file line: that line is the place to look, not
    // "nothing similar" (the rest of the SEARCH text is nowhere).
    // Not for a SEARCH text still arriving: a search per line, on every
    // update of a stream, for a text not complete yet.
    let mut near_line = None;
    if matches!(found, Found::Nothing)
        && located.is_none()
        && state != Status::SearchStreaming
        && !js_trim(&search).is_empty()
    {
        match near_copy_line(ctx, &pb.search) {
            Some((k, Found::Region(r))) => {
                near_line = Some((k, r.start, r.similarity));
                let whole = text_similarity(&search, ctx.file.joined(r.start, r.end));
                region = Some(Region {
                    similarity: whole.min(r.similarity),
                    open_edge: true,
                    ..r
                });
            }
            Some((_, Found::Tie(a, b))) => {
                d.tie = Some([closest_of(ctx, pb, a), closest_of(ctx, pb, b)]);
            }
            _ => {}
        }
    }
    let structural = structural_reason(ctx, pb, state, &mut d.differences);
    let content = match (located, region) {
        (Some(l), Some(r)) => matched_reason(ctx, pb, &search, l, r, searched_from, &mut d),
        (Some(_), None) => (!ctx.original.is_empty()).then_some(Reason::EmptySearch),
        (None, Some(r)) => Some(unmatched_reason(pb, r, ctx)),
        (None, None) if search.is_empty() => {
            (!ctx.original.is_empty()).then_some(Reason::EmptySearch)
        }
        // Two places tie: the damage is named against the first of them.
        (None, None) if d.vague => Some(Reason::Edited),
        (None, None) if d.tie.is_some() => match found {
            Found::Tie(a, _) => Some(unmatched_reason(pb, a, ctx)),
            _ => Some(Reason::Edited),
        },
        (None, None) => Some(Reason::NotFound),
    };
    // A block-anchor match compares only the first and last lines: when the
    // SEARCH text as a whole is clearly closer to another region, the
    // reference's edit lands at the wrong place, and that region is the
    // one the block was meant for.
    if let Some(l) = located.filter(|l| l.stage == Stage::BlockAnchor && !l.out_of_order) {
        let here = text_similarity(&pb.search.join("\n"), ctx.file.joined(l.start, l.end));
        match closest(&ctx.file, &pb.search) {
            Found::Region(r)
                if (r.end <= l.start || r.start >= l.end)
                    && r.similarity >= here + super::closest::TIE_MARGIN =>
            {
                d.risky = true;
                d.misplaced = true;
                d.differences.clear();
                region = Some(r);
            }
            // Other places fit as well: the reference took the first.
            Found::Tie(a, b) => {
                d.risky = true;
                d.tie = Some([closest_of(ctx, pb, a), closest_of(ctx, pb, b)]);
            }
            _ => {}
        }
    }
    d.reason = structural.or(content);
    if d.reason.is_none() && state == Status::Failed {
        d.reason = Some(Reason::Structure);
    }
    if d.reason == Some(Reason::LineEndings) {
        d.ending = Some(ending_cause(ctx, pb, region));
    }
    if structural.is_none() {
        written_effect(ctx, pb, located.filter(|_| applied), region, &mut d);
    }
    d.risky = d.risky || (d.stage == Some(Stage::Empty) && !ctx.original.is_empty());
    // A SEARCH text with nothing in it yet (a block just begun) is like
    // every place and no place: no region, no jump target.
    if js_trim(&search).is_empty() {
        region = None;
    }
    if let (Some(reason), Some(r)) = (d.reason, region) {
        d.closest = Some(closest_of(ctx, pb, r));
        // The reference would look for the next block after this one's
        // place: an unplaced block's region stands in for its match.
        if located.is_none() && r.end > 0 {
            let end = ctx.index.line_start(r.end - 1) + ctx.file.line(r.end - 1).len();
            *from = (*from).max(end);
        }
        if d.line_diff.is_empty() {
            d.line_diff = line_diff(&pb.search, &ctx.file.lines(r.start, r.end), r.start + 1);
        }
        if reason != Reason::Ambiguous
            && d.differences
                .iter()
                .all(|x| x.kind == DifferenceKind::OtherOccurrence)
        {
            let mut found = differences(&d.line_diff);
            found.append(&mut d.differences);
            d.differences = found;
        }
        let replace = search_text(&pb.replace);
        // Where a separator is missing or doubled, which lines are SEARCH
        // and which REPLACE cannot be told.
        // A REPLACE section with no end marker may be cut off: what the
        // author meant to write is not known.
        // A block that never reached its separator has no REPLACE text at
        // all: a suggestion would invent one (an empty one deletes).
        let sections_unclear = pb.problems.iter().any(|p| p.contains("separator"))
            || !pb.has_separator
            || (ctx.options.is_final && !pb.has_replace_end);
        d.suggestion = if let Some((k, line, ratio)) = near_line {
            d.withheld = Some(format!(
                "only SEARCH line {} is like a line of the file (line {}, similarity {}); the \
                 rest of the SEARCH text is nowhere in it",
                k + 1,
                line + 1,
                crate::words::similarity(ratio)
            ));
            None
        } else if r.open_edge || anchor_guess(&d) || d.tie.is_some() || sections_unclear {
            None
        } else if let Some([a, b]) = d.already {
            d.withheld = Some(format!(
                "its new text already stands at {}, and applied again it repeats there",
                crate::words::line_range("line", a, b)
            ));
            None
        } else if reason == Reason::Ambiguous {
            // Context would pin the place the reference takes, which may
            // not be the one meant.
            d.withheld = Some(ambiguous_withheld(&d));
            None
        } else if reason == Reason::PartialLine {
            match fragment_replacement(ctx, &pb.search, r, &replace) {
                Ok(whole) => suggestion(&ctx.file, r.start + 1, r.end, &whole),
                Err(why) => {
                    d.withheld = why;
                    None
                }
            }
        } else if let Some(why) = different_code(&d) {
            d.withheld = Some(why);
            None
        } else {
            let region = ctx.file.lines(r.start, r.end);
            // A SEARCH/REPLACE diff names no file here: the file's
            // language is not known, its strings read as any text's.
            let syntax = super::StringSyntax::Other;
            let strings = super::MultilineStrings::new(syntax, ctx.original);
            let in_string = |j: usize| strings.at(r.start + j);
            match merge(
                &pb.search,
                &region,
                &pb.replace,
                ctx.file.is_crlf(),
                &in_string,
                syntax,
            ) {
                Ok(lines) => suggestion(
                    &ctx.file,
                    r.start + 1,
                    r.end,
                    &search_text(&lines.iter().map(String::as_str).collect::<Vec<_>>()),
                ),
                Err(
                    why @ (Unmergeable::DeletesDamagedLine { search, region }
                    | Unmergeable::ChangesDamagedLine { search, region }
                    | Unmergeable::KeepsDamagedWord { search, region, .. }),
                ) => {
                    let what = match why {
                        Unmergeable::DeletesDamagedLine { .. } => {
                            "the edit deletes it: whether the file's line should go".to_string()
                        }
                        Unmergeable::KeepsDamagedWord { word, .. } => format!(
                            "the edit's new text keeps `{word}`, which the file's line does \
                             not have: what the line should become"
                        ),
                        _ => "the edit changes it: what it should become".to_string(),
                    };
                    d.withheld = Some(format!(
                        "line {} of the file differs from SEARCH line {} in more than white \
                         space and {what} cannot be told",
                        r.start + region + 1,
                        search + 1
                    ));
                    None
                }
                Err(Unmergeable::ChangesStringSpacing {
                    region, literal, ..
                }) => {
                    d.withheld = Some(super::merge::string_spacing_withheld(
                        r.start + region + 1,
                        &literal,
                    ));
                    None
                }
                Err(Unmergeable::RepeatsUnseenLine { region }) => {
                    d.withheld = Some(format!(
                        "line {} of the file is missing from the lines the edit quotes, and its \
                         new lines add it again: whether it should then stand once or twice \
                         cannot be told",
                        r.start + region + 1
                    ));
                    None
                }
                Err(Unmergeable::ChangesLineForm {
                    search,
                    region,
                    file,
                    model,
                }) => {
                    d.withheld = Some(super::merge::line_form_withheld(
                        &format!("line {} of the file", r.start + region + 1),
                        &format!("SEARCH line {}", search + 1),
                        &file,
                        &model,
                    ));
                    None
                }
                Err(Unmergeable::ChangesMissingLine { search }) => {
                    d.withheld = Some(format!(
                        "SEARCH line {} is not in the file (it has no such line there), and the \
                         edit changes it: a correction would write it back, and whether the file \
                         should have it again cannot be told",
                        search + 1
                    ));
                    None
                }
                Err(Unmergeable::UncarriedIndent {
                    replace,
                    continuation,
                }) => {
                    d.withheld = Some(super::merge::uncarried_indent_withheld(
                        pb.replace.get(replace).map_or("", |l| l.as_ref()),
                        continuation,
                    ));
                    None
                }
                Err(Unmergeable::NoIndentRelation) => {
                    d.withheld = Some(super::merge::no_indent_relation_withheld());
                    None
                }
                Err(Unmergeable::Unclear) => None,
            }
        };
    }
    d.message = super::message::describe(&d, ctx.options.version, ctx.options.is_final);
    d
}

/// What block `pb` writes beyond where it matched (`located`, for a block
/// the engine applied) or was meant (`region`): new lines a
/// whitespace-blind stage writes shifted against the lines they replace
/// ([`BlockDiagnosis::shift`]), a REPLACE text already there
/// ([`Reason::AlreadyApplied`]).
fn written_effect(
    ctx: &Ctx,
    pb: &ParsedBlock,
    located: Option<Located>,
    region: Option<Region>,
    d: &mut BlockDiagnosis,
) {
    let line = |i: usize| ctx.file.line(i);
    let count = ctx.file.line_count();
    // The SEARCH text as the engine compares it: a last empty line is
    // the newline before the separator.
    let mut search: &[&str] = &pb.search;
    while search
        .last()
        .is_some_and(|l| l.trim_end_matches('\r').is_empty())
    {
        search = &search[..search.len() - 1];
    }
    let mut replace: &[&str] = &pb.replace;
    while replace
        .last()
        .is_some_and(|l| l.trim_end_matches('\r').is_empty())
    {
        replace = &replace[..replace.len() - 1];
    }
    let near = match (located, region) {
        (Some(l), _) if l.stage != Stage::Empty && l.end > l.start => Some((l.start, l.end, true)),
        (None, Some(r)) if r.end > r.start => Some((r.start, r.end, false)),
        _ => None,
    };
    if let Some((start, end, matched)) = near {
        let loose = !matched || located.is_some_and(|l| l.stage != Stage::Exact);
        if let Some((a, b)) =
            super::effect::already_there(count, line, (start, end), search, replace, matched, loose)
        {
            d.reason = Some(Reason::AlreadyApplied);
            d.already = Some([a + 1, b]);
            return;
        }
    }
    // A block-anchor match whose lines already are the REPLACE text: a
    // rewrite re-sent after it applied (its middle lines no longer match,
    // its first and last still do).
    if let Some(l) = located.filter(|l| l.stage == Stage::BlockAnchor && !l.out_of_order)
        && let Some((a, b)) = super::effect::already_there(
            count,
            line,
            (l.start, l.end),
            search,
            replace,
            false,
            true,
        )
        .filter(|&(a, b)| (a, b) == (l.start, l.end))
    {
        d.reason = Some(Reason::AlreadyApplied);
        d.already = Some([a + 1, b]);
        return;
    }
    if let Some(l) = located.filter(|l| l.stage == Stage::LineTrimmed) {
        let region_lines = ctx.file.lines(l.start, l.end);
        d.shift = super::effect::indent_shift(search, &region_lines, replace);
    }
}

/// The region of a SEARCH text with elision lines (`# ... existing code
/// ...`): each run of lines between them found in the file on its own
/// (nearly as written), in order, the region spanning them all and the
/// lines the elisions stand for. `None` without an elision, or when a run
/// is not found, or found out of order.
fn elided_region(ctx: &Ctx, search: &[&str]) -> Option<Found> {
    if !search.iter().any(|l| super::message::is_elision(l)) {
        return None;
    }
    let mut runs: Vec<&[&str]> = Vec::new();
    let mut start = 0;
    for (i, l) in search.iter().enumerate() {
        if super::message::is_elision(l) {
            runs.push(&search[start..i]);
            start = i + 1;
        }
    }
    runs.push(&search[start..]);
    let runs: Vec<&[&str]> = runs
        .into_iter()
        .filter(|r| r.iter().any(|l| !js_trim(l).is_empty()))
        .collect();
    let mut span: Option<(usize, usize)> = None;
    for run in runs {
        let Found::Region(r) = closest(&ctx.file, run) else {
            return None;
        };
        if r.similarity < super::NEAR_COPY_RATIO {
            return None;
        }
        span = match span {
            None => Some((r.start, r.end)),
            Some((a, b)) if r.start >= b => Some((a, r.end)),
            Some(_) => return None,
        };
    }
    let (a, b) = span?;
    let similarity = text_similarity(&search.join("\n"), ctx.file.joined(a, b));
    Some(Found::Region(Region::exact(a, b, similarity.min(0.999))))
}

/// The first two places `search` occurs at line by line with white space,
/// case and look-alike characters ignored, as a tie, when one of its lines
/// does not occur as written (trimmed) at two places at least; `None` when
/// every line does, or the text occurs so at fewer than two places.
fn near_copies(ctx: &Ctx, search: &[&str]) -> Option<Found> {
    let n = ctx.file.line_count();
    let twice = |line: &str| {
        let want = js_trim(line);
        want.is_empty()
            || (0..n)
                .filter(|&i| js_trim(ctx.file.line(i)) == want)
                .nth(1)
                .is_some()
    };
    if search.is_empty() || search.iter().all(|line| twice(line)) {
        return None;
    }
    let key = |line: &str| super::normalize::loose_hash(line);
    let keys: Vec<u64> = search.iter().map(|line| key(line)).collect();
    let m = keys.len();
    let mut places = (0..n.saturating_sub(m - 1))
        .filter(|&i| (0..m).all(|j| key(ctx.file.line(i + j)) == keys[j]));
    let (a, b) = (places.next()?, places.next()?);
    let joined = search.join("\n");
    let region = |at: usize| {
        let similarity = text_similarity(&joined, ctx.file.joined(at, at + m));
        Region::exact(at, at + m, similarity.min(0.999))
    };
    Some(Found::Tie(region(a), region(b)))
}

/// The SEARCH line (0-based) most like one line of the file, at or above
/// [`super::NEAR_COPY_RATIO`], and where: one line, or two that tie. Lines
/// with fewer than 6 characters besides white space name no place.
fn near_copy_line(ctx: &Ctx, search: &[&str]) -> Option<(usize, Found)> {
    let mut best: Option<(usize, Found, f64)> = None;
    for (k, line) in search.iter().enumerate() {
        if line.chars().filter(|c| !c.is_whitespace()).count() < 6 {
            continue;
        }
        let mut found = closest(&ctx.file, std::slice::from_ref(line));
        if found == Found::Vague {
            // A line the file has several times: its first two places tie.
            let want = js_trim(line);
            let mut at = (0..ctx.file.line_count()).filter(|&i| js_trim(ctx.file.line(i)) == want);
            if let (Some(a), Some(b)) = (at.next(), at.next()) {
                found = Found::Tie(Region::exact(a, a + 1, 1.0), Region::exact(b, b + 1, 1.0));
            }
        }
        let ratio = match found {
            Found::Region(r) | Found::Tie(r, _) => r.similarity,
            _ => continue,
        };
        if ratio >= super::NEAR_COPY_RATIO && best.as_ref().is_none_or(|b| ratio > b.2) {
            best = Some((k, found, ratio));
        }
    }
    best.map(|(k, found, _)| (k, found))
}

/// Whether two lines hold the same words (identifiers, numbers, keywords)
/// in another order: `values = list(items)` against `items = list(values)`
/// names the same things, a model's muddle rather than other code.
fn same_words(a: &str, b: &str) -> bool {
    fn words(l: &str) -> Vec<&str> {
        let mut w: Vec<&str> = l
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        w.sort_unstable();
        w
    }
    words(a) == words(b)
}

/// A SEARCH line that differs in content from its line of the region and
/// is no near copy of it ([`super::NEAR_COPY_RATIO`]): the region holds
/// different code that looks alike (a sibling function), not the block's
/// own lines damaged. Why, in words.
fn different_code(d: &BlockDiagnosis) -> Option<String> {
    d.differences
        .iter()
        .filter(|x| x.kind == DifferenceKind::Content)
        .find_map(|x| {
            let (s, f) = (x.search.as_deref()?, x.file.as_deref()?);
            // An elision line (`...`, `// ... existing code ...`) stands for
            // file lines: it is no copy of one.
            if super::message::is_elision(s) {
                return None;
            }
            let ratio = text_similarity(js_trim(s), js_trim(f));
            (ratio < super::NEAR_COPY_RATIO && !same_words(s, f)).then(|| {
                format!(
                    "SEARCH line {} is no near copy of file line {} (similarity {}, below {}): \
                     the region holds different code",
                    x.search_line.unwrap_or(0),
                    x.file_line.unwrap_or(0),
                    crate::words::similarity(ratio),
                    crate::words::similarity(super::NEAR_COPY_RATIO)
                )
            })
        })
}

/// What about the line endings keeps the block from matching exactly: the
/// diff's marker lines ending in `\r` on a CRLF file; a region at the
/// file's last line without a final newline when neither side has a `\r`;
/// otherwise CRLF against LF.
fn ending_cause(ctx: &Ctx, pb: &ParsedBlock, region: Option<Region>) -> EndingCause {
    let file_cr = ctx.file.is_crlf();
    if pb.carriage_returns > 0 && file_cr {
        return EndingCause::CrMarkers;
    }
    let search_cr = pb.search.iter().any(|l| l.contains('\r'));
    let at_open_end =
        region.is_some_and(|r| r.end == ctx.file.line_count()) && !ctx.original.ends_with('\n');
    if !file_cr && !search_cr && pb.carriage_returns == 0 && at_open_end {
        return EndingCause::NoFinalNewline;
    }
    EndingCause::CrlfAgainstLf
}

/// A block-anchor match whose skipped middle lines include one unlike the
/// file's line there: quoting that region as a suggestion would turn a
/// guess into an exact match that looks safe.
fn anchor_guess(d: &BlockDiagnosis) -> bool {
    !d.misplaced && d.unlike_unseen_line().is_some()
}

/// The region as reported: 1-based lines and a similarity that reads as
/// less than 1 whenever the text differs.
fn closest_of(ctx: &Ctx, pb: &ParsedBlock, r: Region) -> Closest {
    let similarity = if r.similarity < 1.0 {
        r.similarity
    } else {
        text_similarity(&pb.search.join("\n"), ctx.file.joined(r.start, r.end))
    };
    Closest {
        start_line: r.start + 1,
        end_line: r.end,
        // Three decimals, rounded down: the score is a guide, not a
        // measurement, and a region that differs must never read as 1.
        similarity: crate::words::similarity_in_thousandths(similarity),
    }
}

/// The text a SEARCH made of part of a line (or of lines) was copied from.
/// `Some(needle)` as it occurs in the original, first the text as written,
/// then trimmed; only a needle that occurs once and does not cover whole
/// lines counts (a whole-line match is the other stages' business).
fn fragment_needle(ctx: &Ctx, search: &[&str]) -> Option<(String, usize, usize)> {
    let joined = search.join("\n");
    let trimmed = js_trim(&joined).to_string();
    // Too short to point at one place.
    if trimmed.chars().filter(|c| !c.is_whitespace()).count() < 3 {
        return None;
    }
    for needle in [joined, trimmed] {
        // Non-overlapping, left to right, as `str::match_indices` (the
        // needle is never empty: it has three characters at least).
        let mut hits = memchr::memmem::find_iter(ctx.original.as_bytes(), needle.as_bytes());
        let Some(at) = hits.next() else { continue };
        let end = at + needle.len();
        // Part of a longer line: something other than white space shares
        // its first line before it, or its last line after it.
        let text = ctx.original;
        let before = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
        let after = &text[end..text[end..].find('\n').map_or(text.len(), |i| end + i)];
        let needle_ends_line = needle.ends_with('\n');
        if js_trim(before).is_empty() && (needle_ends_line || js_trim(after).is_empty()) {
            return None;
        }
        let count = 1 + hits.take(1).count();
        return Some((needle, at, count));
    }
    None
}

/// The lines a fragment SEARCH was taken from, when it occurs in the file
/// as it is (a tie when it occurs twice or more).
fn fragment(ctx: &Ctx, search: &[&str]) -> Option<Found> {
    let (needle, at, count) = fragment_needle(ctx, search)?;
    let region_of = |at: usize| {
        let m = span_lines(ctx, at, at + needle.len(), Stage::Exact, false);
        Region::exact(
            m.start,
            m.end.max(m.start + 1),
            text_similarity(&search.join("\n"), ctx.file.joined(m.start, m.end)),
        )
    };
    let first = region_of(at);
    if count == 1 {
        return Some(Found::Region(first));
    }
    let next = ctx.original[at + 1..]
        .find(needle.as_str())
        .map_or(at, |i| at + 1 + i);
    Some(Found::Tie(first, region_of(next)))
}

/// What the region's lines become under a fragment SEARCH: the fragment
/// replaced by `replace` in place, so the rest of the file's lines stays.
/// Only when the fragment starts its line and `replace` writes on past
/// the fragment's end the way the file's line goes on (the model cut its
/// SEARCH short but wrote whole lines) is `replace` the whole text.
/// An edit that changes the fragment's end where the file's line goes on
/// past it (or its start, where the line has code before it) is no merge:
/// both the file and the edit changed that line, and where the file's rest
/// belongs cannot be told (`return result.round(2)`, `return result` into
/// `return result + OFFSET`, would become `return result +
/// OFFSET.round(2)`). `Err`: no suggestion, with why when a rule withholds
/// it.
fn fragment_replacement(
    ctx: &Ctx,
    search: &[&str],
    r: Region,
    replace: &str,
) -> Result<String, Option<String>> {
    let (needle, _, count) = fragment_needle(ctx, search).ok_or(None)?;
    let lines = ctx.file.joined(r.start, r.end);
    if count != 1 || lines.matches(needle.as_str()).count() != 1 {
        return Err(None);
    }
    let at = lines.find(needle.as_str()).ok_or(None)?;
    let rest = &lines[at + needle.len()..];
    let written_on = replace
        .trim_end_matches('\n')
        .strip_prefix(needle.as_str())
        .map(str::trim_start)
        .unwrap_or("");
    let goes_on: String = js_trim(rest).chars().take(3).collect();
    if js_trim(&lines[..at]).is_empty()
        && goes_on.chars().count() == 3
        && written_on.starts_with(&goes_on)
    {
        return Ok(replace.to_string());
    }
    let replace = replace.strip_suffix('\n').unwrap_or(replace);
    let replace = if needle.len() < search.join("\n").len() {
        js_trim(replace)
    } else {
        replace
    };
    // The file's line has code beside the fragment (after it, or before it
    // past the indentation), and the edit rewrites the fragment's line
    // there: both changed that line, and how the two combine cannot be told.
    let head = &lines[lines[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let tail_end = lines[at + needle.len()..]
        .find('\n')
        .map_or(lines.len(), |i| at + needle.len() + i);
    let tail = &lines[at + needle.len()..tail_end];
    // The file's code beside the fragment stays with the fragment's line
    // the edit leaves as it is: where the edit keeps the needle's last line
    // (code after it) or first line (code before it) untouched, the merge
    // below puts the file's part back beside the very text it was beside.
    // Only a changed line with the file's code beside it is a conflict.
    let last_kept = replace.rsplit('\n').next() == needle.rsplit('\n').next();
    let first_kept = replace.split('\n').next() == needle.split('\n').next();
    let beside = if !js_trim(tail).is_empty() && !last_kept {
        Some((
            js_trim(tail),
            r.start + lines[..at + needle.len()].matches('\n').count() + 1,
        ))
    } else if !js_trim(head).is_empty() && !first_kept {
        Some((
            js_trim(head),
            r.start + lines[..at].matches('\n').count() + 1,
        ))
    } else {
        None
    };
    // Unless the REPLACE text writes the file's rest itself: then it is
    // the whole line, the author's own.
    if js_trim(head).is_empty()
        && !js_trim(tail).is_empty()
        && js_trim(replace).ends_with(js_trim(tail))
    {
        return Ok(format!(
            "{}{replace}\n",
            &head[..head.len() - head.trim_start().len()]
        ));
    }
    if let Some((file_part, line)) = beside.filter(|_| replace != needle) {
        // Control characters shown, not printed.
        let file_part: String = file_part
            .chars()
            .flat_map(|c| {
                let shown: Vec<char> = if c.is_control() {
                    c.escape_unicode().collect()
                } else {
                    vec![c]
                };
                shown
            })
            .collect();
        return Err(Some(format!(
            "the SEARCH text is only part of line {line}, whose rest (`{file_part}`) the block \
             does not show, and the edit rewrites the part it shows, so whether that rest stays \
             as it is beside the new text cannot be told: send the whole line as the file has it, \
             with the change"
        )));
    }
    Ok(format!("{}\n", lines.replacen(needle.as_str(), replace, 1)))
}

/// Problems in the diff itself, which come before any content comparison.
fn structural_reason(
    ctx: &Ctx,
    pb: &ParsedBlock,
    state: Status,
    diffs: &mut Vec<Difference>,
) -> Option<Reason> {
    let note = |kind, line: usize, text: &str| Difference {
        kind,
        search_line: Some(line),
        file_line: None,
        search: Some(text.to_string()),
        file: None,
        words: Vec::new(),
    };
    if !pb.typos.is_empty() {
        diffs.extend(
            pb.typos
                .iter()
                .map(|&(n, t)| note(DifferenceKind::MarkerTypo, n, t)),
        );
        return Some(Reason::MarkerTypo);
    }
    if pb.carriage_returns > 0 {
        return Some(Reason::LineEndings);
    }
    let is_last = ctx
        .parsed
        .blocks
        .last()
        .is_some_and(|b| b.first_line == pb.first_line);
    if let Some((n, text)) = ctx.parsed.dropped_last
        && is_last
        && !js_trim(text).is_empty()
        && !streaming_marker_prefix(text)
        && !(pb.has_replace_end && n > pb.last_line)
    {
        diffs.push(note(DifferenceKind::DroppedLine, n, text));
        return Some(Reason::DroppedLastLine);
    }
    // A finished diff whose block lacks its REPLACE end marker: v2 throws;
    // v1 applies the REPLACE lines that are there, which is what a diff cut
    // off mid-block looks like.
    let v2 = ctx.options.version == Version::V2;
    // (In v1 only for a block that applied: a failed one's reason is why it
    // failed.)
    let unclosed = ctx.options.is_final
        && !pb.has_replace_end
        && (v2 || (pb.has_separator && state == Status::Applied));
    let mut problems: Vec<&str> = pb.problems.iter().map(String::as_str).collect();
    problems.dedup();
    if problems.contains(&"second separator in one block") {
        problems.push(
            "a line of `=` in its text (a Markdown or reST underline?) reads as a separator, so the block cannot quote it",
        );
    }
    if pb.ends_in_search && ctx.options.is_final {
        problems.push("SEARCH section never reaches a separator");
    }
    if !problems.is_empty() || !pb.text_before.is_empty() || unclosed {
        diffs.extend(
            problems
                .iter()
                .map(|p| note(DifferenceKind::Structure, pb.first_line, p)),
        );
        diffs.extend(
            pb.text_before
                .iter()
                .map(|&(n, t)| note(DifferenceKind::Structure, n, t)),
        );
        if unclosed && problems.is_empty() {
            diffs.push(note(
                DifferenceKind::Structure,
                pb.last_line,
                if v2 {
                    "block has no REPLACE end marker"
                } else {
                    "block has no REPLACE end marker (is the diff cut off?): the reference applies the REPLACE lines that are there"
                },
            ));
        }
        return Some(Reason::Structure);
    }
    None
}

/// A block that matched (in the engine, or on its own): ambiguity, fallbacks.
fn matched_reason(
    ctx: &Ctx,
    pb: &ParsedBlock,
    search: &str,
    l: Located,
    r: Region,
    searched_from: usize,
    d: &mut BlockDiagnosis,
) -> Option<Reason> {
    if l.out_of_order || l.stage == Stage::WholeFile {
        return Some(Reason::OutOfOrder);
    }
    let lines = ctx.file.lines(r.start, r.end);
    // An exact match whose SEARCH text occurs elsewhere too: the reference
    // took the first after the previous block, which may not be the one
    // meant. The other places are listed as differences.
    let repeated = |d: &mut BlockDiagnosis| {
        let others: Vec<usize> = ctx
            .occurrences
            .of(search)
            .into_iter()
            .map(|at| ctx.index.line_of(at))
            .filter(|&line| line != l.start)
            .collect();
        list_other_places(ctx, &others, d)
    };
    match l.stage {
        // The reference matches text, not lines: a SEARCH text that is the
        // end of a longer line (a lone `}` in `    }`, a blank line after
        // a line's text) matches inside it.
        Stage::Exact if !at_line_start(ctx.original, l.byte_start) => {
            let line_start = ctx.original[..l.byte_start]
                .rfind('\n')
                .map_or(0, |i| i + 1);
            // Where the SEARCH text is a whole line of the file.
            let whole_lines: Vec<usize> = ctx
                .occurrences
                .of(search)
                .into_iter()
                .filter(|&at| at_line_start(ctx.original, at))
                .map(|at| ctx.index.line_of(at))
                .collect();
            if js_trim(&ctx.original[line_start..l.byte_start]).is_empty() && whole_lines.is_empty()
            {
                // Only indentation before it, and nowhere a whole line: the
                // SEARCH text is indented less than the file, and the
                // REPLACE text lands after the file's extra indentation;
                // unless it is so at other places too.
                Some(if repeated(d) {
                    Reason::Ambiguous
                } else if super::doubt::replaces_several_lines(&search_text(&pb.replace)) {
                    // Only the first REPLACE line lands after the file's
                    // extra indentation; the others keep their own: the
                    // new lines' indentation no longer agrees.
                    d.risky = true;
                    Reason::PartialLine
                } else {
                    Reason::Whitespace
                })
            } else {
                d.risky = true;
                // The SEARCH text is a whole line elsewhere, most likely
                // the line meant: named, since the reference took this one.
                if d.state == Status::Applied {
                    list_other_places(ctx, &whole_lines, d);
                }
                Some(Reason::PartialLine)
            }
        }
        Stage::Exact => repeated(d).then_some(Reason::Ambiguous),
        // White space ignored, the SEARCH text fits other places as well:
        // the reference took the first, which may not be the one meant.
        Stage::LineTrimmed
            if d.state == Status::Applied
                && trimmed_repeats(ctx, &pb.search, l.start, searched_from, d) =>
        {
            Some(Reason::Ambiguous)
        }
        Stage::LineTrimmed => {
            let only_cr = pb
                .search
                .iter()
                .zip(&lines)
                .all(|(s, f)| s == f || line_kind(s, f) == DifferenceKind::LineEnding);
            Some(if only_cr {
                Reason::LineEndings
            } else {
                Reason::Whitespace
            })
        }
        Stage::BlockAnchor => {
            d.risky = true;
            let last = pb.search.len().saturating_sub(1);
            for (j, (s, f)) in pb.search.iter().zip(&lines).enumerate() {
                if j == 0 || j == last || js_trim(s) == js_trim(f) {
                    continue;
                }
                d.differences.push(Difference {
                    kind: DifferenceKind::Unseen,
                    search_line: Some(j + 1),
                    file_line: Some(r.start + j + 1),
                    search: Some(s.to_string()),
                    file: Some(f.to_string()),
                    words: word_diff(s, f),
                });
            }
            Some(normalisation_reason(&pb.search, &lines).unwrap_or(Reason::Edited))
        }
        Stage::WholeFile => Some(Reason::OutOfOrder),
        Stage::Empty => (!ctx.original.is_empty()).then_some(Reason::EmptySearch),
    }
}

/// Why no suggestion is offered for a block whose SEARCH text fits several
/// places: each named (a tester's find, 43b-06: only the first was, as
/// the "closest"), and how it fits them (exactly, or with white space at
/// its lines' ends ignored).
fn ambiguous_withheld(d: &BlockDiagnosis) -> String {
    let Some(at) = d.ambiguous_places_said() else {
        return "the SEARCH text fits several places of the file, and which one is meant cannot \
                be told"
            .into();
    };
    let how = if d.fits_trimmed() {
        "the SEARCH text, trimmed, occurs"
    } else {
        "the SEARCH text occurs"
    };
    format!("{how} {at}, and which one is meant cannot be told")
}

/// Whether `search` fits, line by line with white space at the ends
/// ignored (as the reference's line-trimmed fallback compares), at other
/// places than line `start` (0-based) of the part of the file the reference
/// searched (from byte `searched_from`, where the block before ended): each
/// is listed in `d`.
fn trimmed_repeats(
    ctx: &Ctx,
    search: &[&str],
    start: usize,
    searched_from: usize,
    d: &mut BlockDiagnosis,
) -> bool {
    let wanted: Vec<&str> = search.iter().map(|l| js_trim(l)).collect();
    if wanted.is_empty() {
        return false;
    }
    let n = ctx.file.line_count();
    let first_line = if searched_from == 0 {
        0
    } else {
        ctx.index.line_of(searched_from)
    };
    let to = (n + 1).saturating_sub(wanted.len());
    let others = trimmed_windows(ctx.index, &ctx.file, &wanted, first_line..to, start);
    list_other_places(ctx, &others, d)
}

/// The first line of each window of `file` (its lines `index` indexes)
/// whose lines, trimmed, are `wanted` (each trimmed, at least one), for
/// the first lines in `lines` other than `skip`, in order.
fn trimmed_windows(
    index: &LineIndex,
    file: &FileIndex,
    wanted: &[&str],
    lines: std::ops::Range<usize>,
    skip: usize,
) -> Vec<usize> {
    let is_window = |i: usize| {
        i != skip
            && wanted
                .iter()
                .enumerate()
                .all(|(j, w)| js_trim(file.line(i + j)) == *w)
    };
    let first = wanted.first().copied().unwrap_or_default();
    if first.is_empty() {
        return lines.filter(|&i| is_window(i)).collect();
    }
    // A line that trims to `first` holds it: only the lines that hold it
    // are compared, found by a byte search. No place of `first` spans two
    // lines (it has no `\n`), and none that the search skips (one
    // overlapping the place before) is the line's trimmed text: that
    // starts the line's first character that is not white space, and
    // `first` starts with no white space.
    let mut out = Vec::new();
    let mut seen = None;
    for at in memchr::memmem::find_iter(index.text().as_bytes(), first.as_bytes()) {
        let i = index.line_of(at);
        if i >= lines.end {
            break;
        }
        if seen == Some(i) {
            continue;
        }
        seen = Some(i);
        if i >= lines.start && is_window(i) {
            out.push(i);
        }
    }
    out
}

/// Lists `lines` (0-based) in `d` as other places the SEARCH text fits;
/// whether there are any.
fn list_other_places(ctx: &Ctx, lines: &[usize], d: &mut BlockDiagnosis) -> bool {
    d.differences.extend(lines.iter().map(|&line| Difference {
        kind: DifferenceKind::OtherOccurrence,
        search_line: None,
        file_line: Some(line + 1),
        search: None,
        // A match can start on the empty line after a final newline.
        file: Some(ctx.file.get(line).unwrap_or_default().to_string()),
        words: Vec::new(),
    }));
    !lines.is_empty()
}

/// Whether byte `at` starts a line of `text` (a UTF-8 byte-order mark
/// before the first line is not part of it).
/// Whether byte `at` of `text` starts a line (after a leading byte-order
/// mark too).
pub(crate) fn at_line_start(text: &str, at: usize) -> bool {
    at == 0 || text.as_bytes()[at - 1] == b'\n' || (at == 3 && text.starts_with('\u{FEFF}'))
}

/// A block that matches nowhere: name the damage between it and its region.
fn unmatched_reason(pb: &ParsedBlock, r: Region, ctx: &Ctx) -> Reason {
    let lines = ctx.file.lines(r.start, r.end);
    if let Some(reason) = normalisation_reason(&pb.search, &lines) {
        return reason;
    }
    if is_partial_line(&pb.search, &lines) {
        return Reason::PartialLine;
    }
    Reason::Edited
}

/// A last line that is the start of a marker still being streamed: dropping
/// it is the reference working as meant, not a cause.
fn streaming_marker_prefix(text: &str) -> bool {
    [
        "------- SEARCH",
        "<<<<<<< SEARCH",
        "=======",
        "+++++++ REPLACE",
        ">>>>>>> REPLACE",
    ]
    .iter()
    .any(|m| m.starts_with(text))
}

#[cfg(test)]
mod tests {
    /// [`super::trimmed_windows`] as first written, every line compared.
    fn trimmed_windows_by_lines(
        file: &super::FileIndex,
        wanted: &[&str],
        lines: std::ops::Range<usize>,
        skip: usize,
    ) -> Vec<usize> {
        lines
            .filter(|&i| i != skip)
            .filter(|&i| {
                wanted
                    .iter()
                    .enumerate()
                    .all(|(j, w)| super::js_trim(file.line(i + j)) == *w)
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn trimmed_windows_by_search_agree_with_every_line_compared(
            text in "([ \t\u{3000}]{0,2}[ab]{0,2}[ \t\r]{0,2}\n){1,14}[ ab]{0,2}",
            wanted in proptest::collection::vec("[ab]{0,2}", 1..3),
            from in 0usize..4,
            skip in 0usize..8,
        ) {
            let index = super::LineIndex::new(&text);
            let file = super::FileIndex::new(&index);
            let wanted: Vec<&str> = wanted.iter().map(|w| w.as_str()).collect();
            let to = (file.line_count() + 1).saturating_sub(wanted.len());
            let from = from.min(to);
            proptest::prop_assert_eq!(
                super::trimmed_windows(&index, &file, &wanted, from..to, skip),
                trimmed_windows_by_lines(&file, &wanted, from..to, skip)
            );
        }
    }

    use crate::diagnose::{Reason, diagnose};
    use crate::engine::{Options, Version};

    /// A diff that stops inside a SEARCH section is still streaming, not
    /// malformed; once final, the unfinished block is a structure problem.
    #[test]
    fn unfinished_search_is_a_problem_only_when_final() {
        let original: String = (1..=40).map(|i| format!("line {i}\n")).collect();
        let diff =
            "------- SEARCH\nline 30\n=======\nLINE 30\n+++++++ REPLACE\n------- SEARCH\nline 5\n";
        for version in [Version::V1, Version::V2] {
            for (is_final, structure, said) in [
                (false, false, "Block #2 so far (SEARCH still streaming)"),
                (true, true, "SEARCH section never reaches a separator"),
            ] {
                let options = Options { version, is_final };
                let last = diagnose(diff, &original, options)
                    .pop()
                    .expect("two blocks");
                if !is_final {
                    assert_eq!(last.state, super::Status::SearchStreaming);
                }
                let is_structure = last.reason == Some(Reason::Structure);
                assert_eq!(is_structure, structure, "{}", last.message);
                assert!(last.message.contains(said), "{}", last.message);
            }
        }
    }
}
