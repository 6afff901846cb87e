import { firstHundred, isOperation, type GatheringCheck } from "./check.js";
import {
  ANSWER_LOST,
  describeCase,
  noSubmissionTaken,
  observedAround,
  sameCase,
  STORED_STATUSES,
  submissionPlace,
  submissionSteps,
  submissionsOf,
  takenAsShown,
  type SubmissionFacts,
} from "./submissions.js";

/**
 * SYSTEM_ERROR: an application that hits a system error is not on the day list and raises `application.error`
 * (`SYSTEM_ERROR` in version 0); the client retries the submission. The run ends one of the unit's submissions in
 * SYSTEM_ERROR, as a scheduled system error does (`scheduleSystemErrors`: the same move, notification and released
 * Idempotency-Key); the software must then submit the same application again before the run ends: a later submission
 * that stored an application (with the released key or a new one) for the same case (`sameCase`: the same `type`,
 * `customer_reference` and title numbers). Another application of the unit is not a resubmission.
 */
export const systemError: GatheringCheck<SubmissionFacts> = {
  howToPass:
    "On application.error (SYSTEM_ERROR in version 0), or application information answering SYSTEM_ERROR, submit " +
    "the application again: with the same Idempotency-Key (the registry released it: the retry is a new application) " +
    "or a new one. Retry a bounded number of times, then contact support; acknowledging the notification alone " +
    "leaves the application off the day list.",
  expected:
    "The same application (type, customer_reference and title numbers) submitted again, answered 202, after the " +
    "run's submission ended in SYSTEM_ERROR.",
  instructions: ({ deadline, checks }) =>
    `Submit one application from your software before ${deadline} (the run's deadline, on the unit's sandbox clock), ` +
    `${submissionPlace("system-error", checks)}: the sandbox answers it 202, then ends it in SYSTEM_ERROR ` +
    "(application.error; SYSTEM_ERROR in version 0), and your software must submit it again (a new application, " +
    "answered 202) before the deadline.",
  steps: submissionSteps,
  gather: async ({ storage, run }) => ({ submissions: await submissionsOf(storage, run) }),
  judge: ({ observations, submissions, ended }) => {
    const failed = submissions["system-error"];
    if (!failed) return noSubmissionTaken(observations, ended);
    const { own, later } = observedAround(observations, failed, 202);
    const reads = observations.filter(
      (observation) =>
        isOperation(observation, "getApplicationInformation") &&
        observation.pathParameters["id"] === failed.applicationId,
    );
    const requests = firstHundred([...(own ? [own] : []), ...later, ...reads].sort((a, b) => a.sequence - b.sequence));
    const failedCase = own?.submissionCase ?? null;
    const itsCase = failedCase ? ` (${describeCase(failedCase)})` : "";
    const failure = `Application ${failed.applicationId}${itsCase} ended in SYSTEM_ERROR${own ? ` (observation ${own.sequence})` : ""}`;
    const stored = later.filter((observation) => STORED_STATUSES.has(observation.status));
    // Without the failed submission's own observation (past the bound) its case is unknown: any new application counts.
    const again = stored.find(
      (observation) =>
        failedCase === null ||
        (observation.submissionCase !== null && sameCase(observation.submissionCase, failedCase)),
    );
    if (again)
      return {
        verdict: "passed",
        found: `${failure}; the software submitted it again (observation ${again.sequence}, ${
          again.status === ANSWER_LOST ? "stored, its answer lost for the lost-answer check" : "answered 202"
        }).`,
        requests,
      };
    const other = stored[0];
    const elsewhere = other
      ? `; its later submission (observation ${other.sequence}) was another case${
          other.submissionCase ? ` (${describeCase(other.submissionCase)})` : ""
        }, not a resubmission`
      : "";
    const refused =
      later.length > stored.length
        ? ` (submissions refused: ${statuses(later.filter((observation) => !STORED_STATUSES.has(observation.status)))})`
        : "";
    return {
      verdict: ended ? "failed" : "running",
      found: `${failure}; the same application was not submitted again${elsewhere}${refused}.`,
      requests,
    };
  },
  offline: {
    occasion:
      "each application shown ended in SYSTEM_ERROR (application.error or SYSTEM_ERROR listed, or its information " +
      "answered SYSTEM_ERROR): the same case (type, customer_reference, title numbers) submitted again after its " +
      "submission, and stored",
    none: "No application of the recording was shown ended in SYSTEM_ERROR.",
    find: (recording) => takenAsShown("system-error", recording, "SYSTEM_ERROR", ["application.error", "SYSTEM_ERROR"]),
  },
};

const statuses = (observations: readonly { status: number }[]): string =>
  [...new Set(observations.map((observation) => observation.status))].join(", ");
