"""Aider 0.86.2's own `diff` edit format matching, in-process, for benches/matchers.rs.

Run with the Python of the venv where `pip install aider-chat==0.86.2` ran
(SRVIEW_ORACLE_DIR/venv/bin/python). Timed per reply, as EditBlockCoder runs it
(aider/coders/editblock_coder.py): get_edits' find_original_update_blocks over the
reply with the chat's file, then do_replace for each block (perfect_replace,
replace_part_with_missing_leading_whitespace, try_dotdotdots, the blank-line
retry), each block on the file as the blocks before it left it; the files are
not read or written inside the timing (do_replace only asks whether the file
exists, so each record's file is written below a temporary folder, untimed).
Aider itself runs this matching twice per reply (a dry run, then the real one);
it is timed once here. Same passes and output as benches/oracles/timing.mjs.
"""
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
import aider  # noqa: E402
from aider.coders import editblock_coder as ebc  # noqa: E402

if aider.__version__ != "0.86.2":
    raise SystemExit(f"expected aider-chat 0.86.2, found {aider.__version__}")

FENCE = ebc.EditBlockCoder.fence


def prepare(record, root):
    if not isinstance(record.get("file"), str):
        return None
    path = record["path"]
    full = root / path
    full.parent.mkdir(parents=True, exist_ok=True)
    full.write_bytes(record["file"].encode("utf-8"))
    return {"reply": record["input"]["reply"], "path": path, "full": str(full), "file": record["file"]}


def run(state):
    """The reply's blocks applied in turn to the one chat file: its text after, None if any failed."""
    edits = list(ebc.find_original_update_blocks(state["reply"], FENCE, [state["path"]]))
    content = state["file"]
    failed = False
    for path, original, updated in edits:
        if path is None:
            continue
        new_content = ebc.do_replace(state["full"], content, original, updated, FENCE)
        if new_content:
            content = new_content
        else:
            failed = True
    return None if failed else content


def one_pass(states):
    results = []
    cpu, wall = time.process_time(), time.perf_counter()
    for state in states:
        try:
            results.append(run(state))
        except Exception as error:  # a parse error: Aider's ValueError text
            results.append(error)
    return (time.perf_counter() - wall) * 1e3, (time.process_time() - cpu) * 1e3, results


def agrees(record, result):
    expect = record["expect"]
    if isinstance(result, Exception):
        return expect["ok"] is False
    if result is None:
        return expect["ok"] is False
    return expect["ok"] is True and result == expect["content"]


def main():
    _, file, passes = sys.argv[1], sys.argv[2], int(sys.argv[3])
    groups = {}
    with open(file, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                item = json.loads(line)
                groups.setdefault(item["group"], []).append(item["record"])
    scratch = Path(tempfile.mkdtemp(prefix="srview-bench-aider-"))
    try:
        for group, records in groups.items():
            prepared = []
            for number, record in enumerate(records):
                state = prepare(record, scratch / group.replace(" ", "_") / str(number))
                if state is not None:
                    prepared.append((record, state))
            states = [state for _, state in prepared]
            first_ms, _, results = one_pass(states)
            slow = first_ms > 2000
            if not slow:
                one_pass(states)
            checked = len(prepared)
            agree = sum(1 for (record, _), result in zip(prepared, results) if agrees(record, result))
            wall, cpu, spent = [], [], 0.0
            while len(wall) < passes and (not wall or not slow or spent < 60000):
                ms, cpu_ms, _ = one_pass(states)
                wall.append(ms)
                cpu.append(cpu_ms)
                spent += ms
            median = lambda xs: sorted(xs)[len(xs) // 2]  # noqa: E731
            print(json.dumps({"group": group, "calls": len(states), "skipped": len(records) - len(states),
                              "passes": len(wall), "median_ms": median(wall), "median_cpu_ms": median(cpu),
                              "agree": agree, "checked": checked}), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
