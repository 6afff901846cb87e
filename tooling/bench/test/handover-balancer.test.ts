// The benchmark's balancer hands each connection it accepts to the next gateway instance, whose own process then
// reads and answers on it: seen from outside, consecutive connections are answered by the instances in turn, and every
// request on one connection by the same instance.
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, get } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startGateway,
  startHandoverBalancer,
  type GatewayProcess,
  type ServerProcess,
} from "../src/servers/processes.js";

const scratch = mkdtempSync(join(tmpdir(), "lrg-bench-handover-"));
let instances: GatewayProcess[] = [];
let balancer: ServerProcess;

beforeAll(async () => {
  instances = await Promise.all(["a", "b"].map((name) => startGateway(join(scratch, name))));
  balancer = await startHandoverBalancer(instances);
});

afterAll(async () => {
  await balancer.close();
  await Promise.all(instances.map((instance) => instance.close()));
  rmSync(scratch, { recursive: true, force: true });
});

/** The instance a request id names: its prefix, random per instance. */
const instanceOf = (requestId: unknown): string => String(requestId).split("-")[0] ?? "";

/** The instance that answered a request of its own. */
async function answeredBy(url: string): Promise<string> {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return instanceOf(response.headers.get("x-request-id"));
}

/** Sends `count` requests one after another on one new connection; answers which instance answered each. */
async function onOneConnection(url: string, count: number): Promise<string[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const answers: string[] = [];
  try {
    for (let i = 0; i < count; i += 1) {
      const prefix = await new Promise<string>((resolve, reject) => {
        get(`${url}/healthz`, { agent }, (answer) => {
          answer.resume();
          answer.once("end", () => resolve(instanceOf(answer.headers["x-request-id"])));
        }).once("error", reject);
      });
      answers.push(prefix);
    }
  } finally {
    agent.destroy();
  }
  return answers;
}

describe("the handover balancer", () => {
  it("hands consecutive connections to the instances in turn, and keeps each connection on its instance", async () => {
    const own = await Promise.all(instances.map((instance) => answeredBy(`${instance.url}/healthz`)));
    expect(new Set(own).size).toBe(2);
    const connections: string[][] = [];
    for (let i = 0; i < 4; i += 1) connections.push(await onOneConnection(balancer.url, 3));
    // One instance per connection, and the next connection on the other.
    for (const answers of connections) expect(new Set(answers).size).toBe(1);
    expect(connections.map((answers) => answers[0])).toEqual([own[0], own[1], own[0], own[1]]);
  });
});
