//! A patch hunk whose `@@` line names a definition the agent did not find
//! (tester 51 T-08). Cline 3.x's `apply_patch` ignores an `@@` line that is
//! not in the file and matches the hunk's lines from its cursor (the top of
//! the file for a file's first hunk): a model that names `def g(a, b):`
//! (a stale signature of `g`) and quotes a line that also opens `f` gets
//! `f` edited, with a success message; Codex refuses the same patch
//! (`Failed to find context`). The model's two signals disagree, so where
//! the `@@` line names a definition the file has (by its name: `def g(a,
//! b, c):`) and the hunk lands in another one, srview says so: a doubt,
//! not an error. A hunk whose text also stands elsewhere is said by
//! [`crate::dialect::call_doubts`] (the agent took the first place).

use super::apply_patch::seek::{MatchLevel, occurrences};
use super::apply_patch::{PatchDoubt, PatchDoubtKind};
use super::call::{CallOutcome, Entry, Header, ToolCall, fs_path};
use super::placed::{defined_name, opens_definition};

/// Each edit of `outcome` (an agent named `agent` ran `call`) placed
/// exactly after its `@@` line was not found, whose `@@` line names a
/// definition of the file other than the one the edit lands in.
pub fn ignored_headers(agent: &str, call: &ToolCall, outcome: &CallOutcome) -> Vec<PatchDoubt> {
    let mut out = Vec::new();
    for (i, edit) in outcome.edits.iter().enumerate() {
        let Some(searched) = edit.searched.as_deref() else {
            continue;
        };
        let Some(Header { text, line: None }) = &searched.header else {
            continue;
        };
        let (Some(path), Some(found), Some((first, _))) =
            (searched.file.as_deref(), edit.found.as_deref(), edit.lines)
        else {
            continue;
        };
        if edit.loose || found.is_empty() || first == 0 {
            continue;
        }
        let content = match &searched.content {
            Some(content) => content.clone(),
            None => match call.fs.read(&fs_path(call.cwd, path)) {
                Entry::File(text) => text,
                _ => continue,
            },
        };
        let Some(message) = landed_elsewhere(text, &content, found, first) else {
            continue;
        };
        let way = if searched.from == 0 {
            "from the top".to_string()
        } else {
            format!("from line {}", searched.from + 1)
        };
        out.push(PatchDoubt {
            file: path.to_string(),
            section: i,
            hunk: Some(i),
            kind: PatchDoubtKind::HeaderIgnored,
            message: format!(
                "edit {}: its @@ line '{text}' is not in the file, so {agent} searched {way} \
                 without it and {message}",
                i + 1
            ),
        });
    }
    out
}

/// The rest of the sentence for a hunk whose `found` lines the agent
/// placed from 1-based line `first` of `content`, under an `@@` line
/// `header` it did not find: "placed the hunk in `f` (line 2); the closest
/// line to the header is ...". `None` where the header opens no definition,
/// the file defines no such name, the hunk lands in that definition (or
/// in none), or its lines stand at several places (said elsewhere).
fn landed_elsewhere(header: &str, content: &str, found: &str, first: usize) -> Option<String> {
    let named = defined_name(header).filter(|n| !n.is_empty())?;
    let lines = crate::textdiff::text_lines(content);
    let wanted = crate::textdiff::text_lines(found);
    let start = first - 1;
    if start >= lines.len() || occurrences(&lines, &wanted, 0, false, MatchLevel::Exact).len() > 1 {
        return None;
    }
    // The definitions the hunk lands in, innermost first: each opening
    // line above it less indented than the one before (a method's class
    // too: `@@ class A:` over a hunk in `A.f` names where it lands).
    let indent = |line: &str| line.len() - line.trim_start().len();
    let mut within = Vec::new();
    let mut depth = indent(lines[start]) + 1;
    for k in (0..=start).rev() {
        let line = lines[k];
        if line.trim().is_empty() || indent(line) >= depth {
            continue;
        }
        depth = indent(line);
        if let Some(name) = defined_name(line) {
            within.push(name);
        }
        if depth == 0 {
            break;
        }
    }
    let landed = *within.first()?;
    if within.contains(&named) {
        return None;
    }
    // Of the definitions of that name (a method in several classes), the
    // one sharing the longest start with the header; the first of equals.
    let shared = |line: &str| {
        let (a, b) = (line.trim().chars(), header.trim().chars());
        a.zip(b).take_while(|(x, y)| x == y).count()
    };
    let closest = (0..lines.len())
        .filter(|&k| opens_definition(lines[k]) && defined_name(lines[k]) == Some(named))
        .rev()
        .max_by_key(|&k| shared(lines[k]))?;
    Some(format!(
        "placed the hunk in `{landed}` (line {first}); the closest line to the header is `{}` at \
         line {}: send the @@ line as the file has it, with context lines of the definition meant",
        lines[closest].trim(),
        closest + 1
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIM: &str = "def f(a, b, c):\n    total = compute(a, b)\n    return total\n\n\n\
                       def g(a, b, c):\n    total = compute(a, c)\n    return total\n";

    #[test]
    fn a_header_naming_another_definition_is_said() {
        let found = "    total = compute(a, b)\n    return total";
        assert_eq!(
            landed_elsewhere("def g(a, b):", SIM, found, 2).as_deref(),
            Some(
                "placed the hunk in `f` (line 2); the closest line to the header is `def g(a, \
                 b, c):` at line 6: send the @@ line as the file has it, with context lines of \
                 the definition meant"
            )
        );
    }

    #[test]
    fn nothing_is_said_where_the_header_agrees_or_names_nothing() {
        let in_f = "    total = compute(a, b)\n    return total";
        let in_g = "    total = compute(a, c)\n    return total";
        // The hunk lands in the definition its stale header names.
        assert_eq!(landed_elsewhere("def g(a):", SIM, in_g, 7), None);
        assert_eq!(landed_elsewhere("def f(a):", SIM, in_f, 2), None);
        // A header that opens no definition, or names none of the file's.
        assert_eq!(landed_elsewhere("total = 0", SIM, in_f, 2), None);
        assert_eq!(landed_elsewhere("def h():", SIM, in_f, 2), None);
        // Text standing at several places: the first-of-several doubt.
        assert_eq!(
            landed_elsewhere("def g(a, b):", SIM, "    return total", 3),
            None
        );
        // A class's stale header over a hunk in its method.
        let class = "class A(Base):\n    def f(self):\n        return 1\n\n\nclass B:\n    pass\n";
        assert_eq!(
            landed_elsewhere("class A:", class, "        return 1", 3),
            None
        );
        // Of two definitions of the name, the one closest to the header.
        let two = "class A:\n    def g(self, x):\n        pass\n\n    def f(self):\n        return 1\n\n\nclass B:\n    def g(self, y, z=2):\n        pass\n";
        assert!(
            landed_elsewhere("def g(self, y, z=3):", two, "        return 1", 6)
                .is_some_and(|m| m.contains("`def g(self, y, z=2):` at line 10")),
        );
        // A hunk above every definition lands in none.
        let top = "import os\n\ndef g(a):\n    pass\n";
        assert_eq!(landed_elsewhere("def g(b):", top, "import os", 1), None);
    }
}
