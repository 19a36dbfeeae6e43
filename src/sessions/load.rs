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
        let cwd = cwd.map(|dir| dir.to_string_lossy());
        read_session(path, cwd.as_deref()).map_err(LoadError::Session)?
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

/// A saved session opened for the browser: the reader fed its first
/// piece, the rest left to [`send_rest`].
pub struct Opened {
    /// The reader, with the first piece fed.
    pub reader: AgentReader,
    /// The session file (in a session folder: the file in it).
    pub file: PathBuf,
    /// The bytes fed so far.
    pub read: u64,
    /// The file's size when opened.
    pub size: u64,
}

/// Opens the saved session at `path` (a file or a session folder; `None`
/// for a session kept in a database, read whole by [`load`]) and feeds
/// the reader about its first `first` bytes (whole pieces), so that the
/// browser's first frame lists the first edits.
pub fn open_saved(path: &Path, first: u64) -> Option<Result<Opened, LoadError>> {
    if path == Path::new("-") || crate::source::agent::database::locate(path).is_some() {
        return None;
    }
    Some(open_first(path, first))
}

fn open_first(path: &Path, first: u64) -> Result<Opened, LoadError> {
    use crate::source::agent::session::{OpenedSession, open_session};
    let mut opened = open_session(path, None).map_err(LoadError::Session)?;
    let fed = opened.file.metadata().and_then(|meta| {
        opened.feed_up_to(first, |_| {})?;
        Ok(meta.len())
    });
    let size = fed.map_err(|source| {
        LoadError::Session(SessionError::Io {
            path: opened.file_path.clone(),
            source,
        })
    })?;
    let OpenedSession {
        reader,
        file_path,
        read,
        ..
    } = opened;
    Ok(Opened {
        reader,
        file: file_path,
        read,
        size,
    })
}

/// How much of a session [`send_rest`] sends at a time: the browser
/// reviews what arrived once per batch of pieces, so pieces much larger
/// than a read keep the reviews few.
const PIECE: usize = 1 << 20;

/// Reads `path` from byte `from` to its end on a thread, sending it as
/// appended text in pieces of about [`PIECE`] bytes (a character split
/// between two reads is held until complete; bytes that are not UTF-8 are
/// replaced, as the reader of a whole session replaces them), then
/// [`SourceEvent::Ended`]. Stops when `sink` says no one listens.
pub fn send_rest(
    path: PathBuf,
    from: u64,
    sink: impl Fn(crate::source::watch::SourceEvent) -> bool + Send + 'static,
) {
    use crate::source::watch::SourceEvent;
    use std::io::{Seek, SeekFrom};
    std::thread::spawn(move || {
        let opened = std::fs::File::open(&path).and_then(|mut file| {
            file.seek(SeekFrom::Start(from))?;
            Ok(file)
        });
        let mut file = match opened {
            Ok(file) => file,
            Err(e) => {
                sink(SourceEvent::Problem(format!(
                    "cannot read {}: {e}",
                    path.display()
                )));
                sink(SourceEvent::Ended);
                return;
            }
        };
        let mut piece: Vec<u8> = Vec::with_capacity(PIECE + 64 * 1024);
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            let n = match crate::input::read_some(&mut file, &mut buf) {
                Ok(n) => n,
                Err(e) => {
                    sink(SourceEvent::Problem(format!(
                        "cannot read {}: {e}",
                        path.display()
                    )));
                    break;
                }
            };
            piece.extend_from_slice(&buf[..n]);
            if n > 0 && piece.len() < PIECE {
                continue;
            }
            // The browser's reviewer far behind: the pieces wait here, not
            // as edits held whole (see `sessions::browse`).
            crate::sessions::browse::wait_for_the_reviewer(piece.len());
            // At the end, a character still incomplete is sent (replaced).
            let complete = if n == 0 {
                piece.len()
            } else {
                complete_up_to(&piece)
            };
            let rest = piece.split_off(complete);
            let text = match String::from_utf8(std::mem::replace(&mut piece, rest)) {
                Ok(text) => text,
                Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            };
            if !text.is_empty() && !sink(SourceEvent::Append(text)) {
                return;
            }
            if n == 0 {
                break;
            }
        }
        sink(SourceEvent::Ended);
    });
}

/// The length of `bytes` without a UTF-8 character cut off at its end
/// (its lead byte and the continuation bytes that came).
fn complete_up_to(bytes: &[u8]) -> usize {
    let len = bytes.len();
    for back in 1..=len.min(3) {
        let b = bytes[len - back];
        if b & 0xC0 == 0x80 {
            // A continuation byte: its lead is further back.
            continue;
        }
        let needs = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if needs > back { len - back } else { len };
    }
    len
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A character cut at the end of a piece is held back whole; a complete
    /// one, ASCII and bytes that are no UTF-8 lead are kept.
    #[test]
    fn a_piece_ends_before_a_character_cut_off() {
        let e_acute = "é".as_bytes(); // 2 bytes
        let euro = "€".as_bytes(); // 3 bytes
        let crab = "🦀".as_bytes(); // 4 bytes
        assert_eq!(complete_up_to(b"abc"), 3);
        assert_eq!(complete_up_to(b""), 0);
        assert_eq!(complete_up_to(&[b'a', e_acute[0]]), 1);
        assert_eq!(complete_up_to(&[b'a', e_acute[0], e_acute[1]]), 3);
        assert_eq!(complete_up_to(&[b'a', euro[0], euro[1]]), 1);
        assert_eq!(complete_up_to(&[b'a', euro[0], euro[1], euro[2]]), 4);
        assert_eq!(complete_up_to(&[b'a', crab[0], crab[1], crab[2]]), 1);
        assert_eq!(complete_up_to(&[crab[0], crab[1], crab[2], crab[3]]), 4);
        assert_eq!(complete_up_to(&[b'a', 0xFF]), 2);
    }

    /// The pieces sent, joined, are the file from `from` on, however its
    /// characters fall across reads; then the end.
    #[test]
    fn send_rest_sends_the_file_from_an_offset_then_its_end() {
        use crate::source::watch::SourceEvent;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.jsonl");
        // Several pieces, a multi-byte character across each boundary.
        let text: String = "héllo €🦀 wörld\n".repeat(300_000);
        std::fs::write(&path, &text).unwrap();
        let from = "héllo ".len() as u64;
        let (tx, rx) = std::sync::mpsc::channel();
        send_rest(path, from, move |e| tx.send(e).is_ok());
        let mut got = String::new();
        let mut pieces = 0;
        loop {
            match rx.recv().unwrap() {
                SourceEvent::Append(t) => {
                    pieces += 1;
                    got.push_str(&t);
                }
                SourceEvent::Ended => break,
                other => panic!("unexpected {other:?}"),
            }
        }
        assert!(pieces > 2, "{pieces} pieces");
        assert_eq!(got, text[from as usize..]);
    }
}
