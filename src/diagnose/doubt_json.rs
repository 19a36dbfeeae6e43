//! *Pure.* An edit that leaves a JSON file (`.json`, `.jsonc`, and the
//! JSON files named otherwise: a notebook `.ipynb`, `.geojson`,
//! `.webmanifest`, `composer.lock`, `.code-workspace`, ... see
//! [`json_name`]) no longer JSON: a comma left out between two entries, a trailing comma after the
//! last one in package.json (a tester's find: npm then refuses to run
//! anything, and every other check passed, the brackets balanced and no
//! key twice). The rule, by evidence only: the file before reads and the
//! file as the edit leaves it does not; a file that did not read before
//! is not judged (it may be JSON5, a template, or broken already). A
//! file the edit creates is judged against none: the new file must read.
//!
//! How a file is read:
//! - exactly, as `JSON.parse` and npm read it (serde_json's reading,
//!   which says the line and column where the text stops being JSON), for
//!   the files their readers read so: `package.json`, `package-lock.json`,
//!   `npm-shrinkwrap.json`, `composer.json`, `manifest.json`, and the
//!   exactly read files not named `.json` ([`EXACT_NAMES`],
//!   [`EXACT_EXTENSIONS`]);
//! - with comments (`//`, `/* */`) and trailing commas allowed, as JSONC
//!   readers (VS Code, TypeScript, Deno, Angular, Biome, Turborepo) read
//!   it, for `.jsonc` and the configs those tools read so, told by name
//!   ([`JSONC_NAMES`], [`JSONC_DIRECTORIES`]; a tester's find:
//!   api-extractor.json, typedoc.json, deno.json written with comments
//!   were refused). A trailing comma there is fine; a comma left out is
//!   not;
//! - every other `.json` (data, fixtures, `en.json`, `openapi.json`) by
//!   evidence: as JSONC when the file before already holds a comment or a
//!   trailing comma (a new file: a comment), else exactly, since its
//!   readers are most likely Python's `json`, jq, `require()` (a tester's
//!   find, round 45 T-03: a trailing comma left in `data/users.json`
//!   passed).
//!
//! [`lenient`] is the JSONC reading's text: the same bytes with comments
//! and trailing commas blanked out, so every key and error keeps its line
//! and column; the duplicate-key check ([`super::doubt_redefine`]) reads
//! every JSON file through it.

use std::borrow::Cow;

/// A JSON file an edit leaves unreadable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotJson {
    /// Read as JSONC ([`jsonc_by_convention`]), not exactly.
    pub jsonc: bool,
    /// Where the reading stops: its line (1-based).
    pub line: usize,
    /// Its column (1-based; 0 at the text's end, as serde_json counts).
    pub column: usize,
    /// What the reader says there (`expected `,` or `}``, `trailing
    /// comma`).
    pub error: String,
    /// The edit creates the file (there was none before).
    pub created: bool,
}

impl NotJson {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        let commas = if self.jsonc {
            "a comma between two entries"
        } else {
            "a comma between two entries, none after the last"
        };
        format!(
            "{}: its readers refuse the whole file: send the edit so that the file stays JSON \
             ({commas})",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let kind = if self.jsonc {
            "valid JSON (comments and trailing commas allowed, as for JSONC)"
        } else {
            "valid JSON"
        };
        let at = broken_at(kind, self.created, self.line, self.column);
        format!("{at}: {}", self.error)
    }
}

/// The start of a broken file's fault: that it is not `kind` (`valid
/// TOML`), the new file or since the edit, and where its reader stopped
/// (`the file was valid TOML before and is not after: line 3, column 1`).
/// [`NotJson`]'s, [`super::doubt_toml`]'s and [`super::doubt_not_yaml`]'s.
pub(super) fn broken_at(kind: &str, created: bool, line: usize, column: usize) -> String {
    let was = if created {
        format!("the new file is not {kind}")
    } else {
        format!("the file was {kind} before and is not after")
    };
    format!("{was}: line {line}, column {column}")
}

/// How a JSON file's readers read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reading {
    /// Exactly, as `JSON.parse`, Python's `json` and PHP's `json_decode`.
    Exact,
    /// With comments and trailing commas allowed ([`lenient`]).
    Jsonc,
    /// As JSONC when the file shows it is ([`jsonc_by_evidence`]), else
    /// exactly: a `.json` no tool's convention names.
    ByEvidence,
}

/// Names (lowercase) of JSON files their readers read exactly: npm's
/// (`package.json`, its locks), Composer's (`composer.json`, its lock),
/// a web app's `manifest.json`, pipenv's `Pipfile.lock`, Nix's
/// `flake.lock` (a tester's find, round 44 T-11: `composer.lock` went
/// unread).
const EXACT_NAMES: [&str; 8] = [
    "package.json",
    "package-lock.json",
    "npm-shrinkwrap.json",
    "composer.json",
    "manifest.json",
    "composer.lock",
    "pipfile.lock",
    "flake.lock",
];

/// Extensions of JSON files not named `.json`, read exactly: a Jupyter
/// notebook (nbformat reads it with Python's `json`), GeoJSON and
/// TopoJSON (RFC 7946), a web app manifest (browsers' `JSON.parse`), an
/// HTTP archive (round 44 T-11: a notebook given an unescaped quote was
/// allowed).
const EXACT_EXTENSIONS: [&str; 5] = [".ipynb", ".geojson", ".topojson", ".webmanifest", ".har"];

/// Extensions and names of JSON files not named `.json` read as JSONC: a
/// VS Code workspace (`.code-workspace`, VS Code's JSONC) and
/// `.jshintrc` (JSHint strips its comments). Not `.babelrc` (Babel reads
/// JSON5: unquoted keys, single quotes), nor `.eslintrc` and
/// `.prettierrc` without an extension (read as YAML or JSON).
const JSONC_EXTENSIONS: [&str; 3] = [".jsonc", ".code-workspace", "/.jshintrc"];

/// Names (lowercase) of `.json` configs their tools read with comments
/// (some with trailing commas too; read leniently, a trailing comma one of
/// them refuses goes unseen rather than one it takes being doubted):
/// TypeScript's `tsconfig*.json`, `jsconfig*.json` (prefixes, see
/// [`JSONC_PREFIXES`]), Deno, Biome, API Extractor, TSLint, Turborepo,
/// TypeDoc, ESLint's and Babel's `.json` configs, Dev Containers,
/// Angular, Nx, Wrangler, cspell, markdownlint, oxlint, tsdoc, tsfmt,
/// Renovate (`renovate.json`, `.renovaterc.json`: "Renovate supports
/// JSONC for .json files", its docs; a tester's find, round 46 T-07).
const JSONC_NAMES: [&str; 21] = [
    "deno.json",
    "biome.json",
    "api-extractor.json",
    "tslint.json",
    "turbo.json",
    "typedoc.json",
    ".eslintrc.json",
    ".babelrc.json",
    "devcontainer.json",
    ".devcontainer.json",
    "angular.json",
    "nx.json",
    "project.json",
    "wrangler.json",
    "cspell.json",
    ".markdownlint.json",
    ".oxlintrc.json",
    "tsdoc.json",
    "tsfmt.json",
    "renovate.json",
    ".renovaterc.json",
];

/// Name prefixes (lowercase) of `.json` configs read as JSONC:
/// `tsconfig.app.json`, `jsconfig.base.json`.
const JSONC_PREFIXES: [&str; 2] = ["tsconfig", "jsconfig"];

/// Folders whose `.json` files their editor reads as JSONC: VS Code's
/// (`.vscode/`, a user's `Code/User/`), Dev Containers', Zed's.
const JSONC_DIRECTORIES: [&str; 5] = [
    "/.vscode/",
    "/vscode/",
    "/code/user/",
    "/.devcontainer/",
    "/.zed/",
];

/// How `path`'s readers read it; `None` for a file srview does not read
/// as JSON (see the module).
fn reading(path: &str) -> Option<Reading> {
    let lower = format!("/{}", path.to_ascii_lowercase().replace('\\', "/"));
    let name = lower.rsplit('/').next().unwrap_or_default();
    if EXACT_NAMES.contains(&name) || EXACT_EXTENSIONS.iter().any(|e| name.ends_with(e)) {
        Some(Reading::Exact)
    } else if JSONC_EXTENSIONS.iter().any(|e| lower.ends_with(e)) {
        Some(Reading::Jsonc)
    } else if !name.ends_with(".json") {
        None
    } else if JSONC_NAMES.contains(&name)
        || JSONC_PREFIXES.iter().any(|p| name.starts_with(p))
        || JSONC_DIRECTORIES.iter().any(|d| lower.contains(d))
    {
        Some(Reading::Jsonc)
    } else {
        Some(Reading::ByEvidence)
    }
}

/// Whether `path` names a JSON file: `.json`, `.jsonc`, and the JSON
/// files named otherwise of [`EXACT_NAMES`], [`EXACT_EXTENSIONS`] and
/// [`JSONC_EXTENSIONS`].
pub fn json_name(path: &str) -> bool {
    reading(path).is_some()
}

/// Whether `path` names a file read as JSONC (comments and trailing
/// commas allowed) whatever it holds: `.jsonc` and the configs read so by
/// convention (see the module).
pub fn jsonc_by_convention(path: &str) -> bool {
    reading(path) == Some(Reading::Jsonc)
}

/// Whether a `.json` no convention names shows it is JSONC: the file
/// before holds a comment or a trailing comma; a file the edit creates
/// (`original` empty) holds a comment as written (a trailing comma there
/// is the fault in question, no evidence).
fn jsonc_by_evidence(original: &str, result: &str) -> bool {
    if original.is_empty() {
        blank_comments(result.as_bytes()).as_slice() != result.as_bytes()
    } else {
        lenient(original) != original
    }
}

/// `text` with its comments and trailing commas blanked out (each byte a
/// space, line breaks kept), so that an exact JSON reader reads it as a
/// JSONC reader reads `text`, with the same lines, columns and offsets. A
/// block comment that does not end is left as it is (not JSONC either).
pub fn lenient(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| b == b'/' || b == b',') {
        return Cow::Borrowed(text);
    }
    let mut out = blank_comments(bytes);
    blank_trailing_commas(&mut out);
    // Only whole characters of comments were blanked: still UTF-8.
    match String::from_utf8(out) {
        Ok(s) => Cow::Owned(s),
        Err(_) => Cow::Borrowed(text),
    }
}

/// `bytes` with its comments, outside strings, blanked out (each byte a
/// space, line breaks kept); a block comment that does not end is kept.
fn blank_comments(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    let mut at = 0;
    let mut in_string = false;
    while at < out.len() {
        if string_byte(&out, &mut at, &mut in_string) {
            continue;
        }
        match (out[at], out.get(at + 1)) {
            (b'"', _) => in_string = true,
            (b'/', Some(b'/')) => {
                while at < out.len() && out[at] != b'\n' && out[at] != b'\r' {
                    out[at] = b' ';
                    at += 1;
                }
                continue;
            }
            (b'/', Some(b'*')) => {
                let Some(end) = bytes[at + 2..].windows(2).position(|w| w == b"*/") else {
                    break;
                };
                for c in &mut out[at..at + 2 + end + 2] {
                    if *c != b'\n' && *c != b'\r' {
                        *c = b' ';
                    }
                }
                at += 2 + end + 2;
                continue;
            }
            _ => {}
        }
        at += 1;
    }
    out
}

/// Blanks, outside strings, each comma whose next byte other than white
/// space closes an object or an array.
fn blank_trailing_commas(out: &mut [u8]) {
    let mut at = 0;
    let mut in_string = false;
    while at < out.len() {
        if string_byte(out, &mut at, &mut in_string) {
            continue;
        }
        let b = out[at];
        if b == b'"' {
            in_string = true;
        } else if b == b',' {
            let next = out[at + 1..]
                .iter()
                .find(|c| !matches!(c, b' ' | b'\t' | b'\n' | b'\r'));
            if matches!(next, Some(b'}' | b']')) {
                out[at] = b' ';
            }
        }
        at += 1;
    }
}

/// Inside a string (`in_string`): steps past the byte at `at` (an
/// escape's two bytes), the string ending at its `"`; `false` outside one.
fn string_byte(bytes: &[u8], at: &mut usize, in_string: &mut bool) -> bool {
    if !*in_string {
        return false;
    }
    match bytes[*at] {
        b'\\' => *at += 1,
        b'"' => *in_string = false,
        _ => {}
    }
    *at += 1;
    true
}

/// Where `text` stops being JSON, read exactly or (`jsonc`) as JSONC;
/// `None` when it reads.
fn not_json(text: &str, jsonc: bool) -> Option<serde_json::Error> {
    let text = if jsonc {
        lenient(text)
    } else {
        Cow::Borrowed(text)
    };
    serde_json::from_str::<serde_json::Value>(&text).err()
}

/// The fault of `result` (the JSON file `path` as an edit leaves it) when
/// it does not read and `original` (the file before) did (see the module).
pub(super) fn json_broken(path: &str, original: &str, result: &str) -> Option<NotJson> {
    if !json_name(path) || original == result {
        return None;
    }
    let jsonc = match reading(path) {
        Some(Reading::Jsonc) => true,
        Some(Reading::ByEvidence) => jsonc_by_evidence(original, result),
        _ => false,
    };
    // A file the edit creates (none before) is judged too.
    let created = original.is_empty();
    if !created && not_json(original, jsonc).is_some() {
        return None;
    }
    let e = not_json(result, jsonc)?;
    let (line, column) = (e.line(), e.column());
    let said = e.to_string();
    let error = said
        .strip_suffix(&format!(" at line {line} column {column}"))
        .unwrap_or(&said)
        .to_string();
    Some(NotJson {
        jsonc,
        line,
        column,
        error,
        created,
    })
}

#[cfg(test)]
mod tests {
    use super::{NotJson, json_broken, jsonc_by_convention, lenient};
    use crate::diagnose::doubt::test_edits::{check_after, check_edit, edited};

    const PACKAGE: &str = "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  }\n}\n";

    /// A tester's find (round 39a, 21): a script added without the comma
    /// before it, or with a trailing comma after it: npm refuses the file.
    #[test]
    fn a_package_json_left_unreadable_is_doubted() {
        let found = check_after(
            json_broken,
            "package.json",
            PACKAGE,
            "    \"test\": \"jest\"\n",
            "    \"lint\": \"eslint .\"\n",
        );
        assert_eq!(
            found,
            Some(NotJson {
                jsonc: false,
                line: 6,
                column: 5,
                error: "expected `,` or `}`".into(),
                created: false,
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "the file was valid JSON before and is not after: line 6, column 5: expected \
                 `,` or `}`: its readers refuse the whole file: send the edit so that the file \
                 stays JSON (a comma between two entries, none after the last)"
            )
        );
        let trailing = edited(
            PACKAGE,
            "    \"test\": \"jest\"\n",
            "    \"test\": \"jest\",\n    \"lint\": \"eslint .\",\n",
        );
        assert_eq!(
            json_broken("package.json", PACKAGE, &trailing).map(|f| f.fault()),
            Some(
                "the file was valid JSON before and is not after: line 7, column 3: trailing \
                 comma"
                    .to_string()
            )
        );
    }

    /// A file JSONC by convention: a trailing comma or a comment is fine,
    /// a comma left out is not.
    #[test]
    fn a_jsonc_file_is_read_with_comments_and_trailing_commas() {
        let tsconfig =
            "{\n  // options\n  \"compilerOptions\": {\n    \"strict\": true,\n  },\n}\n";
        for name in [
            "tsconfig.json",
            "a/tsconfig.app.json",
            ".vscode/settings.json",
            "x.jsonc",
        ] {
            assert_eq!(
                check_after(
                    json_broken,
                    name,
                    tsconfig,
                    "    \"strict\": true,\n",
                    "    /* out */ \"outDir\": \"dist\",\n"
                ),
                None,
                "{name}"
            );
        }
        let missing = edited(
            tsconfig,
            "    \"strict\": true,\n",
            "    \"strict\": true\n    \"outDir\": \"dist\",\n",
        );
        let found = json_broken("tsconfig.json", tsconfig, &missing);
        assert_eq!(found.as_ref().map(|f| (f.line, f.column)), Some((5, 5)));
        assert!(
            found
                .map(|f| f.fault())
                .is_some_and(|f| f.starts_with("the file was valid JSON (comments and trailing commas allowed, as for JSONC) before and is not after: line 5, column 5: expected `,` or `}`"))
        );
        // Read exactly, the same file did not read before: not judged.
        assert_eq!(json_broken("package.json", tsconfig, &missing), None);
    }

    /// No doubt: an edit that keeps the file JSON, a file that was not
    /// JSON before (broken, JSON5, empty), another file's name.
    #[test]
    fn edits_that_keep_json_or_were_not_json_are_not_doubted() {
        assert_eq!(
            check_edit(
                json_broken,
                "package.json",
                PACKAGE,
                "    \"test\": \"jest\"\n",
                "    \"test\": \"jest\",\n    \"lint\": \"eslint .\"\n"
            ),
            None
        );
        let broken = edited(PACKAGE, "\"tsc\",", "\"tsc\"");
        assert_eq!(
            json_broken("package.json", &broken, &broken.replace("jest", "vitest")),
            None
        );
        let json5 = "{a: 1}\n";
        assert_eq!(json_broken("a.json", json5, "{a: 1,, }\n"), None);
        assert_eq!(json_broken("package.txt", PACKAGE, "{,}"), None);
    }

    /// A tester's find (round 39a, 13): a file the edit creates was never
    /// judged; it is now, against no file: a new package.json with a
    /// trailing comma is doubted, a new valid one and a new tsconfig.json
    /// with one (JSONC) are not.
    #[test]
    fn a_new_json_file_that_is_not_json_is_doubted() {
        let trailing = "{\n  \"a\": 1,\n}\n";
        assert_eq!(
            json_broken("package.json", "", trailing).map(|f| f.fault()),
            Some("the new file is not valid JSON: line 3, column 1: trailing comma".to_string())
        );
        assert_eq!(json_broken("package.json", "", "{\n  \"a\": 1\n}\n"), None);
        assert_eq!(json_broken("tsconfig.json", "", trailing), None);
    }

    #[test]
    fn jsonc_files_are_told_by_their_names() {
        for name in [
            "tsconfig.json",
            "packages/web/tsconfig.build.json",
            "jsconfig.json",
            ".vscode/settings.json",
            "C:\\p\\.vscode\\launch.json",
            ".devcontainer/devcontainer.json",
            ".devcontainer/python/extra.json",
            "devcontainer.json",
            ".eslintrc.json",
            ".babelrc.json",
            "a.JSONC",
            // Round 39b (02): configs their tools read with comments.
            "api-extractor.json",
            "deno.json",
            "turbo.json",
            "vscode/settings.json",
            // Round 46 (T-07): Renovate reads its `.json` configs as JSONC.
            "renovate.json",
            ".github/renovate.json",
            ".renovaterc.json",
        ] {
            assert!(jsonc_by_convention(name), "{name}");
        }
        for name in [
            "package.json",
            "web/package-lock.json",
            "composer.json",
            "tsconfig.yaml",
            "a.json5",
        ] {
            assert!(!jsonc_by_convention(name), "{name}");
        }
    }

    /// A tester's find (round 44, T-11): JSON files not named `.json`
    /// went unread. Each is read as its readers read it: a comma left out
    /// refused by both readings, a trailing comma by the exact one only;
    /// files that may be JSON5 or YAML are not read.
    #[test]
    fn json_files_named_otherwise_are_read_as_their_readers_read_them() {
        let text = "{\n  \"a\": 1\n}\n";
        let missing = edited(text, "1\n", "1\n  \"b\": 2\n");
        let trailing = edited(text, "1\n", "1,\n");
        for (name, jsonc) in [
            ("a.ipynb", false),
            ("maps/x.geojson", false),
            ("x.topojson", false),
            ("app.webmanifest", false),
            ("run.har", false),
            ("composer.lock", false),
            ("Pipfile.lock", false),
            ("flake.lock", false),
            ("proj.code-workspace", true),
            ("src/.jshintrc", true),
            (".jshintrc", true),
        ] {
            let found = json_broken(name, text, &missing).map(|f| f.fault());
            let kind = if jsonc {
                "valid JSON (comments and trailing commas allowed, as for JSONC)"
            } else {
                "valid JSON"
            };
            assert_eq!(
                found,
                Some(format!(
                    "the file was {kind} before and is not after: line 3, column 3: expected `,` or `}}`"
                )),
                "{name}"
            );
            assert_eq!(
                json_broken(name, text, &trailing).is_some(),
                !jsonc,
                "{name}"
            );
            assert_eq!(json_broken(name, text, &text.replace('1', "2")), None);
        }
        for name in [
            ".babelrc",
            ".eslintrc",
            ".prettierrc",
            "a.lock",
            "x.jshintrc.bak",
        ] {
            assert_eq!(json_broken(name, text, &missing), None, "{name}");
        }
    }

    /// A tester's find (round 45, T-03): a `.json` no tool's convention
    /// names (data, a fixture) holding neither comment nor trailing comma
    /// is read exactly: a trailing comma left in it is doubted, in an
    /// edit and in a new file. Python's `json` agrees on each.
    #[test]
    fn a_trailing_comma_in_a_plain_data_json_is_doubted() {
        let users = "[\n  {\"id\": 1},\n  {\"id\": 2}\n]\n";
        let added = edited(users, "  {\"id\": 2}\n", "  {\"id\": 2},\n  {\"id\": 3},\n");
        assert_eq!(
            json_broken("data/users.json", users, &added).map(|f| f.describe()),
            Some(
                "the file was valid JSON before and is not after: line 5, column 1: trailing \
                 comma: its readers refuse the whole file: send the edit so that the file stays \
                 JSON (a comma between two entries, none after the last)"
                    .to_string()
            )
        );
        for (name, before, result) in [
            ("a.json", "{\"a\": 1}\n", "{\"a\": 1,}\n"),
            ("f.json", "[1, 2]", "[1, 2,]"),
            ("i18n/en.json", "{\"hi\": \"Hi\"}", "{\"hi\": \"Hi\",\n}"),
            ("new.json", "", "{\"a\": 1,}\n"),
        ] {
            assert_eq!(
                json_broken(name, before, result).map(|f| f.jsonc),
                Some(false),
                "{name}"
            );
        }
    }

    /// The same file already holding a comment or a trailing comma is
    /// JSONC by evidence (its readers take them): a trailing comma added
    /// is fine, a comma left out is not; a new file written with a
    /// comment likewise. Known JSONC configs are lenient whatever they hold.
    #[test]
    fn a_json_already_holding_comments_or_trailing_commas_is_read_as_jsonc() {
        let commented = "{\n  // ids\n  \"a\": 1\n}\n";
        let trailing = "{\n  \"a\": [1, 2,]\n}\n";
        for before in [commented, trailing] {
            // `"b": 2` added as the last entry, written `new`.
            let b_added = |new| check_edit(json_broken, "data/x.json", before, "\n}\n", new);
            assert_eq!(b_added(",\n  \"b\": 2,\n}\n"), None, "{before}");
            assert_eq!(
                b_added("\n  \"b\": 2\n}\n").map(|f| f.jsonc),
                Some(true),
                "{before}"
            );
        }
        assert_eq!(
            json_broken("new.json", "", "{\n  // a\n  \"a\": 1,\n}\n"),
            None
        );
        let plain = "{\n  \"a\": 1\n}\n";
        for name in [
            "tsconfig.json",
            "biome.json",
            "tslint.json",
            ".vscode/launch.json",
            "home/u/.config/Code/User/settings.json",
            ".zed/settings.json",
            "angular.json",
        ] {
            assert_eq!(
                json_broken(name, plain, "{\n  \"a\": 1,\n}\n"),
                None,
                "{name}"
            );
        }
    }

    /// Comments and trailing commas blanked, byte for byte; commas and
    /// slashes in strings, and a block comment that does not end, kept.
    #[test]
    fn lenient_text_keeps_every_offset() {
        let text = "{\n  // a, }\n  \"u\": \"http://x,]\", /* é\n */ \"b\": [1, 2,],\n}";
        let read = lenient(text);
        assert_eq!(
            read,
            "{\n         \n  \"u\": \"http://x,]\",      \n    \"b\": [1, 2 ] \n}"
        );
        assert_eq!(read.len(), text.len());
        assert_eq!(lenient("{\"a\": 1 /* no end }"), "{\"a\": 1 /* no end }");
        assert_eq!(lenient("[\"a\\\"\", 1]"), "[\"a\\\"\", 1]");
    }
}
