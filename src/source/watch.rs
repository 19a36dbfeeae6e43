//! Live diff sources: a file watched for any kind of change, or stdin read
//! as it arrives. Each runs on its own thread and reports through a callback,
//! so the event loop only ever sees whole texts or appended text.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, SystemTime};

use notify::{RecursiveMode, Watcher};

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
    let watcher = if poll_only {
        None
    } else {
        let name = path.file_name().map(|n| n.to_os_string());
        let mut w = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            let hit = match res {
                Ok(event) => {
                    changes_content(&event.kind)
                        && event
                            .paths
                            .iter()
                            .any(|p| p.file_name().map(|n| n.to_os_string()) == name)
                }
                Err(_) => true,
            };
            if hit {
                let _ = tx.send(());
            }
        })
        .map_err(|e| crate::error::Error::usage(format!("cannot watch {}: {e}", dir.display())))?;
        w.watch(&dir, RecursiveMode::NonRecursive).map_err(|e| {
            crate::error::Error::usage(format!("cannot watch {}: {e}", dir.display()))
        })?;
        Some(w)
    };
    let interval = if poll_only { FAST_POLL } else { SAFETY_POLL };
    thread::spawn(move || {
        let _keep = watcher;
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
                // An event: the writes that come with it (an editor's
                // truncate, then write) are let land, and the file is
                // re-read even if its size and mtime look unchanged
                // (same-second rewrites).
                Ok(()) => {
                    thread::sleep(SETTLE);
                    while rx.try_recv().is_ok() {}
                    last_stamp = None;
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                // Polling only: no events come, the poll is the wait.
                Err(mpsc::RecvTimeoutError::Disconnected) => thread::sleep(interval),
            }
        }
    });
    Ok(())
}

/// How long the watcher lets a change land before it reads the file.
const SETTLE: Duration = Duration::from_millis(5);

/// Whether an event may have changed a file's content: not one of its
/// being opened, read or closed after reading (srview's own reads of the
/// file report these: read again for them, a watched file was read again
/// and again while nothing changed).
fn changes_content(kind: &notify::EventKind) -> bool {
    use notify::event::{AccessKind, AccessMode, EventKind};
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
        EventKind::Access(_) => false,
        _ => true,
    }
}

/// What the watcher last reported.
#[derive(Default)]
struct Seen {
    /// The last text sent (`None`: nothing read yet). Only its length and
    /// last [`CHECKED_TAIL`] bytes are kept: a file that grew is read from
    /// where it was (see [`read_change`]).
    text: Option<Kept>,
    /// The file was unreadable when last read: the next good text is sent
    /// whole, even if it equals `text`, so the error state ends.
    unreadable: bool,
}

/// The last text sent, as far as the next read needs it.
#[derive(Default)]
struct Kept {
    /// Its length in bytes.
    len: u64,
    /// Its last [`CHECKED_TAIL`] bytes (all of it when shorter).
    tail: Vec<u8>,
    /// The file it was read from (device and inode): a file replaced by a
    /// rename is read whole again.
    file: Option<(u64, u64)>,
}

impl Kept {
    fn of(text: &str, file: Option<(u64, u64)>) -> Kept {
        let bytes = text.as_bytes();
        Kept {
            len: bytes.len() as u64,
            tail: bytes[bytes.len().saturating_sub(CHECKED_TAIL)..].to_vec(),
            file,
        }
    }
}

/// How much of the end of the last text a re-read compares: a text this
/// long or shorter is compared whole (any change seen); a longer one that
/// still ends, at its old length, with the same bytes in the same file is
/// taken as unchanged up to there, and only what follows is read. A
/// followed session of 100 MiB is then not read whole at every append.
const CHECKED_TAIL: usize = 1 << 20;

/// The file's device and inode.
fn file_id(meta: &std::fs::Metadata) -> Option<(u64, u64)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((meta.dev(), meta.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        None
    }
}

/// What follows the last text in `path`, when the file still holds that
/// text (as far as [`CHECKED_TAIL`] tells) and what follows is text:
/// `Some(None)` when nothing follows, `None` when the file must be read
/// whole (rewritten, shorter, replaced, or the new part is not text: the
/// whole read says where).
fn read_on(path: &Path, kept: &Kept) -> Option<Option<String>> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path).ok()?;
    let meta = file.metadata().ok()?;
    let id = file_id(&meta);
    if id.is_none() || id != kept.file || meta.len() < kept.len || kept.len == 0 {
        return None;
    }
    let tail_len = kept.tail.len() as u64;
    file.seek(SeekFrom::Start(kept.len - tail_len)).ok()?;
    let mut tail = vec![0u8; kept.tail.len()];
    file.read_exact(&mut tail).ok()?;
    if tail != kept.tail {
        return None;
    }
    let mut more = Vec::new();
    file.read_to_end(&mut more).ok()?;
    if more.is_empty() {
        return Some(None);
    }
    crate::input::text(more).ok().map(Some)
}

/// Re-reads the file; reports only a change.
fn read_change(path: &Path, last: &mut Seen) -> Option<SourceEvent> {
    if !last.unreadable
        && let Some(kept) = &last.text
        && let Some(more) = read_on(path, kept)
    {
        let more = more?;
        let mut joined = std::mem::take(&mut last.text).unwrap_or_default();
        joined.len += more.len() as u64;
        let keep = CHECKED_TAIL.saturating_sub(more.len());
        let cut = joined.tail.len().saturating_sub(keep);
        joined.tail.drain(..cut);
        let start = more.len().saturating_sub(CHECKED_TAIL);
        joined.tail.extend_from_slice(&more.as_bytes()[start..]);
        last.text = Some(joined);
        return Some(SourceEvent::Append(more));
    }
    let id = std::fs::metadata(path).ok().as_ref().and_then(file_id);
    match std::fs::read(path) {
        Ok(bytes) => match crate::input::text(bytes) {
            Ok(text) => {
                let recovered = std::mem::take(&mut last.unreadable);
                // What follows the last text, when `text` starts with it
                // (as far as [`CHECKED_TAIL`] tells: a text that short is
                // compared whole).
                let grown = last.text.as_ref().filter(|_| !recovered).and_then(|kept| {
                    let len = usize::try_from(kept.len).ok()?;
                    let head = text.as_bytes().get(..len)?;
                    head.ends_with(&kept.tail)
                        .then(|| text.get(len..))
                        .flatten()
                });
                let event = match grown {
                    Some("") => return None,
                    Some(rest)
                        if !rest.is_empty() && last.text.as_ref().is_some_and(|k| k.len > 0) =>
                    {
                        SourceEvent::Append(rest.to_string())
                    }
                    _ => SourceEvent::Text(text.clone()),
                };
                last.text = Some(Kept::of(&text, id));
                Some(event)
            }
            Err(not_text) => {
                last.unreadable = true;
                last.text.get_or_insert_with(Kept::default);
                Some(SourceEvent::Unreadable(not_text.to_string()))
            }
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if last.text.is_none() {
                last.text = Some(Kept::default());
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

    /// A file longer than the tail compared is read on from where it was
    /// (only the new part is read and sent); rewritten at its end,
    /// truncated or replaced by another file, it is read whole again.
    #[test]
    fn a_long_file_is_read_on_where_it_grew() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("session.jsonl");
        let line = "{\"type\":\"assistant\",\"text\":\"0123456789abcdef\"}\n";
        let long = line.repeat(2 * CHECKED_TAIL / line.len() + 1);
        let mut last = Seen::default();
        std::fs::write(&p, &long).unwrap();
        assert_eq!(read_change(&p, &mut last), text(&long));
        let grown = format!("{long}{{\"more\":1}}\n");
        std::fs::write(&p, &grown).unwrap();
        assert_eq!(
            read_change(&p, &mut last),
            Some(SourceEvent::Append("{\"more\":1}\n".into()))
        );
        assert_eq!(read_change(&p, &mut last), None, "nothing new");
        // The same length, its last line changed: a rewrite.
        let rewritten = format!("{long}{{\"more\":2}}\n");
        std::fs::write(&p, &rewritten).unwrap();
        assert_eq!(read_change(&p, &mut last), text(&rewritten));
        // A new part that is no text: said with its offset in the file.
        std::fs::write(&p, format!("{rewritten}\0")).unwrap();
        assert_eq!(
            read_change(&p, &mut last),
            unreadable(&format!("binary (NUL byte at offset {})", rewritten.len()))
        );
        std::fs::write(&p, &rewritten).unwrap();
        assert_eq!(read_change(&p, &mut last), text(&rewritten));
        // Replaced by another file holding more: read whole, an append.
        let other = dir.path().join("other");
        std::fs::write(&other, format!("{rewritten}x\n")).unwrap();
        std::fs::rename(&other, &p).unwrap();
        assert_eq!(
            read_change(&p, &mut last),
            Some(SourceEvent::Append("x\n".into()))
        );
        // Truncated: read whole.
        std::fs::write(&p, "short\n").unwrap();
        assert_eq!(read_change(&p, &mut last), text("short\n"));
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
