//! An edit whose JSON input is still arriving, as the previewer shows it.

use super::outcome::{apply_at, texts};
use super::{Edit, EditError, PartialEdit};
use crate::engine::{BlockReport, BlockState};

/// An edit whose input is still streaming, as the previewer shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct EditPreview {
    /// `search-streaming` while the text to find is arriving (or the
    /// outcome still depends on fields to come), `replace-streaming` once it
    /// is located and the new text is arriving, `applied` / `failed` once the
    /// input is complete or the text to find cannot occur.
    pub block: BlockReport,
    /// The file with the new text so far; `None` while nothing is located.
    pub new_content: Option<String>,
    /// The agent's error, once it is certain.
    pub error: Option<EditError>,
}

/// Previews the `index`-th edit from its input so far. A complete input is
/// [`apply_at`]; before that, an error that a later field could still undo
/// (no `old_text` yet when `insert_line` may follow, two matches when
/// `replace_all` may follow) leaves the block `search-streaming`, and any
/// other error of a final text to find is reported as the agent will: it
/// runs the edit only once the input is complete, with this text. (A Cline
/// `insert_line` arriving after `old_text` turns a replacement into an
/// insertion: the preview follows the fields as they arrive.)
pub fn preview(index: usize, partial: &PartialEdit, original: Option<&str>) -> EditPreview {
    let waiting = |edit: Option<&Edit>| {
        let (search_text, replace_text) = edit.map(|e| texts(e, original)).unwrap_or_default();
        EditPreview {
            block: BlockReport {
                search_text,
                replace_text,
                ..BlockReport::new(index, [1, 1], BlockState::SearchStreaming)
            },
            new_content: None,
            error: None,
        }
    };
    let Some(edit) = partial.edit_so_far() else {
        let mut w = waiting(None);
        w.block.search_text = partial.old.clone().unwrap_or_default();
        return w;
    };
    if !partial.old_is_final() {
        return waiting(Some(&edit));
    }
    let out = apply_at(index, &edit, original);
    if partial.is_complete() {
        return EditPreview {
            new_content: out.result.as_ref().ok().map(|d| d.new_content.clone()),
            error: out.result.err(),
            block: out.block,
        };
    }
    match out.result {
        Ok(done) => {
            let mut block = out.block;
            block.state = BlockState::ReplaceStreaming;
            EditPreview {
                block,
                new_content: Some(done.new_content),
                error: None,
            }
        }
        Err(
            EditError::ClineOldTextRequired
            | EditError::ClineNewTextRequired
            | EditError::ClaudeNoChange,
        ) => waiting(Some(&edit)),
        Err(EditError::ClaudeAmbiguous { .. }) if partial.replace_all().is_none() => {
            waiting(Some(&edit))
        }
        Err(error) => EditPreview {
            block: out.block,
            new_content: None,
            error: Some(error),
        },
    }
}
