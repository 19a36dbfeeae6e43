//! Turns the positions v1/v2 record into the public per-block report:
//! O(blocks × log lines), without re-scanning the new content.

use super::matcher::LineIndex;
use super::{Applied, LineSpan, Outcome, RawOutcome};

/// Fills line numbers; the new content is what `content` makes of the sink.
pub(super) fn finish_with<C>(
    raw: RawOutcome,
    index: &LineIndex,
    content: impl FnOnce(super::sink::Sink) -> C,
) -> Outcome<C> {
    let mut blocks = raw.blocks;
    let len = index.text().len();
    for block in &mut blocks {
        if let Some(span) = &mut block.original {
            span.end = span.end.min(len);
            span.start_line = index.newlines_before(span.start) + 1;
            span.end_line = if span.end > span.start {
                index.newlines_before(span.end - 1) + 1
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
    let result = raw.result.map(|(sink, match_indices)| Applied {
        new_content: content(sink),
        match_indices,
    });
    Outcome { result, blocks }
}

pub(super) fn finish(raw: RawOutcome, index: &LineIndex) -> Outcome {
    finish_with(raw, index, |sink| sink.into_content().to_text(index.text()))
}
