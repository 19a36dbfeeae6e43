//! *Pure.* An edit that renames (or removes) a Python class's method while
//! the class still uses it as `self.old()`: `def total(self)` made `def
//! sum_total(self)` above `return f"{self.total():.2f}"` (a fresh-eyes
//! tester's find, round 49, T-04: written as exact). Python says nothing
//! until the line runs, then raises `AttributeError: 'Cart' object has no
//! attribute 'total'`. A module-level function renamed while the file
//! still calls it is [`super::doubt_names`]'s (`NameError`).
//!
//! The rule, by evidence only, read over
//! [`super::doubt_names::python_lines`]'s logical lines (a file that does
//! not read as Python is not judged), only where it is sure no other
//! binding answers the name:
//! - the class is a top-level `class Name:` (or `class Name():`, `class
//!   Name(object):`): no base a method may come from, no metaclass, no
//!   decorator but `@dataclass` (which adds no method a model names);
//! - the file before defined the method directly in that class's body (a
//!   `def` or `async def` at the body's column); the edit's changed lines
//!   hold a `def` line (the cheap first test);
//! - the result uses `self.name` (a call or not, in code or in an
//!   f-string's field) in that class's body, outside any class nested in
//!   it, while the result binds `name` nowhere: no token `name` other than
//!   after a `.` (no `def name` in any class, no assignment, no import),
//!   no `.name =` (or `+=`, `: T =`) anywhere, no string `"name"` (a
//!   `getattr`, `setattr` or `mock.patch.object` naming it), and no
//!   `setattr`, `__getattr__`, `__getattribute__`, `__dict__` or `exec`;
//! - not a dunder (`__len__`: Python's own machinery may provide one).
//!
//! The sentence names the method, the class, the line renaming it (or the
//! line that defined it, when it is gone), the first line still using it,
//! and the `AttributeError` it raises.

use super::doubt_names::python_lines;
use super::pytokens::{Tok, Token};

/// A method an edit renames or removes while its class still uses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodGone {
    /// The method's name.
    pub name: String,
    /// Its class.
    pub class: String,
    /// The line (1-based) of the file before that defined it, and its
    /// text, trimmed.
    pub defined: (usize, String),
    /// The first line (1-based) of the result that uses `self.name`, and
    /// its text, trimmed.
    pub used: (usize, String),
    /// The new name the edit gives it, with the result's line defining it
    /// and that line's text, trimmed.
    pub renamed_to: Option<(String, usize, String)>,
}

impl MethodGone {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        let line = self.used.0;
        let advice = match &self.renamed_to {
            Some((new, ..)) => format!(
                "change `self.{}` to `self.{new}` on line {line} and at every other use too, or \
                 keep the method's name",
                self.name
            ),
            None => format!("keep the method, or change line {line} and every other use of it too"),
        };
        format!("{}: {advice}", self.fault())
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (name, class) = (&self.name, &self.class);
        let (used_line, used_text) = &self.used;
        let what = match &self.renamed_to {
            Some((new, line, text)) => format!(
                "the edit renames the method `{name}` of class `{class}` to `{new}` (line \
                 {line}: `{text}`)"
            ),
            None => format!(
                "the class `{class}` defined the method `{name}` before (line {}: `{}`) and no \
                 longer defines it",
                self.defined.0, self.defined.1
            ),
        };
        format!(
            "{what}, but line {used_line} still uses `self.{name}` (`{used_text}`): running that \
             line raises AttributeError: '{class}' object has no attribute '{name}'"
        )
    }
}

/// The method of a class of `result` (the Python file as an edit of
/// `original` leaves it) that the class still uses as `self.name` but no
/// longer defines, where `original` defined it (see the module's rule).
pub(super) fn python_method_gone(original: &str, result: &str) -> Option<MethodGone> {
    let (old, new, same, tail) = crate::textdiff::changed_lines(original, result);
    let is_def = |l: &&str| {
        let t = l.trim_start();
        t.starts_with("def ") || t.starts_with("async def ")
    };
    if !old[same..old.len() - tail].iter().any(is_def) {
        return None;
    }
    let after = python_lines(result)?;
    if after.iter().any(|(_, tokens)| dynamic(tokens)) {
        return None;
    }
    let before = python_lines(original)?;
    let classes_before = classes(&before);
    for class in classes(&after) {
        let Some(was) = classes_before.iter().find(|c| c.name == class.name) else {
            continue;
        };
        for &(line, name) in &class.uses {
            if class.methods.iter().any(|m| m.0 == name) || !free(&after, name) {
                continue;
            }
            let Some(&(_, def_line)) = was.methods.iter().find(|m| m.0 == name) else {
                continue;
            };
            let changed_old = same < def_line && def_line <= old.len() - tail;
            let renamed_to = class
                .methods
                .iter()
                .filter(|m| !was.methods.iter().any(|w| w.0 == m.0))
                .find(|m| changed_old && same < m.1 && m.1 <= new.len() - tail)
                .map(|m| (m.0.to_string(), m.1, text_of(result, m.1)));
            return Some(MethodGone {
                name: name.to_string(),
                class: class.name.to_string(),
                defined: (def_line, text_of(original, def_line)),
                used: (line, text_of(result, line)),
                renamed_to,
            });
        }
    }
    None
}

/// `text`'s line `line` (1-based), trimmed.
fn text_of(text: &str, line: usize) -> String {
    text.lines()
        .nth(line.saturating_sub(1))
        .map_or(String::new(), |l| l.trim().to_string())
}

/// A top-level class read as the rule reads it.
struct Class<'a> {
    name: &'a str,
    /// Its methods: name, and the `def`'s line (1-based).
    methods: Vec<(&'a str, usize)>,
    /// Each `self.name` in its body (outside nested classes): line, name.
    uses: Vec<(usize, &'a str)>,
}

/// Whether a logical line names what may bind attributes by hand.
fn dynamic(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| {
        t.kind == Tok::Name
            && matches!(
                t.text,
                "setattr" | "__getattr__" | "__getattribute__" | "__dict__" | "exec"
            )
    })
}

/// Whether the header `tokens` (`class Name...:`) is one whose methods
/// come from its own body only: no base but `object`, no keyword.
fn plain_class<'a>(tokens: &[Token<'a>]) -> Option<&'a str> {
    let name = match tokens {
        [class, name, colon] if class.name("class") && colon.is(":") => name,
        [class, name, open, close, colon]
            if class.name("class") && open.is("(") && close.is(")") && colon.is(":") =>
        {
            name
        }
        [class, name, open, base, close, colon]
            if class.name("class")
                && open.is("(")
                && base.name("object")
                && close.is(")")
                && colon.is(":") =>
        {
            name
        }
        _ => return None,
    };
    (name.kind == Tok::Name).then_some(name.text)
}

/// Whether the decorator line `tokens` (`@...`) is `@dataclass` (or
/// `@dataclasses.dataclass`, called or not).
fn dataclass(tokens: &[Token]) -> bool {
    let rest = match tokens {
        [at, module, dot, name, rest @ ..]
            if at.is("@") && module.name("dataclasses") && dot.is(".") =>
        {
            (name, rest)
        }
        [at, name, rest @ ..] if at.is("@") => (name, rest),
        _ => return false,
    };
    rest.0.name("dataclass") && (rest.1.is_empty() || rest.1[0].is("("))
}

/// The top-level plain classes of `lines` (see [`plain_class`]), with an
/// optional `@dataclass` above.
fn classes<'a>(lines: &[(usize, Vec<Token<'a>>)]) -> Vec<Class<'a>> {
    let mut out = Vec::new();
    for (i, (indent, tokens)) in lines.iter().enumerate() {
        if *indent != 0 {
            continue;
        }
        let Some(name) = plain_class(tokens) else {
            continue;
        };
        let decorated = lines[..i]
            .iter()
            .rev()
            .take_while(|(at, t)| *at == 0 && t.first().is_some_and(|f| f.is("@")))
            .any(|(_, t)| !dataclass(t));
        if decorated {
            continue;
        }
        let body: Vec<&(usize, Vec<Token<'a>>)> = lines[i + 1..]
            .iter()
            .take_while(|(at, _)| *at > 0)
            .collect();
        let Some(column) = body.first().map(|b| b.0) else {
            continue;
        };
        let mut class = Class {
            name,
            methods: Vec::new(),
            uses: Vec::new(),
        };
        // The column of a class nested in the body, while inside it.
        let mut nested: Option<usize> = None;
        for (at, tokens) in body {
            if nested.is_some_and(|n| *at > n) {
                continue;
            }
            nested = None;
            let def = match tokens.as_slice() {
                [d, n, ..] if d.name("def") => Some(n),
                [a, d, n, ..] if a.name("async") && d.name("def") => Some(n),
                _ => None,
            };
            if let Some(n) = def.filter(|n| n.kind == Tok::Name && *at == column) {
                class.methods.push((n.text, n.line));
            }
            if tokens.first().is_some_and(|t| t.name("class")) {
                nested = Some(*at);
                continue;
            }
            class.uses.extend(self_uses(tokens));
        }
        out.push(class);
    }
    out
}

/// Each `self.name` loaded in `tokens` (not stored: `self.name =`), and
/// each `self.name` in an f-string's field: line, name.
fn self_uses<'a>(tokens: &[Token<'a>]) -> Vec<(usize, &'a str)> {
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.kind == Tok::Str {
            out.extend(in_f_string(t));
            continue;
        }
        let (Some(dot), Some(name)) = (tokens.get(i + 1), tokens.get(i + 2)) else {
            continue;
        };
        let after_dot = i > 0 && tokens[i - 1].is(".");
        if t.name("self") && !after_dot && dot.is(".") && name.kind == Tok::Name {
            out.push((name.line, name.text));
        }
    }
    out
}

/// Each `self.name` in the f-string `t`'s text (its fields are not
/// tokens): line, name.
fn in_f_string<'a>(t: &Token<'a>) -> Vec<(usize, &'a str)> {
    let prefix = t.text.split(['\'', '"']).next().unwrap_or("");
    if !prefix.contains(['f', 'F']) {
        return Vec::new();
    }
    let text = t.text;
    let mut out = Vec::new();
    for (at, _) in text.match_indices("self.") {
        let word_before = text[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c == '_' || c == '.' || c.is_alphanumeric());
        if word_before {
            continue;
        }
        let rest = &text[at + 5..];
        let end = rest
            .find(|c: char| !(c == '_' || c.is_alphanumeric()))
            .unwrap_or(rest.len());
        if end > 0 && !rest[..1].chars().all(|c| c.is_ascii_digit()) {
            let line = t.line + text[..at].matches('\n').count();
            out.push((line, &rest[..end]));
        }
    }
    out
}

/// Whether nothing in `lines` may bind `name` (see the module's rule).
fn free(lines: &[(usize, Vec<Token<'_>>)], name: &str) -> bool {
    if name.starts_with("__") && name.ends_with("__") {
        return false;
    }
    let quoted = |t: &Token| {
        let body = t.text.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        body.trim_matches(['\'', '"']) == name
    };
    lines.iter().all(|(_, tokens)| {
        tokens.iter().enumerate().all(|(i, t)| {
            let after_dot = i > 0 && tokens[i - 1].is(".");
            match t.kind {
                Tok::Str => !quoted(t),
                Tok::Name if t.text == name && !after_dot => false,
                Tok::Name if t.text == name => !tokens.get(i + 1).is_some_and(|n| {
                    n.is("=")
                        || n.is(":")
                        || (n.kind == Tok::Op
                            && n.text.ends_with('=')
                            && !matches!(n.text, "==" | "!=" | "<=" | ">="))
                }),
                _ => true,
            }
        })
    })
}

#[cfg(test)]
mod tests {
    use super::python_method_gone;

    const CART: &str = "from dataclasses import dataclass\n\n\n@dataclass\nclass Cart:\n    \
                        items: list\n\n    def total(self):\n        return sum(self.items)\n\n    \
                        def report(self):\n        return f\"total {self.total():.2f}\"\n\n    \
                        def check(self):\n        if self.total() < 0:\n            \
                        raise ValueError\n";

    /// The sentence said of the edit of `old` into `new` in `file`.
    fn said(file: &str, old: &str, new: &str) -> Option<String> {
        let result = file.replacen(old, new, 1);
        assert_ne!(result, file, "{new}");
        python_method_gone(file, &result).map(|g| g.describe())
    }

    /// T-04 (round 49): a method renamed in place while the class still
    /// calls `self.total()` (in an f-string's field too).
    #[test]
    fn a_method_renamed_while_still_called_is_said() {
        let got = said(CART, "    def total(self):", "    def sum_total(self):");
        assert_eq!(
            got.as_deref(),
            Some(
                "the edit renames the method `total` of class `Cart` to `sum_total` (line 8: \
                 `def sum_total(self):`), but line 12 still uses `self.total` (`return f\"total \
                 {self.total():.2f}\"`): running that line raises AttributeError: 'Cart' object \
                 has no attribute 'total': change `self.total` to `self.sum_total` on line 12 \
                 and at every other use too, or keep the method's name"
            )
        );
        let gone = said(
            CART,
            "    def total(self):\n        return sum(self.items)\n\n",
            "",
        );
        assert!(
            gone.as_deref().is_some_and(|s| s.starts_with(
                "the class `Cart` defined the method `total` before (line 8: `def total(self):`) \
                 and no longer defines it, but line 9 still uses `self.total`"
            )),
            "{gone:?}"
        );
    }

    /// Where another binding may answer the name, or the class may get it
    /// elsewhere, nothing is said.
    #[test]
    fn a_name_something_else_may_bind_is_not_said() {
        let renamed = |file: &str| said(file, "    def total(self):", "    def sum_total(self):");
        let cases = [
            CART.replace("class Cart:", "class Cart(Base):"),
            CART.replace("class Cart:", "class Cart(metaclass=Meta):"),
            CART.replace("@dataclass\n", "@register\n"),
            format!("{CART}\n\nclass Big(Cart):\n    def total(self):\n        return 0\n"),
            format!("{CART}\n\ndef total(cart):\n    return 0\n"),
            CART.replace("        raise ValueError\n", "        self.total = 0\n"),
            CART.replace(
                "        raise ValueError\n",
                "        getattr(self, 'total')\n",
            ),
            CART.replace(
                "        raise ValueError\n",
                "        setattr(self, name, 0)\n",
            ),
            CART.replace(
                "    items: list\n",
                "    items: list\n    total = property(sum)\n",
            ),
            CART.replace(
                "    def check(self):\n",
                "    def __getattr__(self, name):\n        return 0\n\n    def check(self):\n",
            ),
        ];
        for file in cases {
            assert_eq!(renamed(&file), None, "{file}");
        }
        // A method renamed and its uses renamed too; a use only in a nested
        // class (its own `self`); a change that touches no `def` line.
        let both = CART
            .replace("def total(", "def sum_total(")
            .replace("self.total()", "self.sum_total()");
        assert_eq!(python_method_gone(CART, &both), None);
        let nested = "class A:\n    def f(self):\n        return 1\n\n    class B:\n        \
                      def g(self):\n            return self.f()\n";
        assert_eq!(said(nested, "    def f(self):", "    def h(self):"), None);
        assert_eq!(said(CART, "sum(self.items)", "sum(self.items) + 1"), None);
    }
}
