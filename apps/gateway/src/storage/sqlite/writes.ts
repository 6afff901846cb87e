import type {
  AttachmentRow,
  AuditEntryRow,
  ApplicationChange,
  ApplicationRow,
  BusinessUnitRow,
  CorrespondenceRow,
  DocumentRow,
  IdempotencyClaim,
  NotificationRow,
  OfficialSearchRow,
  PurgeScope,
  RegistryDocumentRow,
  SubmitOutcome,
  UnitSandboxState,
  UserRow,
} from "../storage.js";
import { statementsOf, type SqliteDatabase, type SqliteStatement } from "./driver.js";
import type { RecordWrites } from "./part-writes.js";
import {
  APPLICATION_COLUMNS,
  applicationInsert,
  auditRetention,
  claimStep,
  idempotencyKeySelect,
  json,
  UNIT_RECORD_TABLES,
  type Row,
} from "../rows.js";

/** `?, ?, ...`: one placeholder per value. */
const placeholders = (count: number): string => Array.from({ length: count }, () => "?").join(", ");

/** The store's own tables a reset empties, children before their parents (the parts' go first). */
const TABLES_OF_A_RESET = [
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
];

/**
 * The embedded store's writes, each one synchronous on the writing connection and run by the writer thread inside its
 * group commit (see writer-thread.ts): their arguments and answers cross between threads, so they are plain data.
 * Named as the Storage methods they carry out.
 */
export class SqliteWrites {
  readonly #db: SqliteDatabase;
  readonly #prepared: (sql: string) => SqliteStatement;
  readonly #insertNotification: SqliteStatement;
  readonly #insertNotificationStatus: SqliteStatement;
  /** The last creation instant given to a notification of each business unit (see #insert). */
  readonly #lastCreatedMs = new Map<string, number>();
  readonly #changedUnits = new Set<string | null>();
  /** The store parts' tables, children before their parents (see `StorePart.tables`). */
  readonly #partTables: readonly string[];
  /** The store's records as a part's write adds them in its transaction. */
  readonly records: RecordWrites = {
    insertApplication: (application) => {
      const insert = applicationInsert(application, () => "?");
      this.#prepared(insert.sql).run(...insert.values);
    },
    insertNotification: (notification) => this.#insert(notification),
    insertCorrespondence: (record) => this.#insertCorrespondence(record),
    putRegistryDocument: (document) => this.putRegistryDocument(document),
  };

  constructor(db: SqliteDatabase, partTables: readonly string[]) {
    this.#db = db;
    this.#partTables = partTables;
    this.#prepared = statementsOf(db);
    for (const [unit, last] of db
      .prepare("SELECT business_unit_id, MAX(created_ms) FROM notifications GROUP BY business_unit_id")
      .raw()
      .all() as [string, number][])
      this.#lastCreatedMs.set(unit, Number(last));
    this.#insertNotification = db.prepare(
      `INSERT INTO notifications (id, business_unit_id, application_id, v1_type, v0_type, v1_payload, v0_payload, v1_schema, v0_schema, event_ms, created_ms, additional_provider_filter)
       VALUES (@id, @businessUnitId, @applicationId, @v1Type, @v0Type, @v1Payload, @v0Payload, @v1Schema, @v0Schema, @eventMs, @createdMs, @additionalProviderFilter)`,
    );
    this.#insertNotificationStatus = db.prepare(
      "INSERT INTO notification_status (business_unit_id, status, created_ms, seq) VALUES (?, ?, ?, ?)",
    );
  }

  /** The units whose notifications changed since the last call (null: every unit). */
  takeChangedUnits(): (string | null)[] {
    const changed = [...this.#changedUnits];
    this.#changedUnits.clear();
    return changed;
  }

  /** Writes the heartbeat row (see `Storage.canWrite`). */
  beat(nowMs: number): void {
    this.#prepared(
      "INSERT INTO store_heartbeat (id, beat_ms) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET beat_ms = excluded.beat_ms",
    ).run(nowMs);
  }

  createBusinessUnit(unit: BusinessUnitRow, user: UserRow): void {
    this.#db.transaction(() => {
      this.#db
        .prepare("INSERT INTO business_units (id, name, created_ms, token_hash) VALUES (?, ?, ?, ?)")
        .run(unit.id, unit.name, unit.createdMs, unit.tokenHash ?? null);
      this.#db
        .prepare("INSERT INTO users (username, business_unit_id, password_hash, created_ms) VALUES (?, ?, ?, ?)")
        .run(user.username, user.businessUnitId, user.passwordHash, user.createdMs);
    })();
  }

  setTokenHash(businessUnitId: string, tokenHash: string): boolean {
    return (
      this.#db.prepare("UPDATE business_units SET token_hash = ? WHERE id = ?").run(tokenHash, businessUnitId)
        .changes === 1
    );
  }

  putUnitSandboxState(state: UnitSandboxState): void {
    this.#db
      .prepare("UPDATE business_units SET clock_offset_ms = ?, settings = ? WHERE id = ?")
      .run(state.clockOffsetMs, state.settings === null ? null : json(state.settings), state.businessUnitId);
  }

  resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): void {
    this.#db.transaction(() => {
      this.#changedUnits.add(businessUnitId);
      this.#db
        .prepare(
          "DELETE FROM correspondence WHERE application_id IN (SELECT id FROM applications WHERE business_unit_id = ?)",
        )
        .run(businessUnitId);
      this.#db.prepare("DELETE FROM notification_status WHERE business_unit_id = ?").run(businessUnitId);
      // Children before their parents: the foreign keys hold inside the transaction.
      for (const table of [...this.#partTables, ...UNIT_RECORD_TABLES]) {
        this.#db.prepare(`DELETE FROM ${table} WHERE business_unit_id = ?`).run(businessUnitId);
      }
      for (const pattern of settingKeysLike) this.#db.prepare("DELETE FROM settings WHERE key LIKE ?").run(pattern);
      this.#db
        .prepare("UPDATE business_units SET clock_offset_ms = NULL, settings = NULL WHERE id = ?")
        .run(businessUnitId);
    })();
  }

  setPasswordHash(username: string, passwordHash: string): void {
    this.#db.prepare("UPDATE users SET password_hash = ? WHERE username = ?").run(passwordHash, username);
  }

  submitApplication(application: ApplicationRow, claim: IdempotencyClaim): SubmitOutcome {
    return this.#db.transaction((): SubmitOutcome => {
      const seen = this.#db.prepare(idempotencyKeySelect(() => "?")).get(application.businessUnitId, claim.key) as
        Row | undefined;
      const step = claimStep(seen, claim);
      if ("answer" in step) return step.answer;
      if (step.replacing)
        this.#db
          .prepare("DELETE FROM idempotency_keys WHERE business_unit_id = ? AND key = ?")
          .run(application.businessUnitId, claim.key);
      this.records.insertApplication(application);
      this.#db
        .prepare(
          "INSERT INTO idempotency_keys (business_unit_id, key, request_hash, application_id) VALUES (?, ?, ?, ?)",
        )
        .run(application.businessUnitId, claim.key, claim.requestHash, application.id);
      return { kind: "created", applicationId: application.id };
    })();
  }

  changeApplication(change: ApplicationChange): boolean {
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
      if (change.correspondence) this.#insertCorrespondence(change.correspondence);
      for (const notification of change.notifications) this.#insert(notification);
      return true;
    })();
  }

  #insertCorrespondence(record: CorrespondenceRow): void {
    this.#prepared(
      "INSERT INTO correspondence (record_id, application_id, documents, created_ms) VALUES (?, ?, ?, ?)",
    ).run(record.recordId, record.applicationId, json(record.documents), record.createdMs);
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

  acknowledgeNotifications(businessUnitId: string, ids: string[], nowMs: number): string[] {
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
  }

  purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): number {
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
  }

  insertDocument(document: DocumentRow): void {
    this.#db
      .prepare(
        `INSERT INTO documents (id, business_unit_id, document_type, file_length, file_sha256, status, failure_reason, created_ms, expires_ms)
         VALUES (@id, @businessUnitId, @documentType, @fileLength, @fileSha256, @status, @failureReason, @createdMs, @expiresMs)`,
      )
      .run(document);
  }

  completeUpload(id: string): boolean {
    return (
      this.#db.prepare("UPDATE documents SET status = 'UPLOADED' WHERE id = ? AND status = 'AWAITING_UPLOAD'").run(id)
        .changes === 1
    );
  }

  recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): void {
    this.#db
      .prepare("UPDATE documents SET status = ?, failure_reason = ? WHERE id = ? AND status = 'UPLOADED'")
      .run(status, failureReason, id);
  }

  putRegistryDocument(document: RegistryDocumentRow): void {
    this.#db
      .prepare(
        `INSERT OR IGNORE INTO registry_documents (download_id, business_unit_id, application_id, code, name, content_type, size, created_ms)
         VALUES (@downloadId, @businessUnitId, @applicationId, @code, @name, @contentType, @size, @createdMs)`,
      )
      .run(document);
  }

  insertOfficialSearch(search: OfficialSearchRow): boolean {
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
  }

  insertAttachment(attachment: Omit<AttachmentRow, "id" | "status" | "failureReason">): number {
    const result = this.#db
      .prepare(
        `INSERT INTO attachments (application_id, business_unit_id, kind, document_id, certification_statement_type, message_text, status, created_ms)
         VALUES (@applicationId, @businessUnitId, @kind, @documentId, @certificationStatementType, @messageText, 'PENDING', @createdMs)`,
      )
      .run(attachment);
    return Number(result.lastInsertRowid);
  }

  resolveAttachment(
    id: number,
    outcome: { status: "ATTACHED" | "FAILED"; failureReason: string | null },
    notifications: NotificationRow[],
  ): boolean {
    return this.#db.transaction(() => {
      const changed = this.#db
        .prepare("UPDATE attachments SET status = ?, failure_reason = ? WHERE id = ? AND status = 'PENDING'")
        .run(outcome.status, outcome.failureReason, id).changes;
      if (changed !== 1) return false;
      for (const notification of notifications) this.#insert(notification);
      return true;
    })();
  }

  /** Stores `valueJson` under `key`. */
  putSetting(key: string, valueJson: string): void {
    this.#prepared(
      "INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ).run(key, valueJson);
  }

  /**
   * Stores `valueJson` under `key` only if the key still holds `expectedJson` (null: the key is absent): false, and
   * nothing written, when another write changed it since the caller read it.
   */
  replaceSetting(key: string, expectedJson: string | null, valueJson: string): boolean {
    const stored = this.#prepared("SELECT value FROM settings WHERE key = ?").pluck().get(key);
    if ((stored ?? null) !== expectedJson) return false;
    this.putSetting(key, valueJson);
    return true;
  }

  appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): number {
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
  }

  reset(): void {
    this.#db.transaction(() => {
      this.#changedUnits.add(null);
      for (const table of [...this.#partTables, ...TABLES_OF_A_RESET]) this.#db.exec(`DELETE FROM ${table}`);
    })();
  }
}

/** The writes the writer thread carries out, by name. */
export type WriteName = Exclude<keyof SqliteWrites, "takeChangedUnits" | "records">;
