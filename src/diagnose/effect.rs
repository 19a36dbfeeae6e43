//! What an edit does to the file beyond where it matched: new lines written
//! at another indentation than the lines they replace (a whitespace-blind
//! stage matched, and the REPLACE text kept the SEARCH text's shift), and
//! an edit whose REPLACE text already stands in the file (re-sent after it
//! was applied). Pure, on lines without their endings; shared by every
//! dialect with such a stage (SEARCH/REPLACE's line-trimmed fallback,
//! apply_patch's trimmed levels).

use similar::DiffOp;

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
    /// code whose indentation has a meaning (Python, YAML, ...) this moves
    /// them out of the enclosing block" (said of any file: a YAML file was
    /// told of Python alone, a tester's find).
    pub fn describe(self) -> String {
        match self {
            IndentShift::Columns(n) => {
                let (side, effect) = if n < 0 {
                    ("left", "moves them out of the enclosing block")
                } else {
                    ("right", "moves them into a block they were not in")
                };
                format!(
                    "the new lines are {} {side} of the lines they replace: in code whose \
                     indentation has a meaning (Python, YAML, ...) this {effect}",
                    crate::words::count(n.unsigned_abs(), "column")
                )
            }
            // Said of any file (the kind is not known here): a Go
            // file's spaces compile, and gofmt makes them tabs again (a
            // tester's find: a .go file was told of Python's TabError).
            IndentShift::SpacesForTabs => "the new lines are indented with spaces where the \
                 lines they replace use tabs: written so, the file mixes tabs and spaces there, \
                 which a language that reads indentation (Python, a Makefile's recipes) \
                 refuses and a formatter (gofmt) undoes"
                .to_string(),
            IndentShift::TabsForSpaces => "the new lines are indented with tabs where the \
                 lines they replace use spaces: written so, the file mixes tabs and spaces \
                 there, which a language that reads indentation (Python) refuses"
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

/// How the new lines `replace` stand against the file's `region`, which a
/// whitespace-blind stage matched with `search` line for line (the same
/// number of lines, equal once trimmed). `None` when the SEARCH text's
/// indentation is the file's on every line (only trailing white space
/// differs), when there are no new lines, or when the REPLACE text is
/// written at the file's indentation: only a REPLACE text that keeps the
/// SEARCH text's shift is one. Comment lines (`#`, `//`) are not judged:
/// their column means nothing.
///
/// Two rules. When the SEARCH text's base indentation (its least
/// indented line) is not the file's, a REPLACE text whose base is the
/// SEARCH text's is written in the SEARCH text's frame: every new line is
/// shifted (a block wrapped in `if True:` included). Otherwise any line
/// both texts keep that sits where the SEARCH text has it, not where the
/// file has it, is shifted.
pub fn indent_shift(search: &[&str], region: &[&str], replace: &[&str]) -> Option<IndentShift> {
    let code = |l: &&str| !blank(l) && !is_comment(l);
    if search.len() != region.len() || !replace.iter().any(code) {
        return None;
    }
    let pairs: Vec<(&str, &str)> = search
        .iter()
        .zip(region)
        .map(|(s, f)| (*s, *f))
        .filter(|(s, f)| code(s) && code(f))
        .collect();
    if pairs.iter().all(|(s, f)| lead(s) == lead(f)) {
        return None;
    }
    // How new line `r` stands against file line `f` it should sit with.
    let shift = |r: &str, f: &str| -> IndentShift {
        let (r, f) = (lead(r), lead(f));
        match (
            r.contains(' '),
            r.contains('\t'),
            f.contains(' '),
            f.contains('\t'),
        ) {
            (true, _, false, true) => IndentShift::SpacesForTabs,
            (_, true, true, false) => IndentShift::TabsForSpaces,
            _ => IndentShift::Columns(r.chars().count() as isize - f.chars().count() as isize),
        }
    };
    let s_base = least_indented(pairs.iter().map(|p| p.0))?;
    let f_base = least_indented(pairs.iter().map(|p| p.1))?;
    let r_base = least_indented(replace.iter().copied().filter(code))?;
    // A line both texts keep, or one rewritten in its place (the flag):
    // its SEARCH and REPLACE lines.
    let old: Vec<&str> = search.iter().map(|l| js_trim(l)).collect();
    let new: Vec<&str> = replace.iter().map(|l| js_trim(l)).collect();
    let mut counterparts: Vec<(usize, usize, bool)> = Vec::new();
    for op in crate::textdiff::ops(&old, &new, None) {
        let (o, n) = (op.old_range(), op.new_range());
        let equal = matches!(op, DiffOp::Equal { .. });
        if equal || o.len() == n.len() {
            counterparts.extend(o.zip(n).map(|(i, k)| (i, k, !equal)));
        }
    }
    if lead(s_base) != lead(f_base) {
        if lead(r_base) == lead(s_base) {
            // The shift of the lines the edit rewrites, where the model's
            // lines are not shifted alike (a tester's find: a context line
            // 3 columns left, the rewritten line 4: "3 columns" was said of
            // the new line): that of the base line otherwise.
            let base = shift(r_base, f_base);
            let rewritten = counterparts
                .iter()
                .filter(|&&(i, k, rewritten)| rewritten && code(&region[i]) && code(&replace[k]))
                .map(|&(i, k, _)| shift(replace[k], region[i]))
                .find(|s| match (s, base) {
                    (IndentShift::Columns(n), IndentShift::Columns(b)) => {
                        *n != 0 && n.signum() == b.signum()
                    }
                    _ => false,
                });
            return Some(rewritten.unwrap_or(base));
        }
        if lead(r_base) == lead(f_base) {
            // Written in the file's frame.
            return None;
        }
    }
    // A line both texts keep, or one rewritten in its place: written where
    // the SEARCH text had it, and not where the file has it, it is shifted.
    counterparts.into_iter().find_map(|(i, k, _)| {
        let (s, f, r) = (search[i], region[i], replace[k]);
        (code(&s) && code(&f) && code(&r) && lead(r) == lead(s) && lead(s) != lead(f))
            .then(|| shift(r, f))
    })
}

/// The least indented of `lines` (the first of those alike).
fn least_indented<'a>(lines: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    lines.min_by_key(|l| lead(l).chars().count())
}

/// A line holding only a comment (`#`, `//`): its column changes nothing.
fn is_comment(line: &str) -> bool {
    let t = js_trim(line);
    t.starts_with('#') || t.starts_with("//")
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
    // Only a REPLACE text with a line of its own (code the SEARCH text does
    // not have) can be told applied: one that deletes, repeats the SEARCH
    // text or only adds blank lines leaves nothing to find.
    let new_line = replace.iter().any(|r| {
        r.chars().any(char::is_alphanumeric) && !search.iter().any(|s| js_trim(s) == js_trim(r))
    });
    let adds = new_line && (!contain || len > search.len());
    if !adds || near.1 > file_len || near.0 > near.1 {
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

    /// What [`indent_shift`] tells of each case: the file's region, the
    /// SEARCH lines matched there and the REPLACE lines.
    fn shifts(cases: &[(&[&str], &[&str], &[&str])]) -> Vec<Option<IndentShift>> {
        cases
            .iter()
            .map(|(region, search, replace)| indent_shift(search, region, replace))
            .collect()
    }

    #[test]
    fn a_replace_keeping_the_search_shift_is_one() {
        let region: &[&str] = &["    def fill(self, text):", "        return x"];
        let search: &[&str] = &["def fill(self, text):", "    return x"];
        let replace: &[&str] = &["def fill(self, text):", "    return x + 1"];
        let cases = shifts(&[
            (region, search, replace),
            // Written at the file's indentation: no shift.
            (
                region,
                search,
                &["    def fill(self, text):", "        return x + 1"],
            ),
            // Only trailing space differs: no shift.
            (
                region,
                &["    def fill(self, text):  ", "        return x"],
                replace,
            ),
            // No kept line: the base indentation tells.
            (region, search, &["def other(self):", "    return 1"]),
            (region, search, &[]),
        ]);
        let left = Some(IndentShift::Columns(-4));
        assert_eq!(cases, [left, None, None, left, None]);
    }

    #[test]
    fn spaces_for_tabs_and_deeper_lines_are_told() {
        let cases = shifts(&[
            (
                &["\tif x:", "\t\treturn 1"],
                &["    if x:", "        return 1"],
                &["    if x:", "        return 2"],
            ),
            (&["x = 1"], &["    x = 1"], &["    x = 2"]),
        ]);
        assert_eq!(
            cases,
            [
                Some(IndentShift::SpacesForTabs),
                Some(IndentShift::Columns(4))
            ]
        );
        assert!(
            IndentShift::Columns(-4)
                .describe()
                .starts_with("the new lines are 4 columns left of the lines they replace")
        );
        // Nothing said of one language as if it were the file's (a
        // tester's find, round 39a, 20: a .go file told of TabError and
        // make's tabs).
        for shift in [IndentShift::SpacesForTabs, IndentShift::TabsForSpaces] {
            let said = shift.describe();
            assert!(
                said.contains("the file mixes tabs and spaces there"),
                "{said}"
            );
            assert!(
                !said.contains("TabError") && !said.contains("make needs"),
                "{said}"
            );
        }
    }

    /// A reviewer's cases: a shift on a later line than the first, a block
    /// wrapped in a new one at the SEARCH text's base, spaces among tabs on
    /// a rewritten line; and a comment's column, which is no shift.
    #[test]
    fn shifts_beyond_the_first_line_are_found() {
        let region: &[&str] = &["    def bar(self):", "        return self.x"];
        let cases = shifts(&[
            (
                region,
                &["    def bar(self):", "    return self.x"],
                &["    def bar(self):", "    y = 0", "    return self.x"],
            ),
            (
                region,
                &["def bar(self):", "    return self.x"],
                &["if True:", "    def bar(self):", "        return self.x"],
            ),
            (
                &["\tdef f(self):", "\t\treturn 1"],
                &["\tdef f(self):", "        return 1"],
                &["\tdef f(self):", "        return 10"],
            ),
            (
                &["       # odd comment", "        x = 1"],
                &["        # odd comment", "        x = 1"],
                &["        # odd comment", "        x = 2"],
            ),
        ]);
        let left = Some(IndentShift::Columns(-4));
        assert_eq!(cases, [left, left, Some(IndentShift::SpacesForTabs), None]);
    }

    /// [`already_there`] over `file`'s lines, of a block's SEARCH and
    /// REPLACE lines.
    fn there(
        file: &[&str],
        near: (usize, usize),
        (search, replace): (&[&str], &[&str]),
        contain: bool,
        loose: bool,
    ) -> Option<(usize, usize)> {
        already_there(
            file.len(),
            |i| file[i],
            near,
            search,
            replace,
            contain,
            loose,
        )
    }

    /// A deletion, and a REPLACE text that only adds blank lines, leave
    /// nothing to find: never "applied already".
    #[test]
    fn deletions_and_blank_lines_are_not_applied_already() {
        let file = ["import os", "", "def main():", "    print(os.getcwd())"];
        let search = ["def main():", "    print(os.getcwdd())"];
        assert_eq!(
            there(&file, (2, 4), (&search, &["def main():"]), false, true),
            None
        );
        let file = ["def a():", "    pass", "", "def b():", "    pass"];
        assert_eq!(
            there(
                &file,
                (3, 4),
                (&["def b():"], &["", "def b():"]),
                true,
                false
            ),
            None
        );
    }

    #[test]
    fn a_replace_text_already_there_is_found() {
        let file = ["def main():", "    load()", "    run()", "    save()"];
        let search = ["    load()", "    run()"];
        let replace = ["    load()", "    run()", "    save()"];
        assert_eq!(
            there(&file, (1, 3), (&search, &replace), true, false),
            Some((1, 4))
        );
        // Not yet applied: nothing there.
        let before = ["def main():", "    load()", "    run()", ""];
        assert_eq!(
            there(&before, (1, 3), (&search, &replace), true, false),
            None
        );
        // A failed block whose new text is at its region.
        let file = ["x = 2", "y = 3"];
        assert_eq!(
            there(&file, (0, 1), (&["x = 1"], &["x = 2"]), false, false),
            Some((0, 1))
        );
        // A deletion, or a REPLACE equal to SEARCH, adds nothing.
        assert_eq!(
            there(&file, (0, 1), (&["x = 2"], &["x = 2"]), false, false),
            None
        );
    }
}

#[cfg(test)]
mod uneven_shift_tests {
    use super::{IndentShift, indent_shift};

    /// A hunk whose context line is 3 columns left of the file's and
    /// whose rewritten line 4 (tester round 40b, 02): the shift said is
    /// the rewritten line's, not the context line's.
    #[test]
    fn the_shift_said_is_the_rewritten_lines() {
        let search = [" def total(self):", "    return self.subtotal()"];
        let region = ["    def total(self):", "        return self.subtotal()"];
        let replace = [" def total(self):", "    return round(self.subtotal(), 2)"];
        assert_eq!(
            indent_shift(&search, &region, &replace),
            Some(IndentShift::Columns(-4))
        );
        // Shifted alike: the base line's shift, as before.
        let search = ["def total(self):", "    return self.subtotal()"];
        assert_eq!(
            indent_shift(
                &search,
                &region,
                &["def total(self):", "    return round(self.subtotal(), 2)"]
            ),
            Some(IndentShift::Columns(-4))
        );
    }
}
