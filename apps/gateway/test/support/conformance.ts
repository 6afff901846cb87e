import { expect } from "vitest";
import { violationsOf, type Answer, type CheckOptions } from "@lrg/spec/check";

/**
 * Asserts that an answer is one the spec documents for this request (@lrg/spec's checker): the status is
 * listed, the content type is one of the status's media types, and the body validates against its schema; with
 * the headers given, the documented headers too.
 */
export function expectConformant(
  method: string,
  url: string,
  status: number,
  contentType: string | null,
  body: unknown,
  headers?: Headers,
): void {
  const pathname = new URL(url, "http://x").pathname;
  const bytes =
    body === undefined || body === ""
      ? new Uint8Array()
      : Buffer.from(typeof body === "string" ? body : JSON.stringify(body));
  const answered: Answer["headers"] = headers ? Object.fromEntries(headers) : {};
  if (contentType !== null) answered["content-type"] = contentType;
  const options: CheckOptions = headers ? {} : { headers: false };
  expect(
    violationsOf({ method, pathname }, { status, headers: answered, body: bytes }, options),
    `${method} ${url} → ${status}: ${JSON.stringify(body).slice(0, 500)}`,
  ).toEqual([]);
}

/** Asserts that the headers of an answer are those the spec documents for its status (required present, all valid). */
export function expectDocumentedHeaders(method: string, url: string, status: number, headers: Headers): void {
  const pathname = new URL(url, "http://x").pathname;
  expect(
    violationsOf(
      { method, pathname },
      { status, headers: Object.fromEntries(headers), body: new Uint8Array() },
      { body: false },
    ),
    `${method} ${url} → ${status} headers`,
  ).toEqual([]);
}

/**
 * The code and status of an error answer in any shape the gateway gives: problem+json, or one of the registry's
 * envelopes (the first item's code and status).
 */
export function errorCodeOf(body: unknown): { code: unknown; status: unknown } {
  const record = body as Record<string, unknown>;
  const first = (record["errors"] as Record<string, unknown>[] | undefined)?.[0];
  if (typeof record["code"] === "string" || !first) return { code: record["code"], status: record["status"] };
  return {
    code: first["code"] ?? first["error_code"] ?? first["type"],
    status: Number(first["status"] ?? first["http_status"]) || undefined,
  };
}
