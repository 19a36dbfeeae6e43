//! The JSON every command prints, byte for byte, against outputs recorded
//! from the binary: a refactoring of how JSON is built must not change a
//! byte of it. One case in ten of the conformance corpus goes through
//! `apply --json`, `apply --stream` and `check --json` (each in the case's
//! engine and mode); the demo transcript goes through
//! `apply --transcript --json`.
//!
//! `SRVIEW_BLESS=1 cargo test --test json_golden` records the outputs anew:
//! only for a change of output that is meant, reviewed in `git diff`.

use std::io::Write;
use std::path::Path;

mod support;

use serde::{Deserialize, Serialize};

const GOLDEN: &str = "tests/fixtures/json-golden.jsonl";

#[derive(Deserialize)]
struct Case {
    id: String,
    version: String,
    #[serde(rename = "isFinal")]
    is_final: bool,
    original: String,
    diff: String,
}

/// One run of the binary: what it printed and how it ended.
#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Run {
    name: String,
    exit: Option<i32>,
    stdout: String,
}

fn srview(args: &[&str], stdin_file: Option<&Path>, cwd: &Path) -> (Option<i32>, String) {
    let out = support::runner::srview(args)
        .cwd(cwd)
        .stdin_file(stdin_file)
        .output();
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8 stdout"),
    )
}

fn corpus_runs(dir: &Path) -> Vec<Run> {
    let corpus = include_str!("fixtures/cline-v4.0.10.jsonl");
    let mut runs = Vec::new();
    for line in corpus.lines().step_by(10) {
        let case: Case = serde_json::from_str(line).expect("corpus line parses");
        std::fs::write(dir.join("FILE"), &case.original).expect("write FILE");
        std::fs::write(dir.join("DIFF"), &case.diff).expect("write DIFF");
        let engine = ["--engine", case.version.as_str()];
        let mut apply = vec!["apply", "FILE", "DIFF", "--json"];
        apply.extend(engine);
        if !case.is_final {
            apply.push("--partial");
        }
        let mut stream = vec!["apply", "FILE", "-", "--stream", "--stream-interval", "0"];
        stream.extend(engine);
        let mut check = vec!["check", "FILE", "DIFF", "--json"];
        check.extend(engine);
        for (mode, args, stdin) in [
            ("apply", apply, None),
            ("stream", stream, Some(dir.join("DIFF"))),
            ("check", check, None),
        ] {
            let (exit, stdout) = srview(&args, stdin.as_deref(), dir);
            runs.push(Run {
                name: format!("{} {mode}", case.id),
                exit,
                stdout,
            });
        }
    }
    runs
}

fn transcript_runs(dir: &Path) -> Vec<Run> {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/demo");
    for name in ["inventory.py", "settings.toml", "transcript.md"] {
        std::fs::copy(demo.join(name), dir.join(name)).expect("copy demo file");
    }
    let mut runs = Vec::new();
    for (name, extra) in [
        ("transcript", None),
        ("transcript stream", Some("--stream")),
    ] {
        let mut args = vec!["apply", "--transcript", "-", "--cwd", ".", "--json"];
        if let Some(e) = extra {
            args.extend([e, "--stream-interval", "0"]);
        }
        let (exit, stdout) = srview(&args, Some(&dir.join("transcript.md")), dir);
        runs.push(Run {
            name: name.to_string(),
            exit,
            stdout,
        });
    }
    runs
}

#[test]
fn json_outputs_are_byte_identical_to_the_recorded_ones() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut runs = corpus_runs(dir.path());
    runs.extend(transcript_runs(dir.path()));
    let golden_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(GOLDEN);
    if std::env::var_os("SRVIEW_BLESS").is_some() {
        let mut out = std::fs::File::create(&golden_path).expect("create golden");
        for run in &runs {
            let line = serde_json::to_string(run).expect("serialize run");
            writeln!(out, "{line}").expect("write golden");
        }
        return;
    }
    let golden = std::fs::read_to_string(&golden_path).expect("golden file present");
    let want: Vec<Run> = golden
        .lines()
        .map(|l| serde_json::from_str(l).expect("golden line parses"))
        .collect();
    assert_eq!(runs.len(), want.len(), "number of runs");
    let mut differing = Vec::new();
    for (got, want) in runs.iter().zip(&want) {
        assert_eq!(got.name, want.name, "runs in the recorded order");
        if got != want {
            differing.push(format!(
                "{}: exit {:?} (recorded {:?})\n  got:      {}\n  recorded: {}",
                got.name,
                got.exit,
                want.exit,
                got.stdout.trim_end(),
                want.stdout.trim_end()
            ));
        }
    }
    assert!(
        differing.is_empty(),
        "{} of {} outputs differ:\n{}",
        differing.len(),
        runs.len(),
        differing
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    // The runs cover every outcome worth keeping: applies, failures,
    // partial applies, transcripts.
    assert!(runs.iter().any(|r| r.exit == Some(0)));
    assert!(runs.iter().any(|r| r.exit == Some(1)));
    assert!(
        runs.iter()
            .filter(|r| r.name.starts_with("transcript"))
            .count()
            == 2
    );
}
