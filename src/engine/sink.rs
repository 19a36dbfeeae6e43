//! Where v1/v2 write the new content. It counts bytes and newlines as it
//! goes, so block positions in the new content are known without re-scanning
//! it, and it can run without text when only those counts are wanted (the
//! streaming session's cheap per-update summary). The text is kept as a
//! splice of the original (see [`Spliced`]), not copied.

use super::content::Spliced;
use super::js::floor_char_boundary;
use super::matcher::LineIndex;

/// A position in the new content: bytes and `\n`s before it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Pos {
    pub bytes: usize,
    pub newlines: usize,
}

#[derive(Debug, Clone, Default)]
pub(crate) struct Sink {
    /// `None` when only counting.
    text: Option<Spliced>,
    pos: Pos,
    /// The rest of the original was appended without counting its lines
    /// ([`Sink::push_tail`]): only the length may be read after.
    tail: bool,
}

impl Sink {
    pub fn new(keep_text: bool) -> Self {
        Sink {
            text: keep_text.then(Spliced::default),
            pos: Pos::default(),
            tail: false,
        }
    }

    /// The same counts, without the text.
    pub fn counts_only(&self) -> Self {
        Sink {
            text: None,
            pos: self.pos,
            tail: self.tail,
        }
    }

    /// A copy for a forked machine: with the text only when `keep_text`.
    pub fn fork(&self, keep_text: bool) -> Self {
        if keep_text {
            self.clone()
        } else {
            self.counts_only()
        }
    }

    pub fn pos(&self) -> Pos {
        debug_assert!(!self.tail, "no line count after the tail");
        self.pos
    }

    /// Length of the content in bytes.
    pub fn len(&self) -> usize {
        self.pos.bytes
    }

    /// Appends the original from `start` to its end, the last push: no
    /// position is asked for after it, so its newlines are not counted (a
    /// block near the top of a big file would otherwise cost a pass over
    /// the rest of it).
    pub fn push_tail(&mut self, index: &LineIndex, start: usize) {
        let original = index.text();
        let start = floor_char_boundary(original, start);
        if let Some(text) = &mut self.text {
            text.push_original(start, original.len());
        }
        self.pos.bytes += original.len().saturating_sub(start);
        self.tail = true;
    }

    /// Appends `original.slice(start, end)` as JavaScript would (clamped,
    /// empty when `start >= end`); newlines are counted from the line table.
    pub fn push_original(&mut self, index: &LineIndex, start: usize, end: usize) {
        let original = index.text();
        let start = floor_char_boundary(original, start);
        let end = floor_char_boundary(original, end);
        if start >= end {
            return;
        }
        if let Some(text) = &mut self.text {
            text.push_original(start, end);
        }
        self.pos.bytes += end - start;
        self.pos.newlines += index.newlines_between(start, end);
    }

    /// Appends one diff line (which holds no `\n`) and a `\n`.
    pub fn push_line(&mut self, line: &str) {
        if let Some(text) = &mut self.text {
            text.push_str(line);
            text.push_str("\n");
        }
        self.pos.bytes += line.len() + 1;
        self.pos.newlines += 1;
    }

    /// Appends text holding `newlines` newlines.
    pub fn push_counted(&mut self, s: &str, newlines: usize) {
        if let Some(text) = &mut self.text {
            text.push_str(s);
        }
        self.pos.bytes += s.len();
        self.pos.newlines += newlines;
    }

    pub fn into_content(self) -> Spliced {
        self.text.unwrap_or_default()
    }
}
