//! A replace-all "rename" (Claude Code's `replace_all`, Gemini CLI's
//! `allow_multiple`, OpenCode's `replaceAll`) whose old text is an
//! identifier, and whose places play different roles in the code: the
//! model renames a parameter `id`, and the edit also renames
//! `doc.owner.id`, an attribute of another object, and `"id"`, a string
//! key sent over the wire (a tester's find: every agent allowed it). Each
//! place is told:
//! - in a comment, or inside a string's text (a Python file's, read by
//!   [`crate::diagnose::doubt_names::python_pieces`]: an f-string's fields
//!   are code; another file's string only when the quotes hold the old
//!   text alone, `"id"`);
//! - inside a longer word (`idx`: [`super::doubt`]'s cut word);
//! - right after a `.`: an attribute;
//! - else a name: one it defines (after `def`, `fn`, `function`, `class`...,
//!   or a field declared alone on its line, `id: int`), or one it uses.
//!
//! Doubted: an attribute beside a name the code uses (not one it defines:
//! a method or a field renamed with its accesses is meant), or a string
//! beside code. A comment, a docstring or a longer word alone is no doubt
//! of this kind (a rename is expected to reach comments; a cut word is
//! said by its own doubt, [`super::doubt`]'s, and not listed here), but
//! a comment or a docstring is listed when there is one.

use crate::diagnose::doubt_names::{Piece, python_pieces};
use crate::diagnose::layout::FileKind;
use crate::words;

/// The role one place plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    Name,
    Defined,
    Attribute,
    Str,
    LongStr,
    Comment,
    InWord,
}

impl Role {
    fn said(self) -> &'static str {
        match self {
            Role::Name | Role::Defined => "as a name",
            Role::Attribute => "after a `.` (an attribute, maybe of another object)",
            Role::Str => "inside a string",
            Role::LongStr => "inside a triple-quoted string",
            Role::Comment => "in a comment",
            Role::InWord => "inside a longer word (said by the cut-word doubt)",
        }
    }
}

fn word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `old` reads as one identifier.
fn identifier(old: &str) -> bool {
    let mut chars = old.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(word_char)
}

/// The keywords after which a name is one a definition gives.
const DEFINERS: &[&str] = &[
    "def",
    "fn",
    "function",
    "func",
    "class",
    "struct",
    "enum",
    "interface",
    "trait",
    "type",
];

/// The role of `original[start..end]`, an identifier; `pieces`: a
/// Python file's strings and comments, sorted.
fn role(
    original: &str,
    start: usize,
    end: usize,
    pieces: Option<&[(usize, usize, Piece)]>,
) -> Role {
    if let Some(pieces) = pieces {
        let at = pieces.partition_point(|p| p.1 < end);
        if let Some(&(s, e, kind)) = pieces.get(at)
            && s <= start
            && end <= e
        {
            return match kind {
                Piece::Str => Role::Str,
                Piece::LongStr => Role::LongStr,
                Piece::Comment => Role::Comment,
            };
        }
    }
    let before = original[..start].chars().next_back();
    let after = original[end..].chars().next();
    if before.is_some_and(word_char) || after.is_some_and(word_char) {
        return Role::InWord;
    }
    if pieces.is_none()
        && let (Some(b), Some(a)) = (before, after)
        && b == a
        && matches!(b, '"' | '\'' | '`')
    {
        return Role::Str;
    }
    if before == Some('.') {
        return Role::Attribute;
    }
    let line_start = original[..start].rfind('\n').map_or(0, |i| i + 1);
    let lead = &original[line_start..start];
    let word_before = lead
        .trim_end()
        .rsplit(|c: char| !word_char(c))
        .next()
        .unwrap_or("");
    if DEFINERS.contains(&word_before) {
        return Role::Defined;
    }
    // A field declared alone on its line: `    id: int`.
    let rest = original[end..].trim_start_matches([' ', '\t']);
    if !lead.is_empty()
        && lead.trim().is_empty()
        && rest.starts_with(':')
        && !rest.starts_with(":=")
        && !rest.starts_with("::")
    {
        return Role::Defined;
    }
    Role::Name
}

/// A replace-all of the identifier `old` over `original` (the file
/// `path`), at `places` (byte spans), whose places play roles that are
/// not one name's (see the module): one sentence naming each role with
/// its first line, ending with what to send. `None` otherwise.
pub(super) fn mixed_roles(
    path: &str,
    original: &str,
    old: &str,
    places: &[(usize, usize)],
) -> Option<String> {
    if places.len() < 2 || !identifier(old) {
        return None;
    }
    let pieces = (FileKind::of(path, original) == FileKind::Python)
        .then(|| python_pieces(original))
        .flatten();
    let roles: Vec<(Role, usize)> = places
        .iter()
        .filter(|&&(s, e)| original.is_char_boundary(s) && original.is_char_boundary(e))
        .map(|&(s, e)| (role(original, s, e, pieces.as_deref()), s))
        .collect();
    let has = |r: Role| roles.iter().any(|&(role, _)| role == r);
    let code = has(Role::Name) || has(Role::Defined) || has(Role::Attribute);
    let mixed = (has(Role::Name) && has(Role::Attribute)) || (has(Role::Str) && code);
    if !mixed {
        return None;
    }
    let mut kinds: Vec<&'static str> = Vec::new();
    let mut said = Vec::new();
    // A longer word is said by the cut-word doubt.
    for &(r, _) in roles.iter().filter(|&&(r, _)| r != Role::InWord) {
        if kinds.contains(&r.said()) {
            continue;
        }
        kinds.push(r.said());
        let at: Vec<usize> = roles
            .iter()
            .filter(|&&(o, _)| o.said() == r.said())
            .map(|&(_, s)| s)
            .collect();
        let first = at[0];
        let line = crate::dialect::quick::count_newlines(&original[..first]) + 1;
        let line_start = original[..first].rfind('\n').map_or(0, |i| i + 1);
        let text = original[line_start..].lines().next().unwrap_or("").trim();
        let text: String = if text.chars().count() > 60 {
            format!("{}...", text.chars().take(57).collect::<String>())
        } else {
            text.to_string()
        };
        let more = match at.len() {
            1 => String::new(),
            n => format!(", {}", words::count(n, "place")),
        };
        said.push(format!("{} at line {line} (`{text}`{more})", r.said()));
    }
    Some(format!(
        "the edit replaces every `{old}` ({}), and they play different roles: {}: a \
         replace-all renames them all, though an attribute of another object, or a string's \
         text read elsewhere, keeps its old name where it is read: send one edit per place \
         meant, each with enough context to occur once",
        words::count(places.len(), "place"),
        said.join("; ")
    ))
}

#[cfg(test)]
mod tests {
    use super::mixed_roles;

    fn said(path: &str, file: &str, old: &str) -> Option<String> {
        let places: Vec<(usize, usize)> = file
            .match_indices(old)
            .map(|(i, m)| (i, i + m.len()))
            .collect();
        mixed_roles(path, file, old, &places)
    }

    /// The tester's find (round 41a, 01): the parameter `id` renamed, and
    /// with it `doc.owner.id` and `owner.id`; and a dict's key `"id"`.
    #[test]
    fn a_rename_reaching_attributes_and_strings_is_said() {
        let r2 = "def can_edit(id, doc):\n    owner = db.user(id)\n    return doc.owner.id == owner.id\n";
        assert_eq!(
            said("r2.py", r2, "id").as_deref(),
            Some(
                "the edit replaces every `id` (4 places), and they play different roles: as a \
                 name at line 1 (`def can_edit(id, doc):`, 2 places); after a `.` (an \
                 attribute, maybe of another object) at line 3 (`return doc.owner.id == \
                 owner.id`, 2 places): a replace-all renames them all, though an attribute of \
                 another object, or a string's text read elsewhere, keeps its old name where \
                 it is read: send one edit per place meant, each with enough context to occur \
                 once"
            )
        );
        let r =
            "def get(id):\n    row = db.find(id)\n    return {\"id\": id, \"name\": row.name}\n";
        let got = said("r.py", r, "id").expect("a doubt");
        assert!(
            got.contains("inside a string at line 3 (`return {\"id\": id, \"name\": row.name}`)"),
            "{got}"
        );
        // The same in JavaScript: the quotes hold the name alone.
        let js = "function get(id) {\n  return {\"id\": id};\n}\n";
        assert!(said("r.js", js, "id").is_some());
    }

    /// Renames that are meant: a local everywhere it is used, a method with
    /// its calls, a field with its accesses, a name and the comments and
    /// docstrings about it, an f-string's field; an old text that is no
    /// identifier.
    #[test]
    fn a_rename_of_one_thing_is_not_said() {
        let cases = [
            (
                "a.py",
                "def f(n):\n    total = n\n    return total + total\n",
                "total",
            ),
            (
                "a.py",
                "class A:\n    def total(self):\n        return 1\n\n    def g(self, o):\n        return self.total() + o.total()\n",
                "total",
            ),
            (
                "a.py",
                "@dataclass\nclass U:\n    uid: int\n\n\ndef f(u):\n    return u.uid\n",
                "uid",
            ),
            (
                "a.py",
                "def f(uid):\n    \"\"\"Find uid.\"\"\"\n    # uid may be None\n    return f\"{uid}\"\n",
                "uid",
            ),
            ("a.py", "x = a.b + a.b\n", "a.b"),
            (
                "a.rs",
                "impl O {\n    fn total(&self) -> u32 { 1 }\n}\nfn g(o: O) -> u32 { o.total() }\n",
                "total",
            ),
        ];
        for (path, file, old) in cases {
            assert_eq!(said(path, file, old), None, "{file}");
        }
        // A rename that is meant in code, reaching a comment: not said; a
        // longer word: left to the cut-word doubt.
        let note = "def f(uid):\n    # uid\n    return uid_map[uid]\n";
        assert_eq!(said("a.py", note, "uid"), None);
    }
}
