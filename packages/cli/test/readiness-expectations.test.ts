// How each check of an ended run stands against --expect-failures, with and without --strict: the rule behind the exit
// code of lrg readiness run (the runs themselves, through lrg and a gateway, are in readiness.test.ts).
import { describe, expect, it } from "vitest";
import type { SandboxComponents } from "@lrg/client";
import { exitCodeOf, standingsOf, type Standing } from "../src/commands/readiness-expectations.js";

type CheckName = SandboxComponents["schemas"]["ReadinessCheckName"];
type Verdict = SandboxComponents["schemas"]["ReadinessVerdict"];

const run = (verdicts: Partial<Record<CheckName, Verdict>>) => ({
  checks: Object.entries(verdicts).map(([name, verdict]) => ({ name: name as CheckName, verdict })),
});

const expecting = (...names: CheckName[]) => ({
  file: "expected.json",
  reasons: new Map(names.map((name) => [name, `why ${name}`] as const)),
});

describe("standingsOf and exitCodeOf", () => {
  const cases: [
    string,
    {
      given: { verdicts: Partial<Record<CheckName, Verdict>>; listed: CheckName[]; strict: boolean };
      want: { standings: Record<string, Standing>; exit: number };
    },
  ][] = [
    [
      "no file: a failure fails, not exercised passes",
      {
        given: { verdicts: { paging: "failed", duplicates: "not_exercised" }, listed: [], strict: false },
        want: { standings: { paging: "failed", duplicates: "ok" }, exit: 1 },
      },
    ],
    [
      "exactly the listed checks failed",
      {
        given: { verdicts: { paging: "failed", duplicates: "passed" }, listed: ["paging"], strict: false },
        want: { standings: { paging: "expected-failure", duplicates: "ok" }, exit: 0 },
      },
    ],
    [
      "another check failed too",
      {
        given: { verdicts: { paging: "failed", duplicates: "failed" }, listed: ["paging"], strict: false },
        want: { standings: { paging: "expected-failure", duplicates: "failed" }, exit: 1 },
      },
    ],
    [
      "a listed check passed",
      {
        given: { verdicts: { paging: "passed" }, listed: ["paging"], strict: false },
        want: { standings: { paging: "did-not-fail" }, exit: 1 },
      },
    ],
    [
      "a listed check was not exercised, even without --strict",
      {
        given: { verdicts: { paging: "not_exercised" }, listed: ["paging"], strict: false },
        want: { standings: { paging: "did-not-fail" }, exit: 1 },
      },
    ],
    [
      "--strict: a check not listed and not exercised fails",
      {
        given: { verdicts: { paging: "failed", duplicates: "not_exercised" }, listed: ["paging"], strict: true },
        want: { standings: { paging: "expected-failure", duplicates: "failed" }, exit: 1 },
      },
    ],
    [
      "--strict: the listed checks failed and every other passed",
      {
        given: { verdicts: { paging: "failed", duplicates: "passed" }, listed: ["paging"], strict: true },
        want: { standings: { paging: "expected-failure", duplicates: "ok" }, exit: 0 },
      },
    ],
    [
      "a listed check the run did not examine",
      {
        given: { verdicts: { duplicates: "passed" }, listed: ["paging"], strict: false },
        want: { standings: { duplicates: "ok", paging: "did-not-fail" }, exit: 1 },
      },
    ],
  ];

  it.each(cases)("%s", (_name, { given, want }) => {
    const standings = standingsOf(run(given.verdicts), { strict: given.strict, expected: expecting(...given.listed) });
    expect(Object.fromEntries(standings.map(({ name, standing }) => [name, standing]))).toEqual(want.standings);
    expect(exitCodeOf(standings)).toBe(want.exit);
  });
});
