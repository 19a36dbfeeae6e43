//! What the commands load (FILE, the diff) and the warnings and writes they
//! share, so that no command reaches into another's module.

use std::path::Path;

use crate::error::Error;
use crate::{input, output};

/// Replaces FILE with `content` if it still holds `original`.
pub(super) fn write_result(file: &Path, content: &str, original: &str) -> Result<(), Error> {
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

/// What `check` and `fix` start from: FILE's text, the diff (as read) as
/// the applier sees it, and final-mode options.
pub(super) fn load_final(
    file: &Path,
    original: Option<String>,
    diff: String,
    engine: super::EngineOpts,
) -> Result<(String, String, crate::engine::Options), Error> {
    let original = original.unwrap_or_default();
    let diff = engine.prepare(diff, file);
    let options = crate::engine::Options {
        version: engine.version(),
        is_final: true,
    };
    Ok((original, diff, options))
}

/// FILE's text; a missing FILE is empty only with `--new-file`.
pub fn load_original(file: &Path, new_file: bool) -> Result<String, Error> {
    match input::read_text(file, new_file)? {
        Some(text) => Ok(text),
        None => Ok(String::new()),
    }
}
