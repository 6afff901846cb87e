import { firstHundred, type ReadinessCheck } from "./check.js";
import { noSubmissionTaken, observedAround, STORED_STATUSES, submissionPlace } from "./submissions.js";

/**
 * SYSTEM_ERROR: an application that hits a system error is not on the day list and raises `application.error`
 * (`SYSTEM_ERROR` in version 0); the client retries the submission. The run ends one of the unit's submissions in
 * SYSTEM_ERROR, as a scheduled system error does (`scheduleSystemErrors`: the same move, notification and released
 * Idempotency-Key); the software must then submit again, a new application, before the run ends. It could have
 * learnt of the error from the failed submission's answer on (the move precedes it), so any later submission that
 * stored an application counts, with the released key or a new one.
 */
export const systemError: ReadinessCheck = {
  howToPass:
    "On application.error (SYSTEM_ERROR in version 0), or application information answering SYSTEM_ERROR, submit " +
    "the application again: with the same Idempotency-Key (the registry released it: the retry is a new application) " +
    "or a new one. Retry a bounded number of times, then contact support; acknowledging the notification alone " +
    "leaves the application off the day list.",
  expected: "A new application submitted (answered 202) after the run's submission ended in SYSTEM_ERROR.",
  instructions: ({ deadline, checks }) =>
    `Submit one application from your software before ${deadline} (the run's deadline, on the unit's sandbox clock), ` +
    `${submissionPlace("system-error", checks)}: the sandbox answers it 202, then ends it in SYSTEM_ERROR ` +
    "(application.error; SYSTEM_ERROR in version 0), and your software must submit it again (a new application, " +
    "answered 202) before the deadline.",
  judge: ({ observations, submissions, ended }) => {
    const failed = submissions["system-error"];
    if (!failed) return noSubmissionTaken(observations, ended);
    const { own, later } = observedAround(observations, failed, 202);
    const reads = observations.filter(
      (observation) =>
        observation.operationId === "getApplicationInformation" &&
        observation.pathParameters["id"] === failed.applicationId,
    );
    const requests = firstHundred([...(own ? [own] : []), ...later, ...reads].sort((a, b) => a.sequence - b.sequence));
    const failure = `Application ${failed.applicationId} ended in SYSTEM_ERROR${own ? ` (observation ${own.sequence})` : ""}`;
    const again = later.find((observation) => STORED_STATUSES.has(observation.status));
    if (again)
      return {
        verdict: "passed",
        found: `${failure}; the software submitted again (observation ${again.sequence}, ${
          again.status === 444 ? "stored, its answer lost for the lost-answer check" : "answered 202"
        }).`,
        requests,
      };
    const refused = later.length > 0 ? ` (its later submissions were refused: ${statuses(later)})` : "";
    return {
      verdict: ended ? "failed" : "running",
      found: `${failure}; no new application followed${refused}.`,
      requests,
    };
  },
};

const statuses = (observations: readonly { status: number }[]): string =>
  [...new Set(observations.map((observation) => observation.status))].join(", ");
