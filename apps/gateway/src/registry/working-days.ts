import bankHolidayData from "./data/bank-holidays-england-and-wales.json" with { type: "json" };
import { addDays, dayOfWeek, londonDate } from "./london-time.js";

/** One bank holiday of the data file. */
export interface BankHoliday {
  date: string;
  name: string;
  /** Set by proclamation for that year only (a jubilee, a coronation, a moved holiday). */
  oneOff?: boolean;
  /** The standing holiday that this one-off holiday moved. */
  replaces?: string;
}

interface BankHolidayFile {
  firstYear: number;
  lastYear: number;
  holidays: BankHoliday[];
}

const file = bankHolidayData as BankHolidayFile;

/** The years the data file covers; outside them the standing rules apply. */
export const BANK_HOLIDAY_COVERAGE = { firstYear: file.firstYear, lastYear: file.lastYear } as const;

/** The bank holidays of England and Wales in the data file. */
export const BANK_HOLIDAYS: readonly BankHoliday[] = file.holidays;

const listed = new Set(file.holidays.map((holiday) => holiday.date));

/** Easter Sunday of a year of the Gregorian calendar (the anonymous Gregorian computus). */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const iso = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;

/** The Monday on or after a date. */
const mondayOnOrAfter = (date: string) => addDays(date, (8 - dayOfWeek(date)) % 7);
/** The last Monday on or before a date. */
const mondayOnOrBefore = (date: string) => addDays(date, -((dayOfWeek(date) + 6) % 7));

/**
 * The standing bank holidays of England and Wales in a year, with substitute days for those falling at a
 * weekend. The data file overrides them for the years it covers (one-off holidays are proclaimed year by year).
 */
export function standingBankHolidays(year: number): string[] {
  const easter = easterSunday(year);
  const christmas = iso(year, 12, 25);
  // Christmas and Boxing Day, moved to the next weekdays when they fall at a weekend.
  const christmasDays: Record<number, [number, number]> = { 5: [25, 28], 6: [27, 28], 0: [26, 27] };
  const [first, second] = christmasDays[dayOfWeek(christmas)] ?? [25, 26];
  const newYear = iso(year, 1, 1);
  return [
    [0, 6].includes(dayOfWeek(newYear)) ? mondayOnOrAfter(newYear) : newYear,
    addDays(easter, -2),
    addDays(easter, 1),
    mondayOnOrAfter(iso(year, 5, 1)),
    mondayOnOrBefore(iso(year, 5, 31)),
    mondayOnOrBefore(iso(year, 8, 31)),
    iso(year, 12, first),
    iso(year, 12, second),
  ];
}

const standingCache = new Map<number, Set<string>>();

/** Whether a date is a bank holiday of England and Wales. */
export function isBankHoliday(date: string): boolean {
  const year = Number(date.slice(0, 4));
  if (year >= file.firstYear && year <= file.lastYear) return listed.has(date);
  let standing = standingCache.get(year);
  if (!standing) {
    standing = new Set(standingBankHolidays(year));
    standingCache.set(year, standing);
  }
  return standing.has(date);
}

/** Whether a date is a working day of the registry: Monday to Friday and not a bank holiday. */
export function isWorkingDay(date: string): boolean {
  const day = dayOfWeek(date);
  return day !== 0 && day !== 6 && !isBankHoliday(date);
}

/** The `count`th working day after `date` (`date` itself is not counted). */
export function addWorkingDays(date: string, count: number): string {
  let current = date;
  for (let counted = 0; counted < count;) {
    current = addDays(current, 1);
    if (isWorkingDay(current)) counted += 1;
  }
  return current;
}

/** Working days of an official search's priority period. */
export const PRIORITY_WORKING_DAYS = 30;

/** The last day of the priority period of a search certified at `certificateMs`: 30 working days after its London date. */
export function priorityExpiryDate(certificateMs: number): string {
  return addWorkingDays(londonDate(certificateMs), PRIORITY_WORKING_DAYS);
}
