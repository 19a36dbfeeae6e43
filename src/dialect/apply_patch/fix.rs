//! A patch corrected so that every hunk matches at level `exact`: loosely
//! matched lines rewritten as the file has them, added lines re-indented
//! as the file is ([`tighten_reindented`]; a hunk whose added lines cannot
//! be re-indented safely is left as written, with a note), failed
//! hunks rewritten onto their closest region when the diagnosis stands
//! behind it. Hunks run in order, so the patch is corrected one failure at
//! a time, each correction checked by applying the patch again.

use serde::Serialize;

use super::apply::{apply, apply_text};
use super::diagnosis::diagnose_hunks;
use super::fs::PatchFs;
use super::model::{Patch, Section};
use super::outcome::{HunkState, PatchOutcome};
use super::reindent::tighten_reindented;
use super::render::render;
use super::seek::MatchLevel;

/// Something the fix could not do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixNote {
    /// The file as the patch names it.
    pub file: String,
    /// 0-based section of the patch.
    pub section: usize,
    /// 0-based hunk within the section (`None` for the section itself).
    pub hunk: Option<usize>,
    /// Why it is left as written, in one sentence.
    pub message: String,
}

/// The corrected patch.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FixResult {
    /// The corrected patch as text (see [`render`]).
    pub text: String,
    /// The corrected patch, parsed.
    #[serde(skip)]
    pub patch: Patch,
    /// Every hunk of `text` applies at level `exact` and the patch
    /// succeeds. When `false`, `notes` says what is left.
    pub complete: bool,
    /// `[section, hunk]` of every failed hunk rewritten onto its region.
    pub corrected: Vec<[usize; 2]>,
    /// `[section, hunk]` of every loosely matched hunk tightened.
    pub tightened: Vec<[usize; 2]>,
    /// What could not be corrected, per hunk or section.
    pub notes: Vec<FixNote>,
}

/// Corrects `patch` for the files of `fs` in `cwd`.
pub fn fix_patch(patch: &Patch, fs: &dyn PatchFs, cwd: &str) -> FixResult {
    let mut current = patch.clone();
    let mut notes = Vec::new();
    let mut corrected: Vec<[usize; 2]> = Vec::new();
    let mut tightened: Vec<[usize; 2]> = Vec::new();
    // Loose hunks whose added lines cannot be re-indented safely.
    let mut withheld: Vec<[usize; 2]> = Vec::new();
    let hunks: usize = patch
        .sections
        .iter()
        .map(|s| match s {
            Section::Update { chunks, .. } => chunks.len(),
            _ => 0,
        })
        .sum();
    // The hunk last corrected and the region it was corrected onto.
    let mut pending: Option<([usize; 2], Option<[usize; 2]>)> = None;
    for _ in 0..=hunks {
        let outcome = apply(&current, fs, cwd);
        if let Some((at, region)) = pending.take()
            && let Some(why) = misplaced(&outcome, at, region)
        {
            // Undo the correction: it does not land where it was meant to.
            replace_chunk(&mut current, patch, at);
            corrected.retain(|c| *c != at);
            notes.push(note(&outcome, at[0], Some(at[1]), why));
            break;
        }
        let (tight, unindentable) = tighten_reindented(&current, &outcome);
        for (section, hunk) in outcome.loose_hunks() {
            let at = [section.index, hunk.index];
            if !tightened.contains(&at) && !unindentable.iter().any(|(u, _)| *u == at) {
                tightened.push(at);
            }
        }
        for (at, why) in unindentable {
            if !withheld.contains(&at) {
                withheld.push(at);
                notes.push(note(
                    &outcome,
                    at[0],
                    Some(at[1]),
                    format!("hunk {} is left as written: {why}", at[1] + 1),
                ));
            }
        }
        current = tight;
        let Some(section) = outcome
            .sections
            .iter()
            .find(|s| s.state == HunkState::Failed)
        else {
            break;
        };
        let Some(hunk) = section.hunks.iter().find(|h| h.state == HunkState::Failed) else {
            let error = section.error.clone().unwrap_or_default();
            notes.push(note(&outcome, section.index, None, error));
            break;
        };
        let at = [section.index, hunk.index];
        let diagnosis = diagnose_hunks(&current, &outcome, fs, cwd)
            .into_iter()
            .find(|d| d.section == at[0] && d.index == at[1]);
        let Some(diagnosis) = diagnosis else {
            let error = hunk.error.clone().unwrap_or_default();
            notes.push(note(&outcome, at[0], Some(at[1]), error));
            break;
        };
        match (diagnosis.suggestion, corrected.contains(&at)) {
            (Some(chunk), false) => {
                if let Section::Update { chunks, .. } = &mut current.sections[at[0]] {
                    chunks[at[1]] = chunk;
                }
                corrected.push(at);
                let region = diagnosis.closest.map(|c| [c.start_line, c.end_line]);
                pending = Some((at, region));
            }
            (Some(_), true) => {
                notes.push(note(
                    &outcome,
                    at[0],
                    Some(at[1]),
                    "the corrected hunk still does not apply".into(),
                ));
                break;
            }
            (None, _) => {
                notes.push(note(&outcome, at[0], Some(at[1]), diagnosis.message));
                break;
            }
        }
    }
    let text = render(&current);
    let check = apply_text(&text, fs, cwd);
    let all_exact = check.sections.iter().flat_map(|s| &s.hunks).all(|h| {
        h.level.is_none_or(|l| l == MatchLevel::Exact)
            && h.header.as_ref().is_none_or(|m| !m.is_loose())
    });
    let complete = notes.is_empty() && check.exit_code == 0 && all_exact;
    if !complete && notes.is_empty() {
        let message = if check.exit_code != 0 {
            format!(
                "the corrected patch still fails: {}",
                check.stderr.trim_end()
            )
        } else {
            "a hunk of the corrected patch still matches loosely".to_string()
        };
        let failing = check
            .sections
            .iter()
            .find(|s| s.state == HunkState::Failed)
            .map_or(0, |s| s.index);
        notes.push(note(&check, failing, None, message));
    }
    FixResult {
        text,
        patch: current,
        complete,
        corrected,
        tightened,
        notes,
    }
}

/// Why the hunk at `at`, corrected onto file lines `region` (or only its
/// `@@` line corrected), is not applied exactly over them; `None` when it is.
fn misplaced(outcome: &PatchOutcome, at: [usize; 2], region: Option<[usize; 2]>) -> Option<String> {
    let hunk = outcome.sections.get(at[0])?.hunks.get(at[1])?;
    let over_region = match (region, hunk.matched) {
        (Some([start, end]), Some(matched)) => {
            matched.start_line <= start && end <= matched.end_line
        }
        (Some(_), None) => false,
        (None, _) => true,
    };
    let exact = hunk.level == Some(MatchLevel::Exact)
        && hunk
            .header
            .as_ref()
            .is_none_or(|m| m.level == MatchLevel::Exact);
    (hunk.state == HunkState::Failed || !over_region || !exact).then(|| {
        "the corrected hunk would not apply exactly over the region it was corrected onto"
            .to_string()
    })
}

/// Puts `original`'s chunk at `at` back into `patch`.
fn replace_chunk(patch: &mut Patch, original: &Patch, at: [usize; 2]) {
    if let (Some(Section::Update { chunks, .. }), Some(Section::Update { chunks: old, .. })) =
        (patch.sections.get_mut(at[0]), original.sections.get(at[0]))
        && let (Some(slot), Some(chunk)) = (chunks.get_mut(at[1]), old.get(at[1]))
    {
        *slot = chunk.clone();
    }
}

fn note(outcome: &PatchOutcome, section: usize, hunk: Option<usize>, message: String) -> FixNote {
    FixNote {
        file: outcome
            .sections
            .get(section)
            .map_or_else(String::new, |s| s.path.clone()),
        section,
        hunk,
        message,
    }
}
