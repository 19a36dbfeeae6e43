//! The agent's own applier for each tool's edit: Claude Code's Edit and
//! Write, Cline 3.x's editor.

use super::text::Done;
use super::{Edit, EditError, claude, cline};

/// Runs the agent's semantics.
pub(super) fn run(edit: &Edit, original: Option<&str>) -> Result<Done, EditError> {
    run_placing(edit, original, None)
}

/// [`run`], given Claude Code's texts as it places them where the caller
/// has them already (`placed`: [`super::outcome::texts`], its old and new
/// text), so that the file is not searched twice for them.
pub(super) fn run_placing(
    edit: &Edit,
    original: Option<&str>,
    placed: Option<(&str, &str)>,
) -> Result<Done, EditError> {
    match edit {
        // As Claude Code's decode path normalises the input first
        // ([`claude::normalised_input`]).
        Edit::ClaudeEdit {
            file_path,
            old_string,
            new_string,
            replace_all,
        } => {
            let (old, new) = match placed {
                Some((old, new)) => (old.into(), new.into()),
                None => claude::normalised_input(file_path, old_string, new_string, original),
            };
            claude::edit(&old, &new, *replace_all, original)
        }
        Edit::ClaudeWrite { file_path, content } => Ok(claude::write(
            &placed.map_or_else(
                || claude::normalised_content(file_path, content),
                |(_, content)| content.into(),
            ),
            original,
        )),
        Edit::ClineEditor {
            path,
            old_text,
            new_text,
            insert_line,
        } => cline::editor(
            path,
            old_text.as_deref(),
            new_text.as_deref(),
            *insert_line,
            original,
        ),
    }
}
