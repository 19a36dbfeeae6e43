//! `srview session PATH --json`: the agent's edits, each with srview's
//! own verdict.

use serde::{Serialize, Serializer};

use super::BlockJson;

use crate::sessions::review::{Basis, Review};
use crate::sessions::verdict::{Applier, VerdictBlock};
use crate::source::agent::FileContent;

/// `{"agent", "version", "edits": [...]}`, edits in the agent's order,
/// built whole: the reference [`SessionJsonStream`] (what `session --json`
/// writes) is tested against.
#[cfg(test)]
#[derive(Serialize)]
pub struct SessionJson<'a> {
    agent: &'static str,
    version: Option<&'a str>,
    edits: Vec<EditJson<'a>>,
}

/// One edit: the agent's view (contents `null` when absent or unknown),
/// then srview's.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EditJson<'a> {
    seq: usize,
    file: &'a str,
    tool: &'static str,
    agent_verdict: &'static str,
    agent_message: Option<&'a str>,
    /// The edit's own text (SEARCH/REPLACE, patch section, edit JSON,
    /// whole content, unified diff); `null` when the output does not
    /// record it.
    edit: Option<String>,
    content_before: Option<&'a str>,
    content_after: Option<&'a str>,
    /// The model's stream ended inside the call and the agent ran it as far
    /// as it had arrived (pi); written only when so.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    cut_off: bool,
    srview: SrviewJson<'a>,
    /// The gate's decision about this edit (`.srview/gate.jsonl` in the
    /// workspace), when one is joined to it; written only then.
    #[serde(skip_serializing_if = "Option::is_none")]
    gate: Option<&'a crate::gate::record::GateDecision>,
}

/// srview's verdict: `ok` `null` when it could not run the edit (`why`
/// says why: most often the content before is unknown).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SrviewJson<'a> {
    ok: Option<bool>,
    /// What the edit was run against (`null`: not run).
    against: Option<Basis>,
    why: Option<&'a str>,
    applier: Applier,
    error: Option<&'a str>,
    /// A block or hunk matched only loosely.
    loose: bool,
    /// The stage or level of each loose block (`line-trimmed`, `unicode`).
    loose_levels: &'a [String],
    /// srview and the agent disagree, in words.
    disagreement: Option<&'a str>,
    /// What the agent did that neither verdict says ("the agent applied a
    /// cut-off edit", lines rewritten outside the edit); written only when
    /// there is one.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notices: &'a [String],
    /// Line ranges (first, last) of the content before that the agent's
    /// matcher rewrote outside the edit (pi's fuzzy stage); written only
    /// when there is one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    rewritten_outside: Vec<[usize; 2]>,
    /// Line ranges (first, last) of the content before that an edit
    /// replacing every occurrence changed beyond its first place; written
    /// only when there is one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    also_replaced: Vec<[usize; 2]>,
    /// As `apply --json` writes them; apply_patch hunks with their level.
    #[serde(serialize_with = "blocks")]
    blocks: &'a [VerdictBlock],
}

/// An engine block as `apply --json` writes it, a hunk as `HunkReport`.
fn blocks<S: Serializer>(blocks: &&[VerdictBlock], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(blocks.iter().map(|b| match b {
        VerdictBlock::Block(b) => Block::Engine(BlockJson::new(b, None)),
        VerdictBlock::Hunk(h) => Block::Hunk(h),
        VerdictBlock::Call(e) => Block::Call(e),
    }))
}

#[derive(Serialize)]
#[serde(untagged)]
enum Block<'a> {
    Engine(BlockJson<'a>),
    Hunk(&'a crate::dialect::apply_patch::HunkReport),
    Call(&'a crate::dialect::call::EditMatch),
}

#[cfg(test)]
impl<'a> SessionJson<'a> {
    /// The document of a session reviewed whole.
    pub fn new(review: &'a crate::sessions::review::SessionReview) -> Self {
        SessionJson {
            agent: review.agent.name(),
            version: review.version.as_deref(),
            edits: review.reviews.iter().map(EditJson::new).collect(),
        }
    }
}

/// `session --json` written one edit at a time, as the session is read:
/// the same bytes as [`SessionJson`] serialized whole (`{"agent":…,
/// "version":…,"edits":[…]}`), without holding every edit.
pub struct SessionJsonStream<W: std::io::Write> {
    out: W,
    edits: usize,
}

impl<W: std::io::Write> SessionJsonStream<W> {
    /// Writes the document's head, up to the opening of its edit list.
    pub fn start(
        mut out: W,
        agent: crate::source::agent::AgentKind,
        version: Option<&str>,
    ) -> std::io::Result<Self> {
        out.write_all(b"{\"agent\":")?;
        serde_json::to_writer(&mut out, agent.name())?;
        out.write_all(b",\"version\":")?;
        serde_json::to_writer(&mut out, &version)?;
        out.write_all(b",\"edits\":[")?;
        Ok(SessionJsonStream { out, edits: 0 })
    }

    /// Writes the next edit (in the agent's order) with the gate's decision
    /// joined to it (`session --json` renders each edit on the thread that
    /// reviewed it: [`render_session_edit`], [`SessionJsonStream::edit_rendered`]).
    #[cfg(test)]
    pub fn edit(
        &mut self,
        review: &Review,
        gate: Option<&crate::gate::record::GateDecision>,
    ) -> std::io::Result<()> {
        if self.edits > 0 {
            self.out.write_all(b",")?;
        }
        self.edits += 1;
        let mut edit = EditJson::new(review);
        edit.gate = gate;
        serde_json::to_writer(&mut self.out, &edit)?;
        Ok(())
    }

    /// Writes the next edit (in the agent's order), rendered by
    /// [`render_session_edit`]: the bytes [`SessionJsonStream::edit`]
    /// writes.
    pub fn edit_rendered(&mut self, rendered: &[u8]) -> std::io::Result<()> {
        if self.edits > 0 {
            self.out.write_all(b",")?;
        }
        self.edits += 1;
        self.out.write_all(rendered)
    }

    /// Closes the list and the document (no newline); returns the writer.
    #[cfg(test)]
    pub fn finish(self) -> std::io::Result<W> {
        self.finish_noting(0)
    }

    /// [`SessionJsonStream::finish`], with `"gateRecordUnreadableLines":N`
    /// after the edits when `N` (lines of the workspace's
    /// `.srview/gate.jsonl` that could not be read as a decision) is not 0:
    /// the document is otherwise as before.
    pub fn finish_noting(mut self, gate_unreadable: usize) -> std::io::Result<W> {
        self.out.write_all(b"]")?;
        if gate_unreadable > 0 {
            write!(self.out, ",\"gateRecordUnreadableLines\":{gate_unreadable}")?;
        }
        self.out.write_all(b"}")?;
        Ok(self.out)
    }
}

/// An edit's JSON as [`SessionJsonStream::edit`] writes it, rendered
/// apart (on any thread) for [`SessionJsonStream::edit_rendered`].
pub fn render_session_edit(
    review: &Review,
    gate: Option<&crate::gate::record::GateDecision>,
) -> serde_json::Result<Vec<u8>> {
    let mut edit = EditJson::new(review);
    edit.gate = gate;
    serde_json::to_vec(&edit)
}

impl<'a> EditJson<'a> {
    fn new(r: &'a Review) -> Self {
        let e = &r.edit;
        let applied = r.applied();
        EditJson {
            seq: e.seq,
            file: &e.file,
            tool: e.tool.name(),
            agent_verdict: e.agent_verdict.name(),
            agent_message: e.agent_message.as_deref(),
            edit: e.input.text(),
            content_before: r.before.as_ref().and_then(FileContent::text),
            content_after: e.after().and_then(FileContent::text),
            cut_off: e.cut_off,
            srview: SrviewJson {
                ok: r.ok(),
                against: r.basis,
                why: r.why(),
                applier: applied.map_or(Applier::None, |a| a.applier),
                error: applied.and_then(|a| a.error()),
                loose: r.is_loose(),
                loose_levels: applied.map_or(&[][..], |a| &a.loose[..]),
                disagreement: r.disagreement.as_deref(),
                notices: &r.notices,
                rewritten_outside: applied.map_or(Vec::new(), |a| {
                    a.rewritten_outside
                        .iter()
                        .map(|&(first, last)| [first, last])
                        .collect()
                }),
                also_replaced: applied.map_or(Vec::new(), |a| {
                    a.also_replaced
                        .iter()
                        .map(|&(first, last)| [first, last])
                        .collect()
                }),
                blocks: applied.map_or(&[][..], |a| &a.blocks[..]),
            },
            gate: None,
        }
    }
}
