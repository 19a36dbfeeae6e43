// srview gate for OpenCode 1.18.33: every `edit`, `write` and `apply_patch`
// is judged by `srview gate --agent opencode` before OpenCode runs it
// (docs/gate.md). Install: copy to ~/.config/opencode/plugin/srview-gate.js
// (or .opencode/plugin/ in a project) and set SRVIEW to srview's absolute
// path. OpenCode waits for a plugin without a bound: this one bounds its
// own wait, and blocks the edit with the reason when srview is missing,
// fails or does not answer in time.
import { spawn } from "node:child_process";

const SRVIEW = "/usr/local/bin/srview";
const TIMEOUT_SECONDS = 60;
const TOOLS = new Set(["edit", "write", "apply_patch"]);

const blocked = (why) => new Error(`srview gate: ${why}: the edit is blocked`);

/** srview's answer to one call: null (no opinion) or {decision, reason, args}. */
function ask(payload) {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(SRVIEW, ["gate", "--agent", "opencode", "--timeout", String(TIMEOUT_SECONDS)], {
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (e) {
      reject(blocked(`cannot run ${SRVIEW} (${e.message})`));
      return;
    }
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(blocked(`no answer within ${TIMEOUT_SECONDS} s`));
    }, TIMEOUT_SECONDS * 1000 + 1000);
    // Decoded as UTF-8 across reads: a character split between two reads
    // (an answer over 64 KiB) must not become U+FFFD in the rewritten edit.
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(blocked(`cannot run ${SRVIEW} (${e.message})`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(blocked(`srview exited with ${code}: ${err.trim()}`));
      if (out.trim() === "") return resolve(null);
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        reject(blocked(`srview's answer is no JSON (${e.message})`));
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/** `target` made equal to `source` without replacing it: OpenCode runs the
 * object it handed over; a new object assigned to output.args is ignored
 * (recorded). */
function replaceInPlace(target, source) {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  for (const [key, value] of Object.entries(source)) {
    const old = target[key];
    if (value && old && typeof value === "object" && typeof old === "object" && !Array.isArray(value) && !Array.isArray(old)) {
      replaceInPlace(old, value);
    } else {
      target[key] = value;
    }
  }
}

export const SrviewGate = async (ctx) => ({
  "tool.execute.before": async (input, output) => {
    if (!TOOLS.has(input.tool)) return;
    const answer = await ask({
      tool: input.tool,
      args: output.args,
      cwd: ctx.directory,
      sessionID: input.sessionID,
      callID: input.callID,
    });
    if (answer === null) return;
    if (answer.decision === "deny") throw new Error(answer.reason);
    if (answer.decision === "rewrite" && answer.args && typeof answer.args === "object") {
      replaceInPlace(output.args, answer.args);
      return;
    }
    throw blocked(`unknown answer ${JSON.stringify(answer)}`);
  },
});
