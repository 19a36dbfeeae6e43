//! Turns the positions v1/v2 record into the public per-block report:
//! O(blocks), without re-scanning the new content (v1/v2 record each
//! match's lines when it is found).

use super::matcher::LineIndex;
use super::{Applied, LineSpan, Outcome, RawOutcome, Span};

/// Fills line numbers; the new content is what `content` makes of the sink.
pub(super) fn finish_with<C>(
    raw: RawOutcome,
    content: impl FnOnce(super::sink::Sink) -> C,
) -> Outcome<C> {
    let mut blocks = raw.blocks;
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

/// The report's span of bytes `start..end` of the original: `end` clamped
/// to the text, 1-based lines.
pub(super) fn span(index: &LineIndex, start: usize, end: usize) -> Span {
    let end = end.min(index.text().len());
    let start_line = index.newlines_before(start) + 1;
    let end_line = if end > start {
        index.newlines_before(end - 1) + 1
    } else {
        start_line - 1
    };
    Span {
        start,
        end,
        start_line,
        end_line,
    }
}

pub(super) fn finish(raw: RawOutcome, index: &LineIndex) -> Outcome {
    finish_with(raw, |sink| sink.into_content().to_text(index.text()))
}
