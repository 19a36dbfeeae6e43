//! Aligns the original with the result in progress as a short list of
//! segments (about two per block), so a frame maps its visible rows to lines
//! with a binary search instead of walking the file.

use std::ops::Range;

use super::text::TextLines;
use crate::engine::{BlockReport, BlockState};

/// What a run of aligned lines is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SegKind {
    /// Identical on both sides.
    Same,
    /// A block's matched lines (left) and its replacement (right).
    Change { block: Option<usize> },
    /// Original lines the stream has not reached yet: shown dimmed on the right.
    Pending,
}

/// Lines `orig` of the original aligned with lines `new` of the result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub kind: SegKind,
    pub orig: Range<usize>,
    pub new: Range<usize>,
}

impl Segment {
    /// Rows in the split view (both panes side by side).
    pub fn split_rows(&self) -> usize {
        match self.kind {
            SegKind::Pending => self.orig.len(),
            _ => self.orig.len().max(self.new.len()),
        }
    }

    /// Rows in the unified view (removed lines, then added lines).
    pub fn unified_rows(&self) -> usize {
        match self.kind {
            SegKind::Change { .. } => self.orig.len() + self.new.len(),
            SegKind::Pending => self.orig.len(),
            SegKind::Same => self.orig.len(),
        }
    }
}

/// Builds the alignment. `streaming` is true for a partial result, whose
/// unreached remainder is the original after the last in-order block.
pub fn align(
    original: &TextLines,
    result: &TextLines,
    blocks: &[BlockReport],
    streaming: bool,
) -> Vec<Segment> {
    let mut placed: Vec<&BlockReport> = blocks
        .iter()
        .filter(|b| b.replacement_bytes.is_some() && b.original.is_some())
        .collect();
    placed.sort_by_key(|b| b.replacement_bytes.map(|r| r.0));
    let result_lines = if streaming {
        result.complete_len()
    } else {
        result.len()
    };
    let mut segs = Vec::with_capacity(placed.len() * 2 + 2);
    let (mut o, mut n) = (0usize, 0usize);
    let mut reached = 0usize;
    for b in placed {
        let (Some(span), Some((rs, re))) = (b.original, b.replacement_bytes) else {
            continue;
        };
        let os = original.line_of(span.start).max(o);
        let mut oe = if span.end > span.start {
            original.line_of(span.end - 1) + 1
        } else {
            os
        }
        .max(os);
        let ns = result.line_of(rs).max(n).min(result_lines);
        let mut ne = if re > rs {
            result.line_of(re - 1) + 1
        } else {
            ns
        };
        // A replacement ending mid-line joins lines: the result line holding
        // `re` also carries original text from `span.end` on (a match ends
        // at a line start or the end of the file), so that line and the
        // original line it came from are part of the change, not an
        // unchanged pair that differs.
        let re_mid =
            0 < re && re < result.text_len() && result.line_start(result.line_of(re)) != re;
        if re_mid {
            ne = ne.max(result.line_of(re) + 1);
            oe = oe.max(original.line_of(span.end) + 1).min(original.len());
        }
        let ne = ne.clamp(ns, result_lines.max(ns));
        push_between(&mut segs, o..os, n..ns);
        segs.push(Segment {
            kind: SegKind::Change {
                block: Some(b.index),
            },
            orig: os..oe,
            new: ns..ne,
        });
        (o, n) = (oe, ne);
        if streaming
            && !b.out_of_order
            && matches!(b.state, BlockState::Applied | BlockState::ReplaceStreaming)
        {
            reached = reached.max(span.end);
        }
    }
    if streaming {
        let pending_from = if reached == 0 {
            0
        } else if reached >= original.text().len() {
            original.len()
        } else {
            let l = original.line_of(reached);
            if original.line_start(l) == reached {
                l
            } else {
                l + 1
            }
        }
        .max(o);
        push_between(&mut segs, o..pending_from, n..result_lines);
        if pending_from < original.len() {
            segs.push(Segment {
                kind: SegKind::Pending,
                orig: pending_from..original.len(),
                new: result_lines..result_lines,
            });
        }
    } else {
        push_between(&mut segs, o..original.len(), n..result_lines);
    }
    segs
}

/// Aligns two texts by a line diff, for a whole-file write with no blocks.
pub fn align_lines(original: &TextLines, result: &TextLines) -> Vec<Segment> {
    use similar::DiffTag;
    let (original, result) = (original.text(), result.text());
    let diff = crate::textdiff::TokenDiff::lines(&original, &result);
    let mut segs: Vec<Segment> = Vec::new();
    for op in diff.ops() {
        let (orig, new) = (op.old_range(), op.new_range());
        let kind = match op.tag() {
            DiffTag::Equal => SegKind::Same,
            _ => SegKind::Change { block: None },
        };
        match segs.last_mut() {
            Some(last) if last.kind == kind && kind != SegKind::Same => {
                last.orig.end = orig.end;
                last.new.end = new.end;
            }
            _ => segs.push(Segment { kind, orig, new }),
        }
    }
    segs
}

/// Lines between two blocks: identical when the counts agree (always, for
/// line-aligned matches); otherwise shown as an unattributed change.
fn push_between(segs: &mut Vec<Segment>, orig: Range<usize>, new: Range<usize>) {
    if orig.is_empty() && new.is_empty() {
        return;
    }
    let kind = if orig.len() == new.len() {
        SegKind::Same
    } else {
        SegKind::Change { block: None }
    };
    segs.push(Segment { kind, orig, new });
}

/// Row offsets of segments for one layout, for row → segment lookups.
#[derive(Debug, Clone, Default)]
pub struct RowMap {
    /// `starts[i]` is the first row of segment `i`; the last entry is the total.
    starts: Vec<usize>,
}

impl RowMap {
    pub fn new(segs: &[Segment], unified: bool) -> Self {
        let mut starts = Vec::with_capacity(segs.len() + 1);
        let mut row = 0;
        starts.push(0);
        for s in segs {
            row += if unified {
                s.unified_rows()
            } else {
                s.split_rows()
            };
            starts.push(row);
        }
        RowMap { starts }
    }

    pub fn total(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// Segment index and offset inside it for `row`.
    pub fn locate(&self, row: usize) -> Option<(usize, usize)> {
        if row >= self.total() {
            return None;
        }
        let seg = self.starts.partition_point(|&s| s <= row) - 1;
        Some((seg, row - self.starts[seg]))
    }

    /// First row of segment `i`.
    pub fn first_row(&self, seg: usize) -> usize {
        self.starts.get(seg).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Options, apply};

    fn run(original: &str, diff: &str, is_final: bool) -> Vec<Segment> {
        let out = apply(
            diff,
            original,
            Options {
                is_final,
                ..Options::default()
            },
        );
        let result = out.result.map(|a| a.new_content).unwrap_or_default();
        align(
            &TextLines::owned(original.to_string()),
            &TextLines::owned(result),
            &out.blocks,
            !is_final,
        )
    }

    #[test]
    fn final_mode_aligns_changed_block() {
        let segs = run(
            "a\nb\nc\n",
            "------- SEARCH\nb\n=======\nB1\nB2\n+++++++ REPLACE\n",
            true,
        );
        assert_eq!(
            segs,
            vec![
                Segment {
                    kind: SegKind::Same,
                    orig: 0..1,
                    new: 0..1
                },
                Segment {
                    kind: SegKind::Change { block: Some(0) },
                    orig: 1..2,
                    new: 1..3
                },
                Segment {
                    kind: SegKind::Same,
                    orig: 2..3,
                    new: 3..4
                },
            ]
        );
    }

    #[test]
    fn streaming_shows_unreached_original_as_pending() {
        // No trailing newline: the reference would count the empty last element as a line.
        let segs = run("a\nb\nc\nd\n", "------- SEARCH\nb\n=======\nB1", false);
        assert_eq!(
            segs[1],
            Segment {
                kind: SegKind::Change { block: Some(0) },
                orig: 1..2,
                new: 1..2
            }
        );
        assert_eq!(
            segs[2],
            Segment {
                kind: SegKind::Pending,
                orig: 2..4,
                new: 2..2
            }
        );
        let rows = RowMap::new(&segs, false);
        assert_eq!(rows.total(), 4);
        assert_eq!(rows.locate(3), Some((2, 1)));
    }

    #[test]
    fn nothing_streamed_yet_is_all_pending() {
        let segs = run("a\nb\n", "", false);
        assert_eq!(
            segs,
            vec![Segment {
                kind: SegKind::Pending,
                orig: 0..2,
                new: 0..0
            }]
        );
    }

    #[test]
    fn unified_rows_count_both_sides_of_a_change() {
        let segs = run(
            "a\nb\nc\n",
            "------- SEARCH\nb\n=======\nB1\nB2\n+++++++ REPLACE\n",
            true,
        );
        assert_eq!(RowMap::new(&segs, true).total(), 5);
        assert_eq!(RowMap::new(&segs, false).total(), 4);
    }
}
