//! `srview check --json`: a diagnosis per block.

use serde::Serialize;

use crate::diagnose::{
    BlockDiagnosis, Closest, DiffLine, Difference, DifferenceKind, Reason, WordChange,
};
use crate::engine::Stage;

/// Whether the diff does what it reads as, and every block's diagnosis.
#[derive(Serialize)]
pub struct CheckReport<'a> {
    blocks: Vec<DiagnosisJson<'a>>,
    ok: bool,
}

impl<'a> CheckReport<'a> {
    pub fn new(blocks: &'a [BlockDiagnosis], ok: bool) -> Self {
        CheckReport {
            blocks: blocks.iter().map(DiagnosisJson::new).collect(),
            ok,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiagnosisJson<'a> {
    closest: Option<ClosestJson>,
    diff_lines: [usize; 2],
    differences: Vec<DifferenceJson<'a>>,
    index: usize,
    line_diff: Vec<DiffLineJson<'a>>,
    matched_lines: Option<[usize; 2]>,
    message: &'a str,
    misplaced: bool,
    out_of_order: bool,
    reason: Option<Reason>,
    risky: bool,
    stage: Option<Stage>,
    state: &'static str,
    suggestion: Option<&'a str>,
    tie: Option<[ClosestJson; 2]>,
    vague: bool,
    would_match: Option<Stage>,
}

impl<'a> DiagnosisJson<'a> {
    fn new(d: &'a BlockDiagnosis) -> Self {
        DiagnosisJson {
            closest: d.closest.map(ClosestJson::from),
            diff_lines: d.diff_lines,
            differences: d.differences.iter().map(DifferenceJson::new).collect(),
            index: d.index,
            line_diff: d.line_diff.iter().map(DiffLineJson::new).collect(),
            matched_lines: d.matched_lines,
            message: &d.message,
            misplaced: d.misplaced,
            out_of_order: d.out_of_order,
            reason: d.reason,
            risky: d.risky,
            stage: d.stage,
            state: d.state.name(),
            suggestion: d.suggestion.as_deref(),
            tie: d.tie.map(|t| t.map(ClosestJson::from)),
            vague: d.vague,
            would_match: d.would_match,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClosestJson {
    end_line: usize,
    similarity: f64,
    start_line: usize,
}

impl From<Closest> for ClosestJson {
    fn from(c: Closest) -> Self {
        ClosestJson {
            end_line: c.end_line,
            similarity: c.similarity,
            start_line: c.start_line,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DifferenceJson<'a> {
    file: Option<&'a str>,
    file_line: Option<usize>,
    kind: DifferenceKind,
    search: Option<&'a str>,
    search_line: Option<usize>,
    words: &'a [WordChange],
}

impl<'a> DifferenceJson<'a> {
    fn new(d: &'a Difference) -> Self {
        DifferenceJson {
            file: d.file.as_deref(),
            file_line: d.file_line,
            kind: d.kind,
            search: d.search.as_deref(),
            search_line: d.search_line,
            words: &d.words,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffLineJson<'a> {
    file_line: Option<usize>,
    search_line: Option<usize>,
    tag: &'static str,
    text: &'a str,
}

impl<'a> DiffLineJson<'a> {
    fn new(d: &'a DiffLine) -> Self {
        DiffLineJson {
            file_line: d.file_line,
            search_line: d.search_line,
            tag: d.tag.name(),
            text: &d.text,
        }
    }
}
