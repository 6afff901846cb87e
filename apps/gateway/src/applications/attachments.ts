import type { Principal } from "../auth/basic-auth.js";
import type { Clock } from "../clock.js";
import { notificationsFor, type ApplicationEvent } from "../notifications/events.js";
import { Problem } from "../problems.js";
import type { SandboxState } from "../registry/sandbox-state.js";
import type { ApplicationRow, ApplicationStore, AttachmentRow } from "../storage/ports/applications.js";
import type { DocumentStore } from "../storage/ports/documents.js";
import { transitions } from "@lrg/spec";

export interface AttachmentServiceDeps {
  storage: ApplicationStore & DocumentStore;
  clock: Clock;
  state: SandboxState;
}

/** What Attach a document names: a document sent with Send a document, and how it is certified. */
export interface DocumentAttachment {
  document_id: string;
  certification_statement_type: string;
}

/**
 * A pending application is one the registry still has in hand: the state machine has a move out of its status.
 * COMPLETED and CANCELLED (the registry's OC036), and VALIDATION_FAILED and SYSTEM_ERROR (never on the day list;
 * submitted again instead) have none.
 */
const PENDING_STATUSES: ReadonlySet<string> = new Set(transitions.map((transition) => transition.from));

/**
 * Attach a document and Attach a message: each request is recorded PENDING and answered 202; its outcome is
 * decided as soon as it can be (a document once its checks have run) and announced by an attachment or message
 * notification, so an attachment survives a restart like any other state.
 */
export class AttachmentService {
  readonly #deps: AttachmentServiceDeps;

  constructor(deps: AttachmentServiceDeps) {
    this.#deps = deps;
  }

  async attachDocument(principal: Principal, applicationId: string, request: DocumentAttachment): Promise<void> {
    const application = await this.#pendingApplication(principal, applicationId);
    await this.#record(application, {
      kind: "DOCUMENT",
      documentId: request.document_id,
      certificationStatementType: request.certification_statement_type,
      messageText: null,
    });
  }

  async attachMessage(principal: Principal, applicationId: string, messageText: string): Promise<void> {
    const application = await this.#pendingApplication(principal, applicationId);
    await this.#record(application, {
      kind: "MESSAGE",
      documentId: null,
      certificationStatementType: null,
      messageText,
    });
  }

  /** Decides every attachment whose outcome is known by now (a document whose checks have finished). */
  async resolvePending(): Promise<number> {
    let decided = 0;
    for (const attachment of await this.#deps.storage.pendingAttachments(100)) {
      if (await this.#resolve(attachment)) decided += 1;
    }
    return decided;
  }

  async #pendingApplication(principal: Principal, applicationId: string): Promise<ApplicationRow> {
    const application = await this.#deps.storage.findApplication(applicationId, principal.businessUnitId);
    if (!application) throw new Problem("404-01", `no application ${applicationId}`);
    if (!PENDING_STATUSES.has(application.status)) {
      throw new Problem(
        "400-06",
        `application ${applicationId} is ${application.status}; only a pending application takes attachments`,
      );
    }
    return application;
  }

  async #record(
    application: ApplicationRow,
    attachment: Pick<AttachmentRow, "kind" | "documentId" | "certificationStatementType" | "messageText">,
  ): Promise<void> {
    const row = {
      ...attachment,
      applicationId: application.id,
      businessUnitId: application.businessUnitId,
      createdMs: this.#deps.clock.nowMs(application.businessUnitId),
    };
    const id = await this.#deps.storage.insertAttachment(row);
    await this.#resolve({ ...row, id, status: "PENDING", failureReason: null });
  }

  /** Decides one attachment if its outcome is known; answers whether it was decided. */
  async #resolve(attachment: AttachmentRow): Promise<boolean> {
    const event = await this.#outcomeOf(attachment);
    if (!event) return false;
    const { storage, clock, state } = this.#deps;
    const application = await storage.findApplication(attachment.applicationId);
    if (!application) return false;
    const now = clock.nowMs(application.businessUnitId);
    const failed = event.kind === "attachment-failed" || event.kind === "message-failed";
    const outcome = failed
      ? { status: "FAILED" as const, failureReason: event.failureReason }
      : { status: "ATTACHED" as const, failureReason: null };
    return storage.resolveAttachment(
      attachment.id,
      outcome,
      notificationsFor(
        application,
        event,
        { eventMs: now, createdMs: now },
        state.duplicateFor(application.businessUnitId),
      ),
    );
  }

  /** The notification an attachment ends in, or undefined while its document's checks are still running. */
  async #outcomeOf(attachment: AttachmentRow): Promise<ApplicationEvent | undefined> {
    if (attachment.kind === "MESSAGE") {
      // The registry publishes no cause of a failed message; a message with nothing in it is the sandbox's one.
      return attachment.messageText?.trim()
        ? { kind: "message-success", attachmentId: attachment.id }
        : { kind: "message-failed", failureReason: "the message has no text" };
    }
    const documentId = String(attachment.documentId);
    const document = await this.#deps.storage.findDocument(documentId, attachment.businessUnitId);
    const failed = (failureReason: string): ApplicationEvent => ({
      kind: "attachment-failed",
      documentId,
      failureReason,
    });
    switch (document?.status) {
      case undefined:
        return failed(`document ${documentId} was not sent by this business unit with Send a document`);
      case "AWAITING_UPLOAD":
        return failed(`document ${documentId} has not been uploaded`);
      case "UPLOADED":
        return undefined;
      case "REJECTED":
        return failed(document.failureReason ?? "the document failed its checks");
      case "ACCEPTED":
        return { kind: "attachment-success", documentId, attachmentId: attachment.id };
    }
  }
}
