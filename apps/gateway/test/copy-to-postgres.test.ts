import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openPostgresStorage } from "../src/storage/postgres/postgres-storage.js";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";
import { idempotencyKey, startGateway, submission } from "./support/gateway.js";

const command = fileURLToPath(new URL("../dist/copy-to-postgres.js", import.meta.url));
let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server.stop();
});

/** Every index of the database's tables, as `CREATE INDEX` statements. */
async function indexesOf(databaseUrl: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() ORDER BY indexname",
    );
    return rows.map((row) => row.indexdef);
  } finally {
    await client.end();
  }
}

describe("moving an embedded gateway's data to PostgreSQL", () => {
  it("copies every row with `lrg-gateway-copy-to-postgres`; a gateway on PostgreSQL then answers as the embedded one did", async () => {
    const embedded = await startGateway();
    const dataDir = embedded.dataDir;
    await embedded.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual", duplicate_rate: 0 });
    const unit = await embedded.newBusinessUnit();
    const key = idempotencyKey();
    const submitted = await embedded.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    const id = (submitted.body as { data: { application_request_id: string } }).data.application_request_id;
    await embedded.sandbox("POST", `/sandbox/v1/applications/${id}/transitions`, { to: "ACCEPTED_PRIORITY_PROTECTED" });
    const listed = (
      (await embedded.call("GET", "/v1/notifications", { as: unit })).body as { data: { notification_id: string }[] }
    ).data;
    await embedded.call("POST", "/v1/notifications/acknowledge", {
      as: unit,
      body: { data: [listed[0]!.notification_id] },
    });
    const before = {
      information: (await embedded.call("GET", `/v0/applications/${id}/information`, { as: unit })).body,
      all: (await embedded.call("GET", "/v0/notifications", { as: unit })).body,
    };
    await embedded.gateway.app.close();

    const databaseUrl = await server.createDatabase();
    const copy = spawnSync(process.execPath, [command, "--data-dir", dataDir, "--database-url", databaseUrl], {
      encoding: "utf8",
    });
    expect(copy.stderr).toBe("");
    expect(copy.status).toBe(0);
    expect(copy.stdout).toMatch(/^notifications: [1-9]\d*$/m);
    expect(copy.stdout).toMatch(/^business_units: [1-9]\d*$/m);

    const again = spawnSync(process.execPath, [command, "--data-dir", dataDir, "--database-url", databaseUrl], {
      encoding: "utf8",
    });
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/already holds business units/);
    // The indexes it dropped for the copy are all back, as a freshly migrated database has them.
    const fresh = await server.createDatabase();
    await (await openPostgresStorage(fresh)).close();
    expect(await indexesOf(databaseUrl)).toEqual(await indexesOf(fresh));

    const shared = await startGateway({ databaseUrl });
    try {
      expect((await shared.call("GET", `/v0/applications/${id}/information`, { as: unit })).body).toEqual(
        before.information,
      );
      // Payload schema addresses name the gateway that answers; everything else is the same.
      const all = JSON.stringify((await shared.call("GET", "/v0/notifications", { as: unit })).body).replaceAll(
        shared.url,
        embedded.url,
      );
      expect(JSON.parse(all)).toEqual(before.all);
      const replay = await shared.call("POST", "/v0/applications", {
        as: unit,
        body: submission(),
        headers: { "idempotency-key": key },
      });
      expect(replay.body).toEqual(submitted.body);
      expect(((await shared.sandbox("GET", "/sandbox/v1/settings")).body as { processing: string }).processing).toBe(
        "manual",
      );
    } finally {
      await shared.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
