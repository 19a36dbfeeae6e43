//! Rendering a patch back to text, and tightening its loose lines: over the
//! whole corpus, a rendered patch parses back to itself, and a tightened
//! one gives the reference's result with every hunk at level `exact`.

mod apply_patch_corpus;

use srview::dialect::apply_patch::{
    MatchLevel, MemoryFs, Patch, Section, apply, apply_text, parse, render, tighten,
};

/// The patch with its patch-line numbers zeroed (rendering renumbers).
fn without_line_numbers(mut patch: Patch) -> Patch {
    for section in &mut patch.sections {
        match section {
            Section::Add { header_line, .. } | Section::Delete { header_line, .. } => {
                *header_line = 0
            }
            Section::Update {
                header_line,
                chunks,
                ..
            } => {
                *header_line = 0;
                for chunk in chunks {
                    // Rendering gives every chunk an `@@` line.
                    chunk.header_line = Some(0);
                    for line in &mut chunk.lines {
                        line.patch_line = 0;
                    }
                }
            }
        }
    }
    patch
}

#[test]
fn a_rendered_patch_parses_back_to_itself() {
    let mut rendered = 0;
    for record in apply_patch_corpus::records() {
        let Ok(patch) = parse(&record.patch) else {
            continue;
        };
        let text = render(&patch);
        let again = parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", record.id));
        assert_eq!(
            without_line_numbers(again),
            without_line_numbers(patch),
            "{}",
            record.id
        );
        rendered += 1;
    }
    assert!(rendered > 700);
}

#[test]
fn a_tightened_patch_matches_exactly_with_the_reference_s_result() {
    let mut loose_records = 0;
    for record in apply_patch_corpus::records() {
        let fs = MemoryFs::new(record.files.clone());
        let Ok(patch) = parse(&record.patch) else {
            continue;
        };
        let outcome = apply(&patch, &fs, "/w");
        if outcome.exit_code != 0 {
            continue;
        }
        if outcome.loose_hunks().next().is_some() {
            loose_records += 1;
        }
        let text = render(&tighten(&patch, &outcome));
        let exact = apply_text(&text, &fs, "/w");
        assert_eq!(exact.files, outcome.files, "{}", record.id);
        assert_eq!(exact.stdout, outcome.stdout, "{}", record.id);
        for (section, hunk) in exact
            .sections
            .iter()
            .flat_map(|s| s.hunks.iter().map(move |h| (s, h)))
        {
            assert!(
                matches!(hunk.level, None | Some(MatchLevel::Exact)) && hunk.differing.is_empty(),
                "{}: {} hunk {} is still {:?}",
                record.id,
                section.path,
                hunk.index,
                hunk.level
            );
            if let Some(header) = &hunk.header {
                let trailing_space = header
                    .differing
                    .as_ref()
                    .is_some_and(|l| l.file.trim_end() != l.file);
                assert!(
                    header.level == MatchLevel::Exact || trailing_space,
                    "{}",
                    record.id
                );
            }
        }
    }
    assert!(
        loose_records > 50,
        "the corpus has loose matches: {loose_records}"
    );
}
