// How many runs a property's checks get: its own count, the options' `runs` in place of it, or its own count
// lowered to the options' `maxRuns` (the two-instance suite's five).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { HttpClient } from "../src/http.js";
import type { Property, RunOptions } from "../src/property.js";
import { runProperty } from "../src/runner.js";
import { Session } from "../src/session.js";

/** A property that sends nothing: one check, counting the values it is given. */
function counting(runs: number): { property: Property; checked: () => number } {
  let checked = 0;
  const property: Property = {
    id: "test.counting",
    rows: [],
    title: "counts its runs",
    requires: [],
    runs,
    async check(context) {
      await context.assert(
        fc.property(fc.integer(), () => {
          checked += 1;
        }),
      );
    },
  };
  return { property, checked: () => checked };
}

const session = new Session({
  target: "remote",
  http: new HttpClient("http://127.0.0.1:9"),
  capabilities: [],
  credentials: { username: "nobody", password: "unused" },
});

async function runsOf(own: number, options: RunOptions): Promise<number> {
  const { property, checked } = counting(own);
  const result = await runProperty(property, session, options);
  expect(result.outcome).toBe("passed");
  expect(result.runs).toBe(checked());
  return checked();
}

describe("run counts", () => {
  it("a property runs its own count by default", async () => {
    expect(await runsOf(12, {})).toBe(12);
  });

  it("runs replaces the property's own count, up or down", async () => {
    expect(await runsOf(12, { runs: 3 })).toBe(3);
    expect(await runsOf(2, { runs: 7 })).toBe(7);
  });

  it("maxRuns lowers a larger count and leaves a smaller one", async () => {
    expect(await runsOf(12, { maxRuns: 5 })).toBe(5);
    expect(await runsOf(2, { maxRuns: 5 })).toBe(2);
  });

  it("runs wins over maxRuns", async () => {
    expect(await runsOf(2, { runs: 9, maxRuns: 5 })).toBe(9);
  });
});
