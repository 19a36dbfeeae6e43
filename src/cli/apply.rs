//! `srview apply FILE [DIFF]`: the engine, headless.

use std::io::Write;
use std::path::Path;

use serde_json::json;

use super::{ApplyArgs, CmdResult};
use crate::engine::{self, Options, Outcome};
use crate::input::{self, CliError};
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
        .ok_or_else(|| CliError::usage("apply needs FILE (or --transcript MSG)"))?;
    let original = load_original(file, args.new_file)?;
    let mut diff = input::read_diff(args.diff.as_deref())?;
    if args.fix_model_output {
        diff = engine::fixes::fix_model_output(&diff, &file.to_string_lossy());
    }
    let options = Options {
        version: args.engine.into(),
        is_final: !args.partial,
    };
    let outcome = engine::apply(&diff, &original, options);
    let mut stdout = std::io::stdout().lock();
    let io_err = |e: std::io::Error| CliError::usage(format!("cannot write stdout: {e}"));
    if args.json {
        let text = serde_json::to_string(&outcome_json(&outcome))
            .map_err(|e| CliError::usage(e.to_string()))?;
        writeln!(stdout, "{text}").map_err(io_err)?;
    }
    match &outcome.result {
        Ok(applied) => {
            if args.write {
                output::write_atomic(
                    file,
                    applied.new_content.as_bytes(),
                    Some(original.as_bytes()),
                )
                .map_err(|e| CliError::usage(e.to_string()))?;
            } else if !args.json {
                stdout
                    .write_all(applied.new_content.as_bytes())
                    .map_err(io_err)?;
            }
            stdout.flush().map_err(io_err)?;
            Ok(0)
        }
        Err(e) => {
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
            Ok(1)
        }
    }
}

/// FILE's text; a missing FILE is empty only with `--new-file`.
pub fn load_original(file: &Path, new_file: bool) -> Result<String, CliError> {
    match input::read_text(file, new_file)? {
        Some(text) => Ok(text),
        None => Ok(String::new()),
    }
}

/// The `--json` object: the reference's answer plus the block report.
pub fn outcome_json(outcome: &Outcome) -> serde_json::Value {
    let (ok, content, indices, error) = match &outcome.result {
        Ok(a) => (
            true,
            Some(a.new_content.as_str()),
            a.match_indices.clone(),
            None,
        ),
        Err(e) => (false, None, Vec::new(), Some(e.message.as_str())),
    };
    json!({
        "ok": ok,
        "newContent": content,
        "matchIndices": indices,
        "error": error,
        "blocks": outcome.blocks,
    })
}
