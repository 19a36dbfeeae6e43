//! `srview apply FILE --stream` when the streamed diff is an apply_patch or
//! an edit's JSON: each update goes through the dialect's prefix parser
//! (`parse_partial`, [`PartialEdit`](crate::dialect::edit::PartialEdit)) and
//! is printed as one JSON line, the last one with the complete diff.

use std::path::{Path, PathBuf};

use super::apply_dialect::place;
use crate::dialect::Dialect;
use crate::dialect::apply_patch::{HunkState, PatchOutcome};
use crate::dialect::edit;
use crate::dialect::one_file;
use crate::engine::BlockReport;
use crate::error::Error;
use crate::report::{DialectBlocks, DialectStreamLine};

/// FILE as the dialects see it.
pub(super) struct DialectFile {
    file: PathBuf,
    original: Option<String>,
    /// How the user ran srview on FILE: a refusal says its commands so.
    rerun: one_file::Rerun,
}

impl DialectFile {
    pub(super) fn new(file: &Path, original: Option<String>, rerun: one_file::Rerun) -> Self {
        DialectFile {
            file: file.to_path_buf(),
            original,
            rerun,
        }
    }

    pub(super) fn original(&self) -> Option<&str> {
        self.original.as_deref()
    }
}

/// What the text so far does to FILE.
pub(super) enum Snapshot {
    Patch(PatchOutcome, Option<String>),
    Edit {
        block: Option<BlockReport>,
        new_content: Option<String>,
        error: Option<String>,
    },
}

impl Snapshot {
    /// The new content, when the edit applies (so far).
    pub(super) fn new_content(&self) -> Option<&str> {
        match self {
            Snapshot::Patch(_, content) => content.as_deref(),
            Snapshot::Edit { new_content, .. } => new_content.as_deref(),
        }
    }

    pub(super) fn error(&self) -> Option<&str> {
        match self {
            Snapshot::Patch(outcome, _) => outcome
                .sections
                .iter()
                .find_map(|s| s.error.as_deref())
                .or_else(|| (outcome.exit_code != 0).then(|| outcome.stderr.trim_end())),
            Snapshot::Edit { error, .. } => error.as_deref(),
        }
    }

    /// The line for this snapshot.
    pub(super) fn line(
        &self,
        dialect: Dialect,
        seq: usize,
        bytes: usize,
        is_final: bool,
        with_content: bool,
    ) -> DialectStreamLine<'_> {
        let error = self.error();
        let content = self.new_content();
        let blocks = match self {
            Snapshot::Patch(outcome, _) => {
                DialectBlocks::Hunks(outcome.sections.iter().flat_map(|s| &s.hunks).collect())
            }
            Snapshot::Edit { block, .. } => DialectBlocks::Edit(block.iter().collect()),
        };
        DialectStreamLine {
            seq,
            bytes,
            is_final,
            dialect,
            ok: error.is_none(),
            error,
            new_content_length: content.map(str::len),
            blocks,
            new_content: with_content.then_some(content),
            write: None,
        }
    }
}

/// What `text` (complete when `is_final`) does to FILE.
pub(super) fn snapshot(
    file: &DialectFile,
    dialect: Dialect,
    text: &str,
    is_final: bool,
) -> Result<Snapshot, Error> {
    let usage = |e: one_file::OneFileError| Error::usage(e.to_string());
    match dialect {
        Dialect::ApplyPatch => {
            let place = place(&file.file)?;
            let usage =
                |e: one_file::OneFileError| super::apply_dialect::refused(&e, &place, &file.rerun);
            let target = place.target(file.original());
            let outcome = if is_final {
                one_file::apply_patch_to(text, &target).map_err(usage)?
            } else {
                one_file::apply_partial_patch_to(text, &target).map_err(usage)?
            };
            let failed = outcome
                .sections
                .iter()
                .any(|s| s.state == HunkState::Failed)
                || (is_final && outcome.exit_code != 0);
            let content = outcome
                .files
                .get(&place.name)
                .cloned()
                .flatten()
                .or_else(|| (!is_final).then(|| file.original.clone().unwrap_or_default()))
                .filter(|_| !failed);
            Ok(Snapshot::Patch(outcome, content))
        }
        Dialect::EditJson | Dialect::SearchReplace => {
            if is_final {
                let parsed = one_file::parse_edit(text)
                    .map_err(usage)?
                    .with_path(&file.file.display().to_string());
                let out = edit::apply(&parsed, file.original());
                return Ok(Snapshot::Edit {
                    new_content: out.result.as_ref().ok().map(|d| d.new_content.clone()),
                    error: out.result.as_ref().err().map(ToString::to_string),
                    block: Some(out.block),
                });
            }
            let Some(partial) = one_file::parse_partial_edit(text).map_err(usage)? else {
                return Ok(Snapshot::Edit {
                    block: None,
                    new_content: None,
                    error: None,
                });
            };
            let shown = edit::preview(0, &partial, file.original());
            Ok(Snapshot::Edit {
                new_content: shown.new_content,
                error: shown.error.map(|e| e.to_string()),
                block: Some(shown.block),
            })
        }
    }
}
