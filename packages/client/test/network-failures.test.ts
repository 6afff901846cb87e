// A network that fails: connections refused, dropped before an answer, answers cut off in the middle of their
// body, attempts that time out. Small local servers misbehave deterministically (by request count); every
// failure must reach the caller as a GatewayError subclass (NetworkError, TimeoutError), never as fetch's own
// TypeError, and a cut-off answer to an idempotent request is retried like a dropped connection.
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import {
  createRetryingFetch,
  GatewayError,
  type GatewayClientOptions,
  NetworkError,
  TimeoutError,
  type Middleware,
  type NotificationEvent,
  type NotificationV1,
  type RetryEvent,
} from "../src/index.js";
import { clientWith, FAKE_GATEWAY } from "./support/clients.js";
import { at, fakeRegistry, stored, type StoredNotification } from "./support/fake-notifications.js";
import { json, startServer, type ReceivedRequest, type TestServer } from "./support/servers.js";

const FAST_RETRY = { baseDelayMs: 1, maxDelayMs: 5 } as const;
const DOCUMENT_ID = "0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4";
const DOWNLOAD_ID = "3b4c1f0e9d2a7c6b5e8f1a2d3c4b5a6f7e8d9c0b1a2f3e4d5c6b7a8f9e0d1c2b";
const PAGE = { data: [] };

const directory = mkdtempSync(join(tmpdir(), "lrg-client-network-"));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  vi.restoreAllMocks();
});

async function serve(
  handler: Parameters<typeof startServer>[0],
  options?: Parameters<typeof startServer>[1],
): Promise<TestServer> {
  const server = await startServer(handler, options);
  servers.push(server);
  return server;
}

/** Sends the status line, the headers (the whole body's length) and half the body, then drops the connection. */
function cutOff(response: ServerResponse, status: number, body: unknown): void {
  const text = Buffer.from(JSON.stringify(body));
  response.writeHead(status, { "content-type": "application/json", "content-length": text.length });
  response.write(text.subarray(0, Math.floor(text.length / 2)));
  setTimeout(() => response.socket?.destroy(), 10);
}

/** Drops the connection without answering. */
function drop(raw: IncomingMessage): void {
  raw.socket.destroy();
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("expected a rejection"),
    (error: unknown) => error,
  );
}

const clientOf = (
  server: TestServer,
  options: Partial<Pick<GatewayClientOptions, "timeoutMs" | "onRetry" | "middleware" | "retry">> = {},
) => clientWith({ baseUrl: server.url, retry: FAST_RETRY, ...options });

describe("network failures are NetworkErrors", () => {
  it("a GET where nothing listens: NetworkError after its attempts, fetch's TypeError as the cause", async () => {
    const server = await startServer(() => undefined);
    await server.close(); // nothing listens there any more
    const events: RetryEvent[] = [];
    const failure = await rejection(
      clientOf(server, { onRetry: (event) => events.push(event) }).GET("/v1/notifications"),
    );
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toBeInstanceOf(GatewayError);
    expect(failure).not.toBeInstanceOf(TimeoutError);
    const error = failure as NetworkError;
    expect(error.name).toBe("NetworkError");
    expect(error.cause).toBeInstanceOf(TypeError);
    expect(error.attempts).toBe(3);
    expect(error.method).toBe("GET");
    expect(error.message).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/v1\/notifications failed after 3 attempts: fetch failed \(ECONNREFUSED\)$/,
    );
    expect(events).toHaveLength(2);
  });

  it("many attempts of one request leave no pile of abort listeners (no MaxListenersExceededWarning)", async () => {
    const server = await startServer(() => undefined);
    await server.close();
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const client = clientOf(server, { retry: { ...FAST_RETRY, attempts: 15 } });
      const failure = await rejection(client.GET("/v1/notifications"));
      expect(failure).toMatchObject({ name: "NetworkError", attempts: 15 });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
  });

  it("a POST that is not retried: NetworkError at once when the connection drops before an answer", async () => {
    const server = await serve((_request, _response, raw) => drop(raw));
    const failure = await rejection(
      clientOf(server).POST("/api/v1/official-searches-of-whole", {
        body: { message_id: "lrg-network-1", title_number: "ZZ100001" } as never,
      }),
    );
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).attempts).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("an attempt that times out: TimeoutError, a NetworkError, after the attempts of a GET", async () => {
    const server = await serve(() => undefined); // never answers
    const failure = await rejection(clientOf(server, { timeoutMs: 250 }).GET("/v1/notifications"));
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toMatchObject({ name: "TimeoutError", timeoutMs: 250, attempts: 3 });
    expect((failure as TimeoutError).cause).toMatchObject({ name: "TimeoutError" });
    // On a loaded machine the last attempt can time out before the server has read it: never more than three.
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it("a body that stalls past the timeout is a timeout too (the attempt covers the body)", async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { "content-type": "application/json", "content-length": 100 });
      response.write('{"data":');
    });
    const failure = await rejection(clientOf(server, { timeoutMs: 250 }).GET("/v1/notifications"));
    expect(failure).toBeInstanceOf(TimeoutError);
    expect(failure).toMatchObject({ attempts: 3 });
    expect(server.requests.length).toBeGreaterThanOrEqual(2);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it("the caller's abort stays an abort, at once, even while an attempt is under way", async () => {
    // The server never answers; the caller aborts once the attempt has reached it. Nothing but the abort can end
    // the call (the client's own timeout is far away), and no second attempt follows it.
    const controller = new AbortController();
    const server = await serve(() => controller.abort());
    const failure = await rejection(
      clientOf(server, { timeoutMs: 600_000 }).GET("/v1/notifications", { signal: controller.signal }),
    );
    expect(failure).not.toBeInstanceOf(GatewayError);
    expect((failure as Error).name).toBe("AbortError");
    expect(server.requests).toHaveLength(1);
  });
});

describe("answers cut off in the middle of their body", () => {
  it("retries a GET whose answer is cut off, and hands openapi-fetch the whole answer", async () => {
    let calls = 0;
    const server = await serve((_request, response) => {
      calls += 1;
      if (calls === 1) cutOff(response, 200, { data: [{ filler: "x".repeat(2000) }] });
      else json(response, 200, PAGE, { "x-request-id": "r-2" });
    });
    const events: RetryEvent[] = [];
    const { data, response } = await clientOf(server, { onRetry: (event) => events.push(event) }).GET(
      "/v1/notifications",
    );
    expect(data).toEqual(PAGE);
    expect(calls).toBe(2);
    expect(events).toHaveLength(1);
    expect(events[0]?.error).toBeInstanceOf(TypeError); // fetch's "terminated"
    expect(response.status).toBe(200);
    expect(response.url).toBe(`${server.url}/v1/notifications`);
    expect(response.headers.get("x-request-id")).toBe("r-2");
    expect(response.bodyUsed).toBe(true);
  });

  it("throws a NetworkError once the attempts are spent", async () => {
    const server = await serve((_request, response) => cutOff(response, 200, { data: [{ filler: "x".repeat(2000) }] }));
    const failure = await rejection(clientOf(server).GET("/v1/notifications"));
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).cause).toMatchObject({ name: "TypeError", message: "terminated" });
    expect(server.requests).toHaveLength(3);
  });

  it("sends a POST once and throws a NetworkError when its answer is cut off", async () => {
    const server = await serve((_request, response) =>
      cutOff(response, 200, { data: { upload_url: "/x", document_id: DOCUMENT_ID } }),
    );
    const failure = await rejection(
      clientOf(server).POST("/v0/documents/url", {
        body: {
          data: { document_type: "TR1", file_length: 1, file_sha256: "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=" },
        },
      }),
    );
    expect(failure).toBeInstanceOf(NetworkError);
    expect(server.requests).toHaveLength(1);
  });

  it("retries an acknowledgement whose answer is cut off (acknowledging is idempotent)", async () => {
    const ids = ["0b9f8c1e-2d3a-4b5c-8d6e-7f8091a2b3c4"];
    const server = await serve((_request, response) => {
      if (server.requests.length === 1) cutOff(response, 200, { data: { acknowledged: ids } });
      else json(response, 200, { data: { acknowledged: ids } });
    });
    const result = await clientOf(server).notifications.acknowledge(ids);
    expect(result).toEqual({ acknowledged: ids, not_found: [] });
    expect(server.requests.map((request) => JSON.parse(request.body.toString()) as unknown)).toEqual([
      { data: ids },
      { data: ids },
    ]);
  });

  it("consume survives a list answer cut off mid-body: every event handled once, everything acknowledged", async () => {
    const event = (ms: number, subject: string): Partial<StoredNotification> => ({
      event_datetime: at(ms),
      subject,
      notification_type: "application.accepted-priority-protected",
    });
    const a = "6f1c2a4e-0b7d-4c1e-9a53-2d8f4b6e7c10";
    const b = "7a2d3b5f-1c8e-4d2f-8b64-3e9a5c7f8d21";
    const registry = fakeRegistry([
      stored(at(10), event(5, a)),
      stored(at(20), event(5, a)),
      stored(at(30), event(25, b)),
    ]);
    let lists = 0;
    // A real server in front of the in-memory registry; the first list answer is cut off half-way.
    const server = await serve(async (request, response) => {
      const answer = await registry.fetch(
        new Request(`${FAKE_GATEWAY}${request.url}`, {
          method: request.method,
          headers: request.headers as Record<string, string>,
          ...(request.body.length > 0 && { body: request.body }),
        }),
      );
      const body = await answer.json();
      if (request.method === "GET" && (lists += 1) === 1) return cutOff(response, answer.status, body);
      json(response, answer.status, body);
    });
    const events: NotificationEvent<NotificationV1>[] = [];
    const summary = await clientOf(server).notifications.consume((received) => {
      events.push(received);
    });
    expect(summary).toEqual({ events: 2, notifications: 3, acknowledged: 3 });
    expect(events.map((received) => received.notifications.length)).toEqual([2, 1]);
    expect(registry.notifications.every((notification) => notification.status === "ACKNOWLEDGED")).toBe(true);
    expect(lists).toBeGreaterThan(1);
  });
});

describe("the answer handed over after reading the body within the attempt", () => {
  const answer = (status = 200, body: string | null = '{"data":[1,2]}') => {
    const retrying = createRetryingFetch(
      async () => new Response(body, { status, headers: { "content-type": "application/json", "x-a": "1" } }),
      {
        bufferBody: true,
      },
    );
    return retrying(new Request(`${FAKE_GATEWAY}/v1/notifications`));
  };

  it("is a Response that reads as text, JSON, bytes or a stream, once", async () => {
    const response = await answer();
    expect(response).toBeInstanceOf(Response);
    expect(response.headers.get("x-a")).toBe("1");
    expect(response.bodyUsed).toBe(false);
    expect(await response.clone().json()).toEqual({ data: [1, 2] });
    expect(new TextDecoder().decode(await response.clone().arrayBuffer())).toBe('{"data":[1,2]}');
    expect(await (await response.clone().blob()).text()).toBe('{"data":[1,2]}');
    expect(await new Response(response.clone().body).text()).toBe('{"data":[1,2]}');
    expect(await response.text()).toBe('{"data":[1,2]}');
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    await expect(response.blob()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
  });

  it("keeps a stream read as used", async () => {
    const response = await answer();
    await new Response(response.body).text();
    expect(response.bodyUsed).toBe(true);
    await expect(response.json()).rejects.toThrow(TypeError);
  });

  it("has no body for a 204", async () => {
    const response = await answer(204, null);
    expect(response.status).toBe(204);
    expect(response.body).toBeNull();
    expect(await response.text()).toBe("");
  });

  it("serves middleware that clones and reads the answer", async () => {
    const server = await serve((_request, response) => json(response, 200, PAGE));
    const seen: unknown[] = [];
    const middleware: Middleware = {
      onResponse: async ({ response }) => {
        seen.push(await response.clone().json());
      },
    };
    const { data } = await clientOf(server, { middleware: [middleware] }).GET("/v1/notifications");
    expect(data).toEqual(PAGE);
    expect(seen).toEqual([PAGE]);
  });
});

describe("uploadDocument over a failing network", () => {
  const bytes = new Uint8Array(256 * 1024).fill(0x41);

  async function startGateway(
    put: (raw: IncomingMessage, response: ServerResponse) => void,
    post?: (raw: IncomingMessage) => boolean,
  ) {
    const server: TestServer = await serve(
      (request: ReceivedRequest, response, raw) => {
        if (request.method === "POST") {
          if (post?.(raw) === true) return;
          raw.resume();
          raw.on("end", () =>
            json(response, 201, {
              data: { upload_url: `${server.url}/v0/uploads/${DOCUMENT_ID}?signature=s`, document_id: DOCUMENT_ID },
            }),
          );
          return;
        }
        put(raw, response);
      },
      { readBody: false },
    );
    return server;
  }

  it("a connection dropped in the middle of the PUT is a NetworkError with fetch's error as its cause", async () => {
    const server = await startGateway((raw) => raw.once("data", () => drop(raw)));
    const failure = await rejection(clientOf(server).uploadDocument(bytes, { documentType: "TR1" }));
    expect(failure).toBeInstanceOf(NetworkError);
    expect(failure).toMatchObject({ method: "PUT", attempts: 1 });
    expect((failure as NetworkError).cause).toBeInstanceOf(TypeError);
    expect((failure as NetworkError).message).not.toContain("signature"); // the signed query stays out of logs
  });

  it("a connection dropped before the PUT's answer is a NetworkError", async () => {
    const server = await startGateway((raw) => {
      raw.resume();
      raw.on("end", () => drop(raw));
    });
    await expect(clientOf(server).uploadDocument(bytes, { documentType: "TR1" })).rejects.toBeInstanceOf(NetworkError);
  });

  it("a connection dropped asking for the address is a NetworkError, and the POST is sent once", async () => {
    const server = await startGateway(
      () => expect.unreachable("no upload without an address"),
      (raw) => {
        drop(raw);
        return true;
      },
    );
    await expect(clientOf(server).uploadDocument(bytes, { documentType: "TR1" })).rejects.toBeInstanceOf(NetworkError);
    expect(server.requests.map((request) => request.method)).toEqual(["POST"]);
  });
});

describe("downloadDocument over a failing network", () => {
  async function startDropping(): Promise<TestServer> {
    const server: TestServer = await serve((request, response) => {
      if (request.url.startsWith("/v1/documents/")) {
        response
          .writeHead(302, { location: `${server.url}/blobs/${DOWNLOAD_ID}?signature=s`, "content-length": 0 })
          .end();
        return;
      }
      response.writeHead(200, { "content-type": "application/pdf", "content-length": 100_000 });
      response.write(Buffer.alloc(1000, 7));
      setTimeout(() => response.socket?.destroy(), 20);
    });
    return server;
  }

  it("a stream cut off midway errors with a NetworkError", async () => {
    const server = await startDropping();
    const { body } = await clientOf(server).downloadDocument(DOWNLOAD_ID);
    const failure = await rejection(new Response(body).arrayBuffer());
    expect(failure).toBeInstanceOf(NetworkError);
    expect((failure as NetworkError).cause).toMatchObject({ message: "terminated" });
  });

  it("a file cut off midway is a NetworkError, and no file is left", async () => {
    const server = await startDropping();
    const path = join(directory, "cut.pdf");
    await expect(clientOf(server).downloadDocument(DOWNLOAD_ID, { to: path })).rejects.toBeInstanceOf(NetworkError);
    expect(existsSync(path)).toBe(false);
    expect(readdirSync(directory).filter((name) => name.startsWith("cut"))).toEqual([]);
  });
});

describe("per-request overhead", () => {
  it("hands the default transport the Request openapi-fetch built, with one plain signal per attempt", async () => {
    const server = await serve((_request, response) => json(response, 200, PAGE));
    const any = vi.spyOn(AbortSignal, "any");
    const timeout = vi.spyOn(AbortSignal, "timeout");
    const fetch = vi.spyOn(globalThis, "fetch");
    const built: Request[] = [];
    const client = clientOf(server, { middleware: [{ onRequest: ({ request }) => void built.push(request) }] });
    for (let n = 0; n < 3; n += 1) expect((await client.GET("/v1/notifications")).data).toEqual(PAGE);
    expect(fetch).toHaveBeenCalledTimes(3);
    fetch.mock.calls.forEach(([input, init], n) => {
      expect(input).toBe(built[n]); // not a copy
      expect(init?.signal).toBeInstanceOf(AbortSignal);
    });
    expect(any).not.toHaveBeenCalled();
    expect(timeout).not.toHaveBeenCalled();
  });
});
