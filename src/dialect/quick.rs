//! Whole-file passes the agents' matchers make on every call, done with
//! SIMD byte searches ([`memchr`], [`bytecount`]) instead of `str`'s
//! char-by-char patterns: the same results, byte for byte (each function
//! names the `std` expression it equals), so that a port stays exact.
//!
//! And the one switch the gate sets: a judgment reads of a matcher's run
//! only whether and how it matched, never the success text the agent
//! would show the model, so [`without_success_texts`] lets a matcher skip
//! what only that text needs (Gemini CLI's and Qwen Code's snippets of the
//! edited file, each a pass over the whole file before and after).

use std::cell::Cell;

thread_local! {
    static TEXTS_UNUSED: Cell<bool> = const { Cell::new(false) };
}

/// Runs `f` with the agents' success texts not built on this thread: a
/// [`CallOutcome`](super::call::CallOutcome)'s `message` may then lack the
/// parts only the model reads (a snippet of the edited file). Everything
/// else a matcher returns is as without it.
pub fn without_success_texts<R>(f: impl FnOnce() -> R) -> R {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            TEXTS_UNUSED.with(|t| t.set(self.0));
        }
    }
    let _restore = Restore(TEXTS_UNUSED.with(|t| t.replace(true)));
    f()
}

/// Whether a matcher should build its success text in full (the default;
/// not inside [`without_success_texts`]).
pub fn success_texts_wanted() -> bool {
    !TEXTS_UNUSED.with(Cell::get)
}

/// Where `a` or `b` stands in a text, in order: found 64 bytes at a time
/// as a bit mask (SSE2 compares), then bit by bit. A file's
/// lines are short (30-40 bytes in code), and a `memchr` call per line
/// costs its start-up each time: over a 10,000-line file, this finds every
/// newline in about a tenth of the instructions.
pub struct BytePlaces<'a> {
    text: &'a [u8],
    /// Where the block `mask` covers starts.
    block: usize,
    /// The places in that block not yet given, as bits.
    mask: u64,
    a: u8,
    b: u8,
}

/// The bytes of one block, and of the shorter last one.
const BLOCK: usize = 64;

impl<'a> BytePlaces<'a> {
    /// The places of `byte` in `text`.
    pub fn of(text: &'a [u8], byte: u8) -> Self {
        Self::of_either(text, byte, byte)
    }

    /// The places of `a` or `b` in `text`.
    pub fn of_either(text: &'a [u8], a: u8, b: u8) -> Self {
        let mut places = BytePlaces {
            text,
            block: 0,
            mask: 0,
            a,
            b,
        };
        places.mask = places.mask_at(0);
        places
    }

    /// The bit mask of the places in the block starting at `at`.
    fn mask_at(&self, at: usize) -> u64 {
        let (a, b) = (self.a, self.b);
        let end = self.text.len().min(at + BLOCK);
        if let Ok(block) = <&[u8; BLOCK]>::try_from(&self.text[at..end]) {
            return block_mask(block, a, b);
        }
        let mut mask = 0u64;
        for (i, &c) in self.text[at..end].iter().enumerate() {
            mask |= u64::from((c == a) | (c == b)) << i;
        }
        mask
    }
}

/// Bit `i` set where `block[i]` is `a` or `b`: four 16-byte SSE2 compares
/// (the compiler leaves the plain loop a byte at a time).
#[cfg(target_arch = "x86_64")]
fn block_mask(block: &[u8; BLOCK], a: u8, b: u8) -> u64 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8,
    };
    let mut mask = 0u64;
    // SAFETY: SSE2 is part of every x86_64 CPU (the target's baseline);
    // each unaligned load reads 16 bytes inside `block`.
    unsafe {
        let (va, vb) = (_mm_set1_epi8(a as i8), _mm_set1_epi8(b as i8));
        for part in 0..BLOCK / 16 {
            let bytes = _mm_loadu_si128(block.as_ptr().add(16 * part).cast::<__m128i>());
            let equal = _mm_or_si128(_mm_cmpeq_epi8(bytes, va), _mm_cmpeq_epi8(bytes, vb));
            mask |= u64::from(_mm_movemask_epi8(equal) as u16) << (16 * part);
        }
    }
    mask
}

/// [`block_mask`] a byte at a time, where SSE2 is not the baseline.
#[cfg(not(target_arch = "x86_64"))]
fn block_mask(block: &[u8; BLOCK], a: u8, b: u8) -> u64 {
    let mut mask = 0u64;
    for (i, &c) in block.iter().enumerate() {
        mask |= u64::from((c == a) | (c == b)) << i;
    }
    mask
}

impl Iterator for BytePlaces<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        while self.mask == 0 {
            self.block += BLOCK;
            if self.block >= self.text.len() {
                return None;
            }
            self.mask = self.mask_at(self.block);
        }
        let bit = self.mask.trailing_zeros() as usize;
        self.mask &= self.mask - 1;
        Some(self.block + bit)
    }
}

/// `text.split('\n').collect::<Vec<&str>>()`.
pub fn split_newlines(text: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(count_newlines(text) + 1);
    let mut start = 0;
    for end in BytePlaces::of(text.as_bytes(), b'\n') {
        out.push(&text[start..end]);
        start = end + 1;
    }
    out.push(&text[start..]);
    out
}

/// `text.split('\n')` one line at a time, none held.
pub fn newline_split(text: &str) -> impl Iterator<Item = &str> {
    let mut ends = BytePlaces::of(text.as_bytes(), b'\n');
    let mut start = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        match ends.next() {
            Some(end) => {
                let line = &text[start..end];
                start = end + 1;
                Some(line)
            }
            None => {
                done = true;
                Some(&text[start..])
            }
        }
    })
}

/// `haystack.find(needle)` (SIMD search: `str`'s Two-Way search is several
/// times slower over a whole file).
pub fn find(haystack: &str, needle: &str) -> Option<usize> {
    memchr::memmem::find(haystack.as_bytes(), needle.as_bytes())
}

/// `haystack.contains(needle)`.
pub fn contains(haystack: &str, needle: &str) -> bool {
    find(haystack, needle).is_some()
}

/// `haystack.matches(needle).count()`: non-overlapping, left to right.
pub fn count(haystack: &str, needle: &str) -> usize {
    if needle.is_empty() {
        return haystack.matches(needle).count();
    }
    memchr::memmem::find_iter(haystack.as_bytes(), needle.as_bytes()).count()
}

/// `haystack.replace(from, to)`: every non-overlapping `from`, left to
/// right.
pub fn replace(haystack: &str, from: &str, to: &str) -> String {
    if from.is_empty() {
        return haystack.replace(from, to);
    }
    let mut out = String::with_capacity(haystack.len());
    let mut last = 0;
    for at in memchr::memmem::find_iter(haystack.as_bytes(), from.as_bytes()) {
        out.push_str(&haystack[last..at]);
        out.push_str(to);
        last = at + from.len();
    }
    out.push_str(&haystack[last..]);
    out
}

/// `text.matches('\n').count()`: the engine's count.
pub fn count_newlines(text: &str) -> usize {
    crate::engine::matcher::count_newlines(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_switch_holds_inside_only_and_is_restored() {
        assert!(success_texts_wanted());
        let inside = without_success_texts(|| {
            let nested = without_success_texts(success_texts_wanted);
            (success_texts_wanted(), nested)
        });
        assert_eq!(inside, (false, false));
        assert!(success_texts_wanted());
    }

    proptest::proptest! {
        #[test]
        fn splits_and_counts_as_std_does(s in "[a\n\r é\u{2028}]{0,40}") {
            proptest::prop_assert_eq!(split_newlines(&s), s.split('\n').collect::<Vec<_>>());
            proptest::prop_assert_eq!(
                newline_split(&s).collect::<Vec<_>>(),
                s.split('\n').collect::<Vec<_>>()
            );
            proptest::prop_assert_eq!(count_newlines(&s), s.matches('\n').count());
        }

        #[test]
        fn searches_and_replaces_as_std_does(
            s in "[ab\r\n é]{0,60}",
            from in "[ab\r\n é]{0,3}",
            to in "[ab\n]{0,2}",
        ) {
            proptest::prop_assert_eq!(find(&s, &from), s.find(from.as_str()));
            proptest::prop_assert_eq!(contains(&s, &from), s.contains(from.as_str()));
            proptest::prop_assert_eq!(count(&s, &from), s.matches(from.as_str()).count());
            proptest::prop_assert_eq!(replace(&s, &from, &to), s.replace(from.as_str(), &to));
        }

        /// Longer texts than a block, so that places fall on both sides of
        /// each block's edge and in the shorter last one.
        #[test]
        fn byte_places_are_memchrs(s in "[a\n\r é]{0,300}", first in 0usize..300) {
            let bytes = s.as_bytes();
            proptest::prop_assert_eq!(
                BytePlaces::of(bytes, b'\n').collect::<Vec<_>>(),
                memchr::memchr_iter(b'\n', bytes).collect::<Vec<_>>()
            );
            proptest::prop_assert_eq!(
                BytePlaces::of_either(bytes, b'\n', b'\r').collect::<Vec<_>>(),
                memchr::memchr2_iter(b'\n', b'\r', bytes).collect::<Vec<_>>()
            );
            let from = first.min(bytes.len());
            proptest::prop_assert_eq!(
                BytePlaces::of(&bytes[from..], b' ').collect::<Vec<_>>(),
                memchr::memchr_iter(b' ', &bytes[from..]).collect::<Vec<_>>()
            );
            proptest::prop_assert_eq!(split_newlines(&s), s.split('\n').collect::<Vec<_>>());
            proptest::prop_assert_eq!(
                newline_split(&s).collect::<Vec<_>>(),
                s.split('\n').collect::<Vec<_>>()
            );
        }
    }
}
