//! Edit dialects other than SEARCH/REPLACE, each a pure parser + applier.
pub mod apply_patch;
