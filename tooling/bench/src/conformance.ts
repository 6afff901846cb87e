// Whether an answer is one the spec documents: status, content type, body schema, required headers. Ajv 2020
// (strict off: the spec carries OpenAPI keywords such as `example` and `discriminator`) over the dereferenced
// documents, each schema compiled once.
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { componentSchema, operationFor, problemCodes, type Operation, type Schema } from "./spec.js";

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
addFormats.default(ajv);
const compiled = new Map<Schema, ValidateFunction>();

function validatorOf(schema: Schema): ValidateFunction {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const problemSchema = componentSchema("Problem");

/** An answer as received. */
export interface Answer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** What the checker needs to know about the request besides the answer. */
export interface Asked {
  method: string;
  /** The path without the query string, as sent. */
  pathname: string;
  /**
   * The request addresses an operation's path with a parameter the router cannot take (longer than it allows,
   * or with characters it will not match): an answer for an unmatched route is acceptable then.
   */
  pathMayMiss?: boolean;
}

const mediaTypeOf = (header: string | string[] | undefined) => (Array.isArray(header) ? header[0] : header)?.split(";")[0]?.trim().toLowerCase() ?? "";

function checkProblem(status: number, json: unknown): string[] {
  const problem = json as { status?: unknown; code?: unknown };
  const found: string[] = [];
  if (problem.status !== status) found.push(`problem status ${String(problem.status)} differs from the HTTP status ${status}`);
  if (typeof problem.code === "string") {
    const catalogued = problemCodes.get(problem.code);
    if (catalogued === undefined) found.push(`problem code ${problem.code} is not in x-lrg-problem-codes`);
    else if (catalogued !== status) found.push(`problem code ${problem.code} is catalogued as ${catalogued}, answered as ${status}`);
  }
  return found;
}

function schemaErrors(schema: Schema, value: unknown): string[] {
  const validate = validatorOf(schema);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 5).map((error) => `body${error.instancePath} ${error.message ?? "is invalid"} (${error.schemaPath})`);
}

function parseJson(body: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(body.toString("utf8")) as unknown };
  } catch {
    return { ok: false };
  }
}

/** An unmatched route must answer 404 (`404-02`) or 405, as a problem. */
function checkUnmatched(answer: Answer, head: boolean): string[] {
  if (answer.status !== 404 && answer.status !== 405) return [`an unmatched route answered ${answer.status}, not 404-02 or 405`];
  return checkProblemAnswer(answer, answer.status === 404 ? "404-02" : undefined, head);
}

function checkProblemAnswer(answer: Answer, code: string | undefined, head: boolean): string[] {
  if (mediaTypeOf(answer.headers["content-type"]) !== "application/problem+json") {
    return [`${answer.status} answered as ${String(answer.headers["content-type"])}, not application/problem+json`];
  }
  if (head) return []; // an answer to HEAD has no body
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return [`${answer.status} problem body is not JSON`];
  const found = [...schemaErrors(problemSchema, parsed.value), ...checkProblem(answer.status, parsed.value)];
  const answeredCode = (parsed.value as { code?: unknown }).code;
  if (code !== undefined && answeredCode !== code) found.push(`expected problem code ${code}, got ${String(answeredCode)}`);
  return found;
}

/**
 * The ways an answer departs from the spec (empty when it conforms): its status is not documented for the
 * operation (an unmatched route must answer 404 `404-02` or 405), its content type is not one documented for the
 * status, its JSON body does not validate against the documented schema, a required header is missing, a body
 * comes where none is documented, or a problem's `status` or `code` disagree with the answer.
 */
export function violationsOf(asked: Asked, answer: Answer): string[] {
  const head = asked.method.toUpperCase() === "HEAD";
  const operation: Operation | undefined = operationFor(asked.method, asked.pathname);
  if (operation === undefined) return checkUnmatched(answer, head);
  const response = operation.responses.get(answer.status);
  if (response === undefined) {
    if (asked.pathMayMiss === true && answer.status === 404) return checkProblemAnswer(answer, "404-02", head);
    const code = mediaTypeOf(answer.headers["content-type"]).includes("json") ? (parseJson(answer.body) as { value?: { code?: unknown } }).value?.code : undefined;
    return [`status ${answer.status}${code === undefined ? "" : ` (${String(code)})`} is not documented for ${operation.operationId} (documents ${[...operation.responses.keys()].join(", ")})`];
  }
  const found: string[] = [];
  for (const header of response.requiredHeaders) {
    if (answer.headers[header] === undefined) found.push(`required header ${header} is missing from ${answer.status}`);
  }
  if (response.content.size === 0) {
    if (answer.body.length > 0 && !head) found.push(`${answer.status} has a body of ${answer.body.length} bytes where the spec documents none`);
    return found;
  }
  const mediaType = mediaTypeOf(answer.headers["content-type"]);
  if (!response.content.has(mediaType)) {
    found.push(`${answer.status} answered as ${mediaType || "(no content type)"}, documented ${[...response.content.keys()].join(", ")}`);
    return found;
  }
  if (head) return found;
  const schema = response.content.get(mediaType);
  if (!mediaType.includes("json")) {
    if (answer.body.length === 0) found.push(`${answer.status} ${mediaType} has an empty body`);
    return found;
  }
  const parsed = parseJson(answer.body);
  if (!parsed.ok) return [...found, `${answer.status} body is not JSON: ${answer.body.subarray(0, 80).toString("utf8")}`];
  if (schema !== undefined) found.push(...schemaErrors(schema, parsed.value));
  if (mediaType === "application/problem+json") found.push(...checkProblem(answer.status, parsed.value));
  return found;
}
