//! Where the previewer's events come from: the text feed (a watched file,
//! stdin, a replay), the terminal's keys, and signals, all funnelled into
//! one channel of [`Event`]s; and how a batch of them is folded into one
//! update.

use std::sync::mpsc::{self, Receiver, SyncSender};
use std::time::Duration;

use ratatui_crossterm::crossterm::event::{self, Event as TermEvent};

use super::Feed;
use crate::error::Error;
use crate::source::watch::{self, SourceEvent};

/// Everything the loop receives, from any thread.
pub enum Event {
    /// Diff or transcript text (or its end, or a problem reading it).
    Source(SourceEvent),
    /// A key, mouse event or resize.
    Term(TermEvent),
    /// SIGINT, SIGTERM or SIGHUP.
    Signal(i32),
    /// The file the previewer would write (FILE) changed on disk: its
    /// modification time or size is not what it was.
    TargetChanged,
    /// A screen's own thread has news for it ([`crate::tui::Waker`]: the
    /// review pane's gate calls).
    Wake,
    /// A review the screen asked for, from its worker thread.
    Reviewed(Box<crate::sessions::live::Reviewed>),
}

/// Starts the thread that sends `feed`'s text into `tx`.
pub(super) fn start_feed(feed: Feed, tx: &SyncSender<Event>) -> Result<(), Error> {
    let tx = tx.clone();
    match feed {
        Feed::Watch { path, poll } => {
            // A database an agent keeps its sessions in (OpenCode's) is
            // followed by its rows, not as a text file.
            let rows = tx.clone();
            let followed = crate::source::agent::database::follow(
                &path,
                Box::new(move |e| rows.send(Event::Source(e)).is_ok()),
            );
            match followed {
                Some(started) => {
                    started.map_err(|e| Error::refused(format!("{}: {e}", path.display())))
                }
                None => watch::watch_file(
                    path,
                    poll,
                    Box::new(move |e| tx.send(Event::Source(e)).is_ok()),
                ),
            }
        }
        Feed::Stdin => {
            watch::read_stdin(Box::new(move |e| tx.send(Event::Source(e)).is_ok()));
            Ok(())
        }
        Feed::Replay {
            text,
            rate,
            seed,
            chunk,
        } => {
            start_replay(text, rate, seed, chunk, tx);
            Ok(())
        }
        Feed::Nothing => Ok(()),
        Feed::Rest { path, from } => {
            crate::sessions::load::send_rest(path, from, move |e| {
                tx.send(Event::Source(e)).is_ok()
            });
            Ok(())
        }
    }
}

/// Streams `text` in by itself, as a model would, at `rate` characters per second.
fn start_replay(text: String, rate: f64, seed: u64, chunk: usize, tx: SyncSender<Event>) {
    let steps = crate::source::replay::schedule(&text, rate, chunk, 15, seed);
    std::thread::spawn(move || {
        let sent = crate::source::replay::play(&text, &steps, |piece| {
            tx.send(Event::Source(SourceEvent::Append(piece.to_string())))
        });
        if sent.is_ok() {
            let _ = tx.send(Event::Source(SourceEvent::Ended));
        }
    });
}

/// How often FILE's modification time and size are looked at: a stat, so
/// cheap that a watcher (and its limits on open watches) is not worth it.
const TARGET_POLL: Duration = Duration::from_millis(400);

/// Starts the thread that sends [`Event::TargetChanged`] whenever `path`'s
/// modification time or size (or whether it exists) changes; the screen
/// reads the file to see whether its text did.
pub(super) fn start_target_watch(path: std::path::PathBuf, tx: &SyncSender<Event>) {
    let tx = tx.clone();
    let stamp = |p: &std::path::Path| {
        std::fs::metadata(p)
            .ok()
            .map(|m| (m.modified().ok(), m.len()))
    };
    std::thread::spawn(move || {
        let mut last = stamp(&path);
        loop {
            std::thread::sleep(TARGET_POLL);
            let now = stamp(&path);
            if now != last {
                last = now;
                if tx.send(Event::TargetChanged).is_err() {
                    return;
                }
            }
        }
    });
}

pub(super) fn start_signals(tx: &SyncSender<Event>) -> Result<(), Error> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| Error::io("cannot install signal handlers", e))?;
    let tx = tx.clone();
    std::thread::spawn(move || {
        for sig in signals.forever() {
            if tx.send(Event::Signal(sig)).is_err() {
                return;
            }
        }
    });
    Ok(())
}

pub(super) fn spawn_term_reader(tx: &SyncSender<Event>) {
    let tx = tx.clone();
    std::thread::spawn(move || {
        while let Ok(ev) = event::read() {
            if tx.send(Event::Term(ev)).is_err() {
                return;
            }
        }
    });
}

pub(super) enum Waited {
    Events(Vec<Event>),
    /// Nothing arrived for a while: time for work that can wait.
    Idle,
    Closed,
}

/// How long the input must pause before idle work (diagnosis) is done.
pub(super) const IDLE: Duration = Duration::from_millis(120);

/// At most this many events make one batch: a flood still redraws.
const BATCH: usize = 4096;

/// How many events may wait for the loop. A source that writes faster than
/// srview re-applies (`yes -- '------- SEARCH' | srview f.txt`) then waits
/// for it: memory stays bounded, and a key is never queued behind more
/// than this many chunks of text.
pub(super) const QUEUE: usize = 64;

/// Waits at most `timeout` (forever for `None`) for an event, then takes
/// every event already queued (coalescing): `Idle` when none came in time.
pub(super) fn next_events_within(rx: &Receiver<Event>, timeout: Option<Duration>) -> Waited {
    let first = match timeout {
        None => rx.recv().map_err(|_| Waited::Closed),
        Some(timeout) => rx.recv_timeout(timeout).map_err(|e| match e {
            mpsc::RecvTimeoutError::Timeout => Waited::Idle,
            mpsc::RecvTimeoutError::Disconnected => Waited::Closed,
        }),
    };
    match first {
        Ok(first) => {
            let mut pending = vec![first];
            pending.extend(rx.try_iter().take(BATCH));
            Waited::Events(pending)
        }
        Err(waited) => waited,
    }
}

/// The net effect of a batch of source events: one re-apply per batch,
/// however many chunks arrived, and the last change always kept.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Folded {
    /// A whole new text (the source was rewritten), appends included.
    pub replaced: Option<String>,
    /// Text appended to the current text, when it was not rewritten.
    pub appended: String,
    pub ended: bool,
    pub problem: Option<String>,
    /// The source is unreadable after the batch's text (a later text ends it).
    pub unreadable: Option<String>,
}

impl Folded {
    /// Whether the batch changed the text.
    pub fn changes_text(&self) -> bool {
        self.replaced.is_some() || !self.appended.is_empty()
    }
}

/// Splits a batch into its source events, folded, and the others, in order.
pub(super) fn fold_sources(events: Vec<Event>) -> (Folded, Vec<Event>) {
    let mut folded = Folded::default();
    let mut others = Vec::new();
    for ev in events {
        match ev {
            Event::Source(SourceEvent::Text(t)) => {
                folded.replaced = Some(t);
                folded.appended.clear();
                folded.unreadable = None;
            }
            Event::Source(SourceEvent::Append(a)) => {
                folded.unreadable = None;
                match &mut folded.replaced {
                    Some(text) => text.push_str(&a),
                    None => folded.appended.push_str(&a),
                }
            }
            Event::Source(SourceEvent::Unreadable(why)) => folded.unreadable = Some(why),
            Event::Source(SourceEvent::Ended) => folded.ended = true,
            Event::Source(SourceEvent::Problem(p)) => folded.problem = Some(p),
            other => others.push(other),
        }
    }
    (folded, others)
}
