//! Parity with Codex 0.169.0's apply_patch over its whole public corpus:
//! every record's exit status, stdout, stderr and resulting files (on
//! failure, the files the reference leaves half-applied) are compared.

mod apply_patch_corpus;

use std::collections::BTreeMap;

use srview::dialect::apply_patch::{MemoryFs, apply_text};

const CWD: &str = "/tmp/srview-apply-patch-parity";

/// Every file present after the run, as the record lists them.
fn files_after(
    before: &BTreeMap<String, String>,
    changes: &BTreeMap<String, Option<String>>,
) -> BTreeMap<String, String> {
    let mut files = before.clone();
    for (path, content) in changes {
        match content {
            Some(content) => files.insert(path.clone(), content.clone()),
            None => files.remove(path),
        };
    }
    files
}

#[test]
fn every_corpus_record_matches_the_reference() {
    let records = apply_patch_corpus::records();
    assert_eq!(records.len(), 1000);
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    // Failing records whose files the reference left changed (no rollback).
    let (mut half_applied, mut half_applied_expected) = (0, 0);
    for record in &records {
        let fs = MemoryFs::new(record.files.clone());
        let outcome = apply_text(&record.patch, &fs, CWD);
        let expected_stdout = record.expect.stdout.replace("<CWD>", CWD);
        let expected_stderr = record.expect.stderr.replace("<CWD>", CWD);
        let expected_files: BTreeMap<String, String> = record
            .expect
            .files
            .iter()
            .filter_map(|(p, c)| c.clone().map(|c| (p.clone(), c)))
            .collect();
        let left = files_after(&fs.files, &outcome.reference_leaves);
        if record.expect.exit != 0 && expected_files != fs.files {
            half_applied_expected += 1;
        }
        if outcome.exit_code != 0 && left != fs.files {
            half_applied += 1;
        }
        let mut wrong = Vec::new();
        if outcome.exit_code != record.expect.exit {
            wrong.push(format!(
                "exit {} != {}",
                outcome.exit_code, record.expect.exit
            ));
        }
        if outcome.stdout != expected_stdout {
            wrong.push(format!(
                "stdout {:?} != {:?}",
                outcome.stdout, expected_stdout
            ));
        }
        if outcome.stderr != expected_stderr {
            wrong.push(format!(
                "stderr {:?} != {:?}",
                outcome.stderr, expected_stderr
            ));
        }
        if left != expected_files {
            let differing: Vec<&String> = left
                .keys()
                .chain(expected_files.keys())
                .filter(|p| left.get(*p) != expected_files.get(*p))
                .collect();
            wrong.push(format!("files differ: {differing:?}"));
        }
        // srview's own contract: nothing to write on failure, and on
        // success exactly what the reference leaves.
        if outcome.exit_code == 0 {
            if outcome.files != outcome.reference_leaves {
                wrong.push("success: files != reference_leaves".to_string());
            }
        } else if !outcome.files.is_empty() {
            wrong.push("failure with files to write".to_string());
        }
        let entry = per_kind.entry(record.kind.as_str()).or_default();
        entry.1 += 1;
        if wrong.is_empty() {
            entry.0 += 1;
        } else {
            failures.push(format!(
                "{} ({}): {}",
                record.id,
                record.kind,
                wrong.join("; ")
            ));
        }
    }
    let passed: usize = per_kind.values().map(|c| c.0).sum();
    for (kind, (pass, total)) in &per_kind {
        println!("{kind:28} {pass:4}/{total}");
    }
    println!("{:28} {passed:4}/{}", "total", records.len());
    println!("failures the reference leaves half-applied: {half_applied}");
    assert_eq!(half_applied, half_applied_expected);
    assert!(half_applied > 0, "the corpus has half-applied failures");
    assert!(
        failures.is_empty(),
        "{} of {} records differ from the reference; first ones:\n{}",
        failures.len(),
        records.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
