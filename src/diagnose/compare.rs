//! Comparing a SEARCH text with a region of the file: which normalisation
//! makes them equal (the reason), and a line + word diff (the differences).

use crate::diagnose::Side;
use similar::ChangeTag;
use std::ops::Range;

use similar::DiffOp;

use crate::textdiff::{self, TokenDiff};

use super::normalize::{
    has_entity, has_lookalike, is_blank, loose_hash, plain_lookalikes, squeeze_space,
    unescape_entities,
};
use super::{DiffLine, Difference, DifferenceKind, Reason, WordChange};
use crate::engine::js::js_trim;

/// Whether the lines are equal line by line after `f` and `trim()`.
fn equal_by(
    search: &[&str],
    region: &[&str],
    f: impl Fn(&str) -> String,
    skip_blank: bool,
) -> bool {
    let keep = |l: &&&str| !(skip_blank && is_blank(l));
    let a: Vec<String> = search
        .iter()
        .filter(keep)
        .map(|l| js_trim(&f(l)).to_string())
        .collect();
    let b: Vec<String> = region
        .iter()
        .filter(keep)
        .map(|l| js_trim(&f(l)).to_string())
        .collect();
    a == b
}

/// The single kind of damage that explains why `search` differs from `region`,
/// or `None` when the content really differs.
pub fn normalisation_reason(search: &[&str], region: &[&str]) -> Option<Reason> {
    let entities = |l: &str| unescape_entities(l);
    let looks = |l: &str| plain_lookalikes(l);
    let space = |l: &str| squeeze_space(l);
    let all = |l: &str| squeeze_space(&plain_lookalikes(&unescape_entities(l)));
    let joined = search.join("\n");
    if has_entity(&joined) && equal_by(search, region, entities, false) {
        return Some(Reason::HtmlEntities);
    }
    if equal_by(search, region, looks, false)
        && (has_lookalike(&joined) || region.iter().any(|l| has_lookalike(l)))
    {
        return Some(Reason::UnicodeLookalike);
    }
    if equal_by(search, region, |l| l.replace('\r', ""), false) {
        return Some(
            if joined.contains('\r') || region.iter().any(|l| l.contains('\r')) {
                Reason::LineEndings
            } else {
                Reason::Whitespace
            },
        );
    }
    if equal_by(search, region, space, true) {
        return Some(Reason::Whitespace);
    }
    if equal_by(search, region, all, true) {
        if has_entity(&joined) {
            return Some(Reason::HtmlEntities);
        }
        return Some(Reason::UnicodeLookalike);
    }
    None
}

/// Whether the SEARCH text is a piece of the region that starts or ends
/// inside a line (the reference needs whole lines).
pub fn is_partial_line(search: &[&str], region: &[&str]) -> bool {
    let needle = js_trim(&search.join("\n")).replace('\r', "");
    if needle.is_empty() {
        return false;
    }
    let hay = region.join("\n").replace('\r', "");
    if hay.contains(&needle) {
        return true;
    }
    let squeezed = squeeze_space(&plain_lookalikes(&needle));
    !squeezed.is_empty() && squeeze_space(&plain_lookalikes(&hay)).contains(&squeezed)
}

/// Full line diff of SEARCH against the region (for display). Lines are
/// aligned by their loose form (white space, case, look-alikes and
/// entities ignored), the way the line-trimmed stage pairs them, so a
/// re-indented block pairs each line with its own file line instead of
/// with an unrelated line that happens to read the same (`}`); lines the
/// alignment pairs but that differ are shown as a `-`/`+` pair.
pub fn line_diff(search: &[&str], region: &[&str], first_file_line: usize) -> Vec<DiffLine> {
    let key = |l: &str| loose_hash(&unescape_entities(l));
    let a: Vec<u64> = search.iter().map(|l| key(l)).collect();
    let b: Vec<u64> = region.iter().map(|l| key(l)).collect();
    let line = |tag, s: Option<usize>, f: Option<usize>, text: &str| DiffLine {
        tag,
        search_line: s.map(|i| i + 1),
        file_line: f.map(|i| i + first_file_line),
        text: text.to_string(),
    };
    let mut out = Vec::with_capacity(search.len().max(region.len()));
    for op in textdiff::ops(&a, &b, None) {
        let (old, new) = (op.old_range(), op.new_range());
        if matches!(op, DiffOp::Equal { .. }) {
            for (i, j) in old.zip(new) {
                if search[i] == region[j] {
                    out.push(line(Side::Equal, Some(i), Some(j), search[i]));
                } else {
                    out.push(line(Side::Delete, Some(i), None, search[i]));
                    out.push(line(Side::Insert, None, Some(j), region[j]));
                }
            }
        } else {
            out.extend(old.map(|i| line(Side::Delete, Some(i), None, search[i])));
            out.extend(new.map(|j| line(Side::Insert, None, Some(j), region[j])));
        }
    }
    out
}

/// The changed lines only: deleted/inserted runs are paired line by line and
/// each pair is named (indentation, entity, ...) with a word diff.
pub fn differences(lines: &[DiffLine]) -> Vec<Difference> {
    let mut out = Vec::new();
    for (dels, ins) in changed_runs(lines) {
        let (dels, ins) = (&lines[dels], &lines[ins]);
        for k in 0..dels.len().max(ins.len()) {
            out.push(pair(dels.get(k), ins.get(k)));
        }
    }
    out
}

/// The changes of a line diff, in order: each a run of deleted (SEARCH)
/// lines and the run of inserted (file) lines right after it, as index
/// ranges into `lines` (one of them may be empty). The k-th lines of the
/// two runs are the pair compared word by word.
pub fn changed_runs(lines: &[DiffLine]) -> impl Iterator<Item = (Range<usize>, Range<usize>)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < lines.len() {
            let dels = i;
            while i < lines.len() && lines[i].tag == Side::Delete {
                i += 1;
            }
            let ins = i;
            while i < lines.len() && lines[i].tag == Side::Insert {
                i += 1;
            }
            if i > dels {
                return Some((dels..ins, ins..i));
            }
            i += 1;
        }
        None
    })
}

fn pair(search: Option<&DiffLine>, file: Option<&DiffLine>) -> Difference {
    let kind = match (search, file) {
        (Some(s), Some(f)) => line_kind(&s.text, &f.text),
        (Some(_), None) => DifferenceKind::MissingLine,
        _ => DifferenceKind::ExtraLine,
    };
    let words = match (search, file) {
        (Some(s), Some(f)) => word_diff(&s.text, &f.text),
        _ => Vec::new(),
    };
    Difference {
        kind,
        search_line: search.and_then(|s| s.search_line),
        file_line: file.and_then(|f| f.file_line),
        search: search.map(|s| s.text.clone()),
        file: file.map(|f| f.text.clone()),
        words,
    }
}

/// Names how one SEARCH line differs from its file line.
pub fn line_kind(s: &str, f: &str) -> DifferenceKind {
    if s.trim_end_matches('\r') == f.trim_end_matches('\r') {
        return DifferenceKind::LineEnding;
    }
    if js_trim(s) == js_trim(f) {
        let lead = |x: &str| x.len() - x.trim_start().len();
        return if lead(s) != lead(f) {
            DifferenceKind::Indentation
        } else {
            DifferenceKind::TrailingSpace
        };
    }
    if has_entity(s) && js_trim(&unescape_entities(s)) == js_trim(f) {
        return DifferenceKind::Entity;
    }
    if js_trim(&plain_lookalikes(s)) == js_trim(&plain_lookalikes(f)) {
        return DifferenceKind::Lookalike;
    }
    if squeeze_space(s) == squeeze_space(f) {
        return DifferenceKind::Spacing;
    }
    DifferenceKind::Content
}

/// Word-level changes from the SEARCH line to the file line.
pub fn word_diff(s: &str, f: &str) -> Vec<WordChange> {
    let mut out: Vec<WordChange> = Vec::new();
    for c in TokenDiff::words(s, f).changes() {
        let tag = tag_name(c.tag());
        match out.last_mut() {
            Some(last) if last.tag == tag => last.text.push_str(c.value()),
            _ => out.push(WordChange {
                tag,
                text: c.value().to_string(),
            }),
        }
    }
    out
}

fn tag_name(tag: ChangeTag) -> Side {
    match tag {
        ChangeTag::Equal => Side::Equal,
        ChangeTag::Delete => Side::Delete,
        ChangeTag::Insert => Side::Insert,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_damage() {
        let file = ["if a < b {", "  x = \"y\";"];
        assert_eq!(
            normalisation_reason(&["if a &lt; b {", "  x = \"y\";"], &file),
            Some(Reason::HtmlEntities)
        );
        assert_eq!(
            normalisation_reason(&["if a < b {", "  x = \u{201C}y\u{201D};"], &file),
            Some(Reason::UnicodeLookalike)
        );
        assert_eq!(
            normalisation_reason(&["if a<b {", "x = \"y\";"], &file),
            Some(Reason::Whitespace)
        );
        assert_eq!(normalisation_reason(&["if a > b {", "x"], &file), None);
        assert!(is_partial_line(&["a < b"], &file));
    }

    /// A re-indented block: every line pairs with its own file line, even
    /// where a SEARCH line reads exactly like another file line (`  }`).
    #[test]
    fn reindented_lines_pair_with_their_own_lines() {
        let file = [
            "function f() {",
            "  if (a) {",
            "    b();",
            "  }",
            "  c();",
            "  return d;",
            "}",
        ];
        let search: Vec<String> = file.iter().map(|l| format!("  {l}")).collect();
        let search: Vec<&str> = search.iter().map(String::as_str).collect();
        let lines = line_diff(&search, &file, 10);
        let d = differences(&lines);
        assert_eq!(d.len(), 7, "{d:#?}");
        for (k, x) in d.iter().enumerate() {
            assert_eq!(x.kind, DifferenceKind::Indentation, "{x:?}");
            assert_eq!(x.search_line, Some(k + 1));
            assert_eq!(x.file_line, Some(k + 10));
        }
    }

    #[test]
    fn pairs_changed_lines() {
        let lines = line_diff(&["a", " b", "c"], &["a", "b", "d"], 10);
        let d = differences(&lines);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].kind, DifferenceKind::Indentation);
        assert_eq!(d[0].file_line, Some(11));
        assert_eq!(d[1].kind, DifferenceKind::Content);
    }
}
