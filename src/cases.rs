//! Table-driven unit tests: one assertion over a list of cases; and the
//! patch matchers' tests' lines of a text.

use std::fmt::Debug;

/// Asserts `f(input) == want` for every `(input, want)` of `cases`, naming
/// the failing input.
pub(crate) fn assert_cases<I, O, W>(f: impl Fn(I) -> O, cases: &[(I, W)])
where
    I: Copy + Debug,
    O: PartialEq<W> + Debug,
    W: Debug,
{
    for (input, want) in cases {
        assert_eq!(f(*input), *want, "for {input:?}");
    }
}

/// `text.split("\n")` as owned lines, as the patch matchers take a file.
pub(crate) fn lines(text: &str) -> Vec<String> {
    text.split('\n').map(str::to_string).collect()
}

/// Asserts `f(input)` is `None` for every input of `cases`, naming the
/// failing input.
pub(crate) fn assert_none<I, O>(f: impl Fn(I) -> Option<O>, cases: &[I])
where
    I: Copy + Debug,
    O: Debug,
{
    for input in cases {
        assert!(f(*input).is_none(), "for {input:?}: {:?}", f(*input));
    }
}

/// `text` with `added` written just before `anchor`, which it holds once.
pub(crate) fn before(text: &str, anchor: &str, added: &str) -> String {
    assert_eq!(text.matches(anchor).count(), 1, "{anchor:?} in {text:?}");
    text.replacen(anchor, &format!("{added}{anchor}"), 1)
}
