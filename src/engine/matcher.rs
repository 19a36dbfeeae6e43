//! The reference's matching chain over one original file: exact, then
//! line-trimmed, then block-anchor (then whole-file, in v1).
//!
//! The reference re-splits the file and recounts offsets for every candidate.
//! Here line starts are computed once per file, and the line-trimmed stage is
//! Knuth-Morris-Pratt over lines compared by their trimmed text, so every
//! fallback is one linear pass (each file line trimmed at most once per call)
//! that picks exactly the candidate the reference picks: the first one.

use std::sync::{Arc, OnceLock};

use super::Stage;
use super::js::js_trim;
use super::offsets::Offsets;

/// A match of one SEARCH text: byte range in the original and the stage.
/// `end` may be one past the file's end (the reference counts a newline after
/// a last line that has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub stage: Stage,
}

/// The indexed text: borrowed for one-off applies, shared or owned for
/// sessions.
enum Text<'a> {
    Borrowed(&'a str),
    Shared(Arc<str>),
    Owned(String),
}

/// Line table of an original file, split on `\n` as JavaScript does.
pub struct LineIndex<'a> {
    text: Text<'a>,
    /// Start of every line, plus `len + 1` as a sentinel after the last.
    starts: Offsets,
    /// ASCII text: byte offsets are UTF-16 offsets.
    ascii: bool,
    /// UTF-16 length of the text before each line start; built on first need
    /// and only for non-ASCII text (ASCII offsets are already UTF-16 offsets).
    utf16_starts: OnceLock<Vec<usize>>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        Self::build(Text::Borrowed(text))
    }

    fn build(text: Text<'a>) -> Self {
        let s = match &text {
            Text::Borrowed(s) => *s,
            Text::Shared(s) => s,
            Text::Owned(s) => s,
        };
        // Counting first sizes the table exactly: no growth, no slack.
        let newlines = count_newlines(s.as_bytes());
        let mut starts = Offsets::with_capacity(newlines + 2, s.len() + 1);
        starts.push(0);
        // `match_indices` with a char pattern scans with memchr.
        starts.extend(s.match_indices('\n').map(|(i, _)| i + 1));
        starts.push(s.len() + 1);
        let ascii = s.is_ascii();
        LineIndex {
            text,
            starts,
            ascii,
            utf16_starts: OnceLock::new(),
        }
    }

    pub fn text(&self) -> &str {
        match &self.text {
            Text::Borrowed(s) => s,
            Text::Shared(s) => s,
            Text::Owned(s) => s,
        }
    }

    /// Number of lines as `split("\n")` counts them (at least 1).
    pub fn line_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Byte offset where line `i` (0-based) starts; `len + 1` for `i == count`.
    pub fn line_start(&self, i: usize) -> usize {
        self.starts.at(i)
    }

    /// Text of line `i` without its `\n`.
    pub fn line(&self, i: usize) -> &str {
        &self.text()[self.starts.at(i)..self.starts.at(i + 1) - 1]
    }

    /// 0-based line containing byte `offset` (offsets past the end map to the
    /// last line). Equals the number of `\n` before `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let n = self.line_count();
        self.starts
            .partition_point(n, |s| s <= offset)
            .saturating_sub(1)
    }

    /// Number of `\n` bytes in `text[start..end]` (clamped to the text).
    pub fn newlines_between(&self, start: usize, end: usize) -> usize {
        let len = self.text().len();
        let (start, end) = (start.min(len), end.min(len));
        if start >= end {
            0
        } else {
            self.line_of(end) - self.line_of(start)
        }
    }

    /// The UTF-16 offset JavaScript reports for byte `offset` (past the end
    /// counts as the end); O(log lines) after a one-time table build.
    pub fn utf16_offset(&self, offset: usize) -> usize {
        let text = self.text();
        if self.ascii {
            return offset.min(text.len());
        }
        let table = self.utf16_starts.get_or_init(|| {
            let mut units = 0;
            let mut out = Vec::with_capacity(self.line_count());
            for i in 0..self.line_count() {
                out.push(units);
                units += self.line(i).chars().map(char::len_utf16).sum::<usize>() + 1;
            }
            out
        });
        let line = self.line_of(offset);
        let start = self.starts.at(line);
        table[line] + super::js::utf16_offset(&text[start..], offset.saturating_sub(start))
    }

    /// First line whose start is at or after `from`, as the reference's
    /// counting loop finds it (may equal `line_count`).
    fn first_line_at_or_after(&self, from: usize) -> usize {
        let n = self.line_count();
        self.starts.partition_point(n, |s| s < from)
    }

    fn trimmed_line(&self, i: usize) -> &str {
        js_trim(self.line(i))
    }

    fn span(&self, first: usize, count: usize) -> (usize, usize) {
        (self.starts.at(first), self.starts.at(first + count))
    }
}

impl LineIndex<'static> {
    /// An index that owns (a share of) its text, for long-lived sessions.
    pub fn shared(text: Arc<str>) -> Self {
        Self::build(Text::Shared(text))
    }

    /// An index that takes its text without copying it (a file just read).
    pub fn owned(text: String) -> Self {
        Self::build(Text::Owned(text))
    }
}

/// Counts `\n` bytes in 64-byte blocks with a narrow counter, a shape the
/// compiler vectorizes (a plain `filter().count()` runs ~10x slower).
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    let mut chunks = bytes.chunks_exact(64);
    let mut total = 0;
    for chunk in &mut chunks {
        let in_chunk: u8 = chunk.iter().map(|&b| u8::from(b == b'\n')).sum();
        total += usize::from(in_chunk);
    }
    total + chunks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// The SEARCH lines as the fallbacks see them: split on `\n`, one trailing
/// empty element dropped. Also returns the element count before the drop,
/// which gates the block-anchor stage.
fn search_lines(search: &str) -> (Vec<&str>, usize) {
    let mut lines: Vec<&str> = search.split('\n').collect();
    let raw = lines.len();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    (lines, raw)
}

/// Exact: first occurrence at or after `from`.
pub fn exact(index: &LineIndex, search: &str, from: usize) -> Option<Match> {
    let text = index.text();
    if from > text.len() {
        return None;
    }
    let at = super::js::floor_char_boundary(text, from);
    text[at..].find(search).map(|i| Match {
        start: at + i,
        end: at + i + search.len(),
        stage: Stage::Exact,
    })
}

/// Line-trimmed: first window of lines, from the first line starting at or
/// after `from`, whose trimmed lines equal the trimmed search lines.
pub fn line_trimmed(index: &LineIndex, search: &str, from: usize) -> Option<Match> {
    let (lines, _) = search_lines(search);
    let m = lines.len();
    let n = index.line_count();
    let first = index.first_line_at_or_after(from);
    // A SEARCH text always ends in `\n`, so `m >= 1` for every real call.
    if m == 0 || n < m || first > n - m {
        return None;
    }
    let needle: Vec<&str> = lines.iter().map(|l| js_trim(l)).collect();
    let at = first + kmp_find(n - first, |i| index.trimmed_line(first + i), &needle)?;
    let (start, end) = index.span(at, m);
    Some(Match {
        start,
        end,
        stage: Stage::LineTrimmed,
    })
}

/// Block-anchor: for searches of 3+ raw elements, the first window whose first
/// and last trimmed lines equal the search's; the middle is not compared.
pub fn block_anchor(index: &LineIndex, search: &str, from: usize) -> Option<Match> {
    let (lines, raw) = search_lines(search);
    if raw < 3 {
        return None;
    }
    let m = lines.len();
    let n = index.line_count();
    let first = index.first_line_at_or_after(from);
    if n < m || first > n - m {
        return None;
    }
    let head = js_trim(lines[0]);
    let tail = js_trim(lines[m - 1]);
    let at = (first..=n - m)
        .find(|&i| index.trimmed_line(i) == head && index.trimmed_line(i + m - 1) == tail)?;
    let (start, end) = index.span(at, m);
    Some(Match {
        start,
        end,
        stage: Stage::BlockAnchor,
    })
}

/// Knuth-Morris-Pratt over `len` haystack items fetched by `hay(i)`: first
/// index of `needle`, with O(len + needle) comparisons and each item fetched once.
fn kmp_find<'h>(len: usize, hay: impl Fn(usize) -> &'h str, needle: &[&str]) -> Option<usize> {
    let m = needle.len();
    if m == 0 {
        return Some(0);
    }
    let mut fail = vec![0usize; m];
    let mut k = 0;
    for i in 1..m {
        while k > 0 && needle[i] != needle[k] {
            k = fail[k - 1];
        }
        if needle[i] == needle[k] {
            k += 1;
        }
        fail[i] = k;
    }
    let mut k = 0;
    for i in 0..len {
        let h = hay(i);
        while k > 0 && h != needle[k] {
            k = fail[k - 1];
        }
        if h == needle[k] {
            k += 1;
            if k == m {
                return Some(i + 1 - m);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kmp(hay: &[&'static str], needle: &[&str]) -> Option<usize> {
        kmp_find(hay.len(), |i| hay[i], needle)
    }

    #[test]
    fn kmp_finds_first_occurrence() {
        assert_eq!(kmp(&["a", "b", "a", "b", "c"], &["a", "b", "c"]), Some(2));
        assert_eq!(kmp(&["a", "a", "a"], &["a", "a"]), Some(0));
        assert_eq!(kmp(&["a", "b"], &["b", "a"]), None);
    }

    #[test]
    fn line_trimmed_end_passes_unterminated_last_line() {
        let idx = LineIndex::new("a\n  b");
        let m = line_trimmed(&idx, "b\n", 0).unwrap();
        assert_eq!((m.start, m.end), (2, 6));
    }

    #[test]
    fn block_anchor_needs_three_raw_elements() {
        let two = LineIndex::new("x\nfirst\nlast\n");
        assert!(block_anchor(&two, "first\nlast\n", 0).is_some());
        let idx = LineIndex::new("x\nfirst\nmid\nlast\n");
        assert!(block_anchor(&idx, "first\n", 0).is_none());
        let m = block_anchor(&idx, "first\nother\nlast\n", 0).unwrap();
        assert_eq!(m.start, 2);
    }

    #[test]
    fn start_line_counts_like_reference() {
        let idx = LineIndex::new("ab\ncd\nef");
        assert_eq!(idx.first_line_at_or_after(0), 0);
        assert_eq!(idx.first_line_at_or_after(1), 1);
        assert_eq!(idx.first_line_at_or_after(3), 1);
        assert_eq!(idx.first_line_at_or_after(9), 3);
        assert_eq!(idx.line_of(4), 1);
        assert_eq!(idx.newlines_between(0, 8), 2);
        assert_eq!(idx.newlines_between(3, 6), 1);
        assert_eq!(idx.newlines_between(6, 3), 0);
    }

    #[test]
    fn counts_newlines_across_blocks() {
        let text = "a\n".repeat(100) + "\n\nb";
        assert_eq!(count_newlines(text.as_bytes()), 102);
        assert_eq!(LineIndex::new(&text).line_count(), 103);
    }

    #[test]
    fn utf16_offsets_from_table_match_direct_count() {
        let text = "a😀b\nü\n\nx😀";
        let idx = LineIndex::new(text);
        for b in 0..=text.len() + 1 {
            assert_eq!(idx.utf16_offset(b), super::super::js::utf16_offset(text, b));
        }
    }
}
