//! The previewer's one event loop, over any [`Screen`]: it sets the
//! terminal up (and puts it back), receives events in batches, lays the
//! screen out for the terminal's size, draws (the only place a frame is
//! drawn), pauses a quiet stream, and gives the screen its idle work.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::mpsc::{self, Receiver, SyncSender};
use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui_crossterm::crossterm::event::{Event as TermEvent, KeyEventKind};

use super::event::{self, Event, Folded, IDLE, Waited};
use super::pause::PauseTimer;
use super::terminal::{self, Term, term_err};
use super::{Exit, TuiConfig, clipboard};
use crate::error::Error;
use crate::sessions::live::Reviewed;
use crate::tui::app::{Effect, Notice, StreamState};
use crate::tui::view::theme::{ColourMode, Theme};

/// A previewer the loop runs: its state, how events change it, how it is
/// drawn. Nothing here touches the terminal; what needs it (a copy to the
/// clipboard, the end of the session) is returned as a [`Flow`].
pub trait Screen {
    /// Lays the screen out for the terminal's `area`, before every frame:
    /// a resize changes the area, and what fits in it depends on the state.
    fn on_resize(&mut self, area: Rect);
    /// A key (pressed or repeated) or a mouse event: it acts on the frame
    /// the user saw.
    fn on_event(&mut self, event: TermEvent) -> Flow;
    /// What a batch's source events add up to, after the batch's keys.
    /// Returns the stream's state when the text changed (`None` when it did
    /// not): a stream still streaming pauses after a quiet spell from now.
    fn on_text(&mut self, text: Folded) -> Option<StreamState>;
    /// A notice from the loop (where a copied block went).
    fn show_notice(&mut self, notice: Notice);
    /// The stream has been quiet for [`crate::tui::app::PAUSE_AFTER`].
    fn pause(&mut self);
    /// Whether work is waiting for a quiet moment ([`Screen::idle`]).
    fn idle_pending(&self) -> bool;
    /// Does that work (diagnosing the blocks shown).
    fn idle(&mut self);
    fn render(&mut self, frame: &mut Frame, theme: &Theme);
    /// The file this screen would write, looked at while it runs: a
    /// change on disk is reported by [`Screen::on_target_changed`].
    fn target(&self) -> Option<std::path::PathBuf> {
        None
    }
    /// [`Screen::target`]'s modification time or size changed.
    fn on_target_changed(&mut self) {}
    /// Called once before the first frame: a screen with threads of its
    /// own keeps `waker` to have [`Screen::on_wake`] called.
    fn start(&mut self, _waker: Waker) {}
    /// A [`Waker::wake`] came.
    fn on_wake(&mut self) {}
    /// The loop's event channel, given once before the first event: a
    /// screen whose work runs on other threads has their answers sent
    /// into it, as events among the keys (never making a key wait).
    fn connect(&mut self, _events: &SyncSender<Event>) {}
    /// A review the screen asked for answered (see
    /// [`crate::sessions::live`]).
    fn on_reviewed(&mut self, _answer: Reviewed) {}
}

/// Wakes the loop from a screen's own thread: [`Screen::on_wake`], then a
/// frame.
#[derive(Clone)]
pub struct Waker(mpsc::SyncSender<Event>);

impl Waker {
    /// Asks for [`Screen::on_wake`]; `false` once the loop has ended. A
    /// full queue is a loop about to run anyway: the wake is not needed.
    pub fn wake(&self) -> bool {
        !matches!(
            self.0.try_send(Event::Wake),
            Err(mpsc::TrySendError::Disconnected(_))
        )
    }
}

/// What an event asks of the loop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Flow {
    Continue,
    /// Put this corrected block on the clipboard, and say where it went.
    Copy {
        block: usize,
        text: String,
    },
    /// End the session.
    Exit(Exit),
}

impl Flow {
    /// What the loop does for a screen's [`Effect`] that the screen does
    /// not carry out itself (each screen carries out its own writes,
    /// reloads and edits shown first): a copy, the end; anything else was
    /// another screen's and does nothing.
    pub fn of(effect: Effect) -> Flow {
        match effect {
            Effect::Copy { block, text } => Flow::Copy { block, text },
            Effect::Quit(code) => Flow::Exit(Exit::Quit(code)),
            Effect::None
            | Effect::Accept(_)
            | Effect::Write { .. }
            | Effect::Reload
            | Effect::Show
            | Effect::WriteEdit
            | Effect::SaveText => Flow::Continue,
        }
    }
}

/// How long the first frame may wait for a watched file's first text: the
/// watcher reads it at once and always answers (its text, an empty text
/// when it is missing, or why it cannot be read), so the limit only bounds
/// a very slow read. Stdin and replays arrive when their writer decides.
const FIRST_TEXT_WAIT: Duration = Duration::from_millis(250);

/// Runs `screen` on the terminal until it exits, fed by `config.feed`.
pub fn run(config: TuiConfig, screen: &mut impl Screen) -> Result<Exit, Error> {
    let watched = config.feed.watched().map(Path::to_path_buf);
    let (tx, rx) = mpsc::sync_channel(event::QUEUE);
    event::start_feed(config.feed, &tx)?;
    event::start_signals(&tx)?;
    if let Some(target) = screen.target() {
        event::start_target_watch(target, &tx);
    }
    screen.start(Waker(tx.clone()));
    screen.connect(&tx);
    terminal::with_terminal(|terminal| {
        event::spawn_term_reader(&tx);
        let mut runner = Runner {
            terminal,
            pause: PauseTimer::new(),
            watched: watched.as_deref(),
        };
        runner.run(screen, &rx)
    })
}

struct Runner<'a> {
    terminal: &'a mut Term,
    pause: PauseTimer,
    /// The watched file, whose age shortens the first pause.
    watched: Option<&'a Path>,
}

impl Runner<'_> {
    fn run(&mut self, screen: &mut impl Screen, rx: &Receiver<Event>) -> Result<Exit, Error> {
        let theme = Theme::new(ColourMode::from_env());
        // The watcher reads a file as soon as it starts: its text is
        // usually queued by now. Taking it before the first draw makes the
        // first frame the complete one instead of a "waiting" frame
        // followed by a second one.
        if self.watched.is_some()
            && let Waited::Events(pending) = event::next_events_within(rx, Some(FIRST_TEXT_WAIT))
            && let ControlFlow::Break(exit) = self.take(screen, pending)
        {
            return Ok(exit);
        }
        // When the last events came: idle work waits for a quiet moment.
        let mut quiet_since = Instant::now();
        loop {
            let size = self.terminal.size().map_err(term_err)?;
            screen.on_resize(Rect::new(0, 0, size.width, size.height));
            self.terminal
                .draw(|frame| screen.render(frame, &theme))
                .map_err(term_err)?;
            // Test hook: proves a panic mid-session still restores the terminal.
            if std::env::var_os("SRVIEW_TEST_PANIC").is_some() {
                panic!("panic requested by SRVIEW_TEST_PANIC");
            }
            let now = Instant::now();
            if self.pause.due(now) {
                screen.pause();
                continue;
            }
            let idle_at = screen.idle_pending().then(|| quiet_since + IDLE);
            let wake = [self.pause.at, idle_at].into_iter().flatten().min();
            let timeout = wake.map(|at| at.saturating_duration_since(now));
            let pending = match event::next_events_within(rx, timeout) {
                Waited::Events(pending) => pending,
                Waited::Idle => {
                    if idle_at.is_some_and(|at| at <= Instant::now()) {
                        screen.idle();
                    }
                    continue;
                }
                Waited::Closed => return Ok(Exit::Quit(1)),
            };
            quiet_since = Instant::now();
            if let ControlFlow::Break(exit) = self.take(screen, pending) {
                return Ok(exit);
            }
        }
    }

    /// Gives `screen` a batch of events; new text restarts the pause timer.
    fn take(&mut self, screen: &mut impl Screen, pending: Vec<Event>) -> ControlFlow<Exit> {
        let terminal = &mut *self.terminal;
        let copy =
            |block, text: &str| clipboard::copy_suggestion(terminal.backend_mut(), block, text);
        if let Some(stream) = apply_batch(screen, pending, copy)? {
            let streaming = stream == StreamState::Streaming;
            self.pause.text_changed(streaming, self.watched);
        }
        ControlFlow::Continue(())
    }
}

/// One batch of events: keys, mouse events and signals first, in order,
/// since they act on the frame the user saw; then the batch's text, folded
/// into one update. So `a` never writes a result that was not on screen.
/// `copy` puts a corrected block on the clipboard. Continues with what
/// [`Screen::on_text`] said, unless an event ends the session.
fn apply_batch(
    screen: &mut impl Screen,
    pending: Vec<Event>,
    mut copy: impl FnMut(usize, &str) -> Notice,
) -> ControlFlow<Exit, Option<StreamState>> {
    let (text, others) = event::fold_sources(pending);
    for ev in others {
        let flow = match ev {
            Event::Signal(sig) => Flow::Exit(Exit::Quit(128u8.saturating_add(sig as u8))),
            Event::Term(TermEvent::Key(k)) if k.kind == KeyEventKind::Release => Flow::Continue,
            Event::Term(ev @ (TermEvent::Key(_) | TermEvent::Mouse(_))) => screen.on_event(ev),
            Event::TargetChanged => {
                screen.on_target_changed();
                Flow::Continue
            }
            Event::Wake => {
                screen.on_wake();
                Flow::Continue
            }
            Event::Reviewed(answer) => {
                screen.on_reviewed(*answer);
                Flow::Continue
            }
            // Resizes are read before every frame; sources were folded.
            Event::Term(_) | Event::Source(_) => Flow::Continue,
        };
        match flow {
            Flow::Continue => {}
            Flow::Copy { block, text } => screen.show_notice(copy(block, &text)),
            Flow::Exit(exit) => return ControlFlow::Break(exit),
        }
    }
    ControlFlow::Continue(screen.on_text(text))
}

#[cfg(test)]
mod tests {
    use ratatui_crossterm::crossterm::event::{
        Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
    };

    use super::*;
    use crate::source::watch::SourceEvent;

    /// What the loop gave a screen, in order.
    #[derive(Default)]
    struct Recorder {
        seen: Vec<String>,
        copy_on_key: bool,
    }

    impl Screen for Recorder {
        fn on_resize(&mut self, _: Rect) {}
        fn on_event(&mut self, event: TermEvent) -> Flow {
            self.seen.push(format!("{event:?}"));
            match event {
                TermEvent::Key(k) if k.code == KeyCode::Char('q') => Flow::Exit(Exit::Quit(0)),
                TermEvent::Key(_) if self.copy_on_key => Flow::Copy {
                    block: 2,
                    text: "corrected".into(),
                },
                _ => Flow::Continue,
            }
        }
        fn on_text(&mut self, text: Folded) -> Option<StreamState> {
            self.seen.push(format!("text {text:?}"));
            text.changes_text().then_some(StreamState::Streaming)
        }
        fn show_notice(&mut self, notice: Notice) {
            self.seen.push(format!("notice {}", notice.text));
        }
        fn pause(&mut self) {}
        fn idle_pending(&self) -> bool {
            false
        }
        fn idle(&mut self) {}
        fn render(&mut self, _: &mut Frame, _: &Theme) {}
    }

    fn key(c: char, kind: KeyEventKind) -> Event {
        Event::Term(TermEvent::Key(KeyEvent::new_with_kind(
            KeyCode::Char(c),
            KeyModifiers::NONE,
            kind,
        )))
    }

    fn no_copy(_: usize, _: &str) -> Notice {
        panic!("nothing asked for a copy")
    }

    /// A key and text in one batch: the key acts on what was on screen
    /// (before the batch), the text lands after it, folded into one update.
    #[test]
    fn keys_in_a_batch_act_before_its_text() {
        let mut screen = Recorder::default();
        let batch = vec![
            Event::Source(SourceEvent::Append("=======\n".into())),
            key('j', KeyEventKind::Press),
            key('j', KeyEventKind::Release),
            Event::Source(SourceEvent::Append("uno\n".into())),
            Event::Source(SourceEvent::Ended),
        ];
        assert_eq!(
            apply_batch(&mut screen, batch, no_copy),
            ControlFlow::Continue(Some(StreamState::Streaming))
        );
        let text = Folded {
            appended: "=======\nuno\n".into(),
            ended: true,
            ..Folded::default()
        };
        assert_eq!(screen.seen.len(), 2, "{:?}", screen.seen);
        assert!(screen.seen[0].contains("Char('j')"), "{}", screen.seen[0]);
        assert_eq!(screen.seen[1], format!("text {text:?}"));
    }

    /// A key that quits, or a signal, ends the batch: its text is not applied.
    #[test]
    fn an_exit_in_a_batch_drops_the_rest() {
        let mut screen = Recorder::default();
        let batch = vec![
            key('q', KeyEventKind::Press),
            Event::Source(SourceEvent::Append("more".into())),
        ];
        assert_eq!(
            apply_batch(&mut screen, batch, no_copy),
            ControlFlow::Break(Exit::Quit(0))
        );
        assert_eq!(screen.seen.len(), 1);
        let mut screen = Recorder::default();
        let batch = vec![Event::Signal(15), key('j', KeyEventKind::Press)];
        assert_eq!(
            apply_batch(&mut screen, batch, no_copy),
            ControlFlow::Break(Exit::Quit(143))
        );
        assert!(screen.seen.is_empty());
    }

    /// A copy is done by the loop, and the screen told where it went.
    #[test]
    fn a_copy_is_done_by_the_loop_and_noticed() {
        let mut screen = Recorder {
            copy_on_key: true,
            ..Recorder::default()
        };
        let mut copied = Vec::new();
        let copy = |block, text: &str| {
            copied.push((block, text.to_string()));
            Notice {
                text: format!("copied #{}", block + 1),
                error: false,
            }
        };
        let exit = apply_batch(&mut screen, vec![key('c', KeyEventKind::Press)], copy);
        assert_eq!(exit, ControlFlow::Continue(None), "no text came");
        assert_eq!(copied, [(2, "corrected".to_string())]);
        assert_eq!(screen.seen[1], "notice copied #3");
    }
}
