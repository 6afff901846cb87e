#!/usr/bin/env node
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { openSqlite, type SqliteDatabase } from "./storage/sqlite/driver.js";
import pg from "pg";
import { STATUS_OF_NOTIFICATION } from "./storage/sqlite/migrations.js";
import { openPostgresStorage } from "./storage/postgres/postgres-storage.js";
import { openSqliteStorage } from "./storage/sqlite/sqlite-storage.js";

/** Tables in the order their references allow, with the columns both stores share. */
const TABLES = [
  "business_units",
  "users",
  "applications",
  "idempotency_keys",
  "notifications",
  "correspondence",
  "documents",
  "registry_documents",
  "settings",
  "official_searches",
  "attachments",
  "audit_entries",
] as const;
/** Rows read from SQLite and sent to PostgreSQL at a time. */
const CHUNK = 20_000;

/**
 * The NEW notifications, which PostgreSQL keeps in a table of their own (new_notifications, migration 1004) and SQLite
 * beside the notifications (notification_status, migration 6, found by its key), in rowid order from `?` on.
 */
const NEW_NOTIFICATIONS = `SELECT n.rowid, n.seq, n.business_unit_id, n.created_ms
  FROM notifications n JOIN notification_status s ON ${STATUS_OF_NOTIFICATION}
  WHERE s.status = 'NEW' AND n.rowid > ? ORDER BY n.rowid LIMIT ${CHUNK}`;

/** The rows a query selects, in chunks: it reads the rowid first, then the columns, from the rowid `?` on. */
function* pagesOf(source: SqliteDatabase, query: string): Generator<unknown[][]> {
  const page = source.prepare(query).raw();
  for (let after = Number.MIN_SAFE_INTEGER; ;) {
    const rows = page.all(after) as unknown[][];
    if (rows.length === 0) return;
    after = Number(rows.at(-1)?.[0]);
    yield rows.map((row) => row.slice(1));
  }
}

/** A table's rows in chunks, in rowid order (a table without rowids, small, comes whole). */
function* chunksOf(source: SqliteDatabase, table: (typeof TABLES)[number], columns: string[]): Generator<unknown[][]> {
  const select = columns.join(", ");
  const definition = String(source.prepare("SELECT sql FROM sqlite_master WHERE name = ?").pluck().get(table));
  if (/WITHOUT ROWID/i.test(definition)) {
    const all = source.prepare(`SELECT ${select} FROM ${table}`).raw().all() as unknown[][];
    if (all.length > 0) yield all;
    return;
  }
  yield* pagesOf(source, `SELECT rowid, ${select} FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${CHUNK}`);
}

/** The column names and types of a PostgreSQL table. */
async function columnTypes(target: pg.Client, table: string): Promise<Map<string, string>> {
  const { rows } = await target.query<{ column_name: string; udt_name: string }>(
    "SELECT column_name, udt_name FROM information_schema.columns WHERE table_name = $1",
    [table],
  );
  return new Map(rows.map((row) => [row.column_name, row.udt_name]));
}

/**
 * Inserts the chunks into a table: each column travels as one array parameter and unnest() turns the arrays back into
 * rows, so one statement and one round trip per chunk, whatever the number of columns (a million notifications take
 * seconds). Answers the rows inserted.
 */
async function insertChunks(
  target: pg.Client,
  table: string,
  columns: string[],
  types: Map<string, string>,
  chunks: Iterable<unknown[][]>,
): Promise<number> {
  const insert = `INSERT INTO ${table} (${columns.join(", ")}) SELECT * FROM unnest(${columns
    .map((column, index) => `$${index + 1}::${types.get(column)}[]`)
    .join(", ")})`;
  let inserted = 0;
  for (const chunk of chunks) {
    await target.query(
      insert,
      columns.map((_, column) => chunk.map((row) => row[column])),
    );
    inserted += chunk.length;
  }
  return inserted;
}

/**
 * Copies every row of an embedded gateway's SQLite file (`dataDir`/gateway.sqlite, migrated first) into an empty
 * PostgreSQL database (migrated first), in one transaction: either all of it arrives or nothing does. The secondary
 * indexes are dropped for the copy and built again at its end, in the same transaction. Blobs are
 * files: point `LRG_BLOB_DIR` of the new instances at `dataDir`/blobs, or copy that directory (to a shared one, or
 * into the bucket of `LRG_BLOB_URL`, paths kept). Answers the rows copied per table.
 */
export async function copyToPostgres(dataDir: string, databaseUrl: string): Promise<Record<string, number>> {
  const file = join(dataDir, "gateway.sqlite");
  if (!existsSync(file)) throw new Error(`no gateway.sqlite in ${dataDir}`);
  // Opening the store brings an older file up to the current schema before it is read.
  await openSqliteStorage(dataDir).close();
  await (await openPostgresStorage(databaseUrl)).close();

  const source = openSqlite(file, { readonly: true });
  const target = new pg.Client({ connectionString: databaseUrl });
  await target.connect();
  const copied: Record<string, number> = {};
  try {
    await target.query("BEGIN");
    const { rows } = await target.query<{ count: string }>("SELECT COUNT(*) AS count FROM business_units");
    if (Number(rows[0]?.count) > 0)
      throw new Error("the PostgreSQL database already holds business units: copy into an empty one");
    // Secondary indexes (those behind no key or constraint) are built once after the rows are in, not entry by entry.
    const { rows: secondary } = await target.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = ANY($1)
         AND indexname NOT IN (SELECT conname FROM pg_constraint WHERE contype IN ('p', 'u', 'x'))`,
      [[...TABLES, "new_notifications"]],
    );
    for (const { indexname } of secondary) await target.query(`DROP INDEX ${indexname}`);
    for (const table of TABLES) {
      const types = await columnTypes(target, table);
      const columns = (
        source.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[]
      ).filter((name) => types.has(name));
      copied[table] = await insertChunks(target, table, columns, types, chunksOf(source, table, columns));
    }
    const newColumns = ["seq", "business_unit_id", "created_ms"];
    copied["new_notifications"] = await insertChunks(
      target,
      "new_notifications",
      newColumns,
      await columnTypes(target, "new_notifications"),
      pagesOf(source, NEW_NOTIFICATIONS),
    );
    for (const { indexdef } of secondary) await target.query(indexdef);
    // The serial keys and the notification clock go on from the copied rows.
    await target.query(
      "SELECT setval(pg_get_serial_sequence('notifications', 'seq'), GREATEST((SELECT MAX(seq) FROM notifications), 1))",
    );
    await target.query(
      "SELECT setval(pg_get_serial_sequence('attachments', 'id'), GREATEST((SELECT MAX(id) FROM attachments), 1))",
    );
    await target.query(
      "SELECT setval(pg_get_serial_sequence('audit_entries', 'seq'), GREATEST((SELECT MAX(seq) FROM audit_entries), 1))",
    );
    await target.query(
      `INSERT INTO notification_unit_clock (business_unit_id, last_ms)
         SELECT business_unit_id, MAX(created_ms) FROM notifications GROUP BY business_unit_id
       ON CONFLICT (business_unit_id) DO UPDATE SET last_ms = GREATEST(notification_unit_clock.last_ms, EXCLUDED.last_ms)`,
    );
    await target.query("COMMIT");
    // The planner's statistics and the visibility map of the copied tables now, not when autovacuum next gets round
    // to them (in the middle of the first hour's traffic).
    await target.query("VACUUM (ANALYZE)");
  } catch (error) {
    await target.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    source.close();
    await target.end();
  }
  return copied;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { "data-dir": { type: "string" }, "database-url": { type: "string" } } });
  const dataDir = values["data-dir"] ?? process.env["LRG_DATA_DIR"] ?? "./.data";
  const databaseUrl = values["database-url"] ?? process.env["LRG_DATABASE_URL"];
  if (!databaseUrl) {
    process.stderr.write(
      "usage: lrg-gateway-copy-to-postgres --data-dir DIR --database-url postgres://... (or LRG_DATA_DIR, LRG_DATABASE_URL)\n",
    );
    process.exit(2);
  }
  const copied = await copyToPostgres(dataDir, databaseUrl);
  for (const [table, count] of Object.entries(copied)) process.stdout.write(`${table}: ${count}\n`);
}

/** The command `lrg-gateway-copy-to-postgres` (its launcher in bin/ runs it, as does `node dist/copy-to-postgres.js`). */
export async function runCopyToPostgres(): Promise<void> {
  await main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) void runCopyToPostgres();
