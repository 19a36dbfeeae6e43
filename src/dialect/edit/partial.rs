//! A tool input still streaming: the fields known so far, for the previewer.

use super::Tool;
use super::input::{ParseError, tool};
use super::partial_json::{PartialObject, Value, parse_prefix};

/// A field of an edit, under any agent's name for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Field {
    /// `file_path` / `path`.
    Path,
    /// `old_string` / `old_text`.
    Old,
    /// `new_string` / `content` / `new_text`.
    New,
    /// `replace_all`.
    ReplaceAll,
    /// `insert_line`.
    InsertLine,
    /// A key the tool does not define.
    Other(String),
}

/// What is known of an edit whose JSON input is still arriving.
#[derive(Debug, Clone, PartialEq)]
pub struct PartialEdit {
    pub tool: Tool,
    pub path: Option<String>,
    /// The text to find, so far.
    pub old: Option<String>,
    /// The text to put, so far (`content` for Write).
    pub new: Option<String>,
    pub replace_all: Option<bool>,
    pub insert_line: Option<i64>,
    /// The field whose value is still arriving; a string field's text so
    /// far is already in its slot above.
    pub streaming: Option<Field>,
    /// The whole object has arrived.
    pub complete: bool,
}

impl PartialEdit {
    /// Reads `prefix`, any prefix of the tool's JSON input. Fails only on an
    /// unknown tool or text that is not a prefix of a JSON object.
    pub fn parse(tool_name: &str, prefix: &str) -> Result<PartialEdit, ParseError> {
        let tool = tool(tool_name)?;
        let object = parse_prefix(prefix).map_err(|e| ParseError::Json {
            tool,
            source: <serde_json::Error as serde::de::Error>::custom(e),
        })?;
        Ok(Self::from_object(tool, &object))
    }

    fn from_object(tool: Tool, object: &PartialObject) -> PartialEdit {
        let names = |field: &Field| -> &'static [&'static str] {
            match (field, tool) {
                (Field::Path, Tool::Editor) => &["path"],
                (Field::Path, _) => &["file_path"],
                (Field::Old, Tool::Edit) => &["old_string"],
                (Field::Old, Tool::Editor) => &["old_text"],
                (Field::New, Tool::Edit) => &["new_string"],
                (Field::New, Tool::Write) => &["content"],
                (Field::New, Tool::Editor) => &["new_text"],
                (Field::ReplaceAll, Tool::Edit) => &["replace_all"],
                (Field::InsertLine, Tool::Editor) => &["insert_line"],
                _ => &[],
            }
        };
        let string = |field: Field| {
            names(&field)
                .iter()
                .find_map(|k| object.str(k))
                .map(str::to_string)
        };
        let field_of = |key: &str| {
            [
                Field::Path,
                Field::Old,
                Field::New,
                Field::ReplaceAll,
                Field::InsertLine,
            ]
            .into_iter()
            .find(|f| names(f).contains(&key))
            .unwrap_or_else(|| Field::Other(key.to_string()))
        };
        let replace_all = names(&Field::ReplaceAll)
            .iter()
            .find_map(|k| match object.get(k) {
                Some(Value::Bool(b)) => Some(*b),
                _ => None,
            });
        let insert_line = names(&Field::InsertLine)
            .iter()
            .find_map(|k| match object.get(k) {
                Some(Value::Number(n)) => n.parse::<i64>().ok(),
                _ => None,
            });
        PartialEdit {
            tool,
            path: string(Field::Path),
            old: string(Field::Old),
            new: string(Field::New),
            replace_all,
            insert_line,
            streaming: object.streaming.as_deref().map(field_of),
            complete: object.complete,
        }
    }
}
