//! Marker recognition. The reference's patterns are tiny anchored regexes;
//! hand-written checks keep the engine free of a regex dependency.

/// Canonical SEARCH start marker.
pub const SEARCH_START: &str = "------- SEARCH";
/// Canonical separator.
pub const SEPARATOR: &str = "=======";
/// Canonical REPLACE end marker.
pub const REPLACE_END: &str = "+++++++ REPLACE";

/// A block with the canonical markers around `search` and `replace`, each
/// whole lines (every line ending in `\n`) or empty.
pub fn canonical_block(search: &str, replace: &str) -> String {
    format!("{SEARCH_START}\n{search}{SEPARATOR}\n{replace}{REPLACE_END}\n")
}

/// `lines` as whole lines: each followed by `\n`.
pub fn whole_lines<'a>(lines: impl IntoIterator<Item = &'a str>) -> String {
    let mut text = String::new();
    for line in lines {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// `^c{3,}` followed exactly by `rest`, then an optional `>`.
fn run_then(line: &str, c: char, rest: &str) -> bool {
    // Most lines are code: one byte rules them out.
    if !line.starts_with(c) {
        return false;
    }
    let run = line.len() - line.trim_start_matches(c).len();
    if run < 3 {
        return false;
    }
    let tail = &line[run..];
    matches!(tail.strip_prefix(rest), Some("" | ">"))
}

/// `^-{3,} SEARCH>?$` or the legacy `^<{3,} SEARCH>?$`.
pub fn is_search_start(line: &str) -> bool {
    run_then(line, '-', " SEARCH") || run_then(line, '<', " SEARCH")
}

/// `^={3,}$`.
pub fn is_separator(line: &str) -> bool {
    line.len() >= 3 && line.bytes().all(|b| b == b'=')
}

/// `^\+{3,} REPLACE>?$` or the legacy `^>{3,} REPLACE>?$`.
pub fn is_replace_end(line: &str) -> bool {
    run_then(line, '+', " REPLACE") || run_then(line, '>', " REPLACE")
}

/// Any of the three markers, flexible spelling.
pub fn is_marker(line: &str) -> bool {
    is_search_start(line) || is_separator(line) || is_replace_end(line)
}

/// Whether `partial`, a last line still arriving, could become a SEARCH
/// start marker (`------- SEA`, `<<<`, `---`).
pub fn could_become_search_start(partial: &str) -> bool {
    let Some(c) = partial.chars().next().filter(|c| matches!(c, '-' | '<')) else {
        return false;
    };
    let run = partial.len() - partial.trim_start_matches(c).len();
    let rest = &partial[run..];
    rest.is_empty() || (run >= 3 && " SEARCH>".starts_with(rest))
}

/// Whether a last line could be half of a streamed marker.
pub fn starts_like_marker(line: &str) -> bool {
    line.starts_with(['-', '<', '=', '+', '>'])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    /// A line still arriving that may yet be a SEARCH marker, in any
    /// spelling the grammar allows; anything else may not.
    #[test]
    fn lines_that_could_become_a_search_marker() {
        assert_cases(
            could_become_search_start,
            &[
                ("-", true),
                ("------- SEA", true),
                ("---------", true),
                ("--- SEARCH>", true),
                ("<<<<<<< S", true),
                ("", false),
                ("-- S", false),
                ("------- SEARCHING", false),
                ("- item", false),
                ("=======", false),
            ],
        );
    }

    #[test]
    fn flexible_markers() {
        assert_cases(
            is_search_start,
            &[
                ("--- SEARCH", true),
                ("<<<<<<< SEARCH>", true),
                ("-- SEARCH", false),
                ("-------SEARCH", false),
                ("------- SEARCH\r", false),
                ("------- SEARCH>>", false),
            ],
        );
        assert_cases(is_separator, &[("===", true), ("======= ", false)]);
        assert_cases(
            is_replace_end,
            &[
                (">>>>>>> REPLACE", true),
                ("+++ REPLACE>", true),
                ("++ REPLACE", false),
            ],
        );
    }
}
