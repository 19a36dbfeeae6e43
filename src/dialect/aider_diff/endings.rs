//! The line endings Aider rewrites: it reads a file with universal newlines
//! and writes it back with `\n`, so an edited CRLF (or CR) file comes back
//! LF on every line, those no block or hunk covers too. srview's reading
//! of the result, not Aider's: the lines it names are
//! [`CallOutcome::rewritten_outside`](crate::dialect::call::CallOutcome::rewritten_outside).

use std::time::{Duration, Instant};

use similar::DiffOp;

use super::pytext::universal_newlines;
use super::world::World;
use crate::dialect::call::{EditMatch, FileWrite};

/// 1-based first/last line ranges of each file `writes` leaves, as it was
/// before the call, whose text Aider keeps but whose ending (`\r\n` or
/// `\r`) it writes as `\n`, outside every line an edit of `edits` replaced:
/// each file's in the order written. Empty when every file written ended
/// its lines in LF (the usual case).
pub fn endings_rewritten(
    world: &World,
    writes: &[FileWrite],
    edits: &[EditMatch],
) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    for write in writes {
        let Some(after) = write.content.as_deref() else {
            continue;
        };
        let Some(raw) = world.text_before(&write.path) else {
            continue;
        };
        if !raw.contains('\r') {
            continue;
        }
        let before = universal_newlines(&raw);
        let ends_in_cr = cr_endings(&raw);
        let old = lines(&before);
        let mut covered = vec![false; old.len()];
        for edit in edits
            .iter()
            .filter(|e| e.path.as_deref() == Some(&write.path))
        {
            let (Some((first, last)), Some(searched)) = (
                edit.lines,
                edit.searched.as_ref().and_then(|s| s.content.as_deref()),
            ) else {
                continue;
            };
            for line in first..=last {
                if let Some(at) = carried_back(&old, searched, line - 1) {
                    covered[at] = true;
                }
            }
        }
        let new = lines(after);
        for op in crate::textdiff::ops(&old, &new, deadline()) {
            let DiffOp::Equal { old_index, len, .. } = op else {
                continue;
            };
            let kept = (old_index..old_index + len)
                .zip(&covered[old_index..old_index + len])
                .filter(|&(at, covered)| !covered && ends_in_cr.get(at).copied().unwrap_or(false));
            for (at, _) in kept {
                push_line(&mut ranges, at + 1);
            }
        }
    }
    ranges
}

/// A second at most for one file's diff (the diff is then approximate,
/// still a valid edit script).
fn deadline() -> Option<Instant> {
    Instant::now().checked_add(Duration::from_secs(1))
}

/// The lines of `text`, each with its `\n`.
fn lines(text: &str) -> Vec<&str> {
    text.split_inclusive('\n').collect()
}

/// Whether each line of `raw` ends in `\r\n` or a bare `\r` (the line
/// breaks universal newlines turn into `\n`).
fn cr_endings(raw: &str) -> Vec<bool> {
    let bytes = raw.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'\n' => out.push(false),
            b'\r' => {
                out.push(true);
                if bytes.get(at + 1) == Some(&b'\n') {
                    at += 1;
                }
            }
            _ => {}
        }
        at += 1;
    }
    out
}

/// The 0-based line of `old` that 0-based line `line` of `searched` (the
/// file as earlier edits left it) is, where those edits kept it.
fn carried_back(old: &[&str], searched: &str, line: usize) -> Option<usize> {
    let new = lines(searched);
    if new.as_slice() == old {
        return Some(line).filter(|&l| l < old.len());
    }
    crate::textdiff::ops(old, &new, deadline())
        .into_iter()
        .find_map(|op| match op {
            DiffOp::Equal {
                old_index,
                new_index,
                len,
            } if (new_index..new_index + len).contains(&line) => {
                Some(old_index + (line - new_index))
            }
            _ => None,
        })
}

/// `line` added to `ranges`, joined to the last range when it follows it.
fn push_line(ranges: &mut Vec<(usize, usize)>, line: usize) {
    match ranges.last_mut() {
        Some((_, end)) if *end + 1 == line => *end = line,
        _ => ranges.push((line, line)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cr_endings_tell_each_line() {
        assert_eq!(cr_endings("a\r\nb\nc\rd"), [true, false, true]);
        assert!(cr_endings("").is_empty());
    }

    #[test]
    fn a_line_is_carried_back_past_an_earlier_edit() {
        let old = lines("a\nb\nc\n");
        assert_eq!(carried_back(&old, "a\nb\nc\n", 2), Some(2));
        // An earlier edit made `a` two lines: `c` is line 3 there.
        assert_eq!(carried_back(&old, "x\ny\nb\nc\n", 3), Some(2));
        assert_eq!(carried_back(&old, "x\ny\nb\nc\n", 0), None);
    }
}
