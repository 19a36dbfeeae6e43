//! Writes `assets/syntax-pack.bin`: bat's syntax definitions (via two-face)
//! split so the previewer loads only the grammar a file needs.
//!
//! Loading two-face's whole set touches its 0.96 MB dump and keeps 1.09 MB
//! on the heap for ~220 grammars, where one file needs one (plus the ones it
//! embeds). The pack holds a catalogue (every syntax's name, extensions and
//! first-line pattern, no rules) to detect as syntect's lookups do, the
//! colour theme, and one dump per syntax holding it and every syntax it
//! reaches, with context references renumbered for that smaller set.
//! Syntaxes whose dump would pass `OWN_DUMP_LIMIT` (Markdown, LaTeX...: they
//! embed dozens) share one dump instead: 2.6 MB in all, where a dump each
//! would be 6.2 MB.
//!
//! Run: `cargo run --release --example syntax_pack` (after a two-face upgrade;
//! `tests/shell/syntax_pack.rs` fails when the committed pack no longer matches).

use std::collections::{BTreeSet, HashMap};

use serde_json::Value;
// The pack's format, compiled in from the previewer's own module: the
// previewer is private to the srview crate (behind its fence).
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "../src/tui/view/syntax_pack.rs"]
mod syntax_pack;
use syntax_pack::{CatalogueEntry, PackEntry};
use syntect::dumps;
use syntect::parsing::{SyntaxDefinition, SyntaxSet, SyntaxSetBuilder};

fn main() -> color_eyre::Result<()> {
    let out = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "assets/syntax-pack.bin".to_string());
    let pack = build_pack()?;
    std::fs::write(&out, &pack)?;
    eprintln!("wrote {out}: {} bytes", pack.len());
    Ok(())
}

pub fn build_pack() -> color_eyre::Result<Vec<u8>> {
    let full = two_face::syntax::extra_newlines();
    let defs: Vec<SyntaxDefinition> = full.into_builder().syntaxes().to_vec();
    let contexts: Vec<Value> = defs
        .iter()
        .map(|d| serde_json::to_value(&d.contexts))
        .collect::<Result<_, _>>()?;
    let reaches: Vec<BTreeSet<usize>> = contexts.iter().map(syntax_indices).collect();

    // The catalogue lists extensions one per line; `str::lines` would drop
    // an empty one and a trailing `\r`.
    color_eyre::eyre::ensure!(
        !defs
            .iter()
            .flat_map(|d| &d.file_extensions)
            .any(|e| e.is_empty() || e.contains('\n') || e.ends_with('\r')),
        "an extension is empty or holds a line break, which the catalogue cannot list"
    );
    let catalogue: Vec<CatalogueEntry> = defs
        .iter()
        .map(|d| CatalogueEntry {
            name: d.name.as_str().into(),
            extensions: d.file_extensions.join("\n").into(),
            first_line: d.first_line_match.as_deref().map(Into::into),
        })
        .collect();
    let catalogue = serde_json::to_vec(&catalogue)?;
    let theme = two_face::theme::extra()
        .get(two_face::theme::EmbeddedThemeName::OneHalfDark)
        .clone();
    let theme = uncompressed(&theme)?;

    let subset = |members: &[usize]| subset_dump(members, &defs, &contexts);
    let closures: Vec<Vec<usize>> = (0..defs.len()).map(|r| closure(r, &reaches)).collect();
    let mut dumps = Vec::new();
    let mut entries = Vec::with_capacity(defs.len());
    let mut shared = Vec::new();
    for (root, members) in closures.iter().enumerate() {
        let dump = subset(members)?;
        if dump.len() <= OWN_DUMP_LIMIT {
            entries.push((dumps.len(), position(members, root)));
            dumps.push(dump);
        } else {
            entries.push((usize::MAX, root));
            shared.push(root);
        }
    }
    // Grammars that embed many others (Markdown, LaTeX, Typst...) share one
    // dump of everything they reach instead of each storing a large copy.
    let shared_members: Vec<usize> = shared
        .iter()
        .flat_map(|&r| closures[r].iter().copied())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if !shared.is_empty() {
        for entry in entries.iter_mut().filter(|e| e.0 == usize::MAX) {
            *entry = (dumps.len(), position(&shared_members, entry.1));
        }
        dumps.push(subset(&shared_members)?);
    }
    let entries: Vec<PackEntry> = entries
        .into_iter()
        .map(|(dump, index_in_dump)| PackEntry {
            dump,
            index_in_dump,
        })
        .collect();
    Ok(syntax_pack::encode(&catalogue, &theme, &dumps, &entries))
}

/// A syntax whose grammar (with what it embeds) dumps larger than this
/// shares the dump of the big grammars instead of having its own.
const OWN_DUMP_LIMIT: usize = 48 * 1024;

fn position(members: &[usize], syntax: usize) -> usize {
    members.iter().position(|&m| m == syntax).unwrap_or(0)
}

/// A syntax set of `members` (indices into `defs`, in order), with every
/// context reference renumbered for it.
fn subset_dump(
    members: &[usize],
    defs: &[SyntaxDefinition],
    contexts: &[Value],
) -> color_eyre::Result<Vec<u8>> {
    let renumber: HashMap<usize, usize> = members
        .iter()
        .enumerate()
        .map(|(new, &old)| (old, new))
        .collect();
    let mut builder = SyntaxSetBuilder::new();
    for &old in members {
        let mut ctx = contexts[old].clone();
        renumber_syntax_indices(&mut ctx, &renumber);
        builder.add(SyntaxDefinition {
            contexts: serde_json::from_value(ctx)?,
            ..defs[old].clone()
        });
    }
    let set: SyntaxSet = builder.build();
    uncompressed(&set)
}

/// syntect writes uncompressed dumps only to files (the grammars' rules
/// inside are compressed already, so compressing again buys nothing).
fn uncompressed<T: serde::Serialize>(o: &T) -> color_eyre::Result<Vec<u8>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("dump");
    dumps::dump_to_uncompressed_file(o, &path)?;
    Ok(std::fs::read(&path)?)
}

/// Every syntax `root` reaches through its context references, itself
/// included, in the set's order (later syntaxes win lookups, as in the set).
fn closure(root: usize, reaches: &[BTreeSet<usize>]) -> Vec<usize> {
    let mut seen = BTreeSet::from([root]);
    let mut todo = vec![root];
    while let Some(s) = todo.pop() {
        for &next in &reaches[s] {
            if seen.insert(next) {
                todo.push(next);
            }
        }
    }
    seen.into_iter().collect()
}

/// A linked `ContextId` serialises as `{"syntax_index": n, "context_index": m}`;
/// its fields are private, so references are found and renumbered in that form.
fn syntax_indices(v: &Value) -> BTreeSet<usize> {
    let mut found = BTreeSet::new();
    visit_ids(v, &mut |i| {
        found.insert(i);
    });
    found
}

fn visit_ids(v: &Value, f: &mut dyn FnMut(usize)) {
    match v {
        Value::Object(map) => {
            if let (Some(s), true) = (
                map.get("syntax_index").and_then(Value::as_u64),
                map.contains_key("context_index"),
            ) {
                f(s as usize);
            }
            map.values().for_each(|x| visit_ids(x, f));
        }
        Value::Array(items) => items.iter().for_each(|x| visit_ids(x, f)),
        _ => {}
    }
}

fn renumber_syntax_indices(v: &mut Value, renumber: &HashMap<usize, usize>) {
    match v {
        Value::Object(map) => {
            if map.contains_key("context_index")
                && let Some(s) = map.get_mut("syntax_index")
                && let Some(new) = s.as_u64().and_then(|old| renumber.get(&(old as usize)))
            {
                *s = Value::from(*new);
            }
            map.values_mut()
                .for_each(|x| renumber_syntax_indices(x, renumber));
        }
        Value::Array(items) => items
            .iter_mut()
            .for_each(|x| renumber_syntax_indices(x, renumber)),
        _ => {}
    }
}
