//! Edit dialects other than SEARCH/REPLACE, each a pure parser + applier:
//! srview's own (`apply_patch`: Codex's; `edit`: exact-string edits, Claude
//! Code's Edit/Write and Cline 3.x's editor), which report every edit in the
//! engine's block shape, and each agent's own matcher ported exactly
//! (`aider_diff`, `opencode_edit`, `opencode_apply_patch`, `gemini_replace`,
//! `qwen_edit`, `pi_edit`, `cline_apply_patch`), each a
//! [`call::CallMatcher`]. [`registry`] lists them all.

pub mod aider_diff;
pub mod ajv;
pub mod apply_patch;
pub mod call;
pub mod call_correct;
pub mod call_doubts;
pub mod chosen;
pub mod cline_apply_patch;
pub mod corrected;
mod detect;
pub mod edit;
pub mod elided;
pub mod gemini_replace;
mod myers;
pub mod one_file;
pub mod opencode_apply_patch;
pub mod opencode_edit;
pub mod patch_family;
pub mod patch_header;
pub mod pi_edit;
pub mod placed;
pub mod quick;
pub mod qwen_edit;
pub mod registry;
pub mod udiff;

pub use detect::{Detector, Dialect, cut_beginning, detect, first_patch_line, is_patch_line};
