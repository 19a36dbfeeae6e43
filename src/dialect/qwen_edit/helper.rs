//! Qwen Code 0.24.4's `packages/core/src/utils/editHelper.ts` (a rewrite of
//! what Gemini CLI's edit tool had: nothing here is Gemini's code):
//! `normalizeEditStrings` finds the file's own text for `old_string`
//! (`findMatchedSlice`), `maybeAugmentOldStringForDeletion`,
//! `countOccurrences` and `extractEditSnippet`.

/// `value.trimEnd()` (JS `WhiteSpace` + `LineTerminator`: U+FEFF
/// included, U+0085 not).
use crate::engine::js::js_trim_end as trim_end;

/// `UNICODE_EQUIVALENT_MAP`: dashes, curly quotes and space variants to
/// their ASCII form; one character for one (and one UTF-16 unit for one).
/// The same table as Codex's last seek pass.
use crate::dialect::apply_patch::seek::normalise as equivalent;

/// `normalizeBasicCharacters(text)`, borrowed when nothing changes (every
/// character [`equivalent`] maps is outside ASCII: an ASCII text is its
/// own normal form).
fn normalized(text: &str) -> std::borrow::Cow<'_, str> {
    if text.is_ascii() || !text.chars().any(|c| equivalent(c) != c) {
        return std::borrow::Cow::Borrowed(text);
    }
    std::borrow::Cow::Owned(text.chars().map(equivalent).collect())
}

/// `normalizeLineForComparison(value)`.
fn normalize_line_for_comparison(value: &str) -> std::borrow::Cow<'_, str> {
    match normalized(value) {
        std::borrow::Cow::Borrowed(same) => std::borrow::Cow::Borrowed(trim_end(same)),
        std::borrow::Cow::Owned(changed) => std::borrow::Cow::Owned(trim_end(&changed).to_string()),
    }
}

/// How `findMatchedSlice` found the text (the oracle's stage names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pass {
    Literal,
    NormalizeBasicCharacters,
    LineIdentity,
    LineTrimEnd,
    LineNormalized,
}

impl Pass {
    pub fn name(self) -> &'static str {
        match self {
            Pass::Literal => "literal",
            Pass::NormalizeBasicCharacters => "normalizeBasicCharacters",
            Pass::LineIdentity => "line_pass_identity",
            Pass::LineTrimEnd => "line_pass_trimEnd",
            Pass::LineNormalized => "line_normalizeLineForComparison",
        }
    }
}

/// What `findMatchedSlice` returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchedSlice {
    /// The file's own text that matched.
    pub slice: String,
    /// Byte offset of the slice in the file's text.
    pub offset: usize,
    /// The pattern's final empty line was dropped to match (then one
    /// trailing newline of `new_string` is dropped too).
    pub removed_trailing_final_empty_line: bool,
    pub pass: Pass,
}

/// `seekSequenceWithTransform(lines, pattern, transform)`: the first line
/// index where every pattern line equals the file line, both transformed
/// (`lines` and `pattern` given already transformed: each file line is
/// transformed once, not once per window as in the agent's loop).
fn seek<S: AsRef<str>>(lines: &[S], pattern: &[S]) -> Option<usize> {
    if pattern.is_empty() {
        return Some(0);
    }
    if pattern.len() > lines.len() {
        return None;
    }
    (0..=lines.len() - pattern.len()).find(|&i| {
        pattern
            .iter()
            .zip(&lines[i..])
            .all(|(want, line)| want.as_ref() == line.as_ref())
    })
}

/// `attemptMatch`: `LINE_COMPARISON_PASSES` (identity, trimEnd), then
/// `normalizeLineForComparison`.
fn attempt_match(lines: &[&str], pattern: &[&str]) -> Option<(usize, Pass)> {
    if pattern.len() > lines.len() {
        return None;
    }
    if let Some(i) = seek(lines, pattern) {
        return Some((i, Pass::LineIdentity));
    }
    fn trimmed<'a>(v: &[&'a str]) -> Vec<&'a str> {
        v.iter().map(|s| trim_end(s)).collect()
    }
    if let Some(i) = seek(&trimmed(lines), &trimmed(pattern)) {
        return Some((i, Pass::LineTrimEnd));
    }
    fn normalized_lines<'a>(v: &[&'a str]) -> Vec<std::borrow::Cow<'a, str>> {
        v.iter().map(|s| normalize_line_for_comparison(s)).collect()
    }
    seek(&normalized_lines(lines), &normalized_lines(pattern)).map(|i| (i, Pass::LineNormalized))
}

/// `buildLineIndex(text).offsets`: each line's byte offset, then the end.
fn line_offsets(lines: &[&str], text: &str) -> Vec<usize> {
    let mut offsets = Vec::with_capacity(lines.len() + 1);
    let mut cursor = 0;
    for line in lines {
        offsets.push(cursor);
        cursor += line.len() + 1;
    }
    offsets.push(text.len());
    offsets
}

/// `sliceFromLines`: `count` lines from `start` (at least one), with the
/// newline after the last when asked and there is a next line.
fn slice_from_lines(
    offsets: &[usize],
    lines: &[&str],
    start: usize,
    count: usize,
    include_trailing_newline: bool,
) -> (usize, usize) {
    let begin = offsets[start];
    let last = start + count - 1;
    let mut end = offsets[last] + lines[last].len();
    if include_trailing_newline {
        end = offsets[start + count];
    }
    (begin, end)
}

/// `findLineBasedMatch(haystack, needle)`.
fn find_line_based_match(haystack: &str, needle: &str) -> Option<MatchedSlice> {
    let lines: Vec<&str> = crate::dialect::quick::split_newlines(haystack);
    let offsets = line_offsets(&lines, haystack);
    let pattern: Vec<&str> = needle.split('\n').collect();
    let ends_with_newline = needle.ends_with('\n');
    // `attemptMatch` of `pattern` and, where it matched, the file's slice
    // of its lines (with the newline after them when `newline`).
    let matched = |pattern: &[&str], newline: bool, removed_trailing_final_empty_line: bool| {
        let (index, pass) = attempt_match(&lines, pattern)?;
        let (begin, end) = slice_from_lines(&offsets, &lines, index, pattern.len(), newline);
        Some(MatchedSlice {
            slice: haystack[begin..end].to_string(),
            offset: begin,
            removed_trailing_final_empty_line,
            pass,
        })
    };
    if let Some(found) = matched(&pattern, ends_with_newline, false) {
        return Some(found);
    }
    if pattern.last() == Some(&"") {
        let trimmed = &pattern[..pattern.len() - 1];
        if trimmed.is_empty() {
            return None;
        }
        return matched(trimmed, false, true);
    }
    None
}

/// `findMatchedSlice(haystack, needle)`: literal, then the same after
/// `normalizeBasicCharacters` on both sides (the file's own text at that
/// place is returned), then line by line.
pub fn find_matched_slice(haystack: &str, needle: &str) -> Option<MatchedSlice> {
    if needle.is_empty() {
        return None;
    }
    if let Some(offset) = crate::dialect::quick::find(haystack, needle) {
        return Some(MatchedSlice {
            slice: needle.to_string(),
            offset,
            removed_trailing_final_empty_line: false,
            pass: Pass::Literal,
        });
    }
    let normalized_haystack = normalized(haystack);
    let normalized_needle = normalized(needle);
    // Both unchanged: the literal search above already failed.
    let unchanged = matches!(
        (&normalized_haystack, &normalized_needle),
        (std::borrow::Cow::Borrowed(_), std::borrow::Cow::Borrowed(_))
    );
    let found = (!unchanged)
        .then(|| normalized_haystack.find(normalized_needle.as_ref()))
        .flatten();
    if let Some(byte_index) = found {
        // The map is one character for one: the same characters of the
        // original text (the agent slices the same UTF-16 range).
        let char_index = normalized_haystack[..byte_index].chars().count();
        let mut starts = haystack.char_indices().map(|(i, _)| i).skip(char_index);
        let begin = starts.next().unwrap_or(haystack.len());
        let length = needle.chars().count();
        let end = haystack[begin..]
            .char_indices()
            .nth(length)
            .map_or(haystack.len(), |(i, _)| begin + i);
        return Some(MatchedSlice {
            slice: haystack[begin..end].to_string(),
            offset: begin,
            removed_trailing_final_empty_line: false,
            pass: Pass::NormalizeBasicCharacters,
        });
    }
    find_line_based_match(haystack, needle)
}

/// `removeTrailingNewline`: one `\r\n`, `\n` or `\r` off the end.
pub fn remove_trailing_newline(text: &str) -> &str {
    text.strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .or_else(|| text.strip_suffix('\r'))
        .unwrap_or(text)
}

/// `maybeAugmentOldStringForDeletion`: deleting text that is followed by a
/// newline deletes the newline too.
pub fn augment_for_deletion(content: &str, old: &str, new: &str) -> String {
    if old.is_empty() || !new.is_empty() || old.ends_with('\n') {
        return old.to_string();
    }
    let candidate = format!("{old}\n");
    if crate::dialect::quick::contains(content, &candidate) {
        candidate
    } else {
        old.to_string()
    }
}

/// `countOccurrences`: non-overlapping, 0 for an empty string.
pub fn count_occurrences(source: &str, substr: &str) -> usize {
    if substr.is_empty() {
        0
    } else {
        crate::dialect::quick::count(source, substr)
    }
}

/// `SNIPPET_CONTEXT_LINES`.
const SNIPPET_CONTEXT_LINES: isize = 4;
/// `SNIPPET_MAX_LINES`: no snippet past this many changed lines.
const SNIPPET_MAX_LINES: isize = 1000;

/// What `extractEditSnippet` returns.
pub struct Snippet {
    pub start_line: usize,
    pub end_line: usize,
    pub total_lines: usize,
    pub content: String,
}

/// `extractEditSnippet(old, new)`: the changed lines of `new` (between the
/// common first and last lines) with 4 lines of context; `None` when
/// nothing changed, the new text is empty, or over 1000 lines changed.
pub fn extract_edit_snippet(old: Option<&str>, new: &str) -> Option<Snippet> {
    let new_lines: Vec<&str> = new.split('\n').collect();
    let total = new_lines.len();
    let Some(old) = old else {
        return Some(Snippet {
            start_line: 1,
            end_line: total,
            total_lines: total,
            content: new.to_string(),
        });
    };
    if old == new || new.is_empty() {
        return None;
    }
    let old_lines: Vec<&str> = old.split('\n').collect();
    let shortest = old_lines.len().min(new_lines.len());
    let mut first = 0;
    while first < shortest && old_lines[first] == new_lines[first] {
        first += 1;
    }
    let first = first as isize;
    let mut old_end = old_lines.len() as isize - 1;
    let mut new_end = new_lines.len() as isize - 1;
    while old_end >= first
        && new_end >= first
        && old_lines[old_end as usize] == new_lines[new_end as usize]
    {
        old_end -= 1;
        new_end -= 1;
    }
    let change_start = first + 1;
    let change_end = new_end + 1;
    if change_end - change_start > SNIPPET_MAX_LINES {
        return None;
    }
    let start = (change_start - SNIPPET_CONTEXT_LINES).max(1);
    let end = (change_end + SNIPPET_CONTEXT_LINES).min(total as isize);
    let from = (start - 1) as usize;
    let to = (end.max(0) as usize).max(from);
    Some(Snippet {
        start_line: start as usize,
        end_line: end as usize,
        total_lines: total,
        content: new_lines[from..to].join("\n"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalized_characters_keep_the_files_own_text() {
        let found = find_matched_slice("say \u{201c}hi\u{201d} \u{2014} ok", "\"hi\" - ok");
        let found = found.expect("matches after normalization");
        assert_eq!(found.pass, Pass::NormalizeBasicCharacters);
        assert_eq!(found.slice, "\u{201c}hi\u{201d} \u{2014} ok");
    }

    #[test]
    fn trailing_spaces_match_on_the_trim_end_pass() {
        let found = find_matched_slice("a  \nb\t\nc\n", "a\nb").expect("matches");
        assert_eq!(found.pass, Pass::LineTrimEnd);
        assert_eq!(found.slice, "a  \nb\t");
    }

    #[test]
    fn a_final_empty_pattern_line_may_be_dropped() {
        let found = find_matched_slice("x\nlast", "last\n").expect("matches");
        assert_eq!(found.pass, Pass::LineIdentity);
        assert!(found.removed_trailing_final_empty_line);
        assert_eq!(found.slice, "last");
    }

    #[test]
    fn leading_whitespace_is_never_forgiven() {
        assert_eq!(find_matched_slice("\ta\n", "  a\n"), None);
    }

    #[test]
    fn deletion_takes_the_following_newline() {
        assert_eq!(augment_for_deletion("a\nb\n", "a", ""), "a\n");
        assert_eq!(augment_for_deletion("a\nb\n", "a", "x"), "a");
    }

    #[test]
    fn the_snippet_shows_four_lines_around_the_change() {
        let old: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l10\n", "X\n");
        let snippet = extract_edit_snippet(Some(&old), &new).expect("a change");
        assert_eq!(
            (snippet.start_line, snippet.end_line, snippet.total_lines),
            (6, 14, 21)
        );
        assert_eq!(snippet.content, "l6\nl7\nl8\nl9\nX\nl11\nl12\nl13\nl14");
    }
}
