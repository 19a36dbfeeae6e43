//! Tests of the shell's internals (the previewer's state and rendering, the
//! agent previewer, the shell's error texts). The shell is private to the
//! crate (behind the fence: `src/lib.rs`), so these are unit tests of the
//! library, compiled in by `src/lib.rs` under `cfg(test)`; they name the
//! crate `srview::` as the integration tests do (`extern crate self`).

mod agent_previewer;
mod align_props;
mod app_result;
mod app_state;
mod error_texts;
mod import_cycles;
mod patch_preview;
mod session_stream;
mod syntax_pack;
mod view_snapshots;
mod workspace_state;

/// The parts of `tests/support/` these tests use (`support.rs`).
mod support;

use std::path::PathBuf;

use ratatui_crossterm::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use srview::engine::Version;
use srview::tui::app::workspace::Workspace;
use srview::tui::app::{App, Effect};

/// The previewer on the file `name` holding `content` (the v1 engine),
/// given the whole of `diff`: the stream has ended.
fn app_with_diff(name: &str, content: &str, diff: &str) -> App {
    let mut app = App::new(PathBuf::from(name), content.to_string(), Version::V1);
    app.set_diff(diff.to_string());
    app.end_stream();
    app
}

/// What the key `c` (no modifier) does in the workspace `ws`.
fn key(ws: &mut Workspace, c: char) -> Effect {
    ws.on_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

/// The text of the notice `app` shows, empty without one.
fn notice_text(app: &App) -> String {
    app.notice()
        .as_ref()
        .map(|n| n.text.clone())
        .unwrap_or_default()
}
