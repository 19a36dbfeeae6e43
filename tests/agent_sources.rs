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

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use srview::source::agent::session::read_session;
use srview::source::agent::{
    AgentEdit, AgentKind, AgentReader, ContentOrigin, FileContent, Format, Verdict, detect,
};

#[derive(Deserialize, Debug)]
#[serde(rename_all = "camelCase")]
struct Expected {
    agent: String,
    version: String,
    edits: Vec<ExpectedEdit>,
}

#[derive(Deserialize, Debug, Clone)]
#[serde(rename_all = "camelCase")]
struct ExpectedEdit {
    seq: usize,
    file: String,
    tool: String,
    agent_verdict: String,
    agent_message: Option<String>,
    content_before: Option<String>,
    content_after: Option<String>,
}

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/agents")
}

/// Every scenario folder (those with an expected.json), sorted.
fn scenarios() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for agent in fs::read_dir(fixtures()).unwrap() {
        let agent = agent.unwrap().path();
        if !agent.is_dir() {
            continue;
        }
        for scenario in fs::read_dir(&agent).unwrap() {
            let scenario = scenario.unwrap().path();
            if scenario.join("expected.json").is_file() {
                out.push(scenario);
            }
        }
    }
    out.sort();
    out
}

fn expected(dir: &Path) -> Expected {
    serde_json::from_slice(&fs::read(dir.join("expected.json")).unwrap()).unwrap()
}

/// A small deterministic generator for chunk sizes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// Feeds `bytes` in random pieces (1 to 200 bytes; seed 0: whole).
fn feed_chunked(reader: &mut AgentReader, bytes: &[u8], seed: u64) {
    if seed == 0 {
        reader.feed(bytes);
        return;
    }
    let mut rng = Rng(seed);
    let mut at = 0;
    while at < bytes.len() {
        let n = (rng.next() % 200 + 1) as usize;
        let end = (at + n).min(bytes.len());
        reader.feed(&bytes[at..end]);
        at = end;
    }
}

/// The live stream of a scenario, if it has a machine-readable one.
fn live_file(dir: &Path) -> Option<PathBuf> {
    ["stdout.jsonl", "app-server.jsonl", "pty.txt", "stdout.txt"]
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
}

/// The saved session: the one file or folder the agent saved for it.
fn session_path(dir: &Path) -> PathBuf {
    let mut found = None;
    visit(&dir.join("session"), &mut |p| {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        let pick = name.ends_with(".messages.json")
            || name == "api_conversation_history.json"
            || name == ".aider.chat.history.md"
            || (name.ends_with(".jsonl"));
        if pick && found.is_none() {
            found = Some(if name.ends_with(".json") {
                p.parent().unwrap().to_path_buf()
            } else {
                p.to_path_buf()
            });
        }
    });
    found.unwrap_or_else(|| panic!("no session in {}", dir.display()))
}

fn visit(dir: &Path, f: &mut dyn FnMut(&Path)) {
    let mut entries: Vec<_> = fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            visit(&p, f);
        } else {
            f(&p);
        }
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
        Format::AiderStdout | Format::AiderHistory => (false, applied && edit.tool.name() == "aider-whole"),
        _ => (false, false),
    }
}

/// Compares `got` with the expected edits; returns the mismatches.
fn compare(format: Format, want: &[ExpectedEdit], got: &[AgentEdit]) -> Vec<String> {
    let mut problems = Vec::new();
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
        field("file", g.file == w.file, format!("{:?} != {:?}", g.file, w.file));
        field("tool", g.tool.name() == w.tool, format!("{} != {}", g.tool.name(), w.tool));
        field(
            "agentVerdict",
            g.agent_verdict.name() == w.agent_verdict,
            format!("{} != {}", g.agent_verdict.name(), w.agent_verdict),
        );
        field(
            "agentMessage",
            g.agent_message == w.agent_message,
            format!("{:?} != {:?}", g.agent_message, w.agent_message),
        );
        field("streaming", !g.streaming, "still streaming at the end".into());
        let (need_before, need_after) = must_carry(format, g);
        match text(g.before()) {
            Some(b) => field(
                "contentBefore",
                b == w.content_before.as_deref(),
                format!("{:?}", g.content_before.as_ref().map(|c| c.origin)),
            ),
            None => field("contentBefore", !need_before, "not given".into()),
        }
        match text(g.after()) {
            Some(a) => field(
                "contentAfter",
                a == w.content_after.as_deref(),
                format!("{:?}", g.content_after.as_ref().map(|c| c.origin)),
            ),
            None => field("contentAfter", !need_after, "not given".into()),
        }
    }
    problems
}

/// The workspace a live stream that does not name one ran in.
fn live_workspace(format: Format) -> Option<&'static str> {
    (format == Format::ClineCliJson).then_some("/home/user/project")
}

#[derive(Default)]
struct Tally {
    live: usize,
    session: usize,
    edits: usize,
}

#[test]
fn every_capture_reads_to_its_expected_edits() {
    let mut problems = Vec::new();
    let mut tally: BTreeMap<String, Tally> = BTreeMap::new();
    for dir in scenarios() {
        let label = dir.strip_prefix(fixtures()).unwrap().display().to_string();
        let want = expected(&dir);
        let t = tally.entry(format!("{} {}", want.agent, want.version)).or_default();
        t.edits += want.edits.len();

        // Session path.
        match read_session(&session_path(&dir), None) {
            Ok(reader) => {
                assert_eq!(reader.kind().name(), want.agent, "{label}: session agent");
                for p in compare(reader.format(), &want.edits, reader.edits()) {
                    problems.push(format!("{label} (session {:?}): {p}", reader.format()));
                }
                if reader.version() != Some(want.version.as_str()) {
                    problems.push(format!("{label} (session): version {:?}", reader.version()));
                }
                if !reader.errors().is_empty() {
                    problems.push(format!("{label} (session): errors {:?}", reader.errors()));
                }
                t.session += 1;
            }
            Err(e) => problems.push(format!("{label}: session: {e}")),
        }

        // Live path, whole and in random pieces: the same edits each time.
        let Some(live) = live_file(&dir) else { continue };
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
                    for p in compare(format, &want_edits, &got) {
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
            "{agent}: {} scenarios via session, {} via live stream, {} expected edits",
            t.session, t.live, t.edits
        );
    }
    assert!(problems.is_empty(), "{} problems:\n{}", problems.len(), problems.join("\n"));
    assert_eq!(tally.len(), 6, "agent versions covered: {:?}", tally.keys());
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
