//! srview's doubts of an `apply_patch` call of an agent whose tool takes
//! Codex's patch format (OpenCode's, Cline 3.x's), judged in one place for
//! every command: the matchers set [`CallOutcome::patch_doubts`] from
//! [`doubts`], and `check`, `apply --write`, `fix`, the session review, the
//! previewers ([`crate::dialect::call_doubts`]) and the gate read them
//! there (a tester's find: the gate ran these checks on OpenCode's patches
//! and `--dialect opencode-apply-patch` did not, so a hunk landing in
//! another class was written and called exact).
//!
//! The checks are Codex's ([`crate::dialect::apply_patch::patch_doubts`],
//! over the patch applied by srview's port of Codex's applier, whose
//! forward search these agents share), in the agent's own words, with
//! what differs in the agent's placement:
//! - Cline puts a hunk of added lines only right after its `@@` line (at
//!   its cursor), not at the end of the file: Codex's "lands at the end"
//!   doubts are not Cline's; its own are here ([`cursor_doubts`]: the `@@`
//!   line standing nowhere, or at several places, and the added lines
//!   already standing after it);
//! - the layout of what the agent writes (Python's indentation, brackets,
//!   a name twice), judged on the agent's own result, not Codex's.

use super::apply_patch::{self, PatchDoubt, PatchDoubtKind, Section};
use super::call::{CallOutcome, Entry, Header, ToolCall, fs_path};

/// An agent whose `apply_patch` takes Codex's patch format.
pub struct PatchAgent {
    /// Its `--dialect` value.
    pub dialect: &'static str,
    /// The agent's name, for "OpenCode's apply_patch".
    pub name: &'static str,
    /// A hunk of added lines only goes to the agent's cursor (right after
    /// its `@@` line), not to the end of the file as Codex's does.
    pub adds_at_cursor: bool,
    /// Every section is read from the files as they were before the patch
    /// (OpenCode's), not as the sections before it left them (Codex's):
    /// two sections for one file each start from the file before, and the
    /// later one's write replaces the earlier one's.
    pub reads_files_before: bool,
}

/// OpenCode 1.18.33's `apply_patch`.
pub const OPENCODE: PatchAgent = PatchAgent {
    dialect: "opencode-apply-patch",
    name: "OpenCode",
    adds_at_cursor: false,
    reads_files_before: true,
};

/// Cline 3.0.65's `apply_patch`: it computes every change from the files
/// as loaded before the patch, then writes them; one path spelt alike
/// twice is refused (`Duplicate update`), but `./a.py`, an absolute path
/// or a link to `a.py` is another path to it (tester 51 T-01).
pub const CLINE: PatchAgent = PatchAgent {
    dialect: "cline-apply-patch",
    name: "Cline",
    adds_at_cursor: true,
    reads_files_before: true,
};

/// Every agent whose patch calls are judged here.
pub const AGENTS: [&PatchAgent; 2] = [&OPENCODE, &CLINE];

impl PatchAgent {
    /// `text` naming this agent's tool where it says "the reference"
    /// (srview's word for the program a dialect reproduces).
    fn own_words(&self, text: &str) -> String {
        crate::words::own_words(&format!("{}'s apply_patch", self.name), text)
    }
}

/// The patch `text` as Codex's parser reads it: as sent, else (Cline reads
/// a patch without its envelope) inside `*** Begin Patch` / `*** End Patch`.
fn codex_patch(text: &str) -> Option<apply_patch::Patch> {
    apply_patch::parse(text).ok().or_else(|| {
        let trimmed = text.trim();
        let begin = if trimmed.starts_with("*** Begin Patch") {
            ""
        } else {
            "*** Begin Patch\n"
        };
        let end = if trimmed.ends_with("*** End Patch") {
            ""
        } else {
            "\n*** End Patch"
        };
        apply_patch::parse(&format!("{begin}{trimmed}{end}")).ok()
    })
}

/// What srview cannot stand behind in `outcome`, `agent`'s run of `call`
/// whose patch is `text`: nothing when the agent refuses it.
pub fn doubts(
    agent: &PatchAgent,
    text: &str,
    call: &ToolCall,
    outcome: &CallOutcome,
) -> Vec<PatchDoubt> {
    if !outcome.ok {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(patch) = codex_patch(text) {
        let codex = apply_patch::apply(&patch, call.fs, call.cwd);
        if codex.exit_code == 0 {
            out.extend(
                apply_patch::patch_doubts(&patch, &codex, call.fs, call.cwd)
                    .into_iter()
                    .filter(|d| agents_own(agent, &patch, d))
                    .map(|d| PatchDoubt {
                        message: agent.own_words(&d.message),
                        ..d
                    }),
            );
        }
    }
    if agent.reads_files_before
        && let Some(patch) = codex_patch(text)
    {
        out.extend(lost_sections(agent, &patch, call, outcome));
    }
    if agent.adds_at_cursor {
        out.extend(cursor_doubts(agent, call, outcome));
    }
    out.extend(super::patch_header::ignored_headers(
        agent.name, call, outcome,
    ));
    if outcome.edits.iter().all(|e| !e.loose) {
        out.extend(layout_doubts(call, outcome));
    }
    out
}

/// Each section of `patch` whose change `agent`, reading every section
/// from the files as they were before the patch, loses: a later section
/// for its file ([`apply_patch::sections::repeated_updates_by`], the file
/// however it is spelt: `./a.py`, its absolute path, a symbolic link to
/// it, [`apply_patch::fs::same_file`]) starts from the file before too,
/// and its write replaces the earlier one's (tester 48 T-06: OpenCode's
/// tool derives every update from the file on disk, then writes them in
/// patch order; tester 51 T-01: Cline's the same, for a file named two
/// ways). Nothing where what the agent writes is what the sections
/// applied one after the other give (Codex's reading: the earlier section
/// changes nothing, or the later one carries its change).
fn lost_sections(
    agent: &PatchAgent,
    patch: &apply_patch::Patch,
    call: &ToolCall,
    outcome: &CallOutcome,
) -> Vec<PatchDoubt> {
    let name = |path: &str| apply_patch::fs::same_file(call.fs, call.cwd, path);
    let pairs = apply_patch::sections::repeated_updates_by(patch, name);
    let mut out = Vec::new();
    for (i, j) in pairs {
        let path = patch.sections[i].path();
        let file = name(path);
        // Every section naming the file, spelt as section `i` spells it:
        // Codex's port applies them in turn over one file.
        let one_name = spelt_as(patch, &file, path, &name);
        let codex = apply_patch::apply(&one_name, call.fs, call.cwd);
        let at = fs_path(call.cwd, path);
        // What stays: the agent's last write of the file, by any name.
        let written = outcome
            .writes
            .iter()
            .rev()
            .find(|w| name(&w.path) == file)
            .and_then(|w| w.content.as_deref());
        let key = apply_patch::fs::normalize(path);
        let in_turn = codex.files.get(&key).and_then(|c| c.as_deref());
        if codex.exit_code == 0 && written == in_turn {
            continue;
        }
        // The earlier section alone (from the file before, as the agent
        // derives it): nothing lost where it changes nothing, or where
        // what is written already holds its result (the section sent
        // twice).
        let alone = apply_patch::Patch {
            sections: vec![patch.sections[i].clone()],
        };
        let alone = apply_patch::apply(&alone, call.fs, call.cwd);
        let own = alone.files.get(&key).and_then(|c| c.as_deref());
        let before = match call.fs.read(&at) {
            Entry::File(text) => Some(text),
            _ => None,
        };
        if alone.exit_code == 0 && (own == before.as_deref() || own == written) {
            continue;
        }
        let [first, _] = patch_lines(&patch.sections[i]);
        let [_, last] = patch_lines(&patch.sections[j]);
        let later = patch.sections[j].path();
        let named = if later == path {
            String::new()
        } else if fs_path(call.cwd, later) == at {
            format!(", section {} naming it {later}", j + 1)
        } else {
            format!(
                ", section {} naming it {later}, a symbolic link to it",
                j + 1
            )
        };
        out.push(PatchDoubt {
            file: path.to_string(),
            section: i,
            hunk: None,
            kind: PatchDoubtKind::SplitSections,
            message: format!(
                "sections {} and {} both update {path} (patch lines {first}-{last}{named}): \
                 {}'s apply_patch reads each section from {path} as it was before the patch \
                 and writes them in turn, so section {}'s result replaces section {}'s, and \
                 the change of section {} is lost: send the hunks of {path} as one section, in \
                 file order",
                i + 1,
                j + 1,
                agent.name,
                j + 1,
                i + 1,
                i + 1,
            ),
        });
    }
    out
}

/// `patch` with every section naming the file `file` (by `name`) spelt
/// `path`, its moves' targets included.
fn spelt_as(
    patch: &apply_patch::Patch,
    file: &str,
    path: &str,
    name: &impl Fn(&str) -> String,
) -> apply_patch::Patch {
    let respelt = |p: &String| {
        if name(p) == file {
            path.to_string()
        } else {
            p.clone()
        }
    };
    let sections = patch
        .sections
        .iter()
        .map(|section| match section {
            Section::Update {
                path,
                move_to,
                chunks,
                header_line,
            } => Section::Update {
                path: respelt(path),
                move_to: move_to.as_ref().map(respelt),
                chunks: chunks.clone(),
                header_line: *header_line,
            },
            Section::Add {
                path,
                content,
                header_line,
            } => Section::Add {
                path: respelt(path),
                content: content.clone(),
                header_line: *header_line,
            },
            Section::Delete { path, header_line } => Section::Delete {
                path: respelt(path),
                header_line: *header_line,
            },
        })
        .collect();
    apply_patch::Patch { sections }
}

/// The 1-based first and last patch lines of `section` (its header line
/// to its last hunk's last line).
fn patch_lines(section: &Section) -> [usize; 2] {
    let first = section.header_line();
    let last = match section {
        Section::Update { chunks, .. } => chunks.last().map_or(first, |c| c.patch_lines()[1]),
        _ => first,
    };
    [first, last]
}

/// Whether Codex's doubt `d` of `patch` holds for `agent`'s placement: not
/// a layout fault of Codex's result (the agent's own is judged,
/// [`layout_doubts`]), not that the hunk's lines stand at several places
/// where Codex searched (where the agent searched is judged, with the
/// agent's line numbers, by [`crate::dialect::call_doubts`]: both agents
/// take the first place), and, for an agent putting a hunk of added lines
/// only at its cursor, not that such a hunk lands at the end of the file
/// or that the file already ends with its lines.
fn agents_own(agent: &PatchAgent, patch: &apply_patch::Patch, d: &PatchDoubt) -> bool {
    use PatchDoubtKind as K;
    // Two sections for one file: the agents' own reading is judged
    // ([`lost_sections`]; Cline refuses such a patch).
    if d.kind.is_layout() || d.kind == K::Repeated || d.kind == K::SplitSections {
        return false;
    }
    if !agent.adds_at_cursor {
        return true;
    }
    let pure_addition = match patch.sections.get(d.section) {
        Some(Section::Update { chunks, .. }) => {
            d.hunk.and_then(|h| chunks.get(h)).is_some_and(|c| {
                c.lines
                    .iter()
                    .all(|l| l.kind == apply_patch::LineKind::Added)
            })
        }
        _ => false,
    };
    !(d.kind == K::AddedAtEnd || d.kind == K::AlreadyApplied && pure_addition)
}

/// Each file the agent writes whose layout it breaks where the file
/// before had no such fault ([`crate::diagnose::layout::layout_break`]:
/// Python misindented, a name defined twice, brackets unbalanced, JSON
/// unreadable), judged on what the agent writes (the gate judged Codex's
/// result, where a Cline hunk's lines stand elsewhere: a tester's find,
/// `check` said Python refuses the file and the gate allowed it). Its
/// `section` is the write's index, and the file is named as written.
fn layout_doubts(call: &ToolCall, outcome: &CallOutcome) -> Vec<PatchDoubt> {
    let mut out = Vec::new();
    for (s, write) in outcome.writes.iter().enumerate() {
        let Some(after) = write.content.as_deref() else {
            continue;
        };
        // The last write of a path is what stays.
        if outcome.writes[s + 1..].iter().any(|w| w.path == write.path) {
            continue;
        }
        let before = match call.fs.read(&write.path) {
            Entry::File(text) => text.to_string(),
            _ => String::new(),
        };
        let Some(fault) = crate::diagnose::layout::layout_break(&write.path, &before, after) else {
            continue;
        };
        out.push(apply_patch::doubt::layout_doubt(
            write.path.clone(),
            s,
            &write.path,
            &fault,
        ));
    }
    out
}

/// The doubts of each hunk of added lines only that `agent` puts at its
/// cursor (Cline's stage `no_context`), whose `@@` line alone names the
/// place: an `@@` line standing nowhere (the lines go to the cursor: the
/// top of the file for a file's first hunk), one standing at several
/// places (the first after the cursor is taken), and added lines already
/// standing right there (the hunk sent again after it applied).
fn cursor_doubts(agent: &PatchAgent, call: &ToolCall, outcome: &CallOutcome) -> Vec<PatchDoubt> {
    let mut out = Vec::new();
    for (i, edit) in outcome.edits.iter().enumerate() {
        let (Some(searched), Some(written)) = (&edit.searched, &edit.written) else {
            continue;
        };
        if edit.loose || edit.found.as_deref() != Some("") {
            continue;
        }
        let Some(path) = searched.file.as_deref() else {
            continue;
        };
        let content = match call.fs.read(&fs_path(call.cwd, path)) {
            Entry::File(text) => text.to_string(),
            _ => continue,
        };
        let lines = crate::textdiff::text_lines(&content);
        // Its `section` and `hunk` are the edit's index (Cline's edits are
        // its sections' hunks, in order).
        let doubt = |kind, message: String| PatchDoubt {
            file: path.to_string(),
            section: i,
            hunk: Some(i),
            kind,
            message: format!("edit {}: {message}", i + 1),
        };
        let added = crate::textdiff::text_lines(written);
        match &searched.header {
            Some(Header { text, line: None }) => {
                let (nowhere, place) = if searched.from == 0 {
                    (
                        String::new(),
                        "at the top of the file, before line 1".to_string(),
                    )
                } else {
                    (
                        format!(" after line {}", searched.from),
                        format!("after line {}, where its cursor stood", searched.from),
                    )
                };
                out.push(doubt(
                    PatchDoubtKind::AddedAtEnd,
                    format!(
                        "its @@ line '{text}' stands nowhere in {path}{nowhere}: {}'s \
                         apply_patch puts its {} {place}, not where the @@ line names: send \
                         the @@ line as it stands in the file, or the hunk with a few of the \
                         file's lines around the new ones (each after a space) as context",
                        agent.name,
                        crate::words::count(added.len(), "added line")
                    ),
                ));
                continue;
            }
            Some(Header {
                text,
                line: Some(taken),
            }) => {
                let same = |l: &&str| l.trim() == text.trim();
                let others: Vec<String> = (lines.iter().enumerate().skip(*taken))
                    .filter(|(_, l)| same(l))
                    .map(|(at, _)| (at + 1).to_string())
                    .collect();
                if !others.is_empty() {
                    out.push(doubt(
                        PatchDoubtKind::Repeated,
                        format!(
                            "its @@ line '{text}' stands at line {taken} and also at {} {}: \
                             {}'s apply_patch puts the added lines after the first, which may \
                             not be the one meant: send the hunk with a few of the file's \
                             lines around the new ones (each after a space) as context, so \
                             that it stands at one place",
                            if others.len() == 1 { "line" } else { "lines" },
                            others.join(", "),
                            agent.name
                        ),
                    ));
                }
            }
            None => {}
        }
        if let Some((at, first)) = lost_first_line(&lines, searched.from, &added) {
            let place = if searched.from == 0 {
                "at the top of the file".to_string()
            } else {
                format!("after line {}", searched.from)
            };
            out.push(doubt(
                PatchDoubtKind::AddedAtEnd,
                format!(
                    "{}'s apply_patch puts its {} {place}, above line {at} '{first}', which \
                     must stay above the file's code (a #! line, an encoding line, a module \
                     docstring, `from __future__`, a `package` clause): the file no longer \
                     runs or compiles as it did: send the hunk with a few of the file's lines \
                     around the new ones (each after a space) as context, from the place meant",
                    agent.name,
                    crate::words::count(added.len(), "added line")
                ),
            ));
        }
        if let Some((a, b)) = already_after(&lines, searched.from, &added) {
            let after = match &searched.header {
                Some(Header {
                    text,
                    line: Some(line),
                }) => format!("right after its @@ line '{text}' at line {line}"),
                _ if searched.from == 0 => "at the top of the file".to_string(),
                _ => format!("right after line {}", searched.from),
            };
            out.push(doubt(
                PatchDoubtKind::AlreadyApplied,
                format!(
                    "its new text is already there ({}, {after}, where {}'s apply_patch puts \
                     it): this looks applied already, and applied again it repeats what it adds",
                    crate::words::line_range("line", a, b),
                    agent.name
                ),
            ));
        }
    }
    out
}

/// The 0-based lines of the file `lines` that must stand above its code,
/// where they stand: a `#!` line and an encoding line (`# -*- coding: ...`)
/// at the top, then, after blank and comment lines only, a Python module
/// docstring and `from __future__` imports after it, Go's build
/// constraints and `package` clause, PHP's `<?php`, JavaScript's
/// `"use strict"`, YAML's `%YAML` / `---` directives.
fn prologue(lines: &[&str]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut code_seen = false;
    while i < lines.len() {
        let line = lines[i].trim();
        let cookie = i < 2 && line.starts_with('#') && {
            let after = line.find("coding").map_or("", |at| &line[at + 6..]);
            after.starts_with(':') || after.starts_with('=')
        };
        let first = !code_seen
            && (line.starts_with("package ")
                || line.starts_with("<?php")
                || line.starts_with("%YAML")
                || line == "---"
                || ["\"use strict\"", "'use strict'"]
                    .iter()
                    .any(|s| line.trim_end_matches(';') == *s));
        if (i == 0 && line.starts_with("#!"))
            || cookie
            || line.starts_with("//go:build")
            || line.starts_with("// +build")
        {
            out.push(i);
        } else if let Some(rest) = line.strip_prefix("/*") {
            // A block comment: to the line closing it.
            if !rest.contains("*/") {
                i = (i + 1..lines.len())
                    .find(|&j| lines[j].contains("*/"))
                    .unwrap_or(lines.len());
            }
        } else if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
            // Blank and comment lines may stand above them.
        } else if !code_seen && docstring_opens(line) {
            let quote = if line.contains("\"\"\"") {
                "\"\"\""
            } else {
                "'''"
            };
            let opened = line.find(quote).map_or(line.len(), |at| at + 3);
            let end = if line[opened..].contains(quote) {
                i
            } else {
                (i + 1..lines.len())
                    .find(|&j| lines[j].contains(quote))
                    .unwrap_or(lines.len().saturating_sub(1))
            };
            out.extend(i..=end);
            code_seen = true;
            i = end;
        } else if crate::diagnose::pystatements::future_import(line) {
            out.push(i);
            code_seen = true;
        } else if first {
            out.push(i);
            break;
        } else {
            break;
        }
        i += 1;
    }
    out
}

/// Whether `line` (trimmed) opens a Python string in triple quotes.
fn docstring_opens(line: &str) -> bool {
    let bare = line.trim_start_matches(['r', 'R', 'u', 'U', 'b', 'B']);
    bare.len() + 2 >= line.len() && (bare.starts_with("\"\"\"") || bare.starts_with("\'\'\'"))
}

/// The first line of `lines` (the file) that must stand above its code
/// ([`prologue`]) and no longer does once `added` is put before 0-based
/// line `at`: its 1-based number and text. `None` when each such line at
/// or after `at` still does (a comment added above a `package` clause, a
/// `#!` line added to a file with none).
fn lost_first_line<'a>(lines: &[&'a str], at: usize, added: &[&str]) -> Option<(usize, &'a str)> {
    let before = prologue(lines);
    let moved: Vec<usize> = before.iter().copied().filter(|&i| i >= at).collect();
    if moved.is_empty() || added.iter().all(|l| l.trim().is_empty()) {
        return None;
    }
    let mut result: Vec<&str> = lines[..at.min(lines.len())].to_vec();
    result.extend_from_slice(added);
    result.extend_from_slice(&lines[at.min(lines.len())..]);
    let after = prologue(&result);
    let lost = moved
        .into_iter()
        .find(|&i| !after.contains(&(i + added.len())))?;
    Some((lost + 1, lines[lost].trim()))
}

/// Where `lines` (the file) already hold `added` (a hunk's added lines)
/// right at 0-based line `at`, blank lines at either end of `added` left
/// out: their 1-based first and last line; `None` when they do not, or
/// when `added` holds no letter or digit (a closing `}` alone may well be
/// meant twice).
fn already_after(lines: &[&str], at: usize, added: &[&str]) -> Option<(usize, usize)> {
    let blank = |l: &&str| l.trim().is_empty();
    let start = added.iter().position(|l| !blank(l))?;
    let end = added.iter().rposition(|l| !blank(l))? + 1;
    let added = &added[start..end];
    if !added.iter().any(|l| l.chars().any(char::is_alphanumeric)) {
        return None;
    }
    // The blank lines the hunk adds first may stand there too, or not.
    let first = (at..lines.len()).find(|&i| !blank(&lines[i]))?;
    if first - at > start {
        return None;
    }
    let there = lines.get(first..first + added.len())?;
    (there == added).then_some((first + 1, first + added.len()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnose::layout::BreakKind;
    use crate::dialect::call::run_in_memory;
    use crate::dialect::registry::find;

    /// `agent`'s matcher on `patch` over `files`: its patch doubts, each
    /// with its kind (the call must succeed).
    fn judged(
        agent: &PatchAgent,
        files: &[(&str, &str)],
        patch: &str,
    ) -> Vec<(PatchDoubtKind, String)> {
        let row = find(agent.dialect).expect("row");
        let key = row.text_field.expect("a patch field");
        let input = serde_json::json!({ key: patch });
        let outcome = run_in_memory(row.matcher().expect("matcher"), "/p", files, &input);
        assert!(outcome.ok, "{}: {outcome:?}", agent.dialect);
        outcome
            .patch_doubts
            .expect("judged")
            .into_iter()
            .map(|d| (d.kind, d.message))
            .collect()
    }

    fn wrap(body: &str) -> String {
        format!("*** Begin Patch\n{body}*** End Patch\n")
    }

    /// Two sections for one file (tester 48 T-06): OpenCode derives both
    /// from the file before the patch, so the first section's change is
    /// lost: a doubt naming both. Not when the first changes nothing or
    /// is sent twice (what is written holds its change).
    #[test]
    fn an_earlier_section_opencode_loses_is_doubted() {
        let files = [("a.py", "x = 1\ny = 2\nz = 3\n")];
        let section = |hunk: &str| format!("*** Update File: a.py\n{hunk}");
        let two = wrap(&(section("@@\n-x = 1\n+x = 10\n") + &section("@@\n-z = 3\n+z = 30\n")));
        let doubts = judged(&OPENCODE, &files, &two);
        assert_eq!(
            doubts,
            [(
                PatchDoubtKind::SplitSections,
                "sections 1 and 2 both update a.py (patch lines 2-9): OpenCode's apply_patch \
                 reads each section from a.py as it was before the patch and writes them in \
                 turn, so section 2's result replaces section 1's, and the change of section 1 \
                 is lost: send the hunks of a.py as one section, in file order"
                    .to_string()
            )]
        );
        let same = section("@@\n-x = 1\n+x = 10\n");
        assert!(judged(&OPENCODE, &files, &wrap(&same.repeat(2))).is_empty());
        let nothing = section("@@\n x = 1\n") + &section("@@\n-z = 3\n+z = 30\n");
        assert!(judged(&OPENCODE, &files, &wrap(&nothing)).is_empty());
    }

    /// One file updated by two sections under two names (tester 51 T-01):
    /// `./a.py`, its absolute path, or a symbolic link to it. Cline (which
    /// refuses only the same spelling twice) and OpenCode both read each
    /// section from the file before the patch and write them in turn: the
    /// first change is lost, said with the name the later section uses.
    #[test]
    fn a_file_named_two_ways_loses_its_first_section() {
        let before = "def f():\n    return 1\n\n\ndef g():\n    return 3\n";
        let fs =
            crate::dialect::apply_patch::MemoryFs::new([("a.py".to_string(), before.to_string())])
                .with_link("link.py", "a.py");
        let patch = |second: &str| {
            wrap(&format!(
                "*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
                 *** Update File: {second}\n@@\n def g():\n-    return 3\n+    return 4\n"
            ))
        };
        let lost = |named: &str, agent: &str| {
            format!(
                "sections 1 and 2 both update a.py (patch lines 2-11{named}): {agent}'s \
                 apply_patch reads each section from a.py as it was before the patch and \
                 writes them in turn, so section 2's result replaces section 1's, and the \
                 change of section 1 is lost: send the hunks of a.py as one section, in file \
                 order"
            )
        };
        for agent in AGENTS {
            let row = find(agent.dialect).expect("row");
            let key = row.text_field.expect("a patch field");
            for (second, named) in [
                ("./a.py", ", section 2 naming it ./a.py"),
                ("/p/a.py", ", section 2 naming it /p/a.py"),
                (
                    "link.py",
                    ", section 2 naming it link.py, a symbolic link to it",
                ),
            ] {
                let input = serde_json::json!({ key: patch(second) });
                let call = ToolCall {
                    input: &input,
                    cwd: "/p",
                    fs: &fs,
                };
                let outcome = row.matcher().expect("matcher").run(&call);
                assert!(outcome.ok, "{} {second}: {outcome:?}", agent.dialect);
                let doubts: Vec<(PatchDoubtKind, String)> = outcome
                    .patch_doubts
                    .unwrap_or_default()
                    .into_iter()
                    .map(|d| (d.kind, d.message))
                    .collect();
                assert_eq!(
                    doubts,
                    [(PatchDoubtKind::SplitSections, lost(named, agent.name))],
                    "{} {second}",
                    agent.dialect
                );
            }
        }
        // Another file (a link elsewhere is another file): nothing lost.
        let other = crate::dialect::apply_patch::MemoryFs::new([
            ("a.py".to_string(), before.to_string()),
            ("b.py".to_string(), before.to_string()),
        ])
        .with_link("link.py", "b.py");
        let input = serde_json::json!({ "input": patch("link.py") });
        let call = ToolCall {
            input: &input,
            cwd: "/p",
            fs: &other,
        };
        let cline = find(CLINE.dialect)
            .and_then(|row| row.matcher())
            .expect("matcher");
        let outcome = cline.run(&call);
        assert!(
            outcome.ok && outcome.patch_doubts == Some(Vec::new()),
            "{outcome:?}"
        );
    }

    const SHAPES: &str = "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3.14159 * self.r ** 2\n\n\nclass Square:\n    def __init__(self, s):\n        self.s = s\n\n    def area(self):\n        return self.s ** 2\n";

    const SVC: &str = "def start(cfg):\n    retries = 3\n    connect(cfg)\n\n\ndef helper():\n    return 1\n\n\ndef stop(cfg):\n    retries = 3\n    disconnect(cfg)\n";

    /// One case of the table: the files, the patch, and for each agent
    /// (OpenCode, Cline) the kind of its one doubt and a piece of its
    /// sentence; `None`: the agent refuses the patch itself, or nothing is
    /// in doubt.
    struct Case {
        what: &'static str,
        files: &'static [(&'static str, &'static str)],
        patch: String,
        opencode: Option<(PatchDoubtKind, &'static str)>,
        cline: Option<(PatchDoubtKind, &'static str)>,
    }

    /// Every patch doubt kind, on each patch dialect (round 40a's finds 02
    /// to 05 and 07): what each agent does decides which holds; both run
    /// the same checks through [`doubts`], from their matchers.
    #[test]
    fn every_patch_dialect_runs_the_same_checks() {
        use PatchDoubtKind as K;
        let cases = [
            Case {
                what: "added lines under an @@ line (02)",
                files: &[("shapes.py", SHAPES)],
                patch: wrap(
                    "*** Update File: shapes.py\n@@ class Circle:\n+    def perimeter(self):\n+        return 2 * 3.14159 * self.r\n+\n",
                ),
                opencode: Some((
                    K::AddedAtEnd,
                    "hunk #1 of shapes.py adds its lines at the end of the file, after line 14, \
                     not after its @@ line 'class Circle:' (line 1): OpenCode's apply_patch puts \
                     a hunk with no context or removed lines at the end of the file, whatever \
                     its @@ line",
                )),
                cline: None,
            },
            Case {
                what: "an Add over a file that exists (07)",
                files: &[("svc.py", SVC)],
                patch: wrap("*** Add File: svc.py\n+x = 1\n"),
                opencode: Some((
                    K::ReplacesFile,
                    "the patch adds svc.py, which exists (12 lines): OpenCode's apply_patch \
                     replaces it whole",
                )),
                // Cline refuses it itself ("File already exists").
                cline: None,
            },
            Case {
                what: "a Delete and an Add of one path (07)",
                files: &[("svc.py", SVC)],
                patch: wrap("*** Delete File: svc.py\n*** Add File: svc.py\n+x = 1\n"),
                opencode: Some((
                    K::ReplacesFile,
                    "the patch deletes svc.py (section 1) and adds it again: OpenCode's \
                     apply_patch replaces its 12 lines whole",
                )),
                cline: None,
            },
            Case {
                what: "a hunk with context sent again",
                files: &[("svc.py", "import sys\nimport os\n\nx = 1\n")],
                patch: wrap("*** Update File: svc.py\n@@\n+import sys\n import os\n"),
                opencode: Some((K::AlreadyApplied, "its new lines are already there")),
                cline: Some((K::AlreadyApplied, "its new lines are already there")),
            },
            Case {
                what: "added lines already after their @@ line (03)",
                files: &[(
                    "order.py",
                    "def order_total(subtotal, shipping):\n    total = subtotal\n    total += shipping\n    return total\n",
                )],
                patch: wrap(
                    "*** Update File: order.py\n@@     total = subtotal\n+    total += shipping\n",
                ),
                opencode: Some((K::AddedAtEnd, "adds its lines at the end of the file")),
                cline: Some((
                    K::AlreadyApplied,
                    "edit 1: its new text is already there (line 3, right after its @@ line \
                     'total = subtotal' at line 2, where Cline's apply_patch puts it): this \
                     looks applied already, and applied again it repeats what it adds",
                )),
            },
            Case {
                what: "an @@ line standing at two places (04)",
                files: &[("svc.py", SVC)],
                patch: wrap("*** Update File: svc.py\n@@     retries = 3\n+    timeout = 10\n"),
                opencode: Some((K::AddedAtEnd, "adds its lines at the end of the file")),
                cline: Some((
                    K::Repeated,
                    "edit 1: its @@ line 'retries = 3' stands at line 2 and also at line 11: \
                     Cline's apply_patch puts the added lines after the first, which may not be \
                     the one meant",
                )),
            },
            Case {
                what: "an @@ line standing nowhere (05)",
                files: &[(
                    "run.sh",
                    "#!/bin/bash\nset -e\n\nbuild() {\n  make all\n}\n\nbuild\n",
                )],
                patch: wrap("*** Update File: run.sh\n@@ build()\n+  export CC=clang\n"),
                // OpenCode refuses an @@ line it does not find.
                opencode: None,
                cline: Some((
                    K::AddedAtEnd,
                    "edit 1: its @@ line 'build()' stands nowhere in run.sh: Cline's \
                     apply_patch puts its 1 added line at the top of the file, before line 1, \
                     not where the @@ line names",
                )),
            },
            Case {
                what: "a move onto the file itself",
                files: &[("m.py", "x = 1\n")],
                patch: wrap("*** Update File: m.py\n*** Move to: ./m.py\n@@\n-x = 1\n+x = 2\n"),
                opencode: Some((K::MovesOntoItself, "m.py is moved onto itself")),
                cline: Some((K::MovesOntoItself, "m.py is moved onto itself")),
            },
            Case {
                what: "an update, then a delete of the file (tester 51 T-07)",
                files: &[("m.py", "x = 1\n")],
                patch: wrap("*** Update File: m.py\n@@\n-x = 1\n+x = 2\n*** Delete File: ./m.py\n"),
                opencode: Some((
                    K::DeletesUpdated,
                    "the patch updates m.py (section 1) and then deletes it as ./m.py (section \
                     2): OpenCode's apply_patch writes the update, then deletes the file, and \
                     the update is lost",
                )),
                cline: Some((
                    K::DeletesUpdated,
                    "Cline's apply_patch writes the update, then deletes the file",
                )),
            },
            Case {
                what: "an ignored @@ line naming another definition (tester 51 T-08)",
                files: &[(
                    "sim.py",
                    "def f(a, b, c):\n    total = compute(a, b)\n    return total\n\n\ndef g(a, b, c):\n    total = compute(a, c)\n    return total\n",
                )],
                patch: wrap(
                    "*** Update File: sim.py\n@@ def g(a, b):\n     total = compute(a, b)\n-    return total\n+    return total * 2\n",
                ),
                // OpenCode refuses an @@ line it does not find.
                opencode: None,
                cline: Some((
                    K::HeaderIgnored,
                    "edit 1: its @@ line 'def g(a, b):' is not in the file, so Cline searched \
                     from the top without it and placed the hunk in `f` (line 2); the closest \
                     line to the header is `def g(a, b, c):` at line 6",
                )),
            },
            Case {
                what: "a stand-in for lines left out",
                files: &[("m.py", "def f():\n    a = 1\n    b = 2\n    return a + b\n")],
                patch: wrap(
                    "*** Update File: m.py\n@@\n def f():\n-    a = 1\n-    b = 2\n-    return a + b\n+    # ... rest unchanged ...\n",
                ),
                opencode: Some((K::ElidesLines, "stands in for lines it leaves out")),
                cline: Some((K::ElidesLines, "stands in for lines it leaves out")),
            },
            Case {
                what: "a zero-width character added",
                files: &[("m.py", "x = 1\n")],
                patch: wrap("*** Update File: m.py\n@@\n-x = 1\n+x = 2\u{200b}\n"),
                opencode: Some((K::HiddenText, "the patch of m.py")),
                cline: Some((K::HiddenText, "the patch of m.py")),
            },
            Case {
                what: "a result Python refuses (05)",
                files: &[("s5.py", SHAPES)],
                patch: wrap(
                    "*** Update File: s5.py\n@@ class Square:\n+def perimeter(self):\n+        return 0\n",
                ),
                opencode: Some((K::AddedAtEnd, "adds its lines at the end of the file")),
                cline: Some((
                    K::Layout(BreakKind::Misindents),
                    "the patch leaves s5.py misindented",
                )),
            },
        ];
        for case in &cases {
            for (agent, want) in [(&OPENCODE, &case.opencode), (&CLINE, &case.cline)] {
                let row = find(agent.dialect).expect("row");
                let key = row.text_field.expect("a patch field");
                let input = serde_json::json!({ key: case.patch });
                let outcome =
                    run_in_memory(row.matcher().expect("matcher"), "/p", case.files, &input);
                let got: Vec<(PatchDoubtKind, String)> = outcome
                    .patch_doubts
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .map(|d| (d.kind, d.message))
                    .collect();
                match want {
                    Some((kind, said)) => {
                        assert!(
                            got.iter().any(|(k, m)| k == kind && m.contains(said)),
                            "{} on {}: {got:?}",
                            agent.dialect,
                            case.what
                        );
                    }
                    None => assert!(
                        got.is_empty() || !outcome.ok,
                        "{} on {}: {got:?}",
                        agent.dialect,
                        case.what
                    ),
                }
            }
        }
    }

    /// A layout fault is said once, judged on what the agent writes: the
    /// same fault of Codex's result is not said beside it (a YAML file
    /// left unreadable, a string left open were said twice once those
    /// kinds came).
    #[test]
    fn a_layout_fault_is_said_once() {
        type Files = &'static [(&'static str, &'static str)];
        let cases: [(Files, String, PatchDoubtKind); 2] = [
            (
                &[("a.yaml", "server:\n  host: a\n  port: 80\n")],
                wrap("*** Update File: a.yaml\n@@\n   port: 80\n+  name: \"web\n"),
                PatchDoubtKind::Layout(BreakKind::NotYaml),
            ),
            (
                &[(
                    "s.js",
                    "function f() {\n  const s = \"x\";\n  return s;\n}\n",
                )],
                wrap("*** Update File: s.js\n@@\n-  const s = \"x\";\n+  const s = \"x;\n"),
                PatchDoubtKind::Layout(BreakKind::Unclosed),
            ),
        ];
        for (files, patch, kind) in &cases {
            for agent in [&OPENCODE, &CLINE] {
                let row = find(agent.dialect).expect("row");
                let key = row.text_field.expect("a patch field");
                let input = serde_json::json!({ key: patch });
                let outcome = run_in_memory(row.matcher().expect("matcher"), "/p", files, &input);
                let kinds: Vec<PatchDoubtKind> = outcome
                    .patch_doubts
                    .unwrap_or_default()
                    .into_iter()
                    .map(|d| d.kind)
                    .collect();
                assert_eq!(kinds, [*kind], "{} on {patch}", agent.dialect);
            }
        }
    }

    /// Every agent matcher taking a patch (its dialect an `apply-patch`)
    /// is one of [`AGENTS`] and sets its outcome's patch doubts, so a new
    /// one cannot be left out of the checks (the gap of round 40a's finds
    /// 02 and 07).
    #[test]
    fn every_patch_matcher_is_judged_here() {
        let rows = crate::dialect::registry::DIALECTS
            .iter()
            .filter(|row| row.matcher().is_some() && row.value.ends_with("apply-patch"));
        let mut seen = 0;
        for row in rows {
            let agent = AGENTS.iter().find(|a| a.dialect == row.value);
            let agent = agent.unwrap_or_else(|| panic!("{} is not in AGENTS", row.value));
            let patch = wrap("*** Update File: a.py\n@@\n-x = 1\n+x = 2\n");
            assert_eq!(judged(agent, &[("a.py", "x = 1\n")], &patch), Vec::new());
            seen += 1;
        }
        assert_eq!(seen, AGENTS.len());
    }

    /// The first send of the hunks the table doubts when sent again, or
    /// when their @@ line is ambiguous: none, and a hunk whose added lines
    /// are only a closing bracket is no "applied already".
    #[test]
    fn a_first_send_is_no_doubt() {
        let order =
            "def order_total(subtotal, shipping):\n    total = subtotal\n    return total\n";
        let patch =
            wrap("*** Update File: order.py\n@@     total = subtotal\n+    total += shipping\n");
        assert_eq!(judged(&CLINE, &[("order.py", order)], &patch), Vec::new());
        assert_eq!(already_after(&["}", "x"], 0, &["}"]), None);
        assert_eq!(already_after(&["a", "", "b"], 1, &["", "b"]), Some((3, 3)));
        assert_eq!(already_after(&["a", "", "b"], 1, &["b"]), None);
    }

    /// Round 40a's find 09: Cline puts a hunk under a bare `@@` at the top
    /// of the file, above the lines that must stay first (a `#!` line, a
    /// module docstring, `from __future__`, Go's `package`): a doubt
    /// saying where they go; not above a file without such lines, nor a
    /// comment added above a `package` clause.
    #[test]
    fn a_hunk_put_above_the_files_first_lines_is_doubted() {
        let tool = "#!/usr/bin/env python3\n\"\"\"Tool.\"\"\"\nfrom __future__ import annotations\n\nimport sys\n";
        let helper = wrap("*** Update File: tool.py\n@@\n+def helper(x):\n+    return x * 2\n+\n");
        let said = judged(&CLINE, &[("tool.py", tool)], &helper);
        // The `from __future__` import now below code is CPython's own
        // refusal too (tester round 44, T-04): said second.
        assert_eq!(said.len(), 2, "{said:?}");
        assert_eq!(said[0].0, PatchDoubtKind::AddedAtEnd);
        assert_eq!(
            said[1].0,
            PatchDoubtKind::Layout(crate::diagnose::layout::BreakKind::LateFuture)
        );
        assert!(
            said[1].1.contains(
                "line 6 (`from __future__ import annotations`) imports from `__future__` below \
                 the file's code"
            ),
            "{}",
            said[1].1
        );
        assert!(
            said[0].1.starts_with(
                "edit 1: Cline's apply_patch puts its 2 added lines at the top of the file, \
                 above line 1 '#!/usr/bin/env python3', which must stay above"
            ),
            "{}",
            said[0].1
        );
        let go = "// Package main runs.\npackage main\n\nfunc main() {}\n";
        let double =
            wrap("*** Update File: main.go\n@@\n+func double(x int) int {\n+\treturn x * 2\n+}\n");
        let said = judged(&CLINE, &[("main.go", go)], &double);
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].1.contains("above line 2 'package main'"),
            "{}",
            said[0].1
        );
        // No such line, or one that stays first: no doubt.
        let plain = wrap("*** Update File: plain.py\n@@\n+import os\n");
        assert_eq!(
            judged(&CLINE, &[("plain.py", "import sys\n")], &plain),
            Vec::new()
        );
        let note = wrap("*** Update File: main.go\n@@\n+// Copyright 2026.\n");
        assert_eq!(judged(&CLINE, &[("main.go", go)], &note), Vec::new());
        // OpenCode appends the same hunk at the end: harmless there.
        assert_eq!(judged(&OPENCODE, &[("tool.py", tool)], &helper), Vec::new());
        // Where the lines that must stay first are.
        assert_eq!(prologue(&["#!/bin/sh", "echo"]), vec![0]);
        assert_eq!(
            prologue(&[
                "# -*- coding: utf-8 -*-",
                "'''Doc",
                "more.'''",
                "from __future__ import x",
                "import y"
            ]),
            vec![0, 1, 2, 3]
        );
        assert_eq!(
            prologue(&["/* License", " */", "<?php", "echo 1;"]),
            vec![2]
        );
        assert_eq!(
            prologue(&["import sys", "\"\"\"not a docstring\"\"\""]),
            Vec::<usize>::new()
        );
        assert_eq!(
            lost_first_line(&["#!/bin/sh", "echo"], 1, &["set -e"]),
            None
        );
    }

    /// Round 40a's find 12, on OpenCode's placement (Codex's): a hunk of
    /// added lines under `@@ class Square:`, the file's last class, goes to
    /// the end of the file. Indented as the class's own statements (a
    /// method), that is the class: no doubt. Indented for a method's body,
    /// it goes after the last method's `return`, where it never runs; into
    /// an inner block the @@ line does not name, it is in doubt too.
    #[test]
    fn lines_added_into_a_block_the_at_line_does_not_name_are_doubted() {
        let method = wrap(
            "*** Update File: shapes.py\n@@ class Square:\n+\n+    def side(self):\n+        return self.s\n",
        );
        assert_eq!(
            judged(&OPENCODE, &[("shapes.py", SHAPES)], &method),
            Vec::new()
        );
        let body =
            wrap("*** Update File: shapes.py\n@@ class Square:\n+        self.color = \"red\"\n");
        let said = judged(&OPENCODE, &[("shapes.py", SHAPES)], &body);
        assert_eq!(said.len(), 1, "{said:?}");
        assert_eq!(said[0].0, PatchDoubtKind::AddedAtEnd);
        assert!(
            said[0].1.starts_with(
                "hunk #1 of shapes.py adds its lines at the end of the file, after line 14 \
                 `return self.s ** 2`, where they never run, not right after its @@ line \
                 'class Square:' (line 9): OpenCode's apply_patch"
            ),
            "{}",
            said[0].1
        );
        let init = "class Square:\n    def __init__(self, s):\n        self.s = s\n";
        let said = judged(
            &OPENCODE,
            &[("sq.py", init)],
            &body.replace("shapes.py", "sq.py"),
        );
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0]
                .1
                .contains("at the end of the file, after line 3, not after its @@ line"),
            "{}",
            said[0].1
        );
        // The @@ line naming the method itself, whose body ends the file.
        let named = wrap(
            "*** Update File: sq.py\n@@     def __init__(self, s):\n+        self.color = \"red\"\n",
        );
        assert_eq!(judged(&OPENCODE, &[("sq.py", init)], &named), Vec::new());
    }
}
