//! Where diffs come from: a watched file, stdin, an agent transcript, a replay.

pub mod agent;
pub mod aider;
pub mod call;
pub mod replay;
pub mod transcript;
pub mod watch;
