//! An edit's edges and stand-ins, through the real binary (`srview check`
//! and `srview gate --agent claude-code`): a tester's finds of round 44,
//! where an edit damaging the file was called fine.
//! - 44-02: an old text starting inside a word joined by `-` (YAML, CSS,
//!   Lisp) or opened by `$` (JavaScript);
//! - 44-07: an old text ending inside a number or a version;
//! - 44-03: an old text starting with a line end its new text drops;
//! - 44-14: a stand-in comment beside a line the model changed;
//! - 44-05: stand-ins written as Jinja or Handlebars comments.
//!
//! Each beside the ordinary edits that must stay allowed, and the tester's
//! find of round 45 (T-04): an edge inside a word the edit leaves as it was
//! is no cut.

mod support;

use std::path::Path;

use serde_json::{Value, json};

/// `srview check FILE e.json` in `dir` over the Claude Code tool input
/// `input`: its exit code and stdout.
fn check(dir: &Path, file: &str, input: &Value) -> (i32, String) {
    support::files::write(dir, "e.json", input.to_string().as_bytes());
    let out = support::runner::srview(["check", file, "e.json"])
        .cwd(dir)
        .output();
    (support::runner::code(&out), support::runner::stdout(&out))
}

/// `srview gate --agent claude-code` in `dir` over a PreToolUse payload of
/// `tool` with `input`: the deny reason, or `None` for an allow (no
/// output, exit 0).
fn gate(dir: &Path, tool: &str, input: &Value) -> Option<String> {
    let payload = json!({
        "session_id": "s",
        "cwd": dir.display().to_string(),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": input,
        "tool_use_id": "t1",
    });
    let out = support::runner::srview(["gate", "--agent", "claude-code"])
        .cwd(dir)
        .stdin(payload.to_string().as_bytes())
        .output();
    assert_eq!(support::runner::code(&out), 0);
    support::runner::claude_code_deny_reason(&support::runner::stdout(&out))
}

/// An `Edit` of `name` (holding `content`) from `old` to `new`: `check`
/// says `doubt` (its whole output) and the gate denies it saying the same.
/// `doubt` `None`: both let it pass (check exits 0 and says no doubt, the
/// gate answers nothing).
fn assert_edit(name: &str, content: &str, old: &str, new: &str, doubt: Option<&str>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), name, content.as_bytes());
    let file = file.to_str().expect("UTF-8");
    let input = json!({"file_path": file, "old_string": old, "new_string": new});
    let (code, said) = check(dir.path(), name, &input);
    let denied = gate(dir.path(), "Edit", &input);
    match doubt {
        Some(doubt) => {
            assert_eq!(code, 1, "{name}: {said}");
            assert_eq!(
                said,
                format!(
                    "{name}: block #1 (Edit): applies, stage exact, 1 occurrence\n    ! {doubt}\n"
                )
            );
            let denied = denied.unwrap_or_else(|| panic!("{name}: allowed"));
            support::text::assert_contains(
                &denied,
                &format!("but srview cannot stand behind its result: {doubt}.\n"),
            );
        }
        None => {
            assert_eq!(
                (code, said.as_str()),
                (
                    0,
                    format!("{name}: block #1 (Edit): applies, stage exact, 1 occurrence\n")
                        .as_str()
                ),
                "{name}"
            );
            assert_eq!(denied, None, "{name}");
        }
    }
}

/// A tester's find (44-02): the YAML key `host-name`, the CSS class
/// `btn-primary`, the Lisp name `user-name` and JavaScript's `$count`
/// are one word each, in their languages; an old text starting after
/// their `-` or `$` renames part of them. In Python and JavaScript `-` is
/// an operator: `total-1` is two words there.
#[test]
fn an_old_text_starting_inside_a_word_joined_by_its_language_is_doubted() {
    let cut = |old: &str, word: &str, line: &str| {
        format!(
            "the edit's old text {old} starts inside the word `{word}` of line 2 (`{line}`): it \
             changes part of a word it does not show"
        )
    };
    let yaml = "server:\n  host-name: api.local\n  port: 8080\n";
    assert_edit(
        "c.yaml",
        yaml,
        "name: api.local",
        "hostname: api.example.com",
        Some(&cut(
            "`name: api.local`",
            "host-name",
            "host-name: api.local",
        )),
    );
    let css = ".card {}\n.btn-primary {\n  color: red;\n}\n";
    assert_edit(
        "s.css",
        css,
        "primary {\n  color: red;",
        ".primary {\n  color: blue;",
        Some(&cut(
            "(its first line `primary {`)",
            "btn-primary",
            ".btn-primary {",
        )),
    );
    let lisp = ";; users\n(defun user-name () \"bob\")\n";
    assert_edit(
        "l.el",
        lisp,
        "name () \"bob\")",
        "login () \"bob\")",
        Some(&cut(
            "`name () \"bob\")`",
            "user-name",
            "(defun user-name () \"bob\")",
        )),
    );
    let js = "// counter\nlet $count = 0;\nfunction inc() {\n  $count += 1;\n}\n";
    assert_edit(
        "j.js",
        js,
        "count = 0;",
        "total = 0;",
        Some(&cut("`count = 0;`", "$count", "let $count = 0;")),
    );
    // Whole words: allowed.
    assert_edit(
        "c.yaml",
        yaml,
        "  host-name: api.local",
        "  hostname: api.local",
        None,
    );
    assert_edit("j.js", js, "let $count = 0;", "let $count = 1;", None);
    // `-` is an operator in Python and JavaScript: no word is cut.
    let py = "def f(total):\n    return total-1\n";
    assert_edit("f.py", py, "1\n", "2\n", None);
    assert_edit("f.js", "let n = 2;\nlet m = n-1;\n", "1;", "2;", None);
}

/// A tester's find (44-07): `TIMEOUT = 1` of `TIMEOUT = 1.5` wrote
/// `TIMEOUT = 2.5`, `django==4.2` of `django==4.2.11` wrote `5.0.11`.
#[test]
fn an_old_text_ending_inside_a_number_or_version_is_doubted() {
    for (name, content, old, new, noun, whole, line) in [
        (
            "u.py",
            "PORT = 8080\nTIMEOUT = 1.5\n",
            "TIMEOUT = 1",
            "TIMEOUT = 2",
            "number",
            "1.5",
            2,
        ),
        (
            "requirements.txt",
            "django==4.2.11\nrequests==2.31.0\n",
            "django==4.2",
            "django==5.0",
            "version",
            "4.2.11",
            1,
        ),
        (
            "Cargo.toml",
            "[dependencies]\nserde = \"1.0.195\"\n",
            "serde = \"1.0",
            "serde = \"1.1",
            "version",
            "1.0.195",
            2,
        ),
    ] {
        let doubt = format!(
            "the edit's old text `{old}` ends inside the {noun} `{whole}` of line {line} \
             (`{}`): it changes part of a {noun} it does not show",
            content.lines().nth(line - 1).unwrap_or_default()
        );
        assert_edit(name, content, old, new, Some(&doubt));
    }
    // The whole number, a sentence's full stop, a range: allowed.
    assert_edit(
        "u.py",
        "TIMEOUT = 1.5\n",
        "TIMEOUT = 1.5",
        "TIMEOUT = 2",
        None,
    );
    assert_edit("n.md", "See step 1.\n", "step 1", "step 2", None);
    assert_edit(
        "r.rs",
        "fn f() {\n    for i in 0..10 {}\n}\n",
        "0..",
        "1..",
        None,
    );
}

/// A tester's find (45 T-04): an old text starting or ending inside a word
/// whose new text keeps the part of it the old text shows, at that edge,
/// leaves the word as it was (`$count = 1;`, `host-name: y`,
/// `const my_count`): allowed. A shell's `$` is a sigil (`"$APP_VERSION"`
/// renames the reference); a style sheet's number ends at its unit
/// (`0.3s`, `12px`). The same edges changing the shown part: doubted.
#[test]
fn an_edge_inside_a_word_the_edit_leaves_as_it_was_is_no_cut() {
    let php = "<?php\n$count = 0;\nfunction inc() {\n    global $count;\n    $count++;\n}\n";
    let yaml = "a:\n  host-name: x\n";
    let js = "let my_count = 0;\nlet $total = 0;\n";
    let sh = "#!/bin/sh\nVERSION=1.4.2\nlog \"deploying $VERSION to prod\"\n";
    let css = ".btn {\n  transition: opacity 0.5s ease-in;\n  padding: 10px 1.5em;\n}\n";
    let py = "PORT = 8080\nTIMEOUT = 1.5\n";
    let files = [
        ("c.php", php),
        ("w.yaml", yaml),
        ("w.js", js),
        ("d.sh", sh),
        ("s.css", css),
        ("s.scss", css),
        ("u.py", py),
    ];
    // Each: the file, the old text, the new text, and where the old
    // text's edge falls when doubted (nothing when allowed).
    for case in [
        "c.php|count = 0;|count = 1;|",
        "w.yaml|name: x|name: y|",
        "w.js|count = 0;|count = 1;|",
        "w.js|let my_|const my_|",
        "d.sh|VERSION to prod\"|APP_VERSION to prod\"|",
        "s.css|opacity 0.5|opacity 0.3|",
        "s.css|padding: 10|padding: 12|",
        "s.scss|padding: 10px 1.5|padding: 10px 2.5|",
        "c.php|count = 0;|total = 0;|starts inside the word `$count`@2",
        "w.yaml|name: x|hostname: x|starts inside the word `host-name`@2",
        "w.js|count = 0;|counter = 0;|starts inside the word `my_count`@1",
        "w.js|let my_|const your_|ends inside the word `my_count`@1",
        "u.py|TIMEOUT = 1|TIMEOUT = 2|ends inside the number `1.5`@2",
        "s.scss|padding: 10px 1|padding: 10px 2|ends inside the number `1.5`@3",
        "s.css|opacity 0.5s e|opacity 0.3s l|ends inside the word `ease-in`@2",
    ] {
        let parts: Vec<&str> = case.split('|').collect();
        let [name, old, new, place] = parts[..] else {
            panic!("four parts: {case}")
        };
        let (_, content) = files.iter().find(|(n, _)| *n == name).expect("a file");
        let noun = place.split(' ').nth(3).unwrap_or_default();
        // `…inside the word `w`@N`: the sentence names the old text and
        // line N's text.
        let (what, line) = place.split_once('@').unwrap_or_default();
        let number: usize = line.parse().unwrap_or_default();
        let text = content
            .lines()
            .nth(number.saturating_sub(1))
            .unwrap_or_default();
        let doubt = format!(
            "the edit's old text `{old}` {what} of line {number} (`{}`): it changes part of a \
             {noun} it does not show",
            text.trim()
        );
        assert_edit(
            name,
            content,
            old,
            new,
            (!place.is_empty()).then_some(doubt.as_str()),
        );
    }
}

/// A tester's find (44-03): an old text starting with a line end whose
/// new text does not joined the line above onto the new text (`    a = 1
/// b = 3`, `set -emake test`); the mirror of the trailing case.
#[test]
fn an_old_text_starting_with_a_line_end_its_new_text_drops_is_doubted() {
    assert_edit(
        "f.py",
        "def f():\n    a = 1\n    b = 2\n    return a + b\n",
        "\n    b = 2",
        "    b = 3",
        Some(
            "its old text starts with a line end and its new text does not, so the new text's \
             first line is joined onto line 2 (`    a = 1`), which then reads `    a = 1    b = \
             3`: start the new text with a newline, as its old text starts",
        ),
    );
    assert_edit(
        "b.sh",
        "#!/bin/sh\nset -e\nmake build\n",
        "\nmake build",
        "make test",
        Some(
            "its old text starts with a line end and its new text does not, so the new text's \
             first line is joined onto line 2 (`set -e`), which then reads `set -emake test`: \
             start the new text with a newline, as its old text starts",
        ),
    );
    // Kept line ends, a line above that runs on (`,`), a method chain's
    // `.`: allowed.
    let py = "def f():\n    a = 1\n    b = 2\n    return a + b\n";
    assert_edit("f.py", py, "\n    b = 2", "\n    b = 3", None);
    let call = "x = f(1,\n      2)\n";
    assert_edit("c.py", call, "\n      2)", " 3)", None);
    let js = "const r = items\n  .map(f)\n  .sum();\n";
    assert_edit("c.js", js, "\n  .map(f)", ".map(g)", None);
}

/// The doubt of an edit whose new text's line `line`, `comment`, stands
/// in for the `lost` non-blank lines it deletes.
fn stand_in(line: usize, comment: &str, lost: usize) -> String {
    format!(
        "its new text stands in for lines it leaves out (its line {line}: `{comment}`), so it \
         deletes {lost} non-blank lines of the text it replaces: send every line the edit keeps, \
         or edit only the lines that change"
    )
}

const HANDLER: &str = "export function handle(req, res) {\n  const user = auth(req);\n  if (!user) {\n    res.status(401).end();\n    return;\n  }\n  const data = load(user.id);\n  audit(user, \"load\");\n  res.json(data);\n}\n";

/// A tester's find (44-14): a stand-in comment followed by a line the
/// model changed (`load(user.id)` sent as `load(user.id, req.query)`)
/// dropped the auth check under `// (same as before)` or `/* snip */`.
/// A comment beside a rewrite of the lines it stands above is no
/// stand-in.
#[test]
fn a_stand_in_beside_a_changed_line_is_doubted() {
    let old = "  const user = auth(req);\n  if (!user) {\n    res.status(401).end();\n    return;\n  }\n  const data = load(user.id);\n  audit(user, \"load\");\n  res.json(data);\n";
    for comment in [
        "// (same as before)",
        "/* snip */",
        "// etc.",
        "// existing logic",
    ] {
        let new = format!(
            "  {comment}\n  const data = load(user.id, req.query);\n  audit(user, \"load\");\n  res.json(data);\n"
        );
        let doubt = stand_in(1, comment, 6);
        assert_edit("svc.js", HANDLER, old, &new, Some(&doubt));
    }
    // A comment explaining the rewritten line below it: allowed.
    let rewrite = "  // load with the query's filters\n  const data = load(user.id, req.query);\n";
    assert_edit(
        "svc.js",
        HANDLER,
        "  const data = load(user.id);\n",
        rewrite,
        None,
    );
    let old_sum = "  const a = f(x);\n  const b = f(y);\n  const c = f(z);\n  return a + b + c;\n";
    let new_sum =
        "  // one call for all three\n  const [a, b, c] = fAll([x, y, z]);\n  return a + b + c;\n";
    let sums = format!("function g(x, y, z) {{\n{old_sum}}}\n");
    assert_edit("g.js", &sums, old_sum, new_sum, None);
}

const TEMPLATE: &str = "{% extends \"base.html\" %}\n{% block content %}\n<h1>{{ title }}</h1>\n<ul>\n{% for item in items %}\n  <li>{{ item.name }}</li>\n{% endfor %}\n</ul>\n<p>Total: {{ total }}</p>\n<footer>{{ year }}</footer>\n{% endblock %}\n";

/// A tester's find (44-05): Jinja's `{# ... #}` and Handlebars'
/// `{{!-- ... --}}` stand-ins were not read; the template's list, total
/// and footer went. A Write and an Edit; Svelte's `{#each}` is no comment.
#[test]
fn template_comments_that_stand_in_are_doubted() {
    let old = "<h1>{{ title }}</h1>\n<ul>\n{% for item in items %}\n  <li>{{ item.name }}</li>\n{% endfor %}\n</ul>\n<p>Total: {{ total }}</p>\n";
    for (name, comment) in [
        ("p.html", "{# ... list and total unchanged ... #}"),
        ("p.hbs", "{{!-- ... list and total unchanged ... --}}"),
        ("p.hbs", "{{! ... list and total unchanged ... }}"),
    ] {
        let new = format!("<h1>{{{{ title | upper }}}}</h1>\n{comment}\n");
        let doubt = stand_in(2, comment, 7);
        assert_edit(name, TEMPLATE, old, &new, Some(&doubt));
    }
    // A Write of the whole template with the stand-in: denied.
    let dir = tempfile::tempdir().expect("temp dir");
    let file = support::files::write(dir.path(), "page.html", TEMPLATE.as_bytes());
    let content = "{% extends \"base.html\" %}\n{% block content %}\n<h1>{{ title | upper }}</h1>\n{# ... rest of the template unchanged ... #}\n{% endblock %}\n";
    let write = json!({"file_path": file.to_str().expect("UTF-8"), "content": content});
    let denied = gate(dir.path(), "Write", &write).expect("denied");
    support::text::assert_contains(
        &denied,
        "its content stands in for lines it leaves out (line 4: `{# ... rest of the template \
         unchanged ... #}`)",
    );
    // A Jinja comment beside an edit of one line, a Svelte block: allowed.
    assert_edit(
        "p.html",
        TEMPLATE,
        "<h1>{{ title }}</h1>\n",
        "{# the page's title #}\n<h1>{{ title | upper }}</h1>\n",
        None,
    );
    let svelte = "<ul>\n  <li>a</li>\n  <li>b</li>\n  <li>c</li>\n</ul>\n";
    assert_edit(
        "L.svelte",
        svelte,
        "  <li>a</li>\n  <li>b</li>\n  <li>c</li>\n",
        "  {#each items as item}\n    <li>{item}</li>\n  {/each}\n",
        None,
    );
}

/// The sentence of a new text whose last line ends in `\` where its old
/// text's did not, joining the file's line `number` (`next`) onto it.
fn continued(number: usize, next: &str, joined: &str) -> String {
    continued_by('\\', number, next, joined)
}

/// [`continued`] in a file whose lines are joined by `joiner`.
fn continued_by(joiner: char, number: usize, next: &str, joined: &str) -> String {
    format!(
        "its new text's last line ends in `{joiner}`, where its old text's did not, so line \
         {number} (`{next}`), which the edit does not show, is joined onto it: the file reads \
         them as one line, `{joined}`: drop the `{joiner}`, or send the line it should continue \
         with in the new text"
    )
}

/// A tester's find (round 45, T-01 and its addendum): a new text ending
/// a line in `\` where its old text did not joins the next line, which the
/// edit does not show, onto it, in every language that reads a `\` at a
/// line's end so: a Dockerfile (`COPY . /app` becomes apt's packages), a
/// shell script (`else` becomes the push command's argument, the branch
/// gone, `bash -n` silent), a Makefile, a C macro, Python. Not when the
/// edit shows the next line, the old line ended in `\` already, the `\` is
/// escaped (`\\`), the next line is indented deeper (a continuation the
/// file left hanging), or the file's language reads no continuation
/// (Markdown's `\` is a hard line break).
#[test]
fn a_backslash_left_at_a_line_end_joins_the_next_line() {
    let docker = "FROM python:3.12-slim\nRUN apt-get update && \\\n    apt-get install -y curl\nCOPY . /app\nWORKDIR /app\n";
    let curl = "    apt-get install -y curl\n";
    let said = continued(
        4,
        "COPY . /app",
        "    apt-get install -y curl git COPY . /app",
    );
    assert_edit(
        "Dockerfile",
        docker,
        curl,
        "    apt-get install -y curl git \\\n",
        Some(&said),
    );
    let deploy = "#!/usr/bin/env bash\nif [[ \"$T\" == prod ]]; then\n  ./bin/push --env prod\nelse\n  ./bin/push --env \"$T\"\nfi\n";
    let said = continued(4, "else", "  ./bin/push --env prod else");
    let push = "  ./bin/push --env prod\n";
    assert_edit(
        "deploy.sh",
        deploy,
        push,
        "  ./bin/push --env prod \\\n",
        Some(&said),
    );
    let make = "SRCS = main.c\nOBJS = $(SRCS:.c=.o)\n\napp: $(OBJS)\n\tcc -o app $(OBJS)\n";
    let said = continued(
        2,
        "OBJS = $(SRCS:.c=.o)",
        "SRCS = main.c util.c OBJS = $(SRCS:.c=.o)",
    );
    let srcs = "SRCS = main.c util.c \\\n";
    assert_edit("Makefile", make, "SRCS = main.c\n", srcs, Some(&said));
    let c = "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint limit = 3;\n";
    let said = continued(
        2,
        "int limit = 3;",
        "#define MAX(a, b) ((a) > (b) ? (a) : (b)) int limit = 3;",
    );
    let max = "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n";
    assert_edit(
        "m.h",
        c,
        max,
        "#define MAX(a, b) ((a) > (b) ? (a) : (b)) \\\n",
        Some(&said),
    );
    let py = "total = 1 + 2\nprint(total)\n";
    let said = continued(2, "print(total)", "total = 1 + 2 + print(total)");
    assert_edit(
        "t.py",
        py,
        "total = 1 + 2\n",
        "total = 1 + 2 + \\\n",
        Some(&said),
    );
    // A Dockerfile whose escape character is a backquote (`# escape=\``,
    // the Docker reference's example; round 46 T-05): `c:\` joins nothing.
    let windows = "# escape=`\n\nFROM mcr.microsoft.com/windows/nanoserver\nCOPY testfile.txt c:\\\nRUN dir c:\\\n";
    let from = "FROM mcr.microsoft.com/windows/nanoserver\n";
    assert_edit(
        "Dockerfile",
        windows,
        from,
        &format!("{from}WORKDIR c:\\\n"),
        None,
    );
    // There a backquote ending a line joins the next one (the Docker
    // reference's `RUN dir c:\ `` over two lines): an added one is said.
    let said = continued_by(
        '`',
        4,
        "COPY testfile.txt c:\\",
        "FROM mcr.microsoft.com/windows/nanoserver COPY testfile.txt c:\\",
    );
    assert_edit(
        "Dockerfile",
        windows,
        from,
        "FROM mcr.microsoft.com/windows/nanoserver `\n",
        Some(&said),
    );
    // The edit shows the next line; the old line ended in `\` already; an
    // escaped `\`; Markdown: allowed.
    let shown = "    apt-get install -y curl git \\\nCOPY . /app\n";
    assert_edit(
        "Dockerfile",
        docker,
        &format!("{curl}COPY . /app\n"),
        shown,
        None,
    );
    let update = "RUN apt-get update && \\\n";
    assert_edit(
        "Dockerfile",
        docker,
        update,
        "RUN apt-get update -q && \\\n",
        None,
    );
    assert_edit(
        "deploy.sh",
        deploy,
        push,
        "  ./bin/push --env prod \\\\\n",
        None,
    );
    // A next line indented deeper: the continuation reads as meant (a
    // line the file left hanging); allowed.
    let hanging = "FROM debian\nRUN apt-get install -y curl\n    git\n";
    let run = "RUN apt-get install -y curl\n";
    assert_edit(
        "Dockerfile",
        hanging,
        run,
        "RUN apt-get install -y curl \\\n",
        None,
    );
    let md = "Line one\nLine two\n";
    assert_edit("n.md", md, "Line one\n", "Line one\\\n", None);
}

fn split_off(number: usize, next: &str, last: &str) -> String {
    format!(
        "its old text's last line ends in `\\`, which continues it onto line {number} (`{next}`), \
         and its new text's last line (`{last}`) does not, so line {number}, which the edit does \
         not show, then stands alone: no longer part of the line above, it reads as a line of \
         its own: keep the `\\`, or send line {number} in the new text as it should read"
    )
}

/// A tester's find (round 47, T-01), the mirror of the join above: an old
/// text whose last line ends in `\` continues it onto the file's next
/// line; a new text dropping that `\` leaves the next line, which the edit
/// does not show, standing alone: a Dockerfile's `apt-get install` an
/// instruction of its own (buildkit: "unknown instruction"), a shell
/// command's `-e CI=1` a command (run: `-e: command not found`), a C
/// macro's body file-level code (gcc: "expected identifier"). Not when
/// both keep it, the edit shows the next line, or the `\` stood in a
/// Python comment.
#[test]
fn a_backslash_dropped_from_a_line_end_splits_off_the_next_line() {
    let docker = "FROM python:3.12-slim\nWORKDIR /app\nRUN apt-get update && \\\n    apt-get install -y curl && \\\n    rm -rf /var/lib/apt/lists/*\nCOPY . .\n";
    let deploy = "#!/usr/bin/env bash\nset -euo pipefail\n\ndocker run --rm \\\n  -v \"$PWD:/src\" \\\n  -e CI=1 \\\n  builder:latest make all\necho \"built\"\n";
    let c = "#define CHECK(x) \\\n    do { \\\n        if (!(x)) { abort(); } \\\n    } while (0)\nint main(void) { CHECK(1); return 0; }\n";
    // (file, its text, old, new; the line split off: its number, its text,
    // the new text's last line)
    let splits = [
        (
            ("Dockerfile", docker),
            ("RUN apt-get update && \\\n", "RUN apt-get update\n"),
            (4, "apt-get install -y curl && \\", "RUN apt-get update"),
        ),
        (
            ("deploy.sh", deploy),
            ("  -v \"$PWD:/src\" \\\n", "  -v \"$PWD:/src\"\n"),
            (6, "-e CI=1 \\", "-v \"$PWD:/src\""),
        ),
        (
            ("c.c", c),
            ("#define CHECK(x) \\\n", "#define CHECK(x)\n"),
            (2, "do { \\", "#define CHECK(x)"),
        ),
    ];
    for ((name, content), (old, new), (number, next, last)) in splits {
        let said = split_off(number, next, last);
        assert_edit(name, content, old, new, Some(&said));
    }
    // Allowed: the `\` kept (changed text before it); the edit shows the
    // next line too; a Python comment's `\` joins nothing.
    assert_edit(
        "Dockerfile",
        docker,
        "RUN apt-get update && \\\n",
        "RUN apt-get update -q && \\\n",
        None,
    );
    assert_edit(
        "Dockerfile",
        docker,
        "RUN apt-get update && \\\n    apt-get install -y curl && \\\n",
        "RUN apt-get update\nRUN apt-get install -y curl && \\\n",
        None,
    );
    let py = "x = 1  # C:\\\ny = 2\n";
    assert_edit("p.py", py, "x = 1  # C:\\\n", "x = 1  # D:\n", None);
}

/// A tester's find (round 46, T-15): a number literal's type suffix is no
/// part of the number to change (`10u32` -> `20u32` keeps a u32, `10n` a
/// BigInt): an old text ending before the suffix was doubted as cutting a
/// word. Allowed now by check and the gate; a digit group cut (`1_0` of
/// `1_000`) is still a cut.
#[test]
fn a_numbers_type_suffix_is_no_part_of_its_value() {
    let rust = "fn main() {\n    let x = 10u32;\n    let y = 2.5f64;\n}\n";
    let js = "const big = 10n;\nconst ms = 1_000;\nexport { big, ms };\n";
    let c = "long x = 10L;\nfloat f = 1.5f;\nunsigned long u = 10UL;\n";
    for (name, content, old, new) in [
        ("num.rs", rust, "let x = 10", "let x = 20"),
        ("num.rs", rust, "let y = 2.5", "let y = 3.5"),
        ("num.js", js, "const big = 10", "const big = 20"),
        ("num.c", c, "long x = 10", "long x = 20"),
        ("num.c", c, "float f = 1.5", "float f = 2.5"),
        ("num.c", c, "unsigned long u = 10", "unsigned long u = 20"),
    ] {
        assert_edit(name, content, old, new, None);
    }
    assert_edit(
        "num.js",
        js,
        "const ms = 1_0",
        "const ms = 5_0",
        Some(
            "the edit's old text `const ms = 1_0` ends inside the word `1_000` of line 2 (`const \
             ms = 1_000;`): it changes part of a word it does not show",
        ),
    );
}
