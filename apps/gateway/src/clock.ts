/**
 * The gateway's clocks: real time plus an offset that the sandbox control plane sets. There is one global clock and,
 * for each business unit that set its own (with its unit token), that unit's clock; a unit that never did follows
 * the global one. Upload expiry, retention, priority, business hours and automatic decisions of a unit's records all
 * read the unit's clock, never `Date.now()` directly: so one team moving its time moves nobody else's.
 */
export class Clock {
  #offsetMs = 0;
  /** The offsets of the units that set their own clock. */
  #unitOffsets = new Map<string, number>();

  /**
   * Milliseconds since the epoch by the clock of this business unit (its own, else the global one); by the global
   * clock for null (what belongs to no unit: the error envelope of a request whose unit is not known). Inside the gateway every caller names the
   * unit whose records it dates; the default serves tools that seed or measure under the global clock.
   */
  nowMs(businessUnitId: string | null = null): number {
    return Date.now() + this.offsetOf(businessUnitId);
  }

  /** The offset from real time of a unit's clock (its own, else the global one), or of the global clock for null. */
  offsetOf(businessUnitId: string | null): number {
    return (businessUnitId === null ? undefined : this.#unitOffsets.get(businessUnitId)) ?? this.#offsetMs;
  }

  /** The unit's own offset; undefined while it follows the global clock. */
  ownOffsetOf(businessUnitId: string): number | undefined {
    return this.#unitOffsets.get(businessUnitId);
  }

  /** The business units that set their own clock. */
  unitsWithOwnClock(): string[] {
    return [...this.#unitOffsets.keys()];
  }

  /** Sets a unit's clock (the global one for null) to `targetMs`; it keeps running from there. */
  set(targetMs: number, businessUnitId: string | null): void {
    this.#put(businessUnitId, targetMs - Date.now());
  }

  /** Moves a unit's clock (the global one for null); a unit that followed the global clock starts from its time. */
  advance(ms: number, businessUnitId: string | null): void {
    this.#put(businessUnitId, this.offsetOf(businessUnitId) + ms);
  }

  /** The global clock's offset from real time. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Puts back the offsets kept in the store: the global one, and those of the units that set their own. */
  restore(offsetMs: number, unitOffsets: ReadonlyMap<string, number> = new Map()): void {
    this.#offsetMs = offsetMs;
    this.#unitOffsets = new Map(unitOffsets);
  }

  /** The unit keeps a clock of its own from here, at the time its clock shows now; the global clock no longer moves it. */
  keepOwn(businessUnitId: string): void {
    this.#unitOffsets.set(businessUnitId, this.offsetOf(businessUnitId));
  }

  /** The unit follows the global clock again (a reset of the unit). */
  follow(businessUnitId: string): void {
    this.#unitOffsets.delete(businessUnitId);
  }

  #put(businessUnitId: string | null, offsetMs: number): void {
    if (businessUnitId === null) this.#offsetMs = offsetMs;
    else this.#unitOffsets.set(businessUnitId, offsetMs);
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
