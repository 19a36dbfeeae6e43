//! Turns the byte ranges v1/v2 record into the public per-block report.

use super::matcher::LineIndex;
use super::{Applied, LineSpan, Outcome, RawOutcome};

pub(super) fn finish(raw: RawOutcome, index: &LineIndex) -> Outcome {
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
    let result = raw.result.map(|(new_content, match_indices)| {
        if blocks.iter().any(|b| b.replacement_bytes.is_some()) {
            let new_index = LineIndex::new(&new_content);
            for block in &mut blocks {
                block.replacement = block.replacement_bytes.map(|(s, e)| {
                    let start_line = new_index.line_of(s) + 1;
                    let end_line = if e > s {
                        new_index.line_of(e - 1) + 1
                    } else {
                        start_line - 1
                    };
                    LineSpan {
                        start_line,
                        end_line,
                    }
                });
            }
        }
        Applied {
            new_content,
            match_indices,
        }
    });
    if result.is_err() {
        for block in &mut blocks {
            block.replacement_bytes = None;
        }
    }
    Outcome { result, blocks }
}
