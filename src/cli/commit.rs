//! `--write` for the apply commands: a result srview cannot stand behind is
//! held back, any other written; what happened is said on stderr and kept
//! for the JSON's `write` object.

use super::CmdResult;
use crate::error::Error;
use crate::output::Wrote;
use crate::report::{WriteJson, WriteState};

/// Weighs what srview cannot stand behind in a result: returns what
/// `--write` holds it back for; any doubt nothing holds back (no `--write`,
/// or `--force` writing anyway) is warned about on stderr instead, as loose
/// matches are, whatever the output. `files`: the files the write would
/// replace; with `--write`, one with other names (hard links) is a doubt
/// too ([`crate::output::hard_link_doubt`]).
pub(super) fn weigh<P: AsRef<std::path::Path>>(
    write: bool,
    force: bool,
    mut doubts: Vec<String>,
    files: &[P],
) -> Vec<String> {
    if write {
        doubts.extend(
            files
                .iter()
                .filter_map(|f| crate::output::hard_link_doubt(f.as_ref())),
        );
    }
    if write && !force {
        return doubts;
    }
    for why in &doubts {
        eprintln!("srview: warning: {why}");
    }
    Vec::new()
}

/// What `--write` did, and the error the command ends with when writing
/// failed.
pub(super) struct Commit {
    pub json: WriteJson,
    error: Option<Error>,
}

impl Commit {
    /// The edit does not apply: nothing is written.
    pub fn not_applied() -> Self {
        Commit {
            json: WriteJson::new(WriteState::NotApplied),
            error: None,
        }
    }

    /// The write cannot happen (checked before any doubt is weighed: a
    /// read-only file, a file changed on disk): nothing is written, and the
    /// command ends with `error`.
    pub fn failed(error: Error) -> Self {
        Commit {
            json: WriteJson {
                reasons: vec![error.to_string()],
                state: WriteState::Failed,
            },
            error: Some(error),
        }
    }

    /// Holds the result back when `doubts` is not empty, each said on
    /// stderr as `srview: {held}: {why} (--force writes it)`; otherwise
    /// runs `write`.
    pub fn run(
        held: &str,
        doubts: Vec<String>,
        write: impl FnOnce() -> Result<Wrote, Error>,
    ) -> Self {
        Self::run_checked(held, doubts, || Ok(()), write)
    }

    /// [`Commit::run`] for one file: a write that could not happen (`file`
    /// read-only) is said as such, not as a doubt held back.
    pub fn run_on(
        file: &std::path::Path,
        doubts: Vec<String>,
        write: impl FnOnce() -> Result<Wrote, Error>,
    ) -> Self {
        let held = format!("{} was not written", file.display());
        Self::run_checked(
            &held,
            doubts,
            || crate::output::preflight(file).map_err(Error::from),
            write,
        )
    }

    fn run_checked(
        held: &str,
        doubts: Vec<String>,
        check: impl FnOnce() -> Result<(), Error>,
        write: impl FnOnce() -> Result<Wrote, Error>,
    ) -> Self {
        use crate::diagnose::accept::{Case, Decision, Input, Why, accept};
        // A result that applies (one that does not is `not_applied`),
        // whatever it does to the file: the one decision holds it back
        // for its doubts, once the file is known writable.
        let on_disk = if doubts.is_empty() { Ok(()) } else { check() };
        let decision = accept(Case {
            input: Input::Whole,
            result: Ok(None),
            before: None,
            deletes: true,
            on_disk,
            doubts,
            answered: false,
        });
        match decision {
            Decision::Write => {}
            Decision::Refuse(Why::NotAsLoaded(e)) => return Self::failed(e),
            Decision::Refuse(_) => return Self::not_applied(),
            Decision::Ask(doubts) => {
                for why in &doubts {
                    eprintln!("srview: {held}: {why} (--force writes it)");
                }
                return Commit {
                    json: WriteJson {
                        reasons: doubts,
                        state: WriteState::HeldBack,
                    },
                    error: None,
                };
            }
        }
        match write() {
            Ok(Wrote::Replaced) => Commit {
                json: WriteJson::new(WriteState::Written),
                error: None,
            },
            Ok(Wrote::AlreadyHeld) => Commit {
                json: WriteJson::new(WriteState::Unchanged),
                error: None,
            },
            Err(e) => Commit {
                json: WriteJson {
                    reasons: vec![e.to_string()],
                    state: WriteState::Failed,
                },
                error: Some(e),
            },
        }
    }

    /// The command's end: exit 0 once written (or already holding the
    /// result), 1 held back or not applied, the write's error when it failed.
    pub fn status(self) -> CmdResult {
        match (self.error, self.json.state) {
            (Some(e), _) => Err(e),
            (None, WriteState::Written | WriteState::Unchanged) => Ok(0),
            (None, _) => Ok(1),
        }
    }
}
