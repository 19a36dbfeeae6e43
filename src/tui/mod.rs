//! The live previewer's runtime: one event loop ([`run`]) over a
//! [`Screen`], which the single-file previewer ([`SingleFile`]) and the
//! transcript previewer ([`TranscriptFiles`]) implement. The loop owns the
//! terminal, the event channel, batching, pauses and idle work; a screen
//! owns its state (in `app`), its drawing (through `view`) and the disk
//! I/O its keys ask for.

mod agent;
pub mod app;
mod clipboard;
mod event;
mod pause;
mod review;
mod run;
mod shown;
mod single;
mod terminal;
mod transcript;
pub mod view;

use std::path::PathBuf;

pub use agent::AgentEdits;
pub use event::Folded;
pub use review::ReviewPane;
pub use run::{Screen, run};
pub use single::{AcceptTo, SingleFile};
pub use transcript::TranscriptFiles;

use crate::engine::Version;

/// A mouse event on `app` drawn with its own notice: laid out as the view
/// draws it ([`view::screen_layout`]), then handled by the state
/// ([`app::keys::on_mouse`]): the state itself does not lay out.
pub(crate) fn on_mouse(app: &mut app::App, mouse: ratatui_crossterm::crossterm::event::MouseEvent) {
    let screen = view::screen_layout(app, app.view().screen, None);
    app::keys::on_mouse(app, mouse, &screen);
}

/// How a previewer runs: what the command line asked for, without clap.
#[derive(Debug, Clone)]
pub struct TuiConfig {
    pub version: Version,
    /// Clean the text up as Cline does for non-Claude models.
    pub fix_model_output: bool,
    /// The text is complete from the start (`--final`).
    pub final_mode: bool,
    pub feed: Feed,
}

/// Where the previewed text (a diff, or a transcript) comes from.
#[derive(Debug, Clone)]
pub enum Feed {
    /// A file, re-read whenever it changes (`poll`: by polling only).
    Watch { path: PathBuf, poll: bool },
    /// Stdin, read as it arrives; its end ends the stream.
    Stdin,
    /// `text`, streamed in by itself at `rate` characters per second, in
    /// pieces of `chunk` characters (a model's tokens; an agent's lines).
    Replay {
        text: String,
        rate: f64,
        seed: u64,
        chunk: usize,
    },
    /// Nothing: the text is complete before the previewer starts (a saved
    /// session, read whole).
    Nothing,
    /// The rest of a saved session file, from byte `from` to its end, read
    /// once in pieces (see [`crate::sessions::load::send_rest`]); its end
    /// ends the stream.
    Rest { path: PathBuf, from: u64 },
}

impl Feed {
    /// The watched file, if the text is one.
    fn watched(&self) -> Option<&std::path::Path> {
        match self {
            Feed::Watch { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// How a previewer session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// Quit with this status (`q`, a signal, the event channel closing).
    Quit(u8),
    /// The accepted content, to print on stdout once the terminal is back.
    Print(String),
    /// The accepted content was written to this file.
    Wrote(PathBuf),
}
