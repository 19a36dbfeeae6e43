//! `getDiffContextSnippet(original, written, 5)` (Gemini CLI's
//! `tools/diff-utils.ts`): the written file's changed lines with 5 lines of
//! context, gaps shown as `...`, where "changed" comes from `diff`'s
//! (jsdiff 8.0.3) `diffLines`, ported here with its exact path choices.

use std::rc::Rc;

/// The snippet the success text shows.
pub fn context_snippet(original: &str, written: &str, context: usize) -> String {
    if original.is_empty() {
        return written.to_string();
    }
    let old_tokens = tokenize(original);
    let new_tokens = tokenize(written);
    let new_lines = split_crlf_lines(written);
    let whole = vec![(0, new_tokens.len().saturating_sub(1).max(1))];
    let ranges = if only_last_may_be_common(&old_tokens, &new_tokens) {
        // Every new line but perhaps the last is added, so the ranges cover
        // the whole file whatever path jsdiff takes (its O(N*D) search takes
        // minutes on a CRLF file, where every line differs).
        whole
    } else {
        match diff_lines(&old_tokens, &new_tokens) {
            Some(changes) => change_ranges(&changes),
            // Past the budget (the agent's own diff runs for minutes there)
            // the excerpt is taken to be the whole file: the cap.
            None => whole,
        }
    };
    if ranges.is_empty() {
        return written.to_string();
    }
    let mut expanded: Vec<(usize, usize)> = ranges
        .iter()
        .map(|&(start, end)| {
            (
                start.saturating_sub(context),
                (end + context).min(new_lines.len()),
            )
        })
        .collect();
    expanded.sort_by_key(|r| r.0);
    let mut merged: Vec<(usize, usize)> = Vec::new();
    let mut current = expanded[0];
    for &next in &expanded[1..] {
        if next.0 <= current.1 {
            current.1 = current.1.max(next.1);
        } else {
            merged.push(current);
            current = next;
        }
    }
    merged.push(current);
    let mut parts: Vec<String> = Vec::new();
    let mut last_end = 0;
    for (start, end) in merged {
        if start > last_end {
            parts.push("...".to_string());
        }
        parts.push(new_lines[start.min(end)..end].join("\n"));
        last_end = end;
    }
    if last_end < new_lines.len() {
        parts.push("...".to_string());
    }
    parts.join("\n")
}

/// `text.split(/\r?\n/)`.
fn split_crlf_lines(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.split('\n').collect();
    let last = lines.len() - 1;
    for line in &mut lines[..last] {
        *line = line.strip_suffix('\r').unwrap_or(line);
    }
    lines
}

/// jsdiff's line `tokenize`: each line with its `\n` or `\r\n`, no empty
/// tokens.
fn tokenize(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = 0;
    for i in memchr::memchr_iter(b'\n', text.as_bytes()) {
        tokens.push(&text[start..=i]);
        start = i + 1;
    }
    if start < text.len() {
        tokens.push(&text[start..]);
    }
    tokens
}

/// No new token but perhaps the last equals any old token, and there are
/// at least two new tokens.
fn only_last_may_be_common(old: &[&str], new: &[&str]) -> bool {
    if new.len() < 2 {
        return false;
    }
    // The usual edit keeps the first or the last lines: common, found
    // without hashing every old token.
    let kept = |t: &&str| old.first() == Some(t) || old.last() == Some(t);
    if new[..new.len() - 1].iter().any(kept) {
        return false;
    }
    let olds: std::collections::HashSet<&str> = old.iter().copied().collect();
    !new[..new.len() - 1].iter().any(|t| olds.contains(t))
}

/// One jsdiff change object: `count` tokens added, removed or common.
struct Component {
    count: usize,
    added: bool,
    removed: bool,
    previous: Option<Rc<Component>>,
}

impl Drop for Component {
    /// Unlinks the chain iteratively: a long diff's chain would overflow the
    /// stack if dropped recursively.
    fn drop(&mut self) {
        let mut next = self.previous.take();
        while let Some(component) = next {
            match Rc::try_unwrap(component) {
                Ok(mut unique) => next = unique.previous.take(),
                Err(_) => break,
            }
        }
    }
}

#[derive(Clone)]
struct Path {
    old_pos: isize,
    last: Option<Rc<Component>>,
}

/// Diagonal steps jsdiff's search may take here before srview gives up on
/// the exact excerpt (about a second; the agent's own code needs minutes for
/// such a diff, e.g. 10,000 scattered line changes in a 20,000-line file).
pub const DIFF_STEP_BUDGET: usize = 20_000_000;

/// `(added, removed, count)` per change, in order: jsdiff's
/// `diffWithOptionsObj` without options; `None` past [`DIFF_STEP_BUDGET`].
fn diff_lines(old: &[&str], new: &[&str]) -> Option<Vec<(bool, bool, usize)>> {
    let new_len = new.len() as isize;
    let old_len = old.len() as isize;
    let max_edit = (new_len + old_len) as usize;
    let offset = max_edit + 1;
    let mut best: Vec<Option<Path>> = vec![None; 2 * offset + 1];
    let mut first = Path {
        old_pos: -1,
        last: None,
    };
    let mut new_pos = extract_common(&mut first, new, old, 0);
    if first.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
        return Some(build(first.last));
    }
    let mut steps = 0;
    best[offset] = Some(first);
    let mut min_diagonal = isize::MIN;
    let mut max_diagonal = isize::MAX;
    let mut edit_length: isize = 1;
    while edit_length as usize <= max_edit {
        let mut diagonal = min_diagonal.max(-edit_length);
        while diagonal <= max_diagonal.min(edit_length) {
            steps += 1;
            if steps > DIFF_STEP_BUDGET {
                return None;
            }
            let index = (diagonal + offset as isize) as usize;
            let remove_path = best[index - 1].take();
            let add_path = best[index + 1].clone();
            let can_add = add_path.as_ref().is_some_and(|p| {
                let add_new_pos = p.old_pos - diagonal;
                0 <= add_new_pos && add_new_pos < new_len
            });
            let can_remove = remove_path
                .as_ref()
                .is_some_and(|p| p.old_pos + 1 < old_len);
            if !can_add && !can_remove {
                best[index] = None;
                diagonal += 2;
                continue;
            }
            let add_path = add_path.filter(|_| can_add);
            let remove_path = remove_path.filter(|_| can_remove);
            let mut base = match (&add_path, &remove_path) {
                (Some(add), Some(remove)) if remove.old_pos < add.old_pos => {
                    add_to_path(add, true, false, 0)
                }
                (_, Some(remove)) => add_to_path(remove, false, true, 1),
                (Some(add), None) => add_to_path(add, true, false, 0),
                (None, None) => {
                    best[index] = None;
                    diagonal += 2;
                    continue;
                }
            };
            new_pos = extract_common(&mut base, new, old, diagonal);
            if base.old_pos + 1 >= old_len && new_pos + 1 >= new_len {
                return Some(build(base.last));
            }
            if base.old_pos + 1 >= old_len {
                max_diagonal = max_diagonal.min(diagonal - 1);
            }
            if new_pos + 1 >= new_len {
                min_diagonal = min_diagonal.max(diagonal + 1);
            }
            best[index] = Some(base);
            diagonal += 2;
        }
        edit_length += 1;
    }
    Some(Vec::new())
}

fn add_to_path(path: &Path, added: bool, removed: bool, old_inc: isize) -> Path {
    let last = match &path.last {
        Some(last) if last.added == added && last.removed == removed => Component {
            count: last.count + 1,
            added,
            removed,
            previous: last.previous.clone(),
        },
        last => Component {
            count: 1,
            added,
            removed,
            previous: last.clone(),
        },
    };
    Path {
        old_pos: path.old_pos + old_inc,
        last: Some(Rc::new(last)),
    }
}

fn extract_common(path: &mut Path, new: &[&str], old: &[&str], diagonal: isize) -> isize {
    let (new_len, old_len) = (new.len() as isize, old.len() as isize);
    let mut old_pos = path.old_pos;
    let mut new_pos = old_pos - diagonal;
    let mut common = 0;
    while new_pos + 1 < new_len
        && old_pos + 1 < old_len
        && old[(old_pos + 1) as usize] == new[(new_pos + 1) as usize]
    {
        new_pos += 1;
        old_pos += 1;
        common += 1;
    }
    if common > 0 {
        path.last = Some(Rc::new(Component {
            count: common,
            added: false,
            removed: false,
            previous: path.last.take(),
        }));
    }
    path.old_pos = old_pos;
    new_pos
}

fn build(last: Option<Rc<Component>>) -> Vec<(bool, bool, usize)> {
    let mut out = Vec::new();
    let mut next = last;
    while let Some(component) = next {
        out.push((component.added, component.removed, component.count));
        next = component.previous.clone();
    }
    out.reverse();
    out
}

/// `getDiffContextSnippet`'s ranges of new lines: added ones, and the
/// position of removed ones.
fn change_ranges(changes: &[(bool, bool, usize)]) -> Vec<(usize, usize)> {
    let mut ranges = Vec::new();
    let mut index = 0;
    for &(added, removed, count) in changes {
        if added {
            ranges.push((index, index + count));
            index += count;
        } else if removed {
            ranges.push((index, index));
        } else {
            index += count;
        }
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_in_the_middle_shows_five_lines_around_it() {
        let old: String = (1..=20).map(|i| format!("l{i}\n")).collect();
        let new = old.replace("l10\n", "X\n");
        assert_eq!(
            context_snippet(&old, &new, 5),
            "...\nl5\nl6\nl7\nl8\nl9\nX\nl11\nl12\nl13\nl14\nl15\n..."
        );
    }

    #[test]
    fn unchanged_or_new_text_is_shown_whole() {
        assert_eq!(context_snippet("a\nb\n", "a\nb\n", 5), "a\nb\n");
        assert_eq!(context_snippet("", "new\n", 5), "new\n");
    }

    #[test]
    fn a_crlf_rewrite_shows_the_whole_file_with_lf() {
        assert_eq!(context_snippet("a\nb\nc", "a\r\nb\r\nc", 5), "a\nb\nc");
    }
}
