//! The agents added after the first five (pi, Gemini CLI, Qwen Code,
//! OpenCode): each one's recorded runs read live and saved, through the
//! library and the binary, and its previewer in a terminal. One test binary
//! for all of them (disk and link time); one module per agent.

#[path = "more_agents/gemini_cli.rs"]
mod gemini_cli;
#[path = "more_agents/opencode.rs"]
mod opencode;
#[path = "more_agents/pi.rs"]
mod pi;
#[path = "more_agents/qwen_code.rs"]
mod qwen_code;
mod support;

/// The previewer at 80x24 in `ws` following the agent output `log` there
/// (`srview --follow LOG --cwd WS`).
fn following_at_80x24(ws: &std::path::Path, log: &str) -> support::pty::Session {
    let cwd = ws.to_str().expect("UTF-8");
    support::pty::Session::srview_at_80x24(ws, &["--follow", log, "--cwd", cwd])
}

/// `srview sessions`' count of a generated session (tests/support/big_session.rs):
/// `agent`'s, with the edits, failures and loose edits its generator made;
/// the count, for more checks.
fn assert_counted_as_generated(
    big: &support::big_session::Generated,
    agent: srview::source::agent::AgentKind,
) -> srview::sessions::count::Listed {
    let listed = srview::sessions::count::count(&big.path).expect("counts");
    assert_eq!(listed.agent, agent);
    assert_eq!(
        (
            listed.counts.edits,
            listed.counts.failed,
            listed.counts.loose
        ),
        (big.edits, big.failed, big.loose)
    );
    listed
}

/// `srview sessions` with `home` as HOME, run in `cwd`.
fn sessions_listed(home: &std::path::Path, cwd: &std::path::Path) -> std::process::Output {
    support::runner::srview(["sessions"])
        .env("HOME", &home.to_string_lossy())
        .cwd(cwd)
        .output()
}

/// The rows `srview sessions` lists with `home` as HOME, run in `cwd`
/// (it must exit 0), the header left out: each row's cells (modified: 2
/// cells, agent, version, edits, failed, loose, unknown, workspace,
/// session).
fn listed_rows(home: &std::path::Path, cwd: &std::path::Path) -> Vec<Vec<String>> {
    let out = sessions_listed(home, cwd);
    let stderr = support::runner::stderr(&out);
    assert_eq!(support::runner::code(&out), 0, "{stderr}");
    support::runner::stdout(&out)
        .lines()
        .skip(1)
        .map(|row| row.split_whitespace().map(str::to_string).collect())
        .collect()
}

/// The cells of the one row [`listed_rows`] gives for `agent` (its id).
fn listed_cells(home: &std::path::Path, cwd: &std::path::Path, agent: &str) -> Vec<String> {
    let rows = listed_rows(home, cwd);
    rows.iter()
        .find(|cells| cells.get(2).is_some_and(|a| a == agent))
        .unwrap_or_else(|| panic!("no {agent} session listed: {rows:?}"))
        .clone()
}
