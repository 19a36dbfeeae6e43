//! OpenCode's SQLite database (`~/.local/share/opencode/opencode.db`, WAL
//! mode; `OPENCODE_DB` moves it): its sessions, and their tool parts made
//! into lines in the shape of `opencode run --format json` (see
//! [`super::Parser`]), first all of them, then those written since.
//!
//! The database is opened read-only with a busy timeout, and no read
//! transaction is held between polls: OpenCode is never locked out, and
//! its WAL checkpoints are never held back. A change is noticed cheaply
//! with `PRAGMA data_version` (it moves when another connection commits);
//! only then are the followed sessions' parts written since the last poll
//! read (by the `part_session_idx` index).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use rusqlite::{Connection, OpenFlags, params};
use serde_json::{Map, Value, json};

use super::READ_ONLY_TOOLS;
use crate::source::agent::database::is_for;
use crate::source::agent::database_format::{DatabaseSource, DatabaseTail, DbSession, Pick};

/// How OpenCode's database is read.
pub(in crate::source::agent) static SOURCE: DatabaseSource = DatabaseSource {
    is_database,
    sessions,
    open,
};

/// `opencode.db`, or any `*.db` (`OPENCODE_DB` may name another file).
fn is_database(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "db")
}

/// How long a read waits while OpenCode writes.
const BUSY_TIMEOUT: Duration = Duration::from_secs(2);

fn connect(db: &Path) -> Result<Connection, String> {
    let conn = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| e.to_string())?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(|e| e.to_string())?;
    Ok(conn)
}

fn not_opencode(e: &rusqlite::Error) -> String {
    format!("not an OpenCode database srview can read ({e})")
}

fn time_of(ms: i64) -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::from_millis(u64::try_from(ms).unwrap_or(0))
}

/// One row of the `session` table.
#[derive(Debug, Clone)]
struct SessionRow {
    id: String,
    directory: String,
    version: String,
    created: i64,
    updated: i64,
}

const SESSION_COLUMNS: &str = "id, directory, version, time_created, time_updated";

fn session_row(row: &rusqlite::Row) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        id: row.get(0)?,
        directory: row.get(1)?,
        version: row.get(2)?,
        created: row.get(3)?,
        updated: row.get(4)?,
    })
}

/// Every session, newest (last written) first.
fn session_rows(conn: &Connection) -> Result<Vec<SessionRow>, String> {
    let sql = format!("SELECT {SESSION_COLUMNS} FROM session ORDER BY time_updated DESC, id DESC");
    let mut stmt = conn.prepare(&sql).map_err(|e| not_opencode(&e))?;
    let rows = stmt
        .query_map([], session_row)
        .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
        .map_err(|e| not_opencode(&e))?;
    Ok(rows)
}

fn sessions(db: &Path) -> Result<Vec<DbSession>, String> {
    let conn = connect(db)?;
    Ok(session_rows(&conn)?
        .into_iter()
        .map(|s| DbSession {
            id: s.id,
            directory: PathBuf::from(s.directory),
            updated: time_of(s.updated),
        })
        .collect())
}

fn open(db: &Path, pick: &Pick, follow: bool) -> Result<Box<dyn DatabaseTail>, String> {
    let conn = if db.exists() {
        Some(connect(db)?)
    } else if follow {
        // Followed before OpenCode first wrote it.
        None
    } else {
        return Err("no such file".to_string());
    };
    Ok(Box::new(Tail {
        db: db.to_path_buf(),
        conn,
        pick: pick.clone(),
        follow,
        data_version: None,
        followed: Vec::new(),
        folders: Vec::new(),
        since: None,
        seen: HashMap::new(),
        marks: HashMap::new(),
    }))
}

/// The followed sessions of one database.
struct Tail {
    db: PathBuf,
    conn: Option<Connection>,
    pick: Pick,
    follow: bool,
    /// `PRAGMA data_version` at the last read.
    data_version: Option<i64>,
    /// The sessions read, in the order they were started.
    followed: Vec<String>,
    /// Followed: the folders whose later sessions are read too.
    folders: Vec<PathBuf>,
    /// Followed: sessions created after this (ms) are looked at.
    since: Option<i64>,
    /// Each part read, with the `time_updated` it was read at.
    seen: HashMap<String, i64>,
    /// By session, the newest `time_updated` of its parts read.
    marks: HashMap<String, i64>,
}

impl DatabaseTail for Tail {
    fn poll(&mut self) -> Result<Option<String>, String> {
        if self.conn.is_none() {
            if !self.db.is_file() {
                return Ok(None);
            }
            self.conn = Some(connect(&self.db)?);
        }
        let Some(conn) = &self.conn else {
            return Ok(None);
        };
        let version: i64 = conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(|e| e.to_string())?;
        if self.data_version == Some(version) {
            return Ok(None);
        }
        self.data_version = Some(version);
        let mut out = String::new();
        for session in self.new_sessions()? {
            out.push_str(&session_line(&session));
            self.followed.push(session.id);
        }
        for id in self.followed.clone() {
            self.read_parts(&id, &mut out)?;
        }
        Ok((!out.is_empty()).then_some(out))
    }
}

impl Tail {
    fn conn(&self) -> Result<&Connection, String> {
        self.conn.as_ref().ok_or_else(|| "not open".to_string())
    }

    /// The sessions to read from now on that were not read before.
    fn new_sessions(&mut self) -> Result<Vec<SessionRow>, String> {
        let conn = self.conn()?;
        if self.followed.is_empty() && self.since.is_none() {
            let all = session_rows(conn)?;
            let first = match &self.pick {
                Pick::Session(id) => all
                    .iter()
                    .find(|s| &s.id == id)
                    .or_else(|| {
                        let mut starting = all.iter().filter(|s| s.id.starts_with(id.as_str()));
                        let one = starting.next();
                        one.filter(|_| starting.next().is_none())
                    })
                    .cloned()
                    .ok_or_else(|| format!("no session {id} in it"))?,
                Pick::Folder(here) => {
                    let mine = all.iter().find(|s| is_for(Path::new(&s.directory), here));
                    match mine.or_else(|| all.first()) {
                        Some(s) => {
                            self.folders.push(here.clone());
                            s.clone()
                        }
                        None if self.follow => {
                            // None yet: the first one started here.
                            self.folders.push(here.clone());
                            self.since = Some(0);
                            return Ok(Vec::new());
                        }
                        None => {
                            return Err("it holds no session".to_string());
                        }
                    }
                }
            };
            if self.follow && matches!(self.pick, Pick::Folder(_)) {
                self.folders.push(PathBuf::from(&first.directory));
                self.since = Some(first.created);
            }
            return Ok(vec![first]);
        }
        let Some(since) = self.since.filter(|_| self.follow) else {
            return Ok(Vec::new());
        };
        let sql = format!(
            "SELECT {SESSION_COLUMNS} FROM session WHERE time_created >= ?1 \
             ORDER BY time_created, id"
        );
        let mut stmt = conn.prepare(&sql).map_err(|e| not_opencode(&e))?;
        let later = stmt
            .query_map(params![since], session_row)
            .and_then(Iterator::collect::<rusqlite::Result<Vec<_>>>)
            .map_err(|e| not_opencode(&e))?;
        Ok(later
            .into_iter()
            .filter(|s| !self.followed.contains(&s.id))
            .filter(|s| {
                let dir = Path::new(&s.directory);
                self.folders.iter().any(|f| dir == f || is_for(dir, f))
            })
            .collect())
    }

    /// Appends the lines of session `id`'s tool parts written since the
    /// last read.
    fn read_parts(&mut self, id: &str, out: &mut String) -> Result<(), String> {
        let mark = self.marks.get(id).copied().unwrap_or(i64::MIN);
        let skipped = READ_ONLY_TOOLS
            .iter()
            .map(|t| format!("'{t}'"))
            .collect::<Vec<_>>()
            .join(",");
        let sql = format!(
            "SELECT id, time_updated, data FROM part \
             WHERE session_id = ?1 AND time_updated >= ?2 \
             AND json_extract(data, '$.type') = 'tool' \
             AND coalesce(json_extract(data, '$.tool'), '') NOT IN ({skipped}) \
             ORDER BY time_created, id"
        );
        // Each row made into its line as it is read: the rows are never
        // held all at once beside their lines (a session of 10,000 edits
        // is tens of MB of part JSON).
        let Tail {
            conn, seen, marks, ..
        } = self;
        let conn = conn.as_ref().ok_or_else(|| "not open".to_string())?;
        let mut stmt = conn.prepare(&sql).map_err(|e| not_opencode(&e))?;
        let mut rows = stmt
            .query(params![id, mark])
            .map_err(|e| not_opencode(&e))?;
        while let Some(row) = rows.next().map_err(|e| not_opencode(&e))? {
            let read = |row: &rusqlite::Row| -> rusqlite::Result<(String, i64)> {
                Ok((row.get(0)?, row.get(1)?))
            };
            let (part, updated) = read(row).map_err(|e| not_opencode(&e))?;
            if seen.get(&part) == Some(&updated) {
                continue;
            }
            let data = row
                .get_ref(2)
                .and_then(|v| v.as_str().map_err(Into::into))
                .map_err(|e| not_opencode(&e))?;
            out.push_str(&part_line(id, &part, updated, data));
            seen.insert(part, updated);
            let newest = marks.entry(id.to_string()).or_insert(updated);
            *newest = (*newest).max(updated);
        }
        Ok(())
    }
}

/// The line naming a session: its folder and OpenCode's version.
fn session_line(s: &SessionRow) -> String {
    let line = json!({
        "type": "session",
        "session": {"id": s.id, "directory": s.directory, "version": s.version},
    });
    format!("{line}\n")
}

/// A tool part as the live stream's `tool_use` line, keeping of its state
/// what the reader reads (the tool's output, a file's text for `read`,
/// left out).
fn part_line(session: &str, id: &str, updated: i64, data: &str) -> String {
    let Ok(Value::Object(mut part)) = serde_json::from_str::<Value>(data) else {
        // Not OpenCode's JSON: the reader says so.
        let text = json!({"type": "tool_use", "sessionID": session, "part": data});
        return format!("{text}\n");
    };
    if let Some(Value::Object(state)) = part.get_mut("state") {
        state.remove("output");
        state.remove("raw");
        if let Some(Value::Object(metadata)) = state.get_mut("metadata") {
            let kept: Map<String, Value> = metadata
                .iter()
                .filter(|(k, _)| ["diff", "files", "exists"].contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect();
            *metadata = kept;
        }
    }
    part.insert("id".into(), Value::String(id.to_string()));
    part.insert("sessionID".into(), Value::String(session.to_string()));
    let line = json!({
        "type": "tool_use",
        "timestamp": updated,
        "sessionID": session,
        "part": part,
    });
    format!("{line}\n")
}
