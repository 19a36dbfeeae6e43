//! `srview sessions [FOLDER] [--agent A] [--since DATE]`: the agent
//! sessions found at their usual places, newest first, with counts of
//! edits, failed and loose ones.

use std::io::Write;
use std::path::PathBuf;

use super::{CmdResult, SessionsArgs};
use crate::error::Error;
use crate::sessions::count::count;
use crate::sessions::find::{Found, find, format_time, parse_date, repository_of};

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
    let repo = std::env::current_dir().ok().map(|d| repository_of(&d));
    let found: Vec<Found> = find(&home, repo.as_deref())
        .into_iter()
        .filter(|f| args.agent.is_none_or(|a| a.name() == f.agent.name()))
        .filter(|f| since.is_none_or(|t| f.modified >= t))
        .collect();
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
                    "{:<16}  {:<13} {:<9} {:>5} {:>6} {:>5} {:>7}  session\n",
                    "modified (UTC)", "agent", "version", "edits", "failed", "loose", "unknown"
                )
                .as_bytes(),
            )
            .map_err(Error::stdout)?;
    }
    for f in &found {
        // Each session read in one pass, in pieces: never held whole.
        let line = match count(&f.path) {
            Ok(listed) => {
                let c = listed.counts;
                format!(
                    "{}  {:<13} {:<9} {:>5} {:>6} {:>5} {:>7}  {}\n",
                    format_time(f.modified),
                    f.agent.name(),
                    listed.version.as_deref().unwrap_or("-"),
                    c.edits,
                    c.failed,
                    c.loose,
                    c.unknown,
                    f.path.display()
                )
            }
            Err(e) => format!(
                "{}  {:<13} unreadable: {e}  {}\n",
                format_time(f.modified),
                f.agent.name(),
                f.path.display()
            ),
        };
        stdout.write_all(line.as_bytes()).map_err(Error::stdout)?;
    }
    stdout.flush().map_err(Error::stdout)?;
    Ok(0)
}
