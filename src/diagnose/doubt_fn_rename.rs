//! *Pure.* A shell function renamed in place by an edit while the script
//! still calls it by its old name (a tester's find, round 49 T-04's rest:
//! `greet() {` renamed `say_hello() {`, `greet "$1"` left below; bash says
//! `greet: command not found` when the call runs).
//!
//! The rule, by evidence only, for a sh or bash script
//! ([`super::doubt_shell::shell_script`]):
//! - a line the edit replaces defines a function (`name() {`, `function
//!   name`), and a line it writes instead defines another name;
//! - the result defines the old name nowhere;
//! - the result still runs the old name as a command (a plain word where a
//!   command's name stands, [`super::doubt_bashism::command_names`]);
//! - neither text runs `source` or `.` (a file read so may define it) nor
//!   `alias`, `eval`; the reader unsure of either text: no verdict.

use super::doubt_bashism::{command_names, line_starts};

/// A function renamed while a call keeps its old name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunctionRenamed {
    /// The old name.
    pub old: String,
    /// The new name.
    pub new: String,
    /// The result's line (1-based) defining the new name, trimmed.
    pub defined: (usize, String),
    /// The result's first line calling the old name, trimmed.
    pub call: (usize, String),
}

impl FunctionRenamed {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: rename its calls in the new text too, or keep the name `{}`",
            self.fault(),
            self.old
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (d, dtext) = &self.defined;
        let (c, ctext) = &self.call;
        format!(
            "line {d} (`{dtext}`) renames the function `{old}` to `{new}`, and line {c} \
             (`{ctext}`) still calls `{old}`, which the script no longer defines: bash says \
             `{old}: command not found` when that line runs (or runs a program of that name, \
             if one is on PATH)",
            old = self.old,
            new = self.new,
        )
    }
}

/// The function `result` (the script `path` as an edit leaves it) renames
/// while still calling its old name (see the module's rule).
pub(super) fn function_renamed(
    path: &str,
    original: &str,
    result: &str,
) -> Option<FunctionRenamed> {
    if original == result || !super::doubt_shell::shell_script(path, original) {
        return None;
    }
    let reads_others = |text: &str| {
        text.lines().any(|l| {
            let first = l.split_whitespace().next().unwrap_or("");
            matches!(first, "source" | "." | "alias" | "eval")
        })
    };
    if reads_others(original) || reads_others(result) {
        return None;
    }
    let (old, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let gone: Vec<&str> = old[prefix..old.len() - suffix]
        .iter()
        .filter_map(|l| defined(l))
        .filter(|name| !new.iter().any(|l| defined(l) == Some(name)))
        .collect();
    let (at, new_name) =
        (prefix..new.len() - suffix).find_map(|n| defined(new[n]).map(|name| (n, name)))?;
    if gone.is_empty()
        || gone.contains(&new_name)
        || old.iter().any(|l| defined(l) == Some(new_name))
    {
        return None;
    }
    let names = command_names(result)?;
    let starts = line_starts(result);
    let (name, byte) = names.iter().find(|(name, byte)| {
        let line = starts.partition_point(|&s| s <= *byte);
        gone.contains(&name.as_str()) && defined(new.get(line - 1).copied().unwrap_or("")).is_none()
    })?;
    let line = starts.partition_point(|&s| s <= *byte);
    Some(FunctionRenamed {
        old: name.clone(),
        new: new_name.to_string(),
        defined: (at + 1, new[at].trim().to_string()),
        call: (line, new[line - 1].trim().to_string()),
    })
}

/// The function `line` defines: `name() {`, `name ()`, `function name`.
fn defined(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let name_len = |s: &str| {
        s.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')))
            .unwrap_or(s.len())
    };
    if let Some(rest) = line.strip_prefix("function ") {
        let rest = rest.trim_start();
        let len = name_len(rest);
        return (len > 0).then(|| &rest[..len]);
    }
    let len = name_len(line);
    let after = line[len..].trim_start();
    (len > 0 && after.starts_with("()") && !line[..len].contains('=')).then(|| &line[..len])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCRIPT: &str =
        "#!/bin/bash\nset -e\n\ngreet() {\n  echo \"hi $1\"\n}\n\ngreet \"$1\"\nx=$(greet you)\n";

    #[test]
    fn a_function_renamed_with_a_call_left_is_said() {
        let result = SCRIPT.replace("greet() {", "say_hello() {");
        let renamed = function_renamed("hi.sh", SCRIPT, &result).expect("renamed");
        assert_eq!(
            renamed.describe(),
            "line 4 (`say_hello() {`) renames the function `greet` to `say_hello`, and line 8 \
             (`greet \"$1\"`) still calls `greet`, which the script no longer defines: bash says \
             `greet: command not found` when that line runs (or runs a program of that name, if \
             one is on PATH): rename its calls in the new text too, or keep the name `greet`"
        );
    }

    #[test]
    fn calls_renamed_too_or_a_sourced_file_is_not_said() {
        let all = SCRIPT.replace("greet", "say_hello");
        assert_eq!(function_renamed("hi.sh", SCRIPT, &all), None);
        let sourced = SCRIPT.replace("set -e", ". ./lib.sh");
        let result = sourced.replace("greet() {", "say_hello() {");
        assert_eq!(function_renamed("hi.sh", &sourced, &result), None);
        // A new function added beside the old one: the old stays.
        let added = SCRIPT.replace("greet() {", "other() {\n  :\n}\ngreet() {");
        assert_eq!(function_renamed("hi.sh", SCRIPT, &added), None);
    }
}
