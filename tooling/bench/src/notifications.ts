// The notification benchmarks of the gateway (issue 3), side by side in one run with Prism mocking the same
// operations, a bare node:http server answering the gateway's own bytes, and (for acknowledge) SQLite itself.
// Seeds the data set first when it is missing or stale. Part of `npm run bench`; alone: `tsx src/notifications.ts`.
import { loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { openSqlite } from "@lrg/gateway/sqlite";
import { startMock } from "@lrg/mock";
import { compare, httpContender, type LoadResult, type Shot } from "./contenders.js";
import { benchOptions, progress, type BenchOptions } from "./options.js";
import { finishRun, type NotificationResults, type Target } from "./report.js";
import { ensureSeeded, type SeedManifest } from "./seed.js";
import type { CannedAnswer } from "./servers/bare-child.js";
import { startBareServer, startGateway } from "./servers/processes.js";
import { directAcknowledger, type AckBatch } from "./sqlite-direct.js";

const LIST_PATH = "/v1/notifications";
const ACK_PATH = "/v1/notifications/acknowledge";
const BATCH = 100;
const PRIMING_CONCURRENCY = 4;

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;

/** Puts back to NEW what earlier benchmark runs acknowledged, so that every run starts from the seeded state. */
function restoreSeededState(dataDir: string, manifest: SeedManifest): number {
  const db = openSqlite(join(dataDir, "gateway.sqlite"));
  db.pragma("journal_mode = WAL");
  const changed = db
    .prepare(
      "UPDATE notifications SET status = 'NEW', acknowledged_ms = NULL WHERE status = 'ACKNOWLEDGED' AND acknowledged_ms > ?",
    )
    .run(manifest.seededAtMs).changes;
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.close();
  return changed;
}

/** Every NEW id of the rotated units, in batches of 100 of one unit each, the units taking turns. */
function acknowledgeBatches(dataDir: string, users: SeedManifest["users"]): AckBatch[] {
  const db = openSqlite(join(dataDir, "gateway.sqlite"), { readonly: true });
  const select = db
    .prepare("SELECT id FROM notifications WHERE business_unit_id = ? AND status = 'NEW' ORDER BY created_ms, seq")
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
function shotsOf(source: () => AckBatch | undefined, authorization: Map<string, string>): () => Shot | undefined {
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
function listSupply(headers: string[]): () => Shot {
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
async function primeCredentials(url: string, headers: string[]): Promise<number> {
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

  const schedule = {
    warmupSeconds: options.warmupSeconds,
    durationSeconds: options.durationSeconds,
    slices: options.slices,
  };
  const stops: (() => Promise<void>)[] = [];
  let list: Map<string, LoadResult>;
  let acknowledge: Map<string, LoadResult>;
  let primingSeconds: number;
  try {
    progress("starting the gateway on the seeded data set");
    const gateway = await startGateway(options.dataDir);
    stops.push(() => gateway.close());
    progress(`priming ${listHeaders.length} credentials (one scrypt each, then the gateway's credential cache)`);
    primingSeconds = await primeCredentials(gateway.url, listHeaders);
    progress(`primed in ${primingSeconds.toFixed(1)} s`);

    const spare = batches.pop() as AckBatch;
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
    // Fresh ids are shared by the gateway and SQLite direct: each batch is acknowledged once, by one of them.
    const fresh = batches[Symbol.iterator]();
    const nextFresh = (): AckBatch | undefined => fresh.next().value;
    const direct = await directAcknowledger(options.dataDir, nextFresh);
    stops.push(() => direct.close());

    const http = (name: string, url: string, method: "GET" | "POST", path: string, next: () => Shot | undefined) =>
      httpContender(name, { url, method, path, next }, options.connections);
    list = await compare(
      "GET /v1/notifications",
      [
        http("gateway", gateway.url, "GET", LIST_PATH, listSupply(listHeaders)),
        http("Prism", prism.url, "GET", LIST_PATH, listSupply(listHeaders)),
        http("bare", bare.url, "GET", LIST_PATH, listSupply(listHeaders)),
      ],
      schedule,
    );
    acknowledge = await compare(
      "POST /v1/notifications/acknowledge",
      [
        http("gateway", gateway.url, "POST", ACK_PATH, shotsOf(nextFresh, authorization)),
        direct.contender,
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
  restoreSeededState(options.dataDir, manifest);
  const pick = (results: Map<string, LoadResult>): Record<Target, LoadResult> => ({
    gateway: results.get("gateway") as LoadResult,
    prism: results.get("Prism") as LoadResult,
    bare: results.get("bare") as LoadResult,
  });

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
  for (const operation of ["list", "acknowledge"] as const) {
    for (const [target, result] of Object.entries(operations[operation].results)) {
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
