//! Line endings, ranges and spans shared by both agents' semantics.

use crate::engine::{LineSpan, Span};

/// What one successful edit did, in byte ranges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Done {
    pub new_content: String,
    pub created: bool,
    /// A whole new content (a created or overwritten file) rather than a
    /// located replacement.
    pub whole: bool,
    /// From the first replaced byte of the original to the last (an empty
    /// range for an insertion); `None` for a created file.
    pub replaced: Option<(usize, usize)>,
    /// The same for the replacements in the new content.
    pub placed: (usize, usize),
    /// How many places were replaced.
    pub occurrences: usize,
}

/// Lines split on `\r\n` or `\n` (JavaScript's `split(/\r\n|\n/)`), with
/// the byte offset each starts at.
pub(super) fn split_eol(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        let line = &text[start..end];
        out.push((start, line.strip_suffix('\r').unwrap_or(line)));
        start = end + 1;
    }
    out.push((start, &text[start..]));
    out
}

/// Byte offsets `start..end` of `text` as the report's span: 1-based lines,
/// `end_line = start_line - 1` when empty.
pub(super) fn span(text: &str, start: usize, end: usize) -> Span {
    let lines = line_span(text, start, end);
    Span {
        start,
        end,
        start_line: lines.start_line,
        end_line: lines.end_line,
    }
}

/// The 1-based lines bytes `start..end` of `text` touch.
pub(super) fn line_span(text: &str, start: usize, end: usize) -> LineSpan {
    let newlines = |to: usize| bytecount::count(&text.as_bytes()[..to], b'\n');
    let start_line = newlines(start) + 1;
    let end_line = if end > start {
        newlines(end - 1) + 1
    } else {
        start_line - 1
    };
    LineSpan {
        start_line,
        end_line,
    }
}

/// The 1-based lines each of `ranges` (byte ranges of `text`, not
/// overlapping, in ascending order) touches, counted in one pass over
/// `text` (a lone `}` may stand in tens of thousands of places: counting
/// from the start for each was quadratic).
pub(super) fn line_spans(
    text: &str,
    ranges: impl IntoIterator<Item = (usize, usize)>,
) -> Vec<LineSpan> {
    let bytes = text.as_bytes();
    let (mut counted_to, mut newlines) = (0, 0);
    ranges
        .into_iter()
        .map(|(start, end)| {
            newlines += bytecount::count(&bytes[counted_to..start], b'\n');
            counted_to = start;
            let start_line = newlines + 1;
            let end_line = if end > start {
                start_line + bytecount::count(&bytes[start..end - 1], b'\n')
            } else {
                start_line - 1
            };
            LineSpan {
                start_line,
                end_line,
            }
        })
        .collect()
}

/// Maps offsets of a text whose `\r\n` pairs became `\n` back to the text
/// before: `crlf_at` holds, in order, the normalised offsets of the `\n`s
/// that were `\r\n`.
pub(super) struct CrlfMap {
    crlf_at: Vec<usize>,
}

impl CrlfMap {
    /// `text` with every `\r\n` turned into `\n`, and the map back
    /// (`text` itself when it has no `\r\n`: not copied).
    pub fn normalise(text: &str) -> (std::borrow::Cow<'_, str>, CrlfMap) {
        if memchr::memmem::find(text.as_bytes(), b"\r\n").is_none() {
            return (
                std::borrow::Cow::Borrowed(text),
                CrlfMap {
                    crlf_at: Vec::new(),
                },
            );
        }
        let mut out = String::with_capacity(text.len());
        let mut crlf_at = Vec::new();
        let mut rest = text;
        while let Some(i) = memchr::memmem::find(rest.as_bytes(), b"\r\n") {
            out.push_str(&rest[..i]);
            crlf_at.push(out.len());
            out.push('\n');
            rest = &rest[i + 2..];
        }
        out.push_str(rest);
        (std::borrow::Cow::Owned(out), CrlfMap { crlf_at })
    }

    /// Offset `n` of the normalised text in the original.
    pub fn original(&self, n: usize) -> usize {
        n + self.crlf_at.partition_point(|&p| p < n)
    }
}

/// Offset `n` of `text` once each of its `\n` becomes `\r\n`.
pub(super) fn crlf_offset(text: &str, n: usize) -> usize {
    n + bytecount::count(&text.as_bytes()[..n], b'\n')
}
