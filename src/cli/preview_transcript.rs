//! `srview --transcript MSG`: the previewer over every file an agent's
//! message edits, one tab per file.

use std::path::Path;
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Instant;

use ratatui_crossterm::crossterm::event::{Event as TermEvent, KeyEventKind};

use super::events::{self, Event};
use super::preview::{self, Exit};
use super::terminal::{self, Term, term_err};
use super::{CmdResult, PreviewArgs};
use crate::app::workspace::{Workspace, WsEffect};
use crate::app::{Notice, StreamState};
use crate::input::CliError;
use crate::source::transcript::{self, ApplyOptions, Workspace as Paths};
use crate::source::watch;
use crate::view::{
    self, Caches,
    highlight::Syntaxes,
    theme::{ColourMode, Theme},
};

pub fn run(args: &PreviewArgs, msg: &Path) -> CmdResult {
    let cwd = match &args.cwd {
        Some(c) => c.clone(),
        None => std::env::current_dir()
            .map_err(|e| CliError::usage(format!("no current folder: {e}")))?,
    };
    let paths = Paths::new(cwd, args.allow_outside);
    let (tx, rx) = mpsc::channel();
    match args.replay {
        Some(rate) => {
            let text = crate::input::read_diff(Some(msg))?;
            events::start_replay(text, rate, args.seed, &tx);
        }
        None => {
            let sink_tx = tx.clone();
            watch::watch_file(
                msg.to_path_buf(),
                args.poll,
                Box::new(move |e| sink_tx.send(Event::Source(e)).is_ok()),
            )
            .map_err(CliError::usage)?;
        }
    }
    events::start_signals(&tx)?;
    let options = ApplyOptions {
        version: args.engine.version(),
        fix_model_output: args.engine.fix_model_output,
    };
    let mut state = State {
        ws: Workspace::new(args.engine.version(), args.engine.fix_model_output),
        paths,
        options,
        text: String::new(),
        ended: args.final_mode,
        originals: Default::default(),
        written: Vec::new(),
        write_failed: false,
        changes: 0,
    };
    // A watched MSG pauses after a quiet spell (see `PauseTimer`).
    let watched = args.replay.is_none().then(|| msg.to_path_buf());
    let exit = terminal::with_terminal(|terminal| {
        event_loop(terminal, &mut state, &rx, &tx, watched.as_deref())
    });
    // The terminal is restored: report every file written, whatever ended
    // the session (an error or a signal after a write included).
    for path in &state.written {
        let shown = match &args.cwd {
            Some(dir) => dir.join(path),
            None => std::path::PathBuf::from(path),
        };
        preview::report_written(&shown);
    }
    let code = match exit? {
        // The user quit (`q`, Ctrl-C): a success when what they accepted
        // was written and no accepted write failed.
        Exit::Quit(code) if code < 128 => {
            if !state.written.is_empty() && !state.write_failed {
                0
            } else {
                1
            }
        }
        Exit::Quit(code) => code,
        Exit::Print(_) | Exit::Wrote(_) => 0,
    };
    Ok(code)
}

struct State {
    ws: Workspace,
    paths: Paths,
    options: ApplyOptions,
    text: String,
    ended: bool,
    /// Each file's text as first loaded: the base every update applies to.
    originals: std::collections::HashMap<String, Result<Option<String>, String>>,
    /// Paths written so far, as the transcript names them, in order.
    written: Vec<String>,
    /// An accepted write failed (the notice said which).
    write_failed: bool,
    /// Bumped whenever the transcript text changes (pauses are timed by it).
    changes: u64,
}

impl State {
    fn reparse(&mut self) {
        let calls = transcript::parse_any(&self.text);
        let (paths, originals) = (&self.paths, &mut self.originals);
        let load = |p: &str| {
            originals
                .entry(p.to_string())
                .or_insert_with(|| paths.load(p))
                .clone()
        };
        let edits = transcript::apply_calls(&calls, load, self.options);
        self.ws.update(&calls, edits, self.text.len(), self.ended);
    }

    /// `r`: every file not yet written is loaded from disk again and the
    /// transcript re-applied to it (a written file keeps the text it was
    /// loaded with: its edits are already on disk).
    fn reload(&mut self) {
        let written: Vec<String> = self
            .ws
            .tabs
            .iter()
            .filter(|t| t.written)
            .map(|t| t.path.clone())
            .collect();
        let before = self.originals.len();
        self.originals.retain(|path, _| written.contains(path));
        let reloaded = before - self.originals.len();
        self.reparse();
        self.ws.notice = Some(Notice {
            text: format!(
                "reloaded {} from disk and applied the transcript again",
                crate::words::count(reloaded, "file")
            ),
            error: false,
        });
    }
}

fn event_loop(
    terminal: &mut Term,
    state: &mut State,
    rx: &mpsc::Receiver<Event>,
    tx: &mpsc::Sender<Event>,
    watched: Option<&Path>,
) -> Result<Exit, CliError> {
    let theme = Theme::new(ColourMode::from_env());
    let syntaxes = Arc::new(Syntaxes::load());
    let mut pause = preview::PauseTimer::new();
    let mut caches: Vec<Caches> = Vec::new();
    let mut generations: Vec<u64> = Vec::new();
    events::spawn_term_reader(tx);
    state.reparse();
    loop {
        let size = terminal.size().map_err(term_err)?;
        for (i, tab) in state.ws.tabs.iter_mut().enumerate() {
            // Below the tab bar.
            tab.app.view.screen =
                ratatui::layout::Rect::new(0, 1, size.width, size.height.saturating_sub(1));
            let rows = view::diff_rows(&tab.app, size.height.saturating_sub(1)) as usize;
            if (tab.app.view.width, tab.app.view.viewport) != (size.width, rows) {
                tab.app.view.width = size.width;
                tab.app.view.viewport = rows;
                if tab.app.view.follow {
                    tab.app.follow_active();
                }
            }
            match generations.get_mut(i) {
                Some(generation) if *generation != tab.generation => {
                    caches[i] = Caches::new(Arc::clone(&syntaxes), &tab.app);
                    *generation = tab.generation;
                }
                Some(_) => {}
                None => {
                    caches.push(Caches::new(Arc::clone(&syntaxes), &tab.app));
                    generations.push(tab.generation);
                }
            }
        }
        terminal
            .draw(|f| view::render_workspace(f, &state.ws, &mut caches, &theme))
            .map_err(term_err)?;
        let now = Instant::now();
        if pause.due(now) {
            state.ws.pause();
            continue;
        }
        let stale = state
            .ws
            .tabs
            .get(state.ws.current)
            .is_some_and(|t| t.app.diagnosis_stale());
        let diagnose_at = stale.then(|| now + events::IDLE);
        let wake = [pause.at, diagnose_at].into_iter().flatten().min();
        let timeout = wake.map(|at| at.saturating_duration_since(now));
        let pending = match events::next_events_within(rx, timeout) {
            events::Waited::Events(p) => p,
            events::Waited::Idle => {
                if diagnose_at.is_some_and(|at| at <= Instant::now())
                    && let Some(tab) = state.ws.tabs.get_mut(state.ws.current)
                {
                    tab.app.diagnose();
                }
                continue;
            }
            events::Waited::Closed => return Ok(Exit::Quit(1)),
        };
        let changes = state.changes;
        let act = |state: &mut State, ev: Event| act_on(terminal, state, ev);
        if let Some(exit) = apply_batch(state, pending, act)? {
            return Ok(exit);
        }
        if state.changes != changes {
            pause.text_changed(state.ws.stream == StreamState::Streaming, watched);
        }
    }
}

/// One batch of events, keys first (see `preview::apply_batch`): they act on
/// the tabs the user saw; then the batch's transcript text, in one reparse.
fn apply_batch(
    state: &mut State,
    pending: Vec<Event>,
    mut act: impl FnMut(&mut State, Event) -> Result<Option<Exit>, CliError>,
) -> Result<Option<Exit>, CliError> {
    let (source, others) = events::fold_sources(pending);
    if let Some(problem) = source.problem {
        state.ws.notice = Some(Notice {
            text: problem,
            error: true,
        });
    }
    if let Some(why) = source.unreadable {
        state.ws.notice = Some(Notice {
            text: format!("transcript unreadable: {why}"),
            error: true,
        });
    }
    for ev in others {
        if let Some(exit) = act(state, ev)? {
            return Ok(Some(exit));
        }
    }
    let changed = source.replaced.is_some() || !source.appended.is_empty();
    if changed || source.ended {
        if changed {
            state.changes += 1;
        }
        if let Some(text) = source.replaced {
            state.text = text;
        }
        state.text.push_str(&source.appended);
        state.ended |= source.ended;
        state.reparse();
    }
    Ok(None)
}

/// A key, mouse event or signal, and what it asks for: quit, write files,
/// copy a suggestion.
fn act_on(terminal: &mut Term, state: &mut State, ev: Event) -> Result<Option<Exit>, CliError> {
    let effect = match ev {
        Event::Signal(sig) => return Ok(Some(Exit::Quit(128u8.saturating_add(sig as u8)))),
        Event::Term(TermEvent::Key(k)) if k.kind != KeyEventKind::Release => state.ws.on_key(k),
        Event::Term(TermEvent::Mouse(m)) => {
            let ws = &mut state.ws;
            if let Some(tab) = ws.tabs.get_mut(ws.current) {
                crate::app::keys::on_mouse_with_notice(&mut tab.app, m, ws.notice.as_ref());
            }
            WsEffect::None
        }
        _ => WsEffect::None,
    };
    match effect {
        WsEffect::Quit(code) => return Ok(Some(Exit::Quit(code))),
        WsEffect::Reload => state.reload(),
        WsEffect::Write(indices) => {
            let files: Vec<&transcript::FileEdit> = indices
                .iter()
                .filter_map(|&i| state.ws.edits.get(i))
                .collect();
            match transcript::write_files(&state.paths, &files) {
                Ok(paths) => {
                    state.written.extend(paths);
                    state.ws.mark_written(&indices);
                    if state.ws.all_written() {
                        return Ok(Some(Exit::Quit(0)));
                    }
                }
                Err(why) => {
                    // Refused before any write (a file changed on disk) is
                    // not a failed write: `r` recovers from it.
                    if why.changed_on_disk {
                        state.ws.refuse_write(format!(
                            "{why}: press r to reload it and apply the edits again"
                        ));
                    } else {
                        state.write_failed = true;
                        state.ws.refuse_write(why.message);
                    }
                }
            }
        }
        WsEffect::Tab(crate::app::Effect::Copy { block, text }) => {
            state.ws.notice = Some(preview::copy_suggestion(terminal, block, &text));
        }
        WsEffect::None | WsEffect::Tab(_) => {}
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use ratatui_crossterm::crossterm::event::{
        Event as TermEvent, KeyCode, KeyEvent, KeyEventKind, KeyModifiers,
    };

    use super::*;
    use crate::source::watch::SourceEvent;

    /// A key press and transcript text in one batch: the key acts on the
    /// tabs before the batch (one file), the second file's text lands after.
    #[test]
    fn keys_in_a_batch_act_before_its_transcript_text() {
        let dir = tempfile::tempdir().expect("tempdir");
        for f in ["a.txt", "b.txt"] {
            std::fs::write(dir.path().join(f), "one\n").expect("write");
        }
        let edit = |file: &str| {
            format!(
                "<replace_in_file>\n<path>{file}</path>\n<diff>\n------- SEARCH\none\n=======\nuno\n+++++++ REPLACE\n</diff>\n</replace_in_file>\n"
            )
        };
        let version = crate::engine::Version::V1;
        let mut state = State {
            ws: Workspace::new(version, false),
            paths: Paths::new(dir.path().to_path_buf(), false),
            options: ApplyOptions {
                version,
                fix_model_output: false,
            },
            text: edit("a.txt"),
            ended: false,
            originals: Default::default(),
            written: Vec::new(),
            write_failed: false,
            changes: 0,
        };
        state.reparse();
        assert_eq!(state.ws.tabs.len(), 1);
        let key = TermEvent::Key(KeyEvent::new_with_kind(
            KeyCode::Char(']'),
            KeyModifiers::NONE,
            KeyEventKind::Press,
        ));
        let batch = vec![
            Event::Source(SourceEvent::Append(edit("b.txt"))),
            Event::Term(key),
        ];
        let mut tabs_seen = Vec::new();
        let exit = apply_batch(&mut state, batch, |state, ev| {
            tabs_seen.push(state.ws.tabs.len());
            if let Event::Term(TermEvent::Key(k)) = ev {
                state.ws.on_key(k);
            }
            Ok(None)
        })
        .expect("no error");
        assert!(exit.is_none());
        assert_eq!(tabs_seen, [1], "the key saw the one tab on screen");
        assert_eq!(state.ws.tabs.len(), 2, "the text landed after the key");
        assert_eq!(state.ws.current, 0, "`]` had no second tab to go to");
    }
}
