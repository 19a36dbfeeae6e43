//! What Aider's `strip_quoted_wrapping` cuts from a block's SEARCH and
//! REPLACE before matching ([`super::replace::strip_quoted_wrapping`] does
//! the cutting, exactly): a first line ending with the file's name, and a
//! first and last line opening and closing the chat's fence. Meant for a
//! model that repeats the file's name or its fence inside the block, the
//! cut takes real lines too (`COPY Dockerfile /src/Dockerfile`, a Markdown
//! code block's fences): the block then replaces or writes other lines
//! than it reads. srview's reading, not Aider's: the sentences saying so
//! ([`CallOutcome::dropped`](crate::dialect::call::CallOutcome::dropped)).

use super::parse::Fence;
use super::pytext::{splitlines, strip};

/// The lines `strip_quoted_wrapping` cuts from one text, each with its
/// 1-based line number in the text as the model sent it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Cut {
    /// The first line, cut because it ends with the file's name.
    pub name_line: Option<(usize, String)>,
    /// The first and last line (after the name line), cut because they
    /// open and close the chat's fence.
    pub fences: Vec<(usize, String)>,
}

impl Cut {
    fn is_empty(&self) -> bool {
        self.name_line.is_none() && self.fences.is_empty()
    }

    fn lines(&self) -> impl Iterator<Item = &(usize, String)> {
        self.name_line.iter().chain(&self.fences)
    }
}

/// What `strip_quoted_wrapping(text, file_name, fence)` cuts from `text`
/// (the same tests, in the same order).
pub fn cut(text: &str, file_name: &str, fence: Fence) -> Cut {
    let mut out = Cut::default();
    let lines = splitlines(text);
    let Some(&first) = lines.first() else {
        return out;
    };
    let mut from = 0;
    if strip(first).ends_with(file_name) {
        out.name_line = Some((1, first.to_string()));
        from = 1;
    }
    let rest = &lines[from..];
    if let (Some(open), Some(close)) = (rest.first(), rest.last())
        && open.starts_with(fence.open)
        && close.starts_with(fence.close)
    {
        out.fences.push((from + 1, open.to_string()));
        if rest.len() >= 2 {
            out.fences.push((lines.len(), close.to_string()));
        }
    }
    out
}

/// One sentence per side of a block whose cut changes what the block does
/// to `content` (the file it applied to, as Aider read it), or none:
/// `search` and `replace` are the block's texts as the model sent them,
/// `result` the file as Aider leaves it. A cut that leaves the result the
/// model's own block gives (the same line kept on both sides), or that
/// takes from the SEARCH only lines the file does not hold (a file name or
/// fence the model repeated), is no doubt; a REPLACE line cut but not the
/// same line from the SEARCH is.
pub fn cut_sentences(
    content: &str,
    search: &str,
    replace: &str,
    result: &str,
    file_name: &str,
    fence: Fence,
) -> Vec<String> {
    let (from_search, from_replace) = (
        cut(search, file_name, fence),
        cut(replace, file_name, fence),
    );
    if from_search.is_empty() && from_replace.is_empty() {
        return Vec::new();
    }
    let whole = if content.is_empty() || content.ends_with('\n') {
        content.to_string()
    } else {
        format!("{content}\n")
    };
    // The model's own block, applied as it reads, gives what Aider wrote.
    if !search.is_empty() && whole.contains(search) && whole.replacen(search, replace, 1) == result
    {
        return Vec::new();
    }
    let in_file = |line: &str| whole.lines().any(|l| strip(l) == strip(line));
    let also_cut = |cut: &Cut, line: &str| cut.lines().any(|(_, l)| l == line);
    let mut out = Vec::new();
    let search_lost: Vec<&(usize, String)> = from_search
        .lines()
        .filter(|(_, line)| in_file(line) && !also_cut(&from_replace, line))
        .collect();
    if !search_lost.is_empty() {
        out.push(format!(
            "Aider cuts SEARCH {}, before matching ({}): {} of the file the block replaces \
             {} as {} {}: send the block starting one line earlier, that line unchanged in \
             SEARCH and REPLACE",
            said_lines(&search_lost),
            why(&from_search, &search_lost, file_name),
            one_or_more(&search_lost, "that line", "those lines"),
            one_or_more(&search_lost, "stays", "stay"),
            one_or_more(&search_lost, "it", "they"),
            one_or_more(&search_lost, "is", "are"),
        ));
    }
    let replace_lost: Vec<&(usize, String)> = from_replace
        .lines()
        .filter(|(_, line)| !also_cut(&from_search, line))
        .collect();
    if !replace_lost.is_empty() {
        out.push(format!(
            "Aider cuts REPLACE {}, before writing ({}): what it writes lacks {}: send the \
             block starting one line earlier, that line unchanged in SEARCH and REPLACE",
            said_lines(&replace_lost),
            why(&from_replace, &replace_lost, file_name),
            one_or_more(&replace_lost, "that line", "those lines"),
        ));
    }
    out
}

/// `one` where `lines` is one line, `more` otherwise (the words said of
/// the lines cut).
fn one_or_more<'a>(lines: &[&(usize, String)], one: &'a str, more: &'a str) -> &'a str {
    if lines.len() == 1 { one } else { more }
}

/// "line 1, `COPY Dockerfile /src/Dockerfile`", "lines 1 and 4, `a` and `b`".
fn said_lines(lines: &[&(usize, String)]) -> String {
    let numbers: Vec<String> = lines.iter().map(|(n, _)| n.to_string()).collect();
    // A line holding a backtick (a fence) is quoted as a string.
    let texts: Vec<String> = lines
        .iter()
        .map(|(_, l)| match l.contains('`') {
            true => format!("{l:?}"),
            false => format!("`{l}`"),
        })
        .collect();
    match lines.len() {
        1 => format!("line {}, {}", numbers[0], texts[0]),
        _ => format!("lines {}, {}", numbers.join(" and "), texts.join(" and ")),
    }
}

/// Why Aider cuts `lines` of a text whose cut is `cut`.
fn why(cut: &Cut, lines: &[&(usize, String)], file_name: &str) -> String {
    let named = cut
        .name_line
        .as_ref()
        .is_some_and(|name| lines.contains(&name));
    let fenced = cut.fences.iter().any(|fence| lines.contains(&fence));
    match (named, fenced) {
        (true, true) => format!(
            "a first line ending with the file's name, `{file_name}`, and a first and last \
             line opening and closing the chat's code fence, are taken for a wrapping"
        ),
        (true, false) => {
            format!(
                "a first line ending with the file's name, `{file_name}`, is taken for a wrapping"
            )
        }
        _ => "a first and last line opening and closing the chat's code fence are taken for a \
              wrapping"
            .to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dialect::aider_diff::parse::ALL_FENCES;

    const FENCE: Fence = ALL_FENCES[0];

    #[test]
    fn the_cut_is_strip_quoted_wrappings() {
        assert_eq!(cut("a = 1\n", "a.py", FENCE), Cut::default());
        assert_eq!(
            cut("# see a.py\nx\n", "a.py", FENCE).name_line,
            Some((1, "# see a.py".to_string()))
        );
        let fenced = cut("a.py\n```python\nx\n```\n", "a.py", FENCE);
        assert_eq!(
            fenced.fences,
            [(2, "```python".to_string()), (4, "```".to_string())]
        );
    }

    /// The Dockerfile's line the block deletes, cut from its SEARCH: said.
    #[test]
    fn a_search_line_of_the_file_cut_is_said() {
        let content = "FROM x\nCOPY Dockerfile /src/Dockerfile\nRUN a\n";
        let search = "COPY Dockerfile /src/Dockerfile\nRUN a\n";
        let replace = "RUN b\n";
        let result = "FROM x\nCOPY Dockerfile /src/Dockerfile\nRUN b\n";
        let said = cut_sentences(content, search, replace, result, "Dockerfile", FENCE);
        assert_eq!(
            said,
            [
                "Aider cuts SEARCH line 1, `COPY Dockerfile /src/Dockerfile`, before matching (a \
              first line ending with the file's name, `Dockerfile`, is taken for a wrapping): \
              that line of the file the block replaces stays as it is: send the block starting \
              one line earlier, that line unchanged in SEARCH and REPLACE"
            ]
        );
    }

    /// The same line kept on both sides, a file name repeated on both
    /// sides, or fences around both: Aider writes what the block reads.
    #[test]
    fn a_cut_that_changes_nothing_is_not_said() {
        let content = "import os\n# see a.py\nx = 1\n";
        let kept = cut_sentences(
            content,
            "# see a.py\nx = 1\n",
            "# see a.py\nx = 2\n",
            "import os\n# see a.py\nx = 2\n",
            "a.py",
            FENCE,
        );
        assert!(kept.is_empty(), "{kept:?}");
        let wrapped = cut_sentences(
            content,
            "a.py\n```\nx = 1\n```\n",
            "a.py\n```\nx = 2\n```\n",
            "import os\n# see a.py\nx = 2\n",
            "a.py",
            FENCE,
        );
        assert!(wrapped.is_empty(), "{wrapped:?}");
    }

    /// A Markdown code block the REPLACE adds loses its fences: said.
    #[test]
    fn fences_cut_from_the_replace_only_are_said() {
        let said = cut_sentences(
            "# Tool\nRun: make test\n",
            "Run: make test\n",
            "```bash\nmake test\n```\n",
            "# Tool\nmake test\n",
            "README.md",
            FENCE,
        );
        assert_eq!(
            said,
            [
                "Aider cuts REPLACE lines 1 and 3, \"```bash\" and \"```\", before \
              writing (a first and last line opening and closing the chat's code fence are \
              taken for a wrapping): what it writes lacks those lines: send the block starting \
              one line earlier, that line unchanged in SEARCH and REPLACE"
            ]
        );
    }
}
