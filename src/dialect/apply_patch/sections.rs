//! Two `*** Update File:` sections for one file in one patch (tester 48
//! T-06). The reference allows it and applies the sections one after the
//! other, each over the file as the one before left it; a later section's
//! hunks are searched from the file's top again, not on from where the
//! earlier section's last hunk ended as the same hunks in one section
//! would be. A hunk whose lines stand at several places (a `return None`
//! in each function) then lands in an earlier place than its order in the
//! patch says: a doubt ([`split_doubts`]), with the patch whose sections
//! for one file are joined into one ([`joined`]) as the correction.
//! OpenCode reads every section from the file as it was before the patch
//! and writes them in turn, so its later section's write replaces the
//! earlier one's (`patch_family`); Cline refuses the patch
//! (`Duplicate update for file`).

use super::apply::apply;
use super::diagnosis::section_input;
use super::doubt_kind::{PatchDoubt, PatchDoubtKind};
use super::fs::{PatchFs, normalize};
use super::model::{Patch, Section};
use super::outcome::PatchOutcome;
use super::update::line_texts;
use crate::words::line_range;

/// Each Update section (not moved) of a file that an earlier Update
/// section (not moved) updated, nothing between them naming that file:
/// `(earlier, later)` 0-based section pairs, in the later's order.
pub fn repeated_updates(patch: &Patch) -> Vec<(usize, usize)> {
    repeated_updates_by(patch, normalize)
}

/// [`repeated_updates`] with paths compared by `name` (one text per file:
/// [`super::fs::same_file`] makes `./a.py`, an absolute path and a link
/// one file).
pub fn repeated_updates_by(patch: &Patch, name: impl Fn(&str) -> String) -> Vec<(usize, usize)> {
    let in_place = |s: &Section| matches!(s, Section::Update { move_to: None, .. });
    let touches = |section: &Section, key: &str| {
        name(section.path()) == key
            || matches!(section, Section::Update { move_to: Some(to), .. } if name(to) == key)
    };
    let mut out = Vec::new();
    for (j, section) in patch.sections.iter().enumerate() {
        if !in_place(section) {
            continue;
        }
        let key = name(section.path());
        let earlier = patch.sections[..j].iter().rposition(|s| touches(s, &key));
        if let Some(i) = earlier.filter(|&i| in_place(&patch.sections[i])) {
            out.push((i, j));
        }
    }
    out
}

/// A patch whose sections for one file are joined: the joined patch, and
/// for each section of the original, the joined section it went into and
/// the index its first hunk has there.
pub struct Joined {
    /// The patch with every later section's hunks after its file's first
    /// section's, in patch order, the later sections left out.
    pub patch: Patch,
    /// Per original section: `(joined section, first hunk's index there)`.
    pub places: Vec<(usize, usize)>,
}

/// `patch` with each Update section of a file an earlier one updated
/// ([`repeated_updates`]) joined into the file's first: its hunks follow
/// that section's, and it is left out. `None` when no file has two.
pub fn joined(patch: &Patch) -> Option<Joined> {
    let pairs = repeated_updates(patch);
    if pairs.is_empty() {
        return None;
    }
    let n = patch.sections.len();
    let mut head: Vec<usize> = (0..n).collect();
    for &(i, j) in &pairs {
        head[j] = head[i];
    }
    let mut sections: Vec<Section> = Vec::with_capacity(n);
    let mut places = vec![(0, 0); n];
    for (k, section) in patch.sections.iter().enumerate() {
        if head[k] == k {
            places[k] = (sections.len(), 0);
            sections.push(section.clone());
            continue;
        }
        let at = places[head[k]].0;
        if let (Section::Update { chunks: more, .. }, Some(Section::Update { chunks, .. })) =
            (section, sections.get_mut(at))
        {
            places[k] = (at, chunks.len());
            chunks.extend(more.iter().cloned());
        }
    }
    Some(Joined {
        patch: Patch { sections },
        places,
    })
}

/// Each hunk of a later section for a file ([`repeated_updates`]) that
/// the reference, applying `patch` as `outcome` says, placed elsewhere
/// than the same hunks sent as one section ([`joined`]) would: searched
/// from the file's top again, it took an earlier place its lines also
/// stand at. Nothing where the joined patch fails (the later section
/// reaches back above the earlier one's hunks: only the sections as sent
/// place it) or gives the same file.
pub fn split_doubts(
    patch: &Patch,
    outcome: &PatchOutcome,
    fs: &dyn PatchFs,
    cwd: &str,
) -> Vec<PatchDoubt> {
    let mut out = Vec::new();
    if outcome.exit_code != 0 {
        return out;
    }
    let Some(joined) = joined(patch) else {
        return out;
    };
    let together = apply(&joined.patch, fs, cwd);
    if together.exit_code != 0 {
        return out;
    }
    for (i, j) in repeated_updates(patch) {
        let Section::Update { path, .. } = &patch.sections[j] else {
            continue;
        };
        let key = normalize(path);
        if together.files.get(&key) == outcome.files.get(&key) {
            continue;
        }
        // Line numbers of the file the joined section searched (the file
        // before the patch) as the later section's file has them: past
        // every earlier hunk, the lines differ only by what those added
        // or removed.
        let Some(before) = section_input(patch, fs, cwd, first_of(patch, i)) else {
            continue;
        };
        let Some(input) = section_input(patch, fs, cwd, j) else {
            continue;
        };
        let shift = line_texts(&input).len() as isize - line_texts(&before).len() as isize;
        let (at, offset) = joined.places[j];
        let (Some(split), Some(one)) = (outcome.sections.get(j), together.sections.get(at)) else {
            continue;
        };
        for (h, hunk) in split.hunks.iter().enumerate() {
            let Some(other) = one.hunks.get(offset + h) else {
                continue;
            };
            // A place its lines fit only more loosely than where they
            // landed is no place they stand at (a sweep's find: a line
            // standing once, and again with another indentation below).
            if other.level > hunk.level || other.is_loose() && !hunk.is_loose() {
                continue;
            }
            let (Some(landed), Some(meant)) = (hunk.matched, other.matched) else {
                continue;
            };
            let meant = meant.start_line as isize + shift;
            if meant == landed.start_line as isize || meant < 1 {
                continue;
            }
            out.push(PatchDoubt {
                file: path.clone(),
                section: j,
                hunk: Some(h),
                kind: PatchDoubtKind::SplitSections,
                message: format!(
                    "hunk #{} of section {} updates {path} again after section {}: the \
                     reference searches a section's hunks from the top of the file (as section \
                     {} left it), so it lands at {}, and its lines stand again at line {meant}, \
                     past section {}'s hunks, where the same hunks sent as one section would \
                     land: send the hunks of {path} as one section, in file order",
                    h + 1,
                    j + 1,
                    i + 1,
                    i + 1,
                    line_range("line", landed.start_line, landed.end_line),
                    i + 1,
                ),
            });
        }
    }
    out
}

/// `fix FILE PATCH` of a patch whose sections for FILE (named `name`, its
/// `content`, in `cwd`) are several Updates one after the other: the
/// patch with them joined into one ([`joined`]), which the one-file
/// commands take, when the joined patch applies and gives what was meant:
/// the sections' own result, or the one section's where a later section's
/// hunk landed above it ([`split_doubts`]). `None` when no file has two
/// sections; `Err` says why they are not joined (a later section reaching
/// back above the earlier one's hunks: only the sections as sent place
/// it).
pub fn joined_for_file(
    text: &str,
    name: &str,
    content: &str,
    cwd: &str,
) -> Option<Result<String, String>> {
    let patch = super::parse(text).ok()?;
    let joined = joined(&patch)?;
    let key = repeated_updates(&patch)
        .iter()
        .map(|&(i, _)| normalize(patch.sections[i].path()))
        .find(|key| key == name || key.ends_with(&format!("/{name}")))?;
    let fs = super::MemoryFs::new([(key.clone(), content.to_string())]);
    // The patch runs in the folder its paths are relative to: its error
    // texts name the file there (session 51: `src/src/a.py` for `src/a.py`
    // run from `src`).
    let root = super::fs::patch_root(cwd, &key);
    let cwd = root.as_str();
    let together = apply(&joined.patch, &fs, cwd);
    if together.exit_code != 0 {
        // A later section's hunk whose old lines the file before the patch
        // does not hold edits what an earlier section wrote (session 50:
        // it was said to stand above the earlier one's hunks).
        let rewrites = repeated_updates(&patch)
            .iter()
            .any(|&(_, j)| match &patch.sections[j] {
                Section::Update { chunks, .. } => chunks.iter().any(|chunk| {
                    let old: String = chunk.old_lines().iter().map(|l| format!("{l}\n")).collect();
                    !old.is_empty() && !content.contains(&old)
                }),
                _ => false,
            });
        let why = if rewrites {
            "a later section's hunk edits lines an earlier section writes"
        } else {
            "a later section's hunk stands above an earlier one's"
        };
        return Some(Err(format!(
            "its sections for {name} cannot be joined into one in patch order: {why}, and as \
             one section the reference fails ({})",
            together.stderr.trim_end().replace('\n', " ")
        )));
    }
    let split = apply(&patch, &fs, cwd);
    let meant = split.exit_code != 0
        || split.files.get(&key) == together.files.get(&key)
        || split_doubts(&patch, &split, &fs, cwd)
            .iter()
            .any(|d| normalize(&d.file) == key);
    if !meant {
        return Some(Err(format!(
            "its sections for {name} joined into one give another file than the sections \
             one after the other"
        )));
    }
    Some(Ok(super::render(&joined.patch)))
}

/// The first section of the file section `i` updates: `i`'s earliest
/// predecessor in [`repeated_updates`].
fn first_of(patch: &Patch, i: usize) -> usize {
    let pairs = repeated_updates(patch);
    let mut at = i;
    while let Some(&(earlier, _)) = pairs.iter().find(|&&(_, later)| later == at) {
        at = earlier;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::{MemoryFs, parse, patch_doubts, render};

    const M_PY: &str = "def first(x):\n    if x < 0:\n        return None\n    return x * 2\n\n\n\
                        def second(y):\n    if y is None:\n        return None\n    return y + 1\n\n\n\
                        def third(z):\n    if not z:\n        return None\n    return z[0]\n";

    /// A patch of these lines between `*** Begin Patch` and `*** End Patch`.
    fn patch_of(lines: &[&str]) -> String {
        format!("*** Begin Patch\n{}\n*** End Patch", lines.join("\n"))
    }

    /// A patch of two sections for `m.py`, of `first`'s and `second`'s
    /// hunk lines.
    fn two_sections(first: &[&str], second: &[&str]) -> String {
        let section = |lines: &[&str]| format!("*** Update File: m.py\n{}", lines.join("\n"));
        patch_of(&[&section(first), &section(second)])
    }

    fn doubts_of(patch: &str) -> Vec<PatchDoubt> {
        doubts_over(M_PY, patch)
    }

    /// `patch`'s doubts over `m.py` holding `content` (the patch applies).
    fn doubts_over(content: &str, patch: &str) -> Vec<PatchDoubt> {
        let fs = MemoryFs::new([("m.py".to_string(), content.to_string())]);
        let patch = parse(patch).expect("a patch");
        let outcome = apply(&patch, &fs, "/w");
        assert_eq!(outcome.exit_code, 0, "{}", outcome.stderr);
        patch_doubts(&patch, &outcome, &fs, "/w")
    }

    #[test]
    fn a_later_sections_hunk_landing_above_where_one_section_would_is_doubted() {
        let patch = two_sections(
            &[
                "@@ def second(y):",
                "     if y is None:",
                "-        return None",
                "+        return 0",
            ],
            &["@@", "-        return None", "+        return []"],
        );
        let doubts = doubts_of(&patch);
        let split: Vec<&PatchDoubt> = doubts
            .iter()
            .filter(|d| d.kind == PatchDoubtKind::SplitSections)
            .collect();
        assert_eq!(split.len(), 1, "{doubts:?}");
        assert_eq!((split[0].section, split[0].hunk), (1, Some(0)));
        assert_eq!(
            split[0].message,
            "hunk #1 of section 2 updates m.py again after section 1: the reference searches a \
             section's hunks from the top of the file (as section 1 left it), so it lands at \
             line 3, and its lines stand again at line 15, past section 1's hunks, where the \
             same hunks sent as one section would land: send the hunks of m.py as one section, \
             in file order"
        );
        // Said once: not also as lines standing at several places.
        assert!(
            doubts.iter().all(|d| d.kind != PatchDoubtKind::Repeated),
            "{doubts:?}"
        );
        // The joined patch lands the hunk at line 15, and is in no doubt.
        let parsed = parse(&patch).expect("a patch");
        let one = joined(&parsed).expect("joined");
        assert_eq!(one.patch.sections.len(), 1);
        let fs = MemoryFs::new([("m.py".to_string(), M_PY.to_string())]);
        let outcome = apply(&one.patch, &fs, "/w");
        let result = outcome.files["m.py"].as_deref().unwrap_or_default();
        assert!(
            result.contains("    if not z:\n        return []\n"),
            "{result}"
        );
        assert!(patch_doubts(&one.patch, &outcome, &fs, "/w").is_empty());
        assert_eq!(render(&one.patch).matches("*** Update File:").count(), 1);
    }

    #[test]
    fn sections_agreeing_with_one_section_or_reaching_back_above_are_not_doubted() {
        // Lines standing once: the same place either way.
        let unique = two_sections(
            &[
                "@@ def second(y):",
                "-    return y + 1",
                "+    return y + 2",
            ],
            &[
                "@@",
                "     if not z:",
                "-        return None",
                "+        raise ValueError",
            ],
        );
        assert!(doubts_of(&unique).is_empty());
        // A later section reaching back above the earlier one's hunk (one
        // section could not place it): only the sections as sent place it.
        let back = two_sections(
            &["@@ def third(z):", "-    return z[0]", "+    return z[-1]"],
            &["@@", " def first(x):", "-    if x < 0:", "+    if x <= 0:"],
        );
        assert!(doubts_of(&back).is_empty());
        // Reaching back onto a line that stands once, and again below the
        // earlier section's hunk only with another indentation: one
        // section would take that loose place, not a place its lines
        // stand at.
        let once = two_sections(
            &["@@ def third(z):", "-    return z[0]", "+    return z[-1]"],
            &["@@", "     if x < 0:", "+        x = 0"],
        );
        let below = format!("{M_PY}\n\ndef fourth(x):\n  if x < 0:\n    return 1\n");
        assert!(doubts_over(&below, &once).is_empty());
        // Moved in between: nothing to join.
        let moved = patch_of(&[
            "*** Update File: m.py",
            "@@",
            "-    return x * 2",
            "+    return x",
            "*** Update File: m.py",
            "*** Move to: n.py",
            "@@",
            "-    return z[0]",
            "+    return z",
        ]);
        assert!(repeated_updates(&parse(&moved).expect("a patch")).is_empty());
    }

    #[test]
    fn three_sections_for_a_file_join_into_the_first_in_order() {
        let parsed = parse(&patch_of(&[
            "*** Update File: a",
            "@@",
            "-1",
            "+one",
            "*** Update File: b",
            "@@",
            "-x",
            "+y",
            "*** Update File: ./a",
            "-2",
            "+two",
            "*** Update File: a",
            "@@",
            "-3",
            "+three",
        ]))
        .expect("a patch");
        assert_eq!(repeated_updates(&parsed), [(0, 2), (2, 3)]);
        let one = joined(&parsed).expect("joined");
        assert_eq!(one.places, [(0, 0), (1, 0), (0, 1), (0, 2)]);
        assert_eq!(
            render(&one.patch),
            patch_of(&[
                "*** Update File: a",
                "@@",
                "-1",
                "+one",
                "@@",
                "-2",
                "+two",
                "@@",
                "-3",
                "+three",
                "*** Update File: b",
                "@@",
                "-x",
                "+y",
            ]) + "\n"
        );
    }
}
