//! Gemini CLI 0.61.0's `calculateReplacement` (`tools/edit.ts`): the
//! strategies `exact`, `flexible`, `regex` and `fuzzy`, tried in that
//! order on the file's text (CRLF already made LF), the first one that
//! returns a result wins.

use super::js;
use super::levenshtein::Pattern;

/// `FUZZY_MATCH_THRESHOLD`: a window's weighted distance per character of
/// `old_string` may be at most this.
const FUZZY_MATCH_THRESHOLD: f64 = 0.1;
/// `WHITESPACE_PENALTY_FACTOR`: a whitespace-only difference costs this.
const WHITESPACE_PENALTY_FACTOR: f64 = 0.1;
/// The fuzzy stage is skipped when `lines * len(old_string)^2` exceeds this.
const FUZZY_WORK_LIMIT: f64 = 400_000_000.0;
/// `old_string` shorter than this (UTF-16 units) is never fuzzy-matched.
const FUZZY_MIN_LENGTH: usize = 10;

/// What a strategy returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replacement {
    /// The file's text afterwards (LF; before the CRLF restore).
    pub new_content: String,
    /// How many places matched (the exact stage counts them also when it
    /// refuses to replace several).
    pub occurrences: usize,
    /// The strategy's telemetry name.
    pub stage: &'static str,
    /// For the fuzzy stage, the 1-based line ranges replaced, sorted.
    pub fuzzy_ranges: Vec<(usize, usize)>,
    /// For the flexible stage, the 1-based line ranges of the windows it
    /// replaced, in order (each a whole window: a line the new text
    /// leaves as it was is still in it).
    pub flexible_ranges: Vec<(usize, usize)>,
    /// The first place replaced: byte offset in the text, the text found
    /// there, the text written in its place.
    pub first: Option<(usize, String, String)>,
}

/// `calculateReplacement` once `old_string` is known to be non-empty
/// after CRLF normalization; `None` when no strategy matched.
pub fn calculate(
    content: &str,
    old_raw: &str,
    new_raw: &str,
    allow_multiple: bool,
) -> Option<Replacement> {
    let search = old_raw.replace("\r\n", "\n");
    let replace = new_raw.replace("\r\n", "\n");
    exact(content, &search, &replace, allow_multiple)
        .or_else(|| flexible(content, &search, &replace, new_raw.is_empty()))
        .or_else(|| regex(content, &search, &replace, allow_multiple))
        .or_else(|| fuzzy(content, old_raw, &search, &replace))
}

/// `calculateExactReplacement`: every occurrence replaced literally; with
/// several and no `allow_multiple`, nothing replaced (the count fails).
fn exact(content: &str, search: &str, replace: &str, allow_multiple: bool) -> Option<Replacement> {
    // `match_indices` and `replace` find the same non-overlapping places,
    // left to right, as a byte search does (`search` is never empty here:
    // `calculate` is called only for a non-empty `old_string`).
    let positions: Vec<usize> = if search.is_empty() {
        content.match_indices(search).map(|(i, _)| i).collect()
    } else {
        memchr::memmem::find_iter(content.as_bytes(), search.as_bytes()).collect()
    };
    exact_result(content, search, replace, allow_multiple, &positions, || {
        if search.is_empty() {
            content.replace(search, replace)
        } else {
            replaced_at(content, &positions, search.len(), replace)
        }
    })
}

/// What `calculateExactReplacement` returns once `search` is found at
/// `positions` (ascending): `replaced` gives the text with each of them
/// replaced, asked for only when they are (one place, or several allowed).
fn exact_result(
    content: &str,
    search: &str,
    replace: &str,
    allow_multiple: bool,
    positions: &[usize],
    replaced: impl FnOnce() -> String,
) -> Option<Replacement> {
    let occurrences = positions.len();
    let first = positions
        .first()
        .map(|&i| (i, search.to_string(), replace.to_string()));
    if !allow_multiple && occurrences > 1 {
        return Some(Replacement {
            new_content: content.to_string(),
            occurrences,
            stage: "exact",
            fuzzy_ranges: Vec::new(),
            flexible_ranges: Vec::new(),
            first,
        });
    }
    if occurrences == 0 {
        return None;
    }
    Some(Replacement {
        new_content: js::restore_trailing_newline(content, replaced()),
        occurrences,
        stage: "exact",
        fuzzy_ranges: Vec::new(),
        flexible_ranges: Vec::new(),
        first,
    })
}

/// `content` with the `len` bytes at each of `positions` (ascending, not
/// overlapping) replaced by `replace`: `str::replace` given the places.
fn replaced_at(content: &str, positions: &[usize], len: usize, replace: &str) -> String {
    let mut out = String::with_capacity(content.len() + positions.len() * replace.len());
    let mut last = 0;
    for &at in positions {
        out.push_str(&content[last..at]);
        out.push_str(replace);
        last = at + len;
    }
    out.push_str(&content[last..]);
    out
}

/// `^([ \t]*)` of a line.
fn indentation(line: &str) -> &str {
    let end = line
        .find(|c: char| c != ' ' && c != '\t')
        .unwrap_or(line.len());
    &line[..end]
}

/// `applyIndentation(lines, target)`: the first line's indentation is the
/// reference; lines starting with it get it swapped for `target`, others get
/// `target` + their `trimStart()`; blank lines become empty.
pub fn apply_indentation(lines: &[&str], target: &str) -> Vec<String> {
    let Some(reference) = lines.first() else {
        return Vec::new();
    };
    let reference = indentation(reference);
    lines
        .iter()
        .map(|line| {
            if js::trim(line).is_empty() {
                String::new()
            } else if let Some(rest) = line.strip_prefix(reference) {
                format!("{target}{rest}")
            } else {
                format!("{target}{}", js::trim_start(line))
            }
        })
        .collect()
}

/// Byte offset of `part` (a slice of `whole`) in `whole`.
fn offset_in(whole: &str, part: &str) -> usize {
    part.as_ptr() as usize - whole.as_ptr() as usize
}

/// Whether `window` is a match of the flexible stage: its lines equal
/// `wanted` (the old text's lines, trimmed) after `trim()`.
fn flexible_match(window: &[impl AsRef<str>], wanted: &[&str]) -> bool {
    window
        .iter()
        .zip(wanted)
        .all(|(line, want)| js::trim(line.as_ref()) == *want)
}

/// What the flexible stage writes over a window from `first` to `last`:
/// the new lines re-indented to `first`, with a final newline where `last`
/// has one (unless the new text is empty).
fn flexible_text(replace_lines: &[&str], first: &str, last: &str, new_is_empty: bool) -> String {
    let mut text = apply_indentation(replace_lines, indentation(first)).join("\n");
    if !new_is_empty && last.ends_with('\n') && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The 1-based lines of a window found at `first` (a line of `content`)
/// holding `found`, counted as an edit's lines are (by `\n`; a final line
/// break ends the last line, it starts none).
fn window_lines(content: &str, first: &str, found: &str) -> (usize, usize) {
    let line = crate::dialect::quick::count_newlines(&content[..offset_in(content, first)]) + 1;
    let body = found.strip_suffix('\n').unwrap_or(found);
    (line, line + crate::dialect::quick::count_newlines(body))
}

/// `calculateFlexibleReplacement`: windows of lines equal to `old`'s lines
/// after `trim()` on both sides; every window replaced by `new` re-indented
/// to the window's first line.
fn flexible(content: &str, search: &str, replace: &str, new_is_empty: bool) -> Option<Replacement> {
    let lines = js::match_lines(content);
    let wanted: Vec<&str> = search.split('\n').map(js::trim).collect();
    let replace_lines: Vec<&str> = replace.split('\n').collect();
    let n = wanted.len();
    // The agent replaces each matching window in its array of lines as it
    // goes and moves on by one: the next window starts after the replaced
    // one, on the file's own lines. Here the windows are found on the
    // file's lines alone (`k` the window's first line) and the text joined
    // once at the end: the same windows, the same result.
    let mut occurrences = 0;
    let mut flexible_ranges = Vec::new();
    let mut first = None;
    let mut out: Option<String> = None;
    let mut copied = 0;
    let mut k = 0;
    while k + n <= lines.len() {
        if !flexible_match(&lines[k..k + n], &wanted) {
            k += 1;
            continue;
        }
        occurrences += 1;
        let text = flexible_text(&replace_lines, lines[k], lines[k + n - 1], new_is_empty);
        let found: String = lines[k..k + n].concat();
        flexible_ranges.push(window_lines(content, lines[k], &found));
        if first.is_none() {
            first = Some((offset_in(content, lines[k]), found, text.clone()));
        }
        let joined = out.get_or_insert_with(|| String::with_capacity(content.len()));
        joined.extend(lines[copied..k].iter().copied());
        joined.push_str(&text);
        copied = k + n;
        k += n;
    }
    let mut joined = out?;
    joined.extend(lines[copied..].iter().copied());
    Some(Replacement {
        new_content: js::restore_trailing_newline(content, joined),
        occurrences,
        stage: "flexible",
        fuzzy_ranges: Vec::new(),
        flexible_ranges,
        first,
    })
}

/// The tokens of `calculateRegexReplacement`'s pattern: spaces put around
/// `( ) : [ ] { } > < =`, then split on whitespace.
fn regex_tokens(search: &str) -> Vec<String> {
    let mut spaced = String::with_capacity(search.len() * 2);
    for c in search.chars() {
        if "():[]{}><=".contains(c) {
            spaced.push(' ');
            spaced.push(c);
            spaced.push(' ');
        } else {
            spaced.push(c);
        }
    }
    spaced
        .split(js::is_space)
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// `^([ \t]*)tok1\s*tok2\s*...` tried at `start` (a line start): the end of
/// the match and the captured indentation. Each token begins with a
/// non-whitespace character, so the greedy `[ \t]*` and `\s*` never need to
/// give anything back: one pass decides.
fn regex_match_at(content: &str, start: usize, tokens: &[String]) -> Option<usize> {
    let mut at = start + indentation(&content[start..]).len();
    for (k, token) in tokens.iter().enumerate() {
        if k > 0 {
            let rest = &content[at..];
            at += rest.len() - rest.trim_start_matches(js::is_space).len();
        }
        if !content[at..].starts_with(token.as_str()) {
            return None;
        }
        at += token.len();
    }
    Some(at)
}

/// Every match of the regex stage's pattern (`tokens`, see
/// [`regex_match_at`]), left to right, none starting inside the one
/// before: start and end.
fn regex_places(content: &str, tokens: &[String]) -> Vec<(usize, usize)> {
    let mut matches = Vec::new();
    let mut from = 0;
    for i in js::line_starts(content) {
        if i < from {
            continue;
        }
        if let Some(end) = regex_match_at(content, i, tokens) {
            matches.push((i, end));
            from = end;
        }
    }
    matches
}

/// `calculateRegexReplacement`: the tokens of `old` with any whitespace
/// between them, starting at a line start after spaces or tabs, possibly
/// ending mid-line. All matches count; the first (or, with
/// `allow_multiple`, every) one is replaced by `new` indented like it.
fn regex(content: &str, search: &str, replace: &str, allow_multiple: bool) -> Option<Replacement> {
    let tokens = regex_tokens(search);
    if tokens.is_empty() {
        return None;
    }
    let matches = regex_places(content, &tokens);
    if matches.is_empty() {
        return None;
    }
    let new_lines: Vec<&str> = replace.split('\n').collect();
    let replaced = if allow_multiple {
        &matches[..]
    } else {
        &matches[..1]
    };
    let mut out = String::with_capacity(content.len());
    let mut last = 0;
    let mut first = None;
    for &(start, end) in replaced {
        let indent = indentation(&content[start..]);
        let text = apply_indentation(&new_lines, indent).join("\n");
        out.push_str(&content[last..start]);
        out.push_str(&text);
        if first.is_none() {
            first = Some((start, content[start..end].to_string(), text));
        }
        last = end;
    }
    out.push_str(&content[last..]);
    Some(Replacement {
        new_content: js::restore_trailing_newline(content, out),
        occurrences: matches.len(),
        stage: "regex",
        fuzzy_ranges: Vec::new(),
        flexible_ranges: Vec::new(),
        first,
    })
}

/// A UTF-16 unit that JS's `\s` matches (every JS whitespace is one unit).
fn is_space_unit(unit: u16) -> bool {
    char::from_u32(u32::from(unit)).is_some_and(js::is_space)
}

/// `stripWhitespace` on UTF-16 units.
fn strip_space(units: &[u16]) -> Vec<u16> {
    units
        .iter()
        .copied()
        .filter(|&u| !is_space_unit(u))
        .collect()
}

/// `calculateFuzzyReplacement`: windows of as many lines as `old` has,
/// `trimEnd()`ed and joined, scored `(d_norm + 0.1 * (d_raw - d_norm)) /
/// len(old)` with `d_raw` the Levenshtein distance and `d_norm` the same
/// without whitespace; every non-overlapping window scoring at most 0.1,
/// best first, is replaced by `new` re-indented to its first line.
///
/// Same candidates and scores as the agent's code, with less work: the
/// distances are bit-parallel (see `levenshtein`); `d_raw >= d_norm` (taking
/// whitespace out of both texts never lengthens an alignment), so the score
/// is at least `d_norm / len` and a window is dropped, with the same result,
/// as soon as a lower bound of `d_norm` (the difference of the stripped
/// lengths, then `d_norm` itself) exceeds a tenth of `len`: `d_raw` is
/// computed only for windows that can still qualify.
fn fuzzy(content: &str, old_raw: &str, search: &str, replace: &str) -> Option<Replacement> {
    let old_length = js::utf16_len(old_raw);
    if old_length < FUZZY_MIN_LENGTH {
        return None;
    }
    let source_lines = js::match_lines(content);
    let search_lines: Vec<&str> = js::match_lines(search)
        .into_iter()
        .map(js::trim_end)
        .collect();
    let old_length = old_length as f64;
    if source_lines.len() as f64 * (old_length * old_length) > FUZZY_WORK_LIMIT {
        return None;
    }
    if search_lines.is_empty() {
        return None;
    }
    let n = search_lines.len();
    let search_units: Vec<u16> = search_lines.join("\n").encode_utf16().collect();
    let search_len = search_units.len();
    let raw_pattern = Pattern::new(&search_units);
    let norm_pattern = Pattern::new(&strip_space(&search_units));
    let trimmed: Vec<Vec<u16>> = source_lines
        .iter()
        .map(|l| js::trim_end(l).encode_utf16().collect())
        .collect();
    // Units left per line once whitespace is stripped: `d_norm` is at least
    // the difference of the stripped lengths, a bound that rejects most
    // windows before any distance is computed.
    let stripped_len: Vec<usize> = trimmed.iter().map(|l| strip_space(l).len()).collect();
    let search_stripped_len = strip_space(&search_units).len();
    let mut window: Vec<u16> = Vec::new();
    let mut window_stripped: Vec<u16> = Vec::new();
    let mut candidates: Vec<(usize, f64)> = Vec::new();
    if source_lines.len() >= n && search_len > 0 {
        for i in 0..=source_lines.len() - n {
            let window_len: usize = trimmed[i..i + n].iter().map(Vec::len).sum::<usize>() + (n - 1);
            let length_diff = window_len.abs_diff(search_len) as f64;
            if length_diff / search_len as f64 > FUZZY_MATCH_THRESHOLD / WHITESPACE_PENALTY_FACTOR {
                continue;
            }
            let norm_len: usize = stripped_len[i..i + n].iter().sum();
            if 10 * norm_len.abs_diff(search_stripped_len) > search_len {
                continue;
            }
            window.clear();
            for (k, line) in trimmed[i..i + n].iter().enumerate() {
                if k > 0 {
                    window.push(u16::from(b'\n'));
                }
                window.extend_from_slice(line);
            }
            window_stripped.clear();
            window_stripped.extend(window.iter().copied().filter(|&u| !is_space_unit(u)));
            let d_norm = norm_pattern.distance(window_stripped.iter().copied());
            if 10 * d_norm > search_len {
                continue;
            }
            let d_raw = raw_pattern.distance(window.iter().copied());
            let weighted =
                d_norm as f64 + (d_raw as f64 - d_norm as f64) * WHITESPACE_PENALTY_FACTOR;
            let score = weighted / search_len as f64;
            if score <= FUZZY_MATCH_THRESHOLD {
                candidates.push((i, score));
            }
        }
    }
    // A search text of only whitespace (length 0 after trimEnd) scores NaN
    // or infinity in the agent's code: never a candidate.
    if candidates.is_empty() {
        return None;
    }
    candidates.sort_by(|a, b| {
        a.1.partial_cmp(&b.1)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.0.cmp(&b.0))
    });
    let mut selected: Vec<usize> = Vec::new();
    for &(index, _) in &candidates {
        if !selected.iter().any(|&m| m.abs_diff(index) < n) {
            selected.push(index);
        }
    }
    let mut fuzzy_ranges: Vec<(usize, usize)> = selected.iter().map(|&i| (i + 1, i + n)).collect();
    fuzzy_ranges.sort();
    let new_lines: Vec<&str> = replace.split('\n').collect();
    let mut lines: Vec<std::borrow::Cow<str>> = source_lines
        .iter()
        .map(|l| std::borrow::Cow::Borrowed(*l))
        .collect();
    let mut by_position = selected.clone();
    by_position.sort_unstable_by(|a, b| b.cmp(a));
    let mut first = None;
    for &index in &by_position {
        let target = indentation(source_lines[index]);
        let mut text = apply_indentation(&new_lines, target).join("\n");
        if source_lines[index + n - 1].ends_with('\n') {
            text.push('\n');
        }
        // Bottom to top: the last one handled is the topmost.
        first = Some((
            offset_in(content, source_lines[index]),
            source_lines[index..index + n].concat(),
            text.clone(),
        ));
        lines.splice(index..index + n, [std::borrow::Cow::Owned(text)]);
    }
    Some(Replacement {
        new_content: js::restore_trailing_newline(content, lines.concat()),
        occurrences: selected.len(),
        stage: "fuzzy",
        fuzzy_ranges,
        flexible_ranges: Vec::new(),
        first,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `calculateExactReplacement` as first ported, with `str`'s own
    /// search and replace: the definition the byte search must agree with
    /// (the places found and the text they give).
    fn exact_by_str(content: &str, search: &str, replace: &str, all: bool) -> Option<Replacement> {
        let positions: Vec<usize> = content.match_indices(search).map(|(i, _)| i).collect();
        exact_result(content, search, replace, all, &positions, || {
            content.replace(search, replace)
        })
    }

    /// `calculateFlexibleReplacement` as first ported: the agent's array of
    /// lines, each matching window spliced out as it is found.
    fn flexible_by_splice(
        content: &str,
        search: &str,
        replace: &str,
        new_is_empty: bool,
    ) -> Option<Replacement> {
        let original_lines = js::match_lines(content);
        let mut lines: Vec<std::borrow::Cow<str>> = original_lines
            .iter()
            .map(|l| std::borrow::Cow::Borrowed(*l))
            .collect();
        let wanted: Vec<&str> = search.split('\n').map(js::trim).collect();
        let replace_lines: Vec<&str> = replace.split('\n').collect();
        let n = wanted.len();
        let mut occurrences = 0;
        let mut first = None;
        let mut flexible_ranges = Vec::new();
        // The lines the windows spliced before `i` took out of the array.
        let mut spliced = 0;
        let mut i = 0;
        while i + n <= lines.len() {
            if flexible_match(&lines[i..i + n], &wanted) {
                occurrences += 1;
                let text =
                    flexible_text(&replace_lines, &lines[i], &lines[i + n - 1], new_is_empty);
                let found: String = lines[i..i + n].concat();
                flexible_ranges.push(window_lines(content, original_lines[i + spliced], &found));
                if first.is_none() {
                    first = Some((offset_in(content, original_lines[i]), found, text.clone()));
                }
                lines.splice(i..i + n, [std::borrow::Cow::Owned(text)]);
                spliced += n - 1;
            }
            i += 1;
        }
        if occurrences == 0 {
            return None;
        }
        Some(Replacement {
            new_content: js::restore_trailing_newline(content, lines.concat()),
            occurrences,
            stage: "flexible",
            fuzzy_ranges: Vec::new(),
            flexible_ranges,
            first,
        })
    }

    /// The regex stage's places as first ported, a character at a time.
    fn regex_places_by_chars(content: &str, tokens: &[String]) -> Vec<(usize, usize)> {
        let mut matches = Vec::new();
        let mut from = 0;
        let mut previous_terminator = true;
        for (i, c) in content.char_indices() {
            let line_start = previous_terminator;
            previous_terminator = js::is_line_terminator(c);
            if i < from || !line_start {
                continue;
            }
            if let Some(end) = regex_match_at(content, i, tokens) {
                matches.push((i, end));
                from = end;
            }
        }
        matches
    }

    #[test]
    fn flexible_replaces_every_window_once() {
        let content = "  a\n  b\n a\n b\nx\n";
        let got = flexible(content, "a\nb", "c", false).unwrap();
        assert_eq!(got.new_content, "  c\n c\nx\n");
        assert_eq!(got.occurrences, 2);
        // Each window whole: lines 1-2 and lines 3-4.
        assert_eq!(got.flexible_ranges, [(1, 2), (3, 4)]);
        assert_eq!(
            got,
            flexible_by_splice(content, "a\nb", "c", false).unwrap()
        );
    }

    proptest::proptest! {
        /// Files of a few short lines, so that windows repeat, overlap and
        /// touch; texts of one to three of those lines.
        #[test]
        fn the_stages_agree_with_their_first_ports(
            content in "([ \t]{0,2}[ab=(]{0,2}[ \t]{0,1}(\n|\r\n|\r|\u{2028})){0,12}[ab]{0,2}",
            search in "([ \t]{0,1}[ab=(]{1,2}[ \t]{0,1}\n){0,2}[ \t]{0,1}[ab=(]{0,2}\n?",
            replace in "([ \t]{0,2}[xy]{0,2}\n){0,2}[xy]{0,1}",
            all in proptest::bool::ANY,
        ) {
            if !search.is_empty() {
                proptest::prop_assert_eq!(
                    exact(&content, &search, &replace, all),
                    exact_by_str(&content, &search, &replace, all)
                );
            }
            let empty = replace.is_empty();
            proptest::prop_assert_eq!(
                flexible(&content, &search, &replace, empty),
                flexible_by_splice(&content, &search, &replace, empty)
            );
            let tokens = regex_tokens(&search);
            proptest::prop_assert_eq!(
                regex_places(&content, &tokens),
                regex_places_by_chars(&content, &tokens)
            );
        }
    }
}
