//! The diff made of some of its blocks only, like `git add -p`: what
//! `srview apply --only/--skip` applies and what the previewer writes once
//! blocks are left out. The chosen blocks go through the same applier as a
//! whole diff does: the result is the reference's result of the diff made
//! of those blocks, never a splice of block results.
//!
//! Blocks are numbered as `check` lists them ("Block #1"): SEARCH/REPLACE
//! blocks in diff order, the hunks of the patch section that edits FILE in
//! patch order (an added file is one hunk), an edit's JSON as one block.

use std::collections::BTreeSet;

use super::Dialect;
use super::apply_patch::{Section, parse, render};
use crate::engine::Version;

/// Which blocks to keep, by their numbers from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Only these blocks.
    Only(BTreeSet<usize>),
    /// Every block but these.
    Skip(BTreeSet<usize>),
}

impl Choice {
    /// Whether block number `n` (from 1) is kept.
    pub fn keeps(&self, n: usize) -> bool {
        match self {
            Choice::Only(set) => set.contains(&n),
            Choice::Skip(set) => !set.contains(&n),
        }
    }

    /// The numbers the choice names.
    fn named(&self) -> &BTreeSet<usize> {
        match self {
            Choice::Only(set) | Choice::Skip(set) => set,
        }
    }
}

/// Why the blocks cannot be chosen. `Display` is the message a user sees.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChoiceError {
    /// A number names no block.
    #[error("there is no {noun} #{number}: the diff has {count} (numbered from 1)")]
    NoSuch {
        /// The number given.
        number: usize,
        /// `block` or `hunk`.
        noun: &'static str,
        /// "3 blocks".
        count: String,
    },
    /// The choice leaves nothing to apply.
    #[error("every {noun} is left out: nothing to apply")]
    NoneLeft {
        /// `block` or `hunk`.
        noun: &'static str,
    },
    /// A block's markers are not all read as markers by the reference:
    /// which lines it holds is not sure.
    #[error(
        "block #{block} has a line that looks like a marker but is not one to the reference \
         (diff line {line}): which lines each block holds is not sure, so blocks cannot be \
         chosen (srview check shows the markers)"
    )]
    OddMarkers {
        /// The block's number, from 1.
        block: usize,
        /// The 1-based diff line that looks like a marker.
        line: usize,
    },
    /// The patch does not parse: it has no hunks to choose from.
    #[error("the patch does not parse, so its hunks cannot be chosen: {0}")]
    Unparsed(String),
    /// The patch has no section for FILE (or several).
    #[error("{0}")]
    NoSection(String),
}

/// The diff made of the blocks `choice` keeps, and what it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    /// The diff to apply, in the dialect of the diff given.
    pub text: String,
    /// How many blocks the diff has.
    pub count: usize,
    /// The numbers (from 1) of the blocks left out, in order.
    pub left_out: Vec<usize>,
}

impl Chosen {
    /// "block #2", "blocks #2, #4" (hunks of a patch alike).
    pub fn left_out_words(&self, dialect: Dialect) -> String {
        numbered(noun(dialect), &self.left_out)
    }
}

/// `noun #a, #b` in the singular or plural.
pub fn numbered(noun: &str, numbers: &[usize]) -> String {
    let list: Vec<String> = numbers.iter().map(|n| format!("#{n}")).collect();
    let plural = if numbers.len() == 1 { "" } else { "s" };
    format!("{noun}{plural} {}", list.join(", "))
}

/// What a dialect calls its blocks.
pub fn noun(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::ApplyPatch => "hunk",
        Dialect::SearchReplace | Dialect::EditJson => "block",
    }
}

/// `text` (in `dialect`, read by parser `version`; `name`: FILE's name, as a
/// patch's section names it) made of the blocks `choice` keeps.
pub fn choose(
    text: &str,
    dialect: Dialect,
    version: Version,
    name: &str,
    choice: &Choice,
) -> Result<Chosen, ChoiceError> {
    let noun = noun(dialect);
    let count = match dialect {
        Dialect::SearchReplace => search_replace_spans(text, version)?.len(),
        Dialect::ApplyPatch => patch_hunks(text, name)?.1,
        Dialect::EditJson => 1,
    };
    if let Some(&number) = choice.named().iter().find(|&&n| n == 0 || n > count) {
        return Err(ChoiceError::NoSuch {
            number,
            noun,
            count: crate::words::count(count, noun),
        });
    }
    let left_out: Vec<usize> = (1..=count).filter(|&n| !choice.keeps(n)).collect();
    if left_out.len() == count {
        return Err(ChoiceError::NoneLeft { noun });
    }
    let text = match dialect {
        _ if left_out.is_empty() => text.to_string(),
        Dialect::SearchReplace => without_blocks(text, version, &left_out)?,
        Dialect::ApplyPatch => without_hunks(text, name, &left_out)?,
        // One block, kept (leaving it out is `NoneLeft`).
        Dialect::EditJson => text.to_string(),
    };
    Ok(Chosen {
        text,
        count,
        left_out,
    })
}

/// The blocks of a SEARCH/REPLACE diff, each sure of its lines.
fn search_replace_spans(
    diff: &str,
    version: Version,
) -> Result<Vec<crate::diagnose::BlockSpan>, ChoiceError> {
    let spans = crate::diagnose::block_spans(diff, version);
    if let Some((i, line)) = spans
        .iter()
        .enumerate()
        .find_map(|(i, s)| s.odd_markers.map(|line| (i, line)))
    {
        return Err(ChoiceError::OddMarkers { block: i + 1, line });
    }
    Ok(spans)
}

/// `diff` without the lines of the blocks numbered `left_out`: everything
/// else (the kept blocks, text between blocks) stays byte for byte.
pub fn without_blocks(
    diff: &str,
    version: Version,
    left_out: &[usize],
) -> Result<String, ChoiceError> {
    Ok(kept_lines(diff, version, left_out)?.text)
}

/// [`without_blocks`], with where its lines and blocks come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptLines {
    /// The diff without the blocks left out.
    pub text: String,
    /// For each line of `text`, its 1-based line in the whole diff.
    pub lines: Vec<usize>,
    /// For each block of `text`, its 0-based index in the whole diff.
    pub blocks: Vec<usize>,
}

/// `diff` without the blocks numbered `left_out` (from 1; numbers past the
/// last block name nothing), and where what stays comes from.
pub fn kept_lines(
    diff: &str,
    version: Version,
    left_out: &[usize],
) -> Result<KeptLines, ChoiceError> {
    let spans = search_replace_spans(diff, version)?;
    let dropped: Vec<[usize; 2]> = left_out
        .iter()
        .filter_map(|&n| spans.get(n.wrapping_sub(1)).map(|s| s.lines))
        .collect();
    let mut text = String::with_capacity(diff.len());
    let mut lines = Vec::new();
    for (i, line) in diff.split_inclusive('\n').enumerate() {
        let no = i + 1;
        if !dropped.iter().any(|&[a, b]| a <= no && no <= b) {
            text.push_str(line);
            lines.push(no);
        }
    }
    let blocks = (0..spans.len())
        .filter(|i| !left_out.contains(&(i + 1)))
        .collect();
    Ok(KeptLines {
        text,
        lines,
        blocks,
    })
}

/// The parsed patch, the index of FILE's section and its hunk count.
fn patch_hunks(text: &str, name: &str) -> Result<(super::apply_patch::Patch, usize), ChoiceError> {
    let patch = parse(text).map_err(|e| ChoiceError::Unparsed(e.to_string()))?;
    let picked = super::one_file::pick_section(&patch.sections, name, false)
        .map_err(|e| ChoiceError::NoSection(e.to_string()))?;
    let hunks = match picked {
        Some((_, Section::Update { chunks, .. })) => chunks.len(),
        Some((_, Section::Add { .. })) => 1,
        Some((_, Section::Delete { .. })) | None => 0,
    };
    Ok((patch, hunks))
}

/// The patch without the hunks numbered `left_out` of FILE's section,
/// rendered again (the reference reads it as it reads the patch, line
/// numbers aside).
fn without_hunks(text: &str, name: &str, left_out: &[usize]) -> Result<String, ChoiceError> {
    let (mut patch, _) = patch_hunks(text, name)?;
    let picked = super::one_file::pick_section(&patch.sections, name, false)
        .map_err(|e| ChoiceError::NoSection(e.to_string()))?;
    if let Some((i, _)) = picked
        && let Some(Section::Update { chunks, .. }) = patch.sections.get_mut(i)
    {
        let mut n = 0;
        chunks.retain(|_| {
            n += 1;
            !left_out.contains(&n)
        });
    }
    Ok(render(&patch))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only(numbers: &[usize]) -> Choice {
        Choice::Only(numbers.iter().copied().collect())
    }

    fn skip(numbers: &[usize]) -> Choice {
        Choice::Skip(numbers.iter().copied().collect())
    }

    /// `choice` of the v1 SEARCH/REPLACE `diff` for file `f`.
    fn of_blocks(diff: &str, choice: &Choice) -> Result<Chosen, ChoiceError> {
        choose(diff, Dialect::SearchReplace, Version::V1, "f", choice)
    }

    /// `choice` of [`PATCH`]'s hunks.
    fn of_patch(choice: &Choice) -> Result<Chosen, ChoiceError> {
        choose(PATCH, Dialect::ApplyPatch, Version::V1, "f.txt", choice)
    }

    const THREE: &str = "intro\n------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n\n------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n";

    /// The kept blocks stay byte for byte, text between blocks too.
    #[test]
    fn search_replace_blocks_are_left_out_whole() {
        let chosen = of_blocks(THREE, &only(&[1, 3]));
        assert_eq!(
            chosen,
            Ok(Chosen {
                text: "intro\n------- SEARCH\na\n=======\nA\n+++++++ REPLACE\n\n------- SEARCH\nc\n=======\nC\n+++++++ REPLACE\n".into(),
                count: 3,
                left_out: vec![2],
            })
        );
        let same = of_blocks(THREE, &skip(&[2]));
        assert_eq!(same, chosen);
        assert_eq!(
            chosen.map(|c| c.left_out_words(Dialect::SearchReplace)),
            Ok("block #2".to_string())
        );
    }

    #[test]
    fn numbers_out_of_range_and_nothing_left_are_refused() {
        let e = of_blocks(THREE, &only(&[4]));
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("there is no block #4: the diff has 3 blocks (numbered from 1)".to_string())
        );
        let e = of_blocks(THREE, &skip(&[0]));
        assert!(matches!(e, Err(ChoiceError::NoSuch { number: 0, .. })));
        let e = of_blocks(THREE, &skip(&[1, 2, 3]));
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("every block is left out: nothing to apply".to_string())
        );
    }

    /// A near-marker splits blocks where `check` splits them, but the
    /// reference may read the lines otherwise: no choice is made.
    #[test]
    fn odd_markers_refuse_a_choice() {
        let diff = "------- SEARCH\na\n=======>\nA\n+++++++ REPLACE\n";
        let e = of_blocks(diff, &only(&[1]));
        assert_eq!(e, Err(ChoiceError::OddMarkers { block: 1, line: 3 }));
    }

    const PATCH: &str = "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n@@\n c\n-d\n+D\n*** End of File\n*** End Patch\n";

    #[test]
    fn a_patch_keeps_the_hunks_chosen() {
        let chosen = of_patch(&skip(&[1]));
        assert_eq!(
            chosen.map(|c| c.text),
            Ok("*** Begin Patch\n*** Update File: f.txt\n@@\n c\n-d\n+D\n*** End of File\n*** End Patch\n".to_string())
        );
        let e = of_patch(&only(&[3]));
        assert_eq!(
            e.map_err(|e| e.to_string()),
            Err("there is no hunk #3: the diff has 2 hunks (numbered from 1)".to_string())
        );
    }

    #[test]
    fn an_edit_is_one_block() {
        let edit = r#"{"file_path": "f", "old_string": "a", "new_string": "b"}"#;
        let kept = choose(edit, Dialect::EditJson, Version::V1, "f", &only(&[1]));
        assert_eq!(kept.map(|c| c.text), Ok(edit.to_string()));
        let e = choose(edit, Dialect::EditJson, Version::V1, "f", &skip(&[1]));
        assert_eq!(e, Err(ChoiceError::NoneLeft { noun: "block" }));
    }
}
