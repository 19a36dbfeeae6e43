//! Cline's file side: `resolvePath` (paths as Node's `path` module makes
//! them), `loadFiles` before parsing, and `applyChanges` after, replayed on
//! a copy-on-write view of the [`PatchFs`] so that what Cline leaves on disk
//! when a later write fails (it is not atomic) is known, with Node's own
//! error texts.

use std::collections::{BTreeMap, BTreeSet};

use crate::dialect::apply_patch::fs::ancestors;
use crate::dialect::call::{Entry, FileWrite, PatchFs, fs_path, normalize};

use super::js;
use super::parser::Loaded;
use crate::dialect::apply_patch::parse::{ADD, DELETE, UPDATE};

/// A path as Cline hands it to `fs`: Node's absolute form and the
/// [`PatchFs`] key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodePath {
    /// `path.resolve(cwd, p)`, or `path.normalize(p)` for an absolute `p`
    /// (which keeps a trailing `/`): the text Node's errors show.
    pub text: String,
    /// The same as [`fs_path`] gives it.
    pub key: String,
    /// `text` ends with `/`: no file can be read or written there.
    pub trailing_slash: bool,
}

/// Cline's `resolvePath(cwd, p, restrictToCwd = true)`: an absolute path
/// as it is (normalized), a relative one against `cwd`, refused when
/// `path.relative(cwd, resolved)` starts with `..` (outside `cwd`, or a
/// first component such as `..a`).
pub fn resolve(cwd: &str, path: &str) -> Result<NodePath, String> {
    let root = cwd.trim_end_matches('/');
    if path.starts_with('/') {
        let normalized = normalize(path);
        let trailing_slash = path.ends_with('/') && normalized != "/";
        let text = if trailing_slash {
            format!("{normalized}/")
        } else {
            normalized
        };
        let key = fs_path(cwd, &text);
        return Ok(NodePath {
            text,
            key,
            trailing_slash,
        });
    }
    let text = normalize(&format!("{root}/{path}"));
    let relative = if text == root || (root.is_empty() && text == "/") {
        ""
    } else {
        text.strip_prefix(root)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or("..")
    };
    if relative.starts_with("..") {
        return Err(format!("Path must stay within cwd: {path}"));
    }
    let key = fs_path(cwd, &text);
    Ok(NodePath {
        text,
        key,
        trailing_slash: false,
    })
}

/// `path.dirname` of an absolute path.
fn dirname(path: &str) -> String {
    let trimmed = path.trim_end_matches('/');
    match trimmed.rfind('/') {
        Some(0) | None => "/".to_string(),
        Some(i) => trimmed[..i].to_string(),
    }
}

/// The line ending Cline writes an updated file with: CRLF if the file
/// held one anywhere, else LF.
pub type Eols = BTreeMap<String, &'static str>;

/// The distinct paths (trimmed) of the lines starting with one of
/// `prefixes`, in order of appearance (Cline's `extractPaths`).
fn paths_after(lines: &[String], prefixes: &[&str]) -> Vec<String> {
    let mut paths: Vec<String> = Vec::new();
    for line in lines {
        if let Some(prefix) = prefixes.iter().find(|p| line.starts_with(**p)) {
            let path = js::trim(&line[prefix.len()..]).to_string();
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    paths
}

/// Cline's `loadFiles`: every path of an Update or Delete line (anywhere in
/// the patch, even past an earlier End line) read as UTF-8 with CRLF made
/// LF, `File not found: P` on any read error; then the Add paths, read as
/// they are when they exist (so that adding over a file fails).
///
/// srview's file system cannot give the bytes of a file that is not UTF-8
/// ([`Entry::Unreadable`]), which Node decodes with U+FFFD: such a file
/// counts as present for Delete and Add, and as not found for Update.
pub fn load(lines: &[String], cwd: &str, fs: &dyn PatchFs) -> Result<(Loaded, Eols), String> {
    let mut contents = BTreeMap::new();
    let mut eols = Eols::new();
    let updated = paths_after(lines, &[UPDATE]);
    for path in paths_after(lines, &[UPDATE, DELETE]) {
        let node = resolve(cwd, &path)?;
        let content = match read(fs, &node) {
            Some(Entry::File(content)) => content,
            Some(Entry::Unreadable(_)) if !updated.contains(&path) => String::new(),
            _ => return Err(format!("File not found: {path}")),
        };
        eols.insert(
            path.clone(),
            if content.contains("\r\n") {
                "\r\n"
            } else {
                "\n"
            },
        );
        contents.insert(path, content.replace("\r\n", "\n"));
    }
    for path in paths_after(lines, &[ADD]) {
        let node = resolve(cwd, &path)?;
        match read(fs, &node) {
            Some(Entry::File(content)) => {
                contents.insert(path, content);
            }
            Some(Entry::Unreadable(_)) => {
                contents.insert(path, String::new());
            }
            _ => {}
        }
    }
    Ok((Loaded { contents }, eols))
}

/// What `fs.readFile` would see: `None` for a path ending in `/`.
fn read(fs: &dyn PatchFs, path: &NodePath) -> Option<Entry> {
    (!path.trailing_slash).then(|| fs.read(&path.key))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Directory,
    Missing,
    BelowFile,
}

/// The files as Cline's writes leave them, over the untouched [`PatchFs`].
pub struct Disk<'a> {
    fs: &'a dyn PatchFs,
    /// Files written (`Some`) or removed (`None`), by key.
    files: BTreeMap<String, Option<String>>,
    directories: BTreeSet<String>,
    /// Keys in the order first written.
    order: Vec<String>,
}

impl<'a> Disk<'a> {
    pub fn new(fs: &'a dyn PatchFs) -> Self {
        Disk {
            fs,
            files: BTreeMap::new(),
            directories: BTreeSet::new(),
            order: Vec::new(),
        }
    }

    fn own_kind(&self, key: &str) -> Kind {
        if key.is_empty() || self.directories.contains(key) {
            return Kind::Directory;
        }
        match self.files.get(key) {
            Some(Some(_)) => return Kind::File,
            Some(None) => return Kind::Missing,
            None => {}
        }
        let below = format!("{key}/");
        let has_below = self
            .files
            .range(below.clone()..)
            .next()
            .is_some_and(|(k, content)| k.starts_with(&below) && content.is_some())
            || self
                .directories
                .range(below.clone()..)
                .next()
                .is_some_and(|d| d.starts_with(&below));
        if has_below {
            return Kind::Directory;
        }
        match self.fs.read(key) {
            Entry::File(_) | Entry::Unreadable(_) => Kind::File,
            Entry::Directory => Kind::Directory,
            Entry::Missing | Entry::BelowFile => Kind::Missing,
        }
    }

    fn kind(&self, key: &str) -> Kind {
        if ancestors(key).any(|a| self.own_kind(a) == Kind::File) {
            return Kind::BelowFile;
        }
        self.own_kind(key)
    }

    fn touch(&mut self, key: &str, content: Option<String>) {
        if !self.files.contains_key(key) {
            self.order.push(key.to_string());
        }
        self.files.insert(key.to_string(), content);
    }

    /// `fs.mkdir(path.dirname(path), {recursive: true})`.
    pub fn make_parent(&mut self, cwd: &str, path: &NodePath) -> Result<(), String> {
        let directory = dirname(&path.text);
        let key = fs_path(cwd, &directory);
        match self.kind(&key) {
            Kind::Directory => Ok(()),
            Kind::File => Err(format!("EEXIST: file already exists, mkdir '{directory}'")),
            Kind::BelowFile => Err(format!("ENOTDIR: not a directory, mkdir '{directory}'")),
            Kind::Missing => {
                let missing: Vec<String> = std::iter::once(key.as_str())
                    .chain(ancestors(&key))
                    .filter(|a| self.own_kind(a) == Kind::Missing)
                    .map(str::to_string)
                    .collect();
                self.directories.extend(missing);
                Ok(())
            }
        }
    }

    /// `fs.writeFile(path, content)`.
    pub fn write(&mut self, path: &NodePath, content: &str) -> Result<(), String> {
        let text = &path.text;
        if path.trailing_slash {
            return Err(format!(
                "EISDIR: illegal operation on a directory, open '{text}'"
            ));
        }
        match self.kind(&path.key) {
            Kind::Directory => Err(format!(
                "EISDIR: illegal operation on a directory, open '{text}'"
            )),
            Kind::BelowFile => Err(format!("ENOTDIR: not a directory, open '{text}'")),
            Kind::Missing if self.parent_missing(&path.key) => {
                Err(format!("ENOENT: no such file or directory, open '{text}'"))
            }
            Kind::File | Kind::Missing => {
                self.touch(&path.key, Some(content.to_string()));
                Ok(())
            }
        }
    }

    fn parent_missing(&self, key: &str) -> bool {
        ancestors(key)
            .next()
            .is_some_and(|parent| self.own_kind(parent) == Kind::Missing)
    }

    /// `fs.rm(path, {force: true})`: nothing when missing, an error for a
    /// directory.
    pub fn remove(&mut self, path: &NodePath) -> Result<(), String> {
        match self.kind(&path.key) {
            Kind::Directory => Err(format!(
                "Path is a directory: rm returned EISDIR (is a directory) {}",
                path.text
            )),
            Kind::File => {
                self.touch(&path.key, None);
                Ok(())
            }
            Kind::Missing | Kind::BelowFile => Ok(()),
        }
    }

    /// The files left different from before, in the order first written.
    pub fn writes(&self) -> Vec<FileWrite> {
        self.order
            .iter()
            .filter_map(|key| {
                let content = self.files.get(key).cloned().flatten();
                let changed = match (&content, self.fs.read(key)) {
                    (Some(now), Entry::File(before)) => *now != before,
                    (None, Entry::File(_) | Entry::Unreadable(_)) => true,
                    (None, _) => false,
                    (Some(_), _) => true,
                };
                changed.then(|| FileWrite {
                    path: key.clone(),
                    content,
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::apply_patch::fs::MemoryFs;

    const CWD: &str = "/home/user/project";

    #[test]
    fn paths_resolve_as_node_does() {
        let path = resolve(CWD, "./src/../a.txt").unwrap();
        assert_eq!(
            (path.text.as_str(), path.key.as_str()),
            ("/home/user/project/a.txt", "a.txt")
        );
        let absolute = resolve(CWD, "/home/user/project/a.txt/").unwrap();
        assert_eq!(absolute.text, "/home/user/project/a.txt/");
        assert!(absolute.trailing_slash);
        assert_eq!(resolve(CWD, "/etc/x").unwrap().key, "/etc/x");
        assert_eq!(
            resolve(CWD, "../other/a").unwrap_err(),
            "Path must stay within cwd: ../other/a"
        );
        assert_eq!(
            resolve(CWD, "..a/b").unwrap_err(),
            "Path must stay within cwd: ..a/b"
        );
        assert_eq!(resolve(CWD, "").unwrap().text, CWD);
    }

    #[test]
    fn writes_fail_with_node_texts() {
        let fs = MemoryFs::new([
            ("a".to_string(), "x".to_string()),
            ("d/f".to_string(), "y".to_string()),
        ]);
        let mut disk = Disk::new(&fs);
        let under_file = resolve(CWD, "a/b/c").unwrap();
        assert_eq!(
            disk.make_parent(CWD, &under_file).unwrap_err(),
            "ENOTDIR: not a directory, mkdir '/home/user/project/a/b'"
        );
        let in_file = resolve(CWD, "a/b").unwrap();
        assert_eq!(
            disk.make_parent(CWD, &in_file).unwrap_err(),
            "EEXIST: file already exists, mkdir '/home/user/project/a'"
        );
        assert_eq!(
            disk.write(&resolve(CWD, "d").unwrap(), "z").unwrap_err(),
            "EISDIR: illegal operation on a directory, open '/home/user/project/d'"
        );
        // Once the file is removed, a directory can take its place.
        disk.remove(&resolve(CWD, "a").unwrap()).unwrap();
        disk.make_parent(CWD, &in_file).unwrap();
        disk.write(&in_file, "new").unwrap();
        assert_eq!(
            disk.remove(&resolve(CWD, "a").unwrap()).unwrap_err(),
            "Path is a directory: rm returned EISDIR (is a directory) /home/user/project/a"
        );
        assert_eq!(
            disk.writes(),
            [
                FileWrite {
                    path: "a".into(),
                    content: None
                },
                FileWrite {
                    path: "a/b".into(),
                    content: Some("new".into())
                },
            ]
        );
    }
}
