// The layers under openapi-fetch: the transport (global fetch, or undici's with a client-certificate Agent),
// and a fetch that adds per-attempt timeouts and retries idempotent requests.
import { setTimeout as sleep } from "node:timers/promises";
import type { Agent, fetch as undiciFetch } from "undici";
import { NetworkError, parseRetryAfter, TimeoutError } from "./errors.js";

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
  /** The error when the attempt was not answered, or its answer was cut off (network error, per-attempt timeout). */
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
export function backoffDelay(
  retry: number,
  options: Required<RetryOptions>,
  random: () => number = Math.random,
): number {
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
  if (error instanceof TypeError) return true; // fetch's "fetch failed", a body's "terminated", and their kin
  return error instanceof Error && error.name === "TimeoutError";
}

/** Where a failure happened, for {@link networkErrorOf}. */
export interface FailedRequest {
  readonly method: string;
  readonly url: string;
  readonly attempts: number;
  readonly timeoutMs?: number | undefined;
}

/**
 * The typed error for a failed fetch or body read: a {@link TimeoutError} for a per-attempt timeout, a
 * {@link NetworkError} for any other network failure (`cause` is fetch's own error). Anything else, the
 * caller's abort included, is answered as it is.
 */
export function networkErrorOf(error: unknown, request: FailedRequest): unknown {
  if (error instanceof NetworkError || !isTransientFetchError(error)) return error;
  const init = { method: request.method, url: request.url, attempts: request.attempts, cause: error };
  return (error as Error).name === "TimeoutError"
    ? new TimeoutError({ ...init, timeoutMs: request.timeoutMs })
    : new NetworkError(init);
}

/** Options of {@link createRetryingFetch}. */
export interface RetryingFetchOptions {
  /** Aborts an attempt (its answer's body included) after this long. Undefined: no timeout. */
  readonly timeoutMs?: number | undefined;
  readonly retry?: RetryOptions | false | undefined;
  /** Treat every request as idempotent (for operations the spec declares idempotent, like acknowledge). */
  readonly idempotent?: boolean;
  /**
   * Read the answer's body within the attempt and hand over a `Response` built from the bytes: a body cut off
   * is then retried like a network error (idempotent requests) or thrown as a {@link NetworkError}, and the
   * timeout ends with the body. For API answers, which are small; never for documents. Default false.
   */
  readonly bufferBody?: boolean;
  readonly onRetry?: ((event: RetryEvent) => void) | undefined;
}

/**
 * A fetch that takes the attempt's abort signal beside the request, as fetch's own `init.signal`, so that no copy
 * of the request is made to carry it. Internal: the client's own transports are of this kind.
 */
export type SignalFetch = (request: Request, signal?: AbortSignal) => Promise<Response>;

/** A {@link SignalFetch} over a plain one: the signal travels in a copy of the request. */
export function withSignal(base: Fetch): SignalFetch {
  return (request, signal) => base(signal === undefined ? request : new Request(request, { signal }));
}

/**
 * One attempt's signal: aborted after `timeoutMs`, or by the caller through {@link AttemptSignal.abort}. An
 * AbortController and a timer: cheaper than `AbortSignal.any` with `AbortSignal.timeout`, and the timer is
 * cleared as soon as the attempt is over.
 */
class AttemptSignal {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout>;

  constructor(timeoutMs: number) {
    this.#timer = setTimeout(
      () => this.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
      timeoutMs,
    );
    this.#timer.unref();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    clearTimeout(this.#timer);
    this.#controller.abort(reason);
  }

  /** The attempt is over, or its body is in memory: no timeout any more. */
  release(): void {
    clearTimeout(this.#timer);
  }
}

/** Statuses whose answer has no body (a `Response` with one cannot be built). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

const utf8 = new TextDecoder();

/**
 * `Response` as the base of {@link BufferedResponse}: Node's types declare the body methods as properties, which a
 * subclass cannot override with methods, so the subclass sees only what it builds on.
 */
type ResponseBase = new (body: null, init: ResponseInit) => { readonly status: number; readonly statusText: string };

/** What a {@link BufferedResponse} keeps of the answer it was read from. */
interface AnswerHead {
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
}

/**
 * An answer whose body is already in memory: to openapi-fetch, middleware and callers a `Response` like any
 * other (`headers` and `url` included). `text()`, `json()`, `arrayBuffer()` and `bytes()` decode the bytes
 * directly, because a `Response` built over bytes first wraps them in a ReadableStream, which costs more than all
 * the rest of an API call; `body`, `blob()` and `formData()` are served by such a `Response`, built when first
 * asked for.
 */
class BufferedResponse extends (Response as unknown as ResponseBase) {
  readonly #bytes: Uint8Array<ArrayBuffer>;
  /** The answer as received (its body read): headers, url and redirected are its own. */
  readonly #answer: AnswerHead;
  /** The same answer as a plain `Response`, once the body is wanted as a stream, a Blob or form data. */
  #plain: Response | undefined;
  #read = false;

  constructor(bytes: Uint8Array<ArrayBuffer>, answer: AnswerHead) {
    super(null, { status: answer.status, statusText: answer.statusText });
    this.#bytes = bytes;
    this.#answer = answer;
  }

  // The answer's own headers (read-only, as a fetched answer's are), not a copy.
  get headers(): Headers {
    return this.#answer.headers;
  }

  get url(): string {
    return this.#answer.url;
  }

  get redirected(): boolean {
    return this.#answer.redirected;
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#asPlain().body;
  }

  get bodyUsed(): boolean {
    return this.#read || (this.#plain?.bodyUsed ?? false);
  }

  clone(): Response {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    return new BufferedResponse(this.#bytes, this).asResponse();
  }

  async text(): Promise<string> {
    return this.#plain === undefined ? utf8.decode(this.#take()) : this.#plain.text();
  }

  async json(): Promise<unknown> {
    return this.#plain === undefined ? JSON.parse(utf8.decode(this.#take())) : this.#plain.json();
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#plain === undefined ? this.#take().slice().buffer : this.#plain.arrayBuffer();
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    return this.#plain === undefined ? this.#take().slice() : new Uint8Array(await this.#plain.arrayBuffer());
  }

  async blob(): Promise<Blob> {
    return this.#asPlain().blob();
  }

  async formData(): Promise<FormData> {
    return this.#asPlain().formData();
  }

  /** This answer as the `Response` it is at run time. */
  asResponse(): Response {
    return this as unknown as Response;
  }

  /** The bytes, once: a body can be read only once, as with any Response. */
  #take(): Uint8Array<ArrayBuffer> {
    if (this.#read) throw new TypeError("Body is unusable: Body has already been read");
    this.#read = true;
    return this.#bytes;
  }

  #asPlain(): Response {
    if (this.#plain === undefined) {
      const { status, statusText, headers } = this;
      this.#plain = new Response(NULL_BODY_STATUSES.has(status) ? null : this.#bytes, { status, statusText, headers });
      if (this.#read) void this.#plain.body?.cancel(); // read already (as text, JSON or bytes): used, as it would be
    }
    return this.#plain;
  }
}

/**
 * Wraps a fetch with a per-attempt timeout (combined with the caller's signal) and, for idempotent requests,
 * retries on 429, 502, 503, 504, network errors and timeouts, with exponential backoff and full jitter,
 * honouring `Retry-After`. The last answer is handed back as is; a network failure that outlasts the retries
 * (or of a request that is not retried) is thrown as a {@link NetworkError} ({@link TimeoutError} for a
 * timeout). A request's body is buffered when it may be sent again; the caller's abort stops everything at once
 * and is thrown as it is.
 */
export function createRetryingFetch(base: Fetch, options: RetryingFetchOptions = {}): Fetch {
  return createSignalRetryingFetch(withSignal(base), options);
}

/** {@link createRetryingFetch} over a fetch that takes the attempt's signal beside the request. Internal. */
export function createSignalRetryingFetch(send: SignalFetch, options: RetryingFetchOptions = {}): Fetch {
  const policy: Required<RetryOptions> =
    options.retry === false ? { ...DEFAULT_RETRY, attempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  const { timeoutMs, onRetry } = options;
  const bufferBody = options.bufferBody === true;

  return async (request) => {
    const method = request.method;
    const attempts =
      options.idempotent === true || isIdempotent(method, request.headers) ? Math.max(1, policy.attempts) : 1;
    // A body that may be sent again is read once; a request without one (or sent once) goes as it is.
    const body = attempts > 1 && request.body !== null ? await request.arrayBuffer() : undefined;
    // The request's signal (its own, following the caller's) aborts the attempt under way, whichever it is. One
    // listener for the request, never removed: it lives no longer than the request.
    let deadline: AttemptSignal | undefined;
    if (timeoutMs !== undefined) {
      request.signal.addEventListener("abort", () => deadline?.abort(request.signal.reason), { once: true });
    }

    for (let attempt = 1; ; attempt++) {
      if (request.signal.aborted) throw request.signal.reason;
      deadline = timeoutMs === undefined ? undefined : new AttemptSignal(timeoutMs);
      let keepDeadline = false;
      let delayMs: number | undefined;
      let status: number | undefined;
      let failure: unknown;
      try {
        const response =
          body === undefined
            ? await send(request, deadline?.signal)
            : await send(new Request(request, { body, ...(deadline !== undefined && { signal: deadline.signal }) }));
        status = response.status;
        delayMs =
          attempt < attempts && RETRYABLE_STATUSES.has(status)
            ? retryDelayForResponse(status, response.headers.get("retry-after"), attempt, policy)
            : undefined;
        if (delayMs === undefined) {
          // Read the body within the attempt (a body cut off fails it), and hand over the bytes in memory.
          if (bufferBody) {
            return new BufferedResponse(new Uint8Array(await response.arrayBuffer()), response).asResponse();
          }
          keepDeadline = true; // the timeout goes on to cover the body, read by the caller
          return response;
        }
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        if (request.signal.aborted) throw error; // the caller's abort, as it is
        if (attempt >= attempts || !isTransientFetchError(error)) {
          throw networkErrorOf(error, { method, url: request.url, attempts: attempt, timeoutMs });
        }
        status = undefined;
        failure = error;
        delayMs = backoffDelay(attempt, policy);
      } finally {
        if (!keepDeadline) deadline?.release();
      }
      onRetry?.({
        method,
        url: request.url,
        attempt,
        delayMs,
        ...(status !== undefined ? { status } : { error: failure }),
      });
      await sleep(delayMs, undefined, { signal: request.signal });
    }
  };
}

/** A transport that presents a client certificate, and the way to release its connections. */
export interface TlsTransport {
  readonly fetch: SignalFetch;
  close(): Promise<void>;
}

/**
 * A fetch over undici's own `fetch` with an `Agent` that presents the client certificate. Only requests to
 * `origin` (the gateway) use it: an address on another host (a storage service the registry redirects to)
 * gets the default dispatcher, so neither the certificate nor the gateway's private CA applies there.
 */
export function createTlsTransport(tls: TlsOptions, origin: string): TlsTransport {
  // undici is a hundred modules: it loads with the first request, so a program that never presents a certificate
  // (a command line answering --help, or talking to a plain-HTTP sandbox) starts without it.
  let loading: Promise<{ agent: Agent; undiciFetch: typeof undiciFetch }> | undefined;
  const load = () =>
    (loading ??= import("undici").then(({ Agent, fetch }) => ({
      agent: new Agent({
        connect: {
          cert: tls.cert,
          key: tls.key,
          ...(tls.ca !== undefined && { ca: tls.ca as string | Buffer | (string | Buffer)[] }),
          ...(tls.passphrase !== undefined && { passphrase: tls.passphrase }),
        },
      }),
      undiciFetch: fetch,
    })));
  const fetch: SignalFetch = async (request, signal) => {
    const { agent, undiciFetch } = await load();
    // undici's fetch only accepts its own Request class, so the request goes over as a URL and its parts.
    const response = await undiciFetch(request.url, {
      method: request.method,
      headers: [...request.headers],
      redirect: request.redirect,
      signal: signal ?? request.signal,
      window: null, // with redirect "error", spares fetch from keeping a copy of a streamed body (undici#4058)
      ...(request.body !== null && { body: request.body, duplex: "half" as const }),
      ...(new URL(request.url).origin === origin && { dispatcher: agent }),
    });
    return response;
  };
  return { fetch, close: async () => (loading === undefined ? undefined : (await loading).agent.close()) };
}
