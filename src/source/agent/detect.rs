//! Which agent wrote an output, from its first lines or its file name.

use std::path::Path;

use super::{AgentKind, Format};

/// `"key":"value"` in compact or spaced JSON.
fn has(line: &str, key: &str, value: &str) -> bool {
    line.contains(&format!("\"{key}\":\"{value}\""))
        || line.contains(&format!("\"{key}\": \"{value}\""))
}

fn has_key(line: &str, key: &str) -> bool {
    line.contains(&format!("\"{key}\":"))
}

/// The agent and format of an output from its first bytes (a few lines are
/// enough; a torn last line is fine). `None` while nothing decides it.
pub fn detect(first: &[u8]) -> Option<(AgentKind, Format)> {
    let text = String::from_utf8_lossy(first);
    let text = text.trim_start_matches('\u{feff}');
    let start = text.trim_start();
    // Whole JSON documents (the Cline files).
    if start.starts_with('[') {
        let head: String = start.chars().take(4000).collect();
        if has_key(&head, "role") {
            return Some((AgentKind::ClineClassic, Format::ClineApiHistory));
        }
        if has_key(&head, "say") || has_key(&head, "ask") || has_key(&head, "ts") {
            return Some((AgentKind::ClineClassic, Format::ClineUiMessages));
        }
    }
    if start.starts_with('{') && !start[1..].trim_start().starts_with('"') {
        return None;
    }
    for line in text.lines().take(40) {
        let line = line.trim();
        if line.starts_with("Aider v") {
            return Some((AgentKind::Aider, Format::AiderStdout));
        }
        if line.starts_with("# aider chat started at") {
            return Some((AgentKind::Aider, Format::AiderHistory));
        }
        if line.starts_with("Following task conversation")
            || line.starts_with("*Conversation history")
        {
            return Some((AgentKind::ClineClassic, Format::ClineUiMessages));
        }
        if !line.starts_with('{') {
            continue;
        }
        if has(line, "type", "stream_event")
            || (has(line, "type", "system") && has_key(line, "claude_code_version"))
        {
            return Some((AgentKind::ClaudeCode, Format::ClaudeStreamJson));
        }
        if has_key(line, "sessionId")
            && (has_key(line, "parentUuid")
                || has(line, "type", "queue-operation")
                || has(line, "type", "file-history-snapshot")
                || has(line, "type", "summary"))
        {
            return Some((AgentKind::ClaudeCode, Format::ClaudeSessionJsonl));
        }
        if has(line, "type", "session_meta") {
            return Some((AgentKind::Codex, Format::CodexRollout));
        }
        if has(line, "type", "thread.started") || has(line, "type", "turn.started") {
            return Some((AgentKind::Codex, Format::CodexExecJson));
        }
        if (has_key(line, "dir") && has_key(line, "msg"))
            || has(line, "method", "initialize")
            || has(line, "method", "thread/started")
        {
            return Some((AgentKind::Codex, Format::CodexAppServer));
        }
        if has(line, "type", "hook_event")
            || has(line, "type", "agent_event")
            || has(line, "type", "run_start")
        {
            return Some((AgentKind::ClineCli, Format::ClineCliJson));
        }
        if has(line, "type", "task_started")
            || (has_key(line, "ts") && (has(line, "type", "say") || has(line, "type", "ask")))
        {
            return Some((AgentKind::ClineClassic, Format::ClineUiMessages));
        }
        if has_key(line, "messages") && has_key(line, "sessionId") {
            return Some((AgentKind::ClineCli, Format::ClineCliMessages));
        }
    }
    None
}

/// The agent and format of a saved file, from its name and then its first
/// bytes.
pub fn detect_path(path: &Path, first: &[u8]) -> Option<(AgentKind, Format)> {
    let name = path.file_name()?.to_string_lossy();
    let by_name = if name.ends_with(".messages.json") {
        Some((AgentKind::ClineCli, Format::ClineCliMessages))
    } else if name == "ui_messages.json" {
        Some((AgentKind::ClineClassic, Format::ClineUiMessages))
    } else if name == "api_conversation_history.json" {
        Some((AgentKind::ClineClassic, Format::ClineApiHistory))
    } else if name == ".aider.chat.history.md" {
        Some((AgentKind::Aider, Format::AiderHistory))
    } else if name.starts_with("rollout-") && name.ends_with(".jsonl") {
        Some((AgentKind::Codex, Format::CodexRollout))
    } else {
        None
    };
    by_name.or_else(|| detect(first))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecided_until_a_line_names_the_agent() {
        assert_eq!(detect(b""), None);
        assert_eq!(detect(b"hello\n"), None);
        assert_eq!(
            detect(b"\nAider v0.86.2\n"),
            Some((AgentKind::Aider, Format::AiderStdout))
        );
        assert_eq!(
            detect(b"{\"type\":\"thread.started\",\"thread_id\":\"x\"}\n"),
            Some((AgentKind::Codex, Format::CodexExecJson))
        );
    }
}
