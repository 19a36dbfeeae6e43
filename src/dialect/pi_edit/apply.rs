//! pi's matcher: `fuzzyFindText`, `countOccurrences` and
//! `applyEditsToNormalizedContent` from `dist/core/tools/edit-diff.js`,
//! ported step for step. Positions are byte offsets: every match and splice
//! falls on character boundaries, so they order and compare as pi's UTF-16
//! offsets do.

use std::borrow::Cow;
use std::cell::OnceCell;

use memchr::memmem;

use super::arguments::RawEdit;
use super::normalize::{normalize_for_fuzzy_match, normalize_to_lf, utf16_len};

/// How `fuzzyFindText` found an `oldText` (the corpus's `edit_stages`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindStage {
    /// `indexOf` of the (LF-normalised) `oldText` itself.
    Exact,
    /// `indexOf` of `normalizeForFuzzyMatch(oldText)` in the normalised
    /// content.
    Fuzzy,
    NotFound,
    /// The `oldText` is empty: pi refuses it before matching.
    Empty,
}

impl FindStage {
    pub fn name(self) -> &'static str {
        match self {
            FindStage::Exact => "exact",
            FindStage::Fuzzy => "fuzzy",
            FindStage::NotFound => "not_found",
            FindStage::Empty => "empty",
        }
    }
}

/// A text searched by `fuzzyFindText`, with its `normalizeForFuzzyMatch`
/// form computed once (pi recomputes it on every call: same result).
struct Haystack<'a> {
    text: &'a str,
    normalized: OnceCell<Cow<'a, str>>,
}

impl<'a> Haystack<'a> {
    fn new(text: &'a str) -> Self {
        Haystack {
            text,
            normalized: OnceCell::new(),
        }
    }

    /// A text that is `normalizeForFuzzyMatch`'s output: the function is
    /// idempotent (NFKC is; trimming whitespace off a line's end keeps it
    /// NFKC; the folded quotes and dashes become ASCII characters that
    /// neither compose nor fold; no special space survives NFKC), so the
    /// text is its own normalised form.
    fn normalized_already(text: &'a str) -> Self {
        Haystack {
            text,
            normalized: OnceCell::from(Cow::Borrowed(text)),
        }
    }

    fn normalized(&self) -> &str {
        self.normalized
            .get_or_init(|| super::normalize::normalized_for_fuzzy_match(self.text))
    }

    /// `fuzzyFindText(text, old)`: `(index, length, fuzzy)`; a fuzzy
    /// match's offsets are in the normalised text.
    fn find(&self, old: &str) -> Option<(usize, usize, bool)> {
        if let Some(index) = memmem::find(self.text.as_bytes(), old.as_bytes()) {
            return Some((index, old.len(), false));
        }
        let fuzzy_old = normalize_for_fuzzy_match(old);
        memmem::find(self.normalized().as_bytes(), fuzzy_old.as_bytes())
            .map(|index| (index, fuzzy_old.len(), true))
    }

    /// `countOccurrences(text, old)`: `normalized.split(fuzzyOld).length -
    /// 1`. Splitting on an empty separator splits into UTF-16 code units
    /// (none for an empty text), hence `length - 1` (or -1).
    fn count(&self, old: &str) -> i64 {
        let fuzzy_old = normalize_for_fuzzy_match(old);
        let normalized = self.normalized();
        if fuzzy_old.is_empty() {
            return utf16_len(normalized) as i64 - 1;
        }
        // memmem's matches do not overlap, as `split`'s pieces.
        memmem::find_iter(normalized.as_bytes(), fuzzy_old.as_bytes()).count() as i64
    }
}

/// Why `applyEditsToNormalizedContent` threw (its texts are in
/// [`super::texts`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApplyError {
    EmptyOldText {
        edit: usize,
    },
    NotFound {
        edit: usize,
    },
    Duplicate {
        edit: usize,
        occurrences: i64,
    },
    /// Two matches overlap: `first` and `second` in file order.
    Overlap {
        first: usize,
        second: usize,
    },
    NoChange,
}

/// One edit placed in `base_content`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub edit: usize,
    /// Byte offset in `base_content`.
    pub index: usize,
    /// Byte length of the replaced text.
    pub length: usize,
    /// The LF-normalised `newText`, inserted as is.
    pub new_text: String,
}

/// The matcher's result on one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied<'a> {
    /// Each edit's `initialMatches` stage (`fuzzyFindText` on the original
    /// content), in input order; `empty` for an empty `oldText`.
    pub stages: Vec<FindStage>,
    /// Some edit needed the fuzzy match: `base_content` is the whole file
    /// normalised.
    pub fuzzy: bool,
    /// What the edits were placed in: the content, or its normalised form.
    pub base_content: Cow<'a, str>,
    pub outcome: Result<(String, Vec<Placed>), ApplyError>,
}

/// `applyEditsToNormalizedContent(normalizedContent, edits)`: every
/// `oldText` and `newText` LF-normalised; an empty `oldText` refused
/// (before any matching); each edit found in the original content
/// (`initialMatches`); if any needed the fuzzy match, all are placed in the
/// normalised whole file; then per edit, in input order, found again
/// (or not found) and counted in normalised space (more than one: a
/// duplicate); matches sorted by position and refused if overlapping;
/// `newText`s spliced in; an unchanged result refused.
pub fn apply_edits<'a>(content: &'a str, edits: &[RawEdit]) -> Applied<'a> {
    let normalized_edits: Vec<(String, String)> = edits
        .iter()
        .map(|e| {
            (
                normalize_to_lf(&e.old_text).into_owned(),
                normalize_to_lf(&e.new_text).into_owned(),
            )
        })
        .collect();
    let original = Haystack::new(content);
    let stages: Vec<FindStage> = normalized_edits
        .iter()
        .map(|(old, _)| match old.is_empty() {
            true => FindStage::Empty,
            false => match original.find(old) {
                None => FindStage::NotFound,
                Some((_, _, true)) => FindStage::Fuzzy,
                Some((_, _, false)) => FindStage::Exact,
            },
        })
        .collect();
    let fuzzy = stages.contains(&FindStage::Fuzzy);
    let (base_content, outcome) = if fuzzy {
        // The normalised file (computed by the fuzzy find, taken, not
        // copied) is the base, and its own normalised form.
        let normalized = original
            .normalized
            .into_inner()
            .unwrap_or_else(|| Cow::Owned(normalize_for_fuzzy_match(content)));
        let outcome = place(
            &Haystack::normalized_already(&normalized),
            &normalized_edits,
        );
        (normalized, outcome)
    } else {
        // The base is the content: its normalised form (for the counts)
        // may be known already.
        let outcome = place(&original, &normalized_edits);
        (Cow::Borrowed(content), outcome)
    };
    Applied {
        stages,
        fuzzy,
        base_content,
        outcome,
    }
}

/// The part of `applyEditsToNormalizedContent` after `baseContent` is
/// chosen: the new content and the placed edits (sorted by position).
fn place(base: &Haystack, edits: &[(String, String)]) -> Result<(String, Vec<Placed>), ApplyError> {
    if let Some(edit) = edits.iter().position(|(old, _)| old.is_empty()) {
        return Err(ApplyError::EmptyOldText { edit });
    }
    let base_content = base.text;
    let mut placed = Vec::with_capacity(edits.len());
    for (edit, (old, new)) in edits.iter().enumerate() {
        let Some((index, length, _)) = base.find(old) else {
            return Err(ApplyError::NotFound { edit });
        };
        let occurrences = base.count(old);
        if occurrences > 1 {
            return Err(ApplyError::Duplicate { edit, occurrences });
        }
        placed.push(Placed {
            edit,
            index,
            length,
            new_text: new.clone(),
        });
    }
    placed.sort_by_key(|p| p.index);
    for pair in placed.windows(2) {
        if pair[0].index + pair[0].length > pair[1].index {
            return Err(ApplyError::Overlap {
                first: pair[0].edit,
                second: pair[1].edit,
            });
        }
    }
    let mut new_content = String::with_capacity(base_content.len());
    let mut copied = 0;
    for p in &placed {
        // A fuzzy match's offsets are in normalize(baseContent), which is
        // baseContent itself (see `Haystack::normalized_already`), so they
        // fall on its character boundaries. Checked anyway: never slice
        // off a boundary.
        let (Some(before), true) = (
            base_content.get(copied..p.index),
            base_content.is_char_boundary(p.index + p.length),
        ) else {
            return Err(ApplyError::NotFound { edit: p.edit });
        };
        new_content.push_str(before);
        new_content.push_str(&p.new_text);
        copied = p.index + p.length;
    }
    new_content.push_str(base_content.get(copied..).unwrap_or_default());
    if new_content == base_content {
        return Err(ApplyError::NoChange);
    }
    Ok((new_content, placed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(old: &str, new: &str) -> RawEdit {
        RawEdit {
            old_text: old.into(),
            new_text: new.into(),
        }
    }

    fn new_content(content: &str, edits: &[RawEdit]) -> Result<String, ApplyError> {
        apply_edits(content, edits).outcome.map(|(text, _)| text)
    }

    #[test]
    fn exact_edits_keep_the_rest_of_the_file() {
        let applied = apply_edits("a  \nb\nc\n", &[edit("b", "B")]);
        assert_eq!(applied.stages, [FindStage::Exact]);
        assert_eq!(applied.outcome.unwrap().0, "a  \nB\nc\n");
    }

    #[test]
    fn one_fuzzy_edit_normalises_the_whole_file() {
        let applied = apply_edits(
            "x = \u{201c}q\u{201d}  \nb  \nc\n",
            &[edit("b", "B  "), edit("c  ", "C")],
        );
        assert_eq!(applied.stages, [FindStage::Exact, FindStage::Fuzzy]);
        assert_eq!(applied.outcome.unwrap().0, "x = \"q\"\nB  \nC\n");
    }

    #[test]
    fn uniqueness_is_counted_in_normalised_space() {
        assert_eq!(
            new_content("a  \nb\na\nb\n", &[edit("a  \nb", "x")]),
            Err(ApplyError::Duplicate {
                edit: 0,
                occurrences: 2
            })
        );
    }

    #[test]
    fn overlaps_are_named_in_file_order() {
        assert_eq!(
            new_content("abcdef", &[edit("cd", "1"), edit("bc", "2")]),
            Err(ApplyError::Overlap {
                first: 1,
                second: 0
            })
        );
        assert_eq!(
            new_content("abcdef", &[edit("cd", "1"), edit("ab", "2")]).unwrap(),
            "21ef"
        );
    }

    #[test]
    fn empty_old_text_is_refused_before_matching() {
        assert_eq!(
            new_content("abc", &[edit("zz", "1"), edit("\r", "2"), edit("", "3")]),
            Err(ApplyError::EmptyOldText { edit: 2 })
        );
        assert_eq!(
            new_content("abc", &[edit("zz", "1"), edit("", "3")]),
            Err(ApplyError::EmptyOldText { edit: 1 })
        );
    }

    #[test]
    fn whitespace_only_old_text_counts_every_code_unit() {
        // normalize("  ") is empty: split("") gives one piece per UTF-16 unit.
        assert_eq!(
            new_content("ab\u{1f600}", &[edit("  ", "x")]),
            Err(ApplyError::Duplicate {
                edit: 0,
                occurrences: 3
            })
        );
    }

    #[test]
    fn a_change_that_only_normalises_is_no_change() {
        assert_eq!(
            new_content("a \u{2013} b  \n", &[edit("a - b", "a - b")]),
            Err(ApplyError::NoChange)
        );
    }
}
