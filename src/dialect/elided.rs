//! A text that stands in for lines it leaves out: a placeholder line
//! (`# ... rest of the file unchanged ...`, `// existing code`) where the
//! text it replaces had lines the new text no longer holds. Models write
//! such texts for "the rest stays as it is"; applied, the lines are gone.
//! A whole-file write (the gate), an exact-string edit's new text and a
//! patch hunk's added lines are checked alike.

use std::collections::{HashMap, HashSet};

/// Where a new text stands in for lines it leaves out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Elided {
    /// 1-based line of the new text holding the placeholder.
    pub line: usize,
    /// The placeholder line, trimmed.
    pub placeholder: String,
    /// How many non-blank lines of the old text the new text no longer
    /// holds (each line counted as often as it stands).
    pub lost: usize,
}

/// Whether `new`, replacing `old`, stands in for lines it leaves out: a
/// placeholder line ([`is_placeholder`]) `old` does not hold, while lines
/// of `old` are missing from `new`. `None` otherwise (most texts hold no
/// placeholder: `old` is looked at only for one that does).
pub fn elided(old: &str, new: &str) -> Option<Elided> {
    let mut placeholders = new
        .lines()
        .enumerate()
        .filter(|(_, line)| is_placeholder(line))
        .peekable();
    placeholders.peek()?;
    let held: HashSet<&str> = old.lines().map(str::trim).collect();
    let (number, placeholder) = placeholders.find(|(_, line)| !held.contains(line.trim()))?;
    let mut kept = HashMap::<&str, usize>::new();
    for line in new.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *kept.entry(line).or_default() += 1;
    }
    let lost = old
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .filter(|line| match kept.get_mut(line) {
            Some(left) if *left > 0 => {
                *left -= 1;
                false
            }
            _ => true,
        })
        .count();
    (lost > 0).then(|| Elided {
        line: number + 1,
        placeholder: placeholder.trim().to_string(),
        lost,
    })
}

/// Whether a line stands for lines left out: a comment opening with an
/// ellipsis (`# ...`, `// ... existing code ...`, `/* … */`, `<!-- ... -->`,
/// `(...)`), one naming what it leaves out beside an ellipsis (`(rest of
/// methods ...)`, `// unchanged ...`), or a short comment saying so without
/// one (`# Rest of the file remains unchanged`, `# existing code`,
/// `// [unchanged]`, `# (remaining functions unchanged)`, `# [omitted for
/// brevity]`). A bare `...` is code (Python's Ellipsis, a spread), not a
/// placeholder. Only a write that also loses lines of the file is doubted
/// ([`elided`]): a real comment saying "unchanged" costs a question
/// at most.
pub fn is_placeholder(line: &str) -> bool {
    let line = line.trim();
    let bare = line
        .trim_start_matches(['#', '/', '*', '-', ';', '<', '!', '('])
        .trim_start();
    let commented = bare.len() < line.len();
    let ellipsis = bare.contains("...") || bare.contains('\u{2026}');
    let lower = bare.to_lowercase();
    if !ellipsis {
        // Without an ellipsis: a comment of a few words, all about what
        // it leaves out.
        let comment = ["#", "//", "/*", "--", ";", "<!--", "%", "\"\"\""]
            .iter()
            .any(|mark| line.starts_with(mark));
        let says = [
            "rest of",
            "unchanged",
            "existing code",
            "remains the same",
            "remain the same",
            "stays the same",
            "stay the same",
            "omitted",
            "for brevity",
            "remaining code",
            "remaining functions",
            "remaining methods",
        ]
        .iter()
        .any(|words| lower.contains(words));
        return comment && says && bare.split_whitespace().count() <= 10;
    }
    let opens = bare.starts_with("...") || bare.starts_with('\u{2026}');
    let names = [
        "rest of",
        "unchanged",
        "existing code",
        "remaining",
        "omitted",
    ]
    .iter()
    .any(|word| lower.contains(word));
    (commented && opens) || (names && (commented || opens))
}
