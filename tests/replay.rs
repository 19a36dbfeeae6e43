//! Replay: a deterministic schedule, and `srview replay` reproducing its
//! input byte for byte.

use std::time::{Duration, Instant};

use srview::source::replay::schedule;

mod support;

use support::runner::srview;

const TEXT: &str =
    "------- SEARCH\nfn größe() -> u8 {\n=======\nfn size() -> u8 { // ✓\n+++++++ REPLACE\n";

#[test]
fn same_seed_same_schedule_other_seed_other_jitter() {
    let a = schedule(TEXT, 400.0, 5, 40, 7);
    let b = schedule(TEXT, 400.0, 5, 40, 7);
    let c = schedule(TEXT, 400.0, 5, 40, 8);
    assert_eq!(a, b);
    assert_ne!(a, c, "jitter depends on the seed");
    // Same chunk ends whatever the seed: only the times move.
    let ends = |s: &[(Duration, usize)]| s.iter().map(|x| x.1).collect::<Vec<_>>();
    assert_eq!(ends(&a), ends(&c));
}

#[test]
fn schedule_is_monotone_and_paced() {
    let steps = schedule(TEXT, 100.0, 4, 0, 1);
    assert!(
        steps
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[0].1 < w[1].1)
    );
    assert!(steps.iter().all(|&(_, end)| TEXT.is_char_boundary(end)));
    assert_eq!(steps.last().map(|s| s.1), Some(TEXT.len()));
    // Without jitter the total is characters / rate.
    let chars = TEXT.chars().count() as f64;
    let total = steps.last().map(|s| s.0.as_secs_f64()).unwrap_or(0.0);
    assert!((total - chars / 100.0).abs() < 1e-6, "{total}");
    // Jitter only ever adds, at most jitter_ms per chunk.
    let jittered = schedule(TEXT, 100.0, 4, 30, 1);
    for (plain, jit) in steps.iter().zip(&jittered) {
        assert!(jit.0 >= plain.0);
    }
    let extra = jittered.last().map(|s| s.0).unwrap_or_default()
        - steps.last().map(|s| s.0).unwrap_or_default();
    assert!(extra <= Duration::from_millis(30 * steps.len() as u64));
}

#[test]
fn degenerate_inputs_do_not_panic() {
    assert!(schedule("", 400.0, 16, 10, 1).is_empty());
    assert_eq!(
        schedule("abc", 400.0, 0, 0, 1).len(),
        3,
        "chunk 0 acts as 1"
    );
    let free = schedule("abc", f64::NAN, 1, 0, 1);
    assert!(free.iter().all(|s| s.0 == Duration::ZERO));
    let slow = schedule("abc", 1e-300, 1, u64::MAX, 1);
    assert_eq!(slow.len(), 3);
}

#[test]
fn replay_writes_the_exact_input_over_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.diff");
    let out = dir.path().join("out.diff");
    std::fs::write(&input, TEXT).expect("write");
    std::fs::write(
        &out,
        "stale content that must go away, longer than the input text ...........",
    )
    .expect("write");
    // OUT holds other content: refused, untouched, unless forced.
    let refused = srview(["replay"])
        .arg(&input)
        .arg("--to")
        .arg(&out)
        .output();
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("holds other content than a replay of"),
        "{refused:?}"
    );
    assert!(
        std::fs::read_to_string(&out)
            .expect("read")
            .starts_with("stale")
    );
    let started = Instant::now();
    let status = srview(["replay"])
        .arg(&input)
        .arg("--to")
        .arg(&out)
        .args([
            "--rate", "1000", "--chunk", "3", "--jitter", "2", "--seed", "9", "--force",
        ])
        .output()
        .status;
    assert!(status.success());
    // An earlier replay of the same input (here whole) is replayed over.
    let again = srview(["replay"])
        .arg(&input)
        .arg("--to")
        .arg(&out)
        .args(["--rate", "100000"])
        .output();
    assert!(again.status.success(), "{again:?}");
    // 70-odd characters at 1000/s: at least the scheduled time passed.
    let planned = schedule(TEXT, 1000.0, 3, 2, 9)
        .last()
        .map(|s| s.0)
        .unwrap_or_default();
    assert!(started.elapsed() >= planned);
    assert_eq!(std::fs::read(&out).expect("read"), TEXT.as_bytes());
}

#[test]
fn replay_refuses_bad_arguments() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.diff");
    std::fs::write(&input, TEXT).expect("write");
    for bad in [["--rate", "0"], ["--chunk", "0"]] {
        let status = srview(["replay"])
            .arg(&input)
            .arg("--to")
            .arg(dir.path().join("o"))
            .args(bad)
            .output()
            .status;
        assert_eq!(status.code(), Some(2), "{bad:?}");
    }
}

/// A tester's find (round 44, T-16): OUT naming INPUT itself, or a link to
/// it, passed the check (a file is a replay of itself) and was truncated;
/// stopped mid-replay, the input was lost. Refused whatever --force says,
/// the input left whole.
#[test]
fn replaying_into_the_input_itself_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.diff");
    std::fs::write(&input, TEXT).expect("write");
    let link = dir.path().join("link.diff");
    std::os::unix::fs::symlink(&input, &link).expect("link");
    for (out, force) in [(&input, false), (&input, true), (&link, true)] {
        let flags: &[&str] = if force { &["--force"] } else { &[] };
        let refused = srview(["replay"])
            .arg(&input)
            .arg("--to")
            .arg(out)
            .args(flags)
            .output();
        assert_eq!(refused.status.code(), Some(2), "{refused:?}");
        assert_eq!(
            String::from_utf8_lossy(&refused.stderr),
            format!(
                "srview: {} is the input ({}) itself: replaying would truncate it; name another \
                 OUT\n",
                out.display(),
                input.display()
            )
        );
        assert_eq!(std::fs::read_to_string(&input).expect("read"), TEXT);
    }
}
