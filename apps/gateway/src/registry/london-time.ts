/**
 * London civil time for the title enquiry services: the registry keeps service hours and counts priority in
 * London dates, whatever the zone of the gateway's host. Instants are milliseconds since the epoch; dates are
 * `YYYY-MM-DD` strings.
 */

const LONDON = new Intl.DateTimeFormat("en-GB", {
  timeZone: "Europe/London",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
});

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Service hours of the title enquiry services, in minutes after London midnight: 06:30 up to 23:00. */
export const SERVICE_HOURS = { opensAt: 6 * 60 + 30, closesAt: 23 * 60 } as const;

const clockTime = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;

/** The service hours in words, for what a reader is told: `06:30 to 23:00 London time`. */
export const SERVICE_HOURS_IN_WORDS = `${clockTime(SERVICE_HOURS.opensAt)} to ${clockTime(SERVICE_HOURS.closesAt)} London time`;

interface LondonParts {
  date: string;
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function londonParts(ms: number): LondonParts {
  const parts: Record<string, string> = {};
  for (const part of LONDON.formatToParts(new Date(ms))) parts[part.type] = part.value;
  const [year, month, day] = [Number(parts["year"]), Number(parts["month"]), Number(parts["day"])];
  return {
    date: `${String(parts["year"]).padStart(4, "0")}-${String(parts["month"])}-${String(parts["day"])}`,
    year,
    month,
    day,
    hour: Number(parts["hour"]),
    minute: Number(parts["minute"]),
    second: Number(parts["second"]),
  };
}

/** The London calendar date of an instant. */
export function londonDate(ms: number): string {
  return londonParts(ms).date;
}

/** How far London's clock is ahead of UTC at an instant (0 in winter, one hour in summer). */
function londonOffsetMs(ms: number): number {
  const p = londonParts(ms);
  const wholeSeconds = ms - (((ms % 1000) + 1000) % 1000);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - wholeSeconds;
}

/** The instant at which London's clock shows `hour:minute` on `date` (times in the spring-forward gap do not occur). */
export function londonInstant(date: string, hour: number, minute: number): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute);
  const guess = asUtc - londonOffsetMs(asUtc);
  return asUtc - londonOffsetMs(guess);
}

/** The calendar date `days` after `date` (negative goes back). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Day of the week of a calendar date: 0 Sunday … 6 Saturday. */
export function dayOfWeek(date: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay();
}

/** Whether the title enquiry services are open at an instant (06:30 to 23:00 London time, every day). */
export function withinServiceHours(ms: number): boolean {
  const p = londonParts(ms);
  const minutes = p.hour * 60 + p.minute;
  return minutes >= SERVICE_HOURS.opensAt && minutes < SERVICE_HOURS.closesAt;
}

/** The next instant at which the service hours begin, strictly after `ms` when `ms` is outside them. */
export function nextOpening(ms: number): number {
  const p = londonParts(ms);
  const minutes = p.hour * 60 + p.minute;
  const date = minutes < SERVICE_HOURS.opensAt ? p.date : addDays(p.date, 1);
  return londonInstant(date, Math.floor(SERVICE_HOURS.opensAt / 60), SERVICE_HOURS.opensAt % 60);
}

/** Minutes, for readers of durations. */
export const minutes = (count: number): number => count * MINUTE_MS;

/** A calendar date in words, as the register's entries give it: `14 March 2025`. */
export function dateInWords(date: string): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  const name = new Date(Date.UTC(year, month - 1, 1)).toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${day} ${name} ${year}`;
}
