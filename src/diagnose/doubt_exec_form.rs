//! *Pure.* A Dockerfile `CMD`, `ENTRYPOINT` or `RUN` the edit writes as a
//! bracketed list that is no JSON array of strings (`CMD ['python',
//! 'app.py']`: single quotes, a tester's find, round 49 T-04). Docker
//! reads the exec form only when the text parses as JSON; otherwise it
//! runs the whole text as a shell-form command, `/bin/sh -c "['python',
//! 'app.py']"`, and sh fails with `[python,: not found`.
//!
//! The rule, by evidence only: a Dockerfile
//! ([`super::doubt_heredoc::is_dockerfile`]); a line the edit changed or
//! added, `CMD`, `ENTRYPOINT` or `RUN` (a `--flag` after `RUN` read
//! past), whose rest starts with `[` and ends with `]` on that line, and
//! does not parse as a JSON array of strings; the original holds no line
//! so written.

/// An instruction written as a list Docker runs as a shell command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShellForm {
    /// The result's line (1-based) and its text, trimmed.
    pub line: (usize, String),
    /// The instruction (`CMD`).
    pub instruction: String,
    /// The list as written.
    pub list: String,
    /// The command sh looks for (its first word, quotes removed).
    pub command: String,
}

impl ShellForm {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: write the list in JSON, each item in double quotes (`{} {}`)",
            self.fault(),
            self.instruction,
            json_list(&self.list)
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (line, text) = &self.line;
        format!(
            "line {line} (`{text}`) writes the {instruction} as a list that is no JSON array of \
             strings, so Docker does not read it as the exec form: it runs the text as a shell \
             command, `/bin/sh -c \"{list}\"`, and sh fails with `{command}: not found`",
            instruction = self.instruction,
            list = self.list,
            command = self.command,
        )
    }
}

/// The first line of `result` (the Dockerfile `path` as an edit leaves
/// it) the edit writes so (see the module's rule).
pub(super) fn shell_form_list(path: &str, original: &str, result: &str) -> Option<ShellForm> {
    if !super::doubt_heredoc::is_dockerfile(path) || original == result {
        return None;
    }
    if original.lines().any(|l| listed(l).is_some()) {
        return None;
    }
    let (_, new, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    (prefix..new.len() - suffix).find_map(|n| {
        let (instruction, list) = listed(new[n])?;
        let command = list[1..]
            .split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !matches!(c, '\'' | '"'))
            .collect::<String>();
        Some(ShellForm {
            line: (n + 1, new[n].trim().to_string()),
            instruction,
            list: list.to_string(),
            command: format!("[{command}"),
        })
    })
}

/// The instruction and its list, where `line` writes a `CMD`,
/// `ENTRYPOINT` or `RUN` list that is no JSON array of strings.
fn listed(line: &str) -> Option<(String, &str)> {
    let mut rest = line.trim();
    let end = rest.find(char::is_whitespace)?;
    let instruction = rest[..end].to_ascii_uppercase();
    if !matches!(instruction.as_str(), "CMD" | "ENTRYPOINT" | "RUN") {
        return None;
    }
    rest = rest[end..].trim_start();
    while instruction == "RUN" && rest.starts_with("--") {
        let end = rest.find(char::is_whitespace)?;
        rest = rest[end..].trim_start();
    }
    if !rest.starts_with('[') || !rest.ends_with(']') {
        return None;
    }
    if serde_json::from_str::<Vec<String>>(rest).is_ok() || !list_shaped(rest) {
        return None;
    }
    // Said only where double quotes make it JSON (the offered list): a
    // list missing a comma (`["python" "-u"]`) is the separator check's
    // ([`super::doubt_separator`]), whose fix is the comma.
    serde_json::from_str::<Vec<String>>(&json_list(rest))
        .is_ok()
        .then_some((instruction, rest))
}

/// Whether `list` (`[..]`) is items in quotes between commas, each item
/// `'..'` or `".."` (not a shell test, `[ -f x ]`, `[ "$a" = "x,y" ]`).
fn list_shaped(list: &str) -> bool {
    let inner = list[1..list.len() - 1].trim();
    !inner.is_empty()
        && inner.split(',').all(|item| {
            let item = item.trim();
            item.len() >= 2
                && ['\'', '"']
                    .iter()
                    .any(|&q| item.starts_with(q) && item.ends_with(q))
        })
}

/// `list` with its single-quoted items double-quoted (a suggestion).
fn json_list(list: &str) -> String {
    list.replace('\'', "\"")
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str = "FROM python:3.12\nCOPY . /app\nCMD [\"python\", \"app.py\"]\n";

    #[test]
    fn a_single_quoted_list_is_said() {
        let result = FILE.replace("[\"python\", \"app.py\"]", "['python', 'app.py']");
        let form = shell_form_list("Dockerfile", FILE, &result).expect("a shell form");
        assert_eq!(
            form.describe(),
            "line 3 (`CMD ['python', 'app.py']`) writes the CMD as a list that is no JSON array \
             of strings, so Docker does not read it as the exec form: it runs the text as a \
             shell command, `/bin/sh -c \"['python', 'app.py']\"`, and sh fails with \
             `[python,: not found`: write the list in JSON, each item in double quotes (`CMD \
             [\"python\", \"app.py\"]`)"
        );
        let entry = FILE.replace("CMD [\"python\", \"app.py\"]", "ENTRYPOINT ['x']");
        assert_eq!(
            shell_form_list("app.dockerfile", FILE, &entry).map(|f| f.command),
            Some("[x]".to_string())
        );
    }

    #[test]
    fn json_lists_and_shell_forms_are_not_said() {
        for fine in [
            "CMD [\"python\", \"-m\", \"app\"]",
            "CMD python app.py",
            "RUN [ -f x ] && echo y",
            "RUN [ -f x ]",
            "RUN [ \"$a\" = \"x,y\" ]",
            // A comma missing: the separator check's, with the comma as
            // its fix (double quotes alone would not make it JSON).
            "CMD [\"python\" \"-u\", \"app.py\"]",
        ] {
            let result = FILE.replace("CMD [\"python\", \"app.py\"]", fine);
            assert_eq!(shell_form_list("Dockerfile", FILE, &result), None, "{fine}");
        }
        let result = FILE.replace("\"app.py\"]", "'app.py']");
        assert_eq!(shell_form_list("Makefile", FILE, &result), None);
    }
}
