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
//! - a key: a keyword argument's name in a Python call (`fetch(user_id=...)`,
//!   the callee's parameter, unless the file defines the callee with it) or
//!   a JavaScript/TypeScript object literal's key (`{ userId: ... }`, the
//!   shorthand `{ userId }`): a name the callee or the object's reader
//!   reads, which keeps the old one (a tester's find: `fetch(account_id=...)`
//!   is a TypeError, `{ accountId }` returns another key);
//! - else a name: one it defines (after `def`, `fn`, `function`, `class`...,
//!   or a field declared alone on its line, `id: int`), or one it uses.
//!
//! Doubted: an attribute beside a name the code uses (not one it defines:
//! a method or a field renamed with its accesses is meant), a key beside a
//! name, or a string beside code. A comment, a docstring or a longer word alone is no doubt
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
    Key,
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
            Role::Key => {
                "as a keyword argument's or an object key's name (read by the function \
                 called or the object's reader)"
            }
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

/// The languages whose keys [`role`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Python,
    /// JavaScript or TypeScript.
    Script,
    Other,
}

impl Lang {
    fn of(path: &str, original: &str) -> Lang {
        const SCRIPT: [&str; 8] = ["js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx"];
        if FileKind::of(path, original) == FileKind::Python {
            Lang::Python
        } else if path
            .rsplit_once('.')
            .is_some_and(|(_, ext)| SCRIPT.contains(&ext))
        {
            Lang::Script
        } else {
            Lang::Other
        }
    }
}

/// The innermost bracket left open before `at`, with its offset; a
/// Python file's strings and comments (`pieces`) are passed over.
fn open_bracket(
    original: &str,
    at: usize,
    pieces: &[(usize, usize, Piece)],
) -> Option<(usize, u8)> {
    let bytes = original.as_bytes();
    let mut depth = 0usize;
    let mut i = at;
    while i > 0 {
        i -= 1;
        let inside = pieces.partition_point(|p| p.1 <= i);
        if let Some(&(s, e, _)) = pieces.get(inside)
            && s <= i
            && i < e
        {
            i = s;
            continue;
        }
        match bytes[i] {
            b')' | b']' | b'}' => depth += 1,
            b'(' | b'[' | b'{' if depth > 0 => depth -= 1,
            open @ (b'(' | b'[' | b'{') => return Some((i, open)),
            _ => {}
        }
    }
    None
}

/// `original[..at]` without its trailing white space (line ends too).
fn before_space(original: &str, at: usize) -> &str {
    original[..at].trim_end()
}

/// Whether `original[start..end]` is a keyword argument's name in a
/// Python call: `name=` (not `==`) inside a `(` that follows a callee,
/// not a `def`'s or `class`'s, and a callee the file does not define
/// with the name among its parameters (`def fetch(user_id` renamed with
/// its calls is one rename).
fn python_keyword(
    original: &str,
    start: usize,
    end: usize,
    pieces: &[(usize, usize, Piece)],
) -> bool {
    let rest = original[end..].trim_start_matches([' ', '\t']);
    if !rest.starts_with('=') || rest.starts_with("==") {
        return false;
    }
    let Some((paren, b'(')) = open_bracket(original, start, pieces) else {
        return false;
    };
    let head = before_space(original, paren);
    let callee = head.rsplit(|c: char| !word_char(c)).next().unwrap_or("");
    if callee.is_empty() {
        // `(...)(name=...)`, `x[0](name=...)`: a call all the same.
        return head.ends_with([')', ']']);
    }
    let word_before = before_space(original, head.len() - callee.len())
        .rsplit(|c: char| !word_char(c))
        .next()
        .unwrap_or("");
    if matches!(word_before, "def" | "class") {
        return false;
    }
    let name = &original[start..end];
    !original
        .match_indices(&format!("def {callee}("))
        .any(|(at, def)| {
            parameters(&original[at + def.len()..])
                .split(|c: char| !word_char(c))
                .any(|w| w == name)
        })
}

/// The text of a parameter list whose `(` was just passed: up to the `)`
/// that closes it, brackets in defaults counted (`def f(a=g(x), user_id)`
/// holds `user_id`); to the end when none does.
fn parameters(after_paren: &str) -> &str {
    let mut depth = 0usize;
    for (i, b) in after_paren.bytes().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' if depth == 0 => return &after_paren[..i],
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    after_paren
}

/// Whether `original[start..end]` is a JavaScript/TypeScript object
/// literal's key: `{ name: ...`, `, name: ...` or the shorthand
/// `{ name }`, inside a `{` that opens a value (after `=`, `(`, `,`,
/// `[`, `:`, `?` or `return`), not a block, a class or an interface.
fn object_key(original: &str, start: usize, end: usize) -> bool {
    let rest = original[end..].trim_start();
    let after_key = rest.starts_with(':') && !rest.starts_with("::");
    let shorthand = rest.starts_with([',', '}']);
    if !(after_key || shorthand) || !before_space(original, start).ends_with(['{', ',']) {
        return false;
    }
    let Some((brace, b'{')) = open_bracket(original, start, &[]) else {
        return false;
    };
    let head = before_space(original, brace);
    if head.ends_with(':') && !value_of_key(original, head.len() - 1) {
        // `let o: { userId: string }`, `(u: { userId: string })`,
        // `): { userId: string }`: a TypeScript type, whose fields are
        // renamed with the name only when the name is the field.
        return false;
    }
    (head.ends_with(['=', '(', ',', '[', ':', '?'])
        && !head.ends_with("=>")
        && !head.ends_with("=="))
        || head
            .rsplit(|c: char| !word_char(c))
            .next()
            .is_some_and(|w| w == "return")
}

/// Whether the `:` at `colon` ends an object literal's key (`{ a: {`,
/// `, a: {`) or a ternary's branch (`? x : {`), not a TypeScript type
/// annotation (`let o: {`, `(u: {`, `): {`).
fn value_of_key(original: &str, colon: usize) -> bool {
    let head = before_space(original, colon);
    let key = head
        .rsplit(|c: char| !(word_char(c) || c == '"' || c == '\''))
        .next();
    let key = key.unwrap_or("");
    if key.is_empty() {
        return false;
    }
    let before_key = before_space(original, head.len() - key.len());
    if before_key.ends_with(['{', ',']) {
        return matches!(
            open_bracket(original, head.len() - key.len(), &[]),
            Some((_, b'{'))
        );
    }
    // A ternary's second branch: a `?` before it on its statement.
    let statement = before_key
        .rsplit([';', '{', '}', '\n'])
        .next()
        .unwrap_or("");
    statement.contains('?')
        && !before_key.ends_with(['(', ')'])
        && !matches!(
            before_key.rsplit(|c: char| !word_char(c)).next(),
            Some("let" | "const" | "var")
        )
}

/// The role of `original[start..end]`, an identifier; `pieces`: a
/// Python file's strings and comments, sorted.
fn role(
    original: &str,
    start: usize,
    end: usize,
    pieces: Option<&[(usize, usize, Piece)]>,
    lang: Lang,
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
    let key = match lang {
        Lang::Python => python_keyword(original, start, end, pieces.unwrap_or(&[])),
        Lang::Script => object_key(original, start, end),
        Lang::Other => false,
    };
    if key {
        return Role::Key;
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
    let lang = Lang::of(path, original);
    let pieces = (lang == Lang::Python)
        .then(|| python_pieces(original))
        .flatten();
    let roles: Vec<(Role, usize)> = places
        .iter()
        .filter(|&&(s, e)| original.is_char_boundary(s) && original.is_char_boundary(e))
        .map(|&(s, e)| (role(original, s, e, pieces.as_deref(), lang), s))
        .collect();
    let has = |r: Role| roles.iter().any(|&(role, _)| role == r);
    let named = has(Role::Name) || has(Role::Defined);
    let code = named || has(Role::Attribute) || has(Role::Key);
    let mixed = (has(Role::Name) && has(Role::Attribute))
        || (has(Role::Key) && named)
        || (has(Role::Str) && code);
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

    /// The tester's find (round 45, T-13): a replace-all renaming a local
    /// also renames a keyword argument's name (the callee's parameter:
    /// `fetch(account_id=...)` is a TypeError) and an object literal's key
    /// (`{ accountId }` returns another key than callers read).
    #[test]
    fn a_rename_reaching_keyword_arguments_and_object_keys_is_said() {
        let api = "from service import fetch\n\n\ndef load(user_id):\n    return fetch(user_id=user_id, timeout=5)\n";
        assert_eq!(
            said("api.py", api, "user_id").as_deref(),
            Some(
                "the edit replaces every `user_id` (3 places), and they play different roles: as \
                 a name at line 4 (`def load(user_id):`, 2 places); as a keyword argument's or \
                 an object key's name (read by the function called or the object's reader) at \
                 line 5 (`return fetch(user_id=user_id, timeout=5)`): a replace-all renames \
                 them all, though an attribute of another object, or a string's text read \
                 elsewhere, keeps its old name where it is read: send one edit per place \
                 meant, each with enough context to occur once"
            )
        );
        let r2 = "def load(user_id):\n    return dict(user_id=user_id, name=1)\n";
        assert!(said("r2.py", r2, "user_id").is_some());
        for js in [
            "function load(userId) {\n  const user = { name: \"bob\" };\n  return { userId, name: user.name };\n}\n",
            "function load(userId) {\n  return { userId: userId, name: 1 };\n}\n",
            "function load(userId) {\n  const o = {\n    userId: userId,\n  };\n  return o;\n}\n",
            "function load(userId) {\n  send({ userId });\n}\n",
            "function load(userId) {\n  return { user: { userId }, ok: true };\n}\n",
            "function load(userId, a) {\n  return a ? null : { userId };\n}\n",
        ] {
            let got = said("r.js", js, "userId").expect(js);
            assert!(
                got.contains("as a keyword argument's or an object key's name"),
                "{got}"
            );
        }
    }

    /// Keys that are one rename with their name, or no keys at all: a
    /// parameter with a default and the calls naming it in the same file,
    /// `==`, a class's keyword, a TypeScript parameter's type, an
    /// interface's field, a ternary, a block's label-free statements.
    #[test]
    fn names_that_only_look_like_keys_are_not_said() {
        let cases = [
            (
                "a.py",
                "def fetch(user_id=None):\n    return user_id\n\n\ndef g(user_id):\n    return fetch(user_id=user_id)\n",
                "user_id",
            ),
            (
                "a.py",
                "def g(user_id):\n    return user_id == 1 or f(x == user_id)\n",
                "user_id",
            ),
            (
                "a.ts",
                "function load(userId: string) {\n  return userId ? userId : \"\";\n}\n",
                "userId",
            ),
            (
                "a.ts",
                "interface U {\n  userId: string;\n}\nfunction f(u: U) {\n  const userId = 1;\n  return userId;\n}\n",
                "userId",
            ),
            (
                "a.js",
                "function f(userId) {\n  if (userId) {\n    userId, log(userId);\n  }\n}\n",
                "userId",
            ),
            // A default holding a call before the parameter named.
            (
                "a.py",
                "def fetch(a=g(1), user_id=None):\n    return user_id\n\n\ndef h(user_id):\n    return fetch(user_id=user_id)\n",
                "user_id",
            ),
            // A TypeScript type literal's field, in an annotation and a
            // parameter's type.
            (
                "a.ts",
                "let o: { userId: string } = load();\nfunction f(u: { userId: string }) {\n  return u;\n}\n",
                "userId",
            ),
        ];
        for (path, file, old) in cases {
            assert_eq!(said(path, file, old), None, "{file}");
        }
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
