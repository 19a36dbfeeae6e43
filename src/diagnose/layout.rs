//! The layouts srview reads where a file's meaning hangs on its white
//! space: Python's indentation ([`super::doubt_indent`]), a Makefile's
//! recipe tabs ([`super::doubt_make`]) and YAML's nesting
//! ([`super::doubt_yaml`]), the file's kind told by its name or its first
//! line ([`FileKind`]). One entry for the trust checks of every
//! command, so each of them reads both.

use super::doubt_indent::python_break;
use super::doubt_make::make_break;
use super::doubt_redefine::python_redefinition;
use super::doubt_yaml::yaml_break;
pub use super::file_kind::FileKind;

/// Whether srview reads the layout of `path`, whose content is `content`
/// (any version of it; only its first line is read, and only when the name
/// says nothing): Python's indentation, a Makefile's recipe tabs or
/// YAML's nesting.
pub fn layout_read(path: &str, content: &str) -> bool {
    FileKind::of(path, content) != FileKind::Other
}

/// A fault an edit leaves in a file's layout, or a Python name it leaves
/// defined twice in one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutBreak {
    /// A name defined twice ([`super::doubt_redefine`]), not a fault of
    /// the indentation.
    pub twice: bool,
    /// One sentence without a final stop.
    pub why: String,
}

impl LayoutBreak {
    /// What the edit leaves the file, in words after "leaves FILE".
    pub fn leaves(&self) -> &'static str {
        if self.twice {
            "defining a name twice"
        } else {
            "misindented"
        }
    }
}

/// The fault in its layout that `result` (the file `path` as an edit
/// leaves it) has where `original` had none: Python's indentation or a
/// name it defines twice in one block ([`super::doubt_redefine`]), a
/// Makefile's recipe tabs, a YAML key the edit's new text puts in another
/// mapping than its own text has it in or a YAML key or list item at a
/// column YAML refuses. The sentence ends with what to send instead.
pub fn layout_break(path: &str, original: &str, result: &str) -> Option<LayoutBreak> {
    layout_with(path, original, result, true)
}

/// [`layout_break`] without what to send instead: the fault alone, for a
/// result srview's own correction would leave.
pub fn layout_fault(path: &str, original: &str, result: &str) -> Option<LayoutBreak> {
    layout_with(path, original, result, false)
}

/// [`layout_break`]; `advice`: the sentence ends with what to send.
fn layout_with(path: &str, original: &str, result: &str, advice: bool) -> Option<LayoutBreak> {
    let fault = |why: String| LayoutBreak { twice: false, why };
    match FileKind::of_edit(path, original, result) {
        FileKind::Python => match python_break(original, result) {
            Some(b) => Some(fault(if advice { b.describe() } else { b.fault() })),
            None => python_redefinition(original, result).map(|twice| LayoutBreak {
                twice: true,
                why: if advice {
                    twice.describe()
                } else {
                    twice.fault()
                },
            }),
        },
        FileKind::Makefile => make_break(original, result)
            .map(|b| fault(if advice { b.describe() } else { b.fault() })),
        FileKind::Yaml => yaml_break(original, result)
            .map(|b| fault(if advice { b.describe() } else { b.fault() })),
        FileKind::Other => None,
    }
}
