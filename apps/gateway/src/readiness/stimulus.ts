import { randomInt, randomUUID } from "node:crypto";
import { notificationsFor } from "../notifications/events.js";
import { renderDocuments, type DocumentCode } from "../registry/correspondence.js";
import type { ApplicationRow } from "../storage/ports/applications.js";
import type { Raised } from "./check.js";

/** Characters of a registry reference (`RegistryReference`: 7 of A-Z and 0-9). */
const REFERENCE_CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const registryReference = (): string =>
  Array.from({ length: 7 }, () => REFERENCE_CHARACTERS[randomInt(REFERENCE_CHARACTERS.length)]).join("");

/**
 * An application the run submits for a unit, accepted and protected on the day list at `nowMs`. Never one awaiting
 * priority: the registry holds none while the day list is open, and one held would move (and raise notifications for
 * the run's unit) whenever anybody reopened the day list, another team's put-back steps included. Nothing decides it
 * (no `decideAtMs`): it stays as the run made it unless the unit's own software or sandbox moves it.
 */
function protectedApplication(businessUnitId: string, nowMs: number, customerReference: string): ApplicationRow {
  return {
    id: randomUUID(),
    businessUnitId,
    status: "ACCEPTED_PRIORITY_PROTECTED",
    registryReference: registryReference(),
    priorityMs: nowMs,
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
 * Applications the sandbox submits for a unit during a run, each accepted and protected on the day list, with the
 * notification of that event (delivered twice when `twice`). Real applications: their information can be read.
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
    const application = protectedApplication(businessUnitId, nowMs, `${options.reference}-${index + 1}`);
    applications.push(application);
    // Each application's event at its own instant, so that no two distinct events look like duplicates.
    const at = nowMs - count + index + 1;
    notifications.push(
      ...notificationsFor(
        application,
        {
          kind: "accepted-priority-protected",
          registryReference: application.registryReference ?? "",
          priorityMs: application.priorityMs ?? nowMs,
        },
        { eventMs: at, createdMs: nowMs },
        () => options.twice,
      ),
    );
  }
  return { applications, notifications };
}

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
  const application = protectedApplication(businessUnitId, nowMs, reference);
  const registryReference = application.registryReference ?? "";
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
