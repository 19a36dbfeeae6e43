//! The corrected input of a string-edit call (Gemini CLI's `replace`,
//! Qwen Code's, OpenCode's and pi's `edit`) srview stands behind: one
//! decision for the gate, `srview check --dialect` and `srview fix
//! --dialect`, so the three offer the same correction or give the same
//! reason for none (testers' 43b-04 and 43a-08: `check` and `fix` refused a
//! misindented edit the gate re-indented). The diagnosis' correction
//! ([`call_correct::correct`]), else the re-indented edits
//! ([`super::reindent`]); either withheld where a quote would change or a
//! trust check doubts it, as an exact edit's.

use serde_json::Value;

use super::judge::{exact_doubts_at, not_exact};
use super::quotes::{borrowed, drops_curly_quotes, own_curly_quotes, quotes_of};
use crate::dialect::call::CallOutcome;
use crate::dialect::call_correct::{self, Correction};
use crate::dialect::registry::{self, DialectRow};

/// The failed or loose edits of `input` explained and the correction
/// srview stands behind: `row`'s matcher ran over `content` at `path`
/// (`cwd` the agent's root) with `outcome`. In the [`Correction`]
/// returned, `input` is the corrected input offered, `withheld` why none
/// is (never both `None` when an edit is explained), and an edit's message
/// leaves out its diagnosis' "No corrected edit" sentence where the
/// re-indentation answers it. `None` as [`call_correct::correct`]'s.
pub fn settled(
    row: &DialectRow,
    input: &Value,
    (path, cwd): (&str, &str),
    content: &str,
    outcome: &CallOutcome,
) -> Option<Correction> {
    let correction = call_correct::correct(row, input, content, (path, cwd), outcome)?;
    // Computed once: it runs the agent's matcher again.
    let (reindented, reindent_why, superseded) = match correction.input {
        Some(_) => (None, None, Vec::new()),
        None => {
            let (fixed, superseded) =
                reindented_input(row, (input, cwd), path, content, &correction);
            match fixed {
                Ok(fixed) => (Some(fixed), None, superseded),
                Err(why) => (None, why, superseded),
            }
        }
    };
    let Correction {
        mut edits,
        input: diagnosed,
        withheld: diagnosis_withheld,
    } = correction;
    for explained in &mut edits {
        // The exact-string diagnosis withholds a correction the
        // re-indentation gives (or says why not): its sentence saying so
        // is left out.
        if superseded.contains(&explained.index)
            && let Some((said, _)) = explained.message.split_once(" No corrected edit:")
        {
            explained.message = said.to_string();
        }
    }
    let candidate = diagnosed.or(reindented);
    let own_pairs = |input: &Value| {
        row.strings
            .and_then(|fields| call_correct::pairs(fields, input))
            .unwrap_or_default()
    };
    let delta = |input: &Value| {
        let pairs = own_pairs(input);
        quotes_of(pairs.iter().map(|(o, n)| (o.as_str(), n.as_str())))
    };
    let dropped = candidate.as_ref().and_then(|fixed| {
        let (sent, fixed_pairs) = (own_pairs(input), own_pairs(fixed));
        own_curly_quotes(&borrowed(&sent), &borrowed(&fixed_pairs))
            .or_else(|| drops_curly_quotes(delta(input), delta(fixed)))
    });
    let doubted = candidate
        .as_ref()
        .filter(|_| dropped.is_none())
        .and_then(|fixed| correction_doubt(row, fixed, path, content));
    let corrected = candidate.filter(|_| dropped.is_none() && doubted.is_none());
    let withheld = match (
        &corrected,
        dropped.or(doubted).or(reindent_why).or(diagnosis_withheld),
    ) {
        (Some(_), _) => None,
        (None, Some(why)) => Some(why),
        (None, None) => Some("the corrected edit is in doubt (srview's trust checks)".into()),
    };
    Some(Correction {
        edits,
        input: corrected,
        withheld,
    })
}

/// The input of a call (Gemini's `replace`, Qwen's and OpenCode's `edit`,
/// pi's `edit` with one entry or several) with the old and new texts of
/// each edit srview's diagnosis could not place (`correction`)
/// re-indented as the file is ([`super::reindent`]), each as it would be
/// alone; an edit of several the agent places exactly is left as sent,
/// and one the re-indentation leaves but the diagnosis corrects (a
/// misspelt line) is sent as the diagnosis corrects it. Offered when the
/// agent's own matcher then places every edit exactly (pi: each against
/// the file as it was, none overlapping); `Err` as
/// [`super::reindent::reindented`]'s, its reason naming the edit of
/// several it is about, the edits nothing corrects, or that the matcher
/// does not place the re-indented edits together (a tester's find: one
/// misindented edit of pi's several was refused with the diagnosis'
/// "would land misindented", which the same edit alone got re-indented).
/// With it, the indices of the edits whose diagnosis' "no corrected edit"
/// sentence this answers (re-indented, or told why not).
fn reindented_input(
    row: &DialectRow,
    (input, cwd): (&Value, &str),
    path: &str,
    content: &str,
    correction: &call_correct::Correction,
) -> (Result<Value, Option<String>>, Vec<usize>) {
    let Some((fields, pairs)) = row
        .strings
        .and_then(|fields| Some((fields, call_correct::pairs(fields, input)?)))
    else {
        return (Err(None), Vec::new());
    };
    // The edits whose diagnosis' "no corrected edit" the re-indentation
    // answers: re-indented, or told why not. One alone: answered whatever
    // the re-indentation gives.
    let several = pairs.len() > 1;
    let mut superseded = Vec::new();
    let mut input = input.clone();
    // Why not, said of the first edit of several re-indenting tells; the
    // edits of several neither re-indenting nor the diagnosis corrects.
    let mut why_not: Option<String> = None;
    let mut uncorrected: Vec<String> = Vec::new();
    for (index, (old, new)) in pairs.iter().enumerate() {
        let Some(explained) = correction.edits.iter().find(|e| e.index == index) else {
            // Placed exactly as sent.
            continue;
        };
        let fixed = match super::reindent::reindented(path, old, new, content) {
            Ok(fixed) => {
                superseded.push(index);
                fixed
            }
            Err(why) if !several => {
                let told = why.is_some().then_some(index).into_iter().collect();
                return (Err(why), told);
            }
            Err(Some(why)) => {
                superseded.push(index);
                why_not.get_or_insert(format!(
                    "for edit {} of the {}, {why}",
                    index + 1,
                    pairs.len()
                ));
                continue;
            }
            // One of several that the diagnosis corrects as it is.
            Err(None) => match (&explained.corrected_old, &explained.corrected_new) {
                (Some(old), Some(new)) => (old.clone(), new.clone()),
                _ => {
                    uncorrected.push(format!("{}", index + 1));
                    continue;
                }
            },
        };
        input = call_correct::with_pair(fields, &input, index, &fixed.0, &fixed.1);
    }
    if !uncorrected.is_empty() {
        why_not = Some(format!(
            "srview cannot stand behind a correction of {} {} of the {}",
            if uncorrected.len() == 1 {
                "edit"
            } else {
                "edits"
            },
            uncorrected.join(", "),
            pairs.len()
        ));
    }
    if let Some(why) = why_not {
        return (Err(Some(why)), superseded);
    }
    let Some(check) = registry::run_on_file(row.value, &input, path, Some(content), cwd) else {
        return (Err(None), superseded);
    };
    let exact = check.outcome.ok
        && !check.outcome.edits.is_empty()
        && check
            .outcome
            .edits
            .iter()
            .all(|m| m.found.is_some() && !m.loose);
    let result = match (exact, several) {
        (true, _) => Ok(input),
        (false, false) => return (Err(None), Vec::new()),
        (false, true) => Err(Some(format!(
            "each edit re-indented as it would be alone, {} would not place them together \
             exactly ({})",
            row.title,
            not_exact(&check.outcome)
        ))),
    };
    (result, superseded)
}

/// Why srview cannot stand behind a corrected (or repaired) input of an
/// old/new-string matcher (Gemini CLI's `replace`, Qwen Code's, OpenCode's
/// and pi's `edit`): the trust checks of [`exact_doubts_at`] run on it as on
/// the file at `path`, so the checks that depend on the file's kind (Python
/// left misindented, [`crate::diagnose::doubt_indent`]) run too, as they do
/// for a Claude Code or Cline correction (the gate's `stand_behind`) and a Codex
/// patch's. A fresh tester's find: a re-indented repair wrote a new line at
/// a column no enclosing block has, and Gemini CLI ran it.
fn correction_doubt(row: &DialectRow, input: &Value, path: &str, content: &str) -> Option<String> {
    let doubts: Vec<String> = exact_doubts_at(row, input, path, Some(content), false)
        .into_iter()
        .map(|(_, why)| why)
        .collect();
    (!doubts.is_empty()).then(|| format!("the corrected edit is in doubt: {}", doubts.join("; ")))
}
