#!/usr/bin/env python3
"""Seeds fuzz/corpus/{engine,stream,matcher} from the reference corpus.

Input layout (see src/lib.rs `decode`): one flags byte (bit 0: v2,
bit 1: final), then original, NUL, diff. The matcher target takes two bytes
of `from`, then original, NUL, search.
"""
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
fixtures = os.path.join(here, "..", "tests", "fixtures")
for target in ("engine", "stream", "matcher"):
    os.makedirs(os.path.join(here, "corpus", target), exist_ok=True)

n = 0
for name in ("cline-v4.0.10.jsonl", "cline-own-tests.jsonl"):
    with open(os.path.join(fixtures, name), encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            case = json.loads(line)
            flags = (1 if case["version"] == "v2" else 0) | (2 if case["isFinal"] else 0)
            original = case["original"].encode("utf-8")
            diff = case["diff"].encode("utf-8")
            data = bytes([flags]) + original + b"\0" + diff
            for target in ("engine", "stream"):
                with open(os.path.join(here, "corpus", target, f"seed-{n:05}"), "wb") as out:
                    out.write(data)
            searches = re.findall(r"SEARCH>?\n(.*?)\n=======", case["diff"], re.S)
            for k, search in enumerate(searches[:2]):
                with open(os.path.join(here, "corpus", "matcher", f"seed-{n:05}-{k}"), "wb") as out:
                    out.write(b"\0\0" + original + b"\0" + (search + "\n").encode("utf-8"))
            n += 1
print(f"seeded {n} cases", file=sys.stderr)
