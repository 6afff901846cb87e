// List and acknowledge on SQLite, on PostgreSQL with one instance, and with two instances behind a loopback
// round-robin balancer: `npm run bench:postgres -- [notifications-per-unit] [units] [seconds]`. Every instance, the
// balancer and the load generator share this one process (and its event loop): the figures compare the stores,
// they cannot show what a second machine adds.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import autocannon from "autocannon";
import { createServer, type Gateway } from "@lrg/gateway";
import { startPostgres, startRoundRobin } from "@lrg/gateway/testing";

const [perUnit = 1000, units = 10, seconds = 5] = process.argv.slice(2).map(Number);
const CONNECTIONS = 32;

async function seed(gateway: Gateway, url: string): Promise<{ username: string; password: string; ids: string[] }[]> {
  const storage = gateway.storage;
  const now = gateway.clock.nowMs();
  const seeded: { username: string; password: string; ids: string[] }[] = [];
  for (let unit = 0; unit < units; unit += 1) {
    const created = await fetch(`${url}/sandbox/v1/business-units`, {
      method: "POST",
      headers: { authorization: "Bearer bench", "content-type": "application/json" },
      body: JSON.stringify({ name: `Bench ${unit}` }),
    });
    const {
      username,
      password,
      business_unit_id: businessUnitId,
    } = (await created.json()) as { username: string; password: string; business_unit_id: string };
    const ids: string[] = [];
    for (let start = 0; start < perUnit; start += 100) {
      const applicationId = randomUUID();
      const application = {
        id: applicationId,
        businessUnitId,
        status: "VALIDATING",
        registryReference: null,
        priorityMs: null,
        additionalProviderFilter: null,
        submission: {},
        errors: [],
        warnings: [],
        earlyCompletion: false,
        createdMs: now,
        updatedMs: now,
        decideAtMs: null,
      };
      await storage.submitApplication(application, { key: applicationId, requestHash: "bench" });
      const notifications = Array.from({ length: Math.min(100, perUnit - start) }, () => {
        const id = randomUUID();
        ids.push(id);
        return {
          id,
          businessUnitId,
          applicationId,
          v1Type: "application.accepted",
          v0Type: "APPLICATION_ACCEPTED",
          v1Payload: { data: {} },
          v0Payload: { data: {} },
          v1Schema: "s",
          v0Schema: "s",
          eventMs: now,
          createdMs: now,
          status: "NEW" as const,
          additionalProviderFilter: null,
        };
      });
      await storage.changeApplication({
        applicationId,
        fromStatus: "VALIDATING",
        patch: { status: "ACCEPTED_PRIORITY_PROTECTED" },
        updatedMs: now,
        notifications,
      });
    }
    seeded.push({ username, password, ids });
  }
  return seeded;
}

async function measure(
  url: string,
  seeded: { username: string; password: string; ids: string[] }[],
): Promise<{ list: string; acknowledge: string }> {
  const auth = (username: string) =>
    `Basic ${Buffer.from(`${username}:${seeded.find((unit) => unit.username === username)?.password ?? ""}`).toString("base64")}`;
  const run = (requests: autocannon.Request[]) =>
    new Promise<autocannon.Result>((resolve, reject) =>
      autocannon(
        { url, connections: CONNECTIONS, duration: seconds, timeout: 10, requests },
        (error: unknown, result) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(result),
      ),
    );
  const lists = seeded.map(({ username }) => ({
    method: "GET" as const,
    path: "/v1/notifications?status=NEW&limit=100",
    headers: { authorization: auth(username) },
  }));
  const acks = seeded.map(({ username, ids }) => ({
    method: "POST" as const,
    path: "/v1/notifications/acknowledge",
    headers: { authorization: auth(username), "content-type": "application/json" },
    body: JSON.stringify({ data: ids.slice(0, 100) }),
  }));
  const figure = (result: autocannon.Result) =>
    `${Math.round(result.requests.average)}/s p99 ${result.latency.p99} ms (${result.non2xx} non-2xx)`;
  // Warm the credential caches once, so scrypt is not what is measured.
  for (const request of lists) await fetch(`${url}${request.path}`, { headers: request.headers });
  return { list: figure(await run(lists)), acknowledge: figure(await run(acks)) };
}

const rows: string[] = [];
const base = { sandboxToken: "bench", signingSecret: "bench", decisionDelayMs: 2000, logger: false };

const sqliteDir = mkdtempSync(join(tmpdir(), "lrg-bench-sqlite-"));
const sqlite = await createServer({ ...base, dataDir: sqliteDir });
const sqliteUrl = await sqlite.app.listen({ port: 0, host: "127.0.0.1" });
rows.push(
  ["SQLite, one instance", ...Object.values(await measure(sqliteUrl, await seed(sqlite, sqliteUrl)))].join(" | "),
);
await sqlite.app.close();
rmSync(sqliteDir, { recursive: true, force: true });

const postgres = await startPostgres();
const databaseUrl = await postgres.createDatabase();
const pgDir = mkdtempSync(join(tmpdir(), "lrg-bench-pg-"));
const first = await createServer({ ...base, dataDir: pgDir, databaseUrl, databasePoolSize: 16 });
const firstUrl = await first.app.listen({ port: 0, host: "127.0.0.1" });
const seeded = await seed(first, firstUrl);
rows.push(["PostgreSQL, one instance", ...Object.values(await measure(firstUrl, seeded))].join(" | "));
const second = await createServer({ ...base, dataDir: pgDir, databaseUrl, databasePoolSize: 16 });
const secondUrl = await second.app.listen({ port: 0, host: "127.0.0.1" });
const balancer = await startRoundRobin([firstUrl, secondUrl]);
rows.push(
  ["PostgreSQL, two instances (round-robin)", ...Object.values(await measure(balancer.url, seeded))].join(" | "),
);
await balancer.close();
await Promise.all([first.app.close(), second.app.close()]);
await postgres.stop();
rmSync(pgDir, { recursive: true, force: true });

console.log(`\n${units} units × ${perUnit} notifications, ${CONNECTIONS} connections, ${seconds} s each\n`);
console.log("| Setup | List (GET /v1/notifications, 100 a page) | Acknowledge (100 ids) |\n|---|---|---|");
for (const row of rows) console.log(`| ${row} |`);
