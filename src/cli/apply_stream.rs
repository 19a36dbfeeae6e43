//! `srview apply FILE [DIFF] --stream`: reads the diff as it arrives (stdin,
//! or DIFF read to its end) and prints JSON lines as the result changes,
//! then a last line with `"final": true` for the complete diff.
//!
//! Each line: `seq` (1-based), `bytes` (diff bytes the line covers), `final`,
//! `ok`, `error`, `newContentLength` (UTF-8 bytes; null on error),
//! `matchIndices`, `blocks` (the per-block report), and with
//! `--stream-content` also `newContent`. Updates apply in partial mode; the
//! last line in final mode unless `--partial`.
//!
//! The input goes through one [`LiveInput`]: its dialect is decided once
//! (`--dialect`, else the text's first marker) and every update read from
//! it. SEARCH/REPLACE is read by the engine's incremental session; an
//! apply_patch or an edit's JSON by its prefix parser
//! ([`super::stream_dialect`]); an agent matcher's tool input
//! (`--dialect pi-edit`, ...) gives [`report::CallStreamLine`]s (each
//! edit's old text as far as it has arrived) and, last, the agent's own
//! result of the whole input (`apply --json`'s report with `seq`, `bytes`
//! and `"final": true`).
//!
//! Lines are coalesced: at most one per `--stream-interval` milliseconds,
//! each describing everything received when it is written (input already
//! waiting is read first). Text arriving after a line is answered by the
//! next one once the interval has passed, even if no more text comes; the
//! final line is always written, as soon as input ends. Stdin is read and
//! waited on (`poll`) on the main thread, and each line is serialized into
//! one reused buffer and written with one `write`.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use super::commit::Commit;
use super::stream_dialect::{DialectFile, snapshot};
use super::{ApplyArgs, CmdResult};
use crate::dialect::Dialect;
use crate::dialect::registry::DialectRow;
use crate::engine::session::Session;
use crate::engine::{self, Outcome};
use crate::error::Error;
use crate::input::TextDecoder;
use crate::report::{self, StreamLine};
use crate::source::live::{LiveInput, Reading};

const READ_SIZE: usize = 64 * 1024;

pub fn run(args: &ApplyArgs) -> CmdResult {
    let file = args
        .file
        .as_deref()
        .ok_or_else(|| Error::usage("apply --stream needs FILE"))?;
    let agent = args.engine.agent_dialect();
    let content = match agent {
        // The previews read FILE as it is now; the agent's matcher reads
        // it again at the end, as the agent would.
        Some(_) => std::fs::read_to_string(file).ok(),
        None => {
            let content = super::apply_dialect::load(file, args.new_file)?;
            // A FILE that cannot be written is said before the stream is read.
            if args.write
                && let Err(e) = crate::output::preflight(file)
            {
                return Err(Error::Write(format!(
                    "{} will not be written: {}",
                    file.display(),
                    e.message
                )));
            }
            content
        }
    };
    let original = content.clone().unwrap_or_default();
    let session = Session::new(original, args.engine.version());
    let mut source = Source::open(args.diff.as_deref())?;
    let interval = Duration::from_millis(args.stream_interval);
    let forced = match agent {
        Some(_) => None,
        None => args.engine.builtin_dialect("apply --stream")?,
    };
    let mut stream = Stream {
        session,
        decoder: TextDecoder::default(),
        raw: String::new(),
        fix_path: args.engine.fix_model_output.then(|| file.to_path_buf()),
        bytes: 0,
        seq: 0,
        with_content: args.stream_content,
        buf: Vec::new(),
        out: std::io::stdout(),
        live: LiveInput::new(forced, agent),
        dialect_file: DialectFile::new(file, content, args.rerun()),
    };
    let mut chunk = vec![0u8; READ_SIZE];
    // When the last line was written, and whether text came in since.
    let mut last_line: Option<Instant> = None;
    let mut unanswered = false;
    let mut read_all = |stream: &mut Stream<std::io::Stdout>,
                        last_line: &mut Option<Instant>,
                        unanswered: &mut bool|
     -> Result<(), Error> {
        loop {
            let due = last_line.map(|t| t + interval);
            // Nothing to answer: wait for input as long as it takes.
            // Otherwise wait at most until the next line is due.
            let wait = match (*unanswered, due) {
                (false, _) => None,
                (true, None) => Some(Duration::ZERO),
                (true, Some(due)) => Some(due.saturating_duration_since(Instant::now())),
            };
            if source.readable_within(wait)? {
                let n = source.read(&mut chunk)?;
                if n == 0 {
                    break;
                }
                *unanswered |= stream.take(&chunk[..n])?;
            }
            let now = Instant::now();
            if *unanswered && due.is_none_or(|due| now >= due) {
                stream.write_update()?;
                *last_line = Some(now);
                *unanswered = false;
            }
        }
        stream.decoder.finish().map_err(|e| e.error("stdin"))
    };
    let read = read_all(&mut stream, &mut last_line, &mut unanswered);
    if let Some(row) = agent {
        read?;
        return finish_agent(args, file, row, &mut stream);
    }
    if let Err(e) = read {
        // The consumer still gets a last line: the stream ends here, unread.
        stream.seq += 1;
        let (seq, bytes) = (stream.seq, stream.bytes);
        stream.write_failure(seq, bytes, &e.to_string(), args.write)?;
        return Err(e);
    }
    if let Some(dialect) = stream.other_dialect() {
        stream.seq += 1;
        let (seq, bytes) = (stream.seq, stream.bytes);
        let shot = match snapshot(
            &stream.dialect_file,
            dialect,
            stream.live.text(),
            !args.partial,
        ) {
            Ok(shot) => shot,
            Err(e) => {
                // The consumer still gets a last line, with the reason
                // (and, under `--write`, that nothing was written).
                let not_written = report::WriteJson::new(report::WriteState::NotApplied);
                let line = report::DialectStreamLine {
                    seq,
                    bytes,
                    is_final: true,
                    dialect,
                    ok: false,
                    error: Some(&e.to_string()),
                    new_content_length: None,
                    blocks: report::DialectBlocks::Edit(Vec::new()),
                    new_content: stream.with_content.then_some(None),
                    write: args.write.then_some(&not_written),
                };
                report::write_line(&mut stream.buf, &mut stream.out, &line)
                    .map_err(Error::stdout)?;
                return Err(e);
            }
        };
        if let super::stream_dialect::Snapshot::Patch(outcome, _) = &shot {
            for warning in crate::source::patch::loose_warnings(outcome) {
                eprintln!("{warning}");
            }
        }
        let content = shot.new_content().filter(|_| shot.error().is_none());
        let original = stream.dialect_file.original();
        let doubts = match (&shot, content) {
            (_, None) => Vec::new(),
            (super::stream_dialect::Snapshot::Patch(outcome, _), Some(_)) => {
                let mut doubts = Vec::new();
                if args.write && !args.force {
                    doubts = crate::source::patch::loose_holds(outcome);
                }
                doubts.extend(super::apply_dialect::patch_doubts(
                    file,
                    original,
                    stream.live.text(),
                )?);
                doubts
            }
            (super::stream_dialect::Snapshot::Edit { .. }, Some(_)) => {
                super::apply_dialect::edit_doubts(file, original, stream.live.text())?
            }
        };
        let doubts = super::commit::weigh(args.write, args.force, doubts, &[file]);
        let commit = args.write.then(|| match content {
            Some(content) => Commit::run_on(file, doubts, || {
                let expected = stream.dialect_file.original().map(str::as_bytes);
                Ok(crate::output::write_atomic(
                    file,
                    content.as_bytes(),
                    expected,
                )?)
            }),
            None => Commit::not_applied(),
        });
        let mut line = shot.line(dialect, seq, bytes, true, stream.with_content);
        line.write = commit.as_ref().map(|c| &c.json);
        report::write_line(&mut stream.buf, &mut stream.out, &line).map_err(Error::stdout)?;
        return match commit {
            Some(commit) => commit.status(),
            None => Ok(if content.is_some() { 0 } else { 1 }),
        };
    }
    if stream.session.outcome(false).blocks.is_empty() {
        super::load::warn_no_block(
            args.diff.as_deref(),
            &format!("the reference returns {} unchanged", file.display()),
        );
    }
    let outcome = stream.session.outcome(!args.partial);
    let (diff, original) = (stream.session.text(), stream.session.original());
    super::doubts::print(diff, original, &outcome.blocks, !args.partial);
    stream.seq += 1;
    let (seq, bytes, with_content) = (stream.seq, stream.bytes, stream.with_content);
    let commit = args.write.then(|| match &outcome.result {
        Ok(applied) => {
            let options = crate::engine::Options {
                version: args.engine.version(),
                is_final: true,
            };
            let (diff, index) = (stream.session.text(), stream.session.index());
            let diagnoses = crate::diagnose::diagnose_indexed(diff, index, options, &outcome);
            let doubts = crate::diagnose::doubt::held_back(
                &file.display().to_string(),
                diff,
                &diagnoses,
                &outcome.blocks,
                index.text(),
                [applied.new_content.as_str()],
            );
            let doubts = super::commit::weigh(true, args.force, doubts, &[file]);
            Commit::run_on(file, doubts, || {
                super::load::write_result(file, &applied.new_content, stream.session.original())
            })
        }
        Err(_) => Commit::not_applied(),
    });
    let write = commit.as_ref().map(|c| &c.json);
    stream.write_outcome(&outcome, seq, bytes, true, with_content, write)?;
    match commit {
        Some(commit) => commit.status(),
        None => Ok(if outcome.result.is_ok() { 0 } else { 1 }),
    }
}

/// The end of `apply FILE --stream --dialect NAME` for an agent's own
/// matcher, whose updates are [`report::CallStreamLine`]s (each edit's old
/// text as far as it has arrived, found exactly once, several times, or not
/// exactly): the agent's own result of the whole input as the last line
/// (`apply --json`'s report with `seq`, `bytes` and `"final": true`;
/// `--write` as `apply --write`).
fn finish_agent<W: Write>(
    args: &ApplyArgs,
    file: &Path,
    row: &'static DialectRow,
    stream: &mut Stream<W>,
) -> CmdResult {
    let (text, bytes, seq) = (stream.live.text(), stream.bytes, stream.seq);
    if row.input_of(text).is_none() {
        // Cut off (or never JSON): a last line still says so, as for
        // srview's own dialects, and nothing is written.
        let why = format!(
            "--dialect {}: the input is not a whole JSON object (the tool input as the model \
             sends it)",
            row.value
        );
        let mut line = serde_json::json!({
            "bytes": bytes,
            "dialect": row.value,
            "error": why,
            "final": true,
            "ok": false,
            "seq": seq + 1,
        });
        if args.write {
            line["write"] =
                serde_json::to_value(report::WriteJson::new(report::WriteState::NotApplied))
                    .unwrap_or_default();
        }
        report::write_line(&mut stream.buf, &mut stream.out, &line).map_err(Error::stdout)?;
        return Err(Error::usage(why));
    }
    super::apply_call::run_with(args, file, text, row, Some((seq + 1, bytes)))
}

struct Stream<W: Write> {
    session: Session,
    decoder: TextDecoder,
    /// The diff as received, when `--fix-model-output` rewrites it per update.
    raw: String,
    fix_path: Option<PathBuf>,
    bytes: usize,
    seq: usize,
    with_content: bool,
    /// The line being written, reused from line to line.
    buf: Vec<u8>,
    out: W,
    /// The input's dialect (forced, or decided once by the text) and the
    /// text of any other than SEARCH/REPLACE.
    live: LiveInput,
    dialect_file: DialectFile,
}

impl<W: Write> Stream<W> {
    /// Takes bytes read; true when they completed new text (false when they
    /// end inside a character and nothing before it was new).
    fn take(&mut self, bytes: &[u8]) -> Result<bool, Error> {
        self.bytes += bytes.len();
        let text = self.decoder.push(bytes).map_err(|e| e.error("stdin"))?;
        if text.is_empty() {
            return Ok(false);
        }
        self.add(&text);
        Ok(true)
    }

    fn add(&mut self, text: &str) {
        if self
            .live
            .push(text)
            .is_some_and(|r| r != Reading::SearchReplace)
        {
            // Another dialect: the engine's session is not asked again.
            return;
        }
        match &self.fix_path {
            // The reference fixes the whole diff-so-far each time; an entity
            // cut in half makes that a rewrite, which restarts the session.
            Some(path) => {
                self.raw.push_str(text);
                let fixed = engine::fixes::engine_input(&self.raw, path, true);
                self.session.set_text(&fixed);
            }
            None => self.session.push(text),
        }
    }

    /// The dialect of the text so far when it is one of srview's own
    /// other than SEARCH/REPLACE.
    fn other_dialect(&self) -> Option<Dialect> {
        match self.live.other() {
            Some(Reading::Builtin(dialect)) => Some(dialect),
            _ => None,
        }
    }

    /// Writes the line for everything received so far, in partial mode.
    fn write_update(&mut self) -> Result<(), Error> {
        self.seq += 1;
        // The bytes this update describes: a character cut by the read is
        // held back until its second half arrives.
        let bytes = self.bytes - self.decoder.pending();
        if let Some(Reading::Agent(row)) = self.live.other() {
            let edits = self.live.arriving_edits(self.dialect_file.original());
            let line = report::CallStreamLine {
                bytes,
                dialect: row.value,
                edits: edits
                    .into_iter()
                    .map(|e| report::PrefixEdit {
                        index: e.index,
                        found: e.found,
                        lines: e.lines,
                        arriving: e.arriving,
                    })
                    .collect(),
                is_final: false,
                seq: self.seq,
            };
            return report::write_line(&mut self.buf, &mut self.out, &line).map_err(Error::stdout);
        }
        if let Some(dialect) = self.other_dialect() {
            let shot = snapshot(&self.dialect_file, dialect, self.live.text(), false)?;
            let line = shot.line(dialect, self.seq, bytes, false, self.with_content);
            return report::write_line(&mut self.buf, &mut self.out, &line).map_err(Error::stdout);
        }
        if self.with_content {
            let outcome = self.session.outcome(false);
            return self.write_outcome(&outcome, self.seq, bytes, false, true, None);
        }
        let summary = self.session.summary(false);
        let (ok, len, error) = match &summary.result {
            Ok(len) => (true, Some(*len), None),
            Err(e) => (false, None, Some(e.message.as_str())),
        };
        let line = StreamLine {
            seq: self.seq,
            bytes,
            is_final: false,
            ok,
            error,
            new_content_length: len,
            match_indices: &summary.match_indices,
            blocks: &summary.blocks,
            new_content: None,
            write: None,
        };
        write_line(&mut self.buf, &mut self.out, &line)
    }

    /// A last line for a stream that could not be read to its end (with
    /// `write`: nothing was written).
    fn write_failure(
        &mut self,
        seq: usize,
        bytes: usize,
        why: &str,
        write: bool,
    ) -> Result<(), Error> {
        let not_written = report::WriteJson::new(report::WriteState::NotApplied);
        let line = StreamLine {
            seq,
            bytes,
            is_final: true,
            ok: false,
            error: Some(why),
            new_content_length: None,
            match_indices: &[],
            blocks: &[],
            new_content: None,
            write: write.then_some(&not_written),
        };
        write_line(&mut self.buf, &mut self.out, &line)
    }

    fn write_outcome(
        &mut self,
        outcome: &Outcome,
        seq: usize,
        bytes: usize,
        is_final: bool,
        with_content: bool,
        write: Option<&report::WriteJson>,
    ) -> Result<(), Error> {
        let (ok, len, indices, error, content): (_, _, &[usize], _, _) = match &outcome.result {
            Ok(a) => (
                true,
                Some(a.new_content.len()),
                &a.match_indices,
                None,
                Some(a.new_content.as_str()),
            ),
            Err(e) => (false, None, &[], Some(e.message.as_str()), None),
        };
        let line = StreamLine {
            seq,
            bytes,
            is_final,
            ok,
            error,
            new_content_length: len,
            match_indices: indices,
            blocks: &outcome.blocks,
            new_content: with_content.then_some(content),
            write,
        };
        write_line(&mut self.buf, &mut self.out, &line)
    }
}

/// Writes `line` at once (see [`report::write_line`]).
fn write_line(buf: &mut Vec<u8>, out: &mut impl Write, line: &StreamLine) -> Result<(), Error> {
    report::write_line(buf, out, line).map_err(Error::stdout)
}

/// Where the diff comes from: stdin or a file, read on this thread.
enum Source {
    Stdin(std::io::Stdin),
    File(std::fs::File),
}

impl Source {
    fn open(diff: Option<&Path>) -> Result<Self, Error> {
        match diff {
            Some(p) if p != Path::new("-") => std::fs::File::open(p)
                .map(Source::File)
                .map_err(|e| Error::read(p.display(), e)),
            _ => Ok(Source::Stdin(std::io::stdin())),
        }
    }

    fn read(&mut self, buf: &mut [u8]) -> Result<usize, Error> {
        loop {
            // Stdin's own buffer stays empty: a read as large as it goes
            // straight to the descriptor, so `poll` sees all that is waiting.
            let got = match self {
                Source::Stdin(s) => s.read(buf),
                Source::File(f) => f.read(buf),
            };
            match got {
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(Error::read("diff", e)),
            }
        }
    }

    /// Waits until a read would not block (data, end of input or an error
    /// to report), at most `limit` (`None`: as long as it takes). False
    /// when the time ran out first.
    #[cfg(unix)]
    fn readable_within(&self, limit: Option<Duration>) -> Result<bool, Error> {
        use std::os::fd::AsRawFd;
        let fd = match self {
            Source::Stdin(s) => s.as_raw_fd(),
            Source::File(f) => f.as_raw_fd(),
        };
        // Rounded up: waking before the line is due would only wait again.
        let timeout = limit.map_or(-1, |d| {
            i32::try_from(d.as_micros().div_ceil(1000)).unwrap_or(i32::MAX)
        });
        let mut pfd = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: one valid `pollfd`, and its count.
        let rc = unsafe { libc::poll(&mut pfd, 1, timeout) };
        if rc < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                // Let the caller look at the clock and wait again.
                return Ok(false);
            }
            return Err(Error::read("the diff", e));
        }
        // POLLIN, POLLHUP (the writer is gone), POLLERR, POLLNVAL: the read
        // tells which.
        Ok(rc > 0)
    }

    /// Without `poll`: a read blocks, so a line is due only after one.
    #[cfg(not(unix))]
    fn readable_within(&self, _limit: Option<Duration>) -> Result<bool, Error> {
        Ok(true)
    }
}
