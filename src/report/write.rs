//! What `--write` did, in the JSON of a command given it: the reference's
//! `ok` says whether the edit applies, not whether srview wrote it.

use serde::Serialize;

/// What became of the file (or a transcript's files) under `--write`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WriteState {
    /// The result was written.
    Written,
    /// The file already held the result: it was left alone.
    Unchanged,
    /// The edit applies, but srview cannot stand behind the result: nothing
    /// was written (`reasons`; `--force` writes it).
    HeldBack,
    /// The edit does not apply: nothing was written.
    NotApplied,
    /// Writing failed (`reasons`): the file is as it was.
    Failed,
}

/// The `write` object: what `--write` did and, when it wrote nothing
/// although the edit applies, why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WriteJson {
    /// Why nothing was written (a doubt per entry, or the write's error);
    /// empty when it was written, unchanged or did not apply.
    pub reasons: Vec<String>,
    /// What became of the file.
    pub state: WriteState,
}

/// A one-object report followed by what `--write` did: `write` is the last
/// key, as the sorted order wants (every report's own keys sort before it).
#[derive(Serialize)]
pub struct WithWrite<'a, R> {
    /// The command's report.
    #[serde(flatten)]
    pub report: R,
    /// What `--write` did; only when it was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub write: Option<&'a WriteJson>,
}

impl WriteJson {
    /// A state without reasons.
    pub fn new(state: WriteState) -> Self {
        WriteJson {
            reasons: Vec::new(),
            state,
        }
    }
}
