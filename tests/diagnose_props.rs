//! The diagnosis is never confidently wrong: over generated files and
//! damaged blocks, every suggestion it gives, applied alone, changes only
//! the lines of the region the block was taken from (and the way its author
//! meant), and every region it names is that region.

use proptest::prelude::*;
use srview::diagnose::diagnose;
use srview::engine::{Options, Stage, Version, apply};

mod support;

use support::diff::{block_of_lines, text};

/// Lines every language repeats: they say nothing about where a block goes.
const COMMON: [&str; 9] = ["}", "  }", "    }", "return;", "end", ")", "", "  ],", "fi"];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        2 => prop::sample::select(&COMMON[..]).prop_map(str::to_string),
        3 => "( {0,3})[a-z]{2,7}( [a-z_]{1,8}){1,5}( [(=<&;]|)",
    ]
}

#[derive(Debug, Clone)]
enum Damage {
    /// One character of a line changed.
    Typo { line: usize, at: usize },
    /// Every line indented more.
    Indent(usize),
    /// One inner line left out.
    DropLine(usize),
    /// A line the file does not have, added.
    ExtraLine(usize),
    /// `<`, `&` and quotes written as HTML entities.
    Entities,
    /// Straight quotes and dashes made typographic.
    Lookalikes,
    /// Only part of one line.
    Fragment { line: usize, from: usize, to: usize },
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        (0..8usize, 0..40usize).prop_map(|(line, at)| Damage::Typo { line, at }),
        (1..5usize).prop_map(Damage::Indent),
        (0..8usize).prop_map(Damage::DropLine),
        (0..8usize).prop_map(Damage::ExtraLine),
        Just(Damage::Entities),
        Just(Damage::Lookalikes),
        (0..8usize, 0..40usize, 0..40usize).prop_map(|(line, from, to)| Damage::Fragment {
            line,
            from,
            to
        }),
    ]
}

const REPLACEMENT: &str = "REPLACED_BY_THE_BLOCK";

/// The damaged SEARCH lines and the file its author meant.
fn damaged(file: &[String], s: usize, e: usize, damage: &Damage) -> (Vec<String>, Vec<String>) {
    let mut search: Vec<String> = file[s..e].to_vec();
    let mut want: Vec<String> = file.to_vec();
    want.splice(s..e, [REPLACEMENT.to_string()]);
    let n = search.len();
    match damage {
        Damage::Typo { line, at } => {
            let l = &mut search[line % n];
            let letters: Vec<usize> = l
                .char_indices()
                .filter(|(_, c)| c.is_ascii_lowercase())
                .map(|(i, _)| i)
                .collect();
            if let Some(&i) = letters.get(at % letters.len().max(1)) {
                let c = if l.as_bytes()[i] == b'q' { "x" } else { "q" };
                l.replace_range(i..i + 1, c);
            }
        }
        Damage::Indent(k) => {
            for l in &mut search {
                l.insert_str(0, &" ".repeat(*k));
            }
        }
        // An inner line: without its first or last line a block really
        // is a smaller block.
        Damage::DropLine(k) if n > 2 => {
            search.remove(1 + k % (n - 2));
        }
        Damage::DropLine(_) => {}
        Damage::ExtraLine(k) => search.insert(k % (n + 1), "stale_call(old_value);".into()),
        Damage::Entities => {
            for l in &mut search {
                *l = l
                    .replace('&', "&amp;")
                    .replace('<', "&lt;")
                    .replace('"', "&quot;");
            }
        }
        Damage::Lookalikes => {
            for l in &mut search {
                *l = l.replace('"', "\u{201C}").replace('=', "\u{2014}");
            }
        }
        Damage::Fragment { line, from, to } => {
            let i = line % n;
            let l = &file[s + i];
            let len = l.len();
            // A piece after the line's first word: the start of a line cut
            // short means the whole line (see `check`'s partial-line rule).
            let indent = l.len() - l.trim_start().len();
            if len >= indent + 4 {
                let a = indent + 1 + from % (len - indent - 2);
                let b = (a + 1 + to % (len - a)).min(len - 1).max(a + 1);
                search = vec![l[a..b].to_string()];
                want = file.to_vec();
                want[s + i] = format!("{}{REPLACEMENT}{}", &l[..a], &l[b..]);
                return (search, want);
            }
        }
    }
    (search, want)
}

fn block(search: &[String]) -> String {
    block_of_lines(&text(search), &format!("{REPLACEMENT}\n"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_global_rejects: 1_000_000, ..ProptestConfig::default() })]

    #[test]
    fn suggestions_change_only_the_true_region(
        file in prop::collection::vec(line(), 12..70),
        start in 0usize..1000,
        len in 1usize..6,
        damage in damage(),
    ) {
        let s = start % (file.len() - len);
        let e = s + len;
        let original = text(&file);
        let region = text(&file[s..e]);
        // The block's source must be one place: a copy elsewhere would be
        // as true as this one.
        prop_assume!(original.matches(region.as_str()).count() == 1);
        let (search, want) = damaged(&file, s, e, &damage);
        // A fragment of three characters or fewer (`f i`) names no line:
        // another line holds as much of it (`fi`), and the closest region
        // is a guess either way.
        prop_assume!(
            !matches!(damage, Damage::Fragment { .. })
                || search.len() != 1
                || search[0].trim().chars().count() > 3
        );
        let diff = block(&search);
        let options = Options { version: Version::V1, is_final: true };
        // Only blocks the reference cannot apply: a damaged block that still
        // matches somewhere is the engine's business, not a suggestion's.
        prop_assume!(apply(&diff, &original, options).result.is_err());
        let d = &diagnose(&diff, &original, options)[0];
        if let Some(c) = d.closest {
            // Fragments name the line they come from, the rest the block's lines.
            let (a, b) = match &damage {
                Damage::Fragment { .. } if search.len() == 1 && search[0].len() < file[s..e].iter().map(String::len).max().unwrap_or(0) => {
                    let i = (s..e).find(|&i| file[i].contains(&search[0])).unwrap_or(s);
                    (i + 1, i + 1)
                }
                _ => (s + 1, e),
            };
            prop_assert!(
                c.start_line <= b && c.end_line >= a,
                "region {c:?} does not touch the true lines {a}-{b}\n{diff}\n{}", d.message
            );
        }
        if let Some(suggestion) = &d.suggestion {
            let want = text(&want);
            for version in [Version::V1, Version::V2] {
                let out = apply(suggestion, &original, Options { version, is_final: true });
                let got = out.result.as_ref().map(|a| a.new_content.as_str());
                prop_assert_eq!(got, Ok(want.as_str()), "{}\n{}\n{}", diff, suggestion, d.message);
                prop_assert_eq!(out.blocks[0].stage, Some(Stage::Exact));
            }
        }
    }
}
