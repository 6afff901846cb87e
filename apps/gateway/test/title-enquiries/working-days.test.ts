import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  dateInWords,
  dayOfWeek,
  londonDate,
  londonInstant,
  nextOpening,
  withinServiceHours,
} from "../../src/registry/london-time.js";
import {
  addWorkingDays,
  BANK_HOLIDAY_COVERAGE,
  BANK_HOLIDAYS,
  easterSunday,
  isBankHoliday,
  isWorkingDay,
  priorityExpiryDate,
  standingBankHolidays,
} from "../../src/registry/working-days.js";

const years = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
/** Calendar dates from 1990 to 2060. */
const anyDate = fc
  .integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2060, 11, 31) })
  .map((ms) => new Date(ms).toISOString().slice(0, 10));

describe("bank holidays of England and Wales", () => {
  it("the data file covers at least 2024 to 2028, eight or more a year, each on a weekday", () => {
    expect(BANK_HOLIDAY_COVERAGE.firstYear).toBeLessThanOrEqual(2024);
    expect(BANK_HOLIDAY_COVERAGE.lastYear).toBeGreaterThanOrEqual(2028);
    for (const year of years(BANK_HOLIDAY_COVERAGE.firstYear, BANK_HOLIDAY_COVERAGE.lastYear)) {
      const ofYear = BANK_HOLIDAYS.filter((h) => h.date.startsWith(`${year}-`));
      expect(ofYear.length, String(year)).toBeGreaterThanOrEqual(8);
      for (const holiday of ofYear) expect([1, 2, 3, 4, 5], holiday.date).toContain(dayOfWeek(holiday.date));
    }
  });

  it("the data file agrees with the standing rules, but for the one-off holidays proclaimed", () => {
    for (const year of years(BANK_HOLIDAY_COVERAGE.firstYear, BANK_HOLIDAY_COVERAGE.lastYear)) {
      const listed = BANK_HOLIDAYS.filter((h) => h.date.startsWith(`${year}-`));
      const replaced = new Set(listed.flatMap((h) => (h.replaces ? [h.replaces] : [])));
      const expected = [
        ...standingBankHolidays(year).filter((d) => !replaced.has(d)),
        ...listed.filter((h) => h.oneOff).map((h) => h.date),
      ];
      expect(listed.map((h) => h.date).sort(), String(year)).toEqual([...new Set(expected)].sort());
    }
  });

  it.each([
    [2024, "2024-03-31"],
    [2025, "2025-04-20"],
    [2026, "2026-04-05"],
    [2027, "2027-03-28"],
    [2028, "2028-04-16"],
    [2038, "2038-04-25"],
  ])("Easter Sunday %i is %s", (year, date) => {
    expect(easterSunday(year)).toBe(date);
  });

  it("falls back to the standing rules outside the data file", () => {
    expect(isBankHoliday("2031-12-25")).toBe(true);
    expect(isBankHoliday("2032-12-27")).toBe(true); // Christmas 2032 is a Saturday
    expect(isBankHoliday("2032-12-28")).toBe(true);
    expect(isBankHoliday("2031-12-24")).toBe(false);
  });
});

describe("working days", () => {
  it.each([
    ["across Easter and the early May holiday (the spec's example)", { given: "2025-04-01", want: "2025-05-16" }],
    ["across Christmas, Boxing Day, New Year and weekends", { given: "2025-12-10", want: "2026-01-26" }],
    ["from a Friday, across the summer holiday", { given: "2026-07-31", want: "2026-09-14" }],
    ["from a Saturday", { given: "2026-08-29", want: "2026-10-12" }],
    ["across the substitute days of Christmas 2027 and New Year 2028", { given: "2027-12-01", want: "2028-01-17" }],
  ])("30 working days %s", (_name, { given, want }) => {
    expect(addWorkingDays(given, 30)).toBe(want);
  });

  it("the priority expiry is a working day, exactly 30 working days after the London date of the certificate", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2018, 0, 1), max: Date.UTC(2040, 0, 1) }), (certificateMs) => {
        const start = londonDate(certificateMs);
        const expiry = priorityExpiryDate(certificateMs);
        expect(isWorkingDay(expiry)).toBe(true);
        expect([0, 6]).not.toContain(dayOfWeek(expiry));
        expect(isBankHoliday(expiry)).toBe(false);
        let counted = 0;
        for (let day = addDays(start, 1); day <= expiry; day = addDays(day, 1)) if (isWorkingDay(day)) counted += 1;
        expect(counted).toBe(30);
        // At least six calendar weeks, and never more than eight: no stretch of England and Wales holidays is longer.
        const calendarDays = (Date.parse(expiry) - Date.parse(start)) / 86_400_000;
        expect(calendarDays).toBeGreaterThanOrEqual(40);
        expect(calendarDays).toBeLessThanOrEqual(56);
      }),
      { numRuns: 500 },
    );
  });

  it("adding working days in two steps is adding them at once, from a working day", () => {
    fc.assert(
      fc.property(
        anyDate.filter(isWorkingDay),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        (date, a, b) => {
          expect(addWorkingDays(addWorkingDays(date, a), b)).toBe(addWorkingDays(date, a + b));
        },
      ),
    );
  });

  it("later certificates never expire earlier", () => {
    fc.assert(
      fc.property(anyDate, anyDate, (a, b) => {
        const [early, late] = a <= b ? [a, b] : [b, a];
        expect(addWorkingDays(early, 30) <= addWorkingDays(late, 30)).toBe(true);
      }),
    );
  });
});

describe("London time", () => {
  it.each([
    ["06:29:59 BST is closed", "2025-04-01T05:29:59.000Z", false],
    ["06:30 BST opens", "2025-04-01T05:30:00.000Z", true],
    ["22:59:59 BST is open", "2025-04-01T21:59:59.999Z", true],
    ["23:00 BST closes", "2025-04-01T22:00:00.000Z", false],
    ["06:30 GMT opens", "2025-01-15T06:30:00.000Z", true],
    ["06:29 GMT is closed", "2025-01-15T06:29:00.000Z", false],
    ["midnight GMT is closed", "2025-01-15T00:00:00.000Z", false],
    ["a Sunday at noon is open", "2025-04-06T11:00:00.000Z", true],
  ])("%s", (_name, iso, open) => {
    expect(withinServiceHours(Date.parse(iso))).toBe(open);
  });

  it.each([
    ["late evening, summer", "2025-04-01T22:30:00.000Z", "2025-04-02T05:30:00.000Z"],
    ["early morning, winter", "2025-01-15T05:00:00.000Z", "2025-01-15T06:30:00.000Z"],
    ["the night the clocks go forward", "2025-03-29T23:30:00.000Z", "2025-03-30T05:30:00.000Z"],
    ["the night the clocks go back", "2025-10-25T22:30:00.000Z", "2025-10-26T06:30:00.000Z"],
  ])("the next opening after %s", (_name, iso, want) => {
    expect(new Date(nextOpening(Date.parse(iso))).toISOString()).toBe(want);
  });

  it("the next opening is after any closed instant, within a day, and open", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2035, 0, 1) }), (ms) => {
        fc.pre(!withinServiceHours(ms));
        const opening = nextOpening(ms);
        expect(opening).toBeGreaterThan(ms);
        expect(opening - ms).toBeLessThanOrEqual(9 * 3_600_000);
        expect(withinServiceHours(opening)).toBe(true);
        expect(withinServiceHours(opening - 1)).toBe(false);
      }),
    );
  });

  it("the London date follows British Summer Time", () => {
    expect(londonDate(Date.parse("2025-04-01T23:30:00Z"))).toBe("2025-04-02");
    expect(londonDate(Date.parse("2025-01-15T23:30:00Z"))).toBe("2025-01-15");
    expect(londonInstant("2025-07-01", 0, 0)).toBe(Date.parse("2025-06-30T23:00:00Z"));
    expect(dateInWords("2025-03-04")).toBe("4 March 2025");
  });
});
