//! Saving accepted edits: all or nothing. Every file must have applied and
//! still hold what it held when loaded before any is written; then each is
//! replaced atomically.

use std::path::PathBuf;

use super::{FileEdit, PathRules};
use crate::error::Error;
use crate::output::{self, Loaded, NotAsLoaded};

/// Why [`write_files`] wrote nothing (or, for a failed write itself, not
/// everything): a sentence to show as it is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct WriteError {
    /// The sentence to show, naming the file.
    pub message: String,
    /// A file no longer holds what it held when loaded: reloading it from
    /// disk and applying the edits again may succeed.
    pub changed_on_disk: bool,
}

impl From<super::paths::PathError> for WriteError {
    fn from(e: super::paths::PathError) -> Self {
        e.0.into()
    }
}

impl From<String> for WriteError {
    fn from(message: String) -> Self {
        WriteError {
            message,
            changed_on_disk: false,
        }
    }
}

/// Writes `files` (skipping those whose content did not change) and returns
/// the paths written. Nothing is written when a file did not apply, was
/// refused, or changed on disk since it was loaded. Only a failure of the
/// writes themselves can leave some files written; the error says which.
pub fn write_files(workspace: &PathRules, files: &[&FileEdit]) -> Result<Vec<String>, WriteError> {
    write_files_with(workspace, files, false)
}

/// [`write_files`]; with `file_endings`, a file whose result would mix
/// other line endings into its own (LF lines into a CRLF file, or CRLF
/// lines into an LF file) gets every line with the file's ending (the user
/// chose the file's line endings when asked).
pub fn write_files_with(
    workspace: &PathRules,
    files: &[&FileEdit],
    file_endings: bool,
) -> Result<Vec<String>, WriteError> {
    use crate::diagnose::doubt::{mixes_line_endings, with_file_endings};
    let targets = plan(workspace, files)?;
    let contents: Vec<std::borrow::Cow<str>> = targets
        .iter()
        .map(|(_, file)| {
            let content = file.content();
            if file_endings && mixes_line_endings(file.before(), [content]) {
                std::borrow::Cow::Owned(with_file_endings(file.before(), content))
            } else {
                std::borrow::Cow::Borrowed(content)
            }
        })
        .collect();
    // Staged together, put in place together (see `output::write_batch`).
    let changes: Vec<output::Change> = targets
        .iter()
        .zip(&contents)
        .map(|((path, file), content)| output::Change {
            path: path.clone(),
            content: Some(content.as_bytes()),
            expected: Some(file.before().as_bytes()),
        })
        .collect();
    let done = output::write_batch(&changes).map_err(|e| {
        let name = targets
            .iter()
            .find(|(path, _)| *path == e.path)
            .map_or_else(|| e.path.display().to_string(), |(_, f)| f.path.clone());
        WriteError::from(format!("{name}: {}", e.message))
    })?;
    Ok(targets
        .iter()
        .filter(|(path, _)| done.contains(path))
        .map(|(_, file)| file.path.clone())
        .collect())
}

/// Whether [`write_files`] would write: every file applies, still holds
/// what was loaded, and none it changes is read-only. Asked before anything
/// else about a write (a doubt held back is not said over a write that
/// could not happen).
pub fn preflight(workspace: &PathRules, files: &[&FileEdit]) -> Result<(), WriteError> {
    plan(workspace, files).map(drop)
}

/// The full paths of the files [`write_files`] would change (none where
/// it would write nothing).
pub fn targets(workspace: &PathRules, files: &[&FileEdit]) -> Vec<PathBuf> {
    plan(workspace, files)
        .map(|planned| planned.into_iter().map(|(full, _)| full).collect())
        .unwrap_or_default()
}

/// The files [`write_files`] changes, with their full paths, once every
/// check before writing passed.
fn plan<'f>(
    workspace: &PathRules,
    files: &[&'f FileEdit],
) -> Result<Vec<(PathBuf, &'f FileEdit)>, WriteError> {
    if let Some(bad) = files.iter().find(|f| !f.ok()) {
        return Err(format!(
            "nothing written: {} does not apply ({})",
            bad.path,
            bad.state.name()
        )
        .into());
    }
    let mut targets: Vec<(PathBuf, &FileEdit)> = Vec::new();
    for &file in files {
        if file.original.as_deref() == Some(file.content()) {
            continue;
        }
        let path = workspace.resolve(&file.path)?;
        let loaded = match &file.original {
            None => Loaded::Missing,
            Some(original) => Loaded::Holding(original.as_bytes()),
        };
        match output::check_unchanged(&path, loaded) {
            Ok(()) => {}
            Err(NotAsLoaded::Unreadable(e)) => {
                return Err(Error::read(path.display(), e).to_string().into());
            }
            Err(NotAsLoaded::Deleted | NotAsLoaded::Changed) => {
                return Err(WriteError {
                    message: format!(
                        "nothing written: {} changed on disk since it was loaded",
                        file.path
                    ),
                    changed_on_disk: true,
                });
            }
        }
        if let Err(e) = output::preflight(&path) {
            return Err(format!("nothing written: {}: {}", file.path, e.message).into());
        }
        targets.push((path, file));
    }
    Ok(targets)
}
