//! OpenCode's nine replacers (edit.ts), in the order `replace()` tries
//! them. Each yields candidate spans, lazily, through `sink` (a `Break`
//! from it stops the replacer, as `replace()` returning from its `for ...
//! of` stops the generator). A span is text `replace()` then looks up in
//! the file: a window of whole file lines (a slice of the file), or a text
//! the replacer computed.
//!
//! The spans and their order are OpenCode's; what differs is only work
//! skipped where the result is provably the same: lines are split and
//! trimmed once for all replacers, windows are compared line by line or
//! by length before any text is built, and BlockAnchorReplacer scores only
//! candidates that could still win, with a faster edit distance.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::ControlFlow;

use super::js::{is_space, trim, utf16_len};
use super::levenshtein;

/// Where a replacer gives its spans, one at a time; a `Break` stops it.
pub type SpanSink<'s, 'a> = dyn FnMut(Cow<'a, str>) -> ControlFlow<()> + 's;

/// A replacer's name, as OpenCode's source names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// `SimpleReplacer`: the find itself (the exact stage).
    Simple,
    /// `LineTrimmedReplacer`.
    LineTrimmed,
    /// `BlockAnchorReplacer`.
    BlockAnchor,
    /// `WhitespaceNormalizedReplacer`.
    WhitespaceNormalized,
    /// `IndentationFlexibleReplacer`.
    IndentationFlexible,
    /// `EscapeNormalizedReplacer`.
    EscapeNormalized,
    /// `TrimmedBoundaryReplacer`.
    TrimmedBoundary,
    /// `ContextAwareReplacer`.
    ContextAware,
    /// `MultiOccurrenceReplacer`.
    MultiOccurrence,
}

impl Stage {
    /// `replace()`'s order.
    pub const ALL: [Stage; 9] = [
        Stage::Simple,
        Stage::LineTrimmed,
        Stage::BlockAnchor,
        Stage::WhitespaceNormalized,
        Stage::IndentationFlexible,
        Stage::EscapeNormalized,
        Stage::TrimmedBoundary,
        Stage::ContextAware,
        Stage::MultiOccurrence,
    ];

    /// OpenCode's name for it.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Simple => "SimpleReplacer",
            Stage::LineTrimmed => "LineTrimmedReplacer",
            Stage::BlockAnchor => "BlockAnchorReplacer",
            Stage::WhitespaceNormalized => "WhitespaceNormalizedReplacer",
            Stage::IndentationFlexible => "IndentationFlexibleReplacer",
            Stage::EscapeNormalized => "EscapeNormalizedReplacer",
            Stage::TrimmedBoundary => "TrimmedBoundaryReplacer",
            Stage::ContextAware => "ContextAwareReplacer",
            Stage::MultiOccurrence => "MultiOccurrenceReplacer",
        }
    }

    /// Runs this replacer on `file` for `find`, giving each span to `sink`.
    pub fn run<'a>(
        self,
        file: &FileLines<'a>,
        find: &'a str,
        sink: &mut SpanSink<'_, 'a>,
    ) -> ControlFlow<()> {
        match self {
            Stage::Simple => sink(Cow::Borrowed(find)),
            Stage::LineTrimmed => file.line_trimmed(find, sink),
            Stage::BlockAnchor => file.block_anchor(find, sink),
            Stage::WhitespaceNormalized => file.whitespace_normalized(find, sink),
            Stage::IndentationFlexible => file.indentation_flexible(find, sink),
            Stage::EscapeNormalized => file.escape_normalized(find, sink),
            Stage::TrimmedBoundary => file.trimmed_boundary(find, sink),
            Stage::ContextAware => file.context_aware(find, sink),
            Stage::MultiOccurrence => file.multi_occurrence(find, sink),
        }
    }
}

/// The file's `split("\n")`, with what several replacers derive from it
/// computed once.
pub struct FileLines<'a> {
    /// The file's text (its BOM split off).
    pub content: &'a str,
    /// `content.split("\n")`.
    pub lines: Vec<&'a str>,
    /// Byte offset of each line's start.
    starts: Vec<usize>,
    trimmed: OnceCell<Vec<&'a str>>,
}

impl<'a> FileLines<'a> {
    /// `content` split into lines.
    pub fn new(content: &'a str) -> Self {
        let lines: Vec<&str> = crate::dialect::quick::split_newlines(content);
        let mut starts = Vec::with_capacity(lines.len());
        let mut at = 0;
        for line in &lines {
            starts.push(at);
            at += line.len() + 1;
        }
        FileLines {
            content,
            lines,
            starts,
            trimmed: OnceCell::new(),
        }
    }

    /// Each line `.trim()`med.
    fn trimmed(&self) -> &[&'a str] {
        self.trimmed
            .get_or_init(|| self.lines.iter().map(|line| trim(line)).collect())
    }

    /// `lines.slice(first, first + count).join("\n")`: a slice of the file.
    fn window(&self, first: usize, count: usize) -> &'a str {
        let last = first + count - 1;
        &self.content[self.starts[first]..self.starts[last] + self.lines[last].len()]
    }

    /// The start of every window of `count` lines (none when the file has
    /// fewer lines).
    fn window_starts(&self, count: usize) -> std::ops::Range<usize> {
        0..(self.lines.len() + 1).saturating_sub(count)
    }

    /// Gives `sink` every window of `count` lines (in order) whose start
    /// `keep` accepts: the replacers' scan of the file's windows.
    fn windows_where(
        &self,
        count: usize,
        sink: &mut SpanSink<'_, 'a>,
        mut keep: impl FnMut(usize) -> bool,
    ) -> ControlFlow<()> {
        for start in self.window_starts(count) {
            if keep(start) {
                sink(Cow::Borrowed(self.window(start, count)))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// The blocks `start..=end` the two anchored replacers (BlockAnchor,
    /// ContextAware) consider: from each line whose trimmed text is `first`
    /// to the first line at least two lines on whose trimmed text is `last`
    /// (that closing anchor only).
    fn anchored_blocks(&self, first: &str, last: &str) -> impl Iterator<Item = (usize, usize)> {
        let next_last = self.next_with(last);
        self.trimmed()
            .iter()
            .enumerate()
            .filter(move |&(_, line)| *line == first)
            .filter_map(move |(start, _)| {
                Some((start, next_last.get(start + 2).copied().flatten()?))
            })
    }

    /// BlockAnchorReplacer's candidates for the find's lines `wanted` (at
    /// least 3, trimmed): blocks (0-based first and last line) whose first
    /// and last lines are the find's, about as long as it.
    fn anchor_candidates(&self, wanted: &[&str]) -> Vec<(usize, usize)> {
        let size = wanted.len();
        let leeway = (size / 4).max(1);
        self.anchored_blocks(wanted[0], wanted[size - 1])
            .filter(|&(start, end)| (end - start + 1).abs_diff(size) <= leeway)
            .collect()
    }

    /// For each line, the first line at or after it whose trimmed text is
    /// `anchor` (`None` past the last one).
    fn next_with(&self, anchor: &str) -> Vec<Option<usize>> {
        let trimmed = self.trimmed();
        let mut next = vec![None; trimmed.len() + 1];
        for i in (0..trimmed.len()).rev() {
            next[i] = if trimmed[i] == anchor {
                Some(i)
            } else {
                next[i + 1]
            };
        }
        next
    }
}

/// The blocks of `content` (1-based first and last line) that
/// BlockAnchorReplacer weighs for `find` before it scores their middle
/// lines: those whose first and last lines are the find's; none for a find
/// of fewer than 3 lines.
pub fn anchored_places(content: &str, find: &str) -> Vec<(usize, usize)> {
    let Some(wanted) = anchor_lines(find) else {
        return Vec::new();
    };
    FileLines::new(content)
        .anchor_candidates(&wanted)
        .into_iter()
        .map(|(start, end)| (start + 1, end + 1))
        .collect()
}

/// `find.split("\n")` with a trailing empty line dropped, as several
/// replacers take it.
fn find_lines(find: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = find.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

/// [`find_lines`], each `trim()`med.
fn trimmed_lines(find: &str) -> Vec<&str> {
    find_lines(find).into_iter().map(trim).collect()
}

/// The find's lines trimmed, for the replacers anchored on its first and
/// last lines: `None` when `find.split("\n")` gives fewer than three.
fn anchor_lines(find: &str) -> Option<Vec<&str>> {
    (find.split('\n').count() >= 3).then(|| trimmed_lines(find))
}

/// OpenCode's BlockAnchorReplacer thresholds (`ve`, `ps`).
const SINGLE_CANDIDATE_THRESHOLD: f64 = 0.65;
const MULTIPLE_CANDIDATES_THRESHOLD: f64 = 0.65;

/// Leeway for skipping a candidate whose best possible score is below the
/// bar: far above the rounding of a sum of a few thousand terms, far below
/// any difference two line scores can make.
const SCORE_SLACK: f64 = 1e-9;

/// The middle-line similarity of BlockAnchorReplacer's candidates.
struct MiddleScorer<'s, 'a> {
    file: &'s [&'a str],
    wanted: &'s [&'s str],
    wanted_units: Vec<OnceCell<Vec<u16>>>,
}

impl<'s, 'a> MiddleScorer<'s, 'a> {
    fn new(file: &'s [&'a str], wanted: &'s [&'s str]) -> Self {
        MiddleScorer {
            file,
            wanted,
            wanted_units: (0..wanted.len()).map(|_| OnceCell::new()).collect(),
        }
    }

    /// The line pairs OpenCode compares for the block `start..=end`: find
    /// line `k` with file line `start + k`, `k` from 1 while inside both,
    /// and the divisor `min(size - 2, block - 2)`.
    fn pairs(&self, start: usize, end: usize) -> (std::ops::Range<usize>, usize) {
        let block = end - start + 1;
        let size = self.wanted.len();
        let upto = (size - 1).min(block - 1).max(1);
        (1..upto, size.saturating_sub(2).min(block - 2))
    }

    /// `Some(1 - distance / longer)` for a pair, `None` when both are
    /// empty (OpenCode skips the pair but keeps it in the divisor).
    fn similarity(&self, start: usize, k: usize) -> Option<f64> {
        let (ours, theirs) = (self.file[start + k], self.wanted[k]);
        let longer = utf16_len(ours).max(utf16_len(theirs));
        if longer == 0 {
            return None;
        }
        if ours == theirs {
            return Some(1.0);
        }
        let theirs_units = self.wanted_units[k].get_or_init(|| theirs.encode_utf16().collect());
        let ours_units: Vec<u16> = ours.encode_utf16().collect();
        let distance = levenshtein::distance(&ours_units, theirs_units);
        Some(1.0 - distance as f64 / longer as f64)
    }

    /// An upper bound of a pair's similarity, from the lengths alone (the
    /// distance is at least their difference).
    fn similarity_bound(&self, start: usize, k: usize) -> f64 {
        let (a, b) = (utf16_len(self.file[start + k]), utf16_len(self.wanted[k]));
        let longer = a.max(b);
        if longer == 0 {
            0.0
        } else {
            1.0 - a.abs_diff(b) as f64 / longer as f64
        }
    }

    /// The single candidate's test, summed as OpenCode sums it
    /// (`h += (1 - d / len) / divisor`, stopping once at the threshold).
    fn single_reaches_threshold(&mut self, start: usize, end: usize) -> bool {
        let (pairs, divisor) = self.pairs(start, end);
        if divisor == 0 {
            return true;
        }
        let mut score = 0.0;
        for k in pairs {
            let Some(similarity) = self.similarity(start, k) else {
                continue;
            };
            score += similarity / divisor as f64;
            if score >= SINGLE_CANDIDATE_THRESHOLD {
                break;
            }
        }
        score >= SINGLE_CANDIDATE_THRESHOLD
    }

    /// A candidate's average as OpenCode computes it with several
    /// candidates (`b += 1 - d / len`, then `b /= divisor`), or `None` once
    /// it provably stays below `bar`.
    fn average_if_reaches(&mut self, start: usize, end: usize, bar: f64) -> Option<f64> {
        let (pairs, divisor) = self.pairs(start, end);
        if divisor == 0 {
            return Some(1.0);
        }
        let divisor = divisor as f64;
        let mut bound: f64 = pairs.clone().map(|k| self.similarity_bound(start, k)).sum();
        if bound / divisor < bar {
            return None;
        }
        let mut sum = 0.0;
        for k in pairs {
            let estimate = self.similarity_bound(start, k);
            if let Some(similarity) = self.similarity(start, k) {
                sum += similarity;
                bound -= estimate - similarity;
                if bound / divisor < bar {
                    return None;
                }
            }
        }
        Some(sum / divisor)
    }
}

/// JavaScript's `s.replace(/\s+/g, " ").trim()`: the words, one space apart.
fn collapse_spaces(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for word in s.split(is_space).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// The first match in `line` of the regex OpenCode builds from `words`
/// (each escaped, joined by `\s+`). Words hold no whitespace, so `\s+`
/// takes the whole run of whitespace between them.
fn words_match<'l>(line: &'l str, words: &[&str]) -> Option<&'l str> {
    let starts = line
        .char_indices()
        .map(|(i, _)| i)
        .chain(std::iter::once(line.len()));
    'start: for start in starts {
        let mut at = start;
        for (k, word) in words.iter().enumerate() {
            if k > 0 {
                let rest = &line[at..];
                let spaces = rest.len() - rest.trim_start_matches(is_space).len();
                if spaces == 0 {
                    continue 'start;
                }
                at += spaces;
            }
            if !line[at..].starts_with(word) {
                continue 'start;
            }
            at += word.len();
        }
        return Some(&line[start..at]);
    }
    None
}

/// The count of leading whitespace code points (all in the BMP, so also
/// UTF-16 units): `/^(\s*)/`'s match length.
fn indent_of(line: &str) -> usize {
    line.chars().take_while(|&c| is_space(c)).count()
}

/// `line.slice(n)` where the first `n` code points are whitespace.
fn drop_chars(line: &str, n: usize) -> &str {
    match line.char_indices().nth(n) {
        Some((at, _)) => &line[at..],
        None => "",
    }
}

/// OpenCode's IndentationFlexibleReplacer's `removeIndentation`: the least
/// indentation of the non-blank lines taken off them (blank lines kept).
fn remove_indentation<'l>(lines: &[&'l str]) -> Vec<&'l str> {
    let least = lines
        .iter()
        .filter(|l| !trim(l).is_empty())
        .map(|l| indent_of(l))
        .min();
    match least {
        None => lines.to_vec(),
        Some(least) => lines
            .iter()
            .map(|l| {
                if trim(l).is_empty() {
                    *l
                } else {
                    drop_chars(l, least)
                }
            })
            .collect(),
    }
}

/// OpenCode's `unescapeString`: `\n \t \r \' \" \` \\ \<newline> \$`
/// replaced left to right; any other backslash kept. Also says whether the
/// text ends in a backslash left alone (one a following newline would
/// take).
fn unescape(text: &str) -> (String, bool) {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut dangling = false;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let replaced = match chars.peek() {
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some(&other @ ('\'' | '"' | '`' | '\\' | '\n' | '$')) => other,
            Some(_) => {
                out.push('\\');
                continue;
            }
            None => {
                out.push('\\');
                dangling = true;
                continue;
            }
        };
        chars.next();
        out.push(replaced);
    }
    (out, dangling)
}

/// The replacers after SimpleReplacer, each on the file's lines.
impl<'a> FileLines<'a> {
    /// OpenCode's LineTrimmedReplacer: windows whose lines equal the find's
    /// after `trim()`.
    fn line_trimmed(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let wanted = trimmed_lines(find);
        if wanted.is_empty() {
            return ControlFlow::Continue(());
        }
        let trimmed = self.trimmed();
        self.windows_where(wanted.len(), sink, |start| {
            trimmed[start..start + wanted.len()] == wanted[..]
        })
    }

    /// OpenCode's BlockAnchorReplacer: blocks whose first and last lines equal
    /// the find's (trimmed), about as long, with middle lines similar enough
    /// (average `1 - levenshtein / longer length`); one block at most.
    fn block_anchor(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let Some(wanted) = anchor_lines(find) else {
            return ControlFlow::Continue(());
        };
        let candidates = self.anchor_candidates(&wanted);
        let mut scorer = MiddleScorer::new(self.trimmed(), &wanted);
        let chosen = match candidates[..] {
            [] => return ControlFlow::Continue(()),
            [(start, end)] => scorer
                .single_reaches_threshold(start, end)
                .then_some((start, end)),
            _ => {
                let mut best: Option<(usize, usize)> = None;
                let mut best_score = -1.0;
                for &(start, end) in &candidates {
                    // A candidate matters only if it can beat the best so far
                    // (strictly) and reach the threshold.
                    let bar = f64::max(best_score, MULTIPLE_CANDIDATES_THRESHOLD) - SCORE_SLACK;
                    if let Some(score) = scorer.average_if_reaches(start, end, bar)
                        && score > best_score
                    {
                        best_score = score;
                        best = Some((start, end));
                    }
                }
                best.filter(|_| best_score >= MULTIPLE_CANDIDATES_THRESHOLD)
            }
        };
        match chosen {
            Some((start, end)) => sink(Cow::Borrowed(self.window(start, end - start + 1))),
            None => ControlFlow::Continue(()),
        }
    }

    /// OpenCode's WhitespaceNormalizedReplacer: a line equal to the find with
    /// whitespace runs collapsed (the whole line), or the part of a line the
    /// find's words match; then windows of the find's line count equal once
    /// collapsed.
    fn whitespace_normalized(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let wanted = collapse_spaces(find);
        let collapsed: Vec<String> = self.lines.iter().map(|l| collapse_spaces(l)).collect();
        let trimmed_find = trim(find);
        let words: Vec<&str> = if trimmed_find.is_empty() {
            vec![""]
        } else {
            trimmed_find
                .split(is_space)
                .filter(|w| !w.is_empty())
                .collect()
        };
        for (line, normal) in self.lines.iter().zip(&collapsed) {
            if *normal == wanted {
                sink(Cow::Borrowed(line))?;
            } else if normal.contains(wanted.as_str())
                && let Some(found) = words_match(line, &words)
            {
                sink(Cow::Borrowed(found))?;
            }
        }
        let count = find.split('\n').count();
        if count == 1 {
            return ControlFlow::Continue(());
        }
        // The collapsed window is its collapsed non-empty lines joined by one
        // space: compare lengths before building it.
        self.windows_where(count, sink, |start| {
            let parts = collapsed[start..start + count]
                .iter()
                .filter(|c| !c.is_empty());
            let (total, pieces) = parts
                .clone()
                .fold((0, 0), |(total, n), c| (total + c.len(), n + 1));
            let joined_len = total + pieces.max(1) - 1;
            joined_len == wanted.len()
                && parts.map(String::as_str).collect::<Vec<_>>().join(" ") == wanted
        })
    }

    /// OpenCode's IndentationFlexibleReplacer: windows of the find's line
    /// count equal to it once both lose their common indentation.
    fn indentation_flexible(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let find_split: Vec<&str> = find.split('\n').collect();
        let wanted = remove_indentation(&find_split);
        let count = find_split.len();
        let blank: Vec<bool> = self.trimmed().iter().map(|t| t.is_empty()).collect();
        let indents: Vec<usize> = self.lines.iter().map(|l| indent_of(l)).collect();
        self.windows_where(count, sink, |start| {
            let range = start..start + count;
            let least = range
                .clone()
                .filter(|&i| !blank[i])
                .map(|i| indents[i])
                .min();
            range.zip(&wanted).all(|(i, want)| match least {
                Some(least) if !blank[i] => drop_chars(self.lines[i], least) == *want,
                _ => self.lines[i] == *want,
            })
        })
    }

    /// OpenCode's EscapeNormalizedReplacer: the find unescaped if the file
    /// holds it, then windows (of the unescaped find's line count) whose
    /// unescaped text equals it.
    fn escape_normalized(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let (wanted, _) = unescape(find);
        if memchr::memmem::find(self.content.as_bytes(), wanted.as_bytes()).is_some() {
            sink(Cow::Owned(wanted.clone()))?;
        }
        let count = wanted.split('\n').count();
        // A window's unescaped text is its lines unescaped, joined by "\n",
        // where a line's dangling backslash before that "\n" is taken with it.
        let per_line: Vec<(Cow<str>, bool)> = self
            .lines
            .iter()
            .map(|l| {
                if l.contains('\\') {
                    let (text, dangling) = unescape(l);
                    (Cow::Owned(text), dangling)
                } else {
                    (Cow::Borrowed(*l), false)
                }
            })
            .collect();
        let inner_len = |i: usize| per_line[i].0.len() - usize::from(per_line[i].1);
        self.windows_where(count, sink, |start| {
            let last = start + count - 1;
            let length: usize =
                (start..last).map(inner_len).sum::<usize>() + per_line[last].0.len() + count - 1;
            if length != wanted.len() {
                return false;
            }
            let mut joined = String::with_capacity(length);
            for (i, (text, _)) in per_line.iter().enumerate().take(last).skip(start) {
                joined.push_str(&text[..inner_len(i)]);
                joined.push('\n');
            }
            joined.push_str(&per_line[last].0);
            joined == wanted
        })
    }

    /// OpenCode's TrimmedBoundaryReplacer (only for a find with surrounding
    /// whitespace): the trimmed find if the file holds it, then windows of the
    /// find's line count whose `trim()` equals it.
    fn trimmed_boundary(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let wanted = trim(find);
        if wanted.len() == find.len() {
            return ControlFlow::Continue(());
        }
        if memchr::memmem::find(self.content.as_bytes(), wanted.as_bytes()).is_some() {
            sink(Cow::Borrowed(wanted))?;
        }
        let count = find.split('\n').count();
        self.windows_where(count, sink, |start| {
            trim(self.window(start, count)) == wanted
        })
    }

    /// OpenCode's ContextAwareReplacer: first and last lines as anchors (the
    /// first closing anchor only), the same line count, and at least half of
    /// the non-empty middle line pairs equal after `trim()`.
    fn context_aware(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        let Some(wanted) = anchor_lines(find) else {
            return ControlFlow::Continue(());
        };
        let size = wanted.len();
        let trimmed = self.trimmed();
        for (start, end) in self.anchored_blocks(wanted[0], wanted[size - 1]) {
            if end - start + 1 != size {
                continue;
            }
            let (mut compared, mut equal) = (0usize, 0usize);
            for k in 1..size - 1 {
                let (ours, theirs) = (trimmed[start + k], wanted[k]);
                if !ours.is_empty() || !theirs.is_empty() {
                    compared += 1;
                    equal += usize::from(ours == theirs);
                }
            }
            // `equal / compared >= 0.5`, exactly, in integers.
            if compared == 0 || 2 * equal >= compared {
                sink(Cow::Borrowed(self.window(start, size)))?;
            }
        }
        ControlFlow::Continue(())
    }

    /// OpenCode's MultiOccurrenceReplacer: the find once per exact occurrence.
    fn multi_occurrence(&self, find: &'a str, sink: &mut SpanSink<'_, 'a>) -> ControlFlow<()> {
        if find.is_empty() {
            return ControlFlow::Continue(());
        }
        for _ in self.content.match_indices(find) {
            sink(Cow::Borrowed(find))?;
        }
        ControlFlow::Continue(())
    }
}
