//! The reference's matching chain over one original file: exact, then
//! line-trimmed, then block-anchor (then whole-file, in v1).
//!
//! The reference re-splits the file and recounts offsets for every candidate.
//! Here line starts are computed once per file and trimmed lines are interned
//! to integers once, on first need, so each fallback is a linear scan that
//! picks exactly the candidate the reference picks (the first one).

use std::cell::OnceCell;
use std::collections::HashMap;

use super::Stage;
use super::js::js_trim;

/// A match of one SEARCH text: byte range in the original and the stage.
/// `end` may be one past the file's end (the reference counts a newline after
/// a last line that has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub start: usize,
    pub end: usize,
    pub stage: Stage,
}

/// Line table of an original file, split on `\n` as JavaScript does.
pub struct LineIndex<'a> {
    text: &'a str,
    /// Start of every line, plus `len + 1` as a sentinel after the last.
    starts: Vec<usize>,
    trimmed: OnceCell<TrimmedIds<'a>>,
}

struct TrimmedIds<'a> {
    ids: Vec<u32>,
    by_text: HashMap<&'a str, u32>,
}

/// Id for a trimmed search line absent from the file: equal to nothing.
const ABSENT: u32 = u32::MAX;

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> Self {
        let mut starts = Vec::with_capacity(text.len() / 32 + 2);
        starts.push(0);
        starts.extend(memchr_newlines(text).map(|i| i + 1));
        starts.push(text.len() + 1);
        LineIndex {
            text,
            starts,
            trimmed: OnceCell::new(),
        }
    }

    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Number of lines as `split("\n")` counts them (at least 1).
    pub fn line_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Byte offset where line `i` (0-based) starts; `len + 1` for `i == count`.
    pub fn line_start(&self, i: usize) -> usize {
        self.starts[i]
    }

    /// Text of line `i` without its `\n`.
    pub fn line(&self, i: usize) -> &'a str {
        &self.text[self.starts[i]..self.starts[i + 1] - 1]
    }

    /// 0-based line containing byte `offset` (offsets past the end map to the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let n = self.line_count();
        self.starts[..n]
            .partition_point(|&s| s <= offset)
            .saturating_sub(1)
    }

    /// First line whose start is at or after `from`, as the reference's
    /// counting loop finds it (may equal `line_count`).
    fn first_line_at_or_after(&self, from: usize) -> usize {
        let n = self.line_count();
        self.starts[..n].partition_point(|&s| s < from)
    }

    fn trimmed(&self) -> &TrimmedIds<'a> {
        self.trimmed.get_or_init(|| {
            let n = self.line_count();
            let mut by_text = HashMap::with_capacity(n);
            let ids = (0..n)
                .map(|i| {
                    let next = by_text.len() as u32;
                    *by_text.entry(js_trim(self.line(i))).or_insert(next)
                })
                .collect();
            TrimmedIds { ids, by_text }
        })
    }

    /// Trimmed-line ids of the file (computed once, on first use).
    pub fn trimmed_ids(&self) -> &[u32] {
        &self.trimmed().ids
    }

    /// Id of a trimmed text, if some line of the file trims to it.
    pub fn trimmed_id(&self, text: &str) -> Option<u32> {
        self.trimmed().by_text.get(js_trim(text)).copied()
    }

    fn span(&self, first: usize, count: usize) -> (usize, usize) {
        (self.starts[first], self.starts[first + count])
    }
}

fn memchr_newlines(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.bytes()
        .enumerate()
        .filter_map(|(i, b)| (b == b'\n').then_some(i))
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
    let needle: Vec<u32> = lines
        .iter()
        .map(|l| index.trimmed_id(l).unwrap_or(ABSENT))
        .collect();
    if needle.contains(&ABSENT) {
        return None;
    }
    let hay = &index.trimmed_ids()[first..];
    let at = first + kmp_find(hay, &needle)?;
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
    let head = index.trimmed_id(lines[0])?;
    let tail = index.trimmed_id(lines[m - 1])?;
    let ids = index.trimmed_ids();
    let at = (first..=n - m).find(|&i| ids[i] == head && ids[i + m - 1] == tail)?;
    let (start, end) = index.span(at, m);
    Some(Match {
        start,
        end,
        stage: Stage::BlockAnchor,
    })
}

/// Knuth-Morris-Pratt: first index of `needle` in `hay`, linear time.
fn kmp_find(hay: &[u32], needle: &[u32]) -> Option<usize> {
    let m = needle.len();
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
    for (i, &h) in hay.iter().enumerate() {
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

    #[test]
    fn kmp_finds_first_occurrence() {
        assert_eq!(kmp_find(&[1, 2, 1, 2, 3], &[1, 2, 3]), Some(2));
        assert_eq!(kmp_find(&[1, 1, 1], &[1, 1]), Some(0));
        assert_eq!(kmp_find(&[1, 2], &[2, 1]), None);
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
    }
}
