//! Edit dialects other than SEARCH/REPLACE: each parses an agent's edit
//! into edits of files and reports every edit in the engine's block shape.

pub mod edit;
