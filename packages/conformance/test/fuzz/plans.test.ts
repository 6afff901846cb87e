// What the fuzzer draws: every operation in scope, each scope only what it may send, its own value generators passed
// where it draws (loading the plans changes no other generator).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { componentSchema, fuzzWeightOf, operationById, operations } from "@lrg/spec";
import { validValue } from "../../src/bad-input/index.js";
import {
  allowedIn,
  allRequests,
  FUZZ_VALUES,
  isExclusive,
  operationsIn,
  requestsFor,
  type Plan,
} from "../../src/fuzz/plans.js";

const draw = (arbitrary: fc.Arbitrary<Plan>, numRuns: number) => fc.sample(arbitrary, { seed: 42, numRuns });
const settings = componentSchema("SandboxSettingsUpdate", "sandbox");

describe("the fuzzer's plans", () => {
  it("keep a drawn latency short, and leave the schema's generator as it was for everyone else", () => {
    const latencies = (values: unknown[]) =>
      values.map((value) => (value as { latency_ms?: number }).latency_ms).filter((v) => v !== undefined);
    expect(
      Math.max(...latencies(fc.sample(validValue(settings, FUZZ_VALUES), { seed: 1, numRuns: 300 }))),
    ).toBeLessThanOrEqual(2);
    expect(Math.max(...latencies(fc.sample(validValue(settings), { seed: 1, numRuns: 300 })))).toBeGreaterThan(2);
  });

  it("draw every kind of request of an operation, in the variants it has", () => {
    const variants = new Set(draw(requestsFor(operationById("submitApplication")), 600).map((p) => p.variant));
    for (const variant of [
      "valid",
      "junk-query",
      "bad-credentials",
      "wrong-method",
      "broken-header",
      "broken-body",
      "malformed-json",
    ])
      expect(variants, variant).toContain(variant);
    const uploads = draw(requestsFor(operationById("uploadDocument")), 200).filter((p) => p.flow?.kind === "upload");
    expect(uploads.length).toBeGreaterThan(0);
  });

  it("send alone what changes the gateway for everyone, and draw an operation by its weight", () => {
    expect(isExclusive(operationById("setDayList"))).toBe(true);
    expect(isExclusive(operationById("getDayList"))).toBe(false);
    const drawn = draw(allRequests("full"), 3000);
    const count = (id: string) => drawn.filter((p) => p.operationId === id).length;
    expect(fuzzWeightOf(operationById("resetSandbox"))).toBeLessThan(fuzzWeightOf(operationById("getDayList")));
    expect(count("resetSandbox")).toBeLessThan(count("getDayList"));
    expect(drawn.filter((p) => p.operationId === "setDayList").every((p) => p.exclusive === true)).toBe(true);
  });

  it("address, in each scope, only what that scope may send", () => {
    expect(operationsIn("full")).toEqual(operations);
    expect(operationsIn("stateless").every((o) => o.document === "registry")).toBe(true);
    expect(operationsIn("observe").every((o) => o.method === "GET")).toBe(true);
    const observed = draw(allRequests("observe"), 300);
    expect(observed.every((p) => p.method === "GET" && p.flow === undefined)).toBe(true);
    expect(observed.some((p) => ["other", "other-token", "wrong-password"].includes(p.auth))).toBe(false);
    const mocked = draw(allRequests("stateless"), 300);
    expect(mocked.every((p) => p.prefix === "" && p.variant !== "malformed-json" && allowedIn("stateless")(p))).toBe(
      true,
    );
    expect(allowedIn("full")(mocked[0] as Plan)).toBe(true);
  });
});
