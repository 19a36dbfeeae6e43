//! The committed syntax pack is what `examples/syntax_pack.rs` makes from
//! two-face's grammars, and it detects and colours as the whole set does.

use std::path::Path;

use srview::engine::Version;
use srview::tui::app::App;
use srview::tui::view::Caches;
use srview::tui::view::highlight::Syntaxes;
use srview::tui::view::syntax_pack::Pack;
use syntect::easy::HighlightLines;
use syntect::highlighting::{Style, Theme};
use syntect::parsing::{SyntaxReference, SyntaxSet};

// The generator compiles in its own copy of the pack's format module
// (`src/tui/view/syntax_pack.rs`), as the example binary needs it.
#[allow(dead_code, clippy::duplicate_mod)]
#[path = "../../examples/syntax_pack.rs"]
mod generator;

const PACK: &[u8] = include_bytes!("../../assets/syntax-pack.bin");

#[test]
fn committed_pack_is_the_generators_output() {
    let fresh = generator::build_pack().expect("pack builds");
    assert!(
        fresh == PACK,
        "assets/syntax-pack.bin is stale: run `cargo run --release --example syntax_pack`"
    );
}

#[test]
fn every_entry_loads_its_own_syntax() {
    let pack = Pack::decode(PACK).expect("decodes");
    let catalogue = pack.catalogue().expect("catalogue");
    assert_eq!(pack.len(), catalogue.len());
    for i in 0..catalogue.len() {
        let (set, index) = pack.grammar(i).expect("grammar loads");
        assert_eq!(Some(set.syntaxes()[index].name.as_str()), catalogue.name(i));
        // Starting a parse resolves the main context: a broken renumbering
        // of context references shows up here or in the colours below.
        let mut state = syntect::parsing::ParseState::new(&set.syntaxes()[index]);
        state
            .parse_line("x = 1 // \"s\" <a> # {\n", &set)
            .expect("parses");
    }
}

/// Files on disk, and what the previewer detects for each against what
/// syntect's `find_syntax_for_file` (whole name, extension, then the first
/// line as `read_line` gives it) finds in the whole set.
#[test]
fn detection_matches_the_whole_set() {
    let full = two_face::syntax::extra_newlines();
    let syn = std::sync::Arc::new(Syntaxes::load());
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("dir")).expect("mkdir");
    let mut files: Vec<(String, &str)> = full
        .syntaxes()
        .iter()
        .flat_map(|s| &s.file_extensions)
        .filter(|ext| !ext.contains('/') && !ext.is_empty())
        .flat_map(|ext| [format!("file.{ext}"), ext.clone(), format!("dir/{ext}")])
        .map(|p| (p, ""))
        .collect();
    assert!(files.len() > 900, "only {} paths", files.len());
    files
        .extend(["Makefile", "Dockerfile", "main.RS", "x.unknownext"].map(|p| (p.to_string(), "")));
    for (i, first) in [
        "<?xml\n<a/>\n",
        "<?xml",
        "FROM\n",
        "arg\nx",
        "#!/usr/bin/env python3\nprint()\n",
        "#!/bin/bash\n",
        "\u{feff}#!/bin/sh\n",
        "<?php\n",
        "plain words\n",
        "",
    ]
    .into_iter()
    .enumerate()
    {
        files.push((format!("noext{i}"), first));
    }
    for (name, content) in &files {
        let path = dir.path().join(name);
        std::fs::write(&path, content).expect("write");
        let want = full
            .find_syntax_for_file(&path)
            .expect("readable")
            .map_or("plain text", |s| s.name.as_str());
        let want = if want == "Plain Text" {
            "plain text"
        } else {
            want
        };
        let app = App::new(path.clone(), content.to_string(), Version::V1);
        let caches = Caches::new(std::sync::Arc::clone(&syn), &app);
        assert_eq!(
            syn.name(caches.original.syntax()),
            want,
            "{name} {content:?}"
        );
    }
    assert_eq!(syn.name(syn.detect(Path::new("Makefile"), "")), "Makefile");
}

#[test]
fn every_first_line_pattern_compiles() {
    // syntect's lazy regexes panic on first use if a pattern does not compile.
    for s in two_face::syntax::extra_newlines().syntaxes() {
        if let Some(p) = &s.first_line_match {
            assert!(
                syntect::parsing::Regex::try_compile(p).is_none(),
                "{}: {p}",
                s.name
            );
        }
    }
}

const SAMPLES: &[(&str, &str)] = &[
    (
        "rs",
        "/// Doc\nfn main() {\n    let s = \"a {x}\";\n    println!(\"{s}\"); // c\n}\n",
    ),
    (
        "ts",
        "import { a } from './a';\nconst x: number = 1;\nfunction f<T>(t: T): T { return t; }\n`t ${x}`;\n",
    ),
    (
        "tsx",
        "export const A = () => <div className=\"x\">{1 + 2}</div>;\n",
    ),
    (
        "md",
        "# Title\n\nSome *text*.\n\n```rust\nfn f() {}\n```\n\n```python\ndef g(): pass\n```\n\n<b>html</b>\n",
    ),
    (
        "html",
        "<html><head><style>a { color: red; }</style>\n<script>let x = /re/g; x++;</script></head>\n<body class=\"c\">&amp;</body></html>\n",
    ),
    (
        "py",
        "import re\ndef f(x):\n    return re.compile(r\"a+\") # c\nq = \"SELECT * FROM t\"\n",
    ),
    ("sh", "#!/bin/bash\nfor f in *; do echo \"$f\"; done\n"),
    ("toml", "[package]\nname = \"x\"\nversion = \"1\"\n"),
    (
        "php",
        "<?php echo \"hi\"; $x = [1, 2]; ?>\n<div><?= $x ?></div>\n",
    ),
];

fn colours(set: &SyntaxSet, syntax: &SyntaxReference, theme: &Theme, text: &str) -> Vec<Style> {
    let mut h = HighlightLines::new(syntax, theme);
    text.split_inclusive('\n')
        .flat_map(|line| {
            h.highlight_line(line, set)
                .expect("highlights")
                .into_iter()
                .map(|(style, _)| style)
        })
        .collect()
}

#[test]
fn colours_match_the_whole_set() {
    let full = two_face::syntax::extra_newlines();
    let pack = Pack::decode(PACK).expect("decodes");
    let catalogue = pack.catalogue().expect("catalogue");
    let theme = pack.theme().expect("theme");
    for (ext, text) in SAMPLES {
        let whole = full.find_syntax_by_extension(ext).expect("in the set");
        let i = (0..catalogue.len())
            .find(|&i| catalogue.name(i) == Some(whole.name.as_str()))
            .expect("in the catalogue");
        let (set, index) = pack.grammar(i).expect("loads");
        let want = colours(&full, whole, &theme, text);
        let got = colours(&set, &set.syntaxes()[index], &theme, text);
        assert!(want.len() > 3, ".{ext} sample has colours");
        assert_eq!(got, want, ".{ext}");
    }
}
