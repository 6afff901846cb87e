import { migrations as sqliteMigrations } from "../sqlite/migrations.js";

/**
 * SQLite's DDL in PostgreSQL's words: 64-bit integers (instants are milliseconds), serial keys, no `WITHOUT ROWID`.
 * Translating the one list keeps the two schemas the same table for table; booleans stay 0/1 as in SQLite.
 */
function translate(sql: string): string {
  return sql
    .replace(/INTEGER PRIMARY KEY AUTOINCREMENT/g, "BIGSERIAL PRIMARY KEY")
    .replace(/\bINTEGER\b/g, "BIGINT")
    .replace(/\)\s*WITHOUT ROWID;/g, ");");
}

/**
 * The PostgreSQL schema: every SQLite migration translated (same versions), then what only many instances need
 * (versions from 1001). Applied at start in one transaction under an advisory lock, so that instances starting
 * together migrate once. Never edit a migration that has shipped: add the next one.
 */
export const postgresMigrations: { version: number; name: string; sql: string }[] = [
  ...sqliteMigrations.map((migration) => ({ ...migration, sql: translate(migration.sql) })),
  {
    version: 1001,
    name: "the notification clock row (creation instants in commit order across instances); correspondence order",
    sql: `
      CREATE TABLE notification_clock (
        id BIGINT PRIMARY KEY CHECK (id = 1),
        last_ms BIGINT NOT NULL
      );
      INSERT INTO notification_clock (id, last_ms) SELECT 1, COALESCE(MAX(created_ms), 0) FROM notifications;
      ALTER TABLE correspondence ADD COLUMN seq BIGSERIAL;
      CREATE INDEX notifications_by_unit_created ON notifications(business_unit_id, created_ms, seq);
    `,
  },
  {
    version: 1002,
    name: "a notification clock row per business unit (each unit may run on its own sandbox clock)",
    sql: `
      CREATE TABLE notification_unit_clock (
        business_unit_id TEXT PRIMARY KEY,
        last_ms BIGINT NOT NULL
      );
      INSERT INTO notification_unit_clock (business_unit_id, last_ms)
        SELECT business_unit_id, MAX(created_ms) FROM notifications GROUP BY business_unit_id;
    `,
  },
];
