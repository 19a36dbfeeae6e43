//! *Pure.* An edit that leaves a YAML file (`.yaml`, `.yml`) no longer
//! YAML: a tab in a line's indentation, a quote or a `[` left open (a
//! tester's find: each was written and called fine, and every YAML reader,
//! Kubernetes, GitHub Actions, docker compose, PyYAML, then refuses the
//! whole file). The rule, by evidence only, as for JSON
//! ([`super::doubt_json`]): the file before parses and the file as the
//! edit leaves it does not; a file that did not parse before (a Helm
//! template's `{{ }}`, a file broken already) is not judged. A file the
//! edit creates is judged against none: the new file must parse, unless it
//! is a template ([`super::doubt_redefine::yaml_template`]: `{{`/`{%`
//! lines, a `{{` under a `templates/` folder).
//!
//! The file is read by `saphyr-parser`, a YAML 1.2 parser that passes the
//! YAML test suite, as events only (no tree is built: a 10,000-line file
//! costs its scan), every document of a multi-document stream (`---`).
//! Anchors must be defined before their aliases (`*x` with no `&x` above
//! it does not parse); tags (`!Ref`), merge keys (`<<: *base`), block
//! scalars, flow collections and comments parse as YAML says. Duplicate
//! keys are no parse error here (PyYAML keeps the later value; the
//! duplicate-key check, [`super::doubt_redefine`], says them).
//!
//! Where YAML 1.1 (PyYAML, libyaml) and 1.2 differ, the 1.2 reading
//! decides: a tab between the items of a flow collection parses, a `%`
//! directive after a document needs the `...` that ends it.

use super::doubt_json::broken_at;
use saphyr_parser::{Event, EventReceiver, Parser, ScanError};

/// A YAML file an edit leaves unparseable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotYaml {
    /// Where the parser stops: its line (1-based).
    pub line: usize,
    /// Its column (1-based, in characters).
    pub column: usize,
    /// What the parser says there (`while scanning a quoted scalar, found
    /// unexpected end of stream`).
    pub error: String,
    /// For an error about a tab: the first line from the parser's on
    /// (1-based) whose indentation holds one (the parser may stop at the
    /// scalar before it: `port: 80` then a line `\ttimeout: 5` is said at
    /// `80`).
    pub tab: Option<usize>,
    /// The parser stops at the end of the text (a quote or a bracket
    /// still open there).
    pub at_end: bool,
    /// The edit creates the file (there was none before).
    pub created: bool,
}

impl NotYaml {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: YAML readers refuse the whole file: send the edit so that the file stays YAML \
             ({})",
            self.fault(),
            self.advice()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let at = broken_at("valid YAML", self.created, self.line, self.column);
        let tab = self
            .tab
            .map(|line| format!(" (line {line} is indented with a tab)"))
            .unwrap_or_default();
        let end = if self.at_end {
            " (the end of the file)"
        } else {
            ""
        };
        format!("{at}{end}: {}{tab}", self.error)
    }

    /// What to send, by what the parser says.
    fn advice(&self) -> &'static str {
        let said = |words: &[&str]| words.iter().any(|w| self.error.contains(w));
        if said(&["tab"]) {
            "indentation in spaces: YAML forbids tabs there"
        } else if said(&["unknown escape"]) {
            "a backslash in double quotes doubled, or the value in single quotes"
        } else if said(&["unknown anchor"]) {
            "each alias `*name` after its anchor `&name`"
        } else if said(&["quoted scalar", "quoted"]) {
            "each quote closed on its value, nothing after it but a comment"
        } else if said(&["flow", "bracket"]) {
            "each `[` and `{` closed, its items separated by commas"
        } else if said(&["mapping values"]) {
            "a value holding `: ` in quotes, each key at its mapping's column"
        } else {
            "each key at its mapping's column, quotes and brackets closed"
        }
    }
}

/// Receives the parser's events and keeps none.
struct Ignore;

impl<'input> EventReceiver<'input> for Ignore {
    fn on_event(&mut self, _event: Event<'input>) {}
}

/// Where `text` stops being YAML, every document of it read; `None` when
/// it parses.
pub fn yaml_error(text: &str) -> Option<ScanError> {
    Parser::new_from_str(text).load(&mut Ignore, true).err()
}

/// Whether `text` parses as YAML ([`yaml_error`]).
pub fn parses(text: &str) -> bool {
    yaml_error(text).is_none()
}

/// The fault of `result` (a YAML file as an edit leaves it) when it does
/// not parse and `original` (the file before; empty for a new file) did
/// (see the module). The caller tells a YAML file by its name and leaves
/// templates out.
pub(super) fn yaml_unparsed(original: &str, result: &str) -> Option<NotYaml> {
    if original == result {
        return None;
    }
    // The result first: most edits keep the file YAML, and the file
    // before is read only for one that does not.
    let e = yaml_error(result)?;
    let created = original.is_empty();
    if !created && !parses(original) {
        return None;
    }
    let mark = e.marker();
    let error = e.info().to_string();
    let tab = if error.contains("tab") {
        tabbed_line(result, mark.line())
    } else {
        None
    };
    Some(NotYaml {
        line: mark.line(),
        column: mark.col() + 1,
        error,
        tab,
        at_end: mark.index() >= result.chars().count(),
        created,
    })
}

/// The first line of `text` from line `from` on (1-based) whose
/// indentation (its leading spaces and tabs) holds a tab.
fn tabbed_line(text: &str, from: usize) -> Option<usize> {
    text.lines()
        .enumerate()
        .skip(from.saturating_sub(1))
        .find(|(_, line)| {
            let lead = line.len() - line.trim_start_matches([' ', '\t']).len();
            line[..lead].contains('\t')
        })
        .map(|(at, _)| at + 1)
}

#[cfg(test)]
mod tests {
    use super::{NotYaml, parses, yaml_unparsed};
    use crate::diagnose::doubt::test_edits::after;

    const SERVER: &str = "server:\n  host: a\n  port: 80\n";

    /// The tester's three finds (round 39b, 07): a tab in an indentation,
    /// a quote left open, a `[` left open; each said with the parser's
    /// line, column and words.
    #[test]
    fn a_yaml_file_left_unparseable_is_doubted() {
        let cases = [
            (
                "  port: 80\n\ttimeout: 5\n",
                3,
                9,
                "while scanning a plain scalar, found a tab",
            ),
            (
                "  port: 80\n  name: \"web\n",
                4,
                9,
                "while scanning a quoted scalar, found unexpected end of stream",
            ),
            (
                "  port: 80\n  tags: [a, b\n",
                5,
                1,
                "while parsing a flow sequence, expected ',' or ']'",
            ),
        ];
        for (new, line, column, error) in cases {
            let result = SERVER.replace("  port: 80\n", new);
            let found = yaml_unparsed(SERVER, &result);
            assert_eq!(
                found.as_ref().map(|f| (f.line, f.column, f.error.as_str())),
                Some((line, column, error)),
                "{new:?}"
            );
        }
        // The tab's own line is named beside where the parser stops.
        let tab = after(SERVER, "  port: 80\n", "\ttimeout: 5\n");
        let found = yaml_unparsed(SERVER, &tab);
        assert_eq!(
            found.as_ref().map(|f| (f.tab, f.at_end)),
            Some((Some(4), false))
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "the file was valid YAML before and is not after: line 3, column 9: while \
                 scanning a plain scalar, found a tab (line 4 is indented with a tab): YAML \
                 readers refuse the whole file: send the edit so that the file stays YAML \
                 (indentation in spaces: YAML forbids tabs there)"
            )
        );
        let open = after(SERVER, "  port: 80\n", "  name: \"web\n");
        assert_eq!(
            yaml_unparsed(SERVER, &open)
                .map(|f| f.describe())
                .as_deref(),
            Some(
                "the file was valid YAML before and is not after: line 4, column 9: while \
                 scanning a quoted scalar, found unexpected end of stream: YAML readers refuse \
                 the whole file: send the edit so that the file stays YAML (each quote closed \
                 on its value, nothing after it but a comment)"
            )
        );
    }

    /// What to send follows what the parser says.
    #[test]
    fn the_advice_follows_the_parsers_words() {
        let advice = |new: &str| {
            let result = SERVER.replace("  host: a\n", new);
            yaml_unparsed(SERVER, &result).map(|f| f.describe())
        };
        for (new, said) in [
            ("  host: a: b\n", "(a value holding `: ` in quotes"),
            (
                "  host: \"C:\\qdir\"\n",
                "(a backslash in double quotes doubled",
            ),
            (
                "  host: *h\n",
                "(each alias `*name` after its anchor `&name`)",
            ),
            ("  host: \"a\" b\n", "(each quote closed on its value"),
            ("  host: [a]]\n", "(each `[` and `{` closed"),
        ] {
            let got = advice(new);
            assert!(
                got.as_deref().is_some_and(|g| g.contains(said)),
                "{new:?}: {got:?}"
            );
        }
    }

    /// No doubt: edits that keep the file YAML, the file unchanged, a file
    /// that did not parse before (a Helm template, a file broken already).
    #[test]
    fn edits_that_keep_yaml_or_were_not_yaml_are_not_doubted() {
        for new in [
            "  port: 8080\n",
            "  port: 80\n  tags: [a, b]\n",
            "  port: 80\n  name: \"web\"\n",
            "  port: 80\n  script: |\n    echo a\n    \techo b\n",
            "  port: 80 # the port\n",
        ] {
            let result = SERVER.replace("  port: 80\n", new);
            assert_eq!(yaml_unparsed(SERVER, &result), None, "{new:?}");
        }
        assert_eq!(yaml_unparsed(SERVER, SERVER), None);
        let helm = "metadata:\n  labels:\n    {{- include \"x\" . | nindent 4 }}\n";
        assert!(!parses(helm));
        assert_eq!(yaml_unparsed(helm, &format!("{helm}\tbroken: [\n")), None);
    }

    /// A new file is judged against none.
    #[test]
    fn a_new_yaml_file_that_does_not_parse_is_doubted() {
        let found = yaml_unparsed("", "a: [1, 2\n");
        assert_eq!(
            found.as_ref().map(NotYaml::fault).as_deref(),
            Some(
                "the new file is not valid YAML: line 2, column 1 (the end of the file): while \
                 parsing a flow sequence, expected ',' or ']'"
            )
        );
        assert_eq!(yaml_unparsed("", "a: [1, 2]\n"), None);
    }

    /// Every document of a stream is read: a fault in the second one is
    /// found, and an alias needs its anchor above it.
    #[test]
    fn every_document_is_read() {
        let two = "a: 1\n---\nb: 2\n";
        assert!(parses(two));
        let broken = yaml_unparsed(two, "a: 1\n---\nb: \"2\n");
        assert_eq!(broken.map(|f| (f.line, f.column)), Some((3, 4)));
        assert!(parses("base: &b {x: 1}\nuse:\n  <<: *b\n"));
        assert!(!parses("use:\n  <<: *b\n"));
    }
}
