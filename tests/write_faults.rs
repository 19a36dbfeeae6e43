//! `srview apply --write` never loses data: every fault leaves FILE as it
//! was (with a clear one-line message and exit 2), and a process killed at
//! any instant leaves FILE with the old or the new content, nothing else.
//!
//! Real faults are used where the machine allows them (a read-only folder by
//! permissions, or as root a read-only tmpfs; a full disk as a 64 KiB tmpfs);
//! otherwise the debug binary's fault seam (`SRVIEW_FAULT`, see
//! `src/output.rs`) injects the same error. Each test states which path it
//! took and asserts it: none skips.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod support;

use support::text::assert_contains;

use support::files::{mkfifo, p};
use support::rng::XorShift;
use support::runner::{srview, stderr};

fn apply(args: &[&str], stdin: &[u8], fault: Option<&str>) -> Output {
    let cmd = srview(["apply"]).args(args).stdin(stdin);
    match fault {
        Some(f) => cmd.env("SRVIEW_FAULT", f),
        None => cmd.env_remove("SRVIEW_FAULT"),
    }
    .output()
}

/// Exit 2, one line on stderr naming FILE and containing every needle.
fn assert_refused(out: &Output, file: &Path, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err:?}");
    assert!(
        err.starts_with(&format!("srview: {} was not written: ", file.display())),
        "{err:?}"
    );
    for n in needles {
        assert!(err.contains(n), "{err:?} lacks {n:?}");
    }
}

/// Names in `dir` that look like srview temporaries.
fn temporaries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .expect("read_dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".srview-"))
        .collect()
}

const OLD: &[u8] = b"alpha\nbeta\ngamma\n";
const DIFF: &str = "------- SEARCH\nbeta\n=======\nBETA\n+++++++ REPLACE\n";
const NEW: &[u8] = b"alpha\nBETA\ngamma\n";

/// A mounted tmpfs, unmounted when dropped.
struct Mount(PathBuf);

impl Mount {
    /// Mounts a tmpfs with `options` on a new folder, if this process may.
    fn tmpfs(parent: &Path, options: &str) -> Option<Mount> {
        let dir = parent.join("mnt");
        std::fs::create_dir_all(&dir).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", options, "tmpfs", p(&dir)])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Mount(dir))
    }

    fn remount_read_only(&self) -> bool {
        Command::new("mount")
            .args(["-o", "remount,ro", p(&self.0)])
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let _ = Command::new("umount").args(["-l", p(&self.0)]).status();
    }
}

/// Whether permissions stop this process writing (false as root).
#[cfg(unix)]
fn permissions_bind(dir: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let probe = dir.join("probe");
    std::fs::create_dir(&probe).expect("probe dir");
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o555)).expect("chmod");
    let binds = std::fs::File::create(probe.join("x")).is_err();
    std::fs::set_permissions(&probe, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    std::fs::remove_dir_all(&probe).expect("remove probe");
    binds
}

// ---------------------------------------------------------------- changed on disk

/// FILE changes between load and write: srview reads DIFF from a FIFO after
/// loading FILE, so the test changes FILE while srview waits for the diff.
#[cfg(target_os = "linux")]
#[test]
fn file_changed_on_disk_since_loaded_is_refused() {
    use std::os::unix::fs::OpenOptionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, OLD).unwrap();
    let fifo = dir.path().join("diff.fifo");
    mkfifo(&fifo);
    let mut child = srview(["apply", "--write", p(&file), p(&fifo)])
        .env_remove("SRVIEW_FAULT")
        .command()
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A non-blocking open for writing succeeds once srview opened the FIFO
    // for reading, which it does only after loading FILE.
    const O_NONBLOCK: i32 = 0o4000;
    let deadline = Instant::now() + Duration::from_secs(30);
    let mut writer = loop {
        match std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(O_NONBLOCK)
            .open(&fifo)
        {
            Ok(w) => break w,
            Err(_) => {
                assert!(child.try_wait().unwrap().is_none(), "srview exited early");
                assert!(Instant::now() < deadline, "srview never opened DIFF");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    };
    std::fs::write(&file, b"someone else's edit\n").unwrap();
    writer.write_all(DIFF.as_bytes()).unwrap();
    drop(writer);
    let out = child.wait_with_output().unwrap();
    assert_refused(&out, &file, &["it changed on disk since it was loaded"]);
    assert_eq!(std::fs::read(&file).unwrap(), b"someone else's edit\n");
    assert!(temporaries(dir.path()).is_empty());
}

// ---------------------------------------------------------------- read-only folder

#[cfg(unix)]
#[test]
fn read_only_folder_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let base = tempfile::tempdir().unwrap();
    if permissions_bind(base.path()) {
        eprintln!("read-only folder: chmod 555");
        let dir = base.path().join("ro");
        std::fs::create_dir(&dir).unwrap();
        let file = dir.join("f.txt");
        std::fs::write(&file, OLD).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
        let out = apply(&["--write", p(&file)], DIFF.as_bytes(), None);
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_refused(
            &out,
            &file,
            &["cannot create a temporary file", "ermission denied"],
        );
        assert_eq!(std::fs::read(&file).unwrap(), OLD);
        assert!(temporaries(&dir).is_empty());
    } else if let Some(mount) = Mount::tmpfs(base.path(), "size=1m") {
        eprintln!("read-only folder: root, so a tmpfs remounted read-only");
        let file = mount.0.join("f.txt");
        std::fs::write(&file, OLD).unwrap();
        assert!(mount.remount_read_only(), "remount read-only");
        let out = apply(&["--write", p(&file)], DIFF.as_bytes(), None);
        assert_refused(
            &out,
            &file,
            &["cannot create a temporary file", "Read-only file system"],
        );
        assert_eq!(std::fs::read(&file).unwrap(), OLD);
        assert!(temporaries(&mount.0).is_empty());
    } else {
        eprintln!("read-only folder: root without mount, so an injected fault");
        let file = base.path().join("f.txt");
        std::fs::write(&file, OLD).unwrap();
        let out = apply(&["--write", p(&file)], DIFF.as_bytes(), Some("create"));
        assert_refused(
            &out,
            &file,
            &["cannot create a temporary file", "read-only file system"],
        );
        assert_eq!(std::fs::read(&file).unwrap(), OLD);
        assert!(temporaries(base.path()).is_empty());
    }
}

// ---------------------------------------------------------------- disk full

#[test]
fn full_disk_is_refused() {
    let base = tempfile::tempdir().unwrap();
    // 40 KiB of lines: FILE fits a 64 KiB filesystem, FILE plus its new copy does not.
    let old: Vec<u8> = (0..4000)
        .flat_map(|i| format!("line {i:04}\n").into_bytes())
        .collect();
    let diff = "------- SEARCH\nline 2000\n=======\nLINE 2000\n+++++++ REPLACE\n";
    if let Some(mount) = Mount::tmpfs(base.path(), "size=64k") {
        eprintln!("full disk: a 64 KiB tmpfs");
        let file = mount.0.join("f.txt");
        std::fs::write(&file, &old).unwrap();
        let out = apply(&["--write", p(&file)], diff.as_bytes(), None);
        assert_refused(&out, &file, &["writing failed", "No space left on device"]);
        assert_eq!(std::fs::read(&file).unwrap(), old);
        assert!(
            temporaries(&mount.0).is_empty(),
            "the partial copy is removed"
        );
    } else {
        eprintln!("full disk: no mount allowed, so an injected fault");
        let file = base.path().join("f.txt");
        std::fs::write(&file, &old).unwrap();
        let out = apply(&["--write", p(&file)], diff.as_bytes(), Some("write"));
        assert_refused(&out, &file, &["writing failed", "no space left on device"]);
        assert_eq!(std::fs::read(&file).unwrap(), old);
        assert!(temporaries(base.path()).is_empty());
    }
}

/// Every step of the write fails once through the seam: FILE untouched,
/// temporary removed, the step named.
#[test]
fn injected_faults_at_every_step_leave_file_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, OLD).unwrap();
    for (fault, needles) in [
        (
            "create",
            ["cannot create a temporary file", "read-only file system"],
        ),
        ("write", ["writing failed", "no space left on device"]),
        ("fsync", ["flushing to disk failed", "input/output error"]),
        (
            "rename",
            [
                "renaming the temporary file over it failed",
                "input/output error",
            ],
        ),
    ] {
        let out = apply(&["--write", p(&file)], DIFF.as_bytes(), Some(fault));
        assert_refused(&out, &file, &needles);
        assert!(stderr(&out).contains(&format!("SRVIEW_FAULT={fault}")));
        assert_eq!(std::fs::read(&file).unwrap(), OLD, "{fault}");
        assert!(temporaries(dir.path()).is_empty(), "{fault}");
    }
    // Without a fault the same command writes.
    let out = apply(&["--write", p(&file)], DIFF.as_bytes(), None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&file).unwrap(), NEW);
}

/// Without `--write` the seam has nothing to break: printing still works.
#[test]
fn faults_do_not_touch_printing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    std::fs::write(&file, OLD).unwrap();
    let out = apply(&[p(&file)], DIFF.as_bytes(), Some("write"));
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, NEW);
}

// ---------------------------------------------------------------- not a file

#[test]
fn directory_or_device_as_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = apply(&["--write", p(dir.path())], DIFF.as_bytes(), None);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&stderr(&out), "is a directory");
    // A pipe in the test's own folder stands for every file that is not a
    // regular one (a device, a socket): never the system's /dev/null,
    // which a regression here would replace for the whole machine.
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let pipe = dir.path().join("pipe");
        mkfifo(&pipe);
        let out = apply(&["--write", p(&pipe)], DIFF.as_bytes(), None);
        assert_eq!(out.status.code(), Some(2));
        assert_contains(
            &stderr(&out),
            &format!("{} is not a regular file", p(&pipe)),
        );
        // Even as a new file: loading refuses before any write is tried.
        let out = apply(&["--write", "--new-file", p(&pipe)], DIFF.as_bytes(), None);
        assert_eq!(out.status.code(), Some(2));
        let meta = std::fs::metadata(&pipe).unwrap();
        assert!(meta.file_type().is_fifo(), "the pipe is still a pipe");
    }
}

#[test]
fn new_file_in_a_missing_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("no/such/dir/f.txt");
    let diff = "------- SEARCH\n=======\nhello\n+++++++ REPLACE\n";
    let out = apply(&["--write", "--new-file", p(&file)], diff.as_bytes(), None);
    assert_refused(&out, &file, &["cannot create a temporary file"]);
    assert!(!file.exists());
}

#[cfg(unix)]
#[test]
fn secret_file_keeps_its_mode_and_symlink_is_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("secret.txt");
    std::fs::write(&real, OLD).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
    let link = dir.path().join("link.txt");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let out = apply(&["--write", p(&link)], DIFF.as_bytes(), None);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&real).unwrap(), NEW);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

/// A tester's find (round 38b): a file with a second name (a hard link)
/// was replaced by a new file, `written`, exit 0, and the other name kept
/// the old content without a word. Now held back with the reason (exit 1,
/// both names untouched); `--force` writes it and says so on stderr.
#[cfg(unix)]
#[test]
fn a_hard_linked_file_is_held_back_and_forced_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    let other = dir.path().join("g.txt");
    std::fs::write(&file, OLD).unwrap();
    std::fs::hard_link(&file, &other).unwrap();
    let why = format!(
        "{} has 1 other name (a hard link): srview writes the new content as a new file in its \
         place, so the other name keeps the old content (an agent writing the file in place \
         changes every name)",
        file.display()
    );
    let out = apply(&["--write", p(&file)], DIFF.as_bytes(), None);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        format!(
            "srview: {} was not written: {why} (--force writes it)\n",
            file.display()
        )
    );
    assert_eq!(std::fs::read(&file).unwrap(), OLD);
    assert_eq!(std::fs::read(&other).unwrap(), OLD);
    let json = apply(&["--write", "--json", p(&file)], DIFF.as_bytes(), None);
    assert_eq!(json.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["write"]["state"], "held-back");
    assert_eq!(report["write"]["reasons"], serde_json::json!([why]));
    let forced = apply(&["--write", "--force", p(&file)], DIFF.as_bytes(), None);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert_eq!(stderr(&forced), format!("srview: warning: {why}\n"));
    assert_eq!(std::fs::read(&file).unwrap(), NEW);
    assert_eq!(std::fs::read(&other).unwrap(), OLD);
}

// ---------------------------------------------------------------- SIGKILL

/// A random delay of less than `micros` (at least one step): the delays
/// need spread, not quality.
fn delay_below(rng: &mut XorShift, micros: u64) -> Duration {
    Duration::from_micros(rng.next() % micros.max(1))
}

/// `srview apply --write` on an 8 MiB file, killed with SIGKILL at random
/// instants over its whole run: FILE is always exactly the old or the new
/// content. Half the runs use the `slow` seam (64 KiB chunks, 2 ms apart)
/// and are killed while the temporary file is being written.
/// A kill after the temporary file exists and before the rename leaves
/// `.f.txt.srview-PID-N.tmp`; the next write removes it.
#[test]
fn sigkill_at_any_instant_leaves_old_or_new_content() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f.txt");
    let old: Vec<u8> = (0..200_000)
        .flat_map(|i| format!("line {i:06} of a file that is big enough\n").into_bytes())
        .collect();
    let diff_path = dir.path().join("edit.diff");
    std::fs::write(
        &diff_path,
        "------- SEARCH\nline 100000 of a file that is big enough\n=======\nCHANGED\n+++++++ REPLACE\n",
    )
    .unwrap();
    let mut new = old.clone();
    let at = old.windows(11).position(|w| w == b"line 100000").unwrap();
    new.splice(
        at..at + "line 100000 of a file that is big enough".len(),
        b"CHANGED".iter().copied(),
    );

    let spawn = |slow: bool| {
        let mut cmd = srview(["apply", "--write", p(&file), p(&diff_path)]).command();
        cmd.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if slow {
            cmd.env("SRVIEW_FAULT", "slow");
        } else {
            cmd.env_remove("SRVIEW_FAULT");
        }
        cmd.spawn().expect("spawn")
    };
    // How long a whole run takes, each way.
    let mut full = [Duration::ZERO; 2];
    for (slot, slow) in [(0, false), (1, true)] {
        std::fs::write(&file, &old).unwrap();
        let t = Instant::now();
        let status = spawn(slow).wait().unwrap();
        full[slot] = t.elapsed();
        assert!(status.success());
        assert_eq!(std::fs::read(&file).unwrap(), new);
    }
    eprintln!("full run: {:?} plain, {:?} slow", full[0], full[1]);

    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15 ^ u64::from(std::process::id()));
    let (mut saw_old, mut saw_new, mut saw_temp) = (0, 0, 0);
    let trials = 30;
    for trial in 0..trials {
        std::fs::write(&file, &old).unwrap();
        let slow = trial % 2 == 1;
        let mut child = spawn(slow);
        let delay = if slow {
            // Wait for the temporary file, then kill within the ~256 ms
            // the slow write of 8 MiB takes: always mid-write.
            let deadline = Instant::now() + Duration::from_secs(60);
            while temporaries(dir.path()).is_empty() && child.try_wait().unwrap().is_none() {
                assert!(Instant::now() < deadline, "no temporary file appeared");
                std::thread::sleep(Duration::from_millis(1));
            }
            delay_below(&mut rng, 200_000)
        } else {
            // Anywhere in the whole run, or just after it.
            let span = full[0].as_micros() as u64;
            delay_below(&mut rng, span + span * 3 / 10)
        };
        std::thread::sleep(delay);
        let _ = child.kill(); // SIGKILL; may find it already finished
        let _ = child.wait();
        let now = std::fs::read(&file).unwrap();
        if now == old {
            saw_old += 1;
        } else if now == new {
            saw_new += 1;
        } else {
            panic!(
                "trial {trial} (killed after {delay:?}): FILE is neither old nor new ({} bytes)",
                now.len()
            );
        }
        let temps = temporaries(dir.path());
        for t in &temps {
            assert!(
                t.starts_with(".f.txt.srview-") && t.ends_with(".tmp"),
                "unexpected leftover {t}"
            );
        }
        if !temps.is_empty() {
            saw_temp += 1;
            for t in temps {
                // Leave some for the clean-up check below.
                if trial % 4 != 3 {
                    std::fs::remove_file(dir.path().join(t)).unwrap();
                }
            }
        }
    }
    eprintln!(
        "{trials} kills: {saw_old} left the old content, {saw_new} the new, \
         {saw_temp} left a temporary file"
    );
    assert_eq!(saw_old + saw_new, trials);
    assert!(saw_old > 0, "no kill landed before the rename");
    assert!(saw_temp >= trials / 2, "every slow run is killed mid-write");
    // A later successful write removes what killed runs left behind.
    std::fs::write(&file, &old).unwrap();
    assert!(spawn(false).wait().unwrap().success());
    assert_eq!(std::fs::read(&file).unwrap(), new);
    assert!(
        temporaries(dir.path()).is_empty(),
        "stale temporaries removed: {:?}",
        temporaries(dir.path())
    );
}
