// What readiness runs cost the registry interface (issues 33 and 39): notifications list and acknowledge throughput of
// the gateway with no readiness run anywhere, with a run on a unit the measured requests do not come from (another
// team examining its software), and with a run on every measured unit (each measured request on a unit under a run),
// side by side in one run, each against the same build composed without readiness (createServer's `Composition`).
// Targets (issue 39): with no run within 1% of the build without readiness, for units without a run while another
// has one within 5%. Part of `npm run bench` (BENCH_ONLY=readiness); alone: `npx tsx src/readiness.ts`. See README.md.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
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
import { startGateway, type GatewayProcess } from "./servers/processes.js";

const LIST_PATH = "/v1/notifications";
const ACK_PATH = "/v1/notifications/acknowledge";
/** The longest run the spec allows (ReadinessRunRequest time_limit_seconds): it outlasts the measurement. */
const RUN_SECONDS = 604_800;
const MANIFEST = "bench-manifest.json";

/** The gateways compared, by the name the figures give them. */
export const READINESS_TARGETS = {
  removed: "readiness removed",
  idle: "no run",
  elsewhere: "run on another unit",
  here: "run on this unit",
} as const;
type TargetName = (typeof READINESS_TARGETS)[keyof typeof READINESS_TARGETS];

/** What the readiness benchmark measured, for results/readiness.json and `npm run bench`'s report. */
export interface ReadinessResults {
  machine: ReturnType<typeof machine>;
  /** 1-minute load average before and after (/proc/loadavg). */
  loadAverage: { start: number; end: number };
  dataSet: { notifications: number; measuredUnits: number };
  connections: number;
  schedule: { warmupSeconds: number; durationSeconds: number; slices: number };
  /** Each ratio's least: no run, and a run on another unit, against readiness removed. */
  targets: { idle: number; elsewhere: number };
  /** What the runs on every measured unit recorded and dropped (their bound). */
  observations: { recorded: number; dropped: number };
  list: ReadinessFigures;
  acknowledge: ReadinessFigures;
}

/** One operation's figures on each gateway, and each case against the gateway without readiness. */
export interface ReadinessFigures {
  results: Record<TargetName, LoadResult>;
  gatewayCpuMsPerRequest: Record<TargetName, number | undefined>;
  /** requests/s ÷ those of readiness removed. */
  idle: number;
  elsewhere: number;
  here: number;
}

/** One measured gateway: its process, its own copy of the data set, its acknowledge supply. */
interface Measured {
  name: TargetName;
  gateway: GatewayProcess;
  sandboxToken: string;
  manifest: SeedManifest;
  supply: AckSupply;
  authorization: Map<string, string>;
}

/**
 * The data set of this benchmark, whatever the mode: quick mode's (100 units, 100,000 notifications, 20 measured), in
 * a folder of its own; each gateway gets a copy.
 */
function planOf(options: BenchOptions, dataDir: string): SeedPlan {
  return { dataDir, units: 100, notifications: 100_000, busyUnits: 20, busyShare: options.busyShare };
}

/** A copy of a seeded data set (put back to its seeded state first), for one gateway alone. */
function copyOf(seedDir: string, manifest: SeedManifest, dataDir: string): SeedManifest {
  restoreSeededState(seedDir, manifest);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  for (const file of ["gateway.sqlite", MANIFEST]) copyFileSync(join(seedDir, file), join(dataDir, file));
  return { ...manifest, dataDir };
}

/**
 * Starts a gateway on its data set, as the `serve` script runs it (without readiness when `readiness` is false), and
 * primes the measured units' credentials.
 */
async function measured(name: TargetName, manifest: SeedManifest, readiness = true): Promise<Measured> {
  progress(`starting "${name}" on ${manifest.dataDir}`);
  const sandboxToken = randomBytes(18).toString("base64url");
  const gateway = await startGateway(manifest.dataDir, undefined, undefined, {
    init: { sandboxToken, composition: { readiness } },
    serve: true,
  });
  const rotated = manifest.users.slice(0, manifest.busyUnits);
  const authorization = new Map(rotated.map((user) => [user.username, basic(user.username, manifest.password)]));
  await primeCredentials(gateway.url, [...authorization.values()]);
  const supply = new AckSupply(acknowledgeBatches(manifest.dataDir, rotated), async () =>
    restoreSeededState(manifest.dataDir, manifest),
  );
  return { name, gateway, sandboxToken, manifest, supply, authorization };
}

/** Starts a readiness run on each of `units` of `target` (the admin token naming each unit). */
async function startRuns(target: Measured, units: SeedManifest["users"]): Promise<void> {
  for (const user of units) {
    const response = await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs`, {
      method: "POST",
      headers: { authorization: `Bearer ${target.sandboxToken}`, "content-type": "application/json" },
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
  const headers = { authorization: `Bearer ${target.sandboxToken}` };
  const response = await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs`, { headers });
  const runs = ((await response.json()) as { data: { run_id: string }[] }).data;
  const total = { recorded: 0, dropped: 0 };
  for (const { run_id } of runs) {
    const run = (await (
      await fetch(`${target.gateway.url}/sandbox/v1/readiness-runs/${run_id}`, { headers })
    ).json()) as { observations: { recorded: number; dropped: number } };
    total.recorded += run.observations.recorded;
    total.dropped += run.observations.dropped;
  }
  return total;
}

const loadAverage = () => Number((loadavg()[0] ?? 0).toFixed(2));

export async function readinessBenchmark(options: BenchOptions): Promise<ReadinessResults> {
  const root = resolve(process.env["BENCH_READINESS_DATA_DIR"] ?? join(BENCH_ROOT, ".data", "readiness"));
  const loadAtStart = loadAverage();
  const seeded = await ensureSeeded(planOf(options, join(root, "seed")), options.reseed);
  const measuredUnits = seeded.users.slice(0, seeded.busyUnits);
  const otherUnit = seeded.users[seeded.busyUnits];
  if (!otherUnit) throw new Error("the data set has no unit beside the measured ones");
  const targets: Measured[] = [];
  const schedule = {
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    slices: options.slices,
  };
  const copy = (name: string) => copyOf(seeded.dataDir, seeded, join(root, name));
  try {
    targets.push(await measured(READINESS_TARGETS.removed, copy("removed"), false));
    targets.push(await measured(READINESS_TARGETS.idle, copy("no-run")));
    // Another team examining its software while the measured units work: their requests pass no run of theirs.
    const elsewhere = await measured(READINESS_TARGETS.elsewhere, copy("run-elsewhere"));
    await startRuns(elsewhere, [otherUnit]);
    targets.push(elsewhere);
    // Every measured request on a unit under a run: each is observed.
    const here = await measured(READINESS_TARGETS.here, copy("run-here"));
    await startRuns(here, measuredUnits);
    targets.push(here);

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
    const measure = async (operation: "list" | "acknowledge", method: "GET" | "POST"): Promise<ReadinessFigures> => {
      const cpu = new Map<string, () => CpuShare | undefined>();
      const contenders = targets.map((target) => {
        const watched = withCpu(contender(target, method), roles);
        cpu.set(target.name, watched.share);
        return watched.contender;
      });
      const results = await compare(
        `readiness: ${method} ${method === "GET" ? LIST_PATH : ACK_PATH}`,
        contenders,
        schedule,
      );
      const of = (name: TargetName): LoadResult => {
        const result = results.get(name);
        if (!result) throw new Error(`no ${operation} figures for "${name}"`);
        return result;
      };
      const against = (name: TargetName) =>
        of(name).requestsPerSecond / of(READINESS_TARGETS.removed).requestsPerSecond;
      const names = Object.values(READINESS_TARGETS);
      return {
        results: Object.fromEntries(names.map((name) => [name, of(name)])) as Record<TargetName, LoadResult>,
        gatewayCpuMsPerRequest: Object.fromEntries(
          names.map((name) => [name, cpu.get(name)?.()?.msPerRequest.gateway]),
        ) as Record<TargetName, number | undefined>,
        idle: against(READINESS_TARGETS.idle),
        elsewhere: against(READINESS_TARGETS.elsewhere),
        here: against(READINESS_TARGETS.here),
      };
    };
    const list = await measure("list", "GET");
    const acknowledge = await measure("acknowledge", "POST");
    return {
      machine: machine(),
      loadAverage: { start: loadAtStart, end: loadAverage() },
      dataSet: { notifications: seeded.counts.notifications, measuredUnits: measuredUnits.length },
      connections: options.connections,
      schedule,
      targets: { idle: 0.99, elsewhere: 0.95 },
      observations: await observationsOf(here),
      list,
      acknowledge,
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
