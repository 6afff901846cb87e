// Request building: a plan, drawn before any answer is known, becomes the bytes of one HTTP request once the
// fuzzer's records are there to name (its references resolved, real identifiers in its body, its credentials, every
// byte of its path and query encoded as the plan says).
import type { WireRequest } from "../http.js";
import { basic } from "../session.js";
import { Ref, type FuzzContext, type Named, type PoolName } from "./context.js";
import type { Auth, BodyPlan, Plan } from "./plans.js";

/** Who an exchange speaks for: unit a, unit b (the other unit), or the control plane's admin (no unit's own). */
export type Owner = "a" | "b" | "s";

/** Whose records an answer holds: a unit's own credentials are answered only its records. */
export function ownerOf(auth: Auth): Owner {
  if (auth === "other" || auth === "other-token") return "b";
  return auth === "unit" || auth === "unit-token" ? "a" : "s";
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of the UTF-8 text except the unreserved characters (and `keep`). */
export function percentEncode(text: string, keep: RegExp = UNRESERVED): string {
  let out = "";
  for (const char of text) {
    if (keep.test(char) && char.length === 1 && char.charCodeAt(0) < 128) out += char;
    else for (const byte of Buffer.from(char, "utf8")) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** Header values are visible ASCII; anything else is replaced so that the request can be sent at all. */
export const headerSafe = (text: string): string => text.replace(/[^\x20-\x7E\t]/g, "?");

/** Authorization headers that are not HTTP Basic as the scheme wants it, chosen by `pick`. */
const MALFORMED = [
  "Basic",
  "Basic !!!",
  `Basic ${Buffer.from("no-colon").toString("base64")}`,
  "Digest username=x",
  `Basic ${"A".repeat(2000)}`,
  `basic ${Buffer.from(":").toString("base64")}`,
];

/** The Authorization header of a plan's credentials (none for `none`). */
export function authorization(context: FuzzContext, auth: Auth, pick: number): string | undefined {
  if (auth === "none") return undefined;
  if (auth === "bearer") return `Bearer ${context.sandboxToken}`;
  if (auth === "bearer-wrong") return "Bearer not-the-token";
  if (auth === "malformed") return MALFORMED[pick % MALFORMED.length];
  const { a, b } = context.unitsOrThrow();
  switch (auth) {
    case "unit":
      return basic(a);
    case "other":
      return basic(b);
    case "wrong-password":
      return basic({ username: a.username, password: `${a.password}-wrong` });
    case "unit-token":
      return `Bearer ${a.sandboxToken}`;
    case "other-token":
      return `Bearer ${b.sandboxToken}`;
  }
}

/** Body members that take a real record of the fuzzer's (where a plan asks for real ids). */
const REAL_ID_MEMBERS: Record<string, PoolName> = {
  document_id: "document",
  title_number: "title",
  business_unit_id: "business_unit",
};

/**
 * Names real records in a JSON body, from the `start`-th of each pool on: document ids, title numbers, business
 * units, and the notification ids of an acknowledgement (its `data`).
 */
export function withRealIds(context: FuzzContext, value: unknown, start: number, acknowledging: boolean): unknown {
  let next = start;
  const take = (pool: PoolName) => context.resolve(new Ref(pool, next++));
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > 12 || node === null || typeof node !== "object") return node;
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1));
    return Object.fromEntries(
      Object.entries(node as Record<string, unknown>).map(([name, member]) => {
        const pool = REAL_ID_MEMBERS[name];
        return [name, pool !== undefined && typeof member === "string" ? take(pool) : walk(member, depth + 1)];
      }),
    );
  };
  const data = (value as { data?: unknown } | null)?.data;
  if (acknowledging && Array.isArray(data)) return { ...(value as object), data: data.map(() => take("notification")) };
  return walk(value, 0);
}

/** The value with every `Ref` in it replaced by the identifier it stands for. */
export function resolveRefs(context: FuzzContext, value: unknown): unknown {
  if (value instanceof Ref) return context.resolve(value);
  if (Array.isArray(value)) return value.map((item) => resolveRefs(context, item));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(context, v)]));
  return value;
}

/** A latency the settings accept stays a millisecond or two (the spec's example asks for 250 ms on every request). */
export function shortLatency(value: unknown): unknown {
  const latency = (value as { latency_ms?: unknown } | null)?.latency_ms;
  if (typeof latency !== "number" || !Number.isInteger(latency) || latency <= 2 || latency > 60_000) return value;
  return { ...(value as object), latency_ms: latency % 3 };
}

/** The bytes and content type of a plan's body. */
export function bodyBytes(
  context: FuzzContext,
  body: BodyPlan,
  realIds: { start: number; acknowledging: boolean } | undefined,
): { bytes: Buffer; contentType: string | undefined } {
  switch (body.kind) {
    case "json": {
      const resolved = resolveRefs(context, body.value);
      const named = realIds ? withRealIds(context, resolved, realIds.start, realIds.acknowledging) : resolved;
      return {
        bytes: Buffer.from(JSON.stringify(shortLatency(named)) ?? "null", "utf8"),
        contentType: body.contentType,
      };
    }
    case "text":
      return { bytes: Buffer.from(body.text, "utf8"), contentType: body.contentType };
    case "padded-json":
      return {
        bytes: Buffer.from(`{"data":["${"x".repeat(Math.max(0, body.bytes - 13))}"]}`),
        contentType: "application/json",
      };
  }
}

/** The path of a plan with its parameters resolved and encoded, and the records it names. */
function pathOf(context: FuzzContext, plan: Plan): { path: string; named: Named[] } {
  // An odd path keeps its `%` as given, so that a stray or broken escape reaches the router.
  const keep = plan.variant === "odd-path" ? /[A-Za-z0-9\-._~%]/ : UNRESERVED;
  const named: Named[] = [];
  const path = plan.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = plan.pathParams[name];
    const text = value instanceof Ref ? context.resolve(value) : (value ?? "");
    if (value instanceof Ref) named.push({ pool: value.pool, value: text });
    return percentEncode(text, keep);
  });
  return { path, named };
}

/**
 * The wire request of a plain plan (not a flow), and the records its path names. `acknowledging`: the operation's
 * body lists notification ids to acknowledge.
 */
export function wireOf(context: FuzzContext, plan: Plan, acknowledging = false): { wire: WireRequest; named: Named[] } {
  const { path, named } = pathOf(context, plan);
  const query = plan.query
    .map(
      ([name, value]) =>
        `${percentEncode(name)}=${percentEncode(value instanceof Ref ? context.resolve(value) : value)}`,
    )
    .join("&");
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(plan.headers)) headers[name] = headerSafe(value);
  const auth = authorization(context, plan.auth, plan.realIds ?? 0);
  if (auth !== undefined) headers["authorization"] = auth;
  let body: Buffer | undefined;
  if (plan.body !== undefined) {
    const realIds = plan.realIds === undefined ? undefined : { start: plan.realIds, acknowledging };
    const { bytes, contentType } = bodyBytes(context, plan.body, realIds);
    body = bytes;
    if (contentType !== undefined) headers["content-type"] = contentType;
    headers["content-length"] = String(bytes.length);
  }
  const target = `${plan.prefix}${path}${query ? `?${query}` : ""}`;
  return { wire: { method: plan.method, target, headers, ...(body !== undefined ? { body } : {}) }, named };
}

/** A request of JSON (or of nothing), with the headers given. */
export function jsonRequest(
  method: string,
  target: string,
  value: unknown,
  headers: Record<string, string>,
): WireRequest {
  if (value === undefined) return { method, target, headers };
  const body = Buffer.from(JSON.stringify(value));
  return {
    method,
    target,
    headers: { ...headers, "content-type": "application/json", "content-length": String(body.length) },
    body,
  };
}
