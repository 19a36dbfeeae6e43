//! Huge agent sessions, generated deterministically: a Claude Code project
//! session JSONL and a Codex rollout of about `bytes` bytes with `edits`
//! edits each, shaped like the captures in `tests/fixtures/agents/`
//! (Claude Code 2.1.328, Codex 0.169.0); and, shaped like theirs, a pi
//! 0.73.1 session, a Gemini CLI 0.61.0 session JSONL, a Qwen Code 0.24.4
//! chat record and an OpenCode 1.18.33 database. Big the way real ones are: every
//! successful Claude Code Edit's result carries the whole file before it
//! (`originalFile`), and both hold large lines srview skips (API request
//! blobs, shell output, line types and fields srview does not know).
//!
//! The generator tracks every file's true content, so each session comes
//! with the counts `srview sessions` must list for it. Used by
//! `benches/sessions.rs` (`#[path]`), the ignored end-to-end test in
//! `tests/sessions_scale.rs` and those of `tests/more_agents/`, so it names
//! none of its siblings.
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

    /// `lines` fresh lines, each ending in a newline: a new file's content.
    fn fresh_content(&mut self, lines: usize) -> String {
        (0..lines).map(|_| self.fresh_line() + "\n").collect()
    }

    /// Line `k` of `file` with the lines either side: `(before, line, after)`.
    fn around(&self, file: usize, k: usize) -> (String, String, String) {
        (
            self.files[file][k - 1].clone(),
            self.files[file][k].clone(),
            self.files[file][k + 1].clone(),
        )
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
            let content: String = tree.fresh_content(20);
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

/// A Claude Code session (under `home/`) and a Codex rollout (its workspace
/// `workspace/`) of `edits` edits, about `bytes` each, in a temporary folder.
pub fn claude_and_codex(bytes: u64, edits: usize) -> (tempfile::TempDir, Generated, Generated) {
    let dir = tempfile::tempdir().expect("temp dir");
    let home = dir.path().join("home");
    let claude = claude_session(&home, bytes, edits);
    let codex = codex_rollout(&home, &dir.path().join("workspace"), bytes, edits);
    (dir, claude, codex)
}

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
            let content: String = tree.fresh_content(12);
            let body: String = content.lines().map(|l| format!("+{l}\n")).collect();
            let patch = format!("*** Begin Patch\n*** Add File: {file}\n{body}*** End Patch");
            added.push((file.clone(), content.clone()));
            let change = json!({format!("{cwd}/{file}"): {"type": "add", "content": content}});
            (patch, Ok((change, format!("A {file}"))))
        } else {
            let f = rng.below(FILES);
            let k = 1 + rng.below(LINES_PER_FILE - 2);
            let name = Tree::name(f);
            let (a, old, c) = tree.around(f, k);
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

const PI_SESSION_ID: &str = "01a231ec-fd76-76d1-8ea9-d3e7a50628ea";

/// A pi 0.73.1 session of `edits` rounds under `home/.pi/agent/sessions/`,
/// about `bytes` long: each round reads a file whole, then edits it: most
/// exactly, every 7th (from the 4th) failing (its old text is not there),
/// every 11th (from the 6th) placed by pi's fuzzy stage (its old text
/// lacks the file's trailing spaces).
pub fn pi_session(home: &Path, bytes: u64, edits: usize) -> Generated {
    let folder = home.join(".pi/agent/sessions/--home-user-project--");
    fs::create_dir_all(&folder).expect("create folder");
    let path = folder.join(format!("2026-12-01T14-05-44-694Z_{PI_SESSION_ID}.jsonl"));
    let mut out = BufWriter::new(fs::File::create(&path).expect("create session"));
    let header = json!({"type": "session", "version": 3, "id": PI_SESSION_ID,
        "timestamp": "2026-12-01T14:05:44.694Z", "cwd": "/home/user/project"});
    writeln!(out, "{header}").expect("write");
    // A padding line is 45 bytes in JSON; a round's four lines, about 600.
    let padding_lines = ((bytes / edits as u64).saturating_sub(600) / 45).max(1) as usize;
    let padding: String = (0..padding_lines)
        .map(|n| format!("# padding line {n:>6} of the generated file\n"))
        .collect();
    let (mut failed, mut loose) = (0, 0);
    // Ten files edited in turn (each one's round number in it); a fuzzy
    // round edits a file of its own (pi rewrites it normalized).
    let mut rounds = [0usize; 10];
    let mut parent = "h".to_string();
    let mut entry = |id: String, message: Value, out: &mut BufWriter<fs::File>| {
        let line = json!({"type": "message", "id": id, "parentId": parent,
            "timestamp": "2026-12-01T14:05:45.000Z", "message": message});
        writeln!(out, "{line}").expect("write");
        parent = id;
    };
    let call = |id: String, name: &str, args: Value| {
        json!({"role": "assistant", "content": [{"type": "toolCall", "id": id, "name": name,
            "arguments": args}], "stopReason": "toolUse"})
    };
    let result = |id: String, name: &str, text: &str, is_error: bool| {
        json!({"role": "toolResult", "toolCallId": id, "toolName": name,
            "content": [{"type": "text", "text": text}], "isError": is_error})
    };
    for i in 0..edits {
        let fuzzy = i % 11 == 5 && i % 7 != 3;
        let (file, content, old, new) = if fuzzy {
            loose += 1;
            (
                format!("g{i}.py"),
                format!("{padding}LOW = 5  \nw = 1\n"),
                "LOW = 5\nw = 1".to_string(),
                "LOW = 5\nw = 2".to_string(),
            )
        } else {
            let n = &mut rounds[i % 10];
            let file = format!("f{}.py", i % 10);
            let content = format!("{padding}LOW = 5  \nv = {n}\n");
            let (old, new) = if i % 7 == 3 {
                (format!("missing = {i}\n"), "v = 0\n".to_string())
            } else {
                *n += 1;
                (format!("v = {}\n", *n - 1), format!("v = {n}\n"))
            };
            (file, content, old, new)
        };
        entry(
            format!("a{i}"),
            call(format!("r{i}"), "read", json!({"path": file})),
            &mut out,
        );
        entry(
            format!("b{i}"),
            result(format!("r{i}"), "read", &content, false),
            &mut out,
        );
        let error = (i % 7 == 3).then(|| {
            failed += 1;
            format!(
                "Could not find the exact text in {file}. The old text must match exactly \
                 including all whitespace and newlines."
            )
        });
        let args = json!({"path": file, "edits": [{"oldText": old, "newText": new}]});
        entry(
            format!("c{i}"),
            call(format!("e{i}"), "edit", args),
            &mut out,
        );
        let text = error
            .clone()
            .unwrap_or_else(|| format!("Successfully replaced 1 block(s) in {file}."));
        entry(
            format!("d{i}"),
            result(format!("e{i}"), "edit", &text, error.is_some()),
            &mut out,
        );
    }
    out.flush().expect("flush");
    Generated {
        bytes: fs::metadata(&path).expect("metadata").len(),
        path,
        edits,
        failed,
        loose,
    }
}

/// A session file written piece by piece, counting the bytes written.
struct Counted {
    w: BufWriter<fs::File>,
    written: u64,
}

impl Counted {
    fn create(path: &Path) -> Counted {
        Counted {
            w: BufWriter::new(fs::File::create(path).expect("create session")),
            written: 0,
        }
    }

    fn write(&mut self, text: &str) {
        self.w.write_all(text.as_bytes()).expect("write");
        self.written += text.len() as u64;
    }

    /// Flushes the file: the bytes written.
    fn finish(mut self) -> u64 {
        self.w.flush().expect("flush");
        self.written
    }
}

/// The recorded Gemini CLI 0.61.0 run the Gemini session is made of.
fn gemini_capture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "tests/fixtures/agents/gemini-cli-0.61.0/b_nomatch_retry/session/tmp/project/chats/session-2026-12-01T14-04-2d4f6a8c.jsonl",
    )
}

/// A Gemini CLI 0.61.0 session JSONL of about `bytes` under
/// `home/.gemini/tmp/project/chats/`: the recorded b_nomatch_retry
/// session's lines (a whole-file read, an edit that fails, the edit again
/// applied) again and again after its header, tool ids made unique.
pub fn gemini_session(home: &Path, bytes: u64) -> Generated {
    let real = fs::read_to_string(gemini_capture()).expect("the recorded session");
    let (header, body) = real.split_once('\n').expect("a header line");
    let chats = home.join(".gemini/tmp/project/chats");
    fs::create_dir_all(&chats).expect("create folder");
    let path = chats.join("session-2026-12-01T14-04-2d4f6a8c.jsonl");
    let mut out = Counted::create(&path);
    out.write(&format!("{header}\n"));
    let mut copies = 0;
    while out.written < bytes {
        let copy = body
            .replace("replace__replace_", &format!("r{copies}_"))
            .replace("read_file__read_file_", &format!("f{copies}_"));
        out.write(&copy);
        copies += 1;
    }
    Generated {
        path,
        bytes: out.finish(),
        edits: copies * 2,
        failed: copies,
        loose: 0,
    }
}

const QWEN_SESSION_ID: &str = "22222222-2222-4333-8444-555555555555";

/// A chat record line as Qwen Code 0.24.4 writes one (the fields srview
/// reads, in Qwen's order).
fn qwen_record(kind: &str, body: Value) -> String {
    let mut line = json!({
        "uuid": format!("u-{kind}"), "parentUuid": null,
        "sessionId": QWEN_SESSION_ID,
        "timestamp": "2026-12-01T14:07:46.602Z", "type": kind,
        "provenance": "tool_result", "cwd": "/home/user/project", "version": "0.24.4",
    });
    for (k, v) in body.as_object().expect("an object") {
        line[k] = v.clone();
    }
    line.to_string()
}

/// A Qwen Code 0.24.4 chat record of about `bytes` under
/// `home/.qwen/projects/-home-user-project/chats/`: edits of one 600-line
/// file in turn, each with its telemetry record and its tool result
/// carrying the whole file before and after (as Qwen records them). Every
/// edit applies exactly.
pub fn qwen_chat_record(home: &Path, bytes: u64) -> Generated {
    let chats = home.join(".qwen/projects/-home-user-project/chats");
    fs::create_dir_all(&chats).expect("create folder");
    let path = chats.join(format!("{QWEN_SESSION_ID}.jsonl"));
    let mut out = Counted::create(&path);
    let mut lines: Vec<String> = (0..600)
        .map(|i| format!("value_{i} = {i}  # padding to give the file a realistic size ......"))
        .collect();
    let file = "/home/user/project/big.py";
    let mut edits = 0;
    while out.written < bytes {
        let k = edits % lines.len();
        let before = lines.join("\n") + "\n";
        let old = lines[k].clone();
        lines[k] = old.replacen(" = ", " = 1 + ", 1);
        let after = lines.join("\n") + "\n";
        let id = format!("call_{edits}");
        let args = json!({"file_path": file, "old_string": old + "\n",
            "new_string": lines[k].clone() + "\n"});
        let text = [
            qwen_record(
                "assistant",
                json!({"message": {"role": "model", "parts": [{"functionCall": {
                    "id": id, "name": "edit", "args": args}}]}}),
            ),
            qwen_record(
                "system",
                json!({"subtype": "ui_telemetry", "systemPayload": {"uiEvent": {
                    "event.name": "qwen-code.tool_call", "call_id": id, "function_args": args}}}),
            ),
            qwen_record(
                "tool_result",
                json!({"message": {"role": "user", "parts": [{"functionResponse": {
                    "id": id, "name": "edit", "response": {
                        "output": format!("The file: {file} has been updated.")}}}]},
                    "toolCallResult": {"callId": id, "status": "success", "resultDisplay": {
                        "fileName": "big.py", "originalContent": before, "newContent": after}}}),
            ),
        ]
        .join("\n")
            + "\n";
        out.write(&text);
        edits += 1;
    }
    Generated {
        path,
        bytes: out.finish(),
        edits,
        failed: 0,
        loose: 0,
    }
}

/// The recorded OpenCode 1.18.33 database whose schema and fixed rows the
/// generated one copies.
fn opencode_capture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/agents/opencode-1.18.33/a_edits_ok/session/opencode.db")
}

const OPENCODE_SESSION: &str = "ses_dce127b24ffeSlQ3B3vFhegZ4R";

/// OpenCode's unified diff of a whole file (4 lines of context) for line
/// `k` of `before` replaced by `new`, as its edit tool records it in
/// `metadata.diff`.
fn opencode_diff(file: &str, before: &[String], k: usize, new: &str) -> String {
    let start = k.saturating_sub(4);
    let end = (k + 5).min(before.len());
    let mut diff = format!(
        "Index: {file}\n===================================================================\n--- {file}\n+++ {file}\n@@ -{},{} +{},{} @@\n",
        start + 1,
        end - start,
        start + 1,
        end - start
    );
    for (i, line) in before.iter().enumerate().take(end).skip(start) {
        if i == k {
            diff.push_str(&format!("-{line}\n+{new}\n"));
        } else {
            diff.push_str(&format!(" {line}\n"));
        }
    }
    diff
}

/// OpenCode 1.18.33's database, `home/.local/share/opencode/opencode.db`,
/// of about `bytes`, holding one session run in `workspace` with `edits`
/// rounds: each reads a file whole (its numbered text in the `read` part's
/// output), then edits it: about 5% fail (old text not found), 3% are
/// placed by OpenCode's line-trimmed replacer (the old text's first line
/// has trailing blanks the file lacks) and reported as plain success, 1%
/// write a new file. Every part is also in the `event` table (as OpenCode
/// records it), and assistant text parts keep the database on its size.
/// The workspace's files are written as the session left them, so srview
/// can undo the recorded diffs. The schema and the fixed rows (project,
/// migrations, the session's row) are the recorded database's.
pub fn opencode_database(home: &Path, workspace: &Path, bytes: u64, edits: usize) -> Generated {
    use rusqlite::{Connection, params};
    let data = home.join(".local/share/opencode");
    fs::create_dir_all(&data).expect("create folder");
    let db = data.join("opencode.db");
    let _ = fs::remove_file(&db);
    let conn = Connection::open(&db).expect("create database");
    let capture = opencode_capture();
    conn.execute(
        "ATTACH DATABASE ?1 AS rec",
        params![capture.to_str().expect("UTF-8")],
    )
    .expect("attach");
    let schema: Vec<String> = {
        let mut stmt = conn
            .prepare("SELECT sql FROM rec.sqlite_master WHERE sql IS NOT NULL ORDER BY rowid")
            .expect("schema");
        stmt.query_map([], |r| r.get(0))
            .and_then(Iterator::collect)
            .expect("schema rows")
    };
    for sql in &schema {
        conn.execute_batch(sql).expect("create");
    }
    let cwd = workspace.to_string_lossy().to_string();
    conn.execute_batch(
        "INSERT INTO project SELECT * FROM rec.project;
         INSERT INTO migration SELECT * FROM rec.migration;
         INSERT INTO session SELECT * FROM rec.session;",
    )
    .expect("fixed rows");
    conn.execute(
        "UPDATE session SET directory = ?1, path = ?2",
        params![cwd, cwd.trim_start_matches('/')],
    )
    .expect("session folder");
    conn.execute("DETACH DATABASE rec", []).expect("detach");
    conn.execute(
        "INSERT INTO event_sequence VALUES (?1, 0, NULL)",
        params![OPENCODE_SESSION],
    )
    .expect("event sequence");

    let mut rng = Rng(0x5EED_0C0D_E000_0004);
    let mut tree = Tree::new();
    let (mut failed, mut loose) = (0, 0);
    let mut added: Vec<(String, String)> = Vec::new();
    let mut seq = 0i64;
    let mut at = 1_796_133_981_554i64;
    let tx = conn.unchecked_transaction().expect("transaction");
    {
        let mut message = tx
            .prepare("INSERT INTO message VALUES (?1, ?2, ?3, ?3, ?4)")
            .expect("message");
        let mut part = tx
            .prepare("INSERT INTO part VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
            .expect("part");
        let mut event = tx
            .prepare("INSERT INTO event VALUES (?1, ?2, ?3, 'message.part.updated.1', ?4)")
            .expect("event");
        let mut put = |msg: &str, id: &str, data: Value, at: i64| {
            let text = data.to_string();
            part.execute(params![id, msg, OPENCODE_SESSION, at, at + 20, text])
                .expect("part");
            let mut whole = data;
            whole["id"] = id.into();
            whole["sessionID"] = OPENCODE_SESSION.into();
            whole["messageID"] = msg.into();
            let ev = json!({"sessionID": OPENCODE_SESSION, "part": whole, "time": at + 20});
            let ev = ev.to_string();
            event
                .execute(params![format!("evt_{id}"), OPENCODE_SESSION, seq, ev])
                .expect("event");
            seq += 1;
        };
        for i in 0..edits {
            at += 1000;
            let msg = format!("msg_big{i:05}");
            let info = json!({"parentID": "msg_231ed852d0016hdH8SVy4Jil37", "role": "assistant",
                "mode": "build", "agent": "build", "path": {"cwd": cwd, "root": "/"}, "cost": 0,
                "tokens": {"total": 1053, "input": 1003, "output": 50, "reasoning": 0,
                    "cache": {"write": 0, "read": 0}},
                "modelID": "fake-model", "providerID": "fake",
                "time": {"created": at, "completed": at + 100}, "finish": "tool-calls"});
            message
                .execute(params![msg, OPENCODE_SESSION, at, info.to_string()])
                .expect("message");
            put(
                &msg,
                &format!("prt_big{i:05}a"),
                json!({"type": "step-start"}),
                at,
            );
            let roll = rng.below(100);
            let f = rng.below(FILES);
            let name = Tree::name(f);
            let abs = format!("{cwd}/{name}");
            // The file read whole first, as OpenCode numbers its lines.
            let numbered: String = tree.files[f]
                .iter()
                .enumerate()
                .map(|(n, l)| format!("{}: {l}\n", n + 1))
                .collect();
            let output = format!(
                "<path>{abs}</path>\n<type>file</type>\n<content>\n{numbered}\n(End of file - total {} lines)\n</content>",
                tree.files[f].len()
            );
            // Every fifth round (a whole file is 10 KB, twice: part and
            // event).
            if i % 5 == 0 {
                put(
                    &msg,
                    &format!("prt_big{i:05}b"),
                    json!({"type": "tool", "tool": "read", "callID": format!("call_r{i}"),
                    "state": {"status": "completed", "input": {"filePath": abs},
                        "output": output, "metadata": {"truncated": false},
                        "title": name, "time": {"start": at + 5, "end": at + 9}}}),
                    at + 5,
                );
            }
            let (tool, state) = if roll < 1 {
                let file = format!("src/created_{i:05}.rs");
                let content: String = tree.fresh_content(12);
                let abs = format!("{cwd}/{file}");
                added.push((file.clone(), content.clone()));
                (
                    "write",
                    json!({"status": "completed", "input": {"filePath": abs, "content": content},
                        "output": "Wrote file successfully.",
                        "metadata": {"diagnostics": {}, "filepath": abs, "exists": false,
                            "truncated": false},
                        "title": file, "time": {"start": at + 30, "end": at + 40}}),
                )
            } else {
                let k = 1 + rng.below(LINES_PER_FILE - 2);
                let (a, old, c) = tree.around(f, k);
                if roll < 6 {
                    failed += 1;
                    // One line (three would be placed by OpenCode's
                    // block-anchor replacer).
                    let wrong = old.replace("compute(", "compute_v2(");
                    (
                        "edit",
                        json!({"status": "error", "input": {"filePath": abs,
                            "oldString": wrong,
                            "newString": "    // gone"},
                            "error": "Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.",
                            "time": {"start": at + 30, "end": at + 40}}),
                    )
                } else {
                    let trimmed = roll < 9;
                    if trimmed {
                        loose += 1;
                    }
                    let first = if trimmed {
                        format!("{a}   ")
                    } else {
                        a.clone()
                    };
                    let new = tree.fresh_line();
                    let diff = opencode_diff(&abs, &tree.files[f], k, &new);
                    tree.files[f][k] = new.clone();
                    (
                        "edit",
                        json!({"status": "completed", "input": {"filePath": abs,
                            "oldString": format!("{first}\n{old}\n{c}"),
                            "newString": format!("{a}\n{new}\n{c}")},
                            "output": "Edit applied successfully.",
                            "metadata": {"diagnostics": {}, "diff": diff,
                                "filediff": {"file": abs, "patch": diff,
                                    "additions": 1, "deletions": 1},
                                "truncated": false},
                            "title": name, "time": {"start": at + 30, "end": at + 40}}),
                    )
                }
            };
            put(
                &msg,
                &format!("prt_big{i:05}c"),
                json!({"type": "tool", "tool": tool, "callID": format!("call_e{i}"),
                    "state": state}),
                at + 30,
            );
            put(
                &msg,
                &format!("prt_big{i:05}d"),
                json!({"reason": "tool-calls", "type": "step-finish",
                    "tokens": {"total": 1053, "input": 1003, "output": 50, "reasoning": 0,
                        "cache": {"write": 0, "read": 0}}, "cost": 0}),
                at + 50,
            );
            // The model's text, as long as keeps the database on its size.
            let due = bytes * (i as u64 + 1) / edits as u64;
            let size: i64 = tx
                .query_row(
                    "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size",
                    [],
                    |r| r.get(0),
                )
                .expect("size");
            let behind = due.saturating_sub(size as u64) as usize;
            if behind > 400 {
                put(
                    &msg,
                    &format!("prt_big{i:05}e"),
                    json!({"type": "text", "text": blob(&mut rng, (behind - 300) / 2),
                        "time": {"start": at + 60, "end": at + 70}}),
                    at + 60,
                );
            }
        }
    }
    tx.execute("UPDATE session SET time_updated = ?1", params![at + 100])
        .expect("session time");
    tx.commit().expect("commit");
    drop(conn);
    for f in 0..FILES {
        write_file(&workspace.join(Tree::name(f)), &tree.text(f));
    }
    for (file, content) in &added {
        write_file(&workspace.join(file), content);
    }
    Generated {
        path: db.join(OPENCODE_SESSION),
        bytes: fs::metadata(&db).expect("metadata").len(),
        edits,
        failed,
        loose,
    }
}
