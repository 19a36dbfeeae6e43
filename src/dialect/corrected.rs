//! A diff in another dialect than SEARCH/REPLACE, corrected for one file:
//! what `srview fix` prints and the previewer's `c` copies. A patch has its
//! loose hunks rewritten as the file has them (or left as written, with
//! why) and its failed hunks rewritten onto their region where the
//! diagnosis stands behind it; an edit that fails gets the corrected edit
//! its diagnosis offers, or none.

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
        Dialect::ApplyPatch => correct_patch(text, target, file),
        Dialect::EditJson | Dialect::SearchReplace => correct_edit(text, target),
    }
}

fn correct_patch(text: &str, target: &Target, file: &str) -> Result<Corrected, OneFileError> {
    let unparsed = || Corrected {
        text: None,
        note: Some("the patch does not parse: nothing to fix".into()),
        complete: false,
    };
    match one_file::tighten_for(text, target)? {
        Some(one_file::Tightened {
            patch,
            outcome,
            withheld,
        }) if outcome.exit_code == 0 => {
            let loose = outcome.loose_hunks().count();
            if withheld.is_empty() {
                let note = (loose > 0).then(|| {
                    format!(
                        "{} rewritten as {file} has them: every hunk now matches exactly",
                        crate::words::count(loose, "loose hunk"),
                    )
                });
                Ok(Corrected {
                    text: Some(render(&patch)),
                    note,
                    complete: true,
                })
            } else {
                let why: Vec<String> = withheld
                    .iter()
                    .map(|(h, why)| format!("hunk #{} is left as written: {why}", h + 1))
                    .collect();
                Ok(Corrected {
                    text: Some(render(&patch)),
                    note: Some(format!(
                        "the patch is not fully corrected: {}",
                        why.join("; ")
                    )),
                    complete: false,
                })
            }
        }
        Some(_) => match one_file::fix_for(text, target)? {
            Some((patch, fixed)) => {
                let notes: Vec<String> = fixed.notes.iter().map(|n| n.message.clone()).collect();
                let note = if fixed.complete {
                    format!(
                        "{} rewritten onto the file: every hunk now matches exactly",
                        crate::words::count(fixed.corrected.len() + fixed.tightened.len(), "hunk")
                    )
                } else {
                    format!("the patch is not fully corrected: {}", notes.join("; "))
                };
                Ok(Corrected {
                    text: Some(render(&patch)),
                    note: Some(note),
                    complete: fixed.complete,
                })
            }
            None => Ok(unparsed()),
        },
        None => Ok(unparsed()),
    }
}

fn correct_edit(text: &str, target: &Target) -> Result<Corrected, OneFileError> {
    let edit = one_file::parse_edit(text)?;
    let outcome = super::edit::apply(&edit, target.content);
    let json = |edit: &super::edit::Edit| {
        serde_json::to_string(edit)
            .map(|s| format!("{s}\n"))
            .map_err(|e| OneFileError::BadEdit(e.to_string()))
    };
    Ok(match (&outcome.result, &outcome.diagnosis) {
        (Ok(_), _) => Corrected {
            text: Some(json(&edit)?),
            note: None,
            complete: true,
        },
        (Err(_), Some(d)) if d.suggestion.is_some() => Corrected {
            text: d.suggestion.as_ref().map(json).transpose()?,
            note: Some(format!("edit corrected: {}", d.message)),
            complete: true,
        },
        (Err(e), d) => Corrected {
            text: None,
            note: Some(format!(
                "no corrected edit: {}",
                d.as_ref()
                    .map_or_else(|| e.to_string(), |d| d.message.clone())
            )),
            complete: false,
        },
    })
}
