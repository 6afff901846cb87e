// The behaviour rules of drift, judged on hand-made recordings: each rule is shown to find its departure, with the side
// and pointer it names, and to find nothing when the rule is kept. Also how a recording's bodies are read (base64, cut
// short, masked members).
import { describe, expect, it } from "vitest";
import { builtSpec, drift, readHar, type Finding } from "../src/drift/index.js";

interface Made {
  method?: string;
  path: string;
  status: number;
  body?: unknown;
  sent?: unknown;
  headers?: Record<string, string>;
  /** Seconds after the first exchange that the request started; it is answered at once. */
  at?: number;
  content?: Record<string, unknown>;
  /** Who sent it, as `lrg record` marks it (`_lrg.caller`). */
  caller?: string;
}

const START = Date.parse("2026-03-02T10:00:00.000Z");

function recording(...made: Made[]): string {
  const entries = made.map((m) => ({
    startedDateTime: new Date(START + (m.at ?? 0) * 1000).toISOString(),
    time: 0,
    request: {
      method: m.method ?? "GET",
      url: `https://registry.example${m.path}`,
      headers: [
        { name: "Authorization", value: "Basic [redacted]" },
        ...(m.sent === undefined ? [] : [{ name: "Content-Type", value: "application/json" }]),
      ],
      ...(m.sent === undefined ? {} : { postData: { mimeType: "application/json", text: JSON.stringify(m.sent) } }),
    },
    response: {
      status: m.status,
      headers: Object.entries({ "content-type": "application/json", ...m.headers }).map(([name, value]) => ({
        name,
        value,
      })),
      content: m.content ?? { mimeType: "application/json", text: m.body === undefined ? "" : JSON.stringify(m.body) },
    },
    ...(m.caller !== undefined && { _lrg: { caller: m.caller } }),
  }));
  return JSON.stringify({ log: { version: "1.2", entries } });
}

const findingsOf = (...made: Made[]): Finding[] => [...drift(builtSpec, readHar(recording(...made))).findings];
const ruled = (rule: string, findings: Finding[]) => findings.filter((f) => f.rule === rule);

function notification(id: string, created: string, status = "NEW") {
  return {
    notification_id: id,
    created_datetime: created,
    event_datetime: created,
    payload_schema: "https://registry.example/schemas/v1/application/attachment-success.json",
    notification_type: "application.attachment-success",
    subject_type: "APPLICATION",
    subject: "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10",
    additional_provider_filter: null,
    status,
    payload: { data: { document_id: "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4" } },
  };
}

const A = "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4";
const B = "1c0a9d2f-3e4b-4c6d-9e7f-8091a2b3c4d5";
const EARLY = "2026-03-02T09:00:00.000Z";
const LATE = "2026-03-02T09:30:00.000Z";

describe("drift's behaviour rules", () => {
  it("page-size: a list answers no more than its limit", () => {
    const page = { data: [notification(A, EARLY), notification(B, LATE)] };
    const over = findingsOf({ path: "/v1/notifications?limit=1", status: 200, body: page });
    expect(ruled("page-size", over)).toEqual([
      expect.objectContaining({ exchange: 0, side: "registry", pointer: "/response/body/data" }),
    ]);
    expect(findingsOf({ path: "/v1/notifications?limit=2", status: 200, body: page })).toEqual([]);
  });

  it("order: a list answers oldest first", () => {
    const backwards = findingsOf({
      path: "/v1/notifications",
      status: 200,
      body: { data: [notification(B, LATE), notification(A, EARLY)] },
    });
    expect(backwards).toEqual([
      expect.objectContaining({ rule: "order", side: "registry", pointer: "/response/body/data/1/created_datetime" }),
    ]);
  });

  it("acknowledged-seen-again: a notification acknowledged is not answered NEW again", () => {
    const acknowledge: Made = {
      method: "POST",
      path: "/v1/notifications/acknowledge",
      sent: { data: [A] },
      status: 200,
      body: { data: { acknowledged: [A] } },
    };
    const list: Made = { path: "/v1/notifications", status: 200, body: { data: [notification(A, EARLY)] } };
    expect(findingsOf(acknowledge, list)).toEqual([
      expect.objectContaining({
        exchange: 1,
        rule: "acknowledged-seen-again",
        side: "registry",
        pointer: "/response/body/data/0",
      }),
    ]);
    expect(findingsOf(list, acknowledge)).toEqual([]);
  });

  it("retry-after: a 429 or 503 says when to try again; retry-too-soon: the software waits that long", () => {
    const problem = (status: number) => ({
      type: `https://land-registration-gateway.example/problems/${status}-01`,
      title: status === 429 ? "Too Many Requests" : "Service Unavailable",
      status,
      detail: "later",
      instance: "/v1/notifications",
      code: `${status}-01`,
    });
    const limited = (headers: Record<string, string>): Made => ({
      path: "/v1/notifications",
      status: 429,
      headers: { "content-type": "application/problem+json", ...headers },
      body: problem(429),
    });
    const page = (at: number): Made => ({ path: "/v1/notifications", status: 200, body: { data: [] }, at });
    expect(findingsOf(limited({}), page(1))).toEqual([
      expect.objectContaining({
        exchange: 0,
        rule: "retry-after",
        side: "registry",
        pointer: "/response/headers/retry-after",
      }),
    ]);
    expect(findingsOf(limited({ "retry-after": "2" }), page(1))).toEqual([
      expect.objectContaining({ exchange: 1, rule: "retry-too-soon", side: "software", pointer: "/request" }),
    ]);
    expect(findingsOf(limited({ "retry-after": "2" }), page(2.5))).toEqual([]);
  });

  describe("retry-too-soon on the sandbox's clock", () => {
    const limited: Made = {
      path: "/v1/notifications",
      status: 429,
      headers: { "content-type": "application/problem+json", "retry-after": "10" },
      body: {
        type: "https://land-registration-gateway.example/problems/429-01",
        title: "Too Many Requests",
        status: 429,
        detail: "later",
        instance: "/v1/notifications",
        code: "429-01",
      },
    };
    const page: Made = { path: "/v1/notifications", status: 200, body: { data: [] }, at: 0.2 };
    /** A clock operation answering, at `at` seconds of the recording, that the sandbox's clock reads `reads`. */
    const clock = (method: string, path: string, at: number, reads: number, sent?: unknown): Made => ({
      method,
      path,
      at,
      status: 200,
      ...(sent !== undefined && { sent }),
      body: { now: new Date(START + reads * 1000).toISOString() },
    });

    it("keeps a wait made by moving the sandbox's clock forward, and finds one not made", () => {
      const advanced = clock("POST", "/sandbox/v1/clock/advance", 0.1, 10.1, { seconds: 10 });
      expect(findingsOf(limited, advanced, page)).toEqual([]);
      expect(ruled("retry-too-soon", findingsOf(limited, page))).toEqual([
        expect.objectContaining({ exchange: 1, side: "software", pointer: "/request" }),
      ]);
      // The clock read, not moved: no wait was made.
      const read = clock("GET", "/sandbox/v1/clock", 0.1, 0.1);
      expect(ruled("retry-too-soon", findingsOf(limited, read, page))).toEqual([
        expect.objectContaining({ exchange: 2, side: "software", pointer: "/request" }),
      ]);
    });

    it("keeps a wait made in real time while the sandbox's clock was set back", () => {
      const setBack = clock("PUT", "/sandbox/v1/clock", 5, -3600, { now: "2026-03-02T09:00:00.000Z" });
      expect(findingsOf(limited, setBack, { ...page, at: 11 })).toEqual([]);
      expect(ruled("retry-too-soon", findingsOf(limited, setBack, { ...page, at: 6 }))).toHaveLength(1);
    });

    it("waits per caller: another caller's request is no retry", () => {
      expect(findingsOf({ ...limited, caller: "one" }, { ...page, caller: "two" })).toEqual([]);
      expect(ruled("retry-too-soon", findingsOf({ ...limited, caller: "one" }, { ...page, caller: "one" }))).toEqual([
        expect.objectContaining({ exchange: 1 }),
      ]);
    });
  });

  it("deferred-search: the poll of a deferred search answers its result, with its id, never 404", () => {
    const deferred: Made = {
      method: "POST",
      path: "/api/v1/official-searches-of-whole",
      status: 202,
      headers: { "retry-after": "60", location: "/api/v1/poll-requests/os-2026-0001" },
      body: {
        data: {
          id: A,
          message_id: "os-2026-0001",
          acknowledgement_message: "manual processing",
          acknowledgement_code: "BG20001",
          expected_response_at: "2026-03-02T10:01:00.000",
        },
      },
    };
    const poll = (status: number, at: number, body?: unknown): Made => ({
      path: "/api/v1/poll-requests/os-2026-0001",
      status,
      headers: status === 202 ? { "retry-after": "30" } : {},
      at,
      body: body ?? { errors: [{ code: "BG40002", detail: "not found", status: "404", title: "Not Found" }] },
    });
    const lost = ruled("deferred-search", findingsOf(deferred, poll(404, 61)));
    expect(lost).toEqual([expect.objectContaining({ exchange: 1, side: "registry", pointer: "/response/status" })]);
    // A message_id is its caller's: another's poll of it is not found (404), and that is no finding.
    expect(
      ruled("deferred-search", findingsOf({ ...deferred, caller: "one" }, { ...poll(404, 61), caller: "two" })),
    ).toEqual([]);
    // Another search after a deferral is a new search, not a retry of the deferred one.
    const another = { ...deferred, sent: { message_id: "os-2026-0002" }, at: 1 };
    expect(ruled("retry-too-soon", findingsOf(deferred, another))).toEqual([]);
    const early = findingsOf(deferred, poll(202, 5, { data: { ...(deferred.body as { data: object }).data } }));
    expect(ruled("retry-too-soon", early)).toEqual([expect.objectContaining({ exchange: 1, side: "software" })]);
    const otherId = findingsOf(
      deferred,
      poll(202, 61, { data: { ...(deferred.body as { data: object }).data, id: B } }),
    );
    expect(ruled("deferred-search", otherId)).toEqual([
      expect.objectContaining({
        exchange: 1,
        rule: "deferred-search",
        side: "registry",
        pointer: "/response/body/data/id",
      }),
    ]);
  });
});

describe("drift's request checks", () => {
  it("undocumented-endpoint: a notification payload schema's published address is documented", () => {
    const schema = (path: string) => findingsOf({ path, status: 200, body: { type: "object" } });
    expect(schema("/schemas/v1/application/completed.json")).toEqual([]);
    expect(schema("/schemas/v1/application/no-such-payload.json")).toEqual([
      expect.objectContaining({ side: "software", rule: "undocumented-endpoint", pointer: "/request/url" }),
    ]);
  });

  it("credentials-in-clear: credentials go over TLS, but to this machine", () => {
    const page = JSON.stringify({ data: [] });
    const har = (url: string) =>
      JSON.stringify({
        log: {
          entries: [
            {
              startedDateTime: "2026-03-02T10:00:00.000Z",
              request: { method: "GET", url, headers: [{ name: "Authorization", value: "Basic [redacted]" }] },
              response: {
                status: 200,
                headers: [{ name: "Content-Type", value: "application/json" }],
                content: { text: page },
              },
            },
          ],
        },
      });
    const rules = (url: string) => drift(builtSpec, readHar(har(url))).findings.map((f) => `${f.side} ${f.rule}`);
    expect(rules("http://registry.example/v1/notifications")).toEqual(["software credentials-in-clear"]);
    expect(rules("http://127.0.0.1:8080/v1/notifications")).toEqual([]);
    expect(rules("https://registry.example/v1/notifications")).toEqual([]);
  });
});

describe("drift reads a recording's headers", () => {
  const availability = (tokens: string): Made => ({
    path: "/s1/v1/titles/ZZ100001/official-copies/availability",
    status: 200,
    headers: { "x-ratelimit-requested-tokens": tokens },
  });
  const onHeaders = (findings: Finding[]) => findings.filter((f) => f.pointer.startsWith("/response/headers/"));

  it("judges a documented header, but not one the recorder redacted (its name says token)", () => {
    expect(onHeaders(findingsOf(availability("many")))).toEqual([
      expect.objectContaining({
        side: "registry",
        rule: "answer-schema",
        pointer: "/response/headers/x-ratelimit-requested-tokens",
      }),
    ]);
    expect(onHeaders(findingsOf(availability("[redacted]")))).toEqual([]);
  });
});

describe("drift reads a recording's bodies", () => {
  const page = { data: [notification(A, EARLY)] };
  const broken = { data: [notification(A, EARLY), { ...notification(B, LATE), status: 7 }] };

  it("decodes base64 answers", () => {
    const content = {
      mimeType: "application/json",
      encoding: "base64",
      text: Buffer.from(JSON.stringify(broken)).toString("base64"),
    };
    expect(findingsOf({ path: "/v1/notifications", status: 200, content }).map((f) => f.rule)).toContain(
      "answer-schema",
    );
  });

  it("takes a body cut short, or marked by the recorder, for unknown, and skips masked members", () => {
    const text = JSON.stringify(broken);
    const cut = { mimeType: "application/json", text: text.slice(0, 30), size: text.length };
    expect(findingsOf({ path: "/v1/notifications", status: 200, content: cut })).toEqual([]);
    const marked = { mimeType: "application/json", text, _lrg: { truncated: true } };
    expect(findingsOf({ path: "/v1/notifications", status: 200, content: marked })).toEqual([]);
    const masked = { mimeType: "application/json", text, _lrg: { masked: ["/data/1/status"] } };
    expect(findingsOf({ path: "/v1/notifications", status: 200, content: masked })).toEqual([]);
    const elsewhere = { mimeType: "application/json", text, _lrg: { masked: ["/data/0/subject"] } };
    expect(findingsOf({ path: "/v1/notifications", status: 200, content: elsewhere })).not.toEqual([]);
    expect(findingsOf({ path: "/v1/notifications", status: 200, body: page })).toEqual([]);
  });
});
