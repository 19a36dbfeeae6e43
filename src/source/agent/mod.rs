//! Coding agents' own output, live or saved, read into one shape: the
//! ordered list of file edits the agent made ([`AgentEdit`]), each with the
//! agent's verdict and, where the format records it, the file's content
//! before and after.
//!
//! Formats (see docs/agents.md): Claude Code stream-json and project
//! session JSONL; Codex `exec --json`, app-server JSON-RPC log and rollout
//! JSONL; Cline CLI 3.x `--json` agent events and `<id>.messages.json`;
//! Cline classic UI messages (the `--json` stdout, or any version of
//! `ui_messages.json`) and `api_conversation_history.json`; Aider stdout and
//! `.aider.chat.history.md`; pi `--mode json` and its session JSONL; Qwen
//! Code `stream-json` and its chat records; OpenCode `run --format json`
//! and its SQLite database (read as lines made of its rows: [`database`]);
//! Gemini CLI stream-json and `session-*.jsonl` (its `--output-format json`
//! summary is said to carry no edits).
//!
//! Pure: an [`AgentReader`] is fed bytes as they arrive and keeps the edits
//! so far. Line formats only read complete lines (a torn last line is kept
//! until it grows or the input ends); unknown line types and fields are
//! skipped. Whole-document formats (the Cline JSON files) are parsed at
//! [`AgentReader::finish`]; [`AgentReader::snapshot`] reads a document that
//! is rewritten in place, version by version. [`session`] reads files as
//! streams; [`SessionReport`] is the `srview session --json` shape.
//!
//! ```
//! use srview::source::agent::{AgentKind, AgentReader, Format, Verdict};
//! let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson);
//! reader.feed(br#"{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"c1","input":{"path":"a.py","old_text":"x = 1","new_text":"x = 2"}}}
//! {"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"editor","toolCallId":"c1","output":{"success":true}}}
//! "#);
//! let edits = reader.finish();
//! assert_eq!(edits.len(), 1);
//! assert_eq!(edits[0].file, "a.py");
//! assert_eq!(edits[0].agent_verdict, Verdict::Applied);
//! ```

mod aider;
mod anthropic;
mod claude;
mod cline_classic;
mod cline_cli;
pub use cline_cli::messages_of_manifest as cline_cli_messages_of_manifest;
mod codex;
pub mod database;
pub mod database_format;
mod detect;
mod error;
mod gemini_cli;
mod lines;
pub mod live;
mod opencode;
mod patch;
mod pi;
mod qwen;
mod reader;
mod report;
pub mod session;
mod store;
pub mod table;

pub use detect::{detect, detect_path};
pub use error::AgentError;
pub use patch::{PatchSection, SectionKind, split_patch};
pub use report::{EditReport, SessionReport};

use serde::Serialize;

use crate::dialect::edit::{Edit, PartialEdit};

/// The agents srview reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AgentKind {
    /// Claude Code.
    ClaudeCode,
    /// OpenAI Codex CLI.
    Codex,
    /// Cline CLI 3.x.
    ClineCli,
    /// Cline's classic extension (and its `--json` CLI).
    ClineClassic,
    /// Aider.
    Aider,
    /// pi (`@earendil-works/pi-coding-agent`).
    Pi,
    /// Gemini CLI.
    GeminiCli,
    /// Qwen Code.
    QwenCode,
    /// OpenCode.
    #[serde(rename = "opencode")]
    OpenCode,
}

impl AgentKind {
    /// The name in `srview session --json` (`claude-code`, `codex`, ...).
    pub fn name(self) -> &'static str {
        table::agent(self).id
    }

    /// How the agent names itself in a verdict ("Claude Code: applied").
    pub fn display_name(self) -> &'static str {
        table::agent(self).display_name
    }

    /// Everything else srview knows of the agent.
    pub fn row(self) -> &'static table::AgentRow {
        table::agent(self)
    }
}

/// One way an agent writes its output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// `claude -p --output-format stream-json --verbose` (live).
    ClaudeStreamJson,
    /// `~/.claude/projects/<cwd>/<session>.jsonl` (saved; appended live).
    ClaudeSessionJsonl,
    /// `codex exec --json` (live; names changed files only).
    CodexExecJson,
    /// A `codex app-server` JSON-RPC log, one `{dir, msg}` per line, or the
    /// server's bare messages.
    CodexAppServer,
    /// `~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl` (saved; appended live).
    CodexRollout,
    /// `cline --json` agent events (live).
    ClineCliJson,
    /// `~/.cline/data/sessions/<id>/<id>.messages.json` (saved).
    ClineCliMessages,
    /// Cline classic UI messages: the CLI's `--json` message stream (one
    /// object per line or pretty-printed) or a version of `ui_messages.json`.
    ClineUiMessages,
    /// Cline classic `api_conversation_history.json` (saved).
    ClineApiHistory,
    /// `aider --no-pretty` stdout (live).
    AiderStdout,
    /// `.aider.chat.history.md` (saved; appended after each reply).
    AiderHistory,
    /// `qwen -p --output-format stream-json` (live; Claude Code-like lines).
    QwenStreamJson,
    /// `~/.qwen/projects/<cwd>/chats/<session-id>.jsonl` (saved; appended live).
    QwenChatJsonl,
    /// `pi -p --mode json` (live; tool inputs stream as `toolcall_delta`).
    PiJson,
    /// `~/.pi/agent/sessions/--<cwd>--/<timestamp>_<uuid>.jsonl` (saved,
    /// format version 3; appended live).
    PiSession,
    /// `opencode run --format json` (live; a tool part once it has run).
    OpenCodeRunJson,
    /// OpenCode's SQLite `~/.local/share/opencode/opencode.db` (saved;
    /// read as it grows), as lines made of its rows.
    OpenCodeDatabase,
    /// `gemini -p --output-format stream-json` (live; whole tool inputs).
    GeminiStreamJson,
    /// `~/.gemini/tmp/<project>/chats/session-*.jsonl` (saved; appended live).
    GeminiSessionJsonl,
    /// `gemini -p --output-format json`: one summary document, no edits.
    GeminiJson,
}

impl Format {
    /// The agent writing this format.
    pub fn agent(self) -> AgentKind {
        table::format(self).agent
    }

    /// Whether the format is one JSON document (read once complete) rather
    /// than a sequence of lines or objects.
    pub fn is_document(self) -> bool {
        table::format(self).arrival == table::Arrival::Document
    }

    /// Everything else srview knows of the format.
    pub fn row(self) -> &'static table::FormatRow {
        table::format(self)
    }
}

/// The agent's tool, by the agent's own name for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum AgentTool {
    /// Claude Code `Edit`.
    Edit,
    /// Claude Code `Write`.
    Write,
    /// Codex / Cline CLI `apply_patch` (one edit per file section).
    #[serde(rename = "apply_patch")]
    ApplyPatch,
    /// Cline CLI 3.x `editor`.
    #[serde(rename = "editor")]
    Editor,
    /// Cline classic `replace_in_file`.
    #[serde(rename = "replace_in_file")]
    ReplaceInFile,
    /// Cline classic `write_to_file`.
    #[serde(rename = "write_to_file")]
    WriteToFile,
    /// One Aider SEARCH/REPLACE block (`--edit-format diff`).
    #[serde(rename = "aider-block")]
    AiderBlock,
    /// One Aider unified-diff hunk (`--edit-format udiff`).
    #[serde(rename = "aider-udiff")]
    AiderUdiff,
    /// One Aider whole file (`--edit-format whole`).
    #[serde(rename = "aider-whole")]
    AiderWhole,
    /// pi, Qwen Code and OpenCode `edit` (lower case: not Claude Code's `Edit`).
    #[serde(rename = "edit")]
    EditLower,
    /// pi and OpenCode `write`.
    #[serde(rename = "write")]
    WriteLower,
    /// Gemini CLI `replace`.
    #[serde(rename = "replace")]
    Replace,
    /// Gemini CLI and Qwen Code `write_file`.
    #[serde(rename = "write_file")]
    WriteFile,
}

impl AgentTool {
    /// The tool's name as the agent gives it (`Edit`, `apply_patch`, `replace_in_file`, ...), or
    /// `aider-block`/`aider-udiff`/`aider-whole` for Aider's edit formats.
    pub fn name(self) -> &'static str {
        match self {
            AgentTool::Edit => "Edit",
            AgentTool::Write => "Write",
            AgentTool::ApplyPatch => "apply_patch",
            AgentTool::Editor => "editor",
            AgentTool::ReplaceInFile => "replace_in_file",
            AgentTool::WriteToFile => "write_to_file",
            AgentTool::AiderBlock => "aider-block",
            AgentTool::AiderUdiff => "aider-udiff",
            AgentTool::AiderWhole => "aider-whole",
            AgentTool::EditLower => "edit",
            AgentTool::WriteLower => "write",
            AgentTool::Replace => "replace",
            AgentTool::WriteFile => "write_file",
        }
    }
}

/// What the edit asks for, in the form the agent gave it.
#[derive(Debug, Clone, PartialEq)]
pub enum EditInput {
    /// A SEARCH/REPLACE diff with Cline's markers (`------- SEARCH`,
    /// `=======`, `+++++++ REPLACE`): Cline classic `replace_in_file`, and
    /// an Aider block rewritten with those markers.
    SearchReplace(String),
    /// One file's section of an apply_patch call, as a whole patch of its
    /// own (`*** Begin Patch` ... `*** End Patch`).
    ApplyPatch(String),
    /// A complete exact-string tool input (Claude Code Edit/Write, Cline
    /// `editor`).
    Exact(Edit),
    /// An exact-string tool input still streaming.
    Partial(PartialEdit),
    /// The whole new content of the file (`write_to_file`, Aider whole).
    Whole(String),
    /// A unified diff of one file (an Aider udiff hunk; Codex app-server
    /// `fileChange` diffs).
    UnifiedDiff(String),
    /// The format names the file only (Codex `exec --json`).
    NotRecorded,
    /// A tool call its agent's own matcher runs (a registry row with a
    /// [`CallMatcher`](crate::dialect::call::CallMatcher)).
    Call(CallInput),
}

/// A tool call for its agent's own matcher.
#[derive(Debug, Clone, PartialEq)]
pub struct CallInput {
    /// The registry row's `--dialect` value (`aider-diff`, `pi-edit`, ...).
    pub dialect: &'static str,
    /// The tool input exactly as the model sent it (Aider: `{"reply": TEXT}`).
    pub input: serde_json::Value,
    /// The file it edits, as the agent names it (absolute, or relative to
    /// the agent's folder): the content before is put there for the matcher.
    pub path: String,
}

impl CallInput {
    /// The input as the model wrote it: Aider's reply text, else the JSON.
    pub fn text(&self) -> String {
        match self.input.get("reply").and_then(serde_json::Value::as_str) {
            Some(reply) => reply.to_string(),
            _ => serde_json::to_string_pretty(&self.input).unwrap_or_default(),
        }
    }
}

impl EditInput {
    /// A call of a tool whose input names its file `file_path` (Gemini
    /// CLI's and Qwen Code's tools): `write_file`'s `content` is the whole
    /// file; any other tool's input is run by `dialect`. `None`, with the
    /// missing field recorded under `what`, when the input lacks the path
    /// or the content a write needs. Returns the path and the input.
    fn of_file_path_call(
        tool: AgentTool,
        args: &serde_json::Value,
        dialect: &'static str,
        store: &mut store::Store,
        what: &str,
    ) -> Option<(String, EditInput)> {
        use serde_json::Value;
        let Some(path) = args.get("file_path").and_then(Value::as_str) else {
            store.missing(what, "file_path");
            return None;
        };
        let input = match tool {
            AgentTool::WriteFile => {
                let Some(content) = args.get("content").and_then(Value::as_str) else {
                    store.missing(what, "content");
                    return None;
                };
                EditInput::Whole(content.to_string())
            }
            _ => EditInput::Call(CallInput {
                dialect,
                input: args.clone(),
                path: path.to_string(),
            }),
        };
        Some((path.to_string(), input))
    }

    /// The edit's own text, as srview reads it as a diff: the SEARCH/REPLACE
    /// blocks, the patch section, the tool input as edit JSON (`{"tool":
    /// "Edit", "file_path": ...}`; while it streams, as far as it has
    /// arrived), the whole content, the unified diff. `None` when the
    /// output does not record it (Codex `exec --json`), or a streaming
    /// input has no edit yet.
    pub fn text(&self) -> Option<String> {
        match self {
            EditInput::SearchReplace(t)
            | EditInput::ApplyPatch(t)
            | EditInput::Whole(t)
            | EditInput::UnifiedDiff(t) => Some(t.clone()),
            EditInput::Exact(edit) => serde_json::to_string(edit).ok(),
            EditInput::Partial(p) => p.edit_so_far().and_then(|e| serde_json::to_string(&e).ok()),
            EditInput::NotRecorded => None,
            EditInput::Call(call) => Some(call.text()),
        }
    }
}

/// The agent's own verdict on an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The agent wrote the edit.
    Applied,
    /// The agent tried it and reported an error.
    Failed,
    /// The edit was produced but never executed (not approved, dropped with
    /// a failing sibling, the run ended without running it). An input that
    /// merely ends before any verdict leaves this too for a reader, noted
    /// in [`AgentReader::ended_without_verdict`]: a review shows those
    /// `Pending` (the agent may have run them).
    NotRun,
    /// No verdict yet (the input has not ended).
    Pending,
}

impl Verdict {
    /// The word written in `srview session --json` (`applied`, `failed`, `not-run`, `pending`).
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Applied => "applied",
            Verdict::Failed => "failed",
            Verdict::NotRun => "not-run",
            Verdict::Pending => "pending",
        }
    }
}

/// A file's content at one point, as far as the agent's output tells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileContent {
    /// The file did not exist.
    Absent,
    /// The file's whole text.
    Text(String),
}

impl FileContent {
    /// The text, `None` for an absent file (the shape of expected.json).
    pub fn text(&self) -> Option<&str> {
        match self {
            FileContent::Absent => None,
            FileContent::Text(t) => Some(t),
        }
    }
}

/// Where a content came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContentOrigin {
    /// Written in the agent's output for this edit (Claude Code
    /// `originalFile`, Cline's `<file_content>`, a created file's content).
    Recorded,
    /// Carried over from an earlier edit of the same file in this session
    /// (its content after, or before when it was not applied), or from a
    /// whole-file read the output records since (Gemini CLI's `read_file`
    /// output in its saved session). Never across
    /// a shell command the agent ran; right unless something else wrote the
    /// file in between.
    Chained,
    /// Computed by applying the recorded edit to its recorded content
    /// before, with the agent's own semantics (Claude Code Edit).
    Derived,
}

/// A content with its origin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Content {
    /// The file's content (or its absence).
    pub content: FileContent,
    /// Whether it was recorded, chained from an earlier edit, or derived.
    pub origin: ContentOrigin,
}

/// One edit of one file, in the order the agent made it.
#[derive(Debug, Clone, PartialEq)]
pub struct AgentEdit {
    /// From 1, in the order the agent made the edits.
    pub seq: usize,
    /// Relative to the workspace when inside it, else as the agent wrote it.
    /// Empty while the path itself is still streaming.
    pub file: String,
    /// The tool the agent called.
    pub tool: AgentTool,
    /// What the edit asks for, in the agent's own form.
    pub input: EditInput,
    /// The input is still arriving.
    pub streaming: bool,
    /// The agent's own verdict on the edit.
    pub agent_verdict: Verdict,
    /// The agent's own error text.
    pub agent_message: Option<String>,
    /// The file's content before the edit, when the output tells it.
    pub content_before: Option<Content>,
    /// The file's content after the edit, when the output tells it.
    pub content_after: Option<Content>,
    /// The unified diff the agent recorded of this edit once applied
    /// (Codex `FileChange`): with the file as it is now, it gives the
    /// content before by reverse application.
    pub agent_diff: Option<String>,
    /// The git commit the agent made right after the edit's reply (Aider's
    /// `Commit <sha> <message>`, its last one for that reply): its parent
    /// holds the files before the reply's edits.
    pub commit: Option<String>,
    /// The model's stream ended inside this tool call (no finish reason)
    /// and the agent ran the input as far as it had arrived (pi): an
    /// applied edit is a cut-off edit.
    pub cut_off: bool,
    /// The tool call's id as the agent's pre-edit hook names it (Claude
    /// Code's `tool_use` id, Codex's `call_id`), where the session records
    /// it: the gate's record is joined by it (`crate::gate::record`).
    pub call_id: Option<String>,
}

impl AgentEdit {
    /// The content before as the text/absent shape of expected.json:
    /// `None` when unknown.
    pub fn before(&self) -> Option<&FileContent> {
        self.content_before.as_ref().map(|c| &c.content)
    }

    /// The content after, as the text/absent shape of expected.json: `None` when unknown.
    pub fn after(&self) -> Option<&FileContent> {
        self.content_after.as_ref().map(|c| &c.content)
    }

    /// The input srview runs and draws for this edit of `agent`'s: where
    /// the agent's table row maps the edit's tool to a dialect with a
    /// matcher of its own (Cline CLI's apply_patch: `cline-apply-patch`,
    /// Cline's lenient variant of Codex's), a patch section read as
    /// [`EditInput::ApplyPatch`] is that matcher's [`EditInput::Call`], as
    /// a call the reader gives as one is; else the input as read. The
    /// session review, the previewer (live or saved) and `check --session`
    /// all run this one, so none falls back to Codex's rules.
    pub fn runs_as(&self, agent: AgentKind) -> std::borrow::Cow<'_, EditInput> {
        use std::borrow::Cow;
        let EditInput::ApplyPatch(patch) = &self.input else {
            return Cow::Borrowed(&self.input);
        };
        let row = agent
            .row()
            .tools
            .iter()
            .find(|(tool, _)| *tool == self.tool)
            .and_then(|(_, dialect)| crate::dialect::registry::find(dialect))
            .filter(|row| row.matcher().is_some());
        match row.and_then(|row| Some((row.value, row.input_of(patch)?))) {
            Some((dialect, input)) => Cow::Owned(EditInput::Call(CallInput {
                dialect,
                input,
                path: self.file.clone(),
            })),
            None => Cow::Borrowed(&self.input),
        }
    }
}

/// What changed in the edit list during one [`AgentReader::feed`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AgentEvent {
    /// A new edit (its `seq`).
    Started(usize),
    /// Its input, file or contents changed.
    Updated(usize),
    /// Its verdict is now known.
    Finished(usize),
    /// The agent's version, as the input names it.
    Version(String),
}

/// Reads one agent output fed in pieces.
pub struct AgentReader {
    format: Format,
    checkpoints: Vec<String>,
    /// The input ended inside a line (a line format's torn last line).
    ended_inside_line: bool,
    input: lines::Input,
    parser: Box<dyn reader::FormatReader>,
    store: store::Store,
    finished: bool,
    /// The session's id and time span as its lines name them, for the
    /// agents whose gate decisions are joined by tool input
    /// ([`SessionStamp`]).
    stamp: SessionStamp,
}

/// Which session an output is, as far as its lines tell: the session id
/// (Gemini CLI's and Qwen Code's `session_id`, Gemini CLI's saved
/// session's `sessionId`, OpenCode's `sessionID`,
/// pi's session header `id`: the id each agent's hook, or srview's plugin
/// and extension, sends the gate) and the first and last times its lines
/// carry (`timestamp`, milliseconds since 1970). Read for the agents
/// whose gate decisions are joined by tool input (a decision of another
/// session with the same input must not be joined:
/// `crate::gate::record::join_keys`); empty for the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStamp {
    /// The first session id the output names.
    pub id: Option<String>,
    /// The earliest and latest `timestamp` of its lines.
    pub span: Option<(i64, i64)>,
}

impl SessionStamp {
    /// Notes what `unit` (one line or object of the output) tells: only
    /// its first and last bytes are looked at (a top-level key comes first
    /// in the agents' live lines, last in OpenCode's database rows as
    /// srview writes them), so a long line costs nothing more.
    fn note(&mut self, unit: &str) {
        const EDGE: usize = 320;
        let head = unit.get(..EDGE.min(unit.len())).unwrap_or(unit);
        let tail_at = (unit.len().saturating_sub(EDGE)..unit.len())
            .find(|&i| unit.is_char_boundary(i))
            .unwrap_or(unit.len());
        let tail = &unit[tail_at..];
        if self.id.is_none() {
            let pi_header = head.starts_with("{\"type\":\"session\"");
            let keys: &[&str] = if pi_header {
                &["\"id\":\""]
            } else {
                &["\"session_id\":\"", "\"sessionId\":\"", "\"sessionID\":\""]
            };
            self.id = [head, tail].iter().find_map(|edge| {
                keys.iter().find_map(|key| {
                    let rest = &edge[edge.find(key)? + key.len()..];
                    let id = &rest[..rest.find('"')?];
                    (!id.is_empty()).then(|| id.to_string())
                })
            });
        }
        let time = [head, tail].iter().find_map(|edge| {
            let rest = &edge[edge.find("\"timestamp\":")? + "\"timestamp\":".len()..];
            match rest.strip_prefix('"') {
                Some(text) => crate::source::time::epoch_ms(&text[..text.find('"')?]),
                None => rest
                    .split(|c: char| !c.is_ascii_digit())
                    .next()?
                    .parse()
                    .ok(),
            }
        });
        if let Some(time) = time {
            self.span = Some(match self.span {
                Some((first, last)) => (first.min(time), last.max(time)),
                None => (time, time),
            });
        }
    }
}

impl AgentReader {
    /// A reader of `format` (which `kind` writes: `format.agent()` is the
    /// one used).
    pub fn new(kind: AgentKind, format: Format) -> AgentReader {
        debug_assert_eq!(kind, format.agent());
        AgentReader {
            format,
            checkpoints: Vec::new(),
            ended_inside_line: false,
            input: input_for(format),
            parser: parser_for(format),
            store: store::Store::new(format.agent()),
            finished: false,
            stamp: SessionStamp::default(),
        }
    }
}

fn parser_for(format: Format) -> Box<dyn reader::FormatReader> {
    (table::format(format).reader)()
}

fn input_for(format: Format) -> lines::Input {
    match table::format(format).arrival {
        table::Arrival::Objects => lines::Input::objects(),
        table::Arrival::Document => lines::Input::document(),
        table::Arrival::Lines | table::Arrival::Database => lines::Input::lines(),
    }
}

impl AgentReader {
    /// The workspace the agent ran in: paths inside it are shown relative.
    /// Overrides the one the output records (Claude Code `cwd`, Codex
    /// `cwd`...), which is used when this is not called.
    pub fn with_workspace(mut self, dir: &str) -> AgentReader {
        self.store.set_workspace(dir, true);
        self
    }

    /// How to tell that a path relative to the caller's workspace
    /// ([`AgentReader::with_workspace`]) names a file there: absolute paths
    /// outside the workspace (an output that records absolute paths and no
    /// workspace, as Cline CLI's `--json`, run in a folder since moved) are
    /// then mapped onto it by their longest suffix that `exists`
    /// (`/home/user/project/src/a.py` as `src/a.py`), never by the file
    /// name alone when a longer suffix exists, and every later path under
    /// the same folder likewise. [`AgentReader::mapped_paths`] says each
    /// folder so mapped.
    pub fn with_existing(mut self, exists: impl Fn(&str) -> bool + 'static) -> AgentReader {
        self.store.set_exists(Box::new(exists));
        self
    }

    /// A reader that keeps no contents (no edit's content before or after,
    /// no file read between edits): what a survey of a huge session needs
    /// (each edit's file, tool, input and verdict, the session's version,
    /// workspace and problems) is the same, and the readers that can skip
    /// reading the contents do (Claude Code's: a 10 KB file in each
    /// result). Call before the first piece is fed.
    pub fn without_contents(mut self) -> AgentReader {
        self.store.drop_contents();
        self
    }

    /// One sentence per folder whose paths were mapped onto the caller's
    /// workspace (see [`AgentReader::with_existing`]), to be said once;
    /// also a reader's notice of an agent version it was not built on.
    pub fn mapped_paths(&self) -> Vec<String> {
        self.store.mapped_notes()
    }

    /// Where Claude Code's file-history backups are read:
    /// `read(session id, backup file name)` gives a backup's content. A
    /// session's `file-history-delta` lines name the backup of a file taken
    /// before an edit: it becomes that edit's content before.
    pub fn with_backups(
        mut self,
        read: impl FnMut(&str, &str) -> Option<String> + 'static,
    ) -> AgentReader {
        self.store.set_backups(Box::new(read));
        self
    }

    /// A side file shows the agent's run stopped after the output's last
    /// record (a Cline classic task's UI messages offer to resume it while
    /// its last edit awaited approval): the edits the output ends without a
    /// verdict on were never run, not cut off.
    pub(super) fn stopped_at_end(&mut self) {
        self.store.stopped_at_end();
    }

    /// The agent's version as a side file names it (Cline's
    /// `task_metadata.json`, a Cline CLI manifest).
    pub fn set_version(&mut self, version: &str) {
        self.store.set_version(version);
    }

    /// Git commits the agent recorded as checkpoints of the workspace,
    /// oldest first (a Cline CLI manifest's `metadata.checkpoint.history`:
    /// the workspace before each run). The file contents before the run's
    /// first edits are there.
    pub fn checkpoints(&self) -> &[String] {
        &self.checkpoints
    }

    /// Sets the checkpoint refs [`AgentReader::checkpoints`] returns.
    pub fn set_checkpoints(&mut self, refs: Vec<String>) {
        self.checkpoints = refs;
    }

    /// The workspace paths are shown relative to: the caller's, else the
    /// one the output records (`None` when neither names one).
    pub fn workspace(&self) -> Option<&str> {
        self.store.workspace()
    }

    /// The agent whose output this reads.
    pub fn kind(&self) -> AgentKind {
        self.format.agent()
    }

    /// Which session this is, as far as its lines tell ([`SessionStamp`]).
    pub fn session_stamp(&self) -> &SessionStamp {
        &self.stamp
    }

    /// The format this reads.
    pub fn format(&self) -> Format {
        self.format
    }

    /// Reads the next piece of the output. Returns what changed.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<AgentEvent> {
        self.input.push(bytes);
        self.drain(false);
        self.store.take_events()
    }

    /// Replaces the whole document read so far with `bytes` (a file
    /// rewritten in place, as Cline classic rewrites `ui_messages.json`):
    /// the edits are read again, keeping their numbers where they are the
    /// same edits.
    pub fn snapshot(&mut self, bytes: &[u8]) -> Vec<AgentEvent> {
        self.input = input_for(self.format);
        self.parser = parser_for(self.format);
        self.finished = false;
        self.store.begin_rebuild();
        self.input.push(bytes);
        self.drain(true);
        self.store.end_rebuild();
        self.store.take_events()
    }

    /// The input has ended: a torn last line is read as it is, and edits
    /// still without a verdict are `not-run`, listed in
    /// [`AgentReader::ended_without_verdict`] (the output does not say the
    /// agent never ran them). Returns all edits.
    pub fn finish(&mut self) -> &[AgentEdit] {
        if !self.finished {
            self.finished = true;
            self.ended_inside_line = self.input.ends_inside_unit();
            self.drain(true);
            self.input.release();
            self.parser.finish(&mut self.store);
            self.store.finish();
        }
        self.store.edits()
    }

    /// How many edits, from the first, have their contents chained from
    /// earlier edits already: only a later edit changes without an event
    /// (its content before filled from an earlier edit of its file once
    /// the edits before it have their verdicts). The live review compares
    /// only those and the edits reported.
    pub fn chained(&self) -> usize {
        self.store.chained()
    }

    /// The edits the input ended before the agent's verdict on (`not-run`
    /// here, but the agent may have run them: a review shows them
    /// `pending`), by seq; with [`AgentReader::ended_inside_line`], their
    /// verdict may have been in the torn last line. Edits the output shows
    /// the run ended without running (its end record) are not among them.
    pub fn ended_without_verdict(&self) -> &[usize] {
        self.store.ended_pending()
    }

    /// The input ended inside a line (the output was cut, or the file is
    /// still being written).
    pub fn ended_inside_line(&self) -> bool {
        self.ended_inside_line
    }

    /// What of the input could not be read, where an edit may have been:
    /// the first line skipped (torn or foreign), or an end inside a line or
    /// object. `None` when all of it was read.
    pub fn unread(&self) -> Option<String> {
        self.errors().first().map(ToString::to_string).or_else(|| {
            self.ended_inside_line
                .then(|| "it ends inside a line or object".to_string())
        })
    }

    /// The edits so far, in order (those [`AgentReader::take_settled`]
    /// handed out left out).
    pub fn edits(&self) -> &[AgentEdit] {
        self.store.edits()
    }

    /// Removes and returns, in order, the edits that are settled: their
    /// verdict is known and their content before chained from earlier
    /// edits. A caller that handles edits one at a time (a listing of a
    /// huge session) keeps memory bounded this way; a later line naming a
    /// taken edit changes nothing, and [`AgentReader::edits`] no longer
    /// holds it.
    pub fn take_settled(&mut self) -> Vec<AgentEdit> {
        self.store.take_settled()
    }

    /// When the agent ran a tool that may write files (a shell command),
    /// as the number of edits before it, in order: what a file holds after
    /// one is not known from the edits alone.
    pub fn shell_runs(&self) -> &[usize] {
        self.store.barriers()
    }

    /// The agent's version, once the input has named it.
    pub fn version(&self) -> Option<&str> {
        self.store.version()
    }

    /// Problems met so far (a tool input missing a field the preview
    /// needs, a line that is not JSON): each names the agent and version.
    pub fn errors(&self) -> &[AgentError] {
        self.store.errors()
    }

    fn drain(&mut self, at_end: bool) {
        while let Some(range) = self.input.next_unit(at_end) {
            let unit = self.input.unit(range);
            // Valid UTF-8 (nearly always) is checked fast and borrowed.
            let text = match std::str::from_utf8(unit) {
                Ok(text) => std::borrow::Cow::Borrowed(text),
                Err(_) => String::from_utf8_lossy(unit),
            };
            self.store.next_line();
            if self.format.agent().row().stamps_session {
                self.stamp.note(&text);
            }
            self.parser.unit(&text, &mut self.store);
        }
        // A unit still arriving, previewed as far as it has arrived (an
        // Aider reply streaming).
        if self.parser.reads_tail()
            && let Some(tail) = self.input.pending_text()
        {
            self.parser.tail(&tail, &mut self.store);
        }
    }
}

/// Reads all of `reader` as `format` (in pieces: a huge session is never
/// held whole) and returns the finished reader.
pub fn read_all(format: Format, mut reader: impl std::io::Read) -> std::io::Result<AgentReader> {
    let mut agent = AgentReader::new(format.agent(), format);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = crate::input::read_some(&mut reader, &mut buf)?;
        if n == 0 {
            break;
        }
        agent.feed(&buf[..n]);
    }
    agent.finish();
    Ok(agent)
}
