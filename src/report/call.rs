//! `apply --json` and `check --json` for an agent's own matcher
//! (`--dialect aider-diff`, `opencode-edit`, ...): the agent's result as the
//! model reads it, and how each edit matched.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::dialect::call::{CallOutcome, EditMatch};

/// One tool call's result. Keys in sorted order, as every one-object report.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallReport<'a> {
    /// Each edit (block, `edits[]` entry, hunk) in input order.
    pub blocks: Vec<CallBlock<'a>>,
    /// `check`: the tool input with its failed or loose edits corrected,
    /// checked with the agent's own matcher (null when srview cannot stand
    /// behind one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub corrected_input: Option<Option<&'a serde_json::Value>>,
    /// `check`: why no corrected input is offered (the gate's reason),
    /// where `correctedInput` is null.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub correction_withheld: Option<&'a str>,
    /// The `--dialect` value.
    pub dialect: &'a str,
    /// The agent's error text, exactly as the model reads it.
    pub error: Option<&'a str>,
    /// `check`: why each failed or loose edit failed or matched loosely,
    /// and where it was meant to go.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explained: Option<Vec<Explained<'a>>>,
    /// For a whole patch over a folder: every file the agent leaves changed
    /// (its path as the patch's folder names it; null: deleted).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub files: Option<BTreeMap<&'a str, Option<&'a str>>>,
    /// The agent's own code would never return on this input.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub hangs: bool,
    /// The agent's success text.
    pub message: Option<&'a str>,
    /// For one file: the file as the agent leaves it (null: not written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_content: Option<Option<&'a str>>,
    /// The agent succeeds.
    pub ok: bool,
    /// Line ranges (1-based, first and last) of the file before that the
    /// agent's write changed although no edit covered them (pi's whole-file
    /// normalization).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rewritten_outside: Vec<[usize; 2]>,
    /// How the call matched, the agent's own name.
    pub stage: Option<&'a str>,
    /// Line ranges (1-based, first and last) that the call's edits
    /// replacing every occurrence changed beyond their blocks' `lines`: all
    /// blocks' `alsoReplaced` together (kept for the replace-all tools'
    /// readers; each block's own says which edit changed them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_replaced: Vec<[usize; 2]>,
    /// Lines of the input the agent's parser drops, one sentence per hunk
    /// ([`CallOutcome::dropped`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub dropped: Vec<&'a str>,
}

/// One failed or loose edit explained.
#[derive(Serialize)]
pub struct Explained<'a> {
    /// The edit's number, from 1.
    pub edit: usize,
    /// Why, and where it was meant to go.
    pub message: &'a str,
}

/// How one edit matched.
#[derive(Serialize)]
pub struct CallBlock<'a> {
    /// Line ranges (1-based, first and last, of the text the edit was
    /// searched in) that the edit, replacing every occurrence, changed
    /// beyond its `lines`.
    #[serde(rename = "alsoReplaced", skip_serializing_if = "Vec::is_empty")]
    pub also_replaced: Vec<[usize; 2]>,
    /// 1-based first and last line of the file it replaced.
    pub lines: Option<[usize; 2]>,
    /// Placed by any stage but the exact one.
    pub loose: bool,
    /// The path the edit names, where the agent applied it to another file
    /// (Aider retries a block whose SEARCH fails on its own file on every
    /// chat file): a doubt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub named: Option<&'a str>,
    /// The agent's own name for the stage that placed it.
    pub stage: &'a str,
    /// Lines of the text written that differ from the model's new text (a
    /// loose stage's re-indentation, `check` only).
    #[serde(rename = "writtenDiffers", skip_serializing_if = "Vec::is_empty")]
    pub written_differs: Vec<WrittenLine>,
}

/// One line of an edit's written text that is not the model's.
#[derive(Serialize)]
pub struct WrittenLine {
    /// The line of the new text, from 1.
    pub line: usize,
    /// The line as the agent writes it.
    pub written: String,
    /// The line as the model wrote it.
    pub model: String,
}

impl<'a> CallReport<'a> {
    /// The report of `outcome` run by `dialect`; `new_content` for a
    /// one-file call, `files` for a whole patch.
    pub fn new(dialect: &'a str, outcome: &'a CallOutcome) -> Self {
        CallReport {
            blocks: outcome.edits.iter().map(CallBlock::new).collect(),
            corrected_input: None,
            correction_withheld: None,
            dialect,
            error: outcome.error.as_deref(),
            explained: None,
            files: None,
            hangs: outcome.hangs,
            message: outcome.message.as_deref(),
            new_content: None,
            ok: outcome.ok,
            rewritten_outside: outcome
                .rewritten_outside
                .iter()
                .map(|&(first, last)| [first, last])
                .collect(),
            stage: outcome.stage.as_deref(),
            also_replaced: outcome
                .also_replaced
                .iter()
                .map(|&(first, last)| [first, last])
                .collect(),
            dropped: outcome.dropped.iter().map(String::as_str).collect(),
        }
    }
}

impl<'a> CallBlock<'a> {
    fn new(edit: &'a EditMatch) -> Self {
        CallBlock {
            lines: edit.lines.map(|(first, last)| [first, last]),
            loose: edit.loose,
            named: edit.named.as_deref(),
            stage: &edit.stage,
            written_differs: Vec::new(),
            also_replaced: edit
                .also_replaced
                .iter()
                .map(|&(first, last)| [first, last])
                .collect(),
        }
    }
}

/// One update of `apply --stream` on an agent's tool input still arriving
/// (the last line is the [`CallReport`] of the whole input, with `seq`,
/// `bytes` and `"final": true`). Keys in sorted order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallStreamLine<'a> {
    /// Input bytes this line covers.
    pub bytes: usize,
    /// The `--dialect` value.
    pub dialect: &'a str,
    /// Each edit arrived so far, in input order (string-edit dialects; a
    /// patch or an Aider reply lists none until it is whole).
    pub edits: Vec<PrefixEdit>,
    /// Always false: the last line is the agent's own result.
    #[serde(rename = "final")]
    pub is_final: bool,
    /// 1-based.
    pub seq: usize,
}

/// Where an edit's old text, as far as it has arrived, stands in the file.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct PrefixEdit {
    /// Its old text is still arriving.
    pub arriving: bool,
    /// `waiting` (no old text yet), `exact` (found once, exactly),
    /// `several` (found more than once so far), `not-exact` (not found as
    /// it stands: the agent's loose stages run once the input is whole).
    pub found: &'static str,
    /// 1-based, in the input's order.
    pub index: usize,
    /// The lines of the one exact place (`exact` only).
    pub lines: Option<[usize; 2]>,
}
