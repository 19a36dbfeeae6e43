//! The content before an edit where the agent's output does not carry it:
//! Codex's recorded diffs undone against the file as it is now, a Cline CLI
//! checkpoint commit (`git show REF:FILE`), the current file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::udiff;
use crate::source::agent::{AgentEdit, EditInput, FileContent, Verdict};

/// Where the files of a session are now: the folder relative paths
/// resolve against.
#[derive(Debug, Clone)]
pub struct SessionRoot {
    /// The folder relative paths resolve against.
    pub root: PathBuf,
}

impl SessionRoot {
    /// `file` (relative to the workspace, or absolute) on disk.
    pub fn path(&self, file: &str) -> PathBuf {
        let p = Path::new(file);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.root.join(p)
        }
    }

    /// The file as it is now: `Absent` when missing, `None` when it cannot
    /// be read as text.
    pub fn current(&self, file: &str) -> Option<FileContent> {
        match std::fs::read_to_string(self.path(file)) {
            Ok(text) => Some(FileContent::Text(text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(FileContent::Absent),
            Err(_) => None,
        }
    }
}

/// Codex: the content before each applied edit, by undoing the recorded
/// diffs from the last edit of a file back to the first, starting from the
/// file as it is now. Stops (for that file) at the first diff that does not
/// fit: the file changed after the session, or an edit has no diff. Keyed
/// by the edit's position in `edits`.
pub fn undo_recorded_diffs(edits: &[AgentEdit], ws: &SessionRoot) -> HashMap<usize, FileContent> {
    let mut by_file: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, e) in edits.iter().enumerate() {
        by_file.entry(e.file.as_str()).or_default().push(i);
    }
    let mut out = HashMap::new();
    for (file, indices) in by_file {
        if !indices.iter().any(|&i| edits[i].agent_diff.is_some()) {
            continue;
        }
        let Some(mut state) = ws.current(file) else {
            continue;
        };
        for &i in indices.iter().rev() {
            let e = &edits[i];
            if e.agent_verdict == Verdict::Applied {
                let added = matches!(&e.input, EditInput::ApplyPatch(p)
                    if p.contains("\n*** Add File: "));
                if added {
                    // Codex overwrites an existing file on Add: what was
                    // there before is not recorded anywhere.
                    break;
                }
                let (Some(diff), FileContent::Text(after)) = (&e.agent_diff, &state) else {
                    break;
                };
                match udiff::reverse_apply(after, diff) {
                    Ok(before) => state = FileContent::Text(before),
                    Err(_) => break,
                }
            }
            out.insert(i, state.clone());
        }
    }
    out
}

/// What `git show REF:FILE` says of a file in a commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Checkpoint {
    /// The file as the commit holds it (`Absent`: not in the commit).
    Found(FileContent),
    /// git is missing, the folder is no repository, the commit is unknown.
    Unavailable(String),
}

/// `FILE` (relative to the workspace) as the commit `reference` holds it.
pub fn git_show(ws: &SessionRoot, reference: &str, file: &str) -> Checkpoint {
    if reference.starts_with('-') || Path::new(file).is_absolute() {
        return Checkpoint::Unavailable(format!("cannot look up {file} in {reference}"));
    }
    let output = Command::new("git")
        .arg("-C")
        .arg(&ws.root)
        .arg("show")
        .arg(format!("{reference}:./{file}"))
        .output();
    match output {
        Err(e) => Checkpoint::Unavailable(format!("cannot run git: {e}")),
        Ok(o) if o.status.success() => match String::from_utf8(o.stdout) {
            Ok(text) => Checkpoint::Found(FileContent::Text(text)),
            Err(_) => Checkpoint::Unavailable(format!("{file} in {reference} is not UTF-8 text")),
        },
        Ok(o) => {
            let stderr = String::from_utf8_lossy(&o.stderr);
            if stderr.contains("does not exist in") || stderr.contains("exists on disk, but not in")
            {
                Checkpoint::Found(FileContent::Absent)
            } else {
                Checkpoint::Unavailable(format!(
                    "git show {reference}:{file} in {}: {}",
                    ws.root.display(),
                    stderr.lines().next().unwrap_or("failed")
                ))
            }
        }
    }
}
