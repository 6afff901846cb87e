import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  formatQueryDateTime,
  formatRegistryDateTime,
  normalizeRegistryDateTime,
  parseRegistryDateTime,
  tryParseRegistryDateTime,
} from "../src/date-time.js";

describe("normalizeRegistryDateTime", () => {
  const cases: [string, { given: string; want: string }][] = [
    [
      "no zone, two fractional digits (read as UTC)",
      { given: "2025-02-20T09:06:29.04", want: "2025-02-20T09:06:29.040Z" },
    ],
    ["milliseconds and Z", { given: "2025-02-20T09:06:29.040Z", want: "2025-02-20T09:06:29.040Z" }],
    ["microseconds, no zone", { given: "2025-02-20T09:06:29.040123", want: "2025-02-20T09:06:29.040Z" }],
    [
      "microseconds and Z, truncated not rounded",
      { given: "2025-02-20T09:06:29.999999Z", want: "2025-02-20T09:06:29.999Z" },
    ],
    ["nanoseconds", { given: "2025-02-20T09:06:29.123456789Z", want: "2025-02-20T09:06:29.123Z" }],
    ["lower-case t and z", { given: "2025-02-20t09:06:29.5z", want: "2025-02-20T09:06:29.500Z" }],
    ["colon before the milliseconds", { given: "2025-02-20T15:29:51:405Z", want: "2025-02-20T15:29:51.405Z" }],
    [
      "colon before the milliseconds, lower case",
      { given: "2025-02-20t15:29:51:405z", want: "2025-02-20T15:29:51.405Z" },
    ],
    ["comma as decimal sign", { given: "2025-02-20T09:06:29,25Z", want: "2025-02-20T09:06:29.250Z" }],
    ["no fraction", { given: "2025-02-20T09:06:29Z", want: "2025-02-20T09:06:29.000Z" }],
    ["no seconds, no zone", { given: "2025-02-20T09:06", want: "2025-02-20T09:06:00.000Z" }],
    ["space between date and time", { given: "2025-02-20 09:06:29.04", want: "2025-02-20T09:06:29.040Z" }],
    ["positive offset", { given: "2025-02-20T10:06:29.040+01:00", want: "2025-02-20T09:06:29.040Z" }],
    ["negative offset without colon", { given: "2025-02-20T04:06:29-0500", want: "2025-02-20T09:06:29.000Z" }],
    ["offset across midnight", { given: "2025-01-01T00:30:00+01:00", want: "2024-12-31T23:30:00.000Z" }],
    ["leap day", { given: "2024-02-29T12:00:00Z", want: "2024-02-29T12:00:00.000Z" }],
    ["a year below 100 is not moved to the 1900s", { given: "0099-06-01T00:00:00Z", want: "0099-06-01T00:00:00.000Z" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(normalizeRegistryDateTime(given)).toBe(want);
  });

  const refused: [string, { given: string }][] = [
    ["empty", { given: "" }],
    ["date only", { given: "2025-02-20" }],
    ["month 13", { given: "2025-13-01T00:00:00Z" }],
    ["30 February", { given: "2025-02-30T00:00:00Z" }],
    ["29 February of a common year", { given: "2025-02-29T00:00:00Z" }],
    ["hour 24", { given: "2025-02-20T24:00:00Z" }],
    ["second 60", { given: "2025-02-20T23:59:60Z" }],
    ["ten fractional digits", { given: "2025-02-20T09:06:29.0123456789Z" }],
    ["trailing text", { given: "2025-02-20T09:06:29Z garbage" }],
    ["offset hour 24", { given: "2025-02-20T09:06:29+24:00" }],
    ["two-digit year", { given: "25-02-20T09:06:29Z" }],
  ];
  it.each(refused)("refuses %s", (_name, { given }) => {
    expect(tryParseRegistryDateTime(given)).toBeUndefined();
    expect(() => parseRegistryDateTime(given)).toThrow(RangeError);
  });

  it("refuses to format an invalid Date", () => {
    expect(() => formatRegistryDateTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});

// Instants from 1800 to 9998 at millisecond precision, with optional sub-millisecond digits.
const instant = fc.integer({ min: Date.UTC(1800, 0, 1), max: Date.UTC(9998, 11, 31) }).map((ms) => new Date(ms));
const pad = (value: number, width = 2) => String(value).padStart(width, "0");

/** Writes an instant in one of the registry's shapes, with extra sub-millisecond digits. */
const shaped = fc
  .record({
    date: instant,
    separator: fc.constantFrom("T", "t", " "),
    fractionSeparator: fc.constantFrom(".", ",", ":"),
    extraDigits: fc.string({ unit: fc.constantFrom(..."0123456789"), maxLength: 6 }),
    zone: fc.constantFrom("", "Z", "z", "+00:00", "-0000"),
  })
  .map(({ date, separator, fractionSeparator, extraDigits, zone }) => {
    const text =
      `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}` +
      `${separator}${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}` +
      `${fractionSeparator}${pad(date.getUTCMilliseconds(), 3)}${extraDigits}${zone}`;
    return { date, text };
  });

describe("date-time properties", () => {
  it("reads every shape back to the instant it was written from", () => {
    fc.assert(
      fc.property(shaped, ({ date, text }) => {
        expect(parseRegistryDateTime(text).getTime()).toBe(date.getTime());
      }),
    );
  });

  it("emits one shape: 24 characters, three fractional digits, trailing Z", () => {
    fc.assert(
      fc.property(shaped, ({ text }) => {
        expect(normalizeRegistryDateTime(text)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }),
    );
  });

  it("is idempotent: normalising a normalised value changes nothing", () => {
    fc.assert(
      fc.property(shaped, ({ text }) => {
        const once = normalizeRegistryDateTime(text);
        expect(normalizeRegistryDateTime(once)).toBe(once);
      }),
    );
  });

  it("keeps the order of instants", () => {
    fc.assert(
      fc.property(shaped, shaped, (a, b) => {
        const order = Math.sign(a.date.getTime() - b.date.getTime());
        expect(Math.sign(parseRegistryDateTime(a.text).getTime() - parseRegistryDateTime(b.text).getTime())).toBe(
          order,
        );
      }),
    );
  });

  it("applies an offset as the same instant in UTC", () => {
    fc.assert(
      fc.property(instant, fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }), (date, offsetMinutes) => {
        const local = new Date(date.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
        const sign = offsetMinutes < 0 ? "-" : "+";
        const zone = `${sign}${pad(Math.floor(Math.abs(offsetMinutes) / 60))}:${pad(Math.abs(offsetMinutes) % 60)}`;
        expect(parseRegistryDateTime(`${local}${zone}`).getTime()).toBe(date.getTime());
      }),
    );
  });

  it("never throws anything but a RangeError on arbitrary text", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        try {
          parseRegistryDateTime(text);
        } catch (error) {
          expect(error).toBeInstanceOf(RangeError);
        }
      }),
    );
  });
});

describe("formatQueryDateTime", () => {
  const cases: [string, { given: string; want: string }][] = [
    [
      "a whole second: exactly the requirement's example shape",
      { given: "2020-01-01T00:00:00.000Z", want: "2020-01-01T00:00:00" },
    ],
    ["milliseconds are kept", { given: "2025-02-20T09:06:29.040Z", want: "2025-02-20T09:06:29.040" }],
    ["an offset is converted to UTC", { given: "2025-02-20T10:06:29+01:00", want: "2025-02-20T09:06:29" }],
  ];
  it.each(cases)("%s", (_name, { given, want }) => {
    expect(formatQueryDateTime(parseRegistryDateTime(given))).toBe(want);
  });

  it("is always zone-less UTC with seconds, and reads back as the same instant", () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true }),
        (date) => {
          const text = formatQueryDateTime(date);
          expect(text).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?$/);
          expect(parseRegistryDateTime(text).getTime()).toBe(date.getTime());
        },
      ),
    );
  });
});
