//! `srview apply --transcript PATCH` on an apply_patch text: the reference's
//! contract, all or nothing. With `--write`, a patch the reference applies
//! leaves the folder as the reference would, with its summary on stdout; a
//! patch it rejects writes nothing, exits 1 and prints its error text.
//! Without `--write` nothing is written; `--json` prints the report (with
//! `--write`, what it wrote). Every loosely matched hunk gets a warning line
//! on stderr, whatever the output.

use std::io::Write;

use super::commit::Commit;
use super::{ApplyArgs, CmdResult};
use crate::error::Error;
use crate::output::Wrote;
use crate::report::WriteState;
use crate::source::patch;
use crate::source::transcript::PathRules;

pub fn run(args: &ApplyArgs, text: &str, workspace: &PathRules) -> CmdResult {
    let run = patch::run(text, workspace).map_err(|e| Error::refused(e.to_string()))?;
    let outcome = &run.outcome;
    for warning in patch::loose_warnings(outcome) {
        eprintln!("{warning}");
    }
    if !args.json {
        eprint!("{}", outcome.stderr);
    }
    // The reference's contract: a patch that applies is written whole, with
    // or without `--json` (whose report then says so).
    let mut doubts = Vec::new();
    if outcome.exit_code == 0 {
        // The loose hunks are said above; held back for, not said again.
        if args.write && !args.force {
            doubts = patch::loose_holds(outcome);
        }
        doubts.extend(patch::write_doubts(&run, workspace));
        doubts.extend(patch::doubts(text, &run));
    }
    let doubts = super::commit::weigh(
        args.write,
        args.force,
        doubts,
        &patch::targets(workspace, &run),
    );
    let commit = args.write.then(|| {
        if outcome.exit_code != 0 {
            return Commit::not_applied();
        }
        if let Err(e) = patch::preflight(workspace, &run) {
            return Commit::failed(Error::Write(e.message));
        }
        Commit::run("nothing written", doubts, || {
            let changed = patch::write(workspace, &run).map_err(|e| Error::Write(e.message))?;
            Ok(Wrote::of_batch(&changed))
        })
    });
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json {
        let report = crate::report::WithWrite {
            report: crate::report::PatchTranscriptReport::new(outcome),
            write: commit.as_ref().map(|c| &c.json),
        };
        serde_json::to_writer(&mut stdout, &report).map_err(|e| io_err(e.into()))?;
        writeln!(stdout).map_err(io_err)?;
    } else if commit.as_ref().is_none_or(|c| {
        // The reference's summary says what it wrote: not printed over a
        // write held back or failed.
        matches!(c.json.state, WriteState::Written | WriteState::Unchanged)
    }) {
        write!(stdout, "{}", outcome.stdout).map_err(io_err)?;
    }
    stdout.flush().map_err(io_err)?;
    match commit {
        Some(commit) => commit.status(),
        None => Ok(if outcome.exit_code == 0 { 0 } else { 1 }),
    }
}
