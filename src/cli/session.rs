//! `srview session PATH [--json]`: every edit of an agent's session with
//! the agent's verdict and srview's, disagreements loudly.

use std::io::Write;

use super::{CmdResult, SessionArgs};
use crate::error::Error;
use crate::report::SessionJson;
use crate::sessions::load::{LoadError, load};
use crate::sessions::recover::SessionRoot;
use crate::sessions::review::{Review, SessionReview, review};

pub fn run(args: &SessionArgs) -> CmdResult {
    use std::io::IsTerminal;
    let path = match &args.path {
        Some(path) => path.clone(),
        None => {
            let newest = newest_here()?;
            // Which session was taken is said: there may be several.
            eprintln!(
                "srview: the newest session of this folder: {}",
                newest.display()
            );
            newest
        }
    };
    if !args.json && !args.list && std::io::stdout().is_terminal() {
        super::preview_agent::check_cwd(args.cwd.as_deref())?;
        if path == std::path::Path::new("-") {
            return Err(Error::usage(
                "the session browser reads a saved session: use `srview -` to follow a live \
                 stream, or --list / --json",
            ));
        }
        let path = one_of_database(&resolve(&path)?)?;
        let (reader, ws) = load(&path, args.cwd.as_deref()).map_err(|e| match e {
            LoadError::Stdin(source) => Error::read("stdin", source),
            other => Error::refused(other.to_string()),
        })?;
        for problem in reader.errors() {
            eprintln!("srview: {problem}");
        }
        return super::preview_agent::run_session(path.display().to_string(), reader, ws);
    }
    let (reviewed, ws) = load_review(&path, args.cwd.as_deref())?;
    let decisions = crate::gate::record::read(&ws.root);
    let edits: Vec<_> = reviewed.reviews.iter().map(|r| &r.edit).collect();
    let gate = crate::gate::record::join(&decisions, &edits);
    let mut stdout = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer(&mut stdout, &SessionJson::new(&reviewed).with_gate(&gate))
            .map_err(|e| Error::stdout(e.into()))?;
        writeln!(stdout).map_err(Error::stdout)?;
    } else {
        stdout
            .write_all(listing(&reviewed, &gate).as_bytes())
            .map_err(Error::stdout)?;
        warn_disagreements(&reviewed);
    }
    stdout.flush().map_err(Error::stdout)?;
    Ok(0)
}

/// Loads and reviews the session; reading problems go to stderr.
pub(super) fn load_review(
    path: &std::path::Path,
    cwd: Option<&std::path::Path>,
) -> Result<(SessionReview, SessionRoot), Error> {
    let path = &one_of_database(&resolve(path)?)?;
    let (reader, ws) = load(path, cwd).map_err(|e| match e {
        LoadError::Stdin(source) => Error::read("stdin", source),
        other => Error::refused(other.to_string()),
    })?;
    let reviewed = review(&reader, &ws);
    for note in reader.mapped_paths() {
        eprintln!("srview: note: {note}");
    }
    for problem in &reviewed.errors {
        eprintln!("srview: {problem}");
    }
    if reviewed.reviews.is_empty()
        && let Some(why) = reader.unread()
    {
        // Not a session without edits: one that could not be read.
        return Err(Error::refused(
            crate::source::agent::session::SessionError::Unreadable {
                path: path.clone(),
                why,
            }
            .to_string(),
        ));
    }
    Ok((reviewed, ws))
}

/// A database holding many sessions (OpenCode's `opencode.db`) named
/// without one: the session read, said on stderr (the newest of this
/// folder, else the newest of all). Any other path as it is.
fn one_of_database(path: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    let here = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    match crate::source::agent::database::one_session(path, &here) {
        None => Ok(path.to_path_buf()),
        Some(Ok((session, mine))) => {
            if mine {
                eprintln!(
                    "srview: {}: the newest session of this folder: {}",
                    path.display(),
                    session.display()
                );
            } else {
                eprintln!(
                    "srview: {} holds no session of this folder: the newest of all: {}",
                    path.display(),
                    session.display()
                );
            }
            Ok(session)
        }
        Some(Err(why)) => Err(Error::refused(format!(
            "cannot read {}: {why}",
            path.display()
        ))),
    }
}

/// PATH as given when it exists (or is `-`), else the session under $HOME
/// (or in the current repository) whose id starts with it.
pub(super) fn resolve(path: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    use crate::sessions::find::{by_id, find, repository_of};
    // A session in a database (`X.db/ID`, OpenCode's) is no file.
    if path == std::path::Path::new("-")
        || path.exists()
        || crate::source::agent::database::locate(path).is_some()
    {
        return Ok(path.to_path_buf());
    }
    let id = path.to_string_lossy();
    let not_found = || Error::refused(format!("{id}: no such file, and no session with that id"));
    let Some(home) = std::env::var_os("HOME") else {
        return Err(not_found());
    };
    if id.is_empty() || id.contains('/') {
        return Err(not_found());
    }
    let repo = std::env::current_dir().ok().map(|d| repository_of(&d));
    let found = find(std::path::Path::new(&home), repo.as_deref());
    match by_id(&found, &id) {
        Ok(Some(f)) => Ok(f.path.clone()),
        Ok(None) => Err(not_found()),
        Err(many) => Err(Error::refused(format!(
            "{id} names {} sessions: {}",
            many.len(),
            many.iter()
                .map(|f| f.path.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// The current folder, its repository, and the home folder sessions are
/// found under (none without `HOME`).
struct Here {
    folder: std::path::PathBuf,
    repo: std::path::PathBuf,
    home: Option<std::path::PathBuf>,
}

impl Here {
    fn now() -> Result<Here, Error> {
        let folder =
            std::env::current_dir().map_err(|e| Error::io("cannot read the current folder", e))?;
        Ok(Here {
            repo: crate::sessions::find::repository_of(&folder),
            folder,
            home: std::env::var_os("HOME").map(std::path::PathBuf::from),
        })
    }

    /// The sessions found under the home folder (and this repository's
    /// Aider history), newest first.
    fn found(&self) -> Vec<crate::sessions::find::Found> {
        self.home
            .as_deref()
            .map(|home| crate::sessions::find::find(home, Some(&self.repo)))
            .unwrap_or_default()
    }

    /// The newest of `found` an agent ran here (see
    /// [`newest_for`](crate::sessions::find::newest_for)).
    fn newest(&self, found: &[crate::sessions::find::Found]) -> Option<std::path::PathBuf> {
        crate::sessions::find::newest_for(found, &self.folder).map(|f| f.path.clone())
    }
}

/// The newest session an agent ran in this folder's repository: what
/// `srview --follow` and `srview session` take without a path.
pub(super) fn newest_here() -> Result<std::path::PathBuf, Error> {
    newest_of(&Here::now()?)
}

fn newest_of(here: &Here) -> Result<std::path::PathBuf, Error> {
    let found = here.found();
    if let Some(newest) = here.newest(&found) {
        return Ok(newest);
    }
    let elsewhere = match found.len() {
        0 => "none was found at all".to_string(),
        1 => "1 was found, for another folder (`srview sessions` lists it)".to_string(),
        n => format!("{n} were found, for other folders (`srview sessions` lists them)"),
    };
    Err(Error::refused(format!(
        "no agent session recorded for {} yet; {elsewhere}. Start the agent there, \
         or name the session file or id",
        here.repo.display()
    )))
}

/// [`newest_here`]; on a terminal, when there is none yet, the first
/// session an agent starts in this folder's repository from now on (srview
/// waits for it, saying so; Ctrl-C stops).
pub(super) fn newest_here_or_next() -> Result<std::path::PathBuf, Error> {
    use std::io::IsTerminal;
    let here = Here::now()?;
    let none_yet = match newest_of(&here) {
        Ok(path) => return Ok(path),
        Err(e) => e,
    };
    let waits =
        here.home.is_some() && std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    if !waits {
        return Err(none_yet);
    }
    let since = std::time::SystemTime::now();
    eprintln!(
        "srview: no agent session recorded for {} yet: waiting for one to start there \
         (Ctrl-C stops)",
        here.repo.display()
    );
    loop {
        std::thread::sleep(std::time::Duration::from_millis(500));
        // Only sessions written since: the older ones were looked into.
        let mut found = here.found();
        found.retain(|f| f.modified >= since);
        if let Some(next) = here.newest(&found) {
            return Ok(next);
        }
    }
}

/// One stderr line per disagreement and per loose match.
fn warn_disagreements(reviewed: &SessionReview) {
    for r in &reviewed.reviews {
        if let Some(d) = &r.disagreement {
            eprintln!(
                "srview: warning: edit {} ({}): {d}",
                r.edit.seq, r.edit.file
            );
        }
        if let Some(l) = &r.loose_match {
            eprintln!(
                "srview: warning: edit {} ({}): loose match: {l}",
                r.edit.seq, r.edit.file
            );
        }
        for notice in &r.notices {
            eprintln!(
                "srview: warning: edit {} ({}): {notice}",
                r.edit.seq, r.edit.file
            );
        }
    }
}

/// The text listing: a header, then one line per edit; a disagreement gets
/// a line of its own below its edit, and so does the gate's decision
/// (`gate` holds one per edit, see [`crate::gate::record::join`]; the
/// header counts those that blocked or repaired).
pub fn listing(
    reviewed: &SessionReview,
    gate: &[Option<&crate::gate::record::GateDecision>],
) -> String {
    let c = reviewed.counts();
    let agent = reviewed.agent.display_name();
    let mut out = format!(
        "{agent} {}: {} edit{}, {} failed, {} loose, {} disagreement{}\n",
        reviewed.version.as_deref().unwrap_or("(version not named)"),
        c.edits,
        plural(c.edits),
        c.failed,
        c.loose,
        c.disagreements,
        plural(c.disagreements),
    );
    if let Some(tally) = crate::gate::record::tally(gate.iter().flatten().copied()) {
        // Before the header's newline: "..., 0 disagreements; gate: 3 blocked, 2 repaired".
        out.pop();
        out.push_str(&format!("; {tally}\n"));
    }
    let file_width = reviewed
        .reviews
        .iter()
        .map(|r| r.edit.file.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for (index, r) in reviewed.reviews.iter().enumerate() {
        let e = &r.edit;
        let mut marks = Vec::new();
        if r.is_failed() {
            marks.push("FAILED");
        }
        if r.is_loose() {
            marks.push("LOOSE");
        }
        if r.disagreement.is_some() {
            marks.push("DISAGREE");
        }
        out.push_str(&format!(
            "{:>4}  {:<file_width$}  {:<15}  {agent}: {:<8}  srview: {}{}\n",
            e.seq,
            e.file,
            e.tool.name(),
            e.agent_verdict.name(),
            srview_word(r),
            if marks.is_empty() {
                String::new()
            } else {
                format!("  [{}]", marks.join(" "))
            },
        ));
        if let Some(d) = &r.disagreement {
            out.push_str(&format!("      !!! {d}\n"));
        }
        if let Some(l) = &r.loose_match {
            out.push_str(&format!("      loose match: {l}\n"));
        }
        for notice in &r.notices {
            out.push_str(&format!("      {notice}\n"));
        }
        if let Some(Some(decision)) = gate.get(index) {
            out.push_str(&format!(
                "      gate: {}\n",
                crate::gate::record::words(decision)
            ));
        }
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// srview's verdict in a few words (see [`Review::verdict_words`]).
fn srview_word(r: &Review) -> String {
    match r.applied() {
        Some(_) => r.verdict_words(true),
        None => format!("unknown ({})", r.why().unwrap_or("not run")),
    }
}
