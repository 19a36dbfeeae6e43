//! OpenCode 1.18.33: its SQLite database read through the binary
//! (`session PATH --json`, `session ID`, `sessions`), its live
//! `opencode run --format json` piped into `session - --json`, a database
//! growing while it is followed (made here with rusqlite in OpenCode's
//! shape, in WAL mode, a writer holding it open), and the previewer
//! following it in a terminal, showing the fuzzy match OpenCode reported
//! as a plain success.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{Connection, params};
use serde_json::Value;

use super::support::agents::{ExpectedEdit, expected, fixtures, session_path};
use super::support::big_session;
use super::support::runner::{code, srview, stderr, stdout};
use srview::source::agent::{AgentKind, AgentReader, Format, Verdict, database};

fn scenario(name: &str) -> PathBuf {
    fixtures().join("opencode-1.18.33").join(name)
}

/// A folder holding the scenario's files as the run left them: OpenCode's
/// recorded diffs are undone from them.
fn workspace(scenario: &Path) -> tempfile::TempDir {
    crate::support::agents::workspace_copy(scenario, "after")
}

/// Each edit of `session --json` against expected.json: file, tool, the
/// agent's verdict and message, and the content before when given.
fn assert_edits(label: &str, json: &Value, want: &[ExpectedEdit]) {
    assert_eq!(json["agent"], "opencode", "{label}");
    let edits = json["edits"].as_array().expect("edits");
    assert_eq!(edits.len(), want.len(), "{label}: {json}");
    for (g, w) in edits.iter().zip(want) {
        assert_eq!(g["file"], w.file.as_str(), "{label}");
        assert_eq!(g["tool"], w.tool.as_str(), "{label}");
        assert_eq!(g["agentVerdict"], w.agent_verdict.as_str(), "{label}");
        assert_eq!(
            g["agentMessage"].as_str(),
            w.agent_message.as_deref(),
            "{label}"
        );
        // OpenCode records no file before an edit: its diffs undone from
        // the file as it is now give each one.
        assert_eq!(
            g["contentBefore"].as_str(),
            w.content_before.as_deref(),
            "{label}: seq {}",
            w.seq
        );
    }
}

const SCENARIOS: [&str; 4] = [
    "c2_fuzzy_block_anchor",
    "f_edit_rejected",
    "h2_apply_patch_nomatch",
    "e_write_new",
];

#[test]
fn saved_database_and_live_stream_give_the_expected_edits_through_the_binary() {
    for name in SCENARIOS {
        let dir = scenario(name);
        let want = expected(&dir).edits;
        let ws = workspace(&dir);
        let cwd = ws.path().to_str().expect("UTF-8");
        let db = session_path(&dir);
        let out = srview([
            "session",
            db.to_str().expect("UTF-8"),
            "--json",
            "--cwd",
            cwd,
        ])
        .output();
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        // The database holds no session of the tests' folder: the one
        // read is said.
        let db_text = db.display().to_string();
        assert!(
            stderr(&out).starts_with(&format!(
                "srview: {db_text} holds no session of this folder: the newest of all: \
                 {db_text}/ses_"
            )),
            "{}",
            stderr(&out)
        );
        let json = super::support::runner::stdout_json(&out);
        assert_eq!(json["version"], "1.18.33", "{name}");
        assert_edits(&format!("{name} (database)"), &json, &want);

        let live = fs::read(dir.join("stdout.jsonl")).expect("stdout.jsonl");
        let out = srview(["session", "-", "--json", "--cwd", cwd])
            .stdin(&live)
            .output();
        assert_eq!(code(&out), 0, "{name}: {}", stderr(&out));
        let json = super::support::runner::stdout_json(&out);
        assert_edits(&format!("{name} (live)"), &json, &want);
    }
}

#[test]
fn a_refused_permission_is_an_edit_never_run_with_opencodes_text() {
    let dir = scenario("f_edit_rejected");
    let ws = workspace(&dir);
    let db = session_path(&dir);
    let out = srview(["session", db.to_str().expect("UTF-8")])
        .arg("--cwd")
        .arg(ws.path())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let listing = stdout(&out);
    assert!(
        listing.contains("inventory.py  edit             OpenCode: not-run "),
        "{listing}"
    );
    let reader = srview::source::agent::session::read_session(&db, None).expect("read");
    let edit = &reader.edits()[0];
    assert_eq!(edit.agent_verdict, Verdict::NotRun);
    assert_eq!(
        edit.agent_message.as_deref(),
        Some("The user rejected permission to use this specific tool call.")
    );
}

/// The review of the scenario `name`'s session over its files as the run
/// left them.
fn reviewed(name: &str) -> srview::sessions::review::SessionReview {
    let dir = scenario(name);
    let ws = workspace(&dir);
    let reader =
        srview::source::agent::session::read_session(&session_path(&dir), None).expect("read");
    let root = srview::sessions::recover::SessionRoot {
        root: ws.path().to_path_buf(),
    };
    srview::sessions::review::review(&reader, &root)
}

/// The loose-match note of the session's edit `seq` (from 1).
fn loose_note(name: &str, seq: usize) -> Option<String> {
    reviewed(name).reviews[seq - 1].loose_match.clone()
}

#[test]
fn fuzzy_matches_opencode_called_a_success_name_its_replacer() {
    for (name, stage) in [
        ("c1_fuzzy_line_trimmed", "LineTrimmedReplacer"),
        (
            "c3_fuzzy_whitespace_normalized",
            "WhitespaceNormalizedReplacer",
        ),
        ("c5_fuzzy_escape_normalized", "EscapeNormalizedReplacer"),
        ("d2_ambiguous_exact_unique_fuzzy", "LineTrimmedReplacer"),
    ] {
        assert_eq!(
            loose_note(name, 1).as_deref(),
            Some(
                format!("matched only loosely ({stage}) while OpenCode reported plain success")
                    .as_str()
            ),
            "{name}"
        );
    }
    // The anchored stages replace the lines between as the file has them:
    // the lines the model misremembered are named.
    assert_eq!(
        loose_note("c2_fuzzy_block_anchor", 1).as_deref(),
        Some(
            "matched only loosely (BlockAnchorReplacer) while OpenCode reported plain success; \
             it replaced lines the edit's old text does not hold: `total = 0`, \
             `total += item.price * item.qty`"
        )
    );
    assert_eq!(
        loose_note("c7_fuzzy_context_aware", 1).as_deref(),
        Some(
            "matched only loosely (ContextAwareReplacer) while OpenCode reported plain success; \
             it replaced lines the edit's old text does not hold: `return None`"
        )
    );
    // An exact edit has no note.
    assert_eq!(loose_note("a_edits_ok", 1), None);
}

/// `HOME` holding OpenCode's database with the c2 session, recorded as run
/// in `project`.
fn home_with_database(project: &Path) -> (tempfile::TempDir, String) {
    let home = tempfile::tempdir().expect("tempdir");
    let data = home.path().join(".local/share/opencode");
    fs::create_dir_all(&data).expect("mkdir");
    let db = data.join("opencode.db");
    fs::copy(session_path(&scenario("c2_fuzzy_block_anchor")), &db).expect("copy");
    let conn = Connection::open(&db).expect("open");
    // As if OpenCode had run there: its folder and the paths it wrote.
    let dir = project.to_str().expect("UTF-8");
    conn.execute("UPDATE session SET directory = ?1", params![dir])
        .expect("update");
    conn.execute(
        "UPDATE part SET data = replace(data, '/home/user/project', ?1)",
        params![dir],
    )
    .expect("update");
    let id: String = conn
        .query_row("SELECT id FROM session", [], |r| r.get(0))
        .expect("id");
    (home, id)
}

#[test]
fn sessions_lists_this_folders_opencode_sessions_and_session_finds_one_by_id() {
    let project = workspace(&scenario("c2_fuzzy_block_anchor"));
    let elsewhere = tempfile::tempdir().expect("tempdir");
    let (home, id) = home_with_database(project.path());
    let home_text = home.path().to_string_lossy().to_string();

    let cells = crate::listed_cells(home.path(), project.path(), "opencode");
    // agent, version, edits, failed, loose, unknown; the session last.
    assert_eq!(
        cells[2..8],
        ["opencode", "1.18.33", "1", "0", "1", "0"],
        "{cells:?}"
    );
    assert!(
        cells
            .last()
            .is_some_and(|s| s.ends_with(&format!("opencode.db/{id}"))),
        "{cells:?}"
    );

    // From another folder: not listed, and said.
    let out = crate::sessions_listed(home.path(), elsewhere.path());
    assert!(!stdout(&out).contains("opencode"), "{}", stdout(&out));
    assert_eq!(
        stderr(&out).trim_end(),
        format!(
            "srview: no sessions found under {home_text}\n\
             srview: 1 session of other folders in an agent's database not listed \
         (`srview session ID` opens one)"
        )
    );

    // By its id (a prefix), from anywhere.
    let out = srview(["session", &id[..12], "--json"])
        .env("HOME", &home_text)
        .cwd(elsewhere.path())
        .arg("--cwd")
        .arg(project.path())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json = super::support::runner::stdout_json(&out);
    assert_edits(
        "by id",
        &json,
        &expected(&scenario("c2_fuzzy_block_anchor")).edits,
    );

    // The database named: the newest session of this folder, said.
    let db = home.path().join(".local/share/opencode/opencode.db");
    let out = srview(["session", db.to_str().expect("UTF-8"), "--json"])
        .cwd(project.path())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "srview: {}: the newest session of this folder: {}/{id}\n",
            db.display(),
            db.display()
        )
    );

    // No path: the newest session of this folder.
    let out = srview(["session", "--json"])
        .env("HOME", &home_text)
        .cwd(project.path())
        .output();
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("opencode.db/{id}")),
        "{}",
        stderr(&out)
    );
}

/// OpenCode's `session` and `part` tables (the columns srview reads and
/// those NOT NULL), in WAL mode as OpenCode keeps them.
fn new_database(path: &Path) -> Connection {
    let conn = Connection::open(path).expect("create");
    conn.execute_batch(
        "PRAGMA journal_mode = WAL;
         CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, parent_id text,
           slug text NOT NULL, directory text NOT NULL, title text NOT NULL,
           version text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
         CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL,
           session_id text NOT NULL, time_created integer NOT NULL,
           time_updated integer NOT NULL, data text NOT NULL);
         CREATE INDEX part_session_idx ON part (session_id);",
    )
    .expect("schema");
    conn
}

fn add_session(conn: &Connection, id: &str, dir: &Path, at: i64) {
    conn.execute(
        "INSERT INTO session VALUES (?1, 'global', NULL, 'slug', ?2, 'title', '1.18.33', ?3, ?3)",
        params![id, dir.to_str().expect("UTF-8"), at],
    )
    .expect("session");
}

/// Writes a tool part as OpenCode does: inserted, then updated in place.
fn put_part(conn: &Connection, session: &str, id: &str, at: i64, data: &Value) {
    conn.execute(
        "INSERT INTO part VALUES (?1, 'msg_1', ?2, ?3, ?3, ?4)
         ON CONFLICT(id) DO UPDATE SET time_updated = excluded.time_updated, data = excluded.data",
        params![id, session, at, data.to_string()],
    )
    .expect("part");
}

/// The recorded c2 edit's part data, and the same part while it ran, as
/// if OpenCode had run in `project`.
fn recorded_edit_part(project: &Path) -> (Value, Value) {
    let conn = Connection::open_with_flags(
        session_path(&scenario("c2_fuzzy_block_anchor")),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .expect("open");
    let data: String = conn
        .query_row(
            "SELECT data FROM part WHERE json_extract(data, '$.tool') = 'edit'",
            [],
            |r| r.get(0),
        )
        .expect("the edit part");
    let data = data.replace("/home/user/project", project.to_str().expect("UTF-8"));
    let completed: Value = serde_json::from_str(&data).expect("JSON");
    let mut running = completed.clone();
    let state = &mut running["state"];
    state["status"] = "running".into();
    for key in ["output", "metadata"] {
        state.as_object_mut().expect("state").remove(key);
    }
    (running, completed)
}

#[test]
fn a_growing_database_is_followed_row_by_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let db = dir.path().join("opencode.db");
    let project = dir.path().join("project");
    let writer = new_database(&db);
    add_session(&writer, "ses_a", &project, 1_000);
    let (running, completed) = recorded_edit_part(&project);
    put_part(&writer, "ses_a", "prt_1", 1_001, &running);

    let (format, mut tail) = database::open(&db, true)
        .expect("a database")
        .expect("opened");
    assert_eq!(format, Format::OpenCodeDatabase);
    assert!(dir.path().join("opencode.db-wal").exists(), "WAL beside it");
    let mut reader = AgentReader::new(AgentKind::OpenCode, format);
    let first = tail.poll().expect("read").expect("the first rows");
    reader.feed(first.as_bytes());
    assert_eq!(reader.workspace(), project.to_str());
    assert_eq!(reader.version(), Some("1.18.33"));
    assert_eq!(reader.edits().len(), 1);
    assert_eq!(reader.edits()[0].agent_verdict, Verdict::Pending);
    // Nothing written since: nothing read.
    assert_eq!(tail.poll().expect("read"), None);

    // The edit runs; a second one is refused; a bash command runs.
    put_part(&writer, "ses_a", "prt_1", 1_010, &completed);
    let mut refused = completed.clone();
    refused["callID"] = "call_2".into();
    refused["state"] = serde_json::json!({
        "status": "error",
        "input": {"filePath": "/p/inventory.py", "oldString": "a", "newString": "b"},
        "error": "The user rejected permission to use this specific tool call.",
        "time": {"start": 1, "end": 2},
    });
    put_part(&writer, "ses_a", "prt_2", 1_020, &refused);
    reader.feed(tail.poll().expect("read").expect("new rows").as_bytes());
    let edits = reader.edits();
    assert_eq!(edits.len(), 2);
    assert_eq!(edits[0].agent_verdict, Verdict::Applied);
    assert!(
        edits[0]
            .agent_diff
            .as_deref()
            .is_some_and(|d| d.contains("@@ -14,11 +14,12 @@"))
    );
    assert_eq!(edits[1].agent_verdict, Verdict::NotRun);

    // A later session in the same folder is followed too; one elsewhere
    // is not.
    add_session(&writer, "ses_b", &project, 2_000);
    add_session(&writer, "ses_c", Path::new("/elsewhere"), 2_001);
    let mut again = completed.clone();
    again["callID"] = "call_3".into();
    put_part(&writer, "ses_b", "prt_3", 2_010, &again);
    put_part(&writer, "ses_c", "prt_4", 2_011, &again);
    reader.feed(tail.poll().expect("read").expect("new rows").as_bytes());
    assert_eq!(reader.edits().len(), 3);
    assert_eq!(tail.poll().expect("read"), None);
    drop(writer);
}

#[test]
fn the_previewer_follows_a_growing_database_and_shows_the_fuzzy_match_with_its_replacer() {
    let dir = workspace(&scenario("c2_fuzzy_block_anchor"));
    let db = dir.path().join("opencode.db");
    let writer = new_database(&db);
    add_session(&writer, "ses_a", dir.path(), 1_000);
    let (running, completed) = recorded_edit_part(dir.path());
    put_part(&writer, "ses_a", "prt_1", 1_001, &running);
    let mut s = crate::following_at_80x24(dir.path(), "opencode.db");
    s.wait_for("the running edit", |c| {
        c.contains("OpenCode 1.18.33") && c.contains("inventory.py")
    });
    std::thread::sleep(Duration::from_millis(300));
    put_part(&writer, "ses_a", "prt_1", 1_010, &completed);
    s.wait_for("the loose match OpenCode called a success", |c| {
        c.contains("1 loose")
            // Cut at the edge with `…`; the lines it replaced unasked are
            // said in full below the blocks (a tester's find: only the cut
            // line named them), and the gutter marks a block-anchor match.
            && c.contains("loose match: matched only loosely (BlockAnchorReplacer) while OpenCode")
            && c.contains("it replaced lines the edit's old text does not hold: `total =")
            && c.contains(" 18-A     total = 0")
            && c.contains("≈ BlockAnchorReplacer 17-21")
    });
    s.press(b"q");
    assert_eq!(s.exit_code(), 0);
    drop(writer);
}

#[test]
fn unknown_lines_and_fields_are_skipped_and_a_torn_line_is_read_once_it_grows() {
    let live = fs::read_to_string(scenario("b_edit_nomatch_retry").join("stdout.jsonl"))
        .expect("stdout.jsonl");
    let mut noisy = String::new();
    for line in live.lines() {
        noisy.push_str("{\"type\":\"future_event\",\"sessionID\":\"s\",\"part\":{}}\n");
        // A field OpenCode may add some day.
        noisy.push_str(&line.replacen('{', "{\"later\":[1,{\"x\":2}],", 1));
        noisy.push('\n');
    }
    noisy.push_str("not JSON at all\n");
    let read = |text: &str| {
        let mut reader = AgentReader::new(AgentKind::OpenCode, Format::OpenCodeRunJson)
            .with_workspace("/home/user/project");
        reader.feed(text.as_bytes());
        reader.finish();
        reader
    };
    let clean = read(&live);
    let reader = read(&noisy);
    assert_eq!(reader.edits(), clean.edits());
    assert_eq!(reader.edits().len(), 2);
    // The one line that is not JSON is said, with OpenCode named.
    assert_eq!(reader.errors().len(), 1, "{:?}", reader.errors());
    assert!(
        reader.errors()[0]
            .to_string()
            .starts_with("OpenCode (version not named yet): line "),
        "{}",
        reader.errors()[0]
    );

    // The edit's line torn: nothing until it grows, then the edit once.
    let at = live.find("\"tool\":\"edit\"").expect("an edit line");
    let mut reader = AgentReader::new(AgentKind::OpenCode, Format::OpenCodeRunJson);
    reader.feed(&live.as_bytes()[..at]);
    assert!(reader.edits().is_empty());
    reader.feed(&live.as_bytes()[at..]);
    assert_eq!(reader.finish().len(), 2);
    assert!(reader.errors().is_empty(), "{:?}", reader.errors());
}

#[test]
fn a_version_not_seen_before_is_said_once() {
    let mut reader = AgentReader::new(AgentKind::OpenCode, Format::OpenCodeDatabase);
    let header = |id: &str| {
        format!(
            "{{\"type\":\"session\",\"session\":{{\"id\":\"{id}\",\"directory\":\"/p\",\"version\":\"1.19.0\"}}}}\n"
        )
    };
    reader.feed(header("ses_a").as_bytes());
    reader.feed(header("ses_b").as_bytes());
    reader.finish();
    assert_eq!(reader.version(), Some("1.19.0"));
    let said: Vec<String> = reader.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "OpenCode 1.19.0: srview was tested with 1.18.33; this version's output may differ \
          (a line or field srview does not know is skipped)"
        ]
    );
}

#[test]
fn a_database_that_is_not_opencodes_is_said_plainly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let junk = dir.path().join("junk.db");
    fs::write(&junk, vec![7u8; 5000]).expect("write");
    let other = dir.path().join("other.db");
    Connection::open(&other)
        .expect("create")
        .execute_batch("CREATE TABLE x (a);")
        .expect("table");
    let missing_session = session_path(&scenario("a_edits_ok")).join("ses_nope");
    let said = |path: &Path| match srview::source::agent::session::read_session(path, None) {
        Ok(_) => panic!("{} read", path.display()),
        Err(e) => e.to_string(),
    };
    assert_eq!(
        said(&junk),
        format!("cannot read {}: file is not a database", junk.display())
    );
    assert_eq!(
        said(&other),
        format!(
            "cannot read {}: not an OpenCode database srview can read (no such table: session)",
            other.display()
        )
    );
    assert_eq!(
        said(&missing_session),
        format!(
            "cannot read {}: no session ses_nope in it",
            missing_session.display()
        )
    );
}

#[test]
fn check_session_explains_the_failed_edit_of_an_opencode_database() {
    let dir = scenario("b_edit_nomatch_retry");
    let ws = workspace(&dir);
    let db = session_path(&dir);
    let out = srview(["check", "--session", db.to_str().expect("UTF-8")])
        .arg("--cwd")
        .arg(ws.path())
        .output();
    let text = stdout(&out);
    assert!(
        text.starts_with(
            "OpenCode 1.18.33: 2 edits, 1 failed\n\nedit 1 · inventory.py · edit · OpenCode: failed\n  OpenCode said:\n  | Could not find oldString in the file. It must match exactly, including whitespace, indentation, and line endings.\n  srview, against the content before (the agent's diffs undone on the current file):\n    error: Could not find oldString in the file."
        ),
        "{text}"
    );
    // A failed edit explained: the exit status says so.
    assert_eq!(code(&out), 1, "{}", stderr(&out));
}

/// A generated OpenCode database (tests/support/big_session.rs) is listed
/// from its session's folder with the counts its generator knows.
#[test]
fn a_generated_database_is_counted_as_it_is_read() {
    let root = tempfile::tempdir().expect("tempdir");
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    let big = big_session::opencode_database(&home, &project, 2 << 20, 200);
    let listed = srview::sessions::count::count(&big.path).expect("counts");
    assert_eq!(listed.agent, AgentKind::OpenCode);
    assert_eq!(listed.version.as_deref(), Some("1.18.33"));
    assert_eq!(
        (
            listed.counts.edits,
            listed.counts.failed,
            listed.counts.loose,
            listed.counts.disagreements,
            listed.counts.unknown
        ),
        (big.edits, big.failed, big.loose, 0, 0)
    );
    assert!(big.failed > 0 && big.loose > 0, "{big:?}");
}

/// The bound, a 100 MB session listed in under 2 s, on a 100 MB
/// generated database: `cargo test --release --test more_agents -- --ignored
/// --nocapture opencode::a_100`.
#[test]
#[ignore]
fn a_100_mb_database_is_listed_quickly() {
    let root = tempfile::tempdir().expect("tempdir");
    let (home, project) = (root.path().join("home"), root.path().join("project"));
    let big = big_session::opencode_database(&home, &project, 100 << 20, 10_000);
    let run = super::support::measure::run_measured(
        Path::new(super::support::runner::BIN),
        &["sessions", &home.to_string_lossy()],
        &project,
    );
    println!(
        "{} MiB, {} edits: listed in {:?}, peak RSS {} MiB",
        big.bytes >> 20,
        big.edits,
        run.wall,
        run.peak_kib >> 10
    );
    // The session's row, after the listing's header.
    let row = run.row_words(1);
    assert_eq!(
        row[2..7],
        [
            "opencode",
            "1.18.33",
            &big.edits.to_string(),
            &big.failed.to_string(),
            &big.loose.to_string()
        ]
    );
    let limit = if cfg!(debug_assertions) { 30.0 } else { 2.0 };
    assert!(run.wall.as_secs_f64() < limit, "{:?}", run.wall);
}

/// OpenCode's line-trimmed stage wrote the c1 capture's new lines at the
/// model's indentation, and Python refuses the file it left
/// (`after/inventory.py` raises IndentationError): the loose stage is said,
/// and so is the result's fault, in the session's review and in `check`
/// (a tester's find: only `loose` was said, and `a` wrote the file).
#[test]
fn a_loose_edit_that_leaves_python_refusing_the_file_says_so() {
    let reviewed = reviewed("c1_fuzzy_line_trimmed");
    let review = &reviewed.reviews[0];
    assert!(review.loose_match.is_some(), "{review:?}");
    let doubts: Vec<&str> = review.doubts().iter().map(|d| d.message.as_str()).collect();
    assert!(
        doubts.len() == 1
            && doubts[0]
                .starts_with("the diff leaves inventory.py misindented: as written, line 44")
            && doubts[0].contains("Python refuses the file (IndentationError"),
        "{doubts:?}"
    );
    // `check` on the recorded input, over the file before it.
    let recorded: Value = serde_json::from_str(
        &fs::read_to_string(
            fixtures().join("../matchers/recorded/opencode_edit/c1_fuzzy_line_trimmed-1.json"),
        )
        .expect("recorded call"),
    )
    .expect("JSON");
    let project = tempfile::tempdir().expect("tempdir");
    let before = recorded["before"].as_str().expect("before");
    fs::write(project.path().join("inventory.py"), before).expect("write");
    let mut input = recorded["input"].clone();
    input["filePath"] = "inventory.py".into();
    fs::write(project.path().join("edit.json"), input.to_string()).expect("write");
    let out = srview([
        "check",
        "inventory.py",
        "edit.json",
        "--dialect",
        "opencode-edit",
    ])
    .cwd(project.path())
    .output();
    assert_eq!(code(&out), 1, "{}", stderr(&out));
    let said = stdout(&out) + &stderr(&out);
    assert!(
        said.contains("a loose stage of OpenCode 1.18.33's edit tool")
            && said.contains(
                "the call leaves inventory.py misindented: as written, line 44 (`item.qty += amount`)"
            ),
        "{said}"
    );
}
