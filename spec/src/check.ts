// The one response checker: whether an answer is one the spec documents for the request. The status is
// documented for the operation (an unmatched route answers a 404 `404-02` or 405 problem), the content type is
// one of that status's media types, a JSON body validates against its schema, a problem agrees with the
// catalogue, and documented headers are present when required and valid when present. Ajv is configured here
// only: JSON Schema 2020-12 with formats, strict off (the spec carries OpenAPI keywords such as `example`).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { SpecNode } from "./documents.js";
import { problemCatalogue } from "./generated/constants.js";
import { componentSchema, operationFor, type Operation } from "./reader.js";

/** A JSON Schema 2020-12 validator for the spec's schemas (x- keywords and `example` ignored). */
export function createValidator(options: { coerceTypes?: boolean; useDefaults?: boolean } = {}): Ajv2020 {
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    coerceTypes: options.coerceTypes ?? false,
    useDefaults: options.useDefaults ?? false,
  });
  addFormats.default(ajv);
  return ajv;
}

const ajv = createValidator();
// Headers arrive as text: a header schema of type integer is checked on the number the text spells.
const headerAjv = createValidator({ coerceTypes: true });
const compiled = new WeakMap<object, ValidateFunction>();
const compiledHeaders = new WeakMap<object, ValidateFunction>();

/** The validator of a schema of the spec, compiled once per schema object. */
export function validatorOf(schema: SpecNode): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function headerValidator(schema: SpecNode): ValidateFunction {
  let validate = compiledHeaders.get(schema);
  if (validate === undefined) {
    validate = headerAjv.compile({ type: "object", properties: { value: schema } });
    compiledHeaders.set(schema, validate);
  }
  return validate;
}

/** The media type of a Content-Type header, without parameters, lower case ("" when absent). */
export function mediaTypeOf(contentType: string | string[] | undefined): string {
  return (Array.isArray(contentType) ? contentType[0] : contentType)?.split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Validates a value against a schema of the spec; answers the violations (empty when valid). */
export function schemaViolations(schema: SpecNode, value: unknown, where = "body"): string[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? [])
    .slice(0, 10)
    .map((e) => `${where}${e.instancePath} ${e.message ?? "is invalid"} (${e.schemaPath})`);
}

/** The request an answer is checked against. */
export interface Asked {
  method: string;
  /** The path without the query string, as sent. */
  pathname: string;
  /**
   * The request addresses an operation's path with a parameter a router cannot take (longer than it allows, or
   * with characters it will not match): a 404 `404-02` for an unmatched route is acceptable then.
   */
  pathMayMiss?: boolean;
}

/** An answer as received. */
export interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  /** The body's bytes (empty when there is none). */
  body: Uint8Array;
}

/** How answers are checked. */
export interface CheckOptions {
  /** Also accept what the registry's own services are known to answer (see registryTolerates). */
  registry?: boolean;
  /** Check the documented headers (default true; false when the caller kept only the content type). */
  headers?: boolean;
  /** Check the content type and body (default true; false to check the headers alone). */
  body?: boolean;
}

/** A response outside what the spec documents. */
export class ConformanceError extends Error {
  readonly violations: string[];

  constructor(what: string, violations: string[]) {
    super(`${what} does not conform to the spec:\n  - ${violations.join("\n  - ")}`);
    this.name = "ConformanceError";
    this.violations = violations;
  }
}

const text = (body: Uint8Array) => Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8");

function parseJson(body: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text(body)) as unknown };
  } catch {
    return { ok: false };
  }
}

/** A problem's `status` is the HTTP status, and its `code` is catalogued with that status. */
function problemViolations(status: number, json: unknown): string[] {
  const problem = json as { status?: unknown; code?: unknown };
  const found: string[] = [];
  if (problem.status !== status)
    found.push(`problem status ${String(problem.status)} differs from the HTTP status ${status}`);
  if (typeof problem.code === "string") {
    const catalogued = (problemCatalogue as Record<string, { status: number }>)[problem.code]?.status;
    if (catalogued === undefined) found.push(`problem code ${problem.code} is not in x-lrg-problem-codes`);
    else if (catalogued !== status)
      found.push(`problem code ${problem.code} is catalogued as ${catalogued}, answered as ${status}`);
  }
  return found;
}

let problemSchema: SpecNode | undefined;

function problemAnswerViolations(answer: Answer, code: string | undefined, head: boolean): string[] {
  if (mediaTypeOf(answer.headers["content-type"]) !== "application/problem+json") {
    return [`${answer.status} answered as ${String(answer.headers["content-type"])}, not application/problem+json`];
  }
  if (head) return []; // an answer to HEAD has no body
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return [`${answer.status} problem body is not JSON`];
  problemSchema ??= componentSchema("Problem");
  const found = [...schemaViolations(problemSchema, parsed.value), ...problemViolations(answer.status, parsed.value)];
  const answeredCode = (parsed.value as { code?: unknown }).code;
  if (code !== undefined && answeredCode !== code)
    found.push(`expected problem code ${code}, got ${String(answeredCode)}`);
  return found;
}

/** One way an answer departs from the spec: where (a JSON pointer into `/status`, `/headers/<name>` or `/body`) and what. */
export interface AnswerIssue {
  pointer: string;
  message: string;
}

function schemaIssues(schema: SpecNode, value: unknown): AnswerIssue[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => {
    const missing =
      e.keyword === "required" ? `/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : "";
    return {
      pointer: `/body${e.instancePath}${missing}`,
      message: `body${e.instancePath} ${e.message ?? "is invalid"} (${e.schemaPath})`,
    };
  });
}

/** Each way an answer departs from one operation's documented responses, with its pointer (empty when it conforms). */
export function responseIssues(
  operation: Operation,
  answer: Answer,
  head = false,
  options: CheckOptions = {},
): AnswerIssue[] {
  const response = operation.responses.get(answer.status);
  if (response === undefined) {
    const code = mediaTypeOf(answer.headers["content-type"]).includes("json")
      ? (parseJson(answer.body) as { value?: { code?: unknown } }).value?.code
      : undefined;
    return [
      {
        pointer: "/status",
        message: `status ${answer.status}${code === undefined ? "" : ` (${String(code)})`} is not documented for ${operation.operationId} (documented: ${[...operation.responses.keys()].join(", ")})`,
      },
    ];
  }
  const found: AnswerIssue[] = [];
  for (const [name, header] of options.headers === false ? [] : response.headers) {
    const raw = answer.headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    const pointer = `/headers/${name}`;
    if (value === undefined) {
      if (header.required) found.push({ pointer, message: `required header ${name} is missing from ${answer.status}` });
    } else if (header.schema !== undefined) {
      const validate = headerValidator(header.schema);
      if (!validate({ value }))
        found.push({
          pointer,
          message: `header ${name}: ${JSON.stringify(value)} ${validate.errors?.[0]?.message ?? "is invalid"}`,
        });
    }
  }
  if (options.body === false) return found;
  const mediaType = mediaTypeOf(answer.headers["content-type"]);
  const typePointer = "/headers/content-type";
  if (response.content.size === 0) {
    if (answer.body.length > 0 && !head)
      found.push({
        pointer: "/body",
        message: `${answer.status} has a body of ${answer.body.length} bytes where the spec documents none (${mediaType || "no content type"})`,
      });
    return found;
  }
  if (!response.content.has(mediaType)) {
    found.push({
      pointer: typePointer,
      message: `${answer.status} answered as ${mediaType || "(no content type)"}, documented ${[...response.content.keys()].join(", ")}`,
    });
    return found;
  }
  if (head) return found;
  if (!mediaType.includes("json")) {
    if (answer.body.length === 0)
      found.push({ pointer: "/body", message: `${answer.status} ${mediaType} has an empty body` });
    else if (mediaType === "application/pdf" && text(answer.body.subarray(0, 5)) !== "%PDF-")
      found.push({ pointer: "/body", message: "an application/pdf body does not start with %PDF-" });
    return found;
  }
  const parsed = parseJson(answer.body);
  if (!parsed.ok)
    return [
      ...found,
      { pointer: "/body", message: `${answer.status} body is not JSON: ${text(answer.body.subarray(0, 80))}` },
    ];
  const schema = response.content.get(mediaType);
  if (schema !== undefined) found.push(...schemaIssues(schema, parsed.value));
  if (mediaType === "application/problem+json")
    found.push(...problemViolations(answer.status, parsed.value).map((message) => ({ pointer: "/body", message })));
  return found;
}

/** The violations of an answer against one operation's documented responses (empty when it conforms). */
export function responseViolations(
  operation: Operation,
  answer: Answer,
  head = false,
  options: CheckOptions = {},
): string[] {
  return responseIssues(operation, answer, head, options).map((issue) => issue.message);
}

/**
 * The registry's own problem body, as its stubs for submission and Send a document answer it: the spec's Problem
 * with `status` as a string ("400"), no `instance` or `code`, and `errors[]` items without `pointer`. Derived from
 * the spec's Problem schema, whose description names these differences.
 */
let registryProblem: SpecNode | undefined;

function registryProblemSchema(): SpecNode {
  if (registryProblem !== undefined) return registryProblem;
  const problem = componentSchema("Problem");
  const properties = problem["properties"] as Record<string, SpecNode>;
  const errors = properties["errors"] as SpecNode;
  const item = errors["items"] as SpecNode;
  registryProblem = {
    ...problem,
    required: ["title", "status"],
    properties: {
      ...properties,
      status: { type: ["integer", "string"], pattern: "^[45][0-9]{2}$", minimum: 400, maximum: 599 },
      errors: { ...errors, items: { ...item, required: ["type", "detail"] } },
    },
  };
  return registryProblem;
}

/**
 * Whether an error answer that departs from the spec is one the registry's own services are known to give: its
 * stubs' problem bodies on an operation that answers problem+json, and a 429 with no body (a published fault of
 * the registry's official copy availability). The registry's envelopes are in the spec (`x-lrg-error-envelope`).
 */
function registryTolerates(operation: Operation, answer: Answer): boolean {
  if (answer.status < 400) return false;
  if (answer.status === 429 && answer.body.length === 0) return true;
  const problemOperation = operation.responses.get(answer.status)?.content.has("application/problem+json") === true;
  const parsed = parseJson(answer.body);
  return (
    problemOperation &&
    parsed.ok &&
    mediaTypeOf(answer.headers["content-type"]).endsWith("json") &&
    schemaViolations(registryProblemSchema(), parsed.value).length === 0
  );
}

/** Every way an answer departs from what the spec documents for the request; empty when it conforms. */
export function violationsOf(asked: Asked, answer: Answer, options: CheckOptions = {}): string[] {
  const head = asked.method.toUpperCase() === "HEAD";
  const operation = operationFor(asked.method, asked.pathname);
  if (operation === undefined) {
    if (answer.status !== 404 && answer.status !== 405)
      return [`an unmatched route answered ${answer.status}, not 404-02 or 405`];
    return problemAnswerViolations(answer, answer.status === 404 ? "404-02" : undefined, head);
  }
  if (asked.pathMayMiss === true && answer.status === 404 && !operation.responses.has(404))
    return problemAnswerViolations(answer, "404-02", head);
  const violations = responseViolations(operation, answer, head, options);
  if (violations.length > 0 && options.registry === true && registryTolerates(operation, answer)) return [];
  return violations;
}

/** Throws a ConformanceError when the answer is not one the spec documents for this request. */
export function assertConformant(asked: Asked, answer: Answer, options: CheckOptions = {}): void {
  const violations = violationsOf(asked, answer, options);
  if (violations.length > 0)
    throw new ConformanceError(`${asked.method.toUpperCase()} ${asked.pathname} → ${answer.status}`, violations);
}
