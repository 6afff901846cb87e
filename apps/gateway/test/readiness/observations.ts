// Hand-made observations, for the tests that judge checks without a gateway.
import type { RunFacts } from "../../src/readiness/check.js";
import type { DeferredSearch } from "../../src/readiness/deferred-official-search.js";
import type { ExpiredAddress } from "../../src/readiness/expired-upload.js";
import type { LeftBehind } from "../../src/readiness/nothing-left-behind.js";
import type { TakenSubmissions } from "../../src/readiness/submissions.js";
import type { ReadinessObservationRow } from "../../src/readiness/store/port.js";

/** A hand-made observation of a unit's request. */
export function observed(
  operationId: string,
  overrides: Partial<ReadinessObservationRow> = {},
): ReadinessObservationRow {
  const acknowledging = operationId.startsWith("acknowledge");
  return {
    runId: "run",
    businessUnitId: "unit",
    sequence: 1,
    clockMs: 0,
    method: acknowledging ? "POST" : "GET",
    operationId,
    query: {},
    status: 200,
    credentialsSent: true,
    acknowledgedIds: acknowledging ? [] : null,
    acknowledgedCount: acknowledging ? 0 : null,
    idempotencyKey: null,
    pathParameters: {},
    retryAfterSeconds: null,
    answerCode: null,
    answerDetail: null,
    submissionCase: null,
    ...overrides,
  };
}

/** Observations numbered in the order given (sequence from 1), as a run keeps them. */
export const inOrder = (rows: ReadinessObservationRow[]): ReadinessObservationRow[] =>
  rows.map((row, index) => ({ ...row, sequence: index + 1 }));

/** The run's facts with those the checks that gather their own read (each check takes the ones it reads). */
export interface HandMadeFacts extends RunFacts {
  leftBehind: LeftBehind;
  submissions: TakenSubmissions;
  expiredAddress: ExpiredAddress | undefined;
  deferredSearch: DeferredSearch | undefined;
}

/** The facts of a run that raised nothing: its observations, whether it ended, and what else a check reads. */
export const factsOf = (
  observations: ReadinessObservationRow[],
  ended: boolean,
  overrides: Partial<HandMadeFacts> = {},
): HandMadeFacts => ({
  observations: inOrder(observations),
  stimulus: {},
  ended,
  leftBehind: undefined,
  submissions: {},
  expiredAddress: undefined,
  deferredSearch: undefined,
  ...overrides,
});
