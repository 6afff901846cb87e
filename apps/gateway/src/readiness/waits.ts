import { isoMillis } from "../clock.js";
import type { ReadinessObservationRow } from "./store/port.js";

/**
 * What a wait is measured with: the unit's sandbox clock, which runs with real time (software that sleeps Retry-After
 * seconds of its own time waits as long on it) and which a test may advance instead of sleeping. The answer that asked
 * for the wait is timed just before it was sent and the next attempt once it was answered, so network and processing
 * time only lengthen a wait; 50 ms are forgiven for timers that fire a millisecond early and clocks read to the
 * millisecond (design).
 */
export const WAIT_GRACE_MS = 50;

/** An answer that asked the software to wait (its `Retry-After`), and the software's next attempt of the same request. */
export interface Wait {
  answer: ReadinessObservationRow & { retryAfterSeconds: number };
  /** The next request of the same operation, if the software made one. */
  next: ReadinessObservationRow | undefined;
  /** How long after the answer the next attempt came, by the unit's clock. */
  waitedMs: number | undefined;
  /** Whether the next attempt came sooner than the `Retry-After`. */
  early: boolean;
}

/**
 * The waits among the observations of one request (one operation, or the notification list in both versions), in the
 * order made: each answer with status `status` and a `Retry-After`, paired with the next observation of the sequence.
 */
export function waitsAfter(sequence: readonly ReadinessObservationRow[], status: number): Wait[] {
  const waits: Wait[] = [];
  for (const [index, answer] of sequence.entries()) {
    if (answer.status !== status || answer.retryAfterSeconds === null) continue;
    const next = sequence[index + 1];
    const waitedMs = next === undefined ? undefined : next.clockMs - answer.clockMs;
    const early = waitedMs !== undefined && waitedMs + WAIT_GRACE_MS < answer.retryAfterSeconds * 1000;
    waits.push({ answer: { ...answer, retryAfterSeconds: answer.retryAfterSeconds }, next, waitedMs, early });
  }
  return waits;
}

/** A wait in words, for the evidence: what was answered when, and when the next attempt came. */
export function describeWait({ answer, next, waitedMs }: Wait): string {
  const asked = `${answer.operationId} answered ${answer.status} at ${isoMillis(answer.clockMs)} with Retry-After ${answer.retryAfterSeconds}`;
  if (next === undefined || waitedMs === undefined) return `${asked}; no attempt followed`;
  return `${asked}; the next attempt came ${seconds(waitedMs)} later (observation ${next.sequence})`;
}

/** Milliseconds as seconds to the millisecond: "0.004 s". */
export const seconds = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

/** The observations that bear on waits, in the order made, without repeats. */
export function waitEvidence(waits: readonly Wait[]): ReadinessObservationRow[] {
  const rows = new Map<number, ReadinessObservationRow>();
  for (const { answer, next } of waits) {
    rows.set(answer.sequence, answer);
    if (next) rows.set(next.sequence, next);
  }
  return [...rows.values()].sort((a, b) => a.sequence - b.sequence);
}
