//! Parity with Codex 0.169.0's apply_patch over its whole public corpus:
//! every record's exit status, stdout, stderr and resulting files (on
//! failure, the files the reference leaves half-applied) are compared, over
//! an in-memory file system and over a real directory.

mod apply_patch_corpus;
mod support;

use std::collections::{BTreeMap, BTreeSet};

use apply_patch_corpus::Record;
use srview::dialect::apply_patch::{DirFs, MemoryFs, PatchFs, apply_text};

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

/// How the record's run differs from the reference's (empty: it does not).
/// `half_applied` counts failures that leave files changed, as computed and
/// as recorded.
fn differences(
    record: &Record,
    fs: &dyn PatchFs,
    cwd: &str,
    half_applied: &mut (usize, usize),
) -> Vec<String> {
    let outcome = apply_text(&record.patch, fs, cwd);
    let expected_stdout = record.expect.stdout.replace("<CWD>", cwd);
    let expected_stderr = record.expect.stderr.replace("<CWD>", cwd);
    let expected_files: BTreeMap<String, String> = record
        .expect
        .files
        .iter()
        .filter_map(|(p, c)| c.clone().map(|c| (p.clone(), c)))
        .collect();
    let left = files_after(&record.files, &outcome.reference_leaves);
    if outcome.exit_code != 0 && left != record.files {
        half_applied.0 += 1;
    }
    if record.expect.exit != 0 && expected_files != record.files {
        half_applied.1 += 1;
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
        let differing: BTreeSet<&String> = left
            .keys()
            .chain(expected_files.keys())
            .filter(|p| left.get(*p) != expected_files.get(*p))
            .collect();
        wrong.push(format!("files differ: {differing:?}"));
    }
    // srview's own contract: nothing to write on failure, and on success
    // exactly what the reference leaves.
    if outcome.exit_code == 0 {
        if outcome.files != outcome.reference_leaves {
            wrong.push("success: files != reference_leaves".to_string());
        }
    } else if !outcome.files.is_empty() {
        wrong.push("failure with files to write".to_string());
    }
    wrong
}

/// Runs every record through `run`, prints the counts per kind, and fails
/// listing the first records that differ.
fn check_corpus(label: &str, mut run: impl FnMut(&Record, &mut (usize, usize)) -> Vec<String>) {
    let records = apply_patch_corpus::records();
    assert_eq!(records.len(), 1000);
    let mut per_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut half_applied = (0, 0);
    for record in &records {
        let wrong = run(record, &mut half_applied);
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
    println!("{label}");
    for (kind, (pass, total)) in &per_kind {
        println!("{kind:28} {pass:4}/{total}");
    }
    println!("{:28} {passed:4}/{}", "total", records.len());
    println!(
        "failures the reference leaves half-applied: {}",
        half_applied.1
    );
    assert!(
        failures.is_empty(),
        "{label}: {} of {} records differ from the reference; first ones:\n{}",
        failures.len(),
        records.len(),
        failures
            .iter()
            .take(8)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(half_applied.0, half_applied.1);
    assert!(half_applied.1 > 0, "the corpus has half-applied failures");
}

#[test]
fn every_corpus_record_matches_the_reference_in_memory() {
    let cwd = "/tmp/srview-apply-patch-parity";
    check_corpus("in memory", |record, half_applied| {
        let fs = MemoryFs::new(record.files.clone());
        differences(record, &fs, cwd, half_applied)
    });
}

#[test]
fn every_corpus_record_matches_the_reference_over_a_real_directory() {
    check_corpus("over a real directory", |record, half_applied| {
        let dir = tempfile::tempdir().expect("a temp dir");
        let root = dir
            .path()
            .canonicalize()
            .expect("the temp dir has a real path");
        support::files::write_all(&root, &record.files);
        let fs = DirFs { root: root.clone() };
        let cwd = root.to_str().expect("the temp dir path is UTF-8");
        differences(record, &fs, cwd, half_applied)
    });
}
