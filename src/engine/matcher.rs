//! The reference's matching chain over one original file: exact, then
//! line-trimmed, then block-anchor (then whole-file, in v1).
//!
//! The reference re-splits the file and recounts offsets for every candidate.
//! Here line starts are computed once per file, and the line-trimmed stage is
//! Knuth-Morris-Pratt over lines compared by their trimmed text, so every
//! fallback is one linear pass (each file line trimmed at most once per call)
//! that picks exactly the candidate the reference picks: the first one.

use std::sync::{Arc, Mutex, OnceLock};

use memchr::memmem;

use super::Stage;
use super::js::{floor_char_boundary, js_trim};
use super::offsets::Offsets;

/// A match of one SEARCH text: byte range in the original and the stage.
/// `end` may be one past the file's end (the reference counts a newline after
/// a last line that has none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    /// Byte offset of the match's start in the original.
    pub start: usize,
    /// Byte offset just past its end (exclusive; see above).
    pub end: usize,
    /// The fallback stage that found it.
    pub stage: Stage,
}

/// The indexed text: borrowed for one-off applies, shared or owned for
/// sessions.
enum Text<'a> {
    Borrowed(&'a str),
    Shared(Arc<str>),
    Owned(String),
}

/// Line index of an original file, split on `\n` as JavaScript does.
///
/// Nothing is built up front. An exact match needs only the number of `\n`
/// and UTF-16 units before a few offsets: those are counted from the nearest
/// offset already asked about (a "mark"), so an apply whose blocks come in
/// order counts each byte about once. The table of line starts is built on
/// the first line query (`line`, `line_start`, `line_of`, `line_count`,
/// which the fallbacks, the diagnosis and the previewer use), or once
/// counting has cost a few passes over the text; from then on every answer
/// comes from it, for every holder of the index.
pub struct LineIndex<'a> {
    text: Text<'a>,
    table: OnceLock<Table>,
    marks: Mutex<Marks>,
}

/// Start of every line, plus `len + 1` as a sentinel after the last.
struct Table {
    starts: Offsets,
    /// ASCII text: byte offsets are UTF-16 offsets.
    ascii: bool,
    /// UTF-16 length of the text before each line start; built on first need
    /// and only for non-ASCII text.
    utf16_starts: OnceLock<Vec<usize>>,
}

/// Counts of the text before offsets already asked about: sorted pairs
/// (offset, count), starting with (0, 0).
struct Tally {
    points: Vec<(usize, usize)>,
}

/// Newline and UTF-16 tallies, kept apart so that a caller asking only
/// about lines (v2, the report) never counts UTF-16 units.
struct Marks {
    newlines: Tally,
    utf16: Tally,
    /// Bytes counted so far; past a budget the table is built instead.
    counted: usize,
}

/// Offsets kept at most per tally; a caller asking about more offsets than
/// this gets the table.
const MAX_MARKS: usize = 4096;

impl Tally {
    fn new() -> Self {
        Tally {
            points: vec![(0, 0)],
        }
    }

    /// The count before char boundary `at`, counting from the nearest
    /// offset already known with `count` (additive over adjacent ranges).
    /// Adds the bytes counted to `counted`.
    fn count_to(
        &mut self,
        text: &str,
        at: usize,
        count: fn(&str) -> usize,
        counted: &mut usize,
    ) -> usize {
        // An apply asks in increasing order, mostly: past the last mark
        // needs no search.
        let i = match self.points.last() {
            Some(&(last, _)) if last < at => self.points.len(),
            _ => self.points.partition_point(|&(o, _)| o <= at),
        };
        let (prev, before) = self.points[i - 1];
        if prev == at {
            return before;
        }
        let value = match self.points.get(i) {
            Some(&(next, upto)) if next - at < at - prev => {
                *counted += next - at;
                upto - count(&text[at..next])
            }
            _ => {
                *counted += at - prev;
                before + count(&text[prev..at])
            }
        };
        if self.points.len() < MAX_MARKS {
            self.points.insert(i, (at, value));
        }
        value
    }
}

impl<'a> LineIndex<'a> {
    /// An index over borrowed `text`; nothing is counted until asked.
    pub fn new(text: &'a str) -> Self {
        Self::build(Text::Borrowed(text))
    }

    fn build(text: Text<'a>) -> Self {
        LineIndex {
            text,
            table: OnceLock::new(),
            marks: Mutex::new(Marks {
                newlines: Tally::new(),
                utf16: Tally::new(),
                counted: 0,
            }),
        }
    }

    /// The whole indexed text (the original).
    pub fn text(&self) -> &str {
        match &self.text {
            Text::Borrowed(s) => s,
            Text::Shared(s) => s,
            Text::Owned(s) => s,
        }
    }

    /// The line table, built on first call.
    fn table(&self) -> &Table {
        self.table.get_or_init(|| build_table(self.text()))
    }

    /// Whether the line table has been built (by a line query, a fallback,
    /// or counting past its budget).
    pub fn has_line_table(&self) -> bool {
        self.table.get().is_some()
    }

    /// Number of lines as `split("\n")` counts them (at least 1).
    pub fn line_count(&self) -> usize {
        self.table().starts.len() - 1
    }

    /// Byte offset where line `i` (0-based) starts; `len + 1` for `i == count`.
    pub fn line_start(&self, i: usize) -> usize {
        self.table().starts.at(i)
    }

    /// Text of line `i` without its `\n`.
    pub fn line(&self, i: usize) -> &str {
        let starts = &self.table().starts;
        &self.text()[starts.at(i)..starts.at(i + 1) - 1]
    }

    /// 0-based line containing byte `offset` (offsets past the end map to the
    /// last line). Equals the number of `\n` before `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        let starts = &self.table().starts;
        let n = starts.len() - 1;
        starts.partition_point(n, |s| s <= offset).saturating_sub(1)
    }

    /// Number of `\n` bytes before `offset` (clamped to the text): the line
    /// table's answer once it is built, a count from the nearest mark before.
    pub fn newlines_before(&self, offset: usize) -> usize {
        match self.counted(offset, |m| &mut m.newlines, count_newlines_str) {
            Some(n) => n,
            None => self.line_of(offset),
        }
    }

    /// Number of `\n` bytes in `text[start..end]` (clamped to the text).
    pub fn newlines_between(&self, start: usize, end: usize) -> usize {
        let len = self.text().len();
        let (start, end) = (start.min(len), end.min(len));
        if start >= end {
            0
        } else {
            self.newlines_before(end) - self.newlines_before(start)
        }
    }

    /// The UTF-16 offset JavaScript reports for byte `offset` (past the end
    /// counts as the end).
    pub fn utf16_offset(&self, offset: usize) -> usize {
        let text = self.text();
        let Some(table) = self.table.get() else {
            if let Some(units) = self.counted(offset, |m| &mut m.utf16, utf16_units) {
                return units;
            }
            return self.utf16_offset(offset);
        };
        if table.ascii {
            return offset.min(text.len());
        }
        let utf16_starts = table.utf16_starts.get_or_init(|| {
            let mut units = 0;
            let mut out = Vec::with_capacity(self.line_count());
            for i in 0..self.line_count() {
                out.push(units);
                units += self.line(i).chars().map(char::len_utf16).sum::<usize>() + 1;
            }
            out
        });
        let line = self.line_of(offset);
        let start = table.starts.at(line);
        utf16_starts[line] + super::js::utf16_offset(&text[start..], offset.saturating_sub(start))
    }

    /// A count before `offset` from the marks (the tally `which` picks,
    /// counted with `count`), or `None` once the table is built (or has just
    /// been built because counting went over budget).
    fn counted(
        &self,
        offset: usize,
        which: fn(&mut Marks) -> &mut Tally,
        count: fn(&str) -> usize,
    ) -> Option<usize> {
        if self.table.get().is_some() {
            return None;
        }
        let text = self.text();
        let at = floor_char_boundary(text, offset);
        let mut marks = self.marks.lock().unwrap_or_else(|e| e.into_inner());
        // Counting has cost a few passes over the text: the caller asks
        // about many scattered offsets, so the table serves better.
        if marks.counted > 4 * text.len() + (1 << 16) {
            marks.newlines = Tally::new();
            marks.utf16 = Tally::new();
            drop(marks);
            self.table();
            return None;
        }
        let mut counted = marks.counted;
        let value = which(&mut marks).count_to(text, at, count, &mut counted);
        marks.counted = counted;
        Some(value)
    }

    /// First line whose start is at or after `from`, as the reference's
    /// counting loop finds it (may equal `line_count`).
    fn first_line_at_or_after(&self, from: usize) -> usize {
        let starts = &self.table().starts;
        let n = starts.len() - 1;
        starts.partition_point(n, |s| s < from)
    }

    fn trimmed_line(&self, i: usize) -> &str {
        js_trim(self.line(i))
    }

    fn span(&self, first: usize, count: usize) -> (usize, usize) {
        let starts = &self.table().starts;
        (starts.at(first), starts.at(first + count))
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

fn build_table(s: &str) -> Table {
    // Counting first sizes the table exactly: no growth, no slack.
    let newlines = count_newlines(s.as_bytes());
    let mut starts = Offsets::with_capacity(newlines + 2, s.len() + 1);
    starts.push(0);
    starts.extend(memchr::memchr_iter(b'\n', s.as_bytes()).map(|i| i + 1));
    starts.push(s.len() + 1);
    Table {
        starts,
        ascii: s.is_ascii(),
        utf16_starts: OnceLock::new(),
    }
}

/// Counts `\n` bytes (SIMD, chosen at run time).
pub(crate) fn count_newlines(bytes: &[u8]) -> usize {
    bytecount::count(bytes, b'\n')
}

fn count_newlines_str(s: &str) -> usize {
    count_newlines(s.as_bytes())
}

/// UTF-16 units of `s`: its length when it is ASCII (a vectorized check);
/// otherwise one per char plus one more per 4-byte char.
fn utf16_units(s: &str) -> usize {
    if s.is_ascii() {
        return s.len();
    }
    let bytes = s.as_bytes();
    bytecount::num_chars(bytes) + bytes.iter().filter(|&&b| b >= 0xF0).count()
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
    let at = floor_char_boundary(text, from);
    find(&text.as_bytes()[at..], search.as_bytes()).map(|i| Match {
        start: at + i,
        end: at + i + search.len(),
        stage: Stage::Exact,
    })
}

/// First occurrence of `needle` in `hay`. Building a searcher costs about
/// as much as searching a few KB, so a long needle is first looked for by
/// its first bytes (a searcher cheap to build) and each hit compared whole;
/// after a few hits that are not the needle, a searcher for the whole needle
/// takes over from there, which keeps the worst case linear.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    const PREFIX: usize = 16;
    const TRIES: usize = 4;
    if needle.len() <= 2 * PREFIX {
        return memmem::find(hay, needle);
    }
    let prefix = memmem::Finder::new(&needle[..PREFIX]);
    let mut at = 0;
    for _ in 0..TRIES {
        let hit = at + prefix.find(&hay[at..])?;
        if hay[hit..].starts_with(needle) {
            return Some(hit);
        }
        at = hit + 1;
    }
    memmem::find(&hay[at..], needle).map(|i| at + i)
}

/// Line-trimmed: first window of lines, from the first line starting at or
/// after `from`, whose trimmed lines equal the trimmed search lines.
pub fn line_trimmed(index: &LineIndex, search: &str, from: usize) -> Option<Match> {
    let (lines, _) = search_lines(search);
    let m = lines.len();
    // A SEARCH text always ends in `\n`, so `m >= 1` for every real call.
    if m == 0 {
        return None;
    }
    let needle: Vec<&str> = lines.iter().map(|l| js_trim(l)).collect();
    let found = match scan_windows(index.text(), needle[0], from, m, |k, line| {
        js_trim(line) == needle[k]
    }) {
        Scan::Found(start, end) => Some((start, end)),
        Scan::Absent => None,
        Scan::GaveUp => line_trimmed_by_table(index, &needle, from),
    };
    found.map(|(start, end)| Match {
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
    let head = js_trim(lines[0]);
    let tail = js_trim(lines[m - 1]);
    let found = match scan_windows(index.text(), head, from, m, |k, line| {
        k + 1 < m || js_trim(line) == tail
    }) {
        Scan::Found(start, end) => Some((start, end)),
        Scan::Absent => None,
        Scan::GaveUp => block_anchor_by_table(index, head, tail, m, from),
    };
    found.map(|(start, end)| Match {
        start,
        end,
        stage: Stage::BlockAnchor,
    })
}

/// [`line_trimmed`]'s span in one linear pass over the line table: KMP over
/// lines compared by their trimmed text (each line trimmed at most once).
fn line_trimmed_by_table(
    index: &LineIndex,
    needle: &[&str],
    from: usize,
) -> Option<(usize, usize)> {
    let m = needle.len();
    let n = index.line_count();
    let first = index.first_line_at_or_after(from);
    if n < m || first > n - m {
        return None;
    }
    let at = first + kmp_find(n - first, |i| index.trimmed_line(first + i), needle)?;
    Some(index.span(at, m))
}

/// [`block_anchor`]'s span in one pass over the line table.
fn block_anchor_by_table(
    index: &LineIndex,
    head: &str,
    tail: &str,
    m: usize,
    from: usize,
) -> Option<(usize, usize)> {
    let n = index.line_count();
    let first = index.first_line_at_or_after(from);
    if n < m || first > n - m {
        return None;
    }
    let at = (first..=n - m)
        .find(|&i| index.trimmed_line(i) == head && index.trimmed_line(i + m - 1) == tail)?;
    Some(index.span(at, m))
}

/// What a scan for a window of lines found.
enum Scan {
    /// Byte range of the first window: its first line's start and the start
    /// of the line after it (`len + 1` past the last line).
    Found(usize, usize),
    Absent,
    /// Too many lines equal the window's first line: the caller runs its
    /// linear pass over the line table instead.
    GaveUp,
}

/// Candidate windows verified at most before a scan gives up.
const MAX_CANDIDATES: usize = 32;

/// The first window of `m` lines, from the first line starting at or after
/// `from`, whose first line trims to `head` and whose line `k` (for `k` in
/// `1..m`) passes `accept(k, line)`. Candidates come from a SIMD substring
/// search for `head`, so a file is read once at memory speed and no line
/// table is needed; a `head` that is empty or heads many lines gives up.
fn scan_windows(
    text: &str,
    head: &str,
    from: usize,
    m: usize,
    accept: impl Fn(usize, &str) -> bool,
) -> Scan {
    if head.is_empty() {
        return Scan::GaveUp;
    }
    if from > text.len() {
        return Scan::Absent;
    }
    let bytes = text.as_bytes();
    let finder = memmem::Finder::new(head.as_bytes());
    let (mut at, mut candidates) = (from, 0);
    while let Some(i) = finder.find(&bytes[at..]) {
        let hit = at + i;
        let start = memchr::memrchr(b'\n', &bytes[..hit]).map_or(0, |p| p + 1);
        let (line, mut next) = next_line(text, start);
        // Any other hit on this line is the same candidate.
        at = next.min(text.len());
        if start < from || js_trim(line) != head {
            continue;
        }
        candidates += 1;
        if candidates > MAX_CANDIDATES {
            return Scan::GaveUp;
        }
        let mut k = 1;
        while k < m {
            // The window runs past the last line, and so would every later one.
            if next > text.len() {
                return Scan::Absent;
            }
            let (line, after) = next_line(text, next);
            if !accept(k, line) {
                break;
            }
            next = after;
            k += 1;
        }
        if k == m {
            return Scan::Found(start, next);
        }
    }
    Scan::Absent
}

/// The line starting at `start` without its `\n`, and where the next one
/// starts (`len + 1` after the last line, as the line table counts).
fn next_line(text: &str, start: usize) -> (&str, usize) {
    match memchr::memchr(b'\n', &text.as_bytes()[start..]) {
        Some(i) => (&text[start..start + i], start + i + 1),
        None => (&text[start..], text.len() + 1),
    }
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
    fn counts_without_table_match_the_table() {
        let text = "a😀b\nü\n\nx😀\nplain line\n\u{3000}é\n".repeat(7);
        let counted = LineIndex::new(&text);
        let table = LineIndex::new(&text);
        table.line_count();
        // Offsets out of order, mid-char and past the end, each asked twice.
        let offsets: Vec<usize> = (0..=text.len() + 2)
            .rev()
            .step_by(3)
            .chain(0..=text.len() + 2)
            .collect();
        for &o in &offsets {
            assert_eq!(
                counted.newlines_before(o),
                table.line_of(o),
                "newlines before {o}"
            );
            assert_eq!(
                counted.utf16_offset(o),
                table.utf16_offset(o),
                "utf16 at {o}"
            );
            assert_eq!(
                counted.utf16_offset(o),
                super::super::js::utf16_offset(&text, o),
                "utf16 at {o}"
            );
        }
        assert!(!counted.has_line_table());
        let once = LineIndex::new(&text);
        assert_eq!(once.newlines_before(text.len()), text.matches('\n').count());
        assert_eq!(once.utf16_offset(text.len()), text.encode_utf16().count());
        assert!(!once.has_line_table());
    }

    proptest::proptest! {
        /// The substring-search scan finds the same window as the linear
        /// passes over the line table, whenever it does not give up.
        #[test]
        fn scan_finds_what_the_table_pass_finds(
            text in "([ab\\t \u{3000}é\n]|\r\n){0,60}",
            search in "([ab \u{3000}\n]){0,12}\n",
            from in 0usize..70,
        ) {
            let index = LineIndex::new(&text);
            let (lines, raw) = search_lines(&search);
            let needle: Vec<&str> = lines.iter().map(|l| js_trim(l)).collect();
            let m = needle.len();
            let want = line_trimmed_by_table(&index, &needle, from);
            let scan = scan_windows(&text, needle[0], from, m, |k, l| js_trim(l) == needle[k]);
            match scan {
                Scan::Found(s, e) => proptest::prop_assert_eq!(Some((s, e)), want),
                Scan::Absent => proptest::prop_assert_eq!(None, want),
                Scan::GaveUp => {}
            }
            proptest::prop_assert_eq!(line_trimmed(&index, &search, from).map(|m| (m.start, m.end)), want);
            if raw >= 3 {
                let (head, tail) = (needle[0], needle[m - 1]);
                let want = block_anchor_by_table(&index, head, tail, m, from);
                let got = block_anchor(&index, &search, from).map(|m| (m.start, m.end));
                proptest::prop_assert_eq!(got, want);
            }
        }
    }

    #[test]
    fn find_by_prefix_agrees_with_memmem() {
        let needle = "0123456789abcdef0123456789abcdefX";
        // Prefix hits that are not the needle, more than the tries allowed.
        let mut hay = "0123456789abcdef0123456789abcdef-".repeat(6);
        assert_eq!(find(hay.as_bytes(), needle.as_bytes()), None);
        hay.push_str(needle);
        let want = memmem::find(hay.as_bytes(), needle.as_bytes());
        assert_eq!(find(hay.as_bytes(), needle.as_bytes()), want);
        assert_eq!(find(b"short", b"or"), Some(2));
        assert_eq!(find(&hay.as_bytes()[..20], needle.as_bytes()), None);
    }

    #[test]
    fn scattered_counting_past_budget_builds_the_table() {
        let text = "x\n".repeat(100_000);
        let idx = LineIndex::new(&text);
        // Fill the marks near the start, then ask far away, farther each time.
        for o in 0..MAX_MARKS {
            idx.newlines_before(o);
        }
        let mut far = text.len();
        while !idx.has_line_table() && far > MAX_MARKS {
            assert_eq!(idx.newlines_before(far), far / 2);
            far -= 2 * MAX_MARKS;
        }
        assert!(idx.has_line_table());
        assert_eq!(idx.newlines_before(far), far / 2);
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
