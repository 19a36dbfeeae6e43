//! A diff in another dialect than SEARCH/REPLACE, corrected for one file:
//! what `srview fix` prints and the previewer's `c` copies. A patch has its
//! loose hunks rewritten as the file has them (or left as written, with
//! why) and its failed hunks rewritten onto their region where the
//! diagnosis stands behind it; an edit that fails gets the corrected edit
//! its diagnosis offers, or none. A corrected diff `check` still doubts
//! (what `apply --write` holds back) is not complete: the note names the
//! doubts.

use super::Dialect;
use super::apply_patch::render;
use super::one_file::{self, OneFileError, Target};

/// The corrected diff, and what was done.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Corrected {
    /// The corrected text (a patch, or an edit's JSON), newline-ended;
    /// `None` when there is nothing to give.
    pub text: Option<String>,
    /// What was corrected, or why it was not (one sentence).
    pub note: Option<String>,
    /// Every part of the diff now applies exactly.
    pub complete: bool,
    /// The other files of a patch (absolute) whose sections are left as
    /// sent but `srview fix` of that file corrects: the command line to
    /// correct them is the caller's to print (it knows how FILE and DIFF
    /// were named).
    pub others: Vec<String>,
}

/// `text` (a whole patch or edit JSON) corrected for `target`; `file` is
/// how the notes name the file.
pub fn correct(
    text: &str,
    dialect: Dialect,
    target: &Target,
    file: &str,
) -> Result<Corrected, OneFileError> {
    match dialect {
        Dialect::ApplyPatch => correct_patch(text, target, file, true),
        Dialect::EditJson | Dialect::SearchReplace => correct_edit(text, target),
    }
}

/// What `check` doubts in `text` (a corrected patch or edit) applied to
/// `target`: one sentence each.
fn doubts(text: &str, dialect: Dialect, target: &Target) -> Result<Vec<String>, OneFileError> {
    Ok(match dialect {
        Dialect::ApplyPatch => one_file::doubts_for(text, target)?
            .into_iter()
            .map(|d| d.message)
            .collect(),
        Dialect::EditJson | Dialect::SearchReplace => {
            let edit = one_file::parse_edit(text)?;
            let outcome = super::edit::apply(&edit, target.content);
            super::edit::edit_doubts(&outcome, target.content.unwrap_or(""))
        }
    })
}

/// The note for a corrected diff: `done` says what was rewritten (or is
/// `None`); `exact` is what a complete correction adds to it; `problems`
/// why the correction is not complete (empty when it is); `doubts` what
/// `check` doubts in the result. The diff is complete when neither is
/// there.
fn note(
    what: &str,
    done: Option<String>,
    exact: &str,
    problems: &[String],
    doubts: &[String],
) -> (Option<String>, bool) {
    let in_doubt = (!doubts.is_empty())
        .then(|| format!("the corrected {what} is in doubt: {}", doubts.join("; ")));
    if !problems.is_empty() {
        let not_full = format!("the {what} is not fully corrected: {}", problems.join("; "));
        let note = match in_doubt {
            Some(d) => format!("{not_full}; {d}"),
            None => not_full,
        };
        return (Some(note), false);
    }
    match (done, in_doubt) {
        (Some(done), Some(d)) => (Some(format!("{done}, but {d}")), false),
        (None, Some(d)) => (Some(d), false),
        (Some(done), None) if !exact.is_empty() => (Some(format!("{done}: {exact}")), true),
        (done, None) => (done, true),
    }
}

/// `others`: whether the other files' sections are weighed too (false
/// for such a section's own correction: see [`others_left`]).
fn correct_patch(
    text: &str,
    target: &Target,
    file: &str,
    others: bool,
) -> Result<Corrected, OneFileError> {
    let unparsed = || Corrected {
        text: None,
        note: Some("the patch does not parse: nothing to fix".into()),
        complete: false,
        others: Vec::new(),
    };
    let exact = "every hunk now matches exactly";
    // The model's own patch: a Markdown hard break its hunks mean is kept
    // in the corrected lines, or the correction is not complete, saying why.
    let sent = super::apply_patch::parse(text).ok();
    let sent_text = text.to_string();
    let finish = |patch: &super::apply_patch::Patch,
                  done: Option<String>,
                  problems: &[String]|
     -> Result<Corrected, OneFileError> {
        let mut patch = patch.clone();
        let mut problems = problems.to_vec();
        if let Some(sent) = &sent
            && let Err(why) = super::apply_patch::carry_ends(sent, &mut patch)
        {
            problems.push(why);
        }
        // What the gate's repair withholds (a string's content respaced,
        // new lines whose depth would change, quotes), `fix` withholds too.
        if let Some(sent) = &sent
            && problems.is_empty()
            && let Some(why) = crate::gate::correction_withheld(
                sent,
                &patch,
                &one_file::memory(target),
                target.cwd,
            )
        {
            // Left as the model wrote it: nothing srview cannot stand
            // behind is printed as corrected.
            patch = sent.clone();
            problems.push(format!("the patch is left as written: {why}"));
        }
        // The other files' sections, left as sent: a patch applies whole.
        let fixable = if others {
            let (said, fixable) = others_left(&sent_text, target)?;
            problems.extend(said);
            fixable
        } else {
            Vec::new()
        };
        let text = render(&patch);
        let mut doubts = doubts(&text, Dialect::ApplyPatch, target)?;
        // What `check` of each other file doubts in its section, applied
        // exactly and printed as sent: the patch is applied whole.
        if others {
            doubts.extend(
                one_file::other_sections_doubted(&text, target)
                    .into_iter()
                    .map(|left| left.sentence),
            );
        }
        let (note, complete) = note("patch", done, exact, &problems, &doubts);
        Ok(Corrected {
            text: Some(text),
            note,
            complete,
            others: fixable,
        })
    };
    match one_file::tighten_for(text, target)? {
        Some(one_file::Tightened {
            patch,
            outcome,
            withheld,
        }) if outcome.exit_code == 0 => {
            let loose = outcome.loose_hunks().count();
            let done = (loose > 0).then(|| {
                format!(
                    "{} rewritten as {file} has them",
                    crate::words::count(loose, "loose hunk"),
                )
            });
            let problems: Vec<String> = withheld
                .iter()
                .map(|(h, why)| format!("hunk #{} is left as written: {why}", h + 1))
                .collect();
            finish(&patch, done, &problems)
        }
        Some(_) => match one_file::fix_for(text, target)? {
            Some((patch, fixed)) => {
                // A hunk corrected and then tightened is one hunk rewritten.
                let mut rewritten = fixed.corrected.clone();
                rewritten.extend(&fixed.tightened);
                rewritten.sort_unstable();
                rewritten.dedup();
                let done = format!(
                    "{} rewritten onto the file",
                    crate::words::count(rewritten.len(), "hunk")
                );
                let mut problems: Vec<String> =
                    fixed.notes.iter().map(|n| n.message.clone()).collect();
                if fixed.complete {
                    problems.clear();
                } else if problems.is_empty() {
                    problems.push("not every hunk could be placed".into());
                }
                finish(&patch, Some(done), &problems)
            }
            None => Ok(unparsed()),
        },
        None => Ok(unparsed()),
    }
}

/// What the patch `text` leaves loose or failing in its other files'
/// sections ([`one_file::other_sections_left`]), each sentence ending in
/// whether `srview fix` of that file corrects it (its own correction, run
/// here over the file on disk), and the files it corrects (absolute, each
/// once). A tester's find (round 49 T-18): "`srview fix b.py` on the
/// patch printed corrects it" was said of a hunk that `fix b.py` then
/// refused, and named no patch to run it on.
fn others_left(text: &str, target: &Target) -> Result<(Vec<String>, Vec<String>), OneFileError> {
    let mut said = Vec::new();
    let mut fixable: Vec<String> = Vec::new();
    for left in one_file::other_sections_left(text, target) {
        let path = std::path::Path::new(&left.file);
        let (Some(cwd), Some(name)) = (path.parent(), path.file_name()) else {
            said.push(left.sentence);
            continue;
        };
        let content = std::fs::read_to_string(path).ok();
        let (cwd, name) = (cwd.to_string_lossy(), name.to_string_lossy());
        let other = Target {
            cwd: &cwd,
            name: &name,
            content: content.as_deref(),
        };
        let own = match content {
            Some(_) => correct_patch(text, &other, &left.path, false).ok(),
            None => None,
        };
        match own {
            Some(own) if own.complete => {
                said.push(format!(
                    "{}: `srview fix` of {} corrects it",
                    left.sentence, left.path
                ));
                if !fixable.contains(&left.file) {
                    fixable.push(left.file);
                }
            }
            Some(own) => {
                let why = own.note.unwrap_or_default();
                let why = why
                    .strip_prefix("the patch is not fully corrected: ")
                    .unwrap_or(&why);
                said.push(format!(
                    "{}, and `srview fix` of {} cannot correct it: {why}",
                    left.sentence, left.path
                ));
            }
            None => said.push(left.sentence),
        }
    }
    Ok((said, fixable))
}

fn correct_edit(text: &str, target: &Target) -> Result<Corrected, OneFileError> {
    let edit = one_file::parse_edit(text)?;
    let outcome = super::edit::apply(&edit, target.content);
    let json = |edit: &super::edit::Edit| {
        serde_json::to_string(edit)
            .map(|s| format!("{s}\n"))
            .map_err(|e| OneFileError::BadEdit(e.to_string()))
    };
    let checked = |edit: &super::edit::Edit, done: Option<String>| {
        let text = json(edit)?;
        let doubts = doubts(&text, Dialect::EditJson, target)?;
        let (note, complete) = note("edit", done, "", &[], &doubts);
        Ok::<_, OneFileError>(Corrected {
            text: Some(text),
            note,
            complete,
            others: Vec::new(),
        })
    };
    let uncorrected = |why: String| Corrected {
        text: None,
        note: Some(why),
        complete: false,
        others: Vec::new(),
    };
    let decision = exact_string_correction(&edit, &outcome, target.content)?;
    if let (Ok(_), Some(fixed)) = (
        &outcome.result,
        decision.as_ref().and_then(|d| d.input.as_ref()),
    ) {
        // Placed exactly, leaving Python misindented: the gate's shifted
        // new text.
        let sent = doubts(text, Dialect::EditJson, target)?;
        let fixed = one_file::parse_edit(&fixed.to_string())?;
        return checked(
            &fixed,
            Some(format!(
                "edit corrected: its new text moved to the column of the text it replaces; the \
                 edit as sent is in doubt: {}",
                sent.join("; ")
            )),
        );
    }
    if let Some(decision) = decision.filter(|_| outcome.result.is_err()) {
        // The gate's own decision: `fix`, `check` and the gate offer the
        // same corrected edit, or give the same reason for none.
        let error = match &outcome.result {
            Err(e) => e.to_string(),
            Ok(_) => String::new(),
        };
        let said = outcome.diagnosis.as_ref().map_or(error, |d| {
            crate::gate::exact_correct::said_with(&d.message, &decision)
        });
        return match decision.input {
            Some(fixed) => {
                let fixed = one_file::parse_edit(&fixed.to_string())?;
                checked(&fixed, Some(format!("edit corrected: {said}")))
            }
            None => Ok(uncorrected(refusal(&said))),
        };
    }
    match (&outcome.result, outcome.diagnosis.as_ref()) {
        (Ok(_), _) => checked(&edit, None),
        (Err(e), d) => match d.and_then(|d| d.suggestion.as_ref().map(|s| (d, s))) {
            Some((d, suggested)) => {
                checked(suggested, Some(format!("edit corrected: {}", d.message)))
            }
            None => Ok(uncorrected(format!(
                "no corrected edit: {}",
                d.map_or_else(|| e.to_string(), |d| d.message.clone())
            ))),
        },
    }
}

/// Why no corrected edit is given, from what `check` says of the edit
/// (`said`): all of it, where its own sentence says "No corrected edit"
/// (the diagnosis before it gives the place it means), else said to be
/// the reason.
fn refusal(said: &str) -> String {
    if said.contains("No corrected edit: ") {
        said.to_string()
    } else {
        format!("no corrected edit: {said}")
    }
}

/// The gate's decision on an exact-string edit (Claude Code's `Edit`,
/// Cline's `editor`; [`crate::gate::exact_correct`]); `None` for a write.
pub fn exact_string_correction(
    edit: &super::edit::Edit,
    outcome: &super::edit::EditOutcome,
    content: Option<&str>,
) -> Result<Option<crate::gate::exact_correct::ExactCorrection>, OneFileError> {
    use super::edit::Edit;
    if matches!(edit, Edit::ClaudeWrite { .. }) {
        return Ok(None);
    }
    let input = serde_json::to_value(edit).map_err(|e| OneFileError::BadEdit(e.to_string()))?;
    Ok(Some(crate::gate::exact_correct::exact_correction(
        edit, outcome, content, &input,
    )))
}
