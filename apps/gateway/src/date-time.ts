import { schemaMismatch } from "./problems.js";

/**
 * Reads a date-time filter as the spec's QueryDateTime admits it: seconds and fractions optional, `T` or `t`,
 * and a zone that is `Z`/`z`, `±hh:mm`, `±hhmm` or absent (absent means UTC). Answers milliseconds since the epoch
 * (fractions finer than a millisecond kept), or undefined when the value is not a real instant (a 13th month,
 * 30 February, hour 24, an offset of 24 hours): exactly what QueryDateTime's pattern refuses, no more.
 */
export function parseDateTimeFilter(value: string): number | undefined {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:[Zz]|([+-])(\d{2}):?(\d{2}))?$/.exec(
      value,
    );
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = "0", fraction = "0", sign, offsetHour = "0", offsetMinute = "0"] =
    match;
  const [y, mo, d, h, mi, s, oh, om] = [year, month, day, hour, minute, second, offsetHour, offsetMinute].map(
    Number,
  ) as [number, number, number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59 || oh > 23 || om > 59) return undefined;
  // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  if (date.getUTCDate() !== d) return undefined; // 31 April, 29 February of a common year and the like
  const offsetMinutes = (sign === "-" ? -1 : 1) * (oh * 60 + om);
  return date.getTime() + ((h * 60 + mi - offsetMinutes) * 60 + s) * 1000 + Number(`0.${fraction}`) * 1000;
}

/**
 * A date-time member of a request read as an instant (see parseDateTimeFilter), or the request's 400-02 naming the
 * member at `pointer` (`/query/created_after`, `/body/now`) when it is not a real instant.
 */
export function requestInstant(value: string, pointer: string): number {
  const ms = parseDateTimeFilter(value);
  if (ms !== undefined) return ms;
  const name = pointer.slice(pointer.lastIndexOf("/") + 1);
  throw schemaMismatch([{ type: "format", detail: `${name} is not a valid date-time`, pointer }]);
}

/** The first instant at which a notification created at `ms` is past its retention of one calendar month. */
export function oneMonthAfter(ms: number): number {
  // Retention keeps what was created at or after oneMonthBefore(now); find the earliest `now` that excludes `ms`.
  let low = ms;
  let high = ms + 32 * 24 * 3600 * 1000;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (oneMonthBefore(middle) > ms) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** The instant one calendar month before `ms` (UTC): the retention of notifications. */
export function oneMonthBefore(ms: number): number {
  const date = new Date(ms);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() - 1);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}
