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
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::{CmdResult, GateArgs};
use crate::dialect::apply_patch::{DirFs, Entry, PatchFs, SharedText};
use crate::error::Error;
use crate::gate::{self, GateAgent, Judgment, Policy};

/// How long before the agent's own timeout the gate answers: the process
/// must print and exit before the agent kills it. A quarter of a shorter
/// timeout (a process starts and answers in milliseconds), so that a short
/// `--timeout` still leaves most of it to the judgment.
const MARGIN: Duration = Duration::from_millis(500);

/// How long the review pane is waited for when the hook gives no
/// `--timeout` (`srview gate install` always gives one).
const REVIEW_WAIT: Duration = Duration::from_secs(30);

/// How long the judgment may take within the agent's timeout of `seconds`:
/// `None` (no deadline of srview's own) for a value that names none (zero,
/// negative, not a number, or beyond any hook's wait).
pub fn judgment_limit(seconds: f64) -> Option<Duration> {
    if seconds.is_nan() || seconds <= 0.0 {
        return None;
    }
    let timeout = Duration::try_from_secs_f64(seconds).ok()?;
    Some(timeout - MARGIN.min(timeout / 4))
}

pub fn run(args: &GateArgs) -> CmdResult {
    keep_freed_memory();
    // clap requires --agent unless `install` is given (dispatched before).
    let Some(super::GateAgentArg(agent)) = args.agent else {
        return Err(Error::usage("srview gate: --agent NAME is required"));
    };
    let started = Instant::now();
    let judgment = match args.policy.as_deref().map(Policy::parse).transpose() {
        Err(e) => gate::failure(agent, &format!("{e}: the edit is denied")),
        Ok(policy) => {
            let policy = policy.unwrap_or_default();
            match args.timeout.map(|s| (s, judgment_limit(s))) {
                Some((seconds, Some(limit))) => within(agent, policy, seconds, limit),
                Some((seconds, None)) => {
                    // stderr is not the model's: the agent's own log.
                    eprintln!(
                        "srview: gate: --timeout {seconds} names no time limit: the edit is \
                         judged without one"
                    );
                    judge_stdin(agent, &policy)
                }
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

/// Keeps the memory the judgment frees for its next allocations: glibc
/// gives each allocation of 128 KiB and more pages of its own from the
/// kernel and returns them when freed, and the judgment copies the file
/// (and each text made of it) several times, so that every copy of a large
/// file faulted its pages in anew (measured: 20,600 page faults and a third
/// of the CPU time of a fuzzy edit of a 100,000-line file, 9,500 without).
/// A gate call lives for milliseconds: what it keeps is given back when it
/// exits.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets the allocator's parameters; called before
    // any other thread runs.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TRIM_THRESHOLD, 256 << 20);
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

/// From this size of file on, the judgment's heap is backed by huge pages
/// ([`huge_page_heap`]).
const LARGE_FILE: usize = 1 << 20;

/// Backs the next `bytes` of the heap with transparent huge pages (where
/// the kernel gives them on request: `madvise` mode): the judgment of an
/// edit to a large file makes several copies of it (the agent's matcher
/// normalises and rewrites it, srview's checks run on each result), each
/// touching fresh pages, and a 4 KiB page costs a fault of its own
/// (measured on a fuzzy edit of a 100,000-line file: 5,700-9,500 faults,
/// a third of the CPU time; about 1,100 once the heap has huge pages,
/// most of them the binary's own). Not done for
/// a small file: a huge page is cleared whole on its first touch.
/// The block is taken from the heap and given back at once: kept by the
/// allocator ([`keep_freed_memory`]), it is where the next allocations
/// come from.
fn huge_page_heap(bytes: usize) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: the block is malloc's own, advised then freed before anything
    // else uses it; madvise only changes how its pages are backed.
    unsafe {
        const HUGE: usize = 2 << 20;
        let block = libc::malloc(bytes);
        if block.is_null() {
            return;
        }
        let start = (block as usize).next_multiple_of(HUGE);
        let end = (block as usize + bytes) & !(HUGE - 1);
        if end > start {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
        libc::free(block);
    }
}

/// Reads stdin and judges it, srview's own panic caught as a deny.
fn judge_stdin(agent: GateAgent, policy: &Policy) -> Judgment {
    match read_stdin() {
        Ok(payload) => judge_payload(agent, &payload, policy),
        Err(why) => gate::failure(agent, &why),
    }
}

/// The payload on stdin, or why it cannot be read.
fn read_stdin() -> Result<Vec<u8>, String> {
    let mut payload = Vec::new();
    match std::io::stdin().lock().read_to_end(&mut payload) {
        Ok(_) => Ok(payload),
        Err(e) => Err(format!("the payload cannot be read from stdin: {e}")),
    }
}

/// Judges `payload`, srview's own panic caught as a deny.
fn judge_payload(agent: GateAgent, payload: &[u8], policy: &Policy) -> Judgment {
    let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        gate::judge(
            agent,
            payload,
            |cwd| SnapshotFs {
                dir: DirFs {
                    root: PathBuf::from(cwd),
                },
                seen: Default::default(),
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

/// The files below a folder, each read from disk once: the judgment reads
/// a file several times (srview's checks, the agent's matcher, the
/// correction checked with it), and sees one state of it.
struct SnapshotFs {
    dir: DirFs,
    seen: std::cell::RefCell<std::collections::HashMap<String, Snapshot>>,
}

/// What a path held when it was first read: a file's content is kept once
/// and shared with the readers that only look at it.
#[derive(Clone)]
enum Snapshot {
    File(SharedText),
    Other(Entry),
}

impl PatchFs for SnapshotFs {
    fn resolve(&self, path: &str) -> Option<String> {
        self.dir.resolve(path)
    }

    fn read(&self, path: &str) -> Entry {
        match self.read_shared(path) {
            Ok(content) => Entry::File(content.to_string()),
            Err(entry) => entry,
        }
    }

    fn read_shared(&self, path: &str) -> Result<SharedText, Entry> {
        let seen = self.seen.borrow().get(path).cloned();
        let snapshot = match seen {
            Some(snapshot) => snapshot,
            None => {
                let entry = self.dir.read(path);
                if let Entry::File(content) = &entry
                    && content.len() >= LARGE_FILE
                    && self.seen.borrow().is_empty()
                {
                    // About as much as the judgment's copies of it take at
                    // once, below the size malloc maps apart
                    // (`keep_freed_memory`).
                    huge_page_heap(content.len().saturating_mul(12).min(128 << 20));
                }
                let snapshot = match entry {
                    Entry::File(content) => Snapshot::File(SharedText::new(content)),
                    other => Snapshot::Other(other),
                };
                self.seen
                    .borrow_mut()
                    .insert(path.to_string(), snapshot.clone());
                snapshot
            }
        };
        match snapshot {
            Snapshot::File(content) => Ok(content),
            Snapshot::Other(entry) => Err(entry),
        }
    }
}

/// [`judge_stdin`] on a thread of its own, answered with a deny when it is
/// not done within `limit` ([`judgment_limit`] of `seconds`, the agent's
/// own timeout).
fn within(agent: GateAgent, policy: Policy, seconds: f64, limit: Duration) -> Judgment {
    let (send, receive) = std::sync::mpsc::channel();
    // The payload once read: a judgment out of time is recorded with its
    // call (tool, call id, file), so that `srview session` joins it.
    let read: Arc<Mutex<Option<Arc<[u8]>>>> = Arc::default();
    let seen = Arc::clone(&read);
    let spawned = std::thread::Builder::new()
        .name("gate".into())
        .spawn(move || {
            let judged = match read_stdin() {
                Ok(payload) => {
                    let payload: Arc<[u8]> = payload.into();
                    if let Ok(mut slot) = seen.lock() {
                        *slot = Some(Arc::clone(&payload));
                    }
                    judge_payload(agent, &payload, &policy)
                }
                Err(why) => gate::failure(agent, &why),
            };
            let _ = send.send(judged);
        });
    if let Err(e) = spawned {
        return gate::failure(agent, &format!("srview cannot start judging: {e}"));
    }
    receive.recv_timeout(limit).unwrap_or_else(|_| {
        let why = format!(
            "srview did not finish judging this edit within {:.2} s (--timeout {seconds}): it \
             is denied",
            limit.as_secs_f64()
        );
        match read.lock().ok().and_then(|slot| slot.clone()) {
            Some(payload) => gate::record::unjudged(agent, &payload, &why),
            None => gate::failure(agent, &why),
        }
    })
}

/// Prints the judgment's reply, records it, and gives its exit status.
fn answer(judgment: &Judgment) -> CmdResult {
    let reply = judgment.reply();
    let folder = judgment
        .call
        .as_ref()
        .map(|c| crate::gate::spool::workspace_of(std::path::Path::new(&c.cwd)))
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
    let (year, month, day) = crate::source::time::civil_from_days(secs.div_euclid(86_400));
    let of_day = secs.rem_euclid(86_400);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        of_day / 3600,
        of_day % 3600 / 60,
        of_day % 60,
        since.subsec_millis()
    )
}
