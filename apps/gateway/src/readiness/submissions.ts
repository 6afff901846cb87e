import type { NewSubmission, SubmissionFate } from "../hooks.js";
import type { RuleError } from "../applications/validation-rules.js";
import type { ReadinessObservationRow, SubmissionCase } from "./store/port.js";
import type { SettingStore } from "../storage/ports/settings.js";
import {
  firstHundred,
  isOperation,
  type CheckName,
  type CheckSteps,
  type Judgement,
  type Recording,
  type RunningRun,
  type StepScope,
} from "./check.js";
import type { components } from "../operation-types.js";
import { applicationsShown, submissionOf, type NotificationType } from "./recording.js";
import { RunSetting } from "./run-settings.js";
import { isNumber, isString, objectOf } from "./shapes.js";

/**
 * The checks that act on the unit's own submissions during a run, in the fixed order they take them (of those the run
 * examines): validation-failed the first, system-error the next, lost-answer the next. This order lets one software's
 * natural reactions feed the next check: its resubmission after the SYSTEM_ERROR is the submission whose answer is
 * lost. `spec/paths/sandbox/readiness-runs.yaml` documents it.
 */
export const SUBMISSION_CHECKS = [
  "validation-failed",
  "system-error",
  "lost-answer",
] as const satisfies readonly CheckName[];

/** A check that takes one of the unit's submissions. */
export type SubmissionCheck = (typeof SUBMISSION_CHECKS)[number];

/**
 * A submission a run took for one of its checks: the application stored, the key it came with, when (unit's clock).
 * On a recording, the application is empty where the recording does not show it (an answer lost, never retried).
 */
export interface TakenSubmission {
  applicationId: string;
  idempotencyKey: string;
  takenMs: number;
}

/** The submissions a run took, by check. */
export type TakenSubmissions = Partial<Record<SubmissionCheck, TakenSubmission>>;

/** What the checks that act on a submission are judged from besides the run's facts: the submissions it took. */
export interface SubmissionFacts {
  submissions: TakenSubmissions;
}

/** What the setting keeps: the run that took them, and each taken submission in order. */
interface Stored {
  runId: string;
  taken: (TakenSubmission & { check: SubmissionCheck })[];
}

const isSubmissionCheck = (value: unknown): value is SubmissionCheck =>
  SUBMISSION_CHECKS.some((check) => check === value);

/** The setting that holds a unit's taken submissions. */
const submissionsSetting = new RunSetting<Stored>(
  "submissions",
  objectOf<Stored>({
    runId: isString,
    taken: (value): value is Stored["taken"] =>
      Array.isArray(value) &&
      value.every(
        objectOf<Stored["taken"][number]>({
          check: isSubmissionCheck,
          applicationId: isString,
          idempotencyKey: isString,
          takenMs: isNumber,
        }),
      ),
  }),
);

/** The errors the application validation-failed takes lists in its information. */
const VALIDATION_ERRORS: RuleError[] = [
  {
    type: "readiness-validation-failed",
    detail:
      "the sandbox's readiness run failed this application's validation on purpose: read these errors, as your " +
      "software would read the registry's",
    pointer: null,
  },
];

/** What the gateway does with the submission each check takes. */
const FATES: { readonly [Check in SubmissionCheck]: SubmissionFate } = {
  "validation-failed": { kind: "fail-validation", errors: VALIDATION_ERRORS },
  "system-error": { kind: "fail-internally" },
  "lost-answer": { kind: "close-unanswered" },
};

/**
 * The step of the checks that act on a submission (`submissionTaken`), one a gateway whichever of them a run examines:
 * the unit's new application is offered once, to the run's next such check.
 */
export const submissionSteps = (scope: StepScope): CheckSteps =>
  scope.shared(SUBMISSION_CHECKS, () => ({
    submissionTaken: (run, submission, nowMs) => takeSubmission(scope.storage, run, submission, nowMs),
  }));

/** The submission-taking checks of a run, in the order they take submissions. */
export const submissionChecksOf = (checks: readonly string[]): SubmissionCheck[] =>
  SUBMISSION_CHECKS.filter((name) => checks.includes(name));

/**
 * Takes a new application of the unit for the run's next check that has no submission yet, atomically in the store
 * (two submissions on two instances never both take the same check, nor one check two). Answers what the gateway must
 * do with it, or undefined when every such check of the run has one already.
 */
export async function takeSubmission(
  storage: SettingStore,
  run: Pick<RunningRun, "id" | "checks">,
  submission: NewSubmission,
  nowMs: number,
): Promise<SubmissionFate | undefined> {
  const order = submissionChecksOf(run.checks);
  if (order.length === 0) return undefined;
  const { businessUnitId, applicationId, idempotencyKey } = submission;
  const check = await submissionsSetting.update<SubmissionCheck | undefined>(storage, businessUnitId, (current) => {
    const taken = current?.runId === run.id ? current.taken : [];
    const next = order[taken.length];
    if (next === undefined) return { value: { runId: run.id, taken }, answer: undefined };
    const took = { check: next, applicationId, idempotencyKey, takenMs: nowMs };
    return { value: { runId: run.id, taken: [...taken, took] }, answer: next };
  });
  return check === undefined ? undefined : FATES[check];
}

/** The submissions a run took, by check. */
export async function submissionsOf(
  storage: SettingStore,
  run: { id: string; businessUnitId: string; checks: readonly string[] },
): Promise<TakenSubmissions> {
  if (submissionChecksOf(run.checks).length === 0) return {};
  const stored = await submissionsSetting.keptBy(storage, run.businessUnitId, run.id);
  if (!stored) return {};
  return Object.fromEntries(stored.taken.map(({ check, ...taken }) => [check, taken]));
}

const ORDINALS = ["first", "second", "third"] as const;

/**
 * Which of the run's submissions a check takes, as its instructions say it: "the run's first submission", or with
 * others "the run's second submission (it takes 3, in this order: validation-failed, system-error, lost-answer)".
 */
export function submissionPlace(check: SubmissionCheck, checks: readonly string[]): string {
  const order = submissionChecksOf(checks);
  const place = `the run's ${ORDINALS[Math.max(0, order.indexOf(check))]} submission`;
  return order.length < 2 ? place : `${place} (it takes ${order.length}, in this order: ${order.join(", ")})`;
}

/** Whether an observation is a submission (`POST /v0/applications`), whatever its answer. */
export const isSubmission = (observation: ReadinessObservationRow): boolean =>
  isOperation(observation, "submitApplication");

/**
 * The status an observation keeps of an answer the network lost: nginx's 444, as the gateway observes an answer it
 * closes unanswered (`closeUnanswered`) and a recording's exchange whose answer never arrived is observed.
 */
export const ANSWER_LOST = 444;

/** Statuses of a submission that stored a new application: 202, or ANSWER_LOST (stored, its answer lost on purpose). */
export const STORED_STATUSES: ReadonlySet<number> = new Set([202, ANSWER_LOST]);

/**
 * The applications a recording shows in `status` (`applicationsShown`) as the submissions a check of theirs took,
 * each as the facts of one occasion: taken when the recording's submission of it was answered (202, with its key), or,
 * when the recording does not hold that submission, when it was first shown so.
 */
export function takenAsShown(
  check: Exclude<SubmissionCheck, "lost-answer">,
  recording: Recording,
  status: components["schemas"]["ApplicationStatus"],
  types: readonly NotificationType[],
): SubmissionFacts[] {
  return applicationsShown(recording, status, types).map(({ applicationId, shownMs }) => {
    const submitted = submissionOf(recording, applicationId);
    const taken: TakenSubmission = submitted
      ? { applicationId, idempotencyKey: submitted.idempotencyKey ?? "", takenMs: submitted.clockMs }
      : { applicationId, idempotencyKey: "", takenMs: shownMs };
    return { submissions: { [check]: taken } };
  });
}

/**
 * A taken submission's own observation (the first submission with its key answered `status` once it was taken), and
 * the submissions the software made after it (after it was taken, when its observation is missing: over the bound).
 */
export function observedAround(
  observations: readonly ReadinessObservationRow[],
  taken: TakenSubmission,
  status: number,
): { own: ReadinessObservationRow | undefined; later: ReadinessObservationRow[] } {
  const submissions = observations.filter(isSubmission);
  const own = submissions.find(
    (observation) =>
      observation.idempotencyKey === taken.idempotencyKey &&
      observation.status === status &&
      observation.clockMs >= taken.takenMs,
  );
  const later = submissions.filter((observation) =>
    own ? observation.sequence > own.sequence : observation.clockMs > taken.takenMs,
  );
  return { own, later };
}

/** Whether two submissions are for the same case: the same type, customer reference and title numbers. */
export function sameCase(a: SubmissionCase, b: SubmissionCase): boolean {
  return (
    a.type === b.type &&
    a.customerReference === b.customerReference &&
    a.titleNumbers.length === b.titleNumbers.length &&
    a.titleNumbers.every((number, index) => number === b.titleNumbers[index])
  );
}

/** A submission's case as evidence reads it. */
export const describeCase = (submissionCase: SubmissionCase): string =>
  `${submissionCase.type} "${submissionCase.customerReference}", titles ${submissionCase.titleNumbers.join(", ") || "none"}`;

/** The verdict of a check whose submission the run has not taken (yet): running, or not exercised once it ended. */
export function noSubmissionTaken(observations: readonly ReadinessObservationRow[], ended: boolean): Judgement {
  return {
    verdict: ended ? "not_exercised" : "running",
    found: "No application of the unit was submitted for this check during the run.",
    requests: firstHundred(observations.filter(isSubmission)),
  };
}
