import fc from "fast-check";
import { operationFor } from "@lrg/spec";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { allTitles } from "../../src/registry/register.js";
import { TITLE_RATE_LIMITS } from "../../src/title-enquiries/routes.js";
import { errorCodeOf } from "../support/conformance.js";
import type { Answer, CallOptions, Credentials } from "../support/gateway.js";
import { dataOf, IN_SERVICE_HOURS, searchRequest, SEARCH, startTitleGateway, type TitleGateway } from "./support.js";

let gw: TitleGateway;
let unit: Credentials;
beforeAll(async () => {
  gw = await startTitleGateway();
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});
beforeEach(async () => {
  await gw.setClock(IN_SERVICE_HOURS);
});

/**
 * A look-up that honours the rate limits (6 a minute per user for the names): after a 429 it moves the gateway's
 * clock on by Retry-After and asks again, so that the tests of the register's answers do not wait.
 */
async function lookUp(path: string, options: CallOptions): Promise<Answer> {
  for (;;) {
    const answer = await gw.call("GET", path, options);
    if (answer.status !== 429) return answer;
    await gw.advanceClock(Number(answer.headers.get("retry-after")));
  }
}

const availability = (title: string) => `/s1/v1/titles/${title}/official-copies/availability`;
const proprietors = (title: string) => `/s2/v1/titles/${title}/registered-proprietor-names`;

describe("official copy availability (s1)", () => {
  it.each(allTitles().map((t) => [t.title_number, t] as const))(
    "%s answers its availability from the register",
    async (number, title) => {
      const answer = await gw.call("GET", availability(number), { as: unit });
      expect(answer.status).toBe(200);
      expect(dataOf(answer)).toEqual({ title_number: number, ...title.official_copies });
    },
  );

  it("answers the OC1 and OC2 availability of the clean title as the spec's example", async () => {
    const data = dataOf(await gw.call("GET", availability("ZZ100001"), { as: unit }));
    expect(data).toMatchObject({
      title_status_code: "VALID",
      applications_pending: false,
      register: { availability_code: "IMMEDIATE" },
    });
    expect(data["referred_to_documents"]).toEqual([
      expect.objectContaining({
        type_code: "TRANSFER",
        entry_numbers: ["A2", "C1"],
        availability_code: "IMMEDIATE",
        plan_only: false,
      }),
      expect.objectContaining({
        type_code: "CONVEYANCE",
        filed_under: "ZZ100003",
        availability_code: "MANUAL",
        plan_only: true,
      }),
    ]);
  });

  it("answers a closed title as closed and continued, without copies", async () => {
    const data = dataOf(await gw.call("GET", availability("ZZ100006"), { as: unit }));
    expect(data).toMatchObject({
      title_status_code: "CLOSED_AND_CONTINUED",
      continued_under_title_number: "ZZ100012",
      register: { availability_code: "UNAVAILABLE" },
    });
  });
});

describe("registered proprietor names (s2)", () => {
  it.each(allTitles().map((t) => [t.title_number, t] as const))(
    "%s answers its proprietors from the register",
    async (number, title) => {
      const answer = await lookUp(proprietors(number), { as: unit });
      expect(answer.status).toBe(200);
      expect(dataOf(answer)).toEqual({
        title_number: number,
        ...title.proprietor_names,
        proprietors: title.proprietors,
      });
    },
  );

  it.each([
    [
      "private individuals",
      "ZZ100001",
      {
        title_status_code: "VALID",
        proprietors: [
          expect.objectContaining({
            proprietor_type: "PRIVATE_INDIVIDUAL",
            proprietor_name: "ALEX EXAMPLE",
            sequence: 1,
          }),
          expect.objectContaining({ proprietor_name: "SAM EXAMPLE", sequence: 2 }),
        ],
      },
    ],
    [
      "an organisation",
      "ZZ100008",
      {
        proprietors: [
          {
            proprietor_type: "ORGANISATION",
            proprietor_name: "EXAMPLE HOMES LIMITED",
            organisation_type: "CORPORATE_BODY",
            company_location: "ENGLAND_OR_WALES",
          },
        ],
      },
    ],
    [
      "a closed title",
      "ZZ100006",
      { title_status_code: "CLOSED_AND_CONTINUED", continued_under_title_number: "ZZ100012", proprietors: [] },
    ],
    [
      "a pending first registration",
      "ZZ100011",
      {
        title_status_code: "PENDING_NEW_TITLE",
        proprietors: [expect.objectContaining({ proprietor_name: "EXAMPLE ESTATES LIMITED" })],
      },
    ],
  ])("%s", async (_name, title, want) => {
    expect(dataOf(await lookUp(proprietors(title), { as: unit }))).toMatchObject(want);
  });
});

describe("s1 and s2 refuse what the spec refuses", () => {
  it.each([
    ["a lower-case title number", "zz100001", 400, "BG40001"],
    ["a mixed-case title number", "Zz100001", 400, "BG40001"],
    ["a title number of ten characters", "ZZ10000100", 400, "BG40001"],
    ["a title number with a hyphen", "ZZ-10001", 400, "BG40001"],
    ["a title number not on the register", "ZZ100010", 404, "BG40002"],
    ["another unknown title number", "AB1", 404, "BG40002"],
  ])("%s: in the registry's envelope, with its code", async (_name, title, status, code) => {
    for (const path of [availability(title), proprietors(title)]) {
      const answer = await lookUp(path, { as: unit });
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get("content-type")).toMatch(/^application\/json/);
      const errors = (answer.body as { errors: unknown[] }).errors;
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toEqual({
          error_code: code,
          error_message: expect.any(String),
          http_status: String(status),
          timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}$/),
          trace_id: answer.headers.get("x-request-id"),
        });
      }
    }
  });

  it("dates its envelopes by the clock of the caller's business unit, else by the sandbox's global clock", async () => {
    const caller = await gw.newBusinessUnit();
    const control = (path: string, body: unknown) => gw.control(caller.sandbox_token!, "PUT", path, body);
    expect((await control("/sandbox/v1/clock", { now: "2031-06-15T12:00:00.000Z" })).status).toBe(200);
    const timestampOf = (answer: Answer) => (answer.body as { errors: { timestamp: string }[] }).errors[0]?.timestamp;

    const missing = await gw.call("GET", availability("ZZ100010"), { as: caller });
    expect(errorCodeOf(missing.body)).toMatchObject({ code: "BG40002", status: 404 });
    expect(timestampOf(missing)).toMatch(/^2031-06-15T12:0\d:\d{2}\.\d{3}$/);

    expect((await control("/sandbox/v1/settings", { require_client_certificate: true })).status).toBe(200);
    const refused = await gw.call("GET", proprietors("ZZ100001"), { as: caller });
    expect(errorCodeOf(refused.body)).toMatchObject({ code: "BG40005", status: 403 });
    expect(timestampOf(refused)).toMatch(/^2031-06-15T12:0\d:\d{2}\.\d{3}$/);

    // Refused credentials name no business unit: the global clock (set by beforeEach) dates the envelope.
    const unknown = await gw.call("GET", availability("ZZ100001"), { as: { ...caller, password: "wrong" } });
    expect(errorCodeOf(unknown.body)).toMatchObject({ code: "BG40004", status: 401 });
    expect(timestampOf(unknown)).toMatch(/^2025-04-01T09:1\d:\d{2}\.\d{3}$/);
  });

  it("refuses an undefined query parameter", async () => {
    const answer = await gw.call("GET", `${availability("ZZ100001")}?edition=1`, { as: unit });
    expect(answer.body).toMatchObject({ errors: [{ http_status: "400", error_code: "BG40001" }] });
  });

  it("any path segment answers 200, 400 or 404 (or 429 past the rate limit), never 5xx", async () => {
    const caller = await gw.newBusinessUnit();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s !== "." && s !== ".."),
          fc.stringMatching(/^[A-Za-z]{0,3}[1-9][0-9]{0,6}$/),
          fc.constantFrom(...allTitles().map((t) => t.title_number)),
        ),
        fc.boolean(),
        async (segment, s1) => {
          const path = s1 ? availability(encodeURIComponent(segment)) : proprietors(encodeURIComponent(segment));
          const answer = await gw.call("GET", path, { as: caller });
          expect([200, 400, 404, 429]).toContain(answer.status);
          if (answer.status === 200) expect(segment).toMatch(/^[A-Z0-9]{1,9}$/);
        },
      ),
      { numRuns: 60 },
    );
  });
});

const names = TITLE_RATE_LIMITS.registeredProprietorNames;
const copies = TITLE_RATE_LIMITS.officialCopiesAvailability;

describe("rate limits, as the registry's services have them", () => {
  const gatewayNow = async () =>
    Date.parse(((await gw.sandbox("GET", "/sandbox/v1/clock")).body as { now: string }).now);

  /**
   * Asks until the first 429 and answers the 200s before it. The window refills while the requests run (the clock
   * is real time plus the sandbox offset), so the count is bounded by the limit and the refill in the time taken.
   */
  const burst = async (
    path: string,
    as: Credentials,
    onAllowed: (answer: Answer, index: number) => void = () => {},
  ) => {
    const started = await gatewayNow();
    let allowed = 0;
    for (;;) {
      const answer = await gw.call("GET", path, { as });
      if (answer.status === 429) {
        expect(errorCodeOf(answer.body)).toEqual({ code: "BG40006", status: 429 });
        return { allowed, limited: answer, elapsedSeconds: ((await gatewayNow()) - started) / 1000 };
      }
      expect(answer.status).toBe(200);
      onAllowed(answer, allowed);
      allowed += 1;
      expect(allowed).toBeLessThan(1000);
    }
  };
  const expectBetween = (value: number, low: number, high: number) => {
    expect(value).toBeGreaterThanOrEqual(low);
    expect(value).toBeLessThanOrEqual(high);
  };

  it("registered proprietor names: 6 a minute per user, then 429 (BG40006) until the gateway's clock refills the window", async () => {
    const caller = await gw.newBusinessUnit();
    const perMinute = names.burstCapacity / names.requestedTokens;
    expect(perMinute).toBe(6);
    const first = await burst(proprietors("ZZ100001"), caller, (answer) => {
      expect(answer.headers.get("x-ratelimit-remaining")).toBeNull(); // the registry's service page gives no such header
    });
    expectBetween(first.allowed, perMinute, perMinute + Math.floor(first.elapsedSeconds / 10));
    // A burst of 6, then one request every 10 seconds.
    expectBetween(Number(first.limited.headers.get("retry-after")), 1, 10);

    // Official copy availability is limited apart, and another user has a window of their own.
    expect((await gw.call("GET", availability("ZZ100001"), { as: caller })).status).toBe(200);
    expect((await gw.call("GET", proprietors("ZZ100001"), { as: await gw.newBusinessUnit() })).status).toBe(200);

    // Retry-After is enough for one more; a whole minute on the gateway's clock refills the whole window.
    await gw.advanceClock(Number(first.limited.headers.get("retry-after")));
    expect((await gw.call("GET", proprietors("ZZ100002"), { as: caller })).status).toBe(200);
    await gw.advanceClock(60);
    const refilled = await burst(proprietors("ZZ100001"), caller);
    expectBetween(refilled.allowed, perMinute, perMinute + Math.floor(refilled.elapsedSeconds / 10));
  });

  it("official copy availability: 75 a minute per business unit, reported in X-RateLimit-* on each 200", async () => {
    const caller = await gw.newBusinessUnit();
    const perMinute = copies.burstCapacity / copies.requestedTokens;
    expect(perMinute).toBe(75);
    let lastRemaining = copies.burstCapacity;
    const run = await burst(availability("ZZ100001"), caller, (answer, index) => {
      expect(answer.headers.get("x-ratelimit-burst-capacity")).toBe("4500");
      expect(answer.headers.get("x-ratelimit-replenish-rate")).toBe("75");
      expect(answer.headers.get("x-ratelimit-requested-tokens")).toBe("60");
      const remaining = Number(answer.headers.get("x-ratelimit-remaining"));
      if (index === 0) expect(remaining).toBe(copies.burstCapacity - copies.requestedTokens);
      expect(remaining).toBeLessThanOrEqual(lastRemaining); // a request takes 60; less than 60 comes back between two
      lastRemaining = remaining;
    });
    expectBetween(run.allowed, perMinute, perMinute + Math.floor(run.elapsedSeconds / 0.8));
    expect(run.limited.headers.get("retry-after")).toBe("1");
    // The names are limited per user, apart from the copies; the copies come back with the gateway's clock.
    expect((await gw.call("GET", proprietors("ZZ100001"), { as: caller })).status).toBe(200);
    await gw.advanceClock(1);
    expect((await gw.call("GET", availability("ZZ100001"), { as: caller })).status).toBe(200);
  });
});

describe("service hours of registered proprietor names (06:30 to 23:00 London time)", () => {
  it.each([
    ["22:58 BST is open", "2025-04-01T21:58:00.000Z", 200],
    ["23:00 BST is closed", "2025-04-01T22:00:00.000Z", 423],
    ["06:29 BST is closed", "2025-04-02T05:29:00.000Z", 423],
    ["06:30 BST is open", "2025-04-02T05:30:00.000Z", 200],
    ["06:29 GMT is closed", "2025-01-15T06:29:00.000Z", 423],
    ["06:30 GMT is open", "2025-01-15T06:30:00.000Z", 200],
    ["a Sunday afternoon is open", "2025-04-06T14:00:00.000Z", 200],
  ])("%s", async (_name, now, status) => {
    const caller = await gw.newBusinessUnit();
    await gw.setClock(now);
    const answer = await gw.call("GET", proprietors("ZZ100001"), { as: caller });
    expect(answer.status).toBe(status);
    if (status === 423) {
      expect(errorCodeOf(answer.body)).toEqual({ code: "BG50003", status: 423 });
      // Retry-After runs to the next opening, counted from the request: the sandbox clock kept running after it
      // was set, so on a loaded machine the opening computed from the instant set can fall up to a minute earlier.
      const opening = Date.parse(now) + Number(answer.headers.get("retry-after")) * 1000;
      expect(new Date(opening).toLocaleTimeString("en-GB", { timeZone: "Europe/London" })).toMatch(
        /^06:(29:[0-5]\d|30:0\d)$/,
      );
    }
    // Official copy availability is served around the clock.
    expect((await gw.call("GET", availability("ZZ100001"), { as: caller })).status).toBe(200);
  });

  it("the sandbox setting service_hours: always-open answers at any hour; the official search still defers (BG20002)", async () => {
    const caller = await gw.newBusinessUnit();
    await gw.setClock("2025-04-01T23:30:00.000Z");
    expect((await gw.call("GET", proprietors("ZZ100001"), { as: caller })).status).toBe(423);
    expect((await gw.sandbox("PUT", "/sandbox/v1/settings", { service_hours: "always-open" })).body).toMatchObject({
      service_hours: "always-open",
    });
    try {
      expect((await gw.call("GET", proprietors("ZZ100001"), { as: caller })).status).toBe(200);
      const deferred = await gw.call("POST", SEARCH, { body: searchRequest(), as: caller });
      expect(deferred.status).toBe(202);
      expect(dataOf(deferred)).toMatchObject({ acknowledgement_code: "BG20002" });
    } finally {
      await gw.sandbox("PUT", "/sandbox/v1/settings", { service_hours: "enforced" });
    }
    expect((await gw.call("GET", proprietors("ZZ100001"), { as: caller })).status).toBe(423);
  });
});

describe("mutual TLS: title enquiries over plain HTTP", () => {
  const routes: [string, string, () => unknown][] = [
    ["GET", availability("ZZ100001"), () => undefined],
    ["GET", proprietors("ZZ100001"), () => undefined],
    ["GET", "/api/v1/poll-requests/never-used-0001", () => undefined],
    ["POST", SEARCH, () => searchRequest()],
  ];

  it("answer the registry's 403 (BG40005) while require_client_certificate is true, its default; other services answer", async () => {
    const caller = await gw.newBusinessUnit();
    await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: true });
    try {
      for (const [method, path, body] of routes) {
        const answer = await gw.call(method, path, { as: caller, body: body() });
        expect(answer.status, `${method} ${path}`).toBe(403);
        expect(errorCodeOf(answer.body)).toMatchObject({ code: "BG40005" });
        // The spec's example of the 403 (what the mock answers, and the docs quote) is the gateway's answer.
        const examples = operationFor(method, path)?.responses.get(403)?.examples ?? [];
        expect(examples.length, `${method} ${path}: a 403 example`).toBeGreaterThan(0);
        for (const example of examples)
          expect(errorCodeOf(example), `${method} ${path}`).toEqual(errorCodeOf(answer.body));
      }
      expect((await gw.call("GET", "/v1/notifications", { as: caller })).status).toBe(200);
    } finally {
      await gw.sandbox("PUT", "/sandbox/v1/settings", { require_client_certificate: false });
    }
    for (const [method, path, body] of routes) {
      const answer = await gw.call(method, path, { as: caller, body: body() });
      expect(answer.status, `${method} ${path}`).not.toBe(403);
    }
  });
});
