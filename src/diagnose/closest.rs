//! Finding the region of the file a SEARCH text was meant to match.
//!
//! Candidates come from cheap evidence only: whole-line hashes after every
//! normalisation (each hit votes for the window start it implies, weighted by
//! how rare the line is), and, when too few lines hit, character trigrams
//! for the best-looking lines. Only the few best windows are then scored by
//! real diffs, so a 100k-line file costs one linear pass.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::time::Duration;

use std::time::Instant;

use crate::textdiff::{self, TokenDiff};

use super::normalize::{is_zero_width, loose_hash, plain_char, unescape_entities};
use crate::engine::js::is_js_whitespace;
use crate::engine::matcher::LineIndex;

/// The file's lines as the diagnosis counts them, read through the engine's
/// line index of the original, so no per-line table is built twice.
pub struct FileIndex<'a> {
    index: &'a LineIndex<'a>,
    /// The empty element after a final newline is not a line of the file,
    /// though the engine's index (splitting as JavaScript does) counts it.
    count: usize,
    /// Scanned on first need, then shared by every block's suggestion.
    crlf: OnceCell<bool>,
}

impl<'a> FileIndex<'a> {
    /// Counts the lines of the original `index` indexes (without the empty element after a final
    /// newline).
    pub fn new(index: &'a LineIndex<'a>) -> Self {
        let all = index.line_count();
        let count = if all > 1 && index.line(all - 1).is_empty() {
            all - 1
        } else {
            all
        };
        FileIndex {
            index,
            count,
            crlf: OnceCell::new(),
        }
    }

    /// The whole original.
    pub fn text(&self) -> &'a str {
        self.index.text()
    }

    /// Number of lines (at least 1: an empty file has one empty line).
    pub fn line_count(&self) -> usize {
        self.count
    }

    /// Line `i` (0-based) without its `\n`.
    pub fn line(&self, i: usize) -> &'a str {
        // The engine's index would hand out the empty element after a final
        // newline without complaint; that is a caller's off-by-one here.
        debug_assert!(i < self.count, "line {i} of {}", self.count);
        self.index.line(i)
    }

    /// Line `i`, or `None` past the last line (an offset can map to the
    /// empty element after a final newline).
    pub fn get(&self, i: usize) -> Option<&'a str> {
        (i < self.count).then(|| self.index.line(i))
    }

    /// Lines `start..end`, for the comparisons that want a slice.
    pub fn lines(&self, start: usize, end: usize) -> Vec<&'a str> {
        (start..end).map(|i| self.line(i)).collect()
    }

    /// Lines `start..end` joined with `\n`: they are contiguous in the
    /// original, so this borrows instead of joining.
    pub fn joined(&self, start: usize, end: usize) -> &'a str {
        if start >= end {
            return "";
        }
        debug_assert!(end <= self.count, "line {end} of {}", self.count);
        &self.text()[self.index.line_start(start)..self.index.line_start(end) - 1]
    }

    /// Whether the file has any CRLF line ending.
    pub fn is_crlf(&self) -> bool {
        *self.crlf.get_or_init(|| self.text().contains("\r\n"))
    }

    /// Keys are hashed as they are read, never held for the whole file:
    /// a table of them cost 4 bytes a line at the previewer's peak.
    fn key(&self, i: usize) -> u32 {
        line_key(self.index.line(i))
    }
}

/// [`loose_hash`] folded to 32 bits: a chance collision only adds one weak
/// vote that the diff scoring then weighs.
fn line_key(line: &str) -> u32 {
    let h = loose_hash(line);
    (h ^ (h >> 32)) as u32
}

/// A window of the file: 0-based lines `start..end`, and how similar it is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Region {
    pub start: usize,
    pub end: usize,
    pub similarity: f64,
    /// A first or last SEARCH line has no counterpart in the region (a
    /// line the file never had, or one rewritten beyond recognition): the
    /// lines are right, but whether the block meant more of the file
    /// around them cannot be told, so nothing may be suggested.
    pub open_edge: bool,
}

impl Region {
    /// A region known to be exactly the block's lines.
    pub fn exact(start: usize, end: usize, similarity: f64) -> Self {
        Region {
            start,
            end,
            similarity,
            open_edge: false,
        }
    }
}

/// Below this character-level similarity no region is offered: no
/// `closest`, no suggestion, no jump target. At 0.6 a SEARCH text and a
/// region share well over half their characters in order; an unrelated
/// paragraph scores 0.3-0.4 against a code file, and a distinctive line
/// lost among common ones (`}`, `return;`) scores below 0.5 at the wrong
/// place. Aider stops at the same value. See docs/diagnose.md.
pub const MIN_SIMILARITY: f64 = 0.6;
/// Two regions whose similarities are closer than this are a tie: neither
/// is offered, since picking one would be a guess.
pub const TIE_MARGIN: f64 = 0.01;
const CANDIDATES: usize = 8;
const TRIGRAM_LINES: usize = 16;
const SLACK: isize = 3;
/// At most this many hit lines are kept between the two counts of
/// [`closest`] (24 bytes each: about 100 KB at most).
const HITS_KEPT: usize = 4096;

/// What the region search found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Found {
    /// One region, clearly the most similar.
    Region(Region),
    /// Two regions (or more) about equally similar: `best` and the other.
    Tie(Region, Region),
    /// Every SEARCH line occurs several times in the file (or is too short
    /// to look for): no single place can be told from them.
    Vague,
    /// Nothing at or above [`MIN_SIMILARITY`].
    Nothing,
}

/// The window of `file` closest to `search`, if anything is similar enough
/// and one window stands out.
pub fn closest(file: &FileIndex, search: &[&str]) -> Found {
    closest_keeping(file, search, HITS_KEPT)
}

/// [`closest`], with at most `hits_kept` hit lines kept between its two
/// counts (the result does not depend on it).
fn closest_keeping(file: &FileIndex, search: &[&str], hits_kept: usize) -> Found {
    let blank = line_key("");
    let wanted: Vec<(usize, u32)> = search
        .iter()
        .enumerate()
        .flat_map(|(j, l)| [(j, line_key(l)), (j, line_key(&unescape_entities(l)))])
        .filter(|&(_, k)| k != blank)
        .collect();
    if wanted.is_empty() || file.line_count() == 0 {
        return Found::Nothing;
    }
    let mut by_key: HashMap<u32, Vec<usize>> = HashMap::new();
    for &(j, k) in &wanted {
        let js = by_key.entry(k).or_default();
        if !js.contains(&j) {
            js.push(j);
        }
    }
    // The lines that hit, in order, with the SEARCH lines they hit, kept
    // for the votes below so that each line is hashed once; up to
    // `HITS_KEPT` of them: past that (a common line, a lone brace, hits
    // thousands of times) the votes hash the file's lines again rather
    // than hold a list as long as the file.
    let mut freq = vec![0usize; search.len()];
    let mut hits: Option<Vec<(usize, &[usize])>> = Some(Vec::new());
    for i in 0..file.line_count() {
        let Some(js) = by_key.get(&file.key(i)) else {
            continue;
        };
        for &j in js {
            freq[j] += 1;
        }
        if let Some(list) = &mut hits {
            if list.len() < hits_kept {
                list.push((i, js.as_slice()));
            } else {
                hits = None;
            }
        }
    }
    // A line points at one place when it occurs once, or when it occurs
    // nowhere (damaged) and is long enough to be found by its trigrams.
    let distinctive = search
        .iter()
        .zip(&freq)
        .any(|(l, &f)| f == 1 || (f == 0 && trigram_set(l).len() > 1));
    if !distinctive {
        return Found::Vague;
    }
    let mut votes: HashMap<isize, f64> = HashMap::new();
    let mut vote = |i: usize, js: &[usize]| {
        for &j in js {
            *votes.entry(i as isize - j as isize).or_default() += 1.0 / freq[j] as f64;
        }
    };
    match &hits {
        Some(hits) => hits.iter().for_each(|&(i, js)| vote(i, js)),
        None => {
            for i in 0..file.line_count() {
                vote(i, by_key.get(&file.key(i)).map_or(&[][..], Vec::as_slice));
            }
        }
    }
    // Every line that hits nowhere is looked for by its trigrams, whatever
    // share of the other lines hit: when those are common lines (`}`,
    // `return;`), their hits say nothing about where the block goes, and
    // the damaged line is the one that does.
    let (offsets, missing): (Vec<usize>, Vec<&str>) = search
        .iter()
        .zip(&freq)
        .enumerate()
        .filter(|&(_, (l, &f))| f == 0 && line_key(l) != blank)
        .map(|(j, (l, _))| (j, *l))
        .unzip();
    if !missing.is_empty() {
        trigram_votes(file, &missing, &offsets, &mut votes);
    }
    let mut starts: Vec<(isize, f64)> = votes.into_iter().collect();
    starts.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    // More places than are looked at share the top vote (the block's
    // lines are common ones, its damaged line too short for trigrams):
    // which of them are looked at would be the file's order, not the
    // block's, and the right place may be among those left out.
    let places_left_out = starts
        .get(CANDIDATES)
        .is_some_and(|left_out| left_out.1 >= starts[0].1 - 1e-9);
    starts.truncate(CANDIDATES);
    // Entities unescaped: a file that really holds `&lt;` is rarer than a
    // model that escaped `<`.
    let unescaped: Vec<String> = search.iter().map(|l| unescape_entities(l)).collect();
    let search_keys: Vec<u32> = unescaped.iter().map(|l| line_key(l)).collect();
    let search_grams = trigram_set(&unescaped.join("\n"));
    let n = file.line_count() as isize;
    // Keys of every window around one candidate: `keys[0]` is line `from`;
    // `grams`: its windows' trigrams.
    let score = |s: isize, len: isize, from: usize, keys: &[u32], grams: &mut WindowGrams| -> f64 {
        let (a, b) = (s.clamp(0, n), (s + len).clamp(0, n));
        if a >= b {
            return -1.0;
        }
        let (a, b) = (a as usize, b as usize);
        let ops = textdiff::ops(&search_keys, &keys[a - from..b - from], None);
        let same: usize = ops
            .iter()
            .filter(|op| matches!(op, similar::DiffOp::Equal { .. }))
            .map(|op| op.old_range().len())
            .sum();
        // Matched lines over the longer side: dropping a damaged line from
        // the window must not look like an improvement.
        let lines = same as f64 / search_keys.len().max(b - a) as f64;
        // How much of the SEARCH text the window holds: a file line the
        // SEARCH text lost must not outweigh a SEARCH line the window lost.
        let grams = grams.containment(a, b);
        0.5 * lines + 0.5 * grams
    };
    let m = search.len() as isize;
    // The best window around each candidate start.
    let mut windows: Vec<(usize, usize, f64)> = Vec::with_capacity(starts.len());
    for &(s, _) in &starts {
        let from = (s - SLACK).clamp(0, n) as usize;
        let to = (s + m + 2 * SLACK).clamp(0, n) as usize;
        let keys: Vec<u32> = (from..to).map(|i| file.key(i)).collect();
        let mut grams = WindowGrams::new(file, &search_grams, from, to);
        let mut best: Option<(isize, isize, f64)> = None;
        for ds in -SLACK..=SLACK {
            for dl in -SLACK..=SLACK {
                let (start, len) = (s + ds, m + dl);
                if len < 1 {
                    continue;
                }
                // Prefer the unshifted window on ties: shifts must win outright.
                let sc = score(start, len, from, &keys, &mut grams)
                    - 1e-6 * (ds.abs() + dl.abs()) as f64;
                if best.is_none_or(|(_, _, b)| sc > b) {
                    best = Some((start, len, sc));
                }
            }
        }
        if let Some((s, len, sc)) = best {
            let (a, b) = (s.clamp(0, n) as usize, (s + len).clamp(0, n) as usize);
            if a < b {
                windows.push((a, b, sc));
            }
        }
        // The candidate's own window too: the best one may have drifted
        // towards a more alike place within the slack (a one-line SEARCH
        // text near a similar line), and that place's rival must still be
        // seen for the tie rule.
        let (a, b) = (s.clamp(0, n) as usize, (s + m).clamp(0, n) as usize);
        if a < b && best.is_some_and(|(bs, bl, _)| (bs, bl) != (s, m)) {
            windows.push((a, b, score(s, m, from, &keys, &mut grams) - 1e-3));
        }
    }
    windows.sort_by(|x, y| y.2.total_cmp(&x.2).then(x.0.cmp(&y.0)));
    let joined = search.join("\n");
    // The window cut to its aligned lines; the character similarity (the
    // costly part) only for the regions kept.
    let similarity = |a: usize, b: usize| text_similarity(&joined, file.joined(a, b));
    // The window scored best by lines and trigrams is the region; the
    // character similarity decides whether it is similar enough, and
    // whether another window that does not overlap it is as similar (a
    // tie: then neither is offered). Characters alone would prefer a
    // window that leaves out a line the SEARCH text lost.
    // Overlap is judged on the regions as cut, not on the windows: a
    // window grown by the slack reaches into a neighbouring line's region
    // (two one-line regions a few lines apart, or adjacent) and would hide
    // a rival that is really another place.
    // Windows that score exactly alike (the SEARCH text's lines are all
    // common, its damaged line too short for trigrams) are all kept, and
    // the most similar of them is the region: the order of equal scores
    // says nothing about which place is the right one.
    let top = windows.first().map_or(0.0, |w| w.2);
    let tied = |score: f64| score >= top - 1e-9;
    let mut kept: Vec<Region> = Vec::with_capacity(4);
    let mut seen: Vec<(usize, usize)> = Vec::with_capacity(windows.len());
    // How many of `kept` (its first ones) come of windows tied at the top.
    let mut top_scored = 0;
    for &(a, b, score) in &windows {
        if kept.len() >= 4 && !tied(score) {
            break;
        }
        // The same window twice (a candidate's own window may be another's
        // best) cuts to the same region.
        if seen.contains(&(a, b)) {
            continue;
        }
        seen.push((a, b));
        let (start, end, open_edge) = trim_unpaired(file, search, a, b);
        if kept.iter().all(|k| end <= k.start || start >= k.end) {
            kept.push(Region {
                start,
                end,
                similarity: similarity(start, end),
                open_edge,
            });
            top_scored += usize::from(tied(score));
        }
    }
    let most_similar = kept[..top_scored]
        .iter()
        .enumerate()
        .max_by(|(_, x), (_, y)| {
            x.similarity
                .total_cmp(&y.similarity)
                .then(y.start.cmp(&x.start))
        })
        .map(|(i, _)| i);
    if let Some(i) = most_similar {
        kept[..=i].rotate_right(1);
    }
    let Some((&best, others)) = kept.split_first() else {
        return Found::Nothing;
    };
    if best.similarity < MIN_SIMILARITY {
        return Found::Nothing;
    }
    if places_left_out {
        return Found::Vague;
    }
    let rival = others
        .iter()
        .filter(|r| r.similarity >= MIN_SIMILARITY)
        .max_by(|x, y| {
            x.similarity
                .total_cmp(&y.similarity)
                .then(y.start.cmp(&x.start))
        });
    match rival {
        Some(&r) if r.similarity > best.similarity - TIE_MARGIN => Found::Tie(best, r),
        _ => Found::Region(best),
    }
}

/// The share of a SEARCH text's trigrams each window of the file's lines
/// `from..to` holds ([`containment`] of the window's [`trigram_set`]), the
/// windows starting at one line counted together: a window's characters
/// are those of the window one line shorter followed by its last line's,
/// so its trigrams are that window's and the ones the last line adds.
struct WindowGrams<'f, 'a> {
    file: &'f FileIndex<'a>,
    /// The SEARCH text's trigrams, sorted.
    search: &'f [u32],
    from: usize,
    to: usize,
    /// By start line (from `from`): the containment of each window from
    /// it, by end line (from the start's next).
    by_start: Vec<Option<Vec<f64>>>,
}

impl<'f, 'a> WindowGrams<'f, 'a> {
    fn new(file: &'f FileIndex<'a>, search: &'f [u32], from: usize, to: usize) -> Self {
        WindowGrams {
            file,
            search,
            from,
            to,
            by_start: vec![None; to.saturating_sub(from)],
        }
    }

    /// `containment(search, &trigram_set(file.joined(a, b)))`, for
    /// `from <= a < b <= to`.
    fn containment(&mut self, a: usize, b: usize) -> f64 {
        if a < self.from || b > self.to || a >= b {
            return containment(self.search, &trigram_set(self.file.joined(a, b)));
        }
        let (file, search, to) = (self.file, self.search, self.to);
        let shares = self.by_start[a - self.from]
            .get_or_insert_with(|| containments_from(file, a, to, search));
        shares[b - a - 1]
    }
}

/// For each window of `file`'s lines `a..b` (`b` from `a + 1` to `to`):
/// the share of `search` (sorted trigrams) in the window's trigram set, as
/// [`containment`] of its [`trigram_set`] counts it.
fn containments_from(file: &FileIndex, a: usize, to: usize, search: &[u32]) -> Vec<f64> {
    if search.is_empty() {
        return vec![1.0; to - a];
    }
    let mut shares = Vec::with_capacity(to - a);
    let mut hit = vec![false; search.len()];
    let mut common = 0usize;
    // The window's characters as `trigram_set` strings them: each line
    // squeezed, then a line break.
    let mut chars: Vec<char> = Vec::new();
    let mut buf = Vec::new();
    for i in a..to {
        let old = chars.len();
        squeeze_into(file.line(i), &mut buf);
        chars.extend_from_slice(&buf);
        chars.push('\n');
        for end in old.max(2)..chars.len() {
            let g = gram(chars[end - 2], chars[end - 1], chars[end]);
            if let Ok(k) = search.binary_search(&g)
                && !hit[k]
            {
                hit[k] = true;
                common += 1;
            }
        }
        shares.push(common as f64 / search.len() as f64);
    }
    shares
}

/// Whether two lines are the same line, damaged: equal once normalised, or
/// as similar, by characters (white space at the ends aside), as a region
/// must be to be offered. Lines too short for trigrams (`}`) pair only when
/// equal.
pub fn paired(a: &str, b: &str) -> bool {
    if line_key(a) == line_key(b) || line_key(&unescape_entities(a)) == line_key(b) {
        return true;
    }
    let (x, y) = (trigram_set(a), trigram_set(b));
    x.len() > 1
        && y.len() > 1
        && (dice(&x, &y) >= 0.5 || text_similarity(a.trim(), b.trim()) >= MIN_SIMILARITY)
}

/// Pairs SEARCH lines with window lines, in order: equal once normalised
/// (white space, case, look-alikes, entities), or, among the lines between
/// such pairs, damaged copies by [`paired`]. `(search index, window index)`.
pub fn align(search: &[&str], window: &[&str]) -> Vec<(usize, usize)> {
    let key = |l: &str| line_key(&unescape_entities(l));
    let sk: Vec<u32> = search.iter().map(|l| key(l)).collect();
    let wk: Vec<u32> = window.iter().map(|l| key(l)).collect();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for op in textdiff::ops(&sk, &wk, None) {
        let (old, new) = (op.old_range(), op.new_range());
        if matches!(op, similar::DiffOp::Equal { .. }) {
            pairs.extend(old.zip(new));
            continue;
        }
        // Damaged lines: each SEARCH line takes the next window line it
        // resembles, in order.
        let mut next = new.start;
        for i in old {
            if let Some(j) = (next..new.end).find(|&j| paired(search[i], window[j])) {
                pairs.push((i, j));
                next = j + 1;
            }
        }
    }
    pairs
}

/// The window `a..b` cut to the lines between its first and last line
/// aligned with a SEARCH line ([`align`]), and whether the first or last
/// SEARCH line is left without a counterpart.
fn trim_unpaired(file: &FileIndex, search: &[&str], a: usize, b: usize) -> (usize, usize, bool) {
    let window: Vec<&str> = (a..b).map(|i| file.line(i)).collect();
    let pairs = align(search, &window);
    match (pairs.first(), pairs.last()) {
        (Some(&(i0, j0)), Some(&(i1, j1))) => (a + j0, a + j1 + 1, i0 > 0 || i1 + 1 < search.len()),
        _ => (a, b, true),
    }
}

/// Character-level similarity in [0, 1], carriage returns ignored.
pub fn text_similarity(a: &str, b: &str) -> f64 {
    let a = a.replace('\r', "");
    let b = b.replace('\r', "");
    if a == b {
        return 1.0;
    }
    let diff = TokenDiff::chars(a.as_str(), b.as_str(), char_diff_deadline(&a, &b));
    f64::from(diff.ratio()).clamp(0.0, 1.0)
}

/// Texts up to this many bytes together are diffed character by character
/// without a deadline: Myers on them is quick even in a debug build, and a
/// wall-clock deadline made the similarity, and so the closest region,
/// depend on the machine's load (with a real agent CLI running beside it,
/// `srview gate` judged the same Claude Code edit once a repair and once a
/// deny; tests/gate_e2e/).
const CHAR_DIFF_EXACT_UP_TO: usize = 2_000;

/// The deadline of a character diff of `a` and `b`: none for short texts
/// (the result is then the same on any machine), 20 ms for longer ones.
pub fn char_diff_deadline(a: &str, b: &str) -> Option<Instant> {
    (a.len() + b.len() > CHAR_DIFF_EXACT_UP_TO).then(|| Instant::now() + Duration::from_millis(20))
}

/// For SEARCH lines that hit nothing by hash: the file lines sharing most
/// trigrams with them vote for the window their best SEARCH line implies.
/// `lines[k]` is SEARCH line `offsets[k]`.
fn trigram_votes(
    file: &FileIndex,
    lines: &[&str],
    offsets: &[usize],
    votes: &mut HashMap<isize, f64>,
) {
    let mut bits = vec![0u64; 1 << 10];
    let search_sets: Vec<Vec<u32>> = lines.iter().map(|l| trigram_set(l)).collect();
    let total: usize = search_sets.iter().map(Vec::len).sum();
    if total == 0 {
        return;
    }
    for g in search_sets.iter().flatten() {
        bits[(*g as usize >> 6) & 0x3ff] |= 1 << (g & 63);
    }
    // The best lines so far, best first: a bounded list instead of every
    // line that qualifies (thousands on repetitive code).
    let mut scored: Vec<(f64, usize)> = Vec::with_capacity(TRIGRAM_LINES + 1);
    let better = |a: &(f64, usize), b: &(f64, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    let mut buf = Vec::new();
    for i in 0..file.line_count() {
        squeeze_into(file.line(i), &mut buf);
        if buf.len() < 3 {
            continue;
        }
        let grams = buf.windows(3).map(|w| gram(w[0], w[1], w[2]));
        let count = buf.len() - 2;
        let hit = grams
            .filter(|g| bits[(*g as usize >> 6) & 0x3ff] & (1 << (g & 63)) != 0)
            .count();
        let score = hit as f64 / count.min(total).max(1) as f64;
        // Short lines have few trigrams: one typo costs up to three of them,
        // so a third shared is already a real candidate.
        if score >= 0.3 {
            let at = scored.partition_point(|s| better(s, &(score, i)).is_lt());
            if at < TRIGRAM_LINES {
                scored.insert(at, (score, i));
                scored.truncate(TRIGRAM_LINES);
            }
        }
    }
    for &(score, i) in &scored {
        let line_set = trigram_set(file.line(i));
        let best = search_sets
            .iter()
            .enumerate()
            .map(|(k, s)| (dice(s, &line_set), k))
            .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        if let Some((d, k)) = best {
            *votes.entry(i as isize - offsets[k] as isize).or_default() += score * d;
        }
    }
}

/// Lower-case plain characters without white space, into `buf`.
fn squeeze_into(line: &str, buf: &mut Vec<char>) {
    buf.clear();
    if line.is_ascii() {
        // Fast path for the common case: no look-alikes, no case tables.
        buf.extend(
            line.bytes()
                .filter(|b| !b.is_ascii_whitespace() && *b != 0x0b)
                .map(|b| char::from(b.to_ascii_lowercase())),
        );
        return;
    }
    for c in line.chars().filter_map(plain_char) {
        if !is_js_whitespace(c) && !is_zero_width(c) {
            buf.extend(c.to_lowercase());
        }
    }
}

fn gram(a: char, b: char, c: char) -> u32 {
    (a as u32)
        .wrapping_mul(0x9E37_79B1)
        .rotate_left(11)
        .wrapping_add((b as u32).wrapping_mul(0x85EB_CA6B))
        .rotate_left(7)
        .wrapping_add((c as u32).wrapping_mul(0xC2B2_AE35))
}

/// Sorted, deduplicated trigram hashes of the normalised text (line breaks kept).
fn trigram_set(text: &str) -> Vec<u32> {
    let mut chars = Vec::new();
    let mut buf = Vec::new();
    for line in text.split('\n') {
        squeeze_into(line, &mut buf);
        chars.extend_from_slice(&buf);
        chars.push('\n');
    }
    let mut grams: Vec<u32> = chars.windows(3).map(|w| gram(w[0], w[1], w[2])).collect();
    grams.sort_unstable();
    grams.dedup();
    grams
}

/// Share of the sorted set `a` that is in the sorted set `b`.
fn containment(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() {
        return 1.0;
    }
    let common = a.iter().filter(|g| b.binary_search(g).is_ok()).count();
    common as f64 / a.len() as f64
}

/// Dice coefficient of two sorted sets.
fn dice(a: &[u32], b: &[u32]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let (mut i, mut j, mut common) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                common += 1;
                i += 1;
                j += 1;
            }
        }
    }
    2.0 * common as f64 / (a.len() + b.len()) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A short character diff has no deadline, so its similarity is the
    /// same however busy the machine is; a long one keeps its bound.
    #[test]
    fn short_character_diffs_have_no_deadline() {
        let line = "    label = \"low\" if item.qty < LOW_STOCK else \"ok\"";
        assert_eq!(
            char_diff_deadline(line, &line.replace('"', "\u{201c}")),
            None
        );
        let long = "x".repeat(CHAR_DIFF_EXACT_UP_TO);
        assert!(char_diff_deadline(&long, "y").is_some());
    }

    /// The lines the diagnosis used to collect itself: `split('\n')`, the
    /// empty element after a final newline dropped.
    #[test]
    fn lines_match_split_without_final_empty() {
        for text in [
            "",
            "\n",
            "\n\n",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\na\n\n",
        ] {
            let mut want: Vec<&str> = text.split('\n').collect();
            if want.len() > 1 && want.last() == Some(&"") {
                want.pop();
            }
            let index = LineIndex::new(text);
            let file = FileIndex::new(&index);
            assert_eq!(file.lines(0, file.line_count()), want, "{text:?}");
            assert_eq!(file.get(want.len()), None, "{text:?}");
            for a in 0..=want.len() {
                for b in a..=want.len() {
                    assert_eq!(file.joined(a, b), want[a..b].join("\n"), "{text:?}");
                }
            }
        }
    }

    #[test]
    fn a_long_list_of_hits_is_not_kept_and_the_result_is_the_same() {
        // 6,000 lone braces hit a SEARCH text's brace line: more than
        // `HITS_KEPT`, so the votes hash the file again.
        let text: String = (0..3000)
            .map(|i| format!("  if x == {i} {{\n}}\n"))
            .collect();
        let index = LineIndex::new(&text);
        let file = FileIndex::new(&index);
        let search = ["if x == 1234 {", "  y();", "}"];
        let kept = closest_keeping(&file, &search, usize::MAX);
        assert_eq!(closest(&file, &search), kept);
        let Found::Region(r) = kept else {
            panic!("no region: {kept:?}")
        };
        assert_eq!((r.start, r.end), (2468, 2470));
    }

    proptest::proptest! {
        #[test]
        fn the_hits_kept_do_not_change_the_result(
            text in "([ ]{0,2}[abc}]{0,3}\n){1,30}",
            search in proptest::collection::vec("[ ]{0,2}[abc}x]{0,3}", 1..4),
        ) {
            let index = LineIndex::new(&text);
            let file = FileIndex::new(&index);
            let search: Vec<&str> = search.iter().map(String::as_str).collect();
            let kept = closest_keeping(&file, &search, usize::MAX);
            proptest::prop_assert_eq!(closest_keeping(&file, &search, 0), kept);
            proptest::prop_assert_eq!(closest_keeping(&file, &search, 2), kept);
        }
    }

    /// The start and end of the one region [`closest`] finds for
    /// `search` in `text`.
    fn region_of(text: &str, search: &[&str]) -> (usize, usize) {
        let index = LineIndex::new(text);
        let found = closest(&FileIndex::new(&index), search);
        let Found::Region(r) = found else {
            panic!("no region: {found:?}")
        };
        (r.start, r.end)
    }

    #[test]
    fn finds_reindented_block() {
        let text: String = (0..200).map(|i| format!("    line number {i}\n")).collect();
        let search = ["line number 120", "line number 121"];
        assert_eq!(region_of(&text, &search), (120, 122));
    }

    /// Windows around a SEARCH text of common lines and a damaged line too
    /// short for trigrams score alike: the region is the most similar of
    /// them, not the first in the file; when more places share the top
    /// vote than are looked at, no place is offered.
    #[test]
    fn windows_scored_alike_are_told_apart_by_characters() {
        let text = "}\nreturn;\n    }\nx\n}\nend\n    }\ny\n";
        assert_eq!(region_of(text, &["enq", "    }"]), (5, 7));

        let mut lines = vec!["}"; 29];
        for i in [1, 2, 3, 6] {
            lines[i] = "return;";
        }
        lines[4] = "    }";
        lines[21] = ")";
        lines[25] = "end";
        lines[26] = "    }";
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        let index = LineIndex::new(&text);
        let file = FileIndex::new(&index);
        assert_eq!(closest(&file, &["enq", "    }"]), Found::Vague);
    }

    #[test]
    fn window_trigrams_counted_line_by_line_are_the_windows_sets() {
        let text = "fn a() {\n  let x = 1;\n}\n\n;\nab\n  return x +\u{00e9}y;\nx\n\r\nend\n";
        let index = LineIndex::new(text);
        let file = FileIndex::new(&index);
        let n = file.line_count();
        for search in ["let x = 1;\n}", "return x + y;", "", "\u{00c9}Y;\nX", "zzz"] {
            let grams = trigram_set(search);
            let mut windows = WindowGrams::new(&file, &grams, 0, n);
            for a in 0..n {
                for b in a + 1..=n {
                    let whole = containment(&grams, &trigram_set(file.joined(a, b)));
                    assert_eq!(
                        windows.containment(a, b).to_bits(),
                        whole.to_bits(),
                        "{search:?} {a}..{b}"
                    );
                }
            }
        }
    }

    #[test]
    fn finds_typo_line_by_trigrams() {
        let text: String = (0..200)
            .map(|i| format!("let value_{i} = compute({i});\n"))
            .collect();
        let search = ["let value_77 = compote(77);"];
        assert_eq!(region_of(&text, &search), (77, 78));
    }

    /// Two one-line places about equally similar, apart or adjacent: a
    /// tie, whatever the slack of the windows around them.
    #[test]
    fn one_line_regions_tie_apart_and_adjacent() {
        let search = ["    if (alpha2 > 0) { total += alpha2; }"];
        for text in [
            "int f(int a, int b) {\n    if (alpha > 0) { total += alpha; }\n    return total;\n}\n\nint g(int a, int b) {\n    if (alpha_2 > 0) { total += alpha_2; }\n    return total;\n}\n",
            "int f() {\n    if (alpha > 0) { total += alpha; }\n    if (alpha_2 > 0) { total += alpha_2; }\n}\n",
        ] {
            let index = LineIndex::new(text);
            let file = FileIndex::new(&index);
            let Found::Tie(a, b) = closest(&file, &search) else {
                panic!("no tie: {:?}", closest(&file, &search))
            };
            assert_eq!(b.end - b.start, 1, "{b:?}");
            assert_eq!(a.end - a.start, 1, "{a:?}");
            assert!(
                (a.similarity - b.similarity).abs() < TIE_MARGIN,
                "{a:?} {b:?}"
            );
        }
    }
}
