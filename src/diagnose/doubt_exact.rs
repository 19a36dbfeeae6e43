//! *Pure.* The exact-string trust checks on a SEARCH/REPLACE diff's blocks
//! (Cline's `replace_in_file`, Aider's blocks, srview's own dialect), the
//! same an edit's old/new strings and a patch's hunks get (a tester's
//! find: the same damaging edit was held back as edit JSON or a patch and
//! written as SEARCH/REPLACE blocks):
//! - a block placed exactly whose REPLACE text stands in for lines of its
//!   SEARCH text it leaves out ([`crate::dialect::elided`]);
//! - a block placed exactly whose REPLACE text ends with the lines the file
//!   has right after its SEARCH text, or begins with those right before it
//!   ([`crate::diagnose::doubt_repeat`]), unless another block edits those
//!   lines;
//! - the whole result leaving Python misindented
//!   ([`crate::diagnose::doubt_indent`]), said only when nothing else is;
//! - the result holding a bidirectional control or a zero-width character
//!   the file did not hold ([`crate::diagnose::hidden`]), asked of any
//!   applied block's REPLACE text, whatever its stage.

use crate::dialect::edit::EditDoubtKind;
use crate::engine::{BlockReport, BlockState, Stage};

/// One sentence per block (without a final stop) that srview cannot stand
/// behind although it matched exactly: `blocks`, the engine's reports of a
/// final apply over `original`.
pub fn block_doubts(path: &str, original: &str, blocks: &[BlockReport]) -> Vec<String> {
    sentences(block_doubt_kinds(path, original, blocks))
}

/// The sentences of kinded doubts.
fn sentences(kinded: Vec<(EditDoubtKind, String)>) -> Vec<String> {
    kinded.into_iter().map(|(_, sentence)| sentence).collect()
}

/// [`block_doubts`], each with its kind (`ElidesLines`,
/// `RepeatsNeighbours`). `path` names the file (its kind tells its
/// comments, [`crate::dialect::elided::Comments`]).
pub fn block_doubt_kinds(
    path: &str,
    original: &str,
    blocks: &[BlockReport],
) -> Vec<(EditDoubtKind, String)> {
    let exact = |b: &&BlockReport| {
        b.state == BlockState::Applied && b.stage == Some(Stage::Exact) && !b.out_of_order
    };
    let placed: Vec<&BlockReport> = blocks.iter().filter(exact).collect();
    let mut out = Vec::new();
    for b in &placed {
        let n = b.index + 1;
        // The file above the block: a `def`'s class may be declared there.
        let above = b
            .original
            .and_then(|s| original.get(..s.start))
            .unwrap_or("");
        if let Some(elided) =
            crate::dialect::elided::elided_under(path, &b.search_text, &b.replace_text, above)
        {
            out.push((
                EditDoubtKind::ElidesLines,
                format!(
                "block #{n}'s REPLACE text stands in for lines it leaves out (its line {}: `{}`), \
                 so it deletes {} of its SEARCH text: send every line the block keeps, or edit \
                 only the lines that change",
                elided.line,
                elided.placeholder,
                crate::words::count(elided.lost, "non-blank line"),
            ),
            ));
            continue;
        }
        // A REPLACE ending a line in a `\` its SEARCH did not: the file's
        // next line joins onto it (a tester's find, round 46 T-09: said of
        // every agent's edit, not of a SEARCH/REPLACE block).
        if (crate::dialect::edit::may_join_next_line(&b.replace_text)
            || crate::dialect::edit::may_join_next_line(&b.search_text))
            && let Some(span) = b.original
            && let Some(next) = original.lines().nth(span.end_line)
            && let Some(said) = crate::dialect::edit::hunk_joins_next_line(
                path,
                original,
                (&b.search_text, &b.replace_text),
                (next, span.end_line + 1),
            )
        {
            out.push((EditDoubtKind::JoinsLines, format!("block #{n}: {said}")));
            continue;
        }
        let Some(repeated) = crate::dialect::edit::repeated_around(b, original) else {
            continue;
        };
        // Another block editing the repeated lines decides what stands
        // there: not judged.
        let touched = repeated.file_lines().is_some_and(|(first, last)| {
            blocks.iter().any(|other| {
                other.index != b.index
                    && other.original.is_some_and(|s| {
                        s.start_line <= last && s.end_line.max(s.start_line) >= first
                    })
            })
        });
        if !touched {
            out.push((
                EditDoubtKind::RepeatsNeighbours,
                repeated.describe(&format!("block #{n}'s REPLACE text"), false),
            ));
        }
    }
    out
}

/// What srview cannot stand behind in exactly placed blocks and in what
/// they write: [`block_doubts`], and, when those find nothing, whether the
/// result leaves Python misindented or a Makefile's recipe in spaces
/// ([`result_misindents`]: or a brace language's brackets unbalanced, a
/// name defined twice; `result` is asked for only then, and only for a
/// file whose layout is read: Python, a Makefile, by name or by
/// `original`'s first line, or a brace language by its extension,
/// [`crate::diagnose::layout::result_read`]). One sentence
/// each, without a final stop.
pub fn exact_doubts<R: AsRef<str>>(
    path: &str,
    original: &str,
    blocks: &[BlockReport],
    result: impl FnOnce() -> R,
) -> Vec<String> {
    sentences(exact_doubt_kinds(path, original, blocks, result))
}

/// [`exact_doubts`], each with its kind (`ElidesLines`,
/// `RepeatsNeighbours`, `Misindents`, `HiddenText`).
pub fn exact_doubt_kinds<R: AsRef<str>>(
    path: &str,
    original: &str,
    blocks: &[BlockReport],
    result: impl FnOnce() -> R,
) -> Vec<(EditDoubtKind, String)> {
    let mut doubts = block_doubt_kinds(path, original, blocks);
    // The result is put together only for a check that reads it.
    let layout = doubts.is_empty() && crate::diagnose::layout::result_read(path, original);
    let hidden = adds_hidden(blocks);
    if layout || hidden {
        let made = result();
        let result = made.as_ref();
        if layout {
            doubts.extend(result_misindents(path, original, result));
        }
        if hidden {
            doubts.extend(
                hidden_doubt(original, [result])
                    .map(|sentence| (EditDoubtKind::HiddenText, sentence)),
            );
        }
    }
    doubts
}

/// Whether an applied block's REPLACE text holds a bidirectional control
/// or a zero-width character ([`crate::diagnose::hidden`]): the result is
/// read for them only then.
pub fn adds_hidden(blocks: &[BlockReport]) -> bool {
    blocks.iter().any(|b| {
        b.state == BlockState::Applied && crate::diagnose::hidden::has_hidden(&b.replace_text)
    })
}

/// The hidden characters the diff's `result` (in pieces) adds to
/// `original`, in one sentence without a final stop.
pub fn hidden_doubt<'a>(
    original: &str,
    result: impl IntoIterator<Item = &'a str>,
) -> Option<String> {
    crate::diagnose::hidden::hidden_added(original, result).map(|h| h.describe("the diff"))
}

/// The fault Python (or make) finds in `result` (the file `path` as the
/// whole diff leaves it) where `original` had none, in one sentence
/// without a final stop; `None` for a file whose layout srview does not
/// read ([`crate::diagnose::layout::layout_break`]).
pub fn result_misindents(
    path: &str,
    original: &str,
    result: &str,
) -> Option<(EditDoubtKind, String)> {
    let fault = crate::diagnose::layout::layout_break(path, original, result)?;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    let sentence = format!("{RESULT_FAULT}{name} {}: {}", fault.leaves(), fault.why);
    Some((crate::dialect::edit::layout_kind(fault).0, sentence))
}

/// How a [`result_misindents`] sentence begins.
const RESULT_FAULT: &str = "the diff leaves ";

/// Whether `sentence` (one of [`crate::diagnose::doubt::held_back`]'s) is
/// a [`result_misindents`] fault of the whole result: `check` says it also
/// beside a block it cannot read as written.
pub fn is_result_fault(sentence: &str) -> bool {
    sentence.starts_with(RESULT_FAULT)
}

/// [`result_misindents`] for a result srview's own correction leaves,
/// where the diff as sent leaves no such fault: the correction is
/// withheld, and the diff's indentation is not blamed.
pub fn correction_misindents(path: &str, original: &str, result: &str) -> Option<String> {
    let fault = crate::diagnose::layout::layout_fault(path, original, result)?;
    let name = std::path::Path::new(path)
        .file_name()
        .map_or(path.into(), |n| n.to_string_lossy());
    Some(format!(
        "srview's correction leaves {name} {}: {}: the diff as sent leaves no such fault, so \
         the fault is the correction's and the correction is withheld",
        fault.leaves(),
        fault.why
    ))
}

/// [`correction_misindents`] of `corrected` (the file as srview's
/// correction leaves it) only where `sent` (the file as the edit as sent
/// leaves it, asked only then; `None`: it does not apply) has no such
/// fault: else the fault is the edit's own, said of it elsewhere. The one
/// judgement `fix` and every suggestion (`check --suggest`, the
/// previewer's copy) withhold a correction by.
pub fn correction_fault(
    path: &str,
    original: &str,
    corrected: &str,
    sent: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let why = correction_misindents(path, original, corrected)?;
    let sound = sent().is_some_and(|sent| result_misindents(path, original, &sent).is_none());
    sound.then_some(why)
}
