//! The review pane's answer to one gate call (what `spool` carries from the
//! pane and `answer` turns into the agent's decision).

use serde::{Deserialize, Serialize};

/// The pane's answer to one gate call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "kebab-case")]
pub enum Verdict {
    /// The edit goes on as sent.
    Allow,
    /// Denied; `reason` (typed in the pane) is sent to the model.
    Reject {
        /// The user's words for the model (may be empty).
        reason: String,
    },
    /// The corrected edit runs instead (only when one was offered).
    Corrected,
    /// Allowed, and so is every later call of this session (the pane
    /// answers them itself while it runs).
    AllowSession,
}

impl Verdict {
    /// The word the record uses.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Reject { .. } => "reject",
            Verdict::Corrected => "corrected",
            Verdict::AllowSession => "allow-session",
        }
    }
}
