//! The diff's block structure as the model meant it: near-markers and
//! markers ending in `\r` count as markers here, so a typo splits blocks
//! where the author intended, and the damage is recorded on the block.

use super::normalize::{MarkerKind, MarkerLine, is_blank, marker_line};
use crate::engine::Version;

/// One SEARCH/REPLACE block as written.
#[derive(Debug, Clone, Default)]
pub struct ParsedBlock<'d> {
    /// 1-based first and last diff lines.
    pub first_line: usize,
    pub last_line: usize,
    pub search: Vec<&'d str>,
    pub replace: Vec<&'d str>,
    pub has_search_marker: bool,
    pub has_separator: bool,
    pub has_replace_end: bool,
    /// Diff lines (1-based) that are almost markers.
    pub typos: Vec<(usize, &'d str)>,
    /// Diff lines that are markers followed by `\r`.
    pub carriage_returns: usize,
    /// Structural problems in words.
    pub problems: Vec<String>,
    /// The diff ends inside this block's SEARCH section: a problem in a
    /// finished diff, the normal state of one still streaming.
    pub ends_in_search: bool,
    /// Non-blank text between the previous block and this one.
    pub text_before: Vec<(usize, &'d str)>,
}

/// The whole diff's structure.
#[derive(Debug, Clone, Default)]
pub struct ParsedDiff<'d> {
    pub blocks: Vec<ParsedBlock<'d>>,
    /// The last line, dropped by the partial-marker rule (1-based line, text).
    pub dropped_last: Option<(usize, &'d str)>,
    /// Non-blank text after the last block.
    pub text_after: Vec<(usize, &'d str)>,
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Phase {
    Outside,
    Search,
    Replace,
}

/// Parses `diff` leniently, after the reference's partial-marker pop.
pub fn parse(diff: &str, version: Version) -> ParsedDiff<'_> {
    // The last element of `split('\n')`, taken off the end so the lines
    // stream from the diff instead of being collected first.
    let (body, last) = match diff.rfind('\n') {
        Some(i) => (Some(&diff[..i]), &diff[i + 1..]),
        None => (None, diff),
    };
    // The engine's own partial-marker rule (v2 knows only canonical markers).
    let dropped = crate::engine::pops_last_line(last, version == Version::V2);
    let lines = body
        .into_iter()
        .flat_map(|b| b.split('\n'))
        .chain((!dropped).then_some(last));
    let mut parsed = ParsedDiff::default();
    let mut phase = Phase::Outside;
    let mut current: Option<ParsedBlock> = None;
    let mut pending: Vec<(usize, &str)> = Vec::new();
    let mut no = 0;
    for line in lines {
        no += 1;
        let seen = marker_line(line);
        let kind = match seen {
            MarkerLine::Exact(k) | MarkerLine::CarriageReturn(k) | MarkerLine::Typo(k) => Some(k),
            MarkerLine::Text => None,
        };
        if let Some(b) = current.as_mut() {
            b.last_line = no;
        }
        match (kind, phase) {
            (Some(MarkerKind::SearchStart), _) => {
                if let Some(mut b) = current.take() {
                    b.problems.push(if phase == Phase::Search {
                        "SEARCH section never reaches a separator".into()
                    } else {
                        "block has no REPLACE end marker before the next SEARCH".into()
                    });
                    parsed.blocks.push(b);
                }
                let mut b = new_block(no, std::mem::take(&mut pending));
                b.has_search_marker = true;
                current = Some(b);
                phase = Phase::Search;
            }
            (Some(MarkerKind::Separator), Phase::Replace) => {
                let b = block_at(&mut current, &mut pending, no);
                b.problems.push("second separator in one block".into());
            }
            (Some(MarkerKind::Separator), _) => {
                let b = block_at(&mut current, &mut pending, no);
                if phase == Phase::Outside {
                    b.problems
                        .push("separator without a SEARCH marker before it".into());
                }
                b.has_separator = true;
                phase = Phase::Replace;
            }
            (Some(MarkerKind::ReplaceEnd), _) => {
                let mut b = current
                    .take()
                    .unwrap_or_else(|| new_block(no, std::mem::take(&mut pending)));
                b.last_line = no;
                if phase == Phase::Outside {
                    b.problems
                        .push("REPLACE marker without a block before it".into());
                } else if phase == Phase::Search {
                    b.problems
                        .push("no separator between SEARCH and REPLACE".into());
                }
                b.has_replace_end = true;
                parsed.blocks.push(b);
                phase = Phase::Outside;
            }
            (None, Phase::Search) => push_line(&mut current, no, line, true),
            (None, Phase::Replace) => push_line(&mut current, no, line, false),
            (None, Phase::Outside) => {
                if !is_blank(line) {
                    pending.push((no, line));
                }
            }
        }
        // Record the damage on the block the marker belongs to.
        let owner = current.as_mut().or(parsed.blocks.last_mut());
        if let Some(b) = owner {
            match seen {
                MarkerLine::CarriageReturn(_) => b.carriage_returns += 1,
                MarkerLine::Typo(_) => b.typos.push((no, line)),
                _ => {}
            }
        }
    }
    if let Some(mut b) = current.take() {
        b.ends_in_search = phase == Phase::Search;
        parsed.blocks.push(b);
    }
    parsed.text_after = pending;
    if dropped {
        parsed.dropped_last = Some((no + 1, last));
    }
    if version == Version::V1 {
        // v1 ignores text outside blocks; only v2 rejects it.
        for b in &mut parsed.blocks {
            b.text_before.clear();
        }
        parsed.text_after.clear();
    }
    parsed
}

/// Where one block of a diff is, as [`parse`] (and `check`'s "Block #N")
/// counts blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockSpan {
    /// 1-based first and last diff lines.
    pub lines: [usize; 2],
    /// A line of the block looks like a marker the reference does not read
    /// as one (a typo, a marker ending in `\r`): the reference may not see
    /// the block where its markers say it is.
    pub odd_markers: Option<usize>,
}

/// The diff lines of each block of `diff`, in order (see [`BlockSpan`]).
pub fn block_spans(diff: &str, version: Version) -> Vec<BlockSpan> {
    parse(diff, version)
        .blocks
        .iter()
        .map(|b| BlockSpan {
            lines: [b.first_line, b.last_line],
            odd_markers: b
                .typos
                .first()
                .map(|&(no, _)| no)
                .or_else(|| (b.carriage_returns > 0).then_some(b.first_line)),
        })
        .collect()
}

fn new_block(no: usize, text_before: Vec<(usize, &str)>) -> ParsedBlock<'_> {
    ParsedBlock {
        first_line: no,
        last_line: no,
        text_before,
        ..ParsedBlock::default()
    }
}

/// The open block, or a new one starting at line `no` (a separator or typo
/// seen outside any block).
fn block_at<'a, 'd>(
    current: &'a mut Option<ParsedBlock<'d>>,
    pending: &mut Vec<(usize, &'d str)>,
    no: usize,
) -> &'a mut ParsedBlock<'d> {
    current.get_or_insert_with(|| new_block(no, std::mem::take(pending)))
}

fn push_line<'d>(current: &mut Option<ParsedBlock<'d>>, no: usize, line: &'d str, search: bool) {
    if let Some(b) = current.as_mut() {
        b.last_line = no;
        if search {
            b.search.push(line);
        } else {
            b.replace.push(line);
        }
    }
}
