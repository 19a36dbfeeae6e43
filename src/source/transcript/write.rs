//! Saving accepted edits: all or nothing. Every file must have applied and
//! still hold what it held when loaded before any is written; then each is
//! replaced atomically.

use std::path::{Path, PathBuf};

use super::{FileEdit, PathRules};
use crate::error::Error;
use crate::output::{self, Loaded, NotAsLoaded};

/// Why [`write_files`] wrote nothing (or, for a failed write itself, not
/// everything): a sentence to show as it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WriteError {
    /// The sentence to show, naming the file.
    pub message: String,
    /// A file no longer holds what it held when loaded: reloading it from
    /// disk and applying the edits again may succeed.
    pub changed_on_disk: bool,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for WriteError {}

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
        if !file.is_new && file.content == file.original {
            continue;
        }
        let path = workspace.resolve(&file.path)?;
        let loaded = if file.is_new {
            Loaded::Missing
        } else {
            Loaded::Holding(file.original.as_bytes())
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
        targets.push((path, file));
    }
    let mut written: Vec<String> = Vec::new();
    for (path, file) in targets {
        write_one(&path, file).map_err(|e| {
            let done = if written.is_empty() {
                "no file was written".to_string()
            } else {
                format!("already written: {}", written.join(", "))
            };
            format!("{e} ({done})")
        })?;
        written.push(file.path.clone());
    }
    Ok(written)
}

/// Why one file of a batch could not be written.
enum WriteOneError {
    CreateDir(PathBuf, std::io::Error),
    Write(output::WriteError),
}

impl std::fmt::Display for WriteOneError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteOneError::CreateDir(dir, e) => write!(f, "cannot create {}: {e}", dir.display()),
            WriteOneError::Write(e) => e.fmt(f),
        }
    }
}

fn write_one(path: &Path, file: &FileEdit) -> Result<(), WriteOneError> {
    if file.is_new
        && let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent)
            .map_err(|e| WriteOneError::CreateDir(parent.to_path_buf(), e))?;
    }
    output::write_atomic(
        path,
        file.content.as_bytes(),
        Some(file.original.as_bytes()),
    )
    .map(drop)
    .map_err(WriteOneError::Write)
}
