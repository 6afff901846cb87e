import type { components } from "@lrg/spec/types/openapi";

/** An error answered as `application/problem+json`, as the spec's `Problem` schema describes it. */
export type Problem = components["schemas"]["Problem"];
/** The registry's envelope of the official search of whole (and the Poll Request Service): `{ errors: [{ code, detail, status, trace_id, title }] }`. */
export type RegistryErrors = components["schemas"]["RegistryErrors"];
/** The registry's envelope of registered proprietor names and official copy availability: `{ errors: [{ error_code, error_message, http_status, timestamp, trace_id }] }`. */
export type RegistryErrorCodes = components["schemas"]["RegistryErrorCodes"];
/** The registry's envelope of Attach a document and Attach a message: `{ errors: [{ type, detail, pointer }] }`. */
export type AttachErrors = components["schemas"]["AttachErrors"];
/** An item of any of the registry's `{ errors }` envelopes. */
export type RegistryErrorItem =
  RegistryErrors["errors"][number] | RegistryErrorCodes["errors"][number] | AttachErrors["errors"][number];

/** One failing member or one registry error, the same whichever envelope the server used. */
export interface ErrorItem {
  /**
   * The registry's error code, for the `{ errors }` envelopes: `code` (`BG40011`, `bg.title.closed`), `error_code`
   * (`BG40002`), or the attach envelope's `type` (`OC036`).
   */
  readonly code?: string;
  /** The JSON Schema keyword that failed (`pattern`, `required`) in problem+json; the attach envelope's `type`. */
  readonly type?: string;
  /** JSON pointer to the failing member (`/body/data/file_sha256` in problem+json, `/data/...` in the envelopes). */
  readonly pointer?: string | null;
  readonly title?: string;
  readonly detail?: string;
  readonly status?: number;
  readonly traceId?: string;
}

/** Base class of every error the client throws itself. */
export class GatewayError extends Error {
  override name = "GatewayError";
}

/** What a {@link NetworkError} is built from: the request that failed, how often it was tried, and why. */
export interface NetworkErrorInit {
  readonly method: string;
  readonly url: string;
  /** Attempts made, the last one included. */
  readonly attempts: number;
  /** fetch's own error (`TypeError: fetch failed` with the socket error as its cause, `TypeError: terminated`...). */
  readonly cause: unknown;
}

/** The address without its query, which may carry a signature that has no place in a log. */
function withoutQuery(url: string): string {
  const query = url.search(/[?#]/);
  return query === -1 ? url : url.slice(0, query);
}

/** The innermost reason of a fetch error: `ECONNRESET`, `other side closed`... */
function rootCause(error: unknown): string | undefined {
  let reason: unknown = error;
  for (let depth = 0; depth < 5 && reason instanceof Error && reason.cause !== undefined; depth++)
    reason = reason.cause;
  if (reason === error || !(reason instanceof Error)) return undefined;
  const code = (reason as { code?: unknown }).code;
  return typeof code === "string" ? code : reason.message;
}

/**
 * The request got no complete answer: the connection could not be made or was dropped, or the answer was cut off
 * in the middle of its body. Thrown once the retries of an idempotent request are spent, and at once for a request
 * that is not retried, such as a POST without an `Idempotency-Key` (which may then have taken effect: the answer,
 * not necessarily the request, was lost). fetch's own error is the `cause`.
 */
export class NetworkError extends GatewayError {
  override name = "NetworkError";
  readonly method: string;
  /** The address requested. */
  readonly url: string;
  /** Attempts made, the last one included. */
  readonly attempts: number;

  constructor(init: NetworkErrorInit, message?: string) {
    const cause = init.cause instanceof Error ? init.cause.message : String(init.cause);
    const root = rootCause(init.cause);
    const tries = init.attempts > 1 ? ` after ${init.attempts} attempts` : "";
    super(
      message ??
        `${init.method} ${withoutQuery(init.url)} failed${tries}: ${cause}${root === undefined ? "" : ` (${root})`}`,
      { cause: init.cause },
    );
    this.method = init.method;
    this.url = init.url;
    this.attempts = init.attempts;
  }
}

/** An attempt was not answered, its body included, within `timeoutMs` (per attempt); the last one, when retried. */
export class TimeoutError extends NetworkError {
  override name = "TimeoutError";
  readonly timeoutMs: number | undefined;

  constructor(init: NetworkErrorInit & { readonly timeoutMs?: number | undefined }) {
    const tries = init.attempts > 1 ? ` (${init.attempts} attempts)` : "";
    const within = init.timeoutMs === undefined ? "in time" : `within ${init.timeoutMs} ms`;
    super(init, `${init.method} ${withoutQuery(init.url)} was not answered ${within}${tries}`);
    this.timeoutMs = init.timeoutMs;
  }
}

/** What an {@link HttpError} is built from: the answer's status, headers and (parsed) body. */
export interface HttpErrorInit {
  readonly status: number;
  readonly headers: Headers;
  readonly url?: string;
  readonly body: unknown;
}

/**
 * An answer with an error status whose body is neither problem+json nor a registry `{ errors }` envelope
 * (an HTML page from a proxy, an empty body). Every other error class below extends it.
 */
export class HttpError extends GatewayError {
  override name = "HttpError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The answer's headers (`X-Request-Id` is the one to quote in a support request). */
  readonly headers: Headers;
  /** The address that answered. */
  readonly url: string | undefined;
  /** The body as received: parsed JSON when it was JSON, else text (empty when there was none). */
  readonly body: unknown;
  /** The stable problem `code` (`400-02`), or the first registry error's code (`BG40011`). */
  readonly code: string | undefined;
  readonly title: string | undefined;
  readonly detail: string | undefined;
  /** The problem's validation `errors`, or the items of a registry `{ errors }` envelope. */
  readonly errors: readonly ErrorItem[];

  constructor(init: HttpErrorInit, parsed: ParsedErrorBody = {}) {
    super(describe(init.status, parsed));
    this.status = init.status;
    this.headers = init.headers;
    this.url = init.url;
    this.body = init.body;
    this.code = parsed.code;
    this.title = parsed.title;
    this.detail = parsed.detail;
    this.errors = parsed.errors ?? [];
  }

  /** The `X-Request-Id` of the answer, when the server gave one. */
  get requestId(): string | undefined {
    return this.headers.get("x-request-id") ?? undefined;
  }
}

/**
 * An error answer in one of the envelopes the spec documents: problem+json (`problem` set) or the registry's
 * `{ errors: [...] }` (`registryErrors` set). `code`, `title`, `detail` and `errors` read the same for both.
 */
export class ProblemError extends HttpError {
  override name = "ProblemError";
  /** The problem+json body, when the answer was one. */
  readonly problem: Problem | undefined;
  /** The items of the registry's `{ errors }` envelope (any of the three), when the answer was one. */
  readonly registryErrors: readonly RegistryErrorItem[] | undefined;
  /** For a 422 on a title enquiry, the registry's business rule (`bg.title.closed`). */
  readonly rule: string | undefined;

  constructor(init: HttpErrorInit, parsed: ParsedErrorBody = {}) {
    super(init, parsed);
    this.problem = parsed.problem;
    this.registryErrors = parsed.registryErrors;
    this.rule = parsed.problem?.rule ?? (init.status === 422 ? parsed.code : undefined);
  }
}

/** 401: credentials missing, malformed or wrong. Retrying with the same credentials cannot succeed. */
export class AuthenticationError extends ProblemError {
  override name = "AuthenticationError";
}

/** 429: the caller's rate limit is exhausted. Wait `retryAfter` seconds (when the server said) and try again. */
export class RateLimitError extends ProblemError {
  override name = "RateLimitError";
  /** Seconds to wait, from `Retry-After` (a date is converted); undefined when the server gave none. */
  readonly retryAfter: number | undefined;

  constructor(init: HttpErrorInit, parsed: ParsedErrorBody = {}, now: number = Date.now()) {
    super(init, parsed);
    const ms = parseRetryAfter(init.headers.get("retry-after"), now);
    this.retryAfter = ms === undefined ? undefined : Math.ceil(ms / 1000);
  }
}

/**
 * 403 from the upload address: the signature does not verify (the length, checksum or bytes differ from what
 * the address was signed for, `403-01`) or the address expired (`403-02`). Get a new address and upload again.
 */
export class SignatureError extends ProblemError {
  override name = "SignatureError";
}

/** A document outside 1..41943040 bytes, refused before any request. */
export class DocumentSizeError extends RangeError {
  override name = "DocumentSizeError";
  constructor(
    /** The size found (for a stream, the bytes read before it was refused). */
    readonly size: number,
    readonly limit: number,
  ) {
    super(
      size === 0
        ? "a document cannot be empty"
        : `a document can be at most ${limit} bytes; this one is ${size > limit ? `more than ${limit}` : size}`,
    );
  }
}

/** The parts of an error body that the error classes expose. */
export interface ParsedErrorBody {
  code?: string;
  title?: string;
  detail?: string;
  errors?: ErrorItem[];
  problem?: Problem;
  registryErrors?: readonly RegistryErrorItem[];
}

function describe(status: number, parsed: ParsedErrorBody): string {
  const what = [parsed.code, parsed.detail ?? parsed.title].filter((part) => part !== undefined).join(" ");
  return what === "" ? `HTTP ${status}` : `HTTP ${status}: ${what}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Drops the members whose value is undefined (optional members are absent, never undefined). */
function compact<T extends object>(value: { [K in keyof T]: T[K] | undefined }): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function optionalStatus(value: unknown): number | undefined {
  // The registry writes the status as a string in some envelopes ("400").
  const status = typeof value === "string" ? (/^\d{3}$/.test(value) ? Number(value) : undefined) : value;
  return typeof status === "number" && Number.isInteger(status) ? status : undefined;
}

/**
 * Recognises the error envelopes the registry's services use: problem+json (RFC 9457, with the registry's
 * `code`; the registry's stubs send `status` as a string and leave `code` out), the official search's
 * `{ errors: [{ code, detail, status, trace_id, title }] }`, proprietor names' and official copy availability's
 * `{ errors: [{ error_code, error_message, http_status, timestamp, trace_id }] }`, and the attach operations'
 * `{ errors: [{ type, detail, pointer }] }`. Answers `undefined` for anything else.
 */
export function parseErrorBody(body: unknown, contentType?: string | null): ParsedErrorBody | undefined {
  if (!isObject(body)) return undefined;
  const problemMedia = contentType?.toLowerCase().includes("application/problem+json") ?? false;
  const problemShape =
    optionalStatus(body.status) !== undefined && (typeof body.title === "string" || typeof body.type === "string");
  if (problemMedia || problemShape) {
    const errors = Array.isArray(body.errors)
      ? body.errors.filter(isObject).map((item) =>
          compact<ErrorItem>({
            type: optionalString(item.type),
            pointer: typeof item.pointer === "string" || item.pointer === null ? item.pointer : undefined,
            detail: optionalString(item.detail),
          }),
        )
      : [];
    return compact<ParsedErrorBody>({
      // The registry's own stubs leave `code` out and name the error in each item's `type` (`OCV_L1A_000`).
      code: optionalString(body.code) ?? (body.code === undefined ? errors[0]?.type : undefined),
      title: optionalString(body.title),
      detail: optionalString(body.detail),
      errors,
      problem: body as unknown as Problem,
    });
  }
  if (Array.isArray(body.errors) && body.errors.length > 0 && body.errors.every(isObject)) {
    const items = body.errors;
    const errors = items.map((item) =>
      compact<ErrorItem>({
        code: optionalString(item.code) ?? optionalString(item.error_code) ?? optionalString(item.type),
        type: optionalString(item.type),
        pointer:
          typeof item.pointer === "string" || item.pointer === null
            ? item.pointer
            : optionalString(isObject(item.source) ? item.source.pointer : undefined),
        title: optionalString(item.title),
        detail: optionalString(item.detail) ?? optionalString(item.error_message),
        status: optionalStatus(item.status ?? item.http_status),
        traceId: optionalString(item.trace_id),
      }),
    );
    if (!errors.some((item) => item.code !== undefined)) return undefined;
    const first = errors[0];
    return compact<ParsedErrorBody>({
      code: first?.code,
      title: first?.title,
      detail: first?.detail,
      errors,
      registryErrors: items as unknown as RegistryErrorItem[],
    });
  }
  return undefined;
}

/** Where the error answer came from, when that changes its meaning (a 403 from the upload address). */
export interface ErrorContext {
  readonly upload?: boolean;
}

/**
 * The typed error for an error answer: 401 → {@link AuthenticationError}, 429 → {@link RateLimitError},
 * 403 from the upload address → {@link SignatureError}, any other recognised envelope → {@link ProblemError},
 * anything else → {@link HttpError}. The status decides before the body does, so a 429 with no body (a known
 * fault of the registry) is still a `RateLimitError`.
 */
export function errorFromResponse(init: HttpErrorInit, context: ErrorContext = {}): HttpError {
  const parsed = parseErrorBody(init.body, init.headers.get("content-type"));
  if (init.status === 401) return new AuthenticationError(init, parsed);
  if (init.status === 429) return new RateLimitError(init, parsed);
  if (init.status === 403 && context.upload === true) return new SignatureError(init, parsed);
  if (parsed !== undefined) return new ProblemError(init, parsed);
  return new HttpError(init);
}

/** Reads an error answer's body (JSON when it parses, else text) and answers its typed error. */
export async function errorFromFetchResponse(response: Response, context: ErrorContext = {}): Promise<HttpError> {
  const text = await response.text().catch(() => "");
  let body: unknown = text;
  try {
    body = text === "" ? text : JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return errorFromResponse({ status: response.status, headers: response.headers, url: response.url, body }, context);
}

/** The result of an openapi-fetch call: data on success, error (the parsed body) otherwise. */
export interface FetchResult<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Answers the data of an openapi-fetch call, or throws its typed error. For callers who prefer exceptions to
 * the `{ data, error, response }` values: `const list = await unwrap(client.GET("/v1/notifications"))`.
 */
export async function unwrap<T>(call: Promise<FetchResult<T>> | FetchResult<T>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) {
    throw errorFromResponse({
      status: response.status,
      headers: response.headers,
      url: response.url,
      body: error ?? "",
    });
  }
  return data as T;
}

/**
 * Milliseconds to wait from a `Retry-After` value: delay-seconds (`"2"`) or an HTTP date. Answers `undefined`
 * when the header is absent or unreadable, and 0 for a date in the past.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  if (!/[a-z]/i.test(trimmed)) return undefined;
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
