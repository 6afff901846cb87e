import { createHash } from "node:crypto";
import pg from "pg";
import {
  auditRetention,
  auditWhere,
  json,
  parse,
  toApplication,
  toBusinessUnit,
  toUnitSandboxState,
  UNIT_RECORD_TABLES,
  APPLICATION_COLUMNS,
  applicationInsert,
  toAttachment,
  toAuditEntry,
  toCorrespondence,
  toDocument,
  toOfficialSearch,
  toPrioritySearch,
  toRegistryDocument,
  type Row,
  earlyCompleted,
  READINESS_OBSERVATION_COLUMNS,
  READINESS_RUN_COLUMNS,
  readinessObservationValues,
  readinessRunValues,
  toReadinessObservation,
  toReadinessRun,
  claimStep,
  idempotencyKeySelect,
} from "../rows.js";
import type {
  ReadinessObservationRow,
  ReadinessRunEnd,
  ReadinessRunRow,
  ReadinessStimulusRows,
  AuditEntryRow,
  AuditQuery,
  AttachmentRow,
  ApplicationChange,
  ApplicationRow,
  BusinessUnitRow,
  CorrespondenceRow,
  DocumentRow,
  IdempotencyClaim,
  NotificationListing,
  NotificationQuery,
  NotificationRow,
  OfficialSearchRow,
  PrioritySearch,
  RegistryDocumentRow,
  Storage,
  StoreFigures,
  SubmitOutcome,
  UserRow,
  DueReading,
  PurgeScope,
  UnitSandboxState,
} from "../storage.js";
import { postgresMigrations } from "./migrations.js";
import { CONNECT_TIMEOUT_MS, DEFAULT_ACKNOWLEDGE_STATEMENTS, DEFAULT_POOL_SIZE } from "./defaults.js";
import { StatementGroups } from "./statement-groups.js";
import { isTransientConflict } from "../errors.js";
import { ChangeChannel, CHANNEL, dedupe, type ChangeMessage } from "./change-channel.js";

/** Advisory lock keys: schema migrations, and the first of the background jobs' (see `exclusively`). */
const MIGRATION_LOCK = 0x4c52_4700;
const JOB_LOCKS: Record<string, number> = { processing: 0x4c52_4701, retention: 0x4c52_4702 };

/** BIGINT columns hold milliseconds, well inside a double's exact range: read them as numbers, not strings. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** One request's acknowledgement: its unit, and the ids it names (each once). */
interface Acknowledgement {
  businessUnitId: string;
  ids: string[];
}

/**
 * How many times a statement or a transaction is tried when PostgreSQL aborts it only for meeting another one (a
 * deadlock it broke, a serialization failure): the client gets an answer, not a 500, for a conflict it did not cause.
 */
const CONFLICT_ATTEMPTS = 3;

/** The heartbeat write of `canWrite`: one row, updated in place. */
const HEARTBEAT =
  "INSERT INTO store_heartbeat (id, beat_ms) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET beat_ms = excluded.beat_ms";

/**
 * The store for many gateway instances on one PostgreSQL database (`LRG_DATABASE_URL`), through node-postgres'
 * pool. Every multi-row change is one transaction; each commit that touches notifications or the sandbox state is
 * announced with NOTIFY, so every instance drops what it derived from them.
 */
export class PostgresStorage implements Storage {
  readonly #pool: pg.Pool;
  /** How this instance hears the others' committed changes and tells them its own. */
  readonly #changes: ChangeChannel;
  #queries = 0;
  #queryErrors = 0;
  /** Connections the database ended or that broke while this instance held them, for /metrics. */
  #lostConnections = 0;
  /** Statements and transactions run again after a transient conflict (see CONFLICT_ATTEMPTS), for /metrics. */
  #conflictRetries = 0;
  /** Prepared statements' names by their text (see #query). */
  readonly #statementNames = new Map<string, string>();
  #closed = false;
  /** Acknowledges each group of jobs in one statement, a bounded number at once (see `StatementGroups`). */
  readonly #acknowledgements: StatementGroups<Acknowledgement, string[]>;

  private constructor(pool: pg.Pool, changes: ChangeChannel, acknowledgeStatements: number) {
    this.#pool = pool;
    // Nor one lost while checked out (a transaction, a job's lock): the pool listens to its idle connections only,
    // and node-postgres emits the loss as an 'error' event whether or not a query is running. The query running, if
    // any, fails with it; the connection is no longer queryable, so its release drops it from the pool.
    pool.on("connect", (client) => client.on("error", () => void (this.#lostConnections += 1)));
    this.#changes = changes;
    this.#acknowledgements = new StatementGroups((jobs) => this.#acknowledgeTogether(jobs), {
      inFlight: acknowledgeStatements,
    });
  }

  /**
   * Connects, starts hearing the other instances' changes, and applies the migrations not yet applied. At most
   * `poolSize` connections (default 10); at most `acknowledgeStatements` acknowledgement statements at once (default
   * 2, see `StatementGroups`).
   */
  static async open(
    url: string,
    options: { poolSize?: number; acknowledgeStatements?: number } = {},
  ): Promise<PostgresStorage> {
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
    const storage = new PostgresStorage(
      pool,
      await ChangeChannel.open(url),
      options.acknowledgeStatements ?? DEFAULT_ACKNOWLEDGE_STATEMENTS,
    );
    try {
      await storage.#migrate();
    } catch (error) {
      await storage.close();
      throw error;
    }
    return storage;
  }

  async #migrate(): Promise<void> {
    await this.#transaction(async (client) => {
      await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
      await client.query(
        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms BIGINT NOT NULL)",
      );
      const applied = new Set(
        (await client.query<{ version: number }>("SELECT version FROM schema_migrations")).rows.map(
          (row) => row.version,
        ),
      );
      for (const migration of postgresMigrations.filter((m) => !applied.has(m.version))) {
        await client.query(migration.sql);
        await client.query("INSERT INTO schema_migrations (version, name, applied_ms) VALUES ($1, $2, $3)", [
          migration.version,
          migration.name,
          Date.now(),
        ]);
      }
    });
  }

  /** Waits until every change that any instance committed before this call has been heard and applied here. */
  sync(): Promise<void> {
    return this.#changes.sync();
  }

  /**
   * Every statement is a named prepared statement (its name from its text): each pooled connection parses and plans
   * it once, not on every call (0.4 ms of planning alone for the acknowledgement's statement). The texts are few: the
   * variable parts of a query are its parameters (lists of ids as one array).
   */
  async #query<R extends pg.QueryResultRow = Row>(
    sql: string,
    values: unknown[] = [],
    client?: pg.PoolClient,
  ): Promise<pg.QueryResult<R>> {
    const once = async () => {
      this.#queries += 1;
      try {
        return await (client ?? this.#pool).query<R>({ name: this.#statementName(sql), text: sql, values });
      } catch (error) {
        this.#queryErrors += 1;
        throw error;
      }
    };
    // A statement of its own (no client: autocommit) is run again after a transient conflict; one within a
    // transaction is not, as the whole transaction was aborted (see #transaction).
    return client === undefined ? this.#againAfterConflict(once) : once();
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
  async #transaction<T>(work: (client: pg.PoolClient, changed: ChangeMessage[]) => Promise<T>): Promise<T> {
    return this.#againAfterConflict(() => this.#transactionOnce(work));
  }

  /** One attempt of #transaction: rolled back whole on any error. */
  async #transactionOnce<T>(work: (client: pg.PoolClient, changed: ChangeMessage[]) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    const changed: ChangeMessage[] = [];
    try {
      await client.query("BEGIN");
      const result = await work(client, changed);
      const messages = dedupe(changed);
      for (const message of messages)
        await this.#query("SELECT pg_notify($1, $2)", [CHANNEL, this.#changes.payload(message)], client);
      await client.query("COMMIT");
      // This instance's own state is changed in memory already; only what it derived from notifications is dropped.
      for (const message of messages) if (message.kind === "notifications") this.#changes.announce(message);
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async createBusinessUnit(unit: BusinessUnitRow, user: UserRow): Promise<void> {
    await this.#transaction(async (client) => {
      await this.#query(
        "INSERT INTO business_units (id, name, created_ms, token_hash) VALUES ($1, $2, $3, $4)",
        [unit.id, unit.name, unit.createdMs, unit.tokenHash ?? null],
        client,
      );
      await this.#query(
        "INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES ($1, $2, $3, $4)",
        [user.username, user.businessUnitId, user.passwordHash, user.createdMs],
        client,
      );
    });
  }

  async findBusinessUnit(id: string): Promise<BusinessUnitRow | undefined> {
    const row = (await this.#query("SELECT id, name, created_ms, token_hash FROM business_units WHERE id = $1", [id]))
      .rows[0];
    return row && toBusinessUnit(row);
  }

  async findBusinessUnitByTokenHash(tokenHash: string): Promise<BusinessUnitRow | undefined> {
    const row = (
      await this.#query("SELECT id, name, created_ms, token_hash FROM business_units WHERE token_hash = $1", [
        tokenHash,
      ])
    ).rows[0];
    return row && toBusinessUnit(row);
  }

  async setTokenHash(businessUnitId: string, tokenHash: string): Promise<boolean> {
    // Tokens are looked up in the store on every request: no instance holds the old one to forget.
    const updated = await this.#query("UPDATE business_units SET token_hash = $1 WHERE id = $2", [
      tokenHash,
      businessUnitId,
    ]);
    return updated.rowCount === 1;
  }

  async unitSandboxStates(): Promise<UnitSandboxState[]> {
    const { rows } = await this.#query(
      "SELECT id, clock_offset_ms, settings FROM business_units WHERE clock_offset_ms IS NOT NULL OR settings IS NOT NULL",
    );
    return rows.map(toUnitSandboxState);
  }

  async putUnitSandboxState(state: UnitSandboxState): Promise<void> {
    await this.#transaction(async (client, changed) => {
      changed.push({ kind: "state" });
      await this.#query(
        "UPDATE business_units SET clock_offset_ms = $1, settings = $2 WHERE id = $3",
        [state.clockOffsetMs, state.settings === null ? null : json(state.settings), state.businessUnitId],
        client,
      );
    });
  }

  async resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): Promise<void> {
    await this.#transaction(async (client, changed) => {
      changed.push({ kind: "notifications", businessUnitId }, { kind: "state" });
      await this.#query(
        "DELETE FROM correspondence WHERE application_id IN (SELECT id FROM applications WHERE business_unit_id = $1)",
        [businessUnitId],
        client,
      );
      for (const table of UNIT_RECORD_TABLES) {
        await this.#query(`DELETE FROM ${table} WHERE business_unit_id = $1`, [businessUnitId], client);
      }
      for (const pattern of settingKeysLike)
        await this.#query("DELETE FROM settings WHERE key LIKE $1", [pattern], client);
      await this.#query(
        "UPDATE business_units SET clock_offset_ms = NULL, settings = NULL WHERE id = $1",
        [businessUnitId],
        client,
      );
    });
  }

  async findUser(username: string): Promise<UserRow | undefined> {
    const row = (await this.#query("SELECT * FROM users WHERE username = $1", [username])).rows[0];
    return (
      row && {
        username: String(row["username"]),
        businessUnitId: String(row["business_unit_id"]),
        passwordHash: String(row["password_hash"]),
        createdMs: Number(row["created_ms"]),
      }
    );
  }

  async setPasswordHash(username: string, passwordHash: string): Promise<void> {
    await this.#transaction(async (client, changed) => {
      // Other instances drop the credentials they remember, so that the old password stops working there too.
      changed.push({ kind: "state" });
      await this.#query("UPDATE users SET password_hash = $1 WHERE username = $2", [passwordHash, username], client);
    });
  }

  async submitApplication(application: ApplicationRow, claim: IdempotencyClaim): Promise<SubmitOutcome> {
    return this.#transaction(async (client): Promise<SubmitOutcome> => {
      // Two instances given the same key at once: the second waits on the first's key row lock, then sees it.
      await this.#query(
        "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))",
        [application.businessUnitId, claim.key],
        client,
      );
      const seen = (
        await this.#query(
          idempotencyKeySelect((index) => `$${index}`),
          [application.businessUnitId, claim.key],
          client,
        )
      ).rows[0];
      const step = claimStep(seen, claim);
      if ("answer" in step) return step.answer;
      if (step.replacing)
        await this.#query(
          "DELETE FROM idempotency_keys WHERE business_unit_id = $1 AND key = $2",
          [application.businessUnitId, claim.key],
          client,
        );
      const insert = applicationInsert(application, (index) => `$${index}`);
      await this.#query(insert.sql, insert.values, client);
      await this.#query(
        "INSERT INTO idempotency_keys (business_unit_id, key, request_hash, application_id) VALUES ($1, $2, $3, $4)",
        [application.businessUnitId, claim.key, claim.requestHash, application.id],
        client,
      );
      return { kind: "created", applicationId: application.id };
    });
  }

  async findApplication(id: string, businessUnitId?: string): Promise<ApplicationRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? await this.#query("SELECT * FROM applications WHERE id = $1", [id])
        : await this.#query("SELECT * FROM applications WHERE id = $1 AND business_unit_id = $2", [id, businessUnitId])
    ).rows[0];
    return row && toApplication(row);
  }

  async applicationsDue(reading: DueReading, limit: number): Promise<ApplicationRow[]> {
    // Each application is compared with its own unit's clock and processing (the unit's, else the global ones).
    const { rows } = await this.#query(
      `SELECT a.* FROM applications a JOIN business_units b ON b.id = a.business_unit_id
       WHERE a.status = 'VALIDATING' AND a.decide_at_ms IS NOT NULL
         AND a.decide_at_ms <= $1::bigint + COALESCE(b.clock_offset_ms, $2::bigint)
         AND COALESCE(b.settings::json ->> 'processing', $3) = 'automatic'
       ORDER BY a.decide_at_ms LIMIT $4`,
      [reading.realMs, reading.globalOffsetMs, reading.processing, limit],
    );
    return rows.map(toApplication);
  }

  async applicationsWithStatus(status: string): Promise<ApplicationRow[]> {
    return (await this.#query("SELECT * FROM applications WHERE status = $1 ORDER BY created_ms", [status])).rows.map(
      toApplication,
    );
  }

  async countApplications(status: string, businessUnitId?: string): Promise<number> {
    const { rows } =
      businessUnitId === undefined
        ? await this.#query<{ count: string }>("SELECT count(*) FROM applications WHERE status = $1", [status])
        : await this.#query<{ count: string }>(
            "SELECT count(*) FROM applications WHERE status = $1 AND business_unit_id = $2",
            [status, businessUnitId],
          );
    return Number(rows[0]?.count ?? 0);
  }

  async earlyCompletedApplications(businessUnitId: string): Promise<ApplicationRow[]> {
    return (await this.#query(earlyCompleted("$1"), [businessUnitId])).rows.map(toApplication);
  }

  async changeApplication(change: ApplicationChange): Promise<boolean> {
    const entries = Object.entries(change.patch) as [keyof ApplicationChange["patch"], unknown][];
    const values: unknown[] = [change.applicationId, change.fromStatus, change.updatedMs];
    const assignments = entries.map(([key, value]) => {
      values.push(
        key === "errors" || key === "warnings" ? json(value) : key === "earlyCompletion" ? (value ? 1 : 0) : value,
      );
      return `${APPLICATION_COLUMNS[key]} = $${values.length}`;
    });
    return this.#transaction(async (client, changed) => {
      const updated = await this.#query(
        `UPDATE applications SET ${[...assignments, "updated_ms = $3"].join(", ")} WHERE id = $1 AND status = $2`,
        values,
        client,
      );
      if (updated.rowCount !== 1) return false;
      if (change.correspondence) await this.#insertCorrespondence(client, change.correspondence);
      await this.#insertNotifications(client, change.notifications, changed);
      return true;
    });
  }

  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void {
    this.#changes.onNotificationsChanged(listener);
  }

  onStateChanged(listener: () => Promise<void>): void {
    this.#changes.onStateChanged(listener);
  }

  /**
   * Inserts notifications with creation instants that increase, per business unit, in commit order across every
   * instance: the unit's clock row is locked until this transaction commits, so the unit's next writer reads the
   * instant this one took (per unit, because each unit may run on its own sandbox clock, and so that units do not
   * wait for each other). A sandbox clock moved backwards (more than a second) restarts the sequence, as in SQLite.
   */
  async #insertNotifications(
    client: pg.PoolClient,
    notifications: NotificationRow[],
    changed: ChangeMessage[],
  ): Promise<void> {
    for (const notification of notifications) {
      changed.push({ kind: "notifications", businessUnitId: notification.businessUnitId });
      const { rows } = await this.#query<{ last_ms: number }>(
        `INSERT INTO notification_unit_clock AS clock (business_unit_id, last_ms) VALUES ($2, $1::bigint)
         ON CONFLICT (business_unit_id) DO UPDATE SET last_ms = CASE
           WHEN $1::bigint > clock.last_ms - 1000 THEN GREATEST($1::bigint, clock.last_ms + 1) ELSE $1::bigint END
         RETURNING last_ms`,
        [notification.createdMs, notification.businessUnitId],
        client,
      );
      await this.#query(
        `WITH inserted AS (
           INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, additional_provider_filter)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
           RETURNING seq, business_unit_id, created_ms
         )
         INSERT INTO new_notifications (seq, business_unit_id, created_ms)
           SELECT seq, business_unit_id, created_ms FROM inserted WHERE $13 = 'NEW'`,
        [
          notification.id,
          notification.businessUnitId,
          notification.applicationId,
          notification.v1Type,
          notification.v0Type,
          json(notification.v1Payload),
          notification.v0Payload === null ? null : json(notification.v0Payload),
          notification.v1Schema,
          notification.v0Schema,
          notification.eventMs,
          rows[0]?.last_ms ?? notification.createdMs,
          notification.additionalProviderFilter,
          notification.status,
        ],
        client,
      );
    }
  }

  async correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]> {
    return (
      await this.#query("SELECT * FROM correspondence WHERE application_id = $1 ORDER BY created_ms, seq", [
        applicationId,
      ])
    ).rows.map(toCorrespondence);
  }

  async listNotifications(query: NotificationQuery): Promise<NotificationListing[]> {
    // A notification is NEW while it has its row in new_notifications (migration 1004). NEW ones are found through
    // new_notifications (its index orders them by creation); the rest through notifications_by_unit_created, each
    // one's row in new_notifications looked up by its key.
    const fromNew = query.status === "NEW";
    const key = fromNew ? "q." : "n.";
    const values: unknown[] = [query.businessUnitId];
    const where = [`${key}business_unit_id = $1`];
    const add = (condition: (placeholder: string) => string, value: unknown): void => {
      values.push(value);
      where.push(condition(`$${values.length}`));
    };
    if (query.status === "ACKNOWLEDGED") where.push("q.seq IS NULL");
    if (query.version === "v0") where.push("v0_type IS NOT NULL");
    if (query.createdAfterMs !== undefined) add((p) => `${key}created_ms > ${p}`, query.createdAfterMs);
    if (query.createdBeforeMs !== undefined) add((p) => `${key}created_ms < ${p}`, query.createdBeforeMs);
    if (query.occurredAfterMs !== undefined) add((p) => `event_ms > ${p}`, query.occurredAfterMs);
    if (query.occurredBeforeMs !== undefined) add((p) => `event_ms < ${p}`, query.occurredBeforeMs);
    if (query.notificationType !== undefined)
      add((p) => `${query.version === "v0" ? "v0_type" : "v1_type"} = ${p}`, query.notificationType);
    if (query.subject !== undefined) add((p) => `application_id = ${p}`, query.subject);
    if (query.additionalProviderFilter === null) where.push("additional_provider_filter IS NULL");
    else add((p) => `additional_provider_filter = ${p}`, query.additionalProviderFilter);
    values.push(query.limit);
    const v = query.version;
    this.#queries += 1;
    const text = `SELECT n.id, n.application_id, n.${v}_type, n.${v}_schema, n.${v}_payload, n.event_ms, n.created_ms,
          CASE WHEN q.seq IS NULL THEN 'ACKNOWLEDGED' ELSE 'NEW' END, n.additional_provider_filter
        FROM ${fromNew ? "new_notifications q JOIN notifications n ON n.seq = q.seq" : "notifications n LEFT JOIN new_notifications q ON q.seq = n.seq"}
        WHERE ${where.join(" AND ")} ORDER BY ${key}created_ms, ${key}seq LIMIT $${values.length}`;
    const result = await this.#pool.query<unknown[]>({
      name: this.#statementName(text),
      text,
      values,
      rowMode: "array",
    });
    return (
      result.rows as [
        string,
        string,
        string,
        string,
        string,
        number,
        number,
        NotificationListing["status"],
        string | null,
      ][]
    ).map(([id, applicationId, type, schema, payloadJson, eventMs, createdMs, status, additionalProviderFilter]) => ({
      id,
      applicationId,
      type,
      schema,
      payloadJson,
      eventMs,
      createdMs,
      status,
      additionalProviderFilter,
    }));
  }

  async acknowledgeNotifications(businessUnitId: string, ids: string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return [];
    return this.#acknowledgements.submit({ businessUnitId, ids: unique });
  }

  /**
   * One statement for a group of acknowledgements, so one round trip and one commit (autocommit): the ids that exist
   * among each unit's own, looked up once (`found`, in the statement's snapshot); their removal from
   * new_notifications, which is the acknowledgement (migration 1004; the row locks decide which of two concurrent
   * acknowledgements of an id removes it); and one announcement per unit whose notifications changed (NOTIFY,
   * delivered at commit: acknowledging again drops no instance's cache).
   *
   * The removal takes its rows by one index scan over the array of sequence numbers, which the index walks in
   * ascending order: every acknowledgement statement, of any instance, locks the rows it shares with another in the
   * same order, so two cannot deadlock. (With `seq IN (SELECT ...)` the rows came in the order of a hash table sized
   * by each statement's own ids, which two statements of different sizes need not share; the index scan is also the
   * cheaper: 0.27 ms against 0.47 for 100 ids on the benchmark's data set.)
   */
  async #acknowledgeTogether(jobs: Acknowledgement[]): Promise<string[][]> {
    const units = jobs.flatMap((job) => job.ids.map(() => job.businessUnitId));
    const ids = jobs.flatMap((job) => job.ids);
    // A row per id found, then a row per unit announced (its id null).
    const { rows } = await this.#query<{ business_unit_id: string; id: string | null }>(
      `WITH asked AS (
         SELECT * FROM unnest($1::text[], $2::text[]) AS a(business_unit_id, id)
       ), found AS MATERIALIZED (
         SELECT n.seq, n.id, n.business_unit_id FROM asked a
           JOIN notifications n ON n.id = a.id AND n.business_unit_id = a.business_unit_id
       ), acknowledged AS (
         DELETE FROM new_notifications WHERE seq = ANY (ARRAY(SELECT seq FROM found)) RETURNING business_unit_id
       ), announced AS (
         SELECT u.business_unit_id,
           pg_notify($3, json_build_object('kind', 'notifications', 'businessUnitId', u.business_unit_id, 'from', $4::text)::text)
         FROM (SELECT DISTINCT business_unit_id FROM acknowledged) u
       )
       SELECT business_unit_id, id FROM found
       UNION ALL SELECT business_unit_id, NULL FROM announced`,
      [units, ids, CHANNEL, this.#changes.instance],
    );
    const found = new Set<string>();
    for (const row of rows) {
      if (row.id === null) this.#changes.announce({ kind: "notifications", businessUnitId: row.business_unit_id });
      else found.add(`${row.business_unit_id}\n${row.id}`);
    }
    return jobs.map((job) => job.ids.filter((id) => found.has(`${job.businessUnitId}\n${id}`)));
  }

  async purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): Promise<number> {
    return this.#transaction(async (client, changed) => {
      const purge =
        scope === undefined
          ? this.#query("DELETE FROM notifications WHERE created_ms < $1", [createdBeforeMs], client)
          : scope === "units-on-the-global-clock"
            ? this.#query(
                "DELETE FROM notifications WHERE created_ms < $1 AND business_unit_id NOT IN (SELECT id FROM business_units WHERE clock_offset_ms IS NOT NULL)",
                [createdBeforeMs],
                client,
              )
            : this.#query(
                "DELETE FROM notifications WHERE created_ms < $1 AND business_unit_id = $2",
                [createdBeforeMs, scope.businessUnitId],
                client,
              );
      const deleted = (await purge).rowCount ?? 0;
      if (deleted > 0) changed.push({ kind: "notifications", businessUnitId: null });
      return deleted;
    });
  }

  async insertDocument(document: DocumentRow): Promise<void> {
    await this.#query(
      `INSERT INTO documents (id, business_unit_id, document_type, file_length, file_sha256, status, failure_reason, created_ms, expires_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        document.id,
        document.businessUnitId,
        document.documentType,
        document.fileLength,
        document.fileSha256,
        document.status,
        document.failureReason,
        document.createdMs,
        document.expiresMs,
      ],
    );
  }

  async completeUpload(id: string, _nowMs: number): Promise<boolean> {
    return (
      (await this.#query("UPDATE documents SET status = 'UPLOADED' WHERE id = $1 AND status = 'AWAITING_UPLOAD'", [id]))
        .rowCount === 1
    );
  }

  async recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): Promise<void> {
    await this.#query("UPDATE documents SET status = $1, failure_reason = $2 WHERE id = $3 AND status = 'UPLOADED'", [
      status,
      failureReason,
      id,
    ]);
  }

  async documentsAwaitingCheck(): Promise<DocumentRow[]> {
    return (await this.#query("SELECT * FROM documents WHERE status = 'UPLOADED'")).rows.map(toDocument);
  }

  async findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? await this.#query("SELECT * FROM documents WHERE id = $1", [id])
        : await this.#query("SELECT * FROM documents WHERE id = $1 AND business_unit_id = $2", [id, businessUnitId])
    ).rows[0];
    return row && toDocument(row);
  }

  async putRegistryDocument(document: RegistryDocumentRow): Promise<void> {
    await this.#insertRegistryDocument(document);
  }

  async #insertRegistryDocument(document: RegistryDocumentRow, client?: pg.PoolClient): Promise<void> {
    await this.#query(
      `INSERT INTO registry_documents (download_id, business_unit_id, application_id, code, name, content_type, size, created_ms)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`,
      [
        document.downloadId,
        document.businessUnitId,
        document.applicationId,
        document.code,
        document.name,
        document.contentType,
        document.size,
        document.createdMs,
      ],
      client,
    );
  }

  async #insertCorrespondence(client: pg.PoolClient, record: CorrespondenceRow): Promise<void> {
    await this.#query(
      "INSERT INTO correspondence (record_id, application_id, documents, created_ms) VALUES ($1, $2, $3, $4)",
      [record.recordId, record.applicationId, json(record.documents), record.createdMs],
      client,
    );
  }

  async findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined> {
    const row = (await this.#query("SELECT * FROM registry_documents WHERE download_id = $1", [downloadId])).rows[0];
    return row && toRegistryDocument(row);
  }

  async insertOfficialSearch(search: OfficialSearchRow): Promise<boolean> {
    const inserted = await this.#query(
      `INSERT INTO official_searches (business_unit_id, username, message_id, id, title_number, priority_type, applicant, received_ms, ready_ms,
         certificate_ms, priority_expiry_date, deferred, result)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT DO NOTHING`,
      [
        search.businessUnitId,
        search.username,
        search.messageId,
        search.id,
        search.titleNumber,
        search.priorityType,
        search.applicant,
        search.receivedMs,
        search.readyMs,
        search.certificateMs,
        search.priorityExpiryDate,
        search.deferred === null ? null : json(search.deferred),
        json(search.result),
      ],
    );
    return inserted.rowCount === 1;
  }

  async findOfficialSearch(
    businessUnitId: string,
    username: string,
    messageId: string,
  ): Promise<OfficialSearchRow | undefined> {
    const row = (
      await this.#query(
        "SELECT * FROM official_searches WHERE business_unit_id = $1 AND username = $2 AND message_id = $3",
        [businessUnitId, username, messageId],
      )
    ).rows[0];
    return row && toOfficialSearch(row);
  }

  async searchesWithPriority(
    businessUnitId: string,
    titleNumber: string,
    beforeMs: number,
    onDate: string,
    limit: number,
  ): Promise<PrioritySearch[]> {
    const { rows } = await this.#query(
      `SELECT certificate_ms, priority_type, applicant FROM official_searches
       WHERE business_unit_id = $1 AND title_number = $2 AND certificate_ms < $3 AND priority_expiry_date >= $4
       ORDER BY certificate_ms LIMIT $5`,
      [businessUnitId, titleNumber, beforeMs, onDate, limit],
    );
    return rows.map(toPrioritySearch);
  }

  async insertAttachment(attachment: Omit<AttachmentRow, "id" | "status" | "failureReason">): Promise<number> {
    const { rows } = await this.#query<{ id: number }>(
      `INSERT INTO attachments (application_id, business_unit_id, kind, document_id, certification_statement_type, message_text, status, created_ms)
       VALUES ($1, $2, $3, $4, $5, $6, 'PENDING', $7) RETURNING id`,
      [
        attachment.applicationId,
        attachment.businessUnitId,
        attachment.kind,
        attachment.documentId,
        attachment.certificationStatementType,
        attachment.messageText,
        attachment.createdMs,
      ],
    );
    return Number(rows[0]?.id);
  }

  async pendingAttachments(limit: number): Promise<AttachmentRow[]> {
    return (
      await this.#query("SELECT * FROM attachments WHERE status = 'PENDING' ORDER BY id LIMIT $1", [limit])
    ).rows.map(toAttachment);
  }

  async resolveAttachment(
    id: number,
    outcome: { status: "ATTACHED" | "FAILED"; failureReason: string | null },
    notifications: NotificationRow[],
  ): Promise<boolean> {
    return this.#transaction(async (client, changed) => {
      const updated = await this.#query(
        "UPDATE attachments SET status = $1, failure_reason = $2 WHERE id = $3 AND status = 'PENDING'",
        [outcome.status, outcome.failureReason, id],
        client,
      );
      if (updated.rowCount !== 1) return false;
      await this.#insertNotifications(client, notifications, changed);
      return true;
    });
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    const row = (await this.#query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])).rows[0];
    return row === undefined ? undefined : parse<T>(row.value);
  }

  async putSetting(key: string, value: unknown): Promise<void> {
    await this.#transaction(async (client, changed) => {
      changed.push({ kind: "state" });
      await this.#query(
        "INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [key, json(value)],
        client,
      );
    });
  }

  async updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }): Promise<R> {
    // First without a lock: a change that keeps the value (a submission asks for a scheduled fault each time) is
    // answered from the value read, which was the latest committed, and writes nothing. Otherwise, under the row lock.
    const seen = (await this.#query<{ value: string }>("SELECT value FROM settings WHERE key = $1", [key])).rows[0];
    if (seen !== undefined) {
      const { value, answer } = change(parse<T | null>(seen.value) ?? undefined);
      if (json(value) === seen.value) return answer;
    }
    return this.#transaction(async (client) => {
      // The row exists before it is locked, so that two instances creating it at once still take turns.
      await this.#query(
        "INSERT INTO settings (key, value) VALUES ($1, 'null') ON CONFLICT (key) DO NOTHING",
        [key],
        client,
      );
      const row = (
        await this.#query<{ value: string }>("SELECT value FROM settings WHERE key = $1 FOR UPDATE", [key], client)
      ).rows[0];
      const current = row === undefined ? undefined : (parse<T | null>(row.value) ?? undefined);
      const { value, answer } = change(current);
      await this.#query("UPDATE settings SET value = $2 WHERE key = $1", [key, json(value)], client);
      return answer;
    });
  }

  async appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): Promise<number> {
    return this.#transaction(async (client) => {
      const { rows } = await this.#query<{ seq: number }>(
        `INSERT INTO audit_entries (recorded_ms, clock_ms, actor_kind, actor_unit, operation_id, method, path, request_body, status, problem_code, request_id)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING seq`,
        [
          entry.recordedMs,
          entry.clockMs,
          entry.actorKind,
          entry.actorUnit,
          entry.operationId,
          entry.method,
          entry.path,
          entry.requestBody === null ? null : json(entry.requestBody),
          entry.status,
          entry.problemCode,
          entry.requestId,
        ],
        client,
      );
      await this.#query(
        auditRetention((index) => `$${index}`),
        [entry.actorKind, entry.actorUnit, entry.actorKind, entry.actorUnit, keepPerActor],
        client,
      );
      return Number(rows[0]?.seq);
    });
  }

  async listAuditEntries(query: AuditQuery): Promise<AuditEntryRow[]> {
    const { where, values } = auditWhere(query, (index) => `$${index}`);
    const { rows } = await this.#query(
      `SELECT * FROM audit_entries ${where} ORDER BY seq LIMIT $${values.length + 1}`,
      [...values, query.limit],
    );
    return rows.map(toAuditEntry);
  }

  async startReadinessRun(run: ReadinessRunRow, stimulus: ReadinessStimulusRows): Promise<boolean> {
    return this.#transaction(async (client, changed) => {
      // The partial unique index refuses a second running run of the unit, on any instance: nothing is written then.
      const values = readinessRunValues(run);
      const inserted = await this.#query(
        `INSERT INTO readiness_runs (${READINESS_RUN_COLUMNS}) VALUES (${values.map((_, index) => `$${index + 1}`).join(", ")})
         ON CONFLICT DO NOTHING`,
        values,
        client,
      );
      if (inserted.rowCount !== 1) return false;
      changed.push({ kind: "state" });
      for (const application of stimulus.applications) {
        const insert = applicationInsert(application, (index) => `$${index}`);
        await this.#query(insert.sql, insert.values, client);
      }
      for (const document of stimulus.registryDocuments ?? []) await this.#insertRegistryDocument(document, client);
      for (const record of stimulus.correspondence ?? []) await this.#insertCorrespondence(client, record);
      await this.#insertNotifications(client, stimulus.notifications, changed);
      return true;
    });
  }

  async findReadinessRun(id: string): Promise<ReadinessRunRow | undefined> {
    const row = (await this.#query("SELECT * FROM readiness_runs WHERE id = $1", [id])).rows[0];
    return row && toReadinessRun(row);
  }

  async listReadinessRuns(query: { businessUnitId?: string; limit: number }): Promise<ReadinessRunRow[]> {
    const { rows } =
      query.businessUnitId === undefined
        ? await this.#query("SELECT * FROM readiness_runs ORDER BY started_ms DESC, id DESC LIMIT $1", [query.limit])
        : await this.#query(
            "SELECT * FROM readiness_runs WHERE business_unit_id = $1 ORDER BY started_ms DESC, id DESC LIMIT $2",
            [query.businessUnitId, query.limit],
          );
    return rows.map(toReadinessRun);
  }

  async runningReadinessRuns(): Promise<ReadinessRunRow[]> {
    return (await this.#query("SELECT * FROM readiness_runs WHERE status = 'running'")).rows.map(toReadinessRun);
  }

  async endReadinessRun(id: string, end: ReadinessRunEnd): Promise<boolean> {
    return this.#transaction(async (client, changed) => {
      const updated = await this.#query(
        "UPDATE readiness_runs SET status = $1, ended_ms = $2, result = $3 WHERE id = $4 AND status = 'running'",
        [end.status, end.endedMs, json(end.result), id],
        client,
      );
      if (updated.rowCount !== 1) return false;
      changed.push({ kind: "state" });
      return true;
    });
  }

  async appendReadinessObservations(
    observations: readonly Omit<ReadinessObservationRow, "sequence">[],
    keepPerRun: number,
  ): Promise<boolean[]> {
    return this.#transaction(async (client) => {
      const kept: boolean[] = [];
      for (const observation of observations) kept.push(await this.#appendObservation(client, observation, keepPerRun));
      return kept;
    });
  }

  /** One observation of `appendReadinessObservations`, in its transaction. */
  async #appendObservation(
    client: pg.PoolClient,
    observation: Omit<ReadinessObservationRow, "sequence">,
    keepPerRun: number,
  ): Promise<boolean> {
    // The run's row lock orders the observations of instances observing the same unit at once.
    const counted = await this.#query<{ observation_count: number }>(
      `UPDATE readiness_runs SET observation_count = observation_count + 1
       WHERE id = $1 AND status = 'running' AND observation_count < $2 RETURNING observation_count`,
      [observation.runId, keepPerRun],
      client,
    );
    const sequence = counted.rows[0]?.observation_count;
    if (sequence === undefined) {
      await this.#query(
        "UPDATE readiness_runs SET observations_dropped = observations_dropped + 1 WHERE id = $1 AND status = 'running'",
        [observation.runId],
        client,
      );
      return false;
    }
    const values = readinessObservationValues(observation, Number(sequence));
    await this.#query(
      `INSERT INTO readiness_observations (${READINESS_OBSERVATION_COLUMNS}) VALUES (${values.map((_, index) => `$${index + 1}`).join(", ")})`,
      values,
      client,
    );
    return true;
  }

  async readinessObservations(runId: string): Promise<ReadinessObservationRow[]> {
    const { rows } = await this.#query("SELECT * FROM readiness_observations WHERE run_id = $1 ORDER BY sequence", [
      runId,
    ]);
    return rows.map(toReadinessObservation);
  }

  async reset(): Promise<void> {
    await this.#transaction(async (client, changed) => {
      changed.push({ kind: "notifications", businessUnitId: null }, { kind: "state" });
      await this.#query(
        "TRUNCATE readiness_observations, readiness_runs, attachments, official_searches, new_notifications, notifications, notification_unit_clock, correspondence, idempotency_keys, registry_documents, documents, applications, users, business_units, settings",
        [],
        client,
      );
    });
  }

  /**
   * Runs a background job on one instance at a time: the instance that holds the job's session-level advisory lock
   * runs it, the others skip this round. With the conditional updates of each decision, every decision is made once.
   */
  async exclusively(job: "processing" | "retention", work: () => Promise<void>): Promise<boolean> {
    const key = JOB_LOCKS[job];
    if (key === undefined) throw new Error(`no lock for background job ${job}`);
    const client = await this.#pool.connect();
    try {
      const { rows } = await this.#query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1) AS locked",
        [key],
        client,
      );
      if (!rows[0]?.locked) return false;
      try {
        await work();
      } finally {
        await this.#query("SELECT pg_advisory_unlock($1)", [key], client);
      }
      return true;
    } finally {
      client.release();
    }
  }

  describe(): StoreFigures {
    const pool = this.#pool;
    return {
      database: "postgresql",
      figures: [
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
        {
          name: "acknowledge_statements_limit",
          help: "Most acknowledgement statements this instance runs at once (LRG_DATABASE_ACKNOWLEDGE_STATEMENTS).",
          type: "gauge",
          value: this.#acknowledgements.inFlight,
        },
        {
          name: "acknowledge_statements_running",
          help: "Acknowledgement statements running now, each carrying the acknowledgements that arrived together.",
          type: "gauge",
          value: this.#acknowledgements.running,
        },
        {
          name: "acknowledge_statements_total",
          help: "Acknowledgement statements run.",
          type: "counter",
          value: this.#acknowledgements.statements,
        },
        ...this.#changes.figures(),
      ],
    };
  }

  async ping(): Promise<boolean> {
    try {
      return (await this.#query<{ one: number }>("SELECT 1 AS one")).rows[0]?.one === 1;
    } catch {
      return false;
    }
  }

  async canWrite(): Promise<boolean> {
    try {
      await this.#query(HEARTBEAT, [Date.now()]);
      return true;
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#changes.close();
    await this.#pool.end();
  }
}
