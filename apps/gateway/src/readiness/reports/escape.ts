// What both reports share: escaping for XML and HTML text and attributes, and an observed request told in words.
import type { SandboxComponents } from "../../operation-types.js";

/** A readiness run as `getReadinessRun` answers it: what every report is rendered from. */
export type ReadinessRun = SandboxComponents["schemas"]["ReadinessRun"];
/** One check of a run, with its evidence. */
export type ReadinessCheckResult = SandboxComponents["schemas"]["ReadinessCheckResult"];
/** One observed request of the unit's software. */
export type ReadinessObservation = SandboxComponents["schemas"]["ReadinessObservation"];

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * `text` safe as XML or HTML text and as a quoted attribute value. Characters XML 1.0 does not allow at all (control
 * characters but tab and line ends, lone surrogates, U+FFFE and U+FFFF: a query value may carry any of them) become
 * U+FFFD, so that the JUnit report always parses.
 */
export function escapeMarkup(text: string): string {
  return text
    .replace(
      // eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what this replaces
      /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
      "\uFFFD",
    )
    .replace(/[&<>"']/g, (character) => ENTITIES[character] ?? character);
}

/** Seconds from one instant of the unit's clock to another, with milliseconds (`+5.120 s` in the timelines). */
export function secondsBetween(from: string, to: string): number {
  return (Date.parse(to) - Date.parse(from)) / 1000;
}

/** The query of an observed request as it was sent (`?created_after=...`), or the empty string. */
export function queryText(observation: ReadinessObservation): string {
  const pairs = Object.entries(observation.query).map(([name, value]) => `${name}=${value}`);
  return pairs.length === 0 ? "" : `?${pairs.join("&")}`;
}

/** What an observed request carried besides its method, operation and query, in words (empty when nothing). */
export function carried(observation: ReadinessObservation): string[] {
  return [
    observation.credentials_sent ? "credentials sent" : "no credentials",
    ...(observation.acknowledged_count === null ? [] : [`${observation.acknowledged_count} ids acknowledged`]),
    ...(observation.idempotency_key === null ? [] : [`Idempotency-Key ${observation.idempotency_key}`]),
  ];
}

/**
 * One line of a check's timeline: `#3 2026-03-02T10:00:05.410Z (+5.410 s) POST acknowledgeNotificationsV1 answered 200;
 * credentials sent; 100 ids acknowledged`. Not escaped.
 */
export function timelineLine(observation: ReadinessObservation, startedAt: string): string {
  const offset = secondsBetween(startedAt, observation.at).toFixed(3);
  return `#${observation.sequence} ${observation.at} (+${offset} s) ${observation.method} ${observation.operation_id}${queryText(observation)} answered ${observation.status}; ${carried(observation).join("; ")}`;
}
