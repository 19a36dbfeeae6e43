//! Tester 47 T-02 (an interpolation left open in a one-line string) and
//! T-05/T-06 (Terraform/HCL, CMake, Nix and SQL brackets), each read as
//! the check reads it. The faults were confirmed by the real tools where
//! this machine has them (terraform fmt, sqlite3; see the findings file).

use super::{BraceFault, Lang, brace_fault, brace_language, bracket_language};

/// The doubt `before` edited (`old` to `new`, once) gets, in words.
fn doubt(path: &str, before: &str, old: &str, new: &str) -> Option<String> {
    assert!(before.contains(old), "{path}: {old:?}");
    match brace_fault(path, before, &before.replacen(old, new, 1))? {
        BraceFault::Unclosed(u) => Some(u.describe()),
        BraceFault::OpenAtEnd(o) => Some(o.describe()),
        BraceFault::Unbalanced(u) => Some(u.describe()),
    }
}

/// The doubt `before` edited gets, in words; fails where none.
fn said(path: &str, before: &str, old: &str, new: &str) -> String {
    doubt(path, before, old, new).unwrap_or_else(|| panic!("{path}: no doubt for {new:?}"))
}

/// Asserts that no text of `added`, each put right after `at` in
/// `before`, gets a doubt.
fn no_doubt_adding(path: &str, before: &str, at: &str, added: &[&str]) {
    for text in added {
        let after = before.replacen(at, &format!("{at}{text}"), 1);
        assert_eq!(
            doubt(path, before, before, &after),
            None,
            "{path}: {text:?}"
        );
    }
}

const KOTLIN: &str = "package demo\ndata class User(val name: String, val age: Int)\nfun greet(u: User): String {\n    return \"Hi ${u.name}, you are ${u.age}\"\n}\nfun main() { println(greet(User(\"a\", 3))) }\n";
const TERRAFORM: &str = "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \"my-bucket\"\n  tags = {\n    Name = \"b\"\n  }\n}\n\nvariable \"region\" {\n  default = \"us-east-1\"\n}\n";
const CMAKE: &str = "cmake_minimum_required(VERSION 3.16)\nproject(demo C)\nadd_executable(app\n  main.c\n  util.c\n)\ntarget_link_libraries(app m)\n";
const NIX: &str = "{ pkgs ? import <nixpkgs> {} }:\npkgs.mkShell {\n  buildInputs = with pkgs; [\n    python3\n    git\n  ];\n  shellHook = ''\n    echo \"ready\"\n  '';\n}\n";
const SQL: &str = "CREATE TABLE users (\n  id INTEGER PRIMARY KEY,\n  name TEXT NOT NULL\n);\n\nCREATE INDEX users_name ON users (name);\n";

#[test]
fn an_interpolation_the_edit_leaves_open_in_a_one_line_string_is_doubted() {
    assert_eq!(
        said("Main.kt", KOTLIN, "${u.age}\"", "${u.age\""),
        "line 4 opens a `${` in a string and does not close it with its `}` (`return \"Hi \
             ${u.name}, you are ${u.age\"`): the string's closing `\"` is read inside the `${` \
             and opens a string left open at the line's end, and a `\"` string ends at its line \
             in Kotlin (the file before has no such line): close the `${` with its `}` before \
             the string's closing `\"`"
    );
    assert!(
        said("Main.kt", KOTLIN, "${u.name}", "${u.name")
            .starts_with("line 4 opens a `${` in a string")
    );
    let cases = [
        (
            "Svc.cs",
            "public class Svc\n{\n    public string Name { get; set; } = \"\";\n    public string Greet() => $\"Hi {Name}\";\n}\n",
            "{Name}\"",
            "{Name\"",
            "`{`",
        ),
        (
            "S.scala",
            "object S {\n  def greet(n: String): String = s\"Hi ${n}!\"\n}\n",
            "${n}!",
            "${n!",
            "`${`",
        ),
        (
            "g.dart",
            "String greet(String n) {\n  return \"Hi ${n}!\";\n}\n",
            "${n}!",
            "${n!",
            "`${`",
        ),
        (
            "g.swift",
            "func greet(_ n: String) -> String {\n    return \"Hi \\(n)!\"\n}\n",
            "\\(n)!",
            "\\(n!",
            "`\\(`",
        ),
    ];
    for (path, before, old, new, mark) in cases {
        let said = doubt(path, before, old, new);
        assert!(
            said.as_deref()
                .is_some_and(|d| d.contains(&format!("opens a {mark} in a string"))),
            "{path}: {said:?}"
        );
    }
}

/// An interpolation over lines that closes (C# 11's holes over lines,
/// Kotlin's `${` then a line break) is still not judged: no doubt.
#[test]
fn an_interpolation_over_lines_that_closes_is_no_doubt() {
    let cs = "public class Svc\n{\n    public string Greet() => $\"Hi {Name}\";\n}\n";
    assert_eq!(
        doubt(
            "Svc.cs",
            cs,
            "$\"Hi {Name}\";",
            "$\"Hi {\n        Name\n    }\";"
        ),
        None
    );
    assert_eq!(
        doubt(
            "Main.kt",
            KOTLIN,
            "${u.age}\"",
            "${\n        u.age\n    }\""
        ),
        None
    );
}

#[test]
fn terraform_a_dropped_brace_or_a_quote_left_open_is_doubted() {
    assert_eq!(
        said(
            "main.tf",
            TERRAFORM,
            "    Name = \"b\"\n  }\n",
            "    Name = \"b\"\n"
        ),
        "as written, the file has one `}` fewer than `{` (srview counts them outside \
             strings and comments; the file before has as many of each): the edit's old text \
             closes a block its new text does not close (line 5 `}`): send the new text with \
             its closing `}`"
    );
    assert_eq!(
        said("main.tf", TERRAFORM, "\"my-bucket\"", "\"my-bucket"),
        "line 2 opens a string it does not close (`bucket = \"my-bucket`): a `\"` string \
             ends at its line in Terraform (the file before has no such line): close it with \
             its `\"`, or escape the quote (`\\\"`) if it is text"
    );
    assert!(doubt("a.hcl", TERRAFORM, "  tags = {\n", "  tags = \n").is_some());
}

#[test]
fn terraform_comments_strings_and_heredocs_hold_no_brackets() {
    no_doubt_adding(
        "main.tf",
        TERRAFORM,
        "  bucket = \"my-bucket\"\n",
        &[
            "  # a } in a comment\n",
            "  // a ( in a comment\n",
            "  /* a [\n  over lines */\n",
            "  note = \"a { in ${var.region} and $${literal}\"\n",
            "  policy = <<EOF\n{\n  \"a\": [\nEOF\n",
            "  policy = <<-JSON\n    { \"b\": \"${var.region}\" \n    JSON\n",
        ],
    );
    // The heredoc's word ends it: a `}` dropped after it is seen.
    let heredoc = TERRAFORM.replace(
        "  bucket = \"my-bucket\"\n",
        "  bucket = \"my-bucket\"\n  policy = <<EOF\n{ [\nEOF\n",
    );
    assert!(doubt("main.tf", &heredoc, "  }\n}\n", "  }\n").is_some());
}

#[test]
fn cmake_a_dropped_paren_is_doubted_its_text_forms_are_not_counted() {
    assert_eq!(
        said("CMakeLists.txt", CMAKE, "  util.c\n)\n", "  util.c\n"),
        "as written, the file has one `)` fewer than `(` (srview counts them outside \
             strings and comments; the file before has as many of each): the edit's old text \
             closes a block its new text does not close (line 6 `)`): send the new text with \
             its closing `)`"
    );
    no_doubt_adding(
        "cmake/deps.cmake",
        CMAKE,
        "util.c\n)\n",
        &[
            "# a ( in a comment\n",
            "#[[ a ( in a\nbracket comment ]]\n",
            "message([=[ a ( and ]] in ]=])\n",
            "message(\"a ( over\nlines\")\n",
            "set(V ${A}{ [x\\( )\n",
            "set(URL https://example.com/a//b)\n",
        ],
    );
}

#[test]
fn nix_a_dropped_bracket_or_indented_string_end_is_doubted() {
    assert!(
        said("default.nix", NIX, "  ];\n", "  ;\n")
            .starts_with("as written, the file has one `]` fewer than `[`")
    );
    assert_eq!(
        said("default.nix", NIX, "  '';\n", "  ';\n"),
        "from line 7 (`shellHook = ''`) a string runs to the file's end and nothing \
             closes it: Nix refuses the file, and reads the code after as text (the file \
             before ends in code): close the string with its quote"
    );
    no_doubt_adding(
        "default.nix",
        NIX,
        "  ];\n",
        &[
            "  # a { in a comment\n",
            "  /* a [ */\n",
            "  s = \"a ( ${pkgs.lib.version} over\n  lines\";\n",
            "  t = ''\n    a ''${not} '''( ''\\n ${pkgs.hello}\n  '';\n",
            "  u = a // { b = 1; };\n",
            "  f' = x: x;\n",
        ],
    );
}

#[test]
fn sql_a_dropped_paren_is_doubted_its_strings_and_comments_are_not_counted() {
    assert!(
        said(
            "schema.sql",
            SQL,
            "  name TEXT NOT NULL\n);",
            "  name TEXT NOT NULL\n;"
        )
        .starts_with("as written, the file has one `)` fewer than `(`")
    );
    no_doubt_adding(
        "schema.sql",
        SQL,
        "users (name);\n",
        &[
            "-- a ( in a comment\n",
            "/* a ( over\nlines */\n",
            "INSERT INTO users (name) VALUES ('it''s (');\n",
            // MySQL's escape, not read: no judgment.
            "INSERT INTO users (name) VALUES ('it\\'s (');\n",
            "INSERT INTO users (name) VALUES ('a ( over\nlines');\n",
            "SELECT \"odd (\"\"name\" FROM users;\n",
            "CREATE FUNCTION f() RETURNS int AS $$ SELECT ( $$ LANGUAGE sql;\n",
            "CREATE FUNCTION g() RETURNS int AS $body$ ( $$ ) $body$ LANGUAGE sql;\n",
            "SELECT E'\\'(' , $1;\n",
        ],
    );
}

#[test]
fn the_bracket_languages_beside_the_brace_languages() {
    for (path, lang) in [
        ("main.tf", Lang::Hcl),
        ("prod.tfvars", Lang::Hcl),
        ("a.hcl", Lang::Hcl),
        ("src/CMakeLists.txt", Lang::Cmake),
        ("cmake/Find.cmake", Lang::Cmake),
        ("default.nix", Lang::Nix),
        ("schema.sql", Lang::Sql),
    ] {
        assert_eq!(bracket_language(path), Some(lang), "{path}");
        // Other readers of brace languages (strings over lines, comments
        // under a jump) do not read these.
        assert_eq!(brace_language(path), None, "{path}");
    }
    assert_eq!(bracket_language("a.rs"), Some(Lang::Rust));
    assert_eq!(bracket_language("notes.txt"), None);
}
