//! `srview check FILE [DIFF]`: every block explained like a compiler error,
//! or as JSON; `--suggest` prints corrected blocks.

use crate::diagnose::Side;
use std::io::{IsTerminal, Write};

use super::load::{FinalInput, load_final};
use super::{CheckArgs, CmdResult};
use crate::diagnose::{self, BlockDiagnosis};
use crate::engine;
use crate::engine::matcher::LineIndex;
use crate::error::Error;

pub fn run(args: &CheckArgs) -> CmdResult {
    let sr = match load_final(&args.file, args.diff.as_deref(), args.engine, "check")? {
        FinalInput::SearchReplace(sr) => sr,
        FinalInput::Other(other) => return super::check_dialect::check(args, other),
        FinalInput::Agent(row, text) => return super::apply_call::check(args, row, &text),
    };
    let (original, diff, options) = (sr.original, sr.diff, sr.options);
    // One line index of the original serves the engine and the diagnosis.
    let index = LineIndex::new(&original);
    let outcome = engine::apply_indexed(&diff, &index, options);
    let mut blocks = diagnose::diagnose_indexed(&diff, &index, options, &outcome);
    // A Markdown hard break a suggestion would lose or add: kept as the
    // block means it, or no suggestion, saying why; a suggestion `fix`
    // would withhold (it misindents where the block as sent does not):
    // none, saying why.
    diagnose::settle_suggestions(
        &args.file.display().to_string(),
        &original,
        &diff,
        options,
        &mut blocks,
    );
    // A block the reference ignores (it never reached its separator, or its
    // markers end in `\r`) takes no effect, and a malformed block that
    // applies does not apply as it reads: the diff does not do what it says.
    // A diff without a block has nothing to check: the report says so
    // (JSON: a warning on stderr, `ok` false) and the exit status is 1, as
    // `fix` has nothing to fix. `apply` keeps the reference's answer.
    let no_block = blocks.is_empty();
    // What `apply --write` would hold back (a place in doubt, a cut-off
    // block, mixed line endings): the same diff exits 1 here too.
    let held = match &outcome.result {
        Ok(applied) => {
            let path = args.file.display().to_string();
            diagnose::doubt::held_back(
                &path,
                &diff,
                &blocks,
                &outcome.blocks,
                &original,
                [applied.new_content.as_str()],
            )
        }
        Err(_) => Vec::new(),
    };
    let ok = !no_block
        && outcome.result.is_ok()
        && !blocks.iter().any(BlockDiagnosis::misreads)
        && held.is_empty();
    if no_block && args.json {
        super::load::warn_no_block(args.diff.as_deref(), "nothing to check");
    }
    // `check --suggest > fixed.diff`: with stdout not a terminal, stdout gets
    // the corrected blocks and nothing else, so it parses (and applies) as a
    // diff; the report, the notes and the engine's verdict go to stderr.
    let blocks_only = args.suggest && !args.json && !std::io::stdout().is_terminal();
    let (report, blocks_text) = if args.json {
        let report = crate::report::CheckReport::new(&blocks, ok);
        let mut s = serde_json::to_string(&report).map_err(|e| Error::stdout(e.into()))?;
        s.push('\n');
        (s, String::new())
    } else {
        let to_terminal = if blocks_only {
            std::io::stderr().is_terminal()
        } else {
            std::io::stdout().is_terminal()
        };
        let color = std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && to_terminal;
        let file = args.file.display().to_string();
        let mut s = render(
            &file,
            &blocks,
            verdict(&outcome, &blocks, &held),
            &held,
            color,
        );
        let mut suggested = String::new();
        if args.suggest {
            if blocks_only {
                suggested = suggested_blocks(&blocks, &mut s);
            } else {
                s.push_str(&suggestions(&blocks));
            }
        }
        if let Err(e) = &outcome.result {
            let block = e
                .block
                .map(|b| format!("block #{}: ", b + 1))
                .unwrap_or_default();
            s.push_str(&format!(
                "engine: {block}{}\n",
                engine::error_headline(&e.message)
            ));
        }
        (s, suggested)
    };
    let io_err = Error::stdout;
    if blocks_only {
        let mut stderr = std::io::stderr().lock();
        // A closed stderr must not keep the blocks from stdout.
        let _ = stderr
            .write_all(report.as_bytes())
            .and_then(|()| stderr.flush());
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(blocks_text.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(io_err)?;
    } else {
        let mut stdout = std::io::stdout().lock();
        stdout
            .write_all(report.as_bytes())
            .and_then(|()| stdout.flush())
            .map_err(io_err)?;
    }
    Ok(if ok { 0 } else { 1 })
}

struct Paint {
    on: bool,
}

impl Paint {
    fn wrap(&self, code: &str, s: &str) -> String {
        if self.on {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }
}

/// Compiler-style report: one headline per block, the location, the diff.
/// What `check` concludes about the whole diff.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// It applies, every block as it reads.
    Applies,
    /// The reference applies it, but a block does not do what it reads as
    /// (ignored, malformed, cut off).
    AppliesNotAsItReads,
    /// The reference throws.
    DoesNotApply,
    /// It applies as it reads, but srview cannot stand behind writing it:
    /// `apply --write` holds it back.
    AppliesInDoubt,
}

/// What `check` concludes from the engine's outcome, the diagnosis and
/// what `apply --write` would hold the result back for (`held`).
pub fn verdict<C>(
    outcome: &engine::Outcome<C>,
    blocks: &[BlockDiagnosis],
    held: &[String],
) -> Verdict {
    if outcome.result.is_err() {
        Verdict::DoesNotApply
    } else if !blocks.iter().any(BlockDiagnosis::misreads) && !held.is_empty() {
        Verdict::AppliesInDoubt
    } else if !blocks.iter().any(BlockDiagnosis::misreads) {
        Verdict::Applies
    } else if outcome.applied_count() > 0 {
        Verdict::AppliesNotAsItReads
    } else {
        Verdict::DoesNotApply
    }
}

/// `held`: what `apply --write` would hold the result back for.
pub fn render(
    file: &str,
    blocks: &[BlockDiagnosis],
    verdict: Verdict,
    held: &[String],
    color: bool,
) -> String {
    let p = Paint { on: color };
    let mut s = String::new();
    for d in blocks {
        let (label, code) = if d.misreads() || d.state.is_failure() {
            ("error", "1;31")
        } else if d.reason.is_some() {
            ("warning", "1;33")
        } else {
            ("ok", "1;32")
        };
        let reason = d
            .reason
            .map(|r| format!("[{}]", r.code()))
            .unwrap_or_default();
        s.push_str(&format!(
            "{}: {}\n",
            p.wrap(code, &format!("{label}{reason}")),
            d.message
        ));
        // No line when the block has no place: `FILE:1` would be a guess.
        let at = d
            .closest
            .map(|c| c.start_line)
            .or(d.matched_lines.map(|m| m[0]))
            .map(|line| format!("{file}:{line}"))
            .unwrap_or_else(|| file.to_string());
        s.push_str(&format!(
            "  {} {at}  (diff lines {}-{})\n",
            p.wrap("1;34", "-->"),
            d.diff_lines[0],
            d.diff_lines[1]
        ));
        if d.reason.is_some() {
            for l in &d.line_diff {
                let code = match l.tag {
                    Side::Delete => "31",
                    Side::Insert => "32",
                    Side::Equal => "2",
                };
                // A carriage return is shown, not swallowed: a CRLF line and
                // its LF twin must not print alike.
                let body = match l.text.strip_suffix('\r') {
                    Some(rest) => format!("{rest}\u{240D}"),
                    None => l.text.clone(),
                };
                let text = format!("{} {body}", l.tag.sign());
                s.push_str(&format!(
                    "   {} {}\n",
                    p.wrap("1;34", "|"),
                    p.wrap(code, &text)
                ));
            }
            if !d.line_diff.is_empty() {
                s.push_str(&format!(
                    "   {} {}\n",
                    p.wrap("1;34", "="),
                    "- SEARCH text, + file"
                ));
            }
        }
    }
    let failing = blocks.iter().filter(|d| d.is_problem()).count();
    s.push_str(&if blocks.is_empty() {
        "no SEARCH/REPLACE block found: nothing to check\n".to_string()
    } else if verdict == Verdict::Applies {
        let warnings = if failing == 0 {
            String::new()
        } else {
            format!(" ({failing} with warnings)")
        };
        format!(
            "{}, the diff applies{warnings}\n",
            crate::words::count(blocks.len(), "block")
        )
    } else if verdict == Verdict::AppliesInDoubt {
        let mut out: String = held
            .iter()
            .map(|why| format!("{}: {why}\n", p.wrap("1;33", "held back")))
            .collect();
        // Held back for the result alone (its line endings, what exact
        // blocks write): no block is counted as needing attention.
        let attention = match failing {
            0 => String::new(),
            1 => " (1 needs attention)".to_string(),
            n => format!(" ({n} need attention)"),
        };
        out.push_str(&format!(
            "{}, the diff applies, but `apply --write` holds it back{attention}\n",
            crate::words::count(blocks.len(), "block"),
        ));
        out
    } else {
        let what = if verdict == Verdict::AppliesNotAsItReads {
            "applies but not as it reads"
        } else {
            "does not apply"
        };
        // What the result does to the file is said beside the blocks
        // misread (a tester's find: a line-trimmed block's IndentationError
        // or brackets left open were not).
        let faults: String = held
            .iter()
            .filter(|why| crate::diagnose::doubt_exact::is_result_fault(why))
            .map(|why| format!("{}: {why}\n", p.wrap("1;33", "held back")))
            .collect();
        format!(
            "{faults}{}, the diff {what} ({failing} {} attention)\n",
            crate::words::count(blocks.len(), "block"),
            if failing == 1 { "needs" } else { "need" }
        )
    });
    s
}

/// The corrected blocks alone, for a pipe: nothing between them that a
/// parser could read as text outside a block. A failing block without a
/// suggestion gets a note in `report` (bound for stderr) instead.
fn suggested_blocks(blocks: &[BlockDiagnosis], report: &mut String) -> String {
    let mut s = String::new();
    for d in blocks.iter().filter(|d| d.is_problem()) {
        match &d.suggestion {
            Some(block) => s.push_str(block),
            None => report.push_str(&format!("block #{}: {}\n", d.index + 1, no_suggestion(d))),
        }
    }
    s
}

/// The corrected blocks, ready to paste back.
fn suggestions(blocks: &[BlockDiagnosis]) -> String {
    let mut s = String::new();
    for d in blocks.iter().filter(|d| d.is_problem()) {
        match &d.suggestion {
            Some(block) => {
                s.push_str(&format!("\n# suggested block #{}\n", d.index + 1));
                s.push_str(block);
            }
            None => s.push_str(&format!(
                "\n# block #{}: {}\n",
                d.index + 1,
                no_suggestion(d)
            )),
        }
    }
    s
}

/// Why a block that needs attention has no suggestion.
fn no_suggestion(d: &BlockDiagnosis) -> std::borrow::Cow<'static, str> {
    if let Some(why) = &d.withheld {
        return format!("no suggestion ({why})").into();
    }
    let stage = d.stage.or(d.would_match);
    if d.reason.is_none() && stage == Some(engine::Stage::Exact) {
        // Not reached after an earlier failure, but fine on its own.
        "no suggestion needed (it matches exactly on its own)"
    } else if d.tie.is_some() {
        "no suggestion (two regions are about equally similar)"
    } else if d.vague {
        "no suggestion (every SEARCH line occurs several times in the file)"
    } else if d.risky && d.closest.is_some() {
        "no suggestion (the region is a guess: see the message)"
    } else if d.closest.is_none() {
        "no suggestion (no similar region in the file)"
    } else {
        "no suggestion (its region cannot be quoted in a block, or where the block starts or ends is unclear)"
    }
    .into()
}
