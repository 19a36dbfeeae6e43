//! Each agent matcher ported in src/dialect/ against the agent's own code,
//! side by side (issue 29: at least as fast as the agent's code in-process
//! on its corpus's large cases, 5x faster on OpenCode's BlockAnchorReplacer
//! and Gemini's fuzzy stage).
//!
//! `cargo bench --bench matchers` runs, for each matcher, the records of its
//! corpus (tests/fixtures/matchers/*.jsonl.gz) that are large or matched by a
//! loose stage, through srview's port in-process over a `MemoryFs`, and
//! prints the median time of one pass over each group: the process's CPU
//! time (user + system; this machine is shared by builds, so the wall clock
//! says more about them than about the code), with the wall-clock ratio
//! beside it. Beside it, when `node`
//! is on PATH (Aider: a Python) and the variable naming the folder where the
//! agent's package is installed is set, a script in benches/oracles/ loads
//! the agent's OWN installed code in-process and times the same records the
//! same way; the table gives both figures and the ratio against the target.
//! Without the tool or the variable that column says why it is skipped.
//!
//! | variable | folder holding | script |
//! |---|---|---|
//! | `SRVIEW_ORACLE_AIDER` | a venv with `aider-chat==0.86.2` (`venv/bin/python`) | aider_diff.py |
//! | `SRVIEW_ORACLE_OPENCODE` | `shipped/*.js` cut from `opencode-linux-x64@1.18.33` (or its `node_modules/`) | opencode.mjs |
//! | `SRVIEW_ORACLE_GEMINI` | `node_modules/@google/gemini-cli-core@0.61.0` | gemini.mjs |
//! | `SRVIEW_ORACLE_QWEN` | `node_modules/@qwen-code/qwen-code@0.24.4` | qwen.mjs |
//! | `SRVIEW_ORACLE_PI` | `node_modules/@mariozechner/pi-coding-agent@0.73.1` | pi.mjs |
//! | `SRVIEW_ORACLE_CLINE` | `node_modules/@cline/core` (of `cline@3.0.65`) | cline.mjs |
//!
//! What is timed on each side: srview's whole `CallMatcher::run` (input
//! checks, reading the `MemoryFs`, every stage, the outcome with its texts);
//! the agent's own matching code from the file's text and the call's input
//! to its result, leaving out its file writes, diffs for display and
//! permission prompts (each script says which functions it calls).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use srview::dialect::aider_diff::AiderDiff;
use srview::dialect::apply_patch::fs::MemoryFs;
use srview::dialect::call::{CallMatcher, ToolCall};
use srview::dialect::cline_apply_patch::ClineApplyPatch;
use srview::dialect::gemini_replace::GeminiReplace;
use srview::dialect::opencode_apply_patch::OpencodeApplyPatch;
use srview::dialect::opencode_edit::OpencodeEdit;
use srview::dialect::pi_edit::PiEdit;
use srview::dialect::qwen_edit::QwenEdit;

#[path = "../tests/support/corpus.rs"]
mod corpus;

/// Timed passes over each group (after two warm-up passes), on both sides.
const PASSES: usize = 9;
const CWD: &str = "/home/user/project";

/// One group of records timed together.
struct Group {
    /// What it holds, as the corpus names it.
    name: &'static str,
    /// The speed-up over the agent's code the issue asks for.
    target: f64,
    /// Whether a record belongs to it.
    holds: fn(&Value) -> bool,
}

/// One ported matcher and where its agent's own code is found.
struct Matcher {
    dialect: &'static str,
    corpus: &'static str,
    matcher: &'static dyn CallMatcher,
    /// Aider's tool input is the reply text with the chat's files.
    aider: bool,
    /// The variable naming the agent's install folder.
    oracle_var: &'static str,
    /// The script in benches/oracles/ and its mode argument.
    script: &'static str,
    mode: &'static str,
    groups: Vec<Group>,
}

fn kind(record: &Value) -> &str {
    record["kind"].as_str().unwrap_or_default()
}

fn stage(record: &Value) -> &str {
    record["expect"]["stage"].as_str().unwrap_or_default()
}

/// The bytes of every file the record starts with.
fn file_bytes(record: &Value) -> usize {
    let single = record["file"].as_str().map_or(0, str::len);
    let many: usize = record["files"]
        .as_object()
        .map(|files| files.values().filter_map(Value::as_str).map(str::len).sum())
        .unwrap_or(0);
    single + many
}

/// The records of kind `large`, as four of the corpora name their largest.
const LARGE: Group = Group {
    name: "kind large",
    target: 1.0,
    holds: |r| kind(r) == "large",
};

fn matchers() -> Vec<Matcher> {
    vec![
        Matcher {
            dialect: "aider-diff",
            corpus: "aider-diff-0.86.2",
            matcher: &AiderDiff,
            aider: true,
            oracle_var: "SRVIEW_ORACLE_AIDER",
            script: "aider_diff.py",
            mode: "diff",
            groups: vec![
                LARGE,
                Group {
                    name: "loose stages",
                    target: 1.0,
                    // missing_leading_whitespace, dotdotdots, *_skip_blank_line.
                    holds: |r| {
                        stage(r).split('+').any(|s| {
                            s.starts_with("missing_leading")
                                || s.contains("dotdotdots")
                                || s.ends_with("skip_blank_line")
                        })
                    },
                },
            ],
        },
        Matcher {
            dialect: "opencode-edit",
            corpus: "opencode-edit-1.18.33",
            matcher: &OpencodeEdit,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_OPENCODE",
            script: "opencode.mjs",
            mode: "edit",
            groups: vec![
                Group {
                    name: "kind large_file",
                    target: 1.0,
                    holds: |r| kind(r) == "large_file",
                },
                Group {
                    name: "BlockAnchorReplacer",
                    target: 5.0,
                    holds: |r| stage(r) == "BlockAnchorReplacer",
                },
            ],
        },
        Matcher {
            dialect: "opencode-apply-patch",
            corpus: "opencode-apply-patch-1.18.33",
            matcher: &OpencodeApplyPatch,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_OPENCODE",
            script: "opencode.mjs",
            mode: "patch",
            groups: vec![
                Group {
                    // The corpus has no large kind: its largest records.
                    name: "files >= 10 kB",
                    target: 1.0,
                    holds: |r| file_bytes(r) >= 10_000,
                },
                Group {
                    name: "trimEnd/trim/normalized",
                    target: 1.0,
                    holds: |r| matches!(stage(r), "trimEnd" | "trim" | "normalized"),
                },
            ],
        },
        Matcher {
            dialect: "gemini-replace",
            corpus: "gemini-replace-0.61.0",
            matcher: &GeminiReplace,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_GEMINI",
            script: "gemini.mjs",
            mode: "replace",
            groups: vec![
                LARGE,
                Group {
                    name: "fuzzy",
                    target: 5.0,
                    holds: |r| stage(r) == "fuzzy",
                },
            ],
        },
        Matcher {
            dialect: "qwen-edit",
            corpus: "qwen-edit-0.24.4",
            matcher: &QwenEdit,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_QWEN",
            script: "qwen.mjs",
            mode: "edit",
            groups: vec![
                LARGE,
                Group {
                    name: "loose stages",
                    target: 1.0,
                    holds: |r| !matches!(stage(r), "literal" | "none" | "precheck" | "create"),
                },
            ],
        },
        Matcher {
            dialect: "pi-edit",
            corpus: "pi-edit-0.73.1",
            matcher: &PiEdit,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_PI",
            script: "pi.mjs",
            mode: "edit",
            groups: vec![
                LARGE,
                Group {
                    name: "fuzzy",
                    target: 1.0,
                    holds: |r| stage(r) == "fuzzy",
                },
            ],
        },
        Matcher {
            dialect: "cline-apply-patch",
            corpus: "cline-apply-patch-3.0.65",
            matcher: &ClineApplyPatch,
            aider: false,
            oracle_var: "SRVIEW_ORACLE_CLINE",
            script: "cline.mjs",
            mode: "patch",
            groups: vec![
                Group {
                    name: "kind cline/large_file",
                    target: 1.0,
                    holds: |r| kind(r) == "cline/large_file",
                },
                Group {
                    name: "similarity",
                    target: 1.0,
                    holds: |r| stage(r).split('+').any(|s| s == "similarity"),
                },
            ],
        },
    ]
}

/// The records of `tests/fixtures/matchers/NAME.jsonl.gz`.
fn load(name: &str) -> Vec<Value> {
    corpus::matcher_records(name)
}

/// A record as its call: the file system before and the tool input.
struct Call {
    fs: MemoryFs,
    input: Value,
    ok: bool,
}

fn call_of(record: &Value, aider: bool) -> Call {
    let mut files: Vec<(String, String)> = Vec::new();
    if let (Some(path), Some(file)) = (record["path"].as_str(), record["file"].as_str()) {
        files.push((path.to_string(), file.to_string()));
    }
    for key in ["extra_files", "files"] {
        if let Some(more) = record[key].as_object() {
            for (path, content) in more {
                if let Some(content) = content.as_str() {
                    files.push((path.clone(), content.to_string()));
                }
            }
        }
    }
    let input = if aider {
        let chat: Vec<&str> = record["file"]
            .as_str()
            .and(record["path"].as_str())
            .into_iter()
            .collect();
        json!({"reply": record["input"]["reply"], "chat_files": chat})
    } else {
        record["input"].clone()
    };
    Call {
        fs: MemoryFs::new(files),
        input,
        ok: record["expect"]["ok"].as_bool().unwrap_or(false),
    }
}

/// The process's CPU time so far (user + system).
fn cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for clock_gettime to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "clock_gettime(CLOCK_PROCESS_CPUTIME_ID)");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// One group's median pass: CPU and wall-clock milliseconds.
struct Figure {
    cpu_ms: f64,
    wall_ms: f64,
}

fn median(mut times: Vec<f64>) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The median pass over `calls` through srview's port.
fn time_port(matcher: &dyn CallMatcher, calls: &[Call]) -> Figure {
    let pass = || {
        let cpu = cpu_time();
        let started = Instant::now();
        for call in calls {
            let outcome = matcher.run(&ToolCall {
                input: &call.input,
                cwd: CWD,
                fs: &call.fs,
            });
            // The corpus test checks every field; this only guards the
            // figure against timing a port that went wrong.
            assert_eq!(outcome.ok, call.ok, "port disagrees with the corpus");
        }
        let wall = started.elapsed();
        (
            (cpu_time() - cpu).as_secs_f64() * 1e3,
            wall.as_secs_f64() * 1e3,
        )
    };
    pass();
    pass();
    let (cpu, wall): (Vec<f64>, Vec<f64>) = (0..PASSES).map(|_| pass()).unzip();
    Figure {
        cpu_ms: median(cpu),
        wall_ms: median(wall),
    }
}

/// The agent's own figure per group, or why there is none.
fn time_agent(
    matcher: &Matcher,
    groups: &[(&Group, Vec<&Value>)],
) -> Result<BTreeMap<String, AgentFigure>, String> {
    let folder = std::env::var(matcher.oracle_var)
        .map_err(|_| format!("skipped: {} is not set", matcher.oracle_var))?;
    let program = if matcher.aider {
        let python = PathBuf::from(&folder).join("venv/bin/python");
        if !python.exists() {
            return Err(format!("skipped: no {}", python.display()));
        }
        python.display().to_string()
    } else {
        "node".to_string()
    };
    let runs = Command::new(&program)
        .arg("--version")
        .output()
        .is_ok_and(|out| out.status.success());
    if !runs {
        return Err(format!("skipped: {program} is not on PATH"));
    }
    let records = std::env::temp_dir().join(format!(
        "srview-bench-matchers-{}-{}.jsonl",
        matcher.dialect,
        std::process::id()
    ));
    {
        let mut out = std::fs::File::create(&records).map_err(|e| e.to_string())?;
        for (group, members) in groups {
            for record in members {
                let line = json!({"group": group.name, "record": record});
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
        }
    }
    let script = format!(
        "{}/benches/oracles/{}",
        env!("CARGO_MANIFEST_DIR"),
        matcher.script
    );
    let output = Command::new(&program)
        .arg(&script)
        .arg(matcher.mode)
        .arg(&records)
        .arg(PASSES.to_string())
        .env("SRVIEW_ORACLE_DIR", &folder)
        .output()
        .map_err(|e| format!("failed: {program} {script}: {e}"));
    let _ = std::fs::remove_file(&records);
    let output = output?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let last = stderr.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
        return Err(format!(
            "failed: {} exited {}: {last}",
            matcher.script, output.status
        ));
    }
    let mut figures = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(figure) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let (Some(group), Some(wall_ms), Some(cpu_ms)) = (
            figure["group"].as_str(),
            figure["median_ms"].as_f64(),
            figure["median_cpu_ms"].as_f64(),
        ) else {
            continue;
        };
        figures.insert(
            group.to_string(),
            AgentFigure {
                time: Figure { cpu_ms, wall_ms },
                passes: figure["passes"].as_u64().unwrap_or(0),
                calls: figure["calls"].as_u64().unwrap_or(0),
                agree: figure["agree"].as_u64().unwrap_or(0),
                checked: figure["checked"].as_u64().unwrap_or(0),
            },
        );
    }
    Ok(figures)
}

/// One group's time through the agent's own code.
struct AgentFigure {
    time: Figure,
    /// Its timed passes (fewer than `PASSES` where one takes seconds).
    passes: u64,
    /// The records it ran (all the group's, unless the script says why not).
    calls: u64,
    /// Of the `checked` records, those where the agent's result here equals
    /// the corpus's (the script ran the code the corpus came from).
    agree: u64,
    checked: u64,
}

fn main() {
    println!(
        "Agent matchers against the agents' own code, in-process: median pass over each group, \
         CPU ms (user + system); ratio = agent / srview (CPU, then wall clock); srview {PASSES} \
         passes, the agent's as noted:"
    );
    println!(
        "  {:<20} {:<23} {:>5}  {:>9}  {:>10}  {:>7}  {:>6}  {:<6} {:<6}  agent's passes, its results = corpus",
        "matcher", "group", "calls", "srview", "agent", "ratio", "wall", "target", ""
    );
    let mut notes = Vec::new();
    for matcher in matchers() {
        let records = load(matcher.corpus);
        let groups: Vec<(&Group, Vec<&Value>)> = matcher
            .groups
            .iter()
            .map(|group| {
                let members: Vec<&Value> = records
                    .iter()
                    .filter(|r| (group.holds)(r) && !r["expect"]["hang"].as_bool().unwrap_or(false))
                    .collect();
                (group, members)
            })
            .collect();
        let agent = time_agent(&matcher, &groups);
        if let Err(why) = &agent {
            notes.push(format!("  {}: {why}", matcher.dialect));
        }
        for (group, members) in &groups {
            let calls: Vec<Call> = members.iter().map(|r| call_of(r, matcher.aider)).collect();
            let port = time_port(matcher.matcher, &calls);
            let figure = agent.as_ref().ok().and_then(|f| f.get(group.name));
            let (agent_ms, ratio, wall, verdict, about) = match figure {
                Some(f) => {
                    let ratio = f.time.cpu_ms / port.cpu_ms;
                    let all_ran = f.calls as usize == calls.len();
                    let verdict = match () {
                        _ if !all_ran => "partial",
                        _ if ratio >= group.target => "met",
                        _ => "MISSED",
                    };
                    (
                        format!("{:.2}", f.time.cpu_ms),
                        format!("{ratio:.1}x"),
                        format!("{:.1}x", f.time.wall_ms / port.wall_ms),
                        verdict,
                        format!(
                            "{} {}, {}/{} = corpus",
                            f.passes,
                            if f.passes == 1 { "pass" } else { "passes" },
                            f.agree,
                            f.checked
                        ),
                    )
                }
                None => ("skipped".into(), "-".into(), "-".into(), "", String::new()),
            };
            println!(
                "  {:<20} {:<23} {:>5}  {:>9.2}  {:>10}  {:>7}  {:>6}  >= {:<3} {:<6}  {about}",
                matcher.dialect,
                group.name,
                calls.len(),
                port.cpu_ms,
                agent_ms,
                ratio,
                wall,
                format!("{}x", group.target),
                verdict,
            );
        }
    }
    for note in notes {
        println!("{note}");
    }
}
