import { createHash } from "node:crypto";
import pg from "pg";
import { isTransientConflict } from "../errors.js";
import type { Row } from "../rows.js";
import type { StoreFigures } from "../storage.js";
import { CHANNEL, dedupe, type ChangeChannel, type ChangeMessage } from "./change-channel.js";
import { PART_LEDGER, stepsToApply, type PartSchema } from "../part-ledger.js";
import { postgresMigrations, postgresStepsOf } from "./migrations.js";

/** Advisory lock key of the schema migrations. */
const MIGRATION_LOCK = 0x4c52_4700;

/**
 * How many times a statement or a transaction is tried when PostgreSQL aborts it only for meeting another one (a
 * deadlock it broke, a serialization failure): the client gets an answer, not a 500, for a conflict it did not cause.
 */
const CONFLICT_ATTEMPTS = 3;

/**
 * One instance's way to the PostgreSQL database that every port of the store (`postgres/*.ts`) queries: node-postgres'
 * pool, named prepared statements, transactions that announce their changes, and the figures of its queries.
 */
export class PostgresDatabase {
  readonly pool: pg.Pool;
  /** How this instance hears the others' committed changes and tells them its own. */
  readonly changes: ChangeChannel;
  #queries = 0;
  #queryErrors = 0;
  /** Connections the database ended or that broke while this instance held them, for /metrics. */
  #lostConnections = 0;
  /** Statements and transactions run again after a transient conflict (see CONFLICT_ATTEMPTS), for /metrics. */
  #conflictRetries = 0;
  /** Prepared statements' names by their text (see query). */
  readonly #statementNames = new Map<string, string>();

  constructor(pool: pg.Pool, changes: ChangeChannel) {
    this.pool = pool;
    // Nor one lost while checked out (a transaction, a job's lock): the pool listens to its idle connections only,
    // and node-postgres emits the loss as an 'error' event whether or not a query is running. The query running, if
    // any, fails with it; the connection is no longer queryable, so its release drops it from the pool.
    pool.on("connect", (client) => client.on("error", () => void (this.#lostConnections += 1)));
    this.changes = changes;
  }

  /**
   * Applies the migrations not yet applied, then each store part's (see `stepsToApply`), one instance at a time and
   * in one transaction: instances starting together migrate once, and a start cut short leaves the schema as it was.
   */
  async migrate(parts: readonly PartSchema[]): Promise<void> {
    await this.transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
      );
      await client.query(PART_LEDGER);
      const before = new Map(
        (await client.query<{ version: number; name: string }>("SELECT version, name FROM schema_migrations")).rows.map(
          (row) => [row.version, row.name],
        ),
      );
      for (const migration of postgresMigrations.filter((m) => !before.has(m.version))) {
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          Date.now(),
        ]);
      }
      for (const part of parts) {
        const { rows } = await client.query<{ version: number }>(
          "SELECT version FROM part_migrations WHERE part = $1",
          [part.name],
        );
        const applied = new Set(rows.map((row) => row.version));
        for (const { migration, action } of stepsToApply(postgresStepsOf(part), applied, before)) {
          if (action === "run") await client.query(migration.sql);
          await client.query("INSERT INTO part_migrations (part, version, name, applied_ms) VALUES ($1, $2, $3, $4)", [
            part.name,
            migration.version,
            migration.name,
            Date.now(),
          ]);
        }
      }
    });
  }

  /**
   * Every statement is a named prepared statement (its name from its text): each pooled connection parses and plans
   * it once, not on every call (0.4 ms of planning alone for the acknowledgement's statement). The texts are few: the
   * variable parts of a query are its parameters (lists of ids as one array).
   */
  async query<R extends pg.QueryResultRow = Row>(
    sql: string,
    values: unknown[] = [],
    client?: pg.PoolClient,
  ): Promise<pg.QueryResult<R>> {
    const once = async () => {
      this.#queries += 1;
      try {
        return await (client ?? this.pool).query<R>({ name: this.#statementName(sql), text: sql, values });
      } catch (error) {
        this.#queryErrors += 1;
        throw error;
      }
    };
    // A statement of its own (no client: autocommit) is run again after a transient conflict; one within a
    // transaction is not, as the whole transaction was aborted (see transaction).
    return client === undefined ? this.#againAfterConflict(once) : once();
  }

  /** A statement of its own whose rows come as arrays of their columns (no object per row), counted but never retried. */
  async queryArrays<R extends unknown[]>(text: string, values: unknown[]): Promise<R[]> {
    this.#queries += 1;
    const result = await this.pool.query<unknown[]>({
      name: this.#statementName(text),
      text,
      values,
      rowMode: "array",
    });
    return result.rows as R[];
  }

  /** Runs `work` again when PostgreSQL aborted it only for meeting another one, up to CONFLICT_ATTEMPTS in all. */
  async #againAfterConflict<T>(work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await work();
      } catch (error) {
        if (attempt >= CONFLICT_ATTEMPTS || !isTransientConflict(error)) throw error;
        this.#conflictRetries += 1;
      }
    }
  }

  #statementName(sql: string): string {
    let name = this.#statementNames.get(sql);
    if (name === undefined) {
      name = `lrg_${createHash("sha256").update(sql).digest("base64url").slice(0, 20)}`;
      this.#statementNames.set(sql, name);
    }
    return name;
  }

  /**
   * Runs `work` in one transaction; the changes it reports are announced to this instance's listeners once it is
   * committed (before the caller hears of it) and to the other instances by NOTIFY, which PostgreSQL delivers at commit.
   */
  async transaction<T>(work: (client: pg.PoolClient, changed: ChangeMessage[]) => Promise<T>): Promise<T> {
    return this.#againAfterConflict(() => this.#transactionOnce(work));
  }

  /** One attempt of transaction: rolled back whole on any error. */
  async #transactionOnce<T>(work: (client: pg.PoolClient, changed: ChangeMessage[]) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const changed: ChangeMessage[] = [];
    try {
      await client.query("BEGIN");
      const result = await work(client, changed);
      const messages = dedupe(changed);
      for (const message of messages)
        await this.query("SELECT pg_notify($1, $2)", [CHANNEL, this.changes.payload(message)], client);
      await client.query("COMMIT");
      // This instance's own state is changed in memory already; only what it derived from notifications is dropped.
      for (const message of messages) if (message.kind === "notifications") this.changes.announce(message);
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The pool's and the queries' figures, for /metrics. */
  figures(): StoreFigures["figures"] {
    const pool = this.pool;
    return [
      { name: "pool_connections", help: "Connections the pool holds.", type: "gauge", value: pool.totalCount },
      {
        name: "pool_idle_connections",
        help: "Connections of the pool waiting for work.",
        type: "gauge",
        value: pool.idleCount,
      },
      {
        name: "pool_waiting_requests",
        help: "Queries waiting for a connection of the pool.",
        type: "gauge",
        value: pool.waitingCount,
      },
      { name: "queries_total", help: "Queries sent to PostgreSQL.", type: "counter", value: this.#queries },
      {
        name: "query_errors_total",
        help: "Queries PostgreSQL refused or that failed.",
        type: "counter",
        value: this.#queryErrors,
      },
      {
        name: "lost_connections_total",
        help: "Connections the database ended or that broke while this instance held them (restarts, failovers).",
        type: "counter",
        value: this.#lostConnections,
      },
      {
        name: "conflict_retries_total",
        help: "Statements and transactions run again after PostgreSQL aborted them for meeting another (a deadlock, a serialization failure).",
        type: "counter",
        value: this.#conflictRetries,
      },
    ];
  }
}

/** The row of `table` with this id, if any; of that business unit alone when one is named (a request's scope). */
export async function rowById(
  db: PostgresDatabase,
  table: "applications" | "documents",
  id: string,
  businessUnitId: string | undefined,
): Promise<Row | undefined> {
  const { rows } =
    businessUnitId === undefined
      ? await db.query(`SELECT * FROM ${table} WHERE id = $1`, [id])
      : await db.query(`SELECT * FROM ${table} WHERE id = $1 AND business_unit_id = $2`, [id, businessUnitId]);
  return rows[0];
}
