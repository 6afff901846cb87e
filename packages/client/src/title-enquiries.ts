import { randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { WorkflowContext } from "./context.js";
import { GatewayError, errorFromResponse, parseRetryAfter } from "./errors.js";
import type { components } from "@lrg/spec/types/openapi";

export type OfficialSearchRequest = components["schemas"]["OfficialSearchRequest"];
export type OfficialSearchResult = components["schemas"]["OfficialSearchResult"];
export type OfficialSearchDeferred = components["schemas"]["OfficialSearchDeferred"];

/** An official search request whose `message_id` the client generates when it is left out. */
export type OfficialSearchInput = Omit<OfficialSearchRequest, "message_id"> & { message_id?: string };

/** A `message_id`: 5 to 50 letters, digits and hyphens, starting with a letter or digit. */
export const MESSAGE_ID_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9-]{4,49}$/;

/** Options of the polling of a deferred result. */
export interface PollOptions {
  /** Give up after this long in all (the search's own request included). Default 120000 ms. */
  readonly timeoutMs?: number;
  /** The first wait when the server gives no `Retry-After`; it doubles each poll. Default 1000 ms. */
  readonly initialDelayMs?: number;
  /** The longest wait between two polls when the server gives no `Retry-After`. Default 30000 ms. */
  readonly maxDelayMs?: number;
  readonly signal?: AbortSignal;
}

/** A search's result, with the `message_id` it was made under. */
export interface OfficialSearchOutcome {
  readonly message_id: string;
  readonly result: OfficialSearchResult;
  /** The deferred acknowledgement, when the result was not given at once. */
  readonly deferred: OfficialSearchDeferred | undefined;
}

/**
 * The result was still deferred when the polling's time ran out. The search stands: fetch its result later
 * with `pollOfficialSearch(error.messageId)`, from `expected_response_at` on.
 */
export class DeferredResultTimeoutError extends GatewayError {
  override name = "DeferredResultTimeoutError";
  constructor(
    readonly messageId: string,
    readonly deferred: OfficialSearchDeferred,
  ) {
    super(
      `the result of official search ${messageId} is deferred (${deferred.data.acknowledgement_code}), ` +
        `expected at ${deferred.data.expected_response_at}`,
    );
  }
}

/** A new `message_id`: `lrg-` and a random UUID, 40 characters, unique for all practical purposes. */
export function createMessageId(): string {
  return `lrg-${randomUUID()}`;
}

const DEFAULT_POLL = { timeoutMs: 120_000, initialDelayMs: 1000, maxDelayMs: 30_000 } as const;

/** Equal jitter: half the delay fixed, half random, so polls neither bunch up nor come too soon. */
function jittered(delayMs: number): number {
  return Math.floor(delayMs / 2 + Math.random() * (delayMs / 2));
}

async function pollUntilReady(
  context: WorkflowContext,
  messageId: string,
  deferred: OfficialSearchDeferred,
  firstRetryAfter: string | null,
  deadline: number,
  options: PollOptions,
): Promise<OfficialSearchOutcome> {
  const initialDelayMs = options.initialDelayMs ?? DEFAULT_POLL.initialDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_POLL.maxDelayMs;
  const signal = options.signal;
  let latest = deferred;
  let retryAfter = firstRetryAfter;
  for (let poll = 0; ; poll++) {
    const backoff = Math.min(maxDelayMs, initialDelayMs * 2 ** poll);
    const delayMs = parseRetryAfter(retryAfter) ?? jittered(backoff);
    // Waiting past the deadline only to give up then helps nobody: give up now.
    if (Date.now() + delayMs > deadline) throw new DeferredResultTimeoutError(messageId, latest);
    await sleep(delayMs, undefined, signal !== undefined ? { signal } : {});
    const { data, error, response } = await context.api.GET("/api/v1/poll-requests/{message_id}", {
      params: { path: { message_id: messageId } },
      ...(signal !== undefined && { signal }),
    });
    if (data === undefined) {
      throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
    }
    if (response.status !== 202) return { message_id: messageId, result: data as OfficialSearchResult, deferred };
    latest = data as OfficialSearchDeferred;
    retryAfter = response.headers.get("retry-after");
  }
}

/**
 * Makes an official search of whole with priority. Generates a unique `message_id` when the request has none.
 * When the registry defers the result (202: manual processing, or out of the service hours), polls the Poll
 * Request Service with backoff, honouring `Retry-After`, until the result is ready or `timeoutMs` has passed.
 *
 * @throws {DeferredResultTimeoutError} still deferred at the deadline; poll later with `pollOfficialSearch`.
 * @throws {ProblemError} an error answer: 422 for a business rule (`rule`), 409 for a reused `message_id`...
 */
export async function officialSearchOfWhole(
  context: WorkflowContext,
  request: OfficialSearchInput,
  options: PollOptions = {},
): Promise<OfficialSearchOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_POLL.timeoutMs);
  const messageId = request.message_id ?? createMessageId();
  const signal = options.signal;
  const answer = await context.api.POST("/api/v1/official-searches-of-whole", {
    body: { ...request, message_id: messageId },
    ...(signal !== undefined && { signal }),
  });
  return outcomeOf(context, messageId, answer, deadline, options);
}

/**
 * Fetches the result of an earlier official search by its `message_id`, polling while it is deferred, as
 * {@link officialSearchOfWhole} does after a 202.
 */
export async function pollOfficialSearch(
  context: WorkflowContext,
  messageId: string,
  options: PollOptions = {},
): Promise<OfficialSearchOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_POLL.timeoutMs);
  const signal = options.signal;
  const answer = await context.api.GET("/api/v1/poll-requests/{message_id}", {
    params: { path: { message_id: messageId } },
    ...(signal !== undefined && { signal }),
  });
  return outcomeOf(context, messageId, answer, deadline, options);
}

/** A search's or a poll's answer: the result at once (201/200), polling while deferred (202), or its typed error. */
function outcomeOf(
  context: WorkflowContext,
  messageId: string,
  { data, error, response }: { data?: unknown; error?: unknown; response: Response },
  deadline: number,
  options: PollOptions,
): Promise<OfficialSearchOutcome> | OfficialSearchOutcome {
  if (data === undefined) {
    throw errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body: error });
  }
  if (response.status !== 202)
    return { message_id: messageId, result: data as OfficialSearchResult, deferred: undefined };
  const deferred = data as OfficialSearchDeferred;
  return pollUntilReady(context, messageId, deferred, response.headers.get("retry-after"), deadline, options);
}
