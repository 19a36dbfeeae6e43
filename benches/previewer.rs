//! Previewer figures on a 100k-line file (release build):
//! - one 200x60 frame built and rendered while a block streams (median),
//!   scrolled to spots all over the file;
//! - one re-apply of a growing diff (the work per update);
//! - from a write to DIFF to the frame that shows it, through the real
//!   binary in a pseudo-terminal (median of several writes);
//! - the binary's peak memory while previewing.
//!
//! Run: `cargo bench --bench previewer`.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use srview::app::App;
use srview::engine::Version;
use srview::view::highlight::Syntaxes;
use srview::view::theme::{ColourMode, Theme};
use srview::view::{self, Caches};

#[allow(dead_code)]
#[path = "../tests/support/diff.rs"]
mod diff_text;
#[path = "../tests/support/pty.rs"]
mod pty;

use pty::Session;

const LINES: usize = 100_000;

/// 100k lines of Rust, 2.6 MB; `commented` adds end-of-line comments to
/// two lines in five, making 3.2 MB, the size the issue gives a 100k-line
/// file (and the size of the file `srview apply` is measured on).
fn file(commented: bool) -> String {
    (0..LINES)
        .map(|i| match (i % 5, commented) {
            (0, _) => format!("fn item_{i}(x: u32) -> u32 {{\n"),
            (1, _) => format!("    let v = x.wrapping_mul({i}); // step {i}\n"),
            (2, _) => format!("    let s = \"value {i}\";\n"),
            (3, false) => "    v + s.len() as u32\n".to_string(),
            (3, true) => "    v + s.len() as u32 // total\n".to_string(),
            (_, false) => "}\n".to_string(),
            (_, true) => format!("}} // end of item_{}\n", i - 4),
        })
        .collect()
}

fn block(i: usize) -> String {
    let n = i * 5 + 1;
    diff_text::block(
        &format!("    let v = x.wrapping_mul({n}); // step {n}"),
        &format!("    let v = x.wrapping_add({n}); // changed {n}"),
    )
}

fn diff(blocks: usize) -> String {
    (0..blocks)
        .map(|b| block(b * (LINES / 5 / blocks)))
        .collect()
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let original = file(false);
    let full = diff(20);
    let cut = full.len() * 2 / 3;
    let theme = Theme::new(ColourMode::TrueColor);

    // Re-apply per update: a growing diff, 64-byte appends.
    let mut app = App::new(PathBuf::from("big.rs"), original.clone(), Version::V1);
    let mut updates = Vec::new();
    let mut end = 0;
    while end < cut {
        end = (end + 64).min(cut);
        while !full.is_char_boundary(end) {
            end += 1;
        }
        let t = Instant::now();
        app.set_diff(full[..end].to_string());
        updates.push(t.elapsed());
    }
    let update_med = median(updates.clone());
    let update_max = updates.iter().max().copied().unwrap_or_default();

    // Frames: 200x60, following the stream, then scrolled around.
    app.fit(ratatui::layout::Rect::new(0, 0, 200, 60));
    app.follow_active();
    let mut caches = Caches::new(Syntaxes::load(), &app);
    let mut terminal = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
    let mut frames = Vec::new();
    let total = app.rows().total();
    for i in 0..120 {
        if i % 3 == 0 {
            app.scroll_to((i * 7919 * 31) % total);
        } else {
            app.scroll_to(app.view().scroll + 30);
        }
        let t = Instant::now();
        terminal
            .draw(|f| view::render(f, &app, &mut caches, &theme))
            .expect("draw");
        frames.push(t.elapsed());
    }
    let frame_med = median(frames.clone());
    let frame_max = frames.iter().max().copied().unwrap_or_default();

    // Interleaved, so a noisy moment hits all three alike.
    // `LIVE_RUNS=n` for more (or fewer) runs.
    let live_runs: usize = std::env::var("LIVE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let commented = file(true);
    let (mut big, mut big_3mb, mut tiny) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..live_runs {
        big.push(live_latency(&original, 10));
        big_3mb.push(live_latency(&commented, 10));
        tiny.push(live_latency("fn main() {}\n", 0));
    }
    println!(
        "previewer on a {LINES}-line file ({} bytes), diff of 20 blocks",
        original.len()
    );
    println!(
        "  re-apply per 64-byte update   median {}  max {}",
        ms(update_med),
        ms(update_max)
    );
    println!(
        "  200x60 frame build+render      median {}  max {} (120 frames, scattered scrolls)",
        ms(frame_med),
        ms(frame_max)
    );
    let latencies: Vec<Duration> = big.iter().filter_map(|r| r.latency).collect();
    match latencies.is_empty() {
        false => println!(
            "  write to DIFF -> frame shown   median {} ({} runs of 10 writes)",
            ms(median(latencies)),
            big.iter().filter(|r| r.latency.is_some()).count()
        ),
        true => println!(
            "  write to DIFF -> frame shown   not measured (no write showed up within 5 s)"
        ),
    }
    println!(
        "\n## Previewer launch and memory, real binary in a 200x60 pty ({live_runs} runs each, interleaved)\n"
    );
    println!(
        "| file | file+diff KiB | launch to first complete frame, median (max) | target | peak RSS `VmHWM` KiB, median (max) | x file+diff, median (max) | target | peak private `RssAnon` KiB, median |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|");
    let full_input = |text: &str| (text.len() + full.len()) as f64 / 1024.0;
    let row = |name: &str, runs: &[Live], input: f64, targets: bool| {
        let frames: Vec<Duration> = runs.iter().filter_map(|r| r.first_frame).collect();
        let totals: Vec<u64> = runs
            .iter()
            .filter_map(|r| r.peak.map(|p| p.total))
            .collect();
        let privates: Vec<u64> = runs
            .iter()
            .filter_map(|r| r.peak.map(|p| p.private))
            .collect();
        let mid = |v: &[u64]| {
            let mut v = v.to_vec();
            v.sort();
            v.get(v.len() / 2).copied().unwrap_or(0)
        };
        let max = |v: &[u64]| v.iter().max().copied().unwrap_or(0);
        let frame = if frames.is_empty() {
            "not shown within 20 s".to_string()
        } else {
            format!(
                "{} ({})",
                ms(median(frames.clone())),
                ms(frames.iter().max().copied().unwrap_or_default())
            )
        };
        println!(
            "| {name} | {input:.0} | {frame} | {} | {} ({}) | {:.2}x ({:.2}x) | {} | {} |",
            if targets { "<= 100 ms" } else { "" },
            mid(&totals),
            max(&totals),
            mid(&totals) as f64 / input,
            max(&totals) as f64 / input,
            if targets { "**<= 3x**" } else { "" },
            mid(&privates),
        );
    };
    row(
        &format!("{LINES} lines, {} bytes", original.len()),
        &big,
        full_input(&original),
        true,
    );
    row(
        &format!("{LINES} lines, {} bytes", commented.len()),
        &big_3mb,
        full_input(&commented),
        true,
    );
    row(
        "1 line (the floor)",
        &tiny,
        full_input("fn main() {}\n"),
        false,
    );
    // The two figures, against their targets.
    let met = |ok: bool| if ok { "met" } else { "NOT met" };
    let frames: Vec<Duration> = big.iter().filter_map(|r| r.first_frame).collect();
    if !frames.is_empty() {
        let m = median(frames);
        println!(
            "\nlaunch to first complete frame, {LINES} lines: median {} (target <= 100 ms): {}",
            ms(m),
            met(m <= Duration::from_millis(100))
        );
    }
    let mut totals: Vec<u64> = big.iter().filter_map(|r| r.peak.map(|p| p.total)).collect();
    totals.sort();
    if let Some(&m) = totals.get(totals.len() / 2) {
        let r = m as f64 / full_input(&original);
        println!(
            "previewer peak RSS / (file + diff), {LINES} lines: median {r:.2}x (target <= 3x): {}",
            met(r <= 3.0)
        );
    }
}

/// Peak memory of a process, in KiB.
#[derive(Clone, Copy)]
struct Peak {
    /// `VmHWM`: resident pages, the executable's and libraries' included.
    total: u64,
    /// Highest `RssAnon` seen while sampling: memory the process allocated.
    private: u64,
}

fn status_kib(pid: u32, field: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Spawns the release binary in a pty and times appends until they show.
/// After the probes a failing block is appended, so the peak includes the
/// diagnosis the previewer runs once the stream pauses.
fn live_latency(original: &str, probes: usize) -> Live {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_srview"));
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("big.rs"), original).expect("write file");
    let diff_path = dir.path().join("edit.diff");
    std::fs::write(&diff_path, diff(10)).expect("write diff");
    let launched = Instant::now();
    let mut session = Session::spawn_in(
        dir.path(),
        &bin.to_string_lossy(),
        &["big.rs", "edit.diff"],
        &pty::Terminal {
            rows: 60,
            cols: 200,
            // The stream would show "paused" after 2 s idle; keep every run alike.
            env: &[("SRVIEW_PAUSE_AFTER_MS", "600000")],
            keep_raw: false,
        },
    );
    let pid = session.child.process_id();
    let sampling = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let sampler = {
        let sampling = Arc::clone(&sampling);
        std::thread::spawn(move || {
            let mut max = 0;
            while sampling.load(std::sync::atomic::Ordering::Relaxed) {
                // Until the exec, the child is a copy of this process.
                let exec_done = pid.is_some_and(|p| {
                    std::fs::read_to_string(format!("/proc/{p}/comm"))
                        .is_ok_and(|c| c.trim() == "srview")
                });
                if let Some(kib) = pid
                    .filter(|_| exec_done)
                    .and_then(|p| status_kib(p, "RssAnon:"))
                {
                    max = max.max(kib);
                }
                std::thread::sleep(Duration::from_millis(1));
            }
            max
        })
    };
    let shows = |needle: &str| session.shows(|s| s.contents().contains(needle));
    let wait = |needle: &str, limit: Duration| {
        let t = Instant::now();
        while !shows(needle) {
            if t.elapsed() > limit {
                return None;
            }
            std::thread::sleep(Duration::from_micros(500));
        }
        Some(t.elapsed())
    };
    // The first complete frame: the file's lines and the 10 blocks applied.
    let first_frame = {
        let complete = |s: &vt100::Screen| {
            let text = s.contents();
            match probes {
                0 => text.contains("fn main"),
                _ => text.contains(" 10 applied ") && text.contains("fn item_"),
            }
        };
        loop {
            if session.shows(complete) {
                break Some(launched.elapsed());
            }
            if launched.elapsed() > Duration::from_secs(20) {
                break None;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
    };
    let mut times = Vec::new();
    for k in 0..probes {
        let token = format!("MARK{k}X");
        // In order after the diff's blocks, so each applies while the
        // stream is open (it never pauses here).
        let text = format!(
            "------- SEARCH\n    let s = \"value {}\";\n=======\n    let s = \"{token}\";\n+++++++ REPLACE\n",
            99_812 + k * 10
        );
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&diff_path)
            .expect("open diff");
        let t = Instant::now();
        f.write_all(text.as_bytes()).expect("append");
        drop(f);
        if wait(&token, Duration::from_secs(5)).is_some() {
            times.push(t.elapsed());
        }
        std::thread::sleep(Duration::from_millis(150));
    }
    let failing = "------- SEARCH\n    let s = \"valu 99\";\n=======\n    let s = \"nope\";\n+++++++ REPLACE\n";
    if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&diff_path) {
        let _ = f.write_all(failing.as_bytes());
    }
    let _ = wait("closest:", Duration::from_secs(5));
    std::thread::sleep(Duration::from_millis(200));
    let total = pid.and_then(|p| status_kib(p, "VmHWM:"));
    sampling.store(false, std::sync::atomic::Ordering::Relaxed);
    let private = sampler.join().unwrap_or(0);
    let peak = total.map(|total| Peak { total, private });
    session.press(b"q");
    let _ = session.child.wait();
    Live {
        latency: (!times.is_empty()).then(|| median(times)),
        peak,
        first_frame,
    }
}

/// What one run of the binary in a pty measured.
struct Live {
    /// Median time from an append to DIFF to the frame that shows it.
    latency: Option<Duration>,
    peak: Option<Peak>,
    /// From spawning the process to the first frame showing the file with
    /// the diff applied.
    first_frame: Option<Duration>,
}
