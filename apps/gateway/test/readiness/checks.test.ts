import { describe, expect, it } from "vitest";
import type { RunFacts } from "../../src/readiness/check.js";
import { checksumAndLength } from "../../src/readiness/checksum-and-length.js";
import { duplicates } from "../../src/readiness/duplicates.js";
import { nothingLeftBehind } from "../../src/readiness/nothing-left-behind.js";
import { paging } from "../../src/readiness/paging.js";
import { validationFailed } from "../../src/readiness/validation-failed.js";
import type { ReadinessObservationRow } from "../../src/storage/storage.js";
import { observed } from "./observations.js";

const ack = (ids: string[], status = 200) =>
  observed("acknowledgeNotificationsV1", { acknowledgedIds: ids.slice(0, 100), acknowledgedCount: ids.length, status });
const listing = (query: Record<string, string> = {}) => observed("listNotificationsV1", { query });

const burst = Array.from({ length: 250 }, (_, index) => `p-${index}`);
const facts = (
  observations: ReadinessObservationRow[],
  ended: boolean,
  overrides: Partial<RunFacts> = {},
): RunFacts => ({
  observations,
  stimulus: { duplicates: { notificationIds: ["d-1", "d-2"] }, paging: { notificationIds: burst } },
  ended,
  leftBehind: undefined,
  failedSubmission: undefined,
  deferredSearch: undefined,
  ...overrides,
});

describe("the readiness checks' verdicts, from hand-made observations", () => {
  it.each([
    ["both ids acknowledged", [listing(), ack(["d-1", "d-2"])], false, "passed"],
    [
      "both, in two calls of version 0",
      [listing(), ack(["d-1"]), { ...ack(["d-2"]), operationId: "acknowledgeNotificationsV0" }],
      true,
      "passed",
    ],
    ["one id, while the run goes on", [listing(), ack(["d-1"])], false, "running"],
    ["one id, at the end", [listing(), ack(["d-1"])], true, "failed"],
    ["an acknowledgement that was refused", [listing(), ack(["d-1", "d-2"], 503)], true, "failed"],
    ["nothing listed, at the end", [], true, "not_exercised"],
  ] as const)("duplicates: %s", (_name, observations, ended, verdict) => {
    expect(duplicates.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });

  it.each([
    [
      "every id, paging with created_after",
      [
        listing(),
        listing({ created_after: "x" }),
        ack(burst.slice(0, 100)),
        ack(burst.slice(100, 200)),
        ack(burst.slice(200)),
      ],
      true,
      "passed",
    ],
    [
      "every id, paging with occured_after (version 0)",
      [listing({ occured_after: "x" }), ack(burst.slice(0, 100)), ack(burst.slice(100, 200)), ack(burst.slice(200))],
      false,
      "passed",
    ],
    [
      "every id but no forward filter",
      [listing(), ack(burst.slice(0, 100)), ack(burst.slice(100, 200)), ack(burst.slice(200))],
      false,
      "failed",
    ],
    ["the first page only, at the end", [listing(), ack(burst.slice(0, 100))], true, "failed"],
    ["the first page only, while the run goes on", [listing(), ack(burst.slice(0, 100))], false, "running"],
    ["one call of 250 ids, while the run goes on", [listing(), ack(burst, 400)], false, "failed"],
    ["nothing listed, at the end", [], true, "not_exercised"],
  ] as const)("paging: %s", (_name, observations, ended, verdict) => {
    expect(paging.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });

  it.each([
    ["while the run goes on", undefined, "running"],
    ["nothing raised", { raised: false, newIds: [] }, "not_exercised"],
    ["everything acknowledged", { raised: true, newIds: [] }, "passed"],
    ["one left NEW", { raised: true, newIds: ["n-1"] }, "failed"],
  ] as const)("nothing left behind: %s", (_name, leftBehind, verdict) => {
    const judged = nothingLeftBehind.judge(
      facts([], leftBehind !== undefined, {
        leftBehind: leftBehind && { ...leftBehind, newIds: [...leftBehind.newIds] },
      }),
    );
    expect(judged.verdict).toBe(verdict);
  });

  const failedSubmission = { applicationId: "a-1", failedMs: 1000 };
  const submitted = observed("submitApplication", { method: "POST", clockMs: 1000 });
  const information = (id: string, overrides: Partial<ReadinessObservationRow> = {}) =>
    observed("getApplicationInformation", { pathParameters: { id }, clockMs: 2000, ...overrides });
  it.each([
    ["its information read", [submitted, listing(), information("a-1")], failedSubmission, false, "passed"],
    ["only another application's information read", [submitted, information("a-2")], failedSubmission, true, "failed"],
    ["its information read before it failed", [information("a-1", { clockMs: 500 })], failedSubmission, true, "failed"],
    ["its information refused", [submitted, information("a-1", { status: 503 })], failedSubmission, true, "failed"],
    [
      "acknowledged only, while the run goes on",
      [submitted, listing(), ack(["v-1"])],
      failedSubmission,
      false,
      "running",
    ],
    ["acknowledged only, at the end", [submitted, listing(), ack(["v-1"])], failedSubmission, true, "failed"],
    ["nothing submitted, while the run goes on", [], undefined, false, "running"],
    ["nothing submitted, at the end", [listing()], undefined, true, "not_exercised"],
  ] as const)("validation failed: %s", (_name, observations, failed, ended, verdict) => {
    expect(validationFailed.judge(facts([...observations], ended, { failedSubmission: failed })).verdict).toBe(verdict);
  });

  const put = (status: number) => observed("uploadDocument", { method: "PUT", status, credentialsSent: false });
  it.each([
    ["the first PUT answered 200", [put(200)], false, "passed"],
    ["the first PUT answered 200, a later one refused", [put(200), put(409)], true, "passed"],
    ["the first PUT refused (403), the retry answered 200", [put(403), put(200)], false, "failed"],
    ["no PUT, while the run goes on", [listing()], false, "running"],
    ["no PUT, at the end", [listing()], true, "not_exercised"],
  ] as const)("checksum and length: %s", (_name, observations, ended, verdict) => {
    expect(checksumAndLength.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });
});
