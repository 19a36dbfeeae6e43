//! Unit tests of [`super`]: Rust format strings' braces.

use super::{Brace, fault_of, format_brace};
use crate::diagnose::doubt::test_edits::check_edit;

const MAIN: &str = "use std::fmt::Write as _;\n\nfn main() {\n    let x = 1;\n    let mut s = String::new();\n    println!(\"{x} and {{}}\");\n    write!(s, \"{:>4}\", x).unwrap();\n    assert_eq!(x, 1, \"x was {}\", x);\n}\n";

/// The tester's find (47, T-02): `println!("{x")` and a lone `}` were
/// allowed; rustc refuses both. Doubted, naming the line and the string.
#[test]
fn a_format_strings_brace_left_open_or_lone_is_doubted() {
    let open = MAIN.replace("println!(\"{x} and {{}}\");", "println!(\"{x and {{}}\");");
    let found = format_brace("src/main.rs", MAIN, &open).expect("doubted");
    assert_eq!(
        found.describe(),
        "as written, the format string of `println!` on line 6 (`\"{x and {{}}\"`) leaves a \
         `{` open (rustc refuses it: invalid format string: expected `}`); the file before had \
         no such string: close the placeholder with `}`, or write `{{` for a brace"
    );
    let found = check_edit(
        format_brace,
        "src/main.rs",
        MAIN,
        "\"{:>4}\"",
        "\"{:>4} }\"",
    )
    .expect("doubted");
    assert_eq!(
        (found.name.as_str(), found.line, found.brace),
        ("write", 7, Brace::Lone)
    );
    let found = check_edit(
        format_brace,
        "src/main.rs",
        MAIN,
        "\"x was {}\"",
        "\"x was {\"",
    )
    .expect("doubted");
    assert_eq!(
        (found.name.as_str(), found.brace),
        ("assert_eq", Brace::Open)
    );
    // A raw string and a format over lines.
    assert!(
        check_edit(
            format_brace,
            "a.rs",
            MAIN,
            "println!(\"{x} and {{}}\");",
            "println!(r#\"{x} \"{\"#);"
        )
        .is_some()
    );
}

/// Escapes, fills and text are read as rustc reads them: no doubt.
#[test]
fn braces_rustc_accepts_are_not_doubted() {
    for value in [
        "{{}}",
        "{x:?}",
        "{:}>5}",
        "{:{<5}",
        "{0:.1$}",
        "{{{x}}}",
        "}}{{",
        "{}",
        "no braces",
    ] {
        assert_eq!(fault_of(value), None, "{value}");
    }
    for (value, brace) in [
        ("{x", Brace::Open),
        ("{a{}", Brace::Open),
        ("a } b", Brace::Lone),
        ("{}}", Brace::Lone),
        ("{:?<5", Brace::Open),
    ] {
        assert_eq!(fault_of(value), Some(brace), "{value}");
    }
    for line in [
        // Not format strings: a string argument, a comment, a byte string,
        // a char, another macro.
        "    println!(\"{}\", \"{\");",
        "    // println!(\"{\");",
        "    let b = b\"{\"; let c = '{'; let d = vec![\"}\"];",
        "    /* format!(\"}\") */ let e = concat!(\"{\");",
        // Rust 2018 reads a lone `panic!` format as text: not judged.
        "    panic!(\"{\");",
        "    assert!(x == 1, \"{\");",
        // An escape writing a brace: not read.
        "    println!(\"\\u{7b}{}\", x);",
        // `\\u{..}` is an escape, not a placeholder.
        "    println!(\"\\u{1F600} {}\", x);",
        "    writeln!(s).unwrap();",
    ] {
        assert_eq!(
            check_edit(
                format_brace,
                "a.rs",
                MAIN,
                "    let x = 1;\n",
                &format!("    let x = 1;\n{line}\n")
            ),
            None,
            "{line}"
        );
    }
}

/// A file whose format strings had a fault before is not judged; nor is
/// a fault on a line the edit did not change, nor another file.
#[test]
fn only_the_edits_own_fault_in_a_rust_file_is_doubted() {
    let bad = MAIN.replace("{x} and", "{x and");
    assert_eq!(
        check_edit(format_brace, "a.rs", &bad, "\"{:>4}\"", "\"{:>4\""),
        None
    );
    let open = MAIN.replace("{x} and", "{x and");
    assert_eq!(format_brace("a.txt", MAIN, &open), None);
    assert_eq!(format_brace("a.py", MAIN, &open), None);
}
