import { problemCatalogue, problemTypeOf, type ProblemCode } from "@lrg/spec";
import { storageFaultOf } from "./storage/errors.js";

export type { ProblemCode };

/** One member of a request that failed validation. */
export interface ValidationIssue {
  type: string;
  detail: string;
  pointer: string | null;
}

/**
 * An error answer. Thrown anywhere in the gateway; the error handler renders it as problem+json. Status and
 * title come from the catalogue, so a code means the same everywhere.
 */
export class Problem extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly title: string;
  readonly errors: ValidationIssue[] | undefined;
  readonly rule: string | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ProblemCode,
    detail: string,
    extra: { errors?: ValidationIssue[]; rule?: string; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    // The type admits catalogued codes only; a code computed at run time is checked all the same.
    const entry = (problemCatalogue as Partial<Record<string, { status: number; title: string }>>)[code];
    if (!entry) throw new Error(`problem code ${code} is not in the spec's catalogue`);
    this.code = code;
    this.status = entry.status;
    this.title = entry.title;
    this.errors = extra.errors;
    this.rule = extra.rule;
    this.headers = extra.headers ?? {};
  }

  /** The problem+json body, with `instance` set to the request path. */
  body(instance: string): Record<string, unknown> {
    return {
      type: problemTypeOf(this.code),
      title: this.title,
      status: this.status,
      // Within the Problem schema's bounds, however long the request path was.
      detail: this.message.slice(0, 2000),
      instance: instance.slice(0, 2048),
      code: this.code,
      ...(this.rule ? { rule: this.rule } : {}),
      ...(this.errors ? { errors: this.errors.slice(0, 100) } : {}),
    };
  }
}

/** The problem of a request that does not match its operation's schema (400-02), naming each failing member. */
export function schemaMismatch(errors: ValidationIssue[]): Problem {
  return new Problem("400-02", "request does not match the schema", { errors });
}

/** Seconds a caller should wait after a store failure: a restart or failover takes seconds, making room longer. */
const RETRY_AFTER_UNREACHABLE_S = 2;
const RETRY_AFTER_CANNOT_WRITE_S = 10;

/**
 * The problem of a store failure (see `storageFaultOf`): 503 with Retry-After, never 500, since the caller did
 * nothing wrong and a retry succeeds once the store is back. Undefined for any other error.
 */
export function storageProblemOf(error: unknown): Problem | undefined {
  const fault = storageFaultOf(error);
  if (fault === "unreachable")
    return new Problem("503-02", "the gateway's store is unavailable; retry later", {
      headers: { "retry-after": String(RETRY_AFTER_UNREACHABLE_S) },
    });
  if (fault === "cannot-write")
    return new Problem("503-03", "the gateway's store cannot accept writes (full or read-only); retry later", {
      headers: { "retry-after": String(RETRY_AFTER_CANNOT_WRITE_S) },
    });
  return undefined;
}

/**
 * The code and detail of an error answer as it is sent (its serialized JSON, status 400 or more): a problem's `code`,
 * with the detail of its first schema error (`errors[0].detail`, which names the member) or else its `detail`; or, in
 * a registry envelope (no top-level code), its first item's `code` or `error_code` and `detail`, `message` or
 * `error_message`. Nulls for a success, or a body that is not such JSON. The audit trail and the observations of the
 * `answerSent` hook read answers with it.
 */
export function errorOfAnswer(status: number, payload: unknown): { code: string | null; detail: string | null } {
  const none = { code: null, detail: null };
  if (status < 400) return none;
  const text = typeof payload === "string" ? payload : Buffer.isBuffer(payload) ? payload.toString("utf8") : "";
  let body: unknown;
  try {
    body = text.startsWith("{") ? JSON.parse(text) : undefined;
  } catch {
    return none;
  }
  const record = (value: unknown): Record<string, unknown> =>
    typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
  const string = (value: unknown): string | null => (typeof value === "string" ? value : null);
  const answer = record(body);
  const errors = answer["errors"];
  const first = Array.isArray(errors) ? record(errors[0]) : {};
  if (typeof answer["code"] === "string")
    return { code: answer["code"], detail: string(first["detail"] ?? answer["detail"]) };
  return {
    code: string(first["code"] ?? first["error_code"]),
    detail: string(first["detail"] ?? first["message"] ?? first["error_message"]),
  };
}
