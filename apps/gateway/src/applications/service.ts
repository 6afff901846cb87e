import { createHash, randomInt, randomUUID } from "node:crypto";
import type { Principal } from "../auth/basic-auth.js";
import type { components, SandboxComponents } from "../operation-types.js";
import { isoMillis, type Clock } from "../clock.js";
import { notificationsFor, type ApplicationEvent } from "../notifications/events.js";
import { Problem, schemaMismatch } from "../problems.js";
import { generateDocuments, type CorrespondenceDocument, type DocumentCode } from "../registry/correspondence.js";
import { decide } from "./decisions.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import type { BlobStore } from "../storage/blobs/blob-store.js";
import { isConstraintViolation } from "../storage/errors.js";
import type { ApplicationChange, ApplicationRow, ApplicationStore } from "../storage/ports/applications.js";
import type { DocumentStore } from "../storage/ports/documents.js";
import type { NotificationRow } from "../storage/ports/notifications.js";
import type { RegistryHooks, SubmissionFate } from "../hooks.js";
import { transitionBetween } from "./state-machine.js";
import type { ApplicationStatus } from "@lrg/spec";
import { londonDate } from "../registry/london-time.js";
import { futureDates, validateSubmission, type Submission } from "./validation-rules.js";

/** What the control plane may ask for when it moves an application (the union of SandboxTransitionRequest). */
export type TransitionRequest = { to: SandboxSchemas["SandboxTransitionRequest"]["to"] } & Partial<
  UnionToIntersection<WithoutTo<SandboxSchemas["SandboxTransitionRequest"]>>
>;

type WithoutTo<U> = U extends unknown ? Omit<U, "to"> : never;
type UnionToIntersection<U> = (U extends unknown ? (member: U) => void : never) extends (member: infer I) => void
  ? I
  : never;

export interface ApplicationServiceDeps {
  storage: ApplicationStore & DocumentStore;
  clock: Clock;
  blobs: BlobStore;
  state: SandboxState;
  decisionDelayMs: number;
  /** The hook points: `submissionTaken` may decide a new application's fate. */
  hooks?: Pick<RegistryHooks, "submissionTaken">;
}

type SandboxSchemas = SandboxComponents["schemas"];

const DEFAULT_DOCUMENTS: Record<string, DocumentCode[]> = { COMPLETED: ["CMT", "REG"], CANCELLED: ["CAN"] };
/** The documents an early completion application receives later: Early Completion Letter and Register. */
const EARLY_COMPLETION_DOCUMENTS: DocumentCode[] = ["ECM", "ECR"];
const REFERENCE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
/**
 * The statuses that release an application's Idempotency-Key. After SYSTEM_ERROR the requirement asks the client to
 * submit again, and a client retries with the key it used (as it does after a lost answer): that retry must create a
 * new application, which the key then names, rather than replay the failed one.
 */
const KEY_RELEASED_BY: readonly ApplicationStatus[] = ["SYSTEM_ERROR"];

/** A new registry reference: 7 characters from A-Z and 0-9. */
function newRegistryReference(): string {
  return Array.from({ length: 7 }, () => REFERENCE_ALPHABET[randomInt(REFERENCE_ALPHABET.length)]).join("");
}

/** The title numbers a submission names. */
function titleNumbers(submission: Submission): string[] {
  return Object.values(submission.titles ?? {}).map((title) => title.title_number);
}

/** JSON with sorted keys, so that two equal bodies hash alike whatever their member order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The application lifecycle over the simulated registry: submission, information, and every move of the state
 * machine, each applied atomically with the notifications it emits.
 */
export class ApplicationService {
  readonly #deps: ApplicationServiceDeps;

  constructor(deps: ApplicationServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Stores a new application, or answers the one its Idempotency-Key names (`replayed`). `unanswered` when its fate
   * (the `submissionTaken` hook) is to go unanswered: the caller then closes the connection instead of answering.
   */
  async submit(
    principal: Principal,
    submission: Submission,
    idempotencyKey: string,
  ): Promise<{ applicationId: string; replayed: boolean; unanswered: boolean }> {
    const { storage, clock, state, decisionDelayMs } = this.#deps;
    const businessUnitId = principal.businessUnitId;
    const now = clock.nowMs(businessUnitId);
    const future = futureDates(submission, londonDate(now));
    if (future.length > 0) throw schemaMismatch(future);
    // An application that may meet a scheduled system error, or a fate of the `submissionTaken` hook, is stored with no
    // decision due, so that automatic processing cannot decide it before its fate is applied (the move to SYSTEM_ERROR
    // or VALIDATION_FAILED would then be refused).
    const systemErrorPending = await state.systemErrorPending(businessUnitId);
    const hook = this.#deps.hooks?.submissionTaken;
    const held = systemErrorPending || (hook?.holds(businessUnitId, now) ?? false);
    const decideAtMs = state.settingsOf(businessUnitId).processing === "automatic" ? now + decisionDelayMs : null;
    const outcome = await storage.submitApplication(
      {
        id: randomUUID(),
        businessUnitId,
        status: "VALIDATING",
        registryReference: null,
        priorityMs: null,
        additionalProviderFilter: submission.additional_provider_filter ?? null,
        submission,
        errors: [],
        warnings: [],
        earlyCompletion: false,
        createdMs: now,
        updatedMs: now,
        decideAtMs: held ? null : decideAtMs,
      },
      {
        key: idempotencyKey,
        requestHash: createHash("sha256").update(canonical(submission)).digest("hex"),
        releasedBy: KEY_RELEASED_BY,
      },
    );
    if (outcome.kind === "conflict") {
      throw new Problem("409-01", `Idempotency-Key ${idempotencyKey} was used with a different request body`);
    }
    const fate =
      outcome.kind === "created" && held
        ? await this.#meetHold(outcome.applicationId, idempotencyKey, systemErrorPending, { decideAtMs, nowMs: now })
        : undefined;
    return {
      applicationId: outcome.applicationId,
      replayed: outcome.kind === "replayed",
      unanswered: fate?.kind === "close-unanswered",
    };
  }

  /**
   * A new application stored with no decision due: takes a scheduled system error when one was pending and fails it
   * (the registry accepts the submission, then fails internally); else applies the fate the `submissionTaken` hook
   * gives it. Otherwise (a concurrent submission used the last system error meanwhile, or the hook gives it none)
   * schedules its decision as any other's (`decideAtMs`, null under manual processing). Answers its fate, if any.
   */
  async #meetHold(
    applicationId: string,
    idempotencyKey: string,
    systemErrorPending: boolean,
    when: { decideAtMs: number | null; nowMs: number },
  ): Promise<SubmissionFate | undefined> {
    const { storage, state, hooks } = this.#deps;
    const application = await storage.findApplication(applicationId);
    if (!application) return undefined;
    const { businessUnitId } = application;
    if (systemErrorPending && (await state.takeSystemError(businessUnitId))) {
      await this.#apply(application, { to: "SYSTEM_ERROR" });
      return undefined;
    }
    const fate = await hooks?.submissionTaken?.fateOf({ businessUnitId, applicationId, idempotencyKey }, when.nowMs);
    if (fate?.kind === "fail-validation")
      await this.#apply(application, { to: "VALIDATION_FAILED", errors: fate.errors });
    else if (fate?.kind === "fail-internally") await this.#apply(application, { to: "SYSTEM_ERROR" });
    else await this.#scheduleDecision(application, when);
    return fate;
  }

  /** Schedules the decision of an application stored with none due (none under manual processing: `decideAtMs` null). */
  async #scheduleDecision(
    application: ApplicationRow,
    when: { decideAtMs: number | null; nowMs: number },
  ): Promise<void> {
    if (when.decideAtMs === null) return;
    await this.#deps.storage.changeApplication({
      applicationId: application.id,
      fromStatus: application.status,
      patch: { decideAtMs: when.decideAtMs },
      updatedMs: when.nowMs,
      notifications: [],
    });
  }

  async information(
    principal: Principal,
    id: string,
  ): Promise<components["schemas"]["ApplicationInformation"]["data"]> {
    const application = await this.#deps.storage.findApplication(id, principal.businessUnitId);
    if (!application) throw new Problem("404-01", `no application ${id}`);
    const correspondence = await this.#deps.storage.correspondenceOf(id);
    // The store's rows type the status and the documents loosely; they hold what this service wrote, from the spec.
    return {
      status: application.status as components["schemas"]["ApplicationStatus"],
      application_request_id: application.id,
      ...(application.registryReference ? { registry_reference: application.registryReference } : {}),
      ...(application.priorityMs !== null ? { priority_timestamp: isoMillis(application.priorityMs) } : {}),
      correspondence: correspondence.map((record) => ({
        record_id: record.recordId,
        documents: record.documents as CorrespondenceDocument[],
      })),
      errors: application.errors,
      warnings: application.warnings,
    };
  }

  /**
   * Moves an application as the control plane asks; refuses a move the state machine does not allow (409-03). With a
   * business unit (a unit token), another unit's application is not found (404-01), as a missing one.
   */
  async transition(id: string, request: TransitionRequest, businessUnitId?: string) {
    const application = await this.#deps.storage.findApplication(id, businessUnitId);
    if (!application) throw new Problem("404-01", `no application ${id}`);
    return this.#apply(application, request);
  }

  async #apply(
    application: ApplicationRow,
    request: TransitionRequest,
  ): Promise<SandboxSchemas["SandboxTransitionResult"]> {
    const { storage, clock, blobs, state } = this.#deps;
    const transition = transitionBetween(application.status, request.to);
    if (!transition) {
      throw new Problem("409-03", `an application cannot move from ${application.status} to ${request.to}`);
    }
    const now = clock.nowMs(application.businessUnitId);
    const duplicate = state.duplicateFor(application.businessUnitId);
    const patch: ApplicationChange["patch"] = { status: request.to, decideAtMs: null };
    let event: ApplicationEvent;
    let documents: CorrespondenceDocument[] | undefined;
    switch (request.to) {
      case "VALIDATION_FAILED":
        patch.errors = (
          request.errors ?? [
            {
              type: "sandbox-validation-failure",
              detail: "the sandbox failed the application's validation",
              pointer: null,
            },
          ]
        ).map((e) => ({
          type: e.type,
          detail: e.detail,
          pointer: e.pointer ?? null,
        }));
        event = { kind: "validation-failed" };
        break;
      case "SYSTEM_ERROR":
        patch.warnings = [
          "The application could not be added to the day list because of a system error. Submit it again; if the error persists, contact support.",
        ];
        event = { kind: "error" };
        break;
      case "ACCEPTED_AWAITING_PRIORITY":
        event = { kind: "accepted-priority-pending" };
        break;
      case "ACCEPTED_PRIORITY_PROTECTED":
        patch.registryReference = request.registry_reference ?? newRegistryReference();
        patch.priorityMs = now;
        event = { kind: "accepted-priority-protected", registryReference: patch.registryReference, priorityMs: now };
        break;
      case "COMPLETED":
      case "CANCELLED": {
        documents = await generateDocuments(
          storage,
          blobs,
          application,
          request.documents ?? DEFAULT_DOCUMENTS[request.to] ?? [],
          now,
        );
        const reference = application.registryReference as string;
        if (request.to === "COMPLETED") {
          patch.earlyCompletion = request.early_completion ?? false;
          event = {
            kind: "completed",
            registryReference: reference,
            documents,
            earlyCompletion: patch.earlyCompletion,
          };
        } else {
          event = { kind: "cancelled", registryReference: reference, documents };
        }
        break;
      }
      default:
        throw new Problem("409-03", `an application cannot move to ${request.to}`);
    }
    // Leaving VALIDATING, the registry first reports on each document of the submission, each at its own instant
    // (so that no two distinct events look like duplicates of one another).
    const attachments = application.status === "VALIDATING" ? await this.#attachmentEvents(application) : [];
    const notifications = [
      ...attachments.flatMap((attachment, index) => {
        const instant = now - attachments.length + index;
        return notificationsFor(application, attachment, { eventMs: instant, createdMs: instant }, duplicate);
      }),
      ...notificationsFor(application, event, { eventMs: now, createdMs: now }, duplicate),
    ];
    let applied: boolean;
    try {
      applied = await storage.changeApplication({
        applicationId: application.id,
        fromStatus: application.status,
        patch,
        updatedMs: now,
        notifications,
        ...(documents
          ? { correspondence: { recordId: randomUUID(), applicationId: application.id, documents, createdMs: now } }
          : {}),
      });
    } catch (error) {
      if (isConstraintViolation(error)) {
        throw new Problem(
          "409-03",
          `registry reference ${String(patch.registryReference)} is held by another application`,
        );
      }
      throw error;
    }
    if (!applied)
      throw new Problem(
        "409-03",
        `application ${application.id} changed while this transition was applied; read it and try again`,
      );
    if (request.to === "COMPLETED") await this.#despatchEarlyCompletionDocuments(application);
    const registryReference = patch.registryReference ?? application.registryReference;
    const priorityMs = patch.priorityMs ?? application.priorityMs;
    return {
      application_request_id: application.id,
      previous_status: transition.from,
      status: request.to,
      ...(registryReference ? { registry_reference: registryReference } : {}),
      ...(priorityMs ? { priority_timestamp: isoMillis(priorityMs) } : {}),
      ...(documents ? { documents } : {}),
      notifications: emitted(notifications),
    };
  }

  /**
   * An application that completed early receives its ECM and ECR documents when the next application shows
   * evidence of discharge: here, when another application naming one of its titles completes. Each receives
   * them once, in an application.correspondence-despatched notification.
   */
  async #despatchEarlyCompletionDocuments(completed: ApplicationRow): Promise<void> {
    const titles = new Set(titleNumbers(completed.submission as Submission));
    // Only within the business unit: one team's completions never send another team's application documents.
    for (const earlier of await this.#deps.storage.earlyCompletedApplications(completed.businessUnitId)) {
      if (earlier.id === completed.id) continue;
      if (!titleNumbers(earlier.submission as Submission).some((title) => titles.has(title))) continue;
      const records = await this.#deps.storage.correspondenceOf(earlier.id);
      if (
        records.some((record) =>
          (record.documents as CorrespondenceDocument[]).some((document) =>
            EARLY_COMPLETION_DOCUMENTS.includes(document.type.code),
          ),
        )
      )
        continue;
      await this.despatchCorrespondence(earlier.id, EARLY_COMPLETION_DOCUMENTS);
    }
  }

  /** The outcome of attaching each document the submission names: success when its checks passed. */
  async #attachmentEvents(application: ApplicationRow): Promise<ApplicationEvent[]> {
    const events: ApplicationEvent[] = [];
    for (const { document_id: documentId } of Object.values((application.submission as Submission).documents)) {
      const document = await this.#deps.storage.findDocument(documentId, application.businessUnitId);
      if (document?.status === "ACCEPTED") events.push({ kind: "attachment-success", documentId });
      else if (document?.status === "REJECTED")
        events.push({
          kind: "attachment-failed",
          documentId,
          failureReason: document.failureReason ?? "the document failed its checks",
        });
      else if (document?.status !== "UPLOADED")
        events.push({ kind: "attachment-failed", documentId, failureReason: "the document has not been uploaded" });
    }
    return events;
  }

  /**
   * Automatic processing: decides every application whose delay has passed by its business unit's clock, in units
   * whose processing is automatic. Answers how many were decided.
   */
  async decideDue(): Promise<number> {
    const { storage, clock, state } = this.#deps;
    const due = await storage.applicationsDue(
      { realMs: Date.now(), globalOffsetMs: clock.offsetMs, processing: state.settings.processing },
      100,
    );
    let decided = 0;
    for (const application of due) {
      const decision = decide(
        await validateSubmission(storage, application),
        state.dayListOpenFor(application.businessUnitId),
      );
      if (!decision) {
        // A document's checks are still running: look again shortly.
        await storage.changeApplication({
          applicationId: application.id,
          fromStatus: "VALIDATING",
          patch: { decideAtMs: clock.nowMs(application.businessUnitId) + 1000 },
          updatedMs: clock.nowMs(application.businessUnitId),
          notifications: [],
        });
        continue;
      }
      try {
        await this.#apply(application, decision);
        decided += 1;
      } catch (error) {
        // Moved by the control plane meanwhile: nothing to decide.
        if (!(error instanceof Problem)) throw error;
      }
    }
    return decided;
  }

  /** Opens or closes the day list; opening gives priority to every application queued for it. */
  async setDayList(open: boolean) {
    const { storage, state } = this.#deps;
    await state.setDayList(open);
    const promoted = open ? await this.admitWaiting() : 0;
    return { open, awaiting_priority: await storage.countApplications("ACCEPTED_AWAITING_PRIORITY"), promoted };
  }

  /**
   * Gives priority to the applications awaiting it (of one business unit, when given) whose unit sees the day list open
   * (a unit whose registry-wide state is held sees it as it was); answers how many.
   */
  async admitWaiting(businessUnitId?: string): Promise<number> {
    const { storage, state } = this.#deps;
    let promoted = 0;
    for (const application of await storage.applicationsWithStatus("ACCEPTED_AWAITING_PRIORITY")) {
      if (businessUnitId !== undefined && application.businessUnitId !== businessUnitId) continue;
      if (!state.dayListOpenFor(application.businessUnitId)) continue;
      await this.#apply(application, { to: "ACCEPTED_PRIORITY_PROTECTED" });
      promoted += 1;
    }
    return promoted;
  }

  /** The day list: whether it is open, and how many applications await priority (of one business unit, when given). */
  async dayList(businessUnitId?: string) {
    return {
      open:
        businessUnitId === undefined ? this.#deps.state.dayListOpen : this.#deps.state.dayListOpenFor(businessUnitId),
      awaiting_priority: await this.#deps.storage.countApplications("ACCEPTED_AWAITING_PRIORITY", businessUnitId),
    };
  }

  /**
   * The registry raises correspondence on an application that has a registry reference. With a business unit (a unit
   * token), another unit's application is not found (404-01).
   */
  async despatchCorrespondence(
    id: string,
    codes: DocumentCode[],
    businessUnitId?: string,
  ): Promise<SandboxSchemas["SandboxCorrespondenceResult"]> {
    const { storage, clock, blobs, state } = this.#deps;
    const application = await storage.findApplication(id, businessUnitId);
    if (!application) throw new Problem("404-01", `no application ${id}`);
    if (!application.registryReference) {
      throw new Problem(
        "409-03",
        `application ${id} has no registry reference yet (status ${application.status}); correspondence follows acceptance onto the day list`,
      );
    }
    const now = clock.nowMs(application.businessUnitId);
    const documents = await generateDocuments(storage, blobs, application, codes, now);
    const notifications = notificationsFor(
      application,
      { kind: "correspondence-despatched", registryReference: application.registryReference, documents },
      { eventMs: now, createdMs: now },
      state.duplicateFor(application.businessUnitId),
    );
    const recordId = randomUUID();
    const applied = await storage.changeApplication({
      applicationId: id,
      fromStatus: application.status,
      patch: {},
      updatedMs: now,
      notifications,
      correspondence: { recordId, applicationId: id, documents, createdMs: now },
    });
    if (!applied) throw new Problem("409-03", `application ${id} changed meanwhile; try again`);
    return {
      application_request_id: id,
      registry_reference: application.registryReference,
      record_id: recordId,
      documents,
      notifications: emitted(notifications),
    };
  }
}

/** The notifications a control-plane request caused; a re-delivery repeats an earlier one's type and instant. */
function emitted(notifications: NotificationRow[]): SandboxSchemas["SandboxEmittedNotification"][] {
  // The rows hold as strings the types `notificationsFor` took from the spec.
  return notifications.map((n, index) => ({
    notification_id: n.id,
    notification_type: n.v1Type as SandboxSchemas["NotificationTypeV1"],
    v0_notification_type: n.v0Type as SandboxSchemas["NotificationTypeV0"] | null,
    duplicate: notifications
      .slice(0, index)
      .some((earlier) => earlier.v1Type === n.v1Type && earlier.eventMs === n.eventMs),
  }));
}
