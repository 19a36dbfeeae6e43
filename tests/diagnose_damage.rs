//! Generated files with known damage at known lines: the diagnosis must find
//! the true lines and name the injected reason; suggestions must apply with
//! the exact stage. Prints per-reason accuracy (see docs/diagnose.md).

use std::collections::BTreeMap;

use srview::diagnose::{Reason, diagnose};
use srview::engine::{Options, Stage, Version, apply};

/// Tiny deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

const WORDS: [&str; 12] = [
    "alpha", "budget", "cursor", "delta", "engine", "filter", "gamma", "handle", "index", "joiner",
    "kernel", "ledger",
];

/// A source-like file: unique statements with quotes, dashes and `<`/`&&`,
/// plus braces and blank lines that repeat.
fn gen_file(rng: &mut Rng, lines: usize) -> Vec<String> {
    (0..lines)
        .map(|i| {
            let w = WORDS[rng.below(WORDS.len())];
            let v = WORDS[rng.below(WORDS.len())];
            match i % 9 {
                0 => format!("fn {w}_{i}(input: &str) -> Option<{v}> {{"),
                1 => format!("    let {w}_{i} = \"{v}-{i}\";"),
                2 => format!("    if {w}_{i} < limit && {v} > 0 {{"),
                3 => format!("        log('{w} {i} - {v}');"),
                4 => "    }".to_string(),
                5 => format!("    // {w} handles the {v} case number {i} and more words here"),
                6 => format!("    {v}.push({w}_{i}.clone());"),
                7 => "}".to_string(),
                _ => String::new(),
            }
        })
        .collect()
}

fn text(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn block(search: &[String], replace: &str) -> String {
    format!(
        "------- SEARCH\n{}=======\n{replace}+++++++ REPLACE\n",
        text(search)
    )
}

struct Case {
    original: String,
    diff: String,
    /// 1-based true lines of the damaged block.
    lines: Option<(usize, usize)>,
    /// Which block of the diff carries the damage.
    block: usize,
}

/// Picks a block of 3-6 lines whose first and last lines are unique statements.
fn pick(rng: &mut Rng, file: &[String]) -> (usize, usize) {
    loop {
        let start = 20 + rng.below(file.len() - 40);
        let len = 3 + rng.below(4);
        let unique = |l: &String| file.iter().filter(|x| *x == l).count() == 1;
        if unique(&file[start]) && unique(&file[start + len - 1]) {
            return (start, start + len);
        }
    }
}

fn make(reason: Reason, rng: &mut Rng) -> Case {
    let mut file = gen_file(rng, 300);
    let (s, e) = pick(rng, &file);
    let mut search: Vec<String> = file[s..e].to_vec();
    let replace = "    replaced();\n";
    let mut lines = Some((s + 1, e));
    let mut block_no = 0;
    let first_stmt = (0..search.len())
        .find(|&j| search[j].len() > 8)
        .unwrap_or(0);
    let diff = match reason {
        Reason::Whitespace => {
            for l in &mut search {
                *l = if rng.below(2) == 0 {
                    format!("  {l}")
                } else {
                    l.replacen(' ', "  ", 5)
                };
            }
            block(&search, replace)
        }
        Reason::Edited => {
            let l = &mut search[first_stmt];
            let at = l.len() / 2;
            l.replace_range(at..at + 1, "Q");
            if rng.below(2) == 0 {
                // A stale version: the model remembers a line that is gone.
                search.insert(1, "    let stale = old_value();".into());
            }
            block(&search, replace)
        }
        Reason::HtmlEntities => {
            let (s, e) = (s - s % 9 + 2, s - s % 9 + 6);
            lines = Some((s + 1, e));
            let search: Vec<String> = file[s..e]
                .iter()
                .map(|l| {
                    l.replace('<', "&lt;")
                        .replace('>', "&gt;")
                        .replace('"', "&quot;")
                })
                .collect();
            block(&search, replace)
        }
        Reason::UnicodeLookalike => {
            let (s, e) = (s - s % 9 + 1, s - s % 9 + 4);
            lines = Some((s + 1, e));
            let search: Vec<String> = file[s..e]
                .iter()
                .map(|l| match rng.below(3) {
                    0 => l.replace('"', "\u{201C}").replace('\'', "\u{2019}"),
                    1 => l.replace(" - ", " \u{2014} ").replace('-', "\u{2013}"),
                    _ => l.replacen(' ', "\u{00A0}", 6).replacen('=', "\u{200B}=", 1),
                })
                .collect();
            block(&search, replace)
        }
        Reason::LineEndings => {
            if rng.below(2) == 0 {
                block(&search, replace).replace('\n', "\r\n")
            } else {
                file.iter_mut().for_each(|l| l.push('\r'));
                block(
                    &search
                        .iter()
                        .map(|l| l.trim_end_matches('\r').to_string())
                        .collect::<Vec<_>>(),
                    replace,
                )
            }
        }
        Reason::PartialLine => {
            let i = s - s % 9 + 5;
            lines = Some((i + 1, i + 1));
            let l = &file[i];
            let cut = &l[8..l.len() - 6];
            block(&[cut.to_string()], replace)
        }
        Reason::MarkerTypo => {
            let b = block(&search, replace);
            match rng.below(4) {
                0 => b.replace("------- SEARCH", "-------SEARCH"),
                1 => b.replace("=======\n", "======= \n"),
                2 => b.replace("+++++++ REPLACE", "++++ REPLACE "),
                _ => b.replace("=======\n", "=======>\n"),
            }
        }
        Reason::OutOfOrder => {
            // A later block whose first line is unique, so it matches there.
            let unique = |i: usize| file.iter().filter(|x| **x == file[i]).count() == 1;
            let later = (e + 1..file.len() - 2)
                .rev()
                .find(|&i| unique(i))
                .expect("a unique later line");
            block_no = 1;
            block(&file[later..later + 2], replace) + &block(&search, replace)
        }
        Reason::Ambiguous => {
            let copy: Vec<String> = file[s..e].to_vec();
            let at = (e + 20).min(file.len());
            file.splice(at..at, copy);
            block(&search, replace)
        }
        Reason::Structure => block(&search, replace).replace("=======\n", ""),
        Reason::EmptySearch => {
            lines = None;
            block(&[], replace)
        }
        Reason::DroppedLastLine => format!(
            "------- SEARCH\n{}=======\n    replaced();\n- item",
            text(&search)
        ),
        Reason::NotFound => {
            lines = None;
            block(
                &["zzqx wvvk".to_string(), "ppqj 8893 yyx".to_string()],
                replace,
            )
        }
    };
    Case {
        original: text(&file),
        diff,
        lines,
        block: block_no,
    }
}

#[test]
fn each_reason_is_found_at_the_true_lines() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let per_reason = 25;
    let mut table: BTreeMap<&str, (usize, usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for reason in Reason::ALL {
        for n in 0..per_reason {
            let case = make(reason, &mut rng);
            let diags = diagnose(&case.diff, &case.original, Options::default());
            let d = &diags[case.block.min(diags.len() - 1)];
            let reason_ok = d.reason == Some(reason);
            let covered = match (case.lines, d.closest) {
                (Some((a, b)), Some(c)) => c.start_line <= a && c.end_line >= b,
                (None, _) => true,
                (Some(_), None) => false,
            };
            let entry = table.entry(reason.code()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(reason_ok);
            entry.2 += usize::from(covered);
            if !(reason_ok && covered) && failures.len() < 12 {
                failures.push(format!(
                    "{} #{n}: got {:?} at {:?}, want lines {:?}\n{}",
                    reason.code(),
                    d.reason,
                    d.closest,
                    case.lines,
                    d.message
                ));
            }
        }
    }
    println!("reason               cases  reason-ok  region-ok");
    let mut worst = 1.0f64;
    for (code, (total, ok, covered)) in &table {
        println!("{code:<20} {total:>5} {ok:>10} {covered:>10}");
        worst = worst
            .min(*ok as f64 / *total as f64)
            .min(*covered as f64 / *total as f64);
    }
    for f in &failures {
        println!("MISS {f}");
    }
    assert!(worst >= 0.9, "some reason is below 90% accuracy");
}

#[test]
fn suggestions_apply_with_the_exact_stage() {
    let mut rng = Rng(42);
    let mut checked = 0;
    for reason in [
        Reason::Whitespace,
        Reason::Edited,
        Reason::HtmlEntities,
        Reason::UnicodeLookalike,
        Reason::PartialLine,
        Reason::MarkerTypo,
        Reason::Ambiguous,
        Reason::Structure,
    ] {
        for _ in 0..15 {
            let case = make(reason, &mut rng);
            for d in diagnose(&case.diff, &case.original, Options::default()) {
                let Some(block) = d.suggestion else { continue };
                for version in [Version::V1, Version::V2] {
                    let out = apply(
                        &block,
                        &case.original,
                        Options {
                            version,
                            is_final: true,
                        },
                    );
                    assert!(out.result.is_ok(), "{block}");
                    assert_eq!(out.blocks[0].stage, Some(Stage::Exact), "{block}");
                    let span = out.blocks[0].original.expect("matched");
                    let c = d.closest.expect("a suggestion has a region");
                    assert!(span.start_line <= c.start_line && span.end_line >= c.end_line);
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 100, "only {checked} suggestions checked");
}
