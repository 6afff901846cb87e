// The conformance client's one retry: a request that went out on a kept-alive connection the server had just closed
// (ECONNRESET before any answer) is sent again on a new connection; a server that resets every time still fails.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HttpClient } from "../src/http.js";

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
