//! Writing results without ever losing data: a temporary file in the same
//! folder, written and fsynced, renamed over the target, then the folder
//! fsynced. The target keeps its permissions; a symlink's target is written
//! and the link kept.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a write was refused. The target is untouched in every case.
#[derive(Debug)]
pub struct WriteError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} was not written: {}",
            self.path.display(),
            self.message
        )
    }
}

/// Resolves symlinks so the link's target is what gets replaced.
pub fn resolve_target(path: &Path) -> PathBuf {
    fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Replaces `path` with `content` atomically. If `expected` is given, the
/// current content must still equal it (re-read just before the rename is
/// prepared), else nothing is written.
pub fn write_atomic(
    path: &Path,
    content: &[u8],
    expected: Option<&[u8]>,
) -> Result<(), WriteError> {
    let target = resolve_target(path);
    let fail = |message: String| WriteError {
        path: path.to_path_buf(),
        message,
    };
    let meta = match fs::metadata(&target) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(fail(e.to_string())),
    };
    if let Some(m) = &meta
        && !m.is_file()
    {
        return Err(fail("it is not a regular file".into()));
    }
    if let Some(expected) = expected {
        let now = match fs::read(&target) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(fail(e.to_string())),
        };
        let unchanged = match &now {
            Some(b) => b.as_slice() == expected,
            None => expected.is_empty() && meta.is_none(),
        };
        if !unchanged {
            return Err(fail("it changed on disk since it was loaded".into()));
        }
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let (tmp_path, mut tmp) = create_temp(dir, &name).map_err(|e| fail(e.to_string()))?;
    let written = (|| -> std::io::Result<()> {
        tmp.write_all(content)?;
        if let Some(m) = &meta {
            tmp.set_permissions(m.permissions())?;
        }
        tmp.sync_all()?;
        drop(tmp);
        fs::rename(&tmp_path, &target)?;
        if let Ok(d) = File::open(dir) {
            // Best effort: some filesystems refuse fsync on directories.
            let _ = d.sync_all();
        }
        Ok(())
    })();
    written.map_err(|e| {
        let _ = fs::remove_file(&tmp_path);
        fail(e.to_string())
    })
}

fn create_temp(dir: &Path, name: &str) -> std::io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for attempt in 0..100u32 {
        let candidate = dir.join(format!(".{name}.srview-{pid}-{attempt}.tmp"));
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(f) => return Ok((candidate, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("could not create a temporary file"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_content_and_keeps_mode() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.txt");
        fs::write(&p, "old").unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o751)).unwrap();
        }
        write_atomic(&p, b"new", Some(b"old")).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                fs::metadata(&p).unwrap().permissions().mode() & 0o777,
                0o751
            );
        }
        assert_eq!(
            fs::read_dir(dir.path()).unwrap().count(),
            1,
            "no temp file left"
        );
    }

    #[test]
    fn refuses_when_changed_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.txt");
        fs::write(&p, "changed").unwrap();
        let err = write_atomic(&p, b"new", Some(b"old")).unwrap_err();
        assert!(err.message.contains("changed on disk"));
        assert_eq!(fs::read(&p).unwrap(), b"changed");
    }

    #[cfg(unix)]
    #[test]
    fn writes_through_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        let link = dir.path().join("link.txt");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink(&real, &link).unwrap();
        write_atomic(&link, b"new", Some(b"old")).unwrap();
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(fs::read(&real).unwrap(), b"new");
    }

    #[test]
    fn refuses_directories() {
        let dir = tempfile::tempdir().unwrap();
        assert!(write_atomic(dir.path(), b"x", None).is_err());
    }
}
