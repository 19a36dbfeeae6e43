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

/// `text` contains each of `present` and none of `absent`; the failure
/// names the part and shows the text.
#[track_caller]
pub fn assert_holds(text: &str, present: &[&str], absent: &[&str]) {
    for part in present {
        assert!(text.contains(part), "{part:?} not in:\n{text}");
    }
    for part in absent {
        assert!(!text.contains(part), "{part:?} in:\n{text}");
    }
}
