//! The files as Aider sees them during one reply: the project's files (read
//! through a [`PatchFs`]) under the ones Aider has created or written so
//! far, and the chat's files (`abs_fnames`). Paths are Aider's "full paths":
//! absolute, lexically normalized (`Path(root) / path`, resolved).

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use crate::dialect::call::{Entry, FileWrite, PatchFs, display_path, fs_path, normalize};

use super::parse::{ALL_FENCES, Fence};
use super::pytext::universal_newlines;

/// An exception Aider's `apply_updates` catches without reflecting anything
/// to the model (its `ANY_GIT_ERROR` tuple: OSError, IndexError,
/// AttributeError, ...): the edits written so far stay, nothing is said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Raised;

pub struct World<'a> {
    cwd: &'a str,
    fs: &'a dyn PatchFs,
    /// Files Aider created or wrote, by [`fs_path`], in the order first
    /// written, with their latest content.
    pub written: Vec<FileWrite>,
    /// The chat's files, in the order they were added (Aider keeps a set,
    /// whose order Python randomizes per process; it only matters when a
    /// block's SEARCH matches in more than one chat file).
    pub chat: Vec<String>,
    /// The fence Aider chose for the chat (`Coder.fence`).
    pub fence: Fence,
    /// The project's files as read (the file system does not change during
    /// the call; Aider reads a file several times per block).
    reads: RefCell<HashMap<String, Rc<Entry>>>,
}

/// `aider.utils.IMAGE_EXTENSIONS`: `io.read_text` returns such a file's
/// bytes in base64.
const IMAGE_EXTENSIONS: [&str; 8] = [
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tiff", ".webp", ".pdf",
];

impl<'a> World<'a> {
    pub fn new(cwd: &'a str, fs: &'a dyn PatchFs) -> Self {
        World {
            cwd,
            fs,
            written: Vec::new(),
            chat: Vec::new(),
            fence: ALL_FENCES[0],
            reads: RefCell::default(),
        }
    }

    /// `abs_root_path(path)`: `Path(root) / path`, resolved.
    pub fn full_path(&self, path: &str) -> String {
        display_path(self.cwd, &normalize(path))
    }

    /// `get_rel_fname(full)`: `os.path.relpath(full, root)`.
    /// `full` as the outcome's writes name it.
    pub fn write_key(&self, full: &str) -> String {
        fs_path(self.cwd, full)
    }

    pub fn rel_path(&self, full: &str) -> String {
        relpath(full, self.cwd)
    }

    /// What is at `full` now, without copying a file's text: Aider's own
    /// writes first, then the project's files (each read once per call).
    fn found(&self, full: &str) -> Found<'_> {
        let key = fs_path(self.cwd, full);
        if let Some(file) = self.written.iter().find(|w| w.path == key) {
            return Found::Text(file.content.as_deref().unwrap_or_default());
        }
        if self.written.iter().any(|w| is_below(&key, &w.path)) {
            return Found::Other(Entry::BelowFile);
        }
        let cached = self.reads.borrow().get(&key).cloned();
        let entry = cached.unwrap_or_else(|| {
            let entry = Rc::new(self.fs.read(&key));
            self.reads
                .borrow_mut()
                .insert(key.clone(), Rc::clone(&entry));
            entry
        });
        if *entry == Entry::Missing && self.written.iter().any(|w| is_below(&w.path, &key)) {
            return Found::Other(Entry::Directory);
        }
        Found::Read(entry)
    }

    /// What is at `full` now (a copy).
    pub fn entry(&self, full: &str) -> Entry {
        match self.found(full) {
            Found::Text(text) => Entry::File(text.to_string()),
            Found::Read(entry) => (*entry).clone(),
            Found::Other(entry) => entry,
        }
    }

    /// `Path(full).exists()`.
    pub fn exists(&self, full: &str) -> bool {
        let exists = |entry: &Entry| {
            matches!(
                entry,
                Entry::File(_) | Entry::Directory | Entry::Unreadable(_)
            )
        };
        match self.found(full) {
            Found::Text(_) => true,
            Found::Read(entry) => exists(&entry),
            Found::Other(entry) => exists(&entry),
        }
    }

    /// `io.read_text(full)`: the text with universal newlines, `None` for a
    /// missing file, a directory or one that is not UTF-8 (Aider prints a
    /// tool error). An image is read as its bytes in base64 (srview knows
    /// the bytes only of a UTF-8 file; others read as `None`).
    pub fn read_text(&self, full: &str) -> Option<String> {
        let found = self.found(full);
        let content = match &found {
            Found::Text(text) => *text,
            Found::Read(entry) => match &**entry {
                Entry::File(content) => content.as_str(),
                _ => return None,
            },
            Found::Other(_) => return None,
        };
        if IMAGE_EXTENSIONS.iter().any(|ext| full.ends_with(ext)) {
            return Some(crate::base64::encode(content.as_bytes()));
        }
        Some(universal_newlines(content))
    }

    /// `io.write_text(full, content)` (newline=None on Linux: `\n` kept).
    pub fn write_text(&mut self, full: &str, content: &str) {
        let key = fs_path(self.cwd, full);
        match self.written.iter_mut().find(|w| w.path == key) {
            Some(file) => file.content = Some(content.to_string()),
            None => self.written.push(FileWrite {
                path: key,
                content: Some(content.to_string()),
            }),
        }
    }

    /// `Path(full).touch()` in `do_replace` (the file is known missing): an
    /// OSError when its folder does not exist.
    pub fn touch(&mut self, full: &str) -> Result<(), Raised> {
        let parent = match full.rfind('/') {
            Some(0) => "/",
            Some(at) => &full[..at],
            None => return Err(Raised),
        };
        if self.entry(parent) != Entry::Directory && parent != self.cwd {
            return Err(Raised);
        }
        self.write_text(full, "");
        Ok(())
    }

    /// `utils.touch_file(full)`: creates the folders and an empty file;
    /// false when a folder on the way is a file.
    pub fn touch_file(&mut self, full: &str) -> bool {
        let mut at = 0;
        while let Some(next) = full[at + 1..].find('/') {
            at += next + 1;
            let folder = &full[..at];
            if matches!(
                self.entry(folder),
                Entry::File(_) | Entry::Unreadable(_) | Entry::BelowFile
            ) {
                return false;
            }
        }
        if matches!(self.entry(full), Entry::BelowFile) {
            return false;
        }
        self.write_text(full, "");
        true
    }

    /// Adds `full` to the chat's files (`abs_fnames.add`).
    pub fn add_to_chat(&mut self, full: &str) {
        if !self.chat.iter().any(|f| f == full) {
            self.chat.push(full.to_string());
        }
    }

    /// Whether `key` (an [`fs_path`]) existed before the call as a file.
    /// The project's file at `key` (as the outcome's writes name it) as it
    /// was before the call, its bytes' line endings as they are; `None` for
    /// anything but a file.
    pub fn text_before(&self, key: &str) -> Option<String> {
        let cached = self.reads.borrow().get(key).cloned();
        let entry = cached.unwrap_or_else(|| Rc::new(self.fs.read(key)));
        match &*entry {
            Entry::File(text) => Some(text.clone()),
            _ => None,
        }
    }

    pub fn existed_before(&self, full: &str) -> bool {
        let key = fs_path(self.cwd, full);
        let cached = self.reads.borrow().get(&key).cloned();
        let entry = cached.unwrap_or_else(|| Rc::new(self.fs.read(&key)));
        !matches!(*entry, Entry::Missing | Entry::BelowFile)
    }
}

/// What [`World::found`] finds.
enum Found<'w> {
    /// A file Aider wrote during the call.
    Text(&'w str),
    /// What the project's file system holds.
    Read(Rc<Entry>),
    /// A folder implied, or a path below a file, by Aider's own writes.
    Other(Entry),
}

/// `path` lies strictly below `folder` (both [`fs_path`]s).
fn is_below(path: &str, folder: &str) -> bool {
    path.len() > folder.len() + 1
        && path.starts_with(folder)
        && path.as_bytes()[folder.len()] == b'/'
}

/// `os.path.relpath(path, start)` for two absolute normalized paths.
pub fn relpath(path: &str, start: &str) -> String {
    let rel = crate::dialect::call::relative_path(start, path);
    if rel.is_empty() { ".".to_string() } else { rel }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_are_os_path_relpath_s() {
        assert_eq!(relpath("/w/p/src/a.py", "/w/p"), "src/a.py");
        assert_eq!(relpath("/w/other/a.py", "/w/p"), "../other/a.py");
        assert_eq!(relpath("/w/p", "/w/p"), ".");
    }
}
