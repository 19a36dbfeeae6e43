//! The Anthropic Messages API's message and content-block shapes, as the
//! agents built on it save them (Claude Code's sessions, Cline CLI's
//! `messages.json`): only the fields srview reads.

use serde::Deserialize;
use serde_json::Value;

#[derive(Deserialize)]
pub(super) struct Message {
    #[serde(default)]
    pub(super) content: Option<Value>,
}

#[derive(Deserialize)]
pub(super) struct Block {
    #[serde(rename = "type", default)]
    pub(super) kind: String,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) input: Option<Value>,
    #[serde(default)]
    pub(super) tool_use_id: Option<String>,
    #[serde(default)]
    pub(super) content: Option<Value>,
}
