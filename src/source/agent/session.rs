//! Saved sessions on disk: the file (or the folder holding it) read as a
//! stream, with the side files that name the agent's version and
//! workspace.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::{AgentReader, detect_path};

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
    #[error(
        "{path} is not a session of {} that srview knows",
        super::table::agent_names()
    )]
    Unrecognised {
        /// The session file.
        path: PathBuf,
    },
    /// A folder that holds no session file srview knows (an agent's home
    /// folder, a folder of sessions): `srview sessions` finds them.
    #[error(
        "{path} is a folder that holds no session file srview knows: \
         `srview sessions` lists the saved sessions of every agent srview reads \
         (`srview sessions FOLDER` searches FOLDER as the home folder)"
    )]
    NoSessionIn {
        /// The folder.
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
/// knows) to its end, in pieces. `cwd`: where the files of an output that
/// names no workspace are now (`--cwd`; see [`open_session`]).
pub fn read_session(path: &Path, cwd: Option<&str>) -> Result<AgentReader, SessionError> {
    read_session_with(path, cwd, |_| {})
}

/// [`read_session`], calling `each` with the reader after every piece is
/// fed and once more when the input has ended (to take what has settled,
/// [`AgentReader::take_settled`], as the session is read).
pub fn read_session_with(
    path: &Path,
    cwd: Option<&str>,
    each: impl FnMut(&mut AgentReader),
) -> Result<AgentReader, SessionError> {
    read_up_to_bytes(path, cwd, u64::MAX, true, each)
}

/// [`read_session_with`] by a reader that keeps no contents
/// ([`AgentReader::without_contents`]): a survey of the session's edits
/// (a session kept in a database is read with its contents).
pub fn survey_session_with(
    path: &Path,
    cwd: Option<&str>,
    each: impl FnMut(&mut AgentReader),
) -> Result<AgentReader, SessionError> {
    read_up_to_bytes(path, cwd, u64::MAX, false, each)
}

/// The workspace the session at `path` records (its side files included),
/// read from its first `max` bytes only: enough for the lines that name it,
/// for a caller matching many sessions to a folder. An Aider history
/// records none: it lies in its repository.
pub fn recorded_workspace(path: &Path, max: u64) -> Option<String> {
    let reader = read_up_to_bytes(path, None, max, true, |_| {}).ok()?;
    reader.workspace().map(str::to_string)
}

/// A saved session file opened, its agent detected and its first piece
/// read (see [`open_session`]).
pub struct OpenedSession {
    /// The reader, with the side files read and the first piece fed.
    pub reader: AgentReader,
    /// The session file (in a session folder: the file in it).
    pub file_path: PathBuf,
    /// The file, at `read`.
    pub file: File,
    /// The bytes read and fed so far.
    pub read: u64,
}

impl OpenedSession {
    /// Reads the file on in pieces of 64 KiB, feeding the reader, until
    /// about `max` bytes (whole pieces) are read or the file ends; `each`
    /// is called after every piece fed.
    pub fn feed_up_to(
        &mut self,
        max: u64,
        mut each: impl FnMut(&mut AgentReader),
    ) -> std::io::Result<()> {
        let mut buf = vec![0u8; 64 * 1024];
        while self.read < max {
            let n = crate::input::read_some(&mut self.file, &mut buf)?;
            if n == 0 {
                break;
            }
            self.read += n as u64;
            self.reader.feed(&buf[..n]);
            each(&mut self.reader);
        }
        Ok(())
    }
}

/// Opens the session file at `path` (a file, or a folder [`session_file`]
/// knows; not a database), detects its agent from its first 16 KiB (and
/// its name), reads its side files and feeds the reader those first bytes:
/// the rest is the caller's to read. `cwd`: where the files of an output
/// that names no workspace (Gemini CLI's and Codex's streams, Cline CLI's
/// `--json`) are now (`--cwd`): its absolute paths are shown relative to
/// it, those outside it mapped onto it by their longest suffix that exists
/// there, as for a live stream (a tester's find: `session FILE --cwd DIR`
/// ignored DIR, and every edit's file "did not exist"); an output that
/// names its workspace keeps it.
pub fn open_session(path: &Path, cwd: Option<&str>) -> Result<OpenedSession, SessionError> {
    open_session_keeping(path, cwd, true)
}

/// [`open_session`]; `contents`: false for a reader that keeps none
/// ([`AgentReader::without_contents`]).
fn open_session_keeping(
    path: &Path,
    cwd: Option<&str>,
    contents: bool,
) -> Result<OpenedSession, SessionError> {
    let file_path = if path.is_dir() {
        session_file(path).ok_or_else(|| SessionError::NoSessionIn {
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
    if !contents {
        reader = reader.without_contents();
    }
    let workspace = cwd.filter(|_| !format.row().names_workspace);
    if let Some(dir) = workspace {
        let root = PathBuf::from(dir);
        reader = reader
            .with_workspace(dir)
            .with_existing(move |rel| root.join(rel).exists());
    }
    if let Some(side_files) = format.row().side_files {
        side_files(&file_path, &mut reader, workspace.is_none());
    }
    reader.feed(&first);
    Ok(OpenedSession {
        reader,
        file_path,
        file,
        read: n as u64,
    })
}

/// [`read_session_with`], stopping after about `max` bytes (whole pieces);
/// `contents`: see [`open_session_keeping`].
fn read_up_to_bytes(
    path: &Path,
    cwd: Option<&str>,
    max: u64,
    contents: bool,
    mut each: impl FnMut(&mut AgentReader),
) -> Result<AgentReader, SessionError> {
    // A session kept in a database (OpenCode's): read whole, from its rows.
    // It names its workspace: `cwd` does not apply.
    if let Some(read) = super::database::read(path, None, &mut each) {
        return read.map_err(|why| SessionError::Io {
            path: path.to_path_buf(),
            source: std::io::Error::other(why),
        });
    }
    let mut opened = open_session_keeping(path, cwd, contents)?;
    each(&mut opened.reader);
    opened
        .feed_up_to(max, &mut each)
        .map_err(|source| SessionError::Io {
            path: opened.file_path.clone(),
            source,
        })?;
    let mut reader = opened.reader;
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
