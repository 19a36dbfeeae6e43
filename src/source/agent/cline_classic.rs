//! Cline classic (VS Code extension ≤ 3.89 and the CLIs on its core): the
//! task's UI messages (the CLI's `--json` stream, one object per line or
//! pretty-printed, or any version of `ui_messages.json`, which Cline
//! rewrites on every streamed piece) and `api_conversation_history.json`.
//!
//! A `tool` message (`editedExistingFile` / `newFileCreated`) keeps its `ts`
//! while its `content` grows; the tool's result is the next request's
//! `[replace_in_file for 'path'] Result:` text: `<error>...</error>` with the
//! reverted `<file_content>` (the content before) on failure, or the saved
//! `<final_file_content>` (the content after) on success.

use std::collections::HashMap;

use serde::Deserialize;
use serde_json::Value;

use super::store::Store;
use super::{AgentTool, ContentOrigin, EditInput, FileContent, Verdict};
use crate::source::transcript::{self, CallKind};

#[derive(Default)]
pub(super) struct UiParser {
    /// Message `ts` → edit.
    by_ts: HashMap<i64, usize>,
    /// The last tool message asks for approval (an approved or
    /// auto-approved one is a `say`), and no request followed it.
    awaiting_approval: bool,
}

/// A UI message; its text is `Text`: `IgnoredAny` where only its kind is
/// wanted (see [`UiHead`]).
#[derive(Deserialize)]
struct UiMessage<Text = Option<String>> {
    #[serde(default)]
    ts: Option<i64>,
    #[serde(rename = "type", default)]
    kind: String,
    #[serde(default)]
    say: Option<String>,
    #[serde(default)]
    ask: Option<String>,
    #[serde(default)]
    text: Text,
    #[serde(default)]
    partial: Option<bool>,
}

/// A UI message without its text (its kind only).
type UiHead = UiMessage<serde::de::IgnoredAny>;

impl<Text> UiMessage<Text> {
    /// What the message says or asks (`tool`, `resume_task`, ..): its `say`
    /// or its `ask`, as its `type` tells.
    fn said(&self) -> Option<&str> {
        match self.kind.as_str() {
            "say" => self.say.as_deref(),
            "ask" => self.ask.as_deref(),
            _ => None,
        }
    }
}

#[derive(Deserialize)]
struct ToolText {
    #[serde(default)]
    tool: String,
    #[serde(default)]
    path: Option<String>,
    #[serde(default)]
    content: Option<String>,
}

#[derive(Deserialize)]
struct ApiRequest {
    #[serde(default)]
    request: Option<String>,
}

impl UiParser {
    pub(super) fn object(&mut self, text: &str, store: &mut Store) {
        let message: UiMessage = match serde_json::from_str(text) {
            Ok(m) => m,
            Err(e) => return store.malformed(format!("not a Cline message ({e})")),
        };
        match message.said() {
            Some("tool") => {
                self.awaiting_approval = message.kind == "ask" && message.partial != Some(true);
                self.tool(&message, store);
            }
            Some("command") => store.barrier(),
            // The task stopped, offered to be resumed, while its last edit
            // awaited approval: never run (see `stopped_awaiting_approval`).
            Some("resume_task" | "resume_completed_task")
                if message.kind == "ask" && self.awaiting_approval =>
            {
                store.run_ended();
            }
            Some("api_req_started") => {
                self.awaiting_approval = false;
                let request = message
                    .text
                    .as_deref()
                    .and_then(|t| serde_json::from_str::<ApiRequest>(t).ok())
                    .and_then(|r| r.request);
                if let Some(request) = request {
                    tool_results(&request, store, true);
                }
            }
            _ => {}
        }
    }

    fn tool(&mut self, message: &UiMessage, store: &mut Store) {
        let Some(tool) = message
            .text
            .as_deref()
            .and_then(|t| serde_json::from_str::<ToolText>(t).ok())
        else {
            return;
        };
        let (agent_tool, input) = match tool.tool.as_str() {
            "editedExistingFile" => (
                AgentTool::ReplaceInFile,
                EditInput::SearchReplace(tool.content.unwrap_or_default()),
            ),
            "newFileCreated" => (
                AgentTool::WriteToFile,
                EditInput::Whole(tool.content.unwrap_or_default()),
            ),
            _ => return,
        };
        let streaming = message.partial == Some(true);
        let Some(path) = tool.path else {
            return store.missing(&format!("{} tool message", agent_tool.name()), "path");
        };
        let ts = message.ts.unwrap_or_default();
        match self.by_ts.get(&ts) {
            Some(&at) => {
                store.set_path(at, &path);
                if let Some(edit) = store.edit_mut(at) {
                    edit.input = input;
                    edit.streaming = streaming && edit.agent_verdict == Verdict::Pending;
                }
            }
            None => {
                let at = store.push(agent_tool, &path, input, streaming);
                self.by_ts.insert(ts, at);
            }
        }
    }
}

/// Reads a whole `api_conversation_history.json`: the tool calls in the
/// assistant's text, the results in the user's.
pub(super) fn api_history(text: &str, store: &mut Store) {
    let messages: Vec<Value> = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => return store.malformed(format!("not a Cline conversation history ({e})")),
    };
    for message in messages {
        let role = message.get("role").and_then(Value::as_str).unwrap_or("");
        let texts: Vec<String> = match message.get("content") {
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(blocks)) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_string))
                .collect(),
            _ => Vec::new(),
        };
        for text in texts {
            match role {
                "assistant" => {
                    if text.contains("<execute_command>") {
                        store.barrier();
                    }
                    for call in transcript::parse(&text) {
                        let (tool, input) = match call.kind {
                            CallKind::ReplaceInFile => (
                                AgentTool::ReplaceInFile,
                                EditInput::SearchReplace(call.body),
                            ),
                            CallKind::WriteToFile => {
                                (AgentTool::WriteToFile, EditInput::Whole(call.body))
                            }
                        };
                        store.push(tool, &call.path, input, false);
                    }
                }
                "user" => tool_results(&text, store, false),
                _ => {}
            }
        }
    }
}

/// Applies every `[tool for 'path'] Result:` in `text` to the first edit of
/// that tool and file still without a verdict.
fn tool_results(text: &str, store: &mut Store, create_missing: bool) {
    let Some(rest) = text.strip_prefix('[') else {
        return;
    };
    let Some((head, body)) = rest.split_once("] Result:") else {
        return;
    };
    let Some((tool, path)) = head.split_once(" for '") else {
        return;
    };
    let path = path.trim_end_matches('\'');
    let tool = match tool {
        "replace_in_file" => AgentTool::ReplaceInFile,
        "write_to_file" => AgentTool::WriteToFile,
        _ => return,
    };
    let file = store.relative(path);
    let body = body.trim_start_matches('\n');
    if body.starts_with("(tool did not return anything)") {
        return;
    }
    let pending =
        store.position(|e| e.tool == tool && e.file == file && e.agent_verdict == Verdict::Pending);
    let at = match pending {
        Some(at) => at,
        // The CLI's message stream leaves out a tool message that stays
        // partial (a diff that failed while streaming): the result is all
        // it shows of that edit.
        None if create_missing => store.push(tool, path, EditInput::NotRecorded, false),
        None => return,
    };
    if let Some(error) = between(body, "<error>\n", "\n</error>") {
        store.set_verdict(at, Verdict::Failed, Some(error.to_string()));
        if let Some(content) = tagged(error, "file_content") {
            store.set_before(at, FileContent::Text(content));
        }
    } else if body.starts_with("The user denied this operation") {
        store.set_verdict(at, Verdict::NotRun, None);
    } else {
        store.set_verdict(at, Verdict::Applied, None);
        if let Some(mut content) = tagged(body, "final_file_content") {
            // A created file is quoted with a line end it does not have on
            // disk: the written content is the tool's own.
            if let Some(EditInput::Whole(written)) = store.get(at).map(|e| &e.input)
                && content.strip_suffix('\n') == Some(written.as_str())
            {
                content = written.clone();
            }
            store.set_after(at, FileContent::Text(content), ContentOrigin::Recorded);
        }
    }
}

fn between<'a>(text: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = text.find(open)? + open.len();
    let end = start + text[start..].rfind(close)?;
    Some(&text[start..end])
}

/// The content of `<tag path="...">\n...\n</tag>`.
fn tagged(text: &str, tag: &str) -> Option<String> {
    let open = text.find(&format!("<{tag} "))?;
    let start = open + text[open..].find(">\n")? + 2;
    let close = format!("\n</{tag}>");
    let end = start + text[start..].find(&close)?;
    Some(text[start..end].to_string())
}

impl super::reader::FormatReader for UiParser {
    fn unit(&mut self, text: &str, store: &mut Store) {
        self.object(text, store);
    }
}

/// Whether Cline's UI messages end with an edit asked for approval (an
/// `ask`, where an approved or auto-approved one is a `say`) and then the
/// task offered to be resumed, with no request between them (approved,
/// its result would have been sent to the model): the task stopped while
/// the edit awaited approval, and Cline never ran it.
fn stopped_awaiting_approval(messages: &[UiHead]) -> bool {
    let mut resumed = false;
    for message in messages.iter().rev() {
        match (message.kind.as_str(), message.said()) {
            ("ask", Some("resume_task" | "resume_completed_task")) => resumed = true,
            ("ask", Some("tool")) => return resumed && message.partial != Some(true),
            (_, Some("tool" | "api_req_started")) => return false,
            _ => {}
        }
    }
    false
}

#[derive(Deserialize)]
struct TaskMetadata {
    #[serde(default)]
    environment_history: Vec<Environment>,
}

#[derive(Deserialize)]
struct Environment {
    #[serde(default)]
    host_version: Option<String>,
}

/// A Cline classic task's `task_metadata.json`: the extension's version;
/// beside its `api_conversation_history.json` (which ends with the call of
/// an edit still without a result), its `ui_messages.json`: whether the
/// task stopped while that edit awaited approval.
pub(super) fn side_files(file: &std::path::Path, reader: &mut super::AgentReader, _use_cwd: bool) {
    let Some(dir) = file.parent() else { return };
    if file
        .file_name()
        .is_some_and(|n| n == "api_conversation_history.json")
        && let Some(messages) =
            super::reader::read_json::<Vec<UiHead>>(&dir.join("ui_messages.json"))
        && stopped_awaiting_approval(&messages)
    {
        reader.stopped_at_end();
    }
    let Some(meta) = super::reader::read_json::<TaskMetadata>(&dir.join("task_metadata.json"))
    else {
        return;
    };
    if let Some(v) = meta
        .environment_history
        .iter()
        .rev()
        .find_map(|e| e.host_version.clone())
    {
        reader.set_version(&v);
    }
}

#[cfg(test)]
mod tests {
    use super::{UiHead, stopped_awaiting_approval};

    fn messages(json: &str) -> Vec<UiHead> {
        serde_json::from_str(json).expect("UI messages")
    }

    /// Stopped while awaiting approval: the edit's `ask`, then the offer to
    /// resume, no request between them. An auto-approved edit (`say`), or
    /// one whose result was sent (a request after the ask), is not.
    #[test]
    fn a_task_stopped_while_its_edit_awaited_approval_is_told() {
        let tool = r#"{"tool":"editedExistingFile","path":"a.py","content":"x"}"#;
        let ask = format!(r#"{{"ts":2,"type":"ask","ask":"tool","text":{tool:?}}}"#);
        let say = format!(r#"{{"ts":2,"type":"say","say":"tool","text":{tool:?}}}"#);
        let resume = r#"{"ts":3,"type":"ask","ask":"resume_task"}"#;
        let request = r#"{"ts":4,"type":"say","say":"api_req_started","text":"{}"}"#;
        assert!(stopped_awaiting_approval(&messages(&format!(
            "[{ask},{resume},{resume}]"
        ))));
        assert!(!stopped_awaiting_approval(&messages(&format!("[{ask}]"))));
        assert!(!stopped_awaiting_approval(&messages(&format!(
            "[{say},{resume}]"
        ))));
        assert!(!stopped_awaiting_approval(&messages(&format!(
            "[{ask},{request},{resume}]"
        ))));
    }
}
