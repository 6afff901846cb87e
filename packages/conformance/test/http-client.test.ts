// The package's one raw HTTP client. Its one retry: a request that went out on a kept-alive connection the server had
// just closed (ECONNRESET before any answer) is sent again on a new connection; a server that resets every time still
// fails. And it sends what it is given: a path as written, a body cut short, a deadline.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient, WireClient } from "../src/http.js";

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

/** A server that answers the first `answered` requests of each connection and drops the connection at the next. */
async function serverAnswering(answered: number): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const perSocket = new WeakMap<object, number>();
  server = createServer((request, response) => {
    const seen = (perSocket.get(request.socket) ?? 0) + 1;
    perSocket.set(request.socket, seen);
    if (seen > answered) {
      request.socket.destroy();
      return;
    }
    response.end("ok");
  });
  server.on("connection", () => (connections += 1));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe("the conformance HTTP client", () => {
  it("sends a request again on a new connection when the kept-alive one is reset before any answer", async () => {
    const { url, connections } = await serverAnswering(1);
    const client = new HttpClient(url);
    try {
      expect((await client.send({ method: "GET", url: "/first" })).status).toBe(200);
      // The second request goes out on the kept-alive connection, which the server drops: sent again, answered.
      const again = await client.send({ method: "GET", url: "/second" });
      expect(again.status).toBe(200);
      expect(again.bytes.toString()).toBe("ok");
      expect(connections()).toBe(2);
    } finally {
      client.close();
    }
  });

  it("fails when the new connection is reset too, and never on a first connection", async () => {
    const { url } = await serverAnswering(0);
    const client = new HttpClient(url);
    try {
      await expect(client.send({ method: "GET", url: "/" })).rejects.toThrow(/socket hang up|ECONNRESET/);
    } finally {
      client.close();
    }
  });
});

/** A server that answers each request with its method and path as received, after reading the body it declared. */
async function echoServer(): Promise<string> {
  server = createServer((request, response) => {
    if (request.url === "/slow") return; // never answered
    if (request.headers["content-length"] === "41943041") {
      response.writeHead(413).end("too large"); // refused before the body arrives
      return;
    }
    request.resume();
    request.on("end", () => response.end(`${request.method} ${request.url}`));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("the raw client", () => {
  it("sends a path exactly as written, to its base or to an absolute address", async () => {
    const url = await echoServer();
    const client = new WireClient(url, 2, 5_000);
    try {
      const relative = await client.send({ method: "GET", target: "/a/../b/./%zz?x=1", headers: {} });
      expect(relative.kind === "answer" && relative.body.toString()).toBe("GET /a/../b/./%zz?x=1");
      const absolute = await client.send({ method: "DELETE", target: `${url}/c`, headers: {}, fresh: true });
      expect(absolute.kind === "answer" && absolute.body.toString()).toBe("DELETE /c");
    } finally {
      client.close();
    }
  });

  it("answers a request whose body never comes in full, and says when no answer came in time", async () => {
    const url = await echoServer();
    const client = new WireClient(url, { timeoutMs: 300 });
    try {
      const stalled = await client.send({
        method: "PUT",
        target: "/up",
        headers: { "content-length": "41943041" },
        body: Buffer.alloc(10),
        stallAfter: 5,
      });
      expect(stalled.kind === "answer" && stalled.status).toBe(413);
      const slow = await client.send({ method: "GET", target: "/slow", headers: {} });
      expect(slow).toMatchObject({ kind: "no-answer", reason: "no answer within 300 ms" });
    } finally {
      client.close();
    }
  });
});
