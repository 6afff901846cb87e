import type { RegistryOperations } from "../operation-types.js";

/**
 * The gateway's storage, as narrow as the domain needs. Every method is asynchronous so that a PostgreSQL
 * implementation can follow the embedded SQLite one; every multi-row change is one transaction.
 */
export interface Storage {
  createBusinessUnit(unit: BusinessUnitRow, user: UserRow): Promise<void>;
  findBusinessUnit(id: string): Promise<BusinessUnitRow | undefined>;
  findUser(username: string): Promise<UserRow | undefined>;
  setPasswordHash(username: string, passwordHash: string): Promise<void>;
  /** The business unit whose sandbox token has this hash (SHA-256, hex), if any. */
  findBusinessUnitByTokenHash(tokenHash: string): Promise<BusinessUnitRow | undefined>;
  /**
   * Replaces a business unit's sandbox token hash (the old token stops working at once, on every instance: tokens are
   * looked up in the store on each request); false when there is no such unit.
   */
  setTokenHash(businessUnitId: string, tokenHash: string): Promise<boolean>;
  /** The own clock offset and settings of every business unit that set either (see `UnitSandboxState`). */
  unitSandboxStates(): Promise<UnitSandboxState[]>;
  /** Records a unit's own clock offset and settings (null: it follows the global one). Announced as a state change. */
  putUnitSandboxState(state: UnitSandboxState): Promise<void>;
  /**
   * Deletes one business unit's applications (their correspondence, attachments, idempotency keys), documents,
   * generated documents, notifications and official searches, the settings whose key matches one of `settingKeysLike`
   * (SQL LIKE patterns: the unit's rate-limit buckets), and its own clock and settings; the unit, its users and its
   * token stay.
   */
  resetBusinessUnit(businessUnitId: string, settingKeysLike: string[]): Promise<void>;

  /**
   * Inserts an application and its idempotency key together, in one transaction; answers the existing id when the key
   * was seen (or a conflict, for another request), unless the application it names has one of the claim's
   * `releasedBy` statuses: the key then names the new application.
   */
  submitApplication(application: ApplicationRow, claim: IdempotencyClaim): Promise<SubmitOutcome>;
  findApplication(id: string, businessUnitId?: string): Promise<ApplicationRow | undefined>;
  /**
   * Applications still VALIDATING whose automatic decision is due by their business unit's clock (its own offset,
   * else `reading.globalOffsetMs`), in units whose processing (their own setting, else `reading.processing`) is
   * automatic.
   */
  applicationsDue(reading: DueReading, limit: number): Promise<ApplicationRow[]>;
  applicationsWithStatus(status: string): Promise<ApplicationRow[]>;
  /** How many applications have `status` (of one business unit, when given), counted by the store. */
  countApplications(status: string, businessUnitId?: string): Promise<number>;
  /** The unit's COMPLETED applications that completed early, oldest first. */
  earlyCompletedApplications(businessUnitId: string): Promise<ApplicationRow[]>;
  /** Applies a change to an application only if it still has `fromStatus`, with its notifications and correspondence. */
  changeApplication(change: ApplicationChange): Promise<boolean>;
  correspondenceOf(applicationId: string): Promise<CorrespondenceRow[]>;

  /** One version's view of the matching notifications, oldest first, payloads as stored JSON text. */
  listNotifications(query: NotificationQuery): Promise<NotificationListing[]>;
  /**
   * Marks the unit's notifications with these ids ACKNOWLEDGED; answers the ids that exist. `nowMs`, the instant, is
   * kept where the store can keep it cheaply (SQLite); no answer shows it.
   */
  acknowledgeNotifications(businessUnitId: string, ids: string[], nowMs: number): Promise<string[]>;
  /**
   * Deletes notifications created before the given instant (of one business unit, or of the units that follow the
   * global clock; of every unit when `scope` is absent); answers how many.
   */
  purgeNotifications(createdBeforeMs: number, scope?: PurgeScope): Promise<number>;

  insertDocument(document: DocumentRow): Promise<void>;
  findDocument(id: string, businessUnitId?: string): Promise<DocumentRow | undefined>;
  /** Moves a document from AWAITING_UPLOAD to UPLOADED; false when it was uploaded already (single use). */
  completeUpload(id: string, nowMs: number): Promise<boolean>;
  /** Records the outcome of a document's asynchronous checks. */
  recordDocumentCheck(id: string, status: "ACCEPTED" | "REJECTED", failureReason: string | null): Promise<void>;
  /** Documents whose bytes arrived but whose checks have not finished (resumed after a restart). */
  documentsAwaitingCheck(): Promise<DocumentRow[]>;
  putRegistryDocument(document: RegistryDocumentRow): Promise<void>;
  findRegistryDocument(downloadId: string): Promise<RegistryDocumentRow | undefined>;

  /** Records an official search; answers false (and records nothing) when the user already used its `message_id`. */
  insertOfficialSearch(search: OfficialSearchRow): Promise<boolean>;
  /** The user's official search with this `message_id`, if any. */
  findOfficialSearch(
    businessUnitId: string,
    username: string,
    messageId: string,
  ): Promise<OfficialSearchRow | undefined>;
  /**
   * The business unit's searches of a title certified before `beforeMs` whose priority lasts at least until
   * `onDate` (a London date), oldest first.
   */
  searchesWithPriority(
    businessUnitId: string,
    titleNumber: string,
    beforeMs: number,
    onDate: string,
    limit: number,
  ): Promise<PrioritySearch[]>;

  /** Records an attachment (a document or a message) PENDING; answers its number, the registry's `attachment_id`. */
  insertAttachment(attachment: Omit<AttachmentRow, "id" | "status" | "failureReason">): Promise<number>;
  /** Attachments whose outcome is not decided yet, oldest first. */
  pendingAttachments(limit: number): Promise<AttachmentRow[]>;
  /** Decides a PENDING attachment together with the notification it emits; false when it was decided already. */
  resolveAttachment(
    id: number,
    outcome: { status: "ATTACHED" | "FAILED"; failureReason: string | null },
    notifications: NotificationRow[],
  ): Promise<boolean>;

  getSetting<T>(key: string): Promise<T | undefined>;
  putSetting(key: string, value: unknown): Promise<void>;
  /**
   * Reads, changes and writes one setting atomically, even against other instances on the same store (counters
   * such as rate-limit buckets and scheduled faults); answers what `change` answered. Announces nothing. A change
   * that keeps the value as it was writes nothing. `change` may be called more than once: it must only compute.
   */
  updateSetting<T, R>(key: string, change: (current: T | undefined) => { value: T; answer: R }): Promise<R>;

  /**
   * Appends an entry to the control plane's audit trail and deletes that actor's entries beyond its newest
   * `keepPerActor` (retention); answers the entry's sequence number.
   */
  appendAuditEntry(entry: Omit<AuditEntryRow, "sequence">, keepPerActor: number): Promise<number>;
  /** Audit entries that match, oldest first (by sequence). */
  listAuditEntries(query: AuditQuery): Promise<AuditEntryRow[]>;

  /**
   * Starts a readiness run and raises its stimulus (applications, their notifications, correspondence and registry
   * documents) in one transaction, unless the unit has a running run already: then nothing is written and the answer
   * is false. Announced as a state change.
   */
  startReadinessRun(run: ReadinessRunRow, stimulus: ReadinessStimulusRows): Promise<boolean>;
  findReadinessRun(id: string): Promise<ReadinessRunRow | undefined>;
  /** Readiness runs, newest first (of one business unit, when given). */
  listReadinessRuns(query: { businessUnitId?: string; limit: number }): Promise<ReadinessRunRow[]>;
  /** Every running readiness run (the gateway caches which units have one). */
  runningReadinessRuns(): Promise<ReadinessRunRow[]>;
  /** Ends a running run with its verdicts; false (and nothing written) when it had ended. Announced as a state change. */
  endReadinessRun(id: string, end: ReadinessRunEnd): Promise<boolean>;
  /**
   * Keeps observations of running runs, in one transaction and in their order, each numbered after its run's last,
   * unless its run holds `keepPerRun` already (then it is counted as dropped) or is no longer running (nothing is
   * written); answers, for each, whether it was kept. The observer hands over every observation made while the
   * previous batch was being written (a group commit).
   */
  appendReadinessObservations(
    observations: readonly Omit<ReadinessObservationRow, "sequence">[],
    keepPerRun: number,
  ): Promise<boolean[]>;
  /** A run's observations, oldest first. */
  readinessObservations(runId: string): Promise<ReadinessObservationRow[]>;

  /**
   * Deletes every business unit, application, notification, document, official search, readiness run and setting. The audit trail
   * stays: a reset is an action to account for, not a reason to forget the others.
   */
  reset(): Promise<void>;
  /**
   * Hears, after each commit, which business unit's notifications changed (null: possibly every unit's), so that
   * what was derived from them can be dropped.
   */
  onNotificationsChanged(listener: (businessUnitId: string | null) => void): void;
  /**
   * Hears, after another instance commits a change of the sandbox state (settings, clock, day list, scheduled
   * faults) or of a password, so that this one reads the state again and forgets the credentials it remembers.
   */
  onStateChanged(listener: () => Promise<void>): void;
  /**
   * Waits until every change another instance committed before this call has reached this instance's listeners
   * and their reloads finished: after it, a request sees whatever an earlier answered request changed anywhere.
   */
  sync(): Promise<void>;
  /**
   * Runs a background job (`processing`: decisions and attachments; `retention`: the purge) unless another instance
   * on the same store is running it; answers whether it ran.
   */
  exclusively(job: "processing" | "retention", work: () => Promise<void>): Promise<boolean>;
  /** Which store this is, and its connection and query figures (for `/readyz` and `/metrics`). */
  describe(): StoreFigures;
  /** Answers when the store can serve requests. */
  ping(): Promise<boolean>;
  /**
   * Answers whether the store accepts a write now: a heartbeat row is written (false when the disk is full or
   * read-only, the database is unreachable or refuses writes). For `/readyz`.
   */
  canWrite(): Promise<boolean>;
  close(): Promise<void>;
}

/** What `/readyz` and `/metrics` say of the store: its kind and figures named for Prometheus (`lrg_db_` + name). */
export interface StoreFigures {
  database: "sqlite" | "postgresql";
  figures: { name: string; help: string; type: "gauge" | "counter"; value: number }[];
}

export interface BusinessUnitRow {
  id: string;
  name: string;
  createdMs: number;
  /** SHA-256 (hex) of the unit's sandbox token; null for a unit created before unit tokens (rotate to get one). */
  tokenHash?: string | null;
}

/** What a business unit set for itself on the control plane with its token; null where it follows the global one. */
export interface UnitSandboxState {
  businessUnitId: string;
  clockOffsetMs: number | null;
  /** The settings the unit set (a subset of SandboxSettings). */
  settings: Record<string, unknown> | null;
}

/** The global clock and processing at one instant, against which each unit's due decisions are found. */
export interface DueReading {
  /** Real time (`Date.now()`). */
  realMs: number;
  /** The global clock's offset, for units without their own. */
  globalOffsetMs: number;
  /** The global `processing` setting, for units that did not set their own. */
  processing: string;
}

/** Whose notifications a purge looks at: one unit's, or those of every unit that follows the global clock. */
export type PurgeScope = { businessUnitId: string } | "units-on-the-global-clock";

export interface UserRow {
  username: string;
  businessUnitId: string;
  passwordHash: string;
  createdMs: number;
}

export interface ApplicationRow {
  id: string;
  businessUnitId: string;
  status: string;
  registryReference: string | null;
  priorityMs: number | null;
  additionalProviderFilter: string | null;
  submission: unknown;
  errors: { type: string; detail: string; pointer: string | null }[];
  warnings: string[];
  earlyCompletion: boolean;
  createdMs: number;
  updatedMs: number;
  decideAtMs: number | null;
}

/** A submission's Idempotency-Key, as the applications service claims it for a new application. */
export interface IdempotencyClaim {
  key: string;
  /** The digest of the request: the same key with another request is a conflict. */
  requestHash: string;
  /** The statuses that release the key from the application it names (the service's rule, not the store's). */
  releasedBy: readonly string[];
}

export type SubmitOutcome =
  { kind: "created"; applicationId: string } | { kind: "replayed"; applicationId: string } | { kind: "conflict" };

export interface NotificationRow {
  id: string;
  businessUnitId: string;
  applicationId: string;
  v1Type: string;
  v0Type: string | null;
  v1Payload: unknown;
  v0Payload: unknown;
  v1Schema: string;
  v0Schema: string | null;
  eventMs: number;
  createdMs: number;
  status: "NEW" | "ACKNOWLEDGED";
  additionalProviderFilter: string | null;
}

/** A notification as one version lists it; `payloadJson` is the stored `payload.data`, not parsed. */
export interface NotificationListing {
  id: string;
  applicationId: string;
  type: string;
  schema: string;
  payloadJson: string;
  eventMs: number;
  createdMs: number;
  status: "NEW" | "ACKNOWLEDGED";
  additionalProviderFilter: string | null;
}

/** What a readiness run writes for its stimulus at its start (the registry documents' bytes are stored before). */
export interface ReadinessStimulusRows {
  applications: ApplicationRow[];
  notifications: NotificationRow[];
  correspondence?: CorrespondenceRow[];
  registryDocuments?: RegistryDocumentRow[];
}

export interface CorrespondenceRow {
  recordId: string;
  applicationId: string;
  documents: unknown[];
  createdMs: number;
}

export interface ApplicationChange {
  applicationId: string;
  fromStatus: string;
  patch: Partial<
    Pick<
      ApplicationRow,
      "status" | "registryReference" | "priorityMs" | "errors" | "warnings" | "earlyCompletion" | "decideAtMs"
    >
  >;
  updatedMs: number;
  notifications: NotificationRow[];
  correspondence?: CorrespondenceRow;
}

/** The filters of the notification lists, as both versions' operations type them (the spec's parameters). */
type ListFilters = NonNullable<
  RegistryOperations["listNotificationsV0" | "listNotificationsV1"]["parameters"]["query"]
>;

/** A list of one unit's notifications: the filters of the list operations, date-times read as instants. */
export interface NotificationQuery {
  businessUnitId: string;
  version: "v0" | "v1";
  /** Only notifications with this status; every status when absent. */
  status?: NonNullable<ListFilters["status"]>;
  createdAfterMs?: number;
  createdBeforeMs?: number;
  occurredAfterMs?: number;
  occurredBeforeMs?: number;
  notificationType?: NonNullable<ListFilters["notification_type"]>;
  subject?: NonNullable<ListFilters["subject"]>;
  /** null: only notifications of applications submitted without a label. */
  additionalProviderFilter: NonNullable<ListFilters["additional_provider_filter"]> | null;
  limit: number;
}

export interface DocumentRow {
  id: string;
  businessUnitId: string;
  documentType: string;
  fileLength: number;
  fileSha256: string;
  status: "AWAITING_UPLOAD" | "UPLOADED" | "ACCEPTED" | "REJECTED";
  failureReason: string | null;
  createdMs: number;
  expiresMs: number;
}

/** A document or message attached to an application after its submission. */
export interface AttachmentRow {
  id: number;
  applicationId: string;
  businessUnitId: string;
  kind: "DOCUMENT" | "MESSAGE";
  documentId: string | null;
  certificationStatementType: string | null;
  messageText: string | null;
  status: "PENDING" | "ATTACHED" | "FAILED";
  failureReason: string | null;
  createdMs: number;
}

export interface RegistryDocumentRow {
  downloadId: string;
  businessUnitId: string;
  applicationId: string | null;
  code: string;
  name: string;
  contentType: string;
  size: number;
  createdMs: number;
}

/** One official search that was answered 201 or 202, kept so that the Poll Request Service can answer it again. */
export interface OfficialSearchRow {
  id: string;
  businessUnitId: string;
  username: string;
  messageId: string;
  titleNumber: string;
  priorityType: string;
  applicant: string;
  receivedMs: number;
  /** When the result may be answered; equal to `receivedMs` for a result given at once. */
  readyMs: number;
  certificateMs: number;
  priorityExpiryDate: string;
  /** The 202 body while the result is deferred; null for a result given at once. */
  deferred: unknown;
  /** The 201 body, answered by the Poll Request Service from `readyMs` on. */
  result: unknown;
}

/** A search of the same title that still has priority. */
export interface PrioritySearch {
  certificateMs: number;
  priorityType: string;
  applicant: string;
}

/** One control-plane request as the audit trail keeps it (see `audit/`). */
export interface AuditEntryRow {
  sequence: number;
  recordedMs: number;
  /** The acting unit's sandbox clock (the gateway's clock for the admin and the unknown). */
  clockMs: number;
  actorKind: "admin" | "unit" | "unknown";
  /** The acting business unit; "" unless `actorKind` is `unit` (a plain value, so that equality works alike in both stores). */
  actorUnit: string;
  operationId: string;
  method: string;
  path: string;
  /** The redacted summary of the JSON body sent, or null. */
  requestBody: Record<string, unknown> | null;
  status: number;
  problemCode: string | null;
  requestId: string;
}

/** A readiness run of one business unit (see `readiness/`); instants by the unit's sandbox clock. */
export interface ReadinessRunRow {
  id: string;
  businessUnitId: string;
  checks: string[];
  timeLimitSeconds: number;
  startedMs: number;
  deadlineMs: number;
  status: "running" | "finished" | "cancelled";
  endedMs: number | null;
  /** What the run raised for its checks (plain JSON, see `readiness/stimulus.ts`). */
  stimulus: unknown;
  /** The checks' verdicts once the run ended (plain JSON); null while it runs. */
  result: unknown;
  observationCount: number;
  observationsDropped: number;
}

/** How a readiness run ends. */
export interface ReadinessRunEnd {
  status: "finished" | "cancelled";
  endedMs: number;
  result: unknown;
}

/** One request of a unit's software to the registry interface, observed during its readiness run. */
export interface ReadinessObservationRow {
  runId: string;
  businessUnitId: string;
  /** From 1, in the order kept. */
  sequence: number;
  /** When it was answered, by the unit's sandbox clock. */
  clockMs: number;
  method: string;
  operationId: string;
  /** The query parameters, redacted and cut (see `readiness/observer.ts`). */
  query: Record<string, string>;
  status: number;
  credentialsSent: boolean;
  /** The ids an acknowledge call sent (the first 100), else null. */
  acknowledgedIds: string[] | null;
  /** How many ids an acknowledge call sent, else null. */
  acknowledgedCount: number | null;
  idempotencyKey: string | null;
  /** The path parameters (which application, document or download), redacted and cut as the query. */
  pathParameters: Record<string, string>;
  /** The answer's `Retry-After` in whole seconds (a 429, a 503, a deferred search's 202), else null. */
  retryAfterSeconds: number | null;
  /** An error answer's code (problem `code`, or the registry envelope's first item's), else null. */
  answerCode: string | null;
  /** An error answer's detail (the problem's, or the envelope's first item's), cut to 200 characters, else null. */
  answerDetail: string | null;
  /** For a submission, the case it is for (the members by which a resubmission is the same application), else null. */
  submissionCase: SubmissionCase | null;
}

/** What makes two submissions the same application: its type, the customer's reference and the title numbers. */
export interface SubmissionCase {
  type: string;
  customerReference: string;
  /** Sorted, upper case. */
  titleNumbers: string[];
}

/** Which audit entries to list; every filter given must hold. */
export interface AuditQuery {
  afterSequence?: number;
  actorKind?: AuditEntryRow["actorKind"];
  actorUnit?: string;
  operationId?: string;
  recordedAfterMs?: number;
  limit: number;
}
