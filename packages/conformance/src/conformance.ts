// The one response checker every property uses: the status is documented for the operation, the content type
// is one of that status's media types, a JSON body validates against its schema, and the documented headers are
// present when required and valid when present.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { componentSchema, operationFor, type OperationInfo, type SpecNode } from "./spec.js";

/** An answer as the checker sees it. */
export interface CheckedAnswer {
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the text of another body, or undefined when there is none. */
  body: unknown;
  bytes: Buffer;
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

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
// Headers arrive as text: a header schema of type integer is checked on the number the text spells.
const headerAjv = new Ajv2020({ strict: false, coerceTypes: true });
addFormats.default(headerAjv);

const compiled = new WeakMap<SpecNode, ValidateFunction>();
const compiledHeaders = new WeakMap<SpecNode, ValidateFunction>();

function validator(schema: SpecNode): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

function headerValidator(schema: SpecNode): ValidateFunction {
  let validate = compiledHeaders.get(schema);
  if (!validate) {
    validate = headerAjv.compile({ type: "object", properties: { value: schema } });
    compiledHeaders.set(schema, validate);
  }
  return validate;
}

/** The media type of a Content-Type header, without parameters, lower case. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** Validates a value against a schema of the spec; answers the violations (empty when valid). */
export function schemaViolations(schema: SpecNode, value: unknown, where = "body"): string[] {
  const validate = validator(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 10).map((e) => `${where}${e.instancePath} ${e.message ?? "is invalid"} (${e.schemaPath})`);
}

/** How strictly answers are checked: `registry` also accepts what the registry's own services are known to answer. */
export interface CheckOptions {
  registry?: boolean;
}

/**
 * The registry's own problem body, as its stubs for submission and Send a document answer it: the spec's Problem
 * with `status` as a string ("400"), no `instance` or `code`, and `errors[]` items without `pointer`. Derived from
 * the spec's Problem schema, which the spec's description of it names these differences against.
 */
const registryProblem: SpecNode = (() => {
  const problem = componentSchema("Problem");
  const properties = problem["properties"] as Record<string, SpecNode>;
  const errors = properties["errors"] as SpecNode;
  const item = errors["items"] as SpecNode;
  return {
    ...problem,
    required: ["title", "status"],
    properties: {
      ...properties,
      status: { type: ["integer", "string"], pattern: "^[45][0-9]{2}$", minimum: 400, maximum: 599 },
      errors: { ...errors, items: { ...item, required: ["type", "detail"] } },
    },
  };
})();

/**
 * Whether an error answer that departs from the spec is one the registry's own services are known to give:
 * its stubs' problem bodies (see `registryProblem`) on an operation that answers problem+json, and a 429 with no
 * body (a published fault of the registry's official copy availability). The registry's envelopes themselves are
 * in the spec (`x-lrg-error-envelope`), with both spellings of their status, so they need no leniency here.
 */
function registryTolerates(operation: OperationInfo, answer: CheckedAnswer): boolean {
  if (answer.status < 400) return false;
  if (answer.status === 429 && answer.bytes.length === 0) return true;
  const content = (operation.responses[String(answer.status)]?.["content"] ?? {}) as Record<string, SpecNode>;
  const mediaType = mediaTypeOf(answer.headers["content-type"]);
  const problemOperation = content["application/problem+json"] !== undefined;
  return problemOperation && mediaType.endsWith("json") && schemaViolations(registryProblem, answer.body).length === 0;
}

/** Answers every way an answer departs from what the spec documents for the operation; empty when it conforms. */
export function violationsOf(method: string, path: string, answer: CheckedAnswer, options: CheckOptions = {}): string[] {
  const operation = operationFor(method, path);
  if (!operation) return [`${method.toUpperCase()} ${path} is not an operation of the spec`];
  const violations = responseViolations(operation, answer);
  if (violations.length > 0 && options.registry === true && registryTolerates(operation, answer)) return [];
  return violations;
}

/** The violations of an answer against one operation's documented responses. */
export function responseViolations(operation: OperationInfo, answer: CheckedAnswer): string[] {
  const response = operation.responses[String(answer.status)];
  if (!response) {
    return [`status ${answer.status} is not documented for ${operation.operationId} (documented: ${Object.keys(operation.responses).join(", ")})`];
  }
  const violations: string[] = [];
  const content = response["content"] as Record<string, SpecNode> | undefined;
  const mediaType = mediaTypeOf(answer.headers["content-type"]);
  if (!content) {
    if (answer.bytes.length > 0) violations.push(`status ${answer.status} documents no body, got ${answer.bytes.length} bytes (${mediaType || "no content type"})`);
  } else if (answer.bytes.length === 0 && !mediaType) {
    violations.push(`status ${answer.status} documents a body (${Object.keys(content).join(", ")}), got none`);
  } else {
    const media = content[mediaType];
    if (!media) {
      violations.push(`content type ${mediaType || "(none)"} is not documented for status ${answer.status} (documented: ${Object.keys(content).join(", ")})`);
    } else if (mediaType.endsWith("json")) {
      const schema = media["schema"] as SpecNode | undefined;
      if (schema) violations.push(...schemaViolations(schema, answer.body));
    } else if (mediaType === "application/pdf" && answer.bytes.subarray(0, 5).toString("latin1") !== "%PDF-") {
      violations.push("an application/pdf body does not start with %PDF-");
    }
  }
  for (const [name, header] of Object.entries((response["headers"] ?? {}) as Record<string, SpecNode>)) {
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header["required"] === true) violations.push(`required header ${name} is missing`);
      continue;
    }
    const schema = header["schema"] as SpecNode | undefined;
    if (schema) {
      const validate = headerValidator(schema);
      if (!validate({ value })) violations.push(`header ${name}: ${JSON.stringify(value)} ${validate.errors?.[0]?.message ?? "is invalid"}`);
    }
  }
  return violations;
}

/** Throws a ConformanceError when the answer is not one the spec documents for this request. */
export function assertConformant(method: string, path: string, answer: CheckedAnswer, options: CheckOptions = {}): void {
  const violations = violationsOf(method, path, answer, options);
  if (violations.length > 0) throw new ConformanceError(`${method.toUpperCase()} ${path} → ${answer.status}`, violations);
}
