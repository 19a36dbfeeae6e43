//! The recorded agent runs in `tests/fixtures/agents/<agent-version>/<scenario>/`
//! and the ground truth each holds in `expected.json`.

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

/// The folder of every agent's captures.
pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
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

/// The `expected.json` of the scenario in `dir`.
pub fn expected(dir: &Path) -> Expected {
    serde_json::from_slice(&fs::read(dir.join("expected.json")).expect("expected.json"))
        .expect("expected.json parses")
}
