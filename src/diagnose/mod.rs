//! Why a SEARCH/REPLACE block fails (or only just matches), where it was
//! meant to match, and a corrected block. Pure: no I/O, beside the engine.
//!
//! ```
//! use srview::diagnose::{diagnose, Reason};
//! use srview::engine::Options;
//! let file = "fn main() {\n    let total = 1;\n}\n";
//! // A misspelt name: the corrected block quotes the file's line.
//! let diff = "------- SEARCH\n    let totl = 1;\n=======\n    let total = 2;\n+++++++ REPLACE\n";
//! let blocks = diagnose(diff, file, Options::default());
//! assert_eq!(blocks[0].reason, Some(Reason::Edited));
//! assert_eq!(blocks[0].closest.as_ref().map(|c| c.start_line), Some(2));
//! let fixed = blocks[0].suggestion.as_deref().unwrap();
//! assert!(fixed.contains("    let total = 1;\n=======\n    let total = 2;\n"));
//! // A stale value (the file says 1, the SEARCH text 5): what the author's
//! // 6 should be cannot be told, so nothing is suggested, and why is said.
//! let stale = "------- SEARCH\n    let total = 5;\n=======\n    let total = 6;\n+++++++ REPLACE\n";
//! let blocks = diagnose(stale, file, Options::default());
//! assert_eq!(blocks[0].suggestion, None);
//! assert!(blocks[0].withheld.is_some());
//! ```
//!
//! [`diagnose`] runs the engine once, then walks the diff's block structure
//! itself (the engine stops at its first error), so every block of the diff
//! gets a [`BlockDiagnosis`], in order.

pub mod accept;
pub(crate) mod closest;
mod compare;
mod docstring;
pub mod doubt;
pub mod doubt_asi;
pub mod doubt_bashism;
pub mod doubt_braces;
pub mod doubt_cmake;
pub mod doubt_conditionals;
pub mod doubt_continued;
pub mod doubt_decorators;
pub mod doubt_defines;
pub mod doubt_doubled;
pub mod doubt_ends;
pub mod doubt_exact;
pub mod doubt_exec_form;
pub mod doubt_fence;
pub mod doubt_fn_rename;
pub mod doubt_format;
pub mod doubt_go_use;
pub mod doubt_go_vars;
pub mod doubt_hcl;
pub mod doubt_heredoc;
pub mod doubt_imports;
pub mod doubt_indent;
pub mod doubt_ini;
pub mod doubt_ini_value;
pub mod doubt_js_early;
pub mod doubt_js_gone;
pub mod doubt_json;
pub mod doubt_keys;
pub mod doubt_late;
pub mod doubt_make;
pub mod doubt_make_dollar;
pub mod doubt_markup;
pub mod doubt_names;
pub mod doubt_nix;
pub mod doubt_normal;
pub mod doubt_not_yaml;
pub mod doubt_npm_script;
pub mod doubt_overload;
pub mod doubt_perl_awk;
pub mod doubt_py_depth;
pub mod doubt_py_method_gone;
pub mod doubt_pyparse;
pub mod doubt_pysyntax;
pub mod doubt_redefine;
pub mod doubt_repeat;
pub mod doubt_restricted;
pub mod doubt_separator;
pub mod doubt_shell;
pub mod doubt_shell_test;
pub mod doubt_spaces;
pub mod doubt_toml;
pub mod doubt_twins;
pub mod doubt_web;
pub mod doubt_xml;
pub mod doubt_yaml;
pub mod doubt_yaml_empty;
pub mod doubt_yaml_value;
pub mod effect;
pub mod file_kind;
pub mod fix;
mod flow;
pub mod hidden;
pub mod js_tokens;
pub mod layout;
mod merge;
mod message;
mod normalize;
mod occurrences;
mod odd_spaces;
pub(crate) mod pystatements;
mod pytokens;
pub mod strings;
mod structure;
mod suggest;
pub mod trailing;

pub use normalize::plain_lookalikes;
pub use structure::{BlockSpan, block_spans};

use serde::Serialize;

use crate::engine::matcher::LineIndex;
use crate::engine::{self, BlockState, Options, Stage};

pub use closest::{FileIndex, MIN_SIMILARITY, TIE_MARGIN, char_diff_deadline};
pub(crate) use compare::changed_runs;
pub use compare::{differences, line_diff};
pub(crate) use docstring::{
    StringSpan, cleandoc, docstring_content, moved_with as docstring_moved_with, string_spans,
};
pub(crate) use flow::at_line_start;
pub use flow::diagnose_indexed;
pub(crate) use merge::{
    FormClash, carry_form, changed_line_spaced_otherwise, continuation_lines, differs_in_content,
    differs_only_in_normalisation, line_form_withheld, line_likeness, lines_up_with_a_word,
    no_indent_relation_withheld, opened_before, rewritten_from, spaced_otherwise,
    string_spacing_withheld, string_spacing_withheld_at,
};
pub use strings::{BlockScalar, MultilineStrings, StringSyntax, yaml_block_scalars};
pub use suggest::{settle_suggestions, suggestion};

/// The root cause of a block's trouble. JSON: the kebab-case [`Reason::code`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Indentation or spacing differs from the file.
    Whitespace,
    /// Line endings differ (CRLF against LF).
    LineEndings,
    /// HTML entities (`&lt;` and friends) where the file has plain characters.
    HtmlEntities,
    /// Typographic look-alike characters (smart quotes, dashes, special spaces).
    UnicodeLookalike,
    /// The SEARCH text matches only part of a longer line.
    PartialLine,
    /// The block matches only before an earlier block's edit.
    OutOfOrder,
    /// The SEARCH text occurs more than once in the file.
    Ambiguous,
    /// A line is almost a SEARCH/REPLACE marker.
    MarkerTypo,
    /// The block structure is malformed (a missing or doubled separator, an unclosed block).
    Structure,
    /// The SEARCH section is empty.
    EmptySearch,
    /// The diff's last line was dropped as a partial marker.
    DroppedLastLine,
    /// The REPLACE text already stands where the block was meant: applied
    /// once already, and sent again.
    AlreadyApplied,
    /// The closest region of the file has different content.
    Edited,
    /// Nothing similar exists in the file.
    NotFound,
}

impl Reason {
    /// Every reason, in documentation order.
    pub const ALL: [Reason; 14] = [
        Reason::Whitespace,
        Reason::LineEndings,
        Reason::HtmlEntities,
        Reason::UnicodeLookalike,
        Reason::PartialLine,
        Reason::OutOfOrder,
        Reason::Ambiguous,
        Reason::MarkerTypo,
        Reason::Structure,
        Reason::EmptySearch,
        Reason::DroppedLastLine,
        Reason::AlreadyApplied,
        Reason::Edited,
        Reason::NotFound,
    ];

    /// Damage to the diff's own structure (a marker-like line, a missing or
    /// doubled separator, a dropped last line): a block with it does not
    /// apply as it reads, even when the reference applies it.
    pub fn is_malformed(self) -> bool {
        matches!(
            self,
            Reason::Structure | Reason::MarkerTypo | Reason::DroppedLastLine
        )
    }

    /// The JSON code, e.g. `html-entities`.
    pub fn code(self) -> &'static str {
        match self {
            Reason::Whitespace => "whitespace",
            Reason::LineEndings => "line-endings",
            Reason::HtmlEntities => "html-entities",
            Reason::UnicodeLookalike => "unicode-lookalike",
            Reason::PartialLine => "partial-line",
            Reason::OutOfOrder => "out-of-order",
            Reason::Ambiguous => "ambiguous",
            Reason::MarkerTypo => "marker-typo",
            Reason::Structure => "structure",
            Reason::EmptySearch => "empty-search",
            Reason::DroppedLastLine => "dropped-last-line",
            Reason::AlreadyApplied => "already-applied",
            Reason::Edited => "edited",
            Reason::NotFound => "not-found",
        }
    }

    /// The cause in words, for people.
    pub fn describe(self) -> &'static str {
        match self {
            Reason::Whitespace => "indentation or spacing differs from the file",
            Reason::LineEndings => "line endings differ (CRLF against LF)",
            Reason::HtmlEntities => {
                "HTML entities (&lt; and friends) where the file has plain characters"
            }
            Reason::UnicodeLookalike => {
                "typographic look-alike characters (smart quotes, dashes, special spaces)"
            }
            Reason::PartialLine => "the SEARCH text matches only part of a longer line",
            Reason::OutOfOrder => "the block matches only before an earlier block's edit",
            Reason::Ambiguous => "the SEARCH text occurs more than once in the file",
            Reason::MarkerTypo => "a line is almost a SEARCH/REPLACE marker",
            Reason::Structure => "the block structure is malformed",
            Reason::EmptySearch => "the SEARCH section is empty",
            Reason::DroppedLastLine => "the diff's last line was dropped as a partial marker",
            Reason::AlreadyApplied => "the REPLACE text is already there",
            Reason::Edited => "the closest region of the file has different content",
            Reason::NotFound => "nothing similar exists in the file",
        }
    }
}

/// What makes line endings a block's trouble ([`Reason::LineEndings`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndingCause {
    /// CRLF on one side, LF on the other.
    CrlfAgainstLf,
    /// The region ends at the file's last line, which has no final newline:
    /// a SEARCH text (each line ending in a newline) matches it only
    /// line-trimmed.
    NoFinalNewline,
    /// The diff's lines end in `\r` like the file's, but a marker line
    /// ending in `\r` is no marker.
    CrMarkers,
}

impl EndingCause {
    /// The cause in words, for people.
    pub fn describe(self) -> &'static str {
        match self {
            EndingCause::CrlfAgainstLf => Reason::LineEndings.describe(),
            EndingCause::NoFinalNewline => {
                "the file's last line has no final newline, so a SEARCH text matches it only line-trimmed"
            }
            EndingCause::CrMarkers => {
                "the diff's marker lines end in \\r (CRLF), and a marker line ending in \\r is no marker"
            }
        }
    }
}

/// The region of the file the block was meant for (1-based, inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Closest {
    /// 1-based first line of the region.
    pub start_line: usize,
    /// 1-based last line of the region (inclusive).
    pub end_line: usize,
    /// Character-level similarity in [0, 1].
    pub similarity: f64,
}

/// How one line differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DifferenceKind {
    /// Leading white space differs.
    Indentation,
    /// White space at the end of the line differs.
    TrailingSpace,
    /// One line ends in CRLF, the other in LF.
    LineEnding,
    /// An HTML entity on one side where the other has the plain character.
    Entity,
    /// A typographic look-alike (smart quote, dash, special space) on one side.
    Lookalike,
    /// White space inside the line.
    Spacing,
    /// The words themselves differ.
    Content,
    /// A SEARCH line with no counterpart in the file.
    MissingLine,
    /// A file line the SEARCH text lacks.
    ExtraLine,
    /// A middle line block-anchor replaced without comparing it.
    Unseen,
    /// Another place the SEARCH text occurs.
    OtherOccurrence,
    /// A diff line that is almost a SEARCH/REPLACE marker.
    MarkerTypo,
    /// A problem with the block's structure (separator, closing marker).
    Structure,
    /// The diff's last line, dropped by the engine as a partial marker.
    DroppedLine,
}

/// One difference between the SEARCH text and the file (or the diff itself).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Difference {
    /// What kind of difference this is.
    pub kind: DifferenceKind,
    /// 1-based line within the SEARCH text (or the diff, for marker and
    /// structure problems).
    pub search_line: Option<usize>,
    /// 1-based line of the file.
    pub file_line: Option<usize>,
    /// The SEARCH line (or the diff line), without its line ending; `None` for an extra file line.
    pub search: Option<String>,
    /// The file line, without its line ending; `None` for a missing SEARCH line.
    pub file: Option<String>,
    /// Word-level changes from the SEARCH line to the file line.
    pub words: Vec<WordChange>,
}

/// Which side a line or run of words of a SEARCH-against-file diff is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// In both.
    Equal,
    /// Only in the SEARCH text.
    Delete,
    /// Only in the file.
    Insert,
}

impl Side {
    /// The sign a line diff prints before a line on this side: `-` for the
    /// SEARCH text's, `+` for the file's, a space for both.
    pub fn sign(self) -> char {
        match self {
            Side::Equal => ' ',
            Side::Delete => '-',
            Side::Insert => '+',
        }
    }

    /// The word written in JSON and used by themes.
    pub fn name(self) -> &'static str {
        match self {
            Side::Equal => "equal",
            Side::Delete => "delete",
            Side::Insert => "insert",
        }
    }
}

/// Where a block stands in a diagnosis: the engine's state, or not reached
/// because an earlier block failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// SEARCH lines are still arriving.
    SearchStreaming,
    /// Matched; REPLACE lines are still arriving.
    ReplaceStreaming,
    /// Applied.
    Applied,
    /// The reference threw on this block.
    Failed,
    /// The reference ignored it (see [`BlockState::Dropped`]).
    Dropped,
    /// After a failed block: the reference stopped before it.
    NotReached,
}

impl Status {
    /// The word shown to users and written in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Status::NotReached => "not-reached",
            Status::SearchStreaming => BlockState::SearchStreaming.name(),
            Status::ReplaceStreaming => BlockState::ReplaceStreaming.name(),
            Status::Applied => BlockState::Applied.name(),
            Status::Failed => BlockState::Failed.name(),
            Status::Dropped => BlockState::Dropped.name(),
        }
    }

    /// Failed or not reached: the block did not apply because of an error.
    pub fn is_failure(self) -> bool {
        matches!(self, Status::Failed | Status::NotReached)
    }
}

impl From<BlockState> for Status {
    fn from(s: BlockState) -> Self {
        match s {
            BlockState::SearchStreaming => Status::SearchStreaming,
            BlockState::ReplaceStreaming => Status::ReplaceStreaming,
            BlockState::Applied => Status::Applied,
            BlockState::Failed => Status::Failed,
            BlockState::Dropped => Status::Dropped,
        }
    }
}

/// A run of words: `equal`, `delete` (only in SEARCH) or `insert` (only in the file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WordChange {
    /// Which side the words are on.
    pub tag: Side,
    /// The words of the run, with the white space between them.
    pub text: String,
}

/// One line of the SEARCH-against-region diff, for display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiffLine {
    /// Which side the line is on.
    pub tag: Side,
    /// 1-based line within the SEARCH text; `None` for an `insert` line.
    pub search_line: Option<usize>,
    /// 1-based line of the file; `None` for a `delete` line.
    pub file_line: Option<usize>,
    /// The line's text, without its line ending.
    pub text: String,
}

/// Everything known about one block of the diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BlockDiagnosis {
    /// 0-based position in the diff, as written.
    pub index: usize,
    /// 1-based first and last diff lines.
    pub diff_lines: [usize; 2],
    /// The engine's state name, or `not-reached` after an earlier failure.
    pub state: Status,
    /// The stage the engine applied the block with; `None` for a block the
    /// engine did not apply (failed, not reached, dropped).
    pub stage: Option<Stage>,
    /// For a block the engine did not apply: the stage it matches with on
    /// its own, from the end of the previous block's match (`None` when it
    /// matches nowhere).
    pub would_match: Option<Stage>,
    /// The engine matched the block before an earlier block's match (v1's out-of-order fallback).
    pub out_of_order: bool,
    /// 1-based first and last file lines the block matched (or would match on its own).
    pub matched_lines: Option<[usize; 2]>,
    /// `None` when the block matched exactly and uniquely.
    pub reason: Option<Reason>,
    /// The region the block was meant for: `None` when nothing in the file
    /// is similar enough, or when two regions tie (see `tie`).
    pub closest: Option<Closest>,
    /// Two regions about equally similar, neither offered as the place.
    pub tie: Option<[Closest; 2]>,
    /// Line-by-line differences between the SEARCH text and the closest region (or problems of the
    /// diff's structure), in order.
    pub differences: Vec<Difference>,
    /// The SEARCH text against the closest region, line by line.
    pub line_diff: Vec<DiffLine>,
    /// The match replaced lines nobody compared (block-anchor) or the whole file.
    pub risky: bool,
    /// A block-anchor match at lines other than the ones the SEARCH text is
    /// closest to (`closest`): the reference's edit lands at the wrong place.
    pub misplaced: bool,
    /// Every SEARCH line occurs several times in the file: the block could
    /// be meant for any of those places, so none is offered.
    pub vague: bool,
    /// One sentence for people.
    pub message: String,
    /// A corrected block with canonical markers, ready to paste back.
    pub suggestion: Option<String>,
    /// Why a block with a region has no suggestion, when a rule of trust
    /// withholds it (a line the edit changes differs from the file, the
    /// region holds different code, an earlier block edits the region).
    /// The message says it too; not in the JSON.
    #[serde(skip)]
    pub withheld: Option<String>,
    /// For [`Reason::LineEndings`]: what about the line endings. Not in the
    /// JSON: the message says it.
    #[serde(skip)]
    pub ending: Option<EndingCause>,
    /// For a block a whitespace-blind stage placed: its REPLACE lines keep
    /// the SEARCH text's indentation, not the file's, so the written lines
    /// are shifted against the lines they replace. Not in the JSON: the
    /// message says it.
    #[serde(skip)]
    pub shift: Option<effect::IndentShift>,
    /// For [`Reason::AlreadyApplied`]: the 1-based first and last file
    /// lines that already hold the REPLACE text. Not in the JSON: the
    /// message says it.
    #[serde(skip)]
    pub already: Option<[usize; 2]>,
}

/// How alike (character ratio, trimmed) each SEARCH line that differs in
/// content from its line of the region must be for the region to be the
/// same code, damaged, rather than different code that looks alike (a
/// sibling function): below it, nothing is suggested. A one-word typo in
/// a statement scores 0.9 and more; `def delete_user(self, user_id):`
/// against `def create_user(self, name, email):` scores 0.69. A line with
/// the same words in another order is a near copy whatever its ratio.
pub const NEAR_COPY_RATIO: f64 = 0.75;

/// How alike (character ratio, trimmed) a middle line the block-anchor
/// stage replaced without comparing it must be to the file's line for the
/// match to be more than a guess: the ratio Aider requires of a block.
pub const ANCHOR_MIDDLE_RATIO: f64 = 0.6;

impl BlockDiagnosis {
    /// Whether the block matched (or would) with white space at its lines'
    /// ends ignored.
    pub fn fits_trimmed(&self) -> bool {
        self.stage.or(self.would_match) == Some(Stage::LineTrimmed)
    }

    /// [`Self::ambiguous_places`] in words, `at line 2 and line 5`, or
    /// beyond six, `at 9 places of the file, the first at ...` (six named);
    /// `None` for fewer than two.
    pub fn ambiguous_places_said(&self) -> Option<String> {
        /// More places than this are counted, and only the first ones named.
        const NAMED: usize = 6;
        let places = self.ambiguous_places();
        match places.len() {
            0 | 1 => None,
            n if n > NAMED => Some(format!(
                "at {n} places of the file, the first at {}",
                crate::words::line_ranges(&places[..NAMED])
            )),
            _ => Some(format!("at {}", crate::words::line_ranges(&places))),
        }
    }

    /// For a block whose SEARCH text fits several places
    /// ([`Reason::Ambiguous`]): each of them, 1-based first and last lines,
    /// in the file's order: the one the reference matched and every other
    /// listed as a [`DifferenceKind::OtherOccurrence`] (as many lines
    /// long). Empty for a block that matched nowhere.
    pub fn ambiguous_places(&self) -> Vec<(usize, usize)> {
        let Some([first, last]) = self.matched_lines else {
            return Vec::new();
        };
        let mut places: Vec<(usize, usize)> = self
            .differences
            .iter()
            .filter(|x| x.kind == DifferenceKind::OtherOccurrence)
            .filter_map(|x| x.file_line)
            .map(|line| (line, line + (last - first)))
            .chain([(first, last)])
            .collect();
        places.sort_unstable();
        places.dedup();
        places
    }

    /// The block does not do what it reads as: the reference ignored it,
    /// its structure is malformed, its edit lands at the wrong place, or
    /// what it writes damages the file ([`BlockDiagnosis::damages`]).
    pub fn misreads(&self) -> bool {
        self.state == Status::Dropped
            || self.reason.is_some_and(Reason::is_malformed)
            || self.misplaced
            || self.damages()
    }

    /// The block applies as it reads, but what it writes damages the file:
    /// its new lines are shifted against the lines they replace, or its
    /// REPLACE text is already there (written again, it repeats).
    pub fn damages(&self) -> bool {
        self.state == Status::Applied
            && (self.shift.is_some() || self.reason == Some(Reason::AlreadyApplied))
    }

    /// For a block placed (or placeable) by the block-anchor stage: the
    /// first middle SEARCH line (1-based) unlike the file's line it replaces
    /// unseen (below [`ANCHOR_MIDDLE_RATIO`]).
    pub fn unlike_unseen_line(&self) -> Option<usize> {
        if self.stage.or(self.would_match) != Some(Stage::BlockAnchor) {
            return None;
        }
        self.differences
            .iter()
            .filter(|x| x.kind == DifferenceKind::Unseen)
            .find(|x| {
                let (s, f) = (
                    x.search.as_deref().unwrap_or(""),
                    x.file.as_deref().unwrap_or(""),
                );
                closest::text_similarity(s.trim(), f.trim()) < ANCHOR_MIDDLE_RATIO
            })
            .and_then(|x| x.search_line)
    }

    /// `reason` in words, for this block: for line endings, the cause found.
    pub fn describe_reason(&self, reason: Reason) -> &'static str {
        match (reason, self.ending) {
            (Reason::LineEndings, Some(cause)) => cause.describe(),
            _ => reason.describe(),
        }
    }

    /// Where the block was meant to go and why it failed there, in one
    /// clause: its closest region with the similarity and `reason`, or why
    /// it has no region.
    pub fn region_sentence(&self, reason: Reason) -> String {
        match (self.closest, self.why_no_region()) {
            (Some(c), _) => format!(
                "closest: {} (similarity {}): {}",
                crate::words::line_range("line", c.start_line, c.end_line),
                crate::words::similarity(c.similarity),
                self.describe_reason(reason)
            ),
            (None, Some(why)) => why,
            (None, None) => self.describe_reason(reason).to_string(),
        }
    }

    /// Why the block has no region to jump to or suggest from, in words
    /// (`None` when it has one, and for a block that matched: exactly, or
    /// through a fallback, on its own).
    pub fn why_no_region(&self) -> Option<String> {
        if self.closest.is_some() || self.matched_lines.is_some() || self.reason.is_none() {
            return None;
        }
        Some(match (self.tie, self.vague, self.reason) {
            (Some([a, b]), _, _) => format!(
                "no single closest region: {} and {} could each be the place",
                crate::words::line_range("line", a.start_line, a.end_line),
                crate::words::line_range("line", b.start_line, b.end_line)
            ),
            (None, true, _) => {
                "no single closest region: every SEARCH line occurs several times in the file"
                    .into()
            }
            (None, false, Some(Reason::EmptySearch)) => "an empty SEARCH names no region".into(),
            _ => format!(
                "no similar region in the file (nothing reaches similarity {})",
                crate::words::similarity(MIN_SIMILARITY)
            ),
        })
    }

    /// Whether the block needs attention: it failed, was not reached, or has a reason.
    pub fn is_problem(&self) -> bool {
        self.reason.is_some() || self.state.is_failure() || self.state == Status::Dropped
    }
}

/// Diagnoses every block of `diff` against `original`.
pub fn diagnose(diff: &str, original: &str, options: Options) -> Vec<BlockDiagnosis> {
    // One index serves the engine and the diagnosis.
    let index = LineIndex::new(original);
    let outcome = engine::apply_indexed(diff, &index, options);
    diagnose_indexed(diff, &index, options, &outcome)
}
