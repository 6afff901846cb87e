// Each exchange judged on its own, with the spec's one request checker and one response checker (`@lrg/spec/request`,
// `@lrg/spec/check`, the code the gateway validates with): the request against its operation's parameters, body and
// credentials (the software's side), the answer against the operation's documented statuses, content types, schemas and
// headers (the registry's side).
import { payloadSchemas, type Operation } from "@lrg/spec";
import { responseIssues, mediaTypeOf } from "@lrg/spec/check";
import { compileRequestCheckOf, type RequestCheck } from "@lrg/spec/request";
import { CLOCK_OPERATION_IDS } from "@lrg/spec/sandbox-clock";
import { bytesOf, REDACTED, textOf, type Exchange } from "./har.js";

/** Who departed from the spec: the registry answered what it does not allow, or the software sent it. */
export type Side = "registry" | "software";

/** One departure from the spec or from the registry's behaviour rules. */
export interface Finding {
  /** The exchange's index in the recording's `log.entries`. */
  readonly exchange: number;
  /** The operationId the exchange addressed, null for an undocumented endpoint. */
  readonly operation: string | null;
  readonly side: Side;
  /** What was checked (`request-schema`, `undocumented-status`, `retry-after`...). */
  readonly rule: string;
  /** JSON pointer into the exchange: `/request/query/limit`, `/response/body/data/0/status`, `/response/status`. */
  readonly pointer: string;
  readonly message: string;
}

/** The spec an exchange is judged against: its operations and how a request finds its own. */
export interface DriftSpec {
  readonly version: string;
  readonly match: (method: string, pathname: string) => Operation | undefined;
}

/** An exchange with its operation and what its request check answered (parameters coerced and defaulted). */
export interface Judged {
  readonly exchange: Exchange;
  readonly operation: Operation | undefined;
  readonly request: RequestCheck | undefined;
  /**
   * The answer's JSON body where the rules across exchanges read it (the notification services, polls, deferrals);
   * undefined elsewhere, and when it is unknown or not JSON.
   */
  readonly answer: unknown;
}

const checks = new WeakMap<Operation, ReturnType<typeof compileRequestCheckOf>>();

function requestCheckOf(operation: Operation): ReturnType<typeof compileRequestCheckOf> {
  let check = checks.get(operation);
  if (check === undefined) {
    check = compileRequestCheckOf(operation);
    checks.set(operation, check);
  }
  return check;
}

/** The path parameters of a path as its operation's template names them (an alias prefix is the leading segments). */
export function pathParameters(operation: Operation, pathname: string): Record<string, string> {
  const template = operation.path.split("/");
  const segments = pathname.split("/").slice(-template.length);
  const params: Record<string, string> = {};
  template.forEach((part, i) => {
    const name = /^\{(\w+)\}$/.exec(part)?.[1];
    if (name === undefined) return;
    try {
      params[name] = decodeURIComponent(segments[i] ?? "");
    } catch {
      params[name] = segments[i] ?? "";
    }
  });
  return params;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * The part of a body a masked member leaves unjudged: the array item that holds it (a schema's `oneOf` fails
 * on every branch of that item), or the whole body when no array holds it.
 */
function maskedScope(pointer: string): string {
  const parts = pointer.split("/");
  const item = parts.findLastIndex((part, i) => i > 0 && /^\d+$/.test(part));
  return item === -1 ? "/body" : `/body${parts.slice(0, item + 1).join("/")}`;
}

const under = (pointer: string, masked: readonly string[]) =>
  masked.map(maskedScope).some((scope) => pointer === scope || pointer.startsWith(`${scope}/`));

/** Whether `pointer` is into a header the recording holds redacted (a rate limit's `...-Tokens` count, say): unknown. */
const redactedHeader = (pointer: string, headers: Readonly<Record<string, string>>): boolean => {
  const name = /^\/headers\/([^/]+)/.exec(pointer)?.[1];
  return name !== undefined && headers[name.toLowerCase()] === REDACTED;
};

/** Whether an address is plain HTTP to a host other than this machine (where credentials travel in clear). */
function inClear(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return (
    protocol === "http:" &&
    !["localhost", "127.0.0.1", "[::1]", "::1"].includes(hostname) &&
    !hostname.startsWith("127.")
  );
}

const PAYLOAD_SCHEMAS = payloadSchemas();

/**
 * Whether an exchange fetched a notification payload schema where the spec publishes it (`x-lrg-payload-schema`: a
 * notification's `payload_schema` names `{base}/schemas/{name}.json`): a documented address, though not an operation.
 */
function isPayloadSchemaAddress(exchange: Exchange): boolean {
  const name = /\/schemas\/(.+)\.json$/.exec(exchange.pathname)?.[1];
  return exchange.method === "GET" && name !== undefined && PAYLOAD_SCHEMAS.has(name);
}

/** Judges one exchange on its own: its findings, and what the rules across exchanges read of it. */
export function judgeExchange(spec: DriftSpec, exchange: Exchange): { judged: Judged; findings: Finding[] } {
  const findings: Finding[] = [];
  const operation = spec.match(exchange.method, exchange.pathname);
  const at = (side: Side, rule: string, pointer: string, message: string) =>
    findings.push({
      exchange: exchange.index,
      operation: operation?.operationId ?? null,
      side,
      rule,
      pointer,
      message,
    });
  // Only what the rules across exchanges read is kept parsed: the notification services, polls, deferrals and the
  // sandbox clock's answers.
  const kept =
    operation !== undefined &&
    (operation.tags.includes("notifications") ||
      exchange.status === 202 ||
      operation.parameters.some((p) => p.in === "path" && p.name === "message_id") ||
      CLOCK_OPERATION_IDS.has(operation.operationId));
  const responseJson =
    kept && exchange.responseBody.known && mediaTypeOf(exchange.responseHeaders["content-type"]).includes("json")
      ? parseJson(textOf(exchange.responseBody))
      : { ok: false as const };
  const answer = responseJson.ok ? responseJson.value : undefined;
  if (operation === undefined) {
    if (isPayloadSchemaAddress(exchange))
      return { judged: { exchange, operation, request: undefined, answer }, findings };
    at(
      "software",
      "undocumented-endpoint",
      "/request/url",
      `${exchange.method} ${exchange.pathname} is not an operation of the spec`,
    );
    return { judged: { exchange, operation, request: undefined, answer }, findings };
  }

  // The request: what the software sent.
  let body: unknown;
  const sent = exchange.requestBody;
  const jsonSent = mediaTypeOf(exchange.requestHeaders["content-type"]).includes("json");
  let bodyKnown = true;
  if (sent !== undefined && !sent.known) bodyKnown = false;
  else if (sent !== undefined && sent.text !== "" && jsonSent) {
    const parsed = parseJson(textOf(sent));
    if (parsed.ok) body = parsed.value;
    else at("software", "request-schema", "/request/body", "the request body is not JSON");
  }
  const request = requestCheckOf(operation)({
    params: pathParameters(operation, exchange.pathname),
    query: exchange.query,
    headers: exchange.requestHeaders,
    body,
  });
  for (const name of request.unknownQuery)
    at(
      "software",
      "unknown-query-parameter",
      `/request/query/${name}`,
      `${name} is not a query parameter of ${operation.operationId}`,
    );
  for (const issue of request.issues) {
    // A body the recording does not hold whole is not judged, nor a member it masked.
    if (!bodyKnown && issue.pointer.startsWith("/body")) continue;
    if (under(issue.pointer, exchange.requestMasked) || redactedHeader(issue.pointer, exchange.requestHeaders))
      continue;
    at("software", "request-schema", `/request${issue.pointer}`, issue.detail);
  }
  if (operation.security !== "none" && exchange.requestHeaders["authorization"] === undefined)
    at(
      "software",
      "credentials",
      "/request/headers/authorization",
      `${operation.operationId} needs ${operation.security === "basic" ? "HTTP Basic credentials" : "the sandbox token"}; none were sent`,
    );

  if (exchange.requestHeaders["authorization"] !== undefined && inClear(exchange.url))
    at(
      "software",
      "credentials-in-clear",
      "/request/url",
      `credentials sent over plain HTTP to ${new URL(exchange.url).host}: only a loopback address may be reached without TLS`,
    );

  // The answer: what the registry (or the gateway) answered.
  if (exchange.status === 0) return { judged: { exchange, operation, request, answer }, findings };
  const issues = responseIssues(
    operation,
    {
      status: exchange.status,
      headers: exchange.responseHeaders,
      body: exchange.responseBody.known ? bytesOf(exchange.responseBody) : new Uint8Array(),
    },
    exchange.method === "HEAD",
    { body: exchange.responseBody.known },
  );
  for (const issue of issues) {
    if (under(issue.pointer, exchange.masked) || redactedHeader(issue.pointer, exchange.responseHeaders)) continue;
    const rule = issue.pointer === "/status" ? "undocumented-status" : "answer-schema";
    at("registry", rule, `/response${issue.pointer}`, issue.message);
  }
  return { judged: { exchange, operation, request, answer }, findings };
}
