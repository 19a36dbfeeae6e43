//! `srview apply --stream`: one line per update of the streamed diff.

use serde::Serialize;

use crate::engine::BlockReport;

/// One output line. Field order is the order on the wire; blocks in the
/// engine report's own field order.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StreamLine<'a> {
    /// 1-based number of the line.
    pub seq: usize,
    /// Bytes of the diff this line describes.
    pub bytes: usize,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub ok: bool,
    pub error: Option<&'a str>,
    pub new_content_length: Option<usize>,
    pub match_indices: &'a [usize],
    pub blocks: &'a [BlockReport],
    /// Present only with `--stream-content` (null on error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_content: Option<Option<&'a str>>,
    /// What `--write` did: on the last line only, when it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<&'a super::WriteJson>,
}

/// The blocks of a [`DialectStreamLine`]: an edit's one block in the
/// engine's shape, or a patch's hunks (with their levels).
#[derive(Serialize)]
#[serde(untagged)]
pub enum DialectBlocks<'a> {
    Edit(Vec<&'a BlockReport>),
    Hunks(Vec<&'a crate::dialect::apply_patch::HunkReport>),
}

/// One `--stream` line for an apply_patch or an edit's JSON: the fields of
/// [`StreamLine`] with the dialect named (no match indices: the reference
/// has none).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DialectStreamLine<'a> {
    pub seq: usize,
    pub bytes: usize,
    #[serde(rename = "final")]
    pub is_final: bool,
    pub dialect: crate::dialect::Dialect,
    pub ok: bool,
    pub error: Option<&'a str>,
    pub new_content_length: Option<usize>,
    pub blocks: DialectBlocks<'a>,
    /// Present only with `--stream-content` (null on error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_content: Option<Option<&'a str>>,
    /// What `--write` did: on the last line only, when it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<&'a super::WriteJson>,
}
