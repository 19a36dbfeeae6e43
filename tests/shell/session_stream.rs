//! `srview session PATH --json` and the session browser on a session read
//! in pieces (`sessions::streamed`, `sessions::load::open_saved`): the
//! same JSON bytes and the same rows as the session read whole, for every
//! capture and for generated sessions of 100 edits
//! (tests/support/big_session.rs).

use std::path::Path;

use super::support::agents::{scenarios, session_path};
use super::support::big_session::claude_and_codex;
use srview::report::{SessionJson, SessionJsonStream, render_session_edit};
use srview::sessions::load::load;
use srview::sessions::review::review;
use srview::sessions::streamed::{Surveyed, survey};

/// Runs `check` on every capture's session (at least 20 of them).
fn for_every_capture(mut check: impl FnMut(&Path)) {
    let mut checked = 0;
    for dir in scenarios() {
        check(&session_path(&dir));
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} captures");
}

/// The session at `path` surveyed, and its `session --json` document
/// begun.
fn survey_and_start_json(path: &Path) -> (Surveyed, SessionJsonStream<Vec<u8>>) {
    let surveyed = survey(path, None).expect("surveys");
    let reader = surveyed.reader();
    let json = SessionJsonStream::start(Vec::new(), reader.kind(), reader.version()).expect("head");
    (surveyed, json)
}

/// `session --json` as the binary writes it now: the session surveyed,
/// then each edit reviewed as it is read again and written at once.
fn json_streamed(path: &Path) -> String {
    let (surveyed, mut json) = survey_and_start_json(path);
    let mut seen = Vec::new();
    surveyed
        .review_each(|index, r| {
            seen.push(index);
            json.edit(&r, None).expect("edit");
            true
        })
        .expect("read again");
    assert_eq!(seen, (0..surveyed.edits()).collect::<Vec<_>>());
    String::from_utf8(json.finish().expect("tail")).expect("UTF-8")
}

/// [`json_streamed`] with each edit reviewed and rendered on one of
/// `workers` threads (what `session --json` does on several cores), written
/// in order.
fn json_on_workers(path: &Path, workers: usize) -> String {
    let (surveyed, mut json) = survey_and_start_json(path);
    let mut seen = Vec::new();
    surveyed
        .review_rendered(
            workers,
            |index, r| (index, render_session_edit(&r, None).expect("renders")),
            |index, (rendered_as, bytes)| {
                assert_eq!(index, rendered_as);
                seen.push(index);
                json.edit_rendered(&bytes).expect("edit");
                true
            },
        )
        .expect("read again");
    assert_eq!(seen, (0..surveyed.edits()).collect::<Vec<_>>());
    String::from_utf8(json.finish().expect("tail")).expect("UTF-8")
}

/// `session --json` of the session read whole and reviewed as a list.
fn json_whole(path: &Path) -> String {
    let (reader, ws) = load(path, None).expect("loads");
    serde_json::to_string(&SessionJson::new(&review(&reader, &ws))).expect("JSON")
}

#[test]
fn streamed_json_is_the_whole_reviews_for_every_capture_and_generated_sessions() {
    for_every_capture(|path| {
        assert_eq!(json_streamed(path), json_whole(path), "{}", path.display());
    });
    // Read again in pieces (the captures fit in one): 100 edits each, some
    // failed, Codex's loose ones.
    let (_dir, claude, codex) = claude_and_codex(1 << 20, 100);
    for g in [&claude, &codex] {
        let streamed = json_streamed(&g.path);
        assert_eq!(streamed, json_whole(&g.path), "{}", g.path.display());
        let doc: serde_json::Value = serde_json::from_str(&streamed).expect("JSON");
        assert_eq!(doc["edits"].as_array().map(Vec::len), Some(g.edits));
    }
}

/// The browser reading a saved session in pieces (its first piece before
/// the first frame, the rest through the event channel) ends with the rows
/// of the session read whole, and its notice gone.
#[test]
fn the_browser_loading_in_pieces_ends_with_the_whole_sessions_rows() {
    use srview::sessions::load::open_saved;
    use srview::source::agent::session::read_session;
    use srview::tui::{AgentEdits, Folded, Screen};
    let (_dir, claude, codex) = claude_and_codex(1 << 20, 100);
    let mut paths: Vec<std::path::PathBuf> = scenarios().iter().map(|d| session_path(d)).collect();
    paths.extend([claude.path.clone(), codex.path.clone()]);
    let mut rng = 7u64;
    let mut next = |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng as usize) % n
    };
    let mut loaded = 0;
    for path in &paths {
        let Some(opened) = open_saved(path, 0) else {
            continue; // A database's session: read whole.
        };
        let opened = opened.expect("opens");
        let (_, ws) = load(path, None).expect("loads");
        let whole = AgentEdits::session(
            "s".into(),
            read_session(path, None).expect("reads"),
            ws.clone(),
        );
        let file = std::fs::read(&opened.file).expect("read");
        let rest = String::from_utf8_lossy(&file[opened.read as usize..]).into_owned();
        let (read, size) = (opened.read, opened.size);
        let mut screen = AgentEdits::loading("s".into(), opened.reader, Some(ws.root), read, size);
        let mut at = 0;
        while at < rest.len() {
            let mut to = (at + 1 + next(400_000)).min(rest.len());
            while !rest.is_char_boundary(to) {
                to += 1;
            }
            screen.on_text(Folded {
                appended: rest[at..to].to_string(),
                ..Folded::default()
            });
            assert!(!screen.list().ended(), "{}", path.display());
            at = to;
        }
        screen.on_text(Folded {
            ended: true,
            ..Folded::default()
        });
        let (list, want) = (screen.list(), whole.list());
        assert!(list.ended(), "{}", path.display());
        assert_eq!(list.rows(), want.rows(), "{}", path.display());
        assert_eq!(list.agent(), want.agent(), "{}", path.display());
        assert_eq!(list.notice(), want.notice(), "{}", path.display());
        loaded += 1;
    }
    assert!(loaded >= 20, "only {loaded} sessions");
}

/// Reviewed on worker threads, the edits are handed on in the session's
/// order and the JSON is byte for byte the one reviewed in one thread:
/// every capture (their chains of edits of one file, some waiting for the
/// review of the edit before), and generated sessions of 300 edits
/// (more than the edits a worker may hold at once).
#[test]
fn reviewed_on_worker_threads_the_json_is_the_one_threads() {
    for_every_capture(|path| {
        let one_thread = json_streamed(path);
        for workers in [1, 2, 3] {
            assert_eq!(
                json_on_workers(path, workers),
                one_thread,
                "{} on {workers} workers",
                path.display()
            );
        }
    });
    let (_dir, claude, codex) = claude_and_codex(2 << 20, 300);
    for g in [&claude, &codex] {
        let one_thread = json_streamed(&g.path);
        assert_eq!(json_on_workers(&g.path, 0), one_thread);
        assert_eq!(json_on_workers(&g.path, 2), one_thread);
        let doc: serde_json::Value = serde_json::from_str(&one_thread).expect("JSON");
        assert_eq!(doc["edits"].as_array().map(Vec::len), Some(g.edits));
    }
}

/// `each` saying stop on worker threads: no edit handed on after it.
#[test]
fn reviewed_on_worker_threads_the_review_stops_when_asked() {
    let (_dir, claude, _) = claude_and_codex(1 << 20, 100);
    let surveyed = survey(&claude.path, None).expect("surveys");
    let mut seen = Vec::new();
    surveyed
        .review_rendered(
            2,
            |index, _| index,
            |index, rendered| {
                seen.push((index, rendered));
                index < 9
            },
        )
        .expect("read again");
    assert_eq!(seen, (0..10).map(|i| (i, i)).collect::<Vec<_>>());
}

/// The survey's reader (`survey_session_with`, a reader without
/// contents) reads every edit as the reader keeping them does but for its
/// contents before and after, and the session's version, workspace, shell
/// runs and problems alike: every capture and the generated sessions (a
/// session kept in a database is read whole, contents and all).
#[test]
fn the_surveys_reader_reads_all_but_the_contents() {
    use srview::source::agent::session::{read_session, survey_session_with};
    let (_dir, claude, codex) = claude_and_codex(1 << 20, 100);
    let mut paths: Vec<std::path::PathBuf> = scenarios().iter().map(|d| session_path(d)).collect();
    paths.extend([claude.path.clone(), codex.path.clone()]);
    let (mut checked, mut with_contents) = (0, 0);
    for path in &paths {
        let full = read_session(path, None).expect("reads");
        let survey = survey_session_with(path, None, |_| {}).expect("surveys");
        let name = path.display();
        let in_database = srview::source::agent::database::locate(path).is_some();
        assert_eq!(survey.edits().len(), full.edits().len(), "{name}");
        for (kept, surveyed) in full.edits().iter().zip(survey.edits()) {
            if in_database {
                assert_eq!(surveyed, kept, "{name}");
                continue;
            }
            with_contents += usize::from(kept.content_before.is_some());
            let without = srview::source::agent::AgentEdit {
                content_before: None,
                content_after: None,
                ..kept.clone()
            };
            assert_eq!(surveyed, &without, "{name}");
        }
        assert_eq!(survey.version(), full.version(), "{name}");
        assert_eq!(survey.workspace(), full.workspace(), "{name}");
        assert_eq!(survey.shell_runs(), full.shell_runs(), "{name}");
        assert_eq!(survey.checkpoints(), full.checkpoints(), "{name}");
        assert_eq!(survey.mapped_paths(), full.mapped_paths(), "{name}");
        assert_eq!(survey.unread(), full.unread(), "{name}");
        assert_eq!(
            survey.ended_without_verdict(),
            full.ended_without_verdict(),
            "{name}"
        );
        let words = |r: &srview::source::agent::AgentReader| {
            r.errors()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(words(&survey), words(&full), "{name}");
        checked += 1;
    }
    assert!(checked >= 20, "only {checked} sessions");
    // Not a comparison of empty contents: the sessions record many.
    assert!(with_contents >= 100, "only {with_contents} contents before");
}

/// An edit's JSON as `session --json` renders it on a worker
/// (`render_session_edit`, written by hand for speed) is byte for byte its
/// derived serialization (`SessionJsonStream::edit`): every edit of every
/// capture and of generated sessions, with and without a gate's decision
/// (its texts needing escapes) and with its cut-off mark flipped.
#[test]
fn an_edit_rendered_by_hand_is_its_derived_serialization() {
    use srview::gate::record::GateDecision;
    let decision: GateDecision = serde_json::from_str(
        r#"{"time":"2026-01-01T00:00:00Z","agent":"claude-code","case":"loose",
            "decision":"repair","stage":"line-trimmed","message":"said \"so\"\n\tthen \\ é",
            "decidedBy":"review pane","review":"corrected"}"#,
    )
    .expect("a decision");
    let (_dir, claude, codex) = claude_and_codex(1 << 20, 100);
    let mut paths: Vec<std::path::PathBuf> = scenarios().iter().map(|d| session_path(d)).collect();
    paths.extend([claude.path.clone(), codex.path.clone()]);
    let mut compared = 0;
    for path in &paths {
        let (reader, ws) = load(path, None).expect("loads");
        for r in review(&reader, &ws).reviews {
            let mut cut = r.clone();
            cut.edit.cut_off = !cut.edit.cut_off;
            for r in [&r, &cut] {
                for gate in [None, Some(&decision)] {
                    let mut derived =
                        SessionJsonStream::start(Vec::new(), reader.kind(), None).expect("head");
                    derived.edit(r, gate).expect("edit");
                    let mut by_hand =
                        SessionJsonStream::start(Vec::new(), reader.kind(), None).expect("head");
                    by_hand
                        .edit_rendered(&render_session_edit(r, gate).expect("renders"))
                        .expect("edit");
                    assert_eq!(
                        String::from_utf8(by_hand.finish().expect("tail")).expect("UTF-8"),
                        String::from_utf8(derived.finish().expect("tail")).expect("UTF-8"),
                        "edit {} of {}",
                        r.edit.seq,
                        path.display()
                    );
                    compared += 1;
                }
            }
        }
    }
    assert!(compared >= 4 * 300, "only {compared} renderings");
}
