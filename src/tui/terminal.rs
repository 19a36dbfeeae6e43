//! The terminal: raw mode and the alternate screen for the previewer's
//! lifetime, put back however it ends (return, error, panic). Only
//! [`super::run`] uses it.

use std::io::{IsTerminal, Write};

use ratatui::Terminal;
use ratatui_crossterm::CrosstermBackend;
use ratatui_crossterm::crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use ratatui_crossterm::crossterm::execute;
use ratatui_crossterm::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};

use crate::error::Error;

pub(super) type Term = Terminal<CrosstermBackend<Box<dyn Write + Send>>>;

/// Runs `body` with the terminal in raw mode on the alternate screen, and
/// puts it back however `body` ends: return, error or panic.
pub(super) fn with_terminal<T>(
    body: impl FnOnce(&mut Term) -> Result<T, Error>,
) -> Result<T, Error> {
    let out: Box<dyn Write + Send> = if std::io::stdout().is_terminal() {
        Box::new(std::io::stdout())
    } else {
        let tty = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/tty")
            .map_err(|e| Error::io("no terminal to draw on", e))?;
        Box::new(tty)
    };
    install_panic_hook();
    let mut terminal = Terminal::new(CrosstermBackend::new(out)).map_err(term_err)?;
    enable_raw_mode().map_err(term_err)?;
    let guard = Restore;
    execute!(
        terminal.backend_mut(),
        EnterAlternateScreen,
        EnableMouseCapture
    )
    .map_err(term_err)?;
    terminal.hide_cursor().map_err(term_err)?;
    let result = body(&mut terminal);
    let _ = execute!(
        terminal.backend_mut(),
        DisableMouseCapture,
        LeaveAlternateScreen
    );
    let _ = terminal.show_cursor();
    drop(guard);
    result
}

pub(super) fn term_err(e: std::io::Error) -> Error {
    Error::io("terminal error", e)
}

/// Leaves raw mode, the alternate screen and mouse capture.
fn restore_terminal() {
    let _ = disable_raw_mode();
    if let Ok(mut tty) = std::fs::OpenOptions::new().write(true).open("/dev/tty") {
        let _ = execute!(
            tty,
            DisableMouseCapture,
            LeaveAlternateScreen,
            ratatui_crossterm::crossterm::cursor::Show
        );
    }
}

struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        restore_terminal();
    }
}

/// color-eyre's report on panic, printed after the terminal is restored.
fn install_panic_hook() {
    let eyre_hook = color_eyre::config::HookBuilder::default()
        .into_hooks()
        .0
        .into_panic_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        eyre_hook(info);
    }));
}
