// The loopback balancer the two-instance conformance run and the benchmark put in front of gateway instances:
// per request it alternates every request, per connection it keeps each connection on one upstream.
import { createServer, Agent, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startRoundRobin, type Balancing } from "../src/testing/round-robin.js";

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

/** Three requests in a row on each of two keep-alive connections (one agent each, one socket per agent). */
async function twoConnections(balancing: Balancing): Promise<{ answers: string[][]; counts: number[] }> {
  const balancer = await startRoundRobin(urls, balancing);
  const agents = [0, 1].map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  try {
    const answers: string[][] = [[], []];
    for (let round = 0; round < 3; round += 1)
      for (const [index, agent] of agents.entries())
        answers[index]!.push(await post(balancer.url, agent, `${index}.${round}`));
    return { answers, counts: [...balancer.counts] };
  } finally {
    for (const agent of agents) agent.destroy();
    await balancer.close();
  }
}

describe("round-robin balancer", () => {
  it("per request: each request goes to the next upstream, on one keep-alive connection too, with its body", async () => {
    const balancer = await startRoundRobin(urls, "request");
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

  it("per connection: each connection goes to the next upstream and stays there", async () => {
    const { answers, counts } = await twoConnections("connection");
    expect(answers).toEqual([
      ["a:0.0", "a:0.1", "a:0.2"],
      ["b:1.0", "b:1.1", "b:1.2"],
    ]);
    expect(counts).toEqual([1, 1]);
  });

  it("per connection: an upstream that cannot be reached closes the client's connection, and close() returns", async () => {
    const closed = await new Promise<Server>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => resolve(server));
    });
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const balancer = await startRoundRobin([url], "connection");
    const agent = new Agent({ keepAlive: false });
    await expect(post(balancer.url, agent, "x")).rejects.toThrow(/socket hang up|ECONNRESET/);
    await balancer.close();
  });
});
