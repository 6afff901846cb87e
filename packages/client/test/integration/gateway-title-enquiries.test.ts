// The official search workflow and typed errors against a real gateway, over plain HTTP: the sandbox setting
// require_client_certificate is turned off (gateway-tls.test.ts covers mutual TLS). The sandbox clock drives the
// service hours and the readiness of a deferred result.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  AuthenticationError,
  DeferredResultTimeoutError,
  ProblemError,
  unwrap,
  type GatewayClient,
  type OfficialSearchOutcome,
} from "../../src/index.js";
import { IN_SERVICE_HOURS, searchOf, startGateway, type RunningGateway } from "./gateway-support.js";

let gw: RunningGateway;
let client: GatewayClient;

beforeAll(async () => {
  gw = await startGateway();
  await gw.settings({ require_client_certificate: false });
  client = gw.client(gw.demo);
});
afterAll(async () => {
  await gw?.stop();
});
beforeEach(async () => {
  await gw.setClock(IN_SERVICE_HOURS);
});

/** The structure of a JSON value: member names and value types, recursively (an array's length and items aside). */
function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return "array";
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([key, member]) => [key, shapeOf(member)]),
    );
  }
  return value === null ? "null" : typeof value;
}

async function advanceClock(seconds: number): Promise<void> {
  await unwrap(gw.sandbox.POST("/sandbox/v1/clock/advance", { body: { seconds } }));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    (value) => expect.unreachable(`expected a rejection, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
}

describe("officialSearchOfWhole against the gateway", () => {
  let cleanSearch: Promise<OfficialSearchOutcome> | undefined;
  /** A search of the clean title, made once: the shape every result has. */
  const clean = () => (cleanSearch ??= client.officialSearchOfWhole(searchOf("ZZ100001")));

  it("answers a clean title at once, under a generated message_id whose result the Poll Request Service repeats", async () => {
    const outcome = await clean();
    expect(outcome.deferred).toBeUndefined();
    expect(outcome.message_id).toMatch(/^lrg-[0-9a-f-]{36}$/);
    expect(outcome.result.data.official_search_data).toMatchObject({
      title_number: "ZZ100001",
      has_register_changed: false,
      has_advisory_entries: false,
      proprietor_names: expect.arrayContaining([expect.stringMatching(/ALEX EXAMPLE/)]),
    });
    const again = await client.pollOfficialSearch(outcome.message_id);
    expect(again).toEqual({ message_id: outcome.message_id, result: outcome.result, deferred: undefined });
  });

  it("defers a title that needs manual processing, and gives the result with the same shape once the clock passes 15 minutes", async () => {
    const started = Date.now();
    const deferred = await rejection(client.officialSearchOfWhole(searchOf("ZZ100009"), { timeoutMs: 5000 }));
    // The Retry-After (900 s) passes the deadline: the client gives up at once rather than wait for nothing.
    expect(Date.now() - started).toBeLessThan(3000);
    expect(deferred).toBeInstanceOf(DeferredResultTimeoutError);
    const { messageId, deferred: acknowledgement } = deferred as DeferredResultTimeoutError;
    expect(acknowledgement.data).toMatchObject({ message_id: messageId, acknowledgement_code: "BG20001" });
    const expectedAt = Date.parse(acknowledgement.data.expected_response_at);
    expect(expectedAt - Date.parse(IN_SERVICE_HOURS)).toBeGreaterThanOrEqual(15 * 60_000);
    expect(expectedAt - Date.parse(IN_SERVICE_HOURS)).toBeLessThan(16 * 60_000);

    // Still deferred 14 minutes on.
    await advanceClock(14 * 60);
    expect(await rejection(client.pollOfficialSearch(messageId, { timeoutMs: 2000 }))).toBeInstanceOf(
      DeferredResultTimeoutError,
    );

    // Past the 15 minutes on the gateway's clock: ready at the first poll.
    await advanceClock(2 * 60);
    const ready = await client.pollOfficialSearch(messageId, { timeoutMs: 2000 });
    expect(ready.deferred).toBeUndefined();
    expect(ready.message_id).toBe(messageId);
    expect(ready.result.data.id).toBe(acknowledgement.data.id);
    expect(ready.result.data.official_search_data.title_number).toBe("ZZ100009");
    expect(shapeOf(ready.result)).toEqual(shapeOf((await clean()).result));
  });

  it("defers a search made out of hours (BG20002) to the next 06:30 London time", async () => {
    await gw.setClock("2025-04-01T22:30:00.000Z"); // 23:30 in London (BST)
    const deferred = await rejection(client.officialSearchOfWhole(searchOf("ZZ100001"), { timeoutMs: 2000 }));
    expect(deferred).toBeInstanceOf(DeferredResultTimeoutError);
    const { messageId, deferred: acknowledgement } = deferred as DeferredResultTimeoutError;
    expect(acknowledgement.data.acknowledgement_code).toBe("BG20002");
    expect(Date.parse(acknowledgement.data.expected_response_at)).toBe(Date.parse("2025-04-02T05:30:00.000Z"));
    await gw.setClock("2025-04-02T05:31:00.000Z");
    const ready = await client.pollOfficialSearch(messageId, { timeoutMs: 2000 });
    expect(shapeOf(ready.result)).toEqual(shapeOf((await clean()).result));
  });
});

describe("typed errors from the gateway", () => {
  it("a business rule (422) is a ProblemError with the registry's rule as code and rule; the message_id stays usable", async () => {
    const messageId = `client-it-422-${Date.now()}`;
    const invalid = await rejection(client.officialSearchOfWhole({ ...searchOf("ZZ100010"), message_id: messageId }));
    expect(invalid).toBeInstanceOf(ProblemError);
    expect(invalid).toMatchObject({ status: 422, code: "bg.title.invalid", rule: "bg.title.invalid" });

    const mismatch = await rejection(client.officialSearchOfWhole({ ...searchOf("ZZ100002"), message_id: messageId }));
    expect(mismatch).toMatchObject({ status: 422, code: "bg.state.nonamematch", rule: "bg.state.nonamematch" });

    // A 422 does not use the message_id up; a result does.
    const made = await client.officialSearchOfWhole({ ...searchOf("ZZ100001"), message_id: messageId });
    expect(made.message_id).toBe(messageId);
    const reused = await rejection(client.officialSearchOfWhole({ ...searchOf("ZZ100001"), message_id: messageId }));
    expect(reused).toBeInstanceOf(ProblemError);
    expect(reused).toMatchObject({ status: 409, code: "BG40011" });
  });

  it("a wrong password is an AuthenticationError (BG40004 on a title enquiry), for a search and for any other call", async () => {
    const intruder = gw.client({ username: gw.demo.username, password: "not-the-password" });
    const search = await rejection(intruder.officialSearchOfWhole(searchOf("ZZ100001")));
    expect(search).toBeInstanceOf(AuthenticationError);
    expect(search).toMatchObject({ status: 401, code: "BG40004" });
    const listed = await rejection(unwrap(intruder.GET("/v1/notifications")));
    expect(listed).toBeInstanceOf(AuthenticationError);
    const poll = await rejection(intruder.pollOfficialSearch("lrg-never-used-0001"));
    expect(poll).toBeInstanceOf(AuthenticationError);
  });

  it("an unknown message_id is a ProblemError 404 (BG40002)", async () => {
    const unknown = await rejection(client.pollOfficialSearch("lrg-never-used-0001"));
    expect(unknown).toBeInstanceOf(ProblemError);
    expect(unknown).not.toBeInstanceOf(AuthenticationError);
    expect(unknown).toMatchObject({ status: 404, code: "BG40002" });
  });
});
