import type { FastifyReply, FastifyRequest } from "fastify";
import { READINESS_BOUNDS, type Operation } from "@lrg/spec";
import type { Clock } from "../clock.js";
import { errorOfAnswer } from "../problems.js";
import { ACKNOWLEDGE_OPERATIONS, isOperation, type RunningRun } from "./check.js";
import type { ReadinessObservationRow, ReadinessRunRow, ReadinessStore, SubmissionCase } from "./store/port.js";

/** The most observations one run keeps (ReadinessObservation `sequence` maximum); later ones are counted as dropped. */
export const OBSERVATIONS_KEPT_PER_RUN = READINESS_BOUNDS.observationsKept;

/** Query parameters whose value is never kept: a secret or the signature of a signed address. */
const SECRET_NAME = /sig|token|secret|pass|credential|auth|key/i;
const REDACTED = "[redacted]";
/** What an observation keeps at most (ReadinessObservation): a value's length, parameters, ids, title numbers. */
const { valueLength, parametersKept, acknowledgedIdsKept, idempotencyKeyLength, titleNumbersKept } = READINESS_BOUNDS;

/**
 * Observes the registry interface for the business units under a running readiness run: each answered request of such
 * a unit's software becomes one observation in the store. Which units have a running run is held in memory, so that a
 * request of any other unit costs one map look-up; the readiness service keeps it current on this instance, and
 * `reload` reads it again when another instance on the same store started or ended a run.
 */
export class ReadinessObserver {
  readonly #storage: ReadinessStore;
  readonly #clock: Clock;
  readonly #log: (error: unknown) => void;
  #running = new Map<string, RunningRun>();
  #changed: () => void = () => undefined;
  #pending: PendingObservation[] = [];
  #writing: Promise<void> | undefined;

  readonly #deferred: boolean;
  #timer: NodeJS.Timeout | undefined;

  /**
   * `deferred`: this instance alone answers the units' requests (SQLite): observations are written in batches a
   * moment after their answers, and the readiness service waits for them (`settled`) before it judges. Otherwise
   * (PostgreSQL, where the run may be read on another instance), each is written before its answer goes out.
   */
  constructor(storage: ReadinessStore, clock: Clock, log: (error: unknown) => void, options: { deferred: boolean }) {
    this.#storage = storage;
    this.#clock = clock;
    this.#log = log;
    this.#deferred = options.deferred;
  }

  /** Writes every observation made so far; answers once they are in the store (or failed, and were logged). */
  async settled(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#pending.length > 0) this.#writing ??= this.#writeBatches();
    while (this.#writing) await this.#writing;
  }

  /** Reads the running runs from the store again. */
  async reload(): Promise<void> {
    this.#running = runningByUnit(await this.#storage.runningReadinessRuns());
    this.#changed();
  }

  /** Calls `listener` whenever the running runs changed (one started, ended or was forgotten; they were read again). */
  onChange(listener: () => void): void {
    this.#changed = listener;
  }

  /** The running runs, by business unit. */
  running(): ReadonlyMap<string, RunningRun> {
    return this.#running;
  }

  /** The running run of a business unit whose deadline its clock (at `nowMs`) has not reached: one map look-up. */
  runOf(businessUnitId: string, nowMs: number): RunningRun | undefined {
    const run = this.#running.get(businessUnitId);
    return run && nowMs < run.deadlineMs ? run : undefined;
  }

  started(run: Pick<ReadinessRunRow, "id" | "businessUnitId" | "deadlineMs" | "checks">): void {
    this.#running.set(run.businessUnitId, { id: run.id, deadlineMs: run.deadlineMs, checks: run.checks });
    this.#changed();
  }

  ended(run: Pick<ReadinessRunRow, "id" | "businessUnitId">): void {
    if (this.#running.get(run.businessUnitId)?.id === run.id) this.#running.delete(run.businessUnitId);
    this.#changed();
  }

  /** Forgets every run of a business unit (its reset), or every run (null: the sandbox's reset). */
  forget(businessUnitId: string | null): void {
    if (businessUnitId === null) this.#running.clear();
    else this.#running.delete(businessUnitId);
    this.#changed();
  }

  /**
   * Records the answer to a registry request of `businessUnitId` (its credentials' unit, or for a signed upload or
   * download address the unit of the document it names; undefined when neither is known: not observed), if the unit has a running run whose deadline its clock has not passed. A failure to record is logged;
   * the answer goes out all the same.
   */
  observe(
    operation: Operation,
    businessUnitId: string | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<void> | undefined {
    if (businessUnitId === undefined) return undefined;
    const run = this.#running.get(businessUnitId);
    if (!run) return undefined;
    const clockMs = this.#clock.nowMs(businessUnitId);
    if (clockMs >= run.deadlineMs) return undefined;
    const observation = observationOf(operation, request, reply, payload, { runId: run.id, businessUnitId, clockMs });
    if (!this.#deferred) return this.#record(observation);
    this.#defer(observation);
    return undefined;
  }

  /**
   * Writes an observation before its answer goes out (a verdict read on any instance never misses a request the
   * software was answered), in a group commit: one write is in flight at a time, and every observation made meanwhile
   * goes into the next, so that a unit under load costs one transaction per batch rather than per request.
   */
  #record(observation: PendingObservation["observation"]): Promise<void> {
    return new Promise((recorded) => {
      this.#pending.push({ observation, recorded });
      this.#writing ??= this.#writeBatches();
    });
  }

  /**
   * Keeps an observation for the next batch, written DEFER_MS later (or at MAX_BATCH): a unit under load costs the
   * store one transaction a few times a second, not one per request, and its answers wait for no write.
   */
  #defer(observation: PendingObservation["observation"]): void {
    this.#pending.push({ observation, recorded: () => {} });
    if (this.#pending.length >= MAX_BATCH) void this.settled();
    else this.#timer ??= setTimeout(() => void this.settled(), DEFER_MS).unref();
  }

  async #writeBatches(): Promise<void> {
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0, MAX_BATCH);
      await this.#storage
        .appendReadinessObservations(
          batch.map((pending) => pending.observation),
          OBSERVATIONS_KEPT_PER_RUN,
        )
        .catch(this.#log);
      for (const pending of batch) pending.recorded();
    }
    this.#writing = undefined;
  }
}

/** An observation waiting for its batch, and what to call once the batch is written (or failed, and was logged). */
interface PendingObservation {
  observation: Omit<ReadinessObservationRow, "sequence">;
  recorded: () => void;
}

/** Most observations written in one transaction. */
const MAX_BATCH = 2_000;
/** How long a deferred observation waits for others to share its transaction. */
const DEFER_MS = 1_000;

function runningByUnit(runs: ReadinessRunRow[]): Map<string, RunningRun> {
  return new Map(
    runs.map((run) => [run.businessUnitId, { id: run.id, deadlineMs: run.deadlineMs, checks: run.checks }]),
  );
}

/**
 * What an observation keeps of a request and its answer: never the request's body (but an acknowledge call's ids)
 * nor its credentials; of the answer, its status, its `Retry-After` and, for an error, its code and detail.
 */
export function observationOf(
  operation: Pick<Operation, "operationId" | "method">,
  request: Pick<FastifyRequest, "query" | "params" | "headers" | "body">,
  reply: Pick<FastifyReply, "statusCode" | "getHeader">,
  payload: unknown,
  context: { runId: string; businessUnitId: string; clockMs: number },
): Omit<ReadinessObservationRow, "sequence"> {
  const error = errorOfAnswer(reply.statusCode, payload);
  const ids = isOperation(operation, ...ACKNOWLEDGE_OPERATIONS) ? acknowledgeIdsOf(request.body) : null;
  const key = request.headers["idempotency-key"];
  return {
    ...context,
    method: operation.method.toUpperCase(),
    operationId: operation.operationId,
    query: redacted(request.query),
    status: reply.statusCode,
    credentialsSent: request.headers.authorization !== undefined,
    acknowledgedIds: ids === null ? null : ids.slice(0, acknowledgedIdsKept).map((id) => cut(id)),
    acknowledgedCount: ids === null ? null : ids.length,
    idempotencyKey: typeof key === "string" ? cut(key, idempotencyKeyLength) : null,
    pathParameters: redacted(request.params),
    retryAfterSeconds: wholeSeconds(reply.getHeader("retry-after")),
    answerCode: error.code === null ? null : cut(error.code),
    answerDetail: error.detail === null ? null : cut(error.detail),
    submissionCase: isOperation(operation, "submitApplication") ? submissionCaseOf(request.body) : null,
  };
}

/**
 * The case a submission's body is for (`type`, `customer_reference`, the titles' `title_number`s, sorted and upper
 * case), or null when the body has none of them (a body refused for its shape may lack any).
 */
export function submissionCaseOf(body: unknown): SubmissionCase | null {
  if (typeof body !== "object" || body === null) return null;
  const { type, customer_reference: reference, titles } = body as Record<string, unknown>;
  const numbers =
    typeof titles === "object" && titles !== null
      ? Object.values(titles as Record<string, unknown>)
          .slice(0, titleNumbersKept)
          .map((title) => (title as { title_number?: unknown } | null)?.title_number)
          .filter((number): number is string => typeof number === "string")
          .map((number) => cut(number.toUpperCase()))
      : [];
  if (typeof type !== "string" && typeof reference !== "string" && numbers.length === 0) return null;
  return {
    type: cut(typeof type === "string" ? type : ""),
    customerReference: cut(typeof reference === "string" ? reference : ""),
    titleNumbers: [...new Set(numbers)].sort(),
  };
}

/** A `Retry-After` in whole seconds, the form the gateway answers; null when absent (or a date, which it never sends). */
function wholeSeconds(header: unknown): number | null {
  const value = String(header ?? "").trim();
  return /^\d{1,9}$/.test(value) ? Number(value) : null;
}

const cut = (text: string, most: number = valueLength): string =>
  text.length > most ? `${text.slice(0, most - 1)}…` : text;

/** Query or path parameters as kept: at most 20, each value cut, a secret's or a signature's value redacted. */
function redacted(parameters: unknown): Record<string, string> {
  if (typeof parameters !== "object" || parameters === null) return {};
  const kept: [string, string][] = Object.entries(parameters as Record<string, unknown>)
    .slice(0, parametersKept)
    .map(([name, value]) => [cut(name), SECRET_NAME.test(name) ? REDACTED : cut(String(value))]);
  return Object.fromEntries(kept);
}

/** The ids of an acknowledge call's body (`{"data": [...]}`), as sent; null when the body has no such array. */
function acknowledgeIdsOf(body: unknown): string[] | null {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  return Array.isArray(data) ? data.map((id) => String(id)) : null;
}
