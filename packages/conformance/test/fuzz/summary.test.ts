// The summary of a run: what it counts as it goes, what it concludes at the end, and how it reads.
import { describe, expect, it } from "vitest";
import { operationById } from "@lrg/spec";
import { describeFuzz, exchangeDetail, Tally } from "../../src/fuzz/summary.js";

const inScope = [operationById("getClock"), operationById("setClock"), operationById("getDayList")];
const found = (problem: string) => ({
  oracle: "spec" as const,
  operationId: "getClock",
  variant: "valid",
  ...exchangeDetail({ method: "GET", target: "/sandbox/v1/clock", headers: {} }, undefined),
  problems: [problem],
});

describe("the tally of a run", () => {
  it("counts exchanges by operation and status class, and plans by variant", () => {
    const tally = new Tally(7, inScope);
    tally.exchange("getClock", { kind: "answer", status: 200, headers: {}, body: Buffer.alloc(0), ms: 4 });
    tally.exchange("getClock", { kind: "answer", status: 401, headers: {}, body: Buffer.alloc(0), ms: 2 });
    tally.exchange("setClock", { kind: "no-answer", reason: "reset", ms: 1 });
    tally.plan({
      operationId: "getClock",
      variant: "valid",
      method: "GET",
      prefix: "",
      path: "/",
      pathParams: {},
      query: [],
      headers: {},
      auth: "bearer",
    });
    expect(tally.summary.statuses).toEqual({ "200": 1, "401": 1, "no answer": 1 });
    expect(tally.summary.operations["getClock"]).toEqual({ requests: 2, classes: { "2xx": 1, "4xx": 1 }, totalMs: 6 });
    expect([tally.summary.requests, tally.summary.plans, tally.summary.variants]).toEqual([3, 1, { valid: 1 }]);
  });

  it("concludes which operations were never addressed, never succeeded, and had their isolation checked", () => {
    const tally = new Tally(7, inScope);
    tally.exchange("getClock", { kind: "answer", status: 200, headers: {}, body: Buffer.alloc(0), ms: 1 });
    tally.exchange("setClock", { kind: "answer", status: 400, headers: {}, body: Buffer.alloc(0), ms: 1 });
    tally.isolationChecked("setClock");
    tally.isolationChecked("not-in-scope");
    const summary = tally.finish(inScope, 2);
    expect([summary.unaddressed, summary.neverSucceeded, summary.isolationChecked, summary.seconds]).toEqual([
      ["getDayList"],
      ["setClock", "getDayList"],
      ["setClock"],
      2,
    ]);
  });

  it("keeps the first 200 violations in detail, counts all, and counts known departures apart", () => {
    const tally = new Tally(7, inScope);
    for (let index = 0; index < 205; index += 1) tally.violation(found(`p${index}`), { epoch: 2, plan: index });
    expect([tally.summary.violationCount, tally.summary.violations.length]).toEqual([205, 200]);
    expect(tally.summary.violations[3]).toMatchObject({ epoch: 2, plan: 3, request: 0, problems: ["p3"] });
    expect(tally.known("mock-pdf-placeholder", found("pdf"), { epoch: 1, plan: 0 })).toBe(true);
    expect(tally.known("no-such-departure", found("x"), { epoch: 1, plan: 0 })).toBe(false);
    expect(tally.summary.known["mock-pdf-placeholder"]?.count).toBe(1);
  });
});

describe("the summary as text", () => {
  it("says the counts, the seed, what was never covered, and each violation with its request and answer", () => {
    const tally = new Tally(4242, inScope);
    tally.exchange("getClock", { kind: "answer", status: 200, headers: {}, body: Buffer.alloc(0), ms: 1 });
    tally.violation(found("a problem"), { epoch: 3, plan: 9 });
    const text = describeFuzz(tally.finish(inScope, 1));
    expect(text).toMatch(/^fuzz: 1 requests \(0 drawn, 0 epochs\) in 1 s, 1\/s; seed 4242$/m);
    expect(text).toContain("violations: 1; known departures: 0; 5xx not explained by fault injection: 0");
    expect(text).toContain("operations never addressed: setClock, getDayList");
    expect(text).toContain("VIOLATION #1 (epoch 3, plan 9) getClock [valid] GET /sandbox/v1/clock");
    expect(text).toContain("answered nothing: \n    a problem");
  });
});
