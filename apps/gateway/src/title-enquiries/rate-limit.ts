/**
 * A rate limit as the registry's gateway in front of the title look-ups states it in its `X-RateLimit-*` headers:
 * a bucket of `burstCapacity` tokens, `replenishRate` tokens added each second, `requestedTokens` taken by each
 * request. A limit of N requests a minute is N tokens a second at 60 tokens a request: a burst of N, then one
 * request every 60/N seconds, all in whole numbers.
 */
export interface BucketLimit {
  burstCapacity: number;
  replenishRate: number;
  requestedTokens: number;
}

/** The bucket of a limit of `requests` a minute. */
export const perMinute = (requests: number): BucketLimit => ({ burstCapacity: requests * 60, replenishRate: requests, requestedTokens: 60 });

/** What a rate-limited request was allowed, as the `X-RateLimit-*` headers report it. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket holds a request's tokens again (0 when the request was allowed). */
  retryAfterSeconds: number;
}

/**
 * A token bucket per caller (a user or a business unit, as the limit's scope says). Time is the gateway's clock,
 * so that advancing the sandbox clock refills the buckets; a jump backwards only restarts the count.
 */
export class TokenBuckets {
  readonly limit: BucketLimit;
  readonly #buckets = new Map<string, { tokens: number; atMs: number }>();

  constructor(limit: BucketLimit) {
    this.limit = limit;
  }

  /** Takes a request's tokens from the caller's bucket if it holds them. */
  take(caller: string, nowMs: number): RateLimitDecision {
    const { burstCapacity, replenishRate, requestedTokens } = this.limit;
    const bucket = this.#buckets.get(caller) ?? { tokens: burstCapacity, atMs: nowMs };
    const elapsedMs = Math.max(0, nowMs - bucket.atMs);
    bucket.tokens = Math.min(burstCapacity, bucket.tokens + (elapsedMs / 1000) * replenishRate);
    bucket.atMs = nowMs;
    this.#buckets.set(caller, bucket);
    if (bucket.tokens < requestedTokens) {
      return { allowed: false, remaining: Math.floor(bucket.tokens), retryAfterSeconds: Math.max(1, Math.ceil((requestedTokens - bucket.tokens) / replenishRate)) };
    }
    bucket.tokens -= requestedTokens;
    return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterSeconds: 0 };
  }

  /** Forgets every bucket (a sandbox reset). */
  clear(): void {
    this.#buckets.clear();
  }
}
