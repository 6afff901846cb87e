// A data directory written by an older gateway opens in a newer one: the migrations it lacks run at start and keep
// every record. Here, a file at schema version 5 (status inside each notification's row) with NEW and acknowledged
// notifications opens at version 6 (status in notification_status) with each status and instant where it was.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "../src/storage/sqlite/driver.js";
import { migrations } from "../src/storage/sqlite/migrations.js";
import { openSqliteStorage } from "../src/storage/sqlite/sqlite-storage.js";
import { expectAcknowledgedAlone, expectEveryStatus, written } from "./support/migrated-notifications.js";

const dataDir = mkdtempSync(join(tmpdir(), "lrg-migrations-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The NEW notification of unit-a acknowledged after the migration, at 5,000. */
const fresh = written.find((n) => n.status === "NEW" && n.unit === "unit-a")!;

/** A database file in `dir` at schema `version`, as a gateway of that version left it; open, for the test's rows. */
function fileAtVersion(dir: string, version: number): ReturnType<typeof openSqlite> {
  const db = openSqlite(join(dir, "gateway.sqlite"));
  db.exec(
    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)",
  );
  for (const migration of migrations.filter((m) => m.version <= version)) {
    db.exec(migration.sql);
    db.prepare("INSERT INTO schema_migrations VALUES (?, ?, 0)").run(migration.version, migration.name);
  }
  return db;
}

function writeVersion5File(): void {
  const db = fileAtVersion(dataDir, 5);
  for (const unit of ["unit-a", "unit-b"])
    db.prepare("INSERT INTO business_units (id, name, created_ms) VALUES (?, ?, 0)").run(unit, unit);
  const insert = db.prepare(
    `INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, status, acknowledged_ms, additional_provider_filter)
     VALUES (?, ?, 'app', 'APPLICATION_COMPLETED', NULL, '{}', NULL, 'schema', NULL, ?, ?, ?, ?, NULL)`,
  );
  for (const n of written)
    insert.run(n.id, n.unit, n.createdMs, n.createdMs, n.status, n.status === "ACKNOWLEDGED" ? n.createdMs + 7 : null);
  db.close();
}

describe("SQLite migrations", () => {
  it("opens a version-5 file at the latest version with every notification's status and acknowledgement instant", async () => {
    writeVersion5File();
    const storage = openSqliteStorage(dataDir);
    try {
      await expectEveryStatus(storage);
      // Acknowledging after the migration moves a NEW notification, and only it.
      await expectAcknowledgedAlone(storage, fresh, [fresh.id, "n-00", "unknown"], [fresh.id, "n-00"], 5_000);
    } finally {
      await storage.close();
    }
    const db = openSqlite(join(dataDir, "gateway.sqlite"), { readonly: true });
    try {
      expect(db.prepare("SELECT MAX(version) FROM schema_migrations").pluck().get()).toBe(
        Math.max(...migrations.map((m) => m.version)),
      );
      expect(
        db
          .prepare("SELECT seq, acknowledged_ms FROM notification_status WHERE status = 'ACKNOWLEDGED' ORDER BY seq")
          .raw()
          .all(),
      ).toEqual(
        written.flatMap((n, index) => {
          const seq = index + 1;
          if (n.status === "ACKNOWLEDGED") return [[seq, n.createdMs + 7]];
          return n === fresh ? [[seq, 5_000]] : [];
        }),
      );
      expect(
        db
          .prepare(
            "SELECT COUNT(*) FROM pragma_table_info('notifications') WHERE name IN ('status', 'acknowledged_ms')",
          )
          .pluck()
          .get(),
      ).toBe(0);
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      db.close();
    }
  });
});
