//! Gemini CLI's `detectOmissionPlaceholders`
//! (`tools/omissionPlaceholderDetector.ts`): lines such as
//! `(rest of methods ...)` or `// unchanged code ...` in `new_string`.

use super::js;

const OMITTED_PREFIXES: [&str; 7] = [
    "rest of",
    "rest of method",
    "rest of methods",
    "rest of code",
    "unchanged code",
    "unchanged method",
    "unchanged methods",
];

/// The normalized placeholders (`"rest of methods ..."`) found in `text`,
/// one per line that is one.
pub fn detect(text: &str) -> Vec<String> {
    text.replace("\r\n", "\n")
        .split('\n')
        .filter_map(normalize_placeholder)
        .collect()
}

/// `normalizePlaceholder(line)`.
fn normalize_placeholder(line: &str) -> Option<String> {
    let mut text = js::trim(line);
    if text.is_empty() {
        return None;
    }
    if let Some(rest) = text.strip_prefix("//") {
        text = js::trim(rest);
    }
    if text.starts_with('(') && text.ends_with(')') && text.len() >= 2 {
        text = js::trim(&text[1..text.len() - 1]);
    }
    let ellipsis = text.find("...")?;
    let prefix_raw = js_to_lower(js::trim(&text[..ellipsis]));
    let suffix_raw = js::trim(&text[ellipsis + 3..]);
    let prefix = normalize_whitespace(&prefix_raw);
    if !OMITTED_PREFIXES.contains(&prefix.as_str()) {
        return None;
    }
    if !suffix_raw.is_empty() && !suffix_raw.chars().all(|c| c == '.') {
        return None;
    }
    Some(format!("{prefix} ..."))
}

/// `toLowerCase()` (Unicode default lowercasing, as Rust's).
fn js_to_lower(s: &str) -> String {
    s.to_lowercase()
}

/// `normalizeWhitespace`: runs of space, tab, CR, LF become one space,
/// leading and trailing ones go.
fn normalize_whitespace(input: &str) -> String {
    input
        .split([' ', '\t', '\n', '\r'])
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn detects_the_agents_own_examples_and_ignores_what_it_does_not_know() {
        assert_cases(
            detect,
            &[
                ("(rest of methods ...)", &["rest of methods ..."][..]),
                ("  // Rest of   Code ...", &["rest of code ..."]),
                ("(unchanged code ....)", &["unchanged code ..."]),
                ("# rest of methods ...", &[]),
                ("// ...", &[]),
                ("// rest of the code ...", &[]),
                ("// rest of code ... here", &[]),
            ],
        );
    }
}
