import { readFileSync } from "node:fs";
import type { TLSSocket } from "node:tls";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createGatewayClient, NetworkError, TimeoutError, type Middleware, type RetryEvent } from "../src/index.js";
import { backoffDelay, DEFAULT_RETRY, isIdempotent, retryDelayForResponse } from "../src/transport.js";
import { clientWith, FAKE_GATEWAY as BASE } from "./support/clients.js";
import { jsonResponse, problemResponse, recordingFetch } from "./support/recording-fetch.js";
import { json, startServer, startTlsServer, type TestServer } from "./support/servers.js";

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5 } as const;
const EMPTY_LIST = { data: [] };
const APPLICATION_ID = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

describe("createGatewayClient", () => {
  it("sends HTTP Basic credentials and serialises typed parameters", async () => {
    const recorder = recordingFetch(() => jsonResponse(200, EMPTY_LIST));
    const client = createGatewayClient({
      baseUrl: `${BASE}/`,
      username: "alex",
      password: "pä:ss",
      fetch: recorder.fetch,
    });
    const { data, error } = await client.GET("/v1/notifications", {
      params: { query: { status: "NEW", created_after: "2025-02-20T09:06:29", limit: 100 } },
    });
    expect(error).toBeUndefined();
    expect(data).toEqual(EMPTY_LIST);
    const request = recorder.last();
    expect(request.url.origin + request.url.pathname).toBe(`${BASE}/v1/notifications`);
    expect(Object.fromEntries(request.url.searchParams)).toEqual({
      status: "NEW",
      created_after: "2025-02-20T09:06:29",
      limit: "100",
    });
    expect(request.headers.get("authorization")).toBe(`Basic ${Buffer.from("alex:pä:ss").toString("base64")}`);
  });

  it("refuses a username with a colon", () => {
    expect(() => createGatewayClient({ baseUrl: BASE, username: "a:b", password: "x" })).toThrow(TypeError);
  });

  it("answers errors as values, with the response", async () => {
    const recorder = recordingFetch(() => problemResponse(404, "404-01", "no such application"));
    const client = clientWith({ fetch: recorder.fetch });
    const { data, error, response } = await client.GET("/v0/applications/{id}/information", {
      params: { path: { id: APPLICATION_ID } },
    });
    expect(data).toBeUndefined();
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: "404-01", status: 404 });
    expect(recorder.last().url.pathname).toBe(`/v0/applications/${APPLICATION_ID}/information`);
  });

  it("runs middleware once per call, around all of its attempts", async () => {
    const recorder = recordingFetch((_request, index) =>
      index === 0 ? problemResponse(503, "503-01", "busy") : jsonResponse(200, EMPTY_LIST),
    );
    const seen: string[] = [];
    const logger: Middleware = {
      onRequest: ({ request }) => {
        seen.push(`request ${request.method} ${new URL(request.url).pathname}`);
      },
      onResponse: ({ response }) => {
        seen.push(`response ${response.status}`);
      },
    };
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY, middleware: [logger] });
    await client.GET("/v1/notifications");
    expect(recorder.requests).toHaveLength(2);
    expect(seen).toEqual(["request GET /v1/notifications", "response 200"]);
  });
});

describe("retries", () => {
  it.each([429, 502, 503, 504])("retries a GET answered %i, then answers the success", async (status) => {
    const recorder = recordingFetch((_request, index) =>
      index < 2 ? new Response(null, { status }) : jsonResponse(200, EMPTY_LIST),
    );
    const events: RetryEvent[] = [];
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY, onRetry: (event) => events.push(event) });
    const { data } = await client.GET("/v1/notifications");
    expect(data).toEqual(EMPTY_LIST);
    expect(recorder.requests).toHaveLength(3);
    expect(events.map(({ attempt, status: seen }) => [attempt, seen])).toEqual([
      [1, status],
      [2, status],
    ]);
  });

  it("bounds the attempts and hands the last answer back as a value", async () => {
    const recorder = recordingFetch(() => problemResponse(503, "503-01", "shutting down"));
    const client = clientWith({ fetch: recorder.fetch, retry: { ...FAST_RETRY, attempts: 4 } });
    const { error, response } = await client.GET("/v1/notifications");
    expect(recorder.requests).toHaveLength(4);
    expect(response.status).toBe(503);
    expect(error).toMatchObject({ code: "503-01" });
  });

  it.each([400, 401, 404, 409, 500])("does not retry %i", async (status) => {
    const recorder = recordingFetch(() => new Response(null, { status }));
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY });
    await client.GET("/v1/notifications");
    expect(recorder.requests).toHaveLength(1);
  });

  it("does not retry a POST without an Idempotency-Key", async () => {
    const recorder = recordingFetch(() => new Response(null, { status: 503 }));
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY });
    await client.POST("/v0/documents/url", {
      body: {
        data: { document_type: "TR1", file_length: 1, file_sha256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" },
      },
    });
    expect(recorder.requests).toHaveLength(1);
  });

  it("retries a POST that carries an Idempotency-Key, with the same body", async () => {
    const recorder = recordingFetch((_request, index) =>
      index === 0
        ? new Response(null, { status: 502 })
        : jsonResponse(202, { data: { application_request_id: APPLICATION_ID } }),
    );
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY });
    const { data } = await client.POST("/v0/applications", {
      params: { header: { "Idempotency-Key": "submission-0001" } },
      body: { type: "REGISTER_UPDATE" } as never,
    });
    expect(data).toEqual({ data: { application_request_id: APPLICATION_ID } });
    expect(recorder.requests).toHaveLength(2);
    expect(recorder.requests[1]?.body).toBe(recorder.requests[0]?.body);
    expect(recorder.requests[1]?.headers.get("idempotency-key")).toBe("submission-0001");
  });

  it("waits the seconds of Retry-After", async () => {
    const recorder = recordingFetch((_request, index) =>
      index === 0
        ? new Response(null, { status: 429, headers: { "retry-after": "1" } })
        : jsonResponse(200, EMPTY_LIST),
    );
    const events: RetryEvent[] = [];
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY, onRetry: (event) => events.push(event) });
    const started = Date.now();
    await client.GET("/v1/notifications");
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(events[0]?.delayMs).toBe(1000);
  });

  it("honours a Retry-After date", async () => {
    const at = new Date(Date.now() - 5000).toUTCString();
    const recorder = recordingFetch((_request, index) =>
      index === 0 ? new Response(null, { status: 503, headers: { "retry-after": at } }) : jsonResponse(200, EMPTY_LIST),
    );
    const events: RetryEvent[] = [];
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY, onRetry: (event) => events.push(event) });
    await client.GET("/v1/notifications");
    expect(events).toHaveLength(1);
    expect(events[0]?.delayMs).toBe(0);
  });

  it("hands back a Retry-After longer than it waits for", async () => {
    const recorder = recordingFetch(() => new Response(null, { status: 429, headers: { "retry-after": "120" } }));
    const client = clientWith({ fetch: recorder.fetch, retry: FAST_RETRY });
    const { response } = await client.GET("/v1/notifications");
    expect(response.status).toBe(429);
    expect(recorder.requests).toHaveLength(1);
  });

  it("can be turned off", async () => {
    const recorder = recordingFetch(() => new Response(null, { status: 503 }));
    const client = clientWith({ fetch: recorder.fetch, retry: false });
    await client.GET("/v1/notifications");
    expect(recorder.requests).toHaveLength(1);
  });

  it("retries a network error (connection reset by a real server)", async () => {
    let calls = 0;
    const server = await startServer((_request, response, raw) => {
      calls += 1;
      if (calls === 1) raw.socket.destroy();
      else json(response, 200, EMPTY_LIST);
    });
    servers.push(server);
    const client = clientWith({ baseUrl: server.url, retry: FAST_RETRY });
    const { data } = await client.GET("/v1/notifications");
    expect(data).toEqual(EMPTY_LIST);
    expect(calls).toBe(2);
  });

  it("throws the network error after the last attempt", async () => {
    const server = await startServer(() => undefined);
    const url = server.url;
    await server.close(); // nothing listens there any more
    const events: RetryEvent[] = [];
    const client = clientWith({ baseUrl: url, retry: FAST_RETRY, onRetry: (event) => events.push(event) });
    const failure = await client.GET("/v1/notifications").catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).cause).toBeInstanceOf(TypeError);
    expect(events).toHaveLength(2);
  });

  it("times out an attempt and retries it", async () => {
    let calls = 0;
    const server = await startServer((_request, response) => {
      calls += 1;
      if (calls === 1) setTimeout(() => json(response, 200, EMPTY_LIST), 6000);
      else json(response, 200, EMPTY_LIST);
    });
    servers.push(server);
    // Generous against a loaded machine (CI runs every package at once): the first answer is far past the attempt's
    // timeout, the second is at once.
    const client = clientWith({ baseUrl: server.url, timeoutMs: 1500, retry: FAST_RETRY });
    const { data } = await client.GET("/v1/notifications");
    expect(data).toEqual(EMPTY_LIST);
    expect(calls).toBe(2);
  });

  it("times out a POST without retrying it", async () => {
    const server = await startServer((_request, response) => {
      setTimeout(() => json(response, 201, {}), 6000);
    });
    servers.push(server);
    const client = clientWith({ baseUrl: server.url, timeoutMs: 1500, retry: FAST_RETRY });
    const failure = await client
      .POST("/v0/documents/url", {
        body: {
          data: { document_type: "TR1", file_length: 1, file_sha256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" },
        },
      })
      .catch((error: unknown) => error);
    expect((failure as Error).name).toBe("TimeoutError");
    expect(failure).toBeInstanceOf(TimeoutError);
    // Sent once, never again: the client's own count (on a loaded machine the server may not have read it yet).
    expect(failure).toMatchObject({ attempts: 1 });
    expect(server.requests.length).toBeLessThanOrEqual(1);
  });

  it("stops at once when the caller aborts", async () => {
    const recorder = recordingFetch(() => new Response(null, { status: 503, headers: { "retry-after": "10" } }));
    const client = clientWith({ fetch: recorder.fetch });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(client.GET("/v1/notifications", { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(recorder.requests).toHaveLength(1);
  });
});

describe("retry policy", () => {
  const idempotency: [string, { method: string; headers?: Record<string, string>; want: boolean }][] = [
    ["GET", { method: "GET", want: true }],
    ["HEAD", { method: "HEAD", want: true }],
    ["OPTIONS", { method: "OPTIONS", want: true }],
    ["PUT", { method: "PUT", want: true }],
    ["DELETE", { method: "DELETE", want: true }],
    ["lower-case get", { method: "get", want: true }],
    ["POST", { method: "POST", want: false }],
    ["POST with Idempotency-Key", { method: "POST", headers: { "Idempotency-Key": "k" }, want: true }],
    ["PATCH", { method: "PATCH", want: false }],
    ["PATCH with Idempotency-Key", { method: "PATCH", headers: { "Idempotency-Key": "k" }, want: false }],
  ];
  it.each(idempotency)("%s idempotent: see table", (_name, { method, headers, want }) => {
    expect(isIdempotent(method, new Headers(headers))).toBe(want);
  });

  it("full jitter stays between 0 and the doubled, capped ceiling", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (retry, baseDelayMs, maxDelayMs, random) => {
          const delay = backoffDelay(retry, { ...DEFAULT_RETRY, baseDelayMs, maxDelayMs }, () => random);
          const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** (retry - 1));
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(ceiling);
        },
      ),
    );
  });

  it("Retry-After replaces the backoff, and a too long one stops the retries", () => {
    const policy = { ...DEFAULT_RETRY, maxRetryAfterMs: 10_000 };
    expect(retryDelayForResponse(503, "3", 1, policy)).toBe(3000);
    expect(retryDelayForResponse(503, "11", 1, policy)).toBeUndefined();
    expect(retryDelayForResponse(200, null, 1, policy)).toBeUndefined();
    expect(retryDelayForResponse(504, null, 3, policy, Date.now(), () => 0.5)).toBe(400);
  });
});

describe("mutual TLS", () => {
  const fixture = (name: string) => readFileSync(new URL(`./fixtures/tls/${name}`, import.meta.url));

  it("presents the client certificate through an undici Agent", async () => {
    const server = await startTlsServer(
      {
        key: fixture("server.key"),
        cert: fixture("server.crt"),
        ca: fixture("ca.crt"),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (_request, response, raw) => {
        const peer = (raw.socket as TLSSocket).getPeerCertificate();
        json(response, 200, { data: [] }, { "x-peer": String(peer.subject?.CN) });
      },
    );
    servers.push(server);
    const client = clientWith({
      baseUrl: server.url,
      tls: { cert: fixture("client.crt"), key: fixture("client.key"), ca: fixture("ca.crt") },
    });
    try {
      const { data, response } = await client.GET("/v1/notifications");
      expect(data).toEqual({ data: [] });
      expect(response.headers.get("x-peer")).toBe("conveyancer-test");
      expect(server.requests[0]?.headers.authorization).toMatch(/^Basic /);
    } finally {
      await client.close();
    }
  });

  it("streams an upload and a download over the client-certificate connection", async () => {
    const documentId = "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4";
    const downloadId = "a".repeat(64);
    const bytes = Buffer.alloc(2 * 1024 * 1024 + 3, 9);
    const server = await startTlsServer(
      {
        key: fixture("server.key"),
        cert: fixture("server.crt"),
        ca: fixture("ca.crt"),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (request, response) => {
        if (request.url === "/v0/documents/url") {
          return json(response, 200, {
            data: { upload_url: `${server.url}/v0/uploads/${documentId}?signature=s`, document_id: documentId },
          });
        }
        if (request.method === "PUT") {
          const ok =
            request.headers["content-length"] === String(bytes.length) && Buffer.compare(request.body, bytes) === 0;
          return json(response, ok ? 200 : 403, {});
        }
        if (request.url === `/v1/documents/${downloadId}`) {
          response.writeHead(302, { location: `/v1/document-downloads/${downloadId}?signature=s` }).end();
          return;
        }
        response.writeHead(200, { "content-type": "application/pdf" }).end(bytes);
      },
    );
    servers.push(server);
    const client = clientWith({
      baseUrl: server.url,
      tls: { cert: fixture("client.crt"), key: fixture("client.key"), ca: fixture("ca.crt") },
    });
    try {
      expect((await client.uploadDocument(bytes, { documentType: "TR1" })).document_id).toBe(documentId);
      const download = await client.downloadDocument(downloadId);
      expect(Buffer.compare(Buffer.from(await new Response(download.body).arrayBuffer()), bytes)).toBe(0);
      expect(server.requests.map((request) => [request.method, request.headers.authorization !== undefined])).toEqual([
        ["POST", true],
        ["PUT", false],
        ["GET", true],
        ["GET", false],
      ]);
    } finally {
      await client.close();
    }
  });

  it("is refused with a certificate the server's CA did not sign", async () => {
    const server = await startTlsServer(
      {
        key: fixture("server.key"),
        cert: fixture("server.crt"),
        ca: fixture("ca.crt"),
        requestCert: true,
        rejectUnauthorized: true,
      },
      (_request, response) => json(response, 200, { data: [] }),
    );
    servers.push(server);
    const client = clientWith({
      baseUrl: server.url,
      retry: false,
      tls: { cert: fixture("rogue.crt"), key: fixture("rogue.key"), ca: fixture("ca.crt") },
    });
    try {
      await expect(client.GET("/v1/notifications")).rejects.toThrow();
      expect(server.requests).toHaveLength(0);
    } finally {
      await client.close();
    }
  });
});
