// What a store part's migration ledger decides at start, given the part's ledger and the store's own as they were.
import { describe, expect, it } from "vitest";
import { MOVED_TO_A_PART, stepsToApply, type PartMigration } from "../src/storage/part-ledger.js";

const steps: PartMigration[] = [
  { version: 1, name: "one", sql: "-- 1", formerly: 10 },
  { version: 2, name: "two", sql: "-- 2", formerly: 11 },
  { version: 3, name: "three", sql: "-- 3" },
];

const cases: [string, { applied: number[]; storeLedger: [number, string][]; want: [number, "run" | "record"][] }][] = [
  [
    "a fresh database runs every step",
    {
      applied: [],
      storeLedger: [],
      want: [
        [1, "run"],
        [2, "run"],
        [3, "run"],
      ],
    },
  ],
  [
    "a database made before the ledger records the steps it had, and runs the rest",
    {
      applied: [],
      storeLedger: [[10, "one"]],
      want: [
        [1, "record"],
        [2, "run"],
        [3, "run"],
      ],
    },
  ],
  [
    "a step the store's list only noted as moved is run, not recorded",
    {
      applied: [],
      storeLedger: [
        [10, MOVED_TO_A_PART],
        [11, MOVED_TO_A_PART],
      ],
      want: [
        [1, "run"],
        [2, "run"],
        [3, "run"],
      ],
    },
  ],
  [
    "once the part's ledger exists, it alone decides",
    {
      applied: [1],
      storeLedger: [[11, "two"]],
      want: [
        [2, "run"],
        [3, "run"],
      ],
    },
  ],
  ["a database with every step applied runs none", { applied: [1, 2, 3], storeLedger: [], want: [] }],
];

describe("stepsToApply", () => {
  it.each(cases)("%s", (_, { applied, storeLedger, want }) => {
    const decided = stepsToApply(steps, new Set(applied), new Map(storeLedger));
    expect(decided.map(({ migration, action }) => [migration.version, action])).toEqual(want);
  });
});
