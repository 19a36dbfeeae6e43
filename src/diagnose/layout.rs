//! The layouts srview reads where a file's meaning hangs on its white
//! space: Python's indentation ([`super::doubt_indent`]) and a Makefile's
//! recipe tabs ([`super::doubt_make`]). One entry for the trust checks of
//! every command, so each of them reads both.

use super::doubt_indent::{indent_break, python};
use super::doubt_make::{makefile, recipe_break};

/// Whether srview reads the layout of `path`: Python's indentation
/// ([`indent_break`]) or a Makefile's recipe tabs ([`recipe_break`]).
pub fn layout_read(path: &str) -> bool {
    python(path) || makefile(path)
}

/// The fault in its layout that `result` (the file `path` as an edit
/// leaves it) has where `original` had none, in one sentence without a
/// final stop: Python's indentation, a Makefile's recipe tabs.
pub fn layout_break(path: &str, original: &str, result: &str) -> Option<String> {
    if python(path) {
        indent_break(path, original, result).map(|fault| fault.describe())
    } else {
        recipe_break(path, original, result).map(|fault| fault.describe())
    }
}
