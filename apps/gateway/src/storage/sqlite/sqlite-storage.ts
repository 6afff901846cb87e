import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type {
  AuditEntryRow,
  AuditQuery,
  AttachmentRow,
  ApplicationChange,
  ApplicationRow,
  BusinessUnitRow,
  CorrespondenceRow,
  DocumentRow,
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
import { openSqlite, type SqliteDatabase, type SqliteStatement } from "./driver.js";
import { Checkpointer } from "./checkpointer.js";
import { datasyncOf, WalFlusher } from "./wal-flusher.js";
import { migrations, STATUS_OF_NOTIFICATION } from "./migrations.js";
import {
  auditRetention,
  auditWhere,
  json,
  parse,
  toApplication,
  toBusinessUnit,
  toUnitSandboxState,
  UNIT_RECORD_TABLES,
  toAttachment,
  toAuditEntry,
  toCorrespondence,
  toDocument,
  toOfficialSearch,
  toPrioritySearch,
  toRegistryDocument,
  type Row,
} from "../rows.js";

/** SQLite's own checkpoint threshold (its default), used again if the checkpointing thread fails. */
const SQLITE_AUTOCHECKPOINT_PAGES = 1000;

/**
 * How long a ready batch of writes may wait for connections still arriving (see #commitPending): a burst of 32 took a
 * few milliseconds to accept once batches stopped running between the accepts.
 */
const ACCEPT_FIRST_MS = 20;

/** What the store is told beside its directory. */
export interface SqliteStorageOptions {
  /** The connections accepted so far by the gateway's listeners (a ConnectionArrivals), if it serves HTTP. */
  arrivals?: { readonly count: number };
}

/** `?, ?, ...`: one placeholder per value. */
const placeholders = (count: number): string => Array.from({ length: count }, () => "?").join(", ");

const APPLICATION_COLUMNS: Record<keyof ApplicationChange["patch"], string> = {
  status: "status",
  registryReference: "registry_reference",
  priorityMs: "priority_ms",
  errors: "errors",
  warnings: "warnings",
  earlyCompletion: "early_completion",
  decideAtMs: "decide_at_ms",
};

/**
 * The embedded store: one SQLite file in the data directory, in WAL mode with foreign keys on. A write is answered
 * only once its commit is on disk, so that a confirmed change survives a crash of the process or the machine: the
 * group commit writes the WAL (`synchronous = NORMAL`) and the WAL is then flushed on libuv's thread pool
 * (`WalFlusher`), so that the event loop does not wait for the disk. The price: for the milliseconds of a flush, other
 * requests may read a change that is committed but not yet on disk (and not yet confirmed to its writer); a crash of
 * the machine (not of the process) in that window undoes it.
 */
export class SqliteStorage implements Storage {
  readonly #db: SqliteDatabase;
  readonly #checkpointer: Checkpointer;
  readonly #wal: ReturnType<typeof datasyncOf>;
  readonly #flusher: WalFlusher;
  readonly #insertNotification: SqliteStatement;
  readonly #insertNotificationStatus: SqliteStatement;
  /** Prepared statements by their SQL: the list query's text depends on which filters are given. */
  readonly #statements = new Map<string, SqliteStatement>();
  readonly #pending: { work: () => unknown; resolve: (value: unknown) => void; reject: (error: unknown) => void }[] =
    [];
  /** The creation instant of the last notification stored (see #insert). */
  /** The last creation instant given to a notification of each business unit (see #insert). */
  readonly #lastCreatedMs = new Map<string, number>();
  readonly #notificationListeners: ((businessUnitId: string | null) => void)[] = [];
  /** Units whose notifications the pending batch changes; announced once it is committed. */
  readonly #changedUnits = new Set<string | null>();

  readonly #arrivals: { readonly count: number } | undefined;
  /** The arrivals count the last look at it found, and since when the pending batch has waited for arrivals. */
  #arrivalsSeen = 0;
  #waitingSinceMs: number | undefined;
  #groupCommits = 0;

  constructor(dataDir: string, options: SqliteStorageOptions = {}) {
    this.#arrivals = options.arrivals;
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, "gateway.sqlite");
    this.#db = openSqlite(file);
    this.#db.pragma("journal_mode = WAL");
    // FULL until the migrations and the set-up below are committed; the group commit's writes are flushed by #flusher.
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("foreign_keys = ON");
    this.#db.pragma("busy_timeout = 5000");
    // No memory map (mmap_size stays 0). Alone on the file, one made acknowledging 100 ids cheaper (1.0–1.05 ms of
    // CPU against 1.30–1.43 on the benchmark's 1,000,000 notifications), but SQLite drops the whole map whenever
    // another connection commits, and faulting it back in cost more than it saved: after one foreign write, 16,000
    // page faults per 2-s burst instead of 3,000, acknowledge p99 142–239 ms against 82–95 without a map.
    // Checkpoints run on a thread of their own (see Checkpointer), not inside whichever commit crosses the threshold.
    this.#db.pragma("wal_autocheckpoint = 0");
    this.#checkpointer = new Checkpointer(file, () => {
      if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${SQLITE_AUTOCHECKPOINT_PAGES}`);
    });
    this.#migrate();
    for (const [unit, last] of this.#db
      .prepare("SELECT business_unit_id, MAX(created_ms) FROM notifications GROUP BY business_unit_id")
      .raw()
      .all() as [string, number][])
      this.#lastCreatedMs.set(unit, Number(last));
    this.#insertNotification = this.#db.prepare(
      `INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, additional_provider_filter)
       VALUES (@id, @businessUnitId, @applicationId, @v1Type, @v0Type, @v1Payload, @v0Payload, @v1Schema, @v0Schema, @eventMs, @createdMs, @additionalProviderFilter)`,
    );
    this.#insertNotificationStatus = this.#db.prepare(
      "INSERT INTO notification_status (business_unit_id, status, created_ms, seq) VALUES (?, ?, ?, ?)",
    );
    this.#wal = datasyncOf(`${file}-wal`);
    this.#flusher = new WalFlusher(this.#wal.sync);
    this.#db.pragma("synchronous = NORMAL");
  }

  #migrate(): void {
    this.#db.exec(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_ms INTEGER NOT NULL)",
    );
    const applied = new Set(this.#db.prepare("SELECT version FROM schema_migrations").pluck().all() as number[]);
    for (const migration of migrations.filter((m) => !applied.has(m.version))) {
      this.#db.transaction(() => {
        this.#db.exec(migration.sql);
        this.#db
          .prepare("INSERT INTO schema_migrations (version, name, applied_ms) VALUES (?, ?, ?)")
          .run(migration.version, migration.name, Date.now());
      })();
    }
  }

  /** The schema versions applied to this database. */
  appliedMigrations(): number[] {
    return this.#db.prepare("SELECT version FROM schema_migrations ORDER BY version").pluck().all() as number[];
  }

  async createBusinessUnit(unit: BusinessUnitRow, user: UserRow): Promise<void> {
    return this.#write((): void => {
      this.#db.transaction(() => {
        this.#db
          .prepare("INSERT INTO business_units (id, name, created_ms, token_hash) VALUES (?, ?, ?, ?)")
          .run(unit.id, unit.name, unit.createdMs, unit.tokenHash ?? null);
        this.#db
          .prepare("INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES (?, ?, ?, ?)")
          .run(user.username, user.businessUnitId, user.passwordHash, user.createdMs);
      })();
    });
  }

  async findBusinessUnit(id: string): Promise<BusinessUnitRow | undefined> {
    const row = this.#db.prepare("SELECT id, name, created_ms, token_hash FROM business_units WHERE id = ?").get(id) as
      Row | undefined;
    return row && toBusinessUnit(row);
  }

  async findBusinessUnitByTokenHash(tokenHash: string): Promise<BusinessUnitRow | undefined> {
    const row = this.#prepared("SELECT id, name, created_ms, token_hash FROM business_units WHERE token_hash = ?").get(
      tokenHash,
    ) as Row | undefined;
    return row && toBusinessUnit(row);
  }

  async setTokenHash(businessUnitId: string, tokenHash: string): Promise<boolean> {
    return this.#write(
      (): boolean =>
        this.#db.prepare("UPDATE business_units SET token_hash = ? WHERE id = ?").run(tokenHash, businessUnitId)
          .changes === 1,
    );
  }

  async unitSandboxStates(): Promise<UnitSandboxState[]> {
    const rows = this.#db
      .prepare(
        "SELECT id, clock_offset_ms, settings FROM business_units WHERE clock_offset_ms IS NOT NULL OR settings IS NOT NULL",
      )
      .all() as Row[];
    return rows.map(toUnitSandboxState);
  }

  async putUnitSandboxState(state: UnitSandboxState): Promise<void> {
    return this.#write((): void => {
      this.#db
        .prepare("UPDATE business_units SET clock_offset_ms = ?, settings = ? WHERE id = ?")
        .run(state.clockOffsetMs, state.settings === null ? null : json(state.settings), state.businessUnitId);
    });
  }

  async resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): Promise<void> {
    return this.#write((): void => {
      this.#db.transaction(() => {
        this.#changedUnits.add(businessUnitId);
        this.#db
          .prepare(
            "DELETE FROM correspondence WHERE application_id IN (SELECT id FROM applications WHERE business_unit_id = ?)",
          )
          .run(businessUnitId);
        this.#db.prepare("DELETE FROM notification_status WHERE business_unit_id = ?").run(businessUnitId);
        // Children before their parents: the foreign keys hold inside the transaction.
        for (const table of UNIT_RECORD_TABLES) {
          this.#db.prepare(`DELETE FROM ${table} WHERE business_unit_id = ?`).run(businessUnitId);
        }
        for (const pattern of settingKeysLike) this.#db.prepare("DELETE FROM settings WHERE key LIKE ?").run(pattern);
        this.#db
          .prepare("UPDATE business_units SET clock_offset_ms = NULL, settings = NULL WHERE id = ?")
          .run(businessUnitId);
      })();
    });
  }

  async findUser(username: string): Promise<UserRow | undefined> {
    const row = this.#db.prepare("SELECT * FROM users WHERE username = ?").get(username) as Row | undefined;
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
    return this.#write((): void => {
      this.#db.prepare("UPDATE users SET password_hash = ? WHERE username = ?").run(passwordHash, username);
    });
  }

  async submitApplication(
    application: ApplicationRow,
    idempotency: { key: string; requestHash: string },
  ): Promise<SubmitOutcome> {
    return this.#write((): SubmitOutcome => {
      return this.#db.transaction((): SubmitOutcome => {
        const seen = this.#db
          .prepare(
            `SELECT k.request_hash, k.application_id, a.status FROM idempotency_keys k JOIN applications a ON a.id = k.application_id
             WHERE k.business_unit_id = ? AND k.key = ?`,
          )
          .get(application.businessUnitId, idempotency.key) as Row | undefined;
        // The key of an application that ended in SYSTEM_ERROR is released, so that the retry the requirement asks
        // for creates a new application; it then names the new one.
        const released = seen?.["status"] === "SYSTEM_ERROR";
        if (seen && !released) {
          return seen["request_hash"] === idempotency.requestHash
            ? { kind: "replayed", applicationId: String(seen["application_id"]) }
            : { kind: "conflict" };
        }
        if (released)
          this.#db
            .prepare("DELETE FROM idempotency_keys WHERE business_unit_id = ? AND key = ?")
            .run(application.businessUnitId, idempotency.key);
        this.#db
          .prepare(
            `INSERT INTO applications (id, business_unit_id, status, registry_reference, priority_ms, additional_provider_filter, submission, errors, warnings, early_completion, created_ms, updated_ms, decide_at_ms)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            application.id,
            application.businessUnitId,
            application.status,
            application.registryReference,
            application.priorityMs,
            application.additionalProviderFilter,
            json(application.submission),
            json(application.errors),
            json(application.warnings),
            application.earlyCompletion ? 1 : 0,
            application.createdMs,
            application.updatedMs,
            application.decideAtMs,
          );
        this.#db
          .prepare(
            "INSERT INTO idempotency_keys (business_unit_id, key, request_hash, application_id) VALUES (?, ?, ?, ?)",
          )
          .run(application.businessUnitId, idempotency.key, idempotency.requestHash, application.id);
        return { kind: "created", applicationId: application.id };
      })();
    });
  }

  async findApplication(id: string, businessUnitId?: string): Promise<ApplicationRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? this.#db.prepare("SELECT * FROM applications WHERE id = ?").get(id)
        : this.#db.prepare("SELECT * FROM applications WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId)
    ) as Row | undefined;
    return row && toApplication(row);
  }

  async applicationsDue(reading: DueReading, limit: number): Promise<ApplicationRow[]> {
    // Each application is compared with its own unit's clock and processing (the unit's, else the global ones).
    const rows = this.#prepared(
      `SELECT a.* FROM applications a JOIN business_units b ON b.id = a.business_unit_id
       WHERE a.status = 'VALIDATING' AND a.decide_at_ms IS NOT NULL
         AND a.decide_at_ms <= @realMs + COALESCE(b.clock_offset_ms, @globalOffsetMs)
         AND COALESCE(json_extract(b.settings, '$.processing'), @processing) = 'automatic'
       ORDER BY a.decide_at_ms LIMIT @limit`,
    ).all({ ...reading, limit }) as Row[];
    return rows.map(toApplication);
  }

  async applicationsWithStatus(status: string): Promise<ApplicationRow[]> {
    return (
      this.#db.prepare("SELECT * FROM applications WHERE status = ? ORDER BY created_ms").all(status) as Row[]
    ).map(toApplication);
  }

  async changeApplication(change: ApplicationChange): Promise<boolean> {
    return this.#write((): boolean => {
      const entries = Object.entries(change.patch) as [keyof ApplicationChange["patch"], unknown][];
      const assignments = entries.map(([key]) => `${APPLICATION_COLUMNS[key]} = @${key}`);
      const values: Record<string, unknown> = {
        id: change.applicationId,
        fromStatus: change.fromStatus,
        updatedMs: change.updatedMs,
      };
      for (const [key, value] of entries) {
        values[key] =
          key === "errors" || key === "warnings" ? json(value) : key === "earlyCompletion" ? (value ? 1 : 0) : value;
      }
      const update = this.#db.prepare(
        `UPDATE applications SET ${[...assignments, "updated_ms = @updatedMs"].join(", ")} WHERE id = @id AND status = @fromStatus`,
      );
      return this.#db.transaction(() => {
        if (update.run(values).changes !== 1) return false;
        if (change.correspondence) {
          const record = change.correspondence;
          this.#db
            .prepare(
              "INSERT INTO correspondence (record_id, application_id, documents, created_ms) VALUES (?, ?, ?, ?)",
            )
            .run(record.recordId, record.applicationId, json(record.documents), record.createdMs);
        }
        for (const notification of change.notifications) this.#insert(notification);
        return true;
      })();
    });
  }

  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void {
    this.#notificationListeners.push(listener);
  }

  #insert(notification: NotificationRow): void {
    this.#changedUnits.add(notification.businessUnitId);
    // A business unit's creation instants strictly increase in commit order, so a reader paging with created_after
    // never misses a notification committed after its read (one prepared earlier but committed later would be
    // back-dated). Per unit, because each unit may run on its own sandbox clock: one unit's clock, months ahead,
    // must not drag another's instants along. A clock moved backwards by the sandbox restarts the sequence.
    const last = this.#lastCreatedMs.get(notification.businessUnitId) ?? 0;
    let createdMs = notification.createdMs;
    if (createdMs > last - 1000) createdMs = Math.max(createdMs, last + 1);
    this.#lastCreatedMs.set(notification.businessUnitId, createdMs);
    notification = { ...notification, createdMs };
    const { lastInsertRowid: seq } = this.#insertNotification.run({
      ...notification,
      v1Payload: json(notification.v1Payload),
      v0Payload: notification.v0Payload === null ? null : json(notification.v0Payload),
    });
    this.#insertNotificationStatus.run(notification.businessUnitId, notification.status, createdMs, seq);
  }

  async correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]> {
    const rows = this.#db
      .prepare("SELECT * FROM correspondence WHERE application_id = ? ORDER BY created_ms, rowid")
      .all(applicationId) as Row[];
    return rows.map(toCorrespondence);
  }

  /**
   * Group commit: writes queued within one turn of the event loop run in one transaction, each in its own
   * savepoint (one failing leaves the others be), and every caller is answered only once that transaction is
   * committed and flushed to disk: one flush per batch (or fewer: batches committed while a flush runs share the
   * next), off the event loop.
   */
  #write<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.#pending.length === 1) setImmediate(() => this.#commitPending());
    });
  }

  #commitPending(acceptFirst = true): void {
    if (this.#pending.length === 0) return;
    // Accept first: libuv accepts one connection per turn of the event loop and a batch holds the loop for its whole
    // run, so while connections keep arriving the batch waits a turn (up to ACCEPT_FIRST_MS), and a burst of clients is
    // accepted in a few short turns instead of one batch apart each (see ConnectionArrivals).
    const arrivals = this.#arrivals?.count ?? 0;
    if (acceptFirst && arrivals !== this.#arrivalsSeen) {
      this.#arrivalsSeen = arrivals;
      this.#waitingSinceMs ??= performance.now();
      if (performance.now() - this.#waitingSinceMs < ACCEPT_FIRST_MS) {
        setImmediate(() => this.#commitPending());
        return;
      }
    }
    this.#waitingSinceMs = undefined;
    this.#groupCommits += 1;
    const jobs = this.#pending.splice(0);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      // IMMEDIATE: the write lock first (waiting up to busy_timeout for another process's writer), so that a job which
      // reads before it writes never finds its snapshot outdated by another connection's commit (SQLITE_BUSY at once).
      this.#db
        .transaction(() => {
          for (const job of jobs) {
            try {
              outcomes.push({ ok: true, value: this.#db.transaction(job.work)() });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        })
        .immediate();
    } catch (error) {
      this.#changedUnits.clear();
      for (const job of jobs) job.reject(error);
      return;
    }
    const changed = [...this.#changedUnits];
    this.#changedUnits.clear();
    for (const unit of changed) for (const listener of this.#notificationListeners) listener(unit);
    const committed: [(typeof jobs)[number], unknown][] = [];
    jobs.forEach((job, index) => {
      const outcome = outcomes[index];
      if (outcome?.ok) committed.push([job, outcome.value]);
      else job.reject(outcome?.error);
    });
    if (committed.length === 0) return;
    this.#flusher.flush().then(
      () => committed.forEach(([job, value]) => job.resolve(value)),
      (error: unknown) => committed.forEach(([job]) => job.reject(error)),
    );
  }

  #prepared(sql: string): SqliteStatement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  /**
   * With a status, the unit's notifications of that status are read in creation order from notification_status (its
   * key) and their rows fetched; without, the unit's notifications are read through notifications_by_unit and each
   * one's status is looked up by that key.
   */
  async listNotifications(query: NotificationQuery): Promise<NotificationListing[]> {
    // The table whose creation order the list follows.
    const t = query.status !== undefined ? "s" : "n";
    const where = [`${t}.business_unit_id = @businessUnitId`];
    if (query.status !== undefined) where.push("s.status = @status");
    if (query.version === "v0") where.push("v0_type IS NOT NULL");
    if (query.createdAfterMs !== undefined) where.push(`${t}.created_ms > @createdAfterMs`);
    if (query.createdBeforeMs !== undefined) where.push(`${t}.created_ms < @createdBeforeMs`);
    if (query.occurredAfterMs !== undefined) where.push("event_ms > @occurredAfterMs");
    if (query.occurredBeforeMs !== undefined) where.push("event_ms < @occurredBeforeMs");
    if (query.notificationType !== undefined)
      where.push(`${query.version === "v0" ? "v0_type" : "v1_type"} = @notificationType`);
    if (query.subject !== undefined) where.push("application_id = @subject");
    where.push(
      query.additionalProviderFilter === null
        ? "additional_provider_filter IS NULL"
        : "additional_provider_filter = @additionalProviderFilter",
    );
    const v = query.version;
    const [from, status] =
      query.status !== undefined
        ? ["notification_status s JOIN notifications n ON n.seq = s.seq", "s.status"]
        : ["notifications n", `(SELECT s.status FROM notification_status s WHERE ${STATUS_OF_NOTIFICATION})`];
    const sql = `SELECT n.id, n.application_id, n.${v}_type, n.${v}_schema, n.${v}_payload, n.event_ms, ${t}.created_ms, ${status}, n.additional_provider_filter
      FROM ${from} WHERE ${where.join(" AND ")} ORDER BY ${t}.created_ms, ${t}.seq LIMIT @limit`;
    const rows = this.#prepared(sql).raw().all(query) as [
      string,
      string,
      string,
      string,
      string,
      number,
      number,
      NotificationListing["status"],
      string | null,
    ][];
    return rows.map(
      ([id, applicationId, type, schema, payloadJson, eventMs, createdMs, status, additionalProviderFilter]) => ({
        id,
        applicationId,
        type,
        schema,
        payloadJson,
        eventMs,
        createdMs,
        status,
        additionalProviderFilter,
      }),
    );
  }

  async acknowledgeNotifications(businessUnitId: string, ids: string[], nowMs: number): Promise<string[]> {
    return this.#write((): string[] => {
      const unique = [...new Set(ids)];
      if (unique.length === 0) return [];
      return this.#db.transaction(() => {
        // The unit's own notifications among the ids: 100 look-ups in an index that holds all this (migration 7),
        // named, since SQLite would otherwise pick the unique index on id and read every row.
        const found = this.#prepared(
          `SELECT id, seq, created_ms FROM notifications INDEXED BY notifications_by_id
           WHERE id IN (${placeholders(unique.length)}) AND business_unit_id = ?`,
        )
          .raw()
          .all(...unique, businessUnitId) as [string, number, number][];
        if (found.length === 0) return [];
        // Their NEW entries move to ACKNOWLEDGED, all within the unit's range of notification_status: a few pages. The
        // creation instants bound the walk of the unit's NEW entries to those the ids can be.
        const created = found.map(([, , createdMs]) => createdMs);
        const acknowledged = this.#prepared(
          `UPDATE notification_status SET status = 'ACKNOWLEDGED', acknowledged_ms = ?
           WHERE business_unit_id = ? AND status = 'NEW' AND created_ms BETWEEN ? AND ? AND seq IN (${placeholders(found.length)})
           RETURNING seq`,
        )
          .pluck()
          .all(nowMs, businessUnitId, Math.min(...created), Math.max(...created), ...found.map(([, seq]) => seq));
        // Acknowledging again changes nothing, so it drops no cached page.
        if (acknowledged.length > 0) this.#changedUnits.add(businessUnitId);
        const known = new Set(found.map(([id]) => id));
        return unique.filter((id) => known.has(id));
      })();
    });
  }

  async purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): Promise<number> {
    return this.#write((): number => {
      // The units whose notifications go, written once for both tables (notification_status's key leads with the
      // unit and the status; notifications is read by creation instant when every unit's go).
      const units =
        scope === undefined
          ? "SELECT id FROM business_units"
          : scope === "units-on-the-global-clock"
            ? "SELECT id FROM business_units WHERE clock_offset_ms IS NULL"
            : "?";
      const unitParameters = typeof scope === "object" ? [scope.businessUnitId] : [];
      this.#db
        .prepare(
          `DELETE FROM notification_status WHERE business_unit_id IN (${units}) AND status IN ('NEW', 'ACKNOWLEDGED') AND created_ms < ?`,
        )
        .run(...unitParameters, createdBeforeMs);
      const deleted = this.#db
        .prepare(
          scope === undefined
            ? "DELETE FROM notifications WHERE created_ms < ?"
            : `DELETE FROM notifications WHERE business_unit_id IN (${units}) AND created_ms < ?`,
        )
        .run(...unitParameters, createdBeforeMs).changes;
      if (deleted > 0) this.#changedUnits.add(null);
      return deleted;
    });
  }

  async insertDocument(document: DocumentRow): Promise<void> {
    return this.#write((): void => {
      this.#db
        .prepare(
          `INSERT INTO documents (id, business_unit_id, document_type, file_length, file_sha256, status, failure_reason, created_ms, expires_ms)
           VALUES (@id, @businessUnitId, @documentType, @fileLength, @fileSha256, @status, @failureReason, @createdMs, @expiresMs)`,
        )
        .run(document);
    });
  }

  async completeUpload(id: string, _nowMs: number): Promise<boolean> {
    return this.#write((): boolean => {
      return (
        this.#db.prepare("UPDATE documents SET status = 'UPLOADED' WHERE id = ? AND status = 'AWAITING_UPLOAD'").run(id)
          .changes === 1
      );
    });
  }

  async recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): Promise<void> {
    return this.#write((): void => {
      this.#db
        .prepare("UPDATE documents SET status = ?, failure_reason = ? WHERE id = ? AND status = 'UPLOADED'")
        .run(status, failureReason, id);
    });
  }

  async documentsAwaitingCheck(): Promise<DocumentRow[]> {
    return (this.#db.prepare("SELECT * FROM documents WHERE status = 'UPLOADED'").all() as Row[]).map(toDocument);
  }

  async findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? this.#db.prepare("SELECT * FROM documents WHERE id = ?").get(id)
        : this.#db.prepare("SELECT * FROM documents WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId)
    ) as Row | undefined;
    return row && toDocument(row);
  }

  async putRegistryDocument(document: RegistryDocumentRow): Promise<void> {
    return this.#write((): void => {
      this.#db
        .prepare(
          `INSERT OR IGNORE INTO registry_documents (download_id, business_unit_id, application_id, code, name, content_type, size, created_ms)
           VALUES (@downloadId, @businessUnitId, @applicationId, @code, @name, @contentType, @size, @createdMs)`,
        )
        .run(document);
    });
  }

  async findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined> {
    const row = this.#db.prepare("SELECT * FROM registry_documents WHERE download_id = ?").get(downloadId) as
      Row | undefined;
    return row && toRegistryDocument(row);
  }

  async insertOfficialSearch(search: OfficialSearchRow): Promise<boolean> {
    return this.#write((): boolean => {
      const inserted = this.#prepared(
        `INSERT INTO official_searches (business_unit_id, username, message_id, id, title_number, priority_type, applicant, received_ms, ready_ms,
           certificate_ms, priority_expiry_date, deferred, result)
         VALUES (@businessUnitId, @username, @messageId, @id, @titleNumber, @priorityType, @applicant, @receivedMs, @readyMs,
           @certificateMs, @priorityExpiryDate, @deferred, @result)
         ON CONFLICT DO NOTHING`,
      ).run({
        ...search,
        deferred: search.deferred === null ? null : json(search.deferred),
        result: json(search.result),
      });
      return inserted.changes === 1;
    });
  }

  async findOfficialSearch(
    businessUnitId: string,
    username: string,
    messageId: string,
  ): Promise<OfficialSearchRow | undefined> {
    const row = this.#prepared(
      "SELECT * FROM official_searches WHERE business_unit_id = ? AND username = ? AND message_id = ?",
    ).get(businessUnitId, username, messageId) as Row | undefined;
    return row && toOfficialSearch(row);
  }

  async searchesWithPriority(
    businessUnitId: string,
    titleNumber: string,
    beforeMs: number,
    onDate: string,
    limit: number,
  ): Promise<PrioritySearch[]> {
    const rows = this.#prepared(
      `SELECT certificate_ms, priority_type, applicant FROM official_searches
       WHERE business_unit_id = ? AND title_number = ? AND certificate_ms < ? AND priority_expiry_date >= ?
       ORDER BY certificate_ms LIMIT ?`,
    ).all(businessUnitId, titleNumber, beforeMs, onDate, limit) as Row[];
    return rows.map(toPrioritySearch);
  }

  async insertAttachment(attachment: Omit<AttachmentRow, "id" | "status" | "failureReason">): Promise<number> {
    return this.#write((): number => {
      const result = this.#db
        .prepare(
          `INSERT INTO attachments (application_id, business_unit_id, kind, document_id, certification_statement_type, message_text, status, created_ms)
           VALUES (@applicationId, @businessUnitId, @kind, @documentId, @certificationStatementType, @messageText, 'PENDING', @createdMs)`,
        )
        .run(attachment);
      return Number(result.lastInsertRowid);
    });
  }

  async pendingAttachments(limit: number): Promise<AttachmentRow[]> {
    const rows = this.#db
      .prepare("SELECT * FROM attachments WHERE status = 'PENDING' ORDER BY id LIMIT ?")
      .all(limit) as Row[];
    return rows.map(toAttachment);
  }

  async resolveAttachment(
    id: number,
    outcome: { status: "ATTACHED" | "FAILED"; failureReason: string | null },
    notifications: NotificationRow[],
  ): Promise<boolean> {
    return this.#write((): boolean =>
      this.#db.transaction(() => {
        const changed = this.#db
          .prepare("UPDATE attachments SET status = ?, failure_reason = ? WHERE id = ? AND status = 'PENDING'")
          .run(outcome.status, outcome.failureReason, id).changes;
        if (changed !== 1) return false;
        for (const notification of notifications) this.#insert(notification);
        return true;
      })(),
    );
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    const value = this.#db.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(key);
    return value === undefined ? undefined : parse<T>(value);
  }

  async putSetting(key: string, value: unknown): Promise<void> {
    return this.#write((): void => {
      this.#db
        .prepare(
          "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .run(key, json(value));
    });
  }

  async updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }): Promise<R> {
    // Inside the write queue nothing else runs between the read and the write: that is the atomicity.
    return this.#write((): R => {
      const stored = this.#db.prepare("SELECT value FROM settings WHERE key = ?").pluck().get(key);
      const { value, answer } = change(stored === undefined ? undefined : parse<T>(stored));
      this.#db
        .prepare(
          "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        )
        .run(key, json(value));
      return answer;
    });
  }

  async appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): Promise<number> {
    return this.#write((): number => {
      const inserted = this.#prepared(
        `INSERT INTO audit_entries (recorded_ms, clock_ms, actor_kind, actor_unit, operation_id, method, path, request_body, status, problem_code, request_id)
         VALUES (@recordedMs, @clockMs, @actorKind, @actorUnit, @operationId, @method, @path, @requestBody, @status, @problemCode, @requestId)`,
      ).run({ ...entry, requestBody: entry.requestBody === null ? null : json(entry.requestBody) });
      this.#prepared(auditRetention(() => "?")).run(
        entry.actorKind,
        entry.actorUnit,
        entry.actorKind,
        entry.actorUnit,
        keepPerActor,
      );
      return Number(inserted.lastInsertRowid);
    });
  }

  async listAuditEntries(query: AuditQuery): Promise<AuditEntryRow[]> {
    const { where, values } = auditWhere(query, () => "?");
    const rows = this.#prepared(`SELECT * FROM audit_entries ${where} ORDER BY seq LIMIT ?`).all(
      ...values,
      query.limit,
    ) as Row[];
    return rows.map(toAuditEntry);
  }

  async reset(): Promise<void> {
    return this.#write((): void => {
      this.#db.transaction(() => {
        this.#changedUnits.add(null);
        for (const table of [
          "attachments",
          "official_searches",
          "notification_status",
          "notifications",
          "correspondence",
          "idempotency_keys",
          "registry_documents",
          "documents",
          "applications",
          "users",
          "business_units",
          "settings",
        ]) {
          this.#db.exec(`DELETE FROM ${table}`);
        }
      })();
    });
  }

  /** One process owns an SQLite file: nothing else changes the state behind its back. */
  onStateChanged(_listener: () => Promise<void>): void {}

  /** One process owns an SQLite file: there is nothing to wait for. */
  async sync(): Promise<void> {}

  /** One process owns an SQLite file: its jobs need no lock. */
  async exclusively(_job: "processing" | "retention", work: () => Promise<void>): Promise<boolean> {
    await work();
    return true;
  }

  describe(): StoreFigures {
    return {
      database: "sqlite",
      figures: [
        {
          name: "pending_writes",
          help: "Writes waiting for the next group commit.",
          type: "gauge",
          value: this.#pending.length,
        },
        {
          name: "group_commits_total",
          help: "Transactions of the group commit, each holding the writes that were waiting for it.",
          type: "counter",
          value: this.#groupCommits,
        },
        {
          name: "wal_flushes_total",
          help: "Flushes of the WAL to disk that writes waited for (one per group commit, or fewer under load).",
          type: "counter",
          value: this.#flusher.flushes,
        },
      ],
    };
  }

  async ping(): Promise<boolean> {
    return this.#db.prepare("SELECT 1").pluck().get() === 1;
  }

  async close(): Promise<void> {
    this.#commitPending(false);
    await this.#checkpointer.close();
    // Writes queued while the thread stopped; closing the last connection then checkpoints what is left.
    this.#commitPending(false);
    await this.#flusher.idle();
    await this.#wal.close();
    if (this.#db.open) this.#db.close();
  }

  /** `PRAGMA integrity_check`, for the crash-recovery tests. */
  integrityCheck(): string {
    return String(this.#db.pragma("integrity_check", { simple: true }));
  }
}
