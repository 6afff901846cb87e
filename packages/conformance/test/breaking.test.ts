// Deliberately breaking the gateway (through a proxy that flips one rule) makes the matching property fail,
// and fast-check shrinks the failure to the smallest counterexample.
import { randomBytes } from "node:crypto";
import { startTestGateway, type TestGateway } from "@lrg/gateway/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allProperties } from "../src/properties/index.js";
import { runProperty, type PropertyResult } from "../src/runner.js";
import { openGateway } from "../src/targets.js";
import { startBreakingProxy, type BrokenRule } from "./support/breaking-proxy.js";

let gateway: TestGateway;
let url: string;
const sandboxToken = randomBytes(18).toString("base64url");

beforeAll(async () => {
  gateway = await startTestGateway({ sandboxToken });
  url = gateway.url;
});

afterAll(async () => {
  await gateway?.stop();
});

/** Runs one property through a proxy that breaks `rule`; answers its result. */
async function throughBrokenGateway(rule: BrokenRule, propertyId: string): Promise<PropertyResult> {
  const property = allProperties.find((p) => p.id === propertyId);
  if (!property) throw new Error(`no property ${propertyId}`);
  const proxy = await startBreakingProxy(url, rule);
  const session = await openGateway({ url: proxy.url, sandboxToken });
  try {
    return await runProperty(property, session, { runs: 40, seed: 20250401 });
  } finally {
    await session.close();
    await proxy.close();
  }
}

describe("a broken gateway fails the matching property with a shrunk counterexample", () => {
  it("[R180] keeping the proprietor names open around the clock fails title-enquiries.service-hours at midnight London time", async () => {
    const result = await throughBrokenGateway("service-hours-ignored", "title-enquiries.service-hours");
    expect(result.outcome).toBe("failed");
    expect(result.message).toMatch(/Shrunk \d+ time/);
    // Shrunk to the first minute of the day, with the hours enforced.
    expect(result.counterexample).toEqual([0, "enforced"]);
    expect(result.message).toContain("the names at 00:00 London time: expected 423, got 200");
  });

  it("[R138] letting 101 ids through to acknowledge fails notifications.acknowledge-limit at exactly 101 ids", async () => {
    const result = await throughBrokenGateway("acknowledge-over-100", "notifications.acknowledge-limit");
    expect(result.outcome).toBe("failed");
    expect(result.message).toMatch(/Shrunk \d+ time/);
    const [, count] = result.counterexample as [string, number, boolean];
    expect(count).toBe(101);
    expect(result.message).toContain("acknowledge 101 ids: expected 400, got 200");
  });

  it("[R087, R137] answering lists newest first fails notifications.list-bounds", async () => {
    const result = await throughBrokenGateway("lists-newest-first", "notifications.list-bounds");
    expect(result.outcome).toBe("failed");
    expect(result.message).toMatch(/not oldest first/);
    // Shrunk to the simplest request: version 0, no limit, no status.
    expect(result.counterexample).toEqual([["v0", undefined, undefined]]);
  });

  it("[R130] answering 200 instead of the 400-01 problem fails notifications.created-after-later-than-created-before with a minimal gap", async () => {
    const result = await throughBrokenGateway("drop-400-01", "notifications.created-after-later-than-created-before");
    expect(result.outcome).toBe("failed");
    expect(result.message).toContain("expected 400, got 200");
    // Shrunk to the smallest gap the created_after's shape can write: a millisecond, a second or a minute.
    const [, before, gap, afterShape] = result.counterexample as [string, number, number, string];
    const resolution: Record<string, number> = {
      millisZ: 1,
      zonelessMillis: 1,
      offset: 1,
      compactOffset: 1,
      zoneless: 1000,
      Z: 1000,
      minutes: 60_000,
    };
    expect(before).toBe(Date.UTC(2001, 0, 1));
    expect(gap).toBe(resolution[afterShape]);
  });

  it("[R049, R094, R136] acknowledging nothing while answering every id acknowledged fails notifications.model with a short command sequence", async () => {
    const result = await throughBrokenGateway("acknowledge-ignored", "notifications.model");
    expect(result.outcome).toBe("failed");
    const [, commands] = result.counterexample as [boolean, Iterable<unknown>];
    const steps = [...commands].map(String);
    // Shrunk from sequences of up to 50 commands to a handful ending in the acknowledgement that exposes it.
    expect(steps.length).toBeLessThanOrEqual(4);
    expect(steps[steps.length - 1]).toMatch(/^(acknowledge|list)\(/);
    expect(result.message).toMatch(
      /acknowledged \d+ ids, the model expects|listed \d+ notifications, the model expects/,
    );
  });

  it("[R098] a version 0 list that defaults to NEW fails notifications.v0-no-default-status", async () => {
    const result = await throughBrokenGateway("v0-default-new", "notifications.v0-no-default-status");
    expect(result.outcome).toBe("failed");
    expect(result.message).toMatch(/version 0 without status lists \d+ of \d+ notifications/);
  });

  it("[R015, R136] refusing an acknowledge because one id is not a UUID fails notifications.any-acknowledge-id with one such id", async () => {
    const result = await throughBrokenGateway("acknowledge-refuses-malformed-ids", "notifications.any-acknowledge-id");
    expect(result.outcome).toBe("failed");
    const [, odd] = result.counterexample as [string, string[], unknown];
    expect(odd).toHaveLength(1);
    expect(result.message).toMatch(/expected 200, got 400/);
  });

  it("[R142] accepting a 45-character checksum fails documents.checksum-length at exactly 45 characters", async () => {
    const result = await throughBrokenGateway("checksum-over-44", "documents.checksum-length");
    expect(result.outcome).toBe("failed");
    const [, length] = result.counterexample as [Uint8Array, number, number];
    expect(length).toBe(45);
    expect(result.message).toContain("a 45-character checksum: expected 400, got 200");
  });

  it("[R322] accepting a message of 4035 characters fails attach.message-length at exactly 4035 characters", async () => {
    const result = await throughBrokenGateway("message-over-4034", "attach.message-length");
    expect(result.outcome).toBe("failed");
    const [length] = result.counterexample as [number];
    expect(length).toBe(4035);
    expect(result.message).toContain("a message of 4035 characters: expected 400, got 202");
  });
});
