//! A file that several tool calls of a transcript edit, shown whole: what
//! accepting writes is every call's result in turn, so the tab shows every
//! call's blocks, grouped by call, not only the last call's. Pure.
//!
//! The calls' diffs are shown as one diff over the file as it was before
//! the first call when that diff gives exactly what the calls give one
//! after another (checked: the reference's result of the joined diff is the
//! file after the last call, and no block needed the out-of-order
//! fallback). Otherwise a later call edits what an earlier one wrote, no
//! diff over the first text shows them, and the tab shows the calls'
//! combined change as a whole-file edit, saying why.

use crate::engine::{self, BlockState, Options};
use crate::source::transcript::{ApplyOptions, CallKind, FileEdit, FileState, ToolCall};

/// The blocks of one call in the joined diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallGroup {
    /// The index of the call's first block in the joined diff.
    pub first_block: usize,
    /// How the block list names the call: `call 2`.
    pub label: String,
}

/// How a file edited by several calls is shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallsView {
    /// The calls' diffs joined, over the file before the first call.
    Joined {
        diff: String,
        groups: Vec<CallGroup>,
    },
    /// The calls' combined change as a whole-file edit, and why.
    Whole { why: String },
    /// Call `call` (0-based) does not apply: it is shown alone, over the
    /// text the calls before it left, where its failure is diagnosed (the
    /// joined diff could apply it where it does not), and `why` says so.
    Failed { call: usize, why: String },
}

/// How `edit` (several calls of `calls`) is shown (see the module's doc).
pub fn view(calls: &[ToolCall], edit: &FileEdit, options: ApplyOptions) -> CallsView {
    let n = edit.calls.len();
    if let Some(k) = edit.calls.iter().position(|c| c.error().is_some()) {
        return CallsView::Failed {
            call: k,
            why: format!(
                "call {} of the {n} calls on this file does not apply: shown alone, over the \
                 text the calls before it left",
                k + 1
            ),
        };
    }
    if let Some(k) = edit
        .calls
        .iter()
        .position(|c| c.kind == CallKind::WriteToFile)
    {
        return CallsView::Whole {
            why: format!(
                "{n} calls edit this file, and call {} writes it whole: shown as their combined \
                 change, which is what a writes",
                k + 1
            ),
        };
    }
    let body = |i: usize| {
        calls
            .get(edit.calls[i].call)
            .map_or("", |c| c.body.as_str())
    };
    let mut diff = String::new();
    let mut groups = Vec::with_capacity(n);
    let mut blocks = 0;
    for i in 0..n {
        groups.push(CallGroup {
            first_block: blocks,
            label: format!("call {}", i + 1),
        });
        let text = body(i);
        blocks += crate::diagnose::block_spans(text, options.version).len();
        diff.push_str(text);
        if i + 1 < n && !text.is_empty() && !text.ends_with('\n') {
            diff.push('\n');
        }
    }
    // What the joined diff must give: the file after the last call, or,
    // while the last call streams, after the call before it.
    let last = &edit.calls[n - 1];
    let (upto, want) = if last.partial {
        (n - 1, edit.calls[n - 2].content())
    } else {
        (n, last.content())
    };
    let Some(want) = want else {
        // No result to match (cannot be: a failed call is shown alone).
        return CallsView::Whole {
            why: format!("{n} calls edit this file: shown as their combined change"),
        };
    };
    let joined: String = (0..upto)
        .map(|i| {
            let text = body(i);
            if !text.is_empty() && !text.ends_with('\n') {
                format!("{text}\n")
            } else {
                text.to_string()
            }
        })
        .collect();
    let path = std::path::Path::new(&edit.path);
    let input = engine::fixes::engine_input(&joined, path, options.fix_model_output);
    let outcome = engine::apply(
        &input,
        edit.before(),
        Options {
            version: options.version,
            is_final: true,
        },
    );
    let same = outcome.result.as_ref().is_ok_and(|a| a.new_content == want);
    let in_order = outcome
        .blocks
        .iter()
        .all(|b| !b.out_of_order && b.state != BlockState::Dropped);
    if same && in_order && edit.state != FileState::Refused {
        CallsView::Joined { diff, groups }
    } else {
        CallsView::Whole {
            why: format!(
                "{n} calls edit this file, and a later one edits what an earlier one wrote, so \
                 their blocks cannot all be shown over the file as it was: shown as their \
                 combined change, which is what a writes"
            ),
        }
    }
}

/// The change from `before` to `after` as SEARCH/REPLACE blocks, each
/// changed run with a line of context on either side, that the reference
/// applies exactly (every block at stage `exact`) to give `after`: how a
/// combined change of several calls is shown block by block. `None` when
/// no such blocks can be made (an empty or new file, a last line without
/// its newline, a run whose lines occur earlier too).
pub fn combined_blocks(before: &str, after: &str) -> Option<String> {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let new: Vec<&str> = after.split_inclusive('\n').collect();
    if old.is_empty() || before == after {
        return None;
    }
    // Changed runs as (old range, new range), with one line of context
    // each side, runs that touch merged.
    let mut runs: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    for op in crate::textdiff::ops(&old, &new, None) {
        if matches!(op, similar::DiffOp::Equal { .. }) {
            continue;
        }
        let (o, n) = (op.old_range(), op.new_range());
        let before_ctx = usize::from(o.start > 0);
        let after_ctx = usize::from(o.end < old.len());
        let o = o.start - before_ctx..o.end + after_ctx;
        let n = n.start - before_ctx..n.end + after_ctx;
        match runs.last_mut() {
            // The lines between two runs are equal lines, one for one: a
            // run that reaches the next one's context merges with it.
            Some((po, pn)) if o.start <= po.end => {
                po.end = po.end.max(o.end);
                pn.end = pn.end.max(n.end);
            }
            _ => runs.push((o, n)),
        }
    }
    let mut diff = String::new();
    for (o, n) in runs {
        let search: String = old.get(o)?.concat();
        if search.is_empty() || !search.ends_with('\n') {
            return None;
        }
        let replace: String = new.get(n)?.concat();
        diff.push_str(&format!(
            "------- SEARCH\n{search}=======\n{replace}+++++++ REPLACE\n"
        ));
    }
    let options = Options {
        version: engine::Version::V1,
        is_final: true,
    };
    let out = engine::apply(&diff, before, options);
    let exact = out
        .blocks
        .iter()
        .all(|b| b.state == BlockState::Applied && b.stage == Some(engine::Stage::Exact));
    (exact && out.result.ok()?.new_content == after).then_some(diff)
}

/// The blocks of `edit`'s calls that matched only through a fallback, in
/// words ("call 1's block #3 matched only line-trimmed"): a combined
/// change shows exact blocks of its own, so these are said beside it.
pub fn loose_blocks(edit: &FileEdit) -> Vec<String> {
    let mut out = Vec::new();
    for (k, call) in edit.calls.iter().enumerate() {
        let Some(outcome) = &call.outcome else {
            continue;
        };
        for b in &outcome.blocks {
            if let Some(stage) = b
                .stage
                .filter(|s| !matches!(s, engine::Stage::Exact | engine::Stage::Empty))
            {
                out.push(format!(
                    "call {}'s block #{} matched only {}",
                    k + 1,
                    b.index + 1,
                    stage.name()
                ));
            }
        }
    }
    out
}

/// The calls' diffs as they were sent, one after another (each ended by
/// a newline): what `v` shows for a file edited by several calls, and the
/// text a [`CallBlock`]'s lines count in.
pub fn sent_diffs(calls: &[ToolCall], edit: &FileEdit) -> String {
    edit.calls
        .iter()
        .map(|c| calls.get(c.call).map_or("", |t| t.body.as_str()))
        .map(|text| {
            if !text.is_empty() && !text.ends_with('\n') {
                format!("{text}\n")
            } else {
                text.to_string()
            }
        })
        .collect()
}

/// `v`'s title over [`sent_diffs`]: whose diffs they are and where each
/// call's starts.
pub fn sent_title(calls: &[ToolCall], edit: &FileEdit) -> String {
    let starts: Vec<String> = sent_starts(calls, edit)
        .iter()
        .enumerate()
        .skip(1)
        .map(|(k, line)| format!("call {} from line {}", k + 1, line + 1))
        .collect();
    format!(
        "the {} calls' diffs as received ({})",
        edit.calls.len(),
        starts.join(", ")
    )
}

/// Per call, how many lines of [`sent_diffs`] come before its diff.
fn sent_starts(calls: &[ToolCall], edit: &FileEdit) -> Vec<usize> {
    let mut starts = Vec::with_capacity(edit.calls.len());
    let mut line = 0;
    for c in &edit.calls {
        starts.push(line);
        line += calls.get(c.call).map_or(0, |t| t.body.lines().count());
    }
    starts
}

/// One call's block behind a block of the combined change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallBlock {
    /// The call (0-based, among the file's calls).
    pub call: usize,
    /// The block (0-based, in the call's diff).
    pub block: usize,
    /// How it matched.
    pub stage: engine::Stage,
    /// Its 1-based first and last lines in [`sent_diffs`] (what `v` shows).
    pub lines: [usize; 2],
}

/// What one block of a combined change (see [`combined_blocks`]) is made
/// of: the calls' blocks whose lines it covers. srview made the block;
/// these are what the model sent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CombinedRow {
    pub from: Vec<CallBlock>,
}

impl CombinedRow {
    /// The stage the block list gives the row: its one call block's, or
    /// the loosest of its call blocks' when one matched loosely; `None`
    /// when it is several exact blocks, or none can be tied to it (the
    /// list says `combined`, never `exact`).
    pub fn stage(&self) -> Option<engine::Stage> {
        if let [one] = self.from.as_slice() {
            return Some(one.stage);
        }
        let rank = |s: engine::Stage| match s {
            engine::Stage::Exact | engine::Stage::Empty => 0,
            engine::Stage::LineTrimmed => 1,
            engine::Stage::BlockAnchor => 2,
            engine::Stage::WholeFile => 3,
        };
        self.from
            .iter()
            .map(|b| b.stage)
            .filter(|&s| rank(s) > 0)
            .max_by_key(|&s| rank(s))
    }
}

/// Per block of the combined change (`rows`, the engine's blocks of the
/// diff [`combined_blocks`] made), the calls' blocks it covers: a call's
/// block, placed where its replacement lies in the file after every call,
/// belongs to each combined block sharing a line with it.
pub fn combined_rows(
    calls: &[ToolCall],
    edit: &FileEdit,
    rows: &[engine::BlockReport],
) -> Vec<CombinedRow> {
    let last: Vec<&str> = edit.content().split_inclusive('\n').collect();
    let starts = sent_starts(calls, edit);
    let mut out = vec![CombinedRow::default(); rows.len()];
    for (k, call) in edit.calls.iter().enumerate() {
        let (Some(outcome), Some(after)) = (&call.outcome, call.content()) else {
            continue;
        };
        let lines: Vec<&str> = after.split_inclusive('\n').collect();
        let ops = crate::textdiff::ops(&lines, &last, None);
        for b in &outcome.blocks {
            let (Some(stage), Some(r)) = (b.stage, b.replacement) else {
                continue;
            };
            let placed = carried(&ops, r.start_line.saturating_sub(1)..r.end_line);
            let block = CallBlock {
                call: k,
                block: b.index,
                stage,
                lines: [starts[k] + b.diff_lines[0], starts[k] + b.diff_lines[1]],
            };
            for (row, report) in out.iter_mut().zip(rows) {
                let Some(shown) = report.replacement else {
                    continue;
                };
                let shown = shown.start_line.saturating_sub(1)..shown.end_line;
                let meets = if placed.is_empty() {
                    shown.start <= placed.start && placed.start <= shown.end
                } else {
                    placed.start < shown.end && shown.start < placed.end
                };
                if meets {
                    row.from.push(block.clone());
                }
            }
        }
    }
    out
}

/// Where the lines `range` (0-based) of a text lie in the text `ops`
/// changes it into: an equal line where it went, a changed one as the
/// whole change it is part of; an empty range as the point it lies at.
fn carried(ops: &[similar::DiffOp], range: std::ops::Range<usize>) -> std::ops::Range<usize> {
    let mut found: Option<std::ops::Range<usize>> = None;
    for op in ops {
        let (o, n) = (op.old_range(), op.new_range());
        let hit = if range.is_empty() {
            (o.start <= range.start && range.start < o.end.max(o.start + 1)).then(|| match op {
                similar::DiffOp::Equal { .. } => {
                    let at = n.start + (range.start - o.start);
                    at..at
                }
                _ => n.clone(),
            })
        } else {
            let (lo, hi) = (range.start.max(o.start), range.end.min(o.end));
            (lo < hi).then(|| match op {
                similar::DiffOp::Equal { .. } => n.start + (lo - o.start)..n.start + (hi - o.start),
                _ => n.clone(),
            })
        };
        if let Some(h) = hit {
            found = Some(match found {
                Some(f) => f.start.min(h.start)..f.end.max(h.end),
                None => h,
            });
            if range.is_empty() {
                break;
            }
        }
    }
    found.unwrap_or_else(|| {
        let end = ops.last().map_or(0, |op| op.new_range().end);
        end..end
    })
}

#[cfg(test)]
mod tests {
    use super::{CallBlock, CombinedRow, carried, combined_blocks};
    use crate::engine::Stage;

    /// A combined block's stage: its one call block's; the loosest of
    /// several; none (`combined`) for several exact blocks or none at all,
    /// never `exact` for a block no one call sent.
    #[test]
    fn a_combined_row_is_exact_only_as_one_exact_call_block() {
        let block = |stage| CallBlock {
            call: 0,
            block: 0,
            stage,
            lines: [1, 5],
        };
        let row = |stages: &[Stage]| CombinedRow {
            from: stages.iter().map(|&s| block(s)).collect(),
        };
        assert_eq!(row(&[Stage::Exact]).stage(), Some(Stage::Exact));
        assert_eq!(row(&[Stage::LineTrimmed]).stage(), Some(Stage::LineTrimmed));
        assert_eq!(row(&[Stage::Exact, Stage::Exact]).stage(), None);
        assert_eq!(row(&[]).stage(), None);
        assert_eq!(
            row(&[Stage::LineTrimmed, Stage::Exact, Stage::BlockAnchor]).stage(),
            Some(Stage::BlockAnchor)
        );
    }

    /// Lines carried through a later change: an equal line to where it
    /// went, a changed one to the whole change, an empty range to its point.
    #[test]
    fn lines_are_carried_through_a_later_change() {
        let old = ["a\n", "b\n", "c\n", "d\n"];
        let new = ["x\n", "a\n", "B\n", "B2\n", "c\n", "d\n"];
        let ops = crate::textdiff::ops(&old, &new, None);
        assert_eq!(carried(&ops, 0..1), 1..2, "a moved down one");
        assert_eq!(carried(&ops, 1..2), 2..4, "b became B, B2");
        assert_eq!(carried(&ops, 2..4), 4..6);
        assert_eq!(carried(&ops, 3..3), 5..5, "the point before d");
    }

    /// The blocks made of a change apply exactly and give the text after;
    /// changes close together are one block; no blocks for a new file.
    #[test]
    fn a_combined_change_reads_as_exact_blocks() {
        let before = "a\nb\nc\nd\ne\nf\ng\n";
        let after = "a\nB\nc\nd\ne\nF\nG\nh\n";
        let diff = combined_blocks(before, after).expect("blocks");
        assert_eq!(diff.matches("------- SEARCH").count(), 2, "{diff}");
        let out = crate::engine::apply(&diff, before, crate::engine::Options::default());
        assert_eq!(out.result.expect("applies").new_content, after);
        assert_eq!(combined_blocks("", "x\n"), None);
        assert_eq!(combined_blocks(before, before), None);
        // A run whose lines occur earlier too lands there: none.
        assert_eq!(combined_blocks("x\ny\nx\ny\n", "x\ny\nx\nY\n"), None);
    }
}
