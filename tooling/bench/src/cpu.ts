// Where the CPU time goes while a contender is measured: the processes of this run (the load generator, gateways,
// balancers, PostgreSQL's server processes) sampled from /proc before and after each measured slice. On a 2-core
// machine every process shares the same two cores, so these figures say what a setup costs per request, and
// whether the machine (not the design) was the limit.
import { readdirSync, readFileSync } from "node:fs";
import type { Contender } from "./contenders.js";

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** The kinds of process a run has. */
export type Role = "load generator" | "gateway" | "balancer" | "PostgreSQL" | "other";

/** CPU milliseconds per request by role, and how many cores were busy in all, over a contender's measured slices. */
export interface CpuShare {
  msPerRequest: Record<Role, number>;
  coresBusy: number;
}

interface Sample {
  ppid: number;
  comm: string;
  ticks: number;
}

function sampleAll(): Map<number, Sample> {
  const samples = new Map<number, Sample>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = text.lastIndexOf(")");
      const fields = text.slice(close + 2).split(" ");
      samples.set(Number(entry), {
        comm: text.slice(text.indexOf("(") + 1, close),
        ppid: Number(fields[1]),
        ticks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // The process ended while the list was read.
    }
  }
  return samples;
}

/** This process and its descendants, with their CPU ticks so far. */
function sampleTree(): Map<number, Sample> {
  const all = sampleAll();
  const tree = new Map<number, Sample>();
  const self = all.get(process.pid);
  if (self) tree.set(process.pid, self);
  for (let grown = true; grown;) {
    grown = false;
    for (const [pid, sample] of all) {
      if (!tree.has(pid) && tree.has(sample.ppid)) {
        tree.set(pid, sample);
        grown = true;
      }
    }
  }
  return tree;
}

/**
 * Measures the CPU that this process and its descendants spend while `contender` runs its measured slices (the
 * first run, its warm-up, is left out). `roles` names the server processes by pid; PostgreSQL's are known by name.
 */
export function withCpu(
  contender: Contender,
  roles: Map<number, Role>,
): { contender: Contender; share(): CpuShare | undefined } {
  const ticks: Record<Role, number> = { "load generator": 0, gateway: 0, balancer: 0, PostgreSQL: 0, other: 0 };
  let runs = 0;
  let requests = 0;
  let seconds = 0;
  const roleOf = (pid: number, sample: Sample): Role =>
    pid === process.pid
      ? "load generator"
      : (roles.get(pid) ?? (sample.comm.startsWith("postgres") ? "PostgreSQL" : "other"));
  return {
    contender: {
      ...contender,
      run: async (slice) => {
        runs += 1;
        if (runs === 1) return contender.run(slice);
        const before = sampleTree();
        const result = await contender.run(slice);
        const after = sampleTree();
        for (const [pid, sample] of after) {
          ticks[roleOf(pid, sample)] += sample.ticks - (before.get(pid)?.ticks ?? 0);
        }
        requests += result.requests;
        seconds += result.seconds;
        return result;
      },
    },
    share: () => {
      if (requests === 0 || seconds === 0) return undefined;
      const ms = (role: Role) => (ticks[role] * 1000) / TICKS_PER_SECOND / requests;
      const total = Object.values(ticks).reduce((sum, value) => sum + value, 0) / TICKS_PER_SECOND;
      return {
        msPerRequest: {
          "load generator": ms("load generator"),
          gateway: ms("gateway"),
          balancer: ms("balancer"),
          PostgreSQL: ms("PostgreSQL"),
          other: ms("other"),
        },
        coresBusy: total / seconds,
      };
    },
  };
}
