//! The Codex 0.169.0 apply_patch corpus (1000 records produced by the real
//! binary), read from its gzip-compressed copy in tests/fixtures.

// Each test binary reads the fields it needs.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::Read;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub struct Record {
    pub id: String,
    pub kind: String,
    pub files: BTreeMap<String, String>,
    pub patch: String,
    pub expect: Expect,
}

#[derive(Debug, Deserialize)]
pub struct Expect {
    pub exit: i32,
    pub stdout: String,
    pub stderr: String,
    pub files: BTreeMap<String, Option<String>>,
}

pub fn records() -> Vec<Record> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/codex-apply-patch-0.169.0.jsonl.gz"
    );
    let compressed = std::fs::read(path).expect("the corpus fixture is readable");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_string(&mut text)
        .expect("the corpus fixture is gzip-compressed UTF-8");
    text.lines()
        .map(|line| serde_json::from_str(line).expect("every corpus line is a record"))
        .collect()
}
