//! The recorded agent runs in `tests/fixtures/agents/<agent-version>/<scenario>/`
//! and the ground truth each holds in `expected.json`.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// A scenario's `expected.json`.
#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Expected {
    pub agent: String,
    pub version: String,
    pub edits: Vec<ExpectedEdit>,
}

/// One edit the agent made, in order.
#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct ExpectedEdit {
    pub seq: usize,
    pub file: String,
    pub tool: String,
    pub agent_verdict: String,
    pub agent_message: Option<String>,
    pub content_before: Option<String>,
    pub content_after: Option<String>,
}

impl ExpectedEdit {
    /// Whether `got` (one edit of `session --json`) agrees with this edit
    /// on each of its file, tool, agent verdict and agent message: `(field
    /// name, agrees)` in that order.
    pub fn agent_fields_agree(&self, got: &serde_json::Value) -> [(&'static str, bool); 4] {
        [
            ("file", got["file"] == self.file.as_str()),
            ("tool", got["tool"] == self.tool.as_str()),
            (
                "agentVerdict",
                got["agentVerdict"] == self.agent_verdict.as_str(),
            ),
            (
                "agentMessage",
                got["agentMessage"].as_str() == self.agent_message.as_deref(),
            ),
        ]
    }
}

/// The folder of every agent's captures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
}

/// The files of one side of a recorded run, `before` (as the run found
/// them) or `after` (as it left them), as its `files.json` keeps them: path (relative to the workspace) to content.
/// The recorded files are data, kept as JSON so that a snapshot of an
/// agent's file is never read as the project's own code.
pub fn recorded_files(scenario: &Path, side: &str) -> BTreeMap<String, String> {
    let path = scenario.join("files.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sides: BTreeMap<String, BTreeMap<String, String>> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    sides
        .remove(side)
        .unwrap_or_else(|| panic!("{}: no {side} side", path.display()))
}

/// A new temporary workspace holding one side (`before` or `after`) of a
/// recorded run's files.
pub fn workspace_copy(scenario: &Path, side: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for (name, content) in recorded_files(scenario, side) {
        let path = dir.path().join(&name);
        if let Some(folder) = path.parent() {
            fs::create_dir_all(folder).expect("folder");
        }
        fs::write(&path, content).expect("write");
    }
    dir
}

/// Every scenario folder (those with an expected.json), sorted.
pub fn scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for agent in fs::read_dir(fixtures()).expect("fixtures folder") {
        let agent = agent.expect("entry").path();
        if !agent.is_dir() {
            continue;
        }
        for scenario in fs::read_dir(&agent).expect("agent folder") {
            let scenario = scenario.expect("entry").path();
            if scenario.join("expected.json").is_file() {
                out.push(scenario);
            }
        }
    }
    out.sort();
    out
}

/// Every scenario: its folder, its name (`agent-version/scenario`) and
/// its expected.json.
pub fn recorded_scenarios() -> Vec<(PathBuf, String, Expected)> {
    scenarios()
        .into_iter()
        .map(|dir| {
            let label = dir
                .strip_prefix(fixtures())
                .expect("under the fixtures")
                .display()
                .to_string();
            let want = expected(&dir);
            (dir, label, want)
        })
        .collect()
}

impl Expected {
    /// `claude-code 2.1.328`: the agent and version the capture is of.
    pub fn agent_version(&self) -> String {
        format!("{} {}", self.agent, self.version)
    }
}

/// The `expected.json` of the scenario in `dir`.
pub fn expected(dir: &Path) -> Expected {
    serde_json::from_slice(&fs::read(dir.join("expected.json")).expect("expected.json"))
        .expect("expected.json parses")
}

/// A scenario's saved session: the one file the agent saved for it (an
/// OpenCode database), or the folder holding a Cline one (`*.messages.json`,
/// `api_conversation_history.json`).
pub fn session_path(dir: &Path) -> PathBuf {
    let mut found = None;
    visit(&dir.join("session"), &mut |p| {
        let name = p
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .to_string();
        let pick = name.ends_with(".messages.json")
            || name == "api_conversation_history.json"
            || name == ".aider.chat.history.md"
            || name.ends_with(".jsonl")
            || name == "opencode.db";
        if pick && found.is_none() {
            found = Some(if name.ends_with(".json") {
                p.parent().expect("a folder").to_path_buf()
            } else {
                p.to_path_buf()
            });
        }
    });
    found.unwrap_or_else(|| panic!("no session in {}", dir.display()))
}

/// Calls `f` on every file below `dir`, in sorted order.
fn visit(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .expect("readable folder")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            visit(&p, f);
        } else {
            f(&p);
        }
    }
}

/// The live stream of a scenario (what the agent printed), if it has one.
pub fn live_file(dir: &Path) -> Option<PathBuf> {
    ["stdout.jsonl", "app-server.jsonl", "pty.txt", "stdout.txt"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// One real Codex CLI 0.169.0 apply_patch run
/// (`tests/fixtures/apply_patch_codex_runs.json`): the patch sent, the
/// project before and after, and the tool output the agent saw.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CodexRun {
    pub capture: String,
    pub cwd: String,
    pub patch: String,
    pub tool_output: String,
    pub before: BTreeMap<String, String>,
    pub after: BTreeMap<String, String>,
}

/// Every recorded Codex apply_patch run.
pub fn codex_runs() -> Vec<CodexRun> {
    serde_json::from_str(include_str!("../fixtures/apply_patch_codex_runs.json"))
        .expect("the runs fixture is JSON")
}

/// The recorded Claude Code 2.1.328 run `a_edits_ok` (its saved session,
/// or its live `stdout.jsonl` when `live`) with its first Edit rewritten,
/// the model's tool input and the agent's recorded result alike (its
/// structured patch dropped, its recorded file before kept):
/// `rewrite(before)` gives the old and new text, `before` being the file
/// before the edit as the output records it. Written into `folder`, whose
/// path is returned; the run's workspace is `/home/user/project`, its one
/// file `inventory.py`.
pub fn claude_run_rewritten(
    folder: &Path,
    live: bool,
    rewrite: impl Fn(&str) -> (String, String),
) -> PathBuf {
    let dir = fixtures().join("claude-code-2.1.328/a_edits_ok");
    let (recorded, name) = match live {
        true => (dir.join("stdout.jsonl"), "stdout.jsonl"),
        false => (session_path(&dir), "session.jsonl"),
    };
    let text = fs::read_to_string(recorded).expect("the recorded output");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    // The saved session's key, and the stream's.
    let result_of = |line: &serde_json::Value| {
        ["toolUseResult", "tool_use_result"]
            .into_iter()
            .find(|key| line[key]["oldString"].is_string())
    };
    let (first, key) = lines
        .iter()
        .find_map(|l| result_of(l).map(|key| (l, key)))
        .expect("an Edit's result");
    let old = first[key]["oldString"].as_str().expect("old").to_string();
    let before = first[key]["originalFile"]
        .as_str()
        .expect("the file before");
    let (new_old, new_new) = rewrite(before);
    let mut out = String::new();
    for mut line in lines {
        if let Some(blocks) = line["message"]["content"].as_array_mut() {
            for b in blocks {
                if b["type"] == "tool_use" && b["input"]["old_string"] == old.as_str() {
                    b["input"]["old_string"] = new_old.clone().into();
                    b["input"]["new_string"] = new_new.clone().into();
                }
            }
        }
        if let Some(result) = line[key].as_object_mut()
            && result.get("oldString").and_then(|s| s.as_str()) == Some(old.as_str())
        {
            result.insert("oldString".into(), new_old.clone().into());
            result.insert("newString".into(), new_new.clone().into());
            result.remove("structuredPatch");
        }
        out.push_str(&line.to_string());
        out.push('\n');
    }
    let path = folder.join(name);
    fs::write(&path, out).expect("write the output");
    path
}

/// [`claude_run_rewritten`] as tester finding 10 had it: the first Edit
/// replaces `total_value`, `find_item` and `cheapest` with a placeholder
/// for the two it leaves out and a new `total_value`.
pub fn claude_run_standing_in(folder: &Path, live: bool) -> PathBuf {
    claude_run_rewritten(folder, live, |before| {
        let start = before.find("def total_value").expect("total_value");
        let end = before.find("def low_stock").expect("low_stock");
        (
            before[start..end].trim_end_matches('\n').to_string(),
            "# ... existing helpers unchanged ...\n\ndef total_value(items):\n    \
             return sum(item.price * item.qty for item in items)"
                .to_string(),
        )
    })
}

/// Reads the whole of `session` as `format`, timed (its size, edit count
/// and time printed), and asserts it took under 2 s in a release build (a
/// debug build is about ten times slower: 20 s). Returns how many edits it
/// read.
pub fn read_all_quickly(format: srview::source::agent::Format, session: &[u8]) -> usize {
    let start = std::time::Instant::now();
    let reader = srview::source::agent::read_all(format, session).expect("the session reads");
    let took = start.elapsed();
    let edits = reader.edits().len();
    println!("{} MB, {edits} edits read in {took:?}", session.len() >> 20);
    let limit = if cfg!(debug_assertions) { 20.0 } else { 2.0 };
    assert!(took.as_secs_f64() < limit, "{took:?}");
    edits
}
