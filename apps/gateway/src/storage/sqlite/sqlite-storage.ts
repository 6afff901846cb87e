import { mkdirSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import type { StoreLifecycle } from "../ports/lifecycle.js";
import { PART_LEDGER, stepsToApply } from "../part-ledger.js";
import type { Storage } from "../storage.js";
import { withPartPorts, type PortsOfParts, type StorePart } from "../store-part.js";
import { sqliteApplications } from "./applications.js";
import { sqliteAudit } from "./audit.js";
import { sqliteBusinessUnits } from "./business-units.js";
import { Checkpointer } from "./checkpointer.js";
import type { SqliteConnection } from "./connection.js";
import { sqliteDocuments } from "./documents.js";
import { openSqlite, statementsOf, type SqliteDatabase } from "./driver.js";
import { migrations } from "./migrations.js";
import { sqliteNotifications } from "./notifications.js";
import { sqliteSettings } from "./settings.js";
import { sqliteTitleEnquiries } from "./title-enquiries.js";
import { SqliteWriter } from "./writer.js";

/** SQLite's own checkpoint threshold (its default), used again if the checkpointing thread fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * The writing connection's page cache, at most, unless told otherwise (SQLite's default is 2 MiB; it grows as pages
 * are read). The writer alone writes the file, so its cache stays valid from one transaction to the next: SQLite drops
 * a connection's whole cache only when another connection has committed. Acknowledging 100 ids on the benchmark's
 * 1,000,000 notifications walks two indexes of 173 MiB there. Bursts of 2 s on 32 fresh connections (bursts after
 * the first): with 2 MiB, 442–553/s at p99 87–146 ms; with 64 MiB, 508–762/s at p99 63–87 ms; with 256 MiB,
 * 584–819/s at p99 63–80 ms. 64 MiB takes most of the gain for a quarter of the memory.
 */
const DEFAULT_CACHE_MIB = 64;

/**
 * The free space below which the embedded store reports that it cannot write (`canWrite`, so `/readyz` answers 503):
 * room for a checkpoint of a busy WAL and a few uploads' temporary files is gone well before the disk is empty.
 */
export const MIN_FREE_BYTES = 4 * 1024 * 1024;

/** How long `canWrite` waits for the heartbeat after a failed write before it answers that the store cannot write. */
const HEARTBEAT_WAIT_MS = 1_000;

/** What the store is told beside its directory. */
export interface SqliteStorageOptions<Parts extends readonly StorePart<object>[]> {
  /** The writing connection's page cache, at most, in MiB (default 64). */
  cacheMib?: number;
  /** The store parts whose tables and ports the store keeps beside its own (see `StorePart`). */
  parts?: Parts;
}

/** The embedded store, with what its tests ask of the file beside the ports. */
export interface SqliteStorage extends Storage {
  /** The schema versions applied to this database. */
  appliedMigrations(): number[];
  /** `PRAGMA integrity_check`, for the crash-recovery tests. */
  integrityCheck(): string;
}

/**
 * The embedded store: one SQLite file in the data directory, in WAL mode with foreign keys on. Reads run here, on the
 * gateway's event loop, each on the latest commit; writes run on the writer thread (see SqliteWriter), which owns the
 * writing connection and its group commit. A write is answered only once its commit is on disk, so that a confirmed
 * change survives a crash of the process or the machine. For the milliseconds of a flush, other requests may read a
 * change that is committed but not yet on disk (and not yet confirmed to its writer); a crash of the machine (not of
 * the process) in that window undoes it. Each port has its module (`./<port>.ts`) on the one `SqliteConnection`; this
 * one opens the file and composes them with the store's lifecycle.
 */
export function openSqliteStorage<const Parts extends readonly StorePart<object>[] = []>(
  dataDir: string,
  options: SqliteStorageOptions<Parts> = {},
): SqliteStorage & PortsOfParts<Parts> {
  const parts: readonly StorePart<object>[] = options.parts ?? [];
  const cacheMib = options.cacheMib ?? DEFAULT_CACHE_MIB;
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, "gateway.sqlite");
  const db = openSqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  db.pragma("busy_timeout = 5000");
  // No memory map (mmap_size stays 0). Alone on the file, one made acknowledging 100 ids cheaper (1.0–1.05 ms of
  // CPU against 1.30–1.43 on the benchmark's 1,000,000 notifications), but SQLite drops the whole map whenever
  // another connection commits, and faulting it back in cost more than it saved: after one foreign write, 16,000
  // page faults per 2-s burst instead of 3,000, acknowledge p99 142–239 ms against 82–95 without a map.
  migrate(db, parts);
  const notificationListeners: ((businessUnitId: string | null) => void)[] = [];
  // Started once the schema is there: the writer thread reads it as it starts.
  const writer = new SqliteWriter(
    {
      file,
      cacheKib: cacheMib * 1024,
      partWrites: parts.map((part) => part.sqlite.writes.href),
      partTables: parts.flatMap((part) => part.tables),
    },
    (units) => {
      for (const unit of units) for (const listener of notificationListeners) listener(unit);
    },
  );
  const checkpointer = new Checkpointer(file, () => writer.checkpointEvery(SQLITE_AUTOCHECKPOINT_PAGES));
  // Prepared statements by their SQL: the list query's text depends on which filters are given.
  const connection: SqliteConnection = { read: statementsOf(db), writer };
  const own: SqliteStorage = {
    ...sqliteBusinessUnits(connection),
    ...sqliteSettings(connection),
    ...sqliteApplications(connection),
    ...sqliteNotifications(connection, notificationListeners),
    ...sqliteDocuments(connection),
    ...sqliteTitleEnquiries(connection),
    ...sqliteAudit(connection),
    ...sqliteLifecycle({ db, connection, checkpointer, cacheMib, dataDir }),
    appliedMigrations: () =>
      db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all() as number[],
    integrityCheck: () => String(db.pragma("integrity_check", { simple: true })),
  };
  const partConnection = { read: connection.read, write: writer.runPartWrite.bind(writer) };
  return withPartPorts(own, options.parts, (part) => part.sqlite.open(partConnection));
}

/**
 * Applies the store's migrations not yet applied, then each part's (see `stepsToApply`), in one transaction: a start
 * cut short leaves the schema as it was, and never a store's step moved to a part applied without the part's.
 */
function migrate(db: SqliteDatabase, parts: readonly StorePart<object>[]): void {
  db.transaction(() => {
    db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)",
    );
    db.exec(PART_LEDGER);
    const before = new Map(db.prepare("SELECT version, name FROM schema_migrations").raw().all() as [number, string][]);
    const note = db.prepare("INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)");
    for (const migration of migrations.filter((m) => !before.has(m.version))) {
      db.exec(migration.sql);
      note.run(migration.version, migration.name, Date.now());
    }
    const noteOfPart = db.prepare("INSERT INTO part_migrations (part, version, name, applied_ms) VALUES (?, ?, ?, ?)");
    for (const part of parts) {
      const applied = new Set(
        db.prepare("SELECT version FROM part_migrations WHERE part = ?").pluck().all(part.name) as number[],
      );
      const mine = part.migrations.filter((migration) => migration.only !== "postgresql");
      for (const { migration, action } of stepsToApply(mine, applied, before)) {
        if (action === "run") db.exec(migration.sql);
        noteOfPart.run(part.name, migration.version, migration.name, Date.now());
      }
    }
  })();
}

/** The embedded store's own life: one process owns the file, so there is no one else to hear, wait for or lock out. */
function sqliteLifecycle(store: {
  db: SqliteDatabase;
  connection: SqliteConnection;
  checkpointer: Checkpointer;
  cacheMib: number;
  dataDir: string;
}): StoreLifecycle {
  const { db, checkpointer, cacheMib, dataDir } = store;
  const { read, writer } = store.connection;
  return {
    async reset() {
      return writer.run("reset");
    },

    /** One process owns an SQLite file: nothing else changes the state behind its back. */
    onStateChanged(_listener) {},

    /** One process owns an SQLite file: there is nothing to wait for. */
    async sync() {},

    /** One process owns an SQLite file: its jobs need no lock. */
    async exclusively(_job, work) {
      await work();
      return true;
    },

    describe() {
      return {
        database: "sqlite",
        figures: [
          {
            name: "pending_writes",
            help: "Writes sent to the writer thread and not yet answered.",
            type: "gauge",
            value: writer.pending,
          },
          {
            name: "group_commits_total",
            help: "Transactions of the group commit, each holding the writes that were waiting for it.",
            type: "counter",
            value: writer.groupCommits,
          },
          {
            name: "page_cache_limit_bytes",
            help: "Most bytes of the file's pages the writing connection keeps in memory (LRG_SQLITE_CACHE_MIB).",
            type: "gauge",
            value: cacheMib * 1024 * 1024,
          },
          {
            name: "wal_flushes_total",
            help: "Flushes of the WAL to disk that writes waited for (one per group commit, or fewer under load).",
            type: "counter",
            value: writer.walFlushes,
          },
        ],
      };
    },

    /** The file answers a read, and the writer thread is there to write. */
    async ping() {
      return writer.running && read("SELECT 1").pluck().get() === 1;
    },

    /**
     * The writer thread runs, the data directory's disk has MIN_FREE_BYTES left (in WAL mode a small update may still
     * fit in the log's space on a full disk, while the next insert needs new pages), and writes succeed: after a write
     * failed for the store's sake, the heartbeat row must be written again (within HEARTBEAT_WAIT_MS). A write merely
     * waiting for the file's lock is no failure: no heartbeat is queued behind it then.
     */
    async canWrite() {
      if (!writer.running) return false;
      try {
        const disk = await statfs(dataDir);
        if (disk.bavail * disk.bsize < MIN_FREE_BYTES) return false;
        if (!writer.failing) return true;
        const beat = writer.run("beat", Date.now()).then(
          () => true,
          () => false,
        );
        return await Promise.race([beat, sleep(HEARTBEAT_WAIT_MS).then(() => false)]);
      } catch {
        return false;
      }
    },

    async close() {
      await writer.close();
      await checkpointer.close();
      // The last connection to close checkpoints what is left.
      if (db.open) db.close();
    },
  };
}
