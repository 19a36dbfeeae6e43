//! `srview apply FILE DIFF` when DIFF is an apply_patch or an edit's JSON:
//! the same outputs as for SEARCH/REPLACE blocks (the new content on
//! stdout, `--write`, `--json`, exit 1 with the reference's error), and a
//! warning line per loosely matched hunk.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::commit::Commit;
use super::{ApplyArgs, CmdResult};
use crate::dialect::Dialect;
use crate::dialect::apply_patch::PatchOutcome;
use crate::dialect::edit::{self, EditOutcome};
pub(super) use crate::dialect::one_file::names_file;
use crate::dialect::one_file::{self, Place, Rerun};
use crate::engine::{Applied, ApplyError, Outcome};
use crate::error::Error;
use crate::output;

/// FILE's [`Place`].
pub(super) fn place(file: &Path) -> Result<Place, Error> {
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::usage(format!("{} names no file", file.display())))?;
    let parent = match file.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(p) => p.to_path_buf(),
        None => PathBuf::from("."),
    };
    let dir = parent
        .canonicalize()
        .map_err(|e| Error::read(parent.display(), e))?;
    Ok(Place {
        cwd: dir.to_string_lossy().into_owned(),
        name,
    })
}

/// FILE's text, `None` when it does not exist (allowed with `--new-file`).
pub(super) fn load(file: &Path, new_file: bool) -> Result<Option<String>, Error> {
    crate::input::read_file_arg(file, new_file)
}

/// The patch's edit of FILE, every loose hunk warned about on stderr.
pub(super) fn run_patch(
    file: &Path,
    content: Option<&str>,
    diff: &str,
    rerun: &Rerun,
) -> Result<PatchOutcome, Error> {
    let place = place(file)?;
    let target = place.target(content);
    let outcome =
        one_file::apply_patch_to(diff, &target).map_err(|e| refused(&e, &place, rerun))?;
    let elsewhere = one_file::elsewhere(diff, &place.name);
    // A move onto the file itself is no place the file goes: the agent
    // loses it, a doubt of its own (see `patch_doubts`).
    let moved = elsewhere
        .moved
        .filter(|_| !one_file::moves_onto_itself(diff, &target));
    if let Some((from, to)) = moved {
        let how = moving_command(&place, &from, &to, rerun)
            .unwrap_or_else(|| format!("{} moves it", rerun.whole_patch(None, true, false)));
        eprintln!(
            "srview: note: the patch moves {from} to {to}; {} is edited in place ({how})",
            file.display()
        );
    }
    refuse_another_patch(file, &place, diff, rerun)?;
    for warning in crate::source::patch::loose_warnings(&outcome) {
        eprintln!("{warning}");
    }
    Ok(outcome)
}

/// `` `srview apply --transcript DIFF --cwd ROOT --write` moves it``: the
/// patch run over the folder its paths are relative to (ROOT: FILE's
/// folder above as many folders as `from`, the section's path, names;
/// left out when it is the current folder), runnable as printed (tester
/// finding 50/T-11); `None` when that folder is not known (`from`
/// absolute, climbing with `..`, or its folders not ending FILE's).
/// Where the move's target `to` exists there, the command has `--force`
/// and says it replaces that file (session 51: "moves it" was said of a
/// command that then refused, the target existing).
fn moving_command(place: &Place, from: &str, to: &str, rerun: &Rerun) -> Option<String> {
    let from = Path::new(from);
    let folders = from.parent().unwrap_or(Path::new(""));
    let plain = folders
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    let here = Path::new(&place.cwd);
    if from.is_absolute() || !plain || !here.ends_with(folders) {
        return None;
    }
    let root = here.ancestors().nth(folders.components().count())?;
    let current = std::env::current_dir().ok()?.canonicalize().ok()?;
    let cwd = if root == current {
        String::new()
    } else {
        format!(
            " --cwd {}",
            crate::words::shell_quote(&root.display().to_string())
        )
    };
    let replaced = Path::new(to).is_relative() && root.join(to).is_file();
    let (force, replacing) = if replaced {
        (
            " --force",
            format!(", replacing {to}, which exists (its content is lost)"),
        )
    } else {
        ("", String::new())
    };
    Some(format!(
        "`srview apply --transcript {}{cwd} --write{force}` moves it{replacing}{}",
        rerun.input_word(),
        rerun.stdin_note()
    ))
}

/// `error` as a usage error of the command the user ran (`rerun`) on FILE
/// (at `place`): its `srview apply --transcript` command runnable as
/// printed ([`one_file::OneFileError::said`]).
pub(super) fn refused(error: &one_file::OneFileError, place: &Place, rerun: &Rerun) -> Error {
    Error::usage(error.said(rerun, &place.cwd))
}

/// The refusal of `diff` (of `dialect`: a patch, an edit's JSON) when it
/// edits another file than FILE: `apply`, `check` and `fix` FILE refuse it
/// alike (tester finding 36/06), saying `rerun` for the file it names.
pub(super) fn refuse_another_file(
    file: &Path,
    diff: &str,
    dialect: Dialect,
    rerun: &Rerun,
) -> Result<(), Error> {
    match dialect {
        Dialect::ApplyPatch => refuse_another_patch(file, &place(file)?, diff, rerun),
        Dialect::EditJson | Dialect::SearchReplace => {
            let parsed = one_file::parse_edit(diff).map_err(|e| Error::usage(e.to_string()))?;
            refuse_another_edit(&parsed, file, rerun)
        }
    }
}

/// The refusal of a patch whose section names another file than FILE.
fn refuse_another_patch(
    file: &Path,
    place: &Place,
    diff: &str,
    rerun: &Rerun,
) -> Result<(), Error> {
    let other = one_file::elsewhere(diff, &place.name)
        .named
        .filter(|other| !names_file(other, file));
    match other {
        Some(other) => Err(edits_another_file(&other, file, rerun)),
        None => Ok(()),
    }
}

/// The refusal of an edit's JSON naming another file than FILE.
fn refuse_another_edit(edit: &edit::Edit, file: &Path, rerun: &Rerun) -> Result<(), Error> {
    let named = edit.path();
    if names_file(named, file) {
        return Ok(());
    }
    Err(edits_another_file(named, file, rerun))
}

/// The refusal of an input that edits `other`, not FILE: applying it to
/// FILE would put an edit meant for another file there (`rerun`: the
/// command the user ran, said for `other`).
pub(super) fn edits_another_file(other: &str, file: &Path, rerun: &Rerun) -> Error {
    Error::NoApply(one_file::edits_another_file(other, file, &rerun.how(other)))
}

/// Why srview cannot stand behind writing the patch's result for FILE
/// (see [`patch_doubts`](crate::dialect::apply_patch::patch_doubts)): one
/// sentence each.
pub(super) fn patch_doubts(
    file: &Path,
    content: Option<&str>,
    diff: &str,
) -> Result<Vec<String>, Error> {
    let place = place(file)?;
    let target = place.target(content);
    let usage = |e: one_file::OneFileError| Error::usage(e.to_string());
    // The trust checks, then what a loose hunk's result does to the file:
    // said with `--force` too.
    let doubts = one_file::doubts_with_loose_for(diff, &target).map_err(usage)?;
    let mut out: Vec<String> = doubts
        .map_or_else(Vec::new, |(_, doubts)| doubts)
        .into_iter()
        .map(|d| d.message)
        .collect();
    out.extend(
        one_file::elsewhere(diff, &place.name)
            .named
            .filter(|other| !names_file(other, file))
            .map(|other| another_file_doubt(&other, file)),
    );
    Ok(out)
}

/// The doubt of an input naming `other` whose edit was applied to FILE
/// (a stream's: `apply FILE` refuses it outright).
fn another_file_doubt(other: &str, file: &Path) -> String {
    format!(
        "the input edits {other}, not {}: its edit was meant for another file",
        file.display()
    )
}

/// Why srview cannot stand behind `outcome`'s result on `original`
/// ([`edit_doubts`](crate::dialect::edit::edit_doubts)), naming the
/// agent's tool (`Claude Code's Edit`), never "the reference" (a tester's
/// find, 43b-09).
pub(super) fn doubts_said(outcome: &EditOutcome, original: &str) -> Vec<String> {
    let own = outcome.tool.matcher_title();
    crate::dialect::edit::edit_doubts(outcome, original)
        .into_iter()
        .map(|doubt| crate::words::own_words(&own, &doubt))
        .collect()
}

/// Why srview cannot stand behind the edit JSON `diff`'s result for FILE
/// (see [`edit_doubts`](crate::dialect::edit::edit_doubts)).
pub(super) fn edit_doubts(
    file: &Path,
    content: Option<&str>,
    diff: &str,
) -> Result<Vec<String>, Error> {
    let edit = one_file::parse_edit(diff).map_err(|e| Error::usage(e.to_string()))?;
    let outcome = crate::dialect::edit::apply(&edit, content);
    let mut out = doubts_said(&outcome, content.unwrap_or(""));
    if !names_file(edit.path(), file) {
        out.push(another_file_doubt(edit.path(), file));
    }
    Ok(out)
}

/// The new content of FILE after a successful patch.
pub(super) fn patched_content(outcome: &PatchOutcome, file: &Path) -> Option<String> {
    let name = file.file_name()?.to_string_lossy().into_owned();
    outcome.files.get(&name).cloned().flatten()
}

/// The edit applied to FILE (named by its path in the agent's texts).
pub(super) fn run_edit(
    file: &Path,
    content: Option<&str>,
    diff: &str,
    rerun: &Rerun,
) -> Result<EditOutcome, Error> {
    let parsed = one_file::parse_edit(diff).map_err(|e| Error::usage(e.to_string()))?;
    refuse_another_edit(&parsed, file, rerun)?;
    let parsed = parsed.with_path(&file.display().to_string());
    Ok(edit::apply(&parsed, content))
}

/// An edit's outcome in the engine's shape, so that it prints as a
/// SEARCH/REPLACE apply does (one block).
pub(super) fn as_engine_outcome(outcome: &EditOutcome, original: &str) -> Outcome<String> {
    let result = match &outcome.result {
        Ok(done) => Ok(Applied {
            new_content: done.new_content.clone(),
            match_indices: outcome
                .block
                .original
                .map(|s| {
                    original[..s.start.min(original.len())]
                        .encode_utf16()
                        .count()
                })
                .into_iter()
                .collect(),
        }),
        Err(e) => Err(ApplyError {
            message: e.to_string(),
            block: Some(0),
            diff_line: None,
        }),
    };
    Outcome {
        result,
        blocks: vec![outcome.block.clone()],
    }
}

pub fn run(
    args: &ApplyArgs,
    file: &Path,
    content: Option<String>,
    diff: &str,
    dialect: crate::dialect::Dialect,
) -> CmdResult {
    use crate::dialect::Dialect;
    let original = content.clone().unwrap_or_default();
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    // `--write` runs before the JSON is printed, so that the JSON says what
    // it did.
    let commit = |new_content: Option<&str>, doubts: Vec<String>| {
        args.write.then(|| match new_content {
            Some(new_content) => Commit::run_on(file, doubts, || {
                let expected = content.as_ref().map(|c| c.as_bytes());
                Ok(output::write_atomic(
                    file,
                    new_content.as_bytes(),
                    expected,
                )?)
            }),
            None => Commit::not_applied(),
        })
    };
    let weigh = |doubts| super::commit::weigh(args.write, args.force, doubts, &[file]);
    let mut lost = false;
    let (new_content, commit) = match dialect {
        Dialect::ApplyPatch => {
            let outcome = run_patch(file, content.as_deref(), diff, &args.rerun())?;
            let new_content = patched_content(&outcome, file).filter(|_| outcome.exit_code == 0);
            let mut doubts = if new_content.is_some() {
                patch_doubts(file, content.as_deref(), diff)?
            } else {
                Vec::new()
            };
            // Said once: the warning above says the hunk; the hold, only
            // where it holds the write back.
            if new_content.is_some() && args.write && !args.force {
                doubts.splice(0..0, crate::source::patch::loose_holds(&outcome));
            }
            let doubts = weigh(doubts);
            // The agent writes FILE and then deletes it: the content
            // printed is FILE edited in place, not what the agent leaves
            // (the warning said so), and the exit status says it.
            let place = place(file)?;
            lost = new_content.is_some()
                && one_file::moves_onto_itself(diff, &place.target(content.as_deref()));
            let commit = commit(new_content.as_deref(), doubts);
            if args.json {
                let report = crate::report::WithWrite {
                    report: crate::report::PatchApplyReport::new(&outcome, new_content.as_deref()),
                    write: commit.as_ref().map(|c| &c.json),
                };
                serde_json::to_writer(&mut stdout, &report).map_err(|e| io_err(e.into()))?;
                writeln!(stdout).map_err(io_err)?;
            } else {
                eprint!("{}", outcome.stderr);
            }
            (new_content, commit)
        }
        Dialect::EditJson | Dialect::SearchReplace => {
            let outcome = run_edit(file, content.as_deref(), diff, &args.rerun())?;
            let engine_outcome = as_engine_outcome(&outcome, &original);
            let new_content = engine_outcome
                .result
                .as_ref()
                .ok()
                .map(|a| a.new_content.as_str());
            let doubts = doubts_said(&outcome, &original);
            let doubts = weigh(doubts);
            let commit = commit(new_content, doubts);
            if args.json {
                let write = commit.as_ref().map(|c| &c.json);
                crate::report::write_apply(&mut stdout, &engine_outcome, new_content, write)
                    .map_err(io_err)?;
                writeln!(stdout).map_err(io_err)?;
            } else if let Err(e) = &engine_outcome.result {
                eprintln!("srview: block #1 does not apply:\n{}", e.message);
            }
            (engine_outcome.result.ok().map(|a| a.new_content), commit)
        }
    };
    stdout.flush().map_err(io_err)?;
    if let Some(commit) = commit {
        return commit.status();
    }
    let Some(new_content) = new_content else {
        return Ok(1);
    };
    if !args.json {
        stdout.write_all(new_content.as_bytes()).map_err(io_err)?;
    }
    stdout.flush().map_err(io_err)?;
    Ok(if lost { 1 } else { 0 })
}
