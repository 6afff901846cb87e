import type { RuleError } from "../applications/validation-rules.js";
import type { Storage } from "../storage/storage.js";
import { firstHundred, type ReadinessCheck } from "./check.js";
import type { RunningRun } from "./observer.js";

/** The submission a run failed: which application, and when by the unit's clock. */
export interface FailedSubmission {
  runId: string;
  applicationId: string;
  failedMs: number;
}

/** The setting that holds a unit's failed submission (one a unit; a later run's replaces it; a unit's reset clears it). */
export const failedSubmissionSetting = (businessUnitId: string): string =>
  `readiness.validation-failed.${businessUnitId}`;

/** The errors the failed application's information lists. */
const ERRORS: RuleError[] = [
  {
    type: "readiness-validation-failed",
    detail:
      "the sandbox's readiness run failed this application's validation on purpose: read these errors, as your " +
      "software would read the registry's",
    pointer: null,
  },
];

/**
 * Takes the run's one validation failure for a new application of its unit: the first submission of the run takes it,
 * atomically in the store (two submissions on two instances never both do). Answers the errors to fail it with, or
 * null when the run has failed one already.
 */
export async function takeValidationFailure(
  storage: Storage,
  run: Pick<RunningRun, "id">,
  businessUnitId: string,
  applicationId: string,
  nowMs: number,
): Promise<RuleError[] | null> {
  const taken = await storage.updateSetting<FailedSubmission, boolean>(
    failedSubmissionSetting(businessUnitId),
    (current) =>
      current?.runId === run.id
        ? { value: current, answer: false }
        : { value: { runId: run.id, applicationId, failedMs: nowMs }, answer: true },
  );
  return taken ? ERRORS : null;
}

/** The submission a run failed, if it failed one. */
export async function failedSubmissionOf(
  storage: Storage,
  run: { id: string; businessUnitId: string },
): Promise<FailedSubmission | undefined> {
  const stored = await storage.getSetting<FailedSubmission>(failedSubmissionSetting(run.businessUnitId));
  return stored?.runId === run.id ? stored : undefined;
}

/**
 * Validation failed: an application that fails validation moves to VALIDATION_FAILED and raises
 * `application.validation-failed`; why is only in the application information's `errors`. The run fails the unit's
 * next submission: the software must then read that application's information.
 */
export const validationFailed: ReadinessCheck = {
  howToPass:
    "On application.validation-failed (APPLICATION_VALIDATION_FAILED in version 0), read the application's " +
    "information (GET /v0/applications/{id}/information) and act on its errors (show them to the case worker, " +
    "correct the application and submit a new one); acknowledging the notification is not enough.",
  expected: "The failed application's information read (200) after it failed validation.",
  instructions: (deadline) =>
    `Submit one application from your software before ${deadline} (the run's deadline, on the unit's sandbox clock): ` +
    "the sandbox fails its validation, and your software must handle the application.validation-failed that follows.",
  judge: ({ observations, failedSubmission, ended }) => {
    const submissions = observations.filter((observation) => observation.operationId === "submitApplication");
    if (!failedSubmission) {
      const found = "No application of the unit was submitted during the run.";
      return ended
        ? { verdict: "not_exercised", found, requests: firstHundred(submissions) }
        : { verdict: "running", found, requests: firstHundred(submissions) };
    }
    const { applicationId, failedMs } = failedSubmission;
    const reads = observations.filter(
      (observation) =>
        observation.operationId === "getApplicationInformation" && observation.pathParameters["id"] === applicationId,
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
};
