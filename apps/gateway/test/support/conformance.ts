import { expect } from "vitest";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { openapi, operationsOf, sandbox, type OperationSpec, type SpecNode } from "../../src/spec/openapi.js";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const compiled = new Map<SpecNode, ValidateFunction>();

const operations: (OperationSpec & { pattern: RegExp })[] = [openapi, sandbox].flatMap((document) =>
  operationsOf(document).map((spec) => ({ ...spec, pattern: new RegExp(`^(/api)?${spec.path.replace(/\{\w+\}/g, "[^/]+")}$`) })),
);

/** The spec operation that a request addresses. */
export function operationFor(method: string, url: string): OperationSpec | undefined {
  const path = new URL(url, "http://x").pathname;
  return operations.find((o) => o.method === method.toLowerCase() && o.pattern.test(path));
}

/**
 * Asserts that an answer is one the spec documents for this operation: the status is listed, the content type
 * is one of the status's media types, and the body validates against its schema.
 */
export function expectConformant(method: string, url: string, status: number, contentType: string | null, body: unknown): void {
  const spec = operationFor(method, url);
  expect(spec, `${method} ${url} is an operation of the spec`).toBeDefined();
  const responses = spec?.operation["responses"] as Record<string, SpecNode>;
  const response = responses[String(status)];
  expect(response, `${method} ${url}: status ${status} is documented (has ${Object.keys(responses).join(", ")})`).toBeDefined();
  const content = response?.["content"] as Record<string, SpecNode> | undefined;
  if (!content) return;
  const mediaType = (contentType ?? "").split(";")[0]?.trim() ?? "";
  const media = content[mediaType];
  expect(media, `${method} ${url} ${status}: content type ${mediaType} is documented (${Object.keys(content).join(", ")})`).toBeDefined();
  const schema = media?.["schema"] as SpecNode | undefined;
  if (!schema || !mediaType.includes("json")) return;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  const valid = validate(body);
  expect(validate.errors ?? [], `${method} ${url} ${status} body: ${JSON.stringify(body).slice(0, 500)}`).toEqual([]);
  expect(valid).toBe(true);
}

/**
 * The code and status of an error answer in any shape the gateway gives: problem+json, or one of the registry's
 * envelopes (the first item's code and status).
 */
export function errorCodeOf(body: unknown): { code: unknown; status: unknown } {
  const record = body as Record<string, unknown>;
  const first = (record["errors"] as Record<string, unknown>[] | undefined)?.[0];
  if (typeof record["code"] === "string" || !first) return { code: record["code"], status: record["status"] };
  return { code: first["code"] ?? first["error_code"] ?? first["type"], status: Number(first["status"] ?? first["http_status"]) || undefined };
}
