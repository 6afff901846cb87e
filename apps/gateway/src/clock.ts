/**
 * The gateway's clock: real time plus an offset that the sandbox control plane sets. Upload expiry, retention,
 * priority and business hours all read it, never `Date.now()` directly.
 */
export class Clock {
  #offsetMs = 0;

  /** Milliseconds since the epoch, by the gateway's clock. */
  nowMs(): number {
    return Date.now() + this.#offsetMs;
  }

  now(): Date {
    return new Date(this.nowMs());
  }

  /** Sets the clock to `target`; it keeps running from there. */
  set(targetMs: number): void {
    this.#offsetMs = targetMs - Date.now();
  }

  advance(ms: number): void {
    this.#offsetMs += ms;
  }

  get offsetMs(): number {
    return this.#offsetMs;
  }

  restore(offsetMs: number): void {
    this.#offsetMs = offsetMs;
  }
}

/** The one shape the gateway emits: UTC, milliseconds, trailing Z. */
export function isoMillis(ms: number): string {
  return new Date(ms).toISOString();
}

/** The zone-less shape of a version 1 priority: UTC, milliseconds, no zone. */
export function isoMillisNoZone(ms: number): string {
  return new Date(ms).toISOString().slice(0, -1);
}
