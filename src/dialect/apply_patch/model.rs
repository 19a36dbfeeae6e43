//! What an apply_patch text says: file sections and their chunks.

use serde::Serialize;

/// A parsed patch: its file sections in patch order.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct Patch {
    /// The file sections, in patch order.
    pub sections: Vec<Section>,
}

/// One `*** Add File:` / `*** Delete File:` / `*** Update File:` section.
/// Paths are exactly as written in the patch (the reference prints them so).
/// `header_line` is the 1-based line of the section header in the patch
/// text as given (leading blank lines and a heredoc opener included).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Section {
    #[serde(rename_all = "camelCase")]
    /// `*** Add File:` with the new file's `+` lines.
    Add {
        /// The path as written.
        path: String,
        /// Every `+` line's text plus `\n`: an added file always ends in a newline.
        content: String,
        /// 1-based patch line of the section header.
        header_line: usize,
    },
    #[serde(rename_all = "camelCase")]
    /// `*** Delete File:` (`path` as written, `header_line` 1-based).
    Delete {
        /// The path as written.
        path: String,
        /// 1-based patch line of the section header.
        header_line: usize,
    },
    #[serde(rename_all = "camelCase")]
    /// `*** Update File:`, optionally moved, with its chunks.
    Update {
        /// The path as written.
        path: String,
        /// The `*** Move to:` path, as written.
        move_to: Option<String>,
        /// The `@@` hunks, in patch order.
        chunks: Vec<Chunk>,
        /// 1-based patch line of the section header.
        header_line: usize,
    },
}

impl Section {
    /// The section's path, as written in the patch (the source path for a move).
    pub fn path(&self) -> &str {
        match self {
            Section::Add { path, .. }
            | Section::Delete { path, .. }
            | Section::Update { path, .. } => path,
        }
    }

    /// 1-based patch line of the section's `*** ... File:` header.
    pub fn header_line(&self) -> usize {
        match self {
            Section::Add { header_line, .. }
            | Section::Delete { header_line, .. }
            | Section::Update { header_line, .. } => *header_line,
        }
    }
}

/// What a chunk line does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineKind {
    /// ` text` (or an empty line): must be in the file, stays as the file has it.
    Context,
    /// `-text`: must be in the file, goes away.
    Removed,
    /// `+text`: inserted.
    Added,
}

impl LineKind {
    /// The character that starts such a line in a patch.
    pub fn prefix(self) -> char {
        match self {
            LineKind::Context => ' ',
            LineKind::Removed => '-',
            LineKind::Added => '+',
        }
    }
}

/// One line of a chunk, without its prefix character.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChunkLine {
    /// Whether the line is context, removed or added.
    pub kind: LineKind,
    /// The line without its prefix character and line ending.
    pub text: String,
    /// 1-based line in the patch text as given.
    pub patch_line: usize,
}

/// One `@@` hunk of an Update section.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Chunk {
    /// The text after `@@ ` (right-trimmed), searched as a one-line pattern
    /// before the chunk's old lines. `None` for a bare `@@` or no header.
    pub context: Option<String>,
    /// 1-based patch line of the `@@` line; `None` when the first chunk has none.
    pub header_line: Option<usize>,
    /// The chunk's context, removed and added lines, in patch order.
    pub lines: Vec<ChunkLine>,
    /// Ended by `*** End of File`: the old lines must end the file.
    pub is_eof: bool,
}

impl Chunk {
    /// Context and removed lines, in order: what must be found in the file.
    pub fn old_lines(&self) -> Vec<&str> {
        self.lines_but(LineKind::Added)
    }

    /// Context and added lines, in order: what the file holds afterwards.
    pub fn new_lines(&self) -> Vec<&str> {
        self.lines_but(LineKind::Removed)
    }

    /// Context and added lines (every line but the removed), in order:
    /// the lines the file holds afterwards.
    pub fn new_side(&self) -> impl Iterator<Item = &ChunkLine> {
        self.lines.iter().filter(|l| l.kind != LineKind::Removed)
    }

    /// [`Chunk::new_side`], to rewrite.
    pub fn new_side_mut(&mut self) -> impl Iterator<Item = &mut ChunkLine> {
        self.lines
            .iter_mut()
            .filter(|l| l.kind != LineKind::Removed)
    }

    /// The texts of the lines of every kind but `left_out`, in order.
    fn lines_but(&self, left_out: LineKind) -> Vec<&str> {
        self.lines
            .iter()
            .filter(|l| l.kind != left_out)
            .map(|l| l.text.as_str())
            .collect()
    }

    /// The 1-based first and last patch lines of the chunk (header included).
    pub fn patch_lines(&self) -> [usize; 2] {
        let first = self
            .header_line
            .or_else(|| self.lines.first().map(|l| l.patch_line))
            .unwrap_or(0);
        let last = self.lines.last().map_or(first, |l| l.patch_line);
        [first, last]
    }
}
