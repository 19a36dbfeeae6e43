// pi 0.73.1's own `edit` matching, in-process, for benches/matchers.rs.
// SRVIEW_ORACLE_DIR: the folder where `npm install @mariozechner/pi-coding-agent@0.73.1` ran.
// Timed per call, as pi's edit tool runs it between reading and writing the
// file (dist/core/tools/edit.js): stripBom, detectLineEnding, normalizeToLF,
// applyEditsToNormalizedContent (exact, then fuzzy match of each edit, the
// whole-file normalization), restoreLineEndings. The arguments go through the
// tool's own prepareArguments first (untimed); reading, writing and the diff
// shown to the user are left out.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { args, timeGroups } from "./timing.mjs";

const { dir } = args();
const PKG = path.join(dir, "node_modules/@mariozechner/pi-coding-agent");
const version = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8")).version;
if (version !== "0.73.1") throw new Error(`expected pi-coding-agent 0.73.1, found ${version}`);
const load = (p) => import(pathToFileURL(path.join(PKG, p)).href);
const { createEditTool } = await load("dist/core/tools/edit.js");
const diff = await load("dist/core/tools/edit-diff.js");
const CWD = "/home/user/project";
const tool = createEditTool(CWD);

function editOf(file, edits, where) {
  const { bom, text } = diff.stripBom(file);
  const ending = diff.detectLineEnding(text);
  const { newContent } = diff.applyEditsToNormalizedContent(diff.normalizeToLF(text), edits, where);
  return bom + diff.restoreLineEndings(newContent, ending);
}

await timeGroups({
  prepare(record) {
    if (typeof record.file !== "string") return null;
    const input = tool.prepareArguments(structuredClone(record.input));
    if (!Array.isArray(input?.edits) || input.edits.length === 0) return null;
    return { file: record.file, edits: input.edits, where: input.path };
  },
  run: (s) => editOf(s.file, s.edits, s.where),
  agrees(record, result) {
    if (result?.thrown) return record.expect.ok === false && result.thrown.message === record.expect.error;
    return record.expect.ok === true && result === record.expect.content;
  },
});
