//! The reference corpus (`tests/fixtures/*.jsonl`), loaded once per test
//! binary that needs it.
#![allow(dead_code)]

use serde_json::Value;
use srview::engine::Version;

/// One input/output pair produced by Cline v4.0.10.
pub struct Case {
    pub id: String,
    pub kind: String,
    pub version: Version,
    pub is_final: bool,
    pub original: String,
    pub diff: String,
    /// `{"ok": true, "newContent", "matchIndices"}` or `{"ok": false, "error"}`.
    pub expect: Value,
}

/// Every case of `tests/fixtures/<name>`.
pub fn load(name: &str) -> Vec<Case> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("fixture present");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: Value = serde_json::from_str(l).expect("valid JSON line");
            let field = |k: &str| {
                v[k].as_str()
                    .unwrap_or_else(|| panic!("{k} in {l}"))
                    .to_string()
            };
            Case {
                id: field("id"),
                kind: field("kind"),
                version: match v["version"].as_str() {
                    Some("v2") => Version::V2,
                    _ => Version::V1,
                },
                is_final: v["isFinal"].as_bool().expect("isFinal"),
                original: field("original"),
                diff: field("diff"),
                expect: v["expect"].clone(),
            }
        })
        .collect()
}

/// The main corpus (1,500 cases).
pub fn main_corpus() -> Vec<Case> {
    load("cline-v4.0.10.jsonl")
}

/// Prints the first `shown` failures (one line each, `FAIL ...`), then
/// asserts there are none: "N of TOTAL <what>".
pub fn assert_none_failed(failures: &[String], total: usize, shown: usize, what: &str) {
    for f in failures.iter().take(shown) {
        eprintln!("FAIL {f}");
    }
    assert!(failures.is_empty(), "{} of {total} {what}", failures.len());
}

/// The records of `tests/fixtures/matchers/NAME.jsonl.gz`: an agent
/// matcher's corpus, the agent's own code's results on generated cases,
/// one record a line.
pub fn matcher_records(name: &str) -> Vec<Value> {
    use std::io::BufRead;
    let path = format!(
        "{}/tests/fixtures/matchers/{name}.jsonl.gz",
        env!("CARGO_MANIFEST_DIR")
    );
    let file = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    std::io::BufReader::new(flate2::read::GzDecoder::new(file))
        .lines()
        .map(|line| {
            let line = line.unwrap_or_else(|e| panic!("{path}: {e}"));
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("{path}: {e}"))
        })
        .collect()
}
