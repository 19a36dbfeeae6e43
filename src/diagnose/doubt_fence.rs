//! *Pure.* An edit that leaves a Markdown file's fenced code block open (a
//! tester's find, round 42a, 19: the old text held a block's closing
//! ```` ``` ````, the new text not, and every heading, table and list after
//! it rendered as part of the code). The code-brace twin is
//! [`super::doubt_braces`]'s dropped `}`.
//!
//! Read as CommonMark reads a fence (spec 0.31, 4.5): a line indented by
//! at most 3 spaces, then a run of at least 3 backticks or 3 tildes, opens
//! a code block (a backtick fence's info string holds no backtick); inside
//! it, a line indented by at most 3 spaces holding only a run of the same
//! character at least as long as the opener (spaces and tabs after it)
//! closes it; nothing else does, and an open block runs to the end of the
//! document. Lines inside an HTML comment (`<!--` to `-->`, CommonMark's
//! HTML block 2) and blockquote lines (`>`) are not read as fences.
//!
//! The rule, by evidence only, for a file named `.md`, `.markdown`,
//! `.mdown`, `.mkd` or `.mdx`: the file before has every fence closed, and
//! the file after ends inside a code block. Not read: a fence a list item
//! indents (CommonMark ends it with the item; read to the file's end here,
//! the same way before and after), a blockquote's fences.

/// How [`FenceOpen::fault`] (and [`FenceOpen::describe`]) begin: what
/// tells a [`super::layout::LayoutBreak`] of a fence from one of a quote.
pub const FENCE_FAULT: &str = "as written, the Markdown file's code fences";

/// A code fence an edit leaves open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenceOpen {
    /// The fence's line (1-based) in the file after the edit.
    pub line: usize,
    /// The fence as written (its run of backticks or tildes).
    pub fence: String,
    /// The file's last line (1-based) after the edit.
    pub last: usize,
}

impl FenceOpen {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: keep the closing {} line in the new text, or add one after the block's last \
             line",
            self.fault(),
            self.fence
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let rest = if self.last > self.line {
            format!(
                "everything after it ({}) renders as code",
                crate::words::line_range("line", self.line + 1, self.last)
            )
        } else {
            "it runs to the end of the file".to_string()
        };
        format!(
            "{FENCE_FAULT} were all closed before, and the {} fence at line {} opens a code \
             block nothing closes: {rest}",
            self.fence, self.line
        )
    }
}

/// Whether `path` names a Markdown file this check reads.
pub fn markdown_name(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
    [".md", ".markdown", ".mdown", ".mkd", ".mdx"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The code fence `result` (the Markdown file `path` after an edit) leaves
/// open where `original` had every fence closed; `None` for another file.
pub fn fence_left_open(path: &str, original: &str, result: &str) -> Option<FenceOpen> {
    if !markdown_name(path) || open_fence(original).is_some() {
        return None;
    }
    let (line, fence) = open_fence(result)?;
    Some(FenceOpen {
        line,
        fence,
        last: result.lines().count(),
    })
}

/// A fence line's character, the length of its run and what follows the
/// run (trimmed); `None` for a line that is no fence.
fn fence_of(line: &str) -> Option<(char, usize, &str)> {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let c = rest.chars().next().filter(|c| matches!(c, '`' | '~'))?;
    let run = rest.len() - rest.trim_start_matches(c).len();
    (run >= 3).then(|| (c, run, rest[run..].trim()))
}

/// The fence (its line, 1-based, and its run) a CommonMark reading of
/// `text` ends inside; `None` when every fence is closed.
fn open_fence(text: &str) -> Option<(usize, String)> {
    let mut open: Option<(usize, char, usize)> = None;
    let mut comment = false;
    for (at, line) in text.lines().enumerate() {
        match open {
            Some((_, c, run)) => {
                if let Some((d, len, after)) = fence_of(line)
                    && d == c
                    && len >= run
                    && after.is_empty()
                {
                    open = None;
                }
            }
            None if comment => comment = !line.contains("-->"),
            None => {
                let trimmed = line.trim_start_matches(' ');
                if line.len() - trimmed.len() <= 3 && trimmed.starts_with("<!--") {
                    comment = !trimmed[4..].contains("-->");
                    continue;
                }
                if let Some((c, run, info)) = fence_of(line)
                    && !(c == '`' && info.contains('`'))
                {
                    open = Some((at + 1, c, run));
                }
            }
        }
    }
    open.map(|(line, c, run)| (line, c.to_string().repeat(run)))
}

#[cfg(test)]
mod tests {
    use super::{fence_left_open, open_fence};

    const README: &str = "# Cart\n\n## Usage\n\n```python\ncart = Cart()\nprint(cart.total())\n```\n\n## Options\n\n| name | what |\n|---|---|\n| x | y |\n\n- one\n- two\n";

    /// The tester's case (round 42a, 19): the closing fence dropped, the
    /// rest of the file renders as code; the sentence names the fence's
    /// line and the lines after it.
    #[test]
    fn a_dropped_closing_fence_is_doubted() {
        let after = README.replace(
            "print(cart.total())\n```\n",
            "print(cart.total())\nprint(cart.subtotal())\n",
        );
        let open = fence_left_open("README.md", README, &after).expect("doubted");
        assert_eq!((open.line, open.fence.as_str(), open.last), (5, "```", 17));
        assert_eq!(
            open.describe(),
            "as written, the Markdown file's code fences were all closed before, and the ``` \
             fence at line 5 opens a code block nothing closes: everything after it (lines \
             6-17) renders as code: keep the closing ``` line in the new text, or add one after \
             the block's last line"
        );
    }

    /// Ordinary edits stay allowed: a new block closed, a line in a
    /// block, a closer longer than its opener, a tilde fence holding
    /// backticks, an info string, a file that was open before, not
    /// Markdown.
    #[test]
    fn closed_fences_and_other_files_are_not_doubted() {
        let fine = [
            README.replace("## Options\n", "## Options\n\n```sh\nmake\n```\n"),
            README.replace("cart = Cart()\n", "cart = Cart()\ncart.add(1)\n"),
            README.replace("print(cart.total())\n```\n", "print(cart.total())\n`````\n"),
            README.replace("## Options\n", "~~~md\n```\n~~~\n"),
            README.replace("## Options\n", "<!--\n```\n-->\n"),
            README.replace("## Options\n", "    ```\n"),
            README.replace("## Options\n", "> ```\n"),
        ];
        for after in &fine {
            assert_eq!(fence_left_open("README.md", README, after), None, "{after}");
        }
        let broken = README.replace("print(cart.total())\n```\n", "print(cart.total())\n");
        assert_eq!(fence_left_open("notes.txt", README, &broken), None);
        assert_eq!(
            fence_left_open("a.md", &broken, &broken.replace("# Cart", "# Carts")),
            None
        );
        assert!(fence_left_open("docs/A.MDX", README, &broken).is_some());
    }

    /// CommonMark's closing rules: the same character, at least as long,
    /// nothing after it, at most 3 spaces before it; a backtick opener's
    /// info string holds no backtick.
    #[test]
    fn fences_close_the_commonmark_way() {
        assert_eq!(open_fence("````\na\n```\n"), Some((1, "````".into())));
        assert_eq!(open_fence("```\na\n~~~\n"), Some((1, "```".into())));
        assert_eq!(open_fence("```\na\n``` x\n"), Some((1, "```".into())));
        assert_eq!(open_fence("```\na\n    ```\n"), Some((1, "```".into())));
        assert_eq!(open_fence("```\na\n   ```  \n"), None);
        assert_eq!(open_fence("~~~\na\n~~~~~\n"), None);
        assert_eq!(open_fence("``` a`b\nx\n"), None);
        assert_eq!(open_fence("``\nx\n"), None);
        assert_eq!(
            open_fence("a\n\n```rust\nfn x() {}\n"),
            Some((3, "```".into()))
        );
    }
}
