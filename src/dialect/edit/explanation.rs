//! What a failed edit's diagnosis holds (made by `diagnosis`, and by
//! `part_of_line` for a text found only inside longer lines).

use serde::Serialize;

use super::Edit;
use crate::diagnose::{Closest, DiffLine, Difference, Reason};

/// Everything known about a failed edit.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EditDiagnosis {
    /// The root cause when the text was not found (as a block's) or found
    /// several times (`ambiguous`); `None` when the error says it all (a
    /// missing file, an out-of-range line).
    pub reason: Option<Reason>,
    /// The region of the file the edit was meant for (1-based lines).
    pub closest: Option<Closest>,
    /// Two regions about equally similar: neither is offered.
    pub tie: Option<[Closest; 2]>,
    /// Every line of the text occurs several times: no region is offered.
    pub vague: bool,
    /// 1-based first and last lines of every occurrence of an ambiguous text.
    pub occurrences: Vec<[usize; 2]>,
    /// Line-by-line differences between the text to find and the closest region, in order.
    pub differences: Vec<Difference>,
    /// The text against the closest region, line by line.
    pub line_diff: Vec<DiffLine>,
    /// One sentence for people.
    pub message: String,
    /// The same edit with its text to find replaced by the file's own text
    /// of the region; it applies exactly once.
    pub suggestion: Option<Edit>,
}

impl EditDiagnosis {
    pub(super) fn only(message: String) -> Self {
        EditDiagnosis {
            reason: None,
            closest: None,
            tie: None,
            vague: false,
            occurrences: Vec::new(),
            differences: Vec::new(),
            line_diff: Vec::new(),
            message,
            suggestion: None,
        }
    }
}
