//! From tool calls to file results: calls are grouped per file (in order of
//! first appearance) and each runs on the result of the previous one, as
//! Cline runs them one after another.

use std::path::{Component, Path};

use super::{CallKind, ToolCall};
use crate::engine::{self, Options, Outcome, Version};

/// How the calls are applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ApplyOptions {
    /// The reference parser version `replace_in_file` diffs are applied with.
    pub version: Version,
    /// Unescape HTML entities and drop U+FFFD, as Cline does for non-Claude models.
    pub fix_model_output: bool,
}

/// Where a file's edit stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileState {
    /// Its last call is still streaming.
    Streaming,
    /// Every call applied.
    Applied,
    /// A call did not apply (final mode).
    Failed,
    /// The path was refused or the file could not be read.
    Refused,
}

impl FileState {
    /// The word written in JSON (`streaming`, `applied`, `failed`, `refused`).
    pub fn name(self) -> &'static str {
        match self {
            FileState::Streaming => "streaming",
            FileState::Applied => "applied",
            FileState::Failed => "failed",
            FileState::Refused => "refused",
        }
    }
}

/// What one call did to its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallResult {
    /// Index of the call in the slice given to [`apply_calls`].
    pub call: usize,
    /// Whether the call's body is a diff or a whole new content.
    pub kind: CallKind,
    /// The call is still open at the end of the transcript (applied in partial mode).
    pub partial: bool,
    /// The engine's answer (`replace_in_file` only).
    pub outcome: Option<Outcome>,
    /// What it did to the file's content.
    pub effect: CallEffect,
}

/// What one call did to its file's content.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallEffect {
    /// The file's content after the call.
    Wrote(String),
    /// Why the call does not apply.
    Failed(String),
    /// A streaming diff that does not apply yet: the content is unchanged,
    /// and it is no error (the diff is still arriving; Cline swallows a
    /// partial diff's errors too).
    Waiting,
}

impl CallResult {
    /// The file's content after the call, when it applied.
    pub fn content(&self) -> Option<&str> {
        match &self.effect {
            CallEffect::Wrote(content) => Some(content),
            CallEffect::Failed(_) | CallEffect::Waiting => None,
        }
    }

    /// Why the call does not apply, when it does not.
    pub fn error(&self) -> Option<&str> {
        match &self.effect {
            CallEffect::Failed(why) => Some(why),
            CallEffect::Wrote(_) | CallEffect::Waiting => None,
        }
    }
}

/// Every edit of one file, applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileEdit {
    /// The path as the transcript first spelled it.
    pub path: String,
    /// The text the first call started from; `None`: the file did not exist.
    pub original: Option<String>,
    /// What each call of this file did, in transcript order.
    pub calls: Vec<CallResult>,
    /// The first failure: a refused path, an unreadable file, a call that
    /// does not apply.
    pub error: Option<String>,
    /// Streaming, applied, failed or refused.
    pub state: FileState,
}

impl FileEdit {
    /// The text the first call started from (empty for a new file).
    pub fn before(&self) -> &str {
        self.original.as_deref().unwrap_or_default()
    }

    /// The content after every call that applied (the partial result of a
    /// streaming last call included).
    pub fn content(&self) -> &str {
        self.calls
            .iter()
            .rev()
            .find_map(CallResult::content)
            .unwrap_or(self.before())
    }

    /// The file did not exist.
    pub fn is_new(&self) -> bool {
        self.original.is_none()
    }

    /// Every call applied and none is still streaming.
    pub fn ok(&self) -> bool {
        self.state == FileState::Applied
    }

    /// The transcript has ended: a call still open never ran, so a file
    /// still streaming fails.
    pub fn end(&mut self) {
        if self.state == FileState::Streaming {
            self.state = FileState::Failed;
            self.error =
                Some("the transcript ends before this file's last tool call closes".into());
        }
    }
}

/// Groups `calls` per file and applies each file's calls in order, each on
/// the previous one's result. `load(path)` gives a file's current text, or
/// `None` for a file that does not exist yet; its error refuses the file.
/// Calls whose path is still streaming are skipped: their file is unknown.
pub fn apply_calls<E: std::fmt::Display>(
    calls: &[ToolCall],
    mut load: impl FnMut(&str) -> Result<Option<String>, E>,
    options: ApplyOptions,
) -> Vec<FileEdit> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, call) in calls.iter().enumerate() {
        if !call.path_complete {
            continue;
        }
        let key = file_key(&call.path);
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    groups
        .into_iter()
        .map(|(_, members)| apply_file(calls, &members, &mut load, options))
        .collect()
}

/// Spellings of one file (`a.rs`, `./a.rs`, `x/../a.rs`) share one key, so
/// their edits chain instead of overwriting each other.
fn file_key(path: &str) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in Path::new(path).components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if parts.last().is_some_and(|p| p != "..") => {
                parts.pop();
            }
            other => parts.push(other.as_os_str().to_string_lossy().into_owned()),
        }
    }
    parts.join("/")
}

fn apply_file<E: std::fmt::Display>(
    calls: &[ToolCall],
    members: &[usize],
    load: &mut impl FnMut(&str) -> Result<Option<String>, E>,
    options: ApplyOptions,
) -> FileEdit {
    let path = members
        .first()
        .and_then(|&i| calls.get(i))
        .map(|c| c.path.clone())
        .unwrap_or_default();
    let mut edit = FileEdit {
        path: path.clone(),
        original: Some(String::new()),
        calls: Vec::new(),
        error: None,
        state: FileState::Applied,
    };
    match load(&path) {
        Ok(loaded) => edit.original = loaded,
        Err(e) => {
            edit.error = Some(e.to_string());
            edit.state = FileState::Refused;
            return edit;
        }
    }
    for &i in members {
        let Some(call) = calls.get(i) else { continue };
        // Each call applies to what the calls before it left.
        let current = edit.content();
        let mut result = apply_call(i, call, current, &path, options);
        // A diff against a file that does not exist can only fail: say that
        // first, not that its SEARCH text is missing from an empty file.
        if edit.is_new()
            && current.is_empty()
            && call.kind == CallKind::ReplaceInFile
            && let CallEffect::Failed(e) = &mut result.effect
        {
            *e = format!("{path} does not exist (is --cwd the project's folder?); {e}");
        }
        if call.partial {
            edit.state = FileState::Streaming;
        }
        if let Some(e) = result.error()
            && edit.error.is_none()
        {
            edit.error = Some(e.to_string());
        }
        edit.calls.push(result);
    }
    if edit.error.is_some() {
        edit.state = FileState::Failed;
    }
    edit
}

fn apply_call(
    index: usize,
    call: &ToolCall,
    current: &str,
    path: &str,
    options: ApplyOptions,
) -> CallResult {
    let body = engine::fixes::engine_input(&call.body, Path::new(path), options.fix_model_output);
    let mut result = CallResult {
        call: index,
        kind: call.kind,
        partial: call.partial,
        outcome: None,
        effect: CallEffect::Waiting,
    };
    match call.kind {
        CallKind::WriteToFile => {
            result.effect = CallEffect::Wrote(write_content(&body, current, call.partial));
        }
        CallKind::ReplaceInFile => {
            if body.is_empty() && !call.partial {
                result.effect = CallEffect::Failed("replace_in_file has no <diff>".into());
                return result;
            }
            let outcome = engine::apply(
                &body,
                current,
                Options {
                    version: options.version,
                    is_final: !call.partial,
                },
            );
            result.effect = match &outcome.result {
                Ok(applied) => CallEffect::Wrote(applied.new_content.clone()),
                Err(e) if !call.partial => CallEffect::Failed(describe(e)),
                Err(_) => CallEffect::Waiting,
            };
            result.outcome = Some(outcome);
        }
    }
    result
}

/// A final `write_to_file` is saved as Cline's editor saves it: trailing
/// white space trimmed, then a final newline kept if the file had one.
/// Streaming content is shown as it is.
fn write_content(body: &str, current: &str, partial: bool) -> String {
    if partial {
        return body.to_string();
    }
    let mut text = crate::engine::js::js_trim_end(body).to_string();
    if current.ends_with('\n') && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

fn describe(e: &engine::ApplyError) -> String {
    let block = e
        .block
        .map(|b| format!("block #{}", b + 1))
        .unwrap_or_else(|| "the diff".into());
    let at = e
        .diff_line
        .map(|l| format!(" (diff line {l})"))
        .unwrap_or_default();
    format!("{block} does not apply{at}: {}", e.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn spellings_of_one_file_share_a_key() {
        assert_cases(
            file_key,
            &[
                ("./a/b.rs", "a/b.rs"),
                ("a/x/../b.rs", "a/b.rs"),
                ("../b.rs", "../b.rs"),
            ],
        );
    }

    #[test]
    fn final_write_keeps_the_final_newline() {
        assert_eq!(write_content("x\n\n", "old\n", false), "x\n");
        assert_eq!(write_content("x", "", false), "x");
        assert_eq!(write_content("x  ", "", true), "x  ");
    }
}
