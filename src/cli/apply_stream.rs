//! `srview apply FILE [DIFF] --stream`: reads the diff as it arrives (stdin,
//! or DIFF read to its end) and prints one JSON line per update, then a last
//! line with `"final": true` for the complete diff.
//!
//! Each line: `seq` (1-based), `bytes` (diff bytes the update covers), `final`, `ok`,
//! `error`, `newContentLength` (UTF-8 bytes; null on error), `matchIndices`,
//! `blocks` (the per-block report), and with `--stream-content` also
//! `newContent`. Updates apply in partial mode; the last line in final mode
//! unless `--partial`. Input already waiting when an update is due is read
//! first, so a fast writer gets fewer, larger updates.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::mpsc::{self, Receiver, TryRecvError};

use serde_json::{Value, json};

use super::{ApplyArgs, CmdResult};
use crate::engine::session::Session;
use crate::engine::{self, Outcome};
use crate::input::CliError;

const READ_SIZE: usize = 64 * 1024;

/// What the reader thread sends.
enum Input {
    Data(Vec<u8>),
    End,
    Failed(String),
}

pub fn run(args: &ApplyArgs) -> CmdResult {
    let file = args
        .file
        .as_deref()
        .ok_or_else(|| CliError::usage("apply --stream needs FILE"))?;
    let original = super::apply::load_original(file, args.new_file)?;
    let session = Session::new(original, args.engine.version());
    let source = open_source(args.diff.as_deref())?;
    let rx = spawn_reader(source);
    let mut stream = Stream {
        session,
        decoder: Utf8Tail::default(),
        raw: String::new(),
        fix_path: args
            .engine
            .fix_model_output
            .then(|| file.to_string_lossy().into_owned()),
        bytes: 0,
        seq: 0,
        with_content: args.stream_content,
        out: std::io::stdout().lock(),
    };
    loop {
        let Some(ended) = stream.take_available(&rx)? else {
            continue;
        };
        if ended {
            break;
        }
        let summary_line = stream.update_line(false);
        stream.emit(summary_line)?;
    }
    stream.decoder.finish()?;
    let outcome = stream.session.outcome(!args.partial);
    let mut line = line_from_outcome(&outcome, stream.with_content);
    stream.seq += 1;
    decorate(&mut line, stream.seq, stream.bytes, true);
    stream.emit(line)?;
    match &outcome.result {
        Ok(applied) => {
            if args.write {
                super::apply::write_result(file, &applied.new_content, stream.session.original())?;
            }
            Ok(0)
        }
        Err(_) => Ok(1),
    }
}

struct Stream<W: Write> {
    session: Session,
    decoder: Utf8Tail,
    /// The diff as received, when `--fix-model-output` rewrites it per update.
    raw: String,
    fix_path: Option<String>,
    bytes: usize,
    seq: usize,
    with_content: bool,
    out: W,
}

impl<W: Write> Stream<W> {
    /// Blocks for input, then drains whatever else is already waiting.
    /// `Some(true)` at end of input, `Some(false)` after new text, `None`
    /// when the bytes read so far end inside a character.
    fn take_available(&mut self, rx: &Receiver<Input>) -> Result<Option<bool>, CliError> {
        let mut next = rx.recv().unwrap_or(Input::End);
        let mut text = String::new();
        loop {
            match next {
                Input::Data(bytes) => {
                    self.bytes += bytes.len();
                    text.push_str(&self.decoder.decode(bytes, self.bytes)?);
                }
                Input::End => {
                    self.add(&text);
                    return Ok(Some(true));
                }
                Input::Failed(e) => return Err(CliError::usage(format!("cannot read diff: {e}"))),
            }
            next = match rx.try_recv() {
                Ok(input) => input,
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => Input::End,
            };
        }
        if text.is_empty() {
            return Ok(None);
        }
        self.add(&text);
        Ok(Some(false))
    }

    fn add(&mut self, text: &str) {
        match &self.fix_path {
            // The reference fixes the whole diff-so-far each time; an entity
            // cut in half makes that a rewrite, which restarts the session.
            Some(path) => {
                self.raw.push_str(text);
                let fixed = engine::fixes::fix_model_output(&self.raw, path);
                self.session.set_text(&fixed);
            }
            None => self.session.push(text),
        }
    }

    fn update_line(&mut self, is_final: bool) -> Value {
        let mut line = if self.with_content {
            line_from_outcome(&self.session.outcome(is_final), true)
        } else {
            let summary = self.session.summary(is_final);
            let (ok, len, error) = match &summary.result {
                Ok(len) => (true, Some(*len), None),
                Err(e) => (false, None, Some(e.message.as_str())),
            };
            json!({
                "ok": ok,
                "error": error,
                "newContentLength": len,
                "matchIndices": summary.match_indices,
                "blocks": summary.blocks,
            })
        };
        self.seq += 1;
        // The bytes this update describes: a character cut by the read is
        // held back until its second half arrives.
        decorate(
            &mut line,
            self.seq,
            self.bytes - self.decoder.pending.len(),
            is_final,
        );
        line
    }

    fn emit(&mut self, line: Value) -> Result<(), CliError> {
        let io_err = |e: std::io::Error| CliError::usage(format!("cannot write stdout: {e}"));
        serde_json::to_writer(&mut self.out, &line).map_err(|e| CliError::usage(e.to_string()))?;
        self.out.write_all(b"\n").map_err(io_err)?;
        self.out.flush().map_err(io_err)
    }
}

fn line_from_outcome(outcome: &Outcome, with_content: bool) -> Value {
    let (ok, len, indices, error, content) = match &outcome.result {
        Ok(a) => (
            true,
            Some(a.new_content.len()),
            a.match_indices.clone(),
            None,
            Some(a.new_content.as_str()),
        ),
        Err(e) => (false, None, Vec::new(), Some(e.message.as_str()), None),
    };
    let mut line = json!({
        "ok": ok,
        "error": error,
        "newContentLength": len,
        "matchIndices": indices,
        "blocks": outcome.blocks,
    });
    if with_content {
        line["newContent"] = json!(content);
    }
    line
}

fn decorate(line: &mut Value, seq: usize, bytes: usize, is_final: bool) {
    line["seq"] = json!(seq);
    line["bytes"] = json!(bytes);
    line["final"] = json!(is_final);
}

fn open_source(diff: Option<&Path>) -> Result<Box<dyn Read + Send>, CliError> {
    match diff {
        Some(p) if p != Path::new("-") => std::fs::File::open(p)
            .map(|f| Box::new(f) as Box<dyn Read + Send>)
            .map_err(|e| CliError::usage(format!("cannot read {}: {e}", p.display()))),
        _ => Ok(Box::new(std::io::stdin())),
    }
}

/// Reads in the background so the main thread can see what is already
/// waiting without blocking.
fn spawn_reader(mut source: Box<dyn Read + Send>) -> Receiver<Input> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; READ_SIZE];
        loop {
            let msg = match source.read(&mut buf) {
                Ok(0) => Input::End,
                Ok(n) => Input::Data(buf[..n].to_vec()),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => Input::Failed(e.to_string()),
            };
            let last = !matches!(msg, Input::Data(_));
            if tx.send(msg).is_err() || last {
                return;
            }
        }
    });
    rx
}

/// UTF-8 decoding across read boundaries: a character split between two
/// reads waits for its second half. NUL bytes and invalid UTF-8 are refused,
/// as for a diff read at once.
#[derive(Default)]
struct Utf8Tail {
    pending: Vec<u8>,
}

impl Utf8Tail {
    /// `total` is the byte count received including `bytes`, for messages.
    fn decode(&mut self, bytes: Vec<u8>, total: usize) -> Result<String, CliError> {
        let start = total - bytes.len() - self.pending.len();
        self.pending.extend_from_slice(&bytes);
        if let Some(at) = self.pending.iter().position(|&b| b == 0) {
            return Err(CliError::usage(format!(
                "stdin looks binary (NUL byte at offset {}); refusing to treat it as text",
                start + at
            )));
        }
        let valid = match std::str::from_utf8(&self.pending) {
            Ok(_) => self.pending.len(),
            Err(e) if e.error_len().is_none() => e.valid_up_to(),
            Err(e) => {
                return Err(CliError::usage(format!(
                    "stdin is not valid UTF-8 (first bad byte at offset {})",
                    start + e.valid_up_to()
                )));
            }
        };
        let rest = self.pending.split_off(valid);
        let done = std::mem::replace(&mut self.pending, rest);
        String::from_utf8(done).map_err(|e| CliError::usage(e.to_string()))
    }

    /// End of input: a character still incomplete is invalid UTF-8.
    fn finish(&self) -> Result<(), CliError> {
        if self.pending.is_empty() {
            Ok(())
        } else {
            Err(CliError::usage(
                "stdin is not valid UTF-8 (it ends inside a character)",
            ))
        }
    }
}
