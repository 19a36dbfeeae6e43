//! `srview session PATH [--json]`: every edit of an agent's session with
//! the agent's verdict and srview's, disagreements loudly.

use std::io::Write;

use super::{CmdResult, SessionArgs};
use crate::error::Error;
use crate::report::{SessionJsonStream, render_session_edit};
use crate::sessions::load::{LoadError, load, open_saved};
use crate::sessions::recover::SessionRoot;
use crate::sessions::review::{Counts, Review, SessionReview, review};
use crate::sessions::streamed::survey;

/// How much of a session file the browser reads before its first frame:
/// enough for a screenful of edits (a 100 MB Claude Code session holds
/// about 100 edits a MiB).
const FIRST_PIECE: u64 = 1 << 20;

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
        // A session file is listed from its first piece on, the rest read
        // while the browser runs; a database's session is read whole.
        if let Some(opened) = open_saved(&path, FIRST_PIECE) {
            let opened = opened.map_err(load_error)?;
            return super::preview_agent::run_session_loading(
                path.display().to_string(),
                opened,
                args.cwd.as_deref(),
            );
        }
        let (reader, ws) = load(&path, args.cwd.as_deref()).map_err(load_error)?;
        for problem in reader.errors() {
            eprintln!("srview: {problem}");
        }
        return super::preview_agent::run_session(path.display().to_string(), reader, ws);
    }
    streamed(&path, args)
}

/// `--list` and `--json`: the session surveyed once, then each edit
/// reviewed, printed (the JSON) or noted (the listing's line) and dropped
/// as it is read again (see [`crate::sessions::streamed`]). The listing's
/// header counts every edit: its lines (no file contents) are kept until
/// the end.
/// How many threads besides the main one review edits for `--list` and
/// `--json`: one per core beyond the first (none on one core: the main
/// thread reads the session and reviews).
fn review_workers() -> usize {
    match std::thread::available_parallelism().map_or(1, std::num::NonZero::get) {
        1 => 0,
        cores => cores,
    }
}

fn streamed(path: &std::path::Path, args: &SessionArgs) -> CmdResult {
    let path = &one_of_database(&resolve(path)?)?;
    let surveyed = survey(path, args.cwd.as_deref()).map_err(load_error)?;
    for note in surveyed.reader().mapped_paths() {
        eprintln!("srview: note: {note}");
    }
    for problem in surveyed.errors() {
        eprintln!("srview: {problem}");
    }
    if surveyed.edits() == 0
        && let Some(why) = surveyed.reader().unread()
    {
        // Not a session without edits: one that could not be read.
        return Err(unreadable(path, why));
    }
    let reader = surveyed.reader();
    let (decisions, unread) = crate::gate::record::read_counted(&surveyed.root.root);
    let gate = crate::gate::record::join_session_keys(
        &decisions,
        &surveyed.inputs,
        reader.session_stamp(),
    );
    let reread = |e: crate::source::agent::session::SessionError| Error::refused(e.to_string());
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let workers = review_workers();
    // Each edit as the agent ran it (an edit the gate repaired: srview's
    // replay set aside), with the gate's decision joined to it.
    let as_run = |index: usize, review| {
        let gate = gate.get(index).copied().flatten();
        (crate::gate::record::as_run(review, gate), gate)
    };
    if args.json {
        let mut json = SessionJsonStream::start(&mut stdout, reader.kind(), reader.version())
            .map_err(Error::stdout)?;
        let (mut failed, mut in_doubt) = (None, 0);
        surveyed
            .review_rendered(
                workers,
                |index, review| {
                    let (review, gate) = as_run(index, review);
                    (render_session_edit(&review, gate), review.doubts().len())
                },
                |_, (rendered, doubts)| {
                    in_doubt += usize::from(doubts > 0);
                    rendered
                        .map_err(std::io::Error::from)
                        .and_then(|bytes| json.edit_rendered(&bytes))
                        .map_err(|e| failed = Some(e))
                        .is_ok()
                },
            )
            .map_err(reread)?;
        if let Some(e) = failed {
            return Err(Error::stdout(e));
        }
        json.finish_noting(in_doubt, unread)
            .map_err(Error::stdout)?;
        writeln!(stdout).map_err(Error::stdout)?;
    } else {
        let agent = reader.kind().display_name();
        let mut lines = Listing::new(agent, &surveyed.files);
        let mut warnings = String::new();
        let (agent_ref, file_width) = (lines.agent, lines.file_width);
        surveyed
            .review_rendered(
                workers,
                |index, review| {
                    let (review, gate) = as_run(index, review);
                    let mut counts = Counts::default();
                    counts.add(&review);
                    let line = listing_lines(agent_ref, file_width, &review, gate);
                    (counts, line, warnings_of(&review))
                },
                |_, (counts, line, warned)| {
                    lines.counts.merge(counts);
                    lines.text.push_str(&line);
                    warnings.push_str(&warned);
                    true
                },
            )
            .map_err(reread)?;
        let header = lines.header(
            reader.version(),
            crate::gate::record::summary(
                crate::gate::record::tally(gate.iter().flatten().copied()),
                unread,
            ),
        );
        stdout
            .write_all(header.as_bytes())
            .and_then(|()| stdout.write_all(lines.text.as_bytes()))
            .map_err(Error::stdout)?;
        eprint!("{warnings}");
    }
    stdout.flush().map_err(Error::stdout)?;
    Ok(0)
}

fn load_error(e: LoadError) -> Error {
    match e {
        LoadError::Stdin(source) => Error::read("stdin", source),
        other => Error::refused(other.to_string()),
    }
}

/// A session of which no edit could be read: the reader's first complaint.
fn unreadable(path: &std::path::Path, why: String) -> Error {
    Error::refused(
        crate::source::agent::session::SessionError::Unreadable {
            path: path.to_path_buf(),
            why,
        }
        .to_string(),
    )
}

/// Loads and reviews the session; reading problems go to stderr.
pub(super) fn load_review(
    path: &std::path::Path,
    cwd: Option<&std::path::Path>,
) -> Result<(SessionReview, SessionRoot), Error> {
    let path = &one_of_database(&resolve(path)?)?;
    let (reader, ws) = load(path, cwd).map_err(load_error)?;
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
        return Err(unreadable(path, why));
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
    if let Some(messages) = crate::source::agent::cline_cli_messages_of_manifest(path) {
        return Ok(messages);
    }
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

/// One stderr line per disagreement, per loose match and per notice of
/// `r`'s edit.
fn warnings_of(r: &Review) -> String {
    let mut out = String::new();
    let (seq, file) = (r.edit.seq, &r.edit.file);
    if let Some(d) = &r.disagreement {
        out.push_str(&format!("srview: warning: edit {seq} ({file}): {d}\n"));
    }
    if let Some(l) = &r.loose_match {
        out.push_str(&format!(
            "srview: warning: edit {seq} ({file}): loose match: {l}\n"
        ));
    }
    for notice in &r.notices {
        out.push_str(&format!("srview: warning: edit {seq} ({file}): {notice}\n"));
    }
    for doubt in r.doubts() {
        out.push_str(&format!(
            "srview: warning: edit {seq} ({file}): doubt: {}\n",
            doubt.message
        ));
    }
    out
}

/// The text listing, an edit at a time: a header, then one line per edit
/// ([`listing_lines`]); a disagreement gets a line of its own below its
/// edit, and so does the gate's decision (the header counts those that
/// blocked or repaired).
struct Listing {
    agent: &'static str,
    /// The file column's width: the longest file name, at most 40.
    file_width: usize,
    counts: Counts,
    text: String,
}

impl Listing {
    /// For the edits of `files` (each edit's file, in order).
    fn new(agent: &'static str, files: &[String]) -> Listing {
        Listing {
            agent,
            file_width: files
                .iter()
                .map(|f| f.chars().count())
                .max()
                .unwrap_or(0)
                .min(40),
            counts: Counts::default(),
            text: String::new(),
        }
    }

    /// The header: the agent, its version, the counts, and the gate's
    /// `tally` when it blocked or repaired an edit.
    fn header(&self, version: Option<&str>, tally: Option<String>) -> String {
        let c = &self.counts;
        let mut out = format!(
            "{} {}: {} edit{}, {} failed, {} loose, {} disagreement{}",
            self.agent,
            version.unwrap_or("(version not named)"),
            c.edits,
            plural(c.edits),
            c.failed,
            c.loose,
            c.disagreements,
            plural(c.disagreements),
        );
        if c.unknown > 0 {
            // "..., 0 disagreements, 1 unknown": edits srview could not run
            // (the content before unknown), neither failed nor loose.
            out.push_str(&format!(", {} unknown", c.unknown));
        }
        if c.doubted > 0 {
            // "..., 0 disagreements, 1 in doubt": applied edits srview's
            // trust checks cannot stand behind.
            out.push_str(&format!(", {} in doubt", c.doubted));
        }
        if let Some(tally) = tally {
            // "..., 0 disagreements; gate: 3 blocked, 2 repaired".
            out.push_str(&format!("; {tally}"));
        }
        out.push('\n');
        out
    }
}

/// The listing's lines of the edit reviewed `r` (with the gate's decision
/// about it): its line, then a line for its disagreement, loose match,
/// each notice and the gate's decision. `file_width`: the file column's.
fn listing_lines(
    agent: &str,
    file_width: usize,
    r: &Review,
    gate: Option<&crate::gate::record::GateDecision>,
) -> String {
    let mut out = String::new();
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
    if !r.doubts().is_empty() {
        marks.push("DOUBT");
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
    out.push_str(&review_notes(r, "      "));
    for doubt in r.doubts() {
        out.push_str(&format!("      doubt: {}\n", doubt.message));
    }
    if let Some(decision) = gate {
        out.push_str(&format!(
            "      gate: {}\n",
            crate::gate::record::words(decision)
        ));
        if let Some(c) = crate::gate::record::contradiction(decision, e.agent_verdict, agent) {
            out.push_str(&format!("      !!! {c}\n"));
        }
    }
    out
}

/// The lines for what the review `r` says beyond its verdict, each at
/// `indent`: its disagreement (`!!!`), its loose match, each notice (the
/// listing's and `check-session`'s).
pub(super) fn review_notes(r: &Review, indent: &str) -> String {
    let mut out = String::new();
    if let Some(d) = &r.disagreement {
        out.push_str(&format!("{indent}!!! {d}\n"));
    }
    if let Some(l) = &r.loose_match {
        out.push_str(&format!("{indent}loose match: {l}\n"));
    }
    for notice in &r.notices {
        out.push_str(&format!("{indent}{notice}\n"));
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
