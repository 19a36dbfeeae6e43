//! Where diffs come from: a watched file, stdin, an agent transcript, a replay.

pub mod agent;
pub mod aider;
pub mod call;
pub mod live;
pub mod patch;
pub mod patch_preview;
pub mod replay;
pub mod time;
pub mod transcript;
pub mod watch;
