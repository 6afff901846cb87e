// Rows of either store to readiness runs and observations: the same columns on both, JSON as text.
import { json, parse, type Row } from "../../storage/rows.js";
import type { ReadinessObservationRow, ReadinessRunRow } from "./port.js";

/** The columns of a readiness run, in the order `readinessRunValues` gives them. */
export const READINESS_RUN_COLUMNS =
  "id, business_unit_id, checks, time_limit_seconds, started_ms, deadline_ms, status, ended_ms, stimulus, result";

/** A run's values for READINESS_RUN_COLUMNS. */
export function readinessRunValues(run: ReadinessRunRow): (string | number | null)[] {
  return [
    run.id,
    run.businessUnitId,
    json(run.checks),
    run.timeLimitSeconds,
    run.startedMs,
    run.deadlineMs,
    run.status,
    run.endedMs,
    json(run.stimulus),
    run.result === null ? null : json(run.result),
  ];
}

export function toReadinessRun(row: Row): ReadinessRunRow {
  return {
    id: String(row["id"]),
    businessUnitId: String(row["business_unit_id"]),
    checks: parse(row["checks"]),
    timeLimitSeconds: Number(row["time_limit_seconds"]),
    startedMs: Number(row["started_ms"]),
    deadlineMs: Number(row["deadline_ms"]),
    status: row["status"] as ReadinessRunRow["status"],
    endedMs: row["ended_ms"] === null || row["ended_ms"] === undefined ? null : Number(row["ended_ms"]),
    stimulus: parse(row["stimulus"]),
    result: row["result"] === null || row["result"] === undefined ? null : parse(row["result"]),
    observationCount: Number(row["observation_count"]),
    observationsDropped: Number(row["observations_dropped"]),
  };
}

/** The columns of an observation, in the order `readinessObservationValues` gives them. */
export const READINESS_OBSERVATION_COLUMNS =
  "run_id, sequence, business_unit_id, clock_ms, method, operation_id, query, status, credentials_sent, acknowledged_ids, acknowledged_count, idempotency_key, path_parameters, retry_after_seconds, answer_code, answer_detail, submission_case";

/** An observation's values for READINESS_OBSERVATION_COLUMNS, numbered `sequence`. */
export function readinessObservationValues(
  observation: Omit<ReadinessObservationRow, "sequence">,
  sequence: number,
): (string | number | null)[] {
  return [
    observation.runId,
    sequence,
    observation.businessUnitId,
    observation.clockMs,
    observation.method,
    observation.operationId,
    json(observation.query),
    observation.status,
    observation.credentialsSent ? 1 : 0,
    observation.acknowledgedIds === null ? null : json(observation.acknowledgedIds),
    observation.acknowledgedCount,
    observation.idempotencyKey,
    json(observation.pathParameters),
    observation.retryAfterSeconds,
    observation.answerCode,
    observation.answerDetail,
    observation.submissionCase === null ? null : json(observation.submissionCase),
  ];
}

export function toReadinessObservation(row: Row): ReadinessObservationRow {
  const count = row["acknowledged_count"];
  return {
    runId: String(row["run_id"]),
    businessUnitId: String(row["business_unit_id"]),
    sequence: Number(row["sequence"]),
    clockMs: Number(row["clock_ms"]),
    method: String(row["method"]),
    operationId: String(row["operation_id"]),
    query: parse(row["query"]),
    status: Number(row["status"]),
    credentialsSent: Number(row["credentials_sent"]) === 1,
    acknowledgedIds: row["acknowledged_ids"] === null ? null : parse(row["acknowledged_ids"]),
    acknowledgedCount: count === null || count === undefined ? null : Number(count),
    idempotencyKey: (row["idempotency_key"] as string | null) ?? null,
    pathParameters: parse(row["path_parameters"] ?? "{}"),
    retryAfterSeconds:
      row["retry_after_seconds"] === null || row["retry_after_seconds"] === undefined
        ? null
        : Number(row["retry_after_seconds"]),
    answerCode: (row["answer_code"] as string | null | undefined) ?? null,
    answerDetail: (row["answer_detail"] as string | null | undefined) ?? null,
    submissionCase:
      row["submission_case"] === null || row["submission_case"] === undefined ? null : parse(row["submission_case"]),
  };
}
