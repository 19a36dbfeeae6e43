// OpenCode 1.18.33's own `edit` and `apply_patch` code, in-process, for benches/matchers.rs.
// SRVIEW_ORACLE_DIR: a folder holding either shipped/r1_edit.js, shipped/r2_patch_ns.js and
// shipped/r3_patch.js (the byte ranges of the bundle embedded in the Bun-compiled binary of
// npm opencode-linux-x64@1.18.33 that hold the two tools), or that binary under
// node_modules/opencode-linux-x64/bin/opencode or npm/node_modules/... (then the ranges are cut
// from it here, found by the same anchors). Each range is checked by its sha256, then the three
// are run as one function body, as they share the bundle's module scope; the names they import
// from other modules are supplied below (a synchronous stand-in for the few Effect combinators
// used, an in-memory file system, no-op LSP, formatter, bus and permission services).
//
//   edit:  timed per call as the tool's execute() runs it between reading and writing the file:
//          BOM strip, line-ending detection, the strings' line endings converted, replace()
//          (the nine replacers in order, BlockAnchorReplacer's Levenshtein included), the BOM
//          put back.
//   patch: timed per call: the tool's whole execute() over the in-memory file system (parse,
//          each hunk's seek, the writes into memory, the summary), diffs for display stubbed.
import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { args, timeGroups } from "./timing.mjs";

const { mode, dir } = args();
const ROOT = "/home/user/project";

// The slices' sha256 (OpenCode 1.18.33, linux-x64) and the anchors that bound them.
const SLICES = {
  r1: "e7a50c8781923b15228d5cebf32fe9a451f2195ab55239b68da9eddfb7d1745e",
  r2: "79aa875995cbe480ed7cef467d72a191ea3134e8273facd2feb808233c1ef544",
  r3: "1971ef3054ce781a731f5b48514464309f87c697a129ebc59d60f546ab5b9dfd",
};
function fromBinary(binary) {
  const d = fs.readFileSync(binary);
  const at = (needle, from) => {
    const i = d.indexOf(Buffer.from(needle, "latin1"), from);
    if (i < 0) throw new Error(`${binary}: anchor not found: ${needle}`);
    return i;
  };
  // The embedded module holding both tools.
  const module = at("\0/$bunfs/root/chunk-7eg57x9n.js\0", 0);
  const r1 = at("var Ce=65279", module);
  const r1End = at('import gr from"path";', r1);
  const r2 = at("var Vo={};so(Vo,", module);
  const r2End = at('import*as Ho from"path";', r2);
  const r3 = r2End + 'import*as Ho from"path";'.length;
  const r3End = at('import It from"path";', r3);
  return { r1: d.subarray(r1, r1End), r2: d.subarray(r2, r2End), r3: d.subarray(r3, r3End) };
}
function slices() {
  const shipped = path.join(dir, "shipped");
  let raw;
  if (fs.existsSync(path.join(shipped, "r1_edit.js"))) {
    raw = {
      r1: fs.readFileSync(path.join(shipped, "r1_edit.js")),
      r2: fs.readFileSync(path.join(shipped, "r2_patch_ns.js")),
      r3: fs.readFileSync(path.join(shipped, "r3_patch.js")),
    };
  } else {
    const binary = ["node_modules", "npm/node_modules"]
      .map((m) => path.join(dir, m, "opencode-linux-x64/bin/opencode"))
      .find((p) => fs.existsSync(p));
    if (!binary) throw new Error(`${dir}: neither shipped/*.js nor opencode-linux-x64/bin/opencode`);
    raw = fromBinary(binary);
  }
  for (const [name, sha] of Object.entries(SLICES)) {
    const got = crypto.createHash("sha256").update(raw[name]).digest("hex");
    if (got !== sha) throw new Error(`${name}: sha256 ${got}, not OpenCode 1.18.33's`);
  }
  return [raw.r1, raw.r2, raw.r3].map((b) => b.toString("utf8"));
}

// ---- the module's imports, supplied
class Eff {
  constructor(thunk) { this.thunk = thunk; }
  *[Symbol.iterator]() { return this.thunk(); }
  pipe(...fns) { return fns.reduce((a, f) => f(a), this); }
}
const E = (thunk) => new Eff(thunk);
function drive(g) {
  const r = g.next();
  if (!r.done) throw new Error("unexpected suspension");
  return r.value;
}
const effect = {
  gen: (f) => E(() => drive(f())),
  fn: () => (f) => (...a) => E(() => drive(f(...a))),
  fnUntraced: (f) => (...a) => E(() => drive(f(...a))),
  succeed: (v) => E(() => v),
  fail: (e) => E(() => { throw e; }),
  catch: (h) => (eff) => E(() => { try { return eff.thunk(); } catch (err) { return h(err).thunk(); } }),
  mapError: (h) => (eff) => E(() => { try { return eff.thunk(); } catch (err) { throw h(err); } }),
  orDie: (eff) => eff,
  withSpan: () => (eff) => eff,
  logInfo: () => E(() => undefined),
};
const schema = new Proxy(function () {}, { get: (_t, k) => (k === Symbol.iterator ? undefined : schema), apply: () => schema });
const defineGetters = (target, all) => { for (const k in all) Object.defineProperty(target, k, { get: all[k], enumerable: true }); };

class FsError extends Error {}
function memoryFs(files) {
  const enc = new TextEncoder();
  const store = new Map();
  for (const [k, v] of Object.entries(files)) store.set(k, enc.encode(v));
  const isDir = (q) => { const pre = q.endsWith("/") ? q : q + "/"; for (const k of store.keys()) if (k.startsWith(pre)) return true; return false; };
  const parentIsFile = (q) => { let d = path.posix.dirname(q); while (d !== "/" && d !== ".") { if (store.has(d)) return true; d = path.posix.dirname(d); } return false; };
  return {
    existsSafe: (q) => E(() => store.has(q) || isDir(q)),
    stat: (q) => E(() => { if (store.has(q)) return { type: "File" }; if (isDir(q)) return { type: "Directory" }; throw new FsError(`stat ${q}`); }),
    readFile: (q) => E(() => { if (store.has(q)) return store.get(q); throw new FsError(`readFile ${q}`); }),
    readFileString: (q) => E(() => { if (store.has(q)) return new TextDecoder().decode(store.get(q)); throw new FsError(`readFileString ${q}`); }),
    writeWithDirs: (q, c) => E(() => { if (isDir(q) || parentIsFile(q)) throw new FsError(`write ${q}`); store.set(q, typeof c === "string" ? enc.encode(c) : c); }),
    remove: (q) => E(() => { if (!store.delete(q)) throw new FsError(`remove ${q}`); }),
  };
}
let currentFs = null;
const fsService = new Proxy({}, { get: (_t, k) => currentFs[k] });
const imports = {
  s: effect, p: schema, so: defineGetters, j: (id, init) => ({ id, init }),
  P: { Service: E(() => ({ touchFile: () => E(() => undefined), diagnostics: () => E(() => ({})) })), Diagnostic: { report: () => "" } },
  V: { Service: E(() => fsService), resolve: (q) => path.posix.resolve(q), normalizePath: (q) => q },
  To: { Service: E(() => ({ file: () => E(() => false) })) },
  L: { Service: E(() => ({ publish: () => E(() => undefined) })) },
  J: { context: E(() => ({ directory: ROOT, worktree: ROOT })) },
  Le: { makeUnsafe: () => ({ withPermits: () => (eff) => eff }) },
  M: () => E(() => false),
  qo: path.posix, Ho: path.posix, yo: path.posix,
  uo: () => "", er: () => [],
  Qo: { Event: { Edited: "file.edited" } }, Jo: { Event: { Updated: "file.watcher.updated" } },
  ze: "",
};
const [R1, R2, R3] = slices();
const names = Object.keys(imports);
const shipped = new Function(...names, `${R1}\n${R2}\n${R3}\n;return {Hr, xr, Ts, x, E, ms, Me, Io};`)(
  ...names.map((k) => imports[k]));
const patchTool = effect.gen(function* () { return yield* shipped.xr.init; }).thunk();
const ctx = { sessionID: "s", messageID: "m", callID: "c", agent: "build",
  ask: () => E(() => undefined), metadata: () => E(() => undefined) };

// The edit tool's steps around replace(), as its execute() takes them.
function edit({ file, input }) {
  const read = shipped.x(file);
  const ending = shipped.ms(read.text);
  const oldString = shipped.Me(shipped.Io(input.oldString), ending);
  const newString = shipped.Me(shipped.Io(input.newString), ending);
  const replaced = shipped.x(shipped.Ts(read.text, oldString, newString, input.replaceAll));
  return shipped.E(replaced.text, read.bom || replaced.bom);
}

const agents = {
  edit: {
    prepare: (r) => (typeof r.file === "string" && !r.extra_files && typeof r.input?.oldString === "string" && r.input.oldString !== ""
      ? { file: r.file, input: r.input } : null),
    run: edit,
    agrees(r, result) {
      if (result?.thrown) return r.expect.ok === false && result.thrown.message === r.expect.error;
      return r.expect.ok === true && result === r.expect.content;
    },
  },
  patch: {
    prepare: (r) => ({ files: Object.fromEntries(Object.entries(r.files ?? {}).filter(([, v]) => typeof v === "string")
      .map(([k, v]) => [path.posix.join(ROOT, k), v])), input: r.input, fs: null }),
    reset: (s) => { s.fs = memoryFs(s.files); },
    run: (s) => { currentFs = s.fs; return patchTool.execute(s.input, ctx).thunk(); },
    agrees(r, result) {
      if (result?.thrown) return r.expect.ok === false && result.thrown.message === r.expect.error;
      return r.expect.ok === true && result.output === r.expect.message;
    },
  },
};
if (!agents[mode]) throw new Error(`mode: edit or patch, not ${mode}`);
await timeGroups(agents[mode]);
