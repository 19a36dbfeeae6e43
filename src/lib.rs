//! srview: see what an LLM's SEARCH/REPLACE edit does, and why it fails.
//!
//! Data flows one way: [`source`] (files, stdin, transcripts, replay) →
//! [`engine`] (pure parse + match + apply) → [`app`] (state) → [`view`]
//! (pure render) → [`output`] (safe writes, JSON). [`diagnose`] explains
//! blocks beside the engine; [`cli`] wires the commands.

pub mod cli;
pub mod diagnose;
pub mod dialect;
pub mod engine;
pub mod error;
pub mod input;
pub mod output;
pub mod report;
pub mod sessions;
pub mod source;
pub mod textdiff;
pub mod tui;
/// The previewer's state and rendering, at their old paths.
pub use tui::{app, view};
pub mod words;
