import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkflowContext } from "./context.js";
import { unwrap } from "./errors.js";
import type { components } from "@lrg/spec/types/openapi";

/** A submission as the spec's ApplicationSubmission schema gives it. */
export type ApplicationSubmission = components["schemas"]["ApplicationSubmission"];
/** Application information (`data` of GET /v0/applications/{id}/information). */
export type ApplicationInformation = components["schemas"]["ApplicationInformation"]["data"];
/** An application's status. */
export type ApplicationStatus = ApplicationInformation["status"];

/** Options of {@link submitApplication}. */
export interface SubmitOptions {
  /**
   * The submission's `Idempotency-Key`. Generated (a random UUID) when not given; keep the one answered to retry
   * the same submission safely, or to resubmit after SYSTEM_ERROR.
   */
  readonly idempotencyKey?: string;
  readonly signal?: AbortSignal;
}

/** A submission the registry took (202). */
export interface SubmittedApplication {
  readonly application_request_id: string;
  /** The key it was sent with: the same key and body again answer the same application, unless it ended in SYSTEM_ERROR. */
  readonly idempotency_key: string;
}

/** Options of {@link submitUntilDecided}. */
export interface SubmitUntilDecidedOptions extends SubmitOptions {
  /** Submissions in all, the first included, while each ends in SYSTEM_ERROR. Default 3. */
  readonly maxAttempts?: number;
  /** The first wait between two reads of application information; it doubles each read. Default 500 ms. */
  readonly initialDelayMs?: number;
  /** The longest wait between two reads. Default 10000 ms. */
  readonly maxDelayMs?: number;
  /** How long to wait for each submission to leave VALIDATING before answering it as it is. Default 120000 ms. */
  readonly timeoutMs?: number;
}

/** What {@link submitUntilDecided} ends with. */
export interface DecidedApplication extends SubmittedApplication {
  /** The last application's information: VALIDATING still if its decision did not come in time. */
  readonly information: ApplicationInformation;
  /** The application_request_id of every submission made, oldest first (the last is `application_request_id`). */
  readonly attempts: readonly string[];
}

/** The defaults of {@link submitUntilDecided}. */
export const DEFAULT_SUBMIT_UNTIL_DECIDED = {
  maxAttempts: 3,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  timeoutMs: 120_000,
} as const;

/**
 * Submits an application with an `Idempotency-Key` (generated when not given). A network failure or a 429/5xx is
 * retried with the same key, so the registry sees one submission. Answers the `application_request_id` and the
 * key; an error answer is thrown as its typed error (`ProblemError` for 400 and 409...).
 */
export async function submitApplication(
  context: WorkflowContext,
  body: ApplicationSubmission,
  options: SubmitOptions = {},
): Promise<SubmittedApplication> {
  const key = options.idempotencyKey ?? randomUUID();
  const { signal } = options;
  const answer = await unwrap(
    context.api.POST("/v0/applications", {
      params: { header: { "Idempotency-Key": key } },
      body,
      ...(signal !== undefined && { signal }),
    }),
  );
  return { application_request_id: answer.data.application_request_id, idempotency_key: key };
}

/** An application's information; an error answer (404 for an unknown id) is thrown as its typed error. */
export async function applicationInformation(
  context: WorkflowContext,
  id: string,
  options: { signal?: AbortSignal } = {},
): Promise<ApplicationInformation> {
  const { signal } = options;
  const answer = await unwrap(
    context.api.GET("/v0/applications/{id}/information", {
      params: { path: { id } },
      ...(signal !== undefined && { signal }),
    }),
  );
  return answer.data;
}

/**
 * Submits an application and follows it until the registry decides (it leaves VALIDATING). When it ends in
 * SYSTEM_ERROR, submits it again with the same `Idempotency-Key`, as the requirement asks: the registry
 * released the key of the failed application, so the retry is a new application with a new
 * application_request_id, never a replay of the failed one. Stops after `maxAttempts` submissions; a
 * SYSTEM_ERROR that persists is answered as it is (then contact support). Answers the last application.
 */
export async function submitUntilDecided(
  context: WorkflowContext,
  body: ApplicationSubmission,
  options: SubmitUntilDecidedOptions = {},
): Promise<DecidedApplication> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_SUBMIT_UNTIL_DECIDED.maxAttempts);
  const key = options.idempotencyKey ?? randomUUID();
  const attempts: string[] = [];
  for (;;) {
    const submitted = await submitApplication(context, body, { ...options, idempotencyKey: key });
    attempts.push(submitted.application_request_id);
    const information = await awaitDecision(context, submitted.application_request_id, options);
    if (information.status !== "SYSTEM_ERROR" || attempts.length >= maxAttempts)
      return { ...submitted, information, attempts };
  }
}

/** Reads application information with a doubling wait until the status leaves VALIDATING or the time is up. */
async function awaitDecision(
  context: WorkflowContext,
  id: string,
  options: SubmitUntilDecidedOptions,
): Promise<ApplicationInformation> {
  const { signal } = options;
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_SUBMIT_UNTIL_DECIDED.timeoutMs);
  const initialDelayMs = options.initialDelayMs ?? DEFAULT_SUBMIT_UNTIL_DECIDED.initialDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_SUBMIT_UNTIL_DECIDED.maxDelayMs;
  for (let read = 0; ; read++) {
    const information = await applicationInformation(context, id, options);
    if (information.status !== "VALIDATING") return information;
    const delayMs = Math.min(maxDelayMs, initialDelayMs * 2 ** read);
    if (Date.now() + delayMs > deadline) return information;
    await sleep(delayMs, undefined, signal !== undefined ? { signal } : {});
  }
}
