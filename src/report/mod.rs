//! Every JSON document srview prints, as serde structs: what `apply --json`,
//! `apply --stream`, `apply --transcript --json` and `check --json` write.
//!
//! The structs borrow from the engine's and the diagnosis's types; nothing
//! here computes anything. Field order is the order on the wire. The
//! one-object reports list their keys in sorted order (as they always have:
//! they were first built as `serde_json::Value` maps); a `--stream` line
//! lists its keys in the order a reader wants them first (`seq`, `bytes`,
//! `final`, ...), its blocks in the engine report's own order.
//! `tests/json_golden.rs` holds every byte of it.

mod apply;
mod call;
mod check;
mod edit_check;
mod patch;
mod session;
mod stream;
mod transcript;
mod write;

pub use apply::{BlockJson, write_apply};
pub use call::{CallReport, CallStreamLine, Explained, PrefixEdit, WrittenLine};
pub use check::CheckReport;
pub use edit_check::EditCheckReport;
pub use patch::{PatchApplyReport, PatchCheckReport, PatchTranscriptReport};
#[cfg(test)]
pub use session::SessionJson;
pub use session::SessionJsonStream;
pub use session::render_session_edit;
pub use stream::{DialectBlocks, DialectStreamLine, StreamLine};
pub use transcript::TranscriptReport;
pub use write::{WithWrite, WriteJson, WriteState};

/// Writes `value` as one line of JSON: serialized into `buf` (cleared
/// first, reused between lines), newline included, then written with one
/// `write_all` and flushed.
pub fn write_line(
    buf: &mut Vec<u8>,
    out: &mut impl std::io::Write,
    value: &impl serde::Serialize,
) -> std::io::Result<()> {
    buf.clear();
    serde_json::to_writer(&mut *buf, value)?;
    buf.push(b'\n');
    out.write_all(buf)?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{self, Options, Version};
    use crate::report::apply::ApplyReport;

    /// A `serde_json::Value` map sorts its keys: a report that reads the
    /// same after a round trip through `Value` lists its keys sorted at
    /// every level.
    fn assert_sorted(value: &impl serde::Serialize) {
        let direct = serde_json::to_string(value).expect("serializes");
        let value = serde_json::to_value(value).expect("to value");
        assert_eq!(direct, serde_json::to_string(&value).expect("serializes"));
    }

    #[test]
    fn one_object_reports_list_keys_sorted() {
        let original = "a\nb\nc \u{1f600}\"\n\tx\n";
        let diffs = [
            "------- SEARCH\nb\n=======\nB\\\"\n+++++++ REPLACE\n",
            "------- SEARCH\nzz\n=======\nq\n+++++++ REPLACE\n",
            "------- SEARCH\nb\n=======\nB\n------- SEARCH\nc\n",
            "------- SEARCH\n  x\n=======\ny\n+++++++ REPLACE\n",
            "",
        ];
        for diff in diffs {
            for version in [Version::V1, Version::V2] {
                for is_final in [true, false] {
                    let options = Options { version, is_final };
                    let o = engine::apply(diff, original, options);
                    let content = o.result.as_ref().ok().map(|a| a.new_content.as_str());
                    assert_sorted(&ApplyReport::new(&o, content));
                    let write = WriteJson {
                        reasons: vec!["why".into()],
                        state: WriteState::HeldBack,
                    };
                    assert_sorted(&WithWrite {
                        report: ApplyReport::new(&o, content),
                        write: Some(&write),
                    });
                    let d = crate::diagnose::diagnose(diff, original, options);
                    assert_sorted(&CheckReport::new(&d, true));
                }
            }
        }
    }

    #[test]
    fn a_stream_line_is_one_write_of_one_line() {
        struct Writes(Vec<Vec<u8>>);
        impl std::io::Write for Writes {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.push(b.to_vec());
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let o = engine::apply("", "a\n", Options::default());
        let line = StreamLine {
            seq: 1,
            bytes: 0,
            is_final: true,
            ok: true,
            error: None,
            new_content_length: Some(2),
            match_indices: &[],
            blocks: &o.blocks,
            new_content: None,
            write: None,
        };
        let mut out = Writes(Vec::new());
        write_line(&mut Vec::new(), &mut out, &line).expect("writes");
        assert_eq!(out.0.len(), 1);
        assert_eq!(
            String::from_utf8_lossy(&out.0[0]),
            "{\"seq\":1,\"bytes\":0,\"final\":true,\"ok\":true,\"error\":null,\"newContentLength\":2,\"matchIndices\":[],\"blocks\":[]}\n"
        );
    }
}
