//! `srview apply --transcript PATCH --cwd DIR` on Codex apply_patch texts:
//! the binary, run in real folders over a sample of the reference's corpus
//! (every 5th record, every `fail_partial` and `fail_fs` one), must leave the
//! files as the reference leaves them on success and untouched on failure,
//! print its summary and error texts, exit as it exits, and warn about every
//! loosely matched hunk; `--json` reports without writing.

mod apply_patch_corpus;
mod support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use apply_patch_corpus::Record;
use srview::dialect::apply_patch::{
    MemoryFs, apply, apply_text, loose_layout_doubts, parse, patch_doubts,
};

const WARNING: &str = "srview: warning: ";

fn srview(args: &[&str], stdin: Option<&str>) -> Output {
    let run = support::runner::srview(args);
    match stdin {
        Some(text) => run.stdin(text.as_bytes()).output(),
        None => run.output(),
    }
}

/// `srview apply --transcript - --cwd CWD EXTRA...` with `patch` on stdin.
fn apply_transcript(cwd: &str, patch: &str, extra: &[&str]) -> Output {
    let args = [&["apply", "--transcript", "-", "--cwd", cwd][..], extra].concat();
    srview(&args, Some(patch))
}

/// `apply --transcript - --write` of `patch` in `dir` writes nothing: it
/// exits `code` saying exactly `said` on stderr, nothing on stdout (no
/// summary of a write held back), every file as it was.
fn assert_nothing_written(dir: &Path, patch: &str, code: i32, said: &str) {
    let before = read_tree(dir);
    let out = apply_transcript(&dir.to_string_lossy(), patch, &["--write"]);
    assert_eq!(out.status.code(), Some(code), "{patch}");
    assert_eq!(String::from_utf8_lossy(&out.stderr), said, "{patch}");
    assert!(out.stdout.is_empty(), "{patch}");
    assert_eq!(read_tree(dir), before, "{patch}");
}

/// Every regular file below `root`, by `/`-separated relative path.
fn read_tree(root: &Path) -> BTreeMap<String, String> {
    support::files::files_below(root)
        .into_iter()
        .map(|path| {
            let rel = path
                .strip_prefix(root)
                .expect("below the root")
                .to_string_lossy()
                .replace('\\', "/");
            let text = std::fs::read_to_string(&path).expect("the files are UTF-8");
            (rel, text)
        })
        .collect()
}

/// A record's folder (canonical, as the reference prints it) and its
/// patch, saved outside that folder.
struct Setup {
    _dirs: (tempfile::TempDir, tempfile::TempDir),
    root: std::path::PathBuf,
    cwd: String,
    patch: String,
}

fn set_up(record: &Record) -> Setup {
    let work = tempfile::tempdir().expect("a temp dir");
    let holder = tempfile::tempdir().expect("a temp dir");
    let root = work.path().canonicalize().expect("a real path");
    support::files::write_all(&root, &record.files);
    let patch = holder.path().join("edit.patch");
    std::fs::write(&patch, &record.patch).expect("the patch is saved");
    Setup {
        cwd: root.to_str().expect("a UTF-8 temp path").to_string(),
        root,
        patch: patch.to_str().expect("a UTF-8 temp path").to_string(),
        _dirs: (work, holder),
    }
}

fn sample() -> Vec<Record> {
    apply_patch_corpus::records()
        .into_iter()
        .enumerate()
        .filter(|(i, r)| i % 5 == 0 || r.kind == "fail_partial" || r.kind == "fail_fs")
        .map(|(_, r)| r)
        .collect()
}

/// Hunks the library finds loose in `record` (the warnings to expect).
fn loose_hunks(record: &Record, cwd: &str) -> usize {
    let fs = MemoryFs::new(record.files.clone());
    apply_text(&record.patch, &fs, cwd).loose_hunks().count()
}

/// How many sections and hunks of `record` srview cannot stand behind
/// though the reference applies them (what `--write` holds back without
/// `--force`, besides the loose hunks themselves).
fn doubts(record: &Record, cwd: &str) -> usize {
    let fs = MemoryFs::new(record.files.clone());
    let Ok(patch) = parse(&record.patch) else {
        return 0;
    };
    let outcome = apply(&patch, &fs, cwd);
    if outcome.exit_code != 0 {
        return 0;
    }
    // What a loose hunk's result does to its file is said too (round 49
    // T-05: two fuzzy_indent records leave a TypeScript file's brackets
    // unbalanced).
    patch_doubts(&patch, &outcome, &fs, cwd).len()
        + loose_layout_doubts(&patch, &outcome, &fs, cwd).len()
}

fn expected_files(record: &Record) -> BTreeMap<String, String> {
    record
        .expect
        .files
        .iter()
        .filter_map(|(p, c)| c.clone().map(|c| (p.clone(), c)))
        .collect()
}

#[test]
fn write_leaves_the_files_as_the_reference_or_untouched() {
    let records = sample();
    assert!(records.len() > 200);
    let mut wrong = Vec::new();
    let (mut succeeded, mut failed, mut warned, mut unrecognised) = (0, 0, 0, 0);
    let mut held = 0;
    for (n, record) in records.iter().enumerate() {
        let setup = set_up(record);
        // Every other record comes through stdin.
        let via_stdin = n % 2 == 1;
        let source = if via_stdin { "-" } else { setup.patch.as_str() };
        let mut args = vec![
            "apply",
            "--transcript",
            source,
            "--cwd",
            &setup.cwd,
            "--write",
        ];
        let stdin = via_stdin.then_some(record.patch.as_str());
        let in_doubt = doubts(record, &setup.cwd);
        // A hunk matched loosely holds the write back too (tester 43a-18).
        let applies = record.expect.exit == 0;
        if in_doubt > 0 || (applies && loose_hunks(record, &setup.cwd) > 0) {
            // Held back, untouched, without --force; written with it.
            held += 1;
            let out = srview(&args, stdin);
            let stderr = String::from_utf8_lossy(&out.stderr);
            if out.status.code() != Some(1)
                || !out.stdout.is_empty()
                || !stderr.contains("(--force writes it)")
                || read_tree(&setup.root) != record.files
            {
                wrong.push(format!("{}: must be held back untouched", record.id));
            }
            args.push("--force");
        }
        let out = srview(&args, stdin);
        if srview::source::transcript::detect(&record.patch).is_none() {
            // A blank text names no format: refused as no transcript at
            // all (exit 2), never written.
            unrecognised += 1;
            if out.status.code() != Some(2) || read_tree(&setup.root) != record.files {
                wrong.push(format!(
                    "{}: a blank text must be refused untouched",
                    record.id
                ));
            }
            continue;
        }
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let (warnings, rest): (Vec<&str>, Vec<&str>) = stderr
            .split_inclusive('\n')
            .partition(|l| l.starts_with(WARNING));
        let rest: String = rest.concat();
        let mut problems = Vec::new();
        let code = out.status.code().unwrap_or(-1);
        if code != record.expect.exit {
            problems.push(format!("exit {code} != {}", record.expect.exit));
        }
        let want_stdout = record.expect.stdout.replace("<CWD>", &setup.cwd);
        if stdout != want_stdout {
            problems.push(format!("stdout {stdout:?} != {want_stdout:?}"));
        }
        let want_stderr = record.expect.stderr.replace("<CWD>", &setup.cwd);
        if rest != want_stderr {
            problems.push(format!("stderr {rest:?} != {want_stderr:?}"));
        }
        // A forced write still says each doubt it overrode.
        let loose = loose_hunks(record, &setup.cwd);
        if warnings.len() != loose + in_doubt {
            problems.push(format!(
                "{} warnings for {loose} loose hunks and {in_doubt} doubts",
                warnings.len()
            ));
        }
        warned += usize::from(loose > 0);
        let files = read_tree(&setup.root);
        let want_files = if record.expect.exit == 0 {
            succeeded += 1;
            expected_files(record)
        } else {
            failed += 1;
            // srview writes nothing, even where the reference half-applies.
            record.files.clone()
        };
        if files != want_files {
            problems.push("the folder differs".to_string());
        }
        if !problems.is_empty() {
            wrong.push(format!(
                "{} ({}): {}",
                record.id,
                record.kind,
                problems.join("; ")
            ));
        }
    }
    println!(
        "{} records: {succeeded} applied ({held} held back without --force), {failed} refused \
         untouched, {warned} with loose hunks, {unrecognised} blank (no transcript)",
        records.len()
    );
    assert!(unrecognised <= 1);
    assert!(succeeded > 0 && failed > 0 && warned > 0 && held > 0);
    assert!(
        wrong.is_empty(),
        "{} of {} records differ:\n{}",
        wrong.len(),
        records.len(),
        wrong[..wrong.len().min(8)].join("\n")
    );
}

/// `--write --json` writes what `--write` writes (it once wrote nothing), and
/// the report's `write` says so: `written` for a patch the reference
/// applies, `not-applied` (the folder untouched) for one it rejects.
#[test]
fn write_with_json_writes_and_says_so() {
    let records = sample();
    let (mut written, mut rejected) = (0, 0);
    for record in records.iter().skip(1).step_by(5) {
        if srview::source::transcript::detect(&record.patch).is_none() {
            continue; // a blank text: see the --write test
        }
        let setup = set_up(record);
        let mut args = vec![
            "apply",
            "--transcript",
            &setup.patch,
            "--cwd",
            &setup.cwd,
            "--write",
            "--json",
        ];
        let loose = record.expect.exit == 0 && loose_hunks(record, &setup.cwd) > 0;
        if doubts(record, &setup.cwd) > 0 || loose {
            // Held back without --force: see the --write test.
            args.push("--force");
        }
        let out = srview(&args, None);
        let id = &record.id;
        assert_eq!(out.status.code(), Some(record.expect.exit), "{id}");
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{id}: the JSON report parses: {e}"));
        let (state, files) = if record.expect.exit == 0 {
            written += 1;
            ("written", expected_files(record))
        } else {
            rejected += 1;
            ("not-applied", record.files.clone())
        };
        assert_eq!(
            report["write"],
            serde_json::json!({"reasons": [], "state": state}),
            "{id}"
        );
        assert_eq!(read_tree(&setup.root), files, "{id}");
    }
    assert!(
        written > 5 && rejected > 5,
        "{written} written, {rejected} rejected"
    );
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Report {
    exit_code: i32,
    files: Vec<FileJson>,
    format: String,
    loose_hunks: usize,
    ok: bool,
    stderr: String,
    stdout: String,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct FileJson {
    blocks: Vec<serde_json::Value>,
    error: Option<String>,
    move_to: Option<String>,
    new_content: Option<String>,
    ok: bool,
    op: String,
    path: String,
    state: String,
}

#[test]
fn json_reports_the_reference_and_every_hunk_without_writing() {
    let records = sample();
    let mut checked_contents = 0;
    for record in records.iter().step_by(3) {
        if srview::source::transcript::detect(&record.patch).is_none() {
            continue; // a blank text: see the --write test
        }
        let setup = set_up(record);
        let out = srview(
            &[
                "apply",
                "--transcript",
                &setup.patch,
                "--cwd",
                &setup.cwd,
                "--json",
            ],
            None,
        );
        let id = &record.id;
        assert_eq!(out.status.code(), Some(record.expect.exit), "{id}");
        let report: Report = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{id}: the JSON report parses: {e}"));
        assert_eq!(report.format, "apply_patch", "{id}");
        assert_eq!(report.exit_code, record.expect.exit, "{id}");
        assert_eq!(report.ok, record.expect.exit == 0, "{id}");
        assert_eq!(
            report.stdout,
            record.expect.stdout.replace("<CWD>", &setup.cwd),
            "{id}"
        );
        assert_eq!(
            report.stderr,
            record.expect.stderr.replace("<CWD>", &setup.cwd),
            "{id}"
        );
        assert_eq!(report.loose_hunks, loose_hunks(record, &setup.cwd), "{id}");
        assert_eq!(
            read_tree(&setup.root),
            record.files,
            "{id}: --json writes nothing"
        );
        let expected = expected_files(record);
        for file in &report.files {
            assert!(
                ["add", "delete", "update"].contains(&file.op.as_str()),
                "{id}"
            );
            assert_eq!(file.ok, file.state == "applied", "{id}");
            if file.error.is_some() {
                assert!(!file.ok, "{id}");
            }
            for block in &file.blocks {
                assert!(
                    block.get("level").is_some(),
                    "{id}: every block says its level"
                );
            }
            let target = file.move_to.as_deref().unwrap_or(&file.path);
            let target = srview::dialect::apply_patch::fs::normalize(target);
            match &file.new_content {
                Some(content) => {
                    assert!(report.ok, "{id}");
                    // Later sections may change the file again: the content
                    // is the file's last one.
                    assert_eq!(Some(content), expected.get(&target), "{id}: {target}");
                    checked_contents += 1;
                }
                None => assert!(!report.ok || file.op == "delete", "{id}: {target}"),
            }
        }
    }
    assert!(checked_contents > 20);
}

/// A project whose file has an en dash where the patch has a hyphen.
fn en_dash_project() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("a temp dir");
    let root = dir.path().canonicalize().expect("a real path");
    std::fs::write(
        root.join("calc.py"),
        "def span(a, b):\n    return b – a  # b – a\n",
    )
    .expect("written");
    let patch = "*** Begin Patch\n*** Update File: calc.py\n@@\n def span(a, b):\n-    return b - a  # b - a\n+    return abs(b - a)\n*** End Patch\n";
    (
        dir,
        root.to_str().expect("UTF-8").to_string(),
        patch.to_string(),
    )
}

#[test]
fn a_loose_hunk_is_warned_about_in_every_output() {
    let (dir, cwd, patch) = en_dash_project();
    // `--write` holds a loose hunk back (tester 43a-18): said after the
    // warning, the file untouched; `--force` writes it.
    let held = apply_transcript(&cwd, &patch, &["--write"]);
    assert_eq!(held.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&held.stderr).ends_with(
            "srview: nothing written: hunk 1 of calc.py matched the file only at level unicode: \
             Codex would replace lines of the file that are not the patch's (line 2 is \
             \"    return b – a  # b – a\" where the patch has \"    return b - a  # b - a\") \
             (--force writes it)\n"
        ),
        "{}",
        String::from_utf8_lossy(&held.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("calc.py")).expect("readable"),
        "def span(a, b):\n    return b – a  # b – a\n"
    );
    for extra in [&[][..], &["--json"][..], &["--write", "--force"][..]] {
        let out = apply_transcript(&cwd, &patch, extra);
        assert_eq!(out.status.code(), Some(0), "{extra:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(
            stderr,
            "srview: warning: calc.py hunk 1 (patch lines 3-6) matched only at level unicode: \
             line 2 is \"    return b – a  # b – a\" where the patch has \"    return b - a  # b - a\"\n",
            "{extra:?}"
        );
        if extra == ["--json"] {
            let report: Report = serde_json::from_slice(&out.stdout).expect("JSON");
            assert_eq!(report.loose_hunks, 1);
            assert_eq!(report.files[0].blocks[0]["level"], "unicode");
            assert_eq!(report.files[0].blocks[0]["differing"][0]["line"], 2);
        }
    }
    let written = std::fs::read_to_string(dir.path().join("calc.py")).expect("readable");
    assert_eq!(written, "def span(a, b):\n    return abs(b - a)\n");
}

#[test]
fn a_path_outside_the_folder_is_refused_and_nothing_written() {
    let (dir, cwd, _) = en_dash_project();
    let patch = "*** Begin Patch\n*** Update File: calc.py\n@@\n def span(a, b):\n+    # checked\n*** Add File: ../escaped.txt\n+x\n*** End Patch\n";
    let before = read_tree(dir.path());
    let out = apply_transcript(&cwd, patch, &["--write"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("../escaped.txt") && stderr.contains("--allow-outside"),
        "{stderr}"
    );
    assert_eq!(read_tree(dir.path()), before);
    assert!(!dir.path().join("../escaped.txt").exists());
}

/// All or nothing: a file the patch may not change (read-only), to update,
/// delete or move, stops the whole patch before any file is written, wherever
/// it stands in the patch.
#[test]
fn a_read_only_file_anywhere_in_the_patch_stops_every_write() {
    use std::os::unix::fs::PermissionsExt;
    let patches = [
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n@@\n-b\n+B\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Delete File: b.txt\n*** End Patch\n",
        "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+A\n*** Update File: b.txt\n*** Move to: c.txt\n@@\n-b\n+B\n*** End Patch\n",
    ];
    for patch in patches {
        let dir = support::files::folder(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        let b = dir.path().join("b.txt");
        std::fs::set_permissions(&b, std::fs::Permissions::from_mode(0o444)).expect("chmod");
        assert_nothing_written(
            dir.path(),
            patch,
            2,
            "srview: nothing written: b.txt: it is read-only\n",
        );
    }
}

/// Two names of one file (a link) in one patch: the second section reads
/// what the first wrote, as Codex reads the file from disk (tester 51
/// T-01: srview's port kept the two names apart, predicted the first
/// change lost, and refused to write: "it is the same file as"). Both
/// changes are written, through the link, which stays a link.
#[test]
fn two_names_of_one_file_keep_both_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("b.txt"), "one\ntwo\n").expect("write");
    std::os::unix::fs::symlink("b.txt", dir.path().join("a.txt")).expect("link");
    let cwd = dir.path().to_string_lossy().into_owned();
    let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+ONE\n*** Update File: b.txt\n@@\n-two\n+TWO\n*** End Patch\n";
    let out = apply_transcript(&cwd, patch, &["--write"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("b.txt")).expect("read"),
        "ONE\nTWO\n"
    );
    let link = std::fs::symlink_metadata(dir.path().join("a.txt")).expect("a.txt");
    assert!(link.file_type().is_symlink());
}

/// A read-only file is refused as such (exit 2), before any doubt is
/// weighed: the doubt is not offered to `--force` over a write that could
/// not happen. Without `--write`, the doubt is a warning.
#[test]
fn a_read_only_file_is_refused_before_a_doubt_is_held_back() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "g.txt", "x\ny\nx\ny\n".as_bytes());
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let cwd = dir.path().to_string_lossy().into_owned();
    let repeated = "*** Begin Patch\n*** Update File: g.txt\n@@\n x\n-y\n+Y\n*** End Patch\n";
    let out = apply_transcript(&cwd, repeated, &[]);
    assert_eq!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("srview: warning: hunk #1 of g.txt"),
        "{err}"
    );
    let out = apply_transcript(&cwd, repeated, &["--write"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "srview: nothing written: g.txt: it is read-only\n"
    );
    assert_eq!(
        std::fs::read_to_string(&file).expect("read"),
        "x\ny\nx\ny\n"
    );
}

/// `apply --transcript - --cwd CWD --write --json` on `patch`: the exit
/// status and the report.
fn write_json(cwd: &str, patch: &str) -> (Option<i32>, serde_json::Value) {
    let args = [
        "apply",
        "--transcript",
        "-",
        "--cwd",
        cwd,
        "--write",
        "--json",
    ];
    let out = srview(&args, Some(patch));
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "the report parses ({e}); stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code(), report)
}

/// Adding a file that already holds exactly the added content loses
/// nothing: no doubt, `unchanged`.
#[test]
fn adding_a_file_that_holds_the_content_already_is_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("z.txt"), "z\n").expect("write");
    let cwd = dir.path().to_string_lossy().into_owned();
    let add = "*** Begin Patch\n*** Add File: z.txt\n+z\n*** End Patch\n";
    let (code, report) = write_json(&cwd, add);
    assert_eq!(code, Some(0));
    assert_eq!(report["write"]["state"], "unchanged");
}

/// A patch that leaves its file as it is writes nothing, and says
/// `unchanged` (it said `written`).
#[test]
fn a_patch_that_changes_nothing_is_unchanged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "a.txt", "a\n".as_bytes());
    let before = std::fs::metadata(&file)
        .expect("stat")
        .modified()
        .expect("mtime");
    let cwd = dir.path().to_string_lossy().into_owned();
    let noop = "*** Begin Patch\n*** Update File: a.txt\n@@\n-a\n+a\n*** End Patch\n";
    let (code, report) = write_json(&cwd, noop);
    assert_eq!(code, Some(0));
    assert_eq!(report["write"]["state"], "unchanged");
    let after = std::fs::metadata(&file)
        .expect("stat")
        .modified()
        .expect("mtime");
    assert_eq!(before, after);
}

/// A move the reference makes but that loses a file is held back (exit 1,
/// the reason on stderr and in the JSON, no summary of writes that did not
/// happen) unless `--force`: onto the file itself (written, then deleted)
/// and onto a file that exists (replaced whole).
#[test]
fn a_move_that_loses_a_file_is_held_back_unless_forced() {
    let cases = [
        (
            "*** Begin Patch\n*** Update File: m.txt\n*** Move to: m.txt\n@@\n-hello\n+moved\n*** End Patch\n",
            "m.txt is moved onto itself: the reference writes it, then deletes it (the file is lost)",
        ),
        (
            "*** Begin Patch\n*** Update File: m.txt\n*** Move to: keep.txt\n@@\n-hello\n+moved\n*** End Patch\n",
            "the move of m.txt onto keep.txt replaces keep.txt, which exists (its content is lost)",
        ),
    ];
    for (patch, why) in cases {
        let dir = support::files::folder(&[("m.txt", "hello\n"), ("keep.txt", "keep\n")]);
        let before = read_tree(dir.path());
        let cwd = dir.path().to_string_lossy().into_owned();
        assert_nothing_written(
            dir.path(),
            patch,
            1,
            &format!("srview: nothing written: {why} (--force writes it)\n"),
        );
        let out = apply_transcript(&cwd, patch, &["--write", "--json"]);
        let report = support::runner::stdout_json(&out);
        assert_eq!(
            report["write"],
            serde_json::json!({"reasons": [why], "state": "held-back"})
        );
        let out = apply_transcript(&cwd, patch, &["--write", "--force"]);
        assert_eq!(out.status.code(), Some(0), "{patch}");
        assert_ne!(read_tree(dir.path()), before);
    }
}

/// A patch moving FILE onto itself, run on FILE alone (a tester's find:
/// `check` said exact and exited 0 in every patch dialect, Codex's with a
/// note that FILE "is edited in place", and `apply` for Cline and OpenCode
/// printed nothing with exit 0, the file lost): `check` says it as a
/// `warning:` line and exits 1, `apply` says it on stderr and exits 1,
/// `apply --write` holds it back, in the three dialects. The same patch
/// without its `*** Move to:` line checks and applies as before.
#[test]
fn a_move_onto_itself_is_said_by_check_and_apply_in_every_dialect() {
    let original = "def add(a, b):\n    return a + b\n";
    let edited = "def add(a, b):\n    return b + a\n";
    let moved = "*** Begin Patch\n*** Update File: a.py\n*** Move to: a.py\n@@\n def add(a, b):\n-    return a + b\n+    return b + a\n*** End Patch\n";
    let codex = "a.py is moved onto itself (`*** Move to: a.py`): the reference writes it, then \
                 deletes it, and the file is lost: send the patch without that `*** Move to:` \
                 line to update a.py in place";
    let agent = |title: &str| {
        format!(
            "the patch moves a.py onto itself: {title}'s apply_patch tool writes it and then \
             deletes it, and the file would be lost"
        )
    };
    let (cline, opencode) = (agent("Cline 3.0.65"), agent("OpenCode 1.18.33"));
    // Dialect, what check prints, what apply prints on stdout, the doubt.
    let cases = [
        (
            "apply-patch",
            format!(
                "a.py: hunk #1 (patch lines 4-7): applies at lines 1-2, level exact\na.py: \
                 warning: {codex}\n"
            ),
            edited,
            codex.to_string(),
        ),
        (
            "cline-apply-patch",
            format!(
                "edit 1: exact at lines 1-2 (exact)\nwarning: {cline}\nthe agent says: \
                 Successfully applied patch to the following files:\na.py -> a.py\n"
            ),
            "",
            cline.clone(),
        ),
        (
            "opencode-apply-patch",
            format!(
                "edit 1: exact at lines 1-2 (exact)\nwarning: {opencode}\nthe agent says: \
                 Success. Updated the following files:\nM a.py\n"
            ),
            "",
            opencode.clone(),
        ),
    ];
    for (dialect, checked, printed, doubt) in cases {
        let dir = support::files::folder(&[("a.py", original), ("m.patch", moved)]);
        // `srview COMMAND a.py m.patch --dialect DIALECT EXTRA...` in the folder.
        let run = |command: &str, extra: &[&str]| {
            let args = [
                &[command, "a.py", "m.patch", "--dialect", dialect][..],
                extra,
            ]
            .concat();
            support::runner::srview(args).cwd(dir.path()).output()
        };
        let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
        let out = run("check", &[]);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(1), checked, String::new()),
            "{dialect}"
        );
        let out = run("apply", &[]);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (
                Some(1),
                printed.to_string(),
                format!("srview: warning: {doubt}\n")
            ),
            "{dialect}"
        );
        let out = run("apply", &["--write"]);
        assert_eq!(out.status.code(), Some(1), "{dialect}");
        assert_contains_text(
            &text(&out.stderr),
            &format!("{doubt} (--force writes it)\n"),
        );
        assert_eq!(
            std::fs::read_to_string(dir.path().join("a.py")).expect("a.py is kept"),
            original,
            "{dialect}"
        );
        // Without the move: exact, exit 0, the edited file printed.
        let in_place = moved.replace("*** Move to: a.py\n", "");
        std::fs::write(dir.path().join("m.patch"), in_place).expect("write the patch");
        let out = run("check", &[]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{dialect}: {}",
            text(&out.stdout)
        );
        assert!(!text(&out.stdout).contains("onto itself"), "{dialect}");
        let out = run("apply", &[]);
        assert_eq!(
            (out.status.code(), text(&out.stdout), text(&out.stderr)),
            (Some(0), edited.to_string(), String::new()),
            "{dialect}"
        );
    }
}

/// Whether `text` holds `part`, saying both where it does not.
fn assert_contains_text(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in:\n{text}");
}

#[test]
fn a_text_with_no_patch_line_is_no_transcript() {
    let (dir, cwd, _) = en_dash_project();
    let out = apply_transcript(&cwd, "   \n\t\n", &["--write"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no apply_patch"));
    assert_eq!(read_tree(dir.path()).len(), 1);
}

#[test]
fn without_write_the_reference_texts_are_printed_and_nothing_changes() {
    let (dir, cwd, _) = en_dash_project();
    let patch = "*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** Update File: calc.py\n@@\n-nothing like this\n+x\n*** End Patch\n";
    let out = apply_transcript(&cwd, patch, &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!("Failed to find expected lines in {cwd}/calc.py:\nnothing like this\n")
    );
    assert_eq!(
        read_tree(dir.path()).len(),
        1,
        "the added file is not written"
    );
}

/// A patch with two sections for the one file given to `check`: the agent
/// applies them in turn, the one-file commands take one section a file;
/// the message says so, not that "none of its sections names" the file.
#[test]
fn two_sections_for_the_checked_file_are_named_as_such() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "a.py", "A = 1\nB = 1\n".as_bytes());
    let patch = support::files::write(dir.path(), "two.patch", "*** Begin Patch\n*** Update File: a.py\n@@\n-A = 1\n+A = 2\n*** Update File: a.py\n@@\n-A = 2\n+A = 3\n*** End Patch\n".as_bytes());
    let (file, patch) = (file.to_string_lossy(), patch.to_string_lossy());
    let out = srview(&["apply", &file, &patch], None);
    assert_eq!(out.status.code(), Some(2));
    // The command names the patch and the folder its paths are relative
    // to (session 51: `PATCH` and `DIR` were printed).
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "srview: the patch has 2 sections for a.py, applied one after the other; a command \
             on one file takes one section per file: use `srview apply --transcript {patch} \
             --cwd {}`\n",
            dir.path().canonicalize().expect("real path").display()
        ),
    );
    // `check` judges them (session 50): joined into one section where
    // that gives what was meant; here the second section edits what the
    // first writes, so they are checked one after the other, as Codex
    // applies them, saying why.
    let out = srview(&["check", &file, &patch], None);
    support::runner::assert_exit(&out, 0, "check of two sections for one file");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{file}: note: the patch has several sections for {file}, checked one after the other \
             as Codex applies them (its sections for a.py cannot be joined into one in patch \
             order: a later section's hunk edits lines an earlier section writes, and as one \
             section the reference fails (Failed to find expected lines in {file}: A = 2))\n\
             {file}: hunk #1 (patch lines 3-5): applies at lines 1-1, level exact\n\
             {file}: hunk #1 (patch lines 7-9): applies at lines 1-1, level exact\n"
        )
    );
}

/// Delete then Add of one path (round 35, #09): a whole-file replacement,
/// held back by `apply --transcript --write` as an Add over the file is
/// (it was written, stand-in and all); `--force` writes it.
#[test]
fn a_delete_then_add_of_one_file_is_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cwd = dir.path().to_string_lossy().to_string();
    let before =
        "def load(p):\n    return open(p).read()\n\n\ndef main():\n    print(load(\"x\"))\n";
    std::fs::write(dir.path().join("store.py"), before).expect("file");
    let patch = "*** Begin Patch\n*** Delete File: store.py\n*** Add File: store.py\n+# ... existing functions unchanged ...\n+def main():\n+    print(load(\"y\"))\n*** End Patch\n";
    let out = apply_transcript(&cwd, patch, &["--write"]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "srview: nothing written: the patch deletes store.py (section 1) and adds it again: the \
         reference replaces its 6 lines whole (--force writes it)\n"
    );
    assert_eq!(read_tree(dir.path())["store.py"], before);
}

/// A tester's find (round 39a, 06): `*** Delete File:` of a symbolic link
/// to a file of the folder removed the file it points to and left the link
/// dangling; a move from the link likewise. The agents (`remove_file`,
/// `fs.unlink`) remove the link itself, and so does srview now: the file
/// it pointed to is kept, for each apply_patch dialect.
#[cfg(unix)]
#[test]
fn deleting_or_moving_a_link_removes_the_link_not_its_file() {
    let moved = "*** Begin Patch\n*** Update File: current.toml\n*** Move to: app.toml\n@@\n-port = 8080\n+port = 9090\n*** End Patch\n";
    let deleted = "*** Begin Patch\n*** Delete File: current.toml\n*** End Patch\n";
    for dialect in ["codex", "opencode-apply-patch", "cline-apply-patch"] {
        for (patch, app) in [(deleted, None), (moved, Some("port = 9090\n"))] {
            let dir = tempfile::tempdir().expect("temp dir");
            std::fs::create_dir(dir.path().join("config")).expect("folder");
            let prod = dir.path().join("config/prod.toml");
            std::fs::write(&prod, "port = 8080\n").expect("file");
            let link = dir.path().join("current.toml");
            std::os::unix::fs::symlink("config/prod.toml", &link).expect("link");
            let cwd = dir.path().to_string_lossy().to_string();
            let dialect_args: &[&str] = if dialect == "codex" {
                &["--write"]
            } else {
                &["--write", "--dialect", dialect]
            };
            let out = apply_transcript(&cwd, patch, dialect_args);
            let case = format!("{dialect}: {patch}");
            support::runner::assert_exit(&out, 0, &case);
            assert_eq!(
                std::fs::read_to_string(&prod).expect("kept"),
                "port = 8080\n",
                "{case}"
            );
            assert!(
                std::fs::symlink_metadata(&link).is_err(),
                "{case}: link removed"
            );
            assert_eq!(
                std::fs::read_to_string(dir.path().join("app.toml"))
                    .ok()
                    .as_deref(),
                app,
                "{case}"
            );
        }
    }
}

/// A tester's find (round 39a, 13): a file the patch creates (`*** Add
/// File:`, or a move of a .txt into a .rs) was never read for its
/// brackets; it is now, against no file: `--write` holds back a new
/// util.rs whose `if` is never closed, and writes a balanced one.
#[test]
fn a_new_file_with_unbalanced_brackets_is_held_back() {
    let dir = tempfile::tempdir().expect("temp dir");
    let add = "*** Begin Patch\n*** Add File: util.rs\n+pub fn parse(s: &str) -> u32 {\n+    if s.is_empty() {\n+        return 0;\n+    s.len() as u32\n+}\n*** End Patch\n";
    assert_nothing_written(
        dir.path(),
        add,
        1,
        "srview: nothing written: the patch leaves util.rs with its brackets unbalanced: as \
         written, the file has one `}` fewer than `{` (srview counts them outside strings and \
         comments; the file is new): the edit's new text opens a block it does not close (line \
         1 `pub fn parse(s: &str) -> u32 {`): close the `{` the new text opens, or leave it out \
         (--force writes it)\n",
    );
    std::fs::write(dir.path().join("notes.txt"), "x {\n").expect("file");
    let moved = "*** Begin Patch\n*** Update File: notes.txt\n*** Move to: lib.rs\n@@\n-x {\n+fn lib() {\n+    if y {\n+    }\n*** End Patch\n";
    let out = apply_transcript(&dir.path().to_string_lossy(), moved, &["--write"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("the patch leaves lib.rs with its brackets unbalanced"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let balanced = add.replace("+        return 0;\n", "+        return 0;\n+    }\n");
    let out = apply_transcript(&dir.path().to_string_lossy(), &balanced, &["--write"]);
    support::runner::assert_exit(&out, 0, "a balanced util.rs");
    assert!(dir.path().join("util.rs").is_file());
}

/// The backquoted command of `said` after `lead`, run with `sh -c` in
/// `cwd` (srview on PATH): its exit status and stdout.
fn run_printed(said: &str, lead: &str, cwd: &Path) -> (Option<i32>, String) {
    let command = said
        .split_once(lead)
        .and_then(|(_, rest)| rest.split_once('`'))
        .map(|(command, _)| command)
        .unwrap_or_else(|| panic!("no command after {lead:?}: {said}"));
    let ran = support::runner::sh_with_srview(command, cwd, b"");
    (
        ran.status.code(),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
    )
}

/// Session 51: the refusals that send the user to `apply --transcript`
/// (no section names FILE, FILE's section deletes it, several sections
/// for FILE, sections `fix` cannot join) said `srview apply --transcript
/// PATCH --cwd DIR`. They name the patch as given (`-` and the patch on
/// stdin again), `--cwd` the folder its paths are relative to (left out
/// when it is the current one), `--write` when the user wrote, and run as
/// printed.
#[test]
fn a_refusal_sending_to_apply_transcript_names_the_patch_and_its_folder() {
    let dir = tempfile::tempdir().expect("temp dir");
    let proj = dir.path().join("my proj");
    std::fs::create_dir_all(proj.join("src")).expect("src");
    let write = |name: &str, text: &str| std::fs::write(proj.join(name), text).expect(name);
    write("src/a.py", "def f():\n    return 1\n");
    write("src/b.py", "x = 1\ny = 2\n");
    write("c.py", "z = 1\n");
    write(
        "two files.patch",
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 2\n\
         *** Update File: src/b.py\n@@\n-y = 2\n+y = 3\n*** End Patch\n",
    );
    write(
        "del.patch",
        "*** Begin Patch\n*** Delete File: src/a.py\n*** End Patch\n",
    );
    write(
        "twice.patch",
        "*** Begin Patch\n*** Update File: src/a.py\n@@\n-    return 1\n+    return 2\n\
         *** Update File: src/a.py\n@@\n-def f():\n+def g():\n*** End Patch\n",
    );
    write(
        "far.patch",
        "*** Begin Patch\n*** Update File: lib/x.py\n@@\n-a\n+b\n\
         *** Update File: lib/y.py\n@@\n-a\n+b\n*** End Patch\n",
    );
    let real = proj.canonicalize().expect("real path");
    let quoted = |path: &Path| format!("'{}'", path.display());
    let src = proj.join("src");
    let run = |cwd: &Path, args: &[&str], stdin: Option<&str>| {
        let mut run = support::runner::srview(args).cwd(cwd);
        if let Some(text) = stdin {
            run = run.stdin(text.as_bytes());
        }
        let out = run.output();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stdout), "", "{args:?}");
        support::runner::stderr(&out)
    };
    let several = |command: &str| {
        format!(
            "srview: the patch edits src/a.py, src/b.py and none of its sections alone names \
             c.py: use {command} for a patch of several files\n"
        )
    };
    let here = "`srview apply --transcript 'two files.patch'`";
    for command in ["check", "fix", "apply"] {
        let said = run(&proj, &[command, "c.py", "two files.patch"], None);
        assert_eq!(said, several(here));
    }
    let (code, out) = run_printed(&several(here), "use `", &proj);
    assert_eq!(
        (code, out.as_str()),
        (
            Some(0),
            "Success. Updated the following files:\nM src/a.py\nM src/b.py\n"
        )
    );
    let patch = std::fs::read_to_string(proj.join("two files.patch")).expect("patch");
    assert_eq!(
        run(&proj, &["fix", "c.py", "-"], Some(&patch)),
        several("`srview apply --transcript -` with the same patch on stdin")
    );
    assert_eq!(
        run(&src, &["check", "a.py", "../del.patch"], None),
        format!(
            "srview: the patch deletes src/a.py: use `srview apply --transcript ../del.patch \
             --cwd {}`\n",
            quoted(&real)
        )
    );
    assert_eq!(
        run(&proj, &["apply", "src/a.py", "twice.patch"], None),
        "srview: the patch has 2 sections for a.py, applied one after the other; a command on \
         one file takes one section per file: use `srview apply --transcript twice.patch`\n"
    );
    let fix = support::runner::srview(["fix", "src/a.py", "twice.patch"])
        .cwd(&proj)
        .output();
    assert_eq!(fix.status.code(), Some(1));
    assert_eq!(
        support::runner::stderr(&fix),
        format!(
            "srview: no corrected patch: its sections for a.py cannot be joined into one in \
             patch order: a later section's hunk stands above an earlier one's, and as one \
             section the reference fails (Failed to find expected lines in {}/src/a.py: def \
             f():); the sections as sent are applied one after the other by `srview apply \
             --transcript twice.patch`\n",
            real.display()
        )
    );
    let far = real.join("far.patch");
    assert_eq!(
        run(&proj, &["check", "c.py", "far.patch"], None),
        format!(
            "srview: the patch edits lib/x.py, lib/y.py and none of its sections alone names \
             c.py: use `srview apply --transcript {}` run in the folder its paths are relative \
             to (none of the files it names is found from here) for a patch of several files\n",
            quoted(&far)
        )
    );
    // From below the patch's folder, writing: `--cwd` and `--write`, and
    // the command printed writes both files.
    let said = run(
        &src,
        &["apply", "../c.py", "../two files.patch", "--write"],
        None,
    );
    let command = format!(
        "`srview apply --transcript '../two files.patch' --cwd {} --write`",
        quoted(&real)
    );
    assert_eq!(said, several(&command));
    let (code, _) = run_printed(&said, "use `", &src);
    assert_eq!(code, Some(0));
    let read = |name: &str| std::fs::read_to_string(proj.join(name)).expect(name);
    assert_eq!(
        (read("src/a.py").as_str(), read("src/b.py").as_str()),
        ("def f():\n    return 2\n", "x = 1\ny = 3\n")
    );
}
