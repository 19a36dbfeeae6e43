//! Live diff sources: a file watched for any kind of change, or stdin read
//! as it arrives. Each runs on its own thread and reports through a callback,
//! so the event loop only ever sees whole texts or appended text.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, SystemTime};

use notify_debouncer_mini::{DebounceEventResult, new_debouncer, notify::RecursiveMode};

/// What a diff source reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceEvent {
    /// The whole diff text as it is now.
    Text(String),
    /// Text appended to what was sent before.
    Append(String),
    /// The input ended (stdin closed): switch to final mode.
    Ended,
    /// Something to tell the user; the last good text stays.
    Problem(String),
    /// The diff as it is now cannot be read as text (invalid UTF-8, a NUL
    /// byte), e.g. `invalid UTF-8 at byte 12`. The last good text stays;
    /// the next readable text (always sent whole, as `Text`) ends it.
    Unreadable(String),
}

type Sink = Box<dyn Fn(SourceEvent) -> bool + Send>;

/// How often the file's size and mtime are checked besides events: events
/// can be lost (network filesystems, some containers); a check is a stat.
const SAFETY_POLL: Duration = Duration::from_millis(250);
const FAST_POLL: Duration = Duration::from_millis(40);

#[derive(PartialEq, Eq, Clone, Copy)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
}

fn stamp(path: &Path) -> Option<Stamp> {
    std::fs::metadata(path).ok().map(|m| Stamp {
        len: m.len(),
        modified: m.modified().ok(),
    })
}

/// Watches `path` (which may not exist yet): its folder is watched, since an
/// editor's rename replaces the file's inode; the file is re-read on any
/// event that names it, and on a size/mtime change seen by polling.
/// `sink` returns false when nobody listens any more.
pub fn watch_file(path: PathBuf, poll_only: bool, sink: Sink) -> Result<(), crate::error::Error> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    if !dir.is_dir() {
        return Err(crate::error::Error::refused(format!(
            "{}: its folder {} does not exist",
            path.display(),
            dir.display()
        )));
    }
    let (tx, rx) = mpsc::channel::<()>();
    let debouncer = if poll_only {
        None
    } else {
        let name = path.file_name().map(|n| n.to_os_string());
        let tx = tx.clone();
        let mut d = new_debouncer(
            Duration::from_millis(20),
            move |res: DebounceEventResult| {
                let hit = match res {
                    Ok(events) => events
                        .iter()
                        .any(|e| e.path.file_name().map(|n| n.to_os_string()) == name),
                    Err(_) => true,
                };
                if hit {
                    let _ = tx.send(());
                }
            },
        )
        .map_err(|e| crate::error::Error::usage(format!("cannot watch {}: {e}", dir.display())))?;
        d.watcher()
            .watch(&dir, RecursiveMode::NonRecursive)
            .map_err(|e| {
                crate::error::Error::usage(format!("cannot watch {}: {e}", dir.display()))
            })?;
        Some(d)
    };
    let interval = if poll_only { FAST_POLL } else { SAFETY_POLL };
    thread::spawn(move || {
        let _keep = debouncer;
        let mut last = Seen::default();
        let mut last_stamp = None;
        loop {
            let now = stamp(&path);
            if now != last_stamp || last.text.is_none() {
                last_stamp = now;
                if let Some(event) = read_change(&path, &mut last)
                    && !sink(event)
                {
                    return;
                }
            }
            match rx.recv_timeout(interval) {
                // An event: forget the stamp so the file is re-read even if
                // its size and mtime look unchanged (same-second rewrites).
                Ok(()) => last_stamp = None,
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {}
            }
        }
    });
    Ok(())
}

/// What the watcher last reported.
#[derive(Default)]
struct Seen {
    /// The last text sent (`None`: nothing read yet).
    text: Option<String>,
    /// The file was unreadable when last read: the next good text is sent
    /// whole, even if it equals `text`, so the error state ends.
    unreadable: bool,
}

/// Re-reads the file; reports only a change.
fn read_change(path: &Path, last: &mut Seen) -> Option<SourceEvent> {
    match std::fs::read(path) {
        Ok(bytes) => match crate::input::text(bytes) {
            Ok(text) => {
                let recovered = std::mem::take(&mut last.unreadable);
                if !recovered && last.text.as_deref() == Some(text.as_str()) {
                    return None;
                }
                let event = match last.text.as_deref() {
                    Some(old) if !recovered && !old.is_empty() && text.starts_with(old) => {
                        SourceEvent::Append(text[old.len()..].to_string())
                    }
                    _ => SourceEvent::Text(text.clone()),
                };
                last.text = Some(text);
                Some(event)
            }
            Err(not_text) => {
                last.unreadable = true;
                last.text.get_or_insert_with(String::new);
                Some(SourceEvent::Unreadable(not_text.to_string()))
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if last.text.is_none() {
                last.text = Some(String::new());
                Some(SourceEvent::Text(String::new()))
            } else {
                None
            }
        }
        Err(e) => Some(SourceEvent::Problem(format!(
            "cannot read {}: {e}",
            path.display()
        ))),
    }
}

/// Reads stdin as it arrives, on a thread, reporting appended text; a
/// multi-byte character split across reads is held until complete.
pub fn read_stdin(sink: Sink) {
    thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        let mut buf = vec![0u8; 64 * 1024];
        let mut decoder = crate::input::TextDecoder::default();
        loop {
            let n = match crate::input::read_some(&mut stdin, &mut buf) {
                Ok(0) => break,
                Ok(n) => n,
                Err(e) => {
                    sink(SourceEvent::Problem(format!("cannot read stdin: {e}")));
                    return;
                }
            };
            match decoder.push(&buf[..n]) {
                Ok(text) => {
                    if !text.is_empty() && !sink(SourceEvent::Append(text)) {
                        return;
                    }
                }
                Err(not_text) => {
                    sink(SourceEvent::Unreadable(format!(
                        "stdin is {not_text}; stopped reading"
                    )));
                    return;
                }
            }
        }
        if let Err(not_text) = decoder.finish() {
            sink(SourceEvent::Problem(format!("stdin is {not_text}")));
        }
        sink(SourceEvent::Ended);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<SourceEvent> {
        Some(SourceEvent::Text(s.into()))
    }

    fn unreadable(why: &str) -> Option<SourceEvent> {
        Some(SourceEvent::Unreadable(why.into()))
    }

    /// Writes each step's bytes to a watched file (`None`: leaves it as it
    /// is) and checks what re-reading it reports then.
    fn replay(steps: &[(Option<&[u8]>, Option<SourceEvent>)]) {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("d.diff");
        let mut last = Seen::default();
        for (i, (bytes, want)) in steps.iter().enumerate() {
            if let Some(bytes) = bytes {
                std::fs::write(&p, bytes).unwrap();
            }
            assert_eq!(read_change(&p, &mut last), *want, "step {i}");
        }
    }

    #[test]
    fn reports_appends_and_rewrites() {
        replay(&[
            (None, text("")),
            (Some(b"ab"), text("ab")),
            (Some(b"abc"), Some(SourceEvent::Append("c".into()))),
            (None, None),
            (Some(b"x"), text("x")),
        ]);
    }

    /// Invalid UTF-8 or a NUL byte is an error state, not a change of
    /// text; the next readable text (even the same as before) ends it.
    #[test]
    fn reports_unreadable_text_and_recovers() {
        replay(&[
            (Some(b"ab"), text("ab")),
            (
                Some(b"ab\xffcd"),
                unreadable("not valid UTF-8 (first bad byte at offset 2)"),
            ),
            (Some(b"ab"), text("ab")),
            (Some(b"abc\0"), unreadable("binary (NUL byte at offset 3)")),
            (Some(b"abc"), text("abc")),
        ]);
    }
}
