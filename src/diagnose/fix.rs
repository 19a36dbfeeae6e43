//! A whole diff corrected so that every block applies with the exact stage
//! at the place the diagnosis names: what `srview fix` prints (a diff to
//! hand back to a model, or to apply). Pure: no I/O.
//!
//! Contract:
//! - A block that applies exactly (engine stage `exact`, in order) is kept
//!   as written. Every other block is replaced by its diagnosis suggestion:
//!   SEARCH = the file's lines of its region, REPLACE = the block's REPLACE.
//! - The reference searches block N+1 in the original after block N's match,
//!   so the blocks are printed in file order (an out-of-order diff comes out
//!   sorted) and a suggestion's context lines (grown until the first
//!   occurrence after the previous block is the intended one) never reach
//!   into a neighbour's region.
//! - The planned diff is applied before it is printed: every block must
//!   match where planned, with the planned stage, and give the planned
//!   content. A block that fails any of this is not placed.
//! - A block without a place (no similar region, a region another block
//!   already edits, a suggestion withheld, ...) is kept as written and
//!   named in a [`Note`] marked `unplaced` (`srview fix` says it on stderr
//!   and exits 1). Without such a note, the diff applies and every block
//!   got the place the diagnosis names.
//! - The output is the diff the engine sees: with `--fix-model-output` it is
//!   already cleaned, and is applied without the flag. Text between blocks
//!   is not printed.

use crate::diagnose::{self, BlockDiagnosis, Reason, Status};
use crate::engine::markers::{
    REPLACE_END, SEARCH_START, SEPARATOR, canonical_block, is_marker, is_replace_end,
    is_search_start, is_separator, whole_lines,
};
use crate::engine::matcher::{self, LineIndex};
use crate::engine::{self, BlockReport, BlockState, Options, Outcome, Stage};
use crate::words::line_range;

/// The corrected diff and what is to be said about its blocks.
#[derive(Debug)]
pub struct Fixed {
    /// The diff, blocks only, in file order (canonical markers for the
    /// corrected ones).
    pub diff: String,
    /// One per block that was corrected or could not be placed.
    pub notes: Vec<Note>,
    /// The diff has no block at all.
    pub no_block: bool,
}

/// What happened to one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    /// 0-based block index in the diff, as written.
    pub block: usize,
    /// 1-based first and last lines of the block in the diff.
    pub diff_lines: [usize; 2],
    /// What happened, after "block #N (diff lines a-b) "; `{FILE}` stands
    /// for the file's name.
    pub text: String,
    /// The block was kept as written without a place: exit 1.
    pub unplaced: bool,
}

impl Note {
    /// The note in one line, `file` named where the text names the file:
    /// "block #2 (diff lines 6-11) ...".
    pub fn line(&self, file: &str) -> String {
        format!(
            "block #{} ({}) {}",
            self.block + 1,
            line_range("diff line", self.diff_lines[0], self.diff_lines[1]),
            self.text.replace("{FILE}", file)
        )
    }
}

/// Where a block goes and how it is written.
#[derive(Debug, Clone)]
struct Placed {
    block: usize,
    /// Byte range of the original the block edits (its region, context excluded).
    core: (usize, usize),
    /// The REPLACE text for `core` (context excluded), for the planned content.
    replace: String,
    how: How,
}

#[derive(Debug, Clone)]
enum How {
    /// Written as in the diff (closed if the diff left it open): it
    /// matches exactly at `core.0`.
    Kept { text: String, search: String },
    /// Quote the file's lines: 0-based lines `lines.0..lines.1`, `core` as
    /// whole lines, with `replace_lines` (no `\n`) as REPLACE.
    Corrected {
        lines: (usize, usize),
        replace_lines: Vec<String>,
        /// The diagnosis's own block, printed as is when it fits.
        suggestion: String,
    },
}

/// A block ready to print: its text, where its SEARCH text starts and ends
/// in the original (the end clamped to the text, as the engine reports a
/// match), and the stage it must match with.
struct Built {
    text: String,
    search_span: (usize, usize),
    stage: Stage,
}

/// The corrected diff for `diff` on `original`: planned from the
/// diagnosis, then applied to check that every block matches where planned
/// with the planned stage and gives the planned content.
///
/// ```
/// use srview::{Options, apply, fix};
/// let file = "fn main() {\n    let x = 1;\n}\n";
/// // Indented by two where the file has four: only white space differs.
/// let diff = "------- SEARCH\n  let x = 1;\n=======\n  let x = 2;\n+++++++ REPLACE\n";
/// let fixed = fix(diff, file, Options::default());
/// assert!(fixed.notes.iter().all(|n| !n.unplaced));
/// let out = apply(&fixed.diff, file, Options::default());
/// assert_eq!(out.result.unwrap().new_content, "fn main() {\n    let x = 2;\n}\n");
/// ```
pub fn fix(diff: &str, original: &str, options: Options) -> Fixed {
    fix_for("", diff, original, options)
}

/// [`fix`] for the file `path`, whose kind says whether a line's trailing
/// white space means something there (a Markdown hard break: kept as each
/// block means it, or the block left unplaced saying why;
/// [`super::trailing::keep_line_ends`]).
pub fn fix_for(path: &str, diff: &str, original: &str, options: Options) -> Fixed {
    let index = LineIndex::new(original);
    let outcome = engine::apply_indexed(diff, &index, options);
    let mut blocks = diagnose::diagnose_indexed(diff, &index, options, &outcome);
    // A Markdown hard break kept as the block means it, or no correction.
    super::trailing::keep_line_ends(path, original, diff, options, &mut blocks);
    if blocks.is_empty() {
        return Fixed {
            diff: String::new(),
            notes: Vec::new(),
            no_block: true,
        };
    }
    let diff_lines: Vec<&str> = diff.split_inclusive('\n').collect();
    let mut notes: Vec<Note> = Vec::new();
    let mut placed: Vec<Placed> = Vec::new();
    for d in &blocks {
        match place(d, &diff_lines, &index, &outcome) {
            Ok(p) => placed.push(p),
            Err(why) => notes.push(unplaced(d, why)),
        }
    }
    // Two blocks editing the same lines cannot both be placed: the later
    // one in the diff yields.
    let mut accepted: Vec<Placed> = Vec::new();
    // The accepted ranges by start (they never overlap, so no two share a
    // start): a range overlapping a new one is the last to start at or
    // before it, or one that starts inside it. The first accepted of those
    // is named, as a walk over all of them would.
    let mut by_start: std::collections::BTreeMap<usize, usize> = Default::default();
    for p in placed {
        let before = by_start.range(..=p.core.0).next_back();
        let inside = by_start.range(p.core.0 + 1..p.core.1.max(p.core.0 + 1));
        let clash = before
            .into_iter()
            .chain(inside)
            .map(|(_, &k)| k)
            .filter(|&k| overlaps(p.core, accepted[k].core))
            .min()
            .map(|k| &accepted[k]);
        match clash {
            Some(q) => {
                let d = &blocks[p.block];
                let why = format!(
                    "would edit {}, which block #{} edits too: kept as written",
                    lines_label(&index, p.core),
                    q.block + 1
                );
                notes.push(unplaced(d, KeptAsWritten(why)));
            }
            None => {
                by_start.insert(p.core.0, accepted.len());
                accepted.push(p);
            }
        }
    }
    accepted.sort_by_key(|p| (p.core.0, p.core.1));
    // Build in file order; a block whose build or check fails is dropped
    // from the plan and the rest is planned again (at most once per block).
    let built = loop {
        match build_all(&accepted, &index, options) {
            Ok(built) => break built,
            Err((k, why)) => {
                let p = accepted.remove(k);
                notes.push(unplaced(&blocks[p.block], why));
            }
        }
    };
    for (p, b) in accepted.iter().zip(&built) {
        let d = &blocks[p.block];
        if d.reason == Some(Reason::Ambiguous) {
            // Placed where the reference places it, the first of several:
            // no single place is named, so it is a guess, said as one.
            let doubt = super::doubt::PlaceDoubt::Repeated;
            notes.push(Note {
                block: p.block,
                diff_lines: d.diff_lines,
                text: format!(
                    "kept as written: {}; add a line of context to say which is meant",
                    super::doubt::doubt_clause(d, doubt)
                ),
                unplaced: true,
            });
        }
        if b.stage == Stage::LineTrimmed {
            notes.push(Note {
                block: p.block,
                diff_lines: blocks[p.block].diff_lines,
                text: "ends at the last line of {FILE}, which has no final newline: no SEARCH \
                       text can quote it exactly, so the corrected block matches line-trimmed"
                    .to_string(),
                unplaced: false,
            });
        }
    }
    notes.sort_by_key(|n| n.block);
    Fixed {
        diff: assemble(&blocks, &diff_lines, &accepted, &built),
        notes,
        no_block: false,
    }
}

fn unplaced(d: &BlockDiagnosis, why: KeptAsWritten) -> Note {
    Note {
        block: d.index,
        diff_lines: d.diff_lines,
        text: why.0,
        unplaced: true,
    }
}

/// Whether two edited ranges touch the same text (two insertions at the
/// same point count: their order would be a guess).
fn overlaps(a: (usize, usize), b: (usize, usize)) -> bool {
    (a.0 < b.1 && b.0 < a.1) || a.0 == b.0
}

/// `a-b` (1-based lines) of a byte range of the original.
fn lines_label(index: &LineIndex, span: (usize, usize)) -> String {
    let first = index.line_of(span.0) + 1;
    let last = if span.1 > span.0 {
        index.line_of(span.1 - 1) + 1
    } else {
        first
    };
    line_range("line", first, last)
}

/// Lines `first..=last` (1-based) of the diff, each with its `\n`.
fn verbatim(diff_lines: &[&str], [first, last]: [usize; 2]) -> String {
    let mut s: String = diff_lines
        .get(first.saturating_sub(1)..last.min(diff_lines.len()))
        .unwrap_or_default()
        .concat();
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// The engine's report for a block the diagnosis found at `first..=last`.
fn engine_report<C>(outcome: &Outcome<C>, [first, last]: [usize; 2]) -> Option<&BlockReport> {
    // The engine reports blocks in diff order.
    let at = outcome.blocks.partition_point(|b| b.diff_lines[0] < first);
    outcome
        .blocks
        .get(at)
        .filter(|b| (first..=last).contains(&b.diff_lines[0]))
}

/// Why a block is kept as written instead of corrected: a sentence for
/// the notes (`{FILE}` stands for the file's name).
#[derive(Debug)]
struct KeptAsWritten(String);

impl From<&str> for KeptAsWritten {
    fn from(why: &str) -> Self {
        KeptAsWritten(why.to_string())
    }
}

impl From<String> for KeptAsWritten {
    fn from(why: String) -> Self {
        KeptAsWritten(why)
    }
}

/// Decides where one block goes, or says why it has no place.
fn place<C>(
    d: &BlockDiagnosis,
    diff_lines: &[&str],
    index: &LineIndex,
    outcome: &Outcome<C>,
) -> Result<Placed, KeptAsWritten> {
    if let Some(p) = keep(d, diff_lines, index, outcome) {
        return Ok(p);
    }
    if let Some(line) = d.unlike_unseen_line().filter(|_| !d.misplaced) {
        return Err(KeptAsWritten(format!(
            "matches only by its first and last lines (block-anchor), and its SEARCH line \
             {line} is unlike the file's line there: the region is a guess, kept as written \
             (see srview check)"
        )));
    }
    let (Some(suggestion), Some(closest)) = (&d.suggestion, d.closest) else {
        return Err(KeptAsWritten(match d.reason {
            Some(Reason::EmptySearch) => {
                "has an empty SEARCH section: it names no place in {FILE}: kept as written".into()
            }
            Some(r) if r.is_malformed() && d.closest.is_none() => {
                "is malformed and names no place in {FILE} (see srview check): kept as written"
                    .into()
            }
            _ if let (Some(c), Some(why)) = (d.closest, &d.withheld) => format!(
                "has no suggestion for its closest region ({}): {why}: kept as written",
                line_range("line", c.start_line, c.end_line)
            ),
            _ if let Some(c) = d.closest => format!(
                "has no suggestion for its closest region ({}; see srview check): kept as written",
                line_range("line", c.start_line, c.end_line)
            ),
            _ if let Some([a, b]) = d.tie => format!(
                "could be meant for {} or {} of {{FILE}}, which are about equally similar (see \
                 srview check): kept as written",
                line_range("line", a.start_line, a.end_line),
                line_range("line", b.start_line, b.end_line)
            ),
            _ if d.vague => "has only lines that occur several times in {FILE}, so no single \
                             place can be told: kept as written"
                .into(),
            _ => "has no similar region in {FILE}: kept as written".into(),
        }));
    };
    let core_lines = (closest.start_line - 1, closest.end_line);
    let (lines, replace_lines) = read_suggestion(suggestion, core_lines, index).ok_or(
        "has a suggestion that does not quote its region (internal error): kept as written",
    )?;
    let core = (
        index.line_start(core_lines.0),
        line_end(index, core_lines.1),
    );
    let prefix = core_lines.0 - lines.0;
    let suffix = lines.1 - core_lines.1;
    let replace: String = replace_lines[prefix..replace_lines.len() - suffix]
        .iter()
        .flat_map(|l| [l.as_str(), "\n"])
        .collect();
    let replace_lines = replace_lines[prefix..replace_lines.len() - suffix].to_vec();
    Ok(Placed {
        block: d.index,
        core,
        replace,
        how: How::Corrected {
            lines: core_lines,
            replace_lines,
            suggestion: suggestion.clone(),
        },
    })
}

/// A block that applies exactly, kept as written (closed if the diff left it open).
fn keep<C>(
    d: &BlockDiagnosis,
    diff_lines: &[&str],
    index: &LineIndex,
    outcome: &Outcome<C>,
) -> Option<Placed> {
    let exact = matches!(d.stage, Some(Stage::Exact)) && !d.out_of_order;
    // An empty SEARCH on an empty file: the one way to write a new file.
    let new_file = d.stage == Some(Stage::Empty) && d.reason.is_none();
    let keepable = match d.state {
        Status::Applied => {
            (exact && matches!(d.reason, None | Some(Reason::Ambiguous))) || new_file
        }
        // Fine on its own: kept when its SEARCH text is found exactly at
        // the line the diagnosis names (checked below, whatever `stage` says).
        Status::NotReached => d.reason.is_none() && !d.out_of_order,
        _ => false,
    };
    if !keepable {
        return None;
    }
    let mut text = verbatim(diff_lines, d.diff_lines);
    let (search, replace, core) = match engine_report(outcome, d.diff_lines) {
        Some(r) if d.state == Status::Applied => {
            let span = r.original?;
            let end = span.end.min(index.text().len());
            (
                r.search_text.clone(),
                r.replace_text.clone(),
                (span.start, end),
            )
        }
        _ => {
            let (search, replace) = parse_block(&text)?;
            let line = d.matched_lines?[0] - 1;
            let m = matcher::exact(index, &search, index.line_start(line))?;
            if index.line_of(m.start) != line {
                return None;
            }
            (search, replace, (m.start, m.end))
        }
    };
    if !text.lines().any(is_replace_end) {
        // Left open at the end of the diff: the reference closes it (taking
        // the empty element after a final newline as one more REPLACE line).
        // Printed before other blocks it must be closed, so it is written
        // out canonically with the REPLACE text it applies with.
        text = canonical_block(&search, &replace);
    }
    Some(Placed {
        block: d.index,
        core,
        replace,
        how: How::Kept { text, search },
    })
}

/// SEARCH and REPLACE texts of a block written with proper markers.
fn parse_block(text: &str) -> Option<(String, String)> {
    let mut lines = text.split_inclusive('\n');
    let first = lines.next()?;
    if !is_search_start(first.strip_suffix('\n').unwrap_or(first)) {
        return None;
    }
    let (mut search, mut replace) = (String::new(), String::new());
    let mut in_replace = false;
    for line in lines {
        let bare = line.strip_suffix('\n').unwrap_or(line);
        if !in_replace && is_separator(bare) {
            in_replace = true;
        } else if in_replace && is_replace_end(bare) {
            return Some((search, replace));
        } else if is_marker(bare) {
            return None;
        } else {
            let target = if in_replace {
                &mut replace
            } else {
                &mut search
            };
            target.push_str(bare);
            target.push('\n');
        }
    }
    in_replace.then_some((search, replace))
}

/// Byte offset where 0-based line `end` starts (the end of lines `..end`),
/// clamped to the text.
fn line_end(index: &LineIndex, end: usize) -> usize {
    index.line_start(end).min(index.text().len())
}

/// Reads a diagnosis suggestion back: the 0-based lines its SEARCH text
/// quotes (which contain `core`) and its REPLACE lines (context included).
fn read_suggestion(
    suggestion: &str,
    core: (usize, usize),
    index: &LineIndex,
) -> Option<((usize, usize), Vec<String>)> {
    let mut lines = suggestion.split('\n');
    if lines.next()? != SEARCH_START {
        return None;
    }
    let search: Vec<&str> = lines.by_ref().take_while(|l| *l != SEPARATOR).collect();
    let replace: Vec<String> = lines
        .take_while(|l| *l != REPLACE_END)
        .map(str::to_string)
        .collect();
    let n = search.len();
    let count = file_line_count(index);
    let start = (core.1.saturating_sub(n)..=core.0)
        .filter(|&s| s + n >= core.1 && s + n <= count)
        .find(|&s| (0..n).all(|k| index.line(s + k) == search[k]))?;
    let quoted = (start, start + n);
    let (prefix, suffix) = (core.0 - start, quoted.1 - core.1);
    if replace.len() < prefix + suffix {
        return None;
    }
    let context_kept = (0..prefix).all(|k| replace[k] == index.line(start + k))
        && (0..suffix).all(|k| replace[replace.len() - suffix + k] == index.line(core.1 + k));
    context_kept.then_some((quoted, replace))
}

/// Lines of the file, the empty element after a final newline not counted.
fn file_line_count(index: &LineIndex) -> usize {
    let all = index.line_count();
    if all > 1 && index.line(all - 1).is_empty() {
        all - 1
    } else {
        all
    }
}

/// Builds every placed block in file order, then applies the result and
/// checks it against the plan. On failure: the position (in `placed`) of
/// the block to drop, and why.
fn build_all(
    placed: &[Placed],
    index: &LineIndex,
    options: Options,
) -> Result<Vec<Built>, (usize, KeptAsWritten)> {
    let text = index.text();
    let mut built: Vec<Built> = Vec::with_capacity(placed.len());
    let mut from = 0usize;
    for (k, p) in placed.iter().enumerate() {
        let upper = placed.get(k + 1).map_or(text.len(), |n| n.core.0);
        let b = build(p, index, from, upper).map_err(|why| (k, why))?;
        from = b.search_span.1;
        built.push(b);
    }
    let diff: String = built.iter().map(|b| b.text.as_str()).collect();
    let outcome = engine::apply(&diff, text, options);
    let as_planned = |b: &Built, r: &BlockReport| {
        r.state == BlockState::Applied
            && r.stage == Some(b.stage)
            && !r.out_of_order
            && r.original.map(|s| (s.start, s.end)) == Some(b.search_span)
    };
    let misplaced = built
        .iter()
        .zip(&outcome.blocks)
        .position(|(b, r)| !as_planned(b, r))
        .or((outcome.blocks.len() != built.len())
            .then(|| outcome.blocks.len().min(built.len() - 1)));
    if let Some(k) = misplaced {
        return Err((
            k,
            "has a corrected block that does not apply where planned: kept as written".into(),
        ));
    }
    let planned = planned_content(text, placed);
    if matches!(&outcome.result, Ok(applied) if applied.new_content == planned) {
        return Ok(built);
    }
    // Every block matched where planned, yet the content differs: find the
    // block whose own edit is not the planned one.
    let k = placed
        .iter()
        .zip(&built)
        .position(|(p, b)| {
            let alone = engine::apply(&b.text, text, options);
            !matches!(&alone.result, Ok(a) if a.new_content == planned_content(text, std::slice::from_ref(p)))
        })
        .unwrap_or(0);
    Err((
        k,
        "has a corrected block that does not give the planned content: kept as written".into(),
    ))
}

/// The original with every placed block's region replaced: what the author meant.
fn planned_content(text: &str, placed: &[Placed]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for p in placed {
        out.push_str(&text[pos..p.core.0]);
        out.push_str(&p.replace);
        pos = p.core.1;
    }
    out.push_str(&text[pos..]);
    out
}

/// One block's text for a plan in which the previous block's SEARCH text
/// ends at `from` and the next block's region starts at `upper`.
fn build(p: &Placed, index: &LineIndex, from: usize, upper: usize) -> Result<Built, KeptAsWritten> {
    let text = index.text();
    match &p.how {
        How::Kept {
            text: block,
            search,
        } => {
            let stage = if search.is_empty() {
                Stage::Empty
            } else {
                Stage::Exact
            };
            let first = if search.is_empty() {
                Some(p.core.0)
            } else {
                matcher::exact(index, search, from).map(|m| m.start)
            };
            if first != Some(p.core.0) {
                return Err(KeptAsWritten(format!(
                    "matches exactly, but its SEARCH text also occurs earlier, after the \
                     block before it, so it cannot be kept where it applies ({}): kept as \
                     written",
                    lines_label(index, p.core)
                )));
            }
            Ok(Built {
                text: block.clone(),
                search_span: (p.core.0, p.core.0 + search.len()),
                stage,
            })
        }
        How::Corrected {
            lines,
            replace_lines,
            suggestion,
        } => {
            // A region that ends at a last line without `\n` can only be
            // matched line-trimmed: a SEARCH text always ends in `\n`.
            let open_end = line_end(index, lines.1) == text.len() && !text.ends_with('\n');
            let stage = if open_end {
                Stage::LineTrimmed
            } else {
                Stage::Exact
            };
            // Where the engine's chain would put a SEARCH text: exact
            // first, even for a region only line-trimmed can reach.
            let first_match = |search: &str| {
                let exact = matcher::exact(index, search, from);
                if open_end {
                    exact.or_else(|| matcher::line_trimmed(index, search, from))
                } else {
                    exact
                }
                .map(|m| m.start)
            };
            // The diagnosis's own block, when it lands where planned.
            if let Some(quoted) = read_suggestion(suggestion, *lines, index).map(|(q, _)| q) {
                let span = (index.line_start(quoted.0), line_end(index, quoted.1));
                let search = quote(index, quoted);
                if span.0 >= from && span.1 <= upper && first_match(&search) == Some(span.0) {
                    return Ok(Built {
                        text: suggestion.clone(),
                        search_span: (span.0, (span.0 + search.len()).min(text.len())),
                        stage,
                    });
                }
            }
            grow(
                index,
                *lines,
                replace_lines,
                from,
                upper,
                stage,
                first_match,
            )
        }
    }
}

/// The file's lines `lines.0..lines.1`, each followed by `\n`.
fn quote(index: &LineIndex, (start, end): (usize, usize)) -> String {
    (start..end).flat_map(|i| [index.line(i), "\n"]).collect()
}

/// A canonical block quoting `lines`, with context lines added (before
/// first, then after, in turn) until its first match from `from` is its
/// own place, never reaching before `from` or past `upper`.
fn grow(
    index: &LineIndex,
    lines: (usize, usize),
    replace_lines: &[String],
    from: usize,
    upper: usize,
    stage: Stage,
    first_match: impl Fn(&str) -> Option<usize>,
) -> Result<Built, KeptAsWritten> {
    let count = file_line_count(index);
    let (mut start, mut end) = lines;
    let mut before: Vec<&str> = Vec::new();
    let mut after: Vec<&str> = Vec::new();
    let mut prefer_before = true;
    loop {
        let search = quote(index, (start, end));
        let at = index.line_start(start);
        if first_match(&search) == Some(at) {
            let quoted = (start..end).map(|i| index.line(i));
            let replaced = before
                .iter()
                .rev()
                .copied()
                .chain(replace_lines.iter().map(String::as_str))
                .chain(after.iter().copied());
            if quoted.chain(replaced.clone()).any(is_marker) {
                return Err(
                    "has a corrected block that would quote a line reading as a marker: kept as \
                     written"
                        .into(),
                );
            }
            return Ok(Built {
                text: canonical_block(&search, &whole_lines(replaced)),
                search_span: (at, (at + search.len()).min(index.text().len())),
                stage,
            });
        }
        let can_before = start > 0 && index.line_start(start - 1) >= from;
        let can_after = end < count && line_end(index, end + 1) <= upper && stage == Stage::Exact;
        if can_before && (prefer_before || !can_after) {
            start -= 1;
            before.push(index.line(start));
        } else if can_after {
            after.push(index.line(end));
            end += 1;
        } else {
            return Err(KeptAsWritten(format!(
                "has a region ({}) that cannot be quoted so that it matches there and not \
                 earlier without reaching into a neighbouring block: kept as written",
                line_range("line", lines.0 + 1, lines.1)
            )));
        }
        prefer_before = !prefer_before;
    }
}

/// The printed diff: placed blocks in file order; each unplaced block, as
/// written, after the placed block that precedes it in the diff.
fn assemble(
    blocks: &[BlockDiagnosis],
    diff_lines: &[&str],
    placed: &[Placed],
    built: &[Built],
) -> String {
    let is_placed = |i: usize| placed.iter().any(|p| p.block == i);
    let mut after: Vec<Vec<usize>> = vec![Vec::new(); blocks.len() + 1];
    let mut anchor = blocks.len();
    for d in blocks {
        if is_placed(d.index) {
            anchor = d.index;
        } else {
            after[anchor].push(d.index);
        }
    }
    let mut out = String::new();
    let push_unplaced = |out: &mut String, list: &[usize]| {
        for &i in list {
            out.push_str(&verbatim(diff_lines, blocks[i].diff_lines));
        }
    };
    push_unplaced(&mut out, &after[blocks.len()]);
    for (p, b) in placed.iter().zip(built) {
        out.push_str(&b.text);
        push_unplaced(&mut out, &after[p.block]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Version;

    fn opts(version: Version) -> Options {
        Options {
            version,
            is_final: true,
        }
    }

    #[test]
    fn exact_blocks_are_kept_byte_for_byte() {
        let diff = "<<<<<<< SEARCH\nb\n=======\nB\n>>>>>>> REPLACE\n";
        let fixed = fix(diff, "a\nb\nc\n", opts(Version::V1));
        assert_eq!(fixed.diff, diff);
        assert!(fixed.notes.is_empty());
    }

    /// v1 applies a last block left open (the diff may be cut off): what the
    /// author meant is not known, so `fix` keeps it as written and says so
    /// rather than close it with what the reference applied.
    #[test]
    fn an_open_last_block_is_kept_as_written_with_a_note() {
        let original = "a\nb\n\n}\nc\n";
        let diff = "------- SEARCH\n\n}\n===\n";
        let fixed = fix(diff, original, opts(Version::V1));
        assert_eq!(fixed.diff, diff, "not closed");
        assert_eq!(fixed.notes.len(), 1, "{:?}", fixed.notes);
        assert!(fixed.notes[0].unplaced, "{:?}", fixed.notes);
    }

    #[test]
    fn parses_blocks_with_flexible_markers() {
        assert_eq!(
            parse_block("--- SEARCH\na\n===\nb\n+++ REPLACE>\n"),
            Some(("a\n".to_string(), "b\n".to_string()))
        );
        // A last block left open is closed by the end of the diff.
        assert_eq!(
            parse_block("--- SEARCH\na\n===\nb\n"),
            Some(("a\n".to_string(), "b\n".to_string()))
        );
        assert_eq!(parse_block("--- SEARCH\na\n"), None);
    }
}
