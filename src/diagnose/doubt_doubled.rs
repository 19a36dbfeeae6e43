//! *Pure.* A whole content (a `Write`, a `write_file`) that holds a run
//! of the file's lines twice, back to back: the file written out two
//! times (a model re-emitting it, a stream replayed), or a section given
//! again right after itself (a tester's find, T-09: a README written
//! twice passed as exact, every heading and section doubled). The
//! sibling of the write that stops short ([`crate::dialect::edit`]'s
//! `cut_short`) and of an edit's lines written twice
//! ([`super::doubt_repeat`]).
//!
//! The rule, for every kind of file, on non-blank lines (blank lines
//! between the copies, or inside them, are read past):
//! - the content holds a run of at least [`LEAST`] non-blank lines
//!   followed right away by the same run again; a tenth of the run's
//!   lines may differ between the two copies (one edited, the other as
//!   the file had it), not its first or last line;
//! - the file held those lines once: four in five of the run's lines are
//!   lines of the file, and the file holds no run half as long twice back
//!   to back (a file of repeated blocks, a table, fixtures written out
//!   alike, is not read as doubled by a write that adds one more).

use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};

use super::doubt_repeat::non_blank;

/// The fewest non-blank lines a run doubled must hold.
pub const LEAST: usize = 6;

/// A run of lines a content holds twice, back to back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doubled {
    /// The first copy's lines of the content (1-based, first and last).
    pub first: (usize, usize),
    /// The second copy's.
    pub second: (usize, usize),
    /// The run's first and last lines, trimmed.
    pub ends: (String, String),
}

impl Doubled {
    /// One sentence naming `path`, without a final stop, ending with what
    /// to send.
    pub fn describe(&self, path: &str) -> String {
        let ((a, b), (c, d)) = (self.first, self.second);
        format!(
            "its content holds lines {a}-{b} twice, back to back (lines {a}-{b} and {c}-{d}, \
             from `{}` to `{}`), where {path} holds them once: written, the file has them two \
             times over (a content sent twice, or a stream replayed): send the content with \
             those lines once",
            self.ends.0, self.ends.1
        )
    }
}

/// The run of lines `new` (a whole content written over `old`) holds
/// twice back to back where `old` held it once (see the module's rule).
pub fn doubled(old: &str, new: &str) -> Option<Doubled> {
    let lines: Vec<&str> = new.lines().collect();
    let solid: Vec<(usize, &str)> = non_blank(&lines).collect();
    let ids: Vec<u64> = solid.iter().map(|(_, l)| line_id(l)).collect();
    let (start, k) = back_to_back(&ids)?;
    let old_lines: Vec<&str> = old.lines().collect();
    let old_ids: Vec<u64> = non_blank(&old_lines).map(|(_, l)| line_id(l)).collect();
    if back_to_back(&old_ids).is_some_and(|(_, old_k)| old_k * 2 >= k) {
        return None;
    }
    let held: HashSet<u64> = old_ids.into_iter().collect();
    let known = ids[start..start + k]
        .iter()
        .filter(|i| held.contains(i))
        .count();
    if known * 5 < k * 4 {
        return None;
    }
    let line = |i: usize| solid[i].0 + 1;
    Some(Doubled {
        first: (line(start), line(start + k - 1)),
        second: (line(start + k), line(start + 2 * k - 1)),
        ends: (
            solid[start].1.trim().to_string(),
            solid[start + k - 1].1.trim().to_string(),
        ),
    })
}

/// A line's identity, its trailing white space read past.
fn line_id(line: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    line.trim_end().hash(&mut h);
    h.finish()
}

/// The longest run of `ids` followed right away by itself (a tenth of its
/// places may differ, not its first or last): its start and length, at
/// least [`LEAST`]. The run lengths tried are the distances between equal
/// groups of [`LEAST`] lines, the most frequent first.
fn back_to_back(ids: &[u64]) -> Option<(usize, usize)> {
    let n = ids.len();
    if n < 2 * LEAST {
        return None;
    }
    let mut at: HashMap<&[u64], Vec<usize>> = HashMap::new();
    for p in 0..=n - LEAST {
        at.entry(&ids[p..p + LEAST]).or_default().push(p);
    }
    let mut distances: HashMap<usize, usize> = HashMap::new();
    for places in at.values().filter(|p| p.len() > 1) {
        // A group repeated many times (a table's rows alike): its nearest
        // few places are enough to tell a doubling.
        for (i, &q) in places.iter().enumerate() {
            for &p in places.iter().skip(i + 1).take(8) {
                if p - q >= LEAST && 2 * (p - q) <= n {
                    *distances.entry(p - q).or_default() += 1;
                }
            }
        }
    }
    let mut tried: Vec<(usize, usize)> = distances.into_iter().collect();
    tried.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(b.0.cmp(&a.0)));
    tried
        .into_iter()
        .take(16)
        .filter_map(|(k, _)| run_at(ids, k).map(|start| (start, k)))
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// The first start of a run of `k` ids equal, but for a tenth of them, to
/// the `k` right after it, its first and last equal.
fn run_at(ids: &[u64], k: usize) -> Option<usize> {
    let n = ids.len();
    let differ = |i: usize| usize::from(ids[i] != ids[i + k]);
    let allowed = k / 10;
    let mut differing: usize = (0..k).map(differ).sum();
    for start in 0..=n - 2 * k {
        if start > 0 {
            differing = differing - differ(start - 1) + differ(start + k - 1);
        }
        if differing <= allowed && differ(start) == 0 && differ(start + k - 1) == 0 {
            return Some(start);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const README: &str = "# Project\n\nA tool for X.\n\n## Install\n\n    pip install x\n\n## Usage\n\nRun `x --help`.\n";

    /// The tester's find (T-09): the README written twice, edited.
    #[test]
    fn a_file_written_twice_is_said() {
        let edited = README.replace("for X.", "for X and Y.");
        let twice = format!("{edited}\n{edited}");
        let found = doubled(README, &twice).expect("said");
        assert_eq!(
            found.describe("README.md"),
            "its content holds lines 1-11 twice, back to back (lines 1-11 and 13-23, from \
             `# Project` to `Run `x --help`.`), where README.md holds them once: written, the \
             file has them two times over (a content sent twice, or a stream replayed): send \
             the content with those lines once"
        );
        // Written once: nothing.
        assert_eq!(doubled(README, &edited), None);
    }

    /// Any kind of file: a YAML list and a stylesheet written twice, and a
    /// longer file whose second copy is the file as it was (one line of
    /// eleven differs) are said; a section repeated once more than the
    /// file already repeated it, two test functions alike but for their
    /// names, and a content holding each of the file's lines once are not.
    #[test]
    fn doublings_are_said_and_look_alikes_are_not() {
        let yaml = "steps:\n  - checkout\n  - setup\n  - build\n  - test\n  - lint\n  - deploy\n";
        let found = doubled(yaml, &format!("{yaml}{yaml}")).expect("yaml");
        assert_eq!((found.first, found.second), ((1, 7), (8, 14)));
        let css = "a {\n  color: red;\n}\n\nb {\n  color: blue;\n}\n";
        assert!(doubled(css, &format!("{css}\n{css}")).is_some());
        let long: String = (1..=11).map(|i| format!("line {i}\n")).collect();
        let edited = long.replace("line 5\n", "line five\n");
        let found = doubled(&long, &format!("{edited}{long}")).expect("one line differs");
        assert_eq!((found.first, found.second), ((1, 11), (12, 22)));
        // The file repeats a block already: one more copy is not news.
        let block = "[server]\nhost = a\nport = 1\nuser = x\nmode = y\nlog = z\n\n";
        let two = format!("{block}{block}");
        assert_eq!(doubled(&two, &format!("{two}{block}")), None);
        // Two tests alike but for their names: their first lines differ.
        let test = |name: &str| {
            format!(
                "def {name}():\n    a = 1\n    b = 2\n    c = a + b\n    assert c == 3\n    \
                 assert a < b\n    assert b < c\n\n\n"
            )
        };
        let one = test("test_a");
        assert_eq!(doubled(&one, &format!("{one}{}", test("test_b"))), None);
        // Short runs (fewer than LEAST non-blank lines) are not read.
        let short = "a\nb\nc\nd\ne\n";
        assert_eq!(doubled(short, &format!("{short}{short}")), None);
        // Lines the file never held, written twice: not the file's lines.
        let new: String = (1..=8).map(|i| format!("new {i}\n")).collect();
        assert_eq!(doubled(&long, &format!("{new}{new}")), None);
    }
}
