import { mkdirSync } from "node:fs";
import { statfs } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
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
  ReadinessObservationRow,
  ReadinessRunEnd,
  ReadinessRunRow,
  ReadinessStimulusRows,
} from "../storage.js";
import { openSqlite, statementsOf, type SqliteDatabase, type SqliteStatement } from "./driver.js";
import { Checkpointer } from "./checkpointer.js";
import { migrations, STATUS_OF_NOTIFICATION } from "./migrations.js";
import { SqliteWriter } from "./writer.js";
import {
  auditWhere,
  json,
  parse,
  toApplication,
  toBusinessUnit,
  toUnitSandboxState,
  toAttachment,
  toAuditEntry,
  toCorrespondence,
  toDocument,
  toOfficialSearch,
  toPrioritySearch,
  toRegistryDocument,
  type Row,
  earlyCompleted,
  toReadinessRun,
} from "../rows.js";

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
export interface SqliteStorageOptions {
  /** The writing connection's page cache, at most, in MiB (default 64). */
  cacheMib?: number;
}

/**
 * The embedded store: one SQLite file in the data directory, in WAL mode with foreign keys on. Reads run here, on the
 * gateway's event loop, each on the latest commit; writes run on the writer thread (see SqliteWriter), which owns the
 * writing connection and its group commit. A write is answered only once its commit is on disk, so that a confirmed
 * change survives a crash of the process or the machine. For the milliseconds of a flush, other requests may read a
 * change that is committed but not yet on disk (and not yet confirmed to its writer); a crash of the machine (not of
 * the process) in that window undoes it.
 */
export class SqliteStorage implements Storage {
  readonly #db: SqliteDatabase;
  readonly #checkpointer: Checkpointer;
  readonly #writer: SqliteWriter;
  /** Prepared statements by their SQL: the list query's text depends on which filters are given. */
  readonly #prepared: (sql: string) => SqliteStatement;
  readonly #notificationListeners: ((businessUnitId: string | null) => void)[] = [];
  /** The setting changes of this gateway still running, by key (see updateSetting). */
  readonly #settingChanges = new Map<string, Promise<void>>();
  readonly #cacheMib: number;
  readonly #dataDir: string;

  constructor(dataDir: string, options: SqliteStorageOptions = {}) {
    this.#cacheMib = options.cacheMib ?? DEFAULT_CACHE_MIB;
    this.#dataDir = dataDir;
    mkdirSync(dataDir, { recursive: true });
    const file = join(dataDir, "gateway.sqlite");
    this.#db = openSqlite(file);
    this.#db.pragma("journal_mode = WAL");
    this.#db.pragma("synchronous = FULL");
    this.#db.pragma("foreign_keys = ON");
    this.#db.pragma("busy_timeout = 5000");
    // No memory map (mmap_size stays 0). Alone on the file, one made acknowledging 100 ids cheaper (1.0–1.05 ms of
    // CPU against 1.30–1.43 on the benchmark's 1,000,000 notifications), but SQLite drops the whole map whenever
    // another connection commits, and faulting it back in cost more than it saved: after one foreign write, 16,000
    // page faults per 2-s burst instead of 3,000, acknowledge p99 142–239 ms against 82–95 without a map.
    this.#migrate();
    this.#prepared = statementsOf(this.#db);
    // Started once the schema is there: the writer thread reads it as it starts.
    this.#writer = new SqliteWriter({ file, cacheKib: this.#cacheMib * 1024 }, (units) => {
      for (const unit of units) for (const listener of this.#notificationListeners) listener(unit);
    });
    this.#checkpointer = new Checkpointer(file, () => this.#writer.checkpointEvery(SQLITE_AUTOCHECKPOINT_PAGES));
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
    return this.#writer.run("createBusinessUnit", unit, user);
  }

  async findBusinessUnit(id: string): Promise<BusinessUnitRow | undefined> {
    const row = this.#prepared("SELECT id, name, created_ms, token_hash FROM business_units WHERE id = ?").get(id) as
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
    return this.#writer.run("setTokenHash", businessUnitId, tokenHash);
  }

  async unitSandboxStates(): Promise<UnitSandboxState[]> {
    const rows = this.#prepared(
      "SELECT id, clock_offset_ms, settings FROM business_units WHERE clock_offset_ms IS NOT NULL OR settings IS NOT NULL",
    ).all() as Row[];
    return rows.map(toUnitSandboxState);
  }

  async putUnitSandboxState(state: UnitSandboxState): Promise<void> {
    return this.#writer.run("putUnitSandboxState", state);
  }

  async resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): Promise<void> {
    return this.#writer.run("resetBusinessUnit", businessUnitId, settingKeysLike);
  }

  async findUser(username: string): Promise<UserRow | undefined> {
    const row = this.#prepared("SELECT * FROM users WHERE username = ?").get(username) as Row | undefined;
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
    return this.#writer.run("setPasswordHash", username, passwordHash);
  }

  async submitApplication(application: ApplicationRow, claim: IdempotencyClaim): Promise<SubmitOutcome> {
    return this.#writer.run("submitApplication", application, claim);
  }

  async findApplication(id: string, businessUnitId?: string): Promise<ApplicationRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? this.#prepared("SELECT * FROM applications WHERE id = ?").get(id)
        : this.#prepared("SELECT * FROM applications WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId)
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
    return (this.#prepared("SELECT * FROM applications WHERE status = ? ORDER BY created_ms").all(status) as Row[]).map(
      toApplication,
    );
  }

  async countApplications(status: string, businessUnitId?: string): Promise<number> {
    return businessUnitId === undefined
      ? (this.#prepared("SELECT count(*) FROM applications WHERE status = ?").pluck().get(status) as number)
      : (this.#prepared("SELECT count(*) FROM applications WHERE status = ? AND business_unit_id = ?")
          .pluck()
          .get(status, businessUnitId) as number);
  }

  async earlyCompletedApplications(businessUnitId: string): Promise<ApplicationRow[]> {
    return (this.#prepared(earlyCompleted("?")).all(businessUnitId) as Row[]).map(toApplication);
  }

  async changeApplication(change: ApplicationChange): Promise<boolean> {
    return this.#writer.run("changeApplication", change);
  }

  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void {
    this.#notificationListeners.push(listener);
  }

  async correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]> {
    const rows = this.#prepared("SELECT * FROM correspondence WHERE application_id = ? ORDER BY created_ms, rowid").all(
      applicationId,
    ) as Row[];
    return rows.map(toCorrespondence);
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
    return this.#writer.run("acknowledgeNotifications", businessUnitId, ids, nowMs);
  }

  async purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): Promise<number> {
    return this.#writer.run("purgeNotifications", createdBeforeMs, scope);
  }

  async insertDocument(document: DocumentRow): Promise<void> {
    return this.#writer.run("insertDocument", document);
  }

  async completeUpload(id: string, _nowMs: number): Promise<boolean> {
    return this.#writer.run("completeUpload", id);
  }

  async recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): Promise<void> {
    return this.#writer.run("recordDocumentCheck", id, status, failureReason);
  }

  async documentsAwaitingCheck(): Promise<DocumentRow[]> {
    return (this.#prepared("SELECT * FROM documents WHERE status = 'UPLOADED'").all() as Row[]).map(toDocument);
  }

  async findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined> {
    const row = (
      businessUnitId === undefined
        ? this.#prepared("SELECT * FROM documents WHERE id = ?").get(id)
        : this.#prepared("SELECT * FROM documents WHERE id = ? AND business_unit_id = ?").get(id, businessUnitId)
    ) as Row | undefined;
    return row && toDocument(row);
  }

  async putRegistryDocument(document: RegistryDocumentRow): Promise<void> {
    return this.#writer.run("putRegistryDocument", document);
  }

  async findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined> {
    const row = this.#prepared("SELECT * FROM registry_documents WHERE download_id = ?").get(downloadId) as
      Row | undefined;
    return row && toRegistryDocument(row);
  }

  async insertOfficialSearch(search: OfficialSearchRow): Promise<boolean> {
    return this.#writer.run("insertOfficialSearch", search);
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
    return this.#writer.run("insertAttachment", attachment);
  }

  async pendingAttachments(limit: number): Promise<AttachmentRow[]> {
    const rows = this.#prepared("SELECT * FROM attachments WHERE status = 'PENDING' ORDER BY id LIMIT ?").all(
      limit,
    ) as Row[];
    return rows.map(toAttachment);
  }

  async resolveAttachment(
    id: number,
    outcome: { status: "ATTACHED" | "FAILED"; failureReason: string | null },
    notifications: NotificationRow[],
  ): Promise<boolean> {
    return this.#writer.run("resolveAttachment", id, outcome, notifications);
  }

  async getSetting<T>(key: string): Promise<T | undefined> {
    const value = this.#prepared("SELECT value FROM settings WHERE key = ?").pluck().get(key);
    return value === undefined ? undefined : parse<T>(value);
  }

  async putSetting(key: string, value: unknown): Promise<void> {
    return this.#writer.run("putSetting", key, json(value));
  }

  async updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }): Promise<R> {
    // Read here, changed here, written by the writer thread only if nothing changed the value in between (else read
    // again), and not at all when the change keeps the value (a submission asks for a scheduled fault each time);
    // the changes of one key from this gateway queue behind each other, so they do not collide.
    const previous = this.#settingChanges.get(key) ?? Promise.resolve();
    const update = previous.then(async () => {
      for (;;) {
        const stored = this.#prepared("SELECT value FROM settings WHERE key = ?").pluck().get(key);
        const expected = stored === undefined ? null : String(stored);
        const { value, answer } = change(expected === null ? undefined : parse<T>(expected));
        const written = json(value);
        if (written === expected || (await this.#writer.run("replaceSetting", key, expected, written))) return answer;
      }
    });
    const settled = update.then(
      () => undefined,
      () => undefined,
    );
    this.#settingChanges.set(key, settled);
    void settled.then(() => {
      if (this.#settingChanges.get(key) === settled) this.#settingChanges.delete(key);
    });
    return update;
  }

  async appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): Promise<number> {
    return this.#writer.run("appendAuditEntry", entry, keepPerActor);
  }

  async listAuditEntries(query: AuditQuery): Promise<AuditEntryRow[]> {
    const { where, values } = auditWhere(query, () => "?");
    const rows = this.#prepared(`SELECT * FROM audit_entries ${where} ORDER BY seq LIMIT ?`).all(
      ...values,
      query.limit,
    ) as Row[];
    return rows.map(toAuditEntry);
  }

  async startReadinessRun(run: ReadinessRunRow, stimulus: ReadinessStimulusRows): Promise<boolean> {
    return this.#writer.run("startReadinessRun", run, stimulus);
  }

  async findReadinessRun(id: string): Promise<ReadinessRunRow | undefined> {
    const row = this.#prepared("SELECT * FROM readiness_runs WHERE id = ?").get(id) as Row | undefined;
    return row && toReadinessRun(row);
  }

  async listReadinessRuns(query: { businessUnitId?: string; limit: number }): Promise<ReadinessRunRow[]> {
    const rows = (
      query.businessUnitId === undefined
        ? this.#prepared("SELECT * FROM readiness_runs ORDER BY started_ms DESC, rowid DESC LIMIT ?").all(query.limit)
        : this.#prepared(
            "SELECT * FROM readiness_runs WHERE business_unit_id = ? ORDER BY started_ms DESC, rowid DESC LIMIT ?",
          ).all(query.businessUnitId, query.limit)
    ) as Row[];
    return rows.map(toReadinessRun);
  }

  async runningReadinessRuns(): Promise<ReadinessRunRow[]> {
    return (this.#prepared("SELECT * FROM readiness_runs WHERE status = 'running'").all() as Row[]).map(toReadinessRun);
  }

  async endReadinessRun(id: string, end: ReadinessRunEnd): Promise<boolean> {
    return this.#writer.run("endReadinessRun", id, end);
  }

  async appendReadinessObservations(
    observations: readonly Omit<ReadinessObservationRow, "sequence">[],
    keepPerRun: number,
  ): Promise<boolean[]> {
    const texts = observations.map(({ runId, businessUnitId, ...observation }) => ({
      runId,
      businessUnitId,
      text: JSON.stringify(observation),
    }));
    return this.#writer.run("appendReadinessObservations", texts, keepPerRun);
  }

  async readinessObservations(runId: string): Promise<ReadinessObservationRow[]> {
    // A batch written before observations kept the answer's code and detail and a submission's case has none of them.
    type Kept = Omit<
      ReadinessObservationRow,
      "sequence" | "runId" | "businessUnitId" | "answerCode" | "answerDetail" | "submissionCase"
    > &
      Partial<Pick<ReadinessObservationRow, "answerCode" | "answerDetail" | "submissionCase">>;
    const batches = this.#prepared(
      "SELECT first_sequence, business_unit_id, observations FROM readiness_observations WHERE run_id = ? ORDER BY first_sequence",
    ).all(runId) as { first_sequence: number; business_unit_id: string; observations: string }[];
    return batches.flatMap((batch) =>
      parse<Kept[]>(batch.observations).map((observation, index) => ({
        runId,
        businessUnitId: batch.business_unit_id,
        sequence: Number(batch.first_sequence) + index,
        ...observation,
        answerCode: observation.answerCode ?? null,
        answerDetail: observation.answerDetail ?? null,
        submissionCase: observation.submissionCase ?? null,
      })),
    );
  }

  async reset(): Promise<void> {
    return this.#writer.run("reset");
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
          help: "Writes sent to the writer thread and not yet answered.",
          type: "gauge",
          value: this.#writer.pending,
        },
        {
          name: "group_commits_total",
          help: "Transactions of the group commit, each holding the writes that were waiting for it.",
          type: "counter",
          value: this.#writer.groupCommits,
        },
        {
          name: "page_cache_limit_bytes",
          help: "Most bytes of the file's pages the writing connection keeps in memory (LRG_SQLITE_CACHE_MIB).",
          type: "gauge",
          value: this.#cacheMib * 1024 * 1024,
        },
        {
          name: "wal_flushes_total",
          help: "Flushes of the WAL to disk that writes waited for (one per group commit, or fewer under load).",
          type: "counter",
          value: this.#writer.walFlushes,
        },
      ],
    };
  }

  /** The file answers a read, and the writer thread is there to write. */
  async ping(): Promise<boolean> {
    return this.#writer.running && this.#prepared("SELECT 1").pluck().get() === 1;
  }

  /**
   * The writer thread runs, the data directory's disk has MIN_FREE_BYTES left (in WAL mode a small update may still
   * fit in the log's space on a full disk, while the next insert needs new pages), and writes succeed: after a write
   * failed for the store's sake, the heartbeat row must be written again (within HEARTBEAT_WAIT_MS). A write merely
   * waiting for the file's lock is no failure: no heartbeat is queued behind it then.
   */
  async canWrite(): Promise<boolean> {
    if (!this.#writer.running) return false;
    try {
      const disk = await statfs(this.#dataDir);
      if (disk.bavail * disk.bsize < MIN_FREE_BYTES) return false;
      if (!this.#writer.failing) return true;
      const beat = this.#writer.run("beat", Date.now()).then(
        () => true,
        () => false,
      );
      return await Promise.race([beat, sleep(HEARTBEAT_WAIT_MS).then(() => false)]);
    } catch {
      return false;
    }
  }

  async close(): Promise<void> {
    await this.#writer.close();
    await this.#checkpointer.close();
    // The last connection to close checkpoints what is left.
    if (this.#db.open) this.#db.close();
  }

  /** `PRAGMA integrity_check`, for the crash-recovery tests. */
  integrityCheck(): string {
    return String(this.#db.pragma("integrity_check", { simple: true }));
  }
}
