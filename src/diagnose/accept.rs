//! *Pure.* The one decision behind accepting an edit's result: the
//! previewers' `a` (one file, an agent's edit) and `apply --write` ask it,
//! then only do the I/O it allows (`output`'s safe writes) and say its
//! reason in their own words.
//!
//! The order is the contract: an input that cannot be run (refused, cut
//! off, unreadable) is refused first; then a result that changes nothing
//! or deletes the file where that is not done; then a file that no longer
//! holds what the result was made from (nothing is asked about a write
//! that cannot happen); then what srview cannot stand behind in the result
//! ([`held_back`](super::doubt::held_back), the agents' matchers' loose
//! stages and trust checks, `dialect::call_doubts`) is asked about, unless
//! the user has answered already (`a` again, `--force`).

/// What accepting does.
#[derive(Debug, PartialEq, Eq)]
pub enum Decision<D> {
    /// Write the result.
    Write,
    /// Ask first (the previewer's question, `--write` holding it back
    /// without `--force`): what srview cannot stand behind in the result,
    /// one sentence each.
    Ask(Vec<String>),
    /// Write nothing.
    Refuse(Why<D>),
}

/// Why a result is refused. `D`: the caller's own account of a file that
/// changed on disk.
#[derive(Debug, PartialEq, Eq)]
pub enum Why<D> {
    /// The reference (or the agent's matcher) refuses the input, in its
    /// own words.
    Refused(String),
    /// The input stops before its end: the tool runs an edit only once its
    /// input is whole (as it stands: the reference's refusal).
    CutOff(String),
    /// The input can no longer be read (invalid UTF-8, a NUL byte).
    Unreadable(String),
    /// The result is the file as it is.
    Unchanged,
    /// The result deletes the file, which this caller does not do.
    Deletes,
    /// The file does not hold what the result was made from.
    NotAsLoaded(D),
}

/// The input as it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// Whole: the reference's result stands for it.
    Whole,
    /// Cut off before its end (see [`Why::CutOff`]).
    CutOff(String),
    /// No longer readable (see [`Why::Unreadable`]).
    Unreadable(String),
}

/// What the decision is made from.
#[derive(Debug)]
pub struct Case<'a, D> {
    /// The input as it stands.
    pub input: Input,
    /// The reference's result: the file as it leaves it (`None`: deleted),
    /// or its refusal (looked at only for a whole input).
    pub result: Result<Option<&'a str>, String>,
    /// The file before the edit (`Some(None)`: it does not exist), when
    /// a result that leaves it as it is is refused (`None`: not compared,
    /// the caller judges that itself).
    pub before: Option<Option<&'a str>>,
    /// Whether a deleting result may be written.
    pub deletes: bool,
    /// The file on disk: as the result was made from it, or not (`D`).
    pub on_disk: Result<(), D>,
    /// What srview cannot stand behind in the result.
    pub doubts: Vec<String>,
    /// The user has answered the question already (`a` again, `--force`).
    pub answered: bool,
}

/// The decision (see the module's text for its order).
pub fn accept<D>(case: Case<'_, D>) -> Decision<D> {
    match case.input {
        Input::Whole => {}
        Input::CutOff(why) => return Decision::Refuse(Why::CutOff(why)),
        Input::Unreadable(why) => return Decision::Refuse(Why::Unreadable(why)),
    }
    let result = match case.result {
        Ok(result) => result,
        Err(why) => return Decision::Refuse(Why::Refused(why)),
    };
    if case.before == Some(result) {
        return Decision::Refuse(Why::Unchanged);
    }
    if result.is_none() && !case.deletes {
        return Decision::Refuse(Why::Deletes);
    }
    if let Err(changed) = case.on_disk {
        return Decision::Refuse(Why::NotAsLoaded(changed));
    }
    if !case.doubts.is_empty() && !case.answered {
        return Decision::Ask(case.doubts);
    }
    Decision::Write
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file on disk changed (the caller's own account of it).
    #[derive(Debug, PartialEq, Eq)]
    struct Changed;

    fn exact<'a>(before: &'a str, after: &'a str) -> Case<'a, Changed> {
        Case {
            input: Input::Whole,
            result: Ok(Some(after)),
            before: Some(Some(before)),
            deletes: false,
            on_disk: Ok(()),
            doubts: Vec::new(),
            answered: false,
        }
    }

    #[test]
    fn an_exact_result_is_written() {
        assert_eq!(accept(exact("a\n", "b\n")), Decision::Write);
    }

    #[test]
    fn a_doubt_is_asked_about_until_answered() {
        let doubt = "block #1 matched by its first and last lines only at lines 1-3";
        let case = || Case {
            doubts: vec![doubt.to_string()],
            ..exact("a\n", "b\n")
        };
        assert_eq!(accept(case()), Decision::Ask(vec![doubt.to_string()]));
        assert_eq!(
            accept(Case {
                answered: true,
                ..case()
            }),
            Decision::Write
        );
    }

    #[test]
    fn a_loose_match_is_asked_about_as_a_doubt() {
        let loose = "edit 1 is placed by pi 0.73.1's edit tool's loose stage fuzzy, not as the \
                     model wrote it";
        let decision = accept(Case {
            doubts: vec![loose.to_string()],
            ..exact("a \n", "b\n")
        });
        assert_eq!(decision, Decision::Ask(vec![loose.to_string()]));
    }

    #[test]
    fn a_cut_off_input_is_refused_whatever_its_result() {
        let why = "the patch has no *** End Patch line".to_string();
        let decision = accept(Case {
            input: Input::CutOff(why.clone()),
            answered: true,
            ..exact("a\n", "b\n")
        });
        assert_eq!(decision, Decision::Refuse(Why::CutOff(why)));
        let decision = accept(Case {
            input: Input::Unreadable("a NUL byte".into()),
            ..exact("a\n", "b\n")
        });
        assert_eq!(
            decision,
            Decision::Refuse(Why::Unreadable("a NUL byte".into()))
        );
    }

    #[test]
    fn a_file_changed_on_disk_is_refused_before_any_question() {
        let decision = accept(Case {
            on_disk: Err(Changed),
            doubts: vec!["a doubt".into()],
            ..exact("a\n", "b\n")
        });
        assert_eq!(decision, Decision::Refuse(Why::NotAsLoaded(Changed)));
    }

    #[test]
    fn a_refused_input_is_refused_in_the_references_words() {
        let why = "Failed to find expected lines in /w/a.txt:\nx".to_string();
        let decision = accept(Case {
            result: Err(why.clone()),
            on_disk: Err(Changed),
            ..exact("a\n", "b\n")
        });
        assert_eq!(decision, Decision::Refuse(Why::Refused(why)));
    }

    #[test]
    fn a_result_that_changes_nothing_or_deletes_is_refused() {
        assert_eq!(
            accept(exact("a\n", "a\n")),
            Decision::Refuse(Why::Unchanged)
        );
        let deleting = || Case {
            result: Ok(None),
            ..exact("a\n", "")
        };
        assert_eq!(accept(deleting()), Decision::Refuse(Why::Deletes));
        assert_eq!(
            accept(Case {
                deletes: true,
                ..deleting()
            }),
            Decision::Write
        );
        // Not compared: the caller judges an unchanged result itself.
        assert_eq!(
            accept(Case {
                before: None,
                ..exact("a\n", "a\n")
            }),
            Decision::Write
        );
    }
}
