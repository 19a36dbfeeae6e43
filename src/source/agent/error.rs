//! What can go wrong reading an agent's output.

use std::fmt;

use super::AgentKind;

/// A problem in an agent's output: the unit is skipped, the rest is read.
/// `Display` is written out: both messages start with the agent and its
/// version, or that none is named yet.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// An edit lacks a field the preview needs.
    MissingField {
        /// The agent whose output it is.
        agent: AgentKind,
        /// The agent's version, when its output states it.
        version: Option<String>,
        /// The line (or object) of the input, from 1.
        line: usize,
        /// What was being read ("Edit tool input").
        what: String,
        /// The missing field's name, as the agent spells it.
        field: String,
    },
    /// A unit that should be JSON is not.
    Malformed {
        /// The agent whose output it is.
        agent: AgentKind,
        /// The agent's version, when its output states it.
        version: Option<String>,
        /// The line (or object) of the input, from 1.
        line: usize,
        /// The JSON parser's error text.
        reason: String,
    },
    /// The output names a format version srview was not written for; it
    /// is read as the one srview knows (said once).
    UnknownVersion {
        /// The agent whose output it is.
        agent: AgentKind,
        /// The agent's version, when its output states it.
        version: Option<String>,
        /// The version met and how it is read.
        what: String,
    },
    /// The output names a version of the agent srview was not tested with
    /// (said once).
    UntestedVersion {
        /// The agent whose output it is.
        agent: AgentKind,
        /// The version the output names.
        version: String,
        /// The versions srview was tested with.
        tested: &'static str,
    },
    /// The output is of a kind that records no edits at all (Gemini CLI's
    /// `--output-format json` summary): said instead of an empty list.
    NoEdits {
        /// The agent whose output it is.
        agent: AgentKind,
        /// What the output is and where the edits are instead.
        why: String,
    },
}

fn agent_and_version(agent: AgentKind, version: &Option<String>) -> String {
    match version {
        Some(v) => format!("{} {v}", agent.display_name()),
        None => format!("{} (version not named yet)", agent.display_name()),
    }
}

impl fmt::Display for AgentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentError::MissingField {
                agent,
                version,
                line,
                what,
                field,
            } => write!(
                f,
                "{}: the {what} at line {line} has no `{field}`; this edit cannot be previewed \
                 (the agent's output format may have changed)",
                agent_and_version(*agent, version)
            ),
            AgentError::Malformed {
                agent,
                version,
                line,
                reason,
            } => write!(
                f,
                "{}: line {line} skipped: {reason}",
                agent_and_version(*agent, version)
            ),
            AgentError::UnknownVersion {
                agent,
                version,
                what,
            } => write!(f, "{}: {what}", agent_and_version(*agent, version)),
            AgentError::UntestedVersion {
                agent,
                version,
                tested,
            } => write!(
                f,
                "{} {version}: srview was tested with {tested}; this version's output may \
                 differ (a line or field srview does not know is skipped)",
                agent.display_name()
            ),
            AgentError::NoEdits { agent, why } => write!(f, "{}: {why}", agent.display_name()),
        }
    }
}

/// The field serde names in a "missing field `x`" message.
pub(super) fn missing_field(message: &str) -> Option<String> {
    let rest = message.split("missing field `").nth(1)?;
    Some(rest.split('`').next()?.to_string())
}
