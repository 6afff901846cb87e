import { describe, expect, it } from "vitest";
import { checksumAndLength } from "../../src/readiness/checksum-and-length.js";
import { downloads } from "../../src/readiness/downloads.js";
import { duplicates } from "../../src/readiness/duplicates.js";
import { expiredUpload } from "../../src/readiness/expired-upload.js";
import { nothingLeftBehind } from "../../src/readiness/nothing-left-behind.js";
import { paging } from "../../src/readiness/paging.js";
import { validationFailed } from "../../src/readiness/validation-failed.js";
import type { ReadinessObservationRow } from "../../src/readiness/store/port.js";
import { factsOf, observed, type HandMadeFacts } from "./observations.js";

const ack = (ids: string[], status = 200) =>
  observed("acknowledgeNotificationsV1", { acknowledgedIds: ids.slice(0, 100), acknowledgedCount: ids.length, status });
const listing = (query: Record<string, string> = {}) => observed("listNotificationsV1", { query });

const burst = Array.from({ length: 250 }, (_, index) => `p-${index}`);
/** The facts of a run that raised the duplicates, paging and downloads stimuli. */
const facts = (
  observations: ReadinessObservationRow[],
  ended: boolean,
  overrides: Partial<HandMadeFacts> = {},
): HandMadeFacts =>
  factsOf(observations, ended, {
    stimulus: {
      duplicates: { notificationIds: ["d-1", "d-2"] },
      paging: { notificationIds: burst },
      downloads: { notificationIds: ["c-1"], downloadIds: ["l-1", "o-1"] },
    },
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
      "every id, listing NEW again after each acknowledged page (no forward filter)",
      [listing(), ack(burst.slice(0, 100)), listing(), ack(burst.slice(100, 200)), listing(), ack(burst.slice(200))],
      false,
      "passed",
    ],
    ["the first page only, at the end", [listing(), ack(burst.slice(0, 100))], true, "failed"],
    ["the first page only, while the run goes on", [listing(), ack(burst.slice(0, 100))], false, "running"],
    ["one call of 250 ids, while the run goes on", [listing(), ack(burst, 400)], false, "failed"],
    ["nothing listed, at the end", [], true, "not_exercised"],
  ] as const)("paging: %s", (_name, observations, ended, verdict) => {
    expect(paging.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });

  it.each([
    ["while the run goes on", [listing()], undefined, "running"],
    ["nothing raised", [listing()], { raised: false, newIds: [] }, "not_exercised"],
    ["everything acknowledged", [listing()], { raised: true, newIds: [] }, "passed"],
    ["one left NEW", [listing()], { raised: true, newIds: ["n-1"] }, "failed"],
    ["one left NEW, but nothing was ever listed", [], { raised: true, newIds: ["n-1"] }, "not_exercised"],
  ] as const)("nothing left behind: %s", (_name, observations, leftBehind, verdict) => {
    const judged = nothingLeftBehind.judge(
      facts([...observations], leftBehind !== undefined, {
        leftBehind: leftBehind && { ...leftBehind, newIds: [...leftBehind.newIds], version: "v1" },
      }),
    );
    expect(judged.verdict).toBe(verdict);
  });

  const failedSubmission = { applicationId: "a-1", idempotencyKey: "k-1", takenMs: 1000 };
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
    const submissions = failed ? { "validation-failed": failed } : {};
    expect(validationFailed.judge(facts([...observations], ended, { submissions })).verdict).toBe(verdict);
  });

  const put = (status: number, documentId = "u-2") =>
    observed("uploadDocument", {
      method: "PUT",
      status,
      credentialsSent: false,
      clockMs: 5000,
      query: { expires: "600", signature: "[redacted]" },
      pathParameters: { document_id: documentId },
    });
  // Its address expired at 1 s; it was answered at 5 s.
  const expiredPut = () => ({ ...put(403, "u-1"), query: { expires: "1", signature: "[redacted]" } });
  it.each([
    ["the first PUT answered 200", [put(200)], false, "passed"],
    ["the first PUT answered 200, a later one refused", [put(200), put(409)], true, "passed"],
    ["the first PUT refused (403), the retry answered 200", [put(403), put(200)], false, "failed"],
    ["the first PUT refused for an expired address, the next answered 200", [expiredPut(), put(200)], false, "passed"],
    ["the first PUT refused for an expired address, the next 403", [expiredPut(), put(403)], false, "failed"],
    ["every PUT refused for an expired address, at the end", [expiredPut(), expiredPut()], true, "not_exercised"],
    ["no PUT, while the run goes on", [listing()], false, "running"],
    ["no PUT, at the end", [listing()], true, "not_exercised"],
  ] as const)("checksum and length: %s", (_name, observations, ended, verdict) => {
    expect(checksumAndLength.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });

  const ask = observed("createUploadUrl", { method: "POST" });
  const expired = { documentId: "u-1", issuedMs: 1000 };
  it.each([
    ["a new address, the same bytes uploaded", [ask, expiredPut(), ask, put(200)], "u-2", false, "passed"],
    ["its expiry seen before any PUT", [ask, ask, put(200)], "u-2", false, "passed"],
    ["the same address retried, while the run goes on", [ask, expiredPut(), expiredPut()], undefined, false, "running"],
    ["the same address retried, at the end", [ask, expiredPut(), expiredPut()], undefined, true, "failed"],
    ["given up after the refusal, at the end", [ask, expiredPut()], undefined, true, "failed"],
  ] as const)("expired upload: %s", (_name, observations, reuploadedAs, ended, verdict) => {
    const expiredAddress = { ...expired, reuploadedAs };
    expect(expiredUpload.judge(facts([...observations], ended, { expiredAddress })).verdict).toBe(verdict);
  });
  it("expired upload: not exercised when no address was asked for", () => {
    expect(expiredUpload.judge(facts([listing()], false)).verdict).toBe("running");
    expect(expiredUpload.judge(facts([listing()], true)).verdict).toBe("not_exercised");
  });

  const asked = (id: string, status = 302) =>
    observed("downloadDocument", { pathParameters: { download_id: id }, status });
  const fetched = (id: string, overrides: Partial<ReadinessObservationRow> = {}) =>
    observed("fetchDocumentContent", { pathParameters: { download_id: id }, credentialsSent: false, ...overrides });
  it.each([
    [
      "each document asked for and fetched",
      [asked("l-1"), fetched("l-1"), asked("o-1"), fetched("o-1")],
      false,
      "passed",
    ],
    [
      "credentials sent to a download address",
      [asked("l-1"), fetched("l-1", { credentialsSent: true })],
      false,
      "failed",
    ],
    ["one document only, while the run goes on", [ack(["c-1"]), asked("l-1"), fetched("l-1")], false, "running"],
    ["one document only, at the end", [ack(["c-1"]), asked("l-1"), fetched("l-1")], true, "failed"],
    ["the 302s not followed, at the end", [asked("l-1"), asked("o-1")], true, "failed"],
    ["the download address expired, at the end", [asked("l-1"), fetched("l-1", { status: 403 })], true, "failed"],
    ["the notification acknowledged, nothing downloaded", [listing(), ack(["c-1"])], true, "failed"],
    ["nothing done, at the end", [listing()], true, "not_exercised"],
  ] as const)("downloads: %s", (_name, observations, ended, verdict) => {
    expect(downloads.judge(facts([...observations], ended)).verdict).toBe(verdict);
  });
});
