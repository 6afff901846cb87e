/**
 * Reads a date-time filter as the spec's QueryDateTime admits it: seconds and fractions optional, `T` or `t`,
 * and a zone that is `Z`/`z`, `±hh:mm`, `±hhmm` or absent (absent means UTC). Answers milliseconds since the epoch
 * (fractions finer than a millisecond kept), or undefined when the value is not a real instant (e.g. 13th month).
 */
export function parseDateTimeFilter(value: string): number | undefined {
  const match =
    /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?([Zz]|[+-]\d{2}:?\d{2})?$/.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = "0", fraction = "", zone = "Z"] = match;
  const fields = [year, month, day, hour, minute, second].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const [y, mo, d, h, mi, s] = fields;
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s);
  if (new Date(utc).getUTCDate() !== d) return undefined; // 31 April and the like
  const offsetMinutes = /^[Zz]$/.test(zone)
    ? 0
    : (zone.startsWith("-") ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
  return utc + Number(`0.${fraction || "0"}`) * 1000 - offsetMinutes * 60_000;
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
