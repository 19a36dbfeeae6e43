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
    /// The corrected tool input the gate, `check --suggest` and `fix`
    /// offer (null: none), for an exact-string edit that failed or is in
    /// doubt; the key left out otherwise.
    #[serde(rename = "correctedInput", skip_serializing_if = "Option::is_none")]
    corrected_input: Option<Option<&'a serde_json::Value>>,
    /// Why none is offered, where `correctedInput` is null.
    #[serde(rename = "correctionWithheld", skip_serializing_if = "Option::is_none")]
    correction_withheld: Option<&'a str>,
}

impl<'a> EditCheckReport<'a> {
    /// `report` with its `doubts`.
    pub fn new(report: EditReport<'a>, doubts: &'a [String]) -> Self {
        EditCheckReport {
            report,
            doubts,
            corrected_input: None,
            correction_withheld: None,
        }
    }

    /// With the corrected input srview offers, or why none.
    pub fn with_correction(
        self,
        corrected: Option<&'a serde_json::Value>,
        withheld: Option<&'a str>,
    ) -> Self {
        EditCheckReport {
            corrected_input: Some(corrected),
            correction_withheld: withheld,
            ..self
        }
    }
}
