//! The reference's update algorithm over one file's content: find each
//! chunk's `@@` line and old lines from where the previous chunk ended,
//! then replace, from each chunk's first changed line to its last, keeping
//! the file's own bytes for context and line endings.

use super::model::{Chunk, LineKind};
use super::outcome::{HeaderMatch, HunkReport, HunkState, LooseLine, PatchError};
use super::seek::seek;
use crate::engine::LineSpan;

/// One line of a file: its text and its own terminator (empty for a last
/// line without one).
struct FileLine<'a> {
    text: &'a str,
    end: &'a str,
}

impl AsRef<str> for FileLine<'_> {
    fn as_ref(&self) -> &str {
        self.text
    }
}

/// Splits at `\r\n`, `\n` and a lone `\r`, as the reference does.
fn split_lines(content: &str) -> Vec<FileLine<'_>> {
    let bytes = content.as_bytes();
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
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
        lines.push(FileLine {
            text: &content[start..i],
            end: &content[i..end],
        });
        start = end;
        i = end;
    }
    if start < content.len() {
        lines.push(FileLine {
            text: &content[start..],
            end: "",
        });
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
    let preferred_end = lines
        .first()
        .map_or("\n", |l| if l.end.is_empty() { "\n" } else { l.end });
    let mut cursor = 0;
    let mut replacements: Vec<Replacement<'_>> = Vec::new();
    for (index, chunk) in chunks.iter().enumerate() {
        let report = &mut hunks[index];
        let still_arriving = streaming && index + 1 == chunks.len();
        report.state = if still_arriving {
            HunkState::Streaming
        } else {
            HunkState::Failed
        };
        if let Some(context) = &chunk.context {
            match seek(&lines, &[context.as_str()], cursor, false) {
                Some((at, level)) => {
                    report.header = Some(HeaderMatch {
                        line: at + 1,
                        level,
                        differing: (lines[at].text != context).then(|| LooseLine {
                            line: at + 1,
                            file: lines[at].text.to_string(),
                            patch: context.clone(),
                        }),
                    });
                    cursor = at + 1;
                }
                None => {
                    let error = PatchError::ContextNotFound {
                        context: context.clone(),
                        path: shown.to_string(),
                    };
                    report.error = Some(error.to_string());
                    return Err(error);
                }
            }
        }
        // Which chunk lines are in the old and in the new sequence.
        let mut marks: Vec<(bool, bool)> = chunk
            .lines
            .iter()
            .map(|l| (l.kind != LineKind::Added, l.kind != LineKind::Removed))
            .collect();
        let old: Vec<&str> = chunk.old_lines();
        let start = if old.is_empty() {
            lines.len()
        } else {
            let mut found = seek(&lines, &old, cursor, chunk.is_eof);
            if found.is_none() && !still_arriving && old.last().is_some_and(|l| l.is_empty()) {
                drop_last(&mut marks, chunk, true);
                if chunk.new_lines().last().is_some_and(|l| l.is_empty()) {
                    drop_last(&mut marks, chunk, false);
                }
                let shorter = &old[..old.len() - 1];
                found = seek(&lines, shorter, cursor, chunk.is_eof);
                report.dropped_trailing_blank = found.is_some();
            }
            let Some((at, level)) = found else {
                if still_arriving {
                    break;
                }
                let error = PatchError::LinesNotFound {
                    path: shown.to_string(),
                    lines: old.join("\n"),
                };
                report.error = Some(error.to_string());
                return Err(error);
            };
            let matched_old: Vec<&str> = chunk
                .lines
                .iter()
                .zip(&marks)
                .filter(|(_, m)| m.0)
                .map(|(l, _)| l.text.as_str())
                .collect();
            report.level = (!matched_old.is_empty()).then_some(level);
            report.matched = Some(span(at, matched_old.len()));
            report.differing = matched_old
                .iter()
                .enumerate()
                .filter(|&(i, p)| lines[at + i].text != *p)
                .map(|(i, p)| LooseLine {
                    line: at + i + 1,
                    file: lines[at + i].text.to_string(),
                    patch: p.to_string(),
                })
                .collect();
            cursor = at + matched_old.len();
            at
        };
        if let Some(replacement) = replacement(chunk, &marks, start, index) {
            report.replaced = Some(span(replacement.start, replacement.old_len));
            replacements.push(replacement);
        }
        if !still_arriving {
            report.state = HunkState::Applied;
        }
    }
    replacements.sort_by_key(|r| r.start);
    let mut out: Vec<Out<'_>> = Vec::with_capacity(lines.len());
    let mut position = 0;
    for replacement in &replacements {
        out.extend((position..replacement.start.max(position)).map(Out::Original));
        hunks[replacement.hunk].replacement = Some(span(out.len(), replacement.lines.len()));
        out.extend(replacement.lines.iter().copied());
        position = position.max(replacement.start + replacement.old_len);
    }
    out.extend((position..lines.len()).map(Out::Original));
    let mut result = String::with_capacity(content.len());
    for line in out {
        match line {
            Out::Original(i) => {
                result.push_str(lines[i].text);
                result.push_str(if lines[i].end.is_empty() {
                    preferred_end
                } else {
                    lines[i].end
                });
            }
            Out::Added(text) => {
                result.push_str(text);
                result.push_str(preferred_end);
            }
        }
    }
    Ok(result)
}

/// Takes the last line of the old (`old`) or new sequence out of it.
fn drop_last(marks: &mut [(bool, bool)], chunk: &Chunk, old: bool) {
    let last = chunk
        .lines
        .iter()
        .zip(marks.iter())
        .rposition(|(_, m)| if old { m.0 } else { m.1 });
    if let Some(i) = last {
        if old {
            marks[i].0 = false;
        } else {
            marks[i].1 = false;
        }
    }
}

/// The chunk's change over the original lines matched from `start`: from
/// its first changed line to its last, context inside kept as the file has
/// it. `None` for a chunk that changes nothing.
fn replacement<'p>(
    chunk: &'p Chunk,
    marks: &[(bool, bool)],
    start: usize,
    hunk: usize,
) -> Option<Replacement<'p>> {
    let changed = |m: &(bool, bool)| m.0 != m.1;
    let first = marks.iter().position(changed)?;
    let last = marks.iter().rposition(changed)?;
    let mut old_index = start + marks[..first].iter().filter(|m| m.0).count();
    let replacement_start = old_index;
    let mut lines = Vec::new();
    for (line, mark) in chunk.lines[first..=last].iter().zip(&marks[first..=last]) {
        match *mark {
            (true, true) => lines.push(Out::Original(old_index)),
            (false, true) => lines.push(Out::Added(&line.text)),
            _ => {}
        }
        if mark.0 {
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
}
