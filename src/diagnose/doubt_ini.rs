//! *Pure.* An edit that adds a section or an option again to an INI file
//! Python's `configparser` reads (a tester's find, round 41a, 10: `host`
//! added again to `[server]`, and the whole file refused). `configparser`
//! is strict by default: a section declared twice raises
//! `DuplicateSectionError`, an option set twice in one section
//! `DuplicateOptionError` (option names compared in lower case, as its
//! `optionxform` folds them), and the tool reading the file stops.
//!
//! Only the files whose de-facto reader is `configparser` are read
//! ([`ini_name`]): `setup.cfg` (setuptools), `tox.ini` (tox), `.flake8`
//! (flake8, which reads `setup.cfg` and `tox.ini` too), `mypy.ini` and
//! `.mypy.ini` (mypy), `.coveragerc` (coverage.py), `pylintrc` and
//! `.pylintrc` (pylint). Not every `.ini`: uWSGI repeats an option on
//! purpose (`env = A=1`, `env = B=2`), as do systemd units and git's
//! config; PHP and Windows read the last value; `.editorconfig` is read by
//! its own parser, the later section adding to the earlier.
//!
//! pytest reads `pytest.ini` and `.pytest.ini` with `iniconfig` (a
//! tester's find, round 41c, 02), which refuses a section or a name twice
//! too, and pytest does not start: read as `iniconfig` 2.x does
//! ([`Reader::Iniconfig`]): names compared as written (no case folding),
//! any line starting with white space continuing the value above it,
//! `DEFAULT` no different from another section.
//!
//! The rule, by evidence only: the file before reads as `configparser`
//! reads it (no section or option twice, no line outside a section or
//! without `=`/`:`), and the file after holds a section or an option
//! twice. Read as `configparser` does: `#` and `;` comment lines, an
//! indented line after an option continuing its value (blank lines
//! between too), a header `[name]` on its own line, `DEFAULT` declared
//! again allowed (its options twice are not).

/// A section or an option an edit adds again to an INI file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IniTwice {
    /// The section.
    pub section: String,
    /// The option, `None` for the section itself declared again.
    pub option: Option<String>,
    /// The two lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
    /// Which reader refuses the file.
    pub reader: Reader,
}

/// The Python reader of an INI file srview reads as it does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reader {
    /// `configparser`, strict (setuptools, tox, flake8, mypy, coverage,
    /// pylint).
    Configparser,
    /// `iniconfig` (pytest's `pytest.ini`).
    Iniconfig,
}

impl Reader {
    /// The reader of the file `path`, where srview reads it.
    pub fn of(path: &str) -> Option<Reader> {
        let lower = path.to_ascii_lowercase();
        let name = lower.rsplit(['/', '\\']).next().unwrap_or(&lower);
        match name {
            "setup.cfg" | "tox.ini" | ".flake8" | "mypy.ini" | ".mypy.ini" | ".coveragerc"
            | "pylintrc" | ".pylintrc" => Some(Reader::Configparser),
            "pytest.ini" | ".pytest.ini" => Some(Reader::Iniconfig),
            _ => None,
        }
    }
}

impl IniTwice {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let send = if self.option.is_some() {
            "change the option's line that is there instead of adding it again"
        } else {
            "add the new options under the section's header that is there"
        };
        format!("{}: {send}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let what = match &self.option {
            Some(option) => format!("the option `{option}` twice in section [{}]", self.section),
            None => format!("the section [{}] twice", self.section),
        };
        let refuses = match self.reader {
            Reader::Configparser => {
                "Python's configparser, which setuptools, tox, flake8, mypy, coverage and pylint \
                 read this file with, refuses the whole file"
            }
            Reader::Iniconfig => {
                "iniconfig, which pytest reads this file with, refuses the whole file, and pytest \
                 does not start"
            }
        };
        format!("{what}, at lines {earlier} and {later}: {refuses}")
    }
}

/// Whether `path` names an INI file srview reads (see the module).
pub fn ini_name(path: &str) -> bool {
    Reader::of(path).is_some()
}

/// What stops `configparser` reading a text.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Fault {
    /// A section or an option twice.
    Twice(IniTwice),
    /// Another fault: a line outside a section, an option without `=`
    /// or `:` (its line, 1-based).
    Other(usize),
}

/// The first fault `reader` (`configparser` strict, its defaults; or
/// `iniconfig`) meets in `text`; `None` when it reads.
fn ini_fault(text: &str, reader: Reader) -> Option<Fault> {
    let iniconfig = reader == Reader::Iniconfig;
    use std::collections::HashMap;
    // Each section's line, and each (section, option)'s.
    let mut sections: HashMap<String, usize> = HashMap::new();
    let mut options: HashMap<(String, String), usize> = HashMap::new();
    let mut section: Option<String> = None;
    // Within an option's value: its line's indentation.
    let mut option_indent: Option<usize> = None;
    for (at, line) in text.split('\n').enumerate() {
        let number = at + 1;
        let line = line.strip_suffix('\r').unwrap_or(line);
        let stripped = line.trim();
        if stripped.is_empty() || stripped.starts_with(['#', ';']) {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        if section.is_some() && option_indent.is_some_and(|i| indent > i) {
            continue;
        }
        // iniconfig: a line starting with white space continues a value.
        if iniconfig && indent > 0 {
            if option_indent.is_none() {
                return Some(Fault::Other(number));
            }
            continue;
        }
        option_indent = None;
        // iniconfig: a header's comment after `#` or `;` is cut first.
        let header = if iniconfig {
            stripped
                .split(['#', ';'])
                .next()
                .unwrap_or_default()
                .trim_end()
        } else {
            stripped
        };
        if let Some(rest) = header.strip_prefix('[')
            && let Some(close) = rest.rfind(']')
            && close > 0
            && (!iniconfig || close + 1 == rest.len())
        {
            let name = rest[..close].to_string();
            if iniconfig || name != "DEFAULT" {
                if let Some(&first) = sections.get(&name) {
                    return Some(Fault::Twice(IniTwice {
                        section: name,
                        option: None,
                        lines: (first, number),
                        reader,
                    }));
                }
                sections.insert(name.clone(), number);
            }
            section = Some(name);
            continue;
        }
        let Some(current) = &section else {
            return Some(Fault::Other(number));
        };
        let Some(delimiter) = delimiter(stripped, reader) else {
            return Some(Fault::Other(number));
        };
        let option = stripped[..delimiter].trim_end();
        let option = if iniconfig {
            option.to_string()
        } else {
            option.to_lowercase()
        };
        if option.is_empty() {
            return Some(Fault::Other(number));
        }
        let key = (current.clone(), option);
        if let Some(&first) = options.get(&key) {
            return Some(Fault::Twice(IniTwice {
                section: key.0,
                option: Some(key.1),
                lines: (first, number),
                reader,
            }));
        }
        options.insert(key, number);
        option_indent = Some(indent);
    }
    None
}

/// Where an option's line splits its name from its value: `configparser`
/// at its first `=` or `:`; `iniconfig` at its first `=` unless the name
/// before it holds a `:`, then at its first `:`.
fn delimiter(line: &str, reader: Reader) -> Option<usize> {
    match reader {
        Reader::Configparser => line.find(['=', ':']),
        Reader::Iniconfig => match line.find('=') {
            Some(at) if !line[..at].contains(':') => Some(at),
            _ => line.find(':'),
        },
    }
}

/// Whether `reader` reads `text` without a fault (see [`ini_fault`]).
pub(super) fn ini_reads(text: &str, reader: Reader) -> bool {
    ini_fault(text, reader).is_none()
}

/// The section or option `result` (the INI file `path` as an edit leaves
/// it) holds twice, where `original` (the file before) read clean (see
/// the module). A file the edit creates is judged against none.
pub(super) fn ini_twice(path: &str, original: &str, result: &str) -> Option<IniTwice> {
    let reader = Reader::of(path)?;
    if original == result {
        return None;
    }
    let Some(Fault::Twice(twice)) = ini_fault(result, reader) else {
        return None;
    };
    if ini_fault(original, reader).is_some() {
        return None;
    }
    Some(twice)
}

#[cfg(test)]
mod tests {
    use super::{IniTwice, Reader, ini_name, ini_twice};
    use crate::diagnose::doubt::test_edits::{after, check_edit};

    const TOX: &str = "[tox]\nenv_list = py311, lint\n\n[testenv]\ndeps =\n    pytest\n    \
                       coverage\ncommands = pytest {posargs}\n\n[testenv:lint]\ndeps = ruff\n";

    /// The tester's find (round 41a, 10), in a tox.ini: an option added
    /// again, a section declared again; said with both lines.
    #[test]
    fn an_option_or_a_section_added_again_is_doubted() {
        let option = after(TOX, "commands = pytest {posargs}\n", "Deps = hypothesis\n");
        let found = ini_twice("tox.ini", TOX, &option);
        assert_eq!(
            found,
            Some(IniTwice {
                section: "testenv".into(),
                option: Some("deps".into()),
                lines: (5, 9),
                reader: Reader::Configparser,
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "the option `deps` twice in section [testenv], at lines 5 and 9: Python's \
                 configparser, which setuptools, tox, flake8, mypy, coverage and pylint read \
                 this file with, refuses the whole file: change the option's line that is there \
                 instead of adding it again"
            )
        );
        let section = format!("{TOX}\n[testenv]\nsetenv = A=1\n");
        assert_eq!(
            ini_twice("a/tox.ini", TOX, &section).map(|f| f.fault()),
            Some(
                "the section [testenv] twice, at lines 4 and 13: Python's configparser, which \
                 setuptools, tox, flake8, mypy, coverage and pylint read this file with, \
                 refuses the whole file"
                    .to_string()
            )
        );
    }

    /// No doubt: an option in another section, a value's continuation
    /// lines (blank lines and comments among them), `DEFAULT` again, a
    /// file that did not read before, another file's name.
    #[test]
    fn edits_configparser_reads_or_did_not_read_are_not_doubted() {
        for (old, new) in [
            ("deps = ruff\n", "deps = ruff\ncommands = ruff check .\n"),
            ("    coverage\n", "    coverage\n\n    # and\n    deps\n"),
            ("[tox]\n", "[DEFAULT]\na = 1\n[tox]\n"),
            (
                "deps = ruff\n",
                "deps = ruff\n\n[testenv:type]\ndeps = mypy\n",
            ),
        ] {
            assert_eq!(
                check_edit(ini_twice, "tox.ini", TOX, old, new),
                None,
                "{new:?}"
            );
        }
        let broken = format!("{TOX}no delimiter here\n");
        assert_eq!(
            ini_twice("tox.ini", &broken, &format!("{broken}[tox]\n")),
            None
        );
        let twice = format!("{TOX}\n[tox]\n");
        assert_eq!(ini_twice("uwsgi.ini", TOX, &twice), None);
        assert_eq!(ini_twice(".editorconfig", TOX, &twice), None);
        assert!(ini_twice("setup.cfg", TOX, &twice).is_some());
    }

    #[test]
    fn the_files_read_are_told_by_their_names() {
        for name in [
            "setup.cfg",
            "p/tox.ini",
            ".flake8",
            "mypy.ini",
            ".coveragerc",
            ".pylintrc",
        ] {
            assert_eq!(Reader::of(name), Some(Reader::Configparser), "{name}");
        }
        assert!(ini_name("pytest.ini"));
        for name in ["a.ini", "php.ini", "uwsgi.ini", ".editorconfig", "x.cfg"] {
            assert!(!ini_name(name), "{name}");
        }
    }

    /// A tester's find (round 41c, 02): pytest.ini's `addopts` added again,
    /// `[pytest]` declared again: iniconfig refuses the file, and pytest
    /// does not start. Read as iniconfig reads: names as written (`Addopts`
    /// is another name), `DEFAULT` like any section, an indented line a
    /// continuation.
    #[test]
    fn pytest_ini_read_as_iniconfig_reads_it() {
        let ini = "[pytest]\naddopts = -q\ntestpaths = tests\n";
        let again = after(ini, "testpaths = tests\n", "addopts = -x\n");
        assert_eq!(
            ini_twice("pytest.ini", ini, &again)
                .map(|f| f.describe())
                .as_deref(),
            Some(
                "the option `addopts` twice in section [pytest], at lines 2 and 4: iniconfig, \
                 which pytest reads this file with, refuses the whole file, and pytest does not \
                 start: change the option's line that is there instead of adding it again"
            )
        );
        let section = format!("{ini}\n[pytest]\nmarkers = slow\n");
        assert_eq!(
            ini_twice(".pytest.ini", ini, &section).map(|f| (f.section, f.option, f.lines)),
            Some(("pytest".to_string(), None, (1, 5)))
        );
        let cased = after(ini, "testpaths = tests\n", "Addopts = -x\n");
        assert_eq!(ini_twice("pytest.ini", ini, &cased), None);
        let default = format!("[DEFAULT]\n{ini}[DEFAULT]\n");
        assert_eq!(
            ini_twice("pytest.ini", ini, &default).map(|f| f.section),
            Some("DEFAULT".to_string())
        );
        let continued = after(ini, "testpaths = tests\n", "  addopts\n");
        assert_eq!(ini_twice("pytest.ini", ini, &continued), None);
        assert_eq!(Reader::of("a/pytest.ini"), Some(Reader::Iniconfig));
    }
}
