//! A tool input still streaming: the fields known so far, for the previewer.

use super::input::{ParseError, tool};
use super::partial_json::{PartialObject, Value, parse_prefix};
use super::{Edit, Tool};

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
    /// The tool whose input is arriving.
    pub tool: Tool,
    /// The path so far (whole unless [`Arrival::In`] the path).
    pub path: Option<String>,
    /// The text to find, so far.
    pub old: Option<String>,
    /// The text to put, so far (`content` for Write).
    pub new: Option<String>,
    /// The tool's setting, once it has arrived.
    pub setting: Option<Setting>,
    /// How far the input has arrived.
    pub arrival: Arrival,
}

/// The one setting (not a text) an edit tool has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Setting {
    /// Claude Code Edit's `replace_all`.
    ReplaceAll(bool),
    /// The Cline editor's `insert_line` (one-based line boundary).
    InsertLine(i64),
}

/// How far an edit's JSON input has arrived.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arrival {
    /// Between two fields (or before the first).
    Between,
    /// The value of this field is arriving; a string field's text so far
    /// is already in its slot.
    In(Field),
    /// The whole object has arrived.
    Complete,
}

impl PartialEdit {
    /// What a complete `edit` gives once its whole input has arrived.
    pub fn of(edit: &super::Edit) -> PartialEdit {
        use super::Edit;
        let (old, new, setting) = match edit {
            Edit::ClaudeEdit {
                old_string,
                new_string,
                replace_all,
                ..
            } => (
                Some(old_string.clone()),
                Some(new_string.clone()),
                Some(Setting::ReplaceAll(*replace_all)),
            ),
            Edit::ClaudeWrite { content, .. } => (None, Some(content.clone()), None),
            Edit::ClineEditor {
                old_text,
                new_text,
                insert_line,
                ..
            } => (
                old_text.clone(),
                new_text.clone(),
                insert_line.map(Setting::InsertLine),
            ),
        };
        PartialEdit {
            tool: edit.tool(),
            path: Some(edit.path().to_string()),
            old,
            new,
            setting,
            arrival: Arrival::Complete,
        }
    }

    /// Reads `prefix`, any prefix of the tool's JSON input. Fails only on an
    /// unknown tool or text that is not a prefix of a JSON object.
    pub fn parse(tool_name: &str, prefix: &str) -> Result<PartialEdit, ParseError> {
        let tool = tool(tool_name)?;
        let object = parse_prefix(prefix).map_err(|source| ParseError::Partial { tool, source })?;
        Ok(Self::from_object(tool, &object))
    }

    fn from_object(tool: Tool, object: &PartialObject) -> PartialEdit {
        let string = |field: Field| {
            key(tool, &field)
                .and_then(|k| object.str(k))
                .map(str::to_string)
        };
        let replace_all = match key(tool, &Field::ReplaceAll).and_then(|k| object.get(k)) {
            Some(Value::Bool(b)) => Some(Setting::ReplaceAll(*b)),
            _ => None,
        };
        let insert_line = match key(tool, &Field::InsertLine).and_then(|k| object.get(k)) {
            Some(Value::Number(n)) => n.parse::<i64>().ok().map(Setting::InsertLine),
            _ => None,
        };
        let field_of = |name: &str| {
            [
                Field::Path,
                Field::Old,
                Field::New,
                Field::ReplaceAll,
                Field::InsertLine,
            ]
            .into_iter()
            .find(|f| key(tool, f) == Some(name))
            .unwrap_or_else(|| Field::Other(name.to_string()))
        };
        PartialEdit {
            tool,
            path: string(Field::Path),
            old: string(Field::Old),
            new: string(Field::New),
            // A tool has one of them at most (`key` gives the other none).
            setting: replace_all.or(insert_line),
            arrival: match (object.complete, object.streaming.as_deref()) {
                (true, _) => Arrival::Complete,
                (false, Some(name)) => Arrival::In(field_of(name)),
                (false, None) => Arrival::Between,
            },
        }
    }
}

/// The key `tool` gives `field` (`None`: the tool has no such field).
fn key(tool: Tool, field: &Field) -> Option<&'static str> {
    Some(match (field, tool) {
        (Field::Path, Tool::Editor) => "path",
        (Field::Path, _) => "file_path",
        (Field::Old, Tool::Edit) => "old_string",
        (Field::Old, Tool::Editor) => "old_text",
        (Field::New, Tool::Edit) => "new_string",
        (Field::New, Tool::Write) => "content",
        (Field::New, Tool::Editor) => "new_text",
        (Field::ReplaceAll, Tool::Edit) => "replace_all",
        (Field::InsertLine, Tool::Editor) => "insert_line",
        _ => return None,
    })
}

impl PartialEdit {
    /// The key of the tool's old text (`old_string`, `old_text`); `None`
    /// for a tool that has none (`Write`).
    pub fn old_key(&self) -> Option<&'static str> {
        key(self.tool, &Field::Old)
    }

    /// The whole object has arrived.
    pub fn is_complete(&self) -> bool {
        self.arrival == Arrival::Complete
    }

    /// The field whose value is still arriving, if any.
    pub fn streaming(&self) -> Option<&Field> {
        match &self.arrival {
            Arrival::In(field) => Some(field),
            Arrival::Between | Arrival::Complete => None,
        }
    }

    /// Claude Code's `replace_all`, once it has arrived.
    pub fn replace_all(&self) -> Option<bool> {
        match self.setting {
            Some(Setting::ReplaceAll(all)) => Some(all),
            _ => None,
        }
    }

    /// Cline's `insert_line`, once it has arrived.
    pub fn insert_line(&self) -> Option<i64> {
        match self.setting {
            Some(Setting::InsertLine(line)) => Some(line),
            _ => None,
        }
    }

    /// The edit the fields so far make, with strings as far as they have
    /// arrived; `None` until the path is whole and the tool's required
    /// texts have started (Claude Code Edit: `old_string` and `new_string`;
    /// Write: `content`; Cline editor: `new_text`, or `old_text`).
    pub fn edit_so_far(&self) -> Option<Edit> {
        if self.streaming() == Some(&Field::Path) {
            return None;
        }
        let path = self.path.clone()?;
        Some(match self.tool {
            Tool::Edit => Edit::ClaudeEdit {
                file_path: path,
                old_string: self.old.clone()?,
                new_string: self.new.clone()?,
                replace_all: self.replace_all().unwrap_or(false),
            },
            Tool::Write => Edit::ClaudeWrite {
                file_path: path,
                content: self.new.clone()?,
            },
            Tool::Editor => {
                if self.old.is_none() && self.new.is_none() {
                    return None;
                }
                Edit::ClineEditor {
                    path,
                    old_text: self.old.clone(),
                    new_text: self.new.clone(),
                    insert_line: self.insert_line(),
                }
            }
        })
    }

    /// Whether the text to find is final: it has arrived whole (the tool
    /// has none, or its field is closed and no longer streaming).
    pub fn old_is_final(&self) -> bool {
        match self.tool {
            Tool::Write => true,
            _ => {
                self.is_complete() || (self.old.is_some() && self.streaming() != Some(&Field::Old))
            }
        }
    }
}
