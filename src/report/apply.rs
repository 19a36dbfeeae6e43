//! `srview apply --json`: the reference's answer and a report per block.

use serde::{Serialize, Serializer};

use super::{WithWrite, WriteJson};
use crate::engine::{BlockReport, BlockState, LineSpan, Outcome, Span, Stage};

/// The one object `apply --json` prints. Blocks are serialized one at a
/// time as they are written, so a diff of many blocks costs no tree of
/// values in memory.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplyReport<'a> {
    #[serde(serialize_with = "blocks")]
    blocks: &'a [BlockReport],
    error: Option<&'a str>,
    match_indices: &'a [usize],
    /// The new content as text; `None` on error.
    new_content: Option<&'a str>,
    ok: bool,
}

impl<'a> ApplyReport<'a> {
    /// The report of `outcome`, whose new content reads as `content`.
    pub fn new<C>(outcome: &'a Outcome<C>, content: Option<&'a str>) -> Self {
        let (ok, match_indices, error) = match &outcome.result {
            Ok(a) => (true, &a.match_indices[..], None),
            Err(e) => (false, &[][..], Some(e.message.as_str())),
        };
        ApplyReport {
            blocks: &outcome.blocks,
            error,
            match_indices,
            new_content: content,
            ok,
        }
    }
}

/// Writes the report of `outcome` (without a newline).
pub fn write_apply<C>(
    out: &mut impl std::io::Write,
    outcome: &Outcome<C>,
    content: Option<&str>,
    write: Option<&WriteJson>,
) -> std::io::Result<()> {
    let report = WithWrite {
        report: ApplyReport::new(outcome, content),
        write,
    };
    serde_json::to_writer(out, &report).map_err(Into::into)
}

fn blocks<S: Serializer>(blocks: &&[BlockReport], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(blocks.iter().map(|b| BlockJson::new(b, None)))
}

/// One block in `apply --json` and in a transcript report (there with the
/// index of its call among the file's calls).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockJson<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    call: Option<usize>,
    diff_lines: [usize; 2],
    error: Option<&'a str>,
    index: usize,
    original: Option<SpanJson>,
    out_of_order: bool,
    replacement: Option<LineSpanJson>,
    stage: Option<Stage>,
    state: BlockState,
}

impl<'a> BlockJson<'a> {
    pub fn new(block: &'a BlockReport, call: Option<usize>) -> Self {
        BlockJson {
            call,
            diff_lines: block.diff_lines,
            error: block.error.as_deref(),
            index: block.index,
            original: block.original.map(SpanJson::from),
            out_of_order: block.out_of_order,
            replacement: block.replacement.map(LineSpanJson::from),
            stage: block.stage,
            state: block.state,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SpanJson {
    end: usize,
    end_line: usize,
    start: usize,
    start_line: usize,
}

impl From<Span> for SpanJson {
    fn from(s: Span) -> Self {
        SpanJson {
            end: s.end,
            end_line: s.end_line,
            start: s.start,
            start_line: s.start_line,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LineSpanJson {
    end_line: usize,
    start_line: usize,
}

impl From<LineSpan> for LineSpanJson {
    fn from(s: LineSpan) -> Self {
        LineSpanJson {
            end_line: s.end_line,
            start_line: s.start_line,
        }
    }
}
