//! *Pure.* An edit that leaves a Python file defining one name twice in
//! one block: a method re-sent after it was already added (changed a
//! little, so its text is not "already there"), or a new version of a
//! function written beside the old one. Python keeps the later definition
//! without a word; when the model's new one is the earlier, its change
//! never runs. Each copy matched exactly, so nothing else doubted it.
//!
//! The rule, by evidence only, for a Python file ([`super::file_kind`]):
//! - a definition is a statement `def NAME`, `async def NAME` or `class
//!   NAME`, read with the file's statements as Python reads them (lines
//!   inside brackets, triple-quoted strings and after a `\` are not
//!   statements; [`super::doubt_indent`]'s reading);
//! - two definitions of one name are in one block when the statements
//!   enclosing them are the same lines (a `def` under `if` and one under
//!   `else:` are in two blocks, as are two `if TYPE_CHECKING:` blocks);
//! - not counted: the name `_`, and a definition with a decorator naming
//!   `overload` or starting `@NAME.` (a property's `@x.setter`, a
//!   dispatcher's `@f.register`): those are meant to be defined again;
//! - doubted: the file as the edit leaves it has more definitions of a
//!   name in one block, beside another of it, than the file before had
//!   under the same enclosing statements (their text), and one of the
//!   edit's changed lines is one of them. A name the file already defined
//!   twice there is not doubted again.
//!
//! Not caught: a name defined again by an assignment or an import, a
//! definition in another block that shadows one (a nested `def`), other
//! languages.

use super::doubt_indent::Scanner;
use crate::textdiff::shared_ends;
use std::collections::HashMap;

/// A name a Python file defines twice in one block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redefinition {
    /// The name.
    pub name: String,
    /// The statement enclosing both, trimmed, and its line (1-based);
    /// `None` at the module's top level.
    pub block: Option<(usize, String)>,
    /// The two definitions' lines (1-based): the earlier and the later.
    pub lines: (usize, usize),
}

impl Redefinition {
    /// One sentence without a final stop.
    pub fn describe(&self) -> String {
        format!(
            "{}: change the definition that is there (its text in the old text) instead of \
             adding another, or give the new one another name",
            self.fault()
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (earlier, later) = self.lines;
        let place = match &self.block {
            None => "at the module's top level".to_string(),
            Some((line, text)) => match definition(text) {
                Some(("class", name)) => format!("in class `{name}` (line {line})"),
                Some((_, name)) => format!("in function `{name}` (line {line})"),
                None => format!("in the block of line {line} (`{text}`)"),
            },
        };
        format!(
            "as written, the file defines `{}` twice {place}, at lines {earlier} and {later}: \
             Python keeps the later one (line {later}) without a word, and the one at line \
             {earlier} never runs",
            self.name
        )
    }
}

/// The name a statement (trimmed of its indentation) defines, and `def`
/// or `class`.
fn definition(text: &str) -> Option<(&'static str, &str)> {
    let (kind, rest) = if let Some(rest) = text.strip_prefix("class ") {
        ("class", rest)
    } else if let Some(rest) = text.strip_prefix("def ") {
        ("def", rest)
    } else {
        let rest = text.strip_prefix("async")?;
        let rest = rest.trim_start_matches([' ', '\t']);
        if rest.len() == text.len() - "async".len() {
            return None;
        }
        ("def", rest.strip_prefix("def ")?)
    };
    let rest = rest.trim_start_matches([' ', '\t']);
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    let starts_well = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_');
    starts_well.then_some((kind, name))
}

/// One definition the reading found.
struct Defined<'a> {
    /// Its line (0-based).
    line: usize,
    name: &'a str,
    /// The lines (0-based) of the statements enclosing it, outermost first.
    blocks: Vec<usize>,
}

/// The counted definitions of `lines` (see the module); `None` where the
/// reading cannot be trusted (a form feed in an indentation).
fn definitions<'a>(lines: &[&'a str]) -> Option<Vec<Defined<'a>>> {
    let mut scan = Scanner::default();
    // The statements enclosing the next one: their column and line.
    let mut open: Vec<(usize, usize)> = Vec::new();
    let mut decorators: Vec<&str> = Vec::new();
    let mut found = Vec::new();
    for (at, raw) in lines.iter().enumerate() {
        let line = raw.trim_end_matches('\r');
        let text = line.trim_start_matches([' ', '\t']);
        if scan.at_statement() && !text.is_empty() && !text.starts_with('#') {
            let column = super::doubt_indent::widths(&line[..line.len() - text.len()])?.0;
            while open.last().is_some_and(|&(c, _)| c >= column) {
                open.pop();
            }
            if text.starts_with('@') {
                decorators.push(text);
            } else {
                if let Some((_, name)) = definition(text) {
                    let meant_again = name == "_"
                        || decorators.iter().any(|d| {
                            d.contains("overload")
                                || d[1..]
                                    .trim_start()
                                    .strip_prefix(name)
                                    .is_some_and(|rest| rest.starts_with('.'))
                        });
                    if !meant_again {
                        let blocks = open.iter().map(|&(_, l)| l).collect();
                        found.push(Defined {
                            line: at,
                            name,
                            blocks,
                        });
                    }
                }
                decorators.clear();
            }
            open.push((column, at));
        }
        scan.line(line);
    }
    Some(found)
}

/// The definitions of `lines` that stand beside another of their name in
/// their block, grouped by that block's enclosing statements' text and the
/// name: how many.
fn twice<'a>(lines: &[&'a str], found: &[Defined<'a>]) -> HashMap<(Vec<&'a str>, &'a str), usize> {
    let mut per_block: HashMap<(&[usize], &str), usize> = HashMap::new();
    for d in found {
        *per_block.entry((&d.blocks, d.name)).or_default() += 1;
    }
    let mut by_text = HashMap::new();
    for ((blocks, name), n) in per_block {
        if n > 1 {
            let text = blocks.iter().map(|&l| lines[l].trim()).collect();
            *by_text.entry((text, name)).or_default() += n;
        }
    }
    by_text
}

/// The name `result` (the file as an edit leaves it) defines twice in one
/// block where `original` (the file before) did not (see the module).
pub(super) fn python_redefinition(original: &str, result: &str) -> Option<Redefinition> {
    if original == result {
        return None;
    }
    let old: Vec<&str> = original.lines().collect();
    let new: Vec<&str> = result.lines().collect();
    let (prefix, suffix) = shared_ends(&old, &new);
    let changed = prefix..new.len() - suffix;
    // Only a changed line can add a definition (a 10,000-line file whose
    // edit defines nothing is not read).
    let defines = |l: &&str| definition(l.trim_start_matches([' ', '\t'])).is_some();
    if !new[changed.clone()].iter().any(defines) {
        return None;
    }
    let after = definitions(&new)?;
    let before = definitions(&old)?;
    let was = twice(&old, &before);
    let now = twice(&new, &after);
    // The first pair of one block, in the file's order, with a changed
    // line in it and more such definitions than the file had there.
    for (i, a) in after.iter().enumerate() {
        let Some(b) = after[i + 1..]
            .iter()
            .find(|b| b.name == a.name && b.blocks == a.blocks)
        else {
            continue;
        };
        if !changed.contains(&a.line) && !changed.contains(&b.line) {
            continue;
        }
        let key = (a.blocks.iter().map(|&l| new[l].trim()).collect(), a.name);
        if now.get(&key) <= was.get(&key) {
            continue;
        }
        let block = a.blocks.last().map(|&l| (l + 1, new[l].trim().to_string()));
        return Some(Redefinition {
            name: a.name.to_string(),
            block,
            lines: (a.line + 1, b.line + 1),
        });
    }
    None
}

#[cfg(test)]
mod tests {
    use super::{Redefinition, python_redefinition};

    const CLASS: &str = "class Inventory:\n    def __init__(self):\n        self.items = {}\n\n    def total(self):\n        return sum(self.items.values())\n";

    /// A tester's kind of find: an edit re-sent, changed a little, after
    /// its first send was applied: the method is there twice, and the
    /// earlier copy (the model's, here) never runs.
    #[test]
    fn a_method_added_again_in_its_class_is_doubted() {
        let result = CLASS.replace(
            "        self.items = {}\n",
            "        self.items = {}\n\n    def total(self):\n        return 0\n",
        );
        let found = python_redefinition(CLASS, &result);
        assert_eq!(
            found,
            Some(Redefinition {
                name: "total".into(),
                block: Some((1, "class Inventory:".into())),
                lines: (5, 8),
            })
        );
        assert_eq!(
            found.map(|f| f.describe()).as_deref(),
            Some(
                "as written, the file defines `total` twice in class `Inventory` (line 1), at \
                 lines 5 and 8: Python keeps the later one (line 8) without a word, and the one \
                 at line 5 never runs: change the definition that is there (its text in the old \
                 text) instead of adding another, or give the new one another name"
            )
        );
    }

    #[test]
    fn functions_classes_and_async_defs_at_the_top_level_are_doubted() {
        let cases = [
            (
                "def f():\n    return 1\n",
                "def f():\n    return 1\n\ndef f():\n    return 2\n",
                (1, 4),
            ),
            (
                "class A:\n    pass\n",
                "class A:\n    pass\nclass A:\n    x = 1\n",
                (1, 3),
            ),
            (
                "async def run():\n    pass\n",
                "async  def run():\n    await x()\n\nasync def run():\n    pass\n",
                (1, 4),
            ),
            (
                "def test_a():\n    assert f()\n",
                "def test_a():\n    assert f()\n\n\ndef test_a():\n    assert g()\n",
                (1, 5),
            ),
        ];
        for (original, result, lines) in cases {
            let found = python_redefinition(original, result);
            assert_eq!(found.as_ref().map(|f| f.lines), Some(lines), "{result}");
            assert_eq!(found.and_then(|f| f.block), None, "{result}");
        }
    }

    #[test]
    fn definitions_meant_again_or_in_other_blocks_are_not_doubted() {
        let cases = [
            // A property's setter, overloads, a dispatcher's registrations.
            (
                "class A:\n    @property\n    def x(self):\n        return 1\n",
                "class A:\n    @property\n    def x(self):\n        return 1\n\n    @x.setter\n    def x(self, v):\n        pass\n",
            ),
            (
                "def f(a):\n    return a\n",
                "@overload\ndef f(a: int) -> int: ...\n@typing.overload\ndef f(a: str) -> str: ...\ndef f(a):\n    return a\n",
            ),
            (
                "@f.register\ndef _(a: int):\n    pass\n",
                "@f.register\ndef _(a: int):\n    pass\n@f.register\ndef _(a: str):\n    pass\n",
            ),
            // Two blocks: if/else, try/except, two methods of two classes.
            (
                "if X:\n    def f():\n        pass\n",
                "if X:\n    def f():\n        pass\nelse:\n    def f():\n        return 1\n",
            ),
            (
                "try:\n    from a import f\nexcept ImportError:\n    pass\n",
                "try:\n    def f():\n        pass\nexcept ImportError:\n    def f():\n        return 1\n",
            ),
            (
                "class A:\n    def f(self):\n        pass\n",
                "class A:\n    def f(self):\n        pass\nclass B:\n    def f(self):\n        pass\n",
            ),
            // Nested: a function inside a method of the same name.
            (
                "def f():\n    return 1\n",
                "def f():\n    def f():\n        return 1\n    return f()\n",
            ),
            // Inside a string or brackets: not a statement.
            (
                "def f():\n    return 1\n",
                "def f():\n    \"\"\"Example:\ndef f():\n    pass\n\"\"\"\n    return 1\n",
            ),
            // A function moved, or replaced by a new version, in one edit.
            (
                "def f():\n    return 1\n\ndef g():\n    pass\n",
                "def g():\n    pass\n\ndef f():\n    return 2\n",
            ),
        ];
        for (original, result) in cases {
            assert_eq!(python_redefinition(original, result), None, "{result}");
        }
    }

    /// Twice already before the edit: not this edit's doing. A third copy
    /// is.
    #[test]
    fn a_name_the_file_defined_twice_already_is_doubted_only_for_a_third() {
        let twice = "def f():\n    pass\ndef f():\n    pass\n";
        let edited = twice.replace("def f():\n    pass\n", "def f():\n    return 3\n");
        assert_eq!(python_redefinition(twice, &edited), None);
        let third = format!("{twice}def f():\n    return 3\n");
        assert_eq!(
            python_redefinition(twice, &third).map(|f| f.lines),
            Some((3, 5))
        );
    }

    /// An edit that defines nothing is not read, and a definition it does
    /// not touch is never blamed on it.
    #[test]
    fn an_edit_that_defines_nothing_is_not_doubted() {
        let twice = "def f():\n    pass\ndef f():\n    pass\nx = 1\n";
        assert_eq!(
            python_redefinition(twice, &twice.replace("x = 1", "x = 2")),
            None
        );
        let other = format!("{twice}def g():\n    pass\n");
        assert_eq!(python_redefinition(twice, &other), None);
    }
}
