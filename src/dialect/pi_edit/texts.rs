//! pi's `edit` texts, exactly as the model reads them
//! (`getNotFoundError`, `getDuplicateError`, `getEmptyOldTextError`,
//! `getNoChangeError` and the overlap text in `edit-diff.js`, the access
//! error and success text in `edit.js`). `path` is the tool input's `path`
//! as the model wrote it; the single-edit wording is used when the call has
//! exactly one edit (after the legacy `oldText`/`newText` merge).

use super::apply::ApplyError;

/// The error text for `error` in a call of `total` edits on `path`.
pub fn apply_error(error: &ApplyError, path: &str, total: usize) -> String {
    let single = total == 1;
    match *error {
        ApplyError::EmptyOldText { .. } if single => {
            format!("oldText must not be empty in {path}.")
        }
        ApplyError::EmptyOldText { edit } => {
            format!("edits[{edit}].oldText must not be empty in {path}.")
        }
        ApplyError::NotFound { .. } if single => format!(
            "Could not find the exact text in {path}. The old text must match exactly including all whitespace and newlines."
        ),
        ApplyError::NotFound { edit } => format!(
            "Could not find edits[{edit}] in {path}. The oldText must match exactly including all whitespace and newlines."
        ),
        ApplyError::Duplicate { occurrences, .. } if single => format!(
            "Found {occurrences} occurrences of the text in {path}. The text must be unique. Please provide more context to make it unique."
        ),
        ApplyError::Duplicate { edit, occurrences } => format!(
            "Found {occurrences} occurrences of edits[{edit}] in {path}. Each oldText must be unique. Please provide more context to make it unique."
        ),
        ApplyError::Overlap { first, second } => format!(
            "edits[{first}] and edits[{second}] overlap in {path}. Merge them into one edit or target disjoint regions."
        ),
        ApplyError::NoChange if single => format!(
            "No changes made to {path}. The replacement produced identical content. This might indicate an issue with special characters or the text not existing as expected."
        ),
        ApplyError::NoChange => {
            format!("No changes made to {path}. The replacements produced identical content.")
        }
    }
}

/// `execute`'s access check failing with `code` (`ENOENT`, `ENOTDIR`,
/// `EACCES`).
pub fn access_error(path: &str, code: &str) -> String {
    format!("Could not edit file: {path}. Error code: {code}.")
}

/// Node's `readFile` on a directory (the access check lets a directory
/// through).
pub const READ_DIRECTORY: &str = "EISDIR: illegal operation on a directory, read";

/// The success text.
pub fn success(path: &str, edits: usize) -> String {
    format!("Successfully replaced {edits} block(s) in {path}.")
}
