// Shared by the oracle scripts of benches/matchers.rs: reads the records the
// bench wrote ({group, record} a line), times the agent's own code over each
// group the way the bench times srview's port (two warm-up passes, then
// PASSES timed passes over the group's records, the median pass; a group
// whose first pass takes over 2 s gets that one warm-up only, and its timed
// passes stop after 60 s, one at least: the agents' fuzzy stages take
// minutes a pass on a loaded machine), and
// prints one JSON line per group: {group, calls, passes, median_ms (wall
// clock), median_cpu_ms (the process's user + system CPU time: the machine
// may be shared), agree, checked}.
//
// A script gives, per record, `prepare(record)` (untimed: the agent's tool or
// invocation built, its files put in place; returns a state, or null when the
// record cannot be run that way), `reset(state)` (untimed, before each pass:
// a fresh in-memory file system where the code writes into it), `run(state)`
// (timed: the agent's code; may return a promise) and `agrees(record,
// result)` (whether the result of the first pass is the corpus's: true,
// false, or null when the script cannot tell).
import fs from "node:fs";

export function args() {
  const [, , mode, file, passes] = process.argv;
  const dir = process.env.SRVIEW_ORACLE_DIR;
  if (!dir || !file) throw new Error("usage: SRVIEW_ORACLE_DIR=FOLDER node SCRIPT MODE RECORDS.jsonl PASSES");
  return { mode, dir, file, passes: Number(passes) || 9 };
}

function groupsOf(file) {
  const groups = new Map();
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const { group, record } = JSON.parse(line);
    if (!groups.has(group)) groups.set(group, []);
    groups.get(group).push(record);
  }
  return groups;
}

async function pass(states, agent) {
  for (const s of states) if (agent.reset) agent.reset(s);
  const results = new Array(states.length);
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  for (let i = 0; i < states.length; i++) {
    let r;
    try {
      r = agent.run(states[i]);
      if (r && typeof r.then === "function") r = await r;
    } catch (e) {
      r = { thrown: e };
    }
    results[i] = r;
  }
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const used = process.cpuUsage(cpu);
  return { ms, cpuMs: (used.user + used.system) / 1e3, results };
}

export async function timeGroups(agent) {
  const { file, passes } = args();
  for (const [group, records] of groupsOf(file)) {
    const prepared = [];
    for (const record of records) {
      const state = await agent.prepare(record);
      if (state !== null) prepared.push({ record, state });
    }
    const states = prepared.map((p) => p.state);
    const first = await pass(states, agent);
    const slow = first.ms > 2000;
    if (!slow) await pass(states, agent);
    let agree = 0, checked = 0;
    first.results.forEach((result, i) => {
      const verdict = agent.agrees(prepared[i].record, result);
      if (verdict !== null) { checked++; if (verdict) agree++; }
    });
    const wall = [], cpu = [];
    let spent = 0;
    while (wall.length < passes && (wall.length === 0 || !slow || spent < 60000)) {
      const { ms, cpuMs } = await pass(states, agent);
      wall.push(ms);
      cpu.push(cpuMs);
      spent += ms;
    }
    const count = wall.length;
    const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const out = { group, calls: states.length, skipped: records.length - states.length, passes: count,
      median_ms: median(wall), median_cpu_ms: median(cpu), agree, checked };
    process.stdout.write(JSON.stringify(out) + "\n");
  }
}
