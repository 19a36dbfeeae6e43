//! *Pure.* An edit that removes a JavaScript or TypeScript module's
//! top-level function, class or variable while the file still calls it
//! (`function helper` deleted, `main` still running `helper(2)`): node
//! throws `ReferenceError: helper is not defined` when the call runs, and
//! tsc refuses the file (`Cannot find name 'helper'`). Python's reading of
//! the same fault is [`super::doubt_names`].
//!
//! The rule, by evidence only, read by tokens ([`super::js_tokens`]; a
//! file the reading cannot follow, or holding JSX, is not judged):
//! - the file as the edit leaves it is a module: it imports, exports or
//!   `require`s at its top level, so its top-level names are its own (a
//!   plain script's may come from a script loaded before it); or the edit
//!   renames the declaration (a new name declared on its line), which no
//!   other script's declaration of the old name explains;
//! - the file before declared the name at its top level: `function name`
//!   (`async`, `function*`, after `export` or `export default`), `class
//!   name`, `const`/`let`/`var name =`, each starting its statement;
//! - the file after holds the name only as plain calls: `name(..)` not
//!   after a `.` or `?.`, its `)` followed by no `{` (a method or a
//!   function declared) and, in TypeScript, no `:` (a method's return
//!   type). Any other place the name stands (a declaration, an import, a
//!   parameter, a property key, a reference) and nothing is said: it may
//!   bind the name;
//! - not a global JavaScript or its hosts provide ([`GLOBALS`]): a file
//!   that declared `fetch` for itself and no longer does calls the
//!   global one.

use std::collections::{HashMap, HashSet};

use super::doubt_asi::read_language;
use super::js_tokens::{Context, Kind, Token, tokens};

/// A top-level name an edit removes from a module that still calls it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsNameGone {
    /// The name.
    pub name: String,
    /// The line (1-based) of the file before that declared it, and its
    /// text, trimmed.
    pub declared: (usize, String),
    /// The first line (1-based) of the result that calls it, and its
    /// text, trimmed.
    pub called: (usize, String),
    /// `JavaScript` or `TypeScript`.
    pub language: &'static str,
    /// The name the edit declares on the same line instead (a rename),
    /// read in a plain script too.
    pub renamed_to: Option<String>,
}

impl JsNameGone {
    /// One sentence, without a final stop, ending with what to send.
    pub fn describe(&self) -> String {
        format!(
            "{}: keep its declaration (or import it), or change line {} and every other call \
             of it too",
            self.fault(),
            self.called.0
        )
    }

    /// [`Self::describe`] without what to send instead.
    pub fn fault(&self) -> String {
        let (declared_line, declared_text) = &self.declared;
        let (called_line, called_text) = &self.called;
        let name = &self.name;
        let effect = match self.language {
            "TypeScript" => format!(
                "tsc refuses the file (Cannot find name '{name}'), and run as JavaScript that \
                 line throws ReferenceError"
            ),
            _ => format!("running that line throws ReferenceError: {name} is not defined"),
        };
        match &self.renamed_to {
            Some(new) => format!(
                "the file declared `{name}` at its top level before (line {declared_line}: \
                 `{declared_text}`) and the edit renames it `{new}`, but line {called_line} \
                 still calls `{name}` (`{called_text}`): {effect}"
            ),
            None => format!(
                "the module declared `{name}` at its top level before (line {declared_line}: \
                 `{declared_text}`) and no longer declares or imports it, but line \
                 {called_line} still calls it (`{called_text}`): {effect}"
            ),
        }
    }
}

/// Names JavaScript, browsers and node provide: a module that stops
/// declaring one of them calls the global.
const GLOBALS: [&str; 44] = [
    "Array",
    "ArrayBuffer",
    "BigInt",
    "Boolean",
    "Buffer",
    "Date",
    "Error",
    "Function",
    "Map",
    "Number",
    "Object",
    "Promise",
    "Proxy",
    "RegExp",
    "Set",
    "String",
    "Symbol",
    "TypeError",
    "URL",
    "WeakMap",
    "WeakSet",
    "alert",
    "atob",
    "btoa",
    "clearInterval",
    "clearTimeout",
    "confirm",
    "decodeURI",
    "decodeURIComponent",
    "encodeURI",
    "encodeURIComponent",
    "escape",
    "eval",
    "fetch",
    "isFinite",
    "isNaN",
    "parseFloat",
    "parseInt",
    "prompt",
    "queueMicrotask",
    "require",
    "setInterval",
    "setTimeout",
    "structuredClone",
];

/// The first top-level name of `original` that `result` (the file `path`
/// as an edit leaves it) still calls and no longer declares (see the
/// module's rule). `None` when there is none, or either text is not read.
pub(super) fn js_name_gone(path: &str, original: &str, result: &str) -> Option<JsNameGone> {
    let language = read_language(path, original, result)?;
    // Cheap first: a declaration is gone or renamed only where a line the
    // edit replaces holds its word (most edits: no tokenizing at all).
    let (old, _, prefix, suffix) = crate::textdiff::changed_lines(original, result);
    let declares = |line: &&str| {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|w| matches!(w, "function" | "class" | "const" | "let" | "var"))
    };
    if !old[prefix..old.len() - suffix].iter().any(declares) {
        return None;
    }
    let after = tokens(result)?;
    let before = tokens(original)?;
    let is_module = module(&after);
    let declared_before = top_level_declarations(&before);
    let declared_after = top_level_declarations(&after);
    let names_before: HashSet<&str> = declared_before.iter().map(|&(n, _)| n).collect();
    // A new name declared on the line a gone one was (a rename).
    let new_on_line: HashMap<usize, &str> = declared_after
        .iter()
        .rev()
        .filter(|(n, _)| !names_before.contains(n))
        .map(|&(n, l)| (l, n))
        .collect();
    // Every place of each name, and each call's `)` by the token before
    // its `(`: one pass each (a large file has thousands of names).
    let mut places: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut closes: HashMap<usize, usize> = HashMap::new();
    for (i, t) in after.iter().enumerate() {
        if t.kind == Kind::Word {
            places.entry(t.text).or_default().push(i);
        } else if t.text == ")"
            && let Some(h) = t.head
        {
            closes.insert(h, i);
        }
    }
    let line_text = |text: &str, line: usize| {
        text.lines()
            .nth(line)
            .map_or(String::new(), |l| l.trim().to_string())
    };
    let typescript = language == "TypeScript";
    declared_before
        .iter()
        .copied()
        .filter(|(name, _)| !GLOBALS.contains(name))
        .filter(|(_, line)| is_module || new_on_line.contains_key(line))
        .filter_map(|(name, declared)| {
            let at = places.get(name)?;
            at.iter()
                .all(|&i| plain_call(&after, i, closes.get(&i).copied(), typescript))
                .then(|| (after[at[0]].line, name, declared))
        })
        .min()
        .map(|(called, name, declared)| JsNameGone {
            name: name.to_string(),
            declared: (declared + 1, line_text(original, declared)),
            called: (called + 1, line_text(result, called)),
            language,
            renamed_to: new_on_line.get(&declared).map(|n| n.to_string()),
        })
}

/// Whether `tokens` read as a module: an `import` or `export` statement
/// at the top level, a `require(` call, or `module.exports`/`exports.`.
fn module(tokens: &[Token]) -> bool {
    tokens.iter().enumerate().any(|(i, t)| {
        let next = tokens.get(i + 1).map(|n| n.text);
        t.kind == Kind::Word
            && match t.text {
                "import" | "export" => {
                    t.context == Context::Top && !matches!(next, Some("(" | "."))
                }
                "require" => next == Some("("),
                "module" => {
                    next == Some(".") && tokens.get(i + 2).map(|n| n.text) == Some("exports")
                }
                "exports" => next == Some("."),
                _ => false,
            }
    })
}

/// The names `tokens` declares at its top level, each with its 0-based
/// line: `function name`, `class name`, `const`/`let`/`var name =`, each
/// starting its statement.
fn top_level_declarations<'a>(tokens: &[Token<'a>]) -> Vec<(&'a str, usize)> {
    let word = |i: usize, w: &str| {
        tokens
            .get(i)
            .is_some_and(|t| t.kind == Kind::Word && t.text == w)
    };
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.context != Context::Top || t.kind != Kind::Word || !statement_start(tokens, i) {
            continue;
        }
        let name_at = match t.text {
            "function" if tokens.get(i + 1).is_some_and(|n| n.text == "*") => i + 2,
            "function" | "class" => i + 1,
            "const" | "let" | "var" if tokens.get(i + 2).is_some_and(|n| n.text == "=") => i + 1,
            _ => continue,
        };
        if let Some(name) = tokens.get(name_at).filter(|n| n.kind == Kind::Word)
            && !word(name_at, "extends")
        {
            out.push((name.text, name.line));
        }
    }
    out
}

/// Whether `tokens[i]` starts a statement: the file's first token, or
/// after `;`, `}`, `export`, `default`, `async` or a line break.
fn statement_start(tokens: &[Token], i: usize) -> bool {
    let Some(before) = i.checked_sub(1).map(|k| &tokens[k]) else {
        return true;
    };
    before.end_line < tokens[i].line
        || matches!(before.text, ";" | "}" | "export" | "default" | "async")
}

/// Whether the name `tokens[i]` is a plain call: not after `.` or `?.`
/// (nor a word that declares it), `(` after it, and its `)` (`close`)
/// followed by no `{` (nor, in TypeScript, `:`).
fn plain_call(tokens: &[Token], i: usize, close: Option<usize>, typescript: bool) -> bool {
    let before = i.checked_sub(1).map(|k| tokens[k].text);
    if matches!(
        before,
        Some("." | "?." | "function" | "class" | "get" | "set" | "static" | "async" | "*")
    ) {
        return false;
    }
    if tokens.get(i + 1).map(|t| t.text) != Some("(") {
        return false;
    }
    let Some(close) = close else {
        return false;
    };
    match tokens.get(close + 1).map(|t| t.text) {
        Some("{") => false,
        Some(":") => !typescript,
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::js_name_gone;

    const FILE: &str = "import fs from 'fs'\n\nfunction helper(x) {\n  return x * 2\n}\n\nexport function main() {\n  console.log(helper(2))\n}\n";

    /// The fault said for `old` → `new` in `text` named `path`.
    fn said(path: &str, text: &str, old: &str, new: &str) -> Option<String> {
        assert!(text.contains(old), "{old}");
        js_name_gone(path, text, &text.replacen(old, new, 1)).map(|g| g.fault())
    }

    #[test]
    fn a_removed_declaration_the_module_still_calls_is_doubted() {
        let helper = "function helper(x) {\n  return x * 2\n}\n\n";
        assert_eq!(
            said("a.js", FILE, helper, "").as_deref(),
            Some(
                "the module declared `helper` at its top level before (line 3: `function \
                 helper(x) {`) and no longer declares or imports it, but line 4 still calls it \
                 (`console.log(helper(2))`): running that line throws ReferenceError: helper is \
                 not defined"
            )
        );
        let ts = FILE.replace("(x)", "(x: number)");
        let said_ts = said(
            "a.ts",
            &ts,
            "function helper(x: number) {\n  return x * 2\n}\n\n",
            "",
        );
        assert!(said_ts.is_some_and(|s| s.ends_with(
            "tsc refuses the file (Cannot find name 'helper'), and run as JavaScript that \
                 line throws ReferenceError"
        )));
        // CommonJS, a class, a const arrow function, `export default`.
        let cjs = "const path = require('path')\nclass Store {}\nconst make = () => new Store()\nmodule.exports = () => make()\n";
        assert!(said("b.js", cjs, "const make = () => new Store()\n", "").is_some());
        let esm = "export default async function run() {}\nexport const go = () => run()\n";
        assert!(said("c.mjs", esm, "export default async function run() {}\n", "").is_some());
    }

    #[test]
    fn a_name_still_bound_or_not_surely_called_is_not_doubted() {
        let helper = "function helper(x) {\n  return x * 2\n}\n\n";
        let cases = [
            // Imported, declared again, a parameter, a local.
            (FILE, helper, "import { helper } from './h'\n"),
            (FILE, helper, "const helper = (x) => x * 2\n"),
            (FILE, "main() {", "main(helper) {"),
            // Only a method of that name, a property, a reference.
            (
                FILE,
                helper,
                "class A {\n  helper(x) {\n    return x\n  }\n}\n",
            ),
            (FILE, "helper(2)", "this.helper(2)"),
            (FILE, "helper(2)", "[2].map(helper)"),
            // Renamed at every call.
            (FILE, "helper", "double"),
        ];
        for (text, old, new) in cases {
            let result = if old == "helper" {
                text.replace(old, new)
            } else {
                text.replacen(old, new, 1)
            };
            assert_eq!(js_name_gone("a.js", text, &result), None, "{new}");
        }
        // A plain script (no import, export or require): its names may
        // come from a script loaded before it.
        let script = FILE
            .replace("import fs from 'fs'\n", "")
            .replace("export ", "");
        assert_eq!(said("s.js", &script, helper, ""), None);
        // Renamed in a plain script (tester 49 T-04): said.
        assert_eq!(
            said("s.js", &script, "function helper(", "function double(").as_deref(),
            Some(
                "the file declared `helper` at its top level before (line 2: `function \
                 helper(x) {`) and the edit renames it `double`, but line 7 still calls \
                 `helper` (`console.log(helper(2))`): running that line throws ReferenceError: \
                 helper is not defined"
            )
        );
        // A global of that name: the call goes to it.
        let fetch =
            "export function fetch(u) {\n  return 1\n}\nexport const g = () => fetch('x')\n";
        assert_eq!(
            said(
                "f.js",
                fetch,
                "export function fetch(u) {\n  return 1\n}\n",
                ""
            ),
            None
        );
        // Not JavaScript.
        assert_eq!(said("a.py", FILE, helper, ""), None);
    }
}
