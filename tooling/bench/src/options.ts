import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root (tooling/bench). */
export const BENCH_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** How big the data set is and how long each measurement runs; read from the environment. */
export interface BenchOptions {
  /** Quick mode: a small data set and short runs, to check the harness end to end. */
  quick: boolean;
  dataDir: string;
  resultsDir: string;
  units: number;
  notifications: number;
  /** The first `busyUnits` units hold `busyShare` of the notifications; the benchmark rotates over them. */
  busyUnits: number;
  busyShare: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** The measured duration is split into this many slices, the contenders taking turns. */
  slices: number;
  /** Seed again even when the data directory holds a matching, fresh data set. */
  reseed: boolean;
  /** Measure the notifications on PostgreSQL too (one instance, and two behind a balancer); BENCH_POSTGRES=0: not. */
  postgres: boolean;
}

function numberFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const text = env[name];
  if (text === undefined || text === "") return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, not ${text}`);
  return value;
}

/**
 * Reads the options: `BENCH_QUICK=1` for quick mode; `BENCH_DURATION`, `BENCH_WARMUP` (seconds),
 * `BENCH_SLICES`, `BENCH_CONNECTIONS`, `BENCH_UNITS`, `BENCH_NOTIFICATIONS`, `BENCH_BUSY_UNITS`, `BENCH_DATA_DIR`, `BENCH_RESEED=1`,
 * `BENCH_POSTGRES=0`.
 */
export function benchOptions(env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const quick = ["1", "true", "yes"].includes((env["BENCH_QUICK"] ?? "").toLowerCase());
  const units = numberFrom(env, "BENCH_UNITS", quick ? 100 : 1_000);
  return {
    quick,
    dataDir: resolve(env["BENCH_DATA_DIR"] ?? join(BENCH_ROOT, ".data", quick ? "quick" : "full")),
    resultsDir: join(BENCH_ROOT, "results", quick ? "quick" : ""),
    units,
    notifications: numberFrom(env, "BENCH_NOTIFICATIONS", quick ? 100_000 : 1_000_000),
    busyUnits: Math.min(units, numberFrom(env, "BENCH_BUSY_UNITS", quick ? 20 : 200)),
    busyShare: 0.7,
    connections: numberFrom(env, "BENCH_CONNECTIONS", 32),
    warmupSeconds: numberFrom(env, "BENCH_WARMUP", quick ? 1 : 2),
    durationSeconds: numberFrom(env, "BENCH_DURATION", quick ? 3 : 10),
    slices: numberFrom(env, "BENCH_SLICES", quick ? 3 : 5),
    reseed: ["1", "true", "yes"].includes((env["BENCH_RESEED"] ?? "").toLowerCase()),
    postgres: !["0", "false", "no"].includes((env["BENCH_POSTGRES"] ?? "").toLowerCase()),
  };
}

/** What the figures were measured on. */
export function machine() {
  const cores = cpus();
  return {
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpus: cores.length,
    cpuModel: cores[0]?.model ?? "unknown",
    /** The 1-minute load average: other work on a shared machine skews every figure. */
    loadAverage1m: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
}

/** Prints one progress line on stderr (stdout stays clean for the summary). */
export function progress(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
