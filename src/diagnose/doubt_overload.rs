//! *Pure.* An edit that leaves a Python `@overload` stack without its
//! implementation (wt-decor's leftover, round 46: an edit removing the
//! implementation's `def`, or adding overloads and no implementation, was
//! called fine). `typing.overload` replaces each decorated function with a
//! stub that raises `NotImplementedError` when called; only a later `def`
//! of the name without the decorator is the function the module runs
//! (python3 3.11: `f(1)` after two overloads alone raises
//! `NotImplementedError: You should not call an overloaded function. A
//! series of @overload-decorated functions outside a stub module should
//! always be followed by an implementation that is not
//! @overload-ed.`).
//!
//! The rule, by evidence only, over the file's logical lines
//! ([`super::doubt_names::python_lines`]): a name with a `def` decorated
//! `@overload` (or `@typing.overload`, `@t.overload`: a dotted name ending
//! in `overload`, not called) in a scope (the module, or a class or
//! function body, told by the chain of `class`/`def` headers above it)
//! where the scope defines the name in no other way (a `def` without the
//! decorator, an assignment `name = ...`, an import binding it), anywhere
//! in the scope, in the file as the edit leaves it while the file before
//! had it so defined (or had no overload of it). Not read: a `.pyi` stub
//! (overloads alone are right there), a class whose header names
//! `Protocol`, `ABC` or `ABCMeta` (its overloads describe what others
//! implement), an overload also decorated `@abstractmethod`; a file
//! Python's tokenizer refuses (the syntax checks speak for it).

use super::doubt_names::{python_lines, split_at_top};
use super::pytokens::{Tok, Token};
use std::collections::{BTreeMap, BTreeSet};

/// An `@overload` stack left without its implementation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverloadAlone {
    /// The function's name.
    pub name: String,
    /// The `class`/`def` headers holding it, outermost first (empty at the
    /// module's top level).
    pub scope: Vec<String>,
    /// The first and last `def` line (1-based) of its overloads.
    pub lines: (usize, usize),
}

impl OverloadAlone {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: keep its implementation, a `def {}` without `@overload`, after the overloads",
            self.fault(),
            self.name
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let at = match self.lines {
            (a, b) if a == b => format!("line {a}"),
            (a, b) => format!("lines {a}-{b}"),
        };
        let scope = match self.scope.last() {
            Some(holder) => format!(" in `{holder}`"),
            None => String::new(),
        };
        format!(
            "as written, the `@overload` definitions of `{}`{scope} ({at}) have no \
             implementation: Python replaces each with a stub, and every call of `{}` raises \
             NotImplementedError",
            self.name, self.name
        )
    }
}

/// Per scope (its headers) and name: its overloads' `def` lines, and
/// whether the scope defines the name otherwise.
type Defined = BTreeMap<(Vec<String>, String), (Vec<usize>, bool)>;

/// The first overload stack of `result` (the Python file `path` as an edit
/// leaves it) without an implementation, where `original` gave it one or
/// had none (see the module).
pub(super) fn overload_alone(path: &str, original: &str, result: &str) -> Option<OverloadAlone> {
    if original == result || path.ends_with(".pyi") || !result.contains("overload") {
        return None;
    }
    let after = unimplemented(&definitions(result)?);
    if after.is_empty() {
        return None;
    }
    let before: BTreeSet<_> = unimplemented(&definitions(original).unwrap_or_default())
        .into_iter()
        .map(|o| (o.scope, o.name))
        .collect();
    after
        .into_iter()
        .find(|o| !before.contains(&(o.scope.clone(), o.name.clone())))
}

/// The overload stacks of `defined` without an implementation.
fn unimplemented(defined: &Defined) -> Vec<OverloadAlone> {
    defined
        .iter()
        .filter(|(_, (lines, otherwise))| !lines.is_empty() && !otherwise)
        .filter_map(|((scope, name), (lines, _))| {
            Some(OverloadAlone {
                name: name.clone(),
                scope: scope.clone(),
                lines: (*lines.first()?, *lines.last()?),
            })
        })
        .collect()
}

/// An open `class` or `def` block: its indentation, its header's words
/// (`class Foo`), and whether overloads in it are left unread.
struct Block {
    indent: usize,
    header: String,
    unread: bool,
}

/// Every name of `text` defined by an overload or otherwise, per scope;
/// `None` where the tokenizer refuses the text.
fn definitions(text: &str) -> Option<Defined> {
    let mut defined = Defined::new();
    let mut open: Vec<Block> = Vec::new();
    // The decorators read above the next header: `@overload`,
    // `@abstractmethod`.
    let (mut overload, mut abstract_) = (false, false);
    for (indent, tokens) in python_lines(text)? {
        while open.last().is_some_and(|b| b.indent >= indent) {
            open.pop();
        }
        let scope: Vec<String> = open.iter().map(|b| b.header.clone()).collect();
        let unread = open.last().is_some_and(|b| b.unread);
        if tokens.first().is_some_and(|t| t.is("@")) {
            overload |= named(&tokens, "overload");
            abstract_ |= named(&tokens, "abstractmethod");
            continue;
        }
        let (overload, abstract_) = (
            std::mem::take(&mut overload),
            std::mem::take(&mut abstract_),
        );
        if let Some((word, name)) = header(&tokens) {
            let entry = defined
                .entry((scope.clone(), name.to_string()))
                .or_default();
            match (word, overload) {
                ("def", true) if !unread && !abstract_ => entry.0.push(tokens[0].line),
                ("def", true) => entry.1 = true,
                _ => entry.1 = true,
            }
            let unread = word == "class"
                && tokens.iter().any(|t| {
                    t.kind == Tok::Name && matches!(t.text, "Protocol" | "ABC" | "ABCMeta")
                });
            open.push(Block {
                indent,
                header: format!("{word} {name}"),
                unread,
            });
            continue;
        }
        for name in bound(&tokens) {
            defined
                .entry((scope.clone(), name.to_string()))
                .or_default()
                .1 = true;
        }
    }
    Some(defined)
}

/// A `def`, `async def` or `class` header: its word and its name.
fn header<'a>(tokens: &[Token<'a>]) -> Option<(&'static str, &'a str)> {
    let at = usize::from(tokens.first()?.name("async"));
    let word = match tokens.get(at)? {
        t if t.name("def") => "def",
        t if t.name("class") => "class",
        _ => return None,
    };
    let name = tokens.get(at + 1).filter(|t| t.kind == Tok::Name)?;
    Some((word, name.text))
}

/// Whether the decorator line `tokens` (`@` first) is a dotted name
/// ending in `word`, not called.
fn named(tokens: &[Token], word: &str) -> bool {
    let rest = &tokens[1..];
    rest.last().is_some_and(|t| t.name(word))
        && rest.iter().enumerate().all(|(i, t)| {
            if i % 2 == 0 {
                t.kind == Tok::Name
            } else {
                t.is(".")
            }
        })
}

/// The names a simple statement binds at its scope: `name = ...` (each
/// target of a chain, a tuple's names), `import a.b` (`a`), `import a as
/// b`, `from m import a, b as c`.
fn bound<'a>(tokens: &[Token<'a>]) -> Vec<&'a str> {
    let first = tokens.first();
    if first.is_some_and(|t| t.name("import") || t.name("from")) {
        let from = first.is_some_and(|t| t.name("from"));
        let start = if from {
            tokens
                .iter()
                .position(|t| t.name("import"))
                .map_or(0, |i| i + 1)
        } else {
            1
        };
        return tokens[start.min(tokens.len())..]
            .split(|t| t.is(","))
            .filter_map(|item| {
                let item: Vec<&Token> = item.iter().filter(|t| !t.is("(") && !t.is(")")).collect();
                match item.iter().position(|t| t.name("as")) {
                    Some(i) => item.get(i + 1).map(|t| t.text),
                    None => item.first().map(|t| t.text),
                }
            })
            .collect();
    }
    // Assignment targets: the names before the last top-level `=`.
    let mut parts = split_at_top(tokens, "=");
    parts.pop();
    parts
        .into_iter()
        .flatten()
        .filter(|t| t.kind == Tok::Name)
        .map(|t| t.text)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::overload_alone;
    use crate::diagnose::doubt::test_edits::check_edit;

    const MODULE: &str = "from typing import overload\n\n\n@overload\ndef parse(x: int) -> int: \
                          ...\n@overload\ndef parse(x: str) -> str: ...\ndef parse(x):\n    \
                          return x\n\n\ndef other():\n    return 1\n";

    /// The implementation's `def` removed: a doubt naming the overloads.
    #[test]
    fn overloads_left_without_their_implementation_are_doubted() {
        let found = check_edit(
            overload_alone,
            "m.py",
            MODULE,
            "def parse(x):\n    return x\n",
            "",
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the `@overload` definitions of `parse` (lines 5-7) have no \
                 implementation: Python replaces each with a stub, and every call of `parse` \
                 raises NotImplementedError: keep its implementation, a `def parse` without \
                 `@overload`, after the overloads"
            )
        );
        // In a class, with `typing.overload`, and added by the edit.
        let class = "import typing\n\nclass Box:\n    def get(self):\n        return 1\n";
        let found = check_edit(
            overload_alone,
            "box.py",
            class,
            "    def get(self):\n",
            "    @typing.overload\n    def get(self, key: int) -> int: ...\n    \
             @typing.overload\n    def get(self, key: str) -> str: ...\n    def put(self):\n",
        );
        assert_eq!(
            found.map(|f| f.fault()).as_deref(),
            Some(
                "as written, the `@overload` definitions of `get` in `class Box` (lines 5-7) \
                 have no implementation: Python replaces each with a stub, and every call of \
                 `get` raises NotImplementedError"
            )
        );
    }

    /// Overloads alone are right in a stub, a Protocol or abstract class,
    /// under `@abstractmethod`; an implementation kept (in an `else:`
    /// branch, by assignment or import) or one missing before the edit is
    /// no doubt.
    #[test]
    fn overloads_alone_where_they_are_right_are_not_doubted() {
        let result = MODULE.replace("def parse(x):\n    return x\n", "");
        assert_eq!(overload_alone("m.pyi", MODULE, &result), None);
        for (holder, decorator) in [
            ("class P(Protocol):\n", "    @overload\n"),
            ("class A(abc.ABC):\n", "    @overload\n"),
            ("class C:\n", "    @overload\n    @abstractmethod\n"),
        ] {
            let original = format!("{holder}    def f(self): ...\n");
            let result = format!(
                "{holder}{decorator}    def f(self, x: int) -> int: ...\n{decorator}    def f(self, \
                 x: str) -> str: ...\n"
            );
            assert_eq!(overload_alone("p.py", &original, &result), None, "{result}");
        }
        let kept = [
            "if TYPE_CHECKING:\n    @overload\n    def f(x: int) -> int: ...\n    @overload\n    \
             def f(x: str) -> str: ...\nelse:\n    def f(x):\n        return x\n",
            "@overload\ndef f(x: int) -> int: ...\n@overload\ndef f(x: str) -> str: ...\nf = _f\n",
            "@overload\ndef f(x: int) -> int: ...\nfrom ._impl import f\n",
        ];
        for result in kept {
            assert_eq!(overload_alone("k.py", "x = 1\n", result), None, "{result}");
        }
        // The file before already lacked it: not the edit's.
        assert_eq!(
            overload_alone("m.py", &result, &result.replace("other", "others")),
            None
        );
    }
}
