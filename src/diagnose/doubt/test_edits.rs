//! The doubt checks' tests' edits: a file's text with one place rewritten,
//! or lines written after an anchor (the twin of [`crate::cases::before`]).

/// `text` with `old`, which it holds once, replaced by `new`.
pub(crate) fn edited(text: &str, old: &str, new: &str) -> String {
    assert_eq!(text.matches(old).count(), 1, "{old:?} in {text:?}");
    text.replacen(old, new, 1)
}

/// A doubt's check, read as `check(path, original, result)`.
pub(crate) type Check<T> = fn(&str, &str, &str) -> T;

/// What `check` says of the edit of the file `path` that rewrites the one
/// `old` of `text` as `new`.
pub(crate) fn check_edit<T>(check: Check<T>, path: &str, text: &str, old: &str, new: &str) -> T {
    check(path, text, &edited(text, old, new))
}

/// What `check` says of the edit of the file `path` that writes `new` just
/// after the one `at` of `text`.
pub(crate) fn check_after<T>(check: Check<T>, path: &str, text: &str, at: &str, new: &str) -> T {
    check(path, text, &after(text, at, new))
}

/// What `check` says of the edit of the file `path` that writes `new` just
/// before the one `at` of `text`.
pub(crate) fn check_before<T>(check: Check<T>, path: &str, text: &str, at: &str, new: &str) -> T {
    check(path, text, &crate::cases::before(text, at, new))
}

/// `text` with `added` written just after `anchor`, which it holds once.
pub(crate) fn after(text: &str, anchor: &str, added: &str) -> String {
    edited(text, anchor, &format!("{anchor}{added}"))
}

/// One case a recorder under `tests/fixtures/trust/` wrote to its
/// cases.json: its name (`case`), the file's text before and after the
/// edit, whether the rule expects a doubt, and the whole record, for what
/// else the real tool said of it.
pub(crate) struct RecordedCase {
    pub name: String,
    pub before: String,
    pub after: String,
    pub doubt: bool,
    pub record: serde_json::Value,
}

impl RecordedCase {
    /// The case's name, its text before and after the edit, and whether
    /// the rule expects a doubt.
    pub(crate) fn texts(&self) -> (&str, &str, &str, bool) {
        (&self.name, &self.before, &self.after, self.doubt)
    }
}

/// What else the recorder wrote of the case: `case["kind"]`.
impl std::ops::Index<&str> for RecordedCase {
    type Output = serde_json::Value;

    fn index(&self, key: &str) -> &serde_json::Value {
        &self.record[key]
    }
}

/// The cases of a recorder's cases.json (its text, `fixture`) whose
/// `kind` is one of `kinds`, or all of them when `kinds` is empty.
pub(crate) fn recorded_cases(fixture: &str, kinds: &[&str]) -> Vec<RecordedCase> {
    let cases: serde_json::Value = serde_json::from_str(fixture).expect("cases.json reads");
    let cases = cases.as_array().expect("a list");
    cases
        .iter()
        .filter(|c| kinds.is_empty() || kinds.iter().any(|&k| c["kind"] == k))
        .map(|c| {
            let text = |key: &str| c[key].as_str().unwrap_or_default().to_string();
            RecordedCase {
                name: text("case"),
                before: text("before"),
                after: text("after"),
                doubt: c["doubt"].as_bool().expect("doubt is a bool"),
                record: c.clone(),
            }
        })
        .collect()
}
