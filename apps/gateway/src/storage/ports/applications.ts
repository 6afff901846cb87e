import type { NotificationRow } from "./notifications.js";

/**
 * Applications: submission under an Idempotency-Key, the lifecycle's changes (each with the notifications and
 * correspondence it raises, in one transaction), the registry's due decisions, and what is attached after submission.
 */
export interface ApplicationStore {
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
