//! Agents that keep their sessions in a database (OpenCode's SQLite
//! `opencode.db`) rather than in files of their own: the database is read
//! as a stream of lines that the agent's reader makes of its rows (one
//! JSON object a line, in the shape of the agent's live output), so that
//! the rest of srview reads it as it reads any other output. Only the
//! agent's own file knows the database; this module names no database
//! engine.
//!
//! A database holds many sessions, of every folder the agent ran in. A
//! path names one or some of them:
//! - `X.db/ID`: the session `ID` in the database `X.db` (what `srview
//!   sessions` lists, and `srview session ID` finds);
//! - `X.db`: read whole, the newest session of the current folder (the
//!   folder or one above it, or inside its git repository, as `srview
//!   session` without a path picks), else the newest of all; followed,
//!   that session and every session started for the same folder later.

use std::path::{Path, PathBuf};

use super::AgentReader;
use super::database_format::{DbSession, Opened, Pick};
use super::table::{Arrival, FORMATS, FormatRow};

/// The database format and the sessions of it a path names (see the
/// module's doc); `None` when the path names no database.
pub fn locate(path: &Path) -> Option<(&'static FormatRow, PathBuf, Option<String>)> {
    let of = |file: &Path, may_be_missing: bool| {
        let there = file.is_file() || (may_be_missing && !file.exists());
        FORMATS.iter().find(|row| {
            row.arrival == Arrival::Database
                && row
                    .database
                    .is_some_and(|db| there && (db.is_database)(file))
        })
    };
    // A database not written yet is followed until it is.
    if let Some(row) = of(path, true) {
        return Some((row, path.to_path_buf(), None));
    }
    let parent = path.parent()?;
    let id = path.file_name()?.to_string_lossy().into_owned();
    of(parent, false).map(|row| (row, parent.to_path_buf(), Some(id)))
}

/// The sessions in `file` when it is a database an agent keeps its
/// sessions in, each named by its path (`X.db/ID`); `None` otherwise.
pub fn sessions_in(file: &Path) -> Option<Vec<(PathBuf, DbSession)>> {
    let (row, db, None) = locate(file)? else {
        return None;
    };
    let source = row.database?;
    let sessions = (source.sessions)(&db).unwrap_or_default();
    Some(sessions.into_iter().map(|s| (db.join(&s.id), s)).collect())
}

fn pick_of(id: Option<String>) -> Pick {
    match id {
        Some(id) => Pick::Session(id),
        None => Pick::Folder(std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))),
    }
}

/// Opens the sessions `path` names for reading whole (`follow` false) or
/// as they grow; `None` when `path` names no database.
pub fn open(path: &Path, follow: bool) -> Option<Result<Opened, String>> {
    let (row, db, id) = locate(path)?;
    let source = row.database?;
    Some((source.open)(&db, &pick_of(id), follow).map(|tail| (row.format, tail)))
}

/// Reads the sessions `path` names whole into a new reader (`workspace`
/// overrides the one they record); `None` when `path` names no database.
/// `each` is called after the rows are fed and once more at the end.
pub fn read(
    path: &Path,
    workspace: Option<&str>,
    mut each: impl FnMut(&mut AgentReader),
) -> Option<Result<AgentReader, String>> {
    let (format, mut tail) = match open(path, false)? {
        Ok(opened) => opened,
        Err(e) => return Some(Err(e)),
    };
    let mut reader = AgentReader::new(format.agent(), format);
    if let Some(ws) = workspace {
        reader = reader.with_workspace(ws);
    }
    match tail.poll() {
        Ok(lines) => {
            // In pieces, as a session file is read: `each` takes what has
            // settled as it goes.
            for piece in lines.unwrap_or_default().as_bytes().chunks(1 << 16) {
                reader.feed(piece);
                each(&mut reader);
            }
        }
        Err(e) => return Some(Err(e)),
    }
    each(&mut reader);
    reader.finish();
    each(&mut reader);
    Some(Ok(reader))
}

/// Whether a session's folder `workspace` is for `here`: inside the git
/// repository holding `here`; outside any repository, `here` or a folder
/// above it (never `/`).
pub fn is_for(workspace: &Path, here: &Path) -> bool {
    let repo = here
        .ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf);
    match repo {
        Some(repo) => workspace.starts_with(repo),
        None => here.starts_with(workspace) && workspace.parent().is_some(),
    }
}

/// How often a followed database is looked at (a `PRAGMA data_version`
/// read: cheap).
const FOLLOW_POLL: std::time::Duration = std::time::Duration::from_millis(200);

/// Follows the sessions `path` names as the agent writes them, on a
/// thread of its own: the lines of the rows written are sent as appended
/// text, a problem reading the database once until it changes. `sink`
/// returns false when nobody listens any more. `None` when `path` names
/// no database.
pub fn follow(
    path: &Path,
    sink: Box<dyn Fn(crate::source::watch::SourceEvent) -> bool + Send>,
) -> Option<Result<(), String>> {
    use crate::source::watch::SourceEvent;
    let (_, mut tail) = match open(path, true)? {
        Ok(opened) => opened,
        Err(e) => return Some(Err(e)),
    };
    std::thread::spawn(move || {
        let mut said: Option<String> = None;
        loop {
            let listening = match tail.poll() {
                Ok(Some(lines)) => {
                    said = None;
                    sink(SourceEvent::Append(lines))
                }
                Ok(None) => true,
                Err(e) if said.as_ref() != Some(&e) => {
                    said = Some(e.clone());
                    sink(SourceEvent::Problem(e))
                }
                Err(_) => true,
            };
            if !listening {
                return;
            }
            std::thread::sleep(FOLLOW_POLL);
        }
    });
    Some(Ok(()))
}

/// The one session a database path is read as (`srview session`): `X.db/ID`
/// as it names it; for `X.db`, the newest session of `here` (see
/// [`is_for`]), else the newest of all. Returns its path (`X.db/ID`) and
/// whether it is of `here`; `None` when `path` names no database or names
/// a session already.
pub fn one_session(path: &Path, here: &Path) -> Option<Result<(PathBuf, bool), String>> {
    let (row, db, None) = locate(path)? else {
        return None;
    };
    let sessions = match (row.database?.sessions)(&db) {
        Ok(sessions) => sessions,
        Err(e) => return Some(Err(e)),
    };
    let mine = sessions.iter().find(|s| is_for(&s.directory, here));
    let picked = match mine.or_else(|| sessions.first()) {
        Some(s) => (db.join(&s.id), mine.is_some()),
        None => return Some(Err("it holds no session".to_string())),
    };
    Some(Ok(picked))
}
