//! The one table of edit dialects: every value `--dialect` takes, what it
//! reads, the agents that write it, and the code that runs it. Adding a
//! dialect is its folder under `src/dialect/`, one row here and its tests
//! (docs/architecture.md, "How to add a dialect").

use super::Dialect;
use super::aider_diff::{AiderDiff, AiderUdiff};
use super::call::CallMatcher;
use super::cline_apply_patch::ClineApplyPatch;
use super::gemini_replace::GeminiReplace;
use super::opencode_apply_patch::OpencodeApplyPatch;
use super::opencode_edit::OpencodeEdit;
use super::pi_edit::PiEdit;
use super::qwen_edit::QwenEdit;

/// What runs a dialect.
#[derive(Clone, Copy)]
pub enum Engine {
    /// One of srview's own dialects, with the whole pipeline (previewer,
    /// streaming, check, fix, sessions).
    Builtin(Dialect),
    /// An agent's own matcher for one tool, ported exactly
    /// ([`CallMatcher`]): `apply` and `check` run it on one tool call.
    Call(&'static dyn CallMatcher),
}

/// How much one input of the dialect edits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// One file: `srview apply FILE INPUT`.
    OneFile,
    /// A whole patch over a folder: `srview apply --transcript PATCH --cwd DIR`.
    Folder,
}

/// Where a dialect keeps its edits' old and new texts.
#[derive(Debug, Clone, Copy)]
pub struct StringFields {
    /// The array of edits, when the input holds several (pi's `edits`,
    /// which may also come as a JSON string); `None`: the input is one edit.
    pub list: Option<&'static str>,
    /// The old text's key.
    pub old: &'static str,
    /// The new text's key.
    pub new: &'static str,
    /// The key of the flag that replaces every place of the old text
    /// (OpenCode's `replaceAll`, Gemini CLI's `allow_multiple`, Qwen
    /// Code's `replace_all`); `None`: the tool has none.
    pub replace_all: Option<&'static str>,
}

/// One dialect.
#[derive(Clone, Copy)]
pub struct DialectRow {
    /// The value `--dialect` takes, and the name JSON shows.
    pub value: &'static str,
    /// What it is, for `--help` and messages.
    pub title: &'static str,
    /// The agents (their session ids) whose tools write it.
    pub agents: &'static [&'static str],
    /// The code that runs it.
    pub engine: Engine,
    /// One file or a folder per input.
    pub scope: Scope,
    /// The tool input a plain text stands for (for Aider, whose edits come
    /// in the reply: `{"reply": TEXT}`; for a patch tool, its patch field),
    /// or `None` when the input must be the tool's JSON.
    pub text_field: Option<&'static str>,
    /// The tool input shapes only this dialect has: a JSON object holding
    /// every key of one of these lists is read in it when no `--dialect`
    /// is given. Empty for a dialect detected from its text, or whose
    /// shape another shares (Qwen's edit is Claude Code's Edit): then
    /// `--dialect` (or the session's agent) decides.
    pub keys: &'static [&'static [&'static str]],
    /// Where its edits' old and new texts are, for a dialect of old/new
    /// string edits: srview explains and corrects them
    /// ([`super::call_correct`]).
    pub strings: Option<StringFields>,
    /// The key of the one file its tool input edits (OpenCode's
    /// `filePath`, pi's `path`...), for an agent matcher's one-file tool:
    /// `srview apply FILE INPUT` and the previewer run it on FILE when that
    /// path names FILE ([`DialectRow::aim`]), and refuse it otherwise.
    pub path_key: Option<&'static str>,
}

impl std::fmt::Debug for DialectRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.value)
    }
}

impl PartialEq for DialectRow {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl DialectRow {
    /// The agent matcher of a [`Engine::Call`] row.
    pub fn matcher(&self) -> Option<&'static dyn CallMatcher> {
        match self.engine {
            Engine::Call(matcher) => Some(matcher),
            Engine::Builtin(_) => None,
        }
    }

    /// The srview dialect of a [`Engine::Builtin`] row.
    pub fn builtin(&self) -> Option<Dialect> {
        match self.engine {
            Engine::Builtin(dialect) => Some(dialect),
            Engine::Call(_) => None,
        }
    }

    /// The path `input` names as the file it edits (see
    /// [`DialectRow::path_key`]), as the agent's tool reads it (pi's `@`
    /// and `~/` expanded as its `expandPath` does, Gemini CLI's leading `@`
    /// dropped); `None` for a tool of another kind.
    pub fn named_path<'a>(
        &self,
        input: &'a serde_json::Value,
    ) -> Option<std::borrow::Cow<'a, str>> {
        use std::borrow::Cow;
        // An empty path names no file: the agent's own validation says so.
        let named = self.written_path(input)?;
        Some(match self.value {
            // A tester's find: `~/proj/src/inv.py` was refused as another
            // file, where the agent reads the file `src/inv.py` is.
            "pi-edit" => Cow::Owned(super::pi_edit::expanded_path(named)),
            "gemini-replace" => Cow::Borrowed(named.strip_prefix('@').unwrap_or(named)),
            _ => Cow::Borrowed(named),
        })
    }

    /// The path `input` names as the model wrote it (see
    /// [`DialectRow::named_path`]); `None` when it names none.
    pub fn written_path<'a>(&self, input: &'a serde_json::Value) -> Option<&'a str> {
        input
            .get(self.path_key?)?
            .as_str()
            .filter(|p| !p.trim().is_empty())
    }

    /// `input` aimed at FILE, `path` as a matcher running in `cwd` names it
    /// (relative to `cwd` where it is below it): the path the input names
    /// replaced when it reaches another file there (an edit saved from a
    /// session names the agent's machine's path), so the matcher reads
    /// and writes FILE; `input` as it is when its path already reaches
    /// FILE (the agent's texts then name it as the model wrote it), and
    /// for a tool without a path. The caller has checked that the input
    /// names FILE ([`crate::dialect::one_file::names_file`]).
    pub fn aim(&self, input: &serde_json::Value, cwd: &str, path: &str) -> serde_json::Value {
        let file = super::call::fs_path(cwd, path);
        let reaches = self
            .named_path(input)
            .is_none_or(|named| super::call::fs_path(cwd, &named) == file);
        let mut aimed = input.clone();
        if !reaches && let (Some(key), Some(object)) = (self.path_key, aimed.as_object_mut()) {
            object.insert(key.to_string(), file.into());
        }
        aimed
    }

    /// The tool input `text` stands for: the JSON it holds when it is a
    /// JSON object, else the text in the dialect's text field. `None` for a
    /// text that is neither (the dialect takes JSON only).
    pub fn input_of(&self, text: &str) -> Option<serde_json::Value> {
        let parsed = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .filter(serde_json::Value::is_object);
        let wrapped = |field: &str| {
            let mut object = serde_json::Map::new();
            object.insert(field.to_string(), text.into());
            serde_json::Value::Object(object)
        };
        match (parsed, self.text_field) {
            // Aider's tool input as JSON (`{"reply": TEXT}`), else the
            // reply text itself, even when it parses as JSON.
            (Some(json), Some("reply")) if json.get("reply").is_some_and(|r| r.is_string()) => {
                Some(json)
            }
            (_, Some("reply")) => Some(wrapped("reply")),
            (Some(json), _) => Some(json),
            (None, Some(field)) => Some(wrapped(field)),
            (None, None) => None,
        }
    }
}

/// The row of a dialect that `engine` runs; a row of [`DIALECTS`] states
/// only what differs from its defaults: one file per input, no text field,
/// no keys of its own, no old/new strings, no path key.
const fn row(
    value: &'static str,
    title: &'static str,
    agents: &'static [&'static str],
    engine: Engine,
) -> DialectRow {
    DialectRow {
        value,
        title,
        agents,
        engine,
        scope: Scope::OneFile,
        text_field: None,
        keys: &[],
        strings: None,
        path_key: None,
    }
}

/// The row of one of srview's own dialects, under its name.
const fn builtin(
    dialect: Dialect,
    title: &'static str,
    agents: &'static [&'static str],
) -> DialectRow {
    row(dialect.name(), title, agents, Engine::Builtin(dialect))
}

/// The row of an agent's tool, which its ported `matcher` runs.
const fn call(
    value: &'static str,
    title: &'static str,
    agents: &'static [&'static str],
    matcher: &'static dyn CallMatcher,
) -> DialectRow {
    row(value, title, agents, Engine::Call(matcher))
}

/// The [`StringFields`] of a tool whose input is one edit.
const fn one_edit(old: &'static str, new: &'static str, replace_all: &'static str) -> StringFields {
    StringFields {
        list: None,
        old,
        new,
        replace_all: Some(replace_all),
    }
}

/// The changes to a row's defaults ([`row`]).
impl DialectRow {
    /// A whole patch over a folder per input.
    const fn folder(self) -> Self {
        DialectRow {
            scope: Scope::Folder,
            ..self
        }
    }

    /// The tool input a plain text stands for: `field` holding it.
    const fn text_field(self, field: &'static str) -> Self {
        DialectRow {
            text_field: Some(field),
            ..self
        }
    }

    /// The input shapes only this dialect has.
    const fn keys(self, keys: &'static [&'static [&'static str]]) -> Self {
        DialectRow { keys, ..self }
    }

    /// Old/new string edits, of the tool whose `path_key` names its file.
    const fn strings(self, strings: StringFields, path_key: &'static str) -> Self {
        DialectRow {
            strings: Some(strings),
            path_key: Some(path_key),
            ..self
        }
    }
}

/// Every dialect, srview's own first; `--dialect` lists them in this order.
pub static DIALECTS: &[DialectRow] = &[
    builtin(
        Dialect::SearchReplace,
        "SEARCH/REPLACE blocks, Cline v4.0.10's matcher",
        &["cline-classic"],
    ),
    builtin(
        Dialect::ApplyPatch,
        "Codex 0.169.0's apply_patch",
        &["codex"],
    ),
    builtin(
        Dialect::EditJson,
        "one exact-string edit as JSON (Claude Code Edit/Write, Cline's editor)",
        &["claude-code", "cline-cli"],
    ),
    call(
        "aider-diff",
        "Aider 0.86.2's diff edit format",
        &["aider"],
        &AiderDiff,
    )
    .text_field("reply")
    .keys(&[&["reply"]]),
    call(
        "aider-udiff",
        "Aider 0.86.2's udiff edit format",
        &["aider"],
        &AiderUdiff,
    )
    .text_field("reply"),
    call(
        "opencode-edit",
        "OpenCode 1.18.33's edit tool",
        &["opencode"],
        &OpencodeEdit,
    )
    .keys(&[&["filePath", "oldString"]])
    .strings(one_edit("oldString", "newString", "replaceAll"), "filePath"),
    call(
        "opencode-apply-patch",
        "OpenCode 1.18.33's apply_patch tool",
        &["opencode"],
        &OpencodeApplyPatch,
    )
    .folder()
    .text_field("patchText")
    .keys(&[&["patchText"]]),
    call(
        "gemini-replace",
        "Gemini CLI 0.61.0's replace tool",
        &["gemini-cli"],
        &GeminiReplace,
    )
    .keys(&[&["instruction", "old_string"]])
    .strings(
        one_edit("old_string", "new_string", "allow_multiple"),
        "file_path",
    ),
    // Claude Code's Edit has the same keys (so none here): --dialect or the
    // session's agent decides.
    call(
        "qwen-edit",
        "Qwen Code 0.24.4's edit tool",
        &["qwen-code"],
        &QwenEdit,
    )
    .strings(
        one_edit("old_string", "new_string", "replace_all"),
        "file_path",
    ),
    call("pi-edit", "pi 0.73.1's edit tool", &["pi"], &PiEdit)
        .keys(&[&["path", "edits"], &["path", "oldText"]])
        .strings(
            StringFields {
                list: Some("edits"),
                old: "oldText",
                new: "newText",
                replace_all: None,
            },
            "path",
        ),
    call(
        "cline-apply-patch",
        "Cline 3.0.65's apply_patch tool",
        &["cline-cli"],
        &ClineApplyPatch,
    )
    .folder()
    .text_field("input")
    .keys(&[&["input"]]),
];

/// The row whose `--dialect` value is `value`.
pub fn find(value: &str) -> Option<&'static DialectRow> {
    DIALECTS.iter().find(|row| row.value == value)
}

/// The agent dialect whose own input shape `text` has (see
/// [`DialectRow::keys`]), if any.
pub fn detect_call(text: &str) -> Option<&'static DialectRow> {
    let start = text.trim_start();
    if !start.starts_with('{') {
        return None;
    }
    let json: serde_json::Value = serde_json::from_str(start).ok()?;
    let object = json.as_object()?;
    DIALECTS.iter().find(|row| {
        row.keys
            .iter()
            .any(|keys| keys.iter().all(|k| object.contains_key(*k)))
    })
}

/// The row of one of srview's own dialects.
pub fn of_builtin(dialect: Dialect) -> &'static DialectRow {
    DIALECTS
        .iter()
        .find(|row| row.builtin() == Some(dialect))
        .unwrap_or(&DIALECTS[0])
}

/// What an agent's matcher does with one call on one file: `input` run by
/// the `dialect` row's matcher over a folder (`cwd`) holding only `content`
/// at `path` (as the agent names it; `None`: the file does not exist).
pub struct FileRun {
    /// The agent's result.
    pub outcome: super::call::CallOutcome,
    /// `path` as the outcome's writes name it ([`fs_path`](super::call::fs_path)).
    pub path: String,
}

impl FileRun {
    /// The file as the agent leaves it: `Some(None)` deleted, `None` not
    /// written.
    pub fn written(&self) -> Option<Option<&str>> {
        self.outcome.written(&self.path)
    }
}

/// Runs `dialect`'s matcher (see [`FileRun`]); `None` when the row has no
/// matcher.
pub fn run_on_file(
    dialect: &str,
    input: &serde_json::Value,
    path: &str,
    content: Option<&str>,
    cwd: &str,
) -> Option<FileRun> {
    let matcher = find(dialect)?.matcher()?;
    // The contract's root is absolute (the agents' texts name paths from
    // it); a session recorded without one runs in the current folder.
    let absolute = match std::path::absolute(cwd) {
        Ok(root) if !cwd.starts_with('/') => super::call::normalize(&root.to_string_lossy()),
        _ => cwd.trim_end_matches('/').to_string(),
    };
    let cwd = absolute.as_str();
    let path = super::call::fs_path(cwd, path);
    let fs = super::apply_patch::fs::OneFileFs::new(&path, content);
    let outcome = matcher.run(&super::call::ToolCall {
        input,
        cwd,
        fs: &fs,
    });
    Some(FileRun { outcome, path })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_is_listed_once_and_builtins_map_back() {
        for (i, row) in DIALECTS.iter().enumerate() {
            assert!(
                DIALECTS[i + 1..].iter().all(|r| r.value != row.value),
                "{} twice",
                row.value
            );
            assert_eq!(find(row.value), Some(row));
        }
        for dialect in [
            Dialect::SearchReplace,
            Dialect::ApplyPatch,
            Dialect::EditJson,
        ] {
            assert_eq!(of_builtin(dialect).value, dialect.name());
        }
    }
}
