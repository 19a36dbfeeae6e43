//! What an edit does to the file beyond where it matched: new lines written
//! at another indentation than the lines they replace (a whitespace-blind
//! stage matched, and the REPLACE text kept the SEARCH text's shift), and
//! an edit whose REPLACE text already stands in the file (re-sent after it
//! was applied). Pure, on lines without their endings; shared by every
//! dialect with such a stage (SEARCH/REPLACE's line-trimmed fallback,
//! apply_patch's trimmed levels).

use crate::engine::js::js_trim;

/// How the new lines' indentation stands against the lines they replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndentShift {
    /// The new lines sit this many columns right (positive) or left
    /// (negative) of the lines they replace.
    Columns(isize),
    /// The new lines are indented with spaces where the file uses tabs.
    SpacesForTabs,
    /// The new lines are indented with tabs where the file uses spaces.
    TabsForSpaces,
}

impl IndentShift {
    /// What writing the new lines does, in one clause without a final stop:
    /// "the new lines are 4 columns left of the lines they replace: in
    /// Python (or any indentation-sensitive code) this moves them out of
    /// the enclosing block".
    pub fn describe(self) -> String {
        match self {
            IndentShift::Columns(n) => {
                let (side, effect) = if n < 0 {
                    ("left", "moves them out of the enclosing block")
                } else {
                    ("right", "moves them into a block they were not in")
                };
                format!(
                    "the new lines are {} {side} of the lines they replace: in Python (or any \
                     indentation-sensitive code) this {effect}",
                    crate::words::count(n.unsigned_abs(), "column")
                )
            }
            IndentShift::SpacesForTabs => "the new lines are indented with spaces where the \
                 lines they replace use tabs: Python refuses the mix (TabError)"
                .to_string(),
            IndentShift::TabsForSpaces => "the new lines are indented with tabs where the \
                 lines they replace use spaces: Python refuses the mix (TabError)"
                .to_string(),
        }
    }
}

/// A line's leading white space.
fn lead(line: &str) -> &str {
    &line[..line.len() - line.trim_start_matches([' ', '\t']).len()]
}

fn blank(line: &str) -> bool {
    js_trim(line).is_empty()
}

/// The smallest indentation (in characters) of the non-blank lines.
fn min_indent<'a>(lines: impl IntoIterator<Item = &'a str>) -> Option<usize> {
    lines
        .into_iter()
        .filter(|l| !blank(l))
        .map(|l| lead(l).chars().count())
        .min()
}

/// Whether the non-blank lines' indentation uses tabs, spaces, or neither.
fn indent_chars<'a>(lines: impl IntoIterator<Item = &'a str>) -> (bool, bool) {
    let (mut tabs, mut spaces) = (false, false);
    for l in lines.into_iter().filter(|l| !blank(l)) {
        let lead = lead(l);
        tabs |= lead.contains('\t');
        spaces |= lead.contains(' ');
    }
    (tabs, spaces)
}

/// How the new lines `replace` stand against the file's `region`, which a
/// whitespace-blind stage matched with `search` line for line (the same
/// number of lines, equal once trimmed). `None` when the SEARCH text's
/// indentation is the file's on every line (only trailing white space
/// differs), when there are no new lines, or when the REPLACE text is
/// written at the file's indentation: only a REPLACE text that keeps the
/// SEARCH text's shift is one.
pub fn indent_shift(search: &[&str], region: &[&str], replace: &[&str]) -> Option<IndentShift> {
    if search.len() != region.len() || replace.iter().all(|l| blank(l)) {
        return None;
    }
    let pairs: Vec<(&str, &str)> = search
        .iter()
        .zip(region)
        .map(|(s, f)| (*s, *f))
        .filter(|(s, f)| !blank(s) && !blank(f))
        .collect();
    if pairs.iter().all(|(s, f)| lead(s) == lead(f)) {
        return None;
    }
    // Tabs against spaces: the file indents with one, the new lines with
    // the other only.
    let (file_tabs, file_spaces) = indent_chars(region.iter().copied());
    let (new_tabs, new_spaces) = indent_chars(replace.iter().copied());
    if file_tabs && !file_spaces && new_spaces && !new_tabs {
        return Some(IndentShift::SpacesForTabs);
    }
    if file_spaces && !file_tabs && new_tabs && !new_spaces {
        return Some(IndentShift::TabsForSpaces);
    }
    let width = |l: &str| lead(l).chars().count() as isize;
    // A line both texts keep: written where the SEARCH text had it, and
    // not where the file has it, it is shifted.
    for r in replace.iter().filter(|l| !blank(l)) {
        if let Some((s, f)) = pairs.iter().find(|(s, _)| js_trim(s) == js_trim(r)) {
            if lead(r) == lead(f) {
                return None;
            }
            if lead(r) == lead(s) {
                return Some(IndentShift::Columns(width(r) - width(f)));
            }
        }
    }
    // No kept line: the REPLACE text's base indentation against the
    // SEARCH text's and the file's.
    let (s_min, f_min, r_min) = (
        min_indent(search.iter().copied())?,
        min_indent(region.iter().copied())?,
        min_indent(replace.iter().copied())?,
    );
    (s_min != f_min && r_min == s_min)
        .then_some(IndentShift::Columns(r_min as isize - f_min as isize))
}

/// Where the REPLACE text already stands in `file` (0-based lines
/// `start..end`) around `near` (0-based lines `start..end`: the lines the
/// SEARCH text matched, or the region it was meant for), when it adds to
/// what it replaces: an edit applied once and sent again. `contain`: the
/// run must hold all of `near` (a matched SEARCH text, which the REPLACE
/// text then extends), else it need only overlap it (a SEARCH text that no
/// longer matches because the edit changed it). Lines compare with their
/// white space at the ends ignored when `loose`, else exactly.
pub fn already_there<'f>(
    file_len: usize,
    file_line: impl Fn(usize) -> &'f str,
    near: (usize, usize),
    search: &[&str],
    replace: &[&str],
    contain: bool,
    loose: bool,
) -> Option<(usize, usize)> {
    let len = replace.len();
    let same = |a: &str, b: &str| {
        if loose {
            js_trim(a) == js_trim(b)
        } else {
            a.trim_end_matches('\r') == b.trim_end_matches('\r')
        }
    };
    let substantial = replace.iter().any(|l| l.chars().any(char::is_alphanumeric));
    // A REPLACE text that only repeats the SEARCH text, or deletes: nothing
    // it adds can be found.
    let adds = if contain {
        len > search.len()
    } else {
        len > 0
            && !search
                .iter()
                .map(|s| js_trim(s))
                .eq(replace.iter().map(|r| js_trim(r)))
    };
    if !adds || !substantial || near.1 > file_len || near.0 > near.1 {
        return None;
    }
    let (lo, hi) = if contain {
        (near.1.saturating_sub(len), near.0)
    } else {
        ((near.0 + 1).saturating_sub(len), near.1.saturating_sub(1))
    };
    (lo..=hi)
        .filter(|&start| start + len <= file_len)
        .find(|&start| (0..len).all(|k| same(file_line(start + k), replace[k])))
        .map(|start| (start, start + len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_replace_keeping_the_search_shift_is_one() {
        let region = ["    def fill(self, text):", "        return x"];
        let search = ["def fill(self, text):", "    return x"];
        let replace = ["def fill(self, text):", "    return x + 1"];
        assert_eq!(
            indent_shift(&search, &region, &replace),
            Some(IndentShift::Columns(-4))
        );
        // Written at the file's indentation: no shift.
        let right = ["    def fill(self, text):", "        return x + 1"];
        assert_eq!(indent_shift(&search, &region, &right), None);
        // Only trailing space differs: no shift.
        let trailing = ["    def fill(self, text):  ", "        return x"];
        assert_eq!(indent_shift(&trailing, &region, &replace), None);
        // No kept line: the base indentation tells.
        let fresh = ["def other(self):", "    return 1"];
        assert_eq!(
            indent_shift(&search, &region, &fresh),
            Some(IndentShift::Columns(-4))
        );
        let deleted: [&str; 0] = [];
        assert_eq!(indent_shift(&search, &region, &deleted), None);
    }

    #[test]
    fn spaces_for_tabs_and_deeper_lines_are_told() {
        let region = ["\tif x:", "\t\treturn 1"];
        let search = ["    if x:", "        return 1"];
        let replace = ["    if x:", "        return 2"];
        assert_eq!(
            indent_shift(&search, &region, &replace),
            Some(IndentShift::SpacesForTabs)
        );
        let region = ["x = 1"];
        let search = ["    x = 1"];
        let replace = ["    x = 2"];
        assert_eq!(
            indent_shift(&search, &region, &replace),
            Some(IndentShift::Columns(4))
        );
        assert!(
            IndentShift::Columns(-4)
                .describe()
                .starts_with("the new lines are 4 columns left of the lines they replace")
        );
    }

    #[test]
    fn a_replace_text_already_there_is_found() {
        let file = ["def main():", "    load()", "    run()", "    save()"];
        let search = ["    load()", "    run()"];
        let replace = ["    load()", "    run()", "    save()"];
        assert_eq!(
            already_there(
                file.len(),
                |i| file[i],
                (1, 3),
                &search,
                &replace,
                true,
                false
            ),
            Some((1, 4))
        );
        // Not yet applied: nothing there.
        let before = ["def main():", "    load()", "    run()", ""];
        assert_eq!(
            already_there(
                before.len(),
                |i| before[i],
                (1, 3),
                &search,
                &replace,
                true,
                false
            ),
            None
        );
        // A failed block whose new text is at its region.
        let file = ["x = 2", "y = 3"];
        assert_eq!(
            already_there(
                file.len(),
                |i| file[i],
                (0, 1),
                &["x = 1"],
                &["x = 2"],
                false,
                false
            ),
            Some((0, 1))
        );
        // A deletion, or a REPLACE equal to SEARCH, adds nothing.
        assert_eq!(
            already_there(
                file.len(),
                |i| file[i],
                (0, 1),
                &["x = 2"],
                &["x = 2"],
                false,
                false
            ),
            None
        );
    }
}
