//! Edit dialects other than SEARCH/REPLACE, each a pure parser + applier
//! that reports every edit in the engine's block shape: `apply_patch`
//! (Codex, Cline 3.x for GPT models) and `edit` (exact-string edits: Claude
//! Code's Edit/Write, Cline 3.x's editor).

pub mod aider_diff;
pub mod apply_patch;
pub mod call;
pub mod chosen;
pub mod corrected;
mod detect;
pub mod edit;
pub mod one_file;
pub mod udiff;

pub use detect::{Detector, Dialect, cut_beginning, detect, first_patch_line, is_patch_line};
