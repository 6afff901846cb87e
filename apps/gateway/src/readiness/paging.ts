import { MAX_ACKNOWLEDGE_IDS } from "@lrg/spec";
import {
  acknowledgedIds,
  consumedVersion,
  firstHundred,
  isAcknowledgement,
  isListing,
  type FoundFacts,
  type ReadinessCheck,
  type Recording,
} from "./check.js";
import type { ReadinessObservationRow } from "./store/port.js";
import { firstFullPage, shownNotifications, unreadPastFullPage } from "./recording.js";
import { acceptedApplications } from "./stimulus.js";

/**
 * What paging is judged from on a recording besides its observations and stimulus, where how many notifications were
 * waiting is not shown: the full page the software listed nothing past, if it stopped at one.
 */
export interface PagingFacts {
  unreadPast?: ReadinessObservationRow | undefined;
}

/**
 * Paging's occasion on a recording: a full page listed in the version the software consumed (or an acknowledge call
 * of more than 100 ids). What it must acknowledge: each event shown NEW from that page on, by one of its ids (an event
 * delivered twice is the duplicates check's); and it must not stop at a full page.
 */
function pagedInRecording(recording: Recording): FoundFacts<PagingFacts>[] {
  const version = consumedVersion(recording.observations) ?? "v1";
  const first = firstFullPage(recording, version);
  const oversized = recording.observations.some(
    (observation) => isAcknowledgement(observation) && (observation.acknowledgedCount ?? 0) > MAX_ACKNOWLEDGE_IDS,
  );
  if (!first && !oversized) return [];
  const acknowledged = acknowledgedIds(recording.observations);
  const events = new Map<string, string>();
  const paged = shownNotifications(recording, version).filter(
    (notification) => notification.shownNew && first !== undefined && notification.listedIn.sequence >= first.sequence,
  );
  for (const { event, id } of paged) {
    const before = events.get(event);
    if (before === undefined || (!acknowledged.has(before) && acknowledged.has(id))) events.set(event, id);
  }
  const stimulus = { paging: { notificationIds: [...events.values()] } };
  return [{ stimulus, unreadPast: unreadPastFullPage(recording, version) }];
}

/** How many notifications the run raises at once: more than two pages. */
export const BURST = 250;

/**
 * Paging: a list answers at most 100 notifications, oldest first; an acknowledge call takes at most 100 ids. The run
 * raises 250 at once: the outcome asked for is every one of them read and acknowledged, in acknowledge calls of at most
 * 100 ids. How the software reaches the notifications past the first page is its own choice (created_after or
 * occurred_after from the last one read, or listing NEW again once a page is acknowledged, in either version): a
 * consumer that stops at the first page leaves 150 of them.
 */
export const paging: ReadinessCheck<PagingFacts> = {
  howToPass:
    "Read past the first page: a list answers at most 100 notifications, oldest first. Either ask for the next page " +
    "with created_after set to the created_datetime of the last one read (occurred_after works too), or acknowledge " +
    "the page and list NEW again; go on while a page holds 100. Acknowledge in calls of at most 100 ids.",
  expected: `All ${BURST} notifications acknowledged, no acknowledge call of more than ${MAX_ACKNOWLEDGE_IDS} ids.`,
  stimulus: (businessUnitId, nowMs) => {
    const raised = acceptedApplications(businessUnitId, nowMs, BURST, { twice: false, reference: "READINESS-PAGING" });
    return { raised, kept: { notificationIds: raised.notifications.map((notification) => notification.id) } };
  },
  instructions: () =>
    `${BURST} notifications were raised at once for your business unit. Let your software read and acknowledge all of them.`,
  judge: ({ observations, stimulus, ended, unreadPast }) => {
    const ids = stimulus.paging?.notificationIds ?? [];
    const acknowledged = acknowledgedIds(observations);
    const done = ids.filter((id) => acknowledged.has(id)).length;
    const listings = observations.filter((observation) => isListing(observation) && observation.status === 200);
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
    if (done === ids.length && !unreadPast)
      return {
        verdict: "passed",
        found: `${counted}, over ${listings.length} list request${listings.length === 1 ? "" : "s"}.`,
        requests,
      };
    if (!ended) return { verdict: "running", found: `${counted} so far.`, requests };
    if (observations.filter(isListing).length === 0)
      return { verdict: "not_exercised", found: "The software listed no notifications during the run.", requests };
    const stopped = unreadPast
      ? `; it listed nothing past the full page of observation ${unreadPast.sequence}`
      : done <= MAX_ACKNOWLEDGE_IDS
        ? "; it read no further than the first page (100)"
        : "";
    return {
      verdict: "failed",
      found: `${counted} by the run's end${stopped}: a page holds at most 100, read on while a page is full.`,
      requests,
    };
  },
  offline: {
    occasion:
      "a full page listed (100 NEW, or as many as limit asked) in the version the software consumed: each event shown " +
      "NEW from that page on acknowledged, in calls of at most 100 ids, and no full page the last the software listed",
    none: "No list answer of the recording held a full page: nothing to read past.",
    find: pagedInRecording,
  },
};
