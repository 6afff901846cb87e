// The layers under openapi-fetch: the transport (global fetch, or undici's with a client-certificate Agent),
// and a fetch that adds per-attempt timeouts and retries idempotent requests.
import { setTimeout as sleep } from "node:timers/promises";
import { Agent, fetch as undiciFetch } from "undici";
import { parseRetryAfter } from "./errors.js";

/** The fetch the client is built on: one `Request` in, one `Response` out (the shape openapi-fetch calls). */
export type Fetch = (request: Request) => Promise<Response>;

/** The client certificate for mutual TLS, and the CA that signed the server's certificate. PEM or DER. */
export interface TlsOptions {
  readonly cert: string | Buffer;
  readonly key: string | Buffer;
  /** Trust this CA (or these) for the gateway's own certificate instead of the system's. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** Passphrase of an encrypted `key`. */
  readonly passphrase?: string;
}

/** How retries behave. Only idempotent requests are ever retried. */
export interface RetryOptions {
  /** Attempts in all, the first one included. 1 turns retries off. Default 3. */
  readonly attempts?: number;
  /** The first backoff ceiling; each retry doubles it. Default 200 ms. */
  readonly baseDelayMs?: number;
  /** The largest backoff ceiling. Default 5000 ms. */
  readonly maxDelayMs?: number;
  /**
   * The longest `Retry-After` the client waits for by itself. A longer one is handed back to the caller at once
   * (as the 429 or 503 answer) rather than blocking. Default 30000 ms.
   */
  readonly maxRetryAfterMs?: number;
}

/** What the `onRetry` hook hears before each retry: why, and how long the client waits. */
export interface RetryEvent {
  readonly method: string;
  readonly url: string;
  /** The attempt that failed (1 for the first). */
  readonly attempt: number;
  readonly delayMs: number;
  /** The answer's status when the attempt was answered (429, 502, 503, 504). */
  readonly status?: number;
  /** The error when the attempt was not answered (network error, per-attempt timeout). */
  readonly error?: unknown;
}

/** Statuses worth another attempt: rate limited, or a gateway or service that is briefly unavailable. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

const IDEMPOTENT_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Whether a request may be sent twice: the idempotent methods, and a POST that carries an `Idempotency-Key`
 * (the server answers a repeat with the first result).
 */
export function isIdempotent(method: string, headers: Headers): boolean {
  const upper = method.toUpperCase();
  return IDEMPOTENT_METHODS.has(upper) || (upper === "POST" && headers.has("idempotency-key"));
}

/** The defaults of {@link RetryOptions}. */
export const DEFAULT_RETRY: Required<RetryOptions> = {
  attempts: 3,
  baseDelayMs: 200,
  maxDelayMs: 5000,
  maxRetryAfterMs: 30_000,
};

/**
 * Exponential backoff with full jitter: a uniform delay between 0 and min(maxDelayMs, baseDelayMs × 2^(n-1))
 * before retry n. Full jitter spreads the retries of many clients that failed together.
 */
export function backoffDelay(retry: number, options: Required<RetryOptions>, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * How long to wait before retrying an answered attempt, or `undefined` when it must not be retried: its status
 * is not retryable, or its `Retry-After` is longer than `maxRetryAfterMs`. A `Retry-After` replaces the
 * backoff (the server knows better); without one, {@link backoffDelay} decides.
 */
export function retryDelayForResponse(
  status: number,
  retryAfter: string | null,
  retry: number,
  options: Required<RetryOptions>,
  now: number = Date.now(),
  random: () => number = Math.random,
): number | undefined {
  if (!RETRYABLE_STATUSES.has(status)) return undefined;
  const serverDelay = parseRetryAfter(retryAfter, now);
  if (serverDelay === undefined) return backoffDelay(retry, options, random);
  return serverDelay > options.maxRetryAfterMs ? undefined : serverDelay;
}

/** Whether a rejected fetch failed in the network (connection refused or reset, DNS, TLS) or timed out. */
export function isTransientFetchError(error: unknown): boolean {
  if (error instanceof TypeError) return true; // fetch's "fetch failed" and its kin
  return error instanceof Error && error.name === "TimeoutError";
}

/** Options of {@link createRetryingFetch}. */
export interface RetryingFetchOptions {
  /** Aborts an attempt (its answer's body included) after this long. Undefined: no timeout. */
  readonly timeoutMs?: number | undefined;
  readonly retry?: RetryOptions | false | undefined;
  /** Treat every request as idempotent (for operations the spec declares idempotent, like acknowledge). */
  readonly idempotent?: boolean;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * Wraps a fetch with a per-attempt timeout (`AbortSignal.timeout`, combined with the caller's signal) and, for
 * idempotent requests, retries on 429, 502, 503, 504, network errors and timeouts, with exponential backoff and
 * full jitter, honouring `Retry-After`. The last answer (or error) is handed back as is. A request's body is
 * buffered when it may be sent again; the caller's abort stops everything at once.
 */
export function createRetryingFetch(base: Fetch, options: RetryingFetchOptions = {}): Fetch {
  const policy: Required<RetryOptions> =
    options.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const { timeoutMs, onRetry } = options;

  return async (request) => {
    const attempts =
      options.idempotent === true || isIdempotent(request.method, request.headers) ? Math.max(1, policy.attempts) : 1;
    if (attempts === 1 && timeoutMs === undefined) return base(request);
    const body = request.body === null ? undefined : await request.arrayBuffer();

    for (let attempt = 1; ; attempt++) {
      const signal =
        timeoutMs === undefined ? request.signal : AbortSignal.any([request.signal, AbortSignal.timeout(timeoutMs)]);
      const attemptRequest = new Request(request.url, {
        method: request.method,
        headers: request.headers,
        redirect: request.redirect,
        signal,
        ...(body !== undefined && { body }),
      });
      let response: Response;
      try {
        response = await base(attemptRequest);
      } catch (error) {
        if (request.signal.aborted || attempt >= attempts || !isTransientFetchError(error)) throw error;
        const delayMs = backoffDelay(attempt, policy);
        onRetry?.({ method: request.method, url: request.url, attempt, delayMs, error });
        await sleep(delayMs, undefined, { signal: request.signal });
        continue;
      }
      if (attempt >= attempts) return response;
      const delayMs = retryDelayForResponse(response.status, response.headers.get("retry-after"), attempt, policy);
      if (delayMs === undefined) return response;
      await response.body?.cancel().catch(() => undefined);
      onRetry?.({ method: request.method, url: request.url, attempt, delayMs, status: response.status });
      await sleep(delayMs, undefined, { signal: request.signal });
    }
  };
}

/** A transport that presents a client certificate, and the way to release its connections. */
export interface TlsTransport {
  readonly fetch: Fetch;
  close(): Promise<void>;
}

/**
 * A fetch over undici's own `fetch` with an `Agent` that presents the client certificate. Only requests to
 * `origin` (the gateway) use it: an address on another host (a storage service the registry redirects to)
 * gets the default dispatcher, so neither the certificate nor the gateway's private CA applies there.
 */
export function createTlsTransport(tls: TlsOptions, origin: string): TlsTransport {
  const agent = new Agent({
    connect: {
      cert: tls.cert,
      key: tls.key,
      ...(tls.ca !== undefined && { ca: tls.ca as string | Buffer | (string | Buffer)[] }),
      ...(tls.passphrase !== undefined && { passphrase: tls.passphrase }),
    },
  });
  const fetch: Fetch = async (request) => {
    // undici's fetch only accepts its own Request class, so the request goes over as a URL and its parts.
    const response = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      redirect: request.redirect,
      signal: request.signal,
      window: null, // with redirect "error", spares fetch from keeping a copy of a streamed body (undici#4058)
      ...(request.body !== null && { body: request.body, duplex: "half" as const }),
      ...(new URL(request.url).origin === origin && { dispatcher: agent }),
    });
    return response as unknown as Response;
  };
  return { fetch, close: () => agent.close() };
}
