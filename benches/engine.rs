//! Engine timings: `cargo bench --bench engine` (release profile). Prints a
//! table and the ratios the project promises; figures go to docs/perf.md.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use srview::engine::session::Session;
use srview::engine::{Options, Stage, Version, apply};

/// One generated source line, about 30 bytes, unique by `i`.
fn line(i: usize) -> String {
    format!(
        "    let v{i} = f({}, \"{:x}\");",
        i % 97,
        i * 2654435761 % 65536
    )
}

fn file(lines: usize) -> String {
    (0..lines).map(|i| line(i) + "\n").collect()
}

/// `blocks` in-order blocks of 3 SEARCH lines spread over the file; with
/// `trimmed_last` the last one is re-indented so only the line-trimmed
/// fallback finds it (near the end of the file).
fn diff(lines: usize, blocks: usize, trimmed_last: bool) -> String {
    let mut out = String::new();
    for b in 0..blocks {
        let at = (b + 1) * (lines - 10) / blocks;
        out.push_str("------- SEARCH\n");
        for i in at..at + 3 {
            if trimmed_last && b + 1 == blocks {
                out.push_str(line(i).trim_start());
            } else {
                out.push_str(&line(i));
            }
            out.push('\n');
        }
        out.push_str("=======\n");
        for k in 0..3 {
            out.push_str(&format!("    let w{b}_{k} = g({k});\n"));
        }
        out.push_str("+++++++ REPLACE\n");
    }
    out
}

/// Median wall time of `f` over enough runs to fill ~300 ms (3..=200 runs).
fn time(mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    f();
    let once = start.elapsed().max(Duration::from_micros(1));
    let runs = (Duration::from_millis(300).as_nanos() / once.as_nanos()).clamp(3, 200) as usize;
    let mut samples: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    samples.sort();
    samples[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn final_apply(d: &str, original: &str) -> srview::engine::Outcome {
    apply(
        d,
        original,
        Options {
            version: Version::V1,
            is_final: true,
        },
    )
}

fn per_apply_table() {
    println!("\n## Per-apply time (v1, final mode; median)\n");
    println!("| lines | file MB | blocks | all exact (ms) | last block line-trimmed (ms) |");
    println!("|------:|--------:|-------:|---------------:|-----------------------------:|");
    for lines in [2_000, 20_000, 100_000] {
        let original = file(lines);
        for blocks in [1, 10, 50] {
            let exact = diff(lines, blocks, false);
            let trimmed = diff(lines, blocks, true);
            let out = final_apply(&trimmed, &original);
            assert_eq!(out.applied_count(), blocks);
            assert_eq!(out.blocks[blocks - 1].stage, Some(Stage::LineTrimmed));
            let te = time(|| drop(final_apply(&exact, &original)));
            let tt = time(|| drop(final_apply(&trimmed, &original)));
            let mb = original.len() as f64 / 1e6;
            println!(
                "| {lines} | {mb:.2} | {blocks} | {:.3} | {:.3} |",
                ms(te),
                ms(tt)
            );
        }
    }
}

fn streaming() {
    let lines = 20_000;
    let original = file(lines);
    let d = diff(lines, 50, true);
    let chunks: Vec<&str> = d
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).unwrap_or(""))
        .collect();
    let one = time(|| drop(final_apply(&d, &original)));
    let want = final_apply(&d, &original);
    // As `apply --stream` runs: push, a summary per update, one final outcome.
    let with_summary = time(|| {
        let mut s = Session::new(original.as_str(), Version::V1);
        for c in &chunks {
            s.push(c);
            drop(s.summary(false));
        }
        assert_eq!(s.outcome(true), want);
    });
    let push_only = time(|| {
        let mut s = Session::new(original.as_str(), Version::V1);
        for c in &chunks {
            s.push(c);
        }
        drop(s.outcome(true));
    });
    let with_content = time(|| {
        let mut s = Session::new(original.as_str(), Version::V1);
        for c in &chunks {
            s.push(c);
            drop(s.outcome(false));
        }
        drop(s.outcome(true));
    });
    // What the previewer does: the content as a splice of the original.
    let with_splice = time(|| {
        let mut s = Session::new(original.as_str(), Version::V1);
        for c in &chunks {
            s.push(c);
            drop(s.outcome_spliced(false));
        }
        drop(s.outcome_spliced(true));
    });
    let from_scratch = time(|| {
        for end in (64..d.len()).step_by(64) {
            drop(apply(
                &d[..end],
                &original,
                Options {
                    version: Version::V1,
                    is_final: false,
                },
            ));
        }
    });
    println!(
        "\n## Streaming a 50-block diff ({} bytes, {} chunks of 64 B) over a 20k-line file\n",
        d.len(),
        chunks.len()
    );
    println!("| run | total (ms) | × one final apply |");
    println!("|-----|-----------:|------------------:|");
    println!(
        "| one final apply of the whole diff | {:.3} | 1.00 |",
        ms(one)
    );
    for (name, t) in [
        (
            "session: push + summary per chunk + final outcome (what `--stream` does)",
            with_summary,
        ),
        ("session: push per chunk + final outcome", push_only),
        (
            "session: push + full outcome with content per chunk",
            with_content,
        ),
        (
            "session: push + outcome with the content spliced per chunk (what the previewer does)",
            with_splice,
        ),
        (
            "re-apply every prefix from scratch (what the reference does)",
            from_scratch,
        ),
    ] {
        println!(
            "| {name} | {:.3} | {:.2} |",
            ms(t),
            t.as_secs_f64() / one.as_secs_f64()
        );
    }
}

fn fallback_ratio() {
    let lines = 100_000;
    let original = file(lines);
    let exact = diff(lines, 1, false);
    let trimmed = diff(lines, 1, true);
    assert_eq!(
        final_apply(&trimmed, &original).blocks[0].stage,
        Some(Stage::LineTrimmed)
    );
    let te = time(|| drop(final_apply(&exact, &original)));
    let tt = time(|| drop(final_apply(&trimmed, &original)));
    println!("\n## One block near the end of a 100k-line file\n");
    println!("| match | apply (ms) |\n|---|---:|");
    println!(
        "| exact | {:.3} |\n| line-trimmed fallback | {:.3} |",
        ms(te),
        ms(tt)
    );
    println!(
        "\nratio fallback / exact: {:.2} (limit 3)",
        tt.as_secs_f64() / te.as_secs_f64()
    );
}

/// Wall time and peak RSS (KiB, via `/usr/bin/time -f %M`) of one process run.
fn run_process(bin: &str, file: &Path, diff: &Path) -> (Duration, Option<u64>) {
    let timer = Path::new("/usr/bin/time").exists();
    let mut cmd = if timer {
        let mut c = Command::new("/usr/bin/time");
        c.args(["-f", "%M", bin]);
        c
    } else {
        Command::new(bin)
    };
    cmd.arg("apply")
        .arg(file)
        .arg(diff)
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let t = Instant::now();
    let out = cmd.output().expect("run srview");
    let elapsed = t.elapsed();
    let rss = String::from_utf8_lossy(&out.stderr)
        .lines()
        .last()
        .and_then(|l| l.trim().parse().ok());
    (elapsed, rss.filter(|_| timer))
}

fn process() {
    let bin = env!("CARGO_BIN_EXE_srview");
    let dir = std::env::temp_dir().join(format!("srview-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let original = file(100_000);
    let edit = diff(100_000, 50, true);
    let paths = [
        dir.join("big.rs"),
        dir.join("edit.diff"),
        dir.join("noop.diff"),
    ];
    std::fs::write(&paths[0], &original).expect("write file");
    std::fs::write(&paths[1], &edit).expect("write diff");
    std::fs::write(&paths[2], "").expect("write diff");
    // Interleaved, so load from other processes hits both alike.
    let (mut edit_runs, mut noop_runs) = (Vec::new(), Vec::new());
    for _ in 0..21 {
        edit_runs.push(run_process(bin, &paths[0], &paths[1]));
        noop_runs.push(run_process(bin, &paths[0], &paths[2]));
    }
    let median = |mut runs: Vec<(Duration, Option<u64>)>| {
        runs.sort();
        let peak = runs.iter().filter_map(|r| r.1).max();
        (runs[runs.len() / 2].0, peak)
    };
    let (t_edit, rss_edit) = median(edit_runs);
    let (t_noop, rss_noop) = median(noop_runs);
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "\n## `srview apply` as a process on a 100k-line file ({:.2} MB)\n",
        original.len() as f64 / 1e6
    );
    println!("| diff | wall (ms, median of 21) | peak RSS (KiB) |\n|---|---:|---:|");
    let kib = |r: Option<u64>| r.map_or("n/a".to_string(), |k| k.to_string());
    println!(
        "| 50 blocks, last line-trimmed ({} bytes) | {:.2} | {} |",
        edit.len(),
        ms(t_edit),
        kib(rss_edit)
    );
    println!(
        "| empty diff (changes nothing) | {:.2} | {} |",
        ms(t_noop),
        kib(rss_noop)
    );
    println!(
        "\nratio edit / no-op wall time: {:.2} (limit 2)",
        t_edit.as_secs_f64() / t_noop.as_secs_f64()
    );
    if let Some(k) = rss_edit {
        let input = (original.len() + edit.len()) as f64;
        println!(
            "peak RSS / (file + diff): {:.2} (limit 4)",
            k as f64 * 1024.0 / input
        );
    }
}

fn main() {
    println!(
        "machine: {} cores, {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        cpu_model()
    );
    per_apply_table();
    streaming();
    fallback_ratio();
    process();
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}
