/**
 * The gateway's clock: real time plus an offset that the sandbox control plane sets. Upload expiry, retention,
 * priority and business hours all read it, never `Date.now()` directly.
 */
export declare class Clock {
    #private;
    /** Milliseconds since the epoch, by the gateway's clock. */
    nowMs(): number;
    now(): Date;
    /** Sets the clock to `target`; it keeps running from there. */
    set(targetMs: number): void;
    advance(ms: number): void;
    get offsetMs(): number;
    restore(offsetMs: number): void;
}
/** The one shape the gateway emits: UTC, milliseconds, trailing Z. */
export declare function isoMillis(ms: number): string;
/** The zone-less shape of a version 1 priority: UTC, milliseconds, no zone. */
export declare function isoMillisNoZone(ms: number): string;
