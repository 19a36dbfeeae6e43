//! The reference's update algorithm over one file's content: find each
//! chunk's `@@` line and old lines from where the previous chunk ended,
//! then replace, from each chunk's first changed line to its last, keeping
//! the file's own bytes for context and line endings.

use super::model::{Chunk, LineKind};
use super::outcome::{HeaderMatch, HunkReport, HunkState, LooseLine, PatchError};
use super::seek::{MatchLevel, seek};
use crate::engine::LineSpan;

/// One line of a file: its text and its own terminator (empty for a last
/// line without one).
pub(super) struct FileLine<'a> {
    pub(super) text: &'a str,
    end: &'a str,
}

impl AsRef<str> for FileLine<'_> {
    fn as_ref(&self) -> &str {
        self.text
    }
}

/// Where each terminated line of `content` ends, split at `\r\n`, `\n` and
/// a lone `\r` as the reference does: (its text's end, its terminator's
/// end). A last line without a terminator is not given. (Searched a block
/// at a time ([`crate::dialect::quick::BytePlaces`]): a patch over a
/// 100,000-line file splits it several times.)
fn line_ends(content: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = content.as_bytes();
    let mut start = 0;
    crate::dialect::quick::BytePlaces::of_either(bytes, b'\n', b'\r').filter_map(move |i| {
        if i < start {
            // The `\n` of a `\r\n` ended the line before.
            return None;
        }
        start = match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
            _ => i + 1,
        };
        Some((i, start))
    })
}

/// The lines of `content` with their terminators ([`line_ends`]), sized to
/// its `\n` count.
pub(super) fn split_lines(content: &str) -> Vec<FileLine<'_>> {
    let mut lines = Vec::with_capacity(bytecount::count(content.as_bytes(), b'\n') + 1);
    let mut start = 0;
    for (text_end, end) in line_ends(content) {
        lines.push(FileLine {
            text: &content[start..text_end],
            end: &content[text_end..end],
        });
        start = end;
    }
    if start < content.len() {
        lines.push(FileLine {
            text: &content[start..],
            end: "",
        });
    }
    lines
}

/// `split_lines(content)`'s texts, without their terminators: one vector
/// of them (half the memory of the lines with their terminators, which a
/// copy of would build first: on a 10,000-line file that is 80 pages not
/// touched, each a page fault).
pub(super) fn line_texts(content: &str) -> Vec<&str> {
    let mut lines = Vec::with_capacity(bytecount::count(content.as_bytes(), b'\n') + 1);
    let mut start = 0;
    for (text_end, end) in line_ends(content) {
        lines.push(&content[start..text_end]);
        start = end;
    }
    if start < content.len() {
        lines.push(&content[start..]);
    }
    lines
}

/// A line of the result: an original line, or a patch line.
#[derive(Clone, Copy)]
enum Out<'p> {
    Original(usize),
    Added(&'p str),
}

/// One chunk's change: `old_len` original lines from `start` become `lines`.
struct Replacement<'p> {
    start: usize,
    old_len: usize,
    lines: Vec<Out<'p>>,
    hunk: usize,
}

/// Whether a chunk line is part of the old sequence (what must be found)
/// and of the new one (what the file holds afterwards): context is in
/// both, a removed line in the old, an added line in the new. The
/// reference's retry without a trailing empty line takes lines out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Mark {
    old: bool,
    new: bool,
}

impl Mark {
    fn changed(self) -> bool {
        self.old != self.new
    }
}

/// The new content of a file after `chunks`, as the reference computes
/// it, with each chunk's report filled in. `shown` is the file's path as
/// errors print it. With `streaming`, the last chunk is still arriving: it
/// is reported `streaming` and left out until its old lines are found.
pub(super) fn updated_content(
    content: &str,
    chunks: &[Chunk],
    streaming: bool,
    shown: &str,
    hunks: &mut [HunkReport],
) -> Result<String, PatchError> {
    let lines = split_lines(content);
    let mut cursor = 0;
    let mut replacements: Vec<Replacement<'_>> = Vec::new();
    for (index, (chunk, report)) in chunks.iter().zip(hunks.iter_mut()).enumerate() {
        let still_arriving = streaming && index + 1 == chunks.len();
        report.state = if still_arriving {
            HunkState::Streaming
        } else {
            HunkState::Failed
        };
        let failed = |report: &mut HunkReport, error: PatchError| {
            report.error = Some(error.to_string());
            Err(error)
        };
        if let Some(context) = &chunk.context {
            match find_header(&lines, context, cursor) {
                Some(header) => {
                    cursor = header.line;
                    report.header = Some(header);
                }
                None => {
                    let error = PatchError::ContextNotFound {
                        context: context.clone(),
                        path: shown.to_string(),
                    };
                    return failed(report, error);
                }
            }
        }
        let mut marks: Vec<Mark> = chunk
            .lines
            .iter()
            .map(|l| Mark {
                old: l.kind != LineKind::Added,
                new: l.kind != LineKind::Removed,
            })
            .collect();
        let start = if chunk.lines.iter().all(|l| l.kind == LineKind::Added) {
            // Nothing to find: the reference appends at the end of the file.
            lines.len()
        } else {
            match find_old_lines(&lines, chunk, &mut marks, cursor, !still_arriving) {
                Some(found) => {
                    report.elsewhere = elsewhere(&lines, chunk, &found, cursor, &report.header);
                    report.level = found.level;
                    report.matched = Some(span(found.start, found.len));
                    report.differing = found.differing;
                    report.dropped_trailing_blank = found.dropped_trailing_blank;
                    cursor = found.start + found.len;
                    found.start
                }
                None if still_arriving => break,
                None => {
                    let error = PatchError::LinesNotFound {
                        path: shown.to_string(),
                        lines: chunk.old_lines().join("\n"),
                    };
                    return failed(report, error);
                }
            }
        };
        if let Some(replacement) = replacement(chunk, &marks, start, index) {
            report.replaced = Some(span(replacement.start, replacement.old_len));
            replacements.push(replacement);
        }
        if !still_arriving {
            report.state = HunkState::Applied;
        }
    }
    Ok(assemble(&lines, &mut replacements, hunks))
}

/// Where an `@@` line is, from `cursor` on. Its `line` is 1-based, so it is
/// also where the chunk's old lines may start (0-based).
fn find_header(lines: &[FileLine<'_>], context: &str, cursor: usize) -> Option<HeaderMatch> {
    let (at, level) = seek(lines, &[context], cursor, false)?;
    // Asked only of a loose match (the engine runs on every streamed chunk).
    let alone = !level.is_loose()
        || lines
            .iter()
            .enumerate()
            .all(|(i, line)| i == at || !level.equal(line.text, context));
    Some(HeaderMatch {
        line: at + 1,
        level,
        alone,
        differing: (lines[at].text != context).then(|| LooseLine {
            line: at + 1,
            file: lines[at].text.to_string(),
            patch: context.to_string(),
        }),
    })
}

/// Where a chunk's old lines matched.
struct Found {
    /// 0-based first original line.
    start: usize,
    /// Old lines matched (one fewer after the retry).
    len: usize,
    /// `None` when nothing was left to compare after the retry.
    level: Option<MatchLevel>,
    differing: Vec<LooseLine>,
    dropped_trailing_blank: bool,
}

/// Finds a chunk's old lines from `cursor` (only at the end of the file for
/// an End-of-File chunk); failing that, and when `may_retry`, without a
/// trailing empty old line (and a trailing empty new line), as the
/// reference does, updating `marks`.
fn find_old_lines(
    lines: &[FileLine<'_>],
    chunk: &Chunk,
    marks: &mut [Mark],
    cursor: usize,
    may_retry: bool,
) -> Option<Found> {
    let old = chunk.old_lines();
    let mut found = seek(lines, &old, cursor, chunk.is_eof);
    let mut dropped_trailing_blank = false;
    if found.is_none() && may_retry && old.last().is_some_and(|l| l.is_empty()) {
        drop_last(marks, |m| &mut m.old);
        if chunk.new_lines().last().is_some_and(|l| l.is_empty()) {
            drop_last(marks, |m| &mut m.new);
        }
        found = seek(lines, &old[..old.len() - 1], cursor, chunk.is_eof);
        dropped_trailing_blank = true;
    }
    let (start, level) = found?;
    let matched: Vec<&str> = chunk
        .lines
        .iter()
        .zip(marks.iter())
        .filter(|(_, m)| m.old)
        .map(|(l, _)| l.text.as_str())
        .collect();
    let differing = matched
        .iter()
        .enumerate()
        .filter(|&(i, p)| lines[start + i].text != *p)
        .map(|(i, p)| LooseLine {
            line: start + i + 1,
            file: lines[start + i].text.to_string(),
            patch: p.to_string(),
        })
        .collect();
    Some(Found {
        start,
        len: matched.len(),
        level: (!matched.is_empty()).then_some(level),
        differing,
        dropped_trailing_blank,
    })
}

/// The other places where a chunk `found` only loosely fits as loosely
/// ([`super::seek::loose_places`]), searched from `cursor` as the
/// reference searched; for a chunk with an `@@` line (`header`), only
/// places after it that another of that line stands before (the reference
/// would find them under it too). Empty for an exact match.
fn elsewhere(
    lines: &[FileLine<'_>],
    chunk: &Chunk,
    found: &Found,
    cursor: usize,
    header: &Option<HeaderMatch>,
) -> Vec<usize> {
    let Some(level) = found.level.filter(|l| l.is_loose()) else {
        return Vec::new();
    };
    let old = chunk.old_lines();
    let old = &old[..found.len.min(old.len())];
    let places = super::seek::loose_places(lines, old, cursor, chunk.is_eof, level);
    let headers: Option<Vec<usize>> = match (&chunk.context, header) {
        (Some(context), Some(h)) => Some(super::seek::occurrences(
            lines,
            &[context.as_str()],
            h.line,
            false,
            h.level,
        )),
        _ => None,
    };
    places
        .into_iter()
        .filter(|&at| at != found.start)
        .filter(|&at| {
            headers
                .as_ref()
                .is_none_or(|hs| at > found.start && hs.iter().any(|&h| h < at))
        })
        .collect()
}

/// Takes the last line of one sequence (the flag `which` picks) out of it.
fn drop_last(marks: &mut [Mark], which: fn(&mut Mark) -> &mut bool) {
    if let Some(flag) = marks.iter_mut().rev().map(which).find(|flag| **flag) {
        *flag = false;
    }
}

/// The result: the original lines with the replacements in order of their
/// start (ties in chunk order), every line terminated: an original line by
/// its own ending (the file's first ending if it had none), an added line
/// by the file's first ending. Records where each replacement landed.
fn assemble(
    lines: &[FileLine<'_>],
    replacements: &mut [Replacement<'_>],
    hunks: &mut [HunkReport],
) -> String {
    let preferred_end = lines
        .first()
        .map_or("\n", |l| if l.end.is_empty() { "\n" } else { l.end });
    replacements.sort_by_key(|r| r.start);
    // Written as the lines come (no list of them first: on a 10,000-line
    // file that list and the result's regrowth were 140 pages touched),
    // into room for the file's lines and every added line.
    let room = lines
        .iter()
        .map(|l| l.text.len() + l.end.len().max(2))
        .sum::<usize>()
        + replacements
            .iter()
            .flat_map(|r| &r.lines)
            .map(|line| match line {
                Out::Original(_) => 0,
                Out::Added(text) => text.len() + 2,
            })
            .sum::<usize>();
    let mut result = String::with_capacity(room);
    let write = |result: &mut String, line: Out<'_>| {
        let (text, end) = match line {
            Out::Original(i) if !lines[i].end.is_empty() => (lines[i].text, lines[i].end),
            Out::Original(i) => (lines[i].text, preferred_end),
            Out::Added(text) => (text, preferred_end),
        };
        result.push_str(text);
        result.push_str(end);
    };
    let mut written = 0;
    let mut position = 0;
    for replacement in replacements.iter() {
        for i in position..replacement.start.max(position) {
            write(&mut result, Out::Original(i));
            written += 1;
        }
        hunks[replacement.hunk].replacement = Some(span(written, replacement.lines.len()));
        for &line in &replacement.lines {
            write(&mut result, line);
            written += 1;
        }
        position = position.max(replacement.start + replacement.old_len);
    }
    for i in position..lines.len() {
        write(&mut result, Out::Original(i));
    }
    result
}

/// The chunk's change over the original lines matched from `start`: from
/// its first changed line to its last, context inside kept as the file has
/// it. `None` for a chunk that changes nothing.
fn replacement<'p>(
    chunk: &'p Chunk,
    marks: &[Mark],
    start: usize,
    hunk: usize,
) -> Option<Replacement<'p>> {
    let first = marks.iter().position(|m| m.changed())?;
    let last = marks.iter().rposition(|m| m.changed())?;
    let mut old_index = start + marks[..first].iter().filter(|m| m.old).count();
    let replacement_start = old_index;
    let mut lines = Vec::new();
    for (line, mark) in chunk.lines[first..=last].iter().zip(&marks[first..=last]) {
        if mark.new {
            lines.push(if mark.old {
                Out::Original(old_index)
            } else {
                Out::Added(&line.text)
            });
        }
        if mark.old {
            old_index += 1;
        }
    }
    Some(Replacement {
        start: replacement_start,
        old_len: old_index - replacement_start,
        lines,
        hunk,
    })
}

/// 1-based lines `start + 1 ..= start + len` (empty: `end = start`).
fn span(start: usize, len: usize) -> LineSpan {
    LineSpan {
        start_line: start + 1,
        end_line: start + len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_at_every_terminator_and_keep_them() {
        let lines = split_lines("a\r\nb\rc\nd");
        let parts: Vec<(&str, &str)> = lines.iter().map(|l| (l.text, l.end)).collect();
        assert_eq!(parts, [("a", "\r\n"), ("b", "\r"), ("c", "\n"), ("d", "")]);
    }

    /// The byte-by-byte definition the SIMD split must agree with.
    fn split_by_bytes(content: &str) -> Vec<(&str, &str)> {
        let bytes = content.as_bytes();
        let (mut out, mut start, mut i) = (Vec::new(), 0, 0);
        while i < bytes.len() {
            let end = match bytes[i] {
                b'\n' => i + 1,
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => i + 2,
                b'\r' => i + 1,
                _ => {
                    i += 1;
                    continue;
                }
            };
            out.push((&content[start..i], &content[i..end]));
            (start, i) = (end, end);
        }
        if start < content.len() {
            out.push((&content[start..], ""));
        }
        out
    }

    proptest::proptest! {
        #[test]
        fn the_split_agrees_with_its_definition(s in "[ab\r\n é]{0,40}") {
            let parts: Vec<(&str, &str)> = split_lines(&s).iter().map(|l| (l.text, l.end)).collect();
            proptest::prop_assert_eq!(parts, split_by_bytes(&s));
        }

        /// Texts longer than the 64-byte blocks the places are found in.
        #[test]
        fn a_long_split_agrees_with_its_definition(s in "[ab\r\n é]{0,300}") {
            let parts: Vec<(&str, &str)> = split_lines(&s).iter().map(|l| (l.text, l.end)).collect();
            proptest::prop_assert_eq!(&parts, &split_by_bytes(&s));
            let texts: Vec<&str> = parts.iter().map(|(text, _)| *text).collect();
            proptest::prop_assert_eq!(line_texts(&s), texts);
        }
    }
}
