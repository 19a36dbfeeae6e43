//! An apply_patch in the multi-file previewer: a tab per file, each hunk a
//! block placed where the reference matched it, a loose match marked on its
//! tab with the lines that differ, streaming prefixes that end as the
//! one-shot apply, and accept refused while a file fails.

#[path = "../apply_patch_corpus/mod.rs"]
mod apply_patch_corpus;

use super::{key, support};

use support::text::assert_contains;

use srview::dialect::apply_patch::fs::normalize;
use srview::dialect::apply_patch::{Entry, MemoryFs, PatchFs};
use srview::engine::Version;
use srview::source::patch_preview::{PatchPreview, preview};
use srview::source::transcript::{self, ApplyOptions, FileState};
use srview::tui::app::Effect;
use srview::tui::app::workspace::Workspace;

const CALC: &str = "import math\n\n\ndef span(lo: float, hi: float) -> float:\n    \"\"\"Width of the range [lo, hi] – never negative.\"\"\"\n    return hi - lo\n\n\ndef mean(values: list[float]) -> float:\n    return sum(values) / len(values)\n";
const PATCH: &str = include_str!("../../assets/demo/calc.patch");
const NOTES: &str = "a\nb\n";

fn fs() -> MemoryFs {
    MemoryFs::new([
        ("calc.py".to_string(), CALC.to_string()),
        ("notes.txt".to_string(), NOTES.to_string()),
    ])
}

/// The patch's calls applied to the files of `fs` (a path the patch names
/// that is not a file there is missing).
fn apply_calls_on(patch: &PatchPreview, fs: &MemoryFs) -> Vec<transcript::FileEdit> {
    let load = |p: &str| -> Result<Option<String>, String> {
        Ok(match fs.read(&normalize(p)) {
            Entry::File(t) => Some(t),
            _ => None,
        })
    };
    transcript::apply_calls(&patch.calls, load, ApplyOptions::default())
}

fn feed(ws: &mut Workspace, text: &str, ended: bool) -> PatchPreview {
    let fs = fs();
    let patch = preview(text, &fs, "/w", ended);
    let edits = apply_calls_on(&patch, &fs);
    ws.update_patch(&patch, edits, text.len(), ended);
    patch
}

#[test]
fn a_loose_hunk_is_shown_applied_and_marked_on_its_tab() {
    let mut ws = Workspace::new(Version::V1, false);
    let patch = feed(&mut ws, PATCH, true);
    let expected = patch.outcome.files["calc.py"].clone().expect("applied");
    assert_eq!(ws.tabs().len(), 1);
    let tab = &ws.tabs()[0];
    assert_eq!(tab.path(), "calc.py");
    assert_eq!(tab.state(), FileState::Applied);
    assert_eq!(
        tab.app().result().text(),
        expected,
        "the reference's result"
    );
    let notice = tab
        .app()
        .notice()
        .as_ref()
        .expect("the loose match is marked");
    assert_contains(&notice.text, "level unicode");
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
    // Asked about first, as `apply --transcript --write` holds it back
    // (round 49 T-05: one `A` wrote it); `A` again writes.
    assert!(matches!(key(&mut ws, 'A'), Effect::None));
    let asked = ws
        .notice()
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default();
    assert_contains(
        &asked,
        "hunk 1 of calc.py matched the file only at level unicode",
    );
    assert!(
        matches!(key(&mut ws, 'A'), Effect::Write { files: ref i, file_endings: false } if i == &[0])
    );
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
            .tabs()
            .first()
            .is_some_and(|t| t.state() == FileState::Streaming);
    }
    feed(&mut ws, PATCH, true);
    assert!(
        saw_streaming,
        "the file's tab streams before the patch ends"
    );
    assert_eq!(
        ws.tabs()[0].app().result().text(),
        one_shot.tabs()[0].app().result().text()
    );
}

#[test]
fn a_failing_section_fails_its_file_and_accept_writes_nothing() {
    let text = "*** Begin Patch\n*** Update File: notes.txt\n@@\n-a\n+A\n*** Update File: calc.py\n@@\n-nothing like this\n+x\n*** End Patch\n";
    let mut ws = Workspace::new(Version::V1, false);
    feed(&mut ws, text, true);
    assert_eq!(ws.tabs().len(), 2);
    assert_eq!(ws.tabs()[0].app().result().text(), "A\nb\n");
    assert_eq!(ws.tabs()[1].state(), FileState::Failed);
    let notice = ws.tabs()[1]
        .app()
        .notice()
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
        !matches!(
            key(&mut ws, 'A'),
            Effect::Write {
                files: _,
                file_endings: false
            }
        ),
        "all or nothing"
    );
}

#[test]
fn added_and_deleted_files() {
    let text = "*** Begin Patch\n*** Add File: new.txt\n+one\n+two\n*** Delete File: notes.txt\n*** End Patch\n";
    let mut ws = Workspace::new(Version::V1, false);
    feed(&mut ws, text, true);
    let new = ws
        .tabs()
        .iter()
        .find(|t| t.path() == "new.txt")
        .expect("a tab");
    assert_eq!(new.app().result().text(), "one\ntwo\n");
    let deleted = ws
        .tabs()
        .iter()
        .find(|t| t.path() == "notes.txt")
        .expect("a tab");
    assert_eq!(deleted.state(), FileState::Refused);
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
        let edits = apply_calls_on(&patch, &fs);
        for edit in &edits {
            let key = normalize(&edit.path);
            let once = paths.iter().filter(|p| normalize(p) == key).count() == 1;
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
                _ if edit.ok() && edit.content() == *want => {}
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

/// The single-file previewer's input: a patch (or an edit) for one file,
/// as blocks the app runs.
mod single_file {
    use super::assert_contains;
    use srview::dialect::Dialect;
    use srview::dialect::one_file::Target;
    use srview::engine::Version;
    use srview::source::patch_preview::file_blocks;
    use srview::tui::app::App;

    use super::{CALC, PATCH};

    fn target(content: &str) -> Target<'_> {
        Target {
            cwd: "/w",
            name: "calc.py",
            content: Some(content),
        }
    }

    fn shown(
        text: &str,
        dialect: Dialect,
        ended: bool,
    ) -> (App, srview::source::patch_preview::FileBlocks) {
        let blocks = file_blocks(text, dialect, &target(CALC), ended).expect("one file");
        let mut app = App::new("calc.py".into(), CALC.to_string(), Version::V1);
        app.set_diff(blocks.body.clone());
        if ended {
            app.end_stream();
        }
        (app, blocks)
    }

    #[test]
    fn a_patch_shows_the_references_result_and_its_loose_hunk() {
        let (app, blocks) = shown(PATCH, Dialect::ApplyPatch, true);
        let want = srview::dialect::one_file::apply_patch_to(PATCH, &target(CALC))
            .expect("one file")
            .files["calc.py"]
            .clone()
            .expect("applied");
        assert_eq!(app.result().text(), want);
        assert!(!blocks.refused);
        let note = blocks.note.expect("the loose hunk is marked");
        assert!(
            note.contains("level unicode") && note.contains("– never"),
            "{note}"
        );
        for end in (0..PATCH.len()).filter(|&i| PATCH.is_char_boundary(i)) {
            let _ = shown(&PATCH[..end], Dialect::ApplyPatch, false);
        }
    }

    #[test]
    fn a_failing_patch_or_edit_is_refused() {
        let bad = "*** Begin Patch\n*** Update File: calc.py\n@@\n-nothing\n+x\n*** End Patch\n";
        let edit = r#"{"file_path": "calc.py", "old_string": "nothing", "new_string": "x"}"#;
        for (text, dialect, why) in [
            (
                bad,
                Dialect::ApplyPatch,
                "Failed to find expected lines in /w/calc.py",
            ),
            (
                edit,
                Dialect::EditJson,
                "String to replace not found in file.",
            ),
        ] {
            let (_, blocks) = shown(text, dialect, true);
            assert!(blocks.refused, "{dialect:?}");
            assert_contains(&blocks.note.expect("why"), why);
        }
    }

    #[test]
    fn an_edit_is_one_block_with_the_agents_result() {
        let edit =
            r#"{"file_path": "calc.py", "old_string": "hi - lo", "new_string": "abs(hi - lo)"}"#;
        let (app, blocks) = shown(edit, Dialect::EditJson, true);
        assert!(!blocks.refused);
        assert_eq!(
            app.result().text(),
            CALC.replace("return hi - lo", "return abs(hi - lo)")
        );
        assert_eq!(blocks.body.matches("------- SEARCH").count(), 1);
        for end in (0..edit.len()).filter(|&i| edit.is_char_boundary(i)) {
            let _ = shown(&edit[..end], Dialect::EditJson, false);
        }
    }
}

/// Session 51: the refusal of a deleted or moved file said `srview apply
/// --transcript PATCH --cwd DIR --write`; the transcript previewer says
/// its own transcript and folder, runnable as printed, and the tab is
/// still labelled as a deletion.
#[test]
fn a_deleted_files_refusal_names_the_transcript_and_its_folder() {
    use srview::dialect::one_file::Rerun;
    let deleting = "*** Begin Patch\n*** Delete File: notes.txt\n*** End Patch\n";
    let fs = fs();
    let mut patch = preview(deleting, &fs, "/w", true);
    let msg = Rerun::new(
        None,
        Some(std::path::Path::new("my patch.diff")),
        Vec::new(),
    );
    patch
        .say_commands(|write, json| msg.whole_patch(Some(std::path::Path::new("/w")), write, json));
    assert_eq!(
        patch.refused,
        [(
            "notes.txt".to_string(),
            "the patch deletes or moves this file: the previewer writes no deletion; `srview \
             apply --transcript 'my patch.diff' --cwd /w --write` applies the whole patch"
                .to_string()
        )]
    );
    let mut ws = Workspace::new(Version::V1, false);
    let edits = apply_calls_on(&patch, &fs);
    ws.update_patch(&patch, edits, deleting.len(), true);
    let labels: Vec<&str> = ws.tabs().iter().map(|t| t.state_label()).collect();
    assert_eq!(labels, ["refused: deleted or moved"]);
}
