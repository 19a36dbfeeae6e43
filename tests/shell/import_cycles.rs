//! The module graph of `src/` has no import cycle between files (issue 28:
//! data flows one way), and nothing in `source/` imports `sessions/`.
//!
//! Read from the source text, as a reader would: every `crate::a::b` and
//! `super::a` path (brace groups expanded) names the deepest module file it
//! reaches. A file's use of its own parent or child module (a `mod.rs` and
//! the files it declares) is not counted: those are one module's parts.
//! Comments and a file's `#[cfg(test)] mod` are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::support::files;

type Module = Vec<String>;

/// Every module of `src/`, by its path, with its file.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    let mut all = BTreeMap::new();
    for path in files::files_below(root) {
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let relative = path.strip_prefix(root).expect("below src/");
        let mut module: Module = relative
            .with_extension("")
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if module.last().is_some_and(|m| m == "mod") {
            module.pop();
        }
        if module == ["lib"] || module == ["main"] {
            module.clear();
        }
        all.insert(module, path);
    }
    all
}

/// The text of `file` without comments and without its test module.
fn code_of(file: &Path) -> String {
    let text = std::fs::read_to_string(file).expect("a source file");
    let text = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => &text,
    };
    text.lines()
        .map(|line| match line.find("//") {
            Some(at) => &line[..at],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths `code` names from `crate` or `super`, as segments after the
/// first word (`crate::a::{b, c::d}` gives `[crate, a, b]`, `[crate, a, c, d]`).
fn paths(code: &str) -> Vec<Vec<String>> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(offset) = code[at..].find(['c', 's']) {
        let start = at + offset;
        at = start + 1;
        let head = if code[start..].starts_with("crate::") {
            "crate"
        } else if code[start..].starts_with("super::") {
            "super"
        } else {
            continue;
        };
        if code[..start]
            .chars()
            .next_back()
            .is_some_and(|c| is_word(c) || c == ':')
        {
            continue;
        }
        let mut path = vec![head.to_string()];
        let mut rest = &code[start + head.len()..];
        while let Some(after) = rest.strip_prefix("::") {
            if let Some(group) = after.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    let item = item.split(" as ").next().unwrap_or("").trim();
                    let mut each = path.clone();
                    if !item.is_empty() && item != "self" {
                        each.extend(item.split("::").map(|s| s.trim().to_string()));
                    }
                    found.push(each);
                }
                path.clear();
                break;
            }
            let len = after.find(|c: char| !is_word(c)).unwrap_or(after.len());
            if len == 0 {
                break;
            }
            path.push(after[..len].to_string());
            rest = &after[len..];
        }
        if !path.is_empty() {
            found.push(path);
        }
    }
    found
}

/// The module files `module` imports (`super` is its parent module,
/// whether its file is a `mod.rs` or not).
fn imports(module: &Module, code: &str, all: &BTreeMap<Module, PathBuf>) -> BTreeSet<Module> {
    let mut out = BTreeSet::new();
    for path in paths(code) {
        let mut target: Module = if path[0] == "crate" {
            Vec::new()
        } else {
            module[..module.len().saturating_sub(1)].to_vec()
        };
        for segment in &path[1..] {
            if segment == "super" {
                target.pop();
            } else {
                target.push(segment.clone());
            }
        }
        while !target.is_empty() && !all.contains_key(&target) {
            target.pop();
        }
        if &target != module {
            out.insert(target);
        }
    }
    out
}

fn one_contains_the_other(a: &Module, b: &Module) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

/// The cycles (strongly connected sets of two or more files) of `graph`.
fn cycles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        graph: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<&'a Module, usize>,
        low: BTreeMap<&'a Module, usize>,
        stack: Vec<&'a Module>,
        found: Vec<Vec<Module>>,
    }
    impl<'a> Walk<'a> {
        fn visit(&mut self, v: &'a Module) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.graph.get(v).into_iter().flatten() {
                if one_contains_the_other(v, w) || !self.graph.contains_key(w) {
                    continue;
                }
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut set = Vec::new();
                while let Some(w) = self.stack.pop() {
                    set.push(w.clone());
                    if w == v {
                        break;
                    }
                }
                if set.len() > 1 {
                    self.found.push(set);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.found
}

fn graph() -> BTreeMap<Module, BTreeSet<Module>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let all = modules(&root);
    all.iter()
        .map(|(module, file)| (module.clone(), imports(module, &code_of(file), &all)))
        .collect()
}

#[test]
fn no_file_of_src_imports_one_that_imports_it_back() {
    let found: Vec<String> = cycles(&graph())
        .iter()
        .map(|set| {
            let mut names: Vec<String> = set.iter().map(|m| m.join("/")).collect();
            names.sort();
            names.join(" <-> ")
        })
        .collect();
    assert!(found.is_empty(), "import cycles: {found:#?}");
}

#[test]
fn nothing_in_source_imports_sessions() {
    let graph = graph();
    let offending: Vec<String> = graph
        .iter()
        .filter(|(module, _)| module.first().is_some_and(|m| m == "source"))
        .flat_map(|(module, targets)| {
            targets
                .iter()
                .filter(|t| t.first().is_some_and(|m| m == "sessions"))
                .map(move |t| format!("{} -> {}", module.join("/"), t.join("/")))
        })
        .collect();
    assert!(offending.is_empty(), "{offending:#?}");
}

/// The reading of paths the two tests stand on.
#[test]
fn paths_are_read_with_their_brace_groups() {
    assert_eq!(
        paths("use crate::a::{b, c::d as e, self};\nlet x = super::super::f::g(1);"),
        vec![
            vec!["crate", "a", "b"],
            vec!["crate", "a", "c", "d"],
            vec!["crate", "a"],
            vec!["super", "super", "f", "g"],
        ]
    );
    let graph: BTreeMap<Module, BTreeSet<Module>> = [
        (vec!["a".to_string()], [vec!["b".to_string()]].into()),
        (vec!["b".to_string()], [vec!["a".to_string()]].into()),
        (vec!["c".to_string()], [vec!["a".to_string()]].into()),
    ]
    .into();
    assert_eq!(
        cycles(&graph),
        vec![vec![vec!["b".to_string()], vec!["a".to_string()]]]
    );
}
