import { failedLoginLimit } from "@lrg/spec";

/** A failed-login budget: a bucket of `failures` failures, refilled at `refillPerMinute` failures a minute. */
export interface FailureBudget {
  failures: number;
  refillPerMinute: number;
}

/** Most keys one set of buckets (or of known addresses) holds; past it the least recently touched go first. */
const KEY_LIMIT = 10_000;
/** How long an address that logged in as a user stays known for that user. */
const KNOWN_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * Failure buckets by key (a client address or a username), in this instance's memory: the check runs before any
 * password work, so it may not cost a round trip to the store. A key whose bucket refilled is dropped when room
 * is needed.
 */
class FailureBuckets {
  readonly #budget: FailureBudget;
  readonly #buckets = new Map<string, { level: number; atMs: number }>();

  constructor(budget: FailureBudget) {
    this.#budget = budget;
  }

  /** Failures left to `key` at `nowMs`. A clock moved backwards refills nothing and restarts the count from there. */
  level(key: string, nowMs: number): number {
    const bucket = this.#buckets.get(key);
    if (!bucket) return this.#budget.failures;
    if (nowMs < bucket.atMs) bucket.atMs = nowMs;
    const refilled = ((nowMs - bucket.atMs) / 60_000) * this.#budget.refillPerMinute;
    return Math.min(this.#budget.failures, bucket.level + refilled);
  }

  /** Whole seconds until `key` has a failure left again; 0 while it has one. */
  waitSeconds(key: string, nowMs: number): number {
    const level = this.level(key, nowMs);
    return level >= 1 ? 0 : Math.max(1, Math.ceil(((1 - level) * 60) / this.#budget.refillPerMinute));
  }

  /** Adds `change` failures left (−1 takes one, +1 gives one back), within the bucket's bounds. */
  change(key: string, nowMs: number, change: number): void {
    const level = Math.max(0, Math.min(this.#budget.failures, this.level(key, nowMs) + change));
    // Re-inserted, so that the map's order is least recently touched first.
    this.#buckets.delete(key);
    if (level >= this.#budget.failures) return;
    if (this.#buckets.size >= KEY_LIMIT) this.#makeRoom(nowMs);
    this.#buckets.set(key, { level, atMs: nowMs });
  }

  #makeRoom(nowMs: number): void {
    for (const key of this.#buckets.keys())
      if (this.level(key, nowMs) >= this.#budget.failures) this.#buckets.delete(key);
    // Still full: the least recently touched tenth goes (an attacker's own address keeps its bucket: it is touched).
    for (const key of [...this.#buckets.keys()].slice(0, Math.max(0, this.#buckets.size - KEY_LIMIT * 0.9)))
      this.#buckets.delete(key);
  }

  clear(): void {
    this.#buckets.clear();
  }
}

/** Whether a login attempt may have its password checked, and why not. */
export type Admission =
  | {
      admitted: true;
      /** The address logged in as this user before: its check goes ahead of others. */
      known: boolean;
      /**
       * Reports the check's outcome: a correct password gives back the failure it was lent and makes the address
       * known for the user; `undefined` (no check ran) gives it back only.
       */
      settle(correct: boolean | undefined): void;
    }
  | { admitted: false; reason: "address" | "username"; retryAfterSeconds: number };

/**
 * The failed-login budgets of the spec (`x-lrg-failed-login-limit` on the `basicAuth` scheme): one bucket per client
 * address and one per username. An attempt is admitted to a password check only when both have a failure left,
 * except that an address that logged in as the user within a day is admitted while the username's bucket is empty,
 * so that failures from elsewhere cannot lock an integrator out of their own account. An admitted attempt takes its
 * failure up front (concurrent attempts cannot overrun the budget) and gets it back when the password was right.
 */
export class LoginThrottle {
  readonly #now: () => number;
  readonly #addresses = new FailureBuckets(failedLoginLimit.perAddress);
  readonly #usernames = new FailureBuckets(failedLoginLimit.perUsername);
  readonly #known = new Map<string, number>();

  /** `now`: the gateway's clock, so that advancing the sandbox clock refills the budgets as it does rate limits. */
  constructor(now: () => number) {
    this.#now = now;
  }

  admit(username: string, address: string): Admission {
    const nowMs = this.#now();
    const addressWait = this.#addresses.waitSeconds(address, nowMs);
    if (addressWait > 0) return { admitted: false, reason: "address", retryAfterSeconds: addressWait };
    const pair = `${address}\n${username}`;
    const known = (this.#known.get(pair) ?? 0) > nowMs;
    const usernameWait = this.#usernames.waitSeconds(username, nowMs);
    if (usernameWait > 0 && !known) return { admitted: false, reason: "username", retryAfterSeconds: usernameWait };
    const lentByUsername = usernameWait === 0;
    this.#addresses.change(address, nowMs, -1);
    if (lentByUsername) this.#usernames.change(username, nowMs, -1);
    return {
      admitted: true,
      known,
      settle: (correct) => {
        if (correct === false) return;
        const settledMs = this.#now();
        this.#addresses.change(address, settledMs, +1);
        if (lentByUsername) this.#usernames.change(username, settledMs, +1);
        if (correct === undefined) return;
        this.#known.delete(pair);
        if (this.#known.size >= KEY_LIMIT) this.#known.delete(this.#known.keys().next().value as string);
        this.#known.set(pair, settledMs + KNOWN_FOR_MS);
      },
    };
  }

  /** Forgets every budget and known address (a sandbox reset). */
  clear(): void {
    this.#addresses.clear();
    this.#usernames.clear();
    this.#known.clear();
  }
}

/**
 * The budget key of a client address: an IPv4 address as itself (also when an IPv6 listener reports it mapped,
 * `::ffff:a.b.c.d`), an IPv6 address as itself too (a client holding a whole /64 could rotate through it; see
 * the spec's description of the budget).
 */
export function addressKey(address: string | undefined): string {
  const text = address ?? "";
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(text) ? text.slice(7) : text;
}
