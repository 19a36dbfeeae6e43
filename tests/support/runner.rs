//! Runs the built `srview` binary: arguments, stdin, working folder and
//! environment in; exit status, stdout and stderr out.

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The binary under test, built by cargo for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_srview");

/// Where the child's stdin comes from.
enum Input {
    /// Nothing: reading gives end of input at once.
    Null,
    /// These bytes, written on a thread (the child may exit before reading
    /// them all, and a big input must not block on a full pipe).
    Bytes(Vec<u8>),
    /// The contents of this file.
    File(PathBuf),
}

/// One invocation of `srview`, built up and then run by [`Srview::output`].
pub struct Srview {
    args: Vec<OsString>,
    stdin: Input,
    cwd: Option<PathBuf>,
    env: Vec<(OsString, Option<OsString>)>,
}

/// `srview ARGS`, with stdin empty, the test's working folder and
/// environment.
pub fn srview<I, S>(args: I) -> Srview
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Srview {
        args: args.into_iter().map(|a| a.as_ref().to_owned()).collect(),
        stdin: Input::Null,
        cwd: None,
        env: Vec::new(),
    }
}

impl Srview {
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    /// `bytes` piped into stdin.
    pub fn stdin(mut self, bytes: &[u8]) -> Self {
        self.stdin = Input::Bytes(bytes.to_vec());
        self
    }

    /// The file at `path` as stdin; `None` leaves stdin empty.
    pub fn stdin_file(mut self, path: Option<&Path>) -> Self {
        self.stdin = path.map_or(Input::Null, |p| Input::File(p.to_path_buf()));
        self
    }

    pub fn cwd(mut self, dir: &Path) -> Self {
        self.cwd = Some(dir.to_path_buf());
        self
    }

    pub fn env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.into(), Some(value.into())));
        self
    }

    pub fn env_remove(mut self, key: &str) -> Self {
        self.env.push((key.into(), None));
        self
    }

    /// The command as configured, its stdio left to the caller: for tests
    /// that talk to the program while it runs or kill it.
    pub fn command(&self) -> Command {
        let mut cmd = Command::new(BIN);
        self.configure(&mut cmd);
        cmd
    }

    /// The same arguments and environment, run through `program` with
    /// `prefix` before the binary's path (a wrapper such as `time`).
    pub fn wrapped(&self, program: impl AsRef<OsStr>, prefix: &[&OsStr]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(prefix).arg(BIN);
        self.configure(&mut cmd);
        cmd
    }

    fn configure(&self, cmd: &mut Command) {
        cmd.args(&self.args);
        if let Some(dir) = &self.cwd {
            cmd.current_dir(dir);
        }
        for (key, value) in &self.env {
            match value {
                Some(v) => cmd.env(key, v),
                None => cmd.env_remove(key),
            };
        }
    }

    /// Spawns with stdin, stdout and stderr piped, for a test that writes
    /// and reads while the program runs.
    pub fn spawn_piped(&self) -> Child {
        self.command()
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn srview")
    }

    /// Runs to the end with stdout a pipe whose reader has already gone
    /// (`srview ... | head -1` once `head` has exited): status and stderr
    /// (stdout is empty). The read end is closed before the program starts,
    /// so its first write to stdout fails, whatever the timing.
    pub fn output_to_closed_pipe(self) -> Output {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let mut cmd = self.command();
        let stdin = match self.stdin {
            Input::Null => Stdio::null(),
            Input::File(path) => Stdio::from(std::fs::File::open(&path).expect("stdin file opens")),
            Input::Bytes(_) => panic!("output_to_closed_pipe: give stdin as a file"),
        };
        let child = cmd
            .stdin(stdin)
            .stdout(writer)
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn srview");
        drop(cmd);
        child.wait_with_output().expect("wait srview")
    }

    /// Runs to the end: status, stdout and stderr.
    pub fn output(self) -> Output {
        match &self.stdin {
            Input::Null => self
                .command()
                .stdin(Stdio::null())
                .output()
                .expect("srview runs"),
            Input::File(path) => {
                let file = std::fs::File::open(path).expect("stdin file opens");
                self.command()
                    .stdin(Stdio::from(file))
                    .output()
                    .expect("srview runs")
            }
            Input::Bytes(data) => {
                let mut child = self.spawn_piped();
                let mut pipe = child.stdin.take().expect("stdin");
                let data = data.clone();
                let writer = std::thread::spawn(move || {
                    let _ = pipe.write_all(&data);
                });
                let out = child.wait_with_output().expect("wait srview");
                writer.join().expect("writer thread");
                out
            }
        }
    }
}

/// The exit code of a program that exited (not killed by a signal).
pub fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally")
}

/// `sh -c command` in `dir`, `input` on its stdin, with the folder of the
/// binary under test first on `PATH`: a command srview printed
/// (`srview apply ...`) runs this build, as a user would run it.
pub fn sh_with_srview(command: &str, dir: &Path, input: &[u8]) -> Output {
    let bin = Path::new(BIN).parent().expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                stdin.write_all(input)?;
            }
            child.wait_with_output()
        })
        .expect("sh runs")
}

/// Stdout, invalid UTF-8 replaced.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stdout, which must be UTF-8.
pub fn utf8_stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 stdout")
}

/// Stdout read as one JSON value; the failure shows what it was.
#[track_caller]
pub fn stdout_json(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not one JSON value ({e}): {:?}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// Stderr, invalid UTF-8 replaced.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The program exited with `code`; the failure names `what` and shows its
/// stderr.
#[track_caller]
pub fn assert_exit(out: &Output, code: i32, what: &str) {
    assert_eq!(out.status.code(), Some(code), "{what}\n{}", stderr(out));
}

/// Claude Code's gate answer `answer` (the gate's stdout): `None` for an
/// allow (no output), else its deny reason; anything else than a deny
/// fails, showing the answer.
#[track_caller]
pub fn claude_code_deny_reason(answer: &str) -> Option<String> {
    if answer.is_empty() {
        return None;
    }
    let json: serde_json::Value = serde_json::from_str(answer).expect("the gate's JSON answer");
    let decision = &json["hookSpecificOutput"];
    assert_eq!(decision["permissionDecision"], "deny", "{answer}");
    let reason = decision["permissionDecisionReason"].as_str();
    Some(reason.expect("a reason").to_string())
}
