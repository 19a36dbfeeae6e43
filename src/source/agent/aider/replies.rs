//! The edits in the text of an Aider reply, in each edit format.

use super::super::{AgentTool, CallInput, EditInput};

/// One edit found in a reply.
pub(super) struct Found {
    pub(super) tool: AgentTool,
    pub(super) path: String,
    pub(super) input: EditInput,
    pub(super) partial: bool,
    pub(super) whole: Option<String>,
}

/// Each SEARCH/REPLACE block of the reply. A complete block is run by
/// Aider's own matcher (`aider-diff`) as the one block of a reply of its
/// own; a block still arriving is shown as a streaming SEARCH/REPLACE diff.
pub(super) fn blocks(text: &str) -> Vec<Found> {
    crate::source::aider::parse(text)
        .into_iter()
        .map(|call| {
            let input = match (call.partial, aider_block(&call.path, &call.body)) {
                (false, Some(reply)) => EditInput::Call(CallInput {
                    dialect: "aider-diff",
                    input: reply_input(reply, &call.path),
                    path: call.path.clone(),
                }),
                _ => EditInput::SearchReplace(call.body),
            };
            Found {
                tool: AgentTool::AiderBlock,
                path: call.path,
                input,
                partial: call.partial,
                whole: None,
            }
        })
        .collect()
}

/// Aider's tool input: `{"reply": TEXT, "chat_files": [PATH]}` (the block's
/// file is in the chat: Aider edited it).
fn reply_input(reply: String, path: &str) -> serde_json::Value {
    let mut object = serde_json::Map::new();
    object.insert("reply".to_string(), reply.into());
    object.insert("chat_files".to_string(), vec![path.to_string()].into());
    serde_json::Value::Object(object)
}

/// The block `body` (srview's canonical markers, as
/// [`crate::source::aider::parse`] writes it) in Aider's own form, after its
/// path line: what Aider's matcher reads.
fn aider_block(path: &str, body: &str) -> Option<String> {
    let inner = body
        .strip_prefix("------- SEARCH\n")?
        .strip_suffix("+++++++ REPLACE\n")?;
    let (search, replace) = if let Some(rest) = inner.strip_prefix("=======\n") {
        ("", rest)
    } else {
        inner.split_once("\n=======\n")?
    };
    let search_end = if search.is_empty() { "" } else { "\n" };
    Some(format!(
        "{path}\n```\n<<<<<<< SEARCH\n{search}{search_end}=======\n{replace}>>>>>>> REPLACE\n```\n"
    ))
}

/// One edit per `@@` hunk of the reply's `--- F` / `+++ F` diffs. A
/// complete hunk is run by Aider's own udiff applier (`aider-udiff`) as the
/// one hunk of a reply of its own; a hunk still arriving is shown as a
/// streaming unified diff.
pub(super) fn udiff_hunks(text: &str) -> Vec<Found> {
    let mut found: Vec<Found> = Vec::new();
    let mut file: Option<String> = None;
    let mut hunk: Option<String> = None;
    let mut lines = text.split_inclusive('\n').peekable();
    let close = |found: &mut Vec<Found>, file: &Option<String>, hunk: Option<String>, open| {
        if let (Some(file), Some(body)) = (file, hunk) {
            let diff = format!("--- {file}\n+++ {file}\n{body}");
            let input = if open {
                EditInput::UnifiedDiff(diff)
            } else {
                EditInput::Call(CallInput {
                    dialect: "aider-udiff",
                    input: reply_input(format!("```diff\n{diff}```\n"), file),
                    path: file.clone(),
                })
            };
            found.push(Found {
                tool: AgentTool::AiderUdiff,
                path: file.clone(),
                input,
                partial: open,
                whole: None,
            });
        }
    };
    while let Some(line) = lines.next() {
        let bare = line.trim_end_matches(['\n', '\r']);
        if let Some(old) = bare.strip_prefix("--- ")
            && lines.peek().is_some_and(|n| n.starts_with("+++ "))
        {
            close(&mut found, &file, hunk.take(), false);
            let new = lines.next().unwrap_or_default();
            let new = new
                .trim_end_matches(['\n', '\r'])
                .trim_start_matches("+++ ");
            let name = if new == "/dev/null" { old } else { new };
            file = Some(
                name.trim()
                    .trim_start_matches("a/")
                    .trim_start_matches("b/")
                    .to_string(),
            );
        } else if bare.starts_with("@@") {
            close(&mut found, &file, hunk.take(), false);
            hunk = Some(format!("{bare}\n"));
        } else if bare.starts_with("```") {
            close(&mut found, &file, hunk.take(), false);
            file = None;
        } else if let Some(h) = &mut hunk {
            h.push_str(bare);
            h.push('\n');
        }
    }
    close(&mut found, &file, hunk.take(), true);
    found
}

/// One edit per file name followed by a fenced whole content.
pub(super) fn whole_files(text: &str) -> Vec<Found> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut found = Vec::new();
    let mut i = 1;
    while i < lines.len() {
        let fence = lines[i].trim_end();
        let name = lines[i - 1].trim();
        if fence.starts_with("```") && looks_like_path(name) {
            let mut content = String::new();
            let mut j = i + 1;
            let mut closed = false;
            while j < lines.len() {
                if lines[j].trim_end() == "```" {
                    closed = true;
                    break;
                }
                content.push_str(lines[j]);
                j += 1;
            }
            found.push(Found {
                tool: AgentTool::AiderWhole,
                path: name.to_string(),
                input: EditInput::Whole(content.clone()),
                partial: !closed,
                whole: Some(content),
            });
            i = j + 1;
        } else {
            i += 1;
        }
    }
    found
}

fn looks_like_path(name: &str) -> bool {
    !name.is_empty()
        && !name.contains(char::is_whitespace)
        && !name.starts_with('#')
        && !name.starts_with("```")
        && (name.contains('.') || name.contains('/'))
}

/// Removes terminal escape sequences (CSI and OSC).
pub(super) fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('[') => {
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            }
            Some(']') => {
                while let Some(c) = chars.next() {
                    if c == '\u{7}' {
                        break;
                    }
                    if c == '\u{1b}' && chars.peek() == Some(&'\\') {
                        chars.next();
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    out
}
