//! Unified diffs of one file, as agents record them: undone against the file
//! as it is now (Codex's `FileChange` diff gives the content before), or
//! turned into SEARCH/REPLACE blocks (an Aider udiff hunk, a Codex
//! app-server diff) for srview's applier.

/// Why a diff cannot be undone against a content.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UdiffError {
    /// A `@@` line without the `-a,b +c,d` ranges.
    #[error("hunk header without line ranges: {line}")]
    NoRanges {
        /// The `@@` line.
        line: String,
    },
    /// The hunk's new lines are not where its header says.
    #[error(
        "hunk {} does not fit the current file at line {line} (the file changed after the edit)",
        .hunk + 1
    )]
    Mismatch {
        /// 0-based hunk.
        hunk: usize,
        /// 1-based line of the current file where it was expected.
        line: usize,
    },
}

/// One line of a hunk.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HunkLine {
    kind: u8,
    text: String,
    /// `\ No newline at end of file` follows it.
    no_newline: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Hunk {
    /// 1-based first new line (as the header gives it) and the count.
    new_start: usize,
    new_count: usize,
    lines: Vec<HunkLine>,
}

impl Hunk {
    fn side(&self, keep: u8) -> Vec<(&str, bool)> {
        self.lines
            .iter()
            .filter(|l| l.kind == b' ' || l.kind == keep)
            .map(|l| (l.text.as_str(), !l.no_newline))
            .collect()
    }
}

/// Reads the hunks of `diff` (`---`/`+++` headers and anything before the
/// first `@@` skipped). `ranges`: the `@@` lines must give them.
fn hunks(diff: &str, ranges: bool) -> Result<Vec<Hunk>, UdiffError> {
    let mut out: Vec<Hunk> = Vec::new();
    for line in diff.split('\n') {
        if let Some(rest) = line.strip_prefix("@@") {
            let (new_start, new_count) = match new_range(rest) {
                Some(r) => r,
                None if ranges => {
                    return Err(UdiffError::NoRanges {
                        line: line.to_string(),
                    });
                }
                None => (0, 0),
            };
            out.push(Hunk {
                new_start,
                new_count,
                lines: Vec::new(),
            });
            continue;
        }
        let Some(hunk) = out.last_mut() else { continue };
        if line.starts_with('\\') {
            if let Some(last) = hunk.lines.last_mut() {
                last.no_newline = true;
            }
            continue;
        }
        if line.starts_with("--- ") || line.starts_with("+++ ") {
            continue;
        }
        let (kind, text) = match line.as_bytes().first() {
            Some(b'+') => (b'+', &line[1..]),
            Some(b'-') => (b'-', &line[1..]),
            Some(b' ') => (b' ', &line[1..]),
            // An empty line inside a hunk is an empty context line (the
            // final split piece after the last newline is dropped below).
            _ => (b' ', line),
        };
        hunk.lines.push(HunkLine {
            kind,
            text: text.to_string(),
            no_newline: false,
        });
    }
    // The piece after the diff's final newline is not a line.
    if diff.ends_with('\n')
        && let Some(hunk) = out.last_mut()
        && hunk
            .lines
            .last()
            .is_some_and(|l| l.kind == b' ' && l.text.is_empty())
    {
        hunk.lines.pop();
    }
    Ok(out)
}

/// `+c,d` (or `+c`) in the rest of a `@@` line.
fn new_range(rest: &str) -> Option<(usize, usize)> {
    let plus = rest.split_whitespace().find(|w| w.starts_with('+'))?;
    let mut parts = plus[1..].split(',');
    let start = parts.next()?.parse().ok()?;
    let count = match parts.next() {
        Some(c) => c.parse().ok()?,
        None => 1,
    };
    Some((start, count))
}

/// A content as lines: (text without its `\n`, whether a `\n` ends it).
fn lines_of(content: &str) -> Vec<(&str, bool)> {
    content
        .split_inclusive('\n')
        .map(|l| match l.strip_suffix('\n') {
            Some(t) => (t, true),
            None => (l, false),
        })
        .collect()
}

/// The content before a diff, from the content after it: each hunk's new
/// lines must be where its header says, and are replaced by its old lines.
pub fn reverse_apply(after: &str, diff: &str) -> Result<String, UdiffError> {
    let current = lines_of(after);
    let mut out = String::with_capacity(after.len());
    let mut at = 0;
    for (i, hunk) in hunks(diff, true)?.iter().enumerate() {
        let new_side = hunk.side(b'+');
        let old_side = hunk.side(b'-');
        let start = if hunk.new_count == 0 {
            hunk.new_start
        } else {
            hunk.new_start.saturating_sub(1)
        };
        let fits = start >= at
            && start + new_side.len() <= current.len()
            && new_side.len() == hunk.new_count
            && new_side
                .iter()
                .zip(&current[start..])
                .all(|(want, have)| want.0 == have.0 && (want.1 || !have.1));
        if !fits {
            return Err(UdiffError::Mismatch {
                hunk: i,
                line: start + 1,
            });
        }
        push_lines(&mut out, &current[at..start]);
        push_lines(&mut out, &old_side);
        at = start + new_side.len();
    }
    push_lines(&mut out, &current[at..]);
    Ok(out)
}

fn push_lines(out: &mut String, lines: &[(&str, bool)]) {
    for (text, newline) in lines {
        out.push_str(text);
        if *newline {
            out.push('\n');
        }
    }
}

/// The diff's hunks as SEARCH/REPLACE blocks with Cline's markers (old
/// lines to find, new lines to put), for srview's applier. `None` when the
/// diff has no hunk.
pub fn to_search_replace(diff: &str) -> Option<String> {
    let hunks = hunks(diff, false).ok()?;
    if hunks.is_empty() {
        return None;
    }
    let mut out = String::new();
    for hunk in &hunks {
        out.push_str("------- SEARCH\n");
        for (text, _) in hunk.side(b'-') {
            out.push_str(text);
            out.push('\n');
        }
        out.push_str("=======\n");
        for (text, _) in hunk.side(b'+') {
            out.push_str(text);
            out.push('\n');
        }
        out.push_str("+++++++ REPLACE\n");
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_diff_is_undone() {
        let before = "a\nb\nc\nd\n";
        let after = "a\nB\nc\nd\ne\n";
        let diff = "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n@@ -4 +4,2 @@\n d\n+e\n";
        assert_eq!(reverse_apply(after, diff).unwrap(), before);
    }

    #[test]
    fn a_pure_insertion_and_a_missing_final_newline() {
        let diff = "@@ -1,2 +1,3 @@\n x\n+y\n-z\n\\ No newline at end of file\n+z\n";
        assert_eq!(reverse_apply("x\ny\nz\n", diff).unwrap(), "x\nz");
    }

    #[test]
    fn a_file_changed_since_is_refused() {
        let diff = "@@ -1,2 +1,2 @@\n a\n-b\n+B\n";
        assert_eq!(
            reverse_apply("a\nX\n", diff),
            Err(UdiffError::Mismatch { hunk: 0, line: 1 })
        );
        assert!(matches!(
            reverse_apply("a\n", "@@ bad @@\n a\n"),
            Err(UdiffError::NoRanges { .. })
        ));
    }

    #[test]
    fn hunks_become_blocks() {
        let diff = "--- a.py\n+++ a.py\n@@ ... @@\n a\n-b\n+B\n";
        assert_eq!(
            to_search_replace(diff).unwrap(),
            "------- SEARCH\na\nb\n=======\na\nB\n+++++++ REPLACE\n"
        );
        assert_eq!(to_search_replace("no hunks\n"), None);
    }
}
