import { firstHundred, type FoundFacts, type GatheringCheck, type Recording } from "./check.js";
import { applicationAnswered } from "./recording.js";
import {
  ANSWER_LOST,
  isSubmission,
  noSubmissionTaken,
  observedAround,
  STORED_STATUSES,
  submissionPlace,
  submissionSteps,
  submissionsOf,
  type SubmissionFacts,
} from "./submissions.js";

/**
 * The submissions of a recording whose answer never arrived (observed ANSWER_LOST), each as the submission the check
 * took: its key, when, and the application the first retry with that key was answered with (202), if any.
 */
function lostInRecording(recording: Recording): FoundFacts<SubmissionFacts>[] {
  return recording.exchanges
    .filter(({ observation }) => isSubmission(observation) && observation.status === ANSWER_LOST)
    .map(({ observation: lost }) => {
      const retried = recording.exchanges.find(
        ({ observation }) =>
          isSubmission(observation) &&
          lost.idempotencyKey !== null &&
          observation.sequence > lost.sequence &&
          observation.idempotencyKey === lost.idempotencyKey &&
          observation.status === 202,
      );
      const applicationId = retried ? (applicationAnswered(retried.answer) ?? "") : "";
      const taken = { applicationId, idempotencyKey: lost.idempotencyKey ?? "", takenMs: lost.clockMs };
      return { submissions: { "lost-answer": taken } };
    });
}

/**
 * Lost answer: the network may lose the answer of a submission the registry stored. The run stores one of the unit's
 * submissions and closes its connection before the answer is written (observed with status 444); the retry must carry
 * the same Idempotency-Key, which the gateway answers with the stored application, so that exactly one exists. The
 * software's first submission after the lost one is its retry: with another key it is a second application.
 */
export const lostAnswer: GatheringCheck<SubmissionFacts> = {
  howToPass:
    "Generate an Idempotency-Key once per application and keep it with the application before sending. When a " +
    "submission's answer does not arrive (connection closed or reset, timeout), send the same request again with " +
    "the same key: the gateway answers 202 with the application it stored the first time. A new key for a retry " +
    "submits the application twice.",
  expected:
    "The submission whose answer was lost retried with the same Idempotency-Key and answered 202, before any other " +
    "submission.",
  instructions: ({ deadline, checks }) =>
    `Submit one application from your software before ${deadline} (the run's deadline, on the unit's sandbox clock), ` +
    `${submissionPlace("lost-answer", checks)}: the sandbox stores it, then closes the connection before its answer ` +
    "is sent, and your software must retry it with the same Idempotency-Key, before it submits anything else and " +
    "before the deadline.",
  steps: submissionSteps,
  gather: async ({ storage, run }) => ({ submissions: await submissionsOf(storage, run) }),
  judge: ({ observations, submissions, ended }) => {
    const stored = submissions["lost-answer"];
    if (!stored) return noSubmissionTaken(observations, ended);
    const key = stored.idempotencyKey;
    const { own, later } = observedAround(observations, stored, ANSWER_LOST);
    const requests = firstHundred([...(own ? [own] : []), ...later]);
    const where = own ? ` (observation ${own.sequence}, ${ANSWER_LOST})` : "";
    const lost =
      stored.applicationId === ""
        ? `A submission's answer was lost${where}`
        : `Application ${stored.applicationId} was stored and its answer lost${where}`;
    const retry = later.find((observation) => observation.idempotencyKey === key && observation.status === 202);
    const other = later.find(
      (observation) => observation.idempotencyKey !== key && STORED_STATUSES.has(observation.status),
    );
    // A retry with the same key but another body is refused (409): the registry keeps the first body for the key.
    const conflict = later.find(
      (observation) =>
        observation.idempotencyKey === key &&
        observation.status === 409 &&
        (!retry || observation.sequence < retry.sequence),
    );
    const changedBody = conflict
      ? `; its retry with the same Idempotency-Key (observation ${conflict.sequence}) was answered 409${
          conflict.answerCode ? ` ${conflict.answerCode}` : ""
        }: the body differed from the first (${conflict.answerDetail ?? "another request under the same key"}), so ` +
        "a retry must resend the same request"
      : "";
    if (other && (!retry || other.sequence < retry.sequence))
      return {
        verdict: "failed",
        found:
          `${lost}${changedBody}; the software's next application came under another Idempotency-Key (observation ` +
          `${other.sequence}, answered ${other.status}): a second application.`,
        requests,
      };
    if (retry)
      return {
        verdict: "passed",
        found:
          `${lost}; the software retried with the same Idempotency-Key (observation ${retry.sequence}), answered 202 ` +
          "with the stored application: one application for the key.",
        requests,
      };
    const tries = later.filter((observation) => observation.idempotencyKey === key);
    const refused =
      conflict || tries.length === 0
        ? ""
        : ` (its retries with that key were refused: ${tries.map((t) => t.status).join(", ")})`;
    return {
      verdict: ended ? "failed" : "running",
      found: conflict
        ? `${lost}${changedBody}.`
        : `${lost}; the software did not retry it with the same Idempotency-Key${refused}.`,
      requests,
    };
  },
  offline: {
    occasion:
      "each submission whose answer never arrived (the connection closed unanswered): retried with the same " +
      "Idempotency-Key and answered 202 before any other submission was stored",
    none: "No submission of the recording went unanswered.",
    find: lostInRecording,
  },
};
