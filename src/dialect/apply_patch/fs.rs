//! The little a patch needs to know of a file system, and paths as the
//! reference names them.

use std::collections::BTreeMap;
use std::io::ErrorKind;
use std::path::PathBuf;

/// What is at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// A regular file and its UTF-8 content.
    File(String),
    /// Nothing is at the path.
    Missing,
    /// A directory.
    Directory,
    /// A parent of the path is a regular file.
    BelowFile,
    /// Something that is no directory but cannot be read as UTF-8 text (the
    /// I/O error's text): it can still be deleted or overwritten.
    Unreadable(String),
}

/// Read-only access to the files a patch touches. Paths are lexically
/// normalised (see [`normalize`]) and relative to the patch's working
/// directory unless absolute, with `/` separators.
pub trait PatchFs {
    /// What is at `path` (normalised, `/`-separated); never fails: a read error is an
    /// [`Entry::Unreadable`].
    fn read(&self, path: &str) -> Entry;

    /// [`PatchFs::read`] of a reader that only looks at the content: a
    /// regular file's content (shared with the file system where it keeps
    /// one, not copied), else what is at `path`.
    fn read_shared(&self, path: &str) -> Result<SharedText, Entry> {
        match self.read(path) {
            Entry::File(content) => Ok(SharedText::new(content)),
            other => Err(other),
        }
    }

    /// Where `path` really is, symbolic links followed: the real path of
    /// the file, or for one that does not exist, the real path of its
    /// deepest existing parent with the rest of `path` joined to it;
    /// absolute. `None` where the file system has no links (files in
    /// memory) or nothing of the path can be resolved.
    fn resolve(&self, _path: &str) -> Option<String> {
        None
    }
}

/// A file's content, shared by its readers without a copy (a large file's
/// copy costs its pages' first touches as much as the copy itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedText(std::rc::Rc<String>);

impl SharedText {
    /// `content`, to be shared from now on.
    pub fn new(content: String) -> Self {
        SharedText(std::rc::Rc::new(content))
    }
}

impl std::ops::Deref for SharedText {
    type Target = str;

    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

/// Files in memory; a directory exists where a file lies below it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryFs {
    /// Content by normalised path (see [`normalize`]).
    pub files: BTreeMap<String, String>,
    /// Symbolic links: a normalised path to the normalised path it points
    /// to (from the same root, not from the link's folder), followed by
    /// every read ([`MemoryFs::with_link`]).
    pub links: BTreeMap<String, String>,
}

impl MemoryFs {
    /// The files `(path, content)`, their paths normalised.
    pub fn new(files: impl IntoIterator<Item = (String, String)>) -> Self {
        MemoryFs {
            files: files
                .into_iter()
                .map(|(path, content)| (normalize(&path), content))
                .collect(),
            links: BTreeMap::new(),
        }
    }

    /// These files with a symbolic link at `link` pointing to `target`
    /// (both paths from the root, normalised here), as `ln -s` makes one:
    /// a read of `link`, or of a path below it, reads `target`'s.
    pub fn with_link(mut self, link: &str, target: &str) -> Self {
        self.links.insert(normalize(link), normalize(target));
        self
    }

    /// `path` with every link in it followed (up to 40, as the system
    /// does; a loop stops there).
    fn followed(&self, path: &str) -> String {
        let mut at = path.to_string();
        for _ in 0..40 {
            let hit = std::iter::once(at.as_str())
                .chain(ancestors(&at))
                .find_map(|p| self.links.get(p).map(|target| (p.len(), target)));
            let Some((len, target)) = hit else {
                return at;
            };
            at = normalize(&format!("{target}{}", &at[len..]));
        }
        at
    }
}

impl PatchFs for MemoryFs {
    /// The path with its links followed, from the root (not absolute:
    /// these files have no root on disk); `None` when there is no link.
    fn resolve(&self, path: &str) -> Option<String> {
        (!self.links.is_empty()).then(|| self.followed(path))
    }

    fn read(&self, path: &str) -> Entry {
        let followed;
        let path = if self.links.is_empty() {
            path
        } else {
            followed = self.followed(path);
            followed.as_str()
        };
        if let Some(content) = self.files.get(path) {
            return Entry::File(content.clone());
        }
        if ancestors(path).any(|a| self.files.contains_key(a)) {
            return Entry::BelowFile;
        }
        let below = format!("{path}/");
        let is_directory = path.is_empty()
            || self
                .files
                .range(below.clone()..)
                .next()
                .is_some_and(|(p, _)| p.starts_with(&below));
        if is_directory {
            Entry::Directory
        } else {
            Entry::Missing
        }
    }
}

/// One file in memory, as a [`MemoryFs`] holding only it (or nothing)
/// reads, its content shared by every reader instead of copied for each:
/// an agent's matcher run over one file's content (the gate runs one
/// several times over the same file).
#[derive(Debug, Clone)]
pub struct OneFileFs {
    path: String,
    content: Option<SharedText>,
}

impl OneFileFs {
    /// `content` at `path` (normalised here); `None`: no file at all.
    pub fn new(path: &str, content: Option<&str>) -> Self {
        OneFileFs {
            path: normalize(path),
            content: content.map(|c| SharedText::new(c.to_string())),
        }
    }
}

impl PatchFs for OneFileFs {
    fn read(&self, path: &str) -> Entry {
        match self.read_shared(path) {
            Ok(content) => Entry::File(content.to_string()),
            Err(entry) => entry,
        }
    }

    fn read_shared(&self, path: &str) -> Result<SharedText, Entry> {
        let Some(content) = &self.content else {
            return Err(if path.is_empty() {
                Entry::Directory
            } else {
                Entry::Missing
            });
        };
        if path == self.path {
            return Ok(content.clone());
        }
        if ancestors(path).any(|a| a == self.path) {
            return Err(Entry::BelowFile);
        }
        if path.is_empty() || self.path.starts_with(&format!("{path}/")) {
            Err(Entry::Directory)
        } else {
            Err(Entry::Missing)
        }
    }
}

/// The proper ancestors of a normalised path, nearest first (not the root
/// nor the working directory itself).
pub fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    path.char_indices()
        .rev()
        .filter(|&(i, c)| c == '/' && i > 0)
        .map(move |(i, _)| &path[..i])
}

/// The files below a real directory, read on demand (never written).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DirFs {
    /// The patch's working directory: relative patch paths are joined to it.
    pub root: PathBuf,
}

impl PatchFs for DirFs {
    fn resolve(&self, path: &str) -> Option<String> {
        let mut full = self.root.join(path);
        // A symbolic link whose target does not exist is followed to the
        // path a write through it creates (open(O_CREAT) follows it), up to
        // 40 links as the system does (a tester's find: a write through
        // `notes.json -> .claude/settings.local.json`, not yet there,
        // created the gate's own file unchecked).
        for _ in 0..40 {
            // The deepest part of the path that exists, resolved; the rest
            // (a file or folders still to be created) joined as named.
            let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
            let mut at = full.as_path();
            let followed = loop {
                if let Ok(real) = std::fs::canonicalize(at) {
                    let joined = rest.iter().rev().fold(real, |p, part| p.join(part));
                    return Some(joined.to_string_lossy().into_owned());
                }
                let is_link = std::fs::symlink_metadata(at).is_ok_and(|m| m.is_symlink());
                if is_link && let Ok(target) = std::fs::read_link(at) {
                    let target = at.parent().map_or(target.clone(), |dir| dir.join(&target));
                    break rest.iter().rev().fold(target, |p, part| p.join(part));
                }
                rest.push(at.file_name()?);
                at = at.parent()?;
            };
            full = followed;
        }
        None
    }

    fn read(&self, path: &str) -> Entry {
        let full = self.root.join(path);
        match std::fs::metadata(&full) {
            Ok(meta) if meta.is_dir() => Entry::Directory,
            // A device, a pipe or a socket is never read: it may never end
            // (`/dev/zero`, a FIFO nobody writes).
            Ok(meta) if !meta.is_file() => {
                Entry::Unreadable("not a regular file (a device, a pipe or a socket)".into())
            }
            Ok(_) => match std::fs::read_to_string(&full) {
                Ok(content) => Entry::File(content),
                Err(error) => Entry::Unreadable(error.to_string()),
            },
            Err(error) => match error.kind() {
                ErrorKind::NotFound => Entry::Missing,
                ErrorKind::NotADirectory => Entry::BelowFile,
                _ => Entry::Unreadable(error.to_string()),
            },
        }
    }
}

/// A [`DirFs`] that remembers what each path held when it was first read,
/// so a write can check that nothing changed on disk in between.
#[derive(Debug)]
pub struct RecordingFs {
    dir: DirFs,
    seen: std::cell::RefCell<BTreeMap<String, Entry>>,
}

impl RecordingFs {
    /// The files below `root`, nothing read yet.
    pub fn new(root: PathBuf) -> Self {
        RecordingFs {
            dir: DirFs { root },
            seen: std::cell::RefCell::new(BTreeMap::new()),
        }
    }

    /// What each path read held when it was first read.
    pub fn into_seen(self) -> BTreeMap<String, Entry> {
        self.seen.into_inner()
    }
}

impl PatchFs for RecordingFs {
    fn resolve(&self, path: &str) -> Option<String> {
        self.dir.resolve(path)
    }

    fn read(&self, path: &str) -> Entry {
        let entry = self.dir.read(path);
        self.seen
            .borrow_mut()
            .entry(path.to_string())
            .or_insert_with(|| entry.clone());
        entry
    }
}

/// `path` with `.` and empty components dropped and `..` resolved against
/// the components before it, as the reference shows paths in its messages.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|p| *p != "..") {
                    parts.pop();
                } else if !absolute {
                    parts.push("..");
                }
            }
            other => parts.push(other),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The absolute form the reference prints: `cwd` joined with the
/// normalised path.
pub fn display_path(cwd: &str, normalized: &str) -> String {
    if normalized.starts_with('/') {
        return normalized.to_string();
    }
    let cwd = cwd.trim_end_matches('/');
    if normalized.is_empty() {
        cwd.to_string()
    } else {
        normalize(&format!("{cwd}/{normalized}"))
    }
}

/// The folder a patch whose section for the target names `path` runs in:
/// the target's folder `cwd` above the folders `path` names (`src/a.py`
/// for `/w/src/a.py` runs in `/w`, so its `src/b.py` is `/w/src/b.py`, not
/// `/w/src/src/b.py`: found in session 50); `cwd` itself when `path` is
/// absolute, names no folder, or its folders are not the tail of `cwd`.
pub fn patch_root(cwd: &str, path: &str) -> String {
    let path = normalize(path);
    if path.starts_with('/') {
        return cwd.to_string();
    }
    let folders: Vec<&str> = path
        .split('/')
        .filter(|part| !part.is_empty() && *part != ".")
        .collect();
    let Some((_, folders)) = folders.split_last() else {
        return cwd.to_string();
    };
    let mut root = std::path::Path::new(cwd);
    for folder in folders.iter().rev() {
        match (root.file_name(), root.parent()) {
            (Some(name), Some(parent)) if name.to_string_lossy() == *folder => root = parent,
            _ => return cwd.to_string(),
        }
    }
    root.to_string_lossy().into_owned()
}

/// `path` (absolute, or relative to `cwd`) as a [`PatchFs`] takes it:
/// lexically normalized, relative to `cwd` when it lies below it, else
/// absolute.
pub fn fs_path(cwd: &str, path: &str) -> String {
    let absolute = display_path(cwd, &normalize(path));
    let root = cwd.trim_end_matches('/');
    match absolute.strip_prefix(root) {
        Some("") => String::new(),
        Some(rest) if rest.starts_with('/') => rest[1..].to_string(),
        _ => absolute,
    }
}

/// The one name of the file `path` (as a patch names it, in `cwd`) is:
/// absolute, lexically normalised, its symbolic links followed through
/// `fs` ([`PatchFs::resolve`]). Two paths with one name are one file,
/// however they are spelt (`a.py`, `./a.py`, `/cwd/a.py`, a link to it):
/// an agent that reads them apart and writes each in turn keeps only the
/// last change (tester 51 T-01).
pub fn same_file(fs: &dyn PatchFs, cwd: &str, path: &str) -> String {
    let key = fs_path(cwd, path);
    match fs.resolve(&key) {
        Some(real) => display_path(cwd, &real),
        None => display_path(cwd, &key),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    /// A one-file fs reads every path as a MemoryFs of that file does.
    #[test]
    fn one_file_reads_as_a_memory_fs_of_it() {
        let paths = [
            "",
            "a",
            "a/b",
            "a/b/c.txt",
            "a/b/c.txt/d",
            "a/b/c",
            "a/b/c.txt.bak",
            "a/bb",
            "b",
            "/a/b/c.txt",
            "a/b/",
        ];
        for (file, content) in [
            ("a/b/c.txt", Some("x\ny")),
            ("./a//b/c.txt", Some("")),
            ("a/b/c.txt", None),
        ] {
            let one = OneFileFs::new(file, content);
            let memory = MemoryFs::new(content.map(|c| (file.to_string(), c.to_string())));
            for path in paths {
                assert_eq!(one.read(path), memory.read(path), "{file} {path}");
                let shared = one.read_shared(path).map(|c| c.to_string());
                let read = match memory.read(path) {
                    Entry::File(c) => Ok(c),
                    other => Err(other),
                };
                assert_eq!(shared, read, "{file} {path}");
            }
        }
    }

    #[test]
    fn paths_are_normalised_lexically() {
        assert_cases(
            normalize,
            &[
                ("./x/../a.txt", "a.txt"),
                ("a//b/./c", "a/b/c"),
                (" q.txt", " q.txt"),
            ],
        );
        assert_eq!(display_path("/w", "a/b"), "/w/a/b");
        assert_eq!(ancestors("a/b/c").collect::<Vec<_>>(), ["a/b", "a"]);
    }

    #[test]
    fn a_real_directory_reads_like_the_memory_one() {
        let dir = tempfile::tempdir().expect("a temp dir");
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/a.rs"), "x").expect("write");
        std::fs::write(dir.path().join("bin"), [0xff, 0xfe]).expect("write");
        let fs = DirFs {
            root: dir.path().to_path_buf(),
        };
        assert_eq!(fs.read("src"), Entry::Directory);
        assert_eq!(fs.read("src/a.rs"), Entry::File("x".into()));
        assert_eq!(fs.read("src/a.rs/b"), Entry::BelowFile);
        assert_eq!(fs.read("sr"), Entry::Missing);
        assert!(matches!(fs.read("bin"), Entry::Unreadable(reason) if reason.contains("UTF-8")));
        // A device is never read (`/dev/zero` would never end).
        let dev = DirFs {
            root: PathBuf::from("/dev"),
        };
        assert_eq!(
            dev.read("zero"),
            Entry::Unreadable("not a regular file (a device, a pipe or a socket)".into())
        );
    }

    /// A link in memory reads as its target, below it too, and names the
    /// same file as every other spelling of it (tester 51 T-01).
    #[test]
    fn memory_links_are_followed_and_name_one_file() {
        let fs = MemoryFs::new([("src/a.py".to_string(), "x".to_string())])
            .with_link("link.py", "src/a.py")
            .with_link("s", "src")
            .with_link("loop", "loop");
        assert_eq!(fs.read("link.py"), Entry::File("x".into()));
        assert_eq!(fs.read("s/a.py"), Entry::File("x".into()));
        assert_eq!(fs.read("loop"), Entry::Missing);
        assert_eq!(fs.resolve("s/a.py").as_deref(), Some("src/a.py"));
        let one = |p: &str| same_file(&fs, "/w", p);
        for name in [
            "src/a.py",
            "./src/a.py",
            "/w/src/a.py",
            "link.py",
            "s/./a.py",
        ] {
            assert_eq!(one(name), "/w/src/a.py", "{name}");
        }
        assert_eq!(one("src/b.py"), "/w/src/b.py");
        // Without links: the lexical name only.
        let plain = MemoryFs::new([("a".to_string(), "x".to_string())]);
        assert_eq!(plain.resolve("a"), None);
        assert_eq!(same_file(&plain, "/w/", "x/../a"), "/w/a");
    }

    #[test]
    fn memory_directories_are_implied_by_files() {
        let fs = MemoryFs::new([("src/a.rs".to_string(), "x".to_string())]);
        assert_eq!(fs.read("src"), Entry::Directory);
        assert_eq!(fs.read("src/a.rs"), Entry::File("x".into()));
        assert_eq!(fs.read("src/a.rs/b"), Entry::BelowFile);
        assert_eq!(fs.read("sr"), Entry::Missing);
    }
}
