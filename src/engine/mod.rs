//! The SEARCH/REPLACE engine: a faithful port of Cline v4.0.10's
//! `constructNewFileContent` (v1 and v2) plus a report on every block.
//!
//! Pure: no I/O, no terminal types. Offsets inside are byte offsets into
//! UTF-8 text; `match_indices` are converted to UTF-16 code units at the
//! boundary, as the reference reports them.
//!
//! ```
//! use srview::engine::{apply, Options};
//! let diff = "------- SEARCH\nb\n=======\nB\n+++++++ REPLACE\n";
//! let out = apply(diff, "a\nb\nc\n", Options::default());
//! assert_eq!(out.result.unwrap().new_content, "a\nB\nc\n");
//! ```

mod blocks;
mod content;
// `fixes`, `js` and `matcher` are internals; they stay `pub` (hidden from
// the docs) only because the fuzz targets and integration tests check them
// directly (`fix_model_output`, `js_trim`, the three matchers).
#[doc(hidden)]
pub mod fixes;
#[doc(hidden)]
pub mod js;
pub(crate) mod markers;
#[doc(hidden)]
pub mod matcher;
pub(crate) mod offsets;
mod report;
pub mod session;
mod sink;
mod v1;
mod v2;

use serde::Serialize;

pub use content::{Piece, Spliced};
pub use matcher::LineIndex;

/// The reference's two parser versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Version {
    /// Cline's default: lenient structure, out-of-order blocks, whole-file fallback.
    #[default]
    V1,
    /// Class-based parser: strict structure, no whole-file fallback.
    V2,
}

impl Version {
    /// The word shown to users and written in JSON (`v1`, `v2`).
    pub fn name(self) -> &'static str {
        match self {
            Version::V1 => "v1",
            Version::V2 => "v2",
        }
    }
}

/// How one apply is run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Which of the reference's parsers to run.
    pub version: Version,
    /// `false` while the diff is still streaming (Cline's `!partial`).
    pub is_final: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            version: Version::V1,
            is_final: true,
        }
    }
}

/// The fallback stage that located a SEARCH block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Stage {
    /// The SEARCH text occurs byte for byte.
    Exact,
    /// Every line matches once both sides are trimmed of white space.
    LineTrimmed,
    /// The first and last lines match (trimmed) and the block has at least three lines; the middle
    /// lines are not compared.
    BlockAnchor,
    /// v1's last resort: the SEARCH text occurs byte for byte anywhere in the file, searched from
    /// its start rather than from the previous block's match.
    WholeFile,
    /// Empty SEARCH: a new file, or (v2) the whole file replaced.
    Empty,
}

impl Stage {
    /// The word shown to users and written in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Exact => "exact",
            Stage::LineTrimmed => "line-trimmed",
            Stage::BlockAnchor => "block-anchor",
            Stage::WholeFile => "whole-file",
            Stage::Empty => "empty",
        }
    }
}

/// Where a block is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockState {
    /// SEARCH lines are arriving; nothing matched yet.
    SearchStreaming,
    /// Matched; REPLACE lines are arriving.
    ReplaceStreaming,
    /// Closed (or closed by the end of a final apply) and applied.
    Applied,
    /// The reference threw on this block.
    Failed,
    /// Never took effect without an error: its SEARCH never reached a
    /// separator before the diff ended, or a new SEARCH marker cut it off.
    Dropped,
}

impl BlockState {
    /// The word shown to users and written in JSON (e.g. `search-streaming`).
    pub fn name(self) -> &'static str {
        match self {
            BlockState::SearchStreaming => "search-streaming",
            BlockState::ReplaceStreaming => "replace-streaming",
            BlockState::Applied => "applied",
            BlockState::Failed => "failed",
            BlockState::Dropped => "dropped",
        }
    }
}

/// A byte range of the original and the 1-based lines it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Span {
    /// Byte offset of the range's start in the original (0-based).
    pub start: usize,
    /// Byte offset just past the range's end (exclusive).
    pub end: usize,
    /// 1-based line of the original where the range starts.
    pub start_line: usize,
    /// `start_line - 1` when the range is empty.
    pub end_line: usize,
}

/// 1-based lines of the new content; `end_line = start_line - 1` when empty.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LineSpan {
    /// 1-based first line.
    pub start_line: usize,
    /// 1-based last line (inclusive); `start_line - 1` when the span is empty.
    pub end_line: usize,
}

/// What happened to one SEARCH/REPLACE block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockReport {
    /// 0-based position in the diff.
    pub index: usize,
    /// 1-based first and last diff lines of the block.
    pub diff_lines: [usize; 2],
    /// Where the block is in its life.
    pub state: BlockState,
    /// The fallback stage that located the SEARCH text; `None` until it matched.
    pub stage: Option<Stage>,
    /// Matched before the end of the previous block's match (v1 only, through
    /// [`Stage::WholeFile`]).
    pub out_of_order: bool,
    /// The matched range of the original. `end` is clamped to the file.
    pub original: Option<Span>,
    /// Where the replacement sits in the new content (in-order blocks while
    /// streaming; every applied block in final mode).
    pub replacement: Option<LineSpan>,
    /// Byte range of the replacement in the new content.
    #[serde(skip)]
    pub replacement_bytes: Option<(usize, usize)>,
    /// The SEARCH text as the matcher saw it (set when the separator arrives).
    #[serde(skip)]
    pub search_text: String,
    /// The REPLACE text streamed so far.
    #[serde(skip)]
    pub replace_text: String,
    /// The reference's error message when this block is the one that threw.
    pub error: Option<String>,
}

impl BlockReport {
    /// A block at position `index` spanning `diff_lines`, in `state`, not
    /// matched, with no texts and no error yet.
    pub fn new(index: usize, diff_lines: [usize; 2], state: BlockState) -> Self {
        BlockReport {
            index,
            diff_lines,
            state,
            stage: None,
            out_of_order: false,
            original: None,
            replacement: None,
            replacement_bytes: None,
            search_text: String::new(),
            replace_text: String::new(),
            error: None,
        }
    }
}

/// What a state machine step throws: the reference's `Error.message`,
/// before it is placed (block, diff line) in an [`ApplyError`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Thrown(pub(crate) String);

impl From<&str> for Thrown {
    fn from(message: &str) -> Self {
        Thrown(message.to_string())
    }
}

/// The reference threw: its message, and where in the diff it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApplyError {
    /// The reference's `Error.message`, word for word.
    pub message: String,
    /// Index of the block being processed, when there was one.
    pub block: Option<usize>,
    /// 1-based diff line being processed when it threw (none at finalization).
    pub diff_line: Option<usize>,
}

/// A one-line form of the reference's error message, for a status line:
/// `"The SEARCH block:\n<its text>\n...does not match anything in the
/// file."` becomes `"SEARCH text does not match anything in the file"`;
/// other messages keep their first line, without the colon that led to the
/// lines left out (`Failed to find expected lines in calc.py`).
pub fn error_headline(message: &str) -> String {
    let mut lines = message.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.next().unwrap_or("(empty error message)");
    if first == "The SEARCH block:"
        && let Some(verdict) = lines.next_back().and_then(|l| l.strip_prefix("..."))
    {
        return format!("SEARCH text {}", verdict.trim_end_matches('.'));
    }
    match first.strip_suffix(':') {
        Some(lead) if lines.next().is_some() => lead.to_string(),
        _ => first.to_string(),
    }
}

/// The reference returned. `C` is how the new content is held: a `String`,
/// or a [`Spliced`] over the original (no copy of the file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied<C = String> {
    /// The file's whole new content.
    pub new_content: C,
    /// Start of each applied block in the original, in UTF-16 code units.
    pub match_indices: Vec<usize>,
}

/// Result of one apply: the reference's answer plus the per-block report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome<C = String> {
    /// The new content, or the error the reference threw.
    pub result: Result<Applied<C>, ApplyError>,
    /// One report per block of the diff, in diff order (blocks after a throw are not reported).
    pub blocks: Vec<BlockReport>,
}

impl<C> Outcome<C> {
    /// The same outcome with its new content turned into something else.
    pub fn map_content<D>(self, f: impl FnOnce(C) -> D) -> Outcome<D> {
        Outcome {
            result: self.result.map(|a| Applied {
                new_content: f(a.new_content),
                match_indices: a.match_indices,
            }),
            blocks: self.blocks,
        }
    }

    /// How many blocks are [`BlockState::Applied`].
    pub fn applied_count(&self) -> usize {
        self.blocks
            .iter()
            .filter(|b| b.state == BlockState::Applied)
            .count()
    }

    /// How many blocks are [`BlockState::Failed`] (0 or 1: the reference stops at its first throw).
    pub fn failed_count(&self) -> usize {
        self.blocks
            .iter()
            .filter(|b| b.state == BlockState::Failed)
            .count()
    }
}

/// Applies `diff` to `original` exactly as the reference does.
pub fn apply(diff: &str, original: &str, options: Options) -> Outcome {
    let index = matcher::LineIndex::new(original);
    apply_indexed(diff, &index, options)
}

/// [`apply`] with a prebuilt line index of the original, for callers that
/// re-apply a growing diff to the same file.
pub fn apply_indexed(diff: &str, index: &matcher::LineIndex, options: Options) -> Outcome {
    let raw = run_version(diff, index, options);
    report::finish(raw, index)
}

/// [`apply_indexed`] with the new content as a [`Spliced`] over the
/// original instead of a copy of it.
pub fn apply_spliced(diff: &str, index: &matcher::LineIndex, options: Options) -> Outcome<Spliced> {
    let raw = run_version(diff, index, options);
    report::finish_with(raw, |sink| sink.into_content())
}

fn run_version(diff: &str, index: &matcher::LineIndex, options: Options) -> RawOutcome {
    match options.version {
        Version::V1 => run::<v1::V1>(diff, index, options.is_final),
        Version::V2 => run::<v2::V2>(diff, index, options.is_final),
    }
}

/// v1 and v2 as state machines fed one diff line at a time; the streaming
/// session keeps one between updates and forks it to finish a prefix.
pub(crate) trait Machine: Sized {
    /// v2's partial-marker pop knows only the canonical spellings.
    const STRICT: bool;
    /// v1's final mode rebuilds the content from its replacements.
    const FINAL_REBUILDS: bool;
    /// A fresh machine; `keep_text = false` tracks the content's counts only.
    fn new(keep_text: bool) -> Self;
    /// Processes one line (without its `\n`); `line_no` is 1-based.
    fn feed(&mut self, index: &LineIndex, line: &str, line_no: usize) -> Result<(), Thrown>;
    /// The end of the diff: `is_final` finalization, then the raw outcome.
    /// `keep_text = false` computes positions and lengths but no new content.
    fn finish(self, index: &LineIndex, is_final: bool, keep_text: bool) -> RawOutcome;
    /// The reference threw `message` while processing `diff_line`.
    fn fail(self, message: String, diff_line: Option<usize>) -> RawOutcome;
    /// A copy to finish a prefix with; without the new content built so far
    /// unless `keep_text`, and with the blocks' SEARCH and REPLACE texts
    /// empty unless `block_texts` (a non-final finish never reads them).
    fn fork(&self, keep_text: bool, block_texts: bool) -> Self;
}

/// The blocks of a machine for a fork: copied whole, or without their
/// SEARCH and REPLACE texts, which are the only parts that grow with the diff.
fn fork_blocks(blocks: &[BlockReport], block_texts: bool) -> Vec<BlockReport> {
    if block_texts {
        return blocks.to_vec();
    }
    blocks
        .iter()
        .map(|b| BlockReport {
            search_text: String::new(),
            replace_text: String::new(),
            error: b.error.clone(),
            ..*b
        })
        .collect()
}

fn run<M: Machine>(diff: &str, index: &LineIndex, is_final: bool) -> RawOutcome {
    // A final v1 apply rebuilds the content, so the streamed one is not built.
    let mut machine = M::new(!(is_final && M::FINAL_REBUILDS));
    for (i, line) in diff_lines(diff, M::STRICT).into_iter().enumerate() {
        if let Err(Thrown(message)) = machine.feed(index, line, i + 1) {
            return machine.fail(message, Some(i + 1));
        }
    }
    machine.finish(index, is_final, true)
}

/// Splits a diff on `\n` and drops a last line that may be half a marker.
/// `strict` is v2's test (canonical spellings only).
fn diff_lines(diff: &str, strict: bool) -> Vec<&str> {
    let mut lines = Vec::with_capacity(diff.len() / 32 + 1);
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', diff.as_bytes()) {
        lines.push(&diff[start..end]);
        start = end + 1;
    }
    lines.push(&diff[start..]);
    if lines
        .last()
        .is_some_and(|last| pops_last_line(last, strict))
    {
        lines.pop();
    }
    lines
}

/// Whether the reference drops `last`, the diff's last line, as possibly
/// half of a streamed marker.
pub(crate) fn pops_last_line(last: &str, strict: bool) -> bool {
    let known = if strict {
        last == markers::SEARCH_START || last == markers::SEPARATOR || last == markers::REPLACE_END
    } else {
        markers::is_marker(last)
    };
    markers::starts_like_marker(last) && !known
}

/// What v1/v2 hand to the report builder.
pub(crate) struct RawOutcome {
    /// The new content (or only its counts) and the UTF-16 match indices.
    pub result: Result<(sink::Sink, Vec<usize>), ApplyError>,
    pub blocks: Vec<BlockReport>,
    /// Where each block's replacement sits in the new content.
    pub placed: Vec<Option<(sink::Pos, sink::Pos)>>,
}

/// The reference's "does not match" message.
fn no_match_error(search: &str) -> String {
    format!(
        "The SEARCH block:\n{}\n...does not match anything in the file.",
        js::js_trim_end(search)
    )
}

impl BlockReport {
    /// Records where and how the block matched, with its lines: a
    /// streaming session records each match once, and every report after
    /// reuses them.
    fn record_match(&mut self, index: &LineIndex, found: matcher::Match, out_of_order: bool) {
        self.stage = Some(found.stage);
        self.out_of_order = out_of_order;
        self.original = Some(report::span(index, found.start, found.end));
    }
}

fn new_block(index: usize, line: usize) -> BlockReport {
    BlockReport::new(index, [line, line], BlockState::SearchStreaming)
}
