//! The doubt checks' tests' edits: a file's text with lines written after
//! an anchor, the twin of [`crate::cases::before`].

/// `text` with `added` written just after `anchor`, which it holds once.
pub(crate) fn after(text: &str, anchor: &str, added: &str) -> String {
    assert_eq!(text.matches(anchor).count(), 1, "{anchor:?} in {text:?}");
    text.replacen(anchor, &format!("{anchor}{added}"), 1)
}
