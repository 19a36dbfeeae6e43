//! Writing results without ever losing data: a temporary file in the same
//! folder, written and fsynced, renamed over the target, then the folder
//! fsynced. The target keeps its permissions (and, where allowed, its owner);
//! a symlink's target is written and the link kept.
//!
//! What a reader of FILE can see, whatever happens (error, full disk, power
//! loss after the rename, `SIGKILL` at any instant): the old content or the
//! new content, never a mix, never a truncated file. Every failure leaves
//! FILE untouched and removes the temporary file. Only a kill between
//! creating the temporary file and the rename leaves it behind, named
//! `.NAME.srview-PID-N.tmp`; the next write of the same file removes such
//! files whose process is gone (on Linux, where that can be checked).
//!
//! Known limits: a hard-linked FILE becomes a new inode (the other names keep
//! the old content: the writers ask first, see [`hard_link_doubt`]); a change made to FILE by another program between the
//! last check and the rename (a window of one `rename` call) is overwritten.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Why a write was refused. The target is untouched in every case.
#[derive(Debug, thiserror::Error)]
#[error("{path} was not written: {message}")]
pub struct WriteError {
    pub path: PathBuf,
    pub message: String,
}

/// A refused write ends a command with exit status 2, its text the error's.
impl From<WriteError> for crate::error::Error {
    fn from(e: WriteError) -> Self {
        crate::error::Error::Write(e.to_string())
    }
}

/// Resolves symlinks so the link's target is what gets replaced. A link
/// whose target does not exist yet (a new file) resolves to that target,
/// so the link is kept and the file it names is created.
pub fn resolve_target(path: &Path) -> PathBuf {
    if let Ok(real) = fs::canonicalize(path) {
        return real;
    }
    let mut target = path.to_path_buf();
    // As many hops as the kernel follows before it gives up (ELOOP).
    for _ in 0..40 {
        match fs::read_link(&target) {
            Ok(next) => {
                let dir = target.parent().unwrap_or(Path::new(""));
                target = dir.join(next);
            }
            Err(_) => return target,
        }
    }
    path.to_path_buf()
}

/// Fault-injection seam for tests of the binary: the environment variable
/// `SRVIEW_FAULT` names a step of [`write_atomic`] that fails on purpose
/// (`create`, `write`, `fsync`, `rename`), or `slow` to write in small,
/// delayed chunks so a test can kill the process mid-write. Honoured only
/// in debug builds; release builds never read it.
#[doc(hidden)]
pub const FAULT_ENV: &str = "SRVIEW_FAULT";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Create,
    Write,
    Fsync,
    Rename,
}

fn injected() -> Option<String> {
    if cfg!(debug_assertions) {
        std::env::var(FAULT_ENV).ok()
    } else {
        None
    }
}

/// Fails `step` when the seam asks for it, with the error the real fault
/// gives (read-only file system, full disk, I/O error).
fn fault(step: Step) -> std::io::Result<()> {
    let Some(wanted) = injected() else {
        return Ok(());
    };
    use std::io::ErrorKind as K;
    let (name, kind, what) = match step {
        Step::Create => ("create", K::ReadOnlyFilesystem, "read-only file system"),
        Step::Write => ("write", K::StorageFull, "no space left on device"),
        Step::Fsync => ("fsync", K::Other, "input/output error"),
        Step::Rename => ("rename", K::Other, "input/output error"),
    };
    if wanted == name {
        return Err(std::io::Error::new(
            kind,
            format!("{what} (injected: {FAULT_ENV}={name})"),
        ));
    }
    Ok(())
}

/// Replaces `path` with `content` atomically. If `expected` is given, the
/// current content must still equal it, checked after the new content is
/// safely on disk and just before the rename; otherwise nothing is written.
pub fn write_atomic(
    path: &Path,
    content: &[u8],
    expected: Option<&[u8]>,
) -> Result<Wrote, WriteError> {
    write_atomic_chunks(path, &[content], expected)
}

/// [`write_atomic`] of the concatenation of `chunks`, so content held in
/// pieces (a spliced result) is written without first being joined.
pub fn write_atomic_chunks(
    path: &Path,
    chunks: &[&[u8]],
    expected: Option<&[u8]>,
) -> Result<Wrote, WriteError> {
    match stage(path, chunks, expected)? {
        None => Ok(Wrote::AlreadyHeld),
        Some(staged) => staged.commit().map(|()| Wrote::Replaced),
    }
}

/// A new content on disk beside its target, not yet in place: written to a
/// temporary file in the target's folder, with the target's permissions,
/// flushed. [`Staged::commit`] puts it in place; dropped uncommitted, the
/// temporary file is removed and the target never changed. Staging every
/// file of a batch before committing any is what makes the batch all or
/// nothing, short of a failed rename.
pub struct Staged<'a> {
    /// The path as given (messages name it).
    path: PathBuf,
    /// The file replaced (a symlink's target).
    target: PathBuf,
    /// The temporary file, until committed.
    tmp: Option<PathBuf>,
    /// What the target must still be when the new content takes its place.
    loaded: Option<Loaded<'a>>,
}

/// Stages `chunks` for `path` (see [`Staged`]); `None` when the file
/// already holds them (nothing to write). `expected`: what the file held
/// when it was loaded (empty for a file that did not exist).
pub fn stage<'a>(
    path: &Path,
    chunks: &[&[u8]],
    expected: Option<&'a [u8]>,
) -> Result<Option<Staged<'a>>, WriteError> {
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
    if let Some(m) = &meta {
        if let Some(what) = not_regular(m) {
            return Err(fail(what.into()));
        }
        // Already the content: nothing to write (no new inode, no new
        // modification time for editors and build tools to react to).
        if file_holds_chunks(&target, chunks).is_ok_and(|holds| holds == Some(true)) {
            return Ok(None);
        }
        protected(&target, m).map_err(|why| fail(why.into()))?;
    }
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "file".into());
    let prefix = temp_prefix(&name);
    remove_stale_temps(dir, &prefix);
    // A new file gets the mode the user's umask gives any new file; an
    // existing one's mode is copied once the content is complete.
    let mode = if meta.is_some() { 0o600 } else { 0o666 };
    let (tmp_path, mut tmp) = fault(Step::Create)
        .and_then(|()| create_temp(dir, &prefix, mode))
        .map_err(|e| {
            fail(format!(
                "cannot create a temporary file in {}: {e}",
                dir.display()
            ))
        })?;
    // From here the temporary file is removed on any failure (on drop).
    let staged = Staged {
        path: path.to_path_buf(),
        target: target.clone(),
        tmp: Some(tmp_path),
        // A file missing when the write began was loaded missing only if
        // it was loaded empty; otherwise it was deleted since.
        loaded: expected.map(|expected| {
            if meta.is_none() && expected.is_empty() {
                Loaded::Missing
            } else {
                Loaded::Holding(expected)
            }
        }),
    };
    write_content(&mut tmp, chunks).map_err(|e| fail(format!("writing failed: {e}")))?;
    if let Some(m) = &meta {
        keep_owner(&tmp, m);
        tmp.set_permissions(m.permissions())
            .map_err(|e| fail(format!("cannot copy permissions: {e}")))?;
    }
    fault(Step::Fsync)
        .and_then(|()| tmp.sync_all())
        .map_err(|e| fail(format!("flushing to disk failed: {e}")))?;
    Ok(Some(staged))
}

impl Staged<'_> {
    /// The path as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Puts the new content in place, if the target is still as it was
    /// loaded (checked now, just before the rename).
    pub fn commit(mut self) -> Result<(), WriteError> {
        let fail = |message: String| WriteError {
            path: self.path.clone(),
            message,
        };
        if let Some(loaded) = self.loaded {
            check_unchanged(&self.target, loaded).map_err(|c| fail(c.to_string()))?;
        }
        let Some(tmp) = self.tmp.as_ref() else {
            return Ok(());
        };
        fault(Step::Rename)
            .and_then(|()| fs::rename(tmp, &self.target))
            .map_err(|e| fail(format!("renaming the temporary file over it failed: {e}")))?;
        self.tmp = None;
        let dir = self
            .target
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if let Ok(d) = File::open(dir) {
            // Best effort: some filesystems refuse fsync on directories.
            let _ = d.sync_all();
        }
        Ok(())
    }
}

impl Drop for Staged<'_> {
    fn drop(&mut self) {
        if let Some(tmp) = self.tmp.take() {
            let _ = fs::remove_file(tmp);
        }
    }
}

/// One file of a batch written all or nothing (see [`write_batch`]).
#[derive(Debug, Clone)]
pub struct Change<'a> {
    /// The file, as the caller names it (messages use it).
    pub path: PathBuf,
    /// Its new content; `None` deletes it.
    pub content: Option<&'a [u8]>,
    /// What it held when it was loaded (empty: it did not exist); it must
    /// still hold it. `None`: not checked.
    pub expected: Option<&'a [u8]>,
}

/// Writes a batch of files all or nothing, as far as a file system allows:
/// every new content is staged (written beside its file and flushed) and
/// every deletion checked before any file changes; only then are they put
/// in place, writes before deletions (a move whose write fails keeps its
/// source). Two paths of the batch that are one file (through a link) are
/// refused. Returns the paths changed (a file that already held its
/// content is not). Only a rename failing midway can leave part of the
/// batch done: the error then says which files were changed.
pub fn write_batch(changes: &[Change<'_>]) -> Result<Vec<PathBuf>, WriteError> {
    let fail = |path: &Path, message: String| WriteError {
        path: path.to_path_buf(),
        message,
    };
    // One file under two names (a symbolic link, or a hard link: same
    // device and inode) would be written twice, the second over the first.
    let mut seen: Vec<(PathBuf, Option<FileId>, &Path)> = Vec::new();
    for change in changes {
        // A deletion removes the name itself, a link too (as the agents'
        // `remove_file` / `fs.unlink` do): the file a link points to is
        // not the one deleted.
        let (target, id) = if change.content.is_none() && is_link(&change.path) {
            let link = fs::symlink_metadata(&change.path).ok();
            (change.path.clone(), link.as_ref().and_then(id_of))
        } else {
            let target = resolve_target(&change.path);
            let id = fs::metadata(&target).ok().as_ref().and_then(id_of);
            (target, id)
        };
        if let Some((_, _, first)) = seen
            .iter()
            .find(|(t, other, _)| *t == target || (id.is_some() && *other == id))
        {
            return Err(fail(
                &change.path,
                format!(
                    "it is the same file as {} (through a link): nothing written",
                    first.display()
                ),
            ));
        }
        seen.push((target, id, &change.path));
    }
    for change in changes.iter().filter(|c| c.content.is_none()) {
        let meta = fs::metadata(&change.path)
            .map_err(|e| fail(&change.path, format!("cannot delete it: {e}")))?;
        // Only a regular file (or a link to one, the link itself) is
        // deleted: never a folder, a pipe, a socket or a device (run as
        // root, deleting /dev/null takes the device away from every
        // program).
        if let Some(what) = not_regular(&meta) {
            return Err(fail(&change.path, format!("cannot delete it: {what}")));
        }
        if !is_link(&change.path) {
            protected(&change.path, &meta).map_err(|why| fail(&change.path, why.into()))?;
        }
        // Deleting takes a folder this user may write.
        let folder = change
            .path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        if !may_write(folder) {
            return Err(fail(
                &change.path,
                format!(
                    "cannot delete it: this user may not write its folder {}",
                    folder.display()
                ),
            ));
        }
        if let Some(expected) = change.expected {
            check_unchanged(&change.path, Loaded::Holding(expected))
                .map_err(|c| fail(&change.path, c.to_string()))?;
        }
    }
    let mut folders = NewFolders::default();
    let mut staged = Vec::new();
    for change in changes {
        let Some(content) = change.content else {
            continue;
        };
        if let Some(parent) = resolve_target(&change.path)
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
        {
            folders.create(parent).map_err(|e| {
                fail(
                    &change.path,
                    format!("cannot create {}: {e}", parent.display()),
                )
            })?;
        }
        if let Some(one) = stage(&change.path, &[content], change.expected)? {
            staged.push(one);
        }
    }
    let mut done: Vec<PathBuf> = Vec::new();
    let so_far = |done: &[PathBuf]| {
        if done.is_empty() {
            "no file was changed".to_string()
        } else {
            let names: Vec<String> = done.iter().map(|p| p.display().to_string()).collect();
            format!("already changed: {}", names.join(", "))
        }
    };
    for one in staged {
        let path = one.path().to_path_buf();
        one.commit().map_err(|e| WriteError {
            message: format!("{} ({})", e.message, so_far(&done)),
            ..e
        })?;
        done.push(path);
    }
    folders.keep();
    for change in changes.iter().filter(|c| c.content.is_none()) {
        fs::remove_file(&change.path).map_err(|e| {
            fail(
                &change.path,
                format!("cannot delete it: {e} ({})", so_far(&done)),
            )
        })?;
        done.push(change.path.clone());
    }
    Ok(done)
}

/// A file's device and inode: two paths with the same are one file.
type FileId = (u64, u64);

/// Why a file with `meta` is not written or deleted: a folder, or not a
/// regular file (a pipe, a socket, a device); `None` for a regular file.
fn not_regular(meta: &fs::Metadata) -> Option<&'static str> {
    if meta.is_file() {
        None
    } else if meta.is_dir() {
        Some("it is a directory")
    } else {
        Some("it is not a regular file")
    }
}

/// Whether `path` itself is a symbolic link.
fn is_link(path: &Path) -> bool {
    fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// Whether `a` and `b` name one file, links followed (its device and
/// inode); `false` where either cannot be read or the system tells no inode.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::metadata(a), fs::metadata(b)) {
        (Ok(x), Ok(y)) => id_of(&x).is_some_and(|id| Some(id) == id_of(&y)),
        _ => false,
    }
}

/// The device and inode `meta` tells, where the system tells them.
#[cfg(unix)]
fn id_of(meta: &fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((meta.dev(), meta.ino()))
}

#[cfg(not(unix))]
fn id_of(_meta: &fs::Metadata) -> Option<FileId> {
    None
}

/// Folders a batch created for its new files: removed again (when still
/// empty) unless the batch is kept.
#[derive(Default)]
struct NewFolders {
    created: Vec<PathBuf>,
    kept: bool,
}

impl NewFolders {
    /// Creates `dir` and its missing parents, noting each one created.
    fn create(&mut self, dir: &Path) -> std::io::Result<()> {
        let mut missing: Vec<PathBuf> = dir
            .ancestors()
            .take_while(|a| !a.as_os_str().is_empty() && !a.exists())
            .map(Path::to_path_buf)
            .collect();
        fs::create_dir_all(dir)?;
        missing.reverse();
        self.created.extend(missing);
        Ok(())
    }

    fn keep(&mut self) {
        self.kept = true;
    }
}

impl Drop for NewFolders {
    fn drop(&mut self) {
        if !self.kept {
            for dir in self.created.iter().rev() {
                let _ = fs::remove_dir(dir);
            }
        }
    }
}

/// What a successful atomic write did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wrote {
    /// The file was replaced (or created) with the content.
    Replaced,
    /// The file already held the content: it was left alone (same inode,
    /// same modification time).
    AlreadyHeld,
}

impl Wrote {
    /// What a batch that changed `changed` files did.
    pub fn of_batch<T>(changed: &[T]) -> Wrote {
        if changed.is_empty() {
            Wrote::AlreadyHeld
        } else {
            Wrote::Replaced
        }
    }
}

/// What a file was when it was loaded, to be checked before it is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loaded<'a> {
    /// It did not exist: it must still not exist.
    Missing,
    /// It held these bytes: it must still hold exactly them.
    Holding(&'a [u8]),
    /// It was loaded as an empty original where a missing file is allowed
    /// (`--new-file`), without noting which it was: it may be missing or
    /// empty.
    MissingOrEmpty,
}

/// Why a file may not be replaced: it is no longer as it was loaded.
#[derive(Debug, thiserror::Error)]
pub enum NotAsLoaded {
    /// It could not be read again to compare.
    #[error("cannot re-read it: {0}")]
    Unreadable(#[source] std::io::Error),
    /// It existed and is gone.
    #[error("it was deleted since it was loaded")]
    Deleted,
    /// It holds other content (or exists where it was missing).
    #[error("it changed on disk since it was loaded")]
    Changed,
}

/// The one unchanged-on-disk check: the file at `path` must still be as
/// `loaded`, or nothing may replace it. Every writer that loaded the file
/// first (the commands, transcripts, the previewer's accept) asks here.
pub fn check_unchanged(path: &Path, loaded: Loaded<'_>) -> Result<(), NotAsLoaded> {
    let expected = match loaded {
        Loaded::Holding(bytes) => bytes,
        Loaded::Missing | Loaded::MissingOrEmpty => &[],
    };
    match (file_holds(path, expected), loaded) {
        (Err(e), _) => Err(NotAsLoaded::Unreadable(e)),
        (Ok(None), Loaded::Holding(_)) => Err(NotAsLoaded::Deleted),
        (Ok(None), Loaded::Missing | Loaded::MissingOrEmpty) => Ok(()),
        (Ok(Some(true)), Loaded::Holding(_) | Loaded::MissingOrEmpty) => Ok(()),
        (Ok(Some(_)), _) => Err(NotAsLoaded::Changed),
    }
}

/// Whether the file at `path` may be replaced (see [`protected`]): asked
/// before a write is weighed at all, so that a doubt held back is not said
/// over a write that could not happen. A missing file may be created.
pub fn preflight(path: &Path) -> Result<(), WriteError> {
    let target = resolve_target(path);
    match fs::metadata(&target) {
        Ok(meta) if meta.is_file() => protected(&target, &meta).map_err(|why| WriteError {
            path: path.to_path_buf(),
            message: why.into(),
        }),
        _ => Ok(()),
    }
}

/// What srview cannot stand behind in replacing the existing file at
/// `path` when the file has other names (hard links; a tester's find): the
/// write puts a new file in its place (see the module), so the other names
/// keep the old content, where the agents, writing in place, change every
/// name. One sentence without a final stop; `None` for a file with one name
/// or none yet. Asked before a write is weighed, as a doubt: `--write` holds
/// it back and `a` asks (a snapshot made with hard links is meant to keep
/// the old content; a file shared under two names is not).
pub fn hard_link_doubt(path: &Path) -> Option<String> {
    let others = other_names(&resolve_target(path))?;
    let (names, keep) = if others == 1 {
        (
            "1 other name (a hard link)".to_string(),
            "the other name keeps",
        )
    } else {
        (
            format!("{others} other names (hard links)"),
            "the other names keep",
        )
    };
    Some(format!(
        "{} has {names}: srview writes the new content as a new file in its place, so {keep} \
         the old content (an agent writing the file in place changes every name)",
        path.display()
    ))
}

/// How many names besides `path` the file at `path` has (hard links);
/// `None` for one name, no file, or where that cannot be asked.
#[cfg(unix)]
fn other_names(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt;
    let meta = fs::metadata(path).ok().filter(fs::Metadata::is_file)?;
    (meta.nlink() > 1).then(|| meta.nlink() - 1)
}

#[cfg(not(unix))]
fn other_names(_path: &Path) -> Option<u64> {
    None
}

/// Why the existing file at `path` may not be replaced: replacing it by
/// rename would go through its protection, so a read-only file (even for
/// root), or one this user may not write, is refused as an editor refuses
/// it. A writer that must know before any work (a stream) asks first.
pub fn protected(path: &Path, meta: &fs::Metadata) -> Result<(), &'static str> {
    if meta.permissions().readonly() {
        return Err("it is read-only");
    }
    if !may_write(path) {
        return Err("this user may not write it (permission denied)");
    }
    Ok(())
}

/// Whether this user may write the file at `path` (`access(2)`, as the
/// kernel would judge an open for writing); `true` where that cannot be
/// asked.
#[cfg(unix)]
fn may_write(path: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: `c_path` is a valid NUL-terminated string for the call's
    // duration; access(2) only reads it.
    let rc = unsafe { libc::access(c_path.as_ptr(), libc::W_OK) };
    rc == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::PermissionDenied
}

#[cfg(not(unix))]
fn may_write(_path: &Path) -> bool {
    true
}

/// Whether the file at `path` holds exactly `expected`; `None` when it does
/// not exist. Compared in blocks, so a big file is never read whole.
fn file_holds(path: &Path, expected: &[u8]) -> std::io::Result<Option<bool>> {
    file_holds_chunks(path, &[expected])
}

/// [`file_holds`] of the concatenation of `chunks`, without joining them.
fn file_holds_chunks(path: &Path, chunks: &[&[u8]]) -> std::io::Result<Option<bool>> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut buf = vec![0u8; 64 * 1024];
    let mut wanted = chunks.iter().copied();
    let mut rest: &[u8] = &[];
    loop {
        let n = crate::input::read_some(&mut file, &mut buf)?;
        if n == 0 {
            return Ok(Some(rest.is_empty() && wanted.all(<[u8]>::is_empty)));
        }
        let mut read = &buf[..n];
        while !read.is_empty() {
            if rest.is_empty() {
                match wanted.next() {
                    Some(chunk) => rest = chunk,
                    None => return Ok(Some(false)),
                }
                continue;
            }
            let k = rest.len().min(read.len());
            if rest[..k] != read[..k] {
                return Ok(Some(false));
            }
            rest = &rest[k..];
            read = &read[k..];
        }
    }
}

fn write_content(tmp: &mut File, chunks: &[&[u8]]) -> std::io::Result<()> {
    fault(Step::Write)?;
    let slow = injected().as_deref() == Some("slow");
    for chunk in chunks {
        if slow {
            for part in chunk.chunks(64 * 1024) {
                tmp.write_all(part)?;
                std::thread::sleep(std::time::Duration::from_millis(2));
            }
        } else {
            tmp.write_all(chunk)?;
        }
    }
    Ok(())
}

/// Gives the temporary file FILE's owner and group, when allowed (root, or
/// a group the user is in); silently keeps the current ones otherwise.
#[cfg(unix)]
fn keep_owner(tmp: &File, meta: &fs::Metadata) {
    use std::os::unix::fs::MetadataExt;
    if let Ok(now) = tmp.metadata()
        && (now.uid() != meta.uid() || now.gid() != meta.gid())
    {
        let _ = std::os::unix::fs::fchown(tmp, Some(meta.uid()), Some(meta.gid()));
    }
}

#[cfg(not(unix))]
fn keep_owner(_tmp: &File, _meta: &fs::Metadata) {}

/// `.NAME.srview-`, with NAME cut so the whole temporary name stays well
/// under the usual 255-byte limit.
fn temp_prefix(name: &str) -> String {
    let mut cut = name.len().min(160);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!(".{}.srview-", &name[..cut])
}

/// Creates the temporary file with `mode` (before the umask).
fn create_temp(dir: &Path, prefix: &str, mode: u32) -> std::io::Result<(PathBuf, File)> {
    let pid = std::process::id();
    for attempt in 0..100u32 {
        let candidate = dir.join(format!("{prefix}{pid}-{attempt}.tmp"));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(mode);
        }
        #[cfg(not(unix))]
        let _ = mode;
        match options.open(&candidate) {
            Ok(f) => return Ok((candidate, f)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
    Err(std::io::Error::other("could not create a temporary file"))
}

/// Removes `PREFIX<pid>-<n>.tmp` files left by killed processes: those whose
/// process no longer exists. Only where `/proc` tells (Linux); best effort.
fn remove_stale_temps(dir: &Path, prefix: &str) {
    if !cfg!(target_os = "linux") || !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some(rest) = file_name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|n| n.strip_suffix(".tmp"))
        else {
            continue;
        };
        let Some((pid, attempt)) = rest.split_once('-') else {
            continue;
        };
        let (Ok(pid), Ok(_)) = (pid.parse::<u32>(), attempt.parse::<u32>()) else {
            continue;
        };
        if pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file `f.txt` holding `content`, alone in a new folder (removed when
    /// the folder's guard is dropped).
    fn file_holding(content: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.txt");
        fs::write(&p, content).unwrap();
        (dir, p)
    }

    /// Each way a file can have been loaded, against each way it can be now.
    #[test]
    fn unchanged_means_as_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let gone = dir.path().join("gone");
        let empty = dir.path().join("empty");
        let full = dir.path().join("full");
        fs::write(&empty, "").unwrap();
        fs::write(&full, "abc").unwrap();
        let verdict = |path: &Path, loaded| match check_unchanged(path, loaded) {
            Ok(()) => "ok".to_string(),
            Err(e) => e.to_string(),
        };
        let changed = "it changed on disk since it was loaded";
        let deleted = "it was deleted since it was loaded";
        assert_eq!(verdict(&full, Loaded::Holding(b"abc")), "ok");
        assert_eq!(verdict(&full, Loaded::Holding(b"ab")), changed);
        assert_eq!(verdict(&full, Loaded::Holding(b"abcd")), changed);
        assert_eq!(verdict(&gone, Loaded::Holding(b"abc")), deleted);
        assert_eq!(verdict(&empty, Loaded::Holding(b"")), "ok");
        assert_eq!(verdict(&gone, Loaded::Missing), "ok");
        assert_eq!(verdict(&empty, Loaded::Missing), changed);
        assert_eq!(verdict(&gone, Loaded::MissingOrEmpty), "ok");
        assert_eq!(verdict(&empty, Loaded::MissingOrEmpty), "ok");
        assert_eq!(verdict(&full, Loaded::MissingOrEmpty), changed);
        assert!(verdict(dir.path(), Loaded::Holding(b"")).starts_with("cannot re-read it: "));
    }

    #[test]
    fn replaces_content_and_keeps_mode() {
        let (dir, p) = file_holding("old");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&p, fs::Permissions::from_mode(0o751)).unwrap();
        }
        assert_eq!(
            write_atomic(&p, b"new", Some(b"old")).unwrap(),
            Wrote::Replaced
        );
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
    fn file_holds_compares_across_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.txt");
        let big: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        fs::write(&p, &big).unwrap();
        assert_eq!(file_holds(&p, &big).unwrap(), Some(true));
        let mut last = big.clone();
        *last.last_mut().unwrap() ^= 1;
        assert_eq!(file_holds(&p, &last).unwrap(), Some(false));
        assert_eq!(file_holds(&p, &big[..big.len() - 1]).unwrap(), Some(false));
        let mut longer = big.clone();
        longer.push(0);
        assert_eq!(file_holds(&p, &longer).unwrap(), Some(false));
        assert_eq!(file_holds(&dir.path().join("gone"), b"").unwrap(), None);
        // In chunks, split anywhere (empty ones too).
        let (a, b) = big.split_at(70_001);
        let chunks: [&[u8]; 4] = [a, b"", b, b""];
        assert_eq!(file_holds_chunks(&p, &chunks).unwrap(), Some(true));
        let chunks: [&[u8]; 2] = [a, &b[1..]];
        assert_eq!(file_holds_chunks(&p, &chunks).unwrap(), Some(false));
        let chunks: [&[u8]; 3] = [a, b, b"x"];
        assert_eq!(file_holds_chunks(&p, &chunks).unwrap(), Some(false));
    }

    /// A read-only file is refused (even for root, which the kernel would
    /// let through), and left as it was.
    #[cfg(unix)]
    #[test]
    fn refuses_read_only_files() {
        use std::os::unix::fs::PermissionsExt;
        let (_dir, p) = file_holding("old");
        fs::set_permissions(&p, fs::Permissions::from_mode(0o444)).unwrap();
        let err = write_atomic(&p, b"new", Some(b"old")).unwrap_err();
        assert_eq!(err.message, "it is read-only");
        assert_eq!(fs::read(&p).unwrap(), b"old");
        // Already holding the result: nothing to write, nothing refused.
        assert_eq!(
            write_atomic(&p, b"old", Some(b"old")).unwrap(),
            Wrote::AlreadyHeld
        );
    }

    /// Writing what the file already holds leaves it alone: the same inode
    /// and modification time.
    #[cfg(unix)]
    #[test]
    fn the_same_content_is_not_written_again() {
        use std::os::unix::fs::MetadataExt;
        let (_dir, p) = file_holding("same\n");
        let before = fs::metadata(&p).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        let wrote = write_atomic_chunks(&p, &[b"sa", b"me\n"], Some(b"same\n")).unwrap();
        assert_eq!(wrote, Wrote::AlreadyHeld);
        let after = fs::metadata(&p).unwrap();
        assert_eq!(
            (after.ino(), after.mtime_nsec()),
            (before.ino(), before.mtime_nsec())
        );
    }

    /// A new file gets the mode the umask gives any new file, not the
    /// temporary file's private one.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_new_file_gets_the_umask_mode() {
        use std::os::unix::fs::PermissionsExt;
        let status = fs::read_to_string("/proc/self/status").unwrap();
        let umask = status
            .lines()
            .find_map(|l| l.strip_prefix("Umask:"))
            .map(|m| u32::from_str_radix(m.trim(), 8).unwrap())
            .unwrap();
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("new.txt");
        write_atomic(&p, b"new", None).unwrap();
        let mode = fs::metadata(&p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o666 & !umask);
    }

    #[test]
    fn writes_chunks_in_order() {
        let (_dir, p) = file_holding("old");
        write_atomic_chunks(&p, &[b"a\n", b"", b"bc"], Some(b"old")).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"a\nbc");
    }

    #[test]
    fn refuses_when_changed_on_disk() {
        let (dir, p) = file_holding("changed");
        let err = write_atomic(&p, b"new", Some(b"old")).unwrap_err();
        assert!(err.message.contains("changed on disk"));
        assert_eq!(fs::read(&p).unwrap(), b"changed");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn refuses_when_created_or_deleted_since_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("f.txt");
        // Loaded as missing (a new file), but someone created it meanwhile.
        // (Created empty is indistinguishable from loaded empty, and loses
        // nothing when overwritten.)
        fs::write(&p, "theirs").unwrap();
        let err = write_atomic(&p, b"new", Some(b"")).unwrap_err();
        assert!(err.message.contains("changed on disk"), "{}", err.message);
        assert_eq!(fs::read(&p).unwrap(), b"theirs");
        // Loaded with content, deleted meanwhile.
        let q = dir.path().join("g.txt");
        let err = write_atomic(&q, b"new", Some(b"old")).unwrap_err();
        assert!(err.message.contains("deleted"), "{}", err.message);
        assert!(!q.exists());
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
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

    /// A link to a file that does not exist yet (a new file) is kept: the
    /// file it names is created, through a chain of links, relative ones
    /// included.
    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_is_kept_and_its_target_created() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        let link = dir.path().join("link.txt");
        let hop = dir.path().join("sub/hop.txt");
        std::os::unix::fs::symlink("new.txt", &hop).unwrap();
        std::os::unix::fs::symlink("sub/hop.txt", &link).unwrap();
        assert_eq!(
            write_atomic(&link, b"new", Some(b"")).unwrap(),
            Wrote::Replaced
        );
        for l in [&link, &hop] {
            assert!(fs::symlink_metadata(l).unwrap().file_type().is_symlink());
        }
        assert_eq!(fs::read(dir.path().join("sub/new.txt")).unwrap(), b"new");
        assert_eq!(fs::read(&link).unwrap(), b"new");
        // A loop of links is not followed forever.
        let looped = dir.path().join("loop.txt");
        std::os::unix::fs::symlink("loop.txt", &looped).unwrap();
        assert_eq!(resolve_target(&looped), looped);
    }

    /// A batch is all or nothing: when one file cannot be staged, none
    /// changes, no temporary file is left and the folders made for new
    /// files are gone; two names of one file are refused; deletions come
    /// after the writes.
    #[cfg(unix)]
    #[test]
    fn a_batch_is_written_all_or_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.txt");
        fs::write(&a, "a\n").unwrap();
        let not_a_folder = dir.path().join("plain");
        fs::write(&not_a_folder, "x").unwrap();
        let change = |path: PathBuf, content: Option<&'static [u8]>, expected| Change {
            path,
            content,
            expected,
        };
        let batch = [
            change(a.clone(), Some(b"A\n"), Some(b"a\n")),
            change(dir.path().join("new/sub/n.txt"), Some(b"n\n"), Some(b"")),
            change(not_a_folder.join("b.txt"), Some(b"b\n"), Some(b"")),
        ];
        let err = write_batch(&batch).unwrap_err();
        assert_eq!(err.path, not_a_folder.join("b.txt"));
        assert_eq!(fs::read(&a).unwrap(), b"a\n");
        assert!(
            !dir.path().join("new").exists(),
            "the new folders are removed"
        );
        let mut names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["a.txt", "plain"], "no temporary file left");

        // A second name through a symbolic link, then a hard link.
        type Link = fn(&Path, &Path) -> std::io::Result<()>;
        let links: [(&str, Link); 2] = [
            ("link.txt", |a, b| std::os::unix::fs::symlink(a, b)),
            ("hard.txt", |a, b| fs::hard_link(a, b)),
        ];
        for (name, make) in links {
            let other = dir.path().join(name);
            make(&a, &other).unwrap();
            let twice = [
                change(a.clone(), Some(b"A\n"), Some(b"a\n")),
                change(other.clone(), Some(b"B\n"), Some(b"a\n")),
            ];
            let err = write_batch(&twice).unwrap_err();
            assert!(
                err.message.starts_with("it is the same file as"),
                "{name}: {}",
                err.message
            );
            assert_eq!(fs::read(&other).unwrap(), b"a\n");
            fs::remove_file(&other).unwrap();
        }

        let moved = [
            change(dir.path().join("m.txt"), Some(b"a\n"), Some(b"")),
            change(a.clone(), None, Some(b"a\n")),
        ];
        let done = write_batch(&moved).unwrap();
        assert_eq!(done, [dir.path().join("m.txt"), a.clone()]);
        assert!(!a.exists());
        assert_eq!(fs::read(dir.path().join("m.txt")).unwrap(), b"a\n");
    }

    #[test]
    fn refuses_directories() {
        let dir = tempfile::tempdir().unwrap();
        let err = write_atomic(dir.path(), b"x", None).unwrap_err();
        assert!(err.message.contains("directory"), "{}", err.message);
    }

    /// A deletion takes only a regular file: a folder, a pipe (standing
    /// for a device: `*** Delete File: /dev/null` run as root) is refused
    /// and left where it is, with nothing else of the batch done.
    #[test]
    fn deletes_only_regular_files() {
        let dir = tempfile::tempdir().unwrap();
        let kept = dir.path().join("kept.txt");
        let folder = dir.path().join("folder");
        fs::create_dir(&folder).unwrap();
        let mut cases = vec![(folder.clone(), "cannot delete it: it is a directory")];
        #[cfg(unix)]
        {
            let pipe = dir.path().join("pipe");
            let c_path = std::ffi::CString::new(pipe.to_str().unwrap()).unwrap();
            // SAFETY: a valid NUL-terminated path for the call's duration.
            assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0);
            cases.push((pipe, "cannot delete it: it is not a regular file"));
        }
        for (path, said) in cases {
            let batch = [
                Change {
                    path: kept.clone(),
                    content: Some(b"new\n"),
                    expected: Some(b""),
                },
                Change {
                    path: path.clone(),
                    content: None,
                    expected: None,
                },
            ];
            let err = write_batch(&batch).unwrap_err();
            assert_eq!(err.path, path);
            assert_eq!(err.message, said);
            assert!(path.exists(), "{} left", path.display());
            assert!(!kept.exists(), "nothing of the batch written");
        }
    }

    #[test]
    fn long_names_get_a_short_temporary_name() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("é".repeat(120)); // 240 bytes
        fs::write(&p, "old").unwrap();
        write_atomic(&p, b"new", Some(b"old")).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"new");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn stale_temporaries_of_dead_processes_are_removed() {
        let (dir, p) = file_holding("old");
        // PID 0 never names a user process; our own PID is alive.
        let dead = dir.path().join(".f.txt.srview-0-0.tmp");
        let alive = dir
            .path()
            .join(format!(".f.txt.srview-{}-7.tmp", std::process::id()));
        let other = dir.path().join(".g.txt.srview-0-0.tmp");
        for f in [&dead, &alive, &other] {
            fs::write(f, "partial").unwrap();
        }
        write_atomic(&p, b"new", Some(b"old")).unwrap();
        assert!(!dead.exists());
        assert!(alive.exists());
        assert!(other.exists(), "another file's temporaries are not ours");
    }
}
