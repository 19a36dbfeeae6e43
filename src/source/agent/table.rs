//! The one table of agents and their output formats: everything srview
//! knows of an agent beyond its reader (that is its own file:
//! `claude.rs`, `codex/`, `cline_cli.rs`, `cline_classic.rs`, `aider/`).
//! Detection, `sessions`, session loading, the review and the agent
//! previewer read these rows; none of them names an agent. Adding an agent
//! is its reader, one [`AgentRow`], a [`FormatRow`] per output format and
//! its tests (docs/architecture.md, "How to add an agent format").

use super::database_format::DatabaseSource;
use super::lines::{JsonByte, JsonStrings};
use super::reader::{EachUnit, FormatReader, SideFiles};
use super::{
    AgentKind, AgentTool, Format, aider, claude, cline_classic, cline_cli, codex, gemini_cli,
    opencode, pi, qwen,
};

/// How an output arrives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arrival {
    /// One JSON object or text line after another, appended.
    Lines,
    /// JSON objects one after another (one a line, or pretty-printed), or a
    /// document the agent rewrites in place as it runs.
    Objects,
    /// One JSON document, read once complete.
    Document,
    /// Rows of a database the agent keeps its sessions in, read as the
    /// lines its reader makes of them (see [`FormatRow::database`]).
    Database,
}

/// One output format.
pub struct FormatRow {
    /// The format.
    pub format: Format,
    /// The agent writing it.
    pub agent: AgentKind,
    /// How it arrives.
    pub arrival: Arrival,
    /// The agent rewrites the whole file in place as it runs (read version
    /// by version, not as appended bytes).
    pub rewritten_in_place: bool,
    /// It names the folder the agent ran in; otherwise (paths absolute)
    /// the caller's `--cwd` is that folder.
    pub names_workspace: bool,
    /// It is written after the agent wrote the files: the files on disk
    /// while it is read are no content before.
    pub after_the_fact: bool,
    /// Its sessions' workspace is the folder the file lies in (an Aider
    /// history lies in its repository).
    pub workspace_is_its_folder: bool,
    /// A saved file of this format, by its name.
    pub file_name: fn(&str) -> bool,
    /// A line of this format (trimmed; text or JSON).
    pub line: fn(&str) -> bool,
    /// The first 4000 characters of a JSON document (it starts with `[`)
    /// of this format.
    pub document: fn(&str) -> bool,
    /// Makes its reader (the agent's own file).
    pub(super) reader: fn() -> Box<dyn FormatReader>,
    /// Reads what a saved session keeps beside its file, if anything.
    pub(super) side_files: Option<SideFiles>,
    /// How its database is read, for a format kept in one
    /// ([`Arrival::Database`]; see [`super::database`]).
    pub database: Option<&'static DatabaseSource>,
}

impl FormatRow {
    /// What a row does not say: lines appended as the agent works, naming
    /// its workspace, no file name, line or document head of its own, no
    /// side files, no database. `format`, `agent` and `reader` are
    /// placeholders every row gives (a row that forgot one repeats another
    /// row's format or agent, or reads no edits: the table's tests and
    /// `tests/agent_sources.rs` fail).
    const DEFAULTS: FormatRow = FormatRow {
        format: Format::AiderStdout,
        agent: AgentKind::Aider,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: never,
        document: never,
        reader: || Box::new(EachUnit(|_, _| {})),
        side_files: None,
        database: None,
    };
}

/// Where an agent saves its sessions.
pub struct SessionPlace {
    /// Folders under the home folder (or, with `in_repository`, the
    /// repository) that hold them.
    pub roots: &'static [&'static str],
    /// The roots are in the repository srview runs in, not the home folder.
    pub in_repository: bool,
    /// The path of a session's file below a root, one entry a segment: `*`
    /// any entry, `pre*post` an entry with that prefix and suffix,
    /// `{parent}` the name of the folder above; the last is a file.
    pub pattern: &'static [&'static str],
    /// The session is the folder holding the file, not the file.
    pub is_folder: bool,
}

impl SessionPlace {
    /// Sessions that are files below folders of the home folder.
    const fn files(roots: &'static [&'static str], pattern: &'static [&'static str]) -> Self {
        SessionPlace {
            roots,
            in_repository: false,
            pattern,
            is_folder: false,
        }
    }

    /// Sessions that are the folders holding such files.
    const fn folders(roots: &'static [&'static str], pattern: &'static [&'static str]) -> Self {
        SessionPlace {
            is_folder: true,
            ..SessionPlace::files(roots, pattern)
        }
    }
}

/// Where an agent's session records the folder it ran in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workspace {
    /// Its first lines name it.
    Recorded,
    /// The folder the session file lies in.
    FileFolder,
    /// Nowhere.
    Unrecorded,
}

/// One agent.
pub struct AgentRow {
    /// The agent.
    pub kind: AgentKind,
    /// Its id in `session --json` and `--agent` (`claude-code`, ...).
    pub id: &'static str,
    /// How it names itself in a verdict ("Claude Code: applied").
    pub display_name: &'static str,
    /// Where it saves its sessions.
    pub sessions: SessionPlace,
    /// Where its sessions record the folder it ran in.
    pub workspace: Workspace,
    /// Each of its edit tools and the `--dialect` srview runs it with.
    pub tools: &'static [(AgentTool, &'static str)],
    /// srview's applier for its edits is a port of its own, loose stages
    /// included: a loose result srview computes is what the agent wrote.
    pub faithful: bool,
    /// Its saved sessions record diffs srview undoes from the session's end
    /// to learn each edit's content before: read whole before reviewing.
    pub undoes_diffs: bool,
    /// Its sessions name git checkpoints taken before each edit.
    pub checkpoints: bool,
    /// It commits each reply's edits to git (the commit's parent is the
    /// content before).
    pub commits_replies: bool,
    /// Its unified diffs record what it applied, not what the model wrote
    /// (how the model's edit matched is unknown).
    pub diff_is_result: bool,
    /// It logs an edit moments before writing it: a file read live may
    /// already hold the edit until its verdict arrives.
    pub logs_before_writing: bool,
    /// Whether the agent's error text says it refused an edit before
    /// matching it, by a check of its own (Qwen Code's read-before-edit
    /// check): srview's applier placing such an edit is no disagreement,
    /// the agent's text says why it failed.
    pub refused_before_matching: fn(&str) -> bool,
    /// It may correct an edit whose old text its own matcher finds nowhere
    /// and apply the corrected one, recording the correction nowhere
    /// (Gemini CLI's LLM correction step, when turned on): the stage name
    /// srview's port of that matcher gives such an edit (`none`). An edit
    /// the agent applied that the port ends at this stage is said to be
    /// corrected by the agent, not a disagreement; `None`: it never
    /// corrects edits.
    pub corrects_unfound: Option<&'static str>,
    /// Its lines name the session's id and times, read into the reader's
    /// `SessionStamp`: its gate decisions are joined by tool input, and a
    /// decision of another session with the same input must not be
    /// (Gemini CLI, Qwen Code, OpenCode, pi: their hooks send no call id
    /// the session records).
    pub stamps_session: bool,
}

impl AgentRow {
    /// What a row does not say: its workspace recorded in its sessions,
    /// and none of the traits (not faithful, no diffs undone, checkpoints
    /// or commits, no refusal before matching, no corrections, no session
    /// stamps). `kind`, `id`, `display_name`, `sessions` and `tools` are
    /// placeholders every row gives (the table's tests fail on a row that
    /// repeats another's kind or id, or has no name, session folder or
    /// tool).
    const DEFAULTS: AgentRow = AgentRow {
        kind: AgentKind::ClaudeCode,
        id: "",
        display_name: "",
        sessions: SessionPlace::files(&[], &[]),
        workspace: Workspace::Recorded,
        tools: &[],
        faithful: false,
        undoes_diffs: false,
        checkpoints: false,
        commits_replies: false,
        diff_is_result: false,
        logs_before_writing: false,
        refused_before_matching: never,
        corrects_unfound: None,
        stamps_session: false,
    };
}

fn has(line: &str, key: &str, value: &str) -> bool {
    line.contains(&format!("\"{key}\":\"{value}\""))
        || line.contains(&format!("\"{key}\": \"{value}\""))
}

/// The line's `type` is one of `types` (as [`has`] finds a key's value).
fn has_type(line: &str, types: &[&str]) -> bool {
    types.iter().any(|kind| has(line, "type", kind))
}

fn has_key(line: &str, key: &str) -> bool {
    line.contains(&format!("\"{key}\":"))
}

fn json(line: &str) -> bool {
    line.starts_with('{')
}

fn never(_: &str) -> bool {
    false
}

/// The keys of a JSON object line at its top level, in order, as far as
/// the line goes (a torn line gives the keys before the tear); raw, as
/// written between the quotes. Keys of nested objects and text inside
/// strings are never taken for one.
pub(crate) fn top_level_keys(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let mut keys = Vec::new();
    let mut strings = JsonStrings::default();
    let mut depth = 0usize;
    let mut key_start: Option<usize> = None;
    let mut expect_key = false;
    for (i, &b) in bytes.iter().enumerate() {
        match strings.take(b) {
            JsonByte::InString => {}
            JsonByte::StringEnd => {
                if let Some(start) = key_start.take() {
                    keys.push(&line[start..i]);
                }
            }
            JsonByte::Structure => match b {
                b'"' if depth == 1 && expect_key => {
                    key_start = Some(i + 1);
                    expect_key = false;
                }
                b'{' | b'[' => {
                    depth += 1;
                    expect_key = depth == 1 && b == b'{';
                }
                b'}' | b']' => depth = depth.saturating_sub(1),
                b',' if depth == 1 => expect_key = true,
                _ => {}
            },
        }
    }
    keys
}

/// A Qwen Code stream-json line: it names Qwen's version, or its top-level
/// keys start as Qwen Code 0.24.4 writes every line (`type`, `subtype`
/// for some, then `uuid`, `session_id`), where Claude Code writes its
/// content or `cwd` right after `type` and `uuid` near the end.
fn qwen_stream_line(line: &str) -> bool {
    if !json(line) {
        return false;
    }
    let keys = top_level_keys(line);
    if keys.contains(&"qwen_code_version") {
        return true;
    }
    let after_kind = match keys.as_slice() {
        ["type", "subtype", rest @ ..] | ["type", rest @ ..] => rest,
        _ => return false,
    };
    after_kind.starts_with(&["uuid", "session_id"])
}

/// A Qwen Code chat record: Claude Code's `uuid`/`parentUuid`/`sessionId`
/// keys, plus a key only Qwen writes at the top level (`provenance` on
/// every record, `systemPayload`, `toolCallResult`).
fn qwen_chat_line(line: &str) -> bool {
    if !json(line) {
        return false;
    }
    let keys = top_level_keys(line);
    keys.contains(&"sessionId")
        && keys.contains(&"parentUuid")
        && keys
            .iter()
            .any(|k| matches!(*k, "provenance" | "systemPayload" | "toolCallResult"))
}

/// pi's session file name: `<ISO timestamp, : and . as ->_<uuid>.jsonl`
/// (`2026-12-01T14-05-44-694Z_01a231ec-fd76-76d1-8ea9-d3e7a50628ea.jsonl`).
fn is_pi_session_name(name: &str) -> bool {
    let Some((stamp, rest)) = name.strip_suffix(".jsonl").and_then(|n| n.split_once('_')) else {
        return false;
    };
    let digits_at = |s: &str, at: &[usize]| {
        at.iter()
            .all(|&i| s.as_bytes().get(i).is_some_and(u8::is_ascii_digit))
    };
    stamp.len() == 24
        && stamp.ends_with('Z')
        && stamp.as_bytes().get(10) == Some(&b'T')
        && digits_at(
            stamp,
            &[0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18, 20, 21, 22],
        )
        && rest.len() == 36
        && rest.chars().all(|c| c.is_ascii_hexdigit() || c == '-')
}

/// Every output format, in the order detection tries them on a line or a
/// document's head (an API history before UI messages: its entries may
/// carry `ts` too).
pub static FORMATS: &[FormatRow] = &[
    FormatRow {
        format: Format::AiderStdout,
        agent: AgentKind::Aider,
        line: |l| l.starts_with("Aider v"),
        reader: || Box::new(aider::Parser::new(false)),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::AiderHistory,
        agent: AgentKind::Aider,
        after_the_fact: true,
        workspace_is_its_folder: true,
        file_name: |n| n == ".aider.chat.history.md",
        line: |l| l.starts_with("# aider chat started at"),
        reader: || Box::new(aider::Parser::new(true)),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClaudeStreamJson,
        agent: AgentKind::ClaudeCode,
        line: |l| {
            json(l)
                && !qwen_stream_line(l)
                && (has(l, "type", "stream_event")
                    || (has(l, "type", "system") && has_key(l, "claude_code_version")))
        },
        reader: || Box::<claude::Parser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClaudeSessionJsonl,
        agent: AgentKind::ClaudeCode,
        line: |l| {
            json(l)
                && has_key(l, "sessionId")
                && !qwen_chat_line(l)
                && (has_key(l, "parentUuid")
                    || has_type(l, &["queue-operation", "file-history-snapshot", "summary"]))
        },
        reader: || Box::<claude::Parser>::default(),
        side_files: Some(claude::side_files),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::CodexRollout,
        agent: AgentKind::Codex,
        file_name: |n| n.starts_with("rollout-") && n.ends_with(".jsonl"),
        line: |l| json(l) && has_type(l, &["session_meta"]),
        reader: || Box::<codex::RolloutParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::CodexExecJson,
        agent: AgentKind::Codex,
        names_workspace: false,
        line: |l| json(l) && has_type(l, &["thread.started", "turn.started"]),
        reader: || Box::<codex::ExecParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::CodexAppServer,
        agent: AgentKind::Codex,
        line: |l| {
            json(l)
                && ((has_key(l, "dir") && has_key(l, "msg"))
                    || has(l, "method", "initialize")
                    || has(l, "method", "thread/started"))
        },
        reader: || Box::<codex::AppServerParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClineCliJson,
        agent: AgentKind::ClineCli,
        names_workspace: false,
        line: |l| json(l) && has_type(l, &["hook_event", "agent_event", "run_start"]),
        reader: || Box::<cline_cli::StreamParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClineApiHistory,
        agent: AgentKind::ClineClassic,
        arrival: Arrival::Document,
        after_the_fact: true,
        file_name: |n| n == "api_conversation_history.json",
        document: |head| has_key(head, "role"),
        reader: || Box::new(EachUnit(cline_classic::api_history)),
        side_files: Some(cline_classic::side_files),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClineUiMessages,
        agent: AgentKind::ClineClassic,
        arrival: Arrival::Objects,
        rewritten_in_place: true,
        file_name: |n| n == "ui_messages.json",
        line: |l| {
            l.starts_with("Following task conversation")
                || l.starts_with("*Conversation history")
                || (json(l)
                    && (has_type(l, &["task_started"])
                        || (has_key(l, "ts") && has_type(l, &["say", "ask"]))))
        },
        document: |head| has_key(head, "say") || has_key(head, "ask") || has_key(head, "ts"),
        reader: || Box::<cline_classic::UiParser>::default(),
        side_files: Some(cline_classic::side_files),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::ClineCliMessages,
        agent: AgentKind::ClineCli,
        arrival: Arrival::Document,
        after_the_fact: true,
        file_name: |n| n.ends_with(".messages.json"),
        line: |l| json(l) && has_key(l, "messages") && has_key(l, "sessionId"),
        reader: || Box::new(EachUnit(cline_cli::messages)),
        side_files: Some(cline_cli::side_files),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::QwenStreamJson,
        agent: AgentKind::QwenCode,
        line: qwen_stream_line,
        reader: || Box::<qwen::StreamParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::QwenChatJsonl,
        agent: AgentKind::QwenCode,
        line: qwen_chat_line,
        reader: || Box::<qwen::SessionParser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::PiJson,
        agent: AgentKind::Pi,
        // Its `session` header is the saved file's too: the events after
        // it decide.
        line: |l| {
            json(l)
                && has_type(
                    l,
                    &["agent_start", "message_update", "tool_execution_start"],
                )
        },
        reader: || Box::<pi::Parser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::PiSession,
        agent: AgentKind::Pi,
        file_name: is_pi_session_name,
        line: |l| {
            json(l)
                && (has_type(l, &["model_change", "thinking_level_change"])
                    || (has_type(l, &["message"]) && has_key(l, "parentId")))
        },
        reader: || Box::<pi::Parser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::OpenCodeRunJson,
        agent: AgentKind::OpenCode,
        names_workspace: false,
        // A tool part is printed only once the tool has run.
        after_the_fact: true,
        line: |l| {
            json(l)
                && has_key(l, "sessionID")
                && has_key(l, "part")
                && has_type(l, &["step_start", "tool_use", "text", "step_finish"])
        },
        reader: || Box::<opencode::Parser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::OpenCodeDatabase,
        agent: AgentKind::OpenCode,
        arrival: Arrival::Database,
        // Followed, a tool part is seen before the tool writes the file
        // (`running`), but OpenCode may be waiting on a permission: the
        // file read then is no sure content before.
        after_the_fact: true,
        file_name: |n| n.ends_with(".db"),
        line: |l| json(l) && has(l, "type", "session") && has_key(l, "directory"),
        reader: || Box::<opencode::Parser>::default(),
        database: Some(&opencode::db::SOURCE),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::GeminiStreamJson,
        agent: AgentKind::GeminiCli,
        names_workspace: false,
        line: |l| {
            json(l)
                && ((has(l, "type", "init") && has_key(l, "session_id"))
                    || (has(l, "type", "tool_use") && has_key(l, "tool_id")))
        },
        reader: || Box::<gemini_cli::Parser>::default(),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::GeminiSessionJsonl,
        agent: AgentKind::GeminiCli,
        after_the_fact: true,
        file_name: |n| n.starts_with("session-") && n.ends_with(".jsonl"),
        line: |l| {
            json(l)
                && ((has_key(l, "projectHash") && has_key(l, "sessionId"))
                    || (has(l, "type", "gemini") && has_key(l, "toolCalls")))
        },
        reader: || Box::<gemini_cli::Parser>::default(),
        side_files: Some(gemini_cli::side_files),
        ..FormatRow::DEFAULTS
    },
    FormatRow {
        format: Format::GeminiJson,
        agent: AgentKind::GeminiCli,
        arrival: Arrival::Document,
        names_workspace: false,
        after_the_fact: true,
        // Pretty-printed: `{`, then `"session_id": "..."` on a line.
        line: |l| l.starts_with("\"session_id\": \""),
        reader: || Box::new(EachUnit(gemini_cli::summary)),
        ..FormatRow::DEFAULTS
    },
];

/// Cline classic's `tasks/` folders: its CLIs' and the VS Code extension's
/// global storage (Code, Code - Insiders, Cursor, VSCodium; Linux and
/// macOS).
const CLINE_CLASSIC_TASKS: &[&str] = &[
    ".cline/data/tasks",
    ".config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
    "Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/tasks",
    ".config/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/tasks",
    "Library/Application Support/Code - Insiders/User/globalStorage/saoudrizwan.claude-dev/tasks",
    ".config/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks",
    "Library/Application Support/Cursor/User/globalStorage/saoudrizwan.claude-dev/tasks",
    ".config/VSCodium/User/globalStorage/saoudrizwan.claude-dev/tasks",
    "Library/Application Support/VSCodium/User/globalStorage/saoudrizwan.claude-dev/tasks",
];

/// Every agent.
pub static AGENTS: &[AgentRow] = &[
    AgentRow {
        kind: AgentKind::ClaudeCode,
        id: "claude-code",
        display_name: "Claude Code",
        sessions: SessionPlace::files(&[".claude/projects"], &["*", "*.jsonl"]),
        tools: &[
            (AgentTool::Edit, "edit-json"),
            (AgentTool::Write, "edit-json"),
        ],
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::Codex,
        id: "codex",
        display_name: "Codex",
        sessions: SessionPlace::files(&[".codex/sessions"], &["*", "*", "*", "rollout-*.jsonl"]),
        tools: &[(AgentTool::ApplyPatch, "apply-patch")],
        faithful: true,
        undoes_diffs: true,
        diff_is_result: true,
        logs_before_writing: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::ClineCli,
        id: "cline-cli",
        display_name: "Cline CLI",
        sessions: SessionPlace::folders(
            &[".cline/data/sessions"],
            &["*", "{parent}.messages.json"],
        ),
        tools: &[
            (AgentTool::ApplyPatch, "cline-apply-patch"),
            (AgentTool::Editor, "edit-json"),
        ],
        checkpoints: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::ClineClassic,
        id: "cline-classic",
        display_name: "Cline",
        sessions: SessionPlace::folders(
            CLINE_CLASSIC_TASKS,
            &["*", "api_conversation_history.json"],
        ),
        workspace: Workspace::Unrecorded,
        tools: &[
            (AgentTool::ReplaceInFile, "search-replace"),
            (AgentTool::WriteToFile, "search-replace"),
        ],
        faithful: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::Aider,
        id: "aider",
        display_name: "Aider",
        sessions: SessionPlace {
            in_repository: true,
            ..SessionPlace::files(&["."], &[".aider.chat.history.md"])
        },
        workspace: Workspace::FileFolder,
        tools: &[
            (AgentTool::AiderBlock, "aider-diff"),
            (AgentTool::AiderUdiff, "aider-udiff"),
            (AgentTool::AiderWhole, "search-replace"),
        ],
        commits_replies: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::QwenCode,
        id: "qwen-code",
        display_name: "Qwen Code",
        sessions: SessionPlace::files(&[".qwen/projects"], &["*", "chats", "*.jsonl"]),
        // write_file's content is the whole file (srview's whole-file
        // applier, as for Claude Code's Write).
        tools: &[
            (AgentTool::EditLower, "qwen-edit"),
            (AgentTool::WriteFile, "edit-json"),
        ],
        faithful: true,
        refused_before_matching: qwen::refused_unread,
        stamps_session: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::Pi,
        id: "pi",
        display_name: "pi",
        sessions: SessionPlace::files(&[".pi/agent/sessions"], &["--*--", "*.jsonl"]),
        tools: &[
            (AgentTool::EditLower, "pi-edit"),
            (AgentTool::WriteLower, "search-replace"),
        ],
        faithful: true,
        stamps_session: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::OpenCode,
        id: "opencode",
        display_name: "OpenCode",
        // One database for every project's sessions: `sessions` lists each
        // session in it (see `database::sessions_in`).
        sessions: SessionPlace::files(&[".local/share/opencode"], &["opencode*.db"]),
        tools: &[
            (AgentTool::EditLower, "opencode-edit"),
            (AgentTool::WriteLower, "opencode-edit"),
            (AgentTool::ApplyPatch, "opencode-apply-patch"),
        ],
        faithful: true,
        // An applied edit records the diff OpenCode wrote: undone from the
        // file as it is now, it gives the content before.
        undoes_diffs: true,
        stamps_session: true,
        ..AgentRow::DEFAULTS
    },
    AgentRow {
        kind: AgentKind::GeminiCli,
        id: "gemini-cli",
        display_name: "Gemini CLI",
        sessions: SessionPlace::files(&[".gemini/tmp"], &["*", "chats", "session-*.jsonl"]),
        tools: &[
            (AgentTool::Replace, "gemini-replace"),
            (AgentTool::WriteFile, "search-replace"),
        ],
        faithful: true,
        logs_before_writing: true,
        corrects_unfound: Some("none"),
        stamps_session: true,
        ..AgentRow::DEFAULTS
    },
];

/// The agents srview reads, for messages: "Claude Code, Codex, ... or
/// OpenCode" (one name for an agent whose versions are two rows: Cline).
pub fn agent_names() -> String {
    let mut names: Vec<&str> = Vec::new();
    for row in AGENTS {
        let family = row
            .display_name
            .split(' ')
            .next()
            .unwrap_or(row.display_name);
        let merged = names
            .iter_mut()
            .find(|n| n.split(' ').next() == Some(family) && family == "Cline");
        match merged {
            Some(name) => *name = family,
            None => names.push(row.display_name),
        }
    }
    match names.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => (*last).to_string(),
        None => String::new(),
    }
}

/// The row of `kind`.
pub fn agent(kind: AgentKind) -> &'static AgentRow {
    AGENTS
        .iter()
        .find(|row| row.kind == kind)
        .unwrap_or(&AGENTS[0])
}

/// The row of `format`.
pub fn format(format: Format) -> &'static FormatRow {
    FORMATS
        .iter()
        .find(|row| row.format == format)
        .unwrap_or(&FORMATS[0])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_level_keys_skip_nested_keys_and_strings_and_stop_at_a_tear() {
        let line =
            r#"{"type":"user","msg":{"type":"x","k":[{"q":1}]},"s":"\"a\":{\"b\":","last":1,"torn"#;
        assert_eq!(top_level_keys(line), ["type", "msg", "s", "last"]);
        assert_eq!(top_level_keys("[{\"a\":1}]"), Vec::<&str>::new());
        // Claude Code's and Qwen Code's lines of the same kind.
        let claude = r#"{"type":"stream_event","event":{"type":"message_stop"},"session_id":"s","parent_tool_use_id":null,"uuid":"u"}"#;
        let qwen = r#"{"type":"stream_event","uuid":"u","session_id":"s","parent_tool_use_id":null,"event":{"type":"message_stop"}}"#;
        assert!(!qwen_stream_line(claude) && qwen_stream_line(qwen));
        let old_claude_init = r#"{"type":"system","subtype":"init","cwd":"/p","session_id":"s","claude_code_version":"1.0.0"}"#;
        assert!(!qwen_stream_line(old_claude_init));
    }

    #[test]
    fn every_agent_and_format_has_one_row() {
        for row in AGENTS {
            assert_eq!(AGENTS.iter().filter(|r| r.kind == row.kind).count(), 1);
            assert_eq!(AGENTS.iter().filter(|r| r.id == row.id).count(), 1);
            assert!(!row.display_name.is_empty(), "{}", row.id);
            assert!(!row.sessions.roots.is_empty(), "{}", row.id);
            assert!(!row.sessions.pattern.is_empty(), "{}", row.id);
            assert!(!row.tools.is_empty(), "{}", row.id);
            assert_eq!(agent(row.kind).id, row.id);
            assert!(FORMATS.iter().any(|f| f.agent == row.kind), "{}", row.id);
            for (_, dialect) in row.tools {
                assert!(
                    crate::dialect::registry::find(dialect).is_some(),
                    "{}: {dialect}",
                    row.id
                );
            }
        }
        for row in FORMATS {
            assert_eq!(FORMATS.iter().filter(|r| r.format == row.format).count(), 1);
            assert_eq!(format(row.format).agent, row.agent);
        }
    }

    /// Every data field of a format row on one line, and which probe
    /// names, lines and document heads its functions take.
    fn format_row_text(row: &FormatRow) -> String {
        let names: Vec<&str> = "\
            .aider.chat.history.md rollout-2026.jsonl api_conversation_history.json \
            ui_messages.json s.messages.json \
            2026-12-01T14-05-44-694Z_01a231ec-fd76-76d1-8ea9-d3e7a50628ea.jsonl \
            opencode.db session-1.jsonl a.jsonl"
            .split(' ')
            .collect();
        const LINES: &[&str] = &["Aider v0.86.1", "\"session_id\": \"s\",", "{}", ""];
        const HEADS: &[&str] = &[r#"[{"role":"user"#, r#"[{"ts":1,"say":"text"#, "["];
        let flags = [
            (row.rewritten_in_place, "rewritten_in_place"),
            (row.names_workspace, "names_workspace"),
            (row.after_the_fact, "after_the_fact"),
            (row.workspace_is_its_folder, "workspace_is_its_folder"),
            (row.side_files.is_some(), "side_files"),
            (row.database.is_some(), "database"),
        ];
        let taken = |probes: &[&str], take: fn(&str) -> bool| {
            let indices: Vec<String> = (0..probes.len())
                .filter(|&i| take(probes[i]))
                .map(|i| i.to_string())
                .collect();
            indices.join(",")
        };
        let mut text = format!("{:?} {:?} {:?}", row.format, row.agent, row.arrival);
        for (_, name) in flags.iter().filter(|(on, _)| *on) {
            text += &format!(" {name}");
        }
        text += &format!(
            " names[{}] lines[{}] heads[{}]",
            taken(&names, row.file_name),
            taken(LINES, row.line),
            taken(HEADS, row.document)
        );
        text
    }

    /// Every data field of an agent row on one line, and what its
    /// `refused_before_matching` says of Qwen Code's read-before-edit text.
    fn agent_row_text(row: &AgentRow) -> String {
        let place = &row.sessions;
        let flags = [
            (place.in_repository, "in_repository"),
            (place.is_folder, "is_folder"),
            (row.faithful, "faithful"),
            (row.undoes_diffs, "undoes_diffs"),
            (row.checkpoints, "checkpoints"),
            (row.commits_replies, "commits_replies"),
            (row.diff_is_result, "diff_is_result"),
            (row.logs_before_writing, "logs_before_writing"),
            (row.stamps_session, "stamps_session"),
            (
                (row.refused_before_matching)(
                    "File /p/a.py has not been read in this session. Use the read_file tool first",
                ),
                "refused_before_matching",
            ),
        ];
        let mut text = format!(
            "{:?} {} {:?} roots={}(of {}) pattern={} {:?} tools={:?} corrects_unfound={:?}",
            row.kind,
            row.id,
            row.display_name,
            place.roots[0],
            place.roots.len(),
            place.pattern.join("/"),
            row.workspace,
            row.tools,
            row.corrects_unfound
        );
        for (_, name) in flags.iter().filter(|(on, _)| *on) {
            text += &format!(" {name}");
        }
        text
    }

    /// The rows as they were written out field by field before the table
    /// took its defaults from `FormatRow::..`/`AgentRow::..`: every value
    /// stays (the functions by what they take of a few probes).
    #[test]
    fn every_row_keeps_its_fields() {
        let formats: Vec<String> = FORMATS.iter().map(format_row_text).collect();
        let agents: Vec<String> = AGENTS.iter().map(agent_row_text).collect();
        assert_eq!(formats.join("\n"), PINNED_FORMATS);
        assert_eq!(agents.join("\n"), PINNED_AGENTS);
    }

    const PINNED_FORMATS: &str = r#"AiderStdout Aider Lines names_workspace names[] lines[0] heads[]
AiderHistory Aider Lines names_workspace after_the_fact workspace_is_its_folder names[0] lines[] heads[]
ClaudeStreamJson ClaudeCode Lines names_workspace names[] lines[] heads[]
ClaudeSessionJsonl ClaudeCode Lines names_workspace side_files names[] lines[] heads[]
CodexRollout Codex Lines names_workspace names[1] lines[] heads[]
CodexExecJson Codex Lines names[] lines[] heads[]
CodexAppServer Codex Lines names_workspace names[] lines[] heads[]
ClineCliJson ClineCli Lines names[] lines[] heads[]
ClineApiHistory ClineClassic Document names_workspace after_the_fact side_files names[2] lines[] heads[0]
ClineUiMessages ClineClassic Objects rewritten_in_place names_workspace side_files names[3] lines[] heads[1]
ClineCliMessages ClineCli Document names_workspace after_the_fact side_files names[4] lines[] heads[]
QwenStreamJson QwenCode Lines names_workspace names[] lines[] heads[]
QwenChatJsonl QwenCode Lines names_workspace names[] lines[] heads[]
PiJson Pi Lines names_workspace names[] lines[] heads[]
PiSession Pi Lines names_workspace names[5] lines[] heads[]
OpenCodeRunJson OpenCode Lines after_the_fact names[] lines[] heads[]
OpenCodeDatabase OpenCode Database names_workspace after_the_fact database names[6] lines[] heads[]
GeminiStreamJson GeminiCli Lines names[] lines[] heads[]
GeminiSessionJsonl GeminiCli Lines names_workspace after_the_fact side_files names[7] lines[] heads[]
GeminiJson GeminiCli Document after_the_fact names[] lines[1] heads[]"#;
    const PINNED_AGENTS: &str = r#"ClaudeCode claude-code "Claude Code" roots=.claude/projects(of 1) pattern=*/*.jsonl Recorded tools=[(Edit, "edit-json"), (Write, "edit-json")] corrects_unfound=None
Codex codex "Codex" roots=.codex/sessions(of 1) pattern=*/*/*/rollout-*.jsonl Recorded tools=[(ApplyPatch, "apply-patch")] corrects_unfound=None faithful undoes_diffs diff_is_result logs_before_writing
ClineCli cline-cli "Cline CLI" roots=.cline/data/sessions(of 1) pattern=*/{parent}.messages.json Recorded tools=[(ApplyPatch, "cline-apply-patch"), (Editor, "edit-json")] corrects_unfound=None is_folder checkpoints
ClineClassic cline-classic "Cline" roots=.cline/data/tasks(of 9) pattern=*/api_conversation_history.json Unrecorded tools=[(ReplaceInFile, "search-replace"), (WriteToFile, "search-replace")] corrects_unfound=None is_folder faithful
Aider aider "Aider" roots=.(of 1) pattern=.aider.chat.history.md FileFolder tools=[(AiderBlock, "aider-diff"), (AiderUdiff, "aider-udiff"), (AiderWhole, "search-replace")] corrects_unfound=None in_repository commits_replies
QwenCode qwen-code "Qwen Code" roots=.qwen/projects(of 1) pattern=*/chats/*.jsonl Recorded tools=[(EditLower, "qwen-edit"), (WriteFile, "edit-json")] corrects_unfound=None faithful stamps_session refused_before_matching
Pi pi "pi" roots=.pi/agent/sessions(of 1) pattern=--*--/*.jsonl Recorded tools=[(EditLower, "pi-edit"), (WriteLower, "search-replace")] corrects_unfound=None faithful stamps_session
OpenCode opencode "OpenCode" roots=.local/share/opencode(of 1) pattern=opencode*.db Recorded tools=[(EditLower, "opencode-edit"), (WriteLower, "opencode-edit"), (ApplyPatch, "opencode-apply-patch")] corrects_unfound=None faithful undoes_diffs stamps_session
GeminiCli gemini-cli "Gemini CLI" roots=.gemini/tmp(of 1) pattern=*/chats/session-*.jsonl Recorded tools=[(Replace, "gemini-replace"), (WriteFile, "search-replace")] corrects_unfound=Some("none") faithful logs_before_writing stamps_session"#;

    #[test]
    fn a_pi_session_is_named_by_its_time_and_id() {
        assert!(is_pi_session_name(
            "2026-12-01T14-05-44-694Z_01a231ec-fd76-76d1-8ea9-d3e7a50628ea.jsonl"
        ));
        assert!(!is_pi_session_name(
            "01a231ec-fd76-76d1-8ea9-d3e7a50628ea.jsonl"
        ));
        assert!(!is_pi_session_name(
            "2026-12-01T14-05-44-694Z_01a231ec.jsonl"
        ));
    }
}
