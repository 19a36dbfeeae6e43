//! Huge agent sessions, generated deterministically: a Claude Code project
//! session JSONL and a Codex rollout of about `bytes` bytes with `edits`
//! edits each, shaped like the captures in `tests/fixtures/agents/`
//! (Claude Code 2.1.328, Codex 0.169.0). Big the way real ones are: every
//! successful Claude Code Edit's result carries the whole file before it
//! (`originalFile`), and both hold large lines srview skips (API request
//! blobs, shell output, line types and fields srview does not know).
//!
//! The generator tracks every file's true content, so each session comes
//! with the counts `srview sessions` must list for it. Used by
//! `benches/sessions.rs` (`#[path]`) and the ignored end-to-end test in
//! `tests/sessions_scale.rs`, so it names none of its siblings.
#![allow(dead_code)]

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// A generated session and what a listing must say of it.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The session file.
    pub path: PathBuf,
    /// Its size.
    pub bytes: u64,
    /// Every edit.
    pub edits: usize,
    /// Edits the agent failed.
    pub failed: usize,
    /// Edits the agent applied that match only loosely (Codex's fuzzy
    /// context).
    pub loose: usize,
}

/// xorshift64*, seeded: the same session every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// The files a session edits: each line unique, so an edit's old text is
/// found once.
struct Tree {
    files: Vec<Vec<String>>,
    next_line: u64,
}

const FILES: usize = 40;
const LINES_PER_FILE: usize = 160;

impl Tree {
    fn new() -> Tree {
        let mut tree = Tree {
            files: Vec::new(),
            next_line: 0,
        };
        for _ in 0..FILES {
            let lines = (0..LINES_PER_FILE).map(|_| tree.fresh_line()).collect();
            tree.files.push(lines);
        }
        tree
    }

    fn fresh_line(&mut self) -> String {
        let n = self.next_line;
        self.next_line += 1;
        format!(
            "    let v{n} = compute({}, \"{:016x}\");",
            n % 97,
            n.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        )
    }

    fn name(file: usize) -> String {
        format!("src/module_{file:02}.rs")
    }

    fn text(&self, file: usize) -> String {
        self.files[file].iter().map(|l| format!("{l}\n")).collect()
    }
}

/// Writes JSON lines, counting bytes, padding with lines srview skips so
/// that the file keeps pace with `bytes` over `edits` edits.
struct Out {
    w: BufWriter<fs::File>,
    written: u64,
    bytes: u64,
    edits: usize,
}

impl Out {
    fn create(path: &Path, bytes: u64, edits: usize) -> Out {
        fs::create_dir_all(path.parent().expect("a folder")).expect("create folder");
        Out {
            w: BufWriter::new(fs::File::create(path).expect("create session")),
            written: 0,
            bytes,
            edits,
        }
    }

    fn line(&mut self, v: &Value) {
        let text = v.to_string();
        self.w.write_all(text.as_bytes()).expect("write");
        self.w.write_all(b"\n").expect("write");
        self.written += text.len() as u64 + 1;
    }

    /// How far behind its share of `bytes` the file is after `done` edits.
    fn behind(&self, done: usize) -> usize {
        let due = self.bytes * done as u64 / self.edits as u64;
        due.saturating_sub(self.written) as usize
    }

    fn finish(mut self) -> u64 {
        self.w.flush().expect("flush");
        self.written
    }
}

/// A blob of `len` printable bytes (no escapes: its JSON is `len` long).
fn blob(rng: &mut Rng, len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    (0..len)
        .map(|_| ALPHABET[rng.below(ALPHABET.len())] as char)
        .collect()
}

const CLAUDE_VERSION: &str = "2.1.328";
const CLAUDE_CWD: &str = "/home/user/big-project";
const SESSION_ID: &str = "5ca1ab1e-0000-4000-8000-000000000001";

/// A Claude Code session of about `bytes` bytes with `edits` Edit/Write
/// calls, under `home/.claude/projects/`: most Edits succeed (their result
/// holds `originalFile`), about 5% fail (old text not found), 1% are
/// Writes of new files; Bash calls, attachments, API request blobs, a
/// line type and fields srview does not know sit between them.
pub fn claude_session(home: &Path, bytes: u64, edits: usize) -> Generated {
    let path = home
        .join(".claude/projects/-home-user-big-project")
        .join(format!("{SESSION_ID}.jsonl"));
    let mut out = Out::create(&path, bytes, edits);
    let mut rng = Rng(0x5EED_C1A0_DE00_0001);
    let mut tree = Tree::new();
    let mut failed = 0;
    let common = |uuid: String, kind: &str| {
        json!({
            "parentUuid": null, "isSidechain": false, "type": kind, "uuid": uuid,
            "timestamp": "2026-11-30T16:43:20.140Z", "userType": "external",
            "entrypoint": "sdk-cli", "cwd": CLAUDE_CWD, "sessionId": SESSION_ID,
            "version": CLAUDE_VERSION, "gitBranch": "main"
        })
    };
    let merge = |mut base: Value, extra: Value| {
        if let (Some(b), Value::Object(e)) = (base.as_object_mut(), extra) {
            b.extend(e);
        }
        base
    };
    out.line(&json!({"type": "queue-operation", "operation": "enqueue",
        "timestamp": "2026-11-30T16:43:20.088Z", "sessionId": SESSION_ID,
        "content": "Refactor every module."}));
    out.line(&merge(
        common("u-prompt".into(), "user"),
        json!({"message": {"role": "user", "content": "Refactor every module."}}),
    ));
    for i in 0..edits {
        let id = format!("toolu_big_{i:05}");
        let assistant_uuid = format!("a-{i:05}");
        if i % 50 == 25 {
            // A shell command: srview carries no content across it.
            let bash = format!("toolu_bash_{i:05}");
            out.line(&merge(
                common(format!("b-{i:05}"), "assistant"),
                json!({"message": {"role": "assistant", "content": [
                    {"type": "tool_use", "id": bash, "name": "Bash",
                     "input": {"command": "cargo test", "description": "Run the tests"}}]}}),
            ));
            out.line(&merge(
                common(format!("br-{i:05}"), "user"),
                json!({"message": {"role": "user", "content": [
                    {"tool_use_id": bash, "type": "tool_result", "content": blob(&mut rng, 3000)}]},
                    "toolUseResult": {"stdout": "ok", "stderr": "", "interrupted": false}}),
            ));
        }
        let roll = rng.below(100);
        let (tool, input, result_line) = if roll < 1 {
            // A Write of a new file.
            let file = format!("src/generated_{i:05}.rs");
            let content: String = (0..20).map(|_| tree.fresh_line() + "\n").collect();
            let abs = format!("{CLAUDE_CWD}/{file}");
            let input = json!({"file_path": abs, "content": content});
            let result = json!({"type": "create", "filePath": abs, "content": content,
                "structuredPatch": [], "originalFile": null});
            (
                "Write",
                input,
                (false, "File created successfully".to_string(), result),
            )
        } else {
            let f = rng.below(FILES);
            let k = 1 + rng.below(LINES_PER_FILE - 2);
            let before = tree.text(f);
            let abs = format!("{CLAUDE_CWD}/{}", Tree::name(f));
            let old: String = tree.files[f][k - 1..=k + 1].join("\n");
            if roll < 6 {
                // The agent's old text drifted from the file: not found.
                failed += 1;
                let wrong = old.replace("compute(", "compute_v2(");
                let input = json!({"replace_all": false, "file_path": abs,
                    "old_string": wrong, "new_string": "    // gone"});
                let message = format!(
                    "<tool_use_error>String to replace not found in file.\nString: {wrong}</tool_use_error>"
                );
                let result = Value::String(format!(
                    "Error: String to replace not found in file.\nString: {wrong}"
                ));
                ("Edit", input, (true, message, result))
            } else {
                let replacement = tree.fresh_line();
                tree.files[f][k] = replacement;
                let new: String = tree.files[f][k - 1..=k + 1].join("\n");
                let input = json!({"replace_all": false, "file_path": abs,
                    "old_string": old, "new_string": new});
                let result = json!({"filePath": abs, "oldString": old, "newString": new,
                    "originalFile": before,
                    "structuredPatch": [{"oldStart": k, "oldLines": 3, "newStart": k,
                        "newLines": 3, "lines": [format!(" {}", tree.files[f][k - 1])]}],
                    "userModified": false, "replaceAll": false});
                let message = format!(
                    "The file {abs} has been updated successfully. (file state is current in your context \u{2014} no need to Read it back)"
                );
                ("Edit", input, (false, message, result))
            }
        };
        out.line(&merge(
            common(assistant_uuid.clone(), "assistant"),
            json!({"message": {"id": format!("msg_{i:05}"), "type": "message",
                "role": "assistant", "model": "claude-sonnet-4-5-20250929",
                "content": [
                    {"type": "thinking", "thinking": "Next change.", "signature": "sig"},
                    {"type": "x-future-block", "payload": {"nested": [1, 2, 3]}},
                    {"type": "tool_use", "id": id, "name": tool, "input": input}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 1200, "output_tokens": 100}},
                "requestId": format!("req_{i:05}"), "x-future-field": {"a": [true, null]}}),
        ));
        let (is_error, message, result) = result_line;
        let mut block = json!({"tool_use_id": id, "type": "tool_result", "content": message});
        if is_error {
            block["is_error"] = Value::Bool(true);
        }
        out.line(&merge(
            common(format!("r-{i:05}"), "user"),
            json!({"message": {"role": "user", "content": [block]}, "toolUseResult": result,
                "sourceToolAssistantUUID": assistant_uuid,
                "permissionDecision": {"decision": "accept", "source": "config"}}),
        ));
        // Lines srview skips, as many as keep the file on its size.
        if i % 7 == 3 {
            out.line(
                &json!({"type": "x-future-line-type", "sessionId": SESSION_ID,
                "data": {"deep": {"deeper": ["a", {"b": "c"}]}}}),
            );
        }
        let behind = out.behind(i + 1);
        if behind > 400 {
            out.line(&json!({"type": "api-request-blob", "sessionId": SESSION_ID,
                "hash": format!("{i:064x}"),
                "message": {"role": "user", "content": [{"type": "text",
                    "text": blob(&mut rng, behind - 200)}]}}));
        }
    }
    out.line(
        &json!({"type": "last-prompt", "lastPrompt": "Refactor every module.",
        "sessionId": SESSION_ID}),
    );
    let bytes = out.finish();
    Generated {
        path,
        bytes,
        edits,
        failed,
        loose: 0,
    }
}

const CODEX_VERSION: &str = "0.169.0";

/// A Codex rollout of about `bytes` bytes with `edits` single-file
/// apply_patch calls, under `home/.codex/sessions/`, the session's
/// workspace being `workspace` (its files written there as the session
/// left them, so srview can undo the recorded diffs): about 5% fail
/// (context not found), 3% match only with trailing blanks ignored
/// (Codex's fuzzy context), 1% add a file; shell calls with large output,
/// reasoning items and line types srview does not know sit between them.
pub fn codex_rollout(home: &Path, workspace: &Path, bytes: u64, edits: usize) -> Generated {
    let path = home.join(
        ".codex/sessions/2026/11/30/rollout-2026-11-30T16-45-00-01a22d58-b16b-7000-8000-000000000002.jsonl",
    );
    let mut out = Out::create(&path, bytes, edits);
    let mut rng = Rng(0x5EED_C0DE_0000_0002);
    let mut tree = Tree::new();
    let cwd = workspace.to_string_lossy().to_string();
    let mut failed = 0;
    let mut loose = 0;
    let mut added: Vec<(String, String)> = Vec::new();
    let mut ordinal = 0u64;
    let mut line = |out: &mut Out, kind: &str, payload: Value| {
        out.line(
            &json!({"timestamp": "2026-11-30T16:45:00.294Z", "ordinal": ordinal,
            "type": kind, "payload": payload}),
        );
        ordinal += 1;
    };
    line(
        &mut out,
        "session_meta",
        json!({"id": "01a22d58-b16b-7000-8000-000000000002", "cwd": cwd,
            "originator": "codex_exec", "cli_version": CODEX_VERSION, "source": "exec",
            "model_provider": "openai"}),
    );
    line(
        &mut out,
        "turn_context",
        json!({"cwd": cwd, "approval_policy": "never", "model": "gpt-5.5"}),
    );
    for i in 0..edits {
        let call = format!("call_big_{i:05}");
        if i % 40 == 20 {
            let shell = format!("call_shell_{i:05}");
            line(
                &mut out,
                "response_item",
                json!({"type": "function_call", "name": "shell", "call_id": shell,
                    "arguments": "{\"command\":[\"cargo\",\"test\"]}"}),
            );
            line(
                &mut out,
                "response_item",
                json!({"type": "function_call_output", "call_id": shell,
                    "output": blob(&mut rng, 4000)}),
            );
        }
        let roll = rng.below(100);
        let (patch, outcome) = if roll < 1 {
            let file = format!("src/added_{i:05}.rs");
            let content: String = (0..12).map(|_| tree.fresh_line() + "\n").collect();
            let body: String = content.lines().map(|l| format!("+{l}\n")).collect();
            let patch = format!("*** Begin Patch\n*** Add File: {file}\n{body}*** End Patch");
            added.push((file.clone(), content.clone()));
            let change = json!({format!("{cwd}/{file}"): {"type": "add", "content": content}});
            (patch, Ok((change, format!("A {file}"))))
        } else {
            let f = rng.below(FILES);
            let k = 1 + rng.below(LINES_PER_FILE - 2);
            let name = Tree::name(f);
            let (a, old, c) = (
                tree.files[f][k - 1].clone(),
                tree.files[f][k].clone(),
                tree.files[f][k + 1].clone(),
            );
            if roll < 6 {
                failed += 1;
                let wrong = old.replace("compute(", "compute_v2(");
                let patch = format!(
                    "*** Begin Patch\n*** Update File: {name}\n@@\n {a}\n-{wrong}\n+    // gone\n {c}\n*** End Patch"
                );
                let message = format!(
                    "apply_patch verification failed: Failed to find expected lines in {cwd}/{name}:\n{a}\n{wrong}\n{c}"
                );
                (patch, Err(message))
            } else {
                let fuzzy = roll < 9;
                if fuzzy {
                    loose += 1;
                }
                let context = if fuzzy { format!("{a}   ") } else { a.clone() };
                let new = tree.fresh_line();
                tree.files[f][k] = new.clone();
                let patch = format!(
                    "*** Begin Patch\n*** Update File: {name}\n@@\n {context}\n-{old}\n+{new}\n {c}\n*** End Patch"
                );
                let diff = format!("@@ -{k},3 +{k},3 @@\n {a}\n-{old}\n+{new}\n {c}\n");
                let change = json!({format!("{cwd}/{name}"):
                    {"type": "update", "unified_diff": diff, "move_path": null}});
                (patch, Ok((change, format!("M {name}"))))
            }
        };
        line(
            &mut out,
            "response_item",
            json!({"type": "reasoning", "summary": [],
                "encrypted_content": blob(&mut rng, 600)}),
        );
        line(
            &mut out,
            "response_item",
            json!({"type": "custom_tool_call", "id": format!("ctc_{i:05}"),
                "status": "completed", "call_id": call, "name": "apply_patch", "input": patch}),
        );
        let output = match outcome {
            Ok((changes, summary)) => {
                line(
                    &mut out,
                    "event_msg",
                    json!({"type": "item_completed", "item": {"type": "FileChange",
                        "id": call, "status": "completed", "changes": changes}}),
                );
                format!(
                    "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n{summary}\n"
                )
            }
            Err(message) => message,
        };
        line(
            &mut out,
            "response_item",
            json!({"type": "custom_tool_call_output", "call_id": call, "output": output,
                "x-future-field": [1, 2]}),
        );
        if i % 9 == 4 {
            line(
                &mut out,
                "x_future_item",
                json!({"what": {"nested": ["unknown", {"to": "srview"}]}}),
            );
        }
        let behind = out.behind(i + 1);
        if behind > 400 {
            line(
                &mut out,
                "event_msg",
                json!({"type": "token_count", "info": {"padding": blob(&mut rng, behind - 200)}}),
            );
        }
    }
    let bytes = out.finish();
    for f in 0..FILES {
        write_file(&workspace.join(Tree::name(f)), &tree.text(f));
    }
    for (file, content) in &added {
        write_file(&workspace.join(file), content);
    }
    Generated {
        path,
        bytes,
        edits,
        failed,
        loose,
    }
}

fn write_file(path: &Path, content: &str) {
    fs::create_dir_all(path.parent().expect("a folder")).expect("create folder");
    fs::write(path, content).expect("write workspace file");
}
