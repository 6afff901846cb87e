import type {
  AuditEntryRow,
  AuditQuery,
  ApplicationChange,
  ApplicationRow,
  BusinessUnitRow,
  IdempotencyClaim,
  NotificationListing,
  SubmitOutcome,
  UnitSandboxState,
  AttachmentRow,
  CorrespondenceRow,
  DocumentRow,
  OfficialSearchRow,
  PrioritySearch,
  RegistryDocumentRow,
  UserRow,
} from "./storage.js";

/** Rows of either store to the storage's records: both keep the same columns, JSON as text, instants as numbers. */
export const json = (value: unknown): string => JSON.stringify(value);
export const parse = <T>(text: unknown): T => JSON.parse(String(text)) as T;

/**
 * The tables holding a business unit's own records, children before their parents, each with its `business_unit_id`:
 * what a reset of one unit deletes (its correspondence goes first, by its applications; the store parts' tables before
 * all of them).
 */
export const UNIT_RECORD_TABLES = [
  "attachments",
  "official_searches",
  "notifications",
  "idempotency_keys",
  "registry_documents",
  "documents",
  "applications",
] as const;

/** A row as a driver answers it: column names to values. */
export type Row = Record<string, unknown>;

export function toBusinessUnit(row: Row): BusinessUnitRow {
  return {
    id: String(row["id"]),
    name: String(row["name"]),
    createdMs: Number(row["created_ms"]),
    tokenHash: (row["token_hash"] as string | null | undefined) ?? null,
  };
}

export function toUser(row: Row): UserRow {
  return {
    username: String(row["username"]),
    businessUnitId: String(row["business_unit_id"]),
    passwordHash: String(row["password_hash"]),
    createdMs: Number(row["created_ms"]),
  };
}

/** A notification list's row as both stores select it, its columns in this order (one version's type, schema, payload). */
export type ListingColumns = [
  id: string,
  applicationId: string,
  type: string,
  schema: string,
  payloadJson: string,
  eventMs: number,
  createdMs: number,
  status: NotificationListing["status"],
  additionalProviderFilter: string | null,
];

export function toNotificationListing([
  id,
  applicationId,
  type,
  schema,
  payloadJson,
  eventMs,
  createdMs,
  status,
  additionalProviderFilter,
]: ListingColumns): NotificationListing {
  return { id, applicationId, type, schema, payloadJson, eventMs, createdMs, status, additionalProviderFilter };
}

export function toUnitSandboxState(row: Row): UnitSandboxState {
  const offset = row["clock_offset_ms"];
  return {
    businessUnitId: String(row["id"]),
    clockOffsetMs: offset === null || offset === undefined ? null : Number(offset),
    settings: row["settings"] === null || row["settings"] === undefined ? null : parse(row["settings"]),
  };
}

export function toApplication(row: Row): ApplicationRow {
  return {
    id: String(row["id"]),
    businessUnitId: String(row["business_unit_id"]),
    status: String(row["status"]),
    registryReference: (row["registry_reference"] as string | null) ?? null,
    priorityMs: (row["priority_ms"] as number | null) ?? null,
    additionalProviderFilter: (row["additional_provider_filter"] as string | null) ?? null,
    submission: parse(row["submission"]),
    errors: parse(row["errors"]),
    warnings: parse(row["warnings"]),
    earlyCompletion: row["early_completion"] === 1,
    createdMs: Number(row["created_ms"]),
    updatedMs: Number(row["updated_ms"]),
    decideAtMs: (row["decide_at_ms"] as number | null) ?? null,
  };
}

export function toDocument(row: Row): DocumentRow {
  return {
    id: String(row["id"]),
    businessUnitId: String(row["business_unit_id"]),
    documentType: String(row["document_type"]),
    fileLength: Number(row["file_length"]),
    fileSha256: String(row["file_sha256"]),
    status: row["status"] as DocumentRow["status"],
    failureReason: (row["failure_reason"] as string | null) ?? null,
    createdMs: Number(row["created_ms"]),
    expiresMs: Number(row["expires_ms"]),
  };
}

export function toRegistryDocument(row: Row): RegistryDocumentRow {
  return {
    downloadId: String(row["download_id"]),
    businessUnitId: String(row["business_unit_id"]),
    applicationId: (row["application_id"] as string | null) ?? null,
    code: String(row["code"]),
    name: String(row["name"]),
    contentType: String(row["content_type"]),
    size: Number(row["size"]),
    createdMs: Number(row["created_ms"]),
  };
}

export function toOfficialSearch(row: Row): OfficialSearchRow {
  return {
    id: String(row["id"]),
    businessUnitId: String(row["business_unit_id"]),
    username: String(row["username"]),
    messageId: String(row["message_id"]),
    titleNumber: String(row["title_number"]),
    priorityType: String(row["priority_type"]),
    applicant: String(row["applicant"]),
    receivedMs: Number(row["received_ms"]),
    readyMs: Number(row["ready_ms"]),
    certificateMs: Number(row["certificate_ms"]),
    priorityExpiryDate: String(row["priority_expiry_date"]),
    deferred: row["deferred"] === null ? null : parse(row["deferred"]),
    result: parse(row["result"]),
  };
}

export function toPrioritySearch(row: Row): PrioritySearch {
  return {
    certificateMs: Number(row["certificate_ms"]),
    priorityType: String(row["priority_type"]),
    applicant: String(row["applicant"]),
  };
}

export function toAttachment(row: Row): AttachmentRow {
  return {
    id: Number(row["id"]),
    applicationId: String(row["application_id"]),
    businessUnitId: String(row["business_unit_id"]),
    kind: row["kind"] as AttachmentRow["kind"],
    documentId: (row["document_id"] as string | null) ?? null,
    certificationStatementType: (row["certification_statement_type"] as string | null) ?? null,
    messageText: (row["message_text"] as string | null) ?? null,
    status: row["status"] as AttachmentRow["status"],
    failureReason: (row["failure_reason"] as string | null) ?? null,
    createdMs: Number(row["created_ms"]),
  };
}

export function toCorrespondence(row: Row): CorrespondenceRow {
  return {
    recordId: String(row["record_id"]),
    applicationId: String(row["application_id"]),
    documents: parse(row["documents"]),
    createdMs: Number(row["created_ms"]),
  };
}

export function toAuditEntry(row: Row): AuditEntryRow {
  return {
    sequence: Number(row["seq"]),
    recordedMs: Number(row["recorded_ms"]),
    clockMs: Number(row["clock_ms"]),
    actorKind: row["actor_kind"] as AuditEntryRow["actorKind"],
    actorUnit: String(row["actor_unit"]),
    operationId: String(row["operation_id"]),
    method: String(row["method"]),
    path: String(row["path"]),
    requestBody: row["request_body"] === null ? null : parse(row["request_body"]),
    status: Number(row["status"]),
    problemCode: (row["problem_code"] as string | null) ?? null,
    requestId: String(row["request_id"]),
  };
}

/** The WHERE clause of an audit query, its placeholders numbered by `placeholder` (`?` or `$n`), and its values. */
export function auditWhere(
  query: AuditQuery,
  placeholder: (index: number) => string,
): { where: string; values: (string | number)[] } {
  const conditions: string[] = [];
  const values: (string | number)[] = [];
  const add = (sql: string, value: string | number) => {
    values.push(value);
    conditions.push(`${sql} ${placeholder(values.length)}`);
  };
  if (query.afterSequence !== undefined) add("seq >", query.afterSequence);
  if (query.actorKind !== undefined) add("actor_kind =", query.actorKind);
  if (query.actorUnit !== undefined) add("actor_unit =", query.actorUnit);
  if (query.operationId !== undefined) add("operation_id =", query.operationId);
  if (query.recordedAfterMs !== undefined) add("recorded_ms >", query.recordedAfterMs);
  return { where: conditions.length > 0 ? `WHERE ${conditions.join(" AND ")}` : "", values };
}

/**
 * Deletes an actor's audit entries beyond its newest N (the N+1th newest and every older one), with the actor given
 * twice and N last: one range of the `audit_entries_by_actor` index per entry recorded.
 */
export function auditRetention(placeholder: (index: number) => string): string {
  const [kind, unit, kindAgain, unitAgain, keep] = [1, 2, 3, 4, 5].map(placeholder);
  return `DELETE FROM audit_entries WHERE actor_kind = ${kind} AND actor_unit = ${unit} AND seq <= (
    SELECT seq FROM audit_entries WHERE actor_kind = ${kindAgain} AND actor_unit = ${unitAgain} ORDER BY seq DESC LIMIT 1 OFFSET ${keep})`;
}

/** A business unit's applications that completed early, oldest first: read through migration 8's partial index. */
export const earlyCompleted = (unit: string): string =>
  `SELECT * FROM applications WHERE business_unit_id = ${unit} AND status = 'COMPLETED' AND early_completion = 1
   ORDER BY created_ms`;

/** The column of each application field a change may patch (`ApplicationChange`), in both stores. */
export const APPLICATION_COLUMNS: Record<keyof ApplicationChange["patch"], string> = {
  status: "status",
  registryReference: "registry_reference",
  priorityMs: "priority_ms",
  errors: "errors",
  warnings: "warnings",
  earlyCompletion: "early_completion",
  decideAtMs: "decide_at_ms",
};

/** The INSERT of a new application and its values in order, written with the store's `placeholder`s. */
export function applicationInsert(
  application: ApplicationRow,
  placeholder: (index: number) => string,
): { sql: string; values: (string | number | null)[] } {
  const values = [
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
  ];
  return {
    sql: `INSERT INTO applications (id, business_unit_id, status, registry_reference, priority_ms, additional_provider_filter, submission, errors, warnings, early_completion, created_ms, updated_ms, decide_at_ms)
      VALUES (${values.map((_, index) => placeholder(index + 1)).join(", ")})`,
    values,
  };
}

/** The query of an idempotency key's row with the status of the application it names (`placeholder` by position). */
export const idempotencyKeySelect = (placeholder: (index: number) => string): string =>
  `SELECT k.request_hash, k.application_id, a.status FROM idempotency_keys k JOIN applications a ON a.id = k.application_id
   WHERE k.business_unit_id = ${placeholder(1)} AND k.key = ${placeholder(2)}`;

/**
 * What a store does with a claim, given the key's row as `idempotencyKeySelect` finds it: answer at once (the
 * application the key names, or a conflict), or insert the new application with the key, `replacing` a released one.
 */
export function claimStep(
  seen: Row | undefined,
  claim: IdempotencyClaim,
): { answer: SubmitOutcome } | { insert: true; replacing: boolean } {
  if (seen === undefined) return { insert: true, replacing: false };
  if (claim.releasedBy.includes(String(seen["status"]))) return { insert: true, replacing: true };
  return {
    answer:
      seen["request_hash"] === claim.requestHash
        ? { kind: "replayed", applicationId: String(seen["application_id"]) }
        : { kind: "conflict" },
  };
}
