//! The corrected input of a failed exact-string edit (Claude Code's `Edit`,
//! Cline's `editor`): one decision the gate, `check`, `fix` and the
//! previewer share, so that they offer the same correction or give the
//! same reason for none (a tester's find: for an edit 4 columns shallower
//! than the file's block, `check` and `fix` said "no corrected edit" while
//! the gate offered the re-indented edit). The diagnosis's own suggestion,
//! the model's curly quotes made the file's straight ones (or the file's
//! curly ones carried), whole lines re-indented ([`super::reindent`]),
//! each offered only when srview stands behind it (it applies exactly, no
//! trust check doubts it, and it keeps the model's curly quotes); for an
//! edit placed exactly that leaves Python misindented, its new text
//! shifted to its old text's column ([`super::reindent_exact`]).

use serde_json::Value;

use super::quotes::{
    carried as carried_quotes, drops_curly_quotes, own_curly_quotes, quotes_of, straight_quotes,
};
use crate::dialect::edit::{self, Edit, EditError, EditOutcome};

/// srview's answer for a failed exact-string edit.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactCorrection {
    /// The tool input srview stands behind: the model's, its two texts
    /// replaced.
    pub input: Option<Value>,
    /// Why none is offered; `None` with one, and for a file that does not
    /// exist (nothing in it to correct: the file is to be created).
    pub withheld: Option<String>,
    /// This decision answers the diagnosis's own "No corrected edit"
    /// sentence (a re-indentation given or refused, the file's curly quotes
    /// carried): the sentence is left out where the diagnosis is said
    /// ([`diagnosis_said`]).
    pub answers_diagnosis: bool,
}

/// The diagnosis's message as said beside the decision: without its
/// "No corrected edit: ..." sentence when the decision answers it.
pub fn diagnosis_said(message: &str, answers_diagnosis: bool) -> &str {
    match message.split_once(" No corrected edit:") {
        Some((said, _)) if answers_diagnosis => said,
        _ => message,
    }
}

/// The diagnosis's message as `check` and `fix` say it beside `decision`
/// (as the gate does): its "No corrected edit" sentence left out where the
/// decision answers it, and the decision's reason for none added where the
/// message does not give one.
pub fn said_with(message: &str, decision: &ExactCorrection) -> String {
    let said = diagnosis_said(message, decision.answers_diagnosis);
    match &decision.withheld {
        Some(why) if !said.to_lowercase().contains("no corrected edit") => format!(
            "{said} No corrected edit: {}.",
            why.trim_end().trim_end_matches('.')
        ),
        _ => said.to_string(),
    }
}

/// Why no corrected edit is offered, as `check` says it beside the
/// diagnosis's `message` ([`said_with`]): its "No corrected edit"
/// sentence's reason, else the decision's; `None` with a correction.
pub fn reason_said(message: Option<&str>, decision: &ExactCorrection) -> Option<String> {
    if decision.input.is_some() {
        return None;
    }
    let said = message.map(|m| said_with(m, decision));
    match said
        .as_deref()
        .and_then(|s| s.split_once("No corrected edit: "))
    {
        Some((_, why)) => Some(why.trim_end().trim_end_matches('.').to_string()),
        None => decision.withheld.clone(),
    }
}

/// The correction of `edit` (as the tool `input` sent it), whose
/// `outcome` over `content` (the file; `None`: missing) failed or placed
/// it only by normalising its quotes. An edit placed as sent gets one only
/// where it leaves Python misindented and its new text shifted to its old
/// text's column is sound ([`super::reindent_exact`]), and no reason.
pub fn exact_correction(
    edit: &Edit,
    outcome: &EditOutcome,
    content: Option<&str>,
    input: &Value,
) -> ExactCorrection {
    let Err(error) = &outcome.result else {
        return ExactCorrection {
            input: content
                .and_then(|content| super::reindent_exact::corrected(edit, content, input)),
            withheld: None,
            answers_diagnosis: false,
        };
    };
    let suggestion = (outcome.diagnosis.as_ref()).and_then(|d| d.suggestion.as_ref());
    // Why the file's curly quotes are not carried; whether they are.
    let (mut quote_why, mut carried) = (None, false);
    let suggestion = match (error, suggestion) {
        // The model wrote curly quotes where the file has straight ones:
        // its new text means the file's straight quotes too (Claude Code
        // would write the curly ones as sent).
        (
            EditError::ClaudeQuoteNormalised {
                curly_in_file: false,
            },
            Some(Edit::ClaudeEdit {
                file_path,
                old_string,
                new_string,
                replace_all,
            }),
        ) => Some(Edit::ClaudeEdit {
            file_path: file_path.clone(),
            old_string: old_string.clone(),
            new_string: straight_quotes(new_string),
            replace_all: *replace_all,
        }),
        // The file's curly quotes: carried by position where which one
        // each straight quote of the new text stands for is certain (the
        // change holds no quote), else not told.
        (
            EditError::ClaudeQuoteNormalised {
                curly_in_file: true,
            },
            _,
        ) => match (edit, content) {
            (
                Edit::ClaudeEdit {
                    file_path,
                    old_string,
                    new_string,
                    replace_all,
                },
                Some(content),
            ) => match carried_quotes(content, old_string, new_string) {
                Ok(Some((old, new))) => {
                    carried = true;
                    Some(Edit::ClaudeEdit {
                        file_path: file_path.clone(),
                        old_string: old,
                        new_string: new,
                        replace_all: *replace_all,
                    })
                }
                Ok(None) => None,
                Err(why) => {
                    quote_why = Some(why);
                    None
                }
            },
            _ => None,
        },
        (_, suggestion) => suggestion.cloned(),
    };
    // Whole lines indented unlike the file (curly quotes for its straight
    // ones too): re-indented as srview re-indents a loose hunk, new lines
    // included; the exact-string diagnosis does not re-indent.
    let (reindented, reindent_why) = match (&suggestion, edit, content) {
        // Quotes the change adds where the file has curly ones: said so.
        (None, _, _) if quote_why.is_some() => (None, quote_why),
        (None, Edit::ClaudeEdit { .. } | Edit::ClineEditor { .. }, Some(content)) => {
            match reindented_edit(edit, content) {
                Ok(edit) => (Some(edit), None),
                Err(why) => (None, why),
            }
        }
        _ => (None, None),
    };
    let suggestion = suggestion.or(reindented.clone());
    let (corrected, withheld) = match &suggestion {
        Some(suggested) => stand_behind(suggested, edit, content, input),
        None if matches!(error, EditError::ClaudeFileMissing) => (None, None),
        None => (
            None,
            Some(
                reindent_why
                    .clone()
                    .unwrap_or("srview cannot tell the text meant".into()),
            ),
        ),
    };
    ExactCorrection {
        input: corrected,
        withheld,
        answers_diagnosis: reindented.is_some() || reindent_why.is_some() || carried,
    }
}

/// A Claude Code `Edit` whose old text is whole lines indented unlike the
/// file, re-indented ([`super::reindent`]); curly quotes where the file has
/// straight ones are made straight in both texts first.
/// `Err` as [`super::reindent::reindented`]'s.
fn reindented_edit(edit: &Edit, content: &str) -> Result<Edit, Option<String>> {
    // Cline's `editor` replacing a text (not creating a file, not
    // inserting): re-indented as Claude Code's `Edit` is (a tester's find:
    // it got no corrected edit where the other agents' tools do).
    if let Edit::ClineEditor {
        path,
        old_text: Some(old),
        new_text,
        insert_line: None,
    } = edit
    {
        let claude = Edit::ClaudeEdit {
            file_path: path.clone(),
            old_string: old.clone(),
            new_string: new_text.clone().unwrap_or_default(),
            replace_all: false,
        };
        return match reindented_edit(&claude, content)? {
            Edit::ClaudeEdit {
                old_string,
                new_string,
                ..
            } => Ok(Edit::ClineEditor {
                path: path.clone(),
                old_text: Some(old_string),
                new_text: Some(new_string),
                insert_line: None,
            }),
            _ => Err(None),
        };
    }
    let Edit::ClaudeEdit {
        file_path,
        old_string,
        new_string,
        replace_all: false,
    } = edit
    else {
        return Err(None);
    };
    let curly = |t: &str| t.contains(['\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}']);
    let (old, new) = if curly(old_string) && !curly(content) {
        super::reindent::reindented(
            file_path,
            &straight_quotes(old_string),
            &straight_quotes(new_string),
            content,
        )?
    } else {
        super::reindent::reindented(file_path, old_string, new_string, content)?
    };
    Ok(Edit::ClaudeEdit {
        file_path: file_path.clone(),
        old_string: old,
        new_string: new,
        replace_all: false,
    })
}

/// The tool input with a suggested edit's texts, when srview stands behind
/// it: it applies exactly, and no trust check fails. Else why not.
fn stand_behind(
    suggested: &Edit,
    model: &Edit,
    content: Option<&str>,
    input: &Value,
) -> (Option<Value>, Option<String>) {
    let outcome = edit::apply(suggested, content);
    if let Err(e) = &outcome.result {
        return (None, Some(format!("the corrected edit fails too: {e}")));
    }
    let doubts = edit::edit_doubts(&outcome, content.unwrap_or(""));
    if !doubts.is_empty() {
        return (
            None,
            Some(format!(
                "the corrected edit is in doubt: {}",
                doubts.join("; ")
            )),
        );
    }
    let texts = |edit: &Edit| match edit {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => quotes_of([(old_string.as_str(), new_string.as_str())]),
        Edit::ClineEditor {
            old_text, new_text, ..
        } => quotes_of([(
            old_text.as_deref().unwrap_or(""),
            new_text.as_deref().unwrap_or(""),
        )]),
        Edit::ClaudeWrite { .. } => quotes_of([]),
    };
    let pair = |edit: &Edit| match edit {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => (old_string.clone(), new_string.clone()),
        Edit::ClineEditor {
            old_text, new_text, ..
        } => (
            old_text.clone().unwrap_or_default(),
            new_text.clone().unwrap_or_default(),
        ),
        Edit::ClaudeWrite { .. } => (String::new(), String::new()),
    };
    let ((model_old, model_new), (fixed_old, fixed_new)) = (pair(model), pair(suggested));
    if let Some(why) = own_curly_quotes(&[(&model_old, &model_new)], &[(&fixed_old, &fixed_new)])
        .or_else(|| drops_curly_quotes(texts(model), texts(suggested)))
    {
        return (None, Some(why));
    }
    let mut corrected = input.clone();
    let (old_key, new_key, old, new) = match suggested {
        Edit::ClaudeEdit {
            old_string,
            new_string,
            ..
        } => (
            "old_string",
            "new_string",
            Some(old_string),
            Some(new_string),
        ),
        Edit::ClineEditor {
            old_text, new_text, ..
        } => ("old_text", "new_text", old_text.as_ref(), new_text.as_ref()),
        Edit::ClaudeWrite { .. } => return (None, Some("a write has nothing to correct".into())),
    };
    if let Some(object) = corrected.as_object_mut() {
        if let Some(old) = old {
            object.insert(old_key.to_string(), old.clone().into());
        }
        if let Some(new) = new {
            object.insert(new_key.to_string(), new.clone().into());
        }
    }
    (Some(corrected), None)
}
