import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { componentSchema } from "@lrg/spec";
import { parseDateTimeFilter } from "../src/date-time.js";

/** QueryDateTime's pattern as the spec publishes it: what every date-time filter admits. */
const admitted = new RegExp(String(componentSchema("QueryDateTime")["pattern"]), "u");

/**
 * Strings of the date-time filter's shape with any two digits in every field: most are impossible dates and
 * times (month 50, hour 56), the rest are real ones, leap days included.
 */
const shaped = fc.stringMatching(
  /^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}(:[0-9]{2}([.,][0-9]{1,9})?)?([Zz]|[+-][0-9]{2}:?[0-9]{2})?$/,
);
/** Real dates around the end of February of years that are leap years by each clause of the Gregorian rule, or not. */
const februaryEnds = fc
  .record({
    year: fc.constantFrom("0000", "0004", "0100", "1900", "2000", "2023", "2024", "2100", "2400", "9996"),
    day: fc.constantFrom("28", "29", "30"),
  })
  .map(({ year, day }) => `${year}-02-${day}T00:00`);

describe("parseDateTimeFilter", () => {
  it.each([
    ["the requirement's example", { given: "2020-01-01T00:00:00", want: Date.UTC(2020, 0, 1) }],
    ["a fraction after a comma, a lower-case t", { given: "2020-01-01t00:00:00,5", want: Date.UTC(2020, 0, 1) + 500 }],
    ["no seconds, an offset", { given: "2020-01-01T01:30+01:30", want: Date.UTC(2020, 0, 1) }],
    ["an offset without a colon", { given: "2020-01-01T00:00:00-0100", want: Date.UTC(2020, 0, 1, 1) }],
    ["a year before 100", { given: "0050-06-01T00:00:00Z", want: Date.parse("0050-06-01T00:00:00.000Z") }],
    ["29 February of a leap year", { given: "2024-02-29T23:59:59", want: Date.UTC(2024, 1, 29, 23, 59, 59) }],
    ["29 February of a year divisible by 400", { given: "2000-02-29T00:00", want: Date.UTC(2000, 1, 29) }],
    ["the example of the contract tool", { given: "5077-50-50T56:02", want: undefined }],
    ["month 13", { given: "2025-13-01T00:00:00", want: undefined }],
    ["30 February", { given: "2025-02-30T00:00:00", want: undefined }],
    ["29 February of a common year", { given: "2023-02-29T00:00:00", want: undefined }],
    ["29 February of a century not divisible by 400", { given: "1900-02-29T00:00:00", want: undefined }],
    ["31 April", { given: "2025-04-31T00:00:00", want: undefined }],
    ["hour 24", { given: "2025-01-01T24:00:00", want: undefined }],
    ["a leap second", { given: "2016-12-31T23:59:60Z", want: undefined }],
    ["an offset of 24 hours", { given: "2025-01-01T00:00:00+24:00", want: undefined }],
  ])("%s", (_, { given, want }) => {
    expect(parseDateTimeFilter(given)).toBe(want);
  });

  it("reads exactly what QueryDateTime's pattern admits", () => {
    fc.assert(
      fc.property(fc.oneof(shaped, februaryEnds), (value) => {
        expect(parseDateTimeFilter(value) !== undefined, value).toBe(admitted.test(value));
      }),
      { numRuns: 20_000 },
    );
  });
});
