import { randomUUID } from "node:crypto";
import { notificationsFor } from "../notifications/events.js";
import type { ApplicationRow } from "../storage/storage.js";
import type { Raised } from "./check.js";

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
    const application: ApplicationRow = {
      id: randomUUID(),
      businessUnitId,
      status: "ACCEPTED_AWAITING_PRIORITY",
      registryReference: null,
      priorityMs: null,
      additionalProviderFilter: null,
      submission: {
        type: "REGISTER_UPDATE",
        customer_reference: `${options.reference}-${index + 1}`,
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
