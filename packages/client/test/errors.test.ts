import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  errorFromResponse,
  HttpError,
  parseRetryAfter,
  ProblemError,
  RateLimitError,
  SignatureError,
  unwrap,
  type ErrorContext,
} from "../src/errors.js";

const problem = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  type: `https://land-registration-gateway.example/problems/${code}`,
  title: "Error",
  status,
  detail: `detail of ${code}`,
  instance: "/v1/notifications",
  code,
  ...extra,
});

type ErrorClass = typeof HttpError;

describe("errorFromResponse: status and body → class", () => {
  const cases: [
    string,
    {
      given: { status: number; body: unknown; contentType?: string; retryAfter?: string; context?: ErrorContext };
      want: {
        class: ErrorClass;
        code?: string;
        detail?: string;
        errors?: number;
        retryAfter?: number;
        rule?: string;
        itemStatus?: number;
        pointer?: string | null;
      };
    },
  ][] = [
    [
      "400 problem",
      {
        given: { status: 400, body: problem(400, "400-01"), contentType: "application/problem+json" },
        want: { class: ProblemError, code: "400-01", detail: "detail of 400-01" },
      },
    ],
    [
      "400-02 problem with validation errors",
      {
        given: {
          status: 400,
          body: problem(400, "400-02", {
            errors: [
              { type: "pattern", detail: "bad", pointer: "/body/data/0" },
              { type: "required", detail: "missing", pointer: null },
            ],
          }),
          contentType: "application/problem+json",
        },
        want: { class: ProblemError, code: "400-02", errors: 2 },
      },
    ],
    [
      "problem recognised by shape under application/json",
      {
        given: { status: 404, body: problem(404, "404-01"), contentType: "application/json" },
        want: { class: ProblemError, code: "404-01" },
      },
    ],
    [
      "401 problem",
      { given: { status: 401, body: problem(401, "401-01") }, want: { class: AuthenticationError, code: "401-01" } },
    ],
    ["401 without a body", { given: { status: 401, body: "" }, want: { class: AuthenticationError } }],
    [
      "401 registry envelope",
      {
        given: { status: 401, body: { errors: [{ code: "BG40004", detail: "bad credentials", status: "401" }] } },
        want: { class: AuthenticationError, code: "BG40004" },
      },
    ],
    [
      "429 problem with Retry-After",
      {
        given: { status: 429, body: problem(429, "429-01"), retryAfter: "7" },
        want: { class: RateLimitError, code: "429-01", retryAfter: 7 },
      },
    ],
    [
      "429 with no body (the registry's known fault)",
      { given: { status: 429, body: "" }, want: { class: RateLimitError } },
    ],
    [
      "429 registry envelope",
      {
        given: { status: 429, body: { errors: [{ code: "BG40006" }] }, retryAfter: "1" },
        want: { class: RateLimitError, code: "BG40006", retryAfter: 1 },
      },
    ],
    [
      "403 from the upload address",
      {
        given: { status: 403, body: problem(403, "403-01"), context: { upload: true } },
        want: { class: SignatureError, code: "403-01" },
      },
    ],
    [
      "403 expired upload address",
      {
        given: { status: 403, body: problem(403, "403-02"), context: { upload: true } },
        want: { class: SignatureError, code: "403-02" },
      },
    ],
    [
      "403 upload without a body",
      { given: { status: 403, body: "", context: { upload: true } }, want: { class: SignatureError } },
    ],
    [
      "403 elsewhere (client certificate)",
      { given: { status: 403, body: problem(403, "403-03") }, want: { class: ProblemError, code: "403-03" } },
    ],
    [
      "409 registry envelope",
      {
        given: {
          status: 409,
          body: {
            errors: [
              {
                code: "BG40011",
                detail: "message id already submitted",
                status: 409,
                trace_id: "t-1",
                title: "Conflict",
              },
            ],
          },
          contentType: "application/json",
        },
        want: { class: ProblemError, code: "BG40011", detail: "message id already submitted", errors: 1 },
      },
    ],
    [
      "422 problem with a rule",
      {
        given: { status: 422, body: problem(422, "422-01", { rule: "bg.title.closed" }) },
        want: { class: ProblemError, code: "422-01", rule: "bg.title.closed" },
      },
    ],
    [
      "422 registry envelope: the code is the rule",
      {
        given: { status: 422, body: { errors: [{ code: "bg.title.closed", detail: "closed" }] } },
        want: { class: ProblemError, code: "bg.title.closed", rule: "bg.title.closed" },
      },
    ],
    [
      "older registry envelope (error_code, error_message)",
      {
        given: {
          status: 400,
          body: {
            errors: [
              {
                error_code: "OS1API002",
                error_message: "title_number is invalid",
                http_status: 400,
                timestamp: "2025-02-20T09:06:29",
              },
            ],
          },
        },
        want: { class: ProblemError, code: "OS1API002", detail: "title_number is invalid" },
      },
    ],
    // The registry's envelopes, as the gateway and the registry answer them on the services that use them.
    [
      "official search envelope, status as a string",
      {
        given: {
          status: 400,
          body: {
            errors: [
              {
                code: "OS1API002",
                detail: "/data/title_number is invalid",
                status: "400",
                trace_id: "t-2",
                title: "Bad Request",
                source: { pointer: "/data/title_number" },
              },
            ],
          },
          contentType: "application/json",
        },
        want: {
          class: ProblemError,
          code: "OS1API002",
          detail: "/data/title_number is invalid",
          errors: 1,
          itemStatus: 400,
          pointer: "/data/title_number",
        },
      },
    ],
    [
      "official search envelope, status as an integer (the registry's examples)",
      {
        given: {
          status: 409,
          body: { errors: [{ code: "BG40011", detail: "used", status: 409, trace_id: "t-3", title: "Conflict" }] },
        },
        want: { class: ProblemError, code: "BG40011", itemStatus: 409 },
      },
    ],
    [
      "proprietor names envelope (error_code, http_status as a string, zone-less timestamp)",
      {
        given: {
          status: 404,
          body: {
            errors: [
              {
                error_code: "BG40002",
                error_message: "no title ZZ100010",
                http_status: "404",
                timestamp: "2025-04-01T10:15:30.123",
              },
            ],
          },
        },
        want: { class: ProblemError, code: "BG40002", detail: "no title ZZ100010", itemStatus: 404 },
      },
    ],
    [
      "proprietor names out of hours (423 BG50003)",
      {
        given: {
          status: 423,
          body: {
            errors: [
              {
                error_code: "BG50003",
                error_message: "outside service hours",
                http_status: "423",
                timestamp: "2025-04-01T23:15:00",
              },
            ],
          },
        },
        want: { class: ProblemError, code: "BG50003", itemStatus: 423 },
      },
    ],
    [
      "official copy availability envelope with trace_id",
      {
        given: {
          status: 400,
          body: {
            errors: [
              {
                error_code: "BG40001",
                error_message: "bad title",
                http_status: "400",
                timestamp: "2025-04-01T10:15:30.123",
                trace_id: "t-4",
              },
            ],
          },
        },
        want: { class: ProblemError, code: "BG40001", itemStatus: 400 },
      },
    ],
    [
      "429 proprietor names envelope",
      {
        given: {
          status: 429,
          body: {
            errors: [
              {
                error_code: "BG40006",
                error_message: "slow down",
                http_status: "429",
                timestamp: "2025-04-01T10:15:30",
              },
            ],
          },
          retryAfter: "10",
        },
        want: { class: RateLimitError, code: "BG40006", retryAfter: 10 },
      },
    ],
    [
      "attach envelope 404 OC200",
      {
        given: {
          status: 404,
          body: { errors: [{ type: "OC200", detail: "no application", pointer: null }] },
          contentType: "application/json",
        },
        want: { class: ProblemError, code: "OC200", detail: "no application", pointer: null },
      },
    ],
    [
      "attach envelope 400 OC036",
      {
        given: { status: 400, body: { errors: [{ type: "OC036", detail: "not pending", pointer: null }] } },
        want: { class: ProblemError, code: "OC036", errors: 1 },
      },
    ],
    [
      "attach envelope schema error with a pointer",
      {
        given: {
          status: 400,
          body: { errors: [{ type: "400-02", detail: "too long", pointer: "/data/message_text" }] },
        },
        want: { class: ProblemError, code: "400-02", pointer: "/data/message_text" },
      },
    ],
    [
      "401 attach envelope",
      {
        given: { status: 401, body: { errors: [{ type: "401-01", detail: "credentials", pointer: null }] } },
        want: { class: AuthenticationError, code: "401-01" },
      },
    ],
    [
      "the registry's submit stub: a problem with status as a string, no code, errors[] typed",
      {
        given: {
          status: 400,
          body: {
            type: "https://landregistry.github.io/bgtechdoc/problems/global#bad-request",
            title: "Bad Request",
            detail: "The request is invalid or malformed.",
            status: "400",
            errors: [{ type: "OCV_L1A_000", detail: "date in the future", pointer: "/data/transactions/0/date" }],
          },
        },
        want: {
          class: ProblemError,
          code: "OCV_L1A_000",
          detail: "The request is invalid or malformed.",
          errors: 1,
          pointer: "/data/transactions/0/date",
        },
      },
    ],
    [
      "503 problem",
      { given: { status: 503, body: problem(503, "503-01") }, want: { class: ProblemError, code: "503-01" } },
    ],
    [
      "502 HTML from a proxy",
      {
        given: { status: 502, body: "<html>Bad Gateway</html>", contentType: "text/html" },
        want: { class: HttpError },
      },
    ],
    ["500 empty", { given: { status: 500, body: "" }, want: { class: HttpError } }],
    [
      "an { errors } body without codes is not an envelope",
      { given: { status: 400, body: { errors: [{ message: "x" }] } }, want: { class: HttpError } },
    ],
  ];

  it.each(cases)("%s", (_name, { given, want }) => {
    const headers = new Headers();
    if (given.contentType !== undefined) headers.set("content-type", given.contentType);
    if (given.retryAfter !== undefined) headers.set("retry-after", given.retryAfter);
    const error = errorFromResponse({ status: given.status, headers, body: given.body }, given.context);
    expect(error.constructor).toBe(want.class);
    expect(error).toBeInstanceOf(HttpError);
    expect(error.status).toBe(given.status);
    expect(error.code).toBe(want.code);
    if (want.detail !== undefined) expect(error.detail).toBe(want.detail);
    if (want.errors !== undefined) expect(error.errors).toHaveLength(want.errors);
    if (want.retryAfter !== undefined) expect((error as RateLimitError).retryAfter).toBe(want.retryAfter);
    if (want.rule !== undefined) expect((error as ProblemError).rule).toBe(want.rule);
    if (want.itemStatus !== undefined) expect(error.errors[0]?.status).toBe(want.itemStatus);
    if (want.pointer !== undefined) expect(error.errors[0]?.pointer).toBe(want.pointer);
    expect(error.message).toContain(String(given.status));
  });

  it("keeps the problem and the registry envelope as received", () => {
    const body = problem(400, "400-02", { errors: [{ type: "maxItems", detail: "too many", pointer: "/body/data" }] });
    const error = errorFromResponse({ status: 400, headers: new Headers(), body }) as ProblemError;
    expect(error.problem).toEqual(body);
    expect(error.registryErrors).toBeUndefined();
    expect(error.errors).toEqual([{ type: "maxItems", detail: "too many", pointer: "/body/data" }]);

    const envelope = { errors: [{ code: "BG40011", status: "409" }] };
    const registry = errorFromResponse({ status: 409, headers: new Headers(), body: envelope }) as ProblemError;
    expect(registry.registryErrors).toEqual(envelope.errors);
    expect(registry.problem).toBeUndefined();
    expect(registry.errors).toEqual([{ code: "BG40011", status: 409 }]);
  });

  it("exposes the request id", () => {
    const error = errorFromResponse({ status: 500, headers: new Headers({ "x-request-id": "req-1" }), body: "" });
    expect(error.requestId).toBe("req-1");
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2025-02-20T09:00:00Z");
  const cases: [string, { given: string | null; want: number | undefined }][] = [
    ["absent", { given: null, want: undefined }],
    ["seconds", { given: "2", want: 2000 }],
    ["zero", { given: "0", want: 0 }],
    ["seconds with spaces", { given: " 5 ", want: 5000 }],
    ["an HTTP date", { given: "Thu, 20 Feb 2025 09:00:30 GMT", want: 30_000 }],
    ["a date in the past", { given: "Thu, 20 Feb 2025 08:00:00 GMT", want: 0 }],
    ["negative seconds", { given: "-1", want: undefined }],
    ["fractional seconds", { given: "1.5", want: undefined }],
    ["garbage", { given: "soon", want: undefined }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(parseRetryAfter(given, now)).toBe(want);
  });
});

describe("unwrap", () => {
  it("answers the data of a success", async () => {
    await expect(unwrap({ data: { a: 1 }, response: new Response("{}", { status: 200 }) })).resolves.toEqual({ a: 1 });
  });

  it("throws the typed error of an error answer", async () => {
    const response = new Response("", { status: 429, headers: { "retry-after": "3" } });
    const error = await unwrap({ error: undefined, response }).catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(3);
  });
});
