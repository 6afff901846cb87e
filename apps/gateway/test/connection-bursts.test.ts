// A burst of new connections to the gateway on SQLite: libuv accepts one connection per turn of the event loop, so
// the group commit lets the connections that are arriving be accepted before it runs (see ConnectionArrivals). Seen
// from outside: the writes that 16 clients connecting at once send share a few group commits instead of one each.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { basic, DEMO, startGateway, type TestGateway } from "./support/gateway.js";

const CONNECTIONS = 16;

let gateway: TestGateway;

beforeAll(async () => {
  gateway = await startGateway();
});

afterAll(async () => {
  await gateway.stop();
});

async function groupCommits(): Promise<number> {
  const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
  const line = /^lrg_db_group_commits_total\{database="sqlite"\} (\d+)$/m.exec(metrics);
  if (!line) throw new Error("/metrics has no lrg_db_group_commits_total");
  return Number(line[1]);
}

/** Opens a connection, sends one acknowledge on it and answers its status once the answer has come back. */
function acknowledgeOnNewConnection(port: number): Promise<number> {
  const body = JSON.stringify({ data: [crypto.randomUUID()] });
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      answer += chunk;
      if (/\r\n\r\n/.test(answer)) socket.destroy();
    });
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
    socket.on("error", reject);
    socket.write(
      [
        "POST /v1/notifications/acknowledge HTTP/1.1",
        "host: 127.0.0.1",
        `authorization: ${basic(DEMO)}`,
        "content-type: application/json",
        `content-length: ${Buffer.byteLength(body)}`,
        "",
        body,
      ].join("\r\n"),
    );
  });
}

describe("a burst of new connections on SQLite", () => {
  it("is accepted before the group commit runs: its writes share a few commits, not one each", async () => {
    // The login is verified (and cached) first, so that every write of the burst is ready as soon as it is read.
    expect((await gateway.call("GET", "/v1/notifications?limit=1")).status).toBe(200);
    const port = Number(new URL(gateway.url).port);
    const before = await groupCommits();
    const statuses = await Promise.all(Array.from({ length: CONNECTIONS }, () => acknowledgeOnNewConnection(port)));
    expect(statuses).toEqual(Array.from({ length: CONNECTIONS }, () => 200));
    // Without waiting for arrivals, each connection's write had a commit of its own (16 of 16 when measured).
    expect(await groupCommits()).toBeLessThanOrEqual(before + CONNECTIONS / 4);
  });
});
