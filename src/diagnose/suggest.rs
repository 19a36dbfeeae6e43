//! A corrected block: the SEARCH part replaced by the file's own lines, grown
//! with context until it occurs exactly once, so it matches at the intended
//! place with the exact stage.

use super::closest::FileIndex;
use crate::engine::markers::{canonical_block, is_marker, whole_lines};

/// A complete block with canonical markers whose SEARCH text is the file's
/// lines `first_line..=last_line` (1-based), extended with context lines
/// until unique, and whose REPLACE text is `replace` (plus the same context).
///
/// The SEARCH text always ends in a newline, so a region that includes a
/// last line without one can only match through the line-trimmed stage.
/// `None` when the lines are not in the file, or when a line of the block
/// would read as a marker (a file line such as a setext `=====` underline
/// cannot be quoted in a SEARCH/REPLACE block at all).
pub fn suggestion(
    file: &FileIndex,
    first_line: usize,
    last_line: usize,
    replace: &str,
) -> Option<String> {
    let count = file.line_count();
    if first_line == 0 || first_line > last_line || last_line > count {
        return None;
    }
    let crlf = file.is_crlf();
    let mut replace_lines: Vec<String> = replace
        .split_inclusive('\n')
        .map(|l| {
            let l = l.strip_suffix('\n').unwrap_or(l);
            if crlf {
                l.to_string()
            } else {
                l.trim_end_matches('\r').to_string()
            }
        })
        .collect();
    let (mut start, mut end) = (first_line - 1, last_line);
    let mut prefer_before = true;
    loop {
        let search = join(file, start, end);
        if occurrences(file.text(), &search) <= 1 {
            break;
        }
        let can_before = start > 0;
        let can_after = end < count;
        if can_before && (prefer_before || !can_after) {
            start -= 1;
            replace_lines.insert(0, file.line(start).to_string());
        } else if can_after {
            replace_lines.push(file.line(end).to_string());
            end += 1;
        } else {
            break;
        }
        prefer_before = !prefer_before;
    }
    let quoted = (start..end)
        .map(|i| file.line(i))
        .chain(replace_lines.iter().map(String::as_str));
    if quoted.into_iter().any(is_marker) {
        return None;
    }
    Some(canonical_block(
        &join(file, start, end),
        &whole_lines(replace_lines.iter().map(String::as_str)),
    ))
}

/// The suggestions of `blocks` (a diagnosis of `diff` over `original`, the
/// file `path`) made fit to offer, for every command that shows them
/// (`check --suggest`, its JSON, the previewer's copy of a corrected
/// block): a Markdown hard break kept as the block means it
/// ([`super::trailing::keep_line_ends`]), and a suggestion that leaves the
/// file's layout broken (Python misindented, a Makefile's recipe in
/// spaces, a YAML key moved, a brace language's brackets unbalanced, a
/// name defined twice) where the block as sent leaves no such fault
/// withheld, saying why in the sentence `fix` withholds its correction
/// with ([`super::doubt_exact::correction_misindents`]): no command offers
/// a correction `fix` withholds.
pub fn settle_suggestions(
    path: &str,
    original: &str,
    diff: &str,
    options: crate::engine::Options,
    blocks: &mut [super::BlockDiagnosis],
) {
    super::trailing::keep_line_ends(path, original, diff, options, blocks);
    if !blocks.iter().any(|d| d.suggestion.is_some()) || !super::layout::result_read(path, original)
    {
        return;
    }
    let index = crate::engine::matcher::LineIndex::new(original);
    let diff_lines: Vec<&str> = diff.split_inclusive('\n').collect();
    for d in blocks.iter_mut() {
        let Some(suggested) = d.suggestion.as_deref() else {
            continue;
        };
        let corrected = crate::engine::apply_indexed(suggested, &index, options);
        let Ok(corrected) = &corrected.result else {
            continue;
        };
        // The block as sent, alone: where it too breaks the layout (or
        // does not apply), the fault is not the correction's, as `fix`
        // judges it.
        let [first, last] = d.diff_lines;
        let sent = || {
            let lines = diff_lines.get(first.saturating_sub(1)..last.min(diff_lines.len()))?;
            let own = crate::engine::apply_indexed(&lines.concat(), &index, options);
            own.result.ok().map(|own| own.new_content)
        };
        let Some(why) =
            super::doubt_exact::correction_fault(path, original, &corrected.new_content, sent)
        else {
            continue;
        };
        d.suggestion = None;
        d.withheld = Some(why);
        d.message = super::message::describe(d, options.version, options.is_final);
    }
}

/// Lines `start..end`, each with a `\n` (the last file line may have none).
fn join(file: &FileIndex, start: usize, end: usize) -> String {
    let mut s = String::new();
    for i in start..end {
        s.push_str(file.line(i));
        s.push('\n');
    }
    s
}

/// Occurrences of `needle` in `hay`, overlapping ones included, counted up to 2.
fn occurrences(hay: &str, needle: &str) -> usize {
    let mut count = 0;
    let mut from = 0;
    // The first place at or after `from`, as `str::find` gives it (`from`
    // is always a character boundary).
    let finder = memchr::memmem::Finder::new(needle.as_bytes());
    while let Some(i) = hay.get(from..).and_then(|h| finder.find(h.as_bytes())) {
        count += 1;
        if count >= 2 {
            break;
        }
        let at = from + i;
        from = at + hay[at..].chars().next().map_or(1, char::len_utf8);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::matcher::LineIndex;

    #[test]
    fn grows_until_unique() {
        let index = LineIndex::new("a\n}\nb\n}\n");
        let s = suggestion(&FileIndex::new(&index), 4, 4, "};\n").unwrap();
        assert_eq!(s, "------- SEARCH\nb\n}\n=======\nb\n};\n+++++++ REPLACE\n");
    }

    #[test]
    fn counts_overlapping() {
        assert_eq!(occurrences("a\na\na\n", "a\na\n"), 2);
        assert_eq!(occurrences("abc", "x"), 0);
    }
}
