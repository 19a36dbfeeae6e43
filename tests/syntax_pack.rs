//! The committed syntax pack is what `examples/syntax_pack.rs` makes from
//! two-face's grammars, and it detects and colours as the whole set does.

use std::path::Path;

use srview::view::highlight::Syntaxes;
use srview::view::syntax_pack::Pack;
use syntect::easy::HighlightLines;
use syntect::highlighting::{Style, Theme};
use syntect::parsing::{SyntaxReference, SyntaxSet};

#[allow(dead_code)]
#[path = "../examples/syntax_pack.rs"]
mod generator;

const PACK: &[u8] = include_bytes!("../assets/syntax-pack.bin");

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

/// What the previewer did with the whole set, and what syntect's
/// `find_syntax_for_file` does: whole file name, extension, first line.
fn whole_set_detects<'a>(full: &'a SyntaxSet, path: &str, first: &str) -> &'a str {
    let p = Path::new(path);
    fn name(s: Option<&std::ffi::OsStr>) -> &str {
        s.and_then(|n| n.to_str()).unwrap_or("")
    }
    full.find_syntax_by_extension(name(p.file_name()))
        .or_else(|| full.find_syntax_by_extension(name(p.extension())))
        .or_else(|| full.find_syntax_by_first_line(first))
        .map(|s| s.name.as_str())
        .filter(|n| *n != "Plain Text")
        .unwrap_or("plain text")
}

#[test]
fn detection_matches_the_whole_set() {
    let full = two_face::syntax::extra_newlines();
    let syn = Syntaxes::load();
    let mut paths: Vec<String> = full
        .syntaxes()
        .iter()
        .flat_map(|s| &s.file_extensions)
        .flat_map(|ext| [format!("file.{ext}"), ext.clone(), format!("dir/{ext}")])
        .collect();
    paths.extend(
        [
            "Makefile",
            "Dockerfile",
            "src/main.RS",
            "x.unknownext",
            "noext",
        ]
        .map(String::from),
    );
    assert!(paths.len() > 900, "only {} paths", paths.len());
    for path in &paths {
        let got = syn.detect(Path::new(path), "");
        assert_eq!(syn.name(got), whole_set_detects(&full, path, ""), "{path}");
    }
    for first in [
        "#!/usr/bin/env python3",
        "#!/bin/bash",
        "#!/usr/bin/env node",
        "<?xml version=\"1.0\"?>",
        "<?php",
        "\u{feff}#!/bin/sh",
        "plain words",
        "",
    ] {
        let got = syn.detect(Path::new("noext"), first);
        assert_eq!(
            syn.name(got),
            whole_set_detects(&full, "noext", first),
            "{first:?}"
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
