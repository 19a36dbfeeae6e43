//! OpenCode's own patch parser (`Patch.parsePatch`, apply_patch.ts): the
//! Codex envelope read leniently. The text is trimmed, a heredoc wrapper
//! taken off, and split on `\n` only (a CRLF patch keeps its `\r`s).
//! Lines it does not know are skipped, silently: stray text between
//! sections, and in an update every line before the first `@@` and every
//! chunk line not starting with ` `, `-` or `+` (an empty line included).
//! Those it skips between lines it reads (inside a chunk, inside an added
//! file's lines) are recorded in [`Parsed::skipped`]: the text OpenCode
//! writes lacks them, though the model sent them.

use crate::dialect::apply_patch::parse::{BEGIN, END, END_OF_FILE};
use crate::dialect::opencode_edit::js::{is_space, trim};

/// One file section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Hunk {
    /// `*** Add File:`: the `+` lines joined by `\n`, no final newline.
    Add {
        /// The path as written.
        path: String,
        /// The file's text.
        contents: String,
    },
    /// `*** Delete File:`.
    Delete {
        /// The path as written.
        path: String,
    },
    /// `*** Update File:`, maybe with `*** Move to:` (an empty target is
    /// no move, as the tool reads it).
    Update {
        /// The path as written.
        path: String,
        /// The `*** Move to:` target.
        move_path: Option<String>,
        /// The `@@` chunks, in order.
        chunks: Vec<Chunk>,
    },
}

impl Hunk {
    /// The path as the patch names it.
    pub fn path(&self) -> &str {
        match self {
            Hunk::Add { path, .. } | Hunk::Delete { path } | Hunk::Update { path, .. } => path,
        }
    }
}

/// One `@@` chunk of an update.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chunk {
    /// The ` ` and `-` lines, in order, without their prefix.
    pub old_lines: Vec<String>,
    /// The ` ` and `+` lines.
    pub new_lines: Vec<String>,
    /// The `@@` header's text, trimmed, when not empty.
    pub change_context: Option<String>,
    /// `*** End of File` inside the chunk. OpenCode's chunk loop stops at
    /// any line starting with `***` before it looks for that marker, so
    /// this is never set; kept so the seek reads as OpenCode's.
    pub is_end_of_file: bool,
}

/// What `parsePatch` reads, and the lines it skips where they matter.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Parsed {
    /// `parsePatch(text).hunks`.
    pub hunks: Vec<Hunk>,
    /// Each line the parser skips between two lines it reads of the same
    /// chunk (or of the same added file), in patch order. Lines skipped
    /// before a chunk's first line or after its last (a blank line between
    /// sections) are not recorded: they change nothing the model meant.
    pub skipped: Vec<Skipped>,
    /// Each update's lines before its first `@@` that change the file
    /// (`-` or `+`), which the parser skips: their change is not written.
    pub headless: Vec<Headless>,
}

/// An update section's run of lines before its first `@@` line (or before
/// its end, with none): OpenCode reads a hunk only from an `@@` line, so it
/// skips them, and writes none of the change they hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headless {
    /// 0-based index into [`Parsed::hunks`].
    pub hunk: usize,
    /// 1-based lines of the patch text as sent: the first of the run and
    /// its last.
    pub lines: (usize, usize),
    /// How many of them start with `-`.
    pub removed: usize,
    /// How many of them start with `+`.
    pub added: usize,
}

/// A line of the patch that OpenCode's parser skips inside a chunk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// 1-based line of the patch text as sent (before any trim or heredoc
    /// wrapper was taken off).
    pub line: usize,
    /// The line's text.
    pub text: String,
    /// 0-based index into [`Parsed::hunks`].
    pub hunk: usize,
    /// 0-based chunk of that (update) section; 0 for an added file.
    pub chunk: usize,
    /// The read line right before it starts with `+`.
    pub after_added: bool,
    /// The read line right after it starts with `+`.
    pub before_added: bool,
}

/// The parser's one error text (the tool prefixes it with `Error: `).
pub const MISSING_MARKERS: &str = "Invalid patch format: missing Begin/End markers";

const ADD: &str = "*** Add File:";
const DELETE: &str = "*** Delete File:";
const UPDATE: &str = "*** Update File:";
const MOVE: &str = "*** Move to:";

/// `parsePatch(text)`: its hunks, and the lines it skips inside them.
pub fn parse_patch(text: &str) -> Result<Parsed, &'static str> {
    let body = strip_heredoc(trim(text));
    // `body` is a slice of `text`: the lines before it in `text`.
    let start = (body.as_ptr() as usize).saturating_sub(text.as_ptr() as usize);
    let lines_before = text.get(..start).map_or(0, |t| t.matches('\n').count());
    let lines: Vec<&str> = body.split('\n').collect();
    let begin = lines.iter().position(|l| trim(l) == BEGIN);
    let end = lines.iter().position(|l| trim(l) == END);
    let (Some(begin), Some(end)) = (begin, end) else {
        return Err(MISSING_MARKERS);
    };
    if begin >= end {
        return Err(MISSING_MARKERS);
    }
    let mut hunks = Vec::new();
    let mut skips: Vec<(usize, Vec<Gap>)> = Vec::new();
    let mut headless = Vec::new();
    let mut at = begin + 1;
    while at < end {
        let line = lines[at];
        if let Some(rest) = line.strip_prefix(ADD) {
            let path = trim(rest);
            if path.is_empty() {
                at += 1;
                continue;
            }
            let (contents, next, gaps) = add_contents(&lines, at + 1);
            skips.push((hunks.len(), gaps));
            hunks.push(Hunk::Add {
                path: path.to_string(),
                contents,
            });
            at = next;
        } else if let Some(rest) = line.strip_prefix(DELETE) {
            let path = trim(rest);
            if path.is_empty() {
                at += 1;
                continue;
            }
            hunks.push(Hunk::Delete {
                path: path.to_string(),
            });
            at += 1;
        } else if let Some(rest) = line.strip_prefix(UPDATE) {
            let path = trim(rest);
            let mut next = at + 1;
            let mut move_path = None;
            if let Some(target) = lines.get(next).and_then(|l| l.strip_prefix(MOVE)) {
                move_path = Some(trim(target).to_string());
                next += 1;
            }
            if path.is_empty() {
                at += 1;
                continue;
            }
            let (chunks, after, gaps) = update_chunks(&lines, next);
            headless.extend(
                headless_lines(&lines, next).map(|(first, last, removed, added)| Headless {
                    hunk: hunks.len(),
                    lines: (lines_before + first + 1, lines_before + last + 1),
                    removed,
                    added,
                }),
            );
            skips.push((hunks.len(), gaps));
            hunks.push(Hunk::Update {
                path: path.to_string(),
                move_path: move_path.filter(|m| !m.is_empty()),
                chunks,
            });
            at = after;
        } else {
            at += 1;
        }
    }
    let skipped = skips
        .into_iter()
        .flat_map(|(hunk, gaps)| gaps.into_iter().map(move |gap| (hunk, gap)))
        .flat_map(|(hunk, gap)| {
            let (first, last, chunk) = (gap.first, gap.last, gap.chunk);
            let added = |at: usize| lines.get(at).is_some_and(|l| l.starts_with('+'));
            let (after_added, before_added) = (added(first - 1), added(last + 1));
            (first..=last).map(move |at| (hunk, chunk, at, after_added, before_added))
        })
        .map(|(hunk, chunk, at, after_added, before_added)| Skipped {
            line: lines_before + at + 1,
            text: lines[at].to_string(),
            hunk,
            chunk,
            after_added,
            before_added,
        })
        .collect();
    Ok(Parsed {
        hunks,
        skipped,
        headless,
    })
}

/// The lines of an update from `start` (its first line after the header)
/// to its first `@@` line or its end (a line starting with `***`) that
/// carry a ` `, `-` or `+` prefix: the first and the last (0-based) and how
/// many remove and add; `None` when none of them removes or adds.
fn headless_lines(lines: &[&str], start: usize) -> Option<(usize, usize, usize, usize)> {
    let run = lines[start.min(lines.len())..]
        .iter()
        .take_while(|l| !l.starts_with("@@") && !l.starts_with("***"));
    let prefixed: Vec<(usize, char)> = run
        .enumerate()
        .filter_map(|(i, l)| {
            l.chars()
                .next()
                .filter(|c| matches!(c, ' ' | '-' | '+'))
                .map(|c| (start + i, c))
        })
        .collect();
    let count = |want: char| prefixed.iter().filter(|(_, c)| *c == want).count();
    let (removed, added) = (count('-'), count('+'));
    let (&(first, _), &(last, _)) = (prefixed.first()?, prefixed.last()?);
    (removed + added > 0).then_some((first, last, removed, added))
}

/// A run of skipped lines (`first..=last`, indices into the body's lines)
/// between two read lines of chunk `chunk`.
struct Gap {
    first: usize,
    last: usize,
    chunk: usize,
}

/// Records the lines skipped between read lines: `read(at)` for each line
/// read, `end()` where the chunk ends.
#[derive(Default)]
struct Gaps {
    gaps: Vec<Gap>,
    last_read: Option<usize>,
}

impl Gaps {
    fn read(&mut self, at: usize, chunk: usize) {
        if let Some(previous) = self.last_read
            && at > previous + 1
        {
            self.gaps.push(Gap {
                first: previous + 1,
                last: at - 1,
                chunk,
            });
        }
        self.last_read = Some(at);
    }

    fn end(&mut self) {
        self.last_read = None;
    }
}

/// OpenCode's `parseAddFileContent`: the `+` lines up to the next line
/// starting with `***` (other lines skipped), joined with `\n`.
fn add_contents(lines: &[&str], start: usize) -> (String, usize, Vec<Gap>) {
    let mut contents = String::new();
    let mut gaps = Gaps::default();
    let mut at = start;
    while at < lines.len() && !lines[at].starts_with("***") {
        if let Some(added) = lines[at].strip_prefix('+') {
            contents.push_str(added);
            contents.push('\n');
            gaps.read(at, 0);
        }
        at += 1;
    }
    if contents.ends_with('\n') {
        contents.pop();
    }
    (contents, at, gaps.gaps)
}

/// OpenCode's `parseUpdateFileChunks`: `@@` chunks up to the next line
/// starting with `***`.
fn update_chunks(lines: &[&str], start: usize) -> (Vec<Chunk>, usize, Vec<Gap>) {
    let mut chunks = Vec::new();
    let mut gaps = Gaps::default();
    let mut at = start;
    while at < lines.len() && !lines[at].starts_with("***") {
        let Some(header) = lines[at].strip_prefix("@@") else {
            at += 1;
            continue;
        };
        let context = trim(header);
        at += 1;
        gaps.end();
        let mut chunk = Chunk {
            change_context: (!context.is_empty()).then(|| context.to_string()),
            ..Chunk::default()
        };
        while at < lines.len() && !lines[at].starts_with("@@") && !lines[at].starts_with("***") {
            let line = lines[at];
            if line == END_OF_FILE {
                chunk.is_end_of_file = true;
                at += 1;
                break;
            }
            if let Some(kept) = line.strip_prefix(' ') {
                chunk.old_lines.push(kept.to_string());
                chunk.new_lines.push(kept.to_string());
                gaps.read(at, chunks.len());
            } else if let Some(removed) = line.strip_prefix('-') {
                chunk.old_lines.push(removed.to_string());
                gaps.read(at, chunks.len());
            } else if let Some(added) = line.strip_prefix('+') {
                chunk.new_lines.push(added.to_string());
                gaps.read(at, chunks.len());
            }
            at += 1;
        }
        chunks.push(chunk);
    }
    (chunks, at, gaps.gaps)
}

/// OpenCode's `stripHeredoc`: the body of
/// `^(?:cat\s+)?<<['"]?(\w+)['"]?\s*\n([\s\S]*?)\n\1\s*$` when `text`
/// (already trimmed, so it ends in no whitespace) matches, else `text`.
/// The delimiter's `\w+` takes every word character (what follows must
/// be a quote or whitespace); the closing delimiter must then end the
/// text; `\s*\n` ends at the last newline of the whitespace after the
/// opening line that still leaves the closing `\n` to the body's end.
pub fn strip_heredoc(text: &str) -> &str {
    let after_cat = text
        .strip_prefix("cat")
        .map(|rest| rest.trim_start_matches(is_space))
        .filter(|rest| rest.len() < text.len() - 3 && rest.starts_with("<<"));
    let Some(rest) = after_cat.or_else(|| text.starts_with("<<").then_some(text)) else {
        return text;
    };
    let rest = &rest[2..];
    let unquoted = rest.strip_prefix(['\'', '"']).unwrap_or(rest);
    let word_len = unquoted
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
        .count();
    if word_len == 0 {
        return text;
    }
    let delimiter = &unquoted[..word_len];
    let after_word = &unquoted[word_len..];
    let after_quote = after_word.strip_prefix(['\'', '"']).unwrap_or(after_word);
    let header_end = text.len() - after_quote.len();
    // The closing `\n<delimiter>` at the very end.
    let Some(closing) = text
        .strip_suffix(delimiter)
        .and_then(|t| t.strip_suffix('\n'))
        .map(str::len)
    else {
        return text;
    };
    if closing < header_end {
        return text;
    }
    let spaces = text[header_end..]
        .char_indices()
        .find(|&(_, c)| !is_space(c))
        .map_or(text.len(), |(i, _)| header_end + i);
    let newline = text[header_end..spaces.min(closing)].rfind('\n');
    match newline {
        Some(i) => &text[header_end + i + 1..closing],
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    #[test]
    fn heredoc_wrappers_are_taken_off() {
        assert_cases(
            strip_heredoc,
            &[
                ("cat <<'EOF'\nbody\nEOF", "body"),
                ("<<EOF\n\nEOF", ""),
                ("<<EOF\n\n\nx\nEOF", "x"),
                ("<<\"P\"  \n a\nP", " a"),
                ("cat<<EOF\nx\nEOF", "cat<<EOF\nx\nEOF"),
                ("<<EOF\nx\nEOFX", "<<EOF\nx\nEOFX"),
                ("<<EOF\nEOF", "<<EOF\nEOF"),
            ],
        );
    }

    #[test]
    fn unknown_lines_are_skipped_and_empty_context_is_none() {
        let parsed = parse_patch(
            "*** Begin Patch\nnoise\n*** Update File: a.txt\nstray\n@@\n a\n\n-b\n+c\n*** End Patch",
        )
        .expect("parses");
        assert_eq!(
            parsed.skipped,
            [Skipped {
                line: 7,
                text: String::new(),
                hunk: 0,
                chunk: 0,
                after_added: false,
                before_added: false,
            }]
        );
        assert_eq!(
            parsed.hunks,
            [Hunk::Update {
                path: "a.txt".into(),
                move_path: None,
                chunks: vec![Chunk {
                    old_lines: vec!["a".into(), "b".into()],
                    new_lines: vec!["a".into(), "c".into()],
                    change_context: None,
                    is_end_of_file: false,
                }],
            }]
        );
        assert_eq!(
            parse_patch("*** End Patch\n*** Begin Patch"),
            Err(MISSING_MARKERS)
        );
    }

    /// Lines skipped between read lines are recorded with their line in
    /// the text as sent (a heredoc wrapper and leading blank lines
    /// counted); those before a chunk's first line or after its last are
    /// not, and the hunks stay what OpenCode reads.
    #[test]
    fn lines_skipped_inside_a_chunk_or_an_added_file_are_recorded() {
        let text = "\n<<EOF\n*** Begin Patch\n*** Add File: n.md\n+a\n\n+b\n\n*** Update File: r.md\n@@\n\n x\n+y\nimport json\n\n+z\n\n@@\n-q\n\n*** End Patch\nEOF";
        let parsed = parse_patch(text).expect("parses");
        let found: Vec<(usize, &str, usize, usize, bool, bool)> = parsed
            .skipped
            .iter()
            .map(|s| {
                let Skipped {
                    line,
                    text,
                    hunk,
                    chunk,
                    after_added,
                    before_added,
                } = s;
                (
                    *line,
                    text.as_str(),
                    *hunk,
                    *chunk,
                    *after_added,
                    *before_added,
                )
            })
            .collect();
        assert_eq!(
            found,
            [
                (6, "", 0, 0, true, true),
                (14, "import json", 1, 0, true, true),
                (15, "", 1, 0, true, true),
            ]
        );
        assert_eq!(
            parsed.hunks[0],
            Hunk::Add {
                path: "n.md".into(),
                contents: "a\nb".into()
            }
        );
        let Hunk::Update { chunks, .. } = &parsed.hunks[1] else {
            panic!("an update: {:?}", parsed.hunks[1]);
        };
        assert_eq!(chunks[0].new_lines, ["x", "y", "z"]);
        assert_eq!(chunks[1].old_lines, ["q"]);
    }
}
