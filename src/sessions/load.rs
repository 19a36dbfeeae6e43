//! A session read to its end (a saved file or folder, or a live stream),
//! with the folder its files are now in.

use std::io::Read;
use std::path::{Path, PathBuf};

use super::recover::SessionRoot;
use crate::source::agent::session::{SessionError, read_session};
use crate::source::agent::{AgentReader, Format, detect};

/// Why a session cannot be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The saved session cannot be read or is not one srview knows.
    #[error(transparent)]
    Session(SessionError),
    /// Reading stdin failed.
    #[error("cannot read stdin: {0}")]
    Stdin(#[source] std::io::Error),
    /// The stream's first bytes are no agent output srview knows.
    #[error(
        "stdin is not the output of {} that srview knows",
        crate::source::agent::table::agent_names()
    )]
    UnknownStream,
}

/// Formats that do not name the folder the agent ran in (paths are
/// absolute): the caller's `--cwd` is that folder.
fn names_no_workspace(format: Format) -> bool {
    !format.row().names_workspace
}

/// Reads the session at `path` (`-`: stdin, read to its end). `cwd`: where
/// the session's files are now (default: the workspace the session
/// records, else the folder of an Aider history, else the current folder).
pub fn load(path: &Path, cwd: Option<&Path>) -> Result<(AgentReader, SessionRoot), LoadError> {
    let reader = if path == Path::new("-") {
        read_stream(std::io::stdin().lock(), cwd)?
    } else {
        read_session(path, None).map_err(LoadError::Session)?
    };
    let root = root_of(&reader, path, cwd);
    Ok((reader, root))
}

/// Where the files of the session at `path` are now: `cwd` when given,
/// else the workspace the session records (as far as `reader` has read),
/// else the folder of an Aider history, else the current folder.
pub fn root_of(reader: &AgentReader, path: &Path, cwd: Option<&Path>) -> SessionRoot {
    let root = cwd
        .map(Path::to_path_buf)
        .or_else(|| reader.workspace().map(PathBuf::from))
        .or_else(|| {
            reader
                .format()
                .row()
                .workspace_is_its_folder
                .then(|| folder_of(path))
        })
        .unwrap_or_else(|| PathBuf::from("."));
    SessionRoot { root }
}

/// The folder a session file is in (the repository of an Aider history).
fn folder_of(path: &Path) -> PathBuf {
    if path.is_dir() {
        path.to_path_buf()
    } else {
        path.parent().map(Path::to_path_buf).unwrap_or_default()
    }
}

/// `reader` of an output that names no workspace, run in `dir` (`--cwd`):
/// its absolute paths are shown relative to `dir`, and those outside it
/// are mapped onto it by their longest suffix that exists there (see
/// [`AgentReader::with_existing`]).
pub fn with_cwd(reader: AgentReader, dir: &Path) -> AgentReader {
    let root = dir.to_path_buf();
    reader
        .with_workspace(&dir.to_string_lossy())
        .with_existing(move |rel| root.join(rel).exists())
}

/// Reads a live stream to its end, detecting its kind from its first bytes.
pub fn read_stream(mut input: impl Read, cwd: Option<&Path>) -> Result<AgentReader, LoadError> {
    let mut first = Vec::new();
    let mut buf = vec![0u8; 64 * 1024];
    let mut ended = false;
    while first.len() < 4096 {
        match input.read(&mut buf) {
            Ok(0) => {
                ended = true;
                break;
            }
            Ok(n) => first.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(LoadError::Stdin(e)),
        }
    }
    let (kind, format) = detect(&first[..first.len().min(4096)]).ok_or(LoadError::UnknownStream)?;
    let mut reader = AgentReader::new(kind, format);
    if names_no_workspace(format)
        && let Some(dir) = cwd
    {
        reader = with_cwd(reader, dir);
    }
    reader.feed(&first);
    while !ended {
        match input.read(&mut buf) {
            Ok(0) => ended = true,
            Ok(n) => {
                reader.feed(&buf[..n]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(LoadError::Stdin(e)),
        }
    }
    reader.finish();
    Ok(reader)
}
