// How lrg replay matches a request to a recorded one: values exact, loose (same kind of id or timestamp, or a value
// the recording redacted or masked) or different; an exact match preferred to a loose one.
import { describe, expect, it } from "vitest";
import { builtSpec } from "@lrg/conformance/drift";
import { choose, compareRequest, compareValue, type RequestFacts } from "../src/replay/match.js";

describe("compareValue", () => {
  it.each([
    ["the same value", { recorded: "NEW", given: "NEW", want: "exact" }],
    ["another word", { recorded: "NEW", given: "ACKNOWLEDGED", want: "differs" }],
    [
      "another UUID",
      {
        recorded: "0b54c83a-7bb6-4428-923f-34997a2f8afd",
        given: "840f9671-120e-4428-923f-34997a2f8afd",
        want: "loose",
      },
    ],
    ["a UUID for a word", { recorded: "0b54c83a-7bb6-4428-923f-34997a2f8afd", given: "latest", want: "differs" }],
    ["another hex id", { recorded: "fd470af92e762a34b227eb4e", given: "0123456789abcdef0123", want: "loose" }],
    ["a short hex number", { recorded: "fd47", given: "0123", want: "differs" }],
    ["another date-time", { recorded: "2026-11-28T21:22:55.722Z", given: "2027-01-01T00:00:00+01:00", want: "loose" }],
    ["a date for a date-time", { recorded: "2026-11-28T21:22:55Z", given: "2026-11-28", want: "differs" }],
    ["a redacted signature", { recorded: "[redacted]", given: "c2lnbmF0dXJl", want: "loose" }],
    ["masked personal data", { recorded: "[personal data]", given: "Alex Example", want: "loose" }],
  ])("%s", (_name, { recorded, given, want }) => expect(compareValue(recorded, given)).toBe(want));
});

const information = (id: string, query: Record<string, string> = {}): RequestFacts => {
  const pathname = `/v0/applications/${id}/information`;
  return { method: "GET", pathname, query, body: undefined, operation: builtSpec.match("GET", pathname) };
};
const ID_A = "0b54c83a-7bb6-4428-923f-34997a2f8afd";
const ID_B = "840f9671-120e-4428-923f-34997a2f8afd";
const ID_C = "11111111-2222-4333-8444-555555555555";

describe("choose", () => {
  it("prefers the exchanges that match exactly, and takes the loose ones when none does", () => {
    const recorded = [information(ID_A), information(ID_B), information(ID_A)];
    expect(choose(recorded, information(ID_A))).toEqual({ matched: true, indexes: [0, 2] });
    expect(choose(recorded, information(ID_C))).toEqual({ matched: true, indexes: [0, 1, 2] });
  });

  it("names the closest exchange and each difference when none matches", () => {
    const recorded = [information(ID_A, { status: "NEW" })];
    const choice = choose(recorded, { ...information(ID_A, { status: "DONE" }), method: "GET" });
    expect(choice).toEqual({
      matched: false,
      closest: 0,
      differences: [{ pointer: "/request/query/status", detail: 'recorded "NEW", got "DONE"' }],
    });
    const other = compareRequest(recorded[0]!, { ...information(ID_A), method: "POST", operation: undefined });
    expect(other.otherOperation).toBe(true);
    expect(other.differences.map((d) => d.pointer)).toEqual(["/request/method"]);
  });
});
