//! Python's `difflib.SequenceMatcher.ratio` and `difflib.get_close_matches`,
//! ported exactly (CPython 3.11 `Lib/difflib.py`): Aider's `find_filename`
//! matches a misspelled path against the chat's files with
//! `get_close_matches(.., n=1, cutoff=0.8)`, and its `find_similar_lines`
//! ranks windows of the file by `SequenceMatcher(None, search_lines,
//! chunk).ratio()`. No junk function; the "autojunk" heuristic applies as in
//! Python: when `b` has 200 or more elements, an element occurring more
//! than `len(b) // 100 + 1` times is left out of the index (but may still
//! extend a match).

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

/// `SequenceMatcher(None, a, b)`.
pub struct SequenceMatcher<'a, T: Eq + Hash> {
    a: &'a [T],
    b: &'a [T],
    /// `b2j`: where each (non-popular) element of `b` occurs, ascending.
    b2j: HashMap<&'a T, Vec<usize>>,
}

impl<'a, T: Eq + Hash> SequenceMatcher<'a, T> {
    /// Indexes `b` (`__chain_b`).
    pub fn new(a: &'a [T], b: &'a [T]) -> Self {
        let mut b2j: HashMap<&'a T, Vec<usize>> = HashMap::new();
        for (j, element) in b.iter().enumerate() {
            b2j.entry(element).or_default().push(j);
        }
        let n = b.len();
        if n >= 200 {
            let ntest = n / 100 + 1;
            let popular: HashSet<&'a T> = b2j
                .iter()
                .filter(|(_, places)| places.len() > ntest)
                .map(|(element, _)| *element)
                .collect();
            for element in popular {
                b2j.remove(element);
            }
        }
        SequenceMatcher { a, b, b2j }
    }

    /// `find_longest_match(alo, ahi, blo, bhi)`: `(i, j, size)`, the
    /// earliest-in-`a`, then earliest-in-`b`, longest block, extended over
    /// equal elements the index left out.
    fn find_longest_match(
        &self,
        (alo, ahi, blo, bhi): (usize, usize, usize, usize),
        rows: &mut Rows,
    ) -> (usize, usize, usize) {
        let (a, b) = (self.a, self.b);
        let (mut besti, mut bestj, mut bestsize) = (alo, blo, 0);
        rows.reset(b.len());
        for (i, element) in a.iter().enumerate().take(ahi).skip(alo) {
            if let Some(places) = self.b2j.get(element) {
                for &j in places {
                    if j < blo {
                        continue;
                    }
                    if j >= bhi {
                        break;
                    }
                    // j2len[j - 1] lives at index j, j2len[j] at j + 1.
                    let k = rows.previous[j] + 1;
                    rows.current[j + 1] = k;
                    rows.touched_current.push(j + 1);
                    if k > bestsize {
                        besti = i + 1 - k;
                        bestj = j + 1 - k;
                        bestsize = k;
                    }
                }
            }
            rows.advance();
        }
        // No element is junk (`isjunk` is None), so only the first two of
        // Python's four extension loops can run.
        while besti > alo && bestj > blo && a[besti - 1] == b[bestj - 1] {
            besti -= 1;
            bestj -= 1;
            bestsize += 1;
        }
        while besti + bestsize < ahi
            && bestj + bestsize < bhi
            && a[besti + bestsize] == b[bestj + bestsize]
        {
            bestsize += 1;
        }
        (besti, bestj, bestsize)
    }

    /// How many elements the matching blocks cover (`get_matching_blocks`,
    /// summed).
    fn matches(&self) -> usize {
        let mut rows = Rows::default();
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut total = 0;
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.find_longest_match((alo, ahi, blo, bhi), &mut rows);
            if k > 0 {
                total += k;
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        total
    }

    /// `get_matching_blocks()`: the matching blocks `(i, j, size)` in
    /// order, adjacent ones joined, ending with `(len(a), len(b), 0)`.
    fn matching_blocks(&self) -> Vec<(usize, usize, usize)> {
        let mut rows = Rows::default();
        let mut queue = vec![(0, self.a.len(), 0, self.b.len())];
        let mut blocks = Vec::new();
        while let Some((alo, ahi, blo, bhi)) = queue.pop() {
            let (i, j, k) = self.find_longest_match((alo, ahi, blo, bhi), &mut rows);
            if k > 0 {
                blocks.push((i, j, k));
                if alo < i && blo < j {
                    queue.push((alo, i, blo, j));
                }
                if i + k < ahi && j + k < bhi {
                    queue.push((i + k, ahi, j + k, bhi));
                }
            }
        }
        blocks.sort_unstable();
        let mut joined: Vec<(usize, usize, usize)> = Vec::new();
        for (i, j, k) in blocks {
            match joined.last_mut() {
                Some(last) if last.0 + last.2 == i && last.1 + last.2 == j => last.2 += k,
                _ => joined.push((i, j, k)),
            }
        }
        joined.push((self.a.len(), self.b.len(), 0));
        joined
    }

    /// `get_opcodes()`: how to turn `a` into `b`, in order.
    pub fn opcodes(&self) -> Vec<Opcode> {
        let (mut i, mut j) = (0, 0);
        let mut answer = Vec::new();
        for (ai, bj, size) in self.matching_blocks() {
            let tag = match (i < ai, j < bj) {
                (true, true) => Some(Tag::Replace),
                (true, false) => Some(Tag::Delete),
                (false, true) => Some(Tag::Insert),
                (false, false) => None,
            };
            if let Some(tag) = tag {
                answer.push(Opcode {
                    tag,
                    i1: i,
                    i2: ai,
                    j1: j,
                    j2: bj,
                });
            }
            (i, j) = (ai + size, bj + size);
            if size > 0 {
                answer.push(Opcode {
                    tag: Tag::Equal,
                    i1: ai,
                    i2: i,
                    j1: bj,
                    j2: j,
                });
            }
        }
        answer
    }

    /// `ratio()`: `2.0 * matches / (len(a) + len(b))`, 1.0 for two empty
    /// sequences.
    pub fn ratio(&self) -> f64 {
        let length = self.a.len() + self.b.len();
        if length == 0 {
            return 1.0;
        }
        2.0 * self.matches() as f64 / length as f64
    }
}

/// An opcode's tag (`get_opcodes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tag {
    Equal,
    Replace,
    Delete,
    Insert,
}

/// One of `get_opcodes()`' tuples: `a[i1..i2]` becomes `b[j1..j2]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Opcode {
    pub tag: Tag,
    pub i1: usize,
    pub i2: usize,
    pub j1: usize,
    pub j2: usize,
}

/// The two rows of `j2len` (`find_longest_match`'s dict from `b` index to
/// the length of the match ending there), kept as arrays cleared by the
/// entries they set.
#[derive(Default)]
struct Rows {
    previous: Vec<usize>,
    current: Vec<usize>,
    touched_previous: Vec<usize>,
    touched_current: Vec<usize>,
}

impl Rows {
    fn reset(&mut self, b_len: usize) {
        for row in [&mut self.previous, &mut self.current] {
            row.clear();
            row.resize(b_len + 1, 0);
        }
        self.touched_previous.clear();
        self.touched_current.clear();
    }

    /// `j2len = newj2len`.
    fn advance(&mut self) {
        for &at in &self.touched_previous {
            self.previous[at] = 0;
        }
        self.touched_previous.clear();
        std::mem::swap(&mut self.previous, &mut self.current);
        std::mem::swap(&mut self.touched_previous, &mut self.touched_current);
    }
}

/// `difflib.get_close_matches(word, possibilities, n=1, cutoff)`: the
/// possibility with the highest ratio at or above `cutoff` (ties go to the
/// greatest string, as `heapq.nlargest` on `(score, x)` pairs does).
/// Python's `real_quick_ratio` and `quick_ratio` pre-filters are upper
/// bounds of `ratio`, so leaving them out changes no result.
pub fn closest_match<'p>(word: &str, possibilities: &'p [String], cutoff: f64) -> Option<&'p str> {
    let word: Vec<char> = word.chars().collect();
    let mut best: Option<(f64, &'p str)> = None;
    for possibility in possibilities {
        let chars: Vec<char> = possibility.chars().collect();
        let score = SequenceMatcher::new(&chars, &word).ratio();
        if score < cutoff {
            continue;
        }
        let better = match best {
            None => true,
            Some((best_score, best_text)) => {
                score > best_score || (score == best_score && possibility.as_str() > best_text)
            }
        };
        if better {
            best = Some((score, possibility));
        }
    }
    best.map(|(_, text)| text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ratio(a: &str, b: &str) -> f64 {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        SequenceMatcher::new(&a, &b).ratio()
    }

    #[test]
    fn ratios_are_python_s() {
        // Values printed by CPython 3.11's difflib.
        assert_eq!(ratio("abcd", "bcde"), 0.75);
        assert_eq!(ratio("src/calc.py", "src/clac.py"), 0.9090909090909091);
        assert_eq!(ratio("", ""), 1.0);
        assert_eq!(
            ratio(
                "private Thread currentThread;",
                "private volatile Thread currentThread;"
            ),
            0.8656716417910447
        );
    }

    #[test]
    fn autojunk_leaves_popular_elements_out_of_the_index() {
        // b has 200 elements, 'x' in 199 of them: popular, so matches
        // start only from 'y' or from the empty match's extension.
        let b: Vec<char> = std::iter::repeat_n('x', 199).chain(['y']).collect();
        let a: Vec<char> = "xxy".chars().collect();
        assert_eq!(SequenceMatcher::new(&a, &b).ratio(), 6.0 / 203.0);
        let a: Vec<char> = "xx".chars().collect();
        assert_eq!(SequenceMatcher::new(&a, &b).ratio(), 4.0 / 202.0);
    }

    #[test]
    fn close_matches_take_the_best_then_the_greatest() {
        let files = ["src/calc.py".to_string(), "src/cals.py".to_string()];
        assert_eq!(
            closest_match("src/calx.py", &files, 0.8),
            Some("src/cals.py")
        );
        assert_eq!(closest_match("lib/other.py", &files, 0.8), None);
    }
}
