//! `--policy exact=allow,doubt=review,loose=repair,failing=deny`: what the
//! gate does in each case.

use super::Case;

/// What the gate does with an edit of one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// No opinion: the agent's own flow goes on (srview never answers an
    /// explicit allow, which would also skip the agent's permission check).
    Allow,
    /// Denied, with why.
    Deny,
    /// Rewritten to the exact edit srview stands behind, where the agent
    /// can rewrite; denied with that edit otherwise.
    Repair,
    /// To the review pane (`srview review`); denied, saying why, when
    /// none runs or it does not answer in time.
    Review,
}

impl Action {
    /// The word `--policy` takes.
    pub fn name(self) -> &'static str {
        match self {
            Action::Allow => "allow",
            Action::Deny => "deny",
            Action::Repair => "repair",
            Action::Review => "review",
        }
    }

    fn from_name(name: &str) -> Option<Action> {
        [Action::Allow, Action::Deny, Action::Repair, Action::Review]
            .into_iter()
            .find(|a| a.name() == name)
    }
}

/// The action per case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Exact, no doubt (default `allow`).
    pub exact: Action,
    /// Exact with a doubt (default `review`).
    pub doubt: Action,
    /// A loose stage (default `repair`).
    pub loose: Action,
    /// The agent would refuse it (default `deny`).
    pub failing: Action,
}

impl Default for Policy {
    fn default() -> Self {
        Policy {
            exact: Action::Allow,
            doubt: Action::Review,
            loose: Action::Repair,
            failing: Action::Deny,
        }
    }
}

/// A `--policy` value srview cannot read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PolicyError {
    /// Not `CASE=ACTION`.
    #[error("--policy: {0:?} is not CASE=ACTION (e.g. loose=deny)")]
    Shape(String),
    /// An unknown case.
    #[error("--policy: unknown case {0:?} (exact, doubt, loose, failing)")]
    Case(String),
    /// An unknown action.
    #[error("--policy: unknown action {0:?} (allow, deny, repair, review)")]
    Action(String),
    /// A case given twice (`doubt=deny,doubt=allow`): which one is meant
    /// cannot be told (the last one winning, the same text would mean
    /// "deny" or "allow" by its order).
    #[error("--policy: {case} is given twice ({first}, then {second}): give each case once")]
    Repeated {
        /// The case, as written.
        case: String,
        /// The part that gave it first (`doubt=deny`).
        first: String,
        /// The part that gave it again.
        second: String,
    },
}

impl Policy {
    /// The defaults overridden by `text` (comma-separated `CASE=ACTION`).
    pub fn parse(text: &str) -> Result<Policy, PolicyError> {
        let mut policy = Policy::default();
        // The cases given so far, with the part that gave each.
        let mut given: Vec<(&str, &str)> = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (case, action) = part
                .split_once('=')
                .ok_or_else(|| PolicyError::Shape(part.to_string()))?;
            let action = Action::from_name(action.trim())
                .ok_or_else(|| PolicyError::Action(action.trim().to_string()))?;
            let case = case.trim();
            let slot = match case {
                "exact" => &mut policy.exact,
                "doubt" => &mut policy.doubt,
                "loose" => &mut policy.loose,
                "failing" => &mut policy.failing,
                other => return Err(PolicyError::Case(other.to_string())),
            };
            if let Some(&(_, first)) = given.iter().find(|(c, _)| *c == case) {
                return Err(PolicyError::Repeated {
                    case: case.to_string(),
                    first: first.to_string(),
                    second: part.to_string(),
                });
            }
            given.push((case, part));
            *slot = action;
        }
        Ok(policy)
    }

    /// The action for `case`; `None` for the cases no policy decides
    /// (unreadable: always denied; not an edit: no opinion).
    pub fn action(&self, case: Case) -> Option<Action> {
        match case {
            Case::Exact => Some(self.exact),
            Case::Doubt => Some(self.doubt),
            Case::Loose => Some(self.loose),
            Case::Failing => Some(self.failing),
            Case::Unreadable | Case::NotAnEdit => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_policy_overrides_the_defaults_case_by_case() {
        let p = Policy::parse("loose=deny, failing=repair").expect("reads");
        assert_eq!(p.loose, Action::Deny);
        assert_eq!(p.failing, Action::Repair);
        assert_eq!(p.exact, Action::Allow);
        assert_eq!(p.doubt, Action::Review);
        assert_eq!(
            Policy::parse("loose").unwrap_err().to_string(),
            "--policy: \"loose\" is not CASE=ACTION (e.g. loose=deny)"
        );
        assert_eq!(
            Policy::parse("loose=ask").unwrap_err().to_string(),
            "--policy: unknown action \"ask\" (allow, deny, repair, review)"
        );
        assert_eq!(
            Policy::parse("fuzzy=deny").unwrap_err().to_string(),
            "--policy: unknown case \"fuzzy\" (exact, doubt, loose, failing)"
        );
    }

    /// A case given twice is refused whatever the order or the actions
    /// (the last one winning, `doubt=deny,doubt=allow` let doubts through:
    /// a tester's find); each case once reads.
    #[test]
    fn a_case_given_twice_is_refused() {
        assert_eq!(
            Policy::parse("doubt=deny,doubt=allow")
                .unwrap_err()
                .to_string(),
            "--policy: doubt is given twice (doubt=deny, then doubt=allow): give each case once"
        );
        assert_eq!(
            Policy::parse("loose=deny, exact=allow , loose = deny")
                .unwrap_err()
                .to_string(),
            "--policy: loose is given twice (loose=deny, then loose = deny): give each case once"
        );
        let p = Policy::parse("doubt=deny,loose=deny,exact=review,failing=allow").expect("reads");
        assert_eq!(
            (p.exact, p.doubt, p.loose, p.failing),
            (Action::Review, Action::Deny, Action::Deny, Action::Allow)
        );
    }
}
