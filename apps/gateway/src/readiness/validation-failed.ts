import { firstHundred, isOperation, type GatheringCheck } from "./check.js";
import {
  isSubmission,
  noSubmissionTaken,
  submissionPlace,
  submissionSteps,
  submissionsOf,
  takenAsShown,
  type SubmissionFacts,
} from "./submissions.js";

/**
 * Validation failed: an application that fails validation moves to VALIDATION_FAILED and raises
 * `application.validation-failed`; why is only in the application information's `errors`. The run fails the first of
 * the unit's submissions it takes (`submissions.ts`): the software must then read that application's information.
 */
export const validationFailed: GatheringCheck<SubmissionFacts> = {
  howToPass:
    "On application.validation-failed (APPLICATION_VALIDATION_FAILED in version 0), read the application's " +
    "information (GET /v0/applications/{id}/information) and act on its errors (show them to the case worker, " +
    "correct the application and submit a new one); acknowledging the notification is not enough.",
  expected: "The failed application's information read (200) after it failed validation.",
  instructions: ({ deadline, checks }) =>
    `Submit one application from your software before ${deadline} (the run's deadline, on the unit's sandbox clock), ` +
    `${submissionPlace("validation-failed", checks)}: the sandbox fails its validation, and your software must handle ` +
    "the application.validation-failed that follows.",
  steps: submissionSteps,
  gather: async ({ storage, run }) => ({ submissions: await submissionsOf(storage, run) }),
  judge: ({ observations, submissions: taken, ended }) => {
    const failedSubmission = taken["validation-failed"];
    if (!failedSubmission) return noSubmissionTaken(observations, ended);
    const submissions = observations.filter(isSubmission);
    const { applicationId, takenMs: failedMs } = failedSubmission;
    const reads = observations.filter(
      (observation) =>
        isOperation(observation, "getApplicationInformation") && observation.pathParameters["id"] === applicationId,
    );
    const read = reads.find((observation) => observation.status === 200 && observation.clockMs >= failedMs);
    const requests = firstHundred([...submissions, ...reads].sort((a, b) => a.sequence - b.sequence));
    if (read)
      return {
        verdict: "passed",
        found: `Application ${applicationId} failed validation; its information was read (observation ${read.sequence}).`,
        requests,
      };
    const found = `Application ${applicationId} failed validation; its information was not read${reads.length > 0 ? " successfully" : ""}.`;
    return { verdict: ended ? "failed" : "running", found, requests };
  },
  offline: {
    occasion:
      "each application shown failed validation (application.validation-failed or APPLICATION_VALIDATION_FAILED " +
      "listed, or its information answered VALIDATION_FAILED): its information read (200) from its submission on",
    none: "No application of the recording was shown failed validation.",
    find: (recording) =>
      takenAsShown("validation-failed", recording, "VALIDATION_FAILED", [
        "application.validation-failed",
        "APPLICATION_VALIDATION_FAILED",
      ]),
  },
};
