import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  basic,
  DEMO,
  idempotencyKey,
  SANDBOX_TOKEN,
  startGateway,
  submission,
  type Credentials,
  type TestGateway,
} from "./support/gateway.js";

let gw: TestGateway;
let unit: Credentials;
beforeAll(async () => {
  gw = await startGateway();
  await gw.sandbox("PUT", "/sandbox/v1/settings", { processing: "manual" });
  unit = await gw.newBusinessUnit();
});
afterAll(async () => {
  await gw.stop();
});

async function raw(method: string, path: string, body: string | undefined, headers: Record<string, string>) {
  const response = await fetch(`${gw.url}${path}`, {
    method,
    headers: { authorization: basic(unit), ...headers },
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    body: text ? (JSON.parse(text) as { code?: string }) : {},
  };
}

/** Whether the unit has seen any notification: no refused request may leave one behind. */
async function unitIsUntouched(): Promise<boolean> {
  const listed = await gw.call("GET", "/v1/notifications?status=NEW", { as: unit });
  const acknowledged = await gw.call("GET", "/v1/notifications?status=ACKNOWLEDGED", { as: unit });
  return (
    (listed.body as { data: unknown[] }).data.length === 0 &&
    (acknowledged.body as { data: unknown[] }).data.length === 0
  );
}

describe("bad input gets a documented 4xx problem and changes nothing", () => {
  const json = { "content-type": "application/json" };
  const cases: [
    string,
    { method: string; path: string; body?: string; headers: Record<string, string> },
    number,
    string,
  ][] = [
    [
      "malformed JSON",
      {
        method: "POST",
        path: "/v0/applications",
        body: '{"type":',
        headers: { ...json, "idempotency-key": "k-malformed" },
      },
      400,
      "400-03",
    ],
    [
      "an empty JSON body",
      { method: "POST", path: "/v1/notifications/acknowledge", body: "", headers: json },
      400,
      "400-03",
    ],
    [
      "a wrong type",
      {
        method: "POST",
        path: "/v1/notifications/acknowledge",
        body: JSON.stringify({ data: "not-an-array" }),
        headers: json,
      },
      400,
      "400-02",
    ],
    [
      "a number among the ids to acknowledge",
      {
        method: "POST",
        path: "/v0/notifications/acknowledge",
        body: JSON.stringify({ data: ["3f2b7c1e-0a4d-4e8b-9c6f-1d2e3f4a5b6c", 7] }),
        headers: json,
      },
      400,
      "400-02",
    ],
    [
      "text/plain to a JSON operation",
      {
        method: "POST",
        path: "/v0/applications",
        body: JSON.stringify(submission()),
        headers: { "content-type": "text/plain", "idempotency-key": "k-text" },
      },
      415,
      "415-01",
    ],
    [
      "text/plain to acknowledge",
      {
        method: "POST",
        path: "/v1/notifications/acknowledge",
        body: '{"data":[]}',
        headers: { "content-type": "text/plain; charset=utf-8" },
      },
      415,
      "415-01",
    ],
    [
      "an over-long string",
      {
        method: "POST",
        path: "/v0/applications",
        body: JSON.stringify(submission({ customer_reference: "x".repeat(26) })),
        headers: { ...json, "idempotency-key": "k-long" },
      },
      400,
      "400-02",
    ],
    [
      "an unknown member",
      {
        method: "POST",
        path: "/v0/applications",
        body: JSON.stringify(submission({ colour: "red" })),
        headers: { ...json, "idempotency-key": "k-member" },
      },
      400,
      "400-02",
    ],
    [
      "a prototype-poisoning body",
      {
        method: "POST",
        path: "/v0/applications",
        body: '{"__proto__":{"polluted":true}}',
        headers: { ...json, "idempotency-key": "k-proto" },
      },
      400,
      "400-03",
    ],
    [
      "a wrong content type",
      {
        method: "POST",
        path: "/v0/applications",
        body: "type=TRANSFER",
        headers: { "content-type": "application/x-www-form-urlencoded", "idempotency-key": "k-form" },
      },
      415,
      "415-01",
    ],
    [
      "a body over 1 MiB",
      {
        method: "POST",
        path: "/v1/notifications/acknowledge",
        body: JSON.stringify({ data: ["x".repeat(1_100_000)] }),
        headers: json,
      },
      413,
      "413-01",
    ],
    ["an unknown query parameter", { method: "GET", path: "/v1/notifications?colour=red", headers: {} }, 400, "400-04"],
    [
      "a repeated query parameter",
      { method: "GET", path: "/v1/notifications?status=NEW&status=ACKNOWLEDGED", headers: {} },
      400,
      "400-02",
    ],
    [
      "an impossible date",
      { method: "GET", path: "/v1/notifications?created_after=2025-02-31T00:00:00", headers: {} },
      400,
      "400-02",
    ],
    ["a limit of zero", { method: "GET", path: "/v1/notifications?limit=0", headers: {} }, 400, "400-02"],
    ["an unknown route", { method: "GET", path: "/v2/notifications", headers: {} }, 404, "404-02"],
    [
      "a body over 1 MiB to an unknown route",
      { method: "OPTIONS", path: "/v1/notifications/acknowledge", body: "x".repeat(1_100_000), headers: json },
      404,
      "404-02",
    ],
    [
      "a body over 1 MiB to a method the path does not have",
      { method: "PUT", path: "/v0/notifications/acknowledge", body: "x".repeat(1_100_000), headers: json },
      404,
      "404-02",
    ],
    [
      "malformed JSON to a method the path does not have",
      { method: "PUT", path: "/v1/notifications/acknowledge", body: "{", headers: json },
      404,
      "404-02",
    ],
  ];

  it.each([
    ["/api/v1/poll-requests/%zz", "code", "OS1API002"],
    ["/s1/v1/titles/%/official-copies/availability", "error_code", "BG40001"],
  ])(
    "a path that is not a valid URL, %s, is a 400 in its operation's registry envelope",
    async (path, member, code) => {
      const answer = await raw("GET", path, undefined, {});
      expect(answer.status).toBe(400);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect((answer.body as unknown as { errors: Record<string, unknown>[] }).errors[0]?.[member]).toBe(code);
    },
  );

  it.each(cases)("%s", async (_name, request, status, code) => {
    const answer = await raw(request.method, request.path, request.body, request.headers);
    expect(answer.status).toBe(status);
    expect(answer.contentType).toMatch(/^application\/problem\+json/);
    expect(answer.body.code).toBe(code);
    expect(await unitIsUntouched()).toBe(true);
  });

  it.each([
    ["PUT", "/sandbox/v1/settings", '{"processing":"automatic"}'],
    ["PUT", "/sandbox/v1/day-list", '{"open":false}'],
    ["POST", "/sandbox/v1/system-errors", "{}"],
  ])("text/plain to the control plane's %s %s is 415 and changes nothing", async (method, path, body) => {
    const before = await gw.sandbox("GET", "/sandbox/v1/settings");
    const response = await fetch(`${gw.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${SANDBOX_TOKEN}`, "content-type": "text/plain" },
      body,
    });
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { code: string }).code).toBe("415-01");
    expect((await gw.sandbox("GET", "/sandbox/v1/settings")).body).toEqual(before.body);
    expect(((await gw.sandbox("GET", "/sandbox/v1/day-list")).body as { open: boolean }).open).toBe(true);
  });

  it("a refused submission does not use up its Idempotency-Key", async () => {
    const key = idempotencyKey();
    const refused = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission({ customer_reference: "" }),
      headers: { "idempotency-key": key },
    });
    expect(refused.status).toBe(400);
    const accepted = await gw.call("POST", "/v0/applications", {
      as: unit,
      body: submission(),
      headers: { "idempotency-key": key },
    });
    expect(accepted.status).toBe(202);
  });
});

describe("generated bad input never gets a 5xx", () => {
  it("arbitrary JSON to every JSON operation answers a documented 4xx", async () => {
    const targets: [string, string, Record<string, string>][] = [
      ["POST", "/v0/applications", { "idempotency-key": "k-fuzz" }],
      ["POST", "/v1/notifications/acknowledge", {}],
      ["POST", "/v0/notifications/acknowledge", {}],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...targets), fc.jsonValue(), async ([method, path, headers], value) => {
        const answer = await gw.call(method, path, {
          as: { username: DEMO.username, password: DEMO.password },
          body: value,
          headers: { ...headers, "content-type": "application/json" },
        });
        expect(answer.status).toBeGreaterThanOrEqual(200);
        expect(answer.status).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it("arbitrary query strings on the lists answer 200 or a documented 4xx", async () => {
    const names = [
      "created_after",
      "created_before",
      "status",
      "occurred_after",
      "occured_after",
      "notification_type",
      "subject",
      "subject_type",
      "additional_provider_filter",
      "limit",
      "junk",
    ];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("v0", "v1"),
        fc.array(fc.tuple(fc.constantFrom(...names), fc.string({ maxLength: 40 })), { maxLength: 4 }),
        async (version, pairs) => {
          const query = new URLSearchParams(pairs).toString();
          const answer = await gw.call("GET", `/${version}/notifications?${query}`, { as: unit });
          expect([200, 400]).toContain(answer.status);
        },
      ),
      { numRuns: 200 },
    );
    expect(await unitIsUntouched()).toBe(true);
  });
});
