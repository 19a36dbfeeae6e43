//! Codex CLI: `codex exec --json` (live, file names only), a `codex
//! app-server` JSON-RPC log (live; with `apply_patch_streaming_events` the
//! patch streams as `item/fileChange/patchUpdated`), and the rollout JSONL
//! (saved, appended as the session runs: the raw apply_patch text, then a
//! `FileChange` item or the failure in `custom_tool_call_output`).
//!
//! One edit per file section of a patch. Codex verifies the whole patch
//! before writing: when a section fails, the other sections are `not-run`.

mod app_server;
mod exec;
mod rollout;

pub(super) use app_server::AppServerParser;
pub(super) use exec::ExecParser;
pub(super) use rollout::RolloutParser;

use serde::Deserialize;

use super::store::Store;

/// One JSON line of `T`'s shape; a line that is not one is noted.
fn parse_line<T: for<'de> Deserialize<'de>>(text: &str, store: &mut Store) -> Option<T> {
    store.json_line(text, "not a JSON object of this format")
}
