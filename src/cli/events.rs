//! Where the previewer's events come from: diff sources (watched file,
//! stdin, replay), the terminal's keys, and signals, all funnelled into one
//! channel; and how a batch of them is folded into one update.

use std::path::Path;
use std::sync::mpsc::{self, Receiver, Sender};

use ratatui_crossterm::crossterm::event::{self, Event as TermEvent};

use super::PreviewArgs;
use crate::input::CliError;
use crate::source::watch::{self, SourceEvent};
use std::io::IsTerminal;

/// Everything the loop waits for, from any thread.
pub(super) enum Event {
    Source(SourceEvent),
    Term(TermEvent),
    Signal(i32),
}

/// Streams `text` in by itself, as a model would, at `rate` characters per second.
pub(super) fn start_replay(text: String, rate: f64, seed: u64, tx: &Sender<Event>) {
    let steps = crate::source::replay::schedule(&text, rate, 6, 15, seed);
    let tx = tx.clone();
    std::thread::spawn(move || {
        let sent = crate::source::replay::play(&text, &steps, |piece| {
            tx.send(Event::Source(SourceEvent::Append(piece.to_string())))
        });
        if sent.is_ok() {
            let _ = tx.send(Event::Source(SourceEvent::Ended));
        }
    });
}

pub(super) fn start_source(args: &PreviewArgs, tx: &Sender<Event>) -> Result<(), CliError> {
    let sink = |tx: Sender<Event>| -> Box<dyn Fn(SourceEvent) -> bool + Send> {
        Box::new(move |e| tx.send(Event::Source(e)).is_ok())
    };
    match args.diff.as_deref() {
        Some(p) if p != Path::new("-") => {
            watch::watch_file(p.to_path_buf(), args.poll, sink(tx.clone())).map_err(CliError::usage)
        }
        Some(_) if std::io::stdin().is_terminal() => Err(CliError::usage(
            "DIFF is '-' (stdin) but stdin is a terminal: pipe the diff in, or pass a DIFF path",
        )),
        _ if std::io::stdin().is_terminal() => Err(CliError::usage(
            "no DIFF given and stdin is a terminal: pass a DIFF path, or pipe the diff in",
        )),
        _ => {
            watch::read_stdin(sink(tx.clone()));
            Ok(())
        }
    }
}

pub(super) fn start_signals(tx: &Sender<Event>) -> Result<(), CliError> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])
        .map_err(|e| CliError::usage(format!("cannot install signal handlers: {e}")))?;
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

pub(super) fn spawn_term_reader(tx: &Sender<Event>) {
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

/// How long the input must pause before blocks are diagnosed.
pub(super) const IDLE: std::time::Duration = std::time::Duration::from_millis(120);

/// Waits at most `timeout` (forever for `None`) for events: `Idle` when
/// none came in time.
pub(super) fn next_events_within(
    rx: &Receiver<Event>,
    timeout: Option<std::time::Duration>,
) -> Waited {
    let Some(timeout) = timeout else {
        return next_events(rx).map_or(Waited::Closed, Waited::Events);
    };
    match rx.recv_timeout(timeout) {
        Ok(first) => {
            let mut pending = vec![first];
            pending.extend(rx.try_iter().take(4096));
            Waited::Events(pending)
        }
        Err(mpsc::RecvTimeoutError::Timeout) => Waited::Idle,
        Err(mpsc::RecvTimeoutError::Disconnected) => Waited::Closed,
    }
}

/// Waits for an event, then takes every event already queued (coalescing).
pub(super) fn next_events(rx: &Receiver<Event>) -> Option<Vec<Event>> {
    let first = rx.recv().ok()?;
    let mut pending = vec![first];
    while let Ok(more) = rx.try_recv() {
        pending.push(more);
        if pending.len() > 4096 {
            break;
        }
    }
    Some(pending)
}

/// The net effect of a batch of source events: one re-apply per batch,
/// however many chunks arrived, and the last change always kept.
#[derive(Default)]
pub(super) struct Folded {
    /// A whole new text (the diff was rewritten), appends included.
    pub replaced: Option<String>,
    /// Text appended to the current diff, when it was not rewritten.
    pub appended: String,
    pub ended: bool,
    pub problem: Option<String>,
    /// The source is unreadable after the batch's text (a later text ends it).
    pub unreadable: Option<String>,
}

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
