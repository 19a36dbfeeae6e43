//! What an agent's own file provides to read a database its sessions are
//! kept in (a row of `table::FORMATS` names it): which files are its
//! databases, the sessions in one, and a tail of its rows as lines.
//! `database` reads any such database through it.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::Format;

/// Which sessions of a database are read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pick {
    /// The session with this id.
    Session(String),
    /// The newest session of this folder (see the module's doc), else
    /// the newest of all.
    Folder(PathBuf),
}

/// One session in a database.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DbSession {
    /// Its id.
    pub id: String,
    /// The folder the agent ran in.
    pub directory: PathBuf,
    /// When it was last written.
    pub updated: SystemTime,
}

/// The rows of a database read as they are written: each call of
/// [`DatabaseTail::poll`] gives the lines made of the rows written since
/// the last call (all of them at the first), `None` when nothing changed.
pub trait DatabaseTail: Send {
    /// The new lines (each ending in `\n`), or `None`; `Err` with a
    /// sentence when the database cannot be read.
    fn poll(&mut self) -> Result<Option<String>, String>;
}

/// A database opened for reading: its format and its tail.
pub type Opened = (Format, Box<dyn DatabaseTail>);

/// Opens a database for the sessions a [`Pick`] names (`follow`: later
/// sessions of the same folder too).
pub type OpenFn = fn(db: &Path, pick: &Pick, follow: bool) -> Result<Box<dyn DatabaseTail>, String>;

/// How the agent's own file reads its database.
pub struct DatabaseSource {
    /// Whether a file is one of its databases (by its name).
    pub is_database: fn(&Path) -> bool,
    /// The sessions in the database, newest first.
    pub sessions: fn(&Path) -> Result<Vec<DbSession>, String>,
    /// Opens the database read-only (never locking the agent out) for
    /// the sessions `pick` names; `follow`: later sessions of the same
    /// folder too.
    pub open: OpenFn,
}
