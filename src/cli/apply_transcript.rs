//! `srview apply --transcript MSG`: every edit of an agent transcript,
//! headless. With `--write` it is all or nothing: every file must apply and
//! still hold what was loaded before any file is written.

use std::io::Write;

use super::commit::Commit;
use super::{ApplyArgs, CmdResult};
use crate::error::Error;
use crate::input;
use crate::output::Wrote;
use crate::source::aider;
use crate::source::transcript::{
    self, ApplyOptions, FileEdit, FileState, Format, PathRules, ToolCall,
};

pub fn run(args: &ApplyArgs) -> CmdResult {
    let msg = args
        .transcript
        .as_deref()
        .ok_or_else(|| Error::usage("--transcript needs MSG"))?;
    if args.file.is_some() || args.diff.is_some() {
        return Err(Error::usage(
            "--transcript takes no FILE or DIFF: the transcript names its files",
        ));
    }
    let text = input::read_diff(Some(msg))?;
    let cwd = match &args.cwd {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().map_err(|e| Error::read("the current folder", e))?,
    };
    if !cwd.is_dir() {
        return Err(Error::refused(format!(
            "--cwd {} is not a folder",
            cwd.display()
        )));
    }
    if let Some(row) = args.engine.agent_dialect() {
        return super::apply_call::run_folder(args, &text, &cwd, row);
    }
    // An Aider udiff reply (no other transcript reads in it) is run by
    // Aider's own udiff applier over the folder.
    if transcript::detect(&text).is_none()
        && crate::dialect::aider_diff::is_udiff_reply(&text)
        && let Some(row) = args.engine.agent_dialect_of(&text)
    {
        return super::apply_call::run_folder(args, &text, &cwd, row);
    }
    let format = transcript::detect(&text).ok_or_else(|| {
        Error::usage(format!(
            "{} holds no replace_in_file/write_to_file calls, no Aider edit blocks and no apply_patch",
            msg.display()
        ))
    })?;
    let workspace = PathRules::new(cwd, args.allow_outside);
    let calls = match format {
        Format::Cline => transcript::parse(&text),
        // An Aider reply is run as Aider runs it: its own matcher over the
        // folder, blocks that match written even when others fail
        // (`--write --force`; without `--force` all or nothing).
        Format::Aider => match crate::dialect::registry::find("aider-diff") {
            Some(row) => return super::apply_call::run_folder(args, &text, &workspace.cwd, row),
            None => aider::parse(&text),
        },
        Format::ApplyPatch => return super::apply_patch_transcript::run(args, &text, &workspace),
    };
    let options = ApplyOptions {
        version: args.engine.version(),
        fix_model_output: args.engine.fix_model_output,
    };
    let mut files = transcript::apply_calls(&calls, |p| workspace.load(p), options);
    // A saved transcript is complete.
    files.iter_mut().for_each(FileEdit::end);
    // A call cut off inside its path names no file: it never ran, and the
    // transcript does not do what it reads as.
    let unnamed = calls.iter().any(|c| !c.path_complete);
    if unnamed {
        eprintln!("srview: the transcript ends inside a tool call's path: that call never ran");
    }
    let all_ok = files.iter().all(FileEdit::ok) && !unnamed;
    let refused = files.iter().any(|f| f.state == FileState::Refused);

    // `--write` runs before the report is printed, so that the JSON says
    // what it did; a refused path writes nothing and ends with exit 2.
    let doubts = if all_ok {
        write_doubts(&calls, &files, options)
    } else {
        Vec::new()
    };
    // The files in doubt, said so on their line (a tester's find: the
    // list said `ok` for the file `--write` held back).
    let doubted: Vec<bool> = files
        .iter()
        .map(|file| doubts.iter().any(|(path, _)| *path == file.path))
        .collect();
    let doubts: Vec<String> = doubts.into_iter().map(|(_, said)| said).collect();
    let all: Vec<&FileEdit> = files.iter().collect();
    let replaced = if all_ok {
        transcript::targets(&workspace, &all)
    } else {
        Vec::new()
    };
    let doubts = super::commit::weigh(args.write, args.force, doubts, &replaced);
    let commit = (args.write && !refused).then(|| {
        if !all_ok {
            eprintln!("srview: nothing written: not every file applies");
            return Commit::not_applied();
        }
        if let Err(e) = transcript::preflight(&workspace, &all) {
            return Commit::failed(Error::Write(e.message));
        }
        Commit::run("nothing written", doubts, || {
            let written =
                transcript::write_files(&workspace, &all).map_err(|e| Error::Write(e.message))?;
            Ok(Wrote::of_batch(&written))
        })
    });
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json {
        let report = crate::report::WithWrite {
            report: crate::report::TranscriptReport::new(format, &files, all_ok),
            write: commit.as_ref().map(|c| &c.json),
        };
        serde_json::to_writer(&mut stdout, &report).map_err(|e| io_err(e.into()))?;
        writeln!(stdout).map_err(io_err)?;
    } else {
        for (file, doubted) in files.iter().zip(&doubted) {
            writeln!(stdout, "{}", summary_line(file, *doubted)).map_err(io_err)?;
        }
    }
    // Loose matches are said in every output, as for one diff.
    for file in &files {
        for call in &file.calls {
            for b in call.outcome.iter().flat_map(|o| &o.blocks) {
                if let Some(why) = super::doubts::block_doubt(b, true) {
                    eprintln!(
                        "srview: warning: {}, the transcript's tool call {}: block #{} {why}",
                        file.path,
                        call.call + 1,
                        b.index + 1
                    );
                }
            }
        }
    }
    stdout.flush().map_err(io_err)?;
    if refused {
        return Ok(2);
    }
    match commit {
        Some(commit) => commit.status(),
        None => Ok(if all_ok { 0 } else { 1 }),
    }
}

/// What srview cannot stand behind in writing the transcript's files, as
/// `apply --write` holds back for one diff: each call diagnosed against the
/// content it ran on (see [`crate::diagnose::doubt`]): each the file's
/// path and its sentence, "FILE, the transcript's tool call N: why".
fn write_doubts(
    calls: &[ToolCall],
    files: &[FileEdit],
    options: ApplyOptions,
) -> Vec<(String, String)> {
    use crate::diagnose::doubt;
    use crate::engine::matcher::LineIndex;
    let mut out = Vec::new();
    for file in files {
        let mut before = file.before();
        for result in &file.calls {
            let Some(after) = result.content() else {
                continue;
            };
            let doubts = match (calls.get(result.call), &result.outcome) {
                (Some(call), Some(outcome)) => {
                    let path = std::path::Path::new(&file.path);
                    let diff = crate::engine::fixes::engine_input(
                        &call.body,
                        path,
                        options.fix_model_output,
                    );
                    let engine = crate::engine::Options {
                        version: options.version,
                        is_final: true,
                    };
                    let index = LineIndex::new(before);
                    let diagnoses =
                        crate::diagnose::diagnose_indexed(&diff, &index, engine, outcome);
                    doubt::held_back(
                        &file.path,
                        &diff,
                        &diagnoses,
                        &outcome.blocks,
                        before,
                        [after],
                    )
                }
                // A whole new content (write_to_file): a whole write's one
                // judgement, the previewer's and the gate's (a stand-in,
                // text already there, a layout broken).
                _ => {
                    let mut kinded = Vec::new();
                    let over = (!before.is_empty()).then_some(before);
                    crate::dialect::edit::whole_write_doubts(&file.path, over, after, &mut kinded);
                    kinded.into_iter().map(|(_, why)| why).collect()
                }
            };
            out.extend(doubts.into_iter().map(|why| {
                let said = format!(
                    "{}, the transcript's tool call {}: {why}",
                    file.path,
                    result.call + 1
                );
                (file.path.clone(), said)
            }));
            before = after;
        }
    }
    out
}

/// A file's line of the list: `ok`, `doubt` (it applies, and `--write`
/// holds it back: why is on stderr), or its state and error.
fn summary_line(file: &FileEdit, doubted: bool) -> String {
    let blocks = || {
        file.calls
            .iter()
            .filter_map(|c| c.outcome.as_ref())
            .flat_map(|o| &o.blocks)
    };
    let loose = blocks()
        .filter(|b| super::doubts::block_doubt(b, true).is_some())
        .count();
    match &file.error {
        None => format!(
            "{:<7} {} ({}, {}{}{})",
            if doubted { "doubt" } else { "ok" },
            file.path,
            crate::words::count(file.calls.len(), "call"),
            crate::words::count(blocks().count(), "block"),
            if loose > 0 {
                format!(", {loose} loose")
            } else {
                String::new()
            },
            if file.is_new() { ", new file" } else { "" }
        ),
        Some(e) => format!("{:<7} {}: {e}", file.state.name(), file.path),
    }
}
