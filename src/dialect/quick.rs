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

/// `text.split('\n').collect::<Vec<&str>>()`.
pub fn split_newlines(text: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(count_newlines(text) + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', text.as_bytes()) {
        out.push(&text[start..end]);
        start = end + 1;
    }
    out.push(&text[start..]);
    out
}

/// `text.split('\n')` one line at a time, none held (SIMD search).
pub fn newline_split(text: &str) -> impl Iterator<Item = &str> {
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
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
    }
}
