//! Cline's lenient patch parser (the SDK's `PatchParser`), with each
//! section matched as it is parsed (`parseUpdateFile` calls `findContext`).
//!
//! Where the shipped parser never returns (a section that consumes no line
//! while the file cursor is still 0: an empty line, `@@@`, `***`), the port
//! stops with [`ParseStop::Hang`] instead of looping.

use std::collections::BTreeMap;

use super::js;
use super::seek::{FileLines, find_context};
use super::stages;
pub use super::stages::{Chunk, Section};
use crate::dialect::apply_patch::parse::{ADD, BEGIN, DELETE, END, END_OF_FILE, MOVE_TO, UPDATE};
use crate::dialect::call::{Header, Searched};

/// What the patch does to one path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Update {
        chunks: Vec<Chunk>,
        /// The `*** Move to:` path; an empty one means no move.
        move_path: String,
    },
    Delete,
    Add {
        new_file: String,
    },
}

/// A section whose context was not found: the patch fails after parsing.
#[derive(Debug, Clone)]
pub struct Warning {
    pub path: String,
    /// Change blocks collected in that file before it (Cline's
    /// `chunkIndex`, printed plus one as the "hunk" number).
    pub chunk_index: usize,
    pub similarity: f64,
    /// The section's context lines joined, in UTF-16 code units (Cline cuts
    /// it at 200 units, which may split a surrogate pair).
    pub context: Vec<u16>,
}

/// Why parsing stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseStop {
    /// Cline's `DiffError` text.
    Error(String),
    /// The shipped parser would loop forever here.
    Hang,
}

/// The files Cline's `loadFiles` read, by the patch's own path text.
pub struct Loaded {
    pub contents: BTreeMap<String, String>,
}

impl Loaded {
    /// `path in currentFiles` on a plain JavaScript object.
    fn has(&self, path: &str) -> bool {
        self.contents.contains_key(path) || js::OBJECT_PROTOTYPE_NAMES.contains(&path)
    }
}

/// The parse: actions in insertion order, warnings, the total fuzz, every
/// section searched, and the header trims among the fuzz.
#[derive(Default)]
pub struct Parsed {
    pub actions: Vec<(String, Action)>,
    pub warnings: Vec<Warning>,
    pub fuzz: i64,
    pub header_trims: i64,
    pub sections: Vec<Section>,
}

/// Runs Cline's parser over the normalized patch lines. `parsed` keeps what
/// was found before a stop (the sections searched before a hang).
pub fn parse(lines: &[String], files: &Loaded, parsed: &mut Parsed) -> Result<(), ParseStop> {
    let mut parser = Parser {
        lines,
        files,
        out: parsed,
        index: 0,
    };
    parser.run()
}

struct Parser<'a> {
    lines: &'a [String],
    files: &'a Loaded,
    out: &'a mut Parsed,
    index: usize,
}

fn error<T>(text: String) -> Result<T, ParseStop> {
    Err(ParseStop::Error(text))
}

impl Parser<'_> {
    fn line(&self) -> Option<&str> {
        self.lines.get(self.index).map(String::as_str)
    }

    fn starts_with_any(&self, prefixes: &[&str]) -> bool {
        self.line()
            .is_some_and(|line| prefixes.iter().any(|p| line.starts_with(js::trim(p))))
    }

    fn run(&mut self) -> Result<(), ParseStop> {
        if self.line().is_some_and(|l| l.starts_with(BEGIN)) {
            self.index += 1;
        }
        while self.index < self.lines.len() && !self.line().is_some_and(|l| l.starts_with(END)) {
            self.next_action()?;
        }
        Ok(())
    }

    fn next_action(&mut self) -> Result<(), ParseStop> {
        let line = self.line().unwrap_or_default().to_string();
        if let Some(path) = line.strip_prefix(UPDATE) {
            return self.update(js::trim(path));
        }
        if let Some(path) = line.strip_prefix(DELETE) {
            return self.delete(js::trim(path));
        }
        if let Some(path) = line.strip_prefix(ADD) {
            return self.add(js::trim(path));
        }
        error(format!("Unknown line while parsing: {line}"))
    }

    /// `checkDuplicate`: `path in patch.actions`.
    fn check_duplicate(&self, path: &str, kind: &str) -> Result<(), ParseStop> {
        let present = js::OBJECT_PROTOTYPE_NAMES.contains(&path)
            || self.out.actions.iter().any(|(p, _)| p == path);
        if present {
            return error(format!("Duplicate {kind} for file: {path}"));
        }
        Ok(())
    }

    fn update(&mut self, path: &str) -> Result<(), ParseStop> {
        self.check_duplicate(path, "update")?;
        self.index += 1;
        let mut move_path = String::new();
        if self.line().is_some_and(|l| l.starts_with(MOVE_TO)) {
            let line = self.line().unwrap_or_default();
            move_path = js::trim(&line[MOVE_TO.len()..]).to_string();
            self.index += 1;
        }
        if !self.files.has(path) {
            return error(format!("Update File Error: Missing File: {path}"));
        }
        let content = self.files.contents.get(path).cloned().unwrap_or_default();
        let chunks = self.update_file(&content, path)?;
        self.out
            .actions
            .push((path.to_string(), Action::Update { chunks, move_path }));
        Ok(())
    }

    /// `parseUpdateFile`: sections until the next file marker, each located
    /// by its optional `@@` header and `findContext` from the cursor.
    fn update_file(&mut self, content: &str, path: &str) -> Result<Vec<Chunk>, ParseStop> {
        let file = FileLines::new(content);
        let mut chunks: Vec<Chunk> = Vec::new();
        let mut cursor: i64 = 0;
        let terminators = [END, UPDATE, DELETE, ADD, END_OF_FILE];
        while !self.starts_with_any(&terminators) {
            let index_before = self.index;
            let line = self.line().map(str::to_string);
            let header = line.as_deref().and_then(|l| l.strip_prefix("@@ "));
            if header.is_some() || line.as_deref() == Some("@@") {
                self.index += 1;
            } else if cursor != 0 {
                let shown = line.as_deref().unwrap_or("undefined");
                return error(format!("Invalid Line:\n{shown}"));
            }
            let mut sought = None;
            if let Some(header) = header.map(js::trim).filter(|h| !h.is_empty()) {
                let before = cursor;
                cursor = self.seek_header(&file, header, cursor);
                sought = Some(Header {
                    text: header.to_string(),
                    line: (cursor != before).then_some(cursor as usize),
                });
            }
            let from = cursor.max(0) as usize;
            let (context, section_chunks, next, eof) = peek(self.lines, self.index)?;
            let found = find_context(&file, &context, cursor, eof);
            if found.index == -1 {
                let joined: Vec<u16> = context.join("\n").encode_utf16().collect();
                self.out.warnings.push(Warning {
                    path: path.to_string(),
                    chunk_index: chunks.len(),
                    similarity: found.similarity,
                    context: joined,
                });
            } else {
                self.out.fuzz += found.fuzz;
                chunks.extend(section_chunks.iter().map(|chunk| Chunk {
                    orig_index: chunk.orig_index + found.index,
                    ..chunk.clone()
                }));
                cursor = found.index + context.len() as i64;
            }
            if self.index == index_before && next == index_before {
                // Nothing consumed, the cursor unchanged (still 0: any other
                // cursor threw above): every further turn is this one again.
                return Err(ParseStop::Hang);
            }
            self.index = next;
            let stage = stages::section_stage(&file, &context, found, eof);
            let mut edit = stages::edit_match(&file, &context, &section_chunks, found, &stage);
            if edit.found.is_some() {
                edit.searched = Some(Box::new(Searched {
                    content: None,
                    from,
                    header: sought,
                    at_end: eof,
                    file: Some(path.to_string()),
                    sought: Some(context.join("\n")),
                }));
            }
            self.out.sections.push(Section { stage, edit });
        }
        Ok(chunks)
    }

    /// An `@@ text` header: the first non-empty file line from the cursor
    /// whose canonical form, or that of its trimmed form, is the header's;
    /// the cursor moves after it, with fuzz 1 when only the trimmed form
    /// matched. Not found: nothing happens.
    fn seek_header(&mut self, file: &FileLines, header: &str, cursor: i64) -> i64 {
        let wanted = super::seek::canon(header);
        for i in cursor.max(0) as usize..file.len() {
            if file.lines[i].is_empty() {
                continue;
            }
            let whole = file.canon(i) == wanted;
            if whole || file.canon_trim(i) == wanted {
                if !whole {
                    self.out.fuzz += 1;
                    self.out.header_trims += 1;
                }
                return i as i64 + 1;
            }
        }
        cursor
    }

    fn delete(&mut self, path: &str) -> Result<(), ParseStop> {
        self.check_duplicate(path, "delete")?;
        if !self.files.has(path) {
            return error(format!("Delete File Error: Missing File: {path}"));
        }
        self.out.actions.push((path.to_string(), Action::Delete));
        self.index += 1;
        Ok(())
    }

    fn add(&mut self, path: &str) -> Result<(), ParseStop> {
        self.check_duplicate(path, "add")?;
        if self.files.has(path) {
            return error(format!("Add File Error: File already exists: {path}"));
        }
        self.index += 1;
        let mut lines: Vec<&str> = Vec::new();
        while self.index < self.lines.len() && !self.starts_with_any(&[END, UPDATE, DELETE, ADD]) {
            let line = &self.lines[self.index];
            self.index += 1;
            match line.strip_prefix('+') {
                Some(text) => lines.push(text),
                None => return error(format!("Invalid Add File line (missing '+'): {line}")),
            }
        }
        let new_file = lines.join("\n");
        self.out
            .actions
            .push((path.to_string(), Action::Add { new_file }));
        Ok(())
    }
}

/// Cline's `peek`: a section's lines from `start` until an empty line, a
/// line starting `@@` or a file marker, or `***`. `+`, `-` and ` ` lines are
/// added, deleted and kept; any other line is kept whole. Returns the
/// context (kept and deleted lines), the change blocks, the next line, and
/// whether an exact `*** End of File` line followed (consumed).
pub fn peek(
    lines: &[String],
    start: usize,
) -> Result<(Vec<String>, Vec<Chunk>, usize, bool), ParseStop> {
    #[derive(PartialEq, Clone, Copy)]
    enum Mode {
        Keep,
        Add,
        Delete,
    }
    let stops = ["@@", END, UPDATE, DELETE, ADD, END_OF_FILE];
    let mut index = start;
    let mut context: Vec<String> = Vec::new();
    let mut deleted: Vec<String> = Vec::new();
    let mut inserted: Vec<String> = Vec::new();
    let mut chunks: Vec<Chunk> = Vec::new();
    let mut mode = Mode::Keep;
    while index < lines.len() {
        let line = &lines[index];
        if line.is_empty() || stops.iter().any(|s| line.starts_with(js::trim(s))) {
            break;
        }
        if line == "***" {
            break;
        }
        if line.starts_with("***") {
            return error(format!("Invalid line: {line}"));
        }
        index += 1;
        let previous = mode;
        let text = match line.as_bytes()[0] {
            b'+' => {
                mode = Mode::Add;
                &line[1..]
            }
            b'-' => {
                mode = Mode::Delete;
                &line[1..]
            }
            b' ' => {
                mode = Mode::Keep;
                &line[1..]
            }
            _ => {
                mode = Mode::Keep;
                line.as_str()
            }
        };
        if mode == Mode::Keep && previous != mode {
            if !inserted.is_empty() || !deleted.is_empty() {
                chunks.push(Chunk {
                    orig_index: (context.len() - deleted.len()) as i64,
                    del_lines: std::mem::take(&mut deleted),
                    ins_lines: std::mem::take(&mut inserted),
                });
            }
            deleted.clear();
            inserted.clear();
        }
        match mode {
            Mode::Delete => {
                deleted.push(text.to_string());
                context.push(text.to_string());
            }
            Mode::Add => inserted.push(text.to_string()),
            Mode::Keep => context.push(text.to_string()),
        }
    }
    if !inserted.is_empty() || !deleted.is_empty() {
        chunks.push(Chunk {
            orig_index: (context.len() - deleted.len()) as i64,
            del_lines: deleted,
            ins_lines: inserted,
        });
    }
    if lines.get(index).is_some_and(|l| l == END_OF_FILE) {
        return Ok((context, chunks, index + 1, true));
    }
    Ok((context, chunks, index, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::lines;

    #[test]
    fn peek_splits_blocks_and_keeps_unprefixed_lines_whole() {
        let (context, chunks, next, eof) = peek(
            &lines("a\n-b\n+B\n c\n+d\n*** End of File\n*** End Patch"),
            0,
        )
        .unwrap();
        assert_eq!(context, ["a", "b", "c"]);
        assert_eq!(chunks.len(), 2);
        assert_eq!((chunks[0].orig_index, chunks[1].orig_index), (1, 3));
        assert_eq!((next, eof), (6, true));
        assert_eq!(
            peek(&lines("-a\n*** Moved: x"), 0),
            Err(ParseStop::Error("Invalid line: *** Moved: x".into()))
        );
    }

    fn run(patch: &str, files: &[(&str, &str)]) -> (Result<(), ParseStop>, Parsed) {
        let loaded = Loaded {
            contents: files
                .iter()
                .map(|(p, c)| (p.to_string(), c.to_string()))
                .collect(),
        };
        let mut parsed = Parsed::default();
        let result = parse(&lines(patch), &loaded, &mut parsed);
        (result, parsed)
    }

    #[test]
    fn an_empty_line_at_cursor_zero_hangs_elsewhere_fails() {
        let (result, _) = run(
            "*** Begin Patch\n*** Update File: a\n@@\n\n x\n*** End Patch",
            &[("a", "x\n")],
        );
        assert_eq!(result, Err(ParseStop::Hang));
        let (result, _) = run(
            "*** Begin Patch\n*** Update File: a\n@@\n x\n\n y\n*** End Patch",
            &[("a", "x\ny\n")],
        );
        assert_eq!(result, Err(ParseStop::Error("Invalid Line:\n".into())));
    }

    #[test]
    fn an_indented_header_costs_one_fuzz() {
        let (result, parsed) = run(
            "*** Begin Patch\n*** Update File: a\n@@     def f():\n-        x\n+        y\n*** End Patch",
            &[("a", "class A:\n    def f():\n        x\n")],
        );
        assert_eq!(result, Ok(()));
        assert_eq!((parsed.fuzz, parsed.header_trims), (1, 1));
    }

    #[test]
    fn object_prototype_names_are_duplicates() {
        let (result, _) = run(
            "*** Begin Patch\n*** Add File: toString\n+x\n*** End Patch",
            &[],
        );
        assert_eq!(
            result,
            Err(ParseStop::Error("Duplicate add for file: toString".into()))
        );
    }

    #[test]
    fn add_file_lines_need_a_plus() {
        let (result, parsed) = run(
            "*** Begin Patch\n*** Add File: n\n+a\n+b\n*** End Patch",
            &[],
        );
        assert_eq!(result, Ok(()));
        assert_eq!(
            parsed.actions,
            [(
                "n".to_string(),
                Action::Add {
                    new_file: "a\nb".into()
                }
            )]
        );
        let (result, _) = run("*** Begin Patch\n*** Add File: n\n+a\n\n*** End Patch", &[]);
        assert_eq!(
            result,
            Err(ParseStop::Error(
                "Invalid Add File line (missing '+'): ".into()
            ))
        );
    }
}
