// A recording judged offline (`recorded.ts`, `@lrg/gateway/readiness-judges`), from hand-made exchanges: what becomes an
// observation and on which clock, and the occasions a few checks find in the recorded answers. That a live run and its
// recording through `lrg record` agree check by check is packages/cli/test/readiness-agreement.test.ts.
import { describe, expect, it } from "vitest";
import type { CheckName } from "../../src/readiness/check.js";
import { judgeRecording, recordingOf, type RecordedInput } from "../../src/readiness/recorded.js";

let answeredMs = 1_000_000;

/** A hand-made exchange: an operation of a document, answered `status` a second after the one before. */
function exchange(
  operationId: string,
  document: "registry" | "sandbox",
  overrides: Partial<Omit<RecordedInput, "answer">> & { answer?: unknown } = {},
): RecordedInput {
  answeredMs += 1000;
  const { answer, ...rest } = overrides;
  return {
    operation: { operationId, method: operationId.startsWith("list") ? ("GET" as const) : ("POST" as const), document },
    request: { query: {}, params: {}, headers: {}, body: undefined },
    status: 200,
    responseHeaders: {},
    answer: answer === undefined ? undefined : JSON.stringify(answer),
    answeredMs,
    ...rest,
  };
}

/** A version 1 list answer of `count` NEW notifications, each its own event. */
const listed = (count: number, from = 0) =>
  exchange("listNotificationsV1", "registry", {
    answer: {
      data: Array.from({ length: count }, (_, index) => ({
        notification_id: `n-${from + index}`,
        notification_type: "application.accepted-priority-protected",
        subject: `a-${from + index}`,
        event_datetime: `2025-04-01T09:00:00.${String(from + index).padStart(3, "0")}Z`,
        status: "NEW",
      })),
    },
  });

const acknowledged = (from: number, to: number) =>
  exchange("acknowledgeNotificationsV1", "registry", {
    request: {
      query: {},
      params: {},
      headers: {},
      body: { data: Array.from({ length: to - from }, (_, index) => `n-${from + index}`) },
    },
  });

const submitted = (key: string, status: number, id?: string) =>
  exchange("submitApplication", "registry", {
    status,
    request: { query: {}, params: {}, headers: { "idempotency-key": key }, body: { type: "REGISTER_UPDATE" } },
    ...(id !== undefined && { answer: { data: { application_request_id: id } } }),
  });

const verdictOf = (inputs: RecordedInput[], name: CheckName) =>
  judgeRecording(recordingOf(inputs), [name]).checks[0]!.verdict;

describe("recordingOf", () => {
  it("observes the registry's exchanges alone, an unanswered one as an answer lost (444), on the sandbox's clock", () => {
    const inputs = [
      exchange("listNotificationsV1", "registry", { answer: { data: [] } }),
      exchange("advanceClock", "sandbox", { answer: { now: "2025-04-01T09:15:00.000Z" } }),
      submitted("k-1", 0),
    ];
    const recording = recordingOf(inputs);
    expect(recording.observations.map((o) => [o.sequence, o.operationId, o.status])).toEqual([
      [1, "listNotificationsV1", 200],
      [2, "submitApplication", 444],
    ]);
    // Before the clock's answer, the recording's own clock; from it on, the sandbox's, running with the recording's.
    expect(recording.observations[0]!.clockMs).toBe(inputs[0]!.answeredMs);
    expect(recording.observations[1]!.clockMs).toBe(Date.parse("2025-04-01T09:15:00.000Z") + 1000);
    expect(recording.deadlineMs).toBeUndefined();
  });

  it("keeps, of a recording that holds a run's start, what the run observed: from its start to its deadline", () => {
    const recording = recordingOf([
      listed(1),
      exchange("startReadinessRun", "sandbox", {
        status: 201,
        answer: { started_at: "2025-04-01T09:00:00.000Z", deadline: "2025-04-01T09:00:02.500Z" },
      }),
      listed(2),
      listed(3),
      listed(4),
    ]);
    expect(recording.deadlineMs).toBe(Date.parse("2025-04-01T09:00:02.500Z"));
    expect(recording.observations.map((o) => o.clockMs - Date.parse("2025-04-01T09:00:00.000Z"))).toEqual([1000, 2000]);
  });
});

describe("the occasions a recording holds", () => {
  it.each<[string, () => RecordedInput[], CheckName, string]>([
    [
      "paging: a full page, then the next, all acknowledged",
      () => [listed(100), acknowledged(0, 100), listed(20, 100), acknowledged(100, 120)],
      "paging",
      "passed",
    ],
    ["paging: nothing listed past a full page", () => [listed(100), acknowledged(0, 100)], "paging", "failed"],
    ["paging: no full page", () => [listed(20), acknowledged(0, 20)], "paging", "not_exercised"],
    [
      "nothing-left-behind: a NEW one never acknowledged",
      () => [listed(20), acknowledged(0, 19)],
      "nothing-left-behind",
      "failed",
    ],
    [
      "nothing-left-behind: nothing listed past a full page",
      () => [listed(100), acknowledged(0, 100)],
      "nothing-left-behind",
      "failed",
    ],
    [
      "nothing-left-behind: every one acknowledged",
      () => [listed(20), acknowledged(0, 20)],
      "nothing-left-behind",
      "passed",
    ],
    [
      "lost-answer: retried with the same key",
      () => [submitted("k-1", 0), submitted("k-1", 202, "a-1")],
      "lost-answer",
      "passed",
    ],
    [
      "lost-answer: retried with a new key",
      () => [submitted("k-1", 0), submitted("k-2", 202, "a-2")],
      "lost-answer",
      "failed",
    ],
    ["lost-answer: never retried", () => [submitted("k-1", 0)], "lost-answer", "failed"],
    ["lost-answer: every answer arrived", () => [submitted("k-1", 202, "a-1")], "lost-answer", "not_exercised"],
  ])("%s", (_name, inputs, name, verdict) => {
    expect(verdictOf(inputs(), name)).toBe(verdict);
  });
});
