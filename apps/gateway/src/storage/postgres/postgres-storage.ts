import pg from "pg";
import type { StoreLifecycle } from "../ports/lifecycle.js";
import type { Storage } from "../storage.js";
import { withPartPorts, type PortsOfParts, type StorePart } from "../store-part.js";
import { postgresApplications } from "./applications.js";
import { postgresAudit } from "./audit.js";
import { postgresBusinessUnits } from "./business-units.js";
import { ChangeChannel } from "./change-channel.js";
import { PostgresDatabase } from "./database.js";
import { CONNECT_TIMEOUT_MS, DEFAULT_ACKNOWLEDGE_STATEMENTS, DEFAULT_POOL_SIZE } from "./defaults.js";
import { postgresDocuments } from "./documents.js";
import {
  acknowledgementFigures,
  acknowledgementsOf,
  postgresNotifications,
  type Acknowledgements,
} from "./notifications.js";
import { postgresSettings } from "./settings.js";
import { postgresTitleEnquiries } from "./title-enquiries.js";

/** Advisory lock keys of the background jobs (see `exclusively`). */
const JOB_LOCKS: Record<string, number> = { processing: 0x4c52_4701, retention: 0x4c52_4702 };

/** BIGINT columns hold milliseconds, well inside a double's exact range: read them as numbers, not strings. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** The heartbeat write of `canWrite`: one row, updated in place. */
const HEARTBEAT =
  "INSERT INTO store_heartbeat (id, beat_ms) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET beat_ms = excluded.beat_ms";

/**
 * The store for many gateway instances on one PostgreSQL database (`LRG_DATABASE_URL`), through node-postgres'
 * pool. Every multi-row change is one transaction; each commit that touches notifications or the sandbox state is
 * announced with NOTIFY, so every instance drops what it derived from them. Each port has its module (`./<port>.ts`)
 * on the one `PostgresDatabase`; this one composes them with the store's lifecycle.
 *
 * Connects, starts hearing the other instances' changes, and applies the migrations not yet applied. At most
 * `poolSize` connections (default 10); at most `acknowledgeStatements` acknowledgement statements at once (default
 * 2, see `StatementGroups`).
 */
export async function openPostgresStorage<const Parts extends readonly StorePart<object>[] = []>(
  url: string,
  options: { poolSize?: number; acknowledgeStatements?: number; parts?: Parts } = {},
): Promise<Storage & PortsOfParts<Parts>> {
  const parts: readonly StorePart<object>[] = options.parts ?? [];
  const partTables = parts.flatMap((part) => part.tables);
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    types,
    idleTimeoutMillis: 30_000,
    // A database that does not answer at all fails a request (503-02) rather than holding it without end.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // A connection lost while idle in the pool (a database restart) must not end the process; the next query
  // connects again.
  pool.on("error", () => undefined);
  const db = new PostgresDatabase(pool, await ChangeChannel.open(url));
  const acknowledgements = acknowledgementsOf(db, options.acknowledgeStatements ?? DEFAULT_ACKNOWLEDGE_STATEMENTS);
  const lifecycle = postgresLifecycle(db, acknowledgements, partTables);
  try {
    await db.migrate(parts);
  } catch (error) {
    await lifecycle.close();
    throw error;
  }
  const own: Storage = {
    ...postgresBusinessUnits(db, partTables),
    ...postgresSettings(db),
    ...postgresApplications(db),
    ...postgresNotifications(db, acknowledgements),
    ...postgresDocuments(db),
    ...postgresTitleEnquiries(db),
    ...postgresAudit(db),
    ...lifecycle,
  };
  return withPartPorts(own, options.parts, (part) => part.postgres.open(db));
}

/** The PostgreSQL store's own life: the other instances' changes, job locks, health, figures, reset and close. */
function postgresLifecycle(
  db: PostgresDatabase,
  acknowledgements: Acknowledgements,
  partTables: readonly string[],
): StoreLifecycle {
  let closed = false;
  return {
    async reset() {
      await db.transaction(async (client, changed) => {
        changed.push({ kind: "notifications", businessUnitId: null }, { kind: "state" });
        // The store parts' tables with the store's own.
        const tables = [
          ...partTables,
          "attachments, official_searches, new_notifications, notifications, notification_unit_clock, correspondence, idempotency_keys, registry_documents, documents, applications, users, business_units, settings",
        ];
        await db.query(`TRUNCATE ${tables.join(", ")}`, [], client);
      });
    },

    onStateChanged(listener) {
      db.changes.onStateChanged(listener);
    },

    /** Waits until every change that any instance committed before this call has been heard and applied here. */
    sync() {
      return db.changes.sync();
    },

    /**
     * Runs a background job on one instance at a time: the instance that holds the job's session-level advisory lock
     * runs it, the others skip this round. With the conditional updates of each decision, every decision is made once.
     */
    async exclusively(job, work) {
      const key = JOB_LOCKS[job];
      if (key === undefined) throw new Error(`no lock for background job ${job}`);
      const client = await db.pool.connect();
      try {
        const { rows } = await db.query<{ locked: boolean }>(
          "SELECT pg_try_advisory_lock($1) AS locked",
          [key],
          client,
        );
        if (!rows[0]?.locked) return false;
        try {
          await work();
        } finally {
          await db.query("SELECT pg_advisory_unlock($1)", [key], client);
        }
        return true;
      } finally {
        client.release();
      }
    },

    describe() {
      return {
        database: "postgresql",
        figures: [...db.figures(), ...acknowledgementFigures(acknowledgements), ...db.changes.figures()],
      };
    },

    async ping() {
      try {
        return (await db.query<{ one: number }>("SELECT 1 AS one")).rows[0]?.one === 1;
      } catch {
        return false;
      }
    },

    async canWrite() {
      try {
        await db.query(HEARTBEAT, [Date.now()]);
        return true;
      } catch {
        return false;
      }
    },

    async close() {
      if (closed) return;
      closed = true;
      await db.changes.close();
      await db.pool.end();
    },
  };
}
