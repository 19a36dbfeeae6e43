//! The layouts srview reads where a file's meaning hangs on its white
//! space: Python's indentation ([`super::doubt_indent`]), a Makefile's
//! recipe tabs ([`super::doubt_make`]) and YAML's nesting
//! ([`super::doubt_yaml`]), the file's kind told by its name or its first
//! line ([`FileKind`]). One entry for the trust checks of every
//! command, so each of them reads both.

use super::doubt_indent::python_break;
use super::doubt_make::make_break;
use super::doubt_yaml::yaml_break;
pub use super::file_kind::FileKind;

/// Whether srview reads the layout of `path`, whose content is `content`
/// (any version of it; only its first line is read, and only when the name
/// says nothing): Python's indentation, a Makefile's recipe tabs or
/// YAML's nesting.
pub fn layout_read(path: &str, content: &str) -> bool {
    FileKind::of(path, content) != FileKind::Other
}

/// The fault in its layout that `result` (the file `path` as an edit
/// leaves it) has where `original` had none, in one sentence without a
/// final stop: Python's indentation, a Makefile's recipe tabs, a YAML key
/// the edit's new text puts in another mapping than its own text has it in
/// or a YAML key or list item at a column YAML refuses.
pub fn layout_break(path: &str, original: &str, result: &str) -> Option<String> {
    match FileKind::of_edit(path, original, result) {
        FileKind::Python => python_break(original, result).map(|fault| fault.describe()),
        FileKind::Makefile => make_break(original, result).map(|fault| fault.describe()),
        FileKind::Yaml => yaml_break(original, result).map(|fault| fault.describe()),
        FileKind::Other => None,
    }
}

/// [`layout_break`] without what to send instead: the fault alone, for a
/// result srview's own correction would leave.
pub fn layout_fault(path: &str, original: &str, result: &str) -> Option<String> {
    match FileKind::of_edit(path, original, result) {
        FileKind::Python => python_break(original, result).map(|fault| fault.fault()),
        FileKind::Makefile => make_break(original, result).map(|fault| fault.fault()),
        FileKind::Yaml => yaml_break(original, result).map(|fault| fault.fault()),
        FileKind::Other => None,
    }
}
