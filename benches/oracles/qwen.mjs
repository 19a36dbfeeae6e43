// Qwen Code 0.24.4's own `edit` matching, in-process, for benches/matchers.rs.
// SRVIEW_ORACLE_DIR: the folder where `npm install @qwen-code/qwen-code@0.24.4` ran.
// The shipped EditTool is imported from the package's bundle chunk that holds
// packages/core/src/tools/edit.ts and utils/editHelper.ts (chunks/chunk-BNPJT34T.js in 0.24.4)
// and built with a minimal config (file-read cache off, no sandbox, an in-memory file system
// service). The tool checks that the file exists on disk (fileExists), so each record's file is
// also written below a temporary folder standing for the project root, untimed. tool.build(input)
// runs untimed; timed per call: the invocation's calculateEdit() (reading the file from memory,
// line endings, normalizeEditStrings: literal, normalizeBasicCharacters, the line passes; the
// occurrence count and error checks; applyReplacement). Writing and the diff are left out.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { args, timeGroups } from "./timing.mjs";

const { dir } = args();
const PKG = path.join(dir, "node_modules/@qwen-code/qwen-code");
const version = JSON.parse(fs.readFileSync(path.join(PKG, "package.json"), "utf8")).version;
if (version !== "0.24.4") throw new Error(`expected qwen-code 0.24.4, found ${version}`);
const { EditTool } = await import(pathToFileURL(path.join(PKG, "chunks/chunk-BNPJT34T.js")).href);
const ROOT = "/home/user/project";
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "srview-bench-qwen-"));
process.on("exit", () => fs.rmSync(scratch, { recursive: true, force: true }));

const memory = new Map();
const fileSystem = {
  async readTextFile({ path: p }) {
    if (!memory.has(p)) {
      const e = new Error(`ENOENT: no such file or directory, open '${p}'`);
      e.code = "ENOENT";
      throw e;
    }
    return { content: memory.get(p) };
  },
  async writeTextFile() {},
};
let records = 0;
const config = (root) => ({
  getFileReadCacheDisabled: () => true,
  getFileReadCache: () => ({ recordWrite() {}, recordRead() {} }),
  getFileSystemService: () => fileSystem,
  getShellExecutionSandbox: () => undefined,
  getFileHistoryService: () => ({ trackEdit: async () => {} }),
  getDefaultFileEncoding: () => undefined,
  getProjectRoot: () => root,
  getTargetDir: () => root,
  getUsageStatisticsEnabled: () => false,
  getApprovalMode: () => "default",
  setApprovalMode: () => {},
  getDebugMode: () => false,
  getSessionId: () => "bench",
});

await timeGroups({
  prepare(record) {
    if (typeof record.file !== "string" || typeof record.input?.file_path !== "string") return null;
    const root = path.join(scratch, String(records++));
    const file = path.join(root, record.path);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, record.file);
    memory.set(file, record.file);
    const input = structuredClone(record.input);
    input.file_path = input.file_path.split(ROOT).join(root);
    try {
      return new EditTool(config(root)).build(input);
    } catch {
      return null;
    }
  },
  run: (invocation) => invocation.calculateEdit(invocation.params),
  agrees(record, result) {
    if (result?.thrown) return null;
    if (result.error) return record.expect.ok === false;
    if (record.expect.ok !== true) return false;
    // execute() writes the LF text back with the file's own line ending and BOM.
    let written = result.lineEnding === "crlf" ? result.newContent.replace(/\n/g, "\r\n") : result.newContent;
    if (result.bom && !written.startsWith("\ufeff")) written = "\ufeff" + written;
    return written === record.expect.content;
  },
});
