//! The Anthropic Messages API's message and content-block shapes, as the
//! agents built on it save them (Claude Code's sessions, Cline CLI's
//! `messages.json`): only the fields srview reads.

use serde::Deserialize;
use serde_json::Value;

// Every field may be missing (it is then empty): the agents save partial
// blocks, and each kind of block has only some of them.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Message {
    pub(super) content: Option<Value>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct Block {
    #[serde(rename = "type")]
    pub(super) kind: String,
    pub(super) id: Option<String>,
    pub(super) name: Option<String>,
    pub(super) input: Option<Value>,
    pub(super) tool_use_id: Option<String>,
    pub(super) content: Option<Value>,
    pub(super) is_error: Option<bool>,
}
