//! `srview session PATH --json`: the agent's edits, each with srview's
//! own verdict.

use serde::{Serialize, Serializer};

use super::BlockJson;

use crate::sessions::review::{Basis, Review};
use crate::sessions::verdict::{Applier, Doubt, VerdictBlock};
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
    /// What srview's trust checks cannot stand behind in an edit that
    /// applies (`{"kind": "stands-in", "message": ...}`: see
    /// [`Review::doubts`]); written only when there is one.
    #[serde(skip_serializing_if = "<[Doubt]>::is_empty")]
    doubts: &'a [Doubt],
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
        self.finish_noting(0, 0)
    }

    /// [`SessionJsonStream::finish`], with `"editsInDoubt":N` after the
    /// edits when `N` (the edits written with a doubt, see
    /// [`Review::doubts`]) is not 0, and `"gateRecordUnreadableLines":M`
    /// when `M` (lines of the workspace's `.srview/gate.jsonl` that could
    /// not be read as a decision) is not 0: the document is otherwise as
    /// before.
    pub fn finish_noting(mut self, in_doubt: usize, gate_unreadable: usize) -> std::io::Result<W> {
        self.out.write_all(b"]")?;
        if in_doubt > 0 {
            write!(self.out, ",\"editsInDoubt\":{in_doubt}")?;
        }
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
    let texts = [
        edit.edit.as_deref(),
        edit.content_before,
        edit.content_after,
    ];
    let long: usize = texts.iter().flatten().map(|t| t.len()).sum();
    // The texts, an eighth more for their escapes, and the rest.
    let mut out = Vec::with_capacity(long + long / 8 + 1024);
    edit.write(&mut out)?;
    Ok(out)
}

impl EditJson<'_> {
    /// Writes the bytes `serde_json::to_writer(self)` writes (the field
    /// order and skips of the derived `Serialize` above; the unit test
    /// `rendered_by_hand_an_edit_is_the_derived_serialization` and the
    /// session tests compare them), every string escaped by
    /// [`write_json_str`]: the contents are most of a session's JSON, and
    /// serde_json's escaping looks at them a byte at a time.
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let optional = |out: &mut Vec<u8>, text: Option<&str>| match text {
            Some(text) => write_json_str(out, text),
            None => out.extend_from_slice(b"null"),
        };
        out.extend_from_slice(b"{\"seq\":");
        out.extend_from_slice(self.seq.to_string().as_bytes());
        out.extend_from_slice(b",\"file\":");
        write_json_str(out, self.file);
        out.extend_from_slice(b",\"tool\":");
        write_json_str(out, self.tool);
        out.extend_from_slice(b",\"agentVerdict\":");
        write_json_str(out, self.agent_verdict);
        out.extend_from_slice(b",\"agentMessage\":");
        optional(out, self.agent_message);
        out.extend_from_slice(b",\"edit\":");
        optional(out, self.edit.as_deref());
        out.extend_from_slice(b",\"contentBefore\":");
        optional(out, self.content_before);
        out.extend_from_slice(b",\"contentAfter\":");
        optional(out, self.content_after);
        if self.cut_off {
            out.extend_from_slice(b",\"cutOff\":true");
        }
        out.extend_from_slice(b",\"srview\":");
        serde_json::to_writer(&mut *out, &self.srview)?;
        if let Some(gate) = self.gate {
            out.extend_from_slice(b",\"gate\":");
            serde_json::to_writer(&mut *out, gate)?;
        }
        out.push(b'}');
        Ok(())
    }
}

/// Appends `text` as a JSON string, escaped byte for byte as serde_json
/// escapes it (`\"`, `\\`, `\b` `\t` `\n` `\f` `\r`, any other control
/// character as `\u00xx` in lower-case hex; everything else as it is): the
/// bytes to escape found eight at a time ([`next_escape`]), the runs
/// between them copied whole.
fn write_json_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // `bytes[start..]` is not written yet.
    let mut start = 0;
    while let Some(at) = next_escape(bytes, start) {
        out.extend_from_slice(&bytes[start..at]);
        let byte = bytes[at];
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            0x0c => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(b"\\u00");
                out.push(HEX[usize::from(byte >> 4)]);
                out.push(HEX[usize::from(byte & 0xf)]);
            }
        }
        start = at + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// The first byte from `from` on that JSON escapes (`"`, `\\`, or one
/// below 0x20), looked for in words of eight bytes: in each, every such
/// byte raises its top bit in a mask (`has-less-than` and `has-zero`
/// tricks); a raised bit may be wrong only above a right one, so the
/// lowest is the first such byte.
fn next_escape(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGHS;
    let rest = bytes.get(from..)?;
    let (words, tail) = rest.as_chunks::<8>();
    for (k, word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(*word);
        let mask = below(word, 0x20)
            | below(word ^ (ONES * u64::from(b'"')), 1)
            | below(word ^ (ONES * u64::from(b'\\')), 1);
        if mask != 0 {
            return Some(from + k * 8 + (mask.trailing_zeros() / 8) as usize);
        }
    }
    let escaped = |b: &u8| *b < 0x20 || *b == b'"' || *b == b'\\';
    tail.iter()
        .position(escaped)
        .map(|at| from + words.len() * 8 + at)
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
                doubts: r.doubts(),
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

#[cfg(test)]
mod tests {
    use super::write_json_str;

    fn escaped(text: &str) -> String {
        let mut out = Vec::new();
        write_json_str(&mut out, text);
        String::from_utf8(out).expect("UTF-8")
    }

    /// Every character that needs an escape, and some that do not, alone
    /// and at every offset of the eight-byte words, escaped as serde_json
    /// escapes them.
    #[test]
    fn json_strings_are_escaped_as_serde_json_escapes_them() {
        let mut specials: Vec<char> = (0u8..0x20).map(char::from).collect();
        specials.extend(['"', '\\', '/', '\u{7f}', 'a', ' ', 'é', '\u{2028}', '🎉']);
        for &c in &specials {
            for pad in 0..20 {
                for text in [
                    format!("{}{c}", "x".repeat(pad)),
                    format!("{c}{}", "y".repeat(pad)),
                    format!("{}{c}{c}{}", "z".repeat(pad), "w".repeat(19 - pad)),
                ] {
                    let serde = serde_json::to_string(&text).expect("serializes");
                    assert_eq!(escaped(&text), serde, "{text:?}");
                }
            }
        }
        // Mixed texts of every length up to 200, from a fixed sequence.
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for len in 0..200 {
            let text: String = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let pick = (state >> 33) as usize;
                    if pick.is_multiple_of(4) {
                        specials[pick / 4 % specials.len()]
                    } else {
                        char::from(b'a' + (pick % 26) as u8)
                    }
                })
                .collect();
            let serde = serde_json::to_string(&text).expect("serializes");
            assert_eq!(escaped(&text), serde, "{text:?}");
        }
        assert_eq!(escaped(""), "\"\"");
    }
}
