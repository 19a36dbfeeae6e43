//! `srview sessions [FOLDER] [--agent A] [--since DATE]`: the agent
//! sessions found at their usual places, newest first, with counts of
//! edits, failed and loose ones.

use std::io::Write;
use std::path::PathBuf;

use super::{CmdResult, SessionsArgs};
use crate::error::Error;
use crate::sessions::count::count;
use crate::sessions::find::{Found, find, repository_of};
use crate::source::time::{format_time, parse_date};

pub fn run(args: &SessionsArgs) -> CmdResult {
    let home = match &args.folder {
        Some(f) => f.clone(),
        None => std::env::var_os("HOME")
            .map(PathBuf::from)
            .ok_or_else(|| Error::usage("HOME is not set: name the folder to search"))?,
    };
    if !home.is_dir() {
        return Err(Error::usage(format!(
            "{} is not a folder: name the home folder to search",
            home.display()
        )));
    }
    let since = match &args.since {
        Some(text) => Some(parse_date(text).ok_or_else(|| {
            Error::usage(format!("--since {text}: expected a date as YYYY-MM-DD"))
        })?),
        None => None,
    };
    let here = std::env::current_dir().ok();
    let repo = here.as_deref().map(repository_of);
    let mut elsewhere = 0;
    let found: Vec<Found> = find(&home, repo.as_deref())
        .into_iter()
        .filter(|f| args.agent.is_none_or(|a| a.name() == f.agent.name()))
        .filter(|f| since.is_none_or(|t| f.modified >= t))
        // A database holds every folder's sessions (OpenCode's): only
        // this folder's are listed.
        .filter(|f| {
            let mine = match (&f.workspace, &here) {
                (Some(w), Some(here)) => crate::source::agent::database::is_for(w, here),
                _ => true,
            };
            elsewhere += usize::from(!mine);
            mine
        })
        .collect();
    // Each session read in one pass, in pieces: never held whole. All are
    // counted before the first is printed, so the workspace column lines up.
    let rows: Vec<(String, String, String)> = found
        .iter()
        .map(|f| {
            let when = format_time(f.modified);
            let mut session = f.path.display().to_string();
            match count(&f.path) {
                Ok(listed) => {
                    let c = listed.counts;
                    let counts = format!(
                        "{when}  {:<13} {:<9} {:>5} {:>6} {:>5} {:>7}",
                        f.agent.name(),
                        listed.version.as_deref().unwrap_or("-"),
                        c.edits,
                        c.failed,
                        c.loose,
                        c.unknown,
                    );
                    let workspace = listed.workspace.unwrap_or_else(|| "-".to_string());
                    // The gate's decisions, after the path: rows without
                    // any keep their shape.
                    if let Some(gate) = listed.gate {
                        session.push_str(&format!("  ({gate})"));
                    }
                    (counts, workspace, session)
                }
                Err(e) => (
                    format!("{when}  {:<13} unreadable: {e}", f.agent.name()),
                    "-".to_string(),
                    session,
                ),
            }
        })
        .collect();
    let width = rows
        .iter()
        .map(|(_, w, _)| w.chars().count())
        .max()
        .unwrap_or(0)
        .max("workspace".len());
    let mut stdout = std::io::stdout().lock();
    if found.is_empty() {
        let only = match (args.agent, &args.since) {
            (Some(agent), Some(since)) => format!(" of {} since {since}", agent.name()),
            (Some(agent), None) => format!(" of {}", agent.name()),
            (None, Some(since)) => format!(" since {since}"),
            (None, None) => String::new(),
        };
        eprintln!("srview: no sessions{only} found under {}", home.display());
    } else {
        stdout
            .write_all(
                format!(
                    "{:<16}  {:<13} {:<9} {:>5} {:>6} {:>5} {:>7}  {:<width$}  session\n",
                    "modified (UTC)",
                    "agent",
                    "version",
                    "edits",
                    "failed",
                    "loose",
                    "unknown",
                    "workspace"
                )
                .as_bytes(),
            )
            .map_err(Error::stdout)?;
    }
    for (counts, workspace, session) in &rows {
        let line = format!("{counts}  {workspace:<width$}  {session}\n");
        stdout.write_all(line.as_bytes()).map_err(Error::stdout)?;
    }
    if elsewhere > 0 {
        eprintln!(
            "srview: {elsewhere} session{} of other folders in an agent's database not listed \
             (`srview session ID` opens one)",
            if elsewhere == 1 { "" } else { "s" }
        );
    }
    stdout.flush().map_err(Error::stdout)?;
    Ok(0)
}
