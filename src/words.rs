//! Numbers and ranges in words, the same way everywhere a person reads them.

/// `n` and the noun, singular for one: `1 block`, `3 blocks`, `0 files`.
/// `noun` is the singular; the plural adds an `s` (every noun srview counts
/// takes one).
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// A 1-based inclusive line range after a noun: `line 7`, `lines 7-9`.
pub fn line_range(noun: &str, start: usize, end: usize) -> String {
    if end > start {
        format!("{noun}s {start}-{end}")
    } else {
        format!("{noun} {start}")
    }
}

/// At most `limit` characters of `line`, `...` after a cut.
pub fn clipped(line: &str, limit: usize) -> String {
    match line.char_indices().nth(limit) {
        Some((at, _)) => format!("{}...", &line[..at]),
        None => line.to_string(),
    }
}

/// At most `limit` characters of the end of `line`, `...` before a cut.
pub fn clipped_start(line: &str, limit: usize) -> String {
    let n = line.chars().count();
    match line.char_indices().nth(n.saturating_sub(limit)) {
        Some((at, _)) if at > 0 => format!("...{}", &line[at..]),
        _ => line.to_string(),
    }
}

/// Line ranges (1-based, first and last) in words: `lines 2-5 and lines
/// 9-12`, `line 1, line 3 and line 5`.
pub fn line_ranges(ranges: &[(usize, usize)]) -> String {
    let said: Vec<String> = ranges
        .iter()
        .map(|&(a, b)| line_range("line", a, b))
        .collect();
    match said.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// `text` (srview's sentence) naming the agent's own matcher `own`
/// (`Gemini CLI 0.61.0's replace tool`, `Codex's apply_patch`) where it
/// says "the reference", srview's word for the program a dialect
/// reproduces, which neither the user nor the model knows by that name;
/// capitalized at the start of a sentence.
pub fn own_words(own: &str, text: &str) -> String {
    if !text.contains("the reference") && !text.contains("The reference") {
        return text.to_string();
    }
    let mut capital = own.to_string();
    if let Some(first) = capital.get(..1) {
        capital.replace_range(..1, &first.to_uppercase());
    }
    text.replace("The reference", &capital)
        .replace("the reference", own)
}

/// `word` after its indefinite article, by its first letter: `an
/// assistant`, `an old_string`, `a session_meta`. A word starting with `u`
/// takes `a` (`a user`, `a usage`: the kinds srview names so begin with a
/// "you" sound).
pub fn with_article(word: &str) -> String {
    let vowel = word
        .chars()
        .next()
        .is_some_and(|c| matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o'));
    let article = if vowel { "an" } else { "a" };
    format!("{article} {word}")
}

/// A similarity cut (never rounded up) to three decimals, as JSON gives
/// every similarity: a region below a threshold never reads as reaching it.
pub fn similarity_in_thousandths(value: f64) -> f64 {
    (value * 1000.0).floor() / 1000.0
}

/// A similarity in [0, 1] with two decimals, never rounded up: only an
/// identical text shows `1.00`, and a region below a threshold never reads
/// as at or above it.
pub fn similarity(value: f64) -> String {
    let hundredths = (value.clamp(0.0, 1.0) * 100.0 + 1e-9).floor() / 100.0;
    format!("{hundredths:.2}")
}

/// `word` as one word of a POSIX shell's command line: as it is when it holds
/// only characters no shell reads specially, else in single quotes.
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-=,+:@%".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn counts_agree_with_their_number() {
        assert_eq!(count(1, "block"), "1 block");
        assert_eq!(count(0, "block"), "0 blocks");
        assert_eq!(count(2, "file"), "2 files");
    }

    #[test]
    fn ranges_of_one_line_are_singular() {
        assert_eq!(line_range("line", 3, 3), "line 3");
        assert_eq!(line_range("line", 3, 5), "lines 3-5");
        assert_eq!(line_range("SEARCH line", 3, 3), "SEARCH line 3");
    }

    #[test]
    fn a_word_takes_an_before_a_vowel() {
        assert_cases(
            with_article,
            &[
                ("assistant", "an assistant"),
                ("old_string", "an old_string"),
                ("Edit", "an Edit"),
                ("item.completed", "an item.completed"),
                ("session_meta", "a session_meta"),
                ("user", "a user"),
                ("", "a "),
            ],
        );
    }

    #[test]
    fn a_near_match_never_shows_as_identical() {
        assert_cases(
            similarity,
            &[
                (0.996, "0.99"),
                (0.999_999, "0.99"),
                (1.0, "1.00"),
                (0.34, "0.34"),
                (0.6, "0.60"),
                (0.595, "0.59"),
            ],
        );
    }
}
