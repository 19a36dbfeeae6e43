//! Streaming an apply_patch: any prefix of a patch (corpus patches and
//! random mutations of them) parses without panicking and without an error
//! when it is merely unfinished; a complete text gives exactly the one-shot
//! parse and apply.

mod apply_patch_corpus;

mod support;

use std::sync::OnceLock;

use proptest::prelude::*;
use srview::dialect::apply_patch::{
    MemoryFs, PatchOutcome, apply_partial, apply_text, parse, parse_partial,
};
use support::rng::one_of;

use apply_patch_corpus::Record;

const CWD: &str = "/w";

fn corpus() -> &'static [Record] {
    static RECORDS: OnceLock<Vec<Record>> = OnceLock::new();
    RECORDS.get_or_init(apply_patch_corpus::records)
}

fn memory_fs(record: &Record) -> MemoryFs {
    MemoryFs::new(record.files.clone())
}

/// The largest char boundary of `text` at or below `at`.
fn boundary(text: &str, at: usize) -> usize {
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Every field the reference has, and every report.
fn same_outcome(streamed: &PatchOutcome, one_shot: &PatchOutcome) -> bool {
    streamed == one_shot
}

/// A complete text: the streaming parser ends where the one-shot one does,
/// with the same sections, and applying them gives the same outcome.
fn check_complete(text: &str, fs: &MemoryFs) -> Result<(), TestCaseError> {
    let partial = parse_partial(text);
    let one_shot = apply_text(text, fs, CWD);
    if let Ok(patch) = parse(text) {
        prop_assert!(partial.ended, "an accepted patch reached its End line");
        prop_assert_eq!(&partial.error, &None);
        prop_assert!(!partial.last_unfinished);
        prop_assert_eq!(&partial.sections, &patch.sections);
        let streamed = apply_partial(&partial, fs, CWD);
        prop_assert!(same_outcome(&streamed, &one_shot));
    }
    Ok(())
}

/// A prefix of `full`, which the reference accepts: never an error, and
/// every section but the last is already final.
fn check_prefix_of_valid(prefix: &str, full: &str, fs: &MemoryFs) -> Result<(), TestCaseError> {
    let partial = parse_partial(prefix);
    let _ = apply_partial(&partial, fs, CWD);
    if let Ok(patch) = parse(full) {
        prop_assert_eq!(&partial.error, &None, "an unfinished text is no error");
        let known = partial.sections.len();
        prop_assert!(known <= patch.sections.len());
        if known > 0 {
            prop_assert_eq!(&partial.sections[..known - 1], &patch.sections[..known - 1]);
        }
        if partial.ended {
            prop_assert_eq!(&partial.sections, &patch.sections);
        }
    }
    Ok(())
}

#[test]
fn every_complete_corpus_patch_streams_to_the_one_shot_result() {
    for record in corpus() {
        let fs = memory_fs(record);
        if let Err(error) = check_complete(&record.patch, &fs) {
            panic!("{}: {error}", record.id);
        }
    }
}

#[test]
fn a_streamed_hunk_is_reported_as_streaming_until_its_section_ends() {
    let text = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+2\n";
    let fs = MemoryFs::new([("a.txt".to_string(), "one\ntwo\nthree\n".to_string())]);
    let partial = parse_partial(text);
    assert!(partial.last_unfinished && !partial.ended && partial.error.is_none());
    let outcome = apply_partial(&partial, &fs, CWD);
    let hunk = &outcome.sections[0].hunks[0];
    assert_eq!(
        hunk.state,
        srview::dialect::apply_patch::HunkState::Streaming
    );
    assert_eq!(outcome.files["a.txt"].as_deref(), Some("one\n2\nthree\n"));
    let done = parse_partial(&format!("{text}*** End Patch"));
    assert!(done.ended && !done.last_unfinished);
    let outcome = apply_partial(&done, &fs, CWD);
    assert_eq!(
        outcome.sections[0].hunks[0].state,
        srview::dialect::apply_patch::HunkState::Applied
    );
    assert_eq!(
        outcome.stdout,
        "Success. Updated the following files:\nM a.txt\n"
    );
}

/// A line mutation of the kinds the corpus's parser_fuzz uses.
#[derive(Debug, Clone)]
enum Mutation {
    Insert(usize, &'static str),
    Drop(usize),
    Duplicate(usize),
    Reprefix(usize, char),
    Pad(usize, &'static str, bool),
}

const MARKERS: [&str; 14] = [
    "*** End of File",
    "@@",
    "@@ def",
    "*** End Patch",
    "*** Begin Patch",
    "*** Move to: moved.txt",
    "*** Add File: new.txt",
    "*** Delete File: gone.txt",
    "+",
    "-",
    "",
    " ",
    "\r",
    "<<'EOF'",
];
const PADS: [&str; 5] = [" ", "\t", "\r", "\u{a0}", "\u{2003}"];
const PREFIXES: [char; 6] = [' ', '+', '-', '@', '*', '\u{a0}'];

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), prop::sample::select(&MARKERS[..]))
            .prop_map(|(i, m)| Mutation::Insert(i, m)),
        any::<usize>().prop_map(Mutation::Drop),
        any::<usize>().prop_map(Mutation::Duplicate),
        (any::<usize>(), prop::sample::select(&PREFIXES[..]))
            .prop_map(|(i, c)| Mutation::Reprefix(i, c)),
        (
            any::<usize>(),
            prop::sample::select(&PADS[..]),
            any::<bool>()
        )
            .prop_map(|(i, p, front)| Mutation::Pad(i, p, front)),
    ]
}

fn mutate(text: &str, mutations: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for mutation in mutations {
        let len = lines.len();
        match mutation {
            Mutation::Insert(i, marker) => lines.insert(i % (len + 1), marker.to_string()),
            Mutation::Drop(i) if len > 0 => {
                lines.remove(i % len);
            }
            Mutation::Duplicate(i) if len > 0 => {
                let line = lines[i % len].clone();
                lines.insert(i % len, line);
            }
            Mutation::Reprefix(i, c) if len > 0 => {
                let line = &mut lines[i % len];
                let rest: String = line.chars().skip(1).collect();
                *line = format!("{c}{rest}");
            }
            Mutation::Pad(i, pad, front) if len > 0 => {
                let line = &mut lines[i % len];
                if *front {
                    line.insert_str(0, pad);
                } else {
                    line.push_str(pad);
                }
            }
            _ => {}
        }
    }
    lines.join("\n")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_prefix_of_a_corpus_patch_streams_without_error(
        index in 0..1000usize,
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let record = &corpus()[index % corpus().len()];
        let fs = memory_fs(record);
        for cut in cuts {
            let at = boundary(&record.patch, cut.index(record.patch.len() + 1));
            check_prefix_of_valid(&record.patch[..at], &record.patch, &fs)?;
        }
    }

    #[test]
    fn mutated_patches_and_their_prefixes_never_panic(
        index in 0..1000usize,
        mutations in prop::collection::vec(mutation(), 1..4),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 1..6),
    ) {
        let record = &corpus()[index % corpus().len()];
        let fs = memory_fs(record);
        let text = mutate(&record.patch, &mutations);
        check_complete(&text, &fs)?;
        for cut in cuts {
            let at = boundary(&text, cut.index(text.len() + 1));
            check_prefix_of_valid(&text[..at], &text, &fs)?;
        }
    }
}

/// A line of a random patch, from the format's vocabulary.
fn patch_line() -> impl Strategy<Value = String> {
    // Weighted by count: each fixed line as likely as each other arm.
    prop_oneof![
        5 => one_of(&["*** Begin Patch", "*** End Patch", "*** End of File", "<<'EOF'", "EOF"]),
        1 => "\\*\\*\\* (Add|Update|Delete) File: (a|b|c|c/d|\\./a|a/\\.\\./b)",
        1 => "\\*\\*\\* Move to: (a|b|c/e)",
        1 => "@@( [a-c\u{2013} ]{0,4})?",
        1 => "[ +\\-]?[a-c \t\u{2013}\u{a0}\r]{0,5}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_text_of_patch_lines_never_panics_and_streams_to_its_parse(
        lines in prop::collection::vec(patch_line(), 0..14),
        crlf in any::<bool>(),
        wrap in any::<bool>(),
        files in prop::collection::vec("[a-c \t\u{2013}]{0,4}(\n|\r\n|\r)?", 0..6),
        cuts in prop::collection::vec(any::<prop::sample::Index>(), 1..4),
    ) {
        let newline = if crlf { "\r\n" } else { "\n" };
        let mut text = lines.join(newline);
        if wrap {
            text = format!("*** Begin Patch{newline}{text}{newline}*** End Patch{newline}");
        }
        let content: String = files.concat();
        let fs = MemoryFs::new([
            ("a".to_string(), content.clone()),
            ("c/d".to_string(), content),
        ]);
        check_complete(&text, &fs)?;
        for cut in cuts {
            let at = boundary(&text, cut.index(text.len() + 1));
            let partial = parse_partial(&text[..at]);
            let _ = apply_partial(&partial, &fs, CWD);
        }
    }
}
