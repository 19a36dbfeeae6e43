//! Codex's `apply_patch` dialect, faithful to Codex CLI 0.169.0: parse a
//! patch (with the lenient forms the reference accepts and its exact error
//! texts), follow one while it streams, and apply one over a read-only file
//! system, reporting per hunk where and how loosely it matched. Pure: no
//! writes, no terminal.

pub mod apply;
pub mod diagnosis;
pub mod doubt;
pub mod doubt_kind;
pub mod fix;
pub mod fs;
pub mod model;
pub mod outcome;
pub mod parse;
pub mod reindent;
pub mod render;
pub mod sections;
pub mod seek;
mod update;

pub use apply::{apply, apply_partial, apply_text};
pub use diagnosis::{ClosestLine, HeaderDiagnosis, HunkDiagnosis, diagnose_hunks};
pub use doubt::{
    PatchDoubt, PatchDoubtKind, loose_layout_doubts, moves_onto_itself, patch_doubts,
    without_moves_onto_themselves,
};
pub use fix::{FixNote, FixResult, fix_patch};
pub use fs::{DirFs, Entry, MemoryFs, PatchFs, SharedText};
pub use model::{Chunk, ChunkLine, LineKind, Patch, Section};
pub use outcome::{
    HeaderMatch, HunkReport, HunkState, LooseLine, PatchError, PatchOutcome, SectionOp,
    SectionReport,
};
pub use parse::{HunkProblem, ParseError, PartialPatch, parse, parse_partial};
pub use reindent::{Unindentable, carry_ends, tighten_reindented};
pub use render::{render, tighten};
pub use seek::MatchLevel;
