//! Parsing an apply_patch text exactly as Codex 0.169.0 does, with its
//! lenient forms and its error texts; and the same parser over a prefix of
//! a text that is still streaming.

use super::model::{Chunk, ChunkLine, LineKind, Patch, Section};

// The format's markers, as Codex spells them: Cline's parser reads the
// same ones, OpenCode's the ones without a path (it reads the headers
// without their space).
/// The patch's first line.
pub const BEGIN: &str = "*** Begin Patch";
/// The patch's last line.
pub const END: &str = "*** End Patch";
/// A new file's header, before its path.
pub const ADD: &str = "*** Add File: ";
/// A deleted file's header, before its path.
pub const DELETE: &str = "*** Delete File: ";
/// An updated file's header, before its path.
pub const UPDATE: &str = "*** Update File: ";
/// An updated file's new path, after its header.
pub const MOVE_TO: &str = "*** Move to: ";
/// A hunk's lines end at the end of the file.
pub const END_OF_FILE: &str = "*** End of File";
const HEREDOC_OPENERS: [&str; 3] = ["<<EOF", "<<'EOF'", "<<\"EOF\""];

/// Why the reference rejects a patch text before touching any file. The
/// `Display` text is the reference's, word for word (without the final
/// newline it prints after it).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// The first line is not `*** Begin Patch` (nor a heredoc around it).
    #[error("Invalid patch: The first line of the patch must be '{BEGIN}'")]
    FirstLine,
    /// The last line is not `*** End Patch`, or text follows an early one.
    #[error("Invalid patch: The last line of the patch must be '{END}'")]
    LastLine,
    /// A section or chunk is malformed. `line` counts `*** Begin Patch` as 1.
    #[error("Invalid patch hunk on line {line}: {problem}")]
    Hunk {
        /// 1-based line of the patch body (`*** Begin Patch` is line 1).
        line: usize,
        /// What is wrong there.
        problem: HunkProblem,
    },
}

/// What is wrong at a line of the patch body. `Display` is the
/// reference's text for it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HunkProblem {
    /// A top-level line that is no file header (trimmed text).
    #[error(
        "'{0}' is not a valid hunk header. Valid hunk headers: \
         '*** Add File: {{path}}', '*** Delete File: {{path}}', '*** Update File: {{path}}'"
    )]
    NotAHeader(String),
    /// An Update section without a chunk (its path).
    #[error("Update file hunk for path '{0}' is empty")]
    EmptyUpdate(String),
    /// A chunk after the first one without its `@@` line (the line).
    #[error("Expected update hunk to start with a @@ context marker, got: '{0}'")]
    MissingContextMarker(String),
    /// The first line of a chunk is not a chunk line (the line).
    #[error(
        "Unexpected line found in update hunk: '{0}'. Every line should start with \
         ' ' (context line), '+' (added line), or '-' (removed line)"
    )]
    UnexpectedLine(String),
    /// `@@` followed by no chunk line.
    #[error("Update hunk does not contain any lines")]
    EmptyChunk,
}

/// What is known of a patch that may still be streaming.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PartialPatch {
    /// The sections whose header line has arrived, with the lines known so far.
    pub sections: Vec<Section>,
    /// The last section (and its last chunk) may still grow.
    pub last_unfinished: bool,
    /// `*** End Patch` has arrived.
    pub ended: bool,
    /// The known lines are already invalid, whatever follows. The sections
    /// before the error are kept.
    pub error: Option<ParseError>,
}

/// One body line: its text (one more trailing `\r` dropped) and numbers.
#[derive(Debug, Clone, Copy)]
struct Line<'a> {
    text: &'a str,
    /// 1-based line in the patch text as given.
    raw: usize,
    /// 1-based line as the reference counts it (`*** Begin Patch` is 1).
    counted: usize,
}

/// Parses a complete patch text as the reference does.
pub fn parse(text: &str) -> Result<Patch, ParseError> {
    let leading_lines = leading_newlines(text);
    let all: Vec<&str> = text.trim().lines().collect();
    let (begin_index, body_end) = match strict_boundaries(&all) {
        Ok(()) => (0, all.len().saturating_sub(1)),
        Err(strict_error) => {
            let heredoc = all.len() >= 4
                && HEREDOC_OPENERS.contains(&all[0])
                && all.last().is_some_and(|l| l.ends_with("EOF"));
            if !heredoc {
                return Err(strict_error);
            }
            strict_boundaries(&all[1..all.len() - 1])?;
            (1, all.len() - 2)
        }
    };
    let lines = body_lines(&all, begin_index, body_end, leading_lines);
    let mut parser = Parser {
        lines: &lines,
        pos: 0,
        streaming: false,
    };
    let mut sections = Vec::new();
    match parser.sections(&mut sections)? {
        Stop::EndPatch => {
            let rest = &lines[parser.pos + 1..];
            if rest.iter().any(|l| !l.text.trim().is_empty()) {
                return Err(ParseError::LastLine);
            }
        }
        Stop::OutOfLines { .. } => {}
    }
    Ok(Patch { sections })
}

/// Parses the prefix of a patch that is still arriving: the sections and
/// chunks whose lines are known (a last line without its newline is not
/// known yet, unless it is `*** End Patch`). A text that parses whole is
/// that parse, `ended`. An unfinished text is never an error; lines that
/// are wrong whatever follows are. Never panics.
pub fn parse_partial(prefix: &str) -> PartialPatch {
    // A padded `*** End Patch` inside an Update section is a context line,
    // unless it is the patch's last line (or the last before a heredoc's
    // `EOF`): only a text that ends there can say which, and as it stands
    // it is the one-shot parse's.
    if let Ok(patch) = parse(prefix) {
        return PartialPatch {
            sections: patch.sections,
            last_unfinished: false,
            ended: true,
            error: None,
        };
    }
    let leading_lines = leading_newlines(prefix);
    let trimmed = prefix.trim_start();
    let mut all: Vec<&str> = trimmed.lines().collect();
    if !trimmed.ends_with('\n') && all.last().is_some_and(|l| l.trim() != END) {
        all.pop();
    }
    let mut partial = PartialPatch::default();
    let Some(first) = all.first() else {
        return partial;
    };
    let begin_index = if first.trim() == BEGIN {
        0
    } else if HEREDOC_OPENERS.contains(first) {
        match all.get(1) {
            None => return partial,
            Some(second) if second.trim() == BEGIN => 1,
            Some(_) => {
                partial.error = Some(ParseError::FirstLine);
                return partial;
            }
        }
    } else {
        partial.error = Some(ParseError::FirstLine);
        return partial;
    };
    let lines = body_lines(&all, begin_index, all.len(), leading_lines);
    let mut parser = Parser {
        lines: &lines,
        pos: 0,
        streaming: true,
    };
    match parser.sections(&mut partial.sections) {
        Ok(Stop::EndPatch) => partial.ended = true,
        Ok(Stop::OutOfLines { unfinished }) => partial.last_unfinished = unfinished,
        Err(error) => partial.error = Some(error),
    }
    partial
}

/// Number of line breaks in the white space `trim` drops at the start.
fn leading_newlines(text: &str) -> usize {
    let leading = text.len() - text.trim_start().len();
    text[..leading].matches('\n').count()
}

fn strict_boundaries(lines: &[&str]) -> Result<(), ParseError> {
    let first = lines.first().map(|l| l.trim());
    let last = lines.last().map(|l| l.trim());
    match (first, last) {
        (Some(first), Some(last)) if first == BEGIN && last == END && lines.len() >= 2 => Ok(()),
        (Some(first), _) if first != BEGIN => Err(ParseError::FirstLine),
        _ => Err(ParseError::LastLine),
    }
}

/// The lines after the Begin line at `begin_index`, up to `body_end`
/// (excluded), each with one more trailing `\r` dropped.
fn body_lines<'a>(
    all: &[&'a str],
    begin_index: usize,
    body_end: usize,
    leading_lines: usize,
) -> Vec<Line<'a>> {
    let start = begin_index + 1;
    all.get(start..body_end.max(start))
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, text)| Line {
            text: text.strip_suffix('\r').unwrap_or(text),
            raw: leading_lines + begin_index + i + 2,
            counted: i + 2,
        })
        .collect()
}

/// Why the section loop stopped.
enum Stop {
    /// At `*** End Patch` (`pos` is on it).
    EndPatch,
    /// The lines ran out; `unfinished` when the last section may still grow.
    OutOfLines { unfinished: bool },
}

struct Parser<'l, 'a> {
    lines: &'l [Line<'a>],
    pos: usize,
    /// The lines are a prefix of a text still arriving: running out of them
    /// is not an error anywhere.
    streaming: bool,
}

impl Parser<'_, '_> {
    fn sections(&mut self, sections: &mut Vec<Section>) -> Result<Stop, ParseError> {
        let mut unfinished = false;
        while let Some(line) = self.lines.get(self.pos).copied() {
            let header = line.text.trim();
            if header == END {
                return Ok(Stop::EndPatch);
            }
            let (section, may_grow) = if let Some(path) = header.strip_prefix(ADD) {
                self.pos += 1;
                let mut content = String::new();
                while let Some(added) = self
                    .lines
                    .get(self.pos)
                    .and_then(|l| l.text.strip_prefix('+'))
                {
                    content.push_str(added);
                    content.push('\n');
                    self.pos += 1;
                }
                let section = Section::Add {
                    path: path.to_string(),
                    content,
                    header_line: line.raw,
                };
                (section, true)
            } else if let Some(path) = header.strip_prefix(DELETE) {
                self.pos += 1;
                let section = Section::Delete {
                    path: path.to_string(),
                    header_line: line.raw,
                };
                (section, false)
            } else if let Some(path) = header.strip_prefix(UPDATE) {
                self.pos += 1;
                (self.update(path, line)?, true)
            } else {
                return Err(ParseError::Hunk {
                    line: line.counted,
                    problem: HunkProblem::NotAHeader(header.to_string()),
                });
            };
            sections.push(section);
            unfinished = may_grow && self.pos >= self.lines.len();
        }
        Ok(Stop::OutOfLines { unfinished })
    }

    /// The body of an Update section; `pos` is on the line after its header.
    fn update(&mut self, path: &str, header: Line<'_>) -> Result<Section, ParseError> {
        let mut move_to = None;
        let mut chunks: Vec<Chunk> = Vec::new();
        let mut after_eof_chunk = false;
        while let Some(line) = self.lines.get(self.pos).copied() {
            let text = line.text.trim_end();
            if text.starts_with(ADD)
                || text.starts_with(DELETE)
                || text.starts_with(UPDATE)
                || text == END
            {
                break;
            }
            if chunks.is_empty() {
                if text == END_OF_FILE {
                    self.pos += 1;
                    continue;
                }
                if move_to.is_none()
                    && let Some(destination) = text.strip_prefix(MOVE_TO)
                {
                    move_to = Some(destination.to_string());
                    self.pos += 1;
                    continue;
                }
            }
            if after_eof_chunk && text.is_empty() {
                self.pos += 1;
                continue;
            }
            let chunk = self.chunk(chunks.is_empty())?;
            after_eof_chunk = chunk.is_eof;
            chunks.push(chunk);
        }
        if chunks.is_empty() && !(self.streaming && self.pos >= self.lines.len()) {
            return Err(ParseError::Hunk {
                line: header.counted,
                problem: HunkProblem::EmptyUpdate(path.to_string()),
            });
        }
        Ok(Section::Update {
            path: path.to_string(),
            move_to,
            chunks,
            header_line: header.raw,
        })
    }

    /// One chunk; `pos` is on its `@@` line (or its first line).
    fn chunk(&mut self, first: bool) -> Result<Chunk, ParseError> {
        let line = self.lines[self.pos];
        let marker = line.text.trim_end();
        let (context, header_line) = if marker == "@@" {
            self.pos += 1;
            (None, Some(line.raw))
        } else if let Some(context) = marker.strip_prefix("@@ ") {
            self.pos += 1;
            (Some(context.to_string()), Some(line.raw))
        } else if first {
            (None, None)
        } else {
            return Err(ParseError::Hunk {
                line: line.counted,
                problem: HunkProblem::MissingContextMarker(line.text.to_string()),
            });
        };
        let mut chunk = Chunk {
            context,
            header_line,
            lines: Vec::new(),
            is_eof: false,
        };
        loop {
            let Some(line) = self.lines.get(self.pos).copied() else {
                if chunk.lines.is_empty() && !self.streaming {
                    // The line after `@@` is the final `*** End Patch`.
                    let counted = self.lines.last().map_or(2, |l| l.counted + 1);
                    return Err(empty_chunk(counted));
                }
                break;
            };
            let text = line.text;
            if text.trim_end() == END_OF_FILE {
                if chunk.lines.is_empty() {
                    return Err(empty_chunk(line.counted));
                }
                chunk.is_eof = true;
                self.pos += 1;
                break;
            }
            let (kind, rest) = match text.chars().next() {
                None => (LineKind::Context, ""),
                Some(' ') => (LineKind::Context, &text[1..]),
                Some('+') => (LineKind::Added, &text[1..]),
                Some('-') => (LineKind::Removed, &text[1..]),
                Some(_) => {
                    if !chunk.lines.is_empty() {
                        break;
                    }
                    if text.trim_end() == END {
                        return Err(empty_chunk(line.counted));
                    }
                    return Err(ParseError::Hunk {
                        line: line.counted,
                        problem: HunkProblem::UnexpectedLine(text.trim_end().to_string()),
                    });
                }
            };
            chunk.lines.push(ChunkLine {
                kind,
                text: rest.to_string(),
                patch_line: line.raw,
            });
            self.pos += 1;
        }
        Ok(chunk)
    }
}

fn empty_chunk(line: usize) -> ParseError {
    ParseError::Hunk {
        line,
        problem: HunkProblem::EmptyChunk,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_the_reference_s() {
        assert_eq!(
            parse("").unwrap_err().to_string(),
            "Invalid patch: The last line of the patch must be '*** End Patch'"
        );
        assert_eq!(
            parse("```\n*** Begin Patch\n*** End Patch\n```").unwrap_err(),
            ParseError::FirstLine
        );
        let bad_header = parse("*** Begin Patch\n*** Frob File: a\n*** End Patch").unwrap_err();
        assert_eq!(
            bad_header.to_string(),
            "Invalid patch hunk on line 2: '*** Frob File: a' is not a valid hunk header. \
             Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', \
             '*** Update File: {path}'"
        );
        let empty = parse("*** Begin Patch\n*** Update File: a\n*** End Patch").unwrap_err();
        assert_eq!(
            empty.to_string(),
            "Invalid patch hunk on line 2: Update file hunk for path 'a' is empty"
        );
        let no_lines = parse("*** Begin Patch\n*** Update File: a\n@@\n*** End Patch").unwrap_err();
        assert_eq!(no_lines, empty_chunk(4));
    }

    #[test]
    fn lenient_forms_are_accepted() {
        let text = "<<'EOF'\n  *** Begin Patch\n*** Update File: a.txt  \r\n*** Move to: b.txt\n\
                    @@ \n-x\r\r\n+y\n*** End of File\n \n*** End Patch\nEOF\n";
        let patch = parse(text).expect("a heredoc-wrapped patch");
        let [
            Section::Update {
                path,
                move_to,
                chunks,
                header_line,
            },
        ] = &patch.sections[..]
        else {
            panic!("one update section: {patch:?}");
        };
        assert_eq!(
            (path.as_str(), move_to.as_deref(), *header_line),
            ("a.txt", Some("b.txt"), 3)
        );
        assert_eq!(chunks.len(), 1);
        assert!(chunks[0].is_eof && chunks[0].context.is_none());
        assert_eq!(chunks[0].old_lines(), ["x"]);
        assert_eq!(chunks[0].new_lines(), ["y"]);
        assert_eq!(chunks[0].patch_lines(), [5, 7]);
    }

    #[test]
    fn an_unfinished_text_is_no_error() {
        let full = "*** Begin Patch\n*** Add File: n.txt\n+one\n+two\n*** End Patch\n";
        for cut in 0..=full.len() {
            let partial = parse_partial(&full[..cut]);
            assert_eq!(partial.error, None, "cut at {cut}");
            assert!(partial.sections.len() <= 1);
        }
        let streaming = parse_partial("*** Begin Patch\n*** Add File: n.txt\n+one\n+tw");
        assert!(streaming.last_unfinished && !streaming.ended);
        assert!(
            matches!(&streaming.sections[..], [Section::Add { content, .. }] if content == "one\n")
        );
        assert_eq!(parse_partial("<<EOF\n").error, None);
        assert_eq!(parse_partial("hello\n").error, Some(ParseError::FirstLine));
        let wrong = parse_partial("*** Begin Patch\n*** Delete File: a\nnope\n");
        assert_eq!(wrong.sections.len(), 1);
        assert!(matches!(
            wrong.error,
            Some(ParseError::Hunk { line: 3, .. })
        ));
    }
}
