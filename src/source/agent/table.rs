//! The one table of agents and their output formats: everything srview
//! knows of an agent beyond its reader (that is its own file:
//! `claude.rs`, `codex/`, `cline_cli.rs`, `cline_classic.rs`, `aider/`).
//! Detection, `sessions`, session loading, the review and the agent
//! previewer read these rows; none of them names an agent. Adding an agent
//! is its reader, one [`AgentRow`], a [`FormatRow`] per output format and
//! its tests (docs/architecture.md, "How to add an agent format").

use super::reader::{EachUnit, FormatReader, SideFiles};
use super::{
    AgentKind, AgentTool, Format, aider, claude, cline_classic, cline_cli, codex, gemini_cli,
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
    /// It may correct an edit whose old text its own matcher finds nowhere
    /// and apply the corrected one, recording the correction nowhere
    /// (Gemini CLI's LLM correction step, when turned on): the stage name
    /// srview's port of that matcher gives such an edit (`none`). An edit
    /// the agent applied that the port ends at this stage is said to be
    /// corrected by the agent, not a disagreement; `None`: it never
    /// corrects edits.
    pub corrects_unfound: Option<&'static str>,
}

fn has(line: &str, key: &str, value: &str) -> bool {
    line.contains(&format!("\"{key}\":\"{value}\""))
        || line.contains(&format!("\"{key}\": \"{value}\""))
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

/// Every output format, in the order detection tries them on a line or a
/// document's head (an API history before UI messages: its entries may
/// carry `ts` too).
pub static FORMATS: &[FormatRow] = &[
    FormatRow {
        format: Format::AiderStdout,
        agent: AgentKind::Aider,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| l.starts_with("Aider v"),
        document: never,
        reader: || Box::new(aider::Parser::new(false)),
        side_files: None,
    },
    FormatRow {
        format: Format::AiderHistory,
        agent: AgentKind::Aider,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: true,
        workspace_is_its_folder: true,
        file_name: |n| n == ".aider.chat.history.md",
        line: |l| l.starts_with("# aider chat started at"),
        document: never,
        reader: || Box::new(aider::Parser::new(true)),
        side_files: None,
    },
    FormatRow {
        format: Format::ClaudeStreamJson,
        agent: AgentKind::ClaudeCode,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| {
            json(l)
                && (has(l, "type", "stream_event")
                    || (has(l, "type", "system") && has_key(l, "claude_code_version")))
        },
        document: never,
        reader: || Box::<claude::Parser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::ClaudeSessionJsonl,
        agent: AgentKind::ClaudeCode,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| {
            json(l)
                && has_key(l, "sessionId")
                && (has_key(l, "parentUuid")
                    || has(l, "type", "queue-operation")
                    || has(l, "type", "file-history-snapshot")
                    || has(l, "type", "summary"))
        },
        document: never,
        reader: || Box::<claude::Parser>::default(),
        side_files: Some(claude::side_files),
    },
    FormatRow {
        format: Format::CodexRollout,
        agent: AgentKind::Codex,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: |n| n.starts_with("rollout-") && n.ends_with(".jsonl"),
        line: |l| json(l) && has(l, "type", "session_meta"),
        document: never,
        reader: || Box::<codex::RolloutParser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::CodexExecJson,
        agent: AgentKind::Codex,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: false,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| json(l) && (has(l, "type", "thread.started") || has(l, "type", "turn.started")),
        document: never,
        reader: || Box::<codex::ExecParser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::CodexAppServer,
        agent: AgentKind::Codex,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| {
            json(l)
                && ((has_key(l, "dir") && has_key(l, "msg"))
                    || has(l, "method", "initialize")
                    || has(l, "method", "thread/started"))
        },
        document: never,
        reader: || Box::<codex::AppServerParser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::ClineCliJson,
        agent: AgentKind::ClineCli,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: false,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| {
            json(l)
                && (has(l, "type", "hook_event")
                    || has(l, "type", "agent_event")
                    || has(l, "type", "run_start"))
        },
        document: never,
        reader: || Box::<cline_cli::StreamParser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::ClineApiHistory,
        agent: AgentKind::ClineClassic,
        arrival: Arrival::Document,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: true,
        workspace_is_its_folder: false,
        file_name: |n| n == "api_conversation_history.json",
        line: never,
        document: |head| has_key(head, "role"),
        reader: || Box::new(EachUnit(cline_classic::api_history)),
        side_files: Some(cline_classic::side_files),
    },
    FormatRow {
        format: Format::ClineUiMessages,
        agent: AgentKind::ClineClassic,
        arrival: Arrival::Objects,
        rewritten_in_place: true,
        names_workspace: true,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: |n| n == "ui_messages.json",
        line: |l| {
            l.starts_with("Following task conversation")
                || l.starts_with("*Conversation history")
                || (json(l)
                    && (has(l, "type", "task_started")
                        || (has_key(l, "ts") && (has(l, "type", "say") || has(l, "type", "ask")))))
        },
        document: |head| has_key(head, "say") || has_key(head, "ask") || has_key(head, "ts"),
        reader: || Box::<cline_classic::UiParser>::default(),
        side_files: Some(cline_classic::side_files),
    },
    FormatRow {
        format: Format::ClineCliMessages,
        agent: AgentKind::ClineCli,
        arrival: Arrival::Document,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: true,
        workspace_is_its_folder: false,
        file_name: |n| n.ends_with(".messages.json"),
        line: |l| json(l) && has_key(l, "messages") && has_key(l, "sessionId"),
        document: never,
        reader: || Box::new(EachUnit(cline_cli::messages)),
        side_files: Some(cline_cli::side_files),
    },
    FormatRow {
        format: Format::GeminiStreamJson,
        agent: AgentKind::GeminiCli,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: false,
        after_the_fact: false,
        workspace_is_its_folder: false,
        file_name: never,
        line: |l| {
            json(l)
                && ((has(l, "type", "init") && has_key(l, "session_id"))
                    || (has(l, "type", "tool_use") && has_key(l, "tool_id")))
        },
        document: never,
        reader: || Box::<gemini_cli::Parser>::default(),
        side_files: None,
    },
    FormatRow {
        format: Format::GeminiSessionJsonl,
        agent: AgentKind::GeminiCli,
        arrival: Arrival::Lines,
        rewritten_in_place: false,
        names_workspace: true,
        after_the_fact: true,
        workspace_is_its_folder: false,
        file_name: |n| n.starts_with("session-") && n.ends_with(".jsonl"),
        line: |l| {
            json(l)
                && ((has_key(l, "projectHash") && has_key(l, "sessionId"))
                    || (has(l, "type", "gemini") && has_key(l, "toolCalls")))
        },
        document: never,
        reader: || Box::<gemini_cli::Parser>::default(),
        side_files: Some(gemini_cli::side_files),
    },
    FormatRow {
        format: Format::GeminiJson,
        agent: AgentKind::GeminiCli,
        arrival: Arrival::Document,
        rewritten_in_place: false,
        names_workspace: false,
        after_the_fact: true,
        workspace_is_its_folder: false,
        file_name: never,
        // Pretty-printed: `{`, then `"session_id": "..."` on a line.
        line: |l| l.starts_with("\"session_id\": \""),
        document: never,
        reader: || Box::new(EachUnit(gemini_cli::summary)),
        side_files: None,
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
        sessions: SessionPlace {
            roots: &[".claude/projects"],
            in_repository: false,
            pattern: &["*", "*.jsonl"],
            is_folder: false,
        },
        workspace: Workspace::Recorded,
        tools: &[
            (AgentTool::Edit, "edit-json"),
            (AgentTool::Write, "edit-json"),
        ],
        faithful: false,
        undoes_diffs: false,
        checkpoints: false,
        commits_replies: false,
        diff_is_result: false,
        logs_before_writing: false,
        corrects_unfound: None,
    },
    AgentRow {
        kind: AgentKind::Codex,
        id: "codex",
        display_name: "Codex",
        sessions: SessionPlace {
            roots: &[".codex/sessions"],
            in_repository: false,
            pattern: &["*", "*", "*", "rollout-*.jsonl"],
            is_folder: false,
        },
        workspace: Workspace::Recorded,
        tools: &[(AgentTool::ApplyPatch, "apply-patch")],
        faithful: true,
        undoes_diffs: true,
        checkpoints: false,
        commits_replies: false,
        diff_is_result: true,
        logs_before_writing: true,
        corrects_unfound: None,
    },
    AgentRow {
        kind: AgentKind::ClineCli,
        id: "cline-cli",
        display_name: "Cline CLI",
        sessions: SessionPlace {
            roots: &[".cline/data/sessions"],
            in_repository: false,
            pattern: &["*", "{parent}.messages.json"],
            is_folder: true,
        },
        workspace: Workspace::Recorded,
        tools: &[
            (AgentTool::ApplyPatch, "cline-apply-patch"),
            (AgentTool::Editor, "edit-json"),
        ],
        faithful: false,
        undoes_diffs: false,
        checkpoints: true,
        commits_replies: false,
        diff_is_result: false,
        logs_before_writing: false,
        corrects_unfound: None,
    },
    AgentRow {
        kind: AgentKind::ClineClassic,
        id: "cline-classic",
        display_name: "Cline",
        sessions: SessionPlace {
            roots: CLINE_CLASSIC_TASKS,
            in_repository: false,
            pattern: &["*", "api_conversation_history.json"],
            is_folder: true,
        },
        workspace: Workspace::Unrecorded,
        tools: &[
            (AgentTool::ReplaceInFile, "search-replace"),
            (AgentTool::WriteToFile, "search-replace"),
        ],
        faithful: true,
        undoes_diffs: false,
        checkpoints: false,
        commits_replies: false,
        diff_is_result: false,
        logs_before_writing: false,
        corrects_unfound: None,
    },
    AgentRow {
        kind: AgentKind::Aider,
        id: "aider",
        display_name: "Aider",
        sessions: SessionPlace {
            roots: &["."],
            in_repository: true,
            pattern: &[".aider.chat.history.md"],
            is_folder: false,
        },
        workspace: Workspace::FileFolder,
        tools: &[
            (AgentTool::AiderBlock, "aider-diff"),
            (AgentTool::AiderUdiff, "search-replace"),
            (AgentTool::AiderWhole, "search-replace"),
        ],
        faithful: false,
        undoes_diffs: false,
        checkpoints: false,
        commits_replies: true,
        diff_is_result: false,
        logs_before_writing: false,
        corrects_unfound: None,
    },
    AgentRow {
        kind: AgentKind::GeminiCli,
        id: "gemini-cli",
        display_name: "Gemini CLI",
        sessions: SessionPlace {
            roots: &[".gemini/tmp"],
            in_repository: false,
            pattern: &["*", "chats", "session-*.jsonl"],
            is_folder: false,
        },
        workspace: Workspace::Recorded,
        tools: &[
            (AgentTool::Replace, "gemini-replace"),
            (AgentTool::WriteFile, "search-replace"),
        ],
        faithful: true,
        undoes_diffs: false,
        checkpoints: false,
        commits_replies: false,
        diff_is_result: false,
        logs_before_writing: true,
        corrects_unfound: Some("none"),
    },
];

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
    fn every_agent_and_format_has_one_row() {
        for row in AGENTS {
            assert_eq!(AGENTS.iter().filter(|r| r.kind == row.kind).count(), 1);
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
}
