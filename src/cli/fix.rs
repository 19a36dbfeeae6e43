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
    // What `check` would hold the corrected diff back for (a block
    // standing in for lines, writing the lines around it twice, Python
    // left misindented): the correction is not one srview stands behind.
    // Where the fault is srview's own correction's, the correction is
    // withheld: the diff is printed as sent.
    let (doubts, withheld) = corrected_doubts(&file, &fixed.diff, &diff, &original, options);
    let printed = if withheld { &diff } else { &fixed.diff };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(printed.as_bytes())
        .and_then(|()| stdout.flush())
        .map_err(Error::stdout)?;
    for note in &fixed.notes {
        eprintln!("srview: {}", note.line(&file));
    }
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
/// empty when it does not apply (the notes say why). Where the corrected
/// diff leaves the file misindented and `sent` (the diff as the model
/// wrote it, when srview changed it) applied as written leaves no such
/// fault, the fault is srview's correction's: said so, without telling
/// the model to indent its lines otherwise, and the second value is true
/// (the correction is withheld).
fn corrected_doubts(
    file: &str,
    diff: &str,
    sent: &str,
    original: &str,
    options: crate::engine::Options,
) -> (Vec<String>, bool) {
    use crate::diagnose::doubt_exact::{correction_fault, exact_doubt_kinds};
    use crate::dialect::edit::EditDoubtKind;
    let index = crate::engine::matcher::LineIndex::new(original);
    let outcome = crate::engine::apply_indexed(diff, &index, options);
    let Ok(applied) = &outcome.result else {
        return (Vec::new(), false);
    };
    let result = applied.new_content.as_str();
    let mut kinded = exact_doubt_kinds(file, original, &outcome.blocks, || result);
    let layout = |k: &EditDoubtKind| k.of_layout();
    let misindents = kinded.iter().any(|(k, _)| layout(k));
    let mut withheld = false;
    if misindents
        && diff != sent
        && let Some(why) = correction_fault(file, original, result, || {
            let own = crate::engine::apply_indexed(sent, &index, options);
            own.result.ok().map(|own| own.new_content)
        })
    {
        withheld = true;
        for (kind, sentence) in &mut kinded {
            if layout(kind) {
                *sentence = why.clone();
            }
        }
    }
    let doubts = kinded.into_iter().map(|(_, sentence)| sentence).collect();
    (doubts, withheld)
}

#[cfg(test)]
mod tests {
    use super::corrected_doubts;

    /// A tester's find (round 36b): a correction srview built left Python
    /// misindented (a statement over two lines at the model's columns, the
    /// line after it scaled) where the diff as sent leaves the file sound;
    /// the check blamed the diff's indentation. The fault is the
    /// correction's, said so, and the model is not told to indent its
    /// lines otherwise. A diff left as sent is still told its fault.
    #[test]
    fn a_correction_that_misindents_is_withheld_without_blaming_the_diff() {
        let original = "def f():\n    return 1\n";
        let sent = "------- SEARCH\ndef f():\n  return 1\n=======\ndef f():\n  v = (a +\n    b)\n  return v\n+++++++ REPLACE\n";
        let corrected = "------- SEARCH\ndef f():\n    return 1\n=======\ndef f():\n  v = (a +\n    b)\n    return v\n+++++++ REPLACE\n";
        let options = crate::engine::Options::default();
        let fault = "misindented: as written, line 4 (`return v`) is at column 4, deeper than \
                     the line before it, which opens no block: Python refuses the file \
                     (IndentationError: unexpected indent)";
        assert_eq!(
            corrected_doubts("c1.py", corrected, sent, original, options),
            (
                vec![format!(
                    "srview's correction leaves c1.py {fault}: the diff as sent leaves no such \
                     fault, so the fault is the correction's and the correction is withheld"
                )],
                true
            )
        );
        assert_eq!(
            corrected_doubts("c1.py", corrected, corrected, original, options),
            (
                vec![format!(
                    "the diff leaves c1.py {fault}: send the new lines at the indentation of the \
                     block they belong to"
                )],
                false
            )
        );
    }
}
