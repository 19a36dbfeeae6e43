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
    /// Allowed, and so is every later exact call of this session (the
    /// pane answers them itself while it runs).
    AllowSession,
    /// A loose call of a session allowed with `A`, answered by the pane
    /// unseen: not allowed as sent, but repaired as `loose=repair` would
    /// (the corrected edit, judged again first), so that `A` never lets a
    /// loose result through that the user did not see (tester 51, T-03).
    SessionRepair,
}

impl Verdict {
    /// The word the record uses.
    pub fn name(&self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Reject { .. } => "reject",
            Verdict::Corrected => "corrected",
            Verdict::AllowSession => "allow-session",
            Verdict::SessionRepair => "session-repair",
        }
    }
}
