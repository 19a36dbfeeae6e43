//! An apply_patch in the multi-file previewer: a tab per file, each hunk a
//! block placed where the reference matched it, a loose match marked on its
//! tab with the lines that differ, streaming prefixes that end as the
//! one-shot apply, and accept refused while a file fails.

mod apply_patch_corpus;

use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srview::app::workspace::{Workspace, WsEffect};
use srview::dialect::apply_patch::{MemoryFs, PatchFs};
use srview::engine::Version;
use srview::source::patch_preview::{PatchPreview, preview};
use srview::source::transcript::{self, ApplyOptions, FileState};

const CALC: &str = "import math\n\n\ndef span(lo: float, hi: float) -> float:\n    \"\"\"Width of the range [lo, hi] – never negative.\"\"\"\n    return hi - lo\n\n\ndef mean(values: list[float]) -> float:\n    return sum(values) / len(values)\n";
const PATCH: &str = include_str!("../assets/demo/calc.patch");
const NOTES: &str = "a\nb\n";

fn fs() -> MemoryFs {
    MemoryFs::new([
        ("calc.py".to_string(), CALC.to_string()),
        ("notes.txt".to_string(), NOTES.to_string()),
    ])
}

fn feed(ws: &mut Workspace, text: &str, ended: bool) -> PatchPreview {
    let fs = fs();
    let patch = preview(text, &fs, "/w", ended);
    let load = |p: &str| -> Result<Option<String>, String> {
        Ok(
            match fs.read(&srview::dialect::apply_patch::fs::normalize(p)) {
                srview::dialect::apply_patch::Entry::File(t) => Some(t),
                _ => None,
            },
        )
    };
    let edits = transcript::apply_calls(&patch.calls, load, ApplyOptions::default());
    ws.update_patch(&patch, edits, text.len(), ended);
    patch
}

fn key(ws: &mut Workspace, c: char) -> WsEffect {
    ws.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

#[test]
fn a_loose_hunk_is_shown_applied_and_marked_on_its_tab() {
    let mut ws = Workspace::new(Version::V1, false);
    let patch = feed(&mut ws, PATCH, true);
    let expected = patch.outcome.files["calc.py"].clone().expect("applied");
    assert_eq!(ws.tabs.len(), 1);
    let tab = &ws.tabs[0];
    assert_eq!(tab.path, "calc.py");
    assert_eq!(tab.state, FileState::Applied);
    assert_eq!(tab.app.result.text(), expected, "the reference's result");
    let notice = tab.app.notice.as_ref().expect("the loose match is marked");
    assert!(notice.text.contains("level unicode"), "{}", notice.text);
    assert!(
        notice.text.contains("[lo, hi] – never"),
        "the file's line: {}",
        notice.text
    );
    assert!(
        notice.text.contains("[lo, hi] - never"),
        "the patch's line: {}",
        notice.text
    );
    assert!(matches!(key(&mut ws, 'A'), WsEffect::Write(ref i) if i == &[0]));
}

#[test]
fn every_streamed_prefix_ends_as_the_one_shot_apply() {
    let mut one_shot = Workspace::new(Version::V1, false);
    feed(&mut one_shot, PATCH, true);
    let mut ws = Workspace::new(Version::V1, false);
    let mut saw_streaming = false;
    for end in (0..=PATCH.len()).filter(|&i| PATCH.is_char_boundary(i)) {
        feed(&mut ws, &PATCH[..end], false);
        saw_streaming |= ws
            .tabs
            .first()
            .is_some_and(|t| t.state == FileState::Streaming);
    }
    feed(&mut ws, PATCH, true);
    assert!(
        saw_streaming,
        "the file's tab streams before the patch ends"
    );
    assert_eq!(
        ws.tabs[0].app.result.text(),
        one_shot.tabs[0].app.result.text()
    );
}

#[test]
fn a_failing_section_fails_its_file_and_accept_writes_nothing() {
    let text = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+A\n*** Update File: calc.py\n@@\n-nothing like this\n+x\n*** End Patch\n";
    let mut ws = Workspace::new(Version::V1, false);
    feed(&mut ws, text, true);
    assert_eq!(ws.tabs.len(), 2);
    assert_eq!(ws.tabs[0].app.result.text(), "A\nb\n");
    assert_eq!(ws.tabs[1].state, FileState::Failed);
    let notice = ws.tabs[1]
        .app
        .notice
        .as_ref()
        .expect("the reference's error");
    assert!(
        notice
            .text
            .contains("Failed to find expected lines in /w/calc.py"),
        "{}",
        notice.text
    );
    assert!(
        !matches!(key(&mut ws, 'A'), WsEffect::Write(_)),
        "all or nothing"
    );
}

#[test]
fn added_and_deleted_files() {
    let text = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: notes.txt\n*** End Patch\n";
    let mut ws = Workspace::new(Version::V1, false);
    feed(&mut ws, text, true);
    let new = ws.tabs.iter().find(|t| t.path == "new.txt").expect("a tab");
    assert_eq!(new.app.result.text(), "one\ntwo\n");
    let deleted = ws
        .tabs
        .iter()
        .find(|t| t.path == "notes.txt")
        .expect("a tab");
    assert_eq!(deleted.state, FileState::Refused);
}

/// Over the whole corpus, every file the reference adds or updates (each
/// once, not moved) is shown with the reference's content (the blocks land
/// where its hunks matched), or, for the few the blocks cannot give, failed
/// with a sentence saying so: never shown as applied with other content.
#[test]
fn the_blocks_give_the_references_files_over_the_corpus() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    let mut not_shown = 0;
    for record in apply_patch_corpus::records() {
        if record.expect.exit != 0 {
            continue;
        }
        let fs = MemoryFs::new(record.files.clone());
        let patch = preview(&record.patch, &fs, "/w", true);
        let paths: Vec<&str> = patch.calls.iter().map(|c| c.path.as_str()).collect();
        let load = |p: &str| -> Result<Option<String>, String> {
            Ok(
                match fs.read(&srview::dialect::apply_patch::fs::normalize(p)) {
                    srview::dialect::apply_patch::Entry::File(t) => Some(t),
                    _ => None,
                },
            )
        };
        let edits = transcript::apply_calls(&patch.calls, load, ApplyOptions::default());
        for edit in &edits {
            let key = srview::dialect::apply_patch::fs::normalize(&edit.path);
            let once = paths
                .iter()
                .filter(|p| srview::dialect::apply_patch::fs::normalize(p) == key)
                .count()
                == 1;
            if !once || !patch.refused.is_empty() {
                continue;
            }
            let Some(Some(want)) = record.expect.files.get(&key) else {
                continue;
            };
            checked += 1;
            let failed_here = patch.failed.iter().find(|(p, _)| *p == edit.path);
            match failed_here {
                Some((_, why)) if why.contains("cannot show") => not_shown += 1,
                _ if edit.ok() && edit.content == *want => {}
                _ => wrong.push(format!("{} ({}): {}", record.id, record.kind, edit.path)),
            }
        }
    }
    println!("{checked} files checked, {not_shown} not shown as blocks");
    assert!(checked > 400, "{checked}");
    assert!(
        not_shown * 100 <= checked,
        "{not_shown} of {checked} not shown"
    );
    assert!(
        wrong.is_empty(),
        "{} files differ: {:?}",
        wrong.len(),
        &wrong[..wrong.len().min(10)]
    );
}
