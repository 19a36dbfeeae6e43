//! *Pure.* An edit that leaves an XML file no longer well-formed: an
//! element left open (`</dependency>` dropped from a pom.xml), an end tag
//! naming another element (`<artifactId>demo</artifactid>`: XML names are
//! case-sensitive), a `<!--` or a `<![CDATA[` nothing closes, an
//! attribute's quote left open (a tester's find, round 45 T-09: each
//! passed, and Maven, MSBuild, Android's build and a browser reading an
//! SVG then refuse the whole file). The rule, by evidence only, as for
//! JSON ([`super::doubt_json`]) and TOML ([`super::doubt_toml`]): the file
//! before is well-formed and the file as the edit leaves it is not; a file
//! that was not (a template, HTML named `.xml`, broken already) is not
//! judged. A file the edit creates is judged against none.
//!
//! The files read ([`xml_name`]): `.xml` (pom.xml, Android layouts and
//! manifests), `.svg`, MSBuild's `.csproj`, `.fsproj`, `.vbproj`,
//! `.props`, `.targets`, `.xaml`, `.plist`, `.xsd`, `.xsl`, `.xslt`,
//! `.resx`. Not HTML, which is not XML.
//!
//! The reader is well-formedness only, as expat (Python's
//! `xml.etree.ElementTree`) checks it: tags nest and match, one root
//! element, comments, CDATA sections, processing instructions and a
//! DOCTYPE (its internal subset skipped) end, attribute values are quoted,
//! hold no `<` and are given once per element, and a `&` starts a
//! reference ending in `;`. It reads no DTD and checks no character's
//! class: what it does not check goes unseen, never doubted
//! (tests/fixtures/trust/xml/cases.json records expat's verdicts).

use super::doubt_json::broken_at;

/// Extensions (lowercase) of the files read as XML.
const XML_EXTENSIONS: [&str; 14] = [
    ".xml", ".svg", ".csproj", ".fsproj", ".vbproj", ".props", ".targets", ".xaml", ".plist",
    ".xsd", ".xsl", ".xslt", ".resx", ".nuspec",
];

/// Whether `path` names a file read as XML (see the module).
pub fn xml_name(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    XML_EXTENSIONS.iter().any(|e| lower.ends_with(e))
}

/// An XML file an edit leaves not well-formed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotXml {
    /// Where the fault is: its line (1-based).
    pub line: usize,
    /// Its column (1-based, in characters).
    pub column: usize,
    /// What is wrong there (`the end tag </artifactid> closes
    /// <artifactId> (line 4)`).
    pub error: String,
    /// The edit creates the file (there was none before).
    pub created: bool,
}

impl NotXml {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: its readers refuse the whole file: send the edit so that the file stays \
             well-formed XML (each element closed by its own end tag, comments, CDATA and \
             quotes closed)",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let at = broken_at("well-formed XML", self.created, self.line, self.column);
        format!("{at}: {}", self.error)
    }
}

/// The fault of `result` (the XML file `path` as an edit leaves it) when
/// it is not well-formed and `original` (the file before) was.
pub(super) fn xml_broken(path: &str, original: &str, result: &str) -> Option<NotXml> {
    if !xml_name(path) || original == result {
        return None;
    }
    let created = original.is_empty();
    if !created && not_well_formed(original).is_some() {
        return None;
    }
    let result = result.strip_prefix('\u{feff}').unwrap_or(result);
    let (at, error) = not_well_formed(result)?;
    let (line, column) = line_column(result, at);
    Some(NotXml {
        line,
        column,
        error,
        created,
    })
}

/// The 1-based line and column (in characters) of byte `at` of `text`.
pub(super) fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    (line, before[start..].chars().count() + 1)
}

/// Where `text` stops being well-formed XML and what is wrong there;
/// `None` when it is.
fn not_well_formed(text: &str) -> Option<(usize, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    Reader::new(text).read().err()
}

/// A well-formedness reader over one text.
struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// Open elements: name and the byte its start tag begins at.
    open: Vec<(&'a str, usize)>,
    /// The root element has been closed.
    root_closed: bool,
}

/// A fault: its byte offset and what is wrong there.
type Fault = (usize, String);

impl<'a> Reader<'a> {
    fn new(text: &'a str) -> Self {
        Reader {
            text,
            at: 0,
            open: Vec::new(),
            root_closed: false,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    /// Reads the whole text.
    fn read(mut self) -> Result<(), Fault> {
        while self.at < self.text.len() {
            if self.rest().starts_with('<') {
                self.markup()?;
            } else {
                self.char_data()?;
            }
        }
        if let Some(&(name, at)) = self.open.last() {
            return Err((at, format!("the element <{name}> is never closed")));
        }
        if !self.root_closed {
            return Err((self.text.len(), "no root element".to_string()));
        }
        Ok(())
    }

    /// Text up to the next `<`: references checked; outside the root
    /// element only white space.
    fn char_data(&mut self) -> Result<(), Fault> {
        let len = self.rest().find('<').unwrap_or(self.rest().len());
        let data = &self.rest()[..len];
        if let Some(off) = data.find(|c: char| !c.is_whitespace())
            && self.open.is_empty()
        {
            let what = if self.root_closed {
                "text after the root element's end"
            } else {
                "text before the root element"
            };
            return Err((self.at + off, what.to_string()));
        }
        check_references(data, self.at)?;
        self.at += len;
        Ok(())
    }

    /// One markup construct starting at `<`.
    fn markup(&mut self) -> Result<(), Fault> {
        let start = self.at;
        let rest = self.rest();
        if rest.starts_with("<!--") {
            self.skip_past(start, "-->", "a comment `<!--`")?;
            // XML forbids `--` in a comment: a `<!--` left open runs into
            // the next comment's opening.
            match self.text[start + 4..self.at - 3].find("--") {
                Some(n) => Err((start + 4 + n, "a comment holds `--`".into())),
                None => Ok(()),
            }
        } else if rest.starts_with("<![CDATA[") {
            if self.open.is_empty() {
                return Err((start, "a CDATA section outside the root element".into()));
            }
            self.skip_past(start, "]]>", "a CDATA section `<![CDATA[`")
        } else if rest.starts_with("<?") {
            self.skip_past(start, "?>", "a processing instruction `<?`")
        } else if rest.starts_with("<!") {
            self.doctype(start)
        } else if rest.starts_with("</") {
            self.end_tag(start)
        } else {
            self.start_tag(start)
        }
    }

    /// Moves past the next `end`, or fails naming `what` left open.
    fn skip_past(&mut self, start: usize, end: &str, what: &str) -> Result<(), Fault> {
        match self.text[start + 2..].find(end) {
            Some(n) => {
                self.at = start + 2 + n + end.len();
                Ok(())
            }
            None => Err((start, format!("{what} is never closed"))),
        }
    }

    /// A `<!DOCTYPE ...>` (or other `<!` declaration), its `[...]`
    /// internal subset, quotes and comments in it skipped.
    fn doctype(&mut self, start: usize) -> Result<(), Fault> {
        let bytes = self.text.as_bytes();
        let mut at = start + 2;
        let mut depth = 0usize;
        while at < bytes.len() {
            match bytes[at] {
                b'"' | b'\'' => {
                    let q = bytes[at];
                    match bytes[at + 1..].iter().position(|&b| b == q) {
                        Some(n) => at += n + 1,
                        None => break,
                    }
                }
                b'<' if self.text[at..].starts_with("<!--") => {
                    match self.text[at + 4..].find("-->") {
                        Some(n) => at += 4 + n + 2,
                        None => break,
                    }
                }
                b'[' => depth += 1,
                b']' => depth = depth.saturating_sub(1),
                b'>' if depth == 0 => {
                    self.at = at + 1;
                    return Ok(());
                }
                _ => {}
            }
            at += 1;
        }
        Err((start, "a declaration `<!` is never closed".into()))
    }

    /// `</name>`: closes the innermost open element, by the same name.
    fn end_tag(&mut self, start: usize) -> Result<(), Fault> {
        let name_at = start + 2;
        let name = name_of(&self.text[name_at..]);
        let after = name_at + name.len();
        let close = self.text[after..].trim_start();
        if name.is_empty() || !close.starts_with('>') {
            return Err((
                start,
                format!("the end tag `</{name}` is not closed by `>`"),
            ));
        }
        match self.open.pop() {
            Some((open, _)) if open == name => {}
            Some((open, open_at)) => {
                let (line, _) = line_column(self.text, open_at);
                return Err((
                    name_at,
                    format!("the end tag </{name}> closes <{open}> (line {line})"),
                ));
            }
            None => return Err((name_at, format!("the end tag </{name}> closes no element"))),
        }
        if self.open.is_empty() {
            self.root_closed = true;
        }
        self.at = self.text.len() - close.len() + 1;
        Ok(())
    }

    /// `<name attr="v" ...>` or `<name .../>`.
    fn start_tag(&mut self, start: usize) -> Result<(), Fault> {
        let name = name_of(&self.text[start + 1..]);
        if name.is_empty() {
            return Err((start, "a `<` that starts no tag".into()));
        }
        if self.root_closed && self.open.is_empty() {
            return Err((start, format!("a second root element <{name}>")));
        }
        let mut at = start + 1 + name.len();
        let mut seen: Vec<&str> = Vec::new();
        loop {
            let rest = &self.text[at..];
            let trimmed = rest.trim_start();
            at += rest.len() - trimmed.len();
            if trimmed.starts_with("/>") {
                self.at = at + 2;
                if self.open.is_empty() {
                    self.root_closed = true;
                }
                return Ok(());
            }
            if trimmed.starts_with('>') {
                self.at = at + 1;
                self.open.push((name, start));
                return Ok(());
            }
            at = self.attribute(start, name, at, &mut seen)?;
        }
    }

    /// One attribute `name="value"` at `at` in the start tag of `tag`
    /// (begun at `start`); the byte after it.
    fn attribute(
        &self,
        start: usize,
        tag: &str,
        at: usize,
        seen: &mut Vec<&'a str>,
    ) -> Result<usize, Fault> {
        let rest = &self.text[at..];
        let name = name_of(rest);
        if name.is_empty() {
            let what = if rest.is_empty() {
                format!("the start tag <{tag}> is never closed by `>`")
            } else {
                format!("the start tag <{tag}> holds no attribute here")
            };
            return Err((if rest.is_empty() { start } else { at }, what));
        }
        if seen.contains(&name) {
            return Err((
                at,
                format!("the attribute `{name}` is given twice in <{tag}>"),
            ));
        }
        seen.push(name);
        let after_name = &rest[name.len()..];
        let eq = after_name.trim_start();
        let Some(value) = eq.strip_prefix('=') else {
            return Err((
                at,
                format!("the attribute `{name}` of <{tag}> has no `=` value"),
            ));
        };
        let value = value.trim_start();
        let value_at = self.text.len() - value.len();
        let Some(quote) = value.chars().next().filter(|c| *c == '"' || *c == '\'') else {
            return Err((
                value_at,
                format!("the attribute `{name}` of <{tag}> is not quoted"),
            ));
        };
        let body = &value[1..];
        let Some(len) = body.find(quote) else {
            return Err((
                value_at,
                format!("the quote of the attribute `{name}` is never closed"),
            ));
        };
        if body[..len].contains('<') {
            return Err((
                value_at,
                format!("the attribute `{name}` of <{tag}> holds a `<`: is its quote left open?"),
            ));
        }
        check_references(&body[..len], value_at + 1)?;
        Ok(value_at + 1 + len + 1)
    }
}

/// The XML name `text` starts with (empty when none): up to white space
/// or one of `/>=<"'`.
fn name_of(text: &str) -> &str {
    let end = text
        .find(|c: char| c.is_whitespace() || "/>=<\"'&;".contains(c))
        .unwrap_or(text.len());
    &text[..end]
}

/// Each `&` in `data` (at byte `base` of the text) starts a reference
/// ending in `;` (`&amp;`, `&#10;`, `&name;`).
fn check_references(data: &str, base: usize) -> Result<(), Fault> {
    for (off, _) in data.match_indices('&') {
        let after = &data[off + 1..];
        let name = name_of(after);
        if name.is_empty() || !after[name.len()..].starts_with(';') {
            return Err((
                base + off,
                "a `&` that starts no reference (write `&amp;`)".to_string(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{xml_broken, xml_name};
    use crate::diagnose::doubt::test_edits::check_edit;

    const POM: &str = "<project>\n  <artifactId>demo</artifactId>\n  <dependencies>\n    <dependency>\n      <version>4.13.2</version>\n    </dependency>\n  </dependencies>\n</project>\n";

    /// Round 45 T-09's edits, each said with where and what (expat:
    /// "mismatched tag", "unclosed token", "not well-formed").
    #[test]
    fn an_xml_file_left_not_well_formed_is_doubted() {
        let cases = [
            (
                "    </dependency>\n",
                "",
                "line 6, column 5: the end tag </dependencies> closes <dependency> (line 4)",
            ),
            (
                "<artifactId>demo</artifactId>",
                "<artifactId>demo</artifactid>",
                "line 2, column 21: the end tag </artifactid> closes <artifactId> (line 2)",
            ),
            (
                "  <dependencies>\n",
                "  <!-- later\n  <dependencies>\n",
                "line 3, column 3: a comment `<!--` is never closed",
            ),
            (
                "<version>4.13.2</version>",
                "<version a=\"4.13.2</version>",
                "line 5, column 18: the quote of the attribute `a` is never closed",
            ),
            (
                "<version>4.13.2</version>",
                "<version>4 & 5</version>",
                "line 5, column 18: a `&` that starts no reference (write `&amp;`)",
            ),
            (
                "</project>\n",
                "",
                "line 1, column 1: the element <project> is never closed",
            ),
        ];
        for (old, new, said) in cases {
            assert_eq!(
                check_edit(xml_broken, "pom.xml", POM, old, new).map(|f| f.fault()),
                Some(format!(
                    "the file was well-formed XML before and is not after: {said}"
                )),
                "{new}"
            );
        }
        assert_eq!(
            xml_broken("a.svg", "", "<svg><g></svg>").map(|f| f.describe()),
            Some(
                "the new file is not well-formed XML: line 1, column 11: the end tag </svg> \
                 closes <g> (line 1): its readers refuse the whole file: send the edit so that \
                 the file stays well-formed XML (each element closed by its own end tag, \
                 comments, CDATA and quotes closed)"
                    .to_string()
            )
        );
    }

    /// No doubt: an edit keeping the file well-formed, a file that was not
    /// before (HTML named `.xml`, a template), a name not read as XML.
    #[test]
    fn edits_keeping_xml_or_of_files_not_xml_are_not_doubted() {
        assert_eq!(
            check_edit(
                xml_broken,
                "pom.xml",
                POM,
                "4.13.2",
                "4.13.3 &amp; <![CDATA[<x>]]>"
            ),
            None
        );
        let doctype = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [\n  <!ENTITY e \"]>\">\n]>\n<r a='1' b=\"&e;\"/>\n";
        assert_eq!(
            xml_broken("r.xml", doctype, &doctype.replace("'1'", "'2'")),
            None
        );
        let html = "<p>a<br>b</p>";
        assert_eq!(xml_broken("page.xml", html, "<p>a<br>c</p>"), None);
        assert_eq!(xml_broken("page.html", POM, "<p>"), None);
        for name in [
            "a.csproj",
            "Directory.Build.props",
            "x.targets",
            "v.XAML",
            "Info.plist",
        ] {
            assert!(xml_name(name), "{name}");
        }
        for name in ["index.html", "a.xhtml.txt", "x.json"] {
            assert!(!xml_name(name), "{name}");
        }
    }
}
