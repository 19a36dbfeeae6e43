//! Every capture in tests/fixtures/agents/<agent-version>/<scenario>/ (real
//! CLI runs, copied from the shared captures with their expected.json) read
//! through the live path (the stream fed in random pieces) and the session
//! path (the saved file read from disk), checked per edit against
//! expected.json: file, tool, the agent's verdict and message, and the
//! contents before / after wherever the format carries them.
//!
//! What each format does not carry (checked as absent-or-equal only):
//! - Claude Code: no content before a failed edit unless an earlier edit of
//!   the same file in the session gives it (chained).
//! - Codex: no content of an updated file (only an added file's content);
//!   `exec --json` names changed files only, sorted, and says nothing of a
//!   failed patch; the app-server log does not report a failed patch.
//! - Cline CLI 3.x: no content at all (the git checkpoint in the manifest
//!   is the source); the live stream does not name its workspace or version.
//! - Cline classic: the content before only in a failure's
//!   `<file_content>`, the content after in a success's
//!   `<final_file_content>`; the live stream does not name the version.
//! - Aider: contents only for `--edit-format whole` (the reply is the file).
//! - Qwen Code: the live stream carries a written file's content only (and
//!   its absence before, when the tool says it created the file).
//! - pi: no content at all, but a `write`'s content after; a whole-file
//!   `read` before an edit gives its content before. The session names no
//!   pi version.
//! - Gemini CLI: the saved session has both contents of an applied edit
//!   (`resultDisplay`); a failed one's only chained; the live stream none,
//!   nor the workspace. Neither names the version.

use std::collections::BTreeMap;
use std::fs;

use srview::source::agent::session::read_session;
use srview::source::agent::{
    AgentEdit, AgentEvent, AgentKind, AgentReader, FileContent, Format, Verdict, detect,
};

mod support;
use support::agents::{
    ExpectedEdit, expected, fixtures, live_file, recorded_scenarios, scenarios, session_path,
};

/// Feeds `bytes` in random pieces (1 to 200 bytes; seed 0: whole).
fn feed_chunked(reader: &mut AgentReader, bytes: &[u8], seed: u64) {
    if seed == 0 {
        reader.feed(bytes);
        return;
    }
    let mut rng = support::rng::XorShift(seed);
    let mut at = 0;
    while at < bytes.len() {
        let n = (rng.next() % 200 + 1) as usize;
        let end = (at + n).min(bytes.len());
        reader.feed(&bytes[at..end]);
        at = end;
    }
}

fn text(c: Option<&FileContent>) -> Option<Option<&str>> {
    c.map(FileContent::text)
}

/// Which contents a format must give for an edit (beyond absent-or-equal).
fn must_carry(format: Format, edit: &AgentEdit) -> (bool, bool) {
    let applied = edit.agent_verdict == Verdict::Applied;
    match format {
        Format::ClaudeStreamJson | Format::ClaudeSessionJsonl => (applied, applied),
        Format::CodexRollout | Format::CodexAppServer => {
            let added = matches!(edit.input, srview::source::agent::EditInput::Whole(_))
                || matches!(&edit.input, srview::source::agent::EditInput::ApplyPatch(p)
                    if p.contains("*** Add File: "));
            (applied && added, applied && added)
        }
        Format::ClineUiMessages | Format::ClineApiHistory => {
            (edit.agent_verdict == Verdict::Failed, applied)
        }
        Format::AiderStdout | Format::AiderHistory => {
            (false, applied && edit.tool.name() == "aider-whole")
        }
        Format::QwenChatJsonl => (applied, applied),
        Format::QwenStreamJson => (false, applied && edit.tool.name() == "write_file"),
        Format::GeminiSessionJsonl => (applied, applied),
        _ => (false, false),
    }
}

/// Compares `got` with the expected edits; returns the mismatches.
fn compare(
    format: Format,
    want: &[ExpectedEdit],
    got: &[AgentEdit],
    contents: &mut usize,
) -> Vec<String> {
    let mut problems = Vec::new();
    *contents += got.iter().filter(|e| e.before().is_some()).count();
    *contents += got.iter().filter(|e| e.after().is_some()).count();
    if want.len() != got.len() {
        problems.push(format!(
            "{} edits, expected {}: {:?}",
            got.len(),
            want.len(),
            got.iter()
                .map(|e| (e.file.as_str(), e.tool.name(), e.agent_verdict.name()))
                .collect::<Vec<_>>()
        ));
        return problems;
    }
    for (w, g) in want.iter().zip(got) {
        let mut field = |name: &str, ok: bool, detail: String| {
            if !ok {
                problems.push(format!("edit {}: {name}: {detail}", w.seq));
            }
        };
        field("seq", g.seq == w.seq, format!("{}", g.seq));
        // Compared as written: names as they are, strings quoted.
        for (name, got, wanted) in [
            ("file", format!("{:?}", g.file), format!("{:?}", w.file)),
            ("tool", g.tool.name().to_string(), w.tool.clone()),
            (
                "agentVerdict",
                g.agent_verdict.name().to_string(),
                w.agent_verdict.clone(),
            ),
            (
                "agentMessage",
                format!("{:?}", g.agent_message),
                format!("{:?}", w.agent_message),
            ),
        ] {
            field(name, got == wanted, format!("{got} != {wanted}"));
        }
        field(
            "streaming",
            !g.streaming,
            "still streaming at the end".into(),
        );
        let (need_before, need_after) = must_carry(format, g);
        let updated_by_codex = format == Format::CodexRollout
            && g.agent_verdict == Verdict::Applied
            && !matches!(&g.input, srview::source::agent::EditInput::ApplyPatch(p)
                if p.contains("*** Add File: "));
        field(
            "agent_diff",
            !updated_by_codex || g.agent_diff.as_ref().is_some_and(|d| d.contains("@@")),
            "Codex's recorded diff missing".into(),
        );
        // A content given must be the true one; one not given must not be
        // one the format always gives.
        let origin = |c: &Option<srview::source::agent::Content>| {
            format!("{:?}", c.as_ref().map(|c| c.origin))
        };
        for (name, given, wanted, needed, from) in [
            (
                "contentBefore",
                g.before(),
                &w.content_before,
                need_before,
                origin(&g.content_before),
            ),
            (
                "contentAfter",
                g.after(),
                &w.content_after,
                need_after,
                origin(&g.content_after),
            ),
        ] {
            match text(given) {
                Some(t) => field(name, t == wanted.as_deref(), from),
                None => field(name, !needed, "not given".into()),
            }
        }
    }
    problems
}

/// The workspace a live stream that does not name one ran in.
fn live_workspace(format: Format) -> Option<&'static str> {
    matches!(
        format,
        Format::ClineCliJson
            | Format::CodexExecJson
            | Format::OpenCodeRunJson
            | Format::GeminiStreamJson
    )
    .then_some("/home/user/project")
}

#[derive(Default)]
struct Tally {
    contents: usize,
    live: usize,
    session: usize,
    edits: usize,
}

#[test]
fn every_capture_reads_to_its_expected_edits() {
    let mut problems = Vec::new();
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for (dir, label, want) in recorded_scenarios() {
        let t = tally.entry(want.agent_version()).or_default();
        t.edits += want.edits.len();

        // Session path.
        match read_session(&session_path(&dir), None) {
            Ok(reader) => {
                assert_eq!(reader.kind().name(), want.agent, "{label}: session agent");
                let saved = match want.agent.as_str() {
                    "claude-code" => Format::ClaudeSessionJsonl,
                    "codex" => Format::CodexRollout,
                    "cline-cli" => Format::ClineCliMessages,
                    "cline-classic" => Format::ClineApiHistory,
                    "qwen-code" => Format::QwenChatJsonl,
                    "pi" => Format::PiSession,
                    "opencode" => Format::OpenCodeDatabase,
                    "gemini-cli" => Format::GeminiSessionJsonl,
                    _ => Format::AiderHistory,
                };
                assert_eq!(reader.format(), saved, "{label}: session format");
                for p in compare(
                    reader.format(),
                    &want.edits,
                    reader.edits(),
                    &mut t.contents,
                ) {
                    problems.push(format!("{label} (session {:?}): {p}", reader.format()));
                }
                // pi's session names its format version only, not pi's;
                // Gemini CLI's sessions name no version.
                let names_version = want.agent != "pi" && want.agent != "gemini-cli";
                if names_version && reader.version() != Some(want.version.as_str()) {
                    problems.push(format!("{label} (session): version {:?}", reader.version()));
                }
                if !reader.errors().is_empty() {
                    problems.push(format!("{label} (session): errors {:?}", reader.errors()));
                }
                t.session += 1;
            }
            Err(e) => problems.push(format!("{label}: session: {e}")),
        }

        // Cline classic: the task's ui_messages.json too (the last version
        // of the file Cline rewrites as the task runs).
        if want.agent == "cline-classic" {
            let api = session_path(&dir);
            let ui = api.join("ui_messages.json");
            match read_session(&ui, None) {
                Ok(reader) => {
                    assert_eq!(reader.format(), Format::ClineUiMessages);
                    for p in compare(
                        reader.format(),
                        &want.edits,
                        reader.edits(),
                        &mut t.contents,
                    ) {
                        problems.push(format!("{label} (ui_messages.json): {p}"));
                    }
                    if reader.version() != Some(want.version.as_str()) {
                        problems.push(format!("{label} (ui): version {:?}", reader.version()));
                    }
                }
                Err(e) => problems.push(format!("{label}: ui_messages.json: {e}")),
            }
        }

        // Live path, whole and in random pieces: the same edits each time.
        let Some(live) = live_file(&dir) else {
            continue;
        };
        let bytes = fs::read(&live).unwrap();
        let Some((kind, format)) = detect(&bytes[..bytes.len().min(4096)]) else {
            // The styled text outputs (Cline CLI without --json, Cline
            // classic plain text) are for people, not srview.
            assert!(
                label.contains("text_fail") || label.contains("plaintext"),
                "{label}: live stream not detected"
            );
            continue;
        };
        assert_eq!(kind.name(), want.agent, "{label}: live agent");
        let name = live.file_name().unwrap().to_string_lossy();
        let streamed = match (want.agent.as_str(), name.as_ref()) {
            ("claude-code", _) => Format::ClaudeStreamJson,
            ("codex", "app-server.jsonl") => Format::CodexAppServer,
            ("codex", _) => Format::CodexExecJson,
            ("cline-cli", _) => Format::ClineCliJson,
            ("cline-classic", _) => Format::ClineUiMessages,
            ("qwen-code", _) => Format::QwenStreamJson,
            ("pi", _) => Format::PiJson,
            ("opencode", _) => Format::OpenCodeRunJson,
            ("gemini-cli", _) => Format::GeminiStreamJson,
            _ => Format::AiderStdout,
        };
        assert_eq!(format, streamed, "{label}: live format");
        let mut first: Option<Vec<AgentEdit>> = None;
        for seed in [0u64, 1, 7, 42, 1234] {
            let mut reader = AgentReader::new(kind, format);
            if let Some(ws) = live_workspace(format) {
                reader = reader.with_workspace(ws);
            }
            feed_chunked(&mut reader, &bytes, seed);
            let edits = reader.finish().to_vec();
            match &first {
                None => {
                    let want_edits = if format == Format::CodexExecJson {
                        exec_view(&want.edits)
                    } else {
                        want.edits.clone()
                    };
                    let got = if format == Format::CodexExecJson {
                        sorted_by_file(&edits)
                    } else {
                        edits.clone()
                    };
                    for p in compare(format, &want_edits, &got, &mut t.contents) {
                        problems.push(format!("{label} (live {format:?}): {p}"));
                    }
                    if let Some(v) = reader.version()
                        && v != want.version
                    {
                        problems.push(format!("{label} (live): version {v}"));
                    }
                    first = Some(edits);
                }
                Some(first) => {
                    if *first != edits {
                        problems.push(format!("{label} (live): seed {seed} reads differently"));
                    }
                }
            }
        }
        t.live += 1;
    }
    for (agent, t) in &tally {
        println!(
            "{agent}: {} scenarios via session, {} via live stream, {} expected edits, \
             {} contents before/after compared",
            t.session, t.live, t.edits, t.contents
        );
    }
    support::text::assert_no_problems(&problems);
    assert_eq!(
        tally.len(),
        10,
        "agent versions covered: {:?}",
        tally.keys()
    );
}

/// `codex exec --json` shows applied patches only, files sorted.
fn exec_view(edits: &[ExpectedEdit]) -> Vec<ExpectedEdit> {
    let mut applied: Vec<ExpectedEdit> = edits
        .iter()
        .filter(|e| e.agent_verdict == "applied")
        .cloned()
        .collect();
    applied.sort_by(|a, b| a.file.cmp(&b.file));
    for (i, e) in applied.iter_mut().enumerate() {
        e.seq = i + 1;
        e.content_before = None;
        e.content_after = None;
    }
    applied
}

fn sorted_by_file(edits: &[AgentEdit]) -> Vec<AgentEdit> {
    let mut edits = edits.to_vec();
    edits.sort_by(|a, b| a.file.cmp(&b.file));
    for (i, e) in edits.iter_mut().enumerate() {
        e.seq = i + 1;
    }
    edits
}

fn fixture(rel: &str) -> Vec<u8> {
    fs::read(fixtures().join(rel)).unwrap()
}

/// Feeds `bytes` line by line, calling `each` after every line.
fn feed_lines(reader: &mut AgentReader, bytes: &[u8], mut each: impl FnMut(&AgentReader)) {
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        reader.feed(line);
        each(reader);
    }
}

#[test]
fn claude_code_edits_are_previewed_while_their_input_streams() {
    use srview::dialect::edit::Field;
    use srview::source::agent::{AgentEvent, EditInput};
    let bytes = fixture("claude-code-2.1.328/a_edits_ok/stdout.jsonl");
    let mut reader = AgentReader::new(AgentKind::ClaudeCode, Format::ClaudeStreamJson);
    let mut partial_new_lengths = Vec::new();
    let mut events = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        events.extend(reader.feed(line));
        if let Some(edit) = reader.edits().first()
            && edit.streaming
            && let EditInput::Partial(p) = &edit.input
            && p.streaming() == Some(&Field::New)
        {
            assert_eq!(edit.file, "inventory.py");
            assert_eq!(edit.agent_verdict, Verdict::Pending);
            partial_new_lengths.push(p.new.as_deref().map_or(0, str::len));
        }
    }
    assert!(
        partial_new_lengths.len() >= 3 && partial_new_lengths.windows(2).all(|w| w[0] < w[1]),
        "new_string grows piece by piece: {partial_new_lengths:?}"
    );
    assert_eq!(events.first(), Some(&AgentEvent::Version("2.1.328".into())));
    assert!(events.contains(&AgentEvent::Started(1)));
    assert!(events.contains(&AgentEvent::Finished(2)));
    let started = events.iter().position(|e| *e == AgentEvent::Started(1));
    let finished = events.iter().position(|e| *e == AgentEvent::Finished(1));
    assert!(started < finished);
    let edits = reader.finish();
    assert!(matches!(edits[0].input, EditInput::Exact(_)));
    assert!(!edits[0].streaming);
}

#[test]
fn codex_app_server_patch_streams_before_it_is_applied() {
    let bytes = fixture("codex-0.169.0/h_appserver_success_streaming_slow/app-server.jsonl");
    let mut reader = AgentReader::new(AgentKind::Codex, Format::CodexAppServer);
    let mut streaming_seen = 0;
    feed_lines(&mut reader, &bytes, |r| {
        if let Some(e) = r.edits().first()
            && e.streaming
        {
            assert_eq!(e.agent_verdict, Verdict::Pending);
            streaming_seen += 1;
        }
    });
    assert!(
        streaming_seen >= 3,
        "patchUpdated pieces seen: {streaming_seen}"
    );
    assert_eq!(reader.version(), Some("0.169.0"));
    assert_eq!(reader.finish()[0].agent_verdict, Verdict::Applied);
}

#[test]
fn aider_blocks_appear_while_the_reply_streams_and_error_echoes_are_not_edits() {
    let bytes = fixture("aider-0.86.2/b_nomatch_retry/stdout.txt");
    let mut reader = AgentReader::new(AgentKind::Aider, Format::AiderStdout);
    let mut streaming_seen = false;
    for piece in bytes.chunks(7) {
        reader.feed(piece);
        if reader.edits().iter().any(|e| e.streaming) {
            streaming_seen = true;
        }
        // The failure report echoes the failed block: never a third edit.
        assert!(reader.edits().len() <= 2);
    }
    assert!(streaming_seen);
    let edits = reader.finish();
    assert_eq!(edits.len(), 2);
    assert_eq!(edits[0].agent_verdict, Verdict::Failed);
    assert_eq!(edits[1].agent_verdict, Verdict::Applied);
}

#[test]
fn cline_classic_ui_messages_rewritten_in_place_give_the_edit_as_it_grows() {
    use srview::source::agent::AgentEvent;
    let dir = fixtures().join("cline-classic-2.18.0/a_ok/ui_messages");
    let index: Vec<(u64, String)> =
        serde_json::from_slice(&fs::read(dir.join("index.json")).unwrap()).unwrap();
    let mut reader = AgentReader::new(AgentKind::ClineClassic, Format::ClineUiMessages);
    let mut lengths = Vec::new();
    for (_, name) in &index {
        let events = reader.snapshot(&fs::read(dir.join(name)).unwrap());
        if let Some(edit) = reader.edits().first() {
            assert_eq!(edit.seq, 1);
            assert_eq!(edit.file, "calc.py");
            if let srview::source::agent::EditInput::SearchReplace(diff) = &edit.input
                && edit.streaming
            {
                if lengths.last().is_none_or(|&l| l < diff.len()) {
                    assert!(
                        events.contains(&AgentEvent::Updated(1))
                            || events.contains(&AgentEvent::Started(1)),
                        "a grown diff is reported: {events:?}"
                    );
                }
                lengths.push(diff.len());
            }
        }
    }
    assert!(
        lengths.len() >= 5 && lengths.windows(2).all(|w| w[0] <= w[1]),
        "the diff grows version by version: {lengths:?}"
    );
    let want = expected(&fixtures().join("cline-classic-2.18.0/a_ok"));
    let edits = reader.finish();
    assert_eq!(edits.len(), 1);
    assert_eq!(edits[0].agent_verdict, Verdict::Applied);
    assert_eq!(
        edits[0].after().and_then(FileContent::text),
        want.edits[0].content_after.as_deref()
    );
}

#[test]
fn a_torn_last_line_is_read_once_it_grows() {
    let bytes = fixture("claude-code-2.1.328/b_edit_nomatch/stdout.jsonl");
    // Cut inside the line holding the second edit's failed result.
    let cut = bytes
        .windows(b"String to replace not found".len())
        .position(|w| w == b"String to replace not found")
        .unwrap();
    let mut reader = AgentReader::new(AgentKind::ClaudeCode, Format::ClaudeStreamJson);
    reader.feed(&bytes[..cut]);
    assert_eq!(reader.edits().len(), 2);
    assert_eq!(reader.edits()[1].agent_verdict, Verdict::Pending);
    assert!(reader.errors().is_empty(), "a torn line is not an error");
    reader.feed(&bytes[cut..]);
    assert_eq!(reader.edits()[1].agent_verdict, Verdict::Failed);
}

/// The saved sessions of the line formats, with their format.
fn line_sessions() -> Vec<(Format, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in scenarios() {
        let path = session_path(&dir);
        if path.is_dir() {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let Some((_, format)) = srview::source::agent::detect_path(&path, &bytes) else {
            continue;
        };
        if matches!(format, Format::ClaudeSessionJsonl | Format::CodexRollout) {
            out.push((format, bytes));
        }
    }
    out
}

#[test]
fn a_line_torn_across_two_feeds_gives_its_edit_once_and_complete() {
    let sessions = line_sessions();
    assert!(sessions.len() >= 10, "{}", sessions.len());
    for (format, bytes) in sessions {
        let whole = srview::source::agent::read_all(format, &bytes[..]).unwrap();
        // Cut every line in its middle, one at a time.
        let mut at = 0;
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            let cut = at + line.len() / 2;
            at += line.len();
            let mut reader = AgentReader::new(format.agent(), format);
            let mut events = reader.feed(&bytes[..cut]);
            let before = reader.edits().len();
            events.extend(reader.feed(&bytes[cut..]));
            reader.finish();
            assert_eq!(reader.edits(), whole.edits(), "{format:?} cut at {cut}");
            assert!(reader.errors().is_empty(), "{:?}", reader.errors());
            // Each edit started once, and none from the torn line before
            // the line was whole.
            let started: Vec<usize> = events
                .iter()
                .filter_map(|e| match e {
                    AgentEvent::Started(seq) => Some(*seq),
                    _ => None,
                })
                .collect();
            let want: Vec<usize> = (1..=whole.edits().len()).collect();
            assert_eq!(started, want, "{format:?} cut at {cut}");
            let complete_lines = bytes[..cut].iter().filter(|&&b| b == b'\n').count();
            let mut upto = AgentReader::new(format.agent(), format);
            let complete: Vec<u8> = bytes
                .split_inclusive(|&b| b == b'\n')
                .take(complete_lines)
                .flatten()
                .copied()
                .collect();
            upto.feed(&complete);
            assert_eq!(before, upto.edits().len(), "{format:?} cut at {cut}");
        }
    }
}

#[test]
fn unknown_claude_code_lines_blocks_and_fields_are_skipped() {
    for (format, bytes) in line_sessions() {
        if format != Format::ClaudeSessionJsonl {
            continue;
        }
        let clean = srview::source::agent::read_all(format, &bytes[..]).unwrap();
        assert!(!clean.edits().is_empty());
        let mut noisy = Vec::new();
        for line in bytes.split_inclusive(|&b| b == b'\n') {
            noisy.extend_from_slice(
                b"{\"type\":\"x-future-line\",\"message\":\"text\",\"cwd\":7}\n",
            );
            let line = String::from_utf8_lossy(line)
                // An unknown field in every line.
                .replacen('{', "{\"x_new\":{\"a\":[1,null]},", 1)
                // An unknown content block before every known one.
                .replace(
                    "\"content\":[{",
                    "\"content\":[{\"type\":\"x_future_block\",\"data\":{\"k\":[1]}},{",
                );
            noisy.extend_from_slice(line.as_bytes());
        }
        let read = srview::source::agent::read_all(format, &noisy[..]).unwrap();
        assert_eq!(read.edits(), clean.edits());
        assert_eq!(read.version(), clean.version());
        assert!(read.errors().is_empty(), "{:?}", read.errors());
    }
}

#[test]
fn a_codex_patch_without_its_input_is_one_error_naming_codex_and_its_version() {
    let rollout = concat!(
        r#"{"type":"session_meta","payload":{"cwd":"/p","cli_version":"0.170.0"}}"#,
        "\n",
        r#"{"type":"response_item","payload":{"type":"custom_tool_call","call_id":"c1","name":"apply_patch","patch_v2":"*** Begin Patch"}}"#,
        "\n",
    );
    let reader = srview::source::agent::read_all(Format::CodexRollout, rollout.as_bytes()).unwrap();
    assert!(reader.edits().is_empty());
    let errors: Vec<String> = reader.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "Codex 0.170.0: the apply_patch call at line 2 has no `input`; this edit cannot be \
             previewed (the agent's output format may have changed)"
        ]
    );
}

#[test]
fn unknown_lines_types_and_fields_are_skipped() {
    let bytes = fixture(
        "codex-0.169.0/c_add_and_update/session/sessions/2026/11/30/rollout-2026-11-30T16-45-00-01a22d58-6fe2-79a3-985a-6ffbf75fe046.jsonl",
    );
    let clean = srview::source::agent::read_all(Format::CodexRollout, &bytes[..]).unwrap();
    let mut noisy = Vec::new();
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        noisy.extend_from_slice(b"{\"type\":\"future_kind\",\"payload\":{\"x\":[1,2]}}\n");
        // An unknown field in a known line.
        let line = String::from_utf8_lossy(line).replacen("{", "{\"new_field\":true,", 1);
        noisy.extend_from_slice(line.as_bytes());
    }
    noisy.extend_from_slice(b"not json at all\n");
    let read = srview::source::agent::read_all(Format::CodexRollout, &noisy[..]).unwrap();
    assert_eq!(read.edits(), clean.edits());
    assert_eq!(read.errors().len(), 1, "{:?}", read.errors());
    assert_eq!(
        read.errors()[0].to_string(),
        format!(
            "Codex 0.169.0: line {} skipped: not a JSON object of this format (expected ident at line 1 column 2)",
            bytes
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .count()
                * 2
                + 1
        )
    );
}

#[test]
fn a_missing_field_is_one_clear_error_naming_agent_and_version() {
    let stream = concat!(
        r#"{"type":"system","subtype":"init","cwd":"/p","claude_code_version":"2.1.999"}"#,
        "\n",
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Edit","input":{"file_path":"/p/a.py","new_string":"x"}}]}}"#,
        "\n",
    );
    let mut reader = AgentReader::new(AgentKind::ClaudeCode, Format::ClaudeStreamJson);
    reader.feed(stream.as_bytes());
    assert!(reader.finish().is_empty());
    let errors: Vec<String> = reader.errors().iter().map(ToString::to_string).collect();
    assert_eq!(
        errors,
        [
            "Claude Code 2.1.999: the Edit tool input at line 2 has no `old_string`; this edit \
          cannot be previewed (the agent's output format may have changed)"
        ]
    );
}

#[test]
fn a_long_session_is_read_in_pieces() {
    // 1,000 Claude Code edits in one session file, read through a reader
    // that hands out 4 KiB at a time.
    let mut session = String::new();
    for i in 0..1000 {
        session.push_str(&format!(
            r#"{{"type":"assistant","sessionId":"s","version":"2.1.328","cwd":"/p","message":{{"content":[{{"type":"tool_use","id":"t{i}","name":"Edit","input":{{"file_path":"/p/f{m}.py","old_string":"a{i}","new_string":"b{i}"}}}}]}}}}"#,
            m = i % 7
        ));
        session.push('\n');
        let result = if i % 10 == 0 {
            format!(
                r#"{{"type":"tool_result","tool_use_id":"t{i}","is_error":true,"content":"nope {i}"}}"#
            )
        } else {
            format!(r#"{{"type":"tool_result","tool_use_id":"t{i}","content":"ok"}}"#)
        };
        session.push_str(&format!(
            r#"{{"type":"user","sessionId":"s","message":{{"content":[{result}]}}}}"#
        ));
        session.push('\n');
    }
    struct Slow<'a>(&'a [u8]);
    impl std::io::Read for Slow<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = buf.len().min(4096).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let reader =
        srview::source::agent::read_all(Format::ClaudeSessionJsonl, Slow(session.as_bytes()))
            .unwrap();
    let edits = reader.edits();
    assert_eq!(edits.len(), 1000);
    assert_eq!(edits[999].seq, 1000);
    assert_eq!(edits[999].file, "f5.py");
    assert_eq!(
        edits
            .iter()
            .filter(|e| e.agent_verdict == Verdict::Failed)
            .count(),
        100
    );
    assert_eq!(edits[10].agent_message.as_deref(), Some("nope 10"));
}

/// Every live stream and session file of the captures, with its format.
fn all_inputs() -> Vec<(Format, Vec<u8>)> {
    let mut out = Vec::new();
    for dir in scenarios() {
        if let Some(live) = live_file(&dir) {
            let bytes = fs::read(&live).unwrap();
            if let Some((_, format)) = detect(&bytes[..bytes.len().min(4096)]) {
                out.push((format, bytes));
            }
        }
        let session = session_path(&dir);
        let file = if session.is_dir() {
            srview::source::agent::session::session_file(&session).unwrap()
        } else {
            session
        };
        let bytes = fs::read(&file).unwrap();
        let (_, format) = srview::source::agent::detect_path(&file, &bytes).unwrap();
        out.push((format, bytes));
    }
    out
}

const FORMATS: [Format; 13] = [
    Format::ClaudeStreamJson,
    Format::ClaudeSessionJsonl,
    Format::CodexExecJson,
    Format::CodexAppServer,
    Format::CodexRollout,
    Format::ClineCliJson,
    Format::ClineCliMessages,
    Format::ClineUiMessages,
    Format::ClineApiHistory,
    Format::AiderStdout,
    Format::AiderHistory,
    Format::OpenCodeRunJson,
    Format::OpenCodeDatabase,
];

mod props {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn inputs() -> &'static [(Format, Vec<u8>)] {
        static INPUTS: OnceLock<Vec<(Format, Vec<u8>)>> = OnceLock::new();
        INPUTS.get_or_init(all_inputs)
    }

    /// Reads `bytes` cut at `cut` in pieces from `seed`, read as `format`.
    fn read(format: Format, bytes: &[u8], seed: u64) -> Vec<AgentEdit> {
        let mut reader = AgentReader::new(format.agent(), format);
        feed_chunked(&mut reader, bytes, seed | 1);
        let edits = reader.finish().to_vec();
        for (i, e) in edits.iter().enumerate() {
            assert_eq!(e.seq, i + 1);
            assert_ne!(
                e.agent_verdict,
                Verdict::Pending,
                "finished means a verdict"
            );
        }
        for error in reader.errors() {
            assert!(error.to_string().starts_with(format.agent().display_name()));
        }
        edits
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

        /// Any capture, truncated anywhere, in any pieces, as its own
        /// format or any other: no panic, seq from 1, every edit decided.
        #[test]
        fn truncated_captures_in_random_pieces_never_panic(
            which in 0usize..1000,
            cut in 0.0f64..=1.0,
            seed in any::<u64>(),
            other in 0usize..FORMATS.len(),
            same in any::<bool>(),
        ) {
            let (format, bytes) = &inputs()[which % inputs().len()];
            let end = (bytes.len() as f64 * cut) as usize;
            let format = if same { *format } else { FORMATS[other] };
            read(format, &bytes[..end], seed);
        }

        /// Arbitrary bytes and JSON-ish text in every format.
        #[test]
        fn arbitrary_input_never_panics(
            bytes in proptest::collection::vec(any::<u8>(), 0..400),
            text in "[\\[\\]{}\"\\\\:,a-z0-9 \n<>=@+*-]{0,400}",
            seed in any::<u64>(),
            format in 0usize..FORMATS.len(),
        ) {
            read(FORMATS[format], &bytes, seed);
            read(FORMATS[format], text.as_bytes(), seed);
        }
    }
}

#[test]
fn contents_are_not_chained_across_a_shell_command() {
    let line = |s: &str| format!("{s}\n");
    let mut stream = String::new();
    stream +=
        &line(r#"{"type":"system","subtype":"init","cwd":"/p","claude_code_version":"2.1.328"}"#);
    stream += &line(
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e1","name":"Edit","input":{"file_path":"/p/a.py","old_string":"x = 1","new_string":"x = 2"}}]}}"#,
    );
    stream += &line(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"e1","content":"ok"}]},"tool_use_result":{"filePath":"/p/a.py","originalFile":"x = 1\n"}}"#,
    );
    stream += &line(
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e2","name":"Edit","input":{"file_path":"/p/a.py","old_string":"x = 9","new_string":"x = 3"}}]}}"#,
    );
    stream += &line(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"e2","is_error":true,"content":"no"}]}}"#,
    );
    let with_shell = stream.clone()
        + &line(
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"b1","name":"Bash","input":{"command":"sed -i s/2/5/ a.py"}}]}}"#,
        );
    let last = line(
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"e3","name":"Edit","input":{"file_path":"/p/a.py","old_string":"x = 8","new_string":"x = 4"}}]}}"#,
    ) + &line(
        r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"e3","is_error":true,"content":"no"}]}}"#,
    );
    let read = |text: String| {
        srview::source::agent::read_all(Format::ClaudeStreamJson, text.as_bytes()).unwrap()
    };
    let plain = read(stream + &last);
    let edits = plain.edits();
    assert_eq!(
        edits[0].after().and_then(FileContent::text),
        Some("x = 2\n")
    );
    assert_eq!(
        edits[0].content_after.as_ref().map(|c| c.origin),
        Some(srview::source::agent::ContentOrigin::Derived)
    );
    for e in &edits[1..] {
        assert_eq!(e.before().and_then(FileContent::text), Some("x = 2\n"));
        assert_eq!(
            e.content_before.as_ref().map(|c| c.origin),
            Some(srview::source::agent::ContentOrigin::Chained)
        );
    }
    let shelled = read(with_shell + &last);
    assert_eq!(shelled.edits().len(), 3);
    assert_eq!(
        shelled.edits()[1].before().and_then(FileContent::text),
        Some("x = 2\n")
    );
    assert_eq!(
        shelled.edits()[2].content_before,
        None,
        "a shell ran before it"
    );
}

/// 100 MB of Claude Code session with 10,000 edits, read in pieces:
/// `cargo test --release --test agent_sources -- --ignored --nocapture`.
#[test]
#[ignore]
fn a_100_mb_session_reads_quickly() {
    let real = fixture(
        "claude-code-2.1.328/a_edits_ok/session/projects/-home-user-project/e68f16d0-5aff-4d1d-836c-d1c566efb656.jsonl",
    );
    let mut session = Vec::with_capacity(110 << 20);
    let mut i = 0;
    while session.len() < 100 << 20 {
        // The real session's lines, with each tool id made unique.
        let copy = String::from_utf8_lossy(&real).replace("toolu_fake_a_", &format!("t{i}_"));
        session.extend_from_slice(copy.as_bytes());
        i += 1;
    }
    let edits = support::agents::read_all_quickly(Format::ClaudeSessionJsonl, &session);
    assert_eq!(edits, i * 2);
}

#[test]
fn sessions_that_carry_every_content_report_exactly_their_expected_json() {
    // Claude Code records every content these runs need; Cline classic's
    // b_fail too (the failure's <file_content>, the success's
    // <final_file_content>, and the content chained between them).
    for scenario in [
        "claude-code-2.1.328/a_edits_ok",
        "claude-code-2.1.328/b_edit_nomatch",
        "claude-code-2.1.328/d_write_new",
        "cline-classic-2.18.0/b_fail",
    ] {
        let dir = fixtures().join(scenario);
        let reader = read_session(&session_path(&dir), None).unwrap();
        let got = serde_json::to_value(srview::source::agent::SessionReport::new(&reader)).unwrap();
        let want: serde_json::Value =
            serde_json::from_slice(&fs::read(dir.join("expected.json")).unwrap()).unwrap();
        assert_eq!(got, want, "{scenario}");
    }
}

#[test]
fn claude_code_file_history_backups_give_the_content_before() {
    // The a_edits_ok session with every tool result's record (and so its
    // originalFile) removed: the backup named by file-history-delta is
    // what is left of the content before the first edit.
    let src = fixtures().join("claude-code-2.1.328/a_edits_ok/session");
    let tmp = tempfile::tempdir().unwrap();
    let projects = tmp.path().join("projects/-home-user-project");
    fs::create_dir_all(&projects).unwrap();
    let name = "e68f16d0-5aff-4d1d-836c-d1c566efb656";
    let history = tmp.path().join("file-history").join(name);
    fs::create_dir_all(&history).unwrap();
    for backup in fs::read_dir(src.join("file-history").join(name)).unwrap() {
        let backup = backup.unwrap().path();
        fs::copy(&backup, history.join(backup.file_name().unwrap())).unwrap();
    }
    let session =
        fs::read_to_string(src.join(format!("projects/-home-user-project/{name}.jsonl"))).unwrap();
    let mut stripped = String::new();
    for line in session.lines() {
        let mut value: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Some(object) = value.as_object_mut() {
            object.remove("toolUseResult");
        }
        stripped.push_str(&value.to_string());
        stripped.push('\n');
    }
    let path = projects.join(format!("{name}.jsonl"));
    fs::write(&path, stripped).unwrap();

    let want = expected(&fixtures().join("claude-code-2.1.328/a_edits_ok"));
    let reader = read_session(&path, None).unwrap();
    let first = &reader.edits()[0];
    assert_eq!(first.agent_verdict, Verdict::Applied);
    assert_eq!(
        first.before().and_then(FileContent::text),
        want.edits[0].content_before.as_deref()
    );
    assert_eq!(
        first.content_before.as_ref().map(|c| c.origin),
        Some(srview::source::agent::ContentOrigin::Recorded)
    );
    // Without originalFile, nothing is derived or chained past it.
    assert_eq!(first.content_after, None);

    // Without the backups folder, nothing.
    fs::remove_dir_all(tmp.path().join("file-history")).unwrap();
    let reader = read_session(&path, None).unwrap();
    assert_eq!(reader.edits()[0].content_before, None);
}

#[test]
fn aider_udiff_failures_name_the_failed_hunk_and_the_others_were_written() {
    // Aider's udiff failure text (no capture: built from aider's own
    // message templates, as it prints them after a reply).
    let out = "\
Aider v0.86.2
Model: openai/fake-model with udiff edit format

```diff
--- calc.py
+++ calc.py
@@ ... @@
 def add(a, b):
-    return a+b
+    return a + b
@@ ... @@
 def sub(a, b):
-    return a - b
+    return a - b  # ok
```

Tokens: 1.5k sent, 115 received.
The LLM did not conform to the edit format.
https://aider.chat/docs/troubleshooting/edit-errors.html

UnifiedDiffNoMatch: hunk failed to apply!

calc.py does not contain lines that match the diff you provided!
Try again.
DO NOT skip blank lines, comments, docstrings, etc!
The diff needs to apply cleanly to the lines in calc.py!

calc.py does not contain these 2 exact lines in a row:
```
def add(a, b):
    return a+b
```
Note: some hunks did apply successfully. See the updated source code shown above.

Fixed the first hunk.

```diff
--- calc.py
+++ calc.py
@@ ... @@
 def add(a, b):
-    return a  +  b
+    return a + b
```

Tokens: 1.7k sent, 60 received.
Applied edit to calc.py
";
    let mut reader = AgentReader::new(AgentKind::Aider, Format::AiderStdout);
    feed_chunked(&mut reader, out.as_bytes(), 99);
    let edits = reader.finish();
    let verdicts: Vec<(&str, &str, Verdict)> = edits
        .iter()
        .map(|e| (e.file.as_str(), e.tool.name(), e.agent_verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("calc.py", "aider-udiff", Verdict::Failed),
            ("calc.py", "aider-udiff", Verdict::Applied),
            ("calc.py", "aider-udiff", Verdict::Applied),
        ]
    );
    let message = edits[0].agent_message.as_deref().unwrap();
    assert!(message.starts_with("UnifiedDiffNoMatch: hunk failed to apply!\n\ncalc.py does not"));
    assert!(message.ends_with("    return a+b\n```"));
}

#[test]
fn cline_cli_sessions_name_their_checkpoint_commits() {
    let dir = fixtures().join("cline-cli-3.0.65/editor_fail/session/sessions/1796056299801_2ua93");
    let reader = read_session(&dir, None).unwrap();
    assert_eq!(
        reader.checkpoints(),
        ["aafb4497f854b1f26ddd9c2b085462f06f54a124"]
    );
    assert_eq!(reader.version(), Some("3.0.65"));
}

#[test]
fn a_cline_cli_json_string_line_is_read_not_warned_about() {
    // `cline --json` prints a `submit_and_exit` result as one JSON string
    // line between its event objects.
    let mut stream = fixture("cline-cli-3.0.65/editor_ok/stdout.jsonl");
    let clean = srview::source::agent::read_all(Format::ClineCliJson, &stream[..]).unwrap();
    stream.extend_from_slice(b"\"Edited calc.py: added a docstring.\\nTask complete.\"\n");
    let read = srview::source::agent::read_all(Format::ClineCliJson, &stream[..]).unwrap();
    assert_eq!(read.edits(), clean.edits());
    assert!(read.errors().is_empty(), "{:?}", read.errors());
    assert_eq!(read.unread(), None);
    // A line that is no JSON at all is still said.
    stream.extend_from_slice(b"\"unterminated\n");
    let read = srview::source::agent::read_all(Format::ClineCliJson, &stream[..]).unwrap();
    assert_eq!(read.errors().len(), 1, "{:?}", read.errors());
}

/// A Cline CLI capture's one edit, read live with its workspace named,
/// with its expected.json edit.
fn cline_cli_patch(scenario: &str) -> (AgentEdit, ExpectedEdit) {
    cline_cli_patch_as(scenario, |stream| stream)
}

/// [`cline_cli_patch`] of the capture's stream as `change` leaves it.
fn cline_cli_patch_as(
    scenario: &str,
    change: impl Fn(String) -> String,
) -> (AgentEdit, ExpectedEdit) {
    let dir = fixtures().join(scenario);
    let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson)
        .with_workspace("/home/user/project");
    let stream = change(fs::read_to_string(dir.join("stdout.jsonl")).unwrap());
    reader.feed(stream.as_bytes());
    let edits = reader.finish().to_vec();
    assert_eq!(edits.len(), 1, "{scenario}");
    let want = expected(&dir).edits.remove(0);
    (edits[0].clone(), want)
}

/// `edit`'s blocks as the previewer draws them for `agent`, over the
/// content before.
fn drawn(
    edit: &AgentEdit,
    agent: AgentKind,
    before: &str,
) -> srview::source::patch_preview::FileBlocks {
    let target = srview::dialect::one_file::Target {
        cwd: "/home/user/project",
        name: "calc.py",
        content: Some(before),
    };
    srview::source::patch_preview::input_blocks(&edit.runs_as(agent), &target, true).unwrap()
}

/// What accepting the drawn blocks writes over `before` (`a`: the blocks
/// applied, v1), `None` when they do not apply.
fn written(blocks: &srview::source::patch_preview::FileBlocks, before: &str) -> Option<String> {
    let options = srview::engine::Options {
        version: srview::engine::Version::V1,
        is_final: true,
    };
    srview::engine::apply(&blocks.body, before, options)
        .result
        .ok()
        .map(|a| a.new_content)
}

/// Cline CLI's apply_patch is run and drawn by the matcher the agent table
/// names for it (`cline-apply-patch`, Cline's lenient port), not Codex's
/// rules: patch_fail's second hunk removes `print(add(2, 4))`, which the
/// file has as `print(add(2, 3))`; Cline applied it ("fuzz factor 1000")
/// and the previewer (live and saved) placed nothing, saying "apply_patch
/// fails". It is placed by Cline's similarity stage, named so, and its
/// blocks give what Cline wrote.
#[test]
fn a_cline_cli_patch_placed_only_by_clines_similarity_stage_is_drawn_loose() {
    use srview::source::agent::EditInput;
    let (edit, want) = cline_cli_patch("cline-cli-3.0.65/patch_fail");
    assert_eq!(edit.file, "calc.py");
    assert_eq!(edit.agent_verdict, Verdict::Applied);
    let before = want.content_before.as_deref().unwrap();
    match edit.runs_as(AgentKind::ClineCli).as_ref() {
        EditInput::Call(call) => {
            assert_eq!(call.dialect, "cline-apply-patch");
            assert_eq!(call.path, "calc.py");
        }
        other => panic!("not Cline's matcher: {other:?}"),
    }
    let blocks = drawn(&edit, AgentKind::ClineCli, before);
    assert!(!blocks.refused, "{:?}", blocks.note);
    assert_eq!(blocks.levels, [None, Some("similarity".to_string())]);
    assert_eq!(
        blocks.note.as_deref(),
        Some(
            "placed by a loose stage (similarity): the text replaced is not the text the model \
             wrote"
        )
    );
    assert_eq!(written(&blocks, before), want.content_after);
    // Codex's rules, which drew it before: the same section refused.
    let codex = drawn(&edit, AgentKind::Codex, before);
    assert!(codex.refused);
    assert!(
        codex
            .note
            .as_deref()
            .is_some_and(|n| n.contains("Failed to find expected lines")),
        "{:?}",
        codex.note
    );
}

/// patch_ok's patch with trailing spaces after a context line the file
/// has without them: Cline places it by its `trim_end` stage, and the
/// previewer names that stage (not Codex's `trailing-space` level, nor
/// plain exact), with what Cline writes.
#[test]
fn a_cline_cli_patch_off_by_trailing_spaces_is_drawn_by_clines_trim_end() {
    let (edit, want) = cline_cli_patch_as("cline-cli-3.0.65/patch_ok", |stream| {
        let spaced = stream.replacen(r"@@\n def main():\n", r"@@\n def main():  \n", 1);
        assert_ne!(spaced, stream, "the context line");
        spaced
    });
    let before = want.content_before.as_deref().unwrap();
    let blocks = drawn(&edit, AgentKind::ClineCli, before);
    assert!(!blocks.refused, "{:?}", blocks.note);
    assert_eq!(blocks.levels, [None, Some("trim_end".to_string())]);
    assert_eq!(written(&blocks, before), want.content_after);
}

/// A patch Cline itself rejects (patch_fail2: a hunk for a `mainloop()`
/// the file does not have) is drawn refused, with Cline's own error text:
/// the one Cline CLI recorded.
#[test]
fn a_cline_cli_patch_cline_rejects_is_drawn_refused_with_clines_error() {
    let (edit, want) = cline_cli_patch("cline-cli-3.0.65/patch_fail2");
    assert_eq!(edit.agent_verdict, Verdict::Failed);
    let blocks = drawn(
        &edit,
        AgentKind::ClineCli,
        want.content_before.as_deref().unwrap(),
    );
    assert!(blocks.refused);
    assert!(blocks.body.is_empty(), "{}", blocks.body);
    let said = want.agent_message.as_deref().unwrap();
    assert!(
        said.contains("Could not find matching context (similarity: 0.38)"),
        "{said}"
    );
    assert_eq!(blocks.note.as_deref(), Some(said));
}

#[test]
fn codex_sections_never_run_because_another_failed_carry_the_patch_error() {
    // b_context_mismatch's failed patch with a second section (README.md)
    // before the one that fails: Codex verifies the whole patch first, so
    // README.md is never written; the error is why.
    let bytes = fixture(
        "codex-0.169.0/b_context_mismatch/session/sessions/2026/11/30/rollout-2026-11-30T16-44-58-01a22d58-6aa8-70b0-942d-88f862116b3d.jsonl",
    );
    let text = String::from_utf8(bytes).unwrap();
    let two = text.replacen(
        r#""*** Begin Patch\n*** Update File: calc.py"#,
        r#""*** Begin Patch\n*** Update File: README.md\n@@\n-# calc\n+# Calc\n*** Update File: calc.py"#,
        1,
    );
    assert_ne!(two, text, "the patch was found");
    let read = srview::source::agent::read_all(Format::CodexRollout, two.as_bytes()).unwrap();
    let edits = read.edits();
    let got: Vec<(&str, Verdict)> = edits
        .iter()
        .map(|e| (e.file.as_str(), e.agent_verdict))
        .collect();
    assert_eq!(
        got,
        [("README.md", Verdict::NotRun), ("calc.py", Verdict::Failed)]
    );
    let error = edits[1].agent_message.as_deref().unwrap();
    assert!(
        error.starts_with("apply_patch verification failed: Failed to find expected lines in "),
        "{error}"
    );
    assert_eq!(edits[0].agent_message.as_deref(), Some(error));
}

/// An Aider output built from the capture's format where Aider asks a
/// question between a reply and its verdicts (tests/fixtures/aider-asks).
fn aider_asks(name: &str) -> Vec<u8> {
    fs::read(fixtures().join("../aider-asks").join(name)).unwrap()
}

#[test]
fn aider_edits_after_a_question_are_applied_and_carry_the_reply_commit() {
    use Verdict::{Applied, NotRun};
    let re_asked = [
        ("util.py", NotRun, None),
        ("calc.py", NotRun, None),
        ("calc.py", NotRun, None),
        ("util.py", Applied, Some("1b1c01b")),
        ("calc.py", Applied, Some("1b1c01b")),
        ("calc.py", Applied, Some("1b1c01b")),
    ];
    let created = [
        ("stats.py", Applied, Some("5e1f2a3")),
        ("calc.py", Applied, Some("5e1f2a3")),
    ];
    for (name, want) in [
        ("add_file_reask", &re_asked[..]),
        ("create_new_file", &created[..]),
    ] {
        for (suffix, format) in [
            ("stdout.txt", Format::AiderStdout),
            ("history.md", Format::AiderHistory),
        ] {
            let bytes = aider_asks(&format!("{name}.{suffix}"));
            for seed in 0..4 {
                let mut reader = AgentReader::new(AgentKind::Aider, format);
                feed_chunked(&mut reader, &bytes, seed);
                let got: Vec<(&str, Verdict, Option<&str>)> = reader
                    .finish()
                    .iter()
                    .map(|e| (e.file.as_str(), e.agent_verdict, e.commit.as_deref()))
                    .collect();
                assert_eq!(got, want, "{name}.{suffix}");
                assert!(reader.errors().is_empty(), "{:?}", reader.errors());
            }
        }
    }
    // Live: the first reply's edits are not run as soon as the reply is
    // sent again, before the output ends.
    let bytes = aider_asks("add_file_reask.stdout.txt");
    let mut reader = AgentReader::new(AgentKind::Aider, Format::AiderStdout);
    let mut seen_second = false;
    feed_lines(&mut reader, &bytes, |r| {
        if r.edits().len() > 3 {
            seen_second = true;
            assert!(
                r.edits()[..3].iter().all(|e| e.agent_verdict == NotRun),
                "{:?}",
                r.edits()
            );
        }
    });
    assert!(seen_second);
}

#[test]
fn absolute_paths_outside_the_callers_workspace_map_by_their_longest_existing_suffix() {
    let call = |id: &str, path: &str| {
        format!(
            r#"{{"type":"agent_event","event":{{"type":"content_start","contentType":"tool","toolName":"editor","toolCallId":"{id}","input":{{"path":"{path}","old_text":"x","new_text":"y"}}}}}}"#
        ) + "\n"
    };
    let stream = [
        call("c1", "/old/root/src/a.py"),
        // Under the folder already mapped: mapped too, though new.
        call("c2", "/old/root/new.py"),
        call("c3", "/new/inside.py"),
        // Nothing of it exists under the workspace: left as it is.
        call("c4", "/elsewhere/x/y.py"),
    ]
    .concat();
    let mut reader = AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson)
        .with_workspace("/new")
        .with_existing(|rel| ["src/a.py", "a.py"].contains(&rel));
    reader.feed(stream.as_bytes());
    let files: Vec<&str> = reader.finish().iter().map(|e| e.file.as_str()).collect();
    assert_eq!(
        files,
        ["src/a.py", "new.py", "inside.py", "/elsewhere/x/y.py"]
    );
    assert_eq!(
        reader.mapped_paths(),
        [
            "/old/root is not under /new: its files are taken as the same paths under /new \
          (first: /old/root/src/a.py as src/a.py)"
        ]
    );
    // Without the check (no workspace named by the caller's files): as before.
    let mut plain =
        AgentReader::new(AgentKind::ClineCli, Format::ClineCliJson).with_workspace("/new");
    plain.feed(stream.as_bytes());
    assert_eq!(plain.finish()[0].file, "/old/root/src/a.py");
}

#[test]
fn codex_app_server_keeps_the_streamed_patch_once_the_change_starts() {
    let bytes = fixture("codex-0.169.0/g_appserver_success_streaming/app-server.jsonl");
    let mut reader = AgentReader::new(AgentKind::Codex, Format::CodexAppServer);
    feed_lines(&mut reader, &bytes, |_| {});
    let edit = &reader.finish()[0];
    let srview::source::agent::EditInput::ApplyPatch(patch) = &edit.input else {
        panic!("not the model's patch: {:?}", edit.input);
    };
    assert!(
        patch.starts_with("*** Begin Patch\n*** Update File: calc.py\n@@ def divide(a: float, b: float) -> float:\n")
            && patch.ends_with("        raise ValueError(\"mean() of an empty iterable\")\n+    return sum(items) / len(items)\n*** End Patch\n"),
        "{patch}"
    );
    assert!(
        edit.agent_diff
            .as_deref()
            .is_some_and(|d| d.starts_with("@@ -28,3 +28,3 @@\n"))
    );
}

/// One of tests/fixtures/aider-udiff's sessions (tester finding 05): the
/// history, the file before the reply and after Aider's commit of it.
fn aider_udiff_case(name: &str) -> (Vec<u8>, String, String) {
    let dir = fixtures().join("../aider-udiff");
    let read = |ext: &str| fs::read_to_string(dir.join(format!("{name}.{ext}"))).unwrap();
    (
        read("history.md").into_bytes(),
        read("before.py"),
        read("after.py"),
    )
}

/// An Aider udiff hunk is handed to Aider's own udiff applier
/// (`aider-udiff`), not turned into a Cline SEARCH/REPLACE block: its
/// result is the one Aider committed. A before-text found twice is
/// replaced at both places (the first is the edit's lines, the second the
/// call's `also_replaced`, and the previewer's note names it); a hunk of
/// only `+` lines is appended.
#[test]
fn aider_udiff_hunks_run_aiders_own_applier_every_place_and_appends() {
    use srview::dialect::one_file::Target;
    use srview::source::agent::EditInput;
    for (name, stage, lines, also) in [
        (
            "replace_all",
            "search_and_replace",
            Some((2, 3)),
            vec![(7, 8)],
        ),
        ("append", "append", None, vec![]),
    ] {
        let (history, before, after) = aider_udiff_case(name);
        let mut reader = AgentReader::new(AgentKind::Aider, Format::AiderHistory);
        feed_chunked(&mut reader, &history, 7);
        let edits = reader.finish();
        assert_eq!(edits.len(), 1, "{name}");
        let edit = &edits[0];
        assert_eq!(
            (edit.file.as_str(), edit.tool.name(), edit.agent_verdict),
            ("s.py", "aider-udiff", Verdict::Applied),
            "{name}"
        );
        assert_eq!(edit.commit.as_deref(), Some("0000000"), "{name}");
        let EditInput::Call(call) = &edit.input else {
            panic!("{name}: {:?}", edit.input);
        };
        assert_eq!(call.dialect, "aider-udiff", "{name}");
        let run = srview::dialect::registry::run_on_file(
            call.dialect,
            &call.input,
            &call.path,
            Some(&before),
            "/project",
        )
        .unwrap();
        let outcome = &run.outcome;
        assert!(outcome.ok, "{name}: {outcome:?}");
        assert_eq!(outcome.message.as_deref(), Some("Applied edit to s.py"));
        assert_eq!(run.written(), Some(Some(after.as_str())), "{name}");
        assert_eq!(outcome.edits.len(), 1, "{name}");
        assert_eq!(
            (outcome.edits[0].stage.as_str(), outcome.edits[0].loose),
            (stage, false),
            "{name}"
        );
        assert_eq!(outcome.edits[0].lines, lines, "{name}");
        assert_eq!(outcome.also_replaced, also, "{name}");

        // The agent previewer's blocks give Aider's result, and say where
        // else the edit changed the file.
        let target = Target {
            cwd: "/project",
            name: "s.py",
            content: Some(&before),
        };
        let blocks =
            srview::source::patch_preview::input_blocks(&edit.input, &target, true).unwrap();
        assert!(!blocks.refused, "{name}: {:?}", blocks.note);
        let shown = srview::engine::apply(
            &blocks.body,
            &before,
            srview::engine::Options {
                version: srview::engine::Version::V1,
                is_final: true,
            },
        );
        let shown = shown.result.map(|applied| applied.new_content);
        assert_eq!(shown.as_deref(), Ok(after.as_str()), "{name}");
        let note = (name == "replace_all")
            .then(|| "it replaces every occurrence: lines 7-8 also changed".to_string());
        assert_eq!(blocks.note, note, "{name}");
    }
}
