//! The agent previewer's state (what `srview -`, `srview --follow` and the
//! session browser show) on every capture in tests/fixtures/agents: the
//! live output fed in random pieces into a workspace holding the files as
//! they were before the run, and the saved session opened over the files as
//! the run left them. Per edit: the file, the agent's verdict, srview's
//! verdict (it agrees with the agent's, or the disagreement is said), and
//! that the edit is shown against the content before it that the capture
//! recorded.

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use srview::sessions::recover::SessionRoot;
use srview::sessions::review::Basis;
use srview::source::agent::session::read_session;
use srview::source::agent::{Format, detect};
use srview::tui::{AgentEdits, Folded, Screen};

use super::support;
use support::agents::{Expected, live_file, recorded_scenarios, session_path};
use support::rng::Rng;

/// The files as they were before the run: each file's first content before.
fn files_before(want: &Expected, dir: &Path) {
    let mut seen = std::collections::HashSet::new();
    for e in &want.edits {
        if seen.insert(e.file.clone())
            && let Some(text) = &e.content_before
        {
            write(dir, &e.file, text);
        }
    }
}

/// The files as the run left them: each file's last known content.
fn files_after(want: &Expected, dir: &Path) {
    let mut last: BTreeMap<&str, Option<&String>> = BTreeMap::new();
    for e in &want.edits {
        let now = if e.agent_verdict == "applied" {
            e.content_after.as_ref().or(e.content_before.as_ref())
        } else {
            e.content_before.as_ref()
        };
        last.insert(&e.file, now);
    }
    for (file, text) in last {
        if let Some(text) = text {
            write(dir, file, text);
        }
    }
}

fn write(dir: &Path, file: &str, text: &str) {
    let path = dir.join(file);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("mkdir");
    }
    fs::write(path, text).expect("write");
}

/// Feeds `text` in random pieces (on character boundaries), then its end.
/// Returns how many pieces left an edit shown while its input was still
/// streaming, with blocks already previewed.
fn feed(screen: &mut AgentEdits, text: &str, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut mid_edit = 0;
    let mut at = 0;
    while at < text.len() {
        let mut end = (at + rng.below(300) + 1).min(text.len());
        while !text.is_char_boundary(end) {
            end += 1;
        }
        screen.on_text(Folded {
            appended: text[at..end].to_string(),
            ..Folded::default()
        });
        let streaming = screen.list().current().is_some_and(|r| r.streaming);
        if streaming
            && screen
                .shown_app()
                .is_some_and(|a| a.engine_diff().contains("SEARCH"))
        {
            mid_edit += 1;
        }
        at = end;
    }
    screen.on_text(Folded {
        ended: true,
        ..Folded::default()
    });
    mid_edit
}

#[derive(Default)]
struct Tally {
    edits: usize,
    before_compared: usize,
    /// Pieces after which an edit still streaming was previewed.
    mid_edit: usize,
}

/// Checks every edit the screen lists against expected.json.
fn check(label: &str, screen: &mut AgentEdits, want: &Expected, tally: &mut Tally) -> Vec<String> {
    let mut problems = Vec::new();
    let rows = screen.list().rows().clone();
    if rows.len() != want.edits.len() {
        return vec![format!(
            "{label}: {} edits listed, {} expected",
            rows.len(),
            want.edits.len()
        )];
    }
    for (row, e) in rows.iter().zip(&want.edits) {
        tally.edits += 1;
        let at = format!("{label} edit {}", e.seq);
        if row.file != e.file {
            problems.push(format!("{at}: file {} (expected {})", row.file, e.file));
        }
        if row.agent.name() != e.agent_verdict {
            problems.push(format!(
                "{at}: agent verdict {} (expected {})",
                row.agent.name(),
                e.agent_verdict
            ));
        }
        let real = row
            .basis
            .is_some_and(|b| b != Basis::CurrentFile && b != Basis::NotNeeded);
        if !real {
            continue;
        }
        // srview's verdict, where it gives one, agrees with the agent's,
        // or says it does not.
        let srview_ok = row.srview.starts_with("applies");
        let judged = !row.srview.starts_with("unknown");
        let agent_ok = e.agent_verdict == "applied";
        if judged
            && e.agent_verdict != "not-run"
            && srview_ok != agent_ok
            && row.disagreement.is_none()
        {
            problems.push(format!(
                "{at}: srview {} / agent {} with no disagreement said",
                row.srview, e.agent_verdict
            ));
        }
        if let Some(before) = &e.content_before {
            screen.select(row.seq);
            let shown = screen
                .shown_app()
                .map(|app| app.original().text().into_owned());
            if shown.as_deref() != Some(before.as_str()) {
                problems.push(format!(
                    "{at}: shown against another content than the recorded one ({:?})",
                    row.basis
                ));
            }
            tally.before_compared += 1;
        }
    }
    problems
}

#[test]
fn every_capture_previews_each_edit_against_its_content_before() {
    let mut problems = Vec::new();
    let mut tally: BTreeMap<String, (Tally, Tally)> = BTreeMap::new();
    for (dir, label, want) in recorded_scenarios() {
        let entry = tally.entry(want.agent_version()).or_default();

        // The saved session, over the files as the run left them.
        let ws = tempfile::tempdir().expect("tempdir");
        files_after(&want, ws.path());
        match read_session(&session_path(&dir), None) {
            Ok(reader) => {
                let root = SessionRoot {
                    root: ws.path().to_path_buf(),
                };
                let mut screen = AgentEdits::session(label.clone(), reader, root);
                problems.extend(check(&label, &mut screen, &want, &mut entry.1));
            }
            Err(e) => problems.push(format!("{label}: session: {e}")),
        }

        // The live output, in pieces, over the files as they were before.
        let Some(live) = live_file(&dir) else {
            continue;
        };
        let bytes = fs::read(&live).expect("read");
        let format = detect(&bytes[..bytes.len().min(4096)]).map(|d| d.1);
        // Not previewable live: the styled text outputs are for people,
        // and `codex exec --json` names changed files only.
        if format.is_none() || format == Some(Format::CodexExecJson) {
            continue;
        }
        let text = String::from_utf8_lossy(&bytes).into_owned();
        for seed in [3u64, 11] {
            let ws = tempfile::tempdir().expect("tempdir");
            files_before(&want, ws.path());
            // The live Cline CLI stream names no workspace: the agent ran
            // in the folder srview is given (here: where it was recorded).
            let mut screen = AgentEdits::live(label.clone(), Some(ws.path().to_path_buf()))
                .with_agent_cwd("/home/user/project");
            entry.0.mid_edit += feed(&mut screen, &text, seed);
            problems.extend(check(
                &format!("{label} (live, seed {seed})"),
                &mut screen,
                &want,
                &mut entry.0,
            ));
        }
    }
    for (agent, (live, session)) in &tally {
        println!(
            "{agent}: live {} edits ({} shown against the recorded content before, \
             {} pieces previewing an edit mid-stream); session {} edits ({} shown against it)",
            live.edits, live.before_compared, live.mid_edit, session.edits, session.before_compared
        );
    }
    support::text::assert_no_problems(&problems);
    assert_eq!(tally.len(), 10, "agent versions: {:?}", tally.keys());
    // The outputs whose edits stream piece by piece are previewed mid-edit
    // (Qwen Code's from its content_block_start to its assistant line).
    for agent in [
        "claude-code 2.1.328",
        "aider 0.86.2",
        "qwen-code 0.24.4",
        "pi 0.73.1",
    ] {
        assert!(
            tally[agent].0.mid_edit > 0,
            "{agent}: no edit previewed mid-stream"
        );
    }
    let compared: usize = tally
        .values()
        .map(|(l, s)| l.before_compared + s.before_compared)
        .sum();
    assert!(
        compared >= 60,
        "only {compared} edits compared with their content before"
    );
}

/// A `codex app-server` stream with patch events whose edit then completed:
/// the edit keeps showing the patch the model wrote, run against the file
/// (it showed nothing once `item/started` came: "0 applied 0 B", "not run
/// here"), and the diff Codex applied is kept as the agent's diff.
#[test]
fn a_codex_app_server_edit_that_completed_keeps_showing_its_patch() {
    let dir = support::agents::fixtures().join("codex-0.169.0/g_appserver_success_streaming");
    let want = support::agents::expected(&dir);
    let ws = tempfile::tempdir().expect("tempdir");
    files_before(&want, ws.path());
    let text = fs::read_to_string(dir.join("app-server.jsonl")).expect("read");
    let mut screen = AgentEdits::live("stdin".into(), Some(ws.path().to_path_buf()))
        .with_agent_cwd("/home/user/project");
    feed(&mut screen, &text, 5);
    let row = screen.list().current().cloned().expect("an edit");
    assert_eq!(
        (row.agent.name(), row.srview.as_str(), row.streaming),
        ("applied", "applies (exact, exact)", false)
    );
    let app = screen.shown_app().expect("the edit shown");
    let applied = app
        .outcome()
        .blocks
        .iter()
        .filter(|b| b.state == srview::engine::BlockState::Applied)
        .count();
    assert_eq!(applied, 2);
    assert_eq!(
        app.result().text(),
        want.edits[0].content_after.as_deref().expect("after")
    );
}

/// A `codex app-server` stream without patch events records only the diff
/// Codex applied: srview's verdict stays unknown (how the model's patch
/// matched is not known), but the panes show that diff where it fits the
/// content before, read before Codex wrote it or recovered by undoing the
/// diff on the file it left (they were blank).
#[test]
fn a_codex_app_server_diff_without_patch_events_is_shown_as_recorded() {
    let dir = support::agents::fixtures().join("codex-0.169.0/i_appserver_success_default");
    let want = support::agents::expected(&dir);
    let text = fs::read_to_string(dir.join("app-server.jsonl")).expect("read");
    let before = want.edits[0].content_before.as_deref().expect("before");
    let after = want.edits[0].content_after.as_deref().expect("after");
    for (label, files) in [
        ("before", files_before as fn(&Expected, &Path)),
        ("after", files_after),
    ] {
        let ws = tempfile::tempdir().expect("tempdir");
        files(&want, ws.path());
        let mut screen = AgentEdits::live("stdin".into(), Some(ws.path().to_path_buf()))
            .with_agent_cwd("/home/user/project");
        feed(&mut screen, &text, 7);
        let row = screen.list().current().cloned().expect("an edit");
        assert!(
            row.srview
                .starts_with("unknown: this Codex output records the diff Codex applied"),
            "{label}: {}",
            row.srview
        );
        let app = screen.shown_app().expect("the edit shown");
        let note = app
            .notice()
            .as_ref()
            .map(|n| n.text.clone())
            .unwrap_or_default();
        assert_eq!(
            (app.original().text().as_ref(), app.result().text().as_ref()),
            (before, after),
            "{label}"
        );
        assert_eq!(app.outcome().blocks.len(), 2, "{label}");
        assert!(
            note.ends_with("; the panes show the diff the agent recorded as applied"),
            "{label}: {note}"
        );
    }
    // A file the diff does not fit: nothing shown as applied.
    let ws = tempfile::tempdir().expect("tempdir");
    write(ws.path(), "calc.py", "something else\n");
    let mut screen = AgentEdits::live("stdin".into(), Some(ws.path().to_path_buf()))
        .with_agent_cwd("/home/user/project");
    feed(&mut screen, &text, 7);
    let app = screen.shown_app().expect("the edit shown");
    assert!(app.diff().is_empty(), "{}", app.diff());
}

/// The session browser on a saved session `opened` in pieces, loading
/// from where the opening read stopped (its workspace `root`), and the
/// rest of the file, for the test to hand it as its reading would.
fn loading_browser(
    opened: srview::sessions::load::Opened,
    root: std::path::PathBuf,
) -> (AgentEdits, String) {
    let file = fs::read(&opened.file).expect("read");
    let rest = String::from_utf8_lossy(&file[opened.read as usize..]).into_owned();
    let (read, size, from) = (opened.read, opened.size, opened.file.clone());
    let screen = AgentEdits::loading_from(
        "s".into(),
        opened.reader,
        Some(root),
        read,
        size,
        Some(from),
    );
    (screen, rest)
}

/// A saved session browsed in bounded memory (`sessions::browse`: each
/// review kept as the list shows it, the edit shown read again from the
/// session file and reviewed again) lists the rows of the session read
/// whole, and shows every edit as the whole session's browser does: the
/// same content before, diff, result, blocks and notes. Every capture
/// whose reviews do not need the whole session at once, and a generated
/// Claude Code session of 60 edits, read in random pieces.
#[test]
fn a_session_browsed_in_bounded_memory_shows_what_the_whole_one_shows() {
    use srview::sessions::browse::reads_in_bounded_memory;
    use srview::sessions::load::{load, open_saved};
    use support::big_session::claude_session;
    let dir = tempfile::tempdir().expect("temp dir");
    let generated = claude_session(&dir.path().join("home"), 1 << 19, 60);
    let mut paths: Vec<std::path::PathBuf> = recorded_scenarios()
        .iter()
        .map(|(d, _, _)| session_path(d))
        .collect();
    paths.push(generated.path.clone());
    let mut rng = Rng::new(29);
    let (mut browsed, mut shown) = (0, 0);
    for path in &paths {
        let Some(opened) = open_saved(path, 0) else {
            continue; // A database's session: read whole.
        };
        let opened = opened.expect("opens");
        if !reads_in_bounded_memory(opened.reader.kind()) {
            continue;
        }
        let (_, ws) = load(path, None).expect("loads");
        let mut whole = AgentEdits::session(
            "s".into(),
            read_session(path, None).expect("reads"),
            ws.clone(),
        );
        let (mut screen, rest) = loading_browser(opened, ws.root);
        let mut at = 0;
        while at < rest.len() {
            let mut to = (at + 1 + rng.below(40_000)).min(rest.len());
            while !rest.is_char_boundary(to) {
                to += 1;
            }
            screen.on_text(Folded {
                appended: rest[at..to].to_string(),
                ..Folded::default()
            });
            at = to;
        }
        screen.on_text(Folded {
            ended: true,
            ..Folded::default()
        });
        let at = path.display();
        assert_eq!(screen.list().rows(), whole.list().rows(), "{at}");
        assert_eq!(screen.list().agent(), whole.list().agent(), "{at}");
        let seqs: Vec<usize> = whole.list().rows().iter().map(|r| r.seq).collect();
        for seq in seqs {
            screen.select(seq);
            whole.select(seq);
            let (Some(got), Some(want)) = (screen.shown_app(), whole.shown_app()) else {
                assert_eq!(
                    screen.shown_app().is_some(),
                    whole.shown_app().is_some(),
                    "{at}: edit {seq}"
                );
                continue;
            };
            assert_eq!(
                got.original().text(),
                want.original().text(),
                "{at}: edit {seq}"
            );
            assert_eq!(got.diff(), want.diff(), "{at}: edit {seq}");
            assert_eq!(
                got.result().text(),
                want.result().text(),
                "{at}: edit {seq}"
            );
            assert_eq!(
                format!("{:?}", got.outcome()),
                format!("{:?}", want.outcome()),
                "{at}: edit {seq}"
            );
            assert_eq!(got.notice(), want.notice(), "{at}: edit {seq}");
            shown += 1;
        }
        browsed += 1;
    }
    assert!(browsed >= 15, "only {browsed} sessions");
    assert!(shown >= 100, "only {shown} edits shown");
}

/// The reading of a saved session waits for the browser to take the text
/// it sent (`sessions::browse::wait_for_the_reviewer`): the browser takes
/// each piece as it arrives, and once the session has ended its reading
/// waits for it no more. Without it, the reading (faster than the
/// browser's parse) piled the whole session up in the event channel.
#[test]
fn a_saved_session_s_browser_takes_the_text_its_reading_sent() {
    use srview::sessions::load::open_saved;
    use support::big_session::claude_session;
    let dir = tempfile::tempdir().expect("temp dir");
    let generated = claude_session(&dir.path().join("home"), 1 << 18, 30);
    let opened = open_saved(&generated.path, 4096)
        .expect("a file")
        .expect("opens");
    let (mut screen, rest) = loading_browser(opened, dir.path().to_path_buf());
    let (first, second) = rest.split_at(rest.len() / 2);
    let pace = screen.reading_pace().expect("a reading waits for it");
    pace.sent(first.len());
    pace.sent(second.len());
    assert_eq!(pace.text_in_flight(), rest.len());
    screen.on_text(Folded {
        appended: first.to_string(),
        ..Folded::default()
    });
    let pace = screen.reading_pace().expect("still read");
    assert_eq!(pace.text_in_flight(), second.len());
    screen.on_text(Folded {
        appended: second.to_string(),
        ..Folded::default()
    });
    let pace = screen.reading_pace().expect("still read");
    assert_eq!(pace.text_in_flight(), 0);
    screen.on_text(Folded {
        ended: true,
        ..Folded::default()
    });
    assert!(screen.reading_pace().is_none());
    assert_eq!(screen.list().rows().len(), generated.edits);
}

/// The session browser says of an edit the gate repaired what `srview
/// session --list` says (`gate::record::as_run`): the agent ran the gate's
/// rewrite, so srview's replay of the model's input (which fails here: its
/// curly quotes are not in the file) is set aside. The row is neither
/// FAILED nor in disagreement, and the edit's own view says so too (a
/// session-33 find: the browser still showed `FAILED DISAGREE`).
#[test]
fn the_browser_shows_an_edit_the_gate_repaired_as_the_listing_does() {
    use srview::dialect::apply_patch::MemoryFs;
    use srview::gate::{Answer, GateAgent, Policy, judge};

    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/gate");
    let inventory = fs::read_to_string(fixtures.join("inventory.py")).expect("inventory.py");
    let payload = fs::read(fixtures.join("claude-code/c_rewrite.payload.json")).expect("payload");
    let judgment = judge(
        GateAgent::ClaudeCode,
        &payload,
        |_| MemoryFs::new([("inventory.py".to_string(), inventory.clone())]),
        &Policy::default(),
    );
    assert!(matches!(judgment.answer, Answer::Rewrite { .. }));
    let ws = tempfile::tempdir().expect("a workspace");
    fs::create_dir(ws.path().join(".srview")).expect(".srview");
    fs::write(
        ws.path().join(".srview/gate.jsonl"),
        judgment.record("2026-12-01T14:00:00.000Z") + "\n",
    )
    .expect("the record");
    let stream = fixtures.join("claude-code/c_rewrite.stdout.jsonl");
    let reader = read_session(&stream, None).expect("the session");
    let root = SessionRoot {
        root: ws.path().to_path_buf(),
    };
    let mut screen = AgentEdits::session("s".into(), reader, root);
    let row = screen.list().rows()[0].clone();
    let why = "applied as repaired by the gate: the agent ran the gate's rewrite of the model's \
               input, which srview does not replay";
    assert_eq!(
        (
            row.failed,
            row.loose,
            row.disagreement.as_deref(),
            row.loose_match.as_deref(),
            row.srview.as_str(),
            row.gate.as_deref(),
            row.gate_short,
        ),
        (
            false,
            false,
            None,
            None,
            format!("unknown: {why}").as_str(),
            Some("repaired (loose)"),
            Some("repaired"),
        )
    );
    let drawn = drawn_at_80x24;
    let list = drawn(&mut screen);
    assert!(
        list[1].starts_with("   1  gate:repaired inventory.py Edit "),
        "{list:#?}"
    );
    let all = list.concat();
    for unwanted in ["FAILED", "DISAGREE", "!!!"] {
        assert!(!all.contains(unwanted), "{unwanted}: {list:#?}");
    }
    screen.select(1);
    let shown = drawn(&mut screen);
    assert!(
        shown[2].starts_with(" Claude Code: applied · srview: unknown: applied as repaired by"),
        "{shown:#?}"
    );
    // The edit's view shows no replay of the model's input (its blocks
    // failing): it says why, as the row does.
    let all = shown.concat();
    for unwanted in [
        "FAILED",
        "DISAGREE",
        "!!!",
        " 1 failed",
        "refused",
        "the edit fails",
    ] {
        assert!(!all.contains(unwanted), "{unwanted}: {shown:#?}");
    }
    assert!(
        all.contains("applied as repaired by the gate"),
        "{shown:#?}"
    );
}

/// A Codex rollout browsed in bounded memory (`sessions::browse::deferred`:
/// its edits listed as they are read, all reviewed once it is read to its
/// end, each review kept with its edit and what its row shows only, the
/// edit shown reviewed again from the edits kept) lists the rows of the
/// whole review (the previewer's `LiveReview`, every review kept whole)
/// and shows every edit as it does: the same content before, diff,
/// result, blocks and notes. A generated rollout of 300 edits over 40
/// files, read in random pieces: files edited many times, with failed,
/// loose and added-file edits among them. While the rollout is read, the
/// browser is loading and lists the edits read with srview's verdict to
/// come.
#[test]
fn a_codex_rollout_reviewed_at_its_end_shows_what_the_whole_review_shows() {
    use srview::sessions::load::{load, open_saved};
    use srview::source::agent::Verdict;
    use support::big_session::codex_rollout;
    let dir = tempfile::tempdir().expect("temp dir");
    let generated = codex_rollout(
        &dir.path().join("home"),
        &dir.path().join("workspace"),
        1 << 20,
        300,
    );
    let path = &generated.path;
    let (_, ws) = load(path, None).expect("loads");
    let mut whole = AgentEdits::session(
        "s".into(),
        read_session(path, None).expect("reads"),
        ws.clone(),
    );
    let rows = whole.list().rows().to_vec();
    assert_eq!(rows.len(), 300);
    // Several edits of one file, a failed one among them, after an
    // applied one: its content before comes from the later diffs undone.
    let failed_after_applied = rows.iter().any(|failed| {
        failed.agent == Verdict::Failed
            && rows
                .iter()
                .any(|r| r.file == failed.file && r.seq < failed.seq && r.agent == Verdict::Applied)
    });
    assert!(failed_after_applied, "no failed edit after an applied one");
    assert!(rows.iter().any(|r| r.loose), "no loose edit");
    assert!(
        rows.iter()
            .all(|r| !r.srview.starts_with("unknown: reviewed once")),
        "the whole review waits for nothing"
    );
    let opened = open_saved(path, 4096).expect("a file").expect("opens");
    let unread = fs::read(&opened.file).expect("read")[opened.read as usize..].to_vec();
    let rest = String::from_utf8(unread).expect("UTF-8");
    let mut screen = AgentEdits::loading_from(
        "s".into(),
        opened.reader,
        Some(ws.root.clone()),
        opened.read,
        opened.size,
        Some(opened.file),
    );
    let mut rng = Rng::new(34);
    let mut at = 0;
    while at < rest.len() {
        // Up to 60 kB, cut on a character's start.
        let want = at + 1 + rng.below(60_000);
        let to = (rest[at..].char_indices().map(|(i, _)| at + i))
            .find(|&i| i >= want)
            .unwrap_or(rest.len());
        let piece = rest[at..to].to_string();
        at = to;
        screen.on_text(Folded {
            appended: piece,
            ..Folded::default()
        });
        let listed = screen.list().rows();
        assert!(!screen.list().ended(), "ended before its end");
        assert!(
            listed.iter().all(|r| r.srview
                == "unknown: reviewed once the whole session is read: Codex's content before \
                    an edit is its file now with the later diffs undone"),
            "{:?}",
            listed.iter().map(|r| &r.srview).collect::<Vec<_>>()
        );
    }
    assert!(
        !screen.list().rows().is_empty(),
        "nothing listed while read"
    );
    screen.on_text(Folded {
        ended: true,
        ..Folded::default()
    });
    assert!(screen.list().ended());
    assert_eq!(screen.list().rows(), whole.list().rows());
    assert_eq!(screen.list().agent(), whole.list().agent());
    // The content before, diff, result, blocks and notes of the edit shown.
    let detail = |screen: &mut AgentEdits, seq: usize| {
        screen.select(seq);
        let app = screen.shown_app().expect("shown");
        (
            app.original().text().to_string(),
            app.diff().to_string(),
            app.result().text().to_string(),
            format!("{:?}", app.outcome()),
            app.notice().clone(),
        )
    };
    for seq in rows.iter().map(|r| r.seq) {
        assert_eq!(
            detail(&mut screen, seq),
            detail(&mut whole, seq),
            "edit {seq}"
        );
    }
}

/// Tester finding 10 in the session browser: the recorded Claude Code
/// session whose applied Edit replaced two functions with `# ... existing
/// helpers unchanged ...`. Its row carries the doubt (marked `DOUBT`, in
/// srview's words, in the warning colour's state), the header counts it,
/// the list's note and the edit's own view say the check's sentence; the
/// session's other Edit stays clean.
#[test]
fn the_browser_shows_an_applied_edit_in_doubt() {
    use srview::tui::app::agent::EditState;
    const STANDS_IN: &str = "its new text stands in for lines it leaves out (its line 1: `# \
                             ... existing helpers unchanged ...`), so it deletes 13 non-blank \
                             lines of the text it replaces: send every line the edit keeps, or \
                             edit only the lines that change";
    let tmp = tempfile::tempdir().expect("temp dir");
    let path = support::agents::claude_run_standing_in(tmp.path(), false);
    let reader = read_session(&path, None).expect("the session");
    let root = SessionRoot {
        root: tmp.path().to_path_buf(),
    };
    let mut screen = AgentEdits::session("s".into(), reader, root);
    let rows = screen.list().rows().to_vec();
    assert_eq!(
        rows.iter()
            .map(|r| (r.srview.as_str(), r.doubts.clone(), r.state()))
            .collect::<Vec<_>>(),
        [
            (
                "applies (exact) · doubt: stands in for code it leaves out",
                vec![STANDS_IN.to_string()],
                EditState::Doubt
            ),
            ("applies (exact)", Vec::new(), EditState::Applied),
        ]
    );
    assert_eq!(screen.list().in_doubt(), 1);
    let drawn = drawn_at_80x24;
    screen.select(1);
    // Back to the list, edit 1 selected: the note below it is edit 1's.
    use ratatui_crossterm::crossterm::event::{Event, KeyCode, KeyEvent};
    screen.on_event(Event::Key(KeyEvent::from(KeyCode::Esc)));
    let list = drawn(&mut screen);
    assert!(
        list[0].starts_with(" Claude Code 2.1.328 · 2 edits · 0 failed · 0 loose · 1 in doubt ·"),
        "{list:#?}"
    );
    assert!(
        list[1].starts_with("   1 DOUBT inventory.py Edit            applied        srview: ap"),
        "{list:#?}"
    );
    assert!(
        list[2].starts_with("   2       inventory.py Edit            applied        srview: ap"),
        "{list:#?}"
    );
    let note: String = list[3..23]
        .iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(note.contains(&format!("doubt: {STANDS_IN}")), "{list:#?}");
    screen.select(1);
    let shown = drawn(&mut screen);
    assert!(
        shown[2].starts_with(" Claude Code: applied · srview: applies (exact) · doubt: stands in"),
        "{shown:#?}"
    );
    // Claude Code applied it: the footer offers no `a`, which would refuse
    // (a tester's find).
    assert!(
        shown[23].contains("q quit") && !shown[23].contains("a accept"),
        "{shown:#?}"
    );
    assert!(!screen.shown_app().expect("the edit shown").accept_offered());
    let app = screen.shown_app().expect("the edit shown");
    assert_eq!(
        app.notice().as_ref().map(|n| n.text.as_str()),
        Some(format!("doubt: {STANDS_IN}").as_str())
    );
    screen.select(2);
    let app = screen.shown_app().expect("the edit shown");
    assert_eq!(app.notice(), &None);
}

/// Tester finding 10 live (`AGENT | srview -`, `--follow`): the same Edit
/// in Claude Code's stream, fed in random pieces over the file as it was
/// before the run, is in doubt once it is reviewed, as in the saved
/// session; the stream's other Edit stays clean.
#[test]
fn the_live_view_shows_an_applied_edit_in_doubt() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let stream = support::agents::claude_run_standing_in(tmp.path(), true);
    let ws = tempfile::tempdir().expect("a workspace");
    let want = support::agents::expected(
        &support::agents::fixtures().join("claude-code-2.1.328/a_edits_ok"),
    );
    files_before(&want, ws.path());
    let mut screen = AgentEdits::live("live".into(), Some(ws.path().to_path_buf()))
        .with_agent_cwd("/home/user/project");
    feed(
        &mut screen,
        &fs::read_to_string(&stream).expect("the stream"),
        5,
    );
    let rows: Vec<(String, usize)> = screen
        .list()
        .rows()
        .iter()
        .map(|r| (r.srview.clone(), r.doubts.len()))
        .collect();
    assert_eq!(
        rows,
        [
            (
                "applies (exact) · doubt: stands in for code it leaves out".to_string(),
                1
            ),
            ("applies (exact)".to_string(), 0),
        ]
    );
    assert_eq!(screen.list().in_doubt(), 1);
}

/// The screen drawn on an 80x24 terminal without colours, a string per row.
fn drawn_at_80x24(screen: &mut AgentEdits) -> Vec<String> {
    use ratatui::Terminal;
    use ratatui::backend::TestBackend;
    use srview::tui::view::theme::{ColourMode, Theme};
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("terminal");
    terminal
        .draw(|f| {
            screen.on_resize(f.area());
            screen.render(f, &Theme::new(ColourMode::None))
        })
        .expect("draw");
    let buf = terminal.backend().buffer();
    (0..24)
        .map(|y| (0..80).map(|x| buf[(x, y)].symbol().to_string()).collect())
        .collect()
}

/// Round-38 finding 02 in the session browser: Claude Code's saved session
/// ends after an Edit's call and its `file-history-delta` (Claude Code backs
/// the file up right before writing it), the file holding the edit's
/// result. The edit has no verdict (not "never ran"), srview says it looks
/// applied already, and `a`, pressed twice, writes nothing: the inserted
/// line stays in the file once.
#[test]
fn the_browser_writes_nothing_for_an_edit_the_output_ends_before_the_result_of() {
    use ratatui_crossterm::crossterm::event::{Event, KeyCode, KeyEvent};
    use srview::tui::app::agent::EditState;
    let cut_off = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/cut-off");
    let tmp = tempfile::tempdir().expect("temp dir");
    let now = fs::read_to_string(cut_off.join("inventory.py.now")).expect("the file now");
    let file = tmp.path().join("inventory.py");
    fs::write(&file, &now).expect("write");
    let reader =
        read_session(&cut_off.join("claude-killed-mid-edit.jsonl"), None).expect("the session");
    let root = SessionRoot {
        root: tmp.path().to_path_buf(),
    };
    let mut screen = AgentEdits::session("s".into(), reader, root);
    let row = screen.list().rows()[0].clone();
    assert!(row.verdict_missing);
    assert_eq!(row.state(), EditState::NoVerdict);
    assert!(
        row.srview.starts_with(
            "unknown: the output ends before Claude Code's result on this edit: it may have \
             been applied; the current file "
        ) && row
            .srview
            .ends_with("holds its new text already: it looks applied already"),
        "{}",
        row.srview
    );
    screen.select(1);
    for _ in 0..2 {
        screen.on_event(Event::Key(KeyEvent::from(KeyCode::Char('a'))));
        assert_eq!(
            screen.list().notice().as_ref().map(|n| n.text.as_str()),
            Some(
                "not accepted: the output ends before Claude Code's verdict on this edit: \
                 srview cannot tell whether Claude Code applied it"
            )
        );
    }
    assert_eq!(fs::read_to_string(&file).expect("read"), now);
    assert_eq!(now.matches("HIGH_STOCK = 50").count(), 1);
}
