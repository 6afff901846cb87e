// Resident memory of a process, from /proc/<pid>/status (Linux): the current resident set (VmRSS) and its peak
// (VmHWM), the peak's reset (clear_refs), and periodic sampling.
import { readFileSync, writeFileSync } from "node:fs";

/** Resident memory in bytes. */
export interface Resident {
  rss: number;
  peak: number;
}

const kib = (status: string, field: string) =>
  Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN) * 1024;

/** VmRSS and VmHWM of a process (or this one). */
export function residentOf(pid: number | "self" = "self"): Resident {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return { rss: kib(status, "VmRSS"), peak: kib(status, "VmHWM") };
}

/** Resets a process's VmHWM to its current VmRSS (Linux clear_refs 5), so that the next peak is the next thing's. */
export function resetPeak(pid: number | "self" = "self"): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Samples VmRSS every `everyMs` until stopped; answers the samples (bytes) with their times (ms since start). */
export function sampleResident(pid: number, everyMs: number): { stop(): { atMs: number; rss: number }[] } {
  const started = performance.now();
  const samples: { atMs: number; rss: number }[] = [];
  const take = () => {
    try {
      samples.push({ atMs: performance.now() - started, rss: residentOf(pid).rss });
    } catch {
      // the process has gone; the samples so far stand
    }
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

export const MiB = 1024 * 1024;
