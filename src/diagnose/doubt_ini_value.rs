//! *Pure.* A line an edit adds at column 0 where it meant one more line
//! of a multi-line value in an INI file Python's `configparser` reads (a
//! tester's find, round 49 T-10: a requirement added under
//! `install_requires =` in setup.cfg at column 0). `configparser`
//! continues a value only on lines indented deeper than its option: a
//! line at the option's column ends the value and is read as a new
//! option. Without `=` or `:` (`requests`) the file is refused
//! (`ParsingError: Source contains parsing errors`); with one
//! (`requests>=2.0` read as the option `requests>` set to `2.0`,
//! `flask==3.0` as `flask` set to `=3.0`), the requirement is silently
//! gone from the value.
//!
//! The rule, by evidence only, for the files [`super::doubt_ini`] reads
//! (setup.cfg, tox.ini, .flake8, pytest.ini, ...): the file before reads;
//! a line the edit adds (not among the lines it replaces) stands at the
//! column of an option above it whose value runs over lines (its line's
//! value empty, `install_requires =`, or continued on indented lines;
//! blank and comment lines between) and is no section header, comment
//! or blank; and it has no `=` or `:` (the file refused), or its name
//! before the `=` ends in `<`, `>`, `!` or `~` or its value starts with
//! `=` (a version specifier split: `a>=1`, `a==1`, `a~=1`, `a!=1`). A
//! new option at that column (`zip_safe = False`) is no doubt.

use super::doubt_ini::{Reader, ini_reads};

/// A line an edit adds at an option's column, meant in its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueCut {
    /// The result's line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// The option whose value the line ends, and its line (1-based).
    pub option: (String, usize),
    /// Whether the reader refuses the file (no `=` or `:`), rather than
    /// reading the line as an option.
    pub refused: bool,
    /// Which reader.
    pub reader: Reader,
}

impl ValueCut {
    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: send it indented as the value's other lines are",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let ((line, text), (option, option_line)) = (&self.line, &self.option);
        let reader = match self.reader {
            Reader::Configparser => "Python's configparser",
            Reader::Iniconfig => "iniconfig (pytest)",
        };
        let read = if self.refused {
            match self.reader {
                Reader::Configparser => format!(
                    "{reader} refuses the whole file (`ParsingError: Source contains parsing \
                     errors: [line {line}]: '{text}'`)"
                ),
                Reader::Iniconfig => format!(
                    "{reader} refuses the whole file (`ParseError: line {line}: unexpected \
                     line`)"
                ),
            }
        } else {
            let name = text.split(['=', ':']).next().unwrap_or_default().trim_end();
            format!("{reader} reads it as a new option `{name}`, and `{option}` goes without it")
        };
        format!(
            "as written, line {line} (`{text}`) stands at column 1, under the multi-line value \
             of `{option}` (line {option_line}): a value continues only on indented lines, so \
             the line ends it and {read}"
        )
    }
}

/// Whether an option's line `text` (trimmed, a delimiter in it, name
/// split at `delimiter`) reads as a version specifier split in two.
fn split_specifier(text: &str, delimiter: usize) -> bool {
    let (name, value) = (text[..delimiter].trim_end(), &text[delimiter + 1..]);
    name.ends_with(['<', '>', '!', '~'])
        || (text[delimiter..].starts_with('=') && value.starts_with('='))
}

/// The first line `result` (the INI file `path` as an edit leaves it)
/// adds at an option's column below its multi-line value (see the
/// module), where `original` read.
pub(super) fn value_cut(path: &str, original: &str, result: &str) -> Option<ValueCut> {
    let reader = Reader::of(path)?;
    if original == result || !ini_reads(original, reader) {
        return None;
    }
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let replaced = &old[prefix..old.len() - suffix];
    // The option above: its name, line, indentation, and whether its
    // value runs over lines.
    let mut option: Option<(String, usize, usize, bool)> = None;
    for (at, line) in new.iter().enumerate() {
        let stripped = line.trim();
        if stripped.is_empty() || stripped.starts_with(['#', ';']) {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if let Some((_, _, option_indent, runs)) = &mut option
            && indent > *option_indent
        {
            *runs = true;
            continue;
        }
        if stripped.starts_with('[') {
            option = None;
            continue;
        }
        let delimiter = stripped.find(['=', ':']);
        let added = at >= prefix && at < new.len() - suffix && !replaced.contains(line);
        if let Some((name, option_line, _, true)) = &option
            && added
        {
            let refused = delimiter.is_none();
            if refused || delimiter.is_some_and(|d| split_specifier(stripped, d)) {
                return Some(ValueCut {
                    line: (at + 1, stripped.to_string()),
                    option: (name.clone(), *option_line),
                    refused,
                    reader,
                });
            }
        }
        option = delimiter.map(|d| {
            let value_empty = stripped[d + 1..].trim().is_empty();
            (
                stripped[..d].trim_end().to_string(),
                at + 1,
                indent,
                value_empty,
            )
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Reader, ValueCut, value_cut};

    const SETUP: &str = "[metadata]\nname = demo\n\n[options]\npackages = find:\n\
                         install_requires =\n    click>=8\n    # pinned\n    rich\n\
                         python_requires = >=3.9\n\n[options.entry_points]\n\
                         console_scripts =\n    demo = demo.cli:main\n";

    fn judged(old: &str, new: &str) -> Option<ValueCut> {
        assert!(SETUP.contains(old), "{old:?}");
        value_cut("setup.cfg", SETUP, &SETUP.replacen(old, new, 1))
    }

    /// The tester's find (round 49 T-10): a requirement added at column 0
    /// under `install_requires =`: refused without `=`, or read as a new
    /// option and lost from the value with one.
    #[test]
    fn a_value_line_added_at_column_0_is_doubted() {
        let refused = judged("    rich\n", "    rich\nrequests\n");
        assert_eq!(
            refused,
            Some(ValueCut {
                line: (10, "requests".into()),
                option: ("install_requires".into(), 6),
                refused: true,
                reader: Reader::Configparser,
            })
        );
        assert_eq!(
            refused.map(|r| r.describe()).as_deref(),
            Some(
                "as written, line 10 (`requests`) stands at column 1, under the multi-line value \
                 of `install_requires` (line 6): a value continues only on indented lines, so the \
                 line ends it and Python's configparser refuses the whole file (`ParsingError: \
                 Source contains parsing errors: [line 10]: 'requests'`): send it indented as \
                 the value's other lines are"
            )
        );
        let lost = judged("    rich\n", "    rich\nrequests>=2.31\n");
        assert_eq!(
            lost.map(|l| l.fault()).as_deref(),
            Some(
                "as written, line 10 (`requests>=2.31`) stands at column 1, under the multi-line \
                 value of `install_requires` (line 6): a value continues only on indented lines, \
                 so the line ends it and Python's configparser reads it as a new option \
                 `requests>`, and `install_requires` goes without it"
            )
        );
        for new in ["flask==3.0\n", "attrs~=23.1\n", "six!=1.0\n", "toml<1\n"] {
            let result = SETUP.replace(
                "install_requires =\n",
                &format!("install_requires =\n{new}"),
            );
            assert!(value_cut("setup.cfg", SETUP, &result).is_some(), "{new:?}");
        }
        let tox = "[testenv]\ndeps =\n    pytest\ncommands = pytest\n";
        let cut = tox.replace("    pytest\n", "    pytest\ncoverage\n");
        assert!(value_cut("tox.ini", tox, &cut).is_some());
    }

    /// No doubt: a value line indented, a new option or section at column
    /// 0, a line already there, a file that did not read, another name.
    #[test]
    fn indented_lines_and_new_options_are_not_doubted() {
        for (old, new) in [
            ("    rich\n", "    rich\n    requests>=2\n"),
            ("    rich\n", "    rich\nzip_safe = False\n"),
            (
                "    rich\n",
                "    rich\n\n[options.package_data]\n* = *.txt\n",
            ),
            ("name = demo\n", "name = demo\nversion = 1.0\n"),
            ("    click>=8\n", "    click>=8.1\n"),
            ("packages = find:\n", "packages = find:\nzip_safe = false\n"),
        ] {
            assert_eq!(judged(old, new), None, "{new:?}");
        }
        let broken = format!("{SETUP}stray\n");
        assert_eq!(
            value_cut(
                "setup.cfg",
                &broken,
                &broken.replace("    rich\n", "    rich\nx\n")
            ),
            None
        );
        let result = SETUP.replace("    rich\n", "    rich\nrequests\n");
        assert_eq!(value_cut("config.ini", SETUP, &result), None);
    }
}
