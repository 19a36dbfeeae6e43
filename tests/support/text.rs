//! Assertions on text the program wrote.

/// `text` contains `part`; the failure shows both.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}

/// No problem was found; the failure lists every one.
#[track_caller]
pub fn assert_no_problems(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "{} problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// `text` begins with `part`; the failure shows both.
#[track_caller]
pub fn assert_starts_with(text: &str, part: &str) {
    assert!(text.starts_with(part), "{part:?} does not begin:\n{text}");
}

/// `text` ends with `part`; the failure shows both.
#[track_caller]
pub fn assert_ends_with(text: &str, part: &str) {
    assert!(text.ends_with(part), "{part:?} does not end:\n{text}");
}
