//! What the commands load (FILE, the diff) and the warnings and writes they
//! share, so that no command reaches into another's module.

use std::path::Path;

use crate::dialect::Dialect;
use crate::error::Error;
use crate::{input, output};

/// Replaces FILE with `content` if it still holds `original`.
pub(super) fn write_result(
    file: &Path,
    content: &str,
    original: &str,
) -> Result<output::Wrote, Error> {
    output::write_atomic(file, content.as_bytes(), Some(original.as_bytes())).map_err(Error::from)
}

/// DIFF as messages name it: its path, or `stdin` for `-` or none.
pub(super) fn diff_name(path: Option<&Path>) -> String {
    match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => "stdin".to_string(),
    }
}

/// The warning for a diff in which no block was found: the reference's
/// answer stands (the file unchanged), but saying nothing would let an empty
/// or prose-only diff pass for an edit that applied.
pub(super) fn warn_no_block(diff: Option<&Path>, what_happened: &str) {
    eprintln!(
        "srview: warning: no SEARCH/REPLACE block found in {}: {what_happened}",
        diff_name(diff)
    );
}

/// What `check` and `fix` start from.
pub(super) enum FinalInput {
    /// A tool input for an agent's own matcher (`--dialect`'s, or the one
    /// whose input shape it has), as read.
    Agent(&'static crate::dialect::registry::DialectRow, String),
    Other(OtherDialect),
    SearchReplace(SearchReplace),
}

/// A diff in another dialect than SEARCH/REPLACE, as read, and FILE's text.
pub(super) struct OtherDialect {
    pub content: Option<String>,
    pub diff: String,
    pub dialect: Dialect,
}

/// FILE's text, the SEARCH/REPLACE diff as the applier sees it, and
/// final-mode options.
pub(super) struct SearchReplace {
    pub original: String,
    pub diff: String,
    pub options: crate::engine::Options,
}

/// Reads FILE, then DIFF (as `apply` does: DIFF may be a pipe waiting on
/// FILE), and tells the diff's dialect (`forced`, else detected).
pub(super) fn load_final(
    file: &Path,
    diff: Option<&Path>,
    engine: super::EngineOpts,
    command: &str,
) -> Result<FinalInput, Error> {
    if let Some(row) = engine.agent_dialect() {
        // The agent's matcher reads FILE itself (it may not exist).
        return Ok(FinalInput::Agent(row, input::read_diff(diff)?));
    }
    let content = input::read_text(file, false)?;
    let diff = input::read_diff(diff)?;
    if let Some(row) = engine.agent_dialect_of(&diff) {
        return Ok(FinalInput::Agent(row, diff));
    }
    let dialect = super::dialect_of(engine.builtin_dialect(command)?, &diff);
    if dialect != Dialect::SearchReplace {
        return Ok(FinalInput::Other(OtherDialect {
            content,
            diff,
            dialect,
        }));
    }
    Ok(FinalInput::SearchReplace(SearchReplace {
        original: content.unwrap_or_default(),
        diff: engine.prepare(diff, file),
        options: crate::engine::Options {
            version: engine.version(),
            is_final: true,
        },
    }))
}

/// FILE's text; a missing FILE is empty only with `--new-file`.
pub fn load_original(file: &Path, new_file: bool) -> Result<String, Error> {
    match input::read_file_arg(file, new_file)? {
        Some(text) => Ok(text),
        None => Ok(String::new()),
    }
}
