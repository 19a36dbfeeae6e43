//! New content as a splice: ranges of the original and inserted text, in
//! order. A result is then a few pieces per block instead of a copy of the
//! whole file, so a previewer re-applying on every streamed chunk of a big
//! file neither copies it per update nor holds it twice.

use std::borrow::Cow;

/// One run of the new content.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Piece {
    /// `original[start..end]`.
    Original {
        /// Byte offset of the run's start in the original.
        start: usize,
        /// Byte offset just past its end (exclusive).
        end: usize,
    },
    /// `inserted[start..end]` of the same [`Spliced`].
    Inserted {
        /// Byte offset of the run's start in the inserted text.
        start: usize,
        /// Byte offset just past its end (exclusive).
        end: usize,
    },
}

/// New content = the pieces' texts concatenated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Spliced {
    pieces: Vec<Piece>,
    /// Where each piece starts in the new content (same length as `pieces`).
    offsets: Vec<usize>,
    inserted: String,
    len: usize,
}

impl Spliced {
    /// Length of the new content in bytes.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the new content is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The runs of the new content, in order; concatenated they are the whole content.
    pub fn pieces(&self) -> &[Piece] {
        &self.pieces
    }

    /// Appends `original[start..end]` (char boundaries, `start <= end`).
    pub(crate) fn push_original(&mut self, start: usize, end: usize) {
        if start == end {
            return;
        }
        match self.pieces.last_mut() {
            Some(Piece::Original { end: last, .. }) if *last == start => *last = end,
            _ => self.open(Piece::Original { start, end }),
        }
        self.len += end - start;
    }

    /// Appends inserted text.
    pub(crate) fn push_str(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let start = self.inserted.len();
        self.inserted.push_str(s);
        let end = self.inserted.len();
        match self.pieces.last_mut() {
            Some(Piece::Inserted { end: last, .. }) if *last == start => *last = end,
            _ => self.open(Piece::Inserted { start, end }),
        }
        self.len += s.len();
    }

    fn open(&mut self, piece: Piece) {
        self.pieces.push(piece);
        self.offsets.push(self.len);
    }

    /// The text of `piece` (of this splice, over `original`).
    pub fn piece_text<'a>(&'a self, original: &'a str, piece: Piece) -> &'a str {
        match piece {
            Piece::Original { start, end } => &original[start..end],
            Piece::Inserted { start, end } => &self.inserted[start..end],
        }
    }

    /// The pieces' texts in order.
    pub fn chunks<'a>(&'a self, original: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.pieces
            .iter()
            .map(move |&p| self.piece_text(original, p))
    }

    /// The whole new content as one string.
    pub fn to_text(&self, original: &str) -> String {
        let mut out = String::with_capacity(self.len);
        for chunk in self.chunks(original) {
            out.push_str(chunk);
        }
        out
    }

    /// Bytes `start..end` of the new content (clamped to it); borrowed when
    /// they lie in one piece, which is every line but those a replacement
    /// joins to original text mid-line.
    pub fn slice<'a>(&'a self, original: &'a str, start: usize, end: usize) -> Cow<'a, str> {
        let end = end.min(self.len);
        if start >= end {
            return Cow::Borrowed("");
        }
        let first = self.piece_at(start);
        let mut out: Option<String> = None;
        for k in first..self.pieces.len() {
            let from = self.offsets[k];
            if from >= end {
                break;
            }
            let text = self.piece_text(original, self.pieces[k]);
            let lo = start.saturating_sub(from);
            let hi = (end - from).min(text.len());
            let part = &text[lo..hi];
            if out.is_none() && from + hi >= end {
                return Cow::Borrowed(part);
            }
            out.get_or_insert_with(String::new).push_str(part);
        }
        Cow::Owned(out.unwrap_or_default())
    }

    /// Where piece `k` starts in the new content.
    pub fn piece_start(&self, k: usize) -> usize {
        self.offsets[k]
    }

    /// Index of the piece holding byte `offset` (the last piece past the end).
    pub fn piece_at(&self, offset: usize) -> usize {
        self.offsets
            .partition_point(|&o| o <= offset)
            .saturating_sub(1)
    }

    /// Byte offset of the first difference between this content and
    /// `other` (both over `original`); the shorter length when one is a
    /// prefix of the other. Equal leading pieces are skipped unread.
    pub fn first_difference(&self, other: &Spliced, original: &str) -> usize {
        let mut same = 0;
        for (k, (a, b)) in self.pieces.iter().zip(&other.pieces).enumerate() {
            let same_text = match (a, b) {
                (Piece::Original { .. }, Piece::Original { .. }) => a == b,
                _ => false,
            };
            if !same_text || self.offsets[k] != other.offsets[k] {
                break;
            }
            same = self.offsets[k] + self.piece_text(original, *a).len();
        }
        let mut a = self.runs_from(original, same);
        let mut b = other.runs_from(original, same);
        let (mut x, mut y) = (a.next().unwrap_or_default(), b.next().unwrap_or_default());
        while !x.bytes.is_empty() && !y.bytes.is_empty() {
            let n = x.bytes.len().min(y.bytes.len());
            // The same stretch of the original is equal unread; other text
            // is compared in one block first (the common case: equal).
            let common = if x.at_original.is_some() && x.at_original == y.at_original
                || x.bytes[..n] == y.bytes[..n]
            {
                n
            } else {
                x.bytes
                    .iter()
                    .zip(y.bytes)
                    .take_while(|(p, q)| p == q)
                    .count()
            };
            same += common;
            if common < n {
                break;
            }
            x.advance(n);
            y.advance(n);
            if x.bytes.is_empty() {
                x = a.next().unwrap_or_default();
            }
            if y.bytes.is_empty() {
                y = b.next().unwrap_or_default();
            }
        }
        same
    }

    /// The new content from `offset` on, piece by piece.
    fn runs_from<'a>(&'a self, original: &'a str, offset: usize) -> impl Iterator<Item = Run<'a>> {
        let first = self.piece_at(offset);
        self.pieces
            .iter()
            .zip(&self.offsets)
            .skip(first)
            .map(move |(&p, &from)| {
                let text = self.piece_text(original, p).as_bytes();
                let skip = offset.saturating_sub(from).min(text.len());
                Run {
                    bytes: &text[skip..],
                    at_original: match p {
                        Piece::Original { start, .. } => Some(start + skip),
                        Piece::Inserted { .. } => None,
                    },
                }
            })
            .filter(|r| !r.bytes.is_empty())
    }
}

/// Bytes of a splice, and where they start in the original if they are its text.
#[derive(Default)]
struct Run<'a> {
    bytes: &'a [u8],
    at_original: Option<usize>,
}

impl Run<'_> {
    fn advance(&mut self, n: usize) {
        self.bytes = &self.bytes[n..];
        self.at_original = self.at_original.map(|at| at + n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn splice(original: &str, parts: &[Result<(usize, usize), &str>]) -> Spliced {
        let mut s = Spliced::default();
        for p in parts {
            match p {
                Ok((a, b)) => s.push_original(*a, *b),
                Err(t) => s.push_str(t),
            }
        }
        assert_eq!(s.len(), s.to_text(original).len());
        s
    }

    #[test]
    fn slices_across_pieces() {
        let original = "one\ntwo\nthree\n";
        let s = splice(original, &[Ok((0, 2)), Err("X\nY"), Ok((6, 14))]);
        let text = s.to_text(original);
        assert_eq!(text, "onX\nYo\nthree\n");
        for a in 0..=text.len() {
            for b in a..=text.len() + 2 {
                assert_eq!(s.slice(original, a, b), &text[a..b.min(text.len())]);
            }
        }
        assert!(matches!(s.slice(original, 7, 13), Cow::Borrowed(_)));
    }

    #[test]
    fn merges_adjacent_pieces() {
        let original = "abcdef";
        let s = splice(original, &[Ok((0, 2)), Ok((2, 4)), Err("x"), Err("y")]);
        assert_eq!(s.pieces().len(), 2);
        assert_eq!(s.to_text(original), "abcdxy");
    }

    #[test]
    fn finds_first_difference() {
        let original = "aaaa\nbbbb\ncccc\n";
        let a = splice(original, &[Ok((0, 10)), Err("X\n"), Ok((10, 15))]);
        let b = splice(original, &[Ok((0, 10)), Err("XY\n"), Ok((10, 15))]);
        assert_eq!(a.first_difference(&b, original), 11);
        assert_eq!(a.first_difference(&a.clone(), original), a.len());
        let c = splice(original, &[Ok((0, 5)), Err("bbbb\n"), Ok((10, 15))]);
        assert_eq!(c.first_difference(&a, original), 10);
    }

    proptest::proptest! {
        /// Pieces drawn from a tiny alphabet so that different pieces often
        /// spell the same bytes, and the same original range often recurs.
        #[test]
        fn first_difference_is_the_common_prefix_of_the_texts(
            original in "[ab]{0,12}",
            left in proptest::collection::vec((proptest::bool::ANY, 0usize..13, 0usize..13, "[ab]{0,3}"), 0..6),
            right in proptest::collection::vec((proptest::bool::ANY, 0usize..13, 0usize..13, "[ab]{0,3}"), 0..6),
        ) {
            let build = |steps: &[(bool, usize, usize, String)]| {
                let mut s = Spliced::default();
                for (from_original, a, b, t) in steps {
                    let (a, b) = (a % (original.len() + 1), b % (original.len() + 1));
                    if *from_original {
                        s.push_original(a.min(b), a.max(b));
                    } else {
                        s.push_str(t);
                    }
                }
                s
            };
            let (x, y) = (build(&left), build(&right));
            let (tx, ty) = (x.to_text(&original), y.to_text(&original));
            let want = tx.bytes().zip(ty.bytes()).take_while(|(p, q)| p == q).count();
            proptest::prop_assert_eq!(x.first_difference(&y, &original), want);
            proptest::prop_assert_eq!(y.first_difference(&x, &original), want);
        }
    }
}
