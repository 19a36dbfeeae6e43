//! Complete tool inputs, read with serde_json.

use serde::Deserialize;

use super::{Edit, Tool};

/// A tool input srview cannot read as an edit.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// Not `Edit`, `Write` or `editor`.
    #[error("unknown edit tool {0:?} (expected Edit, Write or editor)")]
    UnknownTool(String),
    /// Not JSON, or a field is missing or of the wrong type.
    #[error("invalid {} tool input: {source}", .tool.name())]
    Json {
        /// The tool whose input this was.
        tool: Tool,
        /// serde_json's error (its position is in the input JSON).
        source: serde_json::Error,
    },
    /// Not a prefix of a JSON object (a streaming input).
    #[error("invalid {} tool input: {source}", .tool.name())]
    Partial {
        /// The tool whose input this was.
        tool: Tool,
        /// Where and why the prefix stops being JSON.
        source: super::partial_json::PartialJsonError,
    },
}

#[derive(Deserialize)]
struct ClaudeEditInput {
    file_path: String,
    old_string: String,
    new_string: String,
    #[serde(default)]
    replace_all: Option<bool>,
}

#[derive(Deserialize)]
struct ClaudeWriteInput {
    file_path: String,
    content: String,
}

#[derive(Deserialize)]
struct ClineEditorInput {
    path: String,
    #[serde(default)]
    old_text: Option<String>,
    #[serde(default)]
    new_text: Option<String>,
    #[serde(default)]
    insert_line: Option<i64>,
}

pub(super) fn tool(name: &str) -> Result<Tool, ParseError> {
    Tool::from_name(name).ok_or_else(|| ParseError::UnknownTool(name.to_string()))
}

pub(super) fn parse(name: &str, json: &str) -> Result<Edit, ParseError> {
    let tool = tool(name)?;
    let wrap = |source| ParseError::Json { tool, source };
    Ok(match tool {
        Tool::Edit => {
            let i: ClaudeEditInput = serde_json::from_str(json).map_err(wrap)?;
            Edit::ClaudeEdit {
                file_path: i.file_path,
                old_string: i.old_string,
                new_string: i.new_string,
                replace_all: i.replace_all.unwrap_or(false),
            }
        }
        Tool::Write => {
            let i: ClaudeWriteInput = serde_json::from_str(json).map_err(wrap)?;
            Edit::ClaudeWrite {
                file_path: i.file_path,
                content: i.content,
            }
        }
        Tool::Editor => {
            let i: ClineEditorInput = serde_json::from_str(json).map_err(wrap)?;
            Edit::ClineEditor {
                path: i.path,
                old_text: i.old_text,
                new_text: i.new_text,
                insert_line: i.insert_line,
            }
        }
    })
}
