//! Temporary files for tests that hand paths to the binary.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A path as a command-line argument (temporary folders are UTF-8 here).
pub fn p(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// Writes `content` to `dir/name` and returns its path.
pub fn write(dir: &Path, name: &str, content: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, content).expect("write temp file");
    path
}

/// Appends `bytes` to the file at `path`, making it if it is not there
/// (an agent writing more of its output).
pub fn append(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .and_then(|mut f| f.write_all(bytes))
        .expect("append to file");
}

/// Makes a named pipe at `path` with `mkfifo`.
pub fn mkfifo(path: &Path) {
    assert!(
        Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo runs")
            .success(),
        "mkfifo {}",
        path.display()
    );
}

/// Writes each `(relative path, content)` under `root`, making folders.
pub fn tree(root: &Path, files: &[(&str, &str)]) {
    write_all(root, files.iter().copied());
}

/// [`tree`] of any pairs (a record's `BTreeMap` of files, say).
pub fn write_all<P: AsRef<Path>, C: AsRef<[u8]>>(
    root: &Path,
    files: impl IntoIterator<Item = (P, C)>,
) {
    for (name, content) in files {
        let path = root.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("make folder");
        }
        std::fs::write(&path, content).expect("write file");
    }
}

/// Every file below `root` (not the folders), at any depth, sorted.
pub fn files_below(root: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries =
            std::fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// Copies the folder `from` with everything below it to `to` (made if it
/// is not there).
pub fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    let entries = std::fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    for entry in entries {
        let entry = entry.expect("a folder entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("its type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy a file");
        }
    }
}

/// The text of `dir/name`.
pub fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).expect("read file")
}

/// A temporary folder holding each `(relative path, content)` ([`tree`]).
pub fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    tree(dir.path(), files);
    dir
}
