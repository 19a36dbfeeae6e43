//! Line lookups in spliced content without a table of its line starts.
//!
//! A line inside an original piece starts where the original's line does,
//! shifted; the original's index already knows those. Only the inserted
//! text's line starts are listed, so building this costs the pieces plus
//! the inserted text (the diff's size), not the file's line count, and a
//! lookup is two binary searches.

use crate::engine::matcher::LineIndex;
use crate::engine::offsets::Offsets;
use crate::engine::{Piece, Spliced};

#[derive(Clone, Debug)]
pub struct SplicedLines {
    /// `\n`s before each piece, then the total (one more than the pieces).
    newlines_before: Vec<usize>,
    /// Offsets in the content right after each `\n` of an inserted piece.
    inserted_starts: Offsets,
    /// Entries of `inserted_starts` before each piece, then the total.
    inserted_before: Vec<usize>,
}

impl SplicedLines {
    pub fn new(index: &LineIndex, content: &Spliced) -> Self {
        let original = index.text();
        let pieces = content.pieces();
        let mut newlines_before = Vec::with_capacity(pieces.len() + 1);
        let mut inserted_before = Vec::with_capacity(pieces.len() + 1);
        let mut inserted_starts = Offsets::with_capacity(0, content.len());
        let mut newlines = 0;
        for (k, &piece) in pieces.iter().enumerate() {
            newlines_before.push(newlines);
            inserted_before.push(inserted_starts.len());
            match piece {
                Piece::Original { start, end } => newlines += index.newlines_between(start, end),
                Piece::Inserted { .. } => {
                    let at = content.piece_start(k);
                    let before = inserted_starts.len();
                    let text = content.piece_text(original, piece);
                    inserted_starts.extend(text.match_indices('\n').map(|(i, _)| at + i + 1));
                    newlines += inserted_starts.len() - before;
                }
            }
        }
        newlines_before.push(newlines);
        inserted_before.push(inserted_starts.len());
        SplicedLines {
            newlines_before,
            inserted_starts,
            inserted_before,
        }
    }

    /// Number of `\n` in the content.
    pub fn newlines(&self) -> usize {
        self.newlines_before.last().copied().unwrap_or(0)
    }

    /// Offset where line `i` starts: 0 for the first, right after the
    /// `i`-th `\n` otherwise; `None` past the last `\n`.
    pub fn line_start(&self, index: &LineIndex, content: &Spliced, i: usize) -> Option<usize> {
        if i == 0 {
            return Some(0);
        }
        if i > self.newlines() {
            return None;
        }
        // The piece holding the `i`-th `\n`: before it fewer than `i`.
        let k = self.newlines_before.partition_point(|&n| n < i) - 1;
        let nth = i - self.newlines_before[k];
        Some(match content.pieces()[k] {
            Piece::Original { start, .. } => {
                let line = index.line_of(start) + nth;
                index.line_start(line) - start + content.piece_start(k)
            }
            Piece::Inserted { .. } => self.inserted_starts.at(self.inserted_before[k] + nth - 1),
        })
    }

    /// Number of `\n` before `offset` (clamped to the content): the 0-based
    /// line holding it.
    pub fn line_of(&self, index: &LineIndex, content: &Spliced, offset: usize) -> usize {
        if offset >= content.len() {
            return self.newlines();
        }
        let k = content.piece_at(offset);
        let into = offset - content.piece_start(k);
        let inside = match content.pieces()[k] {
            Piece::Original { start, .. } => index.newlines_between(start, start + into),
            Piece::Inserted { .. } => {
                let (from, to) = (self.inserted_before[k], self.inserted_before[k + 1]);
                self.inserted_starts.partition_point(to, |s| s <= offset) - from
            }
        };
        self.newlines_before[k] + inside
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Ranges of the original (by their ends, in any order, so pieces may
    /// repeat, skip or reorder text) and inserted strings.
    fn splice(original: &str, steps: &[(bool, usize, usize, String)]) -> Spliced {
        let mut content = Spliced::default();
        for (from_original, a, b, s) in steps {
            if *from_original {
                let (a, b) = (a % (original.len() + 1), b % (original.len() + 1));
                content.push_original(a.min(b), a.max(b));
            } else {
                content.push_str(s);
            }
        }
        content
    }

    proptest! {
        #[test]
        fn lookups_equal_a_table_of_the_copied_text(
            original in "[ab\n]{0,30}",
            steps in prop::collection::vec(
                (any::<bool>(), 0usize..64, 0usize..64, "[xy\n]{0,5}"),
                0..8,
            ),
        ) {
            let index = LineIndex::new(&original);
            let content = splice(&original, &steps);
            let text = content.to_text(&original);
            let lines = SplicedLines::new(&index, &content);
            let starts: Vec<usize> = std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect();
            prop_assert_eq!(lines.newlines(), starts.len() - 1);
            for i in 0..starts.len() + 2 {
                prop_assert_eq!(
                    lines.line_start(&index, &content, i),
                    starts.get(i).copied(),
                    "line {} of {:?}", i, text
                );
            }
            for offset in 0..text.len() + 2 {
                let want = text.as_bytes()[..offset.min(text.len())]
                    .iter()
                    .filter(|&&b| b == b'\n')
                    .count();
                prop_assert_eq!(
                    lines.line_of(&index, &content, offset),
                    want,
                    "offset {} of {:?}", offset, text
                );
            }
        }
    }
}
