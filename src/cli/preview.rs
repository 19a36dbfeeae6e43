//! `srview FILE [DIFF]`: the live previewer's event loop and terminal.
//! Everything that touches the terminal or the disk is here; the state and
//! the drawing are pure (`app`, `view`).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant, SystemTime};

use ratatui_crossterm::crossterm::event::{self, Event as TermEvent};

use super::events::{
    Event, IDLE, Waited, fold_sources, next_events_within, spawn_term_reader, start_replay,
    start_signals, start_source,
};
use super::terminal::{Term, term_err, with_terminal};
use super::{CmdResult, PreviewArgs};
use crate::app::text::TextLines;
use crate::app::{App, Effect, Notice, StreamState, keys};
use crate::input::{self, CliError};
use crate::source::watch::SourceEvent;
use crate::view::{
    self, Caches,
    highlight::Syntaxes,
    theme::{ColourMode, Theme},
};

pub fn run(args: &PreviewArgs) -> CmdResult {
    let file = args
        .file
        .clone()
        .ok_or_else(|| CliError::usage("usage: srview FILE [DIFF]   (see srview --help)"))?;
    if args.transcript || looks_like_transcript(args, &file) {
        return super::preview_transcript::run(args, &file);
    }
    let original = super::apply::load_original(&file, args.new_file)?;
    let (tx, rx) = mpsc::channel();
    match (args.replay, args.diff.as_deref()) {
        (Some(rate), Some(diff)) if diff != Path::new("-") => {
            let text = input::read_diff(Some(diff))?;
            start_replay(text, rate, args.seed, &tx);
        }
        (Some(_), _) => return Err(CliError::usage("--replay needs a DIFF file to replay")),
        _ => start_source(args, &tx)?,
    }
    start_signals(&tx)?;
    let mut app = App::new(file.clone(), original, args.engine.version());
    app.set_fix_model_output(args.engine.fix_model_output);
    if args.final_mode {
        app.end_stream();
    }
    let outcome = with_terminal(|terminal| event_loop(terminal, &mut app, &rx, &tx, args))?;
    match outcome {
        Exit::Quit(code) => Ok(code),
        Exit::Print(content) => {
            let mut out = std::io::stdout().lock();
            out.write_all(content.as_bytes())
                .and_then(|()| out.flush())
                .map_err(|e| CliError::usage(format!("cannot write stdout: {e}")))?;
            Ok(0)
        }
        Exit::Wrote(path) => {
            report_written(&path);
            Ok(0)
        }
    }
}

/// The one line every previewer prints on stderr per file it wrote, once
/// the terminal is restored.
pub(super) fn report_written(path: &Path) {
    eprintln!("srview: wrote {}", path.display());
}

/// `srview MSG` alone, with MSG holding an agent transcript.
fn looks_like_transcript(args: &PreviewArgs, file: &Path) -> bool {
    args.diff.is_none()
        && std::io::stdin().is_terminal()
        && input::read_text(file, false)
            .ok()
            .flatten()
            .is_some_and(|t| crate::source::transcript::detect(&t).is_some())
}

pub(super) enum Exit {
    Quit(u8),
    Print(String),
    Wrote(PathBuf),
}

fn event_loop(
    terminal: &mut Term,
    app: &mut App,
    rx: &Receiver<Event>,
    tx: &Sender<Event>,
    args: &PreviewArgs,
) -> Result<Exit, CliError> {
    let theme = Theme::new(ColourMode::from_env());
    let mut caches = Caches::new(Syntaxes::load(), app);
    spawn_term_reader(tx);
    let mut pause = PauseTimer::new();
    // The watcher reads a DIFF file as soon as it starts, while FILE loads:
    // its text is usually queued by now. Taking it before the first draw
    // makes the first frame the complete one instead of a "waiting" frame
    // followed by a re-apply and a second frame.
    if let Some(limit) = first_text_wait(args)
        && let Waited::Events(pending) = next_events_within(rx, Some(limit))
    {
        let changes = app.diff_changes;
        if let Some(exit) = apply_batch(app, pending, |app, ev| handle(terminal, app, ev, args))? {
            return Ok(exit);
        }
        if app.diff_changes != changes {
            pause.diff_changed(app, args);
        }
    }
    // When the last events came: diagnosing waits for a quiet moment.
    let mut quiet_since = Instant::now();
    loop {
        let size = terminal.size().map_err(term_err)?;
        app.view.screen = ratatui::layout::Rect::new(0, 0, size.width, size.height);
        if (app.view.width, app.view.viewport)
            != (size.width, view::diff_rows(app, size.height) as usize)
        {
            app.view.width = size.width;
            app.view.viewport = view::diff_rows(app, size.height) as usize;
            if app.view.follow {
                app.follow_active();
            }
        }
        terminal
            .draw(|f| view::render(f, app, &mut caches, &theme))
            .map_err(term_err)?;
        // Test hook: proves a panic mid-session still restores the terminal.
        if std::env::var_os("SRVIEW_TEST_PANIC").is_some() {
            panic!("panic requested by SRVIEW_TEST_PANIC");
        }
        let now = Instant::now();
        if pause.due(now) {
            app.pause();
            continue;
        }
        let diagnose_at = app.diagnosis_stale().then(|| quiet_since + IDLE);
        let wake = [pause.at, diagnose_at].into_iter().flatten().min();
        let pending = match next_events_within(rx, wake.map(|at| at.saturating_duration_since(now)))
        {
            Waited::Events(p) => p,
            Waited::Idle => {
                if diagnose_at.is_some_and(|at| at <= Instant::now()) {
                    app.diagnose();
                }
                continue;
            }
            Waited::Closed => return Ok(Exit::Quit(1)),
        };
        quiet_since = Instant::now();
        let changes = app.diff_changes;
        if let Some(exit) = apply_batch(app, pending, |app, ev| handle(terminal, app, ev, args))? {
            return Ok(exit);
        }
        if app.diff_changes != changes {
            pause.diff_changed(app, args);
        }
    }
}

/// How long the first frame may wait for DIFF's first text: only a DIFF
/// file, which the watcher reads at once and always answers (its text, an
/// empty text when it is missing, or why it cannot be read), so the limit
/// only bounds a very slow read. Stdin and replays arrive when their
/// writer decides.
fn first_text_wait(args: &PreviewArgs) -> Option<Duration> {
    match (&args.diff, args.replay) {
        (Some(diff), None) if diff != Path::new("-") => Some(Duration::from_millis(250)),
        _ => None,
    }
}

/// When a quiet stream is shown `paused` ([`crate::app::PAUSE_AFTER`]).
pub(super) struct PauseTimer {
    after: Duration,
    /// When the stream pauses if no new text arrives before.
    pub(super) at: Option<Instant>,
}

impl PauseTimer {
    pub(super) fn new() -> Self {
        // A test hook: pty tests shorten the wait.
        let after = std::env::var("SRVIEW_PAUSE_AFTER_MS")
            .ok()
            .and_then(|ms| ms.parse().ok())
            .map_or(crate::app::PAUSE_AFTER, Duration::from_millis);
        PauseTimer { after, at: None }
    }

    pub(super) fn due(&mut self, now: Instant) -> bool {
        let due = self.at.is_some_and(|at| at <= now);
        if due {
            self.at = None;
        }
        due
    }

    /// New text: a `streaming` source pauses `after` from now, or sooner
    /// when it is a file (`watched`) last modified before now (a finished
    /// file pauses at once).
    pub(super) fn text_changed(&mut self, streaming: bool, watched: Option<&Path>) {
        if !streaming {
            self.at = None;
            return;
        }
        let age = watched
            .and_then(|path| std::fs::metadata(path).and_then(|m| m.modified()).ok())
            .and_then(|t| SystemTime::now().duration_since(t).ok())
            .unwrap_or_default();
        self.at = Some(Instant::now() + self.after.saturating_sub(age));
    }

    /// [`PauseTimer::text_changed`] for a single diff: DIFF is watched
    /// unless it is stdin or replayed.
    fn diff_changed(&mut self, app: &App, args: &PreviewArgs) {
        let watched = match (&args.diff, args.replay) {
            (Some(diff), None) if diff != Path::new("-") => Some(diff.as_path()),
            _ => None,
        };
        self.text_changed(app.stream == StreamState::Streaming, watched);
    }
}

/// One batch of events: keys (and signals) first, through `handle`, since
/// they act on the frame the user saw; then the batch's diff text, folded
/// into one update. So `a` never writes a result that was not on screen.
fn apply_batch(
    app: &mut App,
    pending: Vec<Event>,
    mut handle: impl FnMut(&mut App, Event) -> Result<Option<Exit>, CliError>,
) -> Result<Option<Exit>, CliError> {
    let (source, others) = fold_sources(pending);
    for ev in others {
        if let Some(exit) = handle(app, ev)? {
            return Ok(Some(exit));
        }
    }
    match source.replaced {
        Some(text) => app.set_diff(text),
        None => app.append_diff(&source.appended),
    }
    if let Some(problem) = source.problem {
        app.on_source(SourceEvent::Problem(problem));
    }
    if let Some(why) = source.unreadable {
        app.on_source(SourceEvent::Unreadable(why));
    }
    if source.ended {
        app.end_stream();
    }
    Ok(None)
}

fn handle(
    terminal: &mut Term,
    app: &mut App,
    ev: Event,
    args: &PreviewArgs,
) -> Result<Option<Exit>, CliError> {
    let effect = match ev {
        Event::Source(s) => {
            app.on_source(s);
            Effect::None
        }
        Event::Signal(sig) => Effect::Quit(128u8.saturating_add(sig as u8)),
        Event::Term(TermEvent::Key(k)) if k.kind != event::KeyEventKind::Release => {
            keys::on_key(app, k)
        }
        Event::Term(TermEvent::Mouse(m)) => {
            keys::on_mouse(app, m);
            Effect::None
        }
        Event::Term(_) => Effect::None,
    };
    Ok(match effect {
        Effect::None => None,
        Effect::Copy { block, text } => {
            app.notice = Some(copy_suggestion(terminal, block, &text));
            None
        }
        Effect::Quit(code) => Some(Exit::Quit(code)),
        Effect::Reload => {
            match input::read_text(&app.file_path, args.new_file) {
                Ok(text) => app.reload(text.unwrap_or_default()),
                Err(e) => {
                    app.notice = Some(Notice {
                        text: e.message,
                        error: true,
                    })
                }
            }
            None
        }
        Effect::Accept(content) => accept(app, content, args),
    })
}

/// Puts a corrected block on the clipboard with OSC 52 (terminals that
/// allow it) and, since not all do, in a file; says where it went.
pub(super) fn copy_suggestion(terminal: &mut Term, block: usize, text: &str) -> Notice {
    let osc = format!("\x1b]52;c;{}\x07", base64(text.as_bytes()));
    let clipboard = terminal
        .backend_mut()
        .write_all(osc.as_bytes())
        .and_then(|()| terminal.backend_mut().flush())
        .is_ok();
    let path = std::env::temp_dir().join(format!(
        "srview-suggestion-{}-block{}.txt",
        std::process::id(),
        block + 1
    ));
    let saved = std::fs::write(&path, text).is_ok();
    let text = match (clipboard, saved) {
        (true, true) => format!(
            "corrected block #{} copied to the clipboard (OSC 52) and saved to {}",
            block + 1,
            path.display()
        ),
        (false, true) => format!("corrected block #{} saved to {}", block + 1, path.display()),
        (true, false) => format!(
            "corrected block #{} copied to the clipboard (OSC 52)",
            block + 1
        ),
        (false, false) => format!("could not copy or save corrected block #{}", block + 1),
    };
    Notice {
        text,
        error: !(clipboard || saved),
    }
}

fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Writes (or hands over for printing) the accepted content if FILE is
/// unchanged on disk; otherwise says why and stays open.
fn accept(app: &mut App, content: TextLines, args: &PreviewArgs) -> Option<Exit> {
    let path = app.file_path.clone();
    let loaded = app.original.text();
    let loaded = loaded.as_bytes();
    let unchanged = match crate::output::file_holds(&path, loaded) {
        Ok(Some(same)) => same,
        Ok(None) => loaded.is_empty() && args.new_file,
        Err(e) => {
            app.notice = Some(Notice {
                text: format!("not accepted: cannot re-read {}: {e}", path.display()),
                error: true,
            });
            return None;
        }
    };
    if !unchanged {
        app.reload_offered = true;
        app.notice = Some(Notice {
            text: format!(
                "{} changed on disk since it was loaded: nothing written. r: reload and re-apply",
                path.display()
            ),
            error: true,
        });
        return None;
    }
    if args.print {
        return Some(Exit::Print(content.text().into_owned()));
    }
    let chunks: Vec<&[u8]> = content.chunks().into_iter().map(str::as_bytes).collect();
    match crate::output::write_atomic_chunks(&path, &chunks, Some(loaded)) {
        Ok(()) => Some(Exit::Wrote(path)),
        Err(e) => {
            app.notice = Some(Notice {
                text: format!("not accepted: {e}"),
                error: true,
            });
            None
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn base64_matches_rfc4648() {
        assert_eq!(super::base64(b""), "");
        assert_eq!(super::base64(b"f"), "Zg==");
        assert_eq!(super::base64(b"fo"), "Zm8=");
        assert_eq!(super::base64(b"foobar"), "Zm9vYmFy");
    }

    /// A key press and diff text in one batch: the key acts on what was on
    /// screen (the diff before the batch), the text lands after it.
    #[test]
    fn keys_in_a_batch_act_before_its_diff_text() {
        use ratatui_crossterm::crossterm::event::{
            Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
        };

        use super::super::events::Event;
        use crate::app::App;
        use crate::source::watch::SourceEvent;

        let mut app = App::new(
            std::path::PathBuf::from("f.txt"),
            "one\ntwo\n".into(),
            crate::engine::Version::V1,
        );
        app.set_diff("------- SEARCH\none\n".into());
        let key = TermEvent::Key(KeyEvent::new_with_kind(
            KeyCode::Char('a'),
            KeyModifiers::NONE,
            KeyEventKind::Press,
        ));
        let batch = vec![
            Event::Source(SourceEvent::Append("=======\n".into())),
            Event::Term(key),
            Event::Source(SourceEvent::Append("uno\n+++++++ REPLACE\n".into())),
        ];
        let mut seen = Vec::new();
        let exit = super::apply_batch(&mut app, batch, |app, ev| {
            assert!(matches!(ev, Event::Term(_)));
            seen.push(app.diff.clone());
            Ok(None)
        })
        .expect("no error");
        assert!(exit.is_none());
        assert_eq!(seen, vec!["------- SEARCH\none\n".to_string()]);
        assert_eq!(
            app.diff,
            "------- SEARCH\none\n=======\nuno\n+++++++ REPLACE\n"
        );
    }
}
