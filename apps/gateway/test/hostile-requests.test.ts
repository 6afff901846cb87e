import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH } from "../src/http/json-depth.js";
import { startTestGateway, type TestGateway } from "../src/testing.js";
import { basic, idempotencyKey, submission } from "./support/gateway.js";

// Bodies and clients that mean harm, or are merely broken: each is a 4xx or a closed connection, never a 5xx, and a
// slow client holds nothing for long.

const BODY_TIMEOUT_MS = 600;
let gw: TestGateway;
let login: string;
beforeAll(async () => {
  gw = await startTestGateway({ limits: { bodyTimeoutMs: BODY_TIMEOUT_MS } });
  login = basic(gw.demo!);
});
afterAll(async () => {
  await gw.stop();
});

/** `[[[...]]]` nested `depth` deep around `inner`. */
const nested = (depth: number, inner = "1") => `${"[".repeat(depth)}${inner}${"]".repeat(depth)}`;

/** The members of a problem (or an envelope) these tests read. */
interface ProblemLike {
  code?: string;
  detail?: string;
  errors: { type: string; pointer?: string | null }[];
}

async function post(path: string, body: string, authorization: string) {
  const response = await fetch(`${gw.url}${path}`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json", "idempotency-key": idempotencyKey() },
    body,
  });
  const answer = (await response.json()) as ProblemLike;
  return { status: response.status, type: response.headers.get("content-type"), body: answer };
}

describe("deeply nested JSON", () => {
  it("is refused 400-02 at /body before any validation, where it once answered 500", async () => {
    // 5,000 levels in 10 KB exhausted the stack of the validation's structuredClone.
    const deep = `{"application": ${nested(5_000)}}`;
    const answer = await post("/v0/applications", deep, login);
    expect(answer.status).toBe(400);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(answer.body).toMatchObject({ code: "400-02", errors: [{ type: "maxDepth", pointer: "/body" }] });
    expect(answer.body.detail).toContain(String(MAX_JSON_DEPTH));
  });

  it("counts only brackets outside strings, and admits a body at the limit to ordinary validation", async () => {
    const stringOfBrackets = `{"x": "${"[".repeat(5_000)}"}`;
    const answer = await post("/v0/applications", stringOfBrackets, login);
    expect(answer.status).toBe(400);
    expect(answer.body.errors.some((issue: { type: string }) => issue.type === "maxDepth")).toBe(false);
    const atLimit = await post("/v0/applications", `{"x": ${nested(MAX_JSON_DEPTH - 1)}}`, login);
    expect(atLimit.body.errors.some((issue: { type: string }) => issue.type === "maxDepth")).toBe(false);
    const beyond = await post("/v0/applications", `{"x": ${nested(MAX_JSON_DEPTH)}}`, login);
    expect(beyond.body.errors).toEqual([expect.objectContaining({ type: "maxDepth" })]);
  });

  it("is refused in the registry's envelope where the operation answers one, and on the control plane", async () => {
    const attach = await post(
      `/v1/applications/${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}/attachments`,
      nested(200),
      login,
    );
    expect(attach.status).toBe(400);
    expect(attach.type).toMatch(/^application\/json/);
    // The registry writes pointers from the body's root: the root itself is the empty pointer.
    expect(attach.body.errors[0]).toMatchObject({ type: "400-02", pointer: "" });
    const settings = await fetch(`${gw.url}/sandbox/v1/settings`, {
      method: "PUT",
      headers: { authorization: `Bearer ${gw.sandboxToken}`, "content-type": "application/json" },
      body: `{"processing": ${nested(1_000, '"manual"')}}`,
    });
    expect(settings.status).toBe(400);
    expect(await settings.json()).toMatchObject({ code: "400-02" });
  });
});

describe("the docs", () => {
  it("answer 404 for a directory and for a path that is not there, where a directory once answered 500", async () => {
    for (const path of ["/docs/assets", "/docs/assets/", "/docs/no-such-page.html"]) {
      const answer = await fetch(`${gw.url}${path}`);
      expect(answer.status, path).toBe(404);
      expect(await answer.json()).toMatchObject({ code: "404-01" });
    }
    expect((await fetch(`${gw.url}/docs/index.html`)).status).toBe(200);
  });
});

/** What a raw connection saw: the answer's first line, and whether the server closed it. */
interface Trickle {
  statusLine: Promise<string>;
  closedByServer: Promise<number>;
  socket: Socket;
  bytesSent: () => number;
}

/** Sends `head` then a body of `length` bytes one byte every `everyMs`, from a raw socket; never finishes on its own. */
function trickle(head: string, length: number, everyMs: number, url = gw.url): Trickle {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  const started = Date.now();
  let sent = 0;
  let received = "";
  const timer = setInterval(() => {
    if (sent < length && !socket.destroyed) {
      socket.write("1");
      sent += 1;
    }
  }, everyMs);
  socket.write(head);
  const statusLine = new Promise<string>((resolve) => {
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (received.includes("\r\n")) resolve(received.split("\r\n")[0]!);
    });
    // Closed before a whole status line: the answer the test expects was never sent (an assertion, not a timeout).
    socket.once("close", () => resolve(`(closed unanswered after ${JSON.stringify(received)})`));
  });
  const closedByServer = new Promise<number>((resolve) => {
    const done = () => {
      clearInterval(timer);
      resolve(Date.now() - started);
    };
    socket.once("end", done);
    socket.once("close", done);
    socket.on("error", () => undefined);
  });
  return { statusLine, closedByServer, socket, bytesSent: () => sent };
}

describe("slow clients", () => {
  it("are refused at once on a path no operation answers, before their body arrives", async () => {
    const slow = trickle(
      `POST /v9/nothing HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n`,
      10_000,
      50,
    );
    expect(await slow.statusLine).toBe("HTTP/1.1 404 Not Found");
    await slow.closedByServer;
    expect(slow.bytesSent()).toBeLessThan(1_000);
  });

  const LENGTH = 10_000;
  const head = (authorization: string) =>
    `POST /v0/applications HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${LENGTH}\r\n` +
    `Idempotency-Key: ${idempotencyKey()}\r\nAuthorization: ${authorization}\r\n\r\n`;

  it("refuses an unauthenticated caller's body before it arrives, and closes the connection", async () => {
    const slow = trickle(head("Basic bm9ib2R5Ondyb25n"), LENGTH, 50);
    expect(await slow.statusLine).toBe("HTTP/1.1 401 Unauthorized");
    await slow.closedByServer;
    // Answered and cut off after a handful of bytes of the 10,000 (50 ms each): the body was never waited for.
    expect(slow.bytesSent()).toBeLessThan(LENGTH / 10);
  });

  it("cuts off a logged-in caller's JSON body that has not arrived within the body deadline", async () => {
    const slow = trickle(head(login), LENGTH, 50);
    const closedAfterMs = await slow.closedByServer;
    expect(closedAfterMs).toBeGreaterThanOrEqual(BODY_TIMEOUT_MS - 50);
    expect(slow.bytesSent()).toBeLessThan(LENGTH / 10);
    // The gateway serves others meanwhile and after.
    expect((await fetch(`${gw.url}/v1/notifications`, { headers: { authorization: login } })).status).toBe(200);
  });

  it("leaves a body that arrives in time alone", async () => {
    const body = JSON.stringify(submission());
    const answer = await post("/v0/applications", body, login);
    expect(answer.status).toBe(202);
  });

  // The deadline measures the client, not the gateway: a password check (scrypt) that outlasts it, as on a busy
  // machine, still ends in the 401. Before, the deadline ran from the headers and closed the connection unanswered.
  it("answers a refused caller 401 even when its password check outlasts the body deadline", async () => {
    const hurried = await startTestGateway({ limits: { bodyTimeoutMs: 1 } });
    try {
      const slow = trickle(head("Basic bm9ib2R5Ondyb25n"), LENGTH, 50, hurried.url);
      expect(await slow.statusLine).toBe("HTTP/1.1 401 Unauthorized");
      await slow.closedByServer;
    } finally {
      await hurried.stop();
    }
  });
});

// The header deadline is Node's own (headersTimeout), which is not enforced inside a worker thread, where vitest runs
// this file: start-and-log.test.ts checks it on the gateway's own process.
describe("the connection cap", () => {
  let capped: TestGateway;
  beforeAll(async () => {
    capped = await startTestGateway({ limits: { maxConnections: 3 } });
  });
  afterAll(async () => {
    await capped.stop();
  });

  /** A raw connection to `capped`; resolves once it is open, with a promise of its closing. */
  async function open(): Promise<{ socket: Socket; closed: Promise<void> }> {
    const socket = connect(Number(new URL(capped.url).port), "127.0.0.1");
    socket.on("error", () => undefined);
    const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
    await new Promise((resolve) => socket.once("connect", resolve));
    return { socket, closed };
  }

  it("closes a connection beyond the cap as it arrives, and serves again once one is freed", async () => {
    const held = [await open(), await open(), await open()];
    // Half a request each: they count, and none is answered.
    for (const { socket } of held) socket.write("GET /healthz HTTP/1.1\r\n");
    const fourth = await open();
    await fourth.closed;
    for (const { socket } of held) socket.destroy();
    await Promise.all(held.map(({ closed }) => closed));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await fetch(`${capped.url}/healthz`)).status).toBe(200);
  });
});
