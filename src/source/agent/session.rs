//! Saved sessions on disk: the file (or the folder holding it) read as a
//! stream, with the side files that name the agent's version and
//! workspace.

use std::fs::File;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{AgentReader, Format, detect_path};

/// Why a session cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// Reading `path` failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The session file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Neither the name nor the first lines say which agent wrote it.
    #[error("{path} is not a session of Claude Code, Codex, Cline or Aider that srview knows")]
    Unrecognised {
        /// The session file.
        path: PathBuf,
    },
    /// Nothing in it could be read: no edit, and the reader's first
    /// complaint.
    #[error("no edit could be read from {path}: {why}")]
    Unreadable {
        /// The session file.
        path: PathBuf,
        /// The reader's first complaint (a torn or foreign line).
        why: String,
    },
}

/// The session file in `dir`: a Cline CLI session folder
/// (`<id>.messages.json`), a Cline classic task folder
/// (`api_conversation_history.json`), or a repository with an Aider history.
pub fn session_file(dir: &Path) -> Option<PathBuf> {
    let id = dir.file_name()?.to_string_lossy().to_string();
    [
        format!("{id}.messages.json"),
        "api_conversation_history.json".to_string(),
        "ui_messages.json".to_string(),
        ".aider.chat.history.md".to_string(),
    ]
    .into_iter()
    .map(|name| dir.join(name))
    .find(|p| p.is_file())
}

/// Reads the session at `path` (a file, or a folder [`session_file`]
/// knows) to its end, in pieces. `workspace` overrides the recorded one.
pub fn read_session(path: &Path, workspace: Option<&str>) -> Result<AgentReader, SessionError> {
    read_session_with(path, workspace, |_| {})
}

/// [`read_session`], calling `each` with the reader after every piece is
/// fed and once more when the input has ended (to take what has settled,
/// [`AgentReader::take_settled`], as the session is read).
pub fn read_session_with(
    path: &Path,
    workspace: Option<&str>,
    each: impl FnMut(&mut AgentReader),
) -> Result<AgentReader, SessionError> {
    read_up_to_bytes(path, workspace, u64::MAX, each)
}

/// The workspace the session at `path` records (its side files included),
/// read from its first `max` bytes only: enough for the lines that name it,
/// for a caller matching many sessions to a folder. An Aider history
/// records none: it lies in its repository.
pub fn recorded_workspace(path: &Path, max: u64) -> Option<String> {
    let reader = read_up_to_bytes(path, None, max, |_| {}).ok()?;
    reader.workspace().map(str::to_string)
}

/// [`read_session_with`], stopping after about `max` bytes (whole pieces).
fn read_up_to_bytes(
    path: &Path,
    workspace: Option<&str>,
    max: u64,
    mut each: impl FnMut(&mut AgentReader),
) -> Result<AgentReader, SessionError> {
    let file_path = if path.is_dir() {
        session_file(path).ok_or_else(|| SessionError::Unrecognised {
            path: path.to_path_buf(),
        })?
    } else {
        path.to_path_buf()
    };
    let io = |source| SessionError::Io {
        path: file_path.clone(),
        source,
    };
    let mut file = File::open(&file_path).map_err(io)?;
    let mut first = vec![0u8; 16 * 1024];
    let n = read_up_to(&mut file, &mut first).map_err(io)?;
    first.truncate(n);
    let (kind, format) =
        detect_path(&file_path, &first).ok_or_else(|| SessionError::Unrecognised {
            path: file_path.clone(),
        })?;
    let mut reader = AgentReader::new(kind, format);
    if let Some(ws) = workspace {
        reader = reader.with_workspace(ws);
    }
    side_files(&file_path, format, &mut reader, workspace.is_none());
    if format == Format::ClaudeSessionJsonl
        && let Some(home) = file_path.ancestors().nth(3)
    {
        // ~/.claude/projects/<cwd>/<session>.jsonl → ~/.claude/file-history/
        let history = home.join("file-history");
        reader = reader.with_backups(move |session, name| {
            let plain = |s: &str| !s.is_empty() && !s.contains(['/', '\\']) && !s.starts_with('.');
            if !plain(session) || !plain(name) {
                return None;
            }
            std::fs::read_to_string(history.join(session).join(name)).ok()
        });
    }
    reader.feed(&first);
    each(&mut reader);
    let mut read = first.len() as u64;
    let mut buf = vec![0u8; 64 * 1024];
    while read < max {
        let n = crate::input::read_some(&mut file, &mut buf).map_err(io)?;
        if n == 0 {
            break;
        }
        read += n as u64;
        reader.feed(&buf[..n]);
        each(&mut reader);
    }
    reader.finish();
    each(&mut reader);
    Ok(reader)
}

fn read_up_to(file: &mut File, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match crate::input::read_some(file, &mut buf[n..])? {
            0 => break,
            k => n += k,
        }
    }
    Ok(n)
}

#[derive(Deserialize)]
struct ClineManifest {
    #[serde(default)]
    cwd: Option<String>,
    #[serde(default)]
    metadata: Option<ManifestMetadata>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ManifestMetadata {
    #[serde(default)]
    session_history_origin: Option<HistoryOrigin>,
    #[serde(default)]
    checkpoint: Option<Checkpoints>,
}

#[derive(Deserialize)]
struct Checkpoints {
    #[serde(default)]
    history: Vec<Checkpoint>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Checkpoint {
    #[serde(rename = "ref", default)]
    reference: Option<String>,
    #[serde(default)]
    created_at: Option<u64>,
}

#[derive(Deserialize)]
struct HistoryOrigin {
    #[serde(default)]
    version: Option<String>,
}

#[derive(Deserialize)]
struct TaskMetadata {
    #[serde(default)]
    environment_history: Vec<Environment>,
}

#[derive(Deserialize)]
struct Environment {
    #[serde(default)]
    host_version: Option<String>,
}

/// The version and workspace named beside the session file: a Cline CLI
/// manifest (`<id>.json`), a Cline classic `task_metadata.json`. Missing or
/// unreadable side files leave them unknown.
fn side_files(file: &Path, format: Format, reader: &mut AgentReader, use_cwd: bool) {
    let Some(dir) = file.parent() else { return };
    match format {
        Format::ClineCliMessages => {
            let name = file.file_name().map(|n| n.to_string_lossy().to_string());
            let Some(id) = name
                .as_deref()
                .and_then(|n| n.strip_suffix(".messages.json"))
            else {
                return;
            };
            let Some(manifest) = read_json::<ClineManifest>(&dir.join(format!("{id}.json"))) else {
                return;
            };
            if use_cwd && let Some(cwd) = &manifest.cwd {
                reader.store.set_workspace(cwd, false);
            }
            let Some(metadata) = manifest.metadata else {
                return;
            };
            if let Some(v) = metadata.session_history_origin.and_then(|o| o.version) {
                reader.set_version(&v);
            }
            let mut history = metadata.checkpoint.map(|c| c.history).unwrap_or_default();
            history.sort_by_key(|c| c.created_at.unwrap_or(0));
            reader.set_checkpoints(history.into_iter().filter_map(|c| c.reference).collect());
        }
        Format::ClineApiHistory | Format::ClineUiMessages => {
            let Some(meta) = read_json::<TaskMetadata>(&dir.join("task_metadata.json")) else {
                return;
            };
            if let Some(v) = meta
                .environment_history
                .iter()
                .rev()
                .find_map(|e| e.host_version.clone())
            {
                reader.set_version(&v);
            }
        }
        _ => {}
    }
}

fn read_json<T: for<'de> Deserialize<'de>>(path: &Path) -> Option<T> {
    let file = File::open(path).ok()?;
    serde_json::from_reader(std::io::BufReader::new(file)).ok()
}
