// What both reports share: escaping for XML and HTML text and attributes, and an observed request told in words.
import type { SandboxComponents } from "../../operation-types.js";

/** A readiness run as `getReadinessRun` answers it: what every report is rendered from. */
export type ReadinessRun = SandboxComponents["schemas"]["ReadinessRun"];
/** One check of a run, with its evidence. */
export type ReadinessCheckResult = SandboxComponents["schemas"]["ReadinessCheckResult"];
/** One observed request of the unit's software. */
export type ReadinessObservation = SandboxComponents["schemas"]["ReadinessObservation"];

/** `text` safe as XML or HTML text and as a quoted attribute value (shared with every report of the toolkit). */
export { escapeMarkup } from "@lrg/spec/markup";

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
