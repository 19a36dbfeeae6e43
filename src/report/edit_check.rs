//! `srview check FILE EDIT --json`: the edit's report, and what srview
//! cannot stand behind in its result.

use serde::Serialize;

use crate::dialect::edit::EditReport;

/// [`EditReport`] with the edit's doubts (`dialect::edit::edit_doubts`):
/// one sentence each, the key left out when there is none, so an edit
/// without doubts reads as its plain report.
#[derive(Serialize)]
pub struct EditCheckReport<'a> {
    #[serde(flatten)]
    report: EditReport<'a>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    doubts: &'a [String],
}

impl<'a> EditCheckReport<'a> {
    /// `report` with its `doubts`.
    pub fn new(report: EditReport<'a>, doubts: &'a [String]) -> Self {
        EditCheckReport { report, doubts }
    }
}
