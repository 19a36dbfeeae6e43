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
