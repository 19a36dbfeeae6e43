//! Streaming against Codex's own streaming view: `codex app-server` with
//! apply_patch streaming events sends `item/fileChange/patchUpdated`
//! notifications while the model writes the patch, each showing the file
//! changes parsed so far (per path; an Update as its chunks' `@@` lines
//! and old lines as `-`, new lines as `+`; an Add as its content). Every
//! recorded notification must be what `parse_partial` makes of some prefix
//! of the final patch that ends at a line break, and in the same order.

use serde::Deserialize;
use srview::dialect::apply_patch::{PartialPatch, Section, parse, parse_partial};

#[derive(Deserialize)]
struct Capture {
    capture: String,
    patch: String,
    updates: Vec<Vec<Change>>,
}

#[derive(Deserialize, Debug, PartialEq, Eq, Clone)]
struct Change {
    path: String,
    kind: String,
    diff: String,
}

/// Codex's view of the sections known so far.
fn codex_view(partial: &PartialPatch) -> Vec<Change> {
    let mut changes: Vec<Change> = partial
        .sections
        .iter()
        .map(|section| match section {
            Section::Add { path, content, .. } => Change {
                path: path.clone(),
                kind: "add".to_string(),
                diff: content.clone(),
            },
            Section::Delete { path, .. } => Change {
                path: path.clone(),
                kind: "delete".to_string(),
                diff: String::new(),
            },
            Section::Update { path, chunks, .. } => {
                let mut diff = String::new();
                for chunk in chunks {
                    match &chunk.context {
                        Some(context) => diff.push_str(&format!("@@ {context}\n")),
                        None => diff.push_str("@@\n"),
                    }
                    for old in chunk.old_lines() {
                        diff.push_str(&format!("-{old}\n"));
                    }
                    for new in chunk.new_lines() {
                        diff.push_str(&format!("+{new}\n"));
                    }
                }
                Change {
                    path: path.clone(),
                    kind: "update".to_string(),
                    diff,
                }
            }
        })
        .collect();
    changes.sort_by(|a, b| a.path.cmp(&b.path));
    changes
}

#[test]
fn every_codex_streaming_update_is_a_prefix_s_partial_parse() {
    let captures: Vec<Capture> =
        serde_json::from_str(include_str!("fixtures/apply_patch_codex_streaming.json"))
            .expect("the streaming fixture is JSON");
    assert_eq!(captures.len(), 3);
    for capture in &captures {
        let line_ends: Vec<usize> = capture
            .patch
            .match_indices('\n')
            .map(|(i, _)| i + 1)
            .collect();
        let views: Vec<Vec<Change>> = line_ends
            .iter()
            .map(|&end| codex_view(&parse_partial(&capture.patch[..end])))
            .collect();
        // Each update is the view of a prefix no shorter than the last one's.
        let mut from = 0;
        for (n, update) in capture.updates.iter().enumerate() {
            let found = (from..views.len()).find(|&i| &views[i] == update);
            let Some(at) = found else {
                panic!(
                    "{}: update {n} is no prefix's view: {update:?}\nviews: {views:#?}",
                    capture.capture
                );
            };
            from = at;
        }
        let full = parse_partial(&capture.patch);
        assert!(full.ended, "{}", capture.capture);
        let one_shot = parse(&capture.patch).expect("the recorded patch is valid");
        assert_eq!(full.sections, one_shot.sections, "{}", capture.capture);
    }
}
