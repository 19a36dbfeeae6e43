//! *Pure.* Which layout srview reads a file's white space by (a tester's
//! find: an executable Python script without `.py`, `debian/rules` and
//! `Makefile.in` passed edits that break them, the checks having looked at
//! the name only). A file is:
//! - Python by its extension (`.py`, `.pyi`, `.pyw`), or by a first line
//!   `#!` naming a Python interpreter (`python`, `python3`, `python3.12`,
//!   `pypy3`; as a path, or through `env`, `env -S`);
//! - a Makefile by its name (`Makefile`, `makefile`, `GNUmakefile`,
//!   `BSDmakefile`, `*.mk`, `Makefile.*` / `makefile.*` such as
//!   `Makefile.in`, `Makefile.am`, unless the suffix names another format
//!   such as `Makefile.toml`, and `debian/rules`, a makefile by Debian's
//!   policy), or by a first line `#!` naming make (`#!/usr/bin/make -f`);
//! - YAML by its extension (`.yaml`, `.yml`; `Makefile.yml` too).
//!
//! The name decides first; the content only for a name that says nothing,
//! and only its first line is read (a `#!` line; a 10,000-line file costs
//! what a 1-line one does).

/// What srview reads a file's layout as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// Python's indentation ([`super::doubt_indent`]).
    Python,
    /// A Makefile's recipe tabs ([`super::doubt_make`]).
    Makefile,
    /// YAML's nesting by indentation ([`super::doubt_yaml`]).
    Yaml,
    /// No layout srview reads.
    Other,
}

/// Suffixes after `Makefile.` that name another format than make's.
/// Source files of other languages too (rake's `loaders/makefile.rb`, a
/// Ruby class that reads make's dependency files).
const NOT_MAKE: [&str; 26] = [
    "toml", "json", "yaml", "yml", "md", "markdown", "txt", "rst", "adoc", "py", "sh", "bash",
    "bat", "cmd", "ps1", "html", "xml", "cfg", "ini", "lock", "rb", "lua", "rs", "js", "ts", "go",
];

impl FileKind {
    /// The kind of the file `path` whose content is `content` (any version
    /// of it: only its first line is read, and only when the name says
    /// nothing).
    pub fn of(path: &str, content: &str) -> FileKind {
        match FileKind::by_name(path) {
            FileKind::Other => FileKind::by_first_line(content),
            kind => kind,
        }
    }

    /// The kind of a file an edit turns `original` into `result`: by its
    /// name, else by the first line of `original`, or of `result` for a
    /// file the edit creates (an empty `original`).
    pub fn of_edit(path: &str, original: &str, result: &str) -> FileKind {
        FileKind::of(
            path,
            if original.is_empty() {
                result
            } else {
                original
            },
        )
    }

    /// The kind `path`'s name tells ([`FileKind::Other`] when it tells none).
    pub fn by_name(path: &str) -> FileKind {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if [".py", ".pyi", ".pyw"]
            .iter()
            .any(|ext| name.ends_with(ext))
        {
            return FileKind::Python;
        }
        if [".yaml", ".yml"].iter().any(|ext| name.ends_with(ext)) {
            return FileKind::Yaml;
        }
        let parent = path[..path.len() - name.len()].trim_end_matches(['/', '\\']);
        let debian = name == "rules" && parent.rsplit(['/', '\\']).next() == Some("debian");
        let make = debian
            || matches!(
                name,
                "Makefile" | "makefile" | "GNUmakefile" | "BSDmakefile"
            )
            || name.ends_with(".mk")
            || ["Makefile.", "makefile."].iter().any(|stem| {
                name.strip_prefix(stem)
                    .is_some_and(|suffix| !suffix.is_empty() && !NOT_MAKE.contains(&suffix))
            });
        if make {
            FileKind::Makefile
        } else {
            FileKind::Other
        }
    }

    /// The kind a `#!` first line of `content` names.
    pub fn by_first_line(content: &str) -> FileKind {
        let Some(program) = interpreter(content) else {
            return FileKind::Other;
        };
        if python_interpreter(program) {
            FileKind::Python
        } else if matches!(program, "make" | "gmake" | "bmake") {
            FileKind::Makefile
        } else {
            FileKind::Other
        }
    }
}

/// The program a `#!` first line of `content` names, by its last path
/// part (`python3` for `#!/usr/bin/python3`), through `env`
/// (`#!/usr/bin/env -S python3 -u`); `None` without a `#!` line.
pub fn interpreter(content: &str) -> Option<&str> {
    let rest = content.strip_prefix("#!")?;
    let end = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
    let mut words = rest[..end].split_whitespace();
    let program = base_name(words.next()?);
    if program == "env" {
        // `env [-S] [-i] [NAME=value]... program`: the first word that
        // is no option or assignment (`-S` takes the rest as words).
        return words
            .find(|w| !w.starts_with('-') && !w.contains('='))
            .map(base_name);
    }
    Some(program)
}

/// The text that tells what kind of file an edit's `path` is: the file
/// before the edit, or the edit's `result` where the edit creates the file
/// (`original` empty).
pub(crate) fn told_by<'a>(original: &'a str, result: &'a str) -> &'a str {
    if original.is_empty() {
        result
    } else {
        original
    }
}

/// The last part of a path.
fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Whether `program` names a Python interpreter: `python`, `pypy`, each
/// with a version or none (`python3`, `python3.12`).
fn python_interpreter(program: &str) -> bool {
    ["python", "pypy"].iter().any(|stem| {
        program
            .strip_prefix(stem)
            .is_some_and(|version| version.chars().all(|c| c.is_ascii_digit() || c == '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use FileKind::*;

    #[test]
    fn names_and_first_lines_tell_the_kind() {
        let cases: &[(&str, &str, FileKind)] = &[
            ("a.py", "", Python),
            ("src/t.pyi", "", Python),
            ("bin/tool", "#!/usr/bin/env python3\nimport sys\n", Python),
            ("tool", "#!/usr/bin/python3.12 -u\r\n", Python),
            ("tool", "#! /usr/bin/python\n", Python),
            ("tool", "#!/usr/bin/env -S python3 -u\n", Python),
            ("tool", "#!/usr/bin/env PYTHONPATH=. pypy3\n", Python),
            ("Makefile", "", Makefile),
            ("sub\\makefile", "", Makefile),
            ("GNUmakefile", "", Makefile),
            ("BSDmakefile", "", Makefile),
            ("build/rules.mk", "", Makefile),
            ("Makefile.in", "", Makefile),
            ("Makefile.am", "", Makefile),
            ("makefile.inc", "", Makefile),
            ("debian/rules", "#!/usr/bin/make -f\n", Makefile),
            ("/src/pkg/debian/rules", "", Makefile),
            ("rules", "", Other),
            ("notdebian/rules", "", Other),
            ("rules", "#!/usr/bin/env make -f\n", Makefile),
            // The name first: a `.py` file is Python whatever it starts with.
            ("x.py", "#!/usr/bin/make -f\n", Python),
            // Other formats, other interpreters, no `#!`; NMAKE's `.mak`
            // takes commands indented with spaces.
            ("Makefile.toml", "", Other),
            ("lib/rake/loaders/makefile.rb", "", Other),
            ("src/makefile.rs", "", Other),
            ("build.mak", "", Other),
            ("config.yaml", "", Yaml),
            (".github/workflows/ci.yml", "#!/usr/bin/env python3\n", Yaml),
            ("Makefile.yml", "", Yaml),
            ("notes.yaml.txt", "", Other),
            ("Makefile.", "", Other),
            ("run", "#!/bin/sh\npython3 x.py\n", Other),
            ("run", "#!/usr/bin/env node\n", Other),
            ("run", "#!/usr/bin/env pythonic\n", Other),
            ("run", "#!/usr/bin/env\n", Other),
            ("run", "#!\n", Other),
            ("notes", "# python3\n", Other),
            ("notes", "import os\n#!/usr/bin/python3\n", Other),
        ];
        for &(path, content, kind) in cases {
            assert_eq!(FileKind::of(path, content), kind, "{path} {content:?}");
        }
    }

    #[test]
    fn a_new_file_is_told_by_its_first_line() {
        let script = "#!/usr/bin/env python3\n";
        assert_eq!(FileKind::of_edit("tool", "", script), Python);
        // The file as it was decides.
        assert_eq!(FileKind::of_edit("tool", "plain\n", script), Other);
        assert_eq!(FileKind::of_edit("tool", script, "plain\n"), Python);
    }
}
