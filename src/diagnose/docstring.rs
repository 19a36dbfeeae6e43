//! Python's triple-quoted strings that run over several lines, read from a
//! run of lines (an edit's text, a hunk's lines), and which of them are
//! docstrings: the first statement of a `def`, `async def` or `class`
//! body. A docstring's continuation lines are indented with the code by
//! convention, and every reader of it (`inspect.cleandoc`, `help()`,
//! pydoc, Sphinx) strips their common indentation: re-indenting them with
//! the code, as black or an editor does, keeps what it says
//! ([`cleandoc`]). Any other such string (an SQL text assigned to a name, a
//! `textwrap.dedent` argument) is data whose every space counts.
//!
//! A line-based reading: the lines before the run are not seen, so a run
//! that starts inside a string reads its closing quotes as an opening. A
//! docstring needs its `def`/`class` header among the lines, the string
//! alone on its lines (nothing but a comment after it), and a plain or
//! raw prefix (an f-string or a bytes literal is no docstring).

/// One triple-quoted string over several lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StringSpan {
    /// The index of the line it opens on.
    pub open: usize,
    /// The index of the line it closes on (after `open`); `None` when the
    /// lines end inside it.
    pub close: Option<usize>,
    /// Whether it is a docstring (closed, its header among the lines).
    pub docstring: bool,
}

impl StringSpan {
    /// The indices of its lines after the opening one (its continuation
    /// lines, the closing one included): what leading white space of them
    /// is the string's content. `last`: the index of the last line of the
    /// run, for a string the run ends inside.
    pub fn content(&self, last: usize) -> std::ops::RangeInclusive<usize> {
        self.open + 1..=self.close.unwrap_or(last)
    }
}

/// Per line: the index of the docstring whose continuation lines it is
/// among (the closing one included), in `spans`.
pub(crate) fn docstring_content(spans: &[StringSpan], lines: usize) -> Vec<Option<usize>> {
    let mut inside = vec![None; lines];
    for (k, span) in spans.iter().enumerate().filter(|(_, s)| s.docstring) {
        for i in span.content(lines.saturating_sub(1)) {
            if let Some(slot) = inside.get_mut(i) {
                *slot = Some(k);
            }
        }
    }
    inside
}

/// What the scan knows of each line.
#[derive(Debug, Clone, Copy, Default)]
struct LineFacts {
    /// It starts inside a triple-quoted string.
    in_string: bool,
    /// It continues a statement (an open bracket, a `\` before it).
    continues: bool,
    /// The byte its code ends at (a `#` comment's, else the line's end).
    code_end: usize,
}

/// The triple-quoted strings over several lines among `lines`, in order.
pub(crate) fn string_spans<S: AsRef<str>>(lines: &[S]) -> Vec<StringSpan> {
    let mut spans = Vec::new();
    let mut facts = vec![LineFacts::default(); lines.len()];
    // The string open: its quote, whether it may be a docstring.
    let mut open: Option<(u8, bool)> = None;
    let (mut depth, mut backslash) = (0usize, false);
    for (i, line) in lines.iter().enumerate() {
        let bytes = line.as_ref().as_bytes();
        facts[i] = LineFacts {
            in_string: open.is_some(),
            continues: open.is_none() && (backslash || depth > 0),
            code_end: bytes.len(),
        };
        let mut at = 0;
        if let Some((quote, candidate)) = open {
            let Some(end) = closing(bytes, 0, quote) else {
                continue;
            };
            open = None;
            let rest = String::from_utf8_lossy(&bytes[end..]);
            let rest = rest.trim();
            let alone = rest.is_empty() || rest.starts_with('#');
            if let Some(span) = spans.last_mut() {
                *span = StringSpan {
                    close: Some(i),
                    docstring: candidate && alone,
                    ..*span
                };
            }
            at = end;
        }
        backslash = false;
        while at < bytes.len() {
            let c = bytes[at];
            match c {
                b'#' => {
                    facts[i].code_end = at;
                    break;
                }
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = depth.saturating_sub(1),
                b'\\' if bytes[at + 1..].iter().all(u8::is_ascii_whitespace) => {
                    backslash = true;
                    break;
                }
                b'"' | b'\'' => {
                    let prefix_start = bytes[..at]
                        .iter()
                        .rposition(|b| !b.is_ascii_alphabetic())
                        .map_or(0, |p| p + 1);
                    let prefix = bytes[prefix_start..at].to_ascii_lowercase();
                    if bytes[at..].starts_with(&[c, c, c]) {
                        match closing(bytes, at + 3, c) {
                            Some(end) => {
                                at = end;
                                continue;
                            }
                            None => {
                                let first =
                                    bytes[..prefix_start].iter().all(u8::is_ascii_whitespace);
                                let plain = matches!(prefix.as_slice(), b"" | b"r" | b"u");
                                let candidate = first
                                    && plain
                                    && !facts[i].continues
                                    && opens_a_body(lines, &facts, i);
                                spans.push(StringSpan {
                                    open: i,
                                    close: None,
                                    docstring: false,
                                });
                                open = Some((c, candidate));
                                break;
                            }
                        }
                    }
                    // A string on one line: to its closing quote, or the
                    // line's end.
                    let mut k = at + 1;
                    while k < bytes.len() && bytes[k] != c {
                        k += if bytes[k] == b'\\' { 2 } else { 1 };
                    }
                    at = k + 1;
                    continue;
                }
                _ => {}
            }
            at += 1;
        }
    }
    spans
}

/// Where the string of `quote` open at `from` ends on `bytes`: the byte
/// after its closing triple quote (a backslash escapes the byte after it,
/// in a raw string too: it does not end the string there either).
fn closing(bytes: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut k = from;
    while k < bytes.len() {
        if bytes[k] == b'\\' {
            k += 2;
            continue;
        }
        if bytes[k..].starts_with(&[quote, quote, quote]) {
            return Some(k + 3);
        }
        k += 1;
    }
    None
}

/// Whether line `i` is the first statement of a `def`/`class` body: the
/// code line before it (blank and comment lines passed over, every line
/// read so far) ends a `def`, `async def` or `class` header with `:`, and
/// line `i` is indented deeper than the header's first line.
fn opens_a_body<S: AsRef<str>>(lines: &[S], facts: &[LineFacts], i: usize) -> bool {
    let code = |k: usize| {
        let line = lines[k].as_ref();
        line.get(..facts[k].code_end).unwrap_or(line).trim_end()
    };
    let Some(header_end) = (0..i)
        .rev()
        .find(|&k| facts[k].in_string || !code(k).trim().is_empty())
    else {
        return false;
    };
    if facts[header_end].in_string || !code(header_end).ends_with(':') {
        return false;
    }
    let mut start = header_end;
    while start > 0 && facts[start].continues {
        start -= 1;
    }
    if facts[start].in_string {
        return false;
    }
    let head = code(start).trim_start();
    let lead = |k: usize| {
        let line = lines[k].as_ref();
        line.len() - line.trim_start().len()
    };
    ["def ", "async def ", "class "]
        .iter()
        .any(|word| head.starts_with(word))
        && lead(i) > lead(start)
}

/// A docstring's continuation line `line` moved as its opening line moved
/// from `open` (as written) to `placed`, keeping its place against it: the
/// opening line's leading white space replaced, or, for a line starting
/// left of the opening line, moved by as many columns where all three are
/// indented with spaces alone; a line with no text is left as it is.
/// `None` where it cannot move so (it would pass column 0, or its white
/// space is of another kind).
pub(crate) fn moved_with(open: &str, placed: &str, line: &str) -> Option<String> {
    let prefix = |text: &str| -> String {
        text.chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect()
    };
    let (from, to, own) = (prefix(open), prefix(placed), prefix(line));
    if line.trim().is_empty() && from.len() >= line.len() {
        return Some(line.to_string());
    }
    if let Some(beyond) = own.strip_prefix(from.as_str()) {
        return Some(format!("{to}{beyond}{}", &line[own.len()..]));
    }
    let spaces = |p: &str| p.chars().all(|c| c == ' ');
    if !(spaces(&from) && spaces(&to) && spaces(&own)) {
        return None;
    }
    let width = (own.len() + to.len()).checked_sub(from.len())?;
    Some(format!("{}{}", " ".repeat(width), &line[own.len()..]))
}

/// `inspect.cleandoc` of a docstring's lines (`lines`, its opening line
/// first, quotes included; its text read as written, escapes and all):
/// the quotes and prefix taken off, tabs expanded to 8 columns, the first
/// line's leading white space stripped, the common indentation of the
/// other lines with text removed, blank lines at either end dropped. Two
/// docstrings whose lines give the same read the same to every tool.
pub(crate) fn cleandoc<S: AsRef<str>>(lines: &[S]) -> String {
    let mut text: Vec<String> = lines.iter().map(|l| expand_tabs(l.as_ref())).collect();
    if let Some(first) = text.first_mut() {
        let body = first
            .trim_start()
            .trim_start_matches(|c: char| c.is_ascii_alphabetic());
        *first = body.get(3..).unwrap_or("").to_string();
    }
    if let Some(last) = text.last_mut() {
        let close = last.rfind("\"\"\"").max(last.rfind("\'\'\'"));
        if let Some(at) = close {
            last.truncate(at);
        }
    }
    let margin = text
        .iter()
        .skip(1)
        .filter(|l| !l.trim_start_matches(' ').is_empty())
        .map(|l| l.len() - l.trim_start_matches(' ').len())
        .min();
    let mut out: Vec<&str> = Vec::with_capacity(text.len());
    for (k, line) in text.iter().enumerate() {
        out.push(match (k, margin) {
            (0, _) => line.trim_start_matches(' '),
            (_, Some(m)) => line.get(m.min(line.len())..).unwrap_or(""),
            (_, None) => line,
        });
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    out.join("\n")
}

/// `line` with its tabs expanded to columns of 8.
fn expand_tabs(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut column = 0;
    for c in line.chars() {
        if c == '\t' {
            let to = (column / 8 + 1) * 8;
            out.extend(std::iter::repeat_n(' ', to - column));
            column = to;
        } else {
            out.push(c);
            column += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str) -> Vec<StringSpan> {
        string_spans(&text.lines().collect::<Vec<_>>())
    }

    #[test]
    fn a_docstring_is_the_first_statement_of_a_def_or_class() {
        let method = "  def count(self) -> int:\n    \"\"\"How many.\n\n    Each once.\n    \"\"\"\n    return 1\n";
        assert_eq!(
            spans(method),
            vec![StringSpan {
                open: 1,
                close: Some(4),
                docstring: true
            }]
        );
        // A header over several lines, a comment between, a raw prefix,
        // single quotes; a class.
        let header =
            "def f(\n    a,  # the a\n) -> int:  # f\n    # why\n    r'''Doc\n    more'''\n";
        assert!(spans(header)[0].docstring);
        assert!(spans("class A:\n    \"\"\"A.\n    \"\"\"\n")[0].docstring);
        assert!(spans("async def f():\n    \"\"\"A.\n    \"\"\"\n")[0].docstring);
    }

    #[test]
    fn other_strings_over_several_lines_are_data() {
        let not = |text: &str| {
            let found = spans(text);
            assert_eq!(found.len(), 1, "{text}");
            assert!(!found[0].docstring, "{text}");
        };
        // Assigned, an argument, an f-string, bytes, after other code,
        // with code after its close, not the first statement, no header
        // seen, a header of another kind.
        not("def f():\n    SQL = \"\"\"select\n    from t\"\"\"\n");
        not("def f():\n    return dedent(\"\"\"\n        a\n    \"\"\")\n");
        not("def f():\n    f\"\"\"x\n    {y}\"\"\"\n");
        not("def f():\n    b\"\"\"x\n    y\"\"\"\n");
        not("def f():\n    \"\"\"x\n    y\"\"\".strip()\n");
        not("def f():\n    x = 1\n    \"\"\"x\n    y\"\"\"\n");
        not("    \"\"\"x\n    y\"\"\"\n");
        not("if x:\n    \"\"\"x\n    y\"\"\"\n");
        not("def f(): pass\n\"\"\"x\ny\"\"\"\n");
        // One line, a `#` or brackets inside it: no span, the rest read.
        assert!(
            spans("x = \"\"\"a # (\"\"\"\ny = '(' \"\"\"\n")[0]
                .close
                .is_none()
        );
        assert_eq!(spans("x = '\"\"\"'\n"), vec![]);
        // Unclosed: no docstring.
        assert_eq!(
            spans("def f():\n    \"\"\"x\n    y\n"),
            vec![StringSpan {
                open: 1,
                close: None,
                docstring: false
            }]
        );
    }

    /// CPython's verdicts (tests/fixtures/trust/docstrings/record.py):
    /// which strings over several lines are docstrings (ast), and whether
    /// a docstring's continuation lines moved 4 columns in, or their
    /// indentation doubled, read the same (`inspect.cleandoc`), over
    /// snippets and 40 methods of the standard library.
    #[test]
    fn docstrings_and_their_reading_agree_with_cpython() {
        let fixture = include_str!("../../tests/fixtures/trust/docstrings/cases.json");
        let cases: serde_json::Value = serde_json::from_str(fixture).expect("the fixture");
        let cases = cases.as_array().expect("a list");
        assert!(cases.len() >= 50);
        for case in cases {
            let name = case["name"].as_str().unwrap_or_default();
            let lines: Vec<&str> = case["text"].as_str().unwrap_or_default().lines().collect();
            let want: Vec<StringSpan> = case["spans"]
                .as_array()
                .expect("spans")
                .iter()
                .map(|s| StringSpan {
                    open: s["open"].as_u64().unwrap_or_default() as usize,
                    close: s["close"].as_u64().map(|c| c as usize),
                    docstring: s["docstring"] == true,
                })
                .collect();
            assert_eq!(string_spans(&lines), want, "{name}");
            for (span, recorded) in want.iter().zip(case["spans"].as_array().expect("spans")) {
                let Some(close) = span.close.filter(|_| span.docstring) else {
                    continue;
                };
                let own = &lines[span.open..=close];
                let moved = |by: &dyn Fn(usize) -> usize| -> Vec<String> {
                    own.iter()
                        .enumerate()
                        .map(|(k, l)| {
                            let width = l.len() - l.trim_start_matches(' ').len();
                            if k == 0 || l.trim().is_empty() {
                                l.to_string()
                            } else {
                                " ".repeat(by(width)) + &l[width..]
                            }
                        })
                        .collect()
                };
                let shift = |w: usize| w + 4;
                let scale = |w: usize| w * 2;
                let ways: [(&str, &dyn Fn(usize) -> usize); 2] =
                    [("shift_same", &shift), ("scale_same", &scale)];
                for (key, by) in ways {
                    assert_eq!(
                        cleandoc(own) == cleandoc(&moved(by)),
                        recorded[key] == true,
                        "{name}: {key}"
                    );
                }
            }
        }
    }

    #[test]
    fn a_line_moves_with_its_docstrings_opening_line() {
        // In by 4, a line 2 further in and one left of the opening line.
        assert_eq!(
            moved_with("  \"\"\"A.", "      \"\"\"A.", "    b"),
            Some("        b".into())
        );
        assert_eq!(
            moved_with("  \"\"\"A.", "      \"\"\"A.", "b"),
            Some("    b".into())
        );
        // Out by 4: a line at column 2 cannot follow; a blank line stays.
        assert_eq!(moved_with("      \"\"\"A.", "  \"\"\"A.", "  b"), None);
        assert_eq!(
            moved_with("      \"\"\"A.", "  \"\"\"A.", ""),
            Some(String::new())
        );
        // Onto tabs: the opening line's white space replaced.
        assert_eq!(
            moved_with("  \"\"\"A.", "\t\"\"\"A.", "    b"),
            Some("\t  b".into())
        );
        assert_eq!(moved_with("\t\"\"\"A.", "    \"\"\"A.", "  b"), None);
    }

    #[test]
    fn cleandoc_reads_as_python_does() {
        let lines = [
            "    \"\"\"Sum.",
            "",
            "        Args:",
            "            a: one",
            "        \"\"\"",
        ];
        let moved = [
            "\"\"\"Sum.",
            "",
            "    Args:",
            "        a: one",
            "    \"\"\"",
        ];
        assert_eq!(cleandoc(&lines), cleandoc(&moved));
        assert_eq!(cleandoc(&lines), "Sum.\n\nArgs:\n    a: one");
        let scaled = [
            "\"\"\"Sum.",
            "",
            "    Args:",
            "            a: one",
            "    \"\"\"",
        ];
        assert_ne!(cleandoc(&lines), cleandoc(&scaled));
        assert_eq!(
            cleandoc(&["\"\"\"A.", "\tb", "    c\"\"\""]),
            "A.\n    b\nc"
        );
    }
}
