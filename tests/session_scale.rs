//! No size caps: 200k-line files and 1 MB lines apply exactly as a naive,
//! obviously-correct transcription of the reference's matching says, both
//! through `apply` and streamed through a session.

use srview::engine::session::Session;
use srview::engine::{Options, Stage, Version, apply};

mod support;

use support::diff::{block_of_lines, text as joined};
use support::oracle::naive_apply;

fn diff_of(blocks: &[(String, String)]) -> String {
    blocks.iter().map(|(s, r)| block_of_lines(s, r)).collect()
}

/// Engine and session (fed in `chunk`-byte pieces) against the naive result.
fn check(original: &str, blocks: &[(String, String)], want_stages: &[Stage], chunk: usize) {
    let (want, stages) = naive_apply(original, blocks);
    assert_eq!(
        stages, want_stages,
        "the naive matcher takes the intended path"
    );
    let diff = diff_of(blocks);
    let out = apply(&diff, original, Options::default());
    let got: Vec<Option<Stage>> = out.blocks.iter().map(|b| b.stage).collect();
    assert_eq!(
        got,
        want_stages.iter().copied().map(Some).collect::<Vec<_>>()
    );
    assert!(
        out.result.as_ref().is_ok_and(|a| a.new_content == want),
        "apply differs"
    );
    let mut session = Session::new(original, Version::V1);
    let mut at = 0;
    while at < diff.len() {
        let mut end = (at + chunk).min(diff.len());
        while !diff.is_char_boundary(end) {
            end += 1;
        }
        session.push(&diff[at..end]);
        // Cheap per update even at this size: no content is built.
        assert!(session.summary(false).result.is_ok());
        at = end;
    }
    assert_eq!(session.outcome(true), out);
    let partial = apply(
        &diff,
        original,
        Options {
            version: Version::V1,
            is_final: false,
        },
    );
    assert_eq!(session.outcome(false), partial);
}

fn big_file(lines: usize) -> Vec<String> {
    (0..lines)
        .map(|i| {
            if i % 3 == 0 {
                "    }".to_string()
            } else {
                format!("    let v{i} = {};", i % 7)
            }
        })
        .collect()
}

#[test]
fn two_hundred_thousand_lines() {
    let lines = big_file(200_000);
    let original = joined(&lines);
    let exact = (joined(&lines[1_000..1_004]), "    exact();\n".to_string());
    // Re-indented: only the line-trimmed stage finds it, near the end.
    let trimmed: String = lines[199_000..199_005]
        .iter()
        .map(|l| format!("{}\n", l.trim()))
        .collect();
    // First and last line right, middle wrong: block-anchor.
    let mut anchor = lines[199_500..199_504].to_vec();
    anchor[1] = "something else".into();
    let blocks = vec![
        exact,
        (trimmed, "trimmed();\n".into()),
        (joined(&anchor), String::new()),
    ];
    check(
        &original,
        &blocks,
        &[Stage::Exact, Stage::LineTrimmed, Stage::BlockAnchor],
        4096,
    );
}

#[test]
fn one_megabyte_lines() {
    let long = |c: char| c.to_string().repeat(1 << 20);
    let lines = vec![
        long('a'),
        long('b'),
        format!("\t{}", long('c')),
        long('d'),
        long('e'),
    ];
    let original = joined(&lines);
    let blocks = vec![
        (format!("{}\n", lines[1]), format!("{}\n", long('B'))),
        // Indentation and trailing blanks differ: line-trimmed on 1 MB lines.
        (format!("{}  \n{}\n", long('c'), lines[3]), "cd\n".into()),
    ];
    check(
        &original,
        &blocks,
        &[Stage::Exact, Stage::LineTrimmed],
        64 * 1024,
    );
}
