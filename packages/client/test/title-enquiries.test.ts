import { describe, expect, it } from "vitest";
import {
  createMessageId,
  DeferredResultTimeoutError,
  MESSAGE_ID_PATTERN,
  ProblemError,
  type OfficialSearchDeferred,
  type OfficialSearchRequest,
  type OfficialSearchResult,
} from "../src/index.js";
import { jsonResponse, recordingFetch, type Responder } from "./support/recording-fetch.js";
import { specExample } from "./support/spec-examples.js";
import { clientWith } from "./support/clients.js";

const SEARCH = "/api/v1/official-searches-of-whole";
const POLL = "/api/v1/poll-requests/{message_id}";
const request = specExample<OfficialSearchRequest>(SEARCH, "post", "request", "application/json", "registeredTitle");
const result = specExample<OfficialSearchResult>(SEARCH, "post", "201", "application/json", "clean");
const deferred = specExample<OfficialSearchDeferred>(SEARCH, "post", "202", "application/json", "manualProcessing");
const { message_id: _unused, ...withoutMessageId } = request;

function recordedClient(responder: Responder) {
  const recorder = recordingFetch(responder);
  return { client: clientWith({ fetch: recorder.fetch }), recorder };
}

const sentBody = (body: string) => JSON.parse(body) as OfficialSearchRequest;

describe("createMessageId", () => {
  it("matches the message_id pattern and length", () => {
    expect(MESSAGE_ID_PATTERN.test(createMessageId())).toBe(true);
    for (let round = 0; round < 1000; round++) {
      const id = createMessageId();
      expect(id).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9-]*$/);
      expect(id.length).toBeGreaterThanOrEqual(5);
      expect(id.length).toBeLessThanOrEqual(50);
    }
  });

  it("is unique", () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => createMessageId()));
    expect(ids.size).toBe(10_000);
  });
});

describe("officialSearchOfWhole", () => {
  it("generates a message_id when none is given, and answers the result at once", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(201, result));
    const outcome = await client.officialSearchOfWhole(withoutMessageId);
    const sent = sentBody(recorder.last().body);
    expect(sent.message_id).toMatch(MESSAGE_ID_PATTERN);
    expect(sent).toEqual({ ...withoutMessageId, message_id: sent.message_id });
    expect(outcome).toEqual({ message_id: sent.message_id, result, deferred: undefined });
    expect(recorder.requests).toHaveLength(1);
  });

  it("keeps a message_id that is given", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(201, result));
    const outcome = await client.officialSearchOfWhole(request);
    expect(sentBody(recorder.last().body).message_id).toBe(request.message_id);
    expect(outcome.message_id).toBe(request.message_id);
  });

  it("two searches get two message_ids", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(201, result));
    await client.officialSearchOfWhole(withoutMessageId);
    await client.officialSearchOfWhole(withoutMessageId);
    const [first, second] = recorder.requests.map((sent) => sentBody(sent.body).message_id);
    expect(first).not.toBe(second);
  });

  it("polls a deferred result by message_id until it is ready, honouring Retry-After", async () => {
    const { client, recorder } = recordedClient((sent, index) => {
      if (sent.method === "POST")
        return jsonResponse(202, deferred, {
          "retry-after": "0",
          location: `/api/v1/poll-requests/${request.message_id}`,
        });
      return index < 3 ? jsonResponse(202, deferred, { "retry-after": "0" }) : jsonResponse(200, result);
    });
    const started = Date.now();
    const outcome = await client.officialSearchOfWhole(request, { initialDelayMs: 5_000 });
    expect(Date.now() - started).toBeLessThan(2_000); // Retry-After: 0 won over the 5 s backoff
    expect(outcome).toEqual({ message_id: request.message_id, result, deferred });
    expect(recorder.requests.map((sent) => `${sent.method} ${sent.url.pathname}`)).toEqual([
      `POST ${SEARCH}`,
      `GET /api/v1/poll-requests/${request.message_id}`,
      `GET /api/v1/poll-requests/${request.message_id}`,
      `GET /api/v1/poll-requests/${request.message_id}`,
    ]);
    expect(recorder.requests.every((sent) => sent.headers.get("authorization")?.startsWith("Basic "))).toBe(true);
  });

  it("backs off when the server gives no Retry-After", async () => {
    const times: number[] = [];
    const { client } = recordedClient((sent, index) => {
      times.push(Date.now());
      if (sent.method === "POST") return jsonResponse(202, deferred);
      return index < 3 ? jsonResponse(202, deferred) : jsonResponse(200, result);
    });
    await client.officialSearchOfWhole(request, { initialDelayMs: 40, maxDelayMs: 1000 });
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? time));
    // Equal jitter over 40, 80, 160 ms: each wait is at least half its step.
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[1]).toBeGreaterThanOrEqual(39);
    expect(gaps[2]).toBeGreaterThanOrEqual(79);
  });

  it("gives up at the deadline with the deferred acknowledgement, without waiting in vain", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(202, deferred, { "retry-after": "900" }));
    const started = Date.now();
    const failure = await client.officialSearchOfWhole(request, { timeoutMs: 60_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeferredResultTimeoutError);
    expect((failure as DeferredResultTimeoutError).messageId).toBe(request.message_id);
    expect((failure as DeferredResultTimeoutError).deferred).toEqual(deferred);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(recorder.requests).toHaveLength(1);
  });

  it("gives up after polling until the deadline", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(202, deferred));
    const failure = await client
      .officialSearchOfWhole(request, { timeoutMs: 300, initialDelayMs: 20, maxDelayMs: 40 })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DeferredResultTimeoutError);
    expect(recorder.requests.length).toBeGreaterThan(3);
  });

  it("throws a business rule refusal (the registry's envelope) as a ProblemError with its rule", async () => {
    const envelope = specExample(SEARCH, "post", "422", "application/json", "closedTitle");
    const { client } = recordedClient(() => jsonResponse(422, envelope));
    const failure = await client.officialSearchOfWhole(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).rule).toBe("bg.title.closed");
  });

  it("understands the registry's own { errors } envelope", async () => {
    const envelope = specExample(SEARCH, "post", "409", "application/json", "messageIdReused");
    const { client } = recordedClient(() => jsonResponse(409, envelope));
    const failure = await client.officialSearchOfWhole(request).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProblemError);
    expect((failure as ProblemError).code).toBe("BG40011");
    expect((failure as ProblemError).registryErrors).toHaveLength(1);
  });
});

describe("pollOfficialSearch", () => {
  it("answers a ready result at once", async () => {
    const { client, recorder } = recordedClient(() => jsonResponse(200, result));
    const outcome = await client.pollOfficialSearch("os-2025-04-01-0009");
    expect(outcome.result).toEqual(result);
    expect(recorder.last().url.pathname).toBe("/api/v1/poll-requests/os-2025-04-01-0009");
  });

  it("throws the 404 of an unknown message_id", async () => {
    const envelope = specExample(POLL, "get", "404", "application/json", "unknownMessageId");
    const { client } = recordedClient(() => jsonResponse(404, envelope));
    await expect(client.pollOfficialSearch("os-2025-04-01-0404")).rejects.toMatchObject({
      status: 404,
      code: "BG40002",
    });
  });
});
