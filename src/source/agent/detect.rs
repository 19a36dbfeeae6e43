//! Which agent wrote an output, from its first lines or its file name.

use std::path::Path;

use super::table::{FORMATS, FormatRow};
use super::{AgentKind, Format};

/// The agent and format of an output from its first bytes (a few lines are
/// enough; a torn last line is fine). `None` while nothing decides it. The
/// formats are tried in the table's order ([`super::table::FORMATS`]): a
/// JSON document (it starts with `[`) by its head, else line by line.
pub fn detect(first: &[u8]) -> Option<(AgentKind, Format)> {
    let text = String::from_utf8_lossy(first);
    let text = text.trim_start_matches('\u{feff}');
    let start = text.trim_start();
    let found = |row: &FormatRow| (row.agent, row.format);
    if start.starts_with('[') {
        let head: String = start.chars().take(4000).collect();
        if let Some(row) = FORMATS.iter().find(|row| (row.document)(&head)) {
            return Some(found(row));
        }
    }
    if start.starts_with('{') && !start[1..].trim_start().starts_with('"') {
        return None;
    }
    text.lines().take(40).find_map(|line| {
        let line = line.trim();
        FORMATS.iter().find(|row| (row.line)(line)).map(found)
    })
}

/// The agent and format of a saved file, from its name and then its first
/// bytes.
pub fn detect_path(path: &Path, first: &[u8]) -> Option<(AgentKind, Format)> {
    let name = path.file_name()?.to_string_lossy();
    FORMATS
        .iter()
        .find(|row| (row.file_name)(&name))
        .map(|row| (row.agent, row.format))
        .or_else(|| detect(first))
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
