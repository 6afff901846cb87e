// PostgreSQL going away under a running gateway (a backend terminated, a restart or failover): the process stays
// up, every request in the meantime is answered 503-02 with Retry-After (never 500), nothing answered 2xx is lost,
// and the gateway serves again by itself once the database is back.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../src/testing.js";
import { basic, DEMO, idempotencyKey, submission } from "./support/gateway.js";
import { startGatewayProcess, type GatewayProcess } from "./support/process.js";

/** The advisory lock key of the processing job (postgres-storage.ts JOB_LOCKS), as pg_locks shows it: objid. */
const PROCESSING_LOCK = 0x4c52_4701;
/** How many restart-under-load runs (LRG_RESTART_RUNS=10 for the figures; two in `npm test`). */
const RUNS = Number(process.env["LRG_RESTART_RUNS"] ?? 2);

let postgres: TestPostgres;
const dataDirs: string[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

async function startOnNewDatabase(): Promise<{ gateway: GatewayProcess; databaseUrl: string }> {
  const databaseUrl = await postgres.createDatabase();
  const dataDir = mkdtempSync(join(tmpdir(), "lrg-pg-faults-"));
  dataDirs.push(dataDir);
  return { gateway: await startGatewayProcess(dataDir, { LRG_DATABASE_URL: databaseUrl }), databaseUrl };
}

const alive = (gateway: GatewayProcess) => gateway.child.exitCode === null && gateway.child.signalCode === null;

/** Submits one application as the demo user: its status, and the problem's code and Retry-After when refused. */
async function submitOne(url: string) {
  const response = await fetch(`${url}/v0/applications`, {
    method: "POST",
    headers: { authorization: basic(DEMO), "content-type": "application/json", "idempotency-key": idempotencyKey() },
    body: JSON.stringify(submission()),
  });
  const body = (await response.json()) as { code?: string; data?: { application_request_id: string } };
  return {
    status: response.status,
    code: body.code,
    retryAfter: response.headers.get("retry-after"),
    id: body.data?.application_request_id,
  };
}

/** Waits until the gateway says it is ready again (it reconnects by itself). */
async function readyAgain(url: string): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if ((await fetch(`${url}/readyz`).catch(() => undefined))?.status === 200) return true;
    await sleep(100);
  }
  return false;
}

describe("PostgreSQL faults", () => {
  it("survives the termination of the backend that holds the processing job's lock, then of every backend", async () => {
    const { gateway, databaseUrl } = await startOnNewDatabase();
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // The job holds its lock for a few milliseconds every 250: watch for it and end the backend holding it.
      let terminated = 0;
      const deadline = Date.now() + 30_000;
      while (terminated < 3 && Date.now() < deadline && alive(gateway)) {
        const { rows } = await admin.query<{ done: boolean }>(
          "SELECT pg_terminate_backend(pid) AS done FROM pg_locks WHERE locktype = 'advisory' AND granted AND objid = $1",
          [PROCESSING_LOCK],
        );
        terminated += rows.filter((row) => row.done).length;
      }
      expect(alive(gateway), `the gateway ended after ${terminated} termination(s): ${gateway.output()}`).toBe(true);
      expect(terminated).toBeGreaterThanOrEqual(3);
      // Then every connection of the gateway at once: the pool's, the listening one.
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
      );
      await sleep(1_500);
      expect(alive(gateway)).toBe(true);
      expect(await readyAgain(gateway.url)).toBe(true);
      const submitted = await submitOne(gateway.url);
      expect(submitted.status).toBe(202);
      // The processing job runs again: the application is decided (automatic processing) without a restart.
      let status = "VALIDATING";
      for (let attempt = 0; attempt < 100 && status === "VALIDATING"; attempt += 1) {
        await sleep(100);
        const information = await fetch(`${gateway.url}/v0/applications/${submitted.id}/information`, {
          headers: { authorization: basic(DEMO) },
        });
        status = ((await information.json()) as { data?: { status?: string } }).data?.status ?? "";
      }
      expect(status).not.toBe("VALIDATING");
    } finally {
      await admin.end();
      await gateway.stop();
    }
  });

  it(`keeps every answered write through a restart under load, answering 503-02 meanwhile (${RUNS} runs)`, async () => {
    const figures: string[] = [];
    for (let run = 1; run <= RUNS; run += 1) {
      const { gateway } = await startOnNewDatabase();
      try {
        const answers: Awaited<ReturnType<typeof submitOne>>[] = [];
        let loading = true;
        const worker = async () => {
          while (loading) answers.push(await submitOne(gateway.url).catch(() => ({ status: 0 }) as never));
        };
        const workers = Array.from({ length: 8 }, worker);
        await sleep(1_000);
        const restarting = postgres.restart(1_000);
        // While the database is away, the instance says it is not ready (a balancer routes around it).
        await sleep(500);
        const readiness = await fetch(`${gateway.url}/readyz`);
        expect(readiness.status).toBe(503);
        expect(await readiness.json()).toMatchObject({ database: { kind: "postgresql", writable: false } });
        await restarting;
        await sleep(2_000);
        loading = false;
        await Promise.all(workers);

        expect(alive(gateway)).toBe(true);
        const unexpected = answers.filter((answer) => answer.status !== 202 && answer.status !== 503);
        expect(unexpected).toEqual([]);
        const refused = answers.filter((answer) => answer.status === 503);
        // The outage was met, and each refusal says so and when to come back.
        expect(refused.length).toBeGreaterThan(0);
        for (const answer of refused) {
          expect(answer.code).toBe("503-02");
          expect(answer.retryAfter).toMatch(/^[1-9]\d*$/);
        }
        expect(await readyAgain(gateway.url)).toBe(true);
        // Nothing answered 202 was lost.
        const accepted = answers.filter((answer) => answer.status === 202);
        for (const { id } of accepted) {
          const information = await fetch(`${gateway.url}/v0/applications/${id}/information`, {
            headers: { authorization: basic(DEMO) },
          });
          expect(information.status, `application ${id}`).toBe(200);
        }
        expect((await submitOne(gateway.url)).status).toBe(202);
        figures.push(`run ${run}: ${accepted.length} × 202, ${refused.length} × 503-02, alive`);
      } finally {
        await gateway.stop();
      }
    }
    console.log(`restart under load:\n${figures.join("\n")}`);
  });
});
