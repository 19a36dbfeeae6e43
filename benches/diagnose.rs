//! Diagnosis latency on a 100k-line file, one failing block near the end.
//! `cargo bench --bench diagnose` prints the median per damage kind.

use std::time::{Duration, Instant};

use srview::diagnose::diagnose;
use srview::engine::Options;

#[allow(dead_code)]
#[path = "../tests/support/diff.rs"]
mod diff_text;

const LINES: usize = 100_000;
const RUNS: usize = 15;

fn file() -> String {
    (0..LINES)
        .map(|i| match i % 6 {
            0 => format!("fn handler_{i}(input: &str) -> Result<u32, Error> {{\n"),
            1 => format!("    let value_{i} = compute(input, {i}).map_err(wrap)?;\n"),
            2 => format!("    if value_{i} < LIMIT && ready {{ log(\"value {i}\"); }}\n"),
            3 => "    Ok(0)\n".to_string(),
            4 => "}\n".to_string(),
            _ => "\n".to_string(),
        })
        .collect()
}

fn block(search: &str) -> String {
    diff_text::block_of_lines(search, "    replaced();\n")
}

fn median(original: &str, diff: &str) -> (Duration, String) {
    let mut times = Vec::with_capacity(RUNS);
    let mut reason = String::new();
    for _ in 0..RUNS {
        let t = Instant::now();
        let d = diagnose(diff, original, Options::default());
        times.push(t.elapsed());
        reason = d
            .first()
            .and_then(|b| b.reason)
            .map_or("none".into(), |r| r.code().to_string());
    }
    times.sort();
    (times[RUNS / 2], reason)
}

fn main() {
    let original = file();
    // A multiple of 6: the block starts at a `fn` line.
    let at = LINES - 604;
    let lines: Vec<&str> = original.lines().skip(at).take(4).collect();
    let typo = format!(
        "{}\n{}\n{}\n",
        lines[0],
        lines[1].replace("compute", "compote"),
        lines[2]
    );
    let indent = format!("{}\n  {}\n", lines[1].replace("    ", "\t"), lines[2]);
    let entities = format!("{}\n", lines[2].replace('<', "&lt;").replace('"', "&quot;"));
    let single_typo = format!("{}\n", lines[1].replace("value_", "valeu_"));
    let unrelated = "completely unrelated text\nthat is nowhere in the file\n".to_string();
    println!("diagnose, {LINES}-line file, failing block near the end, median of {RUNS}:");
    for (name, search) in [
        ("edited (typo, 3 lines)", typo),
        ("whitespace (tabs)", indent),
        ("html-entities", entities),
        ("edited (typo, 1 line)", single_typo),
        ("not-found", unrelated),
    ] {
        let (t, reason) = median(&original, &block(&search));
        println!(
            "  {name:<26} {:>8.2} ms  reason={reason}",
            t.as_secs_f64() * 1e3
        );
    }
    many_blocks(&original);
}

/// `check` (the diagnosis of every block) and `fix` of a diff of 10,000
/// exact blocks, each one line of the file, against one apply of it
/// (issue 28's target: at most 25 times one apply).
fn many_blocks(original: &str) {
    const BLOCKS: usize = 10_000;
    let lines: Vec<&str> = original.lines().collect();
    let diff: String = (0..BLOCKS)
        .map(|b| {
            let line = lines[b * 6 + 1];
            diff_text::block_of_lines(
                &format!("{line}\n"),
                &format!("{}\n", line.replace("compute", "compute2")),
            )
        })
        .collect();
    let time = |f: &dyn Fn()| {
        let mut times: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed()
            })
            .collect();
        times.sort();
        times[2]
    };
    let options = Options::default();
    let apply = time(&|| {
        let out = srview::engine::apply(&diff, original, options);
        assert!(out.result.is_ok());
    });
    let check = time(&|| {
        let index = srview::engine::matcher::LineIndex::new(original);
        let outcome = srview::engine::apply_indexed(&diff, &index, options);
        let d = srview::diagnose::diagnose_indexed(&diff, &index, options, &outcome);
        assert_eq!(d.len(), BLOCKS);
    });
    let fix = time(&|| {
        let fixed = srview::diagnose::fix::fix(&diff, original, options);
        assert!(fixed.notes.is_empty());
    });
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("{BLOCKS} exact blocks, {LINES}-line file, median of 5:");
    println!("  apply {:>9.2} ms", ms(apply));
    for (name, t) in [("check", check), ("fix", fix)] {
        println!(
            "  {name:<5} {:>9.2} ms  {:>5.1}x one apply (target: at most 25x)",
            ms(t),
            ms(t) / ms(apply)
        );
    }
}
