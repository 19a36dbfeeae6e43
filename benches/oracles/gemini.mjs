// Gemini CLI 0.61.0's own `replace` matching, in-process, for benches/matchers.rs.
// SRVIEW_ORACLE_DIR: the folder where `npm install @google/gemini-cli-core@0.61.0` ran.
// The shipped EditTool (dist/src/tools/edit.js) is built with a minimal config (project root
// /home/user/project, an in-memory file system service, LLM correction off as by default);
// tool.build(input) runs untimed; timed per call: the invocation's calculateEdit() (reading the
// file from memory, line endings, calculateReplacement: exact, flexible, regex, then the
// Levenshtein fuzzy stage; the error checks). Writing, the diff and the display are left out.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { args, timeGroups } from "./timing.mjs";

const { dir } = args();
const CORE = path.join(dir, "node_modules/@google/gemini-cli-core");
const version = JSON.parse(fs.readFileSync(path.join(CORE, "package.json"), "utf8")).version;
if (version !== "0.61.0") throw new Error(`expected gemini-cli-core 0.61.0, found ${version}`);
const { EditTool } = await import(pathToFileURL(path.join(CORE, "dist/src/tools/edit.js")).href);
const ROOT = "/home/user/project";

class MemoryFs {
  constructor(files) { this.files = files; }
  async readTextFile(p) {
    if (!this.files.has(p)) {
      const e = new Error(`ENOENT: no such file or directory, open '${p}'`);
      e.code = "ENOENT";
      throw e;
    }
    return this.files.get(p);
  }
  async writeTextFile(p, content) { this.files.set(p, content); }
}
const config = (memory) => ({
  getApprovalMode: () => "default",
  isPlanMode: () => false,
  getTargetDir: () => ROOT,
  getProjectRoot: () => ROOT,
  getWorkspaceContext: () => ({ getDirectories: () => [], isPathWithinWorkspace: () => true }),
  validatePathAccess: () => null,
  getFileSystemService: () => memory,
  getDisableLLMCorrection: () => true,
  getUsageStatisticsEnabled: () => false,
  getMemoryContextManager: () => undefined,
  getIdeMode: () => false,
  getBaseLlmClient: () => { throw new Error("LLM correction is off"); },
});
const bus = { subscribe() {}, publish() {} };
const signal = new AbortController().signal;

await timeGroups({
  prepare(record) {
    const files = new Map();
    if (typeof record.file === "string") files.set(path.resolve(ROOT, record.path), record.file);
    try {
      return new EditTool(config(new MemoryFs(files)), bus).build(structuredClone(record.input));
    } catch {
      return null;
    }
  },
  run: (invocation) => invocation.calculateEdit(invocation.params, signal),
  agrees(record, result) {
    if (result?.thrown) return null;
    if (result.error) return record.expect.ok === false && record.expect.error === result.error.raw;
    if (record.expect.ok !== true) return false;
    // execute() writes the LF text back with the file's own line ending.
    const written = result.originalLineEnding === "\r\n" ? result.newContent.replace(/\n/g, "\r\n") : result.newContent;
    return written === record.expect.content;
  },
});
