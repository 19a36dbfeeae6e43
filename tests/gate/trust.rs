//! Corrections srview must not offer (a fresh tester's finds): a quote
//! repair that straightens the model's own curly quotes in a line it adds,
//! a re-indentation that changes the code's nesting or a multi-line
//! string's content, a re-indented edit that picks one of two places, and
//! sentences of the diagnosis that were not true.

use super::*;

/// Every agent with an old/new string edit tool (Codex: the same edit as a
/// patch), each in its own payload shape: the gate's `OLD_NEW_AGENTS`, then
/// Cline CLI.
fn agents() -> impl Iterator<Item = GateAgent> {
    OLD_NEW_AGENTS.into_iter().chain([GateAgent::ClineCli])
}

/// `agent`'s payload replacing `old` with `new` in inventory.py (Codex: a
/// one-hunk patch of the same lines, both texts whole lines).
fn payload_for(agent: GateAgent, old: &str, new: &str) -> Vec<u8> {
    payload_of(agent, "inventory.py", old, new)
}

/// `agent`'s payload replacing `old` with `new` in the file `name` of the
/// project, in `payload_for`'s shapes.
fn payload_of(agent: GateAgent, name: &str, old: &str, new: &str) -> Vec<u8> {
    match agent {
        GateAgent::Codex => {
            let body: String = old
                .lines()
                .map(|line| format!("-{line}\n"))
                .chain(new.lines().map(|line| format!("+{line}\n")))
                .collect();
            let text = format!("*** Begin Patch\n*** Update File: {name}\n@@\n{body}*** End Patch");
            edit_payload(agent, json!({ "command": text }))
        }
        GateAgent::Opencode => own_payload(
            "edit",
            json!({"filePath": name, "oldString": old, "newString": new}),
        ),
        GateAgent::Pi => own_payload(
            "edit",
            json!({"path": name, "edits": [{"oldText": old, "newText": new}]}),
        ),
        GateAgent::ClineCli => {
            let payload = super::real_cli::clines_edit(old, new);
            // The recording edits inventory.py: every mention of it names
            // `name` instead.
            String::from_utf8(payload)
                .expect("UTF-8")
                .replace("inventory.py", name)
                .into_bytes()
        }
        _ => {
            let mut input = string_edit(agent, old, new);
            input["file_path"] = format!("{CWD}/{name}").into();
            edit_payload(agent, input)
        }
    }
}

/// `agent`'s edit `(old, new)` of the file `name` holding `content`, judged
/// with the default policy: asserts its case is `case`, naming the agent,
/// the new text and the answer where it is not.
fn judged_as(
    case: Case,
    agent: GateAgent,
    (name, content): (&str, &str),
    old: &str,
    new: &str,
) -> Judgment {
    let judgment = judged_under(&Policy::default(), agent, (name, content), old, new);
    assert_eq!(
        judgment.case, case,
        "{agent:?} {new:?}: {:?}",
        judgment.answer
    );
    judgment
}

/// The deny reason of `agent`'s edit `(old, new)` of `file`, which must be
/// judged a doubt.
fn doubt_reason(agent: GateAgent, file: &str, old: &str, new: &str) -> String {
    doubt_reason_in(agent, ("inventory.py", file), old, new)
}

/// The deny reason of `agent`'s edit `(old, new)` of the file `(name,
/// content)`, which must be judged a doubt.
fn doubt_reason_in(agent: GateAgent, file: (&str, &str), old: &str, new: &str) -> String {
    deny_reason(&judged_as(Case::Doubt, agent, file, old, new))
}

/// For each case (old text, new text, what the deny says) and every
/// agent: the edit of `file` is in doubt, and its deny says that.
fn assert_doubts_say(file: (&str, &str), cases: &[(&str, &str, String)]) {
    for (old, new, said) in cases {
        for agent in agents() {
            let reason = deny_reason(&judged_as(Case::Doubt, agent, file, old, new));
            assert!(reason.contains(said.as_str()), "{agent:?}: {reason}");
        }
    }
}

/// Asserts that each edit `(old, new)` of `file` is judged exact, for
/// every agent.
fn assert_exact_for_every_agent(file: (&str, &str), edits: &[(&str, &str)]) {
    for agent in agents() {
        for (old, new) in edits {
            judged_as(Case::Exact, agent, file, old, new);
        }
    }
}

/// Asserts that `judgment` neither rewrites the edit nor offers a
/// corrected one, and that its deny says `why`.
fn assert_withheld(judgment: &Judgment, why: &str) {
    let agent = judgment.agent;
    assert!(
        !matches!(judgment.answer, Answer::Rewrite { .. }),
        "{agent:?}: {:?}",
        judgment.answer
    );
    let reason = deny_reason(judgment);
    assert_eq!(offered_input(agent, &reason), None, "{agent:?}: {reason}");
    assert!(reason.contains(why), "{agent:?}: {reason}");
}

/// The corrected input of a rewrite (or, for Qwen Code, which cannot
/// rewrite, of its deny), checked to apply exactly with `agent`'s matcher.
fn corrected_input(judgment: &Judgment, content: &str) -> Value {
    let input = match judgment.agent {
        GateAgent::QwenCode => {
            offered_input(judgment.agent, &deny_reason(judgment)).expect("an offered edit")
        }
        _ => rewritten_input(judgment),
    };
    assert_exact_with_agents_matcher(judgment.agent, &input, content);
    input
}

/// The model writes curly quotes where the file has straight ones, and
/// adds a line with quotes of its own, straight delimiters around curly
/// prose: straightening them all breaks the string (`'You're ...'`), so no
/// correction is offered, said why: its own curly quotes, or the string
/// the straightened line leaves open (Python refuses it: the trust checks
/// of the corrected edit speak first where they run first). Without curly
/// quotes of its own in the added line, the quote repair still goes on
/// (its straightened old line).
#[test]
fn a_quote_repair_never_straightens_the_models_own_curly_quotes() {
    let file = "def banner():\n    title = 'Welcome'\n    return title\n";
    let old = "    title = \u{2018}Welcome\u{2019}\n";
    let own = "    title = \u{2018}Welcome\u{2019}\n    subtitle = 'You\u{2019}re in the \u{201C}beta\u{201D} programme'\n";
    let plain = "    title = \u{2018}Welcome\u{2019}\n    subtitle = 'beta'\n";
    let policy = Policy::parse("failing=repair").expect("a policy");
    for agent in agents() {
        let judgment = judge_on(agent, &payload_for(agent, old, own), file, &policy);
        assert_withheld(&judgment, "");
        let reason = deny_reason(&judgment);
        let own_quotes = "its new line `subtitle = 'You\u{2019}re in the \u{201C}beta\u{201D} \
                          programme'` holds curly quotes of its own: srview cannot tell which of \
                          them it means as straight quotes";
        // The straightened `'` leaves a string open; where the repair
        // keeps the curly quotes after it (Codex's unicode level
        // matched only the one line), CPython's tokenizer stops
        // at the first of those, left in code, before that string.
        let left_open = reason.contains("Python refuses the file: line 3 (`subtitle = 'You're")
            && (reason.contains("opens a string it does not close")
                || reason.contains(
                    "has the typographic quote `\u{201C}` (U+201C) outside any string or \
                     comment (SyntaxError: invalid character '\u{201C}' (U+201C))",
                ));
        assert!(
            reason.contains(own_quotes) || left_open,
            "{agent:?}: {reason}"
        );
    }
    // The added line holds no curly quote: the quote repair is offered
    // (where the agent's own matcher does not place the edit exactly).
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::Codex,
        GateAgent::GeminiCli,
        GateAgent::Pi,
    ] {
        let judgment = judge_on(agent, &payload_for(agent, old, plain), file, &policy);
        let input = corrected_input(&judgment, file);
        let sent = input.to_string();
        assert!(
            sent.contains("title = 'Welcome'") && sent.contains("subtitle = 'beta'"),
            "{agent:?}: {sent}"
        );
    }
}

/// The model sends a method unindented (reading it as top level) and adds
/// a top-level `def main():` after it: re-indented by the file's four
/// columns, `main` would become a method without `self`. Its old text at
/// column 0 where the file's is indented, and a new line at column 0 that
/// stands for none of its old lines: no correction, said why. Its lines
/// changed in place are still re-indented (a recorded Gemini CLI call,
/// `every_recorded_call_of_the_agents_with_fuzzy_matchers_is_judged`).
#[test]
fn a_reindentation_never_moves_new_code_into_another_block() {
    let file = "class Service:\n    def run(self, items):\n        for it in items:\n            \
                if it.ok:\n                self.handle(it)\n        return len(items)\n\n    \
                def handle(self, it):\n        pass\n";
    let old = "def handle(self, it):\n    pass\n";
    let new = "def handle(self, it):\n    pass\n\n\ndef main():\n    Service().run([])\n";
    assert_withheld_from_every_agent(
        file,
        old,
        new,
        "No corrected edit: the old text starts at column 0 where the file's lines are \
         indented by 4 columns, and its new line `def main():` at column 0 stands for none of \
         them: whether the model means it at the file's top level or in their block cannot be \
         told.",
    );
}

/// Every agent's edit replacing `old` with `new` in `file`, judged with
/// `failing=repair`: no correction offered, `why` said (Cline's editor gets
/// srview's exact-string diagnosis only: "No corrected edit").
fn assert_withheld_from_every_agent(file: &str, old: &str, new: &str, why: &str) {
    assert_withheld_in("inventory.py", file, old, new, why);
}

/// [`assert_withheld_from_every_agent`] for the file `name`.
fn assert_withheld_in(name: &str, file: &str, old: &str, new: &str, why: &str) {
    let policy = Policy::parse("failing=repair").expect("a policy");
    for agent in agents() {
        let files = || MemoryFs::new([(name.to_string(), file.to_string())]);
        let judgment = judge(
            agent,
            &payload_of(agent, name, old, new),
            |_| files(),
            &policy,
        );
        let why = match agent {
            GateAgent::ClineCli => "No corrected edit",
            _ => why,
        };
        assert_withheld(&judgment, why);
    }
}

/// A re-indentation that would move the content lines of a triple-quoted
/// string that is no docstring (what the program prints) is withheld, said
/// why.
#[test]
fn a_reindentation_never_touches_a_multi_line_string() {
    let file = "class Cli:\n    def help(self):\n        return \"usage\"\n";
    let old = "  def help(self):\n    return \"usage\"\n";
    let new = "  def help(self):\n    return \"\"\"\\\nUsage:\n  cli run FILE\n\"\"\"\n";
    assert_withheld_from_every_agent(
        file,
        old,
        new,
        "No corrected edit: its lines hold a string literal that runs over several lines \
         (`return \"\"\"\\`) and is no docstring: the white space its lines start with is \
         the string's content, which re-indenting would change.",
    );
    let policy = Policy::parse("failing=repair").expect("a policy");
    // Without the string, the same edit is re-indented (checked with the
    // agent's own matcher).
    let new = "  def help(self):\n    return \"usage: cli run FILE\"\n";
    for agent in [GateAgent::GeminiCli, GateAgent::Opencode, GateAgent::Pi] {
        let judgment = judge_on(agent, &payload_for(agent, old, new), file, &policy);
        let input = corrected_input(&judgment, file);
        assert!(
            input
                .to_string()
                .contains("        return \\\"usage: cli run FILE\\\""),
            "{agent:?}: {input}"
        );
    }
}

/// A tester's find (round 44, T-01): the content lines of a string running
/// over lines in other languages than Python's (a Rust `"..."`, C++'s
/// `R"(...)"`, C#'s `@"..."`, Lua's `[[...]]`, a Ruby or shell heredoc)
/// were re-indented with the code, the string's text changed. Withheld
/// from every agent, the opening line named.
#[test]
fn a_reindentation_never_touches_another_languages_multi_line_string() {
    let cases = [
        ("help.rs", "    let text = \"usage:", "    app run\";"),
        ("help.cpp", "    return R\"(usage:", "    app run)\";"),
        ("Help.cs", "    var text = @\"usage:", "    app run\";"),
        ("help.lua", "    local text = [[usage:", "    app run]]"),
        ("help.rb", "    text = <<-EOS", "    app run\n    EOS"),
        // bash closes a `<<` heredoc only at its word alone on a line.
        ("help.sh", "    cat <<'EOF'", "    app run\nEOF"),
    ];
    for (name, opening, rest) in cases {
        let file = format!("fn help() {{\n{opening}\n{rest}\n}}\n");
        let two = |text: &str| -> String {
            text.lines()
                .map(|line| format!("{}\n", line.strip_prefix("  ").unwrap_or(line)))
                .collect()
        };
        let old = two(&format!("{opening}\n{rest}\n"));
        let new = two(&format!("{opening}\n    app status\n{rest}\n"));
        assert_withheld_in(
            name,
            &file,
            &old,
            &new,
            &format!(
                "No corrected edit: its lines hold a string literal that runs over several \
                 lines (`{}`) and is no docstring: the white space its lines start with is the \
                 string's content, which re-indenting would change.",
                opening.trim()
            ),
        );
    }
}

/// A tester's find (round 44, T-01, its sequel): an edit of only the
/// middle lines of a Rust string (rustc keeps their leading spaces as its
/// text), sent two columns short, was corrected by every agent's repair,
/// Codex's too, with the string's lines re-indented: the new line `c2`
/// written with 4 spaces where the model's had 2. Withheld from every
/// agent with a correction, the string's opening line named; the code
/// below it, sent as short, is corrected as before.
#[test]
fn a_rust_strings_middle_lines_are_never_reindented_by_any_agent() {
    let file = "fn main() {\n    let s = \"a\n    b\n    c\";\n    let n = 1;\n    println!(\"{s}{n}\");\n}\n";
    assert_withheld_from_old_new_agents(
        ("s.rs", file),
        ("  b\n  c\";\n", "  b\n  c2\n  c\";\n"),
        ("in hunk 1 of s.rs, file line 3", "file line 3"),
        "lies inside a string literal that runs over several lines from file line 2 (`let s = \
         \"a`), above the old text: the white space its lines start with is the string's \
         content, which re-indenting would change.",
    );
    for agent in OLD_NEW_AGENTS {
        let (old, new) = (
            "  let n = 1;\n  println!(\"{s}{n}\");\n",
            "  let n = 2;\n  println!(\"{s}{n}\");\n",
        );
        let judgment = judged_repairing(agent, ("s.rs", file), old, new);
        let corrected = correction_of(&judgment)
            .unwrap_or_else(|| panic!("{agent:?}: {}", deny_reason(&judgment)));
        assert!(
            corrected.to_string().contains("    let n = 2;"),
            "{agent:?}: {corrected}"
        );
    }
}

/// OpenCode's loose stage places `return item` at the first of two places
/// it occurs (the second inside `return item.qty`): the diagnosis says the
/// edit cannot tell which is meant, and no re-indented edit picks one.
#[test]
fn a_reindented_edit_never_picks_one_of_several_places() {
    let file = "def find_item(items, name):\n    for item in items:\n        if item.name == \
                name:\n            return item\n    return None\n\n\ndef restock(item, amount):\n    \
                item.qty += amount\n    return item.qty\n";
    for agent in [GateAgent::Opencode, GateAgent::GeminiCli, GateAgent::Pi] {
        let payload = payload_for(agent, "return item", "return item  # first match");
        let judgment = judge_on(agent, &payload, file, &Policy::default());
        assert_withheld(&judgment, "");
        let reason = deny_reason(&judgment);
        assert!(!reason.contains("rewrote"), "{agent:?}: {reason}");
        if agent == GateAgent::Opencode {
            assert!(
                reason.contains(
                    "oldString occurs 2 times (line 4, line 10): the edit cannot tell which is \
                     meant, so no corrected edit is offered."
                ),
                "{reason}"
            );
        }
    }
}

/// A line that occurs nowhere as sent, two near copies of it in the file
/// (`price*qty`, `price * qty`): the diagnosis names both places, not
/// "every line occurs several times", and the withheld correction names
/// the edit it speaks of (it said "of 1 of them" after no list).
#[test]
fn a_line_with_two_near_copies_is_said_as_it_is() {
    let file = "def net(price, qty):\n    total = price*qty\n    return total\n\n\ndef gross(price, \
                qty):\n    total = price * qty\n    return total * 1.2\n";
    let (old, new) = (
        "    total = price  *  qty\n",
        "    total = round(price * qty, 2)\n",
    );
    for (agent, field) in [
        (GateAgent::GeminiCli, "old_string"),
        (GateAgent::Pi, "oldText"),
    ] {
        let judgment = judged_as(Case::Failing, agent, ("inventory.py", file), old, new);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(&format!(
                "\n{field} does not occur in the file; no single closest region: line 2 and \
                 line 7 could each be the place.\nNo corrected edit: srview cannot stand behind \
                 a correction of this edit.\n"
            )),
            "{agent:?}: {reason}"
        );
        assert!(!reason.contains("several times"), "{agent:?}: {reason}");
    }
}

/// The model writes curly quotes where the file has straight ones (line
/// 4's `it's`) and keeps line 3's curly ones, which the file has too: the
/// correction would write line 3's quotes straight, and the message says
/// so, not "the model's straight ones" (the model wrote curly ones).
#[test]
fn a_withheld_quote_correction_says_the_models_quotes_as_they_are() {
    let file = "def greet(name):\n    print(f\"Don\u{2019}t panic, {name}\")\n    print(\"Say \
                \u{201C}hello\u{201D} to \u{201C}everyone\u{201D}\")\n    return \"it's fine\"\n";
    let old = "    print(\"Say \u{201C}hello\u{201D} to \u{201C}everyone\u{201D}\")\n    return \
               \"it\u{2019}s fine\"\n";
    let new = "    print(\"Say \u{201C}hello\u{201D} to \u{201C}everyone\u{201D}\")\n    return \
               \"it\u{2019}s ok\"\n";
    let agent = GateAgent::GeminiCli;
    let judgment = judge_on(
        agent,
        &payload_for(agent, old, new),
        file,
        &Policy::default(),
    );
    assert_withheld(
        &judgment,
        "\nNo corrected edit: the corrected edit would write straight quotes over the file's \
         curly ones, which the model does not mean to change: srview cannot tell which of the \
         file's quotes each of the model's stands for.\n",
    );
    assert!(!deny_reason(&judgment).contains("the model's straight ones"));
}

/// `util.mjs` of the tester's find.
const UTIL: &str = "export function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}\n\nexport function sum(xs) {\n  return xs.reduce((a, b) => a + b, 0);\n}\n";

/// An exact edit whose new text ends with the lines that already follow
/// its old text (a `}` it closes again, a `return` it repeats), or begins
/// with the line before it: a doubt naming the line (they passed as exact,
/// and the file got the line twice). Claude Code's Edit and the same as a
/// Codex hunk.
#[test]
fn an_edit_repeating_the_lines_around_it_is_a_doubt() {
    let cases = [
        (
            "  if (x > hi) return hi;\n  return x;\n",
            "  if (x > hi) return hi;\n  return Number.isNaN(x) ? lo : x;\n}\n",
            "lines 3-4",
            "ends with `}`, which the file already has right after the text it replaces (line \
             5): written, it appears twice",
        ),
        (
            "export function sum(xs) {\n",
            "export function sum(xs) {\n  if (!xs) return 0;\n  return xs.reduce((a, b) => a + \
             b, 0);\n",
            "line 7",
            "ends with `return xs.reduce((a, b) => a + b, 0);`, which the file already has \
             right after the text it replaces (line 8): written, it appears twice",
        ),
        (
            "  return x;\n",
            "  if (x > hi) return hi;\n  return Number.isNaN(x) ? lo : x;\n",
            "line 4",
            "begins with `if (x > hi) return hi;`, which the file already has right before the \
             text it replaces (line 3): written, it appears twice",
        ),
    ];
    for (old, new, at, said) in cases {
        let reason = doubt_reason(GateAgent::ClaudeCode, UTIL, old, new);
        assert!(
            reason.starts_with(&format!(
                "srview gate: the edit of {CWD}/inventory.py matches exactly ({at}), but srview \
                 cannot stand behind its result: its new text {said}: send the edit without \
                 it, or with it in the old text too.\n"
            )),
            "{reason}"
        );
        let reason = doubt_reason(GateAgent::Codex, UTIL, old, new);
        let said = said
            .replace("ends with", "end with")
            .replace("begins with", "begin with");
        assert!(
            reason.contains(&format!(
                "hunk #1 of inventory.py has new lines that {said}"
            )),
            "{reason}"
        );
    }
}

/// Look-alikes the repeated-lines check leaves alone (exact, no opinion),
/// as `(file, old, new)`: an edit that closes a block it opens (its `}`
/// beside the file's, the brackets balanced), a separator line (`---`)
/// added before the file's own, a blank line, a keyword closer (`end`), and
/// an edit whose old text ends with the line its new text ends with (it
/// rewrites that line itself).
const LOOK_ALIKES: [(&str, &str, &str); 5] = [
    (
        "if (a) {\n  x();\n}\n",
        "  x();\n",
        "  x();\n  if (b) {\n    y();\n}\n",
    ),
    (
        "# Title\n---\nBody.\n",
        "# Title\n",
        "# Title\n\nIntro.\n\n---\n",
    ),
    ("a = 1\n\nb = 2\n", "a = 1\n", "a = 1\nc = 3\n\n"),
    (
        "def f\n  a\nend\n",
        "  a\n",
        "  a\n  if b\n    c\n  end\nend\n",
    ),
    (
        "function f() {\n  a();\n}\n}\n",
        "  a();\n}\n",
        "  a();\n  b();\n}\n",
    ),
];

/// The `LOOK_ALIKES` are exact as a Claude Code `Edit` and as a Codex hunk.
#[test]
fn an_edit_ending_like_the_next_line_by_design_is_not_doubted() {
    for (file, old, new) in LOOK_ALIKES {
        for agent in [GateAgent::ClaudeCode, GateAgent::Codex] {
            judged_as(Case::Exact, agent, ("inventory.py", file), old, new);
        }
    }
}

/// `shop.js` of the tester's find (T-07): the charge lines follow the
/// total.
const SHOP: &str = "function checkout(cart, account) {\n  const total = cart.reduce((s, i) => s + i.price, 0);\n  account.balance -= total;\n  account.orders += 1;\n  log(`charged ${total}`);\n  return total;\n}\n";

/// The tester's find (T-07): an edit whose new text ends with the two
/// lines the file has right after its old text (the charge written twice:
/// node charged 20 for one item of 10), begins with the two right before
/// it, or holds its own three lines twice back to back, was allowed for
/// every agent while the one-line overlap was denied. A doubt naming the
/// lines, in every agent's shape.
#[test]
fn an_edit_writing_two_or_more_lines_twice_is_a_doubt_for_every_agent() {
    let total = "  const total = cart.reduce((s, i) => s + i.price, 0);\n";
    let charge = "  account.balance -= total;\n  account.orders += 1;\n";
    let last = "  account.lastOrder = Date.now();\n";
    let cases = [
        (
            total.to_string(),
            format!("  const total = cart.reduce((s, i) => s + i.price * i.qty, 0);\n{charge}"),
            "2 lines (`account.balance -= total;` to `account.orders += 1;`) that the file \
             already has right after the text it replaces (lines 3-4): written, they appear \
             twice"
                .to_string(),
        ),
        (
            "  log(`charged ${total}`);\n".to_string(),
            format!("{charge}  log(`charged ${{total}} to ${{account.id}}`);\n"),
            "2 lines (`account.balance -= total;` to `account.orders += 1;`) that the file \
             already has right before the text it replaces (lines 3-4): written, they appear \
             twice"
                .to_string(),
        ),
        (
            charge.to_string(),
            format!("{charge}{last}{charge}{last}"),
            "twice, back to back (`account.balance -= total;` to `account.lastOrder = \
             Date.now();`, "
                .to_string(),
        ),
    ];
    let cases: Vec<(&str, &str, String)> = cases
        .iter()
        .map(|(old, new, said)| (old.as_str(), new.as_str(), said.clone()))
        .collect();
    assert_doubts_say(("shop.js", SHOP), &cases);
}

/// Look-alikes of lines written twice, exact for every agent: a function
/// added before another that ends with the same lines, a test that calls
/// `print()` twice, an unrolled loop of three copies, a pair of lines the
/// old text already held twice.
#[test]
fn lines_repeated_by_design_are_not_doubted_for_every_agent() {
    let file =
        "def a(x):\n    y = x + 1\n    return y\n\n\ndef b(x):\n    y = x * 2\n    return y\n";
    let step = "    i += 1\n    total += i\n";
    let pair = "    t.push(1)\n    t.push(2)\n";
    assert_exact_for_every_agent(
        ("m.py", file),
        &[
            (
                "def b(x):\n",
                "def c(x):\n    y = x - 1\n    return y\n\n\ndef b(x):\n",
            ),
            (
                "    y = x + 1\n",
                "    y = x + 1\n    print()\n    print()\n",
            ),
            (
                "    y = x * 2\n",
                &format!("    y = x * 2\n{step}{step}{step}"),
            ),
        ],
    );
    let twice = format!("def t(x):\n{pair}{pair}    return x\n");
    assert_exact_for_every_agent(
        ("t.py", &twice),
        &[(
            &format!("{pair}{pair}"),
            &format!("{pair}{pair}    t.push(3)\n"),
        )],
    );
}

/// `cart.py` of the tester's find.
const CART: &str = "class Cart:\n    def __init__(self):\n        self.items = []\n        self.count = 0\n\n    def add(self, item):\n        self.items.append(item)\n        self.count += 1\n        return self.count\n";

/// Exact edits that leave Python misindented: a patch's `+` line one
/// column short (7 spaces where the block has 8), a line written at method
/// level in a method's body (what follows it is then an unexpected
/// indent), a `:` line whose block is not indented. Each a doubt saying
/// where Python stops and why, in every agent's shape (they passed as
/// exact).
#[test]
fn an_exact_edit_that_misindents_python_is_a_doubt() {
    let cases = [
        (
            "        self.count += 1\n",
            "       self.count += 2\n",
            "line 8 (`self.count += 2`) is at column 7, which matches no enclosing block's \
             indentation (columns 0, 4, 8 there): Python refuses the file (IndentationError: \
             unindent does not match any outer indentation level)",
        ),
        (
            "        self.count += 1\n",
            "    self.count += 2\n",
            "line 9 (`return self.count`) is at column 8, deeper than the line before it, which \
             opens no block: Python refuses the file (IndentationError: unexpected indent)",
        ),
        (
            "        self.count += 1\n",
            "        if item:\n        self.count += 1\n",
            "line 9 (`self.count += 1`) is at column 8, not deeper than the line before it, \
             which ends with `:`: Python refuses the file (IndentationError: expected an \
             indented block)",
        ),
    ];
    let cases = cases.map(|(old, new, said)| {
        let said = format!(
            "as written, {said}: send the new lines at the indentation of the block they belong to."
        );
        (old, new, said)
    });
    assert_doubts_say(("cart.py", CART), &cases);
}

/// An edit re-sent changed a little after its first send was applied
/// (`add` added again, above `__init__`'s last line: its text is not
/// "already there"): Python would keep the later `add` silently, so the
/// model's new one never runs. A doubt in every agent's shape, naming both
/// lines; the same method added to a file without it is exact.
#[test]
fn an_edit_defining_a_method_again_in_its_class_is_a_doubt() {
    let old = "        self.count = 0\n";
    let new =
        "        self.count = 0\n\n    def add(self, item):\n        self.items.insert(0, item)\n";
    let said = "as written, the file defines `add` twice in class `Cart` (line 1), at lines 6 and \
                9: Python keeps the later one (line 9) without a word, and the one at line 6 never \
                runs: change the definition that is there (its text in the old text) \
                instead of adding another, or give the new one another name"
        .to_string();
    assert_doubts_say(("cart.py", CART), &[(old, new, said)]);
    let without = CART.replace("add(self, item)", "put(self, item)");
    for agent in agents() {
        judged_as(Case::Exact, agent, ("cart.py", &without), old, new);
    }
}

/// A tester's find (round 38d): a YAML key its mapping already holds,
/// added again (`server:` re-sent with one new key instead of editing the
/// one there; a second `host` under it): some YAML readers refuse the
/// file, PyYAML keeps the later value and `host` and `port` are gone. A
/// doubt in every agent's shape; a key added to another mapping is exact.
#[test]
fn a_yaml_key_added_again_to_its_mapping_is_a_doubt() {
    let config = "server:\n  host: localhost\n  port: 8080\nlog:\n  level: info\n";
    let advice = "some YAML readers refuse the file (a duplicated key), others keep the later \
                  value (line 4) without a word: change the key that is there (its line in the \
                  old text) instead of adding it again";
    assert_doubts_say(
        ("config.yaml", config),
        &[
            (
                "log:\n",
                "server:\n  tls: true\nlog:\n",
                format!(
                    "as written, the file has the key `server` twice at the top level, at lines \
                     1 and 4: {advice}"
                ),
            ),
            (
                "  port: 8080\n",
                "  port: 8080\n  host: 0.0.0.0\n",
                format!(
                    "as written, the file has the key `host` twice in the mapping under line 1 \
                     (`server:`), at lines 2 and 4: {advice}"
                ),
            ),
        ],
    );
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            ("config.yaml", config),
            "  level: info\n",
            "  level: info\n  host: log.local\n",
        );
    }
}

/// A tester's find (round 46 T-04): `3.10` written unquoted in a GitHub
/// workflow was allowed; YAML reads the float 3.1 (PyYAML:
/// `{'python-version': 3.1}`) and setup-python looks for Python 3.1. A
/// doubt in every agent's shape offering the quoted value; the quoted
/// value, and `3.11` (read as written), are exact.
#[test]
fn a_yaml_version_written_unquoted_is_a_doubt() {
    let workflow = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    \
                    strategy:\n      matrix:\n        python-version: [3.8, 3.9]\n    steps:\n      \
                    - uses: actions/setup-python@v5\n        with:\n          python-version: \
                    ${{ matrix.python-version }}\n";
    let file = (".github/workflows/ci.yml", workflow);
    let step = "          python-version: ${{ matrix.python-version }}\n";
    assert_doubts_say(
        file,
        &[
            (
                step,
                "          python-version: 3.10\n",
                "as written, line 12 (`python-version: 3.10`) gives the unquoted value `3.10` \
                 where the file held the string `${{ matrix.python-version }}`, which YAML reads \
                 as the number 3.1, not the text `3.10`: write it quoted, `\"3.10\"`, to keep it \
                 as written"
                    .to_string(),
            ),
            (
                "        python-version: [3.8, 3.9]\n",
                "        python-version: [3.8, 3.9, 3.10]\n",
                "which YAML reads as the number 3.1, not the text `3.10`".to_string(),
            ),
        ],
    );
    for new in [
        "          python-version: \"3.10\"\n",
        "          python-version: 3.11\n",
    ] {
        for agent in agents() {
            judged_as(Case::Exact, agent, file, step, new);
        }
    }
}

/// Tester 48, T-01, T-03, T-04: shell edits bash reads otherwise than
/// written, each allowed before: an argument's `!(` with `extglob` off, a
/// `\` moved into a comment or followed by a blank (the next line runs as
/// a command of its own), a no-break space between a command's
/// arguments. A doubt in every agent's shape; the same lines written
/// plainly are exact.
#[test]
fn a_shell_line_bash_reads_otherwise_is_a_doubt() {
    let script = "#!/bin/bash\nset -e\ncd /srv\nrm -rf old\ndocker run \\\n  --rm \\\n  -e CI=1 \\\n  img\necho done\n";
    let file = ("deploy.sh", script);
    assert_doubts_say(
        file,
        &[
            (
                "rm -rf old\n",
                "rm -rf !(keep|data)\n",
                "holds the extended glob `!(`, which bash parses only once `shopt -s extglob` has \
                 run"
                .to_string(),
            ),
            (
                "  --rm \\\n",
                "  --rm # no leftovers \\\n",
                "line 6 (`--rm # no leftovers \\`) has its `\\` inside a `#` comment, which runs \
                 to the line's end and continues nothing, so bash ends the command at the line's \
                 end and runs line 7 (`-e CI=1 \\`) as a command of its own, `-e`"
                    .to_string(),
            ),
            (
                "rm -rf old\n",
                "rm -rf\u{a0}old\n",
                "so `-rf\u{a0}old` reaches its command as one argument, where the line shows 2 \
                 (`-rf` and `old`): send the line with an ASCII space there, `rm -rf old`"
                    .to_string(),
            ),
        ],
    );
    for (old, new) in [
        ("rm -rf old\n", "rm -rf old new\n"),
        ("  --rm \\\n", "  --rm \\\n  --init \\\n"),
    ] {
        for agent in agents() {
            judged_as(Case::Exact, agent, file, old, new);
        }
    }
}

/// wt-decor's leftover (round 46): an edit removing the implementation
/// under an `@overload` stack was allowed; python3 then raises
/// NotImplementedError at every call. A doubt in every agent's shape; the
/// implementation's body changed is exact.
#[test]
fn overloads_left_without_their_implementation_are_a_doubt() {
    let module = "from typing import overload\n\n\n@overload\ndef parse(x: int) -> int: ...\n\
                  @overload\ndef parse(x: str) -> str: ...\ndef parse(x):\n    return x\n";
    let file = ("parse.py", module);
    let implementation = "def parse(x):\n    return x\n";
    assert_doubts_say(
        file,
        &[(
            implementation,
            "\n",
            "as written, the `@overload` definitions of `parse` (lines 5-7) have no \
             implementation: Python replaces each with a stub, and every call of `parse` raises \
             NotImplementedError: keep its implementation, a `def parse` without `@overload`, \
             after the overloads"
                .to_string(),
        )],
    );
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            file,
            implementation,
            "def parse(x):\n    return str(x)\n",
        );
    }
}

/// A tester's find (round 48 T-05): a new step's `with:` and its input at
/// one column was allowed; PyYAML reads `{'uses': 'actions/setup-node@v4',
/// 'with': None, 'node-version': '20'}`. A doubt in every agent's shape
/// offering the input indented under `with` (PyYAML reads the offer as
/// `'with': {'node-version': '20'}`); the input indented, and Compose's
/// named volumes left empty on purpose, are exact.
#[test]
fn a_yaml_key_left_empty_above_its_content_is_a_doubt() {
    let workflow = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    \
                    steps:\n      - uses: actions/checkout@v4\n      - uses: \
                    actions/setup-python@v5\n        with:\n          python-version: \
                    '3.11'\n      - run: pytest\n";
    let file = (".github/workflows/ci.yml", workflow);
    let step = "      - uses: actions/checkout@v4\n";
    let node =
        |input: &str| format!("{step}      - uses: actions/setup-node@v4\n        with:\n{input}");
    assert_doubts_say(
        file,
        &[(
            step,
            &node("        node-version: '20'\n"),
            "as written, line 9 (`with:`) leaves `with` empty, which YAML reads as null, and \
             line 10 (`node-version: '20'`), at the column of `with` itself, as its sibling, \
             not its content (line 12 gives `with` a mapping): indent the line below it by 2 \
             columns (`          node-version: '20'`) to put it under `with`"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(file, &[(step, &node("          node-version: '20'\n"))]);
    let compose = (
        "compose.yaml",
        "services:\n  db:\n    image: postgres\nvolumes:\n  data:\n",
    );
    assert_exact_for_every_agent(compose, &[("  data:\n", "  data:\n  logs:\n")]);
}

/// A tester's find (round 39a, 21): an edit leaving package.json without
/// a comma between two scripts was allowed (npm then refuses the file). A
/// doubt in every agent's shape, naming the line and column; the comma
/// there is exact, and a trailing comma in a tsconfig (JSONC) too.
#[test]
fn an_edit_leaving_a_json_file_unreadable_is_a_doubt() {
    let package = "{\n  \"name\": \"x\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  }\n}\n";
    let old = "    \"test\": \"jest\"\n";
    assert_doubts_say(
        ("package.json", package),
        &[(
            old,
            "    \"test\": \"jest\"\n    \"lint\": \"eslint .\"\n",
            "the file was valid JSON before and is not after: line 6, column 5: expected `,` or \
             `}`: its readers refuse the whole file"
                .to_string(),
        )],
    );
    let tsconfig = "{\n  \"compilerOptions\": {\n    \"strict\": true\n  }\n}\n";
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            ("package.json", package),
            old,
            "    \"test\": \"jest\",\n    \"lint\": \"eslint .\"\n",
        );
        judged_as(
            Case::Exact,
            agent,
            ("tsconfig.json", tsconfig),
            "    \"strict\": true\n",
            "    \"strict\": true,\n",
        );
        // Round 45 T-03: a data file holding a comment already is JSONC.
        judged_as(
            Case::Exact,
            agent,
            ("data/users.json", "[\n  // ids\n  {\"id\": 1}\n]\n"),
            "  {\"id\": 1}\n",
            "  {\"id\": 1},\n",
        );
    }
    // A tester's find (round 45, T-03): a trailing comma left in a plain
    // data file (no comment, no trailing comma before) was allowed.
    assert_doubts_say(
        ("data/users.json", "[\n  {\"id\": 1},\n  {\"id\": 2}\n]\n"),
        &[(
            "  {\"id\": 2}\n",
            "  {\"id\": 2},\n  {\"id\": 3},\n",
            "the file was valid JSON before and is not after: line 5, column 1: trailing comma: \
             its readers refuse the whole file"
                .to_string(),
        )],
    );
}

/// A tester's find (round 45 T-05 and its addendum): a stylesheet's `/*`
/// or a rule's `}`, a page's `<!--` or a `<script>` above another, a
/// template's `{% block %}` left open all passed, and the rest of the file
/// was lost. Each is a doubt for every agent; the same files edited with
/// everything closed, or an HTML `</p>` left out, are exact.
#[test]
fn an_edit_leaving_a_stylesheet_page_or_template_open_is_a_doubt() {
    let sheet = ".a {\n  color: red;\n}\n\n.b {\n  color: blue;\n}\n";
    let page = "<html>\n<body>\n  <h1>Title</h1>\n  <p>Hello</p>\n  <script src=\"app.js\"></script>\n</body>\n</html>\n";
    let base = "<html>\n<body>\n  {% block content %}{% endblock %}\n</body>\n</html>\n";
    assert_doubts_say(
        ("s.css", sheet),
        &[(
            "  color: red;\n}\n",
            "  color: red;\n",
            "the stylesheet's comments and blocks were all closed before, and the `{` at line 1, \
             column 4 (`.a {`) is never closed by its `}`: the rest of the file (lines 2-6) is \
             read inside that block: send the edit so that each `/*` keeps its `*/` and each `{` \
             its `}`"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("i.html", page),
        &[(
            "  <p>Hello</p>\n",
            "  <p>Hello</p>\n  <script>\n    init();\n",
            "the `<script>` at line 5, column 3 is not closed before the `<script` at line 7: \
             that tag is read as its text, and the `</script>` after it closes this one"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("templates/base.html", base),
        &[(
            "  {% block content %}{% endblock %}\n",
            "  {% block content %}\n",
            "`{% block content %}` at line 3, column 3 is never closed by `{% endblock %}`: the \
             engine refuses the whole template"
                .to_string(),
        )],
    );
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            ("s.css", sheet),
            "  color: red;\n",
            "  color: red; /* was: green */\n",
        );
        judged_as(
            Case::Exact,
            agent,
            ("i.html", page),
            "  <p>Hello</p>\n",
            "  <p>Hello\n",
        );
        judged_as(
            Case::Exact,
            agent,
            ("templates/base.html", base),
            "  {% block content %}{% endblock %}\n",
            "  {% block content %}{% if user %}Hi{% endif %}{% endblock %}\n",
        );
    }
}

/// Tester 47's T-05 and T-02 remainders: a Ruby method's `end` or a Lua
/// block's `end` dropped, and a Rust format string left with a `{` open,
/// were allowed (`ruby -c`: "syntax error, unexpected end-of-input";
/// `luac -p`: "'end' expected"; rustc: "invalid format string"). Each is
/// a doubt for every agent, naming the line; the same files edited whole
/// are exact.
#[test]
fn a_lost_end_or_a_format_strings_open_brace_is_a_doubt() {
    let ruby = "class Cart\n  def total\n    items.sum do |i|\n      i.price\n    end\n  end\n\n  def size\n    items.size\n  end\nend\n";
    let lua = "local M = {}\n\nfunction M.greet(name)\n  if name then\n    print(name)\n  end\nend\n\nreturn M\n";
    let rust = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n";
    assert_doubts_say(
        ("cart.rb", ruby),
        &[(
            "      i.price\n    end\n  end\n",
            "      i.price\n    end\n",
            "as written, one block of the file is left without its `end` (Ruby refuses the \
             file: syntax error, unexpected end-of-input) (srview reads Ruby's blocks outside \
             strings and comments; the file before closed each): the edit's old text closes a \
             block its new text does not close (line 6 `end`): send the new text with its \
             closing `end`"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("greet.lua", lua),
        &[(
            "    print(name)\n  end\n",
            "    print(name)\n",
            "(Lua refuses the file: 'end' expected)".to_string(),
        )],
    );
    assert_doubts_say(
        ("src/main.rs", rust),
        &[(
            "    println!(\"{x}\");\n",
            "    println!(\"{x\");\n",
            "as written, the format string of `println!` on line 3 (`\"{x\"`) leaves a `{` open \
             (rustc refuses it: invalid format string: expected `}`)"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("cart.rb", ruby),
        &[(
            "    items.size\n",
            "    return 0 if items.nil?\n    items.size\n",
        )],
    );
    assert_exact_for_every_agent(
        ("greet.lua", lua),
        &[("    print(name)\n", "    for i = 1, 2 do print(name) end\n")],
    );
    assert_exact_for_every_agent(
        ("src/main.rs", rust),
        &[("    println!(\"{x}\");\n", "    println!(\"{{{x}}}\");\n")],
    );
}

/// A tester's finds (round 46 T-01, T-02): a Jinja `{{ user }` passed
/// (jinja2: `unexpected '}'`), and a `{% block content %` whose `%}` was
/// lost was denied saying its `{% endblock %}` was missing, quoting three
/// lines as the tag. Each is a doubt for every agent, said where Jinja's
/// reading stops; a page's `<!--` closed only by an existing comment's
/// `-->` is one too; the same files edited closed are exact.
#[test]
fn a_jinja_close_lost_or_a_comment_closed_too_late_is_a_doubt() {
    let j2 =
        "{% extends \"layout.html\" %}\n{% block content %}\n  <p>{{ user }}</p>\n{% endblock %}\n";
    let page = "<body>\n  <p>Hello</p>\n  <!-- footer -->\n  <p>Bye</p>\n</body>\n";
    assert_doubts_say(
        ("base.html.j2", j2),
        &[
            (
                "  <p>{{ user }}</p>\n",
                "  <p>{{ user }</p>\n",
                "the `{{` at line 3, column 6 (`{{ user }</p>`) is not closed by `}}` before the \
                 `}` at line 3, column 14, a bracket that closes none it opened: Jinja refuses \
                 the whole template"
                    .to_string(),
            ),
            (
                "{% block content %}\n",
                "{% block content %\n",
                "the `{%` at line 2, column 1 (`{% block content %`) is not closed by `%}` before \
                 the `{%` at line 4, column 1, which Jinja reads as part of it: Jinja refuses the \
                 whole template"
                    .to_string(),
            ),
        ],
    );
    assert_doubts_say(
        ("i.html", page),
        &[(
            "  <p>Hello</p>\n",
            "  <!-- <p>Hi</p>\n  <p>Hello</p>\n",
            "the `<!--` at line 2, column 3 is closed only by the `-->` at line 4, the end of a \
             comment that was there before: the markup of line 3 between is read as that \
             comment, not shown"
                .to_string(),
        )],
    );
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            ("base.html.j2", j2),
            "  <p>{{ user }}</p>\n",
            "  <p>{{ user ~ \"}\" }}</p>\n",
        );
        judged_as(
            Case::Exact,
            agent,
            ("i.html", page),
            "  <p>Hello</p>\n",
            "  <!-- <p>Hello</p> -->\n",
        );
    }
}

/// Comments do not nest: a whole comment put inside an existing one ends
/// it at its own closer, and the rest of the old comment is code (CSS:
/// tinycss2 reads `note */ a` as the next rule's prelude), text on the
/// page (html5lib) or rendered text (jinja2); a `{#` the edit opens that
/// only an existing `#}` closes swallows the template between. Each is a
/// doubt for every agent; the comment's text changed is exact.
#[test]
fn a_comment_nested_in_a_comment_or_run_on_to_an_existing_end_is_a_doubt() {
    let sheet = "/* outer\n   note\n*/\na { color: red; }\n";
    let tpl = "<p>{{ a }}</p>\n{{ x }}\n{# end #}\n";
    assert_doubts_say(
        ("s.css", sheet),
        &[(
            "   note\n",
            "   /* inner */ note\n",
            "the `*/` at line 2, column 13 ends the comment opened at line 1, which went on past \
             it before (a `/*` inside a comment opens nothing: comments do not nest): the rest \
             of that comment, lines 2-3, its old `*/` with it, is read as code, not as that \
             comment"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("t.j2", tpl),
        &[(
            "<p>{{ a }}</p>\n",
            "{# was:\n<p>{{ a }}</p>\n",
            "the `{#` at line 1, column 1 is closed only by the `#}` at line 4, the end of a \
             comment that was there before: the text of lines 2-3 between is read as that \
             comment, not rendered"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(("s.css", sheet), &[("   note\n", "   a longer note\n")]);
    assert_exact_for_every_agent(("t.j2", tpl), &[("{{ x }}\n", "{# was: #}\n{{ x }}\n")]);
}

/// A JavaScript module's function removed while the file still calls it
/// (node: `ReferenceError: helper is not defined` when the call runs) is
/// a doubt for every agent; removed with an import of it put in, exact.
#[test]
fn a_javascript_function_removed_and_still_called_is_a_doubt() {
    let file = "import fs from 'fs'\n\nfunction helper(x) {\n  return x * 2\n}\n\nexport function main() {\n  console.log(helper(2))\n}\n";
    let helper = "function helper(x) {\n  return x * 2\n}\n\n";
    assert_doubts_say(
        ("app.js", file),
        &[(
            helper,
            "",
            "the module declared `helper` at its top level before (line 3: `function helper(x) \
             {`) and no longer declares or imports it, but line 4 still calls it \
             (`console.log(helper(2))`): running that line throws ReferenceError: helper is not \
             defined"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("app.js", file),
        &[(helper, "import { helper } from './helper.js'\n\n")],
    );
}

/// JavaScript faults an edit writes that node refuses (tester 49 T-11):
/// a typographic quote in code, an `await` in a function not `async`, a
/// `let` declaring again a name its block declares; and a class field
/// written twice (T-19: the later one wins; a method twice is
/// `doubt_defines`'); a line left ending in `+` above a `return`; a
/// constant moved below a line using it at load (T-04). Each a doubt for every agent,
/// said with node's error; the same edits written soundly, exact.
#[test]
fn javascript_faults_node_refuses_are_doubts() {
    let file = "export class App {\n  count = 0\n  render() {\n    return 1\n  }\n}\n\nfunction show(x) {\n  const label = 'x'\n  console.log(label, x)\n}\n";
    assert_doubts_say(
        ("app.js", file),
        &[
            (
                "  const label = 'x'\n",
                "  const label = \u{201c}x\u{201d}\n",
                "has the typographic quote `\u{201c}` (U+201C) in code, outside any string, \
                 comment or template: node refuses the file (SyntaxError: Invalid or \
                 unexpected token)"
                    .to_string(),
            ),
            (
                "  console.log(label, x)\n",
                "  console.log(label, await x)\n",
                "awaits inside the function of line 8 (`function show(x) {`), which is not \
                 `async`: node refuses the file (SyntaxError: await is only valid in async \
                 functions and the top level bodies of modules)"
                    .to_string(),
            ),
            (
                "  console.log(label, x)\n",
                "  let label = 'y'\n  console.log(label, x)\n",
                "line 10 (`let label = 'y'`) declares `label` again in the same block, which \
                 line 9 (`const label = 'x'`) declares already: node refuses the file \
                 (SyntaxError: Identifier 'label' has already been declared)"
                    .to_string(),
            ),
            (
                "    return 1\n  }\n",
                "    return 1\n  }\n  count = 1\n",
                "line 6 (`count = 1`) defines `count` in class `App` a second time (first at \
                 line 2: `count = 0`): JavaScript keeps only the later one"
                    .to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("app.js", file),
        &[
            (
                "  const label = 'x'\n",
                "  const label = '\u{201c}x\u{201d}'\n",
            ),
            (
                "function show(x) {\n",
                "async function show(x) {\n  await null\n",
            ),
            (
                "  console.log(label, x)\n",
                "  const other = 'y'\n  console.log(label, other)\n",
            ),
            (
                "    return 1\n  }\n",
                "    return 1\n  }\n  static count = 1\n",
            ),
        ],
    );
    // A concatenation's last operand removed above a `return`; a
    // top-level constant moved below the line that exports it.
    let greet = "function greet(name) {\n  const text = 'Hello, ' +\n    name\n  return text\n}\n";
    let exports = "const helper = 1\nmodule.exports = { helper }\n";
    assert_doubts_say(
        ("greet.js", greet),
        &[(
            "    name\n",
            "",
            "line 2 (`const text = 'Hello, ' +`) ends with `+`, and line 3 (`return text`) \
             starts with `return`, which no operand can start: JavaScript reads on over the line \
             break and node refuses the file (SyntaxError: Unexpected token 'return')"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("exports.js", exports),
        &[(
            exports,
            "module.exports = { helper }\nconst helper = 1\n",
            "line 1 (`module.exports = { helper }`) uses `helper` when the file loads, above its \
             declaration at line 2 (`const helper = 1`): node throws ReferenceError: Cannot \
             access 'helper' before initialization"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(("greet.js", greet), &[("    name\n", "    name + '!'\n")]);
    assert_exact_for_every_agent(
        ("exports.js", exports),
        &[(exports, "const helper = 2\nmodule.exports = { helper }\n")],
    );
}

/// Re-indents Python reads as meant: a line moved out of an `if` to the
/// enclosing level (a deliberate dedent), a line moved to an enclosing
/// level, a new block opened and indented, a line inside brackets at any
/// column, and the same misindented line in a file that is not Python.
/// No doubt.
#[test]
fn a_deliberate_python_reindent_is_not_doubted() {
    let file = "def f(x):\n    if x:\n        a()\n        b()\n    return 1\n";
    let cases = [
        ("        b()\n", "    b()\n"),
        ("        a()\n        b()\n", "        a()\n    b()\n"),
        ("        b()\n", "        if x > 1:\n            b()\n"),
        ("        b()\n", "        b(1,\n   2)\n"),
    ];
    for (old, new) in cases {
        for agent in [GateAgent::ClaudeCode, GateAgent::Opencode] {
            judged_as(Case::Exact, agent, ("inventory.py", file), old, new);
        }
    }
    // The same misindented line, in a file srview does not read as Python.
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("cart.txt", CART),
        "        self.count += 1\n",
        "       self.count += 2\n",
    );
}

/// A Claude Code `Edit` whose replacing line is only at the wrong depth
/// (7 or 4 columns for the replaced line's 8): the doubt offers the edit
/// with its new text at the replaced line's depth, which applies exactly
/// and reads as Python. A block opened without indenting its body (the
/// same depth as sent) gets no correction: what belongs in the block
/// cannot be told.
#[test]
fn a_misindented_exact_edit_is_offered_at_the_replaced_lines_depth() {
    let old = "        self.count += 1\n";
    // Claude Code's edit of cart.py replacing `old` with `new`, judged a
    // doubt.
    let judged = |new: &str| {
        judged_as(
            Case::Doubt,
            GateAgent::ClaudeCode,
            ("cart.py", CART),
            old,
            new,
        )
    };
    for new in ["       self.count += 2\n", "    self.count += 2\n"] {
        let judgment = judged(new);
        let offered = super::offered_input(GateAgent::ClaudeCode, &deny_reason(&judgment))
            .expect("an offered edit");
        assert_eq!(
            offered["new_string"], "        self.count += 2\n",
            "{new:?}"
        );
        assert_exact_with_agents_matcher(GateAgent::ClaudeCode, &offered, CART);
    }
    let judgment = judged("        if item:\n        self.count += 1\n");
    assert_eq!(
        super::offered_input(GateAgent::ClaudeCode, &deny_reason(&judgment)),
        None
    );
}

/// The repeated-lines check reads whole lines whatever the texts' final
/// newline (a tester's find: Claude Code's old texts mostly have none,
/// and such an edit writing a `}` or a `return` twice got no opinion):
/// the same duplicating edits without it, and one whose old text ends
/// inside a line (before its `;`), are doubts on every string-edit agent;
/// the look-alikes without it stay exact.
#[test]
fn an_edit_repeating_the_lines_around_it_is_a_doubt_without_a_final_newline() {
    let cases = [
        (
            "  if (x > hi) return hi;\n  return x;",
            "  if (x > hi) return hi;\n  return Number.isNaN(x) ? lo : x;\n}",
            "ends with `}`, which the file already has right after the text it replaces (line \
             5): written, it appears twice",
        ),
        (
            "return hi",
            "return Math.max(hi, lo);\n  return x",
            "ends with `return x;`, which the file already has right after the text it \
             replaces (line 4): written, it appears twice",
        ),
        (
            "  return x;",
            "  if (x > hi) return hi;\n  return Number.isNaN(x) ? lo : x;",
            "begins with `if (x > hi) return hi;`, which the file already has right before the \
             text it replaces (line 3): written, it appears twice",
        ),
    ];
    let agents: Vec<GateAgent> = super::STRING_EDIT_AGENTS
        .into_iter()
        .chain([GateAgent::ClineCli])
        .collect();
    for (old, new, said) in cases {
        for &agent in &agents {
            let reason = doubt_reason(agent, UTIL, old, new);
            assert!(
                reason.contains(&format!("its new text {said}")),
                "{agent:?}: {reason}"
            );
        }
    }
    // The look-alikes without their texts' final newlines, and a part of a
    // line changed (the line stays one line).
    let look_alikes = LOOK_ALIKES
        .map(|(file, old, new)| (file, old.trim_end_matches('\n'), new.trim_end_matches('\n')));
    let part_of_a_line = (UTIL, "return x;", "return Math.min(x, hi);");
    for (file, old, new) in look_alikes.into_iter().chain([part_of_a_line]) {
        judged_as(
            Case::Exact,
            GateAgent::ClaudeCode,
            ("inventory.py", file),
            old,
            new,
        );
    }
}

/// A tab-indented Python file given a new line indented with spaces at the
/// same visual depth (what models usually send): Python refuses the result
/// (TabError), so it is a doubt saying so, as a Claude Code `Edit`, a
/// Gemini CLI `replace` and a Codex patch alike (they passed as exact).
#[test]
fn spaces_in_a_tab_indented_python_file_are_a_doubt() {
    let file = "def f(x):\n\tif x > 0:\n\t\tx = x + 1\n\t\tlog(x)\n\treturn x\n";
    let (old, new) = ("\t\tx = x + 1\n", "\t\tx = x + 1\n        y = x * 2\n");
    for agent in [
        GateAgent::ClaudeCode,
        GateAgent::GeminiCli,
        GateAgent::Codex,
    ] {
        let reason = doubt_reason(agent, file, old, new);
        assert!(
            reason.contains(
                "line 4 (`y = x * 2`) mixes tabs and spaces against the lines of its block: its \
                 depth depends on how wide a tab is: Python refuses the file (TabError: \
                 inconsistent use of tabs and spaces in indentation)"
            ),
            "{agent:?}: {reason}"
        );
    }
    // The same line indented with tabs is exact.
    let tabs = "\t\tx = x + 1\n\t\ty = x * 2\n";
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("inventory.py", file),
        old,
        tabs,
    );
}

/// Three functions, of which a stand-in keeps only the last.
const THREE: &str = "def a(x):\n    y = x + 1\n    log(y)\n    return y\n\n\ndef b(x):\n    z = x * 2\n    log(z)\n    return z\n\n\ndef c(x):\n    return a(x) + b(x)\n";

/// A stand-in line that is no comment (`<existing code>`, `[... rest of
/// the file ...]`, `[unchanged]`, `(rest unchanged)`) where a() and b()
/// were: a Write, and an Edit of the whole file, are doubts as the
/// commented one is (they passed with no opinion, a() and b() gone).
#[test]
fn a_bracketed_stand_in_line_is_a_doubt() {
    for marker in [
        "# ... existing code ...",
        "<existing code>",
        "[... rest of the file ...]",
        "[unchanged]",
        "(rest unchanged)",
    ] {
        let content = format!("{marker}\n\n\ndef c(x):\n    return a(x) * b(x)\n");
        let judgment = write_judged_as(Case::Doubt, GateAgent::ClaudeCode, THREE, &content);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(&format!(
                "its content stands in for lines it leaves out (line 1: `{marker}`), so writing \
                 it deletes 9 non-blank lines of the file"
            )),
            "{marker}: {reason}"
        );
        // The same content as an Edit of the whole file.
        let reason = doubt_reason(GateAgent::ClaudeCode, THREE, THREE, &content);
        assert!(
            reason.contains(&format!(
                "its new text stands in for lines it leaves out (its line 1: `{marker}`)"
            )),
            "{marker}: {reason}"
        );
    }
}

/// `report.py` of a tester's find (it compiles).
const REPORT: &str = "def report(rows, verbose):\n    total = sum(rows)\n    if verbose:\n        print(\"rows:\", rows)\n\n    return total\n\n\ndef main():\n    for r in [[1, 2], [3]]:\n        print(\"row\", r)\n\n\nif __name__ == \"__main__\":\n    main()\n";

/// An edit that takes out, or comments out, the only line of a block,
/// with a blank line or the file's next statement after it at a lower
/// depth: Python refuses the file (expected an indented block). A doubt
/// for every agent, saying where (they passed: the check read only the
/// line right after the change).
#[test]
fn an_edit_that_empties_a_python_block_is_a_doubt() {
    let cases = [
        (
            "        print(\"rows:\", rows)\n",
            "",
            "as written, line 5 (`return total`) is at column 4, not deeper than line 3 (`if \
             verbose:`), which ends with `:`, and no indented line comes between them: Python \
             refuses the file (IndentationError: expected an indented block): keep a statement \
             in the block (`pass` where it is meant to be empty), or take out the line that \
             opens it",
        ),
        (
            "        print(\"row\", r)\n",
            "        # print(\"row\", r)\n",
            "as written, line 14 (`if __name__ == \"__main__\":`) is at column 0, not deeper \
             than line 10 (`for r in [[1, 2], [3]]:`), which ends with `:`",
        ),
    ];
    let cases = cases.map(|(old, new, said)| (old, new, said.to_string()));
    assert_doubts_say(("inventory.py", REPORT), &cases);
    // The block given a `pass`, or taken out whole: exact.
    for (old, new) in [
        ("        print(\"rows:\", rows)\n", "        pass\n"),
        ("    if verbose:\n        print(\"rows:\", rows)\n", ""),
    ] {
        for agent in agents() {
            judged_as(Case::Exact, agent, ("inventory.py", REPORT), old, new);
        }
    }
}

/// The agents with a whole-file write tool.
const WRITE_AGENTS: [GateAgent; 5] = [
    GateAgent::ClaudeCode,
    GateAgent::GeminiCli,
    GateAgent::QwenCode,
    GateAgent::Opencode,
    GateAgent::Pi,
];

/// A whole-file write of an existing Python file whose content breaks
/// Python's indentation where the file read clean (a line at a column no
/// block has; a tab among spaces): a doubt for every agent with a write
/// tool, as the same change sent as an edit is (the writes passed). A
/// write that reads clean, and one over a file already refused, are not.
#[test]
fn a_write_that_misindents_python_is_a_doubt() {
    let file = "def price(item, qty):\n    if qty >= 10:\n        return item.price * qty * 0.9\n    return item.price * qty\n";
    let cases = [
        (
            file.replace(
                "        return item.price * qty * 0.9\n",
                "        rate = 0.9\n      return item.price * qty * rate\n",
            ),
            "misindented: as written, line 4 (`return item.price * qty * rate`) is at column 6, \
             which matches no enclosing block's indentation (columns 0, 4, 8 there): Python \
             refuses the file (IndentationError: unindent does not match any outer indentation \
             level)",
        ),
        (
            file.replace(
                "    return item.price * qty\n",
                "    if qty <= 0:\n\treturn 0\n    return item.price * qty\n",
            ),
            "misindented: as written, line 5 (`return 0`) mixes tabs and spaces against the lines \
             of its block",
        ),
    ];
    for (content, said) in &cases {
        for agent in WRITE_AGENTS {
            let reason = deny_reason(&write_judged_as(Case::Doubt, agent, file, content));
            assert!(reason.contains(said), "{agent:?}: {reason}");
        }
    }
    let clean = file.replace("0.9", "0.85");
    let refused = &cases[0].0;
    for (before, content) in [
        (file, clean.as_str()),
        (refused.as_str(), &refused.replace("rate", "r")),
    ] {
        for agent in WRITE_AGENTS {
            write_judged_as(Case::Exact, agent, before, content);
        }
    }
}

/// A tester's find (round 39a, 13): a write creating a file was never
/// read for its layout (brackets, a key twice, misindented Python); it is
/// now, against no file: a new inventory.py misindented is a doubt for
/// every agent with a write tool, a clean one is exact.
#[test]
fn a_write_creating_a_misindented_file_is_a_doubt() {
    let broken = "def price(item, qty):\n    if qty >= 10:\n        rate = 0.9\n      return item.price * qty * rate\n";
    let clean = "def price(item, qty):\n    if qty >= 10:\n        rate = 0.9\n        return item.price * qty * rate\n    return item.price * qty\n";
    for agent in WRITE_AGENTS {
        let judgment = write_judged_in(Case::Doubt, agent, MemoryFs::new(Vec::new()), broken);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains("inventory.py misindented: as written, line 4"),
            "{agent:?}: {reason}"
        );
        write_judged_in(Case::Exact, agent, MemoryFs::new(Vec::new()), clean);
    }
}

/// `agent`'s write of `content` over inventory.py holding `before`, judged
/// with the default policy: asserts its case is `case`, naming the agent,
/// the content and the answer where it is not.
fn write_judged_as(case: Case, agent: GateAgent, before: &str, content: &str) -> Judgment {
    write_judged_in(case, agent, project(before), content)
}

/// [`write_judged_as`] over the files `fs` holds (inventory.py, or none).
fn write_judged_in(case: Case, agent: GateAgent, fs: MemoryFs, content: &str) -> Judgment {
    let judgment = srview::gate::judge(
        agent,
        &unchecked::write_payload(agent, content),
        |_| fs,
        &Policy::default(),
    );
    assert_eq!(
        judgment.case, case,
        "{agent:?} {content:?}: {:?}",
        judgment.answer
    );
    judgment
}

/// A Makefile recipe line an exact edit adds with spaces under recipe
/// lines indented with tabs: make stops (`missing separator`). A doubt for
/// every agent (it passed); the same line with a tab, and a Makefile that
/// sets `.RECIPEPREFIX`, are exact.
#[test]
fn a_recipe_line_indented_with_spaces_is_a_doubt() {
    let makefile = "all: app\n\napp: main.c\n\tcc -o app main.c\n\nclean:\n\trm -f app\n";
    let old = "\tcc -o app main.c\n";
    for agent in agents() {
        // By name (a tester's find: `Makefile.in`, `BSDmakefile` passed).
        for name in [
            "Makefile",
            "build/rules.mk",
            "Makefile.in",
            "Makefile.am",
            "BSDmakefile",
            "GNUmakefile",
        ] {
            let reason = doubt_reason_in(
                agent,
                (name, makefile),
                old,
                "\tcc -o app main.c\n    strip app\n",
            );
            assert!(
                reason.contains(
                    "as written, line 5 (`strip app`) is indented with spaces in a recipe whose \
                     lines start with a tab (line 4): make takes a recipe line only after a tab \
                     and stops there (`*** missing separator.  Stop.`): send the recipe lines \
                     indented with a tab, as the file's are"
                ),
                "{agent:?}: {reason}"
            );
        }
        // By its first line: `debian/rules`, or any script run by make.
        let script = format!("#!/usr/bin/make -f\n{makefile}");
        for name in ["debian/rules", "scripts/build"] {
            let reason = doubt_reason_in(
                agent,
                (name, &script),
                old,
                "\tcc -o app main.c\n    strip app\n",
            );
            assert!(
                reason.contains(
                    "as written, line 6 (`strip app`) is indented with spaces in a recipe whose \
                     lines start with a tab (line 5)"
                ),
                "{agent:?} {name}: {reason}"
            );
        }
        judged_as(
            Case::Exact,
            agent,
            ("Makefile", makefile),
            old,
            "\tcc -o app main.c\n\tstrip app\n",
        );
        let prefixed = format!(".RECIPEPREFIX = >\n{makefile}");
        judged_as(
            Case::Exact,
            agent,
            ("Makefile", &prefixed),
            old,
            "\tcc -o app main.c\n    strip app\n",
        );
    }
}

/// A new rule whose recipe lines are all indented with spaces (a tester's
/// find: the Edit adding `gen:` with `    go generate ./...` was allowed,
/// and make then stopped: `Makefile:7: *** missing separator.  Stop.`): a
/// doubt for every agent, saying the line, its spaces and the rule; also
/// where the line starts with a variable reference (another find:
/// `$(MAKE) -C sub`, `$(CC) -c $<`, `${GO} test` were allowed; make
/// stopped the same way, or dropped the line where the variable was
/// empty), and where a line make reads as ending the recipe (an
/// assignment, `$(info ...)`) stands in spaces before a tab recipe line
/// (`make -n`: `*** recipe commences before first target.  Stop.`). The
/// same rule with a tab, or with lines make reads in spaces (a
/// continuation, a conditional, an assignment or `$(info ...)` ending
/// the recipe, a comment, a `$(N) = 1` assignment), is exact.
#[test]
fn a_new_rule_whose_recipe_is_in_spaces_is_a_doubt() {
    let makefile = "all: build\n\nbuild:\n\tgo build ./...\n\ntest:\n\tgo test ./...\n";
    let said = |command: &str| {
        format!(
            "as written, line 7 (`{command}`) is indented with 4 spaces (column 5) in the recipe \
             of the rule on line 6 (`gen:`): make takes a recipe line only after a tab and stops \
             there (`*** missing separator.  Stop.`)"
        )
    };
    let mut cases = vec![(
        "test:\n",
        "gen:\n    go generate ./...\n\ntest:\n".to_string(),
        format!(
            "{}: send the recipe lines indented with a tab",
            said("go generate ./...")
        ),
    )];
    for command in [
        "$(MAKE) -C sub",
        "$(CC) -c $<",
        "${GO} test ./...",
        "$(STRIP) $@",
    ] {
        cases.push((
            "test:\n",
            format!("gen:\n    {command}\n\ntest:\n"),
            format!(
                "{}, or drops the line where it expands to nothing: send the recipe lines \
                 indented with a tab",
                said(command)
            ),
        ));
    }
    for (line, ends) in [
        ("    GOFLAGS = -mod=vendor", "GOFLAGS = -mod=vendor"),
        ("    $(info generating)", "$(info generating)"),
    ] {
        cases.push((
            "test:\n",
            format!("gen:\n{line}\n    # generate\n\tgo generate ./...\n\ntest:\n"),
            format!(
                "as written, line 7 (`{ends}`) is indented with spaces in the recipe of line 6: \
                 make reads it as a makefile line ending the recipe, and stops at the recipe line \
                 after it, line 9 (`go generate ./...`: `*** recipe commences before first \
                 target.  Stop.`): send it indented with a tab, or out of the recipe"
            ),
        ));
    }
    let cases: Vec<(&str, &str, String)> = cases
        .iter()
        .map(|(old, new, said)| (*old, new.as_str(), said.clone()))
        .collect();
    assert_doubts_say(("Makefile", makefile), &cases);
    for agent in agents() {
        for new in [
            "gen:\n\tgo generate ./...\n\ntest:\n",
            "gen:\n\tgo generate \\\n    ./...\n\ntest:\n",
            "gen:\n  ifdef CI\n\tgo generate ./...\n  endif\n\ntest:\n",
            "gen:\n    # generate\n\tgo generate ./...\n    GOFLAGS = -mod=vendor\n\ntest:\n",
            "gen:\n\tgo generate ./...\n    $(info generating)\n    $(N)_FLAGS := -x\n\ntest:\n",
            "gen:\n  ifndef CI\n    $(error CI unset)\n  endif\n\tgo generate ./...\n\ntest:\n",
        ] {
            judged_as(Case::Exact, agent, ("Makefile", makefile), "test:\n", new);
        }
    }
}

/// `cart.py` of a tester's find.
const CART_TOTAL: &str = "class Cart:\n    def __init__(self):\n        self.items = []\n        self.discount = 0\n        self.tax = 0.2\n\n    def total(self):\n        t = sum(i.price for i in self.items)\n        t -= self.discount\n        return t * (1 + self.tax)\n\n    def add(self, item):\n        self.items.append(item)\n";

/// A method body written as a stub whose comment says the body is left
/// out (`pass  # unchanged`, `pass  # ... existing code ...`, `...  #
/// existing implementation`): an edit and a write are doubts, as `...  #
/// unchanged` was (they passed, and total() returned None). A stub with
/// another comment is exact.
#[test]
fn a_stub_saying_its_body_is_unchanged_is_a_stand_in() {
    let old = &CART_TOTAL[CART_TOTAL.find("    def total").expect("total")..];
    let body = "        t = sum(i.price for i in self.items)\n        t -= self.discount\n        return t * (1 + self.tax)\n";
    for stub in [
        "pass  # unchanged",
        "pass  # ... existing code ...",
        "...  # existing implementation",
        "...  # unchanged",
    ] {
        let new = old.replace(body, &format!("        {stub}\n")).replace(
            "self.items.append(item)",
            "self.items.append(item)\n        return self",
        );
        for agent in agents() {
            let reason = doubt_reason(agent, CART_TOTAL, old, &new);
            assert!(
                reason.contains(&format!(
                    "stands in for lines it leaves out (its line 2: `{stub}`)"
                )) || reason.contains(&format!("(its added line `{stub}`)")),
                "{agent:?} {stub}: {reason}"
            );
        }
        let written = CART_TOTAL.replace(old, &new);
        let judgment = write_judged_as(Case::Doubt, GateAgent::ClaudeCode, CART_TOTAL, &written);
        assert!(
            deny_reason(&judgment).contains(&format!(
                "its content stands in for lines it leaves out (line 8: `{stub}`)"
            )),
            "{stub}: {}",
            deny_reason(&judgment)
        );
    }
    let todo = old.replace(
        "        return t * (1 + self.tax)\n",
        "        return t * (1 + self.tax)\n        pass  # TODO\n",
    );
    let judgment = judge_on(
        GateAgent::ClaudeCode,
        &payload_for(GateAgent::ClaudeCode, old, &todo),
        CART_TOTAL,
        &Policy::default(),
    );
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// An apply_patch of added lines only under a bare `@@` (Codex and
/// OpenCode append it at the end of the file), sent again after it was
/// applied: the file already ends with its lines. A doubt (it passed, and
/// the migration line was appended twice); the first send is exact.
#[test]
fn a_re_sent_append_is_already_applied() {
    let before = "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);\n";
    let added = "ALTER TABLE users ADD COLUMN email TEXT;\n";
    let text = "*** Begin Patch\n*** Update File: 002_users.sql\n@@\n+ALTER TABLE users ADD COLUMN email TEXT;\n*** End Patch";
    for agent in [GateAgent::Codex, GateAgent::Opencode] {
        let payload = match agent {
            GateAgent::Codex => edit_payload(agent, json!({ "command": text })),
            _ => own_payload("apply_patch", json!({ "patchText": text })),
        };
        for (content, case) in [
            (before.to_string(), Case::Exact),
            (format!("{before}{added}"), Case::Doubt),
        ] {
            let fs = srview::dialect::apply_patch::MemoryFs::new([(
                "002_users.sql".to_string(),
                content,
            )]);
            let judgment = srview::gate::judge(agent, &payload, |_| fs, &Policy::default());
            assert_eq!(judgment.case, case, "{agent:?}: {:?}", judgment.answer);
            if case == Case::Doubt {
                let reason = deny_reason(&judgment);
                assert!(
                    reason.contains(
                        "hunk #1 of 002_users.sql adds its lines at the end of the file, which \
                         already ends with them (line 2): this looks applied already, and \
                         applied again they repeat"
                    ),
                    "{agent:?}: {reason}"
                );
            }
        }
    }
}

/// `agent`'s edit `(old, new)` of the file `name` holding `content`, judged
/// with `failing=repair` (a correction is written where the agent can take
/// one).
fn judged_repairing(
    agent: GateAgent,
    (name, content): (&str, &str),
    old: &str,
    new: &str,
) -> Judgment {
    let policy = Policy::parse("failing=repair").expect("a policy");
    judged_under(&policy, agent, (name, content), old, new)
}

/// `agent`'s edit `(old, new)` of the file `name` holding `content`, judged
/// under `policy`.
fn judged_under(
    policy: &Policy,
    agent: GateAgent,
    (name, content): (&str, &str),
    old: &str,
    new: &str,
) -> Judgment {
    let fs = MemoryFs::new([(name.to_string(), content.to_string())]);
    srview::gate::judge(agent, &payload_of(agent, name, old, new), |_| fs, policy)
}

/// The corrected input of a judgment: the rewrite, else the edit its deny
/// offers; `None` when there is neither.
fn correction_of(judgment: &Judgment) -> Option<Value> {
    match &judgment.answer {
        Answer::Rewrite { .. } => Some(rewritten_input(judgment)),
        _ => offered_input(judgment.agent, &deny_reason(judgment)),
    }
}

const POEM: &str = "# Notes\n\nRoses are red,  \nViolets are blue.\n\nEnd.\n";

/// A Markdown line ending in two spaces (a hard line break) whose old text
/// lost them: the correction carries the file's two spaces onto the line
/// the model rewrites (a tester's find: every agent's correction wrote
/// `Roses are crimson,` without them, and Gemini CLI's repair called it
/// exact). Gemini CLI's whole answer; every agent's correction keeps the
/// break, as does a re-indented list item the model keeps, and the model's
/// own new break.
#[test]
fn a_correction_keeps_a_markdown_hard_break_the_old_text_lost() {
    let (old, new) = (
        "Roses are red,\nViolets are blue.\n",
        "Roses are crimson,\nViolets are blue.\n",
    );
    let gemini = judged_repairing(GateAgent::GeminiCli, ("notes.md", POEM), old, new);
    assert_eq!(
        reply_json(&gemini),
        json!({"hookSpecificOutput": {"hookEventName": "BeforeTool", "tool_input": {
            "file_path": format!("{CWD}/notes.md"), "instruction": "Edit.",
            "old_string": "Roses are red,  \nViolets are blue.\n",
            "new_string": "Roses are crimson,  \nViolets are blue.\n"}}})
    );
    let cases: [(&str, &str, &str, &[&str]); 3] = [
        (
            POEM,
            old,
            new,
            &["Roses are crimson,  ", "Violets are blue."],
        ),
        // Re-indented (sent 2 columns short): the kept item keeps its break.
        (
            "- Fruit\n    - Apple  \n    red\n    - Pear\n",
            "  - Apple\n  red\n  - Pear\n",
            "  - Apple\n  red\n  - Pear\n  - Plum\n",
            &["    - Apple  ", "    red", "    - Pear", "    - Plum"],
        ),
        // The model adds a break of its own: written as it wrote it.
        (
            POEM,
            old,
            "Roses are red,\nViolets are blue.  \n",
            &["Roses are red,  ", "Violets are blue.  "],
        ),
    ];
    for (content, old, new, lines) in cases {
        for agent in OLD_NEW_AGENTS {
            let judgment = judged_repairing(agent, ("notes.md", content), old, new);
            let input = correction_of(&judgment)
                .unwrap_or_else(|| panic!("{agent:?} {new:?}: {:?}", judgment.answer));
            let text = input.to_string();
            // The new text as JSON writes it; Codex: each line added.
            let written: Vec<String> = match agent {
                GateAgent::Codex => lines.iter().map(|l| format!("\\n+{l}\\n")).collect(),
                _ => vec![lines.iter().map(|l| format!("{l}\\n")).collect()],
            };
            for w in written {
                assert!(text.contains(&w), "{agent:?} {new:?}: {w:?} in {text}");
            }
        }
    }
}

/// The model's old and new lines both end in a hard break the file's line
/// does not have: writing it adds a line break, following the file strips
/// the model's; which is meant cannot be told, so no agent gets a
/// correction, and the deny names the line and why. The same when the
/// file's break line is rewritten into two lines.
#[test]
fn a_hard_break_the_correction_cannot_place_is_no_correction() {
    let plain = "# Notes\n\nRoses are red,\nViolets are blue.\n\nEnd.\n";
    let added = |place: &str| {
        format!(
            "No corrected edit: the edit's line `Roses are crimson,  ` ends in two trailing \
             spaces, which {place} (`Roses are red,`) does not have, and the edit's old line has \
             it too: two trailing spaces are a Markdown line break, and whether the model means \
             to add it cannot be told."
        )
    };
    let split = |place: &str| {
        format!(
            "No corrected edit: {place} (`Roses are red,  `) ends in two trailing spaces, which \
             the edit's old line lacks, and the edit rewrites that line into 2 lines: two \
             trailing spaces are a Markdown line break, and which new line should end so cannot \
             be told."
        )
    };
    let cases = [
        (
            plain,
            "Roses are red,  \nViolets are blue.\n",
            "Roses are crimson,  \nViolets are blue.\n",
            added("file line 3"),
            added("the file's line in hunk 1 of notes.md"),
        ),
        (
            POEM,
            "Roses are red,\nViolets are blue.\n",
            "Roses are\ncrimson,\nViolets are blue.\n",
            split("file line 3"),
            split("the file's line in hunk 1 of notes.md"),
        ),
    ];
    for (content, old, new, said, said_of_patch) in cases {
        for agent in OLD_NEW_AGENTS {
            let judgment = judged_repairing(agent, ("notes.md", content), old, new);
            assert!(
                !matches!(judgment.answer, Answer::Rewrite { .. }),
                "{agent:?}: {:?}",
                judgment.answer
            );
            let reason = deny_reason(&judgment);
            assert_eq!(offered_input(agent, &reason), None, "{agent:?}: {reason}");
            let said = match agent {
                GateAgent::Codex => &said_of_patch,
                _ => &said,
            };
            assert!(reason.contains(said.as_str()), "{agent:?}: {reason}");
        }
    }
}

/// The same old text without the file's trailing spaces, in a Python file:
/// trailing white space means nothing there, so the correction is written
/// as before (no doubt, and the model's line as it wrote it).
#[test]
fn trailing_spaces_in_a_python_file_are_corrected_as_before() {
    let file = "LOW_STOCK = 5  \nTAX_RATE = 0.2\n";
    let (old, new) = (
        "LOW_STOCK = 5\nTAX_RATE = 0.2\n",
        "LOW_STOCK = 10\nTAX_RATE = 0.2\n",
    );
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, ("inventory.py", file), old, new);
        assert!(
            matches!(judgment.case, Case::Loose | Case::Failing),
            "{agent:?}: {:?}",
            judgment.case
        );
        let input =
            correction_of(&judgment).unwrap_or_else(|| panic!("{agent:?}: {:?}", judgment.answer));
        let text = input.to_string();
        assert!(text.contains("LOW_STOCK = 10\\n"), "{agent:?}: {text}");
        assert!(!text.contains("LOW_STOCK = 10 "), "{agent:?}: {text}");
    }
}

/// YAML's nesting is its indentation, as Python's: a re-indentation that
/// would put a key the model adds at column 0 (beside an old text sent at
/// column 0 for lines indented 2 columns) into the file's block is
/// withheld for every agent, as for Python (the re-indentation's own check
/// reads no file kind); the uniform shift of the lines it stands behind
/// keeps every line's depth against its neighbours.
#[test]
fn a_yaml_reindentation_never_moves_a_new_key_into_another_mapping() {
    let yaml = "server:\n  port: 80\n  host: a\ndb:\n  name: x\n";
    let (old, new) = ("port: 80\nhost: a\n", "port: 8080\nhost: a\nlogs: on\n");
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, ("config.yaml", yaml), old, new);
        assert_withheld(
            &judgment,
            "No corrected edit: the old text starts at column 0 where the file's lines are \
             indented by 2 columns, and its new line `logs: on` at column 0 stands for none of \
             them: whether the model means it at the file's top level or in their block cannot \
             be told.",
        );
    }
    let new = "port: 8080\nhost: a\n";
    for agent in [GateAgent::GeminiCli, GateAgent::Opencode] {
        let judgment = judged_repairing(agent, ("config.yaml", yaml), old, new);
        let input = correction_of(&judgment).expect("a correction");
        assert!(
            input.to_string().contains("  port: 8080\\n  host: a\\n"),
            "{agent:?}: {input}"
        );
    }
}

/// `config.yaml` of the YAML layout checks: two mappings, a list.
const CONFIG_YAML: &str =
    "server:\n  port: 80\n  host: a\ndb:\n  name: x\nsteps:\n  - name: build\n    run: make\n";

/// What the YAML doubt says of `port` sent at column 0 for `  port: 80`,
/// its next line at the old column (`timeout` lands under `port`).
const PORT_MOVES: &str = "as written, line 2 (`port: 80`) moves the key `port` from under \
     `server` to the top level (1 other key of the new text moves too): the new text's first \
     line is at column 0 where the line it replaces (line 2 of the file before) is at column \
     2, and YAML nests keys by their column: send the new lines at the indentation of the \
     lines they replace";

/// `srview check` of the edit JSON `edit` over config.yaml holding
/// `CONFIG_YAML`: its exit code and its output (stdout, then stderr).
fn check_yaml(edit: &serde_json::Value) -> (i32, String) {
    check_yaml_in(("config.yaml", CONFIG_YAML), edit)
}

/// `srview check` of the edit JSON `edit` over the file `(name, content)`:
/// its exit code and its output (stdout, then stderr).
fn check_yaml_in((name, content): (&str, &str), edit: &serde_json::Value) -> (i32, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join(name);
    std::fs::write(&file, content).expect("write");
    let json = dir.path().join("edit.json");
    std::fs::write(&json, edit.to_string()).expect("write");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_srview"))
        .arg("check")
        .args([&file, &json])
        .output()
        .expect("srview runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code().unwrap_or(-1), text)
}

/// An exact edit whose new text, as placed, puts a YAML key in another
/// mapping than its own text has it in (the old text `  port: 80` under
/// `server:` replaced by `port: 80` at column 0 and `  timeout: 5`: `port`
/// lands at the top level, `timeout` under it; both passed as exact): a
/// doubt for every agent's edit and Codex's patch, and for every agent's
/// write of the same result, naming the key and both mappings; `srview
/// check` exits 1 saying it. The same key moved in a list item, said as
/// such.
#[test]
fn an_exact_edit_that_moves_a_yaml_key_into_another_mapping_is_a_doubt() {
    let (old, new) = ("  port: 80\n", "port: 80\n  timeout: 5\n");
    let cases = [(old, new, PORT_MOVES.to_string())];
    assert_doubts_say(("config.yaml", CONFIG_YAML), &cases);
    let step = (
        "    run: make\n",
        "run: make test\n    shell: bash\n",
        "as written, line 8 (`run: make test`) moves the key `run` from a list item of \
         `steps` to the top level"
            .to_string(),
    );
    assert_doubts_say(("config.yaml", CONFIG_YAML), &[step]);
    // A tester's find: the moved key on the old text's second line, the
    // first kept at its column (only the first line was compared).
    let (second, dedented) = ("  port: 80\n  host: a\n", "  port: 81\nhost: a\n");
    let host = "as written, line 3 (`host: a`) moves the key `host` from under `server` to the \
         top level: the new text sets it at column 0 where the line it rewrites (line 3 of the \
         file before) is at column 2, though neither the edit's old text nor its new text, each \
         read alone, sets it under a key or list item of its own lines, and YAML nests keys by \
         their column";
    assert_doubts_say(
        ("config.yaml", CONFIG_YAML),
        &[(second, dedented, host.to_string())],
    );
    let (code, out) = check_yaml(&json!({
        "file_path": "config.yaml", "old_string": second, "new_string": dedented
    }));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(host), "{out}");
    // The same result written whole.
    let written = CONFIG_YAML.replacen(old, new, 1);
    for agent in WRITE_AGENTS {
        let payload = String::from_utf8(unchecked::write_payload(agent, &written))
            .expect("UTF-8")
            .replace("inventory.py", "config.yaml");
        let fs = MemoryFs::new([("config.yaml".to_string(), CONFIG_YAML.to_string())]);
        let judgment = judge(agent, payload.as_bytes(), |_| fs, &Policy::default());
        assert_case(&judgment, Case::Doubt);
        let reason = deny_reason(&judgment);
        assert!(
            reason.contains(&format!("config.yaml misindented: {PORT_MOVES}")),
            "{agent:?}: {reason}"
        );
    }
    let (code, out) = check_yaml(&json!({
        "file_path": "config.yaml", "old_string": old, "new_string": new
    }));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(&format!("! {PORT_MOVES}\n")), "{out}");
    let (code, out) = check_yaml(&json!({ "file_path": "config.yaml", "content": written }));
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(PORT_MOVES), "{out}");
}

/// Ordinary YAML edits: a value changed, a sibling key added at the same
/// column, a nested mapping added, a list item added, a mapping's keys
/// re-indented alike (2 columns to 4), a key added to a list item, the
/// whole list re-indented to its key's column. Exact for every agent, and `srview
/// check` exits 0 (no doubt).
#[test]
fn ordinary_yaml_edits_are_not_doubted() {
    let cases = [
        ("  port: 80\n", "  port: 8080\n"),
        ("  port: 80\n", "  port: 80\n  timeout: 5\n"),
        (
            "  host: a\n",
            "  host: a\n  tls:\n    cert: c.pem\n    key: c.key\n",
        ),
        (
            "    run: make\n",
            "    run: make\n  - name: test\n    run: make test\n",
        ),
        ("  port: 80\n  host: a\n", "    port: 80\n    host: b\n"),
        ("    run: make\n", "    run: make\n    shell: bash\n"),
        (
            "  - name: build\n    run: make\n",
            "- name: build\n  run: make\n",
        ),
    ];
    for (old, new) in cases {
        for agent in agents() {
            judged_as(Case::Exact, agent, ("config.yaml", CONFIG_YAML), old, new);
        }
        let (code, out) = check_yaml(&json!({
            "file_path": "config.yaml", "old_string": old, "new_string": new
        }));
        assert_eq!(code, 0, "{new:?}: {out}");
        assert!(!out.contains("moves the key"), "{new:?}: {out}");
    }
}

/// A GitHub workflow whose `steps:` list stands at its key's column.
const WORKFLOW_YAML: &str = "name: CI\non:\n  push:\n    branches: [main]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n    - uses: actions/checkout@v3\n    - name: Test\n      run: make test\n";

/// A tester's find: one step of a workflow's compact `steps:` list re-sent
/// indented leaves the next step at the old column, and YAML refuses the
/// file (every job of it lost); passed as exact. A doubt for every agent,
/// naming the line, its column and the sibling's; `srview check` exits 1
/// saying it. Everyday edits of the same file stay exact: a new action
/// version, a step added, the whole list re-indented alike.
#[test]
fn an_exact_edit_that_leaves_a_yaml_lists_items_at_different_columns_is_a_doubt() {
    let file = ("ci.yml", WORKFLOW_YAML);
    let (old, new) = (
        "    - uses: actions/checkout@v3\n",
        "      - uses: actions/checkout@v4\n",
    );
    let said = "as written, line 10 (`- name: Test`) is a list item at column 4 where line 9 \
         (`- uses: actions/checkout@v4`), an item of the same list under `jobs.build.steps`, \
         stands at column 6: YAML refuses the items of one list at different columns (the file \
         no longer parses)";
    assert_doubts_say(file, &[(old, new, said.to_string())]);
    let (code, out) = check_yaml_in(
        file,
        &json!({ "file_path": "ci.yml", "old_string": old, "new_string": new }),
    );
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(said), "{out}");
    let steps = "    - uses: actions/checkout@v3\n    - name: Test\n      run: make test\n";
    for (old, new) in [
        (
            "    - uses: actions/checkout@v3\n",
            "    - uses: actions/checkout@v4\n",
        ),
        (
            "      run: make test\n",
            "      run: make test\n    - name: Lint\n      run: make lint\n",
        ),
        (
            steps,
            "      - uses: actions/checkout@v3\n      - name: Test\n        run: make test\n",
        ),
    ] {
        for agent in agents() {
            judged_as(Case::Exact, agent, file, old, new);
        }
        let (code, out) = check_yaml_in(
            file,
            &json!({ "file_path": "ci.yml", "old_string": old, "new_string": new }),
        );
        assert_eq!(code, 0, "{new:?}: {out}");
    }
}

/// A line of a `"""` string whose trailing spaces the model's old text
/// lost, and which its new text changes: the spaces are the string's
/// content, so no agent gets a correction (Codex's repair wrote the line
/// without them: its patch check did not tell the strings over several
/// lines), and the deny shows the file's line with its spaces.
#[test]
fn trailing_spaces_inside_a_multiline_string_are_never_corrected_away() {
    let file = "HELP = \"\"\"\nusage:  \n  run FILE\n\"\"\"\nX = 1\n";
    assert_withheld_from_old_new_agents(
        ("cli.py", file),
        ("usage:\n  run FILE\n", "Usage:\n  run FILE\n"),
        ("in hunk 1 of cli.py, the file's line", "file line 2"),
        "differs from the edit's line only in white space, but inside a string literal (the \
         file has `usage:  `), and the edit changes that line: written with the model's \
         spacing, the string's content (what the program prints) would change, and whether \
         the file's spacing is to be kept cannot be told.",
    );
}

/// The edit `(old, new)` of the file `name` holding `content`, judged for
/// each agent of `OLD_NEW_AGENTS` under `failing=repair`: withheld, the
/// deny saying `No corrected edit: {place} {why}`, the place as Codex's
/// patch names it, else as the others' edits do (`places`).
fn assert_withheld_from_old_new_agents(
    (name, content): (&str, &str),
    (old, new): (&str, &str),
    places: (&str, &str),
    why: &str,
) {
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, (name, content), old, new);
        let place = match agent {
            GateAgent::Codex => places.0,
            _ => places.1,
        };
        assert_withheld(&judgment, &format!("No corrected edit: {place} {why}"));
    }
}

/// An old text ending between a letter and its combining accent (`Cafe` +
/// U+0301, a decomposed `é`): written, the accent lands on the new text's
/// last letter (`Bistró`: a tester's find, allowed as exact). A doubt for
/// every agent with a string edit, said plainly; the old text with its
/// accent is exact. (Codex's patch lines are whole lines: no such cut.)
#[test]
fn an_old_text_ending_before_a_combining_accent_is_a_doubt() {
    let file = ("n.py", "NAME = \"Cafe\u{301} Noir\"\nOTHER = 1\n");
    for agent in agents().filter(|&a| a != GateAgent::Codex) {
        let reason = deny_reason(&judged_as(
            Case::Doubt,
            agent,
            file,
            "NAME = \"Cafe",
            "NAME = \"Bistro",
        ));
        assert!(
            reason.contains(
                "the edit's old text ends before a combining accent (U+0301) that belongs to \
                 its last letter (`Cafe\u{301}` at line 1): the accent stays in the file and \
                 lands on the new text's last character"
            ),
            "{agent:?}: {reason}"
        );
        judged_as(
            Case::Exact,
            agent,
            file,
            "NAME = \"Cafe\u{301}",
            "NAME = \"Bistro",
        );
    }
}

/// An edit whose new text has CRLF lines, in an LF file: the result mixes
/// line endings where the agent writes them as they are (Claude Code,
/// Qwen Code: a doubt, the deny saying what to send), and not where the
/// agent gives them the file's endings (OpenCode, Gemini CLI, Cline, pi;
/// Codex's patch lines take the file's): exact there. Sent in LF, exact
/// for all.
#[test]
fn crlf_lines_into_an_lf_file_are_a_doubt_where_the_agent_writes_them() {
    let file = ("a.py", "a = 1\nb = 2\nc = 3\n");
    let (old, new) = ("b = 2\n", "b = 20\r\nb2 = 21\r\n");
    for agent in agents() {
        let as_is = matches!(agent, GateAgent::ClaudeCode | GateAgent::QwenCode);
        if as_is {
            let reason = deny_reason(&judged_as(Case::Doubt, agent, file, old, new));
            assert!(
                reason.contains(
                    "the result mixes line endings: the file's lines end in LF, the edit's new \
                     lines in CRLF ("
                ) && reason
                    .contains("writes them as they are): send the new text with LF line endings"),
                "{agent:?}: {reason}"
            );
        } else {
            judged_as(Case::Exact, agent, file, old, new);
        }
        judged_as(Case::Exact, agent, file, old, &new.replace("\r\n", "\n"));
    }
}

/// An executable Python script without `.py`, told Python by its first
/// line (`#!/usr/bin/env python3`, `#!/usr/bin/python3.12`): the edit
/// emptying a block is a doubt for every agent, as in `inventory.py` (a
/// tester's find: it passed as exact). A `#!/bin/sh` script is not read
/// as Python.
#[test]
fn an_edit_that_empties_a_block_of_a_python_script_is_a_doubt() {
    let (old, new) = (
        "        print(\"row\", r)\n",
        "        # print(\"row\", r)\n",
    );
    for shebang in ["#!/usr/bin/env python3", "#!/usr/bin/python3.12 -u"] {
        let script = format!("{shebang}\n{REPORT}");
        for agent in agents() {
            let reason = doubt_reason_in(agent, ("bin/report", &script), old, new);
            assert!(
                reason.contains(
                    "as written, line 15 (`if __name__ == \"__main__\":`) is at column 0, not \
                     deeper than line 11 (`for r in [[1, 2], [3]]:`), which ends with `:`"
                ),
                "{agent:?} {shebang}: {reason}"
            );
        }
    }
    let shell = format!("#!/bin/sh\n{REPORT}");
    for agent in agents() {
        judged_as(Case::Exact, agent, ("bin/report", &shell), old, new);
    }
}

/// `a.py` of a tester's find (the "Trojan Source" pattern).
const ADMIN: &str = "def is_admin(user):\n    access = \"user\"\n    if access != \"none\":\n        return True\n    return False\n";

/// An edit whose new text adds bidirectional controls (U+202E, U+2066,
/// U+2069) or a zero-width space the file did not hold: a doubt for every
/// agent naming the characters and the line (it passed as exact, the
/// text reading as a harmless string). Counted by character: a file
/// holding one U+202E already getting another is a doubt too, saying how
/// many, and one moving the file's own into a code line (tester finding
/// 37/04). The same edit in a Hebrew file that already holds its marks, and
/// an edit keeping them, are exact.
#[test]
fn an_edit_adding_bidi_controls_or_zero_width_characters_is_a_doubt() {
    let old = "    access = \"user\"\n";
    let trojan = "    access = \"user\u{202e} \u{2066}// Check if admin\u{2069} \u{2066}\"\n";
    let cases = [
        (
            old,
            trojan,
            "adds invisible bidirectional control characters the file did not hold (U+202E \
             RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, U+2069 POP DIRECTIONAL \
             ISOLATE, at line 2): they reorder or hide the text around them, so the line reads \
             otherwise in an editor than a compiler reads it: send the text without them, or \
             write them as escapes (`\\u202E`) where they are meant"
                .to_string(),
        ),
        (
            "    return False\n",
            "    return is_\u{200b}admin\n",
            "adds invisible zero-width characters the file did not hold (U+200B ZERO WIDTH \
             SPACE, at line 5)"
                .to_string(),
        ),
    ];
    assert_doubts_say(("a.py", ADMIN), &cases);
    let held = ADMIN.replace("\"none\"", "\"none\u{202e}\"");
    let more = [(
        "    return False\n",
        "    return \"\u{202e}\" == access\n",
        "adds more invisible bidirectional control characters than the file held (U+202E \
         RIGHT-TO-LEFT OVERRIDE: 1 more than the file's 1, at line 5)"
            .to_string(),
    )];
    assert_doubts_say(("a.py", &held), &more);
    // The file's one taken out of its string and put in a code line by one
    // edit over both, as many as before (tester finding 37/04).
    let moved = [(
        "    if access != \"none\u{202e}\":\n        return True\n    return False\n",
        "    if access != \"none\":\n        return True\n    return False # \u{202e} } if (user.guest) {\n",
        "puts invisible bidirectional control characters the file held where they were not \
         (U+202E RIGHT-TO-LEFT OVERRIDE, at line 5): they reorder or hide the text around them"
            .to_string(),
    )];
    assert_doubts_say(("a.py", &held), &moved);
    for agent in agents() {
        let (old, new) = (
            "    if access != \"none\u{202e}\":\n",
            "    if access == \"none\u{202e}\":\n",
        );
        judged_as(Case::Exact, agent, ("a.py", &held), old, new);
    }
    let hebrew = ADMIN.replace("\"none\"", "\"\u{200f}אין\"");
    for agent in agents() {
        for (old, new) in [
            (
                "    access = \"user\"\n",
                "    access = \"\u{200f}משתמש\"\n",
            ),
            ("        return True\n", "        return \"\u{200f}אין\"\n"),
        ] {
            judged_as(Case::Exact, agent, ("a.py", &hebrew), old, new);
        }
    }
}

/// A whole-file write adding a right-to-left override, over a file or as
/// a new one: a doubt for every agent with a write tool, as the same text
/// sent as an edit is.
#[test]
fn a_write_adding_bidi_controls_is_a_doubt() {
    let content = ADMIN.replace("\"user\"", "\"user\u{202e} \u{2066}// admin\u{2069}\"");
    for before in [Some(ADMIN), None] {
        for agent in WRITE_AGENTS {
            let files: Vec<(String, String)> = before
                .map(|b| ("inventory.py".to_string(), b.to_string()))
                .into_iter()
                .collect();
            let judgment = write_judged_in(Case::Doubt, agent, MemoryFs::new(files), &content);
            let reason = deny_reason(&judgment);
            assert!(
                reason.contains(
                    "its content adds invisible bidirectional control characters the file did \
                     not hold (U+202E RIGHT-TO-LEFT OVERRIDE, U+2066 LEFT-TO-RIGHT ISOLATE, \
                     U+2069 POP DIRECTIONAL ISOLATE, at line 2)"
                ),
                "{agent:?}: {reason}"
            );
        }
    }
}

/// A Makefile recipe with a continuation line aligned with spaces after
/// its tab (`\t    lint clean"`, inside a quoted `echo`), the edit's old
/// text written with four spaces for the tab (a tester's find): the
/// correction gives the changed recipe line the file's tab and carries the
/// continuation line the model keeps byte for byte (it was rewritten to
/// five tabs, which changed what `make help` prints). Claude Code's whole
/// deny; every agent's correction keeps the line and applies exactly.
#[test]
fn a_correction_carries_a_kept_recipe_continuation_byte_for_byte() {
    let makefile = ".PHONY: help\nhelp:\n\t@echo \"targets: build test \\\n\t    lint clean\"\n";
    let old = "help:\n    @echo \"targets: build test \\\n        lint clean\"\n";
    let new = "help:\n    @echo \"targets: build test fmt \\\n        lint clean\"\n";
    let file = ("Makefile", makefile);
    let claude = judged_as(Case::Failing, GateAgent::ClaudeCode, file, old, new);
    let reason = deny_reason(&claude);
    assert_eq!(
        reason.split_once("Send this Edit input instead").map(|(_, after)| after),
        Some(
            format!(
                " (srview checked that Claude Code places it exactly):\n{}",
                json!({
                    "file_path": format!("{CWD}/Makefile"),
                    "new_string": "help:\n\t@echo \"targets: build test fmt \\\n\t    lint clean\"\n",
                    "old_string": "help:\n\t@echo \"targets: build test \\\n\t    lint clean\"\n",
                    "replace_all": false
                })
            )
            .as_str()
        ),
        "{reason}"
    );
    // Applied as the model would resend it: the continuation line is the
    // file's, byte for byte.
    let offered = offered_input(GateAgent::ClaudeCode, &reason).expect("an offered edit");
    let (Some(from), Some(to)) = (
        offered["old_string"].as_str(),
        offered["new_string"].as_str(),
    ) else {
        panic!("{offered}");
    };
    let after = makefile.replacen(from, to, 1);
    assert_eq!(after.lines().nth(3), makefile.lines().nth(3), "{after:?}");
    assert_ne!(after, makefile);
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, file, old, new);
        let input =
            correction_of(&judgment).unwrap_or_else(|| panic!("{agent:?}: {:?}", judgment.answer));
        // (Codex's matcher is run over inventory.py: its patch is read
        // below.)
        if agent != GateAgent::Codex {
            assert_exact_with_agents_matcher(agent, &input, makefile);
        }
        let text = input.to_string();
        // The changed line with the file's tab, the kept one as it is;
        // Codex: each line added.
        let lines = [
            "\\t@echo \\\"targets: build test fmt \\\\",
            "\\t    lint clean\\\"",
        ];
        for line in lines {
            let written = match agent {
                GateAgent::Codex => format!("\\n+{line}\\n"),
                _ => format!("{line}\\n"),
            };
            assert!(text.contains(&written), "{agent:?}: {written} in {text}");
        }
        assert!(!text.contains("\\t\\t"), "{agent:?}: {text}");
    }
}

/// render.js of the round-38a finding 01: `formatPrice` is there.
const RENDER_JS: &str = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nfunction render(items) {\n  return items.map((i) => formatPrice(i.price)).join(\"\\n\");\n}\n\nmodule.exports = { render };\n";

/// A tester's find (round 38a, 01): a helper the file already has, added
/// again before the exports (another anchor than the copy's, so its text
/// is not "already there" beside it), passed every agent's gate. Go's
/// package no longer compiles, JavaScript keeps the later copy. Denied,
/// in every agent's shape, saying where both stand.
#[test]
fn a_function_added_again_at_another_place_is_a_doubt() {
    let old = "module.exports = { render };\n";
    let new = "function formatPrice(p) {\n  return \"$\" + p.toFixed(2);\n}\n\nmodule.exports = { render };\n";
    let said = "as written, the file defines function `formatPrice` twice at its top level, at \
                lines 1 and 9: JavaScript keeps the later one (line 9) without a word, and the one \
                at line 1 never runs";
    assert_doubts_say(("render.js", RENDER_JS), &[(old, new, said.to_string())]);
    let go = "package main\n\nfunc normalize(s string) string {\n\treturn s\n}\n\nfunc parse() {\n}\n\nfunc main() {\n}\n";
    let said = "as written, the file defines func `normalize` twice at its top level, at lines 3 \
                and 10: Go refuses to compile the package (normalize redeclared in this block)";
    assert_doubts_say(
        ("main.go", go),
        &[(
            "func main() {\n",
            "func normalize(s string) string {\n\treturn s\n}\n\nfunc main() {\n",
            said.to_string(),
        )],
    );
}

/// A tester's find (round 38a, 04): an exact edit that loses a block's
/// closing `}` (the file balanced before, one `}` short after) passed the
/// gate of Claude Code and pi. Denied, in every agent's shape, naming the
/// brace and its line.
#[test]
fn an_edit_dropping_a_closing_brace_is_a_doubt() {
    let check_js =
        "function check(u) {\n  if (!u) {\n    return false;\n  }\n  return u.active;\n}\n";
    let said = "as written, the file has one `}` fewer than `{` (srview counts them outside \
                strings and comments; the file before has as many of each): the edit's old text \
                closes a block its new text does not close (line 4 `}`): send the new text with \
                its closing `}`";
    assert_doubts_say(
        ("c.js", check_js),
        &[(
            "  if (!u) {\n    return false;\n  }\n  return u.active;\n",
            "  if (!u) {\n    log(\"no user\");\n    return false;\n  return u.active;\n",
            said.to_string(),
        )],
    );
    let main_rs = "fn greet(name: &str) -> String {\n    format!(\"Hi {}\", name)\n}\n\nfn main() {\n    println!(\"{}\", greet(\"a\"));\n}\n";
    let said = "the edit's old text closes a block its new text does not close (line 3 `}`)";
    assert_doubts_say(
        ("main.rs", main_rs),
        &[(
            "    format!(\"Hi {}\", name)\n}\n\nfn main() {\n",
            "    format!(\"Hi {}!\", name)\n\nfn main() {\n",
            said.to_string(),
        )],
    );
}

/// Brace edits that leave the file balanced pass: a whole function
/// added, a brace moved onto the line before, a file that read unbalanced
/// before; pi's two edits that balance together (one alone would not).
#[test]
fn a_balanced_brace_edit_is_not_doubted() {
    let file = "function a(x) {\n  if (x) {\n    b();\n  }\n  c();\n}\n";
    let cases = [
        (
            "  c();\n}\n",
            "  c();\n}\n\nfunction d(y) {\n  return [y, { y }];\n}\n",
        ),
        ("    b();\n  }\n", "    b(); }\n"),
    ];
    for (old, new) in cases {
        for agent in agents() {
            judged_as(Case::Exact, agent, ("c.js", file), old, new);
        }
    }
    let unbalanced = "function a(x) {\n  if (x) {\n    b();\n  c();\n}\n";
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("c.js", unbalanced),
        "    b();\n",
        "    b(); }\n  }\n",
    );
    let payload = own_payload(
        "edit",
        json!({"path": "c.js", "edits": [
            {"oldText": "    b();\n  }\n", "newText": "    b();\n"},
            {"oldText": "  c();\n", "newText": "    c();\n  }\n"},
        ]}),
    );
    let fs = MemoryFs::new([("c.js".to_string(), file.to_string())]);
    let judgment = srview::gate::judge(GateAgent::Pi, &payload, |_| fs, &Policy::default());
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// A tester's find (round 38e, 05): `#[inline]` above a Rust function
/// switched the "defined twice" check off, on either copy, and `rustc`
/// refused the result (E0428). Denied, with or without the attribute on
/// the new copy; `#[cfg]` twins gated apart stay allowed.
#[test]
fn a_rust_function_added_again_below_any_attribute_is_a_doubt() {
    let lib = "#[inline]\npub fn clamp(x: i32) -> i32 {\n    x.max(0).min(10)\n}\n\npub fn helper() {}\n\npub fn run() -> i32 {\n    clamp(5)\n}\n";
    let said = "as written, the file defines fn `clamp` twice at its top level, at lines 2 and 9: \
                Rust refuses to compile it (the name `clamp` is defined multiple times)";
    let news: Vec<String> = ["#[inline]\n", "#[must_use]\n"]
        .iter()
        .map(|attr| {
            format!(
                "{attr}pub fn clamp(x: i32) -> i32 {{\n    x.clamp(0, 10)\n}}\n\npub fn run() -> i32 {{\n"
            )
        })
        .collect();
    let cases: Vec<(&str, &str, String)> = news
        .iter()
        .map(|new| ("pub fn run() -> i32 {\n", new.as_str(), said.to_string()))
        .collect();
    assert_doubts_say(("lib.rs", lib), &cases);
    let said = said.replace("lines 2 and 9", "lines 2 and 8");
    assert_doubts_say(
        ("lib.rs", lib),
        &[(
            "pub fn run() -> i32 {\n",
            "pub fn clamp(x: i32) -> i32 {\n    x.clamp(0, 10)\n}\n\npub fn run() -> i32 {\n",
            said,
        )],
    );
    let home = "#[cfg(unix)]\nfn home() {}\n\nfn main() {}\n";
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("lib.rs", home),
        "fn main() {}\n",
        "#[cfg(not(unix))]\n#[inline]\nfn home() {}\n\nfn main() {}\n",
    );
}

/// A tester's find (round 38e, 02): TypeScript overload signatures over
/// several lines (Prettier's layout) or with a comment after them were
/// taken for a second implementation, and the correct edit denied. Exact
/// for every agent.
#[test]
fn overload_signatures_over_lines_or_commented_are_not_doubted() {
    let parse =
        "export function parse(input: string | Buffer): number {\n  return input.length;\n}\n";
    let old = "export function parse(input: string | Buffer): number {\n";
    let news = [
        "export function parse(\n  input: string,\n): number;\nexport function parse(input: Buffer): number;\nexport function parse(input: string | Buffer): number {\n",
        "export function parse(input: string): number; // text\nexport function parse(input: Buffer): number; // bytes\nexport function parse(input: string | Buffer): number {\n",
    ];
    for new in news {
        for agent in agents() {
            judged_as(Case::Exact, agent, ("parse.ts", parse), old, new);
        }
    }
}

/// A tester's find (round 38e, 04): package.json's `"scripts"` added again
/// with its one new script (`JSON.parse` keeps the later: `build` and
/// `test` lost), a quoted YAML key beside the plain one, and a key twice
/// in a YAML flow mapping were allowed. Denied, in every agent's shape.
#[test]
fn a_json_or_quoted_or_flow_yaml_key_added_again_is_a_doubt() {
    let package = "{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"build\": \"tsc\",\n    \"test\": \"jest\"\n  },\n  \"dependencies\": {\n    \"react\": \"^18.2.0\"\n  }\n}\n";
    let said = "as written, the file has the key `scripts` twice at the top level, at lines 3 and \
                7: JSON.parse (Node, npm and most JSON readers) keeps the later value (line 7) \
                without a word, and the one at line 3 is lost";
    assert_doubts_say(
        ("package.json", package),
        &[(
            "  \"dependencies\": {\n",
            "  \"scripts\": {\n    \"lint\": \"eslint .\"\n  },\n  \"dependencies\": {\n",
            said.to_string(),
        )],
    );
    let said = "as written, the file has the key `host` twice in the mapping under line 1 \
                (`server:`), at lines 2 and 4";
    assert_doubts_say(
        ("q.yaml", "server:\n  host: localhost\n  port: 8080\n"),
        &[(
            "  port: 8080\n",
            "  port: 8080\n  \"host\": 0.0.0.0\n",
            said.to_string(),
        )],
    );
    let said = "as written, the file has the key `cpu` twice in one flow mapping on line 2";
    assert_doubts_say(
        ("k.yaml", "server:\n  limits: {cpu: 1, memory: 2Gi}\n"),
        &[(
            "  limits: {cpu: 1, memory: 2Gi}\n",
            "  limits: {cpu: 1, memory: 2Gi, cpu: 2}\n",
            said.to_string(),
        )],
    );
    // Another object's key of that name: exact.
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("package.json", package),
        "    \"react\": \"^18.2.0\"\n",
        "    \"react\": \"^18.2.0\",\n    \"build\": \"1.0.0\"\n",
    );
}

/// A tester's find (round 38e, 03): a definition re-sent changed a little
/// was allowed unless it was a column-0 `function`/`fn`/`func`: a JS
/// `const` (a SyntaxError), a TypeScript class method, a Rust `impl`
/// method (E0592) and `struct` (E0428), a Go `type`. Denied, in every
/// agent's shape; a getter beside its setter is exact.
#[test]
fn consts_classes_methods_and_types_added_again_are_a_doubt() {
    let cases = [
        (
            "f.js",
            "export const formatPrice = (p) => {\n  return '$' + p.toFixed(2);\n};\n\nexport function render(items) {\n  return items.map((i) => formatPrice(i.price));\n}\n\nexport default render;\n",
            "export default render;\n",
            "export const formatPrice = (p) => {\n  return '$' + p.toFixed(3);\n};\n\nexport default render;\n",
            "as written, the file defines const `formatPrice` twice at its top level, at lines 1 \
             and 9: JavaScript refuses to load the file (SyntaxError: Identifier 'formatPrice' \
             has already been declared)",
        ),
        (
            "f.ts",
            "class Cart {\n  total() {\n    return 1;\n  }\n\n  clear() {\n    this.items = [];\n  }\n}\n",
            "  clear() {\n",
            "  total() {\n    return 2;\n  }\n\n  clear() {\n",
            "as written, the file defines method `total` twice in `class Cart` (line 1), at lines \
             2 and 6: TypeScript refuses the file (Duplicate function implementation)",
        ),
        (
            "f.rs",
            "struct S;\n\nimpl S {\n    fn area(&self) -> u32 {\n        1\n    }\n\n    fn name(&self) -> &str {\n        \"s\"\n    }\n}\n",
            "    fn name(&self) -> &str {\n",
            "    fn area(&self) -> u32 {\n        2\n    }\n\n    fn name(&self) -> &str {\n",
            "as written, the file defines fn `area` twice in `impl S` (line 3), at lines 4 and 8: \
             Rust refuses to compile it (duplicate definitions with name `area`)",
        ),
        (
            "f.rs",
            "struct Config {\n    a: u32,\n}\n\nfn helper() {}\n\nfn main() {}\n",
            "fn main() {}\n",
            "struct Config {\n    a: u32,\n    b: u32,\n}\n\nfn main() {}\n",
            "as written, the file defines struct `Config` twice at its top level, at lines 1 and \
             7: Rust refuses to compile it (the name `Config` is defined multiple times)",
        ),
        (
            "f.go",
            "package p\n\ntype Config struct {\n\tA int\n}\n\nfunc helper() {}\n\nfunc Use() {}\n",
            "func Use() {}\n",
            "type Config struct {\n\tA int\n\tB int\n}\n\nfunc Use() {}\n",
            "as written, the file defines type `Config` twice at its top level, at lines 3 and 9: \
             Go refuses to compile the package (Config redeclared in this block)",
        ),
    ];
    for (name, content, old, new, said) in cases {
        assert_doubts_say((name, content), &[(old, new, said.to_string())]);
    }
    judged_as(
        Case::Exact,
        GateAgent::ClaudeCode,
        ("a.ts", "class A {\n  get x() {\n    return 1;\n  }\n}\n"),
        "  get x() {\n",
        "  set x(v) {\n  }\n  get x() {\n",
    );
}

// --- tester round 40a: patch and insert calls judged as `check` judges them ---

/// Cline CLI's recorded payload with its call replaced by `tool`'s `input`
/// in both places the payload holds it.
fn clines_call(tool: &str, input: Value) -> Vec<u8> {
    let mut payload: Value =
        serde_json::from_slice(&super::real_cli::clines_edit("", "")).expect("JSON");
    payload["tool_call"]["name"] = tool.into();
    payload["tool_call"]["input"] = input.clone();
    payload["preToolUse"] = json!({"toolName": tool, "parameters": input});
    payload.to_string().into_bytes()
}

const SVC_40A: &str = "def start(cfg):\n    retries = 3\n    connect(cfg)\n\n\ndef helper():\n    return 1\n\n\ndef stop(cfg):\n    retries = 3\n    disconnect(cfg)\n";

/// Round 40a's finds 02 to 05 and 07: OpenCode's and Cline's `apply_patch`
/// calls their own matchers place, each judged a doubt by the gate in the
/// same words as `check --dialect` says it (the sentences come from the
/// matcher's run: [`srview::dialect::patch_family`]); the first send of a
/// hunk later sent again is exact.
#[test]
fn patch_calls_are_doubted_in_checks_words() {
    let shapes = "class Circle:\n    def __init__(self, r):\n        self.r = r\n\n    def area(self):\n        return 3.14159 * self.r ** 2\n\n\nclass Square:\n    def __init__(self, s):\n        self.s = s\n\n    def area(self):\n        return self.s ** 2\n";
    let order = "def order_total(subtotal, shipping):\n    total = subtotal\n    total += shipping\n    return total\n";
    let wrap = |body: &str| format!("*** Begin Patch\n{body}*** End Patch\n");
    let cases = [
        (
            GateAgent::Opencode,
            ("shapes.py", shapes),
            wrap(
                "*** Update File: shapes.py\n@@ class Circle:\n+    def perimeter(self):\n+        return 2 * 3.14159 * self.r\n+\n",
            ),
            "hunk #1 of shapes.py adds its lines at the end of the file, after line 14, not after \
             its @@ line 'class Circle:' (line 1): OpenCode's apply_patch puts a hunk with no \
             context or removed lines at the end of the file, whatever its @@ line",
        ),
        (
            GateAgent::Opencode,
            ("svc.py", SVC_40A),
            wrap("*** Delete File: svc.py\n*** Add File: svc.py\n+x = 1\n"),
            "the patch deletes svc.py (section 1) and adds it again: OpenCode's apply_patch \
             replaces its 12 lines whole",
        ),
        (
            GateAgent::ClineCli,
            ("order.py", order),
            wrap("*** Update File: order.py\n@@     total = subtotal\n+    total += shipping\n"),
            "edit 1: its new text is already there (line 3, right after its @@ line 'total = \
             subtotal' at line 2, where Cline's apply_patch puts it): this looks applied \
             already, and applied again it repeats what it adds",
        ),
        (
            GateAgent::ClineCli,
            ("svc.py", SVC_40A),
            wrap("*** Update File: svc.py\n@@     retries = 3\n+    timeout = 10\n"),
            "edit 1: its @@ line 'retries = 3' stands at line 2 and also at line 11: Cline's \
             apply_patch puts the added lines after the first, which may not be the one meant",
        ),
        (
            GateAgent::ClineCli,
            (
                "run.sh",
                "#!/bin/bash\nset -e\n\nbuild() {\n  make all\n}\n\nbuild\n",
            ),
            wrap("*** Update File: run.sh\n@@ build()\n+  export CC=clang\n"),
            "edit 1: its @@ line 'build()' stands nowhere in run.sh: Cline's apply_patch puts its \
             1 added line at the top of the file, before line 1, not where the @@ line names",
        ),
        (
            GateAgent::ClineCli,
            ("svc.py", SVC_40A),
            wrap("*** Update File: svc.py\n@@ def stop(cfg)\n+    timeout = 10\n"),
            "the patch leaves svc.py misindented: as written, line 1 (`timeout = 10`) is at \
             column 4, deeper than the line before it, which opens no block",
        ),
    ];
    for (agent, (name, content), patch, said) in &cases {
        let (dialect, payload) = match agent {
            GateAgent::Opencode => (
                "opencode-apply-patch",
                own_payload("apply_patch", json!({ "patchText": patch })),
            ),
            _ => (
                "cline-apply-patch",
                clines_call("apply_patch", json!({ "input": patch })),
            ),
        };
        let fs = MemoryFs::new([(name.to_string(), content.to_string())]);
        let judgment = srview::gate::judge(*agent, &payload, |_| fs, &Policy::default());
        assert_eq!(
            judgment.case,
            Case::Doubt,
            "{agent:?} {name}: {:?}",
            judgment.answer
        );
        let reason = deny_reason(&judgment);
        assert!(reason.contains(said), "{agent:?}: {reason}");
        // `check --dialect` reads the same sentence from the same run.
        let row = registry::find(dialect).expect("row");
        let key = row.text_field.expect("a patch field");
        let input = json!({ key: patch });
        let fs = MemoryFs::new([(name.to_string(), content.to_string())]);
        let outcome = row
            .matcher()
            .expect("matcher")
            .run(&srview::dialect::call::ToolCall {
                input: &input,
                cwd: CWD,
                fs: &fs,
            });
        let checked = srview::dialect::call_doubts::exact_doubts(
            &outcome,
            &|_| Some(content.to_string()),
            srview::dialect::call_doubts::Judged::of(row, &None),
        );
        assert!(
            checked.iter().any(|d| d.contains(said)),
            "{dialect}: {checked:?}"
        );
    }
    // The hunk's first send.
    let first = order.replace("    total += shipping\n", "");
    let fs = MemoryFs::new([("order.py".to_string(), first)]);
    let payload = clines_call("apply_patch", json!({ "input": cases[2].2 }));
    let judgment = srview::gate::judge(GateAgent::ClineCli, &payload, |_| fs, &Policy::default());
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// Round 40a's find 08: Cline's editor `insert_line` sent again after it
/// applied: its line already stands right after the boundary. A doubt (a
/// cancel), as `check` says; the first send is exact.
#[test]
fn a_cline_insert_line_sent_again_is_applied_already() {
    let again = "def total(items):\n    s = sum(items)\n    s += 5\n    return s\n";
    let first = "def total(items):\n    s = sum(items)\n    return s\n";
    let payload = clines_call(
        "editor",
        json!({"path": format!("{CWD}/t2.py"), "insert_line": 3, "new_text": "    s += 5"}),
    );
    for (content, case) in [(again, Case::Doubt), (first, Case::Exact)] {
        let fs = MemoryFs::new([("t2.py".to_string(), content.to_string())]);
        let judgment =
            srview::gate::judge(GateAgent::ClineCli, &payload, |_| fs, &Policy::default());
        assert_eq!(judgment.case, case, "{:?}", judgment.answer);
        if case == Case::Doubt {
            let reason = deny_reason(&judgment);
            assert!(
                reason.contains(
                    "its new text is already there (line 3, right after the line boundary it \
                     inserts at): this looks applied already, and applied again it repeats what \
                     it adds"
                ),
                "{reason}"
            );
        }
    }
}

/// A tester's find (round 40a, 01): a second definition of a shell
/// function, a Ruby method or a Make target's recipe was allowed by every
/// agent's gate; the later one wins when the file runs. Denied now, in
/// every agent's shape, naming both lines; a definition in an `if`'s other
/// branch is an alternative and passes.
#[test]
fn a_shell_function_ruby_method_or_make_recipe_added_again_is_a_doubt() {
    let cases = [
        (
            "run.sh",
            "#!/bin/bash\nset -e\n\nbuild() {\n  make all\n}\n\nbuild\n",
            "set -e\n",
            "set -e\n\nbuild() {\n  make all -j4\n}\n",
            "as written, the file defines function `build` twice at its top level, at lines 4 \
             and 8: bash keeps the later one (line 8) without a word, and the one at line 4 \
             never runs",
        ),
        (
            "cart.rb",
            "class Cart\n  def initialize\n    @items = []\n  end\n\n  def total\n    @items.size\n  end\nend\n",
            "  def initialize\n",
            "  def total\n    @items.sum(&:price)\n  end\n\n  def initialize\n",
            "as written, the file defines method `total` twice in `class Cart` (line 1), at lines \
             2 and 10: Ruby keeps the later one (line 10)",
        ),
        (
            "Makefile",
            "all: build\n\nbuild:\n\tgcc -o app main.c\n",
            "all: build\n",
            "all: build\n\nbuild:\n\tgcc -O2 -o app main.c\n",
            "as written, the Makefile gives target `build` two recipes, at lines 3 and 6: make \
             runs the later one (line 6)",
        ),
    ];
    for (name, content, old, new, said) in cases {
        assert_doubts_say((name, content), &[(old, new, said.to_string())]);
    }
    let branches = "#!/bin/bash\nif [ -n \"$FAST\" ]; then\n  build() { make -j4; }\nfi\n";
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            ("run.sh", branches),
            "fi\n",
            "else\n  build() { make; }\nfi\n",
        );
    }
}

/// A tester's find (round 40a, 10): a method made abstract (`@abstractmethod`
/// given by the edit) or a `Protocol`'s member (the class above the edit)
/// whose body is `...` was denied as standing in for the lines it
/// replaces. Allowed now; in a plain class the `...` is still a stand-in.
/// (Codex's patch hunk is judged on its own lines: the decorator case.)
#[test]
fn an_abstract_method_or_protocol_member_body_is_not_a_stand_in() {
    let get = "    def get(self, key: str) -> bytes:\n        data = self._db.read(key)\n        self._hits += 1\n        log(key)\n        return data\n";
    let declared = "    def get(self, key: str) -> bytes:\n        ...\n";
    let abc = format!("from abc import ABC, abstractmethod\n\n\nclass Store(ABC):\n{get}");
    let protocol = format!("from typing import Protocol\n\n\nclass Store(Protocol):\n{get}");
    for agent in agents() {
        let abstract_get = format!("    @abc.abstractmethod\n{declared}");
        judged_as(Case::Exact, agent, ("store.py", &abc), get, &abstract_get);
        if agent != GateAgent::Codex {
            judged_as(Case::Exact, agent, ("store.py", &protocol), get, declared);
        }
    }
    let plain = format!("class Store(Base):\n{get}");
    assert_doubts_say(
        ("store.py", &plain),
        &[(
            get,
            declared,
            // Codex's hunk: "(its added line `...`)".
            "stands in for lines it leaves out (its ".to_string(),
        )],
    );
}

// --- tester round 40a: where patch hunks of added lines land ---

/// Round 40a's finds 09 to 12 at the gate: a Cline hunk under a bare `@@`
/// put above a `#!` line or Go's `package` clause (09) and a Codex hunk
/// under `@@ class Square:` indented for a method's body, appended after
/// its `return` (12) are denied; a Cline hunk of a method under `@@ class
/// Cart:` is judged where Cline puts it, right after that line (11:
/// allowed); a Codex hunk making a `Protocol`'s member `...` without the
/// class line in the hunk is no stand-in (10: the file above is read).
#[test]
fn patch_hunks_are_judged_where_they_land() {
    let wrap = |body: &str| format!("*** Begin Patch\n{body}*** End Patch\n");
    let tool = "#!/usr/bin/env python3\n\"\"\"Tool.\"\"\"\nfrom __future__ import annotations\n\nimport sys\n";
    let go = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(1)\n}\n";
    let shapes = "class Circle:\n    def area(self):\n        return 3.14159 * self.r ** 2\n\n\nclass Square:\n    def __init__(self, s):\n        self.s = s\n\n    def area(self):\n        return self.s ** 2\n";
    let cart = "class Cart:\n    def __init__(self):\n        self.items = []\n\n\nCART = Cart()\n";
    let store = "from typing import Protocol\n\n\nclass Store(Protocol):\n    def get(self, key: str) -> bytes:\n        data = self._db.read(key)\n        self._hits += 1\n        log(key)\n        return data\n";
    let cases = [
        (
            GateAgent::ClineCli,
            ("tool.py", tool),
            wrap("*** Update File: tool.py\n@@\n+def helper(x):\n+    return x * 2\n+\n"),
            Some(
                "edit 1: Cline's apply_patch puts its 2 added lines at the top of the file, above \
                 line 1 '#!/usr/bin/env python3', which must stay above the file's code",
            ),
        ),
        (
            GateAgent::ClineCli,
            ("main.go", go),
            wrap("*** Update File: main.go\n@@\n+func double(x int) int {\n+\treturn x * 2\n+}\n"),
            Some("at the top of the file, above line 1 'package main'"),
        ),
        (
            GateAgent::Codex,
            ("shapes.py", shapes),
            wrap("*** Update File: shapes.py\n@@ class Square:\n+        self.color = \"red\"\n"),
            Some(
                "hunk #1 of shapes.py adds its lines at the end of the file, after line 11 \
                 `return self.s ** 2`, where they never run, not right after its @@ line 'class \
                 Square:' (line 6)",
            ),
        ),
        (
            GateAgent::Codex,
            ("shapes.py", shapes),
            wrap(
                "*** Update File: shapes.py\n@@ class Square:\n+\n+    def side(self):\n+        return self.s\n",
            ),
            None,
        ),
        (
            GateAgent::ClineCli,
            ("c2.py", cart),
            wrap(
                "*** Update File: c2.py\n@@ class Cart:\n+    def clear(self):\n+        self.items = []\n+\n",
            ),
            None,
        ),
        (
            GateAgent::Codex,
            ("store.py", store),
            wrap(
                "*** Update File: store.py\n@@\n     def get(self, key: str) -> bytes:\n-        data = self._db.read(key)\n-        self._hits += 1\n-        log(key)\n-        return data\n+        ...\n",
            ),
            None,
        ),
    ];
    for (agent, (name, content), patch, said) in &cases {
        let payload = match agent {
            GateAgent::Codex => edit_payload(*agent, json!({ "command": patch })),
            _ => clines_call("apply_patch", json!({ "input": patch })),
        };
        let fs = MemoryFs::new([(name.to_string(), content.to_string())]);
        let judgment = srview::gate::judge(*agent, &payload, |_| fs, &Policy::default());
        match said {
            Some(said) => {
                assert_eq!(judgment.case, Case::Doubt, "{name}: {:?}", judgment.answer);
                let reason = deny_reason(&judgment);
                assert!(reason.contains(said), "{agent:?}: {reason}");
            }
            None => assert_eq!(judgment.case, Case::Exact, "{name}: {:?}", judgment.answer),
        }
    }
}

/// A tester's find (round 42b, 02): a Claude Code `Edit` of a CRLF file
/// sent with CRLF endings fails (Claude Code matches the file with its
/// `\r\n` turned to `\n`); the corrected edit gave `old_string` LF endings
/// and kept `new_string`'s CRLF, which Claude Code writes back as
/// `\r\r\n`. The correction's new text has LF endings too, and applied as
/// offered the file keeps CRLF on every line; the damaged form is a doubt.
#[test]
fn a_crlf_edits_correction_gives_its_new_text_the_files_view_of_endings() {
    let content = "import os\r\n\r\ndef main():\r\n    print(\"hi\")\r\n    return 0\r\n";
    let old = "    print(\"hi\")\r\n    return 0\r\n";
    let new = "    print(\"hi\")\r\n    print(\"bye\")\r\n    return 0\r\n";
    let claude = judged_as(
        Case::Failing,
        GateAgent::ClaudeCode,
        ("app.py", content),
        old,
        new,
    );
    let reason = deny_reason(&claude);
    let offered = offered_input(GateAgent::ClaudeCode, &reason).expect("an offered edit");
    assert_eq!(
        offered["new_string"], "    print(\"hi\")\n    print(\"bye\")\n    return 0\n",
        "{reason}"
    );
    let (Some(from), Some(to)) = (
        offered["old_string"].as_str(),
        offered["new_string"].as_str(),
    ) else {
        panic!("{offered}");
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("app.py");
    std::fs::write(&path, content).expect("write");
    let edit =
        json!({"file_path": path.display().to_string(), "old_string": from, "new_string": to});
    let edit_path = dir.path().join("e.json");
    std::fs::write(&edit_path, edit.to_string()).expect("write");
    let out = support::runner::srview([
        "apply",
        &path.display().to_string(),
        &edit_path.display().to_string(),
        "--write",
    ])
    .output();
    support::runner::assert_exit(&out, 0, "apply --write of the correction");
    assert_eq!(
        std::fs::read_to_string(&path).expect("read"),
        "import os\r\n\r\ndef main():\r\n    print(\"hi\")\r\n    print(\"bye\")\r\n    return 0\r\n"
    );
    // The correction as it was (CRLF new text): `check` says the doubled CR.
    std::fs::write(&path, content).expect("write");
    let damaged =
        json!({"file_path": path.display().to_string(), "old_string": from, "new_string": new});
    std::fs::write(&edit_path, damaged.to_string()).expect("write");
    let out = support::runner::srview([
        "check",
        &path.display().to_string(),
        &edit_path.display().to_string(),
    ])
    .output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("the result ends 3 lines with a carriage return twice (`\\r\\r\\n`)"),
        "{stdout}"
    );
}

// --- re-indenting docstrings and pi's several edits (tester 42a-03, 42a-11)

/// A cart class indented by 4 columns: the file the model's 2-column
/// edits are sent against.
const LINES_CART: &str = "TAX_RATE = 0.2\n\n\nclass Cart:\n    def __init__(self):\n        \
                    self.lines = []\n\n    def clear(self) -> None:\n        self.lines = []\n";

/// The model's new text (every line of it, as the agent writes it): the
/// new text of Codex's rewritten patch (`+` lines), else of the input's
/// single or first edit.
fn new_text_of(agent: GateAgent, input: &Value) -> String {
    if agent == GateAgent::Codex {
        let patch = input["command"].as_str().unwrap_or_default();
        return patch
            .lines()
            .filter_map(|l| l.strip_prefix('+'))
            .map(|l| format!("{l}\n"))
            .collect();
    }
    let edit = match &input["edits"] {
        Value::Array(edits) => &edits[0],
        _ => input,
    };
    ["new_string", "newString", "newText", "new_text"]
        .iter()
        .find_map(|key| edit[key].as_str())
        .unwrap_or_default()
        .to_string()
}

/// A new method with a docstring over several lines, sent 2 columns a
/// level where the file has 4 (tester 42a-11: every agent denied it with
/// "a string literal ... whose content re-indenting would change"): the
/// corrected edit re-indents the docstring with the code, each of its
/// lines keeping its place against the line it opens on (a line 2 columns
/// further in stays 2 columns further in: `inspect.cleandoc` reads it as
/// the model wrote it).
#[test]
fn a_new_method_with_a_docstring_is_reindented_with_its_docstring() {
    let old = "  def clear(self) -> None:\n    self.lines = []\n";
    let new = "  def clear(self) -> None:\n    self.lines = []\n\n  def count(self) -> int:\n    \
               \"\"\"How many lines.\n\n    Each SKU counts once:\n      - a line per SKU.\n    \
               \"\"\"\n    return len(self.lines)\n";
    let want = "    def clear(self) -> None:\n        self.lines = []\n\n    def count(self) -> int:\n        \
                \"\"\"How many lines.\n\n        Each SKU counts once:\n          - a line per SKU.\n        \
                \"\"\"\n        return len(self.lines)\n";
    let policy = Policy::parse("failing=repair").expect("a policy");
    for agent in agents() {
        let judgment = judged_under(&policy, agent, ("inventory.py", LINES_CART), old, new);
        let input = corrected_input(&judgment, LINES_CART);
        assert_eq!(new_text_of(agent, &input), want, "{agent:?}: {input}");
    }
    // Claude Code's docstring under a class, single quotes, a raw prefix.
    let new = "  def clear(self) -> None:\n    r'''Empty it.\n\n    Raw: \\d.\n    '''\n    self.lines = []\n";
    let judgment = judged_under(
        &Policy::default(),
        GateAgent::ClaudeCode,
        ("inventory.py", LINES_CART),
        old,
        new,
    );
    let reason = deny_reason(&judgment);
    let offered =
        offered_input(GateAgent::ClaudeCode, &reason).unwrap_or_else(|| panic!("{reason}"));
    assert_eq!(
        offered["new_string"],
        "    def clear(self) -> None:\n        r'''Empty it.\n\n        Raw: \\d.\n        '''\n        \
         self.lines = []\n",
        "{reason}"
    );
}

/// A string over several lines that is no docstring keeps its content as
/// sent, so the re-indentation is withheld, saying why: an SQL text
/// assigned to a name, a `textwrap.dedent` argument, a docstring-like
/// string that is not the body's first statement.
#[test]
fn a_data_string_over_several_lines_still_withholds_the_reindentation() {
    let old = "  def clear(self) -> None:\n    self.lines = []\n";
    let cases = [
        (
            "  def clear(self) -> None:\n    sql = \"\"\"delete\n    from lines\"\"\"\n    self.lines = []\n",
            "(`sql = \"\"\"delete`) and is no docstring",
        ),
        (
            "  def clear(self) -> None:\n    print(dedent(\"\"\"\n      cleared\n    \"\"\"))\n    self.lines = []\n",
            "(`print(dedent(\"\"\"`) and is no docstring",
        ),
        (
            "  def clear(self) -> None:\n    self.lines = []\n    \"\"\"Not a docstring.\n    Last.\"\"\"\n",
            "(`\"\"\"Not a docstring.`) and is no docstring",
        ),
    ];
    let policy = Policy::parse("failing=repair").expect("a policy");
    for (new, why) in cases {
        for agent in agents() {
            let judgment = judged_under(&policy, agent, ("inventory.py", LINES_CART), old, new);
            let why = match agent {
                GateAgent::ClineCli => "No corrected edit",
                _ => why,
            };
            assert_withheld(&judgment, why);
        }
    }
}

/// pi's `edit` with several `edits`, one of them 2 columns a level where
/// the file has 4 (tester 42a-03: alone it got the re-indented edit; among
/// several, "No corrected edit: ... would land misindented"): each edit is
/// corrected as it would be alone, an exact one left as sent, in either
/// order, and pi's own matcher places the whole call exactly. Edits that
/// overlap once re-indented are withheld saying pi's own refusal; an edit
/// nothing corrects beside one re-indented is said, without the false
/// "would land misindented".
#[test]
fn each_misindented_edit_among_pis_several_is_reindented() {
    let exact = json!({"oldText": "TAX_RATE = 0.2\n", "newText": "TAX_RATE = 0.25\n"});
    let shifted = json!({
        "oldText": "  def clear(self) -> None:\n    self.lines = []\n",
        "newText": "  def clear(self) -> None:\n    self.lines.clear()\n",
    });
    let fixed = json!({
        "oldText": "    def clear(self) -> None:\n        self.lines = []\n",
        "newText": "    def clear(self) -> None:\n        self.lines.clear()\n",
    });
    let call = |edits: Value| {
        let payload = own_payload("edit", json!({"path": "inventory.py", "edits": edits}));
        judge_on(GateAgent::Pi, &payload, LINES_CART, &Policy::default())
    };
    for (sent, want) in [
        (json!([exact, shifted]), json!([exact, fixed])),
        (json!([shifted, exact]), json!([fixed, exact])),
    ] {
        let reason = deny_reason(&call(sent));
        let offered = offered_input(GateAgent::Pi, &reason).unwrap_or_else(|| panic!("{reason}"));
        assert_eq!(offered["edits"], want, "{reason}");
        assert_exact_with_agents_matcher(GateAgent::Pi, &offered, LINES_CART);
        assert!(!reason.contains("would land misindented"), "{reason}");
    }
    // Re-indented, the second edit overlaps the first: pi refuses the two.
    let header =
        json!({"oldText": "  def clear(self) -> None:\n", "newText": "  def clear(self):\n"});
    let reason = deny_reason(&call(json!([shifted, header])));
    assert_eq!(offered_input(GateAgent::Pi, &reason), None, "{reason}");
    assert!(
        reason.contains(
            "No corrected edit: each edit re-indented as it would be alone, pi 0.73.1's edit \
             tool would not place them together exactly (edits[0] and edits[1] overlap"
        ),
        "{reason}"
    );
    // A stale value (what it should become cannot be told) beside the
    // misindented edit: said of the stale one only.
    let stale = json!({"oldText": "TAX_RATE = 0.3\n", "newText": "TAX_RATE = 0.25\n"});
    let reason = deny_reason(&call(json!([stale, shifted])));
    assert_eq!(offered_input(GateAgent::Pi, &reason), None, "{reason}");
    assert!(
        reason.contains("what it should become cannot be told"),
        "{reason}"
    );
    assert!(!reason.contains("would land misindented"), "{reason}");
    // A string that is no docstring in the misindented edit: said, naming
    // the edit.
    let data = json!({
        "oldText": "  def clear(self) -> None:\n    self.lines = []\n",
        "newText": "  def clear(self) -> None:\n    x = \"\"\"a\n  b\"\"\"\n",
    });
    let reason = deny_reason(&call(json!([exact, data])));
    assert!(
        reason.contains("No corrected edit: for edit 2 of the 2, its lines hold a string literal"),
        "{reason}"
    );
}

/// The old text is the last arguments of a call (inside a bracket opened
/// before it), and the new text goes on after the call with a new method:
/// the arguments' aligned columns say nothing of the file's indentation
/// (the measurement over the standard library's methods: shifted by their
/// 6 columns, the new method landed inside the method before it, and
/// Python compiled it). The re-indentation is withheld.
#[test]
fn a_new_method_after_a_calls_last_arguments_is_not_placed_by_them() {
    let file = "class F:\n    def __repr__(self):\n        return '<%s %s>' % (\n                \
                self.name,\n                self.state)\n";
    let old = "          self.name,\n          self.state)\n";
    let new =
        "          self.name,\n          self.state)\n\n  def cancel(self):\n    return True\n";
    let policy = Policy::parse("failing=repair").expect("a policy");
    for agent in [GateAgent::ClaudeCode, GateAgent::GeminiCli, GateAgent::Pi] {
        let judgment = judged_under(&policy, agent, ("inventory.py", file), old, new);
        assert_withheld(&judgment, "No corrected edit");
    }
}

/// The tester's find (T-06): an edit whose old text is the file's tail
/// (`main()` under `if __name__ == "__main__":`) appends `def helper()`
/// after it while making `main` call it; python3 dies with NameError at
/// line 6. Every agent's edit (Codex: the same lines as a hunk; a bare
/// `@@` hunk appending the lines: below) is in doubt, saying which name,
/// where it is defined and which line runs first; nothing corrected is
/// offered. The same definition put above the entry point is exact.
#[test]
fn a_definition_appended_after_the_entry_point_that_uses_it_is_a_doubt() {
    let app = "def main():\n    print(\"start\")\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let old = "    print(\"start\")\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let new = "    print(\"start\", helper())\n\n\nif __name__ == \"__main__\":\n    main()\n\n\ndef helper():\n    return 42\n";
    let said = "line 9 defines `helper` (`def helper():`) after line 6 (`main()`), which runs \
                first, when the file runs as a script, and uses it through `main` (line 2: \
                `print(\"start\", helper())`): running the file raises NameError at line 6: \
                define `helper` above line 5 (`if __name__ == \"__main__\":`), or run that code \
                after the definition";
    for agent in agents() {
        let judgment = judged_as(Case::Doubt, agent, ("app.py", app), old, new);
        assert_withheld(&judgment, said);
    }
    let above = "    print(\"start\", helper())\n\n\ndef helper():\n    return 42\n\n\nif __name__ == \"__main__\":\n    main()\n";
    for agent in agents() {
        judged_as(Case::Exact, agent, ("app.py", app), old, above);
    }
    // Codex's patch as the tester sent it: hunk 2 under a bare `@@`.
    let patch = "*** Begin Patch\n*** Update File: app.py\n@@ def main():\n-    print(\"start\")\n+    print(\"start\", helper())\n@@\n+\n+\n+def helper():\n+    return 42\n*** End Patch";
    let payload = edit_payload(GateAgent::Codex, json!({ "command": patch }));
    let fs = MemoryFs::new([("app.py".to_string(), app.to_string())]);
    let judgment = srview::gate::judge(GateAgent::Codex, &payload, |_| fs, &Policy::default());
    assert_eq!(judgment.case, Case::Doubt, "{:?}", judgment.answer);
    assert_withheld(&judgment, said);
}

/// m.js of the round-44 finding 17, written without semicolons: `const
/// a = b` is followed by a call.
const NO_SEMICOLONS_JS: &str = "function b() { return 1 }\nfunction setup() { console.log(\"setup\") }\nconst a = b\nconsole.log(\"a is\", a)\n";

/// A tester's find (round 44, 17): a line starting with `(` inserted under
/// `const a = b` in a file without semicolons passed every agent's gate;
/// JavaScript reads `const a = b(function init() ..)()` (node: `TypeError:
/// b(...) is not a function`). Denied, in every agent's shape, saying what
/// JavaScript reads and the semicolon that keeps the two statements apart;
/// the same line with that semicolon passes.
#[test]
fn a_line_continuing_the_statement_above_is_a_doubt() {
    let old = "console.log(\"a is\", a)\n";
    let new = "(function init() { setup() })()\nconsole.log(\"a is\", a)\n";
    let said = "line 4 (`(function init() { setup() })()`) continues the statement of line 3 \
                (`const a = b`): no semicolon ends line 3, and JavaScript ends a statement at a \
                line break only where the next line cannot continue it, so it reads `b(...)`, \
                one statement, not two: if it is meant as a statement of its own, start line 4 \
                with a semicolon (`;(function init() { setup() })()`), as code written without \
                semicolons starts such a line";
    assert_doubts_say(("m.js", NO_SEMICOLONS_JS), &[(old, new, said.to_string())]);
    let fixed = format!(";{new}");
    for agent in agents() {
        judged_as(Case::Exact, agent, ("m.js", NO_SEMICOLONS_JS), old, &fixed);
    }
}

/// A tester's find (round 46, T-03): a line starting with `(` put under a
/// method chain's `.trim()` line was denied saying the line above "stands
/// in an `if`, `else` or loop" (there is none) and no semicolon was
/// offered. Denied in every agent's shape with the semicolon (node reads
/// `;(async () => {})()` there, `b` still the trimmed string); the line
/// with it passes.
#[test]
fn a_line_under_a_method_chain_is_offered_its_semicolon() {
    let file = (
        "d.js",
        "const a = 1\nconst b = String(a)\n  .trim()\nexport default b\n",
    );
    let (old, new) = ("  .trim()\n", "  .trim()\n(async () => {})()\n");
    let said = "line 4 (`(async () => {})()`) continues the statement of line 3 (`.trim()`): \
                no semicolon ends line 3, and JavaScript ends a statement at a line break only \
                where the next line cannot continue it, so it reads `...)(...)`, one \
                statement, not two: if it is meant as a statement of its own, start line 4 \
                with a semicolon (`;(async () => {})()`), as code written without semicolons \
                starts such a line";
    assert_doubts_say(file, &[(old, new, said.to_string())]);
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            file,
            old,
            "  .trim()\n;(async () => {})()\n",
        );
    }
}

/// A tester's find (round 46, T-06): `return` and `throw` cut from their
/// values by the edit's new line break were allowed (node: `total(1, 2)`
/// is `undefined`; `SyntaxError: Illegal newline after throw`). Denied in
/// every agent's shape, saying what JavaScript reads; the value wrapped in
/// a bracket opened on the `return` line passes.
#[test]
fn a_value_cut_from_its_return_or_throw_is_a_doubt() {
    let total = (
        "r.js",
        "export function total(a, b) {\n  return a + b;\n}\n",
    );
    let said = "line 2 (`return`) ends in `return` and line 3 (`a + b;`) holds what it takes: \
                JavaScript allows no line break between `return` and what it takes (a \
                restricted production), so it reads `return;`: the function returns \
                `undefined`, and line 3 is never run: keep the value's start on line 2 with \
                `return`, or open a bracket there (`return (` .. `)`) and wrap the value inside \
                it";
    let old = "  return a + b;\n";
    assert_doubts_say(total, &[(old, "  return\n    a + b;\n", said.to_string())]);
    let thrown = (
        "th.js",
        "export function f(a) {\n  if (!a) throw new Error(\"no a\");\n  return a;\n}\n",
    );
    let said = "line 2 (`if (!a) throw`) ends in `throw` and line 3 (`new Error(\"no a\");`) \
                holds what it takes: JavaScript allows no line break between `throw` and what \
                it takes (a restricted production), so the file does not parse (node: \
                `SyntaxError: Illegal newline after throw`)";
    let (old_throw, new_throw) = (
        "  if (!a) throw new Error(\"no a\");\n",
        "  if (!a) throw\n    new Error(\"no a\");\n",
    );
    assert_doubts_say(thrown, &[(old_throw, new_throw, said.to_string())]);
    for agent in agents() {
        judged_as(
            Case::Exact,
            agent,
            total,
            old,
            "  return (\n    a + b\n  );\n",
        );
    }
}

/// n.js of the round-44 finding 10: `café` written decomposed (`e` and
/// U+0301).
const NFD_JS: &str = "const cafe\u{301} = 1;\nconsole.log(cafe\u{301});\n";

/// A tester's find (round 44, 10): a new line writing `café` composed
/// (U+00E9, as a model types it) in a file that writes it decomposed
/// passed every agent's gate; node: `ReferenceError: café is not defined`.
/// Denied, in every agent's shape, with both forms' code points; the name
/// in a string, or written as the file writes it, passes.
#[test]
fn a_name_written_in_another_normalisation_is_a_doubt() {
    let old = "console.log(cafe\u{301});\n";
    let new = "console.log(caf\u{e9} + 1);\nconsole.log(cafe\u{301});\n";
    let said = "line 2 writes the name `caf\u{e9}` in another Unicode normalisation than the file, \
                which writes it at line 1: the file writes `e\u{301}` as U+0065 U+0301 \
                (decomposed, NFD), the edit as U+00E9 (composed, NFC); they look identical, but \
                JavaScript does not normalise names, so they are two names: write the name as \
                the file does (copy it from line 1)";
    assert_doubts_say(("n.js", NFD_JS), &[(old, new, said.to_string())]);
    for fine in [
        "console.log(cafe\u{301} + 1);\nconsole.log(cafe\u{301});\n",
        "console.log(\"caf\u{e9}\");\nconsole.log(cafe\u{301});\n",
    ] {
        for agent in agents() {
            judged_as(Case::Exact, agent, ("n.js", NFD_JS), old, fine);
        }
    }
}

/// Both round-44 finds through the binary, as the tester ran them (Claude
/// Code's `Edit` payload on stdin): denied, the file untouched.
#[test]
fn the_binary_denies_a_statement_join_and_a_name_in_another_form() {
    let cases = [
        (
            "m.js",
            NO_SEMICOLONS_JS,
            "console.log(\"a is\", a)\n",
            "(function init() { setup() })()\nconsole.log(\"a is\", a)\n",
            "so it reads `b(...)`, one statement, not two",
        ),
        (
            "n.js",
            NFD_JS,
            "console.log(",
            "console.log(caf\u{e9} + 1);\nconsole.log(",
            "JavaScript does not normalise names, so they are two names",
        ),
    ];
    for (name, content, old, new, said) in cases {
        let project = tempfile::tempdir().expect("a project");
        let root = project.path().to_string_lossy().into_owned();
        let file = project.path().join(name);
        std::fs::write(&file, content).expect("the file");
        let payload = json!({
            "session_id": "s", "cwd": root, "hook_event_name": "PreToolUse", "tool_name": "Edit",
            "tool_input": {"file_path": file.to_string_lossy(), "old_string": old, "new_string": new},
            "tool_use_id": "t1",
        });
        let (stdout, stderr, code) = run_gate(
            project.path(),
            &["--agent", "claude-code"],
            payload.to_string().as_bytes(),
        );
        assert_eq!(code, Some(0), "{stderr}");
        let answer: Value = serde_json::from_slice(&stdout).expect("JSON");
        let output = &answer["hookSpecificOutput"];
        assert_eq!(output["permissionDecision"], "deny", "{answer}");
        let reason = output["permissionDecisionReason"]
            .as_str()
            .expect("a reason");
        assert!(reason.contains(said), "{reason}");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), content);
    }
}

/// A tester's find (round 45, T-10): Ruby's percent literals and Perl's
/// quote operators over lines were re-indented with the code (their `"`
/// forms were withheld): each line's leading spaces are the string's
/// content (perl 5 prints `qq{usage:\n    app run}`'s four spaces; Ruby by
/// its manual). Sent two columns short with a line added inside, each is
/// withheld by every agent, the file's line named; a word list's lines
/// (`qw(..)`) are re-indented, their white space no content.
#[test]
fn a_percent_literal_or_quote_operator_is_never_reindented() {
    let files = [
        ("h.rb", "    text = %Q{usage:", "}", "    text"),
        ("h3.rb", "    text = %(usage:", ")", "    text"),
        ("h4.rb", "    text = %q[usage:", "]", "    text"),
        (
            "h2.pl",
            "    my $text = qq{usage {x}:",
            "};",
            "    return $text;",
        ),
        (
            "q.pl",
            "    my $text = q(usage (x):",
            ");",
            "    return $text;",
        ),
    ];
    for (name, opening, close, after) in files {
        let (head, tail) = if name.ends_with(".rb") {
            ("def help\n", "end\n")
        } else {
            ("sub help {\n", "}\n")
        };
        let body = format!("{opening}\n    app run\n    app stop{close}\n{after}\n");
        let file = format!("{head}{body}{tail}");
        let short = |text: &str| -> String {
            text.lines()
                .map(|l| format!("{}\n", l.strip_prefix("  ").unwrap_or(l)))
                .collect()
        };
        let new = format!("{opening}\n    app run\n    app stop\n    app status{close}\n{after}\n");
        for agent in OLD_NEW_AGENTS {
            let judgment = judged_repairing(agent, (name, &file), &short(&body), &short(&new));
            assert_withheld(&judgment, &format!("(the file has `app stop{close}`)"));
        }
    }
    // A word list's lines: white space only parts its words (perl 5 reads
    // `qw(usage\n    app run)` as `qw(usage app run)`): re-indented with
    // the code.
    let file = "sub help {\n    my @words = qw(usage\n    app run\n    app stop);\n    return @words;\n}\n";
    let old = "  my @words = qw(usage\n  app run\n  app stop);\n  return @words;\n";
    let new = "  my @words = qw(usage\n  app run\n  app stop\n  app status);\n  return @words;\n";
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, ("w.pl", file), old, new);
        let corrected = correction_of(&judgment)
            .unwrap_or_else(|| panic!("{agent:?}: {}", deny_reason(&judgment)));
        assert!(
            corrected
                .to_string()
                .contains(if agent == GateAgent::Codex {
                    "\\n+    app status);"
                } else {
                    "\\n    app status);"
                }),
            "{agent:?}: {corrected}"
        );
    }
}

/// A tester's find (round 45, T-14): a YAML block scalar's lines were
/// scaled with the YAML around them (4-column file, edit sent at 2): the
/// Python snippet in `script: |` got `x = 0` 4 columns under `def f():`
/// where the model wrote 2 (PyYAML read `'def f():\n    x = 0\n  return
/// 1\n'`). The block moves as a whole: PyYAML reads the corrected file as
/// `'def f():\n  x = 0\n  return 1\n'`, what the model's text says
/// (checked on this machine, /tmp/wt-yamlstr-cases). Codex's patch repair
/// withholds it, naming the block.
#[test]
fn a_yaml_block_scalar_is_reindented_as_a_whole() {
    let file = "config:\n    script: |\n        def f():\n          return 1\n    name: x\nother:\n    key: 1\n";
    let (old, new) = (
        "config:\n  script: |\n    def f():\n",
        "config:\n  script: |\n    def f():\n      x = 0\n",
    );
    for agent in OLD_NEW_AGENTS {
        let judgment = judged_repairing(agent, ("c.yaml", file), old, new);
        if agent == GateAgent::Codex {
            assert_withheld(&judgment, "`script: |`");
            continue;
        }
        let corrected = correction_of(&judgment)
            .unwrap_or_else(|| panic!("{agent:?}: {}", deny_reason(&judgment)));
        assert!(
            corrected
                .to_string()
                .contains("config:\\n    script: |\\n        def f():\\n          x = 0\\n\""),
            "{agent:?}: {corrected}"
        );
    }
}

/// wt-yamlstr's leftovers (round 46): two YAML block scalar repairs were
/// withheld (4-column file, edit sent at 2): a content line changed in a
/// block whose header and lines the old text sends all shifted alike
/// (`two` to `TWO`), and new lines added among a block's middle lines, its
/// header above the old text. The block the model sees is the file's
/// shifted as a whole: the corrected edits keep the model's content, as
/// PyYAML reads them (checked on this machine: `{'s': 'one\n  TWO\n'}`
/// and `{'s': 'keep\n  this\n  that\nand\n'}`, the model's view edited
/// loading the same). Blocks sent not shifted alike, or a new line
/// leaving the block, are still withheld; Codex's patch repair offers no
/// correction of either.
#[test]
fn a_yaml_block_shifted_as_a_whole_is_repaired_inside() {
    let changed = "a:\n    s: |\n        one\n          two\n    t: 1\n";
    let middle = "x:\n    s: |\n        keep\n          this\n        and\n    t: 1\n";
    let repaired = [
        (
            changed,
            (
                "  s: |\n    one\n      two\n",
                "  s: |\n    one\n      TWO\n",
            ),
            "\"    s: |\\n        one\\n          TWO\\n\"",
        ),
        (
            middle,
            (
                "    keep\n      this\n",
                "    keep\n      this\n      that\n",
            ),
            "\"        keep\\n          this\\n          that\\n\"",
        ),
    ];
    for (file, (old, new), said) in repaired {
        for agent in OLD_NEW_AGENTS {
            let judgment = judged_repairing(agent, ("c.yaml", file), old, new);
            // Codex's patch repair (gate/patch.rs) offers none yet: it
            // shifts no block scalar of a hunk.
            if agent == GateAgent::Codex {
                assert_eq!(correction_of(&judgment), None);
                continue;
            }
            let corrected = correction_of(&judgment)
                .unwrap_or_else(|| panic!("{agent:?}: {}", deny_reason(&judgment)));
            assert!(
                corrected.to_string().contains(said),
                "{agent:?}: {corrected}"
            );
        }
    }
    let withheld = [
        (
            changed,
            ("  s: |\n    one\n    two\n", "  s: |\n    one\n    TWO\n"),
            "would land misindented",
        ),
        (
            middle,
            ("    keep\n      this\n", "    keep\n      this\n  that\n"),
            "lies inside a string literal that runs over several lines from file line 2 (`s: |`)",
        ),
    ];
    for (file, (old, new), why) in withheld {
        for agent in OLD_NEW_AGENTS {
            let judgment = judged_repairing(agent, ("c.yaml", file), old, new);
            match agent {
                GateAgent::Codex => assert_eq!(correction_of(&judgment), None),
                _ => assert_withheld(&judgment, why),
            }
        }
    }
}

/// A tester's find (round 45, T-12, and its Java addendum): every agent's
/// edit or patch removing a decorated definition's own lines, not its
/// decorators, is denied saying which decorators now stand on which
/// definition (Flask's `/admin` then served `index` behind a login;
/// `rustc --test`: E0277 on `helper`; javac: "method does not override or
/// implement a method from a supertype"); the same definition removed
/// with its decorators is exact.
#[test]
fn a_definition_removed_from_under_its_decorators_is_in_doubt() {
    let flask = "from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route(\"/admin\")\n@login_required\ndef old_admin():\n    return \"legacy\"\n\n\n@app.route(\"/\")\ndef index():\n    return \"hi\"\n";
    let rust =
        "#[test]\nfn old_test() {\n    assert!(true);\n}\n\npub fn helper() -> i32 {\n    1\n}\n";
    let java = "public class B extends A {\n    @Override\n    public String toString() {\n        return \"B\";\n    }\n\n    public int size() {\n        return 0;\n    }\n}\n";
    let cases = [
        (
            ("r.py", flask),
            "def old_admin():\n    return \"legacy\"\n\n\n",
            "`@app.route(\"/admin\") @login_required` stood on `def old_admin():` (line 8), \
             which the edit removes, and now stands on `def index():` (line 9), which it now \
             decorates on top of its own `@app.route(\"/\")`: to remove `def old_admin():`, \
             remove `@app.route(\"/admin\") @login_required` with it (start the old text at the \
             line `@app.route(\"/admin\")`); to keep `@app.route(\"/admin\") @login_required`, \
             keep a definition right under it",
            "@app.route(\"/admin\")\n@login_required\ndef old_admin():\n    return \"legacy\"\n\n\n",
        ),
        (
            ("t.rs", rust),
            "fn old_test() {\n    assert!(true);\n}\n\n",
            "`#[test]` stood on `fn old_test() {` (line 2), which the edit removes, and now \
             stands on `pub fn helper() -> i32 {` (line 2), which it now applies to: to remove \
             `fn old_test() {`, remove `#[test]` with it (start the old text at the line \
             `#[test]`); to keep `#[test]`, keep a definition right under it",
            "#[test]\nfn old_test() {\n    assert!(true);\n}\n\n",
        ),
        (
            ("B.java", java),
            "    public String toString() {\n        return \"B\";\n    }\n\n",
            "`@Override` stood on `public String toString() {` (line 3), which the edit \
             removes, and now stands on `public int size() {` (line 3), which it now \
             decorates: to remove `public String toString() {`, remove `@Override` with it \
             (start the old text at the line `@Override`); to keep `@Override`, keep a \
             definition right under it",
            "    @Override\n    public String toString() {\n        return \"B\";\n    }\n\n",
        ),
    ];
    for (file, old, said, whole) in cases {
        assert_doubts_say(file, &[(old, "", said.to_string())]);
        for agent in agents() {
            judged_as(Case::Exact, agent, file, whole, "");
        }
    }
}

/// A tester's find (round 46, T-08): a Python line given a `\` that joins
/// the next line, which the edit does not show, was denied for Claude
/// Code only: the other agents' gates judged the edit without the file's
/// name (a Python file's layout is judged on the whole result), so the
/// join went unread. Every agent's gate (and Codex's patch) now says it.
#[test]
fn a_python_line_given_a_backslash_joining_the_next_is_a_doubt_for_every_agent() {
    assert_doubts_say(
        ("jp.py", "x = 1\ny = 2\nprint(x + y)\n"),
        &[(
            "x = 1\n",
            "x = 1 + \\\n",
            "its new text's last line ends in `\\`, where its old text's did not, so line 2 \
             (`y = 2`), which the edit does not show, is joined onto it"
                .to_string(),
        )],
    );
}

/// main.go of round 48's Go finds (T-07).
const MAIN_GO: &str = "package main\n\nimport \"fmt\"\n\nfunc add(a, b int) int {\n\treturn a + b\n}\n\nfunc main() {\n\tx := add(1, 2)\n\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n}\n";

/// Round 48's Go finds (T-07), in every agent's shape: a local variable
/// declared and read nowhere (`declared and not used: y`), an edit
/// leaving `fmt` unused and `strings` not imported (both said), an import
/// removed while its package is still used (`undefined: fmt`): denied with
/// Go's words. A new variable the edit uses, a comment naming a variable,
/// pass.
#[test]
fn go_compile_refusals_are_doubts() {
    let doubts = [
        (
            "\tfmt.Println(x)\n",
            "\ty := add(x, 1)\n\tfmt.Println(x)\n",
            "the variable `y` declared at line 14 (in `func main`) is read nowhere (assigning \
             it is no use): Go refuses to compile it (declared and not used: y)",
        ),
        (
            "\tif x > 2 {\n\t\tfmt.Println(\"big\")\n\t}\n\tfmt.Println(x)\n",
            "\tprintln(strings.Repeat(\"*\", x))\n",
            "(\"fmt\" imported and not used); and line 11 uses the package `strings`, which the \
             file does not import: Go refuses to compile it (undefined: strings)",
        ),
        (
            "import \"fmt\"\n",
            "",
            "line 11 (and 1 line more) still uses the package `fmt`, whose import (\"fmt\") the \
             edit removes: Go refuses to compile it (undefined: fmt)",
        ),
    ];
    let doubts: Vec<(&str, &str, String)> = doubts
        .iter()
        .map(|&(old, new, said)| (old, new, said.to_string()))
        .collect();
    assert_doubts_say(("main.go", MAIN_GO), &doubts);
    let old = "\tfmt.Println(x)\n";
    assert_exact_for_every_agent(
        ("main.go", MAIN_GO),
        &[
            (old, "\ty := add(x, 1)\n\tfmt.Println(x, y)\n"),
            (old, "\t// y := add(x, 1) was here\n\tfmt.Println(x)\n"),
        ],
    );
}

/// Four functions each ending in `return None`.
const FOUR_RETURNS_PY: &str = "def first(x):\n    if x < 0:\n        return None\n    return 1\n\n\n\
                               def second(y):\n    if y is None:\n        return None\n    return 2\n\n\n\
                               def third(z):\n    if not z:\n        return None\n    return 3\n\n\n\
                               def fourth(w):\n    if not w:\n        return None\n    return 4\n";

/// Session 49's leftover: where the gate withholds the patch with each
/// file's sections joined into one, its deny says what the joined patch
/// would do and which check refused it. Codex: a second section (a bare
/// `@@`) Codex searches from the file's top again lands in `first`, where
/// as one section it lands in `third`; joined, its lines stand again in
/// `fourth` (it said "the patch ... joined into one: the corrected patch is
/// in doubt"). OpenCode: a second section reaching above the first one's
/// hunk, which OpenCode refuses joined (it said only "would not apply the
/// patch ... exactly").
#[test]
fn a_withheld_joined_patch_says_why() {
    let section = |hunk: &str| format!("*** Update File: m.py\n{hunk}");
    let patch_of =
        |a: &str, b: &str| format!("*** Begin Patch\n{}{}*** End Patch", section(a), section(b));
    let second = "@@ def second(y):\n     if y is None:\n-        return None\n+        return 0\n";
    let bare = "@@\n-        return None\n+        return []\n";
    let first = "@@ def first(x):\n     if x < 0:\n-        return None\n+        return -1\n";
    let cases = [
        (
            GateAgent::Codex,
            patch_of(second, bare),
            "No corrected edit: the patch with the sections of each file joined into one is in \
             doubt: hunk #2 of m.py matched at line 15, and its lines occur again at line 21",
        ),
        (
            GateAgent::Opencode,
            patch_of(second, first),
            "No corrected edit: OpenCode 1.18.33's apply_patch tool refuses the patch with the \
             sections of each file joined into one: apply_patch verification failed: Error: \
             Failed to find context 'def first(x):'",
        ),
    ];
    for (agent, text, said) in cases {
        let payload = match agent {
            GateAgent::Codex => edit_payload(agent, json!({ "command": text })),
            _ => own_payload("apply_patch", json!({ "patchText": text })),
        };
        let fs = MemoryFs::new([("m.py".to_string(), FOUR_RETURNS_PY.to_string())]);
        let judgment = judge(agent, &payload, |_| fs, &Policy::default());
        assert_eq!(
            judgment.case,
            Case::Doubt,
            "{agent:?}: {:?}",
            judgment.answer
        );
        assert_withheld(&judgment, said);
    }
}

/// Session 49's leftover: values PyYAML reads otherwise than written, in
/// every agent's shape (PyYAML 6 here: `version: 1.10` loads as the float
/// 1.1, `country: NO` as false). A `version` changed to `1.10`, a new
/// `country: NO`, and `NO` added to a list of codes are doubts naming the
/// value; the same values quoted, and `1.11` (read as written), are exact.
#[test]
fn a_yaml_value_pyyaml_reads_otherwise_is_a_doubt_for_every_agent() {
    let config = "name: shop\nversion: \"1.9\"\nshipping:\n  currency: NOK\n  to: [SE, DK]\n";
    let file = ("config.yaml", config);
    let version = "version: \"1.9\"\n";
    let currency = "  currency: NOK\n";
    let to = "  to: [SE, DK]\n";
    assert_doubts_say(
        file,
        &[
            (
                version,
                "version: 1.10\n",
                "which YAML reads as the number 1.1, not the text `1.10`".to_string(),
            ),
            (
                currency,
                "  currency: NOK\n  country: NO\n",
                "as written, line 5 (`country: NO`) gives the unquoted value `NO` under \
                 `country`, a name or a code, which YAML 1.1 readers (PyYAML) read as the boolean \
                 false, not the text `NO`: write it quoted, `\"NO\"`, to keep it as written"
                    .to_string(),
            ),
            (
                to,
                "  to: [SE, DK, NO]\n",
                "read as the boolean false, not the text `NO`".to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        file,
        &[
            (version, "version: \"1.10\"\n"),
            (version, "version: 1.11\n"),
            (currency, "  currency: NOK\n  country: \"NO\"\n"),
            (to, "  to: [SE, DK, \"NO\"]\n"),
        ],
    );
}

/// A Python file for the parser's refusals and a renamed method (tester
/// round 49, T-11 and T-04).
const SHOP_PY: &str = "class Cart:\n    def __init__(self):\n        self.items = []\n\n    \
                       def total(self):\n        return sum(self.items)\n\n    \
                       def report(self):\n        return f\"total {self.total():.2f}\"\n\n\n\
                       def price(item, qty):\n    if qty == 0:\n        return 0\n    \
                       else:\n        return item * qty\n";

/// Tester round 49, T-11 and T-04: a parameter without a default after
/// one with a default, `=` in an `if` condition, an `else:` whose `if` the
/// edit removes (Python refuses the file: said with CPython's words and
/// line), and a method renamed while its class still calls `self.total()`
/// (AttributeError when it runs): denied for every agent. The same places
/// edited harmlessly pass.
#[test]
fn python_parser_refusals_and_a_renamed_method_are_doubts() {
    let doubts = [
        (
            "def price(item, qty):",
            "def price(item=None, qty):",
            "line 12 (`def price(item=None, qty):`) gives the function's parameter `qty` no \
             default after `item`, which has one (SyntaxError: non-default argument follows \
             default argument)",
        ),
        (
            "    if qty == 0:",
            "    if qty = 0:",
            "line 13 (`if qty = 0:`) assigns with `=` in its `if` condition (SyntaxError: \
             invalid syntax. Maybe you meant '==' or ':=' instead of '='?)",
        ),
        (
            "    if qty == 0:\n        return 0\n",
            "    print(qty)\n",
            "line 14 (`else:`) starts an `else` clause below the statement of line 13, which \
             no `else` may follow (SyntaxError: invalid syntax)",
        ),
        (
            "    def total(self):",
            "    def sum_total(self):",
            "the edit renames the method `total` of class `Cart` to `sum_total` (line 5: `def \
             sum_total(self):`), but line 9 still uses `self.total`",
        ),
    ];
    let doubts: Vec<(&str, &str, String)> = doubts
        .iter()
        .map(|&(old, new, said)| (old, new, said.to_string()))
        .collect();
    assert_doubts_say(("shop.py", SHOP_PY), &doubts);
    assert_exact_for_every_agent(
        ("shop.py", SHOP_PY),
        &[
            ("def price(item, qty):", "def price(item, qty=1):"),
            ("    if qty == 0:", "    if (n := qty) == 0:"),
            (
                "    if qty == 0:\n        return 0\n    else:\n        return item * qty\n",
                "    return item * qty\n",
            ),
            (
                "        return f\"total {self.total():.2f}\"\n",
                "        return f\"total {self.total():.3f}\"\n",
            ),
        ],
    );
}

/// A tester's finds (round 49 T-01, T-03, T-10, T-14): exact edits that
/// break a CMake file's nesting, cut a setup.cfg value at column 0, set a
/// Terraform argument twice, declare a resource twice or drop a list's
/// comma: a doubt for every agent, with the tool's error; the same edits
/// done right are exact.
#[test]
fn cmake_setup_cfg_and_terraform_breaks_are_doubts() {
    let lists = "project(demo C)\nif(WIN32)\n  add_definitions(-DWIN)\nendif()\n\
                 add_executable(demo main.c)\n";
    assert_doubts_say(
        ("CMakeLists.txt", lists),
        &[(
            "endif()\n",
            "",
            "as written, the `if(` at line 2 has no `endif()` after it: CMake stops reading the \
             file (`CMake Error at line 2 (if): Flow control statements are not properly \
             nested.`)"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("CMakeLists.txt", lists),
        &[("endif()\n", "else()\n  add_definitions(-DUNIX)\nendif()\n")],
    );
    let setup = "[options]\ninstall_requires =\n    click>=8\npython_requires = >=3.9\n";
    assert_doubts_say(
        ("setup.cfg", setup),
        &[(
            "    click>=8\n",
            "    click>=8\nrequests\n",
            "as written, line 4 (`requests`) stands at column 1, under the multi-line value of \
             `install_requires` (line 2): a value continues only on indented lines, so the line \
             ends it and Python's configparser refuses the whole file"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("setup.cfg", setup),
        &[("    click>=8\n", "    click>=8\n    requests\n")],
    );
    let main = "resource \"aws_instance\" \"web\" {\n  ami           = \"ami-1\"\n  \
                instance_type = \"t3.micro\"\n  tags = { Name = \"web\" }\n}\n\n\
                locals {\n  zones = [\"a\", \"b\"]\n}\n";
    assert_doubts_say(
        ("main.tf", main),
        &[
            (
                "  ami           = \"ami-1\"\n",
                "  ami           = \"ami-1\"\n  instance_type = \"t3.large\"\n",
                "as written, the argument `instance_type` is set twice in resource \
                 \"aws_instance\" \"web\", at lines 3 and 4: Terraform refuses the file (`Error: \
                 Attribute redefined`"
                    .to_string(),
            ),
            (
                "locals {\n",
                "resource \"aws_instance\" \"web\" {\n  ami = \"ami-2\"\n}\n\nlocals {\n",
                "as written, `resource \"aws_instance\" \"web\"` is declared twice, at lines 1 and \
                 7: Terraform refuses the module (`Error: Duplicate resource \"aws_instance\" \
                 configuration`)"
                    .to_string(),
            ),
            (
                "  zones = [\"a\", \"b\"]\n",
                "  zones = [\"a\", \"b\" \"c\"]\n",
                "Terraform refuses the file (`Error: Missing item separator`".to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("main.tf", main),
        &[
            (
                "  instance_type = \"t3.micro\"\n",
                "  instance_type = \"t3.large\"\n",
            ),
            (
                "  zones = [\"a\", \"b\"]\n",
                "  zones = [\"a\", \"b\", \"c\"]\n",
            ),
            (
                "  tags = { Name = \"web\" }\n",
                "  tags = { Name = \"web\", Role = \"app\" }\n",
            ),
        ],
    );
}

/// A tester's find (round 49 T-08): a PHP file's `}`, an nginx
/// configuration's `}` or `;`, a Vue component's `<template>` end tag and
/// the braces of a page's `<script>` or `<style>` dropped by an exact edit
/// passed. Each is a doubt for every agent, said with the line and what
/// the tool says; edits keeping them balanced stay exact.
#[test]
fn php_nginx_vue_and_inline_script_blocks_left_unbalanced_are_doubts() {
    let php = "<?php\n// Greets.\nfunction greet($name) {\n    if ($name === '') {\n        return 'Hi }';\n    }\n    return \"Hello {$name}\";\n}\n";
    assert_doubts_say(
        ("greet.php", php),
        &[(
            "        return 'Hi }';\n    }\n",
            "        return 'Hi }';\n",
            "php -l: `Unclosed '{' on line 3`".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("greet.php", php),
        &[
            ("// Greets.\n", "// Greets { the user.\n"),
            ("        return 'Hi }';\n", "        return 'Hi {';\n"),
        ],
    );
    let nginx = "server {\n    listen 80;\n    root /var/www;\n    index index.html;\n    location / {\n        try_files $uri =404;\n    }\n}\n";
    assert_doubts_say(
        ("nginx.conf", nginx),
        &[
            (
                "        try_files $uri =404;\n",
                "        try_files $uri =404\n",
                "nginx -t: `unexpected \"}\"`".to_string(),
            ),
            (
                "    }\n}\n",
                "    }\n",
                "nginx -t: `unexpected end of file, expecting \"}\"`".to_string(),
            ),
            (
                "    root /var/www;\n",
                "    root /var/www\n",
                "the `index` directive on line 4 `index index.html;` is read as more of its \
                 arguments"
                    .to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("nginx.conf", nginx),
        &[(
            "    listen 80;\n",
            "    listen 80;\n    # { a note\n    listen [::]:80;\n",
        )],
    );
    let vue = "<template>\n  <p>{{ n }}</p>\n</template>\n\n<script>\nexport default {\n  data() {\n    return { n: 1 };\n  },\n};\n</script>\n\n<style>\np {\n  color: red;\n}\n</style>\n";
    assert_doubts_say(
        ("Count.vue", vue),
        &[
            (
                "    return { n: 1 };\n  },\n",
                "    return { n: 1 };\n",
                "the code of the `<script>` elements, read as JavaScript: as written, the file \
                 has one `}` fewer than `{`"
                    .to_string(),
            ),
            (
                "  color: red;\n}\n",
                "  color: red;\n",
                "the `{` on line 14 `p {` inside a `<style>` element is never closed".to_string(),
            ),
            (
                "  <p>{{ n }}</p>\n</template>\n",
                "  <p>{{ n }}</p>\n",
                "Vue's compiler: `Element is missing end tag`".to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("Count.vue", vue),
        &[
            ("    return { n: 1 };\n", "    return { n: 2, m: '}' };\n"),
            (
                "  <p>{{ n }}</p>\n",
                "  <p>{{ n }}</p>\n  <template v-if=\"n\">{</template>\n",
            ),
        ],
    );
    let page = "<!doctype html>\n<html>\n<body>\n<script>\ndocument.addEventListener('load', () => {\n  start();\n});\n</script>\n</body>\n</html>\n";
    assert_doubts_say(
        ("index.html", page),
        &[(
            "  start();\n});\n",
            "  start();\n",
            "read as JavaScript".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("index.html", page),
        &[("  start();\n", "  start({ a: 1 });\n")],
    );
}

/// Tester 49, T-12, T-02, T-04, T-05: a `[[`, an array or `function f`
/// written into a `#!/bin/sh` script (dash refuses or misruns them), a
/// heredoc's `EOF` renamed on one side (the commands below become its
/// text), a Dockerfile `CMD ['python', 'app.py']` (run as a shell
/// command), a package.json script left ending in `&&` (sh: end of file
/// unexpected): each was exact before. A doubt in every agent's shape;
/// the same lines written the POSIX or JSON way are exact.
#[test]
fn sh_heredoc_dockerfile_and_npm_edits_that_misrun_are_a_doubt() {
    let script = "#!/bin/sh\nset -e\nif [ -n \"$1\" ]; then\n  echo yes\nfi\ncat <<EOF\nhello\nEOF\necho done\n\
                  cat <<EOF >log\nbye\nEOF\n";
    let file = ("deploy.sh", script);
    assert_doubts_say(
        file,
        &[
            (
                "if [ -n \"$1\" ]; then\n",
                "if [[ -n \"$1\" ]]; then\n",
                "line 3 (`if [[ -n \"$1\" ]]; then`) writes `[[`, which only bash reads, in a \
                 script whose `#!` line runs `sh` (dash on Debian and Ubuntu): dash has no `[[`"
                    .to_string(),
            ),
            (
                "set -e\n",
                "set -e\nitems=(a b)\n",
                "`Syntax error: \"(\" unexpected` (`dash -n` refuses it)".to_string(),
            ),
            (
                "hello\nEOF\n",
                "hello\nEND\n",
                "the heredoc line 6 (`cat <<EOF`) opens ends only at line 12, the next line `EOF`, \
                 so line 9 (`echo done`), a command before the edit, is now the heredoc's text"
                    .to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        file,
        &[
            (
                "if [ -n \"$1\" ]; then\n",
                "if [ -n \"$1\" ] && [ -z \"$2\" ]; then\n",
            ),
            ("cat <<EOF\nhello\nEOF\n", "cat <<END\nhello there\nEND\n"),
        ],
    );
    let dockerfile = (
        "Dockerfile",
        "FROM python:3.12\nCOPY . /app\nCMD [\"python\", \"app.py\"]\n",
    );
    assert_doubts_say(
        dockerfile,
        &[(
            "CMD [\"python\", \"app.py\"]\n",
            "CMD ['python', 'app.py']\n",
            "`/bin/sh -c \"['python', 'app.py']\"`, and sh fails with `[python,: not found`"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        dockerfile,
        &[(
            "CMD [\"python\", \"app.py\"]\n",
            "CMD [\"python\", \"main.py\"]\n",
        )],
    );
    let package = (
        "package.json",
        "{\n  \"name\": \"app\",\n  \"scripts\": {\n    \"build\": \"tsc\"\n  }\n}\n",
    );
    assert_doubts_say(
        package,
        &[(
            "    \"build\": \"tsc\"\n",
            "    \"build\": \"tsc &&\"\n",
            "ends in `&&` with no command after it: npm runs it as `sh -c`, and sh stops with \
             `Syntax error: end of file unexpected`"
                .to_string(),
        )],
    );
    // T-04's rest: a function renamed while a call keeps its old name.
    let hello = (
        "hi.sh",
        "#!/bin/bash\ngreet() {\n  echo \"hi $1\"\n}\ngreet \"$1\"\n",
    );
    assert_doubts_say(
        hello,
        &[(
            "greet() {\n",
            "say_hello() {\n",
            "line 2 (`say_hello() {`) renames the function `greet` to `say_hello`, and line 5 \
             (`greet \"$1\"`) still calls `greet`"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(hello, &[("greet \"$1\"\n", "greet \"$1\" \"$2\"\n")]);
    assert_exact_for_every_agent(
        package,
        &[(
            "    \"build\": \"tsc\"\n",
            "    \"build\": \"tsc && vite build\"\n",
        )],
    );
}

/// The tester's finds (round 50, T-04 and T-07): a C file's `#endif` and
/// a Makefile's `endif` the new text drops, denied for every agent with
/// gcc's and make's words; the same edits keeping them are exact.
#[test]
fn an_endif_the_new_text_drops_in_c_or_make_is_a_doubt() {
    let header = "#include <stdio.h>\n\n#ifdef DEBUG\n#define LOG(x) printf(\"%s\\n\", x)\n\
                  #else\n#define LOG(x)\n#endif\n\nint main(void) {\n    LOG(\"start\");\n    \
                  return 0;\n}\n";
    assert_doubts_say(
        ("h.c", header),
        &[(
            "#define LOG(x)\n#endif\n",
            "#define LOG(x) (void)0\n",
            "as written, the `#ifdef` on line 3 (its last branch `#else` on line 5) is never \
             closed: no `#endif` follows it, where the file before closed each conditional (the \
             C preprocessor (gcc) refuses the file: `unterminated #else`"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("h.c", header),
        &[(
            "#define LOG(x)\n#endif\n",
            "#define LOG(x) (void)0\n#endif\n",
        )],
    );
    let makefile = "CC ?= cc\nifeq ($(MODE),release)\nCFLAGS += -O2\nendif\n\nall:\n\t$(CC) \
                    $(CFLAGS) -o app app.c\n";
    assert_doubts_say(
        ("Makefile", makefile),
        &[(
            "CFLAGS += -O2\nendif\n",
            "CFLAGS += -O2 -DNDEBUG\n",
            "as written, the `ifeq` on line 2 is never closed: no `endif` follows it, where the \
             file before closed each conditional (make refuses the file: `missing 'endif'`"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("Makefile", makefile),
        &[("CFLAGS += -O2\nendif\n", "CFLAGS += -O2 -DNDEBUG\nendif\n")],
    );
}

/// Tester 50 T-01, T-02, T-03, T-05, T-06, T-08: an element's `,` or a
/// statement's `;` the edit leaves out is a doubt for every agent, said
/// with the line and what the language then does; the same edits with
/// the separator are exact.
#[test]
fn a_separator_the_edit_leaves_out_is_a_doubt_for_every_agent() {
    let keywords = "softkwlist = [\n    '_',\n    'case',\n    'match'\n]\n";
    let last = "    'match'\n]";
    assert_doubts_say(
        ("keyword.py", keywords),
        &[(
            last,
            "    'match'\n    'type'\n]",
            "line 4 (`'match'`) has no `,` before line 5 (`'type'`), which starts another \
             element: Python joins the two strings into one, silently"
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("keyword.py", keywords),
        &[
            (last, "    'match',\n    'type'\n]"),
            (last, "    'match'\n\n]"),
        ],
    );
    let exports = "module.exports = {\n  access: require('./access.js'),\n  publish: \
                   require('./publish.js'),\n}\n";
    let publish = "  publish: require('./publish.js'),\n";
    assert_doubts_say(
        ("index.js", exports),
        &[(
            publish,
            "  publish: require('./publish.js')\n  provenance: true,\n",
            "JavaScript refuses the file (`SyntaxError: Unexpected identifier`)".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("index.js", exports),
        &[(
            publish,
            "  publish: require('./publish.js'),\n  provenance: true,\n",
        )],
    );
    let levels = "pub fn level(l: u8) -> &'static str {\n    match l {\n        0 => \"debug\",\n        \
                  1 => \"info\",\n        _ => \"?\",\n    }\n}\n";
    let info = "        1 => \"info\",\n";
    assert_doubts_say(
        ("lvl.rs", levels),
        &[(
            info,
            "        1 => \"info\"\n        2 => \"error\",\n",
            "expected `,` following `match` arm".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("lvl.rs", levels),
        &[(info, "        1 => \"info\",\n        2 => \"error\",\n")],
    );
    let point =
        "struct point {\n    int x;\n    int y;\n};\n\nint main(void) {\n    return 0;\n}\n";
    assert_doubts_say(
        ("h.c", point),
        &[(
            "    int y;\n};",
            "    int y;\n    int z;\n}",
            "has no `;` after the definition of `struct point`".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("h.c", point),
        &[("    int y;\n};", "    int y;\n    int z;\n};")],
    );
    let schema = "CREATE TABLE users (id INTEGER PRIMARY KEY);\nCREATE TABLE posts (id INTEGER \
                  PRIMARY KEY, user_id INTEGER);\nINSERT INTO users VALUES (1);\n";
    let posts = "CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER);\n";
    assert_doubts_say(
        ("m.sql", schema),
        &[(
            posts,
            "CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER, body TEXT)\n",
            "the statement runs on into `INSERT` as one statement".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("m.sql", schema),
        &[(
            posts,
            "CREATE TABLE posts (id INTEGER PRIMARY KEY, user_id INTEGER, body TEXT);\n",
        )],
    );
    let dockerfile = "FROM python:3.12\nWORKDIR /app\nCOPY . .\nCMD [\"python\", \"app.py\"]\n";
    let cmd = "CMD [\"python\", \"app.py\"]\n";
    assert_doubts_say(
        ("Dockerfile", dockerfile),
        &[(
            cmd,
            "CMD [\"python\" \"-u\", \"app.py\"]\n",
            "has no `,` between `\"python\"` and `\"-u\"`".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("Dockerfile", dockerfile),
        &[(cmd, "CMD [\"python\", \"-u\", \"app.py\"]\n")],
    );
}

/// Tester 49 T-14 and conf50's leftovers: a Nix binding's `;` dropped, a
/// `let` without its `in`, two CMake commands on one line, a Terraform
/// argument run on after its value: each a doubt for every agent, with
/// the tool's own error; the same lines written whole are exact.
#[test]
fn nix_cmake_and_terraform_separators_left_out_are_doubts() {
    let drv = "{ lib, stdenv }:\nlet\n  version = \"1.2\";\nin\nstdenv.mkDerivation {\n  \
               pname = \"hello\";\n  inherit version;\n  doCheck = true;\n}\n";
    assert_doubts_say(
        ("default.nix", drv),
        &[
            (
                "  pname = \"hello\";\n",
                "  pname = \"hello-tool\"\n",
                "line 6 (`pname = \"hello-tool\"`) has no `;` before line 7 (`inherit version;`), \
                 which starts another binding"
                    .to_string(),
            ),
            (
                "  doCheck = true;\n",
                "  doCheck = false\n",
                "Nix refuses the file (`error: syntax error, unexpected '}', expecting ';'`)"
                    .to_string(),
            ),
            (
                "in\nstdenv.mkDerivation {\n",
                "stdenv.mkDerivation {\n",
                "as written, the `let` at line 2 has no `in` before its body at line 4".to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("default.nix", drv),
        &[
            ("  pname = \"hello\";\n", "  pname = \"hello-tool\";\n"),
            (
                "  doCheck = true;\n",
                "  doCheck = true;\n  dontStrip = true;\n",
            ),
        ],
    );
    let lists = "project(demo C)\nadd_executable(demo main.c)\n";
    assert_doubts_say(
        ("CMakeLists.txt", lists),
        &[(
            "add_executable(demo main.c)\n",
            "add_executable(demo main.c) target_link_libraries(demo m)\n",
            "Parse error.  Expected a newline, got identifier with text \
             \"target_link_libraries\"."
                .to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("CMakeLists.txt", lists),
        &[(
            "add_executable(demo main.c)\n",
            "add_executable(demo main.c) # target_link_libraries(demo m)\n",
        )],
    );
    let main = "locals {\n  name = \"web\"\n  zone = \"a\"\n}\n";
    assert_doubts_say(
        ("main.tf", main),
        &[(
            "  name = \"web\"\n  zone = \"a\"\n",
            "  name = \"web\" zone = \"a\"\n",
            "Terraform refuses the file (`Error: Missing newline after argument`".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("main.tf", main),
        &[("  name = \"web\"\n", "  name = \"web\" # zone = \"b\"\n")],
    );
}

/// A tester's find (round 50, T-09): in a `set -e` build script, `[
/// "$mode" = "dev"]` (`[` with no `]` word: status 2, the `else` taken)
/// and `[ "$mode"="dev" ]` (one word: always true) were allowed by every
/// agent's gate; `bash -n` and `dash -n` accept both. Denied now, naming
/// the line and what the shell does; the spaced test passes.
#[test]
fn a_shell_test_left_without_its_bracket_or_joined_is_a_doubt() {
    let build = "#!/bin/bash\nset -e\nmode=\"$1\"\nif [ \"$mode\" = \"dev\" ]; then\n  \
                 echo dev\nelse\n  echo prod\nfi\n";
    let test = "if [ \"$mode\" = \"dev\" ]; then\n";
    assert_doubts_say(
        ("build.sh", build),
        &[
            (
                test,
                "if [ \"$mode\" = \"dev\"]; then\n",
                "line 4 (`if [ \"$mode\" = \"dev\"]; then`) runs `[` with `\"dev\"]` as its last \
                 word, not `]`"
                    .to_string(),
            ),
            (
                test,
                "if [ \"$mode\"=\"dev\" ]; then\n",
                "gives `[` the one word `\"$mode\"=\"dev\"`, its `=` joined to both sides, where \
                 a comparison is three words: always true: `[` tests one non-empty string"
                    .to_string(),
            ),
            (
                test,
                "if [[ $mode == dev]]; then\n",
                "opens `[[` and no `]]` word closes it".to_string(),
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("build.sh", build),
        &[
            (test, "if [ \"$mode\" = \"development\" ]; then\n"),
            (
                test,
                "if [ \"$mode\" != \"prod\" ] && [ -n \"$mode\" ]; then\n",
            ),
            (test, "if [[ $mode == dev* ]]; then\n"),
            (
                "  echo dev\n",
                "  echo dev\n  [ -d build ] || mkdir build\n",
            ),
        ],
    );
}

/// `fnmatch.py` of Python 3.11's standard library (tester 51 T-10's file).
const FNMATCH: &str = include_str!("../fixtures/trust/py_depth/fnmatch.py.txt");

/// Tester 51 T-10: a kept line re-sent one level into the block above it
/// (`return result` into `filter`'s `else:`: `filter()` returns None on
/// posix) or out of its own (`result.append(name)` out of its `if`: every
/// name returned) is a doubt for every agent (Codex: the same edit as a
/// patch, `-    return result` / `+        return result`), naming the
/// line and both blocks; the same edits with the line at its column, and a
/// block wrapped whole in a new `if`, are exact.
#[test]
fn a_kept_line_reindented_into_another_block_is_doubted_for_every_agent() {
    let into_old = "    else:\n        for name in names:\n            if match(os.path.normcase(name)):\n                result.append(name)\n    return result\n";
    let comment = "    else:\n        # normcase is needed on Windows: compare case-folded names.\n        for name in names:\n            if match(os.path.normcase(name)):\n                result.append(name)\n";
    let out_old = "        for name in names:\n            if match(name):\n                result.append(name)\n    else:\n";
    let matched =
        "        for name in names:\n            if match(name):\n                matched = True\n";
    let into_new = format!("{comment}        return result\n");
    let out_new = format!("{matched}            result.append(name)\n    else:\n");
    assert_doubts_say(
        ("fnmatch.py", FNMATCH),
        &[
            (
                into_old,
                into_new.as_str(),
                "line 63 (`return result`), kept word for word, moves from `filter`'s body (line \
                 48) into the `else:` block (line 58): the new text sets it at column 8 where \
                 the file before has it at column 4"
                    .to_string(),
            ),
            (
                out_old,
                out_new.as_str(),
                "line 58 (`result.append(name)`), kept word for word, moves from the `if \
                 match(name):` block (line 56) into the `for name in names:` block (line 55)"
                    .to_string(),
            ),
        ],
    );
    let body =
        "    result = []\n    pat = os.path.normcase(pat)\n    match = _compile_pattern(pat)\n";
    let wrapped = "    if pat:\n        result = []\n        pat = os.path.normcase(pat)\n        match = _compile_pattern(pat)\n";
    assert_exact_for_every_agent(
        ("fnmatch.py", FNMATCH),
        &[
            (into_old, &format!("{comment}    return result\n")),
            (
                out_old,
                &format!("{matched}                result.append(name)\n    else:\n"),
            ),
            (body, wrapped),
        ],
    );
}

/// Tester 51 T-11: `TZ: UTC` added under web's `environment` and the kept
/// `db:` re-sent 2 columns deeper. The doubt names the key that moves
/// (`db`, from `services` into `services.web`), what YAML then reads
/// (db's `image` given twice in web, the last kept; db null) and advice
/// that is right: `db:` at its own column. That advice, followed, is exact
/// for every agent.
#[test]
fn a_kept_yaml_key_sent_deeper_below_a_new_key_is_named_with_what_yaml_reads() {
    let compose = "services:\n  web:\n    image: nginx\n    environment:\n      DEBUG: \"0\"\n  db:\n    image: postgres\n";
    let old = "    environment:\n      DEBUG: \"0\"\n  db:\n";
    let new = "    environment:\n      DEBUG: \"0\"\n      TZ: UTC\n    db:\n";
    assert_doubts_say(
        ("compose.yml", compose),
        &[(
            old,
            new,
            "as written, line 7 (`db:`) moves the key `db` from under `services` to under \
             `services.web`: the new text sets it at column 4 where the line it rewrites (line \
             6 of the file before) is at column 2"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("compose.yml", compose),
        &[(
            old,
            new,
            "`image` is given there twice (lines 3 and 8), and YAML readers (PyYAML) keep the \
             last, line 8's, and `db` is left with no value (null): send `db:` at column 2, as \
             line 6 of the file before has it"
                .to_string(),
        )],
    );
    let followed = "    environment:\n      DEBUG: \"0\"\n      TZ: UTC\n  db:\n";
    assert_exact_for_every_agent(("compose.yml", compose), &[(old, followed)]);
}

/// Tester 50's T-10: the `}` after `return $r;` of Text::Wrap's `sub wrap`
/// taken out, and an awk `if` block's `}`, were allowed (`perl -c`:
/// "Missing right curly or square bracket"; mawk: "missing } near END").
/// Each is a doubt for every agent, in perl's and awk's words, for a
/// `.pm`, a script told by its `#!` and an `.awk` file; harmless edits
/// (a string holding brackets, a regex, a heredoc) and a Prolog `.pl`
/// file are exact.
#[test]
fn a_perl_or_awk_blocks_lost_brace_is_a_doubt() {
    let wrap = "package Text::Wrap;\n\nuse strict;\n\nsub wrap {\n    my ($ip, $xp, @t) = @_;\n    my $r = \"\";\n    for my $t (@t) {\n        $r .= $t =~ s{\\s+}{ }gr;\n    }\n    return $r;\n}\n\n1;\n";
    let script = "#!/usr/bin/env perl\nuse strict;\nmy %seen;\nwhile (my $l = <STDIN>) {\n    next if $l =~ /^[#{]/;\n    $seen{$l}++;\n}\nprint scalar(keys %seen), \"\\n\";\n";
    let awk = "#!/usr/bin/awk -f\nBEGIN { n = 0 }\n{\n    if ($1 ~ /^[}]/) {\n        n++\n    }\n}\nEND { print n }\n";
    let prolog = "parent(tom, bob).\nancestor(X, Y) :- parent(X, Y).\n";
    assert_doubts_say(
        ("lib/Text/Wrap.pm", wrap),
        &[(
            "    return $r;\n}\n",
            "    return $r;\n",
            "as written, the file has one `}` fewer than `{` (perl -c: Missing right curly or \
             square bracket) (srview counts Perl's brackets outside comments, strings, quote \
             operators, regular expressions, heredocs and POD; the file before has each \
             closed): the edit's old text closes a block its new text does not close (line 12 \
             `}`)"
                .to_string(),
        )],
    );
    assert_doubts_say(
        ("bin/uniq-count", script),
        &[(
            "    $seen{$l}++;\n}\n",
            "    $seen{$l}++;\n}\n}\n",
            "(perl -c: Unmatched right curly bracket)".to_string(),
        )],
    );
    assert_doubts_say(
        ("bin/count", awk),
        &[(
            "        n++\n    }\n",
            "        n++\n",
            "(awk: missing })".to_string(),
        )],
    );
    assert_exact_for_every_agent(
        ("lib/Text/Wrap.pm", wrap),
        &[
            ("    my $r = \"\";\n", "    my $r = \"{ (\";\n"),
            (
                "    return $r;\n",
                "    print <<EOT;\n}\nEOT\n    return $r;\n",
            ),
        ],
    );
    assert_exact_for_every_agent(
        ("bin/count", awk),
        &[("        n++\n", "        if (/[{(]/) n++\n")],
    );
    assert_exact_for_every_agent(
        ("family.pl", prolog),
        &[(
            "parent(tom, bob).\n",
            "parent(tom, bob).\nparent(bob, (ann).\n",
        )],
    );
}

// --- tester round 51: patch sections that lose or misplace a change ---

/// `agent`'s `apply_patch` call (Codex: its patch command) sending `patch`.
fn patch_call(agent: GateAgent, patch: &str) -> Vec<u8> {
    match agent {
        GateAgent::Codex => edit_payload(agent, json!({ "command": patch })),
        GateAgent::Opencode => own_payload("apply_patch", json!({ "patchText": patch })),
        _ => clines_call("apply_patch", json!({ "input": patch })),
    }
}

/// `agent`'s judgment of `patch` over `fs`: a doubt whose reason says
/// `said`.
fn assert_patch_doubted(agent: GateAgent, fs: MemoryFs, patch: &str, said: &str) {
    let payload = patch_call(agent, patch);
    let judgment = judge(agent, &payload, |_| fs, &Policy::default());
    assert_eq!(
        judgment.case,
        Case::Doubt,
        "{agent:?} {patch}: {:?}",
        judgment.answer
    );
    let reason = deny_reason(&judgment);
    assert!(reason.contains(said), "{agent:?}: {reason}");
}

const TWO_DEFS: &str = "def f():\n    return 1\n\n\ndef g():\n    return 3\n";

/// Tester 51 T-01: two sections updating one file under two names
/// (`./a.py`, its absolute path, a symbolic link to it). Cline 3.x's and
/// OpenCode's `apply_patch` compute each section from the file before the
/// patch and write them in turn: the first change is lost, and the gate
/// allowed it. Codex applies the sections in turn: both changes stay.
#[test]
fn a_file_updated_under_two_names_is_doubted_where_its_first_change_is_lost() {
    let fs =
        || MemoryFs::new([("a.py".to_string(), TWO_DEFS.to_string())]).with_link("link.py", "a.py");
    let patch = |second: &str| {
        format!(
            "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
             *** Update File: {second}\n@@\n def g():\n-    return 3\n+    return 4\n*** End Patch\n"
        )
    };
    let absolute = format!("{CWD}/a.py");
    for (agent, name) in [
        (GateAgent::ClineCli, "Cline"),
        (GateAgent::Opencode, "OpenCode"),
    ] {
        for second in ["./a.py", absolute.as_str(), "link.py"] {
            assert_patch_doubted(
                agent,
                fs(),
                &patch(second),
                &format!(
                    "sections 1 and 2 both update a.py (patch lines 2-11, section 2 naming it \
                     {second}"
                ),
            );
            assert_patch_doubted(
                agent,
                fs(),
                &patch(second),
                &format!("{name}'s apply_patch reads each section from a.py as it was before"),
            );
        }
    }
    let payload = patch_call(GateAgent::Codex, &patch("./a.py"));
    let judgment = judge(GateAgent::Codex, &payload, |_| fs(), &Policy::default());
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}

/// Tester 51 T-07: a patch that updates a file and then deletes it (spelt
/// alike or `./a.py`): every patch agent writes the update and deletes the
/// file, and the gate allowed it (it doubted the mirror cases: a Delete and
/// an Add, a Move onto the file itself).
#[test]
fn an_update_then_a_delete_of_the_file_is_doubted() {
    let patch = |deleted: &str| {
        format!(
            "*** Begin Patch\n*** Update File: a.py\n@@\n def f():\n-    return 1\n+    return 2\n\
             *** Delete File: {deleted}\n*** End Patch\n"
        )
    };
    let fs = || MemoryFs::new([("a.py".to_string(), TWO_DEFS.to_string())]);
    for (agent, name) in [
        (GateAgent::Codex, "Codex"),
        (GateAgent::ClineCli, "Cline"),
        (GateAgent::Opencode, "OpenCode"),
    ] {
        assert_patch_doubted(
            agent,
            fs(),
            &patch("./a.py"),
            &format!(
                "the patch updates a.py (section 1) and then deletes it as ./a.py (section 2): \
                 {name}'s apply_patch writes the update, then deletes the file, and the update is \
                 lost: send the patch without the `*** Delete File:` section to update a.py, or \
                 without its `*** Update File:` section to delete it"
            ),
        );
    }
    // Spelt alike: Cline refuses it itself (`Duplicate delete`).
    for agent in [GateAgent::Codex, GateAgent::Opencode] {
        assert_patch_doubted(
            agent,
            fs(),
            &patch("a.py"),
            "the patch updates a.py (section 1) and then deletes it (section 2)",
        );
    }
}

/// Tester 51 T-08: Cline ignores an `@@` line it does not find and matches
/// the hunk from the top: a hunk under `@@ def g(a, b):` quoting a line of
/// `f` edits `f`. The gate allowed it as exact.
#[test]
fn a_cline_hunk_under_an_ignored_header_of_another_definition_is_doubted() {
    let sim = "def f(a, b, c):\n    total = compute(a, b)\n    return total\n\n\n\
               def g(a, b, c):\n    total = compute(a, c)\n    return total\n";
    let fs = || MemoryFs::new([("sim.py".to_string(), sim.to_string())]);
    let patch = |header: &str| {
        format!(
            "*** Begin Patch\n*** Update File: sim.py\n@@ {header}\n     total = compute(a, b)\n\
             -    return total\n+    return total * 2\n*** End Patch\n"
        )
    };
    assert_patch_doubted(
        GateAgent::ClineCli,
        fs(),
        &patch("def g(a, b):"),
        "edit 1: its @@ line 'def g(a, b):' is not in the file, so Cline searched from the top \
         without it and placed the hunk in `f` (line 2); the closest line to the header is `def \
         g(a, b, c):` at line 6: send the @@ line as the file has it, with context lines of the \
         definition meant",
    );
    // A stale header of the definition the hunk lands in: exact.
    let payload = patch_call(GateAgent::ClineCli, &patch("def f(a, b):"));
    let judgment = judge(GateAgent::ClineCli, &payload, |_| fs(), &Policy::default());
    assert_eq!(judgment.case, Case::Exact, "{:?}", judgment.answer);
}
