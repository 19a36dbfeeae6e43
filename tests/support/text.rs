//! Assertions on text the program wrote.

/// `text` contains `part`; the failure shows both.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}
