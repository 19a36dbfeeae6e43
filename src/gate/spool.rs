//! The channel between `srview gate` and the review pane (`srview review`):
//! a Unix socket at `<workspace>/.srview/review.sock`.
//!
//! **Who can connect.** The folder is created readable by its owner only
//! (0700, with a `.gitignore` of `*`), so no other user can reach the
//! socket; and each end checks the other's user id (`SO_PEERCRED` on
//! Linux, `getpeereid` elsewhere) and drops a peer that is not this user.
//!
//! **The protocol**, one JSON line each way per gate call: the gate
//! connects, writes a [`Request`] and waits for one [`Verdict`] line until
//! its deadline (the agent's own timeout less a margin); then it closes.
//! A pane that does not run (no socket, or a stale one nobody listens on)
//! is known at once; a pane that dies mid-request closes its end, which
//! the gate reads as the end of the stream at once: the gate never hangs.
//! Each connection is one call: several gates connect at once and the
//! pane queues them in the order it accepted them ([`Pending::seq`]).
//!
//! A socket path longer than `sockaddr_un` holds (108 bytes on Linux) is
//! reached through `/proc/self/fd/N/`, N being the folder opened.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the pane answers (part of the protocol this module carries).
pub use super::verdict::Verdict;

/// srview's folder in a workspace.
pub const FOLDER: &str = ".srview";
/// The pane's socket in [`FOLDER`].
pub const SOCKET: &str = "review.sock";

/// The longest request line a pane reads (a file of a few MB judged).
const MAX_REQUEST: u64 = 64 * 1024 * 1024;
/// How long a pane waits for a connected gate's request line.
const REQUEST_READ: Duration = Duration::from_secs(5);
/// The longest one read of the pane's answer blocks: the kernel keeps a
/// socket timeout far off coarse (its timer wheel rounded a 59.5 s one up
/// by a second: the gate answered after the agent's own 60 s, and the real
/// Claude Code and Gemini CLI ran the edit), so the wait is read in slices
/// and the deadline checked between them.
const READ_SLICE: Duration = Duration::from_millis(200);

/// One gate call put to the pane: what was judged, and how.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Request {
    /// The agent's session id (`claude-code`, ...).
    pub agent: String,
    /// The tool, as the agent names it.
    pub tool: String,
    /// The payload's working folder.
    pub cwd: String,
    /// The agent's session id (what `A` allows the rest of).
    pub session_id: Option<String>,
    /// The tool call's id, where the payload has one.
    pub call_id: Option<String>,
    /// The file(s) the edit names, as the input names them.
    pub file: Option<String>,
    /// The case (`doubt`, `loose`, ...).
    pub case: String,
    /// The agent's stage that places it, or its name for the failure.
    pub stage: Option<String>,
    /// What srview found, in sentences (the model's text without the pane).
    pub diagnosis: String,
    /// The tool input exactly as the agent received it.
    pub input: Value,
    /// The exact edit srview stands behind (the whole tool input), when
    /// one is offered: what `c` allows instead.
    pub corrected: Option<Value>,
    /// The file as the gate judged the edit against (`None`: it does not
    /// exist, or cannot be read as text); of a patch of several files, the
    /// first it names.
    pub before: Option<String>,
    /// A patch's other files, after the first (as the input names them),
    /// each with its content as the gate read it (`None`: as `before`), so
    /// the pane shows every file the patch edits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<(String, Option<String>)>,
    /// How long the gate waits for the answer, from when it sent this.
    pub wait_ms: u64,
    /// What the gate answers when the pane does not (`deny`, ...).
    pub fallback: String,
}

/// What asking the pane came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The pane's verdict.
    Answered(Verdict),
    /// No pane runs for this workspace.
    NoPane,
    /// The pane did not answer within the wait.
    TimedOut(Duration),
    /// The pane went away, or answered what cannot be read.
    Failed(String),
}

impl Outcome {
    /// Why the policy decides instead of the pane, in a clause (`None`
    /// when the pane answered).
    pub fn fallback_reason(&self) -> Option<String> {
        match self {
            Outcome::Answered(_) => None,
            Outcome::NoPane => Some("no review pane runs".to_string()),
            Outcome::TimedOut(waited) => Some(format!(
                "no review pane answered within {:.1} s",
                waited.as_secs_f64()
            )),
            Outcome::Failed(why) => Some(format!("the review pane did not answer ({why})")),
        }
    }
}

/// `workspace/.srview`, created readable by its owner only, with a
/// `.gitignore` ignoring everything, when it does not exist.
pub fn folder(workspace: &Path) -> io::Result<PathBuf> {
    use std::os::unix::fs::DirBuilderExt;
    let dir = workspace.join(FOLDER);
    if !dir.is_dir() {
        std::fs::DirBuilder::new().mode(0o700).create(&dir)?;
        std::fs::write(dir.join(".gitignore"), "*\n")?;
    }
    Ok(dir)
}

/// Runs `f` with a path to `dir/SOCKET` short enough for `sockaddr_un`.
fn with_socket_path<T>(dir: &Path, f: impl FnOnce(&Path) -> io::Result<T>) -> io::Result<T> {
    let full = dir.join(SOCKET);
    // sockaddr_un's sun_path: 108 bytes on Linux, 104 on macOS, with its NUL.
    if full.as_os_str().len() < 100 {
        return f(&full);
    }
    if cfg!(target_os = "linux") {
        use std::os::fd::AsRawFd;
        let opened = std::fs::File::open(dir)?;
        let short = PathBuf::from(format!("/proc/self/fd/{}/{SOCKET}", opened.as_raw_fd()));
        let result = f(&short);
        drop(opened);
        return result;
    }
    Err(io::Error::other(format!(
        "the socket's path is too long for this system: {}",
        full.display()
    )))
}

/// The user id of the process at the other end of `stream`.
fn peer_uid(stream: &UnixStream) -> io::Result<u32> {
    use std::os::fd::AsRawFd;
    let fd = stream.as_raw_fd();
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let mut cred = libc::ucred {
            pid: 0,
            uid: 0,
            gid: 0,
        };
        let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
        // SAFETY: `cred` and `len` are valid for writes of their sizes, and
        // `fd` is an open socket owned by `stream`.
        let rc = unsafe {
            libc::getsockopt(
                fd,
                libc::SOL_SOCKET,
                libc::SO_PEERCRED,
                (&mut cred as *mut libc::ucred).cast(),
                &mut len,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(cred.uid)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        let mut uid: libc::uid_t = 0;
        let mut gid: libc::gid_t = 0;
        // SAFETY: both out-pointers are valid; `fd` is an open socket.
        let rc = unsafe { libc::getpeereid(fd, &mut uid, &mut gid) };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(uid)
    }
}

/// This process's user id.
fn own_uid() -> u32 {
    // SAFETY: getuid cannot fail and has no preconditions.
    unsafe { libc::getuid() }
}

/// Whether the peer of `stream` is this user.
fn same_user(stream: &UnixStream) -> io::Result<()> {
    let uid = peer_uid(stream)?;
    if uid == own_uid() {
        Ok(())
    } else {
        Err(io::Error::new(
            io::ErrorKind::PermissionDenied,
            format!("the other end is user {uid}, not this user"),
        ))
    }
}

/// The gate's side: puts `request` to the pane of `workspace` and waits
/// for its verdict until `deadline`. Never blocks past the deadline.
pub fn ask(workspace: &Path, request: &Request, deadline: Instant) -> Outcome {
    let dir = workspace.join(FOLDER);
    let connected = with_socket_path(&dir, |path| UnixStream::connect(path));
    let mut stream = match connected {
        Ok(stream) => stream,
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::ConnectionRefused
            ) =>
        {
            return Outcome::NoPane;
        }
        Err(e) => return Outcome::Failed(format!("its socket cannot be reached: {e}")),
    };
    if let Err(e) = same_user(&stream) {
        return Outcome::Failed(format!("its socket is not this user's: {e}"));
    }
    let started = Instant::now();
    let waited = || deadline.saturating_duration_since(started);
    let mut request = request.clone();
    request.wait_ms = waited().as_millis().min(u128::from(u64::MAX)) as u64;
    let mut line = match serde_json::to_vec(&request) {
        Ok(line) => line,
        Err(e) => return Outcome::Failed(format!("the request cannot be written: {e}")),
    };
    line.push(b'\n');
    let remaining = || deadline.saturating_duration_since(Instant::now());
    // A zero timeout means "none" to the socket: at least a millisecond.
    let bounded = |d: Duration| Some(d.max(Duration::from_millis(1)));
    if remaining().is_zero() {
        return Outcome::TimedOut(waited());
    }
    if let Err(e) = stream
        .set_write_timeout(bounded(remaining()))
        .and_then(|()| stream.write_all(&line))
        .and_then(|()| stream.flush())
    {
        return match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => Outcome::TimedOut(waited()),
            _ => Outcome::Failed(format!("the request was not taken: {e}")),
        };
    }
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        let left = remaining();
        if left.is_zero() {
            return Outcome::TimedOut(waited());
        }
        if let Err(e) = stream.set_read_timeout(bounded(left.min(READ_SLICE))) {
            return Outcome::Failed(format!("its socket: {e}"));
        }
        match stream.read(&mut buf) {
            // The pane closes a call at its own count of the deadline: an
            // end read at or after ours (the timer woke late) is the
            // deadline's, not a pane gone (seen with the real Gemini CLI).
            Ok(0) if remaining().is_zero() => return Outcome::TimedOut(waited()),
            Ok(0) => {
                return Outcome::Failed("the pane closed before answering".to_string());
            }
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                if let Some(end) = answer.iter().position(|&b| b == b'\n') {
                    return match serde_json::from_slice::<Verdict>(&answer[..end]) {
                        Ok(verdict) => Outcome::Answered(verdict),
                        Err(e) => Outcome::Failed(format!("its answer cannot be read: {e}")),
                    };
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A slice ended: the loop's top says whether the deadline has.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) => {}
            Err(e) => return Outcome::Failed(format!("its socket: {e}")),
        }
    }
}

/// One gate call waiting in the pane.
#[derive(Debug)]
pub struct Pending {
    /// Its place in the queue: the order the pane accepted the calls.
    pub seq: u64,
    /// What the gate sent.
    pub request: Request,
    /// When the pane read it.
    pub arrived: Instant,
    stream: UnixStream,
}

impl Pending {
    /// When the gate stops waiting for it.
    pub fn deadline(&self) -> Instant {
        self.arrived + Duration::from_millis(self.request.wait_ms)
    }

    /// Sends `verdict` to the gate.
    pub fn answer(mut self, verdict: &Verdict) -> io::Result<()> {
        let mut line = serde_json::to_vec(verdict).map_err(io::Error::other)?;
        line.push(b'\n');
        self.stream
            .set_write_timeout(Some(Duration::from_secs(2)))?;
        self.stream.write_all(&line)?;
        self.stream.flush()
    }

    /// Calls `gone` on a thread of its own once the gate's end of the
    /// socket closes (it gave up at its deadline, it read the answer, or
    /// the agent killed it), or once this call is dropped.
    pub fn when_gone(&self, gone: impl FnOnce() + Send + 'static) -> io::Result<()> {
        use std::os::fd::AsRawFd;
        let watched = self.stream.try_clone()?;
        std::thread::Builder::new()
            .name("review-call".into())
            .spawn(move || {
                let mut byte = 0u8;
                loop {
                    // SAFETY: a one-byte buffer valid for writes; the fd is
                    // open (`watched` owns it) for the call.
                    let n = unsafe {
                        libc::recv(
                            watched.as_raw_fd(),
                            (&mut byte as *mut u8).cast(),
                            1,
                            libc::MSG_PEEK,
                        )
                    };
                    let interrupted =
                        n < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted;
                    if !interrupted {
                        break;
                    }
                }
                gone();
            })?;
        Ok(())
    }

    /// Whether the gate is gone (it gave up, or the agent killed it): its
    /// end of the socket is closed.
    pub fn gone(&self) -> bool {
        use std::os::fd::AsRawFd;
        let mut byte = 0u8;
        // SAFETY: a one-byte buffer valid for writes; the fd is open.
        let n = unsafe {
            libc::recv(
                self.stream.as_raw_fd(),
                (&mut byte as *mut u8).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        match n {
            0 => true,
            n if n > 0 => false,
            _ => {
                let e = io::Error::last_os_error();
                !matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted
                )
            }
        }
    }
}

impl Drop for Pending {
    /// The call's socket is shut down, not only closed here: a copy of it
    /// watched by [`Pending::when_gone`] must not keep the gate waiting
    /// for a pane that let the call go (the gate reads an answer written
    /// before, then the end at once).
    fn drop(&mut self) {
        let _ = self.stream.shutdown(std::net::Shutdown::Both);
    }
}

/// The pane's side: the socket it listens on. Dropping it stops taking
/// calls and removes the socket.
pub struct Listener {
    path: PathBuf,
    stop: Arc<AtomicBool>,
}

/// Why a pane cannot listen.
#[derive(Debug)]
pub enum ListenError {
    /// Another pane listens for this workspace.
    Taken(PathBuf),
    /// The folder or the socket at this path cannot be made.
    Io(PathBuf, io::Error),
}

impl std::fmt::Display for ListenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListenError::Taken(path) => write!(
                f,
                "another review pane already listens on {} (one pane per workspace)",
                path.display()
            ),
            ListenError::Io(path, e) => write!(f, "{}: {e}", path.display()),
        }
    }
}

impl Listener {
    /// Listens on `workspace`'s socket; every gate call read is given to
    /// `arrived` in the order the calls were accepted (on a thread of its
    /// own; it returns `false` when the pane is done).
    pub fn start(
        workspace: &Path,
        arrived: impl FnMut(Pending) -> bool + Send + 'static,
    ) -> Result<Listener, ListenError> {
        let dir = folder(workspace).map_err(|e| ListenError::Io(workspace.join(FOLDER), e))?;
        let path = dir.join(SOCKET);
        let io_err = |e| ListenError::Io(path.clone(), e);
        // A socket left by a pane that died is removed; one a live pane
        // answers on is not taken over.
        if std::fs::symlink_metadata(&path).is_ok() {
            if with_socket_path(&dir, |p| UnixStream::connect(p)).is_ok() {
                return Err(ListenError::Taken(path));
            }
            std::fs::remove_file(&path).map_err(io_err)?;
        }
        let listener = with_socket_path(&dir, |p| UnixListener::bind(p)).map_err(io_err)?;
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600))
                .map_err(io_err)?;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("review-accept".into())
            .spawn(move || accept_loop(listener, &stopped, arrived))
            .map_err(io_err)?;
        Ok(Listener { path, stop })
    }

    /// The socket's path.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for Listener {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread so it sees `stop` (it may be gone).
        let _ = with_socket_path(self.path.parent().unwrap_or(Path::new(".")), |p| {
            UnixStream::connect(p)
        });
        let _ = std::fs::remove_file(&self.path);
    }
}

/// Accepts gate calls until `stop`; each is read on a thread of its own
/// (a slow gate does not hold the others up) and handed over in the order
/// accepted.
fn accept_loop(
    listener: UnixListener,
    stop: &AtomicBool,
    arrived: impl FnMut(Pending) -> bool + Send + 'static,
) {
    let next = AtomicU64::new(0);
    let (send, receive) = mpsc::channel::<(u64, Option<Pending>)>();
    // Hands the calls over in accepted order: a call read late holds the
    // ones accepted after it until it is read (or dropped).
    std::thread::spawn(move || in_order(&receive, arrived));
    for incoming in listener.incoming() {
        if stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = incoming else { continue };
        let seq = next.fetch_add(1, Ordering::SeqCst);
        let send = send.clone();
        std::thread::spawn(move || {
            let _ = send.send((seq, read_request(seq, stream)));
        });
    }
}

/// Gives `arrived` the calls in `seq` order; a call that could not be read
/// (`None`) only moves the order on.
fn in_order(
    receive: &mpsc::Receiver<(u64, Option<Pending>)>,
    mut arrived: impl FnMut(Pending) -> bool,
) {
    let mut held = std::collections::BTreeMap::new();
    let mut next = 0u64;
    while let Ok((seq, pending)) = receive.recv() {
        held.insert(seq, pending);
        while let Some(pending) = held.remove(&next) {
            next += 1;
            if let Some(pending) = pending
                && !arrived(pending)
            {
                return;
            }
        }
    }
}

/// Reads one gate call's request line, from this user only.
fn read_request(seq: u64, stream: UnixStream) -> Option<Pending> {
    same_user(&stream).ok()?;
    stream.set_read_timeout(Some(REQUEST_READ)).ok()?;
    let mut line = Vec::new();
    let read = BufReader::new((&stream).take(MAX_REQUEST)).read_until(b'\n', &mut line);
    if read.ok()? == 0 || line.last() != Some(&b'\n') {
        return None;
    }
    let request = serde_json::from_slice::<Request>(&line).ok()?;
    stream.set_read_timeout(None).ok()?;
    Some(Pending {
        seq,
        request,
        arrived: Instant::now(),
        stream,
    })
}

/// The workspace a gate call from `cwd` belongs to: inside a git
/// repository, the nearest folder from `cwd` up to the repository's root
/// that holds srview's folder (where a review pane listens and the record
/// is kept: an agent working in a subfolder of the pane's workspace reaches
/// that pane); else `cwd` itself. Never above the repository: a stray
/// `.srview` in a parent folder takes no one's calls.
pub fn workspace_of(cwd: &Path) -> PathBuf {
    let Some(repo) = cwd.ancestors().find(|dir| dir.join(".git").exists()) else {
        return cwd.to_path_buf();
    };
    cwd.ancestors()
        .take_while(|dir| dir.starts_with(repo))
        .find(|dir| dir.join(FOLDER).is_dir())
        .unwrap_or(cwd)
        .to_path_buf()
}

/// Puts `judgment` to the review pane of its workspace when its policy
/// says `review` (else gives it back as it is), waiting until `deadline`;
/// the pane's verdict becomes the answer, or, when the pane does not
/// answer, the policy's fallback saying why.
pub fn consult(mut judgment: super::Judgment, deadline: Instant) -> super::Judgment {
    let (Some(review), Some(call)) = (&judgment.review, &judgment.call) else {
        return judgment;
    };
    let finding = &review.finding;
    // A patch over several files names them all: the pane shows each.
    let read = |file: &str| std::fs::read_to_string(Path::new(&call.cwd).join(file)).ok();
    let before = judgment
        .file
        .as_deref()
        .and_then(|files| read(first_file(files)));
    let others = judgment
        .file
        .as_deref()
        .map(|files| {
            files
                .split(", ")
                .skip(1)
                .map(|file| (file.to_string(), read(file)))
                .collect()
        })
        .unwrap_or_default();
    let request = Request {
        agent: judgment.agent.id().to_string(),
        tool: call.tool.clone(),
        cwd: call.cwd.clone(),
        session_id: call.session_id.clone(),
        call_id: call.call_id.clone(),
        file: judgment.file.clone(),
        case: finding.case.name().to_string(),
        stage: finding.stage.clone(),
        diagnosis: finding.explanation.trim_end().to_string(),
        input: call.input.clone(),
        corrected: finding.corrected.clone(),
        before,
        others,
        wait_ms: 0,
        fallback: "deny".to_string(),
    };
    match ask(&workspace_of(Path::new(&call.cwd)), &request, deadline) {
        Outcome::Answered(chosen @ (Verdict::Corrected | Verdict::SessionRepair)) => {
            // The pane may have held the call for a minute: the corrected
            // edit is judged again against the file as it is now, and sent
            // only if it is still exact and in no doubt (a new user's find:
            // a line added by hand while the call waited was added again).
            let now = finding
                .corrected
                .as_ref()
                .map(|input| corrected_now(judgment.agent, call, input));
            match now {
                Some(now) if now.case != super::Case::Exact => {
                    let tool = call.tool.clone();
                    let explanation =
                        super::wording::own_matcher(judgment.agent, &tool, &now.explanation);
                    // A sentence of its own, and what to do next (a tester's
                    // find: it ended after the doubt, in lower case).
                    let mut said = explanation.trim_end().chars();
                    let explanation: String = said
                        .next()
                        .map(|first| first.to_uppercase().chain(said).collect())
                        .unwrap_or_default();
                    let step = now
                        .next_step
                        .text(&tool)
                        .map(|step| format!("\n{step}"))
                        .unwrap_or_default();
                    let who = match chosen {
                        Verdict::SessionRepair => {
                            "the review pane repaired this loose call of a session the user \
                             allowed"
                        }
                        _ => "the user chose srview's corrected edit in the review pane",
                    };
                    judgment.answer = super::Answer::Deny {
                        reason: format!(
                            "srview gate: {who}, but the file changed while the call waited, \
                             and the corrected edit is no longer exact ({}): this {tool} is \
                             denied. {explanation}{step}",
                            now.case.name(),
                        ),
                    };
                    if let Some(review) = &mut judgment.review {
                        review.verdict = Some(chosen);
                    }
                    judgment
                }
                _ => judgment.with_verdict(chosen),
            }
        }
        Outcome::Answered(verdict) => judgment.with_verdict(verdict),
        // A loose edit repair could not rewrite: denied as without a pane.
        Outcome::NoPane if judgment.action != Some(super::Action::Review) => judgment,
        other => {
            let why = other.fallback_reason().unwrap_or_default();
            let action = judgment.action.unwrap_or(super::Action::Review);
            judgment.answer =
                super::answer::review_fallback(judgment.agent, &call.tool, finding, &why, action);
            judgment
        }
    }
}

/// The corrected edit `input` of `call` judged again against the file as
/// it is now (the pane may have held the call a while).
fn corrected_now(agent: super::GateAgent, call: &super::Call, input: &Value) -> super::Finding {
    let again = super::Call {
        input: input.clone(),
        ..call.clone()
    };
    let fs = crate::dialect::apply_patch::DirFs {
        root: Path::new(&call.cwd).to_path_buf(),
    };
    super::finding_of(agent, &again, &fs)
}

/// The call `request` asks about, as the gate read it (no hook event).
fn call_of(request: &Request) -> super::Call {
    super::Call {
        cwd: request.cwd.clone(),
        session_id: request.session_id.clone(),
        call_id: request.call_id.clone(),
        tool: request.tool.clone(),
        event: None,
        input: request.input.clone(),
        permission_mode: None,
    }
}

/// What the gate will answer when the pane chooses the request's corrected
/// edit: `None` when it is still exact against the file as it is now (it
/// is sent), else why it is denied, in a few words (`no longer exact
/// (doubt)`): the pane says so, not that it allowed it (a tester's find:
/// the pane logged "allowed the corrected edit" while the gate denied).
pub fn corrected_refused(request: &Request) -> Option<String> {
    let agent = super::GateAgent::from_id(&request.agent)?;
    let corrected = request.corrected.as_ref()?;
    let call = call_of(request);
    let now = corrected_now(agent, &call, corrected);
    (now.case != super::Case::Exact).then(|| {
        format!(
            "the file changed while it waited, and the corrected edit is no longer exact ({})",
            now.case.name()
        )
    })
}

/// The files `request` edits as they are now, read as the gate reads them
/// for the pane ([`consult`]): the first it names, and a patch's others.
fn files_now(request: &Request) -> (Option<String>, Vec<(String, Option<String>)>) {
    let read = |file: &str| std::fs::read_to_string(Path::new(&request.cwd).join(file)).ok();
    let files = request.file.as_deref().unwrap_or_default();
    let before = request
        .file
        .as_deref()
        .and_then(|_| read(first_file(files)));
    let others = (request.others.iter())
        .map(|(file, _)| (file.clone(), read(file)))
        .collect();
    (before, others)
}

/// `request` judged again against its files as they are now, when one of
/// them changed since it was judged (`None`: none did, and the judgment
/// stands): its case, stage, diagnosis and files as the gate would send
/// them now. Its corrected edit is kept only while it is still exact (what
/// the gate sends for `c`, which it judges again too). The pane's `a` and
/// `A`, and every call it shows, go through this: the user never allows an
/// edit on a view of a file that is no longer there (a tester's find: an
/// edit judged exact was allowed after the line it adds had been written by
/// hand, and was written twice).
pub fn judged_now(request: &Request) -> Option<Request> {
    // Read before judging: a file changing meanwhile is found changed at
    // the next look.
    let (before, others) = files_now(request);
    if before == request.before && others == request.others {
        return None;
    }
    let changed = Request {
        before,
        others,
        ..request.clone()
    };
    let Some(agent) = super::GateAgent::from_id(&request.agent) else {
        return Some(Request {
            case: super::Case::Unreadable.name().to_string(),
            stage: None,
            diagnosis: format!(
                "the file changed since the gate judged it, and srview cannot judge it again \
                 (an agent it does not know: {})",
                request.agent
            ),
            corrected: None,
            ..changed
        });
    };
    let call = call_of(request);
    let fs = crate::dialect::apply_patch::DirFs {
        root: Path::new(&call.cwd).to_path_buf(),
    };
    let mut finding = super::finding_of(agent, &call, &fs);
    // An exact edit reaches the pane only by the policy `exact=review`.
    let exact_action = (request.case == super::Case::Exact.name()).then_some(super::Action::Review);
    super::worded(agent, &call.tool, &mut finding, exact_action);
    if finding.explanation.trim().is_empty() {
        let file = finding.file.as_deref().unwrap_or("the file");
        finding.explanation = format!(
            "the edit of {file} matches exactly against the file as it is now, with no doubt."
        );
    }
    let corrected = request
        .corrected
        .as_ref()
        .filter(|input| corrected_now(agent, &call, input).case == super::Case::Exact)
        .cloned();
    Some(Request {
        case: finding.case.name().to_string(),
        stage: finding.stage,
        diagnosis: finding.explanation.trim_end().to_string(),
        corrected,
        ..changed
    })
}

/// `input` (the request's tool input, or its corrected one) as the
/// previewer reads an agent's edit: what the pane shows in the split view
/// (`None`: a tool the gate does not judge, or an input that cannot be
/// read as one).
pub fn edit_input(request: &Request, input: &Value) -> Option<crate::source::agent::EditInput> {
    use super::judge::{ToolKind, kind};
    use crate::source::agent::{CallInput, EditInput};
    let agent = super::GateAgent::from_id(&request.agent)?;
    let text = |key: &str| input.get(key).and_then(Value::as_str).map(str::to_string);
    Some(match kind(agent, &request.tool)? {
        ToolKind::ExactString(tool) => EditInput::Exact(
            crate::dialect::edit::Edit::from_tool_input(tool, &input.to_string()).ok()?,
        ),
        ToolKind::Write(_, content_key) => EditInput::Whole(text(content_key)?),
        ToolKind::CodexPatch => EditInput::ApplyPatch(text("command")?),
        ToolKind::Matcher(dialect) => EditInput::Call(CallInput {
            dialect,
            input: input.clone(),
            path: crate::dialect::registry::find(dialect)
                .and_then(|row| row.path_key)
                .and_then(text)
                .or_else(|| request.file.clone())
                .unwrap_or_default(),
        }),
    })
}

/// `input` (the request's tool input as sent) as the agent's own matcher
/// places it, for the pane's split view: [`edit_input`], except where the
/// agent finds the text by a stage srview's exact reading does not take.
/// Claude Code's quote normalisation (stage `quote-normalised`): the old
/// text becomes the file's own text at the place Claude Code finds it
/// (curly and straight quotes taken as the same); its new text is what
/// Claude Code writes when that place has straight quotes (the file's
/// curly ones it puts into the new text itself, which srview does not
/// reproduce: `None` then, nothing is shown as placed).
pub fn placed_input(request: &Request, input: &Value) -> Option<crate::source::agent::EditInput> {
    use crate::dialect::edit::Edit;
    use crate::source::agent::EditInput;
    let read = edit_input(request, input)?;
    if request.stage.as_deref() != Some("quote-normalised") {
        return Some(read);
    }
    let EditInput::Exact(Edit::ClaudeEdit {
        file_path,
        old_string,
        new_string,
        replace_all,
    }) = read
    else {
        return Some(read);
    };
    let content = request.before.as_deref()?;
    let (start, end) = quote_blind_find(content, &old_string)?;
    let own = &content[start..end];
    if own.contains(CURLY_QUOTES) {
        return None;
    }
    Some(EditInput::Exact(Edit::ClaudeEdit {
        file_path,
        old_string: own.to_string(),
        new_string,
        replace_all,
    }))
}

/// The curly quotes Claude Code takes for straight ones.
const CURLY_QUOTES: [char; 4] = ['\u{2018}', '\u{2019}', '\u{201C}', '\u{201D}'];

/// The byte range of the first place in `content` where `needle` occurs
/// with curly and straight quotes taken as the same.
fn quote_blind_find(content: &str, needle: &str) -> Option<(usize, usize)> {
    let straight = |c: char| match c {
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201C}' | '\u{201D}' => '"',
        c => c,
    };
    let needle: Vec<char> = needle.chars().map(straight).collect();
    if needle.is_empty() {
        return None;
    }
    let chars: Vec<(usize, char)> = content
        .char_indices()
        .map(|(at, c)| (at, straight(c)))
        .collect();
    let start = chars
        .windows(needle.len())
        .position(|w| w.iter().map(|(_, c)| *c).eq(needle.iter().copied()))?;
    let end = chars
        .get(start + needle.len())
        .map_or(content.len(), |(at, _)| *at);
    Some((chars[start].0, end))
}

/// The first of the files a judgment names (a patch's are joined by `, `).
pub fn first_file(files: &str) -> &str {
    files.split(", ").next().unwrap_or(files)
}

#[cfg(test)]
mod tests {
    /// Claude Code's quote-blind find: the file's own text at the place.
    #[test]
    fn a_quote_normalised_edit_is_placed_on_the_files_own_text() {
        let content = "a = 1\nlabel = \"low\"\n";
        assert_eq!(
            super::quote_blind_find(content, "label = \u{201C}low\u{201D}"),
            Some((6, 19))
        );
        assert_eq!(super::quote_blind_find("x ‘é’ y", "'é'"), Some((2, 10)));
        assert_eq!(super::quote_blind_find(content, "nowhere"), None);
        assert_eq!(super::quote_blind_find(content, ""), None);
    }

    /// A call from a subfolder of a workspace holding srview's folder
    /// belongs to that workspace; elsewhere to its own folder.
    #[test]
    fn a_subfolders_call_belongs_to_the_workspace_above_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("repo");
        let sub = repo.join("a").join("b");
        std::fs::create_dir_all(&sub).expect("subfolders");
        std::fs::create_dir(repo.join(".git")).expect("a repository");
        assert_eq!(super::workspace_of(&sub), sub);
        std::fs::create_dir(repo.join(super::FOLDER)).expect("srview's folder");
        assert_eq!(super::workspace_of(&sub), repo);
        assert_eq!(super::workspace_of(&repo), repo);
        // Above the repository: not taken.
        std::fs::remove_dir(repo.join(super::FOLDER)).expect("removed");
        std::fs::create_dir(dir.path().join(super::FOLDER)).expect("a stray one");
        assert_eq!(super::workspace_of(&sub), sub);
        // Outside any repository: the call's own folder.
        let alone = dir.path().join("alone");
        std::fs::create_dir(&alone).expect("a folder");
        assert_eq!(super::workspace_of(&alone), alone);
    }
}
