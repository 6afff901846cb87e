// `@lrg/gateway/readiness-judges`: the readiness checks' own judges applied to recorded traffic (`lrg readiness judge`),
// so that a run and a recording are judged by one code path. A recording holds what the software sent and was answered,
// not what the sandbox raised for a run nor what its store holds: each check says which way it is judged offline.
import type { ReadinessObservationRow } from "../storage/ports/readiness.js";
import { isOperation, type CheckName, type Judgement, type ReadinessCheck, type Stimulus } from "./check.js";
import { CHECK_NAMES } from "./checks.js";
import { checksumAndLength } from "./checksum-and-length.js";
import { downloads } from "./downloads.js";
import { duplicates } from "./duplicates.js";
import { faultsAndCadence } from "./faults-and-cadence.js";
import { rateLimits } from "./rate-limits.js";
import { checkResult, runVerdict } from "./service.js";
import type { Result } from "./shapes.js";

export { observationOf } from "./observer.js";
export { htmlReport } from "./reports/html.js";
export { junitReport } from "./reports/junit.js";
export type { ReadinessObservationRow, Stimulus };

/** How a check is judged on a recording: by its own judge on what the recording shows, or not at all (and why). */
export type OfflineJudging =
  | { readonly judged: "offline"; readonly how: string; readonly check: ReadinessCheck }
  | { readonly judged: "not_offline"; readonly why: string };

const needsTheStore = (what: string): OfflineJudging => ({
  judged: "not_offline",
  why: `the verdict needs ${what}, which the sandbox's store holds and a recording does not`,
});

/** Every check, and which way a recording is judged on it (the order a run answers them in). */
export const OFFLINE_JUDGING: { readonly [Name in CheckName]: OfflineJudging } = {
  duplicates: {
    judged: "offline",
    how: "the ids of notifications listed with the same event_datetime, notification_type and subject (one event delivered twice) must all be acknowledged; not_exercised when no list answer holds such a pair",
    check: duplicates,
  },
  paging: {
    judged: "not_offline",
    why: "the verdict needs how many notifications were waiting (the run raised 250), which a recording does not show",
  },
  "nothing-left-behind": needsTheStore("the notifications still NEW at the run's end"),
  "validation-failed": needsTheStore("the submission the run refused and what became of it"),
  "checksum-and-length": {
    judged: "offline",
    how: "the first upload PUT not refused for an expired address must be answered 200, and no PUT may carry credentials; not_exercised without an upload PUT",
    check: checksumAndLength,
  },
  "system-error": needsTheStore("the submission the run failed with SYSTEM_ERROR"),
  "lost-answer": needsTheStore("the submission whose answer the run lost"),
  downloads: {
    judged: "offline",
    how: "each document asked for at GET /v1/documents/{download_id} must be answered 302 and fetched from its download address with 200, which must never receive credentials; not_exercised when no document was asked for or fetched",
    check: downloads,
  },
  "expired-upload": needsTheStore("the upload address the run let expire"),
  "rate-limits": {
    judged: "offline",
    how: "after each 429 (with Retry-After), the next attempt of the same operation no sooner than its Retry-After by the recording's clock, and an attempt after it; not_exercised without a 429",
    check: rateLimits,
  },
  "faults-and-cadence": {
    judged: "offline",
    how: "after each 503 of the notification list, the next list request no sooner than its Retry-After and one answered 200 after them, list requests within the polling limit; not_exercised without a 503 of the list",
    check: faultsAndCadence,
  },
  "deferred-official-search": needsTheStore("the search the run deferred and when its result was due"),
};

/**
 * What the recording shows of a check's occasion, as the check's stimulus: the ids of the event delivered twice
 * (`listedDuplicates`, found by the caller in the list answers), and the documents the software asked for. Undefined
 * when the recording met no occasion for the check.
 */
function occasionOf(
  name: CheckName,
  observations: readonly ReadinessObservationRow[],
  listedDuplicates: readonly string[],
): Stimulus | { none: string } {
  if (name === "duplicates")
    return listedDuplicates.length > 0
      ? { duplicates: { notificationIds: [...listedDuplicates] } }
      : { none: "No list answer of the recording holds one event delivered twice." };
  if (name === "downloads") {
    const asked = observations
      .filter((observation) => isOperation(observation, "downloadDocument"))
      .map((observation) => observation.pathParameters["download_id"])
      .filter((id): id is string => id !== undefined);
    const fetched = observations.some((observation) => isOperation(observation, "fetchDocumentContent"));
    if (asked.length === 0 && !fetched) return { none: "The recording holds no document asked for or fetched." };
    return { downloads: { notificationIds: [], downloadIds: [...new Set(asked)] } };
  }
  return {};
}

/** A check's judgement on a recording: its own judge on the recording's facts, with the run ended. */
function judgedOffline(
  name: CheckName,
  observations: readonly ReadinessObservationRow[],
  listedDuplicates: readonly string[],
): Judgement {
  const way = OFFLINE_JUDGING[name];
  if (way.judged === "not_offline")
    return { verdict: "not_exercised", found: `Not judged on a recording: ${way.why}.`, requests: [] };
  const stimulus = occasionOf(name, observations, listedDuplicates);
  if ("none" in stimulus) return { verdict: "not_exercised", found: stimulus.none, requests: [] };
  return way.check.judge({ observations, stimulus, ended: true });
}

/**
 * Every readiness check (or those named) judged on a recording's observations, in the order made (`sequence` from 1,
 * `clockMs` the recording's time), as a finished run judges them; `listedDuplicates` are the ids of notifications the
 * recording's list answers show delivered twice for one event.
 */
export function judgeRecording(
  observations: readonly ReadinessObservationRow[],
  listedDuplicates: readonly string[] = [],
  names: readonly CheckName[] = CHECK_NAMES,
): Result {
  const checks = names.map((name) =>
    checkResult(name, judgedOffline(name, observations, listedDuplicates), "finished"),
  );
  return { verdict: runVerdict(checks, "finished"), checks };
}

/** The checks judged on a recording, in the order a run answers them. */
export const OFFLINE_CHECKS: readonly CheckName[] = CHECK_NAMES.filter(
  (name) => OFFLINE_JUDGING[name].judged === "offline",
);
