import { availableParallelism } from "node:os";

/** The queue of password checks is full: the caller answers 429 rather than wait. */
export class ChecksBusy extends Error {
  constructor() {
    super("too many password checks are waiting");
  }
}

/** How many password checks run at once and how many may wait, per lane. */
export interface PasswordCheckLimits {
  concurrency: number;
  waiting: number;
}

/**
 * Half the cores (at least one) check passwords at once, so that scrypt never takes every core from the event loop
 * that answers the clients already verified; 16 may wait in each lane (about a second of checks on one core).
 */
export const DEFAULT_CHECK_LIMITS: PasswordCheckLimits = {
  concurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
  waiting: 16,
};

/**
 * Password checks (scrypt, tens of milliseconds of a core each) under bounded concurrency. Checks wait in two lanes:
 * attempts from an address that logged in as the user before go first, so that a storm of wrong passwords from
 * elsewhere cannot starve an integrator's own logins. A full lane refuses at once (`ChecksBusy`).
 */
export class PasswordChecks {
  readonly #limits: PasswordCheckLimits;
  readonly #lanes: { first: (() => void)[]; rest: (() => void)[] } = { first: [], rest: [] };
  #running = 0;
  /** Checks started since the gateway started (the scrypt runs of logins). */
  started = 0;

  constructor(limits: PasswordCheckLimits = DEFAULT_CHECK_LIMITS) {
    this.#limits = limits;
  }

  /** Checks waiting for their turn now. */
  get waiting(): number {
    return this.#lanes.first.length + this.#lanes.rest.length;
  }

  /** Runs `check` when a slot is free; `first` puts it in the first lane. Throws ChecksBusy when its lane is full. */
  async run<T>(check: () => Promise<T>, first: boolean): Promise<T> {
    if (this.#running < this.#limits.concurrency) this.#running += 1;
    else {
      const lane = first ? this.#lanes.first : this.#lanes.rest;
      if (lane.length >= this.#limits.waiting) throw new ChecksBusy();
      // The finishing check hands its slot over, so #running stays counted.
      await new Promise<void>((resolve) => lane.push(resolve));
    }
    try {
      this.started += 1;
      return await check();
    } finally {
      const next = this.#lanes.first.shift() ?? this.#lanes.rest.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
