// The registry emits date-times in several shapes (see the spec's RegistryDateTime and the public reference's
// pitfalls). These helpers read every one of them and emit one shape: ISO 8601 in UTC with exactly three
// fractional digits and a trailing `Z` (`2025-02-20T09:06:29.040Z`), the shape the gateway itself emits.

const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,:](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/**
 * Reads a registry date-time leniently and answers the instant, or `undefined` when `value` is not one.
 *
 * Accepted: `T`, `t` or a space between date and time; seconds optional; 1 to 9 fractional digits after `.`,
 * `,` or `:` (the registry's `15:29:51:405Z`); a trailing `Z`/`z`, a `±hh:mm`/`±hhmm` offset, or no zone at
 * all, which is read as UTC. Fractions finer than a millisecond are truncated, never rounded, so the result is
 * never later than the value read. Out-of-range fields (month 13, 30 February, hour 24) are refused.
 */
export function tryParseRegistryDateTime(value: string): Date | undefined {
  const match = DATE_TIME.exec(value);
  if (match === null) return undefined;
  const [, y, mo, d, h, mi, s, fraction, , sign, offsetHours, offsetMinutes] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = s === undefined ? 0 : Number(s);
  const millisecond = fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0"));
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offset = 0;
  if (sign !== undefined) {
    const oh = Number(offsetHours);
    const om = Number(offsetMinutes);
    if (oh > 23 || om > 59) return undefined;
    offset = (sign === "-" ? -1 : 1) * (oh * 60 + om) * 60_000;
  }
  // setUTCFullYear rather than Date.UTC: Date.UTC maps the years 0 to 99 onto 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return new Date(date.getTime() - offset);
}

/** Like {@link tryParseRegistryDateTime}, but throws a `RangeError` naming the value when it cannot be read. */
export function parseRegistryDateTime(value: string): Date {
  const date = tryParseRegistryDateTime(value);
  if (date === undefined) throw new RangeError(`not a registry date-time: ${JSON.stringify(value)}`);
  return date;
}

/** Formats an instant in the one documented shape: UTC, three fractional digits, trailing `Z`. */
export function formatRegistryDateTime(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new RangeError("invalid Date");
  return date.toISOString();
}

/**
 * Formats an instant for a date-time query parameter (`created_after`, `occurred_before`...) in the shape of the
 * requirement's example: UTC without a zone, with seconds (`2020-01-01T00:00:00`), and milliseconds only when
 * the instant has some (`2020-01-01T00:00:00.123`). The registry publishes no rule for the zone of these
 * parameters, so a zone-less UTC value is the one shape that is safe against it (the sandbox's
 * `strict_date_times` refuses every other).
 */
export function formatQueryDateTime(date: Date): string {
  const iso = formatRegistryDateTime(date); // 2025-02-20T09:06:29.040Z
  return date.getUTCMilliseconds() === 0 ? iso.slice(0, 19) : iso.slice(0, 23);
}

/**
 * Rewrites any accepted registry date-time in the one documented shape, e.g. `2025-02-20T09:06:29.04` →
 * `2025-02-20T09:06:29.040Z` and `2025-02-20t15:29:51:405z` → `2025-02-20T15:29:51.405Z`.
 */
export function normalizeRegistryDateTime(value: string): string {
  return formatRegistryDateTime(parseRegistryDateTime(value));
}
