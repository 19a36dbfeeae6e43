//! Every failing case of the conformance corpus gets a reason code.

use std::collections::BTreeMap;

use serde_json::Value;
use srview::diagnose::{MIN_SIMILARITY, Status, diagnose};
use srview::engine::{Options, Version};

const ROOT_CAUSES: [(&str, &str); 6] = [
    ("ws.out_of_order", "out-of-order"),
    ("marker_char_last_line", "dropped-last-line"),
    ("nomatch.typo", "edited"),
    ("crlf.both", "line-endings"),
    ("edge_search_zwsp", "unicode-lookalike"),
    ("partial.prefix", "partial-line"),
];

/// The engine options a corpus line was recorded with.
fn options_of(v: &Value) -> Options {
    Options {
        version: if v["version"] == "v2" {
            Version::V2
        } else {
            Version::V1
        },
        is_final: v["isFinal"].as_bool().expect("isFinal"),
    }
}

#[test]
fn every_failing_corpus_case_is_explained() {
    let path = format!(
        "{}/tests/fixtures/cline-v4.0.10.jsonl",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).expect("corpus present");
    let mut failing = 0;
    let mut unexplained = Vec::new();
    let mut misnamed = Vec::new();
    let mut by_reason: BTreeMap<String, usize> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("JSON line");
        if v["expect"]["ok"].as_bool() != Some(false) {
            // Passing cases must not panic either, and never report a failure.
            let options = options_of(&v);
            let (diff, original) = (
                v["diff"].as_str().unwrap_or(""),
                v["original"].as_str().unwrap_or(""),
            );
            let diags = diagnose(diff, original, options);
            assert!(
                diags.iter().all(|d| d.state != Status::NotReached),
                "{}",
                v["id"]
            );
            continue;
        }
        failing += 1;
        let options = options_of(&v);
        let diff = v["diff"].as_str().expect("diff");
        let original = v["original"].as_str().expect("original");
        let diags = diagnose(diff, original, options);
        // The block the reference failed on carries a reason; with no block
        // at all (an empty diff) there is nothing to explain.
        let failed = diags.iter().find(|d| d.state == Status::Failed);
        let kind = v["kind"].as_str().unwrap_or("");
        // Root causes the reference reports only as symptoms.
        for (fragment, want) in ROOT_CAUSES {
            if kind.contains(fragment) {
                let got = failed.and_then(|d| d.reason).map(|r| r.code());
                // A typo that makes a line unrecognisable (a short line with
                // a long comment appended) is honestly "not found": no window
                // of the file reaches the similarity floor.
                if want == "edited"
                    && got == Some("not-found")
                    && best_window_similarity(diff, original) < MIN_SIMILARITY
                {
                    continue;
                }
                if got != Some(want) {
                    misnamed.push(format!("{} {kind}: {got:?}, want {want}", v["id"]));
                }
            }
        }
        match failed.and_then(|d| d.reason) {
            Some(r) => *by_reason.entry(r.code().to_string()).or_default() += 1,
            None => unexplained.push(format!(
                "{} {} {:?}",
                v["id"],
                v["kind"],
                failed.map(|d| &d.message)
            )),
        }
    }
    println!(
        "failing cases: {failing}, explained: {}",
        failing - unexplained.len()
    );
    for (r, n) in &by_reason {
        println!("  {r:<20} {n}");
    }
    for u in unexplained.iter().take(20) {
        println!("UNEXPLAINED {u}");
    }
    assert!(failing > 200, "corpus has its failing cases");
    for m in &misnamed {
        println!("MISNAMED {m}");
    }
    assert!(misnamed.is_empty(), "{} cases misnamed", misnamed.len());
    assert!(
        unexplained.is_empty(),
        "{} failing cases without a reason",
        unexplained.len()
    );
}

/// The highest character similarity of the first block's SEARCH text with
/// any window of the file of the same number of lines (brute force).
fn best_window_similarity(diff: &str, original: &str) -> f64 {
    let search: Vec<&str> = diff
        .lines()
        .skip_while(|l| !l.ends_with("SEARCH"))
        .skip(1)
        .take_while(|l| !l.starts_with("======="))
        .collect();
    let file: Vec<&str> = original.lines().collect();
    let needle = search.join("\n");
    (0..=file.len().saturating_sub(search.len()))
        .map(|i| {
            let window = file[i..(i + search.len()).min(file.len())].join("\n");
            f64::from(similar::TextDiff::from_chars(needle.as_str(), window.as_str()).ratio())
        })
        .fold(0.0, f64::max)
}
