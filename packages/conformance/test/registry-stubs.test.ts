// The remote target knows the registry's envelopes: a small server that answers errors the way the registry's own
// test stubs and services do (its attach envelope, its title enquiry envelopes with the status as a string or an
// integer, its stub problem bodies with a string status and no code, a 429 with no body) passes the checker of a
// remote session, while the same departures are reported against the gateway target, and an answer in the wrong
// envelope is reported against both.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConformanceError } from "@lrg/spec/check";
import { HttpClient } from "../src/http.js";
import { Session, type TargetName } from "../src/session.js";

interface Stubbed {
  status: number;
  contentType?: string;
  body?: unknown;
}

const APPLICATION = "3be62ad3-8b2c-4f4e-9c1d-2a7e5f0b196f";

/** What the registry's stubs and services answer, by method and path. */
const REGISTRY: Record<string, Stubbed> = {
  [`POST /v1/applications/${APPLICATION}/attachments`]: {
    status: 404,
    contentType: "application/json",
    body: { errors: [{ type: "OC200", detail: "Order creation request not found", pointer: null }] },
  },
  [`POST /v1/applications/${APPLICATION}/messages`]: {
    status: 400,
    contentType: "application/json",
    body: { errors: [{ type: "OC036", detail: "Application is not in a pending state", pointer: null }] },
  },
  "POST /api/v1/official-searches-of-whole": {
    status: 409,
    contentType: "application/json",
    body: {
      errors: [{ code: "BG40011", detail: "Duplicate message id", status: 409, trace_id: "b1c2", title: "Conflict" }],
    },
  },
  "GET /s2/v1/titles/ZZ100010/registered-proprietor-names": {
    status: 404,
    contentType: "application/json",
    body: {
      errors: [
        {
          error_code: "BG40002",
          error_message: "Title not found",
          http_status: "404",
          timestamp: "2025-04-01T10:15:30",
        },
      ],
    },
  },
  "GET /s1/v1/titles/ZZ100001/official-copies/availability": { status: 429 },
  "POST /v0/documents/url": {
    status: 400,
    contentType: "application/problem+json",
    body: {
      type: "https://landregistry.github.io/bgtechdoc/problems/global#bad-request",
      title: "Bad Request",
      detail: "The request is invalid or malformed.",
      status: "400",
      errors: [{ type: "L1A_SCHEMA_VALIDATION_ERROR", detail: "[file_length must be at least 1]" }],
    },
  },
  "POST /v0/applications": {
    status: 400,
    contentType: "application/problem+json",
    body: {
      type: "https://landregistry.github.io/bgtechdoc/problems/global#bad-request",
      title: "Bad Request",
      detail: "The request is invalid or malformed.",
      status: "400",
      errors: [{ type: "OCV_L1A_000", detail: "must not be in the future", pointer: "/data/transactions/0/date" }],
    },
  },
  "GET /v1/notifications": {
    status: 400,
    contentType: "application/problem+json",
    body: {
      type: "https://problems-registry.smartbear.com/bad-request/",
      title: "Bad Request",
      status: 400,
      detail: "created_after cannot be after created_before",
      instance: "/v1/notifications",
      code: "400-01",
    },
  },
};

/** Answers the gateway's problem+json where the registry uses its attach envelope: wrong on every target. */
const WRONG_ENVELOPE: Stubbed = {
  status: 404,
  contentType: "application/problem+json",
  body: {
    type: "https://land-registration-gateway.example/problems/404-01",
    title: "Not Found",
    status: 404,
    detail: "no application",
    instance: "/",
    code: "404-01",
  },
};

let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const path = (request.url ?? "").split("?")[0];
      const wrong = (request.url ?? "").includes("wrong=envelope");
      const stubbed = wrong ? WRONG_ENVELOPE : REGISTRY[`${request.method ?? ""} ${path ?? ""}`];
      if (!stubbed) {
        response.writeHead(500).end();
        return;
      }
      if (stubbed.body === undefined) {
        response.writeHead(stubbed.status).end();
        return;
      }
      response
        .writeHead(stubbed.status, { "content-type": stubbed.contentType ?? "application/json" })
        .end(JSON.stringify(stubbed.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function session(target: TargetName): Session {
  return new Session({
    target,
    http: new HttpClient(url),
    capabilities: [],
    credentials: { username: "stub", password: "any" },
  });
}

const requests = Object.keys(REGISTRY).map((key) => {
  const [method, path] = key.split(" ") as [string, string];
  return [key, method, path] as const;
});
/** The registry's answers that the spec itself documents (its envelopes), valid against the gateway target too. */
const documented = new Set([
  `POST /v1/applications/${APPLICATION}/attachments`,
  `POST /v1/applications/${APPLICATION}/messages`,
  "POST /api/v1/official-searches-of-whole",
  "GET /s2/v1/titles/ZZ100010/registered-proprietor-names",
  "GET /v1/notifications",
]);
const bodyOf = (method: string) => (method === "POST" ? { json: { data: {} } } : {});

describe("the remote target against answers like the registry's stubs", () => {
  it.each(requests)("%s passes the checker of a remote session", async (_key, method, path) => {
    const remote = session("remote");
    const answer = await remote.call(method, path, bodyOf(method));
    expect(answer.status).toBeGreaterThanOrEqual(400);
    remote.http.close();
  });

  it.each(requests.filter(([key]) => !documented.has(key)))(
    "%s is reported against the gateway target, which must answer as the spec says",
    async (_key, method, path) => {
      const gateway = session("gateway");
      await expect(gateway.call(method, path, bodyOf(method))).rejects.toBeInstanceOf(ConformanceError);
      gateway.http.close();
    },
  );

  it.each(["remote", "gateway"] as const)(
    "an attach answered in problem+json instead of the registry's envelope is reported (%s)",
    async (target) => {
      const checked = session(target);
      await expect(
        checked.call("POST", `/v1/applications/${APPLICATION}/attachments`, {
          query: { wrong: "envelope" },
          json: { data: {} },
        }),
      ).rejects.toBeInstanceOf(ConformanceError);
      checked.http.close();
    },
  );
});
