import { movedToAPart, type PartMigration, type PartSchema } from "../part-ledger.js";
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

/** A store part's steps for PostgreSQL: translated as the store's own, but those given in PostgreSQL's words. */
export function postgresStepsOf(part: PartSchema): PartMigration[] {
  return part.migrations
    .filter((migration) => migration.only !== "sqlite")
    .map((migration) =>
      migration.only === "postgresql" ? migration : { ...migration, sql: translate(migration.sql) },
    );
}

/**
 * The PostgreSQL schema: every SQLite migration translated (same versions) but those only SQLite needs, then what only
 * many instances need (versions from 1001); the store parts' steps follow in their own ledger. Applied at start in one
 * transaction under an advisory lock, so that instances starting together migrate once. Never edit a migration that
 * has shipped: add the next one.
 */
export const postgresMigrations: { version: number; name: string; sql: string }[] = [
  ...sqliteMigrations
    .filter((migration) => !migration.sqliteOnly)
    .map(({ version, name, sql }) => ({ version, name, sql: translate(sql) })),
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
  {
    version: 1003,
    name: "the NEW notifications in a table of their own, so that acknowledging rewrites no index (HOT updates)",
    // An index on status makes every acknowledgement write a new entry into each of the table's five indexes
    // (7 ms of PostgreSQL's CPU per 100 ids, measured). With status in no index and room left on each page, the
    // update stays on its page (heap-only); the unit's NEW notifications are found through new_notifications,
    // from which acknowledging deletes (a deletion writes no index entry).
    sql: `
      CREATE TABLE new_notifications (
        seq BIGINT PRIMARY KEY REFERENCES notifications(seq) ON DELETE CASCADE,
        business_unit_id TEXT NOT NULL,
        created_ms BIGINT NOT NULL
      );
      INSERT INTO new_notifications (seq, business_unit_id, created_ms)
        SELECT seq, business_unit_id, created_ms FROM notifications WHERE status = 'NEW';
      CREATE INDEX new_notifications_by_unit ON new_notifications(business_unit_id, created_ms, seq);
      DROP INDEX notifications_by_unit;
      ALTER TABLE notifications SET (fillfactor = 80);
    `,
  },
  {
    version: 1004,
    name: "a notification is NEW while it has its row in new_notifications: acknowledging only deletes that row",
    // The heap-only update of status beside the deletion cost one more index descent and row version per id:
    // acknowledging 100 ids took 3.9–4.6 ms of statement time with it, 2.5–2.6 ms without (150 serial
    // acknowledgements each, the benchmark's 1,000,000 notifications). No answer shows the instant of an
    // acknowledgement; PostgreSQL no longer keeps it (the audit trail keeps each acknowledge request's instant and its
    // first ids; SQLite keeps it in notification_status). The rows no longer change once written: new pages are filled.
    sql: `
      INSERT INTO new_notifications (seq, business_unit_id, created_ms)
        SELECT seq, business_unit_id, created_ms FROM notifications WHERE status = 'NEW' ON CONFLICT (seq) DO NOTHING;
      ALTER TABLE notifications DROP COLUMN status, DROP COLUMN acknowledged_ms;
      ALTER TABLE notifications SET (fillfactor = 100);
    `,
  },
  movedToAPart(1005),
];
