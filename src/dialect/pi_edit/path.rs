//! pi's `resolveToCwd` (`dist/core/tools/path-utils.js`): one leading `@`
//! dropped, special Unicode spaces turned into spaces, `~` and `~/...`
//! expanded to the home folder, then an absolute path taken as it is and a
//! relative one resolved against the project root.

use crate::dialect::call::fs_path;

/// Where pi's `edit` looks for the file the model named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The file as [`crate::dialect::call::ToolCall::fs`] takes it.
    pub fs_path: String,
    /// The path is absolute as given and ends in `/`: node's `access` on
    /// it fails with `ENOTDIR` when it names a file (a relative path loses
    /// its trailing `/` in `path.resolve`).
    pub trailing_slash: bool,
}

/// pi's `normalizeUnicodeSpaces`: U+00A0, U+2000-U+200A, U+202F, U+205F
/// and U+3000 to a space.
fn normalize_unicode_spaces(path: &str) -> String {
    path.chars()
        .map(|c| match c {
            '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// pi's `expandPath`: `@` prefix, Unicode spaces, `~` (to `home`, node's
/// `os.homedir()`; left as is when it is unknown).
pub(super) fn expand_path(path: &str, home: Option<&str>) -> String {
    let normalized = normalize_unicode_spaces(path.strip_prefix('@').unwrap_or(path));
    match home {
        Some(home) if normalized == "~" => home.to_string(),
        Some(home) if normalized.starts_with("~/") => format!("{home}{}", &normalized[1..]),
        _ => normalized,
    }
}

/// pi's `resolveToCwd(path, cwd)` with `home` for `~`.
pub fn resolve_to_cwd(path: &str, cwd: &str, home: Option<&str>) -> Resolved {
    let expanded = expand_path(path, home);
    let absolute = expanded.starts_with('/');
    Resolved {
        fs_path: fs_path(cwd, &expanded),
        trailing_slash: absolute && expanded.len() > 1 && expanded.ends_with('/'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cases::assert_cases;

    const CWD: &str = "/home/user/project";

    fn resolved(path: &str) -> String {
        resolve_to_cwd(path, CWD, Some("/home/user")).fs_path
    }

    #[test]
    fn every_form_of_a_project_path_reaches_the_file() {
        for path in [
            "src/x.py",
            "./src/x.py",
            "@src/x.py",
            "src/../src/x.py",
            "/home/user/project/src/x.py",
            "~/project/src/x.py",
            "@~/project/src/x.py",
            "src/x.py/",
        ] {
            assert_eq!(resolved(path), "src/x.py", "{path}");
        }
    }

    #[test]
    fn paths_outside_the_project_stay_absolute() {
        assert_cases(
            resolved,
            &[
                ("~", "/home/user"),
                ("../other/a.rs", "/home/user/other/a.rs"),
                ("@@x", "@x"),
                ("~user/x", "~user/x"),
                ("a\u{a0}b", "a b"),
            ],
        );
    }

    #[test]
    fn an_unknown_home_leaves_the_tilde() {
        assert_eq!(resolve_to_cwd("~/x", CWD, None).fs_path, "~/x");
    }

    #[test]
    fn only_absolute_paths_keep_their_trailing_slash() {
        assert!(resolve_to_cwd("/home/user/project/x/", CWD, None).trailing_slash);
        assert!(!resolve_to_cwd("x/", CWD, None).trailing_slash);
    }
}
