//! The agents added after the first five (pi, Gemini CLI, Qwen Code,
//! OpenCode): each one's recorded runs read live and saved, through the
//! library and the binary, and its previewer in a terminal. One test binary
//! for all of them (disk and link time); one module per agent.

#[path = "more_agents/gemini_cli.rs"]
mod gemini_cli;
mod support;
