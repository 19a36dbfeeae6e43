//! `srview apply --transcript PATCH --json` on an apply_patch text: every
//! section's file, its new content, and its hunks with the level each
//! needed, beside the reference's own exit status and texts.

use serde::Serialize;

use crate::dialect::apply_patch::fs::normalize;
use crate::dialect::apply_patch::{HunkReport, HunkState, PatchOutcome, SectionOp};
use crate::source::transcript::Format;

/// One entry per section of the patch, in patch order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchTranscriptReport<'a> {
    /// The reference's exit status: 0 applied, 1 failed.
    exit_code: i32,
    files: Vec<PatchFileJson<'a>>,
    format: Format,
    /// Hunks that matched at a level other than `exact`.
    loose_hunks: usize,
    ok: bool,
    /// The reference's stderr (its error text) and stdout (its summary).
    stderr: &'a str,
    stdout: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PatchFileJson<'a> {
    /// The section's hunks, in the engine's block shape for patches.
    blocks: &'a [HunkReport],
    error: Option<&'a str>,
    move_to: Option<&'a str>,
    /// The file's content once the patch applied (at `moveTo` for a move);
    /// `null` when the patch failed or the section deletes the file.
    new_content: Option<&'a str>,
    ok: bool,
    op: SectionOp,
    path: &'a str,
    state: HunkState,
}

impl<'a> PatchTranscriptReport<'a> {
    pub fn new(outcome: &'a PatchOutcome) -> Self {
        let ok = outcome.exit_code == 0;
        let files = outcome
            .sections
            .iter()
            .map(|section| {
                let target = section.move_to.as_deref().unwrap_or(&section.path);
                let new_content = outcome
                    .files
                    .get(&normalize(target))
                    .and_then(|c| c.as_deref())
                    .filter(|_| ok && section.op != SectionOp::Delete);
                PatchFileJson {
                    blocks: &section.hunks,
                    error: section.error.as_deref(),
                    move_to: section.move_to.as_deref(),
                    new_content,
                    ok: section.state == HunkState::Applied,
                    op: section.op,
                    path: &section.path,
                    state: section.state,
                }
            })
            .collect();
        PatchTranscriptReport {
            exit_code: outcome.exit_code,
            files,
            format: Format::ApplyPatch,
            loose_hunks: outcome.loose_hunks().count(),
            ok,
            stderr: &outcome.stderr,
            stdout: &outcome.stdout,
        }
    }
}

/// `srview apply FILE PATCH --json`: the shape of `apply --json` for
/// SEARCH/REPLACE, with the hunks (and their levels) as the blocks.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchApplyReport<'a> {
    blocks: Vec<&'a HunkReport>,
    /// The reference's error text; `null` when the patch applies.
    error: Option<&'a str>,
    loose_hunks: usize,
    /// The new content; `null` on error.
    new_content: Option<&'a str>,
    ok: bool,
}

impl<'a> PatchApplyReport<'a> {
    pub fn new(outcome: &'a PatchOutcome, new_content: Option<&'a str>) -> Self {
        let ok = outcome.exit_code == 0;
        PatchApplyReport {
            blocks: outcome.sections.iter().flat_map(|s| &s.hunks).collect(),
            error: (!ok).then(|| outcome.stderr.trim_end()),
            loose_hunks: outcome.loose_hunks().count(),
            new_content,
            ok,
        }
    }
}

/// `srview check FILE PATCH --json`: the hunks with their levels, and the
/// diagnosis of every failed or loosely matched one.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PatchCheckReport<'a> {
    blocks: Vec<&'a HunkReport>,
    diagnoses: &'a [crate::dialect::apply_patch::HunkDiagnosis],
    /// The reference's error text; `null` when the patch applies.
    error: Option<&'a str>,
    loose_hunks: usize,
    /// What srview cannot stand behind though the reference applies it
    /// (left out when nothing).
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    doubts: &'a [crate::dialect::apply_patch::PatchDoubt],
    /// The patch applies, every hunk exactly, and nothing is in doubt.
    ok: bool,
}

impl<'a> PatchCheckReport<'a> {
    /// The report of `outcome`, its hunks' `diagnoses` and its `doubts`.
    pub fn new(
        outcome: &'a PatchOutcome,
        diagnoses: &'a [crate::dialect::apply_patch::HunkDiagnosis],
        doubts: &'a [crate::dialect::apply_patch::PatchDoubt],
    ) -> Self {
        let loose_hunks = outcome.loose_hunks().count();
        let ok = outcome.exit_code == 0 && loose_hunks == 0 && doubts.is_empty();
        PatchCheckReport {
            blocks: outcome.sections.iter().flat_map(|s| &s.hunks).collect(),
            diagnoses,
            error: (outcome.exit_code != 0).then(|| outcome.stderr.trim_end()),
            loose_hunks,
            doubts,
            ok,
        }
    }
}
