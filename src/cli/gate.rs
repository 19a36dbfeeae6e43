//! `srview gate --agent NAME [--policy P] [--timeout SECONDS]`: the command
//! an agent's pre-edit hook runs. It reads the hook's payload on stdin,
//! judges the edit ([`crate::gate`]) against the files under the payload's
//! `cwd`, prints the answer in the agent's own decision format and appends
//! the decision to `.srview/gate.jsonl` in that folder.
//!
//! The agents let an edit through when their hook crashes or times out,
//! so every path ends in an explicit answer: an unreadable payload or file,
//! a bad `--policy`, srview's own failure (a panic is caught) and a
//! judgment not done within `--timeout` are each a deny with the reason.
//! A usage error (an unknown `--agent`) exits 2 with the reason on stderr,
//! which each command-hook agent also reads as a deny.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use super::{CmdResult, GateArgs};
use crate::dialect::apply_patch::DirFs;
use crate::error::Error;
use crate::gate::{self, GateAgent, Judgment, Policy};

/// How long before the agent's own timeout the gate answers: the process
/// must print and exit before the agent kills it.
const MARGIN: Duration = Duration::from_millis(500);

/// How long the review pane is waited for when the hook gives no
/// `--timeout` (`srview gate install` always gives one).
const REVIEW_WAIT: Duration = Duration::from_secs(30);

pub fn run(args: &GateArgs) -> CmdResult {
    // clap requires --agent unless `install` is given (dispatched before).
    let Some(super::GateAgentArg(agent)) = args.agent else {
        return Err(Error::usage("srview gate: --agent NAME is required"));
    };
    let started = Instant::now();
    let judgment = match args.policy.as_deref().map(Policy::parse).transpose() {
        Err(e) => gate::failure(agent, &format!("{e}: the edit is denied")),
        Ok(policy) => {
            let policy = policy.unwrap_or_default();
            match args.timeout {
                Some(seconds) => within(agent, policy, seconds),
                None => judge_stdin(agent, &policy),
            }
        }
    };
    // A case the policy puts to the review pane waits for it until the
    // agent's own timeout less the margin.
    let judgment = gate::spool::consult(judgment, started + review_wait(args.timeout));
    answer(&judgment)
}

/// How long a call the policy puts to the review pane may wait for it,
/// from the start: `MARGIN` before the agent's timeout (`--timeout`), or
/// `REVIEW_WAIT` when none is given.
fn review_wait(timeout: Option<f64>) -> Duration {
    timeout
        .and_then(|seconds| Duration::try_from_secs_f64(seconds).ok())
        .map_or(REVIEW_WAIT, |limit| limit.saturating_sub(MARGIN))
}

/// Reads stdin and judges it, srview's own panic caught as a deny.
fn judge_stdin(agent: GateAgent, policy: &Policy) -> Judgment {
    let mut payload = Vec::new();
    if let Err(e) = std::io::stdin().lock().read_to_end(&mut payload) {
        return gate::failure(
            agent,
            &format!("the payload cannot be read from stdin: {e}"),
        );
    }
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        gate::judge(
            agent,
            &payload,
            |cwd| DirFs {
                root: PathBuf::from(cwd),
            },
            policy,
        )
    }));
    judged.unwrap_or_else(|_| {
        gate::failure(
            agent,
            "srview failed while judging this edit (an internal error): it is denied",
        )
    })
}

/// [`judge_stdin`] on a thread of its own, answered with a deny when it is
/// not done `MARGIN` before `seconds` (the agent's own timeout) pass.
fn within(agent: GateAgent, policy: Policy, seconds: f64) -> Judgment {
    let limit = Duration::try_from_secs_f64(seconds)
        .unwrap_or(Duration::from_secs(60))
        .saturating_sub(MARGIN);
    let (send, receive) = std::sync::mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("gate".into())
        .spawn(move || {
            let _ = send.send(judge_stdin(agent, &policy));
        });
    if let Err(e) = spawned {
        return gate::failure(agent, &format!("srview cannot start judging: {e}"));
    }
    receive.recv_timeout(limit).unwrap_or_else(|_| {
        gate::failure(
            agent,
            &format!(
                "srview did not finish judging this edit within {:.1} s (--timeout {seconds}): \
                 it is denied",
                limit.as_secs_f64()
            ),
        )
    })
}

/// Prints the judgment's reply, records it, and gives its exit status.
fn answer(judgment: &Judgment) -> CmdResult {
    let reply = judgment.reply();
    let folder = judgment
        .call
        .as_ref()
        .map(|c| PathBuf::from(&c.cwd))
        .or_else(|| std::env::current_dir().ok());
    if let Some(folder) = folder
        && let Err(e) = record(&folder, &judgment.record(&now()))
    {
        // The decision stands without its record; stderr is not the model's.
        eprintln!("srview: gate: the decision was not recorded: {e}");
    }
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(&reply.stdout)
        .and_then(|()| stdout.flush())
        .map_err(Error::stdout)?;
    Ok(reply.exit_code)
}

/// Appends `line` to `folder/.srview/gate.jsonl`; the folder is created
/// readable by its owner only, with a `.gitignore` ignoring everything.
fn record(folder: &Path, line: &str) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
    let dir = folder.join(".srview");
    if !dir.is_dir() {
        std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
        std::fs::write(dir.join(".gitignore"), "*\n")?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .mode(0o600)
        .open(dir.join("gate.jsonl"))?;
    file.write_all(format!("{line}\n").as_bytes())
}

/// The time now, RFC 3339 in UTC with milliseconds.
fn now() -> String {
    let since = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs() as i64;
    let (year, month, day) = crate::sessions::find::civil_from_days(secs.div_euclid(86_400));
    let of_day = secs.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60,
        since.subsec_millis()
    )
}
