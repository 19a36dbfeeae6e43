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
