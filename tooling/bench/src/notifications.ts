// The notification benchmarks of the gateway (issue 3), side by side in one run with Prism mocking the same
// operations, a bare node:http server answering the gateway's own bytes, and (for acknowledge) SQLite itself; and
// (issue 15) the same data set on PostgreSQL: one gateway instance, and one and two instances behind the loopback
// round-robin balancer. Seeds the data set first when it is missing or stale. Part of `npm run bench`; alone:
// `tsx src/notifications.ts`. BENCH_POSTGRES=0 leaves PostgreSQL out.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import pg from "pg";
import { openSqlite } from "@lrg/gateway/sqlite";
import { copyToPostgres, startPostgres } from "@lrg/gateway/testing";
import { startMock } from "@lrg/mock";
import { compare, httpContender, type Contender, type LoadResult, type Shot } from "./contenders.js";
import { withCpu, type CpuShare, type Role } from "./cpu.js";
import { benchOptions, progress, type BenchOptions } from "./options.js";
import { finishRun, type NotificationResults, type Store, type StoreResults, type Target } from "./report.js";
import { ensureSeeded, type SeedManifest } from "./seed.js";
import type { CannedAnswer } from "./servers/bare-child.js";
import {
  startBareServer,
  startGateway,
  startHandoverBalancer,
  type GatewayProcess,
  type ServerProcess,
} from "./servers/processes.js";
import { directAcknowledger, type AckBatch } from "./sqlite-direct.js";

const LIST_PATH = "/v1/notifications";
const ACK_PATH = "/v1/notifications/acknowledge";
const BATCH = 100;
const PRIMING_CONCURRENCY = 4;
/**
 * Acknowledge requests a second no contender is expected to exceed: before each run a store whose fresh batches
 * would not last that long gets its acknowledged notifications put back to NEW (outside the measured time).
 */
const MAX_ACK_RATE = 1500;

export const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** The stores compared side by side, in the order they are measured, and their contenders' names. */
const STORE_CONTENDERS: Store[] = ["sqlite", "postgresql", "postgresqlBalancedOne", "postgresqlTwo"];
const STORE_NAMES: Record<Store, string> = {
  sqlite: "gateway",
  postgresql: "PostgreSQL",
  postgresqlBalancedOne: "PostgreSQL, 1 behind balancer",
  postgresqlTwo: "PostgreSQL, 2 behind balancer",
};

/**
 * The fresh acknowledge batches of one store, handed out once each; when fewer are left than the next run could
 * use, the store's acknowledged notifications (`restore` is given the batches handed out) are put back to NEW first
 * and the batches start again.
 */
export class AckSupply {
  #next = 0;
  /** How many times the store was put back. */
  restores = 0;
  /**
   * Run after each putting back, outside the measured time, for REWARM_SECONDS. The SQLite stores warm up again: the restore commits on
   * another connection, which drops the whole page cache of the gateway's writing connection, while a deployed
   * gateway is alone on its file.
   */
  rewarm: (() => Promise<unknown>) | undefined;
  readonly #batches: AckBatch[];
  readonly #restore: (handedOut: AckBatch[]) => Promise<unknown>;

  constructor(batches: AckBatch[], restore: (handedOut: AckBatch[]) => Promise<unknown>) {
    this.#batches = batches;
    this.#restore = restore;
  }

  readonly next = (): AckBatch | undefined => this.#batches[this.#next++];

  readonly ensure = async (seconds: number): Promise<void> => {
    if (this.#batches.length - this.#next >= seconds * MAX_ACK_RATE) return;
    await this.#restore(this.#batches.slice(0, this.#next));
    this.#next = 0;
    this.restores += 1;
    // Only when the fresh ids last for both (not in a test's tiny data set).
    if (this.#batches.length >= (REWARM_SECONDS + seconds) * MAX_ACK_RATE) await this.rewarm?.();
  };
}

/** Acknowledgement statements at once of each of the two instances: their sum the database server's 2 cores. */
const PAIR_ACKNOWLEDGE_STATEMENTS = 1;

/** How long the SQLite stores warm up again after their file was put back to the seeded state (see AckSupply). */
const REWARM_SECONDS = 1;

/** The PostgreSQL side of the benchmark: the seeded data set copied in, one instance, balancers over one and two. */
interface PostgresSetup {
  one: ServerProcess;
  /** The two instances behind `balancedTwo`. */
  pair: ServerProcess[];
  balancedOne: ServerProcess;
  balancedTwo: ServerProcess;
  supply: AckSupply;
  copySeconds: number;
  /** Vacuums what the acknowledgements deleted (see `Schedule.settle`). */
  settle(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Puts back to NEW what this run acknowledged on PostgreSQL: the notifications of the batches handed out get their
 * rows in new_notifications again (a notification is NEW while it has one).
 */
async function restorePostgres(databaseUrl: string, handedOut: AckBatch[]): Promise<number> {
  return withPostgres(databaseUrl, async (client) => {
    const { rowCount } = await client.query(
      `INSERT INTO new_notifications (seq, business_unit_id, created_ms)
         SELECT seq, business_unit_id, created_ms FROM notifications WHERE id = ANY($1)
       ON CONFLICT (seq) DO NOTHING`,
      [handedOut.flatMap((batch) => batch.ids)],
    );
    // The deletions left dead entries behind; reclaimed now, outside the measured time, as on a table that was never
    // put back.
    await client.query("VACUUM new_notifications");
    return rowCount ?? 0;
  });
}

/** Runs `work` on a connection of its own to the database, closed after. */
async function withPostgres<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts PostgreSQL (`startPostgres`), copies the seeded data set into it (`copyToPostgres`: the migration command,
 * one multi-row statement per 20,000 rows), and starts three gateway instances on it in their own processes: one
 * alone, as configured by default (2 acknowledgement statements at once), with a balancer over it; and a pair behind
 * a balancer, configured as the many-teams guide says for two instances on a 2-core database server (1 statement
 * each, LRG_DATABASE_ACKNOWLEDGE_STATEMENTS). The balancers hand each connection over to an instance's process
 * (startHandoverBalancer): the load generator's 32 keep-alive connections go 16 to each of two instances, and no byte
 * passes through the balancer. A balancer that copied the bytes of each connection (a TCP proxy in a process of its
 * own) cost 0.13 ms of CPU per list request, more than the gateway itself (0.11 ms), on the same 2 cores; one that
 * balanced each request, 0.44 ms.
 */
async function startPostgresSide(
  options: BenchOptions,
  batches: AckBatch[],
  credentials: string[],
): Promise<PostgresSetup> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const close of stops.reverse()) await close();
  };
  try {
    progress("starting PostgreSQL");
    // Buffers sized to the data set (1,000,000 notifications, about 1 GB), as on a real server; the tests keep 64 MB.
    const postgres = await startPostgres({ shared_buffers: "1GB" });
    stops.push(() => postgres.stop());
    const databaseUrl = await postgres.createDatabase();
    progress(`copying the data set into PostgreSQL`);
    const started = performance.now();
    const copied = await copyToPostgres(options.dataDir, databaseUrl);
    const copySeconds = (performance.now() - started) / 1000;
    progress(
      `copied ${(copied["notifications"] ?? 0).toLocaleString("en")} notifications into PostgreSQL in ${copySeconds.toFixed(1)} s`,
    );
    const scratch = mkdtempSync(join(tmpdir(), "lrg-bench-pg-"));
    stops.push(async () => rmSync(scratch, { recursive: true, force: true }));
    const instances: GatewayProcess[] = [];
    for (const [name, acknowledgeStatements] of [
      ["alone", undefined],
      ["a of the pair", PAIR_ACKNOWLEDGE_STATEMENTS],
      ["b of the pair", PAIR_ACKNOWLEDGE_STATEMENTS],
    ] as const) {
      const instance = await startGateway(join(scratch, String(instances.length)), databaseUrl, acknowledgeStatements);
      stops.push(() => instance.close());
      instances.push(instance);
      progress(`priming ${credentials.length} credentials on PostgreSQL instance ${name}`);
      await primeCredentials(instance.url, credentials);
    }
    const [one, ...pair] = instances as [GatewayProcess, GatewayProcess, GatewayProcess];
    const balancedOne = await startHandoverBalancer([one]);
    stops.push(() => balancedOne.close());
    const balancedTwo = await startHandoverBalancer(pair);
    stops.push(() => balancedTwo.close());
    const supply = new AckSupply(batches, (handedOut) => restorePostgres(databaseUrl, handedOut));
    // Not CHECKPOINT as well: it did not shorten the next slices' tails (the SQLite gateway's acknowledge p99 was
    // 396-423 ms with it, 386 ms without, and 148 ms with PostgreSQL left out of the run), and its flush of the data
    // files competes with theirs on the shared disk.
    const settle = () =>
      withPostgres(databaseUrl, async (client) => void (await client.query("VACUUM new_notifications")));
    return { one, pair, balancedOne, balancedTwo, supply, copySeconds, settle, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Puts back to NEW what earlier benchmark runs acknowledged, so that every run starts from the seeded state. */
export function restoreSeededState(dataDir: string, manifest: SeedManifest): number {
  const db = openSqlite(join(dataDir, "gateway.sqlite"));
  db.pragma("journal_mode = WAL");
  // Between slices the gateways hold the file open (idle): wait for them rather than fail on a busy moment.
  db.pragma("busy_timeout = 10000");
  const changed = db
    .prepare(
      "UPDATE notification_status SET status = 'NEW', acknowledged_ms = NULL WHERE status = 'ACKNOWLEDGED' AND acknowledged_ms > ?",
    )
    .run(manifest.seededAtMs).changes;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return changed;
}

/** Every NEW id of the rotated units, in batches of 100 of one unit each, the units taking turns. */
export function acknowledgeBatches(dataDir: string, users: SeedManifest["users"]): AckBatch[] {
  const db = openSqlite(join(dataDir, "gateway.sqlite"), { readonly: true });
  const select = db
    .prepare(
      `SELECT n.id FROM notification_status s JOIN notifications n ON n.seq = s.seq
       WHERE s.business_unit_id = ? AND s.status = 'NEW' ORDER BY s.created_ms, s.seq`,
    )
    .pluck();
  const perUnit = users.map((user) => {
    const ids = select.all(user.businessUnitId) as string[];
    return Array.from({ length: Math.floor(ids.length / BATCH) }, (_, i) => ({
      ...user,
      ids: ids.slice(i * BATCH, (i + 1) * BATCH),
    }));
  });
  db.close();
  const batches: AckBatch[] = [];
  for (let round = 0; perUnit.some((unit) => round < unit.length); round += 1) {
    for (const unit of perUnit) if (round < unit.length) batches.push(unit[round] as AckBatch);
  }
  return batches;
}

/** Acknowledge requests of the batches a source hands out; undefined once it runs dry. */
export function shotsOf(
  source: () => AckBatch | undefined,
  authorization: Map<string, string>,
): () => Shot | undefined {
  return () => {
    const batch = source();
    return (
      batch && {
        headers: { authorization: authorization.get(batch.username) as string, "content-type": "application/json" },
        body: JSON.stringify({ data: batch.ids }),
      }
    );
  };
}

/** The batches over and over: for servers that store nothing (Prism, the bare server). */
function recycled(batches: AckBatch[]): () => AckBatch {
  let next = 0;
  return () => batches[next++ % batches.length] as AckBatch;
}

/** Round-robin over the rotated units' credentials. */
export function listSupply(headers: string[]): () => Shot {
  let next = 0;
  return () => ({ headers: { authorization: headers[next++ % headers.length] as string } });
}

async function capture(url: string, init: RequestInit): Promise<CannedAnswer> {
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok)
    throw new Error(
      `${init.method ?? "GET"} ${url} answered ${response.status}: ${body.toString("utf8").slice(0, 300)}`,
    );
  return {
    status: response.status,
    contentType: response.headers.get("content-type") ?? "application/json",
    bodyBase64: body.toString("base64"),
  };
}

/** One request per credential, a few at a time, so that the gateway's scrypt runs before the measurements. */
export async function primeCredentials(url: string, headers: string[]): Promise<number> {
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: PRIMING_CONCURRENCY }, async () => {
      while (next < headers.length) {
        const authorization = headers[next++] as string;
        const response = await fetch(`${url}${LIST_PATH}?limit=1`, { headers: { authorization } });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`priming a credential answered ${response.status}`);
      }
    }),
  );
  return (performance.now() - started) / 1000;
}

/** Runs the notification benchmarks; what is worth knowing about the run goes into `notes`. */
export async function notificationBenchmarks(options: BenchOptions, notes: string[]): Promise<NotificationResults> {
  progress(
    `notification benchmarks${options.quick ? " (quick mode)" : ""}: ${options.connections} connections, ${options.warmupSeconds} s warm-up + ` +
      `${options.durationSeconds} s per server in ${options.slices} interleaved slices`,
  );
  const manifest = await ensureSeeded(
    {
      dataDir: options.dataDir,
      units: options.units,
      notifications: options.notifications,
      busyUnits: options.busyUnits,
      busyShare: options.busyShare,
    },
    options.reseed,
  );
  const restored = restoreSeededState(options.dataDir, manifest);
  if (restored > 0)
    progress(`restored ${restored.toLocaleString("en")} notifications acknowledged by an earlier run to NEW`);

  const rotated = manifest.users.slice(0, manifest.busyUnits);
  const authorization = new Map(rotated.map((user) => [user.username, basic(user.username, manifest.password)]));
  const listHeaders = [...authorization.values()];
  const batches = acknowledgeBatches(options.dataDir, rotated);
  progress(
    `prepared ${batches.length.toLocaleString("en")} acknowledge requests of ${BATCH} NEW ids over ${rotated.length} busy business units`,
  );

  // Between slices, background work is done outside the measured time: PostgreSQL's vacuuming after its
  // acknowledgements (not left to autovacuum in another contender's slice), and the copying of SQLite's log into its
  // file after SQLite direct's or the gateway's writes.
  const settleSqlite = () => {
    const db = openSqlite(join(options.dataDir, "gateway.sqlite"));
    try {
      db.pragma("busy_timeout = 10000");
      db.pragma("wal_checkpoint(PASSIVE)");
    } finally {
      db.close();
    }
  };
  const schedule = {
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    slices: options.slices,
    settle: async () => {
      settleSqlite();
      await postgres?.settle();
    },
  };
  const stops: (() => Promise<void>)[] = [];
  let list: Map<string, LoadResult>;
  let acknowledge: Map<string, LoadResult>;
  let primingSeconds: number;
  let postgres: PostgresSetup | undefined;
  const cpuShares = {
    list: new Map<Store, () => CpuShare | undefined>(),
    acknowledge: new Map<Store, () => CpuShare | undefined>(),
  };
  // The gateway owns its SQLite file, as it does when deployed: SQLite direct acknowledges on a copy of the seeded
  // file, not on the gateway's (another connection's commit drops the gateway's page cache). Each store is put back
  // to the seeded state when its fresh ids run out; PostgreSQL holds its own copy of the data set too, and its
  // instances share a supply of their own.
  const directDir = `${options.dataDir}-direct`;
  rmSync(directDir, { recursive: true, force: true });
  mkdirSync(directDir, { recursive: true });
  copyFileSync(join(options.dataDir, "gateway.sqlite"), join(directDir, "gateway.sqlite"));
  const sqliteSupply = new AckSupply(batches.slice(0, -1), async () => restoreSeededState(options.dataDir, manifest));
  const directSupply = new AckSupply(batches.slice(0, -1), async () => restoreSeededState(directDir, manifest));
  try {
    // Copied before the SQLite gateway starts, from the seeded state.
    if (options.postgres) {
      postgres = await startPostgresSide(options, batches.slice(0, -1), listHeaders);
      stops.push(postgres.stop);
    }
    progress("starting the gateway on the seeded data set");
    const gateway = await startGateway(options.dataDir);
    stops.push(() => gateway.close());
    progress(`priming ${listHeaders.length} credentials (one scrypt each, then the gateway's credential cache)`);
    primingSeconds = await primeCredentials(gateway.url, listHeaders);
    progress(`primed in ${primingSeconds.toFixed(1)} s`);

    const spare = batches.at(-1) as AckBatch;
    const canned = {
      [`GET ${LIST_PATH}`]: await capture(`${gateway.url}${LIST_PATH}`, {
        headers: { authorization: listHeaders[0] as string },
      }),
      [`POST ${ACK_PATH}`]: await capture(`${gateway.url}${ACK_PATH}`, {
        method: "POST",
        headers: { authorization: authorization.get(spare.username) as string, "content-type": "application/json" },
        body: JSON.stringify({ data: spare.ids }),
      }),
    };
    const listBytes = Buffer.from(canned[`GET ${LIST_PATH}`]?.bodyBase64 ?? "", "base64");
    const page = (JSON.parse(listBytes.toString("utf8")) as { data: unknown[] }).data.length;
    progress(
      `captured a list page of ${page} notifications (${listBytes.length.toLocaleString("en")} bytes) and an acknowledge answer`,
    );
    if (page !== BATCH) notes.push(`The captured list page held ${page} notifications, not ${BATCH}.`);

    progress("starting Prism on the bundled openapi.yaml and a bare node:http server on the captured answers");
    const prism = await startMock({ port: 0 });
    stops.push(() => prism.close());
    await capture(`${prism.url}${LIST_PATH}`, { headers: { authorization: listHeaders[0] as string } });
    const bare = await startBareServer(canned);
    stops.push(() => bare.close());
    const direct = await directAcknowledger(directDir, directSupply.next, directSupply.ensure);
    stops.push(async () => {
      await direct.close();
      rmSync(directDir, { recursive: true, force: true });
    });

    const http = (
      name: string,
      url: string,
      method: "GET" | "POST",
      path: string,
      next: () => Shot | undefined,
      prepare?: (seconds: number) => Promise<void>,
    ) => ({
      ...httpContender(name, { url, method, path, next }, options.connections),
      ...(prepare ? { prepare } : {}),
    });
    // The CPU each store's setup spends per request, by process (see cpu.ts).
    const roles = new Map<number, Role>([[gateway.pid, "gateway"]]);
    if (postgres) {
      for (const server of [postgres.one, ...postgres.pair]) roles.set(server.pid, "gateway");
    }
    const measured = (operation: "list" | "acknowledge", store: Store, contender: Contender): Contender => {
      const watched = withCpu(contender, roles);
      cpuShares[operation].set(store, watched.share);
      return watched.contender;
    };
    const stores = (method: "GET" | "POST", path: string, next: (supply: AckSupply) => () => Shot | undefined) =>
      postgres
        ? STORE_CONTENDERS.filter((store) => store !== "sqlite").map((store) => {
            const setup = postgres as PostgresSetup;
            const server = {
              postgresql: setup.one,
              postgresqlBalancedOne: setup.balancedOne,
              postgresqlTwo: setup.balancedTwo,
            }[store];
            return measured(
              method === "GET" ? "list" : "acknowledge",
              store,
              http(
                STORE_NAMES[store],
                server.url,
                method,
                path,
                next(setup.supply),
                method === "POST" ? setup.supply.ensure : undefined,
              ),
            );
          })
        : [];
    list = await compare(
      "GET /v1/notifications",
      [
        measured("list", "sqlite", http("gateway", gateway.url, "GET", LIST_PATH, listSupply(listHeaders))),
        ...stores("GET", LIST_PATH, () => listSupply(listHeaders)),
        http("Prism", prism.url, "GET", LIST_PATH, listSupply(listHeaders)),
        http("bare", bare.url, "GET", LIST_PATH, listSupply(listHeaders)),
      ],
      schedule,
    );
    const gatewayAcknowledges = http(
      "gateway",
      gateway.url,
      "POST",
      ACK_PATH,
      shotsOf(sqliteSupply.next, authorization),
      sqliteSupply.ensure,
    );
    sqliteSupply.rewarm = () => gatewayAcknowledges.run(REWARM_SECONDS);
    directSupply.rewarm = () => direct.contender.run(REWARM_SECONDS);
    acknowledge = await compare(
      "POST /v1/notifications/acknowledge",
      [
        measured("acknowledge", "sqlite", gatewayAcknowledges),
        direct.contender,
        ...stores("POST", ACK_PATH, (supply) => shotsOf(supply.next, authorization)),
        http("Prism", prism.url, "POST", ACK_PATH, shotsOf(recycled(batches), authorization)),
        http("bare", bare.url, "POST", ACK_PATH, shotsOf(recycled(batches), authorization)),
      ],
      schedule,
    );
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
  const ackGateway = acknowledge.get("gateway") as LoadResult;
  const sqliteDirect = acknowledge.get("SQLite direct") as LoadResult;
  if (ackGateway.seconds === 0 || sqliteDirect.seconds === 0) {
    notes.push(
      `The ${batches.length.toLocaleString("en")} prepared acknowledge requests (fresh NEW ids each) were used up by the warm-ups: acknowledge was not measured (the data set is too small; quick mode's is).`,
    );
  } else if (ackGateway.stoppedEarly || sqliteDirect.stoppedEarly) {
    notes.push(
      `The ${batches.length.toLocaleString("en")} prepared acknowledge requests (fresh NEW ids each) ran out: the gateway's figures cover ${ackGateway.seconds.toFixed(1)} s, SQLite direct's ${sqliteDirect.seconds.toFixed(1)} s.`,
    );
  }
  const restores = sqliteSupply.restores + directSupply.restores + (postgres?.supply.restores ?? 0);
  if (restores > 0)
    notes.push(
      `${batches.length.toLocaleString("en")} acknowledge requests of fresh NEW ids last about ${Math.floor(batches.length / MAX_ACK_RATE)} s at ${MAX_ACK_RATE}/s: between runs the stores were put back to the seeded state ${sqliteSupply.restores} times (the gateway's SQLite file), ${directSupply.restores} times (SQLite direct's copy) and ${postgres?.supply.restores ?? 0} times (PostgreSQL), outside the measured time; each SQLite store then warmed up again for ${REWARM_SECONDS} s.`,
    );
  restoreSeededState(options.dataDir, manifest);
  const pick = (results: Map<string, LoadResult>): Record<Target, LoadResult> => ({
    gateway: results.get("gateway") as LoadResult,
    prism: results.get("Prism") as LoadResult,
    bare: results.get("bare") as LoadResult,
  });
  const byStore = (results: Map<string, LoadResult>): Record<Store, LoadResult> =>
    Object.fromEntries(
      STORE_CONTENDERS.map((store) => [store, results.get(store === "sqlite" ? "gateway" : STORE_NAMES[store])]),
    ) as Record<Store, LoadResult>;
  const cpuOf = (operation: "list" | "acknowledge") =>
    Object.fromEntries(STORE_CONTENDERS.map((store) => [store, cpuShares[operation].get(store)?.()])) as Record<
      Store,
      CpuShare | undefined
    >;
  const storeResults: StoreResults | undefined = postgres && {
    copySeconds: postgres.copySeconds,
    list: byStore(list),
    acknowledge: byStore(acknowledge),
    cpu: { list: cpuOf("list"), acknowledge: cpuOf("acknowledge") },
  };

  const operations = {
    list: {
      request: `GET ${LIST_PATH} (default status NEW, page of ${BATCH})`,
      rotatedUnits: rotated.length,
      results: pick(list),
    },
    acknowledge: {
      request: `POST ${ACK_PATH} with ${BATCH} fresh NEW ids`,
      rotatedUnits: rotated.length,
      results: pick(acknowledge),
    },
  };
  for (const [operation, results] of [
    ["list", list],
    ["acknowledge", acknowledge],
  ] as const) {
    for (const [target, result] of results) {
      if (result.non2xx + result.errors + result.timeouts > 0) {
        notes.push(
          `${target} ${operation}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts.`,
        );
      }
    }
  }
  return {
    load: { connections: options.connections, ...schedule },
    dataSet: {
      units: manifest.units,
      notifications: manifest.counts.notifications,
      newNotifications: manifest.counts.newNotifications,
      applications: manifest.counts.applications,
      busyUnits: manifest.busyUnits,
      seededAt: new Date(manifest.seededAtMs).toISOString(),
    },
    operations,
    sqliteDirect,
    gatewayStartup: { primedCredentials: listHeaders.length, primingSeconds },
    ...(storeResults ? { stores: storeResults } : {}),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const options = benchOptions();
  const started = Date.now();
  const start = Number((loadavg()[0] ?? 0).toFixed(2));
  const notes: string[] = [];
  const notifications = await notificationBenchmarks(options, notes);
  const end = Number((loadavg()[0] ?? 0).toFixed(2));
  finishRun(options.resultsDir, {
    quick: options.quick,
    loadAverage: { start, end },
    seconds: (Date.now() - started) / 1000,
    notifications,
    notes,
  });
}
