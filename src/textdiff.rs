//! Every line, word and character diff srview computes, through one routine.
//!
//! similar's `TextDiff` compiles its diff machinery once per input type,
//! hook and algorithm it might dispatch to: about 20 copies of Myers, 430 KB
//! of this executable's code, all of it mapped into the previewer. The same
//! Myers diff called directly on token slices compiles once per token type.
//! `tests/textdiff_parity.rs` checks the results equal `TextDiff`'s.

use std::hash::Hash;
use std::time::Instant;

use similar::algorithms::{Capture, Compact, Replace, myers};
use similar::{Change, DiffOp, DiffableStr};

/// Myers diff of two slices, compacted like `similar::capture_diff_slices`.
/// Past `deadline` the diff is approximate (still a valid edit script).
pub fn ops<T: Hash + Eq>(old: &[T], new: &[T], deadline: Option<Instant>) -> Vec<DiffOp> {
    let mut hook = Compact::new(Replace::new(Capture::new()), old, new);
    // Capture's error type is `Infallible`.
    let _ = myers::diff_deadline(&mut hook, old, 0..old.len(), new, 0..new.len(), deadline);
    hook.into_inner().into_inner().into_ops()
}

/// A diff of two texts cut into tokens (lines, words or characters).
pub struct TokenDiff<'a> {
    old: Vec<&'a str>,
    new: Vec<&'a str>,
    ops: Vec<DiffOp>,
}

impl<'a> TokenDiff<'a> {
    /// Lines, each with its line ending (as `TextDiff::from_lines`).
    pub fn lines(old: &'a str, new: &'a str) -> Self {
        Self::new(old.tokenize_lines(), new.tokenize_lines(), None)
    }

    /// Runs of whitespace and of non-whitespace (as `TextDiff::from_words`).
    pub fn words(old: &'a str, new: &'a str) -> Self {
        Self::new(old.tokenize_words(), new.tokenize_words(), None)
    }

    /// Characters (as `TextDiffConfig::diff_chars`).
    pub fn chars(old: &'a str, new: &'a str, deadline: Option<Instant>) -> Self {
        Self::new(old.tokenize_chars(), new.tokenize_chars(), deadline)
    }

    /// Given tokens, e.g. lines without their endings.
    pub fn slices(old: &[&'a str], new: &[&'a str]) -> Self {
        Self::new(old.to_vec(), new.to_vec(), None)
    }

    fn new(old: Vec<&'a str>, new: Vec<&'a str>, deadline: Option<Instant>) -> Self {
        let ops = ops(&old, &new, deadline);
        TokenDiff { old, new, ops }
    }

    /// The diff's operations, in order.
    pub fn ops(&self) -> &[DiffOp] {
        &self.ops
    }

    /// Every token, tagged equal, delete or insert, in order.
    pub fn changes(&self) -> impl Iterator<Item = Change<&'a str>> + '_ {
        self.ops
            .iter()
            .flat_map(|op| op.iter_changes(&self.old[..], &self.new[..]))
    }

    /// Matched tokens over all tokens, in [0, 1] (as `TextDiff::ratio`).
    pub fn ratio(&self) -> f32 {
        similar::diff_ratio(&self.ops, self.old.len(), self.new.len())
    }
}

/// `text`'s lines, split at `\n`, each without a `\r` ending it (an agent
/// may have read a CRLF file's lines without theirs), and without the empty
/// one after a final newline.
pub fn text_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text
        .split('\n')
        .map(|line| line.strip_suffix('\r').unwrap_or(line))
        .collect();
    if text.ends_with('\n') {
        lines.pop();
    }
    lines
}

/// How many items `old` and `new` share from their start, and then from
/// their end (not counting those shared from the start again): what lies
/// around the one stretch that changed.
pub fn shared_ends<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, suffix)
}

/// Two texts as lines (`str::lines`), and what lies around the one
/// stretch that changed ([`shared_ends`]): `(old, new, prefix, suffix)`,
/// where `old[prefix..old.len() - suffix]` became `new[prefix..new.len() -
/// suffix]`.
pub fn changed_lines<'a>(
    original: &'a str,
    result: &'a str,
) -> (Vec<&'a str>, Vec<&'a str>, usize, usize) {
    let old: Vec<&str> = original.lines().collect();
    let new: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = shared_ends(&old, &new);
    (old, new, prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::shared_ends;

    #[test]
    fn shared_ends_count_the_tail_only_past_the_head() {
        assert_eq!(shared_ends(&["a", "b", "c"], &["a", "x", "c"]), (1, 1));
        assert_eq!(shared_ends(&["a", "b"], &["a", "b"]), (2, 0));
        // "a" is shared from the start: it is not counted again at the end.
        assert_eq!(shared_ends(&["a"], &["a", "a"]), (1, 0));
        assert_eq!(shared_ends(&["x", "a"], &["y", "a"]), (0, 1));
        assert_eq!(shared_ends::<&str>(&[], &["a"]), (0, 0));
    }
}
