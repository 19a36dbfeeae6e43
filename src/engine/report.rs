//! Turns the positions v1/v2 record into the public per-block report:
//! O(blocks × log lines), without re-scanning the new content.

use super::matcher::LineIndex;
use super::{Applied, LineSpan, Outcome, RawOutcome};

/// Fills line numbers; returns the outcome and the new content's length.
pub(super) fn finish_counted(raw: RawOutcome, index: &LineIndex) -> (Outcome, usize) {
    let mut blocks = raw.blocks;
    let len = index.text().len();
    for block in &mut blocks {
        if let Some(span) = &mut block.original {
            span.end = span.end.min(len);
            span.start_line = index.line_of(span.start) + 1;
            span.end_line = if span.end > span.start {
                index.line_of(span.end - 1) + 1
            } else {
                span.start_line - 1
            };
        }
    }
    let ok = raw.result.is_ok();
    for (block, placed) in blocks.iter_mut().zip(&raw.placed) {
        let placed = placed.filter(|_| ok);
        block.replacement_bytes = placed.map(|(s, e)| (s.bytes, e.bytes));
        // A replacement is whole lines, each ending in `\n`, so its last line
        // is the number of newlines before its end.
        block.replacement = placed.map(|(s, e)| LineSpan {
            start_line: s.newlines + 1,
            end_line: e.newlines,
        });
    }
    let mut new_len = 0;
    let result = raw.result.map(|(sink, match_indices)| {
        new_len = sink.pos().bytes;
        Applied {
            new_content: sink.into_text(),
            match_indices,
        }
    });
    (Outcome { result, blocks }, new_len)
}

pub(super) fn finish(raw: RawOutcome, index: &LineIndex) -> Outcome {
    finish_counted(raw, index).0
}
