import { describe, expect, it } from "vitest";
import { ProblemError, type ApplicationSubmission } from "../src/index.js";
import { jsonResponse, problemResponse, recordingFetch, type RecordedRequest } from "./support/recording-fetch.js";
import { clientWith } from "./support/clients.js";

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 2 } as const;
const FAST_POLL = { initialDelayMs: 1, maxDelayMs: 2 } as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const body: ApplicationSubmission = {
  type: "REGISTER_UPDATE",
  submission_warning_understood: true,
  customer_reference: "CASE-1",
  application_lodger: { email: "lodger@example.test", type: "CONVEYANCER" },
  titles: { "title-1": { title_number: "AB12345", whole_of_title: true } },
  transactions: { transfer: { type: "T", priority: 1, title_keys: ["title-1"], document_keys: ["tr1"] } },
  documents: { tr1: { type: "TR1", document_id: "8c2e4f6a-1b3d-4e5f-9a7b-0c1d2e3f4a5b" } },
};

const information = (id: string, status: string) =>
  jsonResponse(200, { data: { status, application_request_id: id, correspondence: [], errors: [], warnings: [] } });

/**
 * A registry that answers each submission with the next id of `ids` and each application's information with
 * the next status of its script (the last one repeats).
 */
function registry(ids: string[], statuses: Record<string, string[]>) {
  let submitted = 0;
  const reads = new Map<string, number>();
  return recordingFetch((request: RecordedRequest) => {
    if (request.method === "POST" && request.url.pathname === "/v0/applications") {
      const id = ids[submitted++] ?? "";
      return jsonResponse(
        202,
        { data: { application_request_id: id } },
        { location: `/v0/applications/${id}/information` },
      );
    }
    const id = request.url.pathname.split("/")[3] ?? "";
    const script = statuses[id] ?? [];
    const read = reads.get(id) ?? 0;
    reads.set(id, read + 1);
    return information(id, script[Math.min(read, script.length - 1)] ?? "VALIDATING");
  });
}

const clientOf = (fetch: ReturnType<typeof recordingFetch>["fetch"]) => clientWith({ fetch, retry: FAST_RETRY });

const ID_1 = "11111111-1111-4111-8111-111111111111";
const ID_2 = "22222222-2222-4222-8222-222222222222";
const ID_3 = "33333333-3333-4333-8333-333333333333";

describe("applications.submit", () => {
  it("sends a generated Idempotency-Key and answers it with the application_request_id", async () => {
    const recording = registry([ID_1], {});
    const submitted = await clientOf(recording.fetch).applications.submit(body);
    expect(submitted.application_request_id).toBe(ID_1);
    expect(submitted.idempotency_key).toMatch(UUID);
    expect(recording.last().headers.get("idempotency-key")).toBe(submitted.idempotency_key);
    expect(JSON.parse(recording.last().body)).toEqual(body);
  });

  it("uses the key it is given, and retries a 503 with that same key", async () => {
    let calls = 0;
    const recording = recordingFetch(() =>
      ++calls === 1
        ? problemResponse(503, "503-01", "unavailable", { "retry-after": "0" })
        : jsonResponse(202, { data: { application_request_id: ID_1 } }),
    );
    const submitted = await clientOf(recording.fetch).applications.submit(body, {
      idempotencyKey: "case-1-submission",
    });
    expect(submitted).toEqual({ application_request_id: ID_1, idempotency_key: "case-1-submission" });
    expect(recording.requests.map((request) => request.headers.get("idempotency-key"))).toEqual([
      "case-1-submission",
      "case-1-submission",
    ]);
  });

  it("throws a refused submission as its typed error (409 for a key used with another body)", async () => {
    const recording = recordingFetch(() =>
      problemResponse(409, "409-01", "Idempotency-Key k was used with a different request body"),
    );
    await expect(clientOf(recording.fetch).applications.submit(body, { idempotencyKey: "k" })).rejects.toBeInstanceOf(
      ProblemError,
    );
  });
});

describe("applications.submitUntilDecided", () => {
  it("resubmits with the same key after SYSTEM_ERROR and answers the new application once it is decided", async () => {
    const recording = registry([ID_1, ID_2], {
      [ID_1]: ["VALIDATING", "SYSTEM_ERROR"],
      [ID_2]: ["VALIDATING", "ACCEPTED_PRIORITY_PROTECTED"],
    });
    const decided = await clientOf(recording.fetch).applications.submitUntilDecided(body, FAST_POLL);
    expect(decided.attempts).toEqual([ID_1, ID_2]);
    expect(decided.application_request_id).toBe(ID_2);
    expect(decided.information.status).toBe("ACCEPTED_PRIORITY_PROTECTED");
    const submissions = recording.requests.filter((request) => request.method === "POST");
    expect(submissions).toHaveLength(2);
    expect(new Set(submissions.map((request) => request.headers.get("idempotency-key")))).toEqual(
      new Set([decided.idempotency_key]),
    );
    expect(submissions.map((request) => request.body)).toEqual([JSON.stringify(body), JSON.stringify(body)]);
  });

  it("does not resubmit any other decision", async () => {
    for (const status of ["VALIDATION_FAILED", "ACCEPTED_AWAITING_PRIORITY", "ACCEPTED_PRIORITY_PROTECTED"]) {
      const recording = registry([ID_1, ID_2], { [ID_1]: [status] });
      const decided = await clientOf(recording.fetch).applications.submitUntilDecided(body, FAST_POLL);
      expect(decided.attempts).toEqual([ID_1]);
      expect(decided.information.status).toBe(status);
    }
  });

  it("stops after maxAttempts submissions and answers a SYSTEM_ERROR that persists", async () => {
    const recording = registry([ID_1, ID_2, ID_3], {
      [ID_1]: ["SYSTEM_ERROR"],
      [ID_2]: ["SYSTEM_ERROR"],
      [ID_3]: ["SYSTEM_ERROR"],
    });
    const decided = await clientOf(recording.fetch).applications.submitUntilDecided(body, {
      ...FAST_POLL,
      maxAttempts: 2,
      idempotencyKey: "kept",
    });
    expect(decided.attempts).toEqual([ID_1, ID_2]);
    expect(decided.information.status).toBe("SYSTEM_ERROR");
    expect(decided.idempotency_key).toBe("kept");
  });

  it("answers an application still VALIDATING when its decision does not come in time", async () => {
    const recording = registry([ID_1], { [ID_1]: ["VALIDATING"] });
    const decided = await clientOf(recording.fetch).applications.submitUntilDecided(body, {
      initialDelayMs: 5,
      maxDelayMs: 5,
      timeoutMs: 20,
    });
    expect(decided.information.status).toBe("VALIDATING");
    expect(decided.attempts).toEqual([ID_1]);
  });
});
