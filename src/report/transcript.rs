//! `srview apply --transcript MSG --json`: every file a transcript edits.

use serde::Serialize;

use super::BlockJson;
use crate::source::transcript::{CallKind, FileEdit, FileState, Format};

/// One entry per file with its calls, its blocks (each tagged with the
/// index of its call among the file's calls) and its new content.
#[derive(Serialize)]
pub struct TranscriptReport<'a> {
    files: Vec<FileJson<'a>>,
    format: Format,
    ok: bool,
}

impl<'a> TranscriptReport<'a> {
    pub fn new(format: Format, files: &'a [FileEdit], all_ok: bool) -> Self {
        TranscriptReport {
            files: files.iter().map(FileJson::new).collect(),
            format,
            ok: all_ok,
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FileJson<'a> {
    blocks: Vec<BlockJson<'a>>,
    calls: Vec<CallJson<'a>>,
    error: Option<&'a str>,
    new: bool,
    new_content: Option<&'a str>,
    ok: bool,
    path: &'a str,
    state: FileState,
}

#[derive(Serialize)]
struct CallJson<'a> {
    error: Option<&'a str>,
    kind: CallKind,
    ok: bool,
    partial: bool,
}

impl<'a> FileJson<'a> {
    fn new(file: &'a FileEdit) -> Self {
        let calls = file
            .calls
            .iter()
            .map(|call| CallJson {
                error: call.error(),
                kind: call.kind,
                ok: call.content().is_some(),
                partial: call.partial,
            })
            .collect();
        let blocks = file
            .calls
            .iter()
            .enumerate()
            .flat_map(|(n, call)| {
                call.outcome
                    .iter()
                    .flat_map(move |o| o.blocks.iter().map(move |b| BlockJson::new(b, Some(n))))
            })
            .collect();
        FileJson {
            blocks,
            calls,
            error: file.error.as_deref(),
            new: file.is_new(),
            new_content: file.ok().then_some(file.content()),
            ok: file.ok(),
            path: &file.path,
            state: file.state,
        }
    }
}
