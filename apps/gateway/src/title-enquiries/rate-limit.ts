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
export const perMinute = (requests: number): BucketLimit => ({
  burstCapacity: requests * 60,
  replenishRate: requests,
  requestedTokens: 60,
});

/** What a rate-limited request was allowed, as the `X-RateLimit-*` headers report it. */
export interface RateLimitDecision {
  allowed: boolean;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket holds a request's tokens again (0 when the request was allowed). */
  retryAfterSeconds: number;
}

/** A bucket's state: the tokens it held at an instant of the gateway's clock. */
interface Bucket {
  tokens: number;
  atMs: number;
}

/** Something that changes one named value atomically (the store's `updateSetting`). */
export type AtomicUpdate = <T, R>(
  key: string,
  change: (current: T | undefined) => { value: T; answer: R },
) => Promise<R>;

/**
 * A token bucket per caller (a user or a business unit, as the limit's scope says), kept in the store so that
 * every gateway instance on it takes from the same bucket. Time is the gateway's clock, so that advancing the
 * sandbox clock refills the buckets; a jump backwards only restarts the count. A sandbox reset empties the store,
 * and with it the buckets.
 */
export class TokenBuckets {
  readonly limit: BucketLimit;
  readonly #name: string;
  readonly #update: AtomicUpdate;

  constructor(name: string, limit: BucketLimit, update: AtomicUpdate) {
    this.#name = name;
    this.limit = limit;
    this.#update = update;
  }

  /** Takes a request's tokens from the caller's bucket if it holds them. */
  take(caller: string, nowMs: number): Promise<RateLimitDecision> {
    const { burstCapacity, replenishRate, requestedTokens } = this.limit;
    return this.#update<Bucket, RateLimitDecision>(`rate_limit.${this.#name}.${caller}`, (stored) => {
      const bucket = stored ?? { tokens: burstCapacity, atMs: nowMs };
      const elapsedMs = Math.max(0, nowMs - bucket.atMs);
      const tokens = Math.min(burstCapacity, bucket.tokens + (elapsedMs / 1000) * replenishRate);
      if (tokens < requestedTokens) {
        return {
          value: { tokens, atMs: nowMs },
          answer: {
            allowed: false,
            remaining: Math.floor(tokens),
            retryAfterSeconds: Math.max(1, Math.ceil((requestedTokens - tokens) / replenishRate)),
          },
        };
      }
      return {
        value: { tokens: tokens - requestedTokens, atMs: nowMs },
        answer: { allowed: true, remaining: Math.floor(tokens - requestedTokens), retryAfterSeconds: 0 },
      };
    });
  }
}
