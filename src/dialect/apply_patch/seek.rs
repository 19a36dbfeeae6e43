//! The reference's line-sequence search: four passes, each looser than the
//! one before, each scanning every start position; the first pass that finds
//! anything decides. We also say which pass it was.

use serde::Serialize;

/// How loosely a hunk's lines had to be compared to be found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MatchLevel {
    /// Byte for byte (line terminators aside).
    Exact,
    /// Trailing white space ignored on both sides.
    TrailingSpace,
    /// White space at both ends ignored.
    Trimmed,
    /// Both ends trimmed and typographic dashes, quotes and spaces read as
    /// their ASCII forms.
    Unicode,
}

impl MatchLevel {
    /// The word shown to users and written in JSON (`exact`, `trailing-space`, `trimmed`,
    /// `unicode`).
    pub fn name(self) -> &'static str {
        match self {
            MatchLevel::Exact => "exact",
            MatchLevel::TrailingSpace => "trailing-space",
            MatchLevel::Trimmed => "trimmed",
            MatchLevel::Unicode => "unicode",
        }
    }

    /// Anything but `Exact` deserves a warning: the reference is silent.
    pub fn is_loose(self) -> bool {
        self != MatchLevel::Exact
    }

    const ALL: [MatchLevel; 4] = [
        MatchLevel::Exact,
        MatchLevel::TrailingSpace,
        MatchLevel::Trimmed,
        MatchLevel::Unicode,
    ];

    pub(super) fn equal(self, file: &str, patch: &str) -> bool {
        match self {
            MatchLevel::Exact => file == patch,
            MatchLevel::TrailingSpace => file.trim_end() == patch.trim_end(),
            MatchLevel::Trimmed => file.trim() == patch.trim(),
            MatchLevel::Unicode => {
                let (file, patch) = (file.trim(), patch.trim());
                file.chars().map(normalise).eq(patch.chars().map(normalise))
            }
        }
    }
}

/// The punctuation the reference's last pass reads as ASCII: dashes and
/// the minus sign, curly quotes, special spaces, one character for one.
/// Qwen Code's `UNICODE_EQUIVALENT_MAP` and the replacements of pi's
/// `normalizeForFuzzyMatch` are this same table (their ports call it).
#[inline]
pub fn normalise(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
        '\u{2018}'..='\u{201B}' => '\'',
        '\u{201C}'..='\u{201F}' => '"',
        '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        other => other,
    }
}

/// Finds `pattern` in `lines` at or after `start` (with `at_end`, only at
/// the position that ends the file). An empty pattern is found at `start`.
pub fn seek<L: AsRef<str>>(
    lines: &[L],
    pattern: &[&str],
    start: usize,
    at_end: bool,
) -> Option<(usize, MatchLevel)> {
    if pattern.is_empty() {
        return Some((start, MatchLevel::Exact));
    }
    let last_start = lines.len().checked_sub(pattern.len())?;
    let (from, to) = if at_end {
        (last_start, last_start)
    } else {
        (start, last_start)
    };
    MatchLevel::ALL.into_iter().find_map(|level| {
        (from..=to)
            .find(|&at| found_at(lines, pattern, at, level))
            .map(|at| (at, level))
    })
}

/// Whether `pattern` is found at line `at` of `lines` at `level`.
fn found_at<L: AsRef<str>>(lines: &[L], pattern: &[&str], at: usize, level: MatchLevel) -> bool {
    pattern
        .iter()
        .zip(&lines[at..])
        .all(|(p, l)| level.equal(l.as_ref(), p))
}

/// Every start at or after `start` where `pattern` is found at `level`
/// (with `at_end`, only the position that ends the file).
pub fn occurrences<L: AsRef<str>>(
    lines: &[L],
    pattern: &[&str],
    start: usize,
    at_end: bool,
    level: MatchLevel,
) -> Vec<usize> {
    starts(lines.len(), pattern.len(), start, at_end)
        .filter(|&at| found_at(lines, pattern, at, level))
        .collect()
}

/// The starts a pattern of `pattern_len` lines may take in `lines_len`
/// lines, at or after `start` (with `at_end`, only the one that ends the
/// file); none when the pattern is longer than the file.
fn starts(
    lines_len: usize,
    pattern_len: usize,
    start: usize,
    at_end: bool,
) -> std::ops::RangeInclusive<usize> {
    match lines_len.checked_sub(pattern_len) {
        Some(last) => (if at_end { last } else { start })..=last,
        #[allow(clippy::reversed_empty_ranges)]
        None => 1..=0,
    }
}

/// Every start at or after `start` (with `at_end`, only the position that
/// ends the file) where `pattern`, which the reference found only at the
/// loose `level`, fits as loosely: at that level, or by any of the
/// reference's other normalisations that keep what `level` kept (a line's
/// indentation, for a match that needed only trailing white space ignored:
/// `"make test"` fits `“make test”` as well as `"make test"  `).
pub fn loose_places<L: AsRef<str>>(
    lines: &[L],
    pattern: &[&str],
    start: usize,
    at_end: bool,
    level: MatchLevel,
) -> Vec<usize> {
    let fits = |file: &str, patch: &str| match level {
        MatchLevel::Exact => file == patch,
        MatchLevel::TrailingSpace => {
            let (file, patch) = (file.trim_end(), patch.trim_end());
            file.chars().map(normalise).eq(patch.chars().map(normalise))
        }
        MatchLevel::Trimmed | MatchLevel::Unicode => MatchLevel::Unicode.equal(file, patch),
    };
    starts(lines.len(), pattern.len(), start, at_end)
        .filter(|&at| {
            pattern
                .iter()
                .zip(&lines[at..])
                .all(|(p, l)| fits(l.as_ref(), p))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_exact_match_later_beats_a_loose_one_earlier() {
        let lines = ["a  ", "b", "a"];
        assert_eq!(seek(&lines, &["a"], 0, false), Some((2, MatchLevel::Exact)));
        assert_eq!(
            seek(&lines, &["a"], 0, false).map(|f| f.1.name()),
            Some("exact")
        );
    }

    #[test]
    fn levels_go_from_trailing_space_to_unicode() {
        assert_eq!(
            seek(&["x  "], &["x"], 0, false),
            Some((0, MatchLevel::TrailingSpace))
        );
        assert_eq!(
            seek(&["  x"], &["x"], 0, false),
            Some((0, MatchLevel::Trimmed))
        );
        assert_eq!(
            seek(&["a – b"], &["a - b"], 0, false),
            Some((0, MatchLevel::Unicode))
        );
        assert_eq!(seek(&["a … b"], &["a ... b"], 0, false), None);
    }

    #[test]
    fn end_of_file_tries_only_the_last_position() {
        let lines = ["}", "x", "}"];
        assert_eq!(seek(&lines, &["}"], 0, true), Some((2, MatchLevel::Exact)));
        assert_eq!(seek(&lines, &["x"], 0, true), None);
    }

    /// A pattern found only with trailing spaces ignored fits a line
    /// that differs by its quote style as loosely, not one indented
    /// otherwise; found only trimmed, it fits every indentation.
    #[test]
    fn loose_places_keep_what_the_level_kept() {
        let lines = [
            "run \u{201c}x\u{201d}",
            "run \"x\"  ",
            "    run \"x\"",
            "run \"y\"",
        ];
        let pattern = ["run \"x\""];
        assert_eq!(
            loose_places(&lines, &pattern, 0, false, MatchLevel::TrailingSpace),
            vec![0, 1]
        );
        assert_eq!(
            loose_places(&lines, &pattern, 0, false, MatchLevel::Trimmed),
            vec![0, 1, 2]
        );
        assert_eq!(
            loose_places(&lines, &pattern, 1, false, MatchLevel::Trimmed),
            vec![1, 2]
        );
    }
}
