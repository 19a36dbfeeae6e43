//! Huge sessions: `srview sessions` reads each session in one pass and
//! reviews its edits as they settle (`sessions::count`), never holding it
//! whole. Its counts equal the whole review's for every capture; on a
//! generated session (tests/support/big_session.rs) they equal what the
//! generator knows. The 100 MB case end to end is an ignored test:
//! `cargo test --release --test sessions_scale -- --ignored --nocapture`.

use std::path::Path;
use std::time::Duration;

use srview::sessions::count::count;
use srview::sessions::load::load;
use srview::sessions::review::{Basis, Recovery, review_with};
use srview::sessions::verdict::Applier;
use srview::source::agent::ContentOrigin;

mod support;
use support::agents::{scenarios, session_path};
use support::big_session::{Generated, claude_and_codex};
use support::measure::run_measured;
use support::runner::BIN;

#[test]
fn streamed_counts_equal_the_whole_review_for_every_capture() {
    let mut checked = 0;
    for dir in scenarios() {
        let path = session_path(&dir);
        let (reader, ws) = load(&path, None).expect("loads");
        let whole = review_with(&reader, &ws, Recovery::Light);
        let listed = count(&path).expect("counts");
        assert_eq!(listed.counts, whole.counts(), "{}", path.display());
        assert_eq!(listed.version, whole.version, "{}", path.display());
        assert_eq!(listed.agent, whole.agent, "{}", path.display());
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} captures");
}

#[test]
fn the_light_review_gives_the_full_reviews_verdicts() {
    // Light skips block reports, diagnoses and re-running an Edit the reader
    // already applied: where both ran an edit against the same content,
    // the verdicts agree.
    let mut compared = 0;
    // Edits the light review did not run again (the reader derived their
    // content after), and exact-string edits that fail (not diagnosed).
    let (mut shortcut, mut failed_exact) = (0, 0);
    for dir in scenarios() {
        let path = session_path(&dir);
        let (reader, ws) = load(&path, None).expect("loads");
        let light = review_with(&reader, &ws, Recovery::Light);
        let full = review_with(&reader, &ws, Recovery::Full);
        for (l, f) in light.reviews.iter().zip(&full.reviews) {
            if l.basis != f.basis || l.before != f.before {
                continue;
            }
            let (Some(la), Some(fa)) = (l.applied(), f.applied()) else {
                assert_eq!(l.ok(), f.ok(), "{} #{}", path.display(), l.edit.seq);
                continue;
            };
            let at = format!("{} #{}", path.display(), l.edit.seq);
            assert_eq!(la.applier, fa.applier, "{at}");
            assert_eq!(la.result, fa.result, "{at}");
            assert_eq!(la.loose, fa.loose, "{at}");
            assert_eq!(l.disagreement, f.disagreement, "{at}");
            compared += 1;
            let derived = l
                .edit
                .content_after
                .as_ref()
                .is_some_and(|c| c.origin == ContentOrigin::Derived);
            shortcut += usize::from(derived && l.basis == Some(Basis::Recorded));
            failed_exact += usize::from(la.applier == Applier::Edit && !la.ok());
        }
    }
    assert!(compared >= 15, "only {compared} edits compared");
    assert!(
        shortcut >= 3 && failed_exact >= 1,
        "{shortcut} {failed_exact}"
    );
}

/// Runs `srview sessions HOME` from `cwd`: its stdout, wall time and peak
/// RSS in KiB.
fn list(home: &Path, cwd: &Path) -> (String, Duration, u64) {
    let home = home.to_string_lossy();
    let run = run_measured(Path::new(BIN), &["sessions", &home], cwd);
    (run.stdout, run.wall, run.peak_kib)
}

/// The listing's line for `g` has the generator's counts.
fn assert_listed(stdout: &str, g: &Generated, version: &str) {
    let path = g.path.to_string_lossy();
    let line = stdout
        .lines()
        .find(|l| l.ends_with(&*path))
        .unwrap_or_else(|| panic!("{path} not listed:\n{stdout}"));
    let fields: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(
        fields[3..7],
        [
            version,
            &g.edits.to_string(),
            &g.failed.to_string(),
            &g.loose.to_string()
        ],
        "{line}"
    );
}

#[test]
fn a_generated_session_lists_the_generators_counts() {
    let (dir, claude, codex) = claude_and_codex(3 << 20, 300);
    assert!(claude.failed > 0 && codex.failed > 0 && codex.loose > 0);
    let (out, _, _) = list(&dir.path().join("home"), dir.path());
    assert_listed(&out, &claude, "2.1.328");
    assert_listed(&out, &codex, "0.169.0");
}

#[test]
#[ignore]
fn a_100_mb_session_lists_in_under_2_s_without_being_held_whole() {
    let (dir, claude, codex) = claude_and_codex(100 << 20, 10_000);
    let home = dir.path().join("home");
    let (out, took, peak_kib) = list(&home, dir.path());
    println!(
        "{} + {} MiB, 2 x 10,000 edits: listed in {took:?}, peak RSS {} MiB",
        claude.bytes >> 20,
        codex.bytes >> 20,
        peak_kib >> 10
    );
    assert_listed(&out, &claude, "2.1.328");
    assert_listed(&out, &codex, "0.169.0");
    // Both sessions, 200 MiB together: the goal is 2 s each in a release
    // build; a debug build is about ten times slower.
    let limit = if cfg!(debug_assertions) { 40.0 } else { 4.0 };
    assert!(took.as_secs_f64() < limit, "{took:?}");
    assert!(peak_kib < 50 << 10, "peak RSS {peak_kib} KiB");
}
