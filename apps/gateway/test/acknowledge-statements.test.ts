// LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: how many acknowledgement statements one instance runs on PostgreSQL at once.
// A whole number is taken and shown on /metrics (2 when unset; config.test.ts: anything else stops the start).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";
import { basic, DEMO } from "./support/gateway.js";
import { startGatewayProcess } from "./support/process.js";

const root = mkdtempSync(join(tmpdir(), "lrg-ack-statements-"));
let postgres: TestPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => {
  await postgres?.stop();
  rmSync(root, { recursive: true, force: true });
});

const figure = (metrics: string, name: string): number =>
  Number(new RegExp(`^lrg_db_${name}\\{database="postgresql"\\} (\\d+)$`, "m").exec(metrics)?.[1]);

describe("LRG_DATABASE_ACKNOWLEDGE_STATEMENTS", () => {
  it("bounds the acknowledgement statements at once, shown on /metrics (2 when unset)", async () => {
    const databaseUrl = await postgres.createDatabase();
    const told = await startGatewayProcess(join(root, "told"), {
      LRG_DATABASE_URL: databaseUrl,
      LRG_DATABASE_ACKNOWLEDGE_STATEMENTS: "3",
      LRG_BLOB_DIR: join(root, "blobs"),
    });
    try {
      // Twenty acknowledgements at once: each answered, in fewer statements than requests or as many, never more.
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          fetch(`${told.url}/v1/notifications/acknowledge`, {
            method: "POST",
            headers: { authorization: basic(DEMO), "content-type": "application/json" },
            body: JSON.stringify({ data: [crypto.randomUUID()] }),
          }),
        ),
      );
      expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
      const metrics = await (await fetch(`${told.url}/metrics`)).text();
      expect(figure(metrics, "acknowledge_statements_limit")).toBe(3);
      expect(figure(metrics, "acknowledge_statements_running")).toBe(0);
      expect(figure(metrics, "acknowledge_statements_total")).toBeGreaterThanOrEqual(1);
      expect(figure(metrics, "acknowledge_statements_total")).toBeLessThanOrEqual(20);
    } finally {
      await told.stop();
    }
    const unset = await startGatewayProcess(join(root, "unset"), {
      LRG_DATABASE_URL: databaseUrl,
      LRG_BLOB_DIR: join(root, "blobs"),
    });
    try {
      expect(figure(await (await fetch(`${unset.url}/metrics`)).text(), "acknowledge_statements_limit")).toBe(2);
    } finally {
      await unset.stop();
    }
  });
});
