// A PostgreSQL database written by an older gateway opens in a newer one: the migrations it lacks run at start and
// keep every status. Here, a database at version 1003 (status inside each notification's row, the NEW ones also in
// new_notifications) with NEW and acknowledged notifications opens at version 1004 (a notification is NEW while it has
// its row in new_notifications) with each status where it was.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresMigrations } from "../src/storage/postgres/migrations.js";
import { openPostgresStorage } from "../src/storage/postgres/postgres-storage.js";
import { startPostgres, type TestPostgres } from "../src/testing/postgres.js";
import { expectAcknowledgedAlone, expectEveryStatus, written } from "./support/migrated-notifications.js";

let server: TestPostgres;
beforeAll(async () => {
  server = await startPostgres();
});
afterAll(async () => {
  await server.stop();
});

/** A NEW notification of unit-a whose row in new_notifications an older copy left out: migration 1004 adds it. */
const missing = written.find((n) => n.status === "NEW" && n.unit === "unit-a")!;

/** A NEW notification of unit-b acknowledged after the migration. */
const fresh = written.find((n) => n.status === "NEW" && n.unit === "unit-b")!;

async function writeVersion1003Database(databaseUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
    );
    // What a database written at version 1003 holds: SQLite's migrations up to 7, then PostgreSQL's up to 1003.
    for (const migration of postgresMigrations.filter(
      (m) => m.version <= 7 || (m.version > 1000 && m.version <= 1003),
    )) {
      await client.query(migration.sql);
      await client.query("INSERT INTO schema_migrations VALUES ($1, $2, 0)", [migration.version, migration.name]);
    }
    for (const unit of ["unit-a", "unit-b"])
      await client.query("INSERT INTO business_units (id, name, created_ms) VALUES ($1, $1, 0)", [unit]);
    for (const n of written) {
      await client.query(
        `INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, status, acknowledged_ms, additional_provider_filter)
         VALUES ($1, $2, 'app', 'APPLICATION_COMPLETED', NULL, '{}', NULL, 'schema', NULL, $3, $3, $4, $5, NULL)`,
        [n.id, n.unit, n.createdMs, n.status, n.status === "ACKNOWLEDGED" ? n.createdMs + 7 : null],
      );
    }
    await client.query(
      `INSERT INTO new_notifications (seq, business_unit_id, created_ms)
         SELECT seq, business_unit_id, created_ms FROM notifications WHERE status = 'NEW' AND id <> $1`,
      [missing.id],
    );
  } finally {
    await client.end();
  }
}

describe("PostgreSQL migrations", () => {
  it("opens a version-1003 database at the latest version with every notification's status", async () => {
    const databaseUrl = await server.createDatabase();
    await writeVersion1003Database(databaseUrl);
    const storage = await openPostgresStorage(databaseUrl);
    try {
      await expectEveryStatus(storage);
      // Acknowledging after the migration moves a NEW notification, and only it; an acknowledged one stays so.
      await expectAcknowledgedAlone(storage, fresh, [fresh.id, "n-03", "n-00", "unknown"], [fresh.id, "n-03"], 5_000);
    } finally {
      await storage.close();
    }
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      expect((await client.query("SELECT MAX(version) AS v FROM schema_migrations")).rows[0].v).toBe(
        Math.max(...postgresMigrations.map((m) => m.version)),
      );
      const { rows } = await client.query(
        "SELECT column_name FROM information_schema.columns WHERE table_name = 'notifications' AND column_name IN ('status', 'acknowledged_ms')",
      );
      expect(rows).toEqual([]);
      // Every migration applied, those numbered below the ones it had (8, written later) included.
      expect(
        (await client.query("SELECT version FROM schema_migrations ORDER BY version")).rows.map((r) => r.version),
      ).toEqual(postgresMigrations.map((m) => m.version).sort((a, b) => a - b));
      const index = await client.query(
        "SELECT indexdef FROM pg_indexes WHERE indexname = 'applications_completed_early'",
      );
      expect(index.rows[0]?.indexdef).toMatch(/WHERE .*status = 'COMPLETED'.*early_completion = 1/);
    } finally {
      await client.end();
    }
  });
});
