import { randomInt, randomUUID } from "node:crypto";
import { notificationsFor } from "../notifications/events.js";
import { renderDocuments, type DocumentCode } from "../registry/correspondence.js";
import type { ApplicationRow } from "../storage/storage.js";
import type { Raised } from "./check.js";

/** An application the run submits for a unit, accepted and awaiting priority (as the day list leaves it). */
function submittedApplication(businessUnitId: string, nowMs: number, customerReference: string): ApplicationRow {
  return {
    id: randomUUID(),
    businessUnitId,
    status: "ACCEPTED_AWAITING_PRIORITY",
    registryReference: null,
    priorityMs: null,
    additionalProviderFilter: null,
    submission: {
      type: "REGISTER_UPDATE",
      customer_reference: customerReference,
      titles: {},
      transactions: {},
      documents: {},
    },
    errors: [],
    warnings: [],
    earlyCompletion: false,
    createdMs: nowMs,
    updatedMs: nowMs,
    decideAtMs: null,
  };
}

/**
 * Applications the sandbox submits for a unit during a run, each accepted and awaiting priority, with the notification
 * of that event (delivered twice when `twice`). Real applications: their information can be read, and they move on
 * when the day list reopens, as any other.
 */
export function acceptedApplications(
  businessUnitId: string,
  nowMs: number,
  count: number,
  options: { twice: boolean; reference: string },
): Raised {
  const applications: ApplicationRow[] = [];
  const notifications: Raised["notifications"] = [];
  for (let index = 0; index < count; index += 1) {
    const application = submittedApplication(businessUnitId, nowMs, `${options.reference}-${index + 1}`);
    applications.push(application);
    // Each application's event at its own instant, so that no two distinct events look like duplicates.
    const at = nowMs - count + index + 1;
    notifications.push(
      ...notificationsFor(
        application,
        { kind: "accepted-priority-pending" },
        { eventMs: at, createdMs: nowMs },
        () => options.twice,
      ),
    );
  }
  return { applications, notifications };
}

/** Characters of a registry reference (`RegistryReference`: 7 of A-Z and 0-9). */
const REFERENCE_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * Correspondence the registry despatches on an application the run submits for a unit and protects on the day list:
 * its documents (rendered as the sandbox's correspondence operation renders them; their bytes in `blobs`), one record
 * of its information's `correspondence`, and the application.correspondence-despatched notification.
 */
export function despatchedCorrespondence(
  businessUnitId: string,
  nowMs: number,
  codes: DocumentCode[],
  reference: string,
): Raised & { downloadIds: string[] } {
  const registryReference = Array.from(
    { length: 7 },
    () => REFERENCE_CHARACTERS[randomInt(REFERENCE_CHARACTERS.length)],
  ).join("");
  const application: ApplicationRow = {
    ...submittedApplication(businessUnitId, nowMs, reference),
    status: "ACCEPTED_PRIORITY_PROTECTED",
    registryReference,
    priorityMs: nowMs,
  };
  const rendered = renderDocuments(application, codes, nowMs);
  const documents = rendered.map(({ document }) => document);
  const notifications = notificationsFor(
    application,
    { kind: "correspondence-despatched", registryReference, documents },
    { eventMs: nowMs, createdMs: nowMs },
    () => false,
  );
  return {
    applications: [application],
    notifications,
    correspondence: [{ recordId: randomUUID(), applicationId: application.id, documents, createdMs: nowMs }],
    registryDocuments: rendered.map(({ row }) => row),
    blobs: rendered.map(({ bytes }) => bytes),
    downloadIds: documents.map((document) => document.download_id),
  };
}
