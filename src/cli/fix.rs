//! `srview fix FILE [DIFF]`: the diff corrected (see
//! [`crate::diagnose::fix`]), printed alone on stdout; a note per block
//! without its place on stderr, and exit 1 then.

use std::io::Write;

use super::load::{FinalInput, load_final};
use super::{CmdResult, FixArgs};
use crate::diagnose::fix::fix_for;
use crate::error::Error;

pub fn run(args: &FixArgs) -> CmdResult {
    let sr = match load_final(&args.file, args.diff.as_deref(), args.engine, "fix")? {
        FinalInput::SearchReplace(sr) => sr,
        FinalInput::Other(other) => return super::check_dialect::fix(args, other),
        FinalInput::Agent(row, text) => return super::apply_call::fix(args, row, &text),
    };
    let (original, diff, options) = (sr.original, sr.diff, sr.options);
    let fixed = fix_for(&args.file.display().to_string(), &diff, &original, options);
    if fixed.no_block {
        super::load::warn_no_block(args.diff.as_deref(), "nothing to fix, nothing printed");
        return Ok(1);
    }
    let file = args.file.display().to_string();
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(fixed.diff.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Error::stdout)?;
    for note in &fixed.notes {
        eprintln!("srview: {}", note.line(&file));
    }
    // What `check` would hold the corrected diff back for (a block
    // standing in for lines, writing the lines around it twice, Python
    // left misindented): the correction is not one srview stands behind.
    let doubts = corrected_doubts(&file, &fixed.diff, &original, options);
    if !doubts.is_empty() {
        eprintln!(
            "srview: the corrected diff is in doubt: {}",
            doubts.join("; ")
        );
    }
    Ok(
        if fixed.notes.iter().any(|n| n.unplaced) || !doubts.is_empty() {
            1
        } else {
            0
        },
    )
}

/// The exact-string trust checks `check` holds `diff` (the corrected
/// diff) over `original` back for ([`crate::diagnose::doubt_exact`]);
/// empty when it does not apply (the notes say why).
fn corrected_doubts(
    file: &str,
    diff: &str,
    original: &str,
    options: crate::engine::Options,
) -> Vec<String> {
    let index = crate::engine::matcher::LineIndex::new(original);
    let outcome = crate::engine::apply_indexed(diff, &index, options);
    let Ok(applied) = &outcome.result else {
        return Vec::new();
    };
    crate::diagnose::doubt_exact::exact_doubts(file, original, &outcome.blocks, || {
        applied.new_content.as_str()
    })
}
