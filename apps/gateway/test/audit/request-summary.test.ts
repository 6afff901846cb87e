import { describe, expect, it } from "vitest";
import { NESTED, REDACTED, summariseRequestBody } from "../../src/audit/request-summary.js";

describe("the audit trail's summary of a request body", () => {
  it.each([
    ["no body", { given: undefined, want: null }],
    ["a body that is not an object", { given: ["a"], want: null }],
    [
      "a plain change, kept as sent",
      { given: { processing: "manual", duplicate_rate: 0 }, want: { processing: "manual", duplicate_rate: 0 } },
    ],
    [
      "secrets, redacted at any depth",
      {
        given: {
          name: "Unit",
          password: "p4ss",
          sandbox_token: "t0k",
          credentials: { username: "u" },
          nested: { client_secret: "s", api_key: "k", "private-key": "pk", authorization: "Bearer x" },
        },
        want: {
          name: "Unit",
          password: REDACTED,
          sandbox_token: REDACTED,
          credentials: REDACTED,
          nested: { client_secret: REDACTED, api_key: REDACTED, "private-key": REDACTED, authorization: REDACTED },
        },
      },
    ],
    [
      "names that only look alike, kept",
      {
        given: { registry_reference: "A7K2Q9B", duplicate_seed: 7, monkey: 1 },
        want: { registry_reference: "A7K2Q9B", duplicate_seed: 7, monkey: 1 },
      },
    ],
    [
      "a long string, cut to 200 characters",
      { given: { detail: "x".repeat(5000) }, want: { detail: `${"x".repeat(199)}…` } },
    ],
    [
      "a long array, its first 20 items",
      {
        given: { documents: Array.from({ length: 50 }, (_, i) => i) },
        want: { documents: Array.from({ length: 20 }, (_, i) => i) },
      },
    ],
    [
      "deep nesting, cut below level 4",
      { given: { a: { b: { c: { d: { e: 1 } } } } }, want: { a: { b: { c: { d: NESTED } } } } },
    ],
    [
      "a member named __proto__, kept as data",
      {
        given: JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
        want: JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
      },
    ],
  ])("%s", (_name, { given, want }) => {
    const summary = summariseRequestBody(given);
    expect(summary).toEqual(want);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });

  it("keeps at most 100 values however wide and deep the body", () => {
    const wide = Object.fromEntries(
      Array.from({ length: 20 }, (_, i) => [`m${i}`, Array.from({ length: 20 }, () => ({ x: "y".repeat(300) }))]),
    );
    const summary = summariseRequestBody(wide);
    const count = (value: unknown): number =>
      typeof value === "object" && value !== null
        ? Object.values(value).reduce((sum: number, member) => sum + 1 + count(member), 0)
        : 0;
    expect(count(summary)).toBeLessThanOrEqual(100);
    expect(JSON.stringify(summary).length).toBeLessThan(100 * 210);
  });
});
