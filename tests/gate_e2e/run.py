#!/usr/bin/env python3
"""End-to-end check of `srview gate` inside the REAL agent CLIs.

NOT RUN IN CI: it installs the agent CLIs with npm (network), runs them (tens of
seconds per agent) and needs Node. Run it by hand:

    cargo build --bin srview
    python3 tests/gate_e2e/run.py claude-code [SCENARIO...] [--srview PATH] [--cli PATH]
        [--agents-dir DIR] [--out DIR] [--no-isolation]

For each scenario it makes a fresh HOME and project (`inventory.py`), seeds the
agent's provider config (pointing at the scripted model server), runs
`srview gate install --agent NAME --user` there, starts the scripted model server
(`server.py`, the one the hook recordings used: it plays the model's turns from a
script and logs every request), runs the agent CLI once with the recorded command
line and a bare environment (`env -i` plus the recorded variables, stdin
/dev/null), and prints:

  - what `gate install` wrote, and each edit the scripted model sent;
  - the gate's record (`.srview/gate.jsonl`): what srview decided;
  - the tool results the model received (from the model's last request, which
    carries the whole history): srview's message where it denied;
  - the file before/after (a diff, or "unchanged");
  - `gate install --uninstall` after the CLI ran: each config file install
    touched, byte-identical to before the install or not.

Isolation: where `unshare` works (root, or unprivileged user namespaces) the run
happens inside `unshare -m -n` as the recordings did: private network with only
loopback up, a tmpfs on /home (HOME=/home/user, project /home/user/project,
srview copied to /home/bin/srview). Elsewhere (`--no-isolation`, or no
unshare) it runs in a temporary folder on the host's loopback, with a free port.

The CLIs are installed with npm at the exact versions the recordings used into
--agents-dir (default ~/.cache/srview-gate-e2e), once; `--cli PATH` takes an
installed one instead (its `--version` must name the exact version).
"""
import argparse
import difflib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
INVENTORY = os.path.join(REPO, "tests", "fixtures", "gate", "inventory.py")

# ---------------------------------------------------------------- the edits

SKU_OLD = "    qty: int\n    price: float\n"
SKU_NEW = SKU_OLD + '    sku: str = ""\n'
# The recordings' mis-indented edit: 2 spaces where the file has 4.
SKU_OLD_2 = "  qty: int\n  price: float\n"
SKU_NEW_2 = SKU_OLD_2 + '  sku: str = ""\n'
# Claude Code: curly quotes, which Claude places by normalising the quotes.
CURLY_OLD = "    label = \u201clow\u201d if item.qty < LOW_STOCK else \u201cok\u201d\n"
CURLY_NEW = "    label = \u201cLOW\u201d if item.qty < LOW_STOCK else \u201cok\u201d\n"
# An old text that is nowhere in the file (a typo of LOW_STOCK = 5).
FAIL_OLD = "LOW_STOK = 5\n"
FAIL_NEW = "LOW_STOK = 10\n"


def patch(body):
    """A Codex apply_patch updating inventory.py."""
    return "*** Begin Patch\n*** Update File: inventory.py\n" + body + "*** End Patch"


PATCH_SKU = patch('@@ class Item:\n     qty: int\n     price: float\n+    sku: str = ""\n')
PATCH_SKU_2 = patch('@@ class Item:\n   qty: int\n   price: float\n+  sku: str = ""\n')
PATCH_FAIL = patch("@@\n-LOW_STOK = 5\n+LOW_STOK = 10\n")
PATCH_CURLY = patch("@@ def describe(item):\n-" + CURLY_OLD + "+" + CURLY_NEW)
# An exact edit of another line (`pane-session`'s second call).
LOW_OLD = "LOW_STOCK = 5\n"
LOW_NEW = "LOW_STOCK = 10\n"
PATCH_LOW = patch("@@\n-LOW_STOCK = 5\n+LOW_STOCK = 10\n TAX_RATE = 0.2\n")

# Each scenario: the prompt, the edits the model sends (old, new) one per turn,
# and the policy given to `gate install` (None: the default).
SKU_PROMPT = "Add a sku field (default empty string) to Item in inventory.py."
SCENARIOS = {
    "exact": dict(what="an exact edit", prompt=SKU_PROMPT, edits=[(SKU_OLD, SKU_NEW)]),
    "loose": dict(
        what="a loose edit: 2-space indentation where the file has 4 (the recordings' edit)",
        prompt=SKU_PROMPT,
        edits=[(SKU_OLD_2, SKU_NEW_2)],
    ),
    "loose-deny": dict(
        what="the same loose edit, installed with --policy loose=deny",
        prompt=SKU_PROMPT,
        edits=[(SKU_OLD_2, SKU_NEW_2)],
        policy="loose=deny",
    ),
    "again": dict(
        what="a damaging edit: the exact edit sent a second time after it was applied (it would add the line twice)",
        prompt=SKU_PROMPT,
        edits=[(SKU_OLD, SKU_NEW), (SKU_OLD, SKU_NEW)],
    ),
    "quotes": dict(
        what="an edit with curly quotes where the file has straight ones",
        prompt="Make the low-stock label upper case in inventory.py.",
        edits=[(CURLY_OLD, CURLY_NEW)],
    ),
    "failing": dict(
        what="an edit whose old text is in no line of the file (a typo: LOW_STOK)",
        prompt="Raise LOW_STOCK in inventory.py to 10.",
        edits=[(FAIL_OLD, FAIL_NEW)],
    ),
    "missing": dict(
        what="the loose edit, srview deleted after the install (the hook's program is missing)",
        prompt=SKU_PROMPT,
        edits=[(SKU_OLD_2, SKU_NEW_2)],
        missing=True,
    ),
    "project": dict(
        what="the loose edit, with the gate installed with --project (the project's config, not HOME's)",
        prompt=SKU_PROMPT,
        edits=[(SKU_OLD_2, SKU_NEW_2)],
        scope="project",
    ),
}
# Claude Code never shows its hook an edit it cannot match itself: its loose
# edits are the curly-quote ones it places by normalising the quotes.
CLAUDE_SCENARIOS = dict(SCENARIOS)
CLAUDE_SCENARIOS["loose"] = dict(
    what="a loose edit: curly quotes where the file has straight ones (Claude places it by normalising quotes)",
    prompt="Make the low-stock label upper case in inventory.py.",
    edits=[(CURLY_OLD, CURLY_NEW)],
)
del CLAUDE_SCENARIOS["quotes"]
CLAUDE_SCENARIOS["loose-deny"] = dict(CLAUDE_SCENARIOS["loose"], policy="loose=deny")
CLAUDE_SCENARIOS["loose-deny"]["what"] = "the same curly-quote edit, installed with --policy loose=deny"
CLAUDE_SCENARIOS["failing"] = dict(
    SCENARIOS["failing"],
    what="an edit whose old text is in no line of the file (Claude refuses it itself, before any hook)",
)
CLAUDE_SCENARIOS["missing"] = dict(CLAUDE_SCENARIOS["loose"], missing=True)
CLAUDE_SCENARIOS["missing"]["what"] = "the curly-quote edit, srview deleted after the install (the hook's program is missing)"
CLAUDE_SCENARIOS["project"] = dict(CLAUDE_SCENARIOS["loose-deny"], scope="project")
CLAUDE_SCENARIOS["project"]["what"] = ("the curly-quote edit with --policy loose=deny, installed with --project "
                                       "(the project's .claude/settings.json)")
CODEX_SCENARIOS = dict(SCENARIOS)
CODEX_SCENARIOS["project-trusted"] = dict(
    SCENARIOS["project"],
    what="the loose edit, installed with --project, the project trusted in Codex's config.toml by hand",
    seed_append={".codex/config.toml": '\n[projects."{project}"]\ntrust_level = "trusted"\n'},
)
GEMINI_SCENARIOS = dict(SCENARIOS)
GEMINI_SCENARIOS["project-folder-trust"] = dict(
    SCENARIOS["project"],
    what="the loose edit, installed with --project, with Gemini CLI's folder trust on (the folder not trusted)",
    folder_trust=True,
)
GEMINI_SCENARIOS["project-trusted"] = dict(
    SCENARIOS["project"],
    what="the loose edit, installed with --project, folder trust on and the folder trusted "
    "(GEMINI_CLI_TRUST_WORKSPACE=true)",
    folder_trust=True,
    env={"GEMINI_CLI_TRUST_WORKSPACE": "true"},
)
CODEX_PATCHES = {SKU_OLD: PATCH_SKU, SKU_OLD_2: PATCH_SKU_2, FAIL_OLD: PATCH_FAIL, CURLY_OLD: PATCH_CURLY,
                 LOW_OLD: PATCH_LOW}

# The review pane and the timeout paths, for every agent.
# `slow`: the gate waits for a review pane that runs but never answers, past
# what it may: installed with a short --timeout, the gate must answer (the
# policy's fallback) before the agent's own timeout kills it, which on four
# of six agents would run the edit.
SLOW_TIMEOUT = 5
# `pane-reject`: the pane answers `r` with this reason typed; the model must
# read it.
PANE_REASON = "SKUs live in the catalogue table, not in Item"


def slow():
    return dict(
        what="the exact edit sent twice; the second (a doubt: the default policy doubt=review) waits for a "
        "review pane (`srview review` in a pty) that runs but never answers; installed with --timeout %d"
        % SLOW_TIMEOUT,
        prompt=SKU_PROMPT, edits=[(SKU_OLD, SKU_NEW), (SKU_OLD, SKU_NEW)], timeout=SLOW_TIMEOUT, pane="silent")


def pane_reject(edit, what_edit, prompt=SKU_PROMPT):
    return dict(
        what="%s, installed with --policy loose=review; `srview review` runs in a pty (80x24) and answers "
        "`r` with a typed reason" % what_edit,
        prompt=prompt, edits=[edit], policy="loose=review", timeout=30, pane=("reject", PANE_REASON))


# `slow-judge`: the judgment itself slower than the agent's timeout: the
# loose edit in a 200,054-line inventory.py (50,000 helpers appended), which
# a debug build judges in about 2 s, installed with --timeout 1: the gate
# must answer its deny at 0.75 s, before the agent kills it at 1 s.
BIG_FILLER = "".join("def helper_%d(x):\n    return x + %d\n\n\n" % (i, i) for i in range(50000))


def slow_judge(edit, what_edit, prompt=SKU_PROMPT):
    return dict(
        what="%s in a 200,054-line inventory.py (a judgment of about 2 s in a debug build), installed with "
        "--timeout 1: srview's own deadline must answer before the agent's" % what_edit,
        prompt=prompt, edits=[edit], timeout=1, big=True)


# `pane-allow`, `pane-corrected`, `pane-session`: the pane's other answers.
# `a` lets the loose edit run as sent; `c` runs srview's corrected edit; `A`
# allows the call and the rest of its session: the second call (an exact
# edit put to the pane by exact=review) is answered by the pane at once.
def pane_answer(key, what_key, edit, what_edit, prompt=SKU_PROMPT):
    edits = [edit] + ([(LOW_OLD, LOW_NEW)] if key == "A" else [])
    # failing=review too: Qwen Code refuses the 2-space edit (a failing
    # case), which loose=review alone never puts to the pane.
    policy = "loose=review,failing=review,exact=review" if key == "A" else "loose=review,failing=review"
    return dict(
        what="%s, installed with --policy %s; `srview review` runs in a pty (80x24) and answers `%s` (%s)"
        % (what_edit, policy, key, what_key),
        prompt=prompt, edits=edits, policy=policy, timeout=30, pane=(key, None))


QUOTES_PROMPT = "Make the low-stock label upper case in inventory.py."
for table, edit, what_edit, prompt in (
        (SCENARIOS, (SKU_OLD_2, SKU_NEW_2), "the loose 2-space edit", SKU_PROMPT),
        (CLAUDE_SCENARIOS, (CURLY_OLD, CURLY_NEW), "the curly-quote edit", QUOTES_PROMPT),
        (CODEX_SCENARIOS, (SKU_OLD_2, SKU_NEW_2), "the loose 2-space patch", SKU_PROMPT),
        (GEMINI_SCENARIOS, (SKU_OLD_2, SKU_NEW_2), "the loose 2-space edit", SKU_PROMPT)):
    table["slow"] = slow()
    table["pane-reject"] = pane_reject(edit, what_edit, prompt)
    table["pane-allow"] = pane_answer("a", "allow", edit, what_edit, prompt)
    table["pane-corrected"] = pane_answer("c", "srview's corrected edit", edit, what_edit, prompt)
    table["pane-session"] = pane_answer("A", "allow the session", edit, what_edit, prompt)
    table["slow-judge"] = slow_judge(edit, what_edit, prompt)
    # The same with the timeout install writes by default (60 s).
    table["slow-60"] = dict(slow(), timeout=None, what=slow()["what"].replace(
        "installed with --timeout %d" % SLOW_TIMEOUT, "installed with the default timeout (60 s)"))
# Qwen Code and pi refuse the 2-space edit themselves (failing, not loose):
# their loose edit is the curly-quote one.
# Codex's port places the loose patch in the big file within the second
# (repaired in time): the failing one (a diagnosis of about 9 s in a debug
# build) is what outlasts the hook's timeout there.
CODEX_SCENARIOS["slow-judge"] = slow_judge(
    (FAIL_OLD, FAIL_NEW), "the failing patch (LOW_STOK; the loose one is repaired within the second even here)",
    "Raise LOW_STOCK in inventory.py to 10.")
CURLY_SCENARIOS = dict(SCENARIOS)
CURLY_SCENARIOS["pane-reject"] = pane_reject((CURLY_OLD, CURLY_NEW), "the curly-quote edit", QUOTES_PROMPT)
CURLY_SCENARIOS["slow-judge"] = slow_judge((CURLY_OLD, CURLY_NEW), "the curly-quote edit", QUOTES_PROMPT)

# Cline's `editor` places an old text exactly or not at all (no loose stage).
CLINE_SCENARIOS = {k: SCENARIOS[k] for k in ("exact", "again", "failing", "slow", "slow-60")}
# srview missing, with an edit Cline would apply (the loose one it refuses itself).
CLINE_SCENARIOS["missing"] = dict(
    SCENARIOS["again"], missing=True,
    what="the exact edit sent twice, srview deleted after the install (the hook's program is missing): "
    "Cline applies the second one (the sku line twice) unless the hook blocks it")
# A failing edit srview can correct (the typo is in old_text only), with
# --policy failing=repair: srview answers Cline's `overrideInput`.
CLINE_SCENARIOS["repair"] = dict(
    what="an edit whose old text has a typo its new text spells right (LOW_STOK), installed with "
    "--policy failing=repair: srview hands Cline the exact edit as its hook's overrideInput",
    prompt="Raise LOW_STOCK in inventory.py to 10.",
    edits=[("LOW_STOK = 5\nTAX_RATE = 0.2\n", "LOW_STOCK = 10\nTAX_RATE = 0.2\n")],
    policy="failing=repair")
CLINE_SCENARIOS["slow-judge"] = slow_judge((FAIL_OLD, FAIL_NEW), "the failing edit (LOW_STOK)", "Raise LOW_STOCK in inventory.py to 10.")
# The pane's answers on Cline: its `editor` has no loose stage, so the edit
# put to the pane is the failing one srview can correct (`repair`'s typo),
# installed with failing=review: `a` lets Cline refuse it itself, `c` hands
# Cline the exact edit (`overrideInput`), `A` allows it and the exact
# LOW_STOCK edit after it.
for _key, _what, _name in (("a", "allow", "pane-allow"), ("c", "srview's corrected edit", "pane-corrected"),
                           ("A", "allow the session", "pane-session")):
    CLINE_SCENARIOS[_name] = pane_answer(
        _key, _what, CLINE_SCENARIOS["repair"]["edits"][0],
        "the failing edit srview can correct (LOW_STOK in old_text only)", "Raise LOW_STOCK in inventory.py to 10.")

# Claude Code's Write: a new file, over an existing file, the very content
# the file holds, and a content that elides most of the file with a
# placeholder comment (a model's "rest unchanged").
with open(INVENTORY) as _f:
    INVENTORY_TEXT = _f.read()
REPORT_PY = ('"""Stock report for the shop."""\n\nfrom inventory import low_stock\n\n\n'
             "def report(items):\n    return [i.name for i in low_stock(items)]\n")
WRITE_PROMPT = "Write the stock report module."
CLAUDE_SCENARIOS["write-new"] = dict(
    what="a Write creating a new file (report.py)", prompt=WRITE_PROMPT, edits=[],
    writes=[("report.py", REPORT_PY)])
CLAUDE_SCENARIOS["write-over"] = dict(
    what="a Write over the existing inventory.py (read first): the whole file with LOW_STOCK = 10",
    prompt="Raise LOW_STOCK in inventory.py to 10.", edits=[],
    writes=[("inventory.py", INVENTORY_TEXT.replace("LOW_STOCK = 5\n", "LOW_STOCK = 10\n"))])
CLAUDE_SCENARIOS["write-same"] = dict(
    what="a Write over inventory.py of exactly the content it holds", prompt=SKU_PROMPT, edits=[],
    writes=[("inventory.py", INVENTORY_TEXT)])
CLAUDE_SCENARIOS["write-elided"] = dict(
    what="a Write over inventory.py keeping its first 14 lines, LOW_STOCK = 10, and the rest replaced by a "
    "placeholder comment (`# ... rest of the file unchanged ...`)",
    prompt="Raise LOW_STOCK in inventory.py to 10.", edits=[],
    writes=[("inventory.py", "".join(INVENTORY_TEXT.splitlines(True)[:14]).replace(
        "LOW_STOCK = 5\n", "LOW_STOCK = 10\n") + "\n# ... rest of the file unchanged ...\n")])

# ---------------------------------------------------------------- the agents

PROJECT_REL = "project"


def read_turn(name, args, call_id):
    return {"parts": [{"text": "Reading inventory.py."},
                      {"functionCall": {"name": name, "id": call_id, "args": args}}]}


# The settings that keep Gemini CLI and its fork Qwen Code from sending usage statistics.
NO_STATISTICS = {"privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False}}


def json_lines(text):
    """Each line of `text` that reads as JSON, read (the other lines passed over)."""
    for line in text.splitlines():
        try:
            yield json.loads(line)
        except ValueError:
            continue


def settings_file(tree):
    """A JSON settings file as the agents' own tools write one: two-space indents, a final newline."""
    return json.dumps(tree, indent=2) + "\n"


def stream_json_argv(cli, prompt, session, *flags):
    """`CLI -p PROMPT --output-format stream-json FLAGS --session-id SESSION`: the headless
    run Claude Code, Gemini CLI and Qwen Code share."""
    return [cli, "-p", prompt, "--output-format", "stream-json", *flags, "--session-id", session]


def edit_turns(scenario, name, args_of, call_id=None, first=1):
    """One model turn per edit `(old, new)` of `scenario`: a call of the tool `name` with
    the arguments `args_of(old, new)`, its id `call_id % k` with k counting from `first`
    (no id where `call_id` is None, as Gemini's function calls have none)."""
    turns = []
    for k, (old, new) in enumerate(scenario["edits"], first):
        call = {"name": name}
        if call_id is not None:
            call["id"] = call_id % k
        call["args"] = args_of(old, new)
        turns.append({"parts": [{"text": "Editing inventory.py."}, {"functionCall": call}]})
    return turns


class Agent:
    """One agent CLI: how to install it, seed it, script its model, run it."""

    id = ""
    title = ""
    version = ""
    npm = ""
    bin_rel = ""
    scenarios = SCENARIOS
    model_protocol = ""

    def cli_path(self, agents_dir):
        return os.path.join(agents_dir, self.id, "node_modules", ".bin", self.bin_rel)

    def seed(self, home, port, scenario):
        """Provider config files (relative to HOME) -> text."""
        return {}

    def turns(self, file_path, scenario):
        raise NotImplementedError

    def env(self, port):
        return {}

    def argv(self, cli, prompt, session):
        raise NotImplementedError

    def version_ok(self, out):
        return self.version in out


class ClaudeCode(Agent):
    id, title, version = "claude-code", "Claude Code", "2.1.328"
    npm, bin_rel = "@anthropic-ai/claude-code@2.1.328", "claude"
    scenarios = CLAUDE_SCENARIOS

    def seed(self, home, port, scenario):
        # A settings file of the user's own: install merges into it, and
        # uninstall after the run must give back these very bytes.
        return {".claude/settings.json": '{\n  "permissions": {\n    "deny": ["Bash(rm:*)"]\n  },\n'
                '  "cleanupPeriodDays": 30\n}\n'}

    def turns(self, file_path, scenario):
        # A big file is read in part (Claude's Read refuses a whole one).
        read = {"file_path": file_path, "offset": 1, "limit": 60} if scenario.get("big") else {"file_path": file_path}
        turns = [read_turn("Read", read, "toolu_01Read00000000000000000")] + edit_turns(
            scenario, "Edit", lambda old, new: {"file_path": file_path, "old_string": old, "new_string": new},
            "toolu_%02dEdit00000000000000000", first=2)
        for k, (name, content) in enumerate(scenario.get("writes", [])):
            turns.append({"parts": [{"text": "Writing %s." % name}, {"functionCall": {
                "name": "Write", "id": "toolu_%02dWrite0000000000000000" % (k + 2),
                "args": {"file_path": os.path.join(os.path.dirname(file_path), name), "content": content}}}]})
        return turns

    def env(self, port):
        return {"ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port, "ANTHROPIC_API_KEY": "sk-fake",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}

    def argv(self, cli, prompt, session):
        return stream_json_argv(cli, prompt, session, "--verbose", "--include-hook-events",
                                "--permission-mode", "acceptEdits", "--model", "claude-sonnet-4-5-20250929")


class Codex(Agent):
    id, title, version = "codex", "Codex", "0.169.0"
    npm, bin_rel = "@openai/codex@0.169.0", "codex"
    scenarios = CODEX_SCENARIOS

    def seed(self, home, port, scenario):
        return {".codex/config.toml": (
            'model_provider = "fake"\nmodel = "gpt-5.5"\ncheck_for_update_on_startup = false\n\n'
            '[model_providers.fake]\nname = "fake"\nbase_url = "http://127.0.0.1:%d/v1"\n'
            'wire_api = "responses"\nenv_key = "OPENAI_API_KEY"\n\n[analytics]\nenabled = false\n\n'
            '[otel]\nexporter = "none"\n' % port)}

    def turns(self, file_path, scenario):
        return [{"parts": [{"text": "Editing inventory.py."}, {"customToolCall": {
            "name": "apply_patch", "call_id": "call_patch_%02d" % (k + 1), "input": CODEX_PATCHES[old]}}]}
            for k, (old, _new) in enumerate(scenario["edits"])]

    def env(self, port):
        return {"OPENAI_API_KEY": "sk-fake"}

    def argv(self, cli, prompt, session):
        # No --dangerously-bypass-hook-trust: the trust `gate install` wrote must do.
        return [cli, "exec", "--json", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox",
                "-c", "model_provider=fake", "-c", "model=gpt-5.5", prompt]


class GeminiCli(Agent):
    id, title, version = "gemini-cli", "Gemini CLI", "0.61.0"
    npm, bin_rel = "@google/gemini-cli@0.61.0", "gemini"
    scenarios = GEMINI_SCENARIOS

    def seed(self, home, port, scenario):
        return {".gemini/settings.json": settings_file({
            **NO_STATISTICS,
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "security": {"auth": {"selectedType": "gemini-api-key"},
                         "folderTrust": {"enabled": bool(scenario.get("folder_trust"))}}})}

    def turns(self, file_path, scenario):
        return edit_turns(scenario, "replace", lambda old, new: {
            "file_path": file_path, "instruction": "Edit inventory.py as asked.",
            "old_string": old, "new_string": new})

    def env(self, port):
        return {"GEMINI_API_KEY": "fake", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port}

    def argv(self, cli, prompt, session):
        return stream_json_argv(cli, prompt, session, "--yolo", "-m", "gemini-3.5-flash")


class QwenCode(Agent):
    id, title, version = "qwen-code", "Qwen Code", "0.24.4"
    npm, bin_rel = "@qwen-code/qwen-code@0.24.4", "qwen"
    scenarios = CURLY_SCENARIOS

    def seed(self, home, port, scenario):
        return {".qwen/settings.json": settings_file({
            "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
            **NO_STATISTICS,
            "general": {"enableAutoUpdate": False}})}

    def turns(self, file_path, scenario):
        return [read_turn("read_file", {"file_path": file_path}, "call_read_01")] + edit_turns(
            scenario, "edit", lambda old, new: {"file_path": file_path, "old_string": old, "new_string": new},
            "call_edit_%02d", first=2)

    def env(self, port):
        return {"OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port, "OPENAI_API_KEY": "sk-fake",
                "OPENAI_MODEL": "fake-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}

    def argv(self, cli, prompt, session):
        return stream_json_argv(cli, prompt, session, "--yolo", "--auth-type", "openai", "-m", "fake-model")


class Opencode(Agent):
    id, title, version = "opencode", "OpenCode", "1.18.33"
    npm, bin_rel = "opencode-ai@1.18.33", "opencode"

    def seed(self, home, port, scenario):
        return {".config/opencode/opencode.json": settings_file({
            "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                  "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": "sk-fake"},
                                  "models": {"fake-model": {"name": "fake-model", "tool_call": True}}}},
            "model": "fake/fake-model", "small_model": "fake/fake-model", "autoupdate": False,
            "share": "disabled"})}

    def turns(self, file_path, scenario):
        return [read_turn("read", {"filePath": file_path}, "call_read_01")] + edit_turns(
            scenario, "edit", lambda old, new: {"filePath": file_path, "oldString": old, "newString": new},
            "call_edit_%02d", first=2)

    def env(self, port):
        return {"OPENCODE_DISABLE_AUTOUPDATE": "1", "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_SHARE": "1",
                "OPENCODE_DISABLE_CLAUDE_CODE": "1", "npm_config_offline": "true",
                "npm_config_registry": "http://127.0.0.1:9/"}

    def argv(self, cli, prompt, session):
        return [cli, "run", "--format", "json", "-m", "fake/fake-model"] + prompt.split(" ")


class Pi(Agent):
    id, title, version = "pi", "pi", "0.73.1"
    npm, bin_rel = "@mariozechner/pi-coding-agent@0.73.1", "pi"
    scenarios = CURLY_SCENARIOS

    def seed(self, home, port, scenario):
        return {".pi/agent/models.json": settings_file({"providers": {"fake": {
            "baseUrl": "http://127.0.0.1:%d/v1" % port, "api": "openai-completions", "apiKey": "sk-fake",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "fake-model", "name": "Fake Model", "reasoning": False,
                        "contextWindow": 128000, "maxTokens": 4096}]}}})}

    def turns(self, file_path, scenario):
        return edit_turns(scenario, "edit", lambda old, new: {
            "path": file_path, "edits": [{"oldText": old, "newText": new}]}, "call_edit_%02d")

    def env(self, port):
        return {"PI_OFFLINE": "1", "PI_TELEMETRY": "0", "PI_SKIP_VERSION_CHECK": "1"}

    def argv(self, cli, prompt, session):
        return [cli, "-p", "--mode", "json", "--provider", "fake", "--model", "fake-model", prompt]


class ClineCli(Agent):
    """Cline's CLI 3.x: a `PreToolUse` hook file in ~/Documents/Cline/Hooks/
    (no hook of Cline CLI was recorded; this is its first run with one)."""
    id, title, version = "cline-cli", "Cline CLI", "3.0.65"
    npm, bin_rel = "cline@3.0.65", "cline"
    scenarios = CLINE_SCENARIOS
    project = None

    def seed(self, home, port, scenario):
        # What `cline auth -p openai-compatible -k sk-fake-key -b URL -m fake-model` writes.
        return {".cline/data/settings/providers.json": settings_file({
            "version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
            "providers": {"openai-compatible": {"settings": {
                "provider": "openai-compatible", "apiKey": "sk-fake-key", "model": "fake-model",
                "baseUrl": "http://127.0.0.1:%d/v1" % port},
                "updatedAt": "2026-12-02T00:00:00.000Z", "tokenSource": "manual"}}})}

    def turns(self, file_path, scenario):
        return edit_turns(scenario, "editor", lambda old, new: {
            "path": file_path, "old_text": old, "new_text": new}, "call_edit_%02d")

    def argv(self, cli, prompt, session):
        return [cli, "--json", "-P", "openai-compatible", "-m", "fake-model", "-c", self.project, prompt]


AGENTS = {a.id: a for a in (ClaudeCode(), Codex(), GeminiCli(), QwenCode(), Opencode(), Pi(), ClineCli())}

# ---------------------------------------------------------------- helpers


def out(text=""):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def indent(text, prefix="    "):
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


def say_if_the_cli_rewrote(rel, installed, ran):
    """Where the CLI changed `rel` (under HOME) during its run, says so with
    the diff from what the install wrote to what the run left."""
    if ran.get(rel) != installed.get(rel):
        out("    the CLI itself rewrote it during the run (installed -> after the run):")
        diff = difflib.unified_diff(installed[rel].decode().splitlines(True),
                                    ran.get(rel, b"").decode().splitlines(True), "installed",
                                    "after-the-run", n=1)
        out(indent("".join(diff).rstrip("\n"), "    "))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=10):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def snapshot(root):
    """Every file under `root` -> its bytes (symlinks skipped)."""
    files = {}
    for folder, dirs, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                with open(path, "rb") as f:
                    files[os.path.relpath(path, root)] = f.read()
    return files


def folders(root):
    return {os.path.relpath(os.path.join(f, d), root) for f, ds, _ in os.walk(root) for d in ds}


def tool_results(request, protocol):
    """(call id or name, text) of every tool result in a request's history."""
    found = []
    if protocol == "anthropic":
        for message in request.get("messages", []):
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if block.get("type") == "tool_result":
                    text = block.get("content")
                    if isinstance(text, list):
                        text = "".join(b.get("text", "") for b in text)
                    error = " (is_error)" if block.get("is_error") else ""
                    found.append((block.get("tool_use_id", "?") + error, text))
    elif protocol == "responses":
        for item in request.get("input", []):
            if item.get("type") in ("custom_tool_call_output", "function_call_output"):
                text = item.get("output")
                if isinstance(text, list):
                    text = "".join(b.get("text", "") for b in text)
                found.append((item.get("call_id", "?"), text))
    elif protocol == "gemini":
        for content in request.get("contents", []):
            for part in content.get("parts", []):
                if "functionResponse" in part:
                    fr = part["functionResponse"]
                    found.append((fr.get("name", "?"), json.dumps(fr.get("response"), ensure_ascii=False)))
    else:
        for message in request.get("messages", []):
            text = message.get("content")
            if isinstance(text, list):
                text = "".join(b.get("text", "") for b in text)
            if message.get("role") == "tool":
                found.append((message.get("tool_call_id", "?"), text))
            elif message.get("role") == "user" and "<hook_context" in (text or ""):
                # Cline CLI: a hook's `context` reaches the model as a user
                # message after the tool's result.
                found.append(("hook context", text))
    return found


def last_model_request(logdir):
    """The last request the scripted model answered with a scripted turn (it
    carries the whole history), and its protocol."""
    kinds = {"messages": "anthropic", "responses": "responses", "stream": "gemini", "chat": "chat"}
    last = None
    for name in sorted(os.listdir(logdir)):
        kind = name.split("-", 1)[1].rsplit(".", 1)[0]
        if kind in kinds:
            last = (name, kinds[kind])
    if last is None:
        return None, None
    with open(os.path.join(logdir, last[0])) as f:
        return json.load(f)["request"], last[1]


def run(argv, env, cwd, timeout, stdin=subprocess.DEVNULL):
    t0 = time.time()
    p = subprocess.Popen(argv, env=env, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        o, e = p.communicate(timeout=timeout)
        code = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        o, e = p.communicate()
        code = "killed after %d s" % timeout
    return code, o.decode("utf-8", "replace"), e.decode("utf-8", "replace"), time.time() - t0


def bare_env(home, extra):
    node_dir = os.path.dirname(shutil.which("node") or "/usr/bin/node")
    env = {"HOME": home, "PATH": node_dir + ":/usr/local/bin:/usr/bin:/bin",
           "TMPDIR": os.path.join(home, ".tmp"), "LANG": "C.UTF-8", "TERM": "dumb"}
    env.update(extra)
    return env


# ---------------------------------------------------------------- the review pane


class Screen:
    """The little of a VT100 a ratatui program draws with: cursor moves
    (CUP, CUU/CUD/CUF/CUB, CHA), erases (ED, EL), SGR and private modes
    ignored, text written at the cursor. Enough to read `srview review`'s
    80x24 screen, which it redraws by changed cells only."""

    def __init__(self, rows=24, cols=80):
        self.rows, self.cols = rows, cols
        self.cells = [[" "] * cols for _ in range(rows)]
        self.y = self.x = 0
        self.pending = ""

    def feed(self, text):
        text = self.pending + text
        self.pending = ""
        i, n = 0, len(text)
        while i < n:
            c = text[i]
            if c == "\x1b":
                if i + 1 >= n:
                    self.pending = text[i:]
                    return
                if text[i + 1] == "[":
                    j = i + 2
                    while j < n and not ("@" <= text[j] <= "~"):
                        j += 1
                    if j >= n:
                        self.pending = text[i:]
                        return
                    self.csi(text[i + 2:j], text[j])
                    i = j + 1
                elif text[i + 1] in "]P_":
                    # OSC/DCS: up to BEL or ST.
                    j = i + 2
                    while j < n and text[j] != "\x07" and text[j:j + 2] != "\x1b\\":
                        j += 1
                    if j >= n:
                        self.pending = text[i:]
                        return
                    i = j + (1 if text[j] == "\x07" else 2)
                else:
                    i += 2
                continue
            if c == "\r":
                self.x = 0
            elif c == "\n":
                self.y = min(self.rows - 1, self.y + 1)
            elif c == "\b":
                self.x = max(0, self.x - 1)
            elif c >= " ":
                if self.x < self.cols and self.y < self.rows:
                    self.cells[self.y][self.x] = c
                self.x += 1
            i += 1

    def csi(self, params, final):
        if params.startswith("?"):
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(";")] if params else []
        first = nums[0] if nums else 0
        if final in "Hf":
            self.y = max(0, (nums[0] if len(nums) > 0 and nums[0] else 1) - 1)
            self.x = max(0, (nums[1] if len(nums) > 1 and nums[1] else 1) - 1)
        elif final == "A":
            self.y = max(0, self.y - max(first, 1))
        elif final == "B":
            self.y = min(self.rows - 1, self.y + max(first, 1))
        elif final == "C":
            self.x = min(self.cols - 1, self.x + max(first, 1))
        elif final == "D":
            self.x = max(0, self.x - max(first, 1))
        elif final == "G":
            self.x = max(0, max(first, 1) - 1)
        elif final == "J":
            if first == 2 or first == 3:
                self.cells = [[" "] * self.cols for _ in range(self.rows)]
            elif first == 0:
                self.cells[self.y][self.x:] = [" "] * (self.cols - self.x)
                for r in range(self.y + 1, self.rows):
                    self.cells[r] = [" "] * self.cols
        elif final == "K":
            if first == 0:
                self.cells[self.y][self.x:] = [" "] * (self.cols - self.x)
            elif first == 2:
                self.cells[self.y] = [" "] * self.cols

    def text(self):
        return "\n".join("".join(row).rstrip() for row in self.cells)


class Pane:
    """`srview review --cwd PROJECT` on a pty of 80x24, its screen read."""

    def __init__(self, srview, project, env):
        import fcntl
        import pty
        import struct
        import termios
        import threading
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        env = dict(env, TERM="xterm-256color")
        self.proc = subprocess.Popen([srview, "review", "--cwd", project], stdin=slave, stdout=slave,
                                     stderr=slave, env=env, cwd=project, start_new_session=True)
        os.close(slave)
        self.screen = Screen()
        self.lock = threading.Lock()
        self.log = []
        self.reader = threading.Thread(target=self.read, daemon=True)
        self.reader.start()

    def read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            with self.lock:
                self.screen.feed(data.decode("utf-8", "replace"))

    def text(self):
        with self.lock:
            return self.screen.text()

    def wait_for(self, what, predicate, seconds):
        end = time.time() + seconds
        while time.time() < end:
            if predicate(self.text()):
                return True
            if self.proc.poll() is not None:
                break
            time.sleep(0.02)
        self.log.append("the pane never showed %s; its screen:\n%s" % (what, self.text()))
        return False

    def press(self, keys):
        os.write(self.master, keys.encode())

    def quit(self):
        if self.proc.poll() is None:
            self.press("q")
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.reader.join(2)
        os.close(self.master)
        return self.proc.returncode


def answer_reject(pane, reason, events):
    """On a thread: waits for a call to queue in `pane`, then `r`, the
    reason typed, Enter; `events` gets when each happened."""
    if not pane.wait_for("a queued call", lambda s: " 1/1 " in s, 150):
        return
    events["queued"] = time.time()
    events["screen"] = pane.text()
    time.sleep(0.3)
    pane.press("r")
    if not pane.wait_for("the reason prompt", lambda s: "reason for the model:" in s, 10):
        return
    pane.press(reason)
    if not pane.wait_for("the reason typed", lambda s: "reason for the model: " + reason in s, 10):
        return
    events["typed"] = pane.text()
    pane.press("\r")
    events["sent"] = time.time()


def answer_key(pane, key, events):
    """On a thread: waits for a call to queue in `pane`, then presses `key`
    (`a`, `c`, `A`); `events` gets when each happened."""
    if not pane.wait_for("a queued call", lambda s: " 1/1 " in s, 150):
        return
    events["queued"] = time.time()
    events["screen"] = pane.text()
    time.sleep(0.3)
    pane.press(key)
    events["sent"] = time.time()


def stop_leftovers(home):
    """Ends, one by one, the processes the CLI left running in `home` (Cline's
    hub daemon outlives its run): each found by its working folder."""
    # Only in this run's own mount namespace: a run beside it (in its own
    # namespace) has a /home/user of its own.
    own = os.readlink("/proc/self/ns/mnt")
    for pid in os.listdir("/proc"):
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            cwd = os.readlink("/proc/%s/cwd" % pid)
            if os.readlink("/proc/%s/ns/mnt" % pid) != own:
                continue
        except OSError:
            continue
        if cwd == home or cwd.startswith(home + "/"):
            try:
                os.kill(int(pid), signal.SIGTERM)
            except OSError:
                pass


def check(label, ok, checks):
    checks.append(ok)
    out("check: %s: %s" % (label, "ok" if ok else "FAILED"))


def model_request_times(logdir):
    """When the scripted model answered each of its main requests."""
    kinds = ("messages", "responses", "stream", "chat")
    times = []
    for name in sorted(os.listdir(logdir)):
        if name.split("-", 1)[1].rsplit(".", 1)[0] in kinds:
            with open(os.path.join(logdir, name)) as f:
                times.append(json.load(f)["t"])
    return times


def iso_seconds(stamp):
    """`2026-12-01T20:22:53.771Z` -> seconds since the epoch."""
    import calendar
    day, clock = stamp.rstrip("Z").split("T")
    whole, _, millis = clock.partition(".")
    t = calendar.timegm(time.strptime(day + "T" + whole, "%Y-%m-%dT%H:%M:%S"))
    return t + int(millis or 0) / 1000.0


def scenario_checks(agent, name, scenario, records, model_read, before, after, events, stdout, checks):
    """What the new scenarios must show, each said as a check."""
    sku_line = b'    sku: str = ""\n'
    if name in ("slow", "slow-60"):
        second = records[1] if len(records) > 1 else {}
        check("the second edit decided by the policy's fallback (deny), not by the agent's timeout",
              second.get("case") == "doubt" and second.get("decision") == "deny"
              and "no review pane answered within" in second.get("message", ""), checks)
        if agent.id == "cline-cli":
            # Cline CLI 3.0.65 stops the whole run on a hook's cancel: the
            # model reads nothing more.
            check("Cline stopped the run (its answer to a hook's cancel)",
                  '"type":"run_aborted"' in stdout, checks)
        else:
            check("the fallback's message reached the model",
                  "no review pane answered within" in model_read, checks)
        check("inventory.py holds the sku line once (the second edit did not run)",
              after.get("inventory.py", b"").count(sku_line) == 1, checks)
        if agent.id == "claude-code":
            outcomes = [json.loads(l).get("outcome") for l in stdout.splitlines()
                        if l.startswith("{") and '"hook_response"' in l]
            check("Claude Code saw both hooks answer (outcome success, none cancelled)",
                  outcomes == ["success", "success"], checks)
    elif name == "missing" and agent.id == "cline-cli":
        check("Cline stopped the run (the hook file's cancel)", '"type":"run_aborted"' in stdout, checks)
        check("inventory.py holds the sku line at most once",
              after.get("inventory.py", b"").count(sku_line) <= 1, checks)
    elif name == "failing" and agent.id == "cline-cli":
        # An edit Cline refuses itself: srview's finding as the hook's
        # context, no cancel (which would end the task).
        last = records[-1] if records else {}
        check("srview answered with context (decision context), no cancel",
              last.get("case") == "failing" and last.get("decision") == "context", checks)
        check("Cline ran its task to the end", '"type":"run_aborted"' not in stdout, checks)
        check("the model read Cline's own error and srview's finding (hook context)",
              "text not found" in model_read and "<hook_context" in model_read
              and "srview gate: this editor fails" in model_read, checks)
        check("inventory.py unchanged", after.get("inventory.py") == before.get("inventory.py"), checks)
    elif name == "slow-judge":
        last = records[-1] if records else {}
        check("srview's own deadline denied it (not the agent's timeout, which runs the edit)",
              last.get("decision") == "deny" and "did not finish judging" in last.get("message", ""), checks)
        if agent.id == "cline-cli":
            check("Cline stopped the run (its answer to a hook's cancel)", '"type":"run_aborted"' in stdout, checks)
        else:
            check("the deny reached the model", "did not finish judging" in model_read, checks)
        check("inventory.py unchanged", after.get("inventory.py") == before.get("inventory.py"), checks)
    elif name == "pane-reject":
        last = records[-1] if records else {}
        check("the pane decided: reject", last.get("decidedBy") == "review pane"
              and last.get("review") == "reject" and last.get("decision") == "deny", checks)
        check("the model read the reason typed in the pane", scenario["pane"][1] in model_read, checks)
        check("inventory.py unchanged", after.get("inventory.py") == before.get("inventory.py"), checks)
        if "sent" in events and last.get("time"):
            out("the gate recorded its answer %.0f ms after Enter in the pane (the record's clock, ms)"
                % ((iso_seconds(last["time"]) - events["sent"]) * 1000))
    elif name == "repair" and agent.id == "cline-cli":
        last = records[-1] if records else {}
        check("srview repaired the failing edit", last.get("case") == "failing"
              and last.get("decision") == "repair", checks)
        check("Cline ran its task to the end (no cancel)", '"type":"run_aborted"' not in stdout, checks)
        check("the model read srview's reason (Cline's hook context beside overrideInput)",
              "<hook_context" in model_read and "srview gate: rewrote this editor" in model_read, checks)
        check("Cline's editor wrote the exact edit (LOW_STOCK = 10)",
              after.get("inventory.py") == before.get("inventory.py", b"").replace(
                  b"LOW_STOCK = 5\n", b"LOW_STOCK = 10\n", 1)
              and after.get("inventory.py") != before.get("inventory.py"), checks)
    elif name in ("pane-allow", "pane-corrected", "pane-session"):
        review = {"pane-allow": "allow", "pane-corrected": "corrected", "pane-session": "allow-session"}[name]
        first = records[0] if records else {}
        decision = "repair" if name == "pane-corrected" and agent.id != "qwen-code" else (
            "deny" if name == "pane-corrected" else "none")
        check("the pane decided: %s (decision %s)" % (review, decision),
              first.get("decidedBy") == "review pane" and first.get("review") == review
              and first.get("decision") == decision, checks)
        was, now_ = before.get("inventory.py", b""), after.get("inventory.py", b"")
        if decision == "deny":
            check("inventory.py unchanged", now_ == was, checks)
        elif first.get("case") == "failing" and name == "pane-allow":
            # Allowed as sent, an edit the agent refuses itself (Qwen Code's
            # and pi's matchers refuse the 2-space edit).
            check("inventory.py unchanged (%s refused the edit allowed)" % agent.title, now_ == was, checks)
        else:
            check("inventory.py changed by the edit allowed", now_ != was, checks)
        if name == "pane-corrected" and decision == "repair":
            if agent.id == "cline-cli":
                check("the corrected edit wrote what the model meant (LOW_STOCK = 10, once)",
                      now_ == was.replace(b"LOW_STOCK = 5\n", b"LOW_STOCK = 10\n", 1), checks)
                check("the model read that the user chose srview's corrected edit (Cline's hook context)",
                      "srview gate: the user allowed srview's corrected edit" in model_read, checks)
            else:
                check("the corrected edit wrote what the model meant (the sku line at the file's indentation, "
                      "or the label in straight quotes)",
                      sku_line in now_ or b'label = "LOW" if' in now_, checks)
        if name == "pane-session":
            second = records[1] if len(records) > 1 else {}
            check("the second call (exact, put to the pane) was answered by the pane at once: allow-session",
                  second.get("decidedBy") == "review pane" and second.get("review") == "allow-session"
                  and second.get("decision") == "none", checks)
            check("inventory.py holds the second edit (LOW_STOCK = 10)", b"LOW_STOCK = 10\n" in now_, checks)
        if "sent" in events and first.get("time"):
            out("the gate recorded its answer %.0f ms after the key in the pane (the record's clock, ms)"
                % ((iso_seconds(first["time"]) - events["sent"]) * 1000))
    elif name.startswith("write-"):
        rel, content = scenario["writes"][0]
        last = records[-1] if records else {}
        if name in ("write-new", "write-over"):
            check("the gate let the Write run (exact, no opinion)",
                  last.get("case") == "exact" and last.get("decision") == "none", checks)
            check("%s holds exactly the content written" % rel,
                  after.get(rel) == content.encode(), checks)
        elif name == "write-same":
            check("the gate denied it (doubt: the file already holds it)",
                  last.get("case") == "doubt" and last.get("decision") == "deny", checks)
            check("inventory.py unchanged", after.get(rel) == before.get(rel), checks)
        elif name == "write-elided":
            check("the gate stopped it (not passed as exact)", last.get("decision") == "deny", checks)
            check("inventory.py unchanged", after.get(rel) == before.get(rel), checks)


def project_files(project):
    """The project's own files (not the dot folders: .srview, agents' config)."""
    files = {}
    for folder, dirs, names in os.walk(project):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, project)] = f.read()
    return files


# ---------------------------------------------------------------- one scenario


def scenario_run(agent, name, cli, srview, home, port, outdir, isolated):
    scenario = agent.scenarios[name]
    if os.path.exists(home):
        shutil.rmtree(home)
    project = os.path.join(home, PROJECT_REL)
    os.makedirs(project)
    os.makedirs(os.path.join(home, ".tmp"))
    target = os.path.join(project, "inventory.py")
    shutil.copyfile(INVENTORY, target)
    if scenario.get("big"):
        with open(target, "a") as f:
            f.write(BIG_FILLER)
    for rel, text in agent.seed(home, port, scenario).items():
        path = os.path.join(home, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    for rel, text in scenario.get("seed_append", {}).items():
        with open(os.path.join(home, rel), "a") as f:
            f.write(text.replace("{project}", project))
    with open(target, "rb") as f:
        before = f.read()
    files_before = project_files(project)

    out("### %s: `%s`, %s" % (agent.title, name, scenario["what"]))
    out()
    out("```")
    config_before = snapshot(home)
    folders_before = folders(home)
    where = ["--agent", agent.id, "--" + scenario.get("scope", "user")]
    gone = None
    if scenario.get("missing"):
        # Installed from a copy of srview that is then deleted: the hook
        # names a program that is not there.
        gone = os.path.join(tempfile.mkdtemp(prefix="srview-gone-"), "srview")
        shutil.copy2(srview, gone)
    install = [gone or srview, "gate", "install"] + where
    if scenario.get("policy"):
        install += ["--policy", scenario["policy"]]
    if scenario.get("timeout"):
        install += ["--timeout", str(scenario["timeout"])]
    env = bare_env(home, {})
    code, o, e, _ = run(install, env, project, 60)
    out("$ " + " ".join(["srview"] + install[1:]))
    out((o + e).rstrip())
    if code != 0:
        out("gate install failed (exit %s)" % code)
        out("```")
        return False
    installed = snapshot(home)
    created_folders = folders(home) - folders_before
    if gone:
        shutil.rmtree(os.path.dirname(gone))
        out("(then %s is deleted: the installed hook names a program that is not there)" % gone)
    touched = sorted(p for p in installed if installed[p] != config_before.get(p))

    file_path = target
    script = {"turns": agent.turns(file_path, scenario) + [{"parts": [{"text": "Finished."}]}]}
    for turn in script["turns"]:
        for part in turn["parts"]:
            call = part.get("functionCall") or part.get("customToolCall")
            if call and call["name"] not in ("Read", "read", "read_file"):
                shown = call.get("args") if "args" in call else call.get("input")
                if isinstance(shown, dict) and len(shown.get("content", "")) > 200:
                    content = shown["content"]
                    shown = dict(shown, content="%s... (%d lines, %d chars)" % (
                        content[:60], len(content.splitlines()), len(content)))
                out("model sends %s: %s" % (call["name"], json.dumps(shown, ensure_ascii=False)))
    logdir = os.path.join(outdir, "server-log")
    os.makedirs(logdir, exist_ok=True)
    script_path = os.path.join(outdir, "script.json")
    with open(script_path, "w") as f:
        json.dump(script, f, indent=1, ensure_ascii=False)
    server_err = open(os.path.join(outdir, "server-stderr.txt"), "w")
    server = subprocess.Popen([sys.executable, os.path.join(HERE, "server.py"), script_path, logdir,
                               "--port", str(port)], stdout=server_err, stderr=server_err,
                              start_new_session=True)
    pane = None
    events = {}
    answering = None
    try:
        if not wait_port(port):
            out("the scripted model server did not start")
            out("```")
            return False
        if scenario.get("pane"):
            pane = Pane(srview, project, bare_env(home, {}))
            if not pane.wait_for("that it listens", lambda t: "waiting for gate calls" in t, 20):
                out("\n".join(pane.log))
                out("```")
                pane.quit()
                return False
            out("$ srview review --cwd %s  (in a pty, 80x24: %s)" % (
                project, "never answers" if scenario["pane"] == "silent"
                else "answers `r`, types %r, Enter" % scenario["pane"][1] if scenario["pane"][0] == "reject"
                else "answers `%s`" % scenario["pane"][0]))
            if scenario["pane"] != "silent":
                import threading
                if scenario["pane"][0] == "reject":
                    answering = threading.Thread(target=answer_reject, args=(pane, scenario["pane"][1], events),
                                                 daemon=True)
                else:
                    answering = threading.Thread(target=answer_key, args=(pane, scenario["pane"][0], events),
                                                 daemon=True)
                answering.start()
        session = str(uuid.uuid4())
        agent.project = project
        argv = agent.argv(cli, scenario["prompt"], session)
        env = bare_env(home, dict(agent.env(port), **scenario.get("env", {})))
        code, o, e, took = run(argv, env, project, 180)
    finally:
        if answering is not None:
            answering.join(5)
        pane_screen = pane.text() if pane else None
        pane_code = pane.quit() if pane else None
        stop_leftovers(home)
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        server_err.close()
    with open(os.path.join(outdir, "cli-stdout.txt"), "w") as f:
        f.write(o)
    with open(os.path.join(outdir, "cli-stderr.txt"), "w") as f:
        f.write(e)
    out("%s ran: exit %s, %.1f s" % (agent.title, code, took))
    if agent.id == "claude-code":
        for ev in json_lines(o):
            if ev.get("type") == "system" and ev.get("subtype") == "hook_response":
                out("  hook %s: outcome %s, exit %s" % (ev.get("hook_event", ev.get("hook_name")),
                                                        ev.get("outcome"), ev.get("exit_code")))
    if agent.id == "cline-cli":
        for ev in json_lines(o):
            if ev.get("type") == "hook_event" and ev.get("hookEventName") in ("tool_call", "agent_error"):
                out("  hook_event %s" % ev["hookEventName"])
            elif ev.get("type") in ("run_result", "run_aborted"):
                out("  %s: %s" % (ev["type"], ev.get("finishReason") or "%s (%s)" % (ev.get("reason"),
                                                                              ev.get("message"))))

    if pane is not None:
        if "queued" in events:
            out("the pane showed the call (its screen when it queued):")
            out(indent(events["screen"].rstrip("\n"), "  | "))
        if "typed" in events:
            out("the reason typed, before Enter (the pane's last row):")
            out(indent(events["typed"].rstrip("\n").rsplit("\n", 1)[-1], "  | "))
        out("the pane after the run (then `q`, exit %s):" % pane_code)
        out(indent(pane_screen.rstrip("\n"), "  | "))
        for line in pane.log:
            out(line)
    record = os.path.join(project, ".srview", "gate.jsonl")
    records = []
    out()
    out("gate record (.srview/gate.jsonl):")
    if os.path.exists(record):
        with open(record) as f:
            for line in f:
                try:
                    r = json.loads(line)
                except ValueError:
                    out("  (not JSON) " + line.rstrip())
                    continue
                records.append(r)
                by = ", decided by the %s (%s)" % (r["decidedBy"], r.get("review")) if r.get("decidedBy") else ""
                out("  %s %s: case %s, stage %s, decision %s%s" % (r.get("tool"), r.get("callId") or "",
                                                                 r.get("case"), r.get("stage"),
                                                                 r.get("decision"), by))
                if r.get("message"):
                    out(indent(r["message"], "    | "))
    else:
        out("  (none: the gate was never called)")

    times = model_request_times(logdir)
    if len(times) > 1:
        out()
        out("the model's requests (each after the tool calls of the turn before ran): %s" % ", ".join(
            "+%.1f s" % (t - times[0]) for t in times))
    out()
    out("the model received (tool results in its last request):")
    request, protocol = last_model_request(logdir)
    if request is None:
        out("  (no request reached the scripted model)")
    else:
        for who, text in tool_results(request, protocol):
            text = text if isinstance(text, str) else json.dumps(text, ensure_ascii=False)
            if "stock levels and pricing" in text[:400] and "Edit" not in who:
                text = text.split("\n", 1)[0] + "\n... (the file as read, %d chars)" % len(text)
            out("  %s:" % who)
            out(indent(text, "    > "))

    out()
    files_after = project_files(project)
    for rel in sorted(set(files_before) | set(files_after)):
        was, now_ = files_before.get(rel), files_after.get(rel)
        if was == now_:
            out("%s: unchanged" % rel)
        elif was is None:
            out("%s: created (%d lines):" % (rel, len(now_.decode().splitlines())))
            out(indent(now_.decode().rstrip("\n"), "  | "))
        elif now_ is None:
            out("%s: DELETED" % rel)
        else:
            out("%s changed:" % rel)
            diff = difflib.unified_diff(was.decode().splitlines(True), now_.decode().splitlines(True),
                                        "before/" + rel, "after/" + rel, n=1)
            out(indent("".join(diff).rstrip("\n"), "  "))
    checks = []
    sent = "\n".join(t if isinstance(t, str) else json.dumps(t, ensure_ascii=False)
                     for _, t in (tool_results(request, protocol) if request is not None else []))
    scenario_checks(agent, name, scenario, records, sent, files_before, files_after, events, o, checks)

    # The CLI has run (and may have rewritten its settings): uninstall, then
    # every file install touched must be as before the install.
    ran = snapshot(home)
    code, o, e, _ = run([srview, "gate", "install"] + where + ["--uninstall"], bare_env(home, {}), project, 60)
    now = snapshot(home)
    out()
    out("$ srview gate install %s --uninstall  (exit %s)" % (" ".join(where), code))
    same = True
    for rel in touched:
        if rel in config_before:
            ok = now.get(rel) == config_before[rel]
            out("  ~/%s: %s" % (rel, "byte-identical to before the install" if ok
                                else "DIFFERS from before the install"))
            if not ok and rel in now:
                diff = difflib.unified_diff(config_before[rel].decode().splitlines(True),
                                            now[rel].decode().splitlines(True), "before-install",
                                            "after-uninstall", n=1)
                out(indent("".join(diff).rstrip("\n"), "    "))
                say_if_the_cli_rewrote(rel, installed, ran)
                marker = (" gate --agent " + agent.id).encode()
                out("    srview's hook left in it: %s" % ("YES" if marker in now[rel] else "no"))
        else:
            ok = rel not in now
            out("  ~/%s: %s" % (rel, "removed (install created it)" if ok else "STILL THERE"))
            if not ok:
                out(indent(now[rel].decode("utf-8", "replace").rstrip("\n"), "    | "))
                say_if_the_cli_rewrote(rel, installed, ran)
        same = same and ok
    # Folders install created are removed by uninstall unless the CLI has
    # put files of its own in them since.
    for d in sorted(created_folders):
        path = os.path.join(home, d)
        if os.path.isdir(path):
            if not os.listdir(path):
                out("  ~/%s/: folder install created, left EMPTY" % d)
                same = False
            else:
                out("  ~/%s/: folder install created, kept: the CLI wrote files in it" % d)
        else:
            out("  ~/%s/: removed (install created it)" % d)
    out("```")
    out()
    return same and all(checks)


# ---------------------------------------------------------------- driver


def ensure_cli(agent, args):
    if args.cli:
        cli = os.path.abspath(args.cli)
    else:
        cli = agent.cli_path(args.agents_dir)
        if not os.path.exists(cli):
            folder = os.path.join(args.agents_dir, agent.id)
            os.makedirs(folder, exist_ok=True)
            sys.stderr.write("installing %s into %s\n" % (agent.npm, folder))
            subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", agent.npm],
                           cwd=folder, check=True)
    code, o, e, _ = run([cli, "--version"], dict(os.environ), None, 60)
    if not agent.version_ok(o + e):
        raise SystemExit("%s --version says %r, not %s" % (cli, (o + e).strip(), agent.version))
    return cli


def inner(args):
    """Inside the namespaces (or on the host with --no-isolation): run the scenarios."""
    agent = AGENTS[args.agent]
    srview = args.srview
    if args.isolated:
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        subprocess.run(["mount", "-t", "tmpfs", "tmpfs", "/home"], check=True)
        os.makedirs("/home/bin")
        shutil.copy2(srview, "/home/bin/srview")
        srview = "/home/bin/srview"
        home = "/home/user"
        port = 18080
    else:
        base = tempfile.mkdtemp(prefix="srview-gate-e2e-")
        home = os.path.join(base, "home")
        port = free_port()
    names = args.scenarios or list(agent.scenarios)
    out("## %s %s" % (agent.title, agent.version))
    out()
    out("`python3 tests/gate_e2e/run.py %s` (%s):" % (
        agent.id, "inside `unshare -m -n`: loopback only, HOME=/home/user on a tmpfs" if args.isolated
        else "no isolation: a temporary HOME, the host's loopback"))
    out()
    all_same = True
    try:
        for name in names:
            outdir = os.path.join(args.out, agent.id, name)
            if os.path.exists(outdir):
                shutil.rmtree(outdir)
            os.makedirs(outdir)
            all_same = scenario_run(agent, name, args.cli_resolved, srview, home, port, outdir,
                                    args.isolated) and all_same
    finally:
        if not args.isolated:
            shutil.rmtree(os.path.dirname(home), ignore_errors=True)
    return 0 if all_same else 1


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("agent", choices=sorted(AGENTS))
    p.add_argument("scenarios", nargs="*")
    p.add_argument("--srview", default=os.path.join(REPO, "target", "debug", "srview"))
    p.add_argument("--cli", help="an installed agent CLI (its --version must match)")
    p.add_argument("--agents-dir", default=os.path.join(os.path.expanduser("~"), ".cache", "srview-gate-e2e"))
    p.add_argument("--out", default=os.path.join(tempfile.gettempdir(), "srview-gate-e2e-out"),
                   help="where each scenario's server log and CLI output are kept")
    p.add_argument("--no-isolation", action="store_true")
    p.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--cli-resolved", help=argparse.SUPPRESS)
    p.add_argument("--isolated", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    agent = AGENTS[args.agent]
    for name in args.scenarios:
        if name not in agent.scenarios:
            raise SystemExit("unknown scenario %r (one of: %s)" % (name, ", ".join(agent.scenarios)))
    if args.inner:
        return inner(args)
    args.srview = os.path.abspath(args.srview)
    if not os.access(args.srview, os.X_OK):
        raise SystemExit("no srview at %s: cargo build --bin srview, or --srview PATH" % args.srview)
    args.agents_dir = os.path.abspath(args.agents_dir)
    args.out = os.path.abspath(args.out)
    cli = ensure_cli(agent, args)
    forward = [sys.executable, os.path.abspath(__file__), args.agent] + args.scenarios + [
        "--inner", "--srview", args.srview, "--cli-resolved", cli, "--out", args.out]
    if not args.no_isolation:
        for prefix in (["unshare", "-m", "-n"], ["unshare", "-r", "-m", "-n"]):
            probe = subprocess.run(prefix + ["sh", "-c", "ip link set lo up && mount -t tmpfs tmpfs /home"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if probe.returncode == 0:
                return subprocess.run(prefix + forward + ["--isolated"]).returncode
        sys.stderr.write("unshare does not work here: running without isolation\n")
    return subprocess.run(forward).returncode


if __name__ == "__main__":
    sys.exit(main())
