import { acknowledgedIds, firstHundred, isAcknowledgement, isListing, type ReadinessCheck } from "./check.js";
import { shownNotifications, type ShownNotification } from "./recording.js";
import { acceptedApplications } from "./stimulus.js";

/** The events a recording's list answers showed delivered more than once (NEW), each as its notifications' ids. */
function eventsListedTwice(shown: readonly ShownNotification[]): string[][] {
  const events = new Map<string, string[]>();
  for (const notification of shown.filter((each) => each.shownNew)) {
    const ids = events.get(notification.event);
    if (ids) ids.push(notification.id);
    else events.set(notification.event, [notification.id]);
  }
  return [...events.values()].filter((ids) => ids.length > 1);
}

/**
 * Duplicates: delivery is at least once, so one event may arrive as two notifications (their own ids, the same
 * `event_datetime`, `notification_type` and subject). The run delivers one event twice; both ids must be acknowledged.
 */
export const duplicates: ReadinessCheck = {
  howToPass:
    "Treat notifications with the same event_datetime, notification_type and subject as one event: handle it once, " +
    "and acknowledge every id it arrived under, or the duplicate stays NEW and is listed again until it expires.",
  expected: "Both ids of the event delivered twice acknowledged.",
  stimulus: (businessUnitId, nowMs) => {
    const raised = acceptedApplications(businessUnitId, nowMs, 1, { twice: true, reference: "READINESS-DUPLICATES" });
    return { raised, kept: { notificationIds: raised.notifications.map((notification) => notification.id) } };
  },
  instructions: () =>
    "One event (application.accepted-priority-protected, version 0 APPLICATION_ACCEPTED_ON_DAY_LIST) was " +
    "delivered twice to your business unit. Let your software list and acknowledge notifications as it does in production.",
  judge: ({ observations, stimulus, ended }) => {
    const ids = stimulus.duplicates?.notificationIds ?? [];
    const acknowledged = acknowledgedIds(observations);
    const missing = ids.filter((id) => !acknowledged.has(id));
    const requests = firstHundred(
      observations.filter(
        (observation) =>
          isAcknowledgement(observation) && (observation.acknowledgedIds ?? []).some((id) => ids.includes(id)),
      ),
    );
    if (missing.length === 0)
      return { verdict: "passed", found: `Both ids acknowledged: ${ids.join(", ")}.`, requests };
    const found =
      missing.length === ids.length
        ? `Neither id is acknowledged: ${ids.join(", ")}.`
        : `Only one id of the event is acknowledged; ${missing.join(", ")} is still NEW.`;
    if (!ended) return { verdict: "running", found, requests };
    if (!observations.some(isListing))
      return { verdict: "not_exercised", found: "The software listed no notifications during the run.", requests };
    return { verdict: "failed", found, requests };
  },
  offline: {
    occasion:
      "each event the list answers showed delivered more than once (NEW notifications with the same event_datetime, " +
      "notification_type and subject): every id of it acknowledged by the recording's end",
    none: "No list answer of the recording holds one event delivered twice.",
    find: (recording) =>
      eventsListedTwice(shownNotifications(recording)).map((ids) => ({
        stimulus: { duplicates: { notificationIds: ids } },
      })),
  },
};
