// Cline CLI 3.0.65's own `apply_patch` code, in-process, for benches/matchers.rs.
// SRVIEW_ORACLE_DIR: the folder where `npm install cline@3.0.65` ran; the tool's code is the
// module it depends on, node_modules/@cline/core/dist/index.js (the same code as the CLI
// binary's bundle). Timed per call: computePatchChanges(patchText, cwd), the tool's own
// parse and match of every section and hunk (its lenient parser, the canonical, trim and
// similarity passes) that reads the files and returns the changes and the fuzz; writing them
// and the success text are left out. The code reads the files from disk, so each record's
// files are written below a temporary folder standing for the project root, untimed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { args, timeGroups } from "./timing.mjs";

const { dir } = args();
const CORE = path.join(dir, "node_modules/@cline/core");
const cli = JSON.parse(fs.readFileSync(path.join(dir, "node_modules/cline/package.json"), "utf8")).version;
if (cli !== "3.0.65") throw new Error(`expected cline 3.0.65, found ${cli}`);
const { computePatchChanges } = await import(pathToFileURL(path.join(CORE, "dist/index.js")).href);
const ROOT = "/home/user/project";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "srview-bench-cline-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));
let records = 0;

await timeGroups({
  prepare(record) {
    const input = record.input;
    const patch = typeof input === "string" ? input : input?.input;
    if (typeof patch !== "string") return null;
    const root = path.join(scratch, String(records++));
    fs.mkdirSync(root, { recursive: true });
    for (const [rel, content] of Object.entries(record.files ?? {})) {
      if (typeof content !== "string" || path.isAbsolute(rel)) continue;
      fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
      fs.writeFileSync(path.join(root, rel), content);
    }
    return { patch: patch.split(ROOT).join(root), root };
  },
  run: (s) => computePatchChanges(s.patch, s.root),
  agrees(record, result) {
    if (result?.thrown) return record.expect.ok === false;
    return record.expect.ok === true;
  },
});
