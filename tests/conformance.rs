//! Every case the reference produced, through the engine, every field compared.

mod support;

use support::corpus;

use std::collections::BTreeMap;

use corpus::{Case, load};
use srview::engine::{Options, apply};

/// Compares one case; returns a description of the first difference.
fn check(case: &Case) -> Result<(), String> {
    let out = apply(
        &case.diff,
        &case.original,
        Options {
            version: case.version,
            is_final: case.is_final,
        },
    );
    let want_ok = case.expect["ok"].as_bool().expect("ok");
    match (&out.result, want_ok) {
        (Ok(applied), true) => {
            let want = case.expect["newContent"].as_str().expect("newContent");
            if applied.new_content != want {
                return Err(format!(
                    "newContent {:?} != {:?}",
                    applied.new_content, want
                ));
            }
            let want_idx: Vec<usize> = case.expect["matchIndices"]
                .as_array()
                .expect("matchIndices")
                .iter()
                .map(|v| v.as_u64().expect("index") as usize)
                .collect();
            // Push order while streaming, sorted when final: as the reference.
            let got = &applied.match_indices;
            if *got != want_idx {
                return Err(format!("matchIndices {got:?} != {want_idx:?}"));
            }
            Ok(())
        }
        (Err(e), false) => {
            let want = case.expect["error"].as_str().expect("error");
            if e.message != want {
                return Err(format!("error {:?} != {:?}", e.message, want));
            }
            Ok(())
        }
        (Ok(a), false) => Err(format!(
            "applied ({:?}) but the reference threw {:?}",
            a.new_content, case.expect["error"]
        )),
        (Err(e), true) => Err(format!("threw {:?} but the reference applied", e.message)),
    }
}

fn category(kind: &str) -> String {
    let base = kind.rsplit('|').next().unwrap_or(kind);
    let cat = base.split('.').next().unwrap_or(base);
    if kind.starts_with("stream.") {
        format!("stream/{cat}")
    } else {
        cat.to_string()
    }
}

fn run_corpus(name: &str, expected_cases: usize) {
    let cases = load(name);
    assert_eq!(cases.len(), expected_cases, "{name}: case count");
    let mut per_cat: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in &cases {
        let entry = per_cat.entry(category(&case.kind)).or_default();
        entry.1 += 1;
        match check(case) {
            Ok(()) => entry.0 += 1,
            Err(why) => failures.push(format!("{} [{}]: {why}", case.id, case.kind)),
        }
    }
    println!("{name}: pass counts per category");
    for (cat, (pass, total)) in &per_cat {
        println!("  {cat:<20} {pass:>4}/{total}");
    }
    let total_pass: usize = per_cat.values().map(|v| v.0).sum();
    println!("  {:<20} {total_pass:>4}/{}", "TOTAL", cases.len());
    corpus::assert_none_failed(
        &failures,
        cases.len(),
        40,
        "cases differ from the reference",
    );
}

#[test]
fn reference_corpus_full_parity() {
    run_corpus("cline-v4.0.10.jsonl", 1500);
}

#[test]
fn reference_own_tests_full_parity() {
    run_corpus("cline-own-tests.jsonl", 48);
}

/// A message whose first line leads with a colon into the lines left out
/// loses the colon; one that is whole keeps it.
#[test]
fn a_headline_does_not_end_on_a_colon_that_leads_nowhere() {
    assert_eq!(
        srview::engine::error_headline(
            "Failed to find expected lines in /w/calc.py:\n    return b - a\n"
        ),
        "Failed to find expected lines in /w/calc.py"
    );
    assert_eq!(srview::engine::error_headline("Note:"), "Note:");
}

/// Every error message the reference produced reads as one clean status
/// line: no message line breaks, no "..." left from the multi-line form.
#[test]
fn every_reference_error_has_a_one_line_headline() {
    let mut seen = BTreeMap::new();
    for name in ["cline-v4.0.10.jsonl", "cline-own-tests.jsonl"] {
        for case in load(name) {
            if let Some(message) = case.expect["error"].as_str() {
                let headline = srview::engine::error_headline(message);
                assert!(
                    !headline.is_empty() && !headline.contains('\n') && !headline.contains("..."),
                    "{}: {headline:?} from {message:?}",
                    case.id
                );
                if message.starts_with("The SEARCH block:") {
                    assert!(headline.starts_with("SEARCH text "), "{headline:?}");
                }
                seen.insert(headline, ());
            }
        }
    }
    assert!(
        seen.contains_key("SEARCH text does not match anything in the file"),
        "{seen:?}"
    );
}
