//! `srview apply FILE [DIFF]`: the engine, headless.

use std::io::Write;

use super::commit::Commit;
use super::{ApplyArgs, CmdResult};
use crate::engine::{self, Options};
use crate::error::Error;
use crate::input;
use crate::output;

pub fn run(args: &ApplyArgs) -> CmdResult {
    if args.transcript.is_some() {
        return super::apply_transcript::run(args);
    }
    if args.stream {
        return super::apply_stream::run(args);
    }
    let file = args
        .file
        .as_deref()
        .ok_or_else(|| Error::usage("apply needs FILE (or --transcript MSG)"))?;
    if let Some(row) = args.engine.agent_dialect() {
        // The agent's matcher reads FILE itself, as the agent would.
        let input = input::read_diff(args.diff.as_deref())?;
        return super::apply_call::run(args, file, &input, row);
    }
    // FILE is loaded before DIFF is read: DIFF may be a pipe whose writer
    // waits for that (and a FILE edited meanwhile is then caught).
    let content = match input::read_file_arg(file, args.new_file) {
        Err(missing) if args.engine.dialect.is_none() && !file.exists() => {
            // An agent's tool input (told by its keys) meets a missing FILE
            // as the agent would: its matcher says what happens.
            let diff = input::read_diff(args.diff.as_deref())?;
            return match args.engine.agent_dialect_of(&diff) {
                Some(row) => super::apply_call::run(args, file, &diff, row),
                None => Err(missing),
            };
        }
        other => other?,
    };
    let diff = input::read_diff(args.diff.as_deref())?;
    if let Some(row) = args.engine.agent_dialect_of(&diff) {
        return super::apply_call::run(args, file, &diff, row);
    }
    let dialect = super::dialect_of(args.engine.builtin_dialect("apply")?, &diff);
    if dialect != crate::dialect::Dialect::SearchReplace {
        let diff = chosen_blocks(args, file, diff, dialect)?;
        return super::apply_dialect::run(args, file, content, &diff, dialect);
    }
    let original = content.unwrap_or_default();
    let diff = args.engine.prepare(diff, file);
    let diff = chosen_blocks(args, file, diff, dialect)?;
    let options = Options {
        version: args.engine.version(),
        is_final: !args.partial,
    };
    // The new content stays a splice of the original: written piece by
    // piece, it is never held as a second copy of the file.
    let index = engine::matcher::LineIndex::new(&original);
    let outcome = engine::apply_spliced(&diff, &index, options);
    let no_block = outcome.blocks.is_empty();
    if no_block {
        let what = match (&outcome.result, args.write) {
            (Ok(_), true) => format!("{} left as it was", file.display()),
            (Ok(_), false) => format!("the output is {} unchanged", file.display()),
            (Err(_), _) => "the diff does not apply".to_string(),
        };
        let hint = if diff.contains("\r\n") {
            " (the diff has CRLF line endings: a marker line ending in \\r is not a marker)"
                .to_string()
        } else if let Some(what) = crate::dialect::cut_beginning(&diff) {
            format!(" (the diff may be the beginning of {what}, cut off)")
        } else {
            String::new()
        };
        super::load::warn_no_block(args.diff.as_deref(), &format!("{what}{hint}"));
    }
    super::doubts::print(&diff, &original, &outcome.blocks, options.is_final);
    let commit = args.write.then(|| match &outcome.result {
        Ok(applied) => {
            let pieces: Vec<&str> = applied.new_content.chunks(&original).collect();
            let diagnoses = crate::diagnose::diagnose_indexed(&diff, &index, options, &outcome);
            let doubts = crate::diagnose::doubt::held_back(
                &file.display().to_string(),
                &diff,
                &diagnoses,
                &outcome.blocks,
                &original,
                pieces.iter().copied(),
            );
            let doubts = super::commit::weigh(true, args.force, doubts, &[file]);
            Commit::run_on(file, doubts, || {
                // Without a block there is nothing to accept: FILE is not
                // rewritten (its time stamp stays).
                if no_block {
                    return Ok(output::Wrote::AlreadyHeld);
                }
                let chunks: Vec<&[u8]> = pieces.iter().map(|p| p.as_bytes()).collect();
                Ok(output::write_atomic_chunks(
                    file,
                    &chunks,
                    Some(original.as_bytes()),
                )?)
            })
        }
        Err(_) => Commit::not_applied(),
    });
    let mut stdout = std::io::stdout().lock();
    let io_err = Error::stdout;
    if args.json {
        let content = outcome
            .result
            .as_ref()
            .ok()
            .map(|a| a.new_content.to_text(&original));
        let write = commit.as_ref().map(|c| &c.json);
        let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
        crate::report::write_apply(&mut out, &outcome, content.as_deref(), write)
            .map_err(io_err)?;
        out.write_all(b"\n").map_err(io_err)?;
        out.flush().map_err(io_err)?;
    }
    if let Err(e) = &outcome.result {
        if !args.json {
            let at = e
                .diff_line
                .map(|l| format!(" (diff line {l})"))
                .unwrap_or_default();
            let block = e
                .block
                .map(|b| format!("block #{}", b + 1))
                .unwrap_or_else(|| "diff".into());
            eprintln!("srview: {block} does not apply{at}:\n{}", e.message);
        }
        stdout.flush().map_err(io_err)?;
        return Ok(1);
    }
    if let Some(commit) = commit {
        stdout.flush().map_err(io_err)?;
        return commit.status();
    }
    if let (Ok(applied), false) = (&outcome.result, args.json) {
        for chunk in applied.new_content.chunks(&original) {
            stdout.write_all(chunk.as_bytes()).map_err(io_err)?;
        }
    }
    stdout.flush().map_err(io_err)?;
    Ok(0)
}

/// `diff` made of the blocks `--only`/`--skip` choose (the whole diff
/// without them), said on stderr: from here on it is the diff, applied,
/// reported and written as any other.
fn chosen_blocks(
    args: &ApplyArgs,
    file: &std::path::Path,
    diff: String,
    dialect: crate::dialect::Dialect,
) -> Result<String, Error> {
    use crate::dialect::chosen::{self, Choice};
    let (choice, flag) = match (&args.only[..], &args.skip[..]) {
        ([], []) => return Ok(diff),
        (only, []) => (Choice::Only(only.iter().copied().collect()), "--only"),
        (_, skip) => (Choice::Skip(skip.iter().copied().collect()), "--skip"),
    };
    let name = file
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let chosen = chosen::choose(&diff, dialect, args.engine.version(), &name, &choice)
        .map_err(|e| Error::usage(format!("{flag}: {e}")))?;
    if !chosen.left_out.is_empty() {
        let noun = chosen::noun(dialect);
        let kept: Vec<usize> = (1..=chosen.count)
            .filter(|n| !chosen.left_out.contains(n))
            .collect();
        // Past a block left out, the output's numbers are not the diff's.
        let renumbered = chosen.left_out.first() < kept.last();
        eprintln!(
            "srview: note: applying {} of {} only, {} left out{}",
            chosen::numbered(noun, &kept),
            chosen.count,
            chosen.left_out_words(dialect),
            if renumbered {
                format!(" (below, the chosen {noun}s are numbered from 1)")
            } else {
                String::new()
            }
        );
    }
    Ok(chosen.text)
}
