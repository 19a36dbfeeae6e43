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
//! the same way before and after), a blockquote's fences. A fence inside
//! a list item is not read either ([`list_item_fences`]): CommonMark closes
//! it when its item ends, which this reading does not follow, and read as
//! a top-level fence it pairs the fences below wrongly (a tester's find,
//! round 42c, 03: the closing ```` ```` ```` of an untouched block was
//! blamed for opening one); the top-level fences around it are read.

/// How [`FenceOpen::fault`] (and [`FenceOpen::describe`]) begin: what
/// tells a [`super::layout::LayoutBreak`] of a fence from one of a quote.
const FENCE_FAULT: &str = "as written, the Markdown file's code fences";

/// A code fence an edit leaves open.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FenceOpen {
    /// The fence's line (1-based) in the file after the edit.
    pub line: usize,
    /// The fence as written (its run of backticks or tildes).
    pub fence: String,
    /// The file's last line (1-based) after the edit.
    pub last: usize,
    /// For a block that closes, but further than before: the line
    /// (1-based) of its closing fence, and of the fence past which it now
    /// runs (one the edit did not change, whose role changed: it opened
    /// or closed a block before, and is text in this one now).
    pub runs_past: Option<(usize, usize)>,
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
        if let Some((close, past)) = self.runs_past {
            return format!(
                "{FENCE_FAULT} were all closed before, and the {} fence at line {} now opens a \
                 code block that runs to line {close}, past the fence at line {past} that \
                 bounded a code block before: {} render as code",
                self.fence,
                self.line,
                crate::words::line_range(
                    "line",
                    self.line + 1,
                    close.saturating_sub(1).max(self.line + 1)
                )
            );
        }
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
    if !markdown_name(path) {
        return None;
    }
    let (old_roles, old_blocks) = read(original);
    if old_blocks.iter().any(|b| b.2.is_none()) {
        return None;
    }
    let (new_roles, new_blocks) = read(result);
    let last = result.lines().count();
    if let Some((line, fence, _)) = new_blocks.iter().find(|b| b.2.is_none()) {
        return Some(FenceOpen {
            line: line + 1,
            fence: fence.clone(),
            last,
            runs_past: None,
        });
    }
    // A fence the edit did not change (after the changed lines), whose
    // role changed: the block the edit left runs past it.
    let (_, _, _, suffix) = crate::textdiff::changed_lines(original, result);
    let past = (1..=suffix).find(|k| {
        old_roles[old_roles.len() - k] != new_roles[new_roles.len() - k]
            && old_roles[old_roles.len() - k] != Role::Text
    })?;
    let at = new_roles.len() - past;
    let (line, fence, close) = new_blocks
        .iter()
        .find(|b| b.0 < at && b.2.is_some_and(|c| c >= at))?;
    Some(FenceOpen {
        line: line + 1,
        fence: fence.clone(),
        last,
        runs_past: close.map(|c| (c + 1, at + 1)),
    })
}

/// What a line is to a CommonMark reading of fences.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// It opens a code block.
    Opens,
    /// It closes one.
    Closes,
    /// Anything else: text, or a line inside a block.
    Text,
}

/// Each line's role in `text`, and its code blocks: the opening line
/// (0-based), the fence, the closing line (`None`: open to the end).
#[allow(clippy::type_complexity)]
fn read(text: &str) -> (Vec<Role>, Vec<(usize, String, Option<usize>)>) {
    let (roles, blocks, _) = read_with_comment(text);
    (roles, blocks)
}

/// [`read`], and the line (0-based) of an HTML comment `<!--` opening an
/// HTML block outside code that nothing closes (CommonMark 4.6, type 2:
/// it runs to the end of the document).
#[allow(clippy::type_complexity)]
fn read_with_comment(
    text: &str,
) -> (
    Vec<Role>,
    Vec<(usize, String, Option<usize>)>,
    Option<usize>,
) {
    let mut comment_at: Option<usize> = None;
    let mut roles = Vec::new();
    let mut blocks: Vec<(usize, String, Option<usize>)> = Vec::new();
    let mut open: Option<(char, usize)> = None;
    let mut comment = false;
    let listed = list_item_fences(text);
    for (at, line) in text.lines().enumerate() {
        let mut role = Role::Text;
        match open {
            Some((c, run)) => {
                if let Some((d, len, after)) = fence_of(line)
                    && d == c
                    && len >= run
                    && after.is_empty()
                {
                    open = None;
                    role = Role::Closes;
                    if let Some(b) = blocks.last_mut() {
                        b.2 = Some(at);
                    }
                }
            }
            None if comment => comment = !line.contains("-->"),
            None => {
                let trimmed = line.trim_start_matches(' ');
                if line.len() - trimmed.len() <= 3 && trimmed.starts_with("<!--") {
                    comment = !trimmed[4..].contains("-->");
                    comment_at = Some(at);
                } else if let Some((c, run, info)) = fence_of(line)
                    && !(c == '`' && info.contains('`'))
                    && !listed.get(at).copied().unwrap_or(false)
                {
                    open = Some((c, run));
                    role = Role::Opens;
                    blocks.push((at, c.to_string().repeat(run), None));
                }
            }
        }
        roles.push(role);
    }
    (roles, blocks, comment_at.filter(|_| comment))
}

/// The HTML comment `<!--` that `result` (the Markdown file `path` after
/// an edit) leaves open to its end, where `original` had none open (a
/// tester's find, round 46 T-16: the rest of a README is hidden when
/// rendered): its line (1-based) and the file's last line. `None` for
/// another file.
pub fn comment_left_open(path: &str, original: &str, result: &str) -> Option<(usize, usize)> {
    if !markdown_name(path) || read_with_comment(original).2.is_some() {
        return None;
    }
    let line = read_with_comment(result).2?;
    Some((line + 1, result.lines().count()))
}

/// The sentence of [`comment_left_open`]'s find, with what to send.
pub fn comment_open_said(line: usize, last: usize) -> String {
    format!(
        "{}: close it with `-->` in the new text",
        comment_open_fault(line, last)
    )
}

/// [`comment_open_said`] without what to send.
pub fn comment_open_fault(line: usize, last: usize) -> String {
    let rest = if last > line {
        format!(
            "everything after it ({}) is hidden when the file is rendered",
            crate::words::line_range("line", line + 1, last)
        )
    } else {
        "it runs to the end of the file".to_string()
    };
    format!(
        "as written, the Markdown file's HTML comments were all closed before, and the `<!--` \
         at line {line} opens one nothing closes: {rest}"
    )
}

/// For each line of `text`, whether it is a fence inside a list item: a
/// run of three or more backticks or tildes opening the line (after any
/// indentation) indented at least to the content of a list item's line
/// above (`- `, `* `, `+ `, `1. `, `1) `: the nearest non-blank line above
/// indented less; its content's column, past the marker and the spaces
/// after it, CommonMark's 5.2), or right after a list marker (`- ```sh`).
fn list_item_fences(text: &str) -> Vec<bool> {
    let mut out = Vec::new();
    let fenced = |rest: &str| {
        let rest = rest.trim_start_matches([' ', '\t']);
        ["```", "~~~"].iter().any(|f| rest.starts_with(f))
    };
    // The non-blank lines read that a later line may still find as the
    // nearest one indented less than itself: their indentation (rising
    // from the bottom) and a list item's content column. A line drops
    // those indented as much or more than itself: any later line indented
    // more than one of them is indented more than it, and it is nearer.
    let mut lines: Vec<(usize, Option<usize>)> = Vec::new();
    for line in text.lines() {
        let line = line.strip_suffix('\r').unwrap_or(line);
        let body = line.trim_start_matches([' ', '\t']);
        let indent = line[..line.len() - body.len()]
            .chars()
            .map(|c| if c == '\t' { 4 } else { 1 })
            .sum::<usize>();
        let item = list_marker(body);
        let marked = item.is_some_and(fenced);
        let below = fenced(body)
            && lines
                .iter()
                .rev()
                .find(|(i, _)| *i < indent)
                .and_then(|(_, content)| *content)
                .is_some_and(|content| indent >= content);
        out.push(marked || below);
        if !body.is_empty() {
            let content = item.map(|after| {
                let spaces = after.len() - after.trim_start_matches(' ').len();
                let spaces = if (1..=4).contains(&spaces) { spaces } else { 1 };
                indent + body.len() - after.len() + spaces
            });
            while lines.last().is_some_and(|(i, _)| *i >= indent) {
                lines.pop();
            }
            lines.push((indent, content));
        }
    }
    out
}

/// What follows a list item's marker (`- `, `* `, `+ `, `1. `, `1) `) that
/// `body` (a line without its indentation) opens with; `None` for a line
/// that opens no list item.
fn list_marker(body: &str) -> Option<&str> {
    let digits = body.len() - body.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let marker = match body.as_bytes().first()? {
        b'-' | b'*' | b'+' => 1,
        _ if (1..=9).contains(&digits)
            && matches!(body.as_bytes().get(digits), Some(b'.' | b')')) =>
        {
            digits + 1
        }
        _ => return None,
    };
    let after = &body[marker..];
    (after.is_empty() || after.starts_with([' ', '\t'])).then_some(after)
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
#[cfg(test)]
fn open_fence(text: &str) -> Option<(usize, String)> {
    let (_, blocks) = read(text);
    blocks
        .into_iter()
        .find(|b| b.2.is_none())
        .map(|(line, fence, _)| (line + 1, fence))
}

#[cfg(test)]
mod tests {
    use super::{comment_left_open, comment_open_said, fence_left_open, open_fence};
    use crate::diagnose::doubt::test_edits::check_edit;

    /// A tester's find (round 46, T-16): a `<!--` left open in a README
    /// hides the rest of it (CommonMark's HTML block type 2 runs to the
    /// end); one closed, one inside a code block, or one the file already
    /// held open is not said.
    #[test]
    fn an_html_comment_left_open_in_markdown_is_said() {
        let md = "# Title\n\nIntro text.\n\n## Usage\n\nRun it.\n";
        let open = md.replace("Intro text.\n", "Intro text.\n\n<!-- TODO: expand\n");
        assert_eq!(comment_left_open("r.md", md, &open), Some((5, 9)));
        assert_eq!(
            comment_open_said(5, 9),
            "as written, the Markdown file's HTML comments were all closed before, and the \
             `<!--` at line 5 opens one nothing closes: everything after it (lines 6-9) is \
             hidden when the file is rendered: close it with `-->` in the new text"
        );
        assert_eq!(
            check_edit(
                comment_left_open,
                "r.md",
                md,
                "Intro text.\n",
                "Intro text.\n\n<!-- TODO -->\n"
            ),
            None
        );
        assert_eq!(
            check_edit(
                comment_left_open,
                "r.md",
                md,
                "Run it.\n",
                "```html\n<!-- x\n```\nRun it.\n"
            ),
            None
        );
        assert_eq!(
            comment_left_open("r.md", &open, &format!("{open}More.\n")),
            None
        );
        assert_eq!(comment_left_open("r.txt", md, &open), None);
    }

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

    /// A closing fence dropped before another block whose opener has an
    /// info string: the file ends balanced, but the first block runs to
    /// the second's closer, swallowing the text between (seen in the
    /// sweep: clap's examples).
    #[test]
    fn a_closing_fence_dropped_before_another_block_is_doubted() {
        let two = "# A\n\n```console\n$ a\n```\n\nText.\n\n```console\n$ b\n```\n\nEnd.\n";
        let open =
            check_edit(fence_left_open, "a.md", two, "$ a\n```\n", "$ a\n").expect("doubted");
        assert_eq!(
            open.fault(),
            "as written, the Markdown file's code fences were all closed before, and the ``` \
             fence at line 3 now opens a code block that runs to line 10, past the fence at \
             line 8 that bounded a code block before: lines 4-9 render as code"
        );
        assert_eq!(
            check_edit(fence_left_open, "a.md", two, "$ a\n", "$ a\n$ a2\n"),
            None
        );
        assert_eq!(
            check_edit(fence_left_open, "a.md", two, "```console\n$ a\n```\n", ""),
            None
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

    /// A fence inside a list item closes with its item (CommonMark 5.2);
    /// not read so here, it is not read at all rather than a fence blamed
    /// wrongly (a tester's find, round 42c, 03: the closing
    /// ```` ```` ```` of an untouched block was said to open one). A fence
    /// outside lists in the same shape of file still is.
    #[test]
    fn a_fence_in_a_list_item_is_not_read() {
        let guide = "# Guide\n\n1. Install:\n\n   ```sh\n   pip install tool\n   ```\n\n2. Configure.\n\n````markdown\nExample:\n```python\nprint(1)\n```\n````\n\nText after.\n";
        let dropped = guide.replace("   pip install tool\n   ```\n", "   pip install tool\n");
        assert_eq!(fence_left_open("f.md", guide, &dropped), None);
        for item in [
            "- ```sh\n  a\n  ```\n",
            "* step\n\n  ~~~\n  a\n  ~~~\n",
            "10) x\n    ```\n    ```\n",
        ] {
            assert!(super::list_item_fences(item).contains(&true), "{item}");
        }
        for text in [
            README,
            "Para\n  ```\n  a\n  ```\n",
            "- a\n\n```\nb\n```\n",
            "-x\n  ```\n",
            "1. x\n\n  ```\n  a\n  ```\n",
        ] {
            assert!(!super::list_item_fences(text).contains(&true), "{text}");
        }
        let top = dropped.replace("1. Install:", "Install:");
        let top_before = guide.replace("1. Install:", "Install:");
        assert!(fence_left_open("f.md", &top_before, &top).is_some());
        // The top-level fences around a list item's are read.
        let open =
            check_edit(fence_left_open, "f.md", guide, "```\n````\n", "```\n").expect("doubted");
        assert_eq!((open.line, open.fence.as_str()), (11, "````"));
    }
}
