//! `srview check --suggest`, `srview fix` and `srview gate` on the same
//! misindented string edits of each agent with an old/new-text tool (pi,
//! Gemini CLI, OpenCode, Qwen Code): the three offer the same corrected
//! input, or refuse it with the same reason (testers' 43b-04 and 43a-08:
//! `check` and `fix` refused an edit 4 columns shallower than the file's
//! block, which the gate re-indented and offered).

use std::path::Path;

use serde_json::{Value, json};

mod support;

/// An agent with an old/new-text edit tool: the gate's `--agent`, the
/// matcher's `--dialect`, and how its tool input and hook payload read.
#[derive(Clone, Copy, Debug)]
enum Agent {
    Pi,
    GeminiCli,
    Opencode,
    QwenCode,
}

const AGENTS: [Agent; 4] = [
    Agent::Pi,
    Agent::GeminiCli,
    Agent::Opencode,
    Agent::QwenCode,
];

impl Agent {
    fn gate_name(self) -> &'static str {
        match self {
            Agent::Pi => "pi",
            Agent::GeminiCli => "gemini-cli",
            Agent::Opencode => "opencode",
            Agent::QwenCode => "qwen-code",
        }
    }

    fn dialect(self) -> &'static str {
        match self {
            Agent::Pi => "pi-edit",
            Agent::GeminiCli => "gemini-replace",
            Agent::Opencode => "opencode-edit",
            Agent::QwenCode => "qwen-edit",
        }
    }

    /// The tool input editing `name` in `root`, in the tool's own schema.
    fn input(self, root: &str, name: &str, old: &str, new: &str) -> Value {
        let abs = format!("{root}/{name}");
        match self {
            Agent::Pi => json!({"path": name, "edits": [{"oldText": old, "newText": new}]}),
            Agent::GeminiCli => json!({"file_path": abs, "instruction": "Change the total.",
                "old_string": old, "new_string": new}),
            Agent::Opencode => json!({"filePath": abs, "oldString": old, "newString": new}),
            Agent::QwenCode => json!({"file_path": abs, "old_string": old, "new_string": new}),
        }
    }

    /// The hook payload carrying `input`, as the agent's hook sends it.
    fn payload(self, root: &str, input: &Value) -> Value {
        match self {
            Agent::Pi | Agent::Opencode => json!({"tool": "edit", "args": input, "cwd": root,
                "sessionID": "ses_1", "callID": "call_1"}),
            Agent::GeminiCli => json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
                "cwd": root, "hook_event_name": "BeforeTool", "tool_name": "replace",
                "tool_input": input}),
            Agent::QwenCode => json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl",
                "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "edit",
                "tool_input": input}),
        }
    }
}

/// What a command answers about the edit: the corrected tool input it
/// offers, or the reason it gives for none.
#[derive(Debug, Clone, PartialEq)]
enum Answer {
    Offered(Value),
    Refused(String),
}

/// The reason after "no corrected edit: " (either case), its final full
/// stop left out, from the first line of `text` that says it.
fn refusal(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let at = line.to_lowercase().find("no corrected edit: ")?;
        let why = &line[at + "no corrected edit: ".len()..];
        Some(why.trim_end().trim_end_matches('.').to_string())
    })
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text:?}"))
}

/// `srview check FILE INPUT --dialect D --suggest`'s answer.
fn check_answer(dir: &Path, agent: Agent, name: &str) -> Answer {
    let out = support::runner::srview([
        "check",
        name,
        "input.json",
        "--dialect",
        agent.dialect(),
        "--suggest",
    ])
    .cwd(dir)
    .output();
    let stdout = support::runner::stdout(&out);
    let mut lines = stdout.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("corrected edit (the tool's input, placed exactly by ") {
            return Answer::Offered(parse(lines.next().expect("the input's line")));
        }
    }
    Answer::Refused(refusal(&stdout).unwrap_or_else(|| panic!("no answer: {stdout}")))
}

/// `srview fix FILE INPUT --dialect D`'s answer: the input on stdout (exit
/// 0), or the reason on stderr (exit 1, nothing on stdout).
fn fix_answer(dir: &Path, agent: Agent, name: &str) -> Answer {
    let out = support::runner::srview(["fix", name, "input.json", "--dialect", agent.dialect()])
        .cwd(dir)
        .output();
    let (stdout, stderr) = (
        support::runner::stdout(&out),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    );
    if out.status.code() == Some(0) {
        return Answer::Offered(parse(stdout.trim_end()));
    }
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert_eq!(stdout, "", "a refused fix prints nothing");
    Answer::Refused(refusal(&stderr).unwrap_or_else(|| panic!("no reason: {stderr}")))
}

/// `srview gate --agent A`'s answer: the rewritten input of a repair, the
/// input a deny says to send instead, or the deny's reason for none.
fn gate_answer(dir: &Path, agent: Agent, payload: &Value) -> Answer {
    let out = support::runner::srview(["gate", "--agent", agent.gate_name()])
        .cwd(dir)
        .stdin(payload.to_string().as_bytes())
        .output();
    let reply = parse(&support::runner::stdout(&out));
    let hook = &reply["hookSpecificOutput"];
    if reply["decision"] == "rewrite" {
        return Answer::Offered(reply["args"].clone());
    }
    if hook["tool_input"].is_object() {
        return Answer::Offered(hook["tool_input"].clone());
    }
    if hook["permissionDecision"] == "allow" && hook["updatedInput"].is_object() {
        return Answer::Offered(hook["updatedInput"].clone());
    }
    let reason = reply["reason"]
        .as_str()
        .or(hook["permissionDecisionReason"].as_str())
        .unwrap_or_else(|| panic!("no reason: {reply}"));
    let mut lines = reason.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("Send this edit input instead")
            || line.starts_with("Send this replace input instead")
        {
            return Answer::Offered(parse(lines.next().expect("the input's line")));
        }
    }
    Answer::Refused(refusal(reason).unwrap_or_else(|| panic!("no answer: {reason}")))
}

/// A folder holding `app.py` with `content` and the agent's input of the
/// edit `(old, new)` as `input.json`; each command's answer, asserted
/// equal, and the answer.
fn agreed_on(agent: Agent, content: &str, old: &str, new: &str) -> (tempfile::TempDir, Answer) {
    agreed_on_file(agent, ("app.py", content), old, new)
}

/// [`agreed_on`] for the file `name` holding `content`.
fn agreed_on_file(
    agent: Agent,
    (name, content): (&str, &str),
    old: &str,
    new: &str,
) -> (tempfile::TempDir, Answer) {
    let dir = tempfile::tempdir().expect("a folder");
    let root = dir.path().to_string_lossy().into_owned();
    support::files::write(dir.path(), name, content.as_bytes());
    let input = agent.input(&root, name, old, new);
    support::files::write(dir.path(), "input.json", input.to_string().as_bytes());
    let check = check_answer(dir.path(), agent, name);
    let fix = fix_answer(dir.path(), agent, name);
    let gate = gate_answer(dir.path(), agent, &agent.payload(&root, &input));
    assert_eq!(check, fix, "{agent:?}: check and fix");
    assert_eq!(fix, gate, "{agent:?}: fix and the gate");
    (dir, gate)
}

/// [`agreed_on`], asserting that the three offer the edit `fixed` (old
/// and new text) in the agent's input; the folder and that input.
fn offered_alike(
    agent: Agent,
    content: &str,
    (old, new): (&str, &str),
    fixed: (&str, &str),
) -> (tempfile::TempDir, Value) {
    offered_alike_in(agent, ("app.py", content), (old, new), fixed)
}

/// [`offered_alike`] for the file `name` holding `content`.
fn offered_alike_in(
    agent: Agent,
    (name, content): (&str, &str),
    (old, new): (&str, &str),
    fixed: (&str, &str),
) -> (tempfile::TempDir, Value) {
    let (dir, answer) = agreed_on_file(agent, (name, content), old, new);
    let root = dir.path().to_string_lossy().into_owned();
    let want = agent.input(&root, name, fixed.0, fixed.1);
    assert_eq!(answer, Answer::Offered(want.clone()), "{agent:?}: {old:?}");
    (dir, want)
}

const CART: &str = "class Cart:\n    def __init__(self):\n        self.items = []\n\n    def total(self):\n        s = 0\n        for item in self.items:\n            s += item.price\n        return s\n";

/// 43b-04, 43a-08: old and new text 4 columns shallower than the file's
/// block: the same re-indented edit from all three, for every agent, and
/// the agent's own matcher writes the meant result with it.
#[test]
fn an_edit_four_columns_shallow_gets_the_same_correction_from_check_fix_and_the_gate() {
    let old = "    s = 0\n    for item in self.items:\n        s += item.price\n";
    let new = "    s = 0\n    for item in self.items:\n        s += item.price * item.qty\n";
    let fixed_old = "        s = 0\n        for item in self.items:\n            s += item.price\n";
    let fixed_new =
        "        s = 0\n        for item in self.items:\n            s += item.price * item.qty\n";
    for agent in AGENTS {
        let (dir, input) = offered_alike(agent, CART, (old, new), (fixed_old, fixed_new));
        // The offered input, run by the agent's matcher, writes the meant
        // result.
        support::files::write(dir.path(), "fixed.json", input.to_string().as_bytes());
        let out = support::runner::srview([
            "apply",
            "app.py",
            "fixed.json",
            "--dialect",
            agent.dialect(),
            "--json",
        ])
        .cwd(dir.path())
        .output();
        let report = parse(&support::runner::stdout(&out));
        assert_eq!(report["ok"], true, "{agent:?}: {report}");
        assert_eq!(
            report["newContent"],
            CART.replace("s += item.price\n", "s += item.price * item.qty\n"),
            "{agent:?}"
        );
    }
}

/// A new line at column 0 beside an old text sent at column 0 where the
/// file's block is indented: whether it is meant at the top level cannot
/// be told; the three refuse it with the same reason.
#[test]
fn a_reindentation_that_cannot_be_told_is_refused_alike_by_all_three() {
    let old = "s = 0\nfor item in self.items:\n    s += item.price\n";
    let new = "s = 0\nfor item in self.items:\n    s += item.price\n\ndef main():\n    pass\n";
    for agent in AGENTS {
        let (_dir, answer) = agreed_on(agent, CART, old, new);
        assert_eq!(
            answer,
            Answer::Refused(
                "the old text starts at column 0 where the file's lines are indented by 8 \
                 columns, and its new line `def main():` at column 0 stands for none of them: \
                 whether the model means it at the file's top level or in their block cannot \
                 be told"
                    .to_string()
            ),
            "{agent:?}"
        );
    }
}

const DOC: &str = "class Shop:\n    def f(self):\n        \"\"\"Doc.\n\n        More text.\n        \"\"\"\n        return 1\n";

/// 43b-05: an old text ending on a docstring's first line (its other lines
/// below, untouched) is re-indented as one ending after the docstring is:
/// the white space before the opening quotes is code. Both offered alike
/// by all three.
#[test]
fn an_edit_ending_on_a_docstrings_first_line_is_reindented() {
    // The file's text of each: every line sent 4 columns deeper, the
    // docstring's blank line left blank.
    let deeper = |text: &str| -> String {
        text.split_inclusive('\n')
            .map(|l| {
                if l == "\n" {
                    l.to_string()
                } else {
                    format!("    {l}")
                }
            })
            .collect()
    };
    let head = "def f(self):\n    \"\"\"Doc.\n";
    let whole = "def f(self):\n    \"\"\"Doc.\n\n    More text.\n    \"\"\"\n";
    for old in [head, whole] {
        let new = old.replace("(self)", "(self, x=0)");
        let fixed = (deeper(old), deeper(&new));
        for agent in AGENTS {
            offered_alike(agent, DOC, (old, &new), (&fixed.0, &fixed.1));
        }
    }
}

/// Where the lines hold a string only in part and re-indenting would move
/// its content (lines added inside the docstring the old text ends in; an
/// old text ending on the quotes that close a docstring opened above it),
/// the three refuse alike, saying so (no longer "is no docstring"); an old
/// text starting inside a string opened above it names that opening line.
#[test]
fn a_string_the_lines_hold_in_part_is_refused_alike_saying_why() {
    let cases = [
        (
            "def f(self):\n    \"\"\"Doc.\n",
            "def f(self, x=0):\n    \"\"\"Doc.\n\n    x: more.\n",
            "its lines hold part of a string literal that runs over several lines \
             (`\"\"\"Doc.`): the white space its lines start with is the string's content, \
             which re-indenting would change",
        ),
        (
            "    More text.\n    \"\"\"\n",
            "    More text.\n    \"\"\"\n    x = 1\n",
            "file line 5 lies inside a string literal that runs over several lines from file \
             line 3 (`\"\"\"Doc.`), above the old text: the white space its lines start with \
             is the string's content, which re-indenting would change",
        ),
    ];
    for (old, new, why) in cases {
        for agent in AGENTS {
            let (_dir, answer) = agreed_on(agent, DOC, old, new);
            assert_eq!(
                answer,
                Answer::Refused(why.to_string()),
                "{agent:?}: {old:?}"
            );
        }
    }
}

/// `fix` runs the trust checks on its own correction before printing it,
/// as the gate does: a correction the agent's matcher places exactly but
/// that leaves Python misindented (the model's new line at column 3) is
/// printed by none of the three, each saying why alike.
#[test]
fn a_correction_the_trust_checks_doubt_is_offered_by_none() {
    let content = "def f():\n    total = 0\n    return total\n";
    for agent in AGENTS {
        let (_dir, answer) = agreed_on(
            agent,
            content,
            "    total = 0 \n",
            "    total = 0\n   extra = 1\n",
        );
        assert_eq!(
            answer,
            Answer::Refused(
                "the corrected edit is in doubt: as written, line 3 (`extra = 1`) is at column \
                 3, which matches no enclosing block's indentation (columns 0, 4 there): Python \
                 refuses the file (IndentationError: unindent does not match any outer \
                 indentation level): send the new lines at the indentation of the block they \
                 belong to"
                    .to_string()
            ),
            "{agent:?}"
        );
    }
}

/// A line holding only a form feed (`\x0c`), as CPython's stdlib files have
/// between sections, is a blank line to Python (python3 compiles the
/// result): an exact edit beside one is no indentation fault for `check`,
/// and the gate lets it through (a tester's find: "unexpected indent").
#[test]
fn a_form_feed_line_is_blank_to_check_and_the_gate() {
    let content =
        "def walk(self):\n    yield self\n    if self.parts:\n        yield from self.parts\n";
    let (old, new) = (
        "    yield self\n",
        "    yield self\n\n\x0c\n    self.seen = True\n",
    );
    let dir = tempfile::tempdir().expect("a folder");
    let root = dir.path().to_string_lossy().into_owned();
    support::files::write(dir.path(), "walk.py", content.as_bytes());
    let edit = json!({"file_path": "walk.py", "old_string": old, "new_string": new});
    support::files::write(dir.path(), "edit.json", edit.to_string().as_bytes());
    let out = support::runner::srview(["check", "walk.py", "edit.json"])
        .cwd(dir.path())
        .output();
    assert_eq!(
        support::runner::stdout(&out),
        "walk.py: block #1 (Edit): applies, stage exact, 1 occurrence\n"
    );
    assert_eq!(out.status.code(), Some(0));
    let payload = json!({"session_id": "s1", "transcript_path": "/tmp/t.jsonl", "cwd": root,
        "hook_event_name": "PreToolUse", "tool_name": "Edit", "tool_input": edit});
    let out = support::runner::srview(["gate", "--agent", "claude-code"])
        .cwd(dir.path())
        .stdin(payload.to_string().as_bytes())
        .output();
    assert_eq!(
        (out.status.code(), support::runner::stdout(&out)),
        (Some(0), String::new()),
        "allowed: nothing on stdout"
    );
}

/// A file in each language's string form running over lines: the line
/// `    app run` is the string's content, opened on the line above it, and
/// the one line holding `= 1` is code after the string. Each language's
/// reading checked with its real tool where this machine has one (rustc,
/// g++, gcc, node, python3, bash, perl: the content lines print with their
/// leading spaces); Lua, Ruby, PHP, C#, Java and Go by their manuals.
const STRING_FILES: [(&str, &str); 19] = [
    (
        "h.rs",
        "fn help() -> String {\n    let text = \"usage:\n    app run\n    app stop\";\n    let count = 1;\n    text.repeat(count)\n}\n",
    ),
    (
        "r.rs",
        "fn help() -> String {\n    let text = r#\"usage:\n    app run\n    app \"stop\"\"#;\n    let count = 1;\n    text.repeat(count)\n}\n",
    ),
    (
        "h.cpp",
        "const char *help() {\n    const char *text = R\"(usage:\n    app run\n    app stop)\";\n    int count = 1;\n    return text + count;\n}\n",
    ),
    (
        "c.c",
        "const char *help(void) {\n    const char *text = \"usage: \\\n    app run \\\n    app stop\";\n    int count = 1;\n    return text + count;\n}\n",
    ),
    (
        "H.cs",
        "class H {\n    string text = @\"usage:\n    app run\n    app stop\";\n    int count = 1;\n    int total = 0;\n}\n",
    ),
    (
        "H.java",
        "class H {\n    String text = \"\"\"\n    app run\n    app stop\"\"\";\n    int count = 1;\n    int total = 0;\n}\n",
    ),
    (
        "h.js",
        "function help() {\n    const text = `usage:\n    app run\n    app stop`;\n    const count = 1;\n    return text.repeat(count);\n}\n",
    ),
    (
        "h.go",
        "func help() string {\n    text := `usage:\n    app run\n    app stop`\n    count := 1\n    return text + fmt.Sprint(count)\n}\n",
    ),
    (
        "h.py",
        "def help():\n    text = \"\"\"usage:\n    app run\n    app stop\"\"\"\n    count = 1\n    return text * count\n",
    ),
    (
        "h.lua",
        "function help()\n    local text = [[usage:\n    app run\n    app stop]]\n    local count = 1\n    return text .. count\nend\n",
    ),
    (
        "h.sh",
        "help() {\n    cat <<EOF\n    app run\n    app stop\nEOF\n    count=1\n    echo \"$count\"\n}\n",
    ),
    (
        "q.sh",
        "help() {\n    echo \"usage:\n    app run\n    app stop\"\n    count=1\n    echo \"$count\"\n}\n",
    ),
    (
        "h.rb",
        "def help\n    text = <<-EOS\n    app run\n    app stop\n    EOS\n    count = 1\n    text * count\nend\n",
    ),
    (
        "h.php",
        "<?php function help() {\n    $text = <<<EOT\n    app run\n    app stop\n    EOT;\n    $count = 1;\n    return $text;\n}\n",
    ),
    (
        "h.pl",
        "sub help {\n    my $text = <<\"EOT\";\n    app run\n    app stop\nEOT\n    my $count = 1;\n    return $text x $count;\n}\n",
    ),
    (
        "p.rb",
        "def help\n    text = %Q{usage {x}:\n    app run\n    app stop}\n    count = 1\n    text * count\nend\n",
    ),
    (
        "q.pl",
        "sub help {\n    my $text = qq{usage {x}:\n    app run\n    app stop};\n    my $count = 1;\n    return $text x $count;\n}\n",
    ),
    (
        "ci.yml",
        "help:\n  run: |\n    app run\n    app stop\n  env: A=1\n  name: help\n",
    ),
    (
        "H.kt",
        "fun help(): String {\n    val text = \"\"\"usage:\n    app run\n    app stop\"\"\"\n    val count = 1\n    return text.repeat(count)\n}\n",
    ),
];

/// Two columns off: each line of `text` with two spaces less.
fn two_short(text: &str) -> String {
    text.lines()
        .map(|line| format!("{}\n", line.strip_prefix("  ").unwrap_or(line)))
        .collect()
}

/// A tester's find (round 44, T-01, its sequel): an edit of only the middle
/// lines of a string running over lines, sent two columns short, was
/// re-indented by the gate, `check` and `fix` (the string's text changed)
/// in every language but Python's, whose new lines were re-indented too.
/// Now each refuses alike, naming the line that opened the string; an
/// edit of the code after the string is corrected as before.
#[test]
fn a_strings_middle_lines_are_never_reindented_in_any_language() {
    for (name, content) in STRING_FILES {
        let lines: Vec<&str> = content.lines().collect();
        let middle = lines.iter().position(|l| l.starts_with("    app run"));
        let middle = middle.expect("a middle line");
        // Two lines each (one line sent short is a substring of the file's
        // line: exact, placed inside its indentation).
        let pair = |at: usize| format!("{}\n{}\n", lines[at], lines[at + 1]);
        let old = pair(middle);
        let new = format!("{}\n    app status\n{}\n", lines[middle], lines[middle + 1]);
        let why = format!(
            "file line {} lies inside a string literal that runs over several lines from file \
             line {} (`{}`), above the old text: the white space its lines start with is the \
             string's content, which re-indenting would change",
            middle + 1,
            middle,
            lines[middle - 1].trim()
        );
        let code = lines
            .iter()
            .position(|l| l.contains("= 1") || l.contains("=1"));
        let code = pair(code.expect("a code line"));
        let changed = code.replacen('1', "2", 1);
        for agent in AGENTS {
            let (_dir, answer) =
                agreed_on_file(agent, (name, content), &two_short(&old), &two_short(&new));
            assert_eq!(answer, Answer::Refused(why.clone()), "{agent:?}: {name}");
            offered_alike_in(
                agent,
                (name, content),
                (&two_short(&code), &two_short(&changed)),
                (&code, &changed),
            );
        }
    }
}
