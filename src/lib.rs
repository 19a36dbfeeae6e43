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
// The shell's tests name the crate `srview::`, as the integration tests do.
#[cfg(test)]
extern crate self as srview;
pub mod diagnose;
pub mod dialect;
pub mod engine;
pub mod error;
pub mod gate;
pub mod sessions;
#[cfg(test)]
#[path = "../tests/shell/mod.rs"]
mod shell_tests;
pub mod source;

// The binary's shell, behind the fence: the commands, the previewer,
// reading input, writing output and the JSON reports. Private: the binary
// runs them through [`main`], their tests are unit tests of this crate, and
// the benches go through the binary or the API above.
mod cli;
mod input;
mod output;
mod report;
mod tui;

/// Standard base64, padded (the clipboard, the Aider world).
mod base64;
/// Line, word and character diffs, through one Myers routine (used by the
/// diagnosis and by the previewer).
pub mod textdiff;
/// Counted words ("2 blocks"), line ranges ("lines 3-5") and similarity
/// figures, as srview's messages print them.
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

/// The `srview` command line: parses `std::env::args`, runs the command and
/// returns its exit status (the binary's `main` is only this).
pub fn main() -> std::process::ExitCode {
    cli::main()
}
