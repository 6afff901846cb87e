/**
 * The gateway's clock: real time plus an offset that the sandbox control plane sets. Upload expiry, retention,
 * priority and business hours all read it, never `Date.now()` directly.
 */
export class Clock {
    #offsetMs = 0;
    /** Milliseconds since the epoch, by the gateway's clock. */
    nowMs() {
        return Date.now() + this.#offsetMs;
    }
    now() {
        return new Date(this.nowMs());
    }
    /** Sets the clock to `target`; it keeps running from there. */
    set(targetMs) {
        this.#offsetMs = targetMs - Date.now();
    }
    advance(ms) {
        this.#offsetMs += ms;
    }
    get offsetMs() {
        return this.#offsetMs;
    }
    restore(offsetMs) {
        this.#offsetMs = offsetMs;
    }
}
/** The one shape the gateway emits: UTC, milliseconds, trailing Z. */
export function isoMillis(ms) {
    return new Date(ms).toISOString();
}
/** The zone-less shape of a version 1 priority: UTC, milliseconds, no zone. */
export function isoMillisNoZone(ms) {
    return new Date(ms).toISOString().slice(0, -1);
}
//# sourceMappingURL=clock.js.map