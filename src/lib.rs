//! srview: see what an LLM's SEARCH/REPLACE edit does, and why it fails.
//!
//! As a library, srview is these parts an embedding tool can use
//! without the terminal UI:
//!
//! - the **engine** ([`engine`], re-exported at the top: [`apply`],
//!   [`Session`], ...): a byte-exact port of Cline v4.0.10's SEARCH/REPLACE
//!   applier (v1 and v2), with a report on every block: where it matched,
//!   by which fallback stage, and the reference's error text when it throws;
//! - **diagnosis** ([`diagnose()`]): why a block fails or only loosely
//!   matches, where it was meant to go, and a corrected block, offered only
//!   where srview can stand behind it; [`fix()`]: the whole diff corrected
//!   and checked (what `srview fix` prints);
//! - **dialects** ([`apply_patch`], [`edit`]): Codex's `apply_patch` and
//!   exact-string edits (Claude Code, Cline 3.x), reported in the engine's
//!   block shape;
//! - **agent sources** ([`source`]): coding agents' transcripts and live
//!   streams (nine agents: see [`source::agent::table`]) read into an ordered list of
//!   file edits;
//! - **sessions** ([`sessions`]): every edit of an agent session run
//!   through srview's applier against its content before, beside the
//!   agent's own verdict (loose matches and disagreements said), and the
//!   sessions found on disk.
//!
//! None of them does I/O except the file readers in [`source`] and
//! [`sessions`] (which also runs `git show` for a Cline CLI checkpoint), and
//! [`Error`] is the one error type of the commands.
//!
//! ```
//! use srview::{apply, diagnose, Options, Reason, Stage};
//!
//! let file = "fn main() {\n    let x = 1;\n}\n";
//! let good = "------- SEARCH\n    let x = 1;\n=======\n    let x = 2;\n+++++++ REPLACE\n";
//! let out = apply(good, file, Options::default());
//! assert_eq!(out.blocks[0].stage, Some(Stage::Exact));
//! assert_eq!(out.result.unwrap().new_content, "fn main() {\n    let x = 2;\n}\n");
//!
//! let stale = "------- SEARCH\n    let x = 0;\n=======\n    let x = 2;\n+++++++ REPLACE\n";
//! assert!(apply(stale, file, Options::default()).result.is_err());
//! let why = diagnose(stale, file, Options::default());
//! assert_eq!(why[0].reason, Some(Reason::Edited));
//! ```
//!
//! Inside the binary, data flows one way: [`source`] (files, stdin,
//! transcripts, replay) → [`engine`] (pure parse + match + apply) → the
//! previewer's state and rendering (`tui`) → `output` (safe writes, JSON).
//! [`diagnose()`] explains blocks beside the engine; `cli` wires the
//! commands.

#![warn(missing_docs)]

#[cfg(test)]
mod cases;
pub mod diagnose;
pub mod dialect;
pub mod engine;
pub mod error;
pub mod gate;
pub mod sessions;
pub mod source;

// The binary's shell: the commands, the previewer, reading input, writing
// output and reports. Public only because the binary (src/main.rs), the
// integration tests, the benches and the examples drive them; not part of
// the library's API, so hidden from its documentation.
#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod input;
#[doc(hidden)]
pub mod output;
#[doc(hidden)]
pub mod report;
#[doc(hidden)]
pub mod textdiff;
// Hidden, so rustdoc cannot resolve some links of its docs to its own
// (equally hidden) items: its module docs link `run`, both a private module
// and a function there.
#[doc(hidden)]
#[allow(rustdoc::broken_intra_doc_links)]
pub mod tui;
/// The previewer's state and rendering, at their old paths.
#[doc(hidden)]
pub use tui::{app, view};
#[doc(hidden)]
pub mod words;

pub use diagnose::fix::{Fixed, Note, fix};
pub use diagnose::{BlockDiagnosis, Reason, diagnose};
pub use dialect::{apply_patch, edit};
pub use engine::session::{Session, Summary};
pub use engine::{
    Applied, ApplyError, BlockReport, BlockState, LineIndex, LineSpan, Options, Outcome, Span,
    Spliced, Stage, Version, apply, apply_indexed, apply_spliced,
};
pub use error::Error;
