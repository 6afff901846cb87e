// The loopback balancer the two-instance conformance run puts in front of gateway instances: it alternates every
// request, on one keep-alive connection too.
import { createServer, Agent, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRoundRobin } from "../src/testing/round-robin.js";

/** Two upstreams that answer their own name and echo the body they were sent. */
let upstreams: Server[] = [];
let urls: string[] = [];

beforeAll(async () => {
  upstreams = ["a", "b"].map((name) =>
    createServer((incoming, outgoing) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("end", () => outgoing.end(`${name}:${Buffer.concat(chunks).toString()}`));
    }),
  );
  urls = await Promise.all(
    upstreams.map(
      (server) =>
        new Promise<string>((resolve) =>
          server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
        ),
    ),
  );
});

afterAll(async () => {
  await Promise.all(upstreams.map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Sends `body` with POST through `agent` and answers the body that came back. */
function post(url: string, agent: Agent, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: "POST", agent }, (answer) => {
      let text = "";
      answer.on("data", (chunk: Buffer) => (text += chunk.toString()));
      answer.on("end", () => resolve(text));
    });
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("round-robin balancer", () => {
  it("sends each request to the next upstream, on one keep-alive connection too, with its body", async () => {
    const balancer = await startRoundRobin(urls);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    agent.on("free", (socket) => sockets.add(socket));
    try {
      const answers: string[] = [];
      for (const body of ["1", "2", "3", "4"]) answers.push(await post(balancer.url, agent, body));
      expect(answers).toEqual(["a:1", "b:2", "a:3", "b:4"]);
      expect(sockets.size).toBe(1);
      expect(balancer.counts).toEqual([2, 2]);
    } finally {
      agent.destroy();
      await balancer.close();
    }
  });

  it("answers 502 for an upstream that cannot be reached, and close() returns", async () => {
    const closed = await new Promise<Server>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const balancer = await startRoundRobin([url]);
    try {
      const answer = await fetch(balancer.url, { method: "POST", body: "x" });
      expect(answer.status).toBe(502);
      expect(await answer.text()).toBe("upstream unavailable");
    } finally {
      await balancer.close();
    }
  });
});
