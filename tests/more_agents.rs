//! The agents added after the first five (pi, Gemini CLI, Qwen Code,
//! OpenCode): each one's recorded runs read live and saved, through the
//! library and the binary, and its previewer in a terminal. One test binary
//! for all of them (disk and link time); one module per agent.

#[path = "more_agents/gemini_cli.rs"]
mod gemini_cli;
#[path = "more_agents/opencode.rs"]
mod opencode;
#[path = "more_agents/pi.rs"]
mod pi;
#[path = "more_agents/qwen_code.rs"]
mod qwen_code;
mod support;
