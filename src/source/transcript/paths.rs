//! Where a transcript's paths point. A model's path is untrusted input: it is
//! resolved against the working folder and refused when it leaves it (an
//! absolute path, `..`, or a symlink pointing out), unless the user allows it.

use std::path::{Component, Path, PathBuf};

use crate::input;

/// How every refusal of a path leaving the folder ends: callers tell such a
/// refusal from an unreadable file by it.
pub const OUTSIDE_REFUSAL: &str = "refused (use --allow-outside to permit it)";

/// The folder transcript paths resolve against, and whether they may leave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathRules {
    /// The folder relative paths resolve against.
    pub cwd: PathBuf,
    /// Paths outside `cwd` (absolute, `..`, symlinked out) are allowed.
    pub allow_outside: bool,
}

/// Why a transcript's path is refused, or its file cannot be read: one
/// sentence naming the path.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct PathError(pub String);

impl PathRules {
    /// A workspace rooted at `cwd`.
    pub fn new(cwd: impl Into<PathBuf>, allow_outside: bool) -> Self {
        PathRules {
            cwd: cwd.into(),
            allow_outside,
        }
    }

    /// The file `raw` names, or why it is refused. The returned path is the
    /// plain join (reads and writes follow symlinks inside the folder).
    pub fn resolve(&self, raw: &str) -> Result<PathBuf, PathError> {
        if raw.is_empty() {
            return Err(PathError("the tool call has no path".into()));
        }
        let rel = Path::new(raw);
        let joined = self.cwd.join(rel);
        if self.allow_outside {
            return Ok(joined);
        }
        if rel.is_absolute() || rel.has_root() {
            return Err(PathError(format!(
                "{raw} is an absolute path; {OUTSIDE_REFUSAL}"
            )));
        }
        let root = self.cwd.canonicalize().map_err(|e| {
            PathError(format!(
                "cannot resolve the working folder {}: {e}",
                self.cwd.display()
            ))
        })?;
        let real =
            walk(&root, rel).map_err(|why| PathError(format!("{raw} {why}; {OUTSIDE_REFUSAL}")))?;
        if real.starts_with(&root) {
            Ok(joined)
        } else {
            Err(PathError(format!(
                "{raw} resolves to {}, outside {}; {OUTSIDE_REFUSAL}",
                real.display(),
                root.display()
            )))
        }
    }

    /// The current text of the file `raw` names; `None` when it does not
    /// exist yet (the edit creates it).
    pub fn load(&self, raw: &str) -> Result<Option<String>, PathError> {
        let path = self.resolve(raw)?;
        input::read_text(&path, true).map_err(|e| PathError(e.to_string()))
    }
}

/// Follows `rel` from `root` the way the OS would: each existing prefix is
/// canonicalized (so a symlink is replaced by where it points) before the
/// next component is applied; the missing tail is appended as written.
fn walk(root: &Path, rel: &Path) -> Result<PathBuf, &'static str> {
    let mut at = root.to_path_buf();
    for component in rel.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !at.pop() {
                    return Err("climbs above the file system root");
                }
            }
            Component::Normal(name) => {
                at.push(name);
                // Checked at every step, not only while the prefix exists:
                // `new/../link` comes back into existing territory.
                if std::fs::symlink_metadata(&at).is_ok() {
                    // A dangling link cannot be canonicalized: writing through
                    // it could create its target anywhere, so refuse.
                    at = at.canonicalize().map_err(|_| "is a broken symlink")?;
                }
            }
            Component::RootDir | Component::Prefix(_) => return Err("is an absolute path"),
        }
    }
    Ok(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_dotted_paths_stay_inside() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let ws = PathRules::new(dir.path(), false);
        assert!(ws.resolve("src/new.rs").is_ok());
        assert!(ws.resolve("./src/../a.txt").is_ok());
        assert!(ws.resolve("src/../../x").is_err());
        assert!(ws.resolve("").is_err());
    }
}
