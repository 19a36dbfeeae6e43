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

/// A package an edit leaves imported and unused, used and not imported, or
/// used with its import removed.
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
    /// A package whose import the edit removes, still used.
    ImportGone {
        /// The name the import bound.
        name: String,
        /// Its path, quoted (`"fmt"`).
        path: String,
        /// The first line still using it, 1-based.
        line: usize,
        /// How many lines use it.
        lines: usize,
    },
}

impl GoPackageUse {
    /// The fault, after "as the edit leaves it, ".
    fn fault_words(&self) -> String {
        match self {
            GoPackageUse::Unused { name, path, line } => format!(
                "the file imports `{name}` ({path}, line {line}) and uses it nowhere, where it \
                 used it before: Go refuses to compile an unused import ({path} imported and not \
                 used)"
            ),
            GoPackageUse::NotImported { name, line, .. } => format!(
                "line {line} uses the package `{name}`, which the file does not import: Go \
                 refuses to compile it (undefined: {name})"
            ),
            GoPackageUse::ImportGone {
                name,
                path,
                line,
                lines,
            } => {
                let more = match lines - 1 {
                    0 => String::new(),
                    1 => " (and 1 line more)".to_string(),
                    n => format!(" (and {n} lines more)"),
                };
                format!(
                    "line {line}{more} still uses the package `{name}`, whose import ({path}) \
                     the edit removes: Go refuses to compile it (undefined: {name})"
                )
            }
        }
    }

    /// What to send instead.
    fn send(&self) -> String {
        match self {
            GoPackageUse::Unused { path, .. } => {
                format!(
                    "remove the import of {path} in this same call (one edit spanning the import \
                     and this change, or a write of the file), or keep a use of it"
                )
            }
            GoPackageUse::NotImported { path, .. } => {
                format!("add \"{path}\" to the import block too")
            }
            GoPackageUse::ImportGone { name, path, .. } => {
                format!(
                    "keep the import of {path}, or remove every use of `{name}` in the same call"
                )
            }
        }
    }
}

/// Every [`GoPackageUse`] one edit leaves (never empty): Go names each,
/// so the sentence does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoPackageUses(pub Vec<GoPackageUse>);

impl GoPackageUses {
    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let faults: Vec<String> = self.0.iter().map(GoPackageUse::fault_words).collect();
        format!("as the edit leaves it, {}", faults.join("; and "))
    }

    /// One sentence without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let sends: Vec<String> = self.0.iter().map(GoPackageUse::send).collect();
        format!("{}: {}", self.fault(), sends.join("; and "))
    }
}

/// Each package use [`GoPackageUse`] says of `result` (the Go file `path`
/// as an edit leaves `original`); `None` for other files and where all is
/// as the file before had it.
pub fn go_package_use(path: &str, original: &str, result: &str) -> Option<GoPackageUses> {
    if !path.ends_with(".go") {
        return None;
    }
    let before = blanked(original);
    let after = blanked(result);
    let imports = go_imports(path, result)?;
    let mut found: Vec<GoPackageUse> = imports
        .iter()
        .filter_map(|import| {
            let name = import.name.as_deref()?;
            (uses(&before, name).next().is_some() && uses(&after, name).next().is_none()).then(
                || GoPackageUse::Unused {
                    name: name.to_string(),
                    path: import.path.clone(),
                    line: import.line + 1,
                },
            )
        })
        .collect();
    // A name the file cannot be sure of (an import whose package name is
    // not certain, a `.` import) may be the one used: not judged.
    if imports.iter().any(|i| i.name.is_none()) {
        return GoPackageUses::of(found);
    }
    let ends: Vec<usize> = memchr::memchr_iter(b'\n', after.as_bytes()).collect();
    let line_of = |at: usize| ends.partition_point(|&e| e < at);
    let imported = |name: &str| imports.iter().any(|i| i.name.as_deref() == Some(name));
    // An import of the file before the result no longer has, its name
    // still used (and named nothing else: a variable of that name would be
    // the file's own).
    let gone = go_imports(path, original).unwrap_or_default();
    let mut gone_names: Vec<&str> = Vec::new();
    for import in &gone {
        let Some(name) = import.name.as_deref() else {
            continue;
        };
        if imported(name) || gone_names.contains(&name) {
            continue;
        }
        gone_names.push(name);
        let mut used: Vec<usize> = uses(&after, name).map(line_of).collect();
        if used.is_empty() || mentions(&after, name) > used.len() {
            continue;
        }
        used.dedup();
        found.push(GoPackageUse::ImportGone {
            name: name.to_string(),
            path: import.path.clone(),
            line: used[0] + 1,
            lines: used.len(),
        });
    }
    let (_, new, prefix, suffix) = changed_lines(original, result);
    let changed = prefix..new.len() - suffix;
    found.extend(STANDARD.iter().filter_map(|&(name, import)| {
        if uses(&before, name).next().is_some() || imported(name) {
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
    }));
    GoPackageUses::of(found)
}

impl GoPackageUses {
    fn of(found: Vec<GoPackageUse>) -> Option<Self> {
        (!found.is_empty()).then_some(GoPackageUses(found))
    }
}

/// Go's text with every string, rune and comment's content made spaces
/// (line ends kept, so byte offsets and lines stay the text's).
pub(super) fn blanked(text: &str) -> String {
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

pub(super) fn is_ident(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

/// Each byte offset where `code` names `name` as a whole word.
pub(super) fn words<'a>(code: &'a str, name: &'a str) -> impl Iterator<Item = usize> + 'a {
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
    use crate::diagnose::doubt::test_edits::check_edit;

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
                 (\"fmt\" imported and not used): remove the import of \"fmt\" in this same call \
                 (one edit spanning the import and this change, or a write of the file), or \
                 keep a \
                 use of it"
                    .to_string()
            )
        );
        assert_eq!(
            check_edit(
                go_package_use,
                "main.go",
                MAIN,
                "\tfmt.Println(x)\n",
                "\tfmt.Println(strings.Repeat(\"*\", x))\n"
            )
            .map(|u| u.describe()),
            Some(
                "as the edit leaves it, line 14 uses the package `strings`, which the file does \
                 not import: Go refuses to compile it (undefined: strings): add \"strings\" to \
                 the import block too"
                    .to_string()
            )
        );
    }

    /// One edit leaving two faults (round 48 T-07b: the last `fmt` use
    /// replaced by `strings.Repeat`, `"strings"` not imported): Go names
    /// both, so the sentence does, each with Go's words and what to send.
    #[test]
    fn an_import_left_unused_and_a_package_not_imported_are_both_said() {
        assert_eq!(
            check_edit(
                go_package_use,
                "main.go",
                MAIN,
                "\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n",
                "\tprintln(strings.Repeat(\"*\", x))\n"
            )
            .map(|u| u.describe()),
            Some(
                "as the edit leaves it, the file imports `fmt` (\"fmt\", line 3) and uses it \
                 nowhere, where it used it before: Go refuses to compile an unused import \
                 (\"fmt\" imported and not used); and line 11 uses the package `strings`, which \
                 the file does not import: Go refuses to compile it (undefined: strings): remove \
                 the import of \"fmt\" in this same call (one edit spanning the import and this \
                 change, or a write of the file), or keep a use of it; and add \"strings\" to \
                 the import block too"
                    .to_string()
            )
        );
    }

    /// An import removed while lines still use its package (round 48,
    /// leftover of T-10): Go refuses `undefined: fmt`. Said with the first
    /// line using it and how many more; an alias binding another name is
    /// the same fault; not said where another import binds the name, the
    /// file names it otherwise (a variable `fmt`), or an import of
    /// uncertain name may bind it.
    #[test]
    fn an_import_removed_while_its_package_is_used_is_said() {
        let gone = MAIN.replace("import \"fmt\"\n", "");
        assert_eq!(
            go_package_use("main.go", MAIN, &gone).map(|u| u.describe()),
            Some(
                "as the edit leaves it, line 11 (and 1 line more) still uses the package `fmt`, \
                 whose import (\"fmt\") the edit removes: Go refuses to compile it (undefined: \
                 fmt): keep the import of \"fmt\", or remove every use of `fmt` in the same call"
                    .to_string()
            )
        );
        assert!(matches!(
            check_edit(go_package_use, "main.go", MAIN, "import \"fmt\"", "import f \"fmt\"").map(|u| u.0),
            Some(v) if matches!(&v[..], [GoPackageUse::ImportGone { name, line: 12, lines: 2, .. }] if name == "fmt")
        ));
        let cases = [
            MAIN.replace("import \"fmt\"", "import fmt \"github.com/x/myfmt\""),
            MAIN.replace("import \"fmt\"", "import \"github.com/x/go-fmt\""),
            gone.replace("func main() {", "func main() {\n\tfmt := printer{}"),
            MAIN.replace("import \"fmt\"\n", "import \"fmt\"\nimport \"os\"\n")
                .replace("\tfmt.Println(x)\n", "\tfmt.Println(x, os.Args)\n"),
        ];
        for after in &cases {
            assert_eq!(go_package_use("main.go", MAIN, after), None, "{after}");
        }
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
