// What readiness runs cost the registry interface (issue 33): notifications list and acknowledge throughput of the
// gateway with no readiness run, with a run on one measured business unit (one team examining its software while the
// others work), and with a run on every measured unit (every request also writes an observation), side by side in one
// run with the gateway as it was before readiness runs existed when BENCH_READINESS_BASELINE names a built checkout
// of that commit. Targets: with no run within 5% of the baseline, during a run within 15%. Alone:
// `npx tsx src/readiness.ts` (after a build); see README.md.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { compare, httpContender, type Contender, type LoadResult } from "./contenders.js";
import { withCpu, type CpuShare } from "./cpu.js";
import {
  AckSupply,
  acknowledgeBatches,
  basic,
  listSupply,
  primeCredentials,
  restoreSeededState,
  shotsOf,
} from "./notifications.js";
import { BENCH_ROOT, benchOptions, machine, progress, type BenchOptions } from "./options.js";
import { ensureSeeded, type SeedManifest, type SeedPlan } from "./seed.js";
import { startGatewayMain, type GatewayMainProcess } from "./servers/processes.js";

const LIST_PATH = "/v1/notifications";
const ACK_PATH = "/v1/notifications/acknowledge";
/** The longest run the spec allows (ReadinessRunRequest time_limit_seconds): it outlasts the measurement. */
const RUN_SECONDS = 604_800;
const MANIFEST = "bench-manifest.json";

/** One measured gateway: its process, its own copy of the data set, its acknowledge supply. */
interface Measured {
  name: string;
  gateway: GatewayMainProcess;
  manifest: SeedManifest;
  supply: AckSupply;
  authorization: Map<string, string>;
}

/** The seed plan of this benchmark: the notification benchmarks' data set, in a folder of its own. */
function planOf(options: BenchOptions, dataDir: string): SeedPlan {
  return {
    dataDir,
    units: options.units,
    notifications: options.notifications,
    busyUnits: options.busyUnits,
    busyShare: options.busyShare,
  };
}

/**
 * Seeds the baseline's data set with the baseline checkout's own seed script (its schema is its own), unless one of the
 * same plan is there already.
 */
function seedBaseline(checkout: string, plan: SeedPlan): SeedManifest {
  const manifestFile = join(plan.dataDir, MANIFEST);
  const existing = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, "utf8")) as SeedManifest) : null;
  const same =
    existing?.units === plan.units &&
    existing.notifications === plan.notifications &&
    existing.busyUnits === plan.busyUnits;
  if (same) return existing;
  progress(`seeding the baseline's data set with ${checkout}'s own seed script`);
  const seeded = spawnSync("npx", ["tsx", "src/seed.ts"], {
    cwd: join(checkout, "tooling", "bench"),
    stdio: "inherit",
    env: {
      ...process.env,
      BENCH_QUICK: "",
      BENCH_DATA_DIR: plan.dataDir,
      BENCH_UNITS: String(plan.units),
      BENCH_NOTIFICATIONS: String(plan.notifications),
      BENCH_BUSY_UNITS: String(plan.busyUnits),
    },
  });
  if (seeded.status !== 0) throw new Error(`seeding the baseline failed (${seeded.status})`);
  return JSON.parse(readFileSync(manifestFile, "utf8")) as SeedManifest;
}

/** A copy of a seeded data set (put back to its seeded state first), for one gateway alone. */
function copyOf(seedDir: string, manifest: SeedManifest, dataDir: string): SeedManifest {
  restoreSeededState(seedDir, manifest);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  for (const file of ["gateway.sqlite", MANIFEST]) copyFileSync(join(seedDir, file), join(dataDir, file));
  return { ...manifest, dataDir };
}

/** Starts a gateway build on its data set and primes the measured units' credentials. */
async function measured(name: string, manifest: SeedManifest, main?: string): Promise<Measured> {
  progress(`starting ${name} on ${manifest.dataDir}`);
  const gateway = await startGatewayMain(manifest.dataDir, { LRG_HTTPS_PORT: "off" }, main);
  const rotated = manifest.users.slice(0, manifest.busyUnits);
  const authorization = new Map(rotated.map((user) => [user.username, basic(user.username, manifest.password)]));
  await primeCredentials(gateway.url, [...authorization.values()]);
  const supply = new AckSupply(acknowledgeBatches(manifest.dataDir, rotated), async () =>
    restoreSeededState(manifest.dataDir, manifest),
  );
  return { name, gateway, manifest, supply, authorization };
}

/** Starts a readiness run on the first `units` measured units of `target` (the admin token naming each unit). */
async function startRuns(target: Measured, units: number): Promise<void> {
  for (const user of target.manifest.users.slice(0, units)) {
    const response = await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.gateway.sandboxToken}`, "content-type": "application/json" },
      body: JSON.stringify({
        business_unit_id: user.businessUnitId,
        checks: ["nothing-left-behind"],
        time_limit_seconds: RUN_SECONDS,
      }),
    });
    if (response.status !== 201)
      throw new Error(`starting a run answered ${response.status}: ${await response.text()}`);
  }
}

/** How many observations the runs of `target` recorded and dropped (their bound), from the run list. */
async function observationsOf(target: Measured): Promise<{ recorded: number; dropped: number }> {
  const response = await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs`, {
    headers: { authorization: `Bearer ${target.gateway.sandboxToken}` },
  });
  const runs = ((await response.json()) as { data: { run_id: string }[] }).data;
  const total = { recorded: 0, dropped: 0 };
  for (const { run_id } of runs) {
    const run = (await (
      await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs/${run_id}`, {
        headers: { authorization: `Bearer ${target.gateway.sandboxToken}` },
      })
    ).json()) as { observations: { recorded: number; dropped: number } };
    total.recorded += run.observations.recorded;
    total.dropped += run.observations.dropped;
  }
  return total;
}

const ratio = (results: Map<string, LoadResult>, name: string, against: string): number | undefined => {
  const base = results.get(against)?.requestsPerSecond;
  const value = results.get(name)?.requestsPerSecond;
  return base && value !== undefined ? value / base : undefined;
};

export async function readinessBenchmark(options: BenchOptions): Promise<Record<string, unknown>> {
  const root = resolve(process.env["BENCH_READINESS_DATA_DIR"] ?? join(BENCH_ROOT, ".data", "readiness"));
  const baselineCheckout = process.env["BENCH_READINESS_BASELINE"];
  /** What the baseline build is, as the figures name it (BENCH_READINESS_BASELINE_NAME). */
  const baselineName = process.env["BENCH_READINESS_BASELINE_NAME"] ?? "before readiness";
  const seeded = await ensureSeeded(planOf(options, join(root, "seed")), options.reseed);
  const targets: Measured[] = [];
  const schedule = {
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    slices: options.slices,
  };
  try {
    if (baselineCheckout) {
      const baseSeed = seedBaseline(baselineCheckout, planOf(options, join(root, "baseline-seed")));
      const main = join(baselineCheckout, "apps", "gateway", "dist", "main.js");
      targets.push(await measured(baselineName, copyOf(baseSeed.dataDir, baseSeed, join(root, "baseline")), main));
    }
    targets.push(await measured("no run", copyOf(seeded.dataDir, seeded, join(root, "no-run"))));
    // One team examining its software while the others work: one measured unit of many under a run.
    const oneRun = await measured("run on one unit", copyOf(seeded.dataDir, seeded, join(root, "one-run")));
    await startRuns(oneRun, 1);
    targets.push(oneRun);
    // The worst case: every request observed.
    const underRun = await measured("run on every unit", copyOf(seeded.dataDir, seeded, join(root, "run")));
    await startRuns(underRun, seeded.busyUnits);
    targets.push(underRun);

    const contender = (target: Measured, method: "GET" | "POST"): Contender =>
      method === "GET"
        ? httpContender(
            target.name,
            { url: target.gateway.url, method, path: LIST_PATH, next: listSupply([...target.authorization.values()]) },
            options.connections,
          )
        : {
            ...httpContender(
              target.name,
              {
                url: target.gateway.url,
                method,
                path: ACK_PATH,
                next: shotsOf(target.supply.next, target.authorization),
              },
              options.connections,
            ),
            prepare: target.supply.ensure,
          };
    // The gateway's CPU per request too: on a shared machine it moves less than throughput does.
    const roles = new Map(targets.map((target) => [target.gateway.pid, "gateway" as const]));
    const cpu = {
      list: new Map<string, () => CpuShare | undefined>(),
      acknowledge: new Map<string, () => CpuShare | undefined>(),
    };
    const watched = (operation: "list" | "acknowledge", target: Measured, method: "GET" | "POST"): Contender => {
      const measuredCpu = withCpu(contender(target, method), roles);
      cpu[operation].set(target.name, measuredCpu.share);
      return measuredCpu.contender;
    };
    const list = await compare(
      "readiness: GET /v1/notifications",
      targets.map((target) => watched("list", target, "GET")),
      schedule,
    );
    const acknowledge = await compare(
      "readiness: POST /v1/notifications/acknowledge",
      targets.map((target) => watched("acknowledge", target, "POST")),
      schedule,
    );
    const observed = await observationsOf(underRun);
    const against = baselineCheckout ? baselineName : "no run";
    const figures = Object.fromEntries(
      (
        [
          ["list", list],
          ["acknowledge", acknowledge],
        ] as const
      ).map(([operation, results]) => [
        operation,
        {
          requestsPerSecond: Object.fromEntries([...results].map(([name, r]) => [name, r.requestsPerSecond])),
          p99Ms: Object.fromEntries([...results].map(([name, r]) => [name, r.latencyMs.p99])),
          gatewayCpuMsPerRequest: Object.fromEntries(
            targets.map((target) => [target.name, cpu[operation].get(target.name)?.()?.msPerRequest.gateway]),
          ),
          noRunAgainstBaseline: baselineCheckout ? ratio(results, "no run", against) : undefined,
          oneRunAgainstBaseline: ratio(results, "run on one unit", against),
          everyUnitRunAgainstBaseline: ratio(results, "run on every unit", against),
        },
      ]),
    );
    return {
      machine: machine(),
      baseline: baselineCheckout ?? null,
      dataSet: { notifications: seeded.counts.notifications, measuredUnits: seeded.busyUnits },
      connections: options.connections,
      schedule,
      targets: { noRunWithin: 0.05, runWithin: 0.15 },
      observations: observed,
      ...figures,
    };
  } finally {
    for (const target of targets) await target.gateway.close();
  }
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const options = benchOptions();
  const result = await readinessBenchmark(options);
  mkdirSync(options.resultsDir, { recursive: true });
  const file = join(options.resultsDir, "readiness.json");
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  progress(`wrote ${file}`);
}
