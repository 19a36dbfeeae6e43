//! `srview apply FILE [DIFF]`: the engine, headless.

use std::io::Write;
use std::path::Path;

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
    let diff = args
        .engine
        .prepare(input::read_diff(args.diff.as_deref())?, file);
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
        } else {
            ""
        };
        warn_no_block(args.diff.as_deref(), &format!("{what}{hint}"));
    }
    let mut stdout = std::io::stdout().lock();
    let io_err = |e: std::io::Error| CliError::usage(format!("cannot write stdout: {e}"));
    if args.json {
        let content = outcome
            .result
            .as_ref()
            .ok()
            .map(|a| a.new_content.to_text(&original));
        let mut out = std::io::BufWriter::with_capacity(1 << 16, &mut stdout);
        write_outcome_json(&mut out, &outcome, content.as_deref()).map_err(io_err)?;
        out.write_all(b"\n").map_err(io_err)?;
        out.flush().map_err(io_err)?;
    }
    match &outcome.result {
        Ok(applied) => {
            let chunks: Vec<&[u8]> = applied
                .new_content
                .chunks(&original)
                .map(str::as_bytes)
                .collect();
            if args.write {
                // Without a block there is nothing to accept: FILE is not
                // rewritten (its time stamp stays).
                if !no_block {
                    output::write_atomic_chunks(file, &chunks, Some(original.as_bytes()))
                        .map_err(|e| CliError::usage(e.to_string()))?;
                }
            } else if !args.json {
                for chunk in chunks {
                    stdout.write_all(chunk).map_err(io_err)?;
                }
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

/// Replaces FILE with `content` if it still holds `original`.
pub(super) fn write_result(file: &Path, content: &str, original: &str) -> Result<(), CliError> {
    output::write_atomic(file, content.as_bytes(), Some(original.as_bytes()))
        .map_err(|e| CliError::usage(e.to_string()))
}

/// DIFF as messages name it: its path, or `stdin` for `-` or none.
pub(super) fn diff_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "stdin".to_string(),
    }
}

/// The warning for a diff in which no block was found: the reference's
/// answer stands (the file unchanged), but saying nothing would let an empty
/// or prose-only diff pass for an edit that applied.
pub(super) fn warn_no_block(diff: Option<&Path>, what_happened: &str) {
    eprintln!(
        "srview: warning: no SEARCH/REPLACE block found in {}: {what_happened}",
        diff_name(diff)
    );
}

/// What `check` and `fix` start from: FILE's text, the diff as the applier
/// sees it, and final-mode options.
pub(super) fn load_final(
    file: &Path,
    diff: Option<&Path>,
    engine: super::EngineOpts,
) -> Result<(String, String, crate::engine::Options), CliError> {
    let original = load_original(file, false)?;
    let diff = engine.prepare(input::read_diff(diff)?, file);
    let options = crate::engine::Options {
        version: engine.version(),
        is_final: true,
    };
    Ok((original, diff, options))
}

/// FILE's text; a missing FILE is empty only with `--new-file`.
pub fn load_original(file: &Path, new_file: bool) -> Result<String, CliError> {
    match input::read_text(file, new_file)? {
        Some(text) => Ok(text),
        None => Ok(String::new()),
    }
}

/// Writes what `outcome_json` returns, byte for byte the same, without
/// building it: one block's `Value` at a time and the new content borrowed,
/// so memory stays near the content's size however many blocks there are
/// (a 100,000-block diff: 320 MB as one `Value`, under 50 MB streamed).
/// `content` is the outcome's new content as text (`None` on error).
fn write_outcome_json<C>(
    out: &mut impl Write,
    outcome: &Outcome<C>,
    content: Option<&str>,
) -> std::io::Result<()> {
    let (ok, indices, error) = match &outcome.result {
        Ok(a) => (true, &a.match_indices[..], None),
        Err(e) => (false, &[][..], Some(e.message.as_str())),
    };
    // serde_json's map sorts keys; these are in that order.
    out.write_all(b"{\"blocks\":[")?;
    for (i, block) in outcome.blocks.iter().enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        serde_json::to_writer(&mut *out, &serde_json::to_value(block)?)?;
    }
    out.write_all(b"],\"error\":")?;
    serde_json::to_writer(&mut *out, &error)?;
    out.write_all(b",\"matchIndices\":")?;
    serde_json::to_writer(&mut *out, indices)?;
    out.write_all(b",\"newContent\":")?;
    serde_json::to_writer(&mut *out, &content)?;
    write!(out, ",\"ok\":{ok}}}")
}

/// The `--json` object built in memory: the reference for what
/// `write_outcome_json` streams (checked byte for byte by the tests).
#[cfg(test)]
fn outcome_json(outcome: &Outcome) -> serde_json::Value {
    use serde_json::json;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Version;

    #[test]
    fn streamed_json_equals_the_value() {
        let original = "a\nb\nc \u{1f600}\"\n";
        let diffs = [
            "------- SEARCH\nb\n=======\nB\\\"\n+++++++ REPLACE\n",
            "------- SEARCH\nzz\n=======\nq\n+++++++ REPLACE\n",
            "------- SEARCH\nb\n=======\nB\n------- SEARCH\nc\n",
            "",
        ];
        for diff in diffs {
            for version in [Version::V1, Version::V2] {
                for is_final in [true, false] {
                    let o = engine::apply(diff, original, Options { version, is_final });
                    let mut bytes = Vec::new();
                    let content = o.result.as_ref().ok().map(|a| a.new_content.as_str());
                    write_outcome_json(&mut bytes, &o, content).unwrap();
                    let want = serde_json::to_string(&outcome_json(&o)).unwrap();
                    assert_eq!(String::from_utf8(bytes).unwrap(), want);
                }
            }
        }
    }
}
