//! The sessions agents leave on disk, found at their usual places under a
//! home folder:
//!
//! | agent | where |
//! |---|---|
//! | Claude Code | `.claude/projects/<cwd>/<session>.jsonl` |
//! | Codex | `.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` |
//! | Cline CLI 3.x | `.cline/data/sessions/<id>/<id>.messages.json` |
//! | Cline classic | `tasks/<id>/` under `.cline/data` (CLIs) or the VS Code extension's global storage (`saoudrizwan.claude-dev`, for Code, Code - Insiders, Cursor, VSCodium; Linux and macOS) |
//! | Aider | `.aider.chat.history.md` in the repository |
//! | OpenCode | each session in `.local/share/opencode/opencode*.db` (SQLite), as `opencode.db/<session id>` |
//!
//! Only folder listings and file metadata are read here, but for
//! [`newest_for`], which reads the first lines of the newest sessions.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::source::agent::AgentKind;
use crate::source::agent::table::{AGENTS, Workspace};

/// A session found on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The session file, or the Cline session / task folder.
    pub path: PathBuf,
    /// The agent that wrote it (by where it was found).
    pub agent: AgentKind,
    /// When the session was last written.
    pub modified: SystemTime,
    /// The folder the agent ran in, when finding the session told it (a
    /// session in a database); else read from the session when needed.
    pub workspace: Option<PathBuf>,
}

/// The entries of `dir` (none when it cannot be listed), sorted.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = read.filter_map(|e| e.ok().map(|e| e.path())).collect();
    out.sort();
    out
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

fn push(out: &mut Vec<Found>, path: PathBuf, file: &Path, agent: AgentKind) {
    if let Some(modified) = modified(file) {
        out.push(Found {
            path,
            agent,
            modified,
            workspace: None,
        });
    }
}

fn has_name(p: &Path, f: impl Fn(&str) -> bool) -> bool {
    p.file_name().and_then(|n| n.to_str()).is_some_and(f)
}

/// Every session under `home` and, for agents that keep them in the
/// repository (Aider), in `repo`; newest first. Where each agent keeps them
/// is its row's [`SessionPlace`](crate::source::agent::table::SessionPlace).
pub fn find(home: &Path, repo: Option<&Path>) -> Vec<Found> {
    let mut out = Vec::new();
    for row in AGENTS {
        let place = &row.sessions;
        let base = match (place.in_repository, repo) {
            (false, _) => home,
            (true, Some(repo)) => repo,
            (true, None) => continue,
        };
        for root in place.roots {
            let mut files = Vec::new();
            walk(&base.join(root), place.pattern, &mut files);
            for file in files {
                // A database holding many sessions (OpenCode's): each one.
                if let Some(inside) = crate::source::agent::database::sessions_in(&file) {
                    out.extend(inside.into_iter().map(|(path, s)| Found {
                        path,
                        agent: row.kind,
                        modified: s.updated,
                        workspace: Some(s.directory),
                    }));
                    continue;
                }
                let session = match (place.is_folder, file.parent()) {
                    (true, Some(folder)) => folder.to_path_buf(),
                    _ => file.clone(),
                };
                push(&mut out, session, &file, row.kind);
            }
        }
    }
    out.sort_by(|a, b| b.modified.cmp(&a.modified).then(a.path.cmp(&b.path)));
    out
}

/// The files below `dir` that `pattern` names (see
/// [`SessionPlace::pattern`](crate::source::agent::table::SessionPlace)).
fn walk(dir: &Path, pattern: &[&str], out: &mut Vec<PathBuf>) {
    let Some((segment, rest)) = pattern.split_first() else {
        return;
    };
    let parent = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let wanted = segment.replace("{parent}", &parent);
    let fits = |name: &str| match wanted.split_once('*') {
        Some((pre, post)) => {
            name.len() >= pre.len() + post.len() && name.starts_with(pre) && name.ends_with(post)
        }
        None => name == wanted,
    };
    if !wanted.contains('*') {
        // One name: no listing needed.
        let path = dir.join(&wanted);
        if rest.is_empty() {
            if path.is_file() {
                out.push(path);
            }
        } else if path.is_dir() {
            walk(&path, rest, out);
        }
        return;
    }
    for entry in entries(dir) {
        if !has_name(&entry, fits) {
            continue;
        }
        if rest.is_empty() {
            if entry.is_file() {
                out.push(entry);
            }
        } else {
            walk(&entry, rest, out);
        }
    }
}

/// The session whose id (its file's stem or folder's name, without Codex's
/// `rollout-DATE-` prefix) is `id` or starts with it, among `found`:
/// `Err` with every match when more than one does.
pub fn by_id<'a>(found: &'a [Found], id: &str) -> Result<Option<&'a Found>, Vec<&'a Found>> {
    let matches: Vec<&Found> = found
        .iter()
        .filter(|f| {
            let name = f
                .path
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            let stem = name.strip_suffix(".jsonl").unwrap_or(&name);
            // `-`: Codex's `rollout-DATE-ID`; `_`: pi's `TIME_ID`.
            stem.starts_with(id)
                || stem.ends_with(id)
                || stem.contains(&format!("-{id}"))
                || stem.contains(&format!("_{id}"))
        })
        .collect();
    match matches.len() {
        0 => Ok(None),
        1 => Ok(Some(matches[0])),
        _ => Err(matches),
    }
}

/// How much of a session [`newest_for`] reads to learn its workspace.
const WORKSPACE_PROBE: u64 = 256 * 1024;

/// How many of the newest sessions [`newest_for`] looks into.
const NEWEST_PROBED: usize = 200;

/// The newest of `found` (newest first, as [`find`] gives them) that an
/// agent ran for `dir`: by the workspace the session records, which must
/// lie in the repository holding `dir`; outside any repository, which must
/// be `dir` or a folder above it (never `/`), so a folder holding many
/// projects does not take one of theirs. An Aider history by where it
/// lies. Cline classic tasks record no workspace and never match. Only the
/// newest sessions are looked into, each from its first lines.
pub fn newest_for<'a>(found: &'a [Found], dir: &Path) -> Option<&'a Found> {
    let here = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let repo = repository_of(&here);
    let in_repo = repo.join(".git").exists();
    let matches = |w: &Path| {
        if in_repo {
            w.starts_with(&repo)
        } else {
            here.starts_with(w) && w.parent().is_some()
        }
    };
    found.iter().take(NEWEST_PROBED).find(|f| {
        let workspace = match f.agent.row().workspace {
            _ if f.workspace.is_some() => f.workspace.clone(),
            Workspace::FileFolder => f.path.parent().map(Path::to_path_buf),
            Workspace::Unrecorded => None,
            Workspace::Recorded => {
                crate::source::agent::session::recorded_workspace(&f.path, WORKSPACE_PROBE)
                    .map(PathBuf::from)
            }
        };
        workspace.is_some_and(|w| matches(&w.canonicalize().unwrap_or(w)))
    })
}

/// The repository holding `dir`: the nearest folder up with a `.git`;
/// `dir` itself when there is none.
pub fn repository_of(dir: &Path) -> PathBuf {
    dir.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(dir)
        .to_path_buf()
}
