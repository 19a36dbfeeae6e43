// srview gate for pi 0.73.1: every `edit` and `write` is judged by
// `srview gate --agent pi` before pi runs it (docs/gate.md). Install: copy
// to ~/.pi/agent/extensions/srview-gate.ts (or .pi/extensions/ in a
// project) and set SRVIEW to srview's absolute path. pi waits for an
// extension without a bound: this one bounds its own wait, and blocks the
// edit with the reason when srview is missing, fails or does not answer in
// time.
import { spawn } from "node:child_process";
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";

const SRVIEW = "/usr/local/bin/srview";
const TIMEOUT_SECONDS = 60;
const TOOLS = new Set(["edit", "write"]);

type Answer = { decision: string; reason?: string; args?: Record<string, unknown> } | null;

const blocked = (why: string) => ({ block: true, reason: `srview gate: ${why}: the edit is blocked` });

/** srview's answer to one call, or why there is none. */
function ask(payload: unknown): Promise<Answer | { failed: string }> {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(SRVIEW, ["gate", "--agent", "pi", "--timeout", String(TIMEOUT_SECONDS)], {
        stdio: ["pipe", "pipe", "pipe"],
      });
    } catch (e) {
      resolve({ failed: `cannot run ${SRVIEW} (${(e as Error).message})` });
      return;
    }
    let out = "";
    let err = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve({ failed: `no answer within ${TIMEOUT_SECONDS} s` });
    }, TIMEOUT_SECONDS * 1000 + 1000);
    // Decoded as UTF-8 across reads: a character split between two reads
    // (an answer over 64 KiB) must not become U+FFFD in the rewritten edit.
    child.stdout.setEncoding("utf8");
    child.stderr.setEncoding("utf8");
    child.stdout.on("data", (d: string) => (out += d));
    child.stderr.on("data", (d: string) => (err += d));
    child.on("error", (e: Error) => {
      clearTimeout(timer);
      resolve({ failed: `cannot run ${SRVIEW} (${e.message})` });
    });
    child.on("close", (code: number | null) => {
      clearTimeout(timer);
      if (code !== 0) return resolve({ failed: `srview exited with ${code}: ${err.trim()}` });
      if (out.trim() === "") return resolve(null);
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        resolve({ failed: `srview's answer is no JSON (${(e as Error).message})` });
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

/** `target` made equal to `source` without replacing it: pi runs the
 * object it handed over (its edits' objects too). */
function replaceInPlace(target: any, source: any) {
  for (const key of Object.keys(target)) if (!(key in source)) delete target[key];
  for (const [key, value] of Object.entries(source)) {
    const old = target[key];
    if (Array.isArray(value) && Array.isArray(old) && value.length === old.length) {
      value.forEach((item, i) => {
        if (item && old[i] && typeof item === "object" && typeof old[i] === "object") replaceInPlace(old[i], item);
        else old[i] = item;
      });
    } else if (value && old && typeof value === "object" && typeof old === "object" && !Array.isArray(value)) {
      replaceInPlace(old, value);
    } else {
      target[key] = value;
    }
  }
}

export default function (pi: ExtensionAPI) {
  pi.on("tool_call", async (event, ctx) => {
    if (!TOOLS.has(event.toolName)) return undefined;
    const answer = await ask({
      tool: event.toolName,
      args: event.input,
      cwd: ctx.cwd,
      sessionID: (ctx as any).sessionManager?.getSessionId?.() ?? null,
      callID: event.toolCallId,
    });
    if (answer === null) return undefined;
    if ("failed" in answer) return blocked(answer.failed);
    if (answer.decision === "deny") return { block: true, reason: answer.reason ?? "srview gate: denied" };
    if (answer.decision === "rewrite" && answer.args && typeof answer.args === "object") {
      replaceInPlace(event.input, answer.args);
      return undefined;
    }
    return blocked(`unknown answer ${JSON.stringify(answer)}`);
  });
}
