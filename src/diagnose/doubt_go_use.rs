//! *Pure.* A Go file an edit leaves importing a package it no longer uses,
//! or using a standard package it does not import (a tester's find, round
//! 47 T-10: the last `fmt.Println` replaced, `import "fmt"` kept; a
//! `strings.Repeat` added without `"strings"`). Go refuses both: `"fmt"
//! imported and not used`, `undefined: strings`.
//!
//! Read on the file's code with its strings, runes and comments blanked:
//! a use of a package is its name followed by `.` and not after a `.`
//! (`fmt.Println`, not `x.fmt.y`). Only names certain to be the package's
//! are read ([`super::doubt_imports`]: an alias, a standard package's last
//! element). Doubted:
//! - unused: an import the result keeps whose name the file before used
//!   and the result uses nowhere;
//! - not imported: a name of the standard library's common packages
//!   (below) the result uses on a line the edit changed, where the file
//!   before used it nowhere, the file imports no package of that name, has
//!   no `.` import, and names it nowhere else (a variable, a parameter or
//!   a type of that name would be the file's own).

use super::doubt_imports::go_imports;
use crate::textdiff::changed_lines;

/// The standard library's packages an edit most often uses without
/// importing them: the name, and the path to import.
const STANDARD: &[(&str, &str)] = &[
    ("bufio", "bufio"),
    ("bytes", "bytes"),
    ("context", "context"),
    ("errors", "errors"),
    ("filepath", "path/filepath"),
    ("fmt", "fmt"),
    ("http", "net/http"),
    ("io", "io"),
    ("json", "encoding/json"),
    ("log", "log"),
    ("math", "math"),
    ("os", "os"),
    ("regexp", "regexp"),
    ("slices", "slices"),
    ("sort", "sort"),
    ("strconv", "strconv"),
    ("strings", "strings"),
    ("sync", "sync"),
    ("time", "time"),
    ("unicode", "unicode"),
];

/// A package an edit leaves imported and unused, or used and not imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GoPackageUse {
    /// An import used nowhere.
    Unused {
        /// The name it binds.
        name: String,
        /// Its path, quoted (`"fmt"`).
        path: String,
        /// Its line, 1-based.
        line: usize,
    },
    /// A package used and not imported.
    NotImported {
        /// The package's name.
        name: String,
        /// The path that imports it.
        path: &'static str,
        /// The line using it, 1-based.
        line: usize,
    },
}

impl GoPackageUse {
    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        match self {
            GoPackageUse::Unused { name, path, line } => format!(
                "as the edit leaves it, the file imports `{name}` ({path}, line {line}) and uses \
                 it nowhere, where it used it before: Go refuses to compile an unused import \
                 ({path} imported and not used)"
            ),
            GoPackageUse::NotImported { name, line, .. } => format!(
                "as the edit leaves it, line {line} uses the package `{name}`, which the file \
                 does not import: Go refuses to compile it (undefined: {name})"
            ),
        }
    }

    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let send = match self {
            GoPackageUse::Unused { path, .. } => {
                format!("remove the import of {path} too, or keep a use of it")
            }
            GoPackageUse::NotImported { path, .. } => {
                format!("add \"{path}\" to the import block too")
            }
        };
        format!("{}: {send}", self.fault())
    }
}

/// The package use [`GoPackageUse`] says of `result` (the Go file `path`
/// as an edit leaves `original`); `None` for other files and where all is
/// as the file before had it.
pub fn go_package_use(path: &str, original: &str, result: &str) -> Option<GoPackageUse> {
    if !path.ends_with(".go") {
        return None;
    }
    let before = blanked(original);
    let after = blanked(result);
    let imports = go_imports(path, result)?;
    if let Some(unused) = imports.iter().find_map(|import| {
        let name = import.name.as_deref()?;
        (uses(&before, name).next().is_some() && uses(&after, name).next().is_none()).then(|| {
            GoPackageUse::Unused {
                name: name.to_string(),
                path: import.path.clone(),
                line: import.line + 1,
            }
        })
    }) {
        return Some(unused);
    }
    // A name the file cannot be sure of (an import whose package name is
    // not certain, a `.` import) may be the one used: not judged.
    if imports.iter().any(|i| i.name.is_none()) {
        return None;
    }
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    let line_of = |at: usize| after[..at].matches('\n').count();
    STANDARD.iter().find_map(|&(name, import)| {
        if uses(&before, name).next().is_some()
            || imports.iter().any(|i| i.name.as_deref() == Some(name))
        {
            return None;
        }
        let used: Vec<usize> = uses(&after, name).collect();
        if mentions(&after, name) > used.len() {
            return None;
        }
        let line = used
            .into_iter()
            .map(line_of)
            .find(|l| changed.contains(l))?;
        Some(GoPackageUse::NotImported {
            name: name.to_string(),
            path: import,
            line: line + 1,
        })
    })
}

/// Go's text with every string, rune and comment's content made spaces
/// (line ends kept, so byte offsets and lines stay the text's).
fn blanked(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for b in &mut out[from..to] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    };
    while i < bytes.len() {
        let end = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                memchr::memchr(b'\n', &bytes[i..]).map_or(bytes.len(), |n| i + n)
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                memchr::memmem::find(&bytes[i + 2..], b"*/").map_or(bytes.len(), |n| i + 2 + n + 2)
            }
            b'`' => memchr::memchr(b'`', &bytes[i + 1..]).map_or(bytes.len(), |n| i + 1 + n + 1),
            quote @ (b'"' | b'\'') => {
                let mut j = i + 1;
                while j < bytes.len() && bytes[j] != quote && bytes[j] != b'\n' {
                    j += if bytes[j] == b'\\' { 2 } else { 1 };
                }
                (j + 1).min(bytes.len())
            }
            _ => {
                i += 1;
                continue;
            }
        };
        blank(&mut out, i, end);
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn is_ident(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

/// Each byte offset where `code` names `name` as a whole word.
fn words<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = code.as_bytes();
    code.match_indices(name)
        .map(|(at, _)| at)
        .filter(move |&at| {
            let end = at + name.len();
            let joined_before = at > 0 && is_ident(bytes[at - 1]);
            let joined_after = bytes.get(end).is_some_and(|&b| is_ident(b));
            !joined_before && !joined_after
        })
}

/// Each offset where `code` uses the package `name`: `name.` not after a
/// `.`.
fn uses<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
    let bytes = code.as_bytes();
    words(code, name).filter(move |&at| {
        let before = code[..at].trim_end_matches([' ', '\t']);
        !before.ends_with('.') && bytes.get(at + name.len()) == Some(&b'.')
    })
}

/// How many times `code` names `name` as a whole word.
fn mentions(code: &str, name: &str) -> usize {
    words(code, name).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const MAIN: &str = "package main\n\nimport \"fmt\"\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tx := add(1, 2)\n\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n}\n";

    /// The tester's two cases (round 47, T-10), with their sentences.
    #[test]
    fn an_import_left_unused_or_a_package_not_imported_is_said() {
        let unused = MAIN.replace(
            "\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n",
            "\t_ = x\n",
        );
        assert_eq!(
            go_package_use("main.go", MAIN, &unused).map(|u| u.describe()),
            Some(
                "as the edit leaves it, the file imports `fmt` (\"fmt\", line 3) and uses it \
                 nowhere, where it used it before: Go refuses to compile an unused import \
                 (\"fmt\" imported and not used): remove the import of \"fmt\" too, or keep a \
                 use of it"
                    .to_string()
            )
        );
        let repeat = MAIN.replace(
            "\tfmt.Println(x)\n",
            "\tfmt.Println(strings.Repeat(\"*\", x))\n",
        );
        assert_eq!(
            go_package_use("main.go", MAIN, &repeat).map(|u| u.describe()),
            Some(
                "as the edit leaves it, line 14 uses the package `strings`, which the file does \
                 not import: Go refuses to compile it (undefined: strings): add \"strings\" to \
                 the import block too"
                    .to_string()
            )
        );
    }

    /// Not said: a use left in a string or a comment is none (so its
    /// removal is no doubt either way: the import was unused before); an
    /// import removed with its last use; a package imported in the edit
    /// too; a name the file declares (a variable `strings`); a selector
    /// on a field (`cfg.strings.Repeat`); an import under an uncertain
    /// name; a `.` import; a file that is no Go.
    #[test]
    fn uses_the_file_accounts_for_are_not_said() {
        let both = MAIN.replace("import \"fmt\"\n", "").replace(
            "\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n",
            "\t_ = x\n",
        );
        let with_strings = MAIN.replace(
            "import \"fmt\"\n",
            "import (\n\t\"fmt\"\n\t\"strings\"\n)\n",
        );
        let cases = [
            both,
            MAIN.replace("\tfmt.Println(x)\n", "\tfmt.Println(x) // fmt.Sprint\n"),
            with_strings.replace(
                "\tfmt.Println(x)\n",
                "\tfmt.Println(strings.Repeat(\"*\", x))\n",
            ),
            MAIN.replace(
                "\tfmt.Println(x)\n",
                "\tstrings := []string{}\n\tfmt.Println(strings, x)\n\t_ = strings.Len\n",
            ),
            MAIN.replace("\tfmt.Println(x)\n", "\tfmt.Println(cfg.strings.Repeat)\n"),
            MAIN.replace(
                "import \"fmt\"\n",
                "import (\n\t\"fmt\"\n\t\"github.com/x/go-str\"\n)\n",
            )
            .replace(
                "\tfmt.Println(x)\n",
                "\tfmt.Println(strings.Repeat(\"*\", x))\n",
            ),
            MAIN.replace(
                "import \"fmt\"\n",
                "import (\n\t\"fmt\"\n\t. \"strings\"\n)\n",
            )
            .replace(
                "\tfmt.Println(x)\n",
                "\tfmt.Println(strings.Repeat(\"*\", x))\n",
            ),
        ];
        for after in &cases {
            assert_eq!(go_package_use("main.go", MAIN, after), None, "{after}");
        }
        let unused = MAIN
            .replace("\tfmt.Println(x)\n", "")
            .replace("\t\tfmt.Println(\"big\")\n", "");
        assert_eq!(go_package_use("main.txt", MAIN, &unused), None);
        // A file holding an unused import before: the edit is not its cause.
        let before = MAIN
            .replace("\tfmt.Println(x)\n", "")
            .replace("\t\tfmt.Println(\"big\")\n", "");
        assert_eq!(
            go_package_use("main.go", &before, &before.replace("x := add", "y := add")),
            None
        );
    }
}
