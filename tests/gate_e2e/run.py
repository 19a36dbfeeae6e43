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
CODEX_PATCHES = {SKU_OLD: PATCH_SKU, SKU_OLD_2: PATCH_SKU_2, FAIL_OLD: PATCH_FAIL, CURLY_OLD: PATCH_CURLY}

# ---------------------------------------------------------------- the agents

PROJECT_REL = "project"


def read_turn(name, args, call_id):
    return {"parts": [{"text": "Reading inventory.py."},
                      {"functionCall": {"name": name, "id": call_id, "args": args}}]}


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
        turns = [read_turn("Read", {"file_path": file_path}, "toolu_01Read00000000000000000")]
        for k, (old, new) in enumerate(scenario["edits"]):
            turns.append({"parts": [{"text": "Editing inventory.py."}, {"functionCall": {
                "name": "Edit", "id": "toolu_%02dEdit00000000000000000" % (k + 2),
                "args": {"file_path": file_path, "old_string": old, "new_string": new}}}]})
        return turns

    def env(self, port):
        return {"ANTHROPIC_BASE_URL": "http://127.0.0.1:%d" % port, "ANTHROPIC_API_KEY": "sk-fake",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_AUTOUPDATER": "1"}

    def argv(self, cli, prompt, session):
        return [cli, "-p", prompt, "--output-format", "stream-json", "--verbose", "--include-hook-events",
                "--permission-mode", "acceptEdits", "--model", "claude-sonnet-4-5-20250929",
                "--session-id", session]


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
        return {".gemini/settings.json": json.dumps({
            "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
            "security": {"auth": {"selectedType": "gemini-api-key"},
                         "folderTrust": {"enabled": bool(scenario.get("folder_trust"))}}},
            indent=2) + "\n"}

    def turns(self, file_path, scenario):
        return [{"parts": [{"text": "Editing inventory.py."}, {"functionCall": {"name": "replace", "args": {
            "file_path": file_path, "instruction": "Edit inventory.py as asked.",
            "old_string": old, "new_string": new}}}]} for old, new in scenario["edits"]]

    def env(self, port):
        return {"GEMINI_API_KEY": "fake", "GOOGLE_GEMINI_BASE_URL": "http://127.0.0.1:%d" % port}

    def argv(self, cli, prompt, session):
        return [cli, "-p", prompt, "--output-format", "stream-json", "--yolo", "-m", "gemini-3.5-flash",
                "--session-id", session]


class QwenCode(Agent):
    id, title, version = "qwen-code", "Qwen Code", "0.24.4"
    npm, bin_rel = "@qwen-code/qwen-code@0.24.4", "qwen"

    def seed(self, home, port, scenario):
        return {".qwen/settings.json": json.dumps({
            "security": {"auth": {"selectedType": "openai"}, "folderTrust": {"enabled": False}},
            "privacy": {"usageStatisticsEnabled": False}, "telemetry": {"enabled": False},
            "general": {"enableAutoUpdate": False}}, indent=2) + "\n"}

    def turns(self, file_path, scenario):
        turns = [read_turn("read_file", {"file_path": file_path}, "call_read_01")]
        for k, (old, new) in enumerate(scenario["edits"]):
            turns.append({"parts": [{"text": "Editing inventory.py."}, {"functionCall": {
                "name": "edit", "id": "call_edit_%02d" % (k + 2),
                "args": {"file_path": file_path, "old_string": old, "new_string": new}}}]})
        return turns

    def env(self, port):
        return {"OPENAI_BASE_URL": "http://127.0.0.1:%d/v1" % port, "OPENAI_API_KEY": "sk-fake",
                "OPENAI_MODEL": "fake-model", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}

    def argv(self, cli, prompt, session):
        return [cli, "-p", prompt, "--output-format", "stream-json", "--yolo", "--auth-type", "openai",
                "-m", "fake-model", "--session-id", session]


class Opencode(Agent):
    id, title, version = "opencode", "OpenCode", "1.18.33"
    npm, bin_rel = "opencode-ai@1.18.33", "opencode"

    def seed(self, home, port, scenario):
        return {".config/opencode/opencode.json": json.dumps({
            "provider": {"fake": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                  "options": {"baseURL": "http://127.0.0.1:%d/v1" % port, "apiKey": "sk-fake"},
                                  "models": {"fake-model": {"name": "fake-model", "tool_call": True}}}},
            "model": "fake/fake-model", "small_model": "fake/fake-model", "autoupdate": False,
            "share": "disabled"}, indent=2) + "\n"}

    def turns(self, file_path, scenario):
        turns = [read_turn("read", {"filePath": file_path}, "call_read_01")]
        for k, (old, new) in enumerate(scenario["edits"]):
            turns.append({"parts": [{"text": "Editing inventory.py."}, {"functionCall": {
                "name": "edit", "id": "call_edit_%02d" % (k + 2),
                "args": {"filePath": file_path, "oldString": old, "newString": new}}}]})
        return turns

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

    def seed(self, home, port, scenario):
        return {".pi/agent/models.json": json.dumps({"providers": {"fake": {
            "baseUrl": "http://127.0.0.1:%d/v1" % port, "api": "openai-completions", "apiKey": "sk-fake",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "fake-model", "name": "Fake Model", "reasoning": False,
                        "contextWindow": 128000, "maxTokens": 4096}]}}}, indent=2) + "\n"}

    def turns(self, file_path, scenario):
        return [{"parts": [{"text": "Editing inventory.py."}, {"functionCall": {
            "name": "edit", "id": "call_edit_%02d" % (k + 1),
            "args": {"path": file_path, "edits": [{"oldText": old, "newText": new}]}}}]}
            for k, (old, new) in enumerate(scenario["edits"])]

    def env(self, port):
        return {"PI_OFFLINE": "1", "PI_TELEMETRY": "0", "PI_SKIP_VERSION_CHECK": "1"}

    def argv(self, cli, prompt, session):
        return [cli, "-p", "--mode", "json", "--provider", "fake", "--model", "fake-model", prompt]


AGENTS = {a.id: a for a in (ClaudeCode(), Codex(), GeminiCli(), QwenCode(), Opencode(), Pi())}

# ---------------------------------------------------------------- helpers


def out(text=""):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def indent(text, prefix="    "):
    return "\n".join(prefix + line if line else prefix.rstrip() for line in text.split("\n"))


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
            if message.get("role") == "tool":
                text = message.get("content")
                if isinstance(text, list):
                    text = "".join(b.get("text", "") for b in text)
                found.append((message.get("tool_call_id", "?"), text))
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
    try:
        if not wait_port(port):
            out("the scripted model server did not start")
            out("```")
            return False
        session = str(uuid.uuid4())
        argv = agent.argv(cli, scenario["prompt"], session)
        env = bare_env(home, dict(agent.env(port), **scenario.get("env", {})))
        code, o, e, took = run(argv, env, project, 180)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait()
        server_err.close()
    with open(os.path.join(outdir, "cli-stdout.txt"), "w") as f:
        f.write(o)
    with open(os.path.join(outdir, "cli-stderr.txt"), "w") as f:
        f.write(e)
    out("%s ran: exit %s, %.1f s" % (agent.title, code, took))
    if agent.id == "claude-code":
        for line in o.splitlines():
            try:
                ev = json.loads(line)
            except ValueError:
                continue
            if ev.get("type") == "system" and ev.get("subtype") == "hook_response":
                out("  hook %s: outcome %s, exit %s" % (ev.get("hook_event", ev.get("hook_name")),
                                                        ev.get("outcome"), ev.get("exit_code")))

    record = os.path.join(project, ".srview", "gate.jsonl")
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
                out("  %s %s: case %s, stage %s, decision %s" % (r.get("tool"), r.get("callId") or "",
                                                               r.get("case"), r.get("stage"),
                                                               r.get("decision")))
                if r.get("message"):
                    out(indent(r["message"], "    | "))
    else:
        out("  (none: the gate was never called)")

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
    with open(target, "rb") as f:
        after = f.read()
    if after == before:
        out("inventory.py: unchanged")
    else:
        out("inventory.py changed:")
        diff = difflib.unified_diff(before.decode().splitlines(True), after.decode().splitlines(True),
                                    "before/inventory.py", "after/inventory.py", n=1)
        out(indent("".join(diff).rstrip("\n"), "  "))

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
                if ran.get(rel) != installed.get(rel):
                    out("    the CLI itself rewrote it during the run (installed -> after the run):")
                    diff = difflib.unified_diff(installed[rel].decode().splitlines(True),
                                                ran.get(rel, b"").decode().splitlines(True), "installed",
                                                "after-the-run", n=1)
                    out(indent("".join(diff).rstrip("\n"), "    "))
                marker = (" gate --agent " + agent.id).encode()
                out("    srview's hook left in it: %s" % ("YES" if marker in now[rel] else "no"))
        else:
            ok = rel not in now
            out("  ~/%s: %s" % (rel, "removed (install created it)" if ok else "STILL THERE"))
            if not ok:
                out(indent(now[rel].decode("utf-8", "replace").rstrip("\n"), "    | "))
                if ran.get(rel) != installed.get(rel):
                    out("    the CLI itself rewrote it during the run (installed -> after the run):")
                    diff = difflib.unified_diff(installed[rel].decode().splitlines(True),
                                                ran.get(rel, b"").decode().splitlines(True), "installed",
                                                "after-the-run", n=1)
                    out(indent("".join(diff).rstrip("\n"), "    "))
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
    return same


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
