/**
 * Reads a date-time filter as the spec's QueryDateTime admits it: seconds and fractions optional, `T` or `t`,
 * and a zone that is `Z`/`z`, `±hh:mm`, `±hhmm` or absent (absent means UTC). Answers milliseconds since the epoch
 * (fractions finer than a millisecond kept), or undefined when the value is not a real instant (e.g. 13th month).
 */
export declare function parseDateTimeFilter(value: string): number | undefined;
/** The instant one calendar month before `ms` (UTC): the retention of notifications. */
export declare function oneMonthBefore(ms: number): number;
