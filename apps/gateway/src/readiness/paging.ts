import { MAX_ACKNOWLEDGE_IDS } from "@lrg/spec";
import { acknowledgedIds, firstHundred, isAcknowledgement, isListing, type ReadinessCheck } from "./check.js";
import { acceptedApplications } from "./stimulus.js";

/** How many notifications the run raises at once: more than two pages. */
export const BURST = 250;

/** The filters that page forward through the notifications (version 0 spells `occured_after`). */
const FORWARD_FILTERS = ["created_after", "occurred_after", "occured_after"];

/**
 * Paging: a list answers at most 100 notifications, oldest first; newer ones are reached with `created_after` (or
 * `occurred_after`), and an acknowledge call takes at most 100 ids. The run raises 250 at once: every one must be
 * read by paging and acknowledged, and no acknowledge call may send more than 100 ids.
 */
export const paging: ReadinessCheck = {
  howToPass:
    "List oldest first; while a page holds 100 notifications, ask for the next page with created_after set to the " +
    "created_datetime of the last one read (occurred_after works too). Acknowledge in calls of at most 100 ids.",
  expected: `All ${BURST} notifications acknowledged, read by paging with created_after or occurred_after, no acknowledge call of more than ${MAX_ACKNOWLEDGE_IDS} ids.`,
  stimulus: (businessUnitId, nowMs) => {
    const raised = acceptedApplications(businessUnitId, nowMs, BURST, { twice: false, reference: "READINESS-PAGING" });
    return { raised, kept: { notificationIds: raised.notifications.map((notification) => notification.id) } };
  },
  instructions: () =>
    `${BURST} notifications were raised at once for your business unit. Let your software read and acknowledge all of them.`,
  judge: ({ observations, stimulus, ended }) => {
    const ids = stimulus.paging?.notificationIds ?? [];
    const acknowledged = acknowledgedIds(observations);
    const done = ids.filter((id) => acknowledged.has(id)).length;
    const listings = observations.filter(isListing);
    const paged = listings.some(
      (observation) =>
        observation.status === 200 && FORWARD_FILTERS.some((name) => observation.query[name] !== undefined),
    );
    const oversized = observations.filter(
      (observation) => isAcknowledgement(observation) && (observation.acknowledgedCount ?? 0) > MAX_ACKNOWLEDGE_IDS,
    );
    const requests = firstHundred(
      observations.filter((observation) => isListing(observation) || isAcknowledgement(observation)),
    );
    if (oversized.length > 0) {
      const first = oversized[0]!;
      return {
        verdict: "failed",
        found: `An acknowledge call sent ${first.acknowledgedCount} ids (answered ${first.status}); at most ${MAX_ACKNOWLEDGE_IDS} are allowed.`,
        requests: firstHundred([first, ...requests.filter((request) => request !== first)]),
      };
    }
    const counted = `${done} of ${ids.length} acknowledged`;
    if (done === ids.length && paged)
      return { verdict: "passed", found: `${counted}, paging with created_after or occurred_after.`, requests };
    if (done === ids.length)
      return {
        verdict: "failed",
        found: `${counted}, but no list request used created_after or occurred_after.`,
        requests,
      };
    if (!ended) return { verdict: "running", found: `${counted} so far.`, requests };
    if (listings.length === 0)
      return { verdict: "not_exercised", found: "The software listed no notifications during the run.", requests };
    return {
      verdict: "failed",
      found: `${counted}${paged ? "" : "; no list request used created_after or occurred_after"}.`,
      requests,
    };
  },
};
