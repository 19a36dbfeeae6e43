//! The doubt checks' tests' edits: a file's text with one place rewritten,
//! or lines written after an anchor (the twin of [`crate::cases::before`]).

/// `text` with `old`, which it holds once, replaced by `new`.
pub(crate) fn edited(text: &str, old: &str, new: &str) -> String {
    assert_eq!(text.matches(old).count(), 1, "{old:?} in {text:?}");
    text.replacen(old, new, 1)
}

/// `text` with `added` written just after `anchor`, which it holds once.
pub(crate) fn after(text: &str, anchor: &str, added: &str) -> String {
    edited(text, anchor, &format!("{anchor}{added}"))
}
