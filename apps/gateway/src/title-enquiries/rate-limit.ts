/** What a rate-limited request was allowed, as the `X-RateLimit-*` headers report it. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until a token is available again (0 when the request was allowed). */
  retryAfterSeconds: number;
}

/**
 * A token bucket per caller, like the registry's gateway in front of the official copy and proprietor name
 * services: `capacity` tokens at most, `replenishPerSecond` added each second, one taken by each request.
 * Time is the gateway's clock, so that a sandbox clock jump refills the buckets; a jump backwards only
 * restarts the count.
 */
export class TokenBuckets {
  readonly capacity: number;
  readonly replenishPerSecond: number;
  readonly #buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(capacity: number, replenishPerSecond: number) {
    this.capacity = capacity;
    this.replenishPerSecond = replenishPerSecond;
  }

  /** Takes one token from the caller's bucket if it has one. */
  take(caller: string, nowMs: number): RateLimitDecision {
    const bucket = this.#buckets.get(caller) ?? { tokens: this.capacity, atMs: nowMs };
    const elapsedMs = Math.max(0, nowMs - bucket.atMs);
    bucket.tokens = Math.min(this.capacity, bucket.tokens + (elapsedMs / 1000) * this.replenishPerSecond);
    bucket.atMs = nowMs;
    this.#buckets.set(caller, bucket);
    if (bucket.tokens < 1) {
      return { allowed: false, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / this.replenishPerSecond)) };
    }
    bucket.tokens -= 1;
    return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
  }
}
