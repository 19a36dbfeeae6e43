//! `srview gate --agent A` as a whole process, the way an agent's hook runs
//! it: the release binary started with a payload on stdin, judging the edit
//! against a file on disk, answering on stdout and appending its record to
//! `.srview/gate.jsonl`. Issue 31's targets:
//! - an **exact** edit to a 10,000-line file: ≤ 5 ms median;
//! - a **fuzzy** stage (each agent's own loose stage) on a 100,000-line
//!   file: ≤ 50 ms median;
//! - a whole-file **write** of the 10,000-line file changing one line (the
//!   agents with a write tool; the stand-in and layout checks read it):
//!   the exact edit's ≤ 5 ms;
//!
//! for each command-hook agent (Claude Code, Codex, Gemini CLI, Qwen Code)
//! in its recorded payload shape and for srview's own JSON that its OpenCode
//! plugin and pi extension send, beside `true` (a process that does nothing)
//! as the floor. The loose edits: Claude Code's curly quotes for the file's
//! straight ones (its quote normalisation), Codex's patch indented two
//! columns in (`trimmed`), Gemini CLI's (`regex`: the text ends with a
//! newline, so its `flexible` stage wants a third line that trims to
//! nothing, after scanning every line) and OpenCode's
//! (`LineTrimmedReplacer`) edits indented two columns in, Qwen Code's
//! trailing spaces (`line_pass_trimEnd`), pi's curly quotes (its fuzzy
//! match). Each answer is checked once (exact: no opinion; loose: the
//! rewrite, or Qwen Code's deny with the exact edit), so that the figures
//! are of the path they name.
//!
//! And large files of the kinds whose trust checks read the whole file
//! (tester 49 T-16: YAML and many-fenced Markdown were quadratic), one
//! edit each through Claude Code's payload, `LARGE_RUNS` runs: YAML
//! of 10,000 and 20,000 lines, a 21,001-line pnpm-lock-like file, Markdown
//! of 24,000 lines with 4,000 code fences, Python of 100,000 lines,
//! JavaScript of 80,000 lines with an old text `}` in 20,000 places; the
//! target is 50 ms for each 10,000 lines (a 10,000-line file ≤ 50 ms,
//! 100,000 lines ≤ 0.5 s).
//!
//! Run: `cargo bench --bench gate`, or only the cases whose name holds a
//! word: `cargo bench --bench gate -- yaml` (`large`, `markdown`, `lock`,
//! `python`, `exact`...). The figures are medians of `RUNS` runs:
//! the wall clock (what the agent waits; the target is of it) and the
//! process's CPU time (user + system, from `wait4`: on a machine shared
//! with builds, the wall clock says more about them than about the gate).
//! The floor, `/bin/true`, says what starting a process costs here.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

#[path = "../tests/support/measure.rs"]
mod measure;

const RUNS: usize = 41;
const LARGE_RUNS: usize = 11;
const EXACT_TARGET: Duration = Duration::from_millis(5);
const FUZZY_TARGET: Duration = Duration::from_millis(50);

/// A Python file of `lines` lines (a multiple of 4): 4-line functions, each
/// with its own number, with quotes and indentation.
fn python(lines: usize) -> String {
    (0..lines / 4)
        .map(|i| {
            format!(
                "def handler_{i}(item):\n    label = \"low\" if item.qty < {i} else \"ok\"\n    \
                 return label, item.price * {i}\n\n"
            )
        })
        .collect()
}

/// A YAML file of `lines` lines (a multiple of 4): mappings of a quoted
/// name, a number and a flow list (the tester's `ten.yaml`).
fn yaml(lines: usize) -> String {
    (0..lines / 4)
        .map(|i| format!("key{i}:\n  name: \"n{i}\"\n  value: {i}\n  list: [a, b]\n"))
        .collect()
}

/// A pnpm-lock-like file of `packages` packages (3 lines each, under
/// `packages:`): flow mappings of an integrity string.
fn pnpm_lock(packages: usize) -> String {
    let body: String = (0..packages)
        .map(|i| {
            format!(
                "  /pkg{i}@1.0.{i}:\n    resolution: {{integrity: sha512-{i:08}}}\n    dev: false\n"
            )
        })
        .collect();
    format!("packages:\n{body}")
}

/// Markdown of `sections` 6-line sections, each a heading and a fenced
/// Python block.
fn fenced_markdown(sections: usize) -> String {
    (0..sections)
        .map(|i| format!("## S{i}\n\n```python\nx = {i}\n```\n\n"))
        .collect()
}

/// A JavaScript file of `lines` lines (a multiple of 4): functions of
/// three lines and a `}` each.
fn javascript(lines: usize) -> String {
    (0..lines / 4)
        .map(|i| format!("function f{i}(a, b) {{\n  const x = a + b * {i};\n  return x;\n}}\n"))
        .collect()
}

/// The large-file cases: name, file, its text, the edit's old and new
/// text, and whether the gate denies it (an exact edit gets no opinion;
/// a lone `}` standing in 20,000 places is denied as ambiguous, each place
/// named: once quadratic, 200 s of CPU in a debug build).
type LargeCase = (&'static str, &'static str, String, String, String, bool);

fn large_files() -> Vec<LargeCase> {
    let line = |old: &str, new: &str| (old.to_string(), new.to_string());
    let (y_old, y_new) = line("  value: 1234\n", "  value: 1235\n");
    let (l_old, l_new) = line(
        "    resolution: {integrity: sha512-00000100}\n",
        "    resolution: {integrity: sha512-00000101}\n",
    );
    let (m_old, m_new) = line("x = 100\n", "x = 101\n");
    let (p_old, p_new) = line(
        "    return label, item.price * 17000\n",
        "    return label, item.price * 17001\n",
    );
    vec![
        (
            "large yaml, 10,000 lines",
            "ten.yaml",
            yaml(10_000),
            y_old.clone(),
            y_new.clone(),
            false,
        ),
        (
            "large yaml, 20,000 lines",
            "twenty.yaml",
            yaml(20_000),
            y_old,
            y_new,
            false,
        ),
        (
            "large yaml lock, 21,001 lines",
            "pnpm-lock.yaml",
            pnpm_lock(7_000),
            l_old,
            l_new,
            false,
        ),
        (
            "large markdown, 24,000 lines",
            "fences.md",
            fenced_markdown(4_000),
            m_old,
            m_new,
            false,
        ),
        (
            "large python, 100,000 lines",
            "big.py",
            python(100_000),
            p_old,
            p_new,
            false,
        ),
        (
            "large js, 80,000 lines, `}` in 20,000 places",
            "big.js",
            javascript(80_000),
            "}".to_string(),
            "};".to_string(),
            true,
        ),
    ]
}

#[derive(Clone, Copy, PartialEq)]
enum Agent {
    ClaudeCode,
    Codex,
    GeminiCli,
    QwenCode,
    Opencode,
    Pi,
}

impl Agent {
    const ALL: [Agent; 6] = [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::GeminiCli,
        Agent::QwenCode,
        Agent::Opencode,
        Agent::Pi,
    ];

    fn id(self) -> &'static str {
        match self {
            Agent::ClaudeCode => "claude-code",
            Agent::Codex => "codex",
            Agent::GeminiCli => "gemini-cli",
            Agent::QwenCode => "qwen-code",
            Agent::Opencode => "opencode",
            Agent::Pi => "pi",
        }
    }
}

/// `agent`'s payload (its recorded shape) replacing `old` with `new` in
/// `file` (a name in `cwd`); Codex: `patch` instead.
fn payload(agent: Agent, cwd: &Path, file: &str, old: &str, new: &str, patch: &str) -> Value {
    let cwd = cwd.to_string_lossy();
    let path = format!("{cwd}/{file}");
    let session = "6e7f0000-0000-4000-8000-000000000002";
    match agent {
        Agent::ClaudeCode => json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "permission_mode": "acceptEdits", "hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": path, "old_string": old, "new_string": new, "replace_all": false},
            "tool_use_id": "toolu_02Edit00000000000000000"
        }),
        Agent::Codex => json!({
            "session_id": session, "turn_id": "t", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "hook_event_name": "PreToolUse", "model": "gpt-5.5", "permission_mode": "bypassPermissions",
            "tool_name": "apply_patch", "tool_input": {"command": patch}, "tool_use_id": "call_patch_01"
        }),
        Agent::GeminiCli => json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-12-01T14:14:54.348Z", "tool_name": "replace",
            "tool_input": {"file_path": path, "instruction": "Change it.", "old_string": old, "new_string": new}
        }),
        Agent::QwenCode => json!({
            "session_id": session, "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "hook_event_name": "PreToolUse", "timestamp": "2026-12-01T14:25:40.580Z", "permission_mode": "yolo",
            "tool_name": "edit", "tool_input": {"file_path": path, "old_string": old, "new_string": new},
            "tool_use_id": "toolu_1", "tool_call_id": "call_edit_02"
        }),
        Agent::Opencode => json!({
            "tool": "edit", "args": {"filePath": path, "oldString": old, "newString": new},
            "cwd": cwd, "sessionID": "ses_1", "callID": "call_1"
        }),
        Agent::Pi => json!({
            "tool": "edit", "args": {"path": file, "edits": [{"oldText": old, "newText": new}]},
            "cwd": cwd, "sessionID": "ses_1", "callID": "call_1"
        }),
    }
}

fn codex_patch(file: &str, old: &str, new: &str) -> String {
    let minus: String = old.lines().map(|l| format!("-{l}\n")).collect();
    let plus: String = new.lines().map(|l| format!("+{l}\n")).collect();
    format!("*** Begin Patch\n*** Update File: {file}\n@@\n{minus}{plus}*** End Patch")
}

/// `agent`'s whole-file write of `file` with `content` (its write tool;
/// `None` for Codex, which has none).
fn write_payload(agent: Agent, cwd: &Path, file: &str, content: &str) -> Option<Value> {
    let cwd = cwd.to_string_lossy();
    let path = format!("{cwd}/{file}");
    let hook = |event: &str, tool: &str| {
        json!({
            "session_id": "6e7f0000-0000-4000-8000-000000000002", "transcript_path": "/tmp/t.jsonl",
            "cwd": cwd, "hook_event_name": event, "tool_name": tool,
            "tool_input": {"file_path": path, "content": content}, "tool_use_id": "toolu_1"
        })
    };
    Some(match agent {
        Agent::Codex => return None,
        Agent::ClaudeCode => hook("PreToolUse", "Write"),
        Agent::GeminiCli => hook("BeforeTool", "write_file"),
        Agent::QwenCode => hook("PreToolUse", "write_file"),
        Agent::Opencode => json!({
            "tool": "write", "args": {"filePath": path, "content": content},
            "cwd": cwd, "sessionID": "ses_1", "callID": "call_1"
        }),
        Agent::Pi => json!({
            "tool": "write", "args": {"path": file, "content": content},
            "cwd": cwd, "sessionID": "ses_1", "callID": "call_1"
        }),
    })
}

/// The exact edit of function `n`'s return line.
fn exact_payload(agent: Agent, cwd: &Path, file: &str, n: usize) -> Value {
    let old = format!("    return label, item.price * {n}\n");
    let new = format!("    return label, item.price * {}\n", n + 1);
    payload(agent, cwd, file, &old, &new, &codex_patch(file, &old, &new))
}

/// An edit of function `n` that `agent` places only by a loose stage.
fn fuzzy_payload(agent: Agent, cwd: &Path, file: &str, n: usize) -> Value {
    let label = |open: &str, close: &str, word: &str| {
        format!("    label = {open}{word}{close} if item.qty < {n} else {open}ok{close}\n")
    };
    let (old, new) = match agent {
        // Curly quotes where the file has straight ones.
        Agent::ClaudeCode | Agent::Pi => (
            label("\u{201C}", "\u{201D}", "low"),
            label("\u{201C}", "\u{201D}", "LOW"),
        ),
        // Trailing spaces the file does not have.
        Agent::QwenCode => (
            format!("    return label, item.price * {n}   \n"),
            format!("    return label, item.price * {}\n", n + 1),
        ),
        // Two columns in.
        Agent::Codex | Agent::GeminiCli | Agent::Opencode => (
            format!("def handler_{n}(item):\n  label = \"low\" if item.qty < {n} else \"ok\"\n"),
            format!("def handler_{n}(item):\n  label = \"LOW\" if item.qty < {n} else \"ok\"\n"),
        ),
    };
    payload(agent, cwd, file, &old, &new, &codex_patch(file, &old, &new))
}

/// One run of `bin ARGS` with `stdin` (a file) on stdin: its stdout, wall
/// time (spawn to exit) and CPU time (user + system, from `wait4`).
fn run(bin: &Path, args: &[&str], stdin: &Path) -> (Vec<u8>, Duration, Duration) {
    let input = File::open(stdin).expect("the payload file");
    let mut stdout = Vec::new();
    let run = measure::run_command_measured(
        Command::new(bin).args(args).stdin(Stdio::from(input)),
        |piece| stdout.extend_from_slice(piece),
    );
    (stdout, run.wall, run.cpu)
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

/// What the answer to a fuzzy edit must be: the rewrite where the agent
/// takes one, Qwen Code's deny with the exact edit.
fn check_fuzzy(agent: Agent, stdout: &[u8]) {
    let text = String::from_utf8_lossy(stdout);
    let json: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let ok = match agent {
        Agent::QwenCode => {
            json["hookSpecificOutput"]["permissionDecision"] == "deny"
                && text.contains("places it exactly")
        }
        Agent::GeminiCli => json["hookSpecificOutput"]["tool_input"].is_object(),
        Agent::Opencode | Agent::Pi => json["decision"] == "rewrite",
        Agent::ClaudeCode | Agent::Codex => json["hookSpecificOutput"]["updatedInput"].is_object(),
    };
    assert!(ok, "{}: not the answer to a loose edit: {text}", agent.id());
}

/// The large-file cases whose name holds `filter` (all with none): each
/// judged once (no opinion: the edit is exact and harmless), then timed;
/// returns the cases missed and the calls made.
fn large(bin: &Path, cwd: &Path, filter: Option<&str>) -> (Vec<String>, usize) {
    let (mut missed, mut calls) = (Vec::new(), 0);
    for (what, name, text, old, new, denied) in large_files() {
        if filter.is_some_and(|f| !what.contains(f)) {
            continue;
        }
        std::fs::write(cwd.join(name), &text).expect("the large file");
        let lines = text.lines().count();
        let target = Duration::from_micros(5 * lines as u64);
        let payload = payload(Agent::ClaudeCode, cwd, name, &old, &new, "");
        let file = cwd.join(format!("{name}.json"));
        std::fs::write(&file, payload.to_string()).expect("the payload");
        let args = ["gate", "--agent", Agent::ClaudeCode.id()];
        let (stdout, _, _) = run(bin, &args, &file);
        let said = String::from_utf8_lossy(&stdout);
        if denied {
            assert!(
                said.contains("\"deny\"") && said.contains("occurs 20000 times"),
                "{what}: denied as ambiguous: {said}"
            );
        } else {
            assert!(
                stdout.is_empty(),
                "{what}: an exact harmless edit gets no opinion: {said}"
            );
        }
        let runs: Vec<(Duration, Duration)> = (0..LARGE_RUNS)
            .map(|_| {
                let (_, wall, cpu) = run(bin, &args, &file);
                (wall, cpu)
            })
            .collect();
        calls += LARGE_RUNS + 1;
        let wall = median(runs.iter().map(|r| r.0).collect());
        let cpu = median(runs.iter().map(|r| r.1).collect());
        let verdict = if wall <= target { "ok" } else { "MISSED" };
        if wall > target {
            missed.push(what.to_string());
        }
        println!(
            "{:<34} {:>10} {:>10} {:>10} {:>8}",
            format!("claude-code, {what}"),
            ms(wall),
            ms(cpu),
            format!("≤ {} ms", target.as_millis()),
            verdict
        );
    }
    (missed, calls)
}

fn main() {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_srview"));
    // `cargo bench --bench gate -- WORD`: only the cases naming WORD (cargo
    // adds `--bench`).
    let filter = std::env::args().skip(1).find(|a| !a.starts_with("--"));
    let filter = filter.as_deref();
    let dir = tempfile::tempdir().expect("a project folder");
    let cwd = dir.path();
    let ten = python(10_000);
    std::fs::write(cwd.join("ten.py"), &ten).expect("the 10,000-line file");
    let written = ten.replace("item.price * 1234\n", "item.price * 1235\n");
    std::fs::write(cwd.join("hundred.py"), python(100_000)).expect("the 100,000-line file");

    let floor_payload = cwd.join("floor.json");
    std::fs::write(&floor_payload, "{}").expect("a payload");
    let floor: Vec<(Duration, Duration)> = (0..RUNS)
        .map(|_| {
            let (_, wall, cpu) = run(Path::new("/bin/true"), &[], &floor_payload);
            (wall, cpu)
        })
        .collect();
    println!(
        "srview gate, whole process, median of {RUNS} runs: wall clock, and CPU time (user + \
         system: what the machine's other load does not change)"
    );
    println!(
        "{:<34} {:>10} {:>10} {:>10} {:>8}",
        "agent, case", "wall", "CPU", "target", ""
    );
    println!(
        "{:<34} {:>10} {:>10}",
        "`true` (the floor)",
        ms(median(floor.iter().map(|r| r.0).collect())),
        ms(median(floor.iter().map(|r| r.1).collect()))
    );
    let mut missed = Vec::new();
    let mut calls = 0;
    for agent in Agent::ALL {
        let mut cases = vec![
            (
                "exact, 10,000 lines",
                exact_payload(agent, cwd, "ten.py", 1_234),
                EXACT_TARGET,
            ),
            (
                "fuzzy, 100,000 lines",
                fuzzy_payload(agent, cwd, "hundred.py", 17_000),
                FUZZY_TARGET,
            ),
        ];
        cases.extend(
            write_payload(agent, cwd, "ten.py", &written)
                .map(|payload| ("write, 10,000 lines", payload, EXACT_TARGET)),
        );
        cases.retain(|(what, ..)| {
            filter.is_none_or(|f| what.contains(f) || agent.id().contains(f) || f == "python")
        });
        for (n, (what, payload, target)) in cases.into_iter().enumerate() {
            let file = cwd.join(format!("{}-{n}.json", agent.id()));
            std::fs::write(&file, payload.to_string()).expect("the payload");
            let args = ["gate", "--agent", agent.id()];
            let (stdout, _, _) = run(&bin, &args, &file);
            calls += RUNS + 1;
            if target == EXACT_TARGET {
                assert!(
                    stdout.is_empty(),
                    "{}: an exact edit or write gets no opinion ({what}): {}",
                    agent.id(),
                    String::from_utf8_lossy(&stdout)
                );
            } else {
                check_fuzzy(agent, &stdout);
            }
            let runs: Vec<(Duration, Duration)> = (0..RUNS)
                .map(|_| {
                    let (_, wall, cpu) = run(&bin, &args, &file);
                    (wall, cpu)
                })
                .collect();
            let wall = median(runs.iter().map(|r| r.0).collect());
            let cpu = median(runs.iter().map(|r| r.1).collect());
            let verdict = if wall <= target { "ok" } else { "MISSED" };
            if wall > target {
                missed.push(format!("{} {what}", agent.id()));
            }
            println!(
                "{:<34} {:>10} {:>10} {:>10} {:>8}",
                format!("{}, {what}", agent.id()),
                ms(wall),
                ms(cpu),
                format!("≤ {} ms", target.as_millis()),
                verdict
            );
        }
    }
    let (large_missed, large_calls) = large(&bin, cwd, filter);
    missed.extend(large_missed);
    calls += large_calls;
    let records = std::fs::read_to_string(cwd.join(".srview/gate.jsonl")).unwrap_or_default();
    assert_eq!(records.lines().count(), calls, "every call is recorded");
    if !missed.is_empty() {
        println!("missed: {}", missed.join(", "));
    }
}
